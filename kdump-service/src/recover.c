// SPDX-License-Identifier: GPL-2.0
/*
 * recover: the raw dump device's dump into a dump directory, through lib's
 * dump directory format alone (dumpdir.h): the directory named as the
 * capture names it ("-N" for a second crash in the same second), the
 * vmcore committed as the capture commits it, metadata.json by its one
 * writer.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "process.h"
#include "recover.h"
#include "util.h"

/* len bytes at off, all of them: a device that ends early is -EIO. */
static int pread_full(int fd, void *buf, size_t len, unsigned long long off)
{
	char *p = buf;

	while (len > 0) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
		off += (unsigned long long)n;
	}
	return 0;
}

/* The kernel log the capture wrote to the device, as DUMP_DMESG. */
static int recover_dmesg(int fd, const struct raw_header *h, int dirfd)
{
	_cleanup_free_ char *d = NULL;
	int r;

	if (!h->dmesg_len)
		return 0;
	d = malloc(h->dmesg_len);
	if (!d)
		return -ENOMEM;
	r = pread_full(fd, d, h->dmesg_len, h->dmesg_off);
	if (r < 0)
		return r;
	return write_file_atomic_at(dirfd, DUMP_DMESG, d, h->dmesg_len, 0600);
}

/*
 * The vmcore: makedumpfile -R reads the flattened stream from its stdin
 * (the device, from the vmcore's offset) and writes DUMP_VMCORE_INCOMPLETE,
 * committed when makedumpfile succeeded.  Its output goes to our stderr,
 * with the messages.  Why it failed goes to out->vmcore_why.
 *
 * makedumpfile creates its output O_CREAT | O_EXCL (an existing name, a
 * link included, is refused) and takes no descriptor for it, so it runs
 * in the dump directory, entered through our descriptor of it
 * (/proc/self/fd/N: the object checked, not a name resolved again), and
 * is given the bare name.
 */
static int recover_vmcore(int fd, struct recover_outcome *out, int dirfd)
{
	struct process_opts o = PROCESS_OPTS_INIT;
	struct process_result res;
	char cwd[64], how[64];
	char *const argv[] = { "makedumpfile", "-R", DUMP_VMCORE_INCOMPLETE,
			       NULL };
	int r;

	snprintf(cwd, sizeof(cwd), "/proc/self/fd/%d", dirfd);
	if (lseek(fd, (off_t)out->header.vmcore_off, SEEK_SET) < 0) {
		r = -errno;
		snprintf(out->vmcore_why, sizeof(out->vmcore_why),
			 "cannot seek to it: %s", strerror(-r));
		return r;
	}
	o.stdin_fd = fd;
	o.stdout_fd = STDERR_FILENO;
	o.cwd = cwd;
	r = process_run(argv, &o, &res);
	if (r < 0) {
		snprintf(out->vmcore_why, sizeof(out->vmcore_why),
			 "cannot run makedumpfile: %s", strerror(-r));
		return r;
	}
	if (!process_succeeded(&res)) {
		/*
		 * What it wrote is worth nothing (the stream stays on the
		 * device, read again at the next try) and may be what
		 * filled the disk: gone, so that the next try has the room.
		 */
		(void)unlinkat(dirfd, DUMP_VMCORE_INCOMPLETE, 0);
		process_result_text(&res, how, sizeof(how));
		snprintf(out->vmcore_why, sizeof(out->vmcore_why),
			 "makedumpfile -R: %s", how);
		return -EIO;
	}
	r = dump_vmcore_commit(dirfd);
	if (r < 0)
		snprintf(out->vmcore_why, sizeof(out->vmcore_why),
			 "cannot commit %s: %s", DUMP_VMCORE_INCOMPLETE,
			 strerror(-r));
	return r;
}

/* metadata.json, as the capture writes it, with where it came from. */
static int recover_metadata(const struct raw_header *h, bool ok,
			    const char *why, const char *raw, const char *dev,
			    int dirfd)
{
	_cleanup_free_ struct dump_metadata *m = malloc(sizeof(*m));

	if (!m)
		return -ENOMEM;
	dump_metadata_init(m);
	/* The header's text comes from the crashed kernel's disk. */
	snprintf(m->kernel_release, sizeof(m->kernel_release), "%s",
		 h->release);
	m->crash_time = h->time;
	m->complete = ok;
	snprintf(m->target, sizeof(m->target), "%s", raw);
	snprintf(m->recovered_from, sizeof(m->recovered_from), "%s", dev);
	if (why[0])
		snprintf(m->error, sizeof(m->error), "recovery failed: %s",
			 why);
	else if (!ok)
		snprintf(m->error, sizeof(m->error), "%s",
			 h->error[0] ? h->error :
			 h->state == RAW_WRITING ?
			 "the capture did not finish (power loss or a crash during the dump)" :
			 "the capture failed");
	return dump_metadata_write(dirfd, m);
}

/* The header, once marked recovered, written back and synced. */
static int recover_mark(int fd, struct raw_header *h)
{
	char buf[RAW_HEADER_SIZE];
	ssize_t n;
	int r;

	h->state = RAW_RECOVERED;
	r = raw_header_format(h, buf);
	if (r < 0)
		return r;
	n = pwrite(fd, buf, sizeof(buf), 0);
	if (n < 0)
		return -errno;
	if (n != (ssize_t)sizeof(buf))
		return -EIO;
	if (fdatasync(fd) < 0)
		return -errno;
	return 0;
}

int recover_dump(int fd, unsigned long long dev_size, const char *raw,
		 const char *dev, const char *base,
		 struct recover_outcome *out)
{
	char hbuf[RAW_HEADER_SIZE];
	struct raw_header *h = &out->header;
	_cleanup_close_ int basefd = -1, dirfd = -1;
	int r;

	memset(out, 0, sizeof(*out));
	r = pread_full(fd, hbuf, sizeof(hbuf), 0);
	out->header_read = r == 0;
	if (r == 0)
		r = raw_header_parse(hbuf, sizeof(hbuf), dev_size, h);
	if (r == -ENODATA || (r == 0 && h->state == RAW_RECOVERED))
		return 1;
	if (r < 0)
		return out->header_error = r;
	out->complete = h->state == RAW_COMPLETE;

	/*
	 * The dump directory's own check, before anything is made or
	 * written below it: the report unit runs recover before any load has
	 * looked at path.
	 */
	r = safe_open(base, SAFE_CREATE | SAFE_LEAF_NOLINK, &out->dir_bad,
		      &basefd);
	if (r == 0)
		r = dump_dir_create(basefd, h->time, 0700, out->name,
				    sizeof(out->name), &dirfd);
	if (r < 0)
		return out->dir_error = r;

	out->dmesg_error = recover_dmesg(fd, h, dirfd);
	if (out->complete)
		out->vmcore_error = recover_vmcore(fd, out, dirfd);
	out->metadata_error =
		recover_metadata(h, out->complete && !out->vmcore_error,
				 out->vmcore_why, raw, dev, dirfd);
	/* A vmcore not recovered stays on the device for the next try. */
	r = out->dmesg_error ? out->dmesg_error : out->vmcore_error;
	if (r < 0)
		return r;
	out->mark_error = recover_mark(fd, h);
	return 0;
}
