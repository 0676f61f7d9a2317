// SPDX-License-Identifier: GPL-2.0
/*
 * The load plan (see plan.h): configuration plus the running system.
 * Nothing here prints; messages go into the plan for the verb to say.
 *
 * Here: the capture kernel's release and files, a local dump target (a
 * directory, a device, a raw device), the user's programs, the capture's
 * configuration and command line, and plan_make(), which puts them
 * together.  plan-net.c plans a network target, plan-modules.c the kernel
 * modules, plan-check.c what plan_check() finds; plan-internal.h declares
 * what they share.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "dump.h"
#include "estimate.h"
#include "kexec.h"
#include "initramfs.h"
#include "plan.h"
#include "plan-internal.h"
#include "rawdump.h"
#include "safedir.h"
#include "target.h"
#include "target-mount.h"
#include "util.h"

/*
 * Resolve the drivers, device-mapper layers and filesystem module the
 * capture needs for the target device devno; refuse a layer it cannot open.
 */
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
	if (r == 0)
		r = plan_crypt(p, km, &p->chain, what);
	if (r == 0)
		r = plan_iscsi(p, km, what);
	modload_free(km);
	if (r < 0 && diag_failed(&p->diag))
		return r;
	if (r == -EMEDIUMTYPE)
		return diag_fail(&p->diag, r,
				 "cannot use dump target %s for the capture: it is on %s: %s in %s",
				 what, p->chain.layer, p->chain.fix, p->config);
	if (r == -ENOPKG)
		return diag_fail(&p->diag, r,
				 "cannot use dump target %s for the capture: kernel %s has no module %s: install that kernel's modules or set 'kernel' in %s",
				 what, p->release, p->chain.layer, p->config);
	if (r < 0) {
		/* The capture still searches for drivers device by device. */
		diag_warn(&p->diag,
			  "cannot resolve the drivers of dump target %s: %s",
			  what, strerror(-r));
		return 0;
	}
	p->chain_known = true;
	return plan_chain_text(p);
}

unsigned long long plan_md_bytes(const struct plan *p)
{
	unsigned long long b = 0;

	for (unsigned int i = 0; p->chain_known && i < p->chain.n_mds; i++)
		b += estimate_md_bytes(p->chain.mds[i].level,
				       p->chain.mds[i].raid_disks);
	return b;
}

unsigned long long plan_mpath_bytes(const struct plan *p)
{
	return p->chain_known ? p->chain.n_mpaths * estimate_mpath_bytes() : 0;
}

unsigned long long plan_iscsi_bytes(const struct plan *p)
{
	return p->chain_known && p->iscsi_known ?
	       p->chain.n_iscsis * estimate_iscsi_bytes() : 0;
}

unsigned long long plan_luks_bytes(const struct plan *p)
{
	unsigned long long b = 0;

	for (unsigned int i = 0; p->chain_known && i < p->chain.n_crypts; i++)
		b += estimate_luks_bytes(p->chain.crypts[i].kdf_memory_kb);
	return b;
}

bool plan_luks_kdf(const struct plan *p)
{
	for (unsigned int i = 0; p->chain_known && i < p->chain.n_crypts; i++)
		if (p->chain.crypts[i].kdf_memory_kb)
			return true;
	return false;
}

int plan_estimate(const struct plan *p, int kernel_fd, int initramfs_fd,
		  struct estimate *ret)
{
	return estimate_capture(kernel_fd, initramfs_fd, plan_system_ram(),
				plan_modules_bytes(p),
				plan_md_bytes(p) + plan_luks_bytes(p) +
					plan_mpath_bytes(p) + plan_iscsi_bytes(p),
				p->conf.net, ret);
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
	if (r == -ENOENT)
		return diag_fail(&p->diag, r,
				 "cannot use %s '%s' from %s: it does not exist (install it, or remove it from %s)",
				 key, word, p->config, p->config);
	if (r == -EPERM && bad.fault == INPUT_NOT_REGULAR)
		return diag_fail(&p->diag, r,
				 "cannot use %s '%s' from %s: it is not a regular file (name the program itself)",
				 key, word, p->config);
	if (r == -EPERM && bad.fault == INPUT_NOT_EXECUTABLE)
		return diag_fail(&p->diag, r,
				 "cannot use %s '%s' from %s: it is not executable (chmod 0755 '%s')",
				 key, word, p->config, word);
	if (r == -EPERM)
		return diag_fail(&p->diag, r,
				 "cannot use %s '%s' from %s: '%s' is %s, and what the capture runs must be root's alone (chown root and chmod go-w '%s')",
				 key, word, p->config, bad.path,
				 plan_violation_text(&bad), bad.path);
	if (r < 0)
		return diag_fail(&p->diag, r, "cannot check %s '%s': '%s': %s",
				 key, word, bad.path, strerror(-r));
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
int plan_check_dump_base(const char *base, const char *config,
			 struct diag *d)
{
	struct diag why = DIAG_INIT;
	int r;

	r = dump_base_check(base, &why);
	if (r == -EPERM)
		return diag_fail(d, r,
				 "dump directory %s is not safe: %s; make it root's alone (chown root:root, chmod 0700) or set another 'path' in %s",
				 base, diag_text(&why), config);
	if (r == -ENOENT)
		return diag_fail(d, r, NULL);
	if (r < 0)
		return diag_fail(d, r, "cannot check dump directory %s: %s",
				 base, strerror(-r));
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
	struct target_identity ident;
	char real[PATH_MAX];
	unsigned long long size = 0;
	struct raw_header old;
	ssize_t n;
	int fd, r;

	r = raw_user(dev, devno, what, sizeof(what));
	if (r < 0) {
		return diag_fail(&p->diag, r,
				 "raw dump device %s cannot be used: %s, and a dump would destroy what is there; free it or set another 'raw' in %s",
				 dev, what, p->config);
	}
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &size) < 0 ||
	    (n = pread(fd, buf, sizeof(buf), 0)) < 0) {
		r = -errno;
		if (fd >= 0)
			close(fd);
		return diag_fail(&p->diag, r,
				 "cannot read raw dump device %s: %s", dev,
				 strerror(-r));
	}
	close(fd);
	if (raw_header_parse(buf, n, size, &old) == -ENODATA &&
	    target_signature(dev, sig, sizeof(sig)) < 0)
		sig[0] = '\0';
	r = raw_may_write(buf, n, size, sig, true, p->conf.raw_force, NULL);
	if (r == -ENOTEMPTY)
		return diag_fail(&p->diag, r,
				 "raw dump device %s holds %s data that the first dump would destroy: if that is meant, erase it (wipefs -a %s) or set 'raw_force = yes' in %s",
				 dev, sig, dev, p->config);
	if (loading && raw_may_write(buf, n, size, "", p->conf.raw_overwrite,
				     false, &old) == -EEXIST)
		diag_warn(&p->diag,
			  "raw dump device %s holds a dump of %s not yet recovered: the next crash will not overwrite it; run 'kdump-file recover'",
			  dev,
			  old.release[0] ? old.release : "an unknown kernel");
	/* No udev in the capture: /dev/disk/by-* names do not exist. */
	if (!realpath(dev, real))
		snprintf(real, sizeof(real), "%s", dev);
	r = target_stable_id(dev, id, sizeof(id));
	if (path_format(p->capture.raw, sizeof(p->capture.raw), "%s",
			r == 0 ? id : real) < 0)
		return diag_fail(&p->diag, -ENAMETOOLONG,
				 "raw dump device %s: its name %s is longer than the capture takes (%zu bytes)",
				 p->conf.raw, r == 0 ? id : real,
				 sizeof(p->capture.raw) - 1);
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
			diag_warn(&p->diag,
				  "raw dump device %s is named %s, which the capture cannot check beyond the name: give the disk a serial number or use a GPT partition, and run 'kdump-file load' again",
				  dev, p->capture.raw);
	}
	return 0;
}

void plan_raw_identity_warn(struct plan *p, const char *dev,
			    const struct target_identity *id)
{
	if (strncmp(id->spec, "/dev/", 5) == 0)
		diag_warn(&p->diag,
			  "raw dump device %s has no serial, WWID or partition UUID: the capture finds it as %s, a kernel name that can change between boots, and checks only its size (%llu bytes), so another disk of that size that takes the name receives the dump: give the disk a serial number (QEMU: -drive ...,serial=NAME) or use a partition of a GPT disk, and run 'kdump-file load' again",
			  dev, id->spec, id->size);
	else if (strncmp(id->spec, "PARTUUID=", 9) == 0 && !id->disk[0])
		diag_warn(&p->diag,
			  "raw dump device %s is known by its partition UUID alone (%s, %llu bytes): its disk has no serial number or WWID, and a copy of the partition table (a cloned disk, a stick partitioned alike) carries both: the capture writes nothing when two devices carry them, but a copy attached without this disk receives the dump: use a partition of a disk with a serial number (QEMU: -drive ...,serial=NAME), and run 'kdump-file load' again",
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
	if (initramfs_fingerprint(p->kernel, p->capture_conf_text,
				  p->chain_text, p->modplan_id,
				  p->fingerprint_files, fingerprint,
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
		    access(moddir, F_OK) < 0)
			return diag_fail(&p->diag, -ENOENT,
					 "--kver '%s' is not an installed kernel (no %s)",
					 kver, moddir);
		if (p->conf.kernel[0])
			return diag_fail(&p->diag, -EINVAL,
					 "'kernel' is set to '%s' in %s: the capture kernel is that one whichever kernel runs, and --kver does not apply",
					 p->conf.kernel, p->config);
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
	struct diag base = DIAG_INIT;
	int r;

	r = create ? make_dump_dir(dir) : 0;
	if (r < 0 && r != -EPERM)
		return diag_fail(&p->diag, r,
				 "cannot create %s directory '%s': %s", key,
				 dir, strerror(-r));
	r = plan_check_dump_base(dir, p->config, &base);
	if (r == -EPERM && strcmp(key, "dump") != 0)
		return diag_fail(&p->diag, r,
				 "%s directory %s is not safe: others may write it or a directory above it; make it root's alone (chown root:root, chmod 0700) or set another '%s' in %s",
				 key, dir, key, p->config);
	/* A directory load makes later need not be there for show. */
	if (r < 0 && (r != -ENOENT || create))
		return diag_take(&p->diag, &base);
	r = resolve_dump_path(dir, ret);
	if (r < 0)
		return diag_fail(&p->diag, r,
				 "cannot find the filesystem of %s directory '%s': %s%s%s%s",
				 key, dir, strerror(-r),
				 r == -ENOTBLK ? " (it is not on a block device: set 'target' in " : "",
				 r == -ENOTBLK ? p->config : "",
				 r == -ENOTBLK ? ")" : "");
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
			fs.relpath) < 0)
		return diag_fail(&p->diag, -ENAMETOOLONG,
				 "dump directory %s: its device or its path there is longer than the capture takes (%zu bytes)",
				 p->conf.path, sizeof(p->capture.path) - 1);
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
		struct diag base = DIAG_INIT;

		r = create ? make_dump_dir(p->conf.path) : 0;
		if (r < 0 && r != -EPERM)
			return diag_fail(&p->diag, r,
					 "cannot create dump directory '%s', where 'kdump-file recover' brings the dumps of raw dump device %s: %s",
					 p->conf.path, p->conf.raw,
					 strerror(-r));
		r = plan_check_dump_base(p->conf.path, p->config, &base);
		if (r < 0 && (r != -ENOENT || create))
			return diag_take(&p->diag, &base);
	}
	/* A target not attached now is looked for in the capture. */
	r = target_find_device(spec, dev, sizeof(dev), fstype, sizeof(fstype));
	if (r < 0 || stat(dev, &st) < 0) {
		p->target_absent = true;
		if (create && p->conf.raw[0])
			diag_warn(&p->diag,
				  "raw dump device %s is not attached: it cannot be checked now, and the capture looks for it by that name",
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
	struct diag err = DIAG_INIT;
	struct kdump_conf back;
	int r;

	r = conf_write(&p->capture, p->capture_conf_text,
		       sizeof(p->capture_conf_text));
	if (r < 0)
		return r;
	r = conf_parse_buffer(&back, p->capture_conf_text,
			      strlen(p->capture_conf_text), &err);
	if (r < 0)
		(void)diag_fail(&p->diag, r,
				"the capture could not read its configuration as made from %s: %s%s%s (line %u of the capture's copy): change that value",
				p->config, err.key, err.key[0] ? ": " : "",
				err.msg, err.line);
	return r;
}

/* The capture kernel's command line, from the running one's. */
static int plan_cmdline(struct plan *p)
{
	char running[4096];
	int r;

	r = read_line_file("/proc/cmdline", running, sizeof(running));
	if (r < 0)
		return diag_fail(&p->diag, r, "cannot read /proc/cmdline: %s",
				 strerror(-r));
	r = cmdline_build(running, &p->conf, p->threads.threads, p->cmdline,
			  sizeof(p->cmdline));
	if (r >= 0 && p->cmdline_pstore[0])
		r = cmdline_add(p->cmdline, sizeof(p->cmdline),
				p->cmdline_pstore);
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
		(void)diag_fail(&p->diag, r,
				"the capture command line is too long (the kernel takes %d bytes including elfcorehdr=): shorten cmdline_append or remove parameters with cmdline_remove in %s",
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
