// SPDX-License-Identifier: GPL-2.0
/*
 * list: the dumps of this machine, of a network target's collector, or of
 * every machine on a collector (--collector).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "cli.h"
#include "collector-copy.h"
#include "dumpdir.h"
#include "json.h"
#include "netcheck.h"
#include "netdir.h"
#include "store.h"
#include "textfilter.h"
#include "util.h"

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
	char base[PATH_MAX], why[sizeof(cli->held.first_line)] = "";
	char **names = NULL;
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
		snprintf(why, sizeof(why), "%s", log_held_error(cli));
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
