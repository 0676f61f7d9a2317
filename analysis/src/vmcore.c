// SPDX-License-Identifier: GPL-2.0
/*
 * vmcore: kernel crash dumps through libkdumpfile.
 *
 * libkdumpfile does the format work. Before a file reaches it we check its
 * headers ourselves (vmcore-elf.c, vmcore-diskdump.c), because the file
 * may be cut short or damaged (a capture interrupted by a power cut, a
 * disk full). Page data is read with read(2), never mmap(2): a file
 * truncated under us then gives a short read instead of SIGBUS. This file
 * opens the dump and says what it is; its memory is in vmcore-memory.c.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"
#include "vmcore-internal.h"

#define FLAT_SIGNATURE "makedumpfile"
#define KDUMP_SIGNATURE "KDUMP   "
#define DISKDUMP_SIGNATURE "DISKDUMP"

int vmcore_kdump_errno(kdump_status st)
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

int vmcore_kdump_fail(struct vmcore *v, kdump_status st, const char *what,
		      struct diag *d)
{
	const char *detail = kdump_get_err(v->ctx);

	if (!detail)
		detail = kdump_strerror(st);
	if (st == KDUMP_ERR_EOF)
		return diag_fail(d, vmcore_kdump_errno(st),
				 "%s: unexpected end of file, the dump is "
				 "truncated (%s)", what, detail);
	return diag_fail(d, vmcore_kdump_errno(st), "%s: %s", what, detail);
}

static void copy_str(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

int vmcore_pread(struct vmcore *v, void *buf, size_t len, uint64_t off,
		 const char *what, struct diag *d)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(v->fd, (char *)buf + done, len - done,
				  off + done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return diag_fail(d, -errno,
					 "cannot read %s at offset %#" PRIx64
					 ": %s", what, off + done,
					 strerror(errno));
		if (n == 0)
			return diag_fail(d, -EBADMSG,
					 "truncated: %s at offset %#" PRIx64
					 " ends past the end of the file (%"
					 PRIu64 " bytes)", what, off,
					 v->file_size);
		done += n;
	}
	return 0;
}

static int sniff(struct vmcore *v, struct diag *d)
{
	uint8_t sig[16] = { 0 };
	size_t n = v->file_size < sizeof(sig) ? v->file_size : sizeof(sig);
	int r;

	if (v->file_size == 0)
		return diag_fail(d, -EBADMSG, "empty file");
	r = vmcore_pread(v, sig, n, 0, "file signature", d);
	if (r < 0)
		return r;
	if (n >= strlen(FLAT_SIGNATURE) &&
	    !memcmp(sig, FLAT_SIGNATURE, strlen(FLAT_SIGNATURE)))
		return diag_fail(d, -ENOTSUP,
				 "makedumpfile flattened format (made with -F) "
				 "cannot be read directly; convert it first: "
				 "makedumpfile -R OUTFILE < FLATFILE");
	if (n >= SELFMAG && !memcmp(sig, ELFMAG, SELFMAG)) {
		v->is_elf = true;
		return vmcore_check_elf(v, d);
	}
	if (n >= 8 && (!memcmp(sig, KDUMP_SIGNATURE, 8) ||
		       !memcmp(sig, DISKDUMP_SIGNATURE, 8)))
		return vmcore_check_diskdump(v, d);
	if (n < 8 && (!memcmp(sig, ELFMAG, n < SELFMAG ? n : SELFMAG) ||
		      !memcmp(sig, KDUMP_SIGNATURE, n) ||
		      !memcmp(sig, DISKDUMP_SIGNATURE, n) ||
		      !memcmp(sig, FLAT_SIGNATURE, n)))
		return diag_fail(d, -EBADMSG,
				 "truncated: the file has only %zu bytes", n);
	return diag_fail(d, -EPROTONOSUPPORT,
			 "not a kernel dump: no ELF, makedumpfile kdump or "
			 "flattened signature at offset 0");
}

static int open_kdump(struct vmcore *v, struct diag *d)
{
	kdump_status st;
	const char *arch;
	kdump_num_t xen;

	v->ctx = kdump_new();
	if (!v->ctx)
		return diag_fail(d, -ENOMEM,
				 "cannot allocate a libkdumpfile context");
	/* Set before opening so that the dump is read as Linux. */
	st = kdump_set_string_attr(v->ctx, KDUMP_ATTR_OSTYPE, "linux");
	if (st != KDUMP_OK)
		return vmcore_kdump_fail(v, st, "cannot set the OS type", d);
	st = kdump_set_number_attr(v->ctx, KDUMP_ATTR_FILE_MMAP_POLICY,
				   KDUMP_MMAP_NEVER);
	if (st != KDUMP_OK)
		return vmcore_kdump_fail(v, st, "cannot set the mmap policy",
					 d);
	st = kdump_open_fd(v->ctx, v->fd);
	if (st != KDUMP_OK)
		return vmcore_kdump_fail(v, st, "libkdumpfile cannot open "
					 "the dump", d);

	st = kdump_get_string_attr(v->ctx, KDUMP_ATTR_ARCH_NAME, &arch);
	if (st != KDUMP_OK)
		return vmcore_kdump_fail(v, st,
					 "cannot tell the dump's architecture",
					 d);
	if (strcmp(arch, KDUMP_ARCH_X86_64))
		return diag_fail(d, -ENOTSUP,
				 "dump is for %.32s, only x86_64 is supported",
				 arch);
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

int vmcore_open_fd(int fd, struct vmcore **ret, struct diag *d)
{
	struct vmcore *v;
	struct stat st;
	int r;

	if (fd < 0 || !ret)
		return diag_fail(d, -EINVAL, NULL);
	v = calloc(1, sizeof(*v));
	if (!v)
		return diag_fail(d, -ENOMEM, "out of memory");
	v->bad_from = UINT64_MAX;
	v->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (v->fd < 0) {
		r = diag_fail(d, -errno, "cannot duplicate file descriptor: %s",
			      strerror(errno));
		goto fail;
	}
	if (fstat(v->fd, &st) < 0) {
		r = diag_fail(d, -errno, "cannot stat: %s", strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		r = diag_fail(d, -EINVAL, "not a regular file");
		goto fail;
	}
	v->file_size = st.st_size;

	r = sniff(v, d);
	if (r < 0)
		goto fail;
	r = open_kdump(v, d);
	if (r < 0)
		goto fail;
	if (v->dd_desc_off) {
		r = vmcore_scan_page_descs(v, d);
		if (r < 0)
			goto fail;
	}
	*ret = v;
	return 0;
fail:
	vmcore_free(v);
	return r;
}

int vmcore_open(const char *path, struct vmcore **ret, struct diag *d)
{
	int fd, r;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return diag_fail(d, -errno, NULL);
	r = vmcore_open_fd(fd, ret, d);
	close(fd);
	return r;
}

int vmcore_vmcoreinfo(struct vmcore *v, const char *key, char **ret,
		      struct diag *d)
{
	kdump_status st;
	char *val = NULL;

	st = kdump_vmcoreinfo_line(v->ctx, key, &val);
	if (st != KDUMP_OK)
		return diag_fail(d, vmcore_kdump_errno(st) == -EBADMSG ?
				 -EBADMSG : -ENODATA,
				 "VMCOREINFO has no %s", key);
	if (!val)
		return diag_fail(d, -ENODATA, "VMCOREINFO has no %s", key);
	*ret = val;
	return 0;
}

static void vmcoreinfo_str(struct vmcore *v, const char *key, char *dst,
			   size_t size)
{
	char *val;

	if (vmcore_vmcoreinfo(v, key, &val, NULL) < 0)
		return;
	copy_str(dst, size, val);
	free(val);
}

static bool parse_u64(const char *s, uint64_t *ret)
{
	unsigned long long n;

	if (parse_decimal(s, UINT64_MAX, &n) < 0)
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
	if (vmcore_vmcoreinfo(v, "PAGESIZE", &val, NULL) >= 0) {
		if (parse_u64(val, &u))
			in.page_size = u;
		free(val);
	}
	if (vmcore_vmcoreinfo(v, "CRASHTIME", &val, NULL) >= 0) {
		if (parse_u64(val, &u) && u <= INT64_MAX)
			in.crashtime = u;
		free(val);
	}
	*ret = in;
	return 0;
}

static int cpu_number(struct vmcore *v, unsigned int cpu, const char *name,
		      kdump_num_t *ret, struct diag *d)
{
	char key[64];
	kdump_status st;

	snprintf(key, sizeof(key), "cpu.%u.%s", cpu, name);
	st = kdump_get_number_attr(v->ctx, key, ret);
	if (st != KDUMP_OK)
		return vmcore_kdump_fail(v, st, key, d);
	return 0;
}

int vmcore_get_cpu(struct vmcore *v, unsigned int cpu, struct vmcore_cpu *ret,
		   struct diag *d)
{
	struct vmcore_cpu c;
	kdump_num_t n, pid, rip, rsp, rbp;
	int r;

	if (kdump_get_number_attr(v->ctx, KDUMP_ATTR_NUM_CPUS, &n) !=
	    KDUMP_OK || cpu >= n)
		return diag_fail(d, -ENODATA,
				 "the dump has no registers for CPU %u", cpu);
	r = cpu_number(v, cpu, "pid", &pid, d);
	if (r >= 0)
		r = cpu_number(v, cpu, "reg.rip", &rip, d);
	if (r >= 0)
		r = cpu_number(v, cpu, "reg.rsp", &rsp, d);
	if (r >= 0)
		r = cpu_number(v, cpu, "reg.rbp", &rbp, d);
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
		return -ENOTSUP;
	*ret = v->segs;
	*ret_n = v->n_segs;
	return 0;
}
