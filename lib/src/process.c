// SPDX-License-Identifier: GPL-2.0
/*
 * The process runner.  The capture cannot afford a program that hangs, nor
 * one that leaves something behind holding its output pipe: the child gets
 * a process group of its own, the whole group is killed when the child
 * exits or its time is over, and what escaped the group (a daemon's
 * setsid()) is found again because the caller is its subreaper for the
 * duration (prctl(2), kernel/exit.c find_new_reaper()).  The output pipe
 * and the child's end are both watched with poll(), through a pidfd
 * (kernel/pid.c pidfd_open(), Linux 5.3) when there is one.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "process.h"
#include "util.h"

/* After its exit: how long what is left in the pipe may take to come. */
#define PROCESS_DRAIN_MS 1000
/* After SIGKILL: how long to wait for a process stuck in the kernel. */
#define PROCESS_REAP_MS 2000
/* Without a pidfd: how often to look whether the child has ended. */
#define PROCESS_TICK_MS 10

extern char **environ;

/* The line being put together from what the pipe gave. */
struct line_buf {
	void (*on_line)(const char *line, size_t len, void *userdata);
	void *userdata;
	size_t len;
	char text[PROCESS_LINE_MAX + 1];
};

static void line_flush(struct line_buf *l)
{
	l->text[l->len] = '\0';
	l->on_line(l->text, l->len, l->userdata);
	l->len = 0;
}

static void line_feed(struct line_buf *l, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (buf[i] == '\n') {
			line_flush(l);
			continue;
		}
		l->text[l->len++] = buf[i];
		if (l->len == PROCESS_LINE_MAX)
			line_flush(l);
	}
}

/*
 * What the child's environment adds to ours: add, and a PATH where we have
 * none (the capture's init is started by the kernel without one) and add
 * sets none, so that what the child runs in turn is found as its parent's
 * programs were.  *ret stays environ when nothing is added.
 */
static int env_build(char *const *add, char ***ret);

static int env_child(char *const *add, char ***ret)
{
	static char *const path_only[] = { "PATH=" PROCESS_DEFAULT_PATH, NULL };
	char **with_path;
	size_t n = 0;
	bool has_path = false;
	int r;

	for (char *const *a = add; a && *a; a++, n++)
		has_path = has_path || strncmp(*a, "PATH=", 5) == 0;
	if (getenv("PATH") || has_path)
		return add ? env_build(add, ret) : 0;
	if (!add)
		return env_build(path_only, ret);
	with_path = calloc(n + 2, sizeof(*with_path));
	if (!with_path)
		return -ENOMEM;
	memcpy(with_path, add, n * sizeof(*with_path));
	with_path[n] = path_only[0];
	r = env_build(with_path, ret);
	free(with_path);
	return r;
}

/*
 * The child's environment: ours without the names add sets, then add.
 * Only the array is allocated; the strings are ours and add's.
 */
static int env_build(char *const *add, char ***ret)
{
	size_t n = 0, m = 0, k = 0;
	char **env;

	for (char **p = environ; p && *p; p++)
		n++;
	for (char *const *a = add; *a; a++) {
		if (!strchr(*a, '=') || **a == '=')
			return -EINVAL;
		m++;
	}
	env = calloc(n + m + 1, sizeof(*env));
	if (!env)
		return -ENOMEM;
	for (char **p = environ; p && *p; p++) {
		size_t len = strcspn(*p, "=") + 1;
		bool replaced = false;

		for (char *const *a = add; *a && !replaced; a++)
			replaced = strncmp(*a, *p, len) == 0;
		if (!replaced)
			env[k++] = *p;
	}
	for (char *const *a = add; *a; a++)
		env[k++] = *a;
	env[k] = NULL;
	*ret = env;
	return 0;
}

/*
 * name in PROCESS_DEFAULT_PATH, the first executable one, into buf (only
 * on success): -ENOENT when none is there, -EACCES when one is there but
 * not executable.
 */
static int default_lookup(const char *name, char *buf, size_t size)
{
	const char *dir = PROCESS_DEFAULT_PATH;
	char p[PATH_MAX];
	int r = -ENOENT;

	while (*dir) {
		size_t len = strcspn(dir, ":");
		int n = snprintf(p, sizeof(p), "%.*s/%s", (int)len, dir, name);

		if (n < 0 || (size_t)n >= sizeof(p) || (size_t)n >= size)
			return -ENAMETOOLONG;
		if (access(p, X_OK) == 0) {
			memcpy(buf, p, n + 1);
			return 0;
		}
		if (errno == EACCES)
			r = -EACCES;
		dir += len;
		if (*dir == ':')
			dir++;
	}
	return r;
}

/* A copy of fd at 3 or above, or of /dev/null when fd < 0. */
static int child_fd(int fd, bool null)
{
	int nfd;

	if (fd >= 0)
		return fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (!null)
		return -1;
	nfd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (nfd < 0)
		return -1;
	return fcntl(nfd, F_DUPFD_CLOEXEC, 3);
}

/*
 * In the child, between fork() and exec: an errno on err_fd (close-on-exec,
 * so EOF means the exec worked) when anything fails.
 */
static void __attribute__((noreturn))
child(const char *file, char *const argv[], char **env,
      const struct process_opts *o, int out, int err, int err_fd)
{
	int in_c, out_c = -1, err_c = -1, e;
	sigset_t none;

	if (!o->keep_group)
		(void)setpgid(0, 0);
	/* Dispositions set to SIG_IGN and the mask outlive exec: not ours. */
	for (int sig = 1; sig < NSIG; sig++)
		(void)signal(sig, SIG_DFL);
	sigemptyset(&none);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);

	/* Copies first: the caller's 1 may be meant for our 2 and so on. */
	in_c = child_fd(o->stdin_fd, true);
	if (in_c < 0 || (out >= 0 && (out_c = child_fd(out, false)) < 0) ||
	    (err >= 0 && (err_c = child_fd(err, false)) < 0))
		goto fail;
	if (dup2(in_c, STDIN_FILENO) < 0 ||
	    (out_c >= 0 && dup2(out_c, STDOUT_FILENO) < 0) ||
	    (err_c >= 0 && dup2(err_c, STDERR_FILENO) < 0))
		goto fail;
	if (o->cwd && chdir(o->cwd) < 0)
		goto fail;
	if (o->file_size_max) {
		struct rlimit rl = { o->file_size_max, o->file_size_max };

		if (setrlimit(RLIMIT_FSIZE, &rl) < 0)
			goto fail;
	}
	/* Nothing of ours but 0-2 reaches the program. */
	(void)close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	/* A path is run as it is: execvp() would hand ENOEXEC to sh. */
	if (strchr(file, '/'))
		execve(file, argv, env);
	else
		execvpe(file, argv, env);
fail:
	e = errno ? errno : EIO;
	(void)!write(err_fd, &e, sizeof(e));
	_exit(127);
}

/* Wait for pid until end (now_ms()); false when it did not end by then. */
static bool reap(pid_t pid, int *status, unsigned long long end)
{
	for (;;) {
		pid_t w = waitpid(pid, status, WNOHANG);

		if (w == pid || (w < 0 && errno != EINTR))
			return w == pid;
		if (now_ms() >= end)
			return false;
		usleep(PROCESS_TICK_MS * 1000);
	}
}

/* The parent and the process group of pid from /proc/pid/stat. */
static int proc_stat(pid_t pid, pid_t *ret_ppid, pid_t *ret_pgid)
{
	char path[64], buf[512];
	const char *p;
	int ppid, pgid, r;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	r = read_line_file(path, buf, sizeof(buf));
	if (r < 0)
		return r;
	/* "pid (comm) S ppid pgrp ...": comm may hold ") ". */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %d %d", &ppid, &pgid) != 2)
		return -EINVAL;
	*ret_ppid = ppid;
	*ret_pgid = pgid;
	return 0;
}

/* The PIDs of our children, as /proc shows them now. */
struct kids {
	pid_t *pid;
	size_t n;
};

static bool kids_has(const struct kids *k, pid_t pid)
{
	for (size_t i = 0; i < k->n; i++)
		if (k->pid[i] == pid)
			return true;
	return false;
}

/* Our children before the program starts: the caller's, never swept. */
static int kids_list(struct kids *ret)
{
	pid_t self = getpid();
	struct dirent *de;
	DIR *d;

	ret->pid = NULL;
	ret->n = 0;
	d = opendir("/proc");
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		pid_t pid = (pid_t)strtol(de->d_name, NULL, 10), ppid, pgid;
		pid_t *t;

		if (pid <= 0 || proc_stat(pid, &ppid, &pgid) < 0 ||
		    ppid != self)
			continue;
		t = realloc(ret->pid, (ret->n + 1) * sizeof(*t));
		if (!t) {
			closedir(d);
			free(ret->pid);
			ret->pid = NULL;
			ret->n = 0;
			return -ENOMEM;
		}
		ret->pid = t;
		ret->pid[ret->n++] = pid;
	}
	closedir(d);
	return 0;
}

/*
 * Kill and reap what was reparented to us, being the subreaper, and was
 * not our child before the program started (before): what the program
 * started and left behind, whatever process group it put itself in (ours
 * included: setpgid() may join any group of the session).  Killing one
 * reparents its children to us in turn, hence the rounds.
 */
static void sweep_orphans(const struct kids *before, unsigned long long end)
{
	pid_t self = getpid();
	bool found = true;

	while (found && now_ms() < end) {
		struct dirent *de;
		DIR *d;

		found = false;
		d = opendir("/proc");
		if (!d)
			return;
		while ((de = readdir(d))) {
			pid_t pid = (pid_t)strtol(de->d_name, NULL, 10);
			pid_t ppid, pgid;
			int status;

			if (pid <= 0 || proc_stat(pid, &ppid, &pgid) < 0 ||
			    ppid != self || kids_has(before, pid))
				continue;
			(void)kill(pid, SIGKILL);
			(void)reap(pid, &status, end);
			found = true;
		}
		closedir(d);
	}
}

static int pidfd_open_child(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

/* The parent's side once the child runs: watch it and its output. */
static int watch(pid_t pid, unsigned long long start, int out_fd,
		 struct line_buf *lines, unsigned int timeout_ms,
		 bool group, const struct kids *before,
		 struct process_result *res)
{
	/* The child's group, or the child alone when it has ours. */
	pid_t target = group ? -pid : pid;

	unsigned long long drain_end = 0;
	int pidfd = pidfd_open_child(pid), status = 0, r = 0;
	bool exited = false, eof = out_fd < 0;
	char buf[4096];

	for (;;) {
		unsigned long long now = now_ms();
		struct pollfd p[2];
		nfds_t np = 0;
		int wait_ms = -1;

		if (!exited) {
			siginfo_t si = { 0 };

			/*
			 * Seen ended but not reaped (WNOWAIT): while the
			 * leader is a zombie its process group ID cannot be
			 * anyone else's, so the kill below reaches its group
			 * only.
			 */
			if (waitid(P_PID, pid, &si,
				   WEXITED | WNOHANG | WNOWAIT) < 0 &&
			    errno != EINTR) {
				/* Someone else reaped it (SIGCHLD ignored?). */
				r = -errno;
				break;
			}
			if (si.si_pid == pid) {
				exited = true;
				res->elapsed_ms = now - start;
				(void)kill(target, SIGKILL);
				(void)reap(pid, &status, now + PROCESS_REAP_MS);
			} else if (timeout_ms && now - start >= timeout_ms) {
				res->timed_out = true;
				res->elapsed_ms = now - start;
				(void)kill(target, SIGKILL);
				(void)kill(pid, SIGKILL);
				if (!reap(pid, &status, now + PROCESS_REAP_MS))
					status = SIGKILL;
				exited = true;
			}
			/* What left the group goes too. */
			if (exited) {
				sweep_orphans(before, now_ms() + PROCESS_REAP_MS);
				drain_end = now_ms() + PROCESS_DRAIN_MS;
			}
		}
		if (exited && (eof || now_ms() >= drain_end))
			break;

		if (!eof)
			p[np++] = (struct pollfd){ .fd = out_fd,
						   .events = POLLIN };
		if (exited) {
			unsigned long long now2 = now_ms();

			/* Past the end between the two reads: 0, never -1. */
			wait_ms = drain_end > now2 ? (int)(drain_end - now2) : 0;
		} else {
			if (pidfd >= 0)
				p[np++] = (struct pollfd){ .fd = pidfd,
							   .events = POLLIN };
			else
				wait_ms = PROCESS_TICK_MS;
			if (timeout_ms) {
				unsigned long long end = start + timeout_ms;
				unsigned long long t = now_ms();
				int left = end <= t ? 0 :
					   end - t > 60000 ? 60000 :
							     (int)(end - t);

				if (wait_ms < 0 || left < wait_ms)
					wait_ms = left;
			}
		}
		if (poll(p, np, wait_ms) <= 0 || eof || !p[0].revents)
			continue;
		{
			ssize_t n = read(out_fd, buf, sizeof(buf));

			if (n > 0)
				line_feed(lines, buf, n);
			else if (n == 0 || (errno != EINTR && errno != EAGAIN))
				eof = true;
		}
	}
	if (lines && lines->len)
		line_flush(lines);
	if (pidfd >= 0)
		close(pidfd);
	res->wait_status = status;
	return r;
}

/*
 * For o->on_line, a pipe for the streams o does not send elsewhere: *out
 * and *err (-1: not sent elsewhere) become its end, *ret its line buffer.
 */
static int lines_open(const struct process_opts *o, struct line_buf **ret,
		      int opipe[2], int *out, int *err)
{
	struct line_buf *lines;

	if (!o->on_line || (*out >= 0 && *err >= 0))
		return 0;
	lines = malloc(sizeof(*lines));
	if (!lines)
		return -ENOMEM;
	lines->on_line = o->on_line;
	lines->userdata = o->userdata;
	lines->len = 0;
	*ret = lines;
	if (pipe2(opipe, O_CLOEXEC) < 0)
		return -errno;
	if (*out < 0)
		*out = opipe[1];
	if (*err < 0)
		*err = opipe[1];
	return 0;
}

/*
 * Whether the child pid exec'd: EOF on fd at the exec, an errno when it
 * failed (the child then exits, and is reaped here).
 */
static int exec_result(int fd, pid_t pid)
{
	int child_errno = 0, status;
	ssize_t n;

	do
		n = read(fd, &child_errno, sizeof(child_errno));
	while (n < 0 && errno == EINTR);
	if (n != sizeof(child_errno))
		return 0;
	/* It is about to _exit(127) and holds nothing else. */
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return child_errno > 0 ? -child_errno : -EIO;
}

int process_run(char *const argv[], const struct process_opts *o,
		struct process_result *ret)
{
	static const struct process_opts defaults = PROCESS_OPTS_INIT;
	int opipe[2] = { -1, -1 }, epipe[2] = { -1, -1 }, out, err;
	int subreaper = 0, r;
	struct process_result res = { 0 };
	struct line_buf *lines = NULL;
	struct kids before = { NULL, 0 };
	unsigned long long start;
	char **env = environ, exe[PATH_MAX];
	const char *file;
	bool set_subreaper;
	pid_t pid;

	if (!argv || !argv[0] || !argv[0][0])
		return -EINVAL;
	if (!o)
		o = &defaults;
	file = argv[0];
	if (!strchr(file, '/') && !getenv("PATH")) {
		r = default_lookup(file, exe, sizeof(exe));
		if (r < 0)
			return r;
		file = exe;
	}
	out = o->stdout_fd;
	err = o->stderr_fd;
	r = env_child(o->env_add, &env);
	if (r < 0)
		return r;
	r = lines_open(o, &lines, opipe, &out, &err);
	if (r < 0)
		goto out;
	if (pipe2(epipe, O_CLOEXEC) < 0) {
		r = -errno;
		goto out;
	}
	r = kids_list(&before);
	if (r < 0)
		goto out;
	(void)prctl(PR_GET_CHILD_SUBREAPER, &subreaper);
	set_subreaper = !subreaper &&
			prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;

	start = now_ms();
	pid = fork();
	if (pid < 0) {
		r = -errno;
		goto out_subreaper;
	}
	if (pid == 0)
		child(file, argv, env, o, out, err, epipe[1]);
	/* Both sides set the group: whichever runs first, it exists. */
	if (!o->keep_group)
		(void)setpgid(pid, pid);
	close(epipe[1]);
	epipe[1] = -1;
	if (opipe[1] >= 0) {
		close(opipe[1]);
		opipe[1] = -1;
	}
	r = exec_result(epipe[0], pid);
	if (r < 0)
		goto out_subreaper;
	r = watch(pid, start, opipe[0], lines, o->timeout_ms, !o->keep_group,
		  &before, &res);
	if (r == 0)
		*ret = res;

out_subreaper:
	if (set_subreaper)
		(void)prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
out:
	for (int i = 0; i < 2; i++) {
		if (opipe[i] >= 0)
			close(opipe[i]);
		if (epipe[i] >= 0)
			close(epipe[i]);
	}
	free(lines);
	free(before.pid);
	if (env != environ)
		free(env);
	return r;
}

bool process_succeeded(const struct process_result *r)
{
	return !r->timed_out && WIFEXITED(r->wait_status) &&
	       WEXITSTATUS(r->wait_status) == 0;
}

int process_exit_status(const struct process_result *r)
{
	if (r->timed_out || !WIFEXITED(r->wait_status))
		return -1;
	return WEXITSTATUS(r->wait_status);
}

void process_result_text(const struct process_result *r, char *buf,
			 size_t size)
{
	int st = r->wait_status;

	if (size == 0)
		return;
	if (r->timed_out)
		snprintf(buf, size, "timed out after %.1f s",
			 r->elapsed_ms / 1000.0);
	else if (WIFEXITED(st))
		snprintf(buf, size, "exit %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st) && sigabbrev_np(WTERMSIG(st)))
		snprintf(buf, size, "killed by SIG%s",
			 sigabbrev_np(WTERMSIG(st)));
	else if (WIFSIGNALED(st))
		snprintf(buf, size, "killed by signal %d", WTERMSIG(st));
	else
		snprintf(buf, size, "ended with wait status %#x", st);
}
