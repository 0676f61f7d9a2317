// SPDX-License-Identifier: GPL-2.0
/*
 * raid.c on the host: md's UUID as mdadm takes it, and nothing run for
 * arrays outside the capture kernel (the system's own udev assembles
 * them there).  Assembly itself runs in the md RAID scenarios.
 */
#include <errno.h>

#include "capture.h"
#include "tests.h"

static void test_uuid(void)
{
	char buf[40];

	CHECK(raid_mdadm_uuid("3b1c2d4e-5f60-7182-93a4-b5c6d7e8f901", buf,
			      sizeof(buf)) == 0);
	CHECK(strcmp(buf, "3b1c2d4e:5f607182:93a4b5c6:d7e8f901") == 0);
	/* Upper case from elsewhere: mdadm's own form is lower case. */
	CHECK(raid_mdadm_uuid("3B1C2D4E-5F60-7182-93A4-B5C6D7E8F901", buf,
			      sizeof(buf)) == 0);
	CHECK(strcmp(buf, "3b1c2d4e:5f607182:93a4b5c6:d7e8f901") == 0);
	/* Not a UUID: too short, too long, not hex, no room. */
	memset(buf, 'x', sizeof(buf));
	CHECK(raid_mdadm_uuid("3b1c2d4e-5f60-7182-93a4-b5c6d7e8f9", buf,
			      sizeof(buf)) == -EINVAL);
	CHECK(buf[0] == 'x');
	CHECK(raid_mdadm_uuid("3b1c2d4e-5f60-7182-93a4-b5c6d7e8f90100", buf,
			      sizeof(buf)) == -EINVAL);
	CHECK(raid_mdadm_uuid("3b1c2d4e-5f60-7182-93a4-b5c6d7e8f9g1", buf,
			      sizeof(buf)) == -EINVAL);
	CHECK(raid_mdadm_uuid("3b1c2d4e 5f60-7182-93a4-b5c6d7e8f901", buf,
			      sizeof(buf)) == -EINVAL);
	CHECK(raid_mdadm_uuid("", buf, sizeof(buf)) == -EINVAL);
	CHECK(raid_mdadm_uuid("3b1c2d4e-5f60-7182-93a4-b5c6d7e8f901", buf,
			      35) == -EINVAL);
}

/* Not PID 1: the chain is not even read. */
static void test_not_init(void)
{
	struct capture cap = { 0 };

	cap.paths.chain = "/nonexistent/chain";
	raid_step(&cap);
	CHECK(!cap.mds_read && cap.n_mds == 0);
}

int main(void)
{
	test_uuid();
	test_not_init();
	return tests_done();
}
