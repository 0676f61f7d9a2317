/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vmcore: what its files share, and nothing outside them may use.
 *
 *   vmcore.c           open (signature, libkdumpfile), info, registers
 *   vmcore-elf.c       an ELF core's headers and notes, checked
 *   vmcore-diskdump.c  a kdump file's headers and page descriptors, checked
 *   vmcore-memory.c    page maps, physical reads, completeness
 *
 * Every function here fails as the public ones do: a negative errno, and
 * one message in @d (which may be NULL).
 */
#ifndef KDUMP_FILE_VMCORE_INTERNAL_H
#define KDUMP_FILE_VMCORE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <libkdumpfile/kdumpfile.h>

#include "diag.h"
#include "vmcore.h"

/* Kernel notes are a few KiB; 64 MiB would be 100000+ CPUs. */
#define NOTES_MAX (64ULL << 20)

struct vmcore {
	int fd;
	kdump_ctx_t *ctx;
	uint64_t file_size;
	bool is_elf;
	bool xen;
	uint64_t dd_desc_off;	/* kdump: file offset of the page descriptors */
	uint32_t dd_block_size;
	/* kdump: pages from here on have bad descriptors and are not read */
	uint64_t bad_from;
	struct diag bad;	/* why, when bad_from is not UINT64_MAX */
	struct vmcore_segment *segs;
	size_t n_segs;
};

/* Does [off, off + len) lie inside the file? Overflow-safe. */
static inline bool vmcore_in_file(const struct vmcore *v, uint64_t off,
				  uint64_t len)
{
	return off <= v->file_size && len <= v->file_size - off;
}

/* vmcore.c */
/* @len bytes at @off, all of them: a short file is -EBADMSG, "truncated". */
int vmcore_pread(struct vmcore *v, void *buf, size_t len, uint64_t off,
		 const char *what, struct diag *d);
/* libkdumpfile's status as a negative errno. */
int vmcore_kdump_errno(kdump_status st);
/* A libkdumpfile failure: "WHAT: libkdumpfile's reason". */
int vmcore_kdump_fail(struct vmcore *v, kdump_status st, const char *what,
		      struct diag *d);

/* vmcore-elf.c */
/*
 * The headers and notes of an ELF core, checked before libkdumpfile reads
 * them; its PT_LOADs kept in v->segs.
 */
int vmcore_check_elf(struct vmcore *v, struct diag *d);
/* VMCOREINFO (@size bytes at @p, from @where) is text libkdumpfile takes. */
int vmcore_check_vmcoreinfo_text(const uint8_t *p, uint64_t size,
				 const char *where, struct diag *d);
/*
 * The ELF notes at @p, walked: the CPUs' counted into *n_prstatus and
 * VMCOREINFO checked (*has_vmcoreinfo set when there is one).
 */
int vmcore_check_notes(const char *where, const uint8_t *p, uint64_t size,
		       unsigned int *n_prstatus, bool *has_vmcoreinfo,
		       struct diag *d);

/* vmcore-diskdump.c */
/* makedumpfile's kdump header and sub-header, checked. */
int vmcore_check_diskdump(struct vmcore *v, struct diag *d);
/* The page descriptors: the first bad one sets v->bad_from and v->bad. */
int vmcore_scan_page_descs(struct vmcore *v, struct diag *d);

/* vmcore-memory.c */
/* log2 of the dump's page size, 10 to 30. */
int vmcore_page_shift(struct vmcore *v, unsigned int *ret, struct diag *d);

#endif
