// SPDX-License-Identifier: GPL-2.0
/*
 * The md RAID arrays the dump target is on (the chain's "md UUID" lines,
 * written at load time by kdump-file(8)), assembled with mdadm as PID 1
 * only, between the driver rounds, before the LVM volumes above them.
 *
 * Only those arrays: mdadm reads a configuration of our own naming each
 * by its UUID, with AUTO -all, never /etc/mdadm/mdadm.conf, and makes them
 * md120, md121... (nothing else assembles arrays here).  The array
 * starts in auto-read-only mode (md_mod's start_ro) and its resync is
 * frozen before the first write: the capture writes the dump and nothing
 * else, and the resync a crash calls for stays for the next boot, which
 * finds the array as the crash left it.  An array that comes up with
 * members missing waits for them MD_DEGRADED_WAIT_MS, stopped again after
 * each try so that a late member joins; then it is started degraded
 * (mdadm --run): a dump on the members there is worth more than none.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "capture.h"
#include "process.h"
#include "util.h"

/* How long an array with members missing waits for them. */
#define MD_DEGRADED_WAIT_MS 10000ULL
/* The chain's arrays become md120, md121...: the capture names them. */
#define MD_FIRST_MINOR 120

/* "8-4-4-4-12" (md's sysfs) -> "8:8:8:8" (mdadm's); -EINVAL if not one. */
int raid_mdadm_uuid(const char *uuid, char *buf, size_t size)
{
	char hex[33];
	size_t n = 0;

	for (const char *s = uuid; *s; s++) {
		if (*s == '-')
			continue;
		if (!isxdigit((unsigned char)*s) || n >= 32)
			return -EINVAL;
		hex[n++] = (char)tolower((unsigned char)*s);
	}
	if (n != 32 || size < 36)
		return -EINVAL;
	snprintf(buf, size, "%.8s:%.8s:%.8s:%.8s", hex, hex + 8, hex + 16,
		 hex + 24);
	return 0;
}

/* The chain's arrays into cap->mds, once. */
static void read_arrays(struct capture *cap)
{
	char line[256], uuid[64];
	FILE *f;

	cap->mds_read = true;
	f = fopen(cap->paths.chain, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && cap->n_mds < CAPTURE_MD_MAX) {
		struct capture_md *md = &cap->mds[cap->n_mds];

		if (sscanf(line, "md %63s", uuid) != 1)
			continue;
		if (strlen(uuid) >= sizeof(md->uuid) ||
		    raid_mdadm_uuid(uuid, md->mdadm_uuid,
				    sizeof(md->mdadm_uuid)) < 0) {
			capture_say(cap, "warning: the chain names md array '%s', which is not a UUID: it is not assembled",
				    uuid);
			continue;
		}
		memcpy(md->uuid, uuid, strlen(uuid) + 1);
		cap->n_mds++;
	}
	fclose(f);
}

/* The md attribute attr of the array name, "" when unreadable. */
static void md_attr(struct capture *cap, const char *name, const char *attr,
		    char *buf, size_t size)
{
	char p[PATH_MAX];

	if (path_format(p, sizeof(p), "%s/%s/md/%s", cap->paths.sys_class_block,
			name, attr) < 0 ||
	    read_line_file(p, buf, size) < 0)
		buf[0] = '\0';
}

static int md_write(struct capture *cap, const char *name, const char *attr,
		    const char *value)
{
	char p[PATH_MAX];

	if (path_format(p, sizeof(p), "%s/%s/md/%s", cap->paths.sys_class_block,
			name, attr) < 0)
		return -ENAMETOOLONG;
	return write_attr(p, value);
}

static int mdadm(char *const argv[])
{
	/* No udev here: mdadm makes its device nodes itself. */
	char *const env[] = { "MDADM_NO_UDEV=1", NULL };
	struct process_opts o = PROCESS_OPTS_INIT;
	struct process_result res;
	int r;

	o.env_add = env;
	o.timeout_ms = 30000;
	r = process_run(argv, &o, &res);
	if (r < 0)
		return r;
	return process_succeeded(&res) ? 0 : -EIO;
}

/* The running array: its resync frozen, said with its members. */
static void array_up(struct capture *cap, struct capture_md *md,
		     const char *name)
{
	char level[32], disks[16], degraded[16];
	unsigned long total, missing;
	int r;

	r = md_write(cap, name, "sync_action", "frozen");
	md_attr(cap, name, "level", level, sizeof(level));
	md_attr(cap, name, "raid_disks", disks, sizeof(disks));
	md_attr(cap, name, "degraded", degraded, sizeof(degraded));
	total = strtoul(disks, NULL, 10);
	missing = strtoul(degraded, NULL, 10);
	capture_say(cap, "assembled RAID array %s as %s%s (%s, %lu of %lu members; %s)",
		    md->uuid, name, missing ? " degraded" : "", level,
		    total > missing ? total - missing : 0, total,
		    r < 0 ? "resync not frozen" : "resync frozen");
	md->done = true;
}

/* Said once, when the wait for missing members is over. */
static void say_degraded(struct capture *cap, struct capture_md *md)
{
	if (md->run_said)
		return;
	capture_say(cap, "RAID array %s still lacks members after %llus: starting it degraded",
		    md->uuid, MD_DEGRADED_WAIT_MS / 1000);
	md->run_said = true;
}

/* Running (not inactive, not cleared): the array is up. */
static bool running(const char *state)
{
	return state[0] && strcmp(state, "inactive") != 0 &&
	       strcmp(state, "clear") != 0;
}

/* An array assembled short of members: run as it is, or stopped again. */
static void run_or_stop(const char *name, bool run)
{
	char dev[48];
	char *const argv[] = { "mdadm", run ? "--run" : "--stop", dev, NULL };

	snprintf(dev, sizeof(dev), "/dev/%s", name);
	(void)mdadm(argv);
}

/* Only array i, by its UUID, from the partitions the kernel has, as name. */
static int assemble_scan(const struct capture_md *md, unsigned int i,
			 const char *name, bool run)
{
	char conf[64], config[80], text[256];
	/*
	 * --scan alone starts an array on any members enough for its level:
	 * --no-degraded waits for the members its superblocks expect (a
	 * disk may come a moment later).
	 */
	char *const argv[] = { "mdadm", "--assemble", "--scan",
			       "--freeze-reshape", config,
			       run ? "--run" : "--no-degraded", NULL };
	int r;

	snprintf(conf, sizeof(conf), "/run/kdump-file-md%u.conf", i);
	snprintf(text, sizeof(text),
		 "DEVICE partitions\nAUTO -all\nARRAY /dev/%s UUID=%s\n", name,
		 md->mdadm_uuid);
	r = write_file_atomic(conf, text, strlen(text), 0600);
	if (r < 0)
		return r;
	snprintf(config, sizeof(config), "--config=%s", conf);
	return mdadm(argv);
}

/*
 * One try at one array.  Before the wait is over, an array assembled short
 * of members is stopped again (a later try takes the members that came
 * meanwhile); after it, it is run as it is, and mdadm is told to start
 * what it finds (--run).
 */
static void assemble(struct capture *cap, struct capture_md *md,
		     unsigned int i)
{
	char name[32], state[32];
	bool waited;

	/*
	 * The array's device is ours to name: nothing else assembles here.
	 * An array assembled short of members has no UUID in sysfs yet.
	 */
	snprintf(name, sizeof(name), "md%u", MD_FIRST_MINOR + i);
	md_attr(cap, name, "array_state", state, sizeof(state));
	if (!running(state)) {
		if (!md->since)
			md->since = now_ms();
		waited = now_ms() >= md->since + MD_DEGRADED_WAIT_MS;
		if (waited)
			say_degraded(cap, md);
		/* A stopped array's device stays, cleared: assemble afresh. */
		if (strcmp(state, "inactive") == 0)
			run_or_stop(name, waited);
		else
			(void)assemble_scan(md, i, name, waited);
		md_attr(cap, name, "array_state", state, sizeof(state));
	}
	if (running(state))
		array_up(cap, md, name);
}

void raid_step(struct capture *cap)
{
	static const char start_ro[] = "/sys/module/md_mod/parameters/start_ro";

	if (!cap->is_init)
		return;
	if (!cap->mds_read)
		read_arrays(cap);
	for (unsigned int i = 0; i < cap->n_mds; i++) {
		if (cap->mds[i].done)
			continue;
		/* md_mod is loaded (or built in) by now: arrays start read-only. */
		(void)write_attr(start_ro, "1");
		(void)mkdir("/run/mdadm", 0700);
		assemble(cap, &cap->mds[i], i);
	}
}
