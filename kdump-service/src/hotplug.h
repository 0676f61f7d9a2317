/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU and memory hotplug.  The ELF core headers of a loaded capture kernel
 * describe the CPUs and the System RAM of the moment they were built.  A
 * kernel that rewrites them on hotplug says so in
 * /sys/devices/system/{cpu,memory}/crash_hotplug ("1"); on any other
 * kernel (Debian's 6.1 has no such file) the capture kernel has to be
 * loaded again after a CPU or a memory block is added or removed.
 *
 * The udev rule runs "kdump-file hotplug", which only marks a reload as
 * pending (HOTPLUG_PENDING, its mtime the time of the newest event);
 * kdump-file-hotplug.path starts kdump-file-hotplug.service on it, which
 * waits for the burst of events to end (hotplug_settle()), removes the
 * mark and reloads.  A mark made while it reloads starts it once more.
 *
 * Every function takes the sysfs root ("/sys"; a temporary directory in
 * the unit tests) or the pending file's path.  None logs.
 */
#ifndef KDUMP_FILE_HOTPLUG_H
#define KDUMP_FILE_HOTPLUG_H

#include <stdbool.h>
#include <time.h>

#define HOTPLUG_SYSFS_ROOT "/sys"
#define HOTPLUG_PENDING "/run/kdump-file/hotplug-pending"
/* The rule that runs "kdump-file hotplug" (kdump-service/udev/). */
#define HOTPLUG_RULE_NAME "60-kdump-file-hotplug.rules"

/* The subsystems whose hotplug changes the ELF core headers. */
enum hotplug_subsystem {
	HOTPLUG_CPU,
	HOTPLUG_MEMORY,
	HOTPLUG_SUBSYSTEM_COUNT,
};

/* "cpu", "memory". */
const char *hotplug_subsystem_name(enum hotplug_subsystem s);
/* The subsystem named name; -EINVAL for any other name. */
int hotplug_subsystem_parse(const char *name, enum hotplug_subsystem *ret);

/* Who keeps the loaded capture kernel's headers right after a hotplug. */
enum hotplug_handler {
	HOTPLUG_BY_KERNEL,	/* crash_hotplug reads 1: rewritten in place */
	HOTPLUG_BY_RELOAD,	/* no crash_hotplug, or 0: user space reloads */
};

/*
 * <root>/devices/system/<subsystem>/crash_hotplug: HOTPLUG_BY_KERNEL for
 * "1", HOTPLUG_BY_RELOAD for "0" or no such file; -EBADMSG for anything
 * else, another negative errno when it cannot be read.
 */
int hotplug_handler(const char *root, enum hotplug_subsystem s,
		    enum hotplug_handler *ret);

/* <root>/kernel/kexec_crash_loaded reads 1; false when it cannot be read. */
bool hotplug_crash_loaded(const char *root);

/* What "kdump-file hotplug" does for one uevent. */
enum hotplug_decision {
	HOTPLUG_IGNORE_ACTION,	/* neither add nor remove: headers unchanged */
	HOTPLUG_NOT_LOADED,	/* no capture kernel to keep up to date */
	HOTPLUG_IN_PLACE,	/* the kernel rewrites the headers itself */
	HOTPLUG_MARK_PENDING,	/* a reload is needed */
};

/*
 * The decision for action (udev's ACTION; NULL when run by hand, taken as
 * a change) on subsystem s.  Negative errno when crash_hotplug holds
 * something else than 0 or 1 or cannot be read (not when it is absent).
 */
int hotplug_decide(const char *root, enum hotplug_subsystem s,
		   const char *action, enum hotplug_decision *ret);

/*
 * Create the pending file, or update its mtime: directory and file are
 * root's alone (0700, 0600), a symbolic link in its place is refused.
 */
int hotplug_mark_pending(const char *path);

/* Whether the pending file exists (false also when it cannot be seen). */
bool hotplug_pending(const char *path);

/*
 * Milliseconds still to wait until mtime lies quiet_ms before now (0 when
 * it does already); an mtime in the future counts as now.
 */
long long hotplug_settle_left(const struct timespec *mtime,
			      const struct timespec *now, long long quiet_ms);

/*
 * Wait until the pending file's mtime is at least quiet_ms old, polling
 * every poll_ms, but no longer than max_ms in all: 1 when it settled, 0
 * when max_ms ran out first (events still coming: reload anyway), -ENOENT
 * when there is no pending file, another negative errno from stat().
 */
int hotplug_settle(const char *path, long long quiet_ms, long long poll_ms,
		   long long max_ms);

#endif
