// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tests.h"
#include "util.h"

static char dir[] = "/tmp/test-util.XXXXXX";

/* How many entries dir holds besides . and .. */
static int entries(void)
{
	struct dirent *de;
	int n = 0;
	DIR *d = opendir(dir);

	if (!d)
		return -1;
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

static void test_read_file_max(void)
{
	char p[300], *text = (char *)"untouched", *keep = text;
	int fd;

	test_put(dir, "ten", "0123456789");
	snprintf(p, sizeof(p), "%s/ten", dir);
	CHECK(read_file_max(p, &text, 10) == 10 && strcmp(text, "0123456789") == 0);
	free(text);
	/* One byte short: refused, never cut. */
	text = keep;
	CHECK(read_file_max(p, &text, 9) == -EFBIG && text == keep);
	CHECK(read_file_max(p, &text, 0) == -EFBIG && text == keep);
	test_put(dir, "empty", "");
	snprintf(p, sizeof(p), "%s/empty", dir);
	CHECK(read_file_max(p, &text, 0) == 0 && text[0] == '\0');
	free(text);
	text = keep;
	snprintf(p, sizeof(p), "%s/missing", dir);
	CHECK(read_file_max(p, &text, 10) == -ENOENT && text == keep);

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(read_file_max_at(fd, "ten", &text, 100) == 10);
	free(text);
	text = keep;
	CHECK(read_file_max_at(fd, "ten", &text, 5) == -EFBIG && text == keep);
	CHECK(symlinkat("ten", fd, "link") == 0);
	CHECK(read_file_max_at(fd, "link", &text, 100) == -ELOOP && text == keep);
	CHECK(unlinkat(fd, "link", 0) == 0);
	close(fd);
}

static void test_write_file_atomic(void)
{
	char p[300], *text = NULL;
	struct stat st;
	int fd, n;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	n = entries();
	CHECK(write_file_atomic_at(fd, "out", "one\n", 4, 0640) == 0);
	CHECK(fstatat(fd, "out", &st, 0) == 0 && (st.st_mode & 07777) == 0640);
	CHECK(read_file_max_at(fd, "out", &text, 100) == 4 &&
	      strcmp(text, "one\n") == 0);
	free(text);
	/* Replaced whole, no temporary file left. */
	CHECK(write_file_atomic_at(fd, "out", "two", 3, 0600) == 0);
	CHECK(read_file_max_at(fd, "out", &text, 100) == 3 &&
	      strcmp(text, "two") == 0);
	free(text);
	CHECK(entries() == n + 1);
	/* A link in its place is replaced, not written through. */
	CHECK(symlinkat("out", fd, "link") == 0);
	CHECK(write_file_atomic_at(fd, "link", "three", 5, 0600) == 0);
	CHECK(fstatat(fd, "link", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	      S_ISREG(st.st_mode));
	CHECK(read_file_max_at(fd, "out", &text, 100) == 3);
	free(text);
	CHECK(write_file_atomic_at(fd, "a/b", "x", 1, 0600) == -EINVAL);
	CHECK(write_file_atomic_at(fd, "", "x", 1, 0600) == -EINVAL);
	/* A directory in the way: the rename fails, nothing is left. */
	CHECK(mkdirat(fd, "busy", 0700) == 0);
	n = entries();
	CHECK(write_file_atomic_at(fd, "busy", "x", 1, 0600) == -EISDIR);
	CHECK(entries() == n);
	close(fd);

	snprintf(p, sizeof(p), "%s/by-path", dir);
	CHECK(write_file_atomic(p, "four", 4, 0600) == 0);
	CHECK(read_file_max(p, &text, 100) == 4 && strcmp(text, "four") == 0);
	free(text);
}

static void test_cleanup(void)
{
	int fd_seen;

	{
		_cleanup_close_ int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		_cleanup_free_ char *p = strdup("freed at the brace");
		_cleanup_fclose_ FILE *f = fopen("/dev/null", "re");

		fd_seen = fd;
		CHECK(fd >= 0 && p && f);
	}
	/* Closed: the number is free again. */
	CHECK(fcntl(fd_seen, F_GETFD) < 0 && errno == EBADF);
	{
		_cleanup_close_ int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		int kept = TAKE_FD(fd);

		CHECK(fd == -1 && kept >= 0);
		fd_seen = kept;
	}
	CHECK(fcntl(fd_seen, F_GETFD) >= 0);
	close(fd_seen);
}

static void test_boot_time(void)
{
	long long t = 0, now = time(NULL);

	CHECK(boot_time(&t) == 0 && t > 0 && t <= now);
	test_put(dir, "stat", "cpu  1 2 3\nintr 5 6\nbtime 1764850000\nprocesses 9\n");
	CHECK(boot_time_from(strcat(strcpy((char[256]){ 0 }, dir), "/stat"), &t) == 0);
	CHECK(t == 1764850000);
	test_put(dir, "stat", "cpu  1 2 3\nxbtime 5\n");
	CHECK(boot_time_from(strcat(strcpy((char[256]){ 0 }, dir), "/stat"), &t) == -ENOENT);
	test_put(dir, "stat", "btime x\n");
	CHECK(boot_time_from(strcat(strcpy((char[256]){ 0 }, dir), "/stat"), &t) == -EINVAL);
	CHECK(t == 1764850000);
}

/* lock_file: one holder; a second without waiting is told busy. */
static void test_lock_file(void)
{
	char path[300], link[300];
	int a = -1, b = -1;
	struct stat st;

	snprintf(path, sizeof(path), "%s/lock", dir);
	CHECK(lock_file(path, false, &a) == 0 && a >= 0);
	CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600);
	CHECK(lock_file(path, false, &b) == -EBUSY && b == -1);
	close(a);
	CHECK(lock_file(path, false, &b) == 0);
	close(b);
	snprintf(link, sizeof(link), "%s/lock-link", dir);
	CHECK(symlink(path, link) == 0);
	CHECK(lock_file(link, false, &b) == -ELOOP);
	/* edit_distance: what a misspelt name is nearest to. */
	CHECK(edit_distance("staus", "status") == 1);
	CHECK(edit_distance("", "abc") == 3);
	CHECK(edit_distance("load", "load") == 0);
}

/* Text into a fixed buffer: a path fails when cut, a message says "...". */
static void test_parse_decimal(void)
{
	unsigned long long x = 7;

	CHECK(parse_decimal("0", 10, &x) == 0 && x == 0);
	CHECK(parse_decimal("10", 10, &x) == 0 && x == 10);
	CHECK(parse_decimal("11", 10, &x) == -ERANGE && x == 10);
	CHECK(parse_decimal("18446744073709551615", ULLONG_MAX, &x) == 0 &&
	      x == ULLONG_MAX);
	CHECK(parse_decimal("18446744073709551616", ULLONG_MAX, &x) == -ERANGE);
	/* Nothing but digits: no sign, blank, base or trailing text. */
	CHECK(parse_decimal("", 10, &x) == -EINVAL);
	CHECK(parse_decimal("-1", 10, &x) == -EINVAL);
	CHECK(parse_decimal("+1", 10, &x) == -EINVAL);
	CHECK(parse_decimal(" 1", 10, &x) == -EINVAL);
	CHECK(parse_decimal("1 ", 10, &x) == -EINVAL);
	CHECK(parse_decimal("0x1", 10, &x) == -EINVAL);
	CHECK(parse_decimal("5k", 10, &x) == -EINVAL);
	CHECK(x == ULLONG_MAX);
}

static void test_format(void)
{
	char b[8];

	CHECK(path_format(b, sizeof(b), "%s/%s", "ab", "cd") == 0);
	CHECK(strcmp(b, "ab/cd") == 0);
	CHECK(path_format(b, sizeof(b), "%s/%s", "abc", "defg") ==
	      -ENAMETOOLONG);
	CHECK(path_format(b, sizeof(b), "%s", "1234567") == 0);
	CHECK(text_format(b, sizeof(b), "%s", "1234567") == 0);
	CHECK(strcmp(b, "1234567") == 0);
	CHECK(text_format(b, sizeof(b), "%s", "12345678") == 1);
	CHECK(strcmp(b, "1234...") == 0);
	/* Never half a UTF-8 sequence before the dots: "é" is 2 bytes. */
	CHECK(text_format(b, sizeof(b), "%s", "123\xc3\xa9xyz") == 1);
	CHECK(strcmp(b, "123...") == 0);
	CHECK(text_format(b, 3, "%s", "abcdef") == 1);
	CHECK(strcmp(b, "ab") == 0);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_read_file_max();
	test_write_file_atomic();
	test_cleanup();
	test_boot_time();
	test_lock_file();
	test_format();
	test_parse_decimal();
	if (test_rm_rf(dir) < 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	return tests_done();
}
