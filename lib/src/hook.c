// SPDX-License-Identifier: GPL-2.0
/*
 * The hook runner.  The capture cannot afford a hook that hangs: the whole
 * process group is killed when the time is over, and the pipe that carries
 * its output is read with poll() so that a child left holding it open
 * cannot keep us waiting either.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hook.h"
#include "util.h"

/* After its exit: how long what is left in the pipe may take to come. */
#define HOOK_DRAIN_MS 1000
/* After SIGKILL: how long to wait for a process stuck in the kernel. */
#define HOOK_REAP_MS 2000

static void child(char *const argv[], int out_fd, int err_fd)
{
	static const int reset[] = { SIGPIPE, SIGCHLD, SIGINT, SIGTERM,
				     SIGHUP, SIGQUIT, SIGALRM };
	sigset_t none;
	int fd, e;

	(void)setpgid(0, 0);
	sigemptyset(&none);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);
	for (size_t i = 0; i < sizeof(reset) / sizeof(reset[0]); i++)
		(void)signal(reset[i], SIG_DFL);
	fd = open("/dev/null", O_RDONLY);
	if (fd < 0 || dup2(fd, STDIN_FILENO) < 0 ||
	    dup2(out_fd, STDOUT_FILENO) < 0 || dup2(out_fd, STDERR_FILENO) < 0) {
		e = errno;
		(void)!write(err_fd, &e, sizeof(e));
		_exit(127);
	}
	/* Nothing of ours but the error pipe (close-on-exec already) leaks. */
	(void)close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	execv(argv[0], argv);
	e = errno;
	(void)!write(err_fd, &e, sizeof(e));
	_exit(127);
}

/* SIGKILL to the group and to the leader, then reap it within HOOK_REAP_MS. */
static bool kill_and_reap(pid_t pid, int *status)
{
	unsigned long long end = now_ms() + HOOK_REAP_MS;

	(void)kill(-pid, SIGKILL);
	(void)kill(pid, SIGKILL);
	for (;;) {
		pid_t w = waitpid(pid, status, WNOHANG);

		if (w == pid || (w < 0 && errno != EINTR))
			return w == pid;
		if (now_ms() >= end)
			return false;
		usleep(10 * 1000);
	}
}

int hook_run(char *const argv[], unsigned long long timeout_ms,
	     void (*out)(const char *buf, size_t n, void *userdata),
	     void *userdata, struct hook_result *ret)
{
	unsigned long long start, end, drain_end = 0;
	int opipe[2], epipe[2], status = 0, child_errno = 0, r;
	bool exited = false, eof = false;
	char buf[4096];
	ssize_t n;
	pid_t pid;

	memset(ret, 0, sizeof(*ret));
	ret->status = -1;
	if (pipe2(opipe, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(epipe, O_CLOEXEC) < 0) {
		r = -errno;
		close(opipe[0]);
		close(opipe[1]);
		return r;
	}
	start = now_ms();
	end = start + timeout_ms;
	pid = fork();
	if (pid < 0) {
		r = -errno;
		close(opipe[0]);
		close(opipe[1]);
		close(epipe[0]);
		close(epipe[1]);
		return r;
	}
	if (pid == 0)
		child(argv, opipe[1], epipe[1]);
	/* Both sides set the group: whichever runs first, it exists. */
	(void)setpgid(pid, pid);
	close(opipe[1]);
	close(epipe[1]);
	/* EOF at the exec; an errno when it failed. */
	do
		n = read(epipe[0], &child_errno, sizeof(child_errno));
	while (n < 0 && errno == EINTR);
	close(epipe[0]);
	if (n == sizeof(child_errno)) {
		(void)kill_and_reap(pid, &status);
		close(opipe[0]);
		ret->error = child_errno ? child_errno : EIO;
		ret->ms = now_ms() - start;
		return 0;
	}

	for (;;) {
		unsigned long long now = now_ms(), until;
		struct pollfd p = { .fd = opipe[0], .events = POLLIN };

		if (!exited) {
			pid_t w = waitpid(pid, &status, WNOHANG);

			if (w == pid) {
				exited = true;
				ret->ms = now - start;
				/* What it left running goes with it. */
				(void)kill(-pid, SIGKILL);
				drain_end = now + HOOK_DRAIN_MS;
			}
		}
		if (exited && (eof || now >= drain_end))
			break;
		if (!exited && now >= end) {
			ret->timed_out = true;
			ret->ms = now - start;
			if (!kill_and_reap(pid, &status))
				status = -1;
			break;
		}
		until = exited ? drain_end : end;
		if (until - now > 50)
			until = now + 50;
		if (eof) {
			usleep((until - now) * 1000);
			continue;
		}
		if (poll(&p, 1, (int)(until - now)) <= 0)
			continue;
		n = read(opipe[0], buf, sizeof(buf));
		if (n > 0 && out)
			out(buf, n, userdata);
		else if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
			eof = true;
	}
	close(opipe[0]);
	if (ret->timed_out)
		return 0;
	if (WIFEXITED(status))
		ret->status = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		ret->signal = WTERMSIG(status);
	return 0;
}

bool hook_failed(const struct hook_result *r)
{
	return r->error || r->timed_out || r->signal || r->status != 0;
}

int hook_describe(const struct hook_result *r, char *buf, size_t size)
{
	int n;

	if (r->error)
		n = snprintf(buf, size, "cannot run: %s", strerror(r->error));
	else if (r->timed_out)
		n = snprintf(buf, size, "timed out after %.1f s: killed",
			     r->ms / 1000.0);
	else if (r->signal)
		n = snprintf(buf, size, "killed by SIG%s",
			     sigabbrev_np(r->signal) ? sigabbrev_np(r->signal) :
						       "?");
	else
		n = snprintf(buf, size, "exit %d", r->status);
	if (n < 0)
		return -EINVAL;
	return (size_t)n >= size ? -ENOBUFS : 0;
}
