/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The dump a crash now would write, before the crash: its pages as
 * makedumpfile --mem-usage counts them (kept in a cache: a run takes
 * seconds), its size and time (estimate_dump()), whether the dump target
 * has room for it, and whether makedumpfile can tell free pages in this
 * kernel at all.  load, status and estimate say what these find; nothing
 * here prints.
 */
#ifndef KDUMP_FILE_DUMPSIZE_H
#define KDUMP_FILE_DUMPSIZE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "conf.h"
#include "diag.h"
#include "estimate.h"
#include "initramfs.h"
#include "memusage.h"

/*
 * The cache of makedumpfile --mem-usage, where the loader keeps its state.
 * It is written only where that directory exists (load makes it), so that
 * estimate and status make nothing on a machine never loaded.
 * KDUMP_FILE_MEMUSAGE_CACHE, for the command-line tests only, puts it
 * elsewhere.
 */
#define DUMPSIZE_CACHE KDUMP_FILE_STATE_DIR "/mem-usage.json"
#define DUMPSIZE_CACHE_ENV "KDUMP_FILE_MEMUSAGE_CACHE"

/* Room for the kernel log, metadata.json and the report beside the vmcore. */
#define DUMPSIZE_EXTRA_BYTES (1ULL << 20)
/* A dump varies with what memory holds at the crash: a fifth more. */
#define DUMPSIZE_MARGIN_PERCENT 20

struct dumpsize {
	struct memusage_entry run;	/* cached or fresh */
	bool cached;			/* run came from the cache */
	bool known;			/* est was made (run.error == 0) */
	struct dump_estimate est;
	/*
	 * makedumpfile cannot exclude free pages in this kernel (--mem-usage
	 * failed, or found none while MemFree says otherwise) and the dump
	 * level asks it to: the dump holds them, as est says (0 when not
	 * known), against est_without_free had it excluded them.
	 */
	bool free_unexcluded;
	struct dump_estimate est_with_free;
	struct dump_estimate est_without_free;
};

/*
 * The expected dump for c, from the cache (or a run when it has none for
 * this kernel, makedumpfile and memory), or from a fresh run of
 * makedumpfile when fresh; a fresh run refreshes the cache.  last_dump:
 * the newest dump's directory (NULL: none), whose metadata gives this
 * machine's own ratio and speed when it was saved at c's dump level and
 * compression.  -ENOENT when makedumpfile is not installed, -ENODATA for
 * dump_level = dmesg (no vmcore); a failed run is not a failure: see
 * ret->run.error.
 */
/*
 * Run makedumpfile --mem-usage unless the cache holds its count for this
 * kernel, makedumpfile and memory, and cache what it said (making the
 * cache's directory, 0700, when missing).  *ret_ran: it ran.  A failed
 * run is cached too and returns its error, recorded in d with why it
 * failed (the errno alone when that says it all).
 */
int dumpsize_refresh(bool *ret_ran, struct diag *d);

int dumpsize_get(const struct kdump_conf *c, bool fresh,
		 const char *last_dump_dir, struct dumpsize *ret);

/* Whether the dump target has room for the expected dump. */
struct dumpsize_room {
	char target[PATH_MAX];		/* as the configuration names it */
	char where[PATH_MAX];		/* the directory or device measured */
	unsigned long long free_bytes;	/* beyond min_free_mb, for a raw device its size */
	unsigned long long need_bytes;	/* with margin and the kernel log */
	bool raw;
};

/*
 * The room on c's dump target for est: 1 when it is short, 0 when there
 * is room, -EREMOTE for a network target (no figure is known), another
 * negative errno when it cannot be measured.  dumps_dir: where this
 * system sees the dumps of a local target (dumps_base()).
 */
int dumpsize_room(const struct kdump_conf *c, const char *dumps_dir,
		  const struct dump_estimate *est, struct dumpsize_room *ret);

/*
 * "about 26 MiB, written in about 1.1 s (dump level 31, lzo; from
 * makedumpfile --mem-usage: 24847 of 205739 pages kept)" for d->est.
 */
void dumpsize_text(const struct kdump_conf *c, const struct dumpsize *d,
		   char *buf, size_t size);

/* What load and status warn of a target short of room (config: its file). */
void dumpsize_room_text(const struct kdump_conf *c, const char *config,
			const struct dumpsize_room *room,
			const struct dump_estimate *est, char *buf,
			size_t size);

/* What load warns of free pages makedumpfile cannot exclude. */
void dumpsize_free_text(const struct dumpsize *d, char *buf, size_t size);

/* What load, status and estimate say of the expected dump. */
struct dumpsize_expected {
	int r;			/* dumpsize_get()'s */
	struct dumpsize d;
	char text[1024];	/* dumpsize_text(), or why it is not known */
	char room[2 * PATH_MAX + 1024];	/* a warning, "" for none */
	char free_pages[1024];	/* a warning, "" for none */
	char note[512];		/* makedumpfile's own warning, harmless */
};

/*
 * All of it for c (config: its file, for the warnings; base: where this
 * system sees a local target's dumps, NULL when it cannot) into *ret: the
 * expected dump, from the cache unless fresh; the room on a local target
 * or raw device; makedumpfile's free pages.
 */
void dumpsize_expect(const struct kdump_conf *c, const char *config,
		     const char *base, bool fresh,
		     struct dumpsize_expected *ret);

#endif
