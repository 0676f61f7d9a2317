// SPDX-License-Identifier: GPL-2.0
/*
 * import: kdump-utils' /etc/kdump.conf, "directive value" lines (see
 * import-internal.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "import-internal.h"
#include "util.h"

struct directive {
	char name[32];
	char label[64];		/* name, or "kdump-utils' default NAME" */
	char value[CONF_VALUE_MAX];
	unsigned int line;
};

const char *const import_fs_types[] = { "ext2", "ext3", "ext4", "xfs",
					"btrfs", "minix", NULL };

static const char *const target_directives[] = { "raw", "nfs", "ssh",
						 "virtiofs", NULL };

static bool is_target(const char *d)
{
	return import_in_list(d, import_fs_types) ||
	       import_in_list(d, target_directives);
}

/* Directives kdump-utils lets appear more than once. */
static const char *const repeatable[] = { "extra_bins", "extra_modules", NULL };

struct conf_ctx {
	struct directive *v;
	size_t n, cap;
	struct diag *err;
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
		return diag_fail_at(cc->err, -EINVAL, lineno, NULL,
				    "expected 'directive value', got '%.40s'",
				    s);
	if (len >= sizeof(d.name))
		return diag_fail_at(cc->err, -EINVAL, lineno, NULL,
				    "directive longer than %zu bytes",
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
		return diag_fail_at(cc->err, -EINVAL, lineno, NULL,
				    "the value of %s is longer than %zu bytes",
				    d.name, sizeof(d.value) - 1);
	memcpy(d.value, s, e - s);
	d.value[e - s] = '\0';
	if (!d.value[0])
		return diag_fail_at(cc->err, -EINVAL, lineno, NULL,
				    "%s without a value", d.name);
	for (size_t i = 0; i < cc->n; i++) {
		const char *o = cc->v[i].name;

		if (is_target(o) && is_target(d.name))
			return diag_fail_at(cc->err, -EINVAL, lineno, NULL,
					    "a second dump target (%s; the first is %s on line %u): kdump-utils takes one",
					    d.name, o, cc->v[i].line);
		if ((strcmp(o, d.name) == 0 &&
		     !import_in_list(o, repeatable)) ||
		    ((strcmp(o, "default") == 0 || strcmp(o, "failure_action") == 0) &&
		     (strcmp(d.name, "default") == 0 || strcmp(d.name, "failure_action") == 0)))
			return diag_fail_at(cc->err, -EINVAL, lineno, NULL,
					    "%s repeats %s of line %u", d.name,
					    o, cc->v[i].line);
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

	while ((p = import_next_word(p, w, sizeof(w))))
		import_carry(im, k, w, setting, w);
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

	if (!import_remote_carried(im)) {
		import_note(im, IMPORT_NOT_CARRIED, d->label, d->value,
			    "kdump-file falls back to a local directory (fallback) from a network target only: failure_action is one of reboot, poweroff, halt or shell");
		return;
	}
	if (!import_carry(im, IK_FALLBACK, dir, d->label, d->value))
		return;
	snprintf(im->rootfs_fallback, sizeof(im->rootfs_fallback), "%s",
		 d->label);
	import_note(im, IMPORT_CHANGED, d->label, d->value,
		    "kdump-file dumps to fallback = %s on this machine only when the collector cannot be reached before any byte of the dump went out",
		    dir);
}

/* After dump_to_rootfs kdump-utils took final_action, and reboot without. */
static void map_rootfs_action(struct import *im)
{
	const char *final = im->set[IK_FINAL_ACTION] ?
				    im->value[IK_FINAL_ACTION] : "reboot";

	if (im->rootfs_fallback[0] && !im->set[IK_FAILURE_ACTION])
		import_carry(im, IK_FAILURE_ACTION, final, im->rootfs_fallback,
			     "dump_to_rootfs: kdump-utils took final_action after it");
}

/* raw: the file names a raw target, which kdump-file runs no hook with. */
static void map_kdump_conf(struct import *im, const struct directive *d,
			   bool raw)
{
	const char *n = d->label, *v = d->value;

	if (strcmp(d->name, "path") == 0) {
		import_map_path(im, n, v);
	} else if (import_in_list(d->name, import_fs_types)) {
		import_carry(im, IK_TARGET, v, n, NULL);
	} else if (strcmp(d->name, "raw") == 0) {
		import_carry(im, IK_RAW, v, n, NULL);
	} else if (strcmp(d->name, "nfs") == 0 || strcmp(d->name, "ssh") == 0) {
		import_map_remote(im, n);
	} else if (strcmp(d->name, "sshkey") == 0) {
		struct assign a = { 0 };

		snprintf(a.name, sizeof(a.name), "%s", d->name);
		snprintf(a.label, sizeof(a.label), "%s", n);
		snprintf(a.value, sizeof(a.value), "%s", v);
		import_map_remote_only(im, &a, "an ssh target");
	} else if (strcmp(d->name, "virtiofs") == 0) {
		import_note(im, IMPORT_NOT_CARRIED, n, NULL,
			    "virtiofs dump targets are not supported by kdump-file");
	} else if (strcmp(d->name, "core_collector") == 0) {
		char w[128];
		const char *p = import_next_word(v, w, sizeof(w));

		if (p && (strcmp(w, "makedumpfile") == 0 ||
			  strcmp(w, "/usr/sbin/makedumpfile") == 0 ||
			  strcmp(w, "/sbin/makedumpfile") == 0))
			import_map_makedumpfile(im, n, p);
		else
			import_note(im, IMPORT_NOT_CARRIED, n, NULL,
				    "kdump-file always saves the dump with makedumpfile");
	} else if (strcmp(d->name, "kdump_pre") == 0 ||
		   strcmp(d->name, "kdump_post") == 0) {
		bool pre = strcmp(d->name, "kdump_pre") == 0;

		/* kdump.sh runs "$KDUMP_PRE": one path, blanks and all. */
		if (raw)
			import_note(im, IMPORT_NOT_CARRIED, n, NULL,
				    "kdump-file runs hooks only with a dump directory, and a raw target has none: dump to a filesystem (target) to keep it");
		else if (import_carry(im, pre ? IK_PRE_HOOK : IK_POST_HOOK, v,
				      n, NULL) && pre)
			import_carry(im, IK_HOOK_FAILURE, "stop", n,
				     "kdump-utils saves nothing when it fails");
	} else if (strcmp(d->name, "kdump_emergency") == 0) {
		import_note(im, IMPORT_NOT_CARRIED, n, NULL,
			    "kdump-file runs no program only when the capture fails: post_hook runs after every dump, with \"failed\" as its second argument when saving failed (a post hook that exits at \"ok\" does what this did)");
	} else if (strcmp(d->name, "extra_bins") == 0) {
		map_words(im, IK_EXTRA_BINARIES, n, v);
	} else if (strcmp(d->name, "extra_modules") == 0) {
		map_words(im, IK_EXTRA_MODULES, n, v);
	} else if (strcmp(d->name, "failure_action") == 0 || strcmp(d->name, "default") == 0) {
		if (strcmp(v, "dump_to_rootfs") == 0)
			map_dump_to_rootfs(im, d);
		else
			import_carry(im, IK_FAILURE_ACTION, v, n, NULL);
	} else if (strcmp(d->name, "final_action") == 0) {
		import_carry(im, IK_FINAL_ACTION, v, n, NULL);
	} else if (strcmp(d->name, "auto_reset_crashkernel") == 0) {
		if (strcmp(v, "no") == 0)
			import_note(im, IMPORT_NO_NEED, n, v,
				    "kdump-file never changes crashkernel= by itself");
		else
			import_note(im, IMPORT_NOT_CARRIED, n, v,
				    "kdump-file never changes crashkernel= by itself: kdump-file setup sets it once, as kdump-file estimate recommends");
	} else if (strcmp(d->name, "force_rebuild") == 0 ||
		   strcmp(d->name, "force_no_rebuild") == 0) {
		import_note(im, IMPORT_NOT_CARRIED, n, NULL,
			    "kdump-file rebuilds its capture initramfs when one of its inputs changes, and kdump-file rebuild forces it");
	} else if (strcmp(d->name, "dracut_args") == 0 &&
		   (strstr(d->value, "ip=") || strstr(d->value, "bond=") ||
		    strstr(d->value, "vlan=") || strstr(d->value, "bridge=") ||
		    strstr(d->value, "team="))) {
		import_note(im, IMPORT_NOT_CARRIED, n, NULL,
			    "kdump-file needs no network options for the capture: kdump-file load records the running system's way to the collector (its NICs, bond, VLAN, bridge, IPv4 or IPv6 address and route) and 'kdump-file show' lists it; a team is not carried: make it a bond");
	} else if (strcmp(d->name, "dracut_args") == 0) {
		import_note(im, IMPORT_NOT_CARRIED, n, NULL,
			    "kdump-file builds the capture initramfs with its own dracut module and options (extra_modules and extra_binaries add to it)");
	} else if (strcmp(d->name, "fence_kdump_args") == 0 ||
		   strcmp(d->name, "fence_kdump_nodes") == 0) {
		import_note(im, IMPORT_NOT_CARRIED, n, NULL,
			    "kdump-file sends no cluster fencing notification");
	} else {
		import_note(im, IMPORT_NOT_CARRIED, n, NULL,
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
		import_note(im, IMPORT_CHANGED, "kdump_pre", NULL,
			    "kdump-file runs it with two arguments, the dump directory and \"pre\" (kdump-utils gave none), and kills it after hook_timeout (30) seconds");
		if (differ)
			import_note(im, IMPORT_CHANGED, "kdump_pre", NULL,
				    "when it fails, kdump-file takes failure_action (%s) where kdump-utils took final_action (%s)",
				    fail, final);
	}
	if (im->set[IK_POST_HOOK]) {
		import_note(im, IMPORT_CHANGED, "kdump_post", NULL,
			    "kdump-file runs it with two arguments, the dump directory and \"ok\" or \"failed\" (kdump-utils gave one, the dump's exit status, 0 when saved), and kills it after hook_timeout (30) seconds");
		if (differ && im->set[IK_HOOK_FAILURE])
			import_note(im, IMPORT_CHANGED, "kdump_post", NULL,
				    "hook_failure = stop (for kdump_pre) makes kdump-file take failure_action (%s) instead of final_action (%s) when it fails; kdump-utils only logged that",
				    fail, final);
	}
}

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
	import_trim_slashes(im->remote_path);
	if (*ssh) {
		snprintf(im->remote, sizeof(im->remote), "ssh");
		text_format(im->remote_where, sizeof(im->remote_where),
			    "%s:%s over SSH", ssh, dir);
		import_remote_ssh_url(im, ssh, dir);
		import_remote_check(im, dir, false);
	} else if (*nfs) {
		snprintf(im->remote, sizeof(im->remote), "nfs");
		text_format(im->remote_where, sizeof(im->remote_where),
			    "%s%s over NFS", nfs, dir);
		import_remote_nfs_url(im, nfs, dir);
		/* kdump-utils takes path in the export as relative. */
		import_remote_check(im, "/", false);
	}
	import_sanitize(im->remote_where);
}

/* kdump-utils' /etc/kdump.conf into im. */
int import_kdump_conf(struct import *im, const char *buf, size_t len,
		      struct diag *err)
{
	struct conf_ctx cc = { .err = err };
	bool raw = false;
	int r;

	r = import_each_line(buf, len, err, kdump_conf_line, &cc);
	if (r < 0) {
		free(cc.v);
		return r;
	}
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
	return 0;
}
