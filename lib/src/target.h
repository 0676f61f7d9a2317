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
 * probing every block device, without udev. Returns -ENODEV when absent.
 */
int target_find_device(const char *spec, char *ret_dev, size_t dev_size,
		       char *ret_fstype, size_t fstype_size);

/* Probe one device's superblock for a tag ("UUID", "LABEL", "TYPE"). */
int target_probe_tag(const char *dev, const char *tag, char *buf, size_t size);

#endif
