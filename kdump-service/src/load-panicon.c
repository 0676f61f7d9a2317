// SPDX-License-Identifier: GPL-2.0
/*
 * panic_on: the sysctls behind it, set after a load and put back by unload
 * (see panicon.h).  The messages name the sysctl, its value and why.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "load-panicon.h"
#include "panicon.h"

static const char *panic_on_hint(int r)
{
	switch (r) {
	case -EROFS:
		return " (/proc/sys is read-only here: kdump-file.service must list the sysctl in ReadWritePaths=)";
	case -EACCES:
	case -EPERM:
		return " (run as root)";
	default:
		return "";
	}
}

static void panic_on_failed(struct cli *cli, const char *what,
			    const struct panicon_result *res, const char *value,
			    int r)
{
	if (r == -EBADMSG && res->failed < 0)
		log_error(cli, "cannot %s the panic_on sysctls: %s is damaged, so their values before kdump-file are unknown: check them with 'sysctl kernel' and remove the file",
			  what, PANIC_ON_FILE);
	else if (r == -EBADMSG)
		log_error(cli, "cannot %s %s: it does not read as a number",
			  what, panicon_sysctl(res->failed));
	else if (res->failed < 0)
		log_error(cli, "cannot record the panic_on sysctls' values before kdump-file in %s: %s",
			  PANIC_ON_FILE, strerror(-r));
	else
		log_error(cli, "cannot %s %s%s%s: %s%s", what,
			  panicon_sysctl(res->failed), value ? "=" : "",
			  value ? value : "", strerror(-r), panic_on_hint(r));
}

/* The values panicon put back, "kernel.panic_on_warn=0, ...". */
static void panic_on_restored(const struct panicon_result *res, char *buf,
			      size_t size)
{
	size_t pos = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < PANIC_ON_COUNT && pos < size; i++)
		if (res->restored & (1U << i))
			pos += snprintf(buf + pos, size - pos, "%s%s=%s",
					pos ? ", " : "", panicon_sysctl(i),
					res->value[i]);
}

/*
 * After a capture kernel was loaded: panic on what panic_on names, and on
 * nothing more of ours.  A failure changes nothing and is an error.
 */
int load_panic_on(struct cli *cli, unsigned int want)
{
	struct panicon_result res;
	char text[1024];
	int r;

	r = panicon_apply(PANICON_SYSCTL_ROOT, PANIC_ON_FILE, want, &res);
	if (r < 0) {
		panic_on_failed(cli, "set", &res, "1", r);
		fprintf(stderr, "kdump-file: panic_on in %s is not in effect (the sysctls are as they were); the capture kernel is loaded\n",
			cli->opt.config);
		return r;
	}
	for (unsigned int i = 0; i < PANIC_ON_COUNT; i++)
		if (res.missing & (1U << i))
			fprintf(stderr, "kdump-file: warning: panic_on %s left out: %s (no %s)\n",
				conf_panic_on_name(i), panicon_missing_reason(i),
				panicon_sysctl(i));
	if (res.restored) {
		panic_on_restored(&res, text, sizeof(text));
		log_info(cli, "panic on: no longer asked for, put back as before: %s",
			 text);
	}
	if (res.set) {
		panic_on_list(res.set, text, sizeof(text));
		log_info(cli, "panic on: %s", text);
	}
	return 0;
}

/* No capture kernel is loaded any more: put the sysctls back. */
int unload_panic_on(struct cli *cli)
{
	struct panicon_result res;
	char text[1024];
	int r;

	r = panicon_restore(PANICON_SYSCTL_ROOT, PANIC_ON_FILE, &res);
	if (res.restored) {
		panic_on_restored(&res, text, sizeof(text));
		log_info(cli, "panic on: put back as before: %s", text);
	}
	if (r < 0) {
		panic_on_failed(cli, "put back", &res, NULL, r);
		fprintf(stderr, "kdump-file: what could not be put back stays in %s for the next unload\n",
			PANIC_ON_FILE);
	}
	return r;
}
