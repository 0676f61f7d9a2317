// SPDX-License-Identifier: GPL-2.0
/*
 * makedumpfile --mem-usage: what it prints (makedumpfile.c,
 * show_mem_usage() and print_mem_usage()) is
 *
 *	The kernel version is not supported.		(sometimes, on stderr)
 *	TYPE		PAGES	EXCLUDABLE	DESCRIPTION
 *	------------------------------------------------
 *	ZERO		2390	yes		Pages filled with zero
 *	...
 *	KERN_DATA	24847	no		Dumpable kernel data
 *
 *	page size:		4096
 *	Total pages on system:	205739
 *	Total size on system:	842706944	Byte
 *
 * It is a program reading /proc/kcore, its output is text meant for people,
 * and its figures end up in sizes we multiply: every number is checked
 * before it is believed.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include <json-c/json.h>

#include "json.h"
#include "memusage.h"
#include "process.h"
#include "util.h"

static const char *const type_names[MEMUSAGE_TYPES] = {
	[MEMUSAGE_ZERO] = "ZERO",
	[MEMUSAGE_NON_PRI_CACHE] = "NON_PRI_CACHE",
	[MEMUSAGE_PRI_CACHE] = "PRI_CACHE",
	[MEMUSAGE_USER] = "USER",
	[MEMUSAGE_FREE] = "FREE",
	[MEMUSAGE_KERN_DATA] = "KERN_DATA",
};

#define UNSUPPORTED_LINE "The kernel version is not supported."
/* What is read of its output: the table is a few hundred bytes. */
#define OUTPUT_MAX 65536

/* A decimal number alone, no sign, no overflow; -EBADMSG otherwise. */
static int parse_ull(const char *s, size_t n, unsigned long long *ret)
{
	unsigned long long v = 0;

	if (n == 0 || n > 20)
		return -EBADMSG;
	for (size_t i = 0; i < n; i++) {
		unsigned int d;

		if (s[i] < '0' || s[i] > '9')
			return -EBADMSG;
		d = s[i] - '0';
		if (v > (ULLONG_MAX - d) / 10)
			return -EBADMSG;
		v = v * 10 + d;
	}
	*ret = v;
	return 0;
}

/* The next blank-separated word of *p: its start, its length in *ret_n. */
static const char *next_word(const char **p, size_t *ret_n)
{
	const char *s = *p, *w;

	while (*s == ' ' || *s == '\t')
		s++;
	w = s;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	*ret_n = s - w;
	*p = s;
	return w;
}

/* The number after prefix in line, and nothing else but a unit word. */
static int parse_labelled(const char *line, const char *prefix,
			  unsigned long long *ret)
{
	const char *p = line + strlen(prefix), *w;
	size_t n;

	w = next_word(&p, &n);
	return parse_ull(w, n, ret);
}

/* What makes a table sound, for a parsed one and a cached one alike. */
static int memusage_check(const struct memusage *m)
{
	unsigned long long sum = 0;

	if (!m->has[MEMUSAGE_KERN_DATA] || m->total_pages == 0)
		return -EBADMSG;
	if (m->page_size < 512 || m->page_size > (1ULL << 30) ||
	    (m->page_size & (m->page_size - 1)))
		return -EBADMSG;
	if (m->total_pages > ULLONG_MAX / m->page_size)
		return -EBADMSG;
	for (unsigned int i = 0; i < MEMUSAGE_TYPES; i++) {
		if (!m->has[i] && m->pages[i])
			return -EBADMSG;
		if (m->pages[i] > m->total_pages - sum)
			return -EBADMSG;
		sum += m->pages[i];
	}
	return 0;
}

/* A row of the table: a known name and its page count, or -ENOENT. */
static int parse_row(const char *line, struct memusage *m)
{
	const char *p = line, *w;
	unsigned long long v;
	size_t n;
	int r;

	w = next_word(&p, &n);
	for (unsigned int i = 0; i < MEMUSAGE_TYPES; i++) {
		if (strlen(type_names[i]) != n || memcmp(w, type_names[i], n))
			continue;
		w = next_word(&p, &n);
		r = parse_ull(w, n, &v);
		if (r < 0)
			return r;
		/* Twice the same row: which one is true? */
		if (m->has[i])
			return -EBADMSG;
		m->has[i] = true;
		m->pages[i] = v;
		return 0;
	}
	return -ENOENT;
}

int memusage_parse(const char *text, size_t len, struct memusage *ret)
{
	bool table = false, have_size = false, have_total = false;
	struct memusage m = { 0 };
	char line[512];
	size_t pos = 0;
	int r;

	if (memchr(text, '\0', len))
		return -EBADMSG;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = (nl ? (size_t)(nl - text) : len) - pos;

		/* No line of the table is long: a long one is not ours. */
		if (n >= sizeof(line))
			return -EBADMSG;
		memcpy(line, text + pos, n);
		line[n] = '\0';
		pos += n + (nl != NULL);
		if (n && line[n - 1] == '\r')
			line[--n] = '\0';

		if (strcmp(line, UNSUPPORTED_LINE) == 0) {
			m.kernel_unsupported = true;
		} else if (strncmp(line, "TYPE", 4) == 0 &&
			   (line[4] == ' ' || line[4] == '\t')) {
			if (table)
				return -EBADMSG;
			table = true;
		} else if (strncmp(line, "page size:", 10) == 0) {
			if (have_size)
				return -EBADMSG;
			r = parse_labelled(line, "page size:", &m.page_size);
			if (r < 0)
				return r;
			have_size = true;
		} else if (strncmp(line, "Total pages on system:", 22) == 0) {
			if (have_total)
				return -EBADMSG;
			r = parse_labelled(line, "Total pages on system:",
					   &m.total_pages);
			if (r < 0)
				return r;
			have_total = true;
		} else if (table && !have_size) {
			r = parse_row(line, &m);
			if (r < 0 && r != -ENOENT)
				return r;
		}
	}
	if (!table || !have_size || !have_total)
		return -EBADMSG;
	r = memusage_check(&m);
	if (r < 0)
		return r;
	*ret = m;
	return 0;
}

unsigned long long memusage_kept_pages(const struct memusage *m,
				       unsigned int dump_level)
{
	unsigned long long kept = m->total_pages;

	/* Bits 1..16 are ZERO..FREE (makedumpfile.h, DL_EXCLUDE_*). */
	for (unsigned int i = 0; i < MEMUSAGE_FREE + 1; i++)
		if ((dump_level & (1U << i)) && m->pages[i] <= kept)
			kept -= m->pages[i];
	return kept;
}

/* What a run printed, stdout and stderr together, cut at OUTPUT_MAX. */
struct output {
	char *buf;
	size_t len;
	bool cut;
	/*
	 * The last line that says why it failed: not one of the lines
	 * makedumpfile prints whatever the failure (print_mem_usage() and
	 * main()'s "makedumpfile Failed.").
	 */
	char last[256];
};

static bool said_always(const char *line)
{
	static const char *const lines[] = {
		UNSUPPORTED_LINE,
		"The makedumpfile operation may be incomplete.",
		"makedumpfile Failed.",
	};

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (strcmp(line, lines[i]) == 0)
			return true;
	return false;
}

static void output_line(const char *line, size_t len, void *userdata)
{
	struct output *o = userdata;

	if (len && !said_always(line))
		snprintf(o->last, sizeof(o->last), "%s", line);
	if (o->len + len + 1 > OUTPUT_MAX) {
		o->cut = true;
		return;
	}
	memcpy(o->buf + o->len, line, len);
	o->buf[o->len + len] = '\n';
	o->len += len + 1;
}

/* Run argv, its output into o; the process_run() errno, or the result. */
static int run_output(char *const argv[], unsigned int timeout_ms,
		      struct output *o, struct process_result *res)
{
	struct process_opts opts = PROCESS_OPTS_INIT;

	o->buf = malloc(OUTPUT_MAX);
	if (!o->buf)
		return -ENOMEM;
	opts.on_line = output_line;
	opts.userdata = o;
	opts.timeout_ms = timeout_ms;
	return process_run(argv, &opts, res);
}

int memusage_run(const char *program, unsigned int timeout_ms,
		 struct memusage *ret, struct diag *d)
{
	char *argv[] = { (char *)(program ? program : "makedumpfile"),
			 (char *)"--mem-usage", (char *)"/proc/kcore", NULL };
	struct output o = { 0 };
	struct process_result res;
	struct memusage m;
	char how[64];
	int r;

	r = run_output(argv, timeout_ms, &o, &res);
	if (r < 0) {
		r = diag_fail(d, r, NULL);
		goto out;
	}
	process_result_text(&res, how, sizeof(how));
	if (res.timed_out) {
		r = diag_fail(d, -ETIMEDOUT, "%s", how);
	} else if (!process_succeeded(&res)) {
		if (o.last[0])
			r = diag_fail(d, -EIO, "%s (%s)", o.last, how);
		else
			r = diag_fail(d, -EIO, "%s", how);
	} else if (o.cut) {
		r = diag_fail(d, -EBADMSG, "more than %d bytes of output",
			      OUTPUT_MAX);
	} else {
		r = memusage_parse(o.buf, o.len, &m);
		if (r < 0)
			r = diag_fail(d, r, "its table is not one it prints");
		else
			*ret = m;
	}
out:
	free(o.buf);
	return r;
}

int memusage_tool_version(const char *program, char *buf, size_t size)
{
	char *argv[] = { (char *)(program ? program : "makedumpfile"),
			 (char *)"-v", NULL };
	struct output o = { 0 };
	struct process_result res;
	const char *v, *end;
	int r;

	r = run_output(argv, 10000, &o, &res);
	if (r < 0)
		goto out;
	r = -EBADMSG;
	if (!process_succeeded(&res) || o.cut)
		goto out;
	o.buf[o.len ? o.len - 1 : 0] = '\0';
	v = strstr(o.buf, "version ");
	if (!v)
		goto out;
	v += strlen("version ");
	end = v + strcspn(v, " \n");
	if (end == v || (size_t)(end - v) >= size)
		goto out;
	for (const char *c = v; c < end; c++)
		if (!strchr("0123456789abcdefghijklmnopqrstuvwxyz.-+~_", *c))
			goto out;
	snprintf(buf, size, "%.*s", (int)(end - v), v);
	r = 0;
out:
	free(o.buf);
	return r;
}

/* program as process_run() would find it: in PATH unless it has a '/'. */
static int find_program(const char *program, char *buf, size_t size)
{
	const char *path;

	if (strchr(program, '/')) {
		if (snprintf(buf, size, "%s", program) >= (int)size)
			return -ENAMETOOLONG;
		return access(buf, X_OK) == 0 ? 0 : -errno;
	}
	path = getenv("PATH");
	if (!path || !*path)
		path = PROCESS_DEFAULT_PATH;
	while (*path) {
		size_t n = strcspn(path, ":");

		if (n && snprintf(buf, size, "%.*s/%s", (int)n, path,
				  program) < (int)size &&
		    access(buf, X_OK) == 0)
			return 0;
		path += n + (path[n] == ':');
	}
	return -ENOENT;
}

static int mem_total_kib(unsigned long long *ret)
{
	_cleanup_free_ char *text = NULL;
	const char *p;
	int r;

	r = read_file_max("/proc/meminfo", &text, 1 << 16);
	if (r < 0)
		return r;
	p = strstr(text, "MemTotal:");
	if (!p || sscanf(p, "MemTotal: %llu kB", ret) != 1)
		return -EBADMSG;
	return 0;
}

int memusage_key_now(const char *program, struct memusage_key *ret)
{
	struct memusage_key k = { 0 };
	struct utsname u;
	struct stat st;
	int r;

	if (uname(&u) < 0)
		return -errno;
	snprintf(k.release, sizeof(k.release), "%s", u.release);
	r = find_program(program ? program : "makedumpfile", k.tool,
			 sizeof(k.tool));
	if (r < 0)
		return r;
	if (stat(k.tool, &st) < 0)
		return -errno;
	k.tool_size = st.st_size;
	k.tool_mtime = st.st_mtime;
	r = mem_total_kib(&k.mem_total_kib);
	if (r < 0)
		return r;
	*ret = k;
	return 0;
}

static bool key_equal(const struct memusage_key *a,
		      const struct memusage_key *b)
{
	return strcmp(a->release, b->release) == 0 &&
	       strcmp(a->tool, b->tool) == 0 && a->tool_size == b->tool_size &&
	       a->tool_mtime == b->tool_mtime &&
	       a->mem_total_kib == b->mem_total_kib;
}

int memusage_cache_write(const char *path, const struct memusage_entry *e)
{
	struct json_object *o, *pages = NULL;
	int r = -ENOMEM;

	o = json_object_new_object();
	if (!o)
		return -ENOMEM;
	if (json_set_text(o, "release", e->key.release) < 0 ||
	    json_set_text(o, "makedumpfile", e->key.tool) < 0 ||
	    json_set_int(o, "makedumpfile_size", e->key.tool_size) < 0 ||
	    json_set_int(o, "makedumpfile_mtime", e->key.tool_mtime) < 0 ||
	    json_set_int(o, "mem_total_kib",
			 (long long)e->key.mem_total_kib) < 0 ||
	    json_set_text(o, "version", e->version) < 0 ||
	    json_set_int(o, "error", -e->error) < 0 ||
	    json_set_text(o, "why", e->why) < 0)
		goto out;
	if (e->error == 0) {
		pages = json_object_new_object();
		if (!pages)
			goto out;
		for (unsigned int i = 0; i < MEMUSAGE_TYPES; i++)
			if (e->m.has[i] &&
			    json_set_int(pages, type_names[i],
					 (long long)e->m.pages[i]) < 0)
				goto out;
		if (json_object_object_add(o, "pages", pages) < 0)
			goto out;
		pages = NULL;
		if (json_set_int(o, "total_pages",
				 (long long)e->m.total_pages) < 0 ||
		    json_set_int(o, "page_size",
				 (long long)e->m.page_size) < 0 ||
		    json_set_bool(o, "kernel_unsupported",
				  e->m.kernel_unsupported) < 0)
			goto out;
	}
	r = json_write_atomic(path, o, 0600);
out:
	json_object_put(pages);
	json_object_put(o);
	return r;
}

/* A non-negative integer at key of o, or -EBADMSG. */
static int get_count(struct json_object *o, const char *key,
		     unsigned long long *ret)
{
	struct json_object *v;
	int64_t n;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_int))
		return -EBADMSG;
	n = json_object_get_int64(v);
	if (n < 0)
		return -EBADMSG;
	*ret = (unsigned long long)n;
	return 0;
}

static int get_text(struct json_object *o, const char *key, char *buf,
		    size_t size)
{
	struct json_object *v;
	const char *s;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return -EBADMSG;
	s = json_object_get_string(v);
	if (strlen(s) >= size)
		return -EBADMSG;
	snprintf(buf, size, "%s", s);
	return 0;
}

static int entry_from_json(struct json_object *o, struct memusage_entry *e)
{
	unsigned long long v, err;
	struct json_object *pages, *b;

	if (!json_object_is_type(o, json_type_object))
		return -EBADMSG;
	if (get_text(o, "release", e->key.release, sizeof(e->key.release)) < 0 ||
	    get_text(o, "makedumpfile", e->key.tool, sizeof(e->key.tool)) < 0 ||
	    get_text(o, "version", e->version, sizeof(e->version)) < 0 ||
	    get_text(o, "why", e->why, sizeof(e->why)) < 0 ||
	    get_count(o, "makedumpfile_size", &v) < 0)
		return -EBADMSG;
	e->key.tool_size = (long long)v;
	if (get_count(o, "makedumpfile_mtime", &v) < 0)
		return -EBADMSG;
	e->key.tool_mtime = (long long)v;
	if (get_count(o, "mem_total_kib", &e->key.mem_total_kib) < 0 ||
	    get_count(o, "error", &err) < 0 || err > 4095)
		return -EBADMSG;
	e->error = -(int)err;
	if (e->error)
		return 0;
	if (!json_object_object_get_ex(o, "pages", &pages) ||
	    !json_object_is_type(pages, json_type_object))
		return -EBADMSG;
	for (unsigned int i = 0; i < MEMUSAGE_TYPES; i++) {
		if (!json_object_object_get_ex(pages, type_names[i], NULL))
			continue;
		if (get_count(pages, type_names[i], &e->m.pages[i]) < 0)
			return -EBADMSG;
		e->m.has[i] = true;
	}
	if (get_count(o, "total_pages", &e->m.total_pages) < 0 ||
	    get_count(o, "page_size", &e->m.page_size) < 0 ||
	    !json_object_object_get_ex(o, "kernel_unsupported", &b) ||
	    !json_object_is_type(b, json_type_boolean))
		return -EBADMSG;
	e->m.kernel_unsupported = json_object_get_boolean(b);
	return memusage_check(&e->m);
}

int memusage_cache_read(const char *path, const struct memusage_key *key,
			struct memusage_entry *ret)
{
	_cleanup_free_ char *text = NULL;
	struct memusage_entry e = { 0 };
	struct json_object *o;
	int r;

	r = read_file_max(path, &text, 1 << 16);
	if (r < 0)
		return r == -EFBIG ? -EBADMSG : r;
	o = json_tokener_parse(text);
	if (!o)
		return -EBADMSG;
	r = entry_from_json(o, &e);
	json_object_put(o);
	if (r < 0)
		return r;
	if (!key_equal(&e.key, key))
		return -ESTALE;
	*ret = e;
	return 0;
}
