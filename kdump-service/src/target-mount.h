/* SPDX-License-Identifier: GPL-2.0 */
/* The dump directory's filesystem in the running system, through libmount. */
#ifndef KDUMP_FILE_TARGET_MOUNT_H
#define KDUMP_FILE_TARGET_MOUNT_H

#include <stddef.h>
#include <sys/types.h>

struct target_fs {
	char spec[4096];	/* UUID=... (or /dev/... without a UUID) */
	char fstype[64];
	char relpath[4096];	/* path below the filesystem's root */
	char mountpoint[4096];
	dev_t devno;		/* the block device */
	char devnode[256];	/* its kernel name, /dev/vda1 */
};

/*
 * Find the filesystem that holds the existing directory path in the running
 * system (libmount, from /proc/self/mountinfo: the topmost mount, its root
 * field for bind mounts and btrfs subvolumes) and name it in a way the
 * capture kernel can find again.
 */
int target_resolve_path(const char *path, struct target_fs *ret);

/* Where the block device dev is mounted in this system (-ENOENT: nowhere). */
int target_mountpoint(const char *dev, char *ret, size_t size);

/* 1 when the directory dir is a mount of the block device dev, 0 if not. */
int target_mounted_at(const char *dev, const char *dir);

#endif
