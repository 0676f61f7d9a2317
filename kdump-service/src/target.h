/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDUMP_FILE_TARGET_H
#define KDUMP_FILE_TARGET_H

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

/*
 * Find the block device named by spec (UUID=, LABEL= or /dev/...) by
 * probing every block device, without udev. Returns -ENODEV when absent.
 */
int target_find_device(const char *spec, char *ret_dev, size_t dev_size,
		       char *ret_fstype, size_t fstype_size);

/* Probe one device's superblock for a tag ("UUID", "LABEL", "TYPE"). */
int target_probe_tag(const char *dev, const char *tag, char *buf, size_t size);

/* Where the block device dev is mounted in this system (-ENOENT: nowhere). */
int target_mountpoint(const char *dev, char *ret, size_t size);

#endif
