/* SPDX-License-Identifier: GPL-2.0 */
/* kdump-file-analyze report: what a report is made of, and its writers. */
#ifndef KDUMP_FILE_ANALYZE_REPORT_H
#define KDUMP_FILE_ANALYZE_REPORT_H

#include <limits.h>
#include <stdbool.h>

#include "report.h"
#include "vmcore.h"

struct analyze_options;

struct report_ctx {
	const struct analyze_options *opt;	/* the command line's */
	const char *dir;
	const char *vmcore;		/* NULL: a report from dmesg.txt alone */
	bool incomplete;		/* no vmcore: the capture did not save it */
	/*
	 * "": a dump of this machine; else where the dump is, on a
	 * collector: DIR is a copy of its kernel log and metadata.
	 */
	char copy_of[4096];
	const char *vmlinux;		/* NULL: none */
	const char *vmlinux_note;	/* why there is none */
	struct vmcore_info info;
	struct crash_report rep;
	const char *raw;		/* crash output or kernel log */
	const char *raw_name;

	/* what the pointers above point into */
	char vmcore_path[PATH_MAX];
	char vmlinux_found[PATH_MAX];
	char note[PATH_MAX + 128];
	char *text;
};

/*
 * DIR/report.txt and DIR/report.json, each written to a temporary file,
 * synced and renamed into place. 0 or a negative errno.
 */
int report_write_files(const struct report_ctx *c);

#endif
