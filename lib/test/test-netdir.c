// SPDX-License-Identifier: GPL-2.0
/* The host dir's name from a host name and a machine-id, and this machine's. */
#include <errno.h>
#include <string.h>

#include "netdir.h"
#include "tests.h"

#define MID "0123456789abcdef0123456789abcdef"

int main(void)
{
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
