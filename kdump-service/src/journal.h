/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The journal entry "kdump-file report" logs once per crash, when the
 * dump's first report is written: its fields, built from what the dump
 * says of itself.  Sending it (sd_journal_sendv()) is the program's part.
 */
#ifndef KDUMP_FILE_JOURNAL_H
#define KDUMP_FILE_JOURNAL_H

#include <stddef.h>

#include "dump.h"

/*
 * The entry's MESSAGE_ID, fixed for good: monitoring and the catalog
 * (catalog/kdump-file.catalog) know the entry by it.
 */
#define JOURNAL_CRASH_MESSAGE_ID "015172fc9e57401f9f980255c3aeecad"
/*
 * The most bytes of one field's value; a longer one is cut on a character
 * boundary and ends in "...".
 */
#define JOURNAL_VALUE_MAX 1024
#define JOURNAL_NAME_MAX 32
#define JOURNAL_CRASH_FIELDS 12

struct journal_fields {
	size_t n;
	/* "NAME=value", one line each, valid UTF-8. */
	char field[JOURNAL_CRASH_FIELDS][JOURNAL_NAME_MAX + 1 + JOURNAL_VALUE_MAX + 1];
};

/*
 * The fields of the entry for the dump d (from dump_inspect()) whose ID is
 * id (dump_id()).  The values come from files a crashed kernel or a disk
 * left: each goes through text_filter() (control characters, escape
 * sequences and bytes that are not UTF-8 shown escaped, as \x1b) and is
 * cut to JOURNAL_VALUE_MAX bytes.  Fields whose value is unknown are left
 * out.
 */
void journal_crash_fields(const struct dump_info *d, const char *id,
			  struct journal_fields *ret);

#endif
