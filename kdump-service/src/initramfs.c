// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "initramfs.h"
#include "process.h"
#include "safedir.h"
#include "util.h"

static int add(char *buf, size_t size, size_t *pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int add(char *buf, size_t size, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + *pos, size - *pos, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= size - *pos)
		return -ENOBUFS;
	*pos += n;
	return 0;
}

/* Identity of a file: size and modification time. */
static int add_file(char *buf, size_t size, size_t *pos, const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return add(buf, size, pos, "%s missing\n", path);
	return add(buf, size, pos, "%s %lld %lld.%09ld\n", path,
		   (long long)st.st_size, (long long)st.st_mtim.tv_sec,
		   st.st_mtim.tv_nsec);
}

int input_identity(const char *path, char *buf, size_t size)
{
	unsigned char data[65536];
	uLong crc = crc32(0L, Z_NULL, 0);
	struct stat st;
	ssize_t n;
	int fd, r = 0, len;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		len = snprintf(buf, size, "%s missing\n", path);
		return len < 0 ? -EINVAL : (size_t)len >= size ? -ENOBUFS : 0;
	}
	while ((n = read(fd, data, sizeof(data))) > 0)
		crc = crc32(crc, data, n);
	if (n < 0)
		r = -errno;
	close(fd);
	if (r < 0)
		return r;
	len = snprintf(buf, size, "%s %lld %lld.%09ld crc32 %08lx\n", path,
		       (long long)st.st_size, (long long)st.st_mtim.tv_sec,
		       st.st_mtim.tv_nsec, (unsigned long)crc);
	if (len < 0)
		return -EINVAL;
	return (size_t)len >= size ? -ENOBUFS : 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int initramfs_fingerprint(const char *kernel, const char *capture_conf,
			  const char *chain, const char *modplan_id,
			  const char *files, char *buf, size_t size)
{
	char *names[64];
	unsigned int n = 0;
	struct dirent *de;
	size_t pos = 0;
	DIR *d;
	int r;

	if (size == 0)
		return -ENOBUFS;
	buf[0] = '\0';
	r = add_file(buf, size, &pos, kernel);
	if (r == 0)
		r = add_file(buf, size, &pos, KDUMP_FILE_CAPTURE_PROGRAM);
	if (r == 0)
		r = add_file(buf, size, &pos, KDUMP_FILE_MAKEDUMPFILE);
	if (r < 0)
		return r;
	d = opendir(KDUMP_FILE_DRACUT_MODULE);
	if (!d)
		return -errno;
	while ((de = readdir(d)) && n < 64) {
		if (de->d_name[0] == '.')
			continue;
		names[n] = strdup(de->d_name);
		if (!names[n]) {
			r = -ENOMEM;
			break;
		}
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_str);
	for (unsigned int i = 0; i < n; i++) {
		char p[PATH_MAX];

		snprintf(p, sizeof(p), "%s/%s", KDUMP_FILE_DRACUT_MODULE,
			 names[i]);
		if (r == 0)
			r = add_file(buf, size, &pos, p);
		free(names[i]);
	}
	if (r == 0)
		r = add(buf, size, &pos, "capture.conf:\n%schain:\n%s%s",
			capture_conf, chain, modplan_id ? modplan_id : "");
	if (r == 0 && files && files[0])
		r = add(buf, size, &pos, "files:\n");
	for (const char *s = files; r == 0 && s && *s;) {
		char p[PATH_MAX];
		size_t len;

		s += strspn(s, " ");
		len = strcspn(s, " ");
		if (len == 0)
			break;
		if (len >= sizeof(p))
			return -ENAMETOOLONG;
		memcpy(p, s, len);
		p[len] = '\0';
		s += len;
		r = input_identity(p, buf + pos, size - pos);
		if (r == 0)
			pos += strlen(buf + pos);
	}
	return r;
}

/*
 * What the stamp holds: the fingerprint, and the image's own size, so that
 * an image truncated or replaced since it was built is not taken as current.
 */
static char *stamp_text(const char *fingerprint, long long img_size)
{
	char *t;

	if (asprintf(&t, "%simage-size %lld\n", fingerprint, img_size) < 0)
		return NULL;
	return t;
}

bool initramfs_is_current(const char *img, const char *fingerprint_in)
{
	char stamp[PATH_MAX], *old, *fingerprint;
	struct stat st;
	size_t len;
	bool same = false;
	FILE *f;

	if (stat(img, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size == 0)
		return false;
	fingerprint = stamp_text(fingerprint_in, st.st_size);
	if (!fingerprint)
		return false;
	len = strlen(fingerprint);
	snprintf(stamp, sizeof(stamp), "%s.stamp", img);
	f = fopen(stamp, "re");
	if (!f) {
		free(fingerprint);
		return false;
	}
	old = malloc(len + 2);
	if (old) {
		size_t n = fread(old, 1, len + 1, f);

		same = n == len && memcmp(old, fingerprint, len) == 0;
		free(old);
	}
	fclose(f);
	free(fingerprint);
	return same;
}

/* dracut's lines, sorted for an initramfs_progress. */
struct dracut_lines {
	const struct initramfs_progress *progress;
	bool hardlinking;	/* in "Hardlinking files": its statistics */
};

static bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/*
 * dracut (dracut-logger.sh, _do_dlog()) prints every level alike, as
 * "dracut: MESSAGE" on stderr: its info can only be told by its text.
 * The stages are dracut.sh's dinfo "*** ... ***" lines; the info below
 * is the rest of what dracut.sh says at that level in a build like ours.
 */
static void dracut_line(const char *line, size_t len, void *userdata)
{
	struct dracut_lines *d = userdata;
	const struct initramfs_progress *p = d->progress;
	char stage[PROCESS_LINE_MAX + 1];

	if (starts_with(line, "dracut: "))
		line += strlen("dracut: ");
	len = strlen(line);
	if (len >= 8 && starts_with(line, "*** ") &&
	    strcmp(line + len - 4, " ***") == 0) {
		memcpy(stage, line + 4, len - 8);
		stage[len - 8] = '\0';
		d->hardlinking = strcmp(stage, "Hardlinking files") == 0;
		if (p->stage)
			p->stage(stage, p->userdata);
		return;
	}
	if (d->hardlinking || starts_with(line, "Executing: ") ||
	    starts_with(line, "No dracut internal kernel commandline"))
		return;
	if (p->output)
		p->output(line, p->userdata);
}

/* dracut's run for rq, into out: 0, or -EIO when it failed. */
static int dracut_run(const struct initramfs_request *rq, const char *out)
{
	struct dracut_lines lines = { .progress = rq->progress };
	_cleanup_free_ char *chain_env = NULL, *files_env = NULL;
	_cleanup_free_ char *net_env = NULL, *key_env = NULL;
	struct process_opts o = PROCESS_OPTS_INIT;
	char *env[6] = { NULL, NULL, NULL, NULL, NULL, NULL };
	struct process_result res;
	/*
	 * Only what the capture needs: our module (its /init is the capture
	 * program) and the module plan's drivers (--add-drivers: the
	 * target's, the helpers', extra_modules and those bound to this
	 * host's disks and NICs, as resolved at load time); not dracut's
	 * kernel-modules, which adds every host driver whether the capture
	 * can load it or not (dracut.sh installs --add-drivers with their
	 * dependencies in its final stage all the same).  No dracut shell
	 * init, udev or systemd, which cost the capture kernel more memory
	 * than it has (see dracut-module/).  gzip whatever dracut.conf says:
	 * initramfs_verify() checks a gzip image to its last byte, other
	 * compressors by magic only.  Level 6, not dracut's "-9 --rsyncable":
	 * a third of the time and a slightly smaller image (rsync has
	 * nothing to gain here).
	 */
	char *argv[32] = {
		"dracut", "--force", "--hostonly",
		"--hostonly-mode", "strict", "--no-hostonly-cmdline",
		"--no-early-microcode", "--compress", "gzip -n -6",
		"--modules", "kdump-file",
		"--include", (char *)rq->capture_conf_file,
		KDUMP_FILE_CAPTURE_CONF_IN_INITRAMFS,
		"--include", (char *)rq->chain_file,
		KDUMP_FILE_CHAIN_IN_INITRAMFS,
		"--include", (char *)rq->modplan_file,
		KDUMP_FILE_MODPLAN_IN_INITRAMFS,
	};
	unsigned int n = 0;
	int r;

	while (argv[n])
		n++;
	/* Its stages are info: said only for a progress to show. */
	if (!rq->progress)
		argv[n++] = "--quiet";
	if (rq->drivers && rq->drivers[0]) {
		argv[n++] = "--add-drivers";
		argv[n++] = (char *)rq->drivers;
	}
	argv[n++] = "--kver";
	argv[n++] = (char *)rq->kver;
	argv[n++] = (char *)out;
	argv[n] = NULL;
	/*
	 * The dracut module reads the chain (lvm goes in when needed), the
	 * user's hooks and extra binaries, and for a network target its kind
	 * and the ssh key, and whether the capture may run a shell, from its
	 * environment: set in dracut's alone, an empty value for none over
	 * whatever ours holds.
	 */
	if (asprintf(&chain_env, "KDUMP_FILE_CHAIN=%s", rq->chain_file) < 0 ||
	    asprintf(&files_env, "KDUMP_FILE_INSTALL=%s",
		     rq->files ? rq->files : "") < 0 ||
	    asprintf(&net_env, "KDUMP_FILE_NET=%s",
		     rq->net ? rq->net : "") < 0 ||
	    asprintf(&key_env, "KDUMP_FILE_SSH_KEY=%s",
		     rq->ssh_key ? rq->ssh_key : "") < 0)
		return -ENOMEM;
	env[0] = chain_env;
	env[1] = files_env;
	env[2] = net_env;
	env[3] = key_env;
	env[4] = rq->shell ? (char *)"KDUMP_FILE_SHELL=1" :
			     (char *)"KDUMP_FILE_SHELL=";
	o.env_add = env;
	if (rq->progress) {
		o.on_line = dracut_line;
		o.userdata = &lines;
	} else {
		/* Its chatter to our stderr, not our stdout. */
		o.stdout_fd = STDERR_FILENO;
	}
	r = process_run(argv, &o, &res);
	if (r == 0 && !process_succeeded(&res))
		r = -EIO;
	return r;
}

/*
 * The image dracut made as tmp in img's place, then its stamp: the image
 * first, so that a stamp never names a lost image.
 */
static int image_install(const char *tmp, const char *img, const char *stamp,
			 const char *fingerprint)
{
	struct stat st;
	char *text;
	int r;

	(void)unlink(stamp);
	/* Root's alone, whatever dracut's or the caller's umask. */
	r = sync_file(tmp);
	if (r == 0 && (chmod(tmp, 0600) < 0 || stat(tmp, &st) < 0 ||
		       rename(tmp, img) < 0))
		r = -errno;
	if (r < 0) {
		(void)unlink(tmp);
		return r;
	}
	r = fsync_parent(img);
	if (r < 0)
		return r;
	text = stamp_text(fingerprint, st.st_size);
	if (!text)
		return -ENOMEM;
	r = write_file_atomic(stamp, text, strlen(text), 0600);
	free(text);
	return r;
}

int initramfs_build(const char *img, const struct initramfs_request *rq)
{
	char tmp[PATH_MAX], stamp[PATH_MAX];
	int r;

	if (path_format(tmp, sizeof(tmp), "%s.new", img) < 0 ||
	    path_format(stamp, sizeof(stamp), "%s.stamp", img) < 0)
		return -ENAMETOOLONG;
	r = dracut_run(rq, tmp);
	if (r < 0) {
		(void)unlink(tmp);
		return r;
	}
	return image_install(tmp, img, stamp, rq->fingerprint);
}

/*
 * The verifier follows init/initramfs.c (Linux 6.1): cpio "newc" (070701)
 * or "crc" (070702) headers of 110 bytes, the name padded so that header
 * and name end on a multiple of 4, the data padded to a multiple of 4;
 * zero bytes between archives, and a new archive starting on a multiple
 * of 4 (counted from the start of the file, or of the decompressed data).
 * It is stricter than the kernel, which stops without a word and boots
 * with half an initramfs: every archive must end with its trailer.
 */
#define CPIO_HDR_LEN 110
#define CPIO_NAME_MAX 4096	/* PATH_MAX: the kernel skips longer names */
#define VERIFY_CHUNK (64 * 1024)

enum cpio_state {
	CPIO_BETWEEN,		/* before an archive: zero padding or a header */
	CPIO_HEADER,		/* collecting a header */
	CPIO_NAME,		/* collecting a name */
	CPIO_SKIP,		/* skipping name padding, data and data padding */
};

struct cpio_stream {
	enum cpio_state state;
	uint64_t off;		/* bytes consumed, for the alignment */
	uint64_t skip;		/* in CPIO_SKIP: bytes left */
	uint32_t namesize;
	uint32_t have;		/* bytes of the header or name collected */
	unsigned char hdr[CPIO_HDR_LEN];
	char name[12];		/* enough to recognise the trailer */
	char name_last;		/* the name's last byte: its NUL */
	bool trailer;		/* the entry being skipped is the trailer */
	bool archives;		/* at least one archive ended with its trailer */
	const char *what;	/* on -EBADMSG: what was wrong */
};

static int hex8(const unsigned char *p, uint32_t *ret)
{
	uint32_t v = 0;

	for (int i = 0; i < 8; i++) {
		unsigned char c = p[i];

		if (c >= '0' && c <= '9')
			v = v << 4 | (c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v << 4 | (c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v = v << 4 | (c - 'A' + 10);
		else
			return -EBADMSG;
	}
	*ret = v;
	return 0;
}

static int cpio_bad(struct cpio_stream *s, const char *what)
{
	s->what = what;
	return -EBADMSG;
}

/* The header is complete: check it and size what follows. */
static int cpio_header_done(struct cpio_stream *s)
{
	uint32_t v, filesize;

	if (memcmp(s->hdr, "070701", 6) != 0 && memcmp(s->hdr, "070702", 6) != 0)
		return cpio_bad(s, "bad cpio header magic");
	/* Thirteen 8-digit hex fields: all must be hex. */
	for (int i = 0; i < 13; i++)
		if (hex8(s->hdr + 6 + 8 * i, &v) < 0)
			return cpio_bad(s, "bad cpio header field");
	(void)hex8(s->hdr + 6 + 8 * 6, &filesize);
	(void)hex8(s->hdr + 6 + 8 * 11, &s->namesize);
	if (s->namesize == 0 || s->namesize > CPIO_NAME_MAX)
		return cpio_bad(s, "bad cpio name size");
	/* What follows the name: its padding, the data and the data's. */
	s->skip = ((CPIO_HDR_LEN + (uint64_t)s->namesize + 3) & ~3ULL) -
		  CPIO_HDR_LEN - s->namesize;
	s->skip += filesize + ((4 - (filesize & 3)) & 3);
	s->state = CPIO_NAME;
	s->have = 0;
	return 0;
}

static void cpio_entry_done(struct cpio_stream *s)
{
	s->have = 0;
	if (s->trailer) {
		s->state = CPIO_BETWEEN;
		s->archives = true;
	} else {
		s->state = CPIO_HEADER;
	}
}

static void cpio_skip(struct cpio_stream *s, uint64_t n)
{
	s->skip -= n;
	s->off += n;
	if (s->skip == 0)
		cpio_entry_done(s);
}

/*
 * Consume buf.  Returns 0 when all of it was cpio (or padding), 1 when
 * stopped between archives at a byte that starts no cpio header (*ret_used
 * is its index), -EBADMSG when the cpio data is corrupt.
 */
static int cpio_feed(struct cpio_stream *s, const unsigned char *buf,
		     size_t len, size_t *ret_used)
{
	size_t i = 0;
	int r;

	while (i < len) {
		size_t n;

		switch (s->state) {
		case CPIO_BETWEEN:
			if (buf[i] == 0) {
				i++;
				s->off++;
				break;
			}
			if (buf[i] != '0' || (s->off & 3)) {
				*ret_used = i;
				return 1;
			}
			s->state = CPIO_HEADER;
			s->have = 0;
			break;
		case CPIO_HEADER:
			n = CPIO_HDR_LEN - s->have;
			if (n > len - i)
				n = len - i;
			memcpy(s->hdr + s->have, buf + i, n);
			s->have += n;
			s->off += n;
			i += n;
			if (s->have == CPIO_HDR_LEN) {
				r = cpio_header_done(s);
				if (r < 0) {
					*ret_used = i;
					return r;
				}
			}
			break;
		case CPIO_NAME:
			n = s->namesize - s->have;
			if (n > len - i)
				n = len - i;
			if (s->have < sizeof(s->name)) {
				size_t k = sizeof(s->name) - s->have;

				memcpy(s->name + s->have, buf + i, k < n ? k : n);
			}
			s->have += n;
			s->off += n;
			i += n;
			s->name_last = buf[i - 1];
			if (s->have < s->namesize)
				break;
			if (s->name_last != '\0') {
				*ret_used = i;
				return cpio_bad(s, "cpio name not terminated");
			}
			s->trailer = s->namesize == sizeof("TRAILER!!!") &&
				     memcmp(s->name, "TRAILER!!!", s->namesize) == 0;
			s->state = CPIO_SKIP;
			if (s->skip == 0)
				cpio_entry_done(s);
			break;
		case CPIO_SKIP:
			n = len - i;
			if (n > s->skip)
				n = s->skip;
			i += n;
			cpio_skip(s, n);
			break;
		}
	}
	*ret_used = len;
	return 0;
}

/* pread() all of len bytes, or -EIO for a file that shrank under us. */
static int pread_all(int fd, void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done,
				  (off_t)(off + done));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		done += n;
	}
	return 0;
}

/*
 * Inflate the gzip member at start to its end; what it holds must be
 * complete cpio archives.  *ret_len: its compressed length.  On -EBADMSG,
 * *ret_bad is the file offset reached.
 */
static int verify_gzip(int fd, uint64_t start, uint64_t size,
		       unsigned char *in, unsigned char *out, uint64_t *ret_len,
		       uint64_t *ret_bad, const char **ret_what)
{
	struct cpio_stream inner = { 0 };
	uint64_t pos = start;
	z_stream z = { 0 };
	int zr = Z_OK, r = 0;

	/* 16 + MAX_WBITS: a gzip wrapper, whose CRC-32 and size are checked. */
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return -ENOMEM;
	while (zr != Z_STREAM_END) {
		size_t used;

		if (z.avail_in == 0) {
			size_t n = size - pos < VERIFY_CHUNK ? size - pos :
							       VERIFY_CHUNK;

			if (n == 0) {
				*ret_what = "gzip data cut short";
				r = -EBADMSG;
				break;
			}
			r = pread_all(fd, in, n, pos);
			if (r < 0)
				break;
			pos += n;
			z.next_in = in;
			z.avail_in = n;
		}
		z.next_out = out;
		z.avail_out = VERIFY_CHUNK;
		zr = inflate(&z, Z_NO_FLUSH);
		if (zr == Z_MEM_ERROR) {
			r = -ENOMEM;
			break;
		}
		/* Z_BUF_ERROR only asks for more input; with input left it is not. */
		if ((zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) ||
		    (zr == Z_BUF_ERROR && z.avail_in)) {
			*ret_what = "corrupt gzip data";
			r = -EBADMSG;
			break;
		}
		r = cpio_feed(&inner, out, VERIFY_CHUNK - z.avail_out, &used);
		if (r != 0) {
			*ret_what = r > 0 ? "data that is not cpio inside gzip" :
					    inner.what;
			r = -EBADMSG;
			break;
		}
	}
	if (r == 0 && (inner.state != CPIO_BETWEEN || !inner.archives)) {
		*ret_what = "gzip data ends inside a cpio archive";
		r = -EBADMSG;
	}
	*ret_len = pos - z.avail_in - start;
	*ret_bad = pos - z.avail_in;
	inflateEnd(&z);
	return r;
}

static bool is_gzip(const unsigned char *m, size_t n)
{
	return n >= 2 && m[0] == 0x1f && m[1] == 0x8b;
}

/* Compressors whose members are taken by their magic (lib/decompress.c). */
static bool is_other_compressed(const unsigned char *m, size_t n)
{
	static const struct {
		const char *magic;
		size_t len;
	} known[] = {
		{ "\xfd" "7zXZ", 5 },		/* xz */
		{ "\x28\xb5\x2f\xfd", 4 },	/* zstd */
		{ "\x02\x21\x4c\x18", 4 },	/* lz4 (legacy frame) */
		{ "BZh", 3 },			/* bzip2 */
		{ "\x5d\x00\x00", 3 },		/* lzma */
		{ "\x89LZO", 4 },		/* lzop */
	};

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (n >= known[i].len &&
		    memcmp(m, known[i].magic, known[i].len) == 0)
			return true;
	return false;
}

int initramfs_verify(int fd, struct initramfs_problem *ret_problem)
{
	struct cpio_stream s = { 0 };
	unsigned char *buf = NULL, *out = NULL, m[6];
	const char *what = NULL;
	uint64_t size, pos = 0, bad = 0;
	struct stat st;
	size_t mlen;
	int r = 0;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_size <= 0)
		return -EINVAL;
	size = st.st_size;
	mlen = size < sizeof(m) ? size : sizeof(m);
	r = pread_all(fd, m, mlen, 0);
	if (r < 0)
		return r;
	if (m[0] != 0 && m[0] != '0' && !is_gzip(m, mlen) &&
	    !is_other_compressed(m, mlen))
		return -EINVAL;

	buf = malloc(VERIFY_CHUNK);
	out = malloc(VERIFY_CHUNK);
	if (!buf || !out) {
		r = -ENOMEM;
		goto out;
	}
	while (pos < size) {
		uint64_t len;
		size_t used;

		/* Data of a large file: no need to read it. */
		if (s.state == CPIO_SKIP) {
			len = size - pos < s.skip ? size - pos : s.skip;
			cpio_skip(&s, len);
			pos += len;
			continue;
		}
		len = size - pos < VERIFY_CHUNK ? size - pos : VERIFY_CHUNK;
		r = pread_all(fd, buf, len, pos);
		if (r < 0)
			goto out;
		r = cpio_feed(&s, buf, len, &used);
		if (r < 0) {
			bad = pos + used;
			what = s.what;
			goto out;
		}
		pos += used;
		if (r == 0)
			continue;

		/* Between archives, a byte that starts no cpio header. */
		mlen = size - pos < sizeof(m) ? size - pos : sizeof(m);
		r = pread_all(fd, m, mlen, pos);
		if (r < 0)
			goto out;
		if (is_gzip(m, mlen)) {
			uint64_t glen;

			r = verify_gzip(fd, pos, size, buf, out, &glen, &bad,
					&what);
			if (r < 0)
				goto out;
			pos += glen;
			/* init/initramfs.c: alignment counts from the file start. */
			s.off = pos;
			s.archives = true;
			continue;
		}
		if (is_other_compressed(m, mlen)) {
			r = 0; /* accepted by its magic: the rest is its own */
			goto out;
		}
		bad = pos;
		what = (s.off & 3) && m[0] == '0' ?
			       "cpio archive not on a 4-byte boundary" :
			       "data that is neither cpio nor compressed";
		r = -EBADMSG;
		goto out;
	}
	if (s.state != CPIO_BETWEEN) {
		bad = size;
		what = "the file ends inside a cpio archive";
		r = -EBADMSG;
	} else if (!s.archives) {
		bad = size;
		what = "only zero bytes";
		r = -EBADMSG;
	}
out:
	free(out);
	free(buf);
	if (r == -EBADMSG && ret_problem) {
		ret_problem->offset = bad;
		ret_problem->what = what ? what : "corrupt data";
	}
	return r;
}

#define MEMO_SETTLE_SECONDS 1

/* The identity initramfs_verify_memo() compares, one line. */
static int verify_identity(const struct stat *st, char *buf, size_t size)
{
	int n;

	n = snprintf(buf, size, "verified %llu %llu %lld %lld.%09ld %lld.%09ld\n",
		     (unsigned long long)st->st_dev,
		     (unsigned long long)st->st_ino, (long long)st->st_size,
		     (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec,
		     (long long)st->st_ctim.tv_sec, st->st_ctim.tv_nsec);
	return n < 0 ? -EINVAL : (size_t)n >= size ? -ENOBUFS : 0;
}

static bool memo_matches(const char *memo, const char *id)
{
	char old[256];
	struct stat st;
	ssize_t n;
	int fd;

	fd = open(memo, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || (st.st_mode & 0022)) {
		close(fd);
		return false;
	}
	n = read(fd, old, sizeof(old) - 1);
	close(fd);
	if (n <= 0)
		return false;
	old[n] = '\0';
	return strcmp(old, id) == 0;
}

static void memo_write(const char *memo, const char *id)
{
	char tmp[PATH_MAX];
	size_t len = strlen(id);
	int fd;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", memo) >= (int)sizeof(tmp))
		return;
	(void)unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		  0600);
	if (fd < 0)
		return;
	if (write(fd, id, len) != (ssize_t)len || close(fd) < 0 ||
	    rename(tmp, memo) < 0)
		(void)unlink(tmp);
}

int initramfs_verify_memo(int fd, const char *memo,
			  struct initramfs_problem *ret_problem)
{
	char id[256];
	struct stat st;
	int r;

	if (!memo)
		return initramfs_verify(fd, ret_problem);
	if (fstat(fd, &st) < 0)
		return -errno;
	r = verify_identity(&st, id, sizeof(id));
	if (r < 0)
		return r;
	if (S_ISREG(st.st_mode) && memo_matches(memo, id))
		return 0;
	r = initramfs_verify(fd, ret_problem);
	/*
	 * Change times are taken from a coarse clock: a write within a tick
	 * of the verification could leave them as they were, so a file
	 * changed in the last second is verified again next time.
	 */
	if (r == 0 && time(NULL) - st.st_ctim.tv_sec > MEMO_SETTLE_SECONDS)
		memo_write(memo, id);
	return r;
}

/*
 * Each path opened as safe_open() opens it (a link's owner and target
 * checked, every directory on the way to what it leads to checked), the
 * violation given the names of the input checks.
 */
int paths_check_root_only(const char *const *paths, size_t n,
			  struct input_violation *ret)
{
	for (size_t i = 0; i < n; i++) {
		struct safe_violation bad;
		int fd, r;

		r = safe_open(paths[i], SAFE_PATH_ONLY, &bad, &fd);
		if (r == 0) {
			close(fd);
			continue;
		}
		if (r == -ENOENT)
			continue;
		snprintf(ret->path, sizeof(ret->path), "%s",
			 r == -EPERM ? bad.path : paths[i]);
		if (r != -EPERM)
			return r;
		ret->uid = bad.uid;
		ret->fault = bad.fault == SAFE_FAULT_WORLD_WRITABLE ?
				     INPUT_WORLD_WRITABLE :
			     bad.fault == SAFE_FAULT_GROUP_WRITABLE ?
				     INPUT_GROUP_WRITABLE :
				     INPUT_FOREIGN_OWNER;
		return r;
	}
	return 0;
}

int initramfs_check_inputs(const char *kernel, struct input_violation *ret)
{
	const char *fixed[] = { kernel, KDUMP_FILE_CAPTURE_PROGRAM,
				KDUMP_FILE_MAKEDUMPFILE,
				KDUMP_FILE_DRACUT_MODULE };
	struct dirent *de;
	DIR *d;
	int r;

	r = paths_check_root_only(fixed, sizeof(fixed) / sizeof(fixed[0]), ret);
	if (r < 0)
		return r;
	d = opendir(KDUMP_FILE_DRACUT_MODULE);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		char p[PATH_MAX];
		const char *one[] = { p };

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof(p), "%s/%s", KDUMP_FILE_DRACUT_MODULE,
			 de->d_name);
		r = paths_check_root_only(one, 1, ret);
		if (r < 0)
			break;
	}
	closedir(d);
	return r;
}

int input_check_program(const char *path, struct input_violation *ret)
{
	const char *one[] = { path };
	struct stat st;

	snprintf(ret->path, sizeof(ret->path), "%s", path);
	if (stat(path, &st) < 0)
		return -errno;
	ret->uid = st.st_uid;
	if (!S_ISREG(st.st_mode)) {
		ret->fault = INPUT_NOT_REGULAR;
		return -EPERM;
	}
	if (!(st.st_mode & S_IXUSR)) {
		ret->fault = INPUT_NOT_EXECUTABLE;
		return -EPERM;
	}
	return paths_check_root_only(one, 1, ret);
}
