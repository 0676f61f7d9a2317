/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bring a dump from the raw dump device into the dump directory, one
 * recover at a time (load runs one, the report unit another); says what
 * it could not do.
 */
#ifndef KDUMP_FILE_RECOVER_RAW_H
#define KDUMP_FILE_RECOVER_RAW_H

#include "cli.h"

int recover_raw(struct cli *cli);

#endif
