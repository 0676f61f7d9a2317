/* SPDX-License-Identifier: GPL-2.0 */
/*
 * panic_on: while kdump-file has a capture kernel loaded, the running
 * kernel panics, and so is dumped, on the crashes the configuration names
 * (an oops, a hung task, a lockup, an RCU stall, a WARN), through its
 * sysctls.  The values found before are kept in a state file
 * (/run/kdump-file/panic-on) so that unload puts back exactly what was
 * there, however many loads came between.
 *
 * Every function takes the sysctl root (PANICON_SYSCTL_ROOT; a temporary
 * directory in the unit tests) and the state file's path.  None logs.
 */
#ifndef KDUMP_FILE_PANICON_H
#define KDUMP_FILE_PANICON_H

#include <stddef.h>

#include "conf.h"

#define PANICON_SYSCTL_ROOT "/proc/sys"
/* A sysctl's value as text: an int, its sign and a NUL. */
#define PANICON_VALUE_MAX 24

/* The sysctl of panic_on item i (bit i), "kernel.panic_on_oops". */
const char *panicon_sysctl(unsigned int i);
/* Why a kernel has no sysctl for item i: "it has no hard lockup detector". */
const char *panicon_missing_reason(unsigned int i);

/* The state file: the value each sysctl we set had before, by item. */
struct panicon_saved {
	unsigned int mask;
	char value[PANIC_ON_COUNT][PANICON_VALUE_MAX];
};

/* "kernel.panic_on_oops=0" lines; -EINVAL for anything else. */
int panicon_saved_parse(const char *text, struct panicon_saved *ret);
int panicon_saved_format(const struct panicon_saved *s, char *buf,
			 size_t size);

struct panicon_result {
	unsigned int set;	/* at 1 now, by this call */
	unsigned int missing;	/* wanted, but this kernel has no such sysctl */
	unsigned int restored;	/* put back to the value saved before */
	char value[PANIC_ON_COUNT][PANICON_VALUE_MAX];	/* ...that value */
	int failed;		/* the item that failed; -1: the state file */
};

/*
 * Make the kernel panic on the items of want, and put back those of ours
 * it no longer wants.  An item's value is saved before it is first set; a
 * later call (a reload) keeps that value, never saves ours as the one
 * before.  A wanted sysctl the kernel lacks is left out (in ret->missing).
 * On failure every sysctl this call wrote and the state file are put back
 * as they were; ret->failed says which item failed.
 */
int panicon_apply(const char *root, const char *state, unsigned int want,
		  struct panicon_result *ret);

/*
 * Put back every saved value and remove the state file (unload).  A value
 * that cannot be written back stays in the state file for the next try;
 * the first failure is returned, ret->failed naming its item.
 */
int panicon_restore(const char *root, const char *state,
		    struct panicon_result *ret);

/* The items whose sysctl reads non-zero now, and those this kernel has. */
int panicon_read(const char *root, unsigned int *ret_set,
		 unsigned int *ret_present);

#endif
