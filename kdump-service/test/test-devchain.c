// SPDX-License-Identifier: GPL-2.0
/*
 * devchain_resolve() over sysfs trees made here the way the kernel lays
 * them out (drivers/base/core.c, drivers/md/dm-sysfs.c): a virtio disk and
 * its partition, an LVM volume on it, and the layers a capture cannot open.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "devchain.h"
#include "tests.h"
#include "util.h"

static char sys[PATH_MAX];

/* sys/rel in p, its directory made. */
static void prepare(const char *rel, char *p, size_t size)
{
	char dir[PATH_MAX];

	CHECK(path_format(p, size, "%s/%s", sys, rel) == 0);
	snprintf(dir, sizeof(dir), "%s", p);
	*strrchr(dir, '/') = '\0';
	CHECK(mkdir_p(dir, 0755) == 0);
}

static void put(const char *rel, const char *text)
{
	char p[PATH_MAX];

	prepare(rel, p, sizeof(p));
	CHECK(write_file_atomic(p, text, strlen(text), 0644) == 0);
}

static void link_to(const char *rel, const char *target)
{
	char p[PATH_MAX];

	prepare(rel, p, sizeof(p));
	(void)unlink(p);
	CHECK(symlink(target, p) == 0);
}

#define PCI "devices/pci0000:00/0000:00:04.0"
#define VDA PCI "/virtio1/block/vda"
#define VDB PCI "/virtio2/block/vdb"

static void make_tree(void)
{
	/* Drivers as modules: bus/<bus>/drivers/<drv>/module -> module/<m>. */
	put("module/virtio_pci/initstate", "live\n");
	put("module/virtio_blk/initstate", "live\n");
	link_to("bus/pci/drivers/virtio-pci/module", "../../../../module/virtio_pci");
	link_to("bus/virtio/drivers/virtio_blk/module", "../../../../module/virtio_blk");
	link_to(PCI "/driver", "../../../bus/pci/drivers/virtio-pci");
	link_to(PCI "/virtio1/driver", "../../../../bus/virtio/drivers/virtio_blk");
	put(VDA "/dev", "254:0\n");
	put(VDA "/vda1/dev", "254:1\n");
	put(VDA "/vda1/partition", "1\n");
	link_to("dev/block/254:0", "../../" VDA);
	link_to("dev/block/254:1", "../../" VDA "/vda1");
}

/* A device-mapper device dm-N on vda1 with this uuid and name. */
static void make_dm(unsigned int n, const char *uuid, const char *name)
{
	char rel[256], target[256];

	snprintf(rel, sizeof(rel), "devices/virtual/block/dm-%u/dm/uuid", n);
	put(rel, uuid);
	snprintf(rel, sizeof(rel), "devices/virtual/block/dm-%u/dm/name", n);
	put(rel, name);
	snprintf(rel, sizeof(rel), "devices/virtual/block/dm-%u/dev", n);
	snprintf(target, sizeof(target), "253:%u\n", n);
	put(rel, target);
	snprintf(rel, sizeof(rel), "devices/virtual/block/dm-%u/slaves/vda1", n);
	link_to(rel, "../../../../../" VDA "/vda1");
	snprintf(rel, sizeof(rel), "dev/block/253:%u", n);
	snprintf(target, sizeof(target), "../../devices/virtual/block/dm-%u", n);
	link_to(rel, target);
}

/*
 * A failing devchain_resolve() into a chain filled with a sentinel: the
 * chain is left as it was; only the report (layer, fix) may be written.
 */
static int resolve_fails(struct modload *km, dev_t dev, struct devchain *c)
{
	static struct devchain before;
	int r;

	memset(c, 0xa5, sizeof(*c));
	before = *c;
	r = devchain_resolve(sys, dev, "ext4", km, c);
	CHECK(r < 0);
	CHECK(memcmp(c, &before, offsetof(struct devchain, layer)) == 0);
	if (r != -EMEDIUMTYPE && r != -ENOPKG)
		CHECK(memcmp(c, &before, sizeof(*c)) == 0);
	return r;
}

/* A buffer too small for the chain is left as it was. */
static void format_too_small(const struct devchain *c, size_t need)
{
	char buf[256], before[256];

	memset(buf, 0xa5, sizeof(buf));
	memcpy(before, buf, sizeof(buf));
	CHECK(need < sizeof(buf));
	CHECK(devchain_format(c, buf, need - 1) == -ENOBUFS);
	CHECK(devchain_format(c, buf, 0) == -ENOBUFS);
	CHECK(memcmp(buf, before, sizeof(buf)) == 0);
	CHECK(devchain_format(c, buf, need) == 0);
	CHECK(strlen(buf) == need - 1);
}

static int find(const struct devchain *c, const char *name)
{
	for (unsigned int i = 0; i < c->n; i++)
		if (strcmp(c->mods[i].name, name) == 0)
			return (int)i;
	return -1;
}

/*
 * The drivers bound to the disks and NICs: the virtio disk's (its
 * partition adds nothing), an AHCI disk with a built-in controller
 * driver, not the CD-ROM (removable), the loop device or dm-0 (virtual);
 * the NIC's only when asked for, not lo.
 */
static void test_bound_drivers(void)
{
	char buf[256], small[20];

	link_to("bus/scsi/drivers/sd/module", "../../../../module/sd_mod");
	link_to("bus/scsi/drivers/sr/module", "../../../../module/sr_mod");
	link_to("bus/virtio/drivers/virtio_net/module", "../../../../module/virtio_net");
	link_to(PCI "/virtio1/driver", "../../../../bus/virtio/drivers/virtio_blk");
	link_to("devices/pci0000:00/0000:00:1f.2/driver", "../../../bus/pci/drivers/ahci");
	link_to("devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/driver",
		"../../../../../../../bus/scsi/drivers/sd");
	put("devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda/removable", "0\n");
	link_to("devices/pci0000:00/0000:00:1f.2/ata2/host1/target1:0:0/1:0:0:0/driver",
		"../../../../../../../bus/scsi/drivers/sr");
	put("devices/pci0000:00/0000:00:1f.2/ata2/host1/target1:0:0/1:0:0:0/block/sr0/removable", "1\n");
	put("devices/virtual/block/loop0/removable", "0\n");
	link_to("class/block/vda", "../../" VDA);
	link_to("class/block/vda1", "../../" VDA "/vda1");
	link_to("class/block/sda", "../../devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda");
	link_to("class/block/sr0", "../../devices/pci0000:00/0000:00:1f.2/ata2/host1/target1:0:0/1:0:0:0/block/sr0");
	link_to("class/block/loop0", "../../devices/virtual/block/loop0");
	link_to("class/block/dm-0", "../../devices/virtual/block/dm-0");
	link_to("devices/pci0000:00/0000:00:05.0/driver", "../../../bus/pci/drivers/virtio-pci");
	link_to("devices/pci0000:00/0000:00:05.0/virtio2/driver", "../../../../bus/virtio/drivers/virtio_net");
	put("devices/pci0000:00/0000:00:05.0/virtio2/net/eth0/address", "52:54:00:12:34:56\n");
	put("devices/virtual/net/lo/address", "00:00:00:00:00:00\n");
	link_to("class/net/eth0", "../../devices/pci0000:00/0000:00:05.0/virtio2/net/eth0");
	link_to("class/net/lo", "../../devices/virtual/net/lo");

	CHECK(devchain_bound_drivers(sys, false, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "ahci sd_mod virtio-pci virtio_blk") == 0);
	CHECK(devchain_bound_drivers(sys, true, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "ahci sd_mod virtio-pci virtio_blk virtio_net") == 0);
	CHECK(devchain_bound_drivers(sys, true, small, sizeof(small)) == -ENOBUFS);
	CHECK(strcmp(small, "ahci sd_mod") == 0);
	CHECK(devchain_bound_drivers("/nonexistent", true, buf, sizeof(buf)) == 0);
	CHECK(buf[0] == '\0');
}

#define MD_UUID "3b1c2d4e-5f60-7182-93a4-b5c6d7e8f901"

/* An md array mdN (9:N) on vda1 (vdb too when two), as md.c lays it out. */
static void make_md(unsigned int n, const char *meta, const char *level,
		    const char *uuid, bool two)
{
	char rel[256], target[256];

	snprintf(rel, sizeof(rel), "devices/virtual/block/md%u/md/", n);
	put(strcat(strcpy(target, rel), "metadata_version"), meta);
	put(strcat(strcpy(target, rel), "level"), level);
	put(strcat(strcpy(target, rel), "uuid"), uuid);
	put(strcat(strcpy(target, rel), "raid_disks"), "2\n");
	snprintf(rel, sizeof(rel), "devices/virtual/block/md%u/dev", n);
	snprintf(target, sizeof(target), "9:%u\n", n);
	put(rel, target);
	snprintf(rel, sizeof(rel), "devices/virtual/block/md%u/slaves/vda1", n);
	link_to(rel, "../../../../../" VDA "/vda1");
	if (two) {
		snprintf(rel, sizeof(rel),
			 "devices/virtual/block/md%u/slaves/vdb", n);
		link_to(rel, "../../../../../" VDB);
	}
	snprintf(rel, sizeof(rel), "dev/block/9:%u", n);
	snprintf(target, sizeof(target), "../../devices/virtual/block/md%u", n);
	link_to(rel, target);
}

/*
 * md RAID: the array to assemble by its UUID, its level's module, its
 * members' drivers; also below LVM and as a partitioned array; refused
 * without a 1.x superblock or at a level the capture cannot run.
 */
static void test_md(struct modload *km)
{
	struct devchain c;
	char buf[512];

	link_to(PCI "/virtio2/driver",
		"../../../../bus/virtio/drivers/virtio_blk");
	put(VDB "/dev", "254:16\n");
	link_to("dev/block/254:16", "../../" VDB);
	make_md(0, "1.2\n", "raid1\n", MD_UUID "\n", true);
	CHECK(devchain_resolve(sys, makedev(9, 0), "ext4", km, &c) == 0);
	CHECK(c.n_mds == 1);
	CHECK(strcmp(c.mds[0].uuid, MD_UUID) == 0);
	CHECK(strcmp(c.mds[0].name, "md0") == 0);
	CHECK(strcmp(c.mds[0].level, "raid1") == 0);
	CHECK(strcmp(c.mds[0].members, "vda1 vdb") == 0);
	CHECK(c.mds[0].n_members == 2 && c.mds[0].raid_disks == 2);
	CHECK(find(&c, "md_mod") == 0);
	CHECK(find(&c, "raid1") == 1);
	CHECK(find(&c, "virtio_blk") == 3);
	CHECK(find(&c, "ext4") == 4);
	CHECK(strstr(c.mods[1].reason, "raid1") && strstr(c.mods[1].reason, "md0"));
	CHECK(devchain_format(&c, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "md " MD_UUID "\n") == 0);
	format_too_small(&c, strlen("md " MD_UUID "\n") + 1);

	/* A member missing now: recorded as it is, degraded. */
	make_md(1, "1.2\n", "raid5\n", "00000000-1111-2222-3333-444444444444\n",
		false);
	CHECK(devchain_resolve(sys, makedev(9, 1), "xfs", km, &c) == 0);
	CHECK(c.mds[0].n_members == 1 && c.mds[0].raid_disks == 2);
	CHECK(strcmp(c.mds[0].members, "vda1") == 0);
	CHECK(find(&c, "raid456") == 1);

	/* LVM on the array: the array is assembled before the volume. */
	put("devices/virtual/block/dm-5/dm/uuid", "LVM-md");
	put("devices/virtual/block/dm-5/dm/name", "vgmd-dumps");
	link_to("devices/virtual/block/dm-5/slaves/md0", "../../md0");
	link_to("dev/block/253:5", "../../devices/virtual/block/dm-5");
	CHECK(devchain_resolve(sys, makedev(253, 5), "xfs", km, &c) == 0);
	CHECK(c.n_mds == 1 && c.n_lvs == 1);
	CHECK(find(&c, "dm_mod") == 0 && find(&c, "md_mod") == 1);
	CHECK(devchain_format(&c, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "md " MD_UUID "\nlvm vgmd/dumps\n") == 0);

	/* A partition of the array is the array's. */
	put("devices/virtual/block/md0/md0p1/partition", "1\n");
	put("devices/virtual/block/md0/md0p1/dev", "259:0\n");
	link_to("dev/block/259:0", "../../devices/virtual/block/md0/md0p1");
	CHECK(devchain_resolve(sys, makedev(259, 0), "ext4", km, &c) == 0);
	CHECK(c.n_mds == 1 && strcmp(c.mds[0].name, "md0") == 0);

	/* Refused: 0.90, firmware RAID, a level the capture does not run. */
	make_md(2, "0.90\n", "raid1\n", MD_UUID "\n", false);
	CHECK(resolve_fails(km, makedev(9, 2), &c) == -EMEDIUMTYPE);
	CHECK(strstr(c.layer, "md2") && strstr(c.layer, "0.90"));
	CHECK(strstr(c.fix, "--update=metadata") != NULL);
	make_md(3, "external:/md127/0\n", "raid1\n", MD_UUID "\n", false);
	CHECK(resolve_fails(km, makedev(9, 3), &c) == -EMEDIUMTYPE);
	CHECK(strstr(c.layer, "firmware RAID array md3") != NULL);
	CHECK(strstr(c.fix, "mdmon") != NULL);
	make_md(4, "1.2\n", "multipath\n", MD_UUID "\n", false);
	CHECK(resolve_fails(km, makedev(9, 4), &c) == -EMEDIUMTYPE);
	CHECK(strstr(c.layer, "level multipath") != NULL);
	make_md(5, "1.2\n", "raid1\n", "not-a-uuid\n", false);
	CHECK(resolve_fails(km, makedev(9, 5), &c) == -EMEDIUMTYPE);

	/* A network target's chain merged with a local one on the array. */
	{
		struct devchain a = { 0 };

		CHECK(devchain_resolve(sys, makedev(9, 0), "ext4", km, &c) == 0);
		CHECK(devchain_merge(&a, &c) == 0);
		CHECK(devchain_merge(&a, &c) == 0);
		CHECK(a.n_mds == 1 && strcmp(a.mds[0].uuid, MD_UUID) == 0);
	}
}

#define LUKS_HEX "0123456789abcdef0123456789abcdef"
#define LUKS_UUID "01234567-89ab-cdef-0123-456789abcdef"

/*
 * LUKS: recorded with its header's UUID, dm_mod and dm_crypt added, the
 * disk below walked; written for the capture once the plan decides the
 * key.  Other dm-crypt devices are refused.
 */
static void test_luks(struct modload *km)
{
	struct devchain c, d;
	char buf[1024];

	make_dm(1, "CRYPT-LUKS2-" LUKS_HEX "-luks-root", "luks-root");
	CHECK(devchain_resolve(sys, makedev(253, 1), "ext4", km, &c) == 0);
	CHECK(c.n_crypts == 1);
	CHECK(strcmp(c.crypts[0].uuid, LUKS_UUID) == 0);
	CHECK(strcmp(c.crypts[0].type, "LUKS2") == 0);
	CHECK(strcmp(c.crypts[0].name, "luks-root") == 0);
	CHECK(strcmp(c.crypts[0].kname, "dm-1") == 0);
	CHECK(strcmp(c.crypts[0].backing, "vda1") == 0);
	CHECK(c.crypts[0].major == 253 && c.crypts[0].minor == 1);
	CHECK(c.crypts[0].key == DEVCHAIN_KEY_NONE);
	CHECK(find(&c, "dm_mod") >= 0 && find(&c, "dm_crypt") >= 0);
	CHECK(find(&c, "virtio_blk") >= 0);
	/* Not decided: no line, the capture does not try it. */
	CHECK(devchain_format(&c, buf, sizeof(buf)) == 0);
	CHECK(strstr(buf, "luks") == NULL);
	c.crypts[0].key = DEVCHAIN_KEY_KERNEL;
	CHECK(devchain_format(&c, buf, sizeof(buf)) == 0);
	CHECK(strstr(buf, "luks " LUKS_UUID " luks-root kernel\n") != NULL);
	format_too_small(&c, strlen(buf) + 1);
	c.crypts[0].key = DEVCHAIN_KEY_FILE;
	c.crypts[0].key_slot = 1;
	c.crypts[0].key_size = 64;
	snprintf(c.crypts[0].key_fs_uuid, sizeof(c.crypts[0].key_fs_uuid), "fs-uuid");
	snprintf(c.crypts[0].key_fs_type, sizeof(c.crypts[0].key_fs_type), "ext4");
	snprintf(c.crypts[0].key_rel, sizeof(c.crypts[0].key_rel), "/etc/keys/k");
	CHECK(devchain_format(&c, buf, sizeof(buf)) == 0);
	CHECK(strstr(buf, "luks " LUKS_UUID " luks-root file 1 0 64 fs-uuid ext4 /etc/keys/k\n") != NULL);
	format_too_small(&c, strlen(buf) + 1);

	/* Merged once. */
	memset(&d, 0, sizeof(d));
	CHECK(devchain_merge(&d, &c) == 0 && devchain_merge(&d, &c) == 0);
	CHECK(d.n_crypts == 1 && strcmp(d.crypts[0].uuid, LUKS_UUID) == 0);

	/* LVM on LUKS: the volume and the LUKS device below it. */
	put("devices/virtual/block/dm-3/dm/uuid", "LVM-xyz");
	put("devices/virtual/block/dm-3/dm/name", "vg-lv");
	link_to("devices/virtual/block/dm-3/slaves/dm-1", "../../dm-1");
	link_to("dev/block/253:3", "../../devices/virtual/block/dm-3");
	CHECK(devchain_resolve(sys, makedev(253, 3), "ext4", km, &c) == 0);
	CHECK(c.n_lvs == 1 && c.n_crypts == 1);
	CHECK(strcmp(c.crypts[0].name, "luks-root") == 0);

	/* A LUKS UUID that is not 32 hex digits; plain dm-crypt. */
	make_dm(7, "CRYPT-LUKS2-0123456789abcdef-short", "short");
	CHECK(resolve_fails(km, makedev(253, 7), &c) == -EMEDIUMTYPE);
	CHECK(strstr(c.layer, "dm-crypt device short") != NULL);
	CHECK(strstr(c.fix, "LUKS") != NULL);
	make_dm(8, "CRYPT-PLAIN-swap", "cswap");
	CHECK(resolve_fails(km, makedev(253, 8), &c) == -EMEDIUMTYPE);
	CHECK(strstr(c.layer, "cswap") && strstr(c.layer, "type PLAIN"));
}

#define SCSI PCI "/virtio3/host0/target0:0:0"
#define MPATH_WWID "naa.5000c50015ea71ac"

/* SCSI disk NAME (MAJ:MIN) at LUN lun of SCSI, with this wwid ("": none). */
static void make_scsi(const char *name, const char *dev, unsigned int lun,
		      const char *wwid)
{
	char rel[256], target[256], lunp[128];

	snprintf(lunp, sizeof(lunp), SCSI "/0:0:0:%u", lun);
	snprintf(rel, sizeof(rel), "%s/driver", lunp);
	link_to(rel, "../../../../../../../bus/scsi/drivers/sd");
	if (wwid[0]) {
		snprintf(rel, sizeof(rel), "%s/wwid", lunp);
		put(rel, wwid);
	}
	snprintf(rel, sizeof(rel), "%s/block/%s/dev", lunp, name);
	put(rel, dev);
	snprintf(rel, sizeof(rel), "%s/block/%s/device", lunp, name);
	snprintf(target, sizeof(target), "../../../0:0:0:%u", lun);
	link_to(rel, target);
	snprintf(rel, sizeof(rel), "dev/block/%.*s", (int)strcspn(dev, "\n"), dev);
	snprintf(target, sizeof(target), "../../%s/block/%s", lunp, name);
	link_to(rel, target);
}

/* multipath map dm-N (uuid, name) over the SCSI disks named. */
static void make_mpath(unsigned int n, const char *uuid, const char *name,
		       const char *const *paths)
{
	char rel[256], target[256];

	make_dm(n, uuid, name);
	snprintf(rel, sizeof(rel), "devices/virtual/block/dm-%u/slaves/vda1", n);
	CHECK(path_format(target, sizeof(target), "%s/%s", sys, rel) == 0);
	CHECK(unlink(target) == 0);
	snprintf(rel, sizeof(rel), "devices/virtual/block/dm-%u/size", n);
	put(rel, "1048576\n");
	for (; *paths; paths++) {
		unsigned int lun = (unsigned int)((*paths)[2] - 'a');

		snprintf(rel, sizeof(rel), "devices/virtual/block/dm-%u/slaves/%s",
			 n, *paths);
		snprintf(target, sizeof(target),
			 "../../../../../" SCSI "/0:0:0:%u/block/%s", lun,
			 *paths);
		link_to(rel, target);
	}
}

/*
 * multipath: the map recorded with its paths' WWID, size and paths now;
 * dm_multipath and the path selector added, each path's drivers walked;
 * also below LVM.  Refused: paths with different or no WWIDs, a partition
 * of the map, a name with a blank.
 */
static void test_mpath(struct modload *km)
{
	static const char *const ab[] = { "sda", "sdb", NULL };
	static const char *const ac[] = { "sda", "sdc", NULL };
	static const char *const d[] = { "sdd", NULL };
	struct devchain c, m;
	char buf[1024];

	/* The drivers, built in (no module link). */
	put("bus/virtio/drivers/virtio_scsi/bind", "");
	put("bus/scsi/drivers/sd/bind", "");
	link_to(PCI "/virtio3/driver", "../../../../bus/virtio/drivers/virtio_scsi");
	make_scsi("sda", "8:0\n", 0, MPATH_WWID "\n");
	make_scsi("sdb", "8:16\n", 1, MPATH_WWID "   \n");
	make_scsi("sdc", "8:32\n", 2, "naa.5000c50015ea71ad\n");
	make_scsi("sdd", "8:48\n", 3, "");
	make_mpath(2, "mpath-35000c50015ea71ac", "mpatha", ab);
	CHECK(devchain_resolve(sys, makedev(253, 2), "ext4", km, &c) == 0);
	CHECK(c.n_mpaths == 1);
	CHECK(strcmp(c.mpaths[0].uuid, "mpath-35000c50015ea71ac") == 0);
	CHECK(strcmp(c.mpaths[0].name, "mpatha") == 0);
	CHECK(strcmp(c.mpaths[0].wwid, MPATH_WWID) == 0);
	CHECK(c.mpaths[0].n_paths == 2);
	CHECK(strcmp(c.mpaths[0].paths, "sda sdb") == 0 ||
	      strcmp(c.mpaths[0].paths, "sdb sda") == 0);
	CHECK(c.mpaths[0].sectors == 1048576);
	CHECK(find(&c, "dm_mod") == 0);
	CHECK(find(&c, "dm_multipath") == 1);
	CHECK(find(&c, "dm_round_robin") == 2);
	CHECK(find(&c, "virtio_scsi") > 2 && find(&c, "sd") > find(&c, "virtio_scsi"));
	CHECK(strstr(c.mods[1].reason, "mpatha") != NULL);
	CHECK(devchain_format(&c, buf, sizeof(buf)) == 0);
	CHECK(strstr(buf, "mpath mpath-35000c50015ea71ac mpatha 1048576 2 " MPATH_WWID "\n") != NULL);
	format_too_small(&c, strlen(buf) + 1);

	/* Merged once; LVM on the map, the map made first. */
	memset(&m, 0, sizeof(m));
	CHECK(devchain_merge(&m, &c) == 0 && devchain_merge(&m, &c) == 0);
	CHECK(m.n_mpaths == 1);
	put("devices/virtual/block/dm-9/dm/uuid", "LVM-mp");
	put("devices/virtual/block/dm-9/dm/name", "vgmp-dumps");
	link_to("devices/virtual/block/dm-9/slaves/dm-2", "../../dm-2");
	link_to("dev/block/253:9", "../../devices/virtual/block/dm-9");
	CHECK(devchain_resolve(sys, makedev(253, 9), "xfs", km, &c) == 0);
	CHECK(c.n_mpaths == 1 && c.n_lvs == 1);
	CHECK(devchain_format(&c, buf, sizeof(buf)) == 0);
	CHECK(strstr(buf, "mpath ") < strstr(buf, "lvm vgmp/dumps\n"));

	/* Paths that are not one disk; a path without a SCSI WWID. */
	make_mpath(10, "mpath-mixed", "mixed", ac);
	CHECK(resolve_fails(km, makedev(253, 10), &c) == -EMEDIUMTYPE);
	CHECK(strstr(c.layer, "multipath device mixed") && strstr(c.layer, "another WWID"));
	make_mpath(11, "mpath-nowwid", "nowwid", d);
	CHECK(resolve_fails(km, makedev(253, 11), &c) == -EMEDIUMTYPE);
	CHECK(strstr(c.layer, "path sdd has no SCSI WWID") != NULL);
	/* kpartx's partition map; a name with a blank. */
	make_dm(12, "part1-mpath-35000c50015ea71ac", "mpatha-part1");
	CHECK(resolve_fails(km, makedev(253, 12), &c) == -EMEDIUMTYPE);
	CHECK(strstr(c.layer, "partition mpatha-part1") != NULL);
	CHECK(strstr(c.fix, "whole multipath device") != NULL);
	make_mpath(13, "mpath-35000c50015ea71ac", "mpath a", ab);
	CHECK(resolve_fails(km, makedev(253, 13), &c) == -EMEDIUMTYPE);
	CHECK(strstr(c.fix, "alias") != NULL);
	/* Anything else on device-mapper. */
	make_dm(14, "VDO-abc", "vdo0");
	CHECK(resolve_fails(km, makedev(253, 14), &c) == -EMEDIUMTYPE);
	CHECK(strstr(c.layer, "vdo0") && strstr(c.layer, "uuid VDO"));
}

#define ISCSI_HOST "devices/platform/host5"
#define ISCSI_SESSION ISCSI_HOST "/session3"
#define ISCSI_LUN ISCSI_SESSION "/target5:0:0/5:0:0:1"
#define ISCSI_IQN "iqn.2026-12.test.kdump-file:dumps"

/*
 * iSCSI: a disk of a software-initiator session recorded with the
 * session's target, portal, portal group and initiator, iscsi_tcp added
 * before the disk's driver; an empty initiator left for the plan.
 * Refused: an offload adapter, an IPv6 portal; an unreadable session is
 * an error.
 */
static void test_iscsi(struct modload *km)
{
	struct devchain c, m;
	char buf[1024];

	put("bus/scsi/drivers/sd/bind", "");
	link_to(ISCSI_LUN "/driver", "../../../../../../bus/scsi/drivers/sd");
	put(ISCSI_LUN "/block/sdx/dev", "65:112\n");
	put(ISCSI_LUN "/block/sdx/sdx1/dev", "65:113\n");
	put(ISCSI_LUN "/block/sdx/sdx1/partition", "1\n");
	link_to("dev/block/65:113", "../../" ISCSI_LUN "/block/sdx/sdx1");
	put(ISCSI_HOST "/scsi_host/host5/proc_name", "iscsi_tcp\n");
	put(ISCSI_SESSION "/iscsi_session/session3/targetname", ISCSI_IQN "\n");
	put(ISCSI_SESSION "/iscsi_session/session3/tpgt", "1\n");
	put(ISCSI_SESSION "/iscsi_session/session3/initiatorname",
	    "iqn.1993-08.org.debian:01:abc\n");
	put(ISCSI_SESSION "/connection3:0/iscsi_connection/connection3:0/persistent_address",
	    "10.0.43.1\n");
	put(ISCSI_SESSION "/connection3:0/iscsi_connection/connection3:0/persistent_port",
	    "3260\n");
	CHECK(devchain_resolve(sys, makedev(65, 113), "ext4", km, &c) == 0);
	CHECK(c.n_iscsis == 1);
	CHECK(strcmp(c.iscsis[0].session, "session3") == 0);
	CHECK(strcmp(c.iscsis[0].target, ISCSI_IQN) == 0);
	CHECK(strcmp(c.iscsis[0].initiator, "iqn.1993-08.org.debian:01:abc") == 0);
	CHECK(strcmp(c.iscsis[0].addr, "10.0.43.1") == 0);
	CHECK(c.iscsis[0].port == 3260 && c.iscsis[0].tpgt == 1);
	CHECK(strcmp(c.iscsis[0].disks, "sdx") == 0);
	CHECK(find(&c, "iscsi_tcp") >= 0 && find(&c, "sd") > find(&c, "iscsi_tcp"));
	CHECK(strstr(c.mods[find(&c, "iscsi_tcp")].reason, "session3 (" ISCSI_IQN ")") != NULL);
	CHECK(devchain_format(&c, buf, sizeof(buf)) == 0);
	CHECK(strstr(buf, "iscsi 1 10.0.43.1 3260 " ISCSI_IQN " iqn.1993-08.org.debian:01:abc\n") != NULL);
	format_too_small(&c, strlen(buf) + 1);
	memset(&m, 0, sizeof(m));
	CHECK(devchain_merge(&m, &c) == 0 && devchain_merge(&m, &c) == 0);
	CHECK(m.n_iscsis == 1);

	/* No initiator in sysfs: "-", for the plan to fill in. */
	put(ISCSI_SESSION "/iscsi_session/session3/initiatorname", "(null)\n");
	CHECK(devchain_resolve(sys, makedev(65, 113), "ext4", km, &c) == 0);
	CHECK(c.iscsis[0].initiator[0] == '\0');
	CHECK(devchain_format(&c, buf, sizeof(buf)) == 0);
	CHECK(strstr(buf, " " ISCSI_IQN " -\n") != NULL);

	/* An IPv6 portal; no port; an offload adapter. */
	put(ISCSI_SESSION "/connection3:0/iscsi_connection/connection3:0/persistent_address",
	    "fd00::1\n");
	CHECK(resolve_fails(km, makedev(65, 113), &c) == -EMEDIUMTYPE);
	CHECK(strstr(c.layer, "portal fd00::1") && strstr(c.fix, "IPv4"));
	put(ISCSI_SESSION "/connection3:0/iscsi_connection/connection3:0/persistent_address",
	    "10.0.43.1\n");
	put(ISCSI_SESSION "/connection3:0/iscsi_connection/connection3:0/persistent_port",
	    "\n");
	CHECK(resolve_fails(km, makedev(65, 113), &c) == -EIO);
	put(ISCSI_SESSION "/connection3:0/iscsi_connection/connection3:0/persistent_port",
	    "3260\n");
	put(ISCSI_HOST "/scsi_host/host5/proc_name", "qla4xxx\n");
	CHECK(resolve_fails(km, makedev(65, 113), &c) == -EMEDIUMTYPE);
	CHECK(strstr(c.layer, "adapter host5 (qla4xxx)") && strstr(c.fix, "iscsi_tcp"));
	put(ISCSI_HOST "/scsi_host/host5/proc_name", "iscsi_tcp\n");
}

int main(void)
{
	struct modload *km;
	struct devchain c;
	char buf[4096];

	snprintf(sys, sizeof(sys), "/tmp/test-devchain.XXXXXX");
	CHECK(mkdtemp(sys) != NULL);
	make_tree();
	/*
	 * A module directory without an index: a module loaded in the
	 * running kernel that the capture kernel does not have is refused.
	 */
	CHECK(modload_new("/nonexistent/lib/modules/0", &km) == 0);
	CHECK(resolve_fails(km, makedev(254, 1), &c) == -ENOPKG);
	CHECK(strstr(c.layer, "virtio") != NULL);

	/* Built-in drivers (no module link): nothing to load, named. */
	(void)unlink(strcat(strcpy(buf, sys), "/bus/pci/drivers/virtio-pci/module"));
	(void)unlink(strcat(strcpy(buf, sys), "/bus/virtio/drivers/virtio_blk/module"));
	(void)unlink(strcat(strcpy(buf, sys), "/module/virtio_pci/initstate"));
	(void)unlink(strcat(strcpy(buf, sys), "/module/virtio_blk/initstate"));
	CHECK(devchain_resolve(sys, makedev(254, 1), "ext4", km, &c) == 0);
	CHECK(c.n == 3);
	/* The bus driver before the disk's, the filesystem last. */
	CHECK(find(&c, "virtio-pci") == 0);
	CHECK(find(&c, "virtio_blk") == 1);
	CHECK(find(&c, "ext4") == 2);
	CHECK(c.mods[0].state == MODLOAD_BUILTIN);
	CHECK(strstr(c.mods[1].reason, "virtio1") != NULL);
	CHECK(strstr(c.mods[2].reason, "ext4") != NULL);
	CHECK(devchain_format(&c, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "") == 0);
	/* The whole disk resolves like its partition. */
	CHECK(devchain_resolve(sys, makedev(254, 0), "", km, &c) == 0);
	CHECK(c.n == 2);

	/* LVM: dm_mod, the volume to activate, the disk below. */
	make_dm(0, "LVM-abcdef", "vg--data-dumps");
	CHECK(devchain_resolve(sys, makedev(253, 0), "xfs", km, &c) == 0);
	CHECK(c.n_lvs == 1);
	CHECK(strcmp(c.lvs[0], "vg-data/dumps") == 0);
	CHECK(find(&c, "dm_mod") == 0);
	CHECK(find(&c, "virtio_blk") == 2);
	CHECK(devchain_format(&c, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "lvm vg-data/dumps\n") == 0);
	format_too_small(&c, strlen("lvm vg-data/dumps\n") + 1);

	test_luks(km);
	test_mpath(km);
	test_iscsi(km);
	/* An LVM name without its separator. */
	make_dm(4, "LVM-q", "novg");
	CHECK(resolve_fails(km, makedev(253, 4), &c) == -EMEDIUMTYPE);

	test_md(km);
	put("devices/virtual/block/loop0/loop/backing_file", "/srv/disk.img\n");
	link_to("dev/block/7:0", "../../devices/virtual/block/loop0");
	CHECK(devchain_resolve(sys, makedev(7, 0), "ext4", km, &c) == -EMEDIUMTYPE);
	CHECK(strstr(c.layer, "/srv/disk.img") != NULL);
	put("devices/virtual/block/nbd0/size", "0\n");
	link_to("dev/block/43:0", "../../devices/virtual/block/nbd0");
	CHECK(devchain_resolve(sys, makedev(43, 0), "ext4", km, &c) == -EMEDIUMTYPE);
	CHECK(strstr(c.layer, "network block device nbd0") != NULL);
	put("devices/virtual/block/zram0/size", "0\n");
	link_to("dev/block/252:0", "../../devices/virtual/block/zram0");
	CHECK(devchain_resolve(sys, makedev(252, 0), "ext4", km, &c) == -EMEDIUMTYPE);
	/* A device this sysfs does not have. */
	CHECK(resolve_fails(km, makedev(8, 240), &c) == -ENOENT);
	test_bound_drivers();

	modload_free(km);
	{
		char cmd[PATH_MAX + 16];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", sys);
		CHECK(system(cmd) == 0);
	}
	return tests_done();
}
