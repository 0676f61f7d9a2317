/* SPDX-License-Identifier: GPL-2.0 */
/*
 * makedumpfile's view of the running system: "makedumpfile --mem-usage
 * /proc/kcore" counts the pages of each type a dump level can exclude,
 * which is what a dump would hold.  Run through the process runner, its
 * table parsed without trusting it, and the result kept in a small cache
 * (a run takes seconds, a load must not).  Never logs.
 */
#ifndef KDUMP_FILE_MEMUSAGE_H
#define KDUMP_FILE_MEMUSAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

/* The rows of the table, in the order of makedumpfile's dump level bits. */
enum memusage_type {
	MEMUSAGE_ZERO,		/* dump level bit 1 */
	MEMUSAGE_NON_PRI_CACHE,	/* 2 */
	MEMUSAGE_PRI_CACHE,	/* 4 */
	MEMUSAGE_USER,		/* 8 */
	MEMUSAGE_FREE,		/* 16 */
	MEMUSAGE_KERN_DATA,	/* never excluded */
	MEMUSAGE_TYPES,
};

struct memusage {
	unsigned long long pages[MEMUSAGE_TYPES];
	bool has[MEMUSAGE_TYPES];	/* the row was in the table */
	unsigned long long total_pages;
	unsigned long long page_size;
	/* It printed "The kernel version is not supported.". */
	bool kernel_unsupported;
};

/* The row's name as makedumpfile prints it ("NON_PRI_CACHE"). */

/*
 * Parse the output of --mem-usage (len bytes of text, NUL bytes refused)
 * into *ret.  The table must have KERN_DATA, "page size" (a power of two
 * from 512 B to 1 GiB) and "Total pages on system"; its rows must add up to
 * no more than the total, and the total's bytes must fit 64 bits.  A row
 * of another name is ignored; FREE may be missing (makedumpfile could not
 * tell free pages).  -EBADMSG for anything else, with ret untouched.
 */
int memusage_parse(const char *text, size_t len, struct memusage *ret);

/*
 * The pages a dump at dump_level holds: all but those of the rows whose
 * bit is in dump_level (KERN_DATA always, and pages no row counts).
 */
unsigned long long memusage_kept_pages(const struct memusage *m,
				       unsigned int dump_level);

/*
 * Run program (NULL: "makedumpfile" looked up in PATH) with --mem-usage
 * /proc/kcore, killed after timeout_ms, and parse what it printed.  On
 * failure a negative errno, recorded in d: -ENOENT when it is not
 * installed, -ETIMEDOUT (the message: how long it ran), -EIO when it failed
 * (its last line of output, or how it ended), -EBADMSG when its table is
 * unsound; for a failure to run it at all, the errno alone.
 */
#define MEMUSAGE_TIMEOUT_MS 60000
int memusage_run(const char *program, unsigned int timeout_ms,
		 struct memusage *ret, struct diag *d);

/*
 * "makedumpfile: version 1.7.2 (released on 20 Oct 2022)" -> "1.7.2", from
 * program -v (NULL: "makedumpfile"), into buf; a negative errno when it
 * cannot run or says no version.
 */
int memusage_tool_version(const char *program, char *buf, size_t size);

/*
 * What a cached result is valid for: the kernel release, the makedumpfile
 * binary (its path, size and mtime: a new version is a new file) and
 * MemTotal.
 */
struct memusage_key {
	char release[65];
	char tool[4096];
	long long tool_size;
	long long tool_mtime;
	unsigned long long mem_total_kib;
};

/*
 * The key of the running system for program (NULL: "makedumpfile" in
 * PATH).  -ENOENT when makedumpfile is not installed.
 */
int memusage_key_now(const char *program, struct memusage_key *ret);

/* A run as the cache keeps it: its result, or why it failed. */
struct memusage_entry {
	struct memusage_key key;
	char version[64];	/* makedumpfile's, "" when not known */
	int error;		/* 0, or the run's negative errno */
	/*
	 * The run's failure message (its diag's, cut to fit), "" when none
	 * or when the errno says it all: the cache file's "why".
	 */
	char why[256];
	struct memusage m;	/* when error is 0 */
};

/* e into path (JSON, written atomically, mode 0600). */
int memusage_cache_write(const char *path, const struct memusage_entry *e);

/*
 * The entry in path when its key is key: -ENOENT when there is none,
 * -ESTALE when it was made for another key, -EBADMSG when the file is
 * unsound (its table checked as memusage_parse() checks one).
 */
int memusage_cache_read(const char *path, const struct memusage_key *key,
			struct memusage_entry *ret);

#endif
