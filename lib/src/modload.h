/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDUMP_FILE_MODLOAD_H
#define KDUMP_FILE_MODLOAD_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Kernel modules through libkmod: lookups by name or alias, dependencies
 * and softdeps, insertion; and udev's coldplug for drivers, without udev,
 * in rounds: a bus driver loaded in one round makes the devices that need
 * the next round's drivers.  Never logs: what was loaded and what failed is
 * kept for the caller to print.
 */
struct modload;

enum modload_state {
	MODLOAD_MISSING,	/* neither a module nor built in */
	MODLOAD_MODULE,		/* a loadable module */
	MODLOAD_BUILTIN,	/* built into the kernel */
};

/* moddir: /lib/modules/<release> of the kernel the modules are for. */
int modload_new(const char *moddir, struct modload **ret);
void modload_free(struct modload *m);

/*
 * Insert the module called name (a module name or an alias such as
 * "fs-ext4") with what it depends on.  A module already in the kernel or
 * built in is no error.  -ENOENT: no such module.
 */
int modload_insert(struct modload *m, const char *name);

/*
 * One coldplug round: the modalias of every device under sysfs_root that
 * has no driver yet, each alias tried once per struct modload.  Returns
 * the number of modules inserted in this round.
 */
int modload_coldplug_round(struct modload *m, const char *sysfs_root);

/* The modules inserted so far, space-separated, in order ("" if none). */
const char *modload_loaded(const struct modload *m);
/* How many insertions failed, and the last one's module and errno. */
unsigned int modload_failures(const struct modload *m, const char **ret_name,
			      int *ret_errno);

/*
 * What name is for this kernel; with ret_name (size bytes) the module's
 * own name (an alias resolved), with ret_deps the names of the modules it
 * needs, space-separated ("" when none or built in).  For a missing
 * module neither is written.
 */
enum modload_state modload_lookup(struct modload *m, const char *name,
				  char *ret_name, size_t size, char *ret_deps,
				  size_t deps_size);

/*
 * The bytes of the module files of names[0..n) and of everything they
 * depend on, each file counted once; names not found count nothing.
 */
int modload_files_bytes(struct modload *m, const char *const *names,
			unsigned int n, unsigned long long *ret);

#endif
