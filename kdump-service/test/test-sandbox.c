// SPDX-License-Identifier: GPL-2.0
/*
 * The loading units' sandbox per target: the collector's addresses from
 * an address or the hosts file, the tag load compares, the drop-in.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "sandbox.h"
#include "tests.h"
#include "util.h"

static char hosts[] = "/tmp/test-sandbox-hosts.XXXXXX";

static void conf_net(struct kdump_conf *c, enum conf_net net, const char *host)
{
	conf_init(c);
	c->net = net;
	snprintf(c->net_host, sizeof(c->net_host), "%s", host);
	snprintf(c->target, sizeof(c->target), "%s://%s/srv",
		 net == CONF_NET_SSH ? "ssh" : "nfs", host);
}

static const char *tag_of(const struct kdump_conf *c)
{
	static char tag[512];
	struct sandbox s;

	sandbox_for(c, hosts, &s);
	CHECK(sandbox_tag(&s, tag, sizeof(tag)) == 0);
	return tag;
}

static void test_tags(void)
{
	struct kdump_conf c;

	conf_init(&c);
	CHECK(strcmp(tag_of(&c), "local") == 0);
	/* A raw or local device target is local too. */
	snprintf(c.target, sizeof(c.target), "LABEL=dumps");
	CHECK(strcmp(tag_of(&c), "local") == 0);
	/* An address is itself, in its canonical form. */
	conf_net(&c, CONF_NET_NFS, "10.0.1.1");
	CHECK(strcmp(tag_of(&c), "nfs 10.0.1.1") == 0);
	conf_net(&c, CONF_NET_SSH, "fd00:0::1");
	CHECK(strcmp(tag_of(&c), "ssh fd00::1") == 0);
	/* A name: every address hosts gives it, once, any case. */
	conf_net(&c, CONF_NET_SSH, "Collector");
	CHECK(strcmp(tag_of(&c), "ssh 10.0.1.1 fd00::1") == 0);
	conf_net(&c, CONF_NET_NFS, "alias");
	CHECK(strcmp(tag_of(&c), "nfs 10.0.3.3") == 0);
	/* Commented out, or a prefix of a name: not it. */
	conf_net(&c, CONF_NET_NFS, "old");
	CHECK(strcmp(tag_of(&c), "nfs any") == 0);
	conf_net(&c, CONF_NET_NFS, "coll");
	CHECK(strcmp(tag_of(&c), "nfs any") == 0);
	/* Not in hosts, or no hosts file: only a resolver knows. */
	conf_net(&c, CONF_NET_NFS, "elsewhere.example");
	CHECK(strcmp(tag_of(&c), "nfs any") == 0);
	{
		struct sandbox s;
		char tag[64];

		conf_net(&c, CONF_NET_NFS, "collector");
		sandbox_for(&c, "/nonexistent/hosts", &s);
		CHECK(sandbox_tag(&s, tag, sizeof(tag)) == 0);
		CHECK(strcmp(tag, "nfs any") == 0);
		CHECK(sandbox_tag(&s, tag, 5) == -ENOBUFS);
	}
}

static void test_dropin(void)
{
	static char text[8192];
	struct kdump_conf c;
	struct sandbox s;

	conf_init(&c);
	sandbox_for(&c, hosts, &s);
	/* A local target: no drop-in, unless the system has iSCSI disks. */
	s.iscsi = false;
	CHECK(sandbox_dropin(&s, "", text, sizeof(text)) == 0);
	CHECK(text[0] == '\0');
	s.iscsi = true;
	CHECK(sandbox_dropin(&s, "", text, sizeof(text)) == 0);
	CHECK(strstr(text, "\nEnvironment=\"KDUMP_FILE_SANDBOX=iscsi\"\n") != NULL);
	CHECK(strstr(text, "\nPrivateNetwork=no\n") != NULL);
	CHECK(strstr(text, "\nRestrictAddressFamilies=AF_UNIX AF_ALG AF_NETLINK\n") != NULL);
	CHECK(strstr(text, "\nAfter=remote-fs.target ") != NULL);
	/* Read, not reached: no address allowed, no IP socket. */
	CHECK(strstr(text, "IPAddressAllow") == NULL);
	CHECK(strstr(text, "AF_INET") == NULL);
	CHECK(sandbox_dropin(&s, "", text, 64) == -ENOBUFS);
	{
		char tag[16];

		CHECK(sandbox_tag(&s, tag, sizeof(tag)) == 0);
		CHECK(strcmp(tag, "iscsi") == 0);
	}

	conf_net(&c, CONF_NET_SSH, "collector");
	sandbox_for(&c, hosts, &s);
	CHECK(sandbox_dropin(&s, c.target, text, sizeof(text)) == 0);
	CHECK(strstr(text, "\nAfter=network-online.target\n") != NULL);
	CHECK(strstr(text, "\nWants=network-online.target\n") != NULL);
	CHECK(strstr(text, "\nEnvironment=\"KDUMP_FILE_SANDBOX=ssh 10.0.1.1 fd00::1\"\n") != NULL);
	CHECK(strstr(text, "\nPrivateNetwork=no\n") != NULL);
	CHECK(strstr(text, "\nIPAddressAllow=10.0.1.1 fd00::1\n") != NULL);
	CHECK(strstr(text, "RestrictAddressFamilies=AF_NETLINK AF_INET AF_INET6\n") != NULL);
	/* ssh needs no mount. */
	CHECK(strstr(text, "CAP_SYS_ADMIN") == NULL);
	CHECK(strstr(text, "@mount") == NULL);

	conf_net(&c, CONF_NET_NFS, "elsewhere.example");
	sandbox_for(&c, hosts, &s);
	CHECK(sandbox_dropin(&s, c.target, text, sizeof(text)) == 0);
	CHECK(strstr(text, "\nIPAddressAllow=any\n") != NULL);
	CHECK(strstr(text, "\nCapabilityBoundingSet=CAP_SYS_ADMIN\n") != NULL);
	CHECK(strstr(text, "\nSystemCallFilter=@mount\n") != NULL);
	CHECK(strstr(text, "\nRestrictNamespaces=mnt\n") != NULL);

	/* A target with a line break stays in its comment. */
	snprintf(c.target, sizeof(c.target), "nfs://x/\n[Service]\nExecStart=/bin/sh");
	CHECK(sandbox_dropin(&s, c.target, text, sizeof(text)) == 0);
	CHECK(strstr(text, "\n[Service]\nExecStart") == NULL);
	CHECK(sandbox_dropin(&s, c.target, text, 64) == -ENOBUFS);
}

/* The sessions' directory: none, empty, or with a session. */
static void test_iscsi_sessions(void)
{
	char dir[] = "/tmp/test-sandbox-XXXXXX", sub[64];

	CHECK(mkdtemp(dir) != NULL);
	CHECK(!sandbox_iscsi_sessions("/nonexistent/iscsi_session"));
	CHECK(!sandbox_iscsi_sessions(dir));
	snprintf(sub, sizeof(sub), "%s/session1", dir);
	CHECK(mkdir(sub, 0700) == 0);
	CHECK(sandbox_iscsi_sessions(dir));
	CHECK(rmdir(sub) == 0);
	CHECK(rmdir(dir) == 0);
}

int main(void)
{
	static const char text[] =
		"127.0.0.1\tlocalhost\n"
		"# 10.9.9.9 old\n"
		"10.0.1.1 collector  # the collector's first link\n"
		"fd00::1 collector\n"
		"10.0.1.1\tcollector.example collector\n"
		"10.0.3.3 other alias\n"
		"not-an-address coll\n";
	int fd = mkstemp(hosts);

	CHECK(fd >= 0);
	CHECK(write(fd, text, sizeof(text) - 1) == (ssize_t)sizeof(text) - 1);
	close(fd);
	test_tags();
	test_iscsi_sessions();
	test_dropin();
	unlink(hosts);
	return tests_done();
}
