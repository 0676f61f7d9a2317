/* SPDX-License-Identifier: GPL-2.0 */
/* A minimal test harness: CHECK() counts, the runner prints the totals. */
#ifndef KDUMP_FILE_TESTS_H
#define KDUMP_FILE_TESTS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static unsigned int tests_passed, tests_failed;

#define CHECK(cond)                                                           \
	do {                                                                  \
		if (cond) {                                                   \
			tests_passed++;                                       \
		} else {                                                      \
			tests_failed++;                                       \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__,  \
				__LINE__, #cond);                             \
		}                                                             \
	} while (0)

/* A fixture: text written to dir/name; a file it cannot open fails a check. */
static inline void test_put(const char *dir, const char *name, const char *text)
{
	char p[4200];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "we");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* Whether pid has gone (or is a zombie nobody reaped yet), within 2 s. */
static inline bool test_pid_gone(pid_t pid)
{
	for (int i = 0; i < 200; i++) {
		char p[64], st[256] = "";
		FILE *f;

		snprintf(p, sizeof(p), "/proc/%d/stat", (int)pid);
		f = fopen(p, "re");
		if (!f)
			return true;
		if (!fgets(st, sizeof(st), f))
			st[0] = '\0';
		fclose(f);
		if (strstr(st, ") Z "))
			return true;
		usleep(10 * 1000);
	}
	return false;
}

/* The PID a test's program wrote to dir/name, or -1. */
static inline pid_t test_read_pid(const char *dir, const char *name)
{
	char p[4200];
	int pid = -1;
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "re");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &pid) != 1)
		pid = -1;
	fclose(f);
	return pid;
}

/* Remove a test's temporary tree (a path without quotes): 0 or -1. */
static inline int test_rm_rf(const char *dir)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/*
 * Named cases, for a test whose cases each run many checks: "ok   NAME"
 * or "FAIL NAME" is printed after each, and tests_case_failed() tells a
 * case whether one of its checks failed so far (to stop before using what
 * a failed step did not make).
 */
static unsigned int tests_case_start;

static inline bool tests_case_failed(void)
{
	return tests_failed > tests_case_start;
}

__attribute__((format(printf, 3, 4)))
static inline void tests_case(void (*fn)(void *), void *userdata,
			      const char *fmt, ...)
{
	char name[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	tests_case_start = tests_failed;
	fn(userdata);
	printf("%s %s\n", tests_case_failed() ? "FAIL" : "ok  ", name);
}

static inline int tests_done(void)
{
	printf("%u passed, %u failed\n", tests_passed, tests_failed);
	return tests_failed ? 1 : 0;
}

#endif
