// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: arbitrary bytes through vmcore open, validate, info,
 * registers, memory maps and physical reads. libkdumpfile takes a file
 * descriptor, so each input is written to a memfd.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vmcore.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* @d emptied: each call's failure message is formatted, and so fuzzed. */
static struct diag *fresh(struct diag *d)
{
	diag_clear(d);
	return d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	struct diag d = DIAG_INIT;
	struct vmcore_range *r;
	struct vmcore_info in;
	struct vmcore_cpu cpu;
	struct vmcore *v;
	uint8_t buf[4096];
	uint64_t at;
	size_t n, i;
	char *s;

	if (fd < 0)
		fd = memfd_create("fuzz-vmcore", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, 0) < 0 ||
	    (size && pwrite(fd, data, size, 0) != (ssize_t)size))
		abort();

	if (vmcore_open_fd(fd, &v, &d) < 0)
		return 0;
	(void)vmcore_validate(v, fresh(&d));
	(void)vmcore_get_info(v, &in);
	for (i = 0; i < in.n_cpus && i < 64; i++)
		(void)vmcore_get_cpu(v, i, &cpu, fresh(&d));
	if (vmcore_vmcoreinfo(v, "SYMBOL(init_uts_ns)", &s, fresh(&d)) >= 0)
		free(s);
	/*
	 * libkdumpfile 0.5.1 leaks the memory map of every kdump file whose
	 * memory.pagemap is read (test/lsan.supp); over a fuzzing run that
	 * adds up to gigabytes, so it is read here for ELF dumps only.
	 */
	if (!strcmp(in.format, "elf") &&
	    vmcore_get_ranges(v, VMCORE_MAP_RAM, &r, &n, NULL,
			      fresh(&d)) >= 0) {
		for (i = 0; i < n && i < 4; i++)
			(void)vmcore_read_phys(v, r[i].start, buf, sizeof(buf),
					       NULL, fresh(&d));
		free(r);
	}
	if (vmcore_get_ranges(v, VMCORE_MAP_DUMPED, &r, &n, NULL,
			      fresh(&d)) >= 0) {
		for (i = 0; i < n && i < 4; i++)
			(void)vmcore_read_phys(v, r[i].end - 1, buf, 1, NULL,
					       fresh(&d));
		free(r);
	}
	(void)vmcore_find_in_range(v, VMCORE_MAP_DUMPED, 0x1000, 0x200000,
				   &at, fresh(&d));
	(void)vmcore_read_phys(v, 0x100ff0, buf, 64, NULL, fresh(&d));
	vmcore_free(v);
	return 0;
}
