// SPDX-License-Identifier: GPL-2.0
/*
 * What modload does short of loading a module, over a module directory of
 * its own: depmod's indexes for a kernel that has one module built in
 * (kdumpfixture, alias fs-kdumpfixture) and none loadable, and a directory
 * made to look like sysfs for coldplug.  Nothing here reaches the kernel:
 * a built-in module is never inserted and the other names resolve to
 * nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "modload.h"
#include "process.h"
#include "tests.h"

static char root[] = "/tmp/test-modload.XXXXXX";

static void mkdirs(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	CHECK(mkdir(path, 0755) == 0);
}

/* depmod over root/lib/modules/6.1.0-fixture: false when there is none. */
static bool make_moddir(void)
{
	static const char modinfo[] = "kdumpfixture.alias=fs-kdumpfixture";
	char dir[512], path[600];
	struct process_result r;
	FILE *f;

	mkdirs("lib");
	mkdirs("lib/modules");
	mkdirs("lib/modules/6.1.0-fixture");
	snprintf(dir, sizeof(dir), "%s/lib/modules/6.1.0-fixture", root);
	test_put(dir, "modules.builtin", "kernel/fs/kdumpfixture.ko\n");
	test_put(dir, "modules.order", "");
	/* NUL-terminated records: what the kernel build writes. */
	snprintf(path, sizeof(path), "%s/modules.builtin.modinfo", dir);
	f = fopen(path, "we");
	CHECK(f != NULL);
	if (f) {
		fwrite(modinfo, 1, sizeof(modinfo), f);
		fclose(f);
	}
	for (unsigned int i = 0; i < 2; i++) {
		char *argv[] = { i ? "/sbin/depmod" : "/usr/sbin/depmod", "-b",
				 root, "6.1.0-fixture", NULL };

		if (access(argv[0], X_OK) < 0)
			continue;
		return process_run(argv, NULL, &r) == 0 && process_succeeded(&r);
	}
	return false;
}

static void test_empty(void)
{
	char name[64] = "unset", deps[64] = "unset";
	unsigned long long bytes = 1;
	const char *names[] = { "nosuchmodule" };
	struct modload *m = NULL;
	const char *failed = NULL;
	int e = -1;

	/* A directory without indexes: a kernel without modules. */
	CHECK(modload_new(root, &m) == 0 && m);
	if (!m)
		return;
	CHECK(modload_lookup(m, "nosuchmodule", name, sizeof(name), deps,
			     sizeof(deps)) == MODLOAD_MISSING);
	/* Missing: the buffers as they were. */
	CHECK(strcmp(name, "unset") == 0 && strcmp(deps, "unset") == 0);
	CHECK(modload_insert(m, "nosuchmodule") == -ENOENT);
	CHECK(strcmp(modload_loaded(m), "") == 0);
	CHECK(modload_failures(m, &failed, &e) == 0);
	CHECK(modload_files_bytes(m, names, 1, &bytes) == 0 && bytes == 0);
	modload_free(m);
	modload_free(NULL);
}

static void test_builtin(void)
{
	char moddir[512], sys[512], name[64], deps[64] = "unset";
	const char *names[] = { "kdumpfixture", "fs-kdumpfixture" };
	unsigned long long bytes = 1;
	struct modload *m = NULL;

	if (!make_moddir()) {
		printf("no depmod: lookups in a module directory skipped\n");
		return;
	}
	snprintf(moddir, sizeof(moddir), "%s/lib/modules/6.1.0-fixture", root);
	CHECK(modload_new(moddir, &m) == 0 && m);
	if (!m)
		return;
	CHECK(modload_lookup(m, "kdumpfixture", name, sizeof(name), deps,
			     sizeof(deps)) == MODLOAD_BUILTIN);
	CHECK(strcmp(name, "kdumpfixture") == 0 && deps[0] == '\0');
	/* An alias resolves to the module's own name. */
	CHECK(modload_lookup(m, "fs-kdumpfixture", name, sizeof(name), NULL,
			     0) == MODLOAD_BUILTIN);
	CHECK(strcmp(name, "kdumpfixture") == 0);
	CHECK(modload_lookup(m, "fs-nosuch", NULL, 0, NULL, 0) ==
	      MODLOAD_MISSING);
	/* Built in: nothing to insert, no error, nothing counted. */
	CHECK(modload_insert(m, "fs-kdumpfixture") == 0);
	CHECK(strcmp(modload_loaded(m), "") == 0);
	CHECK(modload_failures(m, NULL, NULL) == 0);
	CHECK(modload_files_bytes(m, names, 2, &bytes) == 0 && bytes == 0);

	/*
	 * Coldplug: a device without a driver whose alias is built in, one
	 * with an alias nothing has, one that has its driver already.
	 */
	mkdirs("sys");
	mkdirs("sys/a");
	mkdirs("sys/b");
	mkdirs("sys/c");
	mkdirs("sys/c/driver");
	snprintf(sys, sizeof(sys), "%s/sys", root);
	test_put(sys, "a/modalias", "fs-kdumpfixture\n");
	test_put(sys, "b/modalias", "pci:v0000FFFFd0000FFFF\n");
	test_put(sys, "c/modalias", "fs-kdumpfixture\n");
	CHECK(modload_coldplug_round(m, sys) == 0);
	CHECK(modload_coldplug_round(m, sys) == 0);
	CHECK(modload_failures(m, NULL, NULL) == 0);
	CHECK(strcmp(modload_loaded(m), "") == 0);
	snprintf(sys, sizeof(sys), "%s/nosys", root);
	CHECK(modload_coldplug_round(m, sys) == -ENOENT);
	modload_free(m);
}

int main(void)
{
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	test_empty();
	test_builtin();
	if (test_rm_rf(root) < 0)
		fprintf(stderr, "cannot remove %s\n", root);
	return tests_done();
}
