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
	CHECK(strcmp(r.ifname, "eth0") == 0 && r.gateway.family == 0);
	CHECK(r.prefix == 24);
	/* Elsewhere: the default route and its gateway. */
	CHECK(net_route_find(text, ip("198.51.100.9"), &r) == 0);
	CHECK(strcmp(r.ifname, "eth0") == 0 && r.prefix == 0);
	CHECK(strcmp(net_ip_text(&r.gateway, true, a, sizeof(a)),
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

static void drop(const char *rel)
{
	char p[PATH_MAX];

	CHECK(path_format(p, sizeof(p), "%s/%s", root, rel) == 0);
	CHECK(test_rm_rf(p) == 0);
}

static struct net_ip ip4(const char *s)
{
	struct net_ip a = { 0 };

	CHECK(net_ip_parse(s, &a) == 0);
	return a;
}

/* walk ifname toward collector c: its result, why in why. */
static int walk(const char *ifname, const char *c, struct net_links *l,
		struct diag *why)
{
	struct net_paths np;
	struct net_ip a = ip4(c);

	net_paths_init(&np);
	memset(l, 0, sizeof(*l));
	return net_links_walk(&np, ifname, "collector", &a, l, fresh(why));
}

/* A NIC with a device (PCI slot SLOT, virtio_net) and MAC. */
static void make_dev_nic(const char *name, const char *mac, unsigned int slot)
{
	char rel[256], target[256];

	make_nic(name, "1\n");
	snprintf(rel, sizeof(rel), "sys/class/net/%s/address", name);
	put(rel, mac);
	snprintf(rel, sizeof(rel), "sys/devices/pci0000:00/0000:00:%02x.0/virtio%u/driver",
		 slot, slot);
	link_to(rel, "../../../../bus/virtio/drivers/virtio_net");
	snprintf(rel, sizeof(rel), "sys/class/net/%s/device", name);
	snprintf(target, sizeof(target),
		 "../../../devices/pci0000:00/0000:00:%02x.0/virtio%u", slot, slot);
	link_to(rel, target);
}

static void make_lower(const char *upper, const char *lower)
{
	char rel[256], target[64];

	snprintf(rel, sizeof(rel), "sys/class/net/%s/lower_%s", upper, lower);
	snprintf(target, sizeof(target), "../%s", lower);
	link_to(rel, target);
}

static void test_iface_check(void)
{
	struct net_links l;
	struct diag why;

	put("sys/bus/virtio/drivers/virtio_net/bind", "");
	make_dev_nic("eth0", "52:54:00:12:34:56\n", 3);
	CHECK(walk("eth0", "192.0.2.9", &l, &why) == 0);
	CHECK(l.n_nics == 1 && !l.bond[0] && !l.vlan_id && !l.bridge[0]);
	CHECK(strcmp(l.nics[0].mac, "52:54:00:12:34:56") == 0);
	CHECK(strcmp(l.nics[0].driver, "virtio_net") == 0);
	CHECK(strcmp(l.nics[0].devpath, "pci0000:00/0000:00:03.0/virtio3") == 0);
	CHECK(walk("eth7", "192.0.2.9", &l, &why) == -ENODEV);

	/* An active-backup bond: members by their own MACs, in name order. */
	make_dev_nic("eth1", "52:54:00:00:00:0a\n", 4);
	make_dev_nic("eth2", "52:54:00:00:00:0a\n", 5);
	put("sys/class/net/eth2/bonding_slave/perm_hwaddr", "52:54:00:00:00:0b\n");
	put("sys/class/net/eth1/bonding_slave/perm_hwaddr", "52:54:00:00:00:0a\n");
	make_nic("bond0", "1\n");
	put("sys/class/net/bond0/address", "52:54:00:00:00:0a\n");
	put("sys/class/net/bond0/bonding/mode", "active-backup 1\n");
	put("sys/class/net/bond0/bonding/miimon", "100\n");
	put("sys/class/net/bond0/mtu", "9000\n");
	make_lower("bond0", "eth2");
	make_lower("bond0", "eth1");
	CHECK(walk("bond0", "192.0.2.9", &l, &why) == 0);
	CHECK(strcmp(l.bond, "bond0") == 0 &&
	      strcmp(l.bond_mode, "active-backup") == 0 && l.bond_miimon == 100);
	CHECK(l.n_nics == 2 && strcmp(l.nics[0].ifname, "eth1") == 0 &&
	      strcmp(l.nics[1].mac, "52:54:00:00:00:0b") == 0);
	CHECK(l.mtu == 9000);

	/* 802.3ad with miimon 0: the capture watches the links all the same. */
	put("sys/class/net/bond0/bonding/mode", "802.3ad 4\n");
	put("sys/class/net/bond0/bonding/miimon", "0\n");
	CHECK(walk("bond0", "192.0.2.9", &l, &why) == 0);
	CHECK(strcmp(l.bond_mode, "802.3ad") == 0 && l.bond_miimon == 100);

	/* A VLAN on the bond, and on a NIC. */
	make_nic("bond0.43", "1\n");
	put("proc/net/vlan/bond0.43", "bond0.43  VID: 43\t REORDER_HDR: 1  dev->priv_flags: 1021\n");
	make_lower("bond0.43", "bond0");
	CHECK(walk("bond0.43", "192.0.2.9", &l, &why) == 0);
	CHECK(l.vlan_id == 43 && strcmp(l.vlan, "bond0.43") == 0 &&
	      strcmp(l.bond, "bond0") == 0 && l.n_nics == 2);
	make_nic("eth0.5", "1\n");
	put("proc/net/vlan/eth0.5", "eth0.5  VID: 5\n");
	make_lower("eth0.5", "eth0");
	CHECK(walk("eth0.5", "192.0.2.9", &l, &why) == 0);
	CHECK(l.vlan_id == 5 && !l.bond[0] && l.n_nics == 1 &&
	      strcmp(l.nics[0].ifname, "eth0") == 0);
	/* A VLAN without its id, a VLAN on a VLAN: refused. */
	make_nic("vlan7", "1\n");
	put("proc/net/vlan/vlan7", "vlan7 garbage\n");
	make_lower("vlan7", "eth0");
	CHECK(walk("vlan7", "192.0.2.9", &l, &why) == -EMEDIUMTYPE);
	CHECK(strstr(why.msg, "give no VLAN id") != NULL);
	make_nic("qinq", "1\n");
	put("proc/net/vlan/qinq", "qinq  VID: 9\n");
	make_lower("qinq", "eth0.5");
	CHECK(walk("qinq", "192.0.2.9", &l, &why) == -EMEDIUMTYPE);
	CHECK(strstr(why.msg, "stacked tags") != NULL);

	/* A bond in a bond, a bond of VLANs: refused. */
	make_nic("bond1", "1\n");
	put("sys/class/net/bond1/address", "52:54:00:00:00:0c\n");
	put("sys/class/net/bond1/bonding/mode", "balance-rr 0\n");
	make_lower("bond1", "bond0");
	CHECK(walk("bond1", "192.0.2.9", &l, &why) == -EMEDIUMTYPE);
	CHECK(strstr(why.msg, "which holds bond bond0") != NULL);
	make_nic("bond2", "1\n");
	put("sys/class/net/bond2/address", "52:54:00:00:00:0d\n");
	put("sys/class/net/bond2/bonding/mode", "active-backup 1\n");
	make_lower("bond2", "eth0.5");
	CHECK(walk("bond2", "192.0.2.9", &l, &why) == -EMEDIUMTYPE);
	CHECK(strstr(why.msg, "whose member eth0.5 is a VLAN") != NULL);
	/* A bond without members. */
	make_nic("bond3", "1\n");
	put("sys/class/net/bond3/address", "52:54:00:00:00:0e\n");
	put("sys/class/net/bond3/bonding/mode", "active-backup 1\n");
	CHECK(walk("bond3", "192.0.2.9", &l, &why) == -EMEDIUMTYPE);
	CHECK(strstr(why.msg, "has no members") != NULL);

	/* Another stacked link (a team, a macvlan): refused. */
	make_nic("team0", "1\n");
	make_lower("team0", "eth0");
	CHECK(walk("team0", "192.0.2.9", &l, &why) == -EMEDIUMTYPE);
	CHECK(strstr(why.msg, "team0, a link stacked on eth0 that is not a bond") != NULL);

	/* A bridge: left out for its one uplink; taps do not count. */
	make_nic("br0", "1\n");
	put("sys/class/net/br0/bridge/stp_state", "0\n");
	make_nic("tap0", "1\n");
	put("sys/class/net/br0/brif/tap0/port_no", "0x2\n");
	CHECK(walk("br0", "192.0.2.9", &l, &why) == -EMEDIUMTYPE);
	CHECK(strstr(why.msg, "bridge br0, which has no port off this machine") != NULL);
	put("sys/class/net/br0/brif/bond0/port_no", "0x1\n");
	CHECK(walk("br0", "192.0.2.9", &l, &why) == 0);
	CHECK(strcmp(l.bridge, "br0") == 0 && strcmp(l.bond, "bond0") == 0 &&
	      strcmp(net_links_top(&l), "bond0") == 0);
	put("sys/class/net/br0/brif/eth0/port_no", "0x3\n");
	CHECK(walk("br0", "192.0.2.9", &l, &why) == -EMEDIUMTYPE);
	CHECK(strstr(why.msg, "several ports off this machine (bond0, eth0)") != NULL);

	put("sys/class/net/eth0/phy80211/name", "phy0\n");
	CHECK(walk("eth0", "192.0.2.9", &l, &why) == -EMEDIUMTYPE);
	CHECK(strstr(why.msg, "eth0, a wireless interface") != NULL);
	drop("sys/class/net/eth0/phy80211");

	make_nic("ib0", "32\n");
	CHECK(walk("ib0", "192.0.2.9", &l, &why) == -EMEDIUMTYPE);
	CHECK(strstr(why.msg, "type 32, not Ethernet") != NULL);

	make_nic("lo", "772\n");
	CHECK(walk("lo", "127.0.0.1", &l, &why) == -EMEDIUMTYPE);
	CHECK(strstr(why.msg, "collector (127.0.0.1) is this machine itself") != NULL);
}

static void test_resolve(void)
{
	struct kdump_conf c;
	struct net_paths np;
	struct net_plan n, before;
	char chain[1024], want[1024];
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
	CHECK(n.gateway.family == 0 && n.prefix == 24);
	CHECK(n.addr.family == AF_INET &&
	      n.addr.u.v4.s_addr == ip("198.51.100.7").s_addr);
	CHECK(!net_plan_needs_ip(&n));
	CHECK(net_chain_format(&n, chain, sizeof(chain)) == 0);
	snprintf(want, sizeof(want),
		 "nic 52:54:00:12:34:56 virtio_net pci0000:00/0000:00:03.0/virtio3\nnet 52:54:00:12:34:56 198.51.100.7/24 -\ncollector 198.51.100.20\nhostdir %s\n",
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
	CHECK(n.addr.u.v4.s_addr == ip("192.0.2.15").s_addr);
	CHECK(net_chain_format(&n, chain, sizeof(chain)) == 0);
	CHECK(strstr(chain, "\nnet 52:54:00:12:34:56 192.0.2.15/24 192.0.2.1\ncollector 203.0.113.5\n") != NULL);

	/* Refused, ret untouched, why said. */
	memset(&before, 0x5a, sizeof(before));
	n = before;
	snprintf(c.net_host, sizeof(c.net_host), "192.168.100.3");
	CHECK(net_resolve(&c, &np, &n, fresh(&why)) == -EMEDIUMTYPE);
	CHECK(strstr(why.msg, "bridge br0, which has several ports") != NULL);
	CHECK(memcmp(&n, &before, sizeof(n)) == 0);
	put("ifaddrs", "eth1 198.51.100.7/24\n");
	snprintf(c.net_host, sizeof(c.net_host), "198.51.100.20");
	CHECK(net_resolve(&c, &np, &n, fresh(&why)) == -EADDRNOTAVAIL);
	CHECK(strstr(why.msg, "interface eth0, the route to 198.51.100.20 (198.51.100.20), has no IPv4 address") != NULL);
	snprintf(c.net_host, sizeof(c.net_host), "no-such-host.invalid");
	CHECK(net_resolve(&c, &np, &n, fresh(&why)) == -EHOSTUNREACH);
	CHECK(strstr(why.msg, "host no-such-host.invalid does not resolve to an IPv4 or IPv6 address") != NULL);
	CHECK(memcmp(&n, &before, sizeof(n)) == 0);

	/*
	 * A bond with a VLAN: the chain names the members, the bond and the
	 * VLAN, the address on the VLAN with its MAC; the capture needs ip.
	 */
	put("proc/net/route", HEADER
	    "bond0.43\t00000A0A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n");
	put("ifaddrs", "bond0.43 10.10.0.2/24\n");
	put("sys/class/net/bond0.43/address", "52:54:00:00:00:0a\n");
	put("sys/class/net/bond0/bonding/miimon", "250\n");
	put("sys/class/net/bond0.43/mtu", "9000\n");
	snprintf(c.net_host, sizeof(c.net_host), "10.10.0.1");
	CHECK(net_resolve(&c, &np, &n, fresh(&why)) == 0);
	CHECK(net_plan_needs_ip(&n));
	CHECK(net_chain_format(&n, chain, sizeof(chain)) == 0);
	snprintf(want, sizeof(want),
		 "nic 52:54:00:00:00:0a virtio_net pci0000:00/0000:00:04.0/virtio4\n"
		 "nic 52:54:00:00:00:0b virtio_net pci0000:00/0000:00:05.0/virtio5\n"
		 "bond bond0 802.3ad 250 52:54:00:00:00:0a\nvlan bond0.43 43\nmtu 9000\n"
		 "net 52:54:00:00:00:0a 10.10.0.2/24 -\ncollector 10.10.0.1\nhostdir %s\n",
		 n.hostdir);
	CHECK(strcmp(chain, want) == 0);
	net_links_describe(&n.links, chain, sizeof(chain));
	CHECK(strstr(chain, "bond bond0 (802.3ad, miimon 250 ms, MAC 52:54:00:00:00:0a) of NIC eth1") != NULL);
	CHECK(strstr(chain, ", VLAN 43 (bond0.43) on bond0, MTU 9000") != NULL);

	/*
	 * IPv6: the route from /proc/net/ipv6_route (a link-local gateway),
	 * the global address (not the link-local one) on the NIC.
	 */
	put("proc/net/ipv6_route",
	    "fe800000000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001 eth0\n"
	    "20010db8000000010000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001 eth0\n"
	    "00000000000000000000000000000000 00 00000000000000000000000000000000 00 fe800000000000000000000000000001 00000400 00000001 00000000 00000003 eth0\n"
	    "00000000000000000000000000000000 00 00000000000000000000000000000000 00 00000000000000000000000000000000 ffffffff 00000001 00000000 00200200 lo\n");
	put("ifaddrs", "eth0 fe80::5054:ff:fe12:3456/64\neth0 2001:db8:0:1:5054:ff:fe12:3456/64\neth0 192.0.2.15/24\n");
	snprintf(c.net_host, sizeof(c.net_host), "2001:db8:99::7");
	CHECK(net_resolve(&c, &np, &n, fresh(&why)) == 0);
	CHECK(n.collector.family == AF_INET6 && n.gateway.family == AF_INET6);
	CHECK(net_plan_needs_ip(&n));
	CHECK(net_chain_format(&n, chain, sizeof(chain)) == 0);
	CHECK(strstr(chain, "net 52:54:00:12:34:56 2001:db8:0:1:5054:ff:fe12:3456/64 fe80::1\ncollector 2001:db8:99::7\n") != NULL);
	/* On-link on the NIC's own prefix. */
	snprintf(c.net_host, sizeof(c.net_host), "2001:db8:0:1::9");
	CHECK(net_resolve(&c, &np, &n, fresh(&why)) == 0);
	CHECK(n.gateway.family == 0 && n.prefix == 64);
	/* Only a link-local address: refused, saying which. */
	put("ifaddrs", "eth0 fe80::5054:ff:fe12:3456/64\n");
	CHECK(net_resolve(&c, &np, &n, fresh(&why)) == -EADDRNOTAVAIL);
	CHECK(strstr(why.msg, "has no IPv6 address (global: a link-local one names no route)") != NULL);
	/* No route at all. */
	put("proc/net/ipv6_route",
	    "00000000000000000000000000000000 00 00000000000000000000000000000000 00 00000000000000000000000000000000 ffffffff 00000001 00000000 00200200 lo\n");
	CHECK(net_resolve(&c, &np, &n, fresh(&why)) == -ENETUNREACH);
	CHECK(strstr(why.msg, "there is no IPv6 route to 2001:db8:0:1::9") != NULL);
}

/* The IPv6 route parser alone. */
static void test_route6(void)
{
	struct net_route r;
	struct in6_addr d;
	char a[NET_IP_TEXT];

	CHECK(inet_pton(AF_INET6, "fd00:1::1", &d) == 1);
	CHECK(net_route6_find("fd000001000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001 eth1\n"
			      "fd000001000000000000000000000001 80 00000000000000000000000000000000 00 00000000000000000000000000000000 00000000 00000001 00000000 80200001 lo\n",
			      &d, &r) == 0);
	/* The /128 local route is its own address's: up, but through lo. */
	CHECK(strcmp(r.ifname, "lo") == 0 && r.prefix == 128);
	CHECK(inet_pton(AF_INET6, "fd00:1::9", &d) == 1);
	CHECK(net_route6_find("fd000001000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001 eth1\n",
			      &d, &r) == 0);
	CHECK(strcmp(r.ifname, "eth1") == 0 && r.prefix == 64 &&
	      r.gateway.family == 0);
	CHECK(strcmp(net_ip_text(&r.gateway, true, a, sizeof(a)), "-") == 0);
	CHECK(net_route6_find("garbage\n", &d, &r) == -EBADMSG);
	CHECK(net_route6_find("", &d, &r) == -ENETUNREACH);
}

/* The NIC's drivers, as devchain_resolve() finds a disk's. */
static void test_nic_chain(void)
{
	const char *eth0[] = { "eth0" }, *tap0[] = { "tap0" };
	const struct devchain_want nfs[] = {
		{ "bonding", "bonds the NICs" },
		{ "8021q", "tags the VLAN" },
		{ "nfsv4", "filesystem of the network target" },
	};
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
	CHECK(devchain_resolve_net(sys, eth0, 1, NULL, 0, km, &c) == 0);
	CHECK(c.n == 2);
	CHECK(strcmp(c.mods[0].name, "virtio-pci") == 0);
	CHECK(strcmp(c.mods[1].name, "virtio_net") == 0);
	CHECK(c.mods[1].state == MODLOAD_BUILTIN);
	CHECK(strstr(c.mods[1].reason, "holds eth0") != NULL);
	CHECK(devchain_format(&c, buf, sizeof(buf)) == 0 && !buf[0]);
	/* With NFS's module: unknown to the index, not loaded: built in. */
	CHECK(devchain_resolve_net(sys, eth0, 1, nfs, 3, km, &c) == 0);
	CHECK(c.n == 5 && strcmp(c.mods[2].name, "bonding") == 0 &&
	      strcmp(c.mods[3].name, "8021q") == 0 &&
	      strcmp(c.mods[4].name, "nfsv4") == 0);
	CHECK(strstr(c.mods[2].reason, "bonds the NICs") != NULL);
	/* A driver module here the capture kernel lacks: refused. */
	put("sys/module/virtio_net/initstate", "live\n");
	link_to("sys/bus/virtio/drivers/virtio_net/module",
		"../../../../module/virtio_net");
	CHECK(devchain_resolve_net(sys, eth0, 1, NULL, 0, km, &c) == -ENOPKG);
	CHECK(strstr(c.layer, "virtio_net") != NULL);
	/* A virtual interface has no device. */
	make_nic("tap0", "1\n");
	CHECK(devchain_resolve_net(sys, tap0, 1, NULL, 0, km, &c) == -ENOENT);
	CHECK(strcmp(c.layer, "tap0") == 0);
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
	test_route6();
	test_iface_check();
	test_resolve();
	test_nic_chain();
	CHECK(test_rm_rf(root) == 0);
	return tests_done();
}
