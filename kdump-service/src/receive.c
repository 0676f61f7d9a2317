// SPDX-License-Identifier: GPL-2.0
/*
 * kdump-file-receive's requests.  The machine that sends a dump holds a
 * key the collector's authorized_keys ties to one forced command, for one
 * host dir: whatever that machine asks, only its own dumps are made, read
 * or removed.  So the request is a few words split on blanks (no shell
 * sees them), every word is checked before use, and every file is reached
 * through openat() below a descriptor of ROOT/HOSTDIR without following a
 * link (a link planted there is refused, never followed).
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "dump.h"
#include "dumpdir.h"
#include "netdir.h"
#include "process.h"
#include "receive.h"
#include "util.h"

#define REQUEST_WORDS_MAX 4
#define WORD_MAX 256
/* The most dumps a host dir's retention looks at. */
#define RETENTION_MAX 4096

struct request {
	char *word[REQUEST_WORDS_MAX];
	unsigned int n;
	char buf[RECEIVE_REQUEST_MAX + 1];
};

/* A request that is not one of ours, or that names what is not ours. */
#define refuse(d, ...) diag_fail(d, -EBADRQC, __VA_ARGS__)

static bool name_char(char c, bool slash)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-' ||
	       (slash && c == '/');
}

bool receive_root_valid(const char *root)
{
	size_t len = strlen(root);

	if (root[0] != '/' || len >= RECEIVE_ROOT_MAX)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!name_char(root[i], true))
			return false;
	/* No "." or ".." component: ROOT is the directory it names. */
	for (const char *c = root; (c = strchr(c, '/')); c++)
		if ((c[1] == '.' && (c[2] == '/' || !c[2])) ||
		    (c[1] == '.' && c[2] == '.' && (c[3] == '/' || !c[3])))
			return false;
	return true;
}

/*
 * Split the request on blanks.  Only letters, digits, blanks and ". _ : -"
 * may appear: nothing else is part of any request, and a request holding
 * ';', '$', '/', quotes or the like is someone trying something else.
 */
static int request_split(const char *text, struct request *q, struct diag *d)
{
	char *save = NULL, *w;

	if (!text || !*text)
		return refuse(d, "refused: no request (this key may only send dumps)");
	if (strlen(text) > RECEIVE_REQUEST_MAX)
		return refuse(d, "refused: request longer than %d bytes",
			      RECEIVE_REQUEST_MAX);
	for (const char *c = text; *c; c++)
		if (!name_char(*c, false) && *c != ':' && *c != ' ' &&
		    *c != '\t')
			return refuse(d,
				      "refused: request holds '%c' (only letters, digits, blanks and . _ : - are allowed)",
				      *c >= 0x20 && *c < 0x7f ? *c : '?');
	strcpy(q->buf, text);
	q->n = 0;
	for (w = strtok_r(q->buf, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save)) {
		if (q->n == REQUEST_WORDS_MAX || strlen(w) >= WORD_MAX)
			return refuse(d, "refused: too many or too long words in the request");
		q->word[q->n++] = w;
	}
	if (!q->n)
		return refuse(d, "refused: no request (this key may only send dumps)");
	return 0;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* One line (at most 1023 bytes) to fd; d: NULL when the caller says it. */
__attribute__((format(printf, 3, 4)))
static int answer(struct diag *d, int fd, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n, r;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return diag_fail(d, -EINVAL, "error: cannot make the answer");
	r = write_all(fd, line, strlen(line));
	if (r < 0)
		return diag_fail(d, r, "error: cannot send the answer: %s",
				 strerror(-r));
	return 0;
}

/*
 * ROOT/HOSTDIR, made when create is set: a directory (never a link) of
 * ours that nobody else may write.
 */
static int open_hostdir(const char *root, const char *hostdir, bool create,
			int *ret, struct diag *d)
{
	_cleanup_close_ int rootfd = -1, fd = -1;
	struct stat st;

	rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return diag_fail(d, -errno, "error: cannot open %s: %s",
				 root, strerror(errno));
	if (create && mkdirat(rootfd, hostdir, 0700) < 0 && errno != EEXIST)
		return diag_fail(d, -errno, "error: cannot make %s/%s: %s",
				 root, hostdir, strerror(errno));
	fd = openat(rootfd, hostdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					     O_CLOEXEC);
	if (fd < 0)
		return diag_fail(d, -errno, "error: cannot open %s/%s: %s",
				 root, hostdir,
				 errno == ELOOP ? "it is a symbolic link" :
				 strerror(errno));
	if (fstat(fd, &st) < 0)
		return diag_fail(d, -errno, "error: cannot stat %s/%s: %s",
				 root, hostdir, strerror(errno));
	if (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH)))
		return diag_fail(d, -EPERM,
				 "error: %s/%s is not this user's alone (owner uid %u, mode %04o): fix its owner and mode",
				 root, hostdir, (unsigned int)st.st_uid,
				 (unsigned int)(st.st_mode & 07777));
	*ret = TAKE_FD(fd);
	return 0;
}

/* A dump of this host: a valid name, a directory of ours, not a link. */
static int open_dump(int hostfd, const char *name, int *ret, struct diag *d)
{
	int fd;

	if (!dump_name_valid(name) || strlen(name) >= DUMP_NAME_MAX)
		return refuse(d, "refused: '%s' is not a dump name",
			      name);
	if (!dump_is_ours(hostfd, name))
		return refuse(d, "refused: no dump %s of this host",
			      name);
	fd = openat(hostfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					  O_CLOEXEC);
	if (fd < 0)
		return refuse(d, "refused: no dump %s of this host",
			      name);
	*ret = fd;
	return 0;
}

/* Where fd is, for the lib functions that take a path. */
static void fd_path(int fd, char *buf, size_t size)
{
	snprintf(buf, size, "/proc/self/fd/%d", fd);
}

static int req_check(int hostfd, const struct request *q, int out,
		     struct diag *d)
{
	unsigned long long need, free_bytes;
	char tmp[64];
	struct statvfs sv;
	int fd;

	if (q->n != 2 || parse_decimal(q->word[1], LLONG_MAX, &need) < 0)
		return refuse(d, "refused: usage: check BYTES");
	/* Writable: a file made and removed (the capture writes so). */
	snprintf(tmp, sizeof(tmp), ".check-%ld-%lld", (long)getpid(),
		 (long long)time(NULL));
	fd = openat(hostfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
					 O_CLOEXEC, 0600);
	if (fd < 0)
		return diag_fail(d, -errno,
				 "error: cannot write in the host dir: %s",
				 strerror(errno));
	close(fd);
	(void)unlinkat(hostfd, tmp, 0);
	if (fstatvfs(hostfd, &sv) < 0)
		return diag_fail(d, -errno,
				 "error: cannot read the free space of the host dir: %s",
				 strerror(errno));
	free_bytes = (unsigned long long)sv.f_bavail * sv.f_frsize;
	if (free_bytes < need)
		return diag_fail(d, -ENOSPC,
				 "error: the host dir has %llu bytes free, %llu needed: make room on the collector",
				 free_bytes, need);
	return answer(d, out, "ok free=%llu\n", free_bytes);
}

/* Old dumps removed so that with the new one at most keep remain. */
static int retention(int hostfd, unsigned int keep, struct diag *d)
{
	char base[64], dir[128];
	char **names = NULL;
	bool *complete = NULL, *remove = NULL;
	size_t n = 0;
	int r = 0;

	if (!keep)
		return 0;
	fd_path(hostfd, base, sizeof(base));
	r = dump_list(base, &names, &n);
	if (r < 0)
		return diag_fail(d, r, "error: cannot list the host dir: %s",
				 strerror(-r));
	if (n > RETENTION_MAX)
		n = RETENTION_MAX;
	complete = calloc(n + 1, sizeof(*complete));
	remove = calloc(n + 1, sizeof(*remove));
	if (!complete || !remove) {
		r = diag_fail(d, -ENOMEM, "error: out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct dump_info info;

		snprintf(dir, sizeof(dir), "%s/%s", base, names[i]);
		complete[i] = dump_inspect(dir, &info) == 0 &&
			      dump_complete(&info);
	}
	dump_retention(complete, (unsigned int)n, keep, remove);
	for (size_t i = 0; i < n; i++)
		if (remove[i])
			(void)dump_remove(hostfd, names[i]);
out:
	free(complete);
	free(remove);
	dump_list_free(names, n);
	return r;
}

static int req_begin(int hostfd, const struct request *q, int out,
		     struct diag *d)
{
	_cleanup_free_ struct dump_metadata *m = NULL;
	unsigned long long keep, t;
	char name[DUMP_NAME_MAX];
	_cleanup_close_ int fd = -1;
	int r;

	if (q->n != 3 || parse_decimal(q->word[1], 100000, &keep) < 0 ||
	    parse_decimal(q->word[2], LLONG_MAX, &t) < 0)
		return refuse(d, "refused: usage: begin KEEP CRASHTIME");
	r = retention(hostfd, (unsigned int)keep, d);
	if (r < 0)
		return r;
	r = dump_dir_create(hostfd, (long long)t, 0700, name, sizeof(name),
			    &fd);
	if (r == -EINVAL)
		return refuse(d, "refused: crash time %llu out of range",
			      t);
	if (r < 0)
		return diag_fail(d, r,
				 "error: cannot make a dump directory in the host dir: %s",
				 strerror(-r));
	m = malloc(sizeof(*m));
	if (!m)
		return diag_fail(d, -ENOMEM, "error: out of memory");
	dump_metadata_init(m);
	m->crash_time = (long long)t;
	snprintf(m->error, sizeof(m->error), "capture in progress");
	r = dump_metadata_write(fd, m);
	if (r < 0)
		return diag_fail(d, r, "error: cannot write %s/%s: %s",
				 name, DUMP_METADATA, strerror(-r));
	return answer(d, out, "%s\n", name);
}

/* stdin, at most RECEIVE_FILE_MAX bytes, as file of the dump name. */
static int receive_file(int hostfd, const char *name, const char *file,
			int in, struct diag *d)
{
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *data = NULL;
	int r, len;

	r = open_dump(hostfd, name, &fd, d);
	if (r < 0)
		return r;
	len = read_fd_max(in, &data, RECEIVE_FILE_MAX);
	if (len < 0)
		return diag_fail(d, len, "error: cannot read %s for %s: %s",
				 file, name,
				 len == -EFBIG ? "larger than 64 MiB" :
				 strerror(-len));
	r = write_file_atomic_at(fd, file, data, (size_t)len, 0600);
	if (r < 0)
		return diag_fail(d, r, "error: cannot write %s/%s: %s",
				 name, file, strerror(-r));
	return 0;
}

static int req_dmesg(int hostfd, const struct request *q, int in,
		     struct diag *d)
{
	if (q->n != 2)
		return refuse(d, "refused: usage: dmesg NAME");
	return receive_file(hostfd, q->word[1], DUMP_DMESG, in, d);
}

static int req_file(int hostfd, const struct request *q, int in, struct diag *d)
{
	if (q->n != 3)
		return refuse(d, "refused: usage: file NAME metadata.json|hooks.log");
	if (strcmp(q->word[2], DUMP_METADATA) != 0 &&
	    strcmp(q->word[2], DUMP_HOOKS_LOG) != 0)
		return refuse(d,
			      "refused: file '%s' is not %s or %s", q->word[2],
			      DUMP_METADATA, DUMP_HOOKS_LOG);
	return receive_file(hostfd, q->word[1], q->word[2], in, d);
}

/*
 * makedumpfile -R reads its stream with a loop that takes end of file for
 * "nothing yet" (read_buf_from_stdin() in makedumpfile.c): a stream cut
 * short, as by a lost connection, would keep it spinning forever.  So the
 * stream goes through this relay, which checks the flattened format as it
 * passes (makedumpfile.h: a 4096-byte header "makedumpfile", type 1, then
 * big-endian (offset, size) records, (-1, -1) at the end) and ends it
 * properly when what came is cut short or not the format: a header that
 * makedumpfile refuses, or the record filled with zeros and the end mark.
 * The vmcore so made is never committed (relay.bad).
 */
#define FLAT_HEADER_SIZE 4096
#define FLAT_RECORD_MAX (1LL << 30)

struct relay {
	int in, out;
	const char *bad;	/* why the stream was not whole, NULL if it was */
	unsigned long long records;
};

/* len bytes, fewer only at the end of the file; -errno on failure. */
static ssize_t read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, (char *)buf + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

static int64_t be64_at(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return (int64_t)be64toh(v);
}

/* size bytes of a record: copied, or zeros after an early end. */
static int relay_data(struct relay *rl, long long size, char *buf,
		      size_t bufsize)
{
	while (size > 0) {
		size_t want = size < (long long)bufsize ? (size_t)size : bufsize;
		ssize_t n = rl->bad ? 0 : read_full(rl->in, buf, want);

		if (n < (ssize_t)want && !rl->bad)
			rl->bad = "the stream ended within a record (connection lost?)";
		if (n < (ssize_t)want)
			memset(buf + (n > 0 ? n : 0), 0, want - (size_t)(n > 0 ? n : 0));
		if (write_all(rl->out, buf, want) < 0)
			return -EPIPE;
		size -= (long long)want;
	}
	return 0;
}

static int relay_records(struct relay *rl, char *buf, size_t bufsize)
{
	unsigned char dh[16];

	for (;;) {
		long long off, size;

		if (read_full(rl->in, dh, sizeof(dh)) != sizeof(dh)) {
			rl->bad = "the stream ended before its end mark (connection lost?)";
			return 0;
		}
		off = be64_at(dh);
		size = be64_at(dh + 8);
		if (off == -1 && size == -1)
			return 0;
		if (off < 0 || size <= 0 || size > FLAT_RECORD_MAX) {
			rl->bad = "the stream holds a record that is not makedumpfile's";
			return 0;
		}
		rl->records++;
		if (write_all(rl->out, (char *)dh, sizeof(dh)) < 0 ||
		    relay_data(rl, size, buf, bufsize) < 0 || rl->bad)
			return 0;
	}
}

static void *relay_run(void *p)
{
	static const unsigned char end[16] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	/* Offset 0, one byte: a record for makedumpfile to end on. */
	static const unsigned char one[17] = { [15] = 1 };
	struct relay *rl = p;
	_cleanup_free_ char *buf = malloc(1 << 20);
	sigset_t pipe_set;

	/* A makedumpfile gone makes our writes fail, not kill us. */
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, NULL);
	if (!buf) {
		rl->bad = "out of memory";
	} else if (read_full(rl->in, buf, FLAT_HEADER_SIZE) !=
			   FLAT_HEADER_SIZE ||
		   memcmp(buf, "makedumpfile", 13) != 0 ||
		   be64_at((unsigned char *)buf + 16) != 1) {
		/* A header makedumpfile refuses, whole so it reads it. */
		rl->bad = "the stream is not makedumpfile's flattened format";
		memset(buf, 0, FLAT_HEADER_SIZE);
		(void)write_all(rl->out, buf, FLAT_HEADER_SIZE);
	} else if (write_all(rl->out, buf, FLAT_HEADER_SIZE) == 0) {
		(void)relay_records(rl, buf, 1 << 20);
		if (!rl->records) {
			rl->bad = rl->bad ?: "the stream holds no data";
			(void)write_all(rl->out, (const char *)one, sizeof(one));
		}
		(void)write_all(rl->out, (const char *)end, sizeof(end));
	}
	close(rl->out);
	return NULL;
}

/*
 * Run makedumpfile -R in the dump directory (its descriptor's /proc
 * path, resolved in the child before our descriptors are closed), with
 * the relay's pipe on its stdin; it makes DUMP_VMCORE_INCOMPLETE with
 * O_EXCL, so a link planted under that name is removed first, never
 * written through.  Its messages go to our stderr: our stdout is the
 * answer the capture reads.
 */
static int rebuild(int dirfd, int in, const char **ret_bad, char *how,
		   size_t howsize)
{
	char *const argv[] = { "makedumpfile", "-R", DUMP_VMCORE_INCOMPLETE,
			       NULL };
	struct process_opts o = PROCESS_OPTS_INIT;
	struct process_result res;
	struct relay rl = { .in = in };
	int pipefd[2], r;
	char cwd[64];
	pthread_t t;

	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -errno;
	rl.out = pipefd[1];
	r = -pthread_create(&t, NULL, relay_run, &rl);
	if (r < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return r;
	}
	fd_path(dirfd, cwd, sizeof(cwd));
	o.stdin_fd = pipefd[0];
	o.stdout_fd = STDERR_FILENO;
	o.cwd = cwd;
	r = process_run(argv, &o, &res);
	/* The relay's next write fails once the reader is gone. */
	close(pipefd[0]);
	pthread_join(t, NULL);
	if (r < 0)
		return r;
	*ret_bad = rl.bad;
	process_result_text(&res, how, howsize);
	return process_succeeded(&res) ? 0 : -EIO;
}

static int req_vmcore(int hostfd, const struct request *q, int in, int out,
		      struct diag *d)
{
	_cleanup_close_ int fd = -1;
	const char *bad = NULL;
	struct stat st;
	char how[64];
	int r;

	if (q->n != 2)
		return refuse(d, "refused: usage: vmcore NAME");
	r = open_dump(hostfd, q->word[1], &fd, d);
	if (r < 0)
		return r;
	if (unlinkat(fd, DUMP_VMCORE_INCOMPLETE, 0) < 0 && errno != ENOENT)
		return diag_fail(d, -errno, "error: cannot remove %s/%s: %s",
				 q->word[1], DUMP_VMCORE_INCOMPLETE,
				 strerror(errno));
	r = rebuild(fd, in, &bad, how, sizeof(how));
	if (r < 0 && r != -EIO)
		return diag_fail(d, r, "error: cannot run makedumpfile: %s",
				 strerror(-r));
	if (r < 0 || bad) {
		(void)unlinkat(fd, DUMP_VMCORE_INCOMPLETE, 0);
		return diag_fail(d, -EIO,
				 "error: vmcore of %s not saved: %s",
				 q->word[1], bad ? bad : how);
	}
	r = dump_vmcore_commit(fd);
	if (r < 0)
		return diag_fail(d, r, "error: cannot commit %s/%s: %s",
				 q->word[1], DUMP_VMCORE, strerror(-r));
	if (fstatat(fd, DUMP_VMCORE, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return diag_fail(d, -errno, "error: cannot stat %s/%s: %s",
				 q->word[1], DUMP_VMCORE, strerror(errno));
	return answer(d, out, "ok %lld\n", (long long)st.st_size);
}

/*
 * get NAME FILE: the kernel log, the metadata or the report of one of this
 * host's dumps, as it is, on stdout: what the machine shows of a crash
 * its dump went here for (kdump-file-report.service copies them).  A
 * regular file of at most RECEIVE_FILE_MAX bytes, never a link or a FIFO.
 */
static int req_get(int hostfd, const struct request *q, int out, struct diag *d)
{
	_cleanup_close_ int dfd = -1, fd = -1;
	_cleanup_free_ char *data = NULL;
	struct stat st;
	int r, len;

	if (q->n != 3)
		return refuse(d, "refused: usage: get NAME %s|%s|%s",
			      DUMP_DMESG, DUMP_METADATA, DUMP_REPORT_JSON);
	if (strcmp(q->word[2], DUMP_DMESG) && strcmp(q->word[2], DUMP_METADATA) &&
	    strcmp(q->word[2], DUMP_REPORT_JSON))
		return refuse(d, "refused: file '%s' is not %s, %s or %s",
			      q->word[2], DUMP_DMESG, DUMP_METADATA,
			      DUMP_REPORT_JSON);
	r = open_dump(hostfd, q->word[1], &dfd, d);
	if (r < 0)
		return r;
	fd = openat(dfd, q->word[2], O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
					    O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return diag_fail(d, -errno, "error: cannot open %s/%s: %s",
				 q->word[1], q->word[2], strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return refuse(d, "refused: %s/%s is not a regular file",
			      q->word[1], q->word[2]);
	len = read_fd_max(fd, &data, RECEIVE_FILE_MAX);
	if (len < 0)
		return diag_fail(d, len, "error: cannot read %s/%s: %s",
				 q->word[1], q->word[2],
				 len == -EFBIG ? "larger than 64 MiB" :
				 strerror(-len));
	r = write_all(out, data, (size_t)len);
	if (r < 0)
		return diag_fail(d, r, "error: cannot send %s/%s: %s",
				 q->word[1], q->word[2], strerror(-r));
	return 0;
}

/* Text from a crashed kernel on one line: controls become blanks. */
static void one_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = ' ';
}

static int list_one(const char *base, const char *name, int out)
{
	struct dump_info info;
	char dir[128];

	snprintf(dir, sizeof(dir), "%s/%s", base, name);
	if (dump_inspect(dir, &info) < 0)
		return 0;
	one_line(info.panic);
	return answer(NULL, out, "%s %s %lld %lld %s\n", name,
		      dump_complete(&info) ? "complete" : "incomplete",
		      info.has_vmcore ? info.vmcore_bytes : 0LL,
		      dump_time(&info), info.panic[0] ? info.panic : "-");
}

static int req_list(int hostfd, const struct request *q, int out,
		    struct diag *d)
{
	char base[64];
	char **names = NULL;
	size_t n = 0;
	int r;

	if (q->n != 1)
		return refuse(d, "refused: usage: list");
	fd_path(hostfd, base, sizeof(base));
	r = dump_list(base, &names, &n);
	if (r < 0)
		return diag_fail(d, r, "error: cannot list the host dir: %s",
				 strerror(-r));
	for (size_t i = 0; i < n && r == 0; i++)
		r = list_one(base, names[i], out);
	dump_list_free(names, n);
	if (r < 0)
		return diag_fail(d, r, "error: cannot write the list: %s",
				 strerror(-r));
	return 0;
}

int receive_request(const char *root, const char *hostdir,
		    const char *request, int in_fd, int out_fd, struct diag *d)
{
	_cleanup_free_ struct request *q = NULL;
	_cleanup_close_ int hostfd = -1;
	const char *verb;
	int r;

	if (!receive_root_valid(root) || !net_host_dir_valid(hostdir))
		return refuse(d, "refused: bad --root or --host");
	q = malloc(sizeof(*q));
	if (!q)
		return diag_fail(d, -ENOMEM, "error: out of memory");
	r = request_split(request, q, d);
	if (r < 0)
		return r;
	verb = q->word[0];
	if (strcmp(verb, "check") && strcmp(verb, "begin") &&
	    strcmp(verb, "dmesg") && strcmp(verb, "file") &&
	    strcmp(verb, "vmcore") && strcmp(verb, "list") &&
	    strcmp(verb, "get"))
		return refuse(d,
			      "refused: '%s' is not a request of kdump-file (check, begin, dmesg, file, vmcore, list, get)",
			      verb);
	r = open_hostdir(root, hostdir, !strcmp(verb, "check") ||
					       !strcmp(verb, "begin"),
			 &hostfd, d);
	if (r < 0)
		return r;
	if (!strcmp(verb, "check"))
		return req_check(hostfd, q, out_fd, d);
	if (!strcmp(verb, "begin"))
		return req_begin(hostfd, q, out_fd, d);
	if (!strcmp(verb, "dmesg"))
		return req_dmesg(hostfd, q, in_fd, d);
	if (!strcmp(verb, "file"))
		return req_file(hostfd, q, in_fd, d);
	if (!strcmp(verb, "vmcore"))
		return req_vmcore(hostfd, q, in_fd, out_fd, d);
	if (!strcmp(verb, "get"))
		return req_get(hostfd, q, out_fd, d);
	return req_list(hostfd, q, out_fd, d);
}

static bool base64_body(const char *s)
{
	size_t len = strlen(s), pad = 0;

	if (len < 16 || len % 4)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '=') {
			pad++;
			continue;
		}
		if (pad || !(name_char(s[i], true) || s[i] == '+') ||
		    s[i] == '.' || s[i] == '_' || s[i] == '-')
			return false;
	}
	return pad <= 2;
}

static bool key_type_valid(const char *type)
{
	return !strcmp(type, "ssh-ed25519") || !strcmp(type, "ssh-rsa") ||
	       !strncmp(type, "ecdsa-sha2-nistp", 16);
}

/* TYPE and BODY of a public key line, in type[64] and body[RECEIVE_KEY_MAX]. */
static int key_parse(const char *key, char *type, char *body)
{
	const char *sp, *end;

	key += strspn(key, " \t");
	sp = strpbrk(key, " \t");
	if (!sp || sp - key >= 64)
		return -EINVAL;
	memcpy(type, key, (size_t)(sp - key));
	type[sp - key] = '\0';
	sp += strspn(sp, " \t");
	end = sp + strcspn(sp, " \t\r\n");
	if ((size_t)(end - sp) >= RECEIVE_KEY_MAX)
		return -EINVAL;
	memcpy(body, sp, (size_t)(end - sp));
	body[end - sp] = '\0';
	if (!key_type_valid(type) || !base64_body(body))
		return -EINVAL;
	return 0;
}

int receive_key_line(const char *root, const char *hostdir, const char *key,
		     char *buf, size_t size)
{
	_cleanup_free_ char *body = malloc(RECEIVE_KEY_MAX);
	char type[64];
	int n;

	if (!body)
		return -ENOMEM;
	if (!receive_root_valid(root) || !net_host_dir_valid(hostdir) ||
	    key_parse(key, type, body) < 0)
		return -EINVAL;
	n = snprintf(buf, size,
		     "restrict,command=\"%s --root %s --host %s\" %s %s kdump-file@%s",
		     RECEIVE_PROGRAM, root, hostdir, type, body, hostdir);
	return n < 0 || (size_t)n >= size ? -ENOBUFS : 0;
}

/* Does line hold body as one of its words (the key it authorizes)? */
static bool line_has_key(const char *line, size_t len, const char *body)
{
	size_t blen = strlen(body);

	for (size_t i = 0; i + blen <= len; i++)
		if ((i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t') &&
		    !memcmp(line + i, body, blen) &&
		    (i + blen == len || line[i + blen] == ' ' ||
		     line[i + blen] == '\t' || line[i + blen] == '\r'))
			return true;
	return false;
}

/*
 * authorized_keys with line in place of every line for body (the first
 * one's place, or appended), in a new buffer *ret.
 */
static int keys_merge(const char *old, const char *body, const char *line,
		      char **ret)
{
	size_t cap = strlen(old) + strlen(line) + 2, pos = 0;
	char *buf = malloc(cap + 1);
	bool placed = false;

	if (!buf)
		return -ENOMEM;
	for (const char *s = old; *s;) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);

		if (!line_has_key(s, len, body)) {
			memcpy(buf + pos, s, len);
			pos += len;
			buf[pos++] = '\n';
		} else if (!placed) {
			pos += (size_t)sprintf(buf + pos, "%s\n", line);
			placed = true;
		}
		s += len + (nl ? 1 : 0);
	}
	if (!placed)
		pos += (size_t)sprintf(buf + pos, "%s\n", line);
	buf[pos] = '\0';
	*ret = buf;
	return 0;
}

static int authorize_dirs(const char *root, const char *hostdir, struct diag *d)
{
	_cleanup_close_ int fd = -1;
	int r;

	r = mkdir_p(root, 0755);
	if (r < 0)
		return diag_fail(d, r, "error: cannot make %s: %s", root,
				 strerror(-r));
	r = open_hostdir(root, hostdir, true, &fd, d);
	return r < 0 ? r : 0;
}

static int authorize_write(const char *home, const char *body,
			   const char *line, struct diag *d)
{
	_cleanup_close_ int homefd = -1, sshfd = -1;
	_cleanup_free_ char *old = NULL, *new = NULL;
	int r;

	homefd = open(home, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (homefd < 0)
		return diag_fail(d, -errno, "error: cannot open %s: %s",
				 home, strerror(errno));
	if (mkdirat(homefd, ".ssh", 0700) < 0 && errno != EEXIST)
		return diag_fail(d, -errno, "error: cannot make %s/.ssh: %s",
				 home, strerror(errno));
	sshfd = openat(homefd, ".ssh", O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					       O_CLOEXEC);
	if (sshfd < 0)
		return diag_fail(d, -errno, "error: cannot open %s/.ssh: %s",
				 home, strerror(errno));
	r = read_file_max_at(sshfd, "authorized_keys", &old, 4 * 1024 * 1024);
	if (r == -ENOENT)
		old = strdup("");
	else if (r < 0)
		return diag_fail(d, r,
				 "error: cannot read %s/.ssh/authorized_keys: %s",
				 home, strerror(-r));
	if (!old || keys_merge(old, body, line, &new) < 0)
		return diag_fail(d, -ENOMEM, "error: out of memory");
	r = write_file_atomic_at(sshfd, "authorized_keys", new, strlen(new),
				 0600);
	if (r < 0)
		return diag_fail(d, r,
				 "error: cannot write %s/.ssh/authorized_keys: %s",
				 home, strerror(-r));
	return 0;
}

int receive_authorize(const char *root, const char *hostdir,
		      const char *home, int in_fd, struct diag *d)
{
	_cleanup_free_ char *key = NULL, *body = malloc(RECEIVE_KEY_MAX);
	_cleanup_free_ char *line = malloc(RECEIVE_KEY_MAX + 2 * 1024);
	char type[64], *nl;
	int r;

	if (!body || !line)
		return diag_fail(d, -ENOMEM, "error: out of memory");
	if (!receive_root_valid(root))
		return refuse(d,
			      "refused: --root '%s' is not an absolute path of letters, digits and / . _ -",
			      root);
	if (!net_host_dir_valid(hostdir))
		return refuse(d,
			      "refused: --host '%s' is not a host dir name (letters, digits, . _ -)",
			      hostdir);
	r = read_fd_max(in_fd, &key, RECEIVE_KEY_MAX);
	if (r < 0)
		return refuse(d, "refused: cannot read the public key on stdin: %s",
			      r == -EFBIG ? "too long" : strerror(-r));
	nl = strchr(key, '\n');
	if (nl && nl[1 + strspn(nl + 1, " \t\r\n")])
		return refuse(d, "refused: more than one line on stdin: send one public key");
	if (key_parse(key, type, body) < 0 ||
	    receive_key_line(root, hostdir, key, line,
			     RECEIVE_KEY_MAX + 2 * 1024) < 0)
		return refuse(d,
			      "refused: stdin is not a public key line (ssh-ed25519, ecdsa-sha2-*, ssh-rsa and a base64 body)");
	r = authorize_dirs(root, hostdir, d);
	if (r < 0)
		return r;
	return authorize_write(home, body, line, d);
}
