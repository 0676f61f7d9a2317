// SPDX-License-Identifier: GPL-2.0
/*
 * report and report-target: a dump's report written with
 * kdump-file-analyze, and the report unit's mount of a dump target.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <systemd/sd-journal.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "cli.h"
#include "collector-copy.h"
#include "dumpdir.h"
#include "journal.h"
#include "process.h"
#include "store.h"
#include "target-mount.h"
#include "target.h"

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
			r = store_net_local_last(c, dir, sizeof(dir));
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
	char name[DUMP_NAME_MAX];
	struct diag d = DIAG_INIT;
	int r;

	r = collector_copy_newest(c, collector_copy_dir(), name, sizeof(name),
				  &d);
	if (r < 0 && r != -ENOENT)
		log_warning(cli, "cannot copy the newest dump's kernel log from the collector of %s: %s; it is reported at a boot where the collector answers",
			    c->target, diag_text(&d));
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
