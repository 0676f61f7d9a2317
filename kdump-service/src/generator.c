// SPDX-License-Identifier: GPL-2.0
/*
 * kdump-file-generator: a systemd generator (systemd.generator(7)) that
 * fits the units' sandboxes to the configuration: it gives
 * kdump-file-report.service write access to the dump store alone, and
 * kdump-file.service and kdump-file-hotplug.service the way to a network
 * target's collector and nothing more.
 *
 *   kdump-file-generator NORMAL_DIR [EARLY_DIR LATE_DIR]
 *
 * The loading units: with a local target, on a system with iSCSI sessions,
 * the drop-in of sandbox_dropin() (the network read, not reached); with a
 * local target whose dump directory is on filesystems fstab mounts,
 * NORMAL_DIR/UNIT.d/40-dump-mounts.conf orders them after those mounts;
 * else no drop-in (they keep their own sandbox: no network); with a
 * network target,
 * NORMAL_DIR/UNIT.d/50-network-target.conf from sandbox_dropin(): ordered
 * after network-online.target, the address families, the collector's
 * addresses and for NFS the mount (see sandbox.h).  A configuration that
 * cannot be read gets no drop-in: the load says what is wrong with it.
 *
 * The report unit:
 * The report runs crash, makedumpfile and libkdumpfile on what a crashed
 * kernel left: an exploit of one of them runs as root.  The unit's own
 * ProtectSystem=full leaves /var writable (/var/spool/cron, /var/lib,
 * ...).  Where the report and recover write comes from the configuration,
 * which a static unit cannot name, so this drop-in,
 * NORMAL_DIR/kdump-file-report.service.d/50-dump-store.conf, makes the
 * whole system read-only (ProtectSystem=strict) but for:
 *
 *  - no target (dumps below path on the root file system, or a raw device
 *    that recover copies into path): path itself;
 *  - a local target: /run/kdump-file (where report-target mounts a target
 *    nothing mounts; the unit's own ReadWritePaths=) and, when /etc/fstab
 *    mounts the target (its source written as the configuration's target
 *    is: UUID=..., LABEL=..., /dev/...), that mount point plus path;
 *  - a network target: its fallback directory, if any (the report does
 *    not write to the collector), and COLLECTOR_COPY_DIR, where
 *    report-target copies the collector's newest dump's kernel log for the
 *    report; the unit may reach the collector's addresses (report-target
 *    runs outside the sandbox, the report keeps AF_UNIX alone).
 *
 * The configuration and fstab as they are when systemd runs generators:
 * at boot and at each daemon-reload.  When either cannot be read, the
 * drop-in says ProtectSystem=full (the unit as it was) and stderr (the
 * kernel log, for a generator) says why: the report is never broken by
 * this and the boot never fails (exit 0 but for bad arguments).
 *
 * KDUMP_FILE_CONF, KDUMP_FILE_FSTAB and KDUMP_FILE_HOSTS name another
 * configuration, fstab and hosts file (the tests').
 */
#include <ctype.h>
#include <errno.h>
#include <libmount/libmount.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collector-copy.h"
#include "conf.h"
#include "sandbox.h"
#include "util.h"

#define UNIT "kdump-file-report.service"
#define DROPIN "50-dump-store.conf"
#define DROPIN_MAX 16384
/* The loading units' ordering after the dump directory's mounts. */
#define MOUNTS_DROPIN "40-dump-mounts.conf"

/* The [Service] lines of the drop-in being built. */
struct dropin {
	char text[DROPIN_MAX];
	size_t len;
};

static int dropin_add(struct dropin *d, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(d->text + d->len, sizeof(d->text) - d->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(d->text) - d->len)
		return -ENOBUFS;
	d->len += n;
	return 0;
}

/*
 * ReadWritePaths="-DIR": quoted, '"' and '\' escaped, '%' doubled
 * (systemd expands specifiers); '-': a directory not there when the
 * report starts is no error.  Control characters cannot be said on one
 * line: -EINVAL.
 */
static int dropin_add_path(struct dropin *d, const char *dir)
{
	char q[2 * PATH_MAX + 8];
	size_t n = 0;

	if (dir[0] != '/')
		return -EINVAL;
	for (const char *s = dir; *s; s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return -EINVAL;
		if (n + 3 > sizeof(q))
			return -ENAMETOOLONG;
		if (*s == '"' || *s == '\\')
			q[n++] = '\\';
		else if (*s == '%')
			q[n++] = '%';
		q[n++] = *s;
	}
	q[n] = '\0';
	return dropin_add(d, "ReadWritePaths=\"-%s\"\n", q);
}

/* mnt + path as the report joins them (dumps_base() in cli.c). */
static int join(const char *mnt, const char *path, char *buf, size_t size)
{
	int n;

	if (strcmp(path, "/") == 0)
		n = snprintf(buf, size, "%s", mnt);
	else
		n = snprintf(buf, size, "%s%s", strcmp(mnt, "/") ? mnt : "",
			     path);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/*
 * one(d, mnt, src, fs, arg) for each fstab entry with a source and an
 * absolute mount point, until one fails.  Returns how many said 1, or a
 * negative errno (fstab unreadable; a missing fstab has none).
 */
static int fstab_each(struct dropin *d, const char *fstab,
		      int (*one)(struct dropin *d, const char *mnt,
				 const char *src, struct libmnt_fs *fs,
				 const void *arg),
		      const void *arg)
{
	struct libmnt_table *tb;
	struct libmnt_iter *it;
	struct libmnt_fs *fs;
	int r, n = 0;

	tb = mnt_new_table();
	it = mnt_new_iter(MNT_ITER_FORWARD);
	if (!tb || !it) {
		r = -ENOMEM;
		goto out;
	}
	/* No fstab: nothing mounts the target but report-target. */
	if (access(fstab, F_OK) < 0 && errno == ENOENT) {
		r = 0;
		goto out;
	}
	r = mnt_table_parse_fstab(tb, fstab);
	if (r < 0)
		goto out;
	while (mnt_table_next_fs(tb, it, &fs) == 0) {
		const char *src = mnt_fs_get_source(fs);
		const char *mnt = mnt_fs_get_target(fs);

		if (!src || !mnt || mnt[0] != '/')
			continue;
		r = one(d, mnt, src, fs, arg);
		if (r < 0)
			goto out;
		n += r;
	}
	r = n;
out:
	mnt_free_iter(it);
	mnt_unref_table(tb);
	return r;
}

/* The dump directory the report writes, for a mount of the target. */
struct report_target {
	const char *target;
	const char *path;
};

static int add_fstab_mount(struct dropin *d, const char *mnt,
			   const char *src,
			   struct libmnt_fs *fs __attribute__((unused)),
			   const void *arg)
{
	const struct report_target *t = arg;
	char dir[PATH_MAX];
	int r;

	if (strcmp(src, t->target) != 0)
		return 0;
	r = join(mnt, t->path, dir, sizeof(dir));
	if (r >= 0)
		r = dropin_add_path(d, dir);
	return r < 0 ? r : 1;
}

/*
 * The mount points fstab gives target (its source spelt the same),
 * joined with path, added to d.  Returns how many, or a negative errno
 * (fstab unreadable; a missing fstab has none).
 */
static int add_fstab_mounts(struct dropin *d, const char *fstab,
			    const char *target, const char *path)
{
	const struct report_target t = { .target = target, .path = path };

	return fstab_each(d, fstab, add_fstab_mount, &t);
}

/*
 * The drop-in's [Service] lines for configuration c.  On failure d holds
 * part of them and err says what could not be decided.
 */
static int dropin_build(struct dropin *d, const struct kdump_conf *c,
			const char *fstab, const char *hosts, struct diag *err)
{
	int r;

	r = dropin_add(d, "# The report writes to the dump store only.\n"
		       "ProtectSystem=strict\n");
	if (r < 0)
		return diag_fail(err, r, "the drop-in does not fit");
	/*
	 * The report does not write to a network target (dumps_base()), but
	 * into its fallback directory, where the capture saved a dump it
	 * could not send.
	 */
	if (c->net != CONF_NET_NONE) {
		struct sandbox sb;

		sandbox_for(c, hosts, &sb);
		r = dropin_add(d, "# Its copies of the collector's newest dump, made by report-target\n"
			       "# outside the sandbox ('+'): the collector's addresses alone.  The\n"
			       "# report itself keeps AF_UNIX only.\n"
			       "ReadWritePaths=\"-" COLLECTOR_COPY_DIR "\"\n"
			       "PrivateNetwork=no\n"
			       "IPAddressAllow=%s\n", sb.allow);
		if (r < 0)
			return diag_fail(err, r, "the drop-in does not fit");
		if (!c->fallback[0])
			return 0;
		r = dropin_add_path(d, c->fallback);
		if (r < 0)
			return diag_fail(err, r, "fallback '%s': %s",
					 c->fallback, strerror(-r));
		return r;
	}
	if (!c->target[0]) {
		r = dropin_add_path(d, c->path);
		if (r < 0)
			return diag_fail(err, r, "path '%s': %s", c->path,
					 strerror(-r));
		return r;
	}
	r = add_fstab_mounts(d, fstab, c->target, c->path);
	if (r < 0)
		return diag_fail(err, r, "cannot read %s: %s", fstab,
				 strerror(-r));
	return 0;
}

/* text as normal_dir/unit.d/name; "" removes it (a directory reused). */
static int write_dropin(const char *normal_dir, const char *unit,
			const char *name, const char *text)
{
	char dir[PATH_MAX];
	int r;

	if (snprintf(dir, sizeof(dir), "%s/%s.d", normal_dir, unit) >=
	    (int)sizeof(dir) - (int)strlen(name) - 1)
		return -ENAMETOOLONG;
	if (!text[0]) {
		strcat(dir, "/");
		strcat(dir, name);
		return unlink(dir) < 0 && errno != ENOENT ? -errno : 0;
	}
	r = mkdir_p(dir, 0755);
	if (r < 0)
		return r;
	strcat(dir, "/");
	strcat(dir, name);
	return write_file_atomic(dir, text, strlen(text), 0644);
}

/* The report unit's drop-in: the dump store alone writable. */
static void generate_report(const char *normal_dir, const char *conf_path,
			    const struct kdump_conf *c, int conf_r,
			    struct diag *err, const char *fstab,
			    const char *hosts)
{
	static struct dropin d;
	static char text[DROPIN_MAX + 256];
	int r = conf_r;

	d.len = 0;
	if (r >= 0)
		r = dropin_build(&d, c, fstab, hosts, err);
	if (r < 0) {
		/* Undecided: the unit as it was, /var writable. */
		fprintf(stderr, "kdump-file-generator: %s; " UNIT
			" keeps ProtectSystem=full\n", diag_text(err));
		d.len = 0;
		r = dropin_add(&d, "# The dump store could not be told: see the "
			       "boot's log.\nProtectSystem=full\n");
		if (r < 0)
			return;
	}
	/* report-target copies from the collector once it can be reached. */
	snprintf(text, sizeof(text),
		 "# Written by kdump-file-generator from %s.\n%s"
		 "[Service]\n%s", conf_path,
		 conf_r >= 0 && c->net != CONF_NET_NONE ?
		 "[Unit]\nWants=network-online.target\n"
		 "After=network-online.target\n\n" : "", d.text);
	r = write_dropin(normal_dir, UNIT, DROPIN, text);
	if (r < 0)
		fprintf(stderr, "kdump-file-generator: cannot write %s/"
			UNIT ".d/" DROPIN ": %s\n", normal_dir, strerror(-r));
}

/*
 * The mount unit's name of mount point mnt, as systemd spells it
 * (systemd.unit(5), "String Escaping"): without the outer slashes, each
 * '/' a '-', any byte but ASCII letters, digits, ':', '_' and a '.' not
 * first as \xNN; "-.mount" for the root.
 */
static int mount_unit_name(const char *mnt, char *buf, size_t size)
{
	size_t n = 0, len;

	while (*mnt == '/')
		mnt++;
	len = strlen(mnt);
	while (len && mnt[len - 1] == '/')
		len--;
	if (!len)
		return snprintf(buf, size, "-.mount") < (int)size ? 0 : -ENOBUFS;
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)mnt[i];
		int w;

		if (ch == '/')
			w = snprintf(buf + n, size - n, "-");
		else if (isalnum(ch) || ch == ':' || ch == '_' ||
			 (ch == '.' && i))
			w = snprintf(buf + n, size - n, "%c", ch);
		else
			w = snprintf(buf + n, size - n, "\\x%02x", ch);
		if (w < 0 || (size_t)w >= size - n)
			return -ENOBUFS;
		n += w;
	}
	return snprintf(buf + n, size - n, ".mount") < (int)(size - n) ?
	       0 : -ENOBUFS;
}

/* Whether dir is mnt or below it ("/" holds everything). */
static bool below(const char *dir, const char *mnt)
{
	size_t l = strlen(mnt);

	while (l > 1 && mnt[l - 1] == '/')
		l--;
	if (l == 1 && mnt[0] == '/')
		return true;
	return strncmp(dir, mnt, l) == 0 && (dir[l] == '/' || !dir[l]);
}

static int add_mount_after(struct dropin *d, const char *mnt,
			   const char *src, struct libmnt_fs *fs,
			   const void *arg)
{
	const struct kdump_conf *c = arg;
	char unit[3 * PATH_MAX];
	int r;

	if (strcmp(mnt, "/") == 0 || mnt_fs_is_swaparea(fs))
		return 0;
	if (c->target[0] ? strcmp(src, c->target) != 0 : !below(c->path, mnt))
		return 0;
	r = mount_unit_name(mnt, unit, sizeof(unit));
	if (r == 0)
		r = dropin_add(d, "After=%s\n", unit);
	return r < 0 ? r : 1;
}

/*
 * The fstab mounts a local target's dump directory is on, other than the
 * root: with target, those of its source (spelt the same); without, those
 * whose mount point holds path.  One "After=NAME.mount" line each into d,
 * so that a load at boot sees the dump directory's own filesystem, also
 * when fstab says nofail (which orders the mount before no target) or
 * _netdev (an iSCSI disk, mounted once the network and the login are up).
 * Returns how many, or a negative errno.
 */
static int add_mount_order(struct dropin *d, const char *fstab,
			   const struct kdump_conf *c)
{
	if (c->net != CONF_NET_NONE || c->raw[0] || c->path[0] != '/')
		return 0;
	return fstab_each(d, fstab, add_mount_after, c);
}

/*
 * The loading units' ordering after the dump directory's mounts
 * (MOUNTS_DROPIN); none when fstab mounts none of it.
 */
static void generate_mounts(const char *normal_dir, const struct kdump_conf *c,
			    int conf_r, const char *fstab)
{
	static const char *const units[] = {
		"kdump-file.service", "kdump-file-hotplug.service",
	};
	static struct dropin d;
	int r = 0;

	d.len = 0;
	d.text[0] = '\0';
	if (conf_r >= 0)
		r = dropin_add(&d, "# Written by kdump-file-generator: the dump directory's filesystems,\n"
			       "# mounted before a load looks for it (fstab's nofail and _netdev\n"
			       "# mounts are ordered before no target).\n"
			       "[Unit]\n");
	if (r == 0 && conf_r >= 0)
		r = add_mount_order(&d, fstab, c);
	if (r <= 0) {
		if (r < 0)
			fprintf(stderr, "kdump-file-generator: cannot order the loading units after the dump directory's mounts in %s: %s\n",
				fstab, strerror(-r));
		d.text[0] = '\0';
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		r = write_dropin(normal_dir, units[i], MOUNTS_DROPIN, d.text);
		if (r < 0)
			fprintf(stderr, "kdump-file-generator: cannot write %s/%s.d/" MOUNTS_DROPIN ": %s\n",
				normal_dir, units[i], strerror(-r));
	}
}

/*
 * The loading units' drop-in: for a network target, the way to the
 * collector; none otherwise, nor for a configuration that cannot be read
 * (load says what is wrong with it).
 */
static void generate_load(const char *normal_dir, const struct kdump_conf *c,
			  int conf_r, const char *hosts)
{
	static const char *const units[] = {
		"kdump-file.service", "kdump-file-hotplug.service",
	};
	static char text[DROPIN_MAX];
	struct sandbox s = { .net = CONF_NET_NONE };
	int r;

	if (conf_r >= 0)
		sandbox_for(c, hosts, &s);
	r = sandbox_dropin(&s, conf_r >= 0 ? c->target : "", text,
			   sizeof(text));
	if (r < 0) {
		fprintf(stderr, "kdump-file-generator: the network drop-in does not fit: %s; the loading units keep no network\n",
			strerror(-r));
		text[0] = '\0';
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		r = write_dropin(normal_dir, units[i], SANDBOX_DROPIN, text);
		if (r < 0)
			fprintf(stderr, "kdump-file-generator: cannot write %s/%s.d/" SANDBOX_DROPIN ": %s\n",
				normal_dir, units[i], strerror(-r));
	}
}

int main(int argc, char *argv[])
{
	const char *conf_path = getenv("KDUMP_FILE_CONF");
	const char *fstab = getenv("KDUMP_FILE_FSTAB");
	const char *hosts = getenv("KDUMP_FILE_HOSTS");
	struct diag err = DIAG_INIT;
	struct kdump_conf c;
	int r;

	/* systemd gives three directories; one is enough to write to. */
	if ((argc != 2 && argc != 4) || argv[1][0] != '/') {
		fprintf(stderr, "Usage: kdump-file-generator NORMAL_DIR [EARLY_DIR LATE_DIR]\n");
		return 2;
	}
	if (!conf_path || !conf_path[0])
		conf_path = CONF_PATH_DEFAULT;
	if (!fstab || !fstab[0])
		fstab = "/etc/fstab";
	if (!hosts || !hosts[0])
		hosts = "/etc/hosts";

	r = conf_load_or_default(&c, conf_path, &err);
	generate_report(argv[1], conf_path, &c, r, &err, fstab, hosts);
	generate_load(argv[1], &c, r, hosts);
	generate_mounts(argv[1], &c, r, fstab);
	return 0;
}
