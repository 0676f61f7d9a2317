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
	/*
	 * crash_time is after the boot that read the record began: no crash
	 * of an earlier boot has it, so the line is forged (any text that
	 * reaches the kernel log can look like a record) or the clock was
	 * wrong.  Never preferred to a record without it; said when shown.
	 */
	bool after_boot;
};

/* The line after RECORD_TAG; values lose ';' and control characters. */
int record_format(const struct capture_record *r, char *buf, size_t size);
/*
 * Parse a line that contains RECORD_TAG; -EINVAL when it is not one.  The
 * values came from the kernel log: each is passed through text_filter(),
 * control characters and escape sequences shown escaped.
 */
int record_parse(const char *line, struct capture_record *ret);

/*
 * The newest record in the pstore files below dirs (NULL-terminated), at
 * most two levels deep: the capture's own, or a capture kernel panic, from
 * at or after since (epoch seconds).  -ENOENT when there is none.  A record
 * whose crash_time is after boot (epoch seconds this boot began) is marked
 * after_boot and returned only when no other record qualifies.
 */
int record_find_at(const char *const *dirs, long long since, long long boot,
		   struct capture_record *ret);
/* The same with boot the start of the running boot (boot_time()). */
int record_find(const char *const *dirs, long long since,
		struct capture_record *ret);

/* One line for status and the journal: what was lost, why, what to do. */
int record_describe(const struct capture_record *r, char *buf, size_t size);

#endif
