// SPDX-License-Identifier: GPL-2.0
/*
 * vmcore: makedumpfile's compressed "kdump" (diskdump) files, their headers
 * and page descriptors checked before libkdumpfile trusts them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "vmcore-internal.h"

/*
 * The fields of makedumpfile's x86_64 kdump header that size things
 * (makedumpfile's diskdump_mod.h: struct disk_dump_header and struct
 * kdump_sub_header, 64-bit layout). libkdumpfile 0.5.1 trusts them: a
 * 1 KiB file whose bitmap_blocks claims gigabytes made it allocate 2 GiB
 * before failing (found by fuzzing). Only bounds are checked here; the
 * format itself is libkdumpfile's business.
 */
#define DH_MACHINE_OFF		(8 + 4 + 4 * 65)
#define DH_VERSION_OFF		8
#define DH_BLOCK_SIZE_OFF	428
#define DH_SUB_HDR_SIZE_OFF	432
#define DH_BITMAP_BLOCKS_OFF	436
#define DH_SIZE			448
#define SUB_VMCOREINFO_OFF	32	/* offset, size: header_version >= 3 */
#define SUB_NOTE_OFF		48	/* offset, size: header_version >= 4 */
#define SUB_ERASEINFO_OFF	64	/* offset, size: header_version >= 5 */

enum blob_kind { BLOB_VMCOREINFO, BLOB_NOTES, BLOB_OTHER };

static int check_blob(struct vmcore *v, const uint8_t *sub, size_t at,
		      const char *what, enum blob_kind kind, struct diag *d)
{
	unsigned int n_prstatus = 0;
	bool has_vmcoreinfo = false;
	uint64_t off, size;
	uint8_t *buf;
	int r;

	memcpy(&off, sub + at, 8);
	memcpy(&size, sub + at + 8, 8);
	if (size == 0)
		return 0;
	if (size > NOTES_MAX || !vmcore_in_file(v, off, size))
		return diag_fail(d, -EBADMSG,
				 "corrupt kdump sub-header: %s (%" PRIu64
				 " bytes at offset %#" PRIx64 ") is not inside "
				 "the file (%" PRIu64 " bytes)", what, size,
				 off, v->file_size);
	if (kind == BLOB_OTHER)
		return 0;
	buf = malloc(size);
	if (!buf)
		return diag_fail(d, -ENOMEM, "out of memory for %s", what);
	r = vmcore_pread(v, buf, size, off, what, d);
	if (r >= 0 && kind == BLOB_VMCOREINFO)
		r = vmcore_check_vmcoreinfo_text(buf, size, "the kdump header",
						 d);
	else if (r >= 0)
		r = vmcore_check_notes("the kdump ELF notes", buf, size,
				       &n_prstatus, &has_vmcoreinfo, d);
	free(buf);
	return r;
}

int vmcore_check_diskdump(struct vmcore *v, struct diag *d)
{
	uint8_t h[DH_SIZE], sub[96];
	int32_t version, block_size, sub_hdr_size;
	uint32_t bitmap_blocks;
	char machine[66] = "";
	uint64_t need;
	int r;

	if (v->file_size < sizeof(h))
		return diag_fail(d, -EBADMSG,
				 "truncated: kdump header needs %zu bytes but "
				 "the file has %" PRIu64, sizeof(h),
				 v->file_size);
	r = vmcore_pread(v, h, sizeof(h), 0, "kdump header", d);
	if (r < 0)
		return r;
	memcpy(machine, h + DH_MACHINE_OFF, 65);
	if (strcmp(machine, "x86_64"))
		return diag_fail(d, -ENOTSUP,
				 "kdump file is for machine '%.65s'; only "
				 "x86_64 is supported", machine);
	memcpy(&version, h + DH_VERSION_OFF, 4);
	memcpy(&block_size, h + DH_BLOCK_SIZE_OFF, 4);
	memcpy(&sub_hdr_size, h + DH_SUB_HDR_SIZE_OFF, 4);
	memcpy(&bitmap_blocks, h + DH_BITMAP_BLOCKS_OFF, 4);
	/* makedumpfile's block is the page, 4 KiB on x86_64 */
	if (block_size != 4096)
		return diag_fail(d, -EBADMSG,
				 "corrupt kdump header: block size %d, "
				 "expected 4096", block_size);
	if (sub_hdr_size < 0 || version < 0)
		return diag_fail(d, -EBADMSG,
				 "corrupt kdump header: version %d, sub-header "
				 "size %d", version, sub_hdr_size);
	/* header block, sub-header blocks, both bitmaps: all in the file */
	need = (1 + (uint64_t)sub_hdr_size + bitmap_blocks) * block_size;
	v->dd_desc_off = need;
	v->dd_block_size = block_size;
	if (need > v->file_size)
		return diag_fail(d, -EBADMSG,
				 "truncated: kdump headers and page bitmaps "
				 "need %" PRIu64 " bytes but the file has %"
				 PRIu64, need, v->file_size);
	if (version < 3)
		return 0;
	r = vmcore_pread(v, sub, sizeof(sub), block_size, "kdump sub-header",
			 d);
	if (r < 0)
		return r;
	r = check_blob(v, sub, SUB_VMCOREINFO_OFF, "VMCOREINFO",
		       BLOB_VMCOREINFO, d);
	if (r >= 0 && version >= 4)
		r = check_blob(v, sub, SUB_NOTE_OFF, "ELF notes", BLOB_NOTES,
			       d);
	if (r >= 0 && version >= 5)
		r = check_blob(v, sub, SUB_ERASEINFO_OFF, "erase info",
			       BLOB_OTHER, d);
	return r;
}

/*
 * Each dumped page of a kdump file has a descriptor (struct page_desc: u64
 * offset, u32 size, u32 flags, u64 page_flags) right after the bitmaps, in
 * the order of the page frame numbers. libkdumpfile 0.5.1 trusts them:
 *  - a short read is filled up with zeroes (fcache.c), so a file cut off in
 *    its page data reads back as zero pages instead of failing;
 *  - a compressed size between the page size and 256 KiB overflows its
 *    page-sized buffer for compressed data (diskdump.c, found by fuzzing).
 * makedumpfile stores a page compressed only if that makes it smaller, so
 * every size is at most the block size. The descriptors are checked once
 * at open; the first bad one and every later page are never read.
 */
#define PAGE_DESC_SIZE 24

/*
 * The page of rank @rank in the map of dumped pages (@r, @n) and every
 * later one are not read, for the reason given; a later call, for an
 * earlier page, replaces an earlier one.
 */
__attribute__((format(printf, 6, 7)))
static void mark_bad(struct vmcore *v, const struct vmcore_range *r, size_t n,
		     uint64_t rank, unsigned int shift, const char *fmt, ...)
{
	va_list ap;
	size_t i;

	diag_clear(&v->bad);
	va_start(ap, fmt);
	(void)diag_failv(&v->bad, -EBADMSG, fmt, ap);
	va_end(ap);
	/* the page with this rank in the map of dumped pages */
	for (i = 0; i < n; i++) {
		uint64_t pages = (r[i].end - r[i].start) >> shift;

		if (rank < pages) {
			v->bad_from = r[i].start + (rank << shift);
			return;
		}
		rank -= pages;
	}
	v->bad_from = 0;
}

int vmcore_scan_page_descs(struct vmcore *v, struct diag *d)
{
	uint8_t buf[PAGE_DESC_SIZE * 512];
	struct vmcore_range *r;
	uint64_t i = 0, n_pages, end;
	unsigned int shift;
	size_t n;
	int k;

	k = vmcore_page_shift(v, &shift, d);
	if (k >= 0)
		k = vmcore_get_ranges(v, VMCORE_MAP_DUMPED, &r, &n, &n_pages,
				      d);
	if (k < 0)
		return k;
	end = v->dd_desc_off + n_pages * PAGE_DESC_SIZE;
	if (n_pages > v->file_size / PAGE_DESC_SIZE || end > v->file_size) {
		/* the descriptors that are there can still be checked */
		n_pages = v->file_size > v->dd_desc_off ?
			  (v->file_size - v->dd_desc_off) / PAGE_DESC_SIZE : 0;
		mark_bad(v, r, n, n_pages, shift,
			 "truncated: the page descriptors end at offset %#"
			 PRIx64 " but the file has %" PRIu64 " bytes; the "
			 "dump is incomplete", end, v->file_size);
	}
	while (i < n_pages) {
		size_t m = n_pages - i < 512 ? n_pages - i : 512, j;

		k = vmcore_pread(v, buf, m * PAGE_DESC_SIZE,
				 v->dd_desc_off + i * PAGE_DESC_SIZE,
				 "page descriptors", d);
		if (k < 0)
			break;
		for (j = 0; j < m; j++, i++) {
			uint64_t off;
			uint32_t size;

			memcpy(&off, buf + j * PAGE_DESC_SIZE, 8);
			memcpy(&size, buf + j * PAGE_DESC_SIZE + 8, 4);
			if (size && size <= v->dd_block_size &&
			    vmcore_in_file(v, off, size))
				continue;
			mark_bad(v, r, n, i, shift,
				 "truncated or corrupt: dumped page %" PRIu64
				 " has %u bytes at offset %#" PRIx64 ", not "
				 "inside the file (%" PRIu64 " bytes); the "
				 "dump is incomplete", i + 1, size, off,
				 v->file_size);
			goto out;
		}
	}
out:
	free(r);
	return k < 0 ? k : 0;
}
