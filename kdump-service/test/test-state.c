// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>

#include "state.h"
#include "tests.h"

#define BOOT1 "0b9e2f7c-1d2a-4c55-9a4e-3f6d2c1b0a99"
#define BOOT2 "5e1c7a20-88d4-4b0f-a6c3-2d9e4f1a7b01"

static void test_loaded(void)
{
	struct loaded_state s;
	char buf[256];

	CHECK(loaded_format("/boot/vmlinuz-6.1.0", "/var/lib/kdump-file/initramfs-6.1.0.img",
			    "console=ttyS0 irqpoll nr_cpus=1", buf, sizeof(buf)) == 0);
	CHECK(loaded_parse(buf, &s) == 0);
	CHECK(strcmp(s.kernel, "/boot/vmlinuz-6.1.0") == 0);
	CHECK(strcmp(s.initramfs, "/var/lib/kdump-file/initramfs-6.1.0.img") == 0);
	CHECK(strcmp(s.cmdline, "console=ttyS0 irqpoll nr_cpus=1") == 0);
	/* As read_line_file() returns it: the last newline gone. */
	buf[strlen(buf) - 1] = '\0';
	CHECK(loaded_parse(buf, &s) == 0);
	CHECK(strcmp(s.cmdline, "console=ttyS0 irqpoll nr_cpus=1") == 0);
	/* Empty values where they may be. */
	CHECK(loaded_parse("kernel=/k\ninitramfs=\ncmdline=\n", &s) == 0);
	CHECK(s.initramfs[0] == '\0' && s.cmdline[0] == '\0');
	/* Incomplete or foreign. */
	CHECK(loaded_parse("kernel=\ninitramfs=/i\ncmdline=x\n", &s) == -EINVAL);
	CHECK(loaded_parse("kernel=/k\ncmdline=x\n", &s) == -EINVAL);
	CHECK(loaded_parse("initramfs=/i\ncmdline=x\n", &s) == -EINVAL);
	CHECK(loaded_parse("", &s) == -EINVAL);
	CHECK(loaded_parse("kernelx=/k\ninitramfs=/i\ncmdline=x\n", &s) == -EINVAL);
	CHECK(loaded_format("/k", "/i", "c", buf, 10) == -ENOBUFS);
}

static void test_armed(void)
{
	struct armed a;
	char buf[256];

	CHECK(armed_format(BOOT1, 1767225600, NULL, "/boot/vmlinuz-6.1.0", buf,
			   sizeof(buf)) == 0);
	CHECK(strcmp(buf, "boot=" BOOT1 " time=1767225600 kernel=/boot/vmlinuz-6.1.0\n") == 0);
	CHECK(armed_parse(buf, &a) == 0);
	CHECK(strcmp(a.boot, BOOT1) == 0 && a.time == 1767225600 &&
	      a.pstore[0] == '\0' &&
	      strcmp(a.kernel, "/boot/vmlinuz-6.1.0") == 0);
	CHECK(armed_format(BOOT2, 5, "", NULL, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "boot=" BOOT2 " time=5\n") == 0);
	CHECK(armed_parse("boot=" BOOT2 " time=5", &a) == 0);
	CHECK(a.kernel[0] == '\0' && a.pstore[0] == '\0' && a.time == 5);

	/* The pstore backend the capture had, with and without kernel=. */
	CHECK(armed_format(BOOT1, 7, "efi_pstore", "/boot/vmlinuz 6.1", buf,
			   sizeof(buf)) == 0);
	CHECK(strcmp(buf, "boot=" BOOT1 " time=7 pstore=efi_pstore kernel=/boot/vmlinuz 6.1\n") == 0);
	CHECK(armed_parse(buf, &a) == 0);
	CHECK(strcmp(a.pstore, "efi_pstore") == 0 &&
	      strcmp(a.kernel, "/boot/vmlinuz 6.1") == 0);
	CHECK(armed_format(BOOT1, 7, "ramoops", NULL, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "boot=" BOOT1 " time=7 pstore=ramoops\n") == 0);
	CHECK(armed_parse(buf, &a) == 0);
	CHECK(strcmp(a.pstore, "ramoops") == 0 && a.kernel[0] == '\0');
	CHECK(armed_format(BOOT1, 7, "efi_pstore (built in)", NULL, buf,
			   sizeof(buf)) == -EINVAL);

	/* Damaged or hostile records are not records. */
	CHECK(armed_parse("", &a) == -EINVAL);
	CHECK(armed_parse("boot= time=5\n", &a) == -EINVAL);
	CHECK(armed_parse("boot=" BOOT1 "\n", &a) == -EINVAL);
	CHECK(armed_parse("boot=" BOOT1 " time=\n", &a) == -EINVAL);
	CHECK(armed_parse("boot=" BOOT1 " time=-5\n", &a) == -EINVAL);
	CHECK(armed_parse("boot=" BOOT1 " time=99999999999999999999999\n", &a) == -EINVAL);
	CHECK(armed_parse("boot=" BOOT1 " time=5x\n", &a) == -EINVAL);
	CHECK(armed_parse("boot=" BOOT1 " time=5 kernel=\n", &a) == -EINVAL);
	CHECK(armed_parse("boot=../../etc time=5\n", &a) == -EINVAL);
	CHECK(armed_parse("boot=0123456789012345678901234567890123456789012345678901234567890123456789 time=5\n",
			  &a) == -EINVAL);
	CHECK(armed_parse("boot=" BOOT1 " time=5\ntrailing\n", &a) == -EINVAL);
	CHECK(armed_parse("boot=" BOOT1 " time=5 pstore=\n", &a) == -EINVAL);
	CHECK(armed_parse("boot=" BOOT1 " time=5 pstore= kernel=/k\n", &a) == -EINVAL);
	CHECK(armed_parse("boot=" BOOT1 " time=5 pstore=../x\n", &a) == -EINVAL);
	CHECK(armed_parse("boot=" BOOT1 " time=5 pstore=efi\033[2J\n", &a) == -EINVAL);
	CHECK(armed_parse("boot=" BOOT1 " time=5 pstore=a_backend_name_longer_than_it_may_be\n",
			  &a) == -EINVAL);
	CHECK(armed_parse("boot=" BOOT1 " time=5 kernel=/k pstore=ramoops\n", &a) == 0);
	CHECK(a.pstore[0] == '\0');
}

static void test_verdict(void)
{
	const char *m = "boot=" BOOT1 " time=1000 kernel=/boot/vmlinuz\n";
	struct armed a;

	/* No marker, an unreadable one, or this boot's own: nothing to say. */
	CHECK(crash_verdict(NULL, BOOT2, -1, &a) == CRASH_NONE);
	CHECK(crash_verdict("garbage", BOOT2, -1, &a) == CRASH_NONE);
	CHECK(crash_verdict(m, BOOT1, -1, &a) == CRASH_NONE);
	CHECK(crash_verdict(m, "", -1, &a) == CRASH_NONE);
	/* Another boot: a dump from then on saved it. */
	CHECK(crash_verdict(m, BOOT2, 1000, &a) == CRASH_SAVED);
	CHECK(crash_verdict(m, BOOT2, 2000, &a) == CRASH_SAVED);
	CHECK(strcmp(a.boot, BOOT1) == 0 && a.time == 1000);
	/* No dump at all, or only older ones: lost. */
	CHECK(crash_verdict(m, BOOT2, -1, &a) == CRASH_LOST);
	CHECK(crash_verdict(m, BOOT2, 999, &a) == CRASH_LOST);
	CHECK(crash_verdict(m, BOOT2, 999, NULL) == CRASH_LOST);

	/* A lost record stays until a complete dump at or after it. */
	CHECK(lost_is_current(&a, -1));
	CHECK(lost_is_current(&a, 999));
	CHECK(!lost_is_current(&a, 1000));
	CHECK(!lost_is_current(&a, 5000));
}

static void test_describe(void)
{
	struct armed a = { .boot = BOOT1, .time = 1767225600 };
	char buf[1024];

	CHECK(lost_describe(&a, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "boot " BOOT1 " (armed 2026-01-01T00:00:00Z) ended without a clean shutdown while the capture kernel was loaded, and no dump from it was saved: if it crashed, the capture failed (a crashkernel= reservation too small for the capture is the usual cause: see 'kdump-file estimate'; the capture kernel's console shows why)") == 0);
	CHECK(lost_describe(&a, buf, 40) == -ENOBUFS);

	/*
	 * The capture had a pstore backend and left nothing there: it never
	 * ran far enough, purgatory's refusal of a damaged image named.
	 */
	snprintf(a.pstore, sizeof(a.pstore), "efi_pstore");
	CHECK(lost_describe(&a, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "boot " BOOT1 " (armed 2026-01-01T00:00:00Z) ended without a clean shutdown while the capture kernel was loaded, and no dump from it was saved: if it crashed, no capture kernel left a record in pstore (efi_pstore): it never started, or stopped before it could record; purgatory refuses a capture kernel damaged after the load (a stray write into the crashkernel= reservation), and a reservation too small for it to boot has the same effect (see 'kdump-file estimate'); 'kdump-file reload' loads a fresh copy, and 'kdump-file test' with the console or serial log watched shows where it stops") == 0);
	snprintf(a.pstore, sizeof(a.pstore), "ramoops");
	CHECK(lost_describe(&a, buf, sizeof(buf)) == 0);
	CHECK(strstr(buf, "no capture kernel left a record in pstore (ramoops)"));
	CHECK(lost_describe(&a, buf, 200) == -ENOBUFS);
}

int main(void)
{
	test_loaded();
	test_armed();
	test_verdict();
	test_describe();
	return tests_done();
}
