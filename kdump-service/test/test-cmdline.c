// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>

#include "cmdline.h"
#include "tests.h"

static bool has_word(const char *s, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = s; (p = strstr(p, w)); p++)
		if ((p == s || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

static void test_basic(void)
{
	struct kdump_conf c;
	char buf[4096];
	int r;

	conf_init(&c);
	r = cmdline_build("BOOT_IMAGE=/vmlinuz root=/dev/vda rw console=ttyS0 crashkernel=256M quiet panic=-1",
			  &c, 1, buf, sizeof(buf));
	CHECK(r == (int)strlen(buf));
	CHECK(!strstr(buf, "crashkernel"));
	CHECK(!strstr(buf, "root="));
	CHECK(!has_word(buf, "rw"));
	CHECK(!strstr(buf, "panic=-1"));
	CHECK(has_word(buf, "console=ttyS0"));
	/* The first kernel's init programs are not the capture's /init. */
	r = cmdline_build("console=ttyS0 rdinit=/process_api init=/sbin/x", &c, 1, buf,
			  sizeof(buf));
	CHECK(r > 0 && !strstr(buf, "rdinit=") && !strstr(buf, "init=/sbin/x"));
	r = cmdline_build("BOOT_IMAGE=/vmlinuz root=/dev/vda rw console=ttyS0 crashkernel=256M quiet panic=-1",
			  &c, 1, buf, sizeof(buf));
	CHECK(has_word(buf, "quiet"));
	CHECK(has_word(buf, "BOOT_IMAGE=/vmlinuz"));
	CHECK(has_word(buf, "irqpoll"));
	CHECK(has_word(buf, "nr_cpus=1"));
	CHECK(has_word(buf, "reset_devices"));
	CHECK(has_word(buf, "panic=10"));
	CHECK(has_word(buf, "oops=panic"));
}

static void test_remove_append_and_quotes(void)
{
	struct kdump_conf c;
	char buf[4096];

	conf_init(&c);
	strcpy(c.cmdline_remove, "quiet splash");
	strcpy(c.cmdline_append, "loglevel=7");
	CHECK(cmdline_build("quiet  splash=1 dyndbg=\"file x.c +p\" crashkernel=1G-:256M nr_cpus=4 -- single",
			    &c, 1, buf, sizeof(buf)) > 0);
	CHECK(!has_word(buf, "quiet"));
	CHECK(!strstr(buf, "splash"));
	CHECK(strstr(buf, "dyndbg=\"file x.c +p\"") != NULL);
	CHECK(!strstr(buf, "nr_cpus=4"));
	CHECK(!strstr(buf, "single"));
	/* The user's parameters come last, so they win. */
	CHECK(strcmp(buf + strlen(buf) - strlen("loglevel=7"), "loglevel=7") == 0);
}

/* nr_cpus= for makedumpfile's threads; the user's own still wins. */
static void test_cpus(void)
{
	struct kdump_conf c;
	char buf[4096], one[4096];

	conf_init(&c);
	CHECK(cmdline_user_cpus(&c) == 0);
	CHECK(cmdline_build("console=ttyS0", &c, 1, one, sizeof(one)) > 0);
	CHECK(has_word(one, "nr_cpus=1") && !strstr(one, "nr_cpus=2"));
	CHECK(strstr(one, "irqpoll nr_cpus=1 reset_devices") != NULL);
	/* cpus 0 is taken as one. */
	CHECK(cmdline_build("console=ttyS0", &c, 0, buf, sizeof(buf)) > 0);
	CHECK(strcmp(buf, one) == 0);
	CHECK(cmdline_build("console=ttyS0 nr_cpus=8", &c, 2, buf,
			    sizeof(buf)) > 0);
	CHECK(has_word(buf, "nr_cpus=2") && !has_word(buf, "nr_cpus=1") &&
	      !has_word(buf, "nr_cpus=8"));
	CHECK(strstr(buf, "irqpoll nr_cpus=2 reset_devices") != NULL);
	CHECK(strlen(buf) == strlen(one));

	strcpy(c.cmdline_append, "loglevel=7 nr_cpus=3 x nr_cpus=4");
	CHECK(cmdline_user_cpus(&c) == 4);
	CHECK(cmdline_build("console=ttyS0", &c, 2, buf, sizeof(buf)) > 0);
	CHECK(strcmp(buf + strlen(buf) - strlen("nr_cpus=4"), "nr_cpus=4") == 0);
	strcpy(c.cmdline_append, "nr_cpus= nr_cpusx=2");
	CHECK(cmdline_user_cpus(&c) == 0);
}

static void test_too_long(void)
{
	struct kdump_conf c;
	char running[3000], buf[8192];

	conf_init(&c);
	memset(running, 'x', sizeof(running) - 1);
	running[sizeof(running) - 1] = '\0';
	CHECK(cmdline_build(running, &c, 1, buf, sizeof(buf)) == -E2BIG);
	CHECK(cmdline_build("a b c", &c, 1, buf, 8) == -ENOBUFS);
	/* Exactly at the limit is fine; one byte more is not. */
	{
		char base[4096];
		int len0, room;

		CHECK((len0 = cmdline_build("", &c, 1, base, sizeof(base))) > 0);
		room = CMDLINE_KERNEL_MAX - 1 - CMDLINE_ELFCOREHDR_RESERVE -
		       len0 - 1;
		memset(running, 'y', room);
		running[room] = '\0';
		CHECK(cmdline_build(running, &c, 1, buf, sizeof(buf)) ==
		      CMDLINE_KERNEL_MAX - 1 - CMDLINE_ELFCOREHDR_RESERVE);
		running[room] = 'y';
		running[room + 1] = '\0';
		CHECK(cmdline_build(running, &c, 1, buf, sizeof(buf)) == -E2BIG);
	}
}

static void test_add(void)
{
	char buf[CMDLINE_KERNEL_MAX * 2] = "";
	char tok[CMDLINE_KERNEL_MAX];

	CHECK(cmdline_add(buf, sizeof(buf), "a=1") == 0);
	CHECK(strcmp(buf, "a=1") == 0);
	CHECK(cmdline_add(buf, sizeof(buf), CONF_CMDLINE_CAPTURE_TIMEOUT "=300") == 0);
	CHECK(strcmp(buf, "a=1 kdump_file.capture_timeout=300") == 0);
	/* No room for elfcorehdr= after it: refused, buf unchanged. */
	memset(tok, 'z', sizeof(tok) - 1);
	tok[CMDLINE_KERNEL_MAX - CMDLINE_ELFCOREHDR_RESERVE - (int)strlen(buf) - 1] = '\0';
	CHECK(cmdline_add(buf, sizeof(buf), tok) == -E2BIG);
	CHECK(strcmp(buf, "a=1 kdump_file.capture_timeout=300") == 0);
	/* A buffer too small for the result: refused too. */
	{
		char small[8] = "abc";

		CHECK(cmdline_add(small, sizeof(small), "defg") == -E2BIG);
		CHECK(strcmp(small, "abc") == 0);
	}
}

int main(void)
{
	test_basic();
	test_remove_append_and_quotes();
	test_cpus();
	test_too_long();
	test_add();
	return tests_done();
}
