// SPDX-License-Identifier: GPL-2.0
/* The host dir's name from a host name and a machine-id, and this machine's. */
#include <errno.h>
#include <string.h>

#include "netdir.h"
#include "tests.h"

#define MID "0123456789abcdef0123456789abcdef"

static void test_nfs_options(void)
{
	char b[256];

	CHECK(nfs_mount_options(4, 2, "10.0.1.1", "10.0.1.2", "hard", b,
				sizeof(b)) == 0);
	CHECK(strcmp(b, "vers=4.2,addr=10.0.1.1,clientaddr=10.0.1.2,hard") == 0);
	CHECK(nfs_mount_options(4, 0, "10.0.1.1", NULL, NULL, b, sizeof(b)) == 0);
	CHECK(strcmp(b, "vers=4.0,addr=10.0.1.1") == 0);
	CHECK(nfs_mount_options(3, 2, "10.0.1.1", "10.0.1.2", NULL, b,
				sizeof(b)) == 0);
	CHECK(strcmp(b, "vers=3,nolock,proto=tcp,mountproto=tcp,addr=10.0.1.1,mountaddr=10.0.1.1") == 0);
	CHECK(nfs_mount_options(4, 2, "10.0.1.1", NULL, NULL, b, 10) == -ENOBUFS);
	CHECK(nfs_minor_refused(-EINVAL) && nfs_minor_refused(-EPROTONOSUPPORT));
	CHECK(!nfs_minor_refused(-EHOSTUNREACH) && !nfs_minor_refused(-EACCES));
}

int main(void)
{
	test_nfs_options();
	char buf[NET_HOST_DIR_MAX] = "untouched";

	CHECK(net_host_dir_from("web1.example.org", MID "\n", buf,
				sizeof(buf)) == 0);
	CHECK(strcmp(buf, "web1-0123456789ab") == 0);
	CHECK(net_host_dir_from("db_2", MID, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "db_2-0123456789ab") == 0);
	strcpy(buf, "untouched");
	CHECK(net_host_dir_from("", MID, buf, sizeof(buf)) == -EINVAL);
	CHECK(net_host_dir_from(".x", MID, buf, sizeof(buf)) == -EINVAL);
	CHECK(net_host_dir_from("a/b", MID, buf, sizeof(buf)) == -EINVAL);
	CHECK(net_host_dir_from("a b", MID, buf, sizeof(buf)) == -EINVAL);
	CHECK(net_host_dir_from("web1", "0123", buf, sizeof(buf)) == -EINVAL);
	CHECK(net_host_dir_from("web1", "0123456789ABCDEF0123456789abcdef",
				buf, sizeof(buf)) == -EINVAL);
	CHECK(net_host_dir_from("web1", MID "x", buf, sizeof(buf)) == -EINVAL);
	CHECK(net_host_dir_from("web1", MID, buf, 10) == -ENOBUFS);
	CHECK(strcmp(buf, "untouched") == 0);

	CHECK(net_host_dir_valid("web1-0123456789ab"));
	CHECK(!net_host_dir_valid(".web1"));
	CHECK(!net_host_dir_valid(""));
	CHECK(!net_host_dir_valid("a;b"));

	/* This machine's, when it has a machine-id. */
	if (access(NET_MACHINE_ID_PATH, R_OK) == 0) {
		CHECK(net_host_dir(buf, sizeof(buf)) == 0);
		CHECK(net_host_dir_valid(buf) && strlen(buf) > 13 &&
		      buf[strlen(buf) - 13] == '-');
	}
	return tests_done();
}
