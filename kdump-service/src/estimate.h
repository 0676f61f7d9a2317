/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDUMP_FILE_ESTIMATE_H
#define KDUMP_FILE_ESTIMATE_H

#include <stdbool.h>
#include <stddef.h>

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
	unsigned long long network;		/* a network target's */
	unsigned long long storage;		/* md arrays: mdadm, buffers */
	unsigned long long ram;			/* system RAM */
	unsigned long long ram_share;
	unsigned long long needed;
	unsigned long long recommended;		/* rounded, with margin */
};

/*
 * modules_bytes: the files of the modules the capture loads for its target
 * (devchain.h), which a modular kernel holds a second time, loaded.  net:
 * the kind of network target, whose capture needs more at run time (see
 * estimate.c).
 */
int estimate_capture(int kernel_fd, int initramfs_fd,
		     unsigned long long ram_bytes,
		     unsigned long long modules_bytes,
		     unsigned long long storage_bytes, enum conf_net net,
		     struct estimate *ret);

/*
 * What assembling one md array of this level and size costs the capture
 * (mdadm while it runs, the array's buffers; see estimate.c): the
 * storage_bytes of estimate_capture() add one per array.
 */
unsigned long long estimate_md_bytes(const char *level,
				     unsigned int raid_disks);

/*
 * What unlocking one LUKS device costs the capture: cryptsetup while it
 * runs, dm-crypt's buffers, and the key slot's Argon2 memory (0 for
 * PBKDF2 or a key the kernel hands over); storage_bytes as md's.
 */
unsigned long long estimate_luks_bytes(unsigned int kdf_memory_kb);

/*
 * What making one multipath device costs the capture: dm-multipath's
 * pools; storage_bytes as md's.
 */
unsigned long long estimate_mpath_bytes(void);
/* What an iSCSI session of the target adds: the way to it, the session. */
unsigned long long estimate_iscsi_bytes(void);

/*
 * makedumpfile's threads in the capture.  Each thread beyond the first
 * costs its buffers (makedumpfile 1.7.2: about 1 MiB each) and the CPU
 * the capture kernel brings up to run it: its per-CPU areas, stacks and
 * runqueues.  THREADS_CPU_COST_MIB is an estimate, to be replaced by the
 * figures of the bench's crashkernel search with nr_cpus > 1.
 */
#define THREADS_BUFFER_COST_MIB 1
#define THREADS_CPU_COST_MIB 3
#define THREADS_EXTRA_BYTES                                                   \
	((unsigned long long)(THREADS_BUFFER_COST_MIB + THREADS_CPU_COST_MIB) \
	 << 20)

/* What decided the threads: the smallest of the limits. */
enum threads_limit {
	THREADS_BY_REQUEST,	/* what was asked for */
	THREADS_BY_CPUS,	/* the CPUs online here */
	THREADS_BY_NR_CPUS,	/* nr_cpus= of cmdline_append */
	THREADS_BY_MEMORY,	/* the reservation */
};

struct threads_choice {
	unsigned int threads;		/* 1..CONF_THREADS_MAX */
	unsigned int requested;		/* CONF_THREADS_AUTO or N */
	unsigned int cpus;		/* online here */
	unsigned int nr_cpus;		/* of cmdline_append, 0: none */
	unsigned int room;		/* threads beyond one the memory allows */
	enum threads_limit limit;
	unsigned long long reserved;	/* 0: none or unknown */
	unsigned long long need;	/* the capture's with one thread */
	/* The crashkernel= that allows the request (0: auto), bytes. */
	unsigned long long reserve_for_request;
};

/*
 * The capture's own need for the threads rule: the estimate with its
 * margin (what 'estimate' recommends, before rounding), so that threads
 * only use memory the recommendation leaves beyond the capture's need.
 */
unsigned long long estimate_threads_need(const struct estimate *e);

/*
 * The threads makedumpfile runs with: the request (CONF_THREADS_AUTO: the
 * CPUs online), at most the CPUs online, nr_cpus (0: no such limit) and
 * one more per THREADS_EXTRA_BYTES the reservation leaves beyond need;
 * never fewer than one.  reserved 0: unknown or none (one thread).
 */
void estimate_threads(unsigned int requested, unsigned int cpus,
		      unsigned int nr_cpus, unsigned long long reserved,
		      unsigned long long need, struct threads_choice *ret);

/*
 * The choice and why, for status and estimate: "1 (auto: the 64M
 * reservation leaves room for 0 more)".  -ENOBUFS when size is too small.
 */
int estimate_threads_text(const struct threads_choice *t, char *buf,
			  size_t size);

/*
 * The warning load prints when the reservation cut an explicit request;
 * 0 and "" when there is none to print, 1 when buf holds one.
 */
int estimate_threads_warning(const struct threads_choice *t, char *buf,
			     size_t size);

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
