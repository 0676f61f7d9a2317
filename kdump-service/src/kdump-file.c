// SPDX-License-Identifier: GPL-2.0
/*
 * kdump-file: load a capture kernel with kexec_file_load(2) so that a kernel
 * panic boots it and saves the dump; report on what is loaded and saved.
 *
 * Only this file prints; everything it calls returns a negative errno.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <glob.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/file.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>
#include <systemd/sd-journal.h>

#include "cmdline.h"
#include "conf.h"
#include "devchain.h"
#include "dump.h"
#include "rawdump.h"
#include "record.h"
#include "estimate.h"
#include "hotplug.h"
#include "import.h"
#include "initramfs.h"
#include "journal.h"
#include "json.h"
#include "kexec.h"
#include "panicon.h"
#include "state.h"
#include "target.h"
#include "target-mount.h"
#include "util.h"
#include "version.h"

#define RUN_DIR "/run/kdump-file"
#define SYS_CRASH_SIZE "/sys/kernel/kexec_crash_size"
#define SYS_CRASH_LOADED "/sys/kernel/kexec_crash_loaded"
#define BOOT_ID_FILE "/proc/sys/kernel/random/boot_id"
/* A capture kernel is loaded (removed by unload, so by a clean shutdown). */
#define ARMED_FILE KDUMP_FILE_STATE_DIR "/armed"
/* A boot ended uncleanly while armed, and no dump from it was saved. */
#define LOST_FILE KDUMP_FILE_STATE_DIR "/lost"
/* The sysctls panic_on set, with their values before (see panicon.h). */
#define PANIC_ON_FILE RUN_DIR "/panic-on"

#define EXIT_USAGE 2
#define EXIT_NOT_LOADED 3

static const char *arg_config = CONF_PATH_DEFAULT;
static bool arg_yes;
static bool arg_json;
static const char *arg_vmlinux;
static const char *arg_kver;
static bool arg_dry_run;
static bool arg_undo;
/* reload: only over kdump-file's own capture kernel, after a hotplug. */
static bool arg_after_hotplug;

static int hotplug_report(struct json_object *j, int width);

static void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void log_error(const char *fmt, ...)
{
	va_list ap;

	fputs("kdump-file: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void help(void)
{
	printf("Usage: kdump-file [OPTIONS] COMMAND\n"
	       "\n"
	       "Load a capture kernel so that a kernel crash is saved to disk.\n"
	       "\n"
	       "Commands:\n"
	       "  load       build the capture initramfs if needed and load the capture kernel\n"
	       "  unload     unload the capture kernel\n"
	       "  reload     unload, then load\n"
	       "             (--after-hotplug: once CPU or memory hotplug events\n"
	       "             have settled, and only over kdump-file's capture kernel)\n"
	       "  status     show the reservation, what is loaded and the last dump\n"
	       "             (exit 3 when no capture kernel is loaded)\n"
	       "  show       show the effective configuration and capture command line\n"
	       "  rebuild    rebuild the capture initramfs\n"
	       "  report [DIR]  write report.txt and report.json for a dump (default:\n"
	       "             the newest) with kdump-file-analyze; --new: only if the\n"
	       "             newest dump has no report yet\n"
	       "  estimate   recommend a crashkernel= size for this machine, with the reasoning\n"
	       "  recover    copy a dump from the raw dump device into a dump directory\n"
	       "  test       crash the machine now to test the capture (asks first);\n"
	       "             after the reboot, status tells whether it passed\n"
	       "  setup      reserve memory for the capture kernel from the next boot\n"
	       "             (crashkernel= as estimate recommends, in a GRUB drop-in,\n"
	       "             then update-grub); --undo removes it\n"
	       "  list       the dumps: ID, time, kernel, crash signature, size, state\n"
	       "  info [ID]  one dump (default: the newest): panic, task, backtrace,\n"
	       "             modules, files\n"
	       "  debug [ID] crash(8) on a dump with the vmlinux its build ID names\n"
	       "             (--vmlinux FILE to give it)\n"
	       "  hotplug [cpu|memory]  for the udev rule: after a CPU or memory\n"
	       "             add or remove, mark the capture kernel's reload as pending\n"
	       "             unless the kernel updates its ELF headers itself\n"
	       "  import [FILE [SYSCONFIG]]  write the kdump-file.conf equivalent to\n"
	       "             kdump-tools' /etc/default/kdump-tools or kdump-utils'\n"
	       "             /etc/kdump.conf (and /etc/sysconfig/kdump), naming every\n"
	       "             setting not carried over; --output FILE to write it\n"
	       "\n"
	       "Options:\n"
	       "  -c, --config FILE   configuration file (default %s)\n"
	       "  -y, --yes           do not ask before 'test' crashes the machine\n"
	       "  -n, --new           report: only a dump without a report\n"
	       "      --json          status, show, list, info: JSON on stdout\n"
	       "      --vmlinux FILE  debug: the crashed kernel's vmlinux\n"
	       "      --kver VERSION  rebuild, show: for that installed kernel\n"
	       "      --undo          setup: take the reservation back\n"
	       "      --after-hotplug reload: for kdump-file-hotplug.service\n"
	       "      --dry-run       setup: say what it would write, change nothing\n"
	       "                      (the capture initramfs is still built if missing)\n"
	       "  -o, --output FILE   import: write FILE (atomically) instead of stdout\n"
	       "      --force         import: replace a FILE with settings, kept as FILE.bak\n"
	       "      --local-instead import: dump locally, to a network target's directory\n"
	       "      --version       print the version\n"
	       "  -h, --help          show this help\n",
	       CONF_PATH_DEFAULT);
}

static unsigned long long system_ram(void);

/* Everything load, show and rebuild derive from the configuration. */
struct plan {
	struct kdump_conf conf;
	struct kdump_conf capture; /* as the capture kernel will see it */
	char release[65];
	char kernel[PATH_MAX];
	char initramfs[PATH_MAX];
	bool initramfs_managed; /* ours to build (not a user override) */
	char capture_conf_text[16384];
	char cmdline[CMDLINE_KERNEL_MAX * 2];
	/* What the capture loads and activates to reach the target. */
	struct devchain chain;
	bool chain_known;
	char chain_what[PATH_MAX];	/* the device it was resolved for */
	char chain_text[4096];		/* as the capture reads it */
	char chain_drivers[4096];	/* for dracut --add-drivers */
	/* The helpers' modules, "" when none, " (built in)" appended if so. */
	char pstore[96];		/* keeps a failed capture's record */
	bool pstore_ram;		/* ...in RAM (ramoops), not EFI variables */
	char cmdline_pstore[512];	/* ramoops' layout for the capture kernel */
	unsigned int auto_timeout;	/* capture_timeout chosen here, or 0 */
	char watchdog[96];		/* resets a capture that hangs */
	/* The hooks and extra binaries, blank-separated, for dracut. */
	char extra_files[3 * CONF_VALUE_MAX + 4];
};

static int load_config(struct kdump_conf *c)
{
	struct conf_error err = { 0 };
	int r;

	r = conf_parse_file(c, arg_config, &err);
	if (r == -ENOENT && strcmp(arg_config, CONF_PATH_DEFAULT) == 0) {
		conf_init(c); /* no file: the documented defaults */
		return 0;
	}
	if (r < 0) {
		if (err.line && err.key[0])
			log_error("%s:%u: key '%s': %s", arg_config, err.line,
				  err.key, err.msg);
		else if (err.line)
			log_error("%s:%u: %s", arg_config, err.line, err.msg);
		else
			log_error("cannot read configuration '%s': %s",
				  arg_config, err.msg[0] ? err.msg : strerror(-r));
		return r;
	}
	return 0;
}

/*
 * Resolve the drivers, device-mapper layers and filesystem module the
 * capture needs for the target device devno; refuse a layer it cannot open.
 */
static int plan_chain(struct plan *p, dev_t devno, const char *fstype,
		      const char *what)
{
	char moddir[PATH_MAX];
	struct modload *km;
	size_t pos = 0;
	int r;

	snprintf(p->chain_what, sizeof(p->chain_what), "%s", what);
	snprintf(moddir, sizeof(moddir), "/lib/modules/%s", p->release);
	r = modload_new(moddir, &km);
	if (r < 0) {
		log_error("cannot read the kernel modules of %s: %s", moddir,
			  strerror(-r));
		return r;
	}
	r = devchain_resolve("/sys", devno, fstype, km, &p->chain);
	modload_free(km);
	if (r == -EMEDIUMTYPE) {
		log_error("cannot use dump target %s for the capture: it is on %s: %s in %s",
			  what, p->chain.layer, p->chain.fix, arg_config);
		return r;
	}
	if (r == -ENOPKG) {
		log_error("cannot use dump target %s for the capture: kernel %s has no module %s: install that kernel's modules or set 'kernel' in %s",
			  what, p->release, p->chain.layer, arg_config);
		return r;
	}
	if (r < 0) {
		/* The capture still searches for drivers device by device. */
		fprintf(stderr, "kdump-file: warning: cannot resolve the drivers of dump target %s: %s\n",
			what, strerror(-r));
		return 0;
	}
	p->chain_known = true;
	r = devchain_format(&p->chain, p->chain_text, sizeof(p->chain_text));
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

/*
 * The module files the capture loads for the target (0 when the drivers are
 * built in), for the estimate: a modular kernel holds them again, loaded.
 */
static unsigned long long chain_modules_bytes(const struct plan *p)
{
	const char *names[DEVCHAIN_MAX + CONF_LIST_MAX];
	char extra[CONF_LIST_MAX][64];
	unsigned long long bytes = 0;
	char moddir[PATH_MAX];
	struct modload *km;
	unsigned int n = 0;
	size_t pos = 0;

	for (unsigned int i = 0; i < p->chain.n; i++)
		if (p->chain.mods[i].state == MODLOAD_MODULE)
			names[n++] = p->chain.mods[i].name;
	/* And extra_modules, loaded too. */
	for (unsigned int i = 0; i < CONF_LIST_MAX &&
	     conf_list_next(p->conf.extra_modules, &pos, extra[i],
			    sizeof(extra[i])); i++)
		names[n++] = extra[i];
	if (n == 0)
		return 0;
	snprintf(moddir, sizeof(moddir), "/lib/modules/%s", p->release);
	if (modload_new(moddir, &km) < 0)
		return 0;
	if (modload_files_bytes(km, names, n, &bytes) < 0)
		bytes = 0;
	modload_free(km);
	return bytes;
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

#define SYS_WATCHDOG "/sys/class/watchdog/watchdog0"

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
static int watchdog_module(char *ret, size_t size)
{
	char identity[128], pat[PATH_MAX], link[PATH_MAX];
	glob_t g;
	ssize_t n = -1;

	n = readlink(SYS_WATCHDOG "/device/driver/module", link,
		     sizeof(link) - 1);
	if (n > 0)
		goto found;
	if (read_line_file(SYS_WATCHDOG "/identity", identity,
			   sizeof(identity)) < 0 || !identity[0] ||
	    strchr(identity, '/') || strchr(identity, '*') ||
	    strchr(identity, '?') || strchr(identity, '['))
		return -ENOENT;
	snprintf(pat, sizeof(pat), "/sys/bus/*/drivers/%s/module", identity);
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
 * What the capture loads besides the target's drivers: the pstore backend
 * in EFI variables, which keeps a failed capture's record across the
 * reboot, and the driver of the machine's hardware watchdog (the one this
 * system has: watchdog0's), which the capture arms as a backstop to
 * capture_timeout.  Neither is an error when missing: status and show say
 * what is not covered.
 */
static int plan_helpers(struct plan *p)
{
	char moddir[PATH_MAX], link[PATH_MAX], name[64];
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
	/*
	 * The watchdog's driver for the capture kernel: by the device's
	 * modalias, else by the name of the module bound to it here.
	 */
	if (r == 0 && read_line_file(SYS_WATCHDOG "/device/modalias", link,
				     sizeof(link)) == 0 &&
	    modload_lookup(km, link, name, sizeof(name), NULL, 0) !=
		    MODLOAD_MISSING) {
		r = plan_helper(p, km, "watchdog", name, p->watchdog,
				sizeof(p->watchdog));
	} else if (r == 0 && watchdog_module(link, sizeof(link)) == 0) {
		r = plan_helper(p, km, "watchdog", link, p->watchdog,
				sizeof(p->watchdog));
	}
	modload_free(km);
	return r;
}

static const char *violation_text(const struct input_violation *bad);

/*
 * The user's hooks and extra binaries (each must be a root-only regular
 * executable, as every other input of the capture initramfs) and extra
 * modules (each must exist for the capture kernel's release; a module,
 * not a built-in driver, goes to dracut with the target's).
 */
static int plan_extras(struct plan *p)
{
	static const struct {
		const char *key;
		size_t off;
	} lists[] = {
		{ "pre_hook", offsetof(struct kdump_conf, pre_hook) },
		{ "post_hook", offsetof(struct kdump_conf, post_hook) },
		{ "extra_binaries", offsetof(struct kdump_conf, extra_binaries) },
	};
	char word[CONF_VALUE_MAX], moddir[PATH_MAX];
	size_t pos, fl = 0;
	struct modload *km;
	int r;

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		const char *list = (const char *)&p->conf + lists[i].off;

		pos = 0;
		while (conf_list_next(list, &pos, word, sizeof(word))) {
			struct input_violation bad = { 0 };

			r = input_check_program(word, &bad);
			if (r == -ENOENT) {
				log_error("cannot use %s '%s' from %s: it does not exist (install it, or remove it from %s)",
					  lists[i].key, word, arg_config, arg_config);
				return r;
			}
			if (r == -EPERM && bad.fault == INPUT_NOT_REGULAR) {
				log_error("cannot use %s '%s' from %s: it is not a regular file (name the program itself)",
					  lists[i].key, word, arg_config);
				return r;
			}
			if (r == -EPERM && bad.fault == INPUT_NOT_EXECUTABLE) {
				log_error("cannot use %s '%s' from %s: it is not executable (chmod 0755 '%s')",
					  lists[i].key, word, arg_config, word);
				return r;
			}
			if (r == -EPERM) {
				log_error("cannot use %s '%s' from %s: '%s' is %s, and what the capture runs must be root's alone (chown root and chmod go-w '%s')",
					  lists[i].key, word, arg_config, bad.path,
					  violation_text(&bad), bad.path);
				return r;
			}
			if (r < 0) {
				log_error("cannot check %s '%s': '%s': %s",
					  lists[i].key, word, bad.path,
					  strerror(-r));
				return r;
			}
			fl += snprintf(p->extra_files + fl,
				       sizeof(p->extra_files) - fl, "%s%s",
				       fl ? " " : "", word);
		}
	}
	if (!p->conf.extra_modules[0])
		return 0;
	snprintf(moddir, sizeof(moddir), "/lib/modules/%s", p->release);
	r = modload_new(moddir, &km);
	if (r < 0) {
		log_error("cannot check extra_modules: cannot read the kernel modules of %s: %s",
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
			log_error("cannot use extra_modules '%s' from %s: kernel %s has no module of that name (see 'modinfo -k %s %s'; remove it from %s)",
				  word, arg_config, p->release, p->release,
				  word, arg_config);
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
 * What a load would do, from the config and the running system.  create:
 * make the dump directory when missing (load and rebuild; show, estimate
 * and status only look).
 */
/*
 * Dumps are read and removed as root: a dump directory others may write
 * (an existing 1777 /var/crash, a path below /var/tmp) lets them plant what
 * root then opens.
 */
static int check_dump_base(const char *base)
{
	char why[PATH_MAX + 64];
	int r;

	r = dump_base_check(base, why, sizeof(why));
	if (r == -EPERM)
		log_error("dump directory %s is not safe: %s; make it root's alone (chown root:root, chmod 0700) or set another 'path' in %s",
			  base, why, arg_config);
	else if (r < 0 && r != -ENOENT)
		log_error("cannot check dump directory %s: %s", base,
			  strerror(-r));
	return r;
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
	unsigned long long size = 0;
	struct raw_header old;
	ssize_t n;
	int fd, r;

	r = raw_user(dev, devno, what, sizeof(what));
	if (r < 0) {
		log_error("raw dump device %s cannot be used: %s, and a dump would destroy what is there; free it or set another 'raw' in %s",
			  dev, what, arg_config);
		return r;
	}
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &size) < 0 ||
	    (n = pread(fd, buf, sizeof(buf), 0)) < 0) {
		r = -errno;
		if (fd >= 0)
			close(fd);
		log_error("cannot read raw dump device %s: %s", dev, strerror(-r));
		return r;
	}
	close(fd);
	if (raw_header_parse(buf, n, size, &old) == -ENODATA &&
	    target_signature(dev, sig, sizeof(sig)) < 0)
		sig[0] = '\0';
	r = raw_may_write(buf, n, size, sig, true, p->conf.raw_force, NULL);
	if (r == -ENOTEMPTY) {
		log_error("raw dump device %s holds %s data that the first dump would destroy: if that is meant, erase it (wipefs -a %s) or set 'raw_force = yes' in %s",
			  dev, sig, dev, arg_config);
		return r;
	}
	if (loading && raw_may_write(buf, n, size, "", p->conf.raw_overwrite,
				     false, &old) == -EEXIST)
		fprintf(stderr, "kdump-file: warning: raw dump device %s holds a dump of %s not yet recovered: the next crash will not overwrite it; run 'kdump-file recover'\n",
			dev, old.release[0] ? old.release : "an unknown kernel");
	r = target_stable_id(dev, id, sizeof(id));
	if (r == 0) {
		snprintf(p->capture.raw, sizeof(p->capture.raw), "%s", id);
	} else {
		char real[PATH_MAX];

		/* No udev in the capture: /dev/disk/by-* names do not exist. */
		if (!realpath(dev, real))
			snprintf(real, sizeof(real), "%s", dev);
		if (loading)
			fprintf(stderr, "kdump-file: warning: raw dump device %s has no serial, WWID or partition UUID: the capture finds it as %s, a kernel name that can change between boots\n",
				dev, real);
		snprintf(p->capture.raw, sizeof(p->capture.raw), "%s", real);
	}
	return 0;
}

static int make_plan_ex(struct plan *p, bool create)
{
	char running[4096];
	struct utsname u;
	int r;

	memset(p, 0, sizeof(*p));
	r = load_config(&p->conf);
	if (r < 0)
		return r;
	if (uname(&u) < 0)
		return -errno;
	snprintf(p->release, sizeof(p->release), "%s", u.release);
	if (arg_kver) {
		char moddir[PATH_MAX];

		/* Another installed kernel (the kernel package's hook). */
		snprintf(moddir, sizeof(moddir), "/lib/modules/%s", arg_kver);
		if (!arg_kver[0] || strchr(arg_kver, '/') ||
		    strlen(arg_kver) >= sizeof(p->release) ||
		    access(moddir, F_OK) < 0) {
			log_error("--kver '%s' is not an installed kernel (no %s)",
				  arg_kver, moddir);
			return -ENOENT;
		}
		if (p->conf.kernel[0]) {
			log_error("'kernel' is set to '%s' in %s: the capture kernel is that one whichever kernel runs, and --kver does not apply",
				  p->conf.kernel, arg_config);
			return -EINVAL;
		}
		snprintf(p->release, sizeof(p->release), "%s", arg_kver);
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

	/* The capture kernel finds its target by UUID, not by mount point. */
	p->capture = p->conf;
	/*
	 * panic_on is for the running kernel: the capture kernel does not
	 * get it, and a change to it does not rebuild the initramfs.
	 */
	p->capture.panic_on = 0;
	/*
	 * An automatic capture_timeout follows the RAM, which memory hotplug
	 * changes: it goes on the capture kernel's command line, which each
	 * load writes anew, and not into the capture initramfs, which would
	 * then be rebuilt after every memory hotplug.
	 */
	if (!p->capture.capture_timeout)
		p->auto_timeout = estimate_capture_timeout(
			p->conf.target_timeout, system_ram(),
			p->conf.compression == COMPRESS_ZLIB);
	if (!p->conf.target[0] && !p->conf.raw[0]) {
		struct target_fs fs;

		r = create ? mkdir_p(p->conf.path, 0700) : 0;
		if (r < 0) {
			log_error("cannot create dump directory '%s': %s",
				  p->conf.path, strerror(-r));
			return r;
		}
		r = check_dump_base(p->conf.path);
		if (r < 0 && (r != -ENOENT || create))
			return r;
		r = resolve_dump_path(p->conf.path, &fs);
		if (r < 0) {
			log_error("cannot find the filesystem of dump directory '%s': %s%s%s%s",
				  p->conf.path, strerror(-r),
				  r == -ENOTBLK ? " (it is not on a block device: set 'target' in " : "",
				  r == -ENOTBLK ? arg_config : "",
				  r == -ENOTBLK ? ")" : "");
			return r;
		}
		snprintf(p->capture.target, sizeof(p->capture.target), "%s",
			 fs.spec);
		snprintf(p->capture.path, sizeof(p->capture.path), "%s",
			 fs.relpath);
		r = plan_chain(p, fs.devno, fs.fstype, fs.devnode);
	} else {
		const char *spec = p->conf.raw[0] ? p->conf.raw : p->conf.target;

		/* recover brings a raw device's dumps into path. */
		if (p->conf.raw[0]) {
			r = check_dump_base(p->conf.path);
			if (r < 0 && r != -ENOENT)
				return r;
		}
		char dev[PATH_MAX], fstype[64] = "";
		struct stat st;

		/* A target not attached now is looked for in the capture. */
		r = target_find_device(spec, dev, sizeof(dev), fstype,
				       sizeof(fstype));
		if (r == 0 && stat(dev, &st) == 0) {
			r = plan_chain(p, st.st_rdev,
				       p->conf.raw[0] ? "" : fstype, dev);
			if (r >= 0 && p->conf.raw[0])
				r = plan_raw(p, dev, st.st_rdev, create);
		} else {
			r = 0;
			if (create && p->conf.raw[0])
				fprintf(stderr, "kdump-file: warning: raw dump device %s is not attached: it cannot be checked now, and the capture looks for it by that name\n",
					p->conf.raw);
		}
	}
	if (r < 0)
		return r;
	r = plan_helpers(p);
	if (r < 0)
		return r;
	r = plan_extras(p);
	if (r < 0)
		return r;
	r = conf_write(&p->capture, p->capture_conf_text,
		       sizeof(p->capture_conf_text));
	if (r < 0)
		return r;
	/*
	 * What the capture will read, read back now: a value that passes
	 * here but not there (a path with a space, resolved from the mount)
	 * is refused at load time, not found out after a crash.
	 */
	{
		struct conf_error err = { 0 };
		struct kdump_conf back;

		r = conf_parse_buffer(&back, p->capture_conf_text,
				      strlen(p->capture_conf_text), &err);
		if (r < 0) {
			log_error("the capture could not read its configuration as made from %s: %s%s%s (line %u of the capture's copy): change that value",
				  arg_config, err.key, err.key[0] ? ": " : "",
				  err.msg, err.line);
			return r;
		}
	}

	r = read_line_file("/proc/cmdline", running, sizeof(running));
	if (r < 0) {
		log_error("cannot read /proc/cmdline: %s", strerror(-r));
		return r;
	}
	r = cmdline_build(running, &p->conf, p->cmdline, sizeof(p->cmdline));
	if (r >= 0 && p->cmdline_pstore[0])
		r = cmdline_add(p->cmdline, sizeof(p->cmdline), p->cmdline_pstore);
	if (r >= 0 && p->auto_timeout) {
		char t[64];

		snprintf(t, sizeof(t), CONF_CMDLINE_CAPTURE_TIMEOUT "=%u",
			 p->auto_timeout);
		r = cmdline_add(p->cmdline, sizeof(p->cmdline), t);
	}
	if (r < 0) {
		log_error("the capture command line is too long (the kernel takes %d bytes including elfcorehdr=): shorten cmdline_append or remove parameters with cmdline_remove in %s",
			  CMDLINE_KERNEL_MAX - 1, arg_config);
		return r;
	}
	return 0;
}

static int make_plan(struct plan *p)
{
	return make_plan_ex(p, true);
}

static int open_regular(const char *what, const char *path, int *ret_fd)
{
	struct stat st;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		int r = -errno;

		log_error("cannot open %s '%s': %s%s%s%s", what, path,
			  strerror(-r), r == -ENOENT ? " (set it in " : "",
			  r == -ENOENT ? arg_config : "",
			  r == -ENOENT ? ")" : "");
		return r;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
		log_error("%s '%s' is not a non-empty regular file", what, path);
		close(fd);
		return -EINVAL;
	}
	*ret_fd = fd;
	return 0;
}

/*
 * Where this system sees the dumps: path itself for the default target, or
 * path below wherever the target device is mounted.
 */
/*
 * A dump target that nothing mounts here: mounted by this process alone,
 * in a mount namespace of its own (nobody else sees it; it goes when the
 * process ends), read-only unless writable.  Once per process.
 */
static char private_mount[PATH_MAX];

static int mount_target_private(const char *dev, const char *fstype,
				bool writable, char *ret, size_t size)
{
	const char *where = RUN_DIR "/target";
	int r;

	if (!private_mount[0]) {
		if (geteuid() != 0)
			return -EPERM;
		r = mkdir_p(where, 0700);
		if (r < 0)
			return r;
		if (unshare(CLONE_NEWNS) < 0 ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
			return -errno;
		/* btrfs: the top level, where the capture writes (subvolid=5). */
		if (mount(dev, where, fstype, (writable ? 0 : MS_RDONLY) |
			  MS_NOSUID | MS_NODEV | MS_NOEXEC,
			  strcmp(fstype, "btrfs") == 0 ? "subvolid=5" : NULL) < 0)
			return -errno;
		snprintf(private_mount, sizeof(private_mount), "%s", where);
	}
	return snprintf(ret, size, "%s", private_mount) >= (int)size ?
		       -ENAMETOOLONG : 0;
}

static bool arg_writable;	/* report: a private mount must take writes */

static int dumps_base(const struct kdump_conf *c, char *ret, size_t size)
{
	char dev[PATH_MAX], mnt[PATH_MAX], fstype[64] = "";
	int r;

	if (!c->target[0] && !c->raw[0]) {
		snprintf(ret, size, "%s", c->path);
		return 0;
	}
	if (!c->target[0]) {
		/* raw: "kdump-file recover" brings dumps into path. */
		snprintf(ret, size, "%s", c->path);
		return 0;
	}
	r = target_find_device(c->target, dev, sizeof(dev), fstype,
			       sizeof(fstype));
	if (r >= 0)
		r = target_mountpoint(dev, mnt, sizeof(mnt));
	if (r == -ENOENT && fstype[0])
		r = mount_target_private(dev, fstype, arg_writable, mnt,
					 sizeof(mnt));
	if (r < 0)
		return r;
	if (strcmp(c->path, "/") == 0)
		snprintf(ret, size, "%s", mnt);
	else
		snprintf(ret, size, "%s%s", strcmp(mnt, "/") ? mnt : "", c->path);
	return 0;
}

/* The newest dump's and newest complete dump's times, as dump_scan(). */
static int dump_times(const struct kdump_conf *c, long long *ret_newest,
		      long long *ret_complete)
{
	char base[PATH_MAX];
	int r;

	r = dumps_base(c, base, sizeof(base));
	if (r < 0)
		return r;
	r = dump_scan(base, ret_newest, ret_complete);
	if (r == -ENOENT) {
		*ret_newest = *ret_complete = -1;
		return 0;
	}
	return r;
}

static int take_lock(int *ret_fd)
{
	int fd, r;

	r = mkdir_p(RUN_DIR, 0700);
	if (r < 0) {
		log_error("cannot create %s: %s", RUN_DIR, strerror(-r));
		return r;
	}
	fd = open(RUN_DIR "/lock", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0) {
		r = -errno;
		log_error("cannot open %s/lock: %s", RUN_DIR, strerror(-r));
		return r;
	}
	/*
	 * A reload after hotplug waits for a load under way: that load may
	 * have read the CPUs and memory before the hotplug.
	 */
	if (flock(fd, LOCK_EX | (arg_after_hotplug ? 0 : LOCK_NB)) < 0) {
		r = -errno;
		close(fd);
		if (r == -EWOULDBLOCK) {
			log_error("another kdump-file is loading or unloading the capture kernel (busy): try again when it has finished");
			return -EBUSY;
		}
		log_error("cannot lock %s/lock: %s", RUN_DIR, strerror(-r));
		return r;
	}
	*ret_fd = fd;
	return 0;
}

static const char *violation_text(const struct input_violation *bad)
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

/*
 * The capture kernel and a configured initramfs run as the crashed
 * system's last word: at every load, not only when an initramfs is built,
 * they and the directories above them must be root's alone.
 */
static int check_boot_files(const struct plan *p)
{
	const char *paths[] = { p->kernel, p->initramfs };
	struct input_violation bad = { 0 };
	int r;

	r = paths_check_root_only(paths, p->initramfs_managed ? 1 : 2, &bad);
	if (r == -EPERM)
		log_error("refusing to load '%s': it is %s, and what the capture kernel boots must be root's alone (chown root and chmod go-w '%s')",
			  bad.path, violation_text(&bad), bad.path);
	else if (r < 0 && r != -ENOENT)
		log_error("cannot check '%s': %s", bad.path, strerror(-r));
	return r == -ENOENT ? 0 : r;
}

static int ensure_initramfs(struct plan *p, bool force)
{
	char fingerprint[32768], conf_file[] = RUN_DIR "/capture.conf";
	char chain_file[] = RUN_DIR "/capture-chain";
	struct input_violation bad;
	unsigned long long t0;
	int r;

	if (!p->initramfs_managed)
		return 0;
	r = initramfs_fingerprint(p->kernel, p->capture_conf_text,
				  p->chain_text, p->extra_files, fingerprint,
				  sizeof(fingerprint));
	if (r < 0) {
		log_error("cannot inspect the capture inputs (is the dracut module installed in %s?): %s",
			  KDUMP_FILE_DRACUT_MODULE, strerror(-r));
		return r;
	}
	if (!force && initramfs_is_current(p->initramfs, fingerprint))
		return 0;
	r = initramfs_check_inputs(p->kernel, &bad);
	if (r == -EPERM) {
		log_error("refusing to build the capture initramfs: '%s' is %s: only root-owned files that only root can modify go into it (chown root and chmod go-w '%s')",
			  bad.path, violation_text(&bad), bad.path);
		return r;
	}
	if (r < 0) {
		log_error("cannot check what goes into the capture initramfs: '%s': %s",
			  bad.path, strerror(-r));
		return r;
	}
	r = mkdir_p(KDUMP_FILE_STATE_DIR, 0700);
	if (r >= 0)
		r = mkdir_p(RUN_DIR, 0700);
	if (r >= 0)
		r = write_file_atomic(conf_file, p->capture_conf_text,
				      strlen(p->capture_conf_text), 0600);
	if (r < 0) {
		log_error("cannot write %s: %s", conf_file, strerror(-r));
		return r;
	}
	r = write_file_atomic(chain_file, p->chain_text, strlen(p->chain_text),
			      0600);
	if (r < 0) {
		log_error("cannot write %s: %s", chain_file, strerror(-r));
		return r;
	}
	printf("kdump-file: building capture initramfs %s\n", p->initramfs);
	fflush(stdout);
	t0 = now_ms();
	r = initramfs_build(p->initramfs, p->release, conf_file, chain_file,
			    p->chain_drivers, p->extra_files, fingerprint);
	if (r < 0) {
		log_error("cannot build capture initramfs '%s' with dracut: %s",
			  p->initramfs,
			  r == -ENOENT ? "dracut is not installed" :
			  r == -EIO ? "dracut failed (its messages are above)" :
				      strerror(-r));
		return r;
	}
	printf("kdump-file: built %s in %.1f s\n", p->initramfs,
	       (now_ms() - t0) / 1000.0);
	return 0;
}

static void fill_context(struct kexec_context *ctx, const struct plan *p,
			 int kfd, char *lockdown, size_t lsize)
{
	unsigned long long v;
	char *s, *e;
	int sig;

	memset(ctx, 0, sizeof(*ctx));
	ctx->kernel = p->kernel;
	ctx->initramfs = p->initramfs;
	ctx->is_root = geteuid() == 0;
	if (read_ull_file(SYS_CRASH_SIZE, &v) == 0)
		ctx->reserved = v;
	if (read_ull_file("/proc/sys/kernel/kexec_load_disabled", &v) == 0)
		ctx->kexec_disabled = v != 0;
	/* "none [integrity] confidentiality": the bracketed one is active. */
	if (read_line_file("/sys/kernel/security/lockdown", lockdown, lsize) == 0 &&
	    (s = strchr(lockdown, '[')) && (e = strchr(s, ']'))) {
		*e = '\0';
		ctx->lockdown = s + 1;
	} else if (read_line_file("/proc/cmdline", lockdown, lsize) == 0) {
		/*
		 * Without securityfs (CONFIG_SECURITYFS, or not mounted) the
		 * mode is not readable; lockdown= on the command line is the
		 * next best witness.
		 */
		for (s = strtok_r(lockdown, " \t\n", &e); s;
		     s = strtok_r(NULL, " \t\n", &e))
			if (strncmp(s, "lockdown=", 9) == 0 && s[9]) {
				ctx->lockdown = s + 9;
				break;
			}
	}
	sig = kexec_image_signature(kfd);
	ctx->signed_state = sig > 0 ? sig : KEXEC_SIG_UNKNOWN;
}

static int write_state(const struct plan *p)
{
	char buf[PATH_MAX * 2 + sizeof(p->cmdline) + 64];
	int r;

	r = loaded_format(p->kernel, p->initramfs, p->cmdline, buf, sizeof(buf));
	if (r < 0)
		return r;
	return write_file_atomic(RUN_DIR "/loaded", buf, strlen(buf), 0600);
}

/* Record that kernel is loaded as the capture kernel in this boot. */
static int write_armed(const char *kernel)
{
	char boot[64], buf[PATH_MAX + 128];
	int r;

	r = read_line_file(BOOT_ID_FILE, boot, sizeof(boot));
	if (r >= 0)
		r = armed_format(boot, (long long)time(NULL), kernel, buf,
				 sizeof(buf));
	if (r >= 0)
		r = mkdir_p(KDUMP_FILE_STATE_DIR, 0700);
	if (r >= 0)
		r = write_file_atomic(ARMED_FILE, buf, strlen(buf), 0600);
	return r;
}

/*
 * Before a load arms a new marker: a marker from another boot means that
 * boot ended without a clean shutdown (which unloads) while a capture
 * kernel was loaded.  Without a dump from then on, its crash, if it was
 * one, was lost: record that in LOST_FILE for status.  Nothing is decided
 * while the dumps cannot be seen from here (a target not mounted).
 */
/* Where pstore records are: the kernel's, and systemd-pstore's archive. */
static const char *const pstore_dirs[] = {
	"/sys/fs/pstore", "/var/lib/systemd/pstore", NULL,
};

/* What status and the journal say of a lost crash: the record's reason if any. */
static int lost_text(const struct armed *a, char *buf, size_t size)
{
	struct capture_record rec;

	if (record_find(pstore_dirs, a->time, &rec) == 0 &&
	    record_describe(&rec, buf, size) == 0)
		return 0;
	return lost_describe(a, buf, size);
}

static void record_lost_crash(const struct kdump_conf *c)
{
	char marker[PATH_MAX + 128], boot[64] = "", buf[256];
	long long newest, complete;
	struct capture_record rec;
	enum crash_verdict v;
	struct armed a;
	bool seen;
	int r;

	/*
	 * Dumps that cannot be seen (a target not mounted here) decide
	 * nothing, unless the capture's own record says it failed.
	 */
	seen = dump_times(c, &newest, &complete) == 0;
	if (!seen)
		newest = complete = -1;
	if (seen && read_line_file(LOST_FILE, buf, sizeof(buf)) == 0 &&
	    armed_parse(buf, &a) == 0 && !lost_is_current(&a, complete))
		(void)unlink(LOST_FILE);
	if (read_line_file(ARMED_FILE, marker, sizeof(marker)) < 0 ||
	    read_line_file(BOOT_ID_FILE, boot, sizeof(boot)) < 0)
		return;
	v = crash_verdict(marker, boot, newest, &a);
	if (!seen && (v != CRASH_LOST ||
		      record_find(pstore_dirs, a.time, &rec) < 0))
		return;
	switch (v) {
	case CRASH_NONE:
		return;
	case CRASH_LOST: {
		char text[2048];

		if (lost_text(&a, text, sizeof(text)) == 0)
			fprintf(stderr, "kdump-file: a crash was lost: %s\n", text);
		r = armed_format(a.boot, a.time, NULL, buf, sizeof(buf));
		if (r >= 0)
			r = write_file_atomic(LOST_FILE, buf, strlen(buf), 0600);
		if (r < 0) {
			log_error("cannot record in %s that boot %s lost its crash: %s",
				  LOST_FILE, a.boot, strerror(-r));
			return;
		}
		break;
	}
	case CRASH_SAVED:
		break;
	}
	(void)unlink(ARMED_FILE);
}

/*
 * panic_on: the sysctls behind it, set after a load and put back by unload
 * (see panicon.h).  The messages name the sysctl, its value and why.
 */
static const char *panic_on_hint(int r)
{
	switch (r) {
	case -EROFS:
		return " (/proc/sys is read-only here: kdump-file.service must list the sysctl in ReadWritePaths=)";
	case -EACCES:
	case -EPERM:
		return " (run as root)";
	default:
		return "";
	}
}

static void panic_on_failed(const char *what, const struct panicon_result *res,
			    const char *value, int r)
{
	if (r == -EBADMSG && res->failed < 0)
		log_error("cannot %s the panic_on sysctls: %s is damaged, so their values before kdump-file are unknown: check them with 'sysctl kernel' and remove the file",
			  what, PANIC_ON_FILE);
	else if (r == -EBADMSG)
		log_error("cannot %s %s: it does not read as a number",
			  what, panicon_sysctl(res->failed));
	else if (res->failed < 0)
		log_error("cannot record the panic_on sysctls' values before kdump-file in %s: %s",
			  PANIC_ON_FILE, strerror(-r));
	else
		log_error("cannot %s %s%s%s: %s%s", what,
			  panicon_sysctl(res->failed), value ? "=" : "",
			  value ? value : "", strerror(-r), panic_on_hint(r));
}

/* "oops (kernel.panic_on_oops=1), warn (kernel.panic_on_warn=1)" */
static void panic_on_list(unsigned int mask, char *buf, size_t size)
{
	size_t pos = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < PANIC_ON_COUNT && pos < size; i++)
		if (mask & (1U << i))
			pos += snprintf(buf + pos, size - pos, "%s%s (%s=1)",
					pos ? ", " : "", conf_panic_on_name(i),
					panicon_sysctl(i));
}

/* The values panicon put back, "kernel.panic_on_warn=0, ...". */
static void panic_on_restored(const struct panicon_result *res, char *buf,
			      size_t size)
{
	size_t pos = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < PANIC_ON_COUNT && pos < size; i++)
		if (res->restored & (1U << i))
			pos += snprintf(buf + pos, size - pos, "%s%s=%s",
					pos ? ", " : "", panicon_sysctl(i),
					res->value[i]);
}

/*
 * After a capture kernel was loaded: panic on what panic_on names, and on
 * nothing more of ours.  A failure changes nothing and is an error.
 */
static int load_panic_on(unsigned int want)
{
	struct panicon_result res;
	char text[1024];
	int r;

	r = panicon_apply(PANICON_SYSCTL_ROOT, PANIC_ON_FILE, want, &res);
	if (r < 0) {
		panic_on_failed("set", &res, "1", r);
		fprintf(stderr, "kdump-file: panic_on in %s is not in effect (the sysctls are as they were); the capture kernel is loaded\n",
			arg_config);
		return r;
	}
	for (unsigned int i = 0; i < PANIC_ON_COUNT; i++)
		if (res.missing & (1U << i))
			fprintf(stderr, "kdump-file: warning: panic_on %s left out: %s (no %s)\n",
				conf_panic_on_name(i), panicon_missing_reason(i),
				panicon_sysctl(i));
	if (res.restored) {
		panic_on_restored(&res, text, sizeof(text));
		printf("kdump-file: panic on: no longer asked for, put back as before: %s\n",
		       text);
	}
	if (res.set) {
		panic_on_list(res.set, text, sizeof(text));
		printf("kdump-file: panic on: %s\n", text);
	}
	return 0;
}

/* No capture kernel is loaded any more: put the sysctls back. */
static int unload_panic_on(void)
{
	struct panicon_result res;
	char text[1024];
	int r;

	r = panicon_restore(PANICON_SYSCTL_ROOT, PANIC_ON_FILE, &res);
	if (res.restored) {
		panic_on_restored(&res, text, sizeof(text));
		printf("kdump-file: panic on: put back as before: %s\n", text);
	}
	if (r < 0) {
		panic_on_failed("put back", &res, NULL, r);
		fprintf(stderr, "kdump-file: what could not be put back stays in %s for the next unload\n",
			PANIC_ON_FILE);
	}
	return r;
}

/*
 * The capture kernel loaded before this load, opened before the syscall:
 * kexec_file_load(KEXEC_FILE_ON_CRASH) frees it before it parses the new
 * one (kernel/kexec_file.c), so a load the kernel refuses leaves none.
 */
struct previous {
	bool known;		/* loaded, and RUN_DIR/loaded says what */
	struct loaded_state s;
	int kfd, ifd;
	char open_error[PATH_MAX + 64];	/* why it cannot be loaded again */
	bool restored;		/* loaded again after the kernel refused */
};

/*
 * After a failed load: one line on what protects the machine now, so that
 * whoever reads the failure also reads whether a crash is still captured.
 */
static void say_loaded_now(bool restored)
{
	unsigned long long loaded = 0;
	struct loaded_state s;
	char text[sizeof(s) + 64];

	if (read_ull_file(SYS_CRASH_LOADED, &loaded) < 0)
		return;
	if (loaded != 1) {
		fprintf(stderr, "kdump-file: no capture kernel is loaded: a crash now is not captured\n");
		return;
	}
	if (read_line_file(RUN_DIR "/loaded", text, sizeof(text)) < 0 ||
	    loaded_parse(text, &s) < 0) {
		fprintf(stderr, "kdump-file: a capture kernel loaded by another tool stays loaded\n");
		return;
	}
	fprintf(stderr, "kdump-file: %s: %s with initramfs %s, as before this command: a crash is still captured\n",
		restored ? "loaded again" : "still loaded", s.kernel,
		s.initramfs[0] ? s.initramfs : "(none)");
}

static void previous_open(struct previous *prev)
{
	char text[sizeof(prev->s) + 64];
	unsigned long long loaded = 0;
	const char *path = NULL;

	prev->known = false;
	prev->kfd = prev->ifd = -1;
	prev->open_error[0] = '\0';
	if (read_ull_file(SYS_CRASH_LOADED, &loaded) < 0 || loaded != 1 ||
	    read_line_file(RUN_DIR "/loaded", text, sizeof(text)) < 0 ||
	    loaded_parse(text, &prev->s) < 0)
		return;
	prev->known = true;
	prev->kfd = open(prev->s.kernel, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (prev->kfd < 0)
		path = prev->s.kernel;
	else if (prev->s.initramfs[0]) {
		prev->ifd = open(prev->s.initramfs,
				 O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (prev->ifd < 0)
			path = prev->s.initramfs;
	}
	if (path)
		snprintf(prev->open_error, sizeof(prev->open_error),
			 "cannot open '%s': %s", path, strerror(errno));
}

static void previous_close(struct previous *prev)
{
	if (prev->ifd >= 0)
		close(prev->ifd);
	if (prev->kfd >= 0)
		close(prev->kfd);
	prev->kfd = prev->ifd = -1;
}

/* After the kernel refused a load: load the previous capture kernel again. */
static void previous_restore(struct previous *prev)
{
	unsigned long long loaded = 0;
	char why[PATH_MAX + 64];
	int r;

	/* EBUSY, or EPERM for want of CAP_SYS_BOOT: refused before freeing. */
	if (read_ull_file(SYS_CRASH_LOADED, &loaded) == 0 && loaded == 1)
		return;
	if (!prev->known) {
		(void)unlink(RUN_DIR "/loaded");
		(void)unlink(ARMED_FILE);
		(void)unload_panic_on();
		return;
	}
	if (prev->open_error[0]) {
		snprintf(why, sizeof(why), "%s", prev->open_error);
	} else {
		r = kexec_crash_load(prev->kfd, prev->ifd, prev->s.cmdline);
		if (r == 0) {
			fprintf(stderr, "kdump-file: the previously loaded capture kernel %s was loaded again\n",
				prev->s.kernel);
			prev->restored = true;
			/* RUN_DIR/loaded still describes it. */
			(void)write_armed(prev->s.kernel);
			return;
		}
		snprintf(why, sizeof(why), "kexec_file_load: %s", strerror(-r));
	}
	log_error("the previously loaded capture kernel %s could not be loaded again: %s",
		  prev->s.kernel, why);
	(void)unlink(RUN_DIR "/loaded");
	(void)unlink(ARMED_FILE);
	/* No capture kernel: a crash made to panic would not be saved. */
	(void)unload_panic_on();
}

/* System RAM as the crashed kernel will have it: MemTotal + the reservation. */
static unsigned long long system_ram(void)
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
	(void)read_ull_file(SYS_CRASH_SIZE, &reserved);
	return kib * 1024 + reserved;
}

static double mib_f(unsigned long long b)
{
	return b / 1048576.0;
}

static int do_recover(void);
/* reload --after-hotplug found no capture kernel of kdump-file's loaded. */
static bool hotplug_nothing_loaded;

static int do_load(void)
{
	struct previous prev = { .kfd = -1, .ifd = -1 };
	struct initramfs_problem bad = { 0 };
	struct kexec_context ctx;
	unsigned long long reserved = 0, loaded = 0;
	char lockdown[4096] = "";
	bool loaded_new = false;
	struct plan p;
	int lock_fd = -1, kfd = -1, ifd = -1, r;

	r = read_ull_file(SYS_CRASH_SIZE, &reserved);
	if (r < 0) {
		log_error("cannot read %s: %s (is this kernel built with CONFIG_KEXEC_FILE and CONFIG_CRASH_DUMP?)",
			  SYS_CRASH_SIZE, strerror(-r));
		return r;
	}
	if (reserved == 0) {
		log_error("cannot load a capture kernel: no crashkernel= memory is reserved (add crashkernel=256M to the kernel command line, e.g. in GRUB_CMDLINE_LINUX of /etc/default/grub, run update-grub and reboot)");
		return -EADDRNOTAVAIL;
	}
	/*
	 * A dump left on the raw device comes out before a capture kernel
	 * that could be needed goes in (the capture keeps an unrecovered
	 * dump, so a crash before it was copied would be lost).  Its failure
	 * is said, and the load goes on: protection first.  A configuration
	 * that does not parse is left for make_plan() to report, once.
	 */
	{
		struct kdump_conf c;

		if (conf_parse_file(&c, arg_config, NULL) == 0 && c.raw[0])
			(void)do_recover();
	}
	r = make_plan(&p);
	if (r < 0) {
		say_loaded_now(false);
		return r;
	}
	r = take_lock(&lock_fd);
	if (r < 0)
		return r;
	record_lost_crash(&p.conf);
	/* Before a rebuild can replace the initramfs it was loaded with. */
	previous_open(&prev);
	/*
	 * After a hotplug, only kdump-file's own capture kernel is loaded
	 * again: never one that an unload, while this waited for the lock,
	 * took away, nor another tool's.
	 */
	if (arg_after_hotplug && !prev.known) {
		hotplug_nothing_loaded = true;
		r = 0;
		goto out;
	}

	/* Every check before the syscall: a refused input leaves the kernel alone. */
	r = open_regular("capture kernel", p.kernel, &kfd);
	if (r < 0)
		goto out;
	r = kexec_check_bzimage(kfd);
	if (r == -EBADMSG) {
		log_error("capture kernel '%s' is truncated: its boot header announces more than the file holds (a copy cut short?): reinstall it, or point 'kernel' in %s at a complete vmlinuz",
			  p.kernel, arg_config);
		goto out;
	}
	if (r < 0) {
		log_error("cannot load capture kernel '%s': not an x86_64 bzImage that kexec_file_load accepts (boot protocol 2.12, 64-bit entry): point 'kernel' in %s at a vmlinuz",
			  p.kernel, arg_config);
		goto out;
	}
	r = check_boot_files(&p);
	if (r < 0)
		goto out;
	r = ensure_initramfs(&p, false);
	if (r < 0)
		goto out;
	r = open_regular("capture initramfs", p.initramfs, &ifd);
	if (r < 0)
		goto out;
	r = initramfs_verify(ifd, &bad);
	if (r == -EBADMSG && p.initramfs_managed)
		log_error("capture initramfs '%s' is truncated or corrupt: rebuild it with 'kdump-file rebuild' (%s at byte %llu)",
			  p.initramfs, bad.what, bad.offset);
	else if (r == -EBADMSG)
		log_error("capture initramfs '%s' is truncated or corrupt: rebuild or replace that file, or remove 'initramfs' from %s to have kdump-file build one (%s at byte %llu)",
			  p.initramfs, arg_config, bad.what, bad.offset);
	else if (r == -EINVAL)
		log_error("capture initramfs '%s' is neither a cpio archive nor a compressed one: %s",
			  p.initramfs, p.initramfs_managed ?
			  "rebuild it with 'kdump-file rebuild'" :
			  "point 'initramfs' at an initramfs image");
	else if (r < 0)
		log_error("cannot read capture initramfs '%s': %s", p.initramfs,
			  strerror(-r));
	if (r < 0)
		goto out;

	{
		struct estimate e;

		/*
		 * A set that cannot fit the reservation is refused here: the
		 * kernel would refuse it too, but only after it has dropped
		 * the loaded capture kernel, which then has to be loaded again.
		 */
		bool have_e = estimate_capture(kfd, ifd, system_ram(),
					       chain_modules_bytes(&p), &e) == 0;

		if (have_e && e.kernel + e.initramfs > reserved) {
			log_error("cannot load capture kernel '%s' with initramfs '%s': they take %llu MiB in memory (the kernel's init_size %llu MiB, the initramfs %llu MiB), more than the %llu MiB crashkernel= reserves: raise crashkernel= and reboot, or use a smaller initramfs",
				  p.kernel, p.initramfs,
				  (e.kernel + e.initramfs) >> 20, e.kernel >> 20,
				  e.initramfs >> 20, reserved >> 20);
			r = -E2BIG;
			goto out;
		}
		if (have_e && reserved < e.needed)
			fprintf(stderr,
				"kdump-file: warning: the crashkernel= reservation (%llu MiB) is smaller than the %llu MiB the capture needs: it may run out of memory and save nothing (see 'kdump-file estimate')\n",
				reserved >> 20, (e.needed + (1ULL << 20) - 1) >> 20);
	}
	r = kexec_crash_load(kfd, ifd, p.cmdline);
	if (r < 0) {
		char why[1024];
		struct estimate e;

		fill_context(&ctx, &p, kfd, lockdown, sizeof(lockdown));
		if (estimate_capture(kfd, ifd, system_ram(),
				     chain_modules_bytes(&p), &e) == 0)
			ctx.needed = e.needed;
		kexec_explain(-r, &ctx, why, sizeof(why));
		log_error("cannot load capture kernel '%s' with initramfs '%s': kexec_file_load: %s: %s",
			  p.kernel, p.initramfs, strerror(-r), why);
		previous_restore(&prev);
		goto out;
	}
	r = read_ull_file(SYS_CRASH_LOADED, &loaded);
	if (r < 0 || loaded != 1) {
		log_error("the kernel accepted capture kernel '%s' but %s does not read 1",
			  p.kernel, SYS_CRASH_LOADED);
		r = -EIO;
		goto out;
	}
	r = write_state(&p);
	if (r < 0)
		log_error("capture kernel loaded, but cannot record it in %s/loaded: %s",
			  RUN_DIR, strerror(-r));
	r = write_armed(p.kernel);
	if (r < 0)
		log_error("capture kernel loaded, but cannot record it in %s: %s (a lost crash will not be reported)",
			  ARMED_FILE, strerror(-r));
	printf("kdump-file: capture kernel %s loaded (initramfs %s, %llu MiB reserved)\n",
	       p.kernel, p.initramfs, reserved >> 20);
	loaded_new = true;
	r = load_panic_on(p.conf.panic_on);
out:
	if (r < 0 && !loaded_new)
		say_loaded_now(prev.restored);
	previous_close(&prev);
	if (ifd >= 0)
		close(ifd);
	if (kfd >= 0)
		close(kfd);
	close(lock_fd);
	return r;
}

static int do_unload(void)
{
	unsigned long long loaded = 0;
	int lock_fd, r;

	r = take_lock(&lock_fd);
	if (r < 0)
		return r;
	r = kexec_crash_unload();
	if (r < 0) {
		log_error("cannot unload the capture kernel: kexec_file_load: %s%s",
			  strerror(-r),
			  r == -EPERM ? " (run as root)" : "");
		goto out;
	}
	(void)unlink(RUN_DIR "/loaded");
	/* Unloaded: a boot that ends now has no capture to lose. */
	(void)unlink(ARMED_FILE);
	if (read_ull_file(SYS_CRASH_LOADED, &loaded) == 0 && loaded) {
		log_error("the capture kernel is still loaded after unloading (%s reads 1)",
			  SYS_CRASH_LOADED);
		r = -EIO;
		goto out;
	}
	printf("kdump-file: capture kernel unloaded\n");
	r = unload_panic_on();
out:
	close(lock_fd);
	return r;
}

#define TEST_FILE KDUMP_FILE_STATE_DIR "/test"

/* Whether the plan's initramfs would be rebuilt by the next load. */
static const char *plan_initramfs_state(const struct plan *p)
{
	char fingerprint[32768];

	if (!p->initramfs_managed)
		return "set in the configuration";
	if (access(p->initramfs, F_OK) < 0)
		return "not built: the next load builds it";
	if (initramfs_fingerprint(p->kernel, p->capture_conf_text, p->chain_text,
				  p->extra_files, fingerprint,
				  sizeof(fingerprint)) < 0 ||
	    !initramfs_is_current(p->initramfs, fingerprint))
		return "out of date: the next load rebuilds it";
	return "current";
}

/* Whether img, the loaded initramfs, would be rebuilt by the next load. */
static const char *initramfs_state(const char *img)
{
	static struct plan p;

	if (make_plan_ex(&p, false) < 0 || strcmp(p.initramfs, img) != 0)
		return "not the configured one: reload to change";
	return plan_initramfs_state(&p);
}

static void print_dump(const char *label, const struct dump_info *d)
{
	if (d->has_vmcore)
		printf("%-13s %s: complete, %lld MiB", label, d->dir,
		       d->vmcore_bytes >> 20);
	else if (dump_complete(d))
		printf("%-13s %s: complete, dmesg only (dump_level = dmesg: no vmcore)",
		       label, d->dir);
	else if (d->has_dmesg)
		printf("%-13s %s: INCOMPLETE (dmesg saved, no vmcore%s%s%s)", label,
		       d->dir, d->has_incomplete ? "; vmcore-incomplete left" : "",
		       d->error[0] ? ": " : "", d->error);
	else
		printf("%-13s %s: FAILED (nothing saved)", label, d->dir);
	if (d->panic[0])
		printf(", panic \"%s\"", d->panic);
	putchar('\n');
	if (d->summary[0])
		printf("%-13s %s\n", "report:", d->summary);
}

/*
 * The outcome of "kdump-file test": passed when a complete dump from a
 * crash at or after the test's time exists, pending while the machine has
 * not rebooted since, failed otherwise.
 */
/* What the last "kdump-file test" came to, into buf; false when none ran. */
static bool test_line(const struct kdump_conf *c, const struct dump_info *last,
		      char *out, size_t size)
{
	char buf[512], id[64] = "", boot[64] = "", now_boot[64] = "";
	long long t = -1;

	if (read_line_file(TEST_FILE, buf, sizeof(buf)) < 0)
		return false;
	if (sscanf(buf, "id=%63s time=%lld boot=%63s", id, &t, boot) != 3) {
		snprintf(out, size, "unreadable record %s", TEST_FILE);
		return true;
	}
	(void)read_line_file("/proc/sys/kernel/random/boot_id", now_boot,
			     sizeof(now_boot));
	if (strcmp(boot, now_boot) == 0)
		snprintf(out, size, "%s pending (the machine has not crashed yet)", id);
	else if (last && last->crash_time >= t && dump_complete(last))
		snprintf(out, size, "%s passed: dump %s", id, last->dir);
	else if (last && last->crash_time >= t)
		snprintf(out, size, "%s FAILED: dump %s is incomplete", id, last->dir);
	else
		snprintf(out, size, "%s FAILED: no dump in %s from the test crash",
			 id, c->path);
	return true;
}

/*
 * A crash lost: the armed marker of a boot that ended without a clean
 * shutdown and left no dump (before the next load records it), or the
 * record of one, until a complete dump at or after it exists.
 */
static bool lost_line(const struct kdump_conf *c, char *text, size_t size)
{
	char marker[PATH_MAX + 128], boot[64] = "";
	long long newest, complete;
	struct capture_record rec;
	struct armed a;
	bool seen;

	/* Dumps not seen: only the capture's own record tells. */
	seen = dump_times(c, &newest, &complete) == 0;
	if (!seen)
		newest = complete = -1;
	(void)read_line_file(BOOT_ID_FILE, boot, sizeof(boot));
	if (!(read_line_file(ARMED_FILE, marker, sizeof(marker)) == 0 &&
	      crash_verdict(marker, boot, newest, &a) == CRASH_LOST) &&
	    !(read_line_file(LOST_FILE, marker, sizeof(marker)) == 0 &&
	      armed_parse(marker, &a) == 0 && lost_is_current(&a, complete)))
		return false;
	if (!seen && record_find(pstore_dirs, a.time, &rec) < 0)
		return false;
	return lost_text(&a, text, size) == 0;
}

#define GRUB_DROPIN_DIR "/etc/default/grub.d"
#define GRUB_DROPIN GRUB_DROPIN_DIR "/kdump-file.cfg"

/* The crashkernel= value the GRUB drop-in of setup gives, in bytes. */
static int dropin_reservation(char *value, size_t size,
			      unsigned long long *ret_bytes)
{
	char *text = NULL, *p, *end;
	unsigned long long v;
	int r;

	r = read_file_max(GRUB_DROPIN, &text, 4096);
	if (r < 0)
		return r;
	p = strstr(text, "crashkernel=");
	if (!p) {
		free(text);
		return -EBADMSG;
	}
	p += strlen("crashkernel=");
	snprintf(value, size, "%.*s", (int)strcspn(p, "\" \n"), p);
	errno = 0;
	v = strtoull(value, &end, 10);
	if (errno || end == value || (*end != 'M' && *end != 'G')) {
		free(text);
		return -EBADMSG;
	}
	*ret_bytes = v << (*end == 'G' ? 30 : 20);
	free(text);
	return 0;
}

/* One dump as status --json gives it. */
static struct json_object *dump_json(const struct dump_info *d)
{
	struct json_object *o = json_object_new_object();
	int r = o ? 0 : -ENOMEM;

	if (r == 0)
		r = json_set_text(o, "dir", d->dir);
	if (r == 0)
		r = json_set_text(o, "state", dump_complete(d) ? "complete" :
				  d->has_dmesg ? "incomplete" : "failed");
	if (r == 0 && d->dmesg_only)
		r = json_set_bool(o, "dmesg_only", 1);
	if (r == 0 && d->has_vmcore)
		r = json_set_int(o, "vmcore_bytes", d->vmcore_bytes);
	if (r == 0 && d->crash_time >= 0)
		r = json_set_int(o, "crash_time", d->crash_time);
	if (r == 0 && d->release[0])
		r = json_set_text(o, "kernel_release", d->release);
	if (r == 0 && d->panic[0])
		r = json_set_text(o, "panic", d->panic);
	if (r == 0 && d->error[0])
		r = json_set_text(o, "error", d->error);
	if (r == 0 && d->summary[0])
		r = json_set_text(o, "report", d->summary);
	if (r < 0) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* Print obj as JSON on stdout, and free it. */
static int print_json(struct json_object *obj)
{
	const char *text;
	int r = 0;

	text = obj ? json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PRETTY |
						    JSON_C_TO_STRING_NOSLASHESCAPE) : NULL;
	if (!text)
		r = -ENOMEM;
	else if (printf("%s\n", text) < 0)
		r = -EIO;
	json_object_put(obj);
	return r;
}

/* The words of mask as a JSON array. */
static struct json_object *panic_on_json(unsigned int mask)
{
	struct json_object *a = json_object_new_array();

	for (unsigned int i = 0; a && i < PANIC_ON_COUNT; i++) {
		struct json_object *w;

		if (!(mask & (1U << i)))
			continue;
		w = json_text(conf_panic_on_name(i));
		if (!w || json_object_array_add(a, w)) {
			json_object_put(w);
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}

/*
 * status: which of panic_on's crashes panic now, whoever set them, and
 * what the configuration asks for when it is not that.
 */
static int status_panic_on(const struct kdump_conf *c, bool loaded,
			   struct json_object *j)
{
	unsigned int set, present, want = c->panic_on;
	char text[1024], words[128];

	if (panicon_read(PANICON_SYSCTL_ROOT, &set, &present) < 0)
		return 0;
	if (j) {
		static const char *const keys[] = {
			"panic_on", "panic_on_configured", "panic_on_unavailable",
		};
		unsigned int masks[] = { set, want, want & ~present };

		for (unsigned int k = 0; k < 3; k++) {
			struct json_object *a = panic_on_json(masks[k]);

			if (!a || json_object_object_add(j, keys[k], a)) {
				json_object_put(a);
				return -ENOMEM;
			}
		}
		return 0;
	}
	if (set)
		panic_on_list(set, text, sizeof(text));
	else
		snprintf(text, sizeof(text), "none");
	printf("panic on:     %s", text);
	if (conf_panic_on_format(want & present & ~set, words, sizeof(words)) == 0 &&
	    (want & present & ~set)) {
		if (loaded)
			printf("; panic_on asks for %s too: run 'kdump-file reload'",
			       words);
		else
			printf("; panic_on = %s takes effect while a capture kernel is loaded",
			       words);
	}
	if (conf_panic_on_format(want & ~present, words, sizeof(words)) == 0 &&
	    (want & ~present))
		printf("; this kernel cannot panic on %s (no such detector)",
		       words);
	putchar('\n');
	return 0;
}

static int do_status(void)
{
	unsigned long long reserved = 0, loaded = 0;
	char state[8192] = "", dir[PATH_MAX], lockdown[128] = "";
	char base[PATH_MAX], line[PATH_MAX + 2048];
	struct json_object *j = NULL, *set = NULL;
	struct dump_info d;
	struct kdump_conf c;
	bool have_dump = false, reserved_known;
	unsigned long long next = 0;
	char dropin[32] = "";
	int r, m = 0;

	r = load_config(&c);
	if (r < 0)
		return r;
	if (arg_json) {
		j = json_object_new_object();
		set = json_object_new_object();
		if (!j || !set) {
			json_object_put(j);
			json_object_put(set);
			return -ENOMEM;
		}
	}
	reserved_known = read_ull_file(SYS_CRASH_SIZE, &reserved) == 0;
	(void)read_ull_file(SYS_CRASH_LOADED, &loaded);
	if (j) {
		if (reserved_known)
			m = json_set_int(j, "reservation_bytes", reserved);
		if (m == 0)
			m = json_set_bool(j, "loaded", loaded != 0);
		if (m == 0 && dropin_reservation(dropin, sizeof(dropin), &next) == 0)
			m = json_set_int(j, "next_boot_reservation_bytes", next);
	} else {
		if (!reserved_known)
			printf("reservation:  unknown (%s unreadable)\n", SYS_CRASH_SIZE);
		else if (reserved == 0)
			printf("reservation:  none (run 'kdump-file setup' and reboot, or add crashkernel=256M to the kernel command line)\n");
		else
			printf("reservation:  %llu MiB\n", reserved >> 20);
		if (dropin_reservation(dropin, sizeof(dropin), &next) == 0 &&
		    next != reserved)
			printf("setup:        crashkernel=%s is set for the next boot (%s): reboot to reserve it\n",
			       dropin, GRUB_DROPIN);
		if (loaded)
			printf("loaded:       yes\n");
		else if (reserved)
			printf("loaded:       no: a crash now is not captured (systemctl enable --now kdump-file, or kdump-file load)\n");
		else
			printf("loaded:       no\n");
		if (loaded && geteuid() != 0 && access(RUN_DIR "/loaded", R_OK) < 0)
			printf("kernel:       unknown: %s/loaded is root's (run status as root)\n",
			       RUN_DIR);
	}
	if (loaded && read_line_file(RUN_DIR "/loaded", state, sizeof(state)) == 0) {
		for (char *l = strtok(state, "\n"); l; l = strtok(NULL, "\n")) {
			char *eq = strchr(l, '=');

			if (!eq)
				continue;
			*eq = '\0';
			if (j) {
				if (m == 0)
					m = json_set_text(set, l, eq + 1);
				if (m == 0 && strcmp(l, "initramfs") == 0)
					m = json_set_text(set, "initramfs_state",
							  initramfs_state(eq + 1));
				continue;
			}
			printf("%-13s %s", l, eq + 1);
			if (strcmp(l, "initramfs") == 0)
				printf(" (%s)", initramfs_state(eq + 1));
			putchar('\n');
		}
	}
	if (m == 0)
		m = status_panic_on(&c, loaded != 0, j);
	if (m == 0)
		m = hotplug_report(j, 13);
	if (read_line_file("/sys/kernel/security/lockdown", lockdown,
			   sizeof(lockdown)) == 0) {
		if (!j)
			printf("lockdown:     %s\n", lockdown);
		else if (m == 0)
			m = json_set_text(j, "lockdown", lockdown);
	}
	r = dumps_base(&c, base, sizeof(base));
	if (r == 0 && private_mount[0] && !j)
		printf("dump target:  %s, not mounted: read through a mount of this command's own\n",
		       c.target);
	if (r < 0) {
		snprintf(line, sizeof(line), "unknown: dump target %s %s",
			 c.target[0] ? c.target : c.raw,
			 r == -ENODEV ? "is not attached to this machine" :
			 "is not mounted here (mount it, or run status as root, to see its dumps)");
	} else {
		if (j && m == 0)
			m = json_set_text(j, "dump_dir", base);
		r = dump_find_last(base, dir, sizeof(dir));
		if (r == 0 && dump_inspect(dir, &d) == 0) {
			have_dump = true;
			if (!j)
				print_dump("last dump:", &d);
			else if (m == 0)
				m = json_object_object_add(j, "last_dump",
							   dump_json(&d)) ? -ENOMEM : 0;
		} else if (r == -EACCES || r == -EPERM) {
			snprintf(line, sizeof(line), "unknown: %s is root's alone (run status as root)",
				 base);
		} else {
			snprintf(line, sizeof(line), "none in %s", base);
		}
	}
	if (!have_dump) {
		if (!j)
			printf("last dump:    %s\n", line);
		else if (m == 0)
			m = json_set_text(j, "last_dump_note", line);
	}
	if (lost_line(&c, line, sizeof(line))) {
		if (!j)
			printf("%-13s LOST: %s\n", "last crash:", line);
		else if (m == 0)
			m = json_set_text(j, "lost_crash", line);
	}
	if (test_line(&c, have_dump ? &d : NULL, line, sizeof(line))) {
		if (!j)
			printf("%-13s %s\n", "test:", line);
		else if (m == 0)
			m = json_set_text(j, "test", line);
	}
	if (j) {
		if (m == 0 && loaded)
			m = json_object_object_add(j, "loaded_set", set) ? -ENOMEM : 0;
		else
			json_object_put(set);
		if (m == 0)
			m = print_json(j);
		else
			json_object_put(j);
		if (m < 0)
			return m;
	}
	return loaded ? 0 : EXIT_NOT_LOADED;
}

static int do_test(void)
{
	char id[64] = "", boot[64] = "", buf[256], answer[16];
	unsigned long long loaded = 0;
	int fd, n, r;

	if (read_ull_file(SYS_CRASH_LOADED, &loaded) < 0 || loaded != 1) {
		log_error("no capture kernel is loaded: run 'kdump-file load' (or systemctl start kdump-file) first, or the test crash would save nothing");
		return -ENOENT;
	}
	if (!arg_yes) {
		if (!isatty(STDIN_FILENO)) {
			log_error("'test' crashes this machine now; pass --yes to confirm when not on a terminal");
			return -ECANCELED;
		}
		printf("This crashes the machine now to test the capture. Type 'yes' to go on: ");
		fflush(stdout);
		if (!fgets(answer, sizeof(answer), stdin) ||
		    strcmp(answer, "yes\n") != 0) {
			printf("kdump-file: test cancelled\n");
			return -ECANCELED;
		}
	}
	(void)read_line_file("/proc/sys/kernel/random/uuid", id, 9);
	(void)read_line_file("/proc/sys/kernel/random/boot_id", boot, sizeof(boot));
	n = snprintf(buf, sizeof(buf), "id=%s time=%lld boot=%s\n", id,
		     (long long)time(NULL), boot);
	r = mkdir_p(KDUMP_FILE_STATE_DIR, 0700);
	if (r >= 0)
		r = write_file_atomic(TEST_FILE, buf, n, 0600);
	if (r < 0) {
		log_error("cannot record the test in %s: %s", TEST_FILE,
			  strerror(-r));
		return r;
	}
	printf("kdump-file: test %s: crashing now; after the reboot, 'kdump-file status' tells the result\n",
	       id);
	fflush(stdout);
	sync();
	fd = open("/proc/sysrq-trigger", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "c", 1) != 1) {
		r = -errno;
		log_error("cannot crash the machine through /proc/sysrq-trigger: %s",
			  strerror(-r));
		if (fd >= 0)
			close(fd);
		return r;
	}
	/* Not reached: the kernel panicked. */
	close(fd);
	return 0;
}

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
	char dir[PATH_MAX + 16], out[PATH_MAX + 48];
	size_t pos = 0;

	snprintf(dir, sizeof(dir), "%s/<time>",
		 strcmp(p->conf.path, "/") ? p->conf.path : "");
	vmcore[0] = '\0';
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
	if (conf_makedumpfile_cmd(&p->capture, "/proc/vmcore",
				  p->conf.raw[0] ? NULL : out, dir, &cmd) < 0)
		return;
	for (char **a = cmd.argv; *a && pos < size; a++)
		pos += snprintf(vmcore + pos, size - pos, "%s%s",
				a == cmd.argv ? "" : " ", *a);
	if (p->conf.raw[0] && pos < size)
		snprintf(vmcore + pos, size - pos, " > raw device %s",
			 p->conf.raw);
}

/* show --json: the plan as one object. */
static int show_json(const struct plan *p)
{
	struct json_object *j = json_object_new_object();
	struct json_object *cc = json_object_new_object();
	struct json_object *mods = json_object_new_array();
	struct json_object *lvs = json_object_new_array();
	char text[sizeof(p->capture_conf_text)];
	char mdf_dmesg[CONF_VALUE_MAX + PATH_MAX], mdf_vmcore[CONF_VALUE_MAX + PATH_MAX];
	int r = j && cc && mods && lvs ? 0 : -ENOMEM;

	show_makedumpfile(p, mdf_dmesg, mdf_vmcore, sizeof(mdf_vmcore));
	if (r == 0)
		r = json_set_text(j, "config", arg_config);
	if (r == 0)
		r = json_set_text(j, "makedumpfile_dmesg", mdf_dmesg);
	/* "" for dump_level = dmesg: no vmcore. */
	if (r == 0)
		r = json_set_text(j, "makedumpfile", mdf_vmcore);
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
		struct json_object *a = panic_on_json(p->conf.panic_on);

		r = a && !json_object_object_add(j, "panic_on", a) ? 0 : -ENOMEM;
		if (r < 0)
			json_object_put(a);
	}
	if (r == 0)
		r = json_set_text(j, "pstore", p->pstore);
	if (r == 0)
		r = json_set_text(j, "watchdog", p->watchdog);
	if (r == 0)
		r = hotplug_report(j, 12);
	if (r == 0)
		r = json_set_bool(j, "chain_known", p->chain_known);
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
	if (r == 0) {
		json_object_object_add(j, "capture_config", cc);
		json_object_object_add(j, "modules", mods);
		json_object_object_add(j, "lvm_volumes", lvs);
		return print_json(j);
	}
	json_object_put(cc);
	json_object_put(mods);
	json_object_put(lvs);
	json_object_put(j);
	return r;
}

static int do_show(void)
{
	struct plan p;
	int r;

	r = make_plan_ex(&p, false);
	if (r < 0)
		return r;
	if (arg_json)
		return show_json(&p);
	printf("# configuration: %s\n", arg_config);
	printf("kernel:      %s\ninitramfs:   %s (%s)\ncmdline:     %s\n", p.kernel,
	       p.initramfs, plan_initramfs_state(&p), p.cmdline);
	{
		char dmesg[CONF_VALUE_MAX + PATH_MAX], vmcore[CONF_VALUE_MAX + PATH_MAX];

		show_makedumpfile(&p, dmesg, vmcore, sizeof(vmcore));
		printf("dmesg:       %s\n", dmesg);
		if (vmcore[0])
			printf("vmcore:      %s\n", vmcore);
		else
			printf("vmcore:      none: dump_level = dmesg saves the kernel log alone\n");
	}
	printf("# as the capture kernel sees it:\n%s", p.capture_conf_text);
	{
		char words[128];

		if (conf_panic_on_format(p.conf.panic_on, words, sizeof(words)) == 0)
			printf("panic_on:    %s (this kernel's sysctls, set by load: see status)\n",
			       words);
	}
	show_helpers(&p);
	(void)hotplug_report(NULL, 12);
	if (p.conf.extra_modules[0])
		printf("# the capture loads extra_modules first: %s\n",
		       p.conf.extra_modules);
	if (p.extra_files[0])
		printf("# hooks and extra binaries packed into the capture initramfs: %s\n",
		       p.extra_files);
	if (!p.chain_known) {
		printf("# the capture loads the drivers of the devices it finds\n");
		return 0;
	}
	printf("# the capture loads these for dump target %s, in this order, then the drivers of any device still without one:\n",
	       p.chain_what);
	for (unsigned int i = 0; i < p.chain.n; i++) {
		const struct devchain_module *m = &p.chain.mods[i];

		if (m->state != MODLOAD_MODULE)
			continue;
		printf("module %-16s %s%s%s%s\n", m->name, m->reason,
		       m->deps[0] ? " (with " : "", m->deps,
		       m->deps[0] ? ")" : "");
	}
	for (unsigned int i = 0; i < p.chain.n; i++)
		if (p.chain.mods[i].state == MODLOAD_BUILTIN)
			printf("built-in %-14s %s\n", p.chain.mods[i].name,
			       p.chain.mods[i].reason);
	for (unsigned int i = 0; i < p.chain.n_lvs; i++)
		printf("activate LVM volume %s\n", p.chain.lvs[i]);
	return 0;
}

static int do_rebuild(void)
{
	struct plan p;
	int lock_fd, r;

	r = make_plan(&p);
	if (r < 0)
		return r;
	if (!p.initramfs_managed) {
		log_error("'initramfs' is set to '%s' in %s: kdump-file does not build an initramfs it does not own",
			  p.initramfs, arg_config);
		return -EINVAL;
	}
	r = take_lock(&lock_fd);
	if (r < 0)
		return r;
	r = ensure_initramfs(&p, true);
	close(lock_fd);
	return r;
}

static int do_estimate(void)
{
	unsigned long long reserved = 0;
	struct estimate e;
	struct plan p;
	int kfd = -1, ifd = -1, r;

	r = make_plan_ex(&p, false);
	if (r < 0)
		return r;
	r = open_regular("capture kernel", p.kernel, &kfd);
	if (r < 0)
		return r;
	/* One message: the initramfs kdump-file builds is not built yet. */
	if (p.initramfs_managed && access(p.initramfs, F_OK) < 0 && errno == ENOENT) {
		close(kfd);
		log_error("estimate measures the capture initramfs, and %s is not built yet: run 'kdump-file rebuild' (or load) first",
			  p.initramfs);
		return -ENOENT;
	}
	r = open_regular("capture initramfs", p.initramfs, &ifd);
	if (r < 0) {
		close(kfd);
		return r;
	}
	r = estimate_capture(kfd, ifd, system_ram(), chain_modules_bytes(&p), &e);
	close(ifd);
	close(kfd);
	if (r < 0) {
		log_error("cannot read capture kernel '%s': not a bzImage", p.kernel);
		return r;
	}
	printf("capture kernel     %7.1f MiB  %s (in memory: its init_size)\n",
	       mib_f(e.kernel), p.kernel);
	printf("capture initramfs  %7.1f MiB  %s (compressed, held while it unpacks)\n",
	       mib_f(e.initramfs), p.initramfs);
	printf("  unpacked         %7.1f MiB\n", mib_f(e.initramfs_unpacked));
	printf("target's modules   %7.1f MiB  (held again once loaded; 0 when built in)\n",
	       mib_f(e.modules));
	printf("run time           %7.1f MiB  (capture kernel, init and makedumpfile, measured)\n",
	       mib_f(e.runtime));
	printf("system RAM share   %7.1f MiB  (for %.1f GiB of RAM)\n",
	       mib_f(e.ram_share), e.ram / 1073741824.0);
	printf("needed             %7.1f MiB\n", mib_f(e.needed));
	printf("recommended: crashkernel=%lluM (needed plus a quarter, in 8M steps)\n",
	       e.recommended >> 20);
	if (read_ull_file(SYS_CRASH_SIZE, &reserved) == 0)
		printf("reserved now: %llu MiB%s\n", reserved >> 20,
		       reserved == 0 ? " (none)" :
		       reserved < e.needed ? " (too small)" : "");
	return 0;
}

/*
 * Bring a dump from the raw device into a dump directory below path, once:
 * the header is marked recovered afterwards.  Nothing to do (exit 0) when no
 * raw device is configured or it holds no new dump.
 */
static int recover_locked(void)
{
	char dev[PATH_MAX], hbuf[RAW_HEADER_SIZE], dir[PATH_MAX + 64];
	char p[PATH_MAX + 96];
	unsigned long long dev_size = 0;
	struct raw_header h;
	struct kdump_conf c;
	bool rec_complete;
	struct tm tm;
	time_t t;
	int fd, r, r_dmesg = 0;

	r = load_config(&c);
	if (r < 0 || !c.raw[0])
		return r;
	r = target_find_device(c.raw, dev, sizeof(dev), NULL, 0);
	if (r < 0) {
		log_error("cannot find raw dump device %s: %s", c.raw,
			  strerror(-r));
		return r;
	}
	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &dev_size) < 0 ||
	    pread(fd, hbuf, sizeof(hbuf), 0) != (ssize_t)sizeof(hbuf)) {
		r = -errno;
		log_error("cannot read raw dump device %s: %s", dev, strerror(-r));
		if (fd >= 0)
			close(fd);
		return r;
	}
	r = raw_header_parse(hbuf, sizeof(hbuf), dev_size, &h);
	if (r == -ENODATA || (r == 0 && (h.state == RAW_RECOVERED))) {
		close(fd);
		return 0;
	}
	if (r < 0) {
		log_error("raw dump device %s has a damaged header (%s): nothing recovered",
			  dev, strerror(-r));
		close(fd);
		return r;
	}
	t = h.time;
	gmtime_r(&t, &tm);
	snprintf(dir, sizeof(dir), "%s/%04d-%02d-%02d-%02d:%02d:%02d", c.path,
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec);
	r = mkdir_p(dir, 0700);
	if (r < 0) {
		log_error("cannot create %s: %s", dir, strerror(-r));
		close(fd);
		return r;
	}
	if (h.dmesg_len) {
		char *d = malloc(h.dmesg_len);

		r = -ENOMEM;
		if (d && pread(fd, d, h.dmesg_len, h.dmesg_off) ==
				 (ssize_t)h.dmesg_len) {
			snprintf(p, sizeof(p), "%s/dmesg.txt", dir);
			r = write_file_atomic(p, d, h.dmesg_len, 0600);
		}
		free(d);
		if (r < 0) {
			log_error("cannot recover the dmesg from %s into %s: %s",
				  dev, dir, strerror(-r));
			r_dmesg = r;
		}
	}
	if (h.state == RAW_COMPLETE) {
		/* makedumpfile -R reads the flattened stream from stdin. */
		char inc[PATH_MAX + 96], core[PATH_MAX + 96];
		char *const argv[] = { "makedumpfile", "-R", inc, NULL };
		int saved = dup(STDIN_FILENO);

		snprintf(inc, sizeof(inc), "%s/vmcore-incomplete", dir);
		snprintf(core, sizeof(core), "%s/vmcore", dir);
		(void)unlink(inc);
		if (lseek(fd, h.vmcore_off, SEEK_SET) < 0 ||
		    dup2(fd, STDIN_FILENO) < 0) {
			r = -errno;
		} else {
			r = run_program(argv, STDERR_FILENO);
			r = r == 0 ? 0 : r < 0 ? r : -EIO;
		}
		if (saved >= 0) {
			dup2(saved, STDIN_FILENO);
			close(saved);
		}
		if (r == 0 && chmod(inc, 0600) < 0)
			r = -errno;
		if (r == 0 && rename(inc, core) < 0)
			r = -errno;
		if (r == 0)
			r = fsync_parent(core);
		if (r < 0) {
			log_error("cannot recover the vmcore from %s into %s: %s (the dump stays on %s: free space below %s and run 'kdump-file recover' again)",
				  dev, dir, strerror(-r), dev, c.path);
			snprintf(h.error, sizeof(h.error), "recovery failed: %s",
				 strerror(-r));
		}
	}
	{
		bool ok = h.state == RAW_COMPLETE && r == 0;
		struct json_object *o = json_object_new_object();
		int m = o ? 0 : -ENOMEM;

		/* The header's text comes from the crashed kernel's disk. */
		if (m == 0)
			m = json_set_text(o, "kernel_release", h.release);
		if (m == 0)
			m = json_set_int(o, "crash_time", h.time);
		if (m == 0)
			m = json_set_bool(o, "complete", ok);
		if (m == 0)
			m = json_set_text(o, "target", c.raw);
		if (m == 0)
			m = json_set_text(o, "recovered_from", dev);
		if (m == 0)
			m = json_set_text(o, "error", ok ? "" : h.error[0] ? h.error :
					  h.state == RAW_WRITING ? "the capture did not finish (power loss or a crash during the dump)" :
					  "the capture failed");
		snprintf(p, sizeof(p), "%s/metadata.json", dir);
		if (m == 0)
			m = json_write_atomic(p, o, 0600);
		json_object_put(o);
		if (m < 0)
			log_error("cannot write %s: %s", p, strerror(-m));
	}
	/*
	 * A vmcore that could not be recovered stays on the device, marked
	 * as it was, for the next try; a failure is reported as one.
	 */
	if (r == 0)
		r = r_dmesg;
	if (r < 0) {
		close(fd);
		return r;
	}
	rec_complete = h.state == RAW_COMPLETE;
	h.state = RAW_RECOVERED;
	if (raw_header_format(&h, hbuf) == 0 &&
	    (pwrite(fd, hbuf, sizeof(hbuf), 0) != (ssize_t)sizeof(hbuf) ||
	     fdatasync(fd) < 0))
		log_error("recovered %s, but cannot mark %s recovered: %s", dir,
			  dev, strerror(errno));
	close(fd);
	printf("kdump-file: recovered the dump on %s into %s%s\n", dev, dir,
	       rec_complete ? "" : " (incomplete: no vmcore, see its metadata.json)");
	return 0;
}

/* One recover at a time (load runs one, the report unit another). */
static int do_recover(void)
{
	int fd, r;

	r = mkdir_p(RUN_DIR, 0700);
	if (r < 0) {
		log_error("cannot create %s: %s", RUN_DIR, strerror(-r));
		return r;
	}
	fd = open(RUN_DIR "/recover.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0 || flock(fd, LOCK_EX) < 0) {
		r = -errno;
		log_error("cannot lock %s/recover.lock: %s", RUN_DIR, strerror(-r));
		if (fd >= 0)
			close(fd);
		return r;
	}
	r = recover_locked();
	close(fd);
	return r;
}

/* The dump named on the command line, or the newest one. */
static const char *arg_dump;
static bool arg_new;

/* The dumps below the dump directory, oldest first, for list/info/debug. */
static int store_open(char *base, size_t size, char ***names, size_t *n)
{
	struct kdump_conf c;
	int r;

	r = load_config(&c);
	if (r < 0)
		return r;
	r = dumps_base(&c, base, size);
	if (r < 0) {
		log_error("cannot reach dump target %s: %s",
			  c.target[0] ? c.target : c.path, strerror(-r));
		return r;
	}
	r = dump_list(base, names, n);
	if (r == -ENOENT) {
		*names = NULL;
		*n = 0;
		return 0;
	}
	if (r < 0)
		log_error("cannot read dump directory %s: %s%s", base,
			  strerror(-r),
			  r == -EACCES ? " (it is root's: run as root)" : "");
	return r;
}

/*
 * The directory and ID of the dump arg_dump names (the newest without one);
 * logs when there is none or the name fits several.
 */
static int store_find(char *dir, size_t size, char id[DUMP_ID_LEN + 1])
{
	const char *what = arg_dump ? arg_dump : "last";
	char base[PATH_MAX], **names = NULL;
	size_t n = 0, i;
	int r;

	r = store_open(base, sizeof(base), &names, &n);
	if (r < 0)
		return r;
	r = dump_resolve(names, n, what, &i);
	if (r == -ENOENT && n == 0)
		log_error("no dumps in %s", base);
	else if (r == -ENOENT)
		log_error("no dump '%s' in %s: see 'kdump-file list'", what, base);
	else if (r == -ENOTUNIQ)
		log_error("'%s' is the start of several dump IDs: give more of it",
			  what);
	if (r == 0) {
		snprintf(dir, size, "%s/%s", base, names[i]);
		dump_id(names[i], id);
	}
	dump_list_free(names, n);
	return r;
}

static const char *dump_state(const struct dump_info *d)
{
	return dump_complete(d) ? "complete" : d->has_dmesg ? "incomplete" : "failed";
}

static int do_list(void)
{
	char base[PATH_MAX], **names = NULL;
	struct json_object *arr = NULL;
	size_t n = 0;
	int r, m = 0;

	r = store_open(base, sizeof(base), &names, &n);
	if (r < 0)
		return r;
	if (arg_json) {
		arr = json_object_new_array();
		if (!arr) {
			dump_list_free(names, n);
			return -ENOMEM;
		}
	} else if (n == 0) {
		printf("no dumps in %s\n", base);
	} else {
		printf("%-8s  %-20s  %-20s  %-16s  %8s  %s\n", "ID", "TIME",
		       "KERNEL", "SIGNATURE", "SIZE", "STATE");
	}
	for (size_t i = 0; i < n && m == 0; i++) {
		char dir[PATH_MAX + 64], id[DUMP_ID_LEN + 1], when[32], size[16];
		struct dump_info d;
		struct json_object *o;

		snprintf(dir, sizeof(dir), "%s/%s", base, names[i]);
		if (dump_inspect(dir, &d) < 0)
			continue;
		dump_id(names[i], id);
		utc_time(dump_time(&d), when, sizeof(when));
		if (!arr) {
			if (d.has_vmcore)
				snprintf(size, sizeof(size), "%lldM",
					 (d.vmcore_bytes + (1 << 20) - 1) >> 20);
			else
				snprintf(size, sizeof(size), "-");
			printf("%-8s  %-20s  %-20s  %-16.16s  %8s  %s%s%s%s\n", id,
			       when, d.release[0] ? d.release : "-",
			       d.signature[0] ? d.signature : "-", size,
			       dump_state(&d),
			       d.dmesg_only && dump_complete(&d) ? ", dmesg only" : "",
			       d.error[0] ? ": " : "", d.error);
			continue;
		}
		o = json_object_new_object();
		m = o ? 0 : -ENOMEM;
		if (m == 0)
			m = json_set_text(o, "id", id);
		if (m == 0)
			m = json_set_text(o, "dir", dir);
		if (m == 0 && dump_time(&d) >= 0)
			m = json_set_int(o, "crash_time", dump_time(&d));
		if (m == 0)
			m = json_set_text(o, "kernel_release", d.release);
		if (m == 0)
			m = json_set_text(o, "signature", d.signature);
		if (m == 0 && d.has_vmcore)
			m = json_set_int(o, "vmcore_bytes", d.vmcore_bytes);
		if (m == 0)
			m = json_set_text(o, "state", dump_state(&d));
		if (m == 0 && d.dmesg_only)
			m = json_set_bool(o, "dmesg_only", 1);
		if (m == 0 && d.error[0])
			m = json_set_text(o, "error", d.error);
		if (m == 0)
			m = json_object_array_add(arr, o) ? -ENOMEM : 0;
		else
			json_object_put(o);
	}
	dump_list_free(names, n);
	if (arr)
		return m == 0 ? print_json(arr) : (json_object_put(arr), m);
	return m;
}

/* "Modules linked in: ..." of the crash, from the saved kernel log. */
static void dmesg_modules(const char *dir, char *buf, size_t size)
{
	char p[PATH_MAX + 16], line[4096];
	FILE *f;

	buf[0] = '\0';
	snprintf(p, sizeof(p), "%s/dmesg.txt", dir);
	f = fopen(p, "re");
	while (f && fgets(line, sizeof(line), f)) {
		const char *m = strstr(line, "Modules linked in:");

		if (!m)
			continue;
		m += strlen("Modules linked in:");
		while (*m == ' ')
			m++;
		snprintf(buf, size, "%s", m);
		buf[strcspn(buf, "\n")] = '\0';
	}
	if (f)
		fclose(f);
}

/* The hooks' results and extra modules the capture recorded in metadata.json. */
static void capture_extras(const char *dir, struct json_object **ret_hooks,
			   struct json_object **ret_mods)
{
	char p[PATH_MAX + 32], *text = NULL;
	struct json_object *meta = NULL, *v;

	*ret_hooks = *ret_mods = NULL;
	snprintf(p, sizeof(p), "%s/metadata.json", dir);
	if (read_file_max(p, &text, 1 << 20) >= 0)
		meta = json_tokener_parse(text);
	free(text);
	if (!meta)
		return;
	if (json_object_object_get_ex(meta, "hooks", &v) &&
	    json_object_is_type(v, json_type_array))
		*ret_hooks = json_object_get(v);
	if (json_object_object_get_ex(meta, "extra_modules", &v) &&
	    json_object_is_type(v, json_type_array))
		*ret_mods = json_object_get(v);
	json_object_put(meta);
}

static const char *field_text(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return "";
	return json_object_get_string(v);
}

static void print_capture_extras(struct json_object *hooks,
				 struct json_object *mods)
{
	size_t len = hooks ? json_object_array_length(hooks) : 0;

	for (size_t k = 0; k < len; k++) {
		struct json_object *h = json_object_array_get_idx(hooks, k), *s;
		double secs = json_object_object_get_ex(h, "seconds", &s) ?
				      json_object_get_double(s) : 0;

		printf("%-12s %s %s: %s (%.1f s)\n", k ? "" : "hooks:",
		       field_text(h, "phase"), field_text(h, "path"),
		       field_text(h, "result"), secs);
	}
	len = mods ? json_object_array_length(mods) : 0;
	for (size_t k = 0; k < len; k++) {
		struct json_object *m = json_object_array_get_idx(mods, k);
		const char *e = field_text(m, "error");

		printf("%-12s %s: %s%s\n", k ? "" : "extra mods:",
		       field_text(m, "name"), e[0] ? "not loaded, " : "loaded",
		       e);
	}
}

static int do_info(void)
{
	char dir[PATH_MAX + 64], p[PATH_MAX + 96], id[DUMP_ID_LEN + 1];
	char when[32], mods[2048], *text = NULL;
	struct json_object *rep = NULL, *j = NULL, *v, *hooks, *extra;
	struct dump_info d;
	int r, m = 0;

	r = store_find(dir, sizeof(dir), id);
	if (r < 0)
		return r;
	r = dump_inspect(dir, &d);
	if (r < 0) {
		log_error("cannot read dump %s: %s", dir, strerror(-r));
		return r;
	}
	snprintf(p, sizeof(p), "%s/report.json", dir);
	if (read_file_max(p, &text, 1 << 20) >= 0)
		rep = json_tokener_parse(text);
	free(text);
	dmesg_modules(dir, mods, sizeof(mods));
	capture_extras(dir, &hooks, &extra);
	utc_time(dump_time(&d), when, sizeof(when));
	if (arg_json) {
		j = json_object_new_object();
		m = j ? 0 : -ENOMEM;
		if (m == 0)
			m = json_set_text(j, "id", id);
		if (m == 0)
			m = json_set_text(j, "dir", dir);
		if (m == 0)
			m = json_set_text(j, "state", dump_state(&d));
		if (m == 0 && d.dmesg_only)
			m = json_set_bool(j, "dmesg_only", 1);
		if (m == 0 && d.error[0])
			m = json_set_text(j, "error", d.error);
		if (m == 0 && d.has_vmcore)
			m = json_set_int(j, "vmcore_bytes", d.vmcore_bytes);
		if (m == 0 && dump_time(&d) >= 0)
			m = json_set_int(j, "crash_time", dump_time(&d));
		if (m == 0)
			m = json_set_text(j, "kernel_release", d.release);
		if (m == 0)
			m = json_set_text(j, "panic", d.panic);
		if (m == 0)
			m = json_set_text(j, "modules", mods);
		if (m == 0 && rep)
			m = json_object_object_add(j, "report", json_object_get(rep)) ?
				    -ENOMEM : 0;
		if (m == 0 && hooks)
			m = json_object_object_add(j, "hooks", json_object_get(hooks)) ?
				    -ENOMEM : 0;
		if (m == 0 && extra)
			m = json_object_object_add(j, "extra_modules",
						   json_object_get(extra)) ?
				    -ENOMEM : 0;
		json_object_put(rep);
		json_object_put(hooks);
		json_object_put(extra);
		if (m < 0) {
			json_object_put(j);
			return m;
		}
		return print_json(j);
	}
	printf("id:          %s\n", id);
	printf("directory:   %s\n", dir);
	printf("crash time:  %s\n", when);
	printf("kernel:      %s\n", d.release[0] ? d.release : "unknown");
	if (d.has_vmcore)
		printf("state:       complete: vmcore of %lld MiB\n",
		       (d.vmcore_bytes + (1 << 20) - 1) >> 20);
	else if (dump_complete(&d))
		printf("state:       complete, dmesg only: no vmcore, by configuration (dump_level = dmesg saved the kernel log alone)\n");
	else
		printf("state:       %s%s%s\n", dump_state(&d),
		       d.error[0] ? ": " : "", d.error);
	if (d.panic[0])
		printf("panic:       %s\n", d.panic);
	if (rep && json_object_object_get_ex(rep, "signature", &v) && v)
		printf("signature:   %s\n", json_object_get_string(v));
	if (rep && json_object_object_get_ex(rep, "oops", &v) && v)
		printf("oops:        %s\n", json_object_get_string(v));
	if (rep && json_object_object_get_ex(rep, "task", &v) && v) {
		struct json_object *c = NULL, *pid = NULL;

		json_object_object_get_ex(v, "command", &c);
		json_object_object_get_ex(v, "pid", &pid);
		if (c)
			printf("task:        %s (pid %s)\n", json_object_get_string(c),
			       pid ? json_object_get_string(pid) : "?");
	}
	if (rep && json_object_object_get_ex(rep, "taint", &v) && v)
		printf("taint:       %s\n", json_object_get_string(v));
	if (rep && json_object_object_get_ex(rep, "backtrace", &v) && v &&
	    json_object_is_type(v, json_type_array)) {
		size_t len = json_object_array_length(v);

		for (size_t k = 0; k < len && k < 8; k++)
			printf("%-12s %s\n", k ? "" : "backtrace:",
			       json_object_get_string(json_object_array_get_idx(v, k)));
	}
	if (mods[0])
		printf("modules:     %s\n", mods);
	print_capture_extras(hooks, extra);
	json_object_put(hooks);
	json_object_put(extra);
	printf("files:      ");
	{
		static const char *const files[] = { "vmcore", "vmcore-incomplete",
						     "dmesg.txt", "metadata.json",
						     "hooks.log", "report.txt",
						     "report.json" };

		for (size_t k = 0; k < sizeof(files) / sizeof(files[0]); k++) {
			snprintf(p, sizeof(p), "%s/%s", dir, files[k]);
			if (access(p, F_OK) == 0)
				printf(" %s", files[k]);
		}
	}
	putchar('\n');
	if (!rep)
		printf("report:      none yet (kdump-file report %s)\n", dir);
	if (d.has_vmcore)
		printf("debug:       kdump-file debug %s\n", id);
	json_object_put(rep);
	return 0;
}

/* crash(8) on a dump, with the vmlinux its build ID names. */
static int do_debug(void)
{
	char dir[PATH_MAX + 64], core[PATH_MAX + 96], id[DUMP_ID_LEN + 1];
	char vmlinux[PATH_MAX] = "";
	int pfd[2], r;

	r = store_find(dir, sizeof(dir), id);
	if (r < 0)
		return r;
	snprintf(core, sizeof(core), "%s/vmcore", dir);
	if (access(core, R_OK) < 0) {
		struct dump_info d;

		if (dump_inspect(dir, &d) == 0 && d.dmesg_only)
			log_error("dump %s has no vmcore: it is a dmesg-only dump (dump_level = dmesg), so there is nothing for crash; its kernel log is %s/dmesg.txt (kdump-file info %s)",
				  dir, dir, id);
		else
			log_error("dump %s has no vmcore (the capture did not complete): its kernel log is %s/dmesg.txt",
				  dir, dir);
		return -ENOENT;
	}
	/* kdump-file-analyze finds the vmlinux; its errors are its own. */
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	{
		char *argv[] = { "kdump-file-analyze", "vmlinux", core,
				 arg_vmlinux ? "--vmlinux" : NULL,
				 (char *)arg_vmlinux, NULL };
		ssize_t got;

		r = run_program(argv, pfd[1]);
		close(pfd[1]);
		got = read(pfd[0], vmlinux, sizeof(vmlinux) - 1);
		close(pfd[0]);
		if (got > 0)
			vmlinux[got] = '\0';
		vmlinux[strcspn(vmlinux, "\n")] = '\0';
	}
	if (r == -ENOENT) {
		log_error("cannot run kdump-file-analyze: it is not installed");
		return r;
	}
	if (r != 0 || !vmlinux[0])
		return -ENOENT;
	fprintf(stderr, "kdump-file: crash %s %s\n", vmlinux, core);
	fflush(stdout);
	{
		char *argv[] = { "crash", vmlinux, core, NULL };

		execvp(argv[0], argv);
	}
	r = -errno;
	log_error("cannot run crash: %s%s", strerror(-r),
		  r == -ENOENT ? " (apt-get install crash)" : "");
	return r;
}

static int update_grub(void)
{
	char *const argv[] = { "update-grub", NULL };
	int r;

	fflush(stdout);
	/* Its chatter goes to stderr, ours stays on stdout. */
	r = run_program(argv, STDERR_FILENO);
	return r > 0 ? -EIO : r;
}

/*
 * setup: reserve memory for the capture kernel at the next boot, as much
 * as estimate recommends, through a GRUB drop-in; --undo takes it back.
 */
static int do_setup(void)
{
	char text[512], value[32] = "", old[512] = "";
	unsigned long long reserved = 0, want;
	struct estimate e;
	struct plan p;
	int kfd = -1, ifd = -1, lock_fd, r;

	(void)read_ull_file(SYS_CRASH_SIZE, &reserved);
	if (arg_undo && arg_dry_run) {
		if (access(GRUB_DROPIN, F_OK) < 0)
			printf("kdump-file: nothing to undo: %s does not exist\n", GRUB_DROPIN);
		else
			printf("kdump-file: setup --undo would remove %s and run update-grub\n",
			       GRUB_DROPIN);
		return 0;
	}
	if (arg_undo) {
		if (unlink(GRUB_DROPIN) < 0) {
			if (errno == ENOENT) {
				printf("kdump-file: nothing to undo: %s does not exist\n",
				       GRUB_DROPIN);
				return 0;
			}
			r = -errno;
			log_error("cannot remove %s: %s", GRUB_DROPIN, strerror(-r));
			return r;
		}
		r = update_grub();
		if (r < 0) {
			log_error("removed %s, but update-grub %s: run it yourself", GRUB_DROPIN,
				  r == -ENOENT ? "is not installed" : "failed");
			return r;
		}
		printf("kdump-file: crashkernel= removed from the next boot's command line%s\n",
		       reserved ? "; reboot to free the memory reserved now" : "");
		return 0;
	}
	r = make_plan(&p);
	if (r < 0)
		return r;
	if (p.initramfs_managed) {
		r = check_boot_files(&p);
		if (r < 0)
			return r;
		r = take_lock(&lock_fd);
		if (r < 0)
			return r;
		r = ensure_initramfs(&p, false);
		close(lock_fd);
		if (r < 0)
			return r;
	}
	r = open_regular("capture kernel", p.kernel, &kfd);
	if (r >= 0)
		r = open_regular("capture initramfs", p.initramfs, &ifd);
	if (r >= 0)
		r = estimate_capture(kfd, ifd, system_ram(), chain_modules_bytes(&p),
				     &e);
	if (kfd >= 0)
		close(kfd);
	if (ifd >= 0)
		close(ifd);
	if (r < 0) {
		log_error("cannot estimate the reservation from '%s' and '%s': %s",
			  p.kernel, p.initramfs, strerror(-r));
		return r;
	}
	want = e.recommended;
	snprintf(value, sizeof(value), "%lluM", want >> 20);
	snprintf(text, sizeof(text),
		 "# Written by \"kdump-file setup\"; \"kdump-file setup --undo\" removes it.\n"
		 "# Memory reserved at boot for the capture kernel (kdump-file estimate).\n"
		 "GRUB_CMDLINE_LINUX_DEFAULT=\"$GRUB_CMDLINE_LINUX_DEFAULT crashkernel=%s\"\n",
		 value);
	{
		char *cur = NULL;

		if (read_file_max(GRUB_DROPIN, &cur, sizeof(old) - 1) >= 0) {
			snprintf(old, sizeof(old), "%s", cur);
			free(cur);
		}
	}
	if (arg_dry_run) {
		/* One line with the size: debian/config shows it in its question. */
		printf("kdump-file: setup would write crashkernel=%s (kdump-file estimate: %.0f MiB needed) to %s%s\n",
		       value, e.needed / 1048576.0, GRUB_DROPIN,
		       strcmp(old, text) == 0 ? ", which has it already" : "");
		return 0;
	}
	if (strcmp(old, text) != 0) {
		r = mkdir_p(GRUB_DROPIN_DIR, 0755);
		if (r >= 0)
			r = write_file_atomic(GRUB_DROPIN, text, strlen(text), 0644);
		if (r < 0) {
			log_error("cannot write %s: %s", GRUB_DROPIN, strerror(-r));
			return r;
		}
		r = update_grub();
		if (r == -ENOENT) {
			log_error("wrote %s, but update-grub is not installed: add crashkernel=%s to the kernel command line of your boot loader",
				  GRUB_DROPIN, value);
			return r;
		}
		if (r < 0) {
			log_error("wrote %s, but update-grub failed: fix it and run update-grub", GRUB_DROPIN);
			return r;
		}
		printf("kdump-file: crashkernel=%s (kdump-file estimate: %.0f MiB needed) is on the next boot's command line (%s)\n",
		       value, e.needed / 1048576.0, GRUB_DROPIN);
	} else {
		printf("kdump-file: already set up: crashkernel=%s in %s\n", value,
		       GRUB_DROPIN);
	}
	if (reserved == want)
		printf("kdump-file: %llu MiB are reserved in this boot: nothing more to do\n",
		       reserved >> 20);
	else
		printf("kdump-file: reboot to reserve it (this boot: %llu MiB); kdump-file.service then loads the capture kernel\n",
		       reserved >> 20);
	return 0;
}

/*
 * The journal entry of a crash (journal.h), sent when its dump's first
 * report is written: the report is the mark that the dump was reported
 * (report --new skips a dump that has one), so the entry goes out once per
 * crash.  A failure to send it is said then, once, and the report stands.
 */
static void report_to_journal(const char *path)
{
	char dir[PATH_MAX], id[DUMP_ID_LEN + 1];
	struct iovec iov[JOURNAL_CRASH_FIELDS];
	struct journal_fields f;
	struct dump_info d;
	const char *name;
	size_t len;
	int r;

	/* As list names it: absolute, without a trailing slash. */
	if (!realpath(path, dir))
		snprintf(dir, sizeof(dir), "%s", path);
	len = strlen(dir);
	while (len > 1 && dir[len - 1] == '/')
		dir[--len] = '\0';
	name = strrchr(dir, '/');
	name = name ? name + 1 : dir;
	/* The ID that list shows: a hash of the directory's name. */
	dump_id(name, id);
	r = dump_inspect(dir, &d);
	if (r < 0) {
		fprintf(stderr, "kdump-file: warning: wrote the report of %s, but cannot read the dump again for its journal entry: %s; 'kdump-file info %s' shows the crash\n",
			dir, strerror(-r), id);
		return;
	}
	journal_crash_fields(&d, id, &f);
	for (size_t i = 0; i < f.n; i++) {
		iov[i].iov_base = f.field[i];
		iov[i].iov_len = strlen(f.field[i]);
	}
	r = sd_journal_sendv(iov, (int)f.n);
	if (r < 0)
		fprintf(stderr, "kdump-file: warning: wrote the report of %s, but cannot send its crash entry to the journal: %s (is systemd-journald running?); 'kdump-file info %s' shows the crash\n",
			dir, strerror(-r), id);
}

static int do_report(void)
{
	char dir[PATH_MAX], rep[PATH_MAX + 16];
	struct kdump_conf c;
	bool reported;
	int r;

	r = load_config(&c);
	if (r < 0)
		return r;
	if (arg_dump) {
		snprintf(dir, sizeof(dir), "%s", arg_dump);
	} else {
		char base[PATH_MAX];

		/* The report goes into the dump's directory. */
		arg_writable = true;
		r = dumps_base(&c, base, sizeof(base));
		if (r < 0) {
			if (arg_new && r == -ENODEV)
				return 0;
			log_error("cannot reach dump target %s: %s", c.target,
				  strerror(-r));
			return r;
		}
		r = check_dump_base(base);
		if (r == -ENOENT && arg_new)
			return 0;
		if (r < 0)
			return r;
		r = dump_find_last(base, dir, sizeof(dir));
		if (r < 0) {
			if (arg_new)
				return 0;
			log_error("no dump to report on in %s: %s", base,
				  strerror(-r));
			return r;
		}
	}
	snprintf(rep, sizeof(rep), "%s/report.json", dir);
	reported = access(rep, F_OK) == 0;
	if (arg_new && reported)
		return 0;
	{
		char *const argv[] = { "kdump-file-analyze", "report", dir, NULL };

		fflush(stdout);
		r = run_program(argv, -1);
	}
	if (r < 0) {
		log_error("cannot run kdump-file-analyze for '%s': %s", dir,
			  r == -ENOENT ? "it is not installed" : strerror(-r));
		return r;
	}
	if (r != 0)
		return -EIO;
	if (!reported && access(rep, F_OK) == 0)
		report_to_journal(dir);
	return 0;
}

static const char *arg_output;
static bool arg_force;
static bool arg_local_instead;
static const char *arg_import[2];
static unsigned int arg_n_import;

/* Read one source into im; logs. */
static int import_file(struct import *im, const char *path,
		       enum import_format *ret_format)
{
	struct import_error err;
	enum import_format f;
	char *buf = NULL;
	size_t len;
	int r;

	r = read_file_max(path, &buf, IMPORT_FILE_MAX);
	len = r;
	if (r < 0) {
		if (r == -EFBIG)
			log_error("cannot import '%s': larger than %d bytes, not a configuration file",
				  path, IMPORT_FILE_MAX);
		else
			log_error("cannot import '%s': %s", path, strerror(-r));
		return r;
	}
	f = import_detect(path, buf, len);
	if (f == IMPORT_UNKNOWN) {
		log_error("cannot import '%s': it is neither kdump-tools' configuration (VARIABLE=value lines) nor kdump-utils' kdump.conf (directive value lines)",
			  path);
		free(buf);
		return -EINVAL;
	}
	r = import_buffer(im, f, path, buf, len, &err);
	free(buf);
	if (r == -ENOMEM) {
		log_error("cannot import '%s': out of memory", path);
		return r;
	}
	if (r < 0) {
		if (err.line)
			log_error("cannot import '%s': line %u: %s", path,
				  err.line, err.msg);
		else
			log_error("cannot import '%s': %s", path, err.msg);
		return r;
	}
	*ret_format = f;
	return 0;
}

static int do_import(void)
{
	enum import_format f[2] = { IMPORT_UNKNOWN, IMPORT_UNKNOWN };
	enum import_write_how how = IMPORT_WROTE_NEW;
	const char *files[2] = { NULL, NULL };
	struct conf_error cerr;
	struct import *im;
	unsigned int n = arg_n_import;
	char *text = NULL, *sum = NULL, msg[512];
	int r;

	if (n) {
		files[0] = arg_import[0];
		files[1] = arg_import[1];
	} else {
		bool tools = access(IMPORT_KDUMP_TOOLS_PATH, F_OK) == 0;
		bool utils = access(IMPORT_KDUMP_CONF_PATH, F_OK) == 0;

		if (tools && utils) {
			log_error("both %s (kdump-tools) and %s (kdump-utils) exist: name the one to import (kdump-file import FILE)",
				  IMPORT_KDUMP_TOOLS_PATH, IMPORT_KDUMP_CONF_PATH);
			return -EEXIST;
		}
		if (!tools && !utils) {
			log_error("nothing to import: neither %s (kdump-tools) nor %s (kdump-utils) exists; name the file (kdump-file import FILE [SYSCONFIG])",
				  IMPORT_KDUMP_TOOLS_PATH, IMPORT_KDUMP_CONF_PATH);
			return -ENOENT;
		}
		files[n++] = tools ? IMPORT_KDUMP_TOOLS_PATH : IMPORT_KDUMP_CONF_PATH;
		if (utils && access(IMPORT_SYSCONFIG_PATH, F_OK) == 0)
			files[n++] = IMPORT_SYSCONFIG_PATH;
	}
	im = malloc(sizeof(*im));
	if (!im) {
		log_error("cannot import: out of memory");
		return -ENOMEM;
	}
	import_init(im);
	im->local_instead = arg_local_instead;
	for (unsigned int i = 0; i < n; i++) {
		r = import_file(im, files[i], &f[i]);
		if (r < 0)
			goto out;
	}
	if (n == 2 && !((f[0] == IMPORT_KDUMP_CONF && f[1] == IMPORT_SYSCONFIG) ||
			(f[0] == IMPORT_SYSCONFIG && f[1] == IMPORT_KDUMP_CONF))) {
		log_error("cannot import '%s' (%s) with '%s' (%s): two files are kdump-utils' kdump.conf and its sysconfig",
			  files[0], import_format_name(f[0]), files[1],
			  import_format_name(f[1]));
		r = -EINVAL;
		goto out;
	}
	r = import_render(im, &text, &cerr);
	if (r < 0) {
		if (r == -ENOMEM)
			log_error("cannot import: out of memory");
		else
			log_error("kdump-file import made a configuration kdump-file refuses (line %u, %s: %s); this is a bug: please report it with the source files",
				  cerr.line, cerr.key, cerr.msg);
		goto out;
	}
	r = import_check(im, msg, sizeof(msg));
	if (r < 0) {
		log_error("cannot import '%s': %s", files[0], msg);
		goto out;
	}
	if (arg_output) {
		r = import_write(arg_output, text, arg_force, &how);
		if (r == -EEXIST)
			log_error("'%s' holds settings: kdump-file import does not replace it (add --force to replace it; the old file is kept as %s.bak)",
				  arg_output, arg_output);
		else if (r < 0)
			log_error("cannot write '%s': %s", arg_output,
				  strerror(-r));
		if (r < 0)
			goto out;
	} else {
		fputs(text, stdout);
		fflush(stdout);
	}
	r = import_summary(im, &sum);
	if (r < 0) {
		log_error("cannot import: out of memory");
		goto out;
	}
	fputs(sum, stderr);
	if (how == IMPORT_REPLACED_BACKED_UP)
		fprintf(stderr, "kdump-file: kept the previous %s as %s.bak\n",
			arg_output, arg_output);
	else if (how == IMPORT_REPLACED_COMMENTS)
		fprintf(stderr, "kdump-file: replaced %s, which held comments only\n",
			arg_output);
	if (arg_output)
		fprintf(stderr, "kdump-file: wrote %s\n", arg_output);
	r = 0;
out:
	free(text);
	free(sum);
	import_free(im);
	free(im);
	return r;
}

/*
 * CPU and memory hotplug (see hotplug.h).  KDUMP_FILE_HOTPLUG_ROOT, for
 * the command-line tests only, is a directory standing for / in what
 * hotplug, reload --after-hotplug, status and show read and write for
 * hotplug: sysfs, the pending file and the udev rule.
 */
static const char *arg_subsystem;

struct hotplug_paths {
	char sysfs[PATH_MAX];
	char pending[PATH_MAX];
	char root[PATH_MAX];	/* "" for / */
};

static void hotplug_paths(struct hotplug_paths *hp)
{
	const char *root = getenv("KDUMP_FILE_HOTPLUG_ROOT");

	if (!root || !root[0] || strcmp(root, "/") == 0)
		root = "";
	snprintf(hp->root, sizeof(hp->root), "%s", root);
	snprintf(hp->sysfs, sizeof(hp->sysfs), "%s%s", root, HOTPLUG_SYSFS_ROOT);
	snprintf(hp->pending, sizeof(hp->pending), "%s%s", root,
		 HOTPLUG_PENDING);
}

/*
 * Whether udev runs "kdump-file hotplug": the rule is installed and not
 * masked by an empty file or a link to /dev/null in /etc/udev/rules.d.
 */
static bool hotplug_rule_active(const struct hotplug_paths *hp)
{
	static const char *const dirs[] = {
		"/etc/udev/rules.d", "/run/udev/rules.d",
		"/usr/lib/udev/rules.d", "/lib/udev/rules.d",
	};
	char path[PATH_MAX + 128];
	struct stat st;

	/* udev reads the first file of that name along these directories. */
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s%s/%s", hp->root, dirs[i],
			 HOTPLUG_RULE_NAME);
		if (lstat(path, &st) < 0)
			continue;
		if (S_ISLNK(st.st_mode) && stat(path, &st) == 0 &&
		    S_ISCHR(st.st_mode))
			return false;
		return S_ISREG(st.st_mode) && st.st_size > 0;
	}
	return false;
}

/* How hotplug of s is handled here: "kernel", "udev" or "none". */
static const char *hotplug_how(const struct hotplug_paths *hp,
			       enum hotplug_subsystem s, bool rule, int *ret_r)
{
	enum hotplug_handler h;

	*ret_r = hotplug_handler(hp->sysfs, s, &h);
	if (*ret_r < 0)
		return "unknown";
	if (h == HOTPLUG_BY_KERNEL)
		return "kernel";
	return rule ? "udev" : "none";
}

static const char *hotplug_how_text(const char *how)
{
	if (strcmp(how, "kernel") == 0)
		return "updated in place by the kernel";
	if (strcmp(how, "udev") == 0)
		return "reloaded by udev (kdump-file-hotplug.service)";
	if (strcmp(how, "none") == 0)
		return "not handled: this kernel does not update the capture kernel's ELF headers and the udev rule " HOTPLUG_RULE_NAME " is not installed (run 'kdump-file reload' after adding or removing CPUs or memory)";
	return "unknown: crash_hotplug in sysfs cannot be read";
}

/*
 * The hotplug line of status and show (its label width wide), or with j
 * its fields: how CPU and memory hotplug are handled on this kernel, and
 * whether a reload waits.
 */
static int hotplug_report(struct json_object *j, int width)
{
	struct hotplug_paths hp;
	const char *cpu, *mem;
	char line[1024];
	bool rule, pending;
	int rc, rm, m = 0;

	hotplug_paths(&hp);
	rule = hotplug_rule_active(&hp);
	pending = hotplug_pending(hp.pending);
	cpu = hotplug_how(&hp, HOTPLUG_CPU, rule, &rc);
	mem = hotplug_how(&hp, HOTPLUG_MEMORY, rule, &rm);
	if (strcmp(cpu, mem) == 0)
		snprintf(line, sizeof(line), "%s", hotplug_how_text(cpu));
	else
		snprintf(line, sizeof(line), "CPUs %s; memory %s",
			 hotplug_how_text(cpu), hotplug_how_text(mem));
	if (pending)
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 "; a reload is pending (%s)", hp.pending);
	if (!j) {
		printf("%-*s %s\n", width, "hotplug:", line);
		return 0;
	}
	m = json_set_text(j, "hotplug", line);
	if (m == 0)
		m = json_set_text(j, "hotplug_cpu", cpu);
	if (m == 0)
		m = json_set_text(j, "hotplug_memory", mem);
	if (m == 0)
		m = json_set_bool(j, "hotplug_reload_pending", pending);
	return m;
}

/* The hotplug verb's journal line; errors also on stderr. */
static void hotplug_log(int prio, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void hotplug_log(int prio, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* udev keeps a RUN program's output to itself: the journal is read. */
	(void)sd_journal_send("MESSAGE=%s", msg, "PRIORITY=%d", prio,
			      "SYSLOG_IDENTIFIER=kdump-file", NULL);
	if (prio <= LOG_WARNING)
		fprintf(stderr, "kdump-file: %s: %s\n",
			prio <= LOG_ERR ? "error" : "warning", msg);
}

/*
 * Run by udev for every CPU and memory block added or removed: fast, never
 * waits, nothing on stdout.  Marks the reload as pending where the kernel
 * leaves the capture kernel's ELF headers as they were built.
 */
static int do_hotplug(void)
{
	const char *name = arg_subsystem ? arg_subsystem : getenv("SUBSYSTEM");
	const char *action = getenv("ACTION"), *dev = getenv("DEVPATH");
	enum hotplug_decision d = HOTPLUG_MARK_PENDING;
	enum hotplug_subsystem s;
	struct hotplug_paths hp;
	char what[320];
	int r;

	if (!name || !name[0]) {
		log_error("hotplug: no subsystem: name cpu or memory ('kdump-file hotplug memory'), or let the udev rule run it (it sets SUBSYSTEM)");
		return EXIT_USAGE;
	}
	if (hotplug_subsystem_parse(name, &s) < 0) {
		log_error("hotplug: unknown subsystem '%.64s'%s: only cpu and memory hotplug change the capture kernel's ELF headers",
			  name, arg_subsystem ? "" : " (in SUBSYSTEM)");
		return EXIT_USAGE;
	}
	snprintf(what, sizeof(what), "%s %s%s%.256s", hotplug_subsystem_name(s),
		 action ? action : "change", dev ? " of " : "", dev ? dev : "");
	hotplug_paths(&hp);
	r = hotplug_decide(hp.sysfs, s, action, &d);
	if (r < 0)
		/* A reload is never wrong: one too many beats a stale dump. */
		hotplug_log(LOG_WARNING, "%s: cannot read %s/devices/system/%s/crash_hotplug: %s: reloading the capture kernel to be safe",
			    what, hp.sysfs, hotplug_subsystem_name(s), strerror(-r));
	switch (d) {
	case HOTPLUG_IGNORE_ACTION:
	case HOTPLUG_NOT_LOADED:
		return 0;
	case HOTPLUG_IN_PLACE:
		hotplug_log(LOG_INFO, "%s: the kernel updates the capture kernel's ELF headers itself: nothing to reload",
			    what);
		return 0;
	case HOTPLUG_MARK_PENDING:
		break;
	}
	r = hotplug_mark_pending(hp.pending);
	if (r < 0) {
		hotplug_log(LOG_ERR, "%s: cannot mark the capture kernel's reload as pending in %s: %s: the capture kernel misses this change until 'systemctl reload kdump-file' is run",
			    what, hp.pending, strerror(-r));
		return r;
	}
	hotplug_log(LOG_NOTICE, "%s: the capture kernel's ELF headers no longer match this system: reload pending (%s, kdump-file-hotplug.service)",
		    what, hp.pending);
	return 0;
}

/* Waits this long without an event before it reloads, polling every... */
#define HOTPLUG_QUIET_MS 1000
#define HOTPLUG_POLL_MS 200
/* ...but reloads after this long in any case, events or not. */
#define HOTPLUG_MAX_WAIT_MS 10000

/*
 * reload --after-hotplug, kdump-file-hotplug.service's: once the events
 * have settled, the pending mark is removed first and the reload follows,
 * so that an event after the removal marks again and is reloaded for
 * (the path unit starts the service once more), and one before it is in
 * what this reload reads.
 */
static int do_reload_after_hotplug(void)
{
	struct hotplug_paths hp;
	int r;

	hotplug_paths(&hp);
	if (!hotplug_pending(hp.pending)) {
		printf("kdump-file: no reload after CPU or memory hotplug is pending (%s)\n",
		       hp.pending);
		return 0;
	}
	if (!hotplug_crash_loaded(hp.sysfs)) {
		if (unlink(hp.pending) < 0 && errno != ENOENT) {
			r = -errno;
			log_error("cannot remove %s: %s", hp.pending, strerror(-r));
			return r;
		}
		printf("kdump-file: no capture kernel is loaded: nothing to reload after CPU or memory hotplug\n");
		return 0;
	}
	r = hotplug_settle(hp.pending, HOTPLUG_QUIET_MS, HOTPLUG_POLL_MS,
			   HOTPLUG_MAX_WAIT_MS);
	if (r == -ENOENT) {
		printf("kdump-file: the pending reload after CPU or memory hotplug was taken back (%s is gone)\n",
		       hp.pending);
		return 0;
	}
	if (r == 0)
		printf("kdump-file: CPU or memory hotplug events still coming after %d s: reloading now, and again after them\n",
		       HOTPLUG_MAX_WAIT_MS / 1000);
	if (unlink(hp.pending) < 0 && errno != ENOENT) {
		r = -errno;
		log_error("cannot remove %s: %s (the reload after CPU or memory hotplug would repeat: remove it by hand)",
			  hp.pending, strerror(-r));
		return r;
	}
	r = do_load();
	if (r < 0)
		return r;
	if (hotplug_nothing_loaded)
		printf("kdump-file: no capture kernel of kdump-file's is loaded any more: nothing to reload after CPU or memory hotplug\n");
	else
		printf("kdump-file: reloaded the capture kernel after CPU or memory hotplug\n");
	return 0;
}

int main(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "yes", no_argument, NULL, 'y' },
		{ "new", no_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'J' },
		{ "version", no_argument, NULL, 'V' },
		{ "vmlinux", required_argument, NULL, 'L' },
		{ "kver", required_argument, NULL, 'K' },
		{ "undo", no_argument, NULL, 'U' },
		{ "dry-run", no_argument, NULL, 'D' },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'F' },
		{ "local-instead", no_argument, NULL, 'R' },
		{ "after-hotplug", no_argument, NULL, 'H' },
		{}
	};
	static const struct {
		const char *name;
		int (*fn)(void);
	} verbs[] = {
		{ "load", do_load },	   { "unload", do_unload },
		{ "status", do_status },   { "show", do_show },
		{ "rebuild", do_rebuild }, { "test", do_test },
		{ "report", do_report },   { "estimate", do_estimate },
		{ "recover", do_recover },
		{ "list", do_list },	   { "info", do_info },
		{ "debug", do_debug },	   { "setup", do_setup },
		{ "import", do_import },	   { "hotplug", do_hotplug },
	};
	const char *verb;
	int c, r;

	/* Dumps, reports, the initramfs and state are root's alone. */
	umask(0077);
	while ((c = getopt_long(argc, argv, "c:hyno:", options, NULL)) >= 0) {
		switch (c) {
		case 'c':
			arg_config = optarg;
			break;
		case 'h':
			help();
			return 0;
		case 'y':
			arg_yes = true;
			break;
		case 'n':
			arg_new = true;
			break;
		case 'J':
			arg_json = true;
			break;
		case 'L':
			arg_vmlinux = optarg;
			break;
		case 'K':
			arg_kver = optarg;
			break;
		case 'U':
			arg_undo = true;
			break;
		case 'D':
			arg_dry_run = true;
			break;
		case 'o':
			arg_output = optarg;
			break;
		case 'F':
			arg_force = true;
			break;
		case 'R':
			arg_local_instead = true;
			break;
		case 'H':
			arg_after_hotplug = true;
			break;
		case 'V':
			printf("kdump-file %s\n", KDUMP_FILE_VERSION);
			return 0;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "kdump-file: expected a command; see kdump-file --help\n");
		return EXIT_USAGE;
	}
	verb = argv[optind];
	if ((strcmp(verb, "report") == 0 || strcmp(verb, "info") == 0 ||
	     strcmp(verb, "debug") == 0) && optind + 2 == argc)
		arg_dump = argv[optind + 1];
	else if (strcmp(verb, "hotplug") == 0 && optind + 2 == argc)
		arg_subsystem = argv[optind + 1];
	else if (strcmp(verb, "import") == 0 && argc - optind <= 3) {
		for (int i = optind + 1; i < argc; i++)
			arg_import[arg_n_import++] = argv[i];
	} else if (optind + 1 != argc) {
		fprintf(stderr, "kdump-file: '%s' takes no argument '%s'; see kdump-file --help\n",
			verb, argv[optind + 1]);
		return EXIT_USAGE;
	}
	if ((arg_kver && strcmp(verb, "rebuild") != 0 && strcmp(verb, "show") != 0) ||
	    ((arg_undo || arg_dry_run) && strcmp(verb, "setup") != 0)) {
		fprintf(stderr, "kdump-file: %s is for %s, not '%s'\n",
			arg_kver ? "--kver" : arg_undo ? "--undo" : "--dry-run",
			arg_kver ? "rebuild and show" : "setup", verb);
		return EXIT_USAGE;
	}
	if (arg_after_hotplug && strcmp(verb, "reload") != 0) {
		fprintf(stderr, "kdump-file: --after-hotplug is for reload, not '%s'\n",
			verb);
		return EXIT_USAGE;
	}
	if ((arg_output || arg_force || arg_local_instead) &&
	    strcmp(verb, "import") != 0) {
		fprintf(stderr, "kdump-file: %s is for import, not '%s'\n",
			arg_output ? "--output" : arg_force ? "--force" :
			"--local-instead", verb);
		return EXIT_USAGE;
	}
	if (arg_json && strcmp(verb, "status") != 0 && strcmp(verb, "show") != 0 &&
	    strcmp(verb, "list") != 0 && strcmp(verb, "info") != 0) {
		fprintf(stderr, "kdump-file: --json is for status, show, list and info, not '%s'\n",
			verb);
		return EXIT_USAGE;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	/*
	 * reload is a load over the loaded capture kernel, never an unload
	 * first: every check runs before the syscall, and when the kernel
	 * refuses the new set, load puts the previous one back (see
	 * previous_restore()), so a failed reload leaves the machine
	 * protected.
	 */
	if (strcmp(verb, "reload") == 0) {
		r = arg_after_hotplug ? do_reload_after_hotplug() : do_load();
		return r < 0 ? EXIT_FAILURE : 0;
	}
	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
		if (strcmp(verb, verbs[i].name) == 0) {
			r = verbs[i].fn();
			return r < 0 ? EXIT_FAILURE : r;
		}
	}
	fprintf(stderr, "kdump-file: unknown command '%s'; see kdump-file --help\n",
		verb);
	return EXIT_USAGE;
}
