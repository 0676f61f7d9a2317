// SPDX-License-Identifier: GPL-2.0
/*
 * show: the effective configuration, and what the plan would load.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hotplug-state.h"
#include "json.h"
#include "netplan.h"
#include "util.h"

/* The pstore and watchdog lines of show. */
static void show_helpers(const struct plan *p)
{
	char state[32] = "", timeout[32] = "";

	if (p->pstore[0])
		printf("pstore:      %s: a failed capture's reason is kept in %s for the next boot\n",
		       p->pstore, p->pstore_ram ?
		       "RAM (ramoops, its layout passed on the command line)" :
		       "EFI variables");
	else
		printf("pstore:      none: a failed capture's reason is kept only next to the dump, when the target is reachable\n");
	if (!p->watchdog[0]) {
		printf("watchdog:    none: a capture that hangs outside capture_timeout's reach (before /init) is not reset\n");
		return;
	}
	(void)read_line_file(SYS_WATCHDOG "/state", state, sizeof(state));
	(void)read_line_file(SYS_WATCHDOG "/timeout", timeout, sizeof(timeout));
	printf("watchdog:    %s: the capture arms it for capture_timeout + %d s\n",
	       p->watchdog, CAPTURE_WATCHDOG_MARGIN);
	if (strcmp(state, "active") == 0)
		printf("watchdog:    active in this system (timeout %s s): it also resets a capture kernel that hangs before the capture starts\n",
		       timeout);
	else
		printf("watchdog:    not active in this system: a capture kernel that hangs before the capture starts is not reset (set RuntimeWatchdogSec= in /etc/systemd/system.conf)\n");
}

/*
 * The makedumpfile command lines the capture runs: the kernel log's into
 * dmesg, the vmcore's into vmcore ("" for dump_level = dmesg), with the
 * dump directory named as this system sees it; both buffers of size.
 */
static void show_makedumpfile(const struct plan *p, char *dmesg, char *vmcore,
			      size_t size)
{
	static struct conf_makedumpfile_cmd cmd;
	static struct kdump_conf c;
	char dir[PATH_MAX + 16], out[PATH_MAX + 48];
	size_t pos = 0;

	/* The threads come on the command line, not in the capture's copy. */
	c = p->capture;
	(void)conf_threads_set(&c, p->threads.threads);

	snprintf(dir, sizeof(dir), "%s/<time>",
		 strcmp(p->conf.path, "/") ? p->conf.path : "");
	if (p->conf.net == CONF_NET_NFS)
		snprintf(dir, sizeof(dir), "%s:%s/%s/<time>", p->conf.net_host,
			 p->conf.net_path, p->net.hostdir);
	vmcore[0] = '\0';
	if (p->conf.net == CONF_NET_SSH) {
		/* Saved locally, then sent; the vmcore streamed. */
		snprintf(dmesg, size, "makedumpfile --dump-dmesg /proc/vmcore <file>, sent to %s@%s (ssh: dmesg <time>)",
			 p->conf.net_user, p->conf.net_host);
		if (p->capture.dmesg_only ||
		    conf_makedumpfile_cmd(&c, "/proc/vmcore", NULL,
					  "/tmp", &cmd) < 0)
			return;
		for (char **a = cmd.argv; *a && pos < size; a++)
			pos += snprintf(vmcore + pos, size - pos, "%s%s",
					a == cmd.argv ? "" : " ", *a);
		if (pos < size)
			snprintf(vmcore + pos, size - pos, " | ssh %s@%s vmcore <time> (into %s/%s/<time>)",
				 p->conf.net_user, p->conf.net_host,
				 p->conf.net_path, p->net.hostdir);
		return;
	}
	if (p->conf.raw[0]) {
		snprintf(dmesg, size, "makedumpfile --dump-dmesg /proc/vmcore <file>, copied to raw device %s",
			 p->conf.raw);
	} else {
		snprintf(dmesg, size, "makedumpfile --dump-dmesg /proc/vmcore %s/dmesg.txt",
			 dir);
	}
	if (p->capture.dmesg_only)
		return;
	snprintf(out, sizeof(out), "%s/vmcore-incomplete", dir);
	if (conf_makedumpfile_cmd(&c, "/proc/vmcore",
				  p->conf.raw[0] ? NULL : out, dir, &cmd) < 0)
		return;
	for (char **a = cmd.argv; *a && pos < size; a++)
		pos += snprintf(vmcore + pos, size - pos, "%s%s",
				a == cmd.argv ? "" : " ", *a);
	if (p->conf.raw[0] && pos < size)
		snprintf(vmcore + pos, size - pos, " > raw device %s",
			 p->conf.raw);
}

/* show: where a network target's dumps go, and how the capture gets there. */
static void show_net(const struct plan *p)
{
	char a[NET_IP_TEXT], g[NET_IP_TEXT], path[1024];

	if (p->conf.net == CONF_NET_NONE)
		return;
	printf("target:      %s\n", p->conf.target);
	printf("collector:   %s (%s)", net_ip_text(&p->net.collector, false,
					       a, sizeof(a)),
	       p->conf.net_host);
	if (p->conf.net == CONF_NET_SSH)
		printf(", ssh port %u as %s\n", p->conf.net_port,
		       p->conf.net_user);
	else
		printf(", NFSv%u export %s\n", p->conf.nfs_version,
		       p->conf.net_path);
	net_links_describe(&p->net.links, path, sizeof(path));
	printf("interface:   %s (%s)\nlinks:       %s\naddress:     %s/%u\n",
	       p->net.ifname, p->net.mac, path,
	       net_ip_text(&p->net.addr, false, a, sizeof(a)), p->net.prefix);
	if (p->net.gateway.family)
		printf("gateway:     %s\n",
		       net_ip_text(&p->net.gateway, false, g, sizeof(g)));
	else
		printf("gateway:     none: the collector is on-link\n");
	printf("host dir:    %s\n", p->net.hostdir);
	if (p->conf.fallback[0])
		printf("fallback:    %s (%s, %s), when the network fails before the dump goes out\n",
		       p->conf.fallback, p->fallback_spec,
		       p->fallback_rel[0] ? p->fallback_rel : "/");
	else
		printf("fallback:    none: a crash when the collector cannot be reached is not saved\n");
}

/*
 * "links" of a network path into o: "nics" (interface, mac, driver,
 * device), "bond" (name, mode, miimon_ms, mac) and "vlan" (name, id) or
 * null, "bridge_left_out" or null, "mtu".
 */
static int links_json(const struct net_links *l, struct json_object *o)
{
	struct json_object *j = json_object_new_object(), *nics, *x;
	int r = j ? 0 : -ENOMEM;

	nics = r == 0 ? json_object_new_array() : NULL;
	if (r == 0 && (!nics || json_object_object_add(j, "nics", nics))) {
		json_object_put(nics);
		r = -ENOMEM;
	}
	for (unsigned int i = 0; r == 0 && i < l->n_nics; i++) {
		x = json_object_new_object();
		if (!x || json_object_array_add(nics, x)) {
			json_object_put(x);
			r = -ENOMEM;
			break;
		}
		r = json_set_text(x, "interface", l->nics[i].ifname);
		if (r == 0)
			r = json_set_text(x, "mac", l->nics[i].mac);
		if (r == 0)
			r = cli_json_text(x, "driver", strcmp(l->nics[i].driver, "-") ?
					  l->nics[i].driver : NULL);
		if (r == 0)
			r = cli_json_text(x, "device", strcmp(l->nics[i].devpath, "-") ?
					  l->nics[i].devpath : NULL);
	}
	x = NULL;
	if (r == 0 && l->bond[0]) {
		x = json_object_new_object();
		r = x ? json_set_text(x, "name", l->bond) : -ENOMEM;
		if (r == 0)
			r = json_set_text(x, "mode", l->bond_mode);
		if (r == 0)
			r = json_set_int(x, "miimon_ms", l->bond_miimon);
		if (r == 0)
			r = json_set_text(x, "mac", l->bond_mac);
	}
	if (r == 0 && json_object_object_add(j, "bond", x))
		r = -ENOMEM;
	else if (r == 0)
		x = NULL;
	json_object_put(x);
	x = NULL;
	if (r == 0 && l->vlan_id) {
		x = json_object_new_object();
		r = x ? json_set_text(x, "name", l->vlan) : -ENOMEM;
		if (r == 0)
			r = json_set_int(x, "id", l->vlan_id);
	}
	if (r == 0 && json_object_object_add(j, "vlan", x))
		r = -ENOMEM;
	else if (r == 0)
		x = NULL;
	json_object_put(x);
	if (r == 0)
		r = cli_json_text(j, "bridge_left_out", l->bridge[0] ? l->bridge : NULL);
	if (r == 0)
		r = json_set_int(j, "mtu", l->mtu);
	if (r == 0 && json_object_object_add(o, "links", j))
		r = -ENOMEM;
	if (r < 0)
		json_object_put(j);
	return r;
}

/* show --json: the network target, null for a local one. */
static int show_net_json(const struct plan *p, struct json_object *j)
{
	char a[NET_IP_TEXT];
	struct json_object *n;
	int r;

	if (p->conf.net == CONF_NET_NONE || !p->net_known)
		return json_object_object_add(j, "network", NULL) ? -ENOMEM : 0;
	n = json_object_new_object();
	r = n ? 0 : -ENOMEM;
	if (r == 0)
		r = json_set_text(n, "kind", conf_net_to_string(p->conf.net));
	if (r == 0)
		r = json_set_text(n, "url", p->conf.target);
	if (r == 0)
		r = json_set_text(n, "host", p->conf.net_host);
	if (r == 0)
		r = json_set_text(n, "collector",
				  net_ip_text(&p->net.collector, false, a,
					      sizeof(a)));
	if (r == 0)
		r = cli_json_text(n, "user", p->conf.net == CONF_NET_SSH ?
				  p->conf.net_user : NULL);
	if (r == 0)
		r = cli_json_int(n, "port", p->conf.net == CONF_NET_SSH ?
				 (long long)p->conf.net_port : -1);
	if (r == 0)
		r = cli_json_int(n, "nfs_version", p->conf.net == CONF_NET_NFS ?
				 (long long)p->conf.nfs_version : -1);
	if (r == 0)
		r = json_set_text(n, "path", p->conf.net_path);
	if (r == 0)
		r = json_set_text(n, "interface", p->net.ifname);
	if (r == 0)
		r = json_set_text(n, "mac", p->net.mac);
	if (r == 0) {
		char addr[NET_IP_TEXT + 8];

		snprintf(addr, sizeof(addr), "%s/%u",
			 net_ip_text(&p->net.addr, false, a, sizeof(a)),
			 p->net.prefix);
		r = json_set_text(n, "address", addr);
	}
	/* null: the collector is on-link. */
	if (r == 0)
		r = cli_json_text(n, "gateway", p->net.gateway.family ?
				  net_ip_text(&p->net.gateway, false, a,
					      sizeof(a)) : NULL);
	if (r == 0)
		r = links_json(&p->net.links, n);
	if (r == 0)
		r = json_set_text(n, "host_dir", p->net.hostdir);
	if (r == 0)
		r = cli_json_text(n, "fallback", p->conf.fallback);
	if (r == 0)
		r = cli_json_text(n, "fallback_target", p->fallback_spec);
	if (r == 0)
		r = cli_json_text(n, "fallback_path", p->fallback_spec[0] ?
				  (p->fallback_rel[0] ? p->fallback_rel : "/") :
				  NULL);
	if (r < 0) {
		json_object_put(n);
		return r;
	}
	return cli_json_add(j, "network", n);
}

/* How the capture unlocks a LUKS device, as show says it. */
static void show_crypt(const struct devchain_crypt *cr)
{
	char kdf[48];

	if (cr->key == DEVCHAIN_KEY_KERNEL) {
		printf("unlock %s device %s as %s with the volume key the kernel hands over (no key file, no key derivation)\n",
		       cr->type, cr->uuid, cr->name);
		return;
	}
	if (cr->kdf_memory_kb)
		snprintf(kdf, sizeof(kdf), "%s %u MiB", cr->pbkdf,
			 cr->kdf_memory_kb / 1024);
	else
		snprintf(kdf, sizeof(kdf), "%s", cr->pbkdf);
	printf("unlock %s device %s as %s with key file %s (key slot %d, %s, read in place on %s UUID=%s)\n",
	       cr->type, cr->uuid, cr->name, cr->key_file, cr->key_slot, kdf,
	       cr->key_fs_type, cr->key_fs_uuid);
}

/* One LUKS device of "luks_devices" into o. */
static int crypt_json(const struct plan *p, unsigned int i,
		      struct json_object *o)
{
	const struct devchain_crypt *cr = &p->chain.crypts[i];
	bool file = cr->key == DEVCHAIN_KEY_FILE;
	int r;

	r = json_set_text(o, "uuid", cr->uuid);
	if (r == 0)
		r = json_set_text(o, "type", cr->type);
	if (r == 0)
		r = json_set_text(o, "name", cr->name);
	if (r == 0)
		r = json_set_text(o, "key", file ? "key_file" : "kernel");
	if (r == 0 && file)
		r = json_set_text(o, "key_file", cr->key_file);
	if (r == 0 && file)
		r = json_set_int(o, "key_slot", cr->key_slot);
	if (r == 0 && file)
		r = json_set_text(o, "pbkdf", cr->pbkdf);
	if (r == 0 && file)
		r = json_set_int(o, "kdf_memory_kib", cr->kdf_memory_kb);
	if (r == 0 && file)
		r = json_set_text(o, "key_filesystem_uuid", cr->key_fs_uuid);
	return r;
}

/* One md array of "md_arrays" into o. */
static int md_json(const struct plan *p, unsigned int i, struct json_object *o)
{
	const struct devchain_md *md = &p->chain.mds[i];
	int r;

	r = json_set_text(o, "uuid", md->uuid);
	if (r == 0)
		r = json_set_text(o, "device", md->name);
	if (r == 0)
		r = json_set_text(o, "level", md->level);
	if (r == 0)
		r = json_set_int(o, "raid_disks", md->raid_disks);
	if (r == 0)
		r = json_set_int(o, "members_now", md->n_members);
	if (r == 0)
		r = json_set_text(o, "members", md->members);
	return r;
}

/* One iSCSI session of "iscsi_sessions" into o, with the way to it. */
static int iscsi_json(const struct plan *p, unsigned int i,
		      struct json_object *o)
{
	const struct devchain_iscsi *is = &p->chain.iscsis[i];
	const struct net_plan *n = &p->iscsi_net;
	char a[NET_IP_TEXT], g[NET_IP_TEXT];
	int r;

	r = json_set_text(o, "session", is->session);
	if (r == 0)
		r = json_set_text(o, "target", is->target);
	if (r == 0)
		r = json_set_text(o, "initiator", is->initiator);
	if (r == 0)
		r = json_set_text(o, "address", is->addr);
	if (r == 0)
		r = json_set_int(o, "port", is->port);
	if (r == 0)
		r = json_set_int(o, "tpgt", is->tpgt);
	if (r == 0)
		r = json_set_text(o, "disks", is->disks);
	if (r == 0)
		r = json_set_text(o, "interface", n->ifname);
	if (r == 0)
		r = json_set_text(o, "mac", n->mac);
	if (r == 0)
		r = json_set_text(o, "local_address",
				  net_ip_text(&n->addr, false, a, sizeof(a)));
	if (r == 0)
		r = json_set_int(o, "prefix", n->prefix);
	if (r == 0)
		r = cli_json_text(o, "gateway", n->gateway.family ?
				  net_ip_text(&n->gateway, false, g, sizeof(g)) :
				  NULL);
	if (r == 0)
		r = links_json(&n->links, o);
	return r;
}

/* One multipath device of "multipath_devices" into o. */
static int mpath_json(const struct plan *p, unsigned int i,
		      struct json_object *o)
{
	const struct devchain_mpath *mp = &p->chain.mpaths[i];
	int r;

	r = json_set_text(o, "name", mp->name);
	if (r == 0)
		r = json_set_text(o, "uuid", mp->uuid);
	if (r == 0)
		r = json_set_text(o, "wwid", mp->wwid);
	if (r == 0)
		r = json_set_int(o, "sectors", (long long)mp->sectors);
	if (r == 0)
		r = json_set_int(o, "paths_now", mp->n_paths);
	if (r == 0)
		r = json_set_text(o, "paths", mp->paths);
	return r;
}

/*
 * show --json: key, an array of n objects of the chain's layers
 * (multipath devices, md arrays, LUKS devices), each filled by one();
 * empty when the chain is not known.
 */
static int layers_json(const struct plan *p, struct json_object *j,
		       const char *key, unsigned int n,
		       int (*one)(const struct plan *, unsigned int,
				  struct json_object *))
{
	struct json_object *a = json_object_new_array();
	int r = a ? 0 : -ENOMEM;

	for (unsigned int i = 0; p->chain_known && i < n && r == 0; i++) {
		struct json_object *o = json_object_new_object();

		r = o ? one(p, i, o) : -ENOMEM;
		if (r == 0)
			r = json_object_array_add(a, o) ? -ENOMEM : 0;
		else
			json_object_put(o);
	}
	if (r < 0) {
		json_object_put(a);
		return r;
	}
	return cli_json_add(j, key, a);
}

/* show --json: the plan as one object. */
static int show_json(struct cli *cli, const struct plan *p,
		     const struct plan_problems *pp)
{
	struct json_object *j = cli_json_object();
	struct json_object *cc = json_object_new_object();
	struct json_object *mods = json_object_new_array();
	struct json_object *lvs = json_object_new_array();
	struct json_object *probs = json_object_new_array();
	char text[sizeof(p->capture_conf_text)];
	char mdf_dmesg[CONF_VALUE_MAX + PATH_MAX], mdf_vmcore[CONF_VALUE_MAX + PATH_MAX];
	int r = j && cc && mods && lvs && probs ? 0 : -ENOMEM;

	show_makedumpfile(p, mdf_dmesg, mdf_vmcore, sizeof(mdf_vmcore));
	if (r == 0)
		r = json_set_text(j, "config", cli->opt.config);
	if (r == 0)
		r = json_set_text(j, "makedumpfile_dmesg", mdf_dmesg);
	/* null for dump_level = dmesg: no vmcore. */
	if (r == 0)
		r = cli_json_text(j, "makedumpfile", mdf_vmcore);
	if (r == 0)
		r = json_set_text(j, "kernel", p->kernel);
	if (r == 0)
		r = json_set_text(j, "initramfs", p->initramfs);
	if (r == 0)
		r = json_set_text(j, "initramfs_state", plan_initramfs_state(p));
	if (r == 0)
		r = json_set_text(j, "cmdline", p->cmdline);
	/* The capture's configuration, as written: "key = value" lines. */
	snprintf(text, sizeof(text), "%s", p->capture_conf_text);
	for (char *l = strtok(text, "\n"); l && r == 0; l = strtok(NULL, "\n")) {
		char *eq = strstr(l, " = ");

		if (!eq)
			continue;
		*eq = '\0';
		r = json_set_text(cc, l, eq + 3);
	}
	if (r == 0) {
		struct json_object *a = cli_panic_on_json(p->conf.panic_on);

		r = a && !json_object_object_add(j, "panic_on", a) ? 0 : -ENOMEM;
		if (r < 0)
			json_object_put(a);
	}
	if (r == 0)
		r = cli_json_text(j, "pstore", p->pstore);
	if (r == 0)
		r = cli_json_text(j, "watchdog", p->watchdog);
	if (r == 0)
		r = hotplug_report(j, 12);
	if (r == 0)
		r = show_net_json(p, j);
	if (r == 0)
		r = json_set_bool(j, "chain_known", p->chain_known);
	if (r == 0)
		r = layers_json(p, j, "iscsi_sessions",
				p->iscsi_known ? p->chain.n_iscsis : 0,
				iscsi_json);
	if (r == 0)
		r = layers_json(p, j, "multipath_devices", p->chain.n_mpaths,
				mpath_json);
	if (r == 0)
		r = layers_json(p, j, "md_arrays", p->chain.n_mds, md_json);
	if (r == 0)
		r = layers_json(p, j, "luks_devices", p->chain.n_crypts,
				crypt_json);
	if (r == 0)
		r = json_set_int(j, "plan_modules", p->modplan_count);
	for (unsigned int i = 0; p->chain_known && i < p->chain.n && r == 0; i++) {
		const struct devchain_module *m = &p->chain.mods[i];
		struct json_object *o;

		if (m->state != MODLOAD_MODULE && m->state != MODLOAD_BUILTIN)
			continue;
		o = json_object_new_object();
		r = o ? 0 : -ENOMEM;
		if (r == 0)
			r = json_set_text(o, "name", m->name);
		if (r == 0)
			r = json_set_bool(o, "builtin", m->state == MODLOAD_BUILTIN);
		if (r == 0)
			r = json_set_text(o, "reason", m->reason);
		if (r == 0)
			r = json_set_text(o, "deps", m->deps);
		if (r == 0)
			r = json_object_array_add(mods, o) ? -ENOMEM : 0;
		else
			json_object_put(o);
	}
	for (unsigned int i = 0; p->chain_known && i < p->chain.n_lvs && r == 0; i++)
		r = json_object_array_add(lvs, json_text(p->chain.lvs[i])) ? -ENOMEM : 0;
	/* What would stop the load: [] when it would go ahead. */
	for (unsigned int i = 0; i < pp->n && i < PLAN_PROBLEMS_MAX && r == 0; i++)
		r = json_object_array_add(probs, json_text(pp->text[i])) ? -ENOMEM : 0;
	if (r == 0)
		r = json_set_bool(j, "loadable", pp->n == 0);
	if (r == 0) {
		json_object_object_add(j, "capture_config", cc);
		json_object_object_add(j, "modules", mods);
		json_object_object_add(j, "lvm_volumes", lvs);
		json_object_object_add(j, "problems", probs);
		return print_json(j);
	}
	json_object_put(probs);
	json_object_put(cc);
	json_object_put(mods);
	json_object_put(lvs);
	json_object_put(j);
	return r;
}

/* The plan as show prints it. */
static void show_text(struct cli *cli, const struct plan *p)
{
	printf("# configuration: %s\n", cli->opt.config);
	printf("kernel:      %s\ninitramfs:   %s (%s)\ncmdline:     %s\n", p->kernel,
	       p->initramfs, plan_initramfs_state(p), p->cmdline);
	{
		char dmesg[CONF_VALUE_MAX + PATH_MAX], vmcore[CONF_VALUE_MAX + PATH_MAX];

		show_makedumpfile(p, dmesg, vmcore, sizeof(vmcore));
		printf("dmesg:       %s\n", dmesg);
		if (vmcore[0])
			printf("vmcore:      %s\n", vmcore);
		else
			printf("vmcore:      none: dump_level = dmesg saves the kernel log alone\n");
		if (estimate_threads_text(&p->threads, vmcore,
					  sizeof(vmcore)) == 0)
			printf("threads:     %s\n", vmcore);
	}
	show_net(p);
	printf("# as the capture kernel sees it:\n%s", p->capture_conf_text);
	{
		char words[128];

		if (conf_panic_on_format(p->conf.panic_on, words, sizeof(words)) == 0)
			printf("panic_on:    %s (this kernel's sysctls, set by load: see status)\n",
			       words);
	}
	show_helpers(p);
	(void)hotplug_report(NULL, 12);
	if (p->conf.extra_modules[0])
		printf("# the capture loads extra_modules first: %s\n",
		       p->conf.extra_modules);
	if (p->extra_files[0])
		printf("# hooks and extra binaries packed into the capture initramfs: %s\n",
		       p->extra_files);
	printf("# module plan: %u modules in the capture initramfs (the chain's, the helpers', extra_modules, the drivers of every disk%s, with what they need)\n",
	       p->modplan_count, p->conf.net == CONF_NET_NONE ? "" : " and NIC");
	if (!p->chain_known) {
		printf("# the capture loads the drivers of the devices it finds\n");
		return;
	}
	printf("# the capture loads these for dump target %s, in this order, then the drivers of any device still without one:\n",
	       p->chain_what);
	for (unsigned int i = 0; i < p->chain.n; i++) {
		const struct devchain_module *m = &p->chain.mods[i];

		if (m->state != MODLOAD_MODULE)
			continue;
		printf("module %-16s %s%s%s%s\n", m->name, m->reason,
		       m->deps[0] ? " (with " : "", m->deps,
		       m->deps[0] ? ")" : "");
	}
	for (unsigned int i = 0; i < p->chain.n; i++)
		if (p->chain.mods[i].state == MODLOAD_BUILTIN)
			printf("built-in %-14s %s\n", p->chain.mods[i].name,
			       p->chain.mods[i].reason);
	for (unsigned int i = 0; p->iscsi_known && i < p->chain.n_iscsis; i++) {
		const struct devchain_iscsi *is = &p->chain.iscsis[i];
		const struct net_plan *n = &p->iscsi_net;
		char a[NET_IP_TEXT], g[NET_IP_TEXT], path[1024];

		net_links_describe(&n->links, path, sizeof(path));
		printf("bring up %s (%s now, MAC %s) as %s/%u, %s%s\n", path,
		       n->ifname, n->mac,
		       net_ip_text(&n->addr, false, a, sizeof(a)), n->prefix,
		       n->gateway.family ? "a route to the portal via " :
		       "the portal on-link",
		       n->gateway.family ?
		       net_ip_text(&n->gateway, false, g, sizeof(g)) : "");
		printf("log in to iSCSI target %s at %s:%u (portal group %u) as %s with iscsistart, for %s\n",
		       is->target, is->addr, is->port, is->tpgt,
		       is->initiator, is->disks);
	}
	for (unsigned int i = 0; i < p->chain.n_mpaths; i++) {
		const struct devchain_mpath *mp = &p->chain.mpaths[i];

		printf("make multipath device %s (%s) over the readable paths of WWID %s (%u now: %s), round-robin\n",
		       mp->name, mp->uuid, mp->wwid, mp->n_paths, mp->paths);
	}
	for (unsigned int i = 0; i < p->chain.n_mds; i++) {
		const struct devchain_md *md = &p->chain.mds[i];

		printf("assemble md RAID array %s (%s, %u of %u members now: %s)\n",
		       md->uuid, md->level, md->n_members, md->raid_disks,
		       md->members[0] ? md->members : "none");
	}
	for (unsigned int i = 0; i < p->chain.n_crypts; i++)
		show_crypt(&p->chain.crypts[i]);
	for (unsigned int i = 0; i < p->chain.n_lvs; i++)
		printf("activate LVM volume %s\n", p->chain.lvs[i]);
}

/*
 * What would stop a load of the plan shown, one line each, after the
 * plan: show exits 1 when load would fail.
 */
static int show_problems(struct cli *cli, const struct plan_problems *pp)
{
	for (unsigned int i = 0; i < pp->n && i < PLAN_PROBLEMS_MAX; i++)
		log_error(cli, "%s", pp->text[i]);
	if (pp->n > PLAN_PROBLEMS_MAX)
		log_error(cli, "and %u more problems", pp->n - PLAN_PROBLEMS_MAX);
	return pp->n ? EXIT_FAILURE : 0;
}

int verb_show(struct cli *cli, int argc _unused_, char *argv[] _unused_)
{
	struct plan_problems pp;
	struct plan *p;
	int r;

	r = make_plan(cli, false, &p);
	if (r < 0)
		return r;
	(void)plan_check(p, &pp);
	if (cli->opt.json) {
		r = show_json(cli, p, &pp);
		return r < 0 ? r : show_problems(cli, &pp);
	}
	show_text(cli, p);
	return show_problems(cli, &pp);
}
