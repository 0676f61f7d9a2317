// SPDX-License-Identifier: GPL-2.0
#include <blkid/blkid.h>
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

/* Probe one device's filesystem superblock for a tag ("UUID", "LABEL", "TYPE"). */
static int probe_tag(const char *dev, const char *tag, char *buf, size_t size)
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
						      BLKID_SUBLKS_TYPE);
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

/* Undo mountinfo's octal escapes (\040 for space) in place. */
static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 3;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

static size_t prefix_match(const char *mnt, const char *path)
{
	size_t n = strlen(mnt);

	if (strcmp(mnt, "/") == 0)
		return 1;
	if (strncmp(mnt, path, n) == 0 && (path[n] == '/' || path[n] == '\0'))
		return n;
	return 0;
}

int target_resolve_path(const char *path, struct target_fs *ret)
{
	char real[PATH_MAX], line[8192], best_mnt[PATH_MAX] = "";
	char best_dev[32] = "", best_type[64] = "", dev[64];
	size_t best = 0;
	FILE *f;

	if (!realpath(path, real))
		return -errno;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char mnt[PATH_MAX], majmin[32], fstype[64];
		const char *sep;
		size_t m;

		/* id parent maj:min root mountpoint ... - fstype source ... */
		if (sscanf(line, "%*u %*u %31s %*s %4095s", majmin, mnt) != 2)
			continue;
		sep = strstr(line, " - ");
		if (!sep || sscanf(sep, " - %63s", fstype) != 1)
			continue;
		unescape(mnt);
		m = prefix_match(mnt, real);
		/* Later mounts on the same point hide earlier ones: >=. */
		if (m && m >= best) {
			best = m;
			snprintf(best_mnt, sizeof(best_mnt), "%s", mnt);
			snprintf(best_dev, sizeof(best_dev), "%s", majmin);
			snprintf(best_type, sizeof(best_type), "%s", fstype);
		}
	}
	fclose(f);
	if (!best)
		return -ENOENT;
	if (strncmp(best_dev, "0:", 2) == 0)
		return -ENOTBLK; /* tmpfs and the like: lost on reboot */

	/*
	 * The kernel's own name (DEVNAME in sysfs) under devtmpfs: unlike the
	 * /dev/block symlinks it exists before udev has run.
	 */
	{
		char uevent[128], kv[256];
		FILE *u;

		snprintf(uevent, sizeof(uevent), "/sys/dev/block/%s/uevent",
			 best_dev);
		u = fopen(uevent, "re");
		if (!u)
			return -errno;
		dev[0] = '\0';
		while (fgets(kv, sizeof(kv), u))
			if (sscanf(kv, "DEVNAME=%58s", dev + 5) == 1)
				memcpy(dev, "/dev/", 5);
		fclose(u);
		if (dev[0] != '/')
			return -ENODEV;
	}
	memset(ret, 0, sizeof(*ret));
	strcpy(ret->fstype, best_type);
	strcpy(ret->mountpoint, best_mnt);
	if (strcmp(best_mnt, "/") == 0)
		snprintf(ret->relpath, sizeof(ret->relpath), "%s", real);
	else
		snprintf(ret->relpath, sizeof(ret->relpath), "%s",
			 real[strlen(best_mnt)] ? real + strlen(best_mnt) : "/");

	{
		char uuid[256];

		if (probe_tag(dev, "UUID", uuid, sizeof(uuid)) == 0) {
			snprintf(ret->spec, sizeof(ret->spec), "UUID=%s", uuid);
		} else {
			snprintf(ret->spec, sizeof(ret->spec), "%s", dev);
		}
	}
	return 0;
}

int target_find_device(const char *spec, char *ret_dev, size_t dev_size,
		       char *ret_fstype, size_t fstype_size)
{
	const char *tag, *want;
	struct dirent *de;
	struct stat st;
	DIR *d;
	int r = -ENODEV;

	if (strncmp(spec, "/dev/", 5) == 0) {
		if (stat(spec, &st) < 0)
			return errno == ENOENT ? -ENODEV : -errno;
		if (!S_ISBLK(st.st_mode))
			return -ENOTBLK;
		if (strlen(spec) >= dev_size)
			return -ENAMETOOLONG;
		strcpy(ret_dev, spec);
		if (ret_fstype && probe_tag(spec, "TYPE", ret_fstype,
					    fstype_size) < 0)
			ret_fstype[0] = '\0';
		return 0;
	}
	if (strncmp(spec, "UUID=", 5) == 0) {
		tag = "UUID";
		want = spec + 5;
	} else if (strncmp(spec, "LABEL=", 6) == 0) {
		tag = "LABEL";
		want = spec + 6;
	} else {
		return -EINVAL;
	}

	d = opendir("/sys/class/block");
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char dev[300], val[256];

		if (de->d_name[0] == '.')
			continue;
		snprintf(dev, sizeof(dev), "/dev/%s", de->d_name);
		if (probe_tag(dev, tag, val, sizeof(val)) < 0 ||
		    strcmp(val, want) != 0)
			continue;
		if (strlen(dev) >= dev_size) {
			r = -ENAMETOOLONG;
			break;
		}
		strcpy(ret_dev, dev);
		if (ret_fstype && probe_tag(dev, "TYPE", ret_fstype,
					    fstype_size) < 0)
			ret_fstype[0] = '\0';
		r = 0;
		break;
	}
	closedir(d);
	return r;
}

int target_mountpoint(const char *dev, char *ret, size_t size)
{
	char line[8192], want[32];
	struct stat st;
	int r = -ENOENT;
	FILE *f;

	if (stat(dev, &st) < 0)
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	snprintf(want, sizeof(want), "%u:%u", major(st.st_rdev),
		 minor(st.st_rdev));
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char majmin[32], mnt[PATH_MAX];

		if (sscanf(line, "%*u %*u %31s %*s %4095s", majmin, mnt) != 2 ||
		    strcmp(majmin, want) != 0)
			continue;
		unescape(mnt);
		if (strlen(mnt) >= size) {
			r = -ENAMETOOLONG;
			break;
		}
		strcpy(ret, mnt);
		r = 0;
		break;
	}
	fclose(f);
	return r;
}
