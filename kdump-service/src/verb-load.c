// SPDX-License-Identifier: GPL-2.0
/*
 * load, unload, reload, rebuild and test: what they take and say; the work
 * is load.c's and boot-files.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "boot-files.h"
#include "cli.h"
#include "hotplug-state.h"
#include "load.h"
#include "state.h"
#include "util.h"

int verb_unload(struct cli *cli, int argc _unused_, char *argv[] _unused_)
{
	return unload_capture(cli);
}

int verb_test(struct cli *cli, int argc _unused_, char *argv[] _unused_)
{
	char id[64] = "", boot[64] = "", buf[256], answer[16];
	unsigned long long loaded = 0;
	int fd, n, r;

	if (read_ull_file(SYS_CRASH_LOADED, &loaded) < 0 || loaded != 1) {
		log_error(cli, "no capture kernel is loaded: run 'kdump-file load' (or systemctl start kdump-file) first, or the test crash would save nothing");
		return -ENOENT;
	}
	if (!cli->opt.yes) {
		if (!isatty(STDIN_FILENO)) {
			log_error(cli, "'test' crashes this machine now; pass --yes to confirm when not on a terminal");
			return -ECANCELED;
		}
		printf("This crashes the machine now to test the capture. Type 'yes' to go on: ");
		fflush(stdout);
		if (!fgets(answer, sizeof(answer), stdin) ||
		    strcmp(answer, "yes\n") != 0) {
			log_info(cli, "test cancelled");
			return -ECANCELED;
		}
	}
	(void)read_line_file("/proc/sys/kernel/random/uuid", id, 9);
	(void)cli_boot_id(boot, sizeof(boot));
	n = snprintf(buf, sizeof(buf), "id=%s time=%lld boot=%s\n", id,
		     (long long)time(NULL), boot);
	r = mkdir_p(KDUMP_FILE_STATE_DIR, 0700);
	if (r >= 0)
		r = write_file_atomic(TEST_FILE, buf, n, 0600);
	if (r < 0)
		return log_create_error(cli, "record the test in", TEST_FILE, r);
	log_info(cli, "test %s: crashing now; after the reboot, 'kdump-file status' tells the result",
		 id);
	fflush(stdout);
	sync();
	fd = open("/proc/sysrq-trigger", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "c", 1) != 1) {
		r = -errno;
		log_error(cli, "cannot crash the machine through /proc/sysrq-trigger: %s",
			  strerror(-r));
		if (fd >= 0)
			close(fd);
		return r;
	}
	/* Not reached: the kernel panicked. */
	close(fd);
	return 0;
}

int verb_rebuild(struct cli *cli, int argc _unused_, char *argv[] _unused_)
{
	struct plan *p;
	int lock_fd, r;

	r = make_plan(cli, true, &p);
	if (r < 0)
		return r;
	if (!p->initramfs_managed) {
		log_error(cli, "'initramfs' is set to '%s' in %s: kdump-file does not build an initramfs it does not own",
			  p->initramfs, cli->opt.config);
		return -EINVAL;
	}
	r = take_lock(cli, false, &lock_fd);
	if (r < 0)
		return r;
	r = ensure_initramfs(cli, p, true);
	close(lock_fd);
	return r;
}

int verb_load(struct cli *cli, int argc _unused_, char *argv[] _unused_)
{
	return load_retrying(cli);
}

/*
 * reload is a load over the loaded capture kernel, never an unload first:
 * every check runs before the syscall, and when the kernel refuses the new
 * set, load puts the previous one back (see previous_restore(cli)), so a
 * failed reload leaves the machine protected.
 */
int verb_reload(struct cli *cli, int argc _unused_, char *argv[] _unused_)
{
	int r;

	r = cli->opt.after_hotplug ? reload_after_hotplug(cli) :
				     load_retrying(cli);
	return r < 0 ? r : 0;
}
