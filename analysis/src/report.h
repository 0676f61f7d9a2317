/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report: what crashed, from crash(8)'s output or from the kernel log, and
 * a signature that is the same for repeated crashes of the same kind.
 *
 * Nothing here prints or runs programs; the parsers take text and fill a
 * struct crash_report.
 */
#ifndef KDUMP_FILE_REPORT_H
#define KDUMP_FILE_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define REPORT_FRAMES_MAX 48
#define REPORT_FRAME_LEN 96
#define REPORT_SIG_FRAMES 5
#define REPORT_SIG_HEX 16
#define REPORT_STATES_MAX 16

struct report_state {
	char name[4];		/* crash's ps -S state, e.g. "RU" */
	long count;
};

struct crash_report {
	char source[8];		/* "crash" or "dmesg" */
	char panic[256];	/* "Kernel panic - not syncing: ..." */
	char oops[256];		/* first "BUG:"/"Oops:"/... line, if any */
	char command[32];	/* crashing task */
	long pid;		/* -1: unknown */
	int cpu;		/* -1: unknown */
	char release[65];
	char uptime[32];
	char taint[64];
	size_t n_frames;
	char frames[REPORT_FRAMES_MAX][REPORT_FRAME_LEN];
	size_t n_states;
	struct report_state states[REPORT_STATES_MAX];

	/* Filled by report_sign(). */
	char normalized[256];
	size_t n_sig_frames;
	char sig_frames[REPORT_SIG_FRAMES][REPORT_FRAME_LEN];
	char signature[REPORT_SIG_HEX + 1];
};

void report_init(struct crash_report *r, const char *source);

/*
 * Parse crash(8)'s output of "sys", "bt", "log | tail" and "ps -S".
 * Returns 0, or -ENODATA if neither a panic nor a backtrace was found.
 */
int report_parse_crash(struct crash_report *r, const char *text);

/*
 * Parse a kernel log (makedumpfile --dump-dmesg, or crash's log): the panic
 * line, the crashing task's "CPU: N PID: N Comm: X" line, taint, uptime and
 * the "Call Trace:" that belongs to the panic. Fields already set are kept.
 * Returns 0, or -ENODATA if no panic or oops was found.
 */
int report_parse_log(struct crash_report *r, const char *text);

/*
 * Panic text with addresses, numbers, timestamps and quotes taken out and
 * blanks squeezed, so that two crashes of the same kind compare equal.
 */
void report_normalize(const char *in, char *out, size_t size);

/* "? sysrq_handle_crash.cold+0x16/0x20" -> "sysrq_handle_crash" */
void report_frame_name(const char *in, char *out, size_t size);

/*
 * signature = first 16 hex digits of sha256(normalized panic (or oops
 * line when there is no panic) "\n" + the top 5 frames, one per line),
 * after skipping the frames of the panic and exception machinery itself
 * (machine_kexec, panic, dump_stack_lvl, asm_exc_page_fault, ...).
 * Signatures are kept in the users' records: the text signed and the
 * digest must never change. 0, or -EIO when libcrypto fails.
 */
int report_sign(struct crash_report *r);

/*
 * Lowercase hex of the first @nbytes (at most 32) of the SHA-256 digest of
 * @data, by libcrypto, NUL-terminated in @out (2 * @nbytes + 1 bytes).
 * 0, or -EIO when libcrypto fails (out of memory, no SHA-256 provider).
 */
int report_sha256_hex(const void *data, size_t len, char *out, size_t nbytes);

void report_write_text(FILE *f, const struct crash_report *r);

#endif
