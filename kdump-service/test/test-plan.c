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
#include "process.h"
#include "target.h"
#include "tests.h"
#include "util.h"

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
	CHECK(strstr(p.diag.msg, "--kver '0.0-no-such-kernel' is not an installed kernel") != NULL);
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
	CHECK(strstr(p.diag.msg, "'kernel' is set to '/boot/vmlinuz-test' in /etc/test.conf") != NULL);
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
	struct diag d = DIAG_INIT;

	/* Missing: the errno alone, the caller says it if it must. */
	CHECK(plan_check_dump_base("/nonexistent/dumps", "/etc/t.conf",
				   &d) == -ENOENT);
	CHECK(d.error == -ENOENT && d.msg[0] == '\0');
	diag_clear(&d);
	CHECK(plan_check_dump_base("/tmp", "/etc/t.conf", &d) == -EPERM);
	CHECK(strstr(d.msg, "dump directory /tmp is not safe") != NULL);
	CHECK(strstr(d.msg, "set another 'path' in /etc/t.conf") != NULL);
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
	CHECK(strstr(p.diag.msg, "is not safe") == NULL);
	CHECK(rmdir(c.path) == 0);
	/* Missing below a directory others may write: refused, not made. */
	CHECK(chmod(dir, 0777) == 0);
	CHECK(plan_make(&p, &c, &in) == -EPERM);
	CHECK(strstr(p.diag.msg, "is not safe") && strstr(p.diag.msg, dir));
	CHECK(access(c.path, F_OK) < 0);
	/* Existing and writable by others: refused. */
	CHECK(chmod(dir, 0700) == 0 && mkdir(c.path, 0700) == 0 &&
	      chmod(c.path, 01777) == 0);
	CHECK(plan_make(&p, &c, &in) == -EPERM);
	CHECK(strstr(p.diag.msg, "dump directory") && strstr(p.diag.msg, "1777"));
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
	CHECK(path_format(c.path, sizeof(c.path), "%s/dumps", via) == 0);
	CHECK(plan_make(&p, &c, &in) == -EPERM);
	CHECK(strstr(p.diag.msg, open_dir) != NULL);
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
	CHECK(path_format(p.conf.kernel, sizeof(p.conf.kernel), "%s",
			  kernel) == 0);
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
	CHECK(strstr(p.diag.warnings[0], "raw dump device /dev/vdb has no serial, WWID or partition UUID: the capture finds it as /dev/vdb, a kernel name that can change between boots, and checks only its size (1048576 bytes)") != NULL);
	CHECK(strstr(p.diag.warnings[0], "give the disk a serial number") != NULL);

	memset(&p, 0, sizeof(p));
	id = (struct target_identity){ .spec = "PARTUUID=6c9e0e9a-02",
				       .size = 1048576 };
	plan_raw_identity_warn(&p, "/dev/sda2", &id);
	CHECK(strstr(p.diag.warnings[0], "raw dump device /dev/sda2 is known by its partition UUID alone (6c9e0e9a-02, 1048576 bytes): its disk has no serial number or WWID") != NULL);
	CHECK(strstr(p.diag.warnings[0], "use a partition of a disk with a serial number") != NULL);

	memset(&p, 0, sizeof(p));
	snprintf(id.disk, sizeof(id.disk), "SERIAL=disk-1");
	plan_raw_identity_warn(&p, "/dev/vda2", &id);
	id = (struct target_identity){ .spec = "SERIAL=kdump-raw", .size = 1048576 };
	plan_raw_identity_warn(&p, "/dev/vdb", &id);
	id = (struct target_identity){ .spec = "WWID=naa.600140512345678",
				       .size = 1048576 };
	plan_raw_identity_warn(&p, "/dev/sdc", &id);
	CHECK(p.diag.n_warnings == 0);
}

/* Runs argv: false when it cannot or fails. */
static bool run_ok(char *const argv[])
{
	struct process_result r;

	return access(argv[0], X_OK) == 0 && process_run(argv, NULL, &r) == 0 &&
	       process_succeeded(&r);
}

/* mkdir -p of root/rel. */
static void mkdirs_under(const char *root, const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *s = path + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		(void)mkdir(path, 0755);
		*s = '/';
	}
	CHECK(mkdir(path, 0755) == 0 || errno == EEXIST);
}

/* A device at sysfs/bus/BUS/devices/NAME with this modalias. */
static void put_device(const char *sysfs, const char *bus, const char *name,
		       const char *modalias)
{
	char rel[PATH_MAX], dir[PATH_MAX + 16];

	snprintf(rel, sizeof(rel), "sys/bus/%s/devices/%s", bus, name);
	mkdirs_under(sysfs, rel);
	snprintf(dir, sizeof(dir), "%s/%s", sysfs, rel);
	test_put(dir, "modalias", modalias);
}

#define WDT_ALIAS "pci:v00008086d000025ABsv00001AF4sd00001100bc08sc80i00\n"
#define LPC_ALIAS "pci:v00008086d00002918sv00001AF4sd00001100bc06sc01i00\n"
#define MOD_ALIAS "pci:v00001234d00005678sv00000000sd00000000bc08sc80i00\n"

/*
 * The watchdog's driver from the hardware: a fixture kernel with wdtfix
 * (kernel/drivers/watchdog/) and lpcfix (kernel/drivers/mfd/) built in,
 * wdtmod a loadable module under kernel/drivers/watchdog/; a fake sysfs
 * whose PCI devices' modaliases name them.  Before udev loaded anything
 * (no watchdog0) and after (watchdog0 on the same device), the same
 * driver; watchdog0 alone for a watchdog no modalias names.
 */
static void test_watchdog_driver(void)
{
	static const char modinfo[] =
		"lpcfix.alias=pci:v00008086d00002918sv*sd*bc*sc*i*\0"
		"wdtfix.alias=pci:v00008086d000025ABsv*sd*bc*sc*i*";
	static const char mod_src[] =
		"__attribute__((section(\".modinfo\"), used)) static const char mi[] = \"license=GPL\\0alias=pci:v00001234d00005678sv*sd*bc*sc*i*\";\n";
	char root[] = "/tmp/test-plan-wd.XXXXXX";
	char moddir[PATH_MAX], wdir[PATH_MAX + 32], sys[PATH_MAX];
	char path[PATH_MAX + 64], c[PATH_MAX + 16], ko[PATH_MAX + 64];
	char name[64] = "unset", confdir[PATH_MAX];
	char *depmod[] = { "/sbin/depmod", "-b", root, "6.1.0-wd", NULL };
	char *cc[] = { "/usr/bin/cc", "-c", "-o", ko, c, NULL };
	const char *config[] = { confdir, NULL };
	struct modload *km = NULL;
	FILE *f;

	CHECK(mkdtemp(root) != NULL);
	mkdirs_under(root, "lib/modules/6.1.0-wd/kernel/drivers/watchdog");
	mkdirs_under(root, "modprobe.d");
	snprintf(confdir, sizeof(confdir), "%s/modprobe.d", root);
	snprintf(moddir, sizeof(moddir), "%s/lib/modules/6.1.0-wd", root);
	snprintf(wdir, sizeof(wdir), "%s/kernel/drivers/watchdog", moddir);
	snprintf(sys, sizeof(sys), "%s/sys", root);
	test_put(moddir, "modules.builtin",
		 "kernel/drivers/mfd/lpcfix.ko\n"
		 "kernel/drivers/watchdog/wdtfix.ko\n");
	test_put(moddir, "modules.order",
		 "kernel/drivers/watchdog/wdtmod.ko\n");
	snprintf(path, sizeof(path), "%s/modules.builtin.modinfo", moddir);
	f = fopen(path, "we");
	CHECK(f != NULL);
	if (f) {
		fwrite(modinfo, 1, sizeof(modinfo), f);
		fclose(f);
	}
	snprintf(c, sizeof(c), "%s/wdtmod.c", root);
	snprintf(ko, sizeof(ko), "%s/wdtmod.ko", wdir);
	test_put(root, "wdtmod.c", mod_src);
	if (!run_ok(cc) || !run_ok(depmod)) {
		printf("no C compiler or depmod: the watchdog from the hardware skipped\n");
		CHECK(test_rm_rf(root) == 0);
		return;
	}
	CHECK(modload_new_config(moddir, config, &km) == 0 && km);
	if (!km) {
		CHECK(test_rm_rf(root) == 0);
		return;
	}

	/* No device, no watchdog0: none, ret untouched. */
	CHECK(plan_watchdog_driver(km, sys, name, sizeof(name)) == -ENOENT);
	CHECK(strcmp(name, "unset") == 0);

	/*
	 * Before udev: no watchdog0.  The LPC bridge sorts first, but its
	 * module is not a watchdog's; an unknown device resolves to
	 * nothing.
	 */
	put_device(root, "pci", "0000:00:01.0", LPC_ALIAS);
	put_device(root, "pci", "0000:00:02.0",
		   "pci:v0000FFFFd0000FFFFsv00000000sd00000000bc00sc00i00\n");
	put_device(root, "pci", "0000:00:03.0", WDT_ALIAS);
	CHECK(plan_watchdog_driver(km, sys, name, sizeof(name)) == 0);
	CHECK(strcmp(name, "wdtfix") == 0);

	/* After: watchdog0 on that device, the same answer. */
	mkdirs_under(root, "sys/class/watchdog/watchdog0");
	snprintf(path, sizeof(path), "%s/class/watchdog/watchdog0/device", sys);
	CHECK(symlink("../../../bus/pci/devices/0000:00:03.0", path) == 0);
	CHECK(plan_watchdog_driver(km, sys, name, sizeof(name)) == 0);
	CHECK(strcmp(name, "wdtfix") == 0);
	CHECK(plan_watchdog_driver(km, sys, name, 4) == -ENAMETOOLONG);

	/* A loadable watchdog module sorting first wins over the rest. */
	put_device(root, "pci", "0000:00:00.5", MOD_ALIAS);
	CHECK(plan_watchdog_driver(km, sys, name, sizeof(name)) == 0);
	CHECK(strcmp(name, "wdtmod") == 0);

	/*
	 * No device's modalias names a watchdog: watchdog0's, by the
	 * module of the driver whose name is its identity.
	 */
	CHECK(test_rm_rf(sys) == 0);
	mkdirs_under(root, "sys/class/watchdog/watchdog0");
	mkdirs_under(root, "sys/bus/platform/drivers/softfix");
	snprintf(path, sizeof(path), "%s/class/watchdog/watchdog0", sys);
	test_put(path, "identity", "softfix\n");
	snprintf(path, sizeof(path), "%s/bus/platform/drivers/softfix/module",
		 sys);
	CHECK(symlink("../../../../module/softfix", path) == 0);
	CHECK(plan_watchdog_driver(km, sys, name, sizeof(name)) == 0);
	CHECK(strcmp(name, "softfix") == 0);

	modload_free(km);
	CHECK(test_rm_rf(root) == 0);
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
	test_watchdog_driver();
	return tests_done();
}
