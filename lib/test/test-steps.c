// SPDX-License-Identifier: GPL-2.0
#include "steps.h"
#include "tests.h"

static void take(struct steps *s, const char *buf, size_t n)
{
	steps_take(s, buf, n);
}

int main(void)
{
	static const char all[] = "waiting for the dump target\0"
				  "@/kdump-target/crash/2026-12-04-16:00:00/metadata.json\0"
				  "saving the dmesg\0saving the vmcore\0";
	struct steps s;

	steps_init(&s);
	CHECK(strcmp(s.last, "starting") == 0 && s.meta[0] == '\0');
	/* All in one read. */
	take(&s, all, sizeof(all) - 1);
	CHECK(strcmp(s.last, "saving the vmcore") == 0);
	CHECK(strcmp(s.meta, "/kdump-target/crash/2026-12-04-16:00:00/metadata.json") == 0);
	/* Byte by byte, and in every split of two reads: the same result. */
	for (size_t cut = 0; cut <= sizeof(all) - 1; cut++) {
		steps_init(&s);
		take(&s, all, cut);
		take(&s, all + cut, sizeof(all) - 1 - cut);
		CHECK(strcmp(s.last, "saving the vmcore") == 0);
		CHECK(strcmp(s.meta, "/kdump-target/crash/2026-12-04-16:00:00/metadata.json") == 0);
	}
	steps_init(&s);
	for (size_t i = 0; i < sizeof(all) - 1; i++)
		take(&s, all + i, 1);
	CHECK(strcmp(s.last, "saving the vmcore") == 0);
	/* A message cut short stays out until its end comes. */
	steps_init(&s);
	take(&s, "saving the dm", 13);
	CHECK(strcmp(s.last, "starting") == 0);
	take(&s, "esg", 4);
	CHECK(strcmp(s.last, "saving the dmesg") == 0);
	/* Empty messages change nothing; an overlong one is cut, not overrun. */
	take(&s, "\0\0", 2);
	CHECK(strcmp(s.last, "saving the dmesg") == 0);
	{
		static char big[6000];

		memset(big, 'x', sizeof(big) - 1);
		take(&s, big, sizeof(big));
		CHECK(strlen(s.last) == sizeof(s.last) - 1);
	}
	return tests_done();
}
