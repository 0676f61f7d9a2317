/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ELF notes (the contents of a PT_NOTE segment: the vmcore's CPU states
 * and VMCOREINFO) walked with every size checked, since they come from a
 * crashed kernel or a file anyone could have made.  Never logs.
 */
#ifndef KDUMP_FILE_ELFNOTE_H
#define KDUMP_FILE_ELFNOTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One note; name and desc point into the buffer walked. */
struct elf_note {
	const char *name;	/* namesz bytes, NUL-terminated or not */
	uint32_t namesz;
	uint32_t type;		/* n_type: NT_PRSTATUS, ... */
	const void *desc;	/* descsz bytes, as aligned as the buffer */
	uint32_t descsz;
	size_t offset;		/* of its header in the buffer */
};

/*
 * Walk the notes in buf (size bytes, in the host's byte order): a 12-byte
 * header (Elf32_Nhdr and Elf64_Nhdr are the same), the name and the desc,
 * each padded to 4 bytes (include/uapi/linux/elf.h); the last note's
 * padding may be missing and fewer than 12 bytes after the last note are
 * ignored, as libkdumpfile does.  A note of zero sizes (the kernel ends
 * its per-CPU notes with one) is passed on like any other.  Each note
 * goes to cb, which returns 0 to go on, or a value that ends the walk and
 * is returned.  Returns 0 when every note was seen, -EBADMSG when a note
 * runs past the end (its header's offset in *ret_bad_offset, if not NULL,
 * and only then), -EINVAL for a NULL buf with a size.
 */
int elf_notes_walk(const void *buf, size_t size,
		   int (*cb)(const struct elf_note *n, void *userdata),
		   void *userdata, size_t *ret_bad_offset);

/* Is the note's name what, with its terminating NUL or without? */
bool elf_note_is(const struct elf_note *n, const char *what);

/*
 * The value of key in VMCOREINFO text ("KEY=value" lines; text need not
 * be NUL-terminated): copied to buf, NUL-terminated.  -ENOENT when there
 * is no such line, -ENOBUFS when the value does not fit (buf untouched).
 */
int vmcoreinfo_get(const char *text, size_t len, const char *key, char *buf,
		   size_t size);

#endif
