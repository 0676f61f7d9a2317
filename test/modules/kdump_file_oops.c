// SPDX-License-Identifier: GPL-2.0
/*
 * kdump_file_oops: a test module of kdump-file's QEMU scenarios.  Loading it
 * reads through a NULL pointer in kdump_file_test_oops(), an oops with a
 * known function on the stack; with kernel.panic_on_oops = 1 the kernel
 * then panics ("Fatal exception") and the capture kernel saves the dump.
 * Never load it on a machine you care about.
 */
#include <linux/init.h>
#include <linux/module.h>

/* Not static: the compiler must not assume it stays NULL. */
int *kdump_file_oops_target;

static noinline int kdump_file_test_oops(void)
{
	return READ_ONCE(*kdump_file_oops_target);
}

static int __init kdump_file_oops_init(void)
{
	pr_info("kdump_file_oops: reading through a NULL pointer\n");
	return kdump_file_test_oops();
}
module_init(kdump_file_oops_init);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kdump-file test: oops when loaded");
