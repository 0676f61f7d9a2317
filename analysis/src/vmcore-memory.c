// SPDX-License-Identifier: GPL-2.0
/*
 * vmcore: the dump's memory. Its page maps (the crashed system's RAM and
 * the pages in the file) through libkdumpfile, physical reads that stop at
 * the data a damaged file does not have, and whether the dump is complete.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "util.h"
#include "vmcore-internal.h"

/* Bitmap walks stop here; a real -d 31 dump has ~10^5 ranges. */
#define RANGES_MAX (1U << 21)

static int get_bitmap(struct vmcore *v, enum vmcore_map map,
		      kdump_bmp_t **ret, struct diag *d)
{
	const char *key = map == VMCORE_MAP_RAM ? KDUMP_ATTR_MEMORY_PAGEMAP :
						  KDUMP_ATTR_FILE_PAGEMAP;
	kdump_attr_t attr = { .type = KDUMP_BITMAP };
	kdump_status st;

	st = kdump_get_typed_attr(v->ctx, key, &attr);
	if (st != KDUMP_OK)
		return vmcore_kdump_fail(v, st, map == VMCORE_MAP_RAM ?
					 "cannot get the memory map" :
					 "cannot get the map of dumped pages",
					 d);
	kdump_bmp_incref(attr.val.bitmap);
	*ret = attr.val.bitmap;
	return 0;
}

int vmcore_page_shift(struct vmcore *v, unsigned int *ret, struct diag *d)
{
	kdump_num_t n;
	kdump_status st;

	st = kdump_get_number_attr(v->ctx, KDUMP_ATTR_PAGE_SHIFT, &n);
	if (st != KDUMP_OK)
		return vmcore_kdump_fail(v, st, "cannot get the page size", d);
	if (n < 10 || n > 30)
		return diag_fail(d, -EBADMSG,
				 "corrupt dump: page shift %" PRIu64,
				 (uint64_t)n);
	*ret = n;
	return 0;
}

static int bitmap_fail(kdump_bmp_t *bmp, kdump_status st, struct diag *d)
{
	return diag_fail(d, vmcore_kdump_errno(st),
			 "cannot walk the page map: %s",
			 kdump_bmp_get_err(bmp) ?: kdump_strerror(st));
}

/*
 * Next run of set bits at or after *pfn: [*ret_start, *ret_end). Returns 1,
 * or 0 when there is none.
 */
static int next_run(kdump_bmp_t *bmp, kdump_addr_t pfn,
		    kdump_addr_t *ret_start, kdump_addr_t *ret_end,
		    struct diag *d)
{
	kdump_addr_t start = pfn, end;
	kdump_status st;

	st = kdump_bmp_find_set(bmp, &start);
	if (st == KDUMP_ERR_NODATA)
		return 0;
	if (st != KDUMP_OK)
		return bitmap_fail(bmp, st, d);
	if (start < pfn)
		return diag_fail(d, -EBADMSG, "corrupt page map");
	end = start;
	st = kdump_bmp_find_clear(bmp, &end);
	if (st == KDUMP_ERR_NODATA)
		end = ~(kdump_addr_t)0;
	else if (st != KDUMP_OK)
		return bitmap_fail(bmp, st, d);
	if (end <= start)
		return diag_fail(d, -EBADMSG, "corrupt page map");
	*ret_start = start;
	*ret_end = end;
	return 1;
}

int vmcore_get_ranges(struct vmcore *v, enum vmcore_map map,
		      struct vmcore_range **ret, size_t *ret_n,
		      uint64_t *ret_pages, struct diag *d)
{
	struct vmcore_range *r = NULL;
	size_t n = 0, cap = 0;
	uint64_t pages = 0;
	kdump_addr_t pfn = 0, s, e;
	kdump_bmp_t *bmp;
	unsigned int shift;
	int k;

	k = vmcore_page_shift(v, &shift, d);
	if (k < 0)
		return k;
	k = get_bitmap(v, map, &bmp, d);
	if (k < 0)
		return k;
	for (;;) {
		k = next_run(bmp, pfn, &s, &e, d);
		if (k <= 0)
			break;
		if (n == RANGES_MAX) {
			k = diag_fail(d, -EBADMSG,
				      "page map has more than %u ranges",
				      RANGES_MAX);
			break;
		}
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			struct vmcore_range *t = realloc(r, ncap * sizeof(*r));

			if (!t) {
				k = diag_fail(d, -ENOMEM, "out of memory");
				break;
			}
			r = t;
			cap = ncap;
		}
		/* Clamp so that the byte addresses do not overflow. */
		if (s > UINT64_MAX >> shift)
			break;
		if (e > UINT64_MAX >> shift)
			e = UINT64_MAX >> shift;
		r[n].start = (uint64_t)s << shift;
		r[n].end = (uint64_t)e << shift;
		pages += e - s;
		n++;
		if (e == UINT64_MAX >> shift)
			break;
		pfn = e;
	}
	kdump_bmp_decref(bmp);
	if (k < 0) {
		free(r);
		return k;
	}
	*ret = r;
	*ret_n = n;
	if (ret_pages)
		*ret_pages = pages;
	return 0;
}

int vmcore_find_in_range(struct vmcore *v, enum vmcore_map map,
			 uint64_t start, uint64_t end, uint64_t *ret_addr,
			 struct diag *d)
{
	kdump_addr_t s, e;
	kdump_bmp_t *bmp;
	unsigned int shift;
	int k;

	if (start >= end)
		return diag_fail(d, -EINVAL, "empty range");
	k = vmcore_page_shift(v, &shift, d);
	if (k < 0)
		return k;
	k = get_bitmap(v, map, &bmp, d);
	if (k < 0)
		return k;
	k = next_run(bmp, start >> shift, &s, &e, d);
	kdump_bmp_decref(bmp);
	if (k <= 0)
		return k;
	if (s > (end - 1) >> shift)
		return 0;
	if (ret_addr)
		*ret_addr = s << shift > start ? s << shift : start;
	return 1;
}

/*
 * libkdumpfile fills a short read with zeroes: the part of a PT_LOAD whose
 * data lies past the end of a truncated file must not be read through it.
 * Returns 1 and the first such address in [addr, addr + len), or 0.
 */
static int elf_cut(const struct vmcore *v, uint64_t addr, size_t len,
		   uint64_t *ret)
{
	uint64_t best = UINT64_MAX, last = addr + (len - 1);
	size_t i;

	for (i = 0; i < v->n_segs; i++) {
		const struct vmcore_segment *s = &v->segs[i];
		uint64_t have, from, to;

		if (vmcore_in_file(v, s->offset, s->filesz))
			continue;
		have = v->file_size > s->offset ? v->file_size - s->offset : 0;
		from = s->paddr + have;
		to = s->paddr + s->filesz - 1;
		if (from > last || to < addr)
			continue;
		from = from > addr ? from : addr;
		if (from < best)
			best = from;
	}
	if (best == UINT64_MAX)
		return 0;
	*ret = best;
	return 1;
}

int vmcore_read_phys(struct vmcore *v, uint64_t addr, void *buf, size_t len,
		     size_t *ret_done, struct diag *d)
{
	size_t n = len;
	kdump_status st;
	uint64_t cut;
	int k;

	if (ret_done)
		*ret_done = 0;
	if (len == 0)
		return 0;
	if (len - 1 > UINT64_MAX - addr)
		return diag_fail(d, -EINVAL, "range %#" PRIx64 "+%zu wraps "
				 "around", addr, len);
	k = elf_cut(v, addr, len, &cut);
	if (k > 0) {
		/* the data that is there, then the error */
		if (cut > addr) {
			k = vmcore_read_phys(v, addr, buf, cut - addr,
					     ret_done, d);
			if (k < 0)
				return k;
		}
		return diag_fail(d, -EBADMSG,
				 "physical address %#" PRIx64 " is not read: "
				 "its data is past the end of the file (%"
				 PRIu64 " bytes); the dump is incomplete", cut,
				 v->file_size);
	}
	if (addr >= v->bad_from)
		return diag_fail(d, -EBADMSG,
				 "physical address %#" PRIx64 " is not read: "
				 "%s", addr, diag_text(&v->bad));
	if (len > v->bad_from - addr) {
		/* the part before the bad pages, then the error */
		k = vmcore_read_phys(v, addr, buf, v->bad_from - addr,
				     ret_done, d);
		if (k < 0)
			return k;
		return diag_fail(d, -EBADMSG,
				 "physical address %#" PRIx64 " is not read: "
				 "%s", v->bad_from, diag_text(&v->bad));
	}
	/*
	 * Without Xen, kernel physical and machine physical addresses are
	 * the same; reading the machine address directly needs no address
	 * translation, which libkdumpfile cannot set up for an ELF dump
	 * without VMCOREINFO.
	 */
	st = kdump_read(v->ctx, v->xen ? KDUMP_KPHYSADDR : KDUMP_MACHPHYSADDR,
			addr, buf, &n);
	if (ret_done)
		*ret_done = st == KDUMP_OK ? len : n;
	if (st == KDUMP_OK)
		return 0;
	if (st == KDUMP_ERR_NODATA)
		return diag_fail(d, -ENODATA,
				 "physical address %#" PRIx64 " is not in the "
				 "dump (not RAM, or a page excluded by "
				 "makedumpfile's filter)", addr + n);
	return vmcore_kdump_fail(v, st, "cannot read physical memory", d);
}

int vmcore_validate(struct vmcore *v, struct diag *d)
{
	_cleanup_free_ struct vmcore_range *r = NULL;
	struct diag why = DIAG_INIT;
	uint8_t byte;
	size_t i, n;
	int k;

	for (i = 0; i < v->n_segs; i++) {
		const struct vmcore_segment *s = &v->segs[i];

		if (!vmcore_in_file(v, s->offset, s->filesz))
			return diag_fail(d, -EBADMSG,
					 "truncated: memory segment %zu "
					 "(physical %#" PRIx64 "-%#" PRIx64
					 ") needs the file up to offset %#"
					 PRIx64 " but it has only %" PRIu64
					 " bytes; the dump is incomplete", i,
					 s->paddr, s->paddr + s->memsz - 1,
					 s->offset + s->filesz, v->file_size);
	}

	k = vmcore_get_ranges(v, VMCORE_MAP_DUMPED, &r, &n, NULL, d);
	if (k < 0)
		return k;
	if (n == 0)
		return diag_fail(d, -EBADMSG,
				 "the dump contains no memory pages");
	if (v->bad_from != UINT64_MAX)
		return diag_fail(d, -EBADMSG, "%s", diag_text(&v->bad));
	/*
	 * Page data is written in ascending order: if the last dumped page
	 * reads back, nothing was cut off the end.
	 */
	k = vmcore_read_phys(v, r[0].start, &byte, 1, NULL, &why);
	if (k >= 0)
		k = vmcore_read_phys(v, r[n - 1].end - 1, &byte, 1, NULL, &why);
	if (k < 0)
		return diag_fail(d, k == -ENODATA ? -EBADMSG : k,
				 "a page listed as dumped cannot be read, the "
				 "dump is truncated or corrupt: %s",
				 diag_text(&why));
	return 0;
}
