// SPDX-License-Identifier: GPL-2.0
/*
 * Where a path or a device is mounted in the running system, through
 * libmount.  Apart from target.c so that the capture program, which needs
 * none of it, does not carry libmount into the capture initramfs.
 */
#include <blkid/blkid.h>
#include <errno.h>
#include <libmount/libmount.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "target.h"
#include "target-mount.h"

/* "/" + "/a" -> "/a"; "/sub" + "/a" -> "/sub/a"; "/sub" + "" -> "/sub". */
static int join_root(const char *root, const char *rest, char *buf, size_t size)
{
	int n;

	if (strcmp(root, "/") == 0)
		root = "";
	if (!root[0] && !rest[0])
		rest = "/";
	n = snprintf(buf, size, "%s%s", root, rest);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int target_resolve_path(const char *path, struct target_fs *ret)
{
	char real[PATH_MAX], *devname = NULL;
	const char *mnt, *root, *src, *type;
	struct libmnt_table *tb;
	struct libmnt_fs *fs;
	struct stat st;
	dev_t devno;
	int r;

	if (!realpath(path, real))
		return -errno;
	tb = mnt_new_table_from_file("/proc/self/mountinfo");
	if (!tb)
		return -errno ? -errno : -EIO;
	/* The mount that holds real: the topmost on its longest prefix. */
	fs = mnt_table_find_mountpoint(tb, real, MNT_ITER_BACKWARD);
	if (!fs) {
		r = -ENOENT;
		goto out;
	}
	mnt = mnt_fs_get_target(fs);
	root = mnt_fs_get_root(fs);
	type = mnt_fs_get_fstype(fs);
	src = mnt_fs_get_srcpath(fs);
	devno = mnt_fs_get_devno(fs);
	/*
	 * btrfs reports an anonymous device number (major 0) for each of its
	 * mounts; its source names the block device.  tmpfs and the like have
	 * neither: lost on reboot.
	 */
	if (major(devno) == 0) {
		if (!src || stat(src, &st) < 0 || !S_ISBLK(st.st_mode)) {
			r = -ENOTBLK;
			goto out;
		}
		devno = st.st_rdev;
	}
	if (!mnt || !type) {
		r = -EIO;
		goto out;
	}
	/* The kernel's own name, which devtmpfs has before udev runs. */
	devname = blkid_devno_to_devname(devno);
	if (!devname) {
		r = -ENODEV;
		goto out;
	}
	memset(ret, 0, sizeof(*ret));
	ret->devno = devno;
	snprintf(ret->devnode, sizeof(ret->devnode), "%s", devname);
	snprintf(ret->fstype, sizeof(ret->fstype), "%s", type);
	snprintf(ret->mountpoint, sizeof(ret->mountpoint), "%s", mnt);
	/*
	 * Below the filesystem's own root: the mount's root field (a bind
	 * mount or a btrfs subvolume) and then the path below the mount.
	 */
	r = join_root(root ? root : "/",
		      strcmp(mnt, "/") == 0 ? real : real + strlen(mnt),
		      ret->relpath, sizeof(ret->relpath));
	if (r < 0)
		goto out;
	{
		char uuid[256];

		if (target_probe_tag(devname, "UUID", uuid, sizeof(uuid)) == 0)
			snprintf(ret->spec, sizeof(ret->spec), "UUID=%s", uuid);
		else
			snprintf(ret->spec, sizeof(ret->spec), "%s", devname);
	}
	r = 0;
out:
	free(devname);
	mnt_unref_table(tb);
	return r;
}

/* The block device dev's number, and this process's mount table. */
static int mounts_of(const char *dev, dev_t *ret_devno,
		     struct libmnt_table **ret_tb)
{
	struct libmnt_table *tb;
	struct stat st;

	if (stat(dev, &st) < 0)
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	tb = mnt_new_table_from_file("/proc/self/mountinfo");
	if (!tb)
		return -errno ? -errno : -EIO;
	*ret_devno = st.st_rdev;
	*ret_tb = tb;
	return 0;
}

int target_mountpoint(const char *dev, char *ret, size_t size)
{
	struct libmnt_table *tb;
	struct libmnt_fs *fs;
	dev_t devno;
	int r;

	r = mounts_of(dev, &devno, &tb);
	if (r < 0)
		return r;
	r = -ENOENT;
	fs = mnt_table_find_devno(tb, devno, MNT_ITER_FORWARD);
	if (!fs)
		fs = mnt_table_find_srcpath(tb, dev, MNT_ITER_FORWARD);
	if (fs && mnt_fs_get_target(fs)) {
		r = snprintf(ret, size, "%s", mnt_fs_get_target(fs)) >= (int)size ?
			    -ENAMETOOLONG : 0;
	}
	mnt_unref_table(tb);
	return r;
}

int target_mounted_at(const char *dev, const char *dir)
{
	struct libmnt_table *tb;
	struct libmnt_fs *fs;
	dev_t devno;
	int r;

	r = mounts_of(dev, &devno, &tb);
	if (r < 0)
		return r;
	/* The topmost mount on dir, as a path lookup would reach it. */
	fs = mnt_table_find_target(tb, dir, MNT_ITER_BACKWARD);
	r = fs && mnt_fs_get_devno(fs) == devno;
	mnt_unref_table(tb);
	return r;
}
