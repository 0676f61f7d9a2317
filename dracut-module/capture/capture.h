/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The capture as a pipeline of phases over one state, struct capture:
 * configuration, deadline and watchdog, drivers, the target (mounted, or a
 * raw device), dmesg, vmcore, hooks, the record, the final action.  Each
 * phase returns 0 or a negative errno and says what it does through
 * capture_say(), which hands each line to the state's reporter: only the
 * reporter (main.c) prints.  Every path the capture reads or writes comes
 * from the state, so that the phases run on the host against a temporary
 * directory.
 *
 * How a failure travels (one carrier, as everywhere: lib/src/diag.h): the
 * code that knows the object and the cause returns
 * capture_fail(cap, -ERRNO, "MESSAGE"), which records it in cap->diag and
 * says "error: MESSAGE".  The first failure wins: a cleanup failing after
 * it does not replace it.  The failure record (phase_action()) names
 * cap->diag; a line said is never read back for it.  A step whose
 * failure its caller judges (a network step the fallback may replace, a
 * hook, an ssh request) fills a struct diag of the caller's instead.
 */
#ifndef KDUMP_FILE_CAPTURE_H
#define KDUMP_FILE_CAPTURE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "conf.h"
#include "diag.h"
#include "hook.h"
#include "rawdump.h"

/* What a shell action exits with when the capture is not PID 1 (tests). */
#define CAPTURE_EXIT_SHELL 99

struct capture_paths {
	const char *conf;		/* /etc/kdump-file/capture.conf */
	const char *chain;		/* /etc/kdump-file/chain */
	const char *modplan;		/* /etc/kdump-file/modules.json */
	const char *vmcore;		/* /proc/vmcore */
	const char *cmdline;		/* /proc/cmdline */
	const char *mnt;		/* where the target is mounted */
	const char *makedumpfile;	/* run for dmesg and vmcore */
	const char *tmp;		/* a raw dump's dmesg passes through it */
	const char *modules_dir;	/* /lib/modules */
	const char *sys_devices;	/* /sys/devices, for the driver rounds */
	const char *proc_modules;	/* /proc/modules */
	const char *meminfo;		/* /proc/meminfo */
	const char *kmsg;		/* /dev/kmsg */
	const char *watchdog;		/* /dev/watchdog0 */
	const char *always_kmsg_dump;	/* printk's always_kmsg_dump */
	const char *pstore_backend;	/* pstore's backend parameter */
	const char *sys_class_net;	/* /sys/class/net */
	const char *ssh;		/* run for an ssh:// target */
	const char *shell;		/* /bin/sh, for failure_action = shell */
	const char *net_stage;		/* an ssh dump's local files */
	const char *sys_class_block;	/* /sys/class/block */
	const char *dev;		/* /dev, the nodes of its names */
};

/*
 * A network target: what the chain says (kdump-file(8) resolved it at
 * load time: the capture has no DNS and no udev) and what was set up.
 */
/* The most NICs the chain names (a bond's members). */
#define CAPTURE_NIC_MAX 4

/* A NIC of the chain's "nic MAC DRIVER DEVPATH" lines. */
struct capture_nic {
	char mac[18];
	char driver[64];		/* "-": not recorded */
	char devpath[192];		/* under /sys/devices; "-": none */
	char ifname[16];		/* found in this kernel; "": not */
};

struct capture_net {
	char mac[18];			/* of the interface addressed */
	char addr[46];			/* our IPv4 or IPv6 address */
	unsigned int prefix;
	char gateway[46];		/* "-": the collector is on-link */
	char collector[46];		/* the collector's address */
	int family;			/* AF_INET or AF_INET6, of addr */
	/* The links under the address, as the chain names them. */
	struct capture_nic nics[CAPTURE_NIC_MAX];
	unsigned int n_nics;
	char bond[16];			/* "": none */
	char bond_mode[32];
	unsigned int bond_miimon;
	char bond_mac[18];
	char vlan[16];			/* "": none */
	unsigned int vlan_id;
	unsigned int mtu;		/* 0: as the NIC comes */
	char hostdir[256];		/* this machine's dir on the collector */
	char fallback_spec[CONF_VALUE_MAX];	/* fallback's filesystem */
	char fallback_path[CONF_VALUE_MAX];	/* its directory in it */
	char ifname[16];		/* the NIC's name in this kernel */
	char url[CONF_VALUE_MAX];	/* the target as configured */
	/* Why the fallback was used, "" when it was not. */
	char fallback_reason[256];
	char name[32];			/* the dump's NAME on the collector */
	long long vmcore_bytes;		/* the collector's "ok BYTES", -1 */
	/*
	 * How long the link took (address set, carrier and operstate up)
	 * and the route to the collector, in ms.
	 */
	unsigned long long t_link, t_addr;
};

struct capture_hook {
	const char *phase;	/* "pre" or "post" */
	char path[256];
	struct hook_result res;
};

struct capture_module {
	char name[64];
	int error;		/* errno, 0 when loaded or already there */
};

struct modplan;
struct modplan_ops;

/* An md RAID array of the chain, assembled by raid_step(). */
#define CAPTURE_MD_MAX 4
struct capture_md {
	char uuid[40];		/* as md's sysfs has it */
	char mdadm_uuid[40];	/* as mdadm takes it */
	unsigned long long since;	/* first seen short of members */
	bool done, run_said;
};

/* A LUKS device of the chain, unlocked by crypt_step(). */
#define CAPTURE_CRYPT_MAX 2
struct capture_crypt {
	char uuid[40];		/* the LUKS header's */
	char name[128];		/* /dev/mapper/NAME */
	bool kernel;		/* the key the kernel hands over */
	/* Or crypttab's key file: its slot, offset and size (0: all). */
	int slot;
	unsigned long long offset, size;
	char fs_uuid[40], fs_type[16];	/* the filesystem holding it */
	char path[256];		/* its path there */
	bool done;
};

/* A multipath device of the chain, made by mpath_step(). */
#define CAPTURE_MPATH_MAX 2
struct capture_mpath {
	char uuid[136];		/* dm uuid: mpath-... */
	char name[128];		/* dm name */
	char wwid[256];		/* its paths' device/wwid */
	unsigned long long sectors;
	unsigned int n_paths;	/* at load time */
	unsigned long long since;	/* first looked for */
	bool done, none_said;
};

struct capture {
	struct kdump_conf conf;
	struct capture_paths paths;
	/* PID 1 of the capture initramfs; false on the host and in tests. */
	bool is_init;

	/* Times (now_ms()): start, target found; durations of the saves. */
	unsigned long long t_start, t_dev, t_dmesg, t_core;
	/* When capture_timeout passes, 0: none. */
	unsigned long long deadline_end;

	/* The step running, for the failure record and the deadline. */
	char step[128];
	/* The step a stopping hook ran in. */
	char stop_step[128];
	/*
	 * The capture's failure: errno and message, from capture_fail() (the
	 * first one wins) or, for a phase that failed without saying why,
	 * its errno alone (capture_run()).
	 */
	struct diag diag;
	/*
	 * Why the dump is not complete, for metadata.json ("" when it is):
	 * the cause alone, where the failure's message also says what was
	 * lost and what was kept.
	 */
	char reason[256];
	/* The pipeline's result: 0 or the first phase's negative errno. */
	int result;
	/*
	 * The step when result was set: what the failure record names, not
	 * what later cleanup phases did.
	 */
	char fail_step[128];
	/* There is no vmcore: not a capture kernel, nothing to do. */
	bool no_vmcore;
	/* A hook failed with hook_failure = stop. */
	bool pre_stopped, post_stopped;

	/*
	 * Drivers: the module plan (PID 1 only; NULL until read, and when
	 * there is none for this kernel), how it reaches the kernel (NULL:
	 * finit_module(2)), and the progress.
	 */
	struct modplan *kmods;
	const struct modplan_ops *kmod_ops;
	bool kmods_tried;
	bool chain_done;
	unsigned long long next_lvm, rounds_from;
	struct capture_mpath mpaths[CAPTURE_MPATH_MAX];
	unsigned int n_mpaths;
	bool mpaths_read;
	struct capture_md mds[CAPTURE_MD_MAX];
	unsigned int n_mds;
	bool mds_read;
	struct capture_crypt crypts[CAPTURE_CRYPT_MAX];
	unsigned int n_crypts;
	bool crypts_read;
	bool crypt_opened;	/* a device unlocked since the last look */
	struct capture_module extra[CONF_LIST_MAX];
	unsigned int n_extra;

	/* The hardware watchdog, -1 when not armed. */
	int wd_fd;
	/* The write end of the pipe to the deadline process, -1: none. */
	int step_fd;

	struct capture_hook hooks[2 * CONF_LIST_MAX];
	unsigned int n_hooks;

	/* The target: device, filesystem, the dump's directory and files. */
	char dev[PATH_MAX], fstype[32];
	bool mounted;
	char base[PATH_MAX], dir[PATH_MAX + 8];
	/* The dump directory, open (dump_dir_create()); -1 when not made. */
	int dir_fd;
	char dmesg[PATH_MAX + 16], inc[PATH_MAX + 32], core[PATH_MAX + 16];
	char meta[PATH_MAX + 32];

	/* A raw target: its open device and the header written last. */
	int raw_fd;
	unsigned long long raw_size;
	struct raw_header raw;
	/*
	 * How long the count of the devices carrying the raw device's
	 * identity waits after the first is seen (RAW_SETTLE_MS; less in
	 * tests).
	 */
	unsigned int raw_settle_ms;

	/* What main() returns when the action did not end the system. */
	int exit_status;
	/* The action taken, for tests; -1 until one is. */
	int action_taken;

	/* The reporter: the only code that prints. */
	void (*report)(struct capture *cap, const char *line);
	/* A hook's output, as it comes. */
	void (*output)(struct capture *cap, const char *buf, size_t n);
	/* reboot(2), replaced in tests. */
	int (*reboot)(int cmd);
	/* Free space below path in bytes, replaced in tests. */
	unsigned long long (*free_bytes)(const char *path);

	struct capture_net net;
	/* ioctl(2) on an AF_INET socket, replaced in tests. */
	int (*net_ioctl)(unsigned long req, void *arg);
	/*
	 * ip(8) with argv (argv[0] "ip"): 0, or a negative errno with what
	 * it said in d; replaced in tests.
	 */
	int (*net_ip)(struct capture *cap, char *const argv[], struct diag *d);
	/* mount(2) of the NFS export, replaced in tests. */
	int (*mount)(const char *src, const char *target, const char *fstype,
		     unsigned long flags, const void *data);
};

/* The state with the capture kernel's paths and no reporter. */
void capture_init(struct capture *cap);
void capture_done(struct capture *cap);

/* Say a line through the reporter. */
void capture_say(struct capture *cap, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * The capture failed: record error (negative errno) and the message in
 * cap->diag unless a failure is there already, say "error: MESSAGE", and
 * return error.
 */
int capture_fail(struct capture *cap, int error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * The same into d, a failure that is not (yet) the capture's: a hook's,
 * which the caller makes the capture's or not.  d may be NULL: said only.
 */
int capture_diag_fail(struct capture *cap, struct diag *d, int error,
		      const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/*
 * The step running now, told to the deadline process too; "@PATH" tells it
 * the dump's metadata.json instead.
 */
void capture_step(struct capture *cap, const char *what);
/*
 * The dump's files' names (dmesg, incomplete, vmcore, metadata) in the
 * dump directory cap->dir: 0, or -ENAMETOOLONG when one does not fit.
 */
int capture_dump_names(struct capture *cap);
/* path below the mount point, as said to the user. */
const char *capture_rel(const struct capture *cap, const char *path);

struct capture_phase {
	const char *name;
	int (*run)(struct capture *cap);
	unsigned int flags;
};

/*
 * The kind of dump a phase is for; the runner chooses one kind from the
 * configuration, and LOCAL once the fallback takes over from a network
 * target.
 */
#define PHASE_LOCAL	(1U << 0)	/* a dump to a local filesystem */
#define PHASE_NFS	(1U << 1)	/* to an NFS export, mounted */
#define PHASE_SSH	(1U << 2)	/* to a collector, through ssh */
#define PHASE_RAW	(1U << 3)	/* to a raw device */
#define PHASE_ALWAYS	(1U << 4)	/* runs after a failure too */
#define PHASE_FILE	(PHASE_LOCAL | PHASE_NFS)	/* a mounted filesystem */
#define PHASE_NET	(PHASE_NFS | PHASE_SSH)		/* a network target */
#define PHASE_ANY	(PHASE_FILE | PHASE_SSH | PHASE_RAW)

/* The capture's phases, in order, ending with a NULL run. */
extern const struct capture_phase capture_phases[];
/* The kind of dump the state is for now: one of PHASE_LOCAL ... RAW. */
unsigned int capture_kind(const struct capture *cap);
/*
 * Run the phases in order: after one fails only PHASE_ALWAYS ones run;
 * one returning > 0 ends the capture with nothing to do.  Returns
 * cap->result.
 */
int capture_run(struct capture *cap, const struct capture_phase *phases);

/* config.c */
int phase_config(struct capture *cap);
unsigned int capture_cmdline_timeout(const char *cmdline);
/* makedumpfile's threads from the command line, 1 without them. */
unsigned int capture_cmdline_threads(const char *cmdline);

/* action.c: deadline, watchdog, final action */
int phase_deadline(struct capture *cap);
int phase_action(struct capture *cap);
int capture_action(struct capture *cap, enum conf_action a);
void watchdog_arm(struct capture *cap, const char *name);
void watchdog_disarm(struct capture *cap);

/* drivers.c */
int phase_helpers(struct capture *cap);
int phase_extra_modules(struct capture *cap);
void drivers_step(struct capture *cap);
/* mpath.c: one try at each multipath device of the chain not yet made. */
void mpath_step(struct capture *cap);
/* Whether a multipath device of the chain is not made yet. */
bool mpath_pending(struct capture *cap);
/* Whether whole disk name is a path of a multipath device not made yet. */
bool mpath_pending_path(struct capture *cap, const char *name);
/* A chain line "mpath ..."; -EINVAL if not one. */
int mpath_parse_line(const char *line, struct capture_mpath *ret);
/* dm-multipath's table arguments over the n paths devs ("MAJ:MIN"). */
int mpath_table(const char devs[][16], unsigned int n, char *buf, size_t size);
/*
 * The DM_TABLE_LOAD buffer of map m with those arguments into buf: its
 * length (a multiple of 8), or -ENOBUFS when size bytes are too few.
 */
int mpath_load_buffer(const struct capture_mpath *m, const char *params,
		      void *buf, size_t size);
/* raid.c: one try at each md array of the chain not yet running. */
void raid_step(struct capture *cap);
/* md's "8-4-4-4-12" UUID as mdadm's "8:8:8:8"; -EINVAL if not one. */
int raid_mdadm_uuid(const char *uuid, char *buf, size_t size);
/* crypt.c: one try at each LUKS device of the chain not yet unlocked. */
void crypt_step(struct capture *cap);
/* A chain line "luks ..." (without its newline); -EINVAL if not one. */
int crypt_parse_line(const char *line, struct capture_crypt *ret);
struct modplan *capture_kmods(struct capture *cap);
void drivers_summary(struct capture *cap);

/* target.c */
int capture_wait_device(struct capture *cap, const char *spec, char *dev,
			size_t size, char *fstype, size_t fsize);
int phase_target(struct capture *cap);
int phase_mount(struct capture *cap);
int phase_dump_dir(struct capture *cap);
int phase_unmount(struct capture *cap);
void capture_retention(struct capture *cap, const char *base,
		       unsigned int keep);

/* save.c */
int phase_dmesg(struct capture *cap);
int phase_vmcore(struct capture *cap);
struct process_result;
int capture_exec(struct capture *cap, char *argv[], int stdout_fd,
		 struct process_result *ret);
bool capture_run_failed(int r, const struct process_result *res, char *buf,
			size_t size);
int capture_makedumpfile_text(struct capture *cap, const char *out,
			      const char *workdir, char *buf, size_t size);

/* net.c */
int phase_network(struct capture *cap);
/*
 * A chain's line of the network way into n: "nic MAC DRIVER DEVPATH",
 * "bond NAME MODE MIIMON MAC", "vlan NAME ID", "mtu N" (0 when its values
 * are not valid, else 2), or "net MAC ADDR/PREFIX GATEWAY" (1, or 0 when
 * its values are not valid); -ENOENT for another line.
 */
int capture_net_link_line(const char *line, struct capture_net *n);
/*
 * The NIC with n's MAC found (loading drivers meanwhile), up with n's
 * address, a host route to n->collector (peer in words: "collector",
 * "iSCSI portal") through the gateway, all within net_timeout; why says
 * what failed.
 */
int capture_net_up(struct capture *cap, const char *peer, struct diag *why);
/*
 * A local target on an iSCSI disk (the chain's iscsi and net lines): the
 * network up to the portal, then iscsistart logs in to the target.
 * Nothing for a chain without an iscsi line.
 */
int phase_iscsi(struct capture *cap);
int phase_nfs_mount(struct capture *cap);
int phase_ssh_begin(struct capture *cap);
int phase_ssh_dmesg(struct capture *cap);
int phase_ssh_vmcore(struct capture *cap);
int phase_ssh_record(struct capture *cap);
/* The real net_ioctl: req on a socket of its own. */
int capture_net_ioctl(unsigned long req, void *arg);

/* The real net_ip: ip(8) run, its output said. */
int capture_net_ip(struct capture *cap, char *const argv[], struct diag *d);
/* The mount(2) options of the NFS export (nfs_version's). */
int capture_nfs_options(const struct capture *cap, unsigned int minor,
			char *buf, size_t size);
/* An ssh command line: the options of every ssh the product runs. */
#define CAPTURE_SSH_ARGV_MAX 32
struct capture_ssh {
	char key[CONF_VALUE_MAX], known[CONF_VALUE_MAX + 32];
	char alias[300], timeout[48], port[16], dest[128], request[300];
	char *argv[CAPTURE_SSH_ARGV_MAX];
};
int capture_ssh_argv(const struct capture *cap, const char *request,
		     struct capture_ssh *ret);

/* raw.c */
/*
 * USB mass storage scans a new stick after delay_use, 1 s by default
 * (drivers/usb/storage/usb.c), and SCSI scans its targets asynchronously:
 * 3 s after the first device seen, a second one brought up by the same
 * driver load is there too.
 */
#define RAW_SETTLE_MS 3000
int phase_raw_open(struct capture *cap);
int phase_raw_dmesg(struct capture *cap);
int phase_raw_vmcore(struct capture *cap);
int phase_raw_close(struct capture *cap);

/* hooks.c */
int phase_pre_hooks(struct capture *cap);
int phase_post_hooks(struct capture *cap);

/* record.c */
struct capture_vmcoreinfo {
	char release[65];
	long long crash_time;	/* -1 when absent */
};

/*
 * OSRELEASE and CRASHTIME of the vmcore's VMCOREINFO note.  ret is "" and
 * -1 where they are not known, also when it fails (the metadata and the
 * failure record say what is known).
 */
int capture_vmcoreinfo(const struct capture *cap,
		       struct capture_vmcoreinfo *ret);
int phase_record(struct capture *cap);
int capture_write_metadata(struct capture *cap);
int capture_write_incomplete(int dirfd, const char *why);
/* The failure record of d (its errno and message), failing in step. */
void capture_record_failure(struct capture *cap, const char *step,
			    const struct diag *d);
long long capture_file_size(const char *path);

#endif
