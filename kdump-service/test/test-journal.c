// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dump.h"
#include "journal.h"
#include "tests.h"
#include "util.h"

#define NAME "2026-01-02-03:04:05"

/* One line of valid UTF-8, "NAME=" and at most JOURNAL_VALUE_MAX bytes. */
static int field_ok(const char *f)
{
	const char *eq = strchr(f, '=');
	const unsigned char *p;

	if (!eq || eq == f || strlen(eq + 1) > JOURNAL_VALUE_MAX)
		return 0;
	for (p = (const unsigned char *)f; *p;) {
		size_t n = utf8_seq_len(p);

		if (n == 0 || (n == 1 && (*p < 0x20 || *p == 0x7f)))
			return 0;
		p += n;
	}
	return 1;
}

static const char *value(const struct journal_fields *f, const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; i < f->n; i++)
		if (strncmp(f->field[i], name, len) == 0 && f->field[i][len] == '=')
			return f->field[i] + len + 1;
	return NULL;
}

/* A complete dump as the capture and the report leave it: every field. */
static void test_sample(void)
{
	char tmp[] = "/tmp/test-journal.XXXXXX", dir[256], id[DUMP_ID_LEN + 1];
	char want[12][512];
	struct journal_fields f;
	struct dump_info d;

	CHECK(mkdtemp(tmp) != NULL);
	snprintf(dir, sizeof(dir), "%s/" NAME, tmp);
	CHECK(mkdir(dir, 0700) == 0);
	test_put(dir, "vmcore", "core");
	test_put(dir, "dmesg.txt", "log\n");
	test_put(dir, "metadata.json",
	    "{ \"crash_time\": 1767323045, \"kernel_release\": \"6.1.0-kf\",\n"
	    "  \"panic\": \"Kernel panic - not syncing: sysrq triggered crash\" }\n");
	test_put(dir, "report.json",
	    "{ \"signature\": \"0123456789abcdef\", \"panic\": \"Kernel panic - not syncing: sysrq triggered crash\",\n"
	    "  \"task\": { \"command\": \"bash\", \"pid\": 42 } }\n");
	CHECK(dump_inspect(dir, &d) == 0);
	dump_id(NAME, id);
	journal_crash_fields(&d, id, &f);

	snprintf(want[0], sizeof(want[0]), "MESSAGE_ID=015172fc9e57401f9f980255c3aeecad");
	snprintf(want[1], sizeof(want[1]), "PRIORITY=2");
	snprintf(want[2], sizeof(want[2]), "SYSLOG_IDENTIFIER=kdump-file");
	snprintf(want[3], sizeof(want[3]),
		 "MESSAGE=Kernel crash %s: 0123456789abcdef (kernel 6.1.0-kf), dump in %s",
		 id, dir);
	snprintf(want[4], sizeof(want[4]), "KDUMP_FILE_CRASH_ID=%s", id);
	snprintf(want[5], sizeof(want[5]), "KDUMP_FILE_SIGNATURE=0123456789abcdef");
	snprintf(want[6], sizeof(want[6]), "KDUMP_FILE_KERNEL=6.1.0-kf");
	snprintf(want[7], sizeof(want[7]), "KDUMP_FILE_CRASH_TIME=2026-01-02T03:04:05Z");
	snprintf(want[8], sizeof(want[8]), "KDUMP_FILE_DUMP_DIR=%s", dir);
	snprintf(want[9], sizeof(want[9]), "KDUMP_FILE_COMPLETE=yes");
	snprintf(want[10], sizeof(want[10]),
		 "KDUMP_FILE_PANIC=Kernel panic - not syncing: sysrq triggered crash");
	CHECK(f.n == 11);
	for (size_t i = 0; i < 11 && i < f.n; i++) {
		if (strcmp(f.field[i], want[i]) != 0)
			fprintf(stderr, "field %zu: '%s', expected '%s'\n", i,
				f.field[i], want[i]);
		CHECK(strcmp(f.field[i], want[i]) == 0);
		CHECK(field_ok(f.field[i]));
	}
	CHECK(strlen(id) == DUMP_ID_LEN);
	CHECK(strcmp(JOURNAL_CRASH_MESSAGE_ID, "015172fc9e57401f9f980255c3aeecad") == 0);

	/* Without its vmcore: why, in the message and the field. */
	snprintf(want[0], sizeof(want[0]), "%s/vmcore", dir);
	CHECK(unlink(want[0]) == 0);
	test_put(dir, "metadata.json",
	    "{ \"crash_time\": 1767323045, \"kernel_release\": \"6.1.0-kf\",\n"
	    "  \"error\": \"the dump target is full\" }\n");
	CHECK(dump_inspect(dir, &d) == 0);
	journal_crash_fields(&d, id, &f);
	CHECK(value(&f, "KDUMP_FILE_COMPLETE") &&
	      strcmp(value(&f, "KDUMP_FILE_COMPLETE"), "no: the dump target is full") == 0);
	snprintf(want[0], sizeof(want[0]),
		 "Kernel crash %s: 0123456789abcdef (kernel 6.1.0-kf), dump in %s, incomplete: the dump target is full",
		 id, dir);
	CHECK(value(&f, "MESSAGE") && strcmp(value(&f, "MESSAGE"), want[0]) == 0);
	CHECK(value(&f, "KDUMP_FILE_PANIC") == NULL);

	CHECK(test_rm_rf(tmp) == 0);
}

/* What nothing says is left out, and the message says so. */
static void test_unknown(void)
{
	struct journal_fields f;
	struct dump_info d;

	memset(&d, 0, sizeof(d));
	d.crash_time = -1;
	snprintf(d.dir, sizeof(d.dir), "/var/crash/elsewhere");
	journal_crash_fields(&d, "0badc0de", &f);
	CHECK(f.n == 7);
	CHECK(value(&f, "MESSAGE") &&
	      strcmp(value(&f, "MESSAGE"),
		     "Kernel crash 0badc0de: no signature (kernel unknown), dump in /var/crash/elsewhere, incomplete") == 0);
	CHECK(value(&f, "KDUMP_FILE_COMPLETE") &&
	      strcmp(value(&f, "KDUMP_FILE_COMPLETE"), "no") == 0);
	CHECK(value(&f, "KDUMP_FILE_SIGNATURE") == NULL);
	CHECK(value(&f, "KDUMP_FILE_KERNEL") == NULL);
	CHECK(value(&f, "KDUMP_FILE_CRASH_TIME") == NULL);
	CHECK(value(&f, "KDUMP_FILE_PANIC") == NULL);
	/* The directory's name gives the time when the metadata does not. */
	snprintf(d.dir, sizeof(d.dir), "/var/crash/" NAME);
	journal_crash_fields(&d, "0badc0de", &f);
	CHECK(value(&f, "KDUMP_FILE_CRASH_TIME") &&
	      strcmp(value(&f, "KDUMP_FILE_CRASH_TIME"), "2026-01-02T03:04:05Z") == 0);
	/* dump_level = dmesg: complete without a vmcore. */
	d.dmesg_only = true;
	d.has_dmesg = true;
	journal_crash_fields(&d, "0badc0de", &f);
	CHECK(value(&f, "KDUMP_FILE_COMPLETE") &&
	      strcmp(value(&f, "KDUMP_FILE_COMPLETE"), "yes: dmesg only") == 0);
	CHECK(value(&f, "MESSAGE") &&
	      strcmp(value(&f, "MESSAGE"),
		     "Kernel crash 0badc0de: no signature (kernel unknown), dump in /var/crash/" NAME ", dmesg only") == 0);
}

/* Values a crashed kernel or a disk may hold: one line each, bounded. */
static void test_hostile(void)
{
	struct journal_fields f;
	struct dump_info d;
	const char *v;
	size_t len;

	memset(&d, 0, sizeof(d));
	d.crash_time = 1767323045;
	d.has_vmcore = true;
	snprintf(d.signature, sizeof(d.signature), "0123\nMESSAGE_ID=x\r\tend");
	/* Not UTF-8, DEL, and NEL (U+0085), a line break to some. */
	snprintf(d.release, sizeof(d.release), "6.1\xff-kf\x7f\xc2\x85x");
	snprintf(d.panic, sizeof(d.panic), "Kernel panic\n - not syncing: \xe2\x80\x94 dash");
	/* A path longer than any value, in two-byte characters. */
	strcpy(d.dir, "/");
	for (size_t i = 0; i < 1500; i++)
		strcat(d.dir, "\xc3\xa9");
	journal_crash_fields(&d, "01234567", &f);
	CHECK(f.n == 11);
	for (size_t i = 0; i < f.n; i++) {
		if (!field_ok(f.field[i]))
			fprintf(stderr, "field %zu not one bounded line: '%.80s'\n",
				i, f.field[i]);
		CHECK(field_ok(f.field[i]));
	}
	v = value(&f, "KDUMP_FILE_SIGNATURE");
	CHECK(v && strcmp(v, "0123\\x0aMESSAGE_ID=x\\x0d\\x09end") == 0);
	v = value(&f, "KDUMP_FILE_KERNEL");
	CHECK(v && strcmp(v, "6.1\\xff-kf\\x7f\\u0085x") == 0);
	v = value(&f, "KDUMP_FILE_PANIC");
	CHECK(v && strcmp(v, "Kernel panic\\x0a - not syncing: \xe2\x80\x94 dash") == 0);
	/* One MESSAGE_ID, ours: the newline did not make a field. */
	CHECK(strcmp(value(&f, "MESSAGE_ID"), JOURNAL_CRASH_MESSAGE_ID) == 0);
	/* Cut on a character boundary: "/", 510 é, "...". */
	v = value(&f, "KDUMP_FILE_DUMP_DIR");
	len = v ? strlen(v) : 0;
	CHECK(len == 1 + 510 * 2 + 3);
	CHECK(v && strncmp(v, d.dir, len - 3) == 0);
	CHECK(v && strcmp(v + len - 3, "...") == 0);
	v = value(&f, "MESSAGE");
	len = v ? strlen(v) : 0;
	CHECK(len <= JOURNAL_VALUE_MAX && len >= JOURNAL_VALUE_MAX - 3);
#define MSG_START "Kernel crash 01234567: 0123\\x0aMESSAGE_ID=x\\x0d\\x09end (kernel 6.1\\xff-kf\\x7f\\u0085x), dump in /"
	CHECK(v && strncmp(v, MSG_START, strlen(MSG_START)) == 0);
	CHECK(v && strcmp(v + len - 3, "...") == 0);

	/* A value exactly at the bound is kept whole. */
	memset(d.dir, 'a', JOURNAL_VALUE_MAX);
	d.dir[JOURNAL_VALUE_MAX] = '\0';
	journal_crash_fields(&d, "01234567", &f);
	v = value(&f, "KDUMP_FILE_DUMP_DIR");
	CHECK(v && strlen(v) == JOURNAL_VALUE_MAX && v[JOURNAL_VALUE_MAX - 1] == 'a');
	d.dir[JOURNAL_VALUE_MAX] = 'a';
	d.dir[JOURNAL_VALUE_MAX + 1] = '\0';
	journal_crash_fields(&d, "01234567", &f);
	v = value(&f, "KDUMP_FILE_DUMP_DIR");
	CHECK(v && strlen(v) == JOURNAL_VALUE_MAX && strcmp(v + JOURNAL_VALUE_MAX - 3, "...") == 0);
}

int main(void)
{
	test_sample();
	test_unknown();
	test_hostile();
	return tests_done();
}
