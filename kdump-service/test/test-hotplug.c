// SPDX-License-Identifier: GPL-2.0
/*
 * Hotplug in a directory of our own standing for /sys and /run: what
 * "kdump-file hotplug" decides for each kernel and event, the pending
 * mark, and the wait for a burst of events to end.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hotplug.h"
#include "tests.h"
#include "util.h"

static char root[PATH_MAX], pending[PATH_MAX];

/* Write <root>/<rel>, making its directories; NULL removes it. */
static void sys_put(const char *rel, const char *text)
{
	char path[PATH_MAX + 64], dir[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (!text) {
		(void)unlink(path);
		return;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	CHECK(mkdir_p(dir, 0755) == 0);
	CHECK(write_file_atomic(path, text, strlen(text), 0644) == 0);
}

static enum hotplug_decision decide(enum hotplug_subsystem s,
				    const char *action)
{
	enum hotplug_decision d = (enum hotplug_decision)-1;

	CHECK(hotplug_decide(root, s, action, &d) == 0);
	return d;
}

static void test_names(void)
{
	enum hotplug_subsystem s;

	CHECK(hotplug_subsystem_parse("cpu", &s) == 0 && s == HOTPLUG_CPU);
	CHECK(hotplug_subsystem_parse("memory", &s) == 0 && s == HOTPLUG_MEMORY);
	CHECK(hotplug_subsystem_parse("Memory", &s) == -EINVAL);
	CHECK(hotplug_subsystem_parse("", &s) == -EINVAL);
	CHECK(hotplug_subsystem_parse("cpu/../memory", &s) == -EINVAL);
	CHECK(hotplug_subsystem_parse(NULL, &s) == -EINVAL);
	CHECK(strcmp(hotplug_subsystem_name(HOTPLUG_MEMORY), "memory") == 0);
	CHECK(strcmp(hotplug_subsystem_name(HOTPLUG_SUBSYSTEM_COUNT), "?") == 0);
}

static void test_decide(void)
{
	enum hotplug_handler h;
	enum hotplug_decision d;

	/* No capture kernel loaded (no kexec_crash_loaded at all, then 0). */
	CHECK(decide(HOTPLUG_CPU, "add") == HOTPLUG_NOT_LOADED);
	sys_put("kernel/kexec_crash_loaded", "0\n");
	CHECK(decide(HOTPLUG_MEMORY, "remove") == HOTPLUG_NOT_LOADED);
	CHECK(!hotplug_crash_loaded(root));

	/* Loaded, a kernel without crash_hotplug (Debian's 6.1): reload. */
	sys_put("kernel/kexec_crash_loaded", "1\n");
	CHECK(hotplug_crash_loaded(root));
	CHECK(hotplug_handler(root, HOTPLUG_CPU, &h) == 0 && h == HOTPLUG_BY_RELOAD);
	CHECK(decide(HOTPLUG_CPU, "add") == HOTPLUG_MARK_PENDING);
	CHECK(decide(HOTPLUG_MEMORY, "remove") == HOTPLUG_MARK_PENDING);
	/* Run by hand, without ACTION: taken as a change. */
	CHECK(decide(HOTPLUG_MEMORY, NULL) == HOTPLUG_MARK_PENDING);
	/* online and offline leave the headers as they are. */
	CHECK(decide(HOTPLUG_MEMORY, "online") == HOTPLUG_IGNORE_ACTION);
	CHECK(decide(HOTPLUG_CPU, "offline") == HOTPLUG_IGNORE_ACTION);
	CHECK(decide(HOTPLUG_CPU, "change") == HOTPLUG_IGNORE_ACTION);
	CHECK(decide(HOTPLUG_CPU, "") == HOTPLUG_IGNORE_ACTION);

	/* The patched kernel rewrites the headers of each in place. */
	sys_put("devices/system/cpu/crash_hotplug", "1\n");
	sys_put("devices/system/memory/crash_hotplug", "0\n");
	CHECK(hotplug_handler(root, HOTPLUG_CPU, &h) == 0 && h == HOTPLUG_BY_KERNEL);
	CHECK(decide(HOTPLUG_CPU, "add") == HOTPLUG_IN_PLACE);
	CHECK(decide(HOTPLUG_MEMORY, "add") == HOTPLUG_MARK_PENDING);
	sys_put("devices/system/memory/crash_hotplug", "1");
	CHECK(decide(HOTPLUG_MEMORY, "remove") == HOTPLUG_IN_PLACE);

	/* Anything else in crash_hotplug is an error, not a guess. */
	sys_put("devices/system/cpu/crash_hotplug", "2\n");
	CHECK(hotplug_handler(root, HOTPLUG_CPU, &h) == -EBADMSG);
	CHECK(hotplug_decide(root, HOTPLUG_CPU, "add", &d) == -EBADMSG);
	sys_put("devices/system/cpu/crash_hotplug", "");
	CHECK(hotplug_handler(root, HOTPLUG_CPU, &h) == -EBADMSG);
	sys_put("devices/system/cpu/crash_hotplug", "1 0\n");
	CHECK(hotplug_handler(root, HOTPLUG_CPU, &h) == -EBADMSG);
	/* ...but not when no capture kernel is loaded: nothing to do then. */
	sys_put("kernel/kexec_crash_loaded", "0\n");
	CHECK(decide(HOTPLUG_CPU, "add") == HOTPLUG_NOT_LOADED);
	sys_put("kernel/kexec_crash_loaded", "junk\n");
	CHECK(decide(HOTPLUG_CPU, "add") == HOTPLUG_NOT_LOADED);
	sys_put("devices/system/cpu/crash_hotplug", NULL);
	sys_put("devices/system/memory/crash_hotplug", NULL);
}

static void test_mark(void)
{
	char link[PATH_MAX + 16];
	struct stat st;
	struct timespec old[2] = { { .tv_sec = 1000 }, { .tv_sec = 1000 } };

	/* The directory is made when missing, root's alone. */
	CHECK(!hotplug_pending(pending));
	CHECK(hotplug_mark_pending(pending) == 0);
	CHECK(hotplug_pending(pending));
	CHECK(stat(pending, &st) == 0 && (st.st_mode & 07777) == 0600 &&
	      S_ISREG(st.st_mode));
	snprintf(link, sizeof(link), "%s", pending);
	*strrchr(link, '/') = '\0';
	CHECK(stat(link, &st) == 0 && (st.st_mode & 07777) == 0700);

	/* A second event only moves the mtime on. */
	CHECK(utimensat(AT_FDCWD, pending, old, 0) == 0);
	CHECK(hotplug_mark_pending(pending) == 0);
	CHECK(stat(pending, &st) == 0 && st.st_mtim.tv_sec > 1000);

	/* A symbolic link put in its place is refused, its target untouched. */
	CHECK(unlink(pending) == 0);
	snprintf(link, sizeof(link), "%s.target", pending);
	CHECK(symlink(link, pending) == 0);
	CHECK(hotplug_mark_pending(pending) == -ELOOP);
	CHECK(access(link, F_OK) < 0);
	CHECK(unlink(pending) == 0);
	CHECK(hotplug_mark_pending("relative") == -EINVAL);
}

static void test_settle_left(void)
{
	struct timespec m = { .tv_sec = 100, .tv_nsec = 500000000 };
	struct timespec n = m;

	CHECK(hotplug_settle_left(&m, &n, 1000) == 1000);
	n.tv_sec = 101;
	n.tv_nsec = 0;
	CHECK(hotplug_settle_left(&m, &n, 1000) == 500);
	n.tv_nsec = 500000000;
	CHECK(hotplug_settle_left(&m, &n, 1000) == 0);
	n.tv_sec = 5000;
	CHECK(hotplug_settle_left(&m, &n, 1000) == 0);
	/* An mtime ahead of the clock (set back since): wait the full time. */
	n.tv_sec = 50;
	CHECK(hotplug_settle_left(&m, &n, 1000) == 1000);
}

static void set_age(long long ms)
{
	struct timespec t[2];

	clock_gettime(CLOCK_REALTIME, &t[0]);
	t[0].tv_sec -= ms / 1000;
	t[0].tv_nsec -= (ms % 1000) * 1000000;
	if (t[0].tv_nsec < 0) {
		t[0].tv_nsec += 1000000000;
		t[0].tv_sec--;
	}
	t[1] = t[0];
	CHECK(utimensat(AT_FDCWD, pending, t, 0) == 0);
}

static void test_settle(void)
{
	unsigned long long t0;
	long long took;

	CHECK(hotplug_settle(pending, 1000, 50, 5000) == -ENOENT);
	CHECK(hotplug_mark_pending(pending) == 0);

	/* Quiet for long enough already: no wait. */
	set_age(2000);
	t0 = now_ms();
	CHECK(hotplug_settle(pending, 1000, 50, 5000) == 1);
	CHECK(now_ms() - t0 < 200);

	/* Marked just now: waits until it is quiet_ms old, and no more. */
	set_age(0);
	t0 = now_ms();
	CHECK(hotplug_settle(pending, 300, 50, 5000) == 1);
	took = (long long)(now_ms() - t0);
	CHECK(took >= 250 && took < 1000);

	/* Events that go on (an mtime ahead): gives up after max_ms. */
	set_age(-60000);
	t0 = now_ms();
	CHECK(hotplug_settle(pending, 300, 50, 400) == 0);
	took = (long long)(now_ms() - t0);
	CHECK(took >= 350 && took < 1200);

	/* Removed while it waits (the service stopped): -ENOENT. */
	CHECK(unlink(pending) == 0);
	CHECK(hotplug_settle(pending, 300, 50, 400) == -ENOENT);
}

int main(void)
{
	char tmpl[] = "/tmp/test-hotplug.XXXXXX";

	if (!mkdtemp(tmpl))
		return 1;
	snprintf(root, sizeof(root), "%s/sys", tmpl);
	snprintf(pending, sizeof(pending), "%s/run/kdump-file/hotplug-pending",
		 tmpl);
	CHECK(mkdir(root, 0755) == 0);
	test_names();
	test_decide();
	test_mark();
	test_settle_left();
	test_settle();
	CHECK(test_rm_rf(tmpl) == 0);
	return tests_done();
}
