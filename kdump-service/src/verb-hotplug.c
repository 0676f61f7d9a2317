// SPDX-License-Identifier: GPL-2.0
/*
 * hotplug: the udev rule's "kdump-file hotplug", which marks the reload
 * after CPU or memory hotplug as pending (see hotplug-state.h for the
 * reload itself).
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
#include "hotplug-state.h"
#include "json.h"
#include "util.h"

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
	const char *given = argc > 1 ? argv[1] : NULL;
	const char *name = given ? given : getenv("SUBSYSTEM");
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
			  name, given ? "" : " (in SUBSYSTEM)");
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
