// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <json-c/json.h>
#include <libkmod.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modload.h"

struct modload {
	struct kmod_ctx *ctx;
};

int modload_new(const char *moddir, struct modload **ret)
{
	return modload_new_config(moddir, NULL, ret);
}

int modload_new_config(const char *moddir, const char *const *config,
		       struct modload **ret)
{
	struct modload *m;
	int r;

	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->ctx = kmod_new(moddir, config);
	if (!m->ctx) {
		free(m);
		return -ENOMEM;
	}
	/* No modules.*.bin (a kernel without modules) is not an error. */
	r = kmod_load_resources(m->ctx);
	(void)r;
	*ret = m;
	return 0;
}

void modload_free(struct modload *m)
{
	if (!m)
		return;
	kmod_unref(m->ctx);
	free(m);
}

/* The names of what mod needs, space-separated, in buf ("" if none). */
static void deps_text(struct kmod_module *mod, char *buf, size_t size)
{
	struct kmod_list *deps, *l;
	size_t pos = 0;

	buf[0] = '\0';
	deps = kmod_module_get_dependencies(mod);
	kmod_list_foreach(l, deps) {
		struct kmod_module *d = kmod_module_get_module(l);
		int n = snprintf(buf + pos, size - pos, "%s%s", pos ? " " : "",
				 kmod_module_get_name(d));

		if (n > 0 && (size_t)n < size - pos)
			pos += n;
		kmod_module_unref(d);
	}
	kmod_module_unref_list(deps);
}

enum modload_state modload_lookup(struct modload *m, const char *name,
				  char *ret_name, size_t size, char *ret_deps,
				  size_t deps_size)
{
	struct kmod_list *list = NULL;
	struct kmod_module *mod;
	enum modload_state s;

	if (kmod_module_new_from_lookup(m->ctx, name, &list) < 0 || !list)
		return MODLOAD_MISSING;
	mod = kmod_module_get_module(list);
	kmod_module_unref_list(list);
	/*
	 * Built in: in modules.builtin (libkmod reports it so for a module
	 * that is not loaded); a module: it has a path in modules.dep.
	 */
	if (kmod_module_get_initstate(mod) == KMOD_MODULE_BUILTIN)
		s = MODLOAD_BUILTIN;
	else if (kmod_module_get_path(mod))
		s = MODLOAD_MODULE;
	else
		s = MODLOAD_MISSING;
	/* Nothing of a module that is missing: the buffers stay as given. */
	if (s != MODLOAD_MISSING && ret_name && size)
		snprintf(ret_name, size, "%s", kmod_module_get_name(mod));
	if (s == MODLOAD_MODULE && ret_deps && deps_size)
		deps_text(mod, ret_deps, deps_size);
	else if (s == MODLOAD_BUILTIN && ret_deps && deps_size)
		ret_deps[0] = '\0';
	kmod_module_unref(mod);
	return s;
}

/* Module names: '-' and '_' are the same (as in kmod). */
static bool same_name(const char *a, const char *b);

/*
 * Whether modules.builtin names name's file under dir: libkmod gives a
 * built-in module no path, and modules.builtin (the kernel build's list,
 * "kernel/drivers/watchdog/i6300esb.ko") is where it is said.
 */
static bool builtin_under(struct modload *m, const char *name,
			  const char *dir)
{
	char path[PATH_MAX], line[PATH_MAX];
	size_t dl = strlen(dir);
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/modules.builtin",
		 kmod_get_dirname(m->ctx));
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *base;
		size_t len;

		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, dir, dl) != 0)
			continue;
		base = strrchr(line, '/') + 1;
		len = strlen(base);
		if (len < 3 || strcmp(base + len - 3, ".ko") != 0)
			continue;
		base[len - 3] = '\0';
		found = same_name(base, name);
	}
	fclose(f);
	return found;
}

/* Whether mod's file, loadable or built in, lies under dir. */
static enum modload_state module_under(struct modload *m,
				       struct kmod_module *mod,
				       const char *dir)
{
	const char *top = kmod_get_dirname(m->ctx), *path;
	size_t tl = strlen(top);

	if (kmod_module_get_initstate(mod) == KMOD_MODULE_BUILTIN)
		return builtin_under(m, kmod_module_get_name(mod), dir) ?
			       MODLOAD_BUILTIN : MODLOAD_MISSING;
	path = kmod_module_get_path(mod);
	if (path && strncmp(path, top, tl) == 0 && path[tl] == '/' &&
	    strncmp(path + tl + 1, dir, strlen(dir)) == 0)
		return MODLOAD_MODULE;
	return MODLOAD_MISSING;
}

enum modload_state modload_lookup_under(struct modload *m, const char *alias,
					const char *dir, char *ret_name,
					size_t size)
{
	struct kmod_list *list = NULL, *l;
	enum modload_state s = MODLOAD_MISSING;
	char name[64];

	if (kmod_module_new_from_lookup(m->ctx, alias, &list) < 0 || !list)
		return MODLOAD_MISSING;
	kmod_list_foreach(l, list) {
		struct kmod_module *mod = kmod_module_get_module(l);
		enum modload_state st = module_under(m, mod, dir);
		const char *n = kmod_module_get_name(mod);

		if (st != MODLOAD_MISSING && strlen(n) < sizeof(name) &&
		    (s == MODLOAD_MISSING || strcmp(n, name) < 0)) {
			s = st;
			snprintf(name, sizeof(name), "%s", n);
		}
		kmod_module_unref(mod);
	}
	kmod_module_unref_list(list);
	if (s != MODLOAD_MISSING && ret_name && size)
		snprintf(ret_name, size, "%s", name);
	return s;
}

/* The modules of a plan being built, each once, in the order found. */
struct plan_set {
	struct kmod_module **mods;
	unsigned int n, cap;
	struct json_object *builtin;
};

static bool set_has(const struct plan_set *s, struct kmod_module *mod)
{
	for (unsigned int i = 0; i < s->n; i++)
		if (strcmp(kmod_module_get_name(s->mods[i]),
			   kmod_module_get_name(mod)) == 0)
			return true;
	return false;
}

static int set_add(struct plan_set *s, struct kmod_module *mod,
		   unsigned int depth);

static int set_add_list(struct plan_set *s, struct kmod_list *list,
			unsigned int depth)
{
	struct kmod_list *l;
	int r = 0;

	kmod_list_foreach(l, list) {
		struct kmod_module *d = kmod_module_get_module(l);

		if (r == 0)
			r = set_add(s, d, depth + 1);
		kmod_module_unref(d);
	}
	return r;
}

/* mod, what it depends on and its softdeps; built-in ones are not added. */
static int set_add(struct plan_set *s, struct kmod_module *mod,
		   unsigned int depth)
{
	struct kmod_list *deps, *pre = NULL, *post = NULL;
	int r;

	if (depth > 64)
		return -ELOOP;
	if (!kmod_module_get_path(mod) || set_has(s, mod))
		return 0;
	if (s->n == s->cap) {
		unsigned int cap = s->cap ? s->cap * 2 : 64;
		struct kmod_module **p = realloc(s->mods, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		s->mods = p;
		s->cap = cap;
	}
	/* In the set before its softdeps, which may name it again. */
	s->mods[s->n++] = kmod_module_ref(mod);
	deps = kmod_module_get_dependencies(mod);
	r = set_add_list(s, deps, depth);
	kmod_module_unref_list(deps);
	if (r == 0 && kmod_module_get_softdeps(mod, &pre, &post) == 0) {
		r = set_add_list(s, pre, depth);
		if (r == 0)
			r = set_add_list(s, post, depth);
		kmod_module_unref_list(pre);
		kmod_module_unref_list(post);
	}
	return r;
}

static int add_name(struct json_object *a, const char *name)
{
	struct json_object *v = json_object_new_string(name);

	if (!v || json_object_array_add(a, v) < 0) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

/* A list of the modules of list that the plan holds (not built in). */
static int names_of(struct kmod_list *list, struct json_object **ret)
{
	struct json_object *a = json_object_new_array();
	struct kmod_list *l;
	int r = 0;

	if (!a)
		return -ENOMEM;
	kmod_list_foreach(l, list) {
		struct kmod_module *d = kmod_module_get_module(l);

		if (r == 0 && kmod_module_get_path(d))
			r = add_name(a, kmod_module_get_name(d));
		kmod_module_unref(d);
	}
	if (r < 0) {
		json_object_put(a);
		return r;
	}
	*ret = a;
	return 0;
}

static int put_key(struct json_object *o, const char *key,
		   struct json_object *v)
{
	if (!v || json_object_object_add(o, key, v) < 0) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

/* Module names: '-' and '_' are the same (as in kmod). */
static bool same_name(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (*a != *b && !((*a == '-' || *a == '_') &&
				  (*b == '-' || *b == '_')))
			return false;
	return *a == *b;
}

/*
 * The alias patterns of mod: modprobe.d's "alias" lines naming it, which
 * libkmod looks up first, and its .modinfo's.
 */
static int aliases_of(struct modload *m, struct kmod_module *mod,
		      struct json_object **ret)
{
	struct json_object *a = json_object_new_array();
	struct kmod_list *info = NULL, *l;
	struct kmod_config_iter *it;
	int r = 0;

	if (!a)
		return -ENOMEM;
	it = kmod_config_get_aliases(m->ctx);
	while (it && r == 0 && kmod_config_iter_next(it))
		if (same_name(kmod_config_iter_get_value(it),
			      kmod_module_get_name(mod)))
			r = add_name(a, kmod_config_iter_get_key(it));
	kmod_config_iter_free_iter(it);
	if (kmod_module_get_info(mod, &info) < 0)
		info = NULL;
	kmod_list_foreach(l, info) {
		if (r == 0 && strcmp(kmod_module_info_get_key(l), "alias") == 0)
			r = add_name(a, kmod_module_info_get_value(l));
	}
	kmod_module_info_free_list(info);
	if (r < 0) {
		json_object_put(a);
		return r;
	}
	*ret = a;
	return 0;
}

static int module_json(struct modload *m, struct kmod_module *mod,
		       struct json_object **ret)
{
	const char *dir = kmod_get_dirname(m->ctx);
	const char *path = kmod_module_get_path(mod);
	const char *options = kmod_module_get_options(mod);
	struct kmod_list *deps, *pre = NULL, *post = NULL;
	struct json_object *o = json_object_new_object(), *v = NULL;
	size_t n = strlen(dir);
	int r;

	if (!o)
		return -ENOMEM;
	/* modules.dep's paths are relative to the module directory. */
	if (strncmp(path, dir, n) == 0 && path[n] == '/')
		path += n + 1;
	r = put_key(o, "name", json_object_new_string(kmod_module_get_name(mod)));
	if (r == 0)
		r = put_key(o, "path", json_object_new_string(path));
	deps = kmod_module_get_dependencies(mod);
	if (r == 0)
		r = names_of(deps, &v);
	kmod_module_unref_list(deps);
	if (r == 0)
		r = put_key(o, "deps", v);
	if (r == 0 && kmod_module_get_softdeps(mod, &pre, &post) < 0)
		pre = post = NULL;
	if (r == 0 && (r = names_of(pre, &v)) == 0)
		r = put_key(o, "pre", v);
	if (r == 0 && (r = names_of(post, &v)) == 0)
		r = put_key(o, "post", v);
	kmod_module_unref_list(pre);
	kmod_module_unref_list(post);
	if (r == 0)
		r = put_key(o, "options",
			    json_object_new_string(options ? options : ""));
	if (r == 0 && (r = aliases_of(m, mod, &v)) == 0)
		r = put_key(o, "aliases", v);
	if (r < 0) {
		json_object_put(o);
		return r;
	}
	*ret = o;
	return 0;
}

static int builtin_json(struct plan_set *s, const char *name,
			struct kmod_module *mod)
{
	struct json_object *o = json_object_new_object();
	int r;

	if (!o)
		return -ENOMEM;
	r = put_key(o, "name", json_object_new_string(name));
	if (r == 0)
		r = put_key(o, "module",
			    json_object_new_string(kmod_module_get_name(mod)));
	if (r == 0 && json_object_array_add(s->builtin, o) < 0)
		r = -ENOMEM;
	if (r < 0)
		json_object_put(o);
	return r;
}

/* A file finit_module(2) takes as it is: a plain .ko, not compressed. */
static bool plain_ko(const char *path)
{
	size_t n = strlen(path);

	return n > 3 && strcmp(path + n - 3, ".ko") == 0;
}

static int plan_build(struct modload *m, struct plan_set *s,
		      const char *const *names, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		struct kmod_list *list = NULL, *l;
		int r = 0;

		if (kmod_module_new_from_lookup(m->ctx, names[i], &list) < 0)
			continue;
		kmod_list_foreach(l, list) {
			struct kmod_module *mod = kmod_module_get_module(l);

			if (r == 0 && kmod_module_get_path(mod))
				r = set_add(s, mod, 0);
			else if (r == 0)
				r = builtin_json(s, names[i], mod);
			kmod_module_unref(mod);
		}
		kmod_module_unref_list(list);
		if (r < 0)
			return r;
	}
	return 0;
}

int modload_plan(struct modload *m, const char *release,
		 const char *const *names, unsigned int n, char **ret_text,
		 char *ret_module, size_t module_size)
{
	struct plan_set s = { 0 };
	struct json_object *top = json_object_new_object(), *mods, *o;
	char *text = NULL;
	int r;

	mods = json_object_new_array();
	s.builtin = json_object_new_array();
	r = top ? 0 : -ENOMEM;
	if (r == 0)
		r = put_key(top, "release", json_object_new_string(release));
	if (r == 0)
		r = put_key(top, "modules", mods);
	else
		json_object_put(mods);
	if (r == 0)
		r = put_key(top, "builtin", s.builtin);
	else
		json_object_put(s.builtin);
	if (r == 0)
		r = plan_build(m, &s, names, n);
	for (unsigned int i = 0; i < s.n && r == 0; i++) {
		if (!plain_ko(kmod_module_get_path(s.mods[i]))) {
			if (ret_module && module_size)
				snprintf(ret_module, module_size, "%s",
					 kmod_module_get_name(s.mods[i]));
			r = -ENOEXEC;
			break;
		}
		r = module_json(m, s.mods[i], &o);
		if (r == 0 && json_object_array_add(mods, o) < 0) {
			json_object_put(o);
			r = -ENOMEM;
		}
	}
	if (r == 0) {
		/* One line: a driver can have hundreds of aliases. */
		text = strdup(json_object_to_json_string_ext(
			top, JSON_C_TO_STRING_PLAIN |
				     JSON_C_TO_STRING_NOSLASHESCAPE));
		if (!text)
			r = -ENOMEM;
	}
	for (unsigned int i = 0; i < s.n; i++)
		kmod_module_unref(s.mods[i]);
	free(s.mods);
	json_object_put(top);
	if (r == 0)
		*ret_text = text;
	return r;
}
