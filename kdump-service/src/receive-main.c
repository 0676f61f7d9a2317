// SPDX-License-Identifier: GPL-2.0
/*
 * kdump-file-receive: the collector's end of an ssh:// dump target.
 *
 *   kdump-file-receive --authorize --root DIR --host HOSTDIR  < KEY.pub
 *   kdump-file-receive --root DIR --host HOSTDIR   (forced command;
 *                                  the request in $SSH_ORIGINAL_COMMAND)
 *
 * Exit 0 done, 1 refused or failed (one line on stderr), 2 usage.
 */
#include <errno.h>
#include <getopt.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "receive.h"

/* The command line, as parse_argv() found it. */
struct receive_options {
	const char *root;
	const char *host;
	bool authorize;
};

static void help(void)
{
	printf("Usage: kdump-file-receive --authorize --root DIR --host HOSTDIR < KEY.pub\n"
	       "       kdump-file-receive --root DIR --host HOSTDIR\n\n"
	       "The collector's end of a kdump-file ssh:// target.  With --authorize,\n"
	       "installs the public key on stdin in ~/.ssh/authorized_keys, restricted\n"
	       "to this program for HOSTDIR in DIR.  Without, serves the request in\n"
	       "$SSH_ORIGINAL_COMMAND (check, begin, dmesg, file, vmcore, list,\n"
	       "get) below DIR/HOSTDIR only.\n");
}

static int parse_argv(int argc, char *argv[], struct receive_options *o)
{
	static const struct option options[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "authorize", no_argument, NULL, 'a' },
		{ "root", required_argument, NULL, 'r' },
		{ "host", required_argument, NULL, 'H' },
		{}
	};
	int c;

	while ((c = getopt_long(argc, argv, "h", options, NULL)) >= 0) {
		switch (c) {
		case 'h':
			help();
			return 0;
		case 'a':
			o->authorize = true;
			break;
		case 'r':
			o->root = optarg;
			break;
		case 'H':
			o->host = optarg;
			break;
		default:
			return -EINVAL;
		}
	}
	if (optind < argc || !o->root || !o->host) {
		fprintf(stderr, "kdump-file-receive: error: --root DIR and --host HOSTDIR are needed, and nothing else (see --help)\n");
		return -EINVAL;
	}
	return 1;
}

/* The running user's home: authorized_keys is sshd's for this user. */
static const char *home_dir(void)
{
	struct passwd *pw = getpwuid(geteuid());

	if (pw && pw->pw_dir && pw->pw_dir[0] == '/')
		return pw->pw_dir;
	return getenv("HOME");
}

int main(int argc, char *argv[])
{
	struct receive_options o = { 0 };
	struct diag d = DIAG_INIT;
	const char *home;
	int r;

	r = parse_argv(argc, argv, &o);
	if (r <= 0)
		return r < 0 ? 2 : 0;
	if (o.authorize) {
		home = home_dir();
		if (!home) {
			fprintf(stderr, "kdump-file-receive: error: this user has no home directory for .ssh/authorized_keys\n");
			return 1;
		}
		r = receive_authorize(o.root, o.host, home, STDIN_FILENO, &d);
		if (r == 0)
			printf("authorized %s in %s\n", o.host, o.root);
	} else {
		r = receive_request(o.root, o.host,
				    getenv("SSH_ORIGINAL_COMMAND"),
				    STDIN_FILENO, STDOUT_FILENO, &d);
	}
	if (r < 0) {
		fprintf(stderr, "kdump-file-receive: %s\n", diag_text(&d));
		return 1;
	}
	return 0;
}
