// SPDX-License-Identifier: GPL-2.0
/*
 * crypt.c on the host: the chain's "luks" lines as kdump-file(8) writes
 * them, and the lines a damaged chain may hold.  Unlocking itself runs in
 * the LUKS scenarios (TEST-40, TEST-41).
 */
#include <errno.h>

#include "capture.h"
#include "tests.h"

#define UUID "01234567-89ab-cdef-0123-456789abcdef"

int main(void)
{
	struct capture_crypt c;
	struct capture cap = { 0 };

	CHECK(crypt_parse_line("luks " UUID " dumps kernel", &c) == 0);
	CHECK(c.kernel && strcmp(c.uuid, UUID) == 0 && strcmp(c.name, "dumps") == 0);
	CHECK(crypt_parse_line("luks " UUID " kdump-crypt file 1 512 64 fs-uuid ext4 /etc/keys/dump.key",
			       &c) == 0);
	CHECK(!c.kernel && c.slot == 1 && c.offset == 512 && c.size == 64);
	CHECK(strcmp(c.fs_uuid, "fs-uuid") == 0 && strcmp(c.fs_type, "ext4") == 0);
	CHECK(strcmp(c.path, "/etc/keys/dump.key") == 0);
	/* Damaged: each refused whole, ret untouched. */
	memset(&c, 0x5a, sizeof(c));
	CHECK(crypt_parse_line("luks " UUID " dumps", &c) == -EINVAL);
	CHECK(crypt_parse_line("luks " UUID " dumps kernel extra", &c) == -EINVAL);
	CHECK(crypt_parse_line("luks " UUID " dumps passphrase", &c) == -EINVAL);
	CHECK(crypt_parse_line("luks " UUID " d file 32 0 0 u ext4 /k", &c) == -EINVAL);
	CHECK(crypt_parse_line("luks " UUID " d file -1 0 0 u ext4 /k", &c) == -EINVAL);
	CHECK(crypt_parse_line("luks " UUID " d file 1 0 0 u ext4 k", &c) == -EINVAL);
	CHECK(crypt_parse_line("luks " UUID " d file 1 0 0 u ext4", &c) == -EINVAL);
	CHECK(crypt_parse_line("luks " UUID " d file 1 0 0 u ext4 /k more", &c) == -EINVAL);
	CHECK(crypt_parse_line("luks " UUID " d file x 0 0 u ext4 /k", &c) == -EINVAL);
	CHECK(crypt_parse_line("md " UUID, &c) == -EINVAL);
	CHECK(c.slot == 0x5a5a5a5a);
	/* Not PID 1: nothing read, nothing run. */
	cap.paths.chain = "/nonexistent";
	crypt_step(&cap);
	CHECK(!cap.crypts_read && cap.n_crypts == 0);
	return tests_done();
}
