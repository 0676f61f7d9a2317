/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDUMP_FILE_DUMP_H
#define KDUMP_FILE_DUMP_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

/* What a dump directory says about itself. */
struct dump_info {
	char dir[4096];
	bool has_vmcore;
	bool has_incomplete;	/* vmcore-incomplete left behind */
	bool has_dmesg;
	bool has_metadata;
	long long vmcore_bytes;
	long long crash_time;	/* from metadata, -1 if unknown */
	char panic[256];
	char error[256];	/* why the vmcore is missing, from metadata */
	char release[65];
	char summary[512];	/* first line of report.txt's summary, if any */
	char signature[64];	/* of the crash, from report.json ("" if none) */
	/*
	 * dump_level = dmesg: the metadata says the capture saved the
	 * kernel log alone, as configured, and finished.
	 */
	bool dmesg_only;
	/*
	 * A copy of a dump on the collector (DUMP_COLLECTOR_COPY): dir is
	 * its location there, has_vmcore and vmcore_bytes its vmcore's.
	 */
	bool copy;
};

/*
 * Whether the dump is all its capture meant to save: a vmcore, or the
 * kernel log of a finished dmesg-only capture.
 */
bool dump_complete(const struct dump_info *d);

/* The newest dump directory below base (-ENOENT when there is none). */
int dump_find_last(const char *base, char *ret, size_t size);
int dump_inspect(const char *dir, struct dump_info *ret);
/* The time (UTC) a dump directory's name says, -1 if it is not one of ours. */
long long dump_name_time(const char *name);
/*
 * When the dump's crash happened: its metadata's crash_time, or else the
 * time in its name (when the capture started; a capture cut short writes
 * no metadata).  -1 when neither is known.
 */
long long dump_time(const struct dump_info *d);
/*
 * The newest dump's time and the newest complete dump's (dump_complete())
 * below base, each -1 when there is none.
 */
int dump_scan(const char *base, long long *ret_newest,
	      long long *ret_newest_complete);
/*
 * Which old dumps to remove before a new one so that at most keep remain
 * with it (keep 0: all stay).  names are sorted oldest first, complete[i]
 * says whether dump i is complete (dump_complete()).  Incomplete dumps go first, oldest
 * first, then complete ones, oldest first; the newest complete dump is
 * never removed, since the new capture may fail too.  Sets remove[i];
 * returns how many are to go.
 */
unsigned int dump_retention(const bool *complete, unsigned int n,
			    unsigned int keep, bool *remove);

/*
 * Remove dump directory name (one of ours by its name) below the directory
 * basefd, without ever following a link: a link named like a dump is
 * refused (-ENOTDIR), a link inside a dump is removed as a link, and a
 * subdirectory, which the capture never makes, keeps the dump (-ENOTEMPTY).
 */
int dump_remove(int basefd, const char *name);
/*
 * A directory below basefd that the capture could have made: not a link,
 * owned by us (root), writable by nobody else.  Anything else named like a
 * dump was put there by someone else and is neither read nor removed.
 */
bool dump_is_ours(int basefd, const char *name);
/*
 * Whether the dump directory base is safe to keep dumps in: it and every
 * directory above it owned by root, the directory itself writable by root
 * alone and not a link, those above writable by others only when sticky.
 * A link on the way is checked with what it leads to (safedir.h).
 * -EPERM with the reason in d (the path at fault and what is wrong).
 */
int dump_base_check(const char *base, struct diag *d);

/*
 * A dump's ID: 8 hex digits of a hash of its directory name, short to type
 * and the same for as long as the dump exists.
 */
#define DUMP_ID_LEN 8
void dump_id(const char *name, char ret[DUMP_ID_LEN + 1]);
/* The names of the dumps of ours below base, oldest first. */
int dump_list(const char *base, char ***ret, size_t *ret_n);
void dump_list_free(char **names, size_t n);
/*
 * Which of names what means: "last" or "" (the newest), a directory name,
 * an ID or a prefix of at least 4 of one.  -ENOENT: none; -ENOTUNIQ: a
 * prefix of several.
 */
int dump_resolve(char **names, size_t n, const char *what, size_t *ret);

#endif
