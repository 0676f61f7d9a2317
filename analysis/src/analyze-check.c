// SPDX-License-Identifier: GPL-2.0
/*
 * kdump-file-analyze check: is the dump usable and as expected? Each check
 * prints a line, "ok" or "FAIL", then the count; the QEMU tests read both.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "analyze.h"
#include "vmlinux.h"

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

/* What every dump must have: its data, VMCOREINFO, a crash time. */
static void check_basics(struct vmcore *v, const struct vmcore_info *in)
{
	if (vmcore_validate(v) < 0)
		result(false, "complete", "%s", vmcore_error(v));
	else
		result(true, "complete", "the data of every dumped page is in "
		       "the file; first and last pages read back");
	result(in->has_vmcoreinfo && in->osrelease[0], "vmcoreinfo",
	       "OSRELEASE %s", in->osrelease[0] ? in->osrelease : "missing");
	result(in->page_size == 4096, "pagesize", "PAGESIZE %" PRIu64,
	       in->page_size);
	result(in->crashtime > 0, "crashtime", "CRASHTIME %" PRId64,
	       in->crashtime);
}

static void check_cpus(struct vmcore *v, const struct vmcore_info *in)
{
	unsigned int cpu, bad_cpus = 0;

	for (cpu = 0; cpu < in->n_cpus; cpu++) {
		struct vmcore_cpu c;

		if (vmcore_get_cpu(v, cpu, &c) < 0 || !c.rip || !c.rsp)
			bad_cpus++;
	}
	if (in->n_cpus == 0)
		result(false, "cpus", "no NT_PRSTATUS notes: no CPU registers "
		       "were saved");
	else if (bad_cpus)
		result(false, "cpus", "%u of %u CPUs have no rip/rsp", bad_cpus,
		       in->n_cpus);
	else
		result(true, "cpus", "%u CPUs with registers", in->n_cpus);
	if (arg_expect_cpus >= 0)
		result(in->n_cpus == arg_expect_cpus, "expect-cpus",
		       "%u CPUs, expected %ld", in->n_cpus, arg_expect_cpus);
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

/* What the command line asked for. */
static void check_expected(struct vmcore *v, const struct vmcore_info *in)
{
	size_t i;

	if (arg_vmlinux)
		check_vmlinux(in->osrelease);
	if (arg_crashkernel_set)
		check_range(v, "crashkernel", &arg_crashkernel, VMCORE_MAP_RAM);
	for (i = 0; i < arg_n_excludes; i++)
		check_range(v, "exclude", &arg_excludes[i], VMCORE_MAP_DUMPED);
	for (i = 0; i < arg_n_markers; i++)
		check_marker(v, &arg_markers[i]);
}

int verb_check(int argc, char *argv[])
{
	char sz[32], err[VMCORE_ERR_MAX];
	struct vmcore_info in = { .crashtime = -1 };
	struct vmcore *v;

	(void)argc;
	if (vmcore_open(argv[0], &v, err, sizeof(err)) < 0) {
		result(false, "open", "cannot open vmcore '%s': %s", argv[0],
		       err);
		printf("1 of 1 checks failed\n");
		return EXIT_FAIL;
	}
	(void)vmcore_get_info(v, &in);
	result(true, "open", "%s (%s), %s, %s", in.format, in.description,
	       in.arch, size_str(in.file_size, sz, sizeof(sz)));
	check_basics(v, &in);
	check_cpus(v, &in);
	check_expected(v, &in);
	vmcore_free(v);
	if (n_fail) {
		printf("%u of %u checks failed\n", n_fail, n_pass + n_fail);
		return EXIT_FAIL;
	}
	printf("all %u checks passed\n", n_pass);
	return EXIT_OK;
}
