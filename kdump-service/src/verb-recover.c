// SPDX-License-Identifier: GPL-2.0
/*
 * recover: a dump the capture wrote to the raw dump device, copied into
 * a dump directory below path (the work is recover-raw.c's).
 */
#include "cli.h"
#include "recover-raw.h"

int verb_recover(struct cli *cli, int argc _unused_, char *argv[] _unused_)
{
	return recover_raw(cli);
}
