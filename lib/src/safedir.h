/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A path opened as root opens it: every directory on the way, every
 * symbolic link and what the last component is, checked to be root's alone
 * on the descriptor that is then used, so that what was checked is what is
 * written to or read.  Links are resolved here, one component at a time,
 * never by the kernel: a link's target is checked like the path itself, and
 * the link must be root's too.  Never logs.
 */
#ifndef KDUMP_FILE_SAFEDIR_H
#define KDUMP_FILE_SAFEDIR_H

#include <stddef.h>
#include <sys/types.h>

/* Why a path is not root's alone. */
enum safe_fault {
	SAFE_FAULT_NONE,
	SAFE_FAULT_OWNER,		/* owned by another user than root */
	SAFE_FAULT_GROUP_WRITABLE,
	SAFE_FAULT_WORLD_WRITABLE,
	SAFE_FAULT_LINK,		/* a link where none is accepted */
};

struct safe_violation {
	/* What failed or could not be examined, as the walk reached it. */
	char path[4096];
	enum safe_fault fault;
	unsigned int uid;
	unsigned int mode;		/* the permission bits, 07777 */
};

/* The last component must be a directory, writable by root alone. */
#define SAFE_DIRECTORY 0x1
/* Missing directories are made (mode 0700); implies SAFE_DIRECTORY. */
#define SAFE_CREATE 0x2
/* A link as the last component is refused (SAFE_FAULT_LINK). */
#define SAFE_LEAF_NOLINK 0x4
/* The last component opened O_PATH, not for reading (a device, a FIFO). */
#define SAFE_PATH_ONLY 0x8

/*
 * Open path (absolute; a relative one is taken from the working directory,
 * which is not checked) as described above.  Every directory on the way
 * must be owned by root (or the effective user) and writable by nobody
 * else unless it is sticky (/tmp: nobody renames root's entries there);
 * every link on the way owned by root; the last component owned by root
 * and writable by nobody else (a sticky directory passes when neither
 * SAFE_DIRECTORY nor SAFE_CREATE is given).  The descriptor, close-on-exec and opened
 * O_NOFOLLOW (O_RDONLY, O_DIRECTORY for a directory), goes to *ret_fd.
 *
 * Returns 0; -EPERM with *ret_bad filled when something is not root's
 * alone; -ENOENT (ret_bad->path naming what is missing), -ENOTDIR, -ELOOP
 * (more than 40 links) or another negative errno otherwise, ret_bad->path
 * naming what could not be opened.  *ret_fd is untouched on failure.
 */
int safe_open(const char *path, unsigned int flags,
	      struct safe_violation *ret_bad, int *ret_fd);

/* Text for a violation: "owned by uid 1000", "world-writable (mode 1777)". */
const char *safe_fault_text(const struct safe_violation *bad, char *buf,
			    size_t size);

#endif
