// SPDX-License-Identifier: GPL-2.0
/*
 * estimate and mem-usage: how much memory the capture needs, and how large
 * and slow a dump would be.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "estimate.h"
#include "expected.h"

/* estimate --json: the same figures, and the expected dump. */
static int estimate_json(struct cli *cli, const struct plan *p,
			 const struct estimate *e, unsigned long long reserved)
{
	struct json_object *j;
	int m;

	j = cli_json_object();
	if (!j)
		return -ENOMEM;
	m = cli_json_text(j, "kernel", p->kernel);
	if (m == 0)
		m = cli_json_int(j, "kernel_bytes", (long long)e->kernel);
	if (m == 0)
		m = cli_json_text(j, "initramfs", p->initramfs);
	if (m == 0)
		m = cli_json_int(j, "initramfs_bytes", (long long)e->initramfs);
	if (m == 0)
		m = cli_json_int(j, "initramfs_unpacked_bytes",
				 (long long)e->initramfs_unpacked);
	if (m == 0)
		m = cli_json_int(j, "modules_bytes", (long long)e->modules);
	if (m == 0)
		m = cli_json_int(j, "runtime_bytes", (long long)e->runtime);
	if (m == 0)
		m = cli_json_int(j, "network_bytes", (long long)e->network);
	if (m == 0)
		m = cli_json_int(j, "md_bytes", (long long)plan_md_bytes(p));
	if (m == 0)
		m = cli_json_int(j, "luks_bytes", (long long)plan_luks_bytes(p));
	if (m == 0)
		m = cli_json_int(j, "multipath_bytes",
				 (long long)plan_mpath_bytes(p));
	if (m == 0)
		m = cli_json_int(j, "iscsi_bytes",
				 (long long)plan_iscsi_bytes(p));
	if (m == 0)
		m = cli_json_int(j, "ram_bytes", (long long)e->ram);
	if (m == 0)
		m = cli_json_int(j, "ram_share_bytes", (long long)e->ram_share);
	if (m == 0)
		m = cli_json_int(j, "needed_bytes", (long long)e->needed);
	if (m == 0)
		m = cli_json_int(j, "recommended_reservation_bytes",
				 (long long)e->recommended);
	if (m == 0)
		m = cli_json_int(j, "reserved_bytes", reserved == ~0ULL ? -1 :
				 (long long)reserved);
	if (m == 0)
		m = cli_json_int(j, "makedumpfile_threads", p->threads.threads);
	if (m == 0)
		m = expected_report(cli, &p->conf, true, j);
	if (m < 0) {
		json_object_put(j);
		return m;
	}
	return print_json(j);
}

/*
 * mem-usage: for kdump-file.service, before load, whose sandbox hides
 * /proc/kcore (ProtectKernelTunables=): the count load's expected dump and
 * its warnings come from, made once per kernel, makedumpfile and RAM.
 */
int verb_mem_usage(struct cli *cli, int argc _unused_, char *argv[] _unused_)
{
	const struct kdump_conf *c;
	struct diag d = DIAG_INIT;
	bool ran = false;
	int r;

	r = dumpsize_refresh(&ran, &d);
	if (r == -ENOENT) {
		log_error(cli, "cannot count the pages a dump would hold: makedumpfile is not installed (apt-get install makedumpfile)");
		return EXIT_FAILURE;
	}
	if (r < 0) {
		log_error(cli, "cannot count the pages a dump would hold: makedumpfile --mem-usage /proc/kcore failed: %s",
			  diag_text(&d));
		return EXIT_FAILURE;
	}
	if (ran)
		printf("counted the pages a dump would hold (makedumpfile --mem-usage)\n");
	/*
	 * And load's warnings, here where the dump target can be looked at
	 * even when nothing mounts it (load's sandbox cannot mount it).
	 */
	if (load_config(cli, &c) == 0)
		(void)dump_warnings(cli, c);
	return EXIT_SUCCESS;
}

int verb_estimate(struct cli *cli, int argc _unused_, char *argv[] _unused_)
{
	unsigned long long reserved = 0;
	struct estimate e;
	struct plan *p;
	int kfd = -1, ifd = -1, r;

	r = make_plan(cli, false, &p);
	if (r < 0)
		return r;
	r = open_regular(cli, "capture kernel", p->kernel, &kfd);
	if (r < 0)
		return r;
	/* One message: the initramfs kdump-file builds is not built yet. */
	if (p->initramfs_managed && access(p->initramfs, F_OK) < 0 &&
	    errno == ENOENT) {
		close(kfd);
		log_error(cli, "estimate measures the capture initramfs, and %s is not built yet: run 'kdump-file rebuild' (or load) first",
			  p->initramfs);
		return -ENOENT;
	}
	r = open_regular(cli, "capture initramfs", p->initramfs, &ifd);
	if (r < 0) {
		close(kfd);
		return r;
	}
	r = plan_estimate(p, kfd, ifd, &e);
	close(ifd);
	close(kfd);
	if (r < 0) {
		log_error(cli, "cannot read capture kernel '%s': not a bzImage", p->kernel);
		return r;
	}
	if (kexec_crash_size(&reserved) < 0)
		reserved = ~0ULL;
	if (cli->opt.json)
		return estimate_json(cli, p, &e, reserved);
	printf("capture kernel     %7.1f MiB  %s (in memory: its init_size)\n",
	       mib_f(e.kernel), p->kernel);
	printf("capture initramfs  %7.1f MiB  %s (compressed, held while it unpacks)\n",
	       mib_f(e.initramfs), p->initramfs);
	printf("  unpacked         %7.1f MiB\n", mib_f(e.initramfs_unpacked));
	printf("modules            %7.1f MiB  (the module plan's %u, held again once loaded; 0 when built in%s)\n",
	       mib_f(e.modules), p->modplan_count,
	       p->conf.net == CONF_NET_NONE ? "" :
	       p->conf.net == CONF_NET_NFS ? "; the NIC's drivers and NFS's" :
	       "; the NIC's drivers");
	if (plan_iscsi_bytes(p))
		printf("iSCSI              %7.1f MiB  (1 session: the NIC to its portal, iscsistart, the session's buffers)\n",
		       mib_f(plan_iscsi_bytes(p)));
	if (plan_mpath_bytes(p))
		printf("multipath          %7.1f MiB  (%u device%s: dm-multipath's pools)\n",
		       mib_f(plan_mpath_bytes(p)), p->chain.n_mpaths,
		       p->chain.n_mpaths == 1 ? "" : "s");
	if (plan_md_bytes(p))
		printf("md RAID            %7.1f MiB  (%u array%s: mdadm and the arrays' buffers, measured)\n",
		       mib_f(plan_md_bytes(p)), p->chain.n_mds,
		       p->chain.n_mds == 1 ? "" : "s");
	if (plan_luks_bytes(p))
		printf("LUKS               %7.1f MiB  (%u device%s: cryptsetup, dm-crypt's buffers%s)\n",
		       mib_f(plan_luks_bytes(p)), p->chain.n_crypts,
		       p->chain.n_crypts == 1 ? "" : "s",
		       plan_luks_kdf(p) ? " and the key slot's Argon2" : "");
	printf("run time           %7.1f MiB  (capture kernel, init and makedumpfile, measured)\n",
	       mib_f(e.runtime));
	if (p->conf.net != CONF_NET_NONE)
		printf("network target     %7.1f MiB  (%s, measured: the NIC's rings and sockets%s)\n",
		       mib_f(e.network), conf_net_to_string(p->conf.net),
		       p->conf.net == CONF_NET_NFS ? ", sunrpc and the NFS client" : "");
	printf("system RAM share   %7.1f MiB  (for %.1f GiB of RAM)\n",
	       mib_f(e.ram_share), e.ram / 1073741824.0);
	printf("needed             %7.1f MiB\n", mib_f(e.needed));
	printf("recommended: crashkernel=%lluM (needed plus a quarter, in 8M steps)\n",
	       e.recommended >> 20);
	{
		char text[256];

		if (estimate_threads_text(&p->threads, text, sizeof(text)) == 0)
			printf("makedumpfile threads: %s\n", text);
	}
	/*
	 * The figures are of the initramfs as built: one built for another
	 * configuration (before a network target, which adds ssh and its
	 * libraries, or the NFS modules) says nothing of the next.
	 */
	if (p->initramfs_managed &&
	    strcmp(plan_initramfs_state(p), "current") != 0)
		printf("note: %s was built for another configuration: run 'kdump-file rebuild' and estimate again for this one's figure\n",
		       p->initramfs);
	if (p->conf.net == CONF_NET_SSH)
		printf("note: the run time was measured for local targets: the capture's ssh client (its buffers beside makedumpfile's) is not in it\n");
	if (reserved != ~0ULL)
		printf("reserved now: %llu MiB%s\n", reserved >> 20,
		       reserved == 0 ? " (none)" :
		       reserved < e.needed ? " (too small)" : "");
	/* Fresh: estimate is where a user asks what a dump would take. */
	fflush(stdout);
	return expected_report(cli, &p->conf, true, NULL);
}
