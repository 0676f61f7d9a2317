/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The network target's part of the load plan: the collector's IPv4 or
 * IPv6 address, the route to it (the interface and the gateway), the links
 * under that interface (a bridge left out for its port, a VLAN, a bond and
 * its members, the NICs with their identity), the address and MTU, and the
 * chain lines the capture reads to build the same path with no DNS and no
 * udev.  Read from the running system at load time; links the capture
 * cannot build (wireless, InfiniBand, tunnels, teams, nested bonds or
 * VLANs, a bridge with several uplinks) are refused here, not found out
 * after a crash.  Nothing here prints.
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
	char route6[PATH_MAX];	/* /proc/net/ipv6_route */
	char vlan[PATH_MAX];	/* /proc/net/vlan */
	char sysfs[PATH_MAX];	/* /sys */
	char ifaddrs[PATH_MAX];	/* "": getifaddrs() */
};

void net_paths_init(struct net_paths *np);

/* An IPv4 or an IPv6 address. */
struct net_ip {
	int family;		/* AF_INET, AF_INET6; 0: none */
	union {
		struct in_addr v4;
		struct in6_addr v6;
	} u;
};

/* Text of either family, with room for the longest. */
#define NET_IP_TEXT INET6_ADDRSTRLEN

/* a in text; "-" for none when dash, else "?".  Returns buf. */
char *net_ip_text(const struct net_ip *a, bool dash, char *buf, size_t size);

/* An IPv4 or IPv6 address from text: 0, or -EINVAL. */
int net_ip_parse(const char *text, struct net_ip *ret);

/* The route /proc/net/route or /proc/net/ipv6_route has to an address. */
struct net_route {
	char ifname[IF_NAMESIZE];
	struct net_ip gateway;	/* family 0: on-link */
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

/* The same in text, the content of /proc/net/ipv6_route. */
int net_route6_find(const char *text, const struct in6_addr *dest,
		    struct net_route *ret);

/* The most NICs (a bond's members) the capture brings up. */
#define NET_NIC_MAX 4

/*
 * A NIC as the capture finds it: its own MAC (a bond member's permanent
 * one), its driver, and its device's path under /sys/devices ("-" for
 * either when it has none).
 */
struct net_nic {
	char ifname[IF_NAMESIZE];
	char mac[18];
	char driver[64];
	char devpath[192];
};

/*
 * The links from the NICs up to the interface that holds the address, as
 * the running system has them: a bond of the NICs (bond[0]: none), a VLAN
 * on the bond or the one NIC (vlan_id 0: none), and a bridge above them
 * that the capture leaves out, putting the address on its port.
 */
struct net_links {
	struct net_nic nics[NET_NIC_MAX];
	unsigned int n_nics;
	char bond[IF_NAMESIZE];
	char bond_mode[32];	/* active-backup, 802.3ad, ... */
	unsigned int bond_miimon;	/* ms */
	char bond_mac[18];
	char vlan[IF_NAMESIZE];
	unsigned int vlan_id;
	char bridge[IF_NAMESIZE];
	unsigned int mtu;	/* of the route's interface */
};

/*
 * The links under ifname, into *ret: 0, or -EMEDIUMTYPE with what the
 * capture cannot build (loopback, a wireless or non-Ethernet link, a team
 * or other stacked link, a bond in a bond, a VLAN in a VLAN, a bridge with
 * no or several uplinks, too many members) and what to do in d; -ENODEV
 * when sysfs has no such interface.  host and collector name the
 * collector in messages.  ret is untouched on failure.
 */
int net_links_walk(const struct net_paths *np, const char *ifname,
		   const char *host, const struct net_ip *collector,
		   struct net_links *ret, struct diag *d);

/*
 * The collector's address as the running system resolves host now
 * (getaddrinfo(): IPv4 when it has one, else IPv6): -EHOSTUNREACH, d
 * saying why, when it does not.
 */
int net_resolve_host(const char *host, struct net_ip *ret, struct diag *d);

/* What the capture brings up to reach the collector. */
struct net_plan {
	struct net_ip collector;
	char ifname[IF_NAMESIZE];	/* the route's */
	char mac[18];		/* of the interface the capture addresses */
	struct net_ip addr;
	unsigned int prefix;
	struct net_ip gateway;	/* family 0: on-link */
	struct net_links links;
	char hostdir[256];	/* net_host_dir() */
};

/* The interface the capture puts the address on: VLAN, bond or NIC. */
const char *net_links_top(const struct net_links *l);

/*
 * The path in words for show: "bond bond0 (active-backup, miimon 100 ms)
 * of NIC eth0 (MAC ..., driver ..., device ...) and ..., VLAN 43 (bond0.43)
 * on it, bridge br0 left out: its address goes on bond0.43".  Cut to size.
 */
void net_links_describe(const struct net_links *l, char *buf, size_t size);

/* Whether the capture needs ip(8) for n: a bond, a VLAN or IPv6. */
bool net_plan_needs_ip(const struct net_plan *n);

/*
 * Resolve c's network target on this system into *ret: net_host by
 * getaddrinfo(), the route, the links under its interface, the address
 * (IPv4: the one on the collector's or the gateway's subnet; IPv6: a
 * global one, on the collector's prefix when on-link) and MAC, and this
 * machine's host dir.  On failure a negative errno and, in d,
 * what failed and what to do; ret untouched.
 */
int net_resolve(const struct kdump_conf *c, const struct net_paths *np,
		struct net_plan *ret, struct diag *d);

/*
 * The way to address dest (named host in messages: a collector's name, an
 * iSCSI portal) on this system into *ret, as net_resolve() finds the
 * collector's, without the host dir; ret->collector is dest.
 */
int net_resolve_addr(const struct net_paths *np, const char *host,
		     const struct net_ip *dest, struct net_plan *ret,
		     struct diag *d);

/*
 * The chain lines of n: its links (net_link_format()), "collector ADDR",
 * "hostdir NAME".  -ENOBUFS, buf untouched, when they do not fit in size.
 */
int net_chain_format(const struct net_plan *n, char *buf, size_t size);

/*
 * The link lines alone (an iSCSI portal's way): "nic MAC DRIVER DEVPATH"
 * for each NIC, "bond NAME MODE MIIMON MAC" and "vlan NAME ID" when there
 * is one, "mtu N" when not 1500, then "net MAC ADDR/PREFIX GATEWAY" ("-"
 * on-link).  -ENOBUFS, buf untouched, when they do not fit in size.
 */
int net_link_format(const struct net_plan *n, char *buf, size_t size);

/*
 * For an ssh target, what the capture needs from 'kdump-file propagate':
 * which 0, the key (root's, mode 0600); which 1, the pinned host keys.
 * 0 when present or not an ssh target, else a negative errno, d saying why.
 */
int net_check_ssh_files(const struct kdump_conf *c, unsigned int which,
			struct diag *d);

/* "text" or "[text]" for an IPv6 address, as URLs and NFS sources take. */
char *net_ip_host(const struct net_ip *a, char *buf, size_t size);

#endif
