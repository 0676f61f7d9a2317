// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "dumpsize.h"
#include "tests.h"
#include "util.h"

#define MIB (1ULL << 20)

static char dir[] = "/tmp/test-dumpsize.XXXXXX";

static void test_room(void)
{
	struct dump_estimate small = { .bytes = 10 * MIB };
	struct dump_estimate huge = { .bytes = 1ULL << 60 };
	struct dumpsize_room room;
	struct kdump_conf c;
	char path[256], raw[256], text[4096];
	struct statvfs sv;

	conf_init(&c);
	/* A dump directory not made yet: its nearest existing parent. */
	snprintf(path, sizeof(path), "%s/not/yet", dir);
	snprintf(c.path, sizeof(c.path), "%s", path);
	CHECK(dumpsize_room(&c, path, &small, &room) == 0);
	CHECK(strcmp(room.where, dir) == 0);
	CHECK(strcmp(room.target, path) == 0);
	CHECK(!room.raw);
	/* A fifth more and a MiB for the kernel log and metadata. */
	CHECK(room.need_bytes == 10 * MIB + 2 * MIB + MIB);
	CHECK(statvfs(dir, &sv) == 0);
	CHECK(room.free_bytes <= (unsigned long long)sv.f_bavail * sv.f_frsize + MIB);
	CHECK(dumpsize_room(&c, path, &huge, &room) == 1);
	dumpsize_room_text(&c, "/etc/kdump-file.conf", &room, &huge, text,
			   sizeof(text));
	CHECK(strstr(text, "dump target ") == text);
	CHECK(strstr(text, "a crash now would not be saved whole; free space on "));
	CHECK(strstr(text, "or set compression = zlib in /etc/kdump-file.conf"));
	CHECK(!strstr(text, "dump_level"));
	/* min_free_mb is not room for the dump: the capture keeps it free. */
	c.min_free_mb = 1ULL << 40;
	CHECK(dumpsize_room(&c, path, &small, &room) == 1);
	CHECK(room.free_bytes == 0);
	dumpsize_room_text(&c, "/c", &room, &small, text, sizeof(text));
	CHECK(strstr(text, "free beyond min_free_mb"));
	c.min_free_mb = 0;
	/* What makes a dump smaller, of what is not set already. */
	c.dump_level = 17;
	c.compression = COMPRESS_ZLIB;
	dumpsize_room_text(&c, "/c", &room, &small, text, sizeof(text));
	CHECK(strstr(text, "or set dump_level = 31 in /c"));
	c.dump_level = 31;
	dumpsize_room_text(&c, "/c", &room, &small, text, sizeof(text));
	CHECK(!strstr(text, "or set"));
	c.compression = COMPRESS_LZO;

	/* A raw device: its size, whatever the filesystem's room. */
	snprintf(raw, sizeof(raw), "%s/raw", dir);
	{
		FILE *f = fopen(raw, "w");

		CHECK(f != NULL);
		if (f) {
			CHECK(ftruncate(fileno(f), 8 * MIB) == 0);
			fclose(f);
		}
	}
	snprintf(c.raw, sizeof(c.raw), "%s", raw);
	CHECK(dumpsize_room(&c, path, &small, &room) == 1);
	CHECK(room.raw && room.free_bytes == 8 * MIB);
	dumpsize_room_text(&c, "/c", &room, &small, text, sizeof(text));
	CHECK(strstr(text, "raw dump device ") == text);
	CHECK(strstr(text, "holds 8.0 MiB, less than the 13 MiB"));
	CHECK(strstr(text, "use a larger device, or set compression = zlib in /c"));
	small.bytes = 5 * MIB;
	CHECK(dumpsize_room(&c, path, &small, &room) == 0);
	snprintf(c.raw, sizeof(c.raw), "%s/no-such-device", dir);
	CHECK(dumpsize_room(&c, path, &small, &room) == -ENOENT);
	c.raw[0] = '\0';

	/* A network target: nothing known here. */
	c.net = CONF_NET_SSH;
	CHECK(dumpsize_room(&c, path, &small, &room) == -EREMOTE);
}

static void test_texts(void)
{
	struct dumpsize d = { 0 };
	struct kdump_conf c;
	char text[2048];

	conf_init(&c);
	d.known = true;
	CHECK(estimate_dump(24847, 205739, 4096, 31, COMPRESS_LZO, NULL,
			    &d.est) == 0);
	dumpsize_text(&c, &d, text, sizeof(text));
	CHECK(strcmp(text, "about 26 MiB, written in about 1.1 s (dump level 31, lzo; from makedumpfile --mem-usage: 24847 of 205739 pages kept)") == 0);

	snprintf(d.run.version, sizeof(d.run.version), "1.7.2");
	snprintf(d.run.key.release, sizeof(d.run.key.release), "6.1.0-57-amd64");
	CHECK(estimate_dump(201748, 205739, 4096, 31, COMPRESS_LZO, NULL,
			    &d.est_with_free) == 0);
	d.est_without_free = d.est;
	dumpsize_free_text(&d, text, sizeof(text));
	CHECK(strcmp(text, "makedumpfile 1.7.2 cannot tell free pages in kernel 6.1.0-57-amd64 (--mem-usage counts no free pages), so the dump holds free memory too: about 213 MiB instead of 26 MiB, and slower; install a makedumpfile that supports 6.1.0-57-amd64") == 0);
	d.run.error = -EIO;
	snprintf(d.run.why, sizeof(d.run.why), "cannot read vmcoreinfo (exit 1)");
	dumpsize_free_text(&d, text, sizeof(text));
	CHECK(strstr(text, "(--mem-usage failed: cannot read vmcoreinfo (exit 1))"));
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_room();
	test_texts();
	if (test_rm_rf(dir) < 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	return tests_done();
}
