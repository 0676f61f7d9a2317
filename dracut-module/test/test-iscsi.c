// SPDX-License-Identifier: GPL-2.0
/*
 * iscsi.c on the host: a chain without an iscsi line leaves the phase
 * nothing to do; damaged iscsi and net lines fail it before anything is
 * brought up, naming the chain; good lines go on to the network, which
 * here has no interface with the chain's MAC.  The login itself runs in
 * TEST-43-STOCK-ISCSI.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "capture.h"
#include "tests.h"
#include "util.h"

#define NET "net 52:54:00:00:43:02 10.0.43.2/24 -\n"
#define ISCSI "iscsi 1 10.0.43.1 3260 iqn.2026-12.test.kdump-file:dumps iqn.1993-08.org.debian:01:abc\n"

static char dir[] = "/tmp/test-iscsi.XXXXXX";
static char chain[PATH_MAX], net[PATH_MAX];

/* phase_iscsi() on a chain of text (NULL: no chain file). */
static int run(const char *text, struct capture *cap)
{
	capture_init(cap);
	cap->paths.chain = chain;
	cap->paths.sys_class_net = net;
	cap->conf.net_timeout = 1;
	snprintf(cap->conf.target, sizeof(cap->conf.target), "UUID=x");
	(void)unlink(chain);
	if (text)
		CHECK(write_file_atomic(chain, text, strlen(text), 0644) == 0);
	return phase_iscsi(cap);
}

static void bad(const char *text)
{
	struct capture cap;

	CHECK(run(text, &cap) == -EINVAL);
	CHECK(strstr(diag_text(&cap.diag), "no usable iscsi and net lines") != NULL);
	capture_done(&cap);
}

int main(void)
{
	struct capture cap;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(chain, sizeof(chain), "%s/chain", dir);
	snprintf(net, sizeof(net), "%s/net", dir);
	CHECK(mkdir(net, 0755) == 0);

	/* Nothing to log in to. */
	CHECK(run(NULL, &cap) == 0);
	capture_done(&cap);
	CHECK(run("module virtio_blk\nmd 3b1c2d4e-5f60-7182-93a4-b5c6d7e8f901\n", &cap) == 0);
	CHECK(cap.result == 0);
	capture_done(&cap);

	/* Damaged: no net line, a bad portal, port, initiator, two sessions. */
	bad(ISCSI);
	bad(NET "iscsi 1 fd00::1 3260 iqn.x iqn.y\n");
	bad(NET "iscsi 1 10.0.43.1 0 iqn.x iqn.y\n");
	bad(NET "iscsi 1 10.0.43.1 70000 iqn.x iqn.y\n");
	bad(NET "iscsi 1 10.0.43.1 3260 iqn.x -\n");
	bad(NET "iscsi 1 10.0.43.1 3260 iqn.x\n");
	bad(NET ISCSI ISCSI);
	bad("net 52:54:00:00:43:02 10.0.43.2/33 -\n" ISCSI);

	/* Good lines: the network is next, and no NIC has that MAC. */
	CHECK(run(NET ISCSI, &cap) == -ENODEV);
	CHECK(strstr(diag_text(&cap.diag), "iSCSI target iqn.2026-12.test.kdump-file:dumps") != NULL);
	CHECK(strstr(diag_text(&cap.diag), "no network interface with MAC 52:54:00:00:43:02") != NULL);
	CHECK(strcmp(cap.net.collector, "10.0.43.1") == 0);
	capture_done(&cap);

	CHECK(unlink(chain) == 0 && rmdir(net) == 0 && rmdir(dir) == 0);
	return tests_done();
}
