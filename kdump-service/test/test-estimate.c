// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "estimate.h"
#include "tests.h"

#define MIB (1ULL << 20)

static int tmpfile_with(const unsigned char *data, size_t len, size_t total)
{
	char path[] = "/tmp/test-estimate.XXXXXX";
	int fd = mkstemp(path);

	unlink(path);
	if (fd < 0)
		return -1;
	if (write(fd, data, len) != (ssize_t)len || ftruncate(fd, total) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static void test_estimate(void)
{
	static unsigned char kernel[0x400], initrd[16];
	unsigned int init_size = 38 * MIB;
	struct estimate e1, e4;
	int kfd, ifd;

	memcpy(kernel + 0x260, &init_size, 4);
	kfd = tmpfile_with(kernel, sizeof(kernel), 11 * MIB);
	/* A gzip initramfs of 2 MiB that says it unpacks to 4.5 MiB. */
	initrd[0] = 0x1f;
	initrd[1] = 0x8b;
	ifd = tmpfile_with(initrd, sizeof(initrd), 2 * MIB);
	{
		unsigned int isize = 9 * MIB / 2;

		CHECK(pwrite(ifd, &isize, 4, 2 * MIB - 4) == 4);
	}
	CHECK(estimate_capture(kfd, ifd, 1ULL << 30, 0, 0, CONF_NET_NONE, &e1) == 0);
	CHECK(e1.kernel == 38 * MIB);
	CHECK(e1.initramfs == 2 * MIB);
	CHECK(e1.initramfs_unpacked == 9 * MIB / 2);
	CHECK(e1.needed > 56 * MIB && e1.needed <= 64 * MIB);
	CHECK(estimate_capture(kfd, ifd, 4ULL << 30, 0, 0, CONF_NET_NONE, &e4) == 0);
	CHECK(e4.needed > e1.needed && e4.needed <= 64 * MIB);
	CHECK(e1.recommended >= e1.needed && e1.recommended % (8 * MIB) == 0);

	/*
	 * Debian's stock kernel as measured: init_size 63.6 MiB, initramfs
	 * 6.7 MiB unpacking to 18.8, 2.65 MiB of the target's modules: the
	 * capture completes at 112M and not at 104M.
	 */
	{
		unsigned int big = 63 * MIB + 5 * MIB / 8;
		unsigned int isize = 18 * MIB + 4 * MIB / 5;
		struct estimate s1, s4;
		int k2, i2;

		memcpy(kernel + 0x260, &big, 4);
		k2 = tmpfile_with(kernel, sizeof(kernel), 8 * MIB);
		i2 = tmpfile_with(initrd, sizeof(initrd), 6 * MIB + 7 * MIB / 10);
		CHECK(pwrite(i2, &isize, 4, 6 * MIB + 7 * MIB / 10 - 4) == 4);
		CHECK(estimate_capture(k2, i2, 1ULL << 30, 2780000, 0, CONF_NET_NONE, &s1) == 0);
		CHECK(s1.modules == 2780000);
		CHECK(s1.needed > 104 * MIB && s1.needed <= 112 * MIB);
		CHECK(estimate_capture(k2, i2, 4ULL << 30, 2780000, 0, CONF_NET_NONE, &s4) == 0);
		CHECK(s4.needed > 104 * MIB && s4.needed <= 112 * MIB);
		/* Without the modules the estimate falls below what failed. */
		CHECK(estimate_capture(k2, i2, 1ULL << 30, 0, 0, CONF_NET_NONE, &s1) == 0);
		CHECK(s1.needed <= 104 * MIB);
		close(i2);
		close(k2);
		memcpy(kernel + 0x260, &init_size, 4);
	}

	/*
	 * Network targets as measured on this project's kernel: NFSv3 needs
	 * more than 64M with the local initramfs' size; SSH more than 72M
	 * with a 5.1 MiB initramfs (about 12 MiB unpacked); neither more
	 * than the next 8M step.
	 */
	{
		struct estimate n, s, l;
		unsigned int isize = 12 * MIB;
		int i2;

		CHECK(estimate_capture(kfd, ifd, 1ULL << 30, 0, 0, CONF_NET_NONE, &l) == 0);
		CHECK(l.network == 0);
		CHECK(estimate_capture(kfd, ifd, 1ULL << 30, 0, 0, CONF_NET_NFS, &n) == 0);
		CHECK(n.network > 0);
		CHECK(n.needed > 64 * MIB && n.needed <= 72 * MIB);
		CHECK(n.recommended >= n.needed + n.needed / 5);
		i2 = tmpfile_with(initrd, sizeof(initrd), 5 * MIB + MIB / 10);
		CHECK(pwrite(i2, &isize, 4, 5 * MIB + MIB / 10 - 4) == 4);
		CHECK(estimate_capture(kfd, i2, 1ULL << 30, 0, 0, CONF_NET_SSH, &s) == 0);
		CHECK(s.network > 0 && s.network < n.network);
		CHECK(s.needed > 72 * MIB && s.needed <= 80 * MIB);
		close(i2);
	}

	/*
	 * An md array: 4 MiB each, RAID 4/5/6 their stripe cache besides,
	 * added to what is needed.
	 */
	{
		struct estimate l, m;

		CHECK(estimate_md_bytes("raid1", 2) == 4 * MIB);
		CHECK(estimate_md_bytes("raid10", 4) == 4 * MIB);
		CHECK(estimate_md_bytes("raid5", 3) == 4 * MIB + 3 * MIB);
		CHECK(estimate_md_bytes("raid6", 4) == 4 * MIB + 4 * MIB);
		/* A LUKS device: 3 MiB, and its key slot's Argon2 memory. */
		CHECK(estimate_luks_bytes(0) == 3 * MIB);
		CHECK(estimate_luks_bytes(65536) == 3 * MIB + 64 * MIB);
		CHECK(estimate_mpath_bytes() == 2 * MIB);
		CHECK(estimate_capture(kfd, ifd, 1ULL << 30, 0, 0, CONF_NET_NONE, &l) == 0);
		CHECK(estimate_capture(kfd, ifd, 1ULL << 30, 0, 4 * MIB,
				       CONF_NET_NONE, &m) == 0);
		CHECK(l.storage == 0 && m.storage == 4 * MIB);
		CHECK(m.needed == l.needed + 4 * MIB);
	}

	/* Without an initramfs size trailer: three times the file. */
	initrd[0] = 0x28;
	CHECK(pwrite(ifd, initrd, 2, 0) == 2);
	CHECK(estimate_capture(kfd, ifd, 1ULL << 30, 0, 0, CONF_NET_NONE, &e1) == 0);
	CHECK(e1.initramfs_unpacked == 6 * MIB);
	close(ifd);
	close(kfd);

	/* Not a kernel: too short to hold a boot header. */
	kfd = tmpfile_with(kernel, 0x100, 0x100);
	CHECK(estimate_capture(kfd, -1, 1ULL << 30, 0, 0, CONF_NET_NONE, &e1) == -ENOEXEC);
	close(kfd);
}

static void test_capture_timeout(void)
{
	CHECK(estimate_capture_timeout(60, 1ULL << 30, false) == 210);
	CHECK(estimate_capture_timeout(60, (1ULL << 30) + 1, false) == 240);
	CHECK(estimate_capture_timeout(60, 4ULL << 30, true) == 420);
	CHECK(estimate_capture_timeout(3600, 1ULL << 50, true) == 86400);
	CHECK(estimate_capture_timeout(1, 0, false) == 121);
}

static void test_dump(void)
{
	struct dump_measured prev = {
		.bytes = 30 * MIB, .seconds = 3.0, .dump_level = 31,
		.compression = COMPRESS_LZO,
	};
	struct dump_estimate d = { .bytes = 7 };

	/* The bench's own guest: 1 GiB, -d 31, LZO 26.15 MiB in 1.09 s. */
	CHECK(estimate_dump(24847, 205739, 4096, 31, COMPRESS_LZO, NULL,
			    &d) == 0);
	CHECK(d.kept_pages == 24847 && d.total_pages == 205739);
	CHECK(d.bytes > 26 * MIB && d.bytes < 26 * MIB + MIB / 2);
	CHECK(d.seconds > 1.0 && d.seconds < 1.25);
	CHECK(!d.measured);
	/* zlib: smaller and slower; none: the pages themselves. */
	CHECK(estimate_dump(24847, 205739, 4096, 31, COMPRESS_ZLIB, NULL,
			    &d) == 0);
	CHECK(d.bytes > 20 * MIB && d.bytes < 21 * MIB);
	CHECK(d.seconds > 5.5 && d.seconds < 6.5);
	CHECK(estimate_dump(24847, 205739, 4096, 31, COMPRESS_NONE, NULL,
			    &d) == 0);
	CHECK(d.bytes == 24847ULL * 4096);
	/* 8 GiB (about 2040800 pages, 51600 kept): 3.19 s measured. */
	CHECK(estimate_dump(51600, 2040800, 4096, 31, COMPRESS_LZO, NULL,
			    &d) == 0);
	CHECK(d.seconds > 3.0 && d.seconds < 3.5);
	/* -d 0 on the 1 GiB guest: every page. */
	CHECK(estimate_dump(205739, 205739, 4096, 0, COMPRESS_LZO, NULL,
			    &d) == 0);
	CHECK(d.bytes > 216 * MIB && d.bytes < 218 * MIB);

	/* A dump of this machine at the same level: its ratio and speed. */
	CHECK(estimate_dump(24847, 205739, 4096, 31, COMPRESS_LZO, &prev,
			    &d) == 0);
	CHECK(d.measured);
	CHECK(d.bytes > 30 * MIB - 4096 && d.bytes <= 30 * MIB);
	CHECK(d.seconds > 2.99 && d.seconds < 3.01);
	/* At another level or compression, or absurd: the bench's. */
	prev.dump_level = 17;
	CHECK(estimate_dump(24847, 205739, 4096, 31, COMPRESS_LZO, &prev,
			    &d) == 0 && !d.measured);
	prev.dump_level = 31;
	prev.compression = COMPRESS_ZLIB;
	CHECK(estimate_dump(24847, 205739, 4096, 31, COMPRESS_LZO, &prev,
			    &d) == 0 && !d.measured);
	prev.compression = COMPRESS_LZO;
	prev.bytes = 1ULL << 40;
	CHECK(estimate_dump(24847, 205739, 4096, 31, COMPRESS_LZO, &prev,
			    &d) == 0 && !d.measured);
	prev.bytes = 30 * MIB;
	prev.seconds = 0;
	CHECK(estimate_dump(24847, 205739, 4096, 31, COMPRESS_LZO, &prev,
			    &d) == 0 && !d.measured);

	/* The largest table memusage_parse() takes: no overflow. */
	CHECK(estimate_dump(~0ULL / 4096, ~0ULL / 4096, 4096, 0,
			    COMPRESS_NONE, NULL, &d) == 0);
	CHECK(d.bytes >= 9000000000000000000ULL);

	/* Figures that make no sense. */
	d.bytes = 7;
	CHECK(estimate_dump(10, 5, 4096, 31, COMPRESS_LZO, NULL, &d) == -EINVAL);
	CHECK(estimate_dump(0, 0, 4096, 31, COMPRESS_LZO, NULL, &d) == -EINVAL);
	CHECK(estimate_dump(1, 1, 0, 31, COMPRESS_LZO, NULL, &d) == -EINVAL);
	CHECK(d.bytes == 7);
}

/* The threads rule: reservation, CPUs and request -> threads. */
static void test_threads(void)
{
	static const struct {
		unsigned int requested, cpus, nr_cpus;
		unsigned long long reserved_mib, need_mib;
		unsigned int threads, room;
		enum threads_limit limit;
	} rows[] = {
		/* The default: one thread, whatever the memory. */
		{ 1, 4, 0, 256, 75, 1, 45, THREADS_BY_REQUEST },
		/* auto: the memory first, then the CPUs. */
		{ CONF_THREADS_AUTO, 4, 0, 64, 75, 1, 0, THREADS_BY_MEMORY },
		{ CONF_THREADS_AUTO, 4, 0, 80, 75, 2, 1, THREADS_BY_MEMORY },
		{ CONF_THREADS_AUTO, 4, 0, 83, 75, 3, 2, THREADS_BY_MEMORY },
		{ CONF_THREADS_AUTO, 4, 0, 256, 75, 4, 45, THREADS_BY_CPUS },
		{ CONF_THREADS_AUTO, 1, 0, 256, 75, 1, 45, THREADS_BY_CPUS },
		{ CONF_THREADS_AUTO, 16, 2, 256, 75, 2, 45, THREADS_BY_NR_CPUS },
		/* No reservation or an unknown one: one thread. */
		{ CONF_THREADS_AUTO, 8, 0, 0, 75, 1, 0, THREADS_BY_MEMORY },
		/* More CPUs than makedumpfile takes threads. */
		{ CONF_THREADS_AUTO, 256, 0, 4096, 75, 64, 64, THREADS_BY_CPUS },
		/* An explicit request: cut by the CPUs, nr_cpus, the memory. */
		{ 8, 4, 0, 256, 75, 4, 45, THREADS_BY_CPUS },
		{ 8, 16, 3, 256, 75, 3, 45, THREADS_BY_NR_CPUS },
		{ 8, 16, 0, 64, 75, 1, 0, THREADS_BY_MEMORY },
		{ 8, 16, 0, 88, 75, 4, 3, THREADS_BY_MEMORY },
		{ 2, 16, 0, 88, 75, 2, 3, THREADS_BY_REQUEST },
		/* CPUs unknown (0) count as one. */
		{ CONF_THREADS_AUTO, 0, 0, 256, 75, 1, 45, THREADS_BY_CPUS },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct threads_choice t;

		estimate_threads(rows[i].requested, rows[i].cpus,
				 rows[i].nr_cpus, rows[i].reserved_mib * MIB,
				 rows[i].need_mib * MIB, &t);
		CHECK(t.threads == rows[i].threads);
		CHECK(t.room == rows[i].room);
		CHECK(t.limit == rows[i].limit);
		if (t.threads != rows[i].threads || t.room != rows[i].room ||
		    t.limit != rows[i].limit)
			fprintf(stderr, "  row %zu: threads %u room %u limit %d\n",
				i, t.threads, t.room, t.limit);
	}
}

/* What status, estimate and load say of the choice. */
static void test_threads_text(void)
{
	struct threads_choice t;
	struct estimate e = { .needed = 60 * MIB };
	char buf[512];

	CHECK(estimate_threads_need(&e) == 75 * MIB);
	estimate_threads(CONF_THREADS_AUTO, 4, 0, 64 * MIB, 75 * MIB, &t);
	CHECK(estimate_threads_text(&t, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "1 (auto: the 64M reservation leaves room for 0 more)") == 0);
	CHECK(estimate_threads_warning(&t, buf, sizeof(buf)) == 0 && !buf[0]);

	estimate_threads(CONF_THREADS_AUTO, 2, 0, 256 * MIB, 75 * MIB, &t);
	CHECK(estimate_threads_text(&t, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "2 (auto: 2 CPUs online; the 256M reservation leaves room for 45 more)") == 0);

	estimate_threads(1, 2, 0, 256 * MIB, 75 * MIB, &t);
	CHECK(estimate_threads_text(&t, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "1 (1 asked for; the 256M reservation leaves room for 45 more)") == 0);

	/* An explicit 8 in 64M: cut, with the reservation that allows it. */
	estimate_threads(8, 16, 0, 64 * MIB, 75 * MIB, &t);
	CHECK(t.reserve_for_request == 104 * MIB);
	CHECK(estimate_threads_text(&t, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "1 (8 asked for: the 64M reservation leaves room for 0 more; crashkernel=104M would allow 8)") == 0);
	CHECK(estimate_threads_warning(&t, buf, sizeof(buf)) == 1);
	CHECK(strcmp(buf, "makedumpfile threads: 8 asked for, 1 used: the 64M crashkernel= reservation leaves room for 0 more beyond the capture's 75 MiB (4 MiB each); crashkernel=104M would allow 8") == 0);
	CHECK(estimate_threads_warning(&t, buf, 16) == -ENOBUFS);

	/* Cut by the CPUs, not the memory: no warning. */
	estimate_threads(8, 2, 0, 256 * MIB, 75 * MIB, &t);
	CHECK(estimate_threads_warning(&t, buf, sizeof(buf)) == 0);
	CHECK(estimate_threads_text(&t, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "2 (8 asked for: 2 CPUs online; the 256M reservation leaves room for 45 more)") == 0);
	estimate_threads(CONF_THREADS_AUTO, 8, 2, 256 * MIB, 75 * MIB, &t);
	CHECK(estimate_threads_text(&t, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "2 (auto: nr_cpus=2 in cmdline_append; the 256M reservation leaves room for 45 more)") == 0);
	estimate_threads(CONF_THREADS_AUTO, 8, 0, 0, 75 * MIB, &t);
	CHECK(estimate_threads_text(&t, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "1 (auto: no reservation leaves room for more)") == 0);
	CHECK(estimate_threads_text(&t, buf, 8) == -ENOBUFS);

	/* The capture's need not known: one thread, no figure made up. */
	estimate_threads(8, 16, 0, 256 * MIB, ~0ULL, &t);
	CHECK(t.threads == 1 && t.room == 0 && t.reserve_for_request == 0);
	CHECK(estimate_threads_text(&t, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "1 (8 asked for: the 256M reservation leaves room for 0 more)") == 0);
	CHECK(estimate_threads_warning(&t, buf, sizeof(buf)) == 1);
	CHECK(strcmp(buf, "makedumpfile threads: 8 asked for, 1 used: what the capture needs of the 256M crashkernel= reservation is not known (see 'kdump-file estimate')") == 0);
}

int main(void)
{
	test_estimate();
	test_capture_timeout();
	test_threads();
	test_threads_text();
	test_dump();
	return tests_done();
}
