// SPDX-License-Identifier: GPL-2.0
/*
 * kdump-file-analyze info and read: what a dump says about itself, and the
 * bytes of its physical memory.
 */
#include <json-c/json.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "util.h"
#include "json.h"
#include "textfilter.h"

#define READ_MAX (1 << 20)

/* The memory of the dump, as both info formats show it. */
struct info_memory {
	struct vmcore_range *ram;
	size_t n_ram;
	uint64_t ram_pages;
	struct vmcore_range *dumped;
	size_t n_dumped;
	uint64_t dumped_pages;
};

static void info_memory_done(struct info_memory *m)
{
	free(m->ram);
	free(m->dumped);
}

/*
 * The ranges of both maps; a map that cannot be read is left empty and
 * the reason printed when @say_why (the text format shows it in place).
 */
static void info_memory_get(struct vmcore *v, struct info_memory *m,
			    bool say_why)
{
	struct diag d = DIAG_INIT;

	*m = (struct info_memory) { 0 };
	if (vmcore_get_ranges(v, VMCORE_MAP_RAM, &m->ram, &m->n_ram,
			      &m->ram_pages, &d) < 0 && say_why)
		printf("memory:      %s\n", diag_text(&d));
	diag_clear(&d);
	if (vmcore_get_ranges(v, VMCORE_MAP_DUMPED, &m->dumped, &m->n_dumped,
			      &m->dumped_pages, &d) < 0 && say_why)
		printf("dumped:      %s\n", diag_text(&d));
}

static void print_header_text(const char *path, const struct vmcore_info *in)
{
	char when[64], sz[32];

	format_time(in->crashtime, when, sizeof(when));
	printf("vmcore:      %s\n", path);
	printf("format:      %s (%s), %s\n", in->format, in->description,
	       size_str(in->file_size, sz, sizeof(sz)));
	printf("arch:        %s\n", in->arch);
	printf("release:     %s\n",
	       in->osrelease[0] ? TEXT_SAFE(in->osrelease) :
				  "(unknown: no OSRELEASE in VMCOREINFO)");
	if (in->build_id[0])
		printf("build id:    %s\n", TEXT_SAFE(in->build_id));
	if (in->nodename[0])
		printf("node name:   %s\n", TEXT_SAFE(in->nodename));
	printf("page size:   %" PRIu64 "\n", in->page_size);
	if (in->crashtime >= 0)
		printf("crash time:  %s (%" PRId64 ")\n", when, in->crashtime);
	else
		printf("crash time:  (unknown: no CRASHTIME in VMCOREINFO)\n");
	printf("vmcoreinfo:  %s\n", in->has_vmcoreinfo ? "present" : "MISSING");
}

static void print_cpus_text(struct vmcore *v, const struct vmcore_info *in)
{
	struct diag d = DIAG_INIT;

	printf("cpus:        %u with saved registers\n", in->n_cpus);
	for (size_t i = 0; i < in->n_cpus; i++) {
		struct vmcore_cpu c;

		diag_clear(&d);
		if (vmcore_get_cpu(v, i, &c, &d) < 0) {
			printf("  cpu %zu: %s\n", i, diag_text(&d));
			continue;
		}
		printf("  cpu %zu: pid %-6d rip %016" PRIx64 "  rsp %016"
		       PRIx64 "\n", i, c.pid, c.rip, c.rsp);
	}
}

/* The PT_LOADs of an ELF core; the RAM ranges of other formats. */
static void print_layout_text(struct vmcore *v, const struct info_memory *m)
{
	const struct vmcore_segment *segs;
	size_t n_segs, i;

	if (vmcore_get_segments(v, &segs, &n_segs) < 0) {
		for (i = 0; i < m->n_ram && i < 64; i++)
			printf("  RAM %016" PRIx64 "-%016" PRIx64 "\n",
			       m->ram[i].start, m->ram[i].end - 1);
		if (m->n_ram > 64)
			printf("  ... %zu more\n", m->n_ram - 64);
		return;
	}
	printf("segments:    %zu PT_LOAD\n", n_segs);
	printf("  %-3s %-33s %-18s %-12s %s\n", "#", "physical", "virtual",
	       "offset", "size");
	for (i = 0; i < n_segs; i++)
		printf("  %-3zu %016" PRIx64 "-%016" PRIx64 " %016" PRIx64
		       "   %-12" PRIx64 " %" PRIx64 "\n", i, segs[i].paddr,
		       segs[i].paddr + segs[i].memsz - !!segs[i].memsz,
		       segs[i].vaddr, segs[i].offset, segs[i].memsz);
}

static void print_info_text(struct vmcore *v, const char *path,
			    const struct vmcore_info *in, bool complete,
			    const char *incomplete_why)
{
	struct info_memory m;
	char sz1[32], sz2[32];

	print_header_text(path, in);
	print_cpus_text(v, in);
	info_memory_get(v, &m, true);
	printf("memory:      %s in %zu ranges; %s (%" PRIu64
	       " pages) of it in the file, in %zu ranges\n",
	       size_str(m.ram_pages * in->page_size, sz1, sizeof(sz1)),
	       m.n_ram,
	       size_str(m.dumped_pages * in->page_size, sz2, sizeof(sz2)),
	       m.dumped_pages, m.n_dumped);
	print_layout_text(v, &m);
	if (complete)
		printf("complete:    yes\n");
	else
		printf("complete:    NO: %s\n", incomplete_why);
	info_memory_done(&m);
}

static void put_header_json(struct json_object *o, const char *path,
			    const struct vmcore_info *in)
{
	char when[64];

	format_time(in->crashtime, when, sizeof(when));
	json_object_object_add(o, "vmcore", json_text(path));
	json_object_object_add(o, "format", json_text(in->format));
	json_object_object_add(o, "description", json_text(in->description));
	put_u64(o, "file_size", in->file_size);
	json_object_object_add(o, "arch", json_text(in->arch));
	json_object_object_add(o, "vmcoreinfo",
			       json_object_new_boolean(in->has_vmcoreinfo));
	put_text(o, "osrelease", in->osrelease);
	json_object_object_add(o, "build_id", json_text(in->build_id));
	json_object_object_add(o, "nodename", json_text(in->nodename));
	put_u64(o, "page_size", in->page_size);
	json_object_object_add(o, "crash_time", in->crashtime >= 0 ?
			       json_object_new_int64(in->crashtime) : NULL);
	put_text(o, "crash_time_utc", in->crashtime >= 0 ? when : NULL);
}

static struct json_object *cpus_json(struct vmcore *v,
				     const struct vmcore_info *in)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < in->n_cpus; i++) {
		struct json_object *cpu;
		struct vmcore_cpu c;

		if (vmcore_get_cpu(v, i, &c, NULL) < 0)
			continue;
		cpu = json_object_new_object();
		put_u64(cpu, "cpu", i);
		json_object_object_add(cpu, "pid", json_object_new_int(c.pid));
		put_hex(cpu, "rip", true, c.rip);
		put_hex(cpu, "rsp", true, c.rsp);
		put_hex(cpu, "rbp", true, c.rbp);
		json_object_array_add(a, cpu);
	}
	return a;
}

static void put_memory_json(struct json_object *o, struct vmcore *v,
			    const struct info_memory *m)
{
	const struct vmcore_segment *segs;
	struct json_object *a = json_object_new_array();
	size_t n_segs, i;

	for (i = 0; i < m->n_ram; i++) {
		struct json_object *r = json_object_new_object();

		put_hex(r, "start", false, m->ram[i].start);
		put_hex(r, "end", false, m->ram[i].end - 1);
		json_object_array_add(a, r);
	}
	json_object_object_add(o, "ram_ranges", a);
	put_u64(o, "ram_pages", m->ram_pages);
	put_u64(o, "dumped_pages", m->dumped_pages);
	put_u64(o, "dumped_ranges", m->n_dumped);
	if (vmcore_get_segments(v, &segs, &n_segs) < 0)
		return;
	a = json_object_new_array();
	for (i = 0; i < n_segs; i++) {
		struct json_object *sg = json_object_new_object();

		put_hex(sg, "paddr", false, segs[i].paddr);
		put_hex(sg, "vaddr", false, segs[i].vaddr);
		put_u64(sg, "offset", segs[i].offset);
		put_u64(sg, "filesz", segs[i].filesz);
		put_u64(sg, "memsz", segs[i].memsz);
		json_object_array_add(a, sg);
	}
	json_object_object_add(o, "segments", a);
}

static void print_info_json(struct vmcore *v, const char *path,
			    const struct vmcore_info *in, bool complete,
			    const char *incomplete_why)
{
	struct json_object *o = json_object_new_object();
	struct info_memory m;

	put_header_json(o, path, in);
	json_object_object_add(o, "cpus", cpus_json(v, in));
	info_memory_get(v, &m, false);
	put_memory_json(o, v, &m);
	info_memory_done(&m);
	json_object_object_add(o, "complete", json_object_new_boolean(complete));
	put_text(o, "incomplete_reason", complete ? NULL : incomplete_why);
	json_print(stdout, o);
	json_object_put(o);
}

int verb_info(const struct analyze_options *o, int argc, char *argv[])
{
	struct vmcore_info in = { .crashtime = -1 };
	struct diag why = DIAG_INIT;
	struct vmcore *v;
	bool complete;

	(void)argc;
	if (open_vmcore(argv[0], &v) < 0)
		return EXIT_FAIL;
	complete = vmcore_validate(v, &why) >= 0;
	(void)vmcore_get_info(v, &in);
	if (o->json)
		print_info_json(v, argv[0], &in, complete, diag_text(&why));
	else
		print_info_text(v, argv[0], &in, complete, diag_text(&why));
	if (!complete)
		log_warning("vmcore '%s' is incomplete: %s", argv[0],
			    diag_text(&why));
	vmcore_free(v);
	return complete ? EXIT_OK : EXIT_FAIL;
}

/*
 * One line per 16 bytes: the physical address in 16 hex digits, a colon,
 * the bytes in hex, then the printable ones as text:
 * 0000000000100000:  48 65 6c 6c 6f 00 ...  Hello.
 */
static void hexdump(uint64_t addr, const uint8_t *buf, size_t len)
{
	size_t i, j;

	for (i = 0; i < len; i += 16) {
		printf("%016" PRIx64 ": ", addr + i);
		for (j = 0; j < 16; j++) {
			if (i + j < len)
				printf(" %02x", buf[i + j]);
			else
				printf("   ");
		}
		printf("  ");
		for (j = 0; j < 16 && i + j < len; j++) {
			uint8_t c = buf[i + j];

			putchar(c >= 0x20 && c < 0x7f ? c : '.');
		}
		putchar('\n');
	}
}

/* LEN: decimal, or hexadecimal with 0x; 1 to READ_MAX. */
static int parse_len(const char *s, size_t *ret)
{
	unsigned long long len;
	char *end;

	errno = 0;
	len = strtoull(s, &end, 0);
	if (errno || *end || !s[0] || s[0] == '-' || len == 0 ||
	    len > READ_MAX)
		return -EINVAL;
	*ret = len;
	return 0;
}

int verb_read(const struct analyze_options *o, int argc, char *argv[])
{
	_cleanup_free_ uint8_t *buf = NULL;
	struct diag d = DIAG_INIT;
	struct vmcore *v;
	size_t len = 64, done;
	uint64_t addr;
	int r;

	(void)o;

	if (parse_hex(argv[1], &addr) < 0) {
		log_error("invalid address '%s' (expected hexadecimal)", argv[1]);
		return EXIT_USAGE;
	}
	if (argc == 3 && parse_len(argv[2], &len) < 0) {
		log_error("invalid length '%s' (1 to %d bytes)", argv[2],
			  READ_MAX);
		return EXIT_USAGE;
	}
	if (len - 1 > UINT64_MAX - addr) {
		log_error("range %#" PRIx64 "+%zu wraps around", addr, len);
		return EXIT_USAGE;
	}
	buf = malloc(len);
	if (!buf) {
		log_error("out of memory");
		return EXIT_FAIL;
	}
	if (open_vmcore(argv[0], &v) < 0)
		return EXIT_FAIL;
	r = vmcore_read_phys(v, addr, buf, len, &done, &d);
	hexdump(addr, buf, done);
	if (r < 0)
		log_error("cannot read %zu bytes at physical %#" PRIx64
			  " from '%s': %s", len, addr, argv[0], diag_text(&d));
	vmcore_free(v);
	return r < 0 ? EXIT_FAIL : EXIT_OK;
}
