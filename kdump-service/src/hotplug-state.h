/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How CPU and memory hotplug are handled on this machine, and the reload
 * after them (reload --after-hotplug): for the hotplug verb, reload,
 * status and show.  See hotplug.h for the decisions themselves.
 */
#ifndef KDUMP_FILE_HOTPLUG_STATE_H
#define KDUMP_FILE_HOTPLUG_STATE_H

#include <limits.h>

#include <json-c/json.h>

#include "cli.h"

/*
 * CPU and memory hotplug (see hotplug.h).  KDUMP_FILE_HOTPLUG_ROOT, for
 * the command-line tests only, is a directory standing for / in what
 * hotplug, reload --after-hotplug, status and show read and write for
 * hotplug: sysfs, the pending file and the udev rule.
 */
struct hotplug_paths {
	char sysfs[PATH_MAX];
	char pending[PATH_MAX];
	char root[PATH_MAX];	/* "" for / */
};

void hotplug_paths(struct hotplug_paths *hp);
/* The hotplug line of status and show (label width wide), or j's fields. */
int hotplug_report(struct json_object *j, int width);
/*
 * reload --after-hotplug: once the events have settled, the capture
 * kernel loaded again, only over kdump-file's own.
 */
int reload_after_hotplug(struct cli *cli);

#endif
