// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
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
	/* No fixed size: setup measures what the capture needs. */
	CHECK(strstr(buf, "kdump-file setup") != NULL);
	CHECK(strstr(buf, "256M") == NULL);
	explain(ENOEXEC, &ctx, buf);
	CHECK(strstr(buf, "bzImage") != NULL);
	explain(EBUSY, &ctx, buf);
	CHECK(strstr(buf, "kept the kernel busy for 5 s") != NULL);
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
	img[0x1f1] = 1; /* setup: 2 sectors, payload (syssize) 0 */
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

	/* A payload the header announces but the file does not hold. */
	img[0x202] = 'H';
	img[0x1f4] = 0x11; /* 17 paragraphs: 272 bytes after the setup */
	fd = tmpfile_with(img, sizeof(img));
	CHECK(kexec_check_bzimage(fd) == -EBADMSG);
	close(fd);
	img[0x1f4] = 0x10; /* 256: 1024 + 256 > 1024 still */
	fd = tmpfile_with(img, sizeof(img));
	CHECK(kexec_check_bzimage(fd) == -EBADMSG);
	close(fd);
	img[0x1f1] = 0; /* 0 means 4 sectors: 2560 bytes */
	img[0x1f4] = 0;
	fd = tmpfile_with(img, sizeof(img));
	CHECK(kexec_check_bzimage(fd) == -EBADMSG);
	close(fd);
	img[0x1f1] = 1;
	img[0x1f7] = 0xff; /* a hostile size does not overflow */
	fd = tmpfile_with(img, sizeof(img));
	CHECK(kexec_check_bzimage(fd) == -EBADMSG);
	close(fd);
	img[0x1f7] = 0;
	fd = tmpfile_with(img, sizeof(img)); /* exact size: fine */
	CHECK(kexec_check_bzimage(fd) == 0);
	close(fd);
}

/*
 * A synthetic EFI-stub image: MZ, the PE header at 0x80, a PE32+ optional
 * header with 16 data directories, the certificate table at index 4.
 */
#define T_LFANEW 0x80
#define T_OPT (T_LFANEW + 24)
#define T_CERTDIR (T_OPT + 112 + 4 * 8)

static void le32_put(unsigned char *p, unsigned int v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static void pe_image(unsigned char *img, size_t size, unsigned int cert_off,
		     unsigned int cert_len)
{
	memset(img, 0, size);
	img[0] = 'M';
	img[1] = 'Z';
	le32_put(img + 0x3c, T_LFANEW);
	memcpy(img + T_LFANEW, "PE\0\0", 4);
	img[T_LFANEW + 4 + 16] = 0xf0; /* SizeOfOptionalHeader: 240 */
	img[T_OPT] = 0x0b;
	img[T_OPT + 1] = 0x02;	/* PE32+ */
	img[T_OPT + 108] = 16;	/* NumberOfRvaAndSizes */
	le32_put(img + T_CERTDIR, cert_off);
	le32_put(img + T_CERTDIR + 4, cert_len);
	if (cert_len >= 8 && cert_off + 8 <= size) {
		le32_put(img + cert_off, cert_len);
		img[cert_off + 5] = 0x02; /* revision 0x0200 */
		img[cert_off + 6] = 0x02; /* WIN_CERT_TYPE_PKCS_SIGNED_DATA */
	}
}

static int signature_of(const unsigned char *img, size_t len)
{
	int fd = tmpfile_with(img, len), r;

	r = kexec_image_signature(fd);
	close(fd);
	return r;
}

static void test_pe_signature(void)
{
	unsigned char img[0x400];

	pe_image(img, sizeof(img), 0, 0);
	CHECK(signature_of(img, sizeof(img)) == KEXEC_SIG_UNSIGNED);
	pe_image(img, sizeof(img), 0x300, 0x100);
	CHECK(signature_of(img, sizeof(img)) == KEXEC_SIG_SIGNED);
	/* PE32: the directories 16 bytes earlier. */
	pe_image(img, sizeof(img), 0, 0);
	img[T_OPT] = 0x0b;
	img[T_OPT + 1] = 0x01;
	img[T_OPT + 92] = 16;
	le32_put(img + T_OPT + 96 + 4 * 8, 0x300);
	le32_put(img + T_OPT + 96 + 4 * 8 + 4, 0x100);
	le32_put(img + 0x300, 0x100);
	img[0x305] = 0x02;
	img[0x306] = 0x02;
	CHECK(signature_of(img, sizeof(img)) == KEXEC_SIG_SIGNED);

	/* Without a PE header it cannot carry a signature. */
	memset(img, 0, sizeof(img));
	CHECK(signature_of(img, sizeof(img)) == KEXEC_SIG_UNSIGNED);
	pe_image(img, sizeof(img), 0, 0);
	img[T_LFANEW] = 'X';
	CHECK(signature_of(img, sizeof(img)) == KEXEC_SIG_UNSIGNED);
	/* Too few data directories, or an optional header too short. */
	pe_image(img, sizeof(img), 0x300, 0x100);
	img[T_OPT + 108] = 4;
	CHECK(signature_of(img, sizeof(img)) == KEXEC_SIG_UNSIGNED);
	pe_image(img, sizeof(img), 0x300, 0x100);
	img[T_LFANEW + 4 + 16] = 0x90;
	CHECK(signature_of(img, sizeof(img)) == KEXEC_SIG_UNSIGNED);

	/* Truncated. */
	pe_image(img, sizeof(img), 0x300, 0x100);
	CHECK(signature_of(img, 0x20) == -EBADMSG);
	CHECK(signature_of(img, T_LFANEW + 10) == -EBADMSG);
	CHECK(signature_of(img, T_CERTDIR + 4) == -EBADMSG);
	CHECK(signature_of(img, 0x380) == -EBADMSG);
	/* Hostile offsets and sizes. */
	pe_image(img, sizeof(img), 0x300, 0x100);
	le32_put(img + 0x3c, 0xffffffff);
	CHECK(signature_of(img, sizeof(img)) == -EBADMSG);
	le32_put(img + 0x3c, 0x3fc);
	CHECK(signature_of(img, sizeof(img)) == -EBADMSG);
	pe_image(img, sizeof(img), 0xffffff00, 0x200);
	CHECK(signature_of(img, sizeof(img)) == -EBADMSG);
	pe_image(img, sizeof(img), 0x300, 0xffffffff);
	CHECK(signature_of(img, sizeof(img)) == -EBADMSG);
	pe_image(img, sizeof(img), 0x300, 4);
	CHECK(signature_of(img, sizeof(img)) == -EBADMSG);
	pe_image(img, sizeof(img), 0x300, 0x100);
	le32_put(img + 0x300, 0x1000); /* longer than the table */
	CHECK(signature_of(img, sizeof(img)) == -EBADMSG);
	pe_image(img, sizeof(img), 0x300, 0x100);
	img[0x306] = 0x01; /* an X.509 certificate, not a signature */
	CHECK(signature_of(img, sizeof(img)) == -EBADMSG);
	pe_image(img, sizeof(img), 0, 0);
	img[T_OPT + 1] = 0x07; /* unknown optional header */
	CHECK(signature_of(img, sizeof(img)) == -EBADMSG);
}

static void test_signature_explanations(void)
{
	struct kexec_context ctx = { .is_root = true, .lockdown = "integrity",
				     .signed_state = KEXEC_SIG_UNSIGNED };
	char buf[1024];

	kexec_explain(EPERM, &ctx, buf, sizeof(buf));
	CHECK(strstr(buf, "the capture kernel image is not signed") != NULL);
	CHECK(strstr(buf, "lockdown (integrity) requires a signed image: sign it with sbsign using a key the running kernel trusts") != NULL);
	kexec_explain(ENODATA, &ctx, buf, sizeof(buf));
	CHECK(strstr(buf, "the capture kernel image is not signed") != NULL);
	kexec_explain(EBADMSG, &ctx, buf, sizeof(buf));
	CHECK(strstr(buf, "lockdown (integrity) requires a signed image") != NULL);

	ctx.signed_state = KEXEC_SIG_SIGNED;
	kexec_explain(EPERM, &ctx, buf, sizeof(buf));
	CHECK(strstr(buf, "the capture kernel image is signed, but not by a key the running kernel trusts") != NULL);
	CHECK(strstr(buf, "CONFIG_SYSTEM_TRUSTED_KEYS") != NULL);
	CHECK(strstr(buf, "lockdown (integrity)") != NULL);
	kexec_explain(ENOKEY, &ctx, buf, sizeof(buf));
	CHECK(strstr(buf, "signed, but not by a key the running kernel trusts") != NULL);
	kexec_explain(EKEYREJECTED, &ctx, buf, sizeof(buf));
	CHECK(strstr(buf, "signed, but not by a key the running kernel trusts") != NULL);

	/* Enforced without lockdown (CONFIG_KEXEC_SIG_FORCE). */
	ctx.lockdown = "none";
	kexec_explain(ENOKEY, &ctx, buf, sizeof(buf));
	CHECK(strstr(buf, "CONFIG_KEXEC_SIG_FORCE") != NULL);
	CHECK(strstr(buf, "lockdown") == NULL);
	ctx.signed_state = KEXEC_SIG_UNSIGNED;
	kexec_explain(ENODATA, &ctx, buf, sizeof(buf));
	CHECK(strstr(buf, "is not signed") != NULL);
	CHECK(strstr(buf, "CONFIG_KEXEC_SIG_FORCE") != NULL);
	/* EPERM without lockdown is not about signatures. */
	kexec_explain(EPERM, &ctx, buf, sizeof(buf));
	CHECK(strstr(buf, "security module") != NULL);
}

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1;	/* the directory's own */
}

/*
 * The scrub writes what it is asked for (in whole pipes), never more than
 * its cap, and leaves no descriptor open, also when it runs out of them.
 */
static void test_scrub(void)
{
	int fds = open_fds();
	long long w;
	pid_t pid;
	int st;

	CHECK(fds > 0);
	CHECK(kexec_scrub_freed(0) == 0);
	w = kexec_scrub_freed(3ULL << 20);
	CHECK(w >= 3LL << 20);
	CHECK(w < (3LL << 20) + SCRUB_PIPE_BYTES);
	CHECK(open_fds() == fds);
	w = kexec_scrub_freed(~0ULL);
	CHECK(w > 0 && w <= (long long)SCRUB_MAX_BYTES + SCRUB_PIPE_BYTES);
	CHECK(open_fds() == fds);

	/* Out of descriptors after two pipes: the error, nothing left open. */
	pid = fork();
	if (pid == 0) {
		struct rlimit rl = { .rlim_cur = fds + 5, .rlim_max = fds + 5 };
		int ok;

		if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
			_exit(2);
		w = kexec_scrub_freed(64ULL << 20);
		ok = w == -EMFILE && open_fds() == fds;
		_exit(ok ? 0 : 1);
	}
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* A kexec lock taken for busy_left calls, then result. */
struct busy_op {
	unsigned int calls;
	unsigned int busy_left;
	int result;
};

static int busy_op(void *arg)
{
	struct busy_op *b = arg;

	b->calls++;
	if (b->busy_left > 0) {
		b->busy_left--;
		return -EBUSY;
	}
	return b->result;
}

/*
 * EBUSY is tried again, tries times at most; any other answer, success
 * or error, ends it at once.
 */
static void test_busy_retry(void)
{
	struct busy_op b = { .busy_left = 3, .result = 0 };

	CHECK(kexec_busy_retry(busy_op, &b, 5, 0) == 0);
	CHECK(b.calls == 4);

	b = (struct busy_op){ .busy_left = 100, .result = 0 };
	CHECK(kexec_busy_retry(busy_op, &b, 5, 0) == -EBUSY);
	CHECK(b.calls == 5);

	b = (struct busy_op){ .busy_left = 1, .result = -ENOENT };
	CHECK(kexec_busy_retry(busy_op, &b, 5, 0) == -ENOENT);
	CHECK(b.calls == 2);

	b = (struct busy_op){ .busy_left = 0, .result = -EPERM };
	CHECK(kexec_busy_retry(busy_op, &b, 5, 1) == -EPERM);
	CHECK(b.calls == 1);

	/* tries 0 still makes the call once. */
	b = (struct busy_op){ .busy_left = 2, .result = 0 };
	CHECK(kexec_busy_retry(busy_op, &b, 0, 0) == -EBUSY);
	CHECK(b.calls == 1);
}

int main(void)
{
	test_busy_retry();
	test_scrub();
	test_errno_mapping();
	test_bzimage_check();
	test_pe_signature();
	test_signature_explanations();
	return tests_done();
}
