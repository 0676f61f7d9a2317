// SPDX-License-Identifier: GPL-2.0
/*
 * safe_open(): every directory, link and the last component checked on
 * what is opened, links resolved and their targets checked too.  The
 * checks of ownership need root (chown); without it they are skipped.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safedir.h"
#include "tests.h"
#include "util.h"

static char dir[] = "/tmp/test-safedir.XXXXXX";

static void at(char *buf, const char *name)
{
	snprintf(buf, PATH_MAX, "%s/%s", dir, name);
}

/* Whether fd is the object path names (without following a last link). */
static bool same(int fd, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && lstat(path, &b) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static void test_plain(void)
{
	struct safe_violation bad;
	char p[PATH_MAX], f[PATH_MAX];
	int fd = -1;

	at(p, "store");
	CHECK(mkdir(p, 0700) == 0);
	CHECK(safe_open(p, SAFE_DIRECTORY, &bad, &fd) == 0);
	CHECK(fd >= 0 && same(fd, p));
	CHECK(fcntl(fd, F_GETFD) == FD_CLOEXEC);
	close(fd);
	/* The same with "." and ".." on the way. */
	snprintf(f, sizeof(f), "%s/./store/../store/", dir);
	fd = -1;
	CHECK(safe_open(f, SAFE_DIRECTORY, &bad, &fd) == 0 && same(fd, p));
	close(fd);
	/* A file, and a file where a directory is asked for. */
	at(f, "store/kernel");
	test_put(p, "kernel", "image");
	CHECK(chmod(f, 0644) == 0);
	fd = -1;
	CHECK(safe_open(f, 0, &bad, &fd) == 0 && same(fd, f));
	close(fd);
	CHECK(safe_open(f, SAFE_DIRECTORY, &bad, &fd) == -ENOTDIR);
	CHECK(chmod(f, 0666) == 0);
	CHECK(safe_open(f, 0, &bad, &fd) == -EPERM);
	CHECK(bad.fault == SAFE_FAULT_WORLD_WRITABLE &&
	      strcmp(bad.path, f) == 0 && bad.mode == 0666);
	CHECK(chmod(f, 0664) == 0);
	CHECK(safe_open(f, 0, &bad, &fd) == -EPERM);
	CHECK(bad.fault == SAFE_FAULT_GROUP_WRITABLE);
	CHECK(chmod(f, 0644) == 0);
	/* Missing. */
	at(f, "store/none/deeper");
	CHECK(safe_open(f, SAFE_DIRECTORY, &bad, &fd) == -ENOENT);
	at(f, "store/none");
	CHECK(strcmp(bad.path, f) == 0);
	/* A sticky directory: fine on the way, not as the store itself. */
	at(p, "sticky");
	CHECK(mkdir(p, 0700) == 0 && chmod(p, 01777) == 0);
	at(f, "sticky/store");
	CHECK(mkdir(f, 0700) == 0);
	fd = -1;
	CHECK(safe_open(f, SAFE_DIRECTORY, &bad, &fd) == 0);
	close(fd);
	CHECK(safe_open(p, SAFE_DIRECTORY, &bad, &fd) == -EPERM);
	CHECK(bad.fault == SAFE_FAULT_WORLD_WRITABLE);
	/* Not sticky: nothing below it is safe. */
	CHECK(chmod(p, 0777) == 0);
	CHECK(safe_open(f, SAFE_DIRECTORY, &bad, &fd) == -EPERM);
	CHECK(strcmp(bad.path, p) == 0);
	CHECK(chmod(p, 01777) == 0);
}

/* A link on the way: its target is what is checked. */
static void test_links(void)
{
	struct safe_violation bad;
	char p[PATH_MAX], l[PATH_MAX], f[PATH_MAX];
	int fd = -1;

	at(p, "real");
	CHECK(mkdir(p, 0700) == 0);
	at(f, "real/dumps");
	CHECK(mkdir(f, 0700) == 0);
	at(l, "link");
	CHECK(symlink("real", l) == 0);
	at(f, "link/dumps");
	CHECK(safe_open(f, SAFE_DIRECTORY, &bad, &fd) == 0);
	at(p, "real/dumps");
	CHECK(same(fd, p));
	close(fd);
	/* The target may be written by others: refused, and named. */
	at(p, "real");
	CHECK(chmod(p, 0777) == 0);
	CHECK(safe_open(f, SAFE_DIRECTORY, &bad, &fd) == -EPERM);
	CHECK(bad.fault == SAFE_FAULT_WORLD_WRITABLE &&
	      strcmp(bad.path, p) == 0);
	CHECK(chmod(p, 0700) == 0);
	/* An absolute target, and a link as the last component. */
	at(l, "abs");
	CHECK(symlink(f, l) == 0);
	fd = -1;
	CHECK(safe_open(l, SAFE_DIRECTORY, &bad, &fd) == 0);
	at(p, "real/dumps");
	CHECK(same(fd, p));
	close(fd);
	CHECK(safe_open(l, SAFE_DIRECTORY | SAFE_LEAF_NOLINK, &bad, &fd) ==
	      -EPERM);
	CHECK(bad.fault == SAFE_FAULT_LINK && strcmp(bad.path, l) == 0);
	/* A loop. */
	at(l, "loop");
	CHECK(symlink("loop", l) == 0);
	CHECK(safe_open(l, 0, &bad, &fd) == -ELOOP);
	if (geteuid() != 0)
		return;
	/* A link someone else owns, in a sticky directory: they can swap it. */
	at(l, "sticky/theirs");
	CHECK(symlink(p, l) == 0 && lchown(l, 65534, 65534) == 0);
	CHECK(safe_open(l, SAFE_DIRECTORY, &bad, &fd) == -EPERM);
	CHECK(bad.fault == SAFE_FAULT_OWNER && bad.uid == 65534 &&
	      strcmp(bad.path, l) == 0);
	/* A directory someone else owns. */
	CHECK(chown(p, 65534, 65534) == 0);
	CHECK(safe_open(p, SAFE_DIRECTORY, &bad, &fd) == -EPERM);
	CHECK(bad.fault == SAFE_FAULT_OWNER && bad.uid == 65534);
	CHECK(chown(p, 0, 0) == 0);
}

static void test_create(void)
{
	struct safe_violation bad;
	char p[PATH_MAX], f[PATH_MAX];
	struct stat st;
	int fd = -1;

	at(f, "new/a/b");
	CHECK(safe_open(f, SAFE_CREATE, &bad, &fd) == 0 && same(fd, f));
	close(fd);
	CHECK(stat(f, &st) == 0 && (st.st_mode & 07777) == 0700);
	/* Nothing is made below a directory others may write. */
	at(p, "open");
	CHECK(mkdir(p, 0700) == 0 && chmod(p, 0777) == 0);
	at(f, "open/dumps");
	CHECK(safe_open(f, SAFE_CREATE, &bad, &fd) == -EPERM);
	CHECK(strcmp(bad.path, p) == 0);
	CHECK(access(f, F_OK) < 0 && errno == ENOENT);
	/* An existing sticky directory is no dump store either. */
	at(f, "sticky");
	CHECK(safe_open(f, SAFE_CREATE, &bad, &fd) == -EPERM);
	CHECK(bad.fault == SAFE_FAULT_WORLD_WRITABLE);
	/* Through a link to a directory others may write: the same. */
	at(p, "to-open");
	CHECK(symlink("open", p) == 0);
	at(f, "to-open/dumps");
	CHECK(safe_open(f, SAFE_CREATE, &bad, &fd) == -EPERM);
	at(f, "open/dumps");
	CHECK(access(f, F_OK) < 0 && errno == ENOENT);
}

static void test_text(void)
{
	struct safe_violation bad = { .fault = SAFE_FAULT_OWNER, .uid = 7 };
	char buf[64];

	CHECK(strcmp(safe_fault_text(&bad, buf, sizeof(buf)),
		     "owned by uid 7, not root") == 0);
	bad.fault = SAFE_FAULT_WORLD_WRITABLE;
	bad.mode = 01777;
	CHECK(strcmp(safe_fault_text(&bad, buf, sizeof(buf)),
		     "world-writable (mode 1777)") == 0);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_plain();
	test_links();
	test_create();
	test_text();
	if (test_rm_rf(dir) < 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	return tests_done();
}
