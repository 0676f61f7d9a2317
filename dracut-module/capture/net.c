// SPDX-License-Identifier: GPL-2.0
/*
 * A network target: the NIC the chain names brought up by hand (no udev,
 * no DHCP, no DNS in the capture kernel: kdump-file(8) resolved the MAC,
 * our address, the gateway and the collector's address at load time),
 * then either the NFS export mounted with the kernel's own NFS client, or
 * the dump sent to the collector's kdump-file-receive through ssh.  When
 * the collector cannot be reached before any of the dump went out and
 * fallback is set, the dump goes to the local fallback directory instead.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <net/route.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "netdir.h"
#include "dump.h"
#include "dumpdir.h"
#include "process.h"
#include "util.h"

int capture_net_ioctl(unsigned long req, void *arg)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), r;

	if (fd < 0)
		return -errno;
	r = ioctl(fd, req, arg) < 0 ? -errno : 0;
	close(fd);
	return r;
}

/*
 * The network target could not be reached (why).  With a fallback, the
 * reason is kept and the kind becomes LOCAL: the chain's fallback line is
 * the target and the phases of a local dump run next.  Without one, the
 * capture fails as with any target.
 */
static int net_failed(struct capture *cap, const struct diag *d)
{
	struct capture_net *n = &cap->net;
	struct kdump_conf *c = &cap->conf;
	const char *why = diag_text(d);

	if (!c->fallback[0])
		return capture_fail(cap, d->error, "%s", why);
	if (!n->fallback_spec[0])
		return capture_fail(cap, d->error, "%s; no fallback line in %s to fall back to %s",
				    why, cap->paths.chain, c->fallback);
	snprintf(n->fallback_reason, sizeof(n->fallback_reason), "%s", why);
	capture_say(cap, "warning: %s", why);
	capture_say(cap, "falling back to %s (%s, %s) instead of %s",
		    c->fallback, n->fallback_spec, n->fallback_path, n->url);
	if (path_format(c->target, sizeof(c->target), "%s",
			n->fallback_spec) < 0 ||
	    path_format(c->path, sizeof(c->path), "%s%s",
			n->fallback_path[0] == '/' ? "" : "/",
			n->fallback_path) < 0)
		return capture_fail(cap, -ENAMETOOLONG, "%s; the fallback %s is longer than a dump target takes",
				    why, c->fallback);
	c->net = CONF_NET_NONE;
	return 0;
}

static bool ipv4_valid(const char *s)
{
	struct in_addr a;

	return inet_pton(AF_INET, s, &a) == 1;
}

/* AF_INET or AF_INET6 for an address in text, 0 for neither. */
static int ip_family(const char *s)
{
	struct in6_addr a;

	if (ipv4_valid(s))
		return AF_INET;
	return inet_pton(AF_INET6, s, &a) == 1 ? AF_INET6 : 0;
}

static bool mac_valid(const char *s)
{
	unsigned int b[6];
	char end;

	return strlen(s) == 17 &&
	       sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2],
		      &b[3], &b[4], &b[5], &end) == 6;
}

/* A link name ip(8) takes: 1 to 15 of [A-Za-z0-9_.-]. */
static bool ifname_valid(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && n < 16 && s[0] != '-' && s[0] != '.' &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") == n;
}

int capture_net_link_line(const char *line, struct capture_net *n)
{
	char addr[64];

	if (strncmp(line, "nic ", 4) == 0) {
		struct capture_nic *nic = &n->nics[n->n_nics];

		if (n->n_nics >= CAPTURE_NIC_MAX ||
		    sscanf(line, "nic %17s %63s %191s", nic->mac, nic->driver,
			   nic->devpath) != 3 || !mac_valid(nic->mac))
			return 0;
		nic->ifname[0] = '\0';
		n->n_nics++;
		return 2;
	}
	if (strncmp(line, "bond ", 5) == 0)
		return sscanf(line, "bond %15s %31s %u %17s", n->bond,
			      n->bond_mode, &n->bond_miimon, n->bond_mac) == 4 &&
		       ifname_valid(n->bond) && ifname_valid(n->bond_mode) &&
		       n->bond_miimon > 0 && n->bond_miimon <= 60000 &&
		       mac_valid(n->bond_mac) ? 2 : 0;
	if (strncmp(line, "vlan ", 5) == 0)
		return sscanf(line, "vlan %15s %u", n->vlan, &n->vlan_id) == 2 &&
		       ifname_valid(n->vlan) && n->vlan_id > 0 &&
		       n->vlan_id < 4095 ? 2 : 0;
	if (strncmp(line, "mtu ", 4) == 0)
		return sscanf(line, "mtu %u", &n->mtu) == 1 && n->mtu >= 576 &&
		       n->mtu <= 65535 ? 2 : 0;
	if (sscanf(line, "net %17s %63s %45s", n->mac, addr, n->gateway) != 3)
		return -ENOENT;
	if (sscanf(addr, "%45[0-9a-fA-F.:]/%u", n->addr, &n->prefix) != 2)
		return 0;
	n->family = ip_family(n->addr);
	return n->family && mac_valid(n->mac) &&
	       n->prefix <= (n->family == AF_INET ? 32U : 128U) &&
	       (strcmp(n->gateway, "-") == 0 ||
		ip_family(n->gateway) == n->family);
}

/* The path of a device under /sys/devices ends in rel ("-": any). */
static bool devpath_is(const char *real, const char *rel)
{
	size_t a = strlen(real), b = strlen(rel);

	if (strcmp(rel, "-") == 0)
		return true;
	return a > b && strcmp(real + a - b, rel) == 0 && real[a - b - 1] == '/';
}

/* The chain's net, collector, hostdir and fallback lines. */
static int net_chain_read(struct capture *cap, struct diag *d)
{
	struct capture_net *n = &cap->net;
	char line[2 * CONF_VALUE_MAX + 32];
	char a[CONF_VALUE_MAX], b[CONF_VALUE_MAX];
	bool have_net = false, bad = false;
	FILE *f;
	int r;

	f = fopen(cap->paths.chain, "re");
	if (!f) {
		r = -errno;
		return diag_fail(d, r, "cannot read %s: %s", cap->paths.chain,
				 strerror(-r));
	}
	while (fgets(line, sizeof(line), f)) {
		int l = capture_net_link_line(line, n);

		if (l >= 0) {
			have_net |= l == 1;
			bad |= l == 0;
		} else if (sscanf(line, "collector %45s", n->collector) == 1) {
			continue;
		} else if (sscanf(line, "hostdir %255s", n->hostdir) == 1) {
			continue;
		} else if (sscanf(line, "fallback %1023s %1023s", a, b) == 2) {
			snprintf(n->fallback_spec, sizeof(n->fallback_spec),
				 "%s", a);
			snprintf(n->fallback_path, sizeof(n->fallback_path),
				 "%s", b);
		}
	}
	fclose(f);
	if (bad || !have_net || ip_family(n->collector) != n->family ||
	    !n->hostdir[0] ||
	    strchr(n->hostdir, '/') || n->hostdir[0] == '.')
		return diag_fail(d, -EINVAL, "%s has no usable nic, bond, vlan, net, collector and hostdir lines: run kdump-file load again",
				 cap->paths.chain);
	return 0;
}

/*
 * The NICs the chain names.  Without "nic" lines (an older chain), the
 * one NIC is the net line's MAC, with no device path.
 */
static void nics_default(struct capture_net *n)
{
	if (n->n_nics)
		return;
	memset(&n->nics[0], 0, sizeof(n->nics[0]));
	snprintf(n->nics[0].mac, sizeof(n->nics[0].mac), "%s", n->mac);
	snprintf(n->nics[0].driver, sizeof(n->nics[0].driver), "-");
	snprintf(n->nics[0].devpath, sizeof(n->nics[0].devpath), "-");
	n->n_nics = 1;
}

/*
 * Find nic among the interfaces: by its MAC and its device's path, or by
 * its MAC alone when the path no longer matches (a renumbered bus).  1
 * when found (its ifname set), 0 when not yet, -ENOTUNIQ when more than
 * one interface has that identity (why in d).
 */
static int nic_find(struct capture *cap, struct capture_nic *nic,
		    struct diag *d)
{
	char by_mac[4][16] = { "", "" }, full[16] = "";
	unsigned int n_mac = 0, n_full = 0;
	struct dirent *de;
	DIR *dir;

	dir = opendir(cap->paths.sys_class_net);
	if (!dir)
		return 0;
	while ((de = readdir(dir))) {
		char p[PATH_MAX], mac[64], real[PATH_MAX];

		if (de->d_name[0] == '.' || strlen(de->d_name) >= 16)
			continue;
		snprintf(p, sizeof(p), "%s/%s/address", cap->paths.sys_class_net,
			 de->d_name);
		if (read_line_file(p, mac, sizeof(mac)) < 0 ||
		    strcasecmp(mac, nic->mac) != 0)
			continue;
		/* A bond or VLAN of ours shares the MAC: not a NIC. */
		snprintf(p, sizeof(p), "%s/%s/device", cap->paths.sys_class_net,
			 de->d_name);
		if (!realpath(p, real))
			continue;
		/* Shorter than 16: checked above. */
		if (n_mac < 4)
			memcpy(by_mac[n_mac], de->d_name, strlen(de->d_name) + 1);
		n_mac++;
		if (strcmp(nic->devpath, "-") != 0 && devpath_is(real, nic->devpath)) {
			memcpy(full, de->d_name, strlen(de->d_name) + 1);
			n_full++;
		}
	}
	closedir(dir);
	if (n_full == 1 || (n_full == 0 && n_mac == 1)) {
		snprintf(nic->ifname, sizeof(nic->ifname), "%s",
			 n_full ? full : by_mac[0]);
		if (!n_full && strcmp(nic->devpath, "-") != 0)
			capture_say(cap, "%s has MAC %s but not device %s: taken by its MAC alone",
				    nic->ifname, nic->mac, nic->devpath);
		return 1;
	}
	if (n_mac > 1)
		return diag_fail(d, -ENOTUNIQ,
				 "%u interfaces have MAC %s (%s, %s%s) and %s device %s: the capture cannot tell which to bring up; give them distinct MACs, or run kdump-file load again so that it records their devices",
				 n_mac, nic->mac, by_mac[0], by_mac[1],
				 n_mac > 2 ? ", ..." : "",
				 n_full ? "several have" : "none has",
				 nic->devpath);
	return 0;
}

/*
 * The chain's NICs appear once their drivers (the chain's module lines,
 * loaded by drivers_step() before the first look) have bound; their names
 * are the kernel's, as nothing renames them here.  A bond goes on with the
 * members found: once one is there, the others get NIC_MEMBER_MS more.
 */
#define NIC_MEMBER_MS 5000

static int nic_wait(struct capture *cap, unsigned long long end,
		    struct diag *d)
{
	struct capture_net *n = &cap->net;
	unsigned long long first = 0;

	for (;;) {
		unsigned int found = 0;

		/*
		 * The chain's modules first: the NICs' drivers, and those of
		 * the links (bonding, 8021q) when the NICs' are built in.
		 */
		drivers_step(cap);
		for (unsigned int i = 0; i < n->n_nics; i++) {
			int r = n->nics[i].ifname[0] ? 1 :
				nic_find(cap, &n->nics[i], d);

			if (r < 0)
				return r;
			found += (unsigned int)r;
		}
		if (found && !first)
			first = now_ms();
		if (found == n->n_nics ||
		    (found && n->bond[0] && (now_ms() >= first + NIC_MEMBER_MS ||
					     now_ms() >= end)))
			return 0;
		if (now_ms() >= end)
			break;
		usleep(100 * 1000);
	}
	drivers_summary(cap);
	if (n->bond[0])
		return diag_fail(d, -ENODEV, "no member of bond %s (MACs %s%s%s...) within net_timeout (%us)",
				 n->bond, n->nics[0].mac, n->n_nics > 1 ? ", " : "",
				 n->n_nics > 1 ? n->nics[1].mac : "",
				 cap->conf.net_timeout);
	return diag_fail(d, -ENODEV, "no network interface with MAC %s within net_timeout (%us)",
			 n->nics[0].mac, cap->conf.net_timeout);
}

static void sin_set(struct sockaddr *sa, in_addr_t a)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };

	sin.sin_addr.s_addr = a;
	memcpy(sa, &sin, sizeof(sin));
}

static int if_up(struct capture *cap, const char *name)
{
	struct ifreq ifr = { 0 };
	int r;

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	r = cap->net_ioctl(SIOCGIFFLAGS, &ifr);
	if (r < 0)
		return r;
	ifr.ifr_flags |= IFF_UP;
	return cap->net_ioctl(SIOCSIFFLAGS, &ifr);
}

static in_addr_t prefix_mask(unsigned int prefix)
{
	return prefix ? htonl(~0U << (32 - prefix)) : 0;
}

/* A plain NIC with IPv4: lo and the NIC up, its address and netmask set. */
static int nic_configure(struct capture *cap, struct diag *d)
{
	struct capture_net *n = &cap->net;
	struct ifreq ifr = { 0 };
	in_addr_t a;
	int r;

	r = if_up(cap, "lo");
	if (r < 0)
		capture_say(cap, "warning: cannot bring up lo: %s", strerror(-r));
	(void)inet_pton(AF_INET, n->addr, &a);
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", n->ifname);
	if (n->mtu) {
		ifr.ifr_mtu = (int)n->mtu;
		r = cap->net_ioctl(SIOCSIFMTU, &ifr);
		if (r < 0)
			return diag_fail(d, r, "cannot set MTU %u on %s: %s",
					 n->mtu, n->ifname, strerror(-r));
	}
	sin_set(&ifr.ifr_addr, a);
	r = cap->net_ioctl(SIOCSIFADDR, &ifr);
	if (r == 0) {
		sin_set(&ifr.ifr_netmask, prefix_mask(n->prefix));
		r = cap->net_ioctl(SIOCSIFNETMASK, &ifr);
	}
	if (r < 0)
		return diag_fail(d, r, "cannot set address %s/%u on %s: %s",
				 n->addr, n->prefix, n->ifname, strerror(-r));
	r = if_up(cap, n->ifname);
	if (r < 0)
		return diag_fail(d, r, "cannot bring up %s: %s", n->ifname,
				 strerror(-r));
	return 0;
}

/* ip(8) with the words a0 and those after it, up to a NULL. */
static int ip_run(struct capture *cap, struct diag *d, const char *a0, ...)
{
	char *argv[24];
	unsigned int n = 0;
	const char *w;
	va_list ap;

	argv[n++] = "ip";
	va_start(ap, a0);
	for (w = a0; w && n < 23; w = va_arg(ap, const char *))
		argv[n++] = (char *)w;
	va_end(ap);
	argv[n] = NULL;
	return cap->net_ip(cap, argv, d);
}

/*
 * A link of the name the chain gives a bond or a VLAN, there before the
 * capture made one (a bonding driver built in makes bond0 at boot, with
 * its own mode): deleted, so that the capture's has the chain's settings.
 */
static int link_clear(struct capture *cap, const char *name, struct diag *d)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", cap->paths.sys_class_net, name);
	if (access(p, F_OK) < 0)
		return 0;
	capture_say(cap, "%s is there already (the driver's own): deleting it", name);
	return ip_run(cap, d, "link", "delete", "dev", name, NULL);
}

/* dev's MTU set when the chain names one, then dev up. */
static int link_up(struct capture *cap, const char *dev, struct diag *d)
{
	char mtu[16];
	int r = 0;

	snprintf(mtu, sizeof(mtu), "%u", cap->net.mtu);
	if (cap->net.mtu)
		r = ip_run(cap, d, "link", "set", "dev", dev, "mtu", mtu, NULL);
	if (r == 0)
		r = ip_run(cap, d, "link", "set", "dev", dev, "up", NULL);
	return r;
}

/*
 * A bond, a VLAN or IPv6: the links built with ip(8) as the chain names
 * them, from the NICs up; n->ifname is the one the address goes on.
 */
static int links_build(struct capture *cap, struct diag *d)
{
	struct capture_net *n = &cap->net;
	char id[16], miimon[16], addr[64];
	const char *six = n->family == AF_INET6 ? "-6" : "-4";
	const char *lower;
	int r;

	r = ip_run(cap, d, "link", "set", "dev", "lo", "up", NULL);
	if (r < 0)
		capture_say(cap, "warning: cannot bring up lo: %s", diag_text(d));
	diag_clear(d);
	if (n->bond[0]) {
		unsigned int members = 0;

		snprintf(miimon, sizeof(miimon), "%u", n->bond_miimon);
		r = link_clear(cap, n->bond, d);
		if (r == 0)
			r = ip_run(cap, d, "link", "add", "name", n->bond, "type",
				   "bond", "mode", n->bond_mode, "miimon", miimon,
				   NULL);
		if (r < 0)
			return r;
		for (unsigned int i = 0; i < n->n_nics; i++) {
			const char *m = n->nics[i].ifname;

			if (!m[0]) {
				capture_say(cap, "bond %s: member with MAC %s not found: going on without it",
					    n->bond, n->nics[i].mac);
				continue;
			}
			r = ip_run(cap, d, "link", "set", "dev", m, "down", NULL);
			if (r == 0)
				r = ip_run(cap, d, "link", "set", "dev", m,
					   "master", n->bond, NULL);
			if (r < 0)
				return r;
			members++;
		}
		r = ip_run(cap, d, "link", "set", "dev", n->bond, "address",
			   n->bond_mac, NULL);
		if (r == 0)
			r = link_up(cap, n->bond, d);
		if (r < 0)
			return r;
		capture_say(cap, "bond %s (%s, miimon %u ms) of %u of its %u members",
			    n->bond, n->bond_mode, n->bond_miimon, members,
			    n->n_nics);
		lower = n->bond;
	} else {
		lower = n->nics[0].ifname;
		r = link_up(cap, lower, d);
		if (r < 0)
			return r;
	}
	if (n->vlan_id) {
		snprintf(id, sizeof(id), "%u", n->vlan_id);
		r = link_clear(cap, n->vlan, d);
		if (r == 0)
			r = ip_run(cap, d, "link", "add", "link", lower, "name",
				   n->vlan, "type", "vlan", "id", id, NULL);
		if (r == 0)
			r = link_up(cap, n->vlan, d);
		if (r < 0)
			return r;
		capture_say(cap, "VLAN %s (id %u) on %s", n->vlan, n->vlan_id,
			    lower);
		lower = n->vlan;
	}
	snprintf(n->ifname, sizeof(n->ifname), "%s", lower);
	snprintf(addr, sizeof(addr), "%s/%u", n->addr, n->prefix);
	/* No duplicate address detection: the address is ours already. */
	return ip_run(cap, d, six, "addr", "add", addr, "dev", n->ifname,
		      n->family == AF_INET6 ? "nodad" : NULL, NULL);
}

static bool sys_is(struct capture *cap, const char *attr, const char *a,
		   const char *b)
{
	char p[PATH_MAX], v[64];

	snprintf(p, sizeof(p), "%s/%s/%s", cap->paths.sys_class_net,
		 cap->net.ifname, attr);
	/* carrier cannot be read while the link is down (EINVAL). */
	return read_line_file(p, v, sizeof(v)) == 0 &&
	       (strcmp(v, a) == 0 || (b && strcmp(v, b) == 0));
}

/*
 * A carrier, and an operstate that lets packets through: "unknown" for
 * drivers that do not report one (include/uapi/linux/if.h, RFC 2863).
 */
static int link_wait(struct capture *cap, unsigned long long end,
		     struct diag *d)
{
	for (;;) {
		if (sys_is(cap, "carrier", "1", NULL) &&
		    sys_is(cap, "operstate", "up", "unknown"))
			return 0;
		if (now_ms() >= end)
			break;
		usleep(50 * 1000);
	}
	return diag_fail(d, -ENETDOWN, "no link on %s (MAC %s) within net_timeout (%us)",
			 cap->net.ifname, cap->net.mac, cap->conf.net_timeout);
}

/* Only the collector is reached through the gateway: a host route. */
static int route_add(struct capture *cap, struct diag *d)
{
	struct capture_net *n = &cap->net;
	struct rtentry rt = { 0 };
	char dst[64];
	in_addr_t a, gw;
	int r;

	if (strcmp(n->gateway, "-") == 0)
		return 0;
	if (n->family == AF_INET6 || n->bond[0] || n->vlan_id) {
		snprintf(dst, sizeof(dst), "%s/%u", n->collector,
			 n->family == AF_INET6 ? 128 : 32);
		r = ip_run(cap, d, n->family == AF_INET6 ? "-6" : "-4", "route",
			   "replace", dst, "via", n->gateway, "dev", n->ifname,
			   NULL);
		return r;
	}
	(void)inet_pton(AF_INET, n->collector, &a);
	(void)inet_pton(AF_INET, n->gateway, &gw);
	sin_set(&rt.rt_dst, a);
	sin_set(&rt.rt_gateway, gw);
	sin_set(&rt.rt_genmask, 0xffffffff);
	rt.rt_flags = RTF_UP | RTF_GATEWAY | RTF_HOST;
	rt.rt_dev = n->ifname;
	r = cap->net_ioctl(SIOCADDRT, &rt);
	if (r < 0 && r != -EEXIST)
		return diag_fail(d, r, "cannot add a route to %s via %s on %s: %s",
				 n->collector, n->gateway, n->ifname,
				 strerror(-r));
	return 0;
}

/* ip(8)'s lines, said as they come. */
static void ip_line(const char *line, size_t len, void *userdata)
{
	struct capture *cap = userdata;

	if (len)
		capture_say(cap, "ip: %s", line);
}

int capture_net_ip(struct capture *cap, char *const argv[], struct diag *d)
{
	struct process_opts o = PROCESS_OPTS_INIT;
	struct process_result res;
	char how[64], cmd[256] = "";
	int r;

	for (unsigned int i = 0; argv[i]; i++)
		snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), "%s%s",
			 i ? " " : "", argv[i]);
	o.on_line = ip_line;
	o.userdata = cap;
	o.timeout_ms = 10 * 1000;
	r = process_run(argv, &o, &res);
	if (r < 0)
		return diag_fail(d, r, "cannot run '%s': %s", cmd, strerror(-r));
	if (process_succeeded(&res))
		return 0;
	process_result_text(&res, how, sizeof(how));
	return diag_fail(d, -EIO, "'%s' failed: %s", cmd, how);
}

/*
 * The chain's NICs found, the links under the address built (a plain NIC
 * by hand, a bond, a VLAN or IPv6 with ip(8)), the address set, and a
 * route to the peer, all within net_timeout.
 */
int capture_net_up(struct capture *cap, const char *peer, struct diag *why)
{
	struct capture_net *n = &cap->net;
	unsigned long long t0 = now_ms(), t;
	unsigned long long end = t0 + cap->conf.net_timeout * 1000ULL;
	bool by_ip = n->bond[0] || n->vlan_id || n->family == AF_INET6;
	int r;

	nics_default(n);
	capture_say(cap, "waiting up to %us for the network interface%s with MAC %s%s",
		    cap->conf.net_timeout, n->n_nics > 1 ? "s" : "",
		    n->nics[0].mac, n->n_nics > 1 ? ", ..." : "");
	r = nic_wait(cap, end, why);
	if (r < 0)
		return r;
	for (unsigned int i = 0; i < n->n_nics; i++)
		if (n->nics[i].ifname[0])
			capture_say(cap, "found %s (MAC %s) in %.1fs",
				    n->nics[i].ifname, n->nics[i].mac,
				    (now_ms() - t0) / 1000.0);
	t = now_ms();
	if (by_ip) {
		r = links_build(cap, why);
	} else {
		snprintf(n->ifname, sizeof(n->ifname), "%s", n->nics[0].ifname);
		r = nic_configure(cap, why);
	}
	if (r == 0)
		r = link_wait(cap, end, why);
	if (r < 0)
		return r;
	n->t_link = now_ms() - t;
	capture_say(cap, "link up on %s in %.1fs: address %s/%u",
		    n->ifname, n->t_link / 1000.0, n->addr, n->prefix);
	t = now_ms();
	r = route_add(cap, why);
	if (r < 0)
		return r;
	n->t_addr = now_ms() - t;
	if (strcmp(n->gateway, "-") == 0)
		capture_say(cap, "%s %s is on-link", peer, n->collector);
	else
		capture_say(cap, "route to the %s %s via %s", peer, n->collector,
			    n->gateway);
	capture_say(cap, "network up in %.1fs", (now_ms() - t0) / 1000.0);
	return 0;
}

int phase_network(struct capture *cap)
{
	struct capture_net *n = &cap->net;
	struct diag why = DIAG_INIT;
	int r;

	snprintf(n->url, sizeof(n->url), "%s", cap->conf.target);
	capture_step(cap, "bringing up the network");
	r = net_chain_read(cap, &why);
	if (r == 0)
		r = capture_net_up(cap, "collector", &why);
	if (r < 0)
		return net_failed(cap, &why);
	cap->t_dev = now_ms();
	return 0;
}

/*
 * The kernel's own NFS client without mount.nfs: it takes the server's
 * address as addr= (no DNS here), and for v4 our own as clientaddr= for
 * callbacks; v3 locks locally (nolock: no statd here) and speaks TCP to
 * mountd too.  A hard mount: the capture's deadline bounds it.
 */
int capture_nfs_options(const struct capture *cap, unsigned int minor,
			char *buf, size_t size)
{
	const struct capture_net *n = &cap->net;

	if (nfs_mount_options(cap->conf.nfs_version, minor, n->collector,
			      n->addr, "hard,timeo=100,retrans=3", buf,
			      size) < 0)
		return -ENAMETOOLONG;
	return 0;
}

/* Mount the export at NFSv4's newest minor version this kernel takes. */
static int nfs_mount(struct capture *cap, const char *src, const char *fstype,
		     char *opts, size_t size)
{
	unsigned int minor = NFS4_MINOR_NEWEST;
	int r;

	for (;;) {
		r = capture_nfs_options(cap, minor, opts, size);
		if (r < 0)
			return r;
		capture_say(cap, "mounting %s (%s, %s)", src, fstype, opts);
		if (cap->mount(src, cap->paths.mnt, fstype, 0, opts) == 0)
			return 0;
		r = -errno;
		if (cap->conf.nfs_version == 3 || minor == 0 ||
		    !nfs_minor_refused(r))
			return r;
		capture_say(cap, "NFS 4.%u refused (%s): trying 4.%u", minor,
			    strerror(-r), minor - 1);
		minor--;
	}
}

int phase_nfs_mount(struct capture *cap)
{
	const char *mnt = cap->paths.mnt;
	const char *fstype = cap->conf.nfs_version == 3 ? "nfs" : "nfs4";
	char src[CONF_VALUE_MAX + 32], opts[256];
	struct diag why = DIAG_INIT;
	unsigned long long t = now_ms();
	int r;

	/* An IPv6 address in brackets, as nfs(5) writes it. */
	snprintf(src, sizeof(src), cap->net.family == AF_INET6 ? "[%s]:%s" :
		 "%s:%s", cap->net.collector, cap->conf.net_path);
	if (mkdir(mnt, 0700) < 0 && errno != EEXIST)
		return -errno;
	capture_step(cap, "mounting the NFS export");
	r = nfs_mount(cap, src, fstype, opts, sizeof(opts));
	if (r < 0) {
		(void)diag_fail(&why, r, "cannot mount %s (%s) on %s: %s", src,
				fstype, mnt, strerror(-r));
		return net_failed(cap, &why);
	}
	cap->mounted = true;
	capture_say(cap, "mounted %s in %.1fs", cap->conf.target,
		    (now_ms() - t) / 1000.0);
	return 0;
}

int capture_ssh_argv(const struct capture *cap, const char *request,
		     struct capture_ssh *s)
{
	const struct kdump_conf *c = &cap->conf;
	char **a = s->argv;
	int r;

	r = conf_known_hosts(c, s->known + 19, sizeof(s->known) - 19);
	if (r < 0)
		return r;
	memcpy(s->known, "UserKnownHostsFile=", 19);
	snprintf(s->key, sizeof(s->key), "%s", c->ssh_key);
	snprintf(s->alias, sizeof(s->alias), "HostKeyAlias=%s", c->net_host);
	snprintf(s->timeout, sizeof(s->timeout), "ConnectTimeout=%u",
		 c->net_timeout);
	snprintf(s->port, sizeof(s->port), "%u", c->net_port);
	snprintf(s->dest, sizeof(s->dest), "%s@%s", c->net_user,
		 cap->net.collector);
	snprintf(s->request, sizeof(s->request), "%s", request);
	/* Never StrictHostKeyChecking=no: the host keys pinned at load. */
	*a++ = (char *)cap->paths.ssh;
	*a++ = "-F";
	*a++ = "/dev/null";
	*a++ = "-i";
	*a++ = s->key;
	*a++ = "-o";
	*a++ = "IdentitiesOnly=yes";
	*a++ = "-o";
	*a++ = "BatchMode=yes";
	*a++ = "-o";
	*a++ = "StrictHostKeyChecking=yes";
	*a++ = "-o";
	*a++ = s->known;
	*a++ = "-o";
	*a++ = "GlobalKnownHostsFile=/dev/null";
	*a++ = "-o";
	*a++ = s->alias;
	*a++ = "-o";
	*a++ = s->timeout;
	*a++ = "-o";
	*a++ = "ServerAliveInterval=10";
	*a++ = "-o";
	*a++ = "ServerAliveCountMax=6";
	*a++ = "-p";
	*a++ = s->port;
	*a++ = s->dest;
	*a++ = s->request;
	*a = NULL;
	return 0;
}

/* ssh's (and the collector's) messages: said, the last one kept. */
struct ssh_err {
	struct capture *cap;
	char last[256];
};

static void ssh_line(const char *line, size_t len, void *userdata)
{
	struct ssh_err *e = userdata;

	if (!len)
		return;
	capture_say(e->cap, "ssh: %s", line);
	snprintf(e->last, sizeof(e->last), "%s", line);
}

/* What is left of capture_timeout, in ms; 0: no deadline. */
static unsigned int deadline_left(const struct capture *cap)
{
	unsigned long long now = now_ms();

	if (!cap->deadline_end)
		return 0;
	return cap->deadline_end > now ? cap->deadline_end - now : 1;
}

/*
 * Run one request on the collector, stdin from in_fd (-1: none), its
 * first line of output into out (when not NULL).  Returns 0, or a
 * negative errno with why in d.
 */
static int ssh_run(struct capture *cap, const char *request, int in_fd,
		   char *out, size_t out_size, struct diag *d)
{
	struct process_opts o = PROCESS_OPTS_INIT;
	struct ssh_err e = { .cap = cap };
	struct process_result res = { 0 };
	struct capture_ssh *s;
	char how[128];
	ssize_t n;
	int fd = -1, r;

	s = malloc(sizeof(*s));
	if (!s)
		return diag_fail(d, -ENOMEM, "ssh %s: %s", request,
				 strerror(ENOMEM));
	r = capture_ssh_argv(cap, request, s);
	if (r < 0) {
		(void)diag_fail(d, r, "ssh %s: %s", request, strerror(-r));
		goto out;
	}
	fd = memfd_create("kdump-file-ssh", MFD_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		(void)diag_fail(d, r, "ssh %s: %s", request, strerror(-r));
		goto out;
	}
	o.stdin_fd = in_fd;
	o.stdout_fd = fd;
	o.on_line = ssh_line;
	o.userdata = &e;
	o.timeout_ms = deadline_left(cap);
	r = process_run(s->argv, &o, &res);
	if (r < 0 || !process_succeeded(&res)) {
		if (r < 0)
			snprintf(how, sizeof(how), "could not be run: %s",
				 strerror(-r));
		else
			process_result_text(&res, how, sizeof(how));
		r = diag_fail(d, r < 0 ? r : -EIO,
			      "ssh %s to %s (%s) failed: %s%s%s", request,
			      s->dest, cap->conf.net_host, how,
			      e.last[0] ? ": " : "", e.last);
		goto out;
	}
	if (out) {
		n = pread(fd, out, out_size - 1, 0);
		out[n > 0 ? n : 0] = '\0';
		out[strcspn(out, "\n")] = '\0';
	}
out:
	if (fd >= 0)
		close(fd);
	free(s);
	return r;
}

/* The local directory holding what is sent: dmesg, metadata, hooks.log. */
static int stage_make(struct capture *cap)
{
	char m[sizeof(cap->meta) + 1];
	int r;

	umask(0077);
	snprintf(cap->dir, sizeof(cap->dir), "%s/%s", cap->paths.net_stage,
		 cap->net.name);
	r = mkdir_p(cap->dir, 0700);
	if (r < 0)
		return r;
	cap->dir_fd = open(cap->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			   O_CLOEXEC);
	if (cap->dir_fd < 0)
		return -errno;
	r = capture_dump_names(cap);
	if (r < 0)
		return r;
	snprintf(m, sizeof(m), "@%s", cap->meta);
	capture_step(cap, m);
	return 0;
}

/*
 * The collector makes the dump directory (retention to keep, named by
 * the crash time) and gives its NAME.  The first connection: its failure
 * is the last point where the fallback can take over.
 */
int phase_ssh_begin(struct capture *cap)
{
	const struct kdump_conf *c = &cap->conf;
	struct capture_vmcoreinfo vi;
	struct diag why = DIAG_INIT;
	char req[128], name[64];
	unsigned long long t = now_ms();
	int r;

	(void)capture_vmcoreinfo(cap, &vi);
	snprintf(req, sizeof(req), "begin %u %lld", c->keep,
		 vi.crash_time >= 0 ? vi.crash_time : (long long)time(NULL));
	capture_step(cap, "starting the dump on the collector");
	capture_say(cap, "connecting to %s@%s (%s) port %u", c->net_user,
		    c->net_host, cap->net.collector, c->net_port);
	r = ssh_run(cap, req, -1, name, sizeof(name), &why);
	if (r == 0 && (!dump_name_valid(name) ||
		       strlen(name) >= sizeof(cap->net.name)))
		r = diag_fail(&why, -EPROTO, "the collector %s answered '%.64s' to begin, not a dump name",
			      c->net_host, name);
	if (r < 0)
		return net_failed(cap, &why);
	/* Checked to fit above. */
	memcpy(cap->net.name, name, strlen(name) + 1);
	r = stage_make(cap);
	if (r < 0)
		return capture_fail(cap, r, "cannot create %s/%s: %s",
				    cap->paths.net_stage, name, strerror(-r));
	capture_say(cap, "saving to %s:%s/%s/%s (began in %.1fs)", c->net_host,
		    c->net_path, cap->net.hostdir, name,
		    (now_ms() - t) / 1000.0);
	return 0;
}

/* Send a file of the staging directory with request; -ENOENT if none. */
static int ssh_send(struct capture *cap, const char *path,
		    const char *request, struct diag *d)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), r;

	if (fd < 0) {
		r = -errno;
		return diag_fail(d, r, "cannot open %s: %s", path,
				 strerror(-r));
	}
	r = ssh_run(cap, request, fd, NULL, 0, d);
	close(fd);
	return r;
}

/* dmesg.txt, saved locally by phase_dmesg(), to the collector. */
int phase_ssh_dmesg(struct capture *cap)
{
	struct diag why = DIAG_INIT;
	char req[64];
	int r;

	capture_step(cap, "sending the dmesg");
	if (capture_file_size(cap->dmesg) < 0) {
		capture_say(cap, "warning: no dmesg.txt to send");
		return 0;
	}
	snprintf(req, sizeof(req), "dmesg %s", cap->net.name);
	r = ssh_send(cap, cap->dmesg, req, &why);
	if (r == 0) {
		capture_say(cap, "dmesg sent");
		return 0;
	}
	if (!cap->conf.dmesg_only) {
		capture_say(cap, "warning: dmesg not sent: %s", diag_text(&why));
		return 0;
	}
	(void)text_format(cap->reason, sizeof(cap->reason),
			  "dmesg.txt not sent: %s", diag_text(&why));
	return capture_fail(cap, r, "%s", cap->reason);
}

/* makedumpfile's end, from the process that ran it (vmcore_send()). */
struct mdf_end {
	int r;
	struct process_result res;
};

/*
 * makedumpfile in a process of our own, writing to out: so that it and
 * ssh, each through process_run(), run at the same time.  Same process
 * group as ours: process_run()'s sweep leaves it alone.
 */
static pid_t mdf_start(struct capture *cap, char **argv, int out, int in,
		       int end_fd)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct mdf_end e = { 0 };

		/* ssh's end alone: when ssh goes, makedumpfile gets EPIPE. */
		close(in);
		e.r = capture_exec(cap, argv, out, &e.res);
		(void)!write(end_fd, &e, sizeof(e));
		_exit(0);
	}
	return pid;
}

/*
 * makedumpfile -F /proc/vmcore | ssh ... vmcore NAME: the collector
 * rebuilds the flattened stream with makedumpfile -R and answers
 * "ok BYTES" once the vmcore is committed.  A failure of either side
 * fails the vmcore; when ssh fails, makedumpfile gets SIGPIPE.
 */
static int vmcore_send(struct capture *cap, char **argv, char *answer,
		       size_t size, struct diag *d)
{
	struct mdf_end e = { .r = -ECHILD };
	struct diag ssh = DIAG_INIT;
	int data[2], end[2], r, st;
	char req[64], how[128];
	pid_t pid;

	if (pipe2(data, O_CLOEXEC) < 0) {
		r = -errno;
		goto fail_run;
	}
	if (pipe2(end, O_CLOEXEC) < 0) {
		r = -errno;
		close(data[0]);
		close(data[1]);
		goto fail_run;
	}
	pid = mdf_start(cap, argv, data[1], data[0], end[1]);
	close(data[1]);
	close(end[1]);
	if (pid < 0) {
		r = -errno;
		close(data[0]);
		close(end[0]);
		goto fail_run;
	}
	snprintf(req, sizeof(req), "vmcore %s", cap->net.name);
	r = ssh_run(cap, req, data[0], answer, size, &ssh);
	close(data[0]);
	if (read(end[0], &e, sizeof(e)) != (ssize_t)sizeof(e))
		e.r = -ECHILD;
	close(end[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	/*
	 * Which end failed first: makedumpfile killed by SIGPIPE wrote to
	 * an ssh that had gone, whose failure is the cause; otherwise ssh
	 * failed because the stream it sent ended early.
	 */
	if (!capture_run_failed(e.r, &e.res, how, sizeof(how)) ||
	    (r < 0 && e.r == 0 && WIFSIGNALED(e.res.wait_status) &&
	     WTERMSIG(e.res.wait_status) == SIGPIPE))
		return r < 0 ? diag_fail(d, r, "%s", diag_text(&ssh)) : 0;
	return diag_fail(d, -EIO, "makedumpfile %s", how);

fail_run:
	return diag_fail(d, r, "makedumpfile could not be run: %s",
			 strerror(-r));
}

/* The vmcore, straight from makedumpfile to the collector. */
int phase_ssh_vmcore(struct capture *cap)
{
	struct conf_makedumpfile_cmd cmd;
	struct diag why = DIAG_INIT;
	char line[2048], answer[128];
	long long bytes;
	unsigned long long t;
	int r;

	if (cap->conf.dmesg_only) {
		capture_say(cap, "no vmcore: dump_level = dmesg saves the kernel log alone");
		return 0;
	}
	capture_step(cap, "sending the vmcore");
	r = conf_makedumpfile_cmd(&cap->conf, cap->paths.vmcore, NULL, NULL,
				  &cmd);
	if (r < 0) {
		snprintf(cap->reason, sizeof(cap->reason),
			 "makedumpfile_args cannot be used: %s", strerror(-r));
		return capture_fail(cap, r, "vmcore not sent: %s",
				    cap->reason);
	}
	(void)capture_makedumpfile_text(cap, NULL, NULL, line, sizeof(line));
	capture_say(cap, "sending vmcore (%s | ssh ... vmcore %s)", line,
		    cap->net.name);
	t = now_ms();
	r = vmcore_send(cap, cmd.argv, answer, sizeof(answer), &why);
	cap->t_core = now_ms() - t;
	if (r == 0 && sscanf(answer, "ok %lld", &bytes) != 1)
		r = diag_fail(&why, -EPROTO, "the collector answered '%.64s' to vmcore, not ok",
			      answer);
	if (r < 0) {
		(void)text_format(cap->reason, sizeof(cap->reason), "%s",
				  diag_text(&why));
		return capture_fail(cap, r, "vmcore not saved: %s; dmesg.txt and metadata.json are sent",
				    cap->reason);
	}
	cap->net.vmcore_bytes = bytes;
	capture_say(cap, "vmcore sent (%lld bytes in %.1fs)", bytes,
		    cap->t_core / 1000.0);
	return 0;
}

/*
 * metadata.json (as phase_record() and the post hooks left it) and
 * hooks.log to the collector: the collector's own metadata.json says
 * "capture in progress" until this one replaces it.
 */
int phase_ssh_record(struct capture *cap)
{
	char req[96], path[PATH_MAX + 16];
	struct diag why = DIAG_INIT;
	int r;

	if (!cap->net.name[0])
		return 0;
	capture_step(cap, "sending metadata.json");
	if (path_format(path, sizeof(path), "%s/" DUMP_HOOKS_LOG,
			cap->dir) == 0 && capture_file_size(path) >= 0) {
		snprintf(req, sizeof(req), "file %s " DUMP_HOOKS_LOG,
			 cap->net.name);
		r = ssh_send(cap, path, req, &why);
		if (r < 0)
			capture_say(cap, "warning: hooks.log not sent: %s",
				    diag_text(&why));
		/* Said and done with: the next send's failure is its own. */
		diag_clear(&why);
	}
	snprintf(req, sizeof(req), "file %s " DUMP_METADATA, cap->net.name);
	r = ssh_send(cap, cap->meta, req, &why);
	if (r < 0)
		return capture_fail(cap, r, "metadata.json not sent: %s",
				    diag_text(&why));
	capture_say(cap, "metadata.json sent");
	return 0;
}
