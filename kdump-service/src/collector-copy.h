/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the machine keeps of a dump that went to its network target: the
 * newest dump's kernel log and metadata, copied from the collector (ssh's
 * "get" request, or the NFS export mounted read-only) into a directory of
 * its own below COLLECTOR_COPY_DIR, named as the dump is there, with
 * DUMP_COLLECTOR_COPY saying where the dump is.  kdump-file-report.service
 * makes the copy in its privileged step; the sandboxed report then
 * analyses the copy's kernel log, and the crash's journal entry and list's
 * signature come from it.  Everything read from the collector is bounded
 * in bytes and time.  The copy runs in the background at boot, maybe while
 * other machines' dumps load the collector: ssh waits net_timeout for it,
 * as the capture does, not the few seconds of status.  Nothing here
 * prints.
 */
#ifndef KDUMP_FILE_COLLECTOR_COPY_H
#define KDUMP_FILE_COLLECTOR_COPY_H

#include <stddef.h>

#include "conf.h"
#include "diag.h"

#define COLLECTOR_COPY_DIR "/var/lib/kdump-file/collector"
/* COLLECTOR_COPY_DIR, or $KDUMP_FILE_COPY_DIR (the tests'). */
const char *collector_copy_dir(void);
/* The copies kept: the oldest beyond go. */
#define COLLECTOR_COPY_KEEP 8
/* The most a copied kernel log, metadata or report may be. */
#define COLLECTOR_COPY_DMESG_MAX (16 * 1024 * 1024)
#define COLLECTOR_COPY_META_MAX (1024 * 1024)

/*
 * Copy c's newest dump on the collector into dir (made 0700 when
 * missing), unless a copy of it is there already; its name goes to
 * ret_name.  -ENOENT when the collector holds no dump of this machine;
 * another negative errno when the collector could not be read, recorded
 * in d with one line saying why (the errno alone when that says it all).
 */
int collector_copy_newest(const struct kdump_conf *c, const char *dir,
			  char *ret_name, size_t name_size, struct diag *d);

/*
 * The newest copy in dir (by crash time, then name): its path in ret;
 * -ENOENT when there is none.
 */
int collector_copy_last(const char *dir, char *ret, size_t size);

/* The copy in dir of the dump named name, when there is one. */
int collector_copy_find(const char *dir, const char *name, char *ret,
			size_t size);

/*
 * A dump on the collector, known by its name: the kernel, signature and
 * summary d lacks, from its copy in dir when there is one.
 */
struct dump_info;
void collector_copy_details(const char *dir, const char *name,
			    struct dump_info *d);

#endif
