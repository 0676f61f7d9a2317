// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "json.h"
#include "util.h"

struct json_object *json_text(const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t len = strlen((const char *)p), o = 0;
	struct json_object *j;
	char *buf;

	/* Each invalid byte grows to three: U+FFFD. */
	buf = malloc(len * 3 + 1);
	if (!buf)
		return NULL;
	while (*p) {
		size_t n = utf8_seq_len(p);

		if (n == 0) {
			memcpy(buf + o, "\xef\xbf\xbd", 3);
			o += 3;
			p++;
			continue;
		}
		memcpy(buf + o, p, n);
		o += n;
		p += n;
	}
	buf[o] = '\0';
	j = json_object_new_string_len(buf, (int)o);
	free(buf);
	return j;
}

static int set(struct json_object *obj, const char *key, struct json_object *v)
{
	if (!v)
		return -ENOMEM;
	if (json_object_object_add(obj, key, v) < 0) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

int json_set_text(struct json_object *obj, const char *key, const char *s)
{
	return set(obj, key, json_text(s));
}

int json_set_int(struct json_object *obj, const char *key, long long v)
{
	return set(obj, key, json_object_new_int64(v));
}

int json_set_double(struct json_object *obj, const char *key, double v)
{
	char text[48];

	/*
	 * Written to the millisecond, as measured: "0.092", not the 17
	 * digits json-c gives 0.092 by default.
	 */
	snprintf(text, sizeof(text), "%.3f", v);
	return set(obj, key, json_object_new_double_s(v, text));
}

int json_set_bool(struct json_object *obj, const char *key, int v)
{
	return set(obj, key, json_object_new_boolean(v));
}

int json_write_atomic_at(int dirfd, const char *name,
			struct json_object *obj, mode_t mode)
{
	_cleanup_free_ char *buf = NULL;
	const char *text;
	size_t len;

	text = json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_SPACED |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text)
		return -ENOMEM;
	len = strlen(text);
	buf = malloc(len + 2);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, text, len);
	buf[len++] = '\n';
	return write_file_atomic_at(dirfd, name, buf, len, mode);
}

int json_write_atomic(const char *path, struct json_object *obj, mode_t mode)
{
	const char *name;
	int dirfd, r;

	r = open_parent(path, &dirfd, &name);
	if (r < 0)
		return r;
	r = json_write_atomic_at(dirfd, name, obj, mode);
	if (dirfd >= 0)
		close(dirfd);
	return r;
}

int json_get_field(const char *text, const char *key, char *buf, size_t size)
{
	struct json_object *root, *v;
	const char *s;
	int r = 0;

	if (size == 0)
		return -EINVAL;
	root = json_tokener_parse(text);
	if (!root || !json_object_is_type(root, json_type_object)) {
		json_object_put(root);
		return -EINVAL;
	}
	/* "a.b": key b of the object that key a of the top level holds. */
	v = root;
	for (const char *k = key; v && *k;) {
		size_t n = strcspn(k, ".");
		char part[128];

		if (n >= sizeof(part) ||
		    !json_object_is_type(v, json_type_object)) {
			v = NULL;
			break;
		}
		memcpy(part, k, n);
		part[n] = '\0';
		if (!json_object_object_get_ex(v, part, &v))
			v = NULL;
		k += n + (k[n] == '.');
	}
	if (!v) {
		r = -ENOENT;
	} else {
		s = json_object_is_type(v, json_type_string) ?
			    json_object_get_string(v) :
			    json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
		snprintf(buf, size, "%s", s ? s : "");
	}
	json_object_put(root);
	return r;
}
