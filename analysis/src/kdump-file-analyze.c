// SPDX-License-Identifier: GPL-2.0
/*
 * kdump-file-analyze: look into a saved kernel crash dump.
 *
 *   info VMCORE [--json]            what the dump says about itself
 *   check VMCORE [options]          is the dump usable and as expected
 *   read VMCORE ADDR [LEN]          hex dump of physical memory
 *   report DIR [--vmlinux FILE]     what crashed, via crash(8)
 *   vmlinux VMCORE                  the crashed kernel's vmlinux
 *
 * This file parses the command line and dispatches; the verbs are in
 * analyze-*.c (analyze.h says which).
 *
 * Exit status: 0 success, 1 failure, 2 usage error.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "version.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct verb {
	const char *name;
	int min_args;
	int max_args;
	const char *args;	/* for the usage error */
	int (*fn)(const struct analyze_options *o, int argc, char *argv[]);
};

static const struct verb verbs[] = {
	{ "info", 1, 1, "VMCORE", verb_info },
	{ "check", 1, 1, "VMCORE", verb_check },
	{ "read", 2, 3, "VMCORE ADDR [LEN]", verb_read },
	{ "report", 1, 1, "DIR", verb_report },
	{ "vmlinux", 1, 1, "VMCORE", verb_vmlinux },
};

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

/* START-END, hexadecimal, END inclusive as in /proc/iomem. */
static int parse_range(const char *s, struct range_arg *ret)
{
	const char *dash = strchr(s, '-');
	char buf[64];
	uint64_t a, b;

	if (!dash || (size_t)(dash - s) >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, dash - s);
	buf[dash - s] = '\0';
	if (parse_hex(buf, &a) < 0 || parse_hex(dash + 1, &b) < 0 || b < a ||
	    b == UINT64_MAX)
		return -EINVAL;
	*ret = (struct range_arg) { .start = a, .end = b + 1, .text = s };
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -EINVAL;
}

/* ADDR:HEXBYTES, at most 64 bytes. */
static int parse_marker(const char *s, struct marker_arg *ret)
{
	const char *colon = strchr(s, ':'), *h;
	struct marker_arg m = { .text = s };
	char buf[64];

	if (!colon || (size_t)(colon - s) >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, colon - s);
	buf[colon - s] = '\0';
	if (parse_hex(buf, &m.addr) < 0)
		return -EINVAL;
	h = colon + 1;
	if (h[0] == '0' && (h[1] == 'x' || h[1] == 'X'))
		h += 2;
	if (!*h || strlen(h) % 2 || strlen(h) / 2 > sizeof(m.bytes))
		return -EINVAL;
	for (; *h; h += 2) {
		int hi = hexval(h[0]), lo = hexval(h[1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		m.bytes[m.len++] = hi << 4 | lo;
	}
	*ret = m;
	return 0;
}

static int parse_long(const char *s, long min, long max, long *ret)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || !*s || *end || v < min || v > max)
		return -EINVAL;
	*ret = v;
	return 0;
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

/* The value of one option with an argument: 0, or -EINVAL said. */
static int parse_value(struct analyze_options *o, int c, const char *v)
{
	switch (c) {
	case ARG_VMLINUX:
		o->vmlinux = v;
		return 0;
	case ARG_CRASHKERNEL:
		if (parse_range(v, &o->crashkernel) < 0) {
			log_error("invalid --crashkernel range '%s' (expected "
				  "hex START-END, e.g. 33000000-3effffff)", v);
			return -EINVAL;
		}
		o->crashkernel_set = true;
		return 0;
	case ARG_EXPECT_CPUS:
		if (parse_long(v, 0, 65536, &o->expect_cpus) < 0) {
			log_error("invalid --expect-cpus '%s' (expected a "
				  "number)", v);
			return -EINVAL;
		}
		return 0;
	case ARG_EXCLUDE:
		if (o->n_excludes == MAX_RANGES_ARG ||
		    parse_range(v, &o->excludes[o->n_excludes]) < 0) {
			log_error("invalid --exclude range '%s' (expected hex "
				  "START-END, at most %d)", v, MAX_RANGES_ARG);
			return -EINVAL;
		}
		o->n_excludes++;
		return 0;
	case ARG_MARKER:
		if (o->n_markers == MAX_RANGES_ARG ||
		    parse_marker(v, &o->markers[o->n_markers]) < 0) {
			log_error("invalid --marker '%s' (expected "
				  "HEXADDR:HEXBYTES, at most 64 bytes)", v);
			return -EINVAL;
		}
		o->n_markers++;
		return 0;
	case ARG_TIMEOUT:
		if (parse_long(v, 1, 86400, &o->timeout) < 0) {
			log_error("invalid --timeout '%s' (expected seconds)", v);
			return -EINVAL;
		}
		return 0;
	}
	return -EINVAL;
}

/*
 * Options may come anywhere after the verb. Returns 1 with the positional
 * arguments left in argv[optind..]; 0 when --help or --version said all
 * there is to say; -EINVAL on a usage error, said.
 */
static int parse_argv(struct analyze_options *o, int argc, char *argv[],
		      const char *verb)
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
			return 0;
		case ARG_VERSION:
			printf(PROG " " KDUMP_FILE_VERSION "\n");
			return 0;
		case ARG_JSON:
			o->json = true;
			break;
		case '?':
			if (optopt)
				log_error("'%s': unknown option -%c", verb,
					  optopt);
			else
				log_error("'%s': unknown or incomplete option "
					  "'%s'", verb, argv[optind - 1]);
			return -EINVAL;
		default:
			if (parse_value(o, c, optarg) < 0)
				return -EINVAL;
		}
	}
	if (!strcmp(verb, "info") && (o->vmlinux || o->crashkernel_set ||
				      o->n_excludes || o->n_markers)) {
		log_error("'info' takes only --json");
		return -EINVAL;
	}
	return 1;
}

static const struct verb *find_verb(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(verbs); i++)
		if (!strcmp(name, verbs[i].name))
			return &verbs[i];
	return NULL;
}

int main(int argc, char *argv[])
{
	struct analyze_options o = { .expect_cpus = -1, .timeout = 300 };
	const struct verb *verb;
	int r, n;

	if (argc < 2) {
		help(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		help(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf(PROG " " KDUMP_FILE_VERSION "\n");
		return EXIT_OK;
	}
	verb = find_verb(argv[1]);
	if (!verb) {
		log_error("unknown command '%s' (see --help)", argv[1]);
		return EXIT_USAGE;
	}
	r = parse_argv(&o, argc - 1, argv + 1, verb->name);
	if (r <= 0)
		return r < 0 ? EXIT_USAGE : EXIT_OK;
	n = argc - 1 - optind;
	if (n < verb->min_args || n > verb->max_args) {
		log_error("'%s' takes %s (see --help)", verb->name, verb->args);
		return EXIT_USAGE;
	}
	return verb->fn(&o, n, argv + 1 + optind);
}
