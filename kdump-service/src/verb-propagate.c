// SPDX-License-Identifier: GPL-2.0
/*
 * propagate: make an ssh:// target usable by the capture, which has no
 * one to type a password or accept a host key.  The machine's own key is
 * made, the collector's host keys are pinned (printed for the admin to
 * compare), the key is installed on the collector with the admin's own
 * credentials, restricted there to kdump-file-receive for this machine's
 * host dir, and then tried as the capture will use it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "netdir.h"
#include "process.h"
#include "receive.h"
#include "util.h"

#define KNOWN_HOSTS_MAX (64 * 1024)

struct propagate {
	const struct kdump_conf *c;
	char hostdir[NET_HOST_DIR_MAX];
	char known[PATH_MAX];
	char port[16];
	char timeout[32];
	char alias[300];
	char known_opt[PATH_MAX + 32];
	char key_opt[PATH_MAX];
	char login[400];
};

/*
 * Run argv, its output ours; 0 when it exited 0, else -EIO (logged by
 * step).  In our process group: ssh may ask for the admin's password on
 * the terminal.
 */
static int run_step(struct cli *cli, const char *step, char *const argv[],
		    int in_fd)
{
	struct process_opts o = PROCESS_OPTS_INIT;
	struct process_result res;
	char how[64];
	int r;

	o.stdin_fd = in_fd;
	o.keep_group = true;
	r = process_run(argv, &o, &res);
	if (r < 0) {
		log_error(cli, "%s: cannot run %s: %s", step, argv[0],
			  strerror(-r));
		return r;
	}
	if (!process_succeeded(&res)) {
		process_result_text(&res, how, sizeof(how));
		log_error(cli, "%s: %s %s (see its messages above)", step, argv[0],
			  how);
		return -EIO;
	}
	return 0;
}

static int make_key(struct cli *cli, const struct propagate *p)
{
	char comment[NET_HOST_DIR_MAX + 16], dir[PATH_MAX], *slash;
	char *const argv[] = { "ssh-keygen", "-q", "-t", "ed25519", "-N", "",
			       "-C", comment, "-f", (char *)p->c->ssh_key,
			       NULL };
	int r;

	if (access(p->c->ssh_key, F_OK) == 0)
		return 0;
	snprintf(dir, sizeof(dir), "%s", p->c->ssh_key);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		r = mkdir_p(dir, 0700);
		if (r < 0)
			return log_create_error(cli, "the key's directory", dir, r);
	}
	snprintf(comment, sizeof(comment), "kdump-file@%s", p->hostdir);
	log_info(cli, "making the key %s", p->c->ssh_key);
	return run_step(cli, "making the key", argv, -1);
}

struct scan {
	char *buf;
	size_t len;
	const char *host;
	bool full;
};

/* ssh-keyscan's "[host]:port type key": the line with host as written. */
static void scan_line(const char *line, size_t len, void *userdata)
{
	struct scan *s = userdata;
	const char *sp = memchr(line, ' ', len);
	int n;

	if (!len || line[0] == '#' || !sp)
		return;
	n = snprintf(s->buf + s->len, KNOWN_HOSTS_MAX - s->len, "%s%.*s\n",
		     s->host, (int)(len - (size_t)(sp - line)), sp);
	if (n < 0 || (size_t)n >= KNOWN_HOSTS_MAX - s->len)
		s->full = true;
	else
		s->len += (size_t)n;
}

/* Whether every line of a is a line of b. */
static bool lines_in(const char *a, const char *b)
{
	for (const char *l = a; *l; l += strcspn(l, "\n") + !!l[strcspn(l, "\n")]) {
		size_t len = strcspn(l, "\n");
		bool found = !len;

		for (const char *f = b; *f && !found;
		     f += strcspn(f, "\n") + !!f[strcspn(f, "\n")])
			found = strcspn(f, "\n") == len && !strncmp(f, l, len);
		if (!found)
			return false;
	}
	return true;
}

/* Whether a and b hold the same lines, in whatever order. */
static bool same_lines(const char *a, const char *b)
{
	return lines_in(a, b) && lines_in(b, a);
}

static int pin_host_keys(struct cli *cli, const struct propagate *p)
{
	char timeout[16];
	/*
	 * -T: how long it waits for the collector to connect and to say
	 * anything more; a busy collector takes long to answer, and
	 * net_timeout is how long this machine waits for it anywhere.
	 */
	char *const scan_argv[] = { "ssh-keyscan", "-T", timeout, "-p",
				    (char *)p->port, (char *)p->c->net_host,
				    NULL };
	char *const fp_argv[] = { "ssh-keygen", "-lf", (char *)p->known,
				  NULL };
	struct process_opts o = PROCESS_OPTS_INIT;
	_cleanup_free_ char *buf = calloc(1, KNOWN_HOSTS_MAX), *old = NULL;
	struct scan s = { .host = p->c->net_host };
	struct process_result res;
	int r;

	if (!buf)
		return -ENOMEM;
	s.buf = buf;
	o.on_line = scan_line;
	o.userdata = &s;
	o.stderr_fd = STDERR_FILENO;
	snprintf(timeout, sizeof(timeout), "%u", p->c->net_timeout);
	r = process_run(scan_argv, &o, &res);
	if (r < 0) {
		log_error(cli, "pinning the host keys: cannot run ssh-keyscan: %s%s",
			  strerror(-r), r == -ENOENT ?
			  " (install openssh-client)" : "");
		return r;
	}
	if (!s.len || s.full) {
		log_error(cli, "pinning the host keys: ssh-keyscan found no host key of %s port %s after waiting %.1f s (net_timeout = %u s): check that sshd runs there, or raise net_timeout in %s for a slow collector",
			  p->c->net_host, p->port, res.elapsed_ms / 1000.0,
			  p->c->net_timeout, cli->opt.config);
		return -EHOSTUNREACH;
	}
	log_info(cli, "the collector %s offered its host keys after %.1f s (net_timeout = %u s)",
		 p->c->net_host, res.elapsed_ms / 1000.0, p->c->net_timeout);
	r = read_file_max(p->known, &old, KNOWN_HOSTS_MAX);
	if (r >= 0 && !same_lines(old, buf) && !cli->opt.repin) {
		log_error(cli, "pinning the host keys: %s pins other keys for %s than it offers now: if the collector's keys were changed on purpose, run 'kdump-file propagate --repin'",
			  p->known, p->c->net_host);
		return -EKEYREJECTED;
	}
	r = write_file_atomic(p->known, buf, s.len, 0644);
	if (r < 0)
		return log_create_error(cli, "the pinned host keys", p->known, r);
	log_info(cli, "pinned the host keys of %s in %s; compare their fingerprints with the collector's ('ssh-keygen -lf' of its /etc/ssh/ssh_host_*_key.pub):",
		 p->c->net_host, p->known);
	return run_step(cli, "printing the fingerprints", fp_argv, -1);
}

/* The options every ssh of the product shares (the design's list). */
static void ssh_common(struct propagate *p)
{
	snprintf(p->port, sizeof(p->port), "%u", p->c->net_port);
	snprintf(p->timeout, sizeof(p->timeout), "ConnectTimeout=%u",
		 p->c->net_timeout);
	snprintf(p->alias, sizeof(p->alias), "HostKeyAlias=%s", p->c->net_host);
	snprintf(p->known_opt, sizeof(p->known_opt), "UserKnownHostsFile=%s",
		 p->known);
	snprintf(p->login, sizeof(p->login), "%s@%s", p->c->net_user,
		 p->c->net_host);
}

/* With the admin's credentials: no -i, no BatchMode. */
static int authorize(struct cli *cli, struct propagate *p)
{
	char *const argv[] = {
		"ssh", "-F", "/dev/null", "-o", "StrictHostKeyChecking=yes",
		"-o", p->known_opt, "-o", "GlobalKnownHostsFile=/dev/null",
		"-o", p->alias, "-o", p->timeout,
		"-o", "ServerAliveInterval=10", "-o", "ServerAliveCountMax=6",
		"-p", p->port, p->login, RECEIVE_PROGRAM, "--authorize",
		"--root", (char *)p->c->net_path, "--host", p->hostdir, NULL };
	char pub[PATH_MAX + 8];
	_cleanup_close_ int fd = -1;

	snprintf(pub, sizeof(pub), "%s.pub", p->c->ssh_key);
	fd = open(pub, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		log_error(cli, "installing the key: cannot open %s: %s (remove %s to have it made again)",
			  pub, strerror(errno), p->c->ssh_key);
		return -errno;
	}
	log_info(cli, "installing the key on %s as %s (your own ssh credentials are asked for)",
		 p->c->net_host, p->c->net_user);
	return run_step(cli, "installing the key", argv, fd);
}

/* The key as the capture uses it: the forced command's check 0. */
static int try_key(struct cli *cli, struct propagate *p)
{
	char *const argv[] = {
		"ssh", "-F", "/dev/null", "-i", (char *)p->c->ssh_key,
		"-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes",
		"-o", "StrictHostKeyChecking=yes", "-o", p->known_opt,
		"-o", "GlobalKnownHostsFile=/dev/null", "-o", p->alias,
		"-o", p->timeout, "-o", "ServerAliveInterval=10",
		"-o", "ServerAliveCountMax=6", "-p", p->port, p->login,
		"check 0", NULL };

	return run_step(cli, "trying the key", argv, -1);
}

int verb_propagate(struct cli *cli, int argc _unused_, char *argv[] _unused_)
{
	_cleanup_free_ struct propagate *p = calloc(1, sizeof(*p));
	int r;

	if (!p)
		return -ENOMEM;
	r = load_config(cli, &p->c);
	if (r < 0)
		return r;
	if (p->c->net != CONF_NET_SSH) {
		log_error(cli, "propagate is for an ssh:// target; the target is '%s' (an nfs:// target or a local one needs no key): set target = ssh://USER@HOST/PATH in the configuration",
			  p->c->target[0] ? p->c->target : p->c->path);
		return -EINVAL;
	}
	r = net_host_dir(p->hostdir, sizeof(p->hostdir));
	if (r < 0) {
		log_error(cli, "cannot name this machine's host dir from its host name and %s: %s",
			  NET_MACHINE_ID_PATH, strerror(-r));
		return r;
	}
	r = conf_known_hosts(p->c, p->known, sizeof(p->known));
	if (r < 0) {
		log_error(cli, "ssh_key %s: path too long", p->c->ssh_key);
		return r;
	}
	ssh_common(p);
	r = make_key(cli, p);
	if (r >= 0)
		r = pin_host_keys(cli, p);
	if (r >= 0)
		r = authorize(cli, p);
	if (r >= 0)
		r = try_key(cli, p);
	if (r >= 0)
		log_info(cli, "the key of %s works on %s: dumps go to %s/%s there",
			 p->hostdir, p->c->net_host, p->c->net_path,
			 p->hostdir);
	return r < 0 ? r : 0;
}
