/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /etc/crypttab (crypttab(5)), read for the LUKS device a dump target is
 * on: which key file unlocks it at boot, and the options that say the
 * capture cannot (a passphrase, a key script, a TPM2 or FIDO2 token).
 */
#ifndef KDUMP_FILE_CRYPTTAB_H
#define KDUMP_FILE_CRYPTTAB_H

#include <stdbool.h>
#include <stddef.h>

struct crypttab_entry {
	unsigned int line;	/* in the file, from 1 */
	char name[128];		/* the mapping's name */
	char device[256];	/* UUID=..., /dev/... */
	char key[256];		/* "" (none, -, absent): a passphrase */
	unsigned long long keyfile_offset, keyfile_size;
	int key_slot;		/* -1: any */
	/*
	 * The first option the capture cannot honour (keyscript=,
	 * tpm2-device=, fido2-device=, pkcs11-uri=, header=, plain, tcrypt,
	 * bitlk), "" when none.
	 */
	char refused[64];
};

/*
 * The entry of the text (a crypttab's contents) for the mapping name or,
 * failing that, for the device UUID=uuid.  -ENOENT when none; -EINVAL for
 * a line of that entry it cannot read (a number option that is not one,
 * a field longer than its member), ret->line saying which.  ret is
 * written only on 0 and -EINVAL.
 */
int crypttab_find(const char *text, const char *name, const char *uuid,
		  struct crypttab_entry *ret);

#endif
