// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "textfilter.h"
#include "util.h"

/* The code point of the valid UTF-8 sequence of n bytes at s. */
static unsigned int utf8_code_point(const unsigned char *s, size_t n)
{
	static const unsigned char lead_mask[] = { 0, 0x7f, 0x1f, 0x0f, 0x07 };
	unsigned int cp = s[0] & lead_mask[n];

	for (size_t i = 1; i < n; i++)
		cp = cp << 6 | (s[i] & 0x3f);
	return cp;
}

/*
 * Characters a terminal acts on or that reorder what is shown: the C1
 * controls, LRM/RLM and ALM, the line and paragraph separators, the bidi
 * embeddings, overrides and isolates (Unicode UAX #9).
 */
static bool unicode_hidden(unsigned int cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x61c ||
	       cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x2028 && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

/*
 * The next unit of s as it is shown: into out (at most 12 bytes), its
 * length returned, the bytes of s it stands for in *consumed.
 */
static size_t unit(const unsigned char *s, bool json, char out[16],
		   size_t *consumed)
{
	size_t n = utf8_seq_len(s);
	unsigned int cp;

	if (n == 0) {
		*consumed = 1;
		if (json)
			return (size_t)snprintf(out, 16, "\\ufffd");
		return (size_t)snprintf(out, 16, "\\x%02x", s[0]);
	}
	*consumed = n;
	if (n == 1) {
		if (json ? s[0] == 0x7f : s[0] < 0x20 || s[0] == 0x7f)
			return (size_t)snprintf(out, 16, json ? "\\u%04x" :
						"\\x%02x", s[0]);
		out[0] = (char)s[0];
		return 1;
	}
	cp = utf8_code_point(s, n);
	if (unicode_hidden(cp))
		return (size_t)snprintf(out, 16, "\\u%04x", cp);
	memcpy(out, s, n);
	return n;
}

int text_filter(const char *src, char *buf, size_t size)
{
	const unsigned char *s = (const unsigned char *)(src ? src : "");
	size_t o = 0, mark = 0;

	if (size == 0)
		return -EINVAL;
	while (*s) {
		size_t len, used;
		char u[16];

		len = unit(s, false, u, &used);
		if (o + len + 1 > size) {
			/* Cut at the last boundary that leaves room for "...". */
			if (size >= 4) {
				memcpy(buf + mark, "...", 3);
				o = mark + 3;
			}
			buf[o] = '\0';
			return -ENOBUFS;
		}
		memcpy(buf + o, u, len);
		o += len;
		s += used;
		if (o + 3 + 1 <= size)
			mark = o;
	}
	buf[o] = '\0';
	return 0;
}

static char *filter_dup(const char *src, bool json)
{
	const unsigned char *s = (const unsigned char *)(src ? src : "");
	size_t o = 0, len = 0, used;
	char u[16], *buf;

	/* Measured first: an escape is at most 6 times the byte it shows. */
	for (const unsigned char *p = s; *p; p += used)
		len += unit(p, json, u, &used);
	buf = malloc(len + 1);
	if (!buf)
		return NULL;
	while (*s) {
		size_t n = unit(s, json, u, &used);

		memcpy(buf + o, u, n);
		o += n;
		s += used;
	}
	buf[o] = '\0';
	return buf;
}

const char *text_safe(const char *s, char *buf, size_t size)
{
	/* Cut with "..." when it does not fit: still printed. */
	(void)text_filter(s, buf, size);
	return buf;
}

char *text_filter_dup(const char *src)
{
	return filter_dup(src, false);
}

char *text_filter_json(const char *json)
{
	return filter_dup(json, true);
}
