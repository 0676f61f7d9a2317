// SPDX-License-Identifier: GPL-2.0
/* vmlinux: read the kernel banner out of a vmlinux file. */
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vmlinux.h"

#define BANNER "Linux version "
#define CHUNK (1 << 20)

const char *const vmlinux_paths[] = {
	"/usr/lib/debug/boot/vmlinux-%s",
	"/usr/lib/debug/lib/modules/%s/vmlinux",
	"/boot/vmlinux-%s",
	"/lib/modules/%s/vmlinux",
	NULL,
};

static int pread_all(int fd, void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done,
				  off + done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EBADMSG;
		done += n;
	}
	return 0;
}

static bool release_char(char c)
{
	return isalnum((unsigned char)c) || strchr("._+~-", c);
}

/* A banner at @p (within @end) whose release starts with a digit. */
static bool take_banner(const char *p, const char *end, char *ret,
			size_t size)
{
	const char *r = p + strlen(BANNER), *q = r;

	if (r >= end || !isdigit((unsigned char)*r))
		return false;	/* e.g. a "Linux version %s" format */
	while (q < end && release_char(*q))
		q++;
	if (q >= end || *q != ' ' || (size_t)(q - r) >= size)
		return false;
	memcpy(ret, r, q - r);
	ret[q - r] = '\0';
	return true;
}

/* Scan [off, off + len) in chunks that overlap by the longest banner. */
static int scan(int fd, uint64_t off, uint64_t len, char *ret, size_t size)
{
	const size_t keep = strlen(BANNER) + 80;
	char *buf = malloc(CHUNK + 1);
	uint64_t pos = 0;
	int r = -ENOENT;

	if (!buf)
		return -ENOMEM;
	while (pos < len) {
		size_t n = len - pos < CHUNK ? len - pos : CHUNK;
		const char *p, *end = buf + n;

		r = pread_all(fd, buf, n, off + pos);
		if (r < 0)
			break;
		r = -ENOENT;
		for (p = buf; (p = memmem(p, end - p, BANNER,
					  strlen(BANNER))); p++)
			if (take_banner(p, end, ret, size)) {
				r = 0;
				goto out;
			}
		if (pos + n >= len)
			break;
		pos += n > keep ? n - keep : n;
	}
out:
	free(buf);
	return r;
}

/* File offset and size of section @name, or -ENOENT. */
static int find_section(int fd, uint64_t fsize, const Elf64_Ehdr *eh,
			const char *name, uint64_t *ret_off, uint64_t *ret_len)
{
	Elf64_Shdr *sh = NULL, *strs;
	char *names = NULL;
	int r = -ENOENT;
	unsigned int i;

	if (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shnum == 0 ||
	    eh->e_shstrndx >= eh->e_shnum || eh->e_shoff > fsize ||
	    eh->e_shnum > (fsize - eh->e_shoff) / sizeof(Elf64_Shdr))
		return -ENOENT;
	sh = calloc(eh->e_shnum, sizeof(*sh));
	if (!sh)
		return -ENOMEM;
	r = pread_all(fd, sh, eh->e_shnum * sizeof(*sh), eh->e_shoff);
	if (r < 0)
		goto out;
	strs = &sh[eh->e_shstrndx];
	r = -ENOENT;
	if (strs->sh_offset > fsize || strs->sh_size > fsize - strs->sh_offset ||
	    strs->sh_size == 0 || strs->sh_size > (16 << 20))
		goto out;
	names = malloc(strs->sh_size + 1);
	if (!names) {
		r = -ENOMEM;
		goto out;
	}
	r = pread_all(fd, names, strs->sh_size, strs->sh_offset);
	if (r < 0)
		goto out;
	names[strs->sh_size] = '\0';
	r = -ENOENT;
	for (i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_name >= strs->sh_size ||
		    strcmp(names + sh[i].sh_name, name) ||
		    sh[i].sh_type == SHT_NOBITS)
			continue;
		if (sh[i].sh_offset > fsize ||
		    sh[i].sh_size > fsize - sh[i].sh_offset)
			continue;
		*ret_off = sh[i].sh_offset;
		*ret_len = sh[i].sh_size;
		r = 0;
		break;
	}
out:
	free(names);
	free(sh);
	return r;
}

int vmlinux_release(const char *path, char *ret, size_t size, struct diag *d)
{
	uint64_t off, len;
	char rel[128];
	Elf64_Ehdr eh;
	struct stat st;
	int fd, r;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return diag_fail(d, -errno, NULL);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		r = diag_fail(d, -EINVAL, "not a regular file");
		goto out;
	}
	if ((uint64_t)st.st_size < sizeof(eh) ||
	    pread_all(fd, &eh, sizeof(eh), 0) < 0 ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64) {
		r = diag_fail(d, -ENOEXEC,
			      "not an ELF64 file (a compressed vmlinuz will "
			      "not do: crash needs the uncompressed vmlinux "
			      "with debug info)");
		goto out;
	}
	r = find_section(fd, st.st_size, &eh, ".rodata", &off, &len);
	if (r == -ENOENT) {
		off = 0;
		len = st.st_size;
	} else if (r < 0) {
		r = diag_fail(d, r, "cannot read section headers: %s",
			      strerror(-r));
		goto out;
	}
	r = scan(fd, off, len, rel, sizeof(rel));
	if (r == -ENOENT)
		r = diag_fail(d, r, "no \"Linux version\" banner found");
	else if (r < 0)
		r = diag_fail(d, r, "cannot read: %s", strerror(-r));
	else if (strlen(rel) >= size)
		r = diag_fail(d, -ENAMETOOLONG, "release string too long");
	else
		memcpy(ret, rel, strlen(rel) + 1);
out:
	close(fd);
	return r;
}

int vmlinux_find(const char *root, const char *release, char *ret,
		 size_t size)
{
	char fmt[256], path[4096];
	unsigned int i;

	if (!release[0] || strchr(release, '/'))
		return -ENOENT;
	for (i = 0; vmlinux_paths[i]; i++) {
		snprintf(fmt, sizeof(fmt), "%s%s", root ? root : "",
			 vmlinux_paths[i]);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		snprintf(path, sizeof(path), fmt, release);
#pragma GCC diagnostic pop
		if (access(path, R_OK) == 0) {
			if (strlen(path) >= size)
				return -ENAMETOOLONG;
			memcpy(ret, path, strlen(path) + 1);
			return i;
		}
	}
	return -ENOENT;
}

int vmlinux_build_id(const char *path, char *ret, size_t size)
{
	Elf64_Ehdr eh;
	int fd, r = -ENOENT;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (pread_all(fd, &eh, sizeof(eh), 0) < 0 ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum > 64) {
		close(fd);
		return -EBADMSG;
	}
	for (unsigned int i = 0; i < eh.e_phnum && r == -ENOENT; i++) {
		Elf64_Phdr ph;
		uint8_t *buf;
		uint64_t off = 0;

		if (pread_all(fd, &ph, sizeof(ph),
			      eh.e_phoff + (uint64_t)i * sizeof(ph)) < 0)
			break;
		if (ph.p_type != PT_NOTE || ph.p_filesz > (1 << 16))
			continue;
		buf = malloc(ph.p_filesz);
		if (!buf || pread_all(fd, buf, ph.p_filesz, ph.p_offset) < 0) {
			free(buf);
			continue;
		}
		/* Notes: namesz, descsz, type, name and desc 4-aligned. */
		while (off + sizeof(Elf64_Nhdr) <= ph.p_filesz) {
			Elf64_Nhdr nh;
			uint64_t name_off, desc_off;

			memcpy(&nh, buf + off, sizeof(nh));
			name_off = off + sizeof(nh);
			desc_off = name_off + ((nh.n_namesz + 3ULL) & ~3ULL);
			if (desc_off + nh.n_descsz > ph.p_filesz)
				break;
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    memcmp(buf + name_off, "GNU", 4) == 0 &&
			    nh.n_descsz > 0 && nh.n_descsz * 2 < size) {
				for (unsigned int k = 0; k < nh.n_descsz; k++)
					sprintf(ret + 2 * k, "%02x",
						buf[desc_off + k]);
				r = 0;
				break;
			}
			off = desc_off + ((nh.n_descsz + 3ULL) & ~3ULL);
		}
		free(buf);
	}
	close(fd);
	return r;
}

/* Does path hold a kernel with the build ID id (or, without one, release)? */
static bool vmlinux_matches(const char *path, const char *release,
			    const char *id)
{
	char have[130], rel[65];

	if (access(path, R_OK) < 0)
		return false;
	if (id && id[0])
		return vmlinux_build_id(path, have, sizeof(have)) == 0 &&
		       strncmp(have, id, strlen(id)) == 0;
	return vmlinux_release(path, rel, sizeof(rel), NULL) == 0 &&
	       strcmp(rel, release) == 0;
}

int vmlinux_find_id(const char *release, const char *id, const char *const *extra,
		    char *ret, size_t size)
{
	char path[4096], fmt[256];

	if (strchr(release, '/') || (id && strchr(id, '/')))
		return -ENOENT;
	/* The debug file of that build, where Debian's -dbg packages link it. */
	if (id && strlen(id) > 2) {
		snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%.2s/%s.debug",
			 id, id + 2);
		if (vmlinux_matches(path, release, id))
			goto found;
	}
	for (unsigned int i = 0; release[0] && vmlinux_paths[i]; i++) {
		snprintf(fmt, sizeof(fmt), "%s", vmlinux_paths[i]);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		snprintf(path, sizeof(path), fmt, release);
#pragma GCC diagnostic pop
		if (vmlinux_matches(path, release, id))
			goto found;
	}
	for (unsigned int i = 0; extra && extra[i]; i++) {
		snprintf(path, sizeof(path), "%s", extra[i]);
		if (vmlinux_matches(path, release, id))
			goto found;
	}
	return -ENOENT;
found:
	if (strlen(path) >= size)
		return -ENAMETOOLONG;
	strcpy(ret, path);
	return 0;
}
