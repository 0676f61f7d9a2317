// SPDX-License-Identifier: GPL-2.0
/*
 * A network target: the NIC the chain names brought up by hand (no udev,
 * no DHCP, no DNS in the capture kernel: kdump-file(8) resolved the MAC,
 * our address, the gateway and the collector's address at load time),
 * then the NFS export mounted with the kernel's own NFS client.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <net/route.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
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

/* The network target could not be reached (why): the capture fails. */
static int net_failed(struct capture *cap, int err, const char *why)
{
	capture_say(cap, "error: %s", why);
	return err;
}

static bool ipv4_valid(const char *s)
{
	struct in_addr a;

	return inet_pton(AF_INET, s, &a) == 1;
}

/* The chain's net, collector and hostdir lines. */
static int net_chain_read(struct capture *cap, char *why, size_t size)
{
	struct capture_net *n = &cap->net;
	char line[512];
	bool have_net = false;
	FILE *f;

	f = fopen(cap->paths.chain, "re");
	if (!f) {
		snprintf(why, size, "cannot read %s: %s", cap->paths.chain,
			 strerror(errno));
		return -errno;
	}
	while (fgets(line, sizeof(line), f)) {
		char addr[40];

		if (sscanf(line, "net %17s %39s %15s", n->mac, addr,
			   n->gateway) == 3) {
			have_net = sscanf(addr, "%15[0-9.]/%u", n->addr,
					  &n->prefix) == 2 &&
				   n->prefix <= 32 && ipv4_valid(n->addr) &&
				   (strcmp(n->gateway, "-") == 0 ||
				    ipv4_valid(n->gateway));
		} else if (sscanf(line, "collector %15s", n->collector) == 1) {
			continue;
		} else if (sscanf(line, "hostdir %255s", n->hostdir) == 1) {
			continue;
		}
	}
	fclose(f);
	if (!have_net || !ipv4_valid(n->collector) || !n->hostdir[0] ||
	    strchr(n->hostdir, '/') || n->hostdir[0] == '.') {
		snprintf(why, size, "%s has no usable net, collector and hostdir lines: run kdump-file load again",
			 cap->paths.chain);
		return -EINVAL;
	}
	return 0;
}

/* The interface whose address is the chain's MAC, into n->ifname. */
static bool nic_find(struct capture *cap)
{
	struct capture_net *n = &cap->net;
	struct dirent *de;
	bool found = false;
	DIR *d;

	d = opendir(cap->paths.sys_class_net);
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		char p[PATH_MAX], mac[64];

		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(n->ifname))
			continue;
		snprintf(p, sizeof(p), "%s/%s/address", cap->paths.sys_class_net,
			 de->d_name);
		if (read_line_file(p, mac, sizeof(mac)) == 0 &&
		    strcasecmp(mac, n->mac) == 0) {
			snprintf(n->ifname, sizeof(n->ifname), "%s", de->d_name);
			found = true;
		}
	}
	closedir(d);
	return found;
}

/*
 * The NIC appears once its driver (the chain's module lines, loaded by
 * drivers_step()) has bound; its name is the kernel's, not the running
 * system's, as nothing renames it here.
 */
static int nic_wait(struct capture *cap, unsigned long long end, char *why,
		    size_t size)
{
	for (;;) {
		if (nic_find(cap))
			return 0;
		if (now_ms() >= end)
			break;
		drivers_step(cap);
		usleep(100 * 1000);
	}
	drivers_summary(cap);
	snprintf(why, size, "no network interface with MAC %s within net_timeout (%us)",
		 cap->net.mac, cap->conf.net_timeout);
	return -ENODEV;
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

/* lo and the NIC up, the NIC's address and netmask set. */
static int nic_configure(struct capture *cap, char *why, size_t size)
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
	sin_set(&ifr.ifr_addr, a);
	r = cap->net_ioctl(SIOCSIFADDR, &ifr);
	if (r == 0) {
		sin_set(&ifr.ifr_netmask, prefix_mask(n->prefix));
		r = cap->net_ioctl(SIOCSIFNETMASK, &ifr);
	}
	if (r < 0) {
		snprintf(why, size, "cannot set address %s/%u on %s: %s",
			 n->addr, n->prefix, n->ifname, strerror(-r));
		return r;
	}
	r = if_up(cap, n->ifname);
	if (r < 0) {
		snprintf(why, size, "cannot bring up %s: %s", n->ifname,
			 strerror(-r));
		return r;
	}
	return 0;
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
static int link_wait(struct capture *cap, unsigned long long end, char *why,
		     size_t size)
{
	for (;;) {
		if (sys_is(cap, "carrier", "1", NULL) &&
		    sys_is(cap, "operstate", "up", "unknown"))
			return 0;
		if (now_ms() >= end)
			break;
		usleep(50 * 1000);
	}
	snprintf(why, size, "no link on %s (MAC %s) within net_timeout (%us)",
		 cap->net.ifname, cap->net.mac, cap->conf.net_timeout);
	return -ENETDOWN;
}

/* Only the collector is reached through the gateway: a host route. */
static int route_add(struct capture *cap, char *why, size_t size)
{
	struct capture_net *n = &cap->net;
	struct rtentry rt = { 0 };
	in_addr_t dst, gw;
	int r;

	if (strcmp(n->gateway, "-") == 0)
		return 0;
	(void)inet_pton(AF_INET, n->collector, &dst);
	(void)inet_pton(AF_INET, n->gateway, &gw);
	sin_set(&rt.rt_dst, dst);
	sin_set(&rt.rt_gateway, gw);
	sin_set(&rt.rt_genmask, 0xffffffff);
	rt.rt_flags = RTF_UP | RTF_GATEWAY | RTF_HOST;
	rt.rt_dev = n->ifname;
	r = cap->net_ioctl(SIOCADDRT, &rt);
	if (r < 0 && r != -EEXIST) {
		snprintf(why, size, "cannot add a route to %s via %s on %s: %s",
			 n->collector, n->gateway, n->ifname, strerror(-r));
		return r;
	}
	return 0;
}

/*
 * The NIC with the chain's MAC, up with the chain's address, and a route
 * to the collector, all within net_timeout.
 */
int phase_network(struct capture *cap)
{
	struct capture_net *n = &cap->net;
	unsigned long long t0 = now_ms(), t;
	unsigned long long end = t0 + cap->conf.net_timeout * 1000ULL;
	char why[512];
	int r;

	snprintf(n->url, sizeof(n->url), "%s", cap->conf.target);
	capture_step(cap, "bringing up the network");
	r = net_chain_read(cap, why, sizeof(why));
	if (r < 0)
		return net_failed(cap, r, why);
	capture_say(cap, "waiting up to %us for the network interface with MAC %s",
		    cap->conf.net_timeout, n->mac);
	r = nic_wait(cap, end, why, sizeof(why));
	if (r < 0)
		return net_failed(cap, r, why);
	capture_say(cap, "found %s (MAC %s) in %.1fs", n->ifname, n->mac,
		    (now_ms() - t0) / 1000.0);
	t = now_ms();
	r = nic_configure(cap, why, sizeof(why));
	if (r == 0)
		r = link_wait(cap, end, why, sizeof(why));
	if (r < 0)
		return net_failed(cap, r, why);
	n->t_link = now_ms() - t;
	capture_say(cap, "link up on %s in %.1fs: address %s/%u",
		    n->ifname, n->t_link / 1000.0, n->addr, n->prefix);
	t = now_ms();
	r = route_add(cap, why, sizeof(why));
	if (r < 0)
		return net_failed(cap, r, why);
	n->t_addr = now_ms() - t;
	if (strcmp(n->gateway, "-") == 0)
		capture_say(cap, "collector %s is on-link", n->collector);
	else
		capture_say(cap, "route to the collector %s via %s", n->collector,
			    n->gateway);
	cap->t_dev = now_ms();
	capture_say(cap, "network up in %.1fs", (cap->t_dev - t0) / 1000.0);
	return 0;
}

/*
 * The kernel's own NFS client without mount.nfs: it takes the server's
 * address as addr= (no DNS here), and for v4 our own as clientaddr= for
 * callbacks; v3 locks locally (nolock: no statd here) and speaks TCP to
 * mountd too.  A hard mount: the capture's deadline bounds it.
 */
int capture_nfs_options(const struct capture *cap, char *buf, size_t size)
{
	const struct capture_net *n = &cap->net;
	int r;

	if (cap->conf.nfs_version == 3)
		r = snprintf(buf, size,
			     "vers=3,nolock,proto=tcp,mountproto=tcp,addr=%s,mountaddr=%s,hard,timeo=100,retrans=3",
			     n->collector, n->collector);
	else
		r = snprintf(buf, size,
			     "vers=4.2,addr=%s,clientaddr=%s,hard,timeo=100,retrans=3",
			     n->collector, n->addr);
	return r < 0 || (size_t)r >= size ? -ENAMETOOLONG : 0;
}

/* The NFS export on the mount point; the dump then goes to MNT/HOSTDIR. */
int phase_nfs_mount(struct capture *cap)
{
	const char *mnt = cap->paths.mnt;
	const char *fstype = cap->conf.nfs_version == 3 ? "nfs" : "nfs4";
	char src[CONF_VALUE_MAX + 32], opts[256], why[CONF_VALUE_MAX + 512];
	unsigned long long t = now_ms();
	int r;

	snprintf(src, sizeof(src), "%s:%s", cap->net.collector,
		 cap->conf.net_path);
	if (mkdir(mnt, 0700) < 0 && errno != EEXIST)
		return -errno;
	r = capture_nfs_options(cap, opts, sizeof(opts));
	if (r < 0)
		return r;
	capture_step(cap, "mounting the NFS export");
	capture_say(cap, "mounting %s (%s, %s)", src, fstype, opts);
	if (cap->mount(src, mnt, fstype, 0, opts) < 0) {
		r = -errno;
		snprintf(why, sizeof(why), "cannot mount %s (%s) on %s: %s",
			 src, fstype, mnt, strerror(-r));
		return net_failed(cap, r, why);
	}
	cap->mounted = true;
	capture_say(cap, "mounted %s in %.1fs", cap->conf.target,
		    (now_ms() - t) / 1000.0);
	return 0;
}
