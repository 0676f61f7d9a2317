// SPDX-License-Identifier: GPL-2.0
/*
 * How CPU and memory hotplug are handled here, and the reload after them
 * (see hotplug-state.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "hotplug.h"
#include "hotplug-state.h"
#include "json.h"
#include "load.h"
#include "util.h"


void hotplug_paths(struct hotplug_paths *hp)
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
	if (!j && (path_format(line, sizeof(line), "%s/kernel/kexec_crash_loaded",
			       hp.sysfs) < 0 || access(line, F_OK) < 0))
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
		text_format(line + strlen(line), sizeof(line) - strlen(line),
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
