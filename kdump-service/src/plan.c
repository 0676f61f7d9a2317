// SPDX-License-Identifier: GPL-2.0
/*
 * The load plan (see plan.h): configuration plus the running system.
 * Nothing here prints; messages go into the plan for the verb to say.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

#include "dump.h"
#include "estimate.h"
#include "kexec.h"
#include "modplan.h"
#include "initramfs.h"
#include "plan.h"
#include "rawdump.h"
#include "safedir.h"
#include "target.h"
#include "target-mount.h"
#include "util.h"

static void plan_warn(struct plan *p, const char *fmt, ...)
		      __attribute__((format(printf, 2, 3)));

/* The failure's message, for the caller to say. */
void plan_error(struct plan *p, const char *fmt, ...)
		       {
		       va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->error, sizeof(p->error), fmt, ap);
	va_end(ap);
}

/* A warning, said whether or not the plan is made. */
static void plan_warn(struct plan *p, const char *fmt, ...)
		      {
		      size_t pos = strlen(p->warnings);
	va_list ap;
	int n;

	if (pos + 2 >= sizeof(p->warnings))
		return;
	va_start(ap, fmt);
	n = vsnprintf(p->warnings + pos, sizeof(p->warnings) - pos - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	pos = strlen(p->warnings);
	p->warnings[pos] = '\n';
	p->warnings[pos + 1] = '\0';
}

/*
 * Resolve the drivers, device-mapper layers and filesystem module the
 * capture needs for the target device devno; refuse a layer it cannot open.
 */
int plan_modload(struct plan *p, struct modload **ret)
{
	char moddir[PATH_MAX];
	int r;

	r = path_format(moddir, sizeof(moddir), "/lib/modules/%s",
			p->release);
	if (r >= 0)
		r = modload_new(moddir, ret);
	if (r < 0)
		plan_error(p, "cannot read the kernel modules of %s: %s", moddir,
			   strerror(-r));
	return r;
}

static int plan_chain(struct plan *p, dev_t devno, const char *fstype,
		      const char *what)
{
	struct modload *km;
	int r;

	snprintf(p->chain_what, sizeof(p->chain_what), "%s", what);
	r = plan_modload(p, &km);
	if (r < 0)
		return r;
	r = devchain_resolve("/sys", devno, fstype, km, &p->chain);
	modload_free(km);
	if (r == -EMEDIUMTYPE) {
		plan_error(p, "cannot use dump target %s for the capture: it is on %s: %s in %s",
			   what, p->chain.layer, p->chain.fix, p->config);
		return r;
	}
	if (r == -ENOPKG) {
		plan_error(p, "cannot use dump target %s for the capture: kernel %s has no module %s: install that kernel's modules or set 'kernel' in %s",
			   what, p->release, p->chain.layer, p->config);
		return r;
	}
	if (r < 0) {
		/* The capture still searches for drivers device by device. */
		plan_warn(p, "cannot resolve the drivers of dump target %s: %s",
			  what, strerror(-r));
		return 0;
	}
	p->chain_known = true;
	return plan_chain_text(p);
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
		n = snprintf(p->chain_drivers + pos, sizeof(p->chain_drivers) - pos,
			     "%s%s", pos ? " " : "", p->chain.mods[i].name);
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

int plan_estimate(const struct plan *p, int kernel_fd, int initramfs_fd,
		  struct estimate *ret)
{
	return estimate_capture(kernel_fd, initramfs_fd, plan_system_ram(),
				plan_modules_bytes(p), p->conf.net, ret);
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
	if (r < 0) {
		plan_error(p, "cannot read the kernel modules of %s: %s", moddir,
			   strerror(-r));
		return r;
	}
	r = modload_plan(km, p->release, names, n, ret, bad, sizeof(bad));
	modload_free(km);
	if (r == -ENOEXEC)
		plan_error(p, "cannot use module %s of kernel %s: its file in %s is compressed, and the capture inserts modules as they are (install that kernel's modules uncompressed)",
			   bad, p->release, moddir);
	else if (r < 0)
		plan_error(p, "cannot resolve the modules of kernel %s for the capture: %s",
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
static int plan_modules(struct plan *p)
{
	char bound[4096], moddir[PATH_MAX];
	struct modplan *mp = NULL;
	size_t dl = 0;
	char *text = NULL;
	int r;

	r = devchain_bound_drivers("/sys", p->conf.net != CONF_NET_NONE, bound,
				   sizeof(bound));
	if (r < 0)
		plan_warn(p, "cannot list the drivers of every disk: %s: the capture finds the target with its own drivers only",
			  strerror(-r));
	if (snprintf(p->modplan_names, sizeof(p->modplan_names), "%s%s%s",
		     p->chain_drivers, p->chain_drivers[0] ? " " : "",
		     bound) >= (int)sizeof(p->modplan_names)) {
		plan_error(p, "the modules of kernel %s for the capture are too many to name",
			   p->release);
		return -ENOBUFS;
	}
	r = plan_modplan_text(p, &text);
	if (r < 0)
		return r;
	r = modplan_parse(text, strlen(text), &mp);
	if (r < 0) {
		plan_error(p, "cannot read back the module plan of kernel %s: %s",
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
		plan_error(p, "the modules of kernel %s for the capture are too many to name",
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
		n = snprintf(p->chain_drivers + dl, sizeof(p->chain_drivers) - dl,
			     "%s%s", dl ? " " : "", name);
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
static int plan_helpers(struct plan *p)
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
 * One hook or extra binary: it must be a root-only regular executable, as
 * every other input of the capture initramfs.
 */
static int plan_extra_program(struct plan *p, const char *key,
			      const char *word)
{
	struct input_violation bad = { 0 };
	int r;

	r = input_check_program(word, &bad);
	if (r == -ENOENT) {
		plan_error(p, "cannot use %s '%s' from %s: it does not exist (install it, or remove it from %s)",
			   key, word, p->config, p->config);
		return r;
	}
	if (r == -EPERM && bad.fault == INPUT_NOT_REGULAR) {
		plan_error(p, "cannot use %s '%s' from %s: it is not a regular file (name the program itself)",
			   key, word, p->config);
		return r;
	}
	if (r == -EPERM && bad.fault == INPUT_NOT_EXECUTABLE) {
		plan_error(p, "cannot use %s '%s' from %s: it is not executable (chmod 0755 '%s')",
			   key, word, p->config, word);
		return r;
	}
	if (r == -EPERM) {
		plan_error(p, "cannot use %s '%s' from %s: '%s' is %s, and what the capture runs must be root's alone (chown root and chmod go-w '%s')",
			   key, word, p->config, bad.path,
			   plan_violation_text(&bad), bad.path);
		return r;
	}
	if (r < 0) {
		plan_error(p, "cannot check %s '%s': '%s': %s",
			   key, word, bad.path,
			   strerror(-r));
		return r;
	}
	return 0;
}

/* The hooks and extra binaries, checked, into p->extra_files. */
static int plan_extra_files(struct plan *p)
{
	static const struct {
		const char *key;
		size_t off;
	} lists[] = {
		{ "pre_hook", offsetof(struct kdump_conf, pre_hook) },
		{ "post_hook", offsetof(struct kdump_conf, post_hook) },
		{ "extra_binaries", offsetof(struct kdump_conf, extra_binaries) },
	};
	char word[CONF_VALUE_MAX];
	size_t pos, fl = 0;
	int r;

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		const char *list = (const char *)&p->conf + lists[i].off;

		pos = 0;
		while (conf_list_next(list, &pos, word, sizeof(word))) {
			r = plan_extra_program(p, lists[i].key, word);
			if (r < 0)
				return r;
			fl += snprintf(p->extra_files + fl,
				       sizeof(p->extra_files) - fl, "%s%s",
				       fl ? " " : "", word);
		}
	}
	return 0;
}

/*
 * extra_modules: each must exist for the capture kernel's release; a
 * module, not a built-in driver, goes to dracut with the target's.
 */
static int plan_extra_modules(struct plan *p)
{
	char word[CONF_VALUE_MAX], moddir[PATH_MAX];
	struct modload *km;
	size_t pos;
	int r;

	if (!p->conf.extra_modules[0])
		return 0;
	snprintf(moddir, sizeof(moddir), "/lib/modules/%s", p->release);
	r = modload_new(moddir, &km);
	if (r < 0) {
		plan_error(p, "cannot check extra_modules: cannot read the kernel modules of %s: %s",
			   moddir, strerror(-r));
		return r;
	}
	pos = 0;
	while (conf_list_next(p->conf.extra_modules, &pos, word, sizeof(word))) {
		char name[64];
		size_t dl = strlen(p->chain_drivers);
		int n;

		switch (modload_lookup(km, word, name, sizeof(name), NULL, 0)) {
		case MODLOAD_MISSING:
			plan_error(p, "cannot use extra_modules '%s' from %s: kernel %s has no module of that name (see 'modinfo -k %s %s'; remove it from %s)",
				   word, p->config, p->release, p->release,
				   word, p->config);
			modload_free(km);
			return -ENOENT;
		case MODLOAD_BUILTIN:
			continue;
		case MODLOAD_MODULE:
			break;
		}
		n = snprintf(p->chain_drivers + dl, sizeof(p->chain_drivers) - dl,
			     "%s%s", dl ? " " : "", name);
		if (n < 0 || (size_t)n >= sizeof(p->chain_drivers) - dl) {
			modload_free(km);
			return -ENOBUFS;
		}
	}
	modload_free(km);
	return 0;
}

/* What the user adds to the capture: programs and modules. */
static int plan_extras(struct plan *p)
{
	int r;

	r = plan_extra_files(p);
	if (r < 0)
		return r;
	return plan_extra_modules(p);
}

/*
 * The filesystem of dump directory path, which may not exist yet (show,
 * estimate and status do not create it): that of its nearest existing
 * ancestor, with the rest of the path appended to the relative path.
 */
static int resolve_dump_path(const char *path, struct target_fs *ret)
{
	char head[PATH_MAX];
	const char *tail;
	size_t n;
	int r;

	if (snprintf(head, sizeof(head), "%s", path) >= (int)sizeof(head))
		return -ENAMETOOLONG;
	for (;;) {
		r = target_resolve_path(head, ret);
		if (r != -ENOENT || strcmp(head, "/") == 0)
			break;
		{
			char *slash = strrchr(head, '/');

			if (!slash)
				return r;
			if (slash == head)
				slash[1] = '\0';
			else
				*slash = '\0';
		}
	}
	if (r < 0)
		return r;
	tail = path + strlen(head);
	if (strcmp(head, "/") == 0 && path[0] == '/')
		tail = path + 1;
	while (*tail == '/')
		tail++;
	if (!*tail)
		return 0;
	n = strlen(ret->relpath);
	if (snprintf(ret->relpath + n, sizeof(ret->relpath) - n, "%s%s",
		     n && ret->relpath[n - 1] == '/' ? "" : "/", tail) >=
	    (int)(sizeof(ret->relpath) - n))
		return -ENAMETOOLONG;
	return 0;
}

/*
 * Dumps are read and removed as root: a dump directory others may write
 * (an existing 1777 /var/crash, a path below /var/tmp) lets them plant what
 * root then opens.
 */
int plan_check_dump_base(const char *base, const char *config, char *msg,
			 size_t size)
{
	char why[PATH_MAX + 64];
	int r;

	msg[0] = '\0';
	r = dump_base_check(base, why, sizeof(why));
	if (r == -EPERM)
		snprintf(msg, size, "dump directory %s is not safe: %s; make it root's alone (chown root:root, chmod 0700) or set another 'path' in %s",
			 base, why, config);
	else if (r < 0 && r != -ENOENT)
		snprintf(msg, size, "cannot check dump directory %s: %s", base,
			 strerror(-r));
	return r;
}

static int check_dump_base(struct plan *p, const char *base)
{
	return plan_check_dump_base(base, p->config, p->error,
				    sizeof(p->error));
}

/* Who else uses the block device devno: a mount, swap, or a holder (dm, md). */
static int raw_user(const char *dev, dev_t devno, char *what, size_t size)
{
	char mp[PATH_MAX], path[96], line[512];
	struct dirent *de;
	DIR *d;
	FILE *f;

	if (target_mountpoint(dev, mp, sizeof(mp)) == 0) {
		snprintf(what, size, "it is mounted on %s", mp);
		return -EBUSY;
	}
	f = fopen("/proc/swaps", "re");
	while (f && fgets(line, sizeof(line), f)) {
		struct stat st;
		char *sp = strchr(line, ' ');

		if (line[0] != '/' || !sp)
			continue;
		*sp = '\0';
		if (stat(line, &st) == 0 && S_ISBLK(st.st_mode) &&
		    st.st_rdev == devno) {
			fclose(f);
			snprintf(what, size, "it is in use as swap");
			return -EBUSY;
		}
	}
	if (f)
		fclose(f);
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/holders",
		 major(devno), minor(devno));
	d = opendir(path);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(what, size, "%s holds it (device mapper or RAID)",
			 de->d_name);
		closedir(d);
		return -EBUSY;
	}
	if (d)
		closedir(d);
	return 0;
}

/*
 * The raw dump device: refused when something else uses it or it carries
 * another program's data, named for the capture by an identity that does
 * not depend on the order the kernel finds disks in.
 */
static int plan_raw(struct plan *p, const char *dev, dev_t devno, bool loading)
{
	char what[PATH_MAX + 64], sig[64] = "", buf[RAW_HEADER_SIZE], id[300];
	struct target_identity ident;
	char real[PATH_MAX];
	unsigned long long size = 0;
	struct raw_header old;
	ssize_t n;
	int fd, r;

	r = raw_user(dev, devno, what, sizeof(what));
	if (r < 0) {
		plan_error(p, "raw dump device %s cannot be used: %s, and a dump would destroy what is there; free it or set another 'raw' in %s",
			   dev, what, p->config);
		return r;
	}
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &size) < 0 ||
	    (n = pread(fd, buf, sizeof(buf), 0)) < 0) {
		r = -errno;
		if (fd >= 0)
			close(fd);
		plan_error(p, "cannot read raw dump device %s: %s", dev, strerror(-r));
		return r;
	}
	close(fd);
	if (raw_header_parse(buf, n, size, &old) == -ENODATA &&
	    target_signature(dev, sig, sizeof(sig)) < 0)
		sig[0] = '\0';
	r = raw_may_write(buf, n, size, sig, true, p->conf.raw_force, NULL);
	if (r == -ENOTEMPTY) {
		plan_error(p, "raw dump device %s holds %s data that the first dump would destroy: if that is meant, erase it (wipefs -a %s) or set 'raw_force = yes' in %s",
			   dev, sig, dev, p->config);
		return r;
	}
	if (loading && raw_may_write(buf, n, size, "", p->conf.raw_overwrite,
				     false, &old) == -EEXIST)
		plan_warn(p, "raw dump device %s holds a dump of %s not yet recovered: the next crash will not overwrite it; run 'kdump-file recover'",
			  dev, old.release[0] ? old.release : "an unknown kernel");
	/* No udev in the capture: /dev/disk/by-* names do not exist. */
	if (!realpath(dev, real))
		snprintf(real, sizeof(real), "%s", dev);
	r = target_stable_id(dev, id, sizeof(id));
	if (path_format(p->capture.raw, sizeof(p->capture.raw), "%s",
			r == 0 ? id : real) < 0) {
		plan_error(p, "raw dump device %s: its name %s is longer than the capture takes (%zu bytes)",
			   p->conf.raw, r == 0 ? id : real,
			   sizeof(p->capture.raw) - 1);
		return -ENAMETOOLONG;
	}
	/*
	 * What the capture counts the devices by: the spec, the size now and
	 * a partition's disk.  A spec the capture could not parse back (a
	 * /dev/ path with odd characters) leaves it to the spec alone.
	 */
	if (target_identity_of("/sys/class/block", strrchr(real, '/') + 1,
			       p->capture.raw, size, &ident) == 0 &&
	    target_identity_format(&ident, p->capture.raw_identity,
				   sizeof(p->capture.raw_identity)) == 0) {
		if (loading)
			plan_raw_identity_warn(p, dev, &ident);
	} else {
		p->capture.raw_identity[0] = '\0';
		if (loading)
			plan_warn(p, "raw dump device %s is named %s, which the capture cannot check beyond the name: give the disk a serial number or use a GPT partition, and run 'kdump-file load' again",
				  dev, p->capture.raw);
	}
	return 0;
}

void plan_raw_identity_warn(struct plan *p, const char *dev,
			    const struct target_identity *id)
{
	if (strncmp(id->spec, "/dev/", 5) == 0)
		plan_warn(p, "raw dump device %s has no serial, WWID or partition UUID: the capture finds it as %s, a kernel name that can change between boots, and checks only its size (%llu bytes), so another disk of that size that takes the name receives the dump: give the disk a serial number (QEMU: -drive ...,serial=NAME) or use a partition of a GPT disk, and run 'kdump-file load' again",
			  dev, id->spec, id->size);
	else if (strncmp(id->spec, "PARTUUID=", 9) == 0 && !id->disk[0])
		plan_warn(p, "raw dump device %s is known by its partition UUID alone (%s, %llu bytes): its disk has no serial number or WWID, and a copy of the partition table (a cloned disk, a stick partitioned alike) carries both: the capture writes nothing when two devices carry them, but a copy attached without this disk receives the dump: use a partition of a disk with a serial number (QEMU: -drive ...,serial=NAME), and run 'kdump-file load' again",
			  dev, id->spec + 9, id->size);
}

const char *plan_violation_text(const struct input_violation *bad)
{
	static char what[64];

	if (bad->fault == INPUT_FOREIGN_OWNER)
		snprintf(what, sizeof(what), "owned by uid %u", bad->uid);
	else
		snprintf(what, sizeof(what), "%s",
			 bad->fault == INPUT_WORLD_WRITABLE ? "world-writable" :
			 bad->fault == INPUT_GROUP_WRITABLE ? "group-writable" :
			 bad->fault == INPUT_NOT_REGULAR ? "not a regular file" :
							   "not executable");
	return what;
}

unsigned long long plan_system_ram(void)
{
	unsigned long long kib = 0, reserved = 0;
	char line[256];
	FILE *f;

	f = fopen("/proc/meminfo", "re");
	if (f) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "MemTotal: %llu kB", &kib) == 1)
				break;
		fclose(f);
	}
	(void)kexec_crash_size(&reserved);
	return kib * 1024 + reserved;
}

/* Whether the plan's initramfs would be rebuilt by the next load. */
const char *plan_initramfs_state(const struct plan *p)
{
	char fingerprint[32768];

	if (!p->initramfs_managed)
		return "set in the configuration";
	if (access(p->initramfs, F_OK) < 0)
		return "not built: the next load builds it";
	if (initramfs_fingerprint(p->kernel, p->capture_conf_text, p->chain_text,
				  p->modplan_id, p->fingerprint_files, fingerprint,
				  sizeof(fingerprint)) < 0 ||
	    !initramfs_is_current(p->initramfs, fingerprint))
		return "out of date: the next load rebuilds it";
	return "current";
}

/*
 * The release the capture kernel is of (this one, or --kver's), and its
 * kernel and initramfs files.
 */
static int plan_release(struct plan *p, const char *kver)
{
	struct utsname u;

	if (uname(&u) < 0)
		return -errno;
	snprintf(p->release, sizeof(p->release), "%s", u.release);
	if (kver) {
		char moddir[PATH_MAX];

		/* Another installed kernel (the kernel package's hook). */
		snprintf(moddir, sizeof(moddir), "/lib/modules/%s", kver);
		if (!kver[0] || strchr(kver, '/') ||
		    strlen(kver) >= sizeof(p->release) ||
		    access(moddir, F_OK) < 0) {
			plan_error(p, "--kver '%s' is not an installed kernel (no %s)",
				   kver, moddir);
			return -ENOENT;
		}
		if (p->conf.kernel[0]) {
			plan_error(p, "'kernel' is set to '%s' in %s: the capture kernel is that one whichever kernel runs, and --kver does not apply",
				   p->conf.kernel, p->config);
			return -EINVAL;
		}
		snprintf(p->release, sizeof(p->release), "%s", kver);
	}
	if (p->conf.kernel[0])
		snprintf(p->kernel, sizeof(p->kernel), "%s", p->conf.kernel);
	else
		snprintf(p->kernel, sizeof(p->kernel), "/boot/vmlinuz-%s",
			 p->release);
	p->initramfs_managed = !p->conf.initramfs[0];
	if (p->initramfs_managed)
		snprintf(p->initramfs, sizeof(p->initramfs),
			 KDUMP_FILE_STATE_DIR "/initramfs-%s.img", p->release);
	else
		snprintf(p->initramfs, sizeof(p->initramfs), "%s",
			 p->conf.initramfs);
	return 0;
}

/*
 * A dump directory made when missing as recover and the capture make it:
 * never below a directory others may write (safe_open()); -EPERM is left
 * for plan_check_dump_base() to explain.
 */
static int make_dump_dir(const char *dir)
{
	struct safe_violation bad;
	int fd, r;

	r = safe_open(dir, SAFE_CREATE, &bad, &fd);
	if (r == 0)
		close(fd);
	return r;
}

/*
 * A local dump directory (path, or a network target's fallback) on a
 * filesystem mounted here: the capture kernel finds it by the filesystem's
 * UUID, not by the mount point.  create: make the directory when missing
 * (load and rebuild; show, estimate and status only look).
 */
int plan_local_dir(struct plan *p, const char *key, const char *dir,
		   bool create, struct target_fs *ret)
{
	int r;

	r = create ? make_dump_dir(dir) : 0;
	if (r < 0 && r != -EPERM) {
		plan_error(p, "cannot create %s directory '%s': %s", key, dir,
			   strerror(-r));
		return r;
	}
	r = plan_check_dump_base(dir, p->config, p->error, sizeof(p->error));
	if (r == -EPERM && strcmp(key, "dump") != 0)
		plan_error(p, "%s directory %s is not safe: others may write it or a directory above it; make it root's alone (chown root:root, chmod 0700) or set another '%s' in %s",
			   key, dir, key, p->config);
	if (r < 0 && (r != -ENOENT || create))
		return r;
	p->error[0] = '\0';
	r = resolve_dump_path(dir, ret);
	if (r < 0) {
		plan_error(p, "cannot find the filesystem of %s directory '%s': %s%s%s%s",
			   key, dir, strerror(-r),
			   r == -ENOTBLK ? " (it is not on a block device: set 'target' in " : "",
			   r == -ENOTBLK ? p->config : "",
			   r == -ENOTBLK ? ")" : "");
		return r;
	}
	return 0;
}

/* The dump directory 'path' on a filesystem mounted here. */
static int plan_target_dir(struct plan *p, bool create)
{
	struct target_fs fs;
	int r;

	r = plan_local_dir(p, "dump", p->conf.path, create, &fs);
	if (r < 0)
		return r;
	if (path_format(p->capture.target, sizeof(p->capture.target), "%s",
			fs.spec) < 0 ||
	    path_format(p->capture.path, sizeof(p->capture.path), "%s",
			fs.relpath) < 0) {
		plan_error(p, "dump directory %s: its device or its path there is longer than the capture takes (%zu bytes)",
			   p->conf.path, sizeof(p->capture.path) - 1);
		return -ENAMETOOLONG;
	}
	return plan_chain(p, fs.devno, fs.fstype, fs.devnode);
}

/* A target device or raw dump device the configuration names. */
static int plan_target_device(struct plan *p, bool create)
{
	const char *spec = p->conf.raw[0] ? p->conf.raw : p->conf.target;
	char dev[PATH_MAX], fstype[64] = "";
	struct stat st;
	int r;

	/*
	 * recover brings a raw device's dumps into path: load makes it now,
	 * root's alone, so that nobody else can make it first, and refuses
	 * one that is not root's alone.
	 */
	if (p->conf.raw[0]) {
		r = create ? make_dump_dir(p->conf.path) : 0;
		if (r < 0 && r != -EPERM) {
			plan_error(p, "cannot create dump directory '%s', where 'kdump-file recover' brings the dumps of raw dump device %s: %s",
				   p->conf.path, p->conf.raw, strerror(-r));
			return r;
		}
		r = check_dump_base(p, p->conf.path);
		if (r < 0 && (r != -ENOENT || create))
			return r;
		p->error[0] = '\0';
	}
	/* A target not attached now is looked for in the capture. */
	r = target_find_device(spec, dev, sizeof(dev), fstype, sizeof(fstype));
	if (r < 0 || stat(dev, &st) < 0) {
		p->target_absent = true;
		if (create && p->conf.raw[0])
			plan_warn(p, "raw dump device %s is not attached: it cannot be checked now, and the capture looks for it by that name",
				  p->conf.raw);
		return 0;
	}
	r = plan_chain(p, st.st_rdev, p->conf.raw[0] ? "" : fstype, dev);
	if (r >= 0 && p->conf.raw[0])
		r = plan_raw(p, dev, st.st_rdev, create);
	return r;
}

/*
 * The capture's configuration as it will read it, read back now: a value
 * that passes here but not there (a path with a space, resolved from the
 * mount) is refused at load time, not found out after a crash.
 */
static int plan_capture_conf(struct plan *p)
{
	struct conf_error err = { 0 };
	struct kdump_conf back;
	int r;

	r = conf_write(&p->capture, p->capture_conf_text,
		       sizeof(p->capture_conf_text));
	if (r < 0)
		return r;
	r = conf_parse_buffer(&back, p->capture_conf_text,
			      strlen(p->capture_conf_text), &err);
	if (r < 0)
		plan_error(p, "the capture could not read its configuration as made from %s: %s%s%s (line %u of the capture's copy): change that value",
			   p->config, err.key, err.key[0] ? ": " : "", err.msg,
			   err.line);
	return r;
}

/* The capture kernel's command line, from the running one's. */
static int plan_cmdline(struct plan *p)
{
	char running[4096];
	int r;

	r = read_line_file("/proc/cmdline", running, sizeof(running));
	if (r < 0) {
		plan_error(p, "cannot read /proc/cmdline: %s", strerror(-r));
		return r;
	}
	r = cmdline_build(running, &p->conf, p->threads.threads, p->cmdline,
			  sizeof(p->cmdline));
	if (r >= 0 && p->cmdline_pstore[0])
		r = cmdline_add(p->cmdline, sizeof(p->cmdline), p->cmdline_pstore);
	if (r >= 0 && p->auto_timeout) {
		char t[64];

		snprintf(t, sizeof(t), CONF_CMDLINE_CAPTURE_TIMEOUT "=%u",
			 p->auto_timeout);
		r = cmdline_add(p->cmdline, sizeof(p->cmdline), t);
	}
	if (r >= 0 && p->threads.threads > 1) {
		char t[64];

		snprintf(t, sizeof(t), CONF_CMDLINE_THREADS "=%u",
			 p->threads.threads);
		r = cmdline_add(p->cmdline, sizeof(p->cmdline), t);
	}
	if (r < 0)
		plan_error(p, "the capture command line is too long (the kernel takes %d bytes including elfcorehdr=): shorten cmdline_append or remove parameters with cmdline_remove in %s",
			   CMDLINE_KERNEL_MAX - 1, p->config);
	return r;
}

/* The threads for the files as they are now, and the reservation. */
static void plan_threads_choose(struct plan *p, int kernel_fd,
				int initramfs_fd)
{
	unsigned long long reserved = 0, need = ~0ULL;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct estimate e;

	(void)kexec_crash_size(&reserved);
	/* Without the capture's need, no memory is known to be left over. */
	if (kernel_fd >= 0 &&
	    plan_estimate(p, kernel_fd, initramfs_fd, &e) == 0)
		need = estimate_threads_need(&e);
	estimate_threads(conf_threads_requested(&p->conf),
			 cpus > 0 ? (unsigned int)cpus : 1,
			 cmdline_user_cpus(&p->conf), reserved, need,
			 &p->threads);
}

int plan_threads(struct plan *p, int kernel_fd, int initramfs_fd)
{
	plan_threads_choose(p, kernel_fd, initramfs_fd);
	return plan_cmdline(p);
}

int plan_make(struct plan *p, const struct kdump_conf *conf,
	      const struct plan_input *in)
{
	int r;

	memset(p, 0, sizeof(*p));
	snprintf(p->config, sizeof(p->config), "%s", in->config);
	p->conf = *conf;
	r = plan_release(p, in->kver);
	if (r < 0)
		return r;
	p->capture = p->conf;
	/*
	 * panic_on is for the running kernel: the capture kernel does not
	 * get it, and a change to it does not rebuild the initramfs.
	 */
	p->capture.panic_on = 0;
	/*
	 * The threads follow the reservation, which changes without a
	 * rebuild: they go on the command line each load writes
	 * (CONF_CMDLINE_THREADS), and the capture's copy says one thread,
	 * what it runs without that parameter.
	 */
	(void)conf_threads_set(&p->capture, 1);
	/*
	 * An automatic capture_timeout follows the RAM, which memory hotplug
	 * changes: it goes on the capture kernel's command line, which each
	 * load writes anew, and not into the capture initramfs, which would
	 * then be rebuilt after every memory hotplug.
	 */
	if (!p->capture.capture_timeout)
		p->auto_timeout = estimate_capture_timeout(
			p->conf.target_timeout, plan_system_ram(),
			p->conf.compression == COMPRESS_ZLIB);
	if (p->conf.net != CONF_NET_NONE)
		r = plan_target_net(p, in->create);
	else if (!p->conf.target[0] && !p->conf.raw[0])
		r = plan_target_dir(p, in->create);
	else
		r = plan_target_device(p, in->create);
	if (r >= 0)
		r = plan_helpers(p);
	if (r >= 0)
		r = plan_extras(p);
	if (r >= 0)
		r = plan_net_files(p);
	if (r >= 0)
		r = plan_modules(p);
	if (r >= 0)
		r = plan_capture_conf(p);
	if (r >= 0) {
		int kfd = open(p->kernel, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		int ifd = open(p->initramfs, O_RDONLY | O_CLOEXEC | O_NOCTTY);

		r = plan_threads(p, kfd, ifd);
		if (ifd >= 0)
			close(ifd);
		if (kfd >= 0)
			close(kfd);
	}
	return r < 0 ? r : 0;
}

static void plan_problem(struct plan_problems *pp, int r, const char *fmt, ...)
			 __attribute__((format(printf, 3, 4)));

/* One more problem: kept when there is room, counted anyway. */
static void plan_problem(struct plan_problems *pp, int r, const char *fmt, ...)
{
	va_list ap;

	if (pp->n == 0)
		pp->first = r;
	if (pp->n < PLAN_PROBLEMS_MAX) {
		va_start(ap, fmt);
		vsnprintf(pp->text[pp->n], sizeof(pp->text[pp->n]), fmt, ap);
		va_end(ap);
	}
	pp->n++;
}

/* path opened for reading, if it is a non-empty regular file. */
static int open_input(const char *path, int *ret_fd)
{
	struct stat st;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
		close(fd);
		return -EINVAL;
	}
	*ret_fd = fd;
	return 0;
}

/*
 * The release a bzImage names in its boot header: kernel_version, a
 * pointer less 0x200 to "6.1.0-18-amd64 (builder@host) #1 SMP ..."
 * (Documentation/arch/x86/boot.rst); its first word, or -ENODATA.
 */
static int bzimage_release(int fd, char *ret, size_t size)
{
	unsigned char off[2];
	char buf[128];
	unsigned int at;
	ssize_t n;
	size_t len;

	if (pread(fd, off, 2, 0x20e) != 2)
		return -ENODATA;
	at = off[0] | off[1] << 8;
	if (at == 0)
		return -ENODATA;
	n = pread(fd, buf, sizeof(buf) - 1, at + 0x200);
	if (n <= 0)
		return -ENODATA;
	buf[n] = '\0';
	len = strcspn(buf, " ");
	if (len == 0 || len >= size || len == (size_t)n)
		return -ENODATA;
	for (size_t i = 0; i < len; i++)
		if (buf[i] < 0x21 || buf[i] > 0x7e)
			return -ENODATA;
	snprintf(ret, size, "%.*s", (int)len, buf);
	return 0;
}

/* The capture kernel, as load opens it and kexec_file_load takes it. */
static void check_kernel(const struct plan *p, struct plan_problems *pp)
{
	char release[65];
	int fd, r;

	r = open_input(p->kernel, &fd);
	if (r == -ENOENT) {
		plan_problem(pp, r, "capture kernel '%s' does not exist: install that kernel's package, or set 'kernel' in %s",
			     p->kernel, p->config);
		return;
	}
	if (r == -EINVAL) {
		plan_problem(pp, r, "capture kernel '%s' is not a non-empty regular file: point 'kernel' in %s at a vmlinuz",
			     p->kernel, p->config);
		return;
	}
	if (r < 0) {
		plan_problem(pp, r, "cannot open capture kernel '%s': %s",
			     p->kernel, strerror(-r));
		return;
	}
	r = kexec_check_bzimage(fd);
	if (r == -EBADMSG)
		plan_problem(pp, r, "capture kernel '%s' is truncated: its boot header announces more than the file holds (a copy cut short?): reinstall it, or point 'kernel' in %s at a complete vmlinuz",
			     p->kernel, p->config);
	else if (r < 0)
		plan_problem(pp, r, "capture kernel '%s' is not an x86_64 bzImage that kexec_file_load accepts (boot protocol 2.12, 64-bit entry): point 'kernel' in %s at a vmlinuz",
			     p->kernel, p->config);
	/*
	 * The initramfs kdump-file builds holds the modules of p->release:
	 * a capture kernel of another release finds none it can load.
	 */
	else if (p->conf.kernel[0] && p->initramfs_managed &&
		 bzimage_release(fd, release, sizeof(release)) == 0 &&
		 strcmp(release, p->release) != 0)
		plan_problem(pp, -EINVAL, "capture kernel '%s' is release %s, but the capture initramfs kdump-file builds holds the modules of %s: set 'kernel' in %s to a %s kernel, or remove it, or set 'initramfs' to one made for %s",
			     p->kernel, release, p->release, p->config,
			     p->release, release);
	close(fd);
}

/* A configured initramfs, or the one kdump-file built and keeps current. */
static void check_initramfs(const struct plan *p, struct plan_problems *pp)
{
	struct initramfs_problem bad = { 0 };
	int fd, r;

	/* Missing or out of date, load builds it: not a problem. */
	if (p->initramfs_managed &&
	    strcmp(plan_initramfs_state(p), "current") != 0)
		return;
	r = open_input(p->initramfs, &fd);
	if (r == -ENOENT) {
		plan_problem(pp, r, "capture initramfs '%s' does not exist: point 'initramfs' in %s at one, or remove it to have kdump-file build one",
			     p->initramfs, p->config);
		return;
	}
	if (r < 0) {
		plan_problem(pp, r, "cannot open capture initramfs '%s': %s",
			     p->initramfs, r == -EINVAL ?
			     "not a non-empty regular file" : strerror(-r));
		return;
	}
	r = initramfs_verify(fd, &bad);
	close(fd);
	if (r == -EBADMSG)
		plan_problem(pp, r, "capture initramfs '%s' is truncated or corrupt (%s at byte %llu): %s",
			     p->initramfs, bad.what, bad.offset,
			     p->initramfs_managed ?
			     "rebuild it with 'kdump-file rebuild'" :
			     "rebuild or replace that file");
	else if (r == -EINVAL)
		plan_problem(pp, r, "capture initramfs '%s' is neither a cpio archive nor a compressed one",
			     p->initramfs);
	else if (r < 0)
		plan_problem(pp, r, "cannot read capture initramfs '%s': %s",
			     p->initramfs, strerror(-r));
}

int plan_check(const struct plan *p, struct plan_problems *problems)
{
	const char *paths[] = { p->kernel, p->initramfs };
	struct input_violation bad = { 0 };
	int r;

	memset(problems, 0, sizeof(*problems));
	check_kernel(p, problems);
	/* What the capture kernel boots must be root's alone (load's check). */
	r = paths_check_root_only(paths, p->initramfs_managed ? 1 : 2, &bad);
	if (r == -EPERM)
		plan_problem(problems, r, "'%s' is %s, and what the capture kernel boots must be root's alone (chown root and chmod go-w '%s')",
			     bad.path, plan_violation_text(&bad), bad.path);
	else if (r < 0 && r != -ENOENT)
		plan_problem(problems, r, "cannot check '%s': %s", bad.path,
			     strerror(-r));
	check_initramfs(p, problems);
	for (unsigned int i = 0; i < 2; i++) {
		char why[3 * CONF_VALUE_MAX];

		r = net_check_ssh_files(&p->conf, i, why, sizeof(why));
		if (r < 0)
			plan_problem(problems, r, "%s", why);
	}
	if (p->target_absent)
		plan_problem(problems, -ENODEV, "%s %s from %s is not attached to this machine: a crash now has nowhere to be saved (attach it, or correct '%s')",
			     p->conf.raw[0] ? "raw dump device" : "dump target",
			     p->conf.raw[0] ? p->conf.raw : p->conf.target,
			     p->config, p->conf.raw[0] ? "raw" : "target");
	return problems->n ? problems->first : 0;
}
