// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "record.h"
#include "textfilter.h"
#include "util.h"

#define PANIC_TAG "Kernel panic - not syncing: "
#define PSTORE_FILE_MAX (1024 * 1024)

static int fit(int n, size_t size)
{
	if (n < 0)
		return -EINVAL;
	return (size_t)n < size ? 0 : -ENOBUFS;
}

/* src into dst, without ';' (the separator) and control characters. */
static void clean(char *dst, size_t size, const char *src)
{
	size_t n = 0;

	for (; *src && n + 1 < size; src++)
		dst[n++] = (*src == ';' || (unsigned char)*src < 0x20 ||
			    *src == 0x7f) ? ' ' : *src;
	dst[n] = '\0';
}

int record_format(const struct capture_record *r, char *buf, size_t size)
{
	char step[sizeof(r->step)], error[sizeof(r->error)];
	char target[sizeof(r->target)], modules[sizeof(r->modules)];
	char why[sizeof(r->why)];

	clean(step, sizeof(step), r->step);
	clean(error, sizeof(error), r->error);
	clean(target, sizeof(target), r->target);
	clean(modules, sizeof(modules), r->modules);
	clean(why, sizeof(why), r->why);
	return fit(snprintf(buf, size,
			    RECORD_TAG "crash_time=%lld; step=%s; error=%s; target=%s; modules=%s; mem_free_kib=%llu; why=%s",
			    r->crash_time, step, error, target, modules,
			    r->mem_free_kib, why), size);
}

/* The value of "key=" up to "; " (or the line's end for the last key). */
static int field(const char *line, const char *key, bool last, char *buf,
		 size_t size)
{
	char pat[32];
	const char *p, *end;
	size_t n;

	snprintf(pat, sizeof(pat), "%s=", key);
	/* At the start, or after "; ": not inside another key's value. */
	for (p = strstr(line, pat); p && p != line &&
	     (p - line < 2 || strncmp(p - 2, "; ", 2) != 0);
	     p = strstr(p + 1, pat))
		;
	if (!p)
		return -EINVAL;
	p += strlen(pat);
	end = last ? NULL : strstr(p, "; ");
	n = end ? (size_t)(end - p) : strcspn(p, "\r\n");
	if (n >= size)
		n = size - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return 0;
}

/* s (in a buffer of size bytes) through text_filter(), cut to fit. */
static void filter_in_place(char *s, size_t size)
{
	char buf[1024];

	(void)text_filter(s, buf, size < sizeof(buf) ? size : sizeof(buf));
	memcpy(s, buf, strlen(buf) + 1);
}

int record_parse(const char *line, struct capture_record *ret)
{
	struct capture_record r = { .written = -1 };
	char num[32], *end;
	const char *p;

	p = strstr(line, RECORD_TAG);
	if (!p)
		return -EINVAL;
	p += strlen(RECORD_TAG);
	if (field(p, "crash_time", false, num, sizeof(num)) < 0)
		return -EINVAL;
	errno = 0;
	r.crash_time = strtoll(num, &end, 10);
	if (errno || end == num || *end)
		return -EINVAL;
	if (field(p, "mem_free_kib", false, num, sizeof(num)) < 0)
		return -EINVAL;
	errno = 0;
	r.mem_free_kib = strtoull(num, &end, 10);
	if (errno || end == num || *end || num[0] == '-')
		return -EINVAL;
	if (field(p, "step", false, r.step, sizeof(r.step)) < 0 ||
	    field(p, "error", false, r.error, sizeof(r.error)) < 0 ||
	    field(p, "target", false, r.target, sizeof(r.target)) < 0 ||
	    field(p, "modules", false, r.modules, sizeof(r.modules)) < 0 ||
	    field(p, "why", true, r.why, sizeof(r.why)) < 0)
		return -EINVAL;
	/* Shown on root's terminal and in the journal: cut rather than fail. */
	filter_in_place(r.step, sizeof(r.step));
	filter_in_place(r.error, sizeof(r.error));
	filter_in_place(r.target, sizeof(r.target));
	filter_in_place(r.modules, sizeof(r.modules));
	filter_in_place(r.why, sizeof(r.why));
	*ret = r;
	return 0;
}

/*
 * The record in one pstore file: the capture's own line (the last one, as
 * it may have written more than one), else the text of a kernel panic.
 */
static int record_in_text(const char *text, struct capture_record *ret)
{
	const char *p, *last = NULL;
	size_t n;

	for (p = text; (p = strstr(p, RECORD_TAG)); p++)
		last = p;
	if (last)
		return record_parse(last, ret);
	p = strstr(text, PANIC_TAG);
	if (!p)
		return -ENOENT;
	memset(ret, 0, sizeof(*ret));
	ret->crash_time = -1;
	ret->panic = true;
	snprintf(ret->step, sizeof(ret->step), "starting the capture");
	p += strlen(PANIC_TAG);
	n = strcspn(p, "\r\n");
	if (n >= sizeof(ret->why))
		n = sizeof(ret->why) - 1;
	memcpy(ret->why, p, n);
	ret->why[n] = '\0';
	filter_in_place(ret->why, sizeof(ret->why));
	return 0;
}

static int read_small(int dfd, const char *name, char **ret, long long *mtime)
{
	struct stat st;
	ssize_t n;
	char *buf;
	int fd;

	fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > PSTORE_FILE_MAX) {
		close(fd);
		return -EINVAL;
	}
	buf = malloc(PSTORE_FILE_MAX + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	n = read(fd, buf, PSTORE_FILE_MAX);
	close(fd);
	if (n < 0) {
		free(buf);
		return -EIO;
	}
	/* Text with NULs in it is read up to the first. */
	buf[n] = '\0';
	*mtime = st.st_mtime;
	*ret = buf;
	return 0;
}

static bool better(const struct capture_record *a,
		   const struct capture_record *b)
{
	long long ta = a->crash_time >= 0 ? a->crash_time : a->written;
	long long tb = b->crash_time >= 0 ? b->crash_time : b->written;

	/*
	 * A time from the future never hides a real record: else one line
	 * planted in the kernel log with a far-future crash_time would.
	 */
	if (a->after_boot != b->after_boot)
		return !a->after_boot;
	/* Newer wins; at the same time the capture's own record wins. */
	return ta > tb || (ta == tb && !a->panic && b->panic);
}

static void scan(int dfd, unsigned int depth, long long since,
		 long long boot, struct capture_record *best, bool *found)
{
	struct dirent *de;
	DIR *d;

	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return;
	}
	while ((de = readdir(d))) {
		struct capture_record r;
		long long mtime = 0;
		char *text = NULL;

		if (de->d_name[0] == '.')
			continue;
		if (de->d_type == DT_DIR && depth > 0) {
			int sub = openat(dirfd(d), de->d_name, O_RDONLY |
					 O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			if (sub >= 0)
				scan(sub, depth - 1, since, boot, best,
				     found);
			continue;
		}
		if (strncmp(de->d_name, "dmesg", 5) != 0)
			continue;
		if (read_small(dirfd(d), de->d_name, &text, &mtime) < 0)
			continue;
		if (record_in_text(text, &r) == 0) {
			r.written = mtime;
			r.after_boot = r.crash_time > boot;
			if ((r.crash_time >= 0 ? r.crash_time : r.written) >= since &&
			    (!*found || better(&r, best))) {
				*best = r;
				*found = true;
			}
		}
		free(text);
	}
	closedir(d);
}

int record_find_at(const char *const *dirs, long long since, long long boot,
		   struct capture_record *ret)
{
	struct capture_record best;
	bool found = false;

	for (; *dirs; dirs++) {
		int fd = open(*dirs, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (fd >= 0)
			scan(fd, 2, since, boot, &best, &found);
	}
	if (!found)
		return -ENOENT;
	*ret = best;
	return 0;
}

int record_find(const char *const *dirs, long long since,
		struct capture_record *ret)
{
	long long boot;

	/* Without the boot's start, no time is known to be in the future. */
	if (boot_time(&boot) < 0)
		boot = LLONG_MAX;
	return record_find_at(dirs, since, boot, ret);
}

static const char *hint(const struct capture_record *r)
{
	if (r->panic)
		return "run 'kdump-file test' to see the capture kernel boot, check the crashkernel= size with 'kdump-file estimate' and any cmdline_append in kdump-file.conf";
	if (strcmp(r->step, "waiting for the dump target") == 0)
		return "check that 'target' in kdump-file.conf names a disk of this machine and that 'kdump-file show' lists the drivers it needs, or raise target_timeout";
	if (strcmp(r->step, "identifying the raw dump device") == 0)
		return "a disk that copies the raw dump device's identity (a clone, a stick with the same partition table) is attached, or the device changed size: detach the copy or give it another serial and partition UUID, then run 'kdump-file load' again";
	if (strcmp(r->step, "mounting the target") == 0)
		return "check the dump target's filesystem (fsck), and that 'kdump-file show' lists its module";
	if (strcmp(r->step, "saving the vmcore") == 0 ||
	    strcmp(r->step, "saving the dmesg") == 0)
		return "check the dump target's health and free space, or raise capture_timeout for a slow target";
	return "run 'kdump-file test' to see a capture through, and read the capture kernel's console";
}

int record_describe(const struct capture_record *r, char *buf, size_t size)
{
	char when[32] = "an unknown time", mods[300] = "";
	time_t t = r->crash_time >= 0 ? r->crash_time : r->written;
	struct tm tm;

	if (t >= 0 && gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (r->panic)
		return fit(snprintf(buf, size,
				    "the crash before %s was not saved: the capture kernel panicked before the capture could finish: %s; %s",
				    when, r->why, hint(r)), size);
	if (r->modules[0])
		snprintf(mods, sizeof(mods), "; modules loaded: %s", r->modules);
	if (r->after_boot)
		return fit(snprintf(buf, size,
				    "a failure record in pstore claims a crash at %s, after this boot began: not trusted (a line written to the kernel log can forge one, or the clock was wrong); it says the capture failed while %s: %s%s%s%s; check the files in /sys/fs/pstore and /var/lib/systemd/pstore",
				    when, r->step, r->why,
				    r->error[0] ? " (" : "", r->error,
				    r->error[0] ? ")" : ""), size);
	return fit(snprintf(buf, size,
			    "the crash at %s was not saved: the capture failed while %s: %s%s%s%s%s; %llu MiB free in the capture kernel; %s",
			    when, r->step, r->why, r->error[0] ? " (" : "",
			    r->error, r->error[0] ? ")" : "", mods,
			    r->mem_free_kib >> 10, hint(r)), size);
}
