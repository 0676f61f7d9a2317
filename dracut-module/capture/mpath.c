// SPDX-License-Identifier: GPL-2.0
/*
 * The multipath devices the dump target is on (the chain's "mpath" lines,
 * written at load time by kdump-file(8)), made as PID 1 only, before the md
 * arrays, LUKS devices and LVM volumes above them, with device-mapper's
 * own ioctls: no dmsetup or libdevmapper in the capture initramfs, whose
 * libraries would cost the capture kernel more memory than the map.
 *
 * No multipathd, no udev: the paths are the disks whose device/wwid is the
 * one load recorded.  Each is read once (4 KiB, O_DIRECT) before it goes
 * into the map: a path that failed with the crash (a dead port, a pulled
 * cable) fails that read and is left out, so that the capture's writes
 * never wait on its error handling.  The map has the name and uuid of the
 * running system's, one priority group, round-robin, and no queueing: with
 * every path gone a write fails at once and the capture says so.
 *
 * A map whose paths are not all there waits MPATH_WAIT_MS for them (a disk
 * may come a moment later), then is made over those that are.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/dm-ioctl.h>

#include "capture.h"
#include "process.h"
#include "util.h"

/* How long a map with paths missing waits for them. */
#define MPATH_WAIT_MS 10000ULL
#define MPATH_PATHS_MAX 8
#define DM_CONTROL "/dev/mapper/control"

int mpath_parse_line(const char *line, struct capture_mpath *ret)
{
	struct capture_mpath m = { 0 };
	size_t l;
	int n = 0;

	if (sscanf(line, "mpath %135s %127s %llu %u %n", m.uuid, m.name,
		   &m.sectors, &m.n_paths, &n) != 4 || !n)
		return -EINVAL;
	l = strlen(line + n);
	while (l && (line[n + l - 1] == ' ' || line[n + l - 1] == '\n'))
		l--;
	if (!l || l >= sizeof(m.wwid) || !m.sectors || !m.n_paths ||
	    m.n_paths > MPATH_PATHS_MAX || strncmp(m.uuid, "mpath-", 6) != 0 ||
	    strlen(m.uuid) >= DM_UUID_LEN || strlen(m.name) >= DM_NAME_LEN)
		return -EINVAL;
	memcpy(m.wwid, line + n, l);
	m.wwid[l] = '\0';
	*ret = m;
	return 0;
}

int mpath_table(const char devs[][16], unsigned int n, char *buf, size_t size)
{
	size_t pos;
	int r;

	if (!n)
		return -EINVAL;
	/* No features, no hardware handler, one group of n paths. */
	r = snprintf(buf, size, "0 0 1 1 round-robin 0 %u 1", n);
	if (r < 0 || (size_t)r >= size)
		return -ENOBUFS;
	pos = (size_t)r;
	for (unsigned int i = 0; i < n; i++) {
		r = snprintf(buf + pos, size - pos, " %s 1", devs[i]);
		if (r < 0 || (size_t)r >= size - pos)
			return -ENOBUFS;
		pos += (size_t)r;
	}
	return 0;
}

/* The header of a device-mapper ioctl on map m, size bytes in all. */
static void dm_header(struct dm_ioctl *io, size_t size,
		      const struct capture_mpath *m)
{
	memset(io, 0, size);
	io->version[0] = DM_VERSION_MAJOR;
	io->data_size = (uint32_t)size;
	io->data_start = sizeof(*io);
	memcpy(io->name, m->name, strlen(m->name) + 1);
}

int mpath_load_buffer(const struct capture_mpath *m, const char *params,
		      void *buf, size_t size)
{
	struct dm_target_spec *t;
	size_t need = sizeof(struct dm_ioctl) + sizeof(*t) + strlen(params) + 1;

	need = (need + 7) & ~(size_t)7;
	if (need > size)
		return -ENOBUFS;
	dm_header(buf, need, m);
	((struct dm_ioctl *)buf)->target_count = 1;
	t = (struct dm_target_spec *)((char *)buf + sizeof(struct dm_ioctl));
	t->sector_start = 0;
	t->length = m->sectors;
	t->next = 0;
	memcpy(t->target_type, "multipath", sizeof("multipath"));
	memcpy(t + 1, params, strlen(params) + 1);
	return (int)need;
}

/*
 * Map m made live with table params: created with its name and uuid, the
 * table loaded, resumed; removed again when a step fails.  0 with its
 * minor (dm-N), or -errno with the step that failed in *step.
 */
static int dm_make(const struct capture_mpath *m, const char *params,
		   unsigned int *minor, const char **step)
{
	union {
		struct dm_ioctl io;
		uint64_t align;
		char buf[2048];
	} u;
	int fd, r;

	*step = "open " DM_CONTROL;
	fd = open(DM_CONTROL, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	dm_header(&u.io, sizeof(u.io), m);
	memcpy(u.io.uuid, m->uuid, strlen(m->uuid) + 1);
	*step = "DM_DEV_CREATE";
	r = ioctl(fd, DM_DEV_CREATE, &u.io) < 0 ? -errno : 0;
	if (r < 0)
		goto out;
	/* The kernel's huge_encode_dev(): minor bits 0-7 and 20-31. */
	*minor = (unsigned int)((u.io.dev & 0xff) | ((u.io.dev >> 12) & 0xfff00));
	*step = "DM_TABLE_LOAD";
	r = mpath_load_buffer(m, params, u.buf, sizeof(u.buf));
	if (r >= 0)
		r = ioctl(fd, DM_TABLE_LOAD, &u.io) < 0 ? -errno : 0;
	if (r == 0) {
		*step = "DM_DEV_SUSPEND (resume)";
		dm_header(&u.io, sizeof(u.io), m);
		r = ioctl(fd, DM_DEV_SUSPEND, &u.io) < 0 ? -errno : 0;
	}
	if (r < 0) {
		dm_header(&u.io, sizeof(u.io), m);
		(void)ioctl(fd, DM_DEV_REMOVE, &u.io);
	}
out:
	close(fd);
	return r;
}

/* The chain's maps into cap->mpaths, once. */
static void read_maps(struct capture *cap)
{
	char line[640];
	FILE *f;

	cap->mpaths_read = true;
	f = fopen(cap->paths.chain, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && cap->n_mpaths < CAPTURE_MPATH_MAX) {
		if (strncmp(line, "mpath ", 6) != 0)
			continue;
		if (mpath_parse_line(line, &cap->mpaths[cap->n_mpaths]) < 0) {
			line[strcspn(line, "\n")] = '\0';
			capture_say(cap, "warning: the chain's line '%.80s' is not a multipath device the capture can make",
				    line);
			continue;
		}
		cap->n_mpaths++;
	}
	fclose(f);
}

/* One 4 KiB read at the start of /dev/name: 0, or why it failed. */
static int path_reads(const char *name)
{
	char dev[PATH_MAX];
	void *buf;
	ssize_t l;
	int fd, r = 0;

	if (path_format(dev, sizeof(dev), "/dev/%s", name) < 0)
		return -ENAMETOOLONG;
	fd = open(dev, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (posix_memalign(&buf, 4096, 4096) != 0) {
		close(fd);
		return -ENOMEM;
	}
	l = pread(fd, buf, 4096, 0);
	if (l < 0)
		r = -errno;
	else if (l != 4096)
		r = -EIO;
	free(buf);
	close(fd);
	return r;
}

/* What a scan of the disks found for one map. */
struct paths {
	char good[MPATH_PATHS_MAX][16];	/* MAJ:MIN, for the table */
	char names[MPATH_PATHS_MAX][16];
	unsigned int n_good, n_seen;
	char bad[160];			/* "sdb (why)", said */
};

static void note_bad(struct paths *p, const char *name, const char *why)
{
	size_t l = strlen(p->bad);

	snprintf(p->bad + l, sizeof(p->bad) - l, "%s%s: %s", l ? "; " : "",
		 name, why);
}

/* The disks under sys_class_block whose device/wwid is m's. */
static void scan(struct capture *cap, const struct capture_mpath *m,
		 struct paths *p)
{
	struct dirent *de;
	DIR *d;

	memset(p, 0, sizeof(*p));
	d = opendir(cap->paths.sys_class_block);
	if (!d)
		return;
	while ((de = readdir(d)) && p->n_seen < MPATH_PATHS_MAX) {
		char a[PATH_MAX], wwid[256], dev[16], size[32];
		int r;

		if (de->d_name[0] == '.' || strlen(de->d_name) >= 16 ||
		    path_format(a, sizeof(a), "%s/%s/device/wwid",
				cap->paths.sys_class_block, de->d_name) < 0 ||
		    read_line_file(a, wwid, sizeof(wwid)) < 0)
			continue;
		for (size_t e = strlen(wwid); e && wwid[e - 1] == ' '; e--)
			wwid[e - 1] = '\0';
		if (strcmp(wwid, m->wwid) != 0)
			continue;
		p->n_seen++;
		if (path_format(a, sizeof(a), "%s/%s/size",
				cap->paths.sys_class_block, de->d_name) < 0 ||
		    read_line_file(a, size, sizeof(size)) < 0)
			size[0] = '\0';
		if (strtoull(size, NULL, 10) != m->sectors) {
			char why[80];

			snprintf(why, sizeof(why),
				 "%llu sectors, not the map's %llu",
				 strtoull(size, NULL, 10), m->sectors);
			note_bad(p, de->d_name, why);
			continue;
		}
		if (path_format(a, sizeof(a), "%s/%s/dev",
				cap->paths.sys_class_block, de->d_name) < 0 ||
		    read_line_file(a, dev, sizeof(dev)) < 0)
			continue;
		r = path_reads(de->d_name);
		if (r < 0) {
			note_bad(p, de->d_name, strerror(-r));
			continue;
		}
		memcpy(p->good[p->n_good], dev, sizeof(dev));
		memcpy(p->names[p->n_good++], de->d_name, strlen(de->d_name) + 1);
	}
	closedir(d);
}

/* One try at map m: made when its paths are there, or the wait is over. */
static void make_map(struct capture *cap, struct capture_mpath *m)
{
	char table[512], names[160] = "";
	const char *step = "";
	unsigned int minor = 0;
	struct paths p;
	bool waited;
	int r;

	scan(cap, m, &p);
	if (!m->since)
		m->since = now_ms();
	waited = now_ms() >= m->since + MPATH_WAIT_MS;
	if (p.n_seen < m->n_paths && !waited)
		return;
	if (!p.n_good) {
		if (!m->none_said)
			capture_say(cap, "multipath device %s (%s): no path can be read (%s); still looking",
				    m->name, m->wwid, p.bad[0] ? p.bad : "none found");
		m->none_said = true;
		return;
	}
	for (unsigned int i = 0; i < p.n_good; i++) {
		size_t l = strlen(names);

		snprintf(names + l, sizeof(names) - l, "%s%s", l ? " " : "",
			 p.names[i]);
	}
	r = mpath_table(p.good, p.n_good, table, sizeof(table));
	if (r == 0)
		r = dm_make(m, table, &minor, &step);
	m->done = true;
	if (r < 0) {
		capture_say(cap, "warning: cannot make multipath device %s (%s) over %s: %s: %s",
			    m->name, m->wwid, names, step, strerror(-r));
		return;
	}
	capture_say(cap, "made multipath device %s (%s) as dm-%u over %u of %u paths: %s%s%s%s",
		    m->name, m->wwid, minor, p.n_good, m->n_paths, names,
		    p.bad[0] ? " (left out: " : "", p.bad, p.bad[0] ? ")" : "");
}

/* Whether the whole disk name is a path of a map not made yet. */
bool mpath_pending_path(struct capture *cap, const char *name)
{
	char a[PATH_MAX], wwid[256];

	if (!cap->mpaths_read)
		read_maps(cap);
	if (path_format(a, sizeof(a), "%s/%s/device/wwid",
			cap->paths.sys_class_block, name) < 0 ||
	    read_line_file(a, wwid, sizeof(wwid)) < 0)
		return false;
	for (size_t e = strlen(wwid); e && wwid[e - 1] == ' '; e--)
		wwid[e - 1] = '\0';
	for (unsigned int i = 0; i < cap->n_mpaths; i++)
		if (!cap->mpaths[i].done && strcmp(cap->mpaths[i].wwid, wwid) == 0)
			return true;
	return false;
}

bool mpath_pending(struct capture *cap)
{
	if (!cap->mpaths_read)
		read_maps(cap);
	for (unsigned int i = 0; i < cap->n_mpaths; i++)
		if (!cap->mpaths[i].done)
			return true;
	return false;
}

void mpath_step(struct capture *cap)
{
	if (!cap->is_init)
		return;
	if (!cap->mpaths_read)
		read_maps(cap);
	for (unsigned int i = 0; i < cap->n_mpaths; i++)
		if (!cap->mpaths[i].done)
			make_map(cap, &cap->mpaths[i]);
}
