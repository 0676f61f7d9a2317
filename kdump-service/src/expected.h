/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The dump a crash now would write (load, status, estimate, mem-usage):
 * its expected size and time, a dump target without room for it, a
 * makedumpfile that cannot tell free pages; from the cache of makedumpfile
 * --mem-usage unless fresh.
 */
#ifndef KDUMP_FILE_EXPECTED_H
#define KDUMP_FILE_EXPECTED_H

#include <stdbool.h>

#include <json-c/json.h>

#include "cli.h"
#include "dumpsize.h"

/* dumpsize_expect() for c, with its dumps where this system sees them. */
void expect_dump(struct cli *cli, const struct kdump_conf *c, bool fresh,
		 struct dumpsize_expected *x);
/* x's warnings, in load's words. */
void print_dump_warnings(struct cli *cli, const struct dumpsize_expected *x);
/*
 * The expected dump and its warnings, as load gives them: into j (status
 * --json, estimate --json), or printed, the warnings on stderr.  fresh
 * (estimate): from a new run of makedumpfile, and where its figures come
 * from.
 */
int expected_report(struct cli *cli, const struct kdump_conf *c, bool fresh,
		    struct json_object *j);
/* The warnings of the dump a crash now would write, said before it happens. */
int dump_warnings(struct cli *cli, const struct kdump_conf *c);

#endif
