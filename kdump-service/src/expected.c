// SPDX-License-Identifier: GPL-2.0
/*
 * The dump a crash now would write, and what to warn of before it happens
 * (see expected.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "expected.h"
#include "json.h"

/* A dump target without room, a makedumpfile that cannot tell free pages. */
void print_dump_warnings(struct cli *cli, const struct dumpsize_expected *x)
{
	if (x->free_pages[0])
		log_warning(cli, "%s", x->free_pages);
	if (x->room[0])
		log_warning(cli, "%s", x->room);
}

/* dumpsize_expect() for c, with its dumps where this system sees them. */
void expect_dump(struct cli *cli, const struct kdump_conf *c,
			bool fresh, struct dumpsize_expected *x)
{
	char base[PATH_MAX];
	bool known;

	known = c->net == CONF_NET_NONE &&
		dumps_base(cli, c, base, sizeof(base)) == 0;
	dumpsize_expect(c, cli->opt.config, known ? base : NULL, fresh, x);
}

int dump_warnings(struct cli *cli, const struct kdump_conf *c)
{
	struct dumpsize_expected *x;

	x = calloc(1, sizeof(*x));
	if (!x)
		return -ENOMEM;
	expect_dump(cli, c, false, x);
	print_dump_warnings(cli, x);
	free(x);
	return 0;
}

/* The expected dump as JSON: null when not known. */
static struct json_object *expected_json(const struct kdump_conf *c,
					 const struct dumpsize_expected *x)
{
	const struct dump_estimate *e = &x->d.est;
	struct json_object *o;

	if (x->r < 0 || !x->d.known)
		return NULL;
	o = json_object_new_object();
	if (!o ||
	    json_set_int(o, "bytes", (long long)e->bytes) < 0 ||
	    json_set_double(o, "seconds", e->seconds) < 0 ||
	    json_set_int(o, "dump_level", c->dump_level) < 0 ||
	    json_set_text(o, "compression",
			  conf_compression_to_string(c->compression)) < 0 ||
	    json_set_int(o, "kept_pages", (long long)e->kept_pages) < 0 ||
	    json_set_int(o, "total_pages", (long long)e->total_pages) < 0 ||
	    json_set_int(o, "page_size", (long long)e->page_size) < 0 ||
	    json_set_bool(o, "measured", e->measured) < 0 ||
	    json_set_bool(o, "cached", x->d.cached) < 0) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/*
 * The expected dump and its warnings, as load gives them: into j, or
 * printed (the warnings on stderr, in load's words).  For estimate
 * (estimate: true), from a fresh run of makedumpfile, and where its
 * figures come from.
 */
int expected_report(struct cli *cli, const struct kdump_conf *c,
		    bool estimate, struct json_object *j)
{
	struct dumpsize_expected *x;
	int m = 0;

	x = calloc(1, sizeof(*x));
	if (!x)
		return -ENOMEM;
	expect_dump(cli, c, estimate, x);
	if (j) {
		struct json_object *e = expected_json(c, x);

		if (x->r >= 0 && x->d.known && !e)
			m = -ENOMEM;
		if (m == 0)
			m = json_object_object_add(j, "expected_dump", e) ?
				-ENOMEM : 0;
		if (m == 0)
			m = cli_json_text(j, "expected_dump_text", x->text);
		if (m == 0)
			m = cli_json_text(j, "dump_room_warning", x->room);
		if (m == 0)
			m = cli_json_text(j, "makedumpfile_warning",
					  x->free_pages);
		if (m == 0)
			m = cli_json_text(j, "makedumpfile_note", x->note);
	} else {
		printf("expected dump: %s\n", x->text);
		if (estimate && x->d.known && !x->d.est.measured)
			printf("note: the dump's size and time are those make bench measured on emulated (TCG) guests: a real machine writes it faster\n");
		if (x->note[0])
			printf("makedumpfile: %s\n", x->note);
		fflush(stdout);
		print_dump_warnings(cli, x);
	}
	free(x);
	return m;
}
