// SPDX-License-Identifier: GPL-2.0
/*
 * The network target's plan: the route parser on /proc/net/route texts,
 * the interfaces the capture cannot bring up (over a sysfs tree made here
 * as the kernel lays it out, net/core/net-sysfs.c), the chain's lines, a
 * whole resolution under a stand-in root, and the NIC's drivers.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "devchain.h"
#include "netplan.h"
#include "tests.h"
#include "util.h"

/* A diag with nothing in it: each call below says its own failure. */
static struct diag *fresh(struct diag *d)
{
	diag_clear(d);
	return d;
}

static char root[PATH_MAX];

#define HEADER "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"

static struct in_addr ip(const char *s)
{
	struct in_addr a = { 0 };

	CHECK(inet_pton(AF_INET, s, &a) == 1);
	return a;
}

static void put(const char *rel, const char *text)
{
	char p[PATH_MAX], dir[PATH_MAX];

	CHECK(path_format(p, sizeof(p), "%s/%s", root, rel) == 0);
	snprintf(dir, sizeof(dir), "%s", p);
	*strrchr(dir, '/') = '\0';
	CHECK(mkdir_p(dir, 0755) == 0);
	CHECK(write_file_atomic(p, text, strlen(text), 0644) == 0);
}

static void link_to(const char *rel, const char *target)
{
	char p[PATH_MAX], dir[PATH_MAX];

	CHECK(path_format(p, sizeof(p), "%s/%s", root, rel) == 0);
	snprintf(dir, sizeof(dir), "%s", p);
	*strrchr(dir, '/') = '\0';
	CHECK(mkdir_p(dir, 0755) == 0);
	(void)unlink(p);
	CHECK(symlink(target, p) == 0);
}

static void test_route(void)
{
	/* A default route via 192.0.2.1 and the 192.0.2.0/24 on eth0. */
	const char *text = HEADER
		"eth0\t00000000\t010200C0\t0003\t0\t0\t100\t00000000\t0\t0\t0\n"
		"eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"
		"eth1\t0064A8C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"
		"eth1\t0A64A8C0\t00000000\t0005\t0\t0\t0\tFFFFFFFF\t0\t0\t0\n"
		"eth2\t0000000A\t00000000\t0201\t0\t0\t0\t000000FF\t0\t0\t0\n";
	struct net_route r;
	char a[32];

	/* On-link: no gateway. */
	CHECK(net_route_find(text, ip("192.0.2.7"), &r) == 0);
	CHECK(strcmp(r.ifname, "eth0") == 0 && r.gateway.s_addr == 0);
	CHECK(r.prefix == 24);
	/* Elsewhere: the default route and its gateway. */
	CHECK(net_route_find(text, ip("198.51.100.9"), &r) == 0);
	CHECK(strcmp(r.ifname, "eth0") == 0 && r.prefix == 0);
	CHECK(strcmp(net_addr_text(r.gateway, true, a, sizeof(a)),
		     "192.0.2.1") == 0);
	/* The longest prefix: the host route over its /24. */
	CHECK(net_route_find(text, ip("192.168.100.10"), &r) == 0);
	CHECK(strcmp(r.ifname, "eth1") == 0 && r.prefix == 32);
	CHECK(net_route_find(text, ip("192.168.100.11"), &r) == 0);
	CHECK(strcmp(r.ifname, "eth1") == 0 && r.prefix == 24);
	/* A reject route is none: the default one is taken. */
	CHECK(net_route_find(text, ip("10.0.0.5"), &r) == 0);
	CHECK(strcmp(r.ifname, "eth0") == 0);

	/* Without a default route, an address off every subnet: none. */
	text = HEADER
		"eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"
		"eth1\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"
		"eth9\t0033C6C0\t00000000\t0000\t0\t0\t0\t00FFFFFF\t0\t0\t0\n";
	memset(&r, 0x5a, sizeof(r));
	CHECK(net_route_find(text, ip("203.0.113.1"), &r) == -ENETUNREACH);
	CHECK(r.prefix == 0x5a5a5a5a);
	/* A route that is down is none either. */
	CHECK(net_route_find(text, ip("192.198.51.1"), &r) == -ENETUNREACH);
	/* Equal prefixes: the first of the lowest metric. */
	CHECK(net_route_find(text, ip("192.0.2.3"), &r) == 0);
	CHECK(strcmp(r.ifname, "eth0") == 0);
	/* Not the route table; and the header alone. */
	CHECK(net_route_find("garbage\n", ip("192.0.2.3"), &r) == -EBADMSG);
	CHECK(net_route_find(HEADER, ip("192.0.2.3"), &r) == -ENETUNREACH);
	CHECK(net_route_find("Iface", ip("192.0.2.3"), &r) == -ENETUNREACH);
}

/* An interface in the stand-in sysfs: its type, MAC, device and driver. */
static void make_nic(const char *name, const char *type)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "sys/class/net/%s/type", name);
	put(rel, type);
	snprintf(rel, sizeof(rel), "sys/class/net/%s/address", name);
	put(rel, "52:54:00:12:34:56\n");
}

static void test_iface_check(void)
{
	struct net_paths np;
	struct diag why;

	net_paths_init(&np);
	make_nic("eth0", "1\n");
	CHECK(net_iface_check(&np, "eth0", "collector", ip("192.0.2.9"),
			      fresh(&why)) == 0);
	CHECK(net_iface_check(&np, "eth7", "collector", ip("192.0.2.9"),
			      fresh(&why)) == -ENODEV);

	make_nic("bond0", "1\n");
	put("sys/class/net/bond0/bonding/mode", "active-backup 1\n");
	CHECK(net_iface_check(&np, "bond0", "collector", ip("192.0.2.9"),
			      fresh(&why)) == -EMEDIUMTYPE);
	CHECK(strstr(why.msg, "bond0, a bond") != NULL);
	CHECK(strstr(why.msg, "ip route add 192.0.2.9/32") != NULL);

	/* A VLAN: by /proc/net/vlan, or by its lower link. */
	make_nic("eth0.5", "1\n");
	put("proc/net/vlan/eth0.5", "eth0.5  VID: 5\n");
	CHECK(net_iface_check(&np, "eth0.5", "collector", ip("192.0.2.9"),
			      fresh(&why)) == -EMEDIUMTYPE);
	CHECK(strstr(why.msg, "eth0.5, a VLAN") != NULL);
	make_nic("vlan7", "1\n");
	link_to("sys/class/net/vlan7/lower_eth0", "../eth0");
	CHECK(net_iface_check(&np, "vlan7", "collector", ip("192.0.2.9"),
			      fresh(&why)) == -EMEDIUMTYPE);
	CHECK(strstr(why.msg, "vlan7, a VLAN or another link stacked on eth0") != NULL);

	make_nic("br0", "1\n");
	put("sys/class/net/br0/bridge/stp_state", "0\n");
	CHECK(net_iface_check(&np, "br0", "collector", ip("192.0.2.9"),
			      fresh(&why)) == -EMEDIUMTYPE);
	CHECK(strstr(why.msg, "br0, a bridge") != NULL);

	make_nic("wlan0", "1\n");
	put("sys/class/net/wlan0/phy80211/name", "phy0\n");
	CHECK(net_iface_check(&np, "wlan0", "collector", ip("192.0.2.9"),
			      fresh(&why)) == -EMEDIUMTYPE);
	CHECK(strstr(why.msg, "wlan0, a wireless interface") != NULL);

	make_nic("ib0", "32\n");
	CHECK(net_iface_check(&np, "ib0", "collector", ip("192.0.2.9"),
			      fresh(&why)) == -EMEDIUMTYPE);
	CHECK(strstr(why.msg, "type 32, not Ethernet") != NULL);

	make_nic("lo", "772\n");
	CHECK(net_iface_check(&np, "lo", "me", ip("127.0.0.1"),
			      fresh(&why)) == -EMEDIUMTYPE);
	CHECK(strstr(why.msg, "me (127.0.0.1) is this machine itself") != NULL);
}

static void test_resolve(void)
{
	struct kdump_conf c;
	struct net_paths np;
	struct net_plan n, before;
	char chain[512], want[512];
	struct diag why;

	conf_init(&c);
	c.net = CONF_NET_SSH;
	snprintf(c.net_host, sizeof(c.net_host), "198.51.100.20");
	net_paths_init(&np);
	put("proc/net/route", HEADER
	    "eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0\n"
	    "eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"
	    "br0\t0064A8C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"
	    "eth0\t006433C6\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n");
	put("ifaddrs", "eth0 198.51.100.7/24\neth0 192.0.2.15/24\n");
	CHECK(net_resolve(&c, &np, &n, fresh(&why)) == 0);
	CHECK(strcmp(n.ifname, "eth0") == 0);
	CHECK(strcmp(n.mac, "52:54:00:12:34:56") == 0);
	/* On-link: the address on the collector's subnet. */
	CHECK(n.gateway.s_addr == 0 && n.prefix == 24);
	CHECK(n.addr.s_addr == ip("198.51.100.7").s_addr);
	CHECK(net_chain_format(&n, chain, sizeof(chain)) == 0);
	snprintf(want, sizeof(want),
		 "net 52:54:00:12:34:56 198.51.100.7/24 -\ncollector 198.51.100.20\nhostdir %s\n",
		 n.hostdir);
	CHECK(strcmp(chain, want) == 0);
	CHECK(strchr(n.hostdir, '-') != NULL);
	/* Too small: the buffer as it was. */
	memset(want, 'x', sizeof(want));
	CHECK(net_chain_format(&n, want, strlen(chain)) == -ENOBUFS);
	CHECK(want[0] == 'x');

	/* Through the gateway: the address on its subnet. */
	snprintf(c.net_host, sizeof(c.net_host), "203.0.113.5");
	CHECK(net_resolve(&c, &np, &n, fresh(&why)) == 0);
	CHECK(n.addr.s_addr == ip("192.0.2.15").s_addr);
	CHECK(net_chain_format(&n, chain, sizeof(chain)) == 0);
	CHECK(strncmp(chain, "net 52:54:00:12:34:56 192.0.2.15/24 192.0.2.1\ncollector 203.0.113.5\n", 68) == 0);

	/* Refused, ret untouched, why said. */
	memset(&before, 0x5a, sizeof(before));
	n = before;
	snprintf(c.net_host, sizeof(c.net_host), "192.168.100.3");
	CHECK(net_resolve(&c, &np, &n, fresh(&why)) == -EMEDIUMTYPE);
	CHECK(strstr(why.msg, "br0, a bridge") != NULL);
	CHECK(memcmp(&n, &before, sizeof(n)) == 0);
	put("ifaddrs", "eth1 198.51.100.7/24\n");
	snprintf(c.net_host, sizeof(c.net_host), "198.51.100.20");
	CHECK(net_resolve(&c, &np, &n, fresh(&why)) == -EADDRNOTAVAIL);
	CHECK(strstr(why.msg, "interface eth0, the route to 198.51.100.20 (198.51.100.20), has no IPv4 address") != NULL);
	snprintf(c.net_host, sizeof(c.net_host), "no-such-host.invalid");
	CHECK(net_resolve(&c, &np, &n, fresh(&why)) == -EHOSTUNREACH);
	CHECK(strstr(why.msg, "host no-such-host.invalid does not resolve to an IPv4 address") != NULL);
	CHECK(memcmp(&n, &before, sizeof(n)) == 0);
}

/* The NIC's drivers, as devchain_resolve() finds a disk's. */
static void test_nic_chain(void)
{
	struct modload *km;
	struct devchain c, fb;
	char sys[PATH_MAX + 8], buf[512];

	snprintf(sys, sizeof(sys), "%s/sys", root);
	put("sys/bus/pci/drivers/virtio-pci/bind", "");
	put("sys/bus/virtio/drivers/virtio_net/bind", "");
	link_to("sys/devices/pci0000:00/0000:00:03.0/driver",
		"../../../bus/pci/drivers/virtio-pci");
	link_to("sys/devices/pci0000:00/0000:00:03.0/virtio0/driver",
		"../../../../bus/virtio/drivers/virtio_net");
	link_to("sys/class/net/eth0/device",
		"../../../devices/pci0000:00/0000:00:03.0/virtio0");
	CHECK(modload_new("/nonexistent/lib/modules/0", &km) == 0);
	/* Built in (no module links): nothing to load, but named. */
	CHECK(devchain_resolve_net(sys, "eth0", NULL, km, &c) == 0);
	CHECK(c.n == 2);
	CHECK(strcmp(c.mods[0].name, "virtio-pci") == 0);
	CHECK(strcmp(c.mods[1].name, "virtio_net") == 0);
	CHECK(c.mods[1].state == MODLOAD_BUILTIN);
	CHECK(strstr(c.mods[1].reason, "holds eth0") != NULL);
	CHECK(devchain_format(&c, buf, sizeof(buf)) == 0 && !buf[0]);
	/* With NFS's module: unknown to the index, not loaded: built in. */
	CHECK(devchain_resolve_net(sys, "eth0", "nfsv4", km, &c) == 0);
	CHECK(c.n == 3 && strcmp(c.mods[2].name, "nfsv4") == 0);
	/* A driver module here the capture kernel lacks: refused. */
	put("sys/module/virtio_net/initstate", "live\n");
	link_to("sys/bus/virtio/drivers/virtio_net/module",
		"../../../../module/virtio_net");
	CHECK(devchain_resolve_net(sys, "eth0", NULL, km, &c) == -ENOPKG);
	CHECK(strstr(c.layer, "virtio_net") != NULL);
	/* A virtual interface has no device. */
	make_nic("tap0", "1\n");
	CHECK(devchain_resolve_net(sys, "tap0", NULL, km, &c) == -ENOENT);
	modload_free(km);

	/* A fallback's chain after the network's, without repeats. */
	memset(&c, 0, sizeof(c));
	memset(&fb, 0, sizeof(fb));
	c.n = 2;
	snprintf(c.mods[0].name, sizeof(c.mods[0].name), "virtio_pci");
	snprintf(c.mods[1].name, sizeof(c.mods[1].name), "virtio_net");
	c.mods[0].state = c.mods[1].state = MODLOAD_MODULE;
	fb.n = 3;
	snprintf(fb.mods[0].name, sizeof(fb.mods[0].name), "virtio-pci");
	snprintf(fb.mods[1].name, sizeof(fb.mods[1].name), "virtio_blk");
	snprintf(fb.mods[2].name, sizeof(fb.mods[2].name), "ext4");
	fb.mods[0].state = fb.mods[1].state = fb.mods[2].state = MODLOAD_MODULE;
	fb.n_lvs = 1;
	snprintf(fb.lvs[0], sizeof(fb.lvs[0]), "vg/crash");
	CHECK(devchain_merge(&c, &fb) == 0);
	CHECK(devchain_format(&c, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "module virtio_pci\nmodule virtio_net\nmodule virtio_blk\nmodule ext4\nlvm vg/crash\n") == 0);
}

int main(void)
{
	snprintf(root, sizeof(root), "/tmp/test-netplan.XXXXXX");
	CHECK(mkdtemp(root) != NULL);
	CHECK(setenv(NETPLAN_ROOT_ENV, root, 1) == 0);
	test_route();
	test_iface_check();
	test_resolve();
	test_nic_chain();
	CHECK(test_rm_rf(root) == 0);
	return tests_done();
}
