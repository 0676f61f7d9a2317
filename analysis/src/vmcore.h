/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vmcore: read kernel crash dumps through libkdumpfile.
 *
 * Handles ELF vmcores (/proc/vmcore as saved by cp or makedumpfile -E) and
 * makedumpfile's compressed "kdump" (diskdump) format. The flattened format
 * (makedumpfile -F, signature "makedumpfile" at offset 0) is refused with
 * the command that converts it.
 *
 * Every function returns 0 (or a documented positive value) on success and a
 * negative errno on failure; nothing here prints. A function that can fail
 * takes a struct diag (lib's diag.h; NULL: the errno alone), which gets one
 * sentence naming what is wrong. Output parameters are untouched on
 * failure.
 *
 * Errors:
 *   -EBADMSG          truncated or corrupt file
 *   -ENOTSUP          flattened format, or not an x86_64 dump
 *   -EPROTONOSUPPORT  not a kernel dump at all (unknown signature)
 *   -ENODATA          the data asked for is not in the dump
 *   -EINVAL           bad argument
 *   -ENOMEM, -EIO, other errno from the system
 */
#ifndef KDUMP_FILE_VMCORE_H
#define KDUMP_FILE_VMCORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

struct vmcore;

struct vmcore_info {
	char format[32];	/* "elf" or "diskdump" (libkdumpfile's name) */
	char description[64];	/* e.g. "ELF64 dump", "Linux compressed kdump" */
	char arch[16];		/* "x86_64" */
	char osrelease[65];	/* VMCOREINFO OSRELEASE; "" if absent */
	char build_id[65];	/* VMCOREINFO BUILD-ID; "" if absent */
	char nodename[65];	/* utsname nodename if the format keeps it */
	bool has_vmcoreinfo;
	uint64_t page_size;	/* VMCOREINFO PAGESIZE; 0 if absent */
	int64_t crashtime;	/* VMCOREINFO CRASHTIME (epoch s); -1 if absent */
	unsigned int n_cpus;	/* NT_PRSTATUS notes (CPUs with registers) */
	uint64_t file_size;
	uint64_t max_pfn;	/* first page frame beyond the dump's memory */
};

struct vmcore_cpu {
	int32_t pid;		/* task running on the CPU at the crash */
	uint64_t rip;
	uint64_t rsp;
	uint64_t rbp;
};

/* One ELF program header of type PT_LOAD, as found in the file. */
struct vmcore_segment {
	uint64_t paddr;
	uint64_t vaddr;
	uint64_t offset;
	uint64_t filesz;
	uint64_t memsz;
};

/* A physical range [start, end). */
struct vmcore_range {
	uint64_t start;
	uint64_t end;
};

enum vmcore_map {
	VMCORE_MAP_RAM,		/* memory the crashed system had (dump's view) */
	VMCORE_MAP_DUMPED,	/* pages whose content is in the file */
};

int vmcore_open(const char *path, struct vmcore **ret, struct diag *d);
int vmcore_open_fd(int fd, struct vmcore **ret, struct diag *d);
void vmcore_free(struct vmcore *v);

/*
 * Completeness: every PT_LOAD's data is inside the file (ELF), every dumped
 * page's data is inside the file (kdump), and the first and last dumped
 * pages can be read (all formats). A vmcore cut short while
 * it was being written fails here with -EBADMSG.
 */
int vmcore_validate(struct vmcore *v, struct diag *d);

/* What the dump says of itself; what it does not say is left empty. */
int vmcore_get_info(struct vmcore *v, struct vmcore_info *ret);
int vmcore_get_cpu(struct vmcore *v, unsigned int cpu, struct vmcore_cpu *ret,
		   struct diag *d);

/* ELF only (-ENOTSUP, no message, otherwise); the array belongs to @v. */
int vmcore_get_segments(struct vmcore *v, const struct vmcore_segment **ret,
			size_t *ret_n);

/*
 * Ranges of @map, merged, in ascending order; *ret is malloc()ed. Also
 * returns the number of pages they cover.
 */
int vmcore_get_ranges(struct vmcore *v, enum vmcore_map map,
		      struct vmcore_range **ret, size_t *ret_n,
		      uint64_t *ret_pages, struct diag *d);

/*
 * Is any page of [start, end) in @map? Returns 1 and the address of the
 * first such page, or 0 if none.
 */
int vmcore_find_in_range(struct vmcore *v, enum vmcore_map map,
			 uint64_t start, uint64_t end, uint64_t *ret_addr,
			 struct diag *d);

/*
 * Read @len bytes of physical memory at @addr. On failure *ret_done (if not
 * NULL) still tells how many bytes at the start of @buf are valid.
 */
int vmcore_read_phys(struct vmcore *v, uint64_t addr, void *buf, size_t len,
		     size_t *ret_done, struct diag *d);

/* A VMCOREINFO value (the text after "KEY="); *ret is malloc()ed. */
int vmcore_vmcoreinfo(struct vmcore *v, const char *key, char **ret,
		      struct diag *d);

#endif
