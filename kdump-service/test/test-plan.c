// SPDX-License-Identifier: GPL-2.0
/*
 * The load plan: a failure leaves its message in the plan and prints
 * nothing; why a file is refused; what the initramfs is to the next load.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "plan.h"
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

int main(void)
{
	test_kver_missing();
	test_kver_with_kernel();
	test_violation_text();
	test_initramfs_state();
	test_dump_base();
	return tests_done();
}
