/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gen-core: build small ELF64 x86_64 kernel cores in memory, laid out like
 * /proc/vmcore (fs/proc/vmcore.c): one PT_NOTE holding the per-CPU
 * NT_PRSTATUS notes ("CORE") and the VMCOREINFO note, then PT_LOADs whose
 * p_paddr is the physical address and whose content is a known pattern.
 */
#ifndef KDUMP_FILE_GEN_CORE_H
#define KDUMP_FILE_GEN_CORE_H

#include <stddef.h>
#include <stdint.h>

#define GEN_CORE_MAX_LOADS 8
#define GEN_CORE_MAX_CPUS 8

struct gen_core_load {
	uint64_t paddr;
	uint64_t size;
	uint64_t vaddr;		/* 0: the direct map, 0xffff888000000000 + paddr */
};

struct gen_core_params {
	unsigned int n_cpus;
	unsigned int n_loads;
	struct gen_core_load loads[GEN_CORE_MAX_LOADS];
	const char *vmcoreinfo;		/* NULL: no VMCOREINFO note */
	/*
	 * Put a struct new_utsname at the physical address of the default
	 * VMCOREINFO's init_uts_ns (needs a load covering it), so that
	 * makedumpfile accepts the core.
	 */
	int utsname;
};

#define GEN_CORE_UTS_PADDR 0x2a1a3a0ULL
/*
 * init_top_pgt and the tables under it, mapping the kernel text with a
 * 2 MiB page; the load from GEN_CORE_PGT_PADDR to the utsname page.
 */
#define GEN_CORE_PGT_PADDR 0x2a17000ULL

/* Where things landed, so tests can corrupt them on purpose. */
struct gen_core_layout {
	size_t phoff;
	size_t note_off;		/* file offset of the PT_NOTE data */
	size_t note_size;
	size_t vmcoreinfo_note_off;	/* offset of the VMCOREINFO Elf64_Nhdr */
	size_t load_off[GEN_CORE_MAX_LOADS];
};

/* The byte expected at physical address @paddr in a generated core. */
static inline uint8_t gen_core_byte(uint64_t paddr)
{
	return (uint8_t)((paddr * 131) ^ (paddr >> 8) ^ (paddr >> 16));
}

/* Register values stored in CPU @cpu's NT_PRSTATUS. */
#define GEN_CORE_RIP(cpu) (0xffffffff81234560ULL + (cpu) * 0x10)
#define GEN_CORE_RSP(cpu) (0xffffc90000013f00ULL + (cpu) * 0x1000)
#define GEN_CORE_PID(cpu) (100 + (cpu))

extern const char gen_core_default_vmcoreinfo[];

void gen_core_default_params(struct gen_core_params *p);

/*
 * Build a core; returns 0 and a malloc()ed buffer in *ret_buf / *ret_size,
 * or -ENOMEM / -EINVAL.
 */
int gen_core(const struct gen_core_params *p, uint8_t **ret_buf,
	     size_t *ret_size, struct gen_core_layout *ret_layout);

/*
 * The same memory, registers and VMCOREINFO as makedumpfile's compressed
 * "kdump" format (header version 6, 4 KiB blocks, pages stored
 * uncompressed), as its IMPLEMENTATION file describes it. Loads must be
 * page-aligned. Returns 0, -ENOMEM or -EINVAL.
 */
int gen_diskdump(const struct gen_core_params *p, uint8_t **ret_buf,
		 size_t *ret_size);

#endif
