// SPDX-License-Identifier: GPL-2.0
/*
 * Path resolution done in user space, as the kernel's fs/namei.c does it
 * (a component at a time, a link's target spliced in front of what is
 * left, at most 40 links), so that each object on the way is checked on
 * the descriptor the next step is opened from: a directory swapped after
 * its check is not the one below which we continue.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safedir.h"
#include "util.h"

/* Linux's MAXSYMLINKS (include/linux/namei.h). */
#define SAFE_LINKS_MAX 40

static bool trusted_uid(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

static int violation(struct safe_violation *bad, const char *path,
		     const struct stat *st, enum safe_fault fault)
{
	(void)text_format(bad->path, sizeof(bad->path), "%s",
			  path[0] ? path : "/");
	bad->fault = fault;
	bad->uid = (unsigned int)st->st_uid;
	bad->mode = (unsigned int)(st->st_mode & 07777);
	return -EPERM;
}

/*
 * st, reached as path: a directory on the way (leaf false) may be written
 * by others when sticky; the last component only when it is a sticky
 * directory and strict is not set.
 */
static int check(const char *path, const struct stat *st, bool leaf,
		 bool strict, struct safe_violation *bad)
{
	bool sticky_dir = S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX);

	if (!trusted_uid(st->st_uid))
		return violation(bad, path, st, SAFE_FAULT_OWNER);
	if (sticky_dir && !(leaf && strict))
		return 0;
	if (st->st_mode & S_IWOTH)
		return violation(bad, path, st, SAFE_FAULT_WORLD_WRITABLE);
	if (st->st_mode & S_IWGRP)
		return violation(bad, path, st, SAFE_FAULT_GROUP_WRITABLE);
	return 0;
}

static int fail(struct safe_violation *bad, const char *path, int r)
{
	(void)text_format(bad->path, sizeof(bad->path), "%s",
			  path[0] ? path : "/");
	bad->fault = SAFE_FAULT_NONE;
	return r;
}

/* where + "/" + comp, or where cut back to its parent for "..". */
static void path_push(char *where, size_t size, const char *comp)
{
	size_t n = strlen(where);

	if (strcmp(comp, "..") == 0) {
		char *slash = strrchr(where, '/');

		if (slash)
			*slash = '\0';
		return;
	}
	snprintf(where + n, size - n, "/%s", comp);
}

/* The next component of *rest into comp; false when there is none. */
static bool next_comp(const char **rest, char *comp, size_t size, int *r)
{
	const char *s = *rest, *e;

	while (*s == '/')
		s++;
	if (!*s)
		return false;
	e = strchrnul(s, '/');
	if ((size_t)(e - s) >= size) {
		*r = -ENAMETOOLONG;
		return false;
	}
	memcpy(comp, s, (size_t)(e - s));
	comp[e - s] = '\0';
	*rest = e;
	return true;
}

static bool is_last(const char *rest)
{
	while (*rest == '/')
		rest++;
	return !*rest;
}

/* The link comp in dirfd, its target spliced in front of *rest. */
static int splice_link(int dirfd, const char *comp, char *buf, size_t size,
		       const char **rest)
{
	char target[PATH_MAX];
	ssize_t n;

	n = readlinkat(dirfd, comp, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	if (n == 0)
		return -ENOENT;
	target[n] = '\0';
	if (strlen(target) + 1 + strlen(*rest) + 1 > size)
		return -ENAMETOOLONG;
	/* *rest points into buf: build the new text beside it first. */
	{
		char joined[2 * PATH_MAX + 2];

		if (path_format(joined, sizeof(joined), "%s/%s", target,
				*rest) < 0 ||
		    path_format(buf, size, "%s", joined) < 0)
			return -ENAMETOOLONG;
	}
	*rest = buf;
	return 0;
}

/* Where safe_open() stands on its way down path. */
struct walk {
	unsigned int flags;
	bool want_dir;
	char buf[2 * PATH_MAX + 2];	/* what is left to walk, links spliced */
	const char *rest;
	char where[PATH_MAX + 1];	/* the directory cur is, for messages */
	int cur;
	unsigned int links;
	struct safe_violation *bad;
};

/*
 * comp (here: where/comp) is a link: checked, then what it leads to is
 * spliced into what is left to walk, from "/" again for an absolute one.
 */
static int walk_link(struct walk *w, const char *comp, const char *here,
		     const struct stat *st, bool last)
{
	int r;

	if (last && (w->flags & SAFE_LEAF_NOLINK))
		return violation(w->bad, here, st, SAFE_FAULT_LINK);
	/*
	 * Its directory was checked: in a sticky one, only the link's owner
	 * can replace it.
	 */
	if (!trusted_uid(st->st_uid))
		return violation(w->bad, here, st, SAFE_FAULT_OWNER);
	if (++w->links > SAFE_LINKS_MAX)
		return fail(w->bad, here, -ELOOP);
	r = splice_link(w->cur, comp, w->buf, sizeof(w->buf), &w->rest);
	if (r < 0)
		return fail(w->bad, here, r);
	if (w->rest[0] == '/') {
		close(w->cur);
		w->cur = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (w->cur < 0)
			return fail(w->bad, "/", -errno);
		w->where[0] = '\0';
	}
	return 0;
}

/* One step down, to comp: made first when missing and SAFE_CREATE. */
static int walk_step(struct walk *w, const char *comp, bool last)
{
	char here[PATH_MAX + 1];
	struct stat st;
	int fd, r;

	snprintf(here, sizeof(here), "%s", w->where);
	path_push(here, sizeof(here), comp);
	if (fstatat(w->cur, comp, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		r = -errno;
		if (r != -ENOENT || !(w->flags & SAFE_CREATE))
			return fail(w->bad, here, r);
		/* Made here, below a directory checked above. */
		if (mkdirat(w->cur, comp, 0700) < 0 && errno != EEXIST)
			return fail(w->bad, here, -errno);
		if (fstatat(w->cur, comp, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return fail(w->bad, here, -errno);
	}
	if (S_ISLNK(st.st_mode))
		return walk_link(w, comp, here, &st, last);
	snprintf(w->where, sizeof(w->where), "%s", here);
	if (last && !w->want_dir)
		fd = openat(w->cur, comp,
			    (w->flags & SAFE_PATH_ONLY ? O_PATH :
			     O_RDONLY | O_NOCTTY | O_NONBLOCK) |
				    O_NOFOLLOW | O_CLOEXEC);
	else
		fd = openat(w->cur, comp, O_RDONLY | O_DIRECTORY |
					       O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return fail(w->bad, w->where, -errno);
	close(w->cur);
	w->cur = fd;
	if (fstat(w->cur, &st) < 0)
		return fail(w->bad, w->where, -errno);
	return check(w->where, &st, last, w->want_dir, w->bad);
}

/* The start: "/" (checked) or ".". */
static int walk_start(struct walk *w, const char *path)
{
	struct stat st;

	w->cur = open(path[0] == '/' ? "/" : ".",
		      O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (w->cur < 0)
		return fail(w->bad, w->where, -errno);
	if (path[0] != '/') {
		snprintf(w->where, sizeof(w->where), ".");
		return 0;
	}
	if (fstat(w->cur, &st) < 0)
		return fail(w->bad, w->where, -errno);
	return check("/", &st, is_last(w->rest), w->want_dir, w->bad);
}

int safe_open(const char *path, unsigned int flags,
	      struct safe_violation *ret_bad, int *ret_fd)
{
	_cleanup_free_ struct walk *w = NULL;
	char comp[NAME_MAX + 1];
	struct stat st;
	int r = 0;

	memset(ret_bad, 0, sizeof(*ret_bad));
	w = calloc(1, sizeof(*w));
	if (!w)
		return fail(ret_bad, path, -ENOMEM);
	w->flags = flags;
	w->want_dir = flags & (SAFE_DIRECTORY | SAFE_CREATE);
	w->bad = ret_bad;
	w->cur = -1;
	if (snprintf(w->buf, sizeof(w->buf), "%s", path) >= (int)sizeof(w->buf))
		return fail(ret_bad, path, -ENAMETOOLONG);
	w->rest = w->buf;
	r = walk_start(w, path);
	while (r == 0 && next_comp(&w->rest, comp, sizeof(comp), &r)) {
		if (strcmp(comp, ".") != 0)
			r = walk_step(w, comp, is_last(w->rest));
	}
	if (r == 0) {
		/*
		 * "/a/b/.." and the like end on a directory checked as on
		 * the way.
		 */
		if (fstat(w->cur, &st) < 0)
			r = fail(ret_bad, w->where, -errno);
		else
			r = check(w->where, &st, true, w->want_dir, ret_bad);
	} else if (!ret_bad->path[0]) {
		/* A name next_comp() could not take: said here. */
		r = fail(ret_bad, w->where, r);
	}
	if (r == 0 && w->want_dir && !S_ISDIR(st.st_mode))
		r = fail(ret_bad, w->where, -ENOTDIR);
	/* A descriptor O_NONBLOCK only for the open: a FIFO does not hang. */
	if (r == 0 && !(flags & SAFE_PATH_ONLY) && !w->want_dir &&
	    fcntl(w->cur, F_SETFL, 0) < 0)
		r = fail(ret_bad, w->where, -errno);
	if (r == 0)
		*ret_fd = TAKE_FD(w->cur);
	if (w->cur >= 0)
		close(w->cur);
	return r;
}

const char *safe_fault_text(const struct safe_violation *bad, char *buf,
			    size_t size)
{
	switch (bad->fault) {
	case SAFE_FAULT_OWNER:
		snprintf(buf, size, "owned by uid %u, not root", bad->uid);
		break;
	case SAFE_FAULT_GROUP_WRITABLE:
		snprintf(buf, size, "group-writable (mode %04o)", bad->mode);
		break;
	case SAFE_FAULT_WORLD_WRITABLE:
		snprintf(buf, size, "world-writable (mode %04o)", bad->mode);
		break;
	case SAFE_FAULT_LINK:
		snprintf(buf, size, "a symbolic link");
		break;
	default:
		snprintf(buf, size, "not checked");
		break;
	}
	return buf;
}
