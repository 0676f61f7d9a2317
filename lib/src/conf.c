// SPDX-License-Identifier: GPL-2.0
/*
 * Parser of /etc/kdump-file.conf.  Input is hostile until proven otherwise:
 * values are bounded, must be valid UTF-8 without control characters, and
 * are never handed to a shell by any user of this parser.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf.h"
#include "target.h"
#include "util.h"

#define CONF_FILE_MAX (64 * 1024)

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

const char *conf_compression_flag(enum conf_compression c)
{
	switch (c) {
	case COMPRESS_LZO:
		return "-l";
	case COMPRESS_ZLIB:
		return "-c";
	default:
		return "";
	}
}

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

static int fail(struct conf_error *err, unsigned int line, const char *key,
		int r, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->line = line;
		snprintf(err->key, sizeof(err->key), "%s", key ? key : "");
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return r;
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

static int parse_uint(const char *v, unsigned long long max,
		      unsigned long long *ret)
{
	unsigned long long x;
	char *end;

	if (*v < '0' || *v > '9')
		return -EINVAL;
	errno = 0;
	x = strtoull(v, &end, 10);
	if (errno == ERANGE || x > max)
		return -ERANGE;
	if (*end)
		return -EINVAL;
	*ret = x;
	return 0;
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

/* The first byte of v that is not a letter, a digit or in extra; NUL if none. */
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
static char cmdline_bad_char(const char *v)
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
static const char *char_name(char c, char *buf, size_t size)
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
			     panic_on_names[i]);
		if (n < 0 || (size_t)n >= size - pos)
			return -ENOBUFS;
		pos += n;
	}
	return 0;
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
				while (n > 0 && ((unsigned char)v[n] & 0xc0) == 0x80)
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

enum key_id {
	KEY_PATH,
	KEY_TARGET,
	KEY_RAW,
	KEY_DUMP_LEVEL,
	KEY_COMPRESSION,
	KEY_CMDLINE_APPEND,
	KEY_CMDLINE_REMOVE,
	KEY_KERNEL,
	KEY_INITRAMFS,
	KEY_FAILURE_ACTION,
	KEY_FINAL_ACTION,
	KEY_KEEP,
	KEY_MIN_FREE,
	KEY_TARGET_TIMEOUT,
	KEY_CAPTURE_TIMEOUT,
	KEY_RAW_OVERWRITE,
	KEY_RAW_FORCE,
	KEY_PANIC_ON,
	KEY_MAKEDUMPFILE_ARGS,
	KEY_PRE_HOOK,
	KEY_POST_HOOK,
	KEY_HOOK_TIMEOUT,
	KEY_HOOK_FAILURE,
	KEY_EXTRA_MODULES,
	KEY_EXTRA_BINARIES,
	KEY_NFS_VERSION,
	KEY_SSH_KEY,
	KEY_FALLBACK,
	KEY_NET_TIMEOUT,
	KEY_NET_LOAD_WAIT,
	KEY_RAW_IDENTITY,
	KEY_MAKEDUMPFILE_THREADS,
	KEY_MAX,
};

static const char *const key_names[KEY_MAX] = {
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

/*
 * makedumpfile_args: the makedumpfile(8) options (version 1.7.2) that
 * kdump-file passes on for the vmcore, each with the bounds of its
 * argument.  Every other option is refused: with the reason when it is
 * one kdump-file sets itself or cannot use, as unknown otherwise.
 */
static const struct {
	const char *name;
	bool has_arg;
	unsigned long long min, max;
} mdf_allowed[] = {
	{ "--message-level", true, 0, 31 },
	/* A capture kernel has few CPUs; more threads only cost memory. */
	{ "--num-threads", true, 1, 64 },
	/* KiB of bitmap; crashkernel memory is counted in MiB. */
	{ "--cyclic-buffer", true, 1, 1ULL << 20 },
	{ "--splitblock-size", true, 1, 1ULL << 20 },
	{ "--non-mmap", false, 0, 0 },
	{ "-e", false, 0, 0 },
	{ "-D", false, 0, 0 },
};

static const struct {
	const char *names;	/* blank-separated */
	const char *why;	/* and the fix */
} mdf_refused[] = {
	{ "-F", "kdump-file chooses the flattened format itself, for a raw target (remove it)" },
	{ "-E", "ELF output: kdump-file's analysis and recovery expect the kdump-compressed format (remove it)" },
	{ "-c -l -p -z --zstd --lzo --snappy", "the compression is set by kdump-file (remove it and use compression = lzo, zlib or none)" },
	{ "-d", "the dump level is set by kdump-file (remove it and use dump_level = 0..31, or dmesg)" },
	{ "--split --reassemble", "kdump-file saves one dump file per crash (remove it)" },
	{ "--dump-dmesg --partial-dmesg", "kdump-file saves the kernel log itself, to dmesg.txt (remove it; dump_level = dmesg saves only that)" },
	{ "-x -i", "the capture has neither a vmlinux nor a VMCOREINFO file: makedumpfile reads what /proc/vmcore carries (remove it)" },
	{ "--config --eppic", "makedumpfile filters with it only together with -x VMLINUX, and the capture kernel has no vmlinux, too large for its memory (remove it)" },
	{ "-R", "rearranging a flattened dump is what 'kdump-file recover' does (remove it)" },
	{ "--mem-usage", "it reports memory use instead of saving a dump (remove it)" },
	{ "-g", "it writes a VMCOREINFO file instead of saving a dump (remove it)" },
	{ "--dry-run", "it saves nothing (remove it)" },
	{ "--work-dir", "kdump-file gives it itself, the dump directory, when -e needs it (remove it)" },
};

bool conf_makedumpfile_has(const struct kdump_conf *c, const char *opt)
{
	return word_in_list(opt, c->makedumpfile_args);
}

unsigned int conf_threads_requested(const struct kdump_conf *c)
{
	const char *w = c->makedumpfile_args;
	size_t pos = 0;
	char word[32];

	/* The parser left "--num-threads N", N a plain number. */
	while (conf_list_next(w, &pos, word, sizeof(word)))
		if (strcmp(word, "--num-threads") == 0 &&
		    conf_list_next(w, &pos, word, sizeof(word)))
			return (unsigned int)strtoul(word, NULL, 10);
	return c->makedumpfile_threads;
}

int conf_threads_set(struct kdump_conf *c, unsigned int threads)
{
	char out[CONF_VALUE_MAX] = "", word[CONF_VALUE_MAX];
	size_t pos = 0, n = 0;

	if (threads < 1 || threads > CONF_THREADS_MAX)
		return -ERANGE;
	while (conf_list_next(c->makedumpfile_args, &pos, word, sizeof(word))) {
		if (strcmp(word, "--num-threads") == 0) {
			(void)conf_list_next(c->makedumpfile_args, &pos, word,
					     sizeof(word));
			continue;
		}
		n += snprintf(out + n, sizeof(out) - n, "%s%s", n ? " " : "",
			      word);
	}
	/* Never longer than what it was made from. */
	strcpy(c->makedumpfile_args, out);
	c->makedumpfile_threads = threads;
	return 0;
}

static int parse_makedumpfile_args(struct kdump_conf *c, const char *v,
				   unsigned int line, struct conf_error *err)
{
	const char *key = "makedumpfile_args";
	char words[CONF_VALUE_MAX], out[CONF_VALUE_MAX] = "", cb[16];
	bool seen[sizeof(mdf_allowed) / sizeof(mdf_allowed[0])] = { false };
	char *w, *save;
	size_t pos = 0;

	if (cmdline_bad_char(v))
		return fail(err, line, key, -EINVAL,
			    "%s is not allowed here (quotes, backslashes, shell metacharacters %s and control or non-ASCII characters are refused: the words go to makedumpfile as they are, split on blanks)",
			    char_name(cmdline_bad_char(v), cb, sizeof(cb)),
			    "$ ` ; | & < > ( ) { } ! * ?");
	snprintf(words, sizeof(words), "%s", v);
	for (w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char *arg = NULL, *eq = NULL, name[64];
		unsigned long long x;
		size_t i;

		/* --num-threads=4 as getopt_long(3) takes it. */
		if (strncmp(w, "--", 2) == 0 && (eq = strchr(w, '=')))
			*eq = '\0';
		snprintf(name, sizeof(name), "%s", w);
		for (i = 0; i < sizeof(mdf_refused) / sizeof(mdf_refused[0]); i++)
			if (word_in_list(name, mdf_refused[i].names))
				return fail(err, line, key, -EINVAL,
					    "'%s' is refused: %s", name,
					    mdf_refused[i].why);
		for (i = 0; i < sizeof(mdf_allowed) / sizeof(mdf_allowed[0]); i++)
			if (strcmp(name, mdf_allowed[i].name) == 0)
				break;
		if (i == sizeof(mdf_allowed) / sizeof(mdf_allowed[0]))
			return fail(err, line, key, -EINVAL,
				    "'%s' is not known to kdump-file: remove it (makedumpfile_args takes --message-level, --num-threads, --cyclic-buffer, --splitblock-size, --non-mmap, -e and -D)",
				    name);
		if (seen[i])
			return fail(err, line, key, -EEXIST,
				    "'%s' is given twice: keep one", name);
		seen[i] = true;
		if (!mdf_allowed[i].has_arg) {
			if (eq)
				return fail(err, line, key, -EINVAL,
					    "'%s' takes no value: remove '=%s'",
					    name, eq + 1);
			pos += snprintf(out + pos, sizeof(out) - pos, "%s%s",
					pos ? " " : "", name);
			continue;
		}
		arg = eq ? eq + 1 : strtok_r(NULL, " ", &save);
		if (!arg || parse_uint(arg, mdf_allowed[i].max, &x) < 0 ||
		    x < mdf_allowed[i].min)
			return fail(err, line, key, arg ? -ERANGE : -EINVAL,
				    "'%s' needs a number from %llu to %llu%s%s%s",
				    name, mdf_allowed[i].min, mdf_allowed[i].max,
				    arg ? ", not '" : " after it",
				    arg ? arg : "", arg ? "'" : "");
		pos += snprintf(out + pos, sizeof(out) - pos, "%s%s %llu",
				pos ? " " : "", name, x);
	}
	/* Never longer than v: blanks collapse, numbers lose leading zeros. */
	strcpy(c->makedumpfile_args, out);
	return 0;
}

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
		    const char *key, struct conf_error *err)
{
	char word[CONF_VALUE_MAX], out[CONF_VALUE_MAX] = "", cb[16];
	size_t pos = 0, len = 0;
	unsigned int count = 0;

	while (conf_list_next(v, &pos, word, sizeof(word))) {
		if (++count > CONF_LIST_MAX)
			return fail(err, line, key, -E2BIG,
				    "more than %d entries", CONF_LIST_MAX);
		if (paths && first_bad_char(word, PATH_CHARS))
			return fail(err, line, key, -EINVAL,
				    "'%s' contains %s: paths may use letters, digits and / . _ - + , @ : only (no quoting, no shell)",
				    word, char_name(first_bad_char(word, PATH_CHARS), cb, sizeof(cb)));
		if (paths && word[0] != '/')
			return fail(err, line, key, -EINVAL,
				    "'%s' is not an absolute path", word);
		if (paths && !path_is_clean(word))
			return fail(err, line, key, -EINVAL,
				    "'%s' is not a clean absolute path", word);
		if (!paths && first_bad_char(word, "_-"))
			return fail(err, line, key, -EINVAL,
				    "'%s' contains %s: module names use letters, digits, _ and - only",
				    word, char_name(first_bad_char(word, "_-"), cb, sizeof(cb)));
		if (!paths && strlen(word) >= 56)
			return fail(err, line, key, -EINVAL,
				    "'%s' is longer than a module name can be", word);
		len += snprintf(out + len, sizeof(out) - len, "%s%s",
				len ? " " : "", word);
	}
	strcpy(dst, out);
	return 0;
}

/* An absolute clean path of PATH_CHARS; "" too when may_be_empty. */
static int set_path(char *dst, const char *v, bool may_be_empty,
		    unsigned int line, const char *key, struct conf_error *err)
{
	char cb[16];

	if (may_be_empty && !*v) {
		dst[0] = '\0';
		return 0;
	}
	if (first_bad_char(v, PATH_CHARS))
		return fail(err, line, key, -EINVAL,
			    "'%s' contains %s: paths may use letters, digits and / . _ - + , @ : only",
			    v, char_name(first_bad_char(v, PATH_CHARS), cb, sizeof(cb)));
	if (!path_is_clean(v))
		return fail(err, line, key, -EINVAL,
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
		if (!islower((unsigned char)*u) && !isdigit((unsigned char)*u) &&
		    !strchr("_.-", *u))
			return false;
	return true;
}

/* A host name (RFC 1123 letters, digits, '-', '.') or an IPv4 address. */
static bool net_host_valid(const char *h)
{
	size_t n = strlen(h);

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
		       struct conf_error *err)
{
	static const char key[] = "target";
	bool ssh = strncmp(v, "ssh://", 6) == 0;
	const char *auth = v + 6, *slash = strchr(auth, '/'), *at, *colon;
	char hostport[300];
	unsigned long long port = 22;
	size_t n;
	int r;

	if (!slash || slash == auth)
		return fail(err, line, key, -EINVAL,
			    "'%s' names no %s: write %s", v,
			    slash ? "host" : "directory",
			    ssh ? "ssh://USER@HOST[:PORT]/PATH" :
				  "nfs://HOST/EXPORT/PATH");
	n = (size_t)(slash - auth);
	if (n >= sizeof(hostport))
		return fail(err, line, key, -EINVAL, "the host in '%s' is too long", v);
	memcpy(hostport, auth, n);
	hostport[n] = '\0';
	at = strchr(hostport, '@');
	if (ssh != (at != NULL))
		return fail(err, line, key, -EINVAL,
			    ssh ? "'%s' names no user: write ssh://USER@HOST[:PORT]/PATH" :
				  "'%s': an nfs:// target takes no user: write nfs://HOST/EXPORT/PATH",
			    v);
	if (at) {
		snprintf(c->net_user, sizeof(c->net_user), "%.*s",
			 (int)(at - hostport), hostport);
		if ((size_t)(at - hostport) >= sizeof(c->net_user) ||
		    !net_user_valid(c->net_user))
			return fail(err, line, key, -EINVAL,
				    "the user in '%s' is not a user name (lower-case letters, digits, _ . -)",
				    v);
		memmove(hostport, at + 1, strlen(at + 1) + 1);
	}
	if (hostport[0] == '[')
		return fail(err, line, key, -EAFNOSUPPORT,
			    "'%s': IPv6 collectors are not supported: name the collector by an IPv4 address or a host name",
			    v);
	colon = strchr(hostport, ':');
	if (colon) {
		if (!ssh)
			return fail(err, line, key, -EINVAL,
				    "'%s': an nfs:// target takes no port", v);
		r = parse_uint(colon + 1, 65535, &port);
		if (r < 0 || port == 0)
			return fail(err, line, key, -EINVAL,
				    "the port in '%s' is not a number from 1 to 65535", v);
		hostport[colon - hostport] = '\0';
	}
	if (!net_host_valid(hostport))
		return fail(err, line, key, -EINVAL,
			    "the host in '%s' is not a host name or an IPv4 address", v);
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
static int set_text_key(struct kdump_conf *c, enum key_id k, const char *v,
			unsigned int line, struct conf_error *err)
{
	const char *key = key_names[k];
	char cb[16];

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
			return fail(err, line, key, -EINVAL,
				    k == KEY_TARGET ?
				    "'%s' is not UUID=, LABEL=, PARTUUID=, SERIAL=, WWID=, a /dev/ path, ssh://USER@HOST/PATH or nfs://HOST/EXPORT/PATH" :
				    "'%s' is not UUID=, LABEL=, PARTUUID=, SERIAL=, WWID= or a /dev/ path",
				    v);
		strcpy(k == KEY_TARGET ? c->target : c->raw, v);
		return 0;
	case KEY_RAW_IDENTITY: {
		struct target_identity id;

		if (*v && target_identity_parse(v, &id) < 0)
			return fail(err, line, key, -EINVAL,
				    "'%s' is not SPEC size=BYTES disk=WWID=...|SERIAL=... as kdump-file load writes it",
				    v);
		strcpy(c->raw_identity, v);
		return 0;
	}
	case KEY_CMDLINE_APPEND:
	case KEY_CMDLINE_REMOVE:
		if (cmdline_bad_char(v))
			return fail(err, line, key, -EINVAL,
				    "%s is not allowed in kernel parameters here (quotes, backslashes, shell metacharacters %s and control or non-ASCII characters are refused)",
				    char_name(cmdline_bad_char(v), cb, sizeof(cb)),
				    "$ ` ; | & < > ( ) { } ! * ?");
		strcpy(k == KEY_CMDLINE_APPEND ? c->cmdline_append :
						 c->cmdline_remove, v);
		return 0;
	default:
		return -EINVAL;
	}
}

/* The keys whose value is a number in a range. */
static int set_number_key(struct kdump_conf *c, enum key_id k, const char *v,
			  unsigned int line, struct conf_error *err)
{
	const char *key = key_names[k];
	unsigned long long x;
	int r;

	switch (k) {
	case KEY_DUMP_LEVEL:
		/* The kernel log alone: for machines without room for a vmcore. */
		if (strcmp(v, "dmesg") == 0) {
			c->dmesg_only = true;
			return 0;
		}
		r = parse_uint(v, 31, &x);
		if (r < 0)
			return fail(err, line, key, r,
				    "'%s' is not a dump level from 0 to 31, or dmesg",
				    v);
		c->dump_level = x;
		return 0;
	case KEY_KEEP:
		r = parse_uint(v, 1000, &x);
		if (r < 0)
			return fail(err, line, key, r,
				    "'%s' is not a count from 0 (keep all) to 1000", v);
		c->keep = x;
		return 0;
	case KEY_MIN_FREE:
		r = parse_uint(v, 1ULL << 40, &x);
		if (r < 0)
			return fail(err, line, key, r,
				    "'%s' is not a size in MiB from 0 to %llu", v,
				    1ULL << 40);
		c->min_free_mb = x;
		return 0;
	case KEY_TARGET_TIMEOUT:
		r = parse_uint(v, 3600, &x);
		if (r < 0 || x == 0)
			return fail(err, line, key, r < 0 ? r : -ERANGE,
				    "'%s' is not a number of seconds from 1 to 3600",
				    v);
		c->target_timeout = x;
		return 0;
	case KEY_CAPTURE_TIMEOUT:
		r = parse_uint(v, 86400, &x);
		if (r < 0)
			return fail(err, line, key, r,
				    "'%s' is not a number of seconds from 0 (automatic) to 86400",
				    v);
		c->capture_timeout = x;
		return 0;
	case KEY_HOOK_TIMEOUT:
		r = parse_uint(v, CONF_HOOK_TIMEOUT_MAX, &x);
		if (r < 0 || x == 0)
			return fail(err, line, key, r < 0 ? r : -ERANGE,
				    "'%s' is not a number of seconds from 1 to %d",
				    v, CONF_HOOK_TIMEOUT_MAX);
		c->hook_timeout = x;
		return 0;
	case KEY_NFS_VERSION:
		r = parse_uint(v, 4, &x);
		if (r < 0 || (x != 3 && x != 4))
			return fail(err, line, key, -EINVAL,
				    "'%s' is not 4 or 3", v);
		c->nfs_version = x;
		return 0;
	case KEY_NET_TIMEOUT:
		r = parse_uint(v, 3600, &x);
		if (r < 0 || x == 0)
			return fail(err, line, key, r < 0 ? r : -ERANGE,
				    "'%s' is not a number of seconds from 1 to 3600",
				    v);
		c->net_timeout = x;
		return 0;
	case KEY_NET_LOAD_WAIT:
		r = parse_uint(v, 3600, &x);
		if (r < 0)
			return fail(err, line, key, r,
				    "'%s' is not a number of seconds from 0 to 3600",
				    v);
		c->net_load_wait = x;
		return 0;
	default:
		return -EINVAL;
	}
}

/* The keys whose value is one word of a few, or several (panic_on). */
static int set_choice_key(struct kdump_conf *c, enum key_id k, const char *v,
			  unsigned int line, struct conf_error *err)
{
	const char *key = key_names[k];
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
		return fail(err, line, key, -EINVAL,
			    "'%s' is not one of lzo, zlib, none", v);
	case KEY_FAILURE_ACTION:
	case KEY_FINAL_ACTION:
		r = parse_action(v, k == KEY_FAILURE_ACTION,
				 k == KEY_FAILURE_ACTION ? &c->failure_action :
							   &c->final_action);
		if (r < 0)
			return fail(err, line, key, r,
				    k == KEY_FAILURE_ACTION ?
					    "'%s' is not one of reboot, poweroff, halt, shell" :
					    "'%s' is not one of reboot, poweroff, halt",
				    v);
		return 0;
	case KEY_RAW_OVERWRITE:
	case KEY_RAW_FORCE:
		if (parse_bool(v, k == KEY_RAW_OVERWRITE ? &c->raw_overwrite :
							   &c->raw_force) < 0)
			return fail(err, line, key, -EINVAL,
				    "'%s' is not yes or no", v);
		return 0;
	case KEY_HOOK_FAILURE:
		if (strcmp(v, "continue") == 0)
			c->hook_stop = false;
		else if (strcmp(v, "stop") == 0)
			c->hook_stop = true;
		else
			return fail(err, line, key, -EINVAL,
				    "'%s' is not continue or stop", v);
		return 0;
	case KEY_PANIC_ON:
		r = parse_panic_on(v, &c->panic_on, bad, sizeof(bad));
		if (r == -ENOTUNIQ)
			return fail(err, line, key, -EINVAL,
				    "'none' cannot be combined with other crashes");
		if (r < 0)
			return fail(err, line, key, r,
				    "'%s' is not one of " PANIC_ON_WORDS, bad);
		return 0;
	default:
		return -EINVAL;
	}
}

/* makedumpfile_threads = auto | 1..CONF_THREADS_MAX */
static int parse_threads(struct kdump_conf *c, const char *v,
			 unsigned int line, struct conf_error *err)
{
	unsigned long long x;
	int r;

	if (strcmp(v, "auto") == 0) {
		c->makedumpfile_threads = CONF_THREADS_AUTO;
		return 0;
	}
	r = parse_uint(v, CONF_THREADS_MAX, &x);
	if (r < 0 || x == 0)
		return fail(err, line, "makedumpfile_threads",
			    r < 0 ? r : -ERANGE,
			    "'%s' is not auto or a number of threads from 1 to %d (write makedumpfile_threads = auto to let the reservation and the CPUs decide, or a number such as 2)",
			    v, CONF_THREADS_MAX);
	c->makedumpfile_threads = x;
	return 0;
}

/* Set key k from v: by the kind of value it takes. */
static int set_key(struct kdump_conf *c, enum key_id k, const char *v,
		   unsigned int line, struct conf_error *err)
{
	const char *key = key_names[k];

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
		return parse_makedumpfile_args(c, v, line, err);
	case KEY_MAKEDUMPFILE_THREADS:
		return parse_threads(c, v, line, err);
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

/*
 * What makedumpfile_args and dump_level = dmesg need of the other keys.
 * -e: makedumpfile drops the page structures (vmemmap) of the pages the
 * dump level excludes, keeping its lists in --work-dir, a directory on the
 * target (makedumpfile.c: "-e requires --work-dir").
 */
static int check_makedumpfile(const struct kdump_conf *c,
			      const unsigned int *seen_line,
			      struct conf_error *err)
{
	unsigned int line = seen_line[KEY_MAKEDUMPFILE_ARGS];

	/* Two ways to ask for threads: one request, not two that disagree. */
	if (seen_line[KEY_MAKEDUMPFILE_THREADS] &&
	    conf_makedumpfile_has(c, "--num-threads"))
		return fail(err, line, "makedumpfile_args", -EINVAL,
			    "'--num-threads' asks for threads as makedumpfile_threads (line %u) does: remove --num-threads and keep makedumpfile_threads",
			    seen_line[KEY_MAKEDUMPFILE_THREADS]);
	if (c->dmesg_only && c->raw[0])
		return fail(err, seen_line[KEY_DUMP_LEVEL], "dump_level",
			    -EINVAL,
			    "dmesg is for a dump directory on a filesystem, and 'raw' (line %u) is a raw device: set a dump level from 0 to 31, or use 'target'",
			    seen_line[KEY_RAW]);
	if (!conf_makedumpfile_has(c, "-e"))
		return 0;
	if (c->raw[0])
		return fail(err, line, "makedumpfile_args", -EINVAL,
			    "'-e' keeps work files in the dump directory (--work-dir), and 'raw' (line %u) has none: remove -e, or dump to a filesystem",
			    seen_line[KEY_RAW]);
	if (!c->dmesg_only && !(c->dump_level & 16))
		return fail(err, line, "makedumpfile_args", -EINVAL,
			    "'-e' drops the page structures of the free pages the dump level excludes, and dump_level %u excludes none: add 16 to dump_level (31 excludes all) or remove -e",
			    c->dump_level);
	return 0;
}

/* The keys of network targets only, and path beside a URL. */
static int check_net(const struct kdump_conf *c, const unsigned int *seen_line,
		     struct conf_error *err)
{
	static const struct {
		enum key_id k;
		enum conf_net only;	/* CONF_NET_NONE: any network target */
	} net_keys[] = {
		{ KEY_NFS_VERSION, CONF_NET_NFS },
		{ KEY_SSH_KEY, CONF_NET_SSH },
		{ KEY_FALLBACK, CONF_NET_NONE },
		{ KEY_NET_TIMEOUT, CONF_NET_NONE },
		{ KEY_NET_LOAD_WAIT, CONF_NET_NONE },
	};

	if (c->net && seen_line[KEY_PATH])
		return fail(err, seen_line[KEY_PATH], "path", -EINVAL,
			    "the directory is part of the URL in 'target' (line %u): remove 'path'",
			    seen_line[KEY_TARGET]);
	for (size_t i = 0; i < sizeof(net_keys) / sizeof(net_keys[0]); i++) {
		enum key_id k = net_keys[i].k;
		bool fits = net_keys[i].only ? c->net == net_keys[i].only :
					       c->net != CONF_NET_NONE;

		if (!seen_line[k] || fits)
			continue;
		return fail(err, seen_line[k], key_names[k], -EINVAL,
			    "applies to %s target only (target = %s): remove it or set the target",
			    net_keys[i].only == CONF_NET_NFS ? "an nfs://" :
			    net_keys[i].only == CONF_NET_SSH ? "an ssh://" :
							       "a network",
			    c->target[0] ? c->target : "the root filesystem");
	}
	if (c->fallback[0] && strcmp(c->fallback, "/") == 0)
		return fail(err, seen_line[KEY_FALLBACK], "fallback", -EINVAL,
			    "'/' is the root directory itself: name a directory for dumps, such as /var/crash");
	return 0;
}

/* The known key an unknown one is most likely a typo of, if any. */
static const char *nearest_key(const char *key)
{
	size_t best = 3;
	const char *near = NULL;

	for (unsigned int k = 0; k < KEY_MAX; k++) {
		size_t d = edit_distance(key, key_names[k]);

		if (d < best) {
			best = d;
			near = key_names[k];
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

int conf_parse_buffer(struct kdump_conf *c, const char *buf, size_t len,
		      struct conf_error *err)
{
	bool seen[KEY_MAX] = { false };
	unsigned int seen_line[KEY_MAX] = { 0 };
	char line_buf[CONF_VALUE_MAX + 128];
	struct kdump_conf tmp;
	unsigned int lineno = 0;
	size_t pos = 0;
	int r;

	conf_init(&tmp);
	if (memchr(buf, '\0', len))
		return fail(err, 0, NULL, -EINVAL, "the file contains a NUL byte");

	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;
		char *key, *val, *eq;
		enum key_id k;

		lineno++;
		if (n >= sizeof(line_buf))
			return fail(err, lineno, NULL, -E2BIG,
				    "line is longer than %zu bytes",
				    sizeof(line_buf) - 1);
		memcpy(line_buf, buf + pos, n);
		line_buf[n] = '\0';
		pos += n + 1;
		if (n && line_buf[n - 1] == '\r')
			line_buf[--n] = '\0';

		/* Tabs are separators; any other control character is not. */
		for (size_t i = 0; i < n; i++)
			if (line_buf[i] == '\t')
				line_buf[i] = ' ';
		r = check_text((unsigned char *)line_buf, n);
		if (r < 0)
			return fail(err, lineno, NULL, r,
				    r == -EILSEQ ? "line is not valid UTF-8" :
						   "line contains a control character");

		/* '#' at the start or after a blank starts a comment. */
		for (size_t i = 1; i < n; i++) {
			if (line_buf[i] == '#' && line_buf[i - 1] == ' ') {
				line_buf[i] = '\0';
				n = i;
				break;
			}
		}
		key = strip(line_buf, line_buf + n);
		if (*key == '#' || *key == '\0')
			continue;
		eq = strchr(key, '=');
		if (!eq)
			return fail(err, lineno, NULL, -EINVAL,
				    "expected 'key = value', got '%.60s'", key);
		val = strip(eq + 1, key + strlen(key));
		key = strip(key, eq);
		for (k = 0; k < KEY_MAX; k++)
			if (strcmp(key, key_names[k]) == 0)
				break;
		if (k == KEY_MAX) {
			const char *near = nearest_key(key);

			if (near)
				return fail(err, lineno, key, -ENOKEY,
					    "unknown key (did you mean '%s'?)",
					    near);
			return fail(err, lineno, key, -ENOKEY,
				    "unknown key (see kdump-file.conf(5))");
		}
		if (seen[k])
			return fail(err, lineno, key, -EEXIST,
				    "key already set on line %u", seen_line[k]);
		seen[k] = true;
		seen_line[k] = lineno;
		if (strlen(val) >= CONF_VALUE_MAX)
			return fail(err, lineno, key, -E2BIG,
				    "value is longer than %d bytes",
				    CONF_VALUE_MAX - 1);
		r = set_key(&tmp, k, val, lineno, err);
		if (r < 0)
			return r;
	}
	if (tmp.target[0] && tmp.raw[0])
		return fail(err, seen_line[KEY_RAW], "raw", -EINVAL,
			    "'raw' and 'target' exclude each other (line %u)",
			    seen_line[KEY_TARGET]);
	if (tmp.raw_identity[0]) {
		struct target_identity id;

		/* Parsed when set: only its spec is checked here. */
		(void)target_identity_parse(tmp.raw_identity, &id);
		if (strcmp(id.spec, tmp.raw) != 0)
			return fail(err, seen_line[KEY_RAW_IDENTITY],
				    "raw_identity", -EINVAL,
				    "it names %s, and 'raw' is '%s': they must name the same device",
				    id.spec, tmp.raw);
	}
	r = check_net(&tmp, seen_line, err);
	if (r < 0)
		return r;
	r = check_makedumpfile(&tmp, seen_line, err);
	if (r < 0)
		return r;
	/* Hooks get the dump directory, which a raw device has not. */
	if (tmp.raw[0] && (tmp.pre_hook[0] || tmp.post_hook[0])) {
		enum key_id h = tmp.pre_hook[0] ? KEY_PRE_HOOK : KEY_POST_HOOK;

		return fail(err, seen_line[h], key_names[h], -EINVAL,
			    "hooks need a dump directory and 'raw' (line %u) has none: remove one of them",
			    seen_line[KEY_RAW]);
	}
	/* What goes into the initramfs kdump-file builds, not a user's own. */
	if (tmp.initramfs[0]) {
		static const enum key_id packed[] = { KEY_PRE_HOOK, KEY_POST_HOOK,
						      KEY_EXTRA_MODULES,
						      KEY_EXTRA_BINARIES };
		const char *vals[] = { tmp.pre_hook, tmp.post_hook,
				       tmp.extra_modules, tmp.extra_binaries };

		for (size_t i = 0; i < 4; i++)
			if (vals[i][0])
				return fail(err, seen_line[packed[i]],
					    key_names[packed[i]], -EINVAL,
					    "goes into the capture initramfs kdump-file builds, and 'initramfs' (line %u) names one of your own: remove one of them",
					    seen_line[KEY_INITRAMFS]);
	}
	*c = tmp;
	return 0;
}

int conf_parse_file(struct kdump_conf *c, const char *path,
		    struct conf_error *err)
{
	_cleanup_free_ char *buf = NULL;
	_cleanup_close_ int fd = -1;
	struct stat st;
	int r;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		r = -errno;
		return fail(err, 0, NULL, r, "cannot open: %s", strerror(-r));
	}
	if (fstat(fd, &st) < 0) {
		r = -errno;
		return fail(err, 0, NULL, r, "cannot stat: %s", strerror(-r));
	}
	if (!S_ISREG(st.st_mode))
		return fail(err, 0, NULL, -EINVAL, "not a regular file");
	/*
	 * The configuration decides what runs as root in the capture kernel:
	 * only root (or whoever runs us) may own it, and nobody else may
	 * write it.
	 */
	if ((st.st_uid != 0 && st.st_uid != geteuid()) ||
	    (st.st_mode & (S_IWGRP | S_IWOTH)))
		return fail(err, 0, NULL, -EPERM,
			    "it is writable by others than its owner or not owned by root (mode %04o, uid %u): chown root and chmod go-w it",
			    (unsigned int)(st.st_mode & 07777),
			    (unsigned int)st.st_uid);
	/* Checked before and after the read: the file may grow meanwhile. */
	r = st.st_size > CONF_FILE_MAX ? -EFBIG :
					 read_fd_max(fd, &buf, CONF_FILE_MAX);
	if (r == -EFBIG)
		return fail(err, 0, NULL, r, "larger than %d bytes",
			    CONF_FILE_MAX);
	if (r < 0)
		return fail(err, 0, NULL, r, "cannot read: %s", strerror(-r));
	return conf_parse_buffer(c, buf, (size_t)r, err);
}

int conf_load_or_default(struct kdump_conf *c, const char *path,
			 struct conf_error *err)
{
	int r = conf_parse_file(c, path, err);

	if (r == -ENOENT && strcmp(path, CONF_PATH_DEFAULT) == 0) {
		conf_init(c);
		if (err)
			*err = (struct conf_error){ 0 };
		return 0;
	}
	return r;
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

int conf_makedumpfile_cmd(const struct kdump_conf *c, const char *in,
			  const char *out, const char *workdir,
			  struct conf_makedumpfile_cmd *ret)
{
	const char *flag = conf_compression_flag(c->compression);
	char *w, *save;
	size_t n = 0;

	snprintf(ret->level, sizeof(ret->level), "%u", c->dump_level);
	snprintf(ret->words, sizeof(ret->words), "%s", c->makedumpfile_args);
	ret->argv[n++] = "makedumpfile";
	if (!out)
		ret->argv[n++] = "-F";
	if (flag[0])
		ret->argv[n++] = (char *)flag;
	ret->argv[n++] = "-d";
	ret->argv[n++] = ret->level;
	for (w = strtok_r(ret->words, " ", &save); w;
	     w = strtok_r(NULL, " ", &save)) {
		/* Room for --work-dir DIR, --num-threads T, in, out and NULL. */
		if (n + 7 >= CONF_MAKEDUMPFILE_ARGV_MAX)
			return -E2BIG;
		ret->argv[n++] = w;
	}
	if (c->makedumpfile_threads > 1 &&
	    !conf_makedumpfile_has(c, "--num-threads")) {
		snprintf(ret->threads, sizeof(ret->threads), "%u",
			 c->makedumpfile_threads);
		ret->argv[n++] = "--num-threads";
		ret->argv[n++] = ret->threads;
	}
	if (workdir && conf_makedumpfile_has(c, "-e")) {
		ret->argv[n++] = "--work-dir";
		ret->argv[n++] = (char *)workdir;
	}
	ret->argv[n++] = (char *)in;
	if (out)
		ret->argv[n++] = (char *)out;
	ret->argv[n] = NULL;
	return 0;
}
