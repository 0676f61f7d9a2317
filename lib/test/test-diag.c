// SPDX-License-Identifier: GPL-2.0
/* The failure carrier: first failure wins, context, warnings, cuts. */
#include <errno.h>
#include <string.h>

#include "diag.h"
#include "tests.h"

static int fails_deep(struct diag *d)
{
	return diag_fail(d, -ENOENT, "%s: no such dump directory", "/var/crash");
}

static int fails_above(struct diag *d)
{
	int r = fails_deep(d);

	if (r < 0) {
		/* A second failure on the way up keeps the cause. */
		(void)diag_fail(d, -EIO, "something else");
		diag_prefix(d, "checking the dump target");
	}
	return r;
}

static void test_first_wins(void)
{
	struct diag d = DIAG_INIT;

	CHECK(!diag_failed(&d));
	CHECK(strcmp(diag_text(&d), "") == 0);
	CHECK(fails_above(&d) == -ENOENT);
	CHECK(diag_failed(&d));
	CHECK(d.error == -ENOENT);
	CHECK(strcmp(diag_text(&d),
		     "checking the dump target: /var/crash: no such dump directory") == 0);
	diag_clear(&d);
	CHECK(!diag_failed(&d) && d.msg[0] == '\0');
	/* No diag: the errno alone travels. */
	CHECK(fails_above(NULL) == -ENOENT);
	/* A non-negative error is a caller's slip: still a failure. */
	CHECK(diag_fail(&d, 0, "x") == -EINVAL && d.error == -EINVAL);
}

static void test_errno_only(void)
{
	struct diag d = DIAG_INIT;

	CHECK(diag_fail(&d, -EACCES, NULL) == -EACCES);
	CHECK(strcmp(diag_text(&d), strerror(EACCES)) == 0);
	diag_prefix(&d, "opening %s", "/dev/sdz");
	CHECK(strncmp(diag_text(&d), "opening /dev/sdz: ", 18) == 0);
	CHECK(strcmp(diag_text(&d) + 18, strerror(EACCES)) == 0);
	/* No failure: a prefix adds nothing. */
	diag_clear(&d);
	diag_prefix(&d, "opening");
	CHECK(strcmp(diag_text(&d), "") == 0);
}

static void test_at(void)
{
	struct diag d = DIAG_INIT;

	CHECK(diag_fail_at(&d, -EINVAL, 7, "dump_level", "%d is over 31",
			   40) == -EINVAL);
	CHECK(d.line == 7 && strcmp(d.key, "dump_level") == 0);
	/* The second one keeps the first line and key too. */
	CHECK(diag_fail_at(&d, -EINVAL, 9, "path", "x") == -EINVAL);
	CHECK(d.line == 7 && strcmp(d.key, "dump_level") == 0);
	CHECK(strcmp(diag_text(&d), "40 is over 31") == 0);
}

static void test_warnings(void)
{
	struct diag d = DIAG_INIT, e = DIAG_INIT;
	unsigned int i;

	for (i = 0; i < DIAG_WARN_MAX + 3; i++)
		diag_warn(&d, "warning %u", i);
	CHECK(d.n_warnings == DIAG_WARN_MAX + 3);
	CHECK(strcmp(d.warnings[0], "warning 0") == 0);
	CHECK(strcmp(d.warnings[DIAG_WARN_MAX - 1], "warning 7") == 0);
	CHECK(!diag_failed(&d));
	diag_warn(&e, "own");
	diag_take_warnings(&e, &d);
	CHECK(e.n_warnings == DIAG_WARN_MAX + 4);
	CHECK(strcmp(e.warnings[0], "own") == 0);
	CHECK(strcmp(e.warnings[1], "warning 0") == 0);
	CHECK(strcmp(e.warnings[DIAG_WARN_MAX - 1], "warning 6") == 0);
	diag_warn(NULL, "nowhere");
}

static void test_take(void)
{
	struct diag to = DIAG_INIT, from = DIAG_INIT;

	/* Nothing failed: warnings only, and 0. */
	diag_warn(&from, "w1");
	CHECK(diag_take(&to, &from) == 0);
	CHECK(!diag_failed(&to) && to.n_warnings == 1);
	CHECK(diag_fail_at(&from, -EPERM, 3, "path", "unsafe") == -EPERM);
	CHECK(diag_take(&to, &from) == -EPERM);
	CHECK(to.error == -EPERM && to.line == 3);
	CHECK(strcmp(to.key, "path") == 0 && strcmp(to.msg, "unsafe") == 0);
	CHECK(to.n_warnings == 2);
	/* to's own failure stays. */
	diag_clear(&from);
	CHECK(diag_fail(&from, -EIO, "later") == -EIO);
	CHECK(diag_take(&to, &from) == -EIO);
	CHECK(strcmp(diag_text(&to), "unsafe") == 0);
	CHECK(diag_take(NULL, &from) == -EIO && diag_take(&to, NULL) == 0);
}

static void test_cut(void)
{
	static struct diag d;
	char big[DIAG_MSG_MAX + 100];
	size_t n;

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	/* A two-byte UTF-8 sequence across the cut stays whole. */
	memcpy(big + DIAG_MSG_MAX - 5, "\xc3\xa9", 2);
	CHECK(diag_fail(&d, -E2BIG, "%s", big) == -E2BIG);
	n = strlen(d.msg);
	CHECK(n < DIAG_MSG_MAX);
	CHECK(strcmp(d.msg + n - 3, "...") == 0);
	CHECK((unsigned char)d.msg[n - 4] != 0xc3);
	diag_warn(&d, "%s", big);
	CHECK(strlen(d.warnings[0]) == DIAG_WARN_LEN - 1);
	CHECK(strcmp(d.warnings[0] + DIAG_WARN_LEN - 4, "...") == 0);
}

int main(void)
{
	test_first_wins();
	test_errno_only();
	test_at();
	test_warnings();
	test_take();
	test_cut();
	return tests_done();
}
