// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

#include "process.h"
#include "tests.h"
#include "util.h"

static char dir[] = "/tmp/test-process.XXXXXX";

struct lines {
	char text[3 * PROCESS_LINE_MAX];
	size_t len;
	unsigned int n;
	size_t longest;
};

/* Each line ends in '|' so that where the lines were cut shows. */
static void collect(const char *line, size_t len, void *userdata)
{
	struct lines *l = userdata;

	CHECK(line[len] == '\0');
	CHECK(memchr(line, '\n', len) == NULL);
	l->n++;
	if (len > l->longest)
		l->longest = len;
	if (len + 1 > sizeof(l->text) - 1 - l->len)
		return;
	memcpy(l->text + l->len, line, len);
	l->len += len;
	l->text[l->len++] = '|';
	l->text[l->len] = '\0';
}

/* sh -c script, its output to l (when l), within timeout_ms. */
static int sh(const char *script, unsigned int timeout_ms, struct lines *l,
	      struct process_result *r)
{
	char *argv[] = { "sh", "-c", (char *)script, NULL };
	struct process_opts o = PROCESS_OPTS_INIT;

	o.timeout_ms = timeout_ms;
	if (l) {
		memset(l, 0, sizeof(*l));
		o.on_line = collect;
		o.userdata = l;
	}
	return process_run(argv, &o, r);
}

static void test_exit_status(void)
{
	struct process_result r;
	char text[64];

	CHECK(sh("exit 0", 0, NULL, &r) == 0);
	CHECK(WIFEXITED(r.wait_status) && WEXITSTATUS(r.wait_status) == 0);
	CHECK(process_succeeded(&r) && !r.timed_out);
	CHECK(process_exit_status(&r) == 0);
	process_result_text(&r, text, sizeof(text));
	CHECK(strcmp(text, "exit 0") == 0);

	/* A failing program is still a program run: 0, the status apart. */
	CHECK(sh("exit 3", 0, NULL, &r) == 0);
	CHECK(WIFEXITED(r.wait_status) && WEXITSTATUS(r.wait_status) == 3);
	CHECK(!process_succeeded(&r) && process_exit_status(&r) == 3);
	process_result_text(&r, text, sizeof(text));
	CHECK(strcmp(text, "exit 3") == 0);

	/* 127 is an exit status like any other once the program ran. */
	CHECK(sh("exit 127", 0, NULL, &r) == 0);
	CHECK(process_exit_status(&r) == 127);
	process_result_text(&r, text, 4);
	CHECK(strcmp(text, "exi") == 0);
}

static void test_signal(void)
{
	struct process_result r;
	char text[64];

	CHECK(sh("kill -SEGV $$", 0, NULL, &r) == 0);
	CHECK(WIFSIGNALED(r.wait_status) && WTERMSIG(r.wait_status) == SIGSEGV);
	CHECK(!process_succeeded(&r) && process_exit_status(&r) == -1);
	CHECK(!r.timed_out);
	process_result_text(&r, text, sizeof(text));
	CHECK(strcmp(text, "killed by SIGSEGV") == 0);
}

static void test_timeout(void)
{
	unsigned long long t;
	struct process_result r;
	struct lines l;
	char script[512], text[64];
	pid_t pid;
	int sr = -1;

	/* The shell waits for its sleeper: both die at the timeout. */
	snprintf(script, sizeof(script),
		 "echo before; sleep 100 & echo $! >%s/sleeper; wait", dir);
	t = now_ms();
	CHECK(sh(script, 500, &l, &r) == 0);
	t = now_ms() - t;
	CHECK(r.timed_out && !process_succeeded(&r));
	CHECK(process_exit_status(&r) == -1);
	CHECK(r.elapsed_ms >= 500 && r.elapsed_ms < 1500);
	CHECK(t < 3000);
	CHECK(strcmp(l.text, "before|") == 0);
	pid = test_read_pid(dir, "sleeper");
	CHECK(pid > 0 && test_pid_gone(pid));
	process_result_text(&r, text, sizeof(text));
	CHECK(strncmp(text, "timed out after 0.", 18) == 0);

	/* One that left the group with setsid() goes too. */
	snprintf(script, sizeof(script),
		 "setsid sh -c 'echo $$ >%s/escaper; exec sleep 100' & wait",
		 dir);
	t = now_ms();
	CHECK(sh(script, 500, &l, &r) == 0);
	t = now_ms() - t;
	CHECK(r.timed_out);
	CHECK(t < 3000);
	pid = test_read_pid(dir, "escaper");
	CHECK(pid > 0 && test_pid_gone(pid));

	/* And when the program exits at once, leaving it with the pipe. */
	snprintf(script, sizeof(script),
		 "setsid sh -c 'echo $$ >%s/escaper2; exec sleep 100' & "
		 "while [ ! -s %s/escaper2 ]; do sleep 0.01; done; exit 4",
		 dir, dir);
	t = now_ms();
	CHECK(sh(script, 5000, &l, &r) == 0);
	t = now_ms() - t;
	CHECK(!r.timed_out && process_exit_status(&r) == 4);
	CHECK(t < 2500);
	pid = test_read_pid(dir, "escaper2");
	CHECK(pid > 0 && test_pid_gone(pid));

	/*
	 * One that joined the caller's own process group (setpgid: the same
	 * session allows it), where killing the child's group misses it.
	 */
	{
		char pg[32], pidfile[300];
		char *argv[] = { "/proc/self/exe", "--join-group", pg, pidfile,
				 NULL };
		struct process_opts o = PROCESS_OPTS_INIT;

		snprintf(pg, sizeof(pg), "%d", (int)getpgrp());
		snprintf(pidfile, sizeof(pidfile), "%s/joiner", dir);
		o.timeout_ms = 3000;
		t = now_ms();
		CHECK(process_run(argv, &o, &r) == 0);
		CHECK(!r.timed_out && process_exit_status(&r) == 0);
		CHECK(now_ms() - t < 2500);
		pid = test_read_pid(dir, "joiner");
		CHECK(pid > 0 && test_pid_gone(pid));
		/* Killed at the timeout too, the runner's child still there. */
		o.timeout_ms = 500;
		snprintf(pidfile, sizeof(pidfile), "%s/joiner2", dir);
		argv[1] = "--join-group-stay";
		CHECK(process_run(argv, &o, &r) == 0);
		CHECK(r.timed_out);
		pid = test_read_pid(dir, "joiner2");
		CHECK(pid > 0 && test_pid_gone(pid));
	}

	/* The caller is a subreaper for the duration only. */
	CHECK(prctl(PR_GET_CHILD_SUBREAPER, &sr) == 0 && sr == 0);
}

static void test_lines(void)
{
	struct process_result r;
	struct lines l;
	char script[256];

	/* Lines cut across reads, stderr with stdout, a last line unended. */
	CHECK(sh("printf ab; sleep 0.1; printf 'c\\nd\\n'; echo err >&2; "
		 "printf '\\n'; printf tail",
		 0, &l, &r) == 0);
	CHECK(process_succeeded(&r));
	CHECK(strcmp(l.text, "abc|d|err||tail|") == 0);
	CHECK(l.n == 5);

	/* A line longer than PROCESS_LINE_MAX comes in pieces. */
	snprintf(script, sizeof(script),
		 "head -c %d /dev/zero | tr '\\0' x; echo; echo end",
		 PROCESS_LINE_MAX + 10);
	CHECK(sh(script, 0, &l, &r) == 0);
	CHECK(l.n == 3 && l.longest == PROCESS_LINE_MAX);
	CHECK(l.len > 4 && strcmp(l.text + l.len - 4, "end|") == 0);

	/* Nothing written: no line. */
	CHECK(sh("exit 0", 0, &l, &r) == 0);
	CHECK(l.n == 0);
}

static void test_fds(void)
{
	char *cat[] = { "cat", NULL };
	struct process_opts o = PROCESS_OPTS_INIT;
	struct process_result r;
	char path[300], *text = NULL;
	struct lines l;
	int fd;

	/* stdin defaults to /dev/null. */
	memset(&l, 0, sizeof(l));
	o.on_line = collect;
	o.userdata = &l;
	CHECK(process_run(cat, &o, &r) == 0);
	CHECK(process_succeeded(&r) && l.n == 0);

	/* stdin from a descriptor. */
	test_put(dir, "input", "one\ntwo\n");
	snprintf(path, sizeof(path), "%s/input", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	CHECK(fd >= 0);
	o.stdin_fd = fd;
	CHECK(process_run(cat, &o, &r) == 0);
	CHECK(process_succeeded(&r) && strcmp(l.text, "one|two|") == 0);
	close(fd);

	/* stdout to a descriptor, stderr still to the lines. */
	snprintf(path, sizeof(path), "%s/output", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	CHECK(fd >= 0);
	{
		char *argv[] = { "sh", "-c", "echo out; echo err >&2", NULL };

		memset(&l, 0, sizeof(l));
		o.stdin_fd = -1;
		o.stdout_fd = fd;
		CHECK(process_run(argv, &o, &r) == 0);
		CHECK(process_succeeded(&r) && strcmp(l.text, "err|") == 0);
	}
	close(fd);
	CHECK(read_file_max(path, &text, 100) == 4);
	CHECK(text && strcmp(text, "out\n") == 0);
	free(text);

	/* The caller's 2 as the child's 1 and its 1 as the child's 2. */
	{
		char *argv[] = { "sh", "-c", "echo out; echo err >&2", NULL };
		struct process_opts sw = PROCESS_OPTS_INIT;
		int saved1 = dup(1), saved2 = dup(2), f1, f2;
		char p1[300], p2[300], *t1 = NULL, *t2 = NULL;

		snprintf(p1, sizeof(p1), "%s/one", dir);
		snprintf(p2, sizeof(p2), "%s/two", dir);
		f1 = open(p1, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		f2 = open(p2, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		CHECK(f1 >= 0 && f2 >= 0 && saved1 >= 0 && saved2 >= 0);
		fflush(stdout);
		fflush(stderr);
		(void)dup2(f1, 1);
		(void)dup2(f2, 2);
		sw.stdout_fd = 2;
		sw.stderr_fd = 1;
		CHECK(process_run(argv, &sw, &r) == 0);
		(void)dup2(saved1, 1);
		(void)dup2(saved2, 2);
		close(saved1);
		close(saved2);
		close(f1);
		close(f2);
		CHECK(read_file_max(p1, &t1, 100) == 4 && strcmp(t1, "err\n") == 0);
		CHECK(read_file_max(p2, &t2, 100) == 4 && strcmp(t2, "out\n") == 0);
		free(t1);
		free(t2);
	}
}

static void test_env_cwd(void)
{
	char *add[] = { "KDUMP_FILE_TEST_ADDED=yes", "HOME=/nowhere", NULL };
	char *argv[] = { "sh", "-c", "echo \"$KDUMP_FILE_TEST_ADDED $HOME\"; pwd",
			 NULL };
	char *bad[] = { "NOEQUALS", NULL };
	struct process_opts o = PROCESS_OPTS_INIT;
	const char *home = getenv("HOME");
	struct process_result r;
	struct lines l;

	memset(&l, 0, sizeof(l));
	o.on_line = collect;
	o.userdata = &l;
	o.env_add = add;
	o.cwd = "/";
	CHECK(process_run(argv, &o, &r) == 0);
	CHECK(process_succeeded(&r));
	CHECK(strcmp(l.text, "yes /nowhere|/|") == 0);
	/* Only in the child. */
	CHECK(getenv("KDUMP_FILE_TEST_ADDED") == NULL);
	CHECK(getenv("HOME") == home);

	o.env_add = bad;
	CHECK(process_run(argv, &o, &r) == -EINVAL);
	o.env_add = NULL;
	o.cwd = "/nonexistent-directory";
	CHECK(process_run(argv, &o, &r) == -ENOENT);
}

/*
 * Without PATH, as the capture kernel's init: a program in /usr/sbin is
 * found (glibc alone would search /bin:/usr/bin), and a PATH given to the
 * child is the child's only.
 */
static void test_no_path(void)
{
	char *nologin[] = { "nologin", NULL };
	char *missing[] = { "kdump-file-no-such-program", NULL };
	char *env[] = { "PATH=/nonexistent", NULL };
	char *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	struct process_opts o = PROCESS_OPTS_INIT;
	struct process_result r;

	CHECK(unsetenv("PATH") == 0);
	o.stdout_fd = o.stderr_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	CHECK(o.stdout_fd >= 0);
	/* /usr/sbin/nologin: started, and it exits 1. */
	CHECK(process_run(nologin, &o, &r) == 0);
	CHECK(process_exit_status(&r) == 1);
	CHECK(process_run(missing, &o, &r) == -ENOENT);
	o.env_add = env;
	CHECK(process_run(nologin, &o, &r) == 0);
	CHECK(getenv("PATH") == NULL);
	/* What it runs in turn is found too: the child gets a PATH... */
	{
		char *printenv[] = { "printenv", "PATH", NULL };
		struct process_opts po = PROCESS_OPTS_INIT;
		struct lines l;

		memset(&l, 0, sizeof(l));
		po.on_line = collect;
		po.userdata = &l;
		CHECK(process_run(printenv, &po, &r) == 0);
		CHECK(process_succeeded(&r));
		CHECK(strcmp(l.text, PROCESS_DEFAULT_PATH "|") == 0);
		/* ...unless the caller gives one. */
		memset(&l, 0, sizeof(l));
		po.env_add = env;
		CHECK(process_run(printenv, &po, &r) == 0);
		CHECK(strcmp(l.text, "/nonexistent|") == 0);
		CHECK(getenv("PATH") == NULL);
	}
	if (o.stdout_fd >= 0)
		close(o.stdout_fd);
	if (path)
		CHECK(setenv("PATH", path, 1) == 0);
	free(path);
}

static void test_cannot_run(void)
{
	char *missing[] = { "kdump-file-no-such-program", NULL };
	char *empty[] = { NULL };
	struct process_opts o = PROCESS_OPTS_INIT;
	struct process_result r, sentinel;
	char path[300];
	struct lines l;

	memset(&l, 0, sizeof(l));
	o.on_line = collect;
	o.userdata = &l;
	memset(&sentinel, 0x5a, sizeof(sentinel));
	r = sentinel;
	CHECK(process_run(missing, &o, &r) == -ENOENT);
	/* Nothing else: no result, no output. */
	CHECK(memcmp(&r, &sentinel, sizeof(r)) == 0);
	CHECK(l.n == 0);

	snprintf(path, sizeof(path), "%s/missing", dir);
	missing[0] = path;
	CHECK(process_run(missing, NULL, &r) == -ENOENT);
	CHECK(memcmp(&r, &sentinel, sizeof(r)) == 0);

	test_put(dir, "noexec", "#!/bin/sh\nexit 0\n");
	snprintf(path, sizeof(path), "%s/noexec", dir);
	CHECK(process_run(missing, NULL, &r) == -EACCES);
	CHECK(process_run(empty, NULL, &r) == -EINVAL);
	CHECK(memcmp(&r, &sentinel, sizeof(r)) == 0);
}

static void test_elapsed(void)
{
	char *argv[] = { "sleep", "0.3", NULL };
	struct process_result r;

	CHECK(process_run(argv, NULL, &r) == 0);
	CHECK(process_succeeded(&r));
	CHECK(r.elapsed_ms >= 300 && r.elapsed_ms < 2000);
}

/* keep_group: the child's group is ours; the timeout still ends it. */
static void test_keep_group(void)
{
	char *argv[] = { "sh", "-c", "ps -o pgid= -p $$", NULL };
	char *slow[] = { "sleep", "30", NULL };
	struct process_opts o = PROCESS_OPTS_INIT;
	struct process_result r;
	struct lines l = { 0 };
	char want[32];

	o.on_line = collect;
	o.userdata = &l;
	o.keep_group = true;
	CHECK(process_run(argv, &o, &r) == 0 && process_succeeded(&r));
	snprintf(want, sizeof(want), "%d|", (int)getpgrp());
	CHECK(strstr(l.text, want) != NULL);
	o = (struct process_opts)PROCESS_OPTS_INIT;
	o.on_line = collect;
	o.userdata = &l;
	l.len = 0;
	l.text[0] = '\0';
	CHECK(process_run(argv, &o, &r) == 0 && process_succeeded(&r));
	CHECK(strstr(l.text, want) == NULL);
	o = (struct process_opts)PROCESS_OPTS_INIT;
	o.keep_group = true;
	o.timeout_ms = 200;
	CHECK(process_run(slow, &o, &r) == 0 && r.timed_out);
	CHECK(r.elapsed_ms < 5000);
}

/* file_size_max: what the child writes to a file stops there. */
static void test_file_size_max(void)
{
	char *big[] = { "head", "-c", "100000", "/dev/zero", NULL };
	char *small[] = { "head", "-c", "1000", "/dev/zero", NULL };
	struct process_opts o = PROCESS_OPTS_INIT;
	struct process_result r;
	char path[300];
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "%s/bounded", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	CHECK(fd >= 0);
	o.stdout_fd = fd;
	o.file_size_max = 4096;
	CHECK(process_run(big, &o, &r) == 0);
	CHECK(!process_succeeded(&r));
	CHECK(fstat(fd, &st) == 0 && st.st_size <= 4096);
	CHECK(ftruncate(fd, 0) == 0 && lseek(fd, 0, SEEK_SET) == 0);
	CHECK(process_run(small, &o, &r) == 0);
	CHECK(process_succeeded(&r));
	CHECK(fstat(fd, &st) == 0 && st.st_size == 1000);
	close(fd);
}

/*
 * --join-group[-stay] PGID PIDFILE: a child that moves into process group
 * PGID, writes its PID and sleeps; the parent exits (or, -stay, sleeps).
 */
static int join_group(int argc, char *argv[])
{
	pid_t pid;
	FILE *f;

	if (argc != 4)
		return 2;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		if (setpgid(0, (pid_t)atoi(argv[2])) < 0)
			_exit(3);
		f = fopen(argv[3], "w");
		if (!f)
			_exit(4);
		fprintf(f, "%d\n", (int)getpid());
		fclose(f);
		sleep(100);
		_exit(0);
	}
	/* The child has moved and said so before the parent ends. */
	for (int i = 0; i < 500 && access(argv[3], F_OK) < 0; i++)
		usleep(10000);
	if (strcmp(argv[1], "--join-group-stay") == 0)
		sleep(100);
	return 0;
}

int main(int argc, char *argv[])
{
	if (argc > 1 && strncmp(argv[1], "--join-group", 12) == 0)
		return join_group(argc, argv);
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_exit_status();
	test_signal();
	test_timeout();
	test_lines();
	test_fds();
	test_env_cwd();
	test_no_path();
	test_cannot_run();
	test_elapsed();
	test_keep_group();
	test_file_size_max();
	if (test_rm_rf(dir) < 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	return tests_done();
}
