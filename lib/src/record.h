/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The capture's failure record: one kernel log line the capture writes
 * before it gives up, kept across the reboot by pstore (the kernel dumps
 * its log there when it restarts), and read by the next boot's load and
 * status.  A panic of the capture kernel itself, before or outside the
 * capture program, is found in pstore as well.
 */
#ifndef KDUMP_FILE_RECORD_H
#define KDUMP_FILE_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#define RECORD_TAG "kdump-file-record: "

struct capture_record {
	long long crash_time;	/* the crashed kernel's CRASHTIME; -1: unknown */
	long long written;	/* when pstore kept it (file time) */
	bool panic;		/* the capture kernel panicked: why is its text */
	char step[64];		/* what the capture was doing */
	char error[32];		/* errno name, "" when none */
	char target[256];
	char modules[256];	/* loaded in the capture kernel, comma-separated */
	unsigned long long mem_free_kib;
	char why[512];
};

/* The line after RECORD_TAG; values lose ';' and control characters. */
int record_format(const struct capture_record *r, char *buf, size_t size);
/* Parse a line that contains RECORD_TAG; -EINVAL when it is not one. */
int record_parse(const char *line, struct capture_record *ret);

/*
 * The newest record in the pstore files below dirs (NULL-terminated), at
 * most two levels deep: the capture's own, or a capture kernel panic, from
 * at or after since (epoch seconds).  -ENOENT when there is none.
 */
int record_find(const char *const *dirs, long long since,
		struct capture_record *ret);

/* One line for status and the journal: what was lost, why, what to do. */
int record_describe(const struct capture_record *r, char *buf, size_t size);

#endif
