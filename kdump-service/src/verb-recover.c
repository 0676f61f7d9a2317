// SPDX-License-Identifier: GPL-2.0
/*
 * recover: a dump the capture wrote to the raw dump device, copied into
 * a dump directory below path (see rawdump.h for the device's layout).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include "cli.h"
#include "json.h"
#include "rawdump.h"
#include "target.h"
#include "util.h"

/*
 * Bring a dump from the raw device into a dump directory below path, once:
 * the header is marked recovered afterwards.  Nothing to do (exit 0) when no
 * raw device is configured or it holds no new dump.
 */
static int recover_locked(void)
{
	char dev[PATH_MAX], hbuf[RAW_HEADER_SIZE], dir[PATH_MAX + 64];
	char p[PATH_MAX + 96];
	unsigned long long dev_size = 0;
	struct raw_header h;
	struct kdump_conf c;
	bool rec_complete;
	struct tm tm;
	time_t t;
	int fd, r, r_dmesg = 0;

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
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &dev_size) < 0 ||
	    pread(fd, hbuf, sizeof(hbuf), 0) != (ssize_t)sizeof(hbuf)) {
		r = -errno;
		log_error("cannot read raw dump device %s: %s", dev, strerror(-r));
		if (fd >= 0)
			close(fd);
		return r;
	}
	r = raw_header_parse(hbuf, sizeof(hbuf), dev_size, &h);
	if (r == -ENODATA || (r == 0 && (h.state == RAW_RECOVERED))) {
		close(fd);
		return 0;
	}
	if (r < 0) {
		log_error("raw dump device %s has a damaged header (%s): nothing recovered",
			  dev, strerror(-r));
		close(fd);
		return r;
	}
	t = h.time;
	gmtime_r(&t, &tm);
	snprintf(dir, sizeof(dir), "%s/%04d-%02d-%02d-%02d:%02d:%02d", c.path,
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec);
	r = mkdir_p(dir, 0700);
	if (r < 0) {
		log_error("cannot create %s: %s", dir, strerror(-r));
		close(fd);
		return r;
	}
	if (h.dmesg_len) {
		char *d = malloc(h.dmesg_len);

		r = -ENOMEM;
		if (d && pread(fd, d, h.dmesg_len, h.dmesg_off) ==
				 (ssize_t)h.dmesg_len) {
			snprintf(p, sizeof(p), "%s/dmesg.txt", dir);
			r = write_file_atomic(p, d, h.dmesg_len, 0600);
		}
		free(d);
		if (r < 0) {
			log_error("cannot recover the dmesg from %s into %s: %s",
				  dev, dir, strerror(-r));
			r_dmesg = r;
		}
	}
	if (h.state == RAW_COMPLETE) {
		/* makedumpfile -R reads the flattened stream from stdin. */
		char inc[PATH_MAX + 96], core[PATH_MAX + 96];
		char *const argv[] = { "makedumpfile", "-R", inc, NULL };
		int saved = dup(STDIN_FILENO);

		snprintf(inc, sizeof(inc), "%s/vmcore-incomplete", dir);
		snprintf(core, sizeof(core), "%s/vmcore", dir);
		(void)unlink(inc);
		if (lseek(fd, h.vmcore_off, SEEK_SET) < 0 ||
		    dup2(fd, STDIN_FILENO) < 0) {
			r = -errno;
		} else {
			r = run_program(argv, STDERR_FILENO);
			r = r == 0 ? 0 : r < 0 ? r : -EIO;
		}
		if (saved >= 0) {
			dup2(saved, STDIN_FILENO);
			close(saved);
		}
		if (r == 0 && chmod(inc, 0600) < 0)
			r = -errno;
		if (r == 0 && rename(inc, core) < 0)
			r = -errno;
		if (r == 0)
			r = fsync_parent(core);
		if (r < 0) {
			log_error("cannot recover the vmcore from %s into %s: %s (the dump stays on %s: free space below %s and run 'kdump-file recover' again)",
				  dev, dir, strerror(-r), dev, c.path);
			snprintf(h.error, sizeof(h.error), "recovery failed: %s",
				 strerror(-r));
		}
	}
	{
		bool ok = h.state == RAW_COMPLETE && r == 0;
		struct json_object *o = json_object_new_object();
		int m = o ? 0 : -ENOMEM;

		/* The header's text comes from the crashed kernel's disk. */
		if (m == 0)
			m = json_set_text(o, "kernel_release", h.release);
		if (m == 0)
			m = json_set_int(o, "crash_time", h.time);
		if (m == 0)
			m = json_set_bool(o, "complete", ok);
		if (m == 0)
			m = json_set_text(o, "target", c.raw);
		if (m == 0)
			m = json_set_text(o, "recovered_from", dev);
		if (m == 0)
			m = json_set_text(o, "error", ok ? "" : h.error[0] ? h.error :
					  h.state == RAW_WRITING ? "the capture did not finish (power loss or a crash during the dump)" :
					  "the capture failed");
		snprintf(p, sizeof(p), "%s/metadata.json", dir);
		if (m == 0)
			m = json_write_atomic(p, o, 0600);
		json_object_put(o);
		if (m < 0)
			log_error("cannot write %s: %s", p, strerror(-m));
	}
	/*
	 * A vmcore that could not be recovered stays on the device, marked
	 * as it was, for the next try; a failure is reported as one.
	 */
	if (r == 0)
		r = r_dmesg;
	if (r < 0) {
		close(fd);
		return r;
	}
	rec_complete = h.state == RAW_COMPLETE;
	h.state = RAW_RECOVERED;
	if (raw_header_format(&h, hbuf) == 0 &&
	    (pwrite(fd, hbuf, sizeof(hbuf), 0) != (ssize_t)sizeof(hbuf) ||
	     fdatasync(fd) < 0))
		log_error("recovered %s, but cannot mark %s recovered: %s", dir,
			  dev, strerror(errno));
	close(fd);
	log_info("recovered the dump on %s into %s%s", dev, dir,
		 rec_complete ? "" : " (incomplete: no vmcore, see its metadata.json)");
	return 0;
}

/* One recover at a time (load runs one, the report unit another). */
int recover_raw(void)
{
	int fd, r;

	r = mkdir_p(RUN_DIR, 0700);
	if (r < 0)
		return log_create_error("create", RUN_DIR, r);
	fd = open(RUN_DIR "/recover.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return log_create_error("open", RUN_DIR "/recover.lock", -errno);
	if (flock(fd, LOCK_EX) < 0) {
		r = -errno;
		log_error("cannot lock %s/recover.lock: %s", RUN_DIR, strerror(-r));
		if (fd >= 0)
			close(fd);
		return r;
	}
	r = recover_locked();
	close(fd);
	return r;
}

int verb_recover(int argc _unused_, char *argv[] _unused_)
{
	return recover_raw();
}
