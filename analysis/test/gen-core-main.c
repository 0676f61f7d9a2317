// SPDX-License-Identifier: GPL-2.0
/*
 * gen-core: write a generated ELF core for the command-line tests.
 *   gen-core OUT [--cpus N] [--no-vmcoreinfo] [--release R] [--utsname]
 *                [--kdump]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen-core.h"

int main(int argc, char *argv[])
{
	struct gen_core_params p;
	int diskdump = 0;
	char vi[1024];
	uint8_t *buf;
	size_t len;
	FILE *f;
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: gen-core OUT [--cpus N] "
			"[--no-vmcoreinfo] [--release R] [--utsname] [--kdump]\n");
		return 2;
	}
	gen_core_default_params(&p);
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--cpus") && i + 1 < argc) {
			p.n_cpus = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--utsname")) {
			/* a third load holding init_uts_ns, for makedumpfile */
			p.loads[p.n_loads].paddr = GEN_CORE_PGT_PADDR;
			p.loads[p.n_loads].size = (GEN_CORE_UTS_PADDR &
				~0xfffULL) + 0x1000 - GEN_CORE_PGT_PADDR;
			/* kernel text mapping, __START_KERNEL_map + paddr */
			p.loads[p.n_loads].vaddr = 0xffffffff80000000ULL +
						   p.loads[p.n_loads].paddr;
			p.n_loads++;
			p.utsname = 1;
		} else if (!strcmp(argv[i], "--kdump")) {
			diskdump = 1;
		} else if (!strcmp(argv[i], "--no-vmcoreinfo")) {
			p.vmcoreinfo = NULL;
		} else if (!strcmp(argv[i], "--release") && i + 1 < argc) {
			/* replace the first line, OSRELEASE=... */
			snprintf(vi, sizeof(vi), "OSRELEASE=%s\n%s", argv[++i],
				 strchr(gen_core_default_vmcoreinfo, '\n') + 1);
			p.vmcoreinfo = vi;
		} else {
			fprintf(stderr, "gen-core: bad argument '%s'\n",
				argv[i]);
			return 2;
		}
	}
	if ((diskdump ? gen_diskdump(&p, &buf, &len) :
			gen_core(&p, &buf, &len, NULL)) < 0) {
		fprintf(stderr, "gen-core: invalid parameters\n");
		return 1;
	}
	f = fopen(argv[1], "w");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	free(buf);
	return 0;
}
