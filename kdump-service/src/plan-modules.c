// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel modules of the load plan (see plan-internal.h): the capture
 * kernel's module index, the chain's modules as the capture reads them,
 * the module plan (modules.json) resolved here with libkmod so that the
 * capture needs none, the helpers the capture loads besides the target's
 * drivers (the pstore backend, the hardware watchdog's driver) and the
 * user's extra_modules.
 */
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "modplan.h"
#include "plan.h"
#include "plan-internal.h"
#include "util.h"

int plan_modload(struct plan *p, struct modload **ret)
{
	char moddir[PATH_MAX];
	int r;

	r = path_format(moddir, sizeof(moddir), "/lib/modules/%s",
			p->release);
	if (r >= 0)
		r = modload_new(moddir, ret);
	if (r < 0)
		(void)diag_fail(&p->diag, r,
				"cannot read the kernel modules of %s: %s",
				moddir, strerror(-r));
	return r;
}

/*
 * The chain's module and volume lines after what chain_text holds, and
 * its modules for dracut.
 */
int plan_chain_text(struct plan *p)
{
	size_t pos = 0, tl = strlen(p->chain_text);
	int r;

	r = devchain_format(&p->chain, p->chain_text + tl,
			    sizeof(p->chain_text) - tl);
	if (r < 0)
		return r;
	for (unsigned int i = 0; i < p->chain.n; i++) {
		int n;

		if (p->chain.mods[i].state != MODLOAD_MODULE)
			continue;
		n = snprintf(p->chain_drivers + pos,
			     sizeof(p->chain_drivers) - pos, "%s%s",
			     pos ? " " : "", p->chain.mods[i].name);
		if (n < 0 || (size_t)n >= sizeof(p->chain_drivers) - pos)
			return -ENOBUFS;
		pos += n;
	}
	return 0;
}

unsigned long long plan_modules_bytes(const struct plan *p)
{
	return p->modplan_bytes;
}

int plan_modplan_text(struct plan *p, char **ret)
{
	const char *names[1024];
	char words[sizeof(p->modplan_names)], moddir[PATH_MAX], bad[64] = "";
	struct modload *km;
	unsigned int n = 0;
	char *save = NULL;
	int r;

	snprintf(words, sizeof(words), "%s", p->modplan_names);
	for (char *w = strtok_r(words, " ", &save); w && n < 1024;
	     w = strtok_r(NULL, " ", &save))
		names[n++] = w;
	snprintf(moddir, sizeof(moddir), "/lib/modules/%s", p->release);
	r = modload_new(moddir, &km);
	if (r < 0)
		return diag_fail(&p->diag, r,
				 "cannot read the kernel modules of %s: %s",
				 moddir, strerror(-r));
	r = modload_plan(km, p->release, names, n, ret, bad, sizeof(bad));
	modload_free(km);
	if (r == -ENOEXEC)
		(void)diag_fail(&p->diag, r,
				"cannot use module %s of kernel %s: its file in %s is compressed, and the capture inserts modules as they are (install that kernel's modules uncompressed)",
				bad, p->release, moddir);
	else if (r < 0)
		(void)diag_fail(&p->diag, r,
				"cannot resolve the modules of kernel %s for the capture: %s",
				p->release, strerror(-r));
	return r;
}

/*
 * The module plan: what the capture may load, resolved here with libkmod
 * so that the capture needs none.  Besides the chain's modules, the
 * helpers and extra_modules, the drivers bound now to every disk (and
 * NIC, for a network target): what the coldplug rounds may need when the
 * target's own chain does not bring it up.
 */
int plan_modules(struct plan *p)
{
	char bound[4096], moddir[PATH_MAX];
	struct modplan *mp = NULL;
	size_t dl = 0;
	char *text = NULL;
	int r;

	r = devchain_bound_drivers("/sys", p->conf.net != CONF_NET_NONE, bound,
				   sizeof(bound));
	if (r < 0)
		diag_warn(&p->diag,
			  "cannot list the drivers of every disk: %s: the capture finds the target with its own drivers only",
			  strerror(-r));
	if (snprintf(p->modplan_names, sizeof(p->modplan_names), "%s%s%s",
		     p->chain_drivers, p->chain_drivers[0] ? " " : "",
		     bound) >= (int)sizeof(p->modplan_names))
		return diag_fail(&p->diag, -ENOBUFS,
				 "the modules of kernel %s for the capture are too many to name",
				 p->release);
	r = plan_modplan_text(p, &text);
	if (r < 0)
		return r;
	r = modplan_parse(text, strlen(text), &mp);
	if (r < 0) {
		(void)diag_fail(&p->diag, r,
				"cannot read back the module plan of kernel %s: %s",
				p->release, strerror(-r));
		free(text);
		return r;
	}
	snprintf(moddir, sizeof(moddir), "/lib/modules/%s", p->release);
	p->modplan_count = modplan_count(mp);
	for (unsigned int i = 0; i < p->modplan_count && r == 0; i++) {
		char path[PATH_MAX + 1024];
		struct stat st;
		int n;

		n = snprintf(p->modplan_drivers + dl,
			     sizeof(p->modplan_drivers) - dl, "%s%s",
			     dl ? " " : "", modplan_name(mp, i));
		if (n < 0 || (size_t)n >= sizeof(p->modplan_drivers) - dl)
			r = -ENOBUFS;
		else
			dl += n;
		snprintf(path, sizeof(path), "%s/%s", moddir, modplan_path(mp, i));
		if (stat(path, &st) == 0)
			p->modplan_bytes += st.st_size;
	}
	snprintf(p->modplan_id, sizeof(p->modplan_id),
		 "modules.json: %u modules, %zu bytes, crc32 %08lx\n",
		 p->modplan_count, strlen(text),
		 crc32(crc32(0L, Z_NULL, 0), (const Bytef *)text,
		       (uInt)strlen(text)));
	modplan_free(mp);
	free(text);
	if (r < 0)
		(void)diag_fail(&p->diag, r,
				"the modules of kernel %s for the capture are too many to name",
				p->release);
	return r;
}

/* Append "kind name" to the chain and a module to dracut's drivers. */
static int plan_helper(struct plan *p, struct modload *km, const char *kind,
		       const char *name, char *ret, size_t size)
{
	enum modload_state st = modload_lookup(km, name, NULL, 0, NULL, 0);
	size_t tl = strlen(p->chain_text), dl = strlen(p->chain_drivers);
	int n;

	if (st == MODLOAD_MISSING)
		return 0;
	n = snprintf(p->chain_text + tl, sizeof(p->chain_text) - tl, "%s %s\n",
		     kind, st == MODLOAD_MODULE ? name : "-");
	if (n < 0 || (size_t)n >= sizeof(p->chain_text) - tl)
		return -ENOBUFS;
	if (st == MODLOAD_MODULE) {
		n = snprintf(p->chain_drivers + dl,
			     sizeof(p->chain_drivers) - dl, "%s%s",
			     dl ? " " : "", name);
		if (n < 0 || (size_t)n >= sizeof(p->chain_drivers) - dl)
			return -ENOBUFS;
	}
	snprintf(ret, size, "%s%s", name,
		 st == MODLOAD_BUILTIN ? " (built in)" : "");
	return 0;
}

static bool pstore_backend_is(const char *name)
{
	char b[64];

	return read_line_file("/sys/module/pstore/parameters/backend", b,
			      sizeof(b)) == 0 && strcmp(b, name) == 0;
}

/*
 * ramoops' layout in this system, for the capture kernel to find the same
 * zones in the same RAM (a memmap= reservation keeps it out of both
 * kernels' use), and max_reason 4 (shutdown): its log is kept when it
 * restarts, which is when a failed capture has written its record.
 */
static int ramoops_cmdline(char *buf, size_t size)
{
	static const char *const keys[] = {
		"mem_address", "mem_size", "mem_type", "record_size",
		"console_size", "ftrace_size", "pmsg_size", "ecc",
	};
	size_t pos = 0;
	int n;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		char path[128], v[64];

		snprintf(path, sizeof(path), "/sys/module/ramoops/parameters/%s",
			 keys[i]);
		if (read_line_file(path, v, sizeof(v)) < 0 || !v[0] ||
		    strspn(v, "0123456789abcdefxABCDEFX") != strlen(v))
			continue;
		n = snprintf(buf + pos, size - pos, "%sramoops.%s=%s",
			     pos ? " " : "", keys[i], v);
		if (n < 0 || (size_t)n >= size - pos)
			return -ENOBUFS;
		pos += n;
	}
	n = snprintf(buf + pos, size - pos, "%sramoops.max_reason=4",
		     pos ? " " : "");
	return n < 0 || (size_t)n >= size - pos ? -ENOBUFS : 0;
}

/*
 * The module of watchdog0's driver, for a watchdog without a parent device
 * in sysfs (i6300esb registers none): the driver whose name is the
 * watchdog's identity, on any bus.
 */
static int watchdog_module(const char *sysfs, char *ret, size_t size)
{
	char identity[128], pat[PATH_MAX], link[PATH_MAX];
	glob_t g;
	ssize_t n = -1;

	snprintf(pat, sizeof(pat), "%s/class/watchdog/watchdog0/device/driver/module",
		 sysfs);
	n = readlink(pat, link, sizeof(link) - 1);
	if (n > 0)
		goto found;
	snprintf(pat, sizeof(pat), "%s/class/watchdog/watchdog0/identity",
		 sysfs);
	if (read_line_file(pat, identity, sizeof(identity)) < 0 ||
	    !identity[0] || strchr(identity, '/') || strchr(identity, '*') ||
	    strchr(identity, '?') || strchr(identity, '['))
		return -ENOENT;
	snprintf(pat, sizeof(pat), "%s/bus/*/drivers/%s/module", sysfs,
		 identity);
	if (glob(pat, 0, NULL, &g) != 0)
		return -ENOENT;
	n = readlink(g.gl_pathv[0], link, sizeof(link) - 1);
	globfree(&g);
	if (n <= 0)
		return -ENOENT;
found:
	link[n] = '\0';
	return snprintf(ret, size, "%s", basename(link)) >= (int)size ?
		       -ENAMETOOLONG : 0;
}

/*
 * The first device on bus whose modalias resolves to a module under
 * kernel/drivers/watchdog/, in the order of the devices' names (glob(3)
 * sorts them: PCI addresses, platform device names), so that the same
 * hardware gives the same answer.
 */
static int watchdog_on_bus(struct modload *km, const char *sysfs,
			   const char *bus, char *ret, size_t size)
{
	char pat[PATH_MAX], alias[512], name[64];
	int r = -ENOENT;
	glob_t g;

	snprintf(pat, sizeof(pat), "%s/bus/%s/devices/*/modalias", sysfs, bus);
	if (glob(pat, 0, NULL, &g) != 0)
		return -ENOENT;
	for (size_t i = 0; i < g.gl_pathc && r == -ENOENT; i++) {
		if (read_line_file(g.gl_pathv[i], alias, sizeof(alias)) < 0 ||
		    !alias[0] ||
		    modload_lookup_under(km, alias, "kernel/drivers/watchdog/",
					 name, sizeof(name)) == MODLOAD_MISSING)
			continue;
		r = snprintf(ret, size, "%s", name) >= (int)size ?
			    -ENAMETOOLONG : 0;
	}
	globfree(&g);
	return r;
}

int plan_watchdog_driver(struct modload *km, const char *sysfs, char *ret,
			 size_t size)
{
	char path[PATH_MAX], alias[512], name[64];
	int r;

	/*
	 * The hardware first: its devices are there from the start of
	 * the boot, where watchdog0 comes only once udev has loaded its
	 * driver, so that a load before that would plan no watchdog and
	 * the next one a watchdog, a rebuild of the capture initramfs
	 * for no change.  PCI before platform: a platform watchdog is
	 * often made by another driver (lpc_ich makes iTCO_wdt), as late
	 * as watchdog0.
	 */
	r = watchdog_on_bus(km, sysfs, "pci", name, sizeof(name));
	if (r == -ENOENT)
		r = watchdog_on_bus(km, sysfs, "platform", name, sizeof(name));
	if (r == 0)
		goto found;
	if (r != -ENOENT)
		return r;
	/*
	 * A watchdog no device's modalias names (a driver that probes
	 * for its hardware, softdog): watchdog0's, by its device's
	 * modalias, else by the name of the module bound to it.
	 */
	snprintf(path, sizeof(path), "%s/class/watchdog/watchdog0/device/modalias",
		 sysfs);
	if (read_line_file(path, alias, sizeof(alias)) == 0 &&
	    modload_lookup(km, alias, name, sizeof(name), NULL, 0) !=
		    MODLOAD_MISSING)
		goto found;
	r = watchdog_module(sysfs, name, sizeof(name));
	if (r < 0)
		return r;
found:
	return snprintf(ret, size, "%s", name) >= (int)size ? -ENAMETOOLONG :
								 0;
}

/*
 * What the capture loads besides the target's drivers: the pstore backend
 * in EFI variables, which keeps a failed capture's record across the
 * reboot, and the driver of the machine's hardware watchdog
 * (plan_watchdog_driver()), which the capture arms as a backstop to
 * capture_timeout.  Neither is an error when missing: status and show say
 * what is not covered.
 */
int plan_helpers(struct plan *p)
{
	char moddir[PATH_MAX], name[64];
	struct modload *km;
	int r = 0;

	snprintf(moddir, sizeof(moddir), "/lib/modules/%s", p->release);
	if (modload_new(moddir, &km) < 0)
		return 0;
	if (pstore_backend_is("ramoops")) {
		r = plan_helper(p, km, "pstore", "ramoops", p->pstore,
				sizeof(p->pstore));
		if (r == 0 && p->pstore[0]) {
			p->pstore_ram = true;
			r = ramoops_cmdline(p->cmdline_pstore,
					    sizeof(p->cmdline_pstore));
		}
	} else if (access("/sys/firmware/efi", F_OK) == 0) {
		r = plan_helper(p, km, "pstore", "efi_pstore", p->pstore,
				sizeof(p->pstore));
	}
	/* The watchdog's driver for the capture kernel. */
	if (r == 0 && plan_watchdog_driver(km, "/sys", name,
					   sizeof(name)) == 0)
		r = plan_helper(p, km, "watchdog", name, p->watchdog,
				sizeof(p->watchdog));
	modload_free(km);
	return r;
}

/*
 * extra_modules: each must exist for the capture kernel's release; a
 * module, not a built-in driver, goes to dracut with the target's.
 */
int plan_extra_modules(struct plan *p)
{
	char word[CONF_VALUE_MAX], moddir[PATH_MAX];
	struct modload *km;
	size_t pos;
	int r;

	if (!p->conf.extra_modules[0])
		return 0;
	snprintf(moddir, sizeof(moddir), "/lib/modules/%s", p->release);
	r = modload_new(moddir, &km);
	if (r < 0)
		return diag_fail(&p->diag, r,
				 "cannot check extra_modules: cannot read the kernel modules of %s: %s",
				 moddir, strerror(-r));
	pos = 0;
	while (conf_list_next(p->conf.extra_modules, &pos, word,
			      sizeof(word))) {
		char name[64];
		size_t dl = strlen(p->chain_drivers);
		int n;

		switch (modload_lookup(km, word, name, sizeof(name), NULL, 0)) {
		case MODLOAD_MISSING:
			modload_free(km);
			return diag_fail(&p->diag, -ENOENT,
					 "cannot use extra_modules '%s' from %s: kernel %s has no module of that name (see 'modinfo -k %s %s'; remove it from %s)",
					 word, p->config, p->release,
					 p->release, word, p->config);
		case MODLOAD_BUILTIN:
			continue;
		case MODLOAD_MODULE:
			break;
		}
		n = snprintf(p->chain_drivers + dl,
			     sizeof(p->chain_drivers) - dl, "%s%s",
			     dl ? " " : "", name);
		if (n < 0 || (size_t)n >= sizeof(p->chain_drivers) - dl) {
			modload_free(km);
			return -ENOBUFS;
		}
	}
	modload_free(km);
	return 0;
}
