// SPDX-License-Identifier: GPL-2.0
/*
 * gen-core: small synthetic kernel cores for the tests and the fuzzer's
 * seed corpus. The layout follows what fs/proc/vmcore.c exports: ELF64,
 * ET_CORE, EM_X86_64, a single merged PT_NOTE first, then the PT_LOADs.
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gen-core.h"

const char gen_core_default_vmcoreinfo[] =
	"OSRELEASE=6.1.0-gen\n"
	"BUILD-ID=0123456789abcdef0123456789abcdef01234567\n"
	"PAGESIZE=4096\n"
	"SYMBOL(init_uts_ns)=ffffffff82a1a3a0\n"
	"OFFSET(uts_namespace.name)=0\n"
	"SYMBOL(_stext)=ffffffff81000000\n"
	"SYMBOL(init_top_pgt)=ffffffff82a17000\n"
	"NUMBER(phys_base)=0\n"
	"KERNELOFFSET=0\n"
	"CRASHTIME=1700000000\n";

/* struct elf_prstatus of x86_64 (include/linux/elfcore.h): 336 bytes. */
#define PRSTATUS_SIZE 336
#define PRSTATUS_PID_OFF 32
#define PRSTATUS_REG_OFF 112
#define REG_RIP 16
#define REG_RSP 19

void gen_core_default_params(struct gen_core_params *p)
{
	memset(p, 0, sizeof(*p));
	p->n_cpus = 2;
	p->n_loads = 2;
	p->loads[0].paddr = 0x100000;
	p->loads[0].size = 0x2000;
	p->loads[1].paddr = 0x1000000;
	p->loads[1].size = 0x1000;
	p->vmcoreinfo = gen_core_default_vmcoreinfo;
}

static size_t align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

static size_t note_size(size_t namesz, size_t descsz)
{
	return sizeof(Elf64_Nhdr) + align4(namesz) + align4(descsz);
}

static uint8_t *put_note(uint8_t *p, const char *name, uint32_t type,
			 const void *desc, size_t descsz)
{
	Elf64_Nhdr nh = {
		.n_namesz = strlen(name) + 1,
		.n_descsz = descsz,
		.n_type = type,
	};

	memcpy(p, &nh, sizeof(nh));
	p += sizeof(nh);
	memcpy(p, name, nh.n_namesz);
	p += align4(nh.n_namesz);
	memcpy(p, desc, descsz);
	return p + align4(descsz);
}

int gen_core(const struct gen_core_params *prm, uint8_t **ret_buf,
	     size_t *ret_size, struct gen_core_layout *ret_layout)
{
	struct gen_core_layout lay = { 0 };
	size_t vi_len = prm->vmcoreinfo ? strlen(prm->vmcoreinfo) : 0;
	size_t nphdr = 1 + prm->n_loads, off, total;
	Elf64_Ehdr *eh;
	Elf64_Phdr *ph;
	uint8_t *buf, *p;
	unsigned int i;

	if (prm->n_loads > GEN_CORE_MAX_LOADS || prm->n_cpus > GEN_CORE_MAX_CPUS)
		return -EINVAL;

	lay.phoff = sizeof(Elf64_Ehdr);
	lay.note_off = lay.phoff + nphdr * sizeof(Elf64_Phdr);
	lay.note_size = prm->n_cpus * note_size(sizeof("CORE"), PRSTATUS_SIZE);
	if (prm->vmcoreinfo)
		lay.note_size += note_size(sizeof("VMCOREINFO"), vi_len);
	off = (lay.note_off + lay.note_size + 4095) & ~(size_t)4095;
	for (i = 0; i < prm->n_loads; i++) {
		lay.load_off[i] = off;
		off += prm->loads[i].size;
	}
	total = off;

	buf = calloc(1, total);
	if (!buf)
		return -ENOMEM;

	eh = (Elf64_Ehdr *)buf;
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_CORE;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_phoff = lay.phoff;
	eh->e_ehsize = sizeof(Elf64_Ehdr);
	eh->e_phentsize = sizeof(Elf64_Phdr);
	eh->e_phnum = nphdr;

	ph = (Elf64_Phdr *)(buf + lay.phoff);
	ph[0].p_type = PT_NOTE;
	ph[0].p_offset = lay.note_off;
	ph[0].p_filesz = lay.note_size;
	ph[0].p_memsz = lay.note_size;
	for (i = 0; i < prm->n_loads; i++) {
		Elf64_Phdr *l = &ph[1 + i];
		uint64_t a;

		l->p_type = PT_LOAD;
		l->p_flags = PF_R | PF_W | PF_X;
		l->p_offset = lay.load_off[i];
		l->p_paddr = prm->loads[i].paddr;
		l->p_vaddr = prm->loads[i].vaddr ? prm->loads[i].vaddr :
			     0xffff888000000000ULL + prm->loads[i].paddr;
		l->p_filesz = prm->loads[i].size;
		l->p_memsz = prm->loads[i].size;
		for (a = 0; a < prm->loads[i].size; a++)
			buf[lay.load_off[i] + a] =
				gen_core_byte(prm->loads[i].paddr + a);
	}

	for (i = 0; prm->utsname && i < prm->n_loads; i++) {
		const struct gen_core_load *l = &prm->loads[i];
		static const char *const uts[] = {
			"Linux", "gen", "6.1.0-gen", "#1 SMP", "x86_64", "",
		};
		uint8_t *u;
		unsigned int f;

		if (GEN_CORE_UTS_PADDR < l->paddr ||
		    GEN_CORE_UTS_PADDR + 6 * 65 > l->paddr + l->size)
			continue;
		u = buf + lay.load_off[i] + (GEN_CORE_UTS_PADDR - l->paddr);
		memset(u, 0, 6 * 65);
		for (f = 0; f < 6; f++)
			memcpy(u + 65 * f, uts[f], strlen(uts[f]));
		if (GEN_CORE_PGT_PADDR >= l->paddr &&
		    GEN_CORE_PGT_PADDR + 0x3000 <= l->paddr + l->size) {
			/*
			 * x86_64 4-level paging: PML4[511] -> PDPT,
			 * PDPT[510] -> PD, PD[n] = 2 MiB page n (PS bit), so
			 * __START_KERNEL_map + x maps to physical x.
			 */
			uint8_t *t = buf + lay.load_off[i] +
				     (GEN_CORE_PGT_PADDR - l->paddr);
			uint64_t e;

			memset(t, 0, 0x3000);
			e = (GEN_CORE_PGT_PADDR + 0x1000) | 0x63;
			memcpy(t + 511 * 8, &e, 8);
			e = (GEN_CORE_PGT_PADDR + 0x2000) | 0x63;
			memcpy(t + 0x1000 + 510 * 8, &e, 8);
			for (f = 0; f < 512; f++) {
				e = ((uint64_t)f << 21) | 0xe3;
				memcpy(t + 0x2000 + f * 8, &e, 8);
			}
		}
	}

	p = buf + lay.note_off;
	for (i = 0; i < prm->n_cpus; i++) {
		uint8_t st[PRSTATUS_SIZE] = { 0 };
		int32_t pid = GEN_CORE_PID(i);
		uint64_t rip = GEN_CORE_RIP(i), rsp = GEN_CORE_RSP(i);

		memcpy(st + PRSTATUS_PID_OFF, &pid, sizeof(pid));
		memcpy(st + PRSTATUS_REG_OFF + REG_RIP * 8, &rip, 8);
		memcpy(st + PRSTATUS_REG_OFF + REG_RSP * 8, &rsp, 8);
		p = put_note(p, "CORE", NT_PRSTATUS, st, sizeof(st));
	}
	if (prm->vmcoreinfo) {
		lay.vmcoreinfo_note_off = p - buf;
		p = put_note(p, "VMCOREINFO", 0, prm->vmcoreinfo, vi_len);
	}

	*ret_buf = buf;
	*ret_size = total;
	if (ret_layout)
		*ret_layout = lay;
	return 0;
}

/* struct disk_dump_header and struct kdump_sub_header, 64-bit layout */
#define DD_BLOCK 4096
#define DD_UTS_OFF 12
#define DD_TIME_OFF 408
#define DD_STATUS_OFF 424
#define DD_BLOCK_SIZE_OFF 428
#define DD_SUB_HDR_SIZE_OFF 432
#define DD_BITMAP_BLOCKS_OFF 436
#define DD_MAX_MAPNR_OFF 440
#define DD_NR_CPUS_OFF 460
#define SUB_SIZE 104
#define PAGE_DESC_SIZE 24

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

int gen_diskdump(const struct gen_core_params *prm, uint8_t **ret_buf,
		 size_t *ret_size)
{
	static const char *const uts[] = {
		"Linux", "gen", "6.1.0-gen", "#1 SMP", "x86_64", "",
	};
	struct gen_core_layout lay;
	uint64_t max_pfn = 0, n_pages = 0, pfn, desc_off, data_off, a;
	size_t elf_len, vi_len, total, bitmap_bytes, i, k;
	uint8_t *elf, *buf, *sub, *bm1, *bm2;
	int r;

	/* Build the ELF core first: its notes and page contents are reused. */
	r = gen_core(prm, &elf, &elf_len, &lay);
	if (r < 0)
		return r;
	for (i = 0; i < prm->n_loads; i++) {
		const struct gen_core_load *l = &prm->loads[i];

		if (l->paddr % DD_BLOCK || l->size % DD_BLOCK) {
			free(elf);
			return -EINVAL;
		}
		if ((l->paddr + l->size) / DD_BLOCK > max_pfn)
			max_pfn = (l->paddr + l->size) / DD_BLOCK;
		n_pages += l->size / DD_BLOCK;
	}
	vi_len = prm->vmcoreinfo ? strlen(prm->vmcoreinfo) : 0;
	bitmap_bytes = (max_pfn + 8 * DD_BLOCK - 1) / (8 * DD_BLOCK) * DD_BLOCK;
	if (SUB_SIZE + vi_len + lay.note_size > DD_BLOCK) {
		free(elf);
		return -EINVAL;
	}
	/* header, sub-header, 2 bitmaps, descriptors, data */
	desc_off = 2 * DD_BLOCK + 2 * bitmap_bytes;
	data_off = (desc_off + n_pages * PAGE_DESC_SIZE + DD_BLOCK - 1) /
		   DD_BLOCK * DD_BLOCK;
	total = data_off + n_pages * DD_BLOCK;
	buf = calloc(1, total);
	if (!buf) {
		free(elf);
		return -ENOMEM;
	}

	memcpy(buf, "KDUMP   ", 8);
	put32(buf + 8, 6);
	for (k = 0; k < 6; k++)
		memcpy(buf + DD_UTS_OFF + 65 * k, uts[k], strlen(uts[k]));
	put64(buf + DD_TIME_OFF, 1700000000);
	put32(buf + DD_STATUS_OFF, 0);
	put32(buf + DD_BLOCK_SIZE_OFF, DD_BLOCK);
	put32(buf + DD_SUB_HDR_SIZE_OFF, 1);
	put32(buf + DD_BITMAP_BLOCKS_OFF, 2 * bitmap_bytes / DD_BLOCK);
	put32(buf + DD_MAX_MAPNR_OFF, max_pfn);
	put32(buf + DD_NR_CPUS_OFF, prm->n_cpus);

	sub = buf + DD_BLOCK;
	put64(sub + 8, 31);				/* dump_level */
	if (vi_len) {
		put64(sub + 32, DD_BLOCK + SUB_SIZE);	/* offset_vmcoreinfo */
		put64(sub + 40, vi_len);
		memcpy(sub + SUB_SIZE, prm->vmcoreinfo, vi_len);
	}
	put64(sub + 48, DD_BLOCK + SUB_SIZE + vi_len);	/* offset_note */
	put64(sub + 56, lay.note_size);
	memcpy(sub + SUB_SIZE + vi_len, elf + lay.note_off, lay.note_size);
	put64(sub + 96, max_pfn);			/* max_mapnr_64 */

	bm1 = buf + 2 * DD_BLOCK;
	bm2 = bm1 + bitmap_bytes;
	k = 0;
	for (i = 0; i < prm->n_loads; i++) {
		const struct gen_core_load *l = &prm->loads[i];

		for (a = 0; a < l->size; a += DD_BLOCK, k++) {
			uint8_t *d = buf + desc_off + k * PAGE_DESC_SIZE;

			pfn = (l->paddr + a) / DD_BLOCK;
			bm1[pfn / 8] |= 1 << (pfn % 8);
			bm2[pfn / 8] |= 1 << (pfn % 8);
			put64(d, data_off + k * DD_BLOCK);	/* offset */
			put32(d + 8, DD_BLOCK);		/* size */
			put32(d + 12, 0);		/* flags: raw */
			memcpy(buf + data_off + k * DD_BLOCK,
			       elf + lay.load_off[i] + a, DD_BLOCK);
		}
	}
	free(elf);
	*ret_buf = buf;
	*ret_size = total;
	return 0;
}
