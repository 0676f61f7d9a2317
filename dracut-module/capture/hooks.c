// SPDX-License-Identifier: GPL-2.0
/*
 * The user's hooks (pre_hook, post_hook): each run with the dump directory
 * and "pre", "ok" or "failed", under hook_timeout and never past the
 * capture's own deadline; its output goes to the reporter and to the
 * dump's hooks.log; its result to metadata.json.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "dumpdir.h"
#include "process.h"
#include "util.h"

#define HOOK_LOG_MAX (1 << 20)

struct hook_log {
	struct capture *cap;
	int fd;
	size_t written;
};

static void hook_output(const char *buf, size_t n, void *userdata)
{
	struct hook_log *lg = userdata;

	if (lg->cap->output)
		lg->cap->output(lg->cap, buf, n);
	if (lg->fd < 0 || lg->written >= HOOK_LOG_MAX)
		return;
	if (n > HOOK_LOG_MAX - lg->written)
		n = HOOK_LOG_MAX - lg->written;
	if (write(lg->fd, buf, n) > 0)
		lg->written += n;
}

/* capture_timeout ends the capture whatever runs: so does it a hook. */
static unsigned long long hook_limit(const struct capture *cap)
{
	unsigned long long limit = cap->conf.hook_timeout * 1000ULL;
	unsigned long long now = now_ms(), left;

	if (!cap->deadline_end)
		return limit;
	left = cap->deadline_end > now ? cap->deadline_end - now : 1;
	return left < limit ? left : limit;
}

static void hook_keep(struct capture *cap, const char *phase,
		      const char *path, const struct hook_result *res)
{
	struct capture_hook *h;

	if (cap->n_hooks >= sizeof(cap->hooks) / sizeof(cap->hooks[0]))
		return;
	h = &cap->hooks[cap->n_hooks++];
	h->phase = phase;
	text_format(h->path, sizeof(h->path), "%s", path);
	h->res = *res;
}

/*
 * A capture started by the kernel has no PATH (process.h); its hooks get
 * the one its own programs are looked up in, since a shell script
 * expects one.  Run by hand, the hooks keep the caller's.
 */
static char *const *hook_env(void)
{
	static char *const env[] = { "PATH=" PROCESS_DEFAULT_PATH, NULL };

	return getenv("PATH") ? NULL : env;
}

/*
 * Run one hook; -ECANCELED when it failed and hook_failure = stop, said
 * and in d.
 */
static int hook_one(struct capture *cap, const char *phase, char *path,
		    const char *word, struct hook_log *lg, struct diag *d)
{
	char *argv[] = { path, cap->dir, (char *)word, NULL };
	unsigned long long limit = hook_limit(cap);
	struct hook_result res;
	char what[300], desc[128];
	int r;

	text_format(what, sizeof(what), "running %s hook %s", phase, path);
	capture_step(cap, what);
	capture_say(cap, "running %s hook %s %s %s (up to %.0fs)", phase, path,
		    capture_rel(cap, cap->dir), word, limit / 1000.0);
	if (lg->fd >= 0 && lg->written < HOOK_LOG_MAX) {
		int n = dprintf(lg->fd, "== %s hook %s %s\n", phase, path, word);

		if (n > 0)
			lg->written += n;
	}
	r = hook_run(argv, hook_env(), limit, hook_output, lg, &res);
	if (r < 0) {
		memset(&res, 0, sizeof(res));
		res.status = -1;
		res.error = -r;
	}
	hook_keep(cap, phase, path, &res);
	(void)hook_describe(&res, desc, sizeof(desc));
	if (!hook_failed(&res)) {
		capture_say(cap, "%s hook %s: %s in %.1fs", phase, path, desc,
			    res.ms / 1000.0);
		return 0;
	}
	if (!cap->conf.hook_stop) {
		capture_say(cap, "warning: %s hook %s failed: %s (hook_failure = continue)",
			    phase, path, desc);
		return 0;
	}
	snprintf(cap->stop_step, sizeof(cap->stop_step), "%s", cap->step);
	return capture_diag_fail(cap, d, -ECANCELED,
				 "%s hook %s failed: %s (hook_failure = stop)",
				 phase, path, desc);
}

/*
 * Run the hooks of list in order.  Returns -ECANCELED when one failed and
 * hook_failure = stop (the rest are not run), with why in d; else 0.
 */
static int run_hooks(struct capture *cap, const char *phase,
		     const char *list, const char *word, struct diag *d)
{
	struct hook_log lg = { .cap = cap, .fd = -1 };
	char path[CONF_VALUE_MAX];
	size_t pos = 0;
	int r = 0;

	if (!list[0])
		return 0;
	lg.fd = openat(cap->dir_fd, DUMP_HOOKS_LOG, O_WRONLY | O_CREAT |
		       O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
	while (r == 0 && conf_list_next(list, &pos, path, sizeof(path)))
		r = hook_one(cap, phase, path, word, &lg, d);
	if (lg.fd >= 0) {
		(void)fsync(lg.fd);
		close(lg.fd);
	}
	return r;
}

/*
 * The pre hooks: the target is mounted, nothing saved yet.  A hook that
 * stops the capture is the cause; the capture's failure is that no dump
 * was saved.
 */
int phase_pre_hooks(struct capture *cap)
{
	struct diag why = DIAG_INIT;
	int r;

	r = run_hooks(cap, "pre", cap->conf.pre_hook, "pre", &why);
	if (r == 0)
		return 0;
	(void)text_format(cap->reason, sizeof(cap->reason), "%s",
			  diag_text(&why));
	cap->pre_stopped = true;
	return capture_fail(cap, r, "no dump saved: %s", cap->reason);
}

/*
 * The post hooks: the dump is saved (or failed) and described; what they
 * did goes into the metadata too.
 */
int phase_post_hooks(struct capture *cap)
{
	const char *word = cap->result == 0 ? "ok" : "failed";

	if (!cap->dir[0] || cap->pre_stopped || !cap->conf.post_hook[0])
		return 0;
	/*
	 * A hook that stops is said and makes the action failure_action
	 * (phase_action()), but it is not the capture's failure: the dump
	 * is saved, or failed for a reason of its own (NULL: no diag).
	 */
	if (run_hooks(cap, "post", cap->conf.post_hook, word, NULL) < 0)
		cap->post_stopped = true;
	capture_step(cap, "writing metadata.json");
	(void)capture_write_metadata(cap);
	return 0;
}
