// SPDX-License-Identifier: GPL-2.0
/*
 * kdump-file-analyze: the messages, numbers and JSON values every verb
 * writes the same way.
 */
#include <json-c/json.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <time.h>

#include "analyze.h"
#include "textfilter.h"
#include "json.h"

__attribute__((format(printf, 2, 0)))
static void log_at(const char *level, const char *fmt, va_list ap)
{
	fprintf(stderr, PROG ": %s: ", level);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void log_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_at("error", fmt, ap);
	va_end(ap);
}

void log_warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_at("warning", fmt, ap);
	va_end(ap);
}

int parse_hex(const char *s, uint64_t *ret)
{
	unsigned long long v;
	char *end;

	/* strtoull() would take a sign; an address has none */
	if (!*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 16);
	if (errno || *end || end == s)
		return -EINVAL;
	*ret = v;
	return 0;
}

int open_vmcore(const char *path, struct vmcore **ret)
{
	struct diag d = DIAG_INIT;
	int r;

	r = vmcore_open(path, ret, &d);
	if (r < 0)
		log_error("cannot open vmcore '%s': %s", path, diag_text(&d));
	return r;
}

void format_time(int64_t t, char *buf, size_t size)
{
	time_t tt = t;
	struct tm tm;

	if (t < 0 || !gmtime_r(&tt, &tm) ||
	    !strftime(buf, size, "%Y-%m-%d %H:%M:%S UTC", &tm))
		snprintf(buf, size, "unknown");
}

const char *size_str(uint64_t bytes, char *buf, size_t size)
{
	if (bytes < (1ULL << 20))
		snprintf(buf, size, "%.1f KiB", bytes / 1024.0);
	else if (bytes < (1ULL << 30))
		snprintf(buf, size, "%.1f MiB", bytes / 1048576.0);
	else
		snprintf(buf, size, "%.1f GiB", bytes / 1073741824.0);
	return buf;
}

void put_text(struct json_object *o, const char *key, const char *text)
{
	json_object_object_add(o, key, text && *text ? json_text(text) : NULL);
}

void put_u64(struct json_object *o, const char *key, uint64_t v)
{
	json_object_object_add(o, key, json_object_new_uint64(v));
}

void put_hex(struct json_object *o, const char *key, bool wide, uint64_t v)
{
	char buf[32];

	if (wide)
		snprintf(buf, sizeof(buf), "0x%016" PRIx64, v);
	else
		snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	json_object_object_add(o, key, json_object_new_string(buf));
}

void json_print(FILE *f, struct json_object *obj)
{
	const char *doc = json_object_to_json_string_ext(obj,
					JSON_C_TO_STRING_PRETTY |
					JSON_C_TO_STRING_SPACED |
					JSON_C_TO_STRING_NOSLASHESCAPE);
	/* json-c leaves DEL, C1 and bidi controls as they are. */
	char *clean = text_filter_json(doc);

	fputs(clean ? clean : doc, f);
	fputc('\n', f);
	free(clean);
}

