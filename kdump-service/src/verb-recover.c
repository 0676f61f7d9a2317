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
 * The raw dump device and its header: 0 with the device open when it
 * holds a dump not yet recovered, 1 (closed) when it holds none.
 */
static int raw_open(const char *raw, char *dev, size_t size,
		    char hbuf[RAW_HEADER_SIZE], struct raw_header *h,
		    int *ret_fd)
{
	unsigned long long dev_size = 0;
	int fd, r;

	r = target_find_device(raw, dev, size, NULL, 0);
	if (r < 0) {
		log_error("cannot find raw dump device %s: %s", raw,
			  strerror(-r));
		return r;
	}
	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &dev_size) < 0 ||
	    pread(fd, hbuf, RAW_HEADER_SIZE, 0) != (ssize_t)RAW_HEADER_SIZE) {
		r = -errno;
		log_error("cannot read raw dump device %s: %s", dev, strerror(-r));
		if (fd >= 0)
			close(fd);
		return r;
	}
	r = raw_header_parse(hbuf, RAW_HEADER_SIZE, dev_size, h);
	if (r == -ENODATA || (r == 0 && (h->state == RAW_RECOVERED))) {
		close(fd);
		return 1;
	}
	if (r < 0) {
		log_error("raw dump device %s has a damaged header (%s): nothing recovered",
			  dev, strerror(-r));
		close(fd);
		return r;
	}
	*ret_fd = fd;
	return 0;
}

/* The kernel log the capture wrote to the device, into dir/dmesg.txt. */
static int recover_dmesg(int fd, const struct raw_header *h, const char *dev,
			 const char *dir)
{
	char p[PATH_MAX + 96];
	char *d;
	int r = -ENOMEM;

	if (!h->dmesg_len)
		return 0;
	d = malloc(h->dmesg_len);
	if (d && pread(fd, d, h->dmesg_len, h->dmesg_off) ==
			 (ssize_t)h->dmesg_len) {
		snprintf(p, sizeof(p), "%s/dmesg.txt", dir);
		r = write_file_atomic(p, d, h->dmesg_len, 0600);
	}
	free(d);
	if (r < 0)
		log_error("cannot recover the dmesg from %s into %s: %s", dev,
			  dir, strerror(-r));
	return r;
}

/*
 * The vmcore, unflattened by makedumpfile -R (which reads the stream from
 * stdin) into dir/vmcore-incomplete, renamed when whole.  A failure is
 * noted in h->error for metadata.json.
 */
static int recover_vmcore(int fd, struct raw_header *h, const char *dev,
			  const char *dir, const char *path)
{
	char inc[PATH_MAX + 96], core[PATH_MAX + 96];
	char *const argv[] = { "makedumpfile", "-R", inc, NULL };
	int saved = dup(STDIN_FILENO), r;

	snprintf(inc, sizeof(inc), "%s/vmcore-incomplete", dir);
	snprintf(core, sizeof(core), "%s/vmcore", dir);
	(void)unlink(inc);
	if (lseek(fd, h->vmcore_off, SEEK_SET) < 0 ||
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
			  dev, dir, strerror(-r), dev, path);
		snprintf(h->error, sizeof(h->error), "recovery failed: %s",
			 strerror(-r));
	}
	return r;
}

/* dir/metadata.json, as the capture writes it for a dump directory. */
static void recover_metadata(const struct raw_header *h, bool ok,
			     const char *raw, const char *dev, const char *dir)
{
	struct json_object *o = json_object_new_object();
	char p[PATH_MAX + 96];
	int m = o ? 0 : -ENOMEM;

	/* The header's text comes from the crashed kernel's disk. */
	if (m == 0)
		m = json_set_text(o, "kernel_release", h->release);
	if (m == 0)
		m = json_set_int(o, "crash_time", h->time);
	if (m == 0)
		m = json_set_bool(o, "complete", ok);
	if (m == 0)
		m = json_set_text(o, "target", raw);
	if (m == 0)
		m = json_set_text(o, "recovered_from", dev);
	if (m == 0)
		m = json_set_text(o, "error", ok ? "" : h->error[0] ? h->error :
				  h->state == RAW_WRITING ? "the capture did not finish (power loss or a crash during the dump)" :
				  "the capture failed");
	snprintf(p, sizeof(p), "%s/metadata.json", dir);
	if (m == 0)
		m = json_write_atomic(p, o, 0600);
	json_object_put(o);
	if (m < 0)
		log_error("cannot write %s: %s", p, strerror(-m));
}

/*
 * Bring a dump from the raw device into a dump directory below path, once:
 * the header is marked recovered afterwards.  Nothing to do (exit 0) when no
 * raw device is configured or it holds no new dump.
 */
static int recover_locked(void)
{
	char dev[PATH_MAX], hbuf[RAW_HEADER_SIZE], dir[PATH_MAX + 64];
	struct raw_header h;
	struct kdump_conf c;
	bool complete;
	struct tm tm;
	time_t t;
	int fd = -1, r, r_dmesg;

	r = load_config(&c);
	if (r < 0 || !c.raw[0])
		return r;
	r = raw_open(c.raw, dev, sizeof(dev), hbuf, &h, &fd);
	if (r != 0)
		return r < 0 ? r : 0;
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
	complete = h.state == RAW_COMPLETE;
	r = r_dmesg = recover_dmesg(fd, &h, dev, dir);
	if (complete)
		r = recover_vmcore(fd, &h, dev, dir, c.path);
	recover_metadata(&h, complete && r == 0, c.raw, dev, dir);
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
	h.state = RAW_RECOVERED;
	if (raw_header_format(&h, hbuf) == 0 &&
	    (pwrite(fd, hbuf, sizeof(hbuf), 0) != (ssize_t)sizeof(hbuf) ||
	     fdatasync(fd) < 0))
		log_error("recovered %s, but cannot mark %s recovered: %s", dir,
			  dev, strerror(errno));
	close(fd);
	log_info("recovered the dump on %s into %s%s", dev, dir,
		 complete ? "" : " (incomplete: no vmcore, see its metadata.json)");
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
