/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDUMP_FILE_KEXEC_H
#define KDUMP_FILE_KEXEC_H

#include <stdbool.h>
#include <stddef.h>

/* What the caller knows when explaining a failed load. */
struct kexec_context {
	const char *kernel;
	const char *initramfs;
	unsigned long long reserved;	/* /sys/kernel/kexec_crash_size */
	unsigned long long needed;	/* estimate of what the capture needs */
	bool kexec_disabled;		/* kernel.kexec_load_disabled = 1 */
	const char *lockdown;		/* "none", "integrity", ... or NULL */
	bool is_root;
};

/* Load kernel_fd (+ initrd_fd, or -1) as the crash kernel. Negative errno. */
int kexec_crash_load(int kernel_fd, int initrd_fd, const char *cmdline);
int kexec_crash_unload(void);

/*
 * One sentence (without the object) saying what err means for a crash
 * kernel load and what to do about it.
 */
void kexec_explain(int err, const struct kexec_context *ctx, char *buf,
		   size_t size);



/* -ENOEXEC unless fd holds a bzImage that kexec_file_load can take on x86_64. */
int kexec_check_bzimage(int fd);
/* -EINVAL unless fd starts like an initramfs (cpio or a compressed one). */
int kexec_check_initramfs(int fd);
#endif
