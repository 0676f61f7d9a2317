// SPDX-License-Identifier: GPL-2.0
/*
 * The one ELF note walk.  Sizes are 32-bit and are added to offsets in
 * size_t (64-bit here) only after each is checked against what is left,
 * so that no sum wraps; a header is copied out, never read in place, as
 * the buffer may have any alignment.
 */
#include <errno.h>
#include <string.h>

#include "elfnote.h"

/* n_namesz, n_descsz, n_type: the same in Elf32_Nhdr and Elf64_Nhdr. */
#define NOTE_HEADER_SIZE 12

static size_t align4(uint32_t n)
{
	return ((size_t)n + 3) & ~(size_t)3;
}

int elf_notes_walk(const void *buf, size_t size,
		   int (*cb)(const struct elf_note *n, void *userdata),
		   void *userdata, size_t *ret_bad_offset)
{
	const unsigned char *p = buf;
	size_t pos = 0;

	if (!buf && size)
		return -EINVAL;
	while (size - pos >= NOTE_HEADER_SIZE) {
		struct elf_note n = { .offset = pos };
		uint32_t hdr[3];
		size_t name_len, left;
		int r;

		memcpy(hdr, p + pos, sizeof(hdr));
		n.namesz = hdr[0];
		n.descsz = hdr[1];
		n.type = hdr[2];
		pos += NOTE_HEADER_SIZE;
		left = size - pos;
		name_len = align4(n.namesz);
		if (name_len > left || n.descsz > left - name_len) {
			if (ret_bad_offset)
				*ret_bad_offset = n.offset;
			return -EBADMSG;
		}
		n.name = (const char *)p + pos;
		n.desc = p + pos + name_len;
		r = cb(&n, userdata);
		if (r != 0)
			return r;
		/* The last note's padding is optional. */
		if (align4(n.descsz) > left - name_len)
			break;
		pos += name_len + align4(n.descsz);
	}
	return 0;
}

bool elf_note_is(const struct elf_note *n, const char *what)
{
	size_t len = strlen(what);

	return (n->namesz == len ||
		(n->namesz == len + 1 && n->name[len] == '\0')) &&
	       memcmp(n->name, what, len) == 0;
}

int vmcoreinfo_get(const char *text, size_t len, const char *key, char *buf,
		   size_t size)
{
	size_t klen = strlen(key), pos = 0;

	while (pos < len) {
		const char *line = text + pos, *nl;
		size_t n;

		nl = memchr(line, '\n', len - pos);
		n = nl ? (size_t)(nl - line) : len - pos;
		pos += n + (nl != NULL);
		if (n <= klen || memcmp(line, key, klen) != 0 ||
		    line[klen] != '=')
			continue;
		line += klen + 1;
		n -= klen + 1;
		/* The desc of a note may end in NULs: not the value's. */
		n = strnlen(line, n);
		if (n >= size)
			return -ENOBUFS;
		memcpy(buf, line, n);
		buf[n] = '\0';
		return 0;
	}
	return -ENOENT;
}
