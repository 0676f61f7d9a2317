// SPDX-License-Identifier: GPL-2.0
/*
 * import: the kdump-file.conf equivalent to kdump-tools' or kdump-utils'
 * configuration (import.c converts; this says what it did).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli.h"
#include "import.h"
#include "util.h"

/* Read one source into im; logs. */
static int import_file(struct import *im, const char *path,
		       enum import_format *ret_format)
{
	struct import_error err;
	enum import_format f;
	char *buf = NULL;
	size_t len;
	int r;

	r = read_file_max(path, &buf, IMPORT_FILE_MAX);
	len = r;
	if (r < 0) {
		if (r == -EFBIG)
			log_error("cannot import '%s': larger than %d bytes, not a configuration file",
				  path, IMPORT_FILE_MAX);
		else
			log_error("cannot import '%s': %s", path, strerror(-r));
		return r;
	}
	f = import_detect(path, buf, len);
	if (f == IMPORT_UNKNOWN) {
		log_error("cannot import '%s': it is neither kdump-tools' configuration (VARIABLE=value lines) nor kdump-utils' kdump.conf (directive value lines)",
			  path);
		free(buf);
		return -EINVAL;
	}
	r = import_buffer(im, f, path, buf, len, &err);
	free(buf);
	if (r == -ENOMEM) {
		log_error("cannot import '%s': out of memory", path);
		return r;
	}
	if (r < 0) {
		if (err.line)
			log_error("cannot import '%s': line %u: %s", path,
				  err.line, err.msg);
		else
			log_error("cannot import '%s': %s", path, err.msg);
		return r;
	}
	*ret_format = f;
	return 0;
}

int verb_import(int argc, char *argv[])
{
	enum import_format f[2] = { IMPORT_UNKNOWN, IMPORT_UNKNOWN };
	const char *files[2] = { NULL, NULL };
	struct conf_error cerr;
	struct import *im;
	struct stat st;
	unsigned int n = argc - 1;
	char *text = NULL;
	int r;

	if (n) {
		files[0] = argv[1];
		files[1] = n > 1 ? argv[2] : NULL;
	} else {
		bool tools = access(IMPORT_KDUMP_TOOLS_PATH, F_OK) == 0;
		bool utils = access(IMPORT_KDUMP_CONF_PATH, F_OK) == 0;

		if (tools && utils) {
			log_error("both %s (kdump-tools) and %s (kdump-utils) exist: name the one to import (kdump-file import FILE)",
				  IMPORT_KDUMP_TOOLS_PATH, IMPORT_KDUMP_CONF_PATH);
			return -EEXIST;
		}
		if (!tools && !utils) {
			log_error("nothing to import: neither %s (kdump-tools) nor %s (kdump-utils) exists; name the file (kdump-file import FILE [SYSCONFIG])",
				  IMPORT_KDUMP_TOOLS_PATH, IMPORT_KDUMP_CONF_PATH);
			return -ENOENT;
		}
		files[n++] = tools ? IMPORT_KDUMP_TOOLS_PATH : IMPORT_KDUMP_CONF_PATH;
		if (utils && access(IMPORT_SYSCONFIG_PATH, F_OK) == 0)
			files[n++] = IMPORT_SYSCONFIG_PATH;
	}
	im = malloc(sizeof(*im));
	if (!im) {
		log_error("cannot import: out of memory");
		return -ENOMEM;
	}
	import_init(im);
	for (unsigned int i = 0; i < n; i++) {
		r = import_file(im, files[i], &f[i]);
		if (r < 0)
			goto out;
	}
	if (n == 2 && !((f[0] == IMPORT_KDUMP_CONF && f[1] == IMPORT_SYSCONFIG) ||
			(f[0] == IMPORT_SYSCONFIG && f[1] == IMPORT_KDUMP_CONF))) {
		log_error("cannot import '%s' (%s) with '%s' (%s): two files are kdump-utils' kdump.conf and its sysconfig",
			  files[0], import_format_name(f[0]), files[1],
			  import_format_name(f[1]));
		r = -EINVAL;
		goto out;
	}
	r = import_render(im, &text, &cerr);
	if (r < 0) {
		if (r == -ENOMEM)
			log_error("cannot import: out of memory");
		else
			log_error("kdump-file import made a configuration kdump-file refuses (line %u, %s: %s); this is a bug: please report it with the source files",
				  cerr.line, cerr.key, cerr.msg);
		goto out;
	}
	if (arg_output) {
		if (!arg_force && lstat(arg_output, &st) == 0) {
			log_error("'%s' exists: kdump-file import does not overwrite it (add --force to replace it)",
				  arg_output);
			r = -EEXIST;
			goto out;
		}
		r = write_file_atomic(arg_output, text, strlen(text), 0644);
		if (r < 0) {
			log_error("cannot write '%s': %s", arg_output,
				  strerror(-r));
			goto out;
		}
	} else {
		fputs(text, stdout);
		fflush(stdout);
	}
	fprintf(stderr, "kdump-file: import: %u setting%s carried over, %u not carried over",
		im->n_carried, im->n_carried == 1 ? "" : "s",
		im->n_not_carried);
	if (im->n_no_need)
		fprintf(stderr, ", %u need nothing (kdump-file does that already)",
			im->n_no_need);
	fputs(im->n_not_carried ? ":\n" : "\n", stderr);
	for (size_t i = 0; i < im->n_notes; i++)
		if (im->notes[i].kind == IMPORT_NOT_CARRIED)
			fprintf(stderr, "  %s: %s\n", im->notes[i].setting,
				im->notes[i].reason);
	if (arg_output)
		fprintf(stderr, "kdump-file: wrote %s\n", arg_output);
	r = 0;
out:
	free(text);
	import_free(im);
	free(im);
	return r;
}
