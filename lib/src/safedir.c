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
	snprintf(bad->path, sizeof(bad->path), "%s", path[0] ? path : "/");
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
	snprintf(bad->path, sizeof(bad->path), "%s", path[0] ? path : "/");
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

int safe_open(const char *path, unsigned int flags,
	      struct safe_violation *ret_bad, int *ret_fd)
{
	bool want_dir = flags & (SAFE_DIRECTORY | SAFE_CREATE);
	char buf[2 * PATH_MAX + 2], where[PATH_MAX + 1] = "";
	char here[PATH_MAX + 1];
	char comp[NAME_MAX + 1];
	_cleanup_close_ int cur = -1;
	const char *rest;
	unsigned int links = 0;
	struct stat st;
	int r = 0;

	memset(ret_bad, 0, sizeof(*ret_bad));
	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return fail(ret_bad, path, -ENAMETOOLONG);
	rest = buf;
	cur = open(path[0] == '/' ? "/" : ".",
		   O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cur < 0)
		return fail(ret_bad, where, -errno);
	if (path[0] == '/') {
		if (fstat(cur, &st) < 0)
			return fail(ret_bad, where, -errno);
		r = check("/", &st, is_last(rest), want_dir,
			  ret_bad);
		if (r < 0)
			return r;
	} else {
		snprintf(where, sizeof(where), ".");
	}

	while (next_comp(&rest, comp, sizeof(comp), &r)) {
		bool last = is_last(rest);
		int fd;

		if (strcmp(comp, ".") == 0)
			continue;
		snprintf(here, sizeof(here), "%s", where);
		path_push(here, sizeof(here), comp);
		if (fstatat(cur, comp, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			r = -errno;
			if (r != -ENOENT || !(flags & SAFE_CREATE))
				return fail(ret_bad, here, r);
			/* Made here, below a directory checked above. */
			if (mkdirat(cur, comp, 0700) < 0 && errno != EEXIST)
				return fail(ret_bad, here, -errno);
			if (fstatat(cur, comp, &st, AT_SYMLINK_NOFOLLOW) < 0)
				return fail(ret_bad, here, -errno);
			r = 0;
		}
		if (S_ISLNK(st.st_mode)) {
			const char *linkpath = here;

			if (last && (flags & SAFE_LEAF_NOLINK))
				return violation(ret_bad, linkpath, &st,
						 SAFE_FAULT_LINK);
			/*
			 * Its directory was checked: in a sticky one, only
			 * the link's owner can replace it.
			 */
			if (!trusted_uid(st.st_uid))
				return violation(ret_bad, linkpath, &st,
						 SAFE_FAULT_OWNER);
			if (++links > SAFE_LINKS_MAX)
				return fail(ret_bad, linkpath, -ELOOP);
			r = splice_link(cur, comp, buf, sizeof(buf), &rest);
			if (r < 0)
				return fail(ret_bad, linkpath, r);
			if (rest[0] == '/') {
				close(cur);
				cur = open("/", O_RDONLY | O_DIRECTORY |
							O_CLOEXEC);
				if (cur < 0)
					return fail(ret_bad, "/", -errno);
				where[0] = '\0';
			}
			continue;
		}
		snprintf(where, sizeof(where), "%s", here);
		if (last && !want_dir)
			fd = openat(cur, comp,
				    (flags & SAFE_PATH_ONLY ? O_PATH :
				     O_RDONLY | O_NOCTTY | O_NONBLOCK) |
					    O_NOFOLLOW | O_CLOEXEC);
		else
			fd = openat(cur, comp, O_RDONLY | O_DIRECTORY |
						       O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return fail(ret_bad, where, -errno);
		close(cur);
		cur = fd;
		if (fstat(cur, &st) < 0)
			return fail(ret_bad, where, -errno);
		r = check(where, &st, last, want_dir, ret_bad);
		if (r < 0)
			return r;
	}
	if (r < 0)
		return fail(ret_bad, where, r);
	/* "/a/b/.." and the like end on a directory checked as on the way. */
	if (fstat(cur, &st) < 0)
		return fail(ret_bad, where, -errno);
	r = check(where, &st, true, want_dir, ret_bad);
	if (r < 0)
		return r;
	if (want_dir && !S_ISDIR(st.st_mode))
		return fail(ret_bad, where, -ENOTDIR);
	/* A descriptor O_NONBLOCK only for the open: a FIFO does not hang. */
	if (!(flags & SAFE_PATH_ONLY) && !want_dir &&
	    fcntl(cur, F_SETFL, 0) < 0)
		return fail(ret_bad, where, -errno);
	*ret_fd = TAKE_FD(cur);
	return 0;
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
