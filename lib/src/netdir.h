/* SPDX-License-Identifier: GPL-2.0 */
/*
 * This machine's directory on a network target's collector ("host dir"):
 * HOSTNAME-MID12, the static host name up to its first dot and the first
 * 12 hex digits of /etc/machine-id.  The loader writes it into the chain,
 * the capture and kdump-file propagate use it, the collector checks it.
 * Never logs.
 */
#ifndef KDUMP_FILE_NETDIR_H
#define KDUMP_FILE_NETDIR_H

#include <stdbool.h>
#include <stddef.h>

#define NET_MACHINE_ID_PATH "/etc/machine-id"
/* Host name (at most 64) + "-" + 12 hex digits + NUL. */
#define NET_HOST_DIR_MAX 80

/* Letters, digits, '.', '_', '-', not starting with a dot, < 256 bytes. */
bool net_host_dir_valid(const char *name);

/*
 * The host dir from hostname (cut at its first dot) and the machine-id
 * text (32 hex digits, a newline allowed); -EINVAL when either is not
 * what it should be, -ENOBUFS when size is too small; buf untouched on
 * failure.
 */
int net_host_dir_from(const char *hostname, const char *machine_id,
		      char *buf, size_t size);

/* This machine's: gethostname() and NET_MACHINE_ID_PATH. */
int net_host_dir(char *buf, size_t size);

#endif
