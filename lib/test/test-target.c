// SPDX-License-Identifier: GPL-2.0
/*
 * A device's stable identity as sysfs shows it, over a directory made to
 * look like /sys/class/block/<name> for a virtio disk, a SCSI disk and a
 * partition.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "target.h"
#include "tests.h"

static char root[] = "/tmp/test-target.XXXXXX";

static void dir(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	CHECK(mkdir(path, 0755) == 0);
}

static const char *sub(const char *rel)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return path;
}

static bool id_is_plain_host(const char *v)
{
	for (; *v; v++)
		if (!isalnum((unsigned char)*v) && !strchr("._-+,@:", *v))
			return false;
	return true;
}

/* name's identity as load records it, counted as the capture counts. */
static void check_identity_on_host(const char *name, const char *spec)
{
	struct target_identity id;
	struct target_match m;
	char sysdir[300], sectors[32];

	snprintf(sysdir, sizeof(sysdir), "/sys/class/block/%s", name);
	CHECK(target_sysfs_attr(sysdir, "size", sectors, sizeof(sectors)) == 0);
	CHECK(target_identity_of("/sys/class/block", name, spec,
				 strtoull(sectors, NULL, 10) * 512, &id) == 0);
	CHECK(target_identity_count("/sys/class/block", "/dev", &id, &m) == 0);
	CHECK(m.n_match >= 1);
	CHECK(m.n_match > 1 || strcmp(m.first, name) == 0);
}

/*
 * Found for real, on the block devices of the machine the test runs on:
 * by path, by a serial and by a filesystem UUID, each when it has one
 * (a machine without is no failure: the lookup is then said skipped).
 */
static void test_find_on_host(void)
{
	char dev[300], fstype[32], want[300], got[256], val[256];
	bool by_path = false, by_serial = false, by_uuid = false;
	struct dirent *de;
	struct stat st;
	DIR *d;

	d = opendir("/sys/class/block");
	if (!d) {
		printf("no /sys/class/block: lookups on the host skipped\n");
		return;
	}
	while ((de = readdir(d))) {
		char sysdir[300];

		if (de->d_name[0] == '.')
			continue;
		snprintf(want, sizeof(want), "/dev/%s", de->d_name);
		snprintf(sysdir, sizeof(sysdir), "/sys/class/block/%s",
			 de->d_name);
		if (stat(want, &st) < 0 || !S_ISBLK(st.st_mode))
			continue;
		if (!by_path) {
			by_path = true;
			strcpy(dev, "unset");
			CHECK(target_find_device(want, dev, sizeof(dev), fstype,
						 sizeof(fstype)) == 0);
			CHECK(strcmp(dev, want) == 0);
		}
		if (!by_serial && target_device_id(sysdir, want, "SERIAL", val,
						   sizeof(val)) == 0) {
			char spec[300];

			by_serial = true;
			snprintf(spec, sizeof(spec), "SERIAL=%s", val);
			CHECK(target_find_device_n(spec, dev, sizeof(dev), NULL,
						   0) >= 1);
			/* The first with that serial: the same serial. */
			snprintf(sysdir, sizeof(sysdir), "/sys/class/block/%s",
				 strrchr(dev, '/') + 1);
			CHECK(target_device_id(sysdir, dev, "SERIAL", got,
					       sizeof(got)) == 0 &&
			      strcmp(got, val) == 0);
			/* Counted with its size, it is among the matches. */
			if (id_is_plain_host(val))
				check_identity_on_host(de->d_name, spec);
		}
		if (!by_uuid &&
		    target_probe_tag(want, "UUID", val, sizeof(val)) == 0 &&
		    val[0]) {
			char spec[300];

			by_uuid = true;
			snprintf(spec, sizeof(spec), "UUID=%s", val);
			fstype[0] = '\0';
			CHECK(target_find_device(spec, dev, sizeof(dev), fstype,
						 sizeof(fstype)) == 0);
			CHECK(target_probe_tag(dev, "UUID", got, sizeof(got)) == 0 &&
			      strcmp(got, val) == 0);
			CHECK(target_probe_tag(dev, "TYPE", got, sizeof(got)) < 0 ||
			      strcmp(fstype, got) == 0);
		}
	}
	closedir(d);
	printf("found on the host by path: %s, by serial: %s, by UUID: %s\n",
	       by_path ? "yes" : "skipped", by_serial ? "yes" : "skipped",
	       by_uuid ? "yes" : "skipped");
}

/*
 * A sysfs of its own below root/NAME: class/ holds the links
 * /sys/class/block has, into devices/ where a partition's directory is
 * inside its disk's.  sectors are sysfs's 512-byte units.
 */
static void fx_disk(const char *fx, const char *name, const char *serial,
		    unsigned long long sectors)
{
	char rel[256], val[64], link[512], to[256];

	snprintf(rel, sizeof(rel), "%s/devices/%s", fx, name);
	dir(rel);
	snprintf(val, sizeof(val), "%llu\n", sectors);
	snprintf(rel, sizeof(rel), "%s/devices/%s/size", fx, name);
	test_put(root, rel, val);
	if (serial) {
		snprintf(rel, sizeof(rel), "%s/devices/%s/serial", fx, name);
		test_put(root, rel, serial);
	}
	snprintf(link, sizeof(link), "%s/%s/class/%s", root, fx, name);
	snprintf(to, sizeof(to), "../devices/%s", name);
	CHECK(symlink(to, link) == 0);
}

static void fx_part(const char *fx, const char *disk, const char *name,
		    const char *partuuid, unsigned long long sectors)
{
	char rel[256], val[128], link[512], to[256];

	snprintf(rel, sizeof(rel), "%s/devices/%s/%s", fx, disk, name);
	dir(rel);
	snprintf(val, sizeof(val), "%llu\n", sectors);
	snprintf(rel, sizeof(rel), "%s/devices/%s/%s/size", fx, disk, name);
	test_put(root, rel, val);
	snprintf(rel, sizeof(rel), "%s/devices/%s/%s/partition", fx, disk, name);
	test_put(root, rel, "1\n");
	snprintf(val, sizeof(val), "MAJOR=252\nMINOR=1\nDEVNAME=%s\nDEVTYPE=partition\nPARTN=1\nPARTUUID=%s\n",
		 name, partuuid);
	snprintf(rel, sizeof(rel), "%s/devices/%s/%s/uevent", fx, disk, name);
	test_put(root, rel, val);
	snprintf(link, sizeof(link), "%s/%s/class/%s", root, fx, name);
	snprintf(to, sizeof(to), "../devices/%s/%s", disk, name);
	CHECK(symlink(to, link) == 0);
}

static void fx_new(const char *fx)
{
	char rel[256];

	dir(fx);
	snprintf(rel, sizeof(rel), "%s/class", fx);
	dir(rel);
	snprintf(rel, sizeof(rel), "%s/devices", fx);
	dir(rel);
}

/* The class directory of fixture fx, as /sys/class/block. */
static const char *fx_class(const char *fx)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s/class", root, fx);
	return path;
}

static void test_identity_text(void)
{
	struct target_identity id = { .spec = "PARTUUID=6c9e0e9a-02",
				      .size = 1048576, .disk = "SERIAL=d1" };
	struct target_identity back;
	char buf[256];

	CHECK(target_identity_format(&id, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "PARTUUID=6c9e0e9a-02 size=1048576 disk=SERIAL=d1") == 0);
	CHECK(target_identity_parse(buf, &back) == 0);
	CHECK(strcmp(back.spec, id.spec) == 0 && back.size == id.size &&
	      strcmp(back.disk, id.disk) == 0);
	CHECK(target_identity_format(&id, buf, 10) == -ENOBUFS);
	CHECK(target_identity_parse("/dev/vdb size=512", &back) == 0);
	CHECK(strcmp(back.spec, "/dev/vdb") == 0 && back.size == 512 &&
	      !back.disk[0]);
	CHECK(target_identity_parse("SERIAL=a", &back) == 0 && back.size == 0);
	CHECK(target_identity_parse("", &back) == -EINVAL);
	CHECK(target_identity_parse("LABEL=a size=1", &back) == -EINVAL);
	CHECK(target_identity_parse("/dev/../etc/x", &back) == -EINVAL);
	CHECK(target_identity_parse("SERIAL=a size=1x", &back) == -EINVAL);
	CHECK(target_identity_parse("SERIAL=a size=-1", &back) == -EINVAL);
	CHECK(target_identity_parse("SERIAL=a disk=/dev/vda", &back) == -EINVAL);
}

/*
 * The capture's count: a disk cloned with its serial, a disk of another
 * size given the same serial, a partition table copied to another disk.
 * Each device that carries the whole identity counts; the capture writes
 * only when the count is one.
 */
static void test_identity_count(void)
{
	struct target_identity want = { .spec = "SERIAL=kdump-raw",
					.size = 2048 * 512 };
	struct target_match m;

	/* One disk with it, others without: that one. */
	fx_new("one");
	fx_disk("one", "vda", "root-disk\n", 8192);
	fx_disk("one", "vdb", "kdump-raw\n", 2048);
	fx_disk("one", "vdc", NULL, 2048);
	CHECK(target_identity_count(fx_class("one"), "/nonexistent", &want, &m) == 0);
	CHECK(m.n_match == 1 && m.n_other == 0);
	CHECK(strcmp(m.first, "vdb") == 0 && strcmp(m.names, "vdb") == 0);

	/* Two disks with the same serial and size: both named, none chosen. */
	fx_new("clone");
	fx_disk("clone", "vdb", "kdump-raw\n", 2048);
	fx_disk("clone", "vdc", "kdump-raw  \n", 2048);
	CHECK(target_identity_count(fx_class("clone"), "/nonexistent", &want, &m) == 0);
	CHECK(m.n_match == 2 && m.n_other == 0);
	CHECK(strcmp(m.names, "vdb, vdc") == 0);

	/* The same serial on a disk of another size: only the right one. */
	fx_new("size");
	fx_disk("size", "vdb", "kdump-raw\n", 4096);
	fx_disk("size", "vdc", "kdump-raw\n", 2048);
	CHECK(target_identity_count(fx_class("size"), "/nonexistent", &want, &m) == 0);
	CHECK(m.n_match == 1 && strcmp(m.first, "vdc") == 0);
	CHECK(m.n_other == 1 && strcmp(m.others, "vdb: 2097152 bytes") == 0);
	/* Only the other one there: none carries the identity. */
	fx_new("other");
	fx_disk("other", "vdb", "kdump-raw\n", 4096);
	CHECK(target_identity_count(fx_class("other"), "/nonexistent", &want, &m) == 0);
	CHECK(m.n_match == 0 && m.n_other == 1 && !m.first[0]);

	/*
	 * A partition: its PARTUUID from the kernel's uevent, and the serial
	 * of its disk.  A stick with the same partition table (PARTUUID and
	 * size) but not the disk's serial is not it; a clone of the whole
	 * disk is, and then there are two.
	 */
	want = (struct target_identity){ .spec = "PARTUUID=6c9e0e9a-02",
					 .size = 1024 * 512,
					 .disk = "SERIAL=disk-1" };
	fx_new("part");
	fx_disk("part", "vda", "disk-1\n", 8192);
	fx_part("part", "vda", "vda2", "6c9e0e9a-02", 1024);
	fx_disk("part", "sda", NULL, 8192);
	fx_part("part", "sda", "sda2", "6c9e0e9a-02", 1024);
	CHECK(target_identity_count(fx_class("part"), "/nonexistent", &want, &m) == 0);
	CHECK(m.n_match == 1 && strcmp(m.first, "vda2") == 0);
	CHECK(m.n_other == 1);
	CHECK(strcmp(m.others, "sda2: 524288 bytes, its disk no serial or WWID") == 0);
	fx_disk("part", "vdb", "disk-1\n", 8192);
	fx_part("part", "vdb", "vdb2", "6c9e0e9a-02", 1024);
	CHECK(target_identity_count(fx_class("part"), "/nonexistent", &want, &m) == 0);
	CHECK(m.n_match == 2 && strcmp(m.names, "vda2, vdb2") == 0);

	/* What load records of that partition: its disk's serial too. */
	CHECK(target_identity_of(fx_class("part"), "vda2", "PARTUUID=6c9e0e9a-02",
				 1024 * 512, &want) == 0);
	CHECK(strcmp(want.disk, "SERIAL=disk-1") == 0 && want.size == 524288);
	CHECK(target_identity_of(fx_class("part"), "sda2", "PARTUUID=6c9e0e9a-02",
				 1024 * 512, &want) == 0);
	CHECK(want.disk[0] == '\0');
	CHECK(target_identity_of(fx_class("one"), "vdb", "SERIAL=kdump-raw",
				 2048 * 512, &want) == 0);
	CHECK(want.disk[0] == '\0');

	/* A kernel name: that name, at that size. */
	want = (struct target_identity){ .spec = "/dev/vdc", .size = 2048 * 512 };
	CHECK(target_identity_count(fx_class("one"), "/nonexistent", &want, &m) == 0);
	CHECK(m.n_match == 1 && strcmp(m.first, "vdc") == 0);
	CHECK(target_identity_count(fx_class("nowhere"), "/nonexistent", &want,
				    &m) == -ENOENT);
}

int main(void)
{
	char buf[64];

	CHECK(mkdtemp(root) != NULL);
	/* virtio-blk: the serial on the disk, blank padded. */
	dir("vdb");
	test_put(root, "vdb/serial", "kdump-raw  \n");
	/* SCSI: wwid and serial on the device. */
	dir("sdc");
	dir("sdc/device");
	test_put(root, "sdc/device/wwid", "naa.600140512345678\n");
	test_put(root, "sdc/device/serial", "   \n");
	/* A partition: neither, whatever its disk has. */
	dir("vdb1");
	test_put(root, "vdb1/partition", "1\n");
	test_put(root, "vdb1/serial", "kdump-raw\n");

	CHECK(target_device_id(sub("vdb"), "/nonexistent", "SERIAL", buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "kdump-raw") == 0);
	CHECK(target_device_id(sub("vdb"), "/nonexistent", "WWID", buf, sizeof(buf)) == -ENOENT);
	CHECK(target_device_id(sub("sdc"), "/nonexistent", "WWID", buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "naa.600140512345678") == 0);
	/* A serial of blanks is no serial. */
	CHECK(target_device_id(sub("sdc"), "/nonexistent", "SERIAL", buf, sizeof(buf)) == -ENODATA);
	CHECK(target_device_id(sub("vdb1"), "/nonexistent", "SERIAL", buf, sizeof(buf)) == -ENOENT);
	CHECK(target_device_id(sub("vdb"), "/nonexistent", "LABEL", buf, sizeof(buf)) == -ENOENT);
	/* Too long for the caller's buffer: refused, not cut. */
	CHECK(target_device_id(sub("sdc"), "/nonexistent", "WWID", buf, 8) == -ENAMETOOLONG);
	/* The capture's lookups refuse what they cannot know. */
	CHECK(target_find_device("SERIAL", buf, sizeof(buf), NULL, 0) == -EINVAL);
	CHECK(target_find_device("/dev/null", buf, sizeof(buf), NULL, 0) == -ENOTBLK);
	CHECK(target_find_device("SERIAL=no-such-serial-anywhere", buf, sizeof(buf),
				 NULL, 0) == -ENODEV);
	CHECK(target_stable_id("/dev/null", buf, sizeof(buf)) == -ENOTBLK);
	test_find_on_host();
	test_identity_text();
	test_identity_count();

	CHECK(system(NULL) != 0);
	snprintf(buf, sizeof(buf), "rm -rf %s", root);
	CHECK(system(buf) == 0);
	return tests_done();
}
