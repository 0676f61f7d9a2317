/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kdump-file-analyze: what its files share.
 *
 * kdump-file-analyze.c parses the command line into struct
 * analyze_options and dispatches to a verb with it; each verb family has
 * its file (analyze-info.c: info and read, analyze-check.c,
 * analyze-vmlinux.c, analyze-report.c), the report writers are in
 * analyze-report-write.c and the runner of crash(8) and makedumpfile(8)
 * in analyze-run.c.
 *
 * A verb returns the exit status (EXIT_OK, EXIT_FAIL, EXIT_USAGE) and has
 * printed why; every function below the verbs returns 0 (or a documented
 * positive value) or a negative errno and leaves its ret_ parameters alone
 * on failure.
 */
#ifndef KDUMP_FILE_ANALYZE_H
#define KDUMP_FILE_ANALYZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vmcore.h"

#define PROG "kdump-file-analyze"
#define MAX_RANGES_ARG 32

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

struct range_arg {
	uint64_t start;
	uint64_t end;		/* exclusive */
	const char *text;
};

struct marker_arg {
	uint64_t addr;
	uint8_t bytes[64];
	size_t len;
	const char *text;
};

/*
 * The command line, as kdump-file-analyze.c parsed it: one for the run,
 * handed to the verb.
 */
struct analyze_options {
	bool json;
	const char *vmlinux;
	bool crashkernel_set;
	struct range_arg crashkernel;
	long expect_cpus;	/* -1: not checked */
	struct range_arg excludes[MAX_RANGES_ARG];
	size_t n_excludes;
	struct marker_arg markers[MAX_RANGES_ARG];
	size_t n_markers;
	long timeout;		/* seconds, for crash(8) and makedumpfile */
};

/*
 * The verbs: argv[0..argc) are the positional arguments after the verb,
 * o the options.
 */
int verb_info(const struct analyze_options *o, int argc, char *argv[]);
int verb_read(const struct analyze_options *o, int argc, char *argv[]);
int verb_check(const struct analyze_options *o, int argc, char *argv[]);
int verb_vmlinux(const struct analyze_options *o, int argc, char *argv[]);
int verb_report(const struct analyze_options *o, int argc, char *argv[]);

/* analyze-util.c: the program layer's messages and formatting. */
__attribute__((format(printf, 1, 2)))
void log_error(const char *fmt, ...);
__attribute__((format(printf, 1, 2)))
void log_warning(const char *fmt, ...);

/* A hexadecimal number, 0x optional: 0 or -EINVAL. */
int parse_hex(const char *s, uint64_t *ret);

/* vmcore_open(), its failure said on stderr. */
int open_vmcore(const char *path, struct vmcore **ret);

/* "2023-11-14 22:13:20 UTC", or "unknown" */
void format_time(int64_t t, char *buf, size_t size);
/* "27.1 MiB" */
const char *size_str(uint64_t bytes, char *buf, size_t size);

struct json_object;
/* key: text, or null when text is NULL or empty. */
void put_text(struct json_object *o, const char *key, const char *text);
void put_u64(struct json_object *o, const char *key, uint64_t v);
/* "0x..." of v; wide: all 16 digits, as registers are shown. */
void put_hex(struct json_object *o, const char *key, bool wide, uint64_t v);
/* obj as the project writes JSON (json-c, pretty), and a newline. */
void json_print(FILE *f, struct json_object *obj);

#endif
