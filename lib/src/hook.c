// SPDX-License-Identifier: GPL-2.0
/*
 * The hook runner: a user's program through process_run(), which gives it
 * a process group of its own, reads its output with poll() and kills what
 * it leaves behind; here only what a hook adds, an absolute path and a
 * result the capture records.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "hook.h"
#include "process.h"

struct hook_out {
	void (*out)(const char *buf, size_t n, void *userdata);
	void *userdata;
};

/* The line back with its newline, in one call as the callers expect. */
static void hook_line(const char *line, size_t len, void *userdata)
{
	struct hook_out *h = userdata;
	char buf[PROCESS_LINE_MAX + 1];

	if (!h->out)
		return;
	memcpy(buf, line, len);
	buf[len] = '\n';
	h->out(buf, len + 1, h->userdata);
}

static void hook_result_from(const struct process_result *p,
			     struct hook_result *ret)
{
	*ret = (struct hook_result){ .status = -1, .ms = p->elapsed_ms };
	if (p->timed_out)
		ret->timed_out = true;
	else if (WIFEXITED(p->wait_status))
		ret->status = WEXITSTATUS(p->wait_status);
	else if (WIFSIGNALED(p->wait_status))
		ret->signal = WTERMSIG(p->wait_status);
}

/* NAME=VALUE each, as process_run() checks them (its -EINVAL is ours). */
static bool env_valid(char *const env_add[])
{
	for (char *const *e = env_add; e && *e; e++)
		if (!strchr(*e, '=') || **e == '=')
			return false;
	return true;
}

int hook_run(char *const argv[], char *const env_add[],
	     unsigned long long timeout_ms,
	     void (*out)(const char *buf, size_t n, void *userdata),
	     void *userdata, struct hook_result *ret)
{
	struct hook_out h = { .out = out, .userdata = userdata };
	struct process_opts o = PROCESS_OPTS_INIT;
	struct process_result p;
	int r;

	if (!argv || !argv[0] || argv[0][0] != '/' || !env_valid(env_add))
		return -EINVAL;
	/* process_run() takes 0 as no limit; here it is no time at all. */
	o.timeout_ms = UINT_MAX;
	if (timeout_ms < UINT_MAX)
		o.timeout_ms = timeout_ms ? (unsigned int)timeout_ms : 1;
	/* Through the pipe even without out: never on our own stdout. */
	o.on_line = hook_line;
	o.userdata = &h;
	o.env_add = env_add;
	r = process_run(argv, &o, &p);
	if (r < 0) {
		*ret = (struct hook_result){ .status = -1, .error = -r };
		return 0;
	}
	hook_result_from(&p, ret);
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
