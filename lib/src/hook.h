/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A user's hook in the capture: one program run without a shell, in a
 * process group of its own, stdin from /dev/null, stdout and stderr
 * through a pipe to a callback, killed with its whole group when its time
 * is over.  Never logs.
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
 * Run argv[0] (an absolute path) with argv for at most timeout_ms.  Its
 * output goes to out(buf, n, userdata) as it comes (out may be NULL).
 * When it exits, or when its time is over, its process group is killed
 * with SIGKILL: what it left running does not outlive it, nor keeps the
 * pipe open.  A process stuck in the kernel that SIGKILL cannot end is
 * given 2 s more and then left behind.  Returns 0 with ret filled when it
 * was started or could not be (ret->error), a negative errno when no
 * process could be made.
 */
int hook_run(char *const argv[], unsigned long long timeout_ms,
	     void (*out)(const char *buf, size_t n, void *userdata),
	     void *userdata, struct hook_result *ret);

/* Did it fail: not started, timed out, killed, or a non-zero exit? */
bool hook_failed(const struct hook_result *r);

/* "exit 0", "exit 3", "killed by SIGSEGV", "timed out", "not run: ..." */
int hook_describe(const struct hook_result *r, char *buf, size_t size);

#endif
