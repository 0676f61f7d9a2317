// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <linux/kexec.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kexec.h"
#include "util.h"

#ifndef KEXEC_FILE_ON_CRASH
#define KEXEC_FILE_UNLOAD 0x00000001
#define KEXEC_FILE_ON_CRASH 0x00000002
#define KEXEC_FILE_NO_INITRAMFS 0x00000004
#endif

int kexec_busy_retry(int (*op)(void *arg), void *arg, unsigned int tries,
		     unsigned int wait_ms)
{
	int r;

	for (unsigned int i = 1;; i++) {
		r = op(arg);
		if (r != -EBUSY || i >= tries)
			return r;
		usleep(wait_ms * 1000U);
	}
}

struct file_load_args {
	int kernel_fd;
	int initrd_fd;
	unsigned long cmdline_len;
	const char *cmdline;
	unsigned long flags;
};

static int file_load_once(void *arg)
{
	const struct file_load_args *a = arg;

	if (syscall(SYS_kexec_file_load, a->kernel_fd, a->initrd_fd,
		    a->cmdline_len, a->cmdline, a->flags) < 0)
		return -errno;
	return 0;
}

static int kexec_file_load_retry(int kernel_fd, int initrd_fd,
				 unsigned long cmdline_len, const char *cmdline,
				 unsigned long flags)
{
	struct file_load_args a = { kernel_fd, initrd_fd, cmdline_len, cmdline,
				    flags };

	return kexec_busy_retry(file_load_once, &a, KEXEC_BUSY_TRIES,
				KEXEC_BUSY_WAIT_MS);
}

static int crash_size_once(void *arg)
{
	return read_ull_file(SYS_CRASH_SIZE, arg);
}

int kexec_crash_size(unsigned long long *ret)
{
	return kexec_busy_retry(crash_size_once, ret, KEXEC_BUSY_TRIES,
				KEXEC_BUSY_WAIT_MS);
}

long long kexec_scrub_freed(unsigned long long bytes)
{
	static const char zeros[64 * 1024];
	int fds[2 * (SCRUB_MAX_BYTES / SCRUB_PIPE_BYTES)];
	unsigned long long done = 0;
	int n = 0, r = 0;

	if (bytes > SCRUB_MAX_BYTES)
		bytes = SCRUB_MAX_BYTES;
	/*
	 * Every pipe stays open until the end: a pipe closed early would give
	 * its zeroed pages back to the head of the list, and the next pipe
	 * would take those again instead of the freed copies.
	 */
	while (done < bytes && n + 2 <= (int)(sizeof(fds) / sizeof(fds[0]))) {
		ssize_t w;

		if (pipe2(&fds[n], O_NONBLOCK | O_CLOEXEC) < 0) {
			r = -errno;
			break;
		}
		n += 2;
		/* Beyond pipe-max-size only with CAP_SYS_RESOURCE. */
		(void)fcntl(fds[n - 1], F_SETPIPE_SZ, SCRUB_PIPE_BYTES);
		for (;;) {
			w = write(fds[n - 1], zeros, sizeof(zeros));
			if (w <= 0)
				break;
			done += (unsigned long long)w;
		}
		if (w < 0 && errno != EAGAIN) {
			r = -errno;
			break;
		}
	}
	for (int i = 0; i < n; i++)
		close(fds[i]);
	return r < 0 ? r : (long long)done;
}

static unsigned long long fd_bytes(int fd)
{
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0 || st.st_size < 0)
		return 0;
	return (unsigned long long)st.st_size;
}

int kexec_crash_load(int kernel_fd, int initrd_fd, const char *cmdline)
{
	unsigned long flags = KEXEC_FILE_ON_CRASH;
	cpu_set_t before, here;
	bool pinned = false;
	int cpu, r;

	if (initrd_fd < 0)
		flags |= KEXEC_FILE_NO_INITRAMFS;
	/* On one CPU, so that the scrub below runs where the kernel freed. */
	cpu = sched_getcpu();
	if (cpu >= 0 && cpu < CPU_SETSIZE &&
	    sched_getaffinity(0, sizeof(before), &before) == 0) {
		CPU_ZERO(&here);
		CPU_SET(cpu, &here);
		pinned = sched_setaffinity(0, sizeof(here), &here) == 0;
	}
	/* The length includes the terminating NUL (kernel/kexec_file.c). */
	r = kexec_file_load_retry(kernel_fd, initrd_fd, strlen(cmdline) + 1,
				  cmdline, flags);
	/* Best effort: only the size of a later dump depends on it. */
	if (r == 0)
		(void)kexec_scrub_freed(fd_bytes(kernel_fd) + fd_bytes(initrd_fd) +
					SCRUB_SLACK_BYTES);
	if (pinned)
		(void)sched_setaffinity(0, sizeof(before), &before);
	return r;
}

int kexec_crash_unload(void)
{
	return kexec_file_load_retry(-1, -1, 0UL, NULL,
				     KEXEC_FILE_UNLOAD | KEXEC_FILE_ON_CRASH);
}

static unsigned long long mib(unsigned long long b)
{
	return (b + (1 << 20) - 1) >> 20;
}

/*
 * A signature problem, when kexec_image_signature() could tell which: the
 * kernel (kernel/kexec_file.c, kimage_validate_signature()) returns EPERM
 * under lockdown and the verifier's error with CONFIG_KEXEC_SIG_FORCE,
 * whichever it is; only the image says which one it is.
 */
static void explain_signature(const struct kexec_context *ctx, char *buf,
			      size_t size)
{
	const char *lock = ctx->lockdown ? ctx->lockdown : "none";
	bool locked = strcmp(lock, "none") != 0;

	if (ctx->signed_state == KEXEC_SIG_UNSIGNED && locked)
		snprintf(buf, size,
			 "the capture kernel image is not signed and lockdown (%s) requires a signed image: sign it with sbsign using a key the running kernel trusts",
			 lock);
	else if (ctx->signed_state == KEXEC_SIG_UNSIGNED)
		snprintf(buf, size,
			 "the capture kernel image is not signed and the running kernel requires a signed image (CONFIG_KEXEC_SIG_FORCE): sign it with sbsign using a key the running kernel trusts");
	else
		snprintf(buf, size,
			 "the capture kernel image is signed, but not by a key the running kernel trusts (%s%s%s requires one): sign it with sbsign using a key in the running kernel's builtin, secondary or platform keyring (e.g. the certificate its CONFIG_SYSTEM_TRUSTED_KEYS names, or one enrolled in the firmware's db or the MOK list)",
			 locked ? "lockdown (" : "CONFIG_KEXEC_SIG_FORCE",
			 locked ? lock : "", locked ? ")" : "");
}

void kexec_explain(int err, const struct kexec_context *ctx, char *buf,
		   size_t size)
{
	const char *lock = ctx->lockdown ? ctx->lockdown : "none";

	switch (err) {
	case EPERM:
		if (!ctx->is_root)
			snprintf(buf, size,
				 "loading a crash kernel needs root (CAP_SYS_BOOT): run as root");
		else if (ctx->kexec_disabled)
			snprintf(buf, size,
				 "kexec is disabled (kernel.kexec_load_disabled = 1, which only a reboot resets): boot without setting it");
		else if (strcmp(lock, "none") != 0 &&
			 ctx->signed_state != KEXEC_SIG_UNKNOWN)
			explain_signature(ctx, buf, size);
		else if (strcmp(lock, "none") != 0)
			snprintf(buf, size,
				 "the kernel is locked down (%s) and refuses an image it cannot verify: sign the capture kernel with a key the running kernel trusts (sbsign)",
				 lock);
		else
			snprintf(buf, size,
				 "the kernel refused the load (a security module or seccomp policy?): check the kernel log");
		break;
	case EKEYREJECTED:
	case ENOKEY:
	case ENODATA:
	case EBADMSG:
		if (ctx->signed_state != KEXEC_SIG_UNKNOWN) {
			explain_signature(ctx, buf, size);
			break;
		}
		if (err == ENOKEY)
			snprintf(buf, size,
				 "the kernel is signed by a key the running kernel does not trust: sign it with a trusted key or add the key to the keyring");
		else if (err == EKEYREJECTED)
			snprintf(buf, size,
				 "the kernel's signature is not valid for any trusted key: sign it with a key in the kernel's trusted keyring");
		else
			snprintf(buf, size,
				 "the kernel image carries no usable signature and the lockdown mode (%s) requires one: sign it with sbsign",
				 lock);
		break;
	case EADDRNOTAVAIL:
	case ENOMEM:
		if (ctx->reserved == 0)
			snprintf(buf, size,
				 "no crashkernel= memory is reserved: run 'kdump-file setup' and reboot (it reserves what 'kdump-file estimate' recommends)");
		else if (ctx->needed)
			snprintf(buf, size,
				 "the crashkernel= reservation is too small: %llu MiB reserved, the capture kernel and initramfs need about %llu MiB; raise crashkernel= and reboot",
				 mib(ctx->reserved), mib(ctx->needed));
		else
			snprintf(buf, size,
				 "the crashkernel= reservation (%llu MiB) is too small for the capture kernel and initramfs: raise crashkernel= and reboot",
				 mib(ctx->reserved));
		break;
	case ENOEXEC:
		snprintf(buf, size,
			 "not a bootable x86_64 bzImage (or built without 64-bit kexec support): point 'kernel' at a vmlinuz");
		break;
	case EBUSY:
		snprintf(buf, size,
			 "another kexec load or a hotplug update of the loaded capture kernel kept the kernel busy for 5 s: try again");
		break;
	case EINVAL:
		snprintf(buf, size,
			 "the kernel refused the image or the command line (too long, or a kernel without kexec_file_load support for it): check the kernel log");
		break;
	case EBADF:
		snprintf(buf, size,
			 "a file could not be passed to the kernel: check that the kernel and initramfs are readable regular files");
		break;
	case ENOSYS:
		snprintf(buf, size,
			 "the running kernel has no kexec_file_load (CONFIG_KEXEC_FILE): use a kernel built with it");
		break;
	case EFBIG:
		snprintf(buf, size,
			 "the image is too large for the kernel to load: use a smaller kernel or initramfs");
		break;
	default:
		snprintf(buf, size, "%s", strerror(err));
		break;
	}
}

/* Offsets in the x86 boot protocol header (Documentation/x86/boot.rst). */
#define BOOT_HDR_SETUP_SECTS_OFF 0x1f1
#define BOOT_HDR_SYSSIZE_OFF 0x1f4
#define BOOT_HDR_MAGIC_OFF 0x202
#define BOOT_HDR_VERSION_OFF 0x206
#define BOOT_HDR_XLOADFLAGS_OFF 0x236
#define XLF_KERNEL_64 (1 << 0)
#define XLF_CAN_BE_LOADED_ABOVE_4G (1 << 1)

int kexec_check_bzimage(int fd)
{
	unsigned char h[0x240];
	unsigned int version, xlf, setup_sects;
	unsigned long long need;
	struct stat st;

	if (pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h))
		return -ENOEXEC;
	if (memcmp(h + BOOT_HDR_MAGIC_OFF, "HdrS", 4) != 0)
		return -ENOEXEC;
	version = h[BOOT_HDR_VERSION_OFF] | h[BOOT_HDR_VERSION_OFF + 1] << 8;
	xlf = h[BOOT_HDR_XLOADFLAGS_OFF] | h[BOOT_HDR_XLOADFLAGS_OFF + 1] << 8;
	/* kexec-bzimage64.c needs protocol 2.12 and a 64-bit entry. */
	if (version < 0x020c || !(xlf & XLF_KERNEL_64) ||
	    !(xlf & XLF_CAN_BE_LOADED_ABOVE_4G))
		return -ENOEXEC;
	/*
	 * The kernel checks only that the setup code is there: a payload cut
	 * short loads, and the capture kernel dies decompressing it.  The
	 * header says how long the image is (a signature may follow it).
	 */
	setup_sects = h[BOOT_HDR_SETUP_SECTS_OFF] ? h[BOOT_HDR_SETUP_SECTS_OFF] : 4;
	need = (setup_sects + 1ULL) * 512 +
	       16ULL * (h[BOOT_HDR_SYSSIZE_OFF] |
			(unsigned int)h[BOOT_HDR_SYSSIZE_OFF + 1] << 8 |
			(unsigned int)h[BOOT_HDR_SYSSIZE_OFF + 2] << 16 |
			(unsigned long long)h[BOOT_HDR_SYSSIZE_OFF + 3] << 24);
	if (fstat(fd, &st) < 0)
		return -errno;
	if ((unsigned long long)st.st_size < need)
		return -EBADMSG;
	return 0;
}

/*
 * The PE/COFF layout (Microsoft's PE format specification; the kernel reads
 * the same fields in crypto/asymmetric_keys/verify_pefile.c): "MZ", the PE
 * header's offset at 0x3c, "PE\0\0", the 20-byte COFF header, then the
 * optional header, whose data directories hold the certificate table at
 * index 4 as (file offset, size).  Each certificate starts with a
 * WIN_CERTIFICATE header: length, revision 0x0200, type 2 (PKCS#7).
 */
#define PE_LFANEW_OFF 0x3c
#define PE_COFF_LEN 20
#define PE_OPT_MAGIC_PE32 0x10b
#define PE_OPT_MAGIC_PE32PLUS 0x20b
#define PE_CERT_DIR 4

static unsigned int le16(const unsigned char *p)
{
	return p[0] | p[1] << 8;
}

static unsigned long le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (unsigned long)p[3] << 24;
}

static int pread_exact(int fd, void *buf, size_t len, unsigned long long off,
		       unsigned long long size)
{
	if (off > size || len > size - off)
		return -EBADMSG;
	if (pread(fd, buf, len, off) != (ssize_t)len)
		return -EBADMSG;
	return 0;
}

int kexec_image_signature(int fd)
{
	unsigned char mz[0x40], pe[4 + PE_COFF_LEN], opt[2], dir[8], cert[8];
	unsigned long long size, lfanew, opt_off, dd_off, n_off;
	unsigned long cert_off, cert_len;
	unsigned int opt_size, magic;
	struct stat st;
	int r;

	if (fstat(fd, &st) < 0)
		return -errno;
	size = st.st_size;
	r = pread_exact(fd, mz, sizeof(mz), 0, size);
	if (r < 0)
		return r;
	if (mz[0] != 'M' || mz[1] != 'Z')
		return KEXEC_SIG_UNSIGNED;
	lfanew = le32(mz + PE_LFANEW_OFF);
	r = pread_exact(fd, pe, sizeof(pe), lfanew, size);
	if (r < 0)
		return r;
	if (memcmp(pe, "PE\0\0", 4) != 0)
		return KEXEC_SIG_UNSIGNED;
	opt_size = le16(pe + 4 + 16);
	opt_off = lfanew + sizeof(pe);
	r = pread_exact(fd, opt, sizeof(opt), opt_off, size);
	if (r < 0)
		return r;
	magic = le16(opt);
	if (magic == PE_OPT_MAGIC_PE32) {
		n_off = 92;
		dd_off = 96;
	} else if (magic == PE_OPT_MAGIC_PE32PLUS) {
		n_off = 108;
		dd_off = 112;
	} else {
		return -EBADMSG;
	}
	/* The optional header and NumberOfRvaAndSizes must reach the table ... */
	if (opt_size < dd_off + (PE_CERT_DIR + 1) * 8)
		return KEXEC_SIG_UNSIGNED;
	r = pread_exact(fd, dir, 4, opt_off + n_off, size);
	if (r < 0)
		return r;
	if (le32(dir) <= PE_CERT_DIR)
		return KEXEC_SIG_UNSIGNED;
	/* ... whose (offset, size) is read from inside the optional header. */
	r = pread_exact(fd, dir, 8, opt_off + dd_off + PE_CERT_DIR * 8, size);
	if (r < 0)
		return r;
	cert_off = le32(dir);
	cert_len = le32(dir + 4);
	if (cert_len == 0)
		return KEXEC_SIG_UNSIGNED;
	if (cert_len < sizeof(cert) || cert_off > size ||
	    cert_len > size - cert_off)
		return -EBADMSG;
	r = pread_exact(fd, cert, sizeof(cert), cert_off, size);
	if (r < 0)
		return r;
	if (le32(cert) < sizeof(cert) || le32(cert) > cert_len ||
	    le16(cert + 4) != 0x0200 || le16(cert + 6) != 0x0002)
		return -EBADMSG;
	return KEXEC_SIG_SIGNED;
}
