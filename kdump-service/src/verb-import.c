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
static int import_file(struct cli *cli, struct import *im, const char *path,
		       enum import_format *ret_format)
{
	struct diag err = DIAG_INIT;
	enum import_format f;
	char *buf = NULL;
	size_t len;
	int r;

	r = read_file_max(path, &buf, IMPORT_FILE_MAX);
	len = r;
	if (r < 0) {
		if (r == -EFBIG)
			log_error(cli, "cannot import '%s': larger than %d bytes, not a configuration file",
				  path, IMPORT_FILE_MAX);
		else
			log_error(cli, "cannot import '%s': %s", path, strerror(-r));
		return r;
	}
	f = import_detect(path, buf, len);
	if (f == IMPORT_UNKNOWN) {
		log_error(cli, "cannot import '%s': it is neither kdump-tools' configuration (VARIABLE=value lines) nor kdump-utils' kdump.conf (directive value lines)",
			  path);
		free(buf);
		return -EINVAL;
	}
	r = import_buffer(im, f, path, buf, len, &err);
	free(buf);
	if (r == -ENOMEM) {
		log_error(cli, "cannot import '%s': out of memory", path);
		return r;
	}
	if (r < 0) {
		if (err.line)
			log_error(cli, "cannot import '%s': line %u: %s", path,
				  err.line, err.msg);
		else
			log_error(cli, "cannot import '%s': %s", path, err.msg);
		return r;
	}
	*ret_format = f;
	return 0;
}

/*
 * Which files to read: those named, or the anchor's configuration this
 * machine has.  Logs.
 */
static int import_sources(struct cli *cli, int argc, char *argv[],
			  const char *ret_files[2], unsigned int *ret_n)
{
	unsigned int n = argc - 1;
	bool tools, utils;

	if (n) {
		ret_files[0] = argv[1];
		ret_files[1] = n > 1 ? argv[2] : NULL;
		*ret_n = n;
		return 0;
	}
	tools = access(IMPORT_KDUMP_TOOLS_PATH, F_OK) == 0;
	utils = access(IMPORT_KDUMP_CONF_PATH, F_OK) == 0;
	if (tools && utils) {
		log_error(cli, "both %s (kdump-tools) and %s (kdump-utils) exist: name the one to import (kdump-file import FILE)",
			  IMPORT_KDUMP_TOOLS_PATH, IMPORT_KDUMP_CONF_PATH);
		return -EEXIST;
	}
	if (!tools && !utils) {
		log_error(cli, "nothing to import: neither %s (kdump-tools) nor %s (kdump-utils) exists; name the file (kdump-file import FILE [SYSCONFIG])",
			  IMPORT_KDUMP_TOOLS_PATH, IMPORT_KDUMP_CONF_PATH);
		return -ENOENT;
	}
	ret_files[n++] = tools ? IMPORT_KDUMP_TOOLS_PATH : IMPORT_KDUMP_CONF_PATH;
	if (utils && access(IMPORT_SYSCONFIG_PATH, F_OK) == 0)
		ret_files[n++] = IMPORT_SYSCONFIG_PATH;
	*ret_n = n;
	return 0;
}

/* Read the sources into im and make the text; logs. */
static int import_convert(struct cli *cli, struct import *im,
			  const char *files[2], unsigned int n, char **ret_text)
{
	enum import_format f[2] = { IMPORT_UNKNOWN, IMPORT_UNKNOWN };
	struct diag cerr = DIAG_INIT, d = DIAG_INIT;
	int r;

	for (unsigned int i = 0; i < n; i++) {
		r = import_file(cli, im, files[i], &f[i]);
		if (r < 0)
			return r;
	}
	if (n == 2 && !((f[0] == IMPORT_KDUMP_CONF && f[1] == IMPORT_SYSCONFIG) ||
			(f[0] == IMPORT_SYSCONFIG && f[1] == IMPORT_KDUMP_CONF))) {
		log_error(cli, "cannot import '%s' (%s) with '%s' (%s): two files are kdump-utils' kdump.conf and its sysconfig",
			  files[0], import_format_name(f[0]), files[1],
			  import_format_name(f[1]));
		return -EINVAL;
	}
	r = import_render(im, ret_text, &cerr);
	if (r < 0) {
		if (r == -ENOMEM)
			log_error(cli, "cannot import: out of memory");
		else
			log_error(cli, "kdump-file import made a configuration kdump-file refuses (line %u, %s: %s); this is a bug: please report it with the source files",
				  cerr.line, cerr.key, cerr.msg);
		return r;
	}
	r = import_check(im, &d);
	if (r < 0) {
		log_error(cli, "cannot import '%s': %s", files[0],
			  diag_text(&d));
		free(*ret_text);
		*ret_text = NULL;
		return r;
	}
	return 0;
}

/* The text to --output or stdout, then the summary on stderr; logs. */
static int import_output(struct cli *cli, const struct import *im,
			 const char *text)
{
	enum import_write_how how = IMPORT_WROTE_NEW;
	char *sum = NULL;
	int r;

	if (cli->opt.output) {
		r = import_write(cli->opt.output, text, cli->opt.force, &how);
		if (r == -EEXIST)
			log_error(cli, "'%s' holds settings: kdump-file import does not replace it (add --force to replace it; the old file is kept as %s.bak)",
				  cli->opt.output, cli->opt.output);
		else if (r < 0)
			log_error(cli, "cannot write '%s': %s", cli->opt.output,
				  strerror(-r));
		if (r < 0)
			return r;
	} else {
		fputs(text, stdout);
		fflush(stdout);
	}
	r = import_summary(im, &sum);
	if (r < 0) {
		log_error(cli, "cannot import: out of memory");
		return r;
	}
	fputs(sum, stderr);
	free(sum);
	if (how == IMPORT_REPLACED_BACKED_UP)
		fprintf(stderr, "kdump-file: kept the previous %s as %s.bak\n",
			cli->opt.output, cli->opt.output);
	else if (how == IMPORT_REPLACED_COMMENTS)
		fprintf(stderr, "kdump-file: replaced %s, which held comments only\n",
			cli->opt.output);
	if (cli->opt.output)
		fprintf(stderr, "kdump-file: wrote %s\n", cli->opt.output);
	return 0;
}

int verb_import(struct cli *cli, int argc, char *argv[])
{
	const char *files[2] = { NULL, NULL };
	struct import *im;
	unsigned int n;
	char *text = NULL;
	int r;

	r = import_sources(cli, argc, argv, files, &n);
	if (r < 0)
		return r;
	im = malloc(sizeof(*im));
	if (!im) {
		log_error(cli, "cannot import: out of memory");
		return -ENOMEM;
	}
	import_init(im);
	im->local_instead = cli->opt.local_instead;
	r = import_convert(cli, im, files, n, &text);
	if (r >= 0)
		r = import_output(cli, im, text);
	free(text);
	import_free(im);
	free(im);
	return r;
}
