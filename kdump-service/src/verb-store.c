// SPDX-License-Identifier: GPL-2.0
/*
 * The dump store's verbs: list, info, debug and report (see dump.h for
 * the store itself).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <systemd/sd-journal.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "cli.h"
#include "collector-copy.h"
#include "dump.h"
#include "dumpdir.h"
#include "journal.h"
#include "json.h"
#include "netcheck.h"
#include "netdir.h"
#include "netplan.h"
#include "process.h"
#include "target.h"
#include "target-mount.h"
#include "textfilter.h"
#include "util.h"

/* The dump named on the command line, or the newest one. */

/*
 * An NFS target's host dir, through a mount of this process alone (a
 * namespace of its own: it goes when the process ends).
 */
static int store_nfs_base(struct cli *cli, const struct kdump_conf *c,
			  char *base, size_t size)
{
	char why[512], ip[INET_ADDRSTRLEN], mnt[PATH_MAX];
	char hostdir[NET_HOST_DIR_MAX];
	struct in_addr a;
	int r;

	r = net_host_dir(hostdir, sizeof(hostdir));
	if (r < 0) {
		log_error(cli, "cannot name this machine's directory on the collector (host name, /etc/machine-id): %s",
			  strerror(-r));
		return r;
	}
	r = net_resolve_host(c->net_host, &a, why, sizeof(why));
	if (r < 0) {
		log_error(cli, "%s", why);
		return r;
	}
	net_addr_text(a, false, ip, sizeof(ip));
	r = net_nfs_mount(c, ip, true, !cli->writable, mnt, sizeof(mnt));
	if (r < 0) {
		log_error(cli, "cannot mount %s:%s: %s%s", c->net_host, c->net_path,
			  strerror(-r),
			  r == -EPERM ? " (run as root)" : "");
		return r;
	}
	return snprintf(base, size, "%s/%s", mnt, hostdir) >= (int)size ?
		       -ENAMETOOLONG : 0;
}

/* The dumps below the dump directory, oldest first, for list/info/debug. */
static int store_open(struct cli *cli, char *base, size_t size, char ***names,
		      size_t *n)
{
	const struct kdump_conf *c;
	int r;

	r = load_config(cli, &c);
	if (r < 0)
		return r;
	r = dumps_base(cli, c, base, size);
	if (r == -EREMOTE && c->net == CONF_NET_NFS) {
		r = store_nfs_base(cli, c, base, size);
		if (r < 0)
			return r;
	} else if (r == -EREMOTE) {
		log_error(cli, "the dumps of dump target %s are on the collector: 'kdump-file list' lists them from here, 'kdump-file list --collector DIR' there reads them",
			  c->target);
		return r;
	}
	if (r < 0) {
		log_error(cli, "cannot reach dump target %s: %s",
			  c->target[0] ? c->target : c->path, strerror(-r));
		return r;
	}
	r = dump_list(base, names, n);
	if (r == -ENOENT) {
		*names = NULL;
		*n = 0;
		return 0;
	}
	if (r < 0)
		log_error(cli, "cannot read dump directory %s: %s%s", base,
			  strerror(-r),
			  r == -EACCES ? " (it is root's: run as root)" : "");
	return r;
}

/* The dump what names (an ID, or "last") below base; -ENOENT if none. */
static int find_in(const char *base, const char *what, char *dir, size_t size,
		   char id[DUMP_ID_LEN + 1])
{
	char **names = NULL;
	size_t n = 0, i;
	int r;

	r = dump_list(base, &names, &n);
	if (r < 0)
		return r;
	r = dump_resolve(names, n, what, &i);
	if (r == 0) {
		snprintf(dir, size, "%s/%s", base, names[i]);
		dump_id(names[i], id);
	}
	dump_list_free(names, n);
	return r;
}

static int net_local_last(const struct kdump_conf *c, char *dir, size_t size);

/*
 * A network target's dump kept on this machine: in the fallback directory
 * (fallback_only), or also a copy of one on the collector; what names it
 * (an ID, or "last": the newer crash of the two); -ENOENT when none.
 */
static int net_local_find(struct cli *cli, const char *what, bool fallback_only,
			  char *dir, size_t size, char id[DUMP_ID_LEN + 1])
{
	const struct kdump_conf *c;
	int r;

	if (cli_config(cli, &c) < 0 || c->net == CONF_NET_NONE)
		return -ENOENT;
	if (fallback_only)
		return c->fallback[0] ?
			       find_in(c->fallback, what, dir, size, id) :
			       -ENOENT;
	if (strcmp(what, "last") == 0) {
		r = net_local_last(c, dir, size);
		if (r == 0)
			dump_id(strrchr(dir, '/') + 1, id);
		return r;
	}
	r = c->fallback[0] ? find_in(c->fallback, what, dir, size, id) :
			     -ENOENT;
	if (r == -ENOENT)
		r = find_in(collector_copy_dir(), what, dir, size, id);
	return r;
}

/*
 * The directory and ID of the dump named, the verb's argument (the newest
 * when NULL); logs when there is none or the name fits several.
 */
static int store_find(struct cli *cli, const char *named, char *dir,
		      size_t size, char id[DUMP_ID_LEN + 1])
{
	const char *what = named ? named : "last";
	char base[PATH_MAX], **names = NULL;
	size_t n = 0, i;
	int r;

	/*
	 * A network target: a dump named by its ID may be in the fallback
	 * directory; when the collector's dumps cannot be read here (not
	 * answering, or an ssh:// target's), the dump is the one kept here,
	 * in the fallback directory or as a copy of the collector's (said on
	 * stderr, once).
	 */
	if (named && net_local_find(cli, named, true, dir, size, id) == 0)
		return 0;
	log_hold(cli);
	r = store_open(cli, base, sizeof(base), &names, &n);
	if (r < 0 && net_local_find(cli, what, false, dir, size, id) == 0) {
		char why[1024];

		log_first_error(log_held(cli), why, sizeof(why));
		log_release(cli, false);
		if (r != -EREMOTE) {
			log_stderr(cli, "the collector's dumps cannot be read here (%s): %s, kept here",
				   why, dir);
		}
		return 0;
	}
	log_release(cli, true);
	if (r < 0)
		return r;
	r = dump_resolve(names, n, what, &i);
	if (r == -ENOENT && n == 0)
		log_error(cli, "no dumps in %s", base);
	else if (r == -ENOENT)
		log_error(cli, "no dump '%s' in %s: see 'kdump-file list'", what, base);
	else if (r == -ENOTUNIQ)
		log_error(cli, "'%s' is the start of several dump IDs: give more of it",
			  what);
	if (r == 0) {
		snprintf(dir, size, "%s/%s", base, names[i]);
		dump_id(names[i], id);
	}
	dump_list_free(names, n);
	return r;
}

static int cmp_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The names in the directory fd that ok() accepts and that are
 * directories, never links (lstat), sorted.
 */
static int collector_names(int fd, bool (*ok)(const char *), char ***ret,
			   size_t *ret_n)
{
	char **names = NULL;
	size_t n = 0;
	struct dirent *de;
	DIR *d;
	int dfd = dup(fd);

	if (dfd < 0)
		return -errno;
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return -errno;
	}
	while ((de = readdir(d))) {
		struct stat st;
		char **t;

		if (!ok(de->d_name) ||
		    fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISDIR(st.st_mode))
			continue;
		t = realloc(names, (n + 1) * sizeof(*names));
		if (!t || !(t[n] = strdup(de->d_name))) {
			names = t ? t : names;
			closedir(d);
			dump_list_free(names, n);
			return -ENOMEM;
		}
		names = t;
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_strings);
	*ret = names;
	*ret_n = n;
	return 0;
}

/* One dump of a host on a collector: a line, or an object in arr. */
static int collector_dump(const char *dir, const char *host,
			  const char *name, struct json_object *arr)
{
	char when[32], size[FORMAT_BYTES_MAX];
	struct json_object *o;
	struct dump_info d;

	if (dump_inspect(dir, &d) < 0)
		return 0;
	if (arr) {
		o = cli_dump_json(&d);
		if (!o || json_set_text(o, "host", host) < 0 ||
		    json_set_text(o, "name", name) < 0 ||
		    json_object_array_add(arr, o)) {
			json_object_put(o);
			return -ENOMEM;
		}
		return 0;
	}
	utc_time(dump_time(&d), when, sizeof(when));
	if (d.has_vmcore)
		format_bytes(d.vmcore_bytes, size, sizeof(size));
	else
		snprintf(size, sizeof(size), "-");
	printf("%-30s  %-22s  %-20s  %-24.24s  %8s  %s\n", TEXT_SAFE(host),
	       TEXT_SAFE(name), when,
	       TEXT_SAFE(d.signature[0] ? d.signature :
			 d.panic[0] ? d.panic : "-"),
	       size, dump_complete(&d) ? "complete" : "incomplete");
	return 0;
}

static int collector_host(struct cli *cli, int rootfd, const char *host,
			  struct json_object *arr)
{
	_cleanup_close_ int fd = -1;
	char **names = NULL;
	size_t n = 0;
	int r;

	fd = openat(rootfd, host, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					  O_CLOEXEC);
	if (fd < 0)
		return 0;
	r = collector_names(fd, dump_name_valid, &names, &n);
	for (size_t i = 0; i < n && r == 0; i++) {
		char dir[PATH_MAX + 512];

		snprintf(dir, sizeof(dir), "%s/%s/%s", cli->opt.collector, host,
			 names[i]);
		r = collector_dump(dir, host, names[i], arr);
	}
	dump_list_free(names, n);
	return r;
}

/*
 * list --collector DIR: every host dir below DIR (a name net_host_dir_valid()
 * accepts, a directory, not a link) and every dump in it, hosts sorted and
 * each host's dumps by time (their names).  Whoever received them owns
 * them, so dump_is_ours() is not asked; links and stray files are skipped.
 */
static int list_collector(struct cli *cli)
{
	struct json_object *j = NULL, *arr = NULL;
	_cleanup_close_ int fd = -1;
	char **hosts = NULL;
	size_t n = 0;
	int r;

	fd = open(cli->opt.collector, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		log_error(cli, "cannot open collector directory %s: %s",
			  cli->opt.collector, strerror(errno));
		return -errno;
	}
	r = collector_names(fd, net_host_dir_valid, &hosts, &n);
	if (r < 0) {
		log_error(cli, "cannot read collector directory %s: %s",
			  cli->opt.collector, strerror(-r));
		return r;
	}
	if (cli->opt.json) {
		j = cli_json_object();
		arr = json_object_new_array();
		r = j && arr ? json_set_text(j, "collector", cli->opt.collector) :
			       -ENOMEM;
		if (r == 0)
			r = cli_json_add(j, "dumps", json_object_get(arr));
	} else {
		printf("%-30s  %-22s  %-20s  %-24s  %8s  %s\n", "HOST", "NAME",
		       "TIME", "SIGNATURE/PANIC", "SIZE", "STATE");
	}
	for (size_t i = 0; i < n && r == 0; i++)
		r = collector_host(cli, fd, hosts[i], arr);
	dump_list_free(hosts, n);
	json_object_put(arr);
	if (j)
		return r == 0 ? print_json(j) : (json_object_put(j), r);
	return r;
}

/* The header of list's table, the same for every target. */
static void list_header(void)
{
	printf("%-8s  %-20s  %-20s  %-16s  %8s  %s\n", "ID", "TIME", "KERNEL",
	       "SIGNATURE", "SIZE", "STATE");
}

/* A row of list for a dump on an ssh collector, from its "list" answer. */
static void list_ssh_row(const struct net_list_entry *e)
{
	char id[DUMP_ID_LEN + 1], when[32], size[FORMAT_BYTES_MAX];
	struct dump_info d = { .signature = "" };

	collector_copy_details(collector_copy_dir(), e->name, &d);
	dump_id(e->name, id);
	utc_time(e->crash_time, when, sizeof(when));
	if (e->complete && e->bytes > 0)
		format_bytes(e->bytes, size, sizeof(size));
	else
		snprintf(size, sizeof(size), "-");
	/*
	 * The collector's list names no kernel and no signature: they come
	 * from the copy, when there is one.  The panic follows the state, as
	 * a local dump's error does.
	 */
	printf("%-8s  %-20s  %-20s  %-16.16s  %8s  %s%s%s\n", id, when,
	       TEXT_SAFE(d.release[0] ? d.release : "-"),
	       TEXT_SAFE(d.signature[0] ? d.signature : "-"), size,
	       e->complete ? "complete" : "incomplete",
	       e->panic[0] && strcmp(e->panic, "-") ? ": " : "",
	       TEXT_SAFE(e->panic[0] && strcmp(e->panic, "-") ? e->panic : ""));
}

/*
 * list for an ssh:// target: the collector's own list of this machine's
 * dumps; -EREMOTE when the target is not one.
 */
static int list_ssh(struct cli *cli, bool titled)
{
	_cleanup_free_ struct net_ssh_result *res = NULL;
	struct net_list_entry e;
	const struct kdump_conf *c;
	unsigned int n = 0;
	int r;

	r = load_config(cli, &c);
	if (r < 0)
		return r;
	if (c->net != CONF_NET_SSH)
		return -EREMOTE;
	if (cli->opt.json) {
		log_error(cli, "list --json of an ssh:// target is not supported: run 'kdump-file list --collector DIR --json' on the collector");
		return -EOPNOTSUPP;
	}
	res = calloc(1, sizeof(*res));
	if (!res)
		return -ENOMEM;
	r = net_ssh_run(c, NET_STATUS_CONNECT_TIMEOUT, "list", res);
	if (r < 0) {
		log_error(cli, "cannot run ssh to list the dumps on %s: %s",
			  c->net_host, strerror(-r));
		return r;
	}
	if (res->outcome != NET_SSH_OK) {
		log_error(cli, "the collector %s does not list this machine's dumps: %s",
			  c->net_host, res->line);
		return -EIO;
	}
	if (titled)
		printf("dumps on the collector (%s):\n", c->target);
	for (const char *l = res->output; l && *l;) {
		const char *end = strchr(l, '\n');

		if (net_list_parse(l, end ? (size_t)(end - l) : strlen(l),
				   &e) == 0) {
			if (n++ == 0)
				list_header();
			list_ssh_row(&e);
		}
		l = end ? end + 1 : NULL;
	}
	if (n == 0)
		printf("no dumps on %s in %s\n", c->net_host, c->net_path);
	return 0;
}

/*
 * The dumps of names below base (on the collector: kernel and signature
 * from the copies here too): rows after a header (text, "no dumps
 * in BASE" when none), or objects added to arr (JSON).
 */
static int list_rows(const char *base, char **names, size_t n,
		     bool collector, struct json_object *arr)
{
	int m = 0;

	if (!arr && n == 0)
		printf("no dumps in %s\n", base);
	else if (!arr)
		list_header();
	for (size_t i = 0; i < n && m == 0; i++) {
		char dir[PATH_MAX + 64], id[DUMP_ID_LEN + 1], when[32];
		char size[FORMAT_BYTES_MAX];
		struct dump_info d;

		snprintf(dir, sizeof(dir), "%s/%s", base, names[i]);
		if (dump_inspect(dir, &d) < 0)
			continue;
		if (collector)
			collector_copy_details(collector_copy_dir(), names[i],
					       &d);
		if (arr) {
			struct json_object *o = cli_dump_json(&d);

			m = o && !json_object_array_add(arr, o) ? 0 : -ENOMEM;
			if (m < 0)
				json_object_put(o);
			continue;
		}
		dump_id(names[i], id);
		utc_time(dump_time(&d), when, sizeof(when));
		if (d.has_vmcore)
			format_bytes(d.vmcore_bytes, size, sizeof(size));
		else
			snprintf(size, sizeof(size), "-");
		printf("%-8s  %-20s  %-20s  %-16.16s  %8s  %s%s%s%s\n", id,
		       when, TEXT_SAFE(d.release[0] ? d.release : "-"),
		       TEXT_SAFE(d.signature[0] ? d.signature : "-"), size,
		       cli_dump_state(&d),
		       d.dmesg_only && dump_complete(&d) ? ", dmesg only" : "",
		       d.error[0] ? ": " : "", TEXT_SAFE(d.error));
	}
	return m;
}

/*
 * list for a network target with a fallback directory: the collector's
 * dumps, or why they cannot be listed, then the fallback's, which are
 * never hidden by a collector that does not answer.  Fails only when
 * neither can be read.
 */
static int list_net_fallback(struct cli *cli, const struct kdump_conf *c)
{
	char base[PATH_MAX], why[1024] = "", **names = NULL;
	struct json_object *j = NULL, *arr = NULL, *farr = NULL;
	size_t n = 0;
	int r, rf, m = 0;

	if (cli->opt.json) {
		j = cli_json_object();
		arr = json_object_new_array();
		farr = json_object_new_array();
		if (!j || !arr || !farr) {
			json_object_put(j);
			json_object_put(arr);
			json_object_put(farr);
			return -ENOMEM;
		}
	}
	/* The collector's part: its failure said once, below. */
	log_hold(cli);
	if (c->net == CONF_NET_SSH && !j) {
		r = list_ssh(cli, true);
	} else {
		r = store_open(cli, base, sizeof(base), &names, &n);
		if (r == 0 && !j)
			printf("dumps on the collector (%s):\n", c->target);
		if (r == 0)
			m = list_rows(base, names, n, true, arr);
		dump_list_free(names, n);
	}
	if (r < 0) {
		log_first_error(log_held(cli), why, sizeof(why));
		if (!j)
			printf("dumps on the collector (%s): cannot be listed: %s\n",
			       c->target, TEXT_SAFE(why));
	}
	log_release(cli, false);
	names = NULL;
	n = 0;
	rf = check_dump_base(cli, c->fallback);
	if (rf == 0)
		rf = dump_list(c->fallback, &names, &n);
	if (rf == -ENOENT) {
		rf = 0;
		names = NULL;
		n = 0;
	}
	if (!j)
		printf("\ndumps in the fallback directory %s:\n", c->fallback);
	if (rf == 0 && m == 0)
		m = list_rows(c->fallback, names, n, false, farr);
	else if (rf < 0 && !j)
		printf("cannot be listed: %s\n", strerror(-rf));
	dump_list_free(names, n);
	if (j) {
		if (m == 0)
			m = json_set_text(j, "dump_dir", c->target);
		if (m == 0)
			m = r == 0 ? cli_json_add(j, "dumps", json_object_get(arr)) :
			    json_object_object_add(j, "dumps", NULL) ? -ENOMEM : 0;
		if (m == 0)
			m = cli_json_text(j, "collector_error", r < 0 ? why : NULL);
		if (m == 0)
			m = json_set_text(j, "fallback_dir", c->fallback);
		if (m == 0)
			m = cli_json_add(j, "fallback_dumps", json_object_get(farr));
		json_object_put(arr);
		json_object_put(farr);
		if (m == 0)
			return print_json(j);
		json_object_put(j);
		return m;
	}
	if (m < 0)
		return m;
	return r < 0 && rf < 0 ? r : 0;
}

int verb_list(struct cli *cli, int argc _unused_, char *argv[] _unused_)
{
	char base[PATH_MAX], **names = NULL;
	struct json_object *j = NULL, *arr = NULL;
	const struct kdump_conf *c;
	size_t n = 0;
	int r, m = 0;

	if (cli->opt.collector)
		return list_collector(cli);
	r = load_config(cli, &c);
	if (r < 0)
		return r;
	if (c->net != CONF_NET_NONE && c->fallback[0])
		return list_net_fallback(cli, c);
	r = list_ssh(cli, false);
	if (r != -EREMOTE)
		return r;

	r = store_open(cli, base, sizeof(base), &names, &n);
	if (r < 0)
		return r;
	if (cli->opt.json) {
		/* An object, not a bare array: it has a schema to name. */
		j = cli_json_object();
		arr = json_object_new_array();
		m = j && arr ? json_set_text(j, "dump_dir", base) : -ENOMEM;
		if (m == 0)
			m = cli_json_add(j, "dumps", json_object_get(arr));
		json_object_put(arr);
		if (m < 0) {
			json_object_put(j);
			dump_list_free(names, n);
			return m;
		}
	}
	m = list_rows(base, names, n, c->net == CONF_NET_NFS, arr);
	dump_list_free(names, n);
	if (j)
		return m == 0 ? print_json(j) : (json_object_put(j), m);
	return m;
}

/*
 * "Modules linked in: ..." of the crash, from the saved kernel log; false
 * when it has no such line.
 */
static bool dmesg_modules(const char *dir, char *buf, size_t size)
{
	char p[PATH_MAX + 16], line[4096];
	bool found = false;
	FILE *f;

	buf[0] = '\0';
	if (path_format(p, sizeof(p), "%s/dmesg.txt", dir) < 0)
		return false;
	f = fopen(p, "re");
	while (f && fgets(line, sizeof(line), f)) {
		const char *m = strstr(line, "Modules linked in:");

		if (!m)
			continue;
		m += strlen("Modules linked in:");
		while (*m == ' ')
			m++;
		snprintf(buf, size, "%s", m);
		buf[strcspn(buf, "\n")] = '\0';
		found = true;
	}
	if (f)
		fclose(f);
	return found;
}

/* The hooks' results and extra modules the capture recorded in metadata.json. */
static void capture_extras(const char *dir, struct json_object **ret_hooks,
			   struct json_object **ret_mods)
{
	char p[PATH_MAX + 32], *text = NULL;
	struct json_object *meta = NULL, *v;

	*ret_hooks = *ret_mods = NULL;
	if (path_format(p, sizeof(p), "%s/metadata.json", dir) == 0 &&
	    read_file_max(p, &text, 1 << 20) >= 0)
		meta = json_tokener_parse(text);
	free(text);
	if (!meta)
		return;
	if (json_object_object_get_ex(meta, "hooks", &v) &&
	    json_object_is_type(v, json_type_array))
		*ret_hooks = json_object_get(v);
	if (json_object_object_get_ex(meta, "extra_modules", &v) &&
	    json_object_is_type(v, json_type_array))
		*ret_mods = json_object_get(v);
	json_object_put(meta);
}

static const char *field_text(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return "";
	return json_object_get_string(v);
}

static void print_capture_extras(struct json_object *hooks,
				 struct json_object *mods)
{
	size_t len = hooks ? json_object_array_length(hooks) : 0;

	for (size_t k = 0; k < len; k++) {
		struct json_object *h = json_object_array_get_idx(hooks, k), *s;
		double secs = json_object_object_get_ex(h, "seconds", &s) ?
				      json_object_get_double(s) : 0;

		printf("%-12s %s %s: %s (%.1f s)\n", k ? "" : "hooks:",
		       TEXT_SAFE(field_text(h, "phase")),
		       TEXT_SAFE(field_text(h, "path")),
		       TEXT_SAFE(field_text(h, "result")), secs);
	}
	len = mods ? json_object_array_length(mods) : 0;
	for (size_t k = 0; k < len; k++) {
		struct json_object *m = json_object_array_get_idx(mods, k);
		const char *e = field_text(m, "error");

		printf("%-12s %s: %s%s\n", k ? "" : "extra mods:",
		       TEXT_SAFE(field_text(m, "name")),
		       e[0] ? "not loaded, " : "loaded", TEXT_SAFE(e));
	}
}

/* What info shows of one dump. */
struct info {
	char dir[PATH_MAX + 64];
	char id[DUMP_ID_LEN + 1];
	char when[32];
	char mods[2048];	/* "Modules linked in:" of the crash */
	bool has_mods;		/* the kernel log has that line */
	struct dump_info d;
	/* report.json, and the hooks and extra modules of metadata.json. */
	struct json_object *rep, *hooks, *extra;
	/* "": the report is the dump's; else the copy whose report it is. */
	char rep_copy[PATH_MAX];
};

/* The words of text, a list of names, as a JSON array. */
static struct json_object *words_json(const char *text)
{
	struct json_object *a = json_object_new_array();
	char *copy = strdup(text), *save = NULL;

	for (char *w = copy ? strtok_r(copy, " \t", &save) : NULL; a && w;
	     w = strtok_r(NULL, " \t", &save)) {
		struct json_object *o = json_text(w);

		if (!o || json_object_array_add(a, o)) {
			json_object_put(o);
			json_object_put(a);
			a = NULL;
		}
	}
	if (!copy) {
		json_object_put(a);
		a = NULL;
	}
	free(copy);
	return a;
}

/*
 * info --json: the dump as list gives it, and modules (null without a
 * "Modules linked in:" line), report, hooks and extra_modules (null when
 * the dump has none of those files).
 */
static int info_json(const struct info *in)
{
	struct json_object *j = cli_json_object(), *d = cli_dump_json(&in->d);
	int m = j && d ? 0 : -ENOMEM;

	/* The dump's keys, after "schema" (a null value is NULL). */
	json_object_object_foreach(d ? d : j, key, val) {
		if (m == 0 && d &&
		    json_object_object_add(j, key, json_object_get(val)))
			m = -ENOMEM;
	}
	json_object_put(d);
	if (m == 0)
		m = in->has_mods ? cli_json_add(j, "modules", words_json(in->mods)) :
			json_object_object_add(j, "modules", NULL) ? -ENOMEM : 0;
	if (m == 0)
		m = json_object_object_add(j, "report", json_object_get(in->rep)) ?
			    -ENOMEM : 0;
	if (m == 0)
		m = json_object_object_add(j, "hooks", json_object_get(in->hooks)) ?
			    -ENOMEM : 0;
	if (m == 0)
		m = json_object_object_add(j, "extra_modules",
					   json_object_get(in->extra)) ?
			    -ENOMEM : 0;
	if (m < 0) {
		json_object_put(j);
		return m;
	}
	return print_json(j);
}

/* The lines info gives of the report: signature, oops, task, backtrace. */
static void info_report(struct json_object *rep)
{
	struct json_object *v;

	if (json_object_object_get_ex(rep, "signature", &v) && v)
		printf("signature:   %s\n",
		       TEXT_SAFE(json_object_get_string(v)));
	if (json_object_object_get_ex(rep, "oops", &v) && v)
		printf("oops:        %s\n",
		       TEXT_SAFE(json_object_get_string(v)));
	if (json_object_object_get_ex(rep, "task", &v) && v) {
		struct json_object *c = NULL, *pid = NULL;

		json_object_object_get_ex(v, "command", &c);
		json_object_object_get_ex(v, "pid", &pid);
		if (c)
			printf("task:        %s (pid %s)\n",
			       TEXT_SAFE(json_object_get_string(c)),
			       TEXT_SAFE(pid ? json_object_get_string(pid) :
					       "?"));
	}
	if (json_object_object_get_ex(rep, "taint", &v) && v)
		printf("taint:       %s\n",
		       TEXT_SAFE(json_object_get_string(v)));
	if (json_object_object_get_ex(rep, "backtrace", &v) && v &&
	    json_object_is_type(v, json_type_array)) {
		size_t len = json_object_array_length(v);

		for (size_t k = 0; k < len && k < 8; k++)
			printf("%-12s %s\n", k ? "" : "backtrace:",
			       TEXT_SAFE(json_object_get_string(
				       json_object_array_get_idx(v, k))));
	}
}

/* The files of the dump directory info names, those that exist. */
static void info_files(const char *dir)
{
	static const char *const files[] = {
		"vmcore", "vmcore-incomplete", "dmesg.txt", "metadata.json",
		"hooks.log", "report.txt", "report.json",
	};
	char p[PATH_MAX + 96];

	printf("files:      ");
	for (size_t k = 0; k < sizeof(files) / sizeof(files[0]); k++) {
		snprintf(p, sizeof(p), "%s/%s", dir, files[k]);
		if (access(p, F_OK) == 0)
			printf(" %s", files[k]);
	}
	putchar('\n');
}

static void info_text(const struct info *in)
{
	const struct dump_info *d = &in->d;
	char size[FORMAT_BYTES_MAX];

	printf("id:          %s\n", in->id);
	printf("directory:   %s\n", in->dir);
	printf("crash time:  %s\n", in->when);
	printf("kernel:      %s\n",
	       TEXT_SAFE(d->release[0] ? d->release : "unknown"));
	if (d->has_vmcore)
		printf("state:       complete: vmcore of %s\n",
		       format_bytes(d->vmcore_bytes, size, sizeof(size)));
	else if (dump_complete(d))
		printf("state:       complete, dmesg only: no vmcore, by configuration (dump_level = dmesg saved the kernel log alone)\n");
	else
		printf("state:       %s%s%s\n", cli_dump_state(d),
		       d->error[0] ? ": " : "", TEXT_SAFE(d->error));
	if (d->panic[0])
		printf("panic:       %s\n", TEXT_SAFE(d->panic));
	if (in->rep && in->rep_copy[0])
		printf("report:      of the copy of its kernel log in %s\n",
		       TEXT_SAFE(in->rep_copy));
	if (in->rep)
		info_report(in->rep);
	if (in->mods[0])
		printf("modules:     %s\n", TEXT_SAFE(in->mods));
	print_capture_extras(in->hooks, in->extra);
	info_files(in->dir);
	if (!in->rep)
		printf("report:      none yet (kdump-file report %s)\n", in->id);
	if (d->copy)
		printf("on collector: %s (the directory above is the copy of its kernel log kept here)\n",
		       TEXT_SAFE(d->dir));
	else if (d->has_vmcore)
		printf("debug:       kdump-file debug %s\n", in->id);
}

int verb_info(struct cli *cli, int argc, char *argv[])
{
	static struct info in;
	char p[PATH_MAX + 96], *text = NULL;
	int r;

	r = store_find(cli, argc > 1 ? argv[1] : NULL, in.dir, sizeof(in.dir),
		       in.id);
	if (r < 0)
		return r;
	r = dump_inspect(in.dir, &in.d);
	if (r < 0) {
		log_error(cli, "cannot read dump %s: %s", in.dir, strerror(-r));
		return r;
	}
	snprintf(p, sizeof(p), "%s/report.json", in.dir);
	if (read_file_max(p, &text, 1 << 20) >= 0)
		in.rep = json_tokener_parse(text);
	free(text);
	text = NULL;
	/* A dump on the collector: the report of its copy here, if any. */
	in.rep_copy[0] = '\0';
	if (!in.rep && in.d.has_metadata &&
	    collector_copy_find(collector_copy_dir(),
				strrchr(in.dir, '/') ? strrchr(in.dir, '/') + 1 :
						       in.dir,
				in.rep_copy, sizeof(in.rep_copy)) == 0) {
		snprintf(p, sizeof(p), "%s/report.json", in.rep_copy);
		if (read_file_max(p, &text, 1 << 20) >= 0)
			in.rep = json_tokener_parse(text);
		free(text);
		if (!in.rep)
			in.rep_copy[0] = '\0';
	}
	in.has_mods = dmesg_modules(in.dir, in.mods, sizeof(in.mods));
	capture_extras(in.dir, &in.hooks, &in.extra);
	utc_time(dump_time(&in.d), in.when, sizeof(in.when));
	r = 0;
	if (cli->opt.json)
		r = info_json(&in);
	else
		info_text(&in);
	json_object_put(in.rep);
	json_object_put(in.hooks);
	json_object_put(in.extra);
	return r;
}

/* The first line the program printed, into userdata (PATH_MAX bytes). */
static void first_line(const char *line, size_t len, void *userdata)
{
	char *buf = userdata;

	if (!buf[0] && len < PATH_MAX)
		memcpy(buf, line, len + 1);
}

/*
 * Replace this process by crash(8) on core with vmlinux; returns only on
 * failure, having said why.
 *
 * crash runs the commands of ./.crashrc as well as ~/.crashrc: root
 * running debug in a directory someone else can write would run theirs.
 * So neither is read (--no_crashrc), and crash runs in "/", given
 * absolute paths, as the analyzer runs it (analysis/src/analyze-run.c).
 */
static int debug_exec_crash(struct cli *cli, const char *vmlinux,
			    const char *core)
{
	_cleanup_free_ char *abs_vmlinux = realpath(vmlinux, NULL);
	_cleanup_free_ char *abs_core = NULL;
	int r;

	if (!abs_vmlinux) {
		r = -errno;
		log_error(cli, "cannot use vmlinux '%s': %s", vmlinux, strerror(-r));
		return r;
	}
	abs_core = realpath(core, NULL);
	if (!abs_core) {
		r = -errno;
		log_error(cli, "cannot use vmcore '%s': %s", core, strerror(-r));
		return r;
	}
	if (chdir("/") < 0) {
		r = -errno;
		log_error(cli, "cannot change to /: %s", strerror(-r));
		return r;
	}
	fprintf(stderr, "kdump-file: crash --no_crashrc %s %s\n", abs_vmlinux,
		abs_core);
	fflush(stdout);
	{
		char *cmd[] = { "crash", "--no_crashrc", abs_vmlinux, abs_core,
				NULL };

		/*
		 * Not process_run(): crash reads the terminal, which only its
		 * foreground process group may (a group of its own would get
		 * SIGTTIN), and takes ^C itself.  It replaces us instead.
		 */
		execvp(cmd[0], cmd);
	}
	r = -errno;
	log_error(cli, "cannot run crash: %s%s", strerror(-r),
		  r == -ENOENT ? " (apt-get install crash)" : "");
	return r;
}

/* crash(8) on a dump, with the vmlinux its build ID names. */
int verb_debug(struct cli *cli, int argc, char *argv[])
{
	char dir[PATH_MAX + 64], core[PATH_MAX + 96], id[DUMP_ID_LEN + 1];
	char vmlinux[PATH_MAX] = "";
	int r;

	/*
	 * A vmlinux that cannot be read is said as such here: the analyzer
	 * would only find that its build ID does not match.
	 */
	if (cli->opt.vmlinux && access(cli->opt.vmlinux, R_OK) < 0) {
		r = -errno;
		log_error(cli, "cannot use vmlinux '%s': %s", cli->opt.vmlinux,
			  strerror(-r));
		return r;
	}
	r = store_find(cli, argc > 1 ? argv[1] : NULL, dir, sizeof(dir), id);
	if (r < 0)
		return r;
	snprintf(core, sizeof(core), "%s/vmcore", dir);
	if (access(core, R_OK) < 0) {
		struct dump_info d;
		bool log;

		log = dump_inspect(dir, &d) == 0 && d.has_dmesg;
		if (log && d.copy)
			log_error(cli, "dump %s is on the collector, at %s: open its vmcore with crash there; here is the copy of its kernel log, %s/dmesg.txt (kdump-file info %s)",
				  id, d.dir, dir, id);
		else if (log && d.dmesg_only)
			log_error(cli, "dump %s has no vmcore: it is a dmesg-only dump (dump_level = dmesg), so there is nothing for crash; its kernel log is %s/dmesg.txt (kdump-file info %s)",
				  dir, dir, id);
		else if (log)
			log_error(cli, "dump %s has no vmcore (the capture did not complete): its kernel log is %s/dmesg.txt (kdump-file info %s)",
				  dir, dir, id);
		else
			log_error(cli, "dump %s has no vmcore and no kernel log: the capture saved nothing (kdump-file info %s says what it recorded)",
				  dir, id);
		return -ENOENT;
	}
	/* kdump-file-analyze finds the vmlinux; its errors are its own. */
	{
		char *cmd[] = { "kdump-file-analyze", "vmlinux", core,
				 cli->opt.vmlinux ? "--vmlinux" : NULL,
				 (char *)cli->opt.vmlinux, NULL };
		struct process_opts o = PROCESS_OPTS_INIT;
		struct process_result res;

		o.stderr_fd = STDERR_FILENO;
		o.on_line = first_line;
		o.userdata = vmlinux;
		r = process_run(cmd, &o, &res);
		if (r < 0) {
			log_error(cli, "cannot run kdump-file-analyze: %s",
				  r == -ENOENT ? "it is not installed" :
						 strerror(-r));
			return r;
		}
		if (!process_succeeded(&res) || !vmlinux[0])
			return -ENOENT;
	}
	return debug_exec_crash(cli, vmlinux, core);
}

/*
 * The journal entry of a crash (journal.h), sent when its dump's first
 * report is written: the report is the mark that the dump was reported
 * (report --new skips a dump that has one), so the entry goes out once per
 * crash.  A failure to send it is said then, once, and the report stands.
 */
static void report_to_journal(const char *path)
{
	char dir[PATH_MAX], id[DUMP_ID_LEN + 1];
	struct iovec iov[JOURNAL_CRASH_FIELDS];
	struct journal_fields f;
	struct dump_info d;
	const char *name;
	size_t len;
	int r;

	/* As list names it: absolute, without a trailing slash. */
	if (!realpath(path, dir))
		snprintf(dir, sizeof(dir), "%s", path);
	len = strlen(dir);
	while (len > 1 && dir[len - 1] == '/')
		dir[--len] = '\0';
	name = strrchr(dir, '/');
	name = name ? name + 1 : dir;
	/* The ID that list shows: a hash of the directory's name. */
	dump_id(name, id);
	r = dump_inspect(dir, &d);
	if (r < 0) {
		fprintf(stderr, "kdump-file: warning: wrote the report of %s, but cannot read the dump again for its journal entry: %s; 'kdump-file info %s' shows the crash\n",
			dir, strerror(-r), id);
		return;
	}
	journal_crash_fields(&d, id, &f);
	for (size_t i = 0; i < f.n; i++) {
		iov[i].iov_base = f.field[i];
		iov[i].iov_len = strlen(f.field[i]);
	}
	r = sd_journal_sendv(iov, (int)f.n);
	if (r < 0)
		fprintf(stderr, "kdump-file: warning: wrote the report of %s, but cannot send its crash entry to the journal: %s (is systemd-journald running?); 'kdump-file info %s' shows the crash\n",
			dir, strerror(-r), id);
}

/*
 * The dump report names: a directory given by its path (one with a '/'),
 * or, as info and debug take them, an ID, a prefix of one or a dump
 * directory's name in the dump store.
 */
static int report_find(struct cli *cli, const char *named, char *dir,
		       size_t size)
{
	char id[DUMP_ID_LEN + 1];
	struct stat st;

	if (strchr(named, '/')) {
		if (stat(named, &st) < 0) {
			int r = -errno;

			log_error(cli, "cannot report on '%s': %s (name a dump directory, or a dump by its ID: see 'kdump-file list')",
				  named, strerror(-r));
			return r;
		}
		if (!S_ISDIR(st.st_mode)) {
			log_error(cli, "cannot report on '%s': not a directory (name a dump directory, or a dump by its ID: see 'kdump-file list')",
				  named);
			return -ENOTDIR;
		}
		snprintf(dir, size, "%s", named);
		return 0;
	}
	/* The report goes into the dump's directory. */
	cli->writable = true;
	return store_find(cli, named, dir, size, id);
}

/*
 * A network target's newest dump on this machine: in the fallback
 * directory, or a copy of the collector's (the newer crash of the two).
 */
static int net_local_last(const struct kdump_conf *c, char *dir, size_t size)
{
	char f[PATH_MAX], k[PATH_MAX];
	struct dump_info df, dk;
	bool hf, hk;

	hf = c->fallback[0] && dump_find_last(c->fallback, f, sizeof(f)) == 0 &&
	     dump_inspect(f, &df) == 0;
	hk = collector_copy_last(collector_copy_dir(), k, sizeof(k)) == 0 &&
	     dump_inspect(k, &dk) == 0;
	if (!hf && !hk)
		return -ENOENT;
	snprintf(dir, size, "%s",
		 hf && (!hk || dump_time(&df) >= dump_time(&dk)) ? f : k);
	return 0;
}

int verb_report(struct cli *cli, int argc, char *argv[])
{
	char dir[PATH_MAX], rep[PATH_MAX + 16];
	const struct kdump_conf *c;
	bool reported;
	int r;

	r = load_config(cli, &c);
	if (r < 0)
		return r;
	if (argc > 1) {
		r = report_find(cli, argv[1], dir, sizeof(dir));
		if (r < 0)
			return r;
	} else {
		char base[PATH_MAX];

		/* The report goes into the dump's directory. */
		cli->writable = true;
		/*
		 * A network target's newest dump that is here: the one its
		 * capture saved in the fallback directory, or the copy of
		 * the collector's that report-target made.
		 */
		if (c->net != CONF_NET_NONE) {
			/* A fallback directory not ours alone is refused. */
			r = c->fallback[0] ?
				    check_dump_base(cli, c->fallback) : 0;
			if (r < 0 && r != -ENOENT)
				return r;
			r = net_local_last(c, dir, sizeof(dir));
			if (r == -ENOENT && cli->opt.new_only)
				return 0;
			if (r < 0) {
				log_error(cli, "no dump of %s to report on here: none in the fallback directory (%s) and no copy of the collector's in %s (the report unit makes one at boot)",
					  c->target,
					  c->fallback[0] ? c->fallback : "none set",
					  collector_copy_dir());
				return r;
			}
			goto report;
		}
		r = dumps_base(cli, c, base, sizeof(base));
		if (r < 0) {
			if (cli->opt.new_only &&
			    (r == -ENODEV || r == -EREMOTE))
				return 0;
			log_error(cli, "cannot reach dump target %s: %s", c->target,
				  strerror(-r));
			return r;
		}
		r = check_dump_base(cli, base);
		if (r == -ENOENT && cli->opt.new_only)
			return 0;
		if (r < 0)
			return r;
		r = dump_find_last(base, dir, sizeof(dir));
		if (r < 0) {
			if (cli->opt.new_only)
				return 0;
			log_error(cli, "no dump to report on in %s: %s", base,
				  strerror(-r));
			return r;
		}
	}
report:
	snprintf(rep, sizeof(rep), "%s/report.json", dir);
	reported = access(rep, F_OK) == 0;
	if (cli->opt.new_only && reported)
		return 0;
	{
		char *const cmd[] = { "kdump-file-analyze", "report", dir, NULL };
		struct process_result res;
		char how[64];

		fflush(stdout);
		r = process_run(cmd, NULL, &res);
		if (r < 0) {
			log_error(cli, "cannot run kdump-file-analyze for '%s': %s",
				  dir, r == -ENOENT ? "it is not installed" :
						      strerror(-r));
			return r;
		}
		/* An exit status: the analyzer said why; a signal: we do. */
		if (process_exit_status(&res) < 0) {
			process_result_text(&res, how, sizeof(how));
			log_error(cli, "kdump-file-analyze on '%s' did not finish: %s",
				  dir, how);
		}
		if (!process_succeeded(&res))
			return -EIO;
	}
	if (!reported && access(rep, F_OK) == 0)
		report_to_journal(dir);
	return 0;
}

/*
 * A network target: the collector's newest dump's kernel log and metadata
 * copied here (collector-copy.h) for the report that follows.  A collector
 * that does not answer is said, and the report goes on with what is here
 * (the fallback directory's dumps): exit 0 either way.
 */
static int report_copy_newest(struct cli *cli, const struct kdump_conf *c)
{
	char name[DUMP_NAME_MAX], why[1024];
	int r;

	r = collector_copy_newest(c, collector_copy_dir(), name, sizeof(name),
				  why, sizeof(why));
	if (r < 0 && r != -ENOENT)
		log_warning(cli, "cannot copy the newest dump's kernel log from the collector of %s: %s; it is reported at a boot where the collector answers",
			    c->target, why[0] ? why : strerror(-r));
	return 0;
}

/*
 * report-target mount|unmount: the privileged step of
 * kdump-file-report.service.  The report parses what a crashed kernel
 * left (crash, makedumpfile, libkdumpfile), so it runs without
 * CAP_SYS_ADMIN and without the mount system calls: an exploit of a
 * parser could otherwise remount what the sandbox made read-only.  A dump
 * target that nothing mounts is mounted before it, writable (the report
 * goes beside the dump), on REPORT_TARGET_DIR, in a directory root's
 * alone, also when it is mounted elsewhere (the sandbox leaves only this
 * mount writable: dumps_base() prefers it); unmount takes it away when the
 * report is done.  Nothing to do, exit 0, for a target mounted there
 * already, not attached, or not a block device.
 */
static int report_target_mount(struct cli *cli)
{
	char dev[PATH_MAX], fstype[64] = "";
	const struct kdump_conf *c;
	int r;

	r = load_config(cli, &c);
	if (r < 0)
		return r;
	if (c->net != CONF_NET_NONE)
		return report_copy_newest(cli, c);
	if (!c->target[0])
		return 0;
	r = target_find_device(c->target, dev, sizeof(dev), fstype,
			       sizeof(fstype));
	/* Not attached: report --new says nothing either. */
	if (r == -ENODEV)
		return 0;
	if (r < 0) {
		log_error(cli, "cannot find dump target %s: %s", c->target,
			  strerror(-r));
		return r;
	}
	r = target_mounted_at(dev, REPORT_TARGET_DIR);
	if (r == 1 || !fstype[0])
		return 0;
	if (r < 0) {
		log_error(cli, "cannot tell where dump target %s (%s) is mounted: %s",
			  c->target, dev, strerror(-r));
		return r;
	}
	r = mount_target_at(dev, fstype, REPORT_TARGET_DIR, true);
	if (r < 0)
		return log_create_error(cli, "mount the dump target on",
					REPORT_TARGET_DIR, r);
	return 0;
}

static int report_target_unmount(struct cli *cli)
{
	if (umount2(REPORT_TARGET_DIR, UMOUNT_NOFOLLOW) < 0) {
		int r = -errno;

		/* Never made: nothing to undo. */
		if (r == -ENOENT)
			return 0;
		/*
		 * Still in use: detached now, gone once its last user is.
		 * Not a mount point (EINVAL): only the directory to remove.
		 */
		if (r == -EBUSY &&
		    umount2(REPORT_TARGET_DIR, MNT_DETACH | UMOUNT_NOFOLLOW) < 0)
			r = -errno;
		else if (r == -EBUSY || r == -EINVAL)
			r = 0;
		if (r < 0)
			return log_create_error(cli, "unmount", REPORT_TARGET_DIR,
						r);
	}
	(void)rmdir(REPORT_TARGET_DIR);
	return 0;
}

int verb_report_target(struct cli *cli, int argc _unused_, char *argv[])
{
	if (strcmp(argv[1], "mount") == 0)
		return report_target_mount(cli);
	if (strcmp(argv[1], "unmount") == 0)
		return report_target_unmount(cli);
	log_error(cli, "report-target takes mount or unmount, not '%s'", argv[1]);
	return EXIT_USAGE;
}
