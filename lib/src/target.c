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
		if (ret_fstype && target_probe_tag(spec, "TYPE", ret_fstype,
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
		if (target_probe_tag(dev, tag, val, sizeof(val)) < 0 ||
		    strcmp(val, want) != 0)
			continue;
		if (strlen(dev) >= dev_size) {
			r = -ENAMETOOLONG;
			break;
		}
		strcpy(ret_dev, dev);
		if (ret_fstype && target_probe_tag(dev, "TYPE", ret_fstype,
					    fstype_size) < 0)
			ret_fstype[0] = '\0';
		r = 0;
		break;
	}
	closedir(d);
	return r;
}
