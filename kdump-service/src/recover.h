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

/*
 * What recover_dump() did, filled in whatever it returns: each step's
 * error (a negative errno, 0 when it went well or was not tried).
 */
struct recover_outcome {
	struct raw_header header;	/* as read; valid once header_error is 0 */
	char name[DUMP_NAME_MAX];	/* the dump directory; "" before it is made */
	bool complete;			/* the capture finished: a vmcore to recover */
	bool header_read;		/* all of it: header_error is its parser's */
	int header_error;		/* reading or parsing the header */
	int dir_error;			/* making the dump directory */
	int dmesg_error;
	int vmcore_error;
	char vmcore_why[192];		/* "makedumpfile -R: exit 1", ... */
	int metadata_error;		/* metadata.json (the dump is there) */
	int mark_error;			/* marking the header recovered */
};

/*
 * Recover the dump on the raw dump device fd (dev_size bytes; dev is its
 * node, raw the configuration's name for it) into a new dump directory
 * below the directory base: the dmesg, the vmcore unflattened by
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
