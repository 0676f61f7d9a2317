/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one process runner: every program the loader, the capture and the
 * analysis start goes through process_run().  A program runs without a
 * shell, in a process group of its own, and nothing it starts outlives it.
 * Whether it could be run (the return value) and how it ended (the result)
 * are kept apart.  Never logs.
 */
#ifndef KDUMP_FILE_PROCESS_H
#define KDUMP_FILE_PROCESS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Where a program named without a '/' is looked up when the caller's
 * environment has no PATH, as that of an init the kernel started (it
 * gets HOME and TERM only, init/main.c): glibc's execvpe() would look in
 * /bin:/usr/bin alone and miss lvm in /usr/sbin.  systemd's default PATH.
 */
#define PROCESS_DEFAULT_PATH \
	"/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

/* The longest line on_line is given; a longer one comes in pieces. */
#define PROCESS_LINE_MAX 4096

struct process_opts {
	int stdin_fd;		/* -1: /dev/null */
	int stdout_fd;		/* -1: inherited, unless on_line is set */
	int stderr_fd;		/* -1: inherited, unless on_line is set */
	/*
	 * When set, what the child writes to the stdout and stderr left at -1
	 * is read through one pipe and passed here a line at a time, without
	 * its newline, NUL-terminated (line[len] == '\0').  A last line
	 * without a newline is passed too.
	 */
	void (*on_line)(const char *line, size_t len, void *userdata);
	void *userdata;
	/* NAME=VALUE strings (NULL-terminated) set in the child only. */
	char *const *env_add;
	const char *cwd;	/* NULL: inherited */
	/* 0: none; at the limit the child's process group gets SIGKILL. */
	unsigned int timeout_ms;
	/*
	 * The child stays in the caller's process group instead of one of
	 * its own: for a program that asks the user on the terminal (ssh's
	 * password prompt), which a background group could not read.  Its
	 * end and the timeout then kill the child alone.
	 */
	bool keep_group;
	/*
	 * Not 0: no file the child writes grows past this many bytes
	 * (RLIMIT_FSIZE; a write beyond it fails and SIGXFSZ ends the
	 * child), so that what it writes to stdout_fd, a file, is bounded.
	 */
	unsigned long long file_size_max;
};

#define PROCESS_OPTS_INIT { .stdin_fd = -1, .stdout_fd = -1, .stderr_fd = -1 }

struct process_result {
	int wait_status;		/* as from waitpid() */
	bool timed_out;			/* killed at timeout_ms */
	unsigned long long elapsed_ms;	/* from its start to its end */
};

/*
 * Run argv[0] with argv, o (NULL: PROCESS_OPTS_INIT) and wait for it.
 * argv[0] without a '/' is looked up in our PATH, or when we have none in
 * PROCESS_DEFAULT_PATH; a PATH in env_add is the child's, not the lookup's.
 * Returns 0 when the program was started and reaped, whatever its exit
 * (see *ret), or a negative errno when it could not be started (-ENOENT
 * for a missing program, -EACCES for one not executable, ...), with ret
 * untouched.
 *
 * The child runs in a process group of its own with default signal
 * dispositions, an empty signal mask and no descriptor of ours but 0-2.
 * When it exits or times out, its group gets SIGKILL.  For the duration
 * the caller is made a child subreaper (PR_SET_CHILD_SUBREAPER), so that
 * what left the group (setsid(), setpgid()) is reparented to it when its
 * parent dies; every process so reparented that was not the caller's
 * child before the program started gets SIGKILL and is reaped before
 * process_run() returns, whatever process group it joined (the caller's
 * too).  A caller must not start children of its own from another thread
 * meanwhile.  A process stuck in the kernel that SIGKILL cannot
 * end is waited for 2 s and then left behind.
 */
int process_run(char *const argv[], const struct process_opts *o,
		struct process_result *ret);

/* Did it exit 0 within its time? */
bool process_succeeded(const struct process_result *r);

/* Its exit status, or -1 when it did not exit (a signal, the timeout). */
int process_exit_status(const struct process_result *r);

/*
 * "exit 0", "exit 3", "killed by SIGSEGV", "timed out after 5.0 s" in buf
 * (truncated to size).
 */
void process_result_text(const struct process_result *r, char *buf,
			 size_t size);

#endif
