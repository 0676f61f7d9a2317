// SPDX-License-Identifier: GPL-2.0
/*
 * kdump_file_gart: a test module of kdump-file's QEMU scenarios
 * (TEST-12-GART).  QEMU has no AMD GART, so this stands in for one: it
 * allocates 2 MiB of physically contiguous RAM, fills it with a marker and
 * registers it in /proc/iomem as arch/x86/kernel/amd_gart_64.c registers a
 * GART aperture (kernel-patches/0009): named "GART", busy memory, with the
 * descriptor IORES_DESC_GART.  A crash kernel loaded after that must leave
 * the range out of its ELF core headers (kernel-patches/0010), so the
 * marker must not be in the dump.  Unloading it gives the memory back.
 */
#include <linux/gfp.h>
#include <linux/init.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/string.h>

#define KDUMP_FILE_GART_ORDER	9	/* 2 MiB */

/* 16 bytes, repeated over the whole range: no page of it is all zeros. */
static const char kdump_file_gart_marker[16] = "kdump-file GART\n";

static struct page *kdump_file_gart_pages;

static struct resource kdump_file_gart_res = {
	.name	= "GART",
	.flags	= IORESOURCE_MEM | IORESOURCE_BUSY,
	.desc	= IORES_DESC_GART,
};

static int __init kdump_file_gart_init(void)
{
	size_t size = PAGE_SIZE << KDUMP_FILE_GART_ORDER;
	char *p;
	size_t i;
	int ret;

	kdump_file_gart_pages = alloc_pages(GFP_KERNEL, KDUMP_FILE_GART_ORDER);
	if (!kdump_file_gart_pages)
		return -ENOMEM;

	/* Order 9 is below MAX_ORDER: the block is in the direct map. */
	p = page_address(kdump_file_gart_pages);
	for (i = 0; i < size; i += sizeof(kdump_file_gart_marker))
		memcpy(p + i, kdump_file_gart_marker,
		       sizeof(kdump_file_gart_marker));

	kdump_file_gart_res.start = page_to_phys(kdump_file_gart_pages);
	kdump_file_gart_res.end = kdump_file_gart_res.start + size - 1;
	/* Below the System RAM range it lies in, as the GART would be. */
	ret = insert_resource(&iomem_resource, &kdump_file_gart_res);
	if (ret) {
		pr_err("kdump_file_gart: cannot register %pR: %d\n",
		       &kdump_file_gart_res, ret);
		__free_pages(kdump_file_gart_pages, KDUMP_FILE_GART_ORDER);
		return ret;
	}

	pr_info("kdump_file_gart: registered GART test range %#llx-%#llx\n",
		(unsigned long long)kdump_file_gart_res.start,
		(unsigned long long)kdump_file_gart_res.end);
	return 0;
}
module_init(kdump_file_gart_init);

static void __exit kdump_file_gart_exit(void)
{
	remove_resource(&kdump_file_gart_res);
	__free_pages(kdump_file_gart_pages, KDUMP_FILE_GART_ORDER);
}
module_exit(kdump_file_gart_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kdump-file test: a GART-described range of RAM");
