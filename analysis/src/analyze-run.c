// SPDX-License-Identifier: GPL-2.0
/*
 * kdump-file-analyze: crash(8) and makedumpfile(8) through lib's
 * process_run(), their output kept.
 *
 * The program runs in "/": crash(8) runs the commands of a .crashrc in its
 * working directory, and the caller's directory may hold anyone's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analyze-run.h"
#include "process.h"
#include "util.h"

#define OUTPUT_MAX (32 << 20)

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

struct output {
	char *buf;
	size_t len;
	size_t cap;
	int error;		/* -ENOMEM once a line could not be kept */
};

/* One line of stdout or stderr, its newline put back; over the cap dropped. */
static void on_line(const char *line, size_t len, void *userdata)
{
	struct output *o = userdata;
	char *t;

	if (o->error || o->len + len + 1 > OUTPUT_MAX)
		return;
	if (o->len + len + 2 > o->cap) {
		size_t cap = o->cap ? o->cap : 65536;

		while (cap < o->len + len + 2)
			cap *= 2;
		t = realloc(o->buf, cap);
		if (!t) {
			o->error = -ENOMEM;
			return;
		}
		o->buf = t;
		o->cap = cap;
	}
	memcpy(o->buf + o->len, line, len);
	o->len += len;
	o->buf[o->len++] = '\n';
	o->buf[o->len] = '\0';
}

int run_tool(char *const argv[], const char *input, long timeout,
	     struct run_result *ret)
{
	struct process_opts opts = PROCESS_OPTS_INIT;
	_cleanup_close_ int in = -1;
	struct output out = { 0 };
	struct process_result res;
	int r;

	r = input_fd(input, &in);
	if (r < 0)
		return r;
	opts.stdin_fd = in;
	opts.on_line = on_line;
	opts.userdata = &out;
	opts.cwd = "/";
	opts.timeout_ms = timeout * 1000;
	r = process_run(argv, &opts, &res);
	if (r >= 0 && out.error)
		r = out.error;
	if (r >= 0 && !out.buf && !(out.buf = calloc(1, 1)))
		r = -ENOMEM;
	if (r < 0) {
		free(out.buf);
		return r;
	}
	*ret = (struct run_result) {
		.out = out.buf,
		.len = out.len,
		.status = res.wait_status,
		.timed_out = res.timed_out,
	};
	return 0;
}

void run_result_done(struct run_result *r)
{
	free(r->out);
	r->out = NULL;
}
