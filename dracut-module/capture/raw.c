// SPDX-License-Identifier: GPL-2.0
/*
 * The dump on a raw device: header (writing), dmesg, the vmcore in
 * makedumpfile's flattened format, header again (complete or failed).
 * Never over a dump not yet recovered, nor over what is not ours, nor
 * over any device when more than one, or none, carries the identity load
 * recorded.
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
		return capture_fail(cap, r, "cannot read raw dump device %s: %s",
				    dev, strerror(-r));
	}
	if (raw_header_parse(buf, n, cap->raw_size, &old) == -ENODATA &&
	    target_signature(dev, sig, sizeof(sig)) < 0)
		sig[0] = '\0';
	r = raw_may_write(buf, n, cap->raw_size, sig, cap->conf.raw_overwrite,
			  cap->conf.raw_force, &old);
	if (r == -EEXIST)
		return capture_fail(cap, r, "raw dump device %s holds a dump of %s not yet recovered: it is kept and this crash is not saved (raw_overwrite = yes replaces such a dump)",
				    dev, old.release[0] ? old.release : "an unknown kernel");
	if (r == -ENOTEMPTY)
		return capture_fail(cap, r, "raw dump device %s holds %s data, not a dump device as checked at load: nothing written to it",
				    dev, sig);
	return r;
}

static int raw_open(struct capture *cap, const char *dev)
{
	int fd, r;

	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &cap->raw_size) < 0) {
		r = -errno;
		if (fd >= 0)
			close(fd);
		return capture_fail(cap, r, "cannot open raw dump device %s: %s",
				    dev, strerror(-r));
	}
	return fd;
}

/* "SERIAL=x, 1073741824 bytes, on disk WWID=y", for the messages. */
static void raw_identity_text(const struct target_identity *id, char *buf,
			      size_t size)
{
	char sz[48] = "";

	if (id->size)
		snprintf(sz, sizeof(sz), ", %llu bytes", id->size);
	snprintf(buf, size, "%s%s%s%s", id->spec, sz,
		 id->disk[0] ? ", on disk " : "", id->disk);
}

/* Count who carries id, loading drivers until one has its spec or time is up. */
static int raw_wait(struct capture *cap, const struct target_identity *id,
		    struct target_match *m)
{
	unsigned long long deadline = now_ms() + cap->conf.target_timeout * 1000ULL;
	int r;

	for (;;) {
		r = target_identity_count(cap->paths.sys_class_block,
					  cap->paths.dev, id, m);
		if ((r == 0 && m->n_match + m->n_other > 0) || now_ms() >= deadline)
			return r;
		drivers_step(cap);
		usleep(100 * 1000);
	}
}

/*
 * The one device that carries the identity load recorded (raw_identity,
 * or raw alone from a load that could not see the device), in dev.  The
 * wait ends when a device with its spec appears; then raw_settle_ms more,
 * still loading drivers, so that a second one that the same driver brings
 * up is counted too: a clone is refused whichever of the two comes first.
 * Two or more, or only devices of another size or disk: nothing written,
 * and the failure record says who carries it.
 */
static int raw_find(struct capture *cap, char *dev, size_t size,
		    struct target_identity *ret_id)
{
	const struct kdump_conf *c = &cap->conf;
	struct target_identity id = { 0 };
	struct target_match m;
	char what[700];
	int r;

	if ((!c->raw_identity[0] ||
	     target_identity_parse(c->raw_identity, &id) < 0) &&
	    path_format(id.spec, sizeof(id.spec), "%s", c->raw) < 0)
		return capture_fail(cap, -ENAMETOOLONG, "raw dump device %s: longer than %zu bytes",
				    c->raw, sizeof(id.spec) - 1);
	raw_identity_text(&id, what, sizeof(what));
	capture_step(cap, "waiting for the dump target");
	capture_say(cap, "waiting up to %us for raw dump device %s",
		    c->target_timeout, what);
	r = raw_wait(cap, &id, &m);
	if (r == 0 && m.n_match + m.n_other > 0) {
		unsigned long long end = now_ms() + cap->raw_settle_ms;

		while (now_ms() < end) {
			drivers_step(cap);
			usleep(100 * 1000);
		}
		r = target_identity_count(cap->paths.sys_class_block,
					  cap->paths.dev, &id, &m);
	}
	drivers_summary(cap);
	if (r < 0)
		return capture_fail(cap, r, "cannot list the block devices in %s: %s",
				    cap->paths.sys_class_block, strerror(-r));
	if (m.n_match + m.n_other == 0)
		return capture_fail(cap, -ENODEV, "raw dump device %s not found within %us: %s",
				    c->raw, c->target_timeout, strerror(ENODEV));
	capture_step(cap, "identifying the raw dump device");
	if (m.n_match > 1)
		return capture_fail(cap, -ENOTUNIQ, "%u devices carry the raw dump device's identity (%s): %s: nothing written to %s",
				    m.n_match, what, m.names,
				    m.n_match == 2 ? "either" : "any of them");
	if (m.n_match == 0)
		return capture_fail(cap, -ENODEV, "no device carries the raw dump device's identity (%s): %s: nothing written to %s",
				    what, m.others, m.n_other == 1 ? "it" : "them");
	if (m.n_other)
		capture_say(cap, "warning: not the raw dump device, though carrying %s: %s",
			    id.spec, m.others);
	if ((size_t)snprintf(dev, size, "%s/%s", cap->paths.dev, m.first) >= size)
		return -ENAMETOOLONG;
	*ret_id = id;
	return 0;
}

int phase_raw_open(struct capture *cap)
{
	struct capture_vmcoreinfo vi;
	struct target_identity id = { 0 };
	int fd, r;

	r = raw_find(cap, cap->dev, sizeof(cap->dev), &id);
	if (r < 0)
		return r;
	fd = raw_open(cap, cap->dev);
	if (fd < 0)
		return fd;
	/* The size again, of the device opened: what is written to. */
	if (id.size && cap->raw_size != id.size) {
		close(fd);
		return capture_fail(cap, -ENODEV, "raw dump device %s has %llu bytes, not %llu as when loaded: nothing written to it",
				    cap->dev, cap->raw_size, id.size);
	}
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
			   struct diag *d)
{
	unsigned long long off = cap->raw.vmcore_off;
	struct conf_makedumpfile_cmd cmd;
	struct process_result res;
	char how[128] = "";
	off_t end;
	int r;

	*ret_len = 0;
	r = conf_makedumpfile_cmd(&cap->conf, cap->paths.vmcore, NULL, NULL,
				  &cmd);
	if (r < 0)
		goto fail;
	if (lseek(cap->raw_fd, off, SEEK_SET) < 0) {
		r = -errno;
		goto fail;
	}
	r = capture_exec(cap, cmd.argv, cap->raw_fd, &res);
	if (capture_run_failed(r, &res, how, sizeof(how)) && r < 0)
		goto fail;
	end = lseek(cap->raw_fd, 0, SEEK_CUR);
	if (end < 0) {
		r = -errno;
		goto fail;
	}
	*ret_len = (unsigned long long)end > off ? end - off : 0;
	if (process_succeeded(&res))
		return 0;
	r = (unsigned long long)end >= cap->raw_size ? -ENOSPC : -EIO;
fail:
	if (r == -ENOSPC)
		return diag_fail(d, r, "the raw device is too small for the vmcore");
	return diag_fail(d, r, "makedumpfile %s", how[0] ? how : strerror(-r));
}

int phase_raw_vmcore(struct capture *cap)
{
	struct raw_header *h = &cap->raw;
	struct diag why = DIAG_INIT;
	unsigned long long t;
	char line[1024];
	int r;

	(void)capture_makedumpfile_text(cap, NULL, NULL, line, sizeof(line));
	capture_say(cap, "saving vmcore (%s)", line);
	t = now_ms();
	r = raw_copy_vmcore(cap, &h->vmcore_len, &why);
	if (r < 0) {
		h->state = RAW_FAILED;
		h->vmcore_len = 0;
		snprintf(h->error, sizeof(h->error), "%s", diag_text(&why));
		return capture_fail(cap, r, "vmcore not saved: %s", h->error);
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
