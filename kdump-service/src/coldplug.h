/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDUMP_FILE_COLDPLUG_H
#define KDUMP_FILE_COLDPLUG_H

/*
 * What udev's coldplug does for drivers, without udev: match every device's
 * modalias in sysfs against modules.alias of the running kernel's modules
 * and load the matches (dependencies first, from modules.dep) with
 * finit_module(2).  Returns the number of modules loaded, or a negative
 * errno when the module directory cannot be read (no modules: 0).
 */
int coldplug_load_modules(const char *moddir, const char *sysfs_root);

#endif
