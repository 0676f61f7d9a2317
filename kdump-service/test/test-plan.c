// SPDX-License-Identifier: GPL-2.0
/*
 * The load plan: a failure leaves its message in the plan and prints
 * nothing; why a file is refused; what the initramfs is to the next load.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "plan.h"
#include "target.h"
#include "tests.h"

static struct plan p;

/* --kver of a kernel not installed: refused, said in the plan. */
static void test_kver_missing(void)
{
	const struct plan_input in = {
		.config = "/etc/test.conf", .kver = "0.0-no-such-kernel",
	};
	struct kdump_conf c;

	conf_init(&c);
	CHECK(plan_make(&p, &c, &in) == -ENOENT);
	CHECK(strstr(p.error, "--kver '0.0-no-such-kernel' is not an installed kernel") != NULL);
	CHECK(strcmp(p.config, "/etc/test.conf") == 0);
}

/* --kver with a fixed 'kernel': refused, the configuration file named. */
static void test_kver_with_kernel(void)
{
	struct plan_input in = { .config = "/etc/test.conf" };
	char moddir[PATH_MAX];
	struct kdump_conf c;
	struct utsname u;

	/* The running kernel's release, if its modules are installed. */
	if (uname(&u) < 0)
		return;
	snprintf(moddir, sizeof(moddir), "/lib/modules/%s", u.release);
	if (access(moddir, F_OK) < 0) {
		printf("skip --kver with 'kernel': no %s\n", moddir);
		return;
	}
	in.kver = u.release;
	conf_init(&c);
	snprintf(c.kernel, sizeof(c.kernel), "/boot/vmlinuz-test");
	CHECK(plan_make(&p, &c, &in) == -EINVAL);
	CHECK(strstr(p.error, "'kernel' is set to '/boot/vmlinuz-test' in /etc/test.conf") != NULL);
}

static void test_violation_text(void)
{
	struct input_violation bad = { .fault = INPUT_FOREIGN_OWNER, .uid = 1000 };

	CHECK(strcmp(plan_violation_text(&bad), "owned by uid 1000") == 0);
	bad.fault = INPUT_WORLD_WRITABLE;
	CHECK(strcmp(plan_violation_text(&bad), "world-writable") == 0);
	bad.fault = INPUT_GROUP_WRITABLE;
	CHECK(strcmp(plan_violation_text(&bad), "group-writable") == 0);
	bad.fault = INPUT_NOT_REGULAR;
	CHECK(strcmp(plan_violation_text(&bad), "not a regular file") == 0);
}

/* A configured initramfs is the user's: the plan says so, builds none. */
static void test_initramfs_state(void)
{
	memset(&p, 0, sizeof(p));
	p.initramfs_managed = false;
	CHECK(strcmp(plan_initramfs_state(&p), "set in the configuration") == 0);
	p.initramfs_managed = true;
	snprintf(p.initramfs, sizeof(p.initramfs), "/nonexistent/initramfs.img");
	CHECK(strcmp(plan_initramfs_state(&p), "not built: the next load builds it") == 0);
}

/* An unsafe dump directory: the message, no print. */
static void test_dump_base(void)
{
	char msg[PATH_MAX * 2];

	CHECK(plan_check_dump_base("/nonexistent/dumps", "/etc/t.conf", msg,
				   sizeof(msg)) == -ENOENT);
	CHECK(msg[0] == '\0');
	CHECK(plan_check_dump_base("/tmp", "/etc/t.conf", msg, sizeof(msg)) == -EPERM);
	CHECK(strstr(msg, "dump directory /tmp is not safe") != NULL);
	CHECK(strstr(msg, "set another 'path' in /etc/t.conf") != NULL);
}

/*
 * A raw dump device's 'path', where recover writes: load (create) makes
 * it root's alone, and refuses one others may write or could make first.
 * The device itself is not attached: looked for in the capture.
 */
static void test_raw_path(void)
{
	struct plan_input in = { .config = "/etc/t.conf", .create = true };
	char dir[] = "/tmp/test-plan-raw.XXXXXX", path[PATH_MAX];
	struct kdump_conf c;
	struct stat st;

	if (!mkdtemp(dir))
		return;
	conf_init(&c);
	snprintf(c.raw, sizeof(c.raw), "/dev/kdump-file-test-no-such-raw");
	snprintf(c.path, sizeof(c.path), "%s/dumps", dir);
	/* Missing: made, 0700. */
	(void)plan_make(&p, &c, &in);
	CHECK(stat(c.path, &st) == 0 && S_ISDIR(st.st_mode) &&
	      (st.st_mode & 07777) == 0700);
	CHECK(strstr(p.error, "is not safe") == NULL);
	CHECK(rmdir(c.path) == 0);
	/* Missing below a directory others may write: refused, not made. */
	CHECK(chmod(dir, 0777) == 0);
	CHECK(plan_make(&p, &c, &in) == -EPERM);
	CHECK(strstr(p.error, "is not safe") && strstr(p.error, dir));
	CHECK(access(c.path, F_OK) < 0);
	/* Existing and writable by others: refused. */
	CHECK(chmod(dir, 0700) == 0 && mkdir(c.path, 0700) == 0 &&
	      chmod(c.path, 01777) == 0);
	CHECK(plan_make(&p, &c, &in) == -EPERM);
	CHECK(strstr(p.error, "dump directory") && strstr(p.error, "1777"));
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	CHECK(system(path) == 0);
}

/*
 * A local dump directory below a link to a directory others may write:
 * load refuses it and makes nothing there (it used to make it first).
 */
static void test_local_path_link(void)
{
	struct plan_input in = { .config = "/etc/t.conf", .create = true };
	char dir[] = "/tmp/test-plan-link.XXXXXX", open_dir[PATH_MAX],
	     via[PATH_MAX], made[PATH_MAX], cmd[PATH_MAX];
	struct kdump_conf c;

	if (!mkdtemp(dir))
		return;
	snprintf(open_dir, sizeof(open_dir), "%s/open", dir);
	snprintf(via, sizeof(via), "%s/via", dir);
	snprintf(made, sizeof(made), "%s/open/dumps", dir);
	CHECK(mkdir(open_dir, 0777) == 0 && chmod(open_dir, 0777) == 0);
	CHECK(symlink(open_dir, via) == 0);
	conf_init(&c);
	snprintf(c.path, sizeof(c.path), "%s/dumps", via);
	CHECK(plan_make(&p, &c, &in) == -EPERM);
	CHECK(strstr(p.error, open_dir) != NULL);
	CHECK(access(made, F_OK) < 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

/* A bzImage header load accepts, naming release when not NULL. */
static int make_bzimage(const char *path, const char *release)
{
	static unsigned char img[8192];
	int fd, ok;

	memset(img, 0, sizeof(img));
	memcpy(img + 0x202, "HdrS", 4);
	img[0x206] = 0x0c;	/* protocol 2.12 */
	img[0x207] = 0x02;
	img[0x236] = 0x03;	/* 64-bit entry, loads above 4G */
	if (release) {
		img[0x20e] = 0x00;	/* kernel_version: 0x0e00 + 0x200 */
		img[0x20f] = 0x0e;
		snprintf((char *)img + 0x1000, 128, "%s (test) #1", release);
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	ok = write(fd, img, sizeof(img)) == (ssize_t)sizeof(img);
	close(fd);
	return ok ? 0 : -EIO;
}

/*
 * plan_check(): what would stop a load, one line each, the first's errno
 * returned; nothing for a plan load would take.
 */
static void test_check(void)
{
	char dir[] = "/tmp/test-plan.XXXXXX", kernel[PATH_MAX];
	struct plan_problems pp;

	if (!mkdtemp(dir)) {
		CHECK(0);
		return;
	}
	memset(&p, 0, sizeof(p));
	snprintf(p.config, sizeof(p.config), "/etc/t.conf");
	snprintf(p.release, sizeof(p.release), "6.1.0-test");
	snprintf(p.kernel, sizeof(p.kernel), "%s/vmlinuz", dir);
	snprintf(p.initramfs, sizeof(p.initramfs), "%s/initramfs.img", dir);
	p.initramfs_managed = true;
	/* No kernel: named, with what to do. */
	CHECK(plan_check(&p, &pp) == -ENOENT);
	CHECK(pp.n == 1);
	CHECK(strstr(pp.text[0], "does not exist: install that kernel's package, or set 'kernel' in /etc/t.conf") != NULL);
	/* A kernel, the initramfs not built yet (load builds it): none. */
	CHECK(make_bzimage(p.kernel, "6.1.0-test") == 0);
	CHECK(plan_check(&p, &pp) == 0);
	CHECK(pp.n == 0);
	/* 'kernel' of another release than the initramfs kdump-file builds. */
	snprintf(kernel, sizeof(kernel), "%s/vmlinuz-other", dir);
	CHECK(make_bzimage(kernel, "6.2.0-other") == 0);
	snprintf(p.kernel, sizeof(p.kernel), "%s", kernel);
	snprintf(p.conf.kernel, sizeof(p.conf.kernel), "%s", kernel);
	CHECK(plan_check(&p, &pp) == -EINVAL);
	CHECK(pp.n == 1 && strstr(pp.text[0], "is release 6.2.0-other, but the capture initramfs kdump-file builds holds the modules of 6.1.0-test") != NULL);
	/* ...which a configured initramfs made for it settles, if present. */
	p.initramfs_managed = false;
	CHECK(plan_check(&p, &pp) == -ENOENT);
	CHECK(pp.n == 1 && strstr(pp.text[0], "capture initramfs") != NULL);
	/* And an absent target, one line more. */
	snprintf(p.conf.target, sizeof(p.conf.target), "LABEL=gone");
	p.target_absent = true;
	CHECK(plan_check(&p, &pp) == -ENOENT);
	CHECK(pp.n == 2 && strstr(pp.text[1], "dump target LABEL=gone from /etc/t.conf is not attached") != NULL);
	/* Not a bzImage at all. */
	test_put(dir, "vmlinuz-text", "not a kernel");
	snprintf(p.kernel, sizeof(p.kernel), "%s/vmlinuz-text", dir);
	p.conf.kernel[0] = '\0';
	p.target_absent = false;
	p.initramfs_managed = true;
	CHECK(plan_check(&p, &pp) == -ENOEXEC);
	CHECK(pp.n == 1 && strstr(pp.text[0], "is not an x86_64 bzImage") != NULL);
	(void)test_rm_rf(dir);
}

/*
 * The raw dump device's identity as load records it: a kernel name, or a
 * partition UUID on a disk with no serial, is said to be weak, with what
 * to do; a serial, a WWID or a partition UUID with its disk's serial is
 * not.
 */
static void test_raw_identity_warn(void)
{
	struct target_identity id = { .spec = "/dev/vdb", .size = 1048576 };

	memset(&p, 0, sizeof(p));
	plan_raw_identity_warn(&p, "/dev/vdb", &id);
	CHECK(strstr(p.warnings, "raw dump device /dev/vdb has no serial, WWID or partition UUID: the capture finds it as /dev/vdb, a kernel name that can change between boots, and checks only its size (1048576 bytes)") != NULL);
	CHECK(strstr(p.warnings, "give the disk a serial number") != NULL);

	memset(&p, 0, sizeof(p));
	id = (struct target_identity){ .spec = "PARTUUID=6c9e0e9a-02",
				       .size = 1048576 };
	plan_raw_identity_warn(&p, "/dev/sda2", &id);
	CHECK(strstr(p.warnings, "raw dump device /dev/sda2 is known by its partition UUID alone (6c9e0e9a-02, 1048576 bytes): its disk has no serial number or WWID") != NULL);
	CHECK(strstr(p.warnings, "use a partition of a disk with a serial number") != NULL);

	memset(&p, 0, sizeof(p));
	snprintf(id.disk, sizeof(id.disk), "SERIAL=disk-1");
	plan_raw_identity_warn(&p, "/dev/vda2", &id);
	id = (struct target_identity){ .spec = "SERIAL=kdump-raw", .size = 1048576 };
	plan_raw_identity_warn(&p, "/dev/vdb", &id);
	id = (struct target_identity){ .spec = "WWID=naa.600140512345678",
				       .size = 1048576 };
	plan_raw_identity_warn(&p, "/dev/sdc", &id);
	CHECK(p.warnings[0] == '\0');
}

int main(void)
{
	test_kver_missing();
	test_kver_with_kernel();
	test_violation_text();
	test_initramfs_state();
	test_dump_base();
	test_raw_path();
	test_local_path_link();
	test_check();
	test_raw_identity_warn();
	return tests_done();
}
