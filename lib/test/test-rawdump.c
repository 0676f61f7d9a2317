// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>

#include "rawdump.h"
#include "tests.h"

#define DEV (64ULL << 20)

static int parse_text(const char *text, struct raw_header *h)
{
	return raw_header_parse(text, strlen(text), DEV, h);
}

static void test_roundtrip(void)
{
	struct raw_header a = { .state = RAW_COMPLETE, .time = 1796292108,
				.dmesg_off = 4096, .dmesg_len = 1000,
				.vmcore_off = 8192, .vmcore_len = 20 << 20 };
	struct raw_header b;
	char buf[RAW_HEADER_SIZE];

	strcpy(a.release, "6.1.192");
	CHECK(raw_header_format(&a, buf) == 0);
	CHECK(raw_header_parse(buf, sizeof(buf), DEV, &b) == 0);
	CHECK(b.state == RAW_COMPLETE && b.time == a.time);
	CHECK(strcmp(b.release, "6.1.192") == 0);
	CHECK(b.vmcore_len == a.vmcore_len && b.dmesg_off == 4096);
	/* The same header on a device too small for it. */
	CHECK(raw_header_parse(buf, sizeof(buf), 16 << 20, &b) == -ERANGE);
}

static void test_hostile(void)
{
	struct raw_header h;
	char zero[RAW_HEADER_SIZE] = { 0 };

	CHECK(raw_header_parse(zero, sizeof(zero), DEV, &h) == -ENODATA);
	CHECK(parse_text("KDUMP-FILE RAW 2\nstate=complete\n", &h) == -ENODATA);
	CHECK(parse_text(RAW_MAGIC, &h) == -EBADMSG);
	CHECK(parse_text(RAW_MAGIC "state=done\n", &h) == -EBADMSG);
	CHECK(parse_text(RAW_MAGIC "state=complete\nbogus\n", &h) == -EBADMSG);
	CHECK(parse_text(RAW_MAGIC "state=complete\nother=1\n", &h) == -EBADMSG);
	CHECK(parse_text(RAW_MAGIC "state=complete\ntime=-1\n", &h) == -EBADMSG);
	CHECK(parse_text(RAW_MAGIC "state=complete\nvmcore_len=1x\n", &h) == -EBADMSG);
	CHECK(parse_text(RAW_MAGIC "state=complete\nvmcore_off=0\nvmcore_len=10\n",
			 &h) == -ERANGE);
	CHECK(parse_text(RAW_MAGIC "state=complete\nvmcore_off=8192\n"
				   "vmcore_len=18446744073709551615\n", &h) == -ERANGE);
	CHECK(parse_text(RAW_MAGIC "state=complete\nvmcore_off=99999999999\n"
				   "vmcore_len=1\n", &h) == -ERANGE);
	CHECK(parse_text(RAW_MAGIC "state=writing\ntime=5\n", &h) == 0);
	CHECK(h.state == RAW_WRITING && h.vmcore_len == 0);
	CHECK(parse_text(RAW_MAGIC "state=complete\nrelease="
		"0123456789012345678901234567890123456789012345678901234567890123456789\n",
		&h) == -EBADMSG);
}

/* What a capture may write over: never an unrecovered dump, never a stranger's. */
static void test_may_write(void)
{
	struct raw_header a = { .state = RAW_COMPLETE, .time = 1796292108,
				.vmcore_off = 8192, .vmcore_len = 1 << 20 };
	struct raw_header old = { 0 };
	char buf[RAW_HEADER_SIZE], zero[RAW_HEADER_SIZE] = { 0 };

	/* An empty device, or one with nothing libblkid knows. */
	CHECK(raw_may_write(zero, sizeof(zero), DEV, "", false, false, NULL) == 0);
	CHECK(raw_may_write(zero, sizeof(zero), DEV, NULL, false, false, NULL) == 0);
	/* A filesystem or partition table: only when forced. */
	CHECK(raw_may_write(zero, sizeof(zero), DEV, "ext4", false, false, NULL) == -ENOTEMPTY);
	CHECK(raw_may_write(zero, sizeof(zero), DEV, "gpt", true, false, NULL) == -ENOTEMPTY);
	CHECK(raw_may_write(zero, sizeof(zero), DEV, "ext4", false, true, NULL) == 0);
	/* A complete dump not yet recovered: only when overwriting is chosen. */
	strcpy(a.release, "6.1.0-28-amd64");
	CHECK(raw_header_format(&a, buf) == 0);
	CHECK(raw_may_write(buf, sizeof(buf), DEV, "", false, false, &old) == -EEXIST);
	CHECK(old.time == a.time && strcmp(old.release, a.release) == 0);
	CHECK(raw_may_write(buf, sizeof(buf), DEV, "", false, true, NULL) == -EEXIST);
	CHECK(raw_may_write(buf, sizeof(buf), DEV, "", true, false, NULL) == 0);
	/* Recovered, failed or interrupted dumps are ours to replace. */
	for (enum raw_state s = RAW_WRITING; s <= RAW_RECOVERED; s++) {
		if (s == RAW_COMPLETE)
			continue;
		a.state = s;
		CHECK(raw_header_format(&a, buf) == 0);
		CHECK(raw_may_write(buf, sizeof(buf), DEV, "", false, false, NULL) == 0);
	}
	/* Our magic with a damaged header: nothing could recover it. */
	memset(buf, 0, sizeof(buf));
	strcpy(buf, RAW_MAGIC "state=complete\nvmcore_off=0\nvmcore_len=9\n");
	CHECK(raw_may_write(buf, sizeof(buf), DEV, "", false, false, NULL) == 0);
}

int main(void)
{
	test_roundtrip();
	test_hostile();
	test_may_write();
	return tests_done();
}
