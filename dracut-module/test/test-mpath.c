// SPDX-License-Identifier: GPL-2.0
/*
 * mpath.c on the host: the chain's "mpath" lines as kdump-file(8) writes
 * them and the lines a damaged chain may hold, the dm-multipath table, and
 * which disks are paths of a map not made yet (the target is never looked
 * for on them).  Making the map runs in TEST-42-STOCK-MULTIPATH.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "capture.h"
#include "tests.h"
#include "util.h"

#define WWID "naa.5000c50015ea71ac"
#define LINE "mpath mpath-35000c50015ea71ac mpatha 1048576 2 " WWID

static void put(const char *dir, const char *rel, const char *text)
{
	char p[PATH_MAX], d[PATH_MAX];

	CHECK(path_format(p, sizeof(p), "%s/%s", dir, rel) == 0);
	snprintf(d, sizeof(d), "%s", p);
	*strrchr(d, '/') = '\0';
	CHECK(mkdir_p(d, 0755) == 0);
	CHECK(write_file_atomic(p, text, strlen(text), 0644) == 0);
}

int main(void)
{
	static const char devs[][16] = { "8:0", "8:16" };
	struct capture_mpath m;
	struct capture cap = { 0 };
	char buf[256], dir[] = "/tmp/test-mpath.XXXXXX", chain[PATH_MAX];
	char sys[PATH_MAX];

	CHECK(mpath_parse_line(LINE "\n", &m) == 0);
	CHECK(strcmp(m.uuid, "mpath-35000c50015ea71ac") == 0);
	CHECK(strcmp(m.name, "mpatha") == 0);
	CHECK(strcmp(m.wwid, WWID) == 0);
	CHECK(m.sectors == 1048576 && m.n_paths == 2 && !m.done);
	/* A WWID with blanks (a T10 vendor identifier) is the line's rest. */
	CHECK(mpath_parse_line("mpath mpath-1QEMU x 8 1 t10.ATA     QEMU HARDDISK   QM00001  \n",
			       &m) == 0);
	CHECK(strcmp(m.wwid, "t10.ATA     QEMU HARDDISK   QM00001") == 0);
	/* Damaged: each refused whole, ret untouched. */
	memset(&m, 0x5a, sizeof(m));
	CHECK(mpath_parse_line("mpath mpath-3 mpatha 1048576 2", &m) == -EINVAL);
	CHECK(mpath_parse_line("mpath mpath-3 mpatha 1048576 2 \n", &m) == -EINVAL);
	CHECK(mpath_parse_line("mpath mpath-3 mpatha 0 2 w", &m) == -EINVAL);
	CHECK(mpath_parse_line("mpath mpath-3 mpatha 8 0 w", &m) == -EINVAL);
	CHECK(mpath_parse_line("mpath mpath-3 mpatha 8 9 w", &m) == -EINVAL);
	CHECK(mpath_parse_line("mpath mpath-3 mpatha x 2 w", &m) == -EINVAL);
	CHECK(mpath_parse_line("mpath LVM-3 mpatha 8 2 w", &m) == -EINVAL);
	CHECK(mpath_parse_line("md 01234567-89ab-cdef-0123-456789abcdef", &m) == -EINVAL);
	CHECK(m.n_paths == 0x5a5a5a5a);

	/* The table: one group, round-robin, each path once. */
	CHECK(mpath_parse_line(LINE, &m) == 0);
	CHECK(mpath_table(&m, devs, 2, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "0 1048576 multipath 0 0 1 1 round-robin 0 2 1 8:0 1 8:16 1") == 0);
	CHECK(mpath_table(&m, devs, 1, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "0 1048576 multipath 0 0 1 1 round-robin 0 1 1 8:0 1") == 0);
	CHECK(mpath_table(&m, devs, 0, buf, sizeof(buf)) == -EINVAL);
	CHECK(mpath_table(&m, devs, 2, buf, 50) == -ENOBUFS);
	CHECK(mpath_table(&m, devs, 2, buf, 58) == -ENOBUFS);
	CHECK(mpath_table(&m, devs, 2, buf, 59) == 0);

	/*
	 * sda and sdb are paths (sdb's WWID padded with blanks, as sysfs
	 * gives some), vda is not, sda1 (a partition) has no WWID.
	 */
	CHECK(mkdtemp(dir) != NULL);
	snprintf(sys, sizeof(sys), "%s/class/block", dir);
	put(sys, "sda/device/wwid", WWID "\n");
	put(sys, "sdb/device/wwid", WWID "  \n");
	put(sys, "sdc/device/wwid", "naa.5000c50015ea71ad\n");
	put(sys, "vda/size", "8\n");
	put(sys, "sda1/size", "8\n");
	snprintf(chain, sizeof(chain), "%s/chain", dir);
	put(dir, "chain", "module dm_multipath\n" LINE "\nmpath bad\n");
	cap.paths.chain = chain;
	cap.paths.sys_class_block = sys;
	CHECK(mpath_pending_path(&cap, "sda"));
	CHECK(mpath_pending_path(&cap, "sdb"));
	CHECK(!mpath_pending_path(&cap, "sdc"));
	CHECK(!mpath_pending_path(&cap, "vda"));
	CHECK(!mpath_pending_path(&cap, "sda1"));
	CHECK(!mpath_pending_path(&cap, "nonexistent"));
	CHECK(cap.n_mpaths == 1);
	/* Made: its paths are no longer kept from the search. */
	cap.mpaths[0].done = true;
	CHECK(!mpath_pending_path(&cap, "sda"));
	/* Not PID 1: nothing made. */
	cap.mpaths[0].done = false;
	mpath_step(&cap);
	CHECK(!cap.mpaths[0].done);
	{
		char cmd[PATH_MAX + 16];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		CHECK(system(cmd) == 0);
	}
	return tests_done();
}
