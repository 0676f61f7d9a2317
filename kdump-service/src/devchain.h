/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDUMP_FILE_DEVCHAIN_H
#define KDUMP_FILE_DEVCHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "modload.h"

/*
 * What the capture kernel needs to open the dump target, read at load time
 * from the running system's sysfs: the drivers of the target block device
 * and of every device above it (bus first), the device-mapper layers below
 * a logical volume, the md RAID arrays, LUKS devices and multipath devices
 * below them, the iSCSI sessions of its disks and the filesystem's module.
 * Layers the capture cannot open (plain dm-crypt, loop, network block
 * devices, iSCSI offload adapters, memory disks, firmware RAID) are
 * refused here, at load time, not found out after a crash.
 */
#define DEVCHAIN_MAX 48
#define DEVCHAIN_MD_MAX 4
#define DEVCHAIN_CRYPT_MAX 2
#define DEVCHAIN_MPATH_MAX 2
#define DEVCHAIN_ISCSI_MAX 1

/*
 * An md RAID array the target is on: the capture assembles it with mdadm
 * by its UUID (1.x superblocks), also with a member missing.
 */
struct devchain_md {
	char uuid[40];		/* md/uuid: 8-4-4-4-12 hex */
	char name[32];		/* the running kernel's name: md127 */
	char level[16];		/* raid1, raid5, raid10... */
	char members[160];	/* the members now, blank-separated */
	unsigned int n_members;	/* how many there are now */
	unsigned int raid_disks;	/* how many the array has */
};

/*
 * A multipath device (dm-multipath) the target is on: the capture makes
 * its own map over the paths it finds by their WWID (the SCSI VPD
 * identifier sysfs gives as device/wwid) and can read, one priority group
 * with round-robin, no queueing when every path is gone.
 */
struct devchain_mpath {
	char uuid[136];		/* dm/uuid: mpath-<multipath's WWID> */
	char name[128];		/* dm/name: mpatha, or the WWID */
	char wwid[256];		/* every path's device/wwid */
	char paths[160];	/* the paths now, blank-separated */
	unsigned int n_paths;
	unsigned long long sectors;	/* the map's size, 512-byte sectors */
};

/*
 * An iSCSI session (the kernel's software initiator, iscsi_tcp) a disk of
 * the target is on: the capture logs in to the same target at the same
 * portal with iscsistart, after bringing up the interface the plan routes
 * the portal through (plan-net.c).
 */
struct devchain_iscsi {
	char session[32];	/* the running kernel's: session1 */
	char target[224];	/* targetname: an IQN or EUI name */
	char initiator[224];	/* initiatorname, "" when sysfs has none */
	char addr[48];		/* the connection's persistent_address */
	unsigned int port;	/* its persistent_port */
	unsigned int tpgt;	/* the target portal group tag */
	char disks[64];		/* its disks on the way, blank-separated */
};

/* How the capture unlocks a LUKS device (plan-crypt.c decides). */
enum devchain_key {
	DEVCHAIN_KEY_NONE,	/* not decided: not written for the capture */
	DEVCHAIN_KEY_FILE,	/* crypttab's key file, read in place */
	DEVCHAIN_KEY_KERNEL,	/* the volume key the kernel hands over */
};

/*
 * A LUKS (dm-crypt) device the target is on.  devchain_resolve() fills the
 * first part from sysfs; the plan decides the key.
 */
struct devchain_crypt {
	char uuid[40];		/* the LUKS header's, 8-4-4-4-12 */
	char type[8];		/* LUKS1 or LUKS2 */
	char name[128];		/* the dm name, /dev/mapper/NAME */
	char kname[16];		/* the kernel's name: dm-3 */
	char backing[32];	/* the device below, with the header: vdb */
	unsigned int major, minor;	/* the dm device's */
	enum devchain_key key;
	/* DEVCHAIN_KEY_FILE: the key file and the slot it opens. */
	int key_slot;
	char key_file[256];	/* as /etc/crypttab names it */
	char key_fs_uuid[40];	/* the filesystem holding it */
	char key_fs_type[16];
	char key_rel[256];	/* its path in that filesystem */
	unsigned long long key_offset, key_size;	/* 0: whole file */
	char pbkdf[16];		/* the slot's key derivation */
	unsigned int kdf_memory_kb;	/* Argon2's memory, 0 for PBKDF2 */
};

struct devchain_module {
	char name[64];
	char reason[192];
	enum modload_state state;	/* for the capture kernel */
	char deps[256];			/* what it needs, space-separated */
	bool running_module;		/* a module in the running kernel */
};

struct devchain {
	struct devchain_module mods[DEVCHAIN_MAX];
	unsigned int n;
	/* LVM logical volumes to activate in the capture, "vg/lv" each. */
	char lvs[4][256];
	unsigned int n_lvs;
	/* md arrays to assemble first, innermost first. */
	struct devchain_md mds[DEVCHAIN_MD_MAX];
	unsigned int n_mds;
	/* LUKS devices to unlock, innermost first. */
	struct devchain_crypt crypts[DEVCHAIN_CRYPT_MAX];
	unsigned int n_crypts;
	/* multipath devices to make first, below everything else. */
	struct devchain_mpath mpaths[DEVCHAIN_MPATH_MAX];
	unsigned int n_mpaths;
	/* iSCSI sessions to log in to, before everything else. */
	struct devchain_iscsi iscsis[DEVCHAIN_ISCSI_MAX];
	unsigned int n_iscsis;
	/*
	 * The report of a failure, the only part devchain_resolve() writes
	 * when it fails: on -EMEDIUMTYPE the layer that cannot work and what
	 * to do, on -ENOPKG the module missing.
	 */
	char layer[256];
	char fix[256];
};

/*
 * Resolve the chain of block device dev holding a filesystem of type fstype
 * for the capture kernel whose modules km describes.  sysfs is "/sys" (a
 * test passes a tree of its own).  -EMEDIUMTYPE: a layer the capture cannot
 * open (ret->layer, ret->fix say which and what to do); -ENOPKG: a module
 * the capture needs does not exist for the capture kernel (ret->layer).
 * On failure the chain in ret (mods, n, lvs, n_lvs) is untouched; only
 * layer and fix are written, and only on those two errors.
 */
int devchain_resolve(const char *sysfs, dev_t dev, const char *fstype,
		     struct modload *km, struct devchain *ret);

/* A module a network path needs by name, and why. */
struct devchain_want {
	const char *name;	/* NULL or "": none */
	const char *reason;
};

/*
 * The drivers of the n_if network interfaces ifnames (each one's device's,
 * from the bus down, as devchain_resolve() finds a disk's), then the
 * n_want modules want names (bonding, 8021q; nfsv4 or nfsv3 for an NFS
 * target), for the capture kernel whose modules km describes.  -ENOENT
 * for an interface without a device (a virtual one: no sysfs device link;
 * ret->layer names it); -ENOPKG as devchain_resolve().  ret is written as
 * devchain_resolve() writes it.
 */
int devchain_resolve_net(const char *sysfs, const char *const *ifnames,
			 unsigned int n_if, const struct devchain_want *want,
			 unsigned int n_want, struct modload *km,
			 struct devchain *ret);

/*
 * Add src's modules and volumes that dst does not have, after dst's: one
 * chain for a network target and its local fallback.  -E2BIG when they do
 * not fit; dst then holds part of src.
 */
int devchain_merge(struct devchain *dst, const struct devchain *src);

/*
 * The modules of the drivers bound now to every device on the way to each
 * disk under sysfs/class/block that the capture kernel may need to find
 * the target among (with net, also to each network interface), from the
 * bus down, each once, space-separated into buf: what the capture's
 * coldplug rounds may load when the chain alone does not bring the target
 * up.  Left out: partitions (their disk is there), removable disks (a
 * CD-ROM), and virtual devices (loop, ram, zram, and dm and md, whose
 * slaves are disks of their own in the list).  A driver without a module
 * link (built in) is named by the driver.  -ENOBUFS when the names do not
 * fit in size bytes; buf is then cut at the last name that did.
 */
int devchain_bound_drivers(const char *sysfs, bool net, char *buf,
			   size_t size);

/*
 * Add module name (reason) to c, resolved for the capture kernel whose
 * modules km describes, as devchain_resolve() adds a layer's: a module
 * the running kernel has and the capture kernel lacks is -ENOPKG
 * (c->layer).  0 when it was there already.
 */
int devchain_add_module(struct devchain *c, const char *sysfs,
			struct modload *km, const char *name,
			const char *reason);

/*
 * The chain as the capture program reads it: "module NAME", "iscsi TPGT
 * ADDR PORT TARGET INITIATOR" (the initiator "-" when not known), "mpath UUID
 * NAME SECTORS PATHS WWID" (the WWID, which may hold blanks, last), "md UUID",
 * "luks UUID NAME kernel", "luks UUID NAME file SLOT OFFSET SIZE FSUUID
 * FSTYPE PATH" and "lvm VG/LV" lines, in the order the capture takes them
 * (a LUKS device whose key is not decided is left out).  -ENOBUFS, buf
 * untouched, when it does not fit in size bytes with its NUL.
 */
int devchain_format(const struct devchain *c, char *buf, size_t size);

#endif
