/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A dump on a raw block device: a 4 KiB text header, the dmesg, then the
 * vmcore in makedumpfile's flattened format (what it writes to a pipe).
 * The capture kernel writes it; after the reboot "kdump-file recover" turns
 * it back into a dump directory and marks the header recovered.
 */
#ifndef KDUMP_FILE_RAWDUMP_H
#define KDUMP_FILE_RAWDUMP_H

#include <stdbool.h>
#include <stddef.h>

#define RAW_HEADER_SIZE 4096
#define RAW_MAGIC "KDUMP-FILE RAW 1\n"

enum raw_state {
	RAW_EMPTY,	/* no header: nothing was ever written */
	RAW_WRITING,	/* the capture did not finish (power loss?) */
	RAW_COMPLETE,
	RAW_FAILED,
	RAW_RECOVERED,
};

struct raw_header {
	enum raw_state state;
	long long time;			/* of the capture, seconds since the epoch */
	char release[65];
	unsigned long long dmesg_off, dmesg_len;
	unsigned long long vmcore_off, vmcore_len;
	char error[256];
};

/* Encode into exactly RAW_HEADER_SIZE bytes (NUL padded). */
int raw_header_format(const struct raw_header *h, char *buf);
/*
 * Parse a header read from a device of dev_size bytes; every offset and
 * length must lie inside the device.  -ENODATA when there is no header.
 */
int raw_header_parse(const char *buf, size_t len, unsigned long long dev_size,
		     struct raw_header *ret);
const char *raw_state_to_string(enum raw_state s);

/*
 * Whether a capture may write its dump over the first bytes buf of a device
 * of dev_size bytes.  signature: what libblkid found there ("" for none).
 * -EEXIST: a complete dump not yet recovered, kept unless overwrite (the
 * old header in *ret_old); -ENOTEMPTY: another program's data (a
 * filesystem, a partition table), kept unless force.
 */
int raw_may_write(const char *buf, size_t len, unsigned long long dev_size,
		  const char *signature, bool overwrite, bool force,
		  struct raw_header *ret_old);

#endif
