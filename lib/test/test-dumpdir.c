// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dump.h"
#include "dumpdir.h"
#include "tests.h"
#include "util.h"

static char dir[] = "/tmp/test-dumpdir.XXXXXX";

/* 2026-01-02 03:04:05 UTC */
#define T0 1767323045LL

static void test_create(void)
{
	char name[DUMP_NAME_MAX], name2[DUMP_NAME_MAX], small[8], target[64];
	int base, fd = -1, fd2 = -1, sentinel = -42;
	struct stat st;
	mode_t old;

	base = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(base >= 0);
	/* The umask takes nothing from the mode asked. */
	old = umask(0077);
	CHECK(dump_dir_create(base, T0, 0750, name, sizeof(name), &fd) == 0);
	umask(old);
	CHECK(strcmp(name, "2026-01-02-03:04:05") == 0);
	CHECK(dump_name_valid(name) && dump_name_time(name) == T0);
	CHECK(fd >= 0 && fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) &&
	      (st.st_mode & 07777) == 0750);
	CHECK(fcntl(fd, F_GETFD) == FD_CLOEXEC);
	CHECK(dump_is_ours(base, name));

	/* The same second again: "-1", then "-2". */
	CHECK(dump_dir_create(base, T0, 0700, name2, sizeof(name2), &fd2) == 0);
	CHECK(strcmp(name2, "2026-01-02-03:04:05-1") == 0);
	CHECK(dump_is_ours(base, name2));
	close(fd2);
	CHECK(dump_dir_create(base, T0, 0700, name2, sizeof(name2), &fd2) == 0);
	CHECK(strcmp(name2, "2026-01-02-03:04:05-2") == 0);
	close(fd2);

	/* A link named like the dump is a name taken, never followed. */
	snprintf(target, sizeof(target), "%s/elsewhere", dir);
	CHECK(mkdir(target, 0700) == 0);
	CHECK(symlinkat(target, base, "2026-01-02-03:04:06") == 0);
	CHECK(dump_dir_create(base, T0 + 1, 0700, name2, sizeof(name2), &fd2) == 0);
	CHECK(strcmp(name2, "2026-01-02-03:04:06-1") == 0);
	CHECK(fstat(fd2, &st) == 0);
	{
		struct stat lt;

		CHECK(stat(target, &lt) == 0 && lt.st_ino != st.st_ino);
		CHECK(rmdir(target) == 0);
	}
	close(fd2);

	/* Failures leave the out-parameters alone. */
	strcpy(small, "x");
	CHECK(dump_dir_create(base, T0, 0700, small, sizeof(small), &sentinel) ==
	      -ENOBUFS);
	CHECK(strcmp(small, "x") == 0 && sentinel == -42);
	CHECK(dump_dir_create(base, -1, 0700, name2, sizeof(name2), &sentinel) ==
	      -EINVAL);
	/* Year 10000 has no name of ours. */
	CHECK(dump_dir_create(base, 253402300800LL, 0700, name2, sizeof(name2),
			      &sentinel) == -EINVAL);
	CHECK(sentinel == -42);
	CHECK(dump_dir_create(-1, T0, 0700, name2, sizeof(name2), &sentinel) ==
	      -EBADF);
	CHECK(sentinel == -42);

	/* Every name taken. */
	for (int i = 0; i <= DUMP_NAME_SUFFIX_MAX; i++) {
		char n[DUMP_NAME_MAX];

		if (i == 0)
			snprintf(n, sizeof(n), "2026-01-02-03:04:07");
		else
			snprintf(n, sizeof(n), "2026-01-02-03:04:07-%d", i);
		CHECK(mkdirat(base, n, 0700) == 0);
	}
	CHECK(dump_dir_create(base, T0 + 2, 0700, name2, sizeof(name2),
			      &sentinel) == -EEXIST);
	CHECK(sentinel == -42);
	close(fd);
	close(base);
}

static void test_commit(void)
{
	char name[DUMP_NAME_MAX], p[300], *text = NULL;
	int base, fd = -1;
	struct stat st;

	base = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(dump_dir_create(base, T0 + 100, 0700, name, sizeof(name), &fd) == 0);
	/* Nothing to commit. */
	CHECK(dump_vmcore_commit(fd) == -ENOENT);

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	test_put(p, DUMP_VMCORE_INCOMPLETE, "core");
	CHECK(fchmodat(fd, DUMP_VMCORE_INCOMPLETE, 0644, 0) == 0);
	CHECK(dump_vmcore_commit(fd) == 0);
	CHECK(faccessat(fd, DUMP_VMCORE_INCOMPLETE, F_OK, 0) < 0 &&
	      errno == ENOENT);
	CHECK(fstatat(fd, DUMP_VMCORE, &st, 0) == 0 &&
	      (st.st_mode & 07777) == 0600 && st.st_size == 4);
	CHECK(read_file_max_at(fd, DUMP_VMCORE, &text, 100) == 4 &&
	      strcmp(text, "core") == 0);
	free(text);

	/* A link is refused: what it points to is not a vmcore of ours. */
	CHECK(symlinkat("/etc/passwd", fd, DUMP_VMCORE_INCOMPLETE) == 0);
	CHECK(dump_vmcore_commit(fd) == -ELOOP);
	CHECK(fstatat(fd, DUMP_VMCORE, &st, 0) == 0 && st.st_size == 4);
	close(fd);
	close(base);
}

static void fill(struct dump_metadata *m)
{
	dump_metadata_init(m);
	m->complete = true;
	snprintf(m->error, sizeof(m->error), "the dump target is full");
	snprintf(m->kernel_release, sizeof(m->kernel_release), "6.1.0-kdf");
	m->crash_time = T0;
	snprintf(m->panic, sizeof(m->panic),
		 "Kernel panic - not syncing: \"sysrq\" \\ triggered");
	m->dmesg_only = true;
	m->dump_level = 31;
	snprintf(m->compression, sizeof(m->compression), "zstd");
	m->vmcore_bytes = 123456789012LL;
	m->dmesg_bytes = 0;
	snprintf(m->target, sizeof(m->target), "ssh://root@collector/var/crash");
	snprintf(m->fallback_reason, sizeof(m->fallback_reason),
		 "no link on the interface with MAC 52:54:00:12:34:56");
	snprintf(m->recovered_from, sizeof(m->recovered_from), "/dev/vdb");
	m->has_seconds = true;
	m->seconds_find_target = 0.25;
	m->seconds_dmesg = 0.5;
	m->seconds_vmcore = 12.125;
	m->seconds_total = 13;
	m->n_extra_modules = 2;
	snprintf(m->extra_modules[0].name, sizeof(m->extra_modules[0].name),
		 "virtio_blk");
	m->extra_modules[0].loaded = true;
	snprintf(m->extra_modules[1].name, sizeof(m->extra_modules[1].name),
		 "nosuch");
	snprintf(m->extra_modules[1].error, sizeof(m->extra_modules[1].error),
		 "ENOENT");
	m->n_hooks = 2;
	snprintf(m->hooks[0].phase, sizeof(m->hooks[0].phase), "pre");
	snprintf(m->hooks[0].path, sizeof(m->hooks[0].path), "/etc/kdump-file/pre");
	m->hooks[0].exit = 0;
	m->hooks[0].seconds = 0.093;
	snprintf(m->hooks[0].result, sizeof(m->hooks[0].result), "exit 0");
	snprintf(m->hooks[1].phase, sizeof(m->hooks[1].phase), "post");
	snprintf(m->hooks[1].path, sizeof(m->hooks[1].path), "/etc/kdump-file/hang");
	m->hooks[1].exit = -1;
	m->hooks[1].timed_out = true;
	m->hooks[1].failed = true;
	m->hooks[1].seconds = 5;
	snprintf(m->hooks[1].result, sizeof(m->hooks[1].result),
		 "timed out after 5.0 s: killed");
}

static bool same(const struct dump_metadata *a, const struct dump_metadata *b)
{
	bool ok = a->complete == b->complete &&
		  strcmp(a->error, b->error) == 0 &&
		  strcmp(a->kernel_release, b->kernel_release) == 0 &&
		  a->crash_time == b->crash_time &&
		  strcmp(a->panic, b->panic) == 0 &&
		  a->dmesg_only == b->dmesg_only &&
		  a->dump_level == b->dump_level &&
		  strcmp(a->compression, b->compression) == 0 &&
		  a->vmcore_bytes == b->vmcore_bytes &&
		  a->dmesg_bytes == b->dmesg_bytes &&
		  strcmp(a->target, b->target) == 0 &&
		  strcmp(a->fallback_reason, b->fallback_reason) == 0 &&
		  strcmp(a->recovered_from, b->recovered_from) == 0 &&
		  a->has_seconds == b->has_seconds &&
		  a->seconds_find_target == b->seconds_find_target &&
		  a->seconds_dmesg == b->seconds_dmesg &&
		  a->seconds_vmcore == b->seconds_vmcore &&
		  a->seconds_total == b->seconds_total &&
		  a->n_extra_modules == b->n_extra_modules &&
		  a->n_hooks == b->n_hooks;

	for (unsigned int i = 0; ok && i < a->n_extra_modules; i++) {
		const struct dump_meta_module *x = &a->extra_modules[i];
		const struct dump_meta_module *y = &b->extra_modules[i];

		ok = strcmp(x->name, y->name) == 0 && x->loaded == y->loaded &&
		     strcmp(x->error, y->error) == 0;
	}
	for (unsigned int i = 0; ok && i < a->n_hooks; i++) {
		const struct dump_meta_hook *x = &a->hooks[i], *y = &b->hooks[i];

		ok = strcmp(x->phase, y->phase) == 0 &&
		     strcmp(x->path, y->path) == 0 && x->exit == y->exit &&
		     x->timed_out == y->timed_out && x->seconds == y->seconds &&
		     x->failed == y->failed && strcmp(x->result, y->result) == 0;
	}
	return ok;
}

static void test_metadata(void)
{
	static struct dump_metadata m, back, sentinel;
	char name[DUMP_NAME_MAX], p[300], *text = NULL;
	struct dump_info info;
	int base, fd = -1;
	struct stat st;

	base = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(dump_dir_create(base, T0 + 200, 0700, name, sizeof(name), &fd) == 0);
	snprintf(p, sizeof(p), "%s/%s", dir, name);

	memset(&sentinel, 0x5a, sizeof(sentinel));
	back = sentinel;
	CHECK(dump_metadata_read(fd, &back) == -ENOENT);
	CHECK(memcmp(&back, &sentinel, sizeof(back)) == 0);

	/* Every field, there and back. */
	fill(&m);
	CHECK(dump_metadata_write(fd, &m) == 0);
	CHECK(fstatat(fd, DUMP_METADATA, &st, 0) == 0 &&
	      (st.st_mode & 07777) == 0600);
	CHECK(dump_metadata_read(fd, &back) == 0);
	CHECK(same(&m, &back));
	/* What the readers of the file (and the scenarios' greps) expect. */
	CHECK(read_file_max_at(fd, DUMP_METADATA, &text, 1 << 20) > 0);
	CHECK(text && strstr(text, "\"complete\": true") &&
	      strstr(text, "\"kernel_release\": \"6.1.0-kdf\"") &&
	      strstr(text, "\"seconds\": 0.093") &&
	      strstr(text, "\"dmesg_only\": true") &&
	      strstr(text, "\"target\": \"ssh://root@collector/var/crash\"") &&
	      strstr(text, "\"fallback_reason\": \"no link on the interface"));
	free(text);
	text = NULL;
	/* dump_inspect() reads it through the same reader. */
	CHECK(dump_inspect(p, &info) == 0);
	CHECK(info.has_metadata && info.crash_time == T0 && info.dmesg_only &&
	      strcmp(info.release, "6.1.0-kdf") == 0 &&
	      strcmp(info.error, "the dump target is full") == 0 &&
	      strncmp(info.panic, "Kernel panic", 12) == 0);

	/* Unset fields stay unset; no seconds, no arrays. */
	dump_metadata_init(&m);
	snprintf(m.error, sizeof(m.error), "the capture did not finish");
	CHECK(dump_metadata_write(fd, &m) == 0);
	CHECK(dump_metadata_read(fd, &back) == 0);
	CHECK(same(&m, &back));
	CHECK(back.crash_time == -1 && back.dump_level == -1 &&
	      back.vmcore_bytes == -1 && !back.has_seconds);
	CHECK(read_file_max_at(fd, DUMP_METADATA, &text, 1 << 20) > 0);
	CHECK(text && !strstr(text, "crash_time") && !strstr(text, "hooks") &&
	      !strstr(text, "fallback_reason") && !strstr(text, "target"));
	free(text);
	text = NULL;

	/* Invalid UTF-8 from a crashed kernel comes back valid. */
	dump_metadata_init(&m);
	snprintf(m.panic, sizeof(m.panic), "bad \xff byte");
	CHECK(dump_metadata_write(fd, &m) == 0);
	CHECK(dump_metadata_read(fd, &back) == 0);
	CHECK(strcmp(back.panic, "bad \xef\xbf\xbd byte") == 0);

	/* More than the arrays hold: refused, the file as it was. */
	m.n_hooks = DUMP_META_HOOKS_MAX + 1;
	CHECK(dump_metadata_write(fd, &m) == -EINVAL);
	CHECK(dump_metadata_read(fd, &back) == 0 &&
	      strcmp(back.panic, "bad \xef\xbf\xbd byte") == 0);

	/* Written by hand: wrong types ignored, too many hooks cut. */
	{
		char json[8192];
		size_t n;

		n = (size_t)snprintf(json, sizeof(json),
				     "{ \"complete\": \"yes\", \"crash_time\": \"1\", "
				     "\"dump_level\": 99999999999, \"panic\": 3, "
				     "\"seconds\": [], \"hooks\": [ 1");
		for (int i = 0; i < DUMP_META_HOOKS_MAX + 3; i++)
			n += (size_t)snprintf(json + n, sizeof(json) - n,
					      ", { \"phase\": \"pre\", \"exit\": %d }",
					      i);
		snprintf(json + n, sizeof(json) - n, " ] }");
		test_put(p, DUMP_METADATA, json);
		CHECK(dump_metadata_read(fd, &back) == 0);
		CHECK(!back.complete && back.crash_time == -1 &&
		      back.dump_level == -1 && back.panic[0] == '\0' &&
		      !back.has_seconds);
		CHECK(back.n_hooks == DUMP_META_HOOKS_MAX &&
		      back.hooks[0].exit == 0 &&
		      back.hooks[DUMP_META_HOOKS_MAX - 1].exit ==
			      DUMP_META_HOOKS_MAX - 1 &&
		      back.hooks[1].path[0] == '\0');
	}

	/* Not an object, not JSON, a link: errors, ret untouched. */
	back = sentinel;
	test_put(p, DUMP_METADATA, "[ 1, 2 ]");
	CHECK(dump_metadata_read(fd, &back) == -EINVAL);
	test_put(p, DUMP_METADATA, "{ \"complete\": tr");
	CHECK(dump_metadata_read(fd, &back) == -EINVAL);
	CHECK(unlinkat(fd, DUMP_METADATA, 0) == 0);
	CHECK(symlinkat("/etc/passwd", fd, DUMP_METADATA) == 0);
	CHECK(dump_metadata_read(fd, &back) == -ELOOP);
	CHECK(memcmp(&back, &sentinel, sizeof(back)) == 0);
	/* The writer replaces the link, never writes through it. */
	fill(&m);
	CHECK(dump_metadata_write(fd, &m) == 0);
	CHECK(fstatat(fd, DUMP_METADATA, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	      S_ISREG(st.st_mode));
	close(fd);
	close(base);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_create();
	test_commit();
	test_metadata();
	if (test_rm_rf(dir) < 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	return tests_done();
}
