// SPDX-License-Identifier: GPL-2.0
/*
 * The LUKS devices the dump target is on (the chain's "luks" lines,
 * written at load time by kdump-file(8)), unlocked with cryptsetup as PID
 * 1 only, after the md arrays below them and before the LVM volumes above.
 *
 *  - "luks UUID NAME kernel": the crashed kernel handed the volume key to
 *    this one, which gives it once from /sys/kernel/crash_dm_crypt_key
 *    and then wipes its copy.  The key goes to cryptsetup through a pipe
 *    (--volume-key-file): no passphrase, no key derivation, no file.
 *  - "luks UUID NAME file SLOT OFFSET SIZE FSUUID FSTYPE PATH": crypttab's
 *    key file, read in place: its filesystem mounted read-only without
 *    replaying its journal (the crash left it dirty; the next boot
 *    replays it), cryptsetup given that file and that key slot alone
 *    (another slot's Argon2 could need more memory than the capture has),
 *    the filesystem unmounted at once.
 *
 * A device not there yet is tried again at the next step; one that
 * cryptsetup refuses is said once and not tried again.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "process.h"
#include "target.h"
#include "util.h"

#define KEY_RECORD "/sys/kernel/crash_dm_crypt_key"
/* The kernel's record (kernel-patches: include/linux/crash_dm_crypt_key.h). */
#define KEY_RECORD_SIZE 280
#define KEY_RECORD_MAGIC "DMCRKEY1"
#define KEY_MAX 128
#define KEY_FS_DIR "/run/kdump-file/keyfs"

int crypt_parse_line(const char *line, struct capture_crypt *ret)
{
	struct capture_crypt c = { 0 };
	char how[16];
	int n = 0;

	if (sscanf(line, "luks %39s %127s %15s %n", c.uuid, c.name, how, &n) != 3 ||
	    !n)
		return -EINVAL;
	if (strcmp(how, "kernel") == 0 && line[n] == '\0') {
		c.kernel = true;
	} else if (strcmp(how, "file") == 0) {
		int m = 0;

		if (sscanf(line + n, "%d %llu %llu %39s %15s %255s%n", &c.slot,
			   &c.offset, &c.size, c.fs_uuid, c.fs_type, c.path,
			   &m) != 6 || line[n + m] != '\0' || c.slot < 0 ||
		    c.slot > 31 || c.path[0] != '/')
			return -EINVAL;
	} else {
		return -EINVAL;
	}
	*ret = c;
	return 0;
}

/* The chain's LUKS devices into cap->crypts, once. */
static void read_crypts(struct capture *cap)
{
	char line[768];
	FILE *f;

	cap->crypts_read = true;
	f = fopen(cap->paths.chain, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && cap->n_crypts < CAPTURE_CRYPT_MAX) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "luks ", 5) != 0)
			continue;
		if (crypt_parse_line(line, &cap->crypts[cap->n_crypts]) < 0) {
			capture_say(cap, "warning: the chain's line '%.80s' is not a LUKS device the capture can unlock",
				    line);
			continue;
		}
		cap->n_crypts++;
	}
	fclose(f);
}

/*
 * The volume key from the kernel's record, once: the record checked
 * against the device (its dm UUID has the LUKS UUID's digits).  The
 * record is wiped here; the kernel wiped its own copy on the read.
 */
static int take_kernel_key(const struct capture_crypt *c, unsigned char *key,
			   size_t *ret_len)
{
	unsigned char rec[KEY_RECORD_SIZE];
	char hex[33], uuid[137];
	unsigned int size;
	size_t n = 0;
	ssize_t l;
	int fd, r = 0;

	fd = open(KEY_RECORD, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	l = read(fd, rec, sizeof(rec));
	if (l < 0)
		r = -errno;
	close(fd);
	if (r == 0 && l != (ssize_t)sizeof(rec))
		r = -EIO;
	if (r == 0 && memcmp(rec, KEY_RECORD_MAGIC, 8) != 0)
		r = -EBADMSG;
	if (r == 0) {
		size = rec[8] | rec[9] << 8 | rec[10] << 16 | (unsigned int)rec[11] << 24;
		memcpy(uuid, rec + 16, 136);
		uuid[136] = '\0';
		for (const char *s = c->uuid; *s && n < 32; s++)
			if (*s != '-')
				hex[n++] = *s;
		hex[n] = '\0';
		if (size == 0 || size > KEY_MAX || n != 32 || !strstr(uuid, hex))
			r = -EBADMSG;
		else {
			memcpy(key, rec + 152, size);
			*ret_len = size;
		}
	}
	explicit_bzero(rec, sizeof(rec));
	return r;
}

/* Whether the kernel still gives the record (it must not). */
static bool kernel_key_wiped(void)
{
	unsigned char rec[KEY_RECORD_SIZE];
	ssize_t l = -1;
	int fd;

	fd = open(KEY_RECORD, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		l = read(fd, rec, sizeof(rec));
		close(fd);
	}
	explicit_bzero(rec, sizeof(rec));
	return l <= 0;
}

struct said {
	char last[512];
};

static void on_line(const char *line, size_t len, void *userdata)
{
	struct said *s = userdata;

	(void)len;
	if (line[0])
		(void)text_format(s->last, sizeof(s->last), "%s", line);
}

/* cryptsetup with argv, stdin from fd (or /dev/null): 0 or -EIO, why. */
static int cryptsetup(char *const argv[], int stdin_fd, struct said *why)
{
	/* No udev: libdevmapper makes the device nodes itself. */
	char *const env[] = { "DM_DISABLE_UDEV=1", NULL };
	struct process_opts o = PROCESS_OPTS_INIT;
	struct process_result res;
	int r;

	o.env_add = env;
	o.stdin_fd = stdin_fd;
	o.on_line = on_line;
	o.userdata = why;
	o.timeout_ms = 60000;
	r = process_run(argv, &o, &res);
	if (r < 0)
		return r;
	if (res.timed_out)
		snprintf(why->last, sizeof(why->last), "no answer in 60s");
	return process_succeeded(&res) ? 0 : -EIO;
}

static int open_with_kernel_key(struct capture *cap, struct capture_crypt *c,
				const char *dev, struct said *why)
{
	char *const argv[] = {
		"cryptsetup", "open", "--type", "luks", "--disable-locks",
		"--disable-external-tokens", "--volume-key-file",
		"/proc/self/fd/0", (char *)dev, c->name, NULL,
	};
	unsigned char key[KEY_MAX];
	size_t len = 0;
	int p[2], r;

	r = take_kernel_key(c, key, &len);
	if (r < 0) {
		snprintf(why->last, sizeof(why->last), "%s: %s", KEY_RECORD,
			 r == -EBADMSG ? "not this device's key" : strerror(-r));
		return r;
	}
	if (!kernel_key_wiped())
		capture_say(cap, "warning: the kernel still gives the volume key at %s",
			    KEY_RECORD);
	else
		capture_say(cap, "the kernel's copy of the volume key is wiped");
	if (pipe2(p, O_CLOEXEC) < 0) {
		r = -errno;
	} else {
		/* 128 bytes at most: the pipe holds them until cryptsetup reads. */
		if (write(p[1], key, len) != (ssize_t)len)
			r = -EIO;
		close(p[1]);
		if (r == 0)
			r = cryptsetup(argv, p[0], why);
		close(p[0]);
	}
	explicit_bzero(key, sizeof(key));
	return r;
}

/* Mount options that read a filesystem left dirty without writing it. */
static const char *no_replay(const char *fstype)
{
	if (strcmp(fstype, "ext4") == 0 || strcmp(fstype, "ext3") == 0)
		return "noload";
	if (strcmp(fstype, "xfs") == 0)
		return "norecovery";
	if (strcmp(fstype, "btrfs") == 0)
		return "nologreplay";
	return "";
}

static int open_with_key_file(struct capture_crypt *c, const char *dev,
			      struct said *why)
{
	char fsdev[256], fstype[64], spec[64], key[512], slot[32], off[48],
	     size[48];
	char *const argv[] = {
		"cryptsetup", "open", "--type", "luks", "--disable-locks",
		"--disable-external-tokens", "--key-file", key, "--key-slot",
		slot, "--keyfile-offset", off, "--keyfile-size", size,
		(char *)dev, c->name, NULL,
	};
	int r;

	snprintf(spec, sizeof(spec), "UUID=%s", c->fs_uuid);
	r = target_find_device(spec, fsdev, sizeof(fsdev), fstype, sizeof(fstype));
	if (r < 0)
		return r;
	(void)mkdir_p(KEY_FS_DIR, 0700);
	if (mount(fsdev, KEY_FS_DIR, c->fs_type,
		  MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  no_replay(c->fs_type)) < 0) {
		r = -errno;
		(void)text_format(why->last, sizeof(why->last),
				  "cannot mount the key file's filesystem %s (%s) read-only: %s",
				  fsdev, c->fs_type, strerror(-r));
		return r;
	}
	if (path_format(key, sizeof(key), "%s%s", KEY_FS_DIR, c->path) < 0) {
		r = -ENAMETOOLONG;
	} else {
		snprintf(slot, sizeof(slot), "%d", c->slot);
		snprintf(off, sizeof(off), "%llu", c->offset);
		snprintf(size, sizeof(size), "%llu", c->size);
		r = cryptsetup(argv, -1, why);
	}
	(void)umount2(KEY_FS_DIR, MNT_DETACH);
	return r;
}

/* One try at one LUKS device. */
static void unlock(struct capture *cap, struct capture_crypt *c)
{
	char spec[64], dev[256], type[64], mapper[192], version[8] = "";
	struct said why = { "" };
	int r;

	snprintf(spec, sizeof(spec), "UUID=%s", c->uuid);
	if (target_find_device(spec, dev, sizeof(dev), type, sizeof(type)) < 0)
		return;	/* not there yet */
	if (target_probe_tag(dev, "VERSION", version, sizeof(version)) < 0)
		version[0] = '\0';
	c->done = true;
	snprintf(mapper, sizeof(mapper), "/dev/mapper/%s", c->name);
	if (access(mapper, F_OK) == 0)
		return;
	(void)mkdir_p("/run/cryptsetup", 0700);
	if (c->kernel)
		r = open_with_kernel_key(cap, c, dev, &why);
	else
		r = open_with_key_file(c, dev, &why);
	if (r == -ENODEV && !c->kernel) {
		c->done = false;	/* the key file's disk, not there yet */
		return;
	}
	if (r < 0) {
		capture_say(cap, "cannot unlock LUKS%s device %s (%s) as %s: %s",
			    version, c->uuid, dev, c->name,
			    why.last[0] ? why.last : strerror(-r));
		return;
	}
	if (c->kernel)
		capture_say(cap, "unlocked LUKS%s device %s (%s) as %s with the volume key from the kernel",
			    version, c->uuid, dev, c->name);
	else
		capture_say(cap, "unlocked LUKS%s device %s (%s) as %s with key file %s (key slot %d)",
			    version, c->uuid, dev, c->name, c->path, c->slot);
	cap->crypt_opened = true;
}

void crypt_step(struct capture *cap)
{
	if (!cap->is_init)
		return;
	if (!cap->crypts_read)
		read_crypts(cap);
	for (unsigned int i = 0; i < cap->n_crypts; i++)
		if (!cap->crypts[i].done)
			unlock(cap, &cap->crypts[i]);
}
