// SPDX-License-Identifier: GPL-2.0
/*
 * recover: a dump the capture wrote to the raw dump device, copied into
 * a dump directory below path (see rawdump.h for the device's layout).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/file.h>
#include <sys/ioctl.h>

#include "cli.h"
#include "recover.h"
#include "target.h"
#include "util.h"

/* What recover_dump() could not do, one message a step. */
static void recover_say(const struct recover_outcome *o, const char *dev,
			const char *path)
{
	char dir[PATH_MAX + DUMP_NAME_MAX];

	snprintf(dir, sizeof(dir), "%s/%s", path, o->name);
	if (o->header_error && !o->header_read)
		log_error("cannot read the header of raw dump device %s: %s: nothing recovered",
			  dev, strerror(-o->header_error));
	else if (o->header_error)
		log_error("raw dump device %s has a damaged header (%s): nothing recovered",
			  dev, strerror(-o->header_error));
	if (o->dir_error == -EPERM) {
		char what[64];

		log_error("refusing to recover into %s: %s is %s, and a dump directory must be root's alone (chown root:root, chmod 0700, or set another 'path' in %s); the dump stays on %s",
			  path, o->dir_bad.path,
			  safe_fault_text(&o->dir_bad, what, sizeof(what)),
			  arg_config, dev);
	} else if (o->dir_error)
		log_error("cannot create a dump directory below %s: %s (the dump stays on %s)",
			  path, strerror(-o->dir_error), dev);
	if (o->dmesg_error)
		log_error("cannot recover the dmesg from %s into %s: %s", dev,
			  dir, strerror(-o->dmesg_error));
	if (o->vmcore_error)
		log_error("cannot recover the vmcore from %s into %s: %s (the dump stays on %s: free space below %s and run 'kdump-file recover' again)",
			  dev, dir, o->vmcore_why, dev, path);
	if (o->metadata_error)
		log_error("cannot write %s/%s: %s", dir, DUMP_METADATA,
			  strerror(-o->metadata_error));
	if (o->mark_error)
		log_error("recovered %s, but cannot mark %s recovered: %s", dir,
			  dev, strerror(-o->mark_error));
}

/*
 * Bring a dump from the raw device into a dump directory below path, once:
 * the header is marked recovered afterwards.  Nothing to do (exit 0) when no
 * raw device is configured or it holds no new dump.
 */
static int recover_locked(void)
{
	struct recover_outcome o;
	unsigned long long dev_size = 0;
	_cleanup_close_ int fd = -1;
	char dev[PATH_MAX];
	struct kdump_conf c;
	int r;

	r = load_config(&c);
	if (r < 0 || !c.raw[0])
		return r;
	r = target_find_device(c.raw, dev, sizeof(dev), NULL, 0);
	if (r < 0) {
		log_error("cannot find raw dump device %s: %s", c.raw,
			  strerror(-r));
		return r;
	}
	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &dev_size) < 0) {
		r = -errno;
		log_error("cannot read raw dump device %s: %s", dev,
			  strerror(-r));
		return r;
	}
	r = recover_dump(fd, dev_size, c.raw, dev, c.path, &o);
	recover_say(&o, dev, c.path);
	if (r != 0)
		return r < 0 ? r : 0;
	log_info("recovered the dump on %s into %s/%s%s", dev, c.path, o.name,
		 o.complete ? "" : " (incomplete: no vmcore, see its metadata.json)");
	return 0;
}

/* One recover at a time (load runs one, the report unit another). */
int recover_raw(void)
{
	_cleanup_close_ int fd = -1;
	int r;

	r = mkdir_p(RUN_DIR, 0700);
	if (r < 0)
		return log_create_error("create", RUN_DIR, r);
	fd = open(RUN_DIR "/recover.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return log_create_error("open", RUN_DIR "/recover.lock", -errno);
	if (flock(fd, LOCK_EX) < 0) {
		r = -errno;
		log_error("cannot lock %s/recover.lock: %s", RUN_DIR,
			  strerror(-r));
		return r;
	}
	return recover_locked();
}

int verb_recover(int argc _unused_, char *argv[] _unused_)
{
	return recover_raw();
}
