// SPDX-License-Identifier: GPL-2.0
/*
 * Drivers, as PID 1 only (run by hand, the system's own udev has done it),
 * from the module plan kdump-file(8) resolved at load time (modplan.h: no
 * libkmod in the capture): first the modules the dump target needs;
 * then, round after round, the drivers of every device still without
 * one, because a bus driver loaded in one round creates the devices whose
 * drivers the next round finds; and the multipath devices (mpath.c), md
 * arrays (raid.c), LUKS devices (crypt.c) and LVM volumes the target is on.  Also the helpers chosen at load time (pstore
 * backend, watchdog) and extra_modules.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "capture.h"
#include "modplan.h"
#include "process.h"
#include "util.h"

/*
 * The module plan kdump-file(8) wrote at load time, read on first use;
 * NULL when there is none for the running kernel, said once.  Without it
 * nothing is loaded, yet the target may well come up: its drivers may be
 * built in.
 */
struct modplan *capture_kmods(struct capture *cap)
{
	struct modplan *p = NULL;
	struct utsname u;
	char moddir[PATH_MAX];
	int r;

	if (cap->kmods || cap->kmods_tried || !cap->is_init)
		return cap->kmods;
	cap->kmods_tried = true;
	if (uname(&u) < 0)
		return NULL;
	r = modplan_read(cap->paths.modplan, &p);
	if (r < 0) {
		capture_say(cap, "warning: cannot read the module plan %s: %s: no module will be loaded",
			    cap->paths.modplan, strerror(-r));
		return NULL;
	}
	if (strcmp(modplan_release(p), u.release) != 0) {
		capture_say(cap, "warning: the module plan %s is for kernel %s, not %s: no module will be loaded",
			    cap->paths.modplan, modplan_release(p), u.release);
		modplan_free(p);
		return NULL;
	}
	snprintf(moddir, sizeof(moddir), "%s/%s", cap->paths.modules_dir,
		 u.release);
	r = modplan_set_exec(p, moddir, cap->kmod_ops);
	if (r < 0) {
		capture_say(cap, "warning: cannot use kernel modules of %s: %s",
			    moddir, strerror(-r));
		modplan_free(p);
		return NULL;
	}
	cap->kmods = p;
	return p;
}

static void activate_lv(struct capture *cap, char *lv)
{
	/* No udev: lvm makes its own device nodes. */
	char *const argv[] = {
		"lvm", "lvchange", "--activate", "y", "--sysinit", "--config",
		"activation { udev_sync = 0 udev_rules = 0 monitoring = 0 } devices { obtain_device_list_from_udev = 0 }",
		lv, NULL,
	};
	struct process_result res;

	if (process_run(argv, NULL, &res) == 0 && process_succeeded(&res))
		capture_say(cap, "activated LVM volume %s", lv);
}

static void activate_lvs(struct capture *cap)
{
	char line[512], lv[300];
	FILE *f;

	f = fopen(cap->paths.chain, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "lvm %299s", lv) == 1)
			activate_lv(cap, lv);
	fclose(f);
}

/* The chain's "module NAME" lines: the dump target's own drivers. */
static void chain_load(struct capture *cap)
{
	/* What the helpers (phase_helpers()) loaded is not the target's. */
	size_t before = strlen(modplan_loaded(cap->kmods));
	char line[256], name[64];
	FILE *f;
	int n;

	cap->chain_done = true;
	f = fopen(cap->paths.chain, "re");
	if (f) {
		while (fgets(line, sizeof(line), f)) {
			if (sscanf(line, "module %63s", name) != 1)
				continue;
			n = modplan_insert(cap->kmods, name);
			if (n < 0 && n != -EEXIST)
				capture_say(cap, "warning: cannot load module %s for the dump target: %s",
					    name, strerror(-n));
		}
		fclose(f);
	}
	/*
	 * The target's own drivers usually bring it up within a second: the
	 * search for other drivers waits that long, so that it costs neither
	 * time nor memory when it is not needed.
	 */
	if (strlen(modplan_loaded(cap->kmods)) > before) {
		capture_say(cap, "loaded for the dump target: %s",
			    modplan_loaded(cap->kmods) + before + (before ? 1 : 0));
		cap->rounds_from = now_ms() + 1000;
	}
}

/* One step of the search for the target's drivers, between probes. */
void drivers_step(struct capture *cap)
{
	int n;

	if (!cap->is_init)
		return;
	/* No plan: no modules, but arrays and LVM volumes all the same. */
	if (capture_kmods(cap) && !cap->chain_done)
		chain_load(cap);
	if (cap->kmods && now_ms() >= cap->rounds_from) {
		n = modplan_coldplug_round(cap->kmods, cap->paths.sys_devices);
		if (n > 0)
			capture_say(cap, "loaded %d more modules for devices without a driver",
				    n);
	}
	/*
	 * Once a second: the multipath devices, the md arrays, the LVM
	 * volumes on them, the LUKS devices on either, and the LVM volumes on
	 * a LUKS device opened.
	 */
	if (now_ms() >= cap->next_lvm) {
		cap->next_lvm = now_ms() + 1000;
		mpath_step(cap);
		/* The layers above read the map, never one of its paths. */
		if (mpath_pending(cap))
			return;
		raid_step(cap);
		activate_lvs(cap);
		cap->crypt_opened = false;
		crypt_step(cap);
		if (cap->crypt_opened)
			activate_lvs(cap);
	}
}

/* What the search for the target loaded, and what did not load. */
void drivers_summary(struct capture *cap)
{
	const char *name;
	unsigned int nf;
	int e;

	if (!cap->kmods)
		return;
	if (modplan_loaded(cap->kmods)[0])
		capture_say(cap, "modules loaded: %s", modplan_loaded(cap->kmods));
	nf = modplan_failures(cap->kmods, &name, &e);
	if (nf)
		capture_say(cap, "%u modules did not load (the last: %s: %s)", nf,
			    name, strerror(e));
}

static void pstore_load(struct capture *cap, const char *name)
{
	int r;

	if (!cap->kmods)
		return;
	r = modplan_insert(cap->kmods, name);

	if (r < 0 && r != -EEXIST)
		capture_say(cap, "warning: cannot load pstore backend %s: %s",
			    name, strerror(-r));
	else if (r > 0)
		capture_say(cap, "loaded pstore backend %s", name);
}

/*
 * The helpers kdump-file(8) chose at load time (chain lines "pstore NAME"
 * and "watchdog NAME", NAME "-" when built in): the pstore backend, loaded
 * now so that a failure record survives the reboot, and the hardware
 * watchdog (watchdog_arm()).
 */
int phase_helpers(struct capture *cap)
{
	char line[256], name[64];
	FILE *f;

	if (!cap->is_init)
		return 0;
	/* Without a plan, a built-in watchdog is armed all the same. */
	(void)capture_kmods(cap);
	f = fopen(cap->paths.chain, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "pstore %63s", name) == 1 &&
		    strcmp(name, "-") != 0)
			pstore_load(cap, name);
		else if (sscanf(line, "watchdog %63s", name) == 1)
			watchdog_arm(cap, name);
	}
	fclose(f);
	return 0;
}

/*
 * extra_modules, loaded before the target's chain with the same loader; a
 * module that does not load is said and recorded, and the capture goes on.
 */
int phase_extra_modules(struct capture *cap)
{
	char name[64];
	size_t pos = 0;

	if (!cap->conf.extra_modules[0] || !capture_kmods(cap))
		return 0;
	capture_step(cap, "loading extra_modules");
	while (cap->n_extra < CONF_LIST_MAX &&
	       conf_list_next(cap->conf.extra_modules, &pos, name,
			      sizeof(name))) {
		unsigned int before = modplan_failures(cap->kmods, NULL, NULL);
		struct capture_module *m = &cap->extra[cap->n_extra++];
		int r = modplan_insert(cap->kmods, name), e = 0;

		if (r < 0 && r != -EEXIST)
			e = -r;
		else if (modplan_failures(cap->kmods, NULL, NULL) > before)
			(void)modplan_failures(cap->kmods, NULL, &e);
		snprintf(m->name, sizeof(m->name), "%s", name);
		m->error = e;
		if (e)
			capture_say(cap, "warning: cannot load extra module %s: %s",
				    name, strerror(e));
		else
			capture_say(cap, "extra module %s loaded", name);
	}
	return 0;
}
