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

int main(void)
{
	test_format_parse();
	test_find();
	return tests_done();
}
