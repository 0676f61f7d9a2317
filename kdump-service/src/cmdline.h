/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDUMP_FILE_CMDLINE_H
#define KDUMP_FILE_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "conf.h"

/*
 * x86's COMMAND_LINE_SIZE is 2048 and the kernel prepends
 * "elfcorehdr=0x<addr>K " (arch/x86/kernel/kexec-bzimage64.c), and a
 * kernel that hands a dm-crypt volume key over "dmcryptkey=0x<addr> "
 * (kdump-file's kernel series), each up to 30 bytes, so the command line
 * we pass must leave room for both.
 */
#define CMDLINE_KERNEL_MAX 2048
#define CMDLINE_ELFCOREHDR_RESERVE 64

/*
 * Parameters a capture kernel always gets (before cmdline_append).  panic=10
 * and oops=panic: a capture kernel that oopses or panics restarts the
 * machine instead of sitting in a dead state.
 */
#define CMDLINE_CAPTURE_ADD                                                   \
	"irqpoll nr_cpus=1 reset_devices cgroup_disable=memory mce=off "     \
	"numa=off panic=10 oops=panic acpi_no_memhotplug "                    \
	"transparent_hugepage=never"

/*
 * Build the capture kernel's command line from the running one: drop the
 * parameters that must not reach a capture kernel and those named in
 * c->cmdline_remove, then add the capture parameters and c->cmdline_append.
 * cpus: the CPUs the capture kernel brings up, nr_cpus=cpus in place of
 * CMDLINE_CAPTURE_ADD's nr_cpus=1 (an nr_cpus= of cmdline_append comes
 * after it, and wins).  Returns the length, -E2BIG when the result leaves
 * no room for the elfcorehdr= the kernel adds, or -ENOBUFS when buf is
 * too small.
 */
int cmdline_build(const char *running, const struct kdump_conf *c,
		  unsigned int cpus, char *buf, size_t size);

/* nr_cpus=N of c->cmdline_append (its last), 0 when there is none. */
unsigned int cmdline_user_cpus(const struct kdump_conf *c);

/*
 * Append " tok" to the command line in buf. Returns 0, or -E2BIG when the
 * result leaves no room for the elfcorehdr= the kernel adds.
 */
int cmdline_add(char *buf, size_t size, const char *tok);

/*
 * Whether the parameter named name (len bytes) of the running command line
 * never reaches the capture kernel, whatever cmdline_remove says.
 */
bool cmdline_always_dropped(const char *name, size_t len);
/* Whether tok is one of CMDLINE_CAPTURE_ADD's parameters, value included. */
bool cmdline_capture_adds(const char *tok);

#endif
