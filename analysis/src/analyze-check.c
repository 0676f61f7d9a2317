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

/* One run of check: what it looks at, and its counts so far. */
struct check_run {
	const struct analyze_options *o;
	struct vmcore *v;
	const struct vmcore_info *in;
	unsigned int n_pass, n_fail;
};

__attribute__((format(printf, 4, 5)))
static void result(struct check_run *cr, bool ok, const char *name,
		   const char *fmt, ...)
{
	va_list ap;

	printf("%-4s %s: ", ok ? "ok" : "FAIL", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (ok)
		cr->n_pass++;
	else
		cr->n_fail++;
}

/* What every dump must have: its data, VMCOREINFO, a crash time. */
static void check_basics(struct check_run *cr)
{
	struct vmcore *v = cr->v;
	const struct vmcore_info *in = cr->in;
	struct diag d = DIAG_INIT;

	if (vmcore_validate(v, &d) < 0)
		result(cr, false, "complete", "%s", diag_text(&d));
	else
		result(cr, true, "complete", "the data of every dumped page "
		       "is in the file; first and last pages read back");
	result(cr, in->has_vmcoreinfo && in->osrelease[0], "vmcoreinfo",
	       "OSRELEASE %s", in->osrelease[0] ? in->osrelease : "missing");
	result(cr, in->page_size == 4096, "pagesize", "PAGESIZE %" PRIu64,
	       in->page_size);
	result(cr, in->crashtime > 0, "crashtime", "CRASHTIME %" PRId64,
	       in->crashtime);
}

static void check_cpus(struct check_run *cr)
{
	const struct vmcore_info *in = cr->in;
	unsigned int cpu, bad_cpus = 0;

	for (cpu = 0; cpu < in->n_cpus; cpu++) {
		struct vmcore_cpu c;

		if (vmcore_get_cpu(cr->v, cpu, &c, NULL) < 0 || !c.rip ||
		    !c.rsp)
			bad_cpus++;
	}
	if (in->n_cpus == 0)
		result(cr, false, "cpus", "no NT_PRSTATUS notes: no CPU "
		       "registers were saved");
	else if (bad_cpus)
		result(cr, false, "cpus", "%u of %u CPUs have no rip/rsp",
		       bad_cpus, in->n_cpus);
	else
		result(cr, true, "cpus", "%u CPUs with registers", in->n_cpus);
	if (cr->o->expect_cpus >= 0)
		result(cr, in->n_cpus == cr->o->expect_cpus, "expect-cpus",
		       "%u CPUs, expected %ld", in->n_cpus, cr->o->expect_cpus);
}

static void check_vmlinux(struct check_run *cr, const char *release)
{
	const char *vmlinux = cr->o->vmlinux;
	struct diag d = DIAG_INIT;
	char rel[128];

	if (vmlinux_release(vmlinux, rel, sizeof(rel), &d) < 0) {
		result(cr, false, "vmlinux",
		       "cannot tell the release of '%s': %s", vmlinux,
		       diag_text(&d));
		return;
	}
	if (!release[0])
		result(cr, false, "vmlinux",
		       "vmlinux is %s but the vmcore does not say its release",
		       rel);
	else if (strcmp(rel, release))
		result(cr, false, "vmlinux",
		       "vmcore is from %s but vmlinux '%s' is %s: use the "
		       "matching vmlinux", release, vmlinux, rel);
	else
		result(cr, true, "vmlinux", "'%s' is %s, as the vmcore",
		       vmlinux, rel);
}

static void check_range(struct check_run *cr, const char *name,
			const struct range_arg *ra, enum vmcore_map map)
{
	struct diag d = DIAG_INIT;
	uint64_t at;
	int r;

	r = vmcore_find_in_range(cr->v, map, ra->start, ra->end, &at, &d);
	if (r < 0)
		result(cr, false, name, "%s: %s", ra->text, diag_text(&d));
	else if (r > 0)
		result(cr, false, name, "%s: the dump has %s at %#" PRIx64,
		       ra->text, map == VMCORE_MAP_RAM ? "memory" :
		       "page contents", at);
	else
		result(cr, true, name, "%s: not in the dump", ra->text);
}

static void check_marker(struct check_run *cr, const struct marker_arg *m)
{
	struct diag d = DIAG_INIT;
	uint8_t buf[64];
	char got[2 * sizeof(buf) + 1];
	size_t i;

	if (vmcore_read_phys(cr->v, m->addr, buf, m->len, NULL, &d) < 0) {
		result(cr, false, "marker", "%s: %s", m->text, diag_text(&d));
		return;
	}
	for (i = 0; i < m->len; i++)
		snprintf(got + 2 * i, 3, "%02x", buf[i]);
	if (memcmp(buf, m->bytes, m->len))
		result(cr, false, "marker", "%s: found %s", m->text, got);
	else
		result(cr, true, "marker", "%s: found", m->text);
}

/* What the command line asked for. */
static void check_expected(struct check_run *cr)
{
	const struct analyze_options *o = cr->o;
	size_t i;

	if (o->vmlinux)
		check_vmlinux(cr, cr->in->osrelease);
	if (o->crashkernel_set)
		check_range(cr, "crashkernel", &o->crashkernel,
			    VMCORE_MAP_RAM);
	for (i = 0; i < o->n_excludes; i++)
		check_range(cr, "exclude", &o->excludes[i], VMCORE_MAP_DUMPED);
	for (i = 0; i < o->n_markers; i++)
		check_marker(cr, &o->markers[i]);
}

int verb_check(const struct analyze_options *o, int argc, char *argv[])
{
	struct vmcore_info in = { .crashtime = -1 };
	struct check_run cr = { .o = o, .in = &in };
	struct diag d = DIAG_INIT;
	struct vmcore *v;
	char sz[32];

	(void)argc;
	if (vmcore_open(argv[0], &v, &d) < 0) {
		result(&cr, false, "open", "cannot open vmcore '%s': %s",
		       argv[0], diag_text(&d));
		printf("1 of 1 checks failed\n");
		return EXIT_FAIL;
	}
	cr.v = v;
	(void)vmcore_get_info(v, &in);
	result(&cr, true, "open", "%s (%s), %s, %s", in.format,
	       in.description, in.arch, size_str(in.file_size, sz, sizeof(sz)));
	check_basics(&cr);
	check_cpus(&cr);
	check_expected(&cr);
	vmcore_free(v);
	if (cr.n_fail) {
		printf("%u of %u checks failed\n", cr.n_fail,
		       cr.n_pass + cr.n_fail);
		return EXIT_FAIL;
	}
	printf("all %u checks passed\n", cr.n_pass);
	return EXIT_OK;
}
