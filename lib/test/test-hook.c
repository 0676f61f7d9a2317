// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hook.h"
#include "tests.h"
#include "util.h"

static char dir[] = "/tmp/test-hook.XXXXXX";

struct output {
	char text[8192];
	size_t len;
};

static void collect(const char *buf, size_t n, void *userdata)
{
	struct output *o = userdata;

	if (n > sizeof(o->text) - 1 - o->len)
		n = sizeof(o->text) - 1 - o->len;
	memcpy(o->text + o->len, buf, n);
	o->len += n;
	o->text[o->len] = '\0';
}

/* A script in the test directory, executable. */
static const char *script(const char *name, const char *body)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return path;
	fprintf(f, "#!/bin/sh\n%s\n", body);
	fclose(f);
	(void)chmod(path, 0755);
	return path;
}

static int run(const char *path, unsigned long long timeout_ms,
	       struct output *o, struct hook_result *r)
{
	char *argv[] = { (char *)path, "/var/crash/2026-01-01-00:00:00", "pre",
			 NULL };

	memset(o, 0, sizeof(*o));
	return hook_run(argv, NULL, timeout_ms, collect, o, r);
}

static void test_exit_codes(void)
{
	struct hook_result r;
	struct output o;
	char d[64];

	CHECK(run(script("ok", "echo \"out $1 $2\"; echo err >&2; exit 0"),
		  5000, &o, &r) == 0);
	CHECK(r.status == 0 && !r.timed_out && !r.signal && !r.error);
	CHECK(!hook_failed(&r));
	CHECK(strcmp(o.text, "out /var/crash/2026-01-01-00:00:00 pre\nerr\n") == 0);
	CHECK(hook_describe(&r, d, sizeof(d)) == 0 && strcmp(d, "exit 0") == 0);

	CHECK(run(script("three", "exit 3"), 5000, &o, &r) == 0);
	CHECK(r.status == 3 && hook_failed(&r));
	CHECK(hook_describe(&r, d, sizeof(d)) == 0 && strcmp(d, "exit 3") == 0);

	CHECK(run(script("segv", "kill -SEGV $$"), 5000, &o, &r) == 0);
	CHECK(r.signal == SIGSEGV && r.status == -1 && hook_failed(&r));
	CHECK(hook_describe(&r, d, sizeof(d)) == 0 &&
	      strcmp(d, "killed by SIGSEGV") == 0);
	CHECK(hook_describe(&r, d, 4) == -ENOBUFS);
}

static void test_stdin_is_null(void)
{
	struct hook_result r;
	struct output o;

	CHECK(run(script("stdin", "if read -r x; then echo \"read $x\"; else echo eof; fi"),
		  5000, &o, &r) == 0);
	CHECK(r.status == 0 && strcmp(o.text, "eof\n") == 0);
}

static void test_cannot_run(void)
{
	char missing[300], d[128];
	struct hook_result r;
	struct output o;
	const char *p;

	snprintf(missing, sizeof(missing), "%s/missing", dir);
	CHECK(run(missing, 5000, &o, &r) == 0);
	CHECK(r.error == ENOENT && hook_failed(&r) && r.status == -1);
	CHECK(hook_describe(&r, d, sizeof(d)) == 0 &&
	      strcmp(d, "cannot run: No such file or directory") == 0);
	p = script("noexec", "exit 0");
	CHECK(chmod(p, 0644) == 0);
	CHECK(run(p, 5000, &o, &r) == 0);
	CHECK(r.error == EACCES);
}

/* The environment given is the hook's only; a malformed one is refused. */
static void test_env(void)
{
	char *env[] = { "PATH=/usr/bin:/bin", "KDUMP_FILE_HOOK_TEST=yes", NULL };
	char *bad[] = { "=yes", NULL };
	char *argv[] = { NULL, "/var/crash/x", "pre", NULL };
	const char *path = getenv("PATH");
	struct hook_result r, before;
	struct output o;

	argv[0] = (char *)script("env", "echo \"$PATH $KDUMP_FILE_HOOK_TEST\"");
	memset(&o, 0, sizeof(o));
	CHECK(hook_run(argv, env, 5000, collect, &o, &r) == 0);
	CHECK(r.status == 0 && !hook_failed(&r));
	CHECK(strcmp(o.text, "/usr/bin:/bin yes\n") == 0);
	CHECK(getenv("KDUMP_FILE_HOOK_TEST") == NULL);
	CHECK(getenv("PATH") == path);

	memset(&r, 0xa5, sizeof(r));
	before = r;
	CHECK(hook_run(argv, bad, 5000, collect, &o, &r) == -EINVAL);
	CHECK(memcmp(&r, &before, sizeof(r)) == 0);
}

static void test_timeout(void)
{
	unsigned long long t = now_ms();
	struct hook_result r;
	struct output o;
	char d[64];

	CHECK(run(script("sleeper", "echo before; exec sleep 100"), 1000, &o,
		  &r) == 0);
	t = now_ms() - t;
	CHECK(r.timed_out && hook_failed(&r));
	CHECK(r.ms >= 1000 && r.ms < 2000);
	CHECK(t < 3500);
	CHECK(strcmp(o.text, "before\n") == 0);
	CHECK(hook_describe(&r, d, sizeof(d)) == 0 &&
	      strncmp(d, "timed out after 1.", 18) == 0);
}

static void test_children(void)
{
	char body[512];
	unsigned long long t;
	struct hook_result r;
	struct output o;
	pid_t child;

	/* Exits at once, its child holding the pipe: it returns at once. */
	snprintf(body, sizeof(body),
		 "sleep 100 & echo $! >%s/child1; echo done", dir);
	t = now_ms();
	CHECK(run(script("forker", body), 5000, &o, &r) == 0);
	t = now_ms() - t;
	CHECK(r.status == 0 && !r.timed_out);
	CHECK(t < 2500);
	CHECK(strcmp(o.text, "done\n") == 0);
	child = test_read_pid(dir, "child1");
	CHECK(child > 0 && test_pid_gone(child));

	/* Waits for a child that sleeps: both killed at the timeout. */
	snprintf(body, sizeof(body),
		 "sleep 100 & echo $! >%s/child2; wait", dir);
	t = now_ms();
	CHECK(run(script("waiter", body), 1000, &o, &r) == 0);
	t = now_ms() - t;
	CHECK(r.timed_out);
	CHECK(t < 3500);
	child = test_read_pid(dir, "child2");
	CHECK(child > 0 && test_pid_gone(child));

	/* A child that leaves the group keeps the pipe: still bounded. */
	snprintf(body, sizeof(body),
		 "setsid sleep 3 & echo $! >%s/child3; exit 4", dir);
	t = now_ms();
	CHECK(run(script("escaper", body), 5000, &o, &r) == 0);
	t = now_ms() - t;
	CHECK(r.status == 4 && !r.timed_out);
	CHECK(t < 2500);
	child = test_read_pid(dir, "child3");
	CHECK(child > 0 && test_pid_gone(child));
	if (child > 0)
		(void)kill(child, SIGKILL);
}

/*
 * A daemon's way out: setsid() leaves the hook's process group and
 * session, a double fork leaves its parent.  What is left is nobody's
 * child but ours (the subreaper), and still goes at the time limit.
 */
static void test_daemon_escapes(void)
{
	char body[512];
	unsigned long long t;
	struct hook_result r;
	struct output o;
	pid_t pid;
	int sr = -1;

	snprintf(body, sizeof(body),
		 "setsid sh -c 'sleep 100 & echo $! >%s/daemon; exit 0' &\n"
		 "while [ ! -s %s/daemon ]; do sleep 0.01; done\n"
		 "echo started; exec sleep 100", dir, dir);
	t = now_ms();
	CHECK(run(script("daemon", body), 1000, &o, &r) == 0);
	t = now_ms() - t;
	CHECK(r.timed_out && t < 3500);
	CHECK(strcmp(o.text, "started\n") == 0);
	pid = test_read_pid(dir, "daemon");
	CHECK(pid > 0 && test_pid_gone(pid));
	if (pid > 0)
		(void)kill(pid, SIGKILL);
	/* Not a subreaper before: not one after. */
	CHECK(prctl(PR_GET_CHILD_SUBREAPER, &sr) == 0 && sr == 0);

	/* A caller that was a subreaper already stays one. */
	CHECK(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0);
	(void)unlink(strcat(strcpy((char[256]){ 0 }, dir), "/daemon"));
	CHECK(run(script("daemon", body), 1000, &o, &r) == 0);
	CHECK(r.timed_out);
	pid = test_read_pid(dir, "daemon");
	CHECK(pid > 0 && test_pid_gone(pid));
	if (pid > 0)
		(void)kill(pid, SIGKILL);
	CHECK(prctl(PR_GET_CHILD_SUBREAPER, &sr) == 0 && sr == 1);
	CHECK(prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0) == 0);

	/* Exiting at once does not leave the daemon behind either. */
	(void)unlink(strcat(strcpy((char[256]){ 0 }, dir), "/daemon"));
	snprintf(body, sizeof(body),
		 "setsid sh -c 'sleep 100 & echo $! >%s/daemon; exit 0' &\n"
		 "while [ ! -s %s/daemon ]; do sleep 0.01; done; exit 0",
		 dir, dir);
	CHECK(run(script("daemon2", body), 5000, &o, &r) == 0);
	CHECK(r.status == 0 && !r.timed_out);
	pid = test_read_pid(dir, "daemon");
	CHECK(pid > 0 && test_pid_gone(pid));
	if (pid > 0)
		(void)kill(pid, SIGKILL);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_exit_codes();
	test_stdin_is_null();
	test_cannot_run();
	test_env();
	test_timeout();
	test_children();
	test_daemon_escapes();
	if (test_rm_rf(dir) < 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	return tests_done();
}
