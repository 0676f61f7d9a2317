// SPDX-License-Identifier: GPL-2.0
/*
 * kdump_file_lowmark: a test module of kdump-file's QEMU scenarios.  Loading
 * it writes a random 16-byte marker into a page of low memory that the
 * running kernel no longer uses and prints
 *
 *   kdump_file_lowmark: marker <32 hex digits> at 0x<physical address>
 *
 * so that a scenario can crash the machine and look for the marker at that
 * physical address in the vmcore (test/TEST-16-BACKUP).  Never load it on a
 * machine you care about.
 *
 * The page: x86 reserves the whole low 1M at boot (reserve_real_mode() in
 * arch/x86/realmode/init.c, "always reserve the first 1M" in
 * arch/x86/kernel/setup.c), so nothing allocates it.  Below it only the
 * real-mode trampoline, which memblock places at the top of the free low
 * memory (just under the EBDA), stays in use after boot; the firmware and
 * the boot loader's setup code at 0x10000-0x2ffff are done with.  0x50000 is
 * far from both.
 */
#include <linux/init.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/random.h>

#define LOWMARK_MIN	0x1000UL
#define LOWMARK_MAX	0x9f000UL

static unsigned long phys = 0x50000;
module_param(phys, ulong, 0444);
MODULE_PARM_DESC(phys, "page to mark, page aligned, in [0x1000, 0x9f000)");

static int __init kdump_file_lowmark_init(void)
{
	unsigned long pfn = PHYS_PFN(phys);
	u8 marker[16];

	if (!PAGE_ALIGNED(phys) || phys < LOWMARK_MIN || phys >= LOWMARK_MAX) {
		pr_err("kdump_file_lowmark: 0x%lx is not a page in [0x%lx, 0x%lx)\n",
		       phys, LOWMARK_MIN, LOWMARK_MAX);
		return -EINVAL;
	}
	/* A page the allocator could hand out would not stay as written. */
	if (!pfn_valid(pfn) || !PageReserved(pfn_to_page(pfn))) {
		pr_err("kdump_file_lowmark: page 0x%lx is not reserved RAM\n",
		       phys);
		return -EINVAL;
	}

	get_random_bytes(marker, sizeof(marker));
	/* The low 1M is always in the kernel's direct map. */
	memcpy(phys_to_virt(phys), marker, sizeof(marker));
	pr_info("kdump_file_lowmark: marker %*phN at 0x%lx\n",
		(int)sizeof(marker), marker, phys);
	return 0;
}
module_init(kdump_file_lowmark_init);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kdump-file test: a marker in low memory");
