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
/*
 * The same with modprobe.d configuration from config (a NULL-terminated
 * list of files or directories) instead of the system's.
 */
int modload_new_config(const char *moddir, const char *const *config,
		       struct modload **ret);
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

/*
 * The module plan (modplan.h) for release: the modules names[0..n) stand
 * for (a name or an alias, each module an alias matches), everything they
 * depend on and their softdeps, each with its path, dependencies in load
 * order, softdeps, modprobe.d options and alias patterns; and the names
 * that resolve to built-in modules.  Names that resolve to nothing are
 * left out.  In *ret_text (free it), JSON.  -ENOEXEC for a module the
 * capture cannot insert as it is (compressed: finit_module(2) of a .ko.xz
 * needs the kernel's module decompression, which Debian 12's kernels lack),
 * its name in ret_module (module_size bytes).
 */
int modload_plan(struct modload *m, const char *release,
		 const char *const *names, unsigned int n, char **ret_text,
		 char *ret_module, size_t module_size);

#endif
