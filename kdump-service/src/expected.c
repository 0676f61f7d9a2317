// SPDX-License-Identifier: GPL-2.0
/*
 * The dump a crash now would write, and what to warn of before it happens
 * (see expected.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "expected.h"

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
