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
#include <linux/dm-ioctl.h>

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
	CHECK(mpath_table(devs, 2, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "0 0 1 1 round-robin 0 2 1 8:0 1 8:16 1") == 0);
	CHECK(mpath_table(devs, 1, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "0 0 1 1 round-robin 0 1 1 8:0 1") == 0);
	CHECK(mpath_table(devs, 0, buf, sizeof(buf)) == -EINVAL);
	CHECK(mpath_table(devs, 2, buf, 20) == -ENOBUFS);
	CHECK(mpath_table(devs, 2, buf, 38) == -ENOBUFS);
	CHECK(mpath_table(devs, 2, buf, 39) == 0);

	/* The DM_TABLE_LOAD buffer: header, one target, its arguments. */
	{
		union {
			struct dm_ioctl io;
			char b[1024];
		} u;
		const struct dm_target_spec *t;
		int n;

		memset(u.b, 0x5a, sizeof(u.b));
		n = mpath_load_buffer(&m, buf, u.b, sizeof(u.b));
		CHECK(n > 0 && n % 8 == 0);
		CHECK((size_t)n >= sizeof(u.io) + sizeof(*t) + strlen(buf) + 1);
		CHECK(u.io.version[0] == DM_VERSION_MAJOR);
		CHECK(u.io.data_size == (unsigned int)n);
		CHECK(u.io.data_start == sizeof(u.io));
		CHECK(u.io.target_count == 1);
		CHECK(strcmp(u.io.name, "mpatha") == 0);
		t = (const struct dm_target_spec *)(u.b + sizeof(u.io));
		CHECK(t->sector_start == 0 && t->length == 1048576 && t->next == 0);
		CHECK(strcmp(t->target_type, "multipath") == 0);
		CHECK(strcmp((const char *)(t + 1), buf) == 0);
		CHECK(mpath_load_buffer(&m, buf, u.b, (size_t)n - 1) == -ENOBUFS);
		CHECK(mpath_load_buffer(&m, buf, u.b, (size_t)n) == n);
	}
	/* Longer than device-mapper takes. */
	{
		char line[400];

		/* A uuid of DM_UUID_LEN - 1 characters, then one more. */
		snprintf(line, sizeof(line), "mpath mpath-%0122d n 8 1 w", 0);
		CHECK(mpath_parse_line(line, &m) == 0);
		snprintf(line, sizeof(line), "mpath mpath-%0123d n 8 1 w", 0);
		CHECK(mpath_parse_line(line, &m) == -EINVAL);
	}

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
	CHECK(mpath_pending(&cap));
	/* Made: its paths are no longer kept from the search. */
	cap.mpaths[0].done = true;
	CHECK(!mpath_pending_path(&cap, "sda"));
	CHECK(!mpath_pending(&cap));
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
