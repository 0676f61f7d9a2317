// SPDX-License-Identifier: GPL-2.0
/*
 * vmcore: an ELF core's headers and notes, checked before libkdumpfile
 * reads them.
 *
 * The file may be cut short or damaged (a capture interrupted by a power
 * cut, a disk full), and libkdumpfile 0.5.1 trusts much of what it reads,
 * so the ELF header, the section and program header tables and the notes
 * must make sense here first; the PT_LOADs are kept for the layout report
 * and for reads of a truncated file. The notes' checks serve kdump files
 * too, which carry ELF notes and VMCOREINFO in their sub-header.
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "elfnote.h"
#include "util.h"
#include "vmcore-internal.h"

/*
 * VMCOREINFO is text, "KEY=VALUE" lines (kernel/crash_core.c); anything
 * but printable lines (and NUL padding at the end) is refused. libkdumpfile
 * 0.5.1 dies of SIGSEGV on a line that starts with '.' (".x" or "." alone:
 * an empty first component of an attribute path; found by fuzzing), so
 * such a line is refused too.
 */
int vmcore_check_vmcoreinfo_text(const uint8_t *p, uint64_t size,
				 const char *where, struct diag *d)
{
	uint64_t i, len = size;

	while (len && p[len - 1] == '\0')
		len--;
	for (i = 0; i < len; i++) {
		if (p[i] != '\n' && (p[i] < 0x20 || p[i] > 0x7e))
			return diag_fail(d, -EBADMSG,
					 "corrupt VMCOREINFO in %s: byte %#x "
					 "at offset %" PRIu64 " is not text",
					 where, p[i], i);
		if (i && p[i - 1] != '\n')
			continue;
		if (p[i] == '.')
			return diag_fail(d, -EBADMSG,
					 "corrupt VMCOREINFO in %s: the line "
					 "at offset %" PRIu64 " starts with "
					 "'.'", where, i);
		/*
		 * An empty or odd PAGESIZE made libkdumpfile 0.5.1 fail to
		 * size its buffers and then crash in kdump_free(), and a
		 * PAGESIZE line without '=' made it ask malloc() for 2^63
		 * bytes (both found by fuzzing); x86_64 pages are 4 KiB.
		 */
		if (len - i >= 8 && !memcmp(p + i, "PAGESIZE", 8) &&
		    (len - i < 13 || memcmp(p + i + 8, "=4096", 5) ||
		     (len - i > 13 && p[i + 13] != '\n')))
			return diag_fail(d, -EBADMSG,
					 "corrupt VMCOREINFO in %s: the "
					 "PAGESIZE line at offset %" PRIu64
					 " is not PAGESIZE=4096 (x86_64 pages "
					 "are 4 KiB)", where, i);
	}
	return 0;
}

struct note_count {
	const char *where;
	struct diag *d;
	unsigned int n_prstatus;
	bool has_vmcoreinfo;
	int error;	/* check_note()'s, told apart from the walk's */
};

static int check_note(const struct elf_note *n, void *userdata)
{
	struct note_count *c = userdata;
	int r;

	if (elf_note_is(n, "CORE") && n->type == NT_PRSTATUS)
		c->n_prstatus++;
	if (elf_note_is(n, "VMCOREINFO") || elf_note_is(n, "VMCOREINFO_XEN")) {
		r = vmcore_check_vmcoreinfo_text(n->desc, n->descsz, c->where,
						 c->d);
		if (r < 0)
			return c->error = r;
		c->has_vmcoreinfo = true;
	}
	return 0;
}

/*
 * Walk ELF notes (lib's elf_notes_walk(), which reads them the way
 * libkdumpfile does: a note of zero size is 12 bytes of header and the
 * walk goes on after it), counting the CPUs' and checking VMCOREINFO.
 */
int vmcore_check_notes(const char *where, const uint8_t *p, uint64_t size,
		       unsigned int *n_prstatus, bool *has_vmcoreinfo,
		       struct diag *d)
{
	struct note_count c = { .where = where, .d = d };
	Elf64_Nhdr nh;
	size_t bad;
	int r;

	r = elf_notes_walk(p, size, check_note, &c, &bad);
	if (c.error)
		return c.error;
	if (r == -EBADMSG) {
		memcpy(&nh, p + bad, sizeof(nh));
		return diag_fail(d, -EBADMSG,
				 "corrupt note in %s at offset %#zx: name size "
				 "%u and data size %u run past the notes (%"
				 PRIu64 " bytes)", where, bad, nh.n_namesz,
				 nh.n_descsz, size);
	}
	if (r < 0)
		return diag_fail(d, r, "cannot walk the notes in %s", where);
	*n_prstatus += c.n_prstatus;
	*has_vmcoreinfo |= c.has_vmcoreinfo;
	return 0;
}

/* The number of sections (extended numbering: in section 0's sh_size). */
static int section_count(struct vmcore *v, const Elf64_Ehdr *eh,
			 uint64_t *ret, struct diag *d)
{
	uint64_t shnum = eh->e_shnum;
	Elf64_Shdr sh;
	int r;

	if (eh->e_shentsize != sizeof(Elf64_Shdr))
		return diag_fail(d, -EBADMSG,
				 "corrupt ELF header: section header size %u, "
				 "expected %zu", eh->e_shentsize,
				 sizeof(Elf64_Shdr));
	if (!vmcore_in_file(v, eh->e_shoff, sizeof(sh)))
		return diag_fail(d, -EBADMSG,
				 "truncated: section header table at offset %#"
				 PRIx64 " is past the end of the file (%" PRIu64
				 " bytes)", (uint64_t)eh->e_shoff,
				 v->file_size);
	if (shnum == 0) {
		r = vmcore_pread(v, &sh, sizeof(sh), eh->e_shoff,
				 "section header 0", d);
		if (r < 0)
			return r;
		shnum = sh.sh_size;
	}
	if (shnum > (v->file_size - eh->e_shoff) / sizeof(Elf64_Shdr))
		return diag_fail(d, -EBADMSG,
				 "truncated: section header table (%" PRIu64
				 " entries at offset %#" PRIx64 ") ends past "
				 "the end of the file (%" PRIu64 " bytes)",
				 shnum, (uint64_t)eh->e_shoff, v->file_size);
	*ret = shnum;
	return 0;
}

/* The section name table: in the file, not absurd, NUL-terminated. */
static int check_shstrtab(struct vmcore *v, const Elf64_Shdr *strs,
			  struct diag *d)
{
	uint8_t last;
	int r;

	if (strs->sh_size == 0 || strs->sh_size > NOTES_MAX ||
	    !vmcore_in_file(v, strs->sh_offset, strs->sh_size))
		return diag_fail(d, -EBADMSG,
				 "corrupt section name table (%" PRIu64
				 " bytes at offset %#" PRIx64 ")",
				 (uint64_t)strs->sh_size,
				 (uint64_t)strs->sh_offset);
	r = vmcore_pread(v, &last, 1, strs->sh_offset + strs->sh_size - 1,
			 "section name table", d);
	if (r < 0)
		return r;
	if (last != '\0')
		return diag_fail(d, -EBADMSG,
				 "corrupt section name table: not "
				 "NUL-terminated");
	return 0;
}

/*
 * Kernel vmcores have no sections (or only section 0, for PN_XNUM), but
 * libkdumpfile 0.5.1 reads whatever section table the header points to
 * without checking its entry size or bounds (elfdump.c, init_elf64()): a
 * non-zero e_shoff with a zero e_shentsize made it dereference NULL (found
 * by fuzzing). So the table and its string table must make sense here.
 */
static int check_sections(struct vmcore *v, const Elf64_Ehdr *eh,
			  struct diag *d)
{
	Elf64_Shdr sh, strs = { 0 };
	uint64_t shnum = 0, i;
	int r;

	if (eh->e_shoff == 0 && eh->e_shnum == 0)
		return 0;
	r = section_count(v, eh, &shnum, d);
	if (r < 0)
		return r;
	for (i = 0; i < shnum; i++) {
		r = vmcore_pread(v, &sh, sizeof(sh),
				 eh->e_shoff + i * sizeof(sh),
				 "section header", d);
		if (r < 0)
			return r;
		if (sh.sh_type != SHT_NOBITS && sh.sh_type != SHT_NULL &&
		    !vmcore_in_file(v, sh.sh_offset, sh.sh_size))
			return diag_fail(d, -EBADMSG,
					 "corrupt section header %" PRIu64
					 ": %" PRIu64 " bytes at offset %#"
					 PRIx64 " are past the end of the "
					 "file", i, (uint64_t)sh.sh_size,
					 (uint64_t)sh.sh_offset);
		if (i && i == eh->e_shstrndx)
			strs = sh;
	}
	if (eh->e_shstrndx && eh->e_shstrndx < shnum)
		return check_shstrtab(v, &strs, d);
	return 0;
}

/* The ELF header of an x86_64 core whose program headers we can read. */
static int check_elf_header(struct vmcore *v, Elf64_Ehdr *ret,
			    struct diag *d)
{
	Elf64_Ehdr eh;
	int r;

	if (v->file_size < sizeof(eh))
		return diag_fail(d, -EBADMSG,
				 "truncated: ELF header needs %zu bytes but "
				 "the file has %" PRIu64, sizeof(eh),
				 v->file_size);
	r = vmcore_pread(v, &eh, sizeof(eh), 0, "ELF header", d);
	if (r < 0)
		return r;
	if (eh.e_ident[EI_CLASS] != ELFCLASS64)
		return diag_fail(d, -ENOTSUP,
				 "not a 64-bit ELF file (class %u); only "
				 "x86_64 dumps are supported",
				 eh.e_ident[EI_CLASS]);
	if (eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return diag_fail(d, -ENOTSUP,
				 "not a little-endian ELF file; only x86_64 "
				 "dumps are supported");
	if (eh.e_type != ET_CORE)
		return diag_fail(d, -EBADMSG,
				 "ELF file is not a core file (e_type %u, "
				 "expected ET_CORE)", eh.e_type);
	if (eh.e_machine != EM_X86_64)
		return diag_fail(d, -ENOTSUP,
				 "ELF core is for machine %u, not x86_64 (%u)",
				 eh.e_machine, EM_X86_64);
	if (eh.e_phentsize != sizeof(Elf64_Phdr))
		return diag_fail(d, -EBADMSG,
				 "corrupt ELF header: program header size %u, "
				 "expected %zu", eh.e_phentsize,
				 sizeof(Elf64_Phdr));
	*ret = eh;
	return 0;
}

/*
 * The number of program headers (for PN_XNUM, more than 65534 of them, it
 * is in section 0: include/uapi/linux/elf.h), all of them in the file.
 */
static int elf_phnum(struct vmcore *v, const Elf64_Ehdr *eh, uint64_t *ret,
		     struct diag *d)
{
	uint64_t phnum = eh->e_phnum;
	Elf64_Shdr sh;
	int r;

	if (phnum == PN_XNUM) {
		if (eh->e_shentsize != sizeof(sh) ||
		    !vmcore_in_file(v, eh->e_shoff, sizeof(sh)))
			return diag_fail(d, -EBADMSG,
					 "corrupt ELF header: e_phnum is "
					 "PN_XNUM but section header 0 is not "
					 "in the file");
		r = vmcore_pread(v, &sh, sizeof(sh), eh->e_shoff,
				 "section header 0", d);
		if (r < 0)
			return r;
		phnum = sh.sh_info;
	}
	if (phnum == 0)
		return diag_fail(d, -EBADMSG,
				 "corrupt ELF core: no program headers");
	if (eh->e_phoff > v->file_size ||
	    phnum > (v->file_size - eh->e_phoff) / sizeof(Elf64_Phdr))
		return diag_fail(d, -EBADMSG,
				 "truncated: program header table (%" PRIu64
				 " entries at offset %#" PRIx64 ") ends past "
				 "the end of the file (%" PRIu64 " bytes)",
				 phnum, (uint64_t)eh->e_phoff, v->file_size);
	*ret = phnum;
	return 0;
}

/* Program header @i, a PT_LOAD, as a segment whose sums do not wrap. */
static int check_load(size_t i, const Elf64_Phdr *p,
		      struct vmcore_segment *ret, struct diag *d)
{
	if (p->p_filesz > p->p_memsz || p->p_memsz > UINT64_MAX - p->p_paddr ||
	    p->p_filesz > UINT64_MAX - p->p_offset)
		return diag_fail(d, -EBADMSG,
				 "corrupt program header %zu (PT_LOAD): "
				 "offset %#" PRIx64 " file size %#" PRIx64
				 " memory size %#" PRIx64 " at physical %#"
				 PRIx64, i, (uint64_t)p->p_offset,
				 (uint64_t)p->p_filesz, (uint64_t)p->p_memsz,
				 (uint64_t)p->p_paddr);
	*ret = (struct vmcore_segment) {
		.paddr = p->p_paddr,
		.vaddr = p->p_vaddr,
		.offset = p->p_offset,
		.filesz = p->p_filesz,
		.memsz = p->p_memsz,
	};
	return 0;
}

/* Program header @i, a PT_NOTE: its notes read and walked. */
static int check_note_segment(struct vmcore *v, size_t i, const Elf64_Phdr *p,
			      unsigned int *n_prstatus, bool *has_vmcoreinfo,
			      struct diag *d)
{
	_cleanup_free_ uint8_t *notes = NULL;
	int r;

	if (p->p_filesz > NOTES_MAX)
		return diag_fail(d, -EBADMSG,
				 "corrupt program header %zu: PT_NOTE size %"
				 PRIu64 " is absurd", i,
				 (uint64_t)p->p_filesz);
	if (!vmcore_in_file(v, p->p_offset, p->p_filesz))
		return diag_fail(d, -EBADMSG,
				 "truncated: notes (PT_NOTE, %" PRIu64 " bytes "
				 "at offset %#" PRIx64 ") end past the end of "
				 "the file (%" PRIu64 " bytes)",
				 (uint64_t)p->p_filesz, (uint64_t)p->p_offset,
				 v->file_size);
	notes = malloc(p->p_filesz ? p->p_filesz : 1);
	if (!notes)
		return diag_fail(d, -ENOMEM, "out of memory for notes");
	r = vmcore_pread(v, notes, p->p_filesz, p->p_offset, "notes", d);
	if (r < 0)
		return r;
	return vmcore_check_notes("PT_NOTE", notes, p->p_filesz, n_prstatus,
				  has_vmcoreinfo, d);
}

int vmcore_check_elf(struct vmcore *v, struct diag *d)
{
	_cleanup_free_ struct vmcore_segment *segs = NULL;
	_cleanup_free_ Elf64_Phdr *ph = NULL;
	unsigned int n_prstatus = 0, n_notes = 0;
	bool has_vmcoreinfo = false;
	/* zeroed: gcc cannot see that diag_fail() returns a negative value */
	uint64_t phnum = 0, i;
	size_t n_segs = 0;
	Elf64_Ehdr eh = { 0 };
	int r;

	r = check_elf_header(v, &eh, d);
	if (r < 0)
		return r;
	r = check_sections(v, &eh, d);
	if (r < 0)
		return r;
	r = elf_phnum(v, &eh, &phnum, d);
	if (r < 0)
		return r;
	ph = calloc(phnum, sizeof(*ph));
	segs = calloc(phnum, sizeof(*segs));
	if (!ph || !segs)
		return diag_fail(d, -ENOMEM, "out of memory for %" PRIu64
				 " program headers", phnum);
	r = vmcore_pread(v, ph, phnum * sizeof(*ph), eh.e_phoff,
			 "program header table", d);
	for (i = 0; r >= 0 && i < phnum; i++) {
		if (ph[i].p_type == PT_LOAD) {
			r = check_load(i, &ph[i], &segs[n_segs], d);
			n_segs += r >= 0;
		} else if (ph[i].p_type == PT_NOTE) {
			r = check_note_segment(v, i, &ph[i], &n_prstatus,
					       &has_vmcoreinfo, d);
			n_notes++;
		}
	}
	if (r < 0)
		return r;
	if (n_segs == 0)
		return diag_fail(d, -EBADMSG,
				 "corrupt ELF core: no PT_LOAD segment, the "
				 "dump holds no memory");
	if (n_notes == 0)
		return diag_fail(d, -EBADMSG,
				 "corrupt ELF core: no PT_NOTE segment (no CPU "
				 "registers, no VMCOREINFO)");
	v->segs = TAKE_PTR(segs);
	v->n_segs = n_segs;
	return 0;
}
