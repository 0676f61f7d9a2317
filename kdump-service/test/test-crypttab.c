// SPDX-License-Identifier: GPL-2.0
/* crypttab_find() over crypttab texts as users write them. */
#include <errno.h>
#include <string.h>

#include "crypttab.h"
#include "tests.h"

static const char tab[] =
	"# <target name> <source device> <key file> <options>\n"
	"\n"
	"  sda5_crypt UUID=aaaa-bbbb none luks,discard\n"
	"data\tUUID=01234567-89AB-cdef-0123-456789abcdef\t/etc/keys/data.key\tluks,keyfile-offset=512,keyfile-size=64,key-slot=3\n"
	"tpm /dev/vdc - tpm2-device=auto\n"
	"script /dev/vdd /etc/keys/x keyscript=/lib/cryptsetup/scripts/passdev\n"
	"bare /dev/vde\n"
	"badnum /dev/vdf /k keyfile-size=12x\n"
	"slot /dev/vdg /k key-slot=32\n"
	"plainswap /dev/vdh /dev/urandom swap,plain,cipher=aes-xts-plain64\n";

int main(void)
{
	struct crypttab_entry e;

	/* A passphrase (none), by the mapping's name. */
	CHECK(crypttab_find(tab, "sda5_crypt", NULL, &e) == 0);
	CHECK(e.line == 3 && e.key[0] == '\0' && e.refused[0] == '\0');
	CHECK(strcmp(e.device, "UUID=aaaa-bbbb") == 0);
	/* A key file with offset, size and slot; found by UUID too. */
	CHECK(crypttab_find(tab, "data", NULL, &e) == 0);
	CHECK(strcmp(e.key, "/etc/keys/data.key") == 0);
	CHECK(e.keyfile_offset == 512 && e.keyfile_size == 64 && e.key_slot == 3);
	CHECK(crypttab_find(tab, "other-name", "01234567-89ab-cdef-0123-456789abcdef", &e) == 0);
	CHECK(strcmp(e.name, "data") == 0 && e.line == 4);
	/* "-" is no key; the options the capture cannot honour. */
	CHECK(crypttab_find(tab, "tpm", NULL, &e) == 0);
	CHECK(e.key[0] == '\0' && strcmp(e.refused, "tpm2-device") == 0);
	CHECK(crypttab_find(tab, "script", NULL, &e) == 0);
	CHECK(strcmp(e.refused, "keyscript") == 0);
	CHECK(crypttab_find(tab, "plainswap", NULL, &e) == 0);
	CHECK(strcmp(e.refused, "plain") == 0);
	/* Two fields only: a passphrase, any slot. */
	CHECK(crypttab_find(tab, "bare", NULL, &e) == 0);
	CHECK(e.key[0] == '\0' && e.key_slot == -1 && e.keyfile_size == 0);
	/* Numbers that are not: the line named. */
	CHECK(crypttab_find(tab, "badnum", NULL, &e) == -EINVAL && e.line == 8);
	CHECK(crypttab_find(tab, "slot", NULL, &e) == -EINVAL && e.line == 9);
	/* Absent, by name and by UUID; an empty file. */
	memset(&e, 0x5a, sizeof(e));
	CHECK(crypttab_find(tab, "nothing", "ffffffff-0000-0000-0000-000000000000", &e) == -ENOENT);
	CHECK(e.line == 0x5a5a5a5a);
	CHECK(crypttab_find("", "data", NULL, &e) == -ENOENT);
	/* A line longer than the reader takes is skipped, not cut. */
	{
		char big[3000];

		memset(big, 'x', sizeof(big));
		memcpy(big, "data /dev/x ", 12);
		big[sizeof(big) - 1] = '\0';
		CHECK(crypttab_find(big, "data", NULL, &e) == -ENOENT);
	}
	return tests_done();
}
