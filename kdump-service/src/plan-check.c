// SPDX-License-Identifier: GPL-2.0
/*
 * plan_check() (see plan.h): what would stop a load of the plan, or make
 * its capture fail, that plan_make() itself does not refuse: the capture
 * kernel and initramfs as load opens them (missing, cut short, not what
 * kexec_file_load or the capture takes, of another release), either
 * writable by others than root, the ssh target's files, a dump target not
 * attached.  Each is one problem with what to do, none printed here.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plan.h"

static void plan_problem(struct plan_problems *pp, int r, const char *fmt, ...)
			 __attribute__((format(printf, 3, 4)));

/* One more problem: kept when there is room, counted anyway. */
static void plan_problem(struct plan_problems *pp, int r, const char *fmt, ...)
{
	va_list ap;

	if (pp->n == 0)
		pp->first = r;
	if (pp->n < PLAN_PROBLEMS_MAX) {
		va_start(ap, fmt);
		vsnprintf(pp->text[pp->n], sizeof(pp->text[pp->n]), fmt, ap);
		va_end(ap);
	}
	pp->n++;
}

/* path opened for reading, if it is a non-empty regular file. */
static int open_input(const char *path, int *ret_fd)
{
	struct stat st;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
		close(fd);
		return -EINVAL;
	}
	*ret_fd = fd;
	return 0;
}

/*
 * The release a bzImage names in its boot header: kernel_version, a
 * pointer less 0x200 to "6.1.0-18-amd64 (builder@host) #1 SMP ..."
 * (Documentation/arch/x86/boot.rst); its first word, or -ENODATA.
 */
static int bzimage_release(int fd, char *ret, size_t size)
{
	unsigned char off[2];
	char buf[128];
	unsigned int at;
	ssize_t n;
	size_t len;

	if (pread(fd, off, 2, 0x20e) != 2)
		return -ENODATA;
	at = off[0] | off[1] << 8;
	if (at == 0)
		return -ENODATA;
	n = pread(fd, buf, sizeof(buf) - 1, at + 0x200);
	if (n <= 0)
		return -ENODATA;
	buf[n] = '\0';
	len = strcspn(buf, " ");
	if (len == 0 || len >= size || len == (size_t)n)
		return -ENODATA;
	for (size_t i = 0; i < len; i++)
		if (buf[i] < 0x21 || buf[i] > 0x7e)
			return -ENODATA;
	snprintf(ret, size, "%.*s", (int)len, buf);
	return 0;
}

/* The capture kernel, as load opens it and kexec_file_load takes it. */
static void check_kernel(const struct plan *p, struct plan_problems *pp)
{
	char release[65];
	int fd, r;

	r = open_input(p->kernel, &fd);
	if (r == -ENOENT) {
		plan_problem(pp, r, "capture kernel '%s' does not exist: install that kernel's package, or set 'kernel' in %s",
			     p->kernel, p->config);
		return;
	}
	if (r == -EINVAL) {
		plan_problem(pp, r, "capture kernel '%s' is not a non-empty regular file: point 'kernel' in %s at a vmlinuz",
			     p->kernel, p->config);
		return;
	}
	if (r < 0) {
		plan_problem(pp, r, "cannot open capture kernel '%s': %s",
			     p->kernel, strerror(-r));
		return;
	}
	r = kexec_check_bzimage(fd);
	if (r == -EBADMSG)
		plan_problem(pp, r, "capture kernel '%s' is truncated: its boot header announces more than the file holds (a copy cut short?): reinstall it, or point 'kernel' in %s at a complete vmlinuz",
			     p->kernel, p->config);
	else if (r < 0)
		plan_problem(pp, r, "capture kernel '%s' is not an x86_64 bzImage that kexec_file_load accepts (boot protocol 2.12, 64-bit entry): point 'kernel' in %s at a vmlinuz",
			     p->kernel, p->config);
	/*
	 * The initramfs kdump-file builds holds the modules of p->release:
	 * a capture kernel of another release finds none it can load.
	 */
	else if (p->conf.kernel[0] && p->initramfs_managed &&
		 bzimage_release(fd, release, sizeof(release)) == 0 &&
		 strcmp(release, p->release) != 0)
		plan_problem(pp, -EINVAL, "capture kernel '%s' is release %s, but the capture initramfs kdump-file builds holds the modules of %s: set 'kernel' in %s to a %s kernel, or remove it, or set 'initramfs' to one made for %s",
			     p->kernel, release, p->release, p->config,
			     p->release, release);
	close(fd);
}

/* A configured initramfs, or the one kdump-file built and keeps current. */
static void check_initramfs(const struct plan *p, struct plan_problems *pp)
{
	struct initramfs_problem bad = { 0 };
	int fd, r;

	/* Missing or out of date, load builds it: not a problem. */
	if (p->initramfs_managed &&
	    strcmp(plan_initramfs_state(p), "current") != 0)
		return;
	r = open_input(p->initramfs, &fd);
	if (r == -ENOENT) {
		plan_problem(pp, r, "capture initramfs '%s' does not exist: point 'initramfs' in %s at one, or remove it to have kdump-file build one",
			     p->initramfs, p->config);
		return;
	}
	if (r < 0) {
		plan_problem(pp, r, "cannot open capture initramfs '%s': %s",
			     p->initramfs, r == -EINVAL ?
			     "not a non-empty regular file" : strerror(-r));
		return;
	}
	r = initramfs_verify(fd, &bad);
	close(fd);
	if (r == -EBADMSG)
		plan_problem(pp, r, "capture initramfs '%s' is truncated or corrupt (%s at byte %llu): %s",
			     p->initramfs, bad.what, bad.offset,
			     p->initramfs_managed ?
			     "rebuild it with 'kdump-file rebuild'" :
			     "rebuild or replace that file");
	else if (r == -EINVAL)
		plan_problem(pp, r, "capture initramfs '%s' is neither a cpio archive nor a compressed one",
			     p->initramfs);
	else if (r < 0)
		plan_problem(pp, r, "cannot read capture initramfs '%s': %s",
			     p->initramfs, strerror(-r));
}

int plan_check(const struct plan *p, struct plan_problems *problems)
{
	const char *paths[] = { p->kernel, p->initramfs };
	struct input_violation bad = { 0 };
	int r;

	memset(problems, 0, sizeof(*problems));
	check_kernel(p, problems);
	/* What the capture kernel boots must be root's alone (load's check). */
	r = paths_check_root_only(paths, p->initramfs_managed ? 1 : 2, &bad);
	if (r == -EPERM)
		plan_problem(problems, r, "'%s' is %s, and what the capture kernel boots must be root's alone (chown root and chmod go-w '%s')",
			     bad.path, plan_violation_text(&bad), bad.path);
	else if (r < 0 && r != -ENOENT)
		plan_problem(problems, r, "cannot check '%s': %s", bad.path,
			     strerror(-r));
	check_initramfs(p, problems);
	for (unsigned int i = 0; i < 2; i++) {
		struct diag ssh = DIAG_INIT;

		r = net_check_ssh_files(&p->conf, i, &ssh);
		if (r < 0)
			plan_problem(problems, r, "%s", diag_text(&ssh));
	}
	if (p->target_absent)
		plan_problem(problems, -ENODEV, "%s %s from %s is not attached to this machine: a crash now has nowhere to be saved (attach it, or correct '%s')",
			     p->conf.raw[0] ? "raw dump device" : "dump target",
			     p->conf.raw[0] ? p->conf.raw : p->conf.target,
			     p->config, p->conf.raw[0] ? "raw" : "target");
	return problems->n ? problems->first : 0;
}
