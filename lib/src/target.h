/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The dump target's block device, found by UUID=, LABEL= or path with
 * libblkid alone: what the capture can do without udev.
 */
#ifndef KDUMP_FILE_TARGET_H
#define KDUMP_FILE_TARGET_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Find the block device named by spec (UUID=, LABEL= or /dev/...) by
 * probing every block device, or PARTUUID=, SERIAL=, WWID= by sysfs, without
 * udev. Returns -ENODEV when absent.
 */
int target_find_device(const char *spec, char *ret_dev, size_t dev_size,
		       char *ret_fstype, size_t fstype_size);

/* The same, returning how many devices match (>= 1) when one does. */
int target_find_device_n(const char *spec, char *ret_dev, size_t dev_size,
			 char *ret_fstype, size_t fstype_size);

/*
 * A name for the block device dev that stays when kernel names change
 * order: "PARTUUID=..." for a partition, "WWID=..." or "SERIAL=..." for a
 * whole disk, each only when no other device has it.  -ENOENT: none.
 */
int target_stable_id(const char *dev, char *buf, size_t size);

/* One identity (tag "PARTUUID", "WWID" or "SERIAL") of the device whose
 * sysfs directory is sysdir. */
int target_device_id(const char *sysdir, const char *dev, const char *tag,
		     char *buf, size_t size);

/* One attribute of a sysfs directory, without surrounding blanks. */
int target_sysfs_attr(const char *sysdir, const char *name, char *buf,
		      size_t size);

/*
 * Whether dev carries a filesystem, RAID/LVM member or partition table
 * signature: 1 with its name in buf, 0 when none, negative errno.
 */
int target_signature(const char *dev, char *buf, size_t size);

/* Probe one device's superblock for a tag ("UUID", "LABEL", "TYPE"). */
int target_probe_tag(const char *dev, const char *tag, char *buf, size_t size);

#endif
