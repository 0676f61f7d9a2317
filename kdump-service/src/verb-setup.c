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

#include "boot-files.h"
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

/*
 * The drop-in setup writes for the crashkernel= value.  The value is in
 * the comment as well: a hand edit of the size alone makes the two
 * differ, and setup sees that the file is no longer its own.
 */
static void dropin_text(const char *value, char *buf, size_t size)
{
	snprintf(buf, size,
		 "# Written by \"kdump-file setup\"; \"kdump-file setup --undo\" removes it.\n"
		 "# Memory reserved at boot for the capture kernel (kdump-file estimate: %s).\n"
		 "GRUB_CMDLINE_LINUX_DEFAULT=\"$GRUB_CMDLINE_LINUX_DEFAULT crashkernel=%s\"\n",
		 value, value);
}

/* What setup wrote before the size was in the comment too. */
static void dropin_text_v1(const char *value, char *buf, size_t size)
{
	snprintf(buf, size,
		 "# Written by \"kdump-file setup\"; \"kdump-file setup --undo\" removes it.\n"
		 "# Memory reserved at boot for the capture kernel (kdump-file estimate).\n"
		 "GRUB_CMDLINE_LINUX_DEFAULT=\"$GRUB_CMDLINE_LINUX_DEFAULT crashkernel=%s\"\n",
		 value);
}

/*
 * Whether text is a drop-in as setup writes it, for whatever size it
 * wrote ("<MiB>M"): then setup may replace or remove it.  Anything else (a
 * line changed, added or removed by hand, a size of another syntax) is the
 * administrator's.  A drop-in of the earlier form is recognised by its
 * form alone: a size changed by hand there looks like setup's.
 */
static bool dropin_ours(const char *text)
{
	const char *p = strstr(text, "crashkernel=");
	char value[32], want[512];
	size_t n;

	if (!p)
		return false;
	p += strlen("crashkernel=");
	n = strspn(p, "0123456789");
	if (n == 0 || n > 20 || p[n] != 'M' || p[n + 1] != '"')
		return false;
	memcpy(value, p, n + 1);
	value[n + 1] = '\0';
	dropin_text(value, want, sizeof(want));
	if (strcmp(text, want) == 0)
		return true;
	dropin_text_v1(value, want, sizeof(want));
	return strcmp(text, want) == 0;
}

/*
 * The drop-in now: *ret_text (free it, NULL when there is none) and
 * whether a hand edited it.  A file too large for setup's is not setup's.
 */
static int dropin_read(struct cli *cli, char **ret_text, bool *ret_edited)
{
	char *text = NULL;
	int r;

	r = read_file_max(GRUB_DROPIN, &text, 65536);
	if (r == -ENOENT) {
		*ret_text = NULL;
		*ret_edited = false;
		return 0;
	}
	if (r == -EFBIG) {
		*ret_text = strdup("");
		*ret_edited = true;
		return *ret_text ? 0 : -ENOMEM;
	}
	if (r < 0) {
		log_error(cli, "cannot read %s: %s", GRUB_DROPIN, strerror(-r));
		return r;
	}
	*ret_edited = !dropin_ours(text);
	*ret_text = text;
	return 0;
}

/* A hand-edited drop-in, kept beside it as .bak before setup --force. */
static int dropin_keep(struct cli *cli, char *bak, size_t size)
{
	_cleanup_free_ char *text = NULL;
	int r;

	snprintf(bak, size, "%s.bak", GRUB_DROPIN);
	r = read_file_max(GRUB_DROPIN, &text, 1 << 20);
	if (r >= 0)
		r = write_file_atomic(bak, text, (size_t)r, 0644);
	if (r < 0)
		log_error(cli, "cannot keep the hand-edited %s as %s: %s; nothing changed",
			  GRUB_DROPIN, bak, strerror(-r));
	return r;
}

/* setup --undo: the drop-in removed, and update-grub run. */
static int setup_undo(struct cli *cli, unsigned long long reserved)
{
	_cleanup_free_ char *cur = NULL;
	char bak[PATH_MAX];
	bool edited;
	int r;

	r = dropin_read(cli, &cur, &edited);
	if (r < 0)
		return r;
	if (cur && edited && !cli->opt.force) {
		log_error(cli, "%s was edited by hand since setup wrote it: setup --undo does not remove it (edit it yourself, or add --force to remove it; it is then kept as %s.bak, which update-grub does not read)",
			  GRUB_DROPIN, GRUB_DROPIN);
		return -EEXIST;
	}
	if (cli->opt.dry_run) {
		if (access(GRUB_DROPIN, F_OK) < 0) {
			log_info(cli, "nothing to undo: %s does not exist", GRUB_DROPIN);
			return 0;
		}
		if (!update_grub_found()) {
			log_error(cli, "setup --undo would remove %s, but could not run update-grub: it is not installed, and the boot configuration would keep crashkernel= (remove it from your boot loader's kernel command line)",
				  GRUB_DROPIN);
			return -ENOENT;
		}
		printf("kdump-file: setup --undo would remove %s%s and run update-grub\n",
		       GRUB_DROPIN, edited ? ", edited by hand, keeping it as .bak," : "");
		return 0;
	}
	if (cur && edited) {
		r = dropin_keep(cli, bak, sizeof(bak));
		if (r < 0)
			return r;
		log_info(cli, "kept the hand-edited %s as %s", GRUB_DROPIN, bak);
	}
	if (unlink(GRUB_DROPIN) < 0) {
		if (errno == ENOENT) {
			log_info(cli, "nothing to undo: %s does not exist",
				 GRUB_DROPIN);
			return 0;
		}
		r = -errno;
		log_error(cli, "cannot remove %s: %s", GRUB_DROPIN, strerror(-r));
		return r;
	}
	r = update_grub();
	if (r < 0) {
		log_error(cli, "removed %s, but update-grub %s: run it yourself", GRUB_DROPIN,
			  r == -ENOENT ? "is not installed" : "failed");
		return r;
	}
	log_info(cli, "crashkernel= removed from the next boot's command line%s",
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
static int setup_estimate(struct cli *cli, struct plan **ret_plan,
			  struct estimate *ret)
{
	int kfd = -1, ifd = -1, lock_fd, r;
	struct plan *p;

	r = make_plan(cli, !cli->opt.dry_run, &p);
	*ret_plan = p;
	if (r < 0)
		return r;
	if (p->initramfs_managed && cli->opt.dry_run) {
		if (access(p->initramfs, F_OK) < 0)
			return 1;
	} else if (p->initramfs_managed) {
		r = check_boot_files(cli, p);
		if (r < 0)
			return r;
		r = take_lock(cli, false, &lock_fd);
		if (r < 0)
			return r;
		r = ensure_initramfs(cli, p, false);
		close(lock_fd);
		if (r < 0)
			return r;
	}
	r = open_regular(cli, "capture kernel", p->kernel, &kfd);
	if (r >= 0)
		r = open_regular(cli, "capture initramfs", p->initramfs, &ifd);
	if (r >= 0)
		r = plan_estimate(p, kfd, ifd, ret);
	if (kfd >= 0)
		close(kfd);
	if (ifd >= 0)
		close(ifd);
	if (r < 0 && kfd >= 0 && ifd >= 0)
		log_error(cli, "cannot estimate the reservation from '%s' and '%s': %s",
			  p->kernel, p->initramfs, strerror(-r));
	return r;
}

/* The drop-in written with text, and update-grub run. */
static int setup_write(struct cli *cli, const char *text, const char *value,
		       const struct estimate *e)
{
	int r;

	r = mkdir_p(GRUB_DROPIN_DIR, 0755);
	if (r >= 0)
		r = write_file_atomic(GRUB_DROPIN, text, strlen(text), 0644);
	if (r < 0) {
		log_error(cli, "cannot write %s: %s", GRUB_DROPIN, strerror(-r));
		return r;
	}
	r = update_grub();
	if (r == -ENOENT) {
		log_error(cli, "wrote %s, but update-grub is not installed: add crashkernel=%s to the kernel command line of your boot loader",
			  GRUB_DROPIN, value);
		return r;
	}
	if (r < 0) {
		log_error(cli, "wrote %s, but update-grub failed: fix it and run update-grub", GRUB_DROPIN);
		return r;
	}
	log_info(cli, "crashkernel=%s (kdump-file estimate: %.0f MiB needed) is on the next boot's command line (%s)",
		 value, e->needed / 1048576.0, GRUB_DROPIN);
	return 0;
}

/*
 * setup --dry-run: what setup would write, and whether it could.  It
 * fails (exit 1) when setup would: a dry run answers "would it work?".
 */
static int setup_dry_run(struct cli *cli, const struct plan *p,
			 const struct estimate *e, bool unbuilt,
			 const char *value, bool written, bool edited)
{
	if (!update_grub_found()) {
		log_error(cli, "setup could not run: update-grub is not installed, so a GRUB drop-in would reach no boot entry: add crashkernel=%s to your boot loader's kernel command line instead",
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
	       written ? ", which has it already" :
	       edited ? ", edited by hand: kept as .bak (--force), and run update-grub" :
			" and run update-grub");
	return 0;
}

/*
 * setup: reserve memory for the capture kernel at the next boot, as much
 * as estimate recommends, through a GRUB drop-in; --undo takes it back.
 */
int verb_setup(struct cli *cli, int argc _unused_, char *argv[] _unused_)
{
	char text[512], value[32] = "", bak[PATH_MAX];
	_cleanup_free_ char *cur = NULL;
	unsigned long long reserved = 0, want;
	struct estimate e = { 0 };
	bool unbuilt, edited;
	struct plan *p;
	int r;

	(void)kexec_crash_size(&reserved);
	if (cli->opt.undo)
		return setup_undo(cli, reserved);
	/* Before anything is built or written: the drop-in needs GRUB. */
	if (!cli->opt.dry_run && !update_grub_found()) {
		log_error(cli, "cannot set up: update-grub is not installed, so a GRUB drop-in would reach no boot entry: add crashkernel= with the size 'kdump-file estimate' recommends to your boot loader's kernel command line");
		return -ENOENT;
	}
	/*
	 * A drop-in someone edited after setup wrote it holds what they
	 * meant (a size of their own, another option): never replaced
	 * unawares, refused before anything is built.
	 */
	r = dropin_read(cli, &cur, &edited);
	if (r < 0)
		return r;
	if (cur && edited && !cli->opt.force) {
		log_error(cli, "%s was edited by hand since setup wrote it: setup does not replace it (move your changes to another file in %s, or add --force to replace it; it is then kept as %s.bak, which update-grub does not read)",
			  GRUB_DROPIN, GRUB_DROPIN_DIR, GRUB_DROPIN);
		return -EEXIST;
	}
	r = setup_estimate(cli, &p, &e);
	if (r < 0)
		return r;
	unbuilt = r == 1;
	want = e.recommended;
	snprintf(value, sizeof(value), "%lluM", want >> 20);
	dropin_text(value, text, sizeof(text));
	if (cli->opt.dry_run)
		return setup_dry_run(cli, p, &e, unbuilt, value,
				     cur && strcmp(cur, text) == 0,
				     cur && edited);
	if (!cur || strcmp(cur, text) != 0) {
		if (cur && edited) {
			r = dropin_keep(cli, bak, sizeof(bak));
			if (r < 0)
				return r;
			log_info(cli, "kept the hand-edited %s as %s", GRUB_DROPIN,
				 bak);
		}
		r = setup_write(cli, text, value, &e);
		if (r < 0)
			return r;
	} else {
		log_info(cli, "already set up: crashkernel=%s in %s", value,
			 GRUB_DROPIN);
	}
	if (reserved == want)
		log_info(cli, "%llu MiB are reserved in this boot: nothing more to do",
			 reserved >> 20);
	else
		log_info(cli, "reboot to reserve it (this boot: %llu MiB); kdump-file.service then loads the capture kernel",
			 reserved >> 20);
	return 0;
}
