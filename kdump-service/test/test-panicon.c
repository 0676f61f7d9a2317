// SPDX-License-Identifier: GPL-2.0
/*
 * panic_on's sysctls in a directory of our own standing for /proc/sys:
 * what is saved, set, put back, kept over a reload, and what a kernel
 * without a sysctl or a sysctl that refuses a write does.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "panicon.h"
#include "tests.h"
#include "util.h"

static char root[PATH_MAX], state[PATH_MAX];

static const char *const files[PANIC_ON_COUNT] = {
	"panic_on_oops", "hung_task_panic", "softlockup_panic",
	"hardlockup_panic", "panic_on_rcu_stall", "panic_on_warn",
};

static void put(const char *name, const char *value)
{
	char path[PATH_MAX + 64];
	int fd;

	snprintf(path, sizeof(path), "%s/kernel/%s", root, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0);
	if (fd >= 0) {
		CHECK(write(fd, value, strlen(value)) == (ssize_t)strlen(value));
		close(fd);
	}
}

/* The sysctl's value, "" when it is not there. */
static const char *get(const char *name)
{
	static char buf[64];
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/kernel/%s", root, name);
	if (read_line_file(path, buf, sizeof(buf)) < 0)
		buf[0] = '\0';
	return buf;
}

static const char *state_text(void)
{
	static char buf[1024];

	if (read_line_file(state, buf, sizeof(buf)) < 0)
		strcpy(buf, "(none)");
	return buf;
}

/* A kernel with every sysctl at 0, no hard lockup detector, no state. */
static void fresh(void)
{
	char path[PATH_MAX + 64];

	for (unsigned int i = 0; i < PANIC_ON_COUNT; i++) {
		snprintf(path, sizeof(path), "%s/kernel/%s", root, files[i]);
		(void)unlink(path);
		if (i != 3)
			put(files[i], "0\n");
	}
	(void)unlink(state);
}

static void test_saved_format(void)
{
	struct panicon_saved s;
	char buf[256];

	CHECK(panicon_saved_parse("", &s) == 0 && s.mask == 0);
	CHECK(panicon_saved_parse("kernel.panic_on_oops=0\nkernel.hung_task_panic=-1\n",
				  &s) == 0);
	CHECK(s.mask == (PANIC_ON_OOPS | PANIC_ON_HUNG_TASK));
	CHECK(strcmp(s.value[0], "0") == 0 && strcmp(s.value[1], "-1") == 0);
	CHECK(panicon_saved_format(&s, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "kernel.panic_on_oops=0\nkernel.hung_task_panic=-1\n") == 0);
	CHECK(panicon_saved_format(&s, buf, 10) == -ENOBUFS);
	/* Without the last newline, as read_line_file() gives it. */
	CHECK(panicon_saved_parse("kernel.panic_on_warn=2", &s) == 0 &&
	      s.mask == PANIC_ON_WARN && strcmp(s.value[5], "2") == 0);

	/* Only our sysctls and ints: the file names what gets written. */
	CHECK(panicon_saved_parse("kernel.panic=0\n", &s) == -EINVAL);
	CHECK(panicon_saved_parse("../../etc/passwd=0\n", &s) == -EINVAL);
	CHECK(panicon_saved_parse("kernel/panic_on_oops=0\n", &s) == -EINVAL);
	CHECK(panicon_saved_parse("kernel.panic_on_oops=\n", &s) == -EINVAL);
	CHECK(panicon_saved_parse("kernel.panic_on_oops=-\n", &s) == -EINVAL);
	CHECK(panicon_saved_parse("kernel.panic_on_oops=1 2\n", &s) == -EINVAL);
	CHECK(panicon_saved_parse("kernel.panic_on_oops=0x1\n", &s) == -EINVAL);
	CHECK(panicon_saved_parse("kernel.panic_on_oops=123456789012345678901234\n",
				  &s) == -EINVAL);
	CHECK(panicon_saved_parse("kernel.panic_on_oops=0\nkernel.panic_on_oops=1\n",
				  &s) == -EINVAL);
	CHECK(panicon_saved_parse("kernel.panic_on_oops=0\n\n", &s) == -EINVAL);
	CHECK(panicon_saved_parse("kernel.panic_on_oops\n", &s) == -EINVAL);
	CHECK(strcmp(panicon_sysctl(3), "kernel.hardlockup_panic") == 0);
	CHECK(strstr(panicon_missing_reason(3), "hard lockup detector") != NULL);
}

static void test_load_reload_unload(void)
{
	struct panicon_result res;
	unsigned int set, present;

	fresh();
	/* Set before kdump-file came: put back as it was, 1. */
	put("hung_task_panic", "1\n");

	/* load: oops, warn, hung_task and hard_lockup, which is not there. */
	CHECK(panicon_apply(root, state, PANIC_ON_OOPS | PANIC_ON_WARN |
			    PANIC_ON_HUNG_TASK | PANIC_ON_HARD_LOCKUP, &res) == 0);
	CHECK(res.set == (PANIC_ON_OOPS | PANIC_ON_WARN | PANIC_ON_HUNG_TASK));
	CHECK(res.missing == PANIC_ON_HARD_LOCKUP);
	CHECK(res.restored == 0 && res.failed == -1);
	CHECK(strcmp(get("panic_on_oops"), "1") == 0);
	CHECK(strcmp(get("panic_on_warn"), "1") == 0);
	CHECK(strcmp(get("hung_task_panic"), "1") == 0);
	CHECK(strcmp(get("softlockup_panic"), "0") == 0);
	CHECK(strcmp(get("hardlockup_panic"), "") == 0);
	CHECK(strcmp(state_text(), "kernel.panic_on_oops=0\nkernel.hung_task_panic=1\nkernel.panic_on_warn=0") == 0);
	{
		struct stat st;

		CHECK(stat(state, &st) == 0 && (st.st_mode & 07777) == 0600);
	}
	CHECK(panicon_read(root, &set, &present) == 0);
	CHECK(set == (PANIC_ON_OOPS | PANIC_ON_WARN | PANIC_ON_HUNG_TASK));
	CHECK(present == ((1U << PANIC_ON_COUNT) - 1 - PANIC_ON_HARD_LOCKUP));

	/* reload, the same: our 1s are never saved as the values before. */
	CHECK(panicon_apply(root, state, PANIC_ON_OOPS | PANIC_ON_WARN |
			    PANIC_ON_HUNG_TASK, &res) == 0);
	CHECK(res.set == (PANIC_ON_OOPS | PANIC_ON_WARN | PANIC_ON_HUNG_TASK));
	CHECK(res.restored == 0 && res.missing == 0);
	CHECK(strcmp(state_text(), "kernel.panic_on_oops=0\nkernel.hung_task_panic=1\nkernel.panic_on_warn=0") == 0);

	/* Someone sets soft_lockup by hand; a reload that adds it saves that 2. */
	put("softlockup_panic", "2\n");
	/* reload with fewer (and one more): warn is put back. */
	CHECK(panicon_apply(root, state, PANIC_ON_OOPS | PANIC_ON_HUNG_TASK |
			    PANIC_ON_SOFT_LOCKUP, &res) == 0);
	CHECK(res.restored == PANIC_ON_WARN && strcmp(res.value[5], "0") == 0);
	CHECK(res.set == (PANIC_ON_OOPS | PANIC_ON_HUNG_TASK | PANIC_ON_SOFT_LOCKUP));
	CHECK(strcmp(get("panic_on_warn"), "0") == 0);
	CHECK(strcmp(get("softlockup_panic"), "1") == 0);
	CHECK(strcmp(state_text(), "kernel.panic_on_oops=0\nkernel.hung_task_panic=1\nkernel.softlockup_panic=2") == 0);

	/* unload: exactly what was there before. */
	CHECK(panicon_restore(root, state, &res) == 0);
	CHECK(res.restored == (PANIC_ON_OOPS | PANIC_ON_HUNG_TASK | PANIC_ON_SOFT_LOCKUP));
	CHECK(strcmp(res.value[2], "2") == 0);
	CHECK(strcmp(get("panic_on_oops"), "0") == 0);
	CHECK(strcmp(get("hung_task_panic"), "1") == 0);
	CHECK(strcmp(get("softlockup_panic"), "2") == 0);
	CHECK(strcmp(get("panic_on_warn"), "0") == 0);
	CHECK(access(state, F_OK) < 0 && errno == ENOENT);
	/* Nothing saved: nothing to do. */
	CHECK(panicon_restore(root, state, &res) == 0 && res.restored == 0);

	/* panic_on = none over a load that set some: all put back, no file. */
	CHECK(panicon_apply(root, state, PANIC_ON_OOPS, &res) == 0);
	CHECK(panicon_apply(root, state, 0, &res) == 0);
	CHECK(res.restored == PANIC_ON_OOPS && res.set == 0);
	CHECK(strcmp(get("panic_on_oops"), "0") == 0);
	CHECK(access(state, F_OK) < 0);
	/* None wanted, none saved: no state file appears. */
	CHECK(panicon_apply(root, state, 0, &res) == 0);
	CHECK(access(state, F_OK) < 0);
}

/* A write the kernel refuses: everything of this call is undone. */
static void test_failure_undoes(void)
{
	char link[PATH_MAX + 64], real[PATH_MAX + 64];
	struct panicon_result res;
	int r;

	fresh();
	CHECK(panicon_apply(root, state, PANIC_ON_OOPS | PANIC_ON_RCU_STALL,
			    &res) == 0);
	/* panic_on_warn reads, but cannot be opened for writing. */
	snprintf(link, sizeof(link), "%s/kernel/panic_on_warn", root);
	snprintf(real, sizeof(real), "%s/warn-real", root);
	CHECK(unlink(link) == 0);
	put("../warn-real", "0\n");
	CHECK(symlink(real, link) == 0);
	/* Drops rcu_stall (put back), keeps oops, adds hung_task and warn. */
	r = panicon_apply(root, state, PANIC_ON_OOPS | PANIC_ON_HUNG_TASK |
			  PANIC_ON_WARN, &res);
	CHECK(r == -ELOOP);
	CHECK(res.failed == 5 && res.set == 0 && res.restored == 0);
	CHECK(strcmp(get("panic_on_oops"), "1") == 0);
	CHECK(strcmp(get("panic_on_rcu_stall"), "1") == 0);
	CHECK(strcmp(get("hung_task_panic"), "0") == 0);
	CHECK(strcmp(get("panic_on_warn"), "0") == 0);
	CHECK(strcmp(state_text(), "kernel.panic_on_oops=0\nkernel.panic_on_rcu_stall=0") == 0);

	/* unload with one that cannot be written back: it stays saved. */
	put("panic_on_oops", "1\n");
	CHECK(panicon_apply(root, state, PANIC_ON_OOPS | PANIC_ON_RCU_STALL,
			    &res) == 0);
	CHECK(unlink(link) == 0);
	CHECK(symlink(real, link) == 0);
	{
		/* The saved value of warn, as a load would have left it. */
		char text[] = "kernel.panic_on_oops=0\nkernel.panic_on_rcu_stall=0\nkernel.panic_on_warn=0\n";

		CHECK(write_file_atomic(state, text, strlen(text), 0600) == 0);
	}
	CHECK(panicon_restore(root, state, &res) == -ELOOP);
	CHECK(res.failed == 5);
	CHECK(res.restored == (PANIC_ON_OOPS | PANIC_ON_RCU_STALL));
	CHECK(strcmp(get("panic_on_oops"), "0") == 0);
	CHECK(strcmp(state_text(), "kernel.panic_on_warn=0") == 0);
	CHECK(unlink(link) == 0);
	CHECK(unlink(real) == 0);

	/* A saved sysctl gone from the kernel: nothing to put back. */
	put("panic_on_warn", "0\n");
	CHECK(unlink(link) == 0);
	CHECK(panicon_restore(root, state, &res) == 0);
	CHECK(res.restored == 0 && access(state, F_OK) < 0);
}

/* A damaged state file: nothing is touched, and it is said. */
static void test_corrupt_state(void)
{
	const char *text = "kernel.panic_on_oops=0\nkernel.modprobe=/tmp/x\n";
	struct panicon_result res;

	fresh();
	CHECK(write_file_atomic(state, text, strlen(text), 0600) == 0);
	CHECK(panicon_apply(root, state, PANIC_ON_OOPS, &res) == -EBADMSG);
	CHECK(res.failed == -1);
	CHECK(strcmp(get("panic_on_oops"), "0") == 0);
	CHECK(panicon_restore(root, state, &res) == -EBADMSG);
	CHECK(strcmp(get("panic_on_oops"), "0") == 0);
	CHECK(strcmp(state_text(), "kernel.panic_on_oops=0\nkernel.modprobe=/tmp/x") == 0);
	/* A sysctl that does not read as an int is not saved or set. */
	(void)unlink(state);
	put("panic_on_oops", "yes\n");
	CHECK(panicon_apply(root, state, PANIC_ON_OOPS, &res) == -EBADMSG);
	CHECK(res.failed == 0 && strcmp(get("panic_on_oops"), "yes") == 0);
	CHECK(access(state, F_OK) < 0);
}

int main(void)
{
	char dir[] = "/tmp/test-panicon.XXXXXX", cmd[PATH_MAX + 16];

	if (!mkdtemp(dir))
		return 1;
	snprintf(root, sizeof(root), "%s/sys", dir);
	snprintf(state, sizeof(state), "%s/panic-on", dir);
	CHECK(mkdir_p(root, 0700) == 0);
	snprintf(cmd, sizeof(cmd), "%s/kernel", root);
	CHECK(mkdir_p(cmd, 0700) == 0);

	test_saved_format();
	test_load_reload_unload();
	test_failure_undoes();
	test_corrupt_state();

	if (test_rm_rf(dir) < 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	return tests_done();
}
