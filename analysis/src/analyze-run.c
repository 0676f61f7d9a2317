// SPDX-License-Identifier: GPL-2.0
/*
 * kdump-file-analyze: the runner of crash(8) and makedumpfile(8).
 *
 * The program gets its own process group, so that a timeout kills what it
 * started too, and "/" as its working directory: crash(8) runs the
 * commands of a .crashrc in its working directory, and the caller's
 * directory may hold anyone's.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>

#include "analyze-run.h"
#include "cleanup.h"

#define OUTPUT_MAX (32 << 20)
#define OUTPUT_STEP (1 << 20)

/* A memfd holding @input, so that the program sees a file, not a tty. */
static int input_fd(const char *input, int *ret_fd)
{
	_cleanup_close_ int fd = -1;
	size_t len = input ? strlen(input) : 0;

	fd = memfd_create("kdump-file-input", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (len && write(fd, input, len) != (ssize_t)len)
		return -(errno ?: EIO);
	if (lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	*ret_fd = TAKE_FD(fd);
	return 0;
}

/* The child's pid (> 0), or a negative errno. */
static pid_t spawn(char *const argv[], int in_fd, int out_fd)
{
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		(void)setpgid(0, 0);
		if (chdir("/") < 0 || dup2(in_fd, 0) < 0 ||
		    dup2(out_fd, 1) < 0 || dup2(out_fd, 2) < 0)
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	/* both sides, so the group exists whichever runs first */
	(void)setpgid(pid, pid);
	return pid;
}

/* Room for more output, up to OUTPUT_MAX; 0 when there is no more room. */
static int reserve(struct run_result *res, size_t *cap)
{
	char *t;

	if (*cap - res->len >= 65536 || *cap >= OUTPUT_MAX)
		return 0;
	t = realloc(res->out, *cap + OUTPUT_STEP + 1);
	if (!t)
		return -ENOMEM;
	res->out = t;
	*cap += OUTPUT_STEP;
	return 0;
}

/* One read of the pipe: > 0 bytes read (or dropped over the cap), 0 EOF. */
static ssize_t read_some(int fd, struct run_result *res, size_t cap)
{
	char sink[4096];
	ssize_t n;

	if (cap == res->len)
		n = read(fd, sink, sizeof(sink));	/* over the cap */
	else
		n = read(fd, res->out + res->len, cap - res->len);
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : -errno;
	if (cap != res->len)
		res->len += n;
	return n;
}

static long ms_left(const struct timespec *t0, long timeout)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return timeout * 1000 - ((now.tv_sec - t0->tv_sec) * 1000 +
				 (now.tv_nsec - t0->tv_nsec) / 1000000);
}

/* The output until EOF or the timeout; the process group killed on both. */
static int collect(pid_t pid, int fd, long timeout, struct run_result *res)
{
	struct timespec t0;
	size_t cap = 0;
	int r = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		long left = ms_left(&t0, timeout);
		ssize_t n;

		if (left <= 0) {
			res->timed_out = true;
			break;
		}
		if (poll(&pfd, 1, left) < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			break;
		}
		if (!pfd.revents)
			continue;
		r = reserve(res, &cap);
		if (r < 0)
			break;
		n = read_some(fd, res, cap);
		if (n <= 0) {
			r = n;
			break;
		}
	}
	if (r < 0 || res->timed_out)
		(void)kill(-pid, SIGKILL);
	return r;
}

int run_tool(char *const argv[], const char *input, long timeout,
	     struct run_result *ret)
{
	_cleanup_close_ int in = -1, out_r = -1, out_w = -1;
	struct run_result res = { 0 };
	int p[2], r;
	pid_t pid;

	r = input_fd(input, &in);
	if (r < 0)
		return r;
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	out_r = p[0];
	out_w = p[1];
	pid = spawn(argv, in, out_w);
	if (pid < 0)
		return pid;
	/* our end of the write side closed: EOF when the program ends */
	close(TAKE_FD(out_w));
	r = collect(pid, out_r, timeout, &res);
	while (waitpid(pid, &res.status, 0) < 0 && errno == EINTR)
		;
	if (r >= 0 && !res.out) {
		res.out = malloc(1);
		if (!res.out)
			r = -ENOMEM;
	}
	if (r < 0) {
		free(res.out);
		return r;
	}
	res.out[res.len] = '\0';
	*ret = res;
	return 0;
}

void run_result_done(struct run_result *r)
{
	free(r->out);
	r->out = NULL;
}
