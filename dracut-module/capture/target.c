// SPDX-License-Identifier: GPL-2.0
/*
 * The dump target: its device found within target_timeout (loading
 * drivers meanwhile), mounted, the old dumps kept within keep, and the new
 * dump's directory made; unmounted at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "dump.h"
#include "dumpdir.h"
#include "modplan.h"
#include "safedir.h"
#include "target.h"
#include "util.h"

/*
 * Wait for the device named by spec, loading drivers meanwhile, until
 * target_timeout passes.
 */
int capture_wait_device(struct capture *cap, const char *spec, char *dev,
			size_t size, char *fstype, size_t fsize)
{
	unsigned int timeout = cap->conf.target_timeout;
	unsigned long long deadline = now_ms() + timeout * 1000ULL;
	int r;

	capture_step(cap, "waiting for the dump target");
	capture_say(cap, "waiting up to %us for %s", timeout, spec);
	for (;;) {
		r = target_find_device(spec, dev, size, fstype, fsize);
		/* A path of a multipath device: the device is the target. */
		if (r == 0 && strncmp(dev, "/dev/", 5) == 0 &&
		    mpath_pending_path(cap, dev + 5))
			r = -ENODEV;
		if (r != -ENODEV || now_ms() >= deadline)
			break;
		drivers_step(cap);
		usleep(100 * 1000);
	}
	drivers_summary(cap);
	return r;
}

int phase_target(struct capture *cap)
{
	const struct kdump_conf *c = &cap->conf;
	char alias[64];
	int r;

	r = capture_wait_device(cap, c->target, cap->dev, sizeof(cap->dev),
				cap->fstype, sizeof(cap->fstype));
	if (r < 0)
		return capture_fail(cap, r, "dump target %s not found within %us: %s",
				    c->target, c->target_timeout, strerror(-r));
	cap->t_dev = now_ms();
	/*
	 * The filesystem's module, when the chain did not bring it (no chain,
	 * or the filesystem changed since the load): filesystems have no
	 * modalias for the rounds, but the alias fs-<type>.
	 */
	if (cap->kmods && cap->fstype[0]) {
		snprintf(alias, sizeof(alias), "fs-%s", cap->fstype);
		if (modplan_insert(cap->kmods, alias) > 0)
			capture_say(cap, "loaded the module of filesystem %s; modules loaded: %s",
				    cap->fstype, modplan_loaded(cap->kmods));
	}
	return 0;
}

int phase_mount(struct capture *cap)
{
	const char *mnt = cap->paths.mnt, *fstype = cap->fstype;
	int r;

	if (mkdir(mnt, 0700) < 0 && errno != EEXIST)
		return -errno;
	/*
	 * btrfs: the top-level subvolume, whatever the default one is: the
	 * path kdump-file(8) resolved is relative to it (mountinfo's root).
	 */
	capture_step(cap, "mounting the target");
	if (mount(cap->dev, mnt, fstype[0] ? fstype : "ext4", 0,
		  strcmp(fstype, "btrfs") == 0 ? "subvolid=5" : NULL) < 0) {
		r = -errno;
		return capture_fail(cap, r, "cannot mount %s (%s) on %s: %s",
				    cap->dev, fstype, mnt, strerror(-r));
	}
	cap->mounted = true;
	capture_say(cap, "mounted %s (%s, %s)", cap->conf.target, cap->dev,
		    fstype);
	return 0;
}

/* Which of the n dumps names below base are complete. */
static void retention_inspect(const char *base, char **names, size_t n,
			      bool *complete)
{
	/* A dmesg-only dump (dump_level = dmesg) that finished is complete. */
	for (size_t i = 0; i < n; i++) {
		char p[PATH_MAX];
		struct dump_info d;

		snprintf(p, sizeof(p), "%s/%s", base, names[i]);
		complete[i] = dump_inspect(p, &d) == 0 && dump_complete(&d);
	}
}

/*
 * Keep at most keep - 1 old dumps so that the new one makes keep; an
 * incomplete dump goes before a complete one and the newest complete one
 * stays (dump_retention()).  dump_list() gives the dumps of ours only: a
 * link or a stranger's directory named like one is not.
 */
void capture_retention(struct capture *cap, const char *base,
		       unsigned int keep)
{
	bool *complete = NULL, *rm = NULL;
	char **names = NULL;
	size_t n = 0;
	int bfd, r;

	if (keep == 0)
		return;
	bfd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (bfd < 0)
		return;
	if (dump_list(base, &names, &n) < 0 ||
	    !(complete = calloc(n + 1, sizeof(*complete))) ||
	    !(rm = calloc(n + 1, sizeof(*rm)))) {
		capture_say(cap, "warning: cannot list the old dumps in %s: keep = %u not applied",
			    capture_rel(cap, base), keep);
		goto out;
	}
	retention_inspect(base, names, n, complete);
	(void)dump_retention(complete, n, keep, rm);
	for (size_t i = 0; i < n; i++) {
		if (!rm[i])
			continue;
		r = dump_remove(bfd, names[i]);
		if (r == 0)
			capture_say(cap, "removed old dump %s (keep = %u)%s",
				    names[i], keep,
				    complete[i] ? "" : ", an incomplete one");
		else
			capture_say(cap, "warning: cannot remove old dump %s: %s",
				    names[i], strerror(-r));
	}
	(void)fsync(bfd);
out:
	dump_list_free(names, n);
	free(complete);
	free(rm);
	close(bfd);
}

/*
 * One directory per crash, named by the crash time (UTC) as the crashed
 * kernel's VMCOREINFO gives it, as the SSH collector names its own
 * (phase_ssh_begin()); by the time the capture began when it gives none.
 * In cap->dir and cap->dir_fd (dump_dir_create()).
 */
static int dump_dir_make(struct capture *cap, int bfd)
{
	struct capture_vmcoreinfo vi;
	char name[DUMP_NAME_MAX];
	int r;

	(void)capture_vmcoreinfo(cap, &vi);
	r = dump_dir_create(bfd,
			    vi.crash_time >= 0 ? vi.crash_time :
						 (long long)time(NULL),
			    0700, name, sizeof(name), &cap->dir_fd);
	if (r < 0)
		return capture_fail(cap, r, "cannot create a dump directory in %s: %s",
				    cap->base, strerror(-r));
	if (path_format(cap->dir, sizeof(cap->dir), "%s/%s", cap->base,
			name) < 0)
		return capture_fail(cap, -ENAMETOOLONG, "the dump directory %s/%s is longer than a path takes",
				    cap->base, name);
	return 0;
}

/* The dump directory below path, private to root, and its files' names. */
int phase_dump_dir(struct capture *cap)
{
	const char *path = cap->conf.path;
	char m[sizeof(cap->meta) + 1], what[64];
	struct safe_violation bad;
	int bfd = -1, r;

	umask(0077);
	/* An NFS export: this machine's host dir in it (net.c). */
	if (cap->conf.net == CONF_NET_NFS)
		snprintf(cap->base, sizeof(cap->base), "%s/%s", cap->paths.mnt,
			 cap->net.hostdir);
	else
		snprintf(cap->base, sizeof(cap->base), "%s%s", cap->paths.mnt,
			 strcmp(path, "/") ? path : "");
	/*
	 * A local dump directory passes load's check (dump_base_check()) on
	 * the same filesystem: checked again here, on the descriptor the
	 * dump directory is made below, in case the way to it changed since.
	 * An NFS export's directories belong to whom the server maps root
	 * to; load checked that export its own way (net_dir_check()).
	 */
	if (cap->conf.net == CONF_NET_NFS) {
		r = mkdir_p(cap->base, 0700);
		if (r == 0) {
			bfd = open(cap->base, O_RDONLY | O_DIRECTORY |
						      O_CLOEXEC);
			if (bfd < 0)
				r = -errno;
		}
	} else {
		r = safe_open(cap->base, SAFE_CREATE | SAFE_LEAF_NOLINK, &bad,
			      &bfd);
	}
	if (r == -EPERM)
		return capture_fail(cap, r, "refusing to save to %s: %s is %s, and a dump directory must be root's alone",
				    cap->base, bad.path,
				    safe_fault_text(&bad, what, sizeof(what)));
	if (r < 0)
		return capture_fail(cap, r, "cannot create %s: %s", cap->base,
				    strerror(-r));
	capture_retention(cap, cap->base, cap->conf.keep);
	r = dump_dir_make(cap, bfd);
	close(bfd);
	if (r < 0)
		return r;
	r = capture_dump_names(cap);
	if (r < 0)
		return capture_fail(cap, r, "the dump's files in %s are longer than a path takes",
				    cap->dir);
	capture_say(cap, "saving to %s", capture_rel(cap, cap->dir));
	snprintf(m, sizeof(m), "@%s", cap->meta);
	capture_step(cap, m);
	return 0;
}

int phase_unmount(struct capture *cap)
{
	/* Nothing of the target may stay open, or it stays mounted. */
	if (cap->dir_fd >= 0)
		close(cap->dir_fd);
	cap->dir_fd = -1;
	if (!cap->mounted)
		return 0;
	capture_step(cap, "unmounting the target");
	sync();
	if (umount(cap->paths.mnt) < 0)
		capture_say(cap, "warning: cannot unmount %s: %s",
			    cap->paths.mnt, strerror(errno));
	cap->mounted = false;
	return 0;
}
