// SPDX-License-Identifier: GPL-2.0
/*
 * kdump_file_himark: a test module of kdump-file's QEMU scenarios.  Loading
 * it allocates pages until one lies at or above the physical address
 * min_phys, writes a random 16-byte marker at its start, keeps it, and
 * prints
 *
 *   kdump_file_himark: marker <32 hex digits> at 0x<physical address>
 *
 * so that a scenario can crash the machine and look for the marker at that
 * physical address in the vmcore (test/TEST-29-HOTPLUG: memory hot-added
 * after the capture kernel was loaded is in the dump).  Never load it on a
 * machine you care about.
 *
 * Why allocating finds the new memory: QEMU places hot-added DIMMs at or
 * above 4 GiB (the device memory region of the pc machine follows the RAM
 * above 4G).  Memory onlined there without a zone named goes to ZONE_NORMAL
 * (zone_for_pfn_range() in mm/memory_hotplug.c), and in a guest whose boot
 * RAM all lies below 4 GiB that is the only ZONE_NORMAL memory.  A
 * GFP_KERNEL allocation tries ZONE_NORMAL before ZONE_DMA32, so the first
 * page usually comes from the DIMM; the pages below min_phys met on the way
 * are given back.
 */
#include <linux/gfp.h>
#include <linux/init.h>
#include <linux/io.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/string.h>

static unsigned long min_phys;
module_param(min_phys, ulong, 0444);
MODULE_PARM_DESC(min_phys, "lowest physical address for the marker (required)");

static unsigned int max_tries = 65536;
module_param(max_tries, uint, 0444);
MODULE_PARM_DESC(max_tries, "pages to allocate at most before giving up (default 65536)");

static struct page *marked;

static int __init kdump_file_himark_init(void)
{
	LIST_HEAD(below);
	struct page *page, *next;
	unsigned int tries;
	u8 marker[16];

	if (!min_phys) {
		pr_err("kdump_file_himark: min_phys not given (e.g. min_phys=0x100000000)\n");
		return -EINVAL;
	}

	for (tries = 0; tries < max_tries; tries++) {
		page = alloc_page(GFP_KERNEL | __GFP_NOWARN);
		if (!page)
			break;
		if (page_to_phys(page) >= min_phys) {
			marked = page;
			break;
		}
		list_add(&page->lru, &below);
	}
	list_for_each_entry_safe(page, next, &below, lru) {
		list_del(&page->lru);
		__free_page(page);
	}
	if (!marked) {
		pr_err("kdump_file_himark: no page at or above 0x%lx in %u allocations: is the memory there online?\n",
		       min_phys, tries);
		return -ENOMEM;
	}

	get_random_bytes(marker, sizeof(marker));
	/* x86_64 maps all RAM, hot-added too, in the direct map. */
	memcpy(page_address(marked), marker, sizeof(marker));
	pr_info("kdump_file_himark: marker %*phN at 0x%llx after %u allocations\n",
		(int)sizeof(marker), marker,
		(unsigned long long)page_to_phys(marked), tries + 1);
	return 0;
}
module_init(kdump_file_himark_init);

static void __exit kdump_file_himark_exit(void)
{
	__free_page(marked);
}
module_exit(kdump_file_himark_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kdump-file test: a marker in memory above a physical address");
