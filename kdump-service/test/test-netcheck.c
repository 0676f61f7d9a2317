// SPDX-License-Identifier: GPL-2.0
/*
 * The ssh command line of the design, the sorting of ssh's failures into
 * what load says, and the host dir check on a local directory.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "netcheck.h"
#include "tests.h"
#include "util.h"

static void test_command(void)
{
	static struct net_ssh_cmd cmd;
	struct kdump_conf c;
	char line[4096] = "";
	size_t pos = 0;

	conf_init(&c);
	c.net = CONF_NET_SSH;
	snprintf(c.net_user, sizeof(c.net_user), "dumps");
	snprintf(c.net_host, sizeof(c.net_host), "collector.example");
	c.net_port = 2222;
	snprintf(c.ssh_key, sizeof(c.ssh_key), "/etc/kdump-file/ssh/id_ed25519");
	CHECK(net_ssh_command(&c, NULL, 5, "check 1048576", &cmd) == 0);
	for (char **a = cmd.argv; *a; a++)
		pos += snprintf(line + pos, sizeof(line) - pos, "%s%s",
				a == cmd.argv ? "" : " ", *a);
	CHECK(strcmp(line, "ssh -F /dev/null -i /etc/kdump-file/ssh/id_ed25519 "
		      "-o IdentitiesOnly=yes -o BatchMode=yes "
		      "-o StrictHostKeyChecking=yes "
		      "-o UserKnownHostsFile=/etc/kdump-file/ssh/known_hosts "
		      "-o GlobalKnownHostsFile=/dev/null "
		      "-o HostKeyAlias=collector.example -o ConnectTimeout=5 "
		      "-o ServerAliveInterval=10 -o ServerAliveCountMax=6 "
		      "-p 2222 dumps@collector.example check 1048576") == 0);
	/* The capture's form: the address resolved at load time. */
	CHECK(net_ssh_command(&c, "192.0.2.8", 90, "list", &cmd) == 0);
	CHECK(strcmp(cmd.dest, "dumps@192.0.2.8") == 0);
	CHECK(strcmp(cmd.alias, "HostKeyAlias=collector.example") == 0);
}

static void test_classify(void)
{
	char line[1024];

	CHECK(net_ssh_classify(0, "ok free=123\n", line, sizeof(line)) ==
	      NET_SSH_OK);
	CHECK(net_ssh_classify(255, "ssh: connect to host c port 22: Connection refused\n",
			       line, sizeof(line)) == NET_SSH_UNREACHABLE);
	CHECK(strcmp(line, "ssh: connect to host c port 22: Connection refused") == 0);
	CHECK(net_ssh_classify(255, "ssh: connect to host c port 22: Connection timed out\n",
			       line, sizeof(line)) == NET_SSH_UNREACHABLE);
	CHECK(net_ssh_classify(-1, "", line, sizeof(line)) == NET_SSH_UNREACHABLE);
	CHECK(net_ssh_classify(255,
			       "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"
			       "@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\n"
			       "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"
			       "Host key verification failed.\n",
			       line, sizeof(line)) == NET_SSH_HOST_KEY);
	CHECK(strstr(line, "REMOTE HOST IDENTIFICATION HAS CHANGED") != NULL);
	CHECK(net_ssh_classify(255, "Host key verification failed.\n", line,
			       sizeof(line)) == NET_SSH_HOST_KEY);
	CHECK(net_ssh_classify(255, "dumps@c: Permission denied (publickey).\n",
			       line, sizeof(line)) == NET_SSH_DENIED);
	CHECK(strcmp(line, "dumps@c: Permission denied (publickey).") == 0);
	/* The collector's own line, passed on as it is. */
	CHECK(net_ssh_classify(1, "kdump-file-receive: error: /srv/dumps/h-1: only 10 MiB free, 200 MiB asked\n",
			       line, sizeof(line)) == NET_SSH_COLLECTOR);
	CHECK(strcmp(line, "kdump-file-receive: error: /srv/dumps/h-1: only 10 MiB free, 200 MiB asked") == 0);
	CHECK(net_ssh_classify(1, "Welcome\nkdump-file-receive: refused: no request\n",
			       line, sizeof(line)) == NET_SSH_COLLECTOR);
	CHECK(strcmp(line, "kdump-file-receive: refused: no request") == 0);
	/* Anything else: its last line. */
	CHECK(net_ssh_classify(127, "bash: kdump-file-receive: command not found\n\n",
			       line, sizeof(line)) == NET_SSH_FAILED);
	CHECK(strcmp(line, "bash: kdump-file-receive: command not found") == 0);
	CHECK(net_ssh_classify(3, "", line, sizeof(line)) == NET_SSH_FAILED);
	CHECK(strcmp(line, "ssh exited with status 3") == 0);
}

static void test_dir_check(void)
{
	char dir[] = "/tmp/test-netcheck.XXXXXX", p[PATH_MAX];
	unsigned long long avail = 0;
	struct stat st;

	CHECK(mkdtemp(dir) != NULL);
	CHECK(net_dir_check(dir, "host-0123456789ab", 0, &avail) == 0);
	CHECK(avail > 0);
	snprintf(p, sizeof(p), "%s/host-0123456789ab", dir);
	CHECK(stat(p, &st) == 0 && S_ISDIR(st.st_mode) &&
	      (st.st_mode & 07777) == 0700);
	/* Again, with the directory there: the same. */
	CHECK(net_dir_check(dir, "host-0123456789ab", 1, NULL) == 0);
	CHECK(net_dir_check(dir, "host-0123456789ab", ~0ULL, &avail) == -ENOSPC);
	CHECK(net_dir_check("/nonexistent", "h", 0, NULL) == -ENOENT);
	CHECK(test_rm_rf(dir) == 0);
}

int main(void)
{
	test_command();
	test_classify();
	test_dir_check();
	return tests_done();
}
