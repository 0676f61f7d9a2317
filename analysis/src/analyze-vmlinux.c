// SPDX-License-Identifier: GPL-2.0
/*
 * kdump-file-analyze vmlinux: the vmlinux a dump needs, by the build ID in
 * its VMCOREINFO, in the debug directories Debian's -dbg packages fill and
 * in the project's own kernel builds; printed on stdout for "kdump-file
 * debug".
 */
#include <errno.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "util.h"
#include "vmlinux.h"

/* Where make keeps kdump-file's own kernel builds (test/lib/kernel-build.sh) */
#define KERNEL_BUILDS "/var/cache/kdump-file/kernel"

/* --vmlinux FILE: is it the kernel that crashed? */
static int vmlinux_given(const struct analyze_options *o,
			 const struct vmcore_info *in)
{
	char have[130];

	if (in->build_id[0] &&
	    (vmlinux_build_id(o->vmlinux, have, sizeof(have)) < 0 ||
	     strncmp(have, in->build_id, strlen(in->build_id)) != 0)) {
		log_error("vmlinux '%s' is not the kernel that crashed (build ID %s expected)",
			  o->vmlinux, in->build_id);
		return EXIT_FAIL;
	}
	printf("%s\n", o->vmlinux);
	return EXIT_OK;
}

/* The debug directories, then kdump-file's own kernel builds. */
static int vmlinux_search(const struct vmcore_info *in, char *found,
			  size_t size)
{
	_cleanup_free_ const char **extra = NULL;
	glob_t g = { 0 };
	int r;

	(void)glob(KERNEL_BUILDS "/*/vmlinux", 0, NULL, &g);
	extra = calloc(g.gl_pathc + 1, sizeof(*extra));
	if (!extra) {
		globfree(&g);
		return -ENOMEM;
	}
	for (size_t i = 0; i < g.gl_pathc; i++)
		extra[i] = g.gl_pathv[i];
	r = vmlinux_find_id(in->osrelease, in->build_id, extra, found, size);
	globfree(&g);
	return r;
}

int verb_vmlinux(const struct analyze_options *o, int argc, char *argv[])
{
	char found[4096], deb[256] = "";
	struct vmcore_info in;
	struct vmcore *v;
	int r;

	(void)argc;
	if (open_vmcore(argv[0], &v) < 0)
		return EXIT_FAIL;
	r = vmcore_get_info(v, &in);
	vmcore_free(v);
	if (r < 0 || (!in.osrelease[0] && !in.build_id[0])) {
		log_error("vmcore '%s' names neither its kernel release nor its build ID: pass the vmlinux yourself",
			  argv[0]);
		return EXIT_FAIL;
	}
	if (o->vmlinux)
		return vmlinux_given(o, &in);
	if (vmlinux_search(&in, found, sizeof(found)) == 0) {
		printf("%s\n", found);
		return EXIT_OK;
	}
	/* Debian's kernels: linux-image-RELEASE-dbg has the vmlinux. */
	if (in.osrelease[0] && strstr(in.osrelease, "-amd64"))
		text_format(deb, sizeof(deb), "install linux-image-%s-dbg (apt-get install linux-image-%s-dbg), or ",
			    in.osrelease, in.osrelease);
	log_error("no vmlinux of kernel %s%s%s found in /usr/lib/debug or /boot: %spass the kernel's vmlinux with --vmlinux FILE",
		  in.osrelease[0] ? in.osrelease : "(release unknown)",
		  in.build_id[0] ? ", build ID " : "", in.build_id, deb);
	return EXIT_FAIL;
}
