// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "journal.h"
#include "util.h"

/*
 * src cleaned for a journal field: one line of UTF-8.  Copies whole
 * characters to dst while they fit in max bytes (no NUL) and returns how
 * many bytes it copied; with dst NULL, only counts.
 */
static size_t clean(char *dst, size_t max, const char *src)
{
	const unsigned char *p = (const unsigned char *)src;
	size_t o = 0;

	while (*p) {
		size_t n = utf8_seq_len(p), k;
		const char *c;

		if (n == 0) {
			c = "\xef\xbf\xbd";
			k = 3;
			n = 1;
		} else if ((n == 1 && (*p < 0x20 || *p == 0x7f)) ||
			   /* C1 controls, NEL (U+0085) among them */
			   (n == 2 && p[0] == 0xc2 && p[1] < 0xa0)) {
			c = " ";
			k = 1;
		} else {
			c = (const char *)p;
			k = n;
		}
		if (o + k > max)
			break;
		if (dst)
			memcpy(dst + o, c, k);
		o += k;
		p += n;
	}
	return o;
}

static void add(struct journal_fields *f, const char *name, const char *value)
{
	char *out;
	size_t o, len;

	if (f->n >= JOURNAL_CRASH_FIELDS || strlen(name) > JOURNAL_NAME_MAX)
		return;
	out = f->field[f->n++];
	o = (size_t)sprintf(out, "%s=", name);
	len = clean(NULL, SIZE_MAX, value);
	if (len <= JOURNAL_VALUE_MAX) {
		o += clean(out + o, len, value);
	} else {
		o += clean(out + o, JOURNAL_VALUE_MAX - 3, value);
		memcpy(out + o, "...", 3);
		o += 3;
	}
	out[o] = '\0';
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
