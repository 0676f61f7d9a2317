/* SPDX-License-Identifier: GPL-2.0 */
/* SHA-256 (FIPS 180-4), for crash signatures; not for security. */
#ifndef KDUMP_FILE_SHA256_H
#define KDUMP_FILE_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_SIZE 32

struct sha256 {
	uint32_t h[8];
	uint64_t len;		/* bytes hashed so far */
	uint8_t buf[64];
	size_t fill;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
void sha256_final(struct sha256 *s, uint8_t out[SHA256_DIGEST_SIZE]);

/* Lowercase hex of the first @nbytes of the digest of @data (NUL-terminated). */
void sha256_hex(const void *data, size_t len, char *out, size_t nbytes);

#endif
