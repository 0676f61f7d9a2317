// SPDX-License-Identifier: GPL-2.0
/*
 * crypttab(5): "NAME DEVICE [KEY [OPTIONS]]", blank-separated, '#'
 * comments.  Only what the capture needs is read: the key file, its
 * offset, size and slot, and whether an option asks for something the
 * capture cannot do.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "crypttab.h"
#include "util.h"

#define FIELD_MAX 4

/* The next blank-separated word of s into w (at most size - 1 bytes). */
static const char *next_word(const char *s, char *w, size_t size)
{
	size_t n;

	s += strspn(s, " \t");
	n = strcspn(s, " \t");
	if (n >= size)
		n = size - 1;
	memcpy(w, s, n);
	w[n] = '\0';
	return s + strcspn(s, " \t");
}

/* A number option's value: all digits, no overflow. */
static int parse_number(const char *v, unsigned long long *ret)
{
	char *end;

	if (!*v || v[strspn(v, "0123456789")] != '\0')
		return -EINVAL;
	errno = 0;
	*ret = strtoull(v, &end, 10);
	return errno ? -EINVAL : 0;
}

/* One option of the entry; -EINVAL for a number that is not one. */
static int parse_option(const char *opt, struct crypttab_entry *e)
{
	static const char *const refused[] = {
		"keyscript=", "tpm2-device=", "fido2-device=", "pkcs11-uri=",
		"header=", "plain", "tcrypt", "bitlk", "tcrypt-veracrypt",
	};
	unsigned long long v;

	if (strncmp(opt, "keyfile-offset=", 15) == 0)
		return parse_number(opt + 15, &e->keyfile_offset);
	if (strncmp(opt, "keyfile-size=", 13) == 0)
		return parse_number(opt + 13, &e->keyfile_size);
	if (strncmp(opt, "key-slot=", 9) == 0 ||
	    strncmp(opt, "keyslot=", 8) == 0) {
		if (parse_number(strchr(opt, '=') + 1, &v) < 0 || v > 31)
			return -EINVAL;
		e->key_slot = (int)v;
		return 0;
	}
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		size_t l = strlen(refused[i]);
		bool eq = refused[i][l - 1] == '=';

		if (e->refused[0])
			break;
		if (eq ? strncmp(opt, refused[i], l) == 0 :
			 strcmp(opt, refused[i]) == 0)
			snprintf(e->refused, sizeof(e->refused), "%.*s",
				 (int)(eq ? l - 1 : l), refused[i]);
	}
	return 0;
}

/* The options field, comma-separated, into e. */
static int parse_options(const char *opts, struct crypttab_entry *e)
{
	char opt[256];

	while (*opts) {
		size_t n = strcspn(opts, ",");

		if (n < sizeof(opt)) {
			memcpy(opt, opts, n);
			opt[n] = '\0';
			if (parse_option(opt, e) < 0)
				return -EINVAL;
		}
		opts += n;
		if (*opts == ',')
			opts++;
	}
	return 0;
}

/* Does the line's entry (name, device) name the mapping or the UUID? */
static bool matches(const char *fname, const char *fdev, const char *name,
		    const char *uuid, bool by_uuid)
{
	if (!by_uuid)
		return strcmp(fname, name) == 0;
	return uuid && uuid[0] && strncasecmp(fdev, "UUID=", 5) == 0 &&
	       strcasecmp(fdev + 5, uuid) == 0;
}

static int find(const char *text, const char *name, const char *uuid,
		bool by_uuid, struct crypttab_entry *ret)
{
	unsigned int line = 0;

	while (*text) {
		size_t len = strcspn(text, "\n");
		char buf[1024], f[FIELD_MAX][512];
		const char *s = buf;
		struct crypttab_entry e = { .key_slot = -1 };

		line++;
		if (len < sizeof(buf)) {
			memcpy(buf, text, len);
			buf[len] = '\0';
		} else {
			buf[0] = '\0';
		}
		text += len + (text[len] == '\n');
		s += strspn(s, " \t");
		if (*s == '#' || *s == '\0')
			continue;
		for (int i = 0; i < FIELD_MAX; i++)
			s = next_word(s, f[i], sizeof(f[i]));
		if (!matches(f[0], f[1], name, uuid, by_uuid))
			continue;
		e.line = line;
		if (path_format(e.name, sizeof(e.name), "%s", f[0]) < 0 ||
		    path_format(e.device, sizeof(e.device), "%s", f[1]) < 0 ||
		    (strcmp(f[2], "none") != 0 && strcmp(f[2], "-") != 0 &&
		     path_format(e.key, sizeof(e.key), "%s", f[2]) < 0) ||
		    parse_options(f[3], &e) < 0) {
			*ret = e;
			return -EINVAL;
		}
		*ret = e;
		return 0;
	}
	return -ENOENT;
}

int crypttab_find(const char *text, const char *name, const char *uuid,
		  struct crypttab_entry *ret)
{
	int r = find(text, name, uuid, false, ret);

	if (r == -ENOENT)
		r = find(text, name, uuid, true, ret);
	return r;
}
