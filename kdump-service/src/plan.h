/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The load plan: what a load would do, made from the configuration and the
 * running system (the kernel release, the dump target's device and drivers,
 * the pstore backend and watchdog, /proc/cmdline).  Every verb that loads,
 * builds or shows the capture reads one.  Nothing here prints: a failure
 * leaves its message in the plan, and the caller says it.
 */
#ifndef KDUMP_FILE_PLAN_H
#define KDUMP_FILE_PLAN_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "cmdline.h"
#include "conf.h"
#include "devchain.h"
#include "diag.h"
#include "estimate.h"
#include "initramfs.h"
#include "kexec.h"
#include "netplan.h"

#define SYS_WATCHDOG "/sys/class/watchdog/watchdog0"

/* What the plan is made for. */
struct plan_input {
	const char *config;	/* the configuration file, named in messages */
	const char *kver;	/* another installed kernel's release, or NULL */
	bool create;		/* make the dump directory (load, rebuild, setup) */
};

/* Everything load, show and rebuild derive from the configuration. */
struct plan {
	char config[PATH_MAX];	/* the configuration file, for messages */
	struct kdump_conf conf;
	struct kdump_conf capture; /* as the capture kernel will see it */
	char release[65];
	char kernel[PATH_MAX];
	char initramfs[PATH_MAX];
	bool initramfs_managed; /* ours to build (not a user override) */
	char capture_conf_text[16384];
	char cmdline[CMDLINE_KERNEL_MAX * 2];
	/* What the capture loads and activates to reach the target. */
	struct devchain chain;
	bool chain_known;
	char chain_what[PATH_MAX];	/* the device it was resolved for */
	char chain_text[4096];		/* as the capture reads it */
	char chain_drivers[4096];	/* the chain's, helpers', extra modules */
	/*
	 * The module plan the capture loads from (modplan.h): the names it
	 * is made for (chain_drivers and the drivers bound to every disk and
	 * NIC), the modules it holds with their dependencies and softdeps
	 * (for dracut --add-drivers), how many, their files' bytes, and its
	 * size and CRC for the initramfs fingerprint.
	 */
	char modplan_names[8192];
	char modplan_drivers[16384];
	unsigned int modplan_count;
	unsigned long long modplan_bytes;
	char modplan_id[96];
	/* The helpers' modules, "" when none, " (built in)" appended if so. */
	char pstore[96];		/* keeps a failed capture's record */
	bool pstore_ram;		/* ...in RAM (ramoops), not EFI variables */
	char cmdline_pstore[512];	/* ramoops' layout for the capture kernel */
	unsigned int auto_timeout;	/* capture_timeout chosen here, or 0 */
	/*
	 * makedumpfile's threads in the capture (plan_threads()): on the
	 * command line, as nr_cpus= and CONF_CMDLINE_THREADS, when more
	 * than one.
	 */
	struct threads_choice threads;
	char watchdog[96];		/* resets a capture that hangs */
	/* The hooks and extra binaries, blank-separated, for dracut. */
	char extra_files[3 * CONF_VALUE_MAX + 4];
	/*
	 * What the initramfs fingerprint covers besides: extra_files, and an
	 * ssh target's key and known_hosts (the dracut module installs them).
	 */
	char fingerprint_files[5 * CONF_VALUE_MAX + 8];
	/* A network target: the way to the collector, the fallback. */
	struct net_plan net;
	bool net_known;
	bool net_failed;	/* the collector's address or route not found */
	char fallback_spec[CONF_VALUE_MAX];	/* "" for no fallback */
	char fallback_rel[CONF_VALUE_MAX];
	/*
	 * A local target on an iSCSI disk: the way to its portal, which the
	 * capture brings up before it logs in (the chain's net line).
	 */
	struct net_plan iscsi_net;
	bool iscsi_known;
	/* 'target' names a device not attached now (load goes on without it). */
	bool target_absent;
	/*
	 * What the caller says: the warnings whatever the result, and on
	 * failure the error (diag.h).
	 */
	struct diag diag;
};

/*
 * What the chain's md arrays, LUKS and multipath devices and iSCSI
 * sessions add to the estimate.
 */
unsigned long long plan_md_bytes(const struct plan *p);
unsigned long long plan_luks_bytes(const struct plan *p);
unsigned long long plan_mpath_bytes(const struct plan *p);
unsigned long long plan_iscsi_bytes(const struct plan *p);
/* Whether a LUKS device's key slot needs Argon2's memory in the capture. */
bool plan_luks_kdf(const struct plan *p);

/*
 * What the capture of *p needs in crashkernel memory (estimate_capture()),
 * from the opened capture kernel and initramfs (-1: none): this system's
 * RAM, the module plan's bytes and the target's kind.
 */
int plan_estimate(const struct plan *p, int kernel_fd, int initramfs_fd,
		  struct estimate *ret);

/*
 * Make *p from conf and the running system.  Returns 0, or a negative
 * errno with p->diag saying what failed and what to do.
 */
int plan_make(struct plan *p, const struct kdump_conf *conf,
	      const struct plan_input *in);

/*
 * Choose makedumpfile's threads (estimate_threads()) for the capture
 * kernel and initramfs open as kernel_fd and initramfs_fd (-1: not built
 * yet), the reservation now and the CPUs online, and make the command line
 * again for them.  plan_make() chooses them from the files as it finds
 * them; load chooses again from those it loads.  Returns 0, or a negative
 * errno with p->diag set when the command line does not fit.
 */
int plan_threads(struct plan *p, int kernel_fd, int initramfs_fd);

/* What plan_check() found; the first PLAN_PROBLEMS_MAX are said. */
#define PLAN_PROBLEMS_MAX 8
struct plan_problems {
	unsigned int n;		/* how many, including those not kept */
	int first;		/* the first one's negative errno */
	char text[PLAN_PROBLEMS_MAX][PATH_MAX + 512];
};

/*
 * What would stop a load of p, or make its capture fail, that the plan
 * itself does not refuse: a capture kernel that is missing, not a bzImage
 * kexec_file_load takes, or cut short; a configured initramfs missing or
 * corrupt; a capture kernel or initramfs others may write; 'kernel' of
 * another release than the initramfs kdump-file builds; a dump target not
 * attached.  One line each in *problems (filled whatever the result);
 * returns 0 when there is none, else the first one's negative errno.  The
 * reservation is not the plan's: status says it.
 */
int plan_check(const struct plan *p, struct plan_problems *problems);

/*
 * Whether dump directory base is safe for root to read dumps from:
 * -EPERM when others may write it, -ENOENT when missing (no message: the
 * caller knows whether it must be there), another negative errno when it
 * cannot be checked; d says which.
 */
int plan_check_dump_base(const char *base, const char *config,
			 struct diag *d);

/*
 * The driver of the machine's hardware watchdog, for the capture kernel
 * (km over its modules), from sysfs at sysfs ("/sys"): the first device
 * on the PCI bus, then on the platform bus, by name, whose modalias
 * resolves to a module under kernel/drivers/watchdog/; else watchdog0's
 * driver.  The hardware comes first, so that the answer does not depend
 * on whether udev has loaded the driver yet.  -ENOENT when there is none.
 */
int plan_watchdog_driver(struct modload *km, const char *sysfs, char *ret,
			 size_t size);

/* What the plan's initramfs is to the next load: current, out of date... */
const char *plan_initramfs_state(const struct plan *p);

/*
 * The module files the capture may load (the module plan's: the target's,
 * the helpers', extra_modules, the drivers of every disk and NIC, with
 * what they need; 0 when all are built in), for the estimate: a modular
 * kernel holds them again, loaded.
 */
unsigned long long plan_modules_bytes(const struct plan *p);

/*
 * The module plan's text (JSON, modplan.h) for p->modplan_names, in
 * *ret (free it); p->diag says why on failure.
 */
int plan_modplan_text(struct plan *p, char **ret);

/* System RAM as the crashed kernel will have it: MemTotal + the reservation. */
unsigned long long plan_system_ram(void);

/* "world-writable", "owned by uid 1000"...: why bad was refused. */
const char *plan_violation_text(const struct input_violation *bad);

/*
 * A warning in p when the identity load records for raw dump device dev
 * is easy to copy: a kernel name, or a partition UUID on a disk without a
 * serial number or WWID.
 */
struct target_identity;
void plan_raw_identity_warn(struct plan *p, const char *dev,
			    const struct target_identity *id);

/*
 * Name to the running kernel the LUKS device whose volume key it hands to
 * the crash kernel at the next kexec_file_load(2) ("none" when the plan
 * has none), written into ret_dev (MAJ:MIN or "none") when not NULL.
 * -EOPNOTSUPP when the plan wants one and this kernel has no such file;
 * otherwise the write's errno (-ENODEV, -ENOKEY, -EOPNOTSUPP: the kernel's
 * refusal of that device).
 */
int plan_crypt_select(const struct plan *p, char *ret_dev, size_t size);

#endif
