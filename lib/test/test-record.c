// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "record.h"
#include "tests.h"

static struct capture_record sample(void)
{
	struct capture_record r = {
		.crash_time = 1764859000,
		.mem_free_kib = 81234,
		.step = "waiting for the dump target",
		.error = "ENODEV",
		.target = "LABEL=kdumps",
		.modules = "virtio_pci,virtio_blk",
		.why = "dump target LABEL=kdumps not found within 30s: No such device",
	};
	return r;
}

static void test_format_parse(void)
{
	struct capture_record r = sample(), p;
	char buf[2048];

	CHECK(record_format(&r, buf, sizeof(buf)) == 0);
	CHECK(strncmp(buf, RECORD_TAG, strlen(RECORD_TAG)) == 0);
	CHECK(strchr(buf, '\n') == NULL);
	/* As the kernel log has it in pstore. */
	{
		char line[2100];

		snprintf(line, sizeof(line), "<3>[   41.120034] %s\n<6>[   41.2] next", buf);
		CHECK(record_parse(line, &p) == 0);
	}
	CHECK(p.crash_time == r.crash_time && p.mem_free_kib == r.mem_free_kib);
	CHECK(strcmp(p.step, r.step) == 0 && strcmp(p.error, r.error) == 0);
	CHECK(strcmp(p.target, r.target) == 0 && strcmp(p.modules, r.modules) == 0);
	CHECK(strcmp(p.why, r.why) == 0);
	CHECK(!p.panic);

	/* Hostile values: separators and line breaks do not split fields. */
	snprintf(r.target, sizeof(r.target), "/dev/x; why=forged\nline");
	snprintf(r.why, sizeof(r.why), "a; b\tc");
	CHECK(record_format(&r, buf, sizeof(buf)) == 0);
	CHECK(strchr(buf, '\n') == NULL && strchr(buf, '\t') == NULL);
	CHECK(record_parse(buf, &p) == 0);
	CHECK(strcmp(p.target, "/dev/x  why=forged line") == 0);
	CHECK(strcmp(p.why, "a  b c") == 0);
	/* Empty values. */
	r = sample();
	r.error[0] = r.modules[0] = '\0';
	CHECK(record_format(&r, buf, sizeof(buf)) == 0);
	CHECK(record_parse(buf, &p) == 0 && !p.error[0] && !p.modules[0]);
	/* Too small a buffer. */
	CHECK(record_format(&r, buf, 40) == -ENOBUFS);

	/* Not records. */
	CHECK(record_parse("", &p) == -EINVAL);
	CHECK(record_parse("kdump-file: capture started", &p) == -EINVAL);
	CHECK(record_parse(RECORD_TAG "crash_time=x; step=a; error=; target=t; modules=; mem_free_kib=1; why=w", &p) == -EINVAL);
	CHECK(record_parse(RECORD_TAG "crash_time=1; step=a; error=; target=t; modules=; mem_free_kib=-1; why=w", &p) == -EINVAL);
	CHECK(record_parse(RECORD_TAG "crash_time=1; step=a; error=; target=t; modules=; why=w", &p) == -EINVAL);
	CHECK(record_parse(RECORD_TAG "crash_time=1; step=a; target=t; modules=; mem_free_kib=1; why=w", &p) == -EINVAL);
	CHECK(record_parse(RECORD_TAG "crash_time=99999999999999999999; step=a; error=; target=t; modules=; mem_free_kib=1; why=w", &p) == -EINVAL);
	/* A key's name inside another's value is not the key. */
	CHECK(record_parse(RECORD_TAG "crash_time=1; step=xwhy=a; error=; target=t; modules=; mem_free_kib=1; why=w", &p) == 0);
	CHECK(strcmp(p.why, "w") == 0);
}

static char dir[] = "/tmp/test-record.XXXXXX";

static void put(const char *rel, const char *text, long long mtime)
{
	char path[256];
	struct timeval tv[2] = { { mtime, 0 }, { mtime, 0 } };
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
	if (utimes(path, tv) < 0)
		abort();
}

static void test_find(void)
{
	struct capture_record r = sample(), f;
	char line[1024], text[1400], path[256];

	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/sys", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/var", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/var/1764859100", dir);
	mkdir(path, 0700);
	{
		char a[256], b[256];

		snprintf(a, sizeof(a), "%s/sys", dir);
		snprintf(b, sizeof(b), "%s/var", dir);
		const char *d2[] = { a, b, "/nonexistent", NULL };

		CHECK(record_find(d2, 0, &f) == -ENOENT);
		/* Only a panic of the capture kernel, archived a level down. */
		put("var/1764859100/dmesg.txt",
		    "Panic#1 Part1\n<0>[    1.9] Kernel panic - not syncing: VFS: Unable to mount root fs on unknown-block(0,0)\n<0>[ 2.0] ---[ end ]---\n",
		    1764859050);
		CHECK(record_find(d2, 1764859000, &f) == 0);
		CHECK(f.panic && f.crash_time == -1 && f.written == 1764859050);
		CHECK(strcmp(f.why, "VFS: Unable to mount root fs on unknown-block(0,0)") == 0);
		CHECK(record_describe(&f, text, sizeof(text)) == 0);
		CHECK(strstr(text, "the capture kernel panicked before the capture could finish: VFS: Unable") != NULL);
		/* Too old for this crash. */
		CHECK(record_find(d2, 1764859051, &f) == -ENOENT);
		/* The capture's own records: the newest crash wins, the last line of a file. */
		CHECK(record_format(&r, line, sizeof(line)) == 0);
		snprintf(text, sizeof(text), "Shutdown#1 Part1\n<6>[ 30.0] x\n<3>[ 31.0] %s\n", line);
		put("sys/dmesg-efi-176485910010001", text, 1764859110);
		r.crash_time = 1764859200;
		snprintf(r.step, sizeof(r.step), "saving the vmcore");
		CHECK(record_format(&r, line, sizeof(line)) == 0);
		snprintf(text, sizeof(text), "Shutdown#1 Part1\n<3>[ 31.0] %s\n<3>[ 32.0] %.*snot a record\n", line, (int)strlen(RECORD_TAG), RECORD_TAG);
		/* The last line is broken: that file holds no record. */
		put("sys/dmesg-efi-176485920010001", text, 1764859210);
		CHECK(record_find(d2, 0, &f) == 0);
		CHECK(f.panic);
		snprintf(text, sizeof(text), "Shutdown#1 Part1\n<3>[ 31.0] %s\n", line);
		put("sys/dmesg-efi-176485920010001", text, 1764859210);
		CHECK(record_find(d2, 0, &f) == 0);
		CHECK(f.crash_time == 1764859200 && strcmp(f.step, "saving the vmcore") == 0);
		CHECK(record_describe(&f, text, sizeof(text)) == 0);
		CHECK(strstr(text, "the crash at 2025-12-04T14:40:00Z was not saved: the capture failed while saving the vmcore: dump target") != NULL);
		CHECK(strstr(text, "(ENODEV); modules loaded: virtio_pci,virtio_blk; 79 MiB free") != NULL);
		CHECK(strstr(text, "raise capture_timeout") != NULL);
		/* Files that are not pstore dmesg records are not read. */
		put("sys/console-ramoops-0", text, 1764859999);
		CHECK(record_find(d2, 1764859201, &f) == -ENOENT);
		/* A symlink is not followed. */
		snprintf(path, sizeof(path), "%s/sys/dmesg-link", dir);
		snprintf(text, sizeof(text), "%s/sys/dmesg-efi-176485920010001", dir);
		CHECK(symlink(text, path) == 0);
		CHECK(record_find(d2, 1764859201, &f) == -ENOENT);
	}
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		CHECK(system(cmd) == 0);
	}
}

/* No byte of s is a control character a terminal acts on. */
static bool inert(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f || (*p >= 0x80 && *p <= 0x9f))
			return false;
	return true;
}

static void test_parse_escapes(void)
{
	struct capture_record p;
	char text[1400];

	/* What reaches the kernel log may look like a record and hold ESC. */
	CHECK(record_parse(RECORD_TAG "crash_time=1; step=saving\x1b]0;owned\x07 the vmcore; error=E\x1b[2J; target=\xc2\x9b" "31m; modules=a\x1b[8m; mem_free_kib=1; why=disk \x1b[1A\x1b[2Kgone\x9b", &p) == 0);
	CHECK(strcmp(p.step, "saving\\x1b]0;owned\\x07 the vmcore") == 0);
	CHECK(strcmp(p.error, "E\\x1b[2J") == 0);
	CHECK(strcmp(p.target, "\\u009b31m") == 0);
	CHECK(strcmp(p.modules, "a\\x1b[8m") == 0);
	CHECK(strcmp(p.why, "disk \\x1b[1A\\x1b[2Kgone\\x9b") == 0);
	CHECK(inert(p.step) && inert(p.error) && inert(p.target) &&
	      inert(p.modules) && inert(p.why));
	CHECK(record_describe(&p, text, sizeof(text)) == 0 && inert(text));
}

/* A record planted with a crash time after this boot began. */
static void test_future(void)
{
	char pdir[] = "/tmp/test-record-future.XXXXXX";
	struct capture_record r = sample(), f;
	char line[1024], text[1400];
	const char *d1[] = { pdir, NULL };

	if (!mkdtemp(pdir))
		abort();
	CHECK(record_format(&r, line, sizeof(line)) == 0);
	snprintf(text, sizeof(text), "<3>[ 31.0] %s\n", line);
	test_put(pdir, "dmesg-efi-1", text);
	/* 2100-01-01: after any boot this test runs in. */
	r.crash_time = 4102444800;
	snprintf(r.why, sizeof(r.why), "nothing to see");
	CHECK(record_format(&r, line, sizeof(line)) == 0);
	snprintf(text, sizeof(text), "<3>[ 31.0] %s\n", line);
	test_put(pdir, "dmesg-efi-2", text);
	/* The real record wins, whatever the planted one claims. */
	CHECK(record_find(d1, 0, &f) == 0);
	CHECK(f.crash_time == 1764859000 && !f.after_boot);
	CHECK(record_find_at(d1, 0, 1764860000, &f) == 0);
	CHECK(f.crash_time == 1764859000 && !f.after_boot);
	/* Alone, it is returned marked, and said so. */
	CHECK(record_find_at(d1, 0, 1764858000, &f) == 0);
	CHECK(f.after_boot);
	CHECK(record_describe(&f, text, sizeof(text)) == 0);
	CHECK(strstr(text, "after this boot began: not trusted") != NULL);
	CHECK(strstr(text, "was not saved") == NULL);
	/* At the boot's own second it is not in the future. */
	CHECK(record_find_at(d1, 0, 4102444800, &f) == 0 && !f.after_boot);
	CHECK(f.crash_time == 4102444800);
	CHECK(test_rm_rf(pdir) == 0);
}

int main(void)
{
	test_format_parse();
	test_find();
	test_parse_escapes();
	test_future();
	return tests_done();
}
