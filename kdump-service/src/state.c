// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "state.h"

static int fit(int n, size_t size)
{
	if (n < 0)
		return -EINVAL;
	return (size_t)n < size ? 0 : -ENOBUFS;
}

int loaded_format(const char *kernel, const char *initramfs,
		  const char *cmdline, char *buf, size_t size)
{
	return fit(snprintf(buf, size, "kernel=%s\ninitramfs=%s\ncmdline=%s\n",
			    kernel, initramfs, cmdline), size);
}

/* The value of "key=" on a line of its own in text, into buf. */
static int line_value(const char *text, const char *key, char *buf, size_t size)
{
	size_t klen = strlen(key);
	const char *l = text;

	while (*l) {
		const char *end = strchr(l, '\n');
		size_t n = end ? (size_t)(end - l) : strlen(l);

		if (n > klen && strncmp(l, key, klen) == 0 && l[klen] == '=') {
			n -= klen + 1;
			if (n >= size)
				return -ENOBUFS;
			memcpy(buf, l + klen + 1, n);
			buf[n] = '\0';
			return 0;
		}
		if (!end)
			break;
		l = end + 1;
	}
	return -ENOENT;
}

int loaded_parse(const char *text, struct loaded_state *ret)
{
	struct loaded_state s;

	if (line_value(text, "kernel", s.kernel, sizeof(s.kernel)) < 0 ||
	    !s.kernel[0] ||
	    line_value(text, "initramfs", s.initramfs, sizeof(s.initramfs)) < 0 ||
	    line_value(text, "cmdline", s.cmdline, sizeof(s.cmdline)) < 0)
		return -EINVAL;
	*ret = s;
	return 0;
}

/* n bytes of s, at least one, fewer than room, all of them from chars. */
static bool token_valid(const char *s, size_t n, size_t room,
			const char *chars)
{
	if (n == 0 || n >= room)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!s[i] || !strchr(chars, s[i]))
			return false;
	return true;
}

/* A pstore backend's name as the kernel has it: a module name. */
static bool backend_valid(const char *s, size_t n)
{
	return token_valid(s, n, sizeof(((struct armed *)0)->pstore),
			   "abcdefghijklmnopqrstuvwxyz0123456789_");
}

int armed_format(const char *boot, long long time, const char *pstore,
		 const char *kernel, char *buf, size_t size)
{
	char ps[sizeof(((struct armed *)0)->pstore) + 8] = "";

	if (pstore && pstore[0]) {
		if (!backend_valid(pstore, strlen(pstore)))
			return -EINVAL;
		snprintf(ps, sizeof(ps), " pstore=%s", pstore);
	}
	if (kernel)
		return fit(snprintf(buf, size, "boot=%s time=%lld%s kernel=%s\n",
				    boot, time, ps, kernel), size);
	return fit(snprintf(buf, size, "boot=%s time=%lld%s\n", boot, time,
			    ps), size);
}

/* A boot id as /proc/sys/kernel/random/boot_id has it: hex and dashes. */
static bool boot_id_valid(const char *s, size_t n)
{
	return token_valid(s, n, sizeof(((struct armed *)0)->boot),
			   "0123456789abcdefABCDEF-");
}

int armed_parse(const char *text, struct armed *ret)
{
	struct armed a = { 0 };
	const char *p = text, *end;
	char *num_end;
	size_t n;

	if (strncmp(p, "boot=", 5) != 0)
		return -EINVAL;
	p += 5;
	n = strcspn(p, " \n");
	if (!boot_id_valid(p, n))
		return -EINVAL;
	memcpy(a.boot, p, n);
	p += n;
	if (strncmp(p, " time=", 6) != 0)
		return -EINVAL;
	p += 6;
	if (*p < '0' || *p > '9')
		return -EINVAL;
	errno = 0;
	a.time = strtoll(p, &num_end, 10);
	if (errno)
		return -EINVAL;
	p = num_end;
	if (strncmp(p, " pstore=", 8) == 0) {
		p += 8;
		n = strcspn(p, " \n");
		if (!backend_valid(p, n))
			return -EINVAL;
		memcpy(a.pstore, p, n);
		p += n;
	}
	if (strncmp(p, " kernel=", 8) == 0) {
		p += 8;
		end = strchr(p, '\n');
		n = end ? (size_t)(end - p) : strlen(p);
		if (n == 0 || n >= sizeof(a.kernel))
			return -EINVAL;
		memcpy(a.kernel, p, n);
		p += n;
	}
	if (*p != '\0' && strcmp(p, "\n") != 0)
		return -EINVAL;
	*ret = a;
	return 0;
}

enum crash_verdict crash_verdict(const char *marker, const char *boot_id,
				 long long newest_dump_time, struct armed *ret)
{
	struct armed a;

	if (!marker || !boot_id || !boot_id[0] || armed_parse(marker, &a) < 0 ||
	    strcmp(a.boot, boot_id) == 0)
		return CRASH_NONE;
	if (ret)
		*ret = a;
	return newest_dump_time >= a.time ? CRASH_SAVED : CRASH_LOST;
}

bool lost_is_current(const struct armed *lost, long long newest_complete_time)
{
	return newest_complete_time < lost->time;
}

int lost_describe(const struct armed *lost, char *buf, size_t size)
{
	char when[32] = "unknown time";
	time_t t = lost->time;
	struct tm tm;

	if (gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	/*
	 * A capture kernel that runs records its failure in pstore: the
	 * capture program's record, or its panic (max_reason).  None there
	 * means none ran that far: purgatory stops before a capture kernel
	 * whose digest no longer matches (arch/x86/purgatory/purgatory.c),
	 * and one without the memory to boot dies as early.
	 */
	if (lost->pstore[0])
		return fit(snprintf(buf, size,
				    "boot %s (armed %s) ended without a clean shutdown while the capture kernel was loaded, and no dump from it was saved: if it crashed, no capture kernel left a record in pstore (%s): it never started, or stopped before it could record; purgatory refuses a capture kernel damaged after the load (a stray write into the crashkernel= reservation), and a reservation too small for it to boot has the same effect (see 'kdump-file estimate'); 'kdump-file reload' loads a fresh copy, and 'kdump-file test' with the console or serial log watched shows where it stops",
				    lost->boot, when, lost->pstore), size);
	return fit(snprintf(buf, size,
			    "boot %s (armed %s) ended without a clean shutdown while the capture kernel was loaded, and no dump from it was saved: if it crashed, the capture failed (a crashkernel= reservation too small for the capture is the usual cause: see 'kdump-file estimate'; the capture kernel's console shows why)",
			    lost->boot, when), size);
}
