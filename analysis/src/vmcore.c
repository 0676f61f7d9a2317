// SPDX-License-Identifier: GPL-2.0
/*
 * vmcore: kernel crash dumps through libkdumpfile.
 *
 * libkdumpfile does the format work. Before an ELF file reaches it we check
 * the ELF header, the program header table and the notes ourselves, because
 * the file may be cut short or damaged (a capture interrupted by a power
 * cut, a disk full) and the layout report needs the PT_LOADs anyway. Page
 * data is read with read(2), never mmap(2): a file truncated under us then
 * gives a short read instead of SIGBUS.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libkdumpfile/kdumpfile.h>

#include "elfnote.h"
#include "util.h"
#include "vmcore.h"

/* Kernel notes are a few KiB; 64 MiB would be 100000+ CPUs. */
#define NOTES_MAX (64ULL << 20)
/* Bitmap walks stop here; a real -d 31 dump has ~10^5 ranges. */
#define RANGES_MAX (1U << 21)
#define FLAT_SIGNATURE "makedumpfile"
#define KDUMP_SIGNATURE "KDUMP   "
#define DISKDUMP_SIGNATURE "DISKDUMP"

struct vmcore {
	int fd;
	kdump_ctx_t *ctx;
	uint64_t file_size;
	bool is_elf;
	bool xen;
	uint64_t dd_desc_off;	/* kdump: file offset of the page descriptors */
	uint32_t dd_block_size;
	/* kdump: pages from here on have bad descriptors and are not read */
	uint64_t bad_from;
	char bad_why[VMCORE_ERR_MAX];
	struct vmcore_segment *segs;
	size_t n_segs;
	char err[VMCORE_ERR_MAX];
};

static int scan_page_descs(struct vmcore *v);

__attribute__((format(printf, 3, 4)))
static int fail(struct vmcore *v, int error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->err, sizeof(v->err), fmt, ap);
	va_end(ap);
	return error;
}

static int kdump_errno(kdump_status st)
{
	switch (st) {
	case KDUMP_OK:
		return 0;
	case KDUMP_ERR_SYSTEM:
		return errno > 0 ? -errno : -EIO;
	case KDUMP_ERR_NOTIMPL:
		return -ENOTSUP;
	case KDUMP_ERR_NODATA:
		return -ENODATA;
	case KDUMP_ERR_INVALID:
		return -EINVAL;
	case KDUMP_ERR_NOKEY:
		return -ENODATA;
	case KDUMP_ERR_BUSY:
		return -EBUSY;
	case KDUMP_ERR_ADDRXLAT:
		return -EADDRNOTAVAIL;
	case KDUMP_ERR_CORRUPT:
	case KDUMP_ERR_EOF:
	default:
		return -EBADMSG;
	}
}

/* "WHAT: libkdumpfile's reason" */
static int kfail(struct vmcore *v, kdump_status st, const char *what)
{
	const char *detail = kdump_get_err(v->ctx);

	if (!detail)
		detail = kdump_strerror(st);
	if (st == KDUMP_ERR_EOF)
		return fail(v, kdump_errno(st),
			    "%s: unexpected end of file, the dump is truncated (%s)",
			    what, detail);
	return fail(v, kdump_errno(st), "%s: %s", what, detail);
}

static void copy_str(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static int pread_full(struct vmcore *v, void *buf, size_t len, uint64_t off,
		      const char *what)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(v->fd, (char *)buf + done, len - done,
				  off + done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return fail(v, -errno, "cannot read %s at offset %#" PRIx64
				    ": %s", what, off + done, strerror(errno));
		if (n == 0)
			return fail(v, -EBADMSG,
				    "truncated: %s at offset %#" PRIx64
				    " ends past the end of the file (%" PRIu64
				    " bytes)", what, off, v->file_size);
		done += n;
	}
	return 0;
}

/* Does [off, off + len) lie inside the file? Overflow-safe. */
static bool in_file(const struct vmcore *v, uint64_t off, uint64_t len)
{
	return off <= v->file_size && len <= v->file_size - off;
}

/*
 * VMCOREINFO is text, "KEY=VALUE" lines (kernel/crash_core.c); anything
 * but printable lines (and NUL padding at the end) is refused. libkdumpfile
 * 0.5.1 dies of SIGSEGV on a line that starts with '.' (".x" or "." alone:
 * an empty first component of an attribute path; found by fuzzing), so
 * such a line is refused too.
 */
static int check_vmcoreinfo_text(struct vmcore *v, const uint8_t *p,
				 uint64_t size, const char *where)
{
	uint64_t i, len = size;

	while (len && p[len - 1] == '\0')
		len--;
	for (i = 0; i < len; i++) {
		if (p[i] != '\n' && (p[i] < 0x20 || p[i] > 0x7e))
			return fail(v, -EBADMSG,
				    "corrupt VMCOREINFO in %s: byte %#x at "
				    "offset %" PRIu64 " is not text", where,
				    p[i], i);
		if (i && p[i - 1] != '\n')
			continue;
		if (p[i] == '.')
			return fail(v, -EBADMSG,
				    "corrupt VMCOREINFO in %s: the line at "
				    "offset %" PRIu64 " starts with '.'", where,
				    i);
		/*
		 * An empty or odd PAGESIZE made libkdumpfile 0.5.1 fail to
		 * size its buffers and then crash in kdump_free(), and a
		 * PAGESIZE line without '=' made it ask malloc() for 2^63
		 * bytes (both found by fuzzing); x86_64 pages are 4 KiB.
		 */
		if (len - i >= 8 && !memcmp(p + i, "PAGESIZE", 8) &&
		    (len - i < 13 || memcmp(p + i + 8, "=4096", 5) ||
		     (len - i > 13 && p[i + 13] != '\n')))
			return fail(v, -EBADMSG,
				    "corrupt VMCOREINFO in %s: the PAGESIZE "
				    "line at offset %" PRIu64 " is not "
				    "PAGESIZE=4096 (x86_64 pages are 4 KiB)",
				    where, i);
	}
	return 0;
}

struct note_count {
	struct vmcore *v;
	const char *where;
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
		r = check_vmcoreinfo_text(c->v, n->desc, n->descsz, c->where);
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
static int check_notes(struct vmcore *v, const char *where, const uint8_t *p,
		       uint64_t size, unsigned int *n_prstatus,
		       bool *has_vmcoreinfo)
{
	struct note_count c = { .v = v, .where = where };
	Elf64_Nhdr nh;
	size_t bad;
	int r;

	r = elf_notes_walk(p, size, check_note, &c, &bad);
	if (c.error)
		return c.error;
	if (r == -EBADMSG) {
		memcpy(&nh, p + bad, sizeof(nh));
		return fail(v, -EBADMSG,
			    "corrupt note in %s at offset %#zx: name size %u "
			    "and data size %u run past the notes (%" PRIu64
			    " bytes)", where, bad, nh.n_namesz, nh.n_descsz,
			    size);
	}
	if (r < 0)
		return r;
	*n_prstatus += c.n_prstatus;
	*has_vmcoreinfo |= c.has_vmcoreinfo;
	return 0;
}

/* The number of sections (extended numbering: in section 0's sh_size). */
static int section_count(struct vmcore *v, const Elf64_Ehdr *eh,
			 uint64_t *ret)
{
	uint64_t shnum = eh->e_shnum;
	Elf64_Shdr sh;
	int r;

	if (eh->e_shentsize != sizeof(Elf64_Shdr))
		return fail(v, -EBADMSG,
			    "corrupt ELF header: section header size %u, "
			    "expected %zu", eh->e_shentsize, sizeof(Elf64_Shdr));
	if (!in_file(v, eh->e_shoff, sizeof(sh)))
		return fail(v, -EBADMSG,
			    "truncated: section header table at offset %#" PRIx64
			    " is past the end of the file (%" PRIu64 " bytes)",
			    (uint64_t)eh->e_shoff, v->file_size);
	if (shnum == 0) {
		r = pread_full(v, &sh, sizeof(sh), eh->e_shoff,
			       "section header 0");
		if (r < 0)
			return r;
		shnum = sh.sh_size;
	}
	if (shnum > (v->file_size - eh->e_shoff) / sizeof(Elf64_Shdr))
		return fail(v, -EBADMSG,
			    "truncated: section header table (%" PRIu64
			    " entries at offset %#" PRIx64 ") ends past the end "
			    "of the file (%" PRIu64 " bytes)", shnum,
			    (uint64_t)eh->e_shoff, v->file_size);
	*ret = shnum;
	return 0;
}

/* The section name table: in the file, not absurd, NUL-terminated. */
static int check_shstrtab(struct vmcore *v, const Elf64_Shdr *strs)
{
	uint8_t last;
	int r;

	if (strs->sh_size == 0 || strs->sh_size > NOTES_MAX ||
	    !in_file(v, strs->sh_offset, strs->sh_size))
		return fail(v, -EBADMSG,
			    "corrupt section name table (%" PRIu64
			    " bytes at offset %#" PRIx64 ")",
			    (uint64_t)strs->sh_size, (uint64_t)strs->sh_offset);
	r = pread_full(v, &last, 1, strs->sh_offset + strs->sh_size - 1,
		       "section name table");
	if (r < 0)
		return r;
	if (last != '\0')
		return fail(v, -EBADMSG,
			    "corrupt section name table: not NUL-terminated");
	return 0;
}

/*
 * Kernel vmcores have no sections (or only section 0, for PN_XNUM), but
 * libkdumpfile 0.5.1 reads whatever section table the header points to
 * without checking its entry size or bounds (elfdump.c, init_elf64()): a
 * non-zero e_shoff with a zero e_shentsize made it dereference NULL (found
 * by fuzzing). So the table and its string table must make sense here.
 */
static int check_sections(struct vmcore *v, const Elf64_Ehdr *eh)
{
	Elf64_Shdr sh, strs = { 0 };
	uint64_t shnum = 0, i;
	int r;

	if (eh->e_shoff == 0 && eh->e_shnum == 0)
		return 0;
	r = section_count(v, eh, &shnum);
	if (r < 0)
		return r;
	for (i = 0; i < shnum; i++) {
		r = pread_full(v, &sh, sizeof(sh),
			       eh->e_shoff + i * sizeof(sh), "section header");
		if (r < 0)
			return r;
		if (sh.sh_type != SHT_NOBITS && sh.sh_type != SHT_NULL &&
		    !in_file(v, sh.sh_offset, sh.sh_size))
			return fail(v, -EBADMSG,
				    "corrupt section header %" PRIu64 ": %"
				    PRIu64 " bytes at offset %#" PRIx64
				    " are past the end of the file", i,
				    (uint64_t)sh.sh_size,
				    (uint64_t)sh.sh_offset);
		if (i && i == eh->e_shstrndx)
			strs = sh;
	}
	if (eh->e_shstrndx && eh->e_shstrndx < shnum)
		return check_shstrtab(v, &strs);
	return 0;
}

/* The ELF header of an x86_64 core whose program headers we can read. */
static int check_elf_header(struct vmcore *v, Elf64_Ehdr *ret)
{
	Elf64_Ehdr eh;
	int r;

	if (v->file_size < sizeof(eh))
		return fail(v, -EBADMSG,
			    "truncated: ELF header needs %zu bytes but the file "
			    "has %" PRIu64, sizeof(eh), v->file_size);
	r = pread_full(v, &eh, sizeof(eh), 0, "ELF header");
	if (r < 0)
		return r;
	if (eh.e_ident[EI_CLASS] != ELFCLASS64)
		return fail(v, -ENOTSUP,
			    "not a 64-bit ELF file (class %u); only x86_64 dumps "
			    "are supported", eh.e_ident[EI_CLASS]);
	if (eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return fail(v, -ENOTSUP,
			    "not a little-endian ELF file; only x86_64 dumps are "
			    "supported");
	if (eh.e_type != ET_CORE)
		return fail(v, -EBADMSG,
			    "ELF file is not a core file (e_type %u, expected "
			    "ET_CORE)", eh.e_type);
	if (eh.e_machine != EM_X86_64)
		return fail(v, -ENOTSUP,
			    "ELF core is for machine %u, not x86_64 (%u)",
			    eh.e_machine, EM_X86_64);
	if (eh.e_phentsize != sizeof(Elf64_Phdr))
		return fail(v, -EBADMSG,
			    "corrupt ELF header: program header size %u, "
			    "expected %zu", eh.e_phentsize, sizeof(Elf64_Phdr));
	*ret = eh;
	return 0;
}

/*
 * The number of program headers (for PN_XNUM, more than 65534 of them, it
 * is in section 0: include/uapi/linux/elf.h), all of them in the file.
 */
static int elf_phnum(struct vmcore *v, const Elf64_Ehdr *eh, uint64_t *ret)
{
	uint64_t phnum = eh->e_phnum;
	Elf64_Shdr sh;
	int r;

	if (phnum == PN_XNUM) {
		if (eh->e_shentsize != sizeof(sh) ||
		    !in_file(v, eh->e_shoff, sizeof(sh)))
			return fail(v, -EBADMSG,
				    "corrupt ELF header: e_phnum is PN_XNUM but "
				    "section header 0 is not in the file");
		r = pread_full(v, &sh, sizeof(sh), eh->e_shoff,
			       "section header 0");
		if (r < 0)
			return r;
		phnum = sh.sh_info;
	}
	if (phnum == 0)
		return fail(v, -EBADMSG,
			    "corrupt ELF core: no program headers");
	if (eh->e_phoff > v->file_size ||
	    phnum > (v->file_size - eh->e_phoff) / sizeof(Elf64_Phdr))
		return fail(v, -EBADMSG,
			    "truncated: program header table (%" PRIu64
			    " entries at offset %#" PRIx64 ") ends past the end "
			    "of the file (%" PRIu64 " bytes)", phnum,
			    (uint64_t)eh->e_phoff, v->file_size);
	*ret = phnum;
	return 0;
}

/* Program header @i, a PT_LOAD, as a segment whose sums do not wrap. */
static int check_load(struct vmcore *v, size_t i, const Elf64_Phdr *p,
		      struct vmcore_segment *ret)
{
	if (p->p_filesz > p->p_memsz || p->p_memsz > UINT64_MAX - p->p_paddr ||
	    p->p_filesz > UINT64_MAX - p->p_offset)
		return fail(v, -EBADMSG,
			    "corrupt program header %zu (PT_LOAD): offset %#"
			    PRIx64 " file size %#" PRIx64 " memory size %#"
			    PRIx64 " at physical %#" PRIx64, i,
			    (uint64_t)p->p_offset, (uint64_t)p->p_filesz,
			    (uint64_t)p->p_memsz, (uint64_t)p->p_paddr);
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
			      unsigned int *n_prstatus, bool *has_vmcoreinfo)
{
	_cleanup_free_ uint8_t *notes = NULL;
	int r;

	if (p->p_filesz > NOTES_MAX)
		return fail(v, -EBADMSG,
			    "corrupt program header %zu: PT_NOTE size %" PRIu64
			    " is absurd", i, (uint64_t)p->p_filesz);
	if (!in_file(v, p->p_offset, p->p_filesz))
		return fail(v, -EBADMSG,
			    "truncated: notes (PT_NOTE, %" PRIu64 " bytes at "
			    "offset %#" PRIx64 ") end past the end of the file "
			    "(%" PRIu64 " bytes)", (uint64_t)p->p_filesz,
			    (uint64_t)p->p_offset, v->file_size);
	notes = malloc(p->p_filesz ? p->p_filesz : 1);
	if (!notes)
		return fail(v, -ENOMEM, "out of memory for notes");
	r = pread_full(v, notes, p->p_filesz, p->p_offset, "notes");
	if (r < 0)
		return r;
	return check_notes(v, "PT_NOTE", notes, p->p_filesz, n_prstatus,
			   has_vmcoreinfo);
}

/*
 * The headers and notes of an ELF core, checked before libkdumpfile reads
 * them; its PT_LOADs kept in v->segs.
 */
static int check_elf(struct vmcore *v)
{
	_cleanup_free_ struct vmcore_segment *segs = NULL;
	_cleanup_free_ Elf64_Phdr *ph = NULL;
	unsigned int n_prstatus = 0, n_notes = 0;
	bool has_vmcoreinfo = false;
	/* zeroed: gcc cannot see that fail() returns a negative value */
	uint64_t phnum = 0, i;
	size_t n_segs = 0;
	Elf64_Ehdr eh = { 0 };
	int r;

	r = check_elf_header(v, &eh);
	if (r < 0)
		return r;
	r = check_sections(v, &eh);
	if (r < 0)
		return r;
	r = elf_phnum(v, &eh, &phnum);
	if (r < 0)
		return r;
	ph = calloc(phnum, sizeof(*ph));
	segs = calloc(phnum, sizeof(*segs));
	if (!ph || !segs)
		return fail(v, -ENOMEM, "out of memory for %" PRIu64
			    " program headers", phnum);
	r = pread_full(v, ph, phnum * sizeof(*ph), eh.e_phoff,
		       "program header table");
	for (i = 0; r >= 0 && i < phnum; i++) {
		if (ph[i].p_type == PT_LOAD) {
			r = check_load(v, i, &ph[i], &segs[n_segs]);
			n_segs += r >= 0;
		} else if (ph[i].p_type == PT_NOTE) {
			r = check_note_segment(v, i, &ph[i], &n_prstatus,
					       &has_vmcoreinfo);
			n_notes++;
		}
	}
	if (r < 0)
		return r;
	if (n_segs == 0)
		return fail(v, -EBADMSG,
			    "corrupt ELF core: no PT_LOAD segment, the dump "
			    "holds no memory");
	if (n_notes == 0)
		return fail(v, -EBADMSG,
			    "corrupt ELF core: no PT_NOTE segment (no CPU "
			    "registers, no VMCOREINFO)");
	v->segs = TAKE_PTR(segs);
	v->n_segs = n_segs;
	return 0;
}

/*
 * The fields of makedumpfile's x86_64 kdump header that size things
 * (makedumpfile's diskdump_mod.h: struct disk_dump_header and struct
 * kdump_sub_header, 64-bit layout). libkdumpfile 0.5.1 trusts them: a
 * 1 KiB file whose bitmap_blocks claims gigabytes made it allocate 2 GiB
 * before failing (found by fuzzing). Only bounds are checked here; the
 * format itself is libkdumpfile's business.
 */
#define DH_MACHINE_OFF		(8 + 4 + 4 * 65)
#define DH_VERSION_OFF		8
#define DH_BLOCK_SIZE_OFF	428
#define DH_SUB_HDR_SIZE_OFF	432
#define DH_BITMAP_BLOCKS_OFF	436
#define DH_SIZE			448
#define SUB_VMCOREINFO_OFF	32	/* offset, size: header_version >= 3 */
#define SUB_NOTE_OFF		48	/* offset, size: header_version >= 4 */
#define SUB_ERASEINFO_OFF	64	/* offset, size: header_version >= 5 */

enum blob_kind { BLOB_VMCOREINFO, BLOB_NOTES, BLOB_OTHER };

static int check_blob(struct vmcore *v, const uint8_t *sub, size_t at,
		      const char *what, enum blob_kind kind)
{
	unsigned int n_prstatus = 0;
	bool has_vmcoreinfo = false;
	uint64_t off, size;
	uint8_t *buf;
	int r;

	memcpy(&off, sub + at, 8);
	memcpy(&size, sub + at + 8, 8);
	if (size == 0)
		return 0;
	if (size > NOTES_MAX || !in_file(v, off, size))
		return fail(v, -EBADMSG,
			    "corrupt kdump sub-header: %s (%" PRIu64
			    " bytes at offset %#" PRIx64 ") is not inside the "
			    "file (%" PRIu64 " bytes)", what, size, off,
			    v->file_size);
	if (kind == BLOB_OTHER)
		return 0;
	buf = malloc(size);
	if (!buf)
		return fail(v, -ENOMEM, "out of memory for %s", what);
	r = pread_full(v, buf, size, off, what);
	if (r >= 0 && kind == BLOB_VMCOREINFO)
		r = check_vmcoreinfo_text(v, buf, size, "the kdump header");
	else if (r >= 0)
		r = check_notes(v, "the kdump ELF notes", buf, size,
				&n_prstatus, &has_vmcoreinfo);
	free(buf);
	return r;
}

static int check_diskdump(struct vmcore *v)
{
	uint8_t h[DH_SIZE], sub[96];
	int32_t version, block_size, sub_hdr_size;
	uint32_t bitmap_blocks;
	char machine[66] = "";
	uint64_t need;
	int r;

	if (v->file_size < sizeof(h))
		return fail(v, -EBADMSG,
			    "truncated: kdump header needs %zu bytes but the "
			    "file has %" PRIu64, sizeof(h), v->file_size);
	r = pread_full(v, h, sizeof(h), 0, "kdump header");
	if (r < 0)
		return r;
	memcpy(machine, h + DH_MACHINE_OFF, 65);
	if (strcmp(machine, "x86_64"))
		return fail(v, -ENOTSUP,
			    "kdump file is for machine '%.65s'; only x86_64 is "
			    "supported", machine);
	memcpy(&version, h + DH_VERSION_OFF, 4);
	memcpy(&block_size, h + DH_BLOCK_SIZE_OFF, 4);
	memcpy(&sub_hdr_size, h + DH_SUB_HDR_SIZE_OFF, 4);
	memcpy(&bitmap_blocks, h + DH_BITMAP_BLOCKS_OFF, 4);
	/* makedumpfile's block is the page, 4 KiB on x86_64 */
	if (block_size != 4096)
		return fail(v, -EBADMSG,
			    "corrupt kdump header: block size %d, expected 4096",
			    block_size);
	if (sub_hdr_size < 0 || version < 0)
		return fail(v, -EBADMSG,
			    "corrupt kdump header: version %d, sub-header size "
			    "%d", version, sub_hdr_size);
	/* header block, sub-header blocks, both bitmaps: all in the file */
	need = (1 + (uint64_t)sub_hdr_size + bitmap_blocks) * block_size;
	v->dd_desc_off = need;
	v->dd_block_size = block_size;
	if (need > v->file_size)
		return fail(v, -EBADMSG,
			    "truncated: kdump headers and page bitmaps need %"
			    PRIu64 " bytes but the file has %" PRIu64, need,
			    v->file_size);
	if (version < 3)
		return 0;
	r = pread_full(v, sub, sizeof(sub), block_size, "kdump sub-header");
	if (r < 0)
		return r;
	r = check_blob(v, sub, SUB_VMCOREINFO_OFF, "VMCOREINFO",
		       BLOB_VMCOREINFO);
	if (r >= 0 && version >= 4)
		r = check_blob(v, sub, SUB_NOTE_OFF, "ELF notes", BLOB_NOTES);
	if (r >= 0 && version >= 5)
		r = check_blob(v, sub, SUB_ERASEINFO_OFF, "erase info",
			       BLOB_OTHER);
	return r;
}

static int sniff(struct vmcore *v)
{
	uint8_t sig[16] = { 0 };
	size_t n = v->file_size < sizeof(sig) ? v->file_size : sizeof(sig);
	int r;

	if (v->file_size == 0)
		return fail(v, -EBADMSG, "empty file");
	r = pread_full(v, sig, n, 0, "file signature");
	if (r < 0)
		return r;
	if (n >= strlen(FLAT_SIGNATURE) &&
	    !memcmp(sig, FLAT_SIGNATURE, strlen(FLAT_SIGNATURE)))
		return fail(v, -ENOTSUP,
			    "makedumpfile flattened format (made with -F) cannot "
			    "be read directly; convert it first: makedumpfile -R "
			    "OUTFILE < FLATFILE");
	if (n >= SELFMAG && !memcmp(sig, ELFMAG, SELFMAG)) {
		v->is_elf = true;
		return check_elf(v);
	}
	if (n >= 8 && (!memcmp(sig, KDUMP_SIGNATURE, 8) ||
		       !memcmp(sig, DISKDUMP_SIGNATURE, 8)))
		return check_diskdump(v);
	if (n < 8 && (!memcmp(sig, ELFMAG, n < SELFMAG ? n : SELFMAG) ||
		      !memcmp(sig, KDUMP_SIGNATURE, n) ||
		      !memcmp(sig, DISKDUMP_SIGNATURE, n) ||
		      !memcmp(sig, FLAT_SIGNATURE, n)))
		return fail(v, -EBADMSG,
			    "truncated: the file has only %zu bytes", n);
	return fail(v, -EPROTONOSUPPORT,
		    "not a kernel dump: no ELF, makedumpfile kdump or "
		    "flattened signature at offset 0");
}

static int open_kdump(struct vmcore *v)
{
	kdump_status st;
	const char *arch;
	kdump_num_t xen;

	v->ctx = kdump_new();
	if (!v->ctx)
		return fail(v, -ENOMEM, "cannot allocate a libkdumpfile context");
	/* Set before opening so that the dump is read as Linux. */
	st = kdump_set_string_attr(v->ctx, KDUMP_ATTR_OSTYPE, "linux");
	if (st != KDUMP_OK)
		return kfail(v, st, "cannot set the OS type");
	st = kdump_set_number_attr(v->ctx, KDUMP_ATTR_FILE_MMAP_POLICY,
				   KDUMP_MMAP_NEVER);
	if (st != KDUMP_OK)
		return kfail(v, st, "cannot set the mmap policy");
	st = kdump_open_fd(v->ctx, v->fd);
	if (st != KDUMP_OK)
		return kfail(v, st, "libkdumpfile cannot open the dump");

	st = kdump_get_string_attr(v->ctx, KDUMP_ATTR_ARCH_NAME, &arch);
	if (st != KDUMP_OK)
		return kfail(v, st, "cannot tell the dump's architecture");
	if (strcmp(arch, KDUMP_ARCH_X86_64))
		return fail(v, -ENOTSUP,
			    "dump is for %.32s, only x86_64 is supported", arch);
	if (kdump_get_number_attr(v->ctx, KDUMP_ATTR_XEN_TYPE, &xen) ==
	    KDUMP_OK && xen != KDUMP_XEN_NONE)
		v->xen = true;
	return 0;
}

void vmcore_free(struct vmcore *v)
{
	if (!v)
		return;
	if (v->ctx)
		kdump_free(v->ctx);
	if (v->fd >= 0)
		close(v->fd);
	free(v->segs);
	free(v);
}

int vmcore_open_fd(int fd, struct vmcore **ret, char *err, size_t errsz)
{
	struct vmcore *v;
	struct stat st;
	int r;

	if (fd < 0 || !ret)
		return -EINVAL;
	v = calloc(1, sizeof(*v));
	if (!v) {
		if (err && errsz)
			snprintf(err, errsz, "out of memory");
		return -ENOMEM;
	}
	v->bad_from = UINT64_MAX;
	v->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (v->fd < 0) {
		r = fail(v, -errno, "cannot duplicate file descriptor: %s",
			 strerror(errno));
		goto fail;
	}
	if (fstat(v->fd, &st) < 0) {
		r = fail(v, -errno, "cannot stat: %s", strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		r = fail(v, -EINVAL, "not a regular file");
		goto fail;
	}
	v->file_size = st.st_size;

	r = sniff(v);
	if (r < 0)
		goto fail;
	r = open_kdump(v);
	if (r < 0)
		goto fail;
	if (v->dd_desc_off) {
		r = scan_page_descs(v);
		if (r < 0)
			goto fail;
	}
	v->err[0] = '\0';
	*ret = v;
	return 0;
fail:
	if (err && errsz)
		copy_str(err, errsz, v->err);
	vmcore_free(v);
	return r;
}

int vmcore_open(const char *path, struct vmcore **ret, char *err, size_t errsz)
{
	int fd, r;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		r = -errno;
		if (err && errsz)
			snprintf(err, errsz, "%s", strerror(errno));
		return r;
	}
	r = vmcore_open_fd(fd, ret, err, errsz);
	close(fd);
	return r;
}

const char *vmcore_error(const struct vmcore *v)
{
	return v->err[0] ? v->err : "unknown error";
}

static int get_bitmap(struct vmcore *v, enum vmcore_map map,
		      kdump_bmp_t **ret)
{
	const char *key = map == VMCORE_MAP_RAM ? KDUMP_ATTR_MEMORY_PAGEMAP :
						  KDUMP_ATTR_FILE_PAGEMAP;
	kdump_attr_t attr = { .type = KDUMP_BITMAP };
	kdump_status st;

	st = kdump_get_typed_attr(v->ctx, key, &attr);
	if (st != KDUMP_OK)
		return kfail(v, st, map == VMCORE_MAP_RAM ?
			     "cannot get the memory map" :
			     "cannot get the map of dumped pages");
	kdump_bmp_incref(attr.val.bitmap);
	*ret = attr.val.bitmap;
	return 0;
}

static int page_shift(struct vmcore *v, unsigned int *ret)
{
	kdump_num_t n;
	kdump_status st;

	st = kdump_get_number_attr(v->ctx, KDUMP_ATTR_PAGE_SHIFT, &n);
	if (st != KDUMP_OK)
		return kfail(v, st, "cannot get the page size");
	if (n < 10 || n > 30)
		return fail(v, -EBADMSG, "corrupt dump: page shift %" PRIu64,
			    (uint64_t)n);
	*ret = n;
	return 0;
}

/*
 * Next run of set bits at or after *pfn: [*ret_start, *ret_end). Returns 1,
 * or 0 when there is none.
 */
static int next_run(struct vmcore *v, kdump_bmp_t *bmp, kdump_addr_t pfn,
		    kdump_addr_t *ret_start, kdump_addr_t *ret_end)
{
	kdump_addr_t start = pfn, end;
	kdump_status st;

	st = kdump_bmp_find_set(bmp, &start);
	if (st == KDUMP_ERR_NODATA)
		return 0;
	if (st != KDUMP_OK)
		return fail(v, kdump_errno(st), "cannot walk the page map: %s",
			    kdump_bmp_get_err(bmp) ?: kdump_strerror(st));
	if (start < pfn)
		return fail(v, -EBADMSG, "corrupt page map");
	end = start;
	st = kdump_bmp_find_clear(bmp, &end);
	if (st == KDUMP_ERR_NODATA)
		end = ~(kdump_addr_t)0;
	else if (st != KDUMP_OK)
		return fail(v, kdump_errno(st), "cannot walk the page map: %s",
			    kdump_bmp_get_err(bmp) ?: kdump_strerror(st));
	if (end <= start)
		return fail(v, -EBADMSG, "corrupt page map");
	*ret_start = start;
	*ret_end = end;
	return 1;
}

int vmcore_get_ranges(struct vmcore *v, enum vmcore_map map,
		      struct vmcore_range **ret, size_t *ret_n,
		      uint64_t *ret_pages)
{
	struct vmcore_range *r = NULL;
	size_t n = 0, cap = 0;
	uint64_t pages = 0;
	kdump_addr_t pfn = 0, s, e;
	kdump_bmp_t *bmp;
	unsigned int shift;
	int k;

	k = page_shift(v, &shift);
	if (k < 0)
		return k;
	k = get_bitmap(v, map, &bmp);
	if (k < 0)
		return k;
	for (;;) {
		k = next_run(v, bmp, pfn, &s, &e);
		if (k <= 0)
			break;
		if (n == RANGES_MAX) {
			k = fail(v, -EBADMSG,
				 "page map has more than %u ranges", RANGES_MAX);
			break;
		}
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			struct vmcore_range *t = realloc(r, ncap * sizeof(*r));

			if (!t) {
				k = fail(v, -ENOMEM, "out of memory");
				break;
			}
			r = t;
			cap = ncap;
		}
		/* Clamp so that the byte addresses do not overflow. */
		if (s > UINT64_MAX >> shift)
			break;
		if (e > UINT64_MAX >> shift)
			e = UINT64_MAX >> shift;
		r[n].start = (uint64_t)s << shift;
		r[n].end = (uint64_t)e << shift;
		pages += e - s;
		n++;
		if (e == UINT64_MAX >> shift)
			break;
		pfn = e;
	}
	kdump_bmp_decref(bmp);
	if (k < 0) {
		free(r);
		return k;
	}
	*ret = r;
	*ret_n = n;
	if (ret_pages)
		*ret_pages = pages;
	return 0;
}

int vmcore_find_in_range(struct vmcore *v, enum vmcore_map map,
			 uint64_t start, uint64_t end, uint64_t *ret_addr)
{
	kdump_addr_t s, e;
	kdump_bmp_t *bmp;
	unsigned int shift;
	int k;

	if (start >= end)
		return fail(v, -EINVAL, "empty range");
	k = page_shift(v, &shift);
	if (k < 0)
		return k;
	k = get_bitmap(v, map, &bmp);
	if (k < 0)
		return k;
	k = next_run(v, bmp, start >> shift, &s, &e);
	kdump_bmp_decref(bmp);
	if (k <= 0)
		return k;
	if (s > (end - 1) >> shift)
		return 0;
	if (ret_addr)
		*ret_addr = s << shift > start ? s << shift : start;
	return 1;
}

/*
 * libkdumpfile fills a short read with zeroes: the part of a PT_LOAD whose
 * data lies past the end of a truncated file must not be read through it.
 * Returns 1 and the first such address in [addr, addr + len), or 0.
 */
static int elf_cut(const struct vmcore *v, uint64_t addr, size_t len,
		   uint64_t *ret)
{
	uint64_t best = UINT64_MAX, last = addr + (len - 1);
	size_t i;

	for (i = 0; i < v->n_segs; i++) {
		const struct vmcore_segment *s = &v->segs[i];
		uint64_t have, from, to;

		if (in_file(v, s->offset, s->filesz))
			continue;
		have = v->file_size > s->offset ? v->file_size - s->offset : 0;
		from = s->paddr + have;
		to = s->paddr + s->filesz - 1;
		if (from > last || to < addr)
			continue;
		from = from > addr ? from : addr;
		if (from < best)
			best = from;
	}
	if (best == UINT64_MAX)
		return 0;
	*ret = best;
	return 1;
}

int vmcore_read_phys(struct vmcore *v, uint64_t addr, void *buf, size_t len,
		     size_t *ret_done)
{
	size_t n = len;
	kdump_status st;
	uint64_t cut;
	int k;

	if (ret_done)
		*ret_done = 0;
	if (len == 0)
		return 0;
	if (len - 1 > UINT64_MAX - addr)
		return fail(v, -EINVAL, "range %#" PRIx64 "+%zu wraps around",
			    addr, len);
	k = elf_cut(v, addr, len, &cut);
	if (k > 0) {
		/* the data that is there, then the error */
		if (cut > addr) {
			k = vmcore_read_phys(v, addr, buf, cut - addr, ret_done);
			if (k < 0)
				return k;
		}
		return fail(v, -EBADMSG,
			    "physical address %#" PRIx64 " is not read: its "
			    "data is past the end of the file (%" PRIu64
			    " bytes); the dump is incomplete", cut,
			    v->file_size);
	}
	if (addr >= v->bad_from)
		return fail(v, -EBADMSG,
			    "physical address %#" PRIx64 " is not read: %s",
			    addr, v->bad_why);
	if (len > v->bad_from - addr) {
		/* the part before the bad pages, then the error */
		k = vmcore_read_phys(v, addr, buf, v->bad_from - addr,
				     ret_done);
		if (k < 0)
			return k;
		return fail(v, -EBADMSG,
			    "physical address %#" PRIx64 " is not read: %s",
			    v->bad_from, v->bad_why);
	}
	/*
	 * Without Xen, kernel physical and machine physical addresses are
	 * the same; reading the machine address directly needs no address
	 * translation, which libkdumpfile cannot set up for an ELF dump
	 * without VMCOREINFO.
	 */
	st = kdump_read(v->ctx, v->xen ? KDUMP_KPHYSADDR : KDUMP_MACHPHYSADDR,
			addr, buf, &n);
	if (ret_done)
		*ret_done = st == KDUMP_OK ? len : n;
	if (st == KDUMP_OK)
		return 0;
	if (st == KDUMP_ERR_NODATA)
		return fail(v, -ENODATA,
			    "physical address %#" PRIx64 " is not in the dump "
			    "(not RAM, or a page excluded by makedumpfile's "
			    "filter)", addr + n);
	return kfail(v, st, "cannot read physical memory");
}

/*
 * Each dumped page of a kdump file has a descriptor (struct page_desc: u64
 * offset, u32 size, u32 flags, u64 page_flags) right after the bitmaps, in
 * the order of the page frame numbers. libkdumpfile 0.5.1 trusts them:
 *  - a short read is filled up with zeroes (fcache.c), so a file cut off in
 *    its page data reads back as zero pages instead of failing;
 *  - a compressed size between the page size and 256 KiB overflows its
 *    page-sized buffer for compressed data (diskdump.c, found by fuzzing).
 * makedumpfile stores a page compressed only if that makes it smaller, so
 * every size is at most the block size. The descriptors are checked once
 * at open; the first bad one and every later page are never read.
 */
#define PAGE_DESC_SIZE 24

static void mark_bad(struct vmcore *v, const struct vmcore_range *r, size_t n,
		     uint64_t rank, unsigned int shift)
{
	size_t i;

	/* the page with this rank in the map of dumped pages */
	for (i = 0; i < n; i++) {
		uint64_t pages = (r[i].end - r[i].start) >> shift;

		if (rank < pages) {
			v->bad_from = r[i].start + (rank << shift);
			return;
		}
		rank -= pages;
	}
	v->bad_from = 0;
}

static int scan_page_descs(struct vmcore *v)
{
	uint8_t buf[PAGE_DESC_SIZE * 512];
	struct vmcore_range *r;
	uint64_t i = 0, n_pages, end;
	unsigned int shift;
	size_t n;
	int k;

	k = page_shift(v, &shift);
	if (k >= 0)
		k = vmcore_get_ranges(v, VMCORE_MAP_DUMPED, &r, &n, &n_pages);
	if (k < 0)
		return k;
	end = v->dd_desc_off + n_pages * PAGE_DESC_SIZE;
	if (n_pages > v->file_size / PAGE_DESC_SIZE || end > v->file_size) {
		/* the descriptors that are there can still be checked */
		n_pages = v->file_size > v->dd_desc_off ?
			  (v->file_size - v->dd_desc_off) / PAGE_DESC_SIZE : 0;
		snprintf(v->bad_why, sizeof(v->bad_why),
			 "truncated: the page descriptors end at offset %#"
			 PRIx64 " but the file has %" PRIu64 " bytes; the "
			 "dump is incomplete", end, v->file_size);
		mark_bad(v, r, n, n_pages, shift);
	}
	while (i < n_pages) {
		size_t m = n_pages - i < 512 ? n_pages - i : 512, j;

		k = pread_full(v, buf, m * PAGE_DESC_SIZE,
			       v->dd_desc_off + i * PAGE_DESC_SIZE,
			       "page descriptors");
		if (k < 0)
			break;
		for (j = 0; j < m; j++, i++) {
			uint64_t off;
			uint32_t size;

			memcpy(&off, buf + j * PAGE_DESC_SIZE, 8);
			memcpy(&size, buf + j * PAGE_DESC_SIZE + 8, 4);
			if (size && size <= v->dd_block_size &&
			    in_file(v, off, size))
				continue;
			snprintf(v->bad_why, sizeof(v->bad_why),
				 "truncated or corrupt: dumped page %" PRIu64
				 " has %u bytes at offset %#" PRIx64 ", not "
				 "inside the file (%" PRIu64 " bytes); the dump "
				 "is incomplete", i + 1, size, off,
				 v->file_size);
			mark_bad(v, r, n, i, shift);
			goto out;
		}
	}
out:
	free(r);
	return k < 0 ? k : 0;
}

int vmcore_validate(struct vmcore *v)
{
	struct vmcore_range *r;
	uint8_t byte;
	size_t i, n;
	int k;

	for (i = 0; i < v->n_segs; i++) {
		const struct vmcore_segment *s = &v->segs[i];

		if (!in_file(v, s->offset, s->filesz))
			return fail(v, -EBADMSG,
				    "truncated: memory segment %zu (physical %#"
				    PRIx64 "-%#" PRIx64 ") needs the file up to "
				    "offset %#" PRIx64 " but it has only %" PRIu64
				    " bytes; the dump is incomplete", i,
				    s->paddr, s->paddr + s->memsz - 1,
				    s->offset + s->filesz, v->file_size);
	}

	k = vmcore_get_ranges(v, VMCORE_MAP_DUMPED, &r, &n, NULL);
	if (k < 0)
		return k;
	if (n == 0) {
		free(r);
		return fail(v, -EBADMSG, "the dump contains no memory pages");
	}
	if (v->bad_from != UINT64_MAX) {
		free(r);
		return fail(v, -EBADMSG, "%s", v->bad_why);
	}
	/*
	 * Page data is written in ascending order: if the last dumped page
	 * reads back, nothing was cut off the end.
	 */
	k = vmcore_read_phys(v, r[0].start, &byte, 1, NULL);
	if (k >= 0)
		k = vmcore_read_phys(v, r[n - 1].end - 1, &byte, 1, NULL);
	if (k < 0) {
		char why[VMCORE_ERR_MAX];

		copy_str(why, sizeof(why), v->err);
		fail(v, k == -ENODATA ? -EBADMSG : k,
		     "a page listed as dumped cannot be read, the dump is "
		     "truncated or corrupt: %s", why);
		k = k == -ENODATA ? -EBADMSG : k;
	}
	free(r);
	return k < 0 ? k : 0;
}

int vmcore_vmcoreinfo(struct vmcore *v, const char *key, char **ret)
{
	kdump_status st;
	char *val = NULL;

	st = kdump_vmcoreinfo_line(v->ctx, key, &val);
	if (st != KDUMP_OK)
		return fail(v, kdump_errno(st) == -EBADMSG ? -EBADMSG : -ENODATA,
			    "VMCOREINFO has no %s", key);
	if (!val)
		return fail(v, -ENODATA, "VMCOREINFO has no %s", key);
	*ret = val;
	return 0;
}

static void vmcoreinfo_str(struct vmcore *v, const char *key, char *dst,
			   size_t size)
{
	char *val;

	if (vmcore_vmcoreinfo(v, key, &val) < 0)
		return;
	copy_str(dst, size, val);
	free(val);
}

static bool parse_u64(const char *s, uint64_t *ret)
{
	char *end;
	unsigned long long n;

	if (!*s || *s == '-')
		return false;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno || *end)
		return false;
	*ret = n;
	return true;
}

int vmcore_get_info(struct vmcore *v, struct vmcore_info *ret)
{
	struct vmcore_info in = { .crashtime = -1 };
	const char *s;
	kdump_num_t num;
	char *val;
	uint64_t u;

	in.file_size = v->file_size;
	if (kdump_get_string_attr(v->ctx, KDUMP_ATTR_FILE_FORMAT, &s) ==
	    KDUMP_OK)
		copy_str(in.format, sizeof(in.format), s);
	if (kdump_get_string_attr(v->ctx, "file.description", &s) == KDUMP_OK)
		copy_str(in.description, sizeof(in.description), s);
	if (kdump_get_string_attr(v->ctx, KDUMP_ATTR_ARCH_NAME, &s) ==
	    KDUMP_OK)
		copy_str(in.arch, sizeof(in.arch), s);
	if (kdump_get_string_attr(v->ctx, "linux.uts.nodename", &s) ==
	    KDUMP_OK)
		copy_str(in.nodename, sizeof(in.nodename), s);
	if (kdump_get_number_attr(v->ctx, KDUMP_ATTR_NUM_CPUS, &num) ==
	    KDUMP_OK)
		in.n_cpus = num;
	if (kdump_get_number_attr(v->ctx, "max_pfn", &num) == KDUMP_OK)
		in.max_pfn = num;

	if (kdump_vmcoreinfo_raw(v->ctx, &val) == KDUMP_OK && val) {
		in.has_vmcoreinfo = true;
		free(val);
	}
	vmcoreinfo_str(v, "OSRELEASE", in.osrelease, sizeof(in.osrelease));
	vmcoreinfo_str(v, "BUILD-ID", in.build_id, sizeof(in.build_id));
	if (vmcore_vmcoreinfo(v, "PAGESIZE", &val) >= 0) {
		if (parse_u64(val, &u))
			in.page_size = u;
		free(val);
	}
	if (vmcore_vmcoreinfo(v, "CRASHTIME", &val) >= 0) {
		if (parse_u64(val, &u) && u <= INT64_MAX)
			in.crashtime = u;
		free(val);
	}
	v->err[0] = '\0';
	*ret = in;
	return 0;
}

static int cpu_number(struct vmcore *v, unsigned int cpu, const char *name,
		      kdump_num_t *ret)
{
	char key[64];
	kdump_status st;

	snprintf(key, sizeof(key), "cpu.%u.%s", cpu, name);
	st = kdump_get_number_attr(v->ctx, key, ret);
	if (st != KDUMP_OK)
		return kfail(v, st, key);
	return 0;
}

int vmcore_get_cpu(struct vmcore *v, unsigned int cpu, struct vmcore_cpu *ret)
{
	struct vmcore_cpu c;
	kdump_num_t n, pid, rip, rsp, rbp;
	int r;

	if (kdump_get_number_attr(v->ctx, KDUMP_ATTR_NUM_CPUS, &n) !=
	    KDUMP_OK || cpu >= n)
		return fail(v, -ENODATA, "the dump has no registers for CPU %u",
			    cpu);
	r = cpu_number(v, cpu, "pid", &pid);
	if (r >= 0)
		r = cpu_number(v, cpu, "reg.rip", &rip);
	if (r >= 0)
		r = cpu_number(v, cpu, "reg.rsp", &rsp);
	if (r >= 0)
		r = cpu_number(v, cpu, "reg.rbp", &rbp);
	if (r < 0)
		return r;
	c.pid = (int32_t)pid;
	c.rip = rip;
	c.rsp = rsp;
	c.rbp = rbp;
	*ret = c;
	return 0;
}

int vmcore_get_segments(struct vmcore *v, const struct vmcore_segment **ret,
			size_t *ret_n)
{
	if (!v->is_elf)
		return fail(v, -ENOTSUP,
			    "program headers exist only in ELF dumps");
	*ret = v->segs;
	*ret_n = v->n_segs;
	return 0;
}
