/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sandbox of the units that load the capture kernel
 * (kdump-file.service, kdump-file-hotplug.service), as the configuration
 * needs it.  The units themselves give a load no network at all
 * (PrivateNetwork=yes, AF_UNIX only, IPAddressDeny=any): what a local or
 * raw target needs.  A network target needs the collector: the generator
 * writes a drop-in from sandbox_dropin() that opens exactly that (the
 * address families, the collector's addresses, for NFS the mount), and
 * names what it opened in KDUMP_FILE_SANDBOX, so that a load can tell a
 * unit made for another configuration.  Nothing here prints.
 */
#ifndef KDUMP_FILE_SANDBOX_H
#define KDUMP_FILE_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>

#include "conf.h"

/* The variable the drop-in sets, and the value without a drop-in. */
#define SANDBOX_ENV "KDUMP_FILE_SANDBOX"
#define SANDBOX_LOCAL "local"
/* The drop-in's name in each unit's .d directory. */
#define SANDBOX_DROPIN "50-network-target.conf"

/* The addresses a load may reach, at most. */
#define SANDBOX_ADDRS_MAX 8

struct sandbox {
	enum conf_net net;	/* CONF_NET_NONE: the units as they are */
	/*
	 * With CONF_NET_NONE: the system has iSCSI sessions, and a local
	 * target on one of their disks needs the way to its portal read at
	 * load (the routes, addresses and links: netlink, the system's
	 * network namespace), though no traffic.
	 */
	bool iscsi;
	/*
	 * The collector's addresses, blank-separated ("" when net is
	 * CONF_NET_NONE); "any" when its name is not in the hosts file, so
	 * that only a resolver knows them.
	 */
	char allow[SANDBOX_ADDRS_MAX * 48];
};

/* The value of SANDBOX_ENV for a system with iSCSI sessions. */
#define SANDBOX_ISCSI "iscsi"
/* Where the kernel lists the iSCSI sessions. */
#define SANDBOX_ISCSI_SESSIONS "/sys/class/iscsi_session"

/* Whether directory dir (SANDBOX_ISCSI_SESSIONS) lists any session. */
bool sandbox_iscsi_sessions(const char *dir);

/*
 * What configuration c needs, the collector's name looked up in hosts_file
 * (/etc/hosts: a generator runs before any resolver can answer) unless it
 * is an address.  An unreadable hosts file is one that does not name it.
 */
void sandbox_for(const struct kdump_conf *c, const char *hosts_file,
		 struct sandbox *ret);

/*
 * "local", "iscsi", "ssh 192.0.2.1", "nfs any": the value of SANDBOX_ENV.
 */
int sandbox_tag(const struct sandbox *s, char *buf, size_t size);

/*
 * The drop-in's text for s (target: the URL, for its comment); "" for
 * CONF_NET_NONE without iSCSI, where no drop-in is written.  -ENOBUFS when size is too
 * small.
 */
int sandbox_dropin(const struct sandbox *s, const char *target, char *buf,
		   size_t size);

#endif
