// SPDX-License-Identifier: GPL-2.0
/*
 * The dump on a raw device: header (writing), dmesg, the vmcore in
 * makedumpfile's flattened format, header again (complete or failed).
 * Never over a dump not yet recovered, nor over what is not ours.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "process.h"
#include "target.h"
#include "util.h"

static int pwrite_all(int fd, const char *buf, size_t len, off_t off)
{
	while (len > 0) {
		ssize_t n = pwrite(fd, buf, len, off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf += n;
		len -= n;
		off += n;
	}
	return 0;
}

static int raw_write_header(int fd, const struct raw_header *h)
{
	char buf[RAW_HEADER_SIZE];
	int r;

	r = raw_header_format(h, buf);
	if (r == 0)
		r = pwrite_all(fd, buf, sizeof(buf), 0);
	if (r == 0 && fdatasync(fd) < 0)
		r = -errno;
	return r;
}

/* Never over an unrecovered dump, or over what is not ours. */
static int raw_check(struct capture *cap, int fd, const char *dev)
{
	char buf[RAW_HEADER_SIZE], sig[64] = "";
	struct raw_header old = { 0 };
	ssize_t n = pread(fd, buf, sizeof(buf), 0);
	int r;

	if (n < 0) {
		r = -errno;
		capture_say(cap, "error: cannot read raw dump device %s: %s",
			    dev, strerror(-r));
		return r;
	}
	if (raw_header_parse(buf, n, cap->raw_size, &old) == -ENODATA &&
	    target_signature(dev, sig, sizeof(sig)) < 0)
		sig[0] = '\0';
	r = raw_may_write(buf, n, cap->raw_size, sig, cap->conf.raw_overwrite,
			  cap->conf.raw_force, &old);
	if (r == -EEXIST)
		capture_say(cap, "error: raw dump device %s holds a dump of %s not yet recovered: it is kept and this crash is not saved (raw_overwrite = yes replaces such a dump)",
			    dev, old.release[0] ? old.release : "an unknown kernel");
	else if (r == -ENOTEMPTY)
		capture_say(cap, "error: raw dump device %s holds %s data, not a dump device as checked at load: nothing written to it",
			    dev, sig);
	return r;
}

static int raw_open(struct capture *cap, const char *dev)
{
	int fd, r;

	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &cap->raw_size) < 0) {
		r = -errno;
		capture_say(cap, "error: cannot open raw dump device %s: %s",
			    dev, strerror(-r));
		if (fd >= 0)
			close(fd);
		return r;
	}
	return fd;
}

int phase_raw_open(struct capture *cap)
{
	struct capture_vmcoreinfo vi;
	int fd, r;

	r = capture_wait_device(cap, cap->conf.raw, cap->dev, sizeof(cap->dev),
				NULL, 0);
	if (r < 0) {
		capture_say(cap, "error: raw dump device %s not found within %us: %s",
			    cap->conf.raw, cap->conf.target_timeout,
			    strerror(-r));
		return r;
	}
	fd = raw_open(cap, cap->dev);
	if (fd < 0)
		return fd;
	r = raw_check(cap, fd, cap->dev);
	(void)capture_vmcoreinfo(cap, &vi);
	cap->raw = (struct raw_header){ .state = RAW_WRITING };
	cap->raw.time = time(NULL);
	snprintf(cap->raw.release, sizeof(cap->raw.release), "%s", vi.release);
	if (r == 0)
		r = raw_write_header(fd, &cap->raw);
	if (r < 0) {
		close(fd);
		return r;
	}
	cap->raw_fd = fd;
	capture_step(cap, "writing to the raw device");
	capture_say(cap, "writing to raw device %s (%llu MiB)", cap->dev,
		    cap->raw_size >> 20);
	return 0;
}

/* dmesg first, through a file in the initramfs; without it, none. */
int phase_raw_dmesg(struct capture *cap)
{
	char tmp[PATH_MAX];
	char *argv[] = { "makedumpfile", "--dump-dmesg",
			 (char *)cap->paths.vmcore, tmp, NULL };
	struct process_result res;
	char *buf = NULL;
	ssize_t n = 0;
	int fd;

	snprintf(tmp, sizeof(tmp), "%s/kdump-file-dmesg.txt", cap->paths.tmp);
	(void)mkdir(cap->paths.tmp, 01777);
	(void)unlink(tmp);
	/* At most 1 MiB of it: the device is for the vmcore. */
	if (capture_exec(cap, argv, -1, &res) == 0 && process_succeeded(&res) &&
	    (fd = open(tmp, O_RDONLY | O_CLOEXEC)) >= 0) {
		buf = malloc(1 << 20);
		if (buf)
			n = read(fd, buf, 1 << 20);
		close(fd);
	}
	if (n > 0 && RAW_HEADER_SIZE + (unsigned long long)n <= cap->raw_size &&
	    pwrite_all(cap->raw_fd, buf, n, RAW_HEADER_SIZE) == 0) {
		cap->raw.dmesg_off = RAW_HEADER_SIZE;
		cap->raw.dmesg_len = n;
		capture_say(cap, "dmesg saved (%zd bytes)", n);
	}
	free(buf);
	(void)unlink(tmp);
	cap->raw.vmcore_off = (RAW_HEADER_SIZE + cap->raw.dmesg_len + 4095) /
			      4096 * 4096;
	return 0;
}

/*
 * makedumpfile writes the flattened format to its standard output: the
 * device itself, from behind the dmesg on.  Where it stopped is the
 * length; the kernel ends a write at the device's end (blkdev_write_iter()
 * in block/fops.c), so one that reached it means the device is too small.
 */
static int raw_copy_vmcore(struct capture *cap, unsigned long long *ret_len,
			   char *why, size_t size)
{
	unsigned long long off = cap->raw.vmcore_off;
	struct conf_makedumpfile_cmd cmd;
	struct process_result res;
	off_t end;
	int r;

	*ret_len = 0;
	r = conf_makedumpfile_cmd(&cap->conf, cap->paths.vmcore, NULL, NULL,
				  &cmd);
	if (r < 0)
		return r;
	if (lseek(cap->raw_fd, off, SEEK_SET) < 0)
		return -errno;
	r = capture_exec(cap, cmd.argv, cap->raw_fd, &res);
	if (capture_run_failed(r, &res, why, size) && r < 0)
		return r;
	end = lseek(cap->raw_fd, 0, SEEK_CUR);
	if (end < 0)
		return -errno;
	*ret_len = (unsigned long long)end > off ? end - off : 0;
	if (process_succeeded(&res))
		return 0;
	return (unsigned long long)end >= cap->raw_size ? -ENOSPC : -EIO;
}

int phase_raw_vmcore(struct capture *cap)
{
	struct raw_header *h = &cap->raw;
	char line[1024], why[128] = "";
	unsigned long long t;
	int r;

	(void)capture_makedumpfile_text(cap, NULL, NULL, line, sizeof(line));
	capture_say(cap, "saving vmcore (%s)", line);
	t = now_ms();
	r = raw_copy_vmcore(cap, &h->vmcore_len, why, sizeof(why));
	if (r < 0) {
		h->state = RAW_FAILED;
		if (r == -ENOSPC)
			snprintf(h->error, sizeof(h->error),
				 "the raw device is too small for the vmcore");
		else
			snprintf(h->error, sizeof(h->error), "makedumpfile %s",
				 why[0] ? why : strerror(-r));
		capture_say(cap, "error: vmcore not saved: %s", h->error);
		h->vmcore_len = 0;
		return r;
	}
	h->state = RAW_COMPLETE;
	capture_say(cap, "vmcore saved (%llu bytes in %.1fs)", h->vmcore_len,
		    (now_ms() - t) / 1000.0);
	return 0;
}

/* The header again, saying how the dump ended. */
int phase_raw_close(struct capture *cap)
{
	int r = 0, r2;

	if (cap->raw_fd < 0)
		return 0;
	if (fdatasync(cap->raw_fd) < 0)
		r = -errno;
	r2 = raw_write_header(cap->raw_fd, &cap->raw);
	close(cap->raw_fd);
	cap->raw_fd = -1;
	return r < 0 ? r : r2;
}
