// SPDX-License-Identifier: GPL-2.0
/*
 * The verbs' shared helpers: the close match behind "did you mean", the
 * one way sizes are written, and what a held log says its failure was.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "tests.h"

static const char *const names[] = {
	"load", "unload", "reload", "status", "show", "rebuild", "report",
	"estimate", "recover", "test", "setup", "list", "info", "debug",
	"hotplug", "import",
};
#define N (sizeof(names) / sizeof(names[0]))

static bool closest_is(const char *word, const char *want)
{
	const char *got = cli_closest(word, names, N);

	if (!want)
		return got == NULL;
	return got && strcmp(got, want) == 0;
}

static bool bytes_are(unsigned long long b, const char *want)
{
	char buf[FORMAT_BYTES_MAX];

	format_bytes(b, buf, sizeof(buf));
	if (strcmp(buf, want) == 0)
		return true;
	fprintf(stderr, "format_bytes(%llu): '%s', not '%s'\n", b, buf, want);
	return false;
}

/* The failure of a held log is the first log_error(), as said. */
static void test_held_error(void)
{
	static struct cli cli;

	cli_init(&cli);
	log_hold(&cli);
	CHECK(strcmp(log_held_error(&cli), "") == 0);
	log_stderr(&cli, "waiting for %s", "the collector");
	/* No error yet: the first line stands for it. */
	CHECK(strcmp(log_held_error(&cli), "waiting for the collector") == 0);
	log_error(&cli, "cannot reach %s: %s", "192.0.2.1", "no route");
	log_error(&cli, "error: a later one");
	CHECK(strcmp(log_held_error(&cli), "cannot reach 192.0.2.1: no route") == 0);
	CHECK(strstr(log_held(&cli), "kdump-file: error: cannot reach 192.0.2.1: no route\n"));
	/* A message that itself starts "error: " is not mistaken for one. */
	log_release(&cli, false);
	log_hold(&cli);
	log_stderr(&cli, "error: not an error");
	log_error(&cli, "the real one");
	CHECK(strcmp(log_held_error(&cli), "the real one") == 0);
	log_release(&cli, false);
	CHECK(strcmp(log_held_error(&cli), "") == 0);
	cli_done(&cli);
}

int main(void)
{
	test_held_error();
	/* Bytes below a KiB, one decimal below 10, none from 10. */
	CHECK(bytes_are(0, "0 B"));
	CHECK(bytes_are(5, "5 B"));
	CHECK(bytes_are(1023, "1023 B"));
	CHECK(bytes_are(1024, "1.0 KiB"));
	CHECK(bytes_are(512 << 10, "512 KiB"));
	CHECK(bytes_are(1 << 20, "1.0 MiB"));
	CHECK(bytes_are(1536ULL << 10, "1.5 MiB"));
	CHECK(bytes_are(23ULL << 20, "23 MiB"));
	CHECK(bytes_are(112ULL << 20, "112 MiB"));
	/* Rounding up to the next unit says the next unit. */
	CHECK(bytes_are((1ULL << 20) - 1, "1.0 MiB"));
	CHECK(bytes_are(9ULL << 30, "9.0 GiB"));
	CHECK(bytes_are(~0ULL, "16 EiB"));

	/* A letter dropped, added, changed, two swapped. */
	CHECK(closest_is("stauts", "status"));
	CHECK(closest_is("lst", "list"));
	CHECK(closest_is("rebiuld", "rebuild"));
	CHECK(closest_is("importt", "import"));
	CHECK(closest_is("hotplg", "hotplug"));
	CHECK(closest_is("estimat", "estimate"));
	/* The nearest wins: "unlod" is one from unload, two from load. */
	CHECK(closest_is("unlod", "unload"));
	/* Nothing near, or too short to tell. */
	CHECK(closest_is("frobnicate", NULL));
	CHECK(closest_is("x", NULL));
	CHECK(closest_is("ld", NULL));
	CHECK(closest_is("", NULL));
	return tests_done();
}
