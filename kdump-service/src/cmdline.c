// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdline.h"

/*
 * Parameters of the first kernel a capture kernel must not inherit: memory
 * reservations and layout it cannot honour in crashkernel memory, the root
 * filesystem (the capture initramfs finds its own target), and those the
 * capture parameters below set themselves.
 */
static const char *const drop_always[] = {
	"crashkernel", "elfcorehdr", "hugepages", "hugepagesz",
	"default_hugepagesz", "hugetlb_cma", "cma", "resume", "resume_offset",
	"root", "rootflags", "rootfstype", "rootwait", "ro", "rw", "init",
	"rdinit",
	"nr_cpus", "maxcpus", "irqpoll", "reset_devices", "panic", "oops",
	"kdump_file_test", NULL,
};

/* Length of the next token, honouring double quotes as the kernel does. */
static size_t token_len(const char *s)
{
	bool quoted = false;
	size_t n = 0;

	for (; s[n]; n++) {
		if (s[n] == '"')
			quoted = !quoted;
		else if (!quoted && (s[n] == ' ' || s[n] == '\t' ||
				     s[n] == '\n'))
			break;
	}
	return n;
}

/*
 * The next token from *s on (blanks before it skipped) and its length in
 * *len, *s moved past it; NULL at the end.
 */
static const char *next_token(const char **s, size_t *len)
{
	const char *t = *s + strspn(*s, " \t\n");

	*len = token_len(t);
	*s = t + *len;
	return *len ? t : NULL;
}

static size_t name_len(const char *tok, size_t len)
{
	const char *eq = memchr(tok, '=', len);

	return eq ? (size_t)(eq - tok) : len;
}

/*
 * Is s (len bytes) a token of the blank-separated list, or with names the
 * name of one (what comes before its '=')?
 */
static bool in_list(const char *s, size_t len, const char *list, bool names)
{
	const char *p = list, *t;
	size_t n;

	while ((t = next_token(&p, &n)))
		if ((names ? name_len(t, n) : n) == len && strncmp(t, s, len) == 0)
			return true;
	return false;
}

bool cmdline_always_dropped(const char *name, size_t len)
{
	for (unsigned int i = 0; drop_always[i]; i++)
		if (strlen(drop_always[i]) == len &&
		    strncmp(name, drop_always[i], len) == 0)
			return true;
	return false;
}

bool cmdline_capture_adds(const char *tok)
{
	return in_list(tok, strlen(tok), CMDLINE_CAPTURE_ADD, false);
}

static bool drop(const char *tok, size_t len, const struct kdump_conf *c)
{
	size_t n = name_len(tok, len);

	return cmdline_always_dropped(tok, n) ||
	       in_list(tok, n, c->cmdline_remove, true);
}

static int append(char *buf, size_t size, size_t *pos, const char *s,
		  size_t len)
{
	size_t need = len + (*pos ? 1 : 0);

	if (len == 0)
		return 0;
	if (*pos + need >= size)
		return -ENOBUFS;
	if (*pos)
		buf[(*pos)++] = ' ';
	memcpy(buf + *pos, s, len);
	*pos += len;
	buf[*pos] = '\0';
	return 0;
}

unsigned int cmdline_user_cpus(const struct kdump_conf *c)
{
	const char *p = c->cmdline_append, *t;
	unsigned int cpus = 0;
	size_t n;

	while ((t = next_token(&p, &n))) {
		/* The kernel's early_param() takes the last one. */
		if (n > 8 && strncmp(t, "nr_cpus=", 8) == 0) {
			unsigned long v = strtoul(t + 8, NULL, 10);

			cpus = v > 4096 ? 4096 : (unsigned int)v;
		}
	}
	return cpus;
}

/*
 * CMDLINE_CAPTURE_ADD with nr_cpus=cpus for nr_cpus=1: the capture kernel
 * brings up a CPU for each of makedumpfile's threads.
 */
static int append_capture(char *buf, size_t size, size_t *pos,
			  unsigned int cpus)
{
	const char *p = CMDLINE_CAPTURE_ADD, *t;
	char nr[32];
	size_t n;
	int r = 0;

	snprintf(nr, sizeof(nr), "nr_cpus=%u", cpus ? cpus : 1);
	while (r == 0 && (t = next_token(&p, &n))) {
		if (n == strlen("nr_cpus=1") && strncmp(t, "nr_cpus=1", n) == 0)
			r = append(buf, size, pos, nr, strlen(nr));
		else
			r = append(buf, size, pos, t, n);
	}
	return r;
}

int cmdline_build(const char *running, const struct kdump_conf *c,
		  unsigned int cpus, char *buf, size_t size)
{
	const char *p = running, *t;
	size_t pos = 0, n;
	int r;

	if (size == 0)
		return -ENOBUFS;
	buf[0] = '\0';
	while ((t = next_token(&p, &n))) {
		/* Everything after "--" belongs to init, not the kernel. */
		if (n == 2 && strncmp(t, "--", 2) == 0)
			break;
		if (!drop(t, n, c)) {
			r = append(buf, size, &pos, t, n);
			if (r < 0)
				return r;
		}
	}
	r = append_capture(buf, size, &pos, cpus);
	if (r >= 0)
		r = append(buf, size, &pos, c->cmdline_append,
			   strlen(c->cmdline_append));
	if (r < 0)
		return r;
	if (pos + 1 + CMDLINE_ELFCOREHDR_RESERVE > CMDLINE_KERNEL_MAX)
		return -E2BIG;
	return (int)pos;
}

int cmdline_add(char *buf, size_t size, const char *tok)
{
	size_t len = strlen(buf);

	if (len + 1 + strlen(tok) + 1 + CMDLINE_ELFCOREHDR_RESERVE >
		    CMDLINE_KERNEL_MAX ||
	    len + 1 + strlen(tok) + 1 > size)
		return -E2BIG;
	snprintf(buf + len, size - len, "%s%s", len ? " " : "", tok);
	return 0;
}
