// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dump.h"
#include "dumpdir.h"
#include "json.h"
#include "tests.h"
#include "util.h"

/* A diag with nothing in it: each call below says its own failure. */
static struct diag *fresh(struct diag *d)
{
	diag_clear(d);
	return d;
}

static void put(const char *dir, const char *name, const char *text)
{
	char p[4200];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_names(void)
{
	CHECK(dump_name_valid("2026-12-03-09:55:01"));
	CHECK(dump_name_valid("2026-12-03-09:55:01-2"));
	CHECK(!dump_name_valid("2026-12-03-09:55:01-"));
	CHECK(!dump_name_valid("2026-12-03-09:55:0"));
	CHECK(!dump_name_valid("2026-12-03-09:55:01x"));
	CHECK(!dump_name_valid("lost+found"));
	CHECK(!dump_name_valid(""));
}

static void test_json(void)
{
	char buf[32];

	CHECK(json_get_field("{ \"a\": \"x\\\"y\", \"n\": 42 }", "a", buf,
			     sizeof(buf)) == 0);
	CHECK(strcmp(buf, "x\"y") == 0);
	CHECK(json_get_field("{ \"n\": 42 }", "n", buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "42") == 0);
	CHECK(json_get_field("{ \"b\": true }", "b", buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "true") == 0);
	CHECK(json_get_field("{ \"n\": 42 }", "m", buf, sizeof(buf)) == -ENOENT);
	CHECK(json_get_field("{ \"n\": null }", "n", buf, sizeof(buf)) == -ENOENT);
	/* Hostile: unterminated, dangling escape, not an object, overlong. */
	CHECK(json_get_field("{\"a\": \"abc", "a", buf, sizeof(buf)) == -EINVAL);
	CHECK(json_get_field("{\"a\": \"abc\\", "a", buf, sizeof(buf)) == -EINVAL);
	CHECK(json_get_field("{\"a\": \"\\u12", "a", buf, sizeof(buf)) == -EINVAL);
	CHECK(json_get_field("[1, 2]", "a", buf, sizeof(buf)) == -EINVAL);
	CHECK(json_get_field("", "a", buf, sizeof(buf)) == -EINVAL);
	CHECK(json_get_field("{\"a\": \"0123456789012345678901234567890123456789\"}",
			     "a", buf, sizeof(buf)) == 0);
	CHECK(strlen(buf) == sizeof(buf) - 1);
	/* A key inside a string value is not the key. */
	CHECK(json_get_field("{\"x\": \"\\\"a\\\": 1\", \"a\": 2}", "a", buf,
			     sizeof(buf)) == 0);
	CHECK(strcmp(buf, "2") == 0);
}

static void test_inspect_and_last(void)
{
	char base[] = "/tmp/test-dump.XXXXXX", d1[4200], d2[4200], d3[4200];
	char last[4200];
	struct dump_info info;

	CHECK(mkdtemp(base) != NULL);
	CHECK(dump_find_last(base, last, sizeof(last)) == -ENOENT);
	snprintf(d1, sizeof(d1), "%s/2026-01-01-00:00:00", base);
	snprintf(d2, sizeof(d2), "%s/2026-01-01-00:00:00-1", base);
	snprintf(d3, sizeof(d3), "%s/not-a-dump", base);
	CHECK(mkdir(d1, 0700) == 0 && mkdir(d2, 0700) == 0 &&
	      mkdir(d3, 0700) == 0);
	put(d1, "vmcore", "core");
	put(d1, "dmesg.txt", "log");
	put(d1, "metadata.json",
	    "{\n  \"kernel_release\": \"6.1.0\",\n  \"crash_time\": 1234,\n  \"panic\": \"sysrq triggered crash\"\n}\n");
	put(d2, "dmesg.txt", "log");
	put(d2, "vmcore-incomplete", "part");

	CHECK(dump_find_last(base, last, sizeof(last)) == 0);
	CHECK(strcmp(last, d2) == 0);
	CHECK(dump_inspect(d2, &info) == 0);
	CHECK(!info.has_vmcore && info.has_incomplete && info.has_dmesg);
	CHECK(info.crash_time == -1);
	CHECK(dump_inspect(d1, &info) == 0);
	CHECK(info.has_vmcore && info.vmcore_bytes == 4);
	CHECK(info.crash_time == 1234);
	CHECK(strcmp(info.panic, "sysrq triggered crash") == 0);
	CHECK(strcmp(info.release, "6.1.0") == 0);
	CHECK(info.summary[0] == '\0');
	/* The analysis report: its task is nested; a null panic gives the oops. */
	put(d1, "report.json",
	    "{ \"signature\": \"3f2a\", \"panic\": null, \"oops\": \"BUG: oops\",\n"
	    "  \"task\": { \"command\": \"bash\", \"pid\": 7 }, \"backtrace\": [ \"a\", \"b\" ] }\n");
	CHECK(dump_inspect(d1, &info) == 0);
	CHECK(strcmp(info.summary, "crash 3f2a: BUG: oops in bash") == 0);
	/* A report that is not JSON gives no summary, and no error. */
	put(d1, "report.json", "{ \"signature\": \"3f2a\", ");
	CHECK(dump_inspect(d1, &info) == 0);
	CHECK(info.summary[0] == '\0');
	CHECK(dump_inspect("/nonexistent", &info) == -ENOENT);

	{
		char cmd[4300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
		CHECK(system(cmd) == 0);
	}
}

/* Retention's removal never follows a link out of the dump store. */
static void test_remove(void)
{
	char base[] = "/tmp/test-dump-rm.XXXXXX", other[] = "/tmp/test-dump-o.XXXXXX";
	char p[4300], q[4300];
	struct stat st;
	int bfd;

	CHECK(mkdtemp(base) != NULL && mkdtemp(other) != NULL);
	put(other, "precious", "not ours");
	bfd = open(base, O_RDONLY | O_DIRECTORY);
	CHECK(bfd >= 0);
	/* A link named like a dump, to a directory that is not one. */
	snprintf(p, sizeof(p), "%s/2026-01-01-00:00:00", base);
	CHECK(symlink(other, p) == 0);
	CHECK(!dump_is_ours(bfd, "2026-01-01-00:00:00"));
	CHECK(dump_remove(bfd, "2026-01-01-00:00:00") == -ENOTDIR);
	snprintf(q, sizeof(q), "%s/precious", other);
	CHECK(stat(q, &st) == 0);
	CHECK(lstat(p, &st) == 0 && S_ISLNK(st.st_mode));
	/* A real dump holding a link out: the link goes, its target stays. */
	snprintf(p, sizeof(p), "%s/2026-01-02-00:00:00", base);
	CHECK(mkdir(p, 0700) == 0);
	CHECK(dump_is_ours(bfd, "2026-01-02-00:00:00"));
	put(p, "vmcore", "core");
	CHECK(path_format(q, sizeof(q), "%s/dmesg.txt", p) == 0);
	{
		char t[4300];

		snprintf(t, sizeof(t), "%s/precious", other);
		CHECK(symlink(t, q) == 0);
	}
	CHECK(dump_remove(bfd, "2026-01-02-00:00:00") == 0);
	CHECK(lstat(p, &st) < 0 && errno == ENOENT);
	snprintf(q, sizeof(q), "%s/precious", other);
	CHECK(stat(q, &st) == 0);
	/* A subdirectory, which the capture never makes, keeps the dump. */
	snprintf(p, sizeof(p), "%s/2026-01-03-00:00:00", base);
	CHECK(mkdir(p, 0700) == 0);
	CHECK(path_format(q, sizeof(q), "%s/sub", p) == 0);
	CHECK(mkdir(q, 0700) == 0);
	CHECK(dump_remove(bfd, "2026-01-03-00:00:00") == -ENOTEMPTY);
	CHECK(stat(q, &st) == 0);
	/* Only names of ours. */
	CHECK(dump_remove(bfd, "..") == -EINVAL);
	CHECK(dump_remove(bfd, "lost+found") == -EINVAL);
	CHECK(dump_remove(bfd, "2026-01-04-00:00:00") == -ENOENT);
	close(bfd);
	{
		char cmd[9000];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", base, other);
		CHECK(system(cmd) == 0);
	}
}

/*
 * A directory named like a newer dump but writable by others, or not ours:
 * someone else put it there, and it is neither reported nor counted.
 */
static void test_planted(void)
{
	char base[] = "/tmp/test-dump-pl.XXXXXX", p[4300], last[4300];
	struct diag why;
	long long newest, complete;

	CHECK(mkdtemp(base) != NULL);
	CHECK(chmod(base, 0700) == 0);
	snprintf(p, sizeof(p), "%s/2026-01-01-00:00:00", base);
	CHECK(mkdir(p, 0700) == 0);
	put(p, "vmcore", "core");
	snprintf(p, sizeof(p), "%s/2026-06-01-00:00:00", base);
	CHECK(mkdir(p, 0700) == 0 && chmod(p, 0777) == 0);
	put(p, "vmcore", "planted");
	CHECK(dump_find_last(base, last, sizeof(last)) == 0);
	CHECK(strstr(last, "2026-01-01-00:00:00") != NULL);
	CHECK(dump_scan(base, &newest, &complete) == 0);
	CHECK(newest == dump_name_time("2026-01-01-00:00:00"));
	if (geteuid() == 0) {
		CHECK(chmod(p, 0700) == 0 && chown(p, 65534, 65534) == 0);
		CHECK(dump_find_last(base, last, sizeof(last)) == 0);
		CHECK(strstr(last, "2026-01-01-00:00:00") != NULL);
	}
	/* The dump directory itself. */
	CHECK(dump_base_check(base, fresh(&why)) == 0);
	CHECK(chmod(base, 01777) == 0);
	CHECK(dump_base_check(base, fresh(&why)) == -EPERM);
	CHECK(strstr(why.msg, "may be written by others") && strstr(why.msg, "1777"));
	CHECK(chmod(base, 0770) == 0);
	CHECK(dump_base_check(base, fresh(&why)) == -EPERM);
	CHECK(chmod(base, 0755) == 0);
	/* Below a sticky directory (/tmp) is fine; below a writable one not. */
	snprintf(p, sizeof(p), "%s/sub", base);
	CHECK(mkdir(p, 0700) == 0);
	CHECK(dump_base_check(p, fresh(&why)) == 0);
	CHECK(chmod(base, 0777) == 0);
	CHECK(dump_base_check(p, fresh(&why)) == -EPERM);
	CHECK(strstr(why.msg, base) != NULL);
	CHECK(chmod(base, 0755) == 0);
	/* A link as the dump directory. */
	snprintf(last, sizeof(last), "%s/link", base);
	CHECK(symlink(p, last) == 0);
	CHECK(dump_base_check(last, fresh(&why)) == -EPERM);
	CHECK(strstr(why.msg, "symbolic link") != NULL);
	/*
	 * A link above the dump directory: the directory it leads to is on
	 * the way down, and others may write that one.
	 */
	{
		char real[PATH_MAX], via[PATH_MAX], store[PATH_MAX];

		snprintf(real, sizeof(real), "%s/shared", base);
		CHECK(mkdir(real, 0700) == 0 && chmod(real, 0777) == 0);
		CHECK(path_format(store, sizeof(store), "%s/dumps", real) == 0);
		CHECK(mkdir(store, 0700) == 0);
		snprintf(via, sizeof(via), "%s/var-crash", base);
		CHECK(symlink(real, via) == 0);
		CHECK(path_format(store, sizeof(store), "%s/dumps", via) == 0);
		CHECK(dump_base_check(store, fresh(&why)) == -EPERM);
		CHECK(strstr(why.msg, real) && strstr(why.msg, "0777"));
		CHECK(chmod(real, 0755) == 0);
		CHECK(dump_base_check(store, fresh(&why)) == 0);
	}
	CHECK(dump_base_check("relative", fresh(&why)) == -EINVAL);
	CHECK(dump_base_check("/nonexistent/x", fresh(&why)) == -ENOENT);
	if (geteuid() == 0) {
		CHECK(chown(p, 65534, 65534) == 0);
		CHECK(dump_base_check(p, fresh(&why)) == -EPERM);
		CHECK(strstr(why.msg, "uid 65534") != NULL);
	}
	snprintf(p, sizeof(p), "chmod -R u+rwx '%s'; rm -rf '%s'", base, base);
	CHECK(system(p) == 0);
}

/* IDs: short, stable, and found again by ID, prefix, name or "last". */
static void test_ids(void)
{
	char base[] = "/tmp/test-dump-id.XXXXXX", p[4300], a[9], b[9];
	char **names = NULL;
	size_t n = 0, i = 99;

	CHECK(mkdtemp(base) != NULL);
	CHECK(dump_list(base, &names, &n) == 0 && n == 0);
	CHECK(dump_resolve(names, n, "last", &i) == -ENOENT);
	dump_list_free(names, n);
	snprintf(p, sizeof(p), "%s/2026-02-01-00:00:00", base);
	CHECK(mkdir(p, 0700) == 0);
	snprintf(p, sizeof(p), "%s/2026-01-01-00:00:00", base);
	CHECK(mkdir(p, 0700) == 0);
	snprintf(p, sizeof(p), "%s/2026-03-01-00:00:00", base);
	CHECK(mkdir(p, 0777) == 0 && chmod(p, 0777) == 0);	/* not ours */
	snprintf(p, sizeof(p), "%s/notes", base);
	CHECK(mkdir(p, 0700) == 0);
	CHECK(dump_list(base, &names, &n) == 0);
	CHECK(n == 2);
	if (n == 2) {
		CHECK(strcmp(names[0], "2026-01-01-00:00:00") == 0);
		dump_id(names[0], a);
		dump_id(names[1], b);
		CHECK(strlen(a) == DUMP_ID_LEN && strcmp(a, b) != 0);
		dump_id("2026-01-01-00:00:00", b);
		CHECK(strcmp(a, b) == 0);
		CHECK(dump_resolve(names, n, "last", &i) == 0 && i == 1);
		CHECK(dump_resolve(names, n, "", &i) == 0 && i == 1);
		CHECK(dump_resolve(names, n, a, &i) == 0 && i == 0);
		a[5] = '\0';
		CHECK(dump_resolve(names, n, a, &i) == 0 && i == 0);
		a[3] = '\0';
		CHECK(dump_resolve(names, n, a, &i) == -ENOENT);
		CHECK(dump_resolve(names, n, "2026-02-01-00:00:00", &i) == 0 && i == 1);
		CHECK(dump_resolve(names, n, "zzzzzzzz", &i) == -ENOENT);
	}
	dump_list_free(names, n);
	snprintf(p, sizeof(p), "rm -rf '%s'", base);
	CHECK(system(p) == 0);
}

static void test_times(void)
{
	char base[] = "/tmp/test-dump.XXXXXX", d[4200];
	long long newest, complete;
	struct dump_info info = { .crash_time = -1 };

	CHECK(dump_name_time("2026-01-01-00:00:00") == 1767225600);
	CHECK(dump_name_time("2026-01-01-00:00:01-3") == 1767225601);
	CHECK(dump_name_time("lost+found") == -1);
	CHECK(dump_name_time("2026-01-01-00:00:0x") == -1);
	/* The metadata's crash time first, else the name's. */
	snprintf(info.dir, sizeof(info.dir), "/var/crash/2026-01-01-00:00:10");
	CHECK(dump_time(&info) == 1767225610);
	info.crash_time = 1767225605;
	CHECK(dump_time(&info) == 1767225605);

	CHECK(mkdtemp(base) != NULL);
	CHECK(dump_scan(base, &newest, &complete) == 0);
	CHECK(newest == -1 && complete == -1);
	/* A complete dump, then a newer one cut short (no metadata). */
	snprintf(d, sizeof(d), "%s/2026-01-01-00:00:00", base);
	CHECK(mkdir(d, 0700) == 0);
	put(d, "vmcore", "core");
	put(d, "metadata.json", "{\n  \"crash_time\": 1767225590\n}\n");
	snprintf(d, sizeof(d), "%s/2026-01-02-00:00:00", base);
	CHECK(mkdir(d, 0700) == 0);
	put(d, "vmcore-incomplete", "part");
	snprintf(d, sizeof(d), "%s/not-a-dump", base);
	CHECK(mkdir(d, 0700) == 0);
	CHECK(dump_scan(base, &newest, &complete) == 0);
	CHECK(newest == 1767312000);
	CHECK(complete == 1767225590);
	CHECK(dump_scan("/nonexistent", &newest, &complete) == -ENOENT);
	{
		char cmd[4300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
		CHECK(system(cmd) == 0);
	}
}

static void test_retention(void)
{
	bool rm[6];
	/* Oldest first: complete, incomplete, complete, incomplete, incomplete. */
	const bool c1[] = { true, false, true, false, false };
	const bool c2[] = { true, false, false, false };
	const bool c3[] = { true, true, true };

	/* keep 2: four of five go, the incomplete ones first. */
	CHECK(dump_retention(c1, 5, 2, rm) == 4);
	CHECK(rm[0] && rm[1] && !rm[2] && rm[3] && rm[4]);
	/* The only complete dump stays even when the newest are incomplete. */
	CHECK(dump_retention(c2, 4, 1, rm) == 3);
	CHECK(!rm[0] && rm[1] && rm[2] && rm[3]);
	CHECK(dump_retention(c2, 4, 2, rm) == 3);
	CHECK(!rm[0]);
	/* All complete: the oldest go, the newest stays. */
	CHECK(dump_retention(c3, 3, 2, rm) == 2);
	CHECK(rm[0] && rm[1] && !rm[2]);
	CHECK(dump_retention(c3, 3, 1, rm) == 2);
	CHECK(!rm[2]);
	/* keep 0 keeps everything; fewer than keep - 1: nothing to do. */
	CHECK(dump_retention(c1, 5, 0, rm) == 0);
	CHECK(dump_retention(c3, 3, 5, rm) == 0);
	CHECK(dump_retention(c3, 0, 1, rm) == 0);
}

/*
 * dump_level = dmesg: a finished capture's kernel log alone is a complete
 * dump, in the listing, the scan and retention; one cut short is not.
 */
static void test_dmesg_only(void)
{
	char base[] = "/tmp/test-dump.XXXXXX", d1[4200], d2[4200], d3[4200];
	char **names = NULL;
	long long newest, complete;
	struct dump_info info;
	bool done[3], rm[3];
	size_t n = 0;

	CHECK(mkdtemp(base) != NULL);
	snprintf(d1, sizeof(d1), "%s/2026-03-01-00:00:00", base);
	snprintf(d2, sizeof(d2), "%s/2026-03-02-00:00:00", base);
	snprintf(d3, sizeof(d3), "%s/2026-03-03-00:00:00", base);
	CHECK(mkdir(d1, 0700) == 0 && mkdir(d2, 0700) == 0 &&
	      mkdir(d3, 0700) == 0);
	/* Finished: dmesg.txt and the final record. */
	put(d1, "dmesg.txt", "Kernel panic - not syncing: sysrq triggered crash\n");
	put(d1, "metadata.json",
	    "{\n  \"kernel_release\": \"6.1.0\",\n  \"crash_time\": 1772323200,\n"
	    "  \"panic\": \"sysrq triggered crash\",\n  \"dmesg_only\": true,\n"
	    "  \"complete\": true,\n  \"error\": \"\"\n}\n");
	/* Cut short: the record written while the capture ran. */
	put(d2, "dmesg.txt", "log");
	put(d2, "metadata.json",
	    "{\n  \"complete\": false,\n  \"error\": \"the capture did not finish\"\n}\n");
	/* Finished, but the log is gone: not complete either. */
	put(d3, "metadata.json",
	    "{\n  \"dmesg_only\": true,\n  \"complete\": true\n}\n");

	CHECK(dump_inspect(d1, &info) == 0);
	CHECK(info.dmesg_only && !info.has_vmcore && info.has_dmesg);
	CHECK(dump_complete(&info));
	CHECK(info.crash_time == 1772323200);
	CHECK(strcmp(info.panic, "sysrq triggered crash") == 0);
	CHECK(dump_inspect(d2, &info) == 0);
	CHECK(!info.dmesg_only && !dump_complete(&info));
	CHECK(dump_inspect(d3, &info) == 0);
	CHECK(info.dmesg_only && !dump_complete(&info));
	/* "complete": false with dmesg_only (a failed log) is not either. */
	put(d3, "dmesg.txt", "");
	put(d3, "metadata.json",
	    "{\n  \"dmesg_only\": true,\n  \"complete\": false\n}\n");
	CHECK(dump_inspect(d3, &info) == 0);
	CHECK(!info.dmesg_only && !dump_complete(&info));

	/* The newest complete dump is the dmesg-only one. */
	CHECK(dump_scan(base, &newest, &complete) == 0);
	CHECK(complete == 1772323200);
	CHECK(newest == 1772496000);

	/* Listed, and kept by retention as a complete dump. */
	CHECK(dump_list(base, &names, &n) == 0);
	CHECK(n == 3);
	for (size_t i = 0; i < n && i < 3; i++) {
		char dir[4300];

		snprintf(dir, sizeof(dir), "%s/%s", base, names[i]);
		CHECK(dump_inspect(dir, &info) == 0);
		done[i] = dump_complete(&info);
	}
	CHECK(done[0] && !done[1] && !done[2]);
	CHECK(dump_retention(done, 3, 2, rm) == 2);
	CHECK(!rm[0] && rm[1] && rm[2]);
	dump_list_free(names, n);
	{
		char cmd[4300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
		CHECK(system(cmd) == 0);
	}
}

/* A copy of a dump on the collector: its location and vmcore there. */
static void test_copy(void)
{
	char base[] = "/tmp/test-dump.XXXXXX", d1[4200];
	struct dump_info info;

	CHECK(mkdtemp(base) != NULL);
	snprintf(d1, sizeof(d1), "%s/2026-03-01-00:00:00", base);
	CHECK(mkdir(d1, 0700) == 0);
	put(d1, "dmesg.txt", "Kernel panic - not syncing: sysrq triggered crash\n");
	put(d1, "metadata.json",
	    "{\n  \"crash_time\": 1772323200,\n  \"complete\": true\n}\n");
	CHECK(dump_inspect(d1, &info) == 0);
	CHECK(!info.copy && !info.has_vmcore && !dump_complete(&info));
	CHECK(strcmp(info.dir, d1) == 0);
	put(d1, "collector.json",
	    "{\"location\": \"ssh://k@c/srv/h/2026-03-01-00:00:00\", \"vmcore_bytes\": 4096}");
	CHECK(dump_inspect(d1, &info) == 0);
	CHECK(info.copy && info.has_vmcore && dump_complete(&info));
	CHECK(info.vmcore_bytes == 4096 && info.crash_time == 1772323200);
	CHECK(strcmp(info.dir, "ssh://k@c/srv/h/2026-03-01-00:00:00") == 0);
	/* No vmcore there: the copy is of an incomplete dump. */
	put(d1, "collector.json",
	    "{\"location\": \"nfs://c/srv/h/2026-03-01-00:00:00\", \"vmcore_bytes\": 0}");
	CHECK(dump_inspect(d1, &info) == 0);
	CHECK(info.copy && !info.has_vmcore && !dump_complete(&info));
	/* Without a location it is not one. */
	put(d1, "collector.json", "{\"vmcore_bytes\": 5}");
	CHECK(dump_inspect(d1, &info) == 0);
	CHECK(!info.copy && !info.has_vmcore && strcmp(info.dir, d1) == 0);
	{
		char cmd[4300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
		CHECK(system(cmd) == 0);
	}
}

int main(void)
{
	test_names();
	test_json();
	test_inspect_and_last();
	test_remove();
	test_planted();
	test_ids();
	test_times();
	test_retention();
	test_dmesg_only();
	test_copy();
	return tests_done();
}
