// SPDX-License-Identifier: GPL-2.0
/*
 * plan_make()'s part for a network target (see plan.h): the route and
 * interface to the collector (netplan.h), the drivers on the way, the
 * fallback directory, the files the fingerprint covers.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>

#include "netplan.h"
#include "plan.h"
#include "plan-internal.h"
#include "target-mount.h"
#include "util.h"

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
	r = devchain_merge(&p->chain, c);
	if (r < 0)
		(void)diag_fail(&p->diag, r,
				"the capture would need more than %d modules for the network and fallback directory %s",
				DEVCHAIN_MAX, p->conf.fallback);
	return r;
}

/* The NIC's drivers and NFS's module, for the capture kernel. */
static int plan_net_chain(struct plan *p, const struct net_paths *np,
			  struct modload *km)
{
	const char *nfs = p->conf.net != CONF_NET_NFS ? NULL :
			  p->conf.nfs_version == 3 ? "nfsv3" : "nfsv4";
	int r;

	r = devchain_resolve_net(np->sysfs, p->net.ifname, nfs, km, &p->chain);
	if (r == -ENOENT)
		return diag_fail(&p->diag, r,
				 "cannot use dump target %s: the route to %s goes through %s, a virtual interface (no device: a tap, veth or dummy), which the capture cannot bring up: route the collector through a physical Ethernet interface, or set a local 'target' in %s",
				 p->conf.target, p->conf.net_host,
				 p->net.ifname, p->config);
	if (r == -ENOPKG)
		return diag_fail(&p->diag, r,
				 "cannot use dump target %s for the capture: kernel %s has no module %s: install that kernel's modules or set 'kernel' in %s",
				 p->conf.target, p->release, p->chain.layer,
				 p->config);
	if (r < 0)
		return diag_fail(&p->diag, r,
				 "cannot resolve the drivers of interface %s: %s",
				 p->net.ifname, strerror(-r));
	return 0;
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
	r = plan_net_chain(p, &np, km);
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
