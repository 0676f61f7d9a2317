// SPDX-License-Identifier: GPL-2.0
/*
 * recover on a regular file standing for the raw dump device, with a
 * stand-in makedumpfile in PATH: the dump directories it makes (two crashes
 * in the same second get two), metadata.json, the header marked recovered,
 * and a device that ends early or a makedumpfile that fails counted as the
 * failures they are.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dumpdir.h"
#include "recover.h"
#include "tests.h"
#include "util.h"

/* What the header says the device holds, more than any file here. */
#define DEV_SIZE (1ULL << 20)
#define TIME 1796292108LL
#define DMESG "<0>Kernel panic - not syncing: sysrq triggered crash\n"
#define VMCORE "flattened vmcore stand-in"

static char tmp[PATH_MAX], base[PATH_MAX + 16], dev[PATH_MAX + 16];

/*
 * The device: a header of state, its dmesg at 4096 and its vmcore at
 * 8192, cut to len bytes (0: whole).
 */
static int make_device(enum raw_state state, size_t len)
{
	struct raw_header h = { .state = state, .time = TIME,
				.dmesg_off = 4096, .dmesg_len = strlen(DMESG),
				.vmcore_off = 8192,
				.vmcore_len = strlen(VMCORE) };
	static char img[8192 + sizeof(VMCORE)];
	int fd;

	strcpy(h.release, "6.1.0-test");
	memset(img, 0, sizeof(img));
	CHECK(raw_header_format(&h, img) == 0);
	memcpy(img + 4096, DMESG, strlen(DMESG));
	memcpy(img + 8192, VMCORE, strlen(VMCORE));
	fd = open(dev, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	CHECK(fd >= 0);
	if (fd < 0)
		return -1;
	len = len ? len : 8192 + strlen(VMCORE);
	CHECK(write(fd, img, len) == (ssize_t)len);
	return fd;
}

/* A stand-in makedumpfile -R: the stream from stdin, or a failure. */
static void put_makedumpfile(const char *body)
{
	char bin[PATH_MAX + 16], text[256];

	snprintf(bin, sizeof(bin), "%s/bin", tmp);
	snprintf(text, sizeof(text), "#!/bin/sh\n%s\n", body);
	test_put(bin, "makedumpfile", text);
	CHECK(path_format(bin, sizeof(bin), "%s/bin/makedumpfile", tmp) == 0);
	CHECK(chmod(bin, 0755) == 0);
}

/* The state of the header on the device now. */
static enum raw_state device_state(int fd)
{
	char buf[RAW_HEADER_SIZE];
	struct raw_header h;

	if (pread(fd, buf, sizeof(buf), 0) != (ssize_t)sizeof(buf) ||
	    raw_header_parse(buf, sizeof(buf), DEV_SIZE, &h) < 0)
		return RAW_EMPTY;
	return h.state;
}

/* The file name in the dump directory dir below base, read whole. */
static bool dump_has(const char *dir, const char *name, const char *want)
{
	char p[PATH_MAX + 128];
	_cleanup_free_ char *text = NULL;

	snprintf(p, sizeof(p), "%s/%s/%s", base, dir, name);
	if (read_file_max(p, &text, 1 << 16) < 0)
		return false;
	return strcmp(text, want) == 0;
}

static bool dump_exists(const char *dir, const char *name)
{
	char p[PATH_MAX + 128];

	snprintf(p, sizeof(p), "%s/%s/%s", base, dir, name);
	return access(p, F_OK) == 0;
}

static bool metadata_of(const char *dir, struct dump_metadata *m)
{
	char p[PATH_MAX + 64];
	_cleanup_close_ int fd = -1;

	snprintf(p, sizeof(p), "%s/%s", base, dir);
	fd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd >= 0 && dump_metadata_read(fd, m) == 0;
}

static void test_short_header(void)
{
	struct recover_outcome o;
	int fd = make_device(RAW_COMPLETE, 100);

	/* A short read sets no errno: still a failure, never 0. */
	CHECK(recover_dump(fd, DEV_SIZE, "/dev/raw", dev, base, &o) == -EIO);
	CHECK(!o.header_read && o.header_error == -EIO);
	CHECK(o.name[0] == '\0');
	CHECK(access(base, F_OK) < 0);
	close(fd);
}

static void test_short_dmesg(void)
{
	struct recover_outcome o;
	int fd = make_device(RAW_FAILED, 4096 + 10);

	CHECK(recover_dump(fd, DEV_SIZE, "/dev/raw", dev, base, &o) == -EIO);
	CHECK(o.header_read && o.dmesg_error == -EIO);
	/* Kept for the next try. */
	CHECK(device_state(fd) == RAW_FAILED);
	close(fd);
	CHECK(test_rm_rf(base) == 0);
}

/* Two captures that failed in the same second: two dump directories. */
static void test_same_second(void)
{
	struct dump_metadata m;
	struct recover_outcome o;
	int fd;

	for (int i = 0; i < 2; i++) {
		fd = make_device(RAW_FAILED, 0);
		CHECK(recover_dump(fd, DEV_SIZE, "/dev/raw", dev, base, &o) ==
		      0);
		CHECK(!o.complete && !o.metadata_error && !o.mark_error);
		CHECK(strcmp(o.name, i ? "2026-12-03-10:01:48-1" :
					 "2026-12-03-10:01:48") == 0);
		CHECK(device_state(fd) == RAW_RECOVERED);
		/* Once. */
		CHECK(recover_dump(fd, DEV_SIZE, "/dev/raw", dev, base, &o) ==
		      1);
		close(fd);
	}
	CHECK(dump_has("2026-12-03-10:01:48", DUMP_DMESG, DMESG));
	CHECK(dump_has("2026-12-03-10:01:48-1", DUMP_DMESG, DMESG));
	CHECK(metadata_of("2026-12-03-10:01:48-1", &m));
	CHECK(!m.complete && m.crash_time == TIME);
	CHECK(strcmp(m.error, "the capture failed") == 0);
	CHECK(strcmp(m.kernel_release, "6.1.0-test") == 0);
	CHECK(strcmp(m.target, "/dev/raw") == 0);
	CHECK(strcmp(m.recovered_from, dev) == 0);
	CHECK(test_rm_rf(base) == 0);
}

static void test_vmcore(void)
{
	struct dump_metadata m;
	struct recover_outcome o;
	int fd;

	/*
	 * Run in the dump directory with a bare name: it makes the file
	 * itself, as the real one does, O_EXCL (set -C).
	 */
	put_makedumpfile("[ \"$1\" = -R ] && [ \"$2\" = vmcore-incomplete ] && "
			 "pwd -P > ../cwd && set -C && exec cat >\"$2\"");
	fd = make_device(RAW_COMPLETE, 0);
	CHECK(recover_dump(fd, DEV_SIZE, "/dev/raw", dev, base, &o) == 0);
	CHECK(o.complete && !o.vmcore_error);
	CHECK(dump_has(o.name, DUMP_VMCORE, VMCORE));
	CHECK(dump_has(o.name, DUMP_DMESG, DMESG));
	{
		char want[PATH_MAX + 64];

		snprintf(want, sizeof(want), "%s/%s\n", base, o.name);
		CHECK(dump_has("", "cwd", want));
	}
	CHECK(metadata_of(o.name, &m));
	CHECK(m.complete && m.error[0] == '\0');
	CHECK(device_state(fd) == RAW_RECOVERED);
	close(fd);

	/*
	 * makedumpfile failed: said, noted, the dump kept on the device, and
	 * the part it wrote removed (it may be what filled the disk).
	 */
	put_makedumpfile("printf partial > \"$2\"; exit 3");
	fd = make_device(RAW_COMPLETE, 0);
	CHECK(recover_dump(fd, DEV_SIZE, "/dev/raw", dev, base, &o) == -EIO);
	CHECK(strcmp(o.vmcore_why, "makedumpfile -R: exit 3") == 0);
	CHECK(strcmp(o.name, "2026-12-03-10:01:48-1") == 0);
	CHECK(metadata_of(o.name, &m));
	CHECK(!m.complete);
	CHECK(strcmp(m.error, "recovery failed: makedumpfile -R: exit 3") ==
	      0);
	CHECK(device_state(fd) == RAW_COMPLETE);
	CHECK(!dump_exists(o.name, DUMP_VMCORE_INCOMPLETE));
	CHECK(!dump_exists(o.name, DUMP_VMCORE));
	close(fd);
	CHECK(test_rm_rf(base) == 0);
}

/*
 * A dump directory others may write, or one reached through a link to
 * such a directory: refused before anything is written, the dump kept on
 * the device.  A link named like the dump in it, to a directory of
 * root's, would otherwise receive the dmesg and metadata.json.
 */
static void test_unsafe_base(void)
{
	char victim[PATH_MAX + 16], link[PATH_MAX + 64], via[PATH_MAX + 16];
	struct recover_outcome o;
	int fd;

	put_makedumpfile("exec cat >\"$2\"");
	snprintf(victim, sizeof(victim), "%s/victim", tmp);
	CHECK(mkdir(victim, 0700) == 0);
	CHECK(mkdir(base, 0700) == 0 && chmod(base, 01777) == 0);
	snprintf(link, sizeof(link), "%s/2026-12-03-10:01:48", base);
	CHECK(symlink(victim, link) == 0);
	fd = make_device(RAW_COMPLETE, 0);
	CHECK(recover_dump(fd, DEV_SIZE, "/dev/raw", dev, base, &o) == -EPERM);
	CHECK(o.dir_error == -EPERM &&
	      o.dir_bad.fault == SAFE_FAULT_WORLD_WRITABLE &&
	      strcmp(o.dir_bad.path, base) == 0);
	CHECK(o.name[0] == '\0');
	CHECK(device_state(fd) == RAW_COMPLETE);
	snprintf(link, sizeof(link), "%s/%s", victim, DUMP_DMESG);
	CHECK(access(link, F_OK) < 0);
	snprintf(link, sizeof(link), "%s/%s", victim, DUMP_METADATA);
	CHECK(access(link, F_OK) < 0);
	snprintf(link, sizeof(link), "%s/%s", victim, DUMP_VMCORE);
	CHECK(access(link, F_OK) < 0);
	CHECK(test_rm_rf(base) == 0);

	/* path below a link to a directory others may write: not made. */
	CHECK(chmod(victim, 0777) == 0);
	snprintf(via, sizeof(via), "%s/via", tmp);
	CHECK(symlink(victim, via) == 0);
	snprintf(link, sizeof(link), "%s/dumps", via);
	CHECK(recover_dump(fd, DEV_SIZE, "/dev/raw", dev, link, &o) == -EPERM);
	CHECK(strcmp(o.dir_bad.path, victim) == 0);
	snprintf(link, sizeof(link), "%s/dumps", victim);
	CHECK(access(link, F_OK) < 0);
	CHECK(device_state(fd) == RAW_COMPLETE);
	close(fd);
	CHECK(unlink(via) == 0 && test_rm_rf(victim) == 0);
}

/* A 64-bit big-endian value, as the flattened format stores them. */
static void be64(char *p, long long v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (char)(v & 0xff);
}

/*
 * The real makedumpfile, when installed, on a small flattened stream
 * (makedumpfile's makedumpfile_header and makedumpfile_data_header, a
 * record at offset 0, the end marker): it makes its output in the dump
 * directory it runs in, and nothing else.
 */
static void test_real_makedumpfile(void)
{
	static const char data[] = "memory of the crashed kernel\n";
	struct raw_header h = { .state = RAW_COMPLETE, .time = TIME + 60,
				.dmesg_off = 4096, .dmesg_len = strlen(DMESG),
				.vmcore_off = 8192 };
	static char img[8192 + 4096 + 16 + sizeof(data) + 16];
	char *stream = img + 8192, *path = NULL;
	struct recover_outcome o;
	size_t n;
	int fd;

	if (access("/usr/sbin/makedumpfile", X_OK) < 0 &&
	    access("/usr/bin/makedumpfile", X_OK) < 0)
		return;
	memset(img, 0, sizeof(img));
	memcpy(stream, "makedumpfile", 12);
	be64(stream + 16, 1);		/* type */
	be64(stream + 24, 1);		/* version */
	n = 4096;
	be64(stream + n, 0);
	be64(stream + n + 8, strlen(data));
	memcpy(stream + n + 16, data, strlen(data));
	n += 16 + strlen(data);
	be64(stream + n, -1);
	be64(stream + n + 8, -1);
	n += 16;
	h.vmcore_len = n;
	strcpy(h.release, "6.1.0-test");
	CHECK(raw_header_format(&h, img) == 0);
	memcpy(img + 4096, DMESG, strlen(DMESG));
	fd = open(dev, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	CHECK(fd >= 0 && write(fd, img, 8192 + n) == (ssize_t)(8192 + n));

	path = strdup(getenv("PATH"));
	CHECK(path && setenv("PATH", "/usr/sbin:/usr/bin:/sbin:/bin", 1) == 0);
	CHECK(recover_dump(fd, DEV_SIZE, "/dev/raw", dev, base, &o) == 0);
	CHECK(!o.vmcore_error && o.complete);
	CHECK(dump_has(o.name, DUMP_VMCORE, data));
	CHECK(!dump_exists(o.name, DUMP_VMCORE_INCOMPLETE));
	CHECK(device_state(fd) == RAW_RECOVERED);
	CHECK(path && setenv("PATH", path, 1) == 0);
	free(path);
	close(fd);
	CHECK(test_rm_rf(base) == 0);
}

int main(void)
{
	char path[PATH_MAX * 2];

	snprintf(tmp, sizeof(tmp), "/tmp/test-recover.XXXXXX");
	if (!mkdtemp(tmp))
		return 1;
	snprintf(base, sizeof(base), "%s/dumps", tmp);
	snprintf(dev, sizeof(dev), "%s/raw", tmp);
	snprintf(path, sizeof(path), "%s/bin", tmp);
	CHECK(mkdir(path, 0700) == 0);
	snprintf(path, sizeof(path), "%s/bin:%s", tmp, getenv("PATH") ?: "");
	CHECK(setenv("PATH", path, 1) == 0);

	test_short_header();
	test_short_dmesg();
	test_same_second();
	test_vmcore();
	test_unsafe_base();
	test_real_makedumpfile();
	CHECK(test_rm_rf(tmp) == 0);
	return tests_done();
}
