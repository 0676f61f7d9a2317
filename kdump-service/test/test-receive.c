// SPDX-License-Identifier: GPL-2.0
/*
 * kdump-file-receive's requests on a temporary ROOT with two hosts, A and
 * B: every request of A's forced command, a vmcore rebuilt by the real
 * makedumpfile -R from a flattened stream made here after its documented
 * format, and what the forced command exists for: A's key reaches A's
 * dumps alone (no path, link or other command gets it to B's, or to a
 * shell), and --authorize writes exactly the restricted line.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dump.h"
#include "dumpdir.h"
#include "netdir.h"
#include "receive.h"
#include "tests.h"
#include "util.h"

#define T0 1796292108LL
#define KEY_BODY "AAAAC3NzaC1lZDI1NTE5AAAAIGq0cZ3Jt0b0ZkYJ7a1d3Xc9aLrA7mGxGk2b0xT1hN4H"

static char tmp[PATH_MAX], root[PATH_MAX + 16], home[PATH_MAX + 16];
static char hostb_dump[DUMP_NAME_MAX];

/* A descriptor to read text from, at its start. */
static int in_text(const char *text, size_t len)
{
	int fd = memfd_create("in", MFD_CLOEXEC);

	CHECK(fd >= 0);
	CHECK(write(fd, text, len) == (ssize_t)len);
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	return fd;
}

/* Run request as host, stdin text, its answer in out (size 4096). */
static int run(const char *host, const char *request, const char *text,
	       size_t len, char *out)
{
	struct diag d = DIAG_INIT;
	int in = in_text(text, len), o = memfd_create("out", MFD_CLOEXEC);
	ssize_t n;
	int r;

	r = receive_request(root, host, request, in, o, &d);
	/* Every failure is recorded, with one line of its own. */
	CHECK((r == 0) == !diag_failed(&d));
	CHECK(r == 0 || (d.error == r &&
			 (strncmp(d.msg, "refused: ", 9) == 0 ||
			  strncmp(d.msg, "error: ", 7) == 0)));
	CHECK(lseek(o, 0, SEEK_SET) == 0);
	n = read(o, out, 4095);
	out[n > 0 ? n : 0] = '\0';
	close(in);
	close(o);
	return r;
}

static int req(const char *host, const char *request, char *out)
{
	return run(host, request, "", 0, out);
}

static char *host_file(const char *host, const char *name, const char *file)
{
	static char p[PATH_MAX * 2];
	char *text = NULL;

	snprintf(p, sizeof(p), "%s/%s/%s/%s", root, host, name, file);
	if (read_file_max(p, &text, 1 << 20) < 0)
		return NULL;
	return text;
}

static void test_names(void)
{
	CHECK(net_host_dir_valid("web1-0123456789ab"));
	CHECK(net_host_dir_valid("a.b_c-d"));
	CHECK(!net_host_dir_valid(""));
	CHECK(!net_host_dir_valid(".hidden"));
	CHECK(!net_host_dir_valid(".."));
	CHECK(!net_host_dir_valid("a/b"));
	CHECK(!net_host_dir_valid("a b"));
	CHECK(!net_host_dir_valid("a;b"));
	CHECK(receive_root_valid("/srv/kdump"));
	CHECK(!receive_root_valid("srv/kdump"));
	CHECK(!receive_root_valid("/srv/../etc"));
	CHECK(!receive_root_valid("/srv/./x"));
	CHECK(!receive_root_valid("/srv/x y"));
	CHECK(!receive_root_valid("/srv/\"x"));
	CHECK(!receive_root_valid("/srv/$(id)"));
}

static void test_check(void)
{
	char out[4096];

	CHECK(req("A", "check 0", out) == 0);
	CHECK(strncmp(out, "ok free=", 8) == 0);
	CHECK(req("A", "check 9223372036854775807", out) == -ENOSPC);
	CHECK(req("A", "check", out) == -EBADRQC);
	CHECK(req("A", "check -1", out) == -EBADRQC);
	CHECK(req("A", "check 1x", out) == -EBADRQC);
}

/* An answer that cannot be sent is said, not left blank. */
static void test_answer_lost(void)
{
	struct diag d = DIAG_INIT;
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	CHECK(fd >= 0);
	CHECK(receive_request(root, "A", "check 0", fd, fd, &d) == -EBADF);
	CHECK(strcmp(diag_text(&d), "error: cannot send the answer: Bad file descriptor") == 0);
	close(fd);
}

static void test_begin(char *name)
{
	struct dump_metadata m;
	char out[4096], p[PATH_MAX * 2];
	struct stat st;
	int fd;

	CHECK(req("A", "begin 0 1796292108", out) == 0);
	CHECK(strcmp(out, "2026-12-03-10:01:48\n") == 0);
	snprintf(name, DUMP_NAME_MAX, "%.*s", (int)strcspn(out, "\n"), out);
	snprintf(p, sizeof(p), "%s/A/%s", root, name);
	CHECK(stat(p, &st) == 0 && (st.st_mode & 07777) == 0700);
	fd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(dump_metadata_read(fd, &m) == 0 && !m.complete &&
	      m.crash_time == T0 &&
	      strcmp(m.error, "capture in progress") == 0);
	close(fd);
	CHECK(req("A", "begin 0", out) == -EBADRQC);
	CHECK(req("A", "begin x 1", out) == -EBADRQC);
}

static void test_files(const char *name)
{
	char out[4096], rq[128], *t;

	snprintf(rq, sizeof(rq), "dmesg %s", name);
	CHECK(run("A", rq, "panic here\n", 11, out) == 0);
	t = host_file("A", name, DUMP_DMESG);
	CHECK(t && strcmp(t, "panic here\n") == 0);
	free(t);
	snprintf(rq, sizeof(rq), "file %s metadata.json", name);
	CHECK(run("A", rq, "{\"complete\":true,\"panic\":\"Oops\"}", 32, out) == 0);
	snprintf(rq, sizeof(rq), "file %s hooks.log", name);
	CHECK(run("A", rq, "hook ran\n", 9, out) == 0);
	t = host_file("A", name, DUMP_HOOKS_LOG);
	CHECK(t && strcmp(t, "hook ran\n") == 0);
	free(t);
	snprintf(rq, sizeof(rq), "file %s vmcore", name);
	CHECK(run("A", rq, "x", 1, out) == -EBADRQC);
	snprintf(rq, sizeof(rq), "file %s report.json", name);
	CHECK(run("A", rq, "x", 1, out) == -EBADRQC);
	CHECK(run("A", "dmesg 2020-01-01-00:00:00", "x", 1, out) == -EBADRQC);
}

static void put_be64(unsigned char *p, int64_t v)
{
	uint64_t be = htobe64((uint64_t)v);

	memcpy(p, &be, 8);
}

/*
 * makedumpfile's flattened format (makedumpfile.h, struct
 * makedumpfile_header and makedumpfile_data_header): a 4096-byte header,
 * "makedumpfile", type 1 and version 1 as big-endian 64-bit numbers, then
 * (offset, size) pairs each followed by its data, and (-1, -1) at the end.
 */
static size_t flat_stream(unsigned char *s)
{
	size_t pos = 4096;

	memset(s, 0, 4096);
	memcpy(s, "makedumpfile", 12);
	put_be64(s + 16, 1);
	put_be64(s + 24, 1);
	put_be64(s + pos, 8192);
	put_be64(s + pos + 8, 5);
	memcpy(s + pos + 16, "world", 5);
	pos += 21;
	put_be64(s + pos, 0);
	put_be64(s + pos + 8, 5);
	memcpy(s + pos + 16, "hello", 5);
	pos += 21;
	put_be64(s + pos, -1);
	put_be64(s + pos + 8, -1);
	return pos + 16;
}

static void test_vmcore(const char *name)
{
	static unsigned char s[8192], want[8197];
	char out[4096], rq[128], p[PATH_MAX * 2], *core = NULL;
	size_t len = flat_stream(s);
	struct stat st;
	int r;

	snprintf(rq, sizeof(rq), "vmcore %s", name);
	/* A stream that is not one: nothing is left behind. */
	CHECK(run("A", rq, "garbage", 7, out) == -EIO);
	snprintf(p, sizeof(p), "%s/A/%s/%s", root, name, DUMP_VMCORE_INCOMPLETE);
	CHECK(lstat(p, &st) < 0 && errno == ENOENT);
	/*
	 * Cut short, as by a lost connection: within a record, within a
	 * record's header, before the end mark.  makedumpfile -R alone
	 * would wait for the rest forever.
	 */
	CHECK(run("A", rq, (const char *)s, 4096 + 16 + 2, out) == -EIO);
	CHECK(run("A", rq, (const char *)s, 4096 + 8, out) == -EIO);
	CHECK(run("A", rq, (const char *)s, len - 16, out) == -EIO);
	CHECK(run("A", rq, (const char *)s, 4096, out) == -EIO);
	CHECK(lstat(p, &st) < 0 && errno == ENOENT);

	CHECK(run("A", rq, (const char *)s, len, out) == 0);
	CHECK(strcmp(out, "ok 8197\n") == 0);
	snprintf(p, sizeof(p), "%s/A/%s/%s", root, name, DUMP_VMCORE);
	CHECK(stat(p, &st) == 0 && (st.st_mode & 07777) == 0600);
	r = read_file_max(p, &core, 1 << 20);
	memcpy(want, "hello", 5);
	memcpy(want + 8192, "world", 5);
	CHECK(r == 8197 && core && memcmp(core, want, sizeof(want)) == 0);
	free(core);
}

static void test_list(const char *name)
{
	char out[4096], want[256];

	CHECK(req("A", "list", out) == 0);
	snprintf(want, sizeof(want), "%s complete 8197 %lld Oops\n", name, T0);
	CHECK(strcmp(out, want) == 0);
	CHECK(req("A", "list all", out) == -EBADRQC);

	/* get: the dump's files as they are, nothing else. */
	snprintf(want, sizeof(want), "get %s metadata.json", name);
	CHECK(req("A", want, out) == 0);
	CHECK(strstr(out, "Oops") != NULL);
	snprintf(want, sizeof(want), "get %s dmesg.txt", name);
	CHECK(req("A", want, out) == 0);
	CHECK(strcmp(out, "panic here\n") == 0);
	snprintf(want, sizeof(want), "get %s report.json", name);
	CHECK(req("A", want, out) == -ENOENT);
	snprintf(want, sizeof(want), "get %s vmcore", name);
	CHECK(req("A", want, out) == -EBADRQC);
	snprintf(want, sizeof(want), "get %s", name);
	CHECK(req("A", want, out) == -EBADRQC);
	CHECK(req("A", "get 2020-01-01-00:00:00 dmesg.txt", out) == -EBADRQC);
}

/* begin KEEP: the old dumps beyond KEEP-1 go, the newest complete stays. */
static void test_retention(void)
{
	char out[4096], rq[64];

	for (int i = 1; i <= 3; i++) {
		snprintf(rq, sizeof(rq), "begin 2 %lld", T0 + i);
		CHECK(req("A", rq, out) == 0);
	}
	CHECK(req("A", "list", out) == 0);
	/* The complete dump of test_vmcore() and the newest. */
	CHECK(strstr(out, "2026-12-03-10:01:48 complete") != NULL);
	CHECK(strstr(out, "2026-12-03-10:01:51 incomplete") != NULL);
	CHECK(strstr(out, "10:01:49") == NULL && strstr(out, "10:01:50") == NULL);
}

/* Host B: a dump with a dmesg, which A must never reach. */
static void make_host_b(void)
{
	char out[4096], rq[128];

	CHECK(req("B", "begin 0 1700000000", out) == 0);
	snprintf(hostb_dump, sizeof(hostb_dump), "%.*s",
		 (int)strcspn(out, "\n"), out);
	snprintf(rq, sizeof(rq), "dmesg %s", hostb_dump);
	CHECK(run("B", rq, "B's log\n", 8, out) == 0);
}

static bool hostb_intact(void)
{
	char *t = host_file("B", hostb_dump, DUMP_DMESG);
	bool ok = t && strcmp(t, "B's log\n") == 0;

	free(t);
	return ok;
}

static void test_other_host(const char *name)
{
	char out[4096], rq[256], p[PATH_MAX * 2], target[PATH_MAX * 2];
	int r;

	make_host_b();
	CHECK(req("A", "list", out) == 0);
	CHECK(strstr(out, hostb_dump) == NULL);

	snprintf(rq, sizeof(rq), "dmesg ../B/%s", hostb_dump);
	CHECK(run("A", rq, "evil", 4, out) == -EBADRQC);
	snprintf(rq, sizeof(rq), "dmesg %s", hostb_dump);
	CHECK(run("A", rq, "evil", 4, out) == -EBADRQC);
	snprintf(rq, sizeof(rq), "file %s ../../x", name);
	CHECK(run("A", rq, "evil", 4, out) == -EBADRQC);
	snprintf(rq, sizeof(rq), "file %s ../../B/%s/dmesg.txt", name,
		 hostb_dump);
	CHECK(run("A", rq, "evil", 4, out) == -EBADRQC);
	CHECK(run("A", "dmesg ..", "evil", 4, out) == -EBADRQC);
	CHECK(run("A", "dmesg /etc", "evil", 4, out) == -EBADRQC);
	CHECK(run("A", "dmesg .", "evil", 4, out) == -EBADRQC);

	/* A link in A's dir named like a dump, to B's dump. */
	snprintf(p, sizeof(p), "%s/A/2025-01-01-00:00:00", root);
	snprintf(target, sizeof(target), "%s/B/%s", root, hostb_dump);
	CHECK(symlink(target, p) == 0);
	CHECK(run("A", "dmesg 2025-01-01-00:00:00", "evil", 4, out) == -EBADRQC);
	CHECK(run("A", "file 2025-01-01-00:00:00 hooks.log", "evil", 4, out) ==
	      -EBADRQC);
	CHECK(run("A", "vmcore 2025-01-01-00:00:00", "evil", 4, out) == -EBADRQC);
	CHECK(req("A", "list", out) == 0);
	CHECK(strstr(out, "2025-01-01") == NULL);
	CHECK(req("A", "get 2025-01-01-00:00:00 dmesg.txt", out) == -EBADRQC);
	snprintf(rq, sizeof(rq), "get ../B/%s dmesg.txt", hostb_dump);
	CHECK(req("A", rq, out) == -EBADRQC);
	snprintf(rq, sizeof(rq), "get %s dmesg.txt", hostb_dump);
	CHECK(req("A", rq, out) == -EBADRQC);
	CHECK(strstr(out, "B's log") == NULL);
	/* begin's retention removes a link as a link, never what it names. */
	CHECK(req("A", "begin 1 1796300000", out) == 0);

	/* A link inside A's dump, to B's dmesg: replaced, not written through. */
	snprintf(p, sizeof(p), "%s/A/%s/%s", root, name, DUMP_HOOKS_LOG);
	CHECK(unlink(p) == 0);
	snprintf(target, sizeof(target), "%s/B/%s/%s", root, hostb_dump,
		 DUMP_DMESG);
	CHECK(symlink(target, p) == 0);
	snprintf(rq, sizeof(rq), "file %s hooks.log", name);
	(void)run("A", rq, "evil", 4, out);

	/* A's host dir made a link to B's: refused. */
	snprintf(p, sizeof(p), "%s/C", root);
	snprintf(target, sizeof(target), "%s/B", root);
	CHECK(symlink(target, p) == 0);
	r = req("C", "list", out);
	CHECK(r == -ELOOP || r == -ENOTDIR);
	snprintf(rq, sizeof(rq), "dmesg %s", hostb_dump);
	r = run("C", rq, "evil", 4, out);
	CHECK(r == -ELOOP || r == -ENOTDIR);
	CHECK(req("../B", "list", out) == -EBADRQC);
	CHECK(req("A/../B", "list", out) == -EBADRQC);
	CHECK(hostb_intact());
}

static void test_refused(void)
{
	static const char *const bad[] = {
		"", " ", "sh", "sh -c id", "ls", "ls -la", "cat /etc/passwd",
		"scp -t /tmp", "scp -f x", "sftp", "internal-sftp",
		"/usr/lib/openssh/sftp-server", "bash", "list; sh", "list;sh",
		"check 0; rm -rf ~", "check $(id)", "list `id`", "list | cat",
		"list && sh", "list > x", "LIST", "rsync --server . x",
		"check 0\nsh", "begin 0 1 extra",
	};
	struct diag d = DIAG_INIT;
	char out[4096];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = req("A", bad[i], out);

		CHECK(r == -EBADRQC);
		if (r != -EBADRQC)
			fprintf(stderr, "not refused: '%s'\n", bad[i]);
	}
	CHECK(receive_request(root, "A", NULL, 0, 1, &d) == -EBADRQC);
	CHECK(strcmp(diag_text(&d), "refused: no request (this key may only send dumps)") == 0);
	/* A NULL diag: the errno alone. */
	CHECK(receive_request(root, "A", "sh", 0, 1, NULL) == -EBADRQC);
	CHECK(hostb_intact());
}

static int authorize(const char *r, const char *host, const char *key)
{
	struct diag d = DIAG_INIT;
	int in = in_text(key, strlen(key)), ret;

	ret = receive_authorize(r, host, home, in, &d);
	CHECK((ret == 0) == !diag_failed(&d));
	CHECK(ret == 0 || (d.error == ret &&
			   (strncmp(d.msg, "refused: ", 9) == 0 ||
			    strncmp(d.msg, "error: ", 7) == 0)));
	close(in);
	return ret;
}

static void test_authorize(void)
{
	char p[PATH_MAX * 2], r2[PATH_MAX * 2], want[1024], *t = NULL;
	struct stat st;

	snprintf(p, sizeof(p), "%s/.ssh", home);
	CHECK(mkdir(p, 0700) == 0);
	snprintf(p, sizeof(p), "%s/.ssh/authorized_keys", home);
	test_put(home, ".ssh/authorized_keys",
		 "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOther admin@desk\n");
	CHECK(authorize(root, "web1-0123456789ab",
			"ssh-ed25519 " KEY_BODY " root@web1\n") == 0);
	CHECK(path_format(want, sizeof(want),
			  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOther admin@desk\n"
			  "restrict,command=\"/usr/lib/kdump-file/kdump-file-receive --root %s --host web1-0123456789ab\" ssh-ed25519 "
			  KEY_BODY " kdump-file@web1-0123456789ab\n", root) == 0);
	CHECK(read_file_max(p, &t, 1 << 20) > 0 && strcmp(t, want) == 0);
	free(t);
	t = NULL;
	CHECK(stat(p, &st) == 0 && (st.st_mode & 07777) == 0600);
	snprintf(p, sizeof(p), "%s/web1-0123456789ab", root);
	CHECK(stat(p, &st) == 0 && S_ISDIR(st.st_mode) &&
	      (st.st_mode & 07777) == 0700);

	/* The same key again, for another root: one line, replaced. */
	snprintf(r2, sizeof(r2), "%s/other/dumps", tmp);
	CHECK(authorize(r2, "web1-0123456789ab",
			"ssh-ed25519 " KEY_BODY "\n") == 0);
	CHECK(path_format(want, sizeof(want),
			  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOther admin@desk\n"
			  "restrict,command=\"/usr/lib/kdump-file/kdump-file-receive --root %s --host web1-0123456789ab\" ssh-ed25519 "
			  KEY_BODY " kdump-file@web1-0123456789ab\n", r2) == 0);
	snprintf(p, sizeof(p), "%s/.ssh/authorized_keys", home);
	CHECK(read_file_max(p, &t, 1 << 20) > 0 && strcmp(t, want) == 0);
	free(t);
	snprintf(p, sizeof(p), "%s/other/dumps", tmp);
	CHECK(stat(p, &st) == 0 && (st.st_mode & 07777) == 0755);

	/* Bad key lines, roots and hosts: refused, the file as it was. */
	CHECK(authorize(root, "h", "ssh-dss " KEY_BODY "\n") == -EBADRQC);
	CHECK(authorize(root, "h", "not a key\n") == -EBADRQC);
	CHECK(authorize(root, "h", "") == -EBADRQC);
	CHECK(authorize(root, "h", "ssh-ed25519 AAAA$(id)AAAAAAAAAAAAAA\n") ==
	      -EBADRQC);
	CHECK(authorize(root, "h", "ssh-ed25519 " KEY_BODY "\nssh-ed25519 "
			KEY_BODY "\n") == -EBADRQC);
	CHECK(authorize("/srv/x\" sh", "h", "ssh-ed25519 " KEY_BODY "\n") ==
	      -EBADRQC);
	CHECK(authorize(root, "../h", "ssh-ed25519 " KEY_BODY "\n") ==
	      -EBADRQC);
	snprintf(p, sizeof(p), "%s/.ssh/authorized_keys", home);
	t = NULL;
	CHECK(read_file_max(p, &t, 1 << 20) > 0 && strcmp(t, want) == 0);
	free(t);
}

int main(void)
{
	char name[DUMP_NAME_MAX] = "";

	snprintf(tmp, sizeof(tmp), "/tmp/test-receive.XXXXXX");
	if (!mkdtemp(tmp))
		return 1;
	snprintf(root, sizeof(root), "%s/root", tmp);
	snprintf(home, sizeof(home), "%s/home", tmp);
	CHECK(mkdir(root, 0755) == 0 && mkdir(home, 0700) == 0);

	test_names();
	test_check();
	test_answer_lost();
	test_begin(name);
	test_files(name);
	test_vmcore(name);
	test_list(name);
	test_retention();
	test_other_host(name);
	test_refused();
	test_authorize();
	CHECK(test_rm_rf(tmp) == 0);
	return tests_done();
}
