/* SPDX-License-Identifier: GPL-2.0 */
/* kdump-file-analyze: crash(8) and makedumpfile(8), run and heard. */
#ifndef KDUMP_FILE_ANALYZE_RUN_H
#define KDUMP_FILE_ANALYZE_RUN_H

#include <stdbool.h>
#include <stddef.h>

struct run_result {
	char *out;		/* stdout and stderr, NUL-terminated */
	size_t len;
	int status;		/* waitpid() status */
	bool timed_out;
};

/*
 * Run @argv (argv[0] looked up in PATH) in "/" with @input (or nothing) on
 * stdin and collect its output, at most 32 MiB of it, for at most @timeout
 * seconds; then its process group is killed (lib's process_run()). Paths in
 * @argv must be absolute. Returns 0 and *ret (free it with
 * run_result_done()) once the program ran, whatever its exit status; a
 * negative errno if it could not be started (-ENOENT: not installed).
 */
int run_tool(char *const argv[], const char *input, long timeout,
	     struct run_result *ret);
void run_result_done(struct run_result *r);

#endif
