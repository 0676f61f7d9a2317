// SPDX-License-Identifier: GPL-2.0
/*
 * A local dump target on an iSCSI disk.  kdump-file(8) recorded at load
 * time the session the disk came from (the chain's "iscsi TPGT ADDR PORT
 * TARGET INITIATOR" line) and the way to its portal ("net MAC ADDR/PREFIX
 * GATEWAY"): the capture brings up that NIC as for a network target, then
 * logs in to the same target with open-iscsi's iscsistart, which returns
 * once the session is made and leaves no daemon behind.  The disk then
 * appears as any SCSI disk, and the target phase finds the filesystem on
 * it.  No discovery, no node records, no DNS: what the running system
 * used, and nothing else.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "process.h"
#include "util.h"

/* One iscsistart run at most this long; tries end with net_timeout. */
#define ISCSI_TRY_MS (30 * 1000)

struct iscsi_session {
	char tpgt[8];
	char addr[46];
	char port[8];
	char target[224];
	char initiator[224];
};

/*
 * The chain's "iscsi" line into s, its "net" line into cap->net: 1 when
 * it has an iscsi line, 0 when not, -EINVAL when its lines are not usable.
 */
static int iscsi_chain_read(struct capture *cap, struct iscsi_session *s,
			    struct diag *d)
{
	char line[640];
	bool have_iscsi = false, have_net = false, bad = false;
	FILE *f;
	int r;

	f = fopen(cap->paths.chain, "re");
	if (!f) {
		r = -errno;
		/* No chain: the capture looks for the target by itself. */
		return r == -ENOENT ? 0 : diag_fail(d, r, "cannot read %s: %s",
						   cap->paths.chain, strerror(-r));
	}
	while (fgets(line, sizeof(line), f)) {
		struct in_addr a;
		unsigned int tpgt, port;
		int l;

		if (strncmp(line, "iscsi ", 6) == 0) {
			if (have_iscsi ||
			    sscanf(line, "iscsi %7s %15s %7s %223s %223s",
				   s->tpgt, s->addr, s->port, s->target,
				   s->initiator) != 5 ||
			    sscanf(s->tpgt, "%u", &tpgt) != 1 ||
			    sscanf(s->port, "%u", &port) != 1 || !port ||
			    port > 65535 || tpgt > 65535 ||
			    inet_pton(AF_INET, s->addr, &a) != 1 ||
			    strcmp(s->initiator, "-") == 0 ||
			    s->target[0] == '-' || s->initiator[0] == '-')
				bad = true;
			have_iscsi = true;
			continue;
		}
		l = capture_net_link_line(line, &cap->net);
		if (l >= 0) {
			have_net |= l == 1;
			bad |= l == 0;
		}
	}
	fclose(f);
	if (!have_iscsi)
		return 0;
	if (bad || !have_net)
		return diag_fail(d, -EINVAL, "%s has no usable iscsi and net lines: run kdump-file load again",
				 cap->paths.chain);
	snprintf(cap->net.collector, sizeof(cap->net.collector), "%s",
		 s->addr);
	return 1;
}

/* iscsistart's lines, said as they come. */
static void iscsi_line(const char *line, size_t len, void *userdata)
{
	struct capture *cap = userdata;

	if (!len)
		return;
	capture_say(cap, "iscsistart: %s", line);
}

/*
 * iscsistart until it logs in or net_timeout since start passes; each
 * failure said.
 */
static int iscsi_login(struct capture *cap, const struct iscsi_session *s,
		       unsigned long long start, struct diag *d)
{
	unsigned long long end = start + cap->conf.net_timeout * 1000ULL;
	char *const argv[] = { "iscsistart", "-i", (char *)s->initiator,
			       "-t", (char *)s->target, "-g", (char *)s->tpgt,
			       "-a", (char *)s->addr, "-p", (char *)s->port,
			       NULL };
	struct process_opts o = PROCESS_OPTS_INIT;
	struct process_result res;
	char how[64] = "not run";
	unsigned int tries = 0;
	int r;

	o.on_line = iscsi_line;
	o.userdata = cap;
	do {
		unsigned long long left = end > now_ms() ? end - now_ms() : 0;

		o.timeout_ms = left < ISCSI_TRY_MS ? (unsigned int)left + 1000 :
			       ISCSI_TRY_MS;
		tries++;
		r = process_run(argv, &o, &res);
		if (r < 0)
			return diag_fail(d, r, "cannot run iscsistart: %s",
					 strerror(-r));
		if (process_succeeded(&res))
			return 0;
		process_result_text(&res, how, sizeof(how));
		capture_say(cap, "iscsistart (try %u): %s", tries, how);
		if (now_ms() + 1000 >= end)
			break;
		sleep(1);
	} while (now_ms() < end);
	return diag_fail(d, -EHOSTUNREACH,
			 "cannot log in to iSCSI target %s at %s:%s within net_timeout (%us, %u tries; iscsistart: %s)",
			 s->target, s->addr, s->port, cap->conf.net_timeout,
			 tries, how);
}

int phase_iscsi(struct capture *cap)
{
	struct iscsi_session s = { 0 };
	struct diag why = DIAG_INIT;
	unsigned long long t0 = now_ms();
	int r;

	r = iscsi_chain_read(cap, &s, &why);
	if (r <= 0)
		return r < 0 ? capture_fail(cap, r, "%s", diag_text(&why)) : 0;
	capture_step(cap, "bringing up the network to the iSCSI portal");
	/* iscsi_tcp, among the chain's modules, before iscsistart. */
	drivers_step(cap);
	r = capture_net_up(cap, "iSCSI portal", &why);
	if (r < 0)
		return capture_fail(cap, r, "dump target %s is on iSCSI target %s: %s",
				    cap->conf.target, s.target, diag_text(&why));
	capture_step(cap, "logging in to the iSCSI target");
	r = iscsi_login(cap, &s, t0, &why);
	if (r < 0)
		return capture_fail(cap, r, "dump target %s: %s",
				    cap->conf.target, diag_text(&why));
	capture_say(cap, "logged in to iSCSI target %s at %s:%s as %s in %.1fs",
		    s.target, s.addr, s.port, s.initiator,
		    (now_ms() - t0) / 1000.0);
	return 0;
}
