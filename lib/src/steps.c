// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include "steps.h"
#include "util.h"

void steps_init(struct steps *s)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->last, sizeof(s->last), "starting");
}

static void message(struct steps *s, const char *m)
{
	if (m[0] == '@')
		text_format(s->meta, sizeof(s->meta), "%s", m + 1);
	else if (m[0])
		text_format(s->last, sizeof(s->last), "%s", m);
}

void steps_take(struct steps *s, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (buf[i] != '\0') {
			/* A message longer than any we send: its end is kept. */
			if (s->part_len + 1 < sizeof(s->part))
				s->part[s->part_len++] = buf[i];
			continue;
		}
		s->part[s->part_len] = '\0';
		message(s, s->part);
		s->part_len = 0;
	}
}
