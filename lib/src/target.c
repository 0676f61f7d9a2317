// SPDX-License-Identifier: GPL-2.0
#include <blkid/blkid.h>
#include <ctype.h>
#include <stdbool.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "target.h"
#include "util.h"

/*
 * Probe one device's filesystem superblock for a tag ("UUID", "LABEL",
 * "TYPE", "VERSION": a LUKS header's 1 or 2).
 */
int target_probe_tag(const char *dev, const char *tag, char *buf, size_t size)
{
	const char *val = NULL;
	blkid_probe pr;
	int r;

	pr = blkid_new_probe_from_filename(dev);
	if (!pr)
		return -errno ? -errno : -EIO;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_UUID |
						      BLKID_SUBLKS_LABEL |
						      BLKID_SUBLKS_TYPE |
						      BLKID_SUBLKS_VERSION);
	r = blkid_do_safeprobe(pr);
	if (r == 0 && blkid_probe_lookup_value(pr, tag, &val, NULL) == 0 &&
	    strlen(val) < size) {
		strcpy(buf, val);
		r = 0;
	} else {
		r = -ENOENT;
	}
	blkid_free_probe(pr);
	return r;
}

/* Probe one partition's entry in its parent's table for PART_ENTRY_UUID. */
static int probe_partuuid(const char *dev, char *buf, size_t size)
{
	const char *val = NULL;
	blkid_probe pr;
	int r = -ENOENT;

	pr = blkid_new_probe_from_filename(dev);
	if (!pr)
		return -errno ? -errno : -EIO;
	blkid_probe_enable_superblocks(pr, 0);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_ENTRY_DETAILS);
	if (blkid_do_safeprobe(pr) == 0 &&
	    blkid_probe_lookup_value(pr, "PART_ENTRY_UUID", &val, NULL) == 0 &&
	    strlen(val) < size) {
		strcpy(buf, val);
		r = 0;
	}
	blkid_free_probe(pr);
	return r;
}

/* True for the characters an identity may have to be named in the config. */
static bool id_is_plain(const char *v)
{
	if (!*v)
		return false;
	for (; *v; v++)
		if (!isalnum((unsigned char)*v) && !strchr("._-+,@:", *v))
			return false;
	return true;
}

int target_sysfs_attr(const char *sysdir, const char *name, char *buf,
		      size_t size)
{
	char path[PATH_MAX], tmp[256];
	size_t n;
	FILE *f;
	char *s;

	snprintf(path, sizeof(path), "%s/%s", sysdir, name);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	s = fgets(tmp, sizeof(tmp), f);
	fclose(f);
	if (!s)
		return -ENODATA;
	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	if (!n)
		return -ENODATA;
	if (n >= size)
		return -ENAMETOOLONG;
	memcpy(buf, s, n + 1);
	return 0;
}

/* One KEY=value of a sysfs directory's uevent file. */
static int uevent_value(const char *sysdir, const char *key, char *buf,
			size_t size)
{
	char path[PATH_MAX], line[512];
	size_t k = strlen(key);
	int r = -ENOENT;
	FILE *f;

	snprintf(path, sizeof(path), "%s/uevent", sysdir);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, key, k) != 0 || line[k] != '=' || !line[k + 1])
			continue;
		r = strlen(line + k + 1) < size ? 0 : -ENAMETOOLONG;
		if (r == 0)
			strcpy(buf, line + k + 1);
		break;
	}
	fclose(f);
	return r;
}

/*
 * The identity of one block device as named by tag: WWID and SERIAL of a
 * whole disk from sysfs (the disk's own or its device's attribute),
 * PARTUUID of a partition from its parent's table.
 */
int target_device_id(const char *sysdir, const char *dev, const char *tag,
		     char *buf, size_t size)
{
	char sub[PATH_MAX], part[16];
	bool is_part = target_sysfs_attr(sysdir, "partition", part,
					 sizeof(part)) == 0;

	if (strcmp(tag, "PARTUUID") == 0) {
		if (!is_part)
			return -ENOENT;
		/*
		 * The kernel's own reading of the table, in the partition's
		 * uevent (part_uevent() in block/partitions/core.c) where the
		 * kernel has it; the table probed through the node otherwise.
		 */
		if (uevent_value(sysdir, "PARTUUID", buf, size) == 0)
			return 0;
		return probe_partuuid(dev, buf, size);
	}
	if (is_part || (strcmp(tag, "WWID") != 0 && strcmp(tag, "SERIAL") != 0))
		return -ENOENT;
	if (target_sysfs_attr(sysdir, strcmp(tag, "WWID") == 0 ? "wwid" : "serial",
			      buf, size) == 0)
		return 0;
	snprintf(sub, sizeof(sub), "%s/device", sysdir);
	return target_sysfs_attr(sub, strcmp(tag, "WWID") == 0 ? "wwid" : "serial",
				 buf, size);
}

int target_stable_id(const char *dev, char *buf, size_t size)
{
	static const char *const tags[] = { "PARTUUID", "WWID", "SERIAL" };
	char sysdir[64], val[256], spec[300], found[PATH_MAX];
	struct stat st;

	if (stat(dev, &st) < 0)
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	snprintf(sysdir, sizeof(sysdir), "/sys/dev/block/%u:%u",
		 major(st.st_rdev), minor(st.st_rdev));
	for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		struct stat fst;
		int n;

		if (target_device_id(sysdir, dev, tags[i], val, sizeof(val)) < 0 ||
		    !id_is_plain(val))
			continue;
		snprintf(spec, sizeof(spec), "%s=%s", tags[i], val);
		/* Only an identity that names this device and no other. */
		n = target_find_device_n(spec, found, sizeof(found), NULL, 0);
		if (n != 1 || stat(found, &fst) < 0 || fst.st_rdev != st.st_rdev)
			continue;
		if (strlen(spec) >= size)
			return -ENAMETOOLONG;
		strcpy(buf, spec);
		return 0;
	}
	return -ENOENT;
}

int target_signature(const char *dev, char *buf, size_t size)
{
	const char *val = NULL;
	blkid_probe pr;
	int r;

	pr = blkid_new_probe_from_filename(dev);
	if (!pr)
		return -errno ? -errno : -EIO;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	blkid_probe_enable_partitions(pr, 1);
	r = blkid_do_safeprobe(pr);
	if (r == 0 && (blkid_probe_lookup_value(pr, "TYPE", &val, NULL) == 0 ||
		       blkid_probe_lookup_value(pr, "PTTYPE", &val, NULL) == 0)) {
		snprintf(buf, size, "%s", val);
		r = 1;
	} else if (r == -2) {
		/* Ambiguous: more than one signature, which is still one. */
		snprintf(buf, size, "several signatures");
		r = 1;
	} else {
		r = r < 0 ? -EIO : 0;
	}
	blkid_free_probe(pr);
	return r;
}

int target_find_device(const char *spec, char *ret_dev, size_t dev_size,
		       char *ret_fstype, size_t fstype_size)
{
	int r = target_find_device_n(spec, ret_dev, dev_size, ret_fstype,
				     fstype_size);

	return r < 0 ? r : 0;
}

/* Whether the block device at sysdir has holders (dm or md above it). */
static bool held(const char *sysdir)
{
	char p[PATH_MAX];
	struct dirent *de;
	bool r = false;
	DIR *d;

	if ((size_t)snprintf(p, sizeof(p), "%s/holders", sysdir) >= sizeof(p))
		return false;
	d = opendir(p);
	if (!d)
		return false;
	while (!r && (de = readdir(d)))
		r = de->d_name[0] != '.';
	closedir(d);
	return r;
}

int target_find_device_n(const char *spec, char *ret_dev, size_t dev_size,
			 char *ret_fstype, size_t fstype_size)
{
	const char *tag, *want;
	struct dirent *de;
	struct stat st;
	bool sysid = false;
	DIR *d;
	int r = -ENODEV, found = 0;

	if (strncmp(spec, "/dev/", 5) == 0) {
		if (stat(spec, &st) < 0)
			return errno == ENOENT ? -ENODEV : -errno;
		if (!S_ISBLK(st.st_mode))
			return -ENOTBLK;
		if (strlen(spec) >= dev_size)
			return -ENAMETOOLONG;
		strcpy(ret_dev, spec);
		if (ret_fstype && target_probe_tag(spec, "TYPE", ret_fstype,
					    fstype_size) < 0)
			ret_fstype[0] = '\0';
		return 1;
	}
	if (strncmp(spec, "UUID=", 5) == 0) {
		tag = "UUID";
		want = spec + 5;
	} else if (strncmp(spec, "LABEL=", 6) == 0) {
		tag = "LABEL";
		want = spec + 6;
	} else if (strncmp(spec, "PARTUUID=", 9) == 0) {
		tag = "PARTUUID";
		want = spec + 9;
		sysid = true;
	} else if (strncmp(spec, "SERIAL=", 7) == 0) {
		tag = "SERIAL";
		want = spec + 7;
		sysid = true;
	} else if (strncmp(spec, "WWID=", 5) == 0) {
		tag = "WWID";
		want = spec + 5;
		sysid = true;
	} else {
		return -EINVAL;
	}

	d = opendir("/sys/class/block");
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char dev[300], sysdir[300], val[256];

		if (de->d_name[0] == '.')
			continue;
		snprintf(dev, sizeof(dev), "/dev/%s", de->d_name);
		snprintf(sysdir, sizeof(sysdir), "/sys/class/block/%s",
			 de->d_name);
		/*
		 * A filesystem seen on a device that another holds (a path of
		 * a multipath device, a member of an md array whose superblock
		 * is at the end) is the holder's.
		 */
		if (!sysid && held(sysdir))
			continue;
		if ((sysid ? target_device_id(sysdir, dev, tag, val, sizeof(val)) :
			     target_probe_tag(dev, tag, val, sizeof(val))) < 0 ||
		    strcmp(val, want) != 0)
			continue;
		/* The first match is the answer; the count tells of others. */
		if (found++)
			continue;
		if (strlen(dev) >= dev_size) {
			r = -ENAMETOOLONG;
			break;
		}
		strcpy(ret_dev, dev);
		if (ret_fstype && target_probe_tag(dev, "TYPE", ret_fstype,
					    fstype_size) < 0)
			ret_fstype[0] = '\0';
	}
	closedir(d);
	return found && r != -ENAMETOOLONG ? found : r;
}

/* A spec the capture can look for without udev, and nothing else. */
static bool identity_spec_valid(const char *spec, bool disk)
{
	static const char *const tags[] = { "WWID=", "SERIAL=", "PARTUUID=" };
	size_t n = disk ? 2 : 3;

	for (size_t i = 0; i < n; i++)
		if (strncmp(spec, tags[i], strlen(tags[i])) == 0)
			return id_is_plain(spec + strlen(tags[i]));
	if (disk || strncmp(spec, "/dev/", 5) != 0 || strstr(spec, ".."))
		return false;
	for (const char *v = spec + 5; *v; v++)
		if (!isalnum((unsigned char)*v) && !strchr("._-+,@:/", *v))
			return false;
	return spec[5] != '\0';
}

int target_identity_format(const struct target_identity *id, char *buf,
			   size_t size)
{
	char sz[32] = "";
	int n;

	if (id->size)
		snprintf(sz, sizeof(sz), " size=%llu", id->size);
	n = snprintf(buf, size, "%s%s%s%s", id->spec, sz,
		     id->disk[0] ? " disk=" : "", id->disk);
	if (n < 0)
		return -EINVAL;
	return (size_t)n < size ? 0 : -ENOBUFS;
}

int target_identity_parse(const char *text, struct target_identity *ret)
{
	struct target_identity id = { 0 };
	char copy[1024], *save = NULL, *w;
	bool first = true;

	if (strlen(text) >= sizeof(copy))
		return -EINVAL;
	strcpy(copy, text);
	for (w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (first) {
			if (!identity_spec_valid(w, false) ||
			    strlen(w) >= sizeof(id.spec))
				return -EINVAL;
			strcpy(id.spec, w);
			first = false;
		} else if (strncmp(w, "size=", 5) == 0 && !id.size) {
			char *end;

			if (!isdigit((unsigned char)w[5]))
				return -EINVAL;
			errno = 0;
			id.size = strtoull(w + 5, &end, 10);
			if (errno || *end || !id.size)
				return -EINVAL;
		} else if (strncmp(w, "disk=", 5) == 0 && !id.disk[0]) {
			if (!identity_spec_valid(w + 5, true) ||
			    strlen(w + 5) >= sizeof(id.disk))
				return -EINVAL;
			strcpy(id.disk, w + 5);
		} else {
			return -EINVAL;
		}
	}
	if (first)
		return -EINVAL;
	*ret = id;
	return 0;
}

/* The WWID= or SERIAL= of the disk holding partition sysdir. */
static int disk_id(const char *sysdir, char *buf, size_t size)
{
	static const char *const tags[] = { "WWID", "SERIAL" };
	char disk[PATH_MAX], val[256];

	/* sysfs puts a partition's directory inside its disk's. */
	snprintf(disk, sizeof(disk), "%s/..", sysdir);
	for (size_t i = 0; i < 2; i++) {
		if (target_device_id(disk, NULL, tags[i], val, sizeof(val)) < 0 ||
		    !id_is_plain(val))
			continue;
		if ((size_t)snprintf(buf, size, "%s=%s", tags[i], val) >= size)
			return -ENAMETOOLONG;
		return 0;
	}
	return -ENOENT;
}

int target_identity_of(const char *sysblock, const char *name,
		       const char *spec, unsigned long long size,
		       struct target_identity *ret)
{
	struct target_identity id = { .size = size };
	char sysdir[PATH_MAX], part[16];

	if (!identity_spec_valid(spec, false) || strlen(spec) >= sizeof(id.spec))
		return -EINVAL;
	strcpy(id.spec, spec);
	snprintf(sysdir, sizeof(sysdir), "%s/%s", sysblock, name);
	if (target_sysfs_attr(sysdir, "partition", part, sizeof(part)) == 0 &&
	    disk_id(sysdir, id.disk, sizeof(id.disk)) < 0)
		id.disk[0] = '\0';
	*ret = id;
	return 0;
}

/* Append "sep" and text to a list, as much as fits, "..." when cut. */
static void list_add(char *list, size_t size, const char *text)
{
	size_t n = strlen(list);

	if (n + 4 >= size)
		return;
	if ((size_t)snprintf(list + n, size - n, "%s%s", n ? ", " : "",
			     text) >= size - n)
		strcpy(list + size - 4, "...");
}

/* Whether the device in sysdir, /dev node dev, carries spec. */
static bool carries_spec(const char *sysdir, const char *name,
			 const char *dev, const char *spec)
{
	char tag[16], val[256];
	const char *eq = strchr(spec, '=');

	if (strncmp(spec, "/dev/", 5) == 0) {
		const char *base = strrchr(spec, '/') + 1;

		return strcmp(base, name) == 0;
	}
	if (!eq || (size_t)(eq - spec) >= sizeof(tag))
		return false;
	memcpy(tag, spec, eq - spec);
	tag[eq - spec] = '\0';
	return target_device_id(sysdir, dev, tag, val, sizeof(val)) == 0 &&
	       strcmp(val, eq + 1) == 0;
}

static int entry_filter(const struct dirent *de)
{
	return de->d_name[0] != '.';
}

int target_identity_count(const char *sysblock, const char *devdir,
			  const struct target_identity *id,
			  struct target_match *ret)
{
	struct target_match m = { 0 };
	struct dirent **list;
	int n;

	n = scandir(sysblock, &list, entry_filter, alphasort);
	if (n < 0)
		return -errno;
	for (int i = 0; i < n; i++) {
		const char *name = list[i]->d_name;
		char sysdir[PATH_MAX], dev[PATH_MAX], sectors[32], disk[300];
		char what[400];
		unsigned long long size = 0;
		bool size_ok, disk_ok = true;

		snprintf(sysdir, sizeof(sysdir), "%s/%s", sysblock, name);
		snprintf(dev, sizeof(dev), "%s/%s", devdir, name);
		if (!carries_spec(sysdir, name, dev, id->spec))
			continue;
		/* sysfs counts 512-byte sectors whatever the device's own. */
		if (target_sysfs_attr(sysdir, "size", sectors,
				      sizeof(sectors)) == 0)
			size = strtoull(sectors, NULL, 10) * 512;
		size_ok = !id->size || size == id->size;
		if (id->disk[0])
			disk_ok = disk_id(sysdir, disk, sizeof(disk)) == 0 &&
				  strcmp(disk, id->disk) == 0;
		if (size_ok && disk_ok) {
			if (!m.n_match++)
				snprintf(m.first, sizeof(m.first), "%s", name);
			list_add(m.names, sizeof(m.names), name);
			continue;
		}
		m.n_other++;
		if (id->disk[0] && !disk_ok) {
			if (disk_id(sysdir, disk, sizeof(disk)) < 0)
				snprintf(disk, sizeof(disk), "no serial or WWID");
			text_format(what, sizeof(what),
				    "%s: %llu bytes, its disk %s", name, size,
				    disk);
		} else {
			snprintf(what, sizeof(what), "%s: %llu bytes", name,
				 size);
		}
		list_add(m.others, sizeof(m.others), what);
	}
	for (int i = 0; i < n; i++)
		free(list[i]);
	free(list);
	*ret = m;
	return 0;
}
