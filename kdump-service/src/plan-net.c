// SPDX-License-Identifier: GPL-2.0
/*
 * plan_make()'s part for a network target (see plan.h): the route and
 * interface to the collector (netplan.h), the drivers on the way, the
 * fallback directory, the files the fingerprint covers; and for a local
 * target on an iSCSI disk, the way to its portal.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "netplan.h"
#include "plan.h"
#include "plan-internal.h"
#include "target-mount.h"
#include "util.h"

/* open-iscsi's initiator name and node records. */
#define ISCSI_INITIATOR_FILE "/etc/iscsi/initiatorname.iscsi"
#define ISCSI_NODES_DIR "/etc/iscsi/nodes"

/*
 * A network target's fallback directory: resolved as a local 'path' is,
 * its drivers added to the chain, after the network's.
 */
static int plan_fallback(struct plan *p, struct modload *km, bool create)
{
	_cleanup_free_ struct devchain *c = NULL;
	struct target_fs fs;
	int r;

	r = plan_local_dir(p, "fallback", p->conf.fallback, create, &fs);
	if (r < 0)
		return r;
	if (path_format(p->fallback_spec, sizeof(p->fallback_spec), "%s",
			fs.spec) < 0 ||
	    path_format(p->fallback_rel, sizeof(p->fallback_rel), "%s",
			fs.relpath) < 0)
		return diag_fail(&p->diag, -ENAMETOOLONG,
				 "fallback directory %s: its device or its path there is longer than the capture takes (%zu bytes)",
				 p->conf.fallback, sizeof(p->fallback_rel) - 1);
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	r = devchain_resolve("/sys", fs.devno, fs.fstype, km, c);
	if (r == 0)
		r = plan_crypt(p, km, c, p->conf.fallback);
	if (r < 0 && diag_failed(&p->diag))
		return r;
	if (r == -EMEDIUMTYPE)
		(void)diag_fail(&p->diag, r,
				"cannot use fallback directory %s for the capture: it is on %s: %s (for 'fallback' in %s)",
				p->conf.fallback, c->layer, c->fix, p->config);
	else if (r == -ENOPKG)
		(void)diag_fail(&p->diag, r,
				"cannot use fallback directory %s for the capture: kernel %s has no module %s: install that kernel's modules or set 'kernel' in %s",
				p->conf.fallback, p->release, c->layer,
				p->config);
	else if (r < 0)
		(void)diag_fail(&p->diag, r,
				"cannot resolve the drivers of fallback directory %s (%s): %s",
				p->conf.fallback, fs.devnode, strerror(-r));
	if (r < 0)
		return r;
	if (c->n_iscsis)
		return diag_fail(&p->diag, -EMEDIUMTYPE,
				 "cannot use fallback directory %s for the capture: it is on iSCSI target %s, a second network the capture does not bring up: set 'fallback' to a directory on a local disk in %s",
				 p->conf.fallback, c->iscsis[0].target,
				 p->config);
	r = devchain_merge(&p->chain, c);
	if (r < 0)
		(void)diag_fail(&p->diag, r,
				"the capture would need more than %d modules for the network and fallback directory %s",
				DEVCHAIN_MAX, p->conf.fallback);
	return r;
}

/*
 * The drivers of the NICs of path n and the modules of its links (and of
 * fsmodule when not NULL), into c; what the way leads to (a dump target,
 * an iSCSI portal) named by what and peer in messages.
 */
static int plan_net_drivers(struct plan *p, const struct net_plan *n,
			    const char *fsmodule, struct modload *km,
			    const char *what, const char *peer,
			    struct devchain *c)
{
	const struct net_links *l = &n->links;
	struct net_paths np;
	const char *ifnames[NET_NIC_MAX];
	struct devchain_want want[3] = {
		{ l->bond[0] ? "bonding" : NULL, "bonds the NICs of the network path" },
		{ l->vlan_id ? "8021q" : NULL, "tags the VLAN of the network path" },
		{ fsmodule, "filesystem of the network target" },
	};
	int r;

	net_paths_init(&np);
	for (unsigned int i = 0; i < l->n_nics; i++)
		ifnames[i] = l->nics[i].ifname;
	r = devchain_resolve_net(np.sysfs, ifnames, l->n_nics, want, 3, km, c);
	if (r == -ENOENT)
		return diag_fail(&p->diag, r,
				 "cannot use dump target %s: the route to %s goes through %s, a virtual interface (no device: a tap, veth or dummy), which the capture cannot bring up: route it through a physical Ethernet interface, a bond or a VLAN, or set a local 'target' in %s",
				 what, peer, c->layer, p->config);
	if (r == -ENOPKG)
		return diag_fail(&p->diag, r,
				 "cannot use dump target %s for the capture: kernel %s has no module %s: install that kernel's modules, build it with that driver, or set 'kernel' in %s",
				 what, p->release, c->layer, p->config);
	if (r < 0)
		return diag_fail(&p->diag, r,
				 "cannot resolve the drivers of interface %s, the way to %s: %s",
				 n->ifname, peer, strerror(-r));
	return 0;
}

/* The NICs' drivers, the links' and NFS's modules, for the capture kernel. */
static int plan_net_chain(struct plan *p, struct modload *km)
{
	const char *nfs = p->conf.net != CONF_NET_NFS ? NULL :
			  p->conf.nfs_version == 3 ? "nfsv3" : "nfsv4";

	return plan_net_drivers(p, &p->net, nfs, km, p->conf.target,
				p->conf.net_host, &p->chain);
}

/*
 * A network target: the collector's address and the way to it, the NIC's
 * drivers (and NFS's), the fallback directory's; the chain's net lines
 * first, then its modules.
 */
int plan_target_net(struct plan *p, bool create)
{
	struct modload *km = NULL;
	struct net_paths np;
	size_t tl;
	int r;

	net_paths_init(&np);
	r = net_resolve(&p->conf, &np, &p->net, &p->diag);
	if (r < 0) {
		p->net_failed = true;
		diag_prefix(&p->diag, "cannot use dump target %s from %s",
			    p->conf.target, p->config);
		return r;
	}
	p->net_known = true;
	snprintf(p->chain_what, sizeof(p->chain_what), "%s (interface %s)",
		 p->conf.target, p->net.ifname);
	r = plan_modload(p, &km);
	if (r < 0)
		return r;
	r = plan_net_chain(p, km);
	if (r >= 0 && p->conf.fallback[0])
		r = plan_fallback(p, km, create);
	modload_free(km);
	if (r < 0)
		return r;
	p->chain_known = true;
	r = net_chain_format(&p->net, p->chain_text, sizeof(p->chain_text));
	tl = strlen(p->chain_text);
	if (r >= 0 && p->conf.fallback[0] &&
	    snprintf(p->chain_text + tl, sizeof(p->chain_text) - tl,
		     "fallback %s %s\n", p->fallback_spec,
		     p->fallback_rel[0] ? p->fallback_rel : "/") >=
		    (int)(sizeof(p->chain_text) - tl))
		r = -ENOBUFS;
	if (r >= 0)
		r = plan_chain_text(p);
	return r;
}

/*
 * What the capture initramfs holds and its fingerprint covers, beyond the
 * hooks and extra binaries: an ssh target's key and pinned host keys, so
 * that a new key or re-pinned collector rebuilds it.
 */
int plan_net_files(struct plan *p)
{
	char known[CONF_VALUE_MAX];
	size_t fl;
	int r;

	snprintf(p->fingerprint_files, sizeof(p->fingerprint_files), "%s",
		 p->extra_files);
	if (p->conf.net != CONF_NET_SSH)
		return 0;
	fl = strlen(p->fingerprint_files);
	r = conf_known_hosts(&p->conf, known, sizeof(known));
	if (r < 0)
		return r;
	if (snprintf(p->fingerprint_files + fl,
		     sizeof(p->fingerprint_files) - fl, "%s%s %s",
		     fl ? " " : "", p->conf.ssh_key, known) >=
	    (int)(sizeof(p->fingerprint_files) - fl))
		return -ENOBUFS;
	return 0;
}

/*
 * This initiator's name from open-iscsi's file ("InitiatorName=iqn..."),
 * for a session whose sysfs attribute is empty.
 */
static int iscsi_initiator_file(const char *file, char *buf, size_t size)
{
	_cleanup_free_ char *text = NULL;
	char *save = NULL;
	int r;

	r = read_file_max(file, &text, 64 * 1024);
	if (r < 0)
		return r;
	for (char *l = strtok_r(text, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		const char *v = l + strspn(l, " \t");
		size_t n;

		if (strncmp(v, "InitiatorName=", 14) != 0)
			continue;
		v += 14;
		n = strcspn(v, " \t\r");
		if (!n || v[n] || n >= size)
			return -EBADMSG;
		memcpy(buf, v, n + 1);
		return 0;
	}
	return -ENOENT;
}

/*
 * Whether open-iscsi's node record of the session (NODES/TARGET/ADDR,PORT,
 * TPGT/default) says CHAP: 1, 0, or -errno when it cannot be read.
 */
static int iscsi_node_chap(const struct devchain_iscsi *is)
{
	_cleanup_free_ char *text = NULL;
	char p[PATH_MAX];
	char *save = NULL;
	int r;

	if (path_format(p, sizeof(p), "%s/%s/%s,%u,%u/default",
			ISCSI_NODES_DIR, is->target, is->addr, is->port,
			is->tpgt) < 0)
		return -ENAMETOOLONG;
	r = read_file_max(p, &text, 1 << 20);
	if (r < 0)
		return r;
	for (char *l = strtok_r(text, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		char key[64], value[32];

		if (sscanf(l, " %63[^= ] = %31s", key, value) == 2 &&
		    (strcmp(key, "node.session.auth.authmethod") == 0 ||
		     strcmp(key, "discovery.sendtargets.auth.authmethod") == 0) &&
		    strcmp(value, "CHAP") == 0)
			return 1;
	}
	return 0;
}

int plan_iscsi(struct plan *p, struct modload *km, const char *what)
{
	_cleanup_free_ struct devchain *nic = NULL;
	struct devchain_iscsi *is = &p->chain.iscsis[0];
	char host[96], link[2048];
	struct net_paths np;
	struct net_ip a;
	size_t tl;
	int r;

	if (!p->chain.n_iscsis)
		return 0;
	if (!is->initiator[0]) {
		r = iscsi_initiator_file(ISCSI_INITIATOR_FILE, is->initiator,
					 sizeof(is->initiator));
		if (r < 0)
			return diag_fail(&p->diag, r,
					 "cannot use dump target %s for the capture: it is on iSCSI %s (target %s), whose initiator name neither sysfs nor %s gives (%s): the capture logs in with that name; set InitiatorName= there",
					 what, is->session, is->target,
					 ISCSI_INITIATOR_FILE,
					 r == -ENOENT ? "no InitiatorName=" : strerror(-r));
	}
	r = iscsi_node_chap(is);
	if (r > 0)
		return diag_fail(&p->diag, -EMEDIUMTYPE,
				 "cannot use dump target %s for the capture: it is on iSCSI %s (target %s), which logs in with CHAP, and the capture would have to carry the CHAP secret in its initramfs: allow this initiator (%s) without CHAP on the target, or set 'path' or 'target' to a filesystem on a local disk in %s",
				 what, is->session, is->target, is->initiator,
				 p->config);
	if (net_ip_parse(is->addr, &a) < 0)
		return diag_fail(&p->diag, -EINVAL,
				 "cannot use dump target %s for the capture: iSCSI target %s has portal address %s, which is not an IP address",
				 what, is->target, is->addr);
	snprintf(host, sizeof(host), "iSCSI portal %s", is->addr);
	net_paths_init(&np);
	r = net_resolve_addr(&np, host, &a, &p->iscsi_net, &p->diag);
	if (r < 0) {
		diag_prefix(&p->diag,
			    "cannot use dump target %s on iSCSI target %s",
			    what, is->target);
		return r;
	}
	nic = calloc(1, sizeof(*nic));
	if (!nic)
		return -ENOMEM;
	r = plan_net_drivers(p, &p->iscsi_net, NULL, km, what, host, nic);
	if (r < 0)
		return r;
	r = devchain_merge(&p->chain, nic);
	if (r < 0)
		return diag_fail(&p->diag, r,
				 "the capture would need more than %d modules for dump target %s and the way to iSCSI portal %s",
				 DEVCHAIN_MAX, what, is->addr);
	r = net_link_format(&p->iscsi_net, link, sizeof(link));
	tl = strlen(p->chain_text);
	if (r < 0 || tl + strlen(link) >= sizeof(p->chain_text))
		return diag_fail(&p->diag, -ENOBUFS,
				 "the capture's chain for dump target %s is longer than %zu bytes",
				 what, sizeof(p->chain_text) - 1);
	memcpy(p->chain_text + tl, link, strlen(link) + 1);
	p->iscsi_known = true;
	return 0;
}
