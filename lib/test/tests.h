/* SPDX-License-Identifier: GPL-2.0 */
/* A minimal test harness: CHECK() counts, the runner prints the totals. */
#ifndef KDUMP_FILE_TESTS_H
#define KDUMP_FILE_TESTS_H

#include <stdio.h>
#include <string.h>

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

static inline int tests_done(void)
{
	printf("%u passed, %u failed\n", tests_passed, tests_failed);
	return tests_failed ? 1 : 0;
}

#endif
