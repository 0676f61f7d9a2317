// SPDX-License-Identifier: GPL-2.0
/*
 * kdump-file import: kdump-tools' and kdump-utils' configuration turned
 * into kdump-file.conf text.  The sources are hostile input like our own
 * configuration: lines are bounded, a quote left open is an error, and the
 * shell files are read as literal assignments, never run.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cmdline.h"
#include "import.h"
#include "util.h"

/*
 * list: values add up, blank separated.  dedupe: a word already there is
 * not added twice.
 */
static const struct {
	const char *name;
	bool list, dedupe;
} keys[IK_MAX] = {
	[IK_PATH] = { "path" },
	[IK_TARGET] = { "target" },
	[IK_RAW] = { "raw" },
	[IK_SSH_KEY] = { "ssh_key" },
	[IK_FALLBACK] = { "fallback" },
	[IK_DUMP_LEVEL] = { "dump_level" },
	[IK_COMPRESSION] = { "compression" },
	[IK_MAKEDUMPFILE_ARGS] = { "makedumpfile_args", true, false },
	[IK_CMDLINE_APPEND] = { "cmdline_append", true, true },
	[IK_CMDLINE_REMOVE] = { "cmdline_remove", true, true },
	[IK_KERNEL] = { "kernel" },
	[IK_INITRAMFS] = { "initramfs" },
	[IK_FAILURE_ACTION] = { "failure_action" },
	[IK_FINAL_ACTION] = { "final_action" },
	[IK_KEEP] = { "keep" },
	[IK_PANIC_ON] = { "panic_on", true, true },
	[IK_PRE_HOOK] = { "pre_hook" },
	[IK_POST_HOOK] = { "post_hook" },
	[IK_HOOK_FAILURE] = { "hook_failure" },
	[IK_EXTRA_BINARIES] = { "extra_binaries", true, true },
	[IK_EXTRA_MODULES] = { "extra_modules", true, true },
};

#define REASON_EXPANSION                                                      \
	"uses shell expansion ($, ` or a glob), which import does not "      \
	"evaluate: set the kdump-file key by hand"

const char *import_format_name(enum import_format f)
{
	switch (f) {
	case IMPORT_KDUMP_TOOLS:
		return "kdump-tools";
	case IMPORT_KDUMP_CONF:
		return "kdump-utils kdump.conf";
	case IMPORT_SYSCONFIG:
		return "kdump-utils sysconfig";
	default:
		return "unknown";
	}
}

void import_init(struct import *im)
{
	memset(im, 0, sizeof(*im));
}

void import_free(struct import *im)
{
	free(im->notes);
	im->notes = NULL;
	im->n_notes = im->cap_notes = 0;
}

static int fail(struct import_error *err, unsigned int line, const char *fmt,
		...) __attribute__((format(printf, 3, 4)));

static int fail(struct import_error *err, unsigned int line, const char *fmt,
		...)
{
	va_list ap;

	if (err) {
		err->line = line;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* Printable ASCII only: notes end up in comments our own parser reads. */
static void sanitize(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			*s = '?';
}

static void note(struct import *im, enum import_kind kind,
		 const char *setting, const char *detail, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void note(struct import *im, enum import_kind kind,
		 const char *setting, const char *detail, const char *fmt, ...)
{
	struct import_note *n;
	va_list ap;

	if (kind == IMPORT_CARRIED)
		im->n_carried++;
	else if (kind == IMPORT_NOT_CARRIED)
		im->n_not_carried++;
	else if (kind == IMPORT_CHANGED)
		im->n_changed++;
	else
		im->n_no_need++;
	if (im->n_notes == im->cap_notes) {
		size_t cap = im->cap_notes ? im->cap_notes * 2 : 32;
		struct import_note *p = realloc(im->notes, cap * sizeof(*p));

		if (!p) {
			im->oom = true;
			return;
		}
		im->notes = p;
		im->cap_notes = cap;
	}
	n = &im->notes[im->n_notes++];
	n->kind = kind;
	if (detail)
		snprintf(n->setting, sizeof(n->setting), "%s (%s)", setting,
			 detail);
	else
		snprintf(n->setting, sizeof(n->setting), "%s", setting);
	va_start(ap, fmt);
	vsnprintf(n->reason, sizeof(n->reason), fmt, ap);
	va_end(ap);
	sanitize(n->setting);
	sanitize(n->reason);
}

/* Would kdump-file.conf accept "key = v"?  why gets the parser's reason. */
static int check_value(enum import_key k, const char *v, char *why,
		       size_t size)
{
	char text[CONF_VALUE_MAX + 128];
	struct conf_error e;
	struct kdump_conf c;
	const char *target = "";
	int r;

	memset(&e, 0, sizeof(e));
	if (strlen(v) >= CONF_VALUE_MAX) {
		snprintf(why, size, "longer than %d bytes", CONF_VALUE_MAX - 1);
		return -E2BIG;
	}
	if (strchr(v, '#')) {
		snprintf(why, size, "'#' starts a comment in kdump-file.conf");
		return -EINVAL;
	}
	/*
	 * conf.c takes ssh_key and fallback beside a network target only:
	 * one of the kind they belong to stands for the target carried.
	 */
	if (k == IK_SSH_KEY || k == IK_FALLBACK)
		target = "target = ssh://root@localhost/var/crash\n";
	snprintf(text, sizeof(text), "%s%s = %s\n", target, keys[k].name, v);
	r = conf_parse_buffer(&c, text, strlen(text), &e);
	if (r < 0)
		snprintf(why, size, "%s", e.msg);
	return r;
}

static void add_from(struct import *im, enum import_key k, const char *setting)
{
	char *f = im->from[k];
	size_t n = strlen(f), l = strlen(setting);

	/* Settings have blanks ("kdump-tools' default X"): whole entries. */
	for (const char *e = f; (e = strstr(e, setting)); e++)
		if ((e == f || (e >= f + 2 && e[-2] == ',')) &&
		    (e[l] == '\0' || e[l] == ','))
			return;
	snprintf(f + n, sizeof(im->from[k]) - n, "%s%s", n ? ", " : "",
		 setting);
}

/*
 * Carry v over into key k for setting (detail: the word of the setting,
 * or NULL).  A value kdump-file.conf refuses is noted as not carried, with
 * the parser's reason.
 */
static bool carry(struct import *im, enum import_key k, const char *v,
		  const char *setting, const char *detail)
{
	char why[300], joined[CONF_VALUE_MAX];
	size_t n;

	if (check_value(k, v, why, sizeof(why)) < 0) {
		note(im, IMPORT_NOT_CARRIED, setting, detail,
		     "kdump-file's %s refuses it: %s", keys[k].name, why);
		return false;
	}
	if (keys[k].list && im->set[k] && im->value[k][0]) {
		if (keys[k].dedupe && word_in_list(v, im->value[k])) {
			note(im, IMPORT_CARRIED, setting, detail, "%s = %s",
			     keys[k].name, v);
			add_from(im, k, setting);
			return true;
		}
		n = snprintf(joined, sizeof(joined), "%s %s", im->value[k], v);
		if (n >= sizeof(joined)) {
			note(im, IMPORT_NOT_CARRIED, setting, detail,
			     "%s would be longer than %d bytes", keys[k].name,
			     CONF_VALUE_MAX - 1);
			return false;
		}
	} else {
		snprintf(joined, sizeof(joined), "%s", v);
	}
	snprintf(im->value[k], sizeof(im->value[k]), "%s", joined);
	im->set[k] = true;
	add_from(im, k, setting);
	note(im, IMPORT_CARRIED, setting, detail, "%s = %s", keys[k].name, v);
	return true;
}

static bool in_list(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(name, *list) == 0)
			return true;
	return false;
}

/* One word of s (blank separated, double quotes kept together), or NULL. */
static const char *next_word(const char *s, char *buf, size_t size)
{
	bool quoted = false;
	size_t n = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return NULL;
	for (; *s && (quoted || (*s != ' ' && *s != '\t')); s++) {
		if (*s == '"')
			quoted = !quoted;
		if (n + 1 < size)
			buf[n++] = *s;
	}
	buf[n] = '\0';
	return s;
}

static bool is_number(const char *s, unsigned long max)
{
	char *end;
	unsigned long x;

	if (*s < '0' || *s > '9' || strlen(s) > 6)
		return false;
	x = strtoul(s, &end, 10);
	return !*end && x <= max;
}

/*
 * makedumpfile's options that take a value (makedumpfile 1.7.2's getopt
 * string and long options): the value is the next word, or after '=' for
 * a long option, and is never read as an option itself.
 */
static const char *const mdf_with_value[] = {
	"-b", "-d", "-g", "-i", "-x", "--message-level", "--num-threads",
	"--cyclic-buffer", "--splitblock-size", "--work-dir", "--config",
	"--eppic", "--vtop", NULL,
};

/* The options makedumpfile_args takes (see conf.c), carried as they are. */
static const char *const mdf_passed[] = {
	"--message-level", "--num-threads", "--cyclic-buffer",
	"--splitblock-size", "--non-mmap", "-e", "-D", NULL,
};

#define MDF_MAX 32

struct mdf_opt {
	char name[32];
	char value[64];
	char word[112];		/* as the source wrote it, for the notes */
};

/* -c, -l, -p or -z: makedumpfile's compression flags. */
static bool is_compression(const char *name)
{
	return name[0] == '-' && name[1] && strchr("clpz", name[1]) &&
	       !name[2];
}

/*
 * makedumpfile's arguments (kdump-tools' MAKEDUMP_ARGS, kdump-utils'
 * core_collector after "makedumpfile"): compression, dump level and the
 * options kdump-file passes through makedumpfile_args.  makedumpfile
 * reads its options with getopt_long(3) and keeps the last value of a
 * repeated one, so does this: an option a later one overrides is noted
 * as needing nothing.
 */
static void map_makedumpfile(struct import *im, const char *setting,
			     const char *args)
{
	struct mdf_opt opts[MDF_MAX], *comp = NULL, *level = NULL;
	unsigned int n = 0;
	char w[128];
	const char *p = args;

	while ((p = next_word(p, w, sizeof(w)))) {
		struct mdf_opt o = { 0 };
		const char *eq = NULL;
		size_t nl;

		if (strncmp(w, "--", 2) == 0)
			eq = strchr(w, '=');
		nl = eq ? (size_t)(eq - w) : strlen(w);
		/* -d31 as getopt takes it: the value right after -d. */
		if (strncmp(w, "-d", 2) == 0 && w[2]) {
			nl = 2;
			eq = w + 1;
		}
		snprintf(o.name, sizeof(o.name), "%.*s", (int)nl, w);
		if (in_list(o.name, mdf_with_value)) {
			if (eq) {
				snprintf(o.value, sizeof(o.value), "%s", eq + 1);
			} else {
				const char *q = next_word(p, o.value,
							  sizeof(o.value));

				if (!q) {
					note(im, IMPORT_NOT_CARRIED, setting,
					     o.name, "%s without a value",
					     o.name);
					break;
				}
				p = q;
			}
			text_format(o.word, sizeof(o.word), "%s %s", o.name,
				    o.value);
		} else {
			text_format(o.word, sizeof(o.word), "%s", w);
		}
		if (strcmp(o.name, "-F") == 0) {
			note(im, IMPORT_NO_NEED, setting, w,
			     "kdump-file writes a flattened dump by itself where it needs one (to a raw device, or over SSH)");
			continue;
		}
		/* A later one of the same option, or compression, wins. */
		for (unsigned int i = 0; i < n; i++) {
			bool both_comp = is_compression(opts[i].name) &&
					 is_compression(o.name);

			if (strcmp(opts[i].name, o.name) != 0 && !both_comp)
				continue;
			note(im, IMPORT_NO_NEED, setting, opts[i].word,
			     "a later %s overrides it, as makedumpfile keeps the last",
			     o.word);
			memmove(&opts[i], &opts[i + 1],
				(n - i - 1) * sizeof(opts[0]));
			n--;
			break;
		}
		if (n == MDF_MAX) {
			note(im, IMPORT_NOT_CARRIED, setting, o.word,
			     "more than %d makedumpfile options", MDF_MAX);
			break;
		}
		opts[n++] = o;
	}
	for (unsigned int i = 0; i < n; i++) {
		struct mdf_opt *o = &opts[i];

		if (is_compression(o->name)) {
			comp = o;
		} else if (strcmp(o->name, "-d") == 0) {
			level = o;
		} else if (in_list(o->name, mdf_passed)) {
			carry(im, IK_MAKEDUMPFILE_ARGS, o->word, setting,
			      o->word);
		} else {
			/* conf.c's own reason: it names what kdump-file does instead. */
			char why[300];

			if (check_value(IK_MAKEDUMPFILE_ARGS, o->word, why,
					sizeof(why)) < 0)
				note(im, IMPORT_NOT_CARRIED, setting, o->word,
				     "%s", why);
			else
				note(im, IMPORT_NOT_CARRIED, setting, o->word,
				     "not a makedumpfile option kdump-file passes on");
		}
	}
	if (level)
		carry(im, IK_DUMP_LEVEL, level->value, setting, level->word);
	if (!comp) {
		carry(im, IK_COMPRESSION, "none", setting,
		      "no -c, -l, -p or -z: uncompressed");
	} else if (comp->name[1] == 'p' || comp->name[1] == 'z') {
		note(im, IMPORT_NOT_CARRIED, setting, comp->word,
		     "%s compression is not in Debian 12's makedumpfile (1.7.2) and kdump-file cannot use it: set compression = lzo or zlib by hand",
		     comp->name[1] == 'p' ? "snappy" : "zstd");
	} else {
		carry(im, IK_COMPRESSION, comp->name[1] == 'c' ? "zlib" : "lzo",
		      setting, comp->word);
	}
}

/*
 * Parameters kdump-file's capture must choose itself: a value appended by
 * the user would mount, resume or run something else than the capture.
 */
static const char *const append_refused[] = {
	"crashkernel", "elfcorehdr", "root", "rootflags", "rootfstype",
	"rootwait", "ro", "rw", "init", "rdinit", "resume", "resume_offset",
	"kdump_file_test", NULL,
};

static void map_cmdline_append(struct import *im, const char *setting,
			       const char *v)
{
	char w[CONF_VALUE_MAX];
	const char *p = v;

	while ((p = next_word(p, w, sizeof(w)))) {
		size_t n = strcspn(w, "=");
		bool refused = false;

		for (unsigned int i = 0; append_refused[i]; i++)
			if (strlen(append_refused[i]) == n &&
			    strncmp(w, append_refused[i], n) == 0)
				refused = true;
		if (cmdline_capture_adds(w))
			note(im, IMPORT_NO_NEED, setting, w,
			     "kdump-file gives the capture kernel this parameter already");
		else if (refused)
			note(im, IMPORT_NOT_CARRIED, setting, w,
			     "kdump-file's capture sets or leaves out %.*s itself",
			     (int)n, w);
		else if (strcmp(w, "systemd.unit=kdump-tools-dump.service") == 0)
			note(im, IMPORT_NO_NEED, setting, w,
			     "starts kdump-tools' capture in its initrd; kdump-file's capture is its initramfs' own /init");
		else if (strncmp(w, "systemd.", 8) == 0)
			note(im, IMPORT_NOT_CARRIED, setting, w,
			     "for systemd in kdump-tools' capture initrd; kdump-file's capture runs its own /init");
		else if (strncmp(w, "rd.", 3) == 0)
			note(im, IMPORT_NOT_CARRIED, setting, w,
			     "for dracut's scripts in kdump-utils' capture initramfs; kdump-file's capture runs its own /init");
		else if (strncmp(w, "udev.", 5) == 0)
			note(im, IMPORT_NOT_CARRIED, setting, w,
			     "kdump-file's capture runs without udev");
		else
			carry(im, IK_CMDLINE_APPEND, w, setting, w);
	}
}

static void map_cmdline_remove(struct import *im, const char *setting,
			       const char *v)
{
	char w[CONF_VALUE_MAX];
	const char *p = v;

	while ((p = next_word(p, w, sizeof(w)))) {
		w[strcspn(w, "=")] = '\0';
		if (cmdline_always_dropped(w, strlen(w)))
			note(im, IMPORT_NO_NEED, setting, w,
			     "kdump-file keeps it off the capture command line already");
		else
			carry(im, IK_CMDLINE_REMOVE, w, setting, w);
	}
}

/* KDUMP_FAIL_CMD: only a plain reboot, poweroff or halt has a kdump-file key. */
static void map_fail_cmd(struct import *im, const char *setting, const char *v)
{
	static const char *const dirs[] = { "", "/sbin/", "/usr/sbin/", "/bin/",
					    "/usr/bin/" };
	static const char *const actions[] = { "reboot", "poweroff", "halt" };
	char w[128];
	const char *p = v, *action = NULL;

	p = next_word(p, w, sizeof(w));
	if (p && strcmp(w, "systemctl") == 0)
		p = next_word(p, w, sizeof(w));
	for (size_t d = 0; p && d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		size_t dl = strlen(dirs[d]);

		for (size_t a = 0; a < sizeof(actions) / sizeof(actions[0]); a++)
			if (strncmp(w, dirs[d], dl) == 0 &&
			    strcmp(w + dl, actions[a]) == 0)
				action = actions[a];
	}
	while (action && (p = next_word(p, w, sizeof(w))))
		if (strcmp(w, "-f") != 0 && strcmp(w, "--force") != 0 &&
		    strcmp(w, "-ff") != 0)
			action = NULL;
	if (action)
		carry(im, IK_FAILURE_ACTION, action, setting, NULL);
	else
		note(im, IMPORT_NOT_CARRIED, setting, NULL,
		     "kdump-file runs no command when saving fails: failure_action is one of reboot, poweroff, halt or shell");
}

/* KDUMP_SYSCTL: the panic_on_* sysctls become panic_on kinds. */
static void map_sysctl(struct import *im, const char *setting, const char *v)
{
	static const struct {
		const char *sysctl, *kind;
	} map[] = {
		{ "kernel.panic_on_oops", "oops" },
		{ "kernel.hung_task_panic", "hung_task" },
		{ "kernel.softlockup_panic", "soft_lockup" },
		{ "kernel.hardlockup_panic", "hard_lockup" },
		{ "kernel.panic_on_rcu_stall", "rcu_stall" },
		{ "kernel.panic_on_warn", "warn" },
	};
	char w[256];
	const char *p = v;

	while ((p = next_word(p, w, sizeof(w)))) {
		char *eq = strchr(w, '=');
		const char *kind = NULL;

		if (eq)
			*eq = '\0';
		for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
			if (strcmp(w, map[i].sysctl) == 0)
				kind = map[i].kind;
		if (eq)
			*eq = '=';
		if (!kind)
			note(im, IMPORT_NOT_CARRIED, setting, w,
			     "kdump-file sets no sysctl but the panic_on_* ones panic_on names: set it with sysctl.d(5)");
		else if (!eq || !is_number(eq + 1, 1000000))
			note(im, IMPORT_NOT_CARRIED, setting, w,
			     "not name=number");
		else if (strcmp(eq + 1, "0") == 0)
			note(im, IMPORT_NO_NEED, setting, w,
			     "off, as kdump-file leaves it");
		else
			carry(im, IK_PANIC_ON, kind, setting, w);
	}
}

/* --- the shell files: /etc/default/kdump-tools, /etc/sysconfig/kdump --- */

struct assign {
	char name[64];
	/* What the notes call it: the name, or "kdump-tools' default NAME". */
	char label[96];
	char value[CONF_VALUE_MAX];
	unsigned int line;
	bool expands;
};

/*
 * One line of a shell file: a comment, a blank line or one literal
 * assignment [export] NAME=VALUE, the value unquoted, 'single' or "double"
 * quoted.  Returns 1 with *a filled, 0 for nothing, or -EINVAL.
 */
static int parse_shell_line(const char *s, unsigned int line, struct assign *a,
			    struct import_error *err)
{
	size_t n = 0, len;
	bool start = true;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '#' || *s == '\0')
		return 0;
	if (strncmp(s, "export", 6) == 0 && (s[6] == ' ' || s[6] == '\t')) {
		s += 6;
		while (*s == ' ' || *s == '\t')
			s++;
	}
	len = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_0123456789");
	if (len == 0 || (*s >= '0' && *s <= '9') || s[len] != '=')
		return fail(err, line,
			    "expected a plain assignment VARIABLE=value, got '%.40s'",
			    s);
	if (len >= sizeof(a->name))
		return fail(err, line, "variable name longer than %zu bytes",
			    sizeof(a->name) - 1);
	memcpy(a->name, s, len);
	a->name[len] = '\0';
	snprintf(a->label, sizeof(a->label), "%s", a->name);
	a->line = line;
	a->expands = false;
	s += len + 1;

#define PUT(ch)                                                               \
	do {                                                                  \
		if (n + 1 >= sizeof(a->value))                                \
			return fail(err, line,                                \
				    "the value of %s is longer than %zu bytes", \
				    a->name, sizeof(a->value) - 1);           \
		a->value[n++] = (ch);                                         \
	} while (0)

	while (*s && *s != ' ' && *s != '\t') {
		if (*s == '\'') {
			const char *end = strchr(s + 1, '\'');

			if (!end)
				return fail(err, line,
					    "unterminated single quote in the value of %s (values must close their quotes on the same line)",
					    a->name);
			for (s++; s < end; s++)
				PUT(*s);
			s++;
		} else if (*s == '"') {
			for (s++; *s != '"'; s++) {
				if (!*s)
					return fail(err, line,
						    "unterminated double quote in the value of %s (values must close their quotes on the same line)",
						    a->name);
				if (*s == '\\' && s[1] && strchr("$`\"\\", s[1]))
					s++;
				else if (*s == '$' || *s == '`')
					a->expands = true;
				PUT(*s);
			}
			s++;
		} else if (*s == '\\') {
			if (!s[1])
				return fail(err, line,
					    "a backslash ends the line: continued lines are not read");
			PUT(s[1]);
			s += 2;
		} else if (*s == '`' || (*s == '$' && (s[1] == '(' || s[1] == '{'))) {
			/*
			 * A command substitution or ${...} is one word even
			 * with blanks inside: skip to its end, never run it.
			 */
			char close = *s == '`' ? '`' : s[1] == '(' ? ')' : '}';
			const char *end;

			a->expands = true;
			end = strchr(s + (*s == '`' ? 1 : 2), close);
			if (!end)
				return fail(err, line,
					    "unterminated %s in the value of %s",
					    *s == '`' ? "`" : s[1] == '(' ? "$(" : "${",
					    a->name);
			for (; s <= end; s++)
				PUT(*s);
		} else if (strchr(";&|<>()", *s)) {
			return fail(err, line,
				    "'%c' in the value of %s: only plain assignments are read (quote the value)",
				    *s, a->name);
		} else {
			if (strchr("$`*?[", *s) || (*s == '~' && start))
				a->expands = true;
			PUT(*s);
			s++;
		}
		start = false;
	}
#undef PUT
	a->value[n] = '\0';
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s && *s != '#')
		return fail(err, line,
			    "'%.40s' after the value of %s: quote a value that contains blanks",
			    s, a->name);
	return 1;
}

/*
 * Call fn for every line of buf (CR LF and LF, no NUL, no control
 * character but tab, at most IMPORT_LINE_MAX bytes).
 */
static int each_line(const char *buf, size_t len, struct import_error *err,
		     int (*fn)(const char *line, unsigned int lineno, void *ctx),
		     void *ctx)
{
	char *line;
	size_t pos = 0;
	unsigned int lineno = 0;
	int r = 0;

	if (memchr(buf, '\0', len))
		return fail(err, 0, "the file contains a NUL byte: not a text file");
	line = malloc(IMPORT_LINE_MAX + 1);
	if (!line)
		return -ENOMEM;
	while (pos < len && r >= 0) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;

		lineno++;
		if (n > IMPORT_LINE_MAX) {
			r = fail(err, lineno, "line longer than %d bytes",
				 IMPORT_LINE_MAX);
			break;
		}
		memcpy(line, buf + pos, n);
		line[n] = '\0';
		pos += n + 1;
		if (n && line[n - 1] == '\r')
			line[--n] = '\0';
		for (size_t i = 0; i < n; i++) {
			unsigned char ch = (unsigned char)line[i];

			if ((ch < 0x20 && ch != '\t') || ch == 0x7f) {
				r = fail(err, lineno,
					 "control character 0x%02x in the line",
					 ch);
				break;
			}
		}
		if (r >= 0)
			r = fn(line, lineno, ctx);
	}
	free(line);
	return r;
}

struct shell_ctx {
	struct assign *v;
	size_t n, cap;
	struct import_error *err;
};

static int shell_line(const char *line, unsigned int lineno, void *ctx)
{
	struct shell_ctx *sc = ctx;
	struct assign a;
	int r;

	r = parse_shell_line(line, lineno, &a, sc->err);
	if (r <= 0)
		return r;
	/* As the shell does: the last assignment of a variable wins. */
	for (size_t i = 0; i < sc->n; i++) {
		if (strcmp(sc->v[i].name, a.name) == 0) {
			memmove(&sc->v[i], &sc->v[i + 1],
				(sc->n - i - 1) * sizeof(a));
			sc->n--;
			break;
		}
	}
	if (sc->n == sc->cap) {
		size_t cap = sc->cap ? sc->cap * 2 : 16;
		struct assign *p = realloc(sc->v, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		sc->v = p;
		sc->cap = cap;
	}
	sc->v[sc->n++] = a;
	return 0;
}

static const char *const kdump_tools_network[] = {
	"NFS", "NFS_TIMEO", "NFS_RETRANS", "NFS_MOUNT_RETRY", "SSH", "SSH_KEY",
	"SSH_KDUMP_RETRY", "HOSTTAG", "FTP", "FTP_USER", "FTP_PASSWORD",
	"FTP_PORT", NULL,
};

/* kdump-tools' own links, which kdump-config load keeps up to date. */
#define KDUMP_TOOLS_KERNEL_LINK "/var/lib/kdump/vmlinuz"
#define KDUMP_TOOLS_INITRD_LINK "/var/lib/kdump/initrd.img"

/* The network target carries into target = URL. */
static bool remote_carried(const struct import *im)
{
	return im->remote[0] && !im->remote_refused[0] && !im->local_instead;
}

static bool remote_is_ssh(const struct import *im)
{
	return strcasecmp(im->remote, "ssh") == 0;
}

/*
 * The network target itself (kdump-tools' SSH, NFS, FTP; kdump.conf's ssh,
 * nfs): target = its URL, which puts the dumps in a directory per machine
 * there; with --local-instead its directory becomes path, which changes
 * where dumps go and is said so.  One kdump-file cannot dump to stops
 * import (import_check()).
 */
static void map_remote(struct import *im, const char *setting)
{
	/* kdump-config savecore saves to each of FTP, SSH and NFS set. */
	if (strcmp(setting, im->remote) != 0) {
		note(im, IMPORT_NOT_CARRIED, setting, NULL,
		     "kdump-tools dumped there as well as to %s; kdump-file dumps to one target, %s",
		     im->remote, im->remote);
		return;
	}
	if (im->local_instead) {
		add_from(im, IK_PATH, setting);
		note(im, IMPORT_CHANGED, setting, NULL,
		     "dumps went to %s; with --local-instead they go to path = %s on this machine instead",
		     im->remote_where, im->remote_path);
		return;
	}
	if (im->remote_refused[0]) {
		note(im, IMPORT_NOT_CARRIED, setting, NULL,
		     "%s; import stops unless --local-instead makes the directory a local path",
		     im->remote_refused);
		return;
	}
	if (!carry(im, IK_TARGET, im->remote_url, setting, NULL))
		return;
	if (remote_is_ssh(im))
		note(im, IMPORT_CHANGED, setting, NULL,
		     "dumps go to a directory per machine, HOSTNAME-MID12, in %s on the collector, which needs kdump-file installed; run kdump-file propagate here to pin its host key and install this machine's key there, restricted to kdump-file-receive",
		     im->remote_path);
	else
		note(im, IMPORT_CHANGED, setting, NULL,
		     "dumps go to a directory per machine, HOSTNAME-MID12, in the export, which the capture mounts with NFS version 4 (nfs_version = 3 for a server without it)");
}

/* A setting for the network target only: SSH_KEY, NFS_TIMEO, sshkey... */
static void map_remote_only(struct import *im, const struct assign *a,
			    const char *targets)
{
	const char *n = a->label, *v = a->value, *name = a->name;
	bool nfs_only = strncmp(name, "NFS_", 4) == 0;

	if (!im->remote[0]) {
		note(im, IMPORT_NO_NEED, n, NULL,
		     "used only with %s, and none is set", targets);
		return;
	}
	if (!remote_carried(im)) {
		note(im, IMPORT_NO_NEED, n, NULL,
		     "only for the network target %s, which kdump-file does not use",
		     im->remote);
		return;
	}
	if (strcmp(name, "HOSTTAG") == 0) {
		note(im, IMPORT_CHANGED, n, NULL,
		     "kdump-tools named each dump HOST-STAMP by the %s; kdump-file names a directory per machine itself, HOSTNAME-MID12 (the host name and the first 12 hex digits of /etc/machine-id), a dump directory per crash in it",
		     strcmp(v, "hostname") == 0 ? "host name" : "IP address");
	} else if (strcmp(name, "SSH_KEY") == 0 || strcmp(name, "sshkey") == 0) {
		if (!remote_is_ssh(im))
			note(im, IMPORT_NO_NEED, n, NULL,
			     "only for an SSH target, and dumps go over NFS");
		else if (a->expands)
			note(im, IMPORT_NOT_CARRIED, n, NULL, REASON_EXPANSION);
		else if (carry(im, IK_SSH_KEY, v, n, NULL))
			note(im, IMPORT_CHANGED, n, NULL,
			     "kdump-file propagate installs this key on the collector restricted to kdump-file-receive, in place of the line that let it run any command there");
	} else if (strncmp(name, "FTP", 3) == 0 ||
		   (nfs_only && remote_is_ssh(im)) ||
		   (strcmp(name, "SSH_KDUMP_RETRY") == 0 && !remote_is_ssh(im))) {
		note(im, IMPORT_NO_NEED, n, NULL,
		     "not for the network target %s, which dumps go to",
		     im->remote);
	} else if (strcmp(name, "NFS_TIMEO") == 0 ||
		   strcmp(name, "NFS_RETRANS") == 0) {
		note(im, IMPORT_NOT_CARRIED, n, NULL,
		     "kdump-tools mounted the export soft, giving up after NFS_TIMEO and NFS_RETRANS; kdump-file's capture mounts it with the kernel's NFS defaults, and net_timeout (90 seconds) bounds reaching the collector");
	} else {
		note(im, IMPORT_NOT_CARRIED, n, NULL,
		     "kdump-file tries to reach the collector for net_timeout seconds (90 by default), not a number of times");
	}
}

/* The dump directory: on the network target, if there is one. */
static void map_path(struct import *im, const char *setting, const char *v)
{
	if (!im->remote[0] || im->local_instead) {
		carry(im, IK_PATH, v, setting, NULL);
	} else if (im->remote_refused[0]) {
		note(im, IMPORT_NOT_CARRIED, setting, NULL,
		     "the directory for %s, not on this machine: kdump-file cannot dump there",
		     im->remote_where);
	} else if (strcmp(im->remote, "NFS") == 0) {
		/* kdump-config savecore mounts NFS on KDUMP_COREDIR. */
		note(im, IMPORT_NO_NEED, setting, NULL,
		     "where kdump-tools mounted the NFS export; kdump-file's capture mounts it itself, and the dumps go in the export as they did");
	} else {
		add_from(im, IK_TARGET, setting);
		note(im, IMPORT_CARRIED, setting, NULL,
		     "the directory in target = %s", im->remote_url);
	}
}

static const char *const kdump_tools_remote[] = { "SSH", "NFS", "FTP", NULL };

static void map_kdump_tools(struct import *im, const struct assign *a)
{
	const char *n = a->label, *v = a->value;

	if (strcmp(a->name, "USE_KDUMP") == 0) {
		if (strcmp(v, "1") == 0 || strcmp(v, "true") == 0)
			note(im, IMPORT_NO_NEED, n, NULL,
			     "kdump-file captures while its service is enabled (systemctl enable kdump-file)");
		else
			note(im, IMPORT_NOT_CARRIED, n, NULL,
			     "kdump-tools was switched off; kdump-file has no such key: keep it off with systemctl disable kdump-file");
		return;
	}
	/* Empty: unset, and kdump-config's default counts (import_buffer). */
	if (!*v)
		return;
	/* Never the value: FTP_PASSWORD is one of these. */
	if (in_list(a->name, kdump_tools_remote)) {
		map_remote(im, n);
		return;
	}
	if (in_list(a->name, kdump_tools_network)) {
		map_remote_only(im, a, "SSH=, NFS= or FTP=");
		return;
	}
	if (a->expands) {
		note(im, IMPORT_NOT_CARRIED, n, NULL, REASON_EXPANSION);
		return;
	}
	if (strcmp(a->name, "KDUMP_KERNEL") == 0) {
		if (strcmp(v, KDUMP_TOOLS_KERNEL_LINK) == 0)
			note(im, IMPORT_NO_NEED, n, NULL,
			     "kdump-tools' link to the running kernel, which kdump-file uses by default");
		else
			carry(im, IK_KERNEL, v, n, NULL);
	} else if (strcmp(a->name, "KDUMP_INITRD") == 0) {
		if (strcmp(v, KDUMP_TOOLS_INITRD_LINK) == 0)
			note(im, IMPORT_NO_NEED, n, NULL,
			     "kdump-tools' own capture initrd; kdump-file builds and maintains its own");
		else
			note(im, IMPORT_NOT_CARRIED, n, NULL,
			     "an initrd made for kdump-tools runs kdump-tools' capture, not kdump-file's; kdump-file builds its own (initramfs = is for one built with kdump-file's dracut module)");
	} else if (strcmp(a->name, "KDUMP_COREDIR") == 0) {
		map_path(im, n, v);
	} else if (strcmp(a->name, "KDUMP_FAIL_CMD") == 0) {
		map_fail_cmd(im, n, v);
	} else if (strcmp(a->name, "KDUMP_DUMP_DMESG") == 0) {
		if (strcmp(v, "0") == 0)
			note(im, IMPORT_NOT_CARRIED, n, NULL,
			     "kdump-file always saves the kernel log (dmesg.txt) before the vmcore; it cannot be turned off");
		else
			note(im, IMPORT_NO_NEED, n, NULL,
			     "kdump-file always saves the kernel log (dmesg.txt) before the vmcore");
	} else if (strcmp(a->name, "KDUMP_NUM_DUMPS") == 0) {
		/* kdump-config savecore limits a local directory only. */
		if (carry(im, IK_KEEP, v, n, NULL) && remote_carried(im) &&
		    strcmp(v, "0") != 0)
			note(im, IMPORT_CHANGED, n, NULL,
			     "kdump-tools removed no dump on %s; kdump-file keeps the last %s in this machine's directory there",
			     im->remote, v);
	} else if (strcmp(a->name, "KDUMP_COMPRESSION") == 0) {
		note(im, IMPORT_NOT_CARRIED, n, NULL,
		     "kdump-file compresses inside makedumpfile (compression = lzo, zlib or none), not the dump file afterwards");
	} else if (strcmp(a->name, "MAKEDUMP_ARGS") == 0) {
		map_makedumpfile(im, n, v);
	} else if (strcmp(a->name, "KDUMP_KEXEC_ARGS") == 0) {
		note(im, IMPORT_NOT_CARRIED, n, NULL,
		     "kdump-file loads the capture kernel with kexec_file_load(2) itself, not with kexec(8)");
	} else if (strcmp(a->name, "KDUMP_CMDLINE") == 0) {
		note(im, IMPORT_NOT_CARRIED, n, NULL,
		     "kdump-file builds the capture command line from the running one; change it with cmdline_append and cmdline_remove");
	} else if (strcmp(a->name, "KDUMP_CMDLINE_APPEND") == 0) {
		map_cmdline_append(im, n, v);
	} else if (strcmp(a->name, "KDUMP_SYSCTL") == 0) {
		map_sysctl(im, n, v);
	} else {
		note(im, IMPORT_NOT_CARRIED, n, NULL,
		     "not a kdump-tools setting import knows");
	}
}

static void map_sysconfig(struct import *im, const struct assign *a)
{
	const char *n = a->label, *v = a->value;
	char path[CONF_VALUE_MAX];

	/*
	 * kdumpctl start and status report the last "kdumpctl test" only
	 * when it is "yes" (kdumpctl: check_vmcore_creation_status()); its
	 * sysconfig says to set it to "" to turn that off.
	 */
	if (strcmp(a->name, "VMCORE_CREATION_NOTIFICATION") == 0) {
		if (strcasecmp(v, "yes") == 0)
			note(im, IMPORT_NO_NEED, n, NULL,
			     "kdump-file status always reports the last kdump-file test, passed or failed");
		else
			note(im, IMPORT_NOT_CARRIED, n, *v ? v : "empty",
			     "turned off kdumpctl's report of the last kdumpctl test; kdump-file status always reports the last kdump-file test and cannot be told not to");
		return;
	}
	if (!*v)
		return;		/* empty: unset */
	if (a->expands) {
		note(im, IMPORT_NOT_CARRIED, n, NULL, REASON_EXPANSION);
		return;
	}
	if (strcmp(a->name, "KDUMP_COMMANDLINE_APPEND") == 0) {
		map_cmdline_append(im, n, v);
	} else if (strcmp(a->name, "KDUMP_COMMANDLINE_REMOVE") == 0) {
		map_cmdline_remove(im, n, v);
	} else if (strcmp(a->name, "KDUMP_COMMANDLINE") == 0) {
		note(im, IMPORT_NOT_CARRIED, n, NULL,
		     "kdump-file builds the capture command line from the running one; change it with cmdline_append and cmdline_remove");
	} else if (strcmp(a->name, "KDUMP_KERNELVER") == 0) {
		if (path_format(path, sizeof(path), "/boot/vmlinuz-%s", v) < 0)
			note(im, IMPORT_NOT_CARRIED, n, NULL,
			     "the kernel version is too long for a path: set kernel in kdump-file.conf by hand");
		else
			carry(im, IK_KERNEL, path, n, NULL);
	} else if (strcmp(a->name, "KEXEC_ARGS") == 0) {
		char w[128];
		const char *p = v;

		while ((p = next_word(p, w, sizeof(w)))) {
			if (strcmp(w, "-s") == 0 ||
			    strcmp(w, "--kexec-file-syscall") == 0)
				note(im, IMPORT_NO_NEED, n, w,
				     "kdump-file always loads with kexec_file_load(2)");
			else
				note(im, IMPORT_NOT_CARRIED, n, w,
				     "kdump-file loads the capture kernel with kexec_file_load(2) itself, not with kexec(8)");
		}
	} else if (strcmp(a->name, "KDUMP_IMG") == 0 && strcmp(v, "vmlinuz") == 0) {
		note(im, IMPORT_NO_NEED, n, NULL,
		     "the kernel image name kdump-file uses by default (/boot/vmlinuz-$(uname -r))");
	} else if (strcmp(a->name, "KDUMP_BOOTDIR") == 0 && strcmp(v, "/boot") == 0) {
		note(im, IMPORT_NO_NEED, n, NULL,
		     "kdump-file looks for the capture kernel in /boot by default");
	} else if (strcmp(a->name, "KDUMP_IMG") == 0 ||
		   strcmp(a->name, "KDUMP_IMG_EXT") == 0 ||
		   strcmp(a->name, "KDUMP_BOOTDIR") == 0) {
		note(im, IMPORT_NOT_CARRIED, n, NULL,
		     "kdump-file takes the capture kernel's whole path from kernel = (default /boot/vmlinuz-$(uname -r)), not from parts");
	} else if (strcmp(a->name, "FADUMP_COMMANDLINE_APPEND") == 0) {
		note(im, IMPORT_NOT_CARRIED, n, NULL,
		     "firmware-assisted dump is for powerpc; kdump-file is for x86_64");
	} else if (strcmp(a->name, "KDUMP_STDLOGLVL") == 0 ||
		   strcmp(a->name, "KDUMP_SYSLOGLVL") == 0 ||
		   strcmp(a->name, "KDUMP_KMSGLOGLVL") == 0) {
		note(im, IMPORT_NOT_CARRIED, n, NULL,
		     "kdump-file's logging has no levels to set: it logs to the journal");
	} else {
		note(im, IMPORT_NOT_CARRIED, n, NULL,
		     "not a kdump-utils sysconfig setting import knows");
	}
}

/* --- kdump-utils' /etc/kdump.conf: "directive value" lines --- */

struct directive {
	char name[32];
	char label[64];		/* name, or "kdump-utils' default NAME" */
	char value[CONF_VALUE_MAX];
	unsigned int line;
};

static const char *const fs_types[] = { "ext2", "ext3", "ext4", "xfs",
					"btrfs", "minix", NULL };
static const char *const target_directives[] = { "raw", "nfs", "ssh",
						 "virtiofs", NULL };

static bool is_target(const char *d)
{
	return in_list(d, fs_types) || in_list(d, target_directives);
}

/* Directives kdump-utils lets appear more than once. */
static const char *const repeatable[] = { "extra_bins", "extra_modules", NULL };

struct conf_ctx {
	struct directive *v;
	size_t n, cap;
	struct import_error *err;
};

static int kdump_conf_line(const char *line, unsigned int lineno, void *ctx)
{
	struct conf_ctx *cc = ctx;
	struct directive d;
	const char *s = line, *e;
	size_t len;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '#' || *s == '\0')
		return 0;
	len = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_");
	if (len == 0 || (s[len] && s[len] != ' ' && s[len] != '\t'))
		return fail(cc->err, lineno,
			    "expected 'directive value', got '%.40s'", s);
	if (len >= sizeof(d.name))
		return fail(cc->err, lineno, "directive longer than %zu bytes",
			    sizeof(d.name) - 1);
	memcpy(d.name, s, len);
	d.name[len] = '\0';
	snprintf(d.label, sizeof(d.label), "%s", d.name);
	d.line = lineno;
	for (s += len; *s == ' ' || *s == '\t'; s++)
		;
	/* '#' after a blank starts a comment, as in kdump-file.conf. */
	for (e = s; *e; e++)
		if (*e == '#' && e > s && (e[-1] == ' ' || e[-1] == '\t'))
			break;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if ((size_t)(e - s) >= sizeof(d.value))
		return fail(cc->err, lineno, "the value of %s is longer than %zu bytes",
			    d.name, sizeof(d.value) - 1);
	memcpy(d.value, s, e - s);
	d.value[e - s] = '\0';
	if (!d.value[0])
		return fail(cc->err, lineno, "%s without a value", d.name);
	for (size_t i = 0; i < cc->n; i++) {
		const char *o = cc->v[i].name;

		if (is_target(o) && is_target(d.name))
			return fail(cc->err, lineno,
				    "a second dump target (%s; the first is %s on line %u): kdump-utils takes one",
				    d.name, o, cc->v[i].line);
		if ((strcmp(o, d.name) == 0 && !in_list(o, repeatable)) ||
		    ((strcmp(o, "default") == 0 || strcmp(o, "failure_action") == 0) &&
		     (strcmp(d.name, "default") == 0 || strcmp(d.name, "failure_action") == 0)))
			return fail(cc->err, lineno,
				    "%s repeats %s of line %u", d.name, o,
				    cc->v[i].line);
	}
	if (cc->n == cc->cap) {
		size_t cap = cc->cap ? cc->cap * 2 : 16;
		struct directive *p = realloc(cc->v, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		cc->v = p;
		cc->cap = cap;
	}
	cc->v[cc->n++] = d;
	return 0;
}

/* A list of words, each carried over on its own. */
static void map_words(struct import *im, enum import_key k, const char *setting,
		      const char *v)
{
	char w[CONF_VALUE_MAX];
	const char *p = v;

	while ((p = next_word(p, w, sizeof(w))))
		carry(im, k, w, setting, w);
}

/*
 * failure_action dump_to_rootfs: kdump.sh's dump_to_rootfs saves to path
 * on the root filesystem, then takes final_action.  kdump-file's fallback
 * is that directory for a network target only; failure_action follows in
 * map_rootfs_action().
 */
static void map_dump_to_rootfs(struct import *im, const struct directive *d)
{
	const char *dir = im->remote_path;

	if (!remote_carried(im)) {
		note(im, IMPORT_NOT_CARRIED, d->label, d->value,
		     "kdump-file falls back to a local directory (fallback) from a network target only: failure_action is one of reboot, poweroff, halt or shell");
		return;
	}
	if (!carry(im, IK_FALLBACK, dir, d->label, d->value))
		return;
	snprintf(im->rootfs_fallback, sizeof(im->rootfs_fallback), "%s",
		 d->label);
	note(im, IMPORT_CHANGED, d->label, d->value,
	     "kdump-file dumps to fallback = %s on this machine only when the collector cannot be reached before any byte of the dump went out",
	     dir);
}

/* After dump_to_rootfs kdump-utils took final_action, and reboot without. */
static void map_rootfs_action(struct import *im)
{
	const char *final = im->set[IK_FINAL_ACTION] ?
				    im->value[IK_FINAL_ACTION] : "reboot";

	if (im->rootfs_fallback[0] && !im->set[IK_FAILURE_ACTION])
		carry(im, IK_FAILURE_ACTION, final, im->rootfs_fallback,
		      "dump_to_rootfs: kdump-utils took final_action after it");
}

/* raw: the file names a raw target, which kdump-file runs no hook with. */
static void map_kdump_conf(struct import *im, const struct directive *d,
			   bool raw)
{
	const char *n = d->label, *v = d->value;

	if (strcmp(d->name, "path") == 0) {
		map_path(im, n, v);
	} else if (in_list(d->name, fs_types)) {
		carry(im, IK_TARGET, v, n, NULL);
	} else if (strcmp(d->name, "raw") == 0) {
		carry(im, IK_RAW, v, n, NULL);
	} else if (strcmp(d->name, "nfs") == 0 || strcmp(d->name, "ssh") == 0) {
		map_remote(im, n);
	} else if (strcmp(d->name, "sshkey") == 0) {
		struct assign a = { 0 };

		snprintf(a.name, sizeof(a.name), "%s", d->name);
		snprintf(a.label, sizeof(a.label), "%s", n);
		snprintf(a.value, sizeof(a.value), "%s", v);
		map_remote_only(im, &a, "an ssh target");
	} else if (strcmp(d->name, "virtiofs") == 0) {
		note(im, IMPORT_NOT_CARRIED, n, NULL,
		     "virtiofs dump targets are not supported by kdump-file");
	} else if (strcmp(d->name, "core_collector") == 0) {
		char w[128];
		const char *p = next_word(v, w, sizeof(w));

		if (p && (strcmp(w, "makedumpfile") == 0 ||
			  strcmp(w, "/usr/sbin/makedumpfile") == 0 ||
			  strcmp(w, "/sbin/makedumpfile") == 0))
			map_makedumpfile(im, n, p);
		else
			note(im, IMPORT_NOT_CARRIED, n, NULL,
			     "kdump-file always saves the dump with makedumpfile");
	} else if (strcmp(d->name, "kdump_pre") == 0 ||
		   strcmp(d->name, "kdump_post") == 0) {
		bool pre = strcmp(d->name, "kdump_pre") == 0;

		/* kdump.sh runs "$KDUMP_PRE": one path, blanks and all. */
		if (raw)
			note(im, IMPORT_NOT_CARRIED, n, NULL,
			     "kdump-file runs hooks only with a dump directory, and a raw target has none: dump to a filesystem (target) to keep it");
		else if (carry(im, pre ? IK_PRE_HOOK : IK_POST_HOOK, v, n, NULL) &&
		    pre)
			carry(im, IK_HOOK_FAILURE, "stop", n,
			      "kdump-utils saves nothing when it fails");
	} else if (strcmp(d->name, "kdump_emergency") == 0) {
		note(im, IMPORT_NOT_CARRIED, n, NULL,
		     "kdump-file runs no program only when the capture fails: post_hook runs after every dump, with \"failed\" as its second argument when saving failed (a post hook that exits at \"ok\" does what this did)");
	} else if (strcmp(d->name, "extra_bins") == 0) {
		map_words(im, IK_EXTRA_BINARIES, n, v);
	} else if (strcmp(d->name, "extra_modules") == 0) {
		map_words(im, IK_EXTRA_MODULES, n, v);
	} else if (strcmp(d->name, "failure_action") == 0 || strcmp(d->name, "default") == 0) {
		if (strcmp(v, "dump_to_rootfs") == 0)
			map_dump_to_rootfs(im, d);
		else
			carry(im, IK_FAILURE_ACTION, v, n, NULL);
	} else if (strcmp(d->name, "final_action") == 0) {
		carry(im, IK_FINAL_ACTION, v, n, NULL);
	} else if (strcmp(d->name, "auto_reset_crashkernel") == 0) {
		if (strcmp(v, "no") == 0)
			note(im, IMPORT_NO_NEED, n, v,
			     "kdump-file never changes crashkernel= by itself");
		else
			note(im, IMPORT_NOT_CARRIED, n, v,
			     "kdump-file never changes crashkernel= by itself: kdump-file setup sets it once, as kdump-file estimate recommends");
	} else if (strcmp(d->name, "force_rebuild") == 0 ||
		   strcmp(d->name, "force_no_rebuild") == 0) {
		note(im, IMPORT_NOT_CARRIED, n, NULL,
		     "kdump-file rebuilds its capture initramfs when one of its inputs changes, and kdump-file rebuild forces it");
	} else if (strcmp(d->name, "dracut_args") == 0) {
		note(im, IMPORT_NOT_CARRIED, n, NULL,
		     "kdump-file builds the capture initramfs with its own dracut module and options (extra_modules and extra_binaries add to it)");
	} else if (strcmp(d->name, "fence_kdump_args") == 0 ||
		   strcmp(d->name, "fence_kdump_nodes") == 0) {
		note(im, IMPORT_NOT_CARRIED, n, NULL,
		     "kdump-file sends no cluster fencing notification");
	} else {
		note(im, IMPORT_NOT_CARRIED, n, NULL,
		     "not a kdump.conf directive import knows");
	}
}

/*
 * What the hooks carried over do differently in kdump-file's capture
 * (capture's hooks, kdump-file.conf(5)) than in kdump-utils' kdump.sh
 * (do_kdump_pre, do_kdump_post): the arguments, the timeout and which
 * action follows a failure.
 */
static void note_hooks(struct import *im)
{
	const char *fail = im->set[IK_FAILURE_ACTION] ?
				   im->value[IK_FAILURE_ACTION] : "reboot";
	const char *final = im->set[IK_FINAL_ACTION] ?
				    im->value[IK_FINAL_ACTION] : "reboot";
	bool differ = strcmp(fail, final) != 0;

	if (im->set[IK_PRE_HOOK]) {
		note(im, IMPORT_CHANGED, "kdump_pre", NULL,
		     "kdump-file runs it with two arguments, the dump directory and \"pre\" (kdump-utils gave none), and kills it after hook_timeout (30) seconds");
		if (differ)
			note(im, IMPORT_CHANGED, "kdump_pre", NULL,
			     "when it fails, kdump-file takes failure_action (%s) where kdump-utils took final_action (%s)",
			     fail, final);
	}
	if (im->set[IK_POST_HOOK]) {
		note(im, IMPORT_CHANGED, "kdump_post", NULL,
		     "kdump-file runs it with two arguments, the dump directory and \"ok\" or \"failed\" (kdump-utils gave one, the dump's exit status, 0 when saved), and kills it after hook_timeout (30) seconds");
		if (differ && im->set[IK_HOOK_FAILURE])
			note(im, IMPORT_CHANGED, "kdump_post", NULL,
			     "hook_failure = stop (for kdump_pre) makes kdump-file take failure_action (%s) instead of final_action (%s) when it fails; kdump-utils only logged that",
			     fail, final);
	}
}

/*
 * What kdump-config (kdump-tools 1.8.1, Debian 12) uses for a variable
 * the file leaves unset or empty (VAR=${VAR:=default}); the
 * KDUMP_CMDLINE_APPEND debian/rules writes in for amd64; and the init
 * script's "reboot -f" when KDUMP_FAIL_CMD is unset.
 */
static const struct {
	const char *name, *value;
} kdump_tools_defaults[] = {
	{ "KDUMP_COREDIR", "/var/crash" },
	{ "MAKEDUMP_ARGS", "-F -c -d 31" },
	{ "KDUMP_CMDLINE_APPEND",
	  "reset_devices systemd.unit=kdump-tools-dump.service nr_cpus=1 irqpoll usbcore.nousb" },
	{ "KDUMP_FAIL_CMD", "reboot -f" },
	{ "KDUMP_DUMP_DMESG", "1" },
	{ "KDUMP_NUM_DUMPS", "0" },
};

/*
 * kdump-utils' defaults for a directive kdump.conf leaves out: kdump.sh's
 * KDUMP_PATH, CORE_COLLECTOR, FAILURE_ACTION and FINAL_ACTION, and
 * kdumpctl's auto_reset_crashkernel.
 */
static const struct {
	const char *name, *value;
} kdump_conf_defaults[] = {
	{ "path", "/var/crash" },
	{ "core_collector", "makedumpfile -l --message-level 7 -d 31" },
	{ "failure_action", "reboot" },
	{ "final_action", "reboot" },
	{ "auto_reset_crashkernel", "yes" },
};

/* kdumpctl reports the last test only when VMCORE_CREATION_NOTIFICATION is set. */
static void map_sysconfig_defaults(struct import *im,
				   const struct shell_ctx *sc)
{
	struct assign a = { 0 };

	for (size_t j = 0; j < sc->n; j++)
		if (strcmp(sc->v[j].name, "VMCORE_CREATION_NOTIFICATION") == 0)
			return;
	snprintf(a.name, sizeof(a.name), "VMCORE_CREATION_NOTIFICATION");
	snprintf(a.label, sizeof(a.label), "kdump-utils' default %s", a.name);
	map_sysconfig(im, &a);
}

static void map_kdump_tools_defaults(struct import *im,
				     const struct shell_ctx *sc)
{
	for (size_t i = 0; i < sizeof(kdump_tools_defaults) /
				sizeof(kdump_tools_defaults[0]); i++) {
		struct assign a = { 0 };
		bool set = false;

		for (size_t j = 0; j < sc->n; j++)
			if (strcmp(sc->v[j].name, kdump_tools_defaults[i].name) == 0 &&
			    sc->v[j].value[0])
				set = true;
		if (set)
			continue;
		snprintf(a.name, sizeof(a.name), "%s",
			 kdump_tools_defaults[i].name);
		snprintf(a.label, sizeof(a.label), "kdump-tools' default %s",
			 a.name);
		snprintf(a.value, sizeof(a.value), "%s",
			 kdump_tools_defaults[i].value);
		map_kdump_tools(im, &a);
	}
}

static void map_kdump_conf_defaults(struct import *im,
				    const struct conf_ctx *cc, bool raw)
{
	for (size_t i = 0; i < sizeof(kdump_conf_defaults) /
				sizeof(kdump_conf_defaults[0]); i++) {
		const char *name = kdump_conf_defaults[i].name;
		struct directive d = { 0 };
		bool set = false;

		for (size_t j = 0; j < cc->n; j++)
			if (strcmp(cc->v[j].name, name) == 0 ||
			    (strcmp(name, "failure_action") == 0 &&
			     strcmp(cc->v[j].name, "default") == 0))
				set = true;
		/* kdump.sh ignores path for a raw device. */
		if (set || (raw && strcmp(name, "path") == 0))
			continue;
		snprintf(d.name, sizeof(d.name), "%s", name);
		snprintf(d.label, sizeof(d.label), "kdump-utils' default %s",
			 name);
		snprintf(d.value, sizeof(d.value), "%s",
			 kdump_conf_defaults[i].value);
		map_kdump_conf(im, &d, raw);
	}
}

/* A trailing '/' names the same directory, which conf.c refuses. */
static void trim_slashes(char *dir)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		dir[--n] = '\0';
}

/*
 * HOST as a URL writes it: an IPv6 address in brackets, so that conf.c
 * refuses it with its own reason.
 */
static void url_host(char *buf, size_t size, const char *host, size_t n)
{
	if (memchr(host, ':', n) && host[0] != '[')
		snprintf(buf, size, "[%.*s]", (int)n, host);
	else
		snprintf(buf, size, "%.*s", (int)n, host);
}

/*
 * remote_url from USER@HOST and the directory there; ssh(1) logs in as
 * the user running it without USER@, root in kdump-tools' capture.
 */
static void remote_ssh_url(struct import *im, const char *who,
			   const char *dir)
{
	const char *at = strchr(who, '@'), *host = at ? at + 1 : who;
	char h[300];

	url_host(h, sizeof(h), host, strlen(host));
	if (path_format(im->remote_url, sizeof(im->remote_url),
			"ssh://%.*s@%s%s", at ? (int)(at - who) : 4,
			at ? who : "root", h, dir) < 0)
		text_format(im->remote_refused, sizeof(im->remote_refused),
			    "the target ssh://%s%s is longer than %zu bytes",
			    who, dir, sizeof(im->remote_url) - 1);
}

/*
 * remote_url from HOST:/EXPORT (IPv6: [ADDR]:/EXPORT) and a directory in
 * the export ("" for its top).
 */
static void remote_nfs_url(struct import *im, const char *spec,
			   const char *sub)
{
	const char *sep = strstr(spec, ":/");
	char h[300], exp[CONF_VALUE_MAX];
	size_t n;

	if (spec[0] == '[') {
		const char *close = strchr(spec, ']');

		sep = close && close[1] == ':' && close[2] == '/' ? close + 1 :
								    NULL;
	}
	if (!sep || sep == spec) {
		snprintf(im->remote_refused, sizeof(im->remote_refused),
			 "'%s' is not HOST:/EXPORT", spec);
		return;
	}
	url_host(h, sizeof(h), spec, sep - spec);
	snprintf(exp, sizeof(exp), "%s", sep + 1);
	n = strlen(exp);
	while (n > 1 && exp[n - 1] == '/')
		exp[--n] = '\0';
	while (*sub == '/')
		sub++;
	if (path_format(im->remote_url, sizeof(im->remote_url),
			"nfs://%s%s%s%s", h, exp, *sub && n > 1 ? "/" : "",
			sub) < 0)
		text_format(im->remote_refused, sizeof(im->remote_refused),
			    "the target nfs://%s%s is longer than %zu bytes",
			    spec, sub, sizeof(im->remote_url) - 1);
}

/* Whether remote_url is a target kdump-file takes; why not if not. */
static void remote_check(struct import *im, const char *dir, bool expands)
{
	char why[300], *url = im->remote_url, *top;
	size_t n = strlen(url);

	if (im->remote_refused[0])
		return;
	/* A trailing '/' names the same directory, which conf.c refuses. */
	top = strchr(url + strlen("ssh://"), '/');
	while (top && n > (size_t)(top - url) + 1 && url[n - 1] == '/')
		url[--n] = '\0';
	if (expands)
		snprintf(im->remote_refused, sizeof(im->remote_refused), "%s",
			 REASON_EXPANSION);
	else if (dir[0] != '/')
		text_format(im->remote_refused, sizeof(im->remote_refused),
			    "the directory '%s' is not an absolute path", dir);
	else if (check_value(IK_TARGET, im->remote_url, why, sizeof(why)) < 0)
		text_format(im->remote_refused, sizeof(im->remote_refused),
			    "kdump-file's target refuses it: %s", why);
	sanitize(im->remote_refused);
}

/*
 * Which network target kdump-tools dumps to: kdump-config savecore saves
 * over FTP and SSH when set, and to KDUMP_COREDIR otherwise, with the NFS
 * export mounted on it when NFS is set: the dumps go to KDUMP_COREDIR on
 * the SSH server, and to the top of the NFS export.
 */
static void find_remote_kdump_tools(struct import *im,
				    const struct shell_ctx *sc)
{
	const char *ssh = "", *nfs = "", *ftp = "", *dir = "/var/crash";
	bool expands = false;

	for (size_t i = 0; i < sc->n; i++) {
		const struct assign *a = &sc->v[i];

		if (!a->value[0])
			continue;
		if (strcmp(a->name, "SSH") == 0)
			ssh = a->value;
		else if (strcmp(a->name, "NFS") == 0)
			nfs = a->value;
		else if (strcmp(a->name, "FTP") == 0)
			ftp = a->value;
		else if (strcmp(a->name, "KDUMP_COREDIR") == 0)
			dir = a->value;
		else
			continue;
		expands |= a->expands;
	}
	snprintf(im->remote_path, sizeof(im->remote_path), "%s", dir);
	trim_slashes(im->remote_path);
	if (*ssh) {
		snprintf(im->remote, sizeof(im->remote), "SSH");
		text_format(im->remote_where, sizeof(im->remote_where),
			    "%s:%s over SSH", ssh, dir);
		remote_ssh_url(im, ssh, dir);
		remote_check(im, dir, expands);
	} else if (*nfs) {
		snprintf(im->remote, sizeof(im->remote), "NFS");
		text_format(im->remote_where, sizeof(im->remote_where),
			    "the NFS export %s (mounted on %s)", nfs, dir);
		remote_nfs_url(im, nfs, "");
		remote_check(im, "/", expands);
	} else if (*ftp) {
		snprintf(im->remote, sizeof(im->remote), "FTP");
		text_format(im->remote_where, sizeof(im->remote_where),
			    "the FTP server %s", ftp);
		snprintf(im->remote_refused, sizeof(im->remote_refused),
			 "kdump-file dumps over SSH or NFS, not FTP");
	}
	sanitize(im->remote_where);
}

/*
 * kdump.conf's ssh or nfs target, with path on it (kdump.sh: dump_ssh,
 * dump_fs): the directory on the SSH server, or in the NFS export.  The
 * nfs directive names the export alone: kdump-utils mounts it with the
 * options the running system has for it.
 */
static void find_remote_kdump_conf(struct import *im, const struct conf_ctx *cc)
{
	const char *ssh = "", *nfs = "", *dir = "/var/crash";

	for (size_t i = 0; i < cc->n; i++) {
		const struct directive *d = &cc->v[i];

		if (strcmp(d->name, "ssh") == 0)
			ssh = d->value;
		else if (strcmp(d->name, "nfs") == 0)
			nfs = d->value;
		else if (strcmp(d->name, "path") == 0)
			dir = d->value;
	}
	snprintf(im->remote_path, sizeof(im->remote_path), "%s", dir);
	trim_slashes(im->remote_path);
	if (*ssh) {
		snprintf(im->remote, sizeof(im->remote), "ssh");
		text_format(im->remote_where, sizeof(im->remote_where),
			    "%s:%s over SSH", ssh, dir);
		remote_ssh_url(im, ssh, dir);
		remote_check(im, dir, false);
	} else if (*nfs) {
		snprintf(im->remote, sizeof(im->remote), "nfs");
		text_format(im->remote_where, sizeof(im->remote_where),
			    "%s%s over NFS", nfs, dir);
		remote_nfs_url(im, nfs, dir);
		/* kdump-utils takes path in the export as relative. */
		remote_check(im, "/", false);
	}
	sanitize(im->remote_where);
}

/* --- detection, entry points and output --- */

static const char *const sysconfig_names[] = {
	"KDUMP_KERNELVER", "KDUMP_COMMANDLINE", "KDUMP_COMMANDLINE_REMOVE",
	"KDUMP_COMMANDLINE_APPEND", "KEXEC_ARGS", "KDUMP_IMG", "KDUMP_IMG_EXT",
	"KDUMP_BOOTDIR", "FADUMP_COMMANDLINE_APPEND",
	"VMCORE_CREATION_NOTIFICATION", NULL,
};

static const char *const kdump_conf_names[] = {
	"path", "raw", "nfs", "ssh", "sshkey", "core_collector", "kdump_pre",
	"kdump_post", "extra_bins", "extra_modules", "failure_action",
	"default", "final_action", "force_rebuild", "force_no_rebuild",
	"dracut_args", "fence_kdump_args", "fence_kdump_nodes",
	"auto_reset_crashkernel", "virtiofs", "kdump_emergency", NULL,
};

enum import_format import_detect(const char *path, const char *buf, size_t len)
{
	const char *base = strrchr(path, '/');
	bool shell = false, sysconfig = false, conf = false;
	size_t pos = 0;

	base = base ? base + 1 : path;
	if (strcmp(base, "kdump.conf") == 0)
		return IMPORT_KDUMP_CONF;
	if (strcmp(base, "kdump-tools") == 0 ||
	    strcmp(base, "kdump-tools.conf") == 0)
		return IMPORT_KDUMP_TOOLS;
	if (strcmp(base, "kdump") == 0)
		return IMPORT_SYSCONFIG;
	/* By content: the first word of each line that is not a comment. */
	while (pos < len) {
		const char *s = buf + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		char w[64];
		size_t wl;

		pos += n + 1;
		while (n && (*s == ' ' || *s == '\t')) {
			s++;
			n--;
		}
		if (n >= 7 && strncmp(s, "export ", 7) == 0) {
			s += 7;
			n -= 7;
		}
		wl = 0;
		while (wl < n && wl + 1 < sizeof(w) &&
		       s[wl] != '=' && s[wl] != ' ' && s[wl] != '\t' &&
		       s[wl] != '#')
			wl++;
		if (wl == 0 || s[0] == '#')
			continue;
		memcpy(w, s, wl);
		w[wl] = '\0';
		if (wl < n && s[wl] == '=') {
			shell = true;
			if (in_list(w, sysconfig_names))
				sysconfig = true;
		} else if (in_list(w, kdump_conf_names) || in_list(w, fs_types)) {
			conf = true;
		}
	}
	if (shell && !conf)
		return sysconfig ? IMPORT_SYSCONFIG : IMPORT_KDUMP_TOOLS;
	if (conf && !shell)
		return IMPORT_KDUMP_CONF;
	return IMPORT_UNKNOWN;
}

int import_buffer(struct import *im, enum import_format f, const char *name,
		  const char *buf, size_t len, struct import_error *err)
{
	int r;

	if (err)
		memset(err, 0, sizeof(*err));
	if (im->n_sources >= 2)
		return fail(err, 0, "at most two files are read");
	if (f == IMPORT_KDUMP_TOOLS || f == IMPORT_SYSCONFIG) {
		struct shell_ctx sc = { .err = err };
		bool sysctl = false, enabled = true;

		r = each_line(buf, len, err, shell_line, &sc);
		if (r < 0) {
			free(sc.v);
			return r;
		}
		if (f == IMPORT_KDUMP_TOOLS)
			find_remote_kdump_tools(im, &sc);
		for (size_t i = 0; i < sc.n; i++) {
			if (f == IMPORT_SYSCONFIG) {
				map_sysconfig(im, &sc.v[i]);
				continue;
			}
			map_kdump_tools(im, &sc.v[i]);
			if (strcmp(sc.v[i].name, "KDUMP_SYSCTL") == 0)
				sysctl = true;
			if (strcmp(sc.v[i].name, "USE_KDUMP") == 0 &&
			    strcmp(sc.v[i].value, "1") != 0 &&
			    strcmp(sc.v[i].value, "true") != 0)
				enabled = false;
		}
		if (f == IMPORT_KDUMP_TOOLS)
			map_kdump_tools_defaults(im, &sc);
		else
			map_sysconfig_defaults(im, &sc);
		free(sc.v);
		/*
		 * kdump-config load (kdump-tools 1.8.1, Debian 12) sets
		 * kernel.panic_on_oops=1 whenever it loads, with no setting
		 * for it: an oops panicked, and was captured.
		 */
		if (f == IMPORT_KDUMP_TOOLS && !sysctl && enabled)
			carry(im, IK_PANIC_ON, "oops", "kdump-config",
			      "sets kernel.panic_on_oops=1 when it loads");
	} else if (f == IMPORT_KDUMP_CONF) {
		struct conf_ctx cc = { .err = err };

		r = each_line(buf, len, err, kdump_conf_line, &cc);
		if (r < 0) {
			free(cc.v);
			return r;
		}
		bool raw = false;

		for (size_t i = 0; i < cc.n; i++)
			if (strcmp(cc.v[i].name, "raw") == 0)
				raw = true;
		find_remote_kdump_conf(im, &cc);
		for (size_t i = 0; i < cc.n; i++)
			map_kdump_conf(im, &cc.v[i], raw);
		map_kdump_conf_defaults(im, &cc, raw);
		map_rootfs_action(im);
		note_hooks(im);
		free(cc.v);
	} else {
		return fail(err, 0,
			    "neither kdump-tools' nor kdump-utils' configuration");
	}
	if (im->oom)
		return -ENOMEM;
	snprintf(im->source[im->n_sources], sizeof(im->source[0]), "%s", name);
	sanitize(im->source[im->n_sources]);
	im->source_format[im->n_sources++] = f;
	return 0;
}

struct text {
	char *buf;
	size_t len, cap;
	bool oom;
};

static void put(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->buf ? t->buf + t->len : NULL,
			      t->buf ? t->cap - t->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			t->oom = true;
			return;
		}
		if (t->buf && t->len + n < t->cap) {
			t->len += n;
			return;
		}
		{
			size_t cap = (t->cap + n + 1) * 2;
			char *p = realloc(t->buf, cap);

			if (!p) {
				t->oom = true;
				return;
			}
			t->buf = p;
			t->cap = cap;
		}
	}
}

/* The whole text as kdump-file.conf's parser takes it. */
int import_validate(const char *text, size_t len, struct conf_error *err)
{
	struct kdump_conf c;

	return conf_parse_buffer(&c, text, len, err);
}

int import_render(const struct import *im, char **ret, struct conf_error *err)
{
	struct text t = { 0 };
	int r;

	if (err)
		memset(err, 0, sizeof(*err));
	put(&t, "# /etc/kdump-file.conf written by kdump-file import from:\n");
	for (unsigned int i = 0; i < im->n_sources; i++)
		put(&t, "#   %s (%s)\n", im->source[i],
		    import_format_name(im->source_format[i]));
	put(&t, "# Every key is explained in kdump-file.conf(5); a key not set here keeps\n"
		"# its default.\n");
	for (unsigned int k = 0; k < IK_MAX; k++)
		if (im->set[k])
			put(&t, "\n# from %s\n%s = %s\n", im->from[k], keys[k].name,
			    im->value[k]);
	if (im->n_changed)
		put(&t, "\n");
	for (size_t i = 0; i < im->n_notes; i++)
		if (im->notes[i].kind == IMPORT_CHANGED)
			put(&t, "# carried over with a difference: %s: %s\n",
			    im->notes[i].setting, im->notes[i].reason);
	if (im->n_not_carried)
		put(&t, "\n");
	for (size_t i = 0; i < im->n_notes; i++)
		if (im->notes[i].kind == IMPORT_NOT_CARRIED)
			put(&t, "# not carried over: %s: %s\n",
			    im->notes[i].setting, im->notes[i].reason);
	if (im->n_no_need)
		put(&t, "\n");
	for (size_t i = 0; i < im->n_notes; i++)
		if (im->notes[i].kind == IMPORT_NO_NEED)
			put(&t, "# nothing to carry over: %s: %s\n",
			    im->notes[i].setting, im->notes[i].reason);
	if (t.oom) {
		free(t.buf);
		return -ENOMEM;
	}
	r = import_validate(t.buf, t.len, err);
	if (r < 0) {
		free(t.buf);
		return r == -ENOMEM ? r : -EINVAL;
	}
	*ret = t.buf;
	return 0;
}

int import_check(const struct import *im, char *msg, size_t size)
{
	if (!im->remote[0] || !im->remote_refused[0] || im->local_instead)
		return 0;
	snprintf(msg, size,
		 "%s: dumps go to %s, which kdump-file cannot dump to: %s: add --local-instead to dump to %s here instead",
		 im->remote, im->remote_where, im->remote_refused,
		 im->remote_path);
	return -EREMOTE;
}

int import_summary(const struct import *im, char **ret)
{
	struct text t = { 0 };

	put(&t, "kdump-file: import: %u setting%s carried over", im->n_carried,
	    im->n_carried == 1 ? "" : "s");
	if (im->n_changed)
		put(&t, " (%u difference%s noted)", im->n_changed,
		    im->n_changed == 1 ? "" : "s");
	put(&t, ", %u not carried over", im->n_not_carried);
	if (im->n_no_need)
		put(&t, ", %u need nothing (kdump-file does that already)",
		    im->n_no_need);
	put(&t, "%s\n", im->n_not_carried || im->n_changed ? ":" : "");
	for (size_t i = 0; i < im->n_notes; i++)
		if (im->notes[i].kind == IMPORT_CHANGED)
			put(&t, "  with a difference: %s: %s\n",
			    im->notes[i].setting, im->notes[i].reason);
	for (size_t i = 0; i < im->n_notes; i++)
		if (im->notes[i].kind == IMPORT_NOT_CARRIED)
			put(&t, "  %s: %s\n", im->notes[i].setting,
			    im->notes[i].reason);
	if (t.oom) {
		free(t.buf);
		return -ENOMEM;
	}
	*ret = t.buf;
	return 0;
}

bool import_only_comments(const char *buf, size_t len)
{
	bool line_start = true;

	for (size_t i = 0; i < len; i++) {
		char c = buf[i];

		if (c == '\n') {
			line_start = true;
		} else if (line_start && c == '#') {
			/* The rest of the line is a comment. */
			while (i + 1 < len && buf[i + 1] != '\n')
				i++;
		} else if (c != ' ' && c != '\t' && c != '\r') {
			return false;
		}
	}
	return true;
}

/* Larger than any kdump-file.conf: a file that is not one is not read whole. */
#define IMPORT_OUTPUT_MAX (1024 * 1024)

int import_write(const char *path, const char *text, bool force,
		 enum import_write_how *ret_how)
{
	enum import_write_how how = IMPORT_WROTE_NEW;
	char bak[PATH_MAX];
	struct stat st;
	char *old = NULL;
	int r;

	if (lstat(path, &st) == 0) {
		size_t len;

		r = read_file_max(path, &old, IMPORT_OUTPUT_MAX);
		if (r < 0)
			return r;
		len = r;
		if (import_only_comments(old, len)) {
			how = IMPORT_REPLACED_COMMENTS;
		} else if (!force) {
			free(old);
			return -EEXIST;
		} else {
			if (snprintf(bak, sizeof(bak), "%s.bak", path) >=
			    (int)sizeof(bak)) {
				free(old);
				return -ENAMETOOLONG;
			}
			r = write_file_atomic(bak, old, len, st.st_mode & 07777);
			if (r < 0) {
				free(old);
				return r;
			}
			how = IMPORT_REPLACED_BACKED_UP;
		}
		free(old);
	} else if (errno != ENOENT) {
		return -errno;
	}
	r = write_file_atomic(path, text, strlen(text), 0644);
	if (r < 0)
		return r;
	*ret_how = how;
	return 0;
}
