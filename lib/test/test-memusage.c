// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "memusage.h"
#include "tests.h"
#include "util.h"

static char dir[] = "/tmp/test-memusage.XXXXXX";

/* makedumpfile 1.7.2, this project's 6.1 kernel, a 1 GiB guest after boot. */
static const char ours[] =
	"The kernel version is not supported.\n"
	"The makedumpfile operation may be incomplete.\n"
	"\n"
	"TYPE\t\tPAGES\t\t\tEXCLUDABLE\tDESCRIPTION\n"
	"----------------------------------------------------------------------\n"
	"ZERO\t\t2390            \tyes\t\tPages filled with zero\n"
	"NON_PRI_CACHE\t1208            \tyes\t\tCache pages without private flag\n"
	"PRI_CACHE\t294             \tyes\t\tCache pages with private flag\n"
	"USER\t\t99              \tyes\t\tUser process pages\n"
	"FREE\t\t176901          \tyes\t\tFree pages\n"
	"KERN_DATA\t24847           \tno\t\tDumpable kernel data \n"
	"\n"
	"page size:\t\t4096            \n"
	"Total pages on system:\t205739          \n"
	"Total size on system:\t842706944        Byte\n";

/* The same on Debian's 6.1.0-57-amd64. */
static const char stock[] =
	"The kernel version is not supported.\n"
	"The makedumpfile operation may be incomplete.\n"
	"\n"
	"TYPE\t\tPAGES\t\t\tEXCLUDABLE\tDESCRIPTION\n"
	"----------------------------------------------------------------------\n"
	"ZERO\t\t7005            \tyes\t\tPages filled with zero\n"
	"NON_PRI_CACHE\t1235            \tyes\t\tCache pages without private flag\n"
	"PRI_CACHE\t324             \tyes\t\tCache pages with private flag\n"
	"USER\t\t99              \tyes\t\tUser process pages\n"
	"FREE\t\t164087          \tyes\t\tFree pages\n"
	"KERN_DATA\t37085           \tno\t\tDumpable kernel data \n"
	"\n"
	"page size:\t\t4096            \n"
	"Total pages on system:\t209835          \n"
	"Total size on system:\t859484160        Byte\n";

static int parse(const char *text, struct memusage *m)
{
	return memusage_parse(text, strlen(text), m);
}

/* text with the first occurrence of from replaced by to. */
static const char *edit(const char *text, const char *from, const char *to)
{
	static char buf[4096];
	const char *at = strstr(text, from);

	if (!at)
		return "not found";
	snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - text), text, to,
		 at + strlen(from));
	return buf;
}

static void test_real(void)
{
	struct memusage m;

	CHECK(parse(ours, &m) == 0);
	CHECK(m.pages[MEMUSAGE_ZERO] == 2390);
	CHECK(m.pages[MEMUSAGE_NON_PRI_CACHE] == 1208);
	CHECK(m.pages[MEMUSAGE_PRI_CACHE] == 294);
	CHECK(m.pages[MEMUSAGE_USER] == 99);
	CHECK(m.pages[MEMUSAGE_FREE] == 176901);
	CHECK(m.pages[MEMUSAGE_KERN_DATA] == 24847);
	CHECK(m.has[MEMUSAGE_FREE] && m.has[MEMUSAGE_KERN_DATA]);
	CHECK(m.total_pages == 205739);
	CHECK(m.page_size == 4096);
	CHECK(m.kernel_unsupported);

	CHECK(parse(stock, &m) == 0);
	CHECK(m.pages[MEMUSAGE_ZERO] == 7005);
	CHECK(m.pages[MEMUSAGE_FREE] == 164087);
	CHECK(m.pages[MEMUSAGE_KERN_DATA] == 37085);
	CHECK(m.total_pages == 209835);

	/* Without the warning line (a version that knows the kernel). */
	CHECK(parse(ours + strlen("The kernel version is not supported.\n"),
		    &m) == 0);
	CHECK(!m.kernel_unsupported);
	/* A row of a name we do not know: ignored. */
	CHECK(parse(edit(ours, "USER\t\t99", "HWPOISON\t0 yes x\nUSER\t\t99"),
		    &m) == 0);
	CHECK(m.pages[MEMUSAGE_USER] == 99);
}

static void test_dump_level(void)
{
	struct memusage m;

	CHECK(parse(ours, &m) == 0);
	/* -d 31: kernel data alone. */
	CHECK(memusage_kept_pages(&m, 31) == 24847);
	/* -d 0: everything. */
	CHECK(memusage_kept_pages(&m, 0) == 205739);
	/* -d 1: all but zero pages. */
	CHECK(memusage_kept_pages(&m, 1) == 205739 - 2390);
	/* -d 16: all but free pages. */
	CHECK(memusage_kept_pages(&m, 16) == 205739 - 176901);
	/* -d 17: Debian's default. */
	CHECK(memusage_kept_pages(&m, 17) == 24847 + 1208 + 294 + 99);
	/* Bits above 16 are not makedumpfile's rows. */
	CHECK(memusage_kept_pages(&m, 31 | 32 | 64) == 24847);

	/* FREE missing: free pages cannot be excluded, so they are kept. */
	CHECK(parse(edit(ours, "FREE\t\t176901          \tyes\t\tFree pages\n",
			 ""), &m) == 0);
	CHECK(!m.has[MEMUSAGE_FREE] && m.pages[MEMUSAGE_FREE] == 0);
	CHECK(memusage_kept_pages(&m, 31) == 24847 + 176901);
}

static void test_bad(void)
{
	struct memusage m = { .total_pages = 77 };
	char buf[sizeof(ours)];

	/* Truncated anywhere before the totals: refused, m untouched. */
	for (size_t n = 0; n < strlen(ours) - strlen("Total size on system:\t842706944        Byte\n") - 30; n += 7) {
		memcpy(buf, ours, n);
		buf[n] = '\0';
		CHECK(parse(buf, &m) == -EBADMSG);
	}
	CHECK(m.total_pages == 77);
	CHECK(parse("", &m) == -EBADMSG);
	CHECK(parse("garbage\n\x01\x02\xff\n", &m) == -EBADMSG);
	CHECK(memusage_parse("TYPE x\0", 7, &m) == -EBADMSG);
	/* Without kernel data: no table of makedumpfile's. */
	CHECK(parse(edit(ours, "KERN_DATA", "KERNDATA"), &m) == -EBADMSG);
	/* Numbers: not numbers, signed, too big for 64 bits. */
	CHECK(parse(edit(ours, "2390", "23x0"), &m) == -EBADMSG);
	CHECK(parse(edit(ours, "2390", "-2390"), &m) == -EBADMSG);
	CHECK(parse(edit(ours, "176901", "184467440737095516160"), &m) == -EBADMSG);
	CHECK(parse(edit(ours, "176901", "18446744073709551616"), &m) == -EBADMSG);
	/* Huge but 64-bit: the rows exceed the total. */
	CHECK(parse(edit(ours, "176901", "18446744073709551615"), &m) == -EBADMSG);
	/* A total whose bytes overflow. */
	CHECK(parse(edit(edit(ours, "205739 ", "18446744073709551615 "),
			 "Byte", "B"), &m) == -EBADMSG);
	CHECK(parse(edit(ours, "205739 ", "4503599627370496 "), &m) == -EBADMSG);
	/* Page sizes: 0, not a power of two, absurd. */
	CHECK(parse(edit(ours, "page size:\t\t4096", "page size:\t\t0"), &m) == -EBADMSG);
	CHECK(parse(edit(ours, "page size:\t\t4096", "page size:\t\t4095"), &m) == -EBADMSG);
	CHECK(parse(edit(ours, "page size:\t\t4096", "page size:\t\t4294967296"), &m) == -EBADMSG);
	/* A row twice, a total twice. */
	CHECK(parse(edit(ours, "USER\t\t99", "USER 1\nUSER\t\t99"), &m) == -EBADMSG);
	CHECK(parse(edit(ours, "Total size", "Total pages on system: 1\nTotal size"), &m) == -EBADMSG);
	/* A line longer than any of the table's. */
	{
		char *big = malloc(70000);

		CHECK(big != NULL);
		if (big) {
			memset(big, 'A', 69999);
			big[69999] = '\0';
			CHECK(parse(big, &m) == -EBADMSG);
			free(big);
		}
	}
	CHECK(m.total_pages == 77);
}

/* A stand-in makedumpfile in the test directory. */
static const char *script(const char *name, const char *body)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return path;
	fprintf(f, "#!/bin/sh\n%s\n", body);
	fclose(f);
	(void)chmod(path, 0755);
	return path;
}

static void test_run(void)
{
	char table[256], v[64];
	struct diag d = DIAG_INIT;
	struct memusage m;

	snprintf(table, sizeof(table), "%s/table", dir);
	test_put(dir, "table", ours);
	{
		char body[512];

		CHECK(path_format(body, sizeof(body),
				  "[ \"$1 $2\" = '--mem-usage /proc/kcore' ] || exit 9\n"
				  "head -n 1 '%s' >&2; tail -n +2 '%s'", table,
				  table) == 0);
		CHECK(memusage_run(script("good", body), 5000, &m, &d) == 0);
	}
	CHECK(m.pages[MEMUSAGE_FREE] == 176901 && m.kernel_unsupported);
	CHECK(!diag_failed(&d) && strcmp(diag_text(&d), "") == 0);
	CHECK(memusage_run(script("fail",
				  "echo 'show_mem_usage: No memory is reserved for crashkernel!' >&2\n"
				  "echo 'The kernel version is not supported.'\n"
				  "echo 'The makedumpfile operation may be incomplete.'\n"
				  "echo; echo 'makedumpfile Failed.'; exit 1"),
			   5000, &m, &d) == -EIO);
	CHECK(d.error == -EIO);
	CHECK(strcmp(diag_text(&d), "show_mem_usage: No memory is reserved for crashkernel! (exit 1)") == 0);
	diag_clear(&d);
	CHECK(memusage_run(script("garbage", "echo hello"), 5000, &m, &d) ==
	      -EBADMSG);
	CHECK(strcmp(diag_text(&d), "its table is not one it prints") == 0);
	diag_clear(&d);
	CHECK(memusage_run(script("hang", "exec sleep 10"), 200, &m, &d) ==
	      -ETIMEDOUT);
	CHECK(strncmp(diag_text(&d), "timed out after ", 16) == 0);
	diag_clear(&d);
	CHECK(memusage_run(script("flood", "yes TYPE | head -c 200000"), 5000,
			   &m, &d) == -EBADMSG);
	CHECK(strstr(diag_text(&d), "bytes of output") != NULL);
	diag_clear(&d);
	/* Not run at all: the errno alone, no message. */
	CHECK(memusage_run("/nonexistent/makedumpfile", 5000, &m, &d) ==
	      -ENOENT);
	CHECK(d.error == -ENOENT && d.msg[0] == '\0');
	/* A NULL diag: the errno alone travels. */
	CHECK(memusage_run(script("garbage", "echo hello"), 5000, &m, NULL) ==
	      -EBADMSG);

	CHECK(memusage_tool_version(
		      script("v", "echo 'makedumpfile: version 1.7.2 (released on 20 Oct 2022)'; echo 'lzo\tenabled'"),
		      v, sizeof(v)) == 0);
	CHECK(strcmp(v, "1.7.2") == 0);
	CHECK(memusage_tool_version(script("v2", "echo 'version $(reboot)'"),
				    v, sizeof(v)) == -EBADMSG);
}

static void test_cache(void)
{
	struct memusage_entry e = { 0 }, back;
	struct memusage_key k;
	char path[256], tool[256];

	snprintf(path, sizeof(path), "%s/mem-usage.json", dir);
	snprintf(tool, sizeof(tool), "%s", script("mdf", "exit 0"));
	CHECK(memusage_key_now(tool, &k) == 0);
	CHECK(k.release[0] && k.mem_total_kib > 0 && k.tool_size > 0);
	CHECK(strcmp(k.tool, tool) == 0);
	CHECK(memusage_key_now("/nonexistent/makedumpfile", &k) == -ENOENT);
	CHECK(memusage_key_now(tool, &k) == 0);

	CHECK(memusage_cache_read(path, &k, &back) == -ENOENT);
	e.key = k;
	snprintf(e.version, sizeof(e.version), "1.7.2");
	CHECK(parse(ours, &e.m) == 0);
	CHECK(memusage_cache_write(path, &e) == 0);
	CHECK(memusage_cache_read(path, &k, &back) == 0);
	CHECK(back.error == 0 && strcmp(back.version, "1.7.2") == 0);
	CHECK(memcmp(&back.m, &e.m, sizeof(e.m)) == 0);

	/* Another kernel, makedumpfile or amount of memory: stale. */
	k.mem_total_kib++;
	CHECK(memusage_cache_read(path, &k, &back) == -ESTALE);
	k.mem_total_kib--;
	k.tool_mtime++;
	CHECK(memusage_cache_read(path, &k, &back) == -ESTALE);
	k.tool_mtime--;

	/* A failed run is kept too, with why. */
	memset(&e.m, 0, sizeof(e.m));
	e.error = -EIO;
	snprintf(e.why, sizeof(e.why), "No memory is reserved for crashkernel!");
	CHECK(memusage_cache_write(path, &e) == 0);
	CHECK(memusage_cache_read(path, &k, &back) == 0);
	CHECK(back.error == -EIO && strstr(back.why, "crashkernel"));

	/* Bad files: not JSON, a table that is not sound. */
	test_put(dir, "mem-usage.json", "{ \"release\": ");
	CHECK(memusage_cache_read(path, &k, &back) == -EBADMSG);
	test_put(dir, "mem-usage.json", "[1]");
	CHECK(memusage_cache_read(path, &k, &back) == -EBADMSG);
	e.error = 0;
	CHECK(parse(ours, &e.m) == 0);
	e.m.pages[MEMUSAGE_FREE] = e.m.total_pages;
	CHECK(memusage_cache_write(path, &e) == 0);
	CHECK(memusage_cache_read(path, &k, &back) == -EBADMSG);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_real();
	test_dump_level();
	test_bad();
	test_run();
	test_cache();
	if (test_rm_rf(dir) < 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	return tests_done();
}
