// SPDX-License-Identifier: GPL-2.0
/*
 * The dump itself, by makedumpfile: dmesg.txt first, then the vmcore
 * written as vmcore-incomplete, synced, and renamed to vmcore
 * (dump_vmcore_commit()) only when makedumpfile succeeded and left
 * min_free_mb free.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture.h"
#include "dumpdir.h"
#include "process.h"
#include "util.h"

/*
 * Run the state's makedumpfile with argv (argv[0] is replaced by its path),
 * stdout to stdout_fd when >= 0.  Returns 0 with how it ended in *ret, or
 * the negative errno of a program that could not be started: that one has
 * no exit status to report (process_run()).
 */
int capture_exec(struct capture *cap, char *argv[], int stdout_fd,
		 struct process_result *ret)
{
	struct process_opts o = PROCESS_OPTS_INIT;

	argv[0] = (char *)cap->paths.makedumpfile;
	o.stdout_fd = stdout_fd;
	return process_run(argv, &o, ret);
}

/*
 * How makedumpfile ended, when it did not succeed: "failed with status 3",
 * "was killed by SIGKILL", or "could not be run: ..." for r < 0.  Returns
 * whether it failed; buf is "" when it did not.
 */
bool capture_run_failed(int r, const struct process_result *res, char *buf,
			size_t size)
{
	int st = res->wait_status;

	buf[0] = '\0';
	if (r < 0)
		snprintf(buf, size, "could not be run: %s", strerror(-r));
	else if (process_succeeded(res))
		return false;
	else if (WIFEXITED(st))
		snprintf(buf, size, "failed with status %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(buf, size, "was killed by SIG%s",
			 sigabbrev_np(WTERMSIG(st)) ?: "?");
	else
		snprintf(buf, size, "failed with wait status 0x%x", st);
	return true;
}

/* The vmcore's makedumpfile command line as one line of text, for the log. */
int capture_makedumpfile_text(struct capture *cap, const char *out,
			      const char *workdir, char *buf, size_t size)
{
	struct conf_makedumpfile_cmd cmd;
	size_t pos = 0;
	int r;

	buf[0] = '\0';
	r = conf_makedumpfile_cmd(&cap->conf, cap->paths.vmcore, out, workdir,
				  &cmd);
	if (r < 0)
		return r;
	for (char **a = cmd.argv; *a && pos < size; a++)
		pos += snprintf(buf + pos, size - pos, "%s%s",
				a == cmd.argv ? "" : " ", *a);
	return 0;
}

/*
 * Make the directory, the dmesg and a record saying the capture has not
 * finished durable before the long part: if power is lost or this kernel
 * dies while the vmcore is written, the next boot finds an incomplete
 * dump, not nothing.  The record is replaced at the end.
 */
static void dmesg_commit(struct capture *cap)
{
	(void)capture_write_incomplete(cap->dir_fd, cap->conf.dmesg_only ?
		"the capture did not finish: power was lost, the capture kernel stopped or capture_timeout passed while writing metadata.json" :
		"the capture did not finish: power was lost, the capture kernel stopped or capture_timeout passed while saving the vmcore");
	(void)sync_file(cap->dmesg);
	(void)fsync(cap->dir_fd);
}

/* dmesg first: small, and the most useful part of a dump. */
int phase_dmesg(struct capture *cap)
{
	char *argv[] = { "makedumpfile", "--dump-dmesg",
			 (char *)cap->paths.vmcore, cap->dmesg, NULL };
	unsigned long long t = now_ms();
	struct process_result res = { 0 };
	char why[128];
	bool failed;
	int r;

	capture_step(cap, "saving the dmesg");
	r = capture_exec(cap, argv, -1, &res);
	cap->t_dmesg = now_ms() - t;
	failed = capture_run_failed(r, &res, why, sizeof(why));
	if (failed)
		capture_say(cap, "warning: makedumpfile --dump-dmesg %s", why);
	else
		capture_say(cap, "dmesg saved (%lld bytes)",
			    capture_file_size(cap->dmesg));
	dmesg_commit(cap);
	if (!cap->conf.dmesg_only || !failed)
		return 0;
	/* dump_level = dmesg: the kernel log is the whole dump. */
	snprintf(cap->reason, sizeof(cap->reason),
		 "makedumpfile --dump-dmesg %s (dump_level = dmesg saves nothing else)",
		 why);
	return capture_fail(cap, -EIO, "kernel log not saved: %s",
			    cap->reason);
}

/* Is there min_free_mb free before the vmcore is begun? */
static int vmcore_space(struct capture *cap)
{
	unsigned long long min = cap->conf.min_free_mb * (1ULL << 20);
	unsigned long long avail = cap->free_bytes(cap->dir);

	if (avail > min)
		return 0;
	snprintf(cap->reason, sizeof(cap->reason),
		 "only %llu MiB free on the target, min_free_mb is %llu",
		 avail >> 20, cap->conf.min_free_mb);
	return capture_fail(cap, -ENOSPC, "vmcore not saved: %s; dmesg.txt and metadata.json are kept",
			    cap->reason);
}

/*
 * makedumpfile failed.  A full target: the partial file is of no use and
 * holds the space the next dump needs.  Anything else may be a fault worth
 * looking at: keep it, under its name that says it is incomplete.
 */
static int vmcore_failed(struct capture *cap, const char *why)
{
	unsigned long long avail = cap->free_bytes(cap->dir);
	long long written = capture_file_size(cap->inc);
	bool full = avail < (1ULL << 20) + cap->conf.min_free_mb * (1ULL << 20);

	if (full) {
		(void)unlink(cap->inc);
		snprintf(cap->reason, sizeof(cap->reason),
			 "the dump target is full (%llu MiB free after %lld MiB written)",
			 avail >> 20, written > 0 ? written >> 20 : 0);
	} else {
		snprintf(cap->reason, sizeof(cap->reason), "makedumpfile %s",
			 why);
	}
	return capture_fail(cap, full ? -ENOSPC : -EIO,
			    "vmcore not saved: %s; dmesg.txt and metadata.json are kept",
			    cap->reason);
}

/* vmcore-incomplete becomes vmcore, durably, if it leaves min_free_mb. */
static int vmcore_commit(struct capture *cap)
{
	int r;

	if (cap->free_bytes(cap->dir) < cap->conf.min_free_mb * (1ULL << 20)) {
		(void)unlink(cap->inc);
		snprintf(cap->reason, sizeof(cap->reason),
			 "the vmcore would leave less than min_free_mb = %llu MiB free",
			 cap->conf.min_free_mb);
		return capture_fail(cap, -ENOSPC, "vmcore removed: %s; dmesg.txt and metadata.json are kept",
				    cap->reason);
	}
	r = dump_vmcore_commit(cap->dir_fd);
	if (r < 0)
		return capture_fail(cap, r, "cannot commit %s: %s", cap->core,
				    strerror(-r));
	capture_say(cap, "vmcore saved (%lld bytes in %.1fs)",
		    capture_file_size(cap->core), cap->t_core / 1000.0);
	return 0;
}

/* The vmcore, under a name that says it is not complete yet. */
int phase_vmcore(struct capture *cap)
{
	struct conf_makedumpfile_cmd cmd;
	struct process_result res = { 0 };
	unsigned long long t;
	char line[2048], why[128];
	int r;

	if (cap->conf.dmesg_only) {
		capture_say(cap, "no vmcore: dump_level = dmesg saves the kernel log alone");
		return 0;
	}
	r = vmcore_space(cap);
	if (r < 0)
		return r;
	capture_step(cap, "saving the vmcore");
	t = now_ms();
	/* -e keeps its work files in the dump's directory. */
	r = conf_makedumpfile_cmd(&cap->conf, cap->paths.vmcore, cap->inc,
				  cap->dir, &cmd);
	if (r == 0) {
		(void)capture_makedumpfile_text(cap, cap->inc, cap->dir, line,
						sizeof(line));
		capture_say(cap, "saving vmcore (%s)", line);
		r = capture_exec(cap, cmd.argv, -1, &res);
	}
	cap->t_core = now_ms() - t;
	if (capture_run_failed(r, &res, why, sizeof(why)))
		return vmcore_failed(cap, why);
	return vmcore_commit(cap);
}
