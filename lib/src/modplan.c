// SPDX-License-Identifier: GPL-2.0
/*
 * The module plan's reader and executor (modplan.h): the capture's module
 * loading without libkmod.  The plan comes from the initramfs, which the
 * loader wrote, but is parsed as if hostile all the same: bounded sizes,
 * every name and path checked, every list resolved before use.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <ftw.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "modplan.h"
#include "util.h"

#define NAME_MAX_LEN 63		/* MODULE_NAME_LEN - 1 (linux/module.h) */
#define ALIAS_MAX_LEN 255
#define OPTIONS_MAX_LEN 4096
#define RELEASE_MAX_LEN 64	/* __NEW_UTS_LEN (utsname.h) */
#define MAX_TRIED 4096
/* How deep softdeps may nest: more is a loop the plan should not have. */
#define MAX_DEPTH 64

struct mp_module {
	char *name, *path, *options;
	unsigned int *deps, n_deps;
	unsigned int *pre, n_pre;
	unsigned int *post, n_post;
	char **aliases;
	unsigned int n_aliases;
	/* Inserted by us, or found in the kernel: never tried again. */
	bool done;
	/* The probe list being built: expanded, and appended. */
	unsigned int expanded, appended;
};

struct mp_builtin {
	char *name, *module;
};

struct modplan {
	char release[RELEASE_MAX_LEN + 1];
	struct mp_module *mods;
	unsigned int n_mods;
	struct mp_builtin *builtin;
	unsigned int n_builtin;

	char moddir[PATH_MAX];
	const struct modplan_ops *ops;

	/* One probe: its list of modules in load order, and its stamp. */
	unsigned int *order, n_order, gen;

	char *loaded;		/* "a b c" */
	size_t loaded_len;
	unsigned int failures;
	char last_failed[NAME_MAX_LEN + 1];
	int last_errno;
	char *tried[MAX_TRIED];	/* aliases already tried by coldplug */
	unsigned int n_tried;
	char **found;		/* the current round's aliases */
	unsigned int n_found, cap_found;
};

static int kernel_insert(void *data, const char *name, int fd,
			 const char *options)
{
	(void)data;
	(void)name;
	/* glibc 2.36 has no wrapper for it. */
	if (syscall(SYS_finit_module, fd, options, 0) < 0)
		return -errno;
	return 0;
}

static bool kernel_present(void *data, const char *name)
{
	char path[PATH_MAX];

	(void)data;
	snprintf(path, sizeof(path), "/sys/module/%s", name);
	return access(path, F_OK) == 0;
}

const struct modplan_ops modplan_kernel_ops = {
	.insert = kernel_insert,
	.present = kernel_present,
};

/*
 * libkmod's alias_normalize(): '-' and '_' are the same in module names
 * and aliases, except inside a bracket expression of a pattern.
 */
static void normalize(char *s)
{
	bool in_bracket = false;

	for (; *s; s++) {
		if (*s == '[')
			in_bracket = true;
		else if (*s == ']')
			in_bracket = false;
		else if (*s == '-' && !in_bracket)
			*s = '_';
	}
}

static bool is_name(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > NAME_MAX_LEN)
		return false;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789_-") == n;
}

/* Relative, no "..", no empty part, a plain .ko (finit_module as is). */
static bool is_module_path(const char *s)
{
	size_t n = strlen(s);
	const char *p;

	if (n < 4 || n >= 1024 || s[0] == '/' || strcmp(s + n - 3, ".ko"))
		return false;
	if (strstr(s, "//"))
		return false;
	for (p = s; p; p = strchr(p, '/')) {
		if (*p == '/')
			p++;
		if (strncmp(p, "..", 2) == 0 && (p[2] == '/' || p[2] == '\0'))
			return false;
	}
	return true;
}

/* A printable string of 1..max bytes without NULs inside, copied. */
static int get_text(struct json_object *o, size_t max, bool may_be_empty,
		    char **ret)
{
	const char *s;
	size_t n;

	if (!o || !json_object_is_type(o, json_type_string))
		return -EINVAL;
	s = json_object_get_string(o);
	n = (size_t)json_object_get_string_len(o);
	if (strlen(s) != n || n > max || (n == 0 && !may_be_empty))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return -EINVAL;
	*ret = strdup(s);
	return *ret ? 0 : -ENOMEM;
}

static int find_module(const struct modplan *p, const char *name)
{
	for (unsigned int i = 0; i < p->n_mods; i++)
		if (strcmp(p->mods[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* A list of module names (absent: empty) as indices into p->mods. */
static int get_refs(const struct modplan *p, struct json_object *mod,
		    const char *key, unsigned int **ret, unsigned int *ret_n)
{
	struct json_object *a;
	unsigned int *refs, n;

	if (!json_object_object_get_ex(mod, key, &a)) {
		*ret = NULL;
		*ret_n = 0;
		return 0;
	}
	if (!json_object_is_type(a, json_type_array) ||
	    json_object_array_length(a) > MODPLAN_MAX_LIST)
		return -EINVAL;
	n = (unsigned int)json_object_array_length(a);
	refs = calloc(n ? n : 1, sizeof(*refs));
	if (!refs)
		return -ENOMEM;
	for (unsigned int i = 0; i < n; i++) {
		char *name = NULL;
		int r = get_text(json_object_array_get_idx(a, i), NAME_MAX_LEN,
				 false, &name), k;

		if (r == 0 && !is_name(name))
			r = -EINVAL;
		if (r == 0) {
			normalize(name);
			k = find_module(p, name);
			if (k < 0)
				r = -EINVAL;
			else
				refs[i] = (unsigned int)k;
		}
		free(name);
		if (r < 0) {
			free(refs);
			return r;
		}
	}
	*ret = refs;
	*ret_n = n;
	return 0;
}

/* A module's own fields: name, path, options, aliases. */
static int parse_module(struct modplan *p, struct json_object *o,
			struct mp_module *m)
{
	struct json_object *v = NULL, *a;
	int r;

	if (!json_object_is_type(o, json_type_object))
		return -EINVAL;
	json_object_object_get_ex(o, "name", &v);
	r = get_text(v, NAME_MAX_LEN, false, &m->name);
	if (r < 0)
		return r;
	if (!is_name(m->name))
		return -EINVAL;
	normalize(m->name);
	if (find_module(p, m->name) >= 0)
		return -EINVAL;
	v = NULL;
	json_object_object_get_ex(o, "path", &v);
	r = get_text(v, 1023, false, &m->path);
	if (r < 0)
		return r;
	if (!is_module_path(m->path))
		return -EINVAL;
	if (json_object_object_get_ex(o, "options", &v))
		r = get_text(v, OPTIONS_MAX_LEN, true, &m->options);
	else
		r = (m->options = strdup("")) ? 0 : -ENOMEM;
	if (r < 0)
		return r;
	if (!json_object_object_get_ex(o, "aliases", &a))
		return 0;
	if (!json_object_is_type(a, json_type_array) ||
	    json_object_array_length(a) > MODPLAN_MAX_LIST)
		return -EINVAL;
	m->aliases = calloc(json_object_array_length(a) + 1,
			    sizeof(*m->aliases));
	if (!m->aliases)
		return -ENOMEM;
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		r = get_text(json_object_array_get_idx(a, i), ALIAS_MAX_LEN,
			     false, &m->aliases[m->n_aliases]);
		if (r < 0)
			return r;
		normalize(m->aliases[m->n_aliases++]);
	}
	return 0;
}

static int parse_builtin(struct modplan *p, struct json_object *top)
{
	struct json_object *a;
	size_t n;

	if (!json_object_object_get_ex(top, "builtin", &a))
		return 0;
	if (!json_object_is_type(a, json_type_array) ||
	    json_object_array_length(a) > MODPLAN_MAX_MODULES)
		return -EINVAL;
	n = json_object_array_length(a);
	p->builtin = calloc(n + 1, sizeof(*p->builtin));
	if (!p->builtin)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(a, i), *v = NULL;
		struct mp_builtin *b = &p->builtin[p->n_builtin];
		int r;

		if (!json_object_is_type(o, json_type_object))
			return -EINVAL;
		p->n_builtin++;
		json_object_object_get_ex(o, "name", &v);
		r = get_text(v, ALIAS_MAX_LEN, false, &b->name);
		if (r < 0)
			return r;
		normalize(b->name);
		v = NULL;
		json_object_object_get_ex(o, "module", &v);
		r = get_text(v, NAME_MAX_LEN, false, &b->module);
		if (r < 0)
			return r;
		if (!is_name(b->module))
			return -EINVAL;
		normalize(b->module);
	}
	return 0;
}

static int parse_top(struct modplan *p, struct json_object *top)
{
	struct json_object *v = NULL, *a;
	char *release = NULL;
	size_t n;
	int r;

	if (!json_object_is_type(top, json_type_object))
		return -EINVAL;
	json_object_object_get_ex(top, "release", &v);
	r = get_text(v, RELEASE_MAX_LEN, false, &release);
	if (r < 0)
		return r;
	/* It names a directory under /lib/modules. */
	if (strchr(release, '/') || strcmp(release, ".") == 0 ||
	    strcmp(release, "..") == 0) {
		free(release);
		return -EINVAL;
	}
	snprintf(p->release, sizeof(p->release), "%s", release);
	free(release);
	snprintf(p->moddir, sizeof(p->moddir), "/lib/modules/%s", p->release);

	if (!json_object_object_get_ex(top, "modules", &a) ||
	    !json_object_is_type(a, json_type_array) ||
	    json_object_array_length(a) > MODPLAN_MAX_MODULES)
		return -EINVAL;
	n = json_object_array_length(a);
	p->mods = calloc(n + 1, sizeof(*p->mods));
	p->order = calloc(n + 1, sizeof(*p->order));
	if (!p->mods || !p->order)
		return -ENOMEM;
	/* The names first: the lists may name modules further on. */
	for (size_t i = 0; i < n; i++) {
		r = parse_module(p, json_object_array_get_idx(a, i),
				 &p->mods[p->n_mods]);
		p->n_mods++;
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		struct mp_module *m = &p->mods[i];

		r = get_refs(p, o, "deps", &m->deps, &m->n_deps);
		if (r == 0)
			r = get_refs(p, o, "pre", &m->pre, &m->n_pre);
		if (r == 0)
			r = get_refs(p, o, "post", &m->post, &m->n_post);
		if (r < 0)
			return r;
	}
	return parse_builtin(p, top);
}

void modplan_free(struct modplan *p)
{
	if (!p)
		return;
	for (unsigned int i = 0; i < p->n_mods; i++) {
		struct mp_module *m = &p->mods[i];

		free(m->name);
		free(m->path);
		free(m->options);
		free(m->deps);
		free(m->pre);
		free(m->post);
		for (unsigned int k = 0; k < m->n_aliases; k++)
			free(m->aliases[k]);
		free(m->aliases);
	}
	free(p->mods);
	for (unsigned int i = 0; i < p->n_builtin; i++) {
		free(p->builtin[i].name);
		free(p->builtin[i].module);
	}
	free(p->builtin);
	free(p->order);
	free(p->loaded);
	for (unsigned int i = 0; i < p->n_tried; i++)
		free(p->tried[i]);
	for (unsigned int i = 0; i < p->n_found; i++)
		free(p->found[i]);
	free(p->found);
	free(p);
}

int modplan_parse(const char *text, size_t len, struct modplan **ret)
{
	struct json_tokener *tok;
	struct json_object *top;
	struct modplan *p;
	int r;

	if (len > MODPLAN_MAX_BYTES || len > INT_MAX)
		return -EINVAL;
	/* Nesting deeper than a plan's (object, list, object, list) is not one. */
	tok = json_tokener_new_ex(8);
	if (!tok)
		return -ENOMEM;
	top = json_tokener_parse_ex(tok, text, (int)len);
	r = json_tokener_get_error(tok) == json_tokener_success && top ? 0 :
									 -EINVAL;
	/* Nothing but white space may follow the document. */
	if (r == 0)
		for (size_t i = json_tokener_get_parse_end(tok); i < len; i++)
			if (!text[i] || !strchr(" \t\r\n", text[i]))
				r = -EINVAL;
	json_tokener_free(tok);
	if (r < 0) {
		json_object_put(top);
		return r;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		json_object_put(top);
		return -ENOMEM;
	}
	p->ops = &modplan_kernel_ops;
	r = parse_top(p, top);
	json_object_put(top);
	if (r < 0) {
		modplan_free(p);
		return r;
	}
	*ret = p;
	return 0;
}

int modplan_read(const char *path, struct modplan **ret)
{
	char *text = NULL;
	int n, r;

	n = read_file_max(path, &text, MODPLAN_MAX_BYTES);
	if (n < 0)
		return n;
	r = modplan_parse(text, (size_t)n, ret);
	free(text);
	return r;
}

const char *modplan_release(const struct modplan *p)
{
	return p->release;
}

unsigned int modplan_count(const struct modplan *p)
{
	return p->n_mods;
}

const char *modplan_name(const struct modplan *p, unsigned int i)
{
	return i < p->n_mods ? p->mods[i].name : NULL;
}

const char *modplan_path(const struct modplan *p, unsigned int i)
{
	return i < p->n_mods ? p->mods[i].path : NULL;
}

int modplan_set_exec(struct modplan *p, const char *moddir,
		     const struct modplan_ops *ops)
{
	if (moddir) {
		if (strlen(moddir) >= sizeof(p->moddir))
			return -ENAMETOOLONG;
		snprintf(p->moddir, sizeof(p->moddir), "%s", moddir);
	}
	p->ops = ops ? ops : &modplan_kernel_ops;
	return 0;
}

static void note_loaded(struct modplan *p, const char *name)
{
	size_t n = strlen(name);
	char *s = realloc(p->loaded, p->loaded_len + n + 2);

	if (!s)
		return;
	p->loaded = s;
	if (p->loaded_len)
		s[p->loaded_len++] = ' ';
	memcpy(s + p->loaded_len, name, n + 1);
	p->loaded_len += n;
}

static int probe_list(struct modplan *p, unsigned int i, unsigned int depth);

/* libkmod's __kmod_module_fill_softdep(): pre, the module, post. */
static int fill(struct modplan *p, unsigned int i, unsigned int depth)
{
	struct mp_module *m = &p->mods[i];
	int r;

	for (unsigned int k = 0; k < m->n_pre; k++) {
		r = probe_list(p, m->pre[k], depth + 1);
		if (r < 0)
			return r;
	}
	if (m->appended != p->gen) {
		m->appended = p->gen;
		p->order[p->n_order++] = i;
	}
	for (unsigned int k = 0; k < m->n_post; k++) {
		r = probe_list(p, m->post[k], depth + 1);
		if (r < 0)
			return r;
	}
	return 0;
}

/*
 * libkmod's __kmod_module_get_probe_list(): each dependency (already in
 * load order, deepest first) with its softdeps, then the module with its.
 */
static int probe_list(struct modplan *p, unsigned int i, unsigned int depth)
{
	struct mp_module *m = &p->mods[i];
	int r;

	if (depth > MAX_DEPTH)
		return -ELOOP;
	if (m->expanded == p->gen)
		return 0;
	m->expanded = p->gen;
	for (unsigned int k = 0; k < m->n_deps; k++) {
		r = fill(p, m->deps[k], depth + 1);
		if (r < 0)
			return r;
	}
	return fill(p, i, depth);
}

static void failed(struct modplan *p, const char *name, int error)
{
	p->failures++;
	snprintf(p->last_failed, sizeof(p->last_failed), "%s", name);
	p->last_errno = error;
}

/* Insert one module of the plan, alone; 1 inserted, 0 there, or -errno. */
static int insert_one(struct modplan *p, struct mp_module *m)
{
	char path[PATH_MAX + 1024];
	int fd, r;

	if (m->done)
		return 0;
	if (p->ops->present(p->ops->data, m->name)) {
		m->done = true;
		return 0;
	}
	snprintf(path, sizeof(path), "%s/%s", p->moddir, m->path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = p->ops->insert(p->ops->data, m->name, fd, m->options);
	close(fd);
	if (r == -EEXIST) {
		m->done = true;
		return 0;
	}
	if (r < 0)
		return r;
	m->done = true;
	note_loaded(p, m->name);
	return 1;
}

/* Module k is i or one of its dependencies, not a softdep's. */
static bool required(const struct modplan *p, unsigned int i, unsigned int k)
{
	if (k == i)
		return true;
	for (unsigned int d = 0; d < p->mods[i].n_deps; d++)
		if (p->mods[i].deps[d] == k)
			return true;
	return false;
}

/* A module with everything it needs; the number inserted. */
static int probe(struct modplan *p, unsigned int i)
{
	int n = 0, r;

	p->gen++;
	p->n_order = 0;
	r = probe_list(p, i, 0);
	if (r < 0) {
		failed(p, p->mods[i].name, -r);
		return 0;
	}
	/*
	 * As libkmod's kmod_module_probe_insert_module(): the first failure
	 * of the module or a dependency ends the probe; a softdep's (and its
	 * own dependencies') is ignored.
	 */
	for (unsigned int k = 0; k < p->n_order; k++) {
		struct mp_module *m = &p->mods[p->order[k]];

		r = insert_one(p, m);
		if (r < 0 && required(p, i, p->order[k])) {
			failed(p, m->name, -r);
			break;
		}
		if (r > 0)
			n += r;
	}
	return n;
}

static bool is_builtin(const struct modplan *p, const char *name)
{
	for (unsigned int i = 0; i < p->n_builtin; i++)
		if (strcmp(p->builtin[i].name, name) == 0 ||
		    strcmp(p->builtin[i].module, name) == 0)
			return true;
	return false;
}

/* Insert what name resolves to; -ENOENT when nothing. */
static int insert_name(struct modplan *p, const char *given)
{
	char name[ALIAS_MAX_LEN + 1];
	bool found = false;
	int k, n = 0;

	if (strlen(given) > ALIAS_MAX_LEN)
		return -ENOENT;
	snprintf(name, sizeof(name), "%s", given);
	normalize(name);
	k = find_module(p, name);
	if (k >= 0)
		return probe(p, (unsigned int)k);
	if (is_builtin(p, name))
		return 0;
	/* An alias: every module with a pattern that matches, as libkmod. */
	for (unsigned int i = 0; i < p->n_mods; i++) {
		struct mp_module *m = &p->mods[i];

		for (unsigned int a = 0; a < m->n_aliases; a++) {
			if (fnmatch(m->aliases[a], name, 0) != 0)
				continue;
			found = true;
			n += probe(p, i);
			break;
		}
	}
	return found ? n : -ENOENT;
}

int modplan_insert(struct modplan *p, const char *name)
{
	return insert_name(p, name);
}

static struct modplan *walking;

static int collect(const char *path, const struct stat *st, int type,
		   struct FTW *ftw)
{
	char drv[PATH_MAX], buf[512];

	(void)st;
	if (type != FTW_F || strcmp(path + ftw->base, "modalias") != 0)
		return 0;
	/* A device that has its driver needs nothing more. */
	snprintf(drv, sizeof(drv), "%.*sdriver", ftw->base, path);
	if (access(drv, F_OK) == 0)
		return 0;
	if (read_line_file(path, buf, sizeof(buf)) < 0 || !buf[0])
		return 0;
	for (unsigned int i = 0; i < walking->n_tried; i++)
		if (strcmp(walking->tried[i], buf) == 0)
			return 0;
	for (unsigned int i = 0; i < walking->n_found; i++)
		if (strcmp(walking->found[i], buf) == 0)
			return 0;
	if (walking->n_found == walking->cap_found) {
		unsigned int cap = walking->cap_found ? walking->cap_found * 2 : 64;
		char **p = realloc(walking->found, cap * sizeof(*p));

		if (!p)
			return FTW_STOP;
		walking->found = p;
		walking->cap_found = cap;
	}
	walking->found[walking->n_found] = strdup(buf);
	if (!walking->found[walking->n_found])
		return FTW_STOP;
	walking->n_found++;
	return 0;
}

int modplan_coldplug_round(struct modplan *p, const char *sysfs_root)
{
	int loaded = 0, r;

	p->n_found = 0;
	walking = p;
	r = nftw(sysfs_root, collect, 32, FTW_PHYS | FTW_ACTIONRETVAL);
	walking = NULL;
	if (r < 0) {
		r = -errno;
		goto out;
	}
	for (unsigned int i = 0; i < p->n_found; i++) {
		int n = insert_name(p, p->found[i]);

		if (n > 0)
			loaded += n;
		if (p->n_tried < MAX_TRIED) {
			p->tried[p->n_tried++] = p->found[i];
			p->found[i] = NULL;
		}
	}
	r = loaded;
out:
	for (unsigned int i = 0; i < p->n_found; i++)
		free(p->found[i]);
	p->n_found = 0;
	return r;
}

const char *modplan_loaded(const struct modplan *p)
{
	return p->loaded ? p->loaded : "";
}

unsigned int modplan_failures(const struct modplan *p, const char **ret_name,
			      int *ret_errno)
{
	if (ret_name)
		*ret_name = p->last_failed;
	if (ret_errno)
		*ret_errno = p->last_errno;
	return p->failures;
}
