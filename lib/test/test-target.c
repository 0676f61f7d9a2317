// SPDX-License-Identifier: GPL-2.0
/*
 * A device's stable identity as sysfs shows it, over a directory made to
 * look like /sys/class/block/<name> for a virtio disk, a SCSI disk and a
 * partition.
 */
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

	CHECK(system(NULL) != 0);
	snprintf(buf, sizeof(buf), "rm -rf %s", root);
	CHECK(system(buf) == 0);
	return tests_done();
}
