/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDUMP_FILE_INITRAMFS_H
#define KDUMP_FILE_INITRAMFS_H

#include <stdbool.h>
#include <stddef.h>

#define KDUMP_FILE_STATE_DIR "/var/lib/kdump-file"
#define KDUMP_FILE_LIBEXEC_DIR "/usr/lib/kdump-file"
#define KDUMP_FILE_CAPTURE_PROGRAM KDUMP_FILE_LIBEXEC_DIR "/kdump-file-capture"
#define KDUMP_FILE_MAKEDUMPFILE "/usr/sbin/makedumpfile"
#define KDUMP_FILE_DRACUT_MODULE "/usr/lib/dracut/modules.d/99kdump-file"
#define KDUMP_FILE_CAPTURE_CONF_IN_INITRAMFS "/etc/kdump-file/capture.conf"
#define KDUMP_FILE_CHAIN_IN_INITRAMFS "/etc/kdump-file/chain"
#define KDUMP_FILE_MODPLAN_IN_INITRAMFS "/etc/kdump-file/modules.json"

/*
 * A text that changes whenever the capture initramfs would: the capture
 * kernel's identity, the resolved capture configuration, the target's
 * chain (devchain_format()), the module plan's identity (its size and
 * CRC: it is too large to hold whole; may be ""), the dracut module, the
 * programs the capture runs, and the identity and content of files
 * (blank-separated absolute paths: the user's hooks and extra binaries;
 * may be "").
 */
int initramfs_fingerprint(const char *kernel, const char *capture_conf,
			  const char *chain, const char *modplan_id,
			  const char *files, char *buf, size_t size);
/*
 * One line for a file: its path, size, modification time and a CRC-32 of
 * its content, so that an edit that keeps size and time is seen too; or
 * "<path> missing".
 */
int input_identity(const char *path, char *buf, size_t size);
/*
 * What initramfs_build() passes on while dracut runs, for a build of tens
 * of seconds to show that it is alive.  Each line comes without dracut's
 * "dracut: " prefix.  stage: dracut's stage as it changes, from its
 * "*** ... ***" lines ("Including module: kdump-file").  output: every
 * other line dracut prints (a warning, an error), but for the chatter its
 * --quiet would have kept back.  Either may be NULL.
 */
struct initramfs_progress {
	void (*stage)(const char *stage, void *userdata);
	void (*output)(const char *line, void *userdata);
	void *userdata;
};

/* True when img exists and was built from the same fingerprint. */
bool initramfs_is_current(const char *img, const char *fingerprint);
/* What the capture initramfs is built from (initramfs_build()). */
struct initramfs_request {
	const char *kver;		/* the capture kernel's release */
	const char *capture_conf_file;	/* the capture configuration */
	const char *chain_file;		/* the target's chain */
	const char *modplan_file;	/* the module plan */
	/* Space-separated, may be NULL or "": the plan's modules. */
	const char *drivers;
	/* Blank-separated absolute paths, may be NULL or "". */
	const char *files;
	/* "ssh" or "nfs" for a network target, NULL or "" for a local one. */
	const char *net;
	const char *ssh_key;		/* for "ssh": the key, NULL otherwise */
	/*
	 * failure_action = shell, the one use of sh in the capture (the
	 * module installs sh only then; the fingerprint sees the change
	 * through the capture configuration, which names failure_action).
	 */
	bool shell;
	const char *fingerprint;	/* recorded beside the image */
	const struct initramfs_progress *progress;	/* may be NULL */
};

/*
 * Build img with dracut for rq->kver: the capture configuration, chain
 * and module plan included, the drivers added (dracut adds what they
 * need), the files installed with their libraries (and for "ssh" the key
 * and its known_hosts), then record the fingerprint.  Returns dracut's
 * non-zero exit status as -EIO; img is replaced only on success.  With
 * progress NULL, dracut runs quiet and says what it has to on our
 * stderr; otherwise see below.
 */
int initramfs_build(const char *img, const struct initramfs_request *rq);

/* Where an initramfs image stops being one the kernel unpacks completely. */
struct initramfs_problem {
	unsigned long long offset;	/* byte of the file */
	const char *what;		/* static text, e.g. "bad cpio header" */
};

/*
 * Walk the whole image as the kernel's init/initramfs.c unpacks it: a
 * sequence of uncompressed cpio newc/crc archives (each ending with
 * TRAILER!!!) and gzip members (inflated to their end; what they hold must
 * itself be complete cpio archives), with zero padding between them, to the
 * end of the file.  A member compressed otherwise (xz, zstd, lz4, bzip2,
 * lzma, lzo) is accepted by its magic only, with everything after it.
 *
 * Returns 0 when valid; -EINVAL when the file does not start like an
 * initramfs at all; -EBADMSG when it is truncated or corrupt (ret_problem,
 * if not NULL, says where); -ENOMEM or a read error otherwise.  Memory use
 * does not depend on the input: nothing is unpacked into memory.
 */
int initramfs_verify(int fd, struct initramfs_problem *ret_problem);

/*
 * initramfs_verify(), remembered: when memo (a path, or NULL for none)
 * holds the identity fd's file had when it last passed (device, inode,
 * size, modification and change times), the file has not been written
 * since and is not read again; otherwise it is verified and, when valid,
 * its identity written to memo (best effort: a memo that cannot be written
 * only costs the next load a verification).  A memo that is not a regular
 * file of this user's, writable by no one else, is ignored.  Returns as
 * initramfs_verify().
 */
int initramfs_verify_memo(int fd, const char *memo,
			  struct initramfs_problem *ret_problem);

/* Why a file may not go into the capture initramfs. */
enum input_fault {
	INPUT_FOREIGN_OWNER = 1,	/* not owned by root */
	INPUT_GROUP_WRITABLE,
	INPUT_WORLD_WRITABLE,
	INPUT_NOT_REGULAR,		/* a program that is not a regular file */
	INPUT_NOT_EXECUTABLE,		/* ...or has no execute bit for root */
};

struct input_violation {
	char path[4096];
	enum input_fault fault;
	unsigned int uid;		/* the owner, for INPUT_FOREIGN_OWNER */
};

/*
 * Check that each of paths, each directory above it up to /, and (for a
 * path through a symbolic link) the same for the file it resolves to, is
 * owned by root and neither group- nor world-writable, and that every link
 * on the way is root's (safe_open(): someone else's link in a sticky
 * directory is theirs to point elsewhere).  A path that does not
 * exist is skipped.  Returns 0 when all pass; -EPERM with ret filled for the
 * first that does not (the file before its directories); another negative
 * errno, with ret->path naming what could not be examined, otherwise.
 */
int paths_check_root_only(const char *const *paths, size_t n,
			  struct input_violation *ret);

/*
 * paths_check_root_only() for everything that goes into the capture
 * initramfs or decides what does: the capture kernel image, the capture
 * program, makedumpfile, the dracut module directory and its files.
 */
int initramfs_check_inputs(const char *kernel, struct input_violation *ret);

/*
 * A program the user asks the capture to run or to carry (a hook, an extra
 * binary): it must exist (-ENOENT), be a regular file, executable by its
 * owner, and pass paths_check_root_only() (-EPERM with ret filled).
 */
int input_check_program(const char *path, struct input_violation *ret);

#endif
