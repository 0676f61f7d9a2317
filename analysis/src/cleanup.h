/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cleanup attributes (gcc and clang's __attribute__((cleanup))), as systemd
 * uses them: a buffer or descriptor declared with one is released when it
 * goes out of scope, so that every early return needs no unwinding of its
 * own. Give ownership away with TAKE_PTR() / TAKE_FD().
 *
 * util.h comes first: should lib/ ever define these, its definitions win.
 */
#ifndef KDUMP_FILE_ANALYZE_CLEANUP_H
#define KDUMP_FILE_ANALYZE_CLEANUP_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "util.h"

static inline void cleanup_freep(void *p)
{
	free(*(void **)p);
}

/* close() may set errno; a cleanup must not change what the caller saw. */
static inline void cleanup_closep(int *fd)
{
	int saved = errno;

	if (*fd >= 0)
		(void)close(*fd);
	errno = saved;
}

static inline void cleanup_fclosep(FILE **f)
{
	int saved = errno;

	if (*f)
		(void)fclose(*f);
	errno = saved;
}

#ifndef _cleanup_
#define _cleanup_(f) __attribute__((cleanup(f)))
#endif
#ifndef _cleanup_free_
#define _cleanup_free_ _cleanup_(cleanup_freep)
#endif
#ifndef _cleanup_close_
#define _cleanup_close_ _cleanup_(cleanup_closep)
#endif
#ifndef _cleanup_fclose_
#define _cleanup_fclose_ _cleanup_(cleanup_fclosep)
#endif

#ifndef TAKE_PTR
/* The pointer in p, and p set to NULL so that its cleanup frees nothing. */
#define TAKE_PTR(p) ({ __typeof__(p) _p = (p); (p) = NULL; _p; })
#endif
#ifndef TAKE_FD
#define TAKE_FD(fd) ({ int _fd = (fd); (fd) = -1; _fd; })
#endif

#endif
