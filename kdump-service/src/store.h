/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The dump store as list, info, debug and report find it.  These say what
 * failed, through cli's messages.
 */
#ifndef KDUMP_FILE_STORE_H
#define KDUMP_FILE_STORE_H

#include <stddef.h>

#include "cli.h"
#include "dump.h"

/*
 * The dumps below the dump directory (into base), oldest first: *names,
 * *n, freed with dump_list_free().
 */
int store_open(struct cli *cli, char *base, size_t size, char ***names,
	       size_t *n);
/*
 * The directory and ID of the dump named (an ID, a prefix of one or a
 * dump directory's name; the newest when NULL); says when there is none
 * or the name fits several.
 */
int store_find(struct cli *cli, const char *named, char *dir, size_t size,
	       char id[DUMP_ID_LEN + 1]);
/*
 * A network target's newest dump on this machine: in the fallback
 * directory, or a copy of the collector's (the newer crash of the two).
 */
int store_net_local_last(const struct kdump_conf *c, char *dir, size_t size);

#endif
