/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDUMP_FILE_UTIL_H
#define KDUMP_FILE_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

/*
 * Cleanup attributes (gcc, clang): the variable's resource is released
 * when it goes out of scope, on every return path.  TAKE_FD() and
 * TAKE_PTR() hand it over instead.
 */
static inline void closep(int *fd)
{
	if (*fd >= 0)
		(void)close(*fd);
}

static inline void freep(void *p)
{
	free(*(void **)p);
}

static inline void fclosep(FILE **f)
{
	if (*f)
		(void)fclose(*f);
}

#define _cleanup_(f) __attribute__((cleanup(f)))
#define _cleanup_close_ _cleanup_(closep)
#define _cleanup_free_ _cleanup_(freep)
#define _cleanup_fclose_ _cleanup_(fclosep)

#define TAKE_FD(fd)                 \
	({                          \
		int _fd_ = (fd);    \
		(fd) = -1;          \
		_fd_;               \
	})
#define TAKE_PTR(p)                         \
	({                                  \
		__typeof__(p) _p_ = (p);    \
		(p) = NULL;                 \
		_p_;                        \
	})

/* Read a small file into buf (NUL-terminated, trailing newline removed). */
int read_line_file(const char *path, char *buf, size_t size);
/*
 * Write text to a file that exists (a sysfs attribute, a module
 * parameter) in one write(2): 0, or a negative errno.
 */
int write_attr(const char *path, const char *text);
int read_ull_file(const char *path, unsigned long long *ret);
/*
 * A decimal number 0 ... max and nothing else (no sign, no blank, no
 * base prefix): -EINVAL when s is not one, -ERANGE when it is over max.
 */
int parse_decimal(const char *s, unsigned long long max,
		  unsigned long long *ret);
/*
 * A whole file of at most max bytes, NUL-terminated, in *ret (free it);
 * returns its length.  A longer file is -EFBIG, never cut short.
 */
int read_file_max(const char *path, char **ret, size_t max);
/* The same for name in the directory dirfd, never following a link. */
int read_file_max_at(int dirfd, const char *name, char **ret, size_t max);
/* The same from fd, from where it is to its end. */
int read_fd_max(int fd, char **ret, size_t max);
/* fsync the directory that holds path, so that a rename in it is durable. */
int fsync_parent(const char *path);
/* fsync() the file at path (written by another process). */
int sync_file(const char *path);
/*
 * The directory path is in, opened (O_DIRECTORY) into *ret_fd (AT_FDCWD
 * for a name without a '/', nothing to close), and the name in it
 * (*ret_name points into path).
 */
int open_parent(const char *path, int *ret_fd, const char **ret_name);

/*
 * Write data to path through a temporary file renamed into place; the file
 * and then its directory are synced.
 */
int write_file_atomic(const char *path, const char *data, size_t len,
		      mode_t mode);
/*
 * The one atomic writer: name (no '/') in the directory dirfd (or
 * AT_FDCWD) written as a temporary file beside it, with mode, synced,
 * renamed over name, then the directory synced.  On failure name is as it
 * was and the temporary file is gone.
 */
int write_file_atomic_at(int dirfd, const char *name, const char *data,
			 size_t len, mode_t mode);
int mkdir_p(const char *path, mode_t mode);
/*
 * When the running boot began, in seconds since the epoch: the kernel's
 * btime (/proc/stat, fs/proc/stat.c), by the wall clock of now.
 */
int boot_time(long long *ret);
int boot_time_from(const char *proc_stat, long long *ret);
/* Monotonic time in milliseconds. */
unsigned long long now_ms(void);
/*
 * Length of the valid UTF-8 sequence at s, 0 when there is none (overlong
 * forms, surrogates and code points beyond U+10FFFF are not UTF-8).
 */
size_t utf8_seq_len(const unsigned char *s);
/* t (seconds since the epoch, UTC) as 2026-01-01T00:00:00Z; "-" when t < 0. */
void utc_time(long long t, char *buf, size_t size);

/*
 * Text built into a fixed buffer, never cut without a word of it.
 * path_format(): what is wrong when cut (a path, a command line, a name):
 * 0, or -ENAMETOOLONG with buf cut; the caller must look.  text_format():
 * a message or a value shown to a person, cut to fit with "..." at its
 * end when it does not; 1 when it was cut, else 0.
 */
int path_format(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), warn_unused_result));
int text_vformat(char *buf, size_t size, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
int text_format(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Is word (not empty) one of the blank-separated words of list? */
bool word_in_list(const char *word, const char *list);

/*
 * Levenshtein's distance between a and b (b of at most 64 letters, else
 * SIZE_MAX): what a misspelt name is nearest to.
 */
size_t edit_distance(const char *a, const char *b);

/*
 * path (made 0600 when missing, never through a link) opened and locked
 * exclusively (flock), waiting for it when wait is set, else -EBUSY while
 * another holds it; the descriptor, close-on-exec, holds the lock.
 */
int lock_file(const char *path, bool wait, int *ret_fd);

#endif
