// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dump.h"
#include "dumpdir.h"
#include "json.h"
#include "safedir.h"
#include "util.h"

bool dump_is_ours(int basefd, const char *name)
{
	struct stat st;

	return fstatat(basefd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
	       !(st.st_mode & (S_IWGRP | S_IWOTH));
}

int dump_base_check(const char *base, struct diag *d)
{
	struct safe_violation bad;
	int fd = -1, r;

	if (base[0] != '/')
		return diag_fail(d, -EINVAL, "%s is not an absolute path", base);
	/*
	 * Links on the way are followed and what they lead to is checked:
	 * a directory above the dump directory reached through a link is as
	 * much on the way down as any other.
	 */
	r = safe_open(base, SAFE_DIRECTORY | SAFE_LEAF_NOLINK, &bad, &fd);
	if (r == 0) {
		close(fd);
		return 0;
	}
	if (r != -EPERM)
		return diag_fail(d, r, NULL);
	if (bad.fault == SAFE_FAULT_LINK)
		return diag_fail(d, r, "%s is a symbolic link", bad.path);
	if (bad.fault == SAFE_FAULT_OWNER)
		return diag_fail(d, r, "%s is owned by uid %u, not root",
				 bad.path, bad.uid);
	return diag_fail(d, r, "%s may be written by others than root (mode %04o)",
			 bad.path, bad.mode);
}

int dump_find_last(const char *base, char *ret, size_t size)
{
	char best[64] = "";
	struct dirent *de;
	DIR *d;

	d = opendir(base);
	if (!d)
		return -errno;
	while ((de = readdir(d)))
		if (dump_name_valid(de->d_name) &&
		    dump_is_ours(dirfd(d), de->d_name) &&
		    strlen(de->d_name) < sizeof(best) &&
		    /* Same second: "-N" suffixes sort after the bare name. */
		    strcmp(de->d_name, best) > 0)
			strcpy(best, de->d_name);
	closedir(d);
	if (!best[0])
		return -ENOENT;
	if ((size_t)snprintf(ret, size, "%s/%s", base, best) >= size)
		return -ENAMETOOLONG;
	return 0;
}

/* kdump-file-analyze's report: "crash SIG: PANIC in TASK". */
static void inspect_report(int dirfd, struct dump_info *d)
{
	/* A report.json holds the backtrace and more: room for a large one. */
	_cleanup_free_ char *json = NULL;
	char sig[64] = "", panic[256] = "", task[64] = "";

	if (read_file_max_at(dirfd, DUMP_REPORT_JSON, &json, 1024 * 1024) < 0)
		return;
	(void)json_get_field(json, "signature", sig, sizeof(sig));
	if (json_get_field(json, "panic", panic, sizeof(panic)) < 0 ||
	    strcmp(panic, "null") == 0)
		(void)json_get_field(json, "oops", panic, sizeof(panic));
	if (strcmp(panic, "null") == 0)
		panic[0] = '\0';
	(void)json_get_field(json, "task.command", task, sizeof(task));
	if (strcmp(sig, "null") == 0)
		sig[0] = '\0';
	snprintf(d->signature, sizeof(d->signature), "%s", sig);
	if (sig[0])
		snprintf(d->summary, sizeof(d->summary), "crash %s: %s in %s",
			 sig, panic[0] ? panic : "no panic message",
			 task[0] ? task : "unknown task");
}

/* A copy of a dump on the collector: where the dump is, its vmcore. */
static void inspect_copy(int dirfd, struct dump_info *d)
{
	_cleanup_free_ char *json = NULL;
	char where[sizeof(d->dir)], bytes[32];
	long long b;

	if (read_file_max_at(dirfd, DUMP_COLLECTOR_COPY, &json, 16384) < 0 ||
	    json_get_field(json, "location", where, sizeof(where)) < 0 ||
	    !where[0] || strcmp(where, "null") == 0)
		return;
	d->copy = true;
	snprintf(d->dir, sizeof(d->dir), "%s", where);
	d->has_vmcore = false;
	d->has_incomplete = false;
	d->vmcore_bytes = -1;
	if (json_get_field(json, "vmcore_bytes", bytes, sizeof(bytes)) == 0) {
		b = strtoll(bytes, NULL, 10);
		if (b > 0) {
			d->has_vmcore = true;
			d->vmcore_bytes = b;
		}
	}
}

int dump_inspect(const char *dir, struct dump_info *ret)
{
	_cleanup_free_ struct dump_metadata *m = NULL;
	_cleanup_free_ struct dump_info *d = NULL;
	_cleanup_close_ int fd = -1;
	struct stat st;

	if (strlen(dir) >= sizeof(d->dir))
		return -ENAMETOOLONG;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOTDIR ? -ENOTDIR : -errno;
	d = calloc(1, sizeof(*d));
	m = malloc(sizeof(*m));
	if (!d || !m)
		return -ENOMEM;
	strcpy(d->dir, dir);
	d->crash_time = -1;
	d->vmcore_bytes = -1;
	if (fstatat(fd, DUMP_VMCORE, &st, 0) == 0) {
		d->has_vmcore = true;
		d->vmcore_bytes = st.st_size;
	}
	d->has_incomplete = faccessat(fd, DUMP_VMCORE_INCOMPLETE, F_OK, 0) == 0;
	d->has_dmesg = faccessat(fd, DUMP_DMESG, F_OK, 0) == 0;
	if (dump_metadata_read(fd, m) == 0) {
		d->has_metadata = true;
		text_format(d->panic, sizeof(d->panic), "%s", m->panic);
		text_format(d->error, sizeof(d->error), "%s", m->error);
		snprintf(d->release, sizeof(d->release), "%s",
			 m->kernel_release);
		d->crash_time = m->crash_time;
		/*
		 * Only the final record says both: the one written while
		 * the capture runs says complete false.
		 */
		d->dmesg_only = m->dmesg_only && m->complete;
	}
	inspect_report(fd, d);
	inspect_copy(fd, d);
	*ret = *d;
	return 0;
}

bool dump_complete(const struct dump_info *d)
{
	return d->has_vmcore || (d->dmesg_only && d->has_dmesg);
}

long long dump_name_time(const char *name)
{
	struct tm tm = { 0 };

	if (!dump_name_valid(name) ||
	    sscanf(name, "%4d-%2d-%2d-%2d:%2d:%2d", &tm.tm_year, &tm.tm_mon,
		   &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (long long)timegm(&tm);
}

long long dump_time(const struct dump_info *d)
{
	const char *name = strrchr(d->dir, '/');

	if (d->crash_time >= 0)
		return d->crash_time;
	return dump_name_time(name ? name + 1 : d->dir);
}

int dump_scan(const char *base, long long *ret_newest,
	      long long *ret_newest_complete)
{
	long long newest = -1, complete = -1;
	struct dirent *de;
	DIR *d;

	d = opendir(base);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char dir[4096];
		struct dump_info info;
		long long t;

		if (!dump_name_valid(de->d_name) ||
		    !dump_is_ours(dirfd(d), de->d_name) ||
		    (size_t)snprintf(dir, sizeof(dir), "%s/%s", base,
				     de->d_name) >= sizeof(dir) ||
		    dump_inspect(dir, &info) < 0)
			continue;
		t = dump_time(&info);
		if (t > newest)
			newest = t;
		if (dump_complete(&info) && t > complete)
			complete = t;
	}
	closedir(d);
	*ret_newest = newest;
	*ret_newest_complete = complete;
	return 0;
}

unsigned int dump_retention(const bool *complete, unsigned int n,
			    unsigned int keep, bool *remove)
{
	unsigned int excess, removed = 0;
	int newest_complete = -1;

	for (unsigned int i = 0; i < n; i++) {
		remove[i] = false;
		if (complete[i])
			newest_complete = (int)i;
	}
	if (keep == 0 || n < keep)
		return 0;
	excess = n - (keep - 1);
	for (unsigned int pass = 0; pass < 2; pass++)
		for (unsigned int i = 0; i < n && removed < excess; i++) {
			if (complete[i] != (pass == 1) || (int)i == newest_complete)
				continue;
			remove[i] = true;
			removed++;
		}
	return removed;
}

int dump_remove(int basefd, const char *name)
{
	struct dirent *de;
	int fd, r = 0;
	DIR *d;

	if (!dump_name_valid(name))
		return -EINVAL;
	fd = openat(basefd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	if (fd < 0)
		return errno == ELOOP ? -ENOTDIR : -errno;
	d = fdopendir(fd);
	if (!d) {
		r = -errno;
		close(fd);
		return r;
	}
	while ((de = readdir(d))) {
		struct stat st;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		/* Not something the capture makes: left, with the dump. */
		if (S_ISDIR(st.st_mode)) {
			r = -ENOTEMPTY;
			continue;
		}
		/* A link goes as a link: what it points to stays. */
		if (unlinkat(dirfd(d), de->d_name, 0) < 0 && r == 0)
			r = -errno;
	}
	closedir(d);
	if (r < 0)
		return r;
	return unlinkat(basefd, name, AT_REMOVEDIR) < 0 ? -errno : 0;
}

void dump_id(const char *name, char ret[DUMP_ID_LEN + 1])
{
	uint32_t h = 2166136261u;

	for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
		h ^= *c;
		h *= 16777619u;
	}
	snprintf(ret, DUMP_ID_LEN + 1, "%08x", h);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int dump_list(const char *base, char ***ret, size_t *ret_n)
{
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d;
	int r = 0;

	d = opendir(base);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!dump_name_valid(de->d_name) ||
		    !dump_is_ours(dirfd(d), de->d_name))
			continue;
		if (n == cap) {
			char **t;

			cap = cap ? cap * 2 : 16;
			t = realloc(names, cap * sizeof(*names));
			if (!t) {
				r = -ENOMEM;
				break;
			}
			names = t;
		}
		names[n] = strdup(de->d_name);
		if (!names[n]) {
			r = -ENOMEM;
			break;
		}
		n++;
	}
	closedir(d);
	if (r < 0) {
		dump_list_free(names, n);
		return r;
	}
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);
	*ret = names;
	*ret_n = n;
	return 0;
}

void dump_list_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int dump_resolve(char **names, size_t n, const char *what, size_t *ret)
{
	size_t len = strlen(what), found = n;

	if (!n)
		return -ENOENT;
	if (!*what || strcmp(what, "last") == 0) {
		*ret = n - 1;
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		char id[DUMP_ID_LEN + 1];

		if (strcmp(names[i], what) == 0) {
			*ret = i;
			return 0;
		}
		dump_id(names[i], id);
		/* An ID, or a prefix of one at least 4 long. */
		if (len >= 4 && len <= DUMP_ID_LEN &&
		    strncmp(id, what, len) == 0) {
			if (found != n)
				return -ENOTUNIQ;
			found = i;
		}
	}
	if (found == n)
		return -ENOENT;
	*ret = found;
	return 0;
}
