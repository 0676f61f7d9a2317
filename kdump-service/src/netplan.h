/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The network target's part of the load plan: the collector's IPv4
 * address, the route to it (the interface and the gateway), the
 * interface's address and MAC, and the chain lines the capture reads to
 * bring that interface up with no DNS and no udev.  Read from the running
 * system at load time; interfaces the capture cannot bring up (bonds,
 * VLANs, bridges, links other than Ethernet) are refused here, not found
 * out after a crash.  Nothing here prints.
 */
#ifndef KDUMP_FILE_NETPLAN_H
#define KDUMP_FILE_NETPLAN_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <net/if.h>
#include <netinet/in.h>

#include "conf.h"
#include "diag.h"

/*
 * For the command-line tests only: a directory standing for / in what the
 * network plan reads (proc/net/route, proc/net/vlan, sys/class/net), with
 * a file "ifaddrs" of "IFNAME ADDR/PREFIX" lines in place of getifaddrs().
 */
#define NETPLAN_ROOT_ENV "KDUMP_FILE_NET_ROOT"

/* Where the network plan reads the system (see NETPLAN_ROOT_ENV). */
struct net_paths {
	char route[PATH_MAX];	/* /proc/net/route */
	char vlan[PATH_MAX];	/* /proc/net/vlan */
	char sysfs[PATH_MAX];	/* /sys */
	char ifaddrs[PATH_MAX];	/* "": getifaddrs() */
};

void net_paths_init(struct net_paths *np);

/* The route /proc/net/route has to an address. */
struct net_route {
	char ifname[IF_NAMESIZE];
	struct in_addr gateway;	/* 0.0.0.0: on-link */
	unsigned int prefix;	/* of the route taken */
};

/*
 * The route to dest in text, the content of /proc/net/route: the longest
 * prefix that is up and not a reject route, the lowest metric among
 * equals.  -ENETUNREACH when there is none; -EBADMSG when text is not that
 * file's (its header missing).  ret is untouched on failure.
 */
int net_route_find(const char *text, struct in_addr dest,
		   struct net_route *ret);

/*
 * Whether the capture can bring ifname up: 0, or -EMEDIUMTYPE with what it
 * is (a bond, a VLAN, a bridge, loopback, a wireless or non-Ethernet link)
 * and what to do in d; -ENODEV when sysfs has no such interface.
 */
int net_iface_check(const struct net_paths *np, const char *ifname,
		    const char *host, struct in_addr collector, struct diag *d);

/*
 * The collector's IPv4 address as the running system resolves host now
 * (getaddrinfo(), AF_INET): -EHOSTUNREACH, d saying why, when it does not.
 */
int net_resolve_host(const char *host, struct in_addr *ret, struct diag *d);

/* What the capture brings up to reach the collector. */
struct net_plan {
	struct in_addr collector;
	char ifname[IF_NAMESIZE];
	char mac[18];		/* aa:bb:cc:dd:ee:ff */
	struct in_addr addr;
	unsigned int prefix;
	struct in_addr gateway;	/* 0.0.0.0: on-link */
	char hostdir[256];	/* net_host_dir() */
};

/*
 * Resolve c's network target on this system into *ret: net_host by
 * getaddrinfo() (AF_INET), the route, the interface's checks, its IPv4
 * address (the one on the collector's or the gateway's subnet) and MAC,
 * and this machine's host dir.  On failure a negative errno and, in d,
 * what failed and what to do; ret untouched.
 */
int net_resolve(const struct kdump_conf *c, const struct net_paths *np,
		struct net_plan *ret, struct diag *d);

/*
 * The way to IPv4 address dest (named host in messages: a collector's
 * name, an iSCSI portal) on this system into *ret, as net_resolve() finds
 * the collector's, without the host dir; ret->collector is dest.
 */
int net_resolve_addr(const struct net_paths *np, const char *host,
		     struct in_addr dest, struct net_plan *ret, struct diag *d);

/*
 * The chain lines of n: "net MAC ADDR/PREFIX GATEWAY" ("-" on-link),
 * "collector IPV4", "hostdir NAME".  -ENOBUFS, buf untouched, when they do
 * not fit in size.
 */
int net_chain_format(const struct net_plan *n, char *buf, size_t size);

/*
 * The "net MAC ADDR/PREFIX GATEWAY" line alone (an iSCSI portal's way):
 * -ENOBUFS, buf untouched, when it does not fit in size.
 */
int net_link_format(const struct net_plan *n, char *buf, size_t size);

/*
 * For an ssh target, what the capture needs from 'kdump-file propagate':
 * which 0, the key (root's, mode 0600); which 1, the pinned host keys.
 * 0 when present or not an ssh target, else a negative errno, d saying why.
 */
int net_check_ssh_files(const struct kdump_conf *c, unsigned int which,
			struct diag *d);

/* "192.0.2.1"; "-" for 0.0.0.0 when dash.  Returns buf. */
char *net_addr_text(struct in_addr a, bool dash, char *buf, size_t size);

#endif
