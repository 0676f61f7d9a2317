// SPDX-License-Identifier: GPL-2.0
/* One way to carry a failure: see diag.h. */
#include "diag.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util.h"

void diag_clear(struct diag *d)
{
	if (!d)
		return;
	d->error = 0;
	d->line = 0;
	d->key[0] = '\0';
	d->msg[0] = '\0';
	d->n_warnings = 0;
}

int diag_failv(struct diag *d, int error, const char *fmt, va_list ap)
{
	if (error >= 0)
		error = -EINVAL;
	if (!d || d->error < 0)
		return error;
	d->error = error;
	d->msg[0] = '\0';
	if (fmt)
		(void)text_vformat(d->msg, sizeof(d->msg), fmt, ap);
	return error;
}

int diag_fail(struct diag *d, int error, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = diag_failv(d, error, fmt, ap);
	va_end(ap);
	return r;
}

int diag_fail_at(struct diag *d, int error, unsigned int line,
		 const char *key, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (d && d->error == 0) {
		d->line = line;
		(void)text_format(d->key, sizeof(d->key), "%s", key ? key : "");
	}
	va_start(ap, fmt);
	r = diag_failv(d, error, fmt, ap);
	va_end(ap);
	return r;
}

void diag_prefix(struct diag *d, const char *fmt, ...)
{
	char head[DIAG_MSG_MAX];
	char old[DIAG_MSG_MAX];
	va_list ap;

	if (!d || d->error == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(head, sizeof(head), fmt, ap);
	va_end(ap);
	memcpy(old, d->msg, sizeof(old));
	(void)text_format(d->msg, sizeof(d->msg), "%s: %s", head,
			  old[0] ? old : strerror(-d->error));
}

void diag_warnv(struct diag *d, const char *fmt, va_list ap)
{
	char *w;

	if (!d)
		return;
	if (d->n_warnings < DIAG_WARN_MAX) {
		w = d->warnings[d->n_warnings];
		(void)text_vformat(w, DIAG_WARN_LEN, fmt, ap);
	}
	d->n_warnings++;
}

void diag_warn(struct diag *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_warnv(d, fmt, ap);
	va_end(ap);
}

void diag_take_warnings(struct diag *to, const struct diag *from)
{
	unsigned int i, n;

	if (!to || !from)
		return;
	n = from->n_warnings < DIAG_WARN_MAX ? from->n_warnings : DIAG_WARN_MAX;
	for (i = 0; i < n; i++)
		diag_warn(to, "%s", from->warnings[i]);
	to->n_warnings += from->n_warnings - n;
}

int diag_take(struct diag *to, const struct diag *from)
{
	if (!from)
		return 0;
	diag_take_warnings(to, from);
	if (to && to->error == 0 && from->error < 0) {
		to->error = from->error;
		to->line = from->line;
		memcpy(to->key, from->key, sizeof(to->key));
		memcpy(to->msg, from->msg, sizeof(to->msg));
	}
	return from->error;
}

const char *diag_text(const struct diag *d)
{
	if (!d || d->error == 0)
		return "";
	return d->msg[0] ? d->msg : strerror(-d->error);
}
