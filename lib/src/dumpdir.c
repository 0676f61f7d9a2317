// SPDX-License-Identifier: GPL-2.0
/*
 * The dump directory format.  A dump is made and committed the way
 * kdump-utils' kdump.sh does it, step for step durable: the directory
 * synced into its parent, the vmcore written under another name, synced,
 * renamed, and the rename synced; metadata.json through the one atomic
 * writer.  Everything is relative to directory descriptors opened without
 * following links: the target is a filesystem others may have written.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "dumpdir.h"
#include "json.h"
#include "util.h"

bool dump_name_valid(const char *name)
{
	static const char pat[] = "dddd-dd-dd-dd:dd:dd";
	size_t i;

	for (i = 0; pat[i]; i++) {
		if (pat[i] == 'd' ? (name[i] < '0' || name[i] > '9') :
				    name[i] != pat[i])
			return false;
	}
	if (name[i] == '\0')
		return true;
	if (name[i] != '-' || !name[i + 1])
		return false;
	for (i++; name[i]; i++)
		if (name[i] < '0' || name[i] > '9')
			return false;
	return true;
}

/* The most metadata.json dump_metadata_read() reads. */
#define DUMP_METADATA_MAX (1024 * 1024)

int dump_dir_create(int basefd, long long crash_time, mode_t mode,
		    char *ret_name, size_t size, int *ret_dirfd)
{
	char stem[DUMP_NAME_MAX], name[DUMP_NAME_MAX];
	_cleanup_close_ int fd = -1;
	time_t t = (time_t)crash_time;
	struct stat st;
	struct tm tm;

	if (size < DUMP_NAME_MAX)
		return -ENOBUFS;
	if (crash_time < 0 || (long long)t != crash_time ||
	    !gmtime_r(&t, &tm) ||
	    !strftime(stem, sizeof(stem), "%Y-%m-%d-%H:%M:%S", &tm) ||
	    !dump_name_valid(stem))
		return -EINVAL;
	/* mkdirat() never follows a link: a link named so is a name taken. */
	snprintf(name, sizeof(name), "%s", stem);
	for (unsigned int i = 1; mkdirat(basefd, name, mode & 07777) < 0; i++) {
		if (errno != EEXIST)
			return -errno;
		if (i > DUMP_NAME_SUFFIX_MAX)
			return -EEXIST;
		if (path_format(name, sizeof(name), "%s-%u", stem, i) < 0)
			return -ENAMETOOLONG;
	}
	/* What was made just now, unless someone swapped it already. */
	fd = openat(basefd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
				       O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (st.st_uid != geteuid())
		return -EPERM;
	/* Exactly mode, whatever the umask took away. */
	if ((st.st_mode & 07777) != (mode & 07777) &&
	    fchmod(fd, mode & 07777) < 0)
		return -errno;
	if (fsync(basefd) < 0 && errno != EINVAL)
		return -errno;
	memcpy(ret_name, name, strlen(name) + 1);
	*ret_dirfd = TAKE_FD(fd);
	return 0;
}

int dump_vmcore_commit(int dirfd)
{
	_cleanup_close_ int fd = -1;

	fd = openat(dirfd, DUMP_VMCORE_INCOMPLETE,
		    O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fchmod(fd, 0600) < 0 || fsync(fd) < 0)
		return -errno;
	if (renameat(dirfd, DUMP_VMCORE_INCOMPLETE, dirfd, DUMP_VMCORE) < 0)
		return -errno;
	if (fsync(dirfd) < 0 && errno != EINVAL)
		return -errno;
	return 0;
}

void dump_metadata_init(struct dump_metadata *m)
{
	memset(m, 0, sizeof(*m));
	m->crash_time = -1;
	m->dump_level = -1;
	m->vmcore_bytes = -1;
	m->dmesg_bytes = -1;
}

static int hook_json(const struct dump_meta_hook *h, struct json_object **ret)
{
	struct json_object *o = json_object_new_object();
	int r = o ? 0 : -ENOMEM;

	if (r == 0)
		r = json_set_text(o, "phase", h->phase);
	if (r == 0)
		r = json_set_text(o, "path", h->path);
	if (r == 0)
		r = json_set_int(o, "exit", h->exit);
	if (r == 0)
		r = json_set_bool(o, "timed_out", h->timed_out);
	if (r == 0)
		r = json_set_double(o, "seconds", h->seconds);
	if (r == 0)
		r = json_set_bool(o, "failed", h->failed);
	if (r == 0)
		r = json_set_text(o, "result", h->result);
	if (r < 0) {
		json_object_put(o);
		return r;
	}
	*ret = o;
	return 0;
}

static int module_json(const struct dump_meta_module *mod,
		       struct json_object **ret)
{
	struct json_object *o = json_object_new_object();
	int r = o ? 0 : -ENOMEM;

	if (r == 0)
		r = json_set_text(o, "name", mod->name);
	if (r == 0)
		r = json_set_bool(o, "loaded", mod->loaded);
	if (r == 0)
		r = json_set_text(o, "error", mod->error);
	if (r < 0) {
		json_object_put(o);
		return r;
	}
	*ret = o;
	return 0;
}

/* An array of n items made by one() under key of obj. */
static int add_array(struct json_object *obj, const char *key,
		     const void *items, size_t item_size, unsigned int n,
		     int (*one)(const void *item, struct json_object **ret))
{
	struct json_object *a = json_object_new_array();

	if (!a)
		return -ENOMEM;
	for (unsigned int i = 0; i < n; i++) {
		struct json_object *o;
		int r = one((const char *)items + i * item_size, &o);

		if (r == 0 && json_object_array_add(a, o) < 0) {
			json_object_put(o);
			r = -ENOMEM;
		}
		if (r < 0) {
			json_object_put(a);
			return r;
		}
	}
	if (json_object_object_add(obj, key, a) < 0) {
		json_object_put(a);
		return -ENOMEM;
	}
	return 0;
}

static int one_hook(const void *item, struct json_object **ret)
{
	return hook_json(item, ret);
}

static int one_module(const void *item, struct json_object **ret)
{
	return module_json(item, ret);
}

static int seconds_json(const struct dump_metadata *m, struct json_object *o)
{
	struct json_object *s = json_object_new_object();
	int r = s ? 0 : -ENOMEM;

	if (r == 0)
		r = json_set_double(s, "find_target", m->seconds_find_target);
	if (r == 0)
		r = json_set_double(s, "dmesg", m->seconds_dmesg);
	if (r == 0)
		r = json_set_double(s, "vmcore", m->seconds_vmcore);
	if (r == 0)
		r = json_set_double(s, "total", m->seconds_total);
	if (r == 0 && json_object_object_add(o, "seconds", s) < 0)
		r = -ENOMEM;
	if (r < 0)
		json_object_put(s);
	return r;
}

/* The keys in the order the capture has always written them. */
static int metadata_json(const struct dump_metadata *m, struct json_object *o)
{
	int r = 0;

	if (m->kernel_release[0])
		r = json_set_text(o, "kernel_release", m->kernel_release);
	if (r == 0 && m->crash_time >= 0)
		r = json_set_int(o, "crash_time", m->crash_time);
	if (r == 0 && m->panic[0])
		r = json_set_text(o, "panic", m->panic);
	if (r == 0 && m->dmesg_only)
		r = json_set_bool(o, "dmesg_only", 1);
	if (r == 0 && m->dump_level >= 0)
		r = json_set_int(o, "dump_level", m->dump_level);
	if (r == 0 && m->compression[0])
		r = json_set_text(o, "compression", m->compression);
	if (r == 0)
		r = json_set_bool(o, "complete", m->complete);
	if (r == 0 && m->vmcore_bytes >= 0)
		r = json_set_int(o, "vmcore_bytes", m->vmcore_bytes);
	if (r == 0 && m->dmesg_bytes >= 0)
		r = json_set_int(o, "dmesg_bytes", m->dmesg_bytes);
	if (r == 0 && m->target[0])
		r = json_set_text(o, "target", m->target);
	if (r == 0 && m->fallback_reason[0])
		r = json_set_text(o, "fallback_reason", m->fallback_reason);
	if (r == 0 && m->recovered_from[0])
		r = json_set_text(o, "recovered_from", m->recovered_from);
	/* Always there: readers take "" for "no error". */
	if (r == 0)
		r = json_set_text(o, "error", m->error);
	if (r == 0 && m->has_seconds)
		r = seconds_json(m, o);
	if (r == 0 && m->n_extra_modules)
		r = add_array(o, "extra_modules", m->extra_modules,
			      sizeof(m->extra_modules[0]), m->n_extra_modules,
			      one_module);
	if (r == 0 && m->n_hooks)
		r = add_array(o, "hooks", m->hooks, sizeof(m->hooks[0]),
			      m->n_hooks, one_hook);
	return r;
}

int dump_metadata_write(int dirfd, const struct dump_metadata *m)
{
	struct json_object *o;
	int r;

	if (m->n_hooks > DUMP_META_HOOKS_MAX ||
	    m->n_extra_modules > DUMP_META_MODULES_MAX)
		return -EINVAL;
	o = json_object_new_object();
	if (!o)
		return -ENOMEM;
	r = metadata_json(m, o);
	if (r == 0)
		r = json_write_atomic_at(dirfd, DUMP_METADATA, o, 0600);
	json_object_put(o);
	return r;
}

/* The getters: a missing key or a value of another type leaves *ret. */
static void get_text(struct json_object *o, const char *key, char *ret,
		     size_t size)
{
	struct json_object *v;

	if (json_object_object_get_ex(o, key, &v) &&
	    json_object_is_type(v, json_type_string))
		snprintf(ret, size, "%s", json_object_get_string(v));
}

static void get_int(struct json_object *o, const char *key, long long *ret)
{
	struct json_object *v;

	if (json_object_object_get_ex(o, key, &v) &&
	    json_object_is_type(v, json_type_int))
		*ret = json_object_get_int64(v);
}

static void get_int32(struct json_object *o, const char *key, int *ret)
{
	long long x = *ret;

	get_int(o, key, &x);
	if (x >= -2147483647LL - 1 && x <= 2147483647LL)
		*ret = (int)x;
}

static void get_bool(struct json_object *o, const char *key, bool *ret)
{
	struct json_object *v;

	if (json_object_object_get_ex(o, key, &v) &&
	    json_object_is_type(v, json_type_boolean))
		*ret = json_object_get_boolean(v);
}

static void get_double(struct json_object *o, const char *key, double *ret)
{
	struct json_object *v;

	if (json_object_object_get_ex(o, key, &v) &&
	    (json_object_is_type(v, json_type_double) ||
	     json_object_is_type(v, json_type_int)))
		*ret = json_object_get_double(v);
}

/* The objects of the array under key, at most max, each given to one(). */
static unsigned int get_array(struct json_object *o, const char *key,
			      unsigned int max,
			      void (*one)(struct json_object *item,
					  unsigned int i, void *userdata),
			      void *userdata)
{
	struct json_object *a;
	unsigned int n = 0;
	size_t len;

	if (!json_object_object_get_ex(o, key, &a) ||
	    !json_object_is_type(a, json_type_array))
		return 0;
	len = json_object_array_length(a);
	for (size_t i = 0; i < len && n < max; i++) {
		struct json_object *item = json_object_array_get_idx(a, i);

		if (json_object_is_type(item, json_type_object))
			one(item, n++, userdata);
	}
	return n;
}

static void read_hook(struct json_object *o, unsigned int i, void *userdata)
{
	struct dump_metadata *m = userdata;
	struct dump_meta_hook *h = &m->hooks[i];

	memset(h, 0, sizeof(*h));
	h->exit = -1;
	get_text(o, "phase", h->phase, sizeof(h->phase));
	get_text(o, "path", h->path, sizeof(h->path));
	get_int32(o, "exit", &h->exit);
	get_bool(o, "timed_out", &h->timed_out);
	get_double(o, "seconds", &h->seconds);
	get_bool(o, "failed", &h->failed);
	get_text(o, "result", h->result, sizeof(h->result));
}

static void read_module(struct json_object *o, unsigned int i, void *userdata)
{
	struct dump_meta_module *mod =
		&((struct dump_metadata *)userdata)->extra_modules[i];

	memset(mod, 0, sizeof(*mod));
	get_text(o, "name", mod->name, sizeof(mod->name));
	get_bool(o, "loaded", &mod->loaded);
	get_text(o, "error", mod->error, sizeof(mod->error));
}

static void metadata_from_json(struct json_object *o, struct dump_metadata *m)
{
	struct json_object *s;

	get_bool(o, "complete", &m->complete);
	get_text(o, "error", m->error, sizeof(m->error));
	get_text(o, "kernel_release", m->kernel_release,
		 sizeof(m->kernel_release));
	get_int(o, "crash_time", &m->crash_time);
	get_text(o, "panic", m->panic, sizeof(m->panic));
	get_bool(o, "dmesg_only", &m->dmesg_only);
	get_int32(o, "dump_level", &m->dump_level);
	get_text(o, "compression", m->compression, sizeof(m->compression));
	get_int(o, "vmcore_bytes", &m->vmcore_bytes);
	get_int(o, "dmesg_bytes", &m->dmesg_bytes);
	get_text(o, "target", m->target, sizeof(m->target));
	get_text(o, "fallback_reason", m->fallback_reason,
		 sizeof(m->fallback_reason));
	get_text(o, "recovered_from", m->recovered_from,
		 sizeof(m->recovered_from));
	if (json_object_object_get_ex(o, "seconds", &s) &&
	    json_object_is_type(s, json_type_object)) {
		m->has_seconds = true;
		get_double(s, "find_target", &m->seconds_find_target);
		get_double(s, "dmesg", &m->seconds_dmesg);
		get_double(s, "vmcore", &m->seconds_vmcore);
		get_double(s, "total", &m->seconds_total);
	}
	m->n_extra_modules = get_array(o, "extra_modules",
				       DUMP_META_MODULES_MAX, read_module, m);
	m->n_hooks = get_array(o, "hooks", DUMP_META_HOOKS_MAX, read_hook, m);
}

int dump_metadata_read(int dirfd, struct dump_metadata *ret)
{
	_cleanup_free_ struct dump_metadata *m = NULL;
	_cleanup_free_ char *text = NULL;
	struct json_object *o;
	int r;

	r = read_file_max_at(dirfd, DUMP_METADATA, &text, DUMP_METADATA_MAX);
	if (r < 0)
		return r;
	o = json_tokener_parse(text);
	if (!o || !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return -EINVAL;
	}
	m = malloc(sizeof(*m));
	if (!m) {
		json_object_put(o);
		return -ENOMEM;
	}
	dump_metadata_init(m);
	metadata_from_json(o, m);
	json_object_put(o);
	*ret = *m;
	return 0;
}
