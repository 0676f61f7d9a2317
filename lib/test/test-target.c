// SPDX-License-Identifier: GPL-2.0
/*
 * A device's stable identity as sysfs shows it, over a directory made to
 * look like /sys/class/block/<name> for a virtio disk, a SCSI disk and a
 * partition.
 */
#include <errno.h>
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

	CHECK(system(NULL) != 0);
	snprintf(buf, sizeof(buf), "rm -rf %s", root);
	CHECK(system(buf) == 0);
	return tests_done();
}
