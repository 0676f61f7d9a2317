/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The capture kernel in and out of the kernel: the work of load, reload,
 * unload and the reload after hotplug.  These say what they do and what
 * failed, through cli's messages.
 */
#ifndef KDUMP_FILE_LOAD_H
#define KDUMP_FILE_LOAD_H

#include <stdbool.h>

#include "cli.h"

/*
 * Load the capture kernel once.  after_hotplug: only over kdump-file's own
 * capture kernel, waiting for the lock; returns 1 when none of
 * kdump-file's is loaded.  On failure *ret_net (when not NULL) says
 * whether reaching a network target's collector failed, which may pass as
 * the network comes up.
 */
int load_capture(struct cli *cli, bool after_hotplug, bool *ret_net);
/*
 * load and reload: load_capture(), tried again in kdump-file's units while
 * a network target's collector does not answer (net_load_wait); what the
 * last load that left nothing loaded said is kept for status.
 */
int load_retrying(struct cli *cli);
/* Unload the capture kernel, and put the panic_on sysctls back. */
int unload_capture(struct cli *cli);

#endif
