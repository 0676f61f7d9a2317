/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How a failure travels in kdump-file.  Read this first.
 *
 * A function that can fail returns 0 (or a count) on success and a
 * negative errno on failure, as the kernel and systemd do.  When a person
 * is to be told what went wrong, the caller also hands it a struct diag,
 * and the function that knows the object and the cause fills in one
 * message naming both:
 *
 *	return diag_fail(d, -ENOENT, "%s: no such dump directory", path);
 *
 * Things that did not fail but that the person should know (a setting that
 * will not work as meant, a stale file) go in as warnings, whatever the
 * result.
 *
 * Nothing below main() prints.  main() (a kdump-file verb, the analyzer,
 * the receiver) or the capture's log says diag_text() once, after the
 * warnings.  The first failure wins: a later diag_fail() on the same diag
 * keeps the cause and only returns its errno, so a caller adds context with
 * diag_prefix(), never by overwriting.  A NULL diag is allowed everywhere:
 * the errno alone then travels.
 */
#ifndef KDUMP_FILE_DIAG_H
#define KDUMP_FILE_DIAG_H

#include <stdarg.h>
#include <stddef.h>

#define DIAG_MSG_MAX 4096
#define DIAG_WARN_MAX 8
#define DIAG_WARN_LEN 1024

struct diag {
	int error;		/* negative errno; 0: nothing failed */
	unsigned int line;	/* the input line at fault; 0: none */
	char key[64];		/* the configuration key at fault; "": none */
	char msg[DIAG_MSG_MAX];	/* the failure; "": the errno says it all */
	/* Warnings said; more than DIAG_WARN_MAX are counted, not kept. */
	unsigned int n_warnings;
	char warnings[DIAG_WARN_MAX][DIAG_WARN_LEN];
};

#define DIAG_INIT { .error = 0 }

void diag_clear(struct diag *d);

/*
 * Record a failure (error < 0) and return error.  fmt may be NULL: the
 * errno says it all.  A message too long is cut with "...".
 */
int diag_fail(struct diag *d, int error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int diag_failv(struct diag *d, int error, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
/* The same, tied to an input line and a configuration key (either 0/NULL). */
int diag_fail_at(struct diag *d, int error, unsigned int line,
		 const char *key, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Put context before the message: "loading the capture kernel: ...". */
void diag_prefix(struct diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void diag_warn(struct diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void diag_warnv(struct diag *d, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Append from's warnings to to's. */
void diag_take_warnings(struct diag *to, const struct diag *from);
/*
 * Hand from's failure (unless to holds one already) and its warnings to
 * to, as when a caller tried something on a diag of its own first.
 * Returns from's errno (0 when it holds no failure).
 */
int diag_take(struct diag *to, const struct diag *from);

/* Whether d holds a failure. */
static inline int diag_failed(const struct diag *d)
{
	return d && d->error < 0;
}

/*
 * The failure for a person: the message, else the errno's text, else ""
 * when nothing failed.
 */
const char *diag_text(const struct diag *d);

#endif
