// SPDX-License-Identifier: GPL-2.0
/*
 * The dump store as list, info, debug and report find it (see store.h):
 * where this machine sees the dumps, a dump named by its ID, a network
 * target's dumps kept here.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "collector-copy.h"
#include "netcheck.h"
#include "netdir.h"
#include "store.h"

/*
 * An NFS target's host dir, through a mount of this process alone (a
 * namespace of its own: it goes when the process ends).
 */
static int store_nfs_base(struct cli *cli, const struct kdump_conf *c,
			  char *base, size_t size)
{
	char ip[NET_IP_TEXT], mnt[PATH_MAX];
	char hostdir[NET_HOST_DIR_MAX];
	struct diag why = DIAG_INIT;
	struct net_ip a;
	int r;

	r = net_host_dir(hostdir, sizeof(hostdir));
	if (r < 0) {
		log_error(cli, "cannot name this machine's directory on the collector (host name, /etc/machine-id): %s",
			  strerror(-r));
		return r;
	}
	r = net_resolve_host(c->net_host, &a, &why);
	if (r < 0) {
		log_error(cli, "%s", diag_text(&why));
		return r;
	}
	net_ip_text(&a, false, ip, sizeof(ip));
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
int store_open(struct cli *cli, char *base, size_t size, char ***names,
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
		r = store_net_local_last(c, dir, size);
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
int store_find(struct cli *cli, const char *named, char *dir,
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
		char why[sizeof(cli->held.first_line)];

		snprintf(why, sizeof(why), "%s", log_held_error(cli));
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

/*
 * A network target's newest dump on this machine: in the fallback
 * directory, or a copy of the collector's (the newer crash of the two).
 */
int store_net_local_last(const struct kdump_conf *c, char *dir, size_t size)
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
