// SPDX-License-Identifier: GPL-2.0
/*
 * kdump-file-analyze: look into a saved kernel crash dump.
 *
 *   info VMCORE [--json]            what the dump says about itself
 *   check VMCORE [options]          is the dump usable and as expected
 *   read VMCORE ADDR [LEN]          hex dump of physical memory
 *   report DIR [--vmlinux FILE]     what crashed, via crash(8)
 *
 * Exit status: 0 success, 1 failure, 2 usage error.
 */
#include <json-c/json.h>
#include <errno.h>
#include <glob.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "json.h"
#include "version.h"
#include "report.h"
#include "vmcore.h"
#include "vmlinux.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define PROG "kdump-file-analyze"
#define VERSION KDUMP_FILE_VERSION
/* Where make keeps kdump-file's own kernel builds (test/lib/kernel-build.sh). */
#define KERNEL_BUILDS "/var/cache/kdump-file/kernel"
#define MAX_RANGES_ARG 32
#define READ_MAX (1 << 20)
#define OUTPUT_MAX (32 << 20)
#define LOG_TAIL 80
#define STR_(x) #x
#define STR(x) STR_(x)

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

struct range_arg {
	uint64_t start;
	uint64_t end;		/* exclusive */
	const char *text;
};

struct marker_arg {
	uint64_t addr;
	uint8_t bytes[64];
	size_t len;
	const char *text;
};

static bool arg_json;
static const char *arg_vmlinux;
static bool arg_crashkernel_set;
static struct range_arg arg_crashkernel;
static long arg_expect_cpus = -1;
static struct range_arg arg_excludes[MAX_RANGES_ARG];
static size_t arg_n_excludes;
static struct marker_arg arg_markers[MAX_RANGES_ARG];
static size_t arg_n_markers;
static long arg_timeout = 300;

__attribute__((format(printf, 1, 2)))
static void log_error(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

__attribute__((format(printf, 1, 2)))
static void log_warning(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void help(FILE *f)
{
	fprintf(f,
		"Usage: " PROG " COMMAND ...\n"
		"\n"
		"Look into a kernel crash dump (ELF vmcore or makedumpfile kdump).\n"
		"\n"
		"Commands:\n"
		"  info VMCORE [--json]        format, release, crash time, CPUs,\n"
		"                              memory layout\n"
		"  check VMCORE [OPTIONS]      verify the dump; each check prints\n"
		"                              ok or FAIL; exit 0 only if all pass\n"
		"      --vmlinux FILE          FILE is the kernel that crashed\n"
		"      --crashkernel START-END the reserved range is not in the dump\n"
		"      --expect-cpus N         N CPUs have saved registers\n"
		"      --exclude START-END     no page of the range is in the dump\n"
		"                              (may be repeated)\n"
		"      --marker ADDR:HEX       the bytes at ADDR are HEX (may be\n"
		"                              repeated)\n"
		"  read VMCORE ADDR [LEN]      hex dump of LEN (default 64) bytes of\n"
		"                              physical memory at ADDR\n"
		"  report DIR [--vmlinux FILE] [--timeout SEC]\n"
		"                              run crash(8) on DIR/vmcore, write\n"
		"                              DIR/report.txt and DIR/report.json\n"
		"  vmlinux VMCORE [--vmlinux FILE]\n"
		"                              the path of the crashed kernel's vmlinux,\n"
		"                              found by the dump's build ID\n"
		"\n"
		"Addresses are hexadecimal (0x optional); END is inclusive, as in\n"
		"/proc/iomem. LEN is decimal, or hexadecimal with 0x.\n"
		"  -h --help                   this text\n"
		"     --version                the version\n");
}

static bool parse_hex(const char *s, uint64_t *ret)
{
	unsigned long long v;
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return false;
	errno = 0;
	v = strtoull(s, &end, 16);
	if (errno || *end || end == s)
		return false;
	*ret = v;
	return true;
}

static bool parse_range(const char *s, struct range_arg *ret)
{
	char buf[64];
	const char *dash = strchr(s, '-');
	uint64_t a, b;

	if (!dash || (size_t)(dash - s) >= sizeof(buf))
		return false;
	memcpy(buf, s, dash - s);
	buf[dash - s] = '\0';
	if (!parse_hex(buf, &a) || !parse_hex(dash + 1, &b) || b < a ||
	    b == UINT64_MAX)
		return false;
	ret->start = a;
	ret->end = b + 1;
	ret->text = s;
	return true;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool parse_marker(const char *s, struct marker_arg *ret)
{
	const char *colon = strchr(s, ':'), *h;
	char buf[64];
	size_t n = 0;

	if (!colon || (size_t)(colon - s) >= sizeof(buf))
		return false;
	memcpy(buf, s, colon - s);
	buf[colon - s] = '\0';
	if (!parse_hex(buf, &ret->addr))
		return false;
	h = colon + 1;
	if (h[0] == '0' && (h[1] == 'x' || h[1] == 'X'))
		h += 2;
	if (!*h || strlen(h) % 2 || strlen(h) / 2 > sizeof(ret->bytes))
		return false;
	for (; *h; h += 2) {
		int hi = hexval(h[0]), lo = hexval(h[1]);

		if (hi < 0 || lo < 0)
			return false;
		ret->bytes[n++] = hi << 4 | lo;
	}
	ret->len = n;
	ret->text = s;
	return true;
}

static bool parse_long(const char *s, long min, long max, long *ret)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || !*s || *end || v < min || v > max)
		return false;
	*ret = v;
	return true;
}

enum {
	ARG_VERSION = 0x100,
	ARG_JSON,
	ARG_VMLINUX,
	ARG_CRASHKERNEL,
	ARG_EXPECT_CPUS,
	ARG_EXCLUDE,
	ARG_MARKER,
	ARG_TIMEOUT,
};

/*
 * Options may come anywhere after the command. Returns the number of
 * positional arguments left in argv[optind..], or -1 on a usage error.
 */
static int parse_argv(int argc, char *argv[], const char *verb)
{
	static const struct option options[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, ARG_VERSION },
		{ "json", no_argument, NULL, ARG_JSON },
		{ "vmlinux", required_argument, NULL, ARG_VMLINUX },
		{ "crashkernel", required_argument, NULL, ARG_CRASHKERNEL },
		{ "expect-cpus", required_argument, NULL, ARG_EXPECT_CPUS },
		{ "exclude", required_argument, NULL, ARG_EXCLUDE },
		{ "marker", required_argument, NULL, ARG_MARKER },
		{ "timeout", required_argument, NULL, ARG_TIMEOUT },
		{}
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", options, NULL)) >= 0) {
		switch (c) {
		case 'h':
			help(stdout);
			exit(EXIT_OK);
		case ARG_VERSION:
			printf(PROG " " VERSION "\n");
			exit(EXIT_OK);
		case ARG_JSON:
			arg_json = true;
			break;
		case ARG_VMLINUX:
			arg_vmlinux = optarg;
			break;
		case ARG_CRASHKERNEL:
			if (!parse_range(optarg, &arg_crashkernel)) {
				log_error("invalid --crashkernel range '%s' "
					  "(expected hex START-END, e.g. "
					  "33000000-3effffff)", optarg);
				return -1;
			}
			arg_crashkernel_set = true;
			break;
		case ARG_EXPECT_CPUS:
			if (!parse_long(optarg, 0, 65536, &arg_expect_cpus)) {
				log_error("invalid --expect-cpus '%s' (expected "
					  "a number)", optarg);
				return -1;
			}
			break;
		case ARG_EXCLUDE:
			if (arg_n_excludes == MAX_RANGES_ARG ||
			    !parse_range(optarg,
					 &arg_excludes[arg_n_excludes])) {
				log_error("invalid --exclude range '%s' (expected "
					  "hex START-END, at most %d)", optarg,
					  MAX_RANGES_ARG);
				return -1;
			}
			arg_n_excludes++;
			break;
		case ARG_MARKER:
			if (arg_n_markers == MAX_RANGES_ARG ||
			    !parse_marker(optarg, &arg_markers[arg_n_markers])) {
				log_error("invalid --marker '%s' (expected "
					  "HEXADDR:HEXBYTES, at most 64 bytes)",
					  optarg);
				return -1;
			}
			arg_n_markers++;
			break;
		case ARG_TIMEOUT:
			if (!parse_long(optarg, 1, 86400, &arg_timeout)) {
				log_error("invalid --timeout '%s' (expected "
					  "seconds)", optarg);
				return -1;
			}
			break;
		case '?':
		default:
			if (optopt)
				log_error("'%s': unknown option -%c", verb,
					  optopt);
			else
				log_error("'%s': unknown or incomplete option "
					  "'%s'", verb, argv[optind - 1]);
			return -1;
		}
	}
	return argc - optind;
}

static struct vmcore *open_vmcore(const char *path)
{
	char err[VMCORE_ERR_MAX];
	struct vmcore *v;
	int r;

	r = vmcore_open(path, &v, err, sizeof(err));
	if (r < 0) {
		log_error("cannot open vmcore '%s': %s", path, err);
		return NULL;
	}
	return v;
}

static void format_time(int64_t t, char *buf, size_t size)
{
	time_t tt = t;
	struct tm tm;

	if (t < 0 || !gmtime_r(&tt, &tm) ||
	    !strftime(buf, size, "%Y-%m-%d %H:%M:%S UTC", &tm))
		snprintf(buf, size, "unknown");
}

/* "27.1 MiB" */
static const char *size_str(uint64_t bytes, char *buf, size_t size)
{
	if (bytes < (1ULL << 20))
		snprintf(buf, size, "%.1f KiB", bytes / 1024.0);
	else if (bytes < (1ULL << 30))
		snprintf(buf, size, "%.1f MiB", bytes / 1048576.0);
	else
		snprintf(buf, size, "%.1f GiB", bytes / 1073741824.0);
	return buf;
}

/* ---- info ---- */

static int print_info_text(struct vmcore *v, const char *path,
			   const struct vmcore_info *in, int complete,
			   const char *incomplete_why)
{
	const struct vmcore_segment *segs;
	struct vmcore_range *ram = NULL;
	size_t n_segs, n_ram = 0, n_dumped = 0, i;
	uint64_t ram_pages = 0, dumped_pages = 0;
	struct vmcore_range *dumped = NULL;
	char when[64], sz1[32], sz2[32];

	format_time(in->crashtime, when, sizeof(when));
	printf("vmcore:      %s\n", path);
	printf("format:      %s (%s), %s\n", in->format, in->description,
	       size_str(in->file_size, sz1, sizeof(sz1)));
	printf("arch:        %s\n", in->arch);
	printf("release:     %s\n", in->osrelease[0] ? in->osrelease :
	       "(unknown: no OSRELEASE in VMCOREINFO)");
	if (in->build_id[0])
		printf("build id:    %s\n", in->build_id);
	if (in->nodename[0])
		printf("node name:   %s\n", in->nodename);
	printf("page size:   %" PRIu64 "\n", in->page_size);
	if (in->crashtime >= 0)
		printf("crash time:  %s (%" PRId64 ")\n", when, in->crashtime);
	else
		printf("crash time:  (unknown: no CRASHTIME in VMCOREINFO)\n");
	printf("vmcoreinfo:  %s\n", in->has_vmcoreinfo ? "present" : "MISSING");
	printf("cpus:        %u with saved registers\n", in->n_cpus);
	for (i = 0; i < in->n_cpus; i++) {
		struct vmcore_cpu c;

		if (vmcore_get_cpu(v, i, &c) < 0) {
			printf("  cpu %zu: %s\n", i, vmcore_error(v));
			continue;
		}
		printf("  cpu %zu: pid %-6d rip %016" PRIx64 "  rsp %016"
		       PRIx64 "\n", i, c.pid, c.rip, c.rsp);
	}

	if (vmcore_get_ranges(v, VMCORE_MAP_RAM, &ram, &n_ram, &ram_pages) <
	    0)
		printf("memory:      %s\n", vmcore_error(v));
	if (vmcore_get_ranges(v, VMCORE_MAP_DUMPED, &dumped, &n_dumped,
			      &dumped_pages) < 0)
		printf("dumped:      %s\n", vmcore_error(v));
	printf("memory:      %s in %zu ranges; %s (%" PRIu64
	       " pages) of it in the file, in %zu ranges\n",
	       size_str(ram_pages * in->page_size, sz1, sizeof(sz1)), n_ram,
	       size_str(dumped_pages * in->page_size, sz2, sizeof(sz2)),
	       dumped_pages, n_dumped);
	if (vmcore_get_segments(v, &segs, &n_segs) >= 0) {
		printf("segments:    %zu PT_LOAD\n", n_segs);
		printf("  %-3s %-33s %-18s %-12s %s\n", "#", "physical",
		       "virtual", "offset", "size");
		for (i = 0; i < n_segs; i++)
			printf("  %-3zu %016" PRIx64 "-%016" PRIx64 " %016"
			       PRIx64 "   %-12" PRIx64 " %" PRIx64 "\n", i,
			       segs[i].paddr,
			       segs[i].paddr + segs[i].memsz - !!segs[i].memsz,
			       segs[i].vaddr, segs[i].offset, segs[i].memsz);
	} else {
		for (i = 0; i < n_ram && i < 64; i++)
			printf("  RAM %016" PRIx64 "-%016" PRIx64 "\n",
			       ram[i].start, ram[i].end - 1);
		if (n_ram > 64)
			printf("  ... %zu more\n", n_ram - 64);
	}
	if (complete)
		printf("complete:    yes\n");
	else
		printf("complete:    NO: %s\n", incomplete_why);
	free(ram);
	free(dumped);
	return 0;
}

/* key: text, or null when text is NULL or empty. */
static void put_text(struct json_object *o, const char *key, const char *text)
{
	json_object_object_add(o, key, text && *text ? json_text(text) : NULL);
}

static void put_u64(struct json_object *o, const char *key, uint64_t v)
{
	json_object_object_add(o, key, json_object_new_uint64(v));
}

/* "0x..." of v; wide: all 16 digits, as registers are shown. */
static void put_hex(struct json_object *o, const char *key, bool wide,
		    uint64_t v)
{
	char buf[32];

	if (wide)
		snprintf(buf, sizeof(buf), "0x%016" PRIx64, v);
	else
		snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	json_object_object_add(o, key, json_object_new_string(buf));
}

/* obj as the project writes JSON (json-c, pretty), and a newline. */
static void json_print(FILE *f, struct json_object *obj)
{
	fputs(json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PRETTY |
					     JSON_C_TO_STRING_SPACED |
					     JSON_C_TO_STRING_NOSLASHESCAPE), f);
	fputc('\n', f);
}

static void print_info_json(struct vmcore *v, const char *path,
			    const struct vmcore_info *in, int complete,
			    const char *incomplete_why)
{
	const struct vmcore_segment *segs;
	struct vmcore_range *ram = NULL;
	size_t n_segs, n_ram = 0, n_dumped = 0, i;
	uint64_t ram_pages = 0, dumped_pages = 0;
	struct vmcore_range *dumped = NULL;
	struct json_object *o = json_object_new_object(), *a;
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
	a = json_object_new_array();
	for (i = 0; i < in->n_cpus; i++) {
		struct json_object *cpu;
		struct vmcore_cpu c;

		if (vmcore_get_cpu(v, i, &c) < 0)
			continue;
		cpu = json_object_new_object();
		put_u64(cpu, "cpu", i);
		json_object_object_add(cpu, "pid", json_object_new_int(c.pid));
		put_hex(cpu, "rip", true, c.rip);
		put_hex(cpu, "rsp", true, c.rsp);
		put_hex(cpu, "rbp", true, c.rbp);
		json_object_array_add(a, cpu);
	}
	json_object_object_add(o, "cpus", a);
	(void)vmcore_get_ranges(v, VMCORE_MAP_RAM, &ram, &n_ram, &ram_pages);
	(void)vmcore_get_ranges(v, VMCORE_MAP_DUMPED, &dumped, &n_dumped,
				&dumped_pages);
	a = json_object_new_array();
	for (i = 0; i < n_ram; i++) {
		struct json_object *r = json_object_new_object();

		put_hex(r, "start", false, ram[i].start);
		put_hex(r, "end", false, ram[i].end - 1);
		json_object_array_add(a, r);
	}
	json_object_object_add(o, "ram_ranges", a);
	put_u64(o, "ram_pages", ram_pages);
	put_u64(o, "dumped_pages", dumped_pages);
	put_u64(o, "dumped_ranges", n_dumped);
	if (vmcore_get_segments(v, &segs, &n_segs) >= 0) {
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
	json_object_object_add(o, "complete", json_object_new_boolean(complete));
	put_text(o, "incomplete_reason", complete ? NULL : incomplete_why);
	json_print(stdout, o);
	json_object_put(o);
	free(ram);
	free(dumped);
}

static int verb_info(int argc, char *argv[])
{
	char why[VMCORE_ERR_MAX] = "";
	struct vmcore_info in;
	struct vmcore *v;
	int complete;

	if (argc != 1) {
		log_error("'info' takes one VMCORE argument (see --help)");
		return EXIT_USAGE;
	}
	v = open_vmcore(argv[0]);
	if (!v)
		return EXIT_FAIL;
	complete = vmcore_validate(v) >= 0;
	if (!complete)
		snprintf(why, sizeof(why), "%s", vmcore_error(v));
	(void)vmcore_get_info(v, &in);
	if (arg_json)
		print_info_json(v, argv[0], &in, complete, why);
	else
		print_info_text(v, argv[0], &in, complete, why);
	if (!complete)
		log_warning("vmcore '%s' is incomplete: %s", argv[0], why);
	vmcore_free(v);
	return complete ? EXIT_OK : EXIT_FAIL;
}

/* ---- check ---- */

static unsigned int n_pass, n_fail;

__attribute__((format(printf, 3, 4)))
static void result(bool ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("%-4s %s: ", ok ? "ok" : "FAIL", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (ok)
		n_pass++;
	else
		n_fail++;
}

static void check_vmlinux(const char *release)
{
	char rel[128], err[VMLINUX_ERR_MAX];

	if (vmlinux_release(arg_vmlinux, rel, sizeof(rel), err,
			    sizeof(err)) < 0) {
		result(false, "vmlinux", "cannot tell the release of '%s': %s",
		       arg_vmlinux, err);
		return;
	}
	if (!release[0])
		result(false, "vmlinux",
		       "vmlinux is %s but the vmcore does not say its release",
		       rel);
	else if (strcmp(rel, release))
		result(false, "vmlinux",
		       "vmcore is from %s but vmlinux '%s' is %s: use the "
		       "matching vmlinux", release, arg_vmlinux, rel);
	else
		result(true, "vmlinux", "'%s' is %s, as the vmcore",
		       arg_vmlinux, rel);
}

static void check_range(struct vmcore *v, const char *name,
			const struct range_arg *ra, enum vmcore_map map)
{
	uint64_t at;
	int r;

	r = vmcore_find_in_range(v, map, ra->start, ra->end, &at);
	if (r < 0)
		result(false, name, "%s: %s", ra->text, vmcore_error(v));
	else if (r > 0)
		result(false, name, "%s: the dump has %s at %#" PRIx64,
		       ra->text, map == VMCORE_MAP_RAM ? "memory" :
		       "page contents", at);
	else
		result(true, name, "%s: not in the dump", ra->text);
}

static void check_marker(struct vmcore *v, const struct marker_arg *m)
{
	uint8_t buf[64];
	char got[2 * sizeof(buf) + 1];
	size_t i;

	if (vmcore_read_phys(v, m->addr, buf, m->len, NULL) < 0) {
		result(false, "marker", "%s: %s", m->text, vmcore_error(v));
		return;
	}
	for (i = 0; i < m->len; i++)
		snprintf(got + 2 * i, 3, "%02x", buf[i]);
	if (memcmp(buf, m->bytes, m->len))
		result(false, "marker", "%s: found %s", m->text, got);
	else
		result(true, "marker", "%s: found", m->text);
}

static int verb_check(int argc, char *argv[])
{
	struct vmcore_info in;
	struct vmcore *v;
	unsigned int cpu, bad_cpus = 0;
	char sz[32], err[VMCORE_ERR_MAX];
	size_t i;

	if (argc != 1) {
		log_error("'check' takes one VMCORE argument (see --help)");
		return EXIT_USAGE;
	}
	if (vmcore_open(argv[0], &v, err, sizeof(err)) < 0) {
		result(false, "open", "cannot open vmcore '%s': %s", argv[0],
		       err);
		printf("1 of 1 checks failed\n");
		return EXIT_FAIL;
	}
	(void)vmcore_get_info(v, &in);
	result(true, "open", "%s (%s), %s, %s", in.format, in.description,
	       in.arch, size_str(in.file_size, sz, sizeof(sz)));
	if (vmcore_validate(v) < 0)
		result(false, "complete", "%s", vmcore_error(v));
	else
		result(true, "complete", "the data of every dumped page is in "
		       "the file; first and last pages read back");

	result(in.has_vmcoreinfo && in.osrelease[0], "vmcoreinfo",
	       "OSRELEASE %s", in.osrelease[0] ? in.osrelease : "missing");
	result(in.page_size == 4096, "pagesize", "PAGESIZE %" PRIu64,
	       in.page_size);
	result(in.crashtime > 0, "crashtime", "CRASHTIME %" PRId64,
	       in.crashtime);

	for (cpu = 0; cpu < in.n_cpus; cpu++) {
		struct vmcore_cpu c;

		if (vmcore_get_cpu(v, cpu, &c) < 0 || !c.rip || !c.rsp)
			bad_cpus++;
	}
	if (in.n_cpus == 0)
		result(false, "cpus", "no NT_PRSTATUS notes: no CPU registers "
		       "were saved");
	else if (bad_cpus)
		result(false, "cpus", "%u of %u CPUs have no rip/rsp", bad_cpus,
		       in.n_cpus);
	else
		result(true, "cpus", "%u CPUs with registers", in.n_cpus);
	if (arg_expect_cpus >= 0)
		result(in.n_cpus == arg_expect_cpus, "expect-cpus",
		       "%u CPUs, expected %ld", in.n_cpus, arg_expect_cpus);

	if (arg_vmlinux)
		check_vmlinux(in.osrelease);
	if (arg_crashkernel_set)
		check_range(v, "crashkernel", &arg_crashkernel, VMCORE_MAP_RAM);
	for (i = 0; i < arg_n_excludes; i++)
		check_range(v, "exclude", &arg_excludes[i], VMCORE_MAP_DUMPED);
	for (i = 0; i < arg_n_markers; i++)
		check_marker(v, &arg_markers[i]);

	vmcore_free(v);
	if (n_fail) {
		printf("%u of %u checks failed\n", n_fail, n_pass + n_fail);
		return EXIT_FAIL;
	}
	printf("all %u checks passed\n", n_pass);
	return EXIT_OK;
}

/* ---- read ---- */

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

/*
 * The vmlinux a dump needs: by the build ID in its VMCOREINFO, in the
 * debug directories Debian's -dbg packages fill and in the project's own
 * kernel builds; printed on stdout for "kdump-file debug".
 */
static int verb_vmlinux(int argc, char *argv[])
{
	char found[4096], deb[160] = "";
	struct vmcore_info in;
	struct vmcore *v;
	glob_t g = { 0 };
	const char **extra;
	int r;

	if (argc != 1) {
		log_error("'vmlinux' takes VMCORE (see --help)");
		return EXIT_USAGE;
	}
	v = open_vmcore(argv[0]);
	if (!v)
		return EXIT_FAIL;
	r = vmcore_get_info(v, &in);
	vmcore_free(v);
	if (r < 0 || (!in.osrelease[0] && !in.build_id[0])) {
		log_error("vmcore '%s' names neither its kernel release nor its build ID: pass the vmlinux yourself",
			  argv[0]);
		return EXIT_FAIL;
	}
	if (arg_vmlinux) {
		char have[130];

		if (in.build_id[0] &&
		    (vmlinux_build_id(arg_vmlinux, have, sizeof(have)) < 0 ||
		     strncmp(have, in.build_id, strlen(in.build_id)) != 0)) {
			log_error("vmlinux '%s' is not the kernel that crashed (build ID %s expected)",
				  arg_vmlinux, in.build_id);
			return EXIT_FAIL;
		}
		printf("%s\n", arg_vmlinux);
		return EXIT_OK;
	}
	/* kdump-file's own kernel builds, where make keeps them. */
	(void)glob(KERNEL_BUILDS "/*/vmlinux", 0, NULL, &g);
	extra = calloc(g.gl_pathc + 1, sizeof(*extra));
	for (size_t i = 0; extra && i < g.gl_pathc; i++)
		extra[i] = g.gl_pathv[i];
	r = vmlinux_find_id(in.osrelease, in.build_id, extra, found,
			    sizeof(found));
	free(extra);
	globfree(&g);
	if (r == 0) {
		printf("%s\n", found);
		return EXIT_OK;
	}
	/* Debian's kernels: linux-image-RELEASE-dbg has the vmlinux. */
	if (in.osrelease[0] && strstr(in.osrelease, "-amd64"))
		snprintf(deb, sizeof(deb), "install linux-image-%s-dbg (apt-get install linux-image-%s-dbg), or ",
			 in.osrelease, in.osrelease);
	log_error("no vmlinux of kernel %s%s%s found in /usr/lib/debug or /boot: %spass the kernel's vmlinux with --vmlinux FILE",
		  in.osrelease[0] ? in.osrelease : "(release unknown)",
		  in.build_id[0] ? ", build ID " : "", in.build_id, deb);
	return EXIT_FAIL;
}

static int verb_read(int argc, char *argv[])
{
	unsigned long long len = 64;
	struct vmcore *v;
	uint8_t *buf;
	uint64_t addr;
	size_t done;
	char *end;
	int r;

	if (argc < 2 || argc > 3) {
		log_error("'read' takes VMCORE ADDR [LEN] (see --help)");
		return EXIT_USAGE;
	}
	if (!parse_hex(argv[1], &addr)) {
		log_error("invalid address '%s' (expected hexadecimal)", argv[1]);
		return EXIT_USAGE;
	}
	if (argc == 3) {
		errno = 0;
		len = strtoull(argv[2], &end, 0);
		if (errno || *end || !argv[2][0] || argv[2][0] == '-' ||
		    len == 0 || len > READ_MAX) {
			log_error("invalid length '%s' (1 to %d bytes)", argv[2],
				  READ_MAX);
			return EXIT_USAGE;
		}
	}
	if (len - 1 > UINT64_MAX - addr) {
		log_error("range %#" PRIx64 "+%llu wraps around", addr, len);
		return EXIT_USAGE;
	}
	v = open_vmcore(argv[0]);
	if (!v)
		return EXIT_FAIL;
	buf = malloc(len);
	if (!buf) {
		log_error("out of memory");
		vmcore_free(v);
		return EXIT_FAIL;
	}
	r = vmcore_read_phys(v, addr, buf, len, &done);
	hexdump(addr, buf, done);
	if (r < 0)
		log_error("cannot read %llu bytes at physical %#" PRIx64
			  " from '%s': %s", len, addr, argv[0], vmcore_error(v));
	free(buf);
	vmcore_free(v);
	return r < 0 ? EXIT_FAIL : EXIT_OK;
}

/* ---- report ---- */

struct run_result {
	char *out;		/* stdout and stderr, NUL-terminated */
	size_t len;
	int status;		/* waitpid status */
	bool timed_out;
};

/*
 * Run @argv with @input on stdin (a memfd, so the program sees a file, not
 * a terminal) and collect its output, for at most @timeout seconds; then
 * its process group is killed.
 */
static int run(char *const argv[], const char *input, long timeout,
	       struct run_result *ret)
{
	struct run_result res = { 0 };
	int in_fd = -1, p[2] = { -1, -1 }, r = 0;
	size_t cap = 0;
	struct timespec t0, now;
	pid_t pid;

	in_fd = memfd_create("kdump-file-input", MFD_CLOEXEC);
	if (in_fd < 0)
		return -errno;
	if (input && write(in_fd, input, strlen(input)) !=
		     (ssize_t)strlen(input)) {
		r = -errno ?: -EIO;
		goto out;
	}
	if (lseek(in_fd, 0, SEEK_SET) < 0 || pipe2(p, O_CLOEXEC) < 0) {
		r = -errno;
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		r = -errno;
		goto out;
	}
	if (pid == 0) {
		(void)setpgid(0, 0);
		if (dup2(in_fd, 0) < 0 || dup2(p[1], 1) < 0 || dup2(p[1], 2) < 0)
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	(void)setpgid(pid, pid);
	close(p[1]);
	p[1] = -1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd pfd = { .fd = p[0], .events = POLLIN };
		long left;
		ssize_t n;

		clock_gettime(CLOCK_MONOTONIC, &now);
		left = timeout * 1000 - ((now.tv_sec - t0.tv_sec) * 1000 +
					 (now.tv_nsec - t0.tv_nsec) / 1000000);
		if (left <= 0) {
			res.timed_out = true;
			(void)kill(-pid, SIGKILL);
			break;
		}
		if (poll(&pfd, 1, left) < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			(void)kill(-pid, SIGKILL);
			break;
		}
		if (!pfd.revents)
			continue;
		if (cap - res.len < 65536 && cap < OUTPUT_MAX) {
			char *t = realloc(res.out, cap + (1 << 20) + 1);

			if (!t) {
				r = -ENOMEM;
				(void)kill(-pid, SIGKILL);
				break;
			}
			res.out = t;
			cap += 1 << 20;
		}
		if (cap - res.len == 0) {
			char sink[4096];	/* over the cap: drop the rest */

			n = read(p[0], sink, sizeof(sink));
		} else {
			n = read(p[0], res.out + res.len, cap - res.len);
			if (n > 0)
				res.len += n;
		}
		if (n == 0)
			break;
		if (n < 0 && errno != EINTR && errno != EAGAIN) {
			r = -errno;
			break;
		}
	}
	while (waitpid(pid, &res.status, 0) < 0 && errno == EINTR)
		;
	if (!res.out)
		res.out = calloc(1, 1);
	if (!res.out)
		r = -ENOMEM;
	else
		res.out[res.len] = '\0';
	if (r < 0) {
		free(res.out);
		goto out;
	}
	*ret = res;
out:
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	close(in_fd);
	return r;
}

static const char *tool(const char *env, const char *def)
{
	const char *s = getenv(env);

	return s && *s ? s : def;
}

static char *read_file(const char *path, size_t max)
{
	FILE *f = fopen(path, "re");
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = malloc(max + 1);
	if (!buf) {
		fclose(f);
		return NULL;
	}
	n = fread(buf, 1, max, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* The last @n lines of @text. */
static const char *tail(const char *text, size_t n)
{
	const char *p = text + strlen(text);

	if (p > text && p[-1] == '\n')
		p--;
	while (p > text) {
		if (p[-1] == '\n' && --n == 0)
			break;
		p--;
	}
	return p;
}

struct report_ctx {
	const char *dir;
	const char *vmcore;		/* NULL: a report from dmesg.txt alone */
	bool incomplete;		/* no vmcore: the capture did not save it */
	const char *vmlinux;		/* NULL: none */
	const char *vmlinux_note;	/* why there is none */
	struct vmcore_info info;
	struct crash_report rep;
	const char *raw;		/* crash output or kernel log */
	const char *raw_name;
};

static void write_report_text(FILE *f, const struct report_ctx *c)
{
	char when[64], sz[32];

	format_time(c->info.crashtime, when, sizeof(when));
	fprintf(f, "kdump-file crash report\n\n");
	if (!c->vmcore && c->incomplete)
		fprintf(f, "vmcore:    none: the capture did not save it (its "
			"reason is in %s/metadata.json and 'kdump-file status'); "
			"report from %s/dmesg.txt\n", c->dir, c->dir);
	else if (!c->vmcore)
		fprintf(f, "vmcore:    none, by configuration: a dmesg-only dump "
			"(dump_level = dmesg) saves the kernel log alone; "
			"report from %s/dmesg.txt\n", c->dir);
	else if (c->vmlinux)
		fprintf(f, "vmcore:    %s (%s, %s)\nvmlinux:   %s\n", c->vmcore,
			c->info.format,
			size_str(c->info.file_size, sz, sizeof(sz)), c->vmlinux);
	else
		fprintf(f, "vmcore:    %s (%s, %s)\nvmlinux:   none (%s); "
			"report from the dump alone\n", c->vmcore,
			c->info.format,
			size_str(c->info.file_size, sz, sizeof(sz)),
			c->vmlinux_note);
	fprintf(f, "crashed:   %s\n", when);
	report_write_text(f, &c->rep);
	fprintf(f, "\n---- %s ----\n%s", c->raw_name, c->raw);
	if (c->raw[0] && c->raw[strlen(c->raw) - 1] != '\n')
		fputc('\n', f);
}

static struct json_object *text_array(const char (*items)[REPORT_FRAME_LEN],
				      size_t n)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_text(items[i]));
	return a;
}

static void write_report_json(FILE *f, const struct report_ctx *c)
{
	const struct crash_report *r = &c->rep;
	struct json_object *o = json_object_new_object(), *t;
	char when[64];
	size_t i;

	format_time(c->info.crashtime, when, sizeof(when));
	put_text(o, "signature", r->signature);
	put_text(o, "panic", r->panic);
	put_text(o, "oops", r->oops);
	t = json_object_new_object();
	put_text(t, "command", r->command);
	json_object_object_add(t, "pid", r->pid >= 0 ?
			       json_object_new_int64(r->pid) : NULL);
	json_object_object_add(o, "task", t);
	json_object_object_add(o, "cpu", r->cpu >= 0 ?
			       json_object_new_int(r->cpu) : NULL);
	json_object_object_add(o, "backtrace",
			       text_array(r->frames, r->n_frames));
	put_text(o, "kernel_release", r->release[0] ? r->release :
		 c->info.osrelease);
	put_text(o, "uptime", r->uptime);
	put_text(o, "taint", r->taint);
	json_object_object_add(o, "crash_time", c->info.crashtime >= 0 ?
			       json_object_new_int64(c->info.crashtime) : NULL);
	put_text(o, "crash_time_utc", c->info.crashtime >= 0 ? when : NULL);
	t = json_object_new_object();
	for (i = 0; i < r->n_states; i++)
		json_object_object_add(t, r->states[i].name,
				       json_object_new_int64(r->states[i].count));
	json_object_object_add(o, "task_states", t);
	put_text(o, "source", r->source);
	put_text(o, "vmcore", c->vmcore);
	put_text(o, "vmcore_format", c->vmcore ? c->info.format : NULL);
	json_object_object_add(o, "dmesg_only",
			       json_object_new_boolean(!c->vmcore && !c->incomplete));
	json_object_object_add(o, "vmcore_missing",
			       json_object_new_boolean(c->incomplete));
	put_text(o, "vmlinux", c->vmlinux);
	put_text(o, "signature_text", r->normalized);
	json_object_object_add(o, "signature_frames",
			       text_array(r->sig_frames, r->n_sig_frames));
	json_print(f, o);
	json_object_put(o);
}

/* Write DIR/NAME through a temporary file renamed into place. */
static int write_atomic(const char *dir, const char *name,
			void (*writer)(FILE *f, const struct report_ctx *c),
			const struct report_ctx *c)
{
	char tmp[PATH_MAX], path[PATH_MAX];
	FILE *f;
	int fd, r = 0;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, name) >=
	    sizeof(tmp) ||
	    (size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    sizeof(path))
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	(void)fchmod(fd, 0600);
	f = fdopen(fd, "w");
	if (!f) {
		r = -errno;
		close(fd);
		unlink(tmp);
		return r;
	}
	writer(f, c);
	if (fflush(f) != 0 || ferror(f) || fsync(fileno(f)) < 0)
		r = -(errno ?: EIO);
	if (fclose(f) != 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0)
		unlink(tmp);
	return r;
}

static const char crash_script[] =
	"set scroll off\n"
	"sys\n"
	"bt\n"
	"log | tail -n " STR(LOG_TAIL) "\n"
	"ps -S\n"
	"quit\n";

/* crash(8) on the vmcore: 0, or -1 if its output did not do. */
static int report_with_crash(struct report_ctx *c, char **ret_out)
{
	char *argv[] = { (char *)tool("KDUMP_FILE_CRASH", "crash"), "-s",
			 (char *)c->vmlinux, (char *)c->vmcore, NULL };
	struct run_result res;
	int r;

	r = run(argv, crash_script, arg_timeout, &res);
	if (r < 0) {
		log_warning("cannot run %s: %s", argv[0], strerror(-r));
		return -1;
	}
	*ret_out = res.out;
	if (res.timed_out) {
		log_warning("crash did not finish within %ld s on '%s' (raise "
			    "--timeout); falling back to the kernel log",
			    arg_timeout, c->vmcore);
		return -1;
	}
	r = report_parse_crash(&c->rep, res.out);
	if (r < 0 || !c->rep.n_frames) {
		const char *last = tail(res.out, 3);

		log_warning("crash gave no %s for '%s' (exit status %d; it "
			    "said: %.300s); falling back to the kernel log",
			    r < 0 ? "panic or backtrace" : "backtrace",
			    c->vmcore, WIFEXITED(res.status) ?
			    WEXITSTATUS(res.status) : -1, last);
		return -1;
	}
	return 0;
}

/*
 * The kernel log from the dump itself (makedumpfile --dump-dmesg), or
 * DIR/dmesg.txt as saved at capture time.
 */
static char *kernel_log(struct report_ctx *c)
{
	char tmpdir[] = "/tmp/kdump-file-analyze.XXXXXX", out[PATH_MAX];
	char *argv[] = { (char *)tool("KDUMP_FILE_MAKEDUMPFILE",
				      "makedumpfile"), "--dump-dmesg",
			 (char *)c->vmcore, out, NULL };
	struct run_result res;
	char *text = NULL;
	int r;

	if (mkdtemp(tmpdir)) {
		snprintf(out, sizeof(out), "%s/dmesg", tmpdir);
		r = run(argv, NULL, arg_timeout, &res);
		if (r == 0 && !res.timed_out && WIFEXITED(res.status) &&
		    WEXITSTATUS(res.status) == 0)
			text = read_file(out, 16 << 20);
		else if (r == 0)
			log_warning("makedumpfile --dump-dmesg failed on '%s': "
				    "%.300s", c->vmcore, tail(res.out, 2));
		if (r == 0)
			free(res.out);
		(void)unlink(out);
		(void)rmdir(tmpdir);
	}
	if (!text) {
		snprintf(out, sizeof(out), "%s/dmesg.txt", c->dir);
		text = read_file(out, 16 << 20);
		if (text)
			log_warning("using the log saved at capture time, '%s'",
				    out);
	}
	return text;
}

/*
 * A dump without a vmcore whose kernel log the capture saved: a dmesg-only
 * dump (kdump-file.conf's dump_level = dmesg, its metadata.json says so),
 * or one whose vmcore the capture did not finish (incomplete).  The kernel
 * release and crash time come from metadata.json when there is one.
 */
static bool log_only_dump(struct report_ctx *c)
{
	char path[PATH_MAX], v[80];
	char *text;

	if ((size_t)snprintf(path, sizeof(path), "%s/dmesg.txt", c->dir) >=
	    sizeof(path) || access(path, R_OK) < 0)
		return false;
	c->incomplete = true;
	c->info.crashtime = -1;
	snprintf(path, sizeof(path), "%s/metadata.json", c->dir);
	text = read_file(path, 1 << 20);
	if (!text)
		return true;
	if (json_get_field(text, "dmesg_only", v, sizeof(v)) == 0 &&
	    strcmp(v, "true") == 0)
		c->incomplete = false;
	if (json_get_field(text, "crash_time", v, sizeof(v)) == 0)
		c->info.crashtime = strtoll(v, NULL, 10);
	if (json_get_field(text, "kernel_release", v, sizeof(v)) == 0)
		snprintf(c->info.osrelease, sizeof(c->info.osrelease), "%s", v);
	free(text);
	return true;
}

static int verb_report(int argc, char *argv[])
{
	char vmcore[PATH_MAX], found[PATH_MAX], rel[128];
	char err[VMLINUX_ERR_MAX], note[PATH_MAX + 128] = "";
	struct report_ctx c = { .dir = argv[0] };
	char *out = NULL, *log = NULL;
	struct vmcore *v;
	const char *top, *task;
	char taskbuf[64];
	int r, ret = EXIT_FAIL;

	if (argc != 1) {
		log_error("'report' takes one DIR argument (see --help)");
		return EXIT_USAGE;
	}
	if ((size_t)snprintf(vmcore, sizeof(vmcore), "%s/vmcore", c.dir) >=
	    sizeof(vmcore)) {
		log_error("directory name too long: '%s'", c.dir);
		return EXIT_FAIL;
	}
	c.vmcore = vmcore;
	if (access(vmcore, F_OK) < 0 && errno == ENOENT && log_only_dump(&c)) {
		char path[PATH_MAX + 16];

		/* Nothing to give crash: the saved log is all there is. */
		c.vmcore = NULL;
		report_init(&c.rep, "dmesg");
		snprintf(path, sizeof(path), "%s/dmesg.txt", c.dir);
		log = read_file(path, 16 << 20);
		if (!log) {
			log_error("dump '%s' has no vmcore and its kernel log "
				  "'%s' cannot be read: %s", c.dir, path,
				  strerror(errno));
			goto out;
		}
		if (report_parse_log(&c.rep, log) < 0)
			log_warning("no panic or oops found in the kernel log "
				    "'%s'", path);
		c.raw = tail(log, LOG_TAIL);
		c.raw_name = "kernel log (end)";
		goto write;
	}
	v = open_vmcore(vmcore);
	if (!v)
		return EXIT_FAIL;
	if (vmcore_validate(v) < 0)
		log_warning("vmcore '%s' is incomplete, the report may be too: "
			    "%s", vmcore, vmcore_error(v));
	(void)vmcore_get_info(v, &c.info);
	vmcore_free(v);

	if (arg_vmlinux) {
		r = vmlinux_release(arg_vmlinux, rel, sizeof(rel), err,
				    sizeof(err));
		if (r < 0) {
			log_error("cannot use vmlinux '%s': %s", arg_vmlinux,
				  err);
			return EXIT_FAIL;
		}
		if (c.info.osrelease[0] && strcmp(rel, c.info.osrelease)) {
			log_error("vmcore is from %s but vmlinux '%s' is %s: "
				  "use the matching vmlinux", c.info.osrelease,
				  arg_vmlinux, rel);
			return EXIT_FAIL;
		}
		c.vmlinux = arg_vmlinux;
	} else if (!c.info.osrelease[0]) {
		c.vmlinux_note = "the vmcore does not say its release";
	} else if (vmlinux_find(NULL, c.info.osrelease, found,
				sizeof(found)) >= 0) {
		c.vmlinux = found;
	} else {
		snprintf(note, sizeof(note),
			 "no vmlinux for %s in /usr/lib/debug/boot, "
			 "/usr/lib/debug/lib/modules, /boot or /lib/modules",
			 c.info.osrelease);
		c.vmlinux_note = note;
		log_warning("%s (install the kernel's -dbg package or pass "
			    "--vmlinux); reporting from the dump alone",
			    note);
	}

	report_init(&c.rep, "crash");
	if (c.vmlinux && report_with_crash(&c, &out) == 0) {
		c.raw = out;
		c.raw_name = "crash output";
	} else {
		if (c.vmlinux && !c.vmlinux_note)
			c.vmlinux_note = "crash failed on it";
		report_init(&c.rep, "dmesg");
		log = kernel_log(&c);
		if (!log) {
			log_error("cannot get the kernel log of '%s' (makedumpfile "
				  "--dump-dmesg failed and there is no %s/"
				  "dmesg.txt)", vmcore, c.dir);
			goto out;
		}
		if (report_parse_log(&c.rep, log) < 0)
			log_warning("no panic or oops found in the kernel log "
				    "of '%s'", vmcore);
		if (c.vmlinux && c.vmlinux_note)
			c.vmlinux = NULL;
		c.raw = tail(log, LOG_TAIL);
		c.raw_name = "kernel log (end)";
	}
write:
	if (!c.rep.release[0])
		snprintf(c.rep.release, sizeof(c.rep.release), "%s",
			 c.info.osrelease);
	report_sign(&c.rep);

	r = write_atomic(c.dir, "report.txt", write_report_text, &c);
	if (r >= 0)
		r = write_atomic(c.dir, "report.json", write_report_json, &c);
	if (r < 0) {
		log_error("cannot write the report in '%s': %s", c.dir,
			  strerror(-r));
		goto out;
	}

	top = c.rep.n_sig_frames ? c.rep.sig_frames[0] :
	      c.rep.n_frames ? c.rep.frames[0] : "no backtrace";
	if (c.rep.command[0]) {
		snprintf(taskbuf, sizeof(taskbuf), "%s", c.rep.command);
		task = taskbuf;
	} else {
		task = "unknown task";
	}
	printf("kdump-file: crash %s: %s in %s (%s)\n", c.rep.signature,
	       c.rep.panic[0] ? c.rep.panic :
	       c.rep.oops[0] ? c.rep.oops : "no panic message found",
	       task, top);
	ret = EXIT_OK;
out:
	free(out);
	free(log);
	return ret;
}

int main(int argc, char *argv[])
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char *argv[]);
	} verbs[] = {
		{ "info", verb_info },
		{ "check", verb_check },
		{ "read", verb_read },
		{ "report", verb_report },
		{ "vmlinux", verb_vmlinux },
	};
	const char *verb;
	size_t i;
	int n;

	if (argc < 2) {
		help(stderr);
		return EXIT_USAGE;
	}
	verb = argv[1];
	if (!strcmp(verb, "-h") || !strcmp(verb, "--help") ||
	    !strcmp(verb, "help")) {
		help(stdout);
		return EXIT_OK;
	}
	if (!strcmp(verb, "--version")) {
		printf(PROG " " VERSION "\n");
		return EXIT_OK;
	}
	for (i = 0; i < ARRAY_SIZE(verbs); i++) {
		if (strcmp(verb, verbs[i].name))
			continue;
		n = parse_argv(argc - 1, argv + 1, verb);
		if (n < 0)
			return EXIT_USAGE;
		if (!strcmp(verb, "info") && (arg_vmlinux ||
		    arg_crashkernel_set || arg_n_excludes || arg_n_markers)) {
			log_error("'info' takes only --json");
			return EXIT_USAGE;
		}
		return verbs[i].fn(n, argv + 1 + optind);
	}
	log_error("unknown command '%s' (see --help)", verb);
	return EXIT_USAGE;
}
