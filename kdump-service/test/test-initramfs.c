// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "initramfs.h"
#include "tests.h"
#include "util.h"

/* A growing byte buffer for building images. */
struct img {
	unsigned char *p;
	size_t len, cap;
};

static void put(struct img *m, const void *data, size_t len)
{
	if (m->len + len > m->cap) {
		m->cap = (m->len + len) * 2 + 64;
		m->p = realloc(m->p, m->cap);
		if (!m->p)
			abort();
	}
	if (len)
		memcpy(m->p + m->len, data, len);
	m->len += len;
}

static void zeros(struct img *m, size_t n)
{
	static const unsigned char z[512];

	while (n) {
		size_t k = n < sizeof(z) ? n : sizeof(z);

		put(m, z, k);
		n -= k;
	}
}

static void align4(struct img *m, size_t base)
{
	zeros(m, (4 - ((m->len - base) & 3)) & 3);
}

/* One newc entry: header fields as cpio -H newc writes them. */
static void cpio_entry_raw(struct img *m, const char *magic, const char *name,
			   uint32_t namesize, const void *data, uint32_t size,
			   size_t data_len)
{
	char h[111];
	size_t base = m->len;

	snprintf(h, sizeof(h),
		 "%s%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		 magic, 1u, 0100644u, 0u, 0u, 1u, 0u, size, 0u, 0u, 0u, 0u,
		 namesize, 0u);
	put(m, h, 110);
	put(m, name, strlen(name) + 1);
	align4(m, base);
	put(m, data, data_len);
	align4(m, base);
}

static void cpio_entry(struct img *m, const char *name, const char *data)
{
	cpio_entry_raw(m, "070701", name, strlen(name) + 1, data, strlen(data),
		       strlen(data));
}

static void cpio_trailer(struct img *m)
{
	cpio_entry(m, "TRAILER!!!", "");
}

/* A small archive like an initramfs: a few files, then the trailer. */
static void cpio_archive(struct img *m)
{
	cpio_entry(m, "init", "#!/bin/sh\necho capture\n");
	cpio_entry(m, "etc", "");
	cpio_entry(m, "etc/kdump-file/capture.conf", "path = /var/crash\n");
	cpio_entry(m, "x", "abc");
	cpio_trailer(m);
}

static void gzip_of(struct img *m, const unsigned char *data, size_t len)
{
	unsigned char out[65536];
	z_stream z = { 0 };

	if (deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	z.next_in = (unsigned char *)data;
	z.avail_in = len;
	z.next_out = out;
	z.avail_out = sizeof(out);
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		abort();
	put(m, out, sizeof(out) - z.avail_out);
	deflateEnd(&z);
}

static void gzip_archive(struct img *m)
{
	struct img c = { 0 };

	cpio_archive(&c);
	gzip_of(m, c.p, c.len);
	free(c.p);
}

static int tmpfile_with(const unsigned char *data, size_t len)
{
	char path[] = "/tmp/test-initramfs.XXXXXX";
	int fd = mkstemp(path);

	if (fd < 0)
		return -1;
	unlink(path);
	if (len && write(fd, data, len) != (ssize_t)len) {
		close(fd);
		return -1;
	}
	return fd;
}

static int verify_buf(const unsigned char *data, size_t len,
		      struct initramfs_problem *pb)
{
	int fd = tmpfile_with(data, len), r;

	if (fd < 0)
		return -999;
	r = initramfs_verify(fd, pb);
	close(fd);
	return r;
}

static int verify(const struct img *m)
{
	return verify_buf(m->p, m->len, NULL);
}

static void test_good(void)
{
	struct img a = { 0 }, b = { 0 }, c = { 0 }, d = { 0 }, e = { 0 };
	size_t start;

	cpio_archive(&a);
	CHECK(verify(&a) == 0);

	gzip_archive(&b);
	CHECK(verify(&b) == 0);

	/* Early cpio, padding, then the compressed main archive (dracut's). */
	cpio_archive(&c);
	zeros(&c, 512);
	gzip_archive(&c);
	CHECK(verify(&c) == 0);
	zeros(&c, 3); /* trailing padding, any length */
	CHECK(verify(&c) == 0);

	/* Two gzip members, then an uncompressed archive on a 4-byte boundary. */
	gzip_archive(&d);
	gzip_archive(&d);
	align4(&d, 0);
	cpio_archive(&d);
	CHECK(verify(&d) == 0);

	/* "crc" headers; two archives inside one gzip member. */
	start = e.len;
	cpio_entry_raw(&e, "070702", "a", 2, "xy", 2, 2);
	cpio_trailer(&e);
	cpio_archive(&e);
	CHECK(verify(&e) == 0);
	{
		struct img g = { 0 };

		gzip_of(&g, e.p + start, e.len - start);
		CHECK(verify(&g) == 0);
		free(g.p);
	}

	free(a.p);
	free(b.p);
	free(c.p);
	free(d.p);
	free(e.p);
}

/* Cut short anywhere inside a member: never accepted. */
static void test_truncated(void)
{
	struct img m = { 0 };
	struct initramfs_problem pb;
	size_t cpio_end, gz_start, bad = 0;

	cpio_archive(&m);
	cpio_end = m.len;
	zeros(&m, 16);
	gz_start = m.len;
	gzip_archive(&m);

	for (size_t n = 1; n < m.len; n++) {
		int r;

		/* Cut between the members: what is left is complete. */
		if (n >= cpio_end && n <= gz_start)
			continue;
		r = verify_buf(m.p, n, &pb);
		if (r != -EBADMSG) {
			bad++;
			fprintf(stderr, "  truncated at %zu of %zu: %d\n", n,
				m.len, r);
		}
	}
	CHECK(bad == 0);
	CHECK(verify_buf(m.p, cpio_end, NULL) == 0);
	CHECK(verify_buf(m.p, gz_start, NULL) == 0);

	/* Where: the end of the file, and a reason. */
	CHECK(verify_buf(m.p, 200, &pb) == -EBADMSG);
	CHECK(pb.offset == 200);
	CHECK(pb.what && strstr(pb.what, "ends inside") != NULL);
	CHECK(verify_buf(m.p, m.len - 3, &pb) == -EBADMSG);
	CHECK(pb.what && strstr(pb.what, "gzip") != NULL);
	free(m.p);
}

static void test_corrupt(void)
{
	struct img m = { 0 }, g = { 0 }, t = { 0 };
	struct initramfs_problem pb;
	unsigned char *x;

	cpio_archive(&m);
	x = malloc(m.len);

	/* The magic, a hex field, the name's NUL, the name size. */
	memcpy(x, m.p, m.len);
	x[5] = '7';
	CHECK(verify_buf(x, m.len, &pb) == -EBADMSG);
	CHECK(pb.offset == 110);
	memcpy(x, m.p, m.len);
	x[6 + 8 * 6 + 3] = 'g';
	CHECK(verify_buf(x, m.len, NULL) == -EBADMSG);
	memcpy(x, m.p, m.len);
	x[110 + 4] = 'X'; /* "init\0" */
	CHECK(verify_buf(x, m.len, NULL) == -EBADMSG);
	memcpy(x, m.p, m.len);
	memcpy(x + 6 + 8 * 11, "FFFFFFFF", 8);
	CHECK(verify_buf(x, m.len, NULL) == -EBADMSG);
	memcpy(x, m.p, m.len);
	memcpy(x + 6 + 8 * 11, "00000000", 8);
	CHECK(verify_buf(x, m.len, NULL) == -EBADMSG);
	/* A file size pointing far beyond the end: truncated. */
	memcpy(x, m.p, m.len);
	memcpy(x + 6 + 8 * 6, "FFFFFFFF", 8);
	CHECK(verify_buf(x, m.len, NULL) == -EBADMSG);
	/* Four more bytes of data (0x17 -> 0x1b): the next header is off. */
	memcpy(x, m.p, m.len);
	memcpy(x + 6 + 8 * 6 + 6, "1B", 2);
	CHECK(verify_buf(x, m.len, NULL) == -EBADMSG);
	/* A trailer renamed: the archive never ends. */
	memcpy(x, m.p, m.len);
	x[m.len - 8] = 'X';
	CHECK(verify_buf(x, m.len, NULL) == -EBADMSG);
	free(x);

	/* Every single byte of a gzip member changed: CRC-32 and size. */
	gzip_archive(&g);
	x = malloc(g.len);
	{
		size_t accepted = 0;

		for (size_t i = 0; i < g.len; i++) {
			memcpy(x, g.p, g.len);
			x[i] ^= 0x55;
			/*
			 * Bytes 4-9 (mtime, flags, OS) are not covered by
			 * anything, in gzip itself either.
			 */
			if (i >= 4 && i < 10)
				continue;
			if (verify_buf(x, g.len, NULL) == 0)
				accepted++;
		}
		CHECK(accepted == 0);
	}
	free(x);

	/* Junk after the last archive, in the file and inside gzip. */
	cpio_archive(&t);
	put(&t, "junk", 4);
	CHECK(verify(&t) == -EBADMSG);
	{
		struct img j = { 0 };

		gzip_of(&j, t.p, t.len);
		CHECK(verify(&j) == -EBADMSG);
		free(j.p);
	}
	/* An archive without its trailer, plain and compressed. */
	t.len = 0;
	cpio_entry(&t, "init", "x");
	CHECK(verify(&t) == -EBADMSG);
	{
		struct img j = { 0 };

		gzip_of(&j, t.p, t.len);
		CHECK(verify(&j) == -EBADMSG);
		/* gzip of nothing. */
		j.len = 0;
		gzip_of(&j, (const unsigned char *)"", 0);
		CHECK(verify(&j) == -EBADMSG);
		free(j.p);
	}
	/* A second archive not on a 4-byte boundary. */
	t.len = 0;
	gzip_archive(&t);
	if (t.len & 3) {
		cpio_archive(&t);
		CHECK(verify(&t) == -EBADMSG);
	}
	free(g.p);
	free(m.p);
	free(t.p);
}

static void test_other_formats(void)
{
	static const unsigned char text[] = "#!/bin/sh\necho\n";
	static const unsigned char xz[] = "\xfd" "7zXZ\0garbage";
	static const unsigned char zero[64];
	struct img m = { 0 };

	CHECK(verify_buf(text, sizeof(text), NULL) == -EINVAL);
	CHECK(verify_buf(text, 0, NULL) == -EINVAL);
	CHECK(verify_buf(zero, sizeof(zero), NULL) == -EBADMSG);
	/* xz, zstd, ...: by their magic only, with what follows. */
	CHECK(verify_buf(xz, sizeof(xz), NULL) == 0);
	cpio_archive(&m);
	put(&m, "\x28\xb5\x2f\xfd" "anything", 12);
	CHECK(verify(&m) == 0);
	free(m.p);
}

/* Large data is skipped, not read; sizes are checked against the file. */
static void test_large(void)
{
	struct img m = { 0 };
	unsigned char *big = calloc(1, 1 << 20);

	cpio_entry_raw(&m, "070701", "big", 4, big, 1 << 20, 1 << 20);
	cpio_trailer(&m);
	CHECK(verify(&m) == 0);
	/* The same header claiming 4 GiB - 1. */
	memcpy(m.p + 6 + 8 * 6, "FFFFFFFF", 8);
	CHECK(verify(&m) == -EBADMSG);
	free(big);
	free(m.p);
}

/* A cheap fuzzer: random mutations of a valid image, under ASan. */
static void test_mutations(void)
{
	struct img m = { 0 };
	unsigned char *x;
	unsigned int seed = 1, ok = 0, bad = 0, other = 0;

	cpio_archive(&m);
	zeros(&m, 4);
	gzip_archive(&m);
	x = malloc(m.len + 64);
	for (int round = 0; round < 3000; round++) {
		size_t len = m.len;
		int r;

		memcpy(x, m.p, m.len);
		for (int k = rand_r(&seed) % 4 + 1; k > 0; k--) {
			size_t i = rand_r(&seed) % len;

			switch (rand_r(&seed) % 4) {
			case 0:
				x[i] = rand_r(&seed);
				break;
			case 1:
				x[i] ^= 1 << (rand_r(&seed) % 8);
				break;
			case 2:
				x[i] = "0\0\xff""7F"[rand_r(&seed) % 5];
				break;
			default:
				len = i + 1;
				break;
			}
		}
		r = verify_buf(x, len, NULL);
		if (r == 0)
			ok++;
		else if (r == -EBADMSG || r == -EINVAL)
			bad++;
		else
			other++;
	}
	printf("mutations: %u accepted, %u refused, %u other\n", ok, bad, other);
	CHECK(other == 0);
	CHECK(bad > 2500);
	free(x);
	free(m.p);
}

static void test_gzip_garbage(void)
{
	unsigned char x[4096];
	unsigned int seed = 7;

	for (int round = 0; round < 200; round++) {
		for (size_t i = 0; i < sizeof(x); i++)
			x[i] = rand_r(&seed);
		x[0] = 0x1f;
		x[1] = 0x8b;
		x[2] = 8;
		CHECK(verify_buf(x, sizeof(x), NULL) == -EBADMSG);
	}
}

/* A directory whose path up to / is root's alone, or NULL. */
static char *clean_base(char *buf, size_t size)
{
	struct input_violation v;
	char cwd[PATH_MAX];
	const char *one[] = { buf };

	if (!getcwd(cwd, sizeof(cwd)))
		return NULL;
	if (path_format(buf, size, "%s/build/test-inputs.XXXXXX", cwd) < 0)
		return NULL;
	if (!mkdtemp(buf))
		return NULL;
	if (paths_check_root_only(one, 1, &v) != 0) {
		rmdir(buf);
		return NULL;
	}
	return buf;
}

static void touch(const char *path, mode_t mode)
{
	FILE *f = fopen(path, "w");

	if (f)
		fclose(f);
	(void)chmod(path, mode);
}

static void test_root_only(void)
{
	char base[PATH_MAX], f1[PATH_MAX + 8], f2[PATH_MAX + 8];
	char sub[PATH_MAX + 8], f3[PATH_MAX + 16], link[PATH_MAX + 8];
	char tmpf[] = "/tmp/test-inputs.XXXXXX";
	struct input_violation v;
	const char *paths[4];
	int fd;

	/*
	 * /tmp is world-writable but sticky: nobody else may rename or
	 * remove root's file in it, so root's file there is fine.
	 */
	fd = mkstemp(tmpf);
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	paths[0] = tmpf;
	if (geteuid() == 0)
		CHECK(paths_check_root_only(paths, 1, &v) == 0);
	unlink(tmpf);

	if (geteuid() != 0 || !clean_base(base, sizeof(base))) {
		printf("root-only inputs: skipped (not root, or %s/build is not root's alone)\n",
		       getcwd(base, sizeof(base)) ? base : ".");
		return;
	}
	snprintf(f1, sizeof(f1), "%s/a", base);
	snprintf(f2, sizeof(f2), "%s/b", base);
	snprintf(sub, sizeof(sub), "%s/d", base);
	snprintf(f3, sizeof(f3), "%s/d/c", base);
	snprintf(link, sizeof(link), "%s/l", base);
	touch(f1, 0644);
	touch(f2, 0755);
	CHECK(mkdir(sub, 0755) == 0);
	touch(f3, 0600);
	paths[0] = f1;
	paths[1] = f2;
	paths[2] = f3;
	paths[3] = "/nonexistent/kdump-file-test";
	CHECK(paths_check_root_only(paths, 4, &v) == 0);

	CHECK(chmod(f2, 0775) == 0);
	CHECK(paths_check_root_only(paths, 4, &v) == -EPERM);
	CHECK(strcmp(v.path, f2) == 0 && v.fault == INPUT_GROUP_WRITABLE);
	CHECK(chmod(f2, 0757) == 0);
	CHECK(paths_check_root_only(paths, 4, &v) == -EPERM);
	CHECK(strcmp(v.path, f2) == 0 && v.fault == INPUT_WORLD_WRITABLE);
	CHECK(chmod(f2, 0755) == 0);

	/* A directory on the way. */
	CHECK(chmod(sub, 0775) == 0);
	CHECK(paths_check_root_only(paths, 4, &v) == -EPERM);
	CHECK(strcmp(v.path, sub) == 0 && v.fault == INPUT_GROUP_WRITABLE);
	CHECK(chmod(sub, 0755) == 0);

	/* Another owner. */
	CHECK(chown(f1, 1, 0) == 0);
	CHECK(paths_check_root_only(paths, 4, &v) == -EPERM);
	CHECK(strcmp(v.path, f1) == 0 && v.fault == INPUT_FOREIGN_OWNER &&
	      v.uid == 1);
	CHECK(chown(f1, 0, 0) == 0);
	CHECK(paths_check_root_only(paths, 4, &v) == 0);

	/* Through a symbolic link: the file it resolves to is checked too. */
	CHECK(symlink(f3, link) == 0);
	paths[0] = link;
	CHECK(paths_check_root_only(paths, 1, &v) == 0);
	CHECK(chmod(f3, 0620) == 0);
	CHECK(paths_check_root_only(paths, 1, &v) == -EPERM);
	CHECK(v.fault == INPUT_GROUP_WRITABLE);
	unlink(link);
	/* A world-writable directory without the sticky bit, through a link. */
	CHECK(chmod(sub, 0777) == 0);
	CHECK(symlink(sub, link) == 0);
	CHECK(paths_check_root_only(paths, 1, &v) == -EPERM);
	CHECK(strcmp(v.path, sub) == 0 && v.fault == INPUT_WORLD_WRITABLE);
	CHECK(chmod(sub, 01777) == 0);
	CHECK(paths_check_root_only(paths, 1, &v) == 0);
	/*
	 * A link someone else owns, in that sticky directory, to root's
	 * file: its owner may point it anywhere between check and use.
	 */
	{
		char theirs[PATH_MAX + 16];

		snprintf(theirs, sizeof(theirs), "%s/vmlinuz", sub);
		CHECK(symlink(f1, theirs) == 0 && lchown(theirs, 1, 1) == 0);
		paths[0] = theirs;
		CHECK(paths_check_root_only(paths, 1, &v) == -EPERM);
		CHECK(strcmp(v.path, theirs) == 0 &&
		      v.fault == INPUT_FOREIGN_OWNER && v.uid == 1);
		CHECK(lchown(theirs, 0, 0) == 0);
		CHECK(paths_check_root_only(paths, 1, &v) == 0);
		unlink(theirs);
		paths[0] = link;
	}
	CHECK(chmod(sub, 0755) == 0);

	unlink(link);
	unlink(f3);
	rmdir(sub);
	unlink(f2);
	unlink(f1);
	CHECK(rmdir(base) == 0);
}

static void test_program_and_identity(void)
{
	char base[PATH_MAX], f[PATH_MAX + 8], d[PATH_MAX + 8], id1[PATH_MAX + 128];
	char id2[PATH_MAX + 128];
	struct input_violation v;
	struct timespec ts[2];
	struct stat st;
	FILE *fp;

	CHECK(input_check_program("/nonexistent/kdump-file-hook", &v) == -ENOENT);
	CHECK(strcmp(v.path, "/nonexistent/kdump-file-hook") == 0);
	CHECK(input_identity("/nonexistent/kdump-file-hook", id1, sizeof(id1)) == 0);
	CHECK(strcmp(id1, "/nonexistent/kdump-file-hook missing\n") == 0);

	if (geteuid() != 0 || !clean_base(base, sizeof(base))) {
		printf("programs: skipped (not root, or build/ is not root's alone)\n");
		return;
	}
	snprintf(f, sizeof(f), "%s/hook", base);
	snprintf(d, sizeof(d), "%s/dir", base);
	fp = fopen(f, "w");
	if (fp) {
		fputs("#!/bin/sh\nexit 0\n", fp);
		fclose(fp);
	}
	CHECK(chmod(f, 0755) == 0);
	CHECK(input_check_program(f, &v) == 0);
	CHECK(chmod(f, 0644) == 0);
	CHECK(input_check_program(f, &v) == -EPERM && v.fault == INPUT_NOT_EXECUTABLE);
	CHECK(chmod(f, 0775) == 0);
	CHECK(input_check_program(f, &v) == -EPERM && v.fault == INPUT_GROUP_WRITABLE);
	CHECK(chmod(f, 0755) == 0);
	CHECK(chown(f, 1, 0) == 0);
	CHECK(input_check_program(f, &v) == -EPERM && v.fault == INPUT_FOREIGN_OWNER);
	CHECK(chown(f, 0, 0) == 0);
	CHECK(chmod(base, 0777) == 0);
	CHECK(input_check_program(f, &v) == -EPERM && v.fault == INPUT_WORLD_WRITABLE &&
	      strcmp(v.path, base) == 0);
	CHECK(chmod(base, 0700) == 0);
	CHECK(mkdir(d, 0755) == 0);
	CHECK(input_check_program(d, &v) == -EPERM && v.fault == INPUT_NOT_REGULAR);

	/* The same size and time, another content: another identity. */
	CHECK(input_identity(f, id1, sizeof(id1)) == 0);
	CHECK(strstr(id1, " 17 ") != NULL && strstr(id1, " crc32 ") != NULL);
	CHECK(stat(f, &st) == 0);
	fp = fopen(f, "w");
	if (fp) {
		fputs("#!/bin/sh\nexit 1\n", fp);
		fclose(fp);
	}
	ts[0] = st.st_atim;
	ts[1] = st.st_mtim;
	CHECK(utimensat(AT_FDCWD, f, ts, 0) == 0);
	CHECK(input_identity(f, id2, sizeof(id2)) == 0);
	CHECK(strcmp(id1, id2) != 0);
	CHECK(input_identity(f, id2, 8) == -ENOBUFS);

	rmdir(d);
	unlink(f);
	CHECK(rmdir(base) == 0);
}

/* initramfs_build() for kernel 6.1.0-test and the files under /run. */
static int build(const char *img, const char *drivers, const char *files,
		 const char *net, const char *ssh_key, bool shell,
		 const char *fingerprint,
		 const struct initramfs_progress *progress)
{
	const struct initramfs_request rq = {
		.kver = "6.1.0-test",
		.capture_conf_file = "/run/c.conf",
		.chain_file = "/run/chain",
		.modplan_file = "/run/modules.json",
		.drivers = drivers,
		.files = files,
		.net = net,
		.ssh_key = ssh_key,
		.shell = shell,
		.fingerprint = fingerprint,
		.progress = progress,
	};

	return initramfs_build(img, &rq);
}

/*
 * initramfs_build() with a stand-in dracut: what it passes on of dracut's
 * lines (the stages apart, its chatter left out, the rest as it is), the
 * environment it gives dracut alone, and a failed build leaving the image
 * as it was.
 */
static char build_got[2048];

static void got_stage(const char *stage, void *userdata)
{
	size_t n = strlen(build_got);

	(void)userdata;
	snprintf(build_got + n, sizeof(build_got) - n, "stage %s\n", stage);
}

static void got_output(const char *line, void *userdata)
{
	size_t n = strlen(build_got);

	(void)userdata;
	snprintf(build_got + n, sizeof(build_got) - n, "output %s\n", line);
}

static void put_dracut(const char *dir, const char *body)
{
	char text[2048], path[PATH_MAX + 16];

	snprintf(text, sizeof(text),
		 "#!/bin/sh\n"
		 "for a; do out=$a; done\n"
		 "case \" $* \" in *' --quiet '*) exec >/dev/null 2>&1;; esac\n"
		 "echo \"dracut: Executing: /usr/bin/dracut $*\" >&2\n"
		 "echo 'dracut: *** Including module: kdump-file ***' >&2\n"
		 "echo 'dracut: *** Hardlinking files ***' >&2\n"
		 "echo 'dracut: Files: 12' >&2\n"
		 "echo 'dracut: *** Hardlinking files done ***' >&2\n"
		 "echo 'dracut: Possible missing firmware ice for ice'\n"
		 "%s\n", body);
	test_put(dir, "dracut", text);
	snprintf(path, sizeof(path), "%s/dracut", dir);
	CHECK(chmod(path, 0755) == 0);
}

static void test_build(void)
{
	const struct initramfs_progress p = {
		.stage = got_stage, .output = got_output,
	};
	char base[] = "/tmp/test-initramfs-build.XXXXXX";
	char img[PATH_MAX], tmp[PATH_MAX + 8], path[2 * PATH_MAX];
	char *old_path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	_cleanup_free_ char *text = NULL, *again = NULL, *quiet = NULL;

	CHECK(mkdtemp(base) != NULL);
	snprintf(img, sizeof(img), "%s/initrd.img", base);
	snprintf(tmp, sizeof(tmp), "%s.new", img);
	snprintf(path, sizeof(path), "%s:%s", base, old_path ? old_path : "");
	CHECK(setenv("PATH", path, 1) == 0);
	/* Ours, which dracut must not see: no extra files is none. */
	CHECK(setenv("KDUMP_FILE_INSTALL", "/bin/stale", 1) == 0);
	CHECK(setenv("KDUMP_FILE_NET", "nfs", 1) == 0);
	CHECK(setenv("KDUMP_FILE_SHELL", "1", 1) == 0);

	put_dracut(base, "printf '%s|%s|%s|%s|%s|%s\\n' \"$KDUMP_FILE_CHAIN\" "
			 "\"$KDUMP_FILE_INSTALL\" \"$KDUMP_FILE_NET\" "
			 "\"$KDUMP_FILE_SSH_KEY\" \"$KDUMP_FILE_SHELL\" "
			 "\"$*\" >\"$out\"\n"
			 "echo \"dracut: *** Creating initramfs image file '$out' done ***\" >&2");
	build_got[0] = '\0';
	CHECK(build(img, "virtio_blk ext4", NULL, NULL, NULL, false, "fp 1\n", &p) == 0);
	snprintf(path, sizeof(path),
		 "stage Including module: kdump-file\n"
		 "stage Hardlinking files\n"
		 "stage Hardlinking files done\n"
		 "output Possible missing firmware ice for ice\n"
		 "stage Creating initramfs image file '%s' done\n", tmp);
	CHECK(strcmp(build_got, path) == 0);
	CHECK(read_file_max(img, &text, 4096) > 0);
	/*
	 * A local target: no network kind, and no shell for an action
	 * other than shell, whatever ours holds.
	 */
	CHECK(text && strncmp(text, "/run/chain|||||", 15) == 0);
	CHECK(text && !strstr(text, "--quiet"));
	/*
	 * Our module alone (not kernel-modules), the plan's drivers, the
	 * plan at the path the capture reads.
	 */
	CHECK(text && strstr(text, " --modules kdump-file --include "));
	CHECK(text && !strstr(text, "kernel-modules"));
	CHECK(text && strstr(text, " --include /run/modules.json /etc/kdump-file/modules.json "));
	CHECK(text && strstr(text, " --add-drivers virtio_blk ext4 "));
	CHECK(initramfs_is_current(img, "fp 1\n"));
	CHECK(access(tmp, F_OK) < 0);
	CHECK(!getenv("KDUMP_FILE_CHAIN"));

	/* Without a progress to show, dracut runs quiet. */
	CHECK(build(img, "", "/bin/true", "ssh",
		    "/etc/kdump-file/ssh/id_ed25519", true, "fp 2\n", NULL) == 0);
	CHECK(read_file_max(img, &quiet, 4096) > 0);
	/* failure_action = shell: the module is told to install sh. */
	CHECK(quiet && strncmp(quiet, "/run/chain|/bin/true|ssh|/etc/kdump-file/ssh/id_ed25519|1|", 58) == 0);
	CHECK(quiet && strstr(quiet, " --quiet "));

	/* dracut failed: said as -EIO, the image as it was. */
	put_dracut(base, "echo 'dracut: FAILED: no space' >&2\nexit 1");
	build_got[0] = '\0';
	CHECK(build(img, "", NULL, NULL, NULL, false, "fp 3\n", &p) == -EIO);
	CHECK(strstr(build_got, "output FAILED: no space\n") != NULL);
	CHECK(read_file_max(img, &again, 4096) > 0);
	CHECK(again && quiet && strcmp(again, quiet) == 0);
	CHECK(access(tmp, F_OK) < 0);
	CHECK(initramfs_is_current(img, "fp 2\n"));

	if (old_path)
		CHECK(setenv("PATH", old_path, 1) == 0);
	free(old_path);
	CHECK(unsetenv("KDUMP_FILE_INSTALL") == 0);
	CHECK(unsetenv("KDUMP_FILE_NET") == 0);
	CHECK(unsetenv("KDUMP_FILE_SHELL") == 0);
	CHECK(test_rm_rf(base) == 0);
}

/*
 * The memo: a valid image's identity is written, and honoured while the
 * file is unchanged; a memo others may write, or of another identity, is
 * not; an invalid image writes none.
 */
static void test_memo(void)
{
	char dir[] = "/tmp/test-initramfs-memo.XXXXXX", img[PATH_MAX],
	     memo[PATH_MAX], id[256];
	struct img good = { 0 };
	struct stat st;
	FILE *f;
	int fd;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(img, sizeof(img), "%s/initramfs.img", dir);
	snprintf(memo, sizeof(memo), "%s/initramfs.img.verified", dir);
	gzip_archive(&good);

	fd = open(img, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	CHECK(fd >= 0);
	CHECK(write(fd, good.p, good.len) == (ssize_t)good.len);
	/* Just written: verified, but not remembered yet. */
	CHECK(initramfs_verify_memo(fd, memo, NULL) == 0);
	CHECK(access(memo, F_OK) < 0);
	sleep(2);
	CHECK(initramfs_verify_memo(fd, memo, NULL) == 0);
	CHECK(access(memo, F_OK) == 0);
	CHECK(initramfs_verify_memo(fd, memo, NULL) == 0);

	/*
	 * The image damaged: its change time moves, the memo no longer
	 * matches, the verification runs and fails, the memo stays as it was.
	 */
	CHECK(pwrite(fd, "XXXX", 4, 10) == 4);
	CHECK(initramfs_verify_memo(fd, memo, NULL) == -EBADMSG);

	/* A memo of the damaged file's identity is believed: no read. */
	CHECK(fstat(fd, &st) == 0);
	snprintf(id, sizeof(id), "verified %llu %llu %lld %lld.%09ld %lld.%09ld\n",
		 (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
		 (long long)st.st_size, (long long)st.st_mtim.tv_sec,
		 st.st_mtim.tv_nsec, (long long)st.st_ctim.tv_sec,
		 st.st_ctim.tv_nsec);
	f = fopen(memo, "we");
	CHECK(f != NULL);
	fputs(id, f);
	fclose(f);
	CHECK(initramfs_verify_memo(fd, memo, NULL) == 0);
	/* ... unless others may write it. */
	CHECK(chmod(memo, 0666) == 0);
	CHECK(initramfs_verify_memo(fd, memo, NULL) == -EBADMSG);
	/* No memo at all: every call verifies. */
	CHECK(initramfs_verify_memo(fd, NULL, NULL) == -EBADMSG);

	close(fd);
	unlink(memo);
	unlink(img);
	rmdir(dir);
	free(good.p);
}

int main(void)
{
	test_good();
	test_truncated();
	test_corrupt();
	test_other_formats();
	test_large();
	test_mutations();
	test_gzip_garbage();
	test_root_only();
	test_program_and_identity();
	test_build();
	test_memo();
	return tests_done();
}
