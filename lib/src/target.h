/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The dump target's block device, found by UUID=, LABEL= or path with
 * libblkid alone: what the capture can do without udev.
 */
#ifndef KDUMP_FILE_TARGET_H
#define KDUMP_FILE_TARGET_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * Find the block device named by spec (UUID=, LABEL= or /dev/...) by
 * probing every block device that no other device holds, or PARTUUID=,
 * SERIAL=, WWID= by sysfs, without udev. Returns -ENODEV when absent.
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

/*
 * What the capture knows a raw dump device by, as load recorded it: the
 * spec that finds it (PARTUUID=, WWID=, SERIAL= or a /dev/ path), its
 * size in bytes (0: not known), and for a partition the WWID= or SERIAL=
 * of its whole disk ("" when the disk has none).  A clone of the disk, or
 * a stick given the same partition table, may copy the spec: it must copy
 * the size and the disk's serial as well to be taken for it, and then
 * there are two, which the capture refuses.
 */
struct target_identity {
	char spec[300];
	unsigned long long size;
	char disk[300];
};

/*
 * "SPEC size=BYTES disk=TAG=VALUE" (size and disk when known), the form
 * capture.conf carries as raw_identity.  -ENOBUFS when it does not fit.
 */
int target_identity_format(const struct target_identity *id, char *buf,
			   size_t size);
/* The reverse; -EINVAL for anything else. */
int target_identity_parse(const char *text, struct target_identity *ret);
/*
 * The identity of the block device whose kernel name is name: spec as
 * found (a stable id or a /dev/ path), its size in bytes and, for a
 * partition, its disk's WWID or serial, read below sysblock
 * (/sys/class/block).
 */
int target_identity_of(const char *sysblock, const char *name,
		       const char *spec, unsigned long long size,
		       struct target_identity *ret);

/* Who carries an identity, for the capture's count. */
struct target_match {
	/* Devices with the whole identity, and the first's kernel name. */
	unsigned int n_match;
	char first[NAME_MAX + 1];
	/* Their kernel names, ", "-separated, as many as fit. */
	char names[256];
	/* Devices with the spec whose size or disk differs, and what they have. */
	unsigned int n_other;
	char others[512];
};

/*
 * Count every block device below sysblock (/sys/class/block; devdir the
 * /dev they are probed through when sysfs lacks a PARTUUID) that carries
 * id.  Returns 0 and fills ret, or a negative errno when sysblock cannot
 * be read.
 */
int target_identity_count(const char *sysblock, const char *devdir,
			  const struct target_identity *id,
			  struct target_match *ret);

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
