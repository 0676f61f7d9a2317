/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A user's hook in the capture: one program run without a shell by the
 * process runner (process.h), its output to a callback, its result in the
 * form the capture records.  Never logs.
 */
#ifndef KDUMP_FILE_HOOK_H
#define KDUMP_FILE_HOOK_H

#include <stdbool.h>
#include <stddef.h>

struct hook_result {
	int status;		/* exit status; -1 when it did not exit */
	int signal;		/* the signal that ended it, 0 if none */
	bool timed_out;		/* killed when timeout_ms passed */
	int error;		/* errno when it could not be started, else 0 */
	unsigned long long ms;	/* how long it ran */
};

/*
 * Run argv[0] (an absolute path) with argv for at most timeout_ms, through
 * process_run(): stdin from /dev/null, its own process group, and nothing
 * it started left running once it exits or its time is over.  env_add
 * (NAME=VALUE strings, NULL-terminated; NULL for none) is set in the
 * hook's environment only, over ours, as process_run() does.  Its stdout
 * and stderr go to out(buf, n, userdata) a line at a time, each with its
 * newline (a last line without one gets one; a line longer than
 * PROCESS_LINE_MAX comes in pieces, each ended so); out may be NULL.
 * Returns 0 with ret filled, ret->error set when it could not be started;
 * -EINVAL, ret untouched, when argv[0] is not an absolute path or a string
 * of env_add is not NAME=VALUE.
 */
int hook_run(char *const argv[], char *const env_add[],
	     unsigned long long timeout_ms,
	     void (*out)(const char *buf, size_t n, void *userdata),
	     void *userdata, struct hook_result *ret);

/* Did it fail: not started, timed out, killed, or a non-zero exit? */
bool hook_failed(const struct hook_result *r);

/* "exit 0", "exit 3", "killed by SIGSEGV", "timed out", "not run: ..." */
int hook_describe(const struct hook_result *r, char *buf, size_t size);

#endif
