// SPDX-License-Identifier: GPL-2.0
/*
 * kdump_file_lowmark: a test module of kdump-file's QEMU scenarios.  Loading
 * it writes a random 16-byte marker at the start of each page of low memory
 * it is given (phys=0x50000 by default, up to four pages) and prints, for
 * each,
 *
 *   kdump_file_lowmark: marker <32 hex digits> at 0x<physical address>
 *
 * so that a scenario can crash the machine and look for the markers at
 * those physical addresses in the vmcore (test/TEST-16-BACKUP).  Never load
 * it on a machine you care about.
 *
 * The pages: x86 reserves the whole low 1M at boot (reserve_real_mode() in
 * arch/x86/realmode/init.c, "always reserve the first 1M" in
 * arch/x86/kernel/setup.c), so nothing allocates it.  Below it only the
 * real-mode trampoline, which memblock places at the top of the free low
 * memory (just under the EBDA), stays in use after boot; the firmware and
 * the boot loader's setup code at 0x10000-0x2ffff are done with.  0x50000 is
 * far from both.  The scenario also marks the first page of the trampoline,
 * where the capture kernel puts its own: the marker replaces the first 16
 * bytes of the running kernel's real_mode_header, which only starting a
 * CPU, resuming from suspend or a reboot through the BIOS read again, and
 * the scenario crashes the machine right after.
 */
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/vmalloc.h>

#define LOWMARK_MIN	0x1000UL
#define LOWMARK_MAX	0x9f000UL
#define LOWMARK_PAGES	4

static unsigned long phys[LOWMARK_PAGES] = { 0x50000 };
static unsigned int nr_phys = 1;
module_param_array(phys, ulong, &nr_phys, 0444);
MODULE_PARM_DESC(phys, "pages to mark, comma-separated, page aligned, in [0x1000, 0x9f000)");

/* A page the allocator could hand out would not stay as written. */
static int lowmark_check(unsigned long addr)
{
	unsigned long pfn = PHYS_PFN(addr);

	if (!PAGE_ALIGNED(addr) || addr < LOWMARK_MIN || addr >= LOWMARK_MAX) {
		pr_err("kdump_file_lowmark: 0x%lx is not a page in [0x%lx, 0x%lx)\n",
		       addr, LOWMARK_MIN, LOWMARK_MAX);
		return -EINVAL;
	}
	if (!pfn_valid(pfn) || !PageReserved(pfn_to_page(pfn))) {
		pr_err("kdump_file_lowmark: page 0x%lx is not reserved RAM\n",
		       addr);
		return -EINVAL;
	}
	return 0;
}

static int lowmark_write(unsigned long addr)
{
	struct page *page = pfn_to_page(PHYS_PFN(addr));
	u8 marker[16];
	void *va;

	/*
	 * Through a mapping of its own: set_real_mode_permissions()
	 * (arch/x86/realmode/init.c) makes the first pages of the trampoline
	 * read-only in the direct map.
	 */
	va = vmap(&page, 1, VM_MAP, PAGE_KERNEL);
	if (!va)
		return -ENOMEM;
	get_random_bytes(marker, sizeof(marker));
	memcpy(va, marker, sizeof(marker));
	vunmap(va);
	pr_info("kdump_file_lowmark: marker %*phN at 0x%lx\n",
		(int)sizeof(marker), marker, addr);
	return 0;
}

static int __init kdump_file_lowmark_init(void)
{
	unsigned int i;
	int ret;

	/* Every page checked before any is written. */
	for (i = 0; i < nr_phys; i++) {
		ret = lowmark_check(phys[i]);
		if (ret)
			return ret;
	}
	for (i = 0; i < nr_phys; i++) {
		ret = lowmark_write(phys[i]);
		if (ret)
			return ret;
	}
	return 0;
}
module_init(kdump_file_lowmark_init);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kdump-file test: markers in low memory");
