// SPDX-License-Identifier: GPL-2.0
/*
 * A configuration written as text: conf_write() gives every key in the
 * form conf_parse_buffer() reads back (load writes the capture's copy with
 * it), and conf_panic_on_format() panic_on's words for a mask, as the file
 * spells them and status and show print them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "conf.h"

int conf_panic_on_format(unsigned int mask, char *buf, size_t size)
{
	size_t pos = 0;
	int n;

	if (size == 0)
		return -ENOBUFS;
	buf[0] = '\0';
	if (!(mask & ((1U << PANIC_ON_COUNT) - 1)))
		return snprintf(buf, size, "none") < (int)size ? 0 : -ENOBUFS;
	for (unsigned int i = 0; i < PANIC_ON_COUNT; i++) {
		if (!(mask & (1U << i)))
			continue;
		n = snprintf(buf + pos, size - pos, "%s%s", pos ? ", " : "",
			     conf_panic_on_name(i));
		if (n < 0 || (size_t)n >= size - pos)
			return -ENOBUFS;
		pos += n;
	}
	return 0;
}

/* The keys of a network target, which only such a target may have. */
static int write_net(const struct kdump_conf *c, char *buf, size_t size)
{
	int n;

	switch (c->net) {
	case CONF_NET_SSH:
		n = snprintf(buf, size, "ssh_key = %s\n", c->ssh_key);
		break;
	case CONF_NET_NFS:
		n = snprintf(buf, size, "nfs_version = %u\n", c->nfs_version);
		break;
	default:
		return 0;
	}
	if (n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - n,
			      "net_timeout = %u\nfallback = %s\n",
			      c->net_timeout, c->fallback);
	if (n < 0)
		return -EINVAL;
	return (size_t)n >= size ? -ENOBUFS : n;
}

int conf_write(const struct kdump_conf *c, char *buf, size_t size)
{
	char level[16];
	int n, m;

	if (c->dmesg_only)
		strcpy(level, "dmesg");
	else
		snprintf(level, sizeof(level), "%u", c->dump_level);

	n = snprintf(buf, size,
		     "%s%s%s"
		     "target = %s\n"
		     "raw = %s\n%s%s%s"
		     "dump_level = %s\n"
		     "compression = %s\n"
		     "cmdline_append = %s\n"
		     "cmdline_remove = %s\n"
		     "kernel = %s\n"
		     "initramfs = %s\n"
		     "failure_action = %s\n"
		     "final_action = %s\n"
		     "keep = %u\n"
		     "min_free_mb = %llu\n"
		     "target_timeout = %u\n"
		     "capture_timeout = %u\n"
		     "raw_overwrite = %s\n"
		     "raw_force = %s\n"
		     "pre_hook = %s\n"
		     "post_hook = %s\n"
		     "hook_timeout = %u\n"
		     "hook_failure = %s\n"
		     "extra_modules = %s\n"
		     "extra_binaries = %s\n",
		     c->net ? "" : "path = ", c->net ? "" : c->path,
		     c->net ? "" : "\n", c->target, c->raw,
		     c->raw_identity[0] ? "raw_identity = " : "",
		     c->raw_identity, c->raw_identity[0] ? "\n" : "", level,
		     conf_compression_to_string(c->compression),
		     c->cmdline_append, c->cmdline_remove, c->kernel,
		     c->initramfs, conf_action_to_string(c->failure_action),
		     conf_action_to_string(c->final_action), c->keep,
		     c->min_free_mb, c->target_timeout, c->capture_timeout,
		     c->raw_overwrite ? "yes" : "no", c->raw_force ? "yes" : "no",
		     c->pre_hook, c->post_hook, c->hook_timeout,
		     c->hook_stop ? "stop" : "continue", c->extra_modules,
		     c->extra_binaries);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= size)
		return -ENOBUFS;
	{
		char words[128];

		if (conf_panic_on_format(c->panic_on, words, sizeof(words)) < 0)
			return -EINVAL;
		m = snprintf(buf + n, size - n, "panic_on = %s\n", words);
		if (m < 0)
			return -EINVAL;
		if ((size_t)m >= size - n)
			return -ENOBUFS;
		n += m;
	}
	m = snprintf(buf + n, size - n, "makedumpfile_args = %s\n",
		     c->makedumpfile_args);
	if (m < 0)
		return -EINVAL;
	if ((size_t)m >= size - n)
		return -ENOBUFS;
	n += m;
	/* --num-threads in makedumpfile_args is the request then: not twice. */
	if (!conf_makedumpfile_has(c, "--num-threads")) {
		char t[16];

		if (c->makedumpfile_threads == CONF_THREADS_AUTO)
			strcpy(t, "auto");
		else
			snprintf(t, sizeof(t), "%u", c->makedumpfile_threads);
		m = snprintf(buf + n, size - n, "makedumpfile_threads = %s\n",
			     t);
		if (m < 0)
			return -EINVAL;
		if ((size_t)m >= size - n)
			return -ENOBUFS;
		n += m;
	}
	m = write_net(c, buf + n, size - n);
	return m < 0 ? m : n + m;
}
