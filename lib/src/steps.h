/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The capture's steps as its deadline process receives them through a
 * pipe: NUL-terminated messages, a step's name ("saving the vmcore") or
 * "@" and the path of the dump's metadata.json.  Reads of a pipe may end
 * inside a message; the part read waits for the rest.
 */
#ifndef KDUMP_FILE_STEPS_H
#define KDUMP_FILE_STEPS_H

#include <limits.h>
#include <stddef.h>

struct steps {
	char last[128];		/* the step running, "starting" at first */
	char meta[PATH_MAX];	/* the dump's metadata.json, "" until known */
	char part[PATH_MAX + 2];	/* a message read in part */
	size_t part_len;
};

void steps_init(struct steps *s);
/* Take n bytes read from the pipe. */
void steps_take(struct steps *s, const char *buf, size_t n);

#endif
