/* SPDX-License-Identifier: GPL-2.0 */
/*
 * recover: the dump the capture wrote to a raw dump device (rawdump.h)
 * turned back into a dump directory (dumpdir.h), and the device's header
 * marked recovered.  Never logs: what failed is in struct recover_outcome
 * for the verb to say.
 */
#ifndef KDUMP_FILE_RECOVER_H
#define KDUMP_FILE_RECOVER_H

#include <stdbool.h>

#include "dumpdir.h"
#include "rawdump.h"
#include "safedir.h"

/*
 * What recover_dump() did, filled in whatever it returns: each step's
 * error (a negative errno, 0 when it went well or was not tried).
 */
struct recover_outcome {
	/* The header as read: valid once header_error is 0. */
	struct raw_header header;
	/* The dump directory below base; "" before it is made. */
	char name[DUMP_NAME_MAX];
	/* The capture finished: there is a vmcore to recover. */
	bool complete;
	/* The header was read whole: a header_error is its parser's. */
	bool header_read;
	int header_error;
	int dir_error;
	/* For a dir_error of -EPERM: what about base is not root's alone. */
	struct safe_violation dir_bad;
	int dmesg_error;
	int vmcore_error;
	/* Why the vmcore was not recovered: "makedumpfile -R: exit 1". */
	char vmcore_why[192];
	/* metadata.json not written, the dump recovered all the same. */
	int metadata_error;
	/* Recovered, but the header not marked so. */
	int mark_error;
};

/*
 * Recover the dump on the raw dump device fd (dev_size bytes; dev is its
 * node, raw the configuration's name for it) into a new dump directory
 * below the directory base, made when missing and checked first as every
 * dump directory is (safe_open(): root's alone, through links too; -EPERM
 * with dir_bad filled, nothing written): the dmesg, the vmcore unflattened by
 * "makedumpfile -R" (from PATH) when the capture finished, and
 * metadata.json.  The header is marked recovered once the dmesg and the
 * vmcore are; a vmcore that could not be recovered stays on the device for
 * the next try.  Returns 1 when the device holds no dump not yet recovered,
 * 0 when it was recovered (metadata_error and mark_error may still be set),
 * or the first step's negative errno (-EIO for a short read).
 */
int recover_dump(int fd, unsigned long long dev_size, const char *raw,
		 const char *dev, const char *base,
		 struct recover_outcome *out);

#endif
