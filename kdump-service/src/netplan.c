// SPDX-License-Identifier: GPL-2.0
/*
 * The way to a network target's collector (see netplan.h): the route and
 * the interface, the collector's address, the capture's network line.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "netdir.h"
#include "netplan.h"
#include "util.h"

static int append(char *buf, size_t size, size_t *pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* include/uapi/linux/route.h */
#define ROUTE_UP 0x0001
#define ROUTE_REJECT 0x0200
/* include/uapi/linux/if_arp.h */
#define ARPHRD_ETHER_TYPE 1
#define ARPHRD_LOOPBACK_TYPE 772

void net_paths_init(struct net_paths *np)
{
	const char *root = getenv(NETPLAN_ROOT_ENV);

	if (!root || strcmp(root, "/") == 0)
		root = "";
	snprintf(np->route, sizeof(np->route), "%s/proc/net/route", root);
	snprintf(np->route6, sizeof(np->route6), "%s/proc/net/ipv6_route",
		 root);
	snprintf(np->vlan, sizeof(np->vlan), "%s/proc/net/vlan", root);
	snprintf(np->sysfs, sizeof(np->sysfs), "%s/sys", root);
	if (root[0])
		snprintf(np->ifaddrs, sizeof(np->ifaddrs), "%s/ifaddrs", root);
	else
		np->ifaddrs[0] = '\0';
}

char *net_ip_text(const struct net_ip *a, bool dash, char *buf, size_t size)
{
	if (a->family != AF_INET && a->family != AF_INET6)
		snprintf(buf, size, "%s", dash ? "-" : "?");
	else if (!inet_ntop(a->family, &a->u, buf, size))
		snprintf(buf, size, "?");
	return buf;
}

char *net_ip_host(const struct net_ip *a, char *buf, size_t size)
{
	char t[NET_IP_TEXT];

	net_ip_text(a, false, t, sizeof(t));
	snprintf(buf, size, a->family == AF_INET6 ? "[%s]" : "%s", t);
	return buf;
}

int net_ip_parse(const char *text, struct net_ip *ret)
{
	struct net_ip a = { 0 };

	if (inet_pton(AF_INET, text, &a.u.v4) == 1)
		a.family = AF_INET;
	else if (inet_pton(AF_INET6, text, &a.u.v6) == 1)
		a.family = AF_INET6;
	else
		return -EINVAL;
	*ret = a;
	return 0;
}

static unsigned int mask_prefix(uint32_t mask_be)
{
	return (unsigned int)__builtin_popcount(mask_be);
}

/*
 * /proc/net/route (net/ipv4/fib_trie.c, fib_route_seq_show()): a header,
 * then "IFACE DEST GATEWAY FLAGS REFCNT USE METRIC MASK MTU WINDOW IRTT"
 * with the addresses as the hexadecimal of their network-order 32 bits
 * read as a native integer: what is read back is s_addr itself.
 */
int net_route_find(const char *text, struct in_addr dest,
		   struct net_route *ret)
{
	struct net_route best = { 0 };
	unsigned int best_metric = 0;
	bool found = false;
	const char *line = text;

	if (strncmp(text, "Iface", 5) != 0)
		return -EBADMSG;
	line = strchr(text, '\n');
	while (line && *++line) {
		char ifname[64];
		unsigned int d, g, flags, refcnt, use, metric, mask, prefix;
		const char *end = strchr(line, '\n');
		char l[512];
		size_t len = end ? (size_t)(end - line) : strlen(line);

		if (len >= sizeof(l))
			len = sizeof(l) - 1;
		memcpy(l, line, len);
		l[len] = '\0';
		line = end;
		if (sscanf(l, "%63s %x %x %x %u %u %u %x", ifname, &d, &g,
			   &flags, &refcnt, &use, &metric, &mask) != 8 ||
		    strlen(ifname) >= IF_NAMESIZE)
			continue;
		if (!(flags & ROUTE_UP) || (flags & ROUTE_REJECT) ||
		    (dest.s_addr & mask) != d)
			continue;
		prefix = mask_prefix(mask);
		if (found && (prefix < best.prefix ||
			      (prefix == best.prefix && metric >= best_metric)))
			continue;
		found = true;
		/* Shorter than IF_NAMESIZE: checked above. */
		memcpy(best.ifname, ifname, strlen(ifname) + 1);
		best.gateway.family = g ? AF_INET : 0;
		best.gateway.u.v4.s_addr = g;
		best.prefix = prefix;
		best_metric = metric;
	}
	if (!found)
		return -ENETUNREACH;
	*ret = best;
	return 0;
}

static bool same_subnet(const struct net_ip *a, const struct net_ip *b,
			unsigned int prefix);

/* 32 hexadecimal digits into 16 bytes. */
static bool hex128(const char *s, unsigned char *b)
{
	for (int i = 0; i < 16; i++) {
		unsigned int v;

		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return false;
		b[i] = (unsigned char)v;
	}
	return true;
}

/*
 * /proc/net/ipv6_route (net/ipv6/route.c, ipv6_route_native_seq_show()):
 * no header, "DEST PLEN SRC SPLEN NEXTHOP METRIC REFCNT USE FLAGS IFACE",
 * the addresses as 32 hexadecimal digits in network order.
 */
int net_route6_find(const char *text, const struct in6_addr *dest,
		    struct net_route *ret)
{
	struct net_route best = { 0 };
	unsigned int best_metric = 0;
	bool found = false, any = false;
	const char *line = text;

	for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		char d[33], s[33], g[33], ifname[64], l[512];
		unsigned int plen, slen, metric, refcnt, use, flags;
		unsigned char db[16], gb[16];
		struct net_ip dst = { .family = AF_INET6 };
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);

		if (len >= sizeof(l))
			len = sizeof(l) - 1;
		memcpy(l, line, len);
		l[len] = '\0';
		if (sscanf(l, "%32s %x %32s %x %32s %x %x %x %x %63s", d, &plen,
			   s, &slen, g, &metric, &refcnt, &use, &flags,
			   ifname) != 10 ||
		    strlen(d) != 32 || strlen(g) != 32 || plen > 128 ||
		    strlen(ifname) >= IF_NAMESIZE || !hex128(d, db) ||
		    !hex128(g, gb))
			continue;
		any = true;
		if (!(flags & ROUTE_UP) || (flags & ROUTE_REJECT))
			continue;
		memcpy(dst.u.v6.s6_addr, db, 16);
		{
			struct net_ip want = { .family = AF_INET6 };

			want.u.v6 = *dest;
			if (!same_subnet(&want, &dst, plen))
				continue;
		}
		if (found && (plen < best.prefix ||
			      (plen == best.prefix && metric >= best_metric)))
			continue;
		found = true;
		memset(&best, 0, sizeof(best));
		memcpy(best.ifname, ifname, strlen(ifname) + 1);
		best.prefix = plen;
		best_metric = metric;
		if (memcmp(gb, (unsigned char[16]){ 0 }, 16) != 0) {
			best.gateway.family = AF_INET6;
			memcpy(best.gateway.u.v6.s6_addr, gb, 16);
		}
	}
	if (!found)
		return any || !text[0] ? -ENETUNREACH : -EBADMSG;
	*ret = best;
	return 0;
}

static bool exists_in(const char *dir, const char *ifname, const char *name)
{
	char p[PATH_MAX];

	return path_format(p, sizeof(p), "%s/%s%s%s", dir, ifname,
			   name[0] ? "/" : "", name) == 0 &&
	       access(p, F_OK) == 0;
}

/* The first lower_* link of a stacked interface ("" for none). */
static void lower_link(const char *ifdir, char *buf, size_t size)
{
	struct dirent *de;
	DIR *d = opendir(ifdir);

	buf[0] = '\0';
	while (d && (de = readdir(d)))
		if (strncmp(de->d_name, "lower_", 6) == 0) {
			snprintf(buf, size, "%s", de->d_name + 6);
			break;
		}
	if (d)
		closedir(d);
}

/* sysfs attribute ATTR of interface ifname as one line ("" when none). */
static void iface_attr(const struct net_paths *np, const char *ifname,
		       const char *attr, char *buf, size_t size)
{
	char p[PATH_MAX];

	buf[0] = '\0';
	if (path_format(p, sizeof(p), "%s/class/net/%s/%s", np->sysfs, ifname,
			attr) < 0 ||
	    read_line_file(p, buf, size) < 0)
		buf[0] = '\0';
}

/* "aa:bb:cc:dd:ee:ff" from text; -EBADMSG when it is not one. */
static int mac_parse(const char *text, char *buf, size_t size)
{
	unsigned int b[6];

	if (strlen(text) != 17 ||
	    sscanf(text, "%2x:%2x:%2x:%2x:%2x:%2x", &b[0], &b[1], &b[2], &b[3],
		   &b[4], &b[5]) != 6 ||
	    !(b[0] | b[1] | b[2] | b[3] | b[4] | b[5]))
		return -EBADMSG;
	snprintf(buf, size, "%02x:%02x:%02x:%02x:%02x:%02x", b[0], b[1], b[2],
		 b[3], b[4], b[5]);
	return 0;
}

/* "aa:bb:cc:dd:ee:ff" of ifname (attr "address" or a member's own). */
static int iface_mac(const struct net_paths *np, const char *ifname,
		     const char *attr, char *buf, size_t size)
{
	char mac[64];

	iface_attr(np, ifname, attr, mac, sizeof(mac));
	return mac[0] ? mac_parse(mac, buf, size) : -ENOENT;
}

/* Where a walk is: for messages. */
struct walk {
	const struct net_paths *np;
	const char *host;
	char ip[NET_IP_TEXT];
	struct net_links l;
	struct diag *d;
};

/*
 * nic's device: its path under /sys/devices and its driver's name, left
 * as they are ("-") when it has none (a virtual link) or they do not fit.
 */
static void nic_device(const struct net_paths *np, const char *ifname,
		       struct net_nic *nic)
{
	char link[PATH_MAX], path[PATH_MAX], devices[PATH_MAX], drv[PATH_MAX];
	const char *rel, *name;
	size_t n;

	if (path_format(link, sizeof(link), "%s/class/net/%s/device",
			np->sysfs, ifname) < 0 ||
	    path_format(drv, sizeof(drv), "%s/devices", np->sysfs) < 0 ||
	    !realpath(link, path) || !realpath(drv, devices))
		return;
	n = strlen(devices);
	rel = path + n + 1;
	if (strncmp(path, devices, n) == 0 && path[n] == '/' &&
	    strlen(rel) < sizeof(nic->devpath) && !strpbrk(rel, " \t\n"))
		memcpy(nic->devpath, rel, strlen(rel) + 1);
	if (path_format(link, sizeof(link), "%s/driver", path) < 0 ||
	    !realpath(link, drv))
		return;
	name = strrchr(drv, '/') + 1;
	if (strlen(name) < sizeof(nic->driver) && !strpbrk(name, " \t\n"))
		memcpy(nic->driver, name, strlen(name) + 1);
}

/*
 * A NIC of the path: its MAC (a member's permanent one, bonding's
 * perm_hwaddr, as the capture kernel finds it before it enslaves it), its
 * driver and its device's path, and the checks a plain link passes.
 */
static int walk_nic(struct walk *w, const char *ifname, const char *bond)
{
	struct net_nic *nic;
	char type[32];
	int r;

	if (w->l.n_nics >= NET_NIC_MAX)
		return diag_fail(w->d, -EMEDIUMTYPE,
				 "the route to %s (%s) goes through bond %s with more than %d members, more than the capture brings up: take members out of %s, or route the collector through one NIC",
				 w->host, w->ip, bond, NET_NIC_MAX, bond);
	nic = &w->l.nics[w->l.n_nics];
	snprintf(nic->ifname, sizeof(nic->ifname), "%s", ifname);
	iface_attr(w->np, ifname, "type", type, sizeof(type));
	if (bond && exists_in(w->np->vlan, ifname, ""))
		return diag_fail(w->d, -EMEDIUMTYPE,
				 "the route to %s (%s) goes through bond %s, whose member %s is a VLAN, and the capture bonds NICs only: make the bond of Ethernet NICs and the VLAN on the bond, or route the collector through one NIC",
				 w->host, w->ip, bond, ifname);
	if (atoi(type) != ARPHRD_ETHER_TYPE)
		return diag_fail(w->d, -EMEDIUMTYPE,
				 "the route to %s (%s) goes through %s%s%s, a link of type %s, not Ethernet (a tunnel, InfiniBand, ...), which the capture cannot bring up: route the collector through an Ethernet interface, or set a local 'target'",
				 w->host, w->ip, ifname, bond ? ", a member of bond " : "",
				 bond ? bond : "", type[0] ? type : "?");
	r = bond ? iface_mac(w->np, ifname, "bonding_slave/perm_hwaddr",
			     nic->mac, sizeof(nic->mac)) : -ENOENT;
	if (r < 0)
		r = iface_mac(w->np, ifname, "address", nic->mac,
			      sizeof(nic->mac));
	if (r < 0)
		return diag_fail(w->d, -EMEDIUMTYPE,
				 "interface %s, on the route to %s (%s), has no Ethernet address the capture could find it by: %s",
				 ifname, w->host, w->ip,
				 r == -EBADMSG ? "not a MAC" : strerror(-r));
	snprintf(nic->driver, sizeof(nic->driver), "-");
	snprintf(nic->devpath, sizeof(nic->devpath), "-");
	nic_device(w->np, ifname, nic);
	w->l.n_nics++;
	return 0;
}

/* The members of bond ifname, lower_* links in name order. */
static int walk_bond(struct walk *w, const char *ifname)
{
	char ifdir[PATH_MAX], mode[64], v[32];
	struct dirent **de = NULL;
	int n, r = 0;

	snprintf(w->l.bond, sizeof(w->l.bond), "%s", ifname);
	iface_attr(w->np, ifname, "bonding/mode", mode, sizeof(mode));
	mode[strcspn(mode, " ")] = '\0';
	if (!mode[0] || strlen(mode) >= sizeof(w->l.bond_mode))
		return diag_fail(w->d, -EMEDIUMTYPE,
				 "cannot read the mode of bond %s, the route to %s (%s), in sysfs",
				 ifname, w->host, w->ip);
	memcpy(w->l.bond_mode, mode, strlen(mode) + 1);
	iface_attr(w->np, ifname, "bonding/miimon", v, sizeof(v));
	w->l.bond_miimon = (unsigned int)strtoul(v, NULL, 10);
	if (!w->l.bond_miimon || w->l.bond_miimon > 60000)
		w->l.bond_miimon = 100;
	if (iface_mac(w->np, ifname, "address", w->l.bond_mac,
		      sizeof(w->l.bond_mac)) < 0)
		return diag_fail(w->d, -EMEDIUMTYPE,
				 "bond %s, the route to %s (%s), has no Ethernet address",
				 ifname, w->host, w->ip);
	if (path_format(ifdir, sizeof(ifdir), "%s/class/net/%s", w->np->sysfs,
			ifname) < 0)
		return -ENAMETOOLONG;
	n = scandir(ifdir, &de, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		const char *m = de[i]->d_name + 6;

		if (r == 0 && strncmp(de[i]->d_name, "lower_", 6) == 0) {
			char classdir[PATH_MAX];

			if (path_format(classdir, sizeof(classdir),
					"%s/class/net", w->np->sysfs) == 0 &&
			    exists_in(classdir, m, "bonding"))
				r = diag_fail(w->d, -EMEDIUMTYPE,
					      "the route to %s (%s) goes through bond %s, which holds bond %s, and the capture builds one bond: make it one bond of NICs, or route the collector through one NIC",
					      w->host, w->ip, ifname, m);
			if (r == 0)
				r = walk_nic(w, m, ifname);
		}
		free(de[i]);
	}
	free(de);
	if (n < 0)
		return -errno;
	if (r == 0 && !w->l.n_nics)
		r = diag_fail(w->d, -EMEDIUMTYPE,
			      "the route to %s (%s) goes through bond %s, which has no members: enslave its NICs, or route the collector through a NIC",
			      w->host, w->ip, ifname);
	return r;
}

/*
 * The one port of bridge ifname that leads off this machine: a NIC (a
 * device), a bond or a VLAN; taps, veths and other bridges' links (no
 * device) are this machine's own guests and containers.
 */
static int bridge_uplink(struct walk *w, const char *ifname, char *buf,
			 size_t size)
{
	char brif[PATH_MAX], names[256] = "";
	struct dirent **de = NULL;
	unsigned int found = 0;
	int n;

	if (path_format(brif, sizeof(brif), "%s/class/net/%s/brif",
			w->np->sysfs, ifname) < 0)
		return -ENAMETOOLONG;
	n = scandir(brif, &de, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		const char *port = de[i]->d_name;
		char pdir[PATH_MAX];

		if (path_format(pdir, sizeof(pdir), "%s/class/net",
				w->np->sysfs) == 0 &&
		    port[0] != '.' && strlen(port) < IF_NAMESIZE &&
		    (exists_in(pdir, port, "device") ||
		     exists_in(pdir, port, "bonding") ||
		     exists_in(w->np->vlan, port, ""))) {
			size_t nl = strlen(names), pl = strlen(port);

			if (!found++ && pl < size)
				memcpy(buf, port, pl + 1);
			if (nl + pl + 3 < sizeof(names)) {
				if (nl)
					memcpy(names + nl, ", ", 2), nl += 2;
				memcpy(names + nl, port, pl + 1);
			}
		}
		free(de[i]);
	}
	free(de);
	if (found == 1)
		return 0;
	return diag_fail(w->d, -EMEDIUMTYPE,
			 found ? "the route to %s (%s) goes through bridge %s, which has several ports off this machine (%s), and the capture cannot tell which reaches the collector: route the collector through one of them (ip route add %s dev PORT), or set a local 'target'" : "the route to %s (%s) goes through bridge %s, which has no port off this machine%s (only taps, veths or none), so the capture has nothing to bring up: add the uplink NIC to %s, or set a local 'target'",
			 w->host, w->ip, ifname, names, found ? w->ip : ifname);
}

/*
 * One link of the path, from the route's interface down: a bridge (left
 * out, the walk goes on at its uplink), a VLAN (then its lower link), a
 * bond (then its members), a NIC.
 */
static int walk_link(struct walk *w, const char *ifname, unsigned int depth)
{
	const struct net_paths *np = w->np;
	char classdir[PATH_MAX], ifdir[PATH_MAX], type[32] = "";
	char lower[IF_NAMESIZE + 32] = "";
	int r;

	if (path_format(classdir, sizeof(classdir), "%s/class/net",
			np->sysfs) < 0 ||
	    path_format(ifdir, sizeof(ifdir), "%s/%s", classdir, ifname) < 0)
		return -ENAMETOOLONG;
	if (access(ifdir, F_OK) < 0)
		return -ENODEV;
	if (depth > 4)
		return diag_fail(w->d, -EMEDIUMTYPE,
				 "the route to %s (%s) goes through more stacked links than the capture builds (at %s): route the collector through a NIC, a bond or a VLAN",
				 w->host, w->ip, ifname);
	iface_attr(np, ifname, "type", type, sizeof(type));
	if (!type[0])
		snprintf(type, sizeof(type), "?");
	if (strcmp(ifname, "lo") == 0 || atoi(type) == ARPHRD_LOOPBACK_TYPE)
		return diag_fail(w->d, -EMEDIUMTYPE,
				 "%s (%s) is this machine itself (its route is through loopback %s): dumps must go to another machine; set 'target' to a collector's URL or a local filesystem",
				 w->host, w->ip, ifname);
	/* Wi-Fi shows as Ethernet; the capture joins no wireless network. */
	if (exists_in(classdir, ifname, "wireless") ||
	    exists_in(classdir, ifname, "phy80211"))
		return diag_fail(w->d, -EMEDIUMTYPE,
				 "the route to %s (%s) goes through %s, a wireless interface, and the capture joins no wireless network: connect this machine to the collector by wire (a host route through that interface), or set a local 'target'",
				 w->host, w->ip, ifname);
	if (atoi(type) != ARPHRD_ETHER_TYPE)
		return diag_fail(w->d, -EMEDIUMTYPE,
				 "the route to %s (%s) goes through %s, a link of type %s, not Ethernet (a tunnel, InfiniBand, ...), which the capture cannot bring up: route the collector through an Ethernet interface, or set a local 'target'",
				 w->host, w->ip, ifname, type);
	if (exists_in(classdir, ifname, "bridge")) {
		char port[IF_NAMESIZE];

		if (w->l.bridge[0])
			return diag_fail(w->d, -EMEDIUMTYPE,
					 "the route to %s (%s) goes through bridge %s inside bridge %s, which the capture does not build: route the collector through one bridge's NIC",
					 w->host, w->ip, w->l.bridge, ifname);
		r = bridge_uplink(w, ifname, port, sizeof(port));
		if (r < 0)
			return r;
		snprintf(w->l.bridge, sizeof(w->l.bridge), "%s", ifname);
		return walk_link(w, port, depth + 1);
	}
	if (exists_in(classdir, ifname, "bonding"))
		return walk_bond(w, ifname);
	lower_link(ifdir, lower, sizeof(lower));
	if (exists_in(np->vlan, ifname, "")) {
		char p[PATH_MAX];
		_cleanup_free_ char *text = NULL;
		const char *v;
		unsigned long id;

		if (path_format(p, sizeof(p), "%s/%s", np->vlan, ifname) < 0 ||
		    read_file_max(p, &text, 64 * 1024) < 0 ||
		    !(v = strstr(text, "VID:")) ||
		    (id = strtoul(v + 4, NULL, 10)) == 0 || id > 4094 ||
		    !lower[0])
			return diag_fail(w->d, -EMEDIUMTYPE,
					 "cannot read VLAN %s, the route to %s (%s): %s/%s and its lower link in sysfs give no VLAN id",
					 ifname, w->host, w->ip, np->vlan, ifname);
		if (w->l.vlan_id)
			return diag_fail(w->d, -EMEDIUMTYPE,
					 "the route to %s (%s) goes through VLAN %s on VLAN %s (stacked tags), which the capture does not build: route the collector through one VLAN",
					 w->host, w->ip, w->l.vlan, ifname);
		snprintf(w->l.vlan, sizeof(w->l.vlan), "%s", ifname);
		w->l.vlan_id = (unsigned int)id;
		return walk_link(w, lower, depth + 1);
	}
	if (lower[0])
		return diag_fail(w->d, -EMEDIUMTYPE,
				 "the route to %s (%s) goes through %s, a link stacked on %s that is not a bond, a VLAN or a bridge (a team, a macvlan, ...), which the capture does not build: make it a bond, or route the collector through %s itself, or set a local 'target'",
				 w->host, w->ip, ifname, lower, lower);
	return walk_nic(w, ifname, NULL);
}

int net_links_walk(const struct net_paths *np, const char *ifname,
		   const char *host, const struct net_ip *collector,
		   struct net_links *ret, struct diag *d)
{
	struct walk w = { .np = np, .host = host, .d = d };
	char mtu[32];
	int r;

	net_ip_text(collector, false, w.ip, sizeof(w.ip));
	r = walk_link(&w, ifname, 0);
	if (r < 0)
		return r;
	iface_attr(np, ifname, "mtu", mtu, sizeof(mtu));
	w.l.mtu = (unsigned int)strtoul(mtu, NULL, 10);
	if (w.l.mtu < 576 || w.l.mtu > 65535)
		w.l.mtu = 1500;
	*ret = w.l;
	return 0;
}

const char *net_links_top(const struct net_links *l)
{
	if (l->vlan_id)
		return l->vlan;
	if (l->bond[0])
		return l->bond;
	return l->nics[0].ifname;
}

void net_links_describe(const struct net_links *l, char *buf, size_t size)
{
	size_t pos = 0;

	buf[0] = '\0';
	if (l->bond[0])
		(void)append(buf, size, &pos, "bond %s (%s, miimon %u ms, MAC %s) of ",
			     l->bond, l->bond_mode, l->bond_miimon, l->bond_mac);
	for (unsigned int i = 0; i < l->n_nics; i++)
		(void)append(buf, size, &pos, "%sNIC %s (MAC %s, driver %s, device %s)",
			     i == 0 ? "" : i + 1 == l->n_nics ? " and " : ", ",
			     l->nics[i].ifname, l->nics[i].mac, l->nics[i].driver,
			     l->nics[i].devpath);
	if (l->vlan_id)
		(void)append(buf, size, &pos, ", VLAN %u (%s) on %s", l->vlan_id,
			     l->vlan, l->bond[0] ? l->bond : l->nics[0].ifname);
	if (l->bridge[0])
		(void)append(buf, size, &pos, ", bridge %s left out: its address goes on %s",
			     l->bridge, net_links_top(l));
	if (l->mtu != 1500)
		(void)append(buf, size, &pos, ", MTU %u", l->mtu);
}

bool net_plan_needs_ip(const struct net_plan *n)
{
	return n->links.bond[0] || n->links.vlan_id ||
	       n->addr.family == AF_INET6;
}

/* One address of an interface: a candidate for the capture's. */
struct iface_addr {
	struct net_ip addr;
	unsigned int prefix;
};

static bool same_subnet(const struct net_ip *a, const struct net_ip *b,
			unsigned int prefix)
{
	const unsigned char *x, *y;
	unsigned int bytes = prefix / 8, bits = prefix % 8;

	if (a->family != b->family)
		return false;
	x = a->family == AF_INET ? (const unsigned char *)&a->u.v4 :
				   a->u.v6.s6_addr;
	y = b->family == AF_INET ? (const unsigned char *)&b->u.v4 :
				   b->u.v6.s6_addr;
	if (memcmp(x, y, bytes) != 0)
		return false;
	return !bits || ((x[bytes] ^ y[bytes]) & (0xff << (8 - bits))) == 0;
}

static bool link_local(const struct net_ip *a)
{
	return a->family == AF_INET6 &&
	       (IN6_IS_ADDR_LINKLOCAL(&a->u.v6) ||
		IN6_IS_ADDR_LOOPBACK(&a->u.v6));
}

/* Keep a, unless a better one (on near's subnet) is kept already. */
static void consider(struct iface_addr *best, bool *found,
		     const struct net_ip *near, const struct net_ip *a,
		     unsigned int prefix)
{
	bool good = same_subnet(a, near, prefix);

	if (a->family != near->family || link_local(a))
		return;
	if (*found && (!good || same_subnet(&best->addr, near, best->prefix)))
		return;
	best->addr = *a;
	best->prefix = prefix;
	*found = true;
}

static unsigned int mask_bits(const struct sockaddr *sa)
{
	const unsigned char *b;
	unsigned int n = 0, len;

	if (sa->sa_family == AF_INET) {
		b = (const unsigned char *)&((const struct sockaddr_in *)sa)->sin_addr;
		len = 4;
	} else {
		b = ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr;
		len = 16;
	}
	for (unsigned int i = 0; i < len; i++)
		n += (unsigned int)__builtin_popcount(b[i]);
	return n;
}

/*
 * ifname's address of near's family (IPv6: global, not link-local),
 * preferring the one on near's subnet (the gateway's, or the collector's
 * when it is on-link).  -EADDRNOTAVAIL when it has none.
 */
static int iface_addr(const struct net_paths *np, const char *ifname,
		      const struct net_ip *near, struct iface_addr *ret)
{
	struct iface_addr best = { 0 };
	unsigned int max = near->family == AF_INET ? 32 : 128;
	bool found = false;

	if (np->ifaddrs[0]) {
		char line[256], name[64], a[64];
		unsigned int prefix;
		struct net_ip in;
		FILE *f = fopen(np->ifaddrs, "re");

		if (!f)
			return -errno;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "%63s %63[0-9a-fA-F.:]/%u", name, a,
				   &prefix) == 3 &&
			    strcmp(name, ifname) == 0 && prefix <= max &&
			    net_ip_parse(a, &in) == 0)
				consider(&best, &found, near, &in, prefix);
		fclose(f);
	} else {
		struct ifaddrs *ifa, *i;

		if (getifaddrs(&ifa) < 0)
			return -errno;
		for (i = ifa; i; i = i->ifa_next) {
			struct net_ip in = { 0 };

			if (!i->ifa_addr || !i->ifa_netmask ||
			    strcmp(i->ifa_name, ifname) != 0)
				continue;
			if (i->ifa_addr->sa_family == AF_INET) {
				in.family = AF_INET;
				in.u.v4 = ((const struct sockaddr_in *)i->ifa_addr)->sin_addr;
			} else if (i->ifa_addr->sa_family == AF_INET6) {
				in.family = AF_INET6;
				in.u.v6 = ((const struct sockaddr_in6 *)i->ifa_addr)->sin6_addr;
			} else {
				continue;
			}
			consider(&best, &found, near, &in,
				 mask_bits(i->ifa_netmask));
		}
		freeifaddrs(ifa);
	}
	if (!found)
		return -EADDRNOTAVAIL;
	*ret = best;
	return 0;
}

static int resolve_family(const char *host, int family, struct net_ip *ret,
			  int *err)
{
	struct addrinfo hints = { .ai_family = family,
				  .ai_socktype = SOCK_STREAM };
	struct addrinfo *ai = NULL;
	int e;

	e = getaddrinfo(host, NULL, &hints, &ai);
	if (e != 0 || !ai) {
		*err = e == EAI_SYSTEM ? -errno : e;
		if (ai)
			freeaddrinfo(ai);
		return -EHOSTUNREACH;
	}
	ret->family = family;
	if (family == AF_INET)
		ret->u.v4 = ((const struct sockaddr_in *)ai->ai_addr)->sin_addr;
	else
		ret->u.v6 = ((const struct sockaddr_in6 *)ai->ai_addr)->sin6_addr;
	freeaddrinfo(ai);
	return 0;
}

int net_resolve_host(const char *host, struct net_ip *ret, struct diag *d)
{
	struct net_ip a = { 0 };
	int e4 = 0, e6 = 0;

	if (resolve_family(host, AF_INET, &a, &e4) == 0 ||
	    resolve_family(host, AF_INET6, &a, &e6) == 0) {
		if (link_local(&a))
			return diag_fail(d, -EHOSTUNREACH,
					 "host %s resolves to link-local address %s only, which names no interface: give the collector a global or unique local IPv6 address, or an IPv4 one",
					 host, net_ip_text(&a, false, (char[NET_IP_TEXT]){ 0 }, NET_IP_TEXT));
		*ret = a;
		return 0;
	}
	return diag_fail(d, -EHOSTUNREACH,
			 "host %s does not resolve to an IPv4 or IPv6 address (%s): the capture has no DNS and reaches the collector at the address found now; correct the host in 'target' or give its address",
			 host,
			 e4 < 0 ? strerror(-e4) : e4 ? gai_strerror(e4) : e6 < 0 ? strerror(-e6) : e6 ? gai_strerror(e6) : "no address");
}

int net_resolve_addr(const struct net_paths *np, const char *host,
		     const struct net_ip *dest, struct net_plan *ret,
		     struct diag *d)
{
	_cleanup_free_ char *text = NULL;
	char ip[NET_IP_TEXT];
	const char *table = dest->family == AF_INET ? np->route : np->route6;
	const char *v = dest->family == AF_INET ? "IPv4" : "IPv6";
	struct net_plan n = { 0 };
	struct iface_addr ia = { 0 };
	struct net_route rt;
	const char *top;
	int r;

	n.collector = *dest;
	net_ip_text(&n.collector, false, ip, sizeof(ip));
	r = read_file_max(table, &text, 1 << 20);
	if (r < 0)
		return diag_fail(d, r, "cannot read the routes in %s: %s",
				 table, strerror(-r));
	r = dest->family == AF_INET ?
		net_route_find(text, dest->u.v4, &rt) :
		net_route6_find(text, &dest->u.v6, &rt);
	if (r < 0)
		return diag_fail(d, r,
				 r == -ENETUNREACH ? "there is no %s route to %s (%s): connect this machine to its network (the capture reaches it the same way)" : "cannot read the %s routes to %s (%s) in %s: not the kernel's route table",
				 v, host, ip, table);
	r = net_links_walk(np, rt.ifname, host, &n.collector, &n.links, d);
	if (r == -ENODEV)
		(void)diag_fail(d, r,
				"the route to %s (%s) goes through %s, which %s/class/net does not show",
				host, ip, rt.ifname, np->sysfs);
	if (r < 0)
		return r;
	snprintf(n.ifname, sizeof(n.ifname), "%s", rt.ifname);
	n.gateway = rt.gateway;
	r = iface_addr(np, rt.ifname, rt.gateway.family && !link_local(&rt.gateway) ?
		       &rt.gateway : &n.collector, &ia);
	if (r < 0)
		return diag_fail(d, r,
				 r == -EADDRNOTAVAIL ? "interface %s, the route to %s (%s), has no %s address%s, and the capture gives it the one it has now: give it one (DHCP, SLAAC or static), or route %s through an interface that has one" : "cannot read the addresses of interface %s (the route to %s, %s): %s%s",
				 rt.ifname, host, ip,
				 r == -EADDRNOTAVAIL ? v : strerror(-r),
				 r == -EADDRNOTAVAIL && dest->family == AF_INET6 ? " (global: a link-local one names no route)" : "",
				 host);
	n.addr = ia.addr;
	n.prefix = ia.prefix;
	top = net_links_top(&n.links);
	if (n.links.bond[0] && !n.links.vlan_id)
		snprintf(n.mac, sizeof(n.mac), "%s", n.links.bond_mac);
	else if (iface_mac(np, top, "address", n.mac, sizeof(n.mac)) < 0)
		snprintf(n.mac, sizeof(n.mac), "%s",
			 n.links.bond[0] ? n.links.bond_mac : n.links.nics[0].mac);
	*ret = n;
	return 0;
}

int net_resolve(const struct kdump_conf *c, const struct net_paths *np,
		struct net_plan *ret, struct diag *d)
{
	struct net_plan n;
	struct net_ip collector;
	int r;

	r = net_resolve_host(c->net_host, &collector, d);
	if (r < 0)
		return r;
	r = net_resolve_addr(np, c->net_host, &collector, &n, d);
	if (r < 0)
		return r;
	r = net_host_dir(n.hostdir, sizeof(n.hostdir));
	if (r < 0)
		return diag_fail(d, r,
				 "cannot name this machine's directory on the collector (host name and /etc/machine-id): %s",
				 strerror(-r));
	*ret = n;
	return 0;
}

/* Append to buf (at *pos, of size): -ENOBUFS when it does not fit. */
static int append(char *buf, size_t size, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf + *pos, size - *pos, fmt, ap);
	va_end(ap);
	if (len < 0 || (size_t)len >= size - *pos)
		return -ENOBUFS;
	*pos += (size_t)len;
	return 0;
}

static int link_lines(const struct net_plan *n, char *buf, size_t size)
{
	const struct net_links *l = &n->links;
	char a[NET_IP_TEXT], g[NET_IP_TEXT];
	size_t pos = 0;
	int r = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < l->n_nics && r == 0; i++)
		r = append(buf, size, &pos, "nic %s %s %s\n", l->nics[i].mac,
			   l->nics[i].driver, l->nics[i].devpath);
	if (r == 0 && l->bond[0])
		r = append(buf, size, &pos, "bond %s %s %u %s\n", l->bond,
			   l->bond_mode, l->bond_miimon, l->bond_mac);
	if (r == 0 && l->vlan_id)
		r = append(buf, size, &pos, "vlan %s %u\n", l->vlan,
			   l->vlan_id);
	if (r == 0 && l->mtu && l->mtu != 1500)
		r = append(buf, size, &pos, "mtu %u\n", l->mtu);
	if (r == 0)
		r = append(buf, size, &pos, "net %s %s/%u %s\n", n->mac,
			   net_ip_text(&n->addr, false, a, sizeof(a)),
			   n->prefix, net_ip_text(&n->gateway, true, g,
						  sizeof(g)));
	return r;
}

int net_link_format(const struct net_plan *n, char *buf, size_t size)
{
	char tmp[2048];
	int r;

	r = link_lines(n, tmp, sizeof(tmp));
	if (r < 0 || strlen(tmp) >= size)
		return -ENOBUFS;
	memcpy(buf, tmp, strlen(tmp) + 1);
	return 0;
}

int net_chain_format(const struct net_plan *n, char *buf, size_t size)
{
	char tmp[2560], c[NET_IP_TEXT];
	size_t pos;
	int r;

	r = link_lines(n, tmp, sizeof(tmp));
	pos = strlen(tmp);
	if (r == 0)
		r = append(tmp, sizeof(tmp), &pos, "collector %s\nhostdir %s\n",
			   net_ip_text(&n->collector, false, c, sizeof(c)),
			   n->hostdir);
	if (r < 0 || pos >= size)
		return -ENOBUFS;
	memcpy(buf, tmp, pos + 1);
	return 0;
}

int net_check_ssh_files(const struct kdump_conf *c, unsigned int which,
			struct diag *d)
{
	char known[CONF_VALUE_MAX];
	struct stat st;
	int r;

	if (c->net != CONF_NET_SSH)
		return 0;
	if (which == 0) {
		if (stat(c->ssh_key, &st) < 0) {
			r = -errno;
			return diag_fail(d, r,
					 "the ssh key %s for %s %s: run 'kdump-file propagate' to make it and install it on the collector",
					 c->ssh_key, c->target,
					 r == -ENOENT ? "does not exist" : strerror(-r));
		}
		if (!S_ISREG(st.st_mode) || (st.st_mode & 07777) != 0600 ||
		    st.st_uid != 0)
			return diag_fail(d, -EPERM,
					 "the ssh key %s for %s is %s, and ssh uses only a key root alone can read: chown root and chmod 0600 '%s', or run 'kdump-file propagate' for a new one",
					 c->ssh_key, c->target,
					 !S_ISREG(st.st_mode) ? "not a regular file" : st.st_uid != 0 ? "not owned by root" : "not mode 0600",
					 c->ssh_key);
		return 0;
	}
	r = conf_known_hosts(c, known, sizeof(known));
	if (r == 0 && stat(known, &st) < 0)
		r = -errno;
	if (r < 0)
		(void)diag_fail(d, r,
				"the collector's pinned host keys %s for %s %s: run 'kdump-file propagate' to pin them",
				known, c->target,
				r == -ENOENT ? "do not exist" : strerror(-r));
	return r;
}
