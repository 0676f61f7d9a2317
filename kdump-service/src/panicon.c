// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "panicon.h"
#include "util.h"

/*
 * The sysctls (kernel/panic.c, kernel/hung_task.c, kernel/watchdog.c,
 * kernel/rcu/tree_stall.h), each there only when the kernel is built with
 * what it controls; the index is the bit of struct kdump_conf.panic_on.
 */
static const struct {
	const char *path;	/* under the sysctl root */
	const char *name;
	const char *missing;
} items[PANIC_ON_COUNT] = {
	{ "kernel/panic_on_oops", "kernel.panic_on_oops",
	  "this kernel has no such setting" },
	{ "kernel/hung_task_panic", "kernel.hung_task_panic",
	  "this kernel has no hung task detector (CONFIG_DETECT_HUNG_TASK)" },
	{ "kernel/softlockup_panic", "kernel.softlockup_panic",
	  "this kernel has no soft lockup detector (CONFIG_SOFTLOCKUP_DETECTOR)" },
	{ "kernel/hardlockup_panic", "kernel.hardlockup_panic",
	  "this kernel has no hard lockup detector (CONFIG_HARDLOCKUP_DETECTOR)" },
	{ "kernel/panic_on_rcu_stall", "kernel.panic_on_rcu_stall",
	  "this kernel has no RCU stall detector" },
	{ "kernel/panic_on_warn", "kernel.panic_on_warn",
	  "this kernel has no such setting" },
};

#define STATE_FILE_MAX 4096

const char *panicon_sysctl(unsigned int i)
{
	return i < PANIC_ON_COUNT ? items[i].name : "?";
}

const char *panicon_missing_reason(unsigned int i)
{
	return i < PANIC_ON_COUNT ? items[i].missing : "?";
}

/* A sysctl int as the kernel prints it: an optional '-' and digits. */
static bool value_valid(const char *v, size_t n)
{
	size_t i = v[0] == '-';

	if (n <= i || n >= PANICON_VALUE_MAX)
		return false;
	for (; i < n; i++)
		if (v[i] < '0' || v[i] > '9')
			return false;
	return true;
}

int panicon_saved_parse(const char *text, struct panicon_saved *ret)
{
	struct panicon_saved s = { 0 };
	const char *l = text;

	while (*l) {
		const char *end = strchr(l, '\n');
		size_t n = end ? (size_t)(end - l) : strlen(l);
		const char *eq = memchr(l, '=', n);
		unsigned int i;

		if (n == 0)
			return -EINVAL;
		if (!eq)
			return -EINVAL;
		for (i = 0; i < PANIC_ON_COUNT; i++)
			if (strlen(items[i].name) == (size_t)(eq - l) &&
			    strncmp(l, items[i].name, eq - l) == 0)
				break;
		if (i == PANIC_ON_COUNT || (s.mask & (1U << i)) ||
		    !value_valid(eq + 1, n - (eq + 1 - l)))
			return -EINVAL;
		s.mask |= 1U << i;
		memcpy(s.value[i], eq + 1, n - (eq + 1 - l));
		if (!end)
			break;
		l = end + 1;
	}
	*ret = s;
	return 0;
}

int panicon_saved_format(const struct panicon_saved *s, char *buf,
			 size_t size)
{
	size_t pos = 0;

	if (size == 0)
		return -ENOBUFS;
	buf[0] = '\0';
	for (unsigned int i = 0; i < PANIC_ON_COUNT; i++) {
		int n;

		if (!(s->mask & (1U << i)))
			continue;
		n = snprintf(buf + pos, size - pos, "%s=%s\n", items[i].name,
			     s->value[i]);
		if (n < 0 || (size_t)n >= size - pos)
			return -ENOBUFS;
		pos += n;
	}
	return 0;
}

/* The state file; none is an empty one. */
static int saved_load(const char *state, struct panicon_saved *ret)
{
	char *text;
	int r;

	r = read_file_max(state, &text, STATE_FILE_MAX);
	if (r == -ENOENT) {
		memset(ret, 0, sizeof(*ret));
		return 0;
	}
	if (r < 0)
		return r;
	r = panicon_saved_parse(text, ret);
	free(text);
	return r < 0 ? -EBADMSG : 0;
}

/* Written through a rename; removed when it holds nothing. */
static int saved_store(const char *state, const struct panicon_saved *s)
{
	char buf[STATE_FILE_MAX];
	int r;

	if (!s->mask)
		return unlink(state) < 0 && errno != ENOENT ? -errno : 0;
	r = panicon_saved_format(s, buf, sizeof(buf));
	if (r < 0)
		return r;
	return write_file_atomic(state, buf, strlen(buf), 0600);
}

static int sysctl_path(const char *root, unsigned int i, char *buf,
		       size_t size)
{
	int n = snprintf(buf, size, "%s/%s", root, items[i].path);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static int read_value(const char *root, unsigned int i,
		      char ret[PANICON_VALUE_MAX])
{
	char path[PATH_MAX], buf[64];
	int r;

	r = sysctl_path(root, i, path, sizeof(path));
	if (r == 0)
		r = read_line_file(path, buf, sizeof(buf));
	if (r < 0)
		return r;
	if (!value_valid(buf, strlen(buf)))
		return -EBADMSG;
	strcpy(ret, buf);
	return 0;
}

/* Never creates: a sysctl that is not there is not made up. */
static int write_value(const char *root, unsigned int i, const char *value)
{
	char path[PATH_MAX], buf[PANICON_VALUE_MAX + 1];
	ssize_t n, done;
	int fd, r;

	r = sysctl_path(root, i, path, sizeof(path));
	if (r < 0)
		return r;
	n = snprintf(buf, sizeof(buf), "%s\n", value);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	/* A sysctl takes its value in one write (proc_sys_write()). */
	done = write(fd, buf, n);
	r = done < 0 ? -errno : done != n ? -EIO : 0;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

int panicon_apply(const char *root, const char *state, unsigned int want,
		  struct panicon_result *ret)
{
	struct panicon_result res = { .failed = -1 };
	struct panicon_saved old, saved, final;
	char before[PANIC_ON_COUNT][PANICON_VALUE_MAX];
	unsigned int changed = 0, i;
	int r;

	want &= (1U << PANIC_ON_COUNT) - 1;
	r = saved_load(state, &old);
	if (r < 0)
		goto fail;
	saved = old;
	/* Every value first, and the ones before ours saved, before any write. */
	for (i = 0; i < PANIC_ON_COUNT; i++) {
		unsigned int bit = 1U << i;

		if (!(want & bit) && !(saved.mask & bit))
			continue;
		r = read_value(root, i, before[i]);
		if (r == -ENOENT) {
			/* Nothing to set, nothing to put back. */
			if (want & bit)
				res.missing |= bit;
			saved.mask &= ~bit;
			continue;
		}
		if (r < 0) {
			res.failed = i;
			goto fail;
		}
		if ((want & bit) && !(saved.mask & bit)) {
			saved.mask |= bit;
			strcpy(saved.value[i], before[i]);
		}
	}
	if (memcmp(&saved, &old, sizeof(saved)) != 0) {
		r = saved_store(state, &saved);
		if (r < 0)
			goto fail;
	}
	for (i = 0; i < PANIC_ON_COUNT; i++) {
		unsigned int bit = 1U << i;

		if (!(saved.mask & bit) || (want & bit))
			continue;
		r = write_value(root, i, saved.value[i]);
		if (r < 0)
			goto undo;
		changed |= bit;
		res.restored |= bit;
		strcpy(res.value[i], saved.value[i]);
	}
	for (i = 0; i < PANIC_ON_COUNT; i++) {
		unsigned int bit = 1U << i;

		if (!(want & bit) || (res.missing & bit))
			continue;
		r = write_value(root, i, "1");
		if (r < 0)
			goto undo;
		changed |= bit;
		res.set |= bit;
	}
	final = saved;
	final.mask &= want;
	if (final.mask != saved.mask) {
		r = saved_store(state, &final);
		if (r < 0) {
			i = PANIC_ON_COUNT;
			goto undo;
		}
	}
	*ret = res;
	return 0;

undo:
	res.failed = i < PANIC_ON_COUNT ? (int)i : -1;
	for (unsigned int j = 0; j < PANIC_ON_COUNT; j++)
		if (changed & (1U << j))
			(void)write_value(root, j, before[j]);
	(void)saved_store(state, &old);
fail:
	res.set = res.restored = 0;
	*ret = res;
	return r;
}

int panicon_restore(const char *root, const char *state,
		    struct panicon_result *ret)
{
	struct panicon_result res = { .failed = -1 };
	struct panicon_saved saved, left;
	int r, first = 0;

	r = saved_load(state, &saved);
	if (r < 0) {
		*ret = res;
		return r;
	}
	left = saved;
	for (unsigned int i = 0; i < PANIC_ON_COUNT; i++) {
		unsigned int bit = 1U << i;

		if (!(saved.mask & bit))
			continue;
		r = write_value(root, i, saved.value[i]);
		if (r == -ENOENT) {
			/* Gone with what it controlled: nothing to put back. */
			left.mask &= ~bit;
			continue;
		}
		if (r < 0) {
			if (!first) {
				first = r;
				res.failed = i;
			}
			continue;
		}
		left.mask &= ~bit;
		res.restored |= bit;
		strcpy(res.value[i], saved.value[i]);
	}
	if (left.mask != saved.mask) {
		r = saved_store(state, &left);
		if (r < 0 && !first)
			first = r;	/* res.failed stays -1: the state file */
	}
	*ret = res;
	return first;
}

int panicon_read(const char *root, unsigned int *ret_set,
		 unsigned int *ret_present)
{
	unsigned int set = 0, present = 0;

	for (unsigned int i = 0; i < PANIC_ON_COUNT; i++) {
		char v[PANICON_VALUE_MAX];
		int r = read_value(root, i, v);

		if (r == -ENOENT)
			continue;
		if (r < 0)
			return r;
		present |= 1U << i;
		if (strcmp(v, "0") != 0)
			set |= 1U << i;
	}
	*ret_set = set;
	*ret_present = present;
	return 0;
}
