// SPDX-License-Identifier: GPL-2.0
/*
 * The configuration phase: is this a capture kernel at all, capture.conf
 * as kdump-file(8) wrote it at load time, and an automatic
 * capture_timeout and makedumpfile's threads from the command line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "util.h"

/*
 * The number of parameter key ("name=") on the command line, within
 * min..max; fallback when it is missing or out of bounds.
 */
static unsigned int cmdline_number(const char *cmdline, const char *key,
				   unsigned long min, unsigned long max,
				   unsigned int fallback)
{
	size_t len = strlen(key);
	const char *p = cmdline;

	while ((p = strstr(p, key))) {
		char *end;
		unsigned long v;

		if (p != cmdline && p[-1] != ' ') {
			p++;
			continue;
		}
		errno = 0;
		v = strtoul(p + len, &end, 10);
		if (errno || end == p + len || (*end && *end != ' ') ||
		    v < min || v > max)
			break;
		return (unsigned int)v;
	}
	return fallback;
}

/*
 * makedumpfile's threads: what the loader chose from the reservation and
 * the CPUs, from the command line (it brings up as many CPUs); one when
 * it is missing or not a number from 1 to CONF_THREADS_MAX.
 */
unsigned int capture_cmdline_threads(const char *cmdline)
{
	return cmdline_number(cmdline, CONF_CMDLINE_THREADS "=", 1,
			      CONF_THREADS_MAX, 1);
}

/*
 * An automatic capture_timeout (0 in capture.conf): the value the loader
 * chose from the RAM at load time, from the command line, or the fallback
 * when it is missing or not a number of seconds from 1 to 86400.
 */
unsigned int capture_cmdline_timeout(const char *cmdline)
{
	return cmdline_number(cmdline, CONF_CMDLINE_CAPTURE_TIMEOUT "=", 1,
			      86400, CONF_CAPTURE_TIMEOUT_FALLBACK);
}

static void say_started(struct capture *cap)
{
	const struct kdump_conf *c = &cap->conf;

	/* A network target's directory is part of its URL. */
	if (c->net != CONF_NET_NONE && c->dmesg_only)
		capture_say(cap, "capture started: target %s, dump level dmesg: the kernel log alone",
			    c->target);
	else if (c->net != CONF_NET_NONE)
		capture_say(cap, "capture started: target %s, dump level %u, %s",
			    c->target, c->dump_level,
			    conf_compression_to_string(c->compression));
	else if (c->dmesg_only)
		capture_say(cap, "capture started: target %s, path %s, dump level dmesg: the kernel log alone",
			    c->target, c->path);
	else
		capture_say(cap, "capture started: target %s, path %s, dump level %u, %s",
			    c->raw[0] ? c->raw : c->target, c->path,
			    c->dump_level,
			    conf_compression_to_string(c->compression));
}

/*
 * Returns 1 when there is no vmcore (nothing to do), a negative errno when
 * capture.conf cannot be used: the defaults then choose failure_action.
 */
int phase_config(struct capture *cap)
{
	struct diag err = DIAG_INIT;
	char cmdline[4096];
	int r;

	if (access(cap->paths.vmcore, R_OK) < 0) {
		capture_say(cap, "no %s: this is not a capture kernel, nothing to save",
			    cap->paths.vmcore);
		cap->no_vmcore = true;
		return 1;
	}
	r = conf_parse_file(&cap->conf, cap->paths.conf, &err);
	if (r < 0) {
		capture_step(cap, "reading the capture configuration");
		(void)capture_fail(cap, r, "%s", diag_text(&err));
		conf_init(&cap->conf);
		return r;
	}
	say_started(cap);
	if (read_line_file(cap->paths.cmdline, cmdline, sizeof(cmdline)) == 0)
		capture_say(cap, "capture kernel command line: %s", cmdline);
	else
		cmdline[0] = '\0';
	if (!cap->conf.capture_timeout)
		cap->conf.capture_timeout = capture_cmdline_timeout(cmdline);
	/*
	 * The threads load chose: they follow the reservation, so they come
	 * on the command line and not in capture.conf.
	 */
	(void)conf_threads_set(&cap->conf, capture_cmdline_threads(cmdline));
	return 0;
}
