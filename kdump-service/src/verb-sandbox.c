// SPDX-License-Identifier: GPL-2.0
/*
 * kdump-file sandbox: run by kdump-file.service and
 * kdump-file-hotplug.service before load, outside their sandbox ('+').
 * The sandbox a load runs in follows the configuration through
 * kdump-file-generator, which systemd runs at boot and at each
 * daemon-reload.  A target changed since (local to network, another
 * collector, network to local) would leave this start in the old one:
 * this asks systemd to reload its units, so that the generator writes the
 * drop-in again and the load that follows runs in the new one.  Should
 * the load still find the old sandbox, it says what to run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "process.h"
#include "sandbox.h"

int verb_sandbox(struct cli *cli, int argc _unused_, char *argv[] _unused_)
{
	char *const argv_reload[] = { "systemctl", "daemon-reload", NULL };
	const char *have = getenv(SANDBOX_ENV);
	char want[sizeof(((struct sandbox *)0)->allow) + 16], how[64];
	struct process_result res;
	struct process_opts o = {
		.stdin_fd = -1, .stdout_fd = -1, .stderr_fd = -1,
		.timeout_ms = 120 * 1000,
	};
	const struct kdump_conf *c;
	struct sandbox s;
	int r;

	/* A configuration that does not parse is load's to report. */
	if (cli_config(cli, &c) < 0)
		return 0;
	sandbox_for(c, "/etc/hosts", &s);
	r = sandbox_tag(&s, want, sizeof(want));
	if (r < 0)
		return 0;
	if (!have || !have[0])
		have = SANDBOX_LOCAL;
	if (strcmp(have, want) == 0)
		return 0;
	log_info(cli, "dump target %s needs the sandbox '%s', and this unit was made with '%s': reloading systemd's units (systemctl daemon-reload) for kdump-file-generator to fit it",
		 c->net != CONF_NET_NONE ? c->target :
		 c->target[0] ? c->target : c->path, want, have);
	r = process_run(argv_reload, &o, &res);
	if (r < 0 || !process_succeeded(&res)) {
		if (r < 0)
			snprintf(how, sizeof(how), "%s", strerror(-r));
		else
			process_result_text(&res, how, sizeof(how));
		log_error(cli, "cannot reload systemd's units for the new sandbox: systemctl daemon-reload: %s: run it, then 'systemctl restart kdump-file'",
			  how);
		return r < 0 ? r : -EIO;
	}
	return 0;
}
