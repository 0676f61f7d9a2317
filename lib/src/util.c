// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

int read_line_file(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd, r = 0;

	if (size == 0)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0)
		r = -errno;
	close(fd);
	if (r < 0)
		return r;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

int write_attr(const char *path, const char *text)
{
	size_t len = strlen(text);
	ssize_t n;
	int fd, r = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	n = write(fd, text, len);
	if (n < 0)
		r = -errno;
	else if ((size_t)n != len)
		r = -EIO;
	close(fd);
	return r;
}

int parse_decimal(const char *s, unsigned long long max,
		  unsigned long long *ret)
{
	unsigned long long x;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno == ERANGE || x > max)
		return -ERANGE;
	if (*end)
		return -EINVAL;
	*ret = x;
	return 0;
}

int read_ull_file(const char *path, unsigned long long *ret)
{
	char buf[64], *end;
	unsigned long long x;
	int r;

	r = read_line_file(path, buf, sizeof(buf));
	if (r < 0)
		return r;
	errno = 0;
	x = strtoull(buf, &end, 0);
	if (errno || end == buf || *end)
		return -EINVAL;
	*ret = x;
	return 0;
}

/* fsync() of a directory; some filesystems have nothing to sync: EINVAL. */
static int fsync_dir(int dirfd)
{
	_cleanup_close_ int fd = -1;

	if (dirfd == AT_FDCWD) {
		fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		dirfd = fd;
	}
	if (fsync(dirfd) < 0 && errno != EINVAL)
		return -errno;
	return 0;
}

static int write_all(int fd, const char *data, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		data += n;
		len -= n;
	}
	return 0;
}

int write_file_atomic_at(int dirfd, const char *name, const char *data,
			 size_t len, mode_t mode)
{
	static unsigned int counter;
	char tmp[NAME_MAX + 1];
	int fd = -1, r;

	if (!name[0] || strchr(name, '/'))
		return -EINVAL;
	/* O_EXCL makes the name ours; only a collision tries another. */
	for (unsigned int i = 0; fd < 0 && i < 100; i++) {
		if (snprintf(tmp, sizeof(tmp), "%s.tmp%06x", name,
			     (unsigned int)(getpid() ^ now_ms() * 7919 ^
					    ++counter * 104729) & 0xffffff) >=
		    (int)sizeof(tmp))
			return -ENAMETOOLONG;
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL |
				O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			return -errno;
	}
	if (fd < 0)
		return -EEXIST;
	r = write_all(fd, data, len);
	if (r == 0 && fchmod(fd, mode) < 0)
		r = -errno;
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && renameat(dirfd, tmp, dirfd, name) < 0)
		r = -errno;
	if (r < 0) {
		(void)unlinkat(dirfd, tmp, 0);
		return r;
	}
	return fsync_dir(dirfd);
}

int open_parent(const char *path, int *ret_fd, const char **ret_name)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	int fd;

	if (!slash) {
		*ret_fd = AT_FDCWD;
		*ret_name = path;
		return 0;
	}
	if ((size_t)(slash - path) >= sizeof(dir))
		return -ENAMETOOLONG;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	fd = open(slash == path ? "/" : dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	*ret_fd = fd;
	*ret_name = slash + 1;
	return 0;
}

int write_file_atomic(const char *path, const char *data, size_t len,
		      mode_t mode)
{
	const char *name;
	int dirfd, r;

	r = open_parent(path, &dirfd, &name);
	if (r < 0)
		return r;
	r = write_file_atomic_at(dirfd, name, data, len, mode);
	if (dirfd >= 0)
		close(dirfd);
	return r;
}

int read_fd_max(int fd, char **ret, size_t max)
{
	_cleanup_free_ char *buf = NULL;
	size_t len = 0;

	if (max >= INT_MAX)
		return -EINVAL;
	buf = malloc(max + 1);
	if (!buf)
		return -ENOMEM;
	/* One byte more than max: a longer file shows, never cut short. */
	while (len <= max) {
		ssize_t n = read(fd, buf + len, max + 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		len += n;
	}
	if (len > max)
		return -EFBIG;
	buf[len] = '\0';
	*ret = TAKE_PTR(buf);
	return (int)len;
}

int read_file_max(const char *path, char **ret, size_t max)
{
	_cleanup_close_ int fd = -1;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	return read_fd_max(fd, ret, max);
}

int read_file_max_at(int dirfd, const char *name, char **ret, size_t max)
{
	_cleanup_close_ int fd = -1;

	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	return read_fd_max(fd, ret, max);
}

int sync_file(const char *path)
{
	int fd, r = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0)
		r = -errno;
	close(fd);
	return r;
}

int fsync_parent(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	int fd, r = 0;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else if ((size_t)(slash - path) >= sizeof(dir))
		return -ENAMETOOLONG;
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* Some filesystems have nothing to sync for a directory: EINVAL. */
	if (fsync(fd) < 0 && errno != EINVAL)
		r = -errno;
	close(fd);
	return r;
}

int mkdir_p(const char *path, mode_t mode)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, mode) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, mode) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int boot_time_from(const char *proc_stat, long long *ret)
{
	_cleanup_free_ char *text = NULL;
	const char *p;
	long long t;
	char *end;
	int r;

	/* /proc/stat is 0 bytes by stat(): read to its end, bounded. */
	r = read_file_max(proc_stat, &text, 1024 * 1024);
	if (r < 0)
		return r;
	for (p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, "btime ", 6) == 0)
			break;
	if (!p)
		return -ENOENT;
	errno = 0;
	t = strtoll(p + 6, &end, 10);
	if (errno || end == p + 6 || (*end && *end != '\n') || t <= 0)
		return -EINVAL;
	*ret = t;
	return 0;
}

int boot_time(long long *ret)
{
	return boot_time_from("/proc/stat", ret);
}

unsigned long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

size_t utf8_seq_len(const unsigned char *s)
{
	size_t n;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and beyond U+10FFFF are not UTF-8. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

int path_format(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	return (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int text_vformat(char *buf, size_t size, const char *fmt, va_list ap)
{
	int n;

	if (size == 0)
		return 1;
	n = vsnprintf(buf, size, fmt, ap);
	if (n < 0) {
		buf[0] = '\0';
		return 1;
	}
	if ((size_t)n < size)
		return 0;
	/* Cut: say so where it was cut, on a whole UTF-8 sequence. */
	if (size >= 4) {
		size_t end = size - 4;

		while (end > 0 && ((unsigned char)buf[end] & 0xc0) == 0x80)
			end--;
		memcpy(buf + end, "...", 4);
	}
	return 1;
}

int text_format(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = text_vformat(buf, size, fmt, ap);
	va_end(ap);
	return r;
}

void utc_time(long long t, char *buf, size_t size)
{
	time_t tt = t;
	struct tm tm;

	if (t < 0 || !gmtime_r(&tt, &tm))
		snprintf(buf, size, "-");
	else
		strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

bool word_in_list(const char *word, const char *list)
{
	size_t n = strlen(word);

	if (n == 0)
		return false;
	for (const char *s = list; *s; s += strcspn(s, " "), s += *s == ' ')
		if (strncmp(s, word, n) == 0 && (s[n] == ' ' || s[n] == '\0'))
			return true;
	return false;
}

/* Levenshtein's distance between a and b, up to 64 letters of b. */
size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[65];

	if (lb > 64)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

int lock_file(const char *path, bool wait, int *ret_fd)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);

	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB)) < 0) {
		int r = errno == EWOULDBLOCK ? -EBUSY : -errno;

		close(fd);
		return r;
	}
	*ret_fd = fd;
	return 0;
}
