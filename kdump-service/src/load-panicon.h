/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The panic_on sysctls that go with a loaded capture kernel: set after a
 * load (load_panic_on(), want: the configuration's panic_on mask), put
 * back by unload (unload_panic_on()), saying what failed and why.
 */
#ifndef KDUMP_FILE_LOAD_PANICON_H
#define KDUMP_FILE_LOAD_PANICON_H

#include "cli.h"

int load_panic_on(struct cli *cli, unsigned int want);
int unload_panic_on(struct cli *cli);

#endif
