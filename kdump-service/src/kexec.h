/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDUMP_FILE_KEXEC_H
#define KDUMP_FILE_KEXEC_H

#include <stdbool.h>
#include <stddef.h>

/* Whether a kernel image carries an Authenticode signature. */
enum kexec_sig_state {
	KEXEC_SIG_UNKNOWN = 0,		/* not inspected, or unreadable */
	KEXEC_SIG_UNSIGNED,
	KEXEC_SIG_SIGNED,
};

/* What the caller knows when explaining a failed load. */
struct kexec_context {
	const char *kernel;
	const char *initramfs;
	unsigned long long reserved;	/* /sys/kernel/kexec_crash_size */
	unsigned long long needed;	/* estimate of what the capture needs */
	bool kexec_disabled;		/* kernel.kexec_load_disabled = 1 */
	const char *lockdown;		/* "none", "integrity", ... or NULL */
	bool is_root;
	enum kexec_sig_state signed_state;	/* of the capture kernel image */
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

/*
 * Whether the kernel image in fd carries an Authenticode signature, as
 * sbsign writes it: an EFI stub's PE header whose certificate table (data
 * directory 4) is non-empty and inside the file.  KEXEC_SIG_UNSIGNED also
 * for an image without a PE header (it cannot carry one).  -EBADMSG for a
 * PE header that is cut short or points outside the file, or a read error.
 */
int kexec_image_signature(int fd);
#endif
