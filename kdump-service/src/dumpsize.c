// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "cli.h"
#include "dump.h"
#include "dumpdir.h"
#include "dumpsize.h"
#include "util.h"

/* The dump level bit of free pages (makedumpfile.h, DL_EXCLUDE_FREE). */
#define DL_EXCLUDE_FREE 16
/*
 * Free memory below this is no sign of anything: a system may well have
 * none free, and then --mem-usage rightly counts none.
 */
#define FREE_WORTH_SAYING (16ULL << 20)

static const char *cache_path(void)
{
	const char *env = getenv(DUMPSIZE_CACHE_ENV);

	return env && env[0] == '/' ? env : DUMPSIZE_CACHE;
}

/* A "Key:   N kB" line of /proc/meminfo, in bytes. */
static int meminfo_bytes(const char *key, unsigned long long *ret)
{
	_cleanup_free_ char *text = NULL;
	char pat[64];
	unsigned long long kib;
	const char *p;
	int r;

	r = read_file_max("/proc/meminfo", &text, 1 << 16);
	if (r < 0)
		return r;
	snprintf(pat, sizeof(pat), "%s:", key);
	for (p = text; p && strncmp(p, pat, strlen(pat)) != 0;) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p || sscanf(p + strlen(pat), " %llu kB", &kib) != 1 ||
	    kib > (~0ULL >> 10))
		return -EBADMSG;
	*ret = kib << 10;
	return 0;
}

/* The compression metadata.json names, or -EINVAL. */
static int compression_from(const char *s, enum conf_compression *ret)
{
	for (enum conf_compression c = COMPRESS_LZO; c <= COMPRESS_NONE; c++)
		if (strcmp(s, conf_compression_to_string(c)) == 0) {
			*ret = c;
			return 0;
		}
	return -EINVAL;
}

/* What the complete dump in dir measured of this machine. */
static int measured_from(const char *dir, struct dump_measured *ret)
{
	_cleanup_close_ int fd = -1;
	struct dump_metadata *m;
	struct dump_measured d;
	int r;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	r = dump_metadata_read(fd, m);
	if (r == 0 && (!m->complete || m->dmesg_only || m->vmcore_bytes <= 0 ||
		       !m->has_seconds || m->seconds_vmcore <= 0 ||
		       m->dump_level < 0))
		r = -ENODATA;
	if (r == 0)
		r = compression_from(m->compression, &d.compression);
	if (r == 0) {
		d.bytes = m->vmcore_bytes;
		d.seconds = m->seconds_vmcore;
		d.dump_level = m->dump_level;
		*ret = d;
	}
	free(m);
	return r;
}

/* Whether the cache's directory is there to write it in. */
static bool cache_dir_exists(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	struct stat st;

	if (!slash || (size_t)(slash - path) >= sizeof(dir))
		return false;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	return stat(dir[0] ? dir : "/", &st) == 0 && S_ISDIR(st.st_mode);
}

/* makedumpfile --mem-usage, cached or fresh, into *e. */
static int memusage_entry(bool fresh, struct memusage_entry *e,
			  bool *ret_cached)
{
	const char *path = cache_path();
	struct diag d = DIAG_INIT;
	struct memusage_key key;
	int r;

	r = memusage_key_now(NULL, &key);
	if (r < 0)
		return r;
	if (!fresh && memusage_cache_read(path, &key, e) == 0) {
		*ret_cached = true;
		return 0;
	}
	memset(e, 0, sizeof(*e));
	e->key = key;
	if (memusage_tool_version(key.tool, e->version, sizeof(e->version)) < 0)
		e->version[0] = '\0';
	e->error = memusage_run(key.tool, MEMUSAGE_TIMEOUT_MS, &e->m, &d);
	/* The cache keeps the message, "" when the errno says it all. */
	(void)text_format(e->why, sizeof(e->why), "%s", d.msg);
	if (e->error == -ENOENT)
		return -ENOENT;
	/* A cache that cannot be written costs the next verb a run: no more. */
	if (cache_dir_exists(path))
		(void)memusage_cache_write(path, e);
	*ret_cached = false;
	return 0;
}

int dumpsize_refresh(bool *ret_ran, struct diag *d)
{
	const char *path = cache_path(), *slash = strrchr(path, '/');
	struct memusage_entry *e;
	char dir[PATH_MAX];
	bool cached = false;
	int r;

	if (!slash || (size_t)(slash - path) >= sizeof(dir))
		return diag_fail(d, -EINVAL, NULL);
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	r = mkdir_p(dir[0] ? dir : "/", 0700);
	if (r < 0)
		return diag_fail(d, r, NULL);
	e = calloc(1, sizeof(*e));
	if (!e)
		return diag_fail(d, -ENOMEM, NULL);
	r = memusage_entry(false, e, &cached);
	if (r < 0)
		(void)diag_fail(d, r, NULL);
	else if (e->error < 0)
		r = diag_fail(d, e->error, "%s", e->why);
	*ret_ran = !cached;
	free(e);
	return r;
}

/*
 * Free pages makedumpfile cannot tell: the dump it writes and the one it
 * would had it excluded them, from MemTotal and MemFree when --mem-usage
 * failed.
 */
static void free_unexcluded(const struct kdump_conf *c, struct dumpsize *d)
{
	unsigned long long total = 0, mem_free = 0, page, free_pages, kept;

	if (!(c->dump_level & DL_EXCLUDE_FREE) ||
	    meminfo_bytes("MemFree", &mem_free) < 0 ||
	    mem_free < FREE_WORTH_SAYING)
		return;
	if (d->known) {
		if (d->run.m.has[MEMUSAGE_FREE] && d->run.m.pages[MEMUSAGE_FREE])
			return;
		/*
		 * MemFree's share of MemTotal, of the pages the table counts
		 * (which leaves out what the kernel reserved at boot).
		 */
		if (meminfo_bytes("MemTotal", &total) < 0 || total <= mem_free)
			return;
		page = d->run.m.page_size;
		free_pages = (unsigned long long)((double)mem_free / total *
						  d->est.total_pages);
		kept = d->est.kept_pages;
		d->est_with_free = d->est;
		if (estimate_dump(kept > free_pages ? kept - free_pages : 1,
				  d->est.total_pages, page, c->dump_level,
				  c->compression, NULL,
				  &d->est_without_free) < 0)
			return;
	} else {
		/*
		 * Nothing counted: every page, against those not free.  Not
		 * when it failed for want of a reservation (show_mem_usage()
		 * reads the crashkernel region): nothing is dumped then.
		 */
		if (strstr(d->run.why, "No memory is reserved for crashkernel"))
			return;
		/*
		 * Nor for another user than root, whom /proc/kcore refuses,
		 * nor in a sandbox that hides it (kdump-file.service's:
		 * "kdump-file mem-usage" counts before it, with /proc/kcore).
		 */
		if (geteuid() != 0 || strstr(d->run.why, "/proc/kcore"))
			return;
		if (meminfo_bytes("MemTotal", &total) < 0 || total <= mem_free)
			return;
		page = 4096;
		if (estimate_dump(total / page, total / page, page,
				  c->dump_level, c->compression, NULL,
				  &d->est_with_free) < 0 ||
		    estimate_dump((total - mem_free) / page, total / page,
				  page, c->dump_level, c->compression, NULL,
				  &d->est_without_free) < 0)
			return;
	}
	d->free_unexcluded = true;
}

int dumpsize_get(const struct kdump_conf *c, bool fresh,
		 const char *last_dump_dir, struct dumpsize *ret)
{
	struct dump_measured prev;
	bool have_prev;
	struct dumpsize *d;
	int r;

	if (c->dmesg_only)
		return -ENODATA;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	r = memusage_entry(fresh, &d->run, &d->cached);
	if (r < 0)
		goto out;
	have_prev = last_dump_dir && measured_from(last_dump_dir, &prev) == 0;
	if (d->run.error == 0)
		d->known = estimate_dump(
			memusage_kept_pages(&d->run.m, c->dump_level),
			d->run.m.total_pages, d->run.m.page_size,
			c->dump_level, c->compression,
			have_prev ? &prev : NULL, &d->est) == 0;
	free_unexcluded(c, d);
	*ret = *d;
out:
	free(d);
	return r;
}

/* The free bytes of the filesystem of path, or of its nearest ancestor. */
static int free_bytes_at(const char *path, char *where, size_t size,
			 unsigned long long *ret)
{
	struct statvfs sv;

	if (snprintf(where, size, "%s", path) >= (int)size)
		return -ENAMETOOLONG;
	while (statvfs(where, &sv) < 0) {
		char *slash;

		if (errno != ENOENT)
			return -errno;
		slash = strrchr(where, '/');
		if (!slash)
			return -ENOENT;
		if (slash == where)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
	*ret = (unsigned long long)sv.f_bavail * sv.f_frsize;
	return 0;
}

/* The size of raw device (or file) path. */
static int raw_size(const char *path, unsigned long long *ret)
{
	_cleanup_close_ int fd = -1;
	struct stat st;
	unsigned long long size;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISREG(st.st_mode))
		size = st.st_size;
	else if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	else if (ioctl(fd, BLKGETSIZE64, &size) < 0)
		return -errno;
	*ret = size;
	return 0;
}

int dumpsize_room(const struct kdump_conf *c, const char *dumps_dir,
		  const struct dump_estimate *est, struct dumpsize_room *ret)
{
	struct dumpsize_room room = { 0 };
	unsigned long long avail = 0, keep_free;
	int r;

	if (c->net != CONF_NET_NONE)
		return -EREMOTE;
	/* The margin in two parts: no overflow for any size. */
	room.need_bytes = est->bytes +
			  est->bytes / 100 * DUMPSIZE_MARGIN_PERCENT +
			  est->bytes % 100 * DUMPSIZE_MARGIN_PERCENT / 100 +
			  DUMPSIZE_EXTRA_BYTES;
	if (c->raw[0]) {
		room.raw = true;
		snprintf(room.target, sizeof(room.target), "%s", c->raw);
		snprintf(room.where, sizeof(room.where), "%s", c->raw);
		r = raw_size(c->raw, &room.free_bytes);
		if (r < 0)
			return r;
	} else {
		snprintf(room.target, sizeof(room.target), "%s",
			 c->target[0] ? c->target : c->path);
		r = free_bytes_at(dumps_dir, room.where, sizeof(room.where),
				  &avail);
		if (r < 0)
			return r;
		/* The capture begins no vmcore that leaves less (save.c). */
		keep_free = c->min_free_mb << 20;
		room.free_bytes = avail > keep_free ? avail - keep_free : 0;
	}
	*ret = room;
	return room.free_bytes < room.need_bytes;
}

void dumpsize_text(const struct kdump_conf *c, const struct dumpsize *d,
		   char *buf, size_t size)
{
	char bytes[FORMAT_BYTES_MAX];

	snprintf(buf, size,
		 "about %s, written in about %.1f s (dump level %u, %s; from makedumpfile --mem-usage: %llu of %llu pages kept%s)",
		 format_bytes(d->est.bytes, bytes, sizeof(bytes)),
		 d->est.seconds, c->dump_level,
		 conf_compression_to_string(c->compression),
		 d->est.kept_pages, d->est.total_pages,
		 d->est.measured ?
		 "; size and speed as this machine's last dump at that level" :
		 "");
}

void dumpsize_room_text(const struct kdump_conf *c, const char *config,
			const struct dumpsize_room *room,
			const struct dump_estimate *est, char *buf,
			size_t size)
{
	char fr[FORMAT_BYTES_MAX], need[FORMAT_BYTES_MAX], dump[FORMAT_BYTES_MAX];
	char what[128] = "";
	bool level = c->dump_level != 31, zlib = c->compression != COMPRESS_ZLIB;

	format_bytes(room->free_bytes, fr, sizeof(fr));
	format_bytes(room->need_bytes, need, sizeof(need));
	format_bytes(est->bytes, dump, sizeof(dump));
	/* What makes a dump smaller, of what is not set already. */
	if (level || zlib)
		snprintf(what, sizeof(what), ", or set %s%s%s in %s",
			 level ? "dump_level = 31" : "",
			 level && zlib ? " or " : "",
			 zlib ? "compression = zlib" : "", config);
	snprintf(buf, size,
		 "%s %s %s %s%s, less than the %s a dump is expected to need (about %s, a fifth more and the kernel log): a crash now would not be saved whole; %s%s",
		 room->raw ? "raw dump device" : "dump target", room->target,
		 room->raw ? "holds" : "has", fr,
		 room->raw ? "" : c->min_free_mb ? " free beyond min_free_mb" :
		 " free", need, dump,
		 room->raw ? "use a larger device" : "free space on ",
		 room->raw ? what : "");
	if (!room->raw) {
		size_t n = strlen(buf);

		snprintf(buf + n, size - n, "%s%s", room->target, what);
	}
}

void dumpsize_free_text(const struct dumpsize *d, char *buf, size_t size)
{
	char with[FORMAT_BYTES_MAX], without[FORMAT_BYTES_MAX];
	char why[320];

	if (d->run.error)
		snprintf(why, sizeof(why), "--mem-usage failed: %s",
			 d->run.why[0] ? d->run.why : strerror(-d->run.error));
	else
		snprintf(why, sizeof(why), "--mem-usage counts no free pages");
	snprintf(buf, size,
		 "makedumpfile%s%s cannot tell free pages in kernel %s (%s), so the dump holds free memory too: about %s instead of %s, and slower; install a makedumpfile that supports %s",
		 d->run.version[0] ? " " : "", d->run.version,
		 d->run.key.release, why,
		 format_bytes(d->est_with_free.bytes, with, sizeof(with)),
		 format_bytes(d->est_without_free.bytes, without,
			      sizeof(without)),
		 d->run.key.release);
}

/* The newest dump of a local target, whose metadata may measure this machine. */
static bool last_dump(const struct kdump_conf *c, const char *base, char *dir,
		      size_t size)
{
	return c->net == CONF_NET_NONE && !c->raw[0] && base &&
	       dump_find_last(base, dir, size) == 0;
}

void dumpsize_expect(const struct kdump_conf *c, const char *config,
		     const char *base, bool fresh,
		     struct dumpsize_expected *ret)
{
	char dir[PATH_MAX];
	const struct dump_estimate *est = NULL;
	struct dumpsize_expected *x = ret;
	struct dumpsize_room room;

	memset(x, 0, sizeof(*x));
	x->r = dumpsize_get(c, fresh,
			    last_dump(c, base, dir, sizeof(dir)) ? dir : NULL,
			    &x->d);
	if (x->r == -ENOENT)
		snprintf(x->text, sizeof(x->text),
			 "unknown: makedumpfile is not installed");
	else if (x->r == -ENODATA)
		snprintf(x->text, sizeof(x->text),
			 "the kernel log alone (dump_level = dmesg)");
	else if (x->r < 0)
		snprintf(x->text, sizeof(x->text), "unknown: %s",
			 strerror(-x->r));
	else if (!x->d.known)
		snprintf(x->text, sizeof(x->text),
			 "unknown: makedumpfile --mem-usage failed: %s",
			 x->d.run.why[0] ? x->d.run.why :
			 strerror(-x->d.run.error));
	else
		dumpsize_text(c, &x->d, x->text, sizeof(x->text));
	if (x->r < 0)
		return;
	if (x->d.free_unexcluded) {
		dumpsize_free_text(&x->d, x->free_pages, sizeof(x->free_pages));
		est = &x->d.est_with_free;
	} else if (x->d.known) {
		est = &x->d.est;
		if (x->d.run.m.kernel_unsupported)
			snprintf(x->note, sizeof(x->note),
				 "%s%s says it does not support kernel %s, yet tells its pages apart: the dump level excludes them",
				 x->d.run.version[0] ? "version " : "it",
				 x->d.run.version, x->d.run.key.release);
	}
	if (!est || c->net != CONF_NET_NONE)
		return;
	if (!c->raw[0] && !base)
		return;
	if (dumpsize_room(c, c->raw[0] ? "" : base, est, &room) == 1)
		dumpsize_room_text(c, config, &room, est, x->room,
				   sizeof(x->room));
}
