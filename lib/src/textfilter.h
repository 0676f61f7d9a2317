/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one output filter for text that came from a crash: panic text, task
 * names, a signature, a kernel release, dmesg lines, a failure record.  A
 * crashed kernel's memory, or anything that reached its log, chose those
 * bytes; printed as they are, an escape sequence in them would drive
 * root's terminal (retitle it, rewrite what is on screen, answer back).
 * Nothing is dropped: what cannot be shown is shown escaped, so a reader
 * sees that it was there.
 */
#ifndef KDUMP_FILE_TEXTFILTER_H
#define KDUMP_FILE_TEXTFILTER_H

#include <stddef.h>

/*
 * src into buf (size bytes, NUL-terminated) for a terminal or a log line.
 * Printable ASCII and valid UTF-8 are kept.  Shown escaped:
 *   every C0 control (tab and newline included) and DEL as \xHH, so an
 *     ESC sequence reads "\x1b[2J" and does nothing;
 *   the C1 controls U+0080..U+009F (UTF-8 CSI, OSC, NEL) and the Unicode
 *     bidirectional and line-separator format characters as \uHHHH;
 *   every byte that is not part of valid UTF-8 as \xHH (a lone 0x9b is a
 *     CSI to a terminal in an 8-bit charset).
 * A backslash is kept as it is: so the filter is idempotent (text passed
 * through it twice, once by a reader of a record and once by a printer,
 * reads as once), at the cost of a text "\x1b" reading as an ESC would;
 * neither acts on the terminal.
 * Text that does not fit is cut between two characters or escapes, never
 * inside one, and ends in "..." (when size allows 4 bytes).
 *
 * Returns 0, -ENOBUFS when the text was cut (buf holds the cut text), or
 * -EINVAL when size is 0.
 */
int text_filter(const char *src, char *buf, size_t size);

/* The same into a new string (free() it); NULL when out of memory. */
char *text_filter_dup(const char *src);

/*
 * Text that came from a crash (a dump's metadata, report, dmesg; a
 * collector's listing) as printed: text_filter() into buf, cut with "..."
 * when it does not fit.  Returns buf.  TEXT_SAFE(s) gives it a buffer that
 * lives as long as the enclosing block, for printf()'s arguments.
 */
#define TEXT_SAFE_MAX 2048
const char *text_safe(const char *s, char *buf, size_t size);
#define TEXT_SAFE(s) text_safe((s), (char[TEXT_SAFE_MAX]){ 0 }, TEXT_SAFE_MAX)

/*
 * A JSON document (as json-c writes it, C0 controls already escaped in its
 * strings) made safe for a terminal without changing the data it holds:
 * DEL, the C1 controls and the format characters above become \uHHHH and
 * every byte that is not UTF-8 becomes \ufffd.  Outside strings a JSON
 * document is ASCII, so every byte changed is inside a string.  Returns a
 * new string (free() it) or NULL when out of memory.
 */
char *text_filter_json(const char *json);

#endif
