/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDUMP_FILE_NETDIR_H
#define KDUMP_FILE_NETDIR_H

#include <stddef.h>

/*
 * This machine's directory on a collector, "HOSTNAME-MID12": the host name
 * up to its first dot and the first 12 hex digits of /etc/machine-id, so
 * that two machines of the same name keep apart.  -ENOBUFS, buf
 * untouched, when it does not fit in size; -EBADMSG when the machine ID
 * is not one.
 */
int net_host_dir(char *buf, size_t size);

#endif
