/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDUMP_FILE_MODLOAD_H
#define KDUMP_FILE_MODLOAD_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Kernel modules through libkmod, for the loader: lookups by name or
 * alias, and the module plan the capture executes without libkmod
 * (modplan.h): dependencies, softdeps, options and aliases resolved here.
 * Never logs.
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
 * What name is for this kernel; with ret_name (size bytes) the module's
 * own name (an alias resolved), with ret_deps the names of the modules it
 * needs, space-separated ("" when none or built in).  For a missing
 * module neither is written.
 */
enum modload_state modload_lookup(struct modload *m, const char *name,
				  char *ret_name, size_t size, char *ret_deps,
				  size_t deps_size);

/*
 * Of the modules alias resolves to (a device's modalias may match several),
 * the one whose file lies under dir of the module directory (e.g.
 * "kernel/drivers/watchdog/"), loadable (modules.dep's path) or built in
 * (modules.builtin's); the first by name when several do.  Its name in
 * ret_name (size bytes); MODLOAD_MISSING, ret_name untouched, when none.
 */
enum modload_state modload_lookup_under(struct modload *m, const char *alias,
					const char *dir, char *ret_name,
					size_t size);

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
