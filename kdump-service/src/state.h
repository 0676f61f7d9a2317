/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kdump-file records between runs and boots: what is loaded (in
 * /run/kdump-file/loaded), that a capture kernel is armed (in
 * /var/lib/kdump-file/armed, across reboots) and that a crash was lost
 * (/var/lib/kdump-file/lost).  Formatting, parsing and the verdict only:
 * the caller reads and writes the files.
 */
#ifndef KDUMP_FILE_STATE_H
#define KDUMP_FILE_STATE_H

#include <stdbool.h>
#include <stddef.h>

#include "cmdline.h"

/* /run/kdump-file/loaded: "kernel=", "initramfs=" and "cmdline=" lines. */
struct loaded_state {
	char kernel[4096];
	char initramfs[4096];	/* "" when loaded without one */
	char cmdline[CMDLINE_KERNEL_MAX * 2];
};

int loaded_format(const char *kernel, const char *initramfs,
		  const char *cmdline, char *buf, size_t size);
/* -EINVAL unless text has a non-empty kernel=, an initramfs= and a cmdline=. */
int loaded_parse(const char *text, struct loaded_state *ret);

/*
 * The armed marker, "boot=<boot id> time=<epoch seconds> [pstore=<backend>]
 * kernel=<path>", written when a capture kernel is loaded and removed when
 * it is unloaded; a lost record is the same without kernel=.  pstore= names
 * the backend in which that capture would have left a record of its
 * failure (efi_pstore, ramoops); without it, none was known.
 */
struct armed {
	char boot[64];
	long long time;
	char pstore[32];	/* "" when none */
	char kernel[4096];	/* "" in a lost record */
};

/* Room for a marker's text: its values, their keys and the newline. */
#define ARMED_TEXT_MAX (sizeof(struct armed) + 64)

/* pstore may be NULL or "" (none), kernel NULL (a lost record). */
int armed_format(const char *boot, long long time, const char *pstore,
		 const char *kernel, char *buf, size_t size);
int armed_parse(const char *text, struct armed *ret);

enum crash_verdict {
	CRASH_NONE,	/* no marker, or armed in this boot */
	CRASH_SAVED,	/* the previous boot ended uncleanly; a dump is there */
	CRASH_LOST,	/* ... and no dump from it was saved */
};

/*
 * Given the armed marker's text (NULL when there is none), the current
 * boot id and the newest dump's crash time (-1 when there is none): a
 * marker from another boot means that boot ended without a clean shutdown
 * (which unloads, removing it) while the capture kernel was loaded; a dump
 * from then on means the capture worked.  ret, if not NULL, gets the
 * marker's contents for CRASH_SAVED and CRASH_LOST.
 */
enum crash_verdict crash_verdict(const char *marker, const char *boot_id,
				 long long newest_dump_time, struct armed *ret);

/* A lost record is shown until a complete dump at or after its time exists. */
bool lost_is_current(const struct armed *lost, long long newest_complete_time);

/*
 * The text after "LOST: " that status prints for a lost record that no
 * record in pstore explains: with lost->pstore set, the capture could have
 * left one there, so none started or it stopped before it could.
 */
int lost_describe(const struct armed *lost, char *buf, size_t size);

#endif
