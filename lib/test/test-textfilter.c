// SPDX-License-Identifier: GPL-2.0
#include <errno.h>

#include "tests.h"
#include "textfilter.h"

/* src through text_filter() into a large buffer equals want. */
static bool shows(const char *src, const char *want)
{
	char buf[512];

	if (text_filter(src, buf, sizeof(buf)) != 0)
		return false;
	if (strcmp(buf, want) != 0) {
		fprintf(stderr, "shown as '%s', want '%s'\n", buf, want);
		return false;
	}
	return true;
}

/* No byte a terminal acts on: C0, DEL, raw 0x80..0x9f, UTF-8 C1. */
static bool inert(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p; p++)
		if (*p < 0x20 || *p == 0x7f || (*p >= 0x80 && *p <= 0x9f &&
						(p == (const unsigned char *)s ||
						 p[-1] == 0xc2)))
			return false;
	return true;
}

static void test_plain(void)
{
	CHECK(shows("", ""));
	CHECK(shows("Kernel panic - not syncing: sysrq triggered crash",
		    "Kernel panic - not syncing: sysrq triggered crash"));
	/* UTF-8 kept: Latin, CJK, a 4-byte emoji. */
	CHECK(shows("caf\xc3\xa9 \xe6\xbc\xa2 \xf0\x9f\x92\xa5",
		    "caf\xc3\xa9 \xe6\xbc\xa2 \xf0\x9f\x92\xa5"));
	/* U+00A0, the first code point past C1, is printable. */
	CHECK(shows("a\xc2\xa0z", "a\xc2\xa0z"));
	/* A backslash kept: filtering twice is filtering once. */
	CHECK(shows("a\\x1b", "a\\x1b"));
	CHECK(text_filter(NULL, (char[4]){ 0 }, 4) == 0);
}

static void test_c0_del(void)
{
	char src[2] = { 0 }, want[8];

	for (int c = 1; c < 0x20; c++) {
		src[0] = (char)c;
		snprintf(want, sizeof(want), "\\x%02x", c);
		CHECK(shows(src, want));
	}
	CHECK(shows("a\tb\nc\r", "a\\x09b\\x0ac\\x0d"));
	CHECK(shows("\x7f", "\\x7f"));
}

static void test_escape_sequences(void)
{
	char buf[256];

	/* CSI: clear the screen, colours, cursor moves. */
	CHECK(shows("\x1b[2J\x1b[H", "\\x1b[2J\\x1b[H"));
	CHECK(shows("\x1b[31mred\x1b[0m", "\\x1b[31mred\\x1b[0m"));
	/* OSC: the window title, a hyperlink; BEL and ST end them. */
	CHECK(shows("\x1b]0;owned\x07", "\\x1b]0;owned\\x07"));
	CHECK(shows("\x1b]8;;http://x\x1b\\", "\\x1b]8;;http://x\\x1b\\"));
	/* DCS, and the two-byte forms. */
	CHECK(shows("\x1bP1$r\x1b\\", "\\x1bP1$r\\x1b\\"));
	CHECK(shows("\x1b" "c\x1b" "7", "\\x1b" "c\\x1b" "7"));
	/* C1 as UTF-8: CSI U+009B, OSC U+009D, NEL U+0085, U+0080. */
	CHECK(shows("\xc2\x9b" "2J", "\\u009b2J"));
	CHECK(shows("\xc2\x9d" "0;t\xc2\x9c", "\\u009d0;t\\u009c"));
	CHECK(shows("a\xc2\x85" "b\xc2\x80", "a\\u0085b\\u0080"));
	/* Reordering: RLO, an isolate, the line separator. */
	CHECK(shows("\xe2\x80\xae" "cba", "\\u202ecba"));
	CHECK(shows("\xe2\x81\xa6x\xe2\x81\xa9", "\\u2066x\\u2069"));
	CHECK(shows("\xe2\x80\xa8", "\\u2028"));
	/* Nothing a terminal acts on is left in a mix of all of them. */
	CHECK(text_filter("\x1b[2J\x9b" "1m\xc2\x9b\x07\x7f\xe2\x80\xae",
			  buf, sizeof(buf)) == 0);
	CHECK(inert(buf));
}

static void test_invalid_utf8(void)
{
	/* Raw C1 bytes (CSI in an 8-bit charset), a lone continuation. */
	CHECK(shows("\x9b" "2J", "\\x9b2J"));
	CHECK(shows("a\x80z", "a\\x80z"));
	/* Overlong ESC and '/', a surrogate, beyond U+10FFFF, 0xff. */
	CHECK(shows("\xc0\x9b", "\\xc0\\x9b"));
	CHECK(shows("\xe0\x80\xaf", "\\xe0\\x80\\xaf"));
	CHECK(shows("\xed\xa0\x80", "\\xed\\xa0\\x80"));
	CHECK(shows("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"));
	CHECK(shows("\xff\xfe", "\\xff\\xfe"));
	/* A sequence cut by the end of the text. */
	CHECK(shows("ab\xe6\xbc", "ab\\xe6\\xbc"));
}

static void test_truncation(void)
{
	char buf[16], big[8];
	int r;

	/* Fits exactly: 15 bytes and the NUL. */
	CHECK(text_filter("0123456789abcde", buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "0123456789abcde") == 0);
	CHECK(text_filter("0123456789abcdef", buf, sizeof(buf)) == -ENOBUFS);
	CHECK(strcmp(buf, "0123456789ab...") == 0);
	/* Never half an escape: "\x1b" is cut whole. */
	r = text_filter("0123456789\x1b[2J", buf, sizeof(buf));
	CHECK(r == -ENOBUFS && strcmp(buf, "0123456789...") == 0);
	CHECK(inert(buf) && !strstr(buf, "\\x1..."));
	/* Never half a character. */
	r = text_filter("0123456789a\xe6\xbc\xa2\xe6\xbc\xa2", buf,
			sizeof(buf));
	CHECK(r == -ENOBUFS && strcmp(buf, "0123456789a...") == 0);
	/* Room for "..." only from 4 bytes on; below, cut without it. */
	CHECK(text_filter("abcdef", big, 4) == -ENOBUFS &&
	      strcmp(big, "...") == 0);
	CHECK(text_filter("abcdef", big, 3) == -ENOBUFS &&
	      strcmp(big, "ab") == 0);
	CHECK(text_filter("\x1b", big, 3) == -ENOBUFS && big[0] == '\0');
	CHECK(text_filter("abc", big, 0) == -EINVAL);
	CHECK(text_filter("", big, 1) == 0 && big[0] == '\0');
}

static void test_idempotent(void)
{
	const char *nasty = "\x1b]0;t\x07\\\x9b\xc2\x9b\xe2\x80\xae\x7f\n\xff";
	char once[256], twice[256];

	CHECK(text_filter(nasty, once, sizeof(once)) == 0);
	CHECK(text_filter(once, twice, sizeof(twice)) == 0);
	CHECK(strcmp(once, twice) == 0);
}

static void test_dup(void)
{
	char *s = text_filter_dup("t\x1b]0;x\x07\xc2\x9b\xff");

	CHECK(s && strcmp(s, "t\\x1b]0;x\\x07\\u009b\\xff") == 0);
	free(s);
	/* The longest growth: every byte a six-byte escape. */
	s = text_filter_dup("\xc2\x9b\xc2\x9b\xc2\x9b");
	CHECK(s && strcmp(s, "\\u009b\\u009b\\u009b") == 0);
	free(s);
}

static void test_safe(void)
{
	char buf[8];
	char *long_text = malloc(3 * TEXT_SAFE_MAX);

	/* For printf(): the filtered text, or its cut, never an error. */
	CHECK(strcmp(text_safe("a\x1b[2Jb", (char[16]){ 0 }, 16),
		     "a\\x1b[2Jb") == 0);
	CHECK(strcmp(text_safe("0123456789", buf, sizeof(buf)),
		     "0123...") == 0);
	CHECK(long_text != NULL);
	if (long_text) {
		memset(long_text, 'x', 3 * TEXT_SAFE_MAX - 1);
		long_text[3 * TEXT_SAFE_MAX - 1] = '\0';
		CHECK(strlen(TEXT_SAFE(long_text)) == TEXT_SAFE_MAX - 1);
		free(long_text);
	}
}

static void test_json(void)
{
	/* json-c's own escapes and the layout (newlines, spaces) kept. */
	const char *doc = "{\n  \"panic\": \"\\u001b[2J\\n\",\n  \"t\": \"caf\xc3\xa9\"\n}";
	char *s = text_filter_json(doc);

	CHECK(s && strcmp(s, doc) == 0);
	free(s);
	s = text_filter_json("{\"a\":\"\xc2\x9b" "2J\x7f\xff\xe2\x80\xae\"}");
	CHECK(s && strcmp(s, "{\"a\":\"\\u009b2J\\u007f\\ufffd\\u202e\"}") == 0);
	free(s);
}

int main(void)
{
	test_plain();
	test_c0_del();
	test_escape_sequences();
	test_invalid_utf8();
	test_truncation();
	test_idempotent();
	test_dup();
	test_safe();
	test_json();
	return tests_done();
}
