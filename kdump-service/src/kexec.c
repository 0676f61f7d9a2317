// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <linux/kexec.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kexec.h"

#ifndef KEXEC_FILE_ON_CRASH
#define KEXEC_FILE_UNLOAD 0x00000001
#define KEXEC_FILE_ON_CRASH 0x00000002
#define KEXEC_FILE_NO_INITRAMFS 0x00000004
#endif

int kexec_crash_load(int kernel_fd, int initrd_fd, const char *cmdline)
{
	unsigned long flags = KEXEC_FILE_ON_CRASH;

	if (initrd_fd < 0)
		flags |= KEXEC_FILE_NO_INITRAMFS;
	/* The length includes the terminating NUL (kernel/kexec_file.c). */
	if (syscall(SYS_kexec_file_load, kernel_fd, initrd_fd,
		    strlen(cmdline) + 1, cmdline, flags) < 0)
		return -errno;
	return 0;
}

int kexec_crash_unload(void)
{
	if (syscall(SYS_kexec_file_load, -1, -1, 0UL, NULL,
		    (unsigned long)(KEXEC_FILE_UNLOAD | KEXEC_FILE_ON_CRASH)) < 0)
		return -errno;
	return 0;
}

static unsigned long long mib(unsigned long long b)
{
	return (b + (1 << 20) - 1) >> 20;
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
		else if (strcmp(lock, "none") != 0)
			snprintf(buf, size,
				 "the kernel is locked down (%s) and refuses an image it cannot verify: sign the capture kernel with a key the running kernel trusts (sbsign)",
				 lock);
		else
			snprintf(buf, size,
				 "the kernel refused the load (a security module or seccomp policy?): check the kernel log");
		break;
	case EKEYREJECTED:
		snprintf(buf, size,
			 "the kernel's signature is not valid for any trusted key: sign it with a key in the kernel's trusted keyring");
		break;
	case ENOKEY:
		snprintf(buf, size,
			 "the kernel is signed by a key the running kernel does not trust: sign it with a trusted key or add the key to the keyring");
		break;
	case ENODATA:
	case EBADMSG:
		snprintf(buf, size,
			 "the kernel image carries no usable signature and the lockdown mode (%s) requires one: sign it with sbsign",
			 lock);
		break;
	case EADDRNOTAVAIL:
	case ENOMEM:
		if (ctx->reserved == 0)
			snprintf(buf, size,
				 "no crashkernel= memory is reserved: add crashkernel=256M to the kernel command line and reboot");
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
			 "a kexec load is already in progress: try again");
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
#define BOOT_HDR_MAGIC_OFF 0x202
#define BOOT_HDR_VERSION_OFF 0x206
#define BOOT_HDR_XLOADFLAGS_OFF 0x236
#define XLF_KERNEL_64 (1 << 0)
#define XLF_CAN_BE_LOADED_ABOVE_4G (1 << 1)

int kexec_check_bzimage(int fd)
{
	unsigned char h[0x240];
	unsigned int version, xlf;

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
	return 0;
}

int kexec_check_initramfs(int fd)
{
	static const struct {
		const char *magic;
		size_t len;
	} known[] = {
		{ "\x1f\x8b", 2 },		/* gzip */
		{ "\xfd" "7zXZ", 5 },		/* xz */
		{ "\x28\xb5\x2f\xfd", 4 },	/* zstd */
		{ "\x02\x21\x4c\x18", 4 },	/* lz4 */
		{ "BZh", 3 },			/* bzip2 */
		{ "\x89LZO", 4 },		/* lzop */
		{ "070701", 6 },		/* cpio newc */
		{ "070702", 6 },		/* cpio crc */
	};
	unsigned char h[8];

	if (pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h))
		return -EINVAL;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (memcmp(h, known[i].magic, known[i].len) == 0)
			return 0;
	return -EINVAL;
}
