// SPDX-License-Identifier: GPL-2.0
/*
 * What bounds the capture and what ends it: the deadline process, the
 * hardware watchdog, and the final (or failure) action.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/watchdog.h>
#include <sys/ioctl.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture.h"
#include "modplan.h"
#include "steps.h"
#include "util.h"

/* Before an orderly reboot: stop the watchdog so the next boot is not reset. */
void watchdog_disarm(struct capture *cap)
{
	if (cap->wd_fd < 0)
		return;
	(void)!write(cap->wd_fd, "V", 1);
	close(cap->wd_fd);
	cap->wd_fd = -1;
}

/*
 * Opening the watchdog started it with the driver's own timeout, often
 * 30 s: one that cannot wait the whole deadline would reset a capture that
 * is going well, so it is stopped again instead.
 */
static void watchdog_set(struct capture *cap, const char *name, int timeout)
{
	int want = timeout;

	if (ioctl(cap->wd_fd, WDIOC_SETTIMEOUT, &timeout) < 0 ||
	    timeout < want) {
		capture_say(cap, "warning: watchdog %s cannot wait %d s (capture_timeout + %d): left stopped",
			    name, want, CAPTURE_WATCHDOG_MARGIN);
		watchdog_disarm(cap);
		return;
	}
	(void)ioctl(cap->wd_fd, WDIOC_KEEPALIVE, 0);
	capture_say(cap, "hardware watchdog armed: %d s (%s)", timeout, name);
}

/*
 * The hardware watchdog kdump-file(8) chose at load time, armed for
 * capture_timeout + CAPTURE_WATCHDOG_MARGIN: a backstop for when the
 * capture kernel is too stuck for the deadline process to run.  Loading
 * the driver stops the countdown the crashed system left running; arming
 * it here starts ours.
 */
void watchdog_arm(struct capture *cap, const char *name)
{
	unsigned int ct = cap->conf.capture_timeout;
	int timeout = (int)(ct ? ct : 600) + CAPTURE_WATCHDOG_MARGIN;
	int r = 0;

	/* Without a module plan the driver may be there all the same. */
	if (strcmp(name, "-") != 0 && cap->kmods)
		r = modplan_insert(cap->kmods, name);
	if (r < 0 && r != -EEXIST) {
		capture_say(cap, "warning: cannot load watchdog driver %s: %s",
			    name, strerror(-r));
		return;
	}
	/* The device node appears as the driver binds. */
	for (int i = 0; i < 20 && cap->wd_fd < 0; i++) {
		cap->wd_fd = open(cap->paths.watchdog, O_WRONLY | O_CLOEXEC);
		if (cap->wd_fd < 0)
			usleep(50 * 1000);
	}
	if (cap->wd_fd < 0) {
		capture_say(cap, "warning: cannot open %s: %s",
			    cap->paths.watchdog, strerror(errno));
		return;
	}
	watchdog_set(cap, name, timeout);
}

/*
 * Replace the dump's metadata.json with why the capture stopped, so that
 * the next boot says so; in a process of its own given 5 s, since the
 * target may be what is stuck.
 */
static void deadline_record(struct capture *cap, const char *meta,
			    const char *last)
{
	unsigned int timeout = cap->conf.capture_timeout;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		char why[256], dir[PATH_MAX];
		char *slash;
		int fd;

		/* meta is the dump directory's metadata.json. */
		snprintf(dir, sizeof(dir), "%s", meta);
		slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		snprintf(why, sizeof(why), "capture_timeout (%u s) passed while %s",
			 timeout, last);
		_exit(fd < 0 || capture_write_incomplete(fd, why) < 0);
	}
	if (pid < 0)
		return;
	for (int i = 0; i < 50; i++) {
		if (waitpid(pid, NULL, WNOHANG) == pid) {
			capture_say(cap, "recorded why in %s",
				    capture_rel(cap, meta));
			return;
		}
		usleep(100 * 1000);
	}
	capture_say(cap, "warning: cannot record why on the target within 5 s");
}

/* The deadline passed: say so, record why, and end without a sync. */
static void __attribute__((noreturn))
deadline_passed(struct capture *cap, const struct steps *st)
{
	const struct kdump_conf *c = &cap->conf;
	struct diag why = DIAG_INIT;

	(void)capture_fail(cap, -ETIMEDOUT, "capture_timeout (%us) passed while %s: taking failure_action = %s",
			   c->capture_timeout, st->last,
			   conf_action_to_string(c->failure_action));
	if (st->meta[0])
		deadline_record(cap, st->meta, st->last);
	/* The record names the step apart: its why is the cause alone. */
	(void)diag_fail(&why, -ETIMEDOUT, "capture_timeout (%us) passed",
			c->capture_timeout);
	capture_record_failure(cap, st->last, &why);
	if (!cap->is_init)
		_exit(EXIT_FAILURE);
	switch (c->failure_action) {
	case ACTION_POWEROFF:
		cap->reboot(RB_POWER_OFF);
		break;
	case ACTION_HALT:
		cap->reboot(RB_HALT_SYSTEM);
		break;
	default:
		/* A shell would wait for someone: reboot instead. */
		cap->reboot(RB_AUTOBOOT);
		break;
	}
	_exit(EXIT_FAILURE);
}

/* The deadline process: follow the steps until the pipe closes or time ends. */
static void __attribute__((noreturn))
deadline_process(struct capture *cap, int fd)
{
	unsigned long long end = cap->deadline_end;
	struct steps st;
	char buf[4096];

	steps_init(&st);
	for (;;) {
		long long left = (long long)end - (long long)now_ms();
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (left <= 0)
			break;
		if (poll(&p, 1, left > 60000 ? 60000 : (int)left) <= 0)
			continue;
		n = read(fd, buf, sizeof(buf));
		if (n == 0)
			_exit(0);
		if (n > 0)
			steps_take(&st, buf, n);
	}
	deadline_passed(cap, &st);
}

/*
 * The capture's deadline, capture_timeout, kept by a process of its own:
 * the capture itself may be stuck in the kernel (a write to a target that
 * stalls does not return), where no signal reaches it.  The capture tells
 * it each step through a pipe; when the deadline passes it says which step
 * was running and takes failure_action, without a sync (the target may be
 * what is stuck).  When the capture ends or execs a shell, the pipe closes
 * and the deadline process ends too.
 */
int phase_deadline(struct capture *cap)
{
	unsigned int timeout = cap->conf.capture_timeout;
	int pfd[2];
	pid_t pid;

	if (timeout)
		cap->deadline_end = now_ms() + timeout * 1000ULL;
	if (timeout && pipe2(pfd, O_CLOEXEC) == 0) {
		pid = fork();
		if (pid == 0) {
			close(pfd[1]);
			deadline_process(cap, pfd[0]);
		}
		close(pfd[0]);
		if (pid > 0)
			cap->step_fd = pfd[1];
		else
			close(pfd[1]);
	}
	capture_say(cap, "capture deadline: %us (capture_timeout)", timeout);
	return 0;
}

static int action_shell(struct capture *cap)
{
	int r;

	capture_say(cap, "dropping to a shell; 'reboot -f' or Ctrl-D to leave");
	if (!cap->is_init) {
		cap->exit_status = CAPTURE_EXIT_SHELL;
		return 0;
	}
	execl(cap->paths.shell, "sh", NULL);
	/*
	 * kdump-file(8) puts sh in the image for failure_action = shell
	 * (KDUMP_FILE_SHELL, module-setup.sh): without it, an image built
	 * by hand or by an older kdump-file.  A reboot is what a capture
	 * without its action can still do.
	 */
	r = -errno;
	(void)capture_fail(cap, r, "cannot run %s: %s: the capture initramfs has no shell for failure_action = shell (rebuild it with 'kdump-file rebuild'): rebooting",
			   cap->paths.shell, strerror(-r));
	return cap->reboot(RB_AUTOBOOT);
}

/*
 * Take action a.  As PID 1 it does not return when it works; on the host
 * the reboot(2) of the state is what a test replaced, and a shell is an
 * exit status.
 */
int capture_action(struct capture *cap, enum conf_action a)
{
	int r;

	sync();
	watchdog_disarm(cap);
	cap->action_taken = a;
	cap->exit_status = EXIT_FAILURE;
	switch (a) {
	case ACTION_POWEROFF:
		capture_say(cap, "powering off");
		r = cap->reboot(RB_POWER_OFF);
		break;
	case ACTION_HALT:
		capture_say(cap, "halting");
		r = cap->reboot(RB_HALT_SYSTEM);
		break;
	case ACTION_SHELL:
		r = action_shell(cap);
		break;
	default:
		capture_say(cap, "rebooting");
		r = cap->reboot(RB_AUTOBOOT);
		break;
	}
	return r < 0 ? -errno : 0;
}

/* The last phase: the failure record and failure_action, or final_action. */
int phase_action(struct capture *cap)
{
	const struct kdump_conf *c = &cap->conf;
	double secs = (now_ms() - cap->t_start) / 1000.0;

	if (cap->no_vmcore)
		return cap->is_init ? capture_action(cap, ACTION_REBOOT) : 0;
	if (cap->result < 0) {
		/* Why is the error line before; this one says where. */
		const char *step = cap->fail_step[0] ? cap->fail_step :
				   cap->stop_step[0] ? cap->stop_step :
				   cap->step;

		/*
		 * The first failure's step, errno and words (cap->diag):
		 * later cleanup (unmounting) may fail too, and is not why.
		 */
		capture_say(cap, "capture failed after %.1fs while %s", secs,
			    step);
		capture_record_failure(cap, step, &cap->diag);
		return capture_action(cap, c->failure_action);
	}
	capture_say(cap, "capture complete in %.1fs", secs);
	if (cap->post_stopped) {
		capture_say(cap, "a post hook failed and hook_failure = stop: the dump is saved, taking failure_action = %s",
			    conf_action_to_string(c->failure_action));
		return capture_action(cap, c->failure_action);
	}
	return capture_action(cap, c->final_action);
}
