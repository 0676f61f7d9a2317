/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDUMP_FILE_MODPLAN_H
#define KDUMP_FILE_MODPLAN_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The module plan: what kdump-file(8) resolved with libkmod at load time
 * (modload_plan()), carried into the capture initramfs as JSON, and its
 * executor, which needs no libkmod (and so none of the compression and
 * signature libraries it links) to do what modprobe would: a module's
 * pre softdeps, its dependencies in load order, the module itself with
 * its modprobe.d options, its post softdeps; names resolved to built-in
 * modules; device modaliases matched against every module's alias
 * patterns with fnmatch(), the way libkmod matches them.
 *
 *   {"release": "6.1.0-13-amd64",
 *    "modules": [{"name": "ext4", "path": "kernel/fs/ext4/ext4.ko",
 *                 "deps": ["crc16", "mbcache", "jbd2"], "pre": [],
 *                 "post": [], "options": "", "aliases": ["fs-ext4"]}],
 *    "builtin": [{"name": "fs-vfat", "module": "vfat"}]}
 *
 * Every module a list names is one of "modules".  Never logs: what was
 * inserted and what failed is kept for the caller to print.
 */
struct modplan;

/* A plan file larger than this is refused rather than read. */
#define MODPLAN_MAX_BYTES (8u << 20)
/* At most this many modules, and this many names in one list. */
#define MODPLAN_MAX_MODULES 8192u
#define MODPLAN_MAX_LIST 4096u

/*
 * What the executor does to the kernel, replaceable so that tests record
 * instead: insert the module open on fd (finit_module(2) with options),
 * 0 or a negative errno; and whether the module called name is in the
 * kernel already.
 */
struct modplan_ops {
	int (*insert)(void *data, const char *name, int fd,
		      const char *options);
	bool (*present)(void *data, const char *name);
	void *data;
};

/* The real ones: finit_module(2), and /sys/module/NAME. */
extern const struct modplan_ops modplan_kernel_ops;

/*
 * Parse a plan of len bytes (text need not be NUL-terminated).  -EINVAL
 * for anything that is not a plan as written above: wrong types, a name
 * or path that is not one, a list naming a module the plan lacks, sizes
 * beyond the limits.
 */
int modplan_parse(const char *text, size_t len, struct modplan **ret);
/* The plan in the file at path; -EFBIG beyond MODPLAN_MAX_BYTES. */
int modplan_read(const char *path, struct modplan **ret);
void modplan_free(struct modplan *p);

/* The kernel release the plan is for, and how many modules it has. */
const char *modplan_release(const struct modplan *p);
unsigned int modplan_count(const struct modplan *p);
/*
 * Module i's name and path (relative to /lib/modules/<release>), in the
 * plan's order; NULL for i >= modplan_count().
 */
const char *modplan_name(const struct modplan *p, unsigned int i);
const char *modplan_path(const struct modplan *p, unsigned int i);

/*
 * Where the executor finds the plan's paths (/lib/modules/<release>) and
 * how it reaches the kernel (ops NULL: modplan_kernel_ops); -ENAMETOOLONG
 * when moddir is too long.  Until called: /lib/modules/<release>.
 */
int modplan_set_exec(struct modplan *p, const char *moddir,
		     const struct modplan_ops *ops);

/*
 * Insert name (a module's name or an alias such as "fs-ext4" or a device
 * modalias) as modprobe would.  A module in the kernel already or built
 * in is no error.  Returns how many modules were inserted, or -ENOENT
 * when the plan has nothing called name.  An insertion of the module or
 * of a dependency that fails stops the probe and is counted
 * (modplan_failures()); a softdep's failure is ignored, as libkmod does.
 */
int modplan_insert(struct modplan *p, const char *name);

/*
 * One coldplug round: the modalias of every device under sysfs_root that
 * has no driver yet, each alias tried once per struct modplan.  Returns
 * the number of modules inserted in this round.
 */
int modplan_coldplug_round(struct modplan *p, const char *sysfs_root);

/* The modules inserted so far, space-separated, in order ("" if none). */
const char *modplan_loaded(const struct modplan *p);
/* How many insertions failed, and the last one's module and errno. */
unsigned int modplan_failures(const struct modplan *p, const char **ret_name,
			      int *ret_errno);

#endif
