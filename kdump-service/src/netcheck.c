// SPDX-License-Identifier: GPL-2.0
/*
 * Reaching a network target from the running system (see netcheck.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "dump.h"
#include "dumpdir.h"
#include "netcheck.h"
#include "netdir.h"
#include "process.h"
#include "util.h"

#define FIT(buf, ...) \
	(snprintf(buf, sizeof(buf), __VA_ARGS__) >= (int)sizeof(buf))

int net_ssh_command(const struct kdump_conf *c, const char *address,
		    unsigned int connect_timeout, const char *request,
		    struct net_ssh_cmd *ret)
{
	char known[CONF_VALUE_MAX];
	unsigned int n = 0;
	int r;

	r = conf_known_hosts(c, known, sizeof(known));
	if (r < 0)
		return r;
	if (FIT(ret->key, "%s", c->ssh_key) ||
	    FIT(ret->known, "UserKnownHostsFile=%s", known) ||
	    FIT(ret->alias, "HostKeyAlias=%s", c->net_host) ||
	    FIT(ret->timeout, "ConnectTimeout=%u", connect_timeout) ||
	    FIT(ret->port, "%u", c->net_port) ||
	    FIT(ret->dest, "%s@%s", c->net_user,
		address ? address : c->net_host) ||
	    FIT(ret->request, "%s", request))
		return -ENAMETOOLONG;
	{
		char *words[] = {
			"ssh", "-F", "/dev/null", "-i", ret->key,
			"-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes",
			"-o", "StrictHostKeyChecking=yes", "-o", ret->known,
			"-o", "GlobalKnownHostsFile=/dev/null",
			"-o", ret->alias, "-o", ret->timeout,
			"-o", "ServerAliveInterval=10",
			"-o", "ServerAliveCountMax=6",
			"-p", ret->port, ret->dest, ret->request, NULL,
		};

		for (; words[n]; n++)
			ret->argv[n] = words[n];
		ret->argv[n] = NULL;
	}
	return 0;
}

/* The first line of output holding s, into line. */
static bool find_line(const char *output, const char *s, char *line,
		      size_t size)
{
	const char *at = strstr(output, s), *start, *end;

	if (!at)
		return false;
	for (start = at; start > output && start[-1] != '\n'; start--)
		;
	end = strchr(at, '\n');
	snprintf(line, size, "%.*s",
		 (int)(end ? end - start : (long)strlen(start)), start);
	return true;
}

/* The first line of output that begins with s, into line. */
static bool find_line_start(const char *output, const char *s, char *line,
			    size_t size)
{
	const char *l = output;

	while (l) {
		if (strncmp(l, s, strlen(s)) == 0)
			return find_line(l, s, line, size);
		l = strchr(l, '\n');
		if (l)
			l++;
	}
	return false;
}

/* The last line of output that is not blank. */
static void last_line(const char *output, char *line, size_t size)
{
	size_t len = strlen(output);
	const char *start;

	while (len && (output[len - 1] == '\n' || output[len - 1] == '\r' ||
		       output[len - 1] == ' '))
		len--;
	for (start = output + len; start > output && start[-1] != '\n';
	     start--)
		;
	snprintf(line, size, "%.*s", (int)(output + len - start), start);
}

enum net_ssh_outcome net_ssh_classify(int exit_status, const char *output,
				      char *line, size_t size)
{
	static const char *const unreachable[] = {
		"Connection refused", "Connection timed out", "timed out",
		"No route to host", "Network is unreachable",
		"Could not resolve hostname", "Name or service not known",
		"Connection closed by", "Connection reset",
	};

	line[0] = '\0';
	if (exit_status == 0)
		return NET_SSH_OK;
	/* The collector program's own words come first: they say more. */
	if (find_line_start(output, "kdump-file-receive: ", line, size))
		return NET_SSH_COLLECTOR;
	/* ssh's plain line, not its banner of '@'s. */
	if (find_line(output, "Host key verification failed", line, size) ||
	    find_line(output, "REMOTE HOST IDENTIFICATION HAS CHANGED", line,
		      size))
		return NET_SSH_HOST_KEY;
	if (find_line(output, "Permission denied", line, size))
		return NET_SSH_DENIED;
	for (size_t i = 0; i < sizeof(unreachable) / sizeof(unreachable[0]);
	     i++)
		if (find_line(output, unreachable[i], line, size))
			return NET_SSH_UNREACHABLE;
	if (exit_status < 0) {
		snprintf(line, size, "no answer in time");
		return NET_SSH_UNREACHABLE;
	}
	last_line(output, line, size);
	if (!line[0])
		snprintf(line, size, "ssh exited with status %d", exit_status);
	return NET_SSH_FAILED;
}

/* Each line ssh or the collector prints, kept while there is room. */
static void keep_line(const char *l, size_t len, void *userdata)
{
	struct net_ssh_result *res = userdata;
	size_t pos = strlen(res->output);

	/* ssh ends its own messages with CR LF. */
	while (len && l[len - 1] == '\r')
		len--;
	if (pos + len + 2 > sizeof(res->output))
		return;
	memcpy(res->output + pos, l, len);
	res->output[pos + len] = '\n';
	res->output[pos + len + 1] = '\0';
}

/* The request's answer: lines in ret->output, or (out_fd) into a file. */
static int ssh_run(const struct kdump_conf *c, unsigned int connect_timeout,
		   const char *request, int out_fd, size_t max,
		   struct net_ssh_result *ret)
{
	struct process_opts o = PROCESS_OPTS_INIT;
	_cleanup_free_ struct net_ssh_cmd *cmd = NULL;
	struct process_result pr;
	int r;

	cmd = calloc(1, sizeof(*cmd));
	if (!cmd)
		return -ENOMEM;
	r = net_ssh_command(c, NULL, connect_timeout, request, cmd);
	if (r < 0)
		return r;
	ret->output[0] = '\0';
	if (out_fd >= 0) {
		o.stdout_fd = out_fd;
		/* One byte over the bound: the caller tells a file too large. */
		o.file_size_max = (unsigned long long)max + 1;
	}
	o.on_line = keep_line;
	o.userdata = ret;
	o.timeout_ms = (connect_timeout + 60) * 1000;
	r = process_run(cmd->argv, &o, &pr);
	if (r < 0)
		return r;
	ret->outcome = net_ssh_classify(pr.timed_out ? -1 :
					process_exit_status(&pr),
					ret->output, ret->line,
					sizeof(ret->line));
	return 0;
}

int net_ssh_run(const struct kdump_conf *c, unsigned int connect_timeout,
		const char *request, struct net_ssh_result *ret)
{
	return ssh_run(c, connect_timeout, request, -1, 0, ret);
}

int net_ssh_get(const struct kdump_conf *c, unsigned int connect_timeout,
		const char *request, int out_fd, size_t max,
		struct net_ssh_result *ret)
{
	return ssh_run(c, connect_timeout, request, out_fd, max, ret);
}

int net_list_parse(const char *line, size_t len, struct net_list_entry *ret)
{
	char buf[512], name[64], state[16];
	long long bytes, t;
	int off = 0;

	/* One line at a time: sscanf() would read on into the next. */
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, line, len);
	buf[len] = '\0';
	if (sscanf(buf, "%63s %15s %lld %lld %n", name, state, &bytes, &t,
		   &off) != 4 || off == 0 || !dump_name_valid(name) ||
	    (strcmp(state, "complete") && strcmp(state, "incomplete")))
		return -EINVAL;
	snprintf(ret->name, sizeof(ret->name), "%s", name);
	ret->complete = strcmp(state, "complete") == 0;
	ret->bytes = bytes;
	ret->crash_time = t;
	snprintf(ret->panic, sizeof(ret->panic), "%s", buf + off);
	return 0;
}

int net_list_last(const char *output, struct net_list_entry *ret)
{
	struct net_list_entry best = { .crash_time = -1 }, e;
	bool found = false;

	for (const char *l = output; l && *l;) {
		const char *end = strchr(l, '\n');
		size_t len = end ? (size_t)(end - l) : strlen(l);

		if (net_list_parse(l, len, &e) == 0 &&
		    (!found || e.crash_time > best.crash_time ||
		     (e.crash_time == best.crash_time &&
		      strcmp(e.name, best.name) > 0))) {
			best = e;
			found = true;
		}
		l = end ? end + 1 : NULL;
	}
	if (!found)
		return -ENOENT;
	*ret = best;
	return 0;
}

int net_nfs_mount(const struct kdump_conf *c, const char *ip, bool check,
		  bool rdonly, char *ret_dir, size_t size)
{
	char dir[] = NET_MOUNT_DIR "/nfs.XXXXXX", src[CONF_VALUE_MAX + 300];
	char opts[512];
	int r;

	r = mkdir_p(NET_MOUNT_DIR, 0700);
	if (r < 0)
		return r;
	if (!mkdtemp(dir))
		return -errno;
	/* An IPv6 address in brackets, as nfs(5) writes it. */
	snprintf(src, sizeof(src), strchr(c->net_host, ':') ? "[%s]:%s" : "%s:%s",
		 c->net_host, c->net_path);
	/* A mount of this process alone: nothing else sees or keeps it. */
	if (unshare(CLONE_NEWNS) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		r = -errno;
		(void)rmdir(dir);
		return r;
	}
	/* As the capture mounts it: NFSv4's newest minor version first. */
	for (unsigned int minor = NFS4_MINOR_NEWEST;; minor--) {
		r = nfs_mount_options(c->nfs_version, minor, ip, NULL,
				      check ? "timeo=50,retrans=2,soft" : NULL,
				      opts, sizeof(opts));
		if (r == 0 &&
		    mount(src, dir, c->nfs_version == 3 ? "nfs" : "nfs4",
			  (rdonly ? MS_RDONLY : 0) | MS_NOSUID | MS_NODEV |
				  MS_NOEXEC, opts) < 0)
			r = -errno;
		if (r == 0 || c->nfs_version == 3 || minor == 0 ||
		    !nfs_minor_refused(r))
			break;
	}
	if (r < 0) {
		(void)rmdir(dir);
		return r;
	}
	if (snprintf(ret_dir, size, "%s", dir) >= (int)size) {
		net_nfs_unmount(dir);
		return -ENAMETOOLONG;
	}
	return 0;
}

void net_nfs_unmount(const char *dir)
{
	if (umount2(dir, 0) < 0)
		(void)umount2(dir, MNT_DETACH);
	(void)rmdir(dir);
}

int net_dir_check(const char *dir, const char *hostdir,
		  unsigned long long bytes, unsigned long long *ret_free)
{
	char p[PATH_MAX], test[PATH_MAX + 32];
	unsigned long long avail;
	struct statvfs sv;
	int fd;

	if (snprintf(p, sizeof(p), "%s/%s", dir, hostdir) >= (int)sizeof(p))
		return -ENAMETOOLONG;
	if (mkdir(p, 0700) < 0 && errno != EEXIST)
		return -errno;
	snprintf(test, sizeof(test), "%s/.kdump-file-check.%d", p, (int)getpid());
	fd = open(test, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		  0600);
	if (fd < 0)
		return -errno;
	close(fd);
	if (unlink(test) < 0)
		return -errno;
	if (statvfs(p, &sv) < 0)
		return -errno;
	avail = (unsigned long long)sv.f_bavail * sv.f_frsize;
	if (ret_free)
		*ret_free = avail;
	return avail < bytes ? -ENOSPC : 0;
}
