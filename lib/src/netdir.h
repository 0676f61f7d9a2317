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

/*
 * The mount(2) options of an NFS dump target, as the capture and the
 * load-time check mount it: version 3 without the lock manager (the
 * capture runs no statd) and with the MOUNT protocol over TCP; version 4
 * at NFSv4 minor version minor, with client as clientaddr= when not NULL.
 * server is the collector's IPv4 address; extra, when not NULL, goes
 * after a comma.  -ENOBUFS when size is too small.
 */
int nfs_mount_options(unsigned int version, unsigned int minor,
		      const char *server, const char *client,
		      const char *extra, char *buf, size_t size);

/*
 * NFSv4 is mounted at the newest minor version first: a kernel built
 * without it refuses the option (EINVAL) or the server the version
 * (EPROTONOSUPPORT), and the next older one is tried, down to 4.0.
 */
#define NFS4_MINOR_NEWEST 2
bool nfs_minor_refused(int err);

#endif
