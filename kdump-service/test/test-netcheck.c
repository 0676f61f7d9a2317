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
	CHECK(strcmp(line, "Host key verification failed.") == 0);
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

static void test_list(void)
{
	struct net_list_entry e;

	CHECK(net_list_last("2026-03-01-10:00:00 complete 1048576 1772359200 sysrq triggered crash\n"
			    "2026-03-02-10:00:00 incomplete 0 1772445600 Kernel panic - not syncing: oops\n"
			    "2026-02-01-10:00:00 complete 5 1769940000 old\n",
			    &e) == 0);
	CHECK(strcmp(e.name, "2026-03-02-10:00:00") == 0);
	CHECK(!e.complete && e.bytes == 0 && e.crash_time == 1772445600);
	CHECK(strcmp(e.panic, "Kernel panic - not syncing: oops") == 0);
	/* The same time: the later name; no panic: "". */
	CHECK(net_list_last("2026-03-01-10:00:00 complete 7 100\n"
			    "2026-03-01-10:00:00-1 complete 9 100\n", &e) == 0);
	CHECK(strcmp(e.name, "2026-03-01-10:00:00-1") == 0);
	CHECK(e.complete && e.bytes == 9 && e.panic[0] == '\0');
	/* Not a dump: skipped; none at all: -ENOENT, ret untouched. */
	memset(&e, 0x5a, sizeof(e));
	CHECK(net_list_last("../etc complete 1 2 x\nlost+found incomplete 0 0\n"
			    "2026-03-01-10:00:00 broken 1 2 x\n", &e) == -ENOENT);
	CHECK(e.bytes == 0x5a5a5a5a5a5a5a5aLL);
	CHECK(net_list_last("", &e) == -ENOENT);
	/* A line cut short is not completed by the next one. */
	CHECK(net_list_last("2026-03-01-10:00:00 complete\n5 6\n", &e) == -ENOENT);
}

int main(void)
{
	test_list();
	test_command();
	test_classify();
	test_dir_check();
	return tests_done();
}
