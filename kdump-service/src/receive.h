/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The collector's side of an ssh:// target: what kdump-file-receive does
 * for the key a machine installs (--authorize) and for each request that
 * machine's capture sends through the forced command.  Every request
 * works below ROOT/HOSTDIR alone, through descriptors opened without
 * following links.  Never logs: a failure goes to the caller's struct
 * diag with one line saying why, the program prints it.
 */
#ifndef KDUMP_FILE_RECEIVE_H
#define KDUMP_FILE_RECEIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

/* Where the package installs it: the forced command names it so. */
#define RECEIVE_PROGRAM "/usr/lib/kdump-file/kdump-file-receive"
/* The most a dmesg or a record sent may be. */
#define RECEIVE_FILE_MAX (64 * 1024 * 1024)
/* The longest request, ROOT and public key line taken. */
#define RECEIVE_REQUEST_MAX 1024
#define RECEIVE_ROOT_MAX 1024
#define RECEIVE_KEY_MAX 16384

/*
 * A ROOT the forced command can name: absolute, of letters, digits, '/',
 * '.', '_', '-' (the command line is run by the user's shell: nothing it
 * would interpret), no "." or ".." component.
 */
bool receive_root_valid(const char *root);

/*
 * Serve request (the text of $SSH_ORIGINAL_COMMAND; NULL when there was
 * none) for host dir hostdir (a name net_host_dir_valid() accepts) below
 * root: read what it sends from in_fd, write its answer to out_fd.
 * Returns 0, -EBADRQC when the request is refused (not one of ours, a
 * name that is not a dump of this host's, a bad argument) or another
 * negative errno when it failed; either way recorded in d with one line
 * saying why ("refused: ..." or "error: ...").
 */
int receive_request(const char *root, const char *hostdir,
		    const char *request, int in_fd, int out_fd,
		    struct diag *d);

/*
 * The authorized_keys line for key (TYPE BODY [COMMENT]) for hostdir in
 * root; -EINVAL when key is not a public key line of a known type.
 */
int receive_key_line(const char *root, const char *hostdir, const char *key,
		     char *buf, size_t size);

/*
 * --authorize: read one public key line from in_fd, make root (0755) and
 * root/hostdir (0700) when missing, and write its forced-command line into
 * home/.ssh/authorized_keys (.ssh 0700, the file 0600, atomically), over a
 * line for the same key body; the other lines stay.  -EBADRQC for a bad
 * key line, root or hostdir; d says why, of every failure.
 */
int receive_authorize(const char *root, const char *hostdir,
		      const char *home, int in_fd, struct diag *d);

#endif
