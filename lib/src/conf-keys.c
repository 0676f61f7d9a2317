// SPDX-License-Identifier: GPL-2.0
/*
 * kdump-file.conf's keys, one value at a time (see conf-internal.h): their
 * names, and the check of each key's value before it is set: clean
 * absolute paths, device specs and the URL of a network target, numbers in
 * their ranges, one word of a few, lists of paths or module names.  What
 * a value must not hold is refused with why, the character named.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf-internal.h"
#include "target.h"
#include "util.h"

static const char *const action_names[] = {
	[ACTION_REBOOT] = "reboot",
	[ACTION_POWEROFF] = "poweroff",
	[ACTION_HALT] = "halt",
	[ACTION_SHELL] = "shell",
};

static const char *const compression_names[] = {
	[COMPRESS_LZO] = "lzo",
	[COMPRESS_ZLIB] = "zlib",
	[COMPRESS_NONE] = "none",
};

const char *conf_action_to_string(enum conf_action a)
{
	return a <= ACTION_SHELL ? action_names[a] : "?";
}

const char *conf_compression_to_string(enum conf_compression c)
{
	return c <= COMPRESS_NONE ? compression_names[c] : "?";
}

const char *conf_net_to_string(enum conf_net n)
{
	switch (n) {
	case CONF_NET_SSH:
		return "ssh";
	case CONF_NET_NFS:
		return "nfs";
	default:
		return "";
	}
}

static int parse_action(const char *v, bool allow_shell, enum conf_action *ret)
{
	for (unsigned int a = 0; a <= ACTION_SHELL; a++) {
		if (strcmp(v, action_names[a]) == 0) {
			if (a == ACTION_SHELL && !allow_shell)
				return -EINVAL;
			*ret = a;
			return 0;
		}
	}
	return -EINVAL;
}

/*
 * The characters a configured path or label may use.  Everything else (blanks,
 * shell and glob metacharacters, control and non-ASCII characters) is refused:
 * nothing here goes through a shell, but a dump path like "/var/crash; rm"
 * is a mistake or an attack, never an intent.
 */
#define PATH_CHARS "/._-+,@:"

/* Kernel parameters: no quotes or backslashes (the kernel's own quoting), no
 * shell metacharacters, no control or non-ASCII characters.
 */
#define CMDLINE_BAD "\"'\\$`;|&<>(){}!*?"

/*
 * The first byte of v that is not a letter, a digit or in extra; NUL if
 * none.
 */
static char first_bad_char(const char *v, const char *extra)
{
	for (const char *s = v; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		    (ch >= '0' && ch <= '9') || strchr(extra, ch))
			continue;
		return *s;
	}
	return '\0';
}

/* An absolute path without "..", ".", "//" or a trailing slash (but "/"). */
static bool path_is_clean(const char *p)
{
	const char *s;

	if (p[0] != '/' || first_bad_char(p, PATH_CHARS))
		return false;
	if (strcmp(p, "/") == 0)
		return true;
	for (s = p; *s; s++) {
		if (s[0] == '/' && (s[1] == '/' || s[1] == '\0'))
			return false;
		if (s[0] == '/' && s[1] == '.' &&
		    (s[2] == '/' || s[2] == '\0' ||
		     (s[2] == '.' && (s[3] == '/' || s[3] == '\0'))))
			return false;
	}
	return true;
}

static bool is_device_spec(const char *v)
{
	static const char *const tags[] = { "UUID=", "LABEL=", "PARTUUID=",
					     "SERIAL=", "WWID=" };

	for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		size_t n = strlen(tags[i]);

		if (strncmp(v, tags[i], n) == 0)
			return v[n] != '\0' && !first_bad_char(v + n, "._-+,@:");
	}
	return strncmp(v, "/dev/", 5) == 0 && path_is_clean(v);
}

/* The first character refused in a kernel parameter; NUL if none. */
char conf_cmdline_bad_char(const char *v)
{
	for (const char *s = v; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch < 0x20 || ch >= 0x7f || strchr(CMDLINE_BAD, ch))
			return *s;
	}
	return '\0';
}

static int parse_bool(const char *v, bool *ret)
{
	if (strcmp(v, "yes") == 0 || strcmp(v, "true") == 0 ||
	    strcmp(v, "1") == 0)
		*ret = true;
	else if (strcmp(v, "no") == 0 || strcmp(v, "false") == 0 ||
		 strcmp(v, "0") == 0)
		*ret = false;
	else
		return -EINVAL;
	return 0;
}

/* "'x'" or "byte 0xNN" for a message about a refused character. */
const char *conf_char_name(char c, char *buf, size_t size)
{
	unsigned char ch = (unsigned char)c;

	if (ch > 0x20 && ch < 0x7f)
		snprintf(buf, size, "'%c'", c);
	else
		snprintf(buf, size, "byte 0x%02x", ch);
	return buf;
}

/*
 * panic_on: words separated by commas and/or blanks, or "none".  Which
 * sysctl each word sets is the loader's business (kdump-service/src/panicon.c).
 */
static const char *const panic_on_names[PANIC_ON_COUNT] = {
	"oops", "hung_task", "soft_lockup", "hard_lockup", "rcu_stall", "warn",
};

#define PANIC_ON_WORDS "oops, hung_task, soft_lockup, hard_lockup, rcu_stall, warn or none"

const char *conf_panic_on_name(unsigned int i)
{
	return i < PANIC_ON_COUNT ? panic_on_names[i] : NULL;
}

/*
 * The mask of v; on an unknown word, -EINVAL and that word (cut to fit)
 * in bad.  "none" stands alone.
 */
static int parse_panic_on(const char *v, unsigned int *ret, char *bad,
			  size_t bad_size)
{
	unsigned int mask = 0;
	bool none = false;
	int words = 0;

	while (*v) {
		size_t n = strcspn(v, ", ");
		unsigned int i;

		if (n == 0) {
			v++;
			continue;
		}
		words++;
		for (i = 0; i < PANIC_ON_COUNT; i++)
			if (strlen(panic_on_names[i]) == n &&
			    strncmp(v, panic_on_names[i], n) == 0)
				break;
		if (i < PANIC_ON_COUNT)
			mask |= 1U << i;
		else if (n == 4 && strncmp(v, "none", 4) == 0)
			none = true;
		else {
			/* Cut where a UTF-8 sequence starts, to fit. */
			if (n >= bad_size) {
				n = bad_size - 1;
				while (n > 0 &&
				       ((unsigned char)v[n] & 0xc0) == 0x80)
					n--;
			}
			snprintf(bad, bad_size, "%.*s", (int)n, v);
			return -EINVAL;
		}
		v += n;
	}
	if (none && words > 1) {
		snprintf(bad, bad_size, "none");
		return -ENOTUNIQ;
	}
	*ret = mask;
	return 0;
}

const char *const conf_key_names[KEY_MAX] = {
	[KEY_PATH] = "path",
	[KEY_TARGET] = "target",
	[KEY_RAW] = "raw",
	[KEY_DUMP_LEVEL] = "dump_level",
	[KEY_COMPRESSION] = "compression",
	[KEY_CMDLINE_APPEND] = "cmdline_append",
	[KEY_CMDLINE_REMOVE] = "cmdline_remove",
	[KEY_KERNEL] = "kernel",
	[KEY_INITRAMFS] = "initramfs",
	[KEY_FAILURE_ACTION] = "failure_action",
	[KEY_FINAL_ACTION] = "final_action",
	[KEY_KEEP] = "keep",
	[KEY_MIN_FREE] = "min_free_mb",
	[KEY_TARGET_TIMEOUT] = "target_timeout",
	[KEY_CAPTURE_TIMEOUT] = "capture_timeout",
	[KEY_RAW_OVERWRITE] = "raw_overwrite",
	[KEY_RAW_FORCE] = "raw_force",
	[KEY_PANIC_ON] = "panic_on",
	[KEY_MAKEDUMPFILE_ARGS] = "makedumpfile_args",
	[KEY_PRE_HOOK] = "pre_hook",
	[KEY_POST_HOOK] = "post_hook",
	[KEY_HOOK_TIMEOUT] = "hook_timeout",
	[KEY_HOOK_FAILURE] = "hook_failure",
	[KEY_EXTRA_MODULES] = "extra_modules",
	[KEY_EXTRA_BINARIES] = "extra_binaries",
	[KEY_NFS_VERSION] = "nfs_version",
	[KEY_SSH_KEY] = "ssh_key",
	[KEY_FALLBACK] = "fallback",
	[KEY_NET_TIMEOUT] = "net_timeout",
	[KEY_NET_LOAD_WAIT] = "net_load_wait",
	[KEY_RAW_IDENTITY] = "raw_identity",
	[KEY_MAKEDUMPFILE_THREADS] = "makedumpfile_threads",
};

bool conf_list_next(const char *list, size_t *pos, char *buf, size_t size)
{
	size_t i = *pos, n;

	while (list[i] == ' ')
		i++;
	n = strcspn(list + i, " ");
	if (n == 0 || n >= size)
		return false;
	memcpy(buf, list + i, n);
	buf[n] = '\0';
	*pos = i + n;
	return true;
}

/*
 * A list key: each blank-separated word checked, the list stored with
 * single spaces.  paths: absolute clean paths (hooks, binaries), else
 * kernel module names.
 */
static int set_list(char *dst, const char *v, bool paths, unsigned int line,
		    const char *key, struct diag *err)
{
	char word[CONF_VALUE_MAX], out[CONF_VALUE_MAX] = "", cb[16];
	size_t pos = 0, len = 0;
	unsigned int count = 0;

	while (conf_list_next(v, &pos, word, sizeof(word))) {
		char bad = first_bad_char(word, paths ? PATH_CHARS : "_-");

		if (++count > CONF_LIST_MAX)
			return diag_fail_at(err, -E2BIG, line, key,
					    "more than %d entries",
					    CONF_LIST_MAX);
		if (paths && bad)
			return diag_fail_at(err, -EINVAL, line, key,
					    "'%s' contains %s: paths may use letters, digits and / . _ - + , @ : only (no quoting, no shell)",
					    word,
					    conf_char_name(bad, cb,
							   sizeof(cb)));
		if (paths && word[0] != '/')
			return diag_fail_at(err, -EINVAL, line, key,
					    "'%s' is not an absolute path",
					    word);
		if (paths && !path_is_clean(word))
			return diag_fail_at(err, -EINVAL, line, key,
					    "'%s' is not a clean absolute path",
					    word);
		if (!paths && bad)
			return diag_fail_at(err, -EINVAL, line, key,
					    "'%s' contains %s: module names use letters, digits, _ and - only",
					    word,
					    conf_char_name(bad, cb,
							   sizeof(cb)));
		if (!paths && strlen(word) >= 56)
			return diag_fail_at(err, -EINVAL, line, key,
					    "'%s' is longer than a module name can be",
					    word);
		len += snprintf(out + len, sizeof(out) - len, "%s%s",
				len ? " " : "", word);
	}
	strcpy(dst, out);
	return 0;
}

/* An absolute clean path of PATH_CHARS; "" too when may_be_empty. */
static int set_path(char *dst, const char *v, bool may_be_empty,
		    unsigned int line, const char *key, struct diag *err)
{
	char cb[16], bad;

	if (may_be_empty && !*v) {
		dst[0] = '\0';
		return 0;
	}
	bad = first_bad_char(v, PATH_CHARS);
	if (bad)
		return diag_fail_at(err, -EINVAL, line, key,
				    "'%s' contains %s: paths may use letters, digits and / . _ - + , @ : only",
				    v, conf_char_name(bad, cb, sizeof(cb)));
	if (!path_is_clean(v))
		return diag_fail_at(err, -EINVAL, line, key,
				    "'%s' is not a clean absolute path", v);
	strcpy(dst, v);
	return 0;
}

/* A user name on the collector: what useradd takes by default. */
static bool net_user_valid(const char *u)
{
	size_t n = strlen(u);

	if (n == 0 || n > 32 || !(islower((unsigned char)u[0]) || u[0] == '_'))
		return false;
	for (; *u; u++)
		if (!islower((unsigned char)*u) &&
		    !isdigit((unsigned char)*u) && !strchr("_.-", *u))
			return false;
	return true;
}

/*
 * A host name (RFC 1123 letters, digits, '-', '.'), an IPv4 address, or an
 * IPv6 address (taken out of its brackets).
 */
static bool net_host_valid(const char *h)
{
	struct in6_addr a6;
	size_t n = strlen(h);

	if (strchr(h, ':'))
		return inet_pton(AF_INET6, h, &a6) == 1;

	if (n == 0 || n > 253 || h[0] == '-' || h[0] == '.' || h[n - 1] == '.')
		return false;
	for (; *h; h++)
		if (!isalnum((unsigned char)*h) && *h != '-' && *h != '.')
			return false;
	return true;
}

/*
 * target = ssh://USER@HOST[:PORT]/PATH or nfs://HOST/EXPORT/PATH into the
 * net_* fields.
 */
static int set_net_url(struct kdump_conf *c, const char *v, unsigned int line,
		       struct diag *err)
{
	static const char key[] = "target";
	bool ssh = strncmp(v, "ssh://", 6) == 0;
	const char *auth = v + 6, *slash = strchr(auth, '/'), *at;
	char hostport[300], port_text[300], *colon;
	bool has_port = false;
	unsigned long long port = 22;
	size_t n;
	int r;

	if (!slash || slash == auth)
		return diag_fail_at(err, -EINVAL, line, key,
				    "'%s' names no %s: write %s", v,
				    slash ? "host" : "directory",
				    ssh ? "ssh://USER@HOST[:PORT]/PATH" : "nfs://HOST/EXPORT/PATH");
	n = (size_t)(slash - auth);
	if (n >= sizeof(hostport))
		return diag_fail_at(err, -EINVAL, line, key,
				    "the host in '%s' is too long", v);
	memcpy(hostport, auth, n);
	hostport[n] = '\0';
	at = strchr(hostport, '@');
	if (ssh != (at != NULL))
		return diag_fail_at(err, -EINVAL, line, key,
				    ssh ? "'%s' names no user: write ssh://USER@HOST[:PORT]/PATH" : "'%s': an nfs:// target takes no user: write nfs://HOST/EXPORT/PATH",
				    v);
	if (at) {
		snprintf(c->net_user, sizeof(c->net_user), "%.*s",
			 (int)(at - hostport), hostport);
		if ((size_t)(at - hostport) >= sizeof(c->net_user) ||
		    !net_user_valid(c->net_user))
			return diag_fail_at(err, -EINVAL, line, key,
					    "the user in '%s' is not a user name (lower-case letters, digits, _ . -)",
					    v);
		memmove(hostport, at + 1, strlen(at + 1) + 1);
	}
	if (hostport[0] == '[') {
		/* [IPv6]: the address inside, then the port as ever. */
		char *close = strchr(hostport, ']');
		struct in6_addr a6;

		if (!close)
			return diag_fail_at(err, -EINVAL, line, key,
					    "'%s': the IPv6 address has no closing bracket: write %s://%s[ADDRESS]/PATH",
					    v, ssh ? "ssh" : "nfs", ssh ? "USER@" : "");
		*close = '\0';
		if (inet_pton(AF_INET6, hostport + 1, &a6) != 1)
			return diag_fail_at(err, -EINVAL, line, key,
					    "'%s': %s is not an IPv6 address",
					    v, hostport + 1);
		if (close[1] && close[1] != ':')
			return diag_fail_at(err, -EINVAL, line, key,
					    "'%s': only a port may follow the IPv6 address",
					    v);
		snprintf(port_text, sizeof(port_text), "%s",
			 close[1] ? close + 2 : "");
		has_port = close[1] == ':';
		memmove(hostport, hostport + 1, strlen(hostport + 1) + 1);
	} else if ((colon = strchr(hostport, ':'))) {
		snprintf(port_text, sizeof(port_text), "%s", colon + 1);
		has_port = true;
		hostport[colon - hostport] = '\0';
	}
	if (has_port) {
		if (!ssh)
			return diag_fail_at(err, -EINVAL, line, key,
					    "'%s': an nfs:// target takes no port",
					    v);
		r = parse_decimal(port_text, 65535, &port);
		if (r < 0 || port == 0)
			return diag_fail_at(err, -EINVAL, line, key,
					    "the port in '%s' is not a number from 1 to 65535",
					    v);
	}
	if (!net_host_valid(hostport))
		return diag_fail_at(err, -EINVAL, line, key,
				    "the host in '%s' is not a host name, an IPv4 address or an IPv6 address in brackets",
				    v);
	r = set_path(c->net_path, slash, false, line, key, err);
	if (r < 0)
		return r;
	strcpy(c->net_host, hostport);
	c->net_port = ssh ? (unsigned int)port : 0;
	c->net = ssh ? CONF_NET_SSH : CONF_NET_NFS;
	strcpy(c->target, v);
	return 0;
}

/* The keys whose value is text, checked and copied as it is. */
static int set_text_key(struct kdump_conf *c, enum conf_key k, const char *v,
			unsigned int line, struct diag *err)
{
	const char *key = conf_key_names[k];
	char cb[16], bad;

	switch (k) {
	case KEY_PATH:
		return set_path(c->path, v, false, line, key, err);
	case KEY_KERNEL:
		return set_path(c->kernel, v, true, line, key, err);
	case KEY_INITRAMFS:
		return set_path(c->initramfs, v, true, line, key, err);
	case KEY_SSH_KEY:
		return set_path(c->ssh_key, v, false, line, key, err);
	case KEY_FALLBACK:
		return set_path(c->fallback, v, true, line, key, err);
	case KEY_TARGET:
		if (strncmp(v, "ssh://", 6) == 0 || strncmp(v, "nfs://", 6) == 0)
			return set_net_url(c, v, line, err);
		/* fall through */
	case KEY_RAW:
		if (*v && !is_device_spec(v))
			return diag_fail_at(err, -EINVAL, line, key,
					    k == KEY_TARGET ? "'%s' is not UUID=, LABEL=, PARTUUID=, SERIAL=, WWID=, a /dev/ path, ssh://USER@HOST/PATH or nfs://HOST/EXPORT/PATH" : "'%s' is not UUID=, LABEL=, PARTUUID=, SERIAL=, WWID= or a /dev/ path",
					    v);
		strcpy(k == KEY_TARGET ? c->target : c->raw, v);
		return 0;
	case KEY_RAW_IDENTITY: {
		struct target_identity id;

		if (*v && target_identity_parse(v, &id) < 0)
			return diag_fail_at(err, -EINVAL, line, key,
					    "'%s' is not SPEC size=BYTES disk=WWID=...|SERIAL=... as kdump-file load writes it",
					    v);
		strcpy(c->raw_identity, v);
		return 0;
	}
	case KEY_CMDLINE_APPEND:
	case KEY_CMDLINE_REMOVE:
		bad = conf_cmdline_bad_char(v);
		if (bad)
			return diag_fail_at(err, -EINVAL, line, key,
					    "%s is not allowed in kernel parameters here (quotes, backslashes, shell metacharacters %s and control or non-ASCII characters are refused)",
					    conf_char_name(bad, cb, sizeof(cb)),
					    "$ ` ; | & < > ( ) { } ! * ?");
		strcpy(k == KEY_CMDLINE_APPEND ? c->cmdline_append :
						 c->cmdline_remove, v);
		return 0;
	default:
		return -EINVAL;
	}
}

/* The keys whose value is a number in a range. */
static int set_number_key(struct kdump_conf *c, enum conf_key k, const char *v,
			  unsigned int line, struct diag *err)
{
	const char *key = conf_key_names[k];
	unsigned long long x;
	int r;

	switch (k) {
	case KEY_DUMP_LEVEL:
		/*
		 * The kernel log alone: for machines without room for a
		 * vmcore.
		 */
		if (strcmp(v, "dmesg") == 0) {
			c->dmesg_only = true;
			return 0;
		}
		r = parse_decimal(v, 31, &x);
		if (r < 0)
			return diag_fail_at(err, r, line, key,
					    "'%s' is not a dump level from 0 to 31, or dmesg",
					    v);
		c->dump_level = x;
		return 0;
	case KEY_KEEP:
		r = parse_decimal(v, 1000, &x);
		if (r < 0)
			return diag_fail_at(err, r, line, key,
					    "'%s' is not a count from 0 (keep all) to 1000",
					    v);
		c->keep = x;
		return 0;
	case KEY_MIN_FREE:
		r = parse_decimal(v, 1ULL << 40, &x);
		if (r < 0)
			return diag_fail_at(err, r, line, key,
					    "'%s' is not a size in MiB from 0 to %llu",
					    v, 1ULL << 40);
		c->min_free_mb = x;
		return 0;
	case KEY_TARGET_TIMEOUT:
		r = parse_decimal(v, 3600, &x);
		if (r < 0 || x == 0)
			return diag_fail_at(err, r < 0 ? r : -ERANGE, line, key,
					    "'%s' is not a number of seconds from 1 to 3600",
					    v);
		c->target_timeout = x;
		return 0;
	case KEY_CAPTURE_TIMEOUT:
		r = parse_decimal(v, 86400, &x);
		if (r < 0)
			return diag_fail_at(err, r, line, key,
					    "'%s' is not a number of seconds from 0 (automatic) to 86400",
					    v);
		c->capture_timeout = x;
		return 0;
	case KEY_HOOK_TIMEOUT:
		r = parse_decimal(v, CONF_HOOK_TIMEOUT_MAX, &x);
		if (r < 0 || x == 0)
			return diag_fail_at(err, r < 0 ? r : -ERANGE, line, key,
					    "'%s' is not a number of seconds from 1 to %d",
					    v, CONF_HOOK_TIMEOUT_MAX);
		c->hook_timeout = x;
		return 0;
	case KEY_NFS_VERSION:
		r = parse_decimal(v, 4, &x);
		if (r < 0 || (x != 3 && x != 4))
			return diag_fail_at(err, -EINVAL, line, key,
					    "'%s' is not 4 or 3", v);
		c->nfs_version = x;
		return 0;
	case KEY_NET_TIMEOUT:
		r = parse_decimal(v, 3600, &x);
		if (r < 0 || x == 0)
			return diag_fail_at(err, r < 0 ? r : -ERANGE, line, key,
					    "'%s' is not a number of seconds from 1 to 3600",
					    v);
		c->net_timeout = x;
		return 0;
	case KEY_NET_LOAD_WAIT:
		r = parse_decimal(v, 3600, &x);
		if (r < 0)
			return diag_fail_at(err, r, line, key,
					    "'%s' is not a number of seconds from 0 to 3600",
					    v);
		c->net_load_wait = x;
		return 0;
	default:
		return -EINVAL;
	}
}

/* The keys whose value is one word of a few, or several (panic_on). */
static int set_choice_key(struct kdump_conf *c, enum conf_key k, const char *v,
			  unsigned int line, struct diag *err)
{
	const char *key = conf_key_names[k];
	char bad[48];
	int r;

	switch (k) {
	case KEY_COMPRESSION:
		for (unsigned int i = 0; i <= COMPRESS_NONE; i++) {
			if (strcmp(v, compression_names[i]) == 0) {
				c->compression = i;
				return 0;
			}
		}
		return diag_fail_at(err, -EINVAL, line, key,
				    "'%s' is not one of lzo, zlib, none", v);
	case KEY_FAILURE_ACTION:
	case KEY_FINAL_ACTION:
		r = parse_action(v, k == KEY_FAILURE_ACTION,
				 k == KEY_FAILURE_ACTION ? &c->failure_action :
							   &c->final_action);
		if (r < 0)
			return diag_fail_at(err, r, line, key,
					    k == KEY_FAILURE_ACTION ? "'%s' is not one of reboot, poweroff, halt, shell" : "'%s' is not one of reboot, poweroff, halt",
					    v);
		return 0;
	case KEY_RAW_OVERWRITE:
	case KEY_RAW_FORCE:
		if (parse_bool(v, k == KEY_RAW_OVERWRITE ? &c->raw_overwrite :
							   &c->raw_force) < 0)
			return diag_fail_at(err, -EINVAL, line, key,
					    "'%s' is not yes or no", v);
		return 0;
	case KEY_HOOK_FAILURE:
		if (strcmp(v, "continue") == 0)
			c->hook_stop = false;
		else if (strcmp(v, "stop") == 0)
			c->hook_stop = true;
		else
			return diag_fail_at(err, -EINVAL, line, key,
					    "'%s' is not continue or stop", v);
		return 0;
	case KEY_PANIC_ON:
		r = parse_panic_on(v, &c->panic_on, bad, sizeof(bad));
		if (r == -ENOTUNIQ)
			return diag_fail_at(err, -EINVAL, line, key,
					    "'none' cannot be combined with other crashes");
		if (r < 0)
			return diag_fail_at(err, r, line, key,
					    "'%s' is not one of " PANIC_ON_WORDS,
					    bad);
		return 0;
	default:
		return -EINVAL;
	}
}

/* Set key k from v: by the kind of value it takes. */
int conf_set_key(struct kdump_conf *c, enum conf_key k, const char *v,
		 unsigned int line, struct diag *err)
{
	const char *key = conf_key_names[k];

	switch (k) {
	case KEY_PATH:
	case KEY_KERNEL:
	case KEY_INITRAMFS:
	case KEY_TARGET:
	case KEY_RAW:
	case KEY_CMDLINE_APPEND:
	case KEY_CMDLINE_REMOVE:
	case KEY_SSH_KEY:
	case KEY_FALLBACK:
	case KEY_RAW_IDENTITY:
		return set_text_key(c, k, v, line, err);
	case KEY_NFS_VERSION:
	case KEY_NET_TIMEOUT:
	case KEY_NET_LOAD_WAIT:
	case KEY_DUMP_LEVEL:
	case KEY_KEEP:
	case KEY_MIN_FREE:
	case KEY_TARGET_TIMEOUT:
	case KEY_CAPTURE_TIMEOUT:
	case KEY_HOOK_TIMEOUT:
		return set_number_key(c, k, v, line, err);
	case KEY_COMPRESSION:
	case KEY_FAILURE_ACTION:
	case KEY_FINAL_ACTION:
	case KEY_RAW_OVERWRITE:
	case KEY_RAW_FORCE:
	case KEY_HOOK_FAILURE:
	case KEY_PANIC_ON:
		return set_choice_key(c, k, v, line, err);
	case KEY_MAKEDUMPFILE_ARGS:
		return conf_parse_makedumpfile_args(c, v, line, err);
	case KEY_MAKEDUMPFILE_THREADS:
		return conf_parse_threads(c, v, line, err);
	case KEY_PRE_HOOK:
	case KEY_POST_HOOK:
		return set_list(k == KEY_PRE_HOOK ? c->pre_hook : c->post_hook,
				v, true, line, key, err);
	case KEY_EXTRA_BINARIES:
		return set_list(c->extra_binaries, v, true, line, key, err);
	case KEY_EXTRA_MODULES:
		return set_list(c->extra_modules, v, false, line, key, err);
	case KEY_MAX:
		break;
	}
	return -EINVAL;
}
