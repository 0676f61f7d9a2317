// SPDX-License-Identifier: GPL-2.0
/*
 * CPU and memory hotplug: the udev rule's "kdump-file hotplug", reload
 * --after-hotplug, and the line status and show give (see hotplug.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <syslog.h>
#include <unistd.h>
#include <sys/stat.h>

#include <systemd/sd-journal.h>

#include "cli.h"
#include "hotplug.h"
#include "json.h"
#include "util.h"

/*
 * CPU and memory hotplug (see hotplug.h).  KDUMP_FILE_HOTPLUG_ROOT, for
 * the command-line tests only, is a directory standing for / in what
 * hotplug, reload --after-hotplug, status and show read and write for
 * hotplug: sysfs, the pending file and the udev rule.
 */
struct hotplug_paths {
	char sysfs[PATH_MAX];
	char pending[PATH_MAX];
	char root[PATH_MAX];	/* "" for / */
};

static void hotplug_paths(struct hotplug_paths *hp)
{
	const char *root = getenv("KDUMP_FILE_HOTPLUG_ROOT");

	if (!root || !root[0] || strcmp(root, "/") == 0)
		root = "";
	snprintf(hp->root, sizeof(hp->root), "%s", root);
	snprintf(hp->sysfs, sizeof(hp->sysfs), "%s%s", root, HOTPLUG_SYSFS_ROOT);
	snprintf(hp->pending, sizeof(hp->pending), "%s%s", root,
		 HOTPLUG_PENDING);
}

/*
 * Whether udev runs "kdump-file hotplug": the rule is installed and not
 * masked by an empty file or a link to /dev/null in /etc/udev/rules.d.
 */
static bool hotplug_rule_active(const struct hotplug_paths *hp)
{
	static const char *const dirs[] = {
		"/etc/udev/rules.d", "/run/udev/rules.d",
		"/usr/lib/udev/rules.d", "/lib/udev/rules.d",
	};
	char path[PATH_MAX + 128];
	struct stat st;

	/* udev reads the first file of that name along these directories. */
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s%s/%s", hp->root, dirs[i],
			 HOTPLUG_RULE_NAME);
		if (lstat(path, &st) < 0)
			continue;
		if (S_ISLNK(st.st_mode) && stat(path, &st) == 0 &&
		    S_ISCHR(st.st_mode))
			return false;
		return S_ISREG(st.st_mode) && st.st_size > 0;
	}
	return false;
}

/* How hotplug of s is handled here: "kernel", "udev" or "none". */
static const char *hotplug_how(const struct hotplug_paths *hp,
			       enum hotplug_subsystem s, bool rule, int *ret_r)
{
	enum hotplug_handler h;

	*ret_r = hotplug_handler(hp->sysfs, s, &h);
	if (*ret_r < 0)
		return "unknown";
	if (h == HOTPLUG_BY_KERNEL)
		return "kernel";
	return rule ? "udev" : "none";
}

static const char *hotplug_how_text(const char *how)
{
	if (strcmp(how, "kernel") == 0)
		return "updated in place by the kernel";
	if (strcmp(how, "udev") == 0)
		return "reloaded by udev (kdump-file-hotplug.service)";
	if (strcmp(how, "none") == 0)
		return "not handled: this kernel does not update the capture kernel's ELF headers and the udev rule " HOTPLUG_RULE_NAME " is not installed (run 'kdump-file reload' after adding or removing CPUs or memory)";
	return "unknown: crash_hotplug in sysfs cannot be read";
}

/*
 * The hotplug line of status and show (its label width wide), or with j
 * its fields: how CPU and memory hotplug are handled on this kernel, and
 * whether a reload waits.
 */
int hotplug_report(struct json_object *j, int width)
{
	struct hotplug_paths hp;
	const char *cpu, *mem;
	char line[1024];
	bool rule, pending;
	int rc, rm, m = 0;

	hotplug_paths(&hp);
	/*
	 * A kernel without kexec has no capture kernel to keep current: the
	 * reservation line says why, and advice on hotplug would mislead.
	 */
	snprintf(line, sizeof(line), "%s/kernel/kexec_crash_loaded", hp.sysfs);
	if (!j && access(line, F_OK) < 0)
		return 0;
	rule = hotplug_rule_active(&hp);
	pending = hotplug_pending(hp.pending);
	cpu = hotplug_how(&hp, HOTPLUG_CPU, rule, &rc);
	mem = hotplug_how(&hp, HOTPLUG_MEMORY, rule, &rm);
	if (strcmp(cpu, mem) == 0)
		snprintf(line, sizeof(line), "%s", hotplug_how_text(cpu));
	else
		snprintf(line, sizeof(line), "CPUs %s; memory %s",
			 hotplug_how_text(cpu), hotplug_how_text(mem));
	if (pending)
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 "; a reload is pending (%s)", hp.pending);
	if (!j) {
		printf("%-*s %s\n", width, "hotplug:", line);
		return 0;
	}
	m = json_set_text(j, "hotplug", line);
	if (m == 0)
		m = json_set_text(j, "hotplug_cpu", cpu);
	if (m == 0)
		m = json_set_text(j, "hotplug_memory", mem);
	if (m == 0)
		m = json_set_bool(j, "hotplug_reload_pending", pending);
	return m;
}

/* The hotplug verb's journal line; errors also on stderr. */
static void hotplug_log(int prio, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void hotplug_log(int prio, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* udev keeps a RUN program's output to itself: the journal is read. */
	(void)sd_journal_send("MESSAGE=%s", msg, "PRIORITY=%d", prio,
			      "SYSLOG_IDENTIFIER=kdump-file", NULL);
	if (prio <= LOG_WARNING)
		fprintf(stderr, "kdump-file: %s: %s\n",
			prio <= LOG_ERR ? "error" : "warning", msg);
}

/*
 * Run by udev for every CPU and memory block added or removed: fast, never
 * waits, nothing on stdout.  Marks the reload as pending where the kernel
 * leaves the capture kernel's ELF headers as they were built.
 */
int verb_hotplug(struct cli *cli, int argc, char *argv[])
{
	const char *arg_subsystem = argc > 1 ? argv[1] : NULL;
	const char *name = arg_subsystem ? arg_subsystem : getenv("SUBSYSTEM");
	const char *action = getenv("ACTION"), *dev = getenv("DEVPATH");
	enum hotplug_decision d = HOTPLUG_MARK_PENDING;
	enum hotplug_subsystem s;
	struct hotplug_paths hp;
	char what[320];
	int r;

	if (!name || !name[0]) {
		log_error(cli, "hotplug: no subsystem: name cpu or memory ('kdump-file hotplug memory'), or let the udev rule run it (it sets SUBSYSTEM)");
		return EXIT_USAGE;
	}
	if (hotplug_subsystem_parse(name, &s) < 0) {
		log_error(cli, "hotplug: unknown subsystem '%.64s'%s: only cpu and memory hotplug change the capture kernel's ELF headers",
			  name, arg_subsystem ? "" : " (in SUBSYSTEM)");
		return EXIT_USAGE;
	}
	snprintf(what, sizeof(what), "%s %s%s%.256s", hotplug_subsystem_name(s),
		 action ? action : "change", dev ? " of " : "", dev ? dev : "");
	hotplug_paths(&hp);
	r = hotplug_decide(hp.sysfs, s, action, &d);
	if (r < 0)
		/* A reload is never wrong: one too many beats a stale dump. */
		hotplug_log(LOG_WARNING, "%s: cannot read %s/devices/system/%s/crash_hotplug: %s: reloading the capture kernel to be safe",
			    what, hp.sysfs, hotplug_subsystem_name(s), strerror(-r));
	switch (d) {
	case HOTPLUG_IGNORE_ACTION:
	case HOTPLUG_NOT_LOADED:
		return 0;
	case HOTPLUG_IN_PLACE:
		hotplug_log(LOG_INFO, "%s: the kernel updates the capture kernel's ELF headers itself: nothing to reload",
			    what);
		return 0;
	case HOTPLUG_MARK_PENDING:
		break;
	}
	r = hotplug_mark_pending(hp.pending);
	if (r < 0) {
		hotplug_log(LOG_ERR, "%s: cannot mark the capture kernel's reload as pending in %s: %s: the capture kernel misses this change until 'systemctl reload kdump-file' is run",
			    what, hp.pending, strerror(-r));
		return r;
	}
	hotplug_log(LOG_NOTICE, "%s: the capture kernel's ELF headers no longer match this system: reload pending (%s, kdump-file-hotplug.service)",
		    what, hp.pending);
	return 0;
}

/* Waits this long without an event before it reloads, polling every... */
#define HOTPLUG_QUIET_MS 1000
#define HOTPLUG_POLL_MS 200
/* ...but reloads after this long in any case, events or not. */
#define HOTPLUG_MAX_WAIT_MS 10000

/*
 * reload --after-hotplug, kdump-file-hotplug.service's: once the events
 * have settled, the pending mark is removed first and the reload follows,
 * so that an event after the removal marks again and is reloaded for
 * (the path unit starts the service once more), and one before it is in
 * what this reload reads.
 */
int reload_after_hotplug(struct cli *cli)
{
	struct hotplug_paths hp;
	int r;

	hotplug_paths(&hp);
	if (!hotplug_pending(hp.pending)) {
		log_info(cli, "no reload after CPU or memory hotplug is pending (%s)",
			 hp.pending);
		return 0;
	}
	if (!hotplug_crash_loaded(hp.sysfs)) {
		if (unlink(hp.pending) < 0 && errno != ENOENT) {
			r = -errno;
			log_error(cli, "cannot remove %s: %s", hp.pending, strerror(-r));
			return r;
		}
		log_info(cli, "no capture kernel is loaded: nothing to reload after CPU or memory hotplug");
		return 0;
	}
	r = hotplug_settle(hp.pending, HOTPLUG_QUIET_MS, HOTPLUG_POLL_MS,
			   HOTPLUG_MAX_WAIT_MS);
	if (r == -ENOENT) {
		log_info(cli, "the pending reload after CPU or memory hotplug was taken back (%s is gone)",
			 hp.pending);
		return 0;
	}
	if (r == 0)
		log_info(cli, "CPU or memory hotplug events still coming after %d s: reloading now, and again after them",
			 HOTPLUG_MAX_WAIT_MS / 1000);
	if (unlink(hp.pending) < 0 && errno != ENOENT) {
		r = -errno;
		log_error(cli, "cannot remove %s: %s (the reload after CPU or memory hotplug would repeat: remove it by hand)",
			  hp.pending, strerror(-r));
		return r;
	}
	r = load_capture(cli, true, NULL);
	if (r < 0)
		return r;
	if (r == 1)
		log_info(cli, "no capture kernel of kdump-file's is loaded any more: nothing to reload after CPU or memory hotplug");
	else
		log_info(cli, "reloaded the capture kernel after CPU or memory hotplug");
	return 0;
}
