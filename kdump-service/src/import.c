// SPDX-License-Identifier: GPL-2.0
/*
 * kdump-file import: kdump-tools' and kdump-utils' configuration turned
 * into kdump-file.conf text.  The sources are hostile input like our own
 * configuration: lines are bounded, a quote left open is an error, and the
 * shell files are read as literal assignments, never run.
 *
 * This file holds what both formats share (the notes, carrying a value
 * over, the settings both have, the network target) and the entry points;
 * import-shell.c reads kdump-tools' and sysconfig's shell files,
 * import-kdump-conf.c kdump-utils' kdump.conf, import-output.c writes the
 * result.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdline.h"
#include "import.h"
#include "import-internal.h"
#include "util.h"

const struct import_key_def import_keys[IK_MAX] = {
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

/* Printable ASCII only: notes end up in comments our own parser reads. */
void import_sanitize(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			*s = '?';
}

void import_note(struct import *im, enum import_kind kind,
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
	import_sanitize(n->setting);
	import_sanitize(n->reason);
}

/* Would kdump-file.conf accept "key = v"?  why gets the parser's reason. */
static int check_value(enum import_key k, const char *v, struct diag *why)
{
	char text[CONF_VALUE_MAX + 128];
	struct kdump_conf c;
	const char *target = "";

	if (strlen(v) >= CONF_VALUE_MAX)
		return diag_fail(why, -E2BIG, "longer than %d bytes",
				 CONF_VALUE_MAX - 1);
	if (strchr(v, '#'))
		return diag_fail(why, -EINVAL,
				 "'#' starts a comment in kdump-file.conf");
	/*
	 * conf.c takes ssh_key and fallback beside a network target only:
	 * one of the kind they belong to stands for the target carried.
	 */
	if (k == IK_SSH_KEY || k == IK_FALLBACK)
		target = "target = ssh://root@localhost/var/crash\n";
	snprintf(text, sizeof(text), "%s%s = %s\n", target, import_keys[k].name, v);
	return conf_parse_buffer(&c, text, strlen(text), why);
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
bool import_carry(struct import *im, enum import_key k, const char *v,
		  const char *setting, const char *detail)
{
	struct diag why = DIAG_INIT;
	char joined[CONF_VALUE_MAX];
	size_t n;

	if (check_value(k, v, &why) < 0) {
		import_note(im, IMPORT_NOT_CARRIED, setting, detail,
			    "kdump-file's %s refuses it: %s",
			    import_keys[k].name, diag_text(&why));
		return false;
	}
	if (import_keys[k].list && im->set[k] && im->value[k][0]) {
		if (import_keys[k].dedupe && word_in_list(v, im->value[k])) {
			import_note(im, IMPORT_CARRIED, setting, detail, "%s = %s",
				    import_keys[k].name, v);
			add_from(im, k, setting);
			return true;
		}
		n = snprintf(joined, sizeof(joined), "%s %s", im->value[k], v);
		if (n >= sizeof(joined)) {
			import_note(im, IMPORT_NOT_CARRIED, setting, detail,
				    "%s would be longer than %d bytes", import_keys[k].name,
				    CONF_VALUE_MAX - 1);
			return false;
		}
	} else {
		snprintf(joined, sizeof(joined), "%s", v);
	}
	snprintf(im->value[k], sizeof(im->value[k]), "%s", joined);
	im->set[k] = true;
	add_from(im, k, setting);
	import_note(im, IMPORT_CARRIED, setting, detail, "%s = %s", import_keys[k].name, v);
	return true;
}

bool import_in_list(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(name, *list) == 0)
			return true;
	return false;
}

/* One word of s (blank separated, double quotes kept together), or NULL. */
const char *import_next_word(const char *s, char *buf, size_t size)
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
	unsigned long long x;

	return strlen(s) <= 6 && parse_decimal(s, max, &x) == 0;
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
 * makedumpfile's options in args, in opts (at most MDF_MAX), as getopt
 * would take them, an option repeated kept last: how many.
 */
static unsigned int mdf_read(struct import *im, const char *setting,
			     const char *args, struct mdf_opt *opts)
{
	unsigned int n = 0;
	char w[128];
	const char *p = args;

	while ((p = import_next_word(p, w, sizeof(w)))) {
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
		if (import_in_list(o.name, mdf_with_value)) {
			if (eq) {
				snprintf(o.value, sizeof(o.value), "%s", eq + 1);
			} else {
				const char *q = import_next_word(p, o.value,
								 sizeof(o.value));

				if (!q) {
					import_note(im, IMPORT_NOT_CARRIED,
						    setting, o.name,
						    "%s without a value",
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
			import_note(im, IMPORT_NO_NEED, setting, w,
				    "kdump-file writes a flattened dump by itself where it needs one (to a raw device, or over SSH)");
			continue;
		}
		/* A later one of the same option, or compression, wins. */
		for (unsigned int i = 0; i < n; i++) {
			bool both_comp = is_compression(opts[i].name) &&
					 is_compression(o.name);

			if (strcmp(opts[i].name, o.name) != 0 && !both_comp)
				continue;
			import_note(im, IMPORT_NO_NEED, setting, opts[i].word,
				    "a later %s overrides it, as makedumpfile keeps the last",
				    o.word);
			memmove(&opts[i], &opts[i + 1],
				(n - i - 1) * sizeof(opts[0]));
			n--;
			break;
		}
		if (n == MDF_MAX) {
			import_note(im, IMPORT_NOT_CARRIED, setting, o.word,
				    "more than %d makedumpfile options", MDF_MAX);
			break;
		}
		opts[n++] = o;
	}
	return n;
}

/*
 * makedumpfile's arguments (kdump-tools' MAKEDUMP_ARGS, kdump-utils'
 * core_collector after "makedumpfile"): compression, dump level and the
 * options kdump-file passes through makedumpfile_args.  makedumpfile
 * reads its options with getopt_long(3) and keeps the last value of a
 * repeated one, so does this: an option a later one overrides is noted
 * as needing nothing.
 */
void import_map_makedumpfile(struct import *im, const char *setting,
			     const char *args)
{
	struct mdf_opt opts[MDF_MAX], *comp = NULL, *level = NULL;
	unsigned int n = mdf_read(im, setting, args, opts);

	for (unsigned int i = 0; i < n; i++) {
		struct mdf_opt *o = &opts[i];

		if (is_compression(o->name)) {
			comp = o;
		} else if (strcmp(o->name, "-d") == 0) {
			level = o;
		} else if (import_in_list(o->name, mdf_passed)) {
			import_carry(im, IK_MAKEDUMPFILE_ARGS, o->word, setting,
				     o->word);
		} else {
			/* conf.c's own reason: it names what kdump-file does instead. */
			struct diag why = DIAG_INIT;

			if (check_value(IK_MAKEDUMPFILE_ARGS, o->word,
					&why) < 0)
				import_note(im, IMPORT_NOT_CARRIED, setting,
					    o->word, "%s", diag_text(&why));
			else
				import_note(im, IMPORT_NOT_CARRIED, setting,
					    o->word,
					    "not a makedumpfile option kdump-file passes on");
		}
	}
	if (level)
		import_carry(im, IK_DUMP_LEVEL, level->value, setting,
			     level->word);
	if (!comp) {
		import_carry(im, IK_COMPRESSION, "none", setting,
			     "no -c, -l, -p or -z: uncompressed");
	} else if (comp->name[1] == 'p' || comp->name[1] == 'z') {
		import_note(im, IMPORT_NOT_CARRIED, setting, comp->word,
			    "%s compression is not in Debian 12's makedumpfile (1.7.2) and kdump-file cannot use it: set compression = lzo or zlib by hand",
			    comp->name[1] == 'p' ? "snappy" : "zstd");
	} else {
		import_carry(im, IK_COMPRESSION, comp->name[1] == 'c' ? "zlib" : "lzo",
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

void import_map_cmdline_append(struct import *im, const char *setting,
			       const char *v)
{
	char w[CONF_VALUE_MAX];
	const char *p = v;

	while ((p = import_next_word(p, w, sizeof(w)))) {
		size_t n = strcspn(w, "=");
		bool refused = false;

		for (unsigned int i = 0; append_refused[i]; i++)
			if (strlen(append_refused[i]) == n &&
			    strncmp(w, append_refused[i], n) == 0)
				refused = true;
		if (cmdline_capture_adds(w))
			import_note(im, IMPORT_NO_NEED, setting, w,
				    "kdump-file gives the capture kernel this parameter already");
		else if (refused)
			import_note(im, IMPORT_NOT_CARRIED, setting, w,
				    "kdump-file's capture sets or leaves out %.*s itself",
				    (int)n, w);
		else if (strcmp(w, "systemd.unit=kdump-tools-dump.service") == 0)
			import_note(im, IMPORT_NO_NEED, setting, w,
				    "starts kdump-tools' capture in its initrd; kdump-file's capture is its initramfs' own /init");
		else if (strncmp(w, "systemd.", 8) == 0)
			import_note(im, IMPORT_NOT_CARRIED, setting, w,
				    "for systemd in kdump-tools' capture initrd; kdump-file's capture runs its own /init");
		else if (strncmp(w, "rd.", 3) == 0)
			import_note(im, IMPORT_NOT_CARRIED, setting, w,
				    "for dracut's scripts in kdump-utils' capture initramfs; kdump-file's capture runs its own /init");
		else if (strncmp(w, "udev.", 5) == 0)
			import_note(im, IMPORT_NOT_CARRIED, setting, w,
				    "kdump-file's capture runs without udev");
		else
			import_carry(im, IK_CMDLINE_APPEND, w, setting, w);
	}
}

void import_map_cmdline_remove(struct import *im, const char *setting,
			       const char *v)
{
	char w[CONF_VALUE_MAX];
	const char *p = v;

	while ((p = import_next_word(p, w, sizeof(w)))) {
		w[strcspn(w, "=")] = '\0';
		if (cmdline_always_dropped(w, strlen(w)))
			import_note(im, IMPORT_NO_NEED, setting, w,
				    "kdump-file keeps it off the capture command line already");
		else
			import_carry(im, IK_CMDLINE_REMOVE, w, setting, w);
	}
}

/* KDUMP_FAIL_CMD: only a plain reboot, poweroff or halt has a kdump-file key. */
void import_map_fail_cmd(struct import *im, const char *setting, const char *v)
{
	static const char *const dirs[] = { "", "/sbin/", "/usr/sbin/", "/bin/",
					    "/usr/bin/" };
	static const char *const actions[] = { "reboot", "poweroff", "halt" };
	char w[128];
	const char *p = v, *action = NULL;

	p = import_next_word(p, w, sizeof(w));
	if (p && strcmp(w, "systemctl") == 0)
		p = import_next_word(p, w, sizeof(w));
	for (size_t d = 0; p && d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		size_t dl = strlen(dirs[d]);

		for (size_t a = 0; a < sizeof(actions) / sizeof(actions[0]); a++)
			if (strncmp(w, dirs[d], dl) == 0 &&
			    strcmp(w + dl, actions[a]) == 0)
				action = actions[a];
	}
	while (action && (p = import_next_word(p, w, sizeof(w))))
		if (strcmp(w, "-f") != 0 && strcmp(w, "--force") != 0 &&
		    strcmp(w, "-ff") != 0)
			action = NULL;
	if (action)
		import_carry(im, IK_FAILURE_ACTION, action, setting, NULL);
	else
		import_note(im, IMPORT_NOT_CARRIED, setting, NULL,
			    "kdump-file runs no command when saving fails: failure_action is one of reboot, poweroff, halt or shell");
}

/* KDUMP_SYSCTL: the panic_on_* sysctls become panic_on kinds. */
void import_map_sysctl(struct import *im, const char *setting, const char *v)
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

	while ((p = import_next_word(p, w, sizeof(w)))) {
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
			import_note(im, IMPORT_NOT_CARRIED, setting, w,
				    "kdump-file sets no sysctl but the panic_on_* ones panic_on names: set it with sysctl.d(5)");
		else if (!eq || !is_number(eq + 1, 1000000))
			import_note(im, IMPORT_NOT_CARRIED, setting, w,
				    "not name=number");
		else if (strcmp(eq + 1, "0") == 0)
			import_note(im, IMPORT_NO_NEED, setting, w,
				    "off, as kdump-file leaves it");
		else
			import_carry(im, IK_PANIC_ON, kind, setting, w);
	}
}

/*
 * Call fn for every line of buf (CR LF and LF, no NUL, no control
 * character but tab, at most IMPORT_LINE_MAX bytes).
 */
int import_each_line(const char *buf, size_t len, struct diag *err,
		     int (*fn)(const char *line, unsigned int lineno, void *ctx),
		     void *ctx)
{
	char *line;
	size_t pos = 0;
	unsigned int lineno = 0;
	int r = 0;

	if (memchr(buf, '\0', len))
		return diag_fail_at(err, -EINVAL, 0, NULL,
				    "the file contains a NUL byte: not a text file");
	line = malloc(IMPORT_LINE_MAX + 1);
	if (!line)
		return -ENOMEM;
	while (pos < len && r >= 0) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;

		lineno++;
		if (n > IMPORT_LINE_MAX) {
			r = diag_fail_at(err, -EINVAL, lineno, NULL,
					 "line longer than %d bytes",
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
				r = diag_fail_at(err, -EINVAL, lineno, NULL,
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

/* The network target carries into target = URL. */
bool import_remote_carried(const struct import *im)
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
void import_map_remote(struct import *im, const char *setting)
{
	/* kdump-config savecore saves to each of FTP, SSH and NFS set. */
	if (strcmp(setting, im->remote) != 0) {
		import_note(im, IMPORT_NOT_CARRIED, setting, NULL,
			    "kdump-tools dumped there as well as to %s; kdump-file dumps to one target, %s",
			    im->remote, im->remote);
		return;
	}
	if (im->local_instead) {
		add_from(im, IK_PATH, setting);
		import_note(im, IMPORT_CHANGED, setting, NULL,
			    "dumps went to %s; with --local-instead they go to path = %s on this machine instead",
			    im->remote_where, im->remote_path);
		return;
	}
	if (im->remote_refused[0]) {
		import_note(im, IMPORT_NOT_CARRIED, setting, NULL,
			    "%s; import stops unless --local-instead makes the directory a local path",
			    im->remote_refused);
		return;
	}
	if (!import_carry(im, IK_TARGET, im->remote_url, setting, NULL))
		return;
	if (remote_is_ssh(im))
		import_note(im, IMPORT_CHANGED, setting, NULL,
			    "dumps go to a directory per machine, HOSTNAME-MID12, in %s on the collector, which needs kdump-file installed; run kdump-file propagate here to pin its host key and install this machine's key there, restricted to kdump-file-receive",
			    im->remote_path);
	else
		import_note(im, IMPORT_CHANGED, setting, NULL,
			    "dumps go to a directory per machine, HOSTNAME-MID12, in the export, which the capture mounts with NFS version 4 (nfs_version = 3 for a server without it)");
}

/* A setting for the network target only: SSH_KEY, NFS_TIMEO, sshkey... */
void import_map_remote_only(struct import *im, const struct assign *a,
			    const char *targets)
{
	const char *n = a->label, *v = a->value, *name = a->name;
	bool nfs_only = strncmp(name, "NFS_", 4) == 0;

	if (!im->remote[0]) {
		import_note(im, IMPORT_NO_NEED, n, NULL,
			    "used only with %s, and none is set", targets);
		return;
	}
	if (!import_remote_carried(im)) {
		import_note(im, IMPORT_NO_NEED, n, NULL,
			    "only for the network target %s, which kdump-file does not use",
			    im->remote);
		return;
	}
	if (strcmp(name, "HOSTTAG") == 0) {
		import_note(im, IMPORT_CHANGED, n, NULL,
			    "kdump-tools named each dump HOST-STAMP by the %s; kdump-file names a directory per machine itself, HOSTNAME-MID12 (the host name and the first 12 hex digits of /etc/machine-id), a dump directory per crash in it",
			    strcmp(v, "hostname") == 0 ? "host name" : "IP address");
	} else if (strcmp(name, "SSH_KEY") == 0 || strcmp(name, "sshkey") == 0) {
		if (!remote_is_ssh(im))
			import_note(im, IMPORT_NO_NEED, n, NULL,
				    "only for an SSH target, and dumps go over NFS");
		else if (a->expands)
			import_note(im, IMPORT_NOT_CARRIED, n, NULL,
				    REASON_EXPANSION);
		else if (import_carry(im, IK_SSH_KEY, v, n, NULL))
			import_note(im, IMPORT_CHANGED, n, NULL,
				    "kdump-file propagate installs this key on the collector restricted to kdump-file-receive, in place of the line that let it run any command there");
	} else if (strncmp(name, "FTP", 3) == 0 ||
		   (nfs_only && remote_is_ssh(im)) ||
		   (strcmp(name, "SSH_KDUMP_RETRY") == 0 && !remote_is_ssh(im))) {
		import_note(im, IMPORT_NO_NEED, n, NULL,
			    "not for the network target %s, which dumps go to",
			    im->remote);
	} else if (strcmp(name, "NFS_TIMEO") == 0 ||
		   strcmp(name, "NFS_RETRANS") == 0) {
		import_note(im, IMPORT_NOT_CARRIED, n, NULL,
			    "kdump-tools mounted the export soft, giving up after NFS_TIMEO and NFS_RETRANS; kdump-file's capture mounts it with the kernel's NFS defaults, and net_timeout (90 seconds) bounds reaching the collector");
	} else {
		import_note(im, IMPORT_NOT_CARRIED, n, NULL,
			    "kdump-file tries to reach the collector for net_timeout seconds (90 by default), not a number of times");
	}
}

/* The dump directory: on the network target, if there is one. */
void import_map_path(struct import *im, const char *setting, const char *v)
{
	if (!im->remote[0] || im->local_instead) {
		import_carry(im, IK_PATH, v, setting, NULL);
	} else if (im->remote_refused[0]) {
		import_note(im, IMPORT_NOT_CARRIED, setting, NULL,
			    "the directory for %s, not on this machine: kdump-file cannot dump there",
			    im->remote_where);
	} else if (strcmp(im->remote, "NFS") == 0) {
		/* kdump-config savecore mounts NFS on KDUMP_COREDIR. */
		import_note(im, IMPORT_NO_NEED, setting, NULL,
			    "where kdump-tools mounted the NFS export; kdump-file's capture mounts it itself, and the dumps go in the export as they did");
	} else {
		add_from(im, IK_TARGET, setting);
		import_note(im, IMPORT_CARRIED, setting, NULL,
			    "the directory in target = %s", im->remote_url);
	}
}

/* A trailing '/' names the same directory, which conf.c refuses. */
void import_trim_slashes(char *dir)
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
void import_remote_ssh_url(struct import *im, const char *who,
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
void import_remote_nfs_url(struct import *im, const char *spec,
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
void import_remote_check(struct import *im, const char *dir, bool expands)
{
	struct diag why = DIAG_INIT;
	char *url = im->remote_url, *top;
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
	else if (check_value(IK_TARGET, im->remote_url, &why) < 0)
		text_format(im->remote_refused, sizeof(im->remote_refused),
			    "kdump-file's target refuses it: %s",
			    diag_text(&why));
	import_sanitize(im->remote_refused);
}

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
			if (import_in_list(w, sysconfig_names))
				sysconfig = true;
		} else if (import_in_list(w, kdump_conf_names) ||
			   import_in_list(w, import_fs_types)) {
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
		  const char *buf, size_t len, struct diag *err)
{
	int r;

	if (err)
		memset(err, 0, sizeof(*err));
	if (im->n_sources >= 2)
		return diag_fail_at(err, -EINVAL, 0, NULL,
				    "at most two files are read");
	if (f == IMPORT_KDUMP_TOOLS || f == IMPORT_SYSCONFIG)
		r = import_shell(im, f, buf, len, err);
	else if (f == IMPORT_KDUMP_CONF)
		r = import_kdump_conf(im, buf, len, err);
	else
		return diag_fail_at(err, -EINVAL, 0, NULL,
				    "neither kdump-tools' nor kdump-utils' configuration");
	if (r < 0)
		return r;
	if (im->oom)
		return -ENOMEM;
	snprintf(im->source[im->n_sources], sizeof(im->source[0]), "%s", name);
	import_sanitize(im->source[im->n_sources]);
	im->source_format[im->n_sources++] = f;
	return 0;
}
