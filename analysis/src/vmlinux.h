/* SPDX-License-Identifier: GPL-2.0 */
/* vmlinux: which kernel release a vmlinux file is, and where to find one. */
#ifndef KDUMP_FILE_VMLINUX_H
#define KDUMP_FILE_VMLINUX_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

/*
 * The release from the "Linux version RELEASE (...)" banner (linux_banner,
 * init/version.c) in the file's .rodata, or anywhere in the file if it has
 * no section headers. Returns 0, -ENOEXEC (not ELF), -ENOENT (no banner)
 * or another negative errno; @d says why.
 */
int vmlinux_release(const char *path, char *ret, size_t size, struct diag *d);

/*
 * Debian's places for the debug vmlinux of @release, in order:
 * /usr/lib/debug/boot/vmlinux-R, /usr/lib/debug/lib/modules/R/vmlinux,
 * /boot/vmlinux-R, /lib/modules/R/vmlinux. @root is prepended (tests).
 * Returns the index of the first readable one and its path, or -ENOENT.
 */
int vmlinux_find(const char *root, const char *release, char *ret,
		 size_t size);

extern const char *const vmlinux_paths[];

/* The GNU build ID of an ELF file, in hex (-ENOENT: it has none). */
int vmlinux_build_id(const char *path, char *ret, size_t size);

/*
 * The vmlinux of the kernel with build ID id (hex, "" or NULL when the dump
 * does not say) and release: /usr/lib/debug/.build-id, then vmlinux_paths,
 * then the files in extra (NULL-terminated); each must carry that build ID,
 * or without one name that release.
 */
int vmlinux_find_id(const char *release, const char *id, const char *const *extra,
		    char *ret, size_t size);

#endif
