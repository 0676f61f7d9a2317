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

/*
 * The kernel answers EBUSY while another holds its kexec lock: a second
 * loader, or, on a kernel that keeps the capture kernel's ELF headers
 * current on CPU and memory hotplug, the rewrite after a hotplug event.
 * That goes for a load and an unload (nothing changed then), and for a
 * read of /sys/kernel/kexec_crash_size (6.1's crash_get_memory_size()).
 * kdump-file tries again for at most KEXEC_BUSY_TRIES * KEXEC_BUSY_WAIT_MS.
 */
#define KEXEC_BUSY_TRIES 50
#define KEXEC_BUSY_WAIT_MS 100
#define SYS_CRASH_SIZE "/sys/kernel/kexec_crash_size"

/*
 * op(arg), again while it returns -EBUSY, wait_ms apart, tries times at
 * most (at least once). Its last result.
 */
int kexec_busy_retry(int (*op)(void *arg), void *arg, unsigned int tries,
		     unsigned int wait_ms);

/*
 * The bytes reserved for the capture kernel (crashkernel=), from
 * /sys/kernel/kexec_crash_size, waiting while the kexec lock is taken.
 * Negative errno: -EBUSY when it stayed taken, -ENOENT without kexec.
 */
int kexec_crash_size(unsigned long long *ret);

/*
 * Load kernel_fd (+ initrd_fd, or -1) as the crash kernel. Negative errno.
 * A successful load is followed by kexec_scrub_freed() for the two files'
 * size, on the CPU that made the call.
 */
int kexec_crash_load(int kernel_fd, int initrd_fd, const char *cmdline);

/*
 * kexec_file_load reads the capture kernel and initramfs into kernel buffers
 * and frees them before it returns. Freed pages first go to the CPU's
 * per-CPU free lists, which are not marked free in the page structures, so
 * makedumpfile cannot tell them from memory in use: whatever of the two
 * compressed files is still there at a crash is copied into the dump, and
 * does not compress (on Debian's kernel, with its large lists, nearly all of
 * it: some 10 MiB). Pipes filled with zeros take the most recently freed
 * unmovable pages of the calling CPU first; closed again, those pages hold
 * zeros, which the dump level leaves out.
 *
 * Fills pipes with bytes (at most SCRUB_MAX_BYTES) of zeros and closes them.
 * Returns the bytes written, or a negative errno (the pipes are closed).
 */
long long kexec_scrub_freed(unsigned long long bytes);
#define SCRUB_PIPE_BYTES (1U << 20)	/* pipe-max-size's default */
#define SCRUB_MAX_BYTES (256ULL << 20)
#define SCRUB_SLACK_BYTES (1ULL << 20)	/* the purgatory and command line */
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
