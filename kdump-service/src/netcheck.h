/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reaching a network target from the running system, as the capture will:
 * the design's ssh command line with a request for the collector program,
 * its failures sorted into what a user can act on, and the NFS export
 * mounted with mount(2) on a private directory.  load checks the target
 * with them before it loads; status reads the dumps through them.  Nothing
 * here prints.
 */
#ifndef KDUMP_FILE_NETCHECK_H
#define KDUMP_FILE_NETCHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "conf.h"

/* Seconds for a connection from the running system: load's check, status. */
#define NET_CHECK_CONNECT_TIMEOUT 10
#define NET_STATUS_CONNECT_TIMEOUT 5

/* Where load and status mount an NFS target for a moment. */
#define NET_MOUNT_DIR "/run/kdump-file"

/* The ssh command line: argv points into the struct. */
struct net_ssh_cmd {
	char key[CONF_VALUE_MAX + 8];
	char known[CONF_VALUE_MAX + 32];
	char alias[300];
	char timeout[48];
	char port[16];
	char dest[400];
	char request[256];
	char *argv[40];
};

/*
 * ssh -F /dev/null -i KEY ... -p PORT USER@ADDRESS REQUEST, every option
 * the design names and no other (StrictHostKeyChecking=yes against the
 * pinned known_hosts, HostKeyAlias=HOST).  address: NULL for net_host.
 * -ENAMETOOLONG when a part does not fit.
 */
int net_ssh_command(const struct kdump_conf *c, const char *address,
		    unsigned int connect_timeout, const char *request,
		    struct net_ssh_cmd *ret);

/* How an ssh request to the collector ended. */
enum net_ssh_outcome {
	NET_SSH_OK,
	NET_SSH_UNREACHABLE,	/* no answer, refused, timed out */
	NET_SSH_HOST_KEY,	/* the pinned host key does not match */
	NET_SSH_DENIED,		/* the collector does not take our key */
	NET_SSH_COLLECTOR,	/* kdump-file-receive's own error */
	NET_SSH_FAILED,		/* anything else */
};

/*
 * Sort an ssh run by its exit status (-1: killed, timed out) and its
 * output (stdout and stderr, lines): on anything but NET_SSH_OK, line
 * holds the line that says why (the collector's own line for
 * NET_SSH_COLLECTOR).
 */
enum net_ssh_outcome net_ssh_classify(int exit_status, const char *output,
				      char *line, size_t size);

struct net_ssh_result {
	enum net_ssh_outcome outcome;
	char output[16384];	/* what ssh and the collector printed */
	char line[1024];	/* why, when not NET_SSH_OK */
};

/*
 * Run request on the collector (address NULL: net_host), bounded by
 * connect_timeout for the connection and a minute more for the answer.
 * Returns 0 with *ret filled however it ended, or a negative errno when
 * ssh could not be started (-ENOENT: not installed).
 */
int net_ssh_run(const struct kdump_conf *c, unsigned int connect_timeout,
		const char *request, struct net_ssh_result *ret);

/*
 * As net_ssh_run(), with what the collector answers on stdout written to
 * out_fd, a file, at most max bytes (beyond, ssh is stopped and the file
 * holds max + 1); ret->output holds ssh's own lines.
 */
int net_ssh_get(const struct kdump_conf *c, unsigned int connect_timeout,
		const char *request, int out_fd, size_t max,
		struct net_ssh_result *ret);

/* One line of the collector program's answer to "list". */
struct net_list_entry {
	char name[64];		/* the dump directory's */
	bool complete;
	long long bytes;	/* the vmcore's */
	long long crash_time;
	char panic[256];
};

/*
 * The newest dump in output, the answer to "list" ("NAME complete|
 * incomplete BYTES CRASHTIME PANIC" lines; PANIC the rest of the line):
 * the latest crash time, the greater name among equals.  Lines that are
 * not such are skipped.  -ENOENT, ret untouched, when there is none.
 */
int net_list_last(const char *output, struct net_list_entry *ret);
/* One line of the answer to "list" (len bytes, no newline); -EINVAL if not one. */
int net_list_parse(const char *line, size_t len, struct net_list_entry *ret);

/*
 * Mount c's NFS export (HOST:/net_path, the kernel's own NFS client, at
 * address ip) on a new private directory below NET_MOUNT_DIR, named in
 * ret_dir; check: soft, timeo=50, retrans=2, so that a server that does
 * not answer fails in seconds.  Returns a negative errno of mount(2) on
 * failure, with the directory removed.
 */
int net_nfs_mount(const struct kdump_conf *c, const char *ip, bool check,
		  bool rdonly, char *ret_dir, size_t size);
/* Unmount and remove what net_nfs_mount() made. */
void net_nfs_unmount(const char *dir);

/*
 * The host dir hostdir below dir, as a dump needs it: made (0700) when
 * missing, writable (a test file made and removed), at least bytes free
 * (*ret_free, when not NULL, says how much).  -ENOSPC when too little.
 */
int net_dir_check(const char *dir, const char *hostdir,
		  unsigned long long bytes, unsigned long long *ret_free);

#endif
