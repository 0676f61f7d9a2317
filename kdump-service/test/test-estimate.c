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
	CHECK(estimate_capture(kfd, ifd, 1ULL << 30, &e1) == 0);
	CHECK(e1.kernel == 38 * MIB);
	CHECK(e1.initramfs == 2 * MIB);
	CHECK(e1.initramfs_unpacked == 9 * MIB / 2);
	CHECK(e1.needed > 56 * MIB && e1.needed <= 64 * MIB);
	CHECK(estimate_capture(kfd, ifd, 4ULL << 30, &e4) == 0);
	CHECK(e4.needed > e1.needed && e4.needed <= 64 * MIB);
	CHECK(e1.recommended >= e1.needed && e1.recommended % (8 * MIB) == 0);

	/* Without an initramfs size trailer: three times the file. */
	initrd[0] = 0x28;
	CHECK(pwrite(ifd, initrd, 2, 0) == 2);
	CHECK(estimate_capture(kfd, ifd, 1ULL << 30, &e1) == 0);
	CHECK(e1.initramfs_unpacked == 6 * MIB);
	close(ifd);
	close(kfd);

	/* Not a kernel: too short to hold a boot header. */
	kfd = tmpfile_with(kernel, 0x100, 0x100);
	CHECK(estimate_capture(kfd, -1, 1ULL << 30, &e1) == -ENOEXEC);
	close(kfd);
}

int main(void)
{
	test_estimate();
	return tests_done();
}
