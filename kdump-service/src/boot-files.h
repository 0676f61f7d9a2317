/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Before a capture initramfs is built or a capture kernel loaded (load,
 * rebuild, setup): what goes in must be root's alone (check_boot_files()),
 * and the initramfs kdump-file builds current (ensure_initramfs(), force:
 * build anyway; on a terminal one line shows the build going on).
 */
#ifndef KDUMP_FILE_BOOT_FILES_H
#define KDUMP_FILE_BOOT_FILES_H

#include <stdbool.h>

#include "cli.h"

int check_boot_files(struct cli *cli, const struct plan *p);
int ensure_initramfs(struct cli *cli, struct plan *p, bool force);

#endif
