/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the load plan's files share (plan.c, plan-net.c, plan-modules.c):
 * the parts of plan_make() one file makes and another calls.  For the
 * plan-*.c files only; the verbs include plan.h.  Each returns 0, or a
 * negative errno with p->diag saying what failed.
 */
#ifndef KDUMP_FILE_PLAN_INTERNAL_H
#define KDUMP_FILE_PLAN_INTERNAL_H

#include <stdbool.h>

#include "plan.h"

/*
 * plan.c: a local dump directory (key: "dump", "fallback") resolved to
 * its filesystem, made when create.
 */
struct target_fs;
int plan_local_dir(struct plan *p, const char *key, const char *dir,
		   bool create, struct target_fs *ret);

/*
 * plan-modules.c: the module index of the capture kernel's release, or
 * the failure said; the chain's module lines appended to p->chain_text
 * and its modules to p->chain_drivers; the module plan (p->modplan_*);
 * the helpers (p->pstore, p->watchdog); extra_modules, checked, into
 * p->chain_drivers.
 */
struct modload;
int plan_modload(struct plan *p, struct modload **ret);
int plan_chain_text(struct plan *p);
int plan_modules(struct plan *p);
int plan_helpers(struct plan *p);
int plan_extra_modules(struct plan *p);

/*
 * plan-crypt.c: how the capture unlocks each LUKS device of chain c (the
 * dump target's, named what in messages), or the refusal said; the
 * cipher's and the key file's filesystem's modules added to c.
 */
struct devchain;
int plan_crypt(struct plan *p, struct modload *km, struct devchain *c,
	       const char *what);

/* plan-net.c: a network target's plan; the files the fingerprint covers. */
int plan_target_net(struct plan *p, bool create);
/*
 * A chain with an iSCSI session: the initiator name when sysfs has none,
 * CHAP refused, the way to the portal (p->iscsi_net) and its NIC's
 * drivers added to p->chain, the chain's net line written first in
 * p->chain_text.  0 for a chain without one; on failure the diag says
 * what for the dump target what.
 */
int plan_iscsi(struct plan *p, struct modload *km, const char *what);
int plan_net_files(struct plan *p);

#endif
