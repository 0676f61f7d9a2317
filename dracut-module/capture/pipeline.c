// SPDX-License-Identifier: GPL-2.0
/*
 * The phase table and its runner, the state's defaults, and the ways a
 * phase tells the world what it does: capture_say() to the reporter,
 * capture_fail() for its failure, and capture_step() to the deadline
 * process.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "capture.h"
#include "modplan.h"
#include "dumpdir.h"
#include "util.h"

/*
 * dmesg before the vmcore: small, and the most useful part of a dump.  The
 * record, the post hooks, the unmount and the action run whatever failed
 * before them, each doing nothing when what it needs was not made.  A
 * network target first brings up its NIC; an NFS export is then mounted
 * and written like a local filesystem, while an ssh dump keeps its small
 * files in a local staging directory and sends each to the collector once
 * written.  When the network, the NFS mount or ssh's begin fails and
 * fallback is set, the kind becomes LOCAL (net.c) and the local phases
 * that follow take over.  A local or raw target on an iSCSI disk first
 * brings up the NIC to its portal and logs in (iscsi.c).
 */
const struct capture_phase capture_phases[] = {
	{ "configuration", phase_config, PHASE_ANY },
	{ "helpers", phase_helpers, PHASE_ANY },
	{ "deadline", phase_deadline, PHASE_ANY },
	{ "extra modules", phase_extra_modules, PHASE_ANY },
	{ "network", phase_network, PHASE_NET },
	{ "mount", phase_nfs_mount, PHASE_NFS },
	{ "ssh begin", phase_ssh_begin, PHASE_SSH },
	{ "iscsi", phase_iscsi, PHASE_LOCAL | PHASE_RAW },
	{ "target", phase_target, PHASE_LOCAL },
	{ "mount", phase_mount, PHASE_LOCAL },
	{ "dump directory", phase_dump_dir, PHASE_FILE },
	{ "pre hooks", phase_pre_hooks, PHASE_FILE | PHASE_SSH },
	{ "dmesg", phase_dmesg, PHASE_FILE | PHASE_SSH },
	{ "ssh dmesg", phase_ssh_dmesg, PHASE_SSH },
	{ "vmcore", phase_vmcore, PHASE_FILE },
	{ "ssh vmcore", phase_ssh_vmcore, PHASE_SSH },
	{ "record", phase_record, PHASE_FILE | PHASE_SSH | PHASE_ALWAYS },
	{ "post hooks", phase_post_hooks, PHASE_FILE | PHASE_SSH | PHASE_ALWAYS },
	{ "ssh record", phase_ssh_record, PHASE_SSH | PHASE_ALWAYS },
	{ "unmount", phase_unmount, PHASE_FILE | PHASE_ALWAYS },
	{ "raw device", phase_raw_open, PHASE_RAW },
	{ "raw dmesg", phase_raw_dmesg, PHASE_RAW },
	{ "raw vmcore", phase_raw_vmcore, PHASE_RAW },
	{ "raw header", phase_raw_close, PHASE_RAW | PHASE_ALWAYS },
	{ "action", phase_action, PHASE_ANY | PHASE_ALWAYS },
	{ NULL, NULL, 0 },
};

unsigned int capture_kind(const struct capture *cap)
{
	if (cap->conf.raw[0])
		return PHASE_RAW;
	switch (cap->conf.net) {
	case CONF_NET_SSH:
		return PHASE_SSH;
	case CONF_NET_NFS:
		return PHASE_NFS;
	default:
		return PHASE_LOCAL;
	}
}

int capture_run(struct capture *cap, const struct capture_phase *phases)
{
	bool done = false;

	for (const struct capture_phase *p = phases; p->run; p++) {
		/*
		 * Which target is known once the configuration is read, and
		 * changes when the fallback takes over.
		 */
		unsigned int kind = capture_kind(cap);
		int r;

		if (!(p->flags & kind))
			continue;
		if ((cap->result < 0 || done) && !(p->flags & PHASE_ALWAYS))
			continue;
		r = p->run(cap);
		if (r > 0)
			done = true;
		else if (r < 0 && cap->result == 0) {
			cap->result = r;
			snprintf(cap->fail_step, sizeof(cap->fail_step), "%s",
				 cap->stop_step[0] ? cap->stop_step : cap->step);
			/*
			 * A phase that failed without capture_fail(): its
			 * errno alone (when it did, the first one stays).
			 */
			(void)diag_fail(&cap->diag, r, NULL);
		}
	}
	return cap->result;
}

static unsigned long long statvfs_free_bytes(const char *path)
{
	struct statvfs sv;

	if (statvfs(path, &sv) < 0)
		return 0;
	return (unsigned long long)sv.f_bavail * sv.f_frsize;
}

void capture_init(struct capture *cap)
{
	memset(cap, 0, sizeof(*cap));
	conf_init(&cap->conf);
	cap->paths = (struct capture_paths){
		.conf = "/etc/kdump-file/capture.conf",
		.chain = "/etc/kdump-file/chain",
		.modplan = "/etc/kdump-file/modules.json",
		.vmcore = "/proc/vmcore",
		.cmdline = "/proc/cmdline",
		.mnt = "/kdump-target",
		.makedumpfile = "makedumpfile",
		.tmp = "/tmp",
		.modules_dir = "/lib/modules",
		.sys_devices = "/sys/devices",
		.proc_modules = "/proc/modules",
		.meminfo = "/proc/meminfo",
		.kmsg = "/dev/kmsg",
		.watchdog = "/dev/watchdog0",
		.always_kmsg_dump = "/sys/module/printk/parameters/always_kmsg_dump",
		.pstore_backend = "/sys/module/pstore/parameters/backend",
		.sys_class_net = "/sys/class/net",
		.ssh = "ssh",
		.shell = "/bin/sh",
		.net_stage = "/tmp/kdump-file-net",
		.sys_class_block = "/sys/class/block",
		.dev = "/dev",
	};
	cap->t_start = now_ms();
	snprintf(cap->step, sizeof(cap->step), "starting");
	cap->wd_fd = -1;
	cap->step_fd = -1;
	cap->raw_fd = -1;
	cap->raw_settle_ms = RAW_SETTLE_MS;
	cap->dir_fd = -1;
	cap->action_taken = -1;
	cap->free_bytes = statvfs_free_bytes;
	cap->net.vmcore_bytes = -1;
	cap->net_ioctl = capture_net_ioctl;
	cap->net_ip = capture_net_ip;
	cap->mount = mount;
}

void capture_done(struct capture *cap)
{
	if (cap->step_fd >= 0)
		close(cap->step_fd);
	cap->step_fd = -1;
	if (cap->raw_fd >= 0)
		close(cap->raw_fd);
	cap->raw_fd = -1;
	if (cap->dir_fd >= 0)
		close(cap->dir_fd);
	cap->dir_fd = -1;
	if (cap->wd_fd >= 0)
		watchdog_disarm(cap);
	modplan_free(cap->kmods);
	cap->kmods = NULL;
}

void capture_say(struct capture *cap, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (cap->report)
		cap->report(cap, msg);
}

static int __attribute__((format(printf, 4, 0)))
capture_diag_failv(struct capture *cap, struct diag *d, int error,
		   const char *fmt, va_list ap)
{
	char msg[DIAG_MSG_MAX];

	/* Formatted here: d keeps an earlier failure, this one is said. */
	(void)text_vformat(msg, sizeof(msg), fmt, ap);
	capture_say(cap, "error: %s", msg);
	return diag_fail(d, error, "%s", msg);
}

int capture_diag_fail(struct capture *cap, struct diag *d, int error,
		      const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = capture_diag_failv(cap, d, error, fmt, ap);
	va_end(ap);
	return r;
}

int capture_fail(struct capture *cap, int error, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = capture_diag_failv(cap, &cap->diag, error, fmt, ap);
	va_end(ap);
	return r;
}

void capture_step(struct capture *cap, const char *what)
{
	if (what[0] != '@')
		snprintf(cap->step, sizeof(cap->step), "%s", what);
	if (cap->step_fd >= 0)
		(void)!write(cap->step_fd, what, strlen(what) + 1);
}

const char *capture_rel(const struct capture *cap, const char *path)
{
	size_t n = strlen(cap->paths.mnt);

	return strncmp(path, cap->paths.mnt, n) == 0 ? path + n : path;
}

int capture_dump_names(struct capture *cap)
{
	if (path_format(cap->dmesg, sizeof(cap->dmesg), "%s/" DUMP_DMESG,
			cap->dir) < 0 ||
	    path_format(cap->inc, sizeof(cap->inc),
			"%s/" DUMP_VMCORE_INCOMPLETE, cap->dir) < 0 ||
	    path_format(cap->core, sizeof(cap->core), "%s/" DUMP_VMCORE,
			cap->dir) < 0 ||
	    path_format(cap->meta, sizeof(cap->meta), "%s/" DUMP_METADATA,
			cap->dir) < 0)
		return -ENAMETOOLONG;
	return 0;
}
