// SPDX-License-Identifier: GPL-2.0
/* The verbs' shared helpers: the close match behind "did you mean". */
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

int main(void)
{
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
