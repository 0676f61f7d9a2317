/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDUMP_FILE_ESTIMATE_H
#define KDUMP_FILE_ESTIMATE_H

#include <stdbool.h>

#include "conf.h"

/*
 * What a capture needs in crashkernel memory, from the capture kernel's
 * in-memory size (the bzImage's init_size), the initramfs (compressed, held
 * while it unpacks, and unpacked), the target's modules once loaded, a
 * measured run-time cost, and a share
 * that grows with the crashed system's RAM.  See estimate.c for where the
 * measured figures come from.
 */
struct estimate {
	unsigned long long kernel;		/* init_size */
	unsigned long long initramfs;		/* file size */
	unsigned long long initramfs_unpacked;
	unsigned long long modules;		/* the target's, loaded */
	unsigned long long runtime;
	unsigned long long ram;			/* system RAM */
	unsigned long long ram_share;
	unsigned long long needed;
	unsigned long long recommended;		/* rounded, with margin */
};

/*
 * modules_bytes: the files of the modules the capture loads for its target
 * (devchain.h), which a modular kernel holds a second time, loaded.
 */
int estimate_capture(int kernel_fd, int initramfs_fd,
		     unsigned long long ram_bytes,
		     unsigned long long modules_bytes, struct estimate *ret);

/*
 * The automatic capture_timeout: the wait for the target, a fixed margin
 * for booting the capture and mounting, and per GiB of RAM a time far above
 * what makedumpfile needs (zlib: 6 s per GiB measured, the rest less
 * than 2 s), so that only a capture that is stuck meets it.
 */
unsigned int estimate_capture_timeout(unsigned int target_timeout,
				      unsigned long long ram_bytes, bool zlib);

/*
 * A dump this machine saved before, at some dump level and compression:
 * its vmcore's size and the seconds makedumpfile took (metadata.json).
 */
struct dump_measured {
	unsigned long long bytes;
	double seconds;
	unsigned int dump_level;
	enum conf_compression compression;
};

/* The dump a crash now would write. */
struct dump_estimate {
	unsigned long long kept_pages;	/* what the dump level keeps */
	unsigned long long total_pages;
	unsigned long long page_size;
	unsigned long long bytes;	/* the vmcore, compressed */
	double seconds;			/* makedumpfile's run */
	/* Ratio and speed from a dump this machine saved, not the bench's. */
	bool measured;
};

/*
 * The dump of kept_pages of total_pages (page_size bytes each, as
 * makedumpfile --mem-usage counts them) with compression c: from the
 * figures make bench measured, or from prev (NULL: none) when it was saved
 * at the same dump level and compression.  -EINVAL for figures that make
 * no sense (no pages, kept more than total).
 */
int estimate_dump(unsigned long long kept_pages,
		  unsigned long long total_pages, unsigned long long page_size,
		  unsigned int dump_level, enum conf_compression c,
		  const struct dump_measured *prev, struct dump_estimate *ret);

#endif
