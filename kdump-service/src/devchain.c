// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "devchain.h"
#include "util.h"

#define MAX_DEPTH 8

static void set_layer(struct devchain *c, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_layer(struct devchain *c, const char *fix, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->layer, sizeof(c->layer), fmt, ap);
	va_end(ap);
	snprintf(c->fix, sizeof(c->fix), "%s", fix);
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* Module names: '-' and '_' are the same (as in kmod). */
static bool same_module(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (*a != *b && !((*a == '-' || *a == '_') && (*b == '-' || *b == '_')))
			return false;
	return *a == *b;
}

/* The index of name in the chain, added with its reason when new. */
static int add_module(struct devchain *c, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int add_module(struct devchain *c, const char *name, const char *fmt, ...)
{
	struct devchain_module *m;
	va_list ap;

	for (unsigned int i = 0; i < c->n; i++)
		if (same_module(c->mods[i].name, name))
			return (int)i;
	if (c->n >= DEVCHAIN_MAX)
		return -E2BIG;
	m = &c->mods[c->n++];
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", name);
	va_start(ap, fmt);
	vsnprintf(m->reason, sizeof(m->reason), fmt, ap);
	va_end(ap);
	return (int)(c->n - 1);
}

/* basename of the symlink at dir/name, or -errno. */
static int link_base(const char *dir, const char *name, char *buf, size_t size)
{
	char p[PATH_MAX], t[PATH_MAX];
	ssize_t n;

	if (path_format(p, sizeof(p), "%s/%s", dir, name) < 0)
		return -ENAMETOOLONG;
	n = readlink(p, t, sizeof(t) - 1);
	if (n < 0)
		return -errno;
	t[n] = '\0';
	return path_format(buf, size, "%s", base_name(t));
}

static bool exists(const char *dir, const char *name)
{
	char p[PATH_MAX];

	return path_format(p, sizeof(p), "%s/%s", dir, name) == 0 &&
	       access(p, F_OK) == 0;
}

static void read_attr(const char *dir, const char *name, char *buf, size_t size)
{
	char p[PATH_MAX];

	if (path_format(p, sizeof(p), "%s/%s", dir, name) < 0 ||
	    read_line_file(p, buf, size) < 0)
		buf[0] = '\0';
}

/* "vg-lv" (a '-' in either name doubled) -> "vg/lv"; buf only on success. */
static int dm_name_to_lv(const char *dm, char *buf, size_t size)
{
	char lv[256];
	size_t o = 0;
	bool split = false;

	for (const char *s = dm; *s; s++) {
		char ch = *s;

		if (*s == '-' && s[1] == '-') {
			s++;
		} else if (*s == '-' && !split) {
			ch = '/';
			split = true;
		}
		if (o + 1 >= sizeof(lv) || o + 1 >= size)
			return -ENAMETOOLONG;
		lv[o++] = ch;
	}
	if (!split)
		return -EINVAL;
	lv[o] = '\0';
	memcpy(buf, lv, o + 1);
	return 0;
}

/*
 * The drivers from the bus down to the disk: walk up from the disk's sysfs
 * directory, noting each ancestor's driver; then add them outermost first.
 */
static int add_drivers(struct devchain *c, const char *devices, const char *disk,
		       const char *holds)
{
	char p[PATH_MAX], what[128];
	struct {
		char drv[64];
		char mod[64];
		char dev[64];
		bool module;
	} found[16];
	unsigned int n = 0;
	int r;

	snprintf(p, sizeof(p), "%s", disk);
	snprintf(what, sizeof(what), "%s", holds ? holds : base_name(disk));
	while (strlen(p) > strlen(devices) && n < 16) {
		char *slash;

		if (exists(p, "driver") &&
		    link_base(p, "driver", found[n].drv, sizeof(found[n].drv)) == 0) {
			char dp[PATH_MAX];

			/* No module link: the driver is built in. */
			found[n].module =
				path_format(dp, sizeof(dp), "%s/driver", p) == 0 &&
				link_base(dp, "module", found[n].mod,
					  sizeof(found[n].mod)) == 0;
			if (!found[n].module)
				memcpy(found[n].mod, found[n].drv,
				       sizeof(found[n].mod));
			snprintf(found[n].dev, sizeof(found[n].dev), "%s",
				 base_name(p));
			n++;
		}
		slash = strrchr(p, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
	while (n-- > 0) {
		r = add_module(c, found[n].mod, "driver %s of %s (holds %s)",
			       found[n].drv, found[n].dev, what);
		if (r < 0)
			return r;
		c->mods[r].running_module |= found[n].module;
	}
	return 0;
}

static int walk(struct devchain *c, const char *sysfs, unsigned int maj,
		unsigned int min, unsigned int depth);

/* Walk each device below the stacked device at path (its slaves/). */
static int walk_slaves(struct devchain *c, const char *sysfs,
		       const char *path, unsigned int depth)
{
	char slaves[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int r = 0;

	if (path_format(slaves, sizeof(slaves), "%s/slaves", path) < 0)
		return -ENAMETOOLONG;
	d = opendir(slaves);
	if (!d)
		return -errno;
	while (r == 0 && (de = readdir(d))) {
		char dev[32], sp[PATH_MAX];
		unsigned int a, b;

		if (de->d_name[0] == '.')
			continue;
		if (path_format(sp, sizeof(sp), "%s/%s", slaves,
				de->d_name) < 0) {
			r = -ENAMETOOLONG;
			break;
		}
		read_attr(sp, "dev", dev, sizeof(dev));
		if (sscanf(dev, "%u:%u", &a, &b) != 2) {
			r = -EIO;
			break;
		}
		r = walk(c, sysfs, a, b, depth + 1);
	}
	closedir(d);
	return r;
}

/* The name of the one device below the stacked device at path. */
static int first_slave(const char *path, char *buf, size_t size)
{
	char slaves[PATH_MAX];
	struct dirent *de;
	int r = -ENOENT;
	DIR *d;

	if (path_format(slaves, sizeof(slaves), "%s/slaves", path) < 0)
		return -ENAMETOOLONG;
	d = opendir(slaves);
	if (!d)
		return -errno;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.') {
			r = path_format(buf, size, "%s", de->d_name);
			break;
		}
	closedir(d);
	return r;
}

/*
 * A LUKS device (dm uuid "CRYPT-LUKS2-<32 hex>-<name>"): recorded with its
 * header's UUID, for the plan to decide how the capture gets the key; then
 * the device below it.  Other dm-crypt devices (plain, TrueCrypt,
 * BitLocker) have no header the capture could check a key against.
 */
static int walk_crypt(struct devchain *c, const char *sysfs, const char *path,
		      const char *name, const char *uuid, const char *dmname,
		      unsigned int depth)
{
	struct devchain_crypt cr = { 0 };
	const char *hex = uuid + strlen("CRYPT-LUKS1-");
	char dev[32];
	int r;

	if ((strncmp(uuid, "CRYPT-LUKS1-", 12) != 0 &&
	     strncmp(uuid, "CRYPT-LUKS2-", 12) != 0) ||
	    strspn(hex, "0123456789abcdef") != 32 || hex[32] != '-') {
		set_layer(c, "the capture opens LUKS devices only: set 'path' or 'target' to a filesystem on LUKS or on an unencrypted disk",
			  "dm-crypt device %s (%s, type %.*s)", dmname, name,
			  (int)strcspn(uuid + 6, "-"), uuid + 6);
		return -EMEDIUMTYPE;
	}
	memcpy(cr.type, uuid + 6, 5);
	snprintf(cr.uuid, sizeof(cr.uuid), "%.8s-%.4s-%.4s-%.4s-%.12s", hex,
		 hex + 8, hex + 12, hex + 16, hex + 20);
	if (path_format(cr.name, sizeof(cr.name), "%s", dmname) < 0 ||
	    path_format(cr.kname, sizeof(cr.kname), "%s", name) < 0)
		return -ENAMETOOLONG;
	read_attr(path, "dev", dev, sizeof(dev));
	if (sscanf(dev, "%u:%u", &cr.major, &cr.minor) != 2)
		return -EIO;
	r = first_slave(path, cr.backing, sizeof(cr.backing));
	if (r < 0)
		return r;
	r = add_module(c, "dm_mod", "device-mapper, for LUKS device %s", dmname);
	if (r >= 0)
		r = add_module(c, "dm_crypt", "dm-crypt, for LUKS device %s",
			       dmname);
	if (r < 0)
		return r;
	for (unsigned int i = 0; i < c->n_crypts; i++)
		if (strcmp(c->crypts[i].uuid, cr.uuid) == 0)
			return walk_slaves(c, sysfs, path, depth);
	if (c->n_crypts >= DEVCHAIN_CRYPT_MAX)
		return -E2BIG;
	c->crypts[c->n_crypts++] = cr;
	return walk_slaves(c, sysfs, path, depth);
}

/* No blank, no control character: one word of a chain line. */
static bool one_word(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f)
			return false;
	return true;
}

/*
 * A multipath device (dm uuid "mpath-..."): recorded with its paths' WWID,
 * which the capture finds them by, and size; then each path, whose drivers
 * the capture needs.  A partition on it (kpartx's "partN-mpath-...") is
 * refused: the capture makes no partition maps.
 */
static int walk_mpath(struct devchain *c, const char *sysfs, const char *path,
		      const char *name, const char *uuid, const char *dmname,
		      unsigned int depth)
{
	struct devchain_mpath mp = { 0 };
	char slaves[PATH_MAX], size[32];
	struct dirent *de;
	DIR *d;
	int r = 0;

	if (!one_word(uuid) || !one_word(dmname) || strlen(uuid) >= sizeof(mp.uuid) ||
	    strlen(dmname) >= sizeof(mp.name)) {
		set_layer(c, "rename the map in /etc/multipath.conf (alias) to a name without blanks",
			  "multipath device %s (%s) whose name or uuid has blanks or is too long",
			  dmname, name);
		return -EMEDIUMTYPE;
	}
	memcpy(mp.uuid, uuid, strlen(uuid) + 1);
	memcpy(mp.name, dmname, strlen(dmname) + 1);
	read_attr(path, "size", size, sizeof(size));
	mp.sectors = strtoull(size, NULL, 10);
	if (path_format(slaves, sizeof(slaves), "%s/slaves", path) < 0)
		return -ENAMETOOLONG;
	d = opendir(slaves);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char sp[PATH_MAX], wwid[256];
		size_t l = strlen(mp.paths);

		if (de->d_name[0] == '.')
			continue;
		if (path_format(sp, sizeof(sp), "%s/%s/device", slaves,
				de->d_name) < 0) {
			r = -ENAMETOOLONG;
			break;
		}
		read_attr(sp, "wwid", wwid, sizeof(wwid));
		/* sysfs pads some with blanks: compared without them. */
		for (size_t e = strlen(wwid); e && wwid[e - 1] == ' '; e--)
			wwid[e - 1] = '\0';
		if (!wwid[0] || (mp.wwid[0] && strcmp(wwid, mp.wwid) != 0)) {
			set_layer(c, "set 'path' or 'target' to a filesystem on a multipath device of SCSI disks, or on a plain disk",
				  "multipath device %s (%s) whose path %s has %s WWID",
				  dmname, name, de->d_name,
				  wwid[0] ? "another" : "no SCSI");
			r = -EMEDIUMTYPE;
			break;
		}
		memcpy(mp.wwid, wwid, strlen(wwid) + 1);
		mp.n_paths++;
		if (l + strlen(de->d_name) + 2 <= sizeof(mp.paths)) {
			if (l)
				mp.paths[l++] = ' ';
			memcpy(mp.paths + l, de->d_name, strlen(de->d_name) + 1);
		}
	}
	closedir(d);
	if (r < 0)
		return r;
	if (!mp.n_paths || !mp.sectors)
		return -EIO;
	r = add_module(c, "dm_mod", "device-mapper, for multipath device %s",
		       dmname);
	if (r >= 0)
		r = add_module(c, "dm_multipath",
			       "dm-multipath, for multipath device %s", dmname);
	if (r >= 0)
		r = add_module(c, "dm_round_robin",
			       "path selector, for multipath device %s", dmname);
	if (r < 0)
		return r;
	for (unsigned int i = 0; i < c->n_mpaths; i++)
		if (strcmp(c->mpaths[i].uuid, mp.uuid) == 0)
			return walk_slaves(c, sysfs, path, depth);
	if (c->n_mpaths >= DEVCHAIN_MPATH_MAX)
		return -E2BIG;
	c->mpaths[c->n_mpaths++] = mp;
	return walk_slaves(c, sysfs, path, depth);
}

/* A device-mapper device (path, kernel name name): LVM, LUKS or multipath. */
static int walk_dm(struct devchain *c, const char *sysfs, const char *path,
		   const char *name, unsigned int depth)
{
	char uuid[256], dmname[256], lv[256];
	int r;

	read_attr(path, "dm/uuid", uuid, sizeof(uuid));
	read_attr(path, "dm/name", dmname, sizeof(dmname));
	if (strncmp(uuid, "CRYPT-", 6) == 0)
		return walk_crypt(c, sysfs, path, name, uuid, dmname, depth);
	if (strncmp(uuid, "mpath-", 6) == 0)
		return walk_mpath(c, sysfs, path, name, uuid, dmname, depth);
	if (strncmp(uuid, "part", 4) == 0 && strstr(uuid, "-mpath-")) {
		set_layer(c, "put the filesystem (or an LVM physical volume) on the whole multipath device, or set 'path' or 'target' to a filesystem on a plain disk",
			  "partition %s (%s) of a multipath device", dmname, name);
		return -EMEDIUMTYPE;
	}
	if (strncmp(uuid, "LVM-", 4) != 0) {
		set_layer(c, "only LVM logical volumes, LUKS and multipath devices are opened in the capture: set 'path' or 'target' to a plain partition, an LVM volume, a LUKS or a multipath device",
			  "device-mapper device %s (%s, uuid %.*s)", dmname, name,
			  (int)strcspn(uuid, "-"), uuid);
		return -EMEDIUMTYPE;
	}
	if (dm_name_to_lv(dmname, lv, sizeof(lv)) < 0) {
		set_layer(c, "rename the volume group or logical volume",
			  "LVM device %s whose name is not vg-lv", dmname);
		return -EMEDIUMTYPE;
	}
	r = add_module(c, "dm_mod", "device-mapper, for LVM logical volume %s", lv);
	if (r < 0)
		return r;
	if (c->n_lvs < 4) {
		bool dup = false;

		for (unsigned int i = 0; i < c->n_lvs; i++)
			dup |= strcmp(c->lvs[i], lv) == 0;
		if (!dup)
			snprintf(c->lvs[c->n_lvs++], sizeof(c->lvs[0]), "%s", lv);
	}
	return walk_slaves(c, sysfs, path, depth);
}

/* The module of an md RAID level; NULL for one the capture cannot run. */
static const char *md_level_module(const char *level)
{
	static const char *const map[][2] = {
		{ "raid0", "raid0" },	{ "raid1", "raid1" },
		{ "raid4", "raid456" }, { "raid5", "raid456" },
		{ "raid6", "raid456" }, { "raid10", "raid10" },
		{ "linear", "linear" },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(level, map[i][0]) == 0)
			return map[i][1];
	return NULL;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The array's members now (slaves/), sorted, blank-separated; how many. */
static void md_members(const char *path, struct devchain_md *md)
{
	char slaves[PATH_MAX], names[16][32];
	unsigned int n = 0;
	struct dirent *de;
	size_t len = 0;
	DIR *d;

	if (path_format(slaves, sizeof(slaves), "%s/slaves", path) < 0)
		return;
	d = opendir(slaves);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		md->n_members++;
		if (n < 16 && strlen(de->d_name) < sizeof(names[0]))
			memcpy(names[n++], de->d_name, strlen(de->d_name) + 1);
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_name);
	for (unsigned int i = 0; i < n; i++) {
		size_t l = strlen(names[i]);

		if (len + l + 2 > sizeof(md->members))
			break;
		if (len)
			md->members[len++] = ' ';
		memcpy(md->members + len, names[i], l + 1);
		len += l;
	}
}

/*
 * An md RAID array (path, kernel name name): recorded for the capture to
 * assemble by its UUID, with its level's module; then its members.  Arrays
 * without a 1.x superblock are refused: firmware RAID needs mdmon, and a
 * 0.90 superblock's UUID is kept in the host's byte order.
 */
static int walk_md(struct devchain *c, const char *sysfs, const char *path,
		   const char *name, unsigned int depth)
{
	struct devchain_md md = { 0 };
	char meta[64], disks[16];
	const char *mod;
	int r;

	read_attr(path, "md/metadata_version", meta, sizeof(meta));
	read_attr(path, "md/level", md.level, sizeof(md.level));
	read_attr(path, "md/uuid", md.uuid, sizeof(md.uuid));
	read_attr(path, "md/raid_disks", disks, sizeof(disks));
	if (strncmp(meta, "external:", 9) == 0) {
		set_layer(c, "firmware RAID needs mdmon, which the capture does not run: set 'path' or 'target' to a filesystem on another disk or on an md array of mdadm's own (1.x superblock)",
			  "firmware RAID array %s (%s)", name, meta + 9);
		return -EMEDIUMTYPE;
	}
	if (strncmp(meta, "1.", 2) != 0) {
		set_layer(c, "the capture assembles arrays with a 1.x superblock: convert a RAID1 array with 'mdadm --assemble --update=metadata' (see mdadm(8)), or set 'path' or 'target' to a filesystem on another disk",
			  "md RAID array %s with a %s superblock", name,
			  meta[0] ? meta : "missing");
		return -EMEDIUMTYPE;
	}
	mod = md_level_module(md.level);
	if (!mod || strlen(md.uuid) != 36) {
		set_layer(c, "set 'path' or 'target' to a filesystem on RAID level 0, 1, 4, 5, 6 or 10, or on a plain disk",
			  "md RAID array %s (level %s, uuid %s)", name,
			  md.level[0] ? md.level : "unknown",
			  md.uuid[0] ? md.uuid : "unknown");
		return -EMEDIUMTYPE;
	}
	r = add_module(c, "md_mod", "md RAID, for array %s", name);
	if (r >= 0)
		r = add_module(c, mod, "RAID level %s, for array %s", md.level,
			       name);
	if (r < 0)
		return r;
	if (path_format(md.name, sizeof(md.name), "%s", name) < 0)
		return -ENAMETOOLONG;
	md.raid_disks = (unsigned int)strtoul(disks, NULL, 10);
	md_members(path, &md);
	for (unsigned int i = 0; i < c->n_mds; i++)
		if (strcmp(c->mds[i].uuid, md.uuid) == 0)
			return walk_slaves(c, sysfs, path, depth);
	if (c->n_mds >= DEVCHAIN_MD_MAX)
		return -E2BIG;
	c->mds[c->n_mds++] = md;
	return walk_slaves(c, sysfs, path, depth);
}

/*
 * The layers the capture cannot bring up (loop, network and memory disks):
 * -EMEDIUMTYPE with the layer set; 0 for any other device.
 */
static int refuse_layer(struct devchain *c, const char *path,
			const char *name)
{
	char attr[256];

	if (strncmp(name, "loop", 4) == 0) {
		read_attr(path, "loop/backing_file", attr, sizeof(attr));
		set_layer(c, "the capture cannot set up a file-backed device: set 'path' or 'target' to a filesystem on a disk",
			  "loop device %s (backed by %s)", name,
			  attr[0] ? attr : "nothing");
		return -EMEDIUMTYPE;
	}
	if (strncmp(name, "nbd", 3) == 0 || strncmp(name, "rbd", 3) == 0 ||
	    strncmp(name, "drbd", 4) == 0) {
		set_layer(c, "the capture kernel has no network: set 'path' or 'target' to a filesystem on a local disk",
			  "network block device %s", name);
		return -EMEDIUMTYPE;
	}
	if (strncmp(name, "zram", 4) == 0 || strncmp(name, "ram", 3) == 0) {
		set_layer(c, "a disk in memory does not survive the crash: set 'path' or 'target' to a filesystem on a real disk",
			  "memory disk %s", name);
		return -EMEDIUMTYPE;
	}
	return 0;
}

static int add_word(char *buf, size_t size, const char *name);

/*
 * The iSCSI session directory in the sysfs path of a disk
 * (.../hostH/sessionN/targetH:0:0/H:0:0:L/block/sdX) into buf: 0, or
 * -ENOENT for a disk on no session.
 */
static int iscsi_session_dir(const char *path, char *buf, size_t size)
{
	for (const char *s = strstr(path, "/session"); s;
	     s = strstr(s + 1, "/session")) {
		size_t d = strspn(s + 8, "0123456789");

		if (d && s[8 + d] == '/')
			return path_format(buf, size, "%.*s",
					   (int)(s + 8 + d - path), path);
	}
	return -ENOENT;
}

/* The first connection of session directory sdir (connectionN:M). */
static int iscsi_connection(const char *sdir, char *buf, size_t size)
{
	struct dirent *de;
	int r = -ENOENT;
	DIR *d;

	d = opendir(sdir);
	if (!d)
		return -errno;
	while ((de = readdir(d)))
		if (strncmp(de->d_name, "connection", 10) == 0) {
			r = path_format(buf, size, "%s/%s/iscsi_connection/%s",
					sdir, de->d_name, de->d_name);
			break;
		}
	closedir(d);
	return r;
}

/* An unsigned decimal attribute no larger than max; -EIO when not one. */
static int read_uint(const char *dir, const char *name, unsigned long max,
		     unsigned int *ret)
{
	char v[32], *end;
	unsigned long n;

	read_attr(dir, name, v, sizeof(v));
	errno = 0;
	n = strtoul(v, &end, 10);
	if (!v[0] || *end || errno || n > max)
		return -EIO;
	*ret = (unsigned int)n;
	return 0;
}

/*
 * A disk on an iSCSI session: the session recorded (target, portal,
 * portal group, initiator) for the capture to log in again, the software
 * initiator's module added; then the disk's own drivers (sd_mod).  An
 * offload adapter (its own firmware logs in: qla4xxx, be2iscsi, bnx2i...)
 * or an IPv6 portal is refused.
 */
static int walk_iscsi(struct devchain *c, const char *devices,
		      const char *path, const char *name, const char *sdir)
{
	struct devchain_iscsi is = { 0 };
	char sattr[PATH_MAX], cattr[PATH_MAX], hattr[PATH_MAX], hdir[PATH_MAX];
	char proc[64], v[256];
	const char *host;
	struct in_addr a;
	int r;

	/* The session's parent is its SCSI host: .../hostH/sessionN. */
	if (path_format(is.session, sizeof(is.session), "%s",
			base_name(sdir)) < 0)
		return -ENAMETOOLONG;
	snprintf(hdir, sizeof(hdir), "%.*s", (int)(base_name(sdir) - 1 - sdir),
		 sdir);
	host = base_name(hdir);
	if (path_format(sattr, sizeof(sattr), "%s/iscsi_session/%s", sdir,
			is.session) < 0 ||
	    path_format(hattr, sizeof(hattr), "%s/scsi_host/%s", hdir,
			host) < 0)
		return -ENAMETOOLONG;
	read_attr(hattr, "proc_name", proc, sizeof(proc));
	if (strcmp(proc, "iscsi_tcp") != 0) {
		set_layer(c, "the capture logs in with the software initiator (iscsi_tcp) alone: set 'path' or 'target' to a filesystem on a local disk, or log in to the target with open-iscsi's iscsi_tcp",
			  "iSCSI disk %s of adapter %s (%s)", name, host,
			  proc[0] ? proc : "unknown driver");
		return -EMEDIUMTYPE;
	}
	r = iscsi_connection(sdir, cattr, sizeof(cattr));
	if (r < 0)
		return r;
	read_attr(sattr, "targetname", is.target, sizeof(is.target));
	read_attr(sattr, "initiatorname", v, sizeof(v));
	if (one_word(v) && strcmp(v, "(null)") != 0 &&
	    strlen(v) < sizeof(is.initiator))
		memcpy(is.initiator, v, strlen(v) + 1);
	read_attr(cattr, "persistent_address", v, sizeof(v));
	if (!one_word(is.target) || strcmp(is.target, "(null)") == 0 ||
	    read_uint(sattr, "tpgt", 65535, &is.tpgt) < 0 ||
	    read_uint(cattr, "persistent_port", 65535, &is.port) < 0 ||
	    !is.port)
		return -EIO;
	if (inet_pton(AF_INET, v, &a) != 1) {
		set_layer(c, "the capture reaches iSCSI portals over IPv4 alone: log in to the target at an IPv4 portal, or set 'path' or 'target' to a filesystem on a local disk",
			  "iSCSI disk %s of target %s at portal %s", name,
			  is.target, v);
		return -EMEDIUMTYPE;
	}
	if (path_format(is.addr, sizeof(is.addr), "%s", v) < 0)
		return -EIO;
	r = add_module(c, "iscsi_tcp", "iSCSI over TCP, for %s (%s)",
		       is.session, is.target);
	if (r < 0)
		return r;
	r = add_drivers(c, devices, path, NULL);
	if (r < 0)
		return r;
	for (unsigned int i = 0; i < c->n_iscsis; i++) {
		struct devchain_iscsi *o = &c->iscsis[i];

		if (strcmp(o->target, is.target) != 0 ||
		    strcmp(o->addr, is.addr) != 0 || o->port != is.port)
			continue;
		if (add_word(o->disks, sizeof(o->disks), name) < 0)
			return -E2BIG;
		return 0;
	}
	if (c->n_iscsis >= DEVCHAIN_ISCSI_MAX) {
		set_layer(c, "the capture logs in to one iSCSI target: put the filesystem on disks of one target and portal, or set 'path' or 'target' to a filesystem on a local disk",
			  "iSCSI disk %s of target %s at portal %s:%u, a second session",
			  name, is.target, is.addr, is.port);
		return -EMEDIUMTYPE;
	}
	if (path_format(is.disks, sizeof(is.disks), "%s", name) < 0)
		return -ENAMETOOLONG;
	c->iscsis[c->n_iscsis++] = is;
	return 0;
}

static int walk(struct devchain *c, const char *sysfs, unsigned int maj,
		unsigned int min, unsigned int depth)
{
	char link[PATH_MAX], path[PATH_MAX], devices[PATH_MAX];
	char tmp[PATH_MAX];
	const char *name;
	int r;

	if (depth > MAX_DEPTH)
		return -ELOOP;
	snprintf(link, sizeof(link), "%s/dev/block/%u:%u", sysfs, maj, min);
	if (!realpath(link, path))
		return -errno;
	snprintf(tmp, sizeof(tmp), "%s/devices", sysfs);
	if (!realpath(tmp, devices))
		return -errno;
	name = base_name(path);

	/* Stacked layers: device-mapper, md, loop, memory and network disks. */
	if (exists(path, "dm/uuid"))
		return walk_dm(c, sysfs, path, name, depth);
	r = refuse_layer(c, path, name);
	if (r < 0)
		return r;
	/* A partition's drivers (or array) are its disk's. */
	if (exists(path, "partition")) {
		char *slash = strrchr(path, '/');

		if (slash)
			*slash = '\0';
	}
	if (exists(path, "md"))
		return walk_md(c, sysfs, path, base_name(path), depth);
	if (iscsi_session_dir(path, tmp, sizeof(tmp)) == 0)
		return walk_iscsi(c, devices, path, base_name(path), tmp);
	return add_drivers(c, devices, path, NULL);
}

/* A module (not built in) in the running kernel: it has an initstate. */
static bool loaded_module(const char *sysfs, const char *name)
{
	char p[PATH_MAX];

	if (strncmp(name, "fs-", 3) == 0)
		name += 3;
	snprintf(p, sizeof(p), "%s/module/%s/initstate", sysfs, name);
	for (char *s = p + strlen(sysfs) + 8; *s; s++)
		if (*s == '-')
			*s = '_';
	return access(p, F_OK) == 0;
}

/*
 * What module m is for the capture kernel; built-in ones need no loading.
 * -ENOPKG (c->layer) for one the running kernel has as a module and the
 * capture kernel lacks.
 */
static int resolve_state(const char *sysfs, struct modload *km,
			 struct devchain *c, struct devchain_module *m)
{
	char real[64];

	m->state = modload_lookup(km, m->name, real, sizeof(real), m->deps,
				  sizeof(m->deps));
	if (m->state != MODLOAD_MISSING)
		snprintf(m->name, sizeof(m->name), "%s", real);
	else if (m->running_module || loaded_module(sysfs, m->name)) {
		(void)text_format(c->layer, sizeof(c->layer), "%s (%s)",
				  m->name, m->reason);
		return -ENOPKG;
	}
	/*
	 * A driver built into the running kernel and unknown to the capture
	 * kernel's module index: the same kernel, or one that has it built
	 * in too (its name may differ from the module's).
	 */
	if (m->state == MODLOAD_MISSING)
		m->state = MODLOAD_BUILTIN;
	return 0;
}

/* Each module of c resolved for the capture kernel (resolve_state()). */
static int resolve_states(const char *sysfs, struct modload *km,
			  struct devchain *c)
{
	for (unsigned int i = 0; i < c->n; i++) {
		int r = resolve_state(sysfs, km, c, &c->mods[i]);

		if (r < 0)
			return r;
	}
	return 0;
}

int devchain_add_module(struct devchain *c, const char *sysfs,
			struct modload *km, const char *name,
			const char *reason)
{
	struct devchain_module m = { 0 };
	int r;

	for (unsigned int i = 0; i < c->n; i++)
		if (same_module(c->mods[i].name, name))
			return 0;
	if (c->n >= DEVCHAIN_MAX)
		return -E2BIG;
	if (path_format(m.name, sizeof(m.name), "%s", name) < 0)
		return -ENAMETOOLONG;
	snprintf(m.reason, sizeof(m.reason), "%s", reason);
	r = resolve_state(sysfs, km, c, &m);
	if (r < 0)
		return r;
	c->mods[c->n++] = m;
	return 0;
}

/*
 * Resolve into c, a chain of the caller's own: the caller's ret is assigned
 * only once the whole chain is known.  On -EMEDIUMTYPE and -ENOPKG,
 * c->layer and c->fix say why.
 */
static int resolve(const char *sysfs, dev_t dev, const char *fstype,
		   struct modload *km, struct devchain *c)
{
	char fsalias[96];
	int r;

	r = walk(c, sysfs, major(dev), minor(dev), 0);
	if (r < 0)
		return r;
	if (fstype && fstype[0]) {
		/* Filesystems declare the alias fs-<type> (MODULE_ALIAS_FS). */
		snprintf(fsalias, sizeof(fsalias), "fs-%s", fstype);
		if (modload_lookup(km, fsalias, NULL, 0, NULL, 0) == MODLOAD_MISSING)
			snprintf(fsalias, sizeof(fsalias), "%s", fstype);
		r = add_module(c, fsalias, "filesystem %s of the dump target",
			       fstype);
		if (r < 0)
			return r;
	}
	return resolve_states(sysfs, km, c);
}

int devchain_resolve(const char *sysfs, dev_t dev, const char *fstype,
		     struct modload *km, struct devchain *ret)
{
	_cleanup_free_ struct devchain *c = NULL;
	int r;

	/* 26 KiB: on the heap rather than beside walk()'s recursion. */
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	r = resolve(sysfs, dev, fstype, km, c);
	if (r == -EMEDIUMTYPE || r == -ENOPKG) {
		/* The report of why, and nothing of the partial chain. */
		memcpy(ret->layer, c->layer, sizeof(ret->layer));
		memcpy(ret->fix, c->fix, sizeof(ret->fix));
	}
	if (r < 0)
		return r;
	*ret = *c;
	return 0;
}

/*
 * A network interface's drivers, from its device up to the bus (a virtio
 * NIC: virtio_net, then virtio_pci), then fsmodule.
 */
static int resolve_net(const char *sysfs, const char *const *ifnames,
		       unsigned int n_if, const struct devchain_want *want,
		       unsigned int n_want, struct modload *km,
		       struct devchain *c)
{
	char link[PATH_MAX], path[PATH_MAX], devices[PATH_MAX];
	int r;

	snprintf(devices, sizeof(devices), "%s/devices", sysfs);
	if (!realpath(devices, path))
		return -errno;
	memcpy(devices, path, sizeof(devices));
	for (unsigned int i = 0; i < n_if; i++) {
		snprintf(link, sizeof(link), "%s/class/net/%s/device", sysfs,
			 ifnames[i]);
		if (!realpath(link, path)) {
			r = -errno;
			snprintf(c->layer, sizeof(c->layer), "%s", ifnames[i]);
			return r;
		}
		/* Named for the interface, not for its device's sysfs name. */
		r = add_drivers(c, devices, path, ifnames[i]);
		if (r < 0)
			return r;
	}
	for (unsigned int i = 0; i < n_want; i++) {
		if (!want[i].name || !want[i].name[0])
			continue;
		r = add_module(c, want[i].name, "%s", want[i].reason);
		if (r < 0)
			return r;
	}
	return resolve_states(sysfs, km, c);
}

int devchain_resolve_net(const char *sysfs, const char *const *ifnames,
			 unsigned int n_if, const struct devchain_want *want,
			 unsigned int n_want, struct modload *km,
			 struct devchain *ret)
{
	_cleanup_free_ struct devchain *c = NULL;
	int r;

	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	r = resolve_net(sysfs, ifnames, n_if, want, n_want, km, c);
	if (r == -ENOPKG || r == -ENOENT)
		memcpy(ret->layer, c->layer, sizeof(ret->layer));
	if (r < 0)
		return r;
	*ret = *c;
	return 0;
}

/*
 * Add the src_n items of src (each size bytes, a string key at offset key)
 * that dst (*dst_n of at most max) does not have.
 */
static int merge_items(void *dst, unsigned int *dst_n, unsigned int max,
		       const void *src, unsigned int src_n, size_t size,
		       size_t key)
{
	for (unsigned int i = 0; i < src_n; i++) {
		const char *s = (const char *)src + i * size;
		bool dup = false;

		for (unsigned int k = 0; k < *dst_n && !dup; k++)
			dup = strcmp((const char *)dst + k * size + key,
				     s + key) == 0;
		if (dup)
			continue;
		if (*dst_n >= max)
			return -E2BIG;
		memcpy((char *)dst + (size_t)(*dst_n)++ * size, s, size);
	}
	return 0;
}

int devchain_merge(struct devchain *dst, const struct devchain *src)
{
	int r = 0;

	for (unsigned int i = 0; i < src->n; i++) {
		unsigned int before = dst->n;

		r = add_module(dst, src->mods[i].name, "%s", src->mods[i].reason);
		if (r < 0)
			return r;
		/* New: with its state and dependencies as resolved. */
		if (dst->n > before)
			dst->mods[r] = src->mods[i];
	}
	r = merge_items(dst->lvs, &dst->n_lvs, 4, src->lvs, src->n_lvs,
			sizeof(dst->lvs[0]), 0);
	if (r == 0)
		r = merge_items(dst->mds, &dst->n_mds, DEVCHAIN_MD_MAX, src->mds,
				src->n_mds, sizeof(dst->mds[0]),
				offsetof(struct devchain_md, uuid));
	if (r == 0)
		r = merge_items(dst->crypts, &dst->n_crypts, DEVCHAIN_CRYPT_MAX,
				src->crypts, src->n_crypts,
				sizeof(dst->crypts[0]),
				offsetof(struct devchain_crypt, uuid));
	if (r == 0)
		r = merge_items(dst->mpaths, &dst->n_mpaths, DEVCHAIN_MPATH_MAX,
				src->mpaths, src->n_mpaths,
				sizeof(dst->mpaths[0]),
				offsetof(struct devchain_mpath, uuid));
	if (r == 0)
		r = merge_items(dst->iscsis, &dst->n_iscsis, DEVCHAIN_ISCSI_MAX,
				src->iscsis, src->n_iscsis,
				sizeof(dst->iscsis[0]),
				offsetof(struct devchain_iscsi, target));
	return r;
}

static int mpath_line(const struct devchain_mpath *mp, char *buf, size_t size)
{
	return snprintf(buf, size, "mpath %s %s %llu %u %s\n", mp->uuid,
			mp->name, mp->sectors, mp->n_paths, mp->wwid);
}

/* An iSCSI session's chain line. */
static int iscsi_line(const struct devchain_iscsi *is, char *buf, size_t size)
{
	return snprintf(buf, size, "iscsi %u %s %u %s %s\n", is->tpgt,
			is->addr, is->port, is->target,
			is->initiator[0] ? is->initiator : "-");
}

/* A LUKS device's chain line, "" when its key is not decided. */
static int crypt_line(const struct devchain_crypt *cr, char *buf, size_t size)
{
	switch (cr->key) {
	case DEVCHAIN_KEY_KERNEL:
		return snprintf(buf, size, "luks %s %s kernel\n", cr->uuid,
				cr->name);
	case DEVCHAIN_KEY_FILE:
		return snprintf(buf, size, "luks %s %s file %d %llu %llu %s %s %s\n",
				cr->uuid, cr->name, cr->key_slot, cr->key_offset,
				cr->key_size, cr->key_fs_uuid, cr->key_fs_type,
				cr->key_rel);
	default:
		if (size)
			buf[0] = '\0';
		return 0;
	}
}

/* The length of what devchain_format() writes, without its NUL. */
static size_t format_len(const struct devchain *c)
{
	size_t len = 0;

	for (unsigned int i = 0; i < c->n; i++)
		if (c->mods[i].state == MODLOAD_MODULE)
			len += strlen("module \n") + strlen(c->mods[i].name);
	for (unsigned int i = 0; i < c->n_iscsis; i++)
		len += (size_t)iscsi_line(&c->iscsis[i], NULL, 0);
	for (unsigned int i = 0; i < c->n_mpaths; i++)
		len += (size_t)mpath_line(&c->mpaths[i], NULL, 0);
	for (unsigned int i = 0; i < c->n_mds; i++)
		len += strlen("md \n") + strlen(c->mds[i].uuid);
	for (unsigned int i = 0; i < c->n_crypts; i++)
		len += (size_t)crypt_line(&c->crypts[i], NULL, 0);
	for (unsigned int i = 0; i < c->n_lvs; i++)
		len += strlen("lvm \n") + strlen(c->lvs[i]);
	return len;
}

int devchain_format(const struct devchain *c, char *buf, size_t size)
{
	size_t pos = 0;

	/* Measured first, so that a buffer too small is left as it was. */
	if (format_len(c) >= size)
		return -ENOBUFS;
	buf[0] = '\0';
	for (unsigned int i = 0; i < c->n; i++)
		if (c->mods[i].state == MODLOAD_MODULE)
			pos += snprintf(buf + pos, size - pos, "module %s\n",
					c->mods[i].name);
	for (unsigned int i = 0; i < c->n_iscsis; i++)
		pos += (size_t)iscsi_line(&c->iscsis[i], buf + pos, size - pos);
	for (unsigned int i = 0; i < c->n_mpaths; i++)
		pos += (size_t)mpath_line(&c->mpaths[i], buf + pos, size - pos);
	for (unsigned int i = 0; i < c->n_mds; i++)
		pos += snprintf(buf + pos, size - pos, "md %s\n",
				c->mds[i].uuid);
	for (unsigned int i = 0; i < c->n_crypts; i++)
		pos += (size_t)crypt_line(&c->crypts[i], buf + pos, size - pos);
	for (unsigned int i = 0; i < c->n_lvs; i++)
		pos += snprintf(buf + pos, size - pos, "lvm %s\n", c->lvs[i]);
	return 0;
}

/* Append name to the blank-separated buf unless it is there already. */
static int add_word(char *buf, size_t size, const char *name)
{
	size_t n = strlen(name), len = strlen(buf);

	for (const char *w = buf; *w;) {
		size_t wl = strcspn(w, " ");

		if (wl == n && strncmp(w, name, n) == 0)
			return 0;
		w += wl;
		w += strspn(w, " ");
	}
	if (len + n + 2 > size)
		return -ENOBUFS;
	if (len)
		buf[len++] = ' ';
	memcpy(buf + len, name, n + 1);
	return 0;
}

/* The drivers of path and its ancestors below devices, outermost first. */
static int add_bound(const char *devices, const char *path, char *buf,
		     size_t size)
{
	char found[16][64], p[PATH_MAX];
	unsigned int n = 0;
	int r = 0;

	snprintf(p, sizeof(p), "%s", path);
	while (strlen(p) > strlen(devices) && n < 16) {
		char dp[PATH_MAX], *slash;

		if (path_format(dp, sizeof(dp), "%s/driver", p) < 0)
			break;
		if (link_base(dp, "module", found[n], sizeof(found[n])) == 0 ||
		    link_base(p, "driver", found[n], sizeof(found[n])) == 0)
			n++;
		slash = strrchr(p, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
	while (n-- > 0 && r == 0)
		r = add_word(buf, size, found[n]);
	return r;
}

static int bound_class(const char *sysfs, const char *class, char *buf,
		       size_t size)
{
	char dir[PATH_MAX], devices[PATH_MAX], virt[PATH_MAX + 16];
	struct dirent **names = NULL;
	int n, r = 0;

	snprintf(dir, sizeof(dir), "%s/devices", sysfs);
	if (!realpath(dir, devices))
		return errno == ENOENT ? 0 : -errno;
	snprintf(virt, sizeof(virt), "%s/virtual/", devices);
	snprintf(dir, sizeof(dir), "%s/class/%s", sysfs, class);
	/* Sorted: the same system gives the same plan, and the same image. */
	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0)
		return errno == ENOENT ? 0 : -errno;
	for (int i = 0; i < n; i++) {
		char entry[PATH_MAX], path[PATH_MAX], removable[16];

		if (r < 0 || names[i]->d_name[0] == '.' ||
		    path_format(entry, sizeof(entry), "%s/%s", dir,
				names[i]->d_name) < 0 ||
		    !realpath(entry, path) ||
		    strncmp(path, virt, strlen(virt)) == 0 ||
		    exists(path, "partition"))
			continue;
		read_attr(path, "removable", removable, sizeof(removable));
		if (strcmp(removable, "1") == 0)
			continue;
		r = add_bound(devices, path, buf, size);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return r;
}

int devchain_bound_drivers(const char *sysfs, bool net, char *buf,
			   size_t size)
{
	int r;

	if (size == 0)
		return -ENOBUFS;
	buf[0] = '\0';
	r = bound_class(sysfs, "block", buf, size);
	if (r == 0 && net)
		r = bound_class(sysfs, "net", buf, size);
	return r;
}
