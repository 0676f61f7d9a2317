// SPDX-License-Identifier: GPL-2.0
/*
 * A dump the capture wrote to the raw dump device, copied into a dump
 * directory below path (see recover-raw.h; rawdump.h for the device's
 * layout): for recover, for load before it loads, for the report unit.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "cli.h"
#include "recover-raw.h"
#include "recover.h"
#include "target.h"
#include "util.h"

/* What recover_dump() could not do, one message a step. */
static void recover_say(struct cli *cli, const struct recover_outcome *o,
			const char *dev, const char *path)
{
	char dir[PATH_MAX + DUMP_NAME_MAX];

	snprintf(dir, sizeof(dir), "%s/%s", path, o->name);
	if (o->header_error && !o->header_read)
		log_error(cli, "cannot read the header of raw dump device %s: %s: nothing recovered",
			  dev, strerror(-o->header_error));
	else if (o->header_error)
		log_error(cli, "raw dump device %s has a damaged header (%s): nothing recovered",
			  dev, strerror(-o->header_error));
	if (o->dir_error == -EPERM) {
		char what[64];

		log_error(cli, "refusing to recover into %s: %s is %s, and a dump directory must be root's alone (chown root:root, chmod 0700, or set another 'path' in %s); the dump stays on %s",
			  path, o->dir_bad.path,
			  safe_fault_text(&o->dir_bad, what, sizeof(what)),
			  cli->opt.config, dev);
	} else if (o->dir_error)
		log_error(cli, "cannot create a dump directory below %s: %s (the dump stays on %s)",
			  path, strerror(-o->dir_error), dev);
	if (o->dmesg_error)
		log_error(cli, "cannot recover the dmesg from %s into %s: %s", dev,
			  dir, strerror(-o->dmesg_error));
	if (o->vmcore_error)
		log_error(cli, "cannot recover the vmcore from %s into %s: %s (the dump stays on %s: free space below %s and run 'kdump-file recover' again)",
			  dev, dir, o->vmcore_why, dev, path);
	if (o->metadata_error)
		log_error(cli, "cannot write %s/%s: %s", dir, DUMP_METADATA,
			  strerror(-o->metadata_error));
	if (o->mark_error)
		log_error(cli, "recovered %s, but cannot mark %s recovered: %s", dir,
			  dev, strerror(-o->mark_error));
}

/*
 * How many devices carry what finds the raw device: the configured spec,
 * and each stable identity dev has (a partition UUID, a WWID, a serial).
 * More than one, and the dump may be on any of them: which one is read,
 * and marked recovered, would be chance.  Returns the largest count, the
 * identity it was found for in what.
 */
static int raw_carriers(const char *spec, const char *dev, char *what,
			size_t size)
{
	static const char *const tags[] = { "PARTUUID", "WWID", "SERIAL" };
	char sysdir[64], val[256], id[300], found[PATH_MAX];
	struct stat st;
	int n, most;

	most = target_find_device_n(spec, found, sizeof(found), NULL, 0);
	if (most < 0)
		return most;
	text_format(what, size, "%s", spec);
	if (stat(dev, &st) < 0)
		return -errno;
	snprintf(sysdir, sizeof(sysdir), "/sys/dev/block/%u:%u",
		 major(st.st_rdev), minor(st.st_rdev));
	for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		if (target_device_id(sysdir, dev, tags[i], val, sizeof(val)) < 0 ||
		    !val[0])
			continue;
		snprintf(id, sizeof(id), "%s=%s", tags[i], val);
		n = target_find_device_n(id, found, sizeof(found), NULL, 0);
		if (n > most) {
			most = n;
			snprintf(what, size, "%s", id);
		}
	}
	return most;
}

/*
 * Bring a dump from the raw device into a dump directory below path, once:
 * the header is marked recovered afterwards.  Nothing to do (exit 0) when no
 * raw device is configured or it holds no new dump.
 */
static int recover_locked(struct cli *cli)
{
	struct recover_outcome o;
	unsigned long long dev_size = 0;
	_cleanup_close_ int fd = -1;
	char dev[PATH_MAX], what[300];
	const struct kdump_conf *c;
	int r;

	r = load_config(cli, &c);
	if (r < 0 || !c->raw[0])
		return r;
	r = target_find_device(c->raw, dev, sizeof(dev), NULL, 0);
	if (r < 0) {
		log_error(cli, "cannot find raw dump device %s: %s", c->raw,
			  strerror(-r));
		return r;
	}
	r = raw_carriers(c->raw, dev, what, sizeof(what));
	if (r > 1) {
		log_error(cli, "%d devices carry raw dump device %s's identity %s: nothing read or marked on any of them; detach the copy (a clone, a stick with the same partition table) and run 'kdump-file recover' again",
			  r, c->raw, what);
		return -ENOTUNIQ;
	}
	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &dev_size) < 0) {
		r = -errno;
		log_error(cli, "cannot read raw dump device %s: %s", dev,
			  strerror(-r));
		return r;
	}
	r = recover_dump(fd, dev_size, c->raw, dev, c->path, &o);
	recover_say(cli, &o, dev, c->path);
	if (r != 0)
		return r < 0 ? r : 0;
	log_info(cli, "recovered the dump on %s into %s/%s%s", dev, c->path, o.name,
		 o.complete ? "" : " (incomplete: no vmcore, see its metadata.json)");
	return 0;
}

/* One recover at a time (load runs one, the report unit another). */
int recover_raw(struct cli *cli)
{
	_cleanup_close_ int fd = -1;
	int r;

	r = mkdir_p(RUN_DIR, 0700);
	if (r < 0)
		return log_create_error(cli, "create", RUN_DIR, r);
	r = lock_file(RUN_DIR "/recover.lock", true, &fd);
	if (r < 0)
		return log_create_error(cli, "lock", RUN_DIR "/recover.lock", r);
	return recover_locked(cli);
}
