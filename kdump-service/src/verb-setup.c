// SPDX-License-Identifier: GPL-2.0
/*
 * setup: reserve memory for the capture kernel from the next boot, as
 * much as estimate recommends, through a GRUB drop-in; --undo takes it
 * back.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli.h"
#include "estimate.h"
#include "process.h"
#include "util.h"

/*
 * Whether update-grub is there to run, looked for in PATH as execvp() will
 * (glibc's default path when PATH is unset).  Without it (a machine that
 * boots with systemd-boot, or without GRUB's Debian scripts) the drop-in
 * would reach no boot entry: setup refuses before it writes anything.
 */
static bool update_grub_found(void)
{
	char dirs[4096], path[PATH_MAX], *save = NULL;
	const char *env = getenv("PATH");

	if (env)
		snprintf(dirs, sizeof(dirs), "%s", env);
	else if (confstr(_CS_PATH, dirs, sizeof(dirs)) == 0)
		return false;
	for (char *d = strtok_r(dirs, ":", &save); d;
	     d = strtok_r(NULL, ":", &save)) {
		struct stat st;

		snprintf(path, sizeof(path), "%s/update-grub", d);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(path, X_OK) == 0)
			return true;
	}
	return false;
}

static int update_grub(void)
{
	char *const argv[] = { "update-grub", NULL };
	struct process_opts o = PROCESS_OPTS_INIT;
	struct process_result res;
	int r;

	fflush(stdout);
	/* Its chatter goes to stderr, ours stays on stdout. */
	o.stdout_fd = STDERR_FILENO;
	r = process_run(argv, &o, &res);
	if (r < 0)
		return r;
	return process_succeeded(&res) ? 0 : -EIO;
}

/* setup --undo: the drop-in removed, and update-grub run. */
static int setup_undo(unsigned long long reserved)
{
	int r;

	if (arg_dry_run) {
		if (access(GRUB_DROPIN, F_OK) < 0) {
			log_info("nothing to undo: %s does not exist", GRUB_DROPIN);
			return 0;
		}
		if (!update_grub_found()) {
			log_error("setup --undo would remove %s, but could not run update-grub: it is not installed, and the boot configuration would keep crashkernel= (remove it from your boot loader's kernel command line)",
				  GRUB_DROPIN);
			return -ENOENT;
		}
		printf("kdump-file: setup --undo would remove %s and run update-grub\n",
		       GRUB_DROPIN);
		return 0;
	}
	if (unlink(GRUB_DROPIN) < 0) {
		if (errno == ENOENT) {
			log_info("nothing to undo: %s does not exist",
				 GRUB_DROPIN);
			return 0;
		}
		r = -errno;
		log_error("cannot remove %s: %s", GRUB_DROPIN, strerror(-r));
		return r;
	}
	r = update_grub();
	if (r < 0) {
		log_error("removed %s, but update-grub %s: run it yourself", GRUB_DROPIN,
			  r == -ENOENT ? "is not installed" : "failed");
		return r;
	}
	log_info("crashkernel= removed from the next boot's command line%s",
		 reserved ? "; reboot to free the memory reserved now" : "");
	return 0;
}

/*
 * What the capture needs, measured on the capture kernel and initramfs the
 * plan names.  A real run builds the initramfs kdump-file owns if it is
 * missing or out of date; a dry run builds nothing and makes no directory:
 * 1 when the initramfs it would build is not there to measure (one built
 * before but out of date is measured: the rebuild changes little of its
 * size), *ret untouched.
 */
static int setup_estimate(struct plan *p, struct estimate *ret)
{
	int kfd = -1, ifd = -1, lock_fd, r;

	r = make_plan(p, !arg_dry_run);
	if (r < 0)
		return r;
	if (p->initramfs_managed && arg_dry_run) {
		if (access(p->initramfs, F_OK) < 0)
			return 1;
	} else if (p->initramfs_managed) {
		r = check_boot_files(p);
		if (r < 0)
			return r;
		r = take_lock(false, &lock_fd);
		if (r < 0)
			return r;
		r = ensure_initramfs(p, false);
		close(lock_fd);
		if (r < 0)
			return r;
	}
	r = open_regular("capture kernel", p->kernel, &kfd);
	if (r >= 0)
		r = open_regular("capture initramfs", p->initramfs, &ifd);
	if (r >= 0)
		r = estimate_capture(kfd, ifd, plan_system_ram(),
				     plan_modules_bytes(p), ret);
	if (kfd >= 0)
		close(kfd);
	if (ifd >= 0)
		close(ifd);
	if (r < 0 && kfd >= 0 && ifd >= 0)
		log_error("cannot estimate the reservation from '%s' and '%s': %s",
			  p->kernel, p->initramfs, strerror(-r));
	return r;
}

/* The drop-in written with text, and update-grub run. */
static int setup_write(const char *text, const char *value,
		       const struct estimate *e)
{
	int r;

	r = mkdir_p(GRUB_DROPIN_DIR, 0755);
	if (r >= 0)
		r = write_file_atomic(GRUB_DROPIN, text, strlen(text), 0644);
	if (r < 0) {
		log_error("cannot write %s: %s", GRUB_DROPIN, strerror(-r));
		return r;
	}
	r = update_grub();
	if (r == -ENOENT) {
		log_error("wrote %s, but update-grub is not installed: add crashkernel=%s to the kernel command line of your boot loader",
			  GRUB_DROPIN, value);
		return r;
	}
	if (r < 0) {
		log_error("wrote %s, but update-grub failed: fix it and run update-grub", GRUB_DROPIN);
		return r;
	}
	log_info("crashkernel=%s (kdump-file estimate: %.0f MiB needed) is on the next boot's command line (%s)",
		 value, e->needed / 1048576.0, GRUB_DROPIN);
	return 0;
}

/*
 * setup --dry-run: what setup would write, and whether it could.  It
 * fails (exit 1) when setup would: a dry run answers "would it work?".
 */
static int setup_dry_run(const struct plan *p, const struct estimate *e,
			 bool unbuilt, const char *value, bool written)
{
	if (!update_grub_found()) {
		log_error("setup could not run: update-grub is not installed, so a GRUB drop-in would reach no boot entry: add crashkernel=%s to your boot loader's kernel command line instead",
			  unbuilt ? "<size> ('kdump-file estimate' says which)" :
			  value);
		return -ENOENT;
	}
	if (unbuilt) {
		printf("kdump-file: setup would build the capture initramfs %s, measure it, write the crashkernel= size it needs to %s and run update-grub (its size is known once it is built: 'kdump-file rebuild')\n",
		       p->initramfs, GRUB_DROPIN);
		return 0;
	}
	/*
	 * One line with the size: debian/config shows it in its question.
	 * A result, not information: --quiet keeps it.
	 */
	printf("kdump-file: setup would write crashkernel=%s (kdump-file estimate: %.0f MiB needed) to %s%s\n",
	       value, e->needed / 1048576.0, GRUB_DROPIN,
	       written ? ", which has it already" : " and run update-grub");
	return 0;
}

/*
 * setup: reserve memory for the capture kernel at the next boot, as much
 * as estimate recommends, through a GRUB drop-in; --undo takes it back.
 */
int verb_setup(int argc _unused_, char *argv[] _unused_)
{
	char text[512], value[32] = "", old[512] = "", *cur = NULL;
	unsigned long long reserved = 0, want;
	struct estimate e = { 0 };
	bool unbuilt;
	struct plan p;
	int r;

	(void)read_ull_file(SYS_CRASH_SIZE, &reserved);
	if (arg_undo)
		return setup_undo(reserved);
	/* Before anything is built or written: the drop-in needs GRUB. */
	if (!arg_dry_run && !update_grub_found()) {
		log_error("cannot set up: update-grub is not installed, so a GRUB drop-in would reach no boot entry: add crashkernel= with the size 'kdump-file estimate' recommends to your boot loader's kernel command line");
		return -ENOENT;
	}
	r = setup_estimate(&p, &e);
	if (r < 0)
		return r;
	unbuilt = r == 1;
	want = e.recommended;
	snprintf(value, sizeof(value), "%lluM", want >> 20);
	snprintf(text, sizeof(text),
		 "# Written by \"kdump-file setup\"; \"kdump-file setup --undo\" removes it.\n"
		 "# Memory reserved at boot for the capture kernel (kdump-file estimate).\n"
		 "GRUB_CMDLINE_LINUX_DEFAULT=\"$GRUB_CMDLINE_LINUX_DEFAULT crashkernel=%s\"\n",
		 value);
	if (read_file_max(GRUB_DROPIN, &cur, sizeof(old) - 1) >= 0) {
		snprintf(old, sizeof(old), "%s", cur);
		free(cur);
	}
	if (arg_dry_run)
		return setup_dry_run(&p, &e, unbuilt, value,
				     strcmp(old, text) == 0);
	if (strcmp(old, text) != 0) {
		r = setup_write(text, value, &e);
		if (r < 0)
			return r;
	} else {
		log_info("already set up: crashkernel=%s in %s", value,
			 GRUB_DROPIN);
	}
	if (reserved == want)
		log_info("%llu MiB are reserved in this boot: nothing more to do",
			 reserved >> 20);
	else
		log_info("reboot to reserve it (this boot: %llu MiB); kdump-file.service then loads the capture kernel",
			 reserved >> 20);
	return 0;
}
