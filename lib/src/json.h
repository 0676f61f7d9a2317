/* SPDX-License-Identifier: GPL-2.0 */
/*
 * JSON for the files kdump-file writes and reads (metadata.json, and the
 * fields of report.json it shows), through json-c: one writer and one
 * reader for the loader, the capture and recover.
 */
#ifndef KDUMP_FILE_JSON_H
#define KDUMP_FILE_JSON_H

#include <stddef.h>
#include <sys/types.h>

struct json_object;

/*
 * A JSON string of s, which may come from a crashed kernel or a disk: a
 * byte that is not part of valid UTF-8 becomes U+FFFD (json-c escapes
 * quotes and control characters).  NULL on no memory.
 */
struct json_object *json_text(const char *s);

/*
 * Set key of obj to a string, a number or a boolean; -ENOMEM when json-c
 * cannot.
 */
int json_set_text(struct json_object *obj, const char *key, const char *s);
int json_set_int(struct json_object *obj, const char *key, long long v);
int json_set_double(struct json_object *obj, const char *key, double v);
int json_set_bool(struct json_object *obj, const char *key, int v);

/* obj, pretty-printed, into path: temporary file, fsync, rename, fsync. */
int json_write_atomic(const char *path, struct json_object *obj, mode_t mode);
/* The same into name in the directory dirfd (write_file_atomic_at()). */
int json_write_atomic_at(int dirfd, const char *name,
			 struct json_object *obj, mode_t mode);

/*
 * The value of key in the top-level object of text ("a.b": key b of the
 * object under key a): a string as it is (cut to size), a number or
 * boolean as its JSON text.  -EINVAL when text is not a JSON object,
 * -ENOENT when key is missing or null.
 */
int json_get_field(const char *text, const char *key, char *buf, size_t size);

#endif
