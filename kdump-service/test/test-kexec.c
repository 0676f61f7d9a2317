// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "kexec.h"
#include "tests.h"

static void explain(int err, const struct kexec_context *ctx, char *buf)
{
	kexec_explain(err, ctx, buf, 512);
}

static void test_errno_mapping(void)
{
	struct kexec_context ctx = { .is_root = true, .reserved = 64ULL << 20,
				     .needed = 100ULL << 20, .lockdown = "none" };
	char buf[512];

	explain(EPERM, &(struct kexec_context){ .is_root = false }, buf);
	CHECK(strstr(buf, "root") != NULL);
	explain(EPERM, &(struct kexec_context){ .is_root = true,
						.kexec_disabled = true }, buf);
	CHECK(strstr(buf, "kexec_load_disabled") != NULL);
	explain(EPERM, &(struct kexec_context){ .is_root = true,
						.lockdown = "integrity" }, buf);
	CHECK(strstr(buf, "locked down (integrity)") != NULL);
	explain(EKEYREJECTED, &ctx, buf);
	CHECK(strstr(buf, "signature") != NULL);
	explain(ENOKEY, &ctx, buf);
	CHECK(strstr(buf, "does not trust") != NULL);
	explain(ENODATA, &ctx, buf);
	CHECK(strstr(buf, "no usable signature") != NULL);
	explain(ENOMEM, &ctx, buf);
	CHECK(strstr(buf, "64 MiB reserved") != NULL);
	CHECK(strstr(buf, "100 MiB") != NULL);
	explain(EADDRNOTAVAIL, &(struct kexec_context){ .reserved = 0 }, buf);
	CHECK(strstr(buf, "crashkernel=256M") != NULL);
	explain(ENOEXEC, &ctx, buf);
	CHECK(strstr(buf, "bzImage") != NULL);
	explain(EBUSY, &ctx, buf);
	CHECK(strstr(buf, "in progress") != NULL);
	explain(EINVAL, &ctx, buf);
	CHECK(strstr(buf, "command line") != NULL);
	explain(EBADF, &ctx, buf);
	CHECK(strstr(buf, "readable") != NULL);
	explain(ENOSYS, &ctx, buf);
	CHECK(strstr(buf, "CONFIG_KEXEC_FILE") != NULL);
	explain(EXDEV, &ctx, buf);
	CHECK(strcmp(buf, strerror(EXDEV)) == 0);
}

static int tmpfile_with(const unsigned char *data, size_t len)
{
	char path[] = "/tmp/test-kexec.XXXXXX";
	int fd = mkstemp(path);

	unlink(path);
	if (fd >= 0 && write(fd, data, len) != (ssize_t)len) {
		close(fd);
		return -1;
	}
	return fd;
}

static void test_bzimage_check(void)
{
	unsigned char img[0x400] = { 0 };
	int fd;

	memcpy(img + 0x202, "HdrS", 4);
	img[0x206] = 0x0f; /* protocol 2.15 */
	img[0x207] = 0x02;
	img[0x236] = 0x03; /* XLF_KERNEL_64 | XLF_CAN_BE_LOADED_ABOVE_4G */
	fd = tmpfile_with(img, sizeof(img));
	CHECK(kexec_check_bzimage(fd) == 0);
	close(fd);

	img[0x236] = 0x02;
	fd = tmpfile_with(img, sizeof(img));
	CHECK(kexec_check_bzimage(fd) == -ENOEXEC);
	close(fd);

	img[0x236] = 0x03;
	img[0x206] = 0x0b; /* 2.11: too old */
	fd = tmpfile_with(img, sizeof(img));
	CHECK(kexec_check_bzimage(fd) == -ENOEXEC);
	close(fd);

	img[0x206] = 0x0f;
	img[0x202] = 'X';
	fd = tmpfile_with(img, sizeof(img));
	CHECK(kexec_check_bzimage(fd) == -ENOEXEC);
	close(fd);

	fd = tmpfile_with(img, 0x100); /* truncated */
	CHECK(kexec_check_bzimage(fd) == -ENOEXEC);
	close(fd);
}

static void test_initramfs_check(void)
{
	static const unsigned char gz[16] = { 0x1f, 0x8b, 8 };
	static const unsigned char cpio[16] = "070701000000";
	static const unsigned char text[16] = "#!/bin/sh\necho";
	int fd;

	fd = tmpfile_with(gz, sizeof(gz));
	CHECK(kexec_check_initramfs(fd) == 0);
	close(fd);
	fd = tmpfile_with(cpio, sizeof(cpio));
	CHECK(kexec_check_initramfs(fd) == 0);
	close(fd);
	fd = tmpfile_with(text, sizeof(text));
	CHECK(kexec_check_initramfs(fd) == -EINVAL);
	close(fd);
	fd = tmpfile_with(gz, 1);
	CHECK(kexec_check_initramfs(fd) == -EINVAL);
	close(fd);
}

int main(void)
{
	test_errno_mapping();
	test_bzimage_check();
	test_initramfs_check();
	return tests_done();
}
