// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the vmcore reader, vmcore*.c (on generated ELF cores:
 * valid, truncated, corrupt, absurd), report.c (parsers, crash signatures
 * and their SHA-256) and vmlinux.c. Run under ASan and UBSan by make
 * check. Every bad input must give a negative errno and a message, never
 * a crash.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen-core.h"
#include "report.h"
#include "tests.h"
#include "vmcore.h"
#include "vmlinux.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *verbose;

/* The case under way takes its inputs from these. */
static const uint8_t *cur_buf;
static size_t cur_len;
static int cur_expect;		/* expected errno, or 0 for "any" */
static const char *cur_words;	/* expected in the message, or NULL */

static int memfd_with(const void *buf, size_t len)
{
	int fd = memfd_create("test-vmcore", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (len && write(fd, buf, len) != (ssize_t)len) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Open (and validate, and use) @buf; returns the first negative errno and
 * its message in @d, or 0.
 */
static int try_core(const void *buf, size_t len, struct diag *d)
{
	struct vmcore_range *ranges;
	struct vmcore_info info;
	struct vmcore_cpu cpu;
	struct vmcore *v;
	size_t n;
	uint8_t page[64];
	int fd, r;
	unsigned int i;

	fd = memfd_with(buf, len);
	if (fd < 0)
		return -errno;
	r = vmcore_open_fd(fd, &v, d);
	close(fd);
	if (r < 0)
		return r;
	r = vmcore_validate(v, d);
	if (r < 0)
		goto out;
	/* Everything else must not crash either, whatever it returns. */
	(void)vmcore_get_info(v, &info);
	for (i = 0; i < info.n_cpus && i < 16; i++)
		(void)vmcore_get_cpu(v, i, &cpu, NULL);
	if (vmcore_get_ranges(v, VMCORE_MAP_RAM, &ranges, &n, NULL, NULL) >= 0)
		free(ranges);
	(void)vmcore_read_phys(v, 0x100000, page, sizeof(page), NULL, NULL);
out:
	vmcore_free(v);
	return r;
}

static void expect_failure(void *unused)
{
	struct diag d = DIAG_INIT;
	int r;

	(void)unused;
	r = try_core(cur_buf, cur_len, &d);
	if (verbose)
		printf("     -> %d: %s\n", r, diag_text(&d));
	CHECK(r < 0);
	if (cur_expect)
		CHECK(r == -cur_expect);
	CHECK(d.error == r);
	CHECK(d.msg[0] != '\0');
	if (cur_words)
		CHECK(strstr(d.msg, cur_words) != NULL);
}

static uint8_t *make_core(const struct gen_core_params *p, size_t *len,
			  struct gen_core_layout *lay)
{
	uint8_t *buf;

	if (gen_core(p, &buf, len, lay) < 0) {
		fprintf(stderr, "gen_core failed\n");
		exit(1);
	}
	return buf;
}

static uint8_t *default_core(size_t *len, struct gen_core_layout *lay)
{
	struct gen_core_params p;

	gen_core_default_params(&p);
	return make_core(&p, len, lay);
}

/* ---- valid cores ---- */

static void test_valid(void *unused)
{
	const struct vmcore_segment *segs;
	struct gen_core_layout lay;
	struct vmcore_range *r;
	struct vmcore_info in;
	struct vmcore_cpu c;
	struct vmcore *v;
	char path[] = "/tmp/test-vmcore.XXXXXX", *s;
	struct diag d = DIAG_INIT;
	uint8_t *core, buf[8192];
	uint64_t addrs[] = { 0x100000, 0x100001, 0x100ff8, 0x101000,
			     0x101ff0, 0x1000000, 0x1000abc };
	size_t len, n, done, i, j;
	uint64_t pages, at;
	int fd;

	(void)unused;
	core = default_core(&len, &lay);
	fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK(write(fd, core, len) == (ssize_t)len);
	close(fd);

	CHECK(vmcore_open(path, &v, &d) == 0);
	unlink(path);
	if (tests_case_failed())
		goto out;
	CHECK(vmcore_validate(v, NULL) == 0);
	CHECK(vmcore_get_info(v, &in) == 0);
	CHECK(!strcmp(in.format, "elf"));
	CHECK(!strcmp(in.arch, "x86_64"));
	CHECK(!strcmp(in.osrelease, "6.1.0-gen"));
	CHECK(in.has_vmcoreinfo);
	CHECK(in.page_size == 4096);
	CHECK(in.crashtime == 1700000000);
	CHECK(in.n_cpus == 2);
	CHECK(in.file_size == len);
	for (i = 0; i < 2; i++) {
		CHECK(vmcore_get_cpu(v, i, &c, NULL) == 0);
		CHECK(c.pid == (int32_t)GEN_CORE_PID(i));
		CHECK(c.rip == GEN_CORE_RIP(i));
		CHECK(c.rsp == GEN_CORE_RSP(i));
	}
	CHECK(vmcore_get_cpu(v, 2, &c, NULL) == -ENODATA);

	CHECK(vmcore_get_segments(v, &segs, &n) == 0);
	CHECK(n == 2);
	CHECK(segs[0].paddr == 0x100000 && segs[0].memsz == 0x2000);
	CHECK(segs[1].paddr == 0x1000000 && segs[1].offset == lay.load_off[1]);

	CHECK(vmcore_get_ranges(v, VMCORE_MAP_RAM, &r, &n, &pages, NULL) == 0);
	CHECK(n == 2 && pages == 3);
	if (n == 2) {
		CHECK(r[0].start == 0x100000 && r[0].end == 0x102000);
		CHECK(r[1].start == 0x1000000 && r[1].end == 0x1001000);
	}
	free(r);

	/* Physical reads at and across page boundaries. */
	for (i = 0; i < ARRAY_SIZE(addrs); i++) {
		size_t want = addrs[i] < 0x1000000 ?
			      0x102000 - addrs[i] : 0x1001000 - addrs[i];

		if (want > 64)
			want = 64;
		memset(buf, 0, sizeof(buf));
		CHECK(vmcore_read_phys(v, addrs[i], buf, want, NULL, NULL) ==
		      0);
		for (j = 0; j < want; j++)
			if (buf[j] != gen_core_byte(addrs[i] + j))
				break;
		CHECK(j == want);
	}
	CHECK(vmcore_read_phys(v, 0x100000, buf, 8192, NULL, NULL) == 0);
	CHECK(buf[8191] == gen_core_byte(0x101fff));

	/* Past the end of a segment: the part before it is returned. */
	CHECK(vmcore_read_phys(v, 0x101ff0, buf, 64, &done, &d) == -ENODATA);
	CHECK(done == 16);
	CHECK(strstr(diag_text(&d), "0x102000") != NULL);
	/* In a hole. */
	CHECK(vmcore_read_phys(v, 0x500000, buf, 16, &done, NULL) == -ENODATA);
	CHECK(done == 0);

	CHECK(vmcore_find_in_range(v, VMCORE_MAP_DUMPED, 0, 0x100000, &at,
				   NULL) == 0);
	CHECK(vmcore_find_in_range(v, VMCORE_MAP_DUMPED, 0, 0x100001, &at,
				   NULL) == 1);
	CHECK(at == 0x100000);
	CHECK(vmcore_find_in_range(v, VMCORE_MAP_RAM, 0x101800, 0x2000000,
				   &at, NULL) == 1);
	CHECK(at == 0x101800);
	CHECK(vmcore_find_in_range(v, VMCORE_MAP_RAM, 0x102000, 0x1000000,
				   &at, NULL) == 0);

	CHECK(vmcore_vmcoreinfo(v, "BUILD-ID", &s, NULL) == 0);
	if (!tests_case_failed()) {
		CHECK(!strcmp(s, "0123456789abcdef0123456789abcdef01234567"));
		free(s);
	}
	CHECK(vmcore_vmcoreinfo(v, "NO_SUCH_KEY", &s, NULL) == -ENODATA);
	vmcore_free(v);
out:
	free(core);
}

static void test_no_vmcoreinfo(void *unused)
{
	struct gen_core_params p;
	struct vmcore_info in;
	struct vmcore *v;
	struct diag d = DIAG_INIT;
	uint8_t *core;
	size_t len;
	int fd;

	(void)unused;
	gen_core_default_params(&p);
	p.vmcoreinfo = NULL;
	p.n_cpus = 0;
	core = make_core(&p, &len, NULL);
	fd = memfd_with(core, len);
	CHECK(vmcore_open_fd(fd, &v, &d) == 0);
	close(fd);
	if (!tests_case_failed()) {
		CHECK(vmcore_validate(v, &d) == 0);
		if (verbose)
			printf("     %s\n", diag_text(&d));
		CHECK(vmcore_get_info(v, &in) == 0);
		CHECK(!in.has_vmcoreinfo);
		CHECK(in.osrelease[0] == '\0');
		CHECK(in.page_size == 0 && in.crashtime == -1);
		CHECK(in.n_cpus == 0);
		vmcore_free(v);
	}
	free(core);
}

static void test_open_errors(void *unused)
{
	struct diag d = DIAG_INIT;
	struct vmcore *v;

	(void)unused;
	CHECK(vmcore_open("/nonexistent/vmcore", &v, &d) == -ENOENT);
	diag_clear(&d);
	CHECK(vmcore_open("/dev/null", &v, &d) == -EINVAL);
	CHECK(strstr(diag_text(&d), "regular") != NULL);
	CHECK(vmcore_open("/tmp", &v, NULL) < 0);
}

/* ---- broken cores ---- */

static void run_truncations(void)
{
	struct gen_core_layout lay;
	size_t len, cuts[16], n = 0, i;
	uint8_t *core = default_core(&len, &lay);

	cuts[n++] = 0;
	cuts[n++] = 1;
	cuts[n++] = 10;
	cuts[n++] = sizeof(Elf64_Ehdr) - 1;
	cuts[n++] = sizeof(Elf64_Ehdr);
	cuts[n++] = lay.phoff + sizeof(Elf64_Phdr) + 7;
	cuts[n++] = lay.note_off + 10;
	cuts[n++] = lay.note_off + lay.note_size - 1;
	cuts[n++] = lay.load_off[0];
	cuts[n++] = lay.load_off[0] + 100;
	cuts[n++] = lay.load_off[1];
	cuts[n++] = len - 1;
	for (i = 0; i < n; i++) {
		cur_buf = core;
		cur_len = cuts[i];
		cur_expect = EBADMSG;
		cur_words = cuts[i] ? "truncated" : "empty";
		tests_case(expect_failure, NULL,
			   "truncated at %zu of %zu bytes", cuts[i], len);
	}
	free(core);
}

/* A copy of the default core with one change, and its expected result. */
struct mutation {
	const char *name;
	void (*apply)(uint8_t *core, size_t *len,
		      const struct gen_core_layout *lay);
	int expect;
	const char *words;
};

static Elf64_Ehdr *ehdr(uint8_t *core)
{
	return (Elf64_Ehdr *)core;
}

static Elf64_Phdr *phdr(uint8_t *core, const struct gen_core_layout *lay,
			unsigned int i)
{
	return (Elf64_Phdr *)(core + lay->phoff) + i;
}

static Elf64_Nhdr *first_note(uint8_t *core, const struct gen_core_layout *lay)
{
	return (Elf64_Nhdr *)(core + lay->note_off);
}

#define MUT(fn, body)                                                      \
	static void fn(uint8_t *core, size_t *len,                         \
		       const struct gen_core_layout *lay)                  \
	{                                                                  \
		(void)core; (void)len; (void)lay;                          \
		body;                                                      \
	}

MUT(m_class32, ehdr(core)->e_ident[EI_CLASS] = ELFCLASS32)
MUT(m_bigendian, ehdr(core)->e_ident[EI_DATA] = ELFDATA2MSB)
MUT(m_exec, ehdr(core)->e_type = ET_EXEC)
MUT(m_i386, ehdr(core)->e_machine = EM_386)
MUT(m_aarch64, ehdr(core)->e_machine = EM_AARCH64)
MUT(m_phentsize, ehdr(core)->e_phentsize = 0)
MUT(m_phnum0, ehdr(core)->e_phnum = 0)
MUT(m_phnum_huge, ehdr(core)->e_phnum = 0xfffe)
MUT(m_phnum_xnum, ehdr(core)->e_phnum = PN_XNUM)
MUT(m_phoff_huge, ehdr(core)->e_phoff = 0xffffffffffffff00ULL)
MUT(m_phoff_eof, ehdr(core)->e_phoff = *len - 8)
MUT(m_load_filesz, phdr(core, lay, 1)->p_filesz = 1ULL << 40;
	phdr(core, lay, 1)->p_memsz = 1ULL << 40)
MUT(m_load_offset, phdr(core, lay, 2)->p_offset = *len)
MUT(m_load_filesz_gt_memsz, phdr(core, lay, 1)->p_filesz = 0x3000)
MUT(m_load_paddr_wrap, phdr(core, lay, 1)->p_paddr = 0xfffffffffffff000ULL)
MUT(m_load_offset_wrap,
	phdr(core, lay, 1)->p_offset = 0xfffffffffffff000ULL)
MUT(m_no_load, phdr(core, lay, 1)->p_type = PT_NULL;
	phdr(core, lay, 2)->p_type = PT_NULL)
MUT(m_no_note, phdr(core, lay, 0)->p_type = PT_NULL)
MUT(m_note_huge, phdr(core, lay, 0)->p_filesz = 1ULL << 62)
MUT(m_note_past_eof, phdr(core, lay, 0)->p_offset = *len - 16)
MUT(m_note_offset_wrap,
	phdr(core, lay, 0)->p_offset = 0xfffffffffffffff0ULL)
MUT(m_namesz_huge, first_note(core, lay)->n_namesz = 0xffffffff)
MUT(m_descsz_huge, first_note(core, lay)->n_descsz = 0xfffffffd)
MUT(m_descsz_past, first_note(core, lay)->n_descsz = lay->note_size)
MUT(m_vmcoreinfo_descsz,
	((Elf64_Nhdr *)(core + lay->vmcoreinfo_note_off))->n_descsz = 0x7ffffff0)
/* libkdumpfile 0.5.1 dereferenced NULL on this one (found by fuzzing) */
MUT(m_shoff_entsize0, ehdr(core)->e_shoff = 0x800000000000ULL;
	ehdr(core)->e_shentsize = 0)
MUT(m_shoff_past, ehdr(core)->e_shoff = *len + 100;
	ehdr(core)->e_shentsize = sizeof(Elf64_Shdr); ehdr(core)->e_shnum = 1)
MUT(m_shnum_huge, ehdr(core)->e_shoff = lay->load_off[0];
	ehdr(core)->e_shentsize = sizeof(Elf64_Shdr);
	ehdr(core)->e_shnum = 0xffff)
/* libkdumpfile 0.5.1 died of SIGSEGV on both (found by fuzzing) */
MUT(m_vmcoreinfo_dot, memcpy(core + lay->vmcoreinfo_note_off + 12 + 12,
			     ".SRELEASE", 9))
MUT(m_vmcoreinfo_nul, core[lay->vmcoreinfo_note_off + 12 + 12 + 3] = 0;
	core[lay->vmcoreinfo_note_off + 12 + 12 + 30] = 0xcf)
/* "PAGESIZE=" and NULs: libkdumpfile crashed in kdump_free() (fuzzing) */
MUT(m_pagesize_empty,
	memcpy(core + lay->vmcoreinfo_note_off + 24 + 79, "    ", 4))
MUT(m_pagesize_8192,
	memcpy(core + lay->vmcoreinfo_note_off + 24 + 79, "8192", 4))
/* "PAGESIZE" without '=': libkdumpfile asked malloc() for 2^63 bytes */
MUT(m_pagesize_noeq,
	memcpy(core + lay->vmcoreinfo_note_off + 24 + 78, "\n\n\n\n\n", 5))
MUT(m_bad_magic, core[0] = 0)
MUT(m_flattened, memcpy(core, "makedumpfile\0\0\0\0", 16))
MUT(m_kdump_garbage, memcpy(core, "KDUMP   ", 8))
MUT(m_diskdump_short, memcpy(core, "DISKDUMP", 8); *len = 64)

static const struct mutation mutations[] = {
	{ "ELFCLASS32", m_class32, ENOTSUP, "64-bit" },
	{ "big-endian", m_bigendian, ENOTSUP, "little-endian" },
	{ "e_type ET_EXEC", m_exec, EBADMSG, "not a core" },
	{ "e_machine EM_386", m_i386, ENOTSUP, "x86_64" },
	{ "e_machine EM_AARCH64", m_aarch64, ENOTSUP, "x86_64" },
	{ "e_phentsize 0", m_phentsize, EBADMSG, "program header size" },
	{ "e_phnum 0", m_phnum0, EBADMSG, "no program headers" },
	{ "e_phnum 0xfffe", m_phnum_huge, EBADMSG, "truncated" },
	{ "e_phnum PN_XNUM without sections", m_phnum_xnum, EBADMSG,
	  "PN_XNUM" },
	{ "e_phoff near 2^64", m_phoff_huge, EBADMSG, "truncated" },
	{ "e_phoff at end of file", m_phoff_eof, EBADMSG, "truncated" },
	{ "PT_LOAD p_filesz 1 TiB", m_load_filesz, EBADMSG, "truncated" },
	{ "PT_LOAD p_offset at end of file", m_load_offset, EBADMSG,
	  "truncated" },
	{ "PT_LOAD p_filesz > p_memsz", m_load_filesz_gt_memsz, EBADMSG,
	  "corrupt program header" },
	{ "PT_LOAD p_paddr + p_memsz wraps", m_load_paddr_wrap, EBADMSG,
	  "corrupt program header" },
	{ "PT_LOAD p_offset + p_filesz wraps", m_load_offset_wrap, EBADMSG,
	  "corrupt program header" },
	{ "no PT_LOAD", m_no_load, EBADMSG, "no PT_LOAD" },
	{ "no PT_NOTE", m_no_note, EBADMSG, "no PT_NOTE" },
	{ "PT_NOTE p_filesz 2^62", m_note_huge, EBADMSG, "absurd" },
	{ "PT_NOTE past end of file", m_note_past_eof, EBADMSG, "truncated" },
	{ "PT_NOTE p_offset wraps", m_note_offset_wrap, EBADMSG,
	  "truncated" },
	{ "note n_namesz 0xffffffff", m_namesz_huge, EBADMSG, "corrupt note" },
	{ "note n_descsz 0xfffffffd (overflows when aligned)",
	  m_descsz_huge, EBADMSG, "corrupt note" },
	{ "note n_descsz past segment", m_descsz_past, EBADMSG,
	  "corrupt note" },
	{ "VMCOREINFO n_descsz 2 GiB", m_vmcoreinfo_descsz, EBADMSG,
	  "corrupt note" },
	{ "e_shoff set, e_shentsize 0", m_shoff_entsize0, EBADMSG,
	  "section header size" },
	{ "e_shoff past end of file", m_shoff_past, EBADMSG, "truncated" },
	{ "e_shnum 0xffff", m_shnum_huge, EBADMSG, "truncated" },
	{ "VMCOREINFO line starting with '.'", m_vmcoreinfo_dot, EBADMSG,
	  "starts with '.'" },
	{ "VMCOREINFO with binary bytes", m_vmcoreinfo_nul, EBADMSG,
	  "not text" },
	{ "VMCOREINFO PAGESIZE= empty", m_pagesize_empty, EBADMSG,
	  "PAGESIZE" },
	{ "VMCOREINFO PAGESIZE=8192", m_pagesize_8192, EBADMSG,
	  "PAGESIZE" },
	{ "VMCOREINFO PAGESIZE without '='", m_pagesize_noeq, EBADMSG,
	  "PAGESIZE" },
	{ "no signature", m_bad_magic, EPROTONOSUPPORT, "not a kernel dump" },
	{ "flattened format", m_flattened, ENOTSUP, "makedumpfile -R" },
	{ "KDUMP signature, garbage header", m_kdump_garbage, 0, NULL },
	{ "DISKDUMP signature, 64 bytes", m_diskdump_short, 0, NULL },
};

static void run_mutations(void)
{
	struct gen_core_layout lay;
	size_t len, n, i;
	uint8_t *core = default_core(&len, &lay), *copy;

	for (i = 0; i < ARRAY_SIZE(mutations); i++) {
		copy = malloc(len);
		memcpy(copy, core, len);
		n = len;
		mutations[i].apply(copy, &n, &lay);
		cur_buf = copy;
		cur_len = n;
		cur_expect = mutations[i].expect;
		cur_words = mutations[i].words;
		tests_case(expect_failure, NULL, "corrupt: %s",
			   mutations[i].name);
		free(copy);
	}
	free(core);
}

/* ---- makedumpfile kdump (diskdump) files ---- */

static uint8_t *default_diskdump(size_t *len)
{
	struct gen_core_params p;
	uint8_t *buf;

	gen_core_default_params(&p);
	if (gen_diskdump(&p, &buf, len) < 0) {
		fprintf(stderr, "gen_diskdump failed\n");
		exit(1);
	}
	return buf;
}

static void test_diskdump(void *unused)
{
	struct vmcore_range *r;
	struct vmcore_info in;
	struct vmcore_cpu c;
	struct vmcore *v;
	struct diag d = DIAG_INIT;
	uint8_t *dd, buf[64];
	size_t len, n, i;
	int fd;

	(void)unused;
	dd = default_diskdump(&len);
	fd = memfd_with(dd, len);
	CHECK(vmcore_open_fd(fd, &v, &d) == 0);
	close(fd);
	free(dd);
	if (tests_case_failed()) {
		printf("     %s\n", diag_text(&d));
		return;
	}
	CHECK(vmcore_validate(v, NULL) == 0);
	CHECK(vmcore_get_info(v, &in) == 0);
	CHECK(!strcmp(in.format, "diskdump"));
	CHECK(!strcmp(in.osrelease, "6.1.0-gen"));
	CHECK(!strcmp(in.nodename, "gen"));
	CHECK(in.crashtime == 1700000000 && in.page_size == 4096);
	CHECK(in.n_cpus == 2);
	CHECK(vmcore_get_cpu(v, 1, &c, NULL) == 0);
	CHECK(c.rip == GEN_CORE_RIP(1) && c.pid == (int32_t)GEN_CORE_PID(1));
	CHECK(vmcore_get_ranges(v, VMCORE_MAP_DUMPED, &r, &n, NULL, NULL) == 0);
	CHECK(n == 2 && r[0].start == 0x100000 && r[1].end == 0x1001000);
	free(r);
	CHECK(vmcore_get_ranges(v, VMCORE_MAP_RAM, &r, &n, NULL, NULL) == 0);
	CHECK(n == 2 && r[0].start == 0x100000 && r[1].end == 0x1001000);
	free(r);
	CHECK(vmcore_read_phys(v, 0x101fe0, buf, 32, NULL, NULL) == 0);
	for (i = 0; i < 32; i++)
		if (buf[i] != gen_core_byte(0x101fe0 + i))
			break;
	CHECK(i == 32);
	CHECK(vmcore_read_phys(v, 0x102000, buf, 1, NULL, NULL) == -ENODATA);
	vmcore_free(v);
}

/* Cut in the last page: the pages before it still read, it does not. */
static void test_diskdump_cut(void *unused)
{
	struct diag d = DIAG_INIT;
	struct vmcore *v;
	uint8_t *dd, buf[32];
	size_t len, done;
	int fd;

	(void)unused;
	dd = default_diskdump(&len);
	fd = memfd_with(dd, len - 100);
	CHECK(vmcore_open_fd(fd, &v, &d) == 0);
	close(fd);
	free(dd);
	if (tests_case_failed())
		return;
	CHECK(vmcore_validate(v, NULL) == -EBADMSG);
	CHECK(vmcore_read_phys(v, 0x101ff0, buf, 16, NULL, NULL) == 0);
	CHECK(buf[0] == gen_core_byte(0x101ff0));
	CHECK(vmcore_read_phys(v, 0x1000000, buf, 16, NULL, &d) == -EBADMSG);
	CHECK(strstr(diag_text(&d), "dumped page 3") != NULL);
	CHECK(vmcore_read_phys(v, 0x101ff0, buf, 32, &done, NULL) == -ENODATA);
	CHECK(done == 16);
	vmcore_free(v);
}

/* ELF cut in a segment: its data before the cut reads, after it not. */
static void test_elf_cut(void *unused)
{
	struct gen_core_layout lay;
	struct diag d = DIAG_INIT;
	struct vmcore *v;
	uint8_t *core, buf[64];
	size_t len, done;
	int fd;

	(void)unused;
	core = default_core(&len, &lay);
	fd = memfd_with(core, lay.load_off[0] + 0x1800);
	CHECK(vmcore_open_fd(fd, &v, &d) == 0);
	close(fd);
	free(core);
	if (tests_case_failed())
		return;
	CHECK(vmcore_validate(v, NULL) == -EBADMSG);
	CHECK(vmcore_read_phys(v, 0x1017f0, buf, 16, NULL, NULL) == 0);
	CHECK(buf[15] == gen_core_byte(0x1017ff));
	CHECK(vmcore_read_phys(v, 0x1017f0, buf, 64, &done, &d) == -EBADMSG);
	CHECK(done == 16);
	CHECK(strstr(diag_text(&d), "0x101800 is not read") != NULL);
	CHECK(vmcore_read_phys(v, 0x1000000, buf, 16, NULL, NULL) == -EBADMSG);
	vmcore_free(v);
}

static void run_diskdump_breakage(void)
{
	size_t len, i;
	uint8_t *dd = default_diskdump(&len), *copy;
	const struct {
		const char *name;
		size_t cut;		/* truncate here, or 0 */
		size_t off;		/* else poke @val at @off */
		uint64_t val;
		unsigned int width;
		int expect;
		const char *words;
	} cases[] = {
		{ "truncated in the header", 300, 0, 0, 0, EBADMSG,
		  "truncated" },
		{ "truncated in the sub-header", 4200, 0, 0, 0, EBADMSG,
		  "truncated" },
		{ "truncated in the bitmaps", 3 * 4096, 0, 0, 0, EBADMSG,
		  "truncated" },
		{ "truncated in the page descriptors", 4 * 4096 + 30, 0, 0, 0,
		  EBADMSG, NULL },
		{ "truncated in the last page", len - 100, 0, 0, 0, EBADMSG,
		  "truncated" },
		{ "machine is not x86_64", 0, 12 + 4 * 65, 'i', 1, ENOTSUP,
		  "x86_64" },
		{ "block size 0", 0, 428, 0, 4, EBADMSG, "block size" },
		{ "block size 3000", 0, 428, 3000, 4, EBADMSG, "block size" },
		{ "bitmap blocks 2^31", 0, 436, 1U << 31, 4, EBADMSG,
		  "truncated" },
		{ "sub-header size -1", 0, 432, 0xffffffff, 4, EBADMSG,
		  "sub-header size" },
		{ "VMCOREINFO offset past the end", 0, 4096 + 32, 1ULL << 40,
		  8, EBADMSG, "VMCOREINFO" },
		{ "note size 2^63", 0, 4096 + 56, 1ULL << 63, 8, EBADMSG,
		  "ELF notes" },
		{ "page descriptor offset past the end", 0, 4 * 4096 + 48,
		  1ULL << 40, 8, 0, NULL },
		{ "page descriptor size 1 MiB", 0, 4 * 4096 + 8 + 48, 1 << 20,
		  4, 0, NULL },
		/*
		 * LZO-compressed (flags 2), 8 KiB: libkdumpfile 0.5.1 reads
		 * that into a 4 KiB buffer (found by fuzzing)
		 */
		{ "compressed page of 8 KiB", 0, 4 * 4096 + 8,
		  ((uint64_t)2 << 32) | 8192, 8, EBADMSG, "dumped page 1" },
	};

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		copy = malloc(len);
		memcpy(copy, dd, len);
		cur_len = len;
		if (cases[i].cut)
			cur_len = cases[i].cut;
		else
			memcpy(copy + cases[i].off, &cases[i].val,
			       cases[i].width);
		cur_buf = copy;
		cur_expect = cases[i].expect;
		cur_words = cases[i].words;
		tests_case(expect_failure, NULL, "kdump file: %s",
			   cases[i].name);
		free(copy);
	}
	free(dd);
}

/* A short NT_PRSTATUS: libkdumpfile refuses it; we must not crash. */
static void test_short_prstatus(void *unused)
{
	struct gen_core_layout lay;
	struct diag d = DIAG_INIT;
	size_t len;
	uint8_t *core = default_core(&len, &lay);

	(void)unused;
	first_note(core, &lay)->n_descsz = 16;
	/* the rest of that note now reads as garbage notes: any result */
	(void)try_core(core, len, &d);
	free(core);
}

/* ---- sha256 ---- */

/* The FIPS 180-4 examples, through report.c's wrapper of libcrypto. */
static void test_sha256(void *unused)
{
	char hex[65];
	char *million;

	(void)unused;
	CHECK(report_sha256_hex("", 0, hex, 32) == 0);
	CHECK(!strcmp(hex, "e3b0c44298fc1c149afbf4c8996fb924"
			   "27ae41e4649b934ca495991b7852b855"));
	CHECK(report_sha256_hex("abc", 3, hex, 32) == 0);
	CHECK(!strcmp(hex, "ba7816bf8f01cfea414140de5dae2223"
			   "b00361a396177a9cb410ff61f20015ad"));
	CHECK(report_sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklm"
				"nlmnomnopnopq", 56, hex, 32) == 0);
	CHECK(!strcmp(hex, "248d6a61d20638b8e5c026930c3e6039"
			   "a33ce45964ff2167f6ecedd419db06c1"));
	/* one million 'a': many blocks in one call */
	million = malloc(1000000);
	CHECK(million != NULL);
	if (million) {
		memset(million, 'a', 1000000);
		CHECK(report_sha256_hex(million, 1000000, hex, 32) == 0);
		CHECK(!strcmp(hex, "cdc76e5c9914fb9281a1c7e284d73e67"
				   "f1809a48a497200e046d39ccc7112cd0"));
		free(million);
	}
	/* a signature's 16 digits: the first 8 bytes */
	CHECK(report_sha256_hex("abc", 3, hex, 8) == 0);
	CHECK(!strcmp(hex, "ba7816bf8f01cfea"));
	/* more than the digest: its 32 bytes */
	CHECK(report_sha256_hex("abc", 3, hex, 40) == 0);
	CHECK(strlen(hex) == 64);
}

/* ---- signatures ---- */

static void test_normalize(void *unused)
{
	char a[256], b[256];

	(void)unused;
	report_normalize("[   12.345678] Kernel panic - not syncing: sysrq "
			 "triggered crash", a, sizeof(a));
	CHECK(!strcmp(a, "Kernel panic - not syncing: sysrq triggered crash"));
	report_normalize("\"Kernel panic - not syncing: sysrq triggered "
			 "crash\"", b, sizeof(b));
	CHECK(!strcmp(a, b));

	report_normalize("BUG: unable to handle page fault for address: "
			 "ffffc90000abc000", a, sizeof(a));
	report_normalize("BUG: unable to handle page fault for address: "
			 "ffff88800123f008", b, sizeof(b));
	CHECK(!strcmp(a, b));
	CHECK(!strcmp(a, "BUG: unable to handle page fault for address: #"));

	report_normalize("Kernel panic - not syncing: hung_task: blocked "
			 "tasks (pid 1234, cpu 1, 0x1f)", a, sizeof(a));
	report_normalize("Kernel panic - not syncing: hung_task:  blocked "
			 "tasks (pid 77, cpu 0, 0xdead10cc)", b, sizeof(b));
	CHECK(!strcmp(a, b));

	/* words that look a little like numbers stay */
	report_normalize("ext4 dead x86 cafe", a, sizeof(a));
	CHECK(!strcmp(a, "ext4 dead x86 cafe"));

	report_frame_name("? sysrq_handle_crash.cold+0x16/0x20", a, sizeof(a));
	CHECK(!strcmp(a, "sysrq_handle_crash"));
	report_frame_name(" __handle_sysrq+0x9b/0x180", a, sizeof(a));
	CHECK(!strcmp(a, "__handle_sysrq"));
	report_frame_name("machine_kexec at ffffffff8105f06e", a, sizeof(a));
	CHECK(!strcmp(a, "machine_kexec"));
	report_normalize("x", a, 1);
	CHECK(a[0] == '\0');
}

/* crash 8.0.2's output for "sys", "bt", "log | tail" and "ps -S". */
static const char crash_out_a[] =
	"      KERNEL: /var/tmp/vmlinux\n"
	"    DUMPFILE: /var/tmp/dump/vmcore  [PARTIAL DUMP]\n"
	"        CPUS: 2\n"
	"        DATE: Tue Mar  5 10:11:12 UTC 2024\n"
	"      UPTIME: 00:00:14\n"
	"LOAD AVERAGE: 0.08, 0.02, 0.01\n"
	"       TASKS: 92\n"
	"    NODENAME: guest\n"
	"     RELEASE: 6.1.192\n"
	"     VERSION: #1 SMP PREEMPT_DYNAMIC Mon Mar  4 10:00:00 UTC 2024\n"
	"     MACHINE: x86_64  (2994 Mhz)\n"
	"      MEMORY: 1 GB\n"
	"       PANIC: \"Kernel panic - not syncing: sysrq triggered crash\"\n"
	"PID: 245      TASK: ffff888003e8c000  CPU: 1    COMMAND: \"bash\"\n"
	" #0 [ffffc900001c7d58] machine_kexec at ffffffff8105f06e\n"
	" #1 [ffffc900001c7db0] __crash_kexec at ffffffff81125cba\n"
	" #2 [ffffc900001c7e70] panic at ffffffff81a3c5f5\n"
	" #3 [ffffc900001c7ef0] sysrq_handle_crash at ffffffff8171a8f6\n"
	" #4 [ffffc900001c7ef8] __handle_sysrq.cold at ffffffff81a4a9f9\n"
	" #5 [ffffc900001c7f28] write_sysrq_trigger at ffffffff8171b0e4\n"
	" #6 [ffffc900001c7f38] proc_reg_write at ffffffff81331c2e\n"
	" #7 [ffffc900001c7f50] vfs_write at ffffffff812a4ab6\n"
	" #8 [ffffc900001c7f80] ksys_write at ffffffff812a4e5f\n"
	" #9 [ffffc900001c7fa0] do_syscall_64 at ffffffff81a7f8f8\n"
	"#10 [ffffc900001c7fd0] entry_SYSCALL_64_after_hwframe at "
	"ffffffff81c0009b\n"
	"    RIP: 00007f2d1f6e0a37  RSP: 00007ffd7a6a13a8  RFLAGS: 00000246\n"
	"    ORIG_RAX: 0000000000000001  CS: 0033  SS: 002b\n"
	"[   14.201000] sysrq: Trigger a crash\n"
	"[   14.201333] Kernel panic - not syncing: sysrq triggered crash\n"
	"[   14.202000] CPU: 1 PID: 245 Comm: bash Not tainted 6.1.192 #1\n"
	"[   14.202100] Call Trace:\n"
	"[   14.202200]  <TASK>\n"
	"[   14.202300]  dump_stack_lvl+0x44/0x5c\n"
	"[   14.202400]  panic+0x118/0x2f0\n"
	"[   14.202500]  ? _printk+0x58/0x73\n"
	"[   14.202600]  sysrq_handle_crash+0x16/0x20\n"
	"[   14.202700]  __handle_sysrq.cold+0x43/0x11b\n"
	"[   14.202800]  write_sysrq_trigger+0x24/0x40\n"
	"[   14.202900]  proc_reg_write+0x56/0xa0\n"
	"[   14.203000]  vfs_write+0xc6/0x3d0\n"
	"[   14.203100]  ksys_write+0x5f/0xe0\n"
	"[   14.203200]  do_syscall_64+0x58/0xc0\n"
	"[   14.203300]  entry_SYSCALL_64_after_hwframe+0x64/0xce\n"
	"[   14.203400]  </TASK>\n"
	"  RU: 3\n"
	"  IN: 60\n"
	"  ID: 29\n";

/* The same crash, another boot: other addresses, PID, CPU and times. */
static const char crash_out_b[] =
	"      UPTIME: 01:02:03\n"
	"     RELEASE: 6.1.192\n"
	"       PANIC: \"Kernel panic - not syncing: sysrq triggered crash\"\n"
	"PID: 1017     TASK: ffff88800a1b2c00  CPU: 0    COMMAND: \"sh\"\n"
	" #0 [ffffc90000437d58] machine_kexec at ffffffff8305f06e\n"
	" #1 [ffffc90000437db0] __crash_kexec at ffffffff83125cba\n"
	" #2 [ffffc90000437e70] panic at ffffffff83a3c5f5\n"
	" #3 [ffffc90000437ef0] sysrq_handle_crash at ffffffff8371a8f6\n"
	" #4 [ffffc90000437ef8] __handle_sysrq.cold at ffffffff83a4a9f9\n"
	" #5 [ffffc90000437f28] write_sysrq_trigger at ffffffff8371b0e4\n"
	" #6 [ffffc90000437f38] proc_reg_write at ffffffff83331c2e\n"
	" #7 [ffffc90000437f50] vfs_write at ffffffff832a4ab6\n"
	"\n"
	"[ 3723.000001] Kernel panic - not syncing: sysrq triggered crash\n";

/* Another kind of crash: a NULL pointer oops with panic_on_oops. */
static const char crash_out_c[] =
	"       PANIC: \"Oops: 0002 [#1] PREEMPT SMP NOPTI\"\n"
	"PID: 880      TASK: ffff888004a3c000  CPU: 0    COMMAND: \"insmod\"\n"
	" #0 [ffffc90000a3f9f8] machine_kexec at ffffffff8105f06e\n"
	" #1 [ffffc90000a3fa50] __crash_kexec at ffffffff81125cba\n"
	" #2 [ffffc90000a3fb10] crash_kexec at ffffffff81126d6d\n"
	" #3 [ffffc90000a3fb20] oops_end at ffffffff810287a9\n"
	" #4 [ffffc90000a3fb40] page_fault_oops at ffffffff810713d6\n"
	" #5 [ffffc90000a3fb98] exc_page_fault at ffffffff81a7f4b6\n"
	" #6 [ffffc90000a3fbc0] asm_exc_page_fault at ffffffff81c00b62\n"
	"    [exception RIP: broken_init+17]\n"
	"    RIP: ffffffffc0350011  RSP: ffffc90000a3fc78  RFLAGS: 00010246\n"
	" #7 [ffffc90000a3fc70] do_one_initcall at ffffffff81000e36\n"
	" #8 [ffffc90000a3fd48] do_init_module at ffffffff81123f4c\n"
	"\n"
	"[   30.100000] BUG: kernel NULL pointer dereference, address: "
	"0000000000000000\n"
	"[   30.100500] Oops: 0002 [#1] PREEMPT SMP NOPTI\n"
	"[   30.100600] CPU: 0 PID: 880 Comm: insmod Tainted: G           O "
	"      6.1.192 #1\n"
	"[   30.101000] Kernel panic - not syncing: Fatal exception\n";

/* makedumpfile --dump-dmesg of crash A: the kernel log alone. */
static const char dmesg_a[] =
	"[    0.000000] Linux version 6.1.192 (root@build) (gcc (Debian "
	"12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP "
	"PREEMPT_DYNAMIC\n"
	"[   14.201000] sysrq: Trigger a crash\n"
	"[   14.201333] Kernel panic - not syncing: sysrq triggered crash\n"
	"[   14.202000] CPU: 1 PID: 245 Comm: bash Not tainted 6.1.192 #1\n"
	"[   14.202050] Hardware name: QEMU Standard PC (i440FX + PIIX, 1996)\n"
	"[   14.202100] Call Trace:\n"
	"[   14.202200]  <TASK>\n"
	"[   14.202300]  dump_stack_lvl+0x44/0x5c\n"
	"[   14.202400]  panic+0x118/0x2f0\n"
	"[   14.202500]  ? _printk+0x58/0x73\n"
	"[   14.202600]  sysrq_handle_crash+0x16/0x20\n"
	"[   14.202700]  __handle_sysrq.cold+0x43/0x11b\n"
	"[   14.202800]  write_sysrq_trigger+0x24/0x40\n"
	"[   14.202900]  proc_reg_write+0x56/0xa0\n"
	"[   14.203000]  vfs_write+0xc6/0x3d0\n"
	"[   14.203400]  </TASK>\n"
	"[   14.203500] Kernel Offset: disabled\n";

/* An oops in the log: the trace is before the panic line. */
static const char dmesg_c[] =
	"[   30.100000] BUG: kernel NULL pointer dereference, address: "
	"0000000000000000\n"
	"[   30.100500] Oops: 0002 [#1] PREEMPT SMP NOPTI\n"
	"[   30.100600] CPU: 0 PID: 880 Comm: insmod Tainted: G           O "
	"      6.1.192 #1\n"
	"[   30.100700] RIP: 0010:broken_init+0x11/0x1000 [broken]\n"
	"[   30.100800] Call Trace:\n"
	"[   30.100900]  <TASK>\n"
	"[   30.101000]  do_one_initcall+0x56/0x220\n"
	"[   30.101100]  do_init_module+0x4c/0x1f0\n"
	"[   30.101200]  </TASK>\n"
	"[   30.101300] Kernel panic - not syncing: Fatal exception\n";

static void test_parse_crash(void *unused)
{
	struct crash_report r;

	(void)unused;
	report_init(&r, "crash");
	CHECK(report_parse_crash(&r, crash_out_a) == 0);
	CHECK(!strcmp(r.panic, "Kernel panic - not syncing: sysrq triggered "
		      "crash"));
	CHECK(!strcmp(r.command, "bash"));
	CHECK(r.pid == 245);
	CHECK(r.cpu == 1);
	CHECK(!strcmp(r.release, "6.1.192"));
	CHECK(!strcmp(r.uptime, "00:00:14"));
	CHECK(!strcmp(r.taint, "Not tainted"));
	CHECK(r.n_frames == 11);
	CHECK(!strcmp(r.frames[0], "machine_kexec"));
	CHECK(!strcmp(r.frames[3], "sysrq_handle_crash"));
	CHECK(!strcmp(r.frames[4], "__handle_sysrq"));
	CHECK(r.n_states == 3);
	CHECK(!strcmp(r.states[1].name, "IN") && r.states[1].count == 60);
	CHECK(report_sign(&r) == 0);
	CHECK(strlen(r.signature) == 16);
	CHECK(r.n_sig_frames == 5);
	CHECK(!strcmp(r.sig_frames[0], "sysrq_handle_crash"));
	CHECK(!strcmp(r.sig_frames[4], "vfs_write"));
}

static void test_signatures(void *unused)
{
	struct crash_report a, b, c, d, e;

	(void)unused;
	report_init(&a, "crash");
	report_init(&b, "crash");
	report_init(&c, "crash");
	report_init(&d, "dmesg");
	report_init(&e, "dmesg");
	CHECK(report_parse_crash(&a, crash_out_a) == 0);
	CHECK(report_parse_crash(&b, crash_out_b) == 0);
	CHECK(report_parse_crash(&c, crash_out_c) == 0);
	CHECK(report_parse_log(&d, dmesg_a) == 0);
	CHECK(report_parse_log(&e, dmesg_c) == 0);
	CHECK(report_sign(&a) == 0);
	CHECK(report_sign(&b) == 0);
	CHECK(report_sign(&c) == 0);
	CHECK(report_sign(&d) == 0);
	CHECK(report_sign(&e) == 0);
	if (verbose)
		printf("     a %s b %s c %s d %s e %s\n", a.signature,
		       b.signature, c.signature, d.signature, e.signature);

	/* signatures are kept in users' records: they never change */
	CHECK(!strcmp(a.signature, "4cb5dae5b0075c08"));
	CHECK(!strcmp(c.signature, "346629c1e36212b8"));

	/* same crash, other addresses, PIDs, CPU, uptime: same signature */
	CHECK(b.pid == 1017 && b.cpu == 0);
	CHECK(!strcmp(a.signature, b.signature));
	/* the kernel log alone gives the same signature as crash */
	CHECK(!strcmp(a.signature, d.signature));
	CHECK(!strcmp(d.command, "bash") && d.pid == 245 && d.cpu == 1);
	CHECK(!strcmp(d.release, "6.1.192"));
	CHECK(!strcmp(d.uptime, "14.201333 s"));
	/* a different panic: a different signature */
	CHECK(strcmp(a.signature, c.signature));
	CHECK(!strcmp(c.panic, "Kernel panic - not syncing: Fatal exception"));
	CHECK(!strncmp(c.oops, "BUG: kernel NULL pointer dereference", 36));
	CHECK(!strcmp(c.sig_frames[0], "broken_init"));
	CHECK(!strcmp(c.taint, "Tainted: G O"));
	CHECK(!strcmp(e.sig_frames[0], "broken_init"));
	CHECK(!strcmp(e.sig_frames[1], "do_one_initcall"));
	CHECK(!strcmp(c.signature, e.signature));
	CHECK(!strcmp(e.command, "insmod") && e.pid == 880);

	/* same frames, other panic text: different */
	snprintf(b.panic, sizeof(b.panic),
		 "Kernel panic - not syncing: Attempted to kill init!");
	CHECK(report_sign(&b) == 0);
	CHECK(strcmp(a.signature, b.signature));

	/* nothing useful */
	report_init(&a, "crash");
	CHECK(report_parse_crash(&a, "crash: cannot open vmlinux\n") ==
	      -ENODATA);
	report_init(&a, "dmesg");
	CHECK(report_parse_log(&a, "") == -ENODATA);
	CHECK(report_sign(&a) == 0);
	CHECK(strlen(a.signature) == 16);
}

/* ---- vmlinux ---- */

/* An ELF64 file with sections .text, .rodata (holding @rodata), .shstrtab. */
static void write_fake_vmlinux(const char *path, const char *rodata,
			       size_t rlen, bool sections)
{
	static const char shstr[] = "\0.text\0.rodata\0.shstrtab";
	Elf64_Ehdr eh = { 0 };
	Elf64_Shdr sh[4] = { 0 };
	size_t ro_off = 0x200, str_off = ro_off + rlen;
	size_t sh_off = (str_off + sizeof(shstr) + 7) & ~(size_t)7;
	FILE *f = fopen(path, "w");

	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_type = ET_EXEC;
	eh.e_machine = EM_X86_64;
	eh.e_ehsize = sizeof(eh);
	if (sections) {
		eh.e_shoff = sh_off;
		eh.e_shentsize = sizeof(Elf64_Shdr);
		eh.e_shnum = 4;
		eh.e_shstrndx = 3;
	}
	sh[1].sh_name = 1;
	sh[1].sh_type = SHT_PROGBITS;
	sh[1].sh_offset = 0x100;
	sh[1].sh_size = 0x20;
	sh[2].sh_name = 7;
	sh[2].sh_type = SHT_PROGBITS;
	sh[2].sh_offset = ro_off;
	sh[2].sh_size = rlen;
	sh[3].sh_name = 15;
	sh[3].sh_type = SHT_STRTAB;
	sh[3].sh_offset = str_off;
	sh[3].sh_size = sizeof(shstr);
	fwrite(&eh, sizeof(eh), 1, f);
	fseek(f, 0x100, SEEK_SET);
	/* in .text, not .rodata: must not be taken when sections exist */
	fputs("Linux version 9.9.9 (decoy) ", f);
	fseek(f, ro_off, SEEK_SET);
	fwrite(rodata, rlen, 1, f);
	fwrite(shstr, sizeof(shstr), 1, f);
	fseek(f, sh_off, SEEK_SET);
	fwrite(sh, sizeof(sh), 1, f);
	fclose(f);
}

static void test_vmlinux(void *unused)
{
	char dir[] = "/tmp/test-vmlinux.XXXXXX", path[512], rel[65];
	struct diag d = DIAG_INIT;
	char found[512];
	FILE *f;

	(void)unused;
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/vmlinux", dir);

	static const char banner[] = "%s version %s\0Linux version %s\0"
		"Linux version 6.1.192 (debian-kernel@lists.debian.org) "
		"(gcc-12 (Debian 12.2.0-14) 12.2.0) #1 SMP PREEMPT_DYNAMIC "
		"Debian 6.1.192-1\n";
	static const char plain[] = "Linux version 6.1.0-gen (x@y) #1\n";

	write_fake_vmlinux(path, banner, sizeof(banner), true);
	CHECK(vmlinux_release(path, rel, sizeof(rel), NULL) == 0);
	CHECK(!strcmp(rel, "6.1.192"));

	/* no section headers: the whole file is scanned, first banner wins */
	write_fake_vmlinux(path, plain, sizeof(plain), false);
	CHECK(vmlinux_release(path, rel, sizeof(rel), NULL) == 0);
	CHECK(!strcmp(rel, "9.9.9"));

	write_fake_vmlinux(path, "no banner here", 15, true);
	CHECK(vmlinux_release(path, rel, sizeof(rel), &d) == -ENOENT);
	CHECK(strstr(diag_text(&d), "banner") != NULL);

	f = fopen(path, "w");
	fputs("\x1f\x8b compressed, not ELF", f);
	fclose(f);
	CHECK(vmlinux_release(path, rel, sizeof(rel), NULL) == -ENOEXEC);
	CHECK(vmlinux_release("/nonexistent", rel, sizeof(rel), NULL) ==
	      -ENOENT);
	unlink(path);

	/* discovery in Debian's places, under a test root */
	CHECK(vmlinux_find(dir, "6.1.192", found, sizeof(found)) == -ENOENT);
	snprintf(path, sizeof(path), "%s/boot", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/boot/vmlinux-6.1.192", dir);
	f = fopen(path, "w");
	fclose(f);
	CHECK(vmlinux_find(dir, "6.1.192", found, sizeof(found)) == 2);
	CHECK(!strcmp(found, path));
	CHECK(vmlinux_find(dir, "../../etc", found, sizeof(found)) == -ENOENT);
	unlink(path);
	snprintf(path, sizeof(path), "%s/boot", dir);
	rmdir(path);
	rmdir(dir);
}

static void test_case(void (*fn)(void *), const char *name)
{
	tests_case(fn, NULL, "%s", name);
}

int main(void)
{
	verbose = getenv("TEST_VERBOSE");

	test_case(test_valid, "valid core: facts, registers, layout, reads");
	test_case(test_no_vmcoreinfo, "core without VMCOREINFO or CPUs");
	test_case(test_open_errors, "open: missing file, device, directory");
	run_truncations();
	run_mutations();
	test_case(test_diskdump, "valid kdump file: facts, registers, reads");
	run_diskdump_breakage();
	test_case(test_elf_cut, "ELF core cut in a segment: data before the "
		  "cut reads, after it is refused");
	test_case(test_diskdump_cut, "kdump file cut in its last page: "
		  "earlier pages read, later ones refused");
	test_case(test_short_prstatus, "short NT_PRSTATUS does not crash");
	test_case(test_sha256, "sha256 test vectors");
	test_case(test_normalize, "signature text normalizer");
	test_case(test_parse_crash, "crash output parser");
	test_case(test_signatures, "signatures: same crash same, other "
		  "crash other");
	test_case(test_vmlinux, "vmlinux banner and discovery");

	return tests_done();
}
