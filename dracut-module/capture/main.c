// SPDX-License-Identifier: GPL-2.0
/*
 * kdump-file-capture: the capture initramfs' /init (installed there by the
 * dracut module); saves the crashed kernel's dmesg and memory:
 *
 *   wait for the target device, mount it, make <path>/<time>/ (0700),
 *   dmesg.txt first, then vmcore-incomplete -> sync -> vmcore,
 *   metadata.json last, unmount, then the final action.
 *
 * Any failure takes the failure action.  Run by hand outside PID 1 (for
 * tests), the shell action exits with status 99 instead.  The phases
 * (capture.h) run over one struct capture; this file is the only one that
 * prints: the reporter below, to which every phase hands its lines.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "util.h"

/* Each line with the time since the capture started, to the console. */
static void report(struct capture *cap, const char *line)
{
	unsigned long long t = now_ms() - cap->t_start;

	printf("kdump-file: [%3llu.%01llus] %s\n", t / 1000, (t % 1000) / 100,
	       line);
	fflush(stdout);
}

/* A hook's output goes to the console as it comes. */
static void output(struct capture *cap, const char *buf, size_t n)
{
	(void)cap;
	fwrite(buf, 1, n, stdout);
	fflush(stdout);
}

static int do_reboot(int cmd)
{
	return reboot(cmd);
}

/*
 * As the capture initramfs' /init: the few things an init must do before
 * the capture can run.  No udev and no shell: they cost the capture kernel
 * seconds and megabytes it does not have.
 */
static void init_setup(void)
{
	int fd;

	(void)mkdir("/proc", 0555);
	(void)mkdir("/sys", 0555);
	(void)mkdir("/dev", 0755);
	(void)mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	(void)mount("sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	(void)mount("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755");
	/* lvm keeps its locks below /run/lock. */
	(void)mkdir_p("/run/lock", 0755);
	fd = open("/dev/console", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0) {
		(void)dup2(fd, STDIN_FILENO);
		(void)dup2(fd, STDOUT_FILENO);
		(void)dup2(fd, STDERR_FILENO);
		close(fd);
	}
	/*
	 * No PATH set: process_run() finds makedumpfile and lvm without one
	 * and the hooks get theirs (hooks.c); ours stays as the kernel made it.
	 */
}

int main(void)
{
	struct capture cap;
	int r;

	capture_init(&cap);
	cap.report = report;
	cap.output = output;
	cap.reboot = do_reboot;
	setvbuf(stdout, NULL, _IOLBF, 0);
	cap.is_init = getpid() == 1;
	if (cap.is_init)
		init_setup();
	(void)capture_run(&cap, capture_phases);
	r = cap.exit_status;
	capture_done(&cap);
	return r;
}
