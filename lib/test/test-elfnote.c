// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "elfnote.h"
#include "tests.h"

struct seen {
	unsigned int n;
	char names[8][32];
	uint32_t types[8];
	uint32_t descsz[8];
	size_t offsets[8];
	int stop_at;	/* return 1 at this note (1-based), 0: never */
};

static int collect(const struct elf_note *n, void *userdata)
{
	struct seen *s = userdata;

	if (s->n < 8) {
		snprintf(s->names[s->n], sizeof(s->names[0]), "%.*s",
			 (int)(n->namesz < 31 ? n->namesz : 31), n->name);
		s->types[s->n] = n->type;
		s->descsz[s->n] = n->descsz;
		s->offsets[s->n] = n->offset;
	}
	s->n++;
	return s->stop_at && s->n == (unsigned int)s->stop_at ? 1 : 0;
}

/* Append a note; pad: whether to pad its desc. */
static size_t put(unsigned char *buf, size_t pos, const char *name,
		  uint32_t namesz, uint32_t type, const char *desc,
		  uint32_t descsz, bool pad)
{
	uint32_t hdr[3] = { namesz, descsz, type };

	memcpy(buf + pos, hdr, sizeof(hdr));
	pos += sizeof(hdr);
	memset(buf + pos, 0, (namesz + 3) & ~3u);
	memcpy(buf + pos, name, namesz);
	pos += (namesz + 3) & ~3u;
	memcpy(buf + pos, desc, descsz);
	pos += descsz;
	if (pad) {
		while (pos % 4)
			buf[pos++] = 0;
	}
	return pos;
}

static void test_walk(void)
{
	static const char info[] = "OSRELEASE=6.1.0-kdf\nPAGESIZE=4096\nCRASHTIME=1767323045\n";
	unsigned char buf[512] = { 0 }, shifted[513];
	struct seen s = { 0 };
	size_t len = 0, bad = 12345;

	len = put(buf, len, "CORE", 5, 1, "abcdefg", 7, true);
	len = put(buf, len, "", 0, 0, "", 0, true);
	len = put(buf, len, "VMCOREINFO", 11, 0, info, sizeof(info), false);
	CHECK(elf_notes_walk(buf, len, collect, &s, &bad) == 0);
	CHECK(s.n == 3 && bad == 12345);
	CHECK(strcmp(s.names[0], "CORE") == 0 && s.types[0] == 1 &&
	      s.descsz[0] == 7 && s.offsets[0] == 0);
	CHECK(s.names[1][0] == '\0' && s.offsets[1] == 28);
	CHECK(strcmp(s.names[2], "VMCOREINFO") == 0 && s.offsets[2] == 40);

	/* Any alignment: a copy one byte further on. */
	memcpy(shifted + 1, buf, len);
	memset(&s, 0, sizeof(s));
	CHECK(elf_notes_walk(shifted + 1, len, collect, &s, NULL) == 0 &&
	      s.n == 3);

	/* Stopped by the callback: its value back. */
	memset(&s, 0, sizeof(s));
	s.stop_at = 2;
	CHECK(elf_notes_walk(buf, len, collect, &s, NULL) == 1 && s.n == 2);

	/* Nothing, and fewer bytes than a header after the last note. */
	memset(&s, 0, sizeof(s));
	CHECK(elf_notes_walk(NULL, 0, collect, &s, NULL) == 0 && s.n == 0);
	CHECK(elf_notes_walk(NULL, 1, collect, &s, NULL) == -EINVAL);
	CHECK(elf_notes_walk(buf, 11, collect, &s, NULL) == 0 && s.n == 0);
	CHECK(elf_notes_walk(buf, 40 + 11, collect, &s, NULL) == 0 && s.n == 2);
}

static void test_corrupt(void)
{
	unsigned char buf[256] = { 0 };
	struct seen s = { 0 };
	size_t len, bad = 0;
	uint32_t *hdr;

	len = put(buf, 0, "CORE", 5, 1, "abcdefg", 7, true);
	/* Cut in the desc, in the name: the note runs past the end. */
	CHECK(elf_notes_walk(buf, len - 2, collect, &s, &bad) == -EBADMSG);
	CHECK(bad == 0 && s.n == 0);
	CHECK(elf_notes_walk(buf, 14, collect, &s, &bad) == -EBADMSG);

	/* The second note is bad: the first was seen, the offset says which. */
	len = put(buf, len, "LINUX", 6, 2, "x", 1, true);
	hdr = (uint32_t *)(buf + 28);
	CHECK(elf_notes_walk(buf, len, collect, &s, &bad) == 0 && s.n == 2);
	memset(&s, 0, sizeof(s));
	/* Sizes meant to wrap an offset: 0xffffffff, 0xfffffffd. */
	hdr[0] = 0xffffffffu;
	CHECK(elf_notes_walk(buf, len, collect, &s, &bad) == -EBADMSG);
	CHECK(bad == 28 && s.n == 1);
	hdr[0] = 6;
	hdr[1] = 0xfffffffdu;
	CHECK(elf_notes_walk(buf, len, collect, &s, &bad) == -EBADMSG);
	hdr[0] = 0xfffffffdu;
	hdr[1] = 8;
	CHECK(elf_notes_walk(buf, len, collect, &s, &bad) == -EBADMSG);
	/* A desc one byte past the end. */
	hdr[0] = 6;
	hdr[1] = (uint32_t)(len - 28 - 12 - 8 + 1);
	CHECK(elf_notes_walk(buf, len, collect, &s, &bad) == -EBADMSG);
	/* Exactly to the end, unpadded: fine. */
	hdr[1] = (uint32_t)(len - 28 - 12 - 8 - 1);
	memset(&s, 0, sizeof(s));
	CHECK(elf_notes_walk(buf, len - 1, collect, &s, &bad) == 0 && s.n == 2);
}

/* Random bytes: never a read out of bounds (ASan), whatever comes back. */
static int count(const struct elf_note *n, void *userdata)
{
	const unsigned char *d = n->desc;
	unsigned int *sum = userdata;

	/* Touch every byte the walk hands out. */
	for (uint32_t i = 0; i < n->namesz; i++)
		*sum += (unsigned char)n->name[i];
	for (uint32_t i = 0; i < n->descsz; i++)
		*sum += d[i];
	return 0;
}

static void test_random(void)
{
	unsigned int seed = 1, sum = 0, ok = 0;

	for (int round = 0; round < 20000; round++) {
		size_t len = (size_t)(rand_r(&seed) % 96);
		unsigned char *buf = malloc(len ? len : 1);
		int r;

		for (size_t i = 0; i < len; i++) {
			unsigned int x = (unsigned int)rand_r(&seed);

			/* Mostly small sizes, so that walks go on. */
			buf[i] = (x & 0x300) ? (unsigned char)(x & 0x0f) :
					       (unsigned char)x;
		}
		r = elf_notes_walk(buf, len, count, &sum, NULL);
		ok += r == 0 || r == -EBADMSG;
		free(buf);
	}
	CHECK(ok == 20000);
}

static void test_names(void)
{
	struct elf_note n = { .name = "VMCOREINFO", .namesz = 11 };
	char v[32];
	static const char info[] =
		"OSRELEASE=6.1.0-kdf\nPAGESIZE=4096\nEMPTY=\nCRASHTIME=1767323045";

	CHECK(elf_note_is(&n, "VMCOREINFO"));
	n.namesz = 10;
	CHECK(elf_note_is(&n, "VMCOREINFO"));
	CHECK(!elf_note_is(&n, "VMCOREINFO_XEN") && !elf_note_is(&n, "VMCORE"));
	n.name = "VMCOREINFOX";
	n.namesz = 11;
	CHECK(!elf_note_is(&n, "VMCOREINFO"));

	CHECK(vmcoreinfo_get(info, sizeof(info) - 1, "OSRELEASE", v, sizeof(v)) == 0 &&
	      strcmp(v, "6.1.0-kdf") == 0);
	/* The last line, unended. */
	CHECK(vmcoreinfo_get(info, sizeof(info) - 1, "CRASHTIME", v, sizeof(v)) == 0 &&
	      strcmp(v, "1767323045") == 0);
	CHECK(vmcoreinfo_get(info, sizeof(info) - 1, "EMPTY", v, sizeof(v)) == 0 &&
	      v[0] == '\0');
	CHECK(vmcoreinfo_get(info, sizeof(info) - 1, "PAGE", v, sizeof(v)) == -ENOENT);
	strcpy(v, "kept");
	CHECK(vmcoreinfo_get(info, sizeof(info) - 1, "OSRELEASE", v, 4) == -ENOBUFS &&
	      strcmp(v, "kept") == 0);
	/* Cut short: the line is what the length says. */
	CHECK(vmcoreinfo_get(info, 13, "OSRELEASE", v, sizeof(v)) == 0 &&
	      strcmp(v, "6.1") == 0);
	/* A desc padded with NULs. */
	CHECK(vmcoreinfo_get("A=b\0\0\0", 6, "A", v, sizeof(v)) == 0 &&
	      strcmp(v, "b") == 0);
}

int main(void)
{
	test_walk();
	test_corrupt();
	test_random();
	test_names();
	return tests_done();
}
