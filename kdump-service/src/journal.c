// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "journal.h"
#include "textfilter.h"
#include "util.h"

static void add(struct journal_fields *f, const char *name, const char *value)
{
	char *out;
	size_t o;

	if (f->n >= JOURNAL_CRASH_FIELDS || strlen(name) > JOURNAL_NAME_MAX)
		return;
	out = f->field[f->n++];
	o = (size_t)sprintf(out, "%s=", name);
	/*
	 * The text filter every verb prints with: one line of UTF-8 with
	 * nothing a terminal acts on (journalctl shows it there), cut on a
	 * character boundary with "..." when longer.
	 */
	(void)text_filter(value, out + o, JOURNAL_VALUE_MAX + 1);
}

void journal_crash_fields(const struct dump_info *d, const char *id,
			  struct journal_fields *ret)
{
	/* Every part is bounded by struct dump_info: no part is cut here. */
	char msg[sizeof(d->dir) + sizeof(d->error) + 512];
	char complete[sizeof(d->error) + 8], when[32];

	const bool ok = dump_complete(d);
	const char *state = d->has_vmcore ? "" : ok ? ", dmesg only" : ", incomplete";

	ret->n = 0;
	if (ok)
		snprintf(complete, sizeof(complete), "yes%s",
			 d->has_vmcore ? "" : ": dmesg only");
	else
		snprintf(complete, sizeof(complete), "no%s%s",
			 d->error[0] ? ": " : "", d->error);
	snprintf(msg, sizeof(msg), "Kernel crash %s: %s (kernel %s), dump in %s%s%s%s",
		 id, d->signature[0] ? d->signature : "no signature",
		 d->release[0] ? d->release : "unknown", d->dir, state,
		 !ok && d->error[0] ? ": " : "", ok ? "" : d->error);
	add(ret, "MESSAGE_ID", JOURNAL_CRASH_MESSAGE_ID);
	/* LOG_CRIT: the machine crashed. */
	add(ret, "PRIORITY", "2");
	add(ret, "SYSLOG_IDENTIFIER", "kdump-file");
	add(ret, "MESSAGE", msg);
	add(ret, "KDUMP_FILE_CRASH_ID", id);
	if (d->signature[0])
		add(ret, "KDUMP_FILE_SIGNATURE", d->signature);
	if (d->release[0])
		add(ret, "KDUMP_FILE_KERNEL", d->release);
	if (dump_time(d) >= 0) {
		utc_time(dump_time(d), when, sizeof(when));
		add(ret, "KDUMP_FILE_CRASH_TIME", when);
	}
	add(ret, "KDUMP_FILE_DUMP_DIR", d->dir);
	add(ret, "KDUMP_FILE_COMPLETE", complete);
	if (d->panic[0])
		add(ret, "KDUMP_FILE_PANIC", d->panic);
}
