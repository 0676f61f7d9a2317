// SPDX-License-Identifier: GPL-2.0
/*
 * Parser of /etc/kdump-file.conf.  Input is hostile until proven otherwise:
 * values are bounded, must be valid UTF-8 without control characters, and
 * are never handed to a shell by any user of this parser.
 *
 * Here the file is read line by line into a copy, and the keys are
 * checked against each other; conf-keys.c checks each key's value and
 * conf-makedumpfile.c makedumpfile's (what they share is in
 * conf-internal.h); conf-write.c writes a configuration back as text.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf-internal.h"
#include "target.h"
#include "util.h"

#define CONF_FILE_MAX (64 * 1024)

void conf_init(struct kdump_conf *c)
{
	memset(c, 0, sizeof(*c));
	strcpy(c->path, "/var/crash");
	c->dump_level = 31;
	c->compression = COMPRESS_LZO;
	c->failure_action = ACTION_REBOOT;
	c->final_action = ACTION_REBOOT;
	c->target_timeout = 60;
	c->hook_timeout = CONF_HOOK_TIMEOUT_DEFAULT;
	c->nfs_version = 4;
	strcpy(c->ssh_key, CONF_SSH_KEY_DEFAULT);
	c->net_timeout = CONF_NET_TIMEOUT_DEFAULT;
	c->net_load_wait = CONF_NET_LOAD_WAIT_DEFAULT;
	c->makedumpfile_threads = CONF_THREADS_DEFAULT;
}

int conf_known_hosts(const struct kdump_conf *c, char *buf, size_t size)
{
	const char *slash = strrchr(c->ssh_key, '/');
	int n;

	if (!slash)
		return -EINVAL;
	n = snprintf(buf, size, "%.*s/known_hosts", (int)(slash - c->ssh_key),
		     c->ssh_key);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/*
 * Strict UTF-8 (utf8_seq_len(): no overlongs, no surrogates), no control
 * characters.  s[len] is '\0', where any sequence cut short ends.
 */
static int check_text(const unsigned char *s, size_t len)
{
	for (size_t i = 0; i < len;) {
		size_t n;

		if (s[i] < 0x20 || s[i] == 0x7f)
			return -EINVAL;
		n = utf8_seq_len(s + i);
		if (n == 0)
			return -EILSEQ;
		i += n;
	}
	return 0;
}

/*
 * Line lineno of buf, from *pos, into line (size bytes) as the keys are
 * read from it: without its end of line ("\n" or "\r\n"), tabs made
 * blanks, checked for UTF-8 and control characters, a comment cut off;
 * its length in *ret_len.  *pos moves past it.
 */
static int read_line(const char *buf, size_t len, size_t *pos,
		     unsigned int lineno, char *line, size_t size,
		     size_t *ret_len, struct diag *err)
{
	const char *nl = memchr(buf + *pos, '\n', len - *pos);
	size_t n = nl ? (size_t)(nl - (buf + *pos)) : len - *pos;
	int r;

	if (n >= size)
		return diag_fail_at(err, -E2BIG, lineno, NULL,
				    "line is longer than %zu bytes", size - 1);
	memcpy(line, buf + *pos, n);
	line[n] = '\0';
	*pos += n + 1;
	if (n && line[n - 1] == '\r')
		line[--n] = '\0';

	/* Tabs are separators; any other control character is not. */
	for (size_t i = 0; i < n; i++)
		if (line[i] == '\t')
			line[i] = ' ';
	r = check_text((unsigned char *)line, n);
	if (r < 0)
		return diag_fail_at(err, r, lineno, NULL,
				    r == -EILSEQ ? "line is not valid UTF-8" : "line contains a control character");

	/* '#' at the start or after a blank starts a comment. */
	for (size_t i = 1; i < n; i++) {
		if (line[i] == '#' && line[i - 1] == ' ') {
			line[i] = '\0';
			n = i;
			break;
		}
	}
	*ret_len = n;
	return 0;
}

/* The known key an unknown one is most likely a typo of, if any. */
static const char *nearest_key(const char *key)
{
	size_t best = 3;
	const char *near = NULL;

	for (unsigned int k = 0; k < KEY_MAX; k++) {
		size_t d = edit_distance(key, conf_key_names[k]);

		if (d < best) {
			best = d;
			near = conf_key_names[k];
		}
	}
	return near;
}

static char *strip(char *s, char *end)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	*end = '\0';
	return s;
}

/* The key named name, or -ENOKEY with the known key it is nearest to. */
static int find_key(const char *name, unsigned int lineno, struct diag *err)
{
	const char *near;

	for (unsigned int k = 0; k < KEY_MAX; k++)
		if (strcmp(name, conf_key_names[k]) == 0)
			return (int)k;
	near = nearest_key(name);
	if (near)
		return diag_fail_at(err, -ENOKEY, lineno, name,
				    "unknown key (did you mean '%s'?)", near);
	return diag_fail_at(err, -ENOKEY, lineno, name,
			    "unknown key (see kdump-file.conf(5))");
}

/*
 * One "key = value" of line lineno (s, neither blank nor a comment) into
 * c: a known key, not set before (seen_line[k], the line it is set on),
 * its value set as the key takes it.
 */
static int parse_key_value(struct kdump_conf *c, char *s,
			   unsigned int lineno, unsigned int *seen_line,
			   struct diag *err)
{
	char *key, *val, *eq;
	int k;

	eq = strchr(s, '=');
	if (!eq)
		return diag_fail_at(err, -EINVAL, lineno, NULL,
				    "expected 'key = value', got '%.60s'", s);
	val = strip(eq + 1, s + strlen(s));
	key = strip(s, eq);
	k = find_key(key, lineno, err);
	if (k < 0)
		return k;
	if (seen_line[k])
		return diag_fail_at(err, -EEXIST, lineno, key,
				    "key already set on line %u",
				    seen_line[k]);
	seen_line[k] = lineno;
	if (strlen(val) >= CONF_VALUE_MAX)
		return diag_fail_at(err, -E2BIG, lineno, key,
				    "value is longer than %d bytes",
				    CONF_VALUE_MAX - 1);
	return conf_set_key(c, k, val, lineno, err);
}

/* The keys of network targets only, and path beside a URL. */
static int check_net(const struct kdump_conf *c, const unsigned int *seen_line,
		     struct diag *err)
{
	static const struct {
		enum conf_key k;
		enum conf_net only;	/* CONF_NET_NONE: any network target */
	} net_keys[] = {
		{ KEY_NFS_VERSION, CONF_NET_NFS },
		{ KEY_SSH_KEY, CONF_NET_SSH },
		{ KEY_FALLBACK, CONF_NET_NONE },
		{ KEY_NET_TIMEOUT, CONF_NET_NONE },
		{ KEY_NET_LOAD_WAIT, CONF_NET_NONE },
	};

	if (c->net && seen_line[KEY_PATH])
		return diag_fail_at(err, -EINVAL, seen_line[KEY_PATH], "path",
				    "the directory is part of the URL in 'target' (line %u): remove 'path'",
				    seen_line[KEY_TARGET]);
	for (size_t i = 0; i < sizeof(net_keys) / sizeof(net_keys[0]); i++) {
		enum conf_key k = net_keys[i].k;
		bool fits = net_keys[i].only ? c->net == net_keys[i].only :
					       c->net != CONF_NET_NONE;

		if (!seen_line[k] || fits)
			continue;
		return diag_fail_at(err, -EINVAL, seen_line[k],
				    conf_key_names[k],
				    "applies to %s target only (target = %s): remove it or set the target",
				    net_keys[i].only == CONF_NET_NFS ? "an nfs://" : net_keys[i].only == CONF_NET_SSH ? "an ssh://" : "a network",
				    c->target[0] ? c->target : "the root filesystem");
	}
	if (c->fallback[0] && strcmp(c->fallback, "/") == 0)
		return diag_fail_at(err, -EINVAL, seen_line[KEY_FALLBACK],
				    "fallback",
				    "'/' is the root directory itself: name a directory for dumps, such as /var/crash");
	return 0;
}

/*
 * What the keys need of each other, once all are read: one target, a raw
 * device's identity, the network's keys, makedumpfile's, hooks with a
 * dump directory, and nothing for the initramfs kdump-file builds beside
 * a user's own.
 */
static int check_keys(const struct kdump_conf *c,
		      const unsigned int *seen_line, struct diag *err)
{
	int r;

	if (c->target[0] && c->raw[0])
		return diag_fail_at(err, -EINVAL, seen_line[KEY_RAW], "raw",
				    "'raw' and 'target' exclude each other (line %u)",
				    seen_line[KEY_TARGET]);
	if (c->raw_identity[0]) {
		struct target_identity id;

		/* Parsed when set: only its spec is checked here. */
		(void)target_identity_parse(c->raw_identity, &id);
		if (strcmp(id.spec, c->raw) != 0)
			return diag_fail_at(err, -EINVAL,
					    seen_line[KEY_RAW_IDENTITY],
					    "raw_identity",
					    "it names %s, and 'raw' is '%s': they must name the same device",
					    id.spec, c->raw);
	}
	r = check_net(c, seen_line, err);
	if (r < 0)
		return r;
	r = conf_check_makedumpfile(c, seen_line, err);
	if (r < 0)
		return r;
	/* Hooks get the dump directory, which a raw device has not. */
	if (c->raw[0] && (c->pre_hook[0] || c->post_hook[0])) {
		enum conf_key h = c->pre_hook[0] ? KEY_PRE_HOOK : KEY_POST_HOOK;

		return diag_fail_at(err, -EINVAL, seen_line[h],
				    conf_key_names[h],
				    "hooks need a dump directory and 'raw' (line %u) has none: remove one of them",
				    seen_line[KEY_RAW]);
	}
	/* What goes into the initramfs kdump-file builds, not a user's own. */
	if (c->initramfs[0]) {
		static const enum conf_key packed[] = {
			KEY_PRE_HOOK, KEY_POST_HOOK, KEY_EXTRA_MODULES,
			KEY_EXTRA_BINARIES
		};
		const char *vals[] = { c->pre_hook, c->post_hook,
				       c->extra_modules, c->extra_binaries };

		for (size_t i = 0; i < 4; i++)
			if (vals[i][0])
				return diag_fail_at(err, -EINVAL,
						    seen_line[packed[i]],
						    conf_key_names[packed[i]],
						    "goes into the capture initramfs kdump-file builds, and 'initramfs' (line %u) names one of your own: remove one of them",
						    seen_line[KEY_INITRAMFS]);
	}
	return 0;
}

int conf_parse_buffer(struct kdump_conf *c, const char *buf, size_t len,
		      struct diag *err)
{
	unsigned int seen_line[KEY_MAX] = { 0 };
	char line[CONF_VALUE_MAX + 128];
	struct kdump_conf tmp;
	unsigned int lineno = 0;
	size_t pos = 0, n = 0;
	int r;

	conf_init(&tmp);
	if (memchr(buf, '\0', len))
		return diag_fail_at(err, -EINVAL, 0, NULL,
				    "the file contains a NUL byte");
	while (pos < len) {
		char *s;

		r = read_line(buf, len, &pos, ++lineno, line, sizeof(line), &n,
			      err);
		if (r < 0)
			return r;
		s = strip(line, line + n);
		if (*s == '#' || *s == '\0')
			continue;
		r = parse_key_value(&tmp, s, lineno, seen_line, err);
		if (r < 0)
			return r;
	}
	r = check_keys(&tmp, seen_line, err);
	if (r < 0)
		return r;
	*c = tmp;
	return 0;
}

static int parse_file(struct kdump_conf *c, const char *path,
		      struct diag *err)
{
	_cleanup_free_ char *buf = NULL;
	_cleanup_close_ int fd = -1;
	struct stat st;
	int r;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		r = -errno;
		return diag_fail(err, r, NULL);
	}
	if (fstat(fd, &st) < 0) {
		r = -errno;
		return diag_fail(err, r, NULL);
	}
	if (!S_ISREG(st.st_mode))
		return diag_fail_at(err, -EINVAL, 0, NULL,
				    "not a regular file");
	/*
	 * The configuration decides what runs as root in the capture kernel:
	 * only root (or whoever runs us) may own it, and nobody else may
	 * write it.
	 */
	if ((st.st_uid != 0 && st.st_uid != geteuid()) ||
	    (st.st_mode & (S_IWGRP | S_IWOTH)))
		return diag_fail_at(err, -EPERM, 0, NULL,
				    "it is writable by others than its owner or not owned by root (mode %04o, uid %u): chown root and chmod go-w it",
				    (unsigned int)(st.st_mode & 07777),
				    (unsigned int)st.st_uid);
	/* Checked before and after the read: the file may grow meanwhile. */
	r = st.st_size > CONF_FILE_MAX ? -EFBIG :
					 read_fd_max(fd, &buf, CONF_FILE_MAX);
	if (r == -EFBIG)
		return diag_fail_at(err, r, 0, NULL, "larger than %d bytes",
				    CONF_FILE_MAX);
	if (r < 0)
		return diag_fail(err, r, NULL);
	return conf_parse_buffer(c, buf, (size_t)r, err);
}

int conf_parse_file(struct kdump_conf *c, const char *path, struct diag *err)
{
	int r = parse_file(c, path, err);

	if (r < 0 && err && err->line && err->key[0])
		diag_prefix(err, "%s:%u: key '%s'", path, err->line, err->key);
	else if (r < 0 && err && err->line)
		diag_prefix(err, "%s:%u", path, err->line);
	else if (r < 0)
		diag_prefix(err, "cannot read configuration '%s'", path);
	return r;
}

int conf_load_or_default(struct kdump_conf *c, const char *path,
			 struct diag *err)
{
	int r = conf_parse_file(c, path, err);

	if (r == -ENOENT && strcmp(path, CONF_PATH_DEFAULT) == 0) {
		conf_init(c);
		if (err)
			diag_clear(err);
		return 0;
	}
	return r;
}
