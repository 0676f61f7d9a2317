// SPDX-License-Identifier: GPL-2.0
/*
 * import: the kdump-file.conf text, its check, the summary, and the file
 * written (see import.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "import.h"
#include "import-internal.h"
#include "util.h"

struct text {
	char *buf;
	size_t len, cap;
	bool oom;
};

static void put(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->buf ? t->buf + t->len : NULL,
			      t->buf ? t->cap - t->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			t->oom = true;
			return;
		}
		if (t->buf && t->len + n < t->cap) {
			t->len += n;
			return;
		}
		{
			size_t cap = (t->cap + n + 1) * 2;
			char *p = realloc(t->buf, cap);

			if (!p) {
				t->oom = true;
				return;
			}
			t->buf = p;
			t->cap = cap;
		}
	}
}

/* The whole text as kdump-file.conf's parser takes it. */
int import_validate(const char *text, size_t len, struct diag *err)
{
	struct kdump_conf c;

	return conf_parse_buffer(&c, text, len, err);
}

int import_render(const struct import *im, char **ret, struct diag *err)
{
	struct text t = { 0 };
	int r;

	if (err)
		memset(err, 0, sizeof(*err));
	put(&t, "# /etc/kdump-file.conf written by kdump-file import from:\n");
	for (unsigned int i = 0; i < im->n_sources; i++)
		put(&t, "#   %s (%s)\n", im->source[i],
		    import_format_name(im->source_format[i]));
	put(&t, "# Every key is explained in kdump-file.conf(5); a key not set here keeps\n"
		"# its default.\n");
	for (unsigned int k = 0; k < IK_MAX; k++)
		if (im->set[k])
			put(&t, "\n# from %s\n%s = %s\n", im->from[k], import_keys[k].name,
			    im->value[k]);
	if (im->n_changed)
		put(&t, "\n");
	for (size_t i = 0; i < im->n_notes; i++)
		if (im->notes[i].kind == IMPORT_CHANGED)
			put(&t, "# carried over with a difference: %s: %s\n",
			    im->notes[i].setting, im->notes[i].reason);
	if (im->n_not_carried)
		put(&t, "\n");
	for (size_t i = 0; i < im->n_notes; i++)
		if (im->notes[i].kind == IMPORT_NOT_CARRIED)
			put(&t, "# not carried over: %s: %s\n",
			    im->notes[i].setting, im->notes[i].reason);
	if (im->n_no_need)
		put(&t, "\n");
	for (size_t i = 0; i < im->n_notes; i++)
		if (im->notes[i].kind == IMPORT_NO_NEED)
			put(&t, "# nothing to carry over: %s: %s\n",
			    im->notes[i].setting, im->notes[i].reason);
	if (t.oom) {
		free(t.buf);
		return -ENOMEM;
	}
	r = import_validate(t.buf, t.len, err);
	if (r < 0) {
		free(t.buf);
		return r == -ENOMEM ? r : -EINVAL;
	}
	*ret = t.buf;
	return 0;
}

int import_check(const struct import *im, struct diag *d)
{
	if (!im->remote[0] || !im->remote_refused[0] || im->local_instead)
		return 0;
	return diag_fail(d, -EREMOTE,
			 "%s: dumps go to %s, which kdump-file cannot dump to: %s: add --local-instead to dump to %s here instead",
			 im->remote, im->remote_where, im->remote_refused,
			 im->remote_path);
}

int import_summary(const struct import *im, char **ret)
{
	struct text t = { 0 };

	put(&t, "kdump-file: import: %u setting%s carried over", im->n_carried,
	    im->n_carried == 1 ? "" : "s");
	if (im->n_changed)
		put(&t, " (%u difference%s noted)", im->n_changed,
		    im->n_changed == 1 ? "" : "s");
	put(&t, ", %u not carried over", im->n_not_carried);
	if (im->n_no_need)
		put(&t, ", %u need nothing (kdump-file does that already)",
		    im->n_no_need);
	put(&t, "%s\n", im->n_not_carried || im->n_changed ? ":" : "");
	for (size_t i = 0; i < im->n_notes; i++)
		if (im->notes[i].kind == IMPORT_CHANGED)
			put(&t, "  with a difference: %s: %s\n",
			    im->notes[i].setting, im->notes[i].reason);
	for (size_t i = 0; i < im->n_notes; i++)
		if (im->notes[i].kind == IMPORT_NOT_CARRIED)
			put(&t, "  %s: %s\n", im->notes[i].setting,
			    im->notes[i].reason);
	if (t.oom) {
		free(t.buf);
		return -ENOMEM;
	}
	*ret = t.buf;
	return 0;
}

bool import_only_comments(const char *buf, size_t len)
{
	bool line_start = true;

	for (size_t i = 0; i < len; i++) {
		char c = buf[i];

		if (c == '\n') {
			line_start = true;
		} else if (line_start && c == '#') {
			/* The rest of the line is a comment. */
			while (i + 1 < len && buf[i + 1] != '\n')
				i++;
		} else if (c != ' ' && c != '\t' && c != '\r') {
			return false;
		}
	}
	return true;
}

/* Larger than any kdump-file.conf: a file that is not one is not read whole. */
#define IMPORT_OUTPUT_MAX (1024 * 1024)

int import_write(const char *path, const char *text, bool force,
		 enum import_write_how *ret_how)
{
	enum import_write_how how = IMPORT_WROTE_NEW;
	char bak[PATH_MAX];
	struct stat st;
	char *old = NULL;
	int r;

	if (lstat(path, &st) == 0) {
		size_t len;

		r = read_file_max(path, &old, IMPORT_OUTPUT_MAX);
		if (r < 0)
			return r;
		len = r;
		if (import_only_comments(old, len)) {
			how = IMPORT_REPLACED_COMMENTS;
		} else if (!force) {
			free(old);
			return -EEXIST;
		} else {
			if (snprintf(bak, sizeof(bak), "%s.bak", path) >=
			    (int)sizeof(bak)) {
				free(old);
				return -ENAMETOOLONG;
			}
			r = write_file_atomic(bak, old, len, st.st_mode & 07777);
			if (r < 0) {
				free(old);
				return r;
			}
			how = IMPORT_REPLACED_BACKED_UP;
		}
		free(old);
	} else if (errno != ENOENT) {
		return -errno;
	}
	r = write_file_atomic(path, text, strlen(text), 0644);
	if (r < 0)
		return r;
	*ret_how = how;
	return 0;
}
