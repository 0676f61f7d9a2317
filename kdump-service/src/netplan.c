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
	snprintf(np->vlan, sizeof(np->vlan), "%s/proc/net/vlan", root);
	snprintf(np->sysfs, sizeof(np->sysfs), "%s/sys", root);
	if (root[0])
		snprintf(np->ifaddrs, sizeof(np->ifaddrs), "%s/ifaddrs", root);
	else
		np->ifaddrs[0] = '\0';
}

char *net_addr_text(struct in_addr a, bool dash, char *buf, size_t size)
{
	if (dash && a.s_addr == 0)
		snprintf(buf, size, "-");
	else if (!inet_ntop(AF_INET, &a, buf, size))
		snprintf(buf, size, "?");
	return buf;
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
		best.gateway.s_addr = g;
		best.prefix = prefix;
		best_metric = metric;
	}
	if (!found)
		return -ENETUNREACH;
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

int net_iface_check(const struct net_paths *np, const char *ifname,
		    const char *host, struct in_addr collector, struct diag *d)
{
	char classdir[PATH_MAX], ifdir[PATH_MAX], ip[INET_ADDRSTRLEN];
	char type[32] = "", lower[IF_NAMESIZE + 32] = "";

	net_addr_text(collector, false, ip, sizeof(ip));
	if (path_format(classdir, sizeof(classdir), "%s/class/net",
			np->sysfs) < 0 ||
	    path_format(ifdir, sizeof(ifdir), "%s/%s", classdir, ifname) < 0)
		return -ENAMETOOLONG;
	if (access(ifdir, F_OK) < 0)
		return -ENODEV;
	snprintf(type, sizeof(type), "?");
	{
		char p[PATH_MAX];

		if (path_format(p, sizeof(p), "%s/type", ifdir) == 0)
			(void)read_line_file(p, type, sizeof(type));
	}
	if (strcmp(ifname, "lo") == 0 ||
	    atoi(type) == ARPHRD_LOOPBACK_TYPE)
		return diag_fail(d, -EMEDIUMTYPE,
				 "%s (%s) is this machine itself (its route is through loopback %s): dumps must go to another machine; set 'target' to a collector's URL or a local filesystem",
				 host, ip, ifname);
	if (exists_in(classdir, ifname, "bonding"))
		return diag_fail(d, -EMEDIUMTYPE,
				 "the route to %s (%s) goes through %s, a bond, and the capture brings up one plain Ethernet interface: route the collector through one of the bond's member interfaces (ip route add %s/32 dev MEMBER, made permanent in /etc/network/interfaces), or set a local 'target'",
				 host, ip, ifname, ip);
	lower_link(ifdir, lower, sizeof(lower));
	if (exists_in(np->vlan, ifname, "") || lower[0])
		return diag_fail(d, -EMEDIUMTYPE,
				 "the route to %s (%s) goes through %s, a VLAN or another link stacked on %s, and the capture brings up no VLANs: make the collector reachable untagged on an Ethernet interface (a host route through it), or set a local 'target'",
				 host, ip, ifname,
				 lower[0] ? lower : "another interface");
	if (exists_in(classdir, ifname, "bridge"))
		return diag_fail(d, -EMEDIUMTYPE,
				 "the route to %s (%s) goes through %s, a bridge, and the capture brings up no bridges: route the collector through a plain Ethernet interface (ip route add %s/32 dev IFACE), or set a local 'target'",
				 host, ip, ifname, ip);
	/* Wi-Fi shows as Ethernet; the capture joins no wireless network. */
	if (exists_in(classdir, ifname, "wireless") ||
	    exists_in(classdir, ifname, "phy80211"))
		return diag_fail(d, -EMEDIUMTYPE,
				 "the route to %s (%s) goes through %s, a wireless interface, and the capture joins no wireless network: connect this machine to the collector by wire (a host route through that interface), or set a local 'target'",
				 host, ip, ifname);
	if (atoi(type) != ARPHRD_ETHER_TYPE)
		return diag_fail(d, -EMEDIUMTYPE,
				 "the route to %s (%s) goes through %s, a link of type %s, not Ethernet (a tunnel, InfiniBand, ...), which the capture cannot bring up: route the collector through an Ethernet interface, or set a local 'target'",
				 host, ip, ifname, type);
	return 0;
}

/* One IPv4 address of an interface: a candidate for the capture's. */
struct iface_addr {
	struct in_addr addr;
	unsigned int prefix;
};

static bool same_subnet(struct in_addr a, struct in_addr b,
			unsigned int prefix)
{
	uint32_t mask = prefix ? htonl(~0U << (32 - prefix)) : 0;

	return ((a.s_addr ^ b.s_addr) & mask) == 0;
}

/* Keep a, unless a better one (on near's subnet) is kept already. */
static void consider(struct iface_addr *best, bool *found,
		     struct in_addr near, struct in_addr a,
		     unsigned int prefix)
{
	bool good = same_subnet(a, near, prefix);

	if (*found && (!good || same_subnet(best->addr, near, best->prefix)))
		return;
	best->addr = a;
	best->prefix = prefix;
	*found = true;
}

/*
 * ifname's IPv4 address, preferring the one on near's subnet (the
 * gateway's, or the collector's when it is on-link).  -EADDRNOTAVAIL when
 * it has none.
 */
static int iface_addr(const struct net_paths *np, const char *ifname,
		      struct in_addr near, struct iface_addr *ret)
{
	struct iface_addr best = { 0 };
	bool found = false;

	if (np->ifaddrs[0]) {
		char line[256], name[64], a[64];
		unsigned int prefix;
		struct in_addr in;
		FILE *f = fopen(np->ifaddrs, "re");

		if (!f)
			return -errno;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "%63s %63[0-9.]/%u", name, a,
				   &prefix) == 3 &&
			    strcmp(name, ifname) == 0 && prefix <= 32 &&
			    inet_pton(AF_INET, a, &in) == 1)
				consider(&best, &found, near, in, prefix);
		fclose(f);
	} else {
		struct ifaddrs *ifa, *i;

		if (getifaddrs(&ifa) < 0)
			return -errno;
		for (i = ifa; i; i = i->ifa_next) {
			const struct sockaddr_in *sa, *nm;

			if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET ||
			    !i->ifa_netmask || strcmp(i->ifa_name, ifname) != 0)
				continue;
			sa = (const struct sockaddr_in *)i->ifa_addr;
			nm = (const struct sockaddr_in *)i->ifa_netmask;
			consider(&best, &found, near, sa->sin_addr,
				 mask_prefix(nm->sin_addr.s_addr));
		}
		freeifaddrs(ifa);
	}
	if (!found)
		return -EADDRNOTAVAIL;
	*ret = best;
	return 0;
}

/* "aa:bb:cc:dd:ee:ff" from sysfs; -EBADMSG when it is not one. */
static int iface_mac(const struct net_paths *np, const char *ifname,
		     char *buf, size_t size)
{
	char p[PATH_MAX], mac[64];
	unsigned int b[6];
	int r;

	r = path_format(p, sizeof(p), "%s/class/net/%s/address", np->sysfs,
			ifname);
	if (r < 0)
		return r;
	r = read_line_file(p, mac, sizeof(mac));
	if (r < 0)
		return r;
	if (strlen(mac) != 17 ||
	    sscanf(mac, "%2x:%2x:%2x:%2x:%2x:%2x", &b[0], &b[1], &b[2], &b[3],
		   &b[4], &b[5]) != 6 ||
	    !(b[0] | b[1] | b[2] | b[3] | b[4] | b[5]))
		return -EBADMSG;
	snprintf(buf, size, "%02x:%02x:%02x:%02x:%02x:%02x", b[0], b[1], b[2],
		 b[3], b[4], b[5]);
	return 0;
}

int net_resolve_host(const char *host, struct in_addr *ret, struct diag *d)
{
	struct addrinfo hints = { .ai_family = AF_INET,
				  .ai_socktype = SOCK_STREAM };
	struct addrinfo *ai = NULL;
	int e;

	e = getaddrinfo(host, NULL, &hints, &ai);
	if (e != 0 || !ai) {
		(void)diag_fail(d, -EHOSTUNREACH,
				"host %s does not resolve to an IPv4 address (%s): the capture has no DNS and reaches the collector at the address found now; correct the host in 'target' or give its IPv4 address (IPv6-only collectors are not supported)",
				host,
				e == EAI_SYSTEM ? strerror(errno) : e ? gai_strerror(e) : "no address");
		if (ai)
			freeaddrinfo(ai);
		return -EHOSTUNREACH;
	}
	*ret = ((const struct sockaddr_in *)ai->ai_addr)->sin_addr;
	freeaddrinfo(ai);
	return 0;
}

int net_resolve_addr(const struct net_paths *np, const char *host,
		     struct in_addr dest, struct net_plan *ret, struct diag *d)
{
	_cleanup_free_ char *text = NULL;
	char ip[INET_ADDRSTRLEN];
	struct net_plan n = { 0 };
	struct iface_addr ia = { 0 };
	struct net_route rt;
	int r;

	n.collector = dest;
	net_addr_text(n.collector, false, ip, sizeof(ip));
	r = read_file_max(np->route, &text, 1 << 20);
	if (r < 0)
		return diag_fail(d, r, "cannot read the routes in %s: %s",
				 np->route, strerror(-r));
	r = net_route_find(text, n.collector, &rt);
	if (r < 0)
		return diag_fail(d, r,
				 r == -ENETUNREACH ? "there is no IPv4 route to %s (%s): connect this machine to its network (the capture reaches it the same way)" : "cannot read the routes to %s (%s) in %s: not the kernel's route table",
				 host, ip, np->route);
	r = net_iface_check(np, rt.ifname, host, n.collector, d);
	if (r == -ENODEV)
		(void)diag_fail(d, r,
				"the route to %s (%s) goes through %s, which %s/class/net does not show",
				host, ip, rt.ifname, np->sysfs);
	if (r < 0)
		return r;
	snprintf(n.ifname, sizeof(n.ifname), "%s", rt.ifname);
	n.gateway = rt.gateway;
	r = iface_addr(np, rt.ifname, rt.gateway.s_addr ? rt.gateway :
		       n.collector, &ia);
	if (r < 0)
		return diag_fail(d, r,
				 r == -EADDRNOTAVAIL ? "interface %s, the route to %s (%s), has no IPv4 address, and the capture gives it the one it has now: give it one (DHCP or static), or route %s through an interface that has one" : "cannot read the addresses of interface %s (the route to %s, %s): %s",
				 rt.ifname, host, ip,
				 r == -EADDRNOTAVAIL ? host : strerror(-r));
	n.addr = ia.addr;
	n.prefix = ia.prefix;
	r = iface_mac(np, rt.ifname, n.mac, sizeof(n.mac));
	if (r < 0)
		return diag_fail(d, r,
				 "interface %s, the route to %s (%s), has no Ethernet address the capture could find it by: %s",
				 rt.ifname, host, ip,
				 r == -EBADMSG ? "not a MAC" : strerror(-r));
	*ret = n;
	return 0;
}

int net_resolve(const struct kdump_conf *c, const struct net_paths *np,
		struct net_plan *ret, struct diag *d)
{
	struct net_plan n;
	struct in_addr collector;
	int r;

	r = net_resolve_host(c->net_host, &collector, d);
	if (r < 0)
		return r;
	r = net_resolve_addr(np, c->net_host, collector, &n, d);
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

int net_link_format(const struct net_plan *n, char *buf, size_t size)
{
	char a[INET_ADDRSTRLEN], g[INET_ADDRSTRLEN];
	int len;

	len = snprintf(NULL, 0, "net %s %s/%u %s\n", n->mac,
		       net_addr_text(n->addr, false, a, sizeof(a)), n->prefix,
		       net_addr_text(n->gateway, true, g, sizeof(g)));
	if (len < 0 || (size_t)len >= size)
		return -ENOBUFS;
	snprintf(buf, size, "net %s %s/%u %s\n", n->mac, a, n->prefix, g);
	return 0;
}

int net_chain_format(const struct net_plan *n, char *buf, size_t size)
{
	char link[96], c[INET_ADDRSTRLEN];
	int len, r;

	r = net_link_format(n, link, sizeof(link));
	if (r < 0)
		return r;
	len = snprintf(NULL, 0, "%scollector %s\nhostdir %s\n", link,
		       net_addr_text(n->collector, false, c, sizeof(c)),
		       n->hostdir);
	if (len < 0 || (size_t)len >= size)
		return -ENOBUFS;
	snprintf(buf, size, "%scollector %s\nhostdir %s\n", link, c,
		 n->hostdir);
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
