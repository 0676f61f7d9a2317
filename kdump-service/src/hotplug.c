// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hotplug.h"
#include "util.h"

static const char *const names[HOTPLUG_SUBSYSTEM_COUNT] = {
	[HOTPLUG_CPU] = "cpu",
	[HOTPLUG_MEMORY] = "memory",
};

const char *hotplug_subsystem_name(enum hotplug_subsystem s)
{
	return s < HOTPLUG_SUBSYSTEM_COUNT ? names[s] : "?";
}

int hotplug_subsystem_parse(const char *name, enum hotplug_subsystem *ret)
{
	for (unsigned int i = 0; i < HOTPLUG_SUBSYSTEM_COUNT; i++)
		if (name && strcmp(name, names[i]) == 0) {
			*ret = i;
			return 0;
		}
	return -EINVAL;
}

int hotplug_handler(const char *root, enum hotplug_subsystem s,
		    enum hotplug_handler *ret)
{
	char path[PATH_MAX], buf[16];
	int n, r;

	if (s >= HOTPLUG_SUBSYSTEM_COUNT)
		return -EINVAL;
	n = snprintf(path, sizeof(path), "%s/devices/system/%s/crash_hotplug",
		     root, names[s]);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	r = read_line_file(path, buf, sizeof(buf));
	if (r == -ENOENT) {
		/* A kernel without crash hotplug support (Debian's 6.1). */
		*ret = HOTPLUG_BY_RELOAD;
		return 0;
	}
	if (r < 0)
		return r;
	/* drivers/base/cpu.c and memory.c print the flag with "%d\n". */
	if (strcmp(buf, "1") == 0)
		*ret = HOTPLUG_BY_KERNEL;
	else if (strcmp(buf, "0") == 0)
		*ret = HOTPLUG_BY_RELOAD;
	else
		return -EBADMSG;
	return 0;
}

bool hotplug_crash_loaded(const char *root)
{
	char path[PATH_MAX];
	unsigned long long v = 0;
	int n = snprintf(path, sizeof(path), "%s/kernel/kexec_crash_loaded", root);

	return n > 0 && (size_t)n < sizeof(path) &&
	       read_ull_file(path, &v) == 0 && v == 1;
}

int hotplug_decide(const char *root, enum hotplug_subsystem s,
		   const char *action, enum hotplug_decision *ret)
{
	enum hotplug_handler h;
	int r;

	/*
	 * Only add and remove change what the headers are built from: the
	 * present CPUs and the System RAM resources.  online and offline
	 * change neither (see udev/60-kdump-file-hotplug.rules).
	 */
	if (action && strcmp(action, "add") != 0 && strcmp(action, "remove") != 0) {
		*ret = HOTPLUG_IGNORE_ACTION;
		return 0;
	}
	if (!hotplug_crash_loaded(root)) {
		*ret = HOTPLUG_NOT_LOADED;
		return 0;
	}
	r = hotplug_handler(root, s, &h);
	if (r < 0)
		return r;
	*ret = h == HOTPLUG_BY_KERNEL ? HOTPLUG_IN_PLACE : HOTPLUG_MARK_PENDING;
	return 0;
}

int hotplug_mark_pending(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int fd, r;

	if (!slash || slash == path || (size_t)(slash - path) >= sizeof(dir))
		return -EINVAL;
	memcpy(dir, path, slash - path);
	dir[slash - path] = '\0';
	r = mkdir_p(dir, 0700);
	if (r < 0)
		return r;
	/* O_CREAT makes it in one step; an existing one only gets a new mtime. */
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW,
		  0600);
	if (fd < 0)
		return -errno;
	r = futimens(fd, NULL) < 0 ? -errno : 0;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

bool hotplug_pending(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

long long hotplug_settle_left(const struct timespec *mtime,
			      const struct timespec *now, long long quiet_ms)
{
	long long age = (long long)(now->tv_sec - mtime->tv_sec) * 1000 +
			(now->tv_nsec - mtime->tv_nsec) / 1000000;

	if (age < 0)
		age = 0;	/* the clock was set back: from now on */
	return age >= quiet_ms ? 0 : quiet_ms - age;
}

int hotplug_settle(const char *path, long long quiet_ms, long long poll_ms,
		   long long max_ms)
{
	unsigned long long start = now_ms();

	for (;;) {
		struct timespec now, nap;
		long long left, spent;
		struct stat st;

		if (lstat(path, &st) < 0)
			return -errno;
		/* mtime is wall-clock time: compare it with the same clock. */
		clock_gettime(CLOCK_REALTIME, &now);
		left = hotplug_settle_left(&st.st_mtim, &now, quiet_ms);
		if (left == 0)
			return 1;
		spent = (long long)(now_ms() - start);
		if (spent >= max_ms)
			return 0;
		if (left > poll_ms)
			left = poll_ms;
		if (left > max_ms - spent)
			left = max_ms - spent;
		nap.tv_sec = left / 1000;
		nap.tv_nsec = (left % 1000) * 1000000;
		while (nanosleep(&nap, &nap) < 0 && errno == EINTR)
			;
	}
}
