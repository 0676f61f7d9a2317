// SPDX-License-Identifier: GPL-2.0
/*
 * What modload does short of loading a module, over a module directory of
 * its own: depmod's indexes for a kernel that has one module built in
 * (kdumpfixture, alias fs-kdumpfixture) and none loadable, and a directory
 * made to look like sysfs for coldplug; and, for the module plan, modules
 * of its own: objects the C compiler makes with a .modinfo section and
 * symbols depmod resolves, softdeps and options from a modprobe.d file of
 * its own.  Nothing here reaches the kernel: a built-in module is never
 * inserted, the other names resolve to nothing, and the plan's executor
 * records what it would insert.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "modload.h"
#include "modplan.h"
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
	struct modload *m = NULL;

	/* A directory without indexes: a kernel without modules. */
	CHECK(modload_new(root, &m) == 0 && m);
	if (!m)
		return;
	CHECK(modload_lookup(m, "nosuchmodule", name, sizeof(name), deps,
			     sizeof(deps)) == MODLOAD_MISSING);
	/* Missing: the buffers as they were. */
	CHECK(strcmp(name, "unset") == 0 && strcmp(deps, "unset") == 0);
	modload_free(m);
	modload_free(NULL);
}

static void test_builtin(void)
{
	char moddir[512], name[64], deps[64] = "unset";
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
	/* Where it lies, from modules.builtin. */
	name[0] = '\0';
	CHECK(modload_lookup_under(m, "fs-kdumpfixture", "kernel/fs/", name,
				   sizeof(name)) == MODLOAD_BUILTIN);
	CHECK(strcmp(name, "kdumpfixture") == 0);
	snprintf(name, sizeof(name), "unset");
	CHECK(modload_lookup_under(m, "fs-kdumpfixture",
				   "kernel/drivers/watchdog/", name,
				   sizeof(name)) == MODLOAD_MISSING);
	CHECK(strcmp(name, "unset") == 0);
	CHECK(modload_lookup_under(m, "fs-nosuch", "kernel/", name,
				   sizeof(name)) == MODLOAD_MISSING);
	modload_free(m);
}

static bool run(char *const argv[])
{
	struct process_result r;

	return access(argv[0], X_OK) == 0 && process_run(argv, NULL, &r) == 0 &&
	       process_succeeded(&r);
}

/* dir/name.ko compiled from the C text src; false without a compiler. */
static bool make_ko(const char *dir, const char *name, const char *src)
{
	char c[600], ko[600];
	char *argv[] = { "/usr/bin/cc", "-c", "-o", ko, c, NULL };
	bool ok;

	snprintf(c, sizeof(c), "%s/%s.c", root, name);
	snprintf(ko, sizeof(ko), "%s/%s.ko", dir, name);
	test_put(root, strrchr(c, '/') + 1, src);
	ok = run(argv);
	unlink(c);
	return ok;
}

/* modules.builtin.modinfo: kdumpfixture's alias, or nothing. */
static void put_modinfo(const char *moddir, bool fixture)
{
	static const char modinfo[] = "kdumpfixture.alias=fs-kdumpfixture";
	char path[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/modules.builtin.modinfo", moddir);
	f = fopen(path, "we");
	CHECK(f != NULL);
	if (f) {
		if (fixture)
			fwrite(modinfo, 1, sizeof(modinfo), f);
		fclose(f);
	}
}

static char plan_inserted[256], plan_options[256];

static int plan_insert(void *data, const char *name, int fd,
		       const char *options)
{
	(void)data;
	CHECK(fd >= 0);
	if (plan_inserted[0])
		strcat(plan_inserted, " ");
	strcat(plan_inserted, name);
	if (options[0])
		snprintf(plan_options, sizeof(plan_options), "%s:%s", name,
			 options);
	return 0;
}

static bool plan_present(void *data, const char *name)
{
	(void)data;
	(void)name;
	return false;
}

static const struct modplan_ops plan_ops = {
	.insert = plan_insert,
	.present = plan_present,
};

/*
 * fix_a needs fix_b (its symbol); modprobe.d gives fix_a a pre softdep on
 * fix_c, a post one on an alias of fix_b, and options; kdumpfixture is
 * built in.  The plan holds them, and its executor inserts as modprobe
 * --show-depends says: fix_b fix_c fix_a.
 */
static void test_plan(void)
{
	static const char b_src[] =
		"int fixture_b_fn(void) { return 1; }\n"
		"__attribute__((section(\"__ksymtab_strings\"), used)) static const char ks[] = \"fixture_b_fn\";\n"
		"__attribute__((section(\".modinfo\"), used)) static const char mi[] = \"license=GPL\\0alias=fixture-b-alias\";\n";
	static const char a_src[] =
		"extern int fixture_b_fn(void);\n"
		"int a_fn(void) { return fixture_b_fn(); }\n"
		"__attribute__((section(\".modinfo\"), used)) static const char mi[] = \"license=GPL\\0alias=pci:v00001234d*sv*\\0alias=fs-fixa\";\n";
	static const char c_src[] =
		"__attribute__((section(\".modinfo\"), used)) static const char mi[] = \"license=GPL\";\n";
	const char *names[] = { "fs-fixa", "fs-kdumpfixture", "nosuchmodule" };
	const char *config[] = { NULL, NULL };
	char moddir[512], kdir[600], conf[512], bad[64] = "";
	char *depmod[] = { "/sbin/depmod", "-b", root, "6.1.0-plan", NULL };
	char *text = (char *)"unset";
	struct modplan *p = NULL;
	struct modload *m = NULL;
	int r;

	snprintf(moddir, sizeof(moddir), "%s/lib/modules/6.1.0-plan", root);
	snprintf(kdir, sizeof(kdir), "%s/kernel", moddir);
	CHECK(mkdir(moddir, 0755) == 0 && mkdir(kdir, 0755) == 0);
	if (!make_ko(kdir, "fix_a", a_src) || !make_ko(kdir, "fix_b", b_src) ||
	    !make_ko(kdir, "fix_c", c_src)) {
		printf("no C compiler: the module plan's writer skipped\n");
		return;
	}
	test_put(moddir, "modules.order",
		 "kernel/fix_a.ko\nkernel/fix_b.ko\nkernel/fix_c.ko\n");
	test_put(moddir, "modules.builtin", "kernel/fs/kdumpfixture.ko\n");
	put_modinfo(moddir, true);
	if (!run(depmod)) {
		printf("no depmod: the module plan's writer skipped\n");
		return;
	}
	snprintf(conf, sizeof(conf), "%s/fixture.conf", root);
	test_put(root, "fixture.conf",
		 "softdep fix_a pre: fix_c post: fixture-b-alias\n"
		 "options fix_a opt=1 two=2\n"
		 "alias fixture-conf-alias fix-c\n");
	config[0] = conf;
	CHECK(modload_new_config(moddir, config, &m) == 0 && m);
	if (!m)
		return;
	r = modload_plan(m, "6.1.0-plan", names, 3, &text, bad, sizeof(bad));
	CHECK(r == 0);
	if (r < 0) {
		modload_free(m);
		return;
	}
	/* Paths relative to the module directory. */
	CHECK(strstr(text, "\"path\":\"kernel/fix_a.ko\"") != NULL);
	/* A loadable module's place, from its path in modules.dep. */
	CHECK(modload_lookup_under(m, "pci:v00001234d00005678sv00000000",
				   "kernel/", bad, sizeof(bad)) ==
	      MODLOAD_MODULE);
	CHECK(strcmp(bad, "fix_a") == 0);
	CHECK(modload_lookup_under(m, "pci:v00001234d00005678sv00000000",
				   "kernel/drivers/", bad, sizeof(bad)) ==
	      MODLOAD_MISSING);
	bad[0] = '\0';
	CHECK(modplan_parse(text, strlen(text), &p) == 0 && p);
	free(text);
	if (p) {
		CHECK(strcmp(modplan_release(p), "6.1.0-plan") == 0);
		CHECK(modplan_count(p) == 3);
		CHECK(modplan_set_exec(p, moddir, &plan_ops) == 0);
		/* The alias pattern matches a device's modalias. */
		CHECK(modplan_insert(p, "pci:v00001234d00005678sv00000000") == 3);
		CHECK(strcmp(plan_inserted, "fix_b fix_c fix_a") == 0);
		CHECK(strcmp(plan_options, "fix_a:opt=1 two=2") == 0);
		/* modprobe.d's alias, as libkmod looks it up. */
		plan_inserted[0] = '\0';
		CHECK(modplan_insert(p, "fixture-conf-alias") == 0);
		CHECK(modplan_failures(p, NULL, NULL) == 0);
		/* Built in: known to the plan, nothing to insert. */
		CHECK(modplan_insert(p, "fs-kdumpfixture") == 0);
		CHECK(modplan_insert(p, "nosuchmodule") == -ENOENT);
		CHECK(modplan_failures(p, NULL, NULL) == 0);
		modplan_free(p);
	}
	modload_free(m);
}

/* A compressed module: the plan refuses it and names it. */
static void test_plan_compressed(void)
{
	static const char d_src[] =
		"__attribute__((section(\".modinfo\"), used)) static const char mi[] = \"license=GPL\";\n";
	char moddir[512], kdir[600], ko[700], bad[64] = "";
	char *xz[] = { "/usr/bin/xz", ko, NULL };
	char *depmod[] = { "/sbin/depmod", "-b", root, "6.1.0-xz", NULL };
	const char *names[] = { "fix_d" };
	char *text = NULL;
	struct modload *m = NULL;

	snprintf(moddir, sizeof(moddir), "%s/lib/modules/6.1.0-xz", root);
	snprintf(kdir, sizeof(kdir), "%s/kernel", moddir);
	snprintf(ko, sizeof(ko), "%s/fix_d.ko", kdir);
	CHECK(mkdir(moddir, 0755) == 0 && mkdir(kdir, 0755) == 0);
	if (!make_ko(kdir, "fix_d", d_src) || !run(xz)) {
		printf("no C compiler or xz: a compressed module skipped\n");
		return;
	}
	test_put(moddir, "modules.order", "kernel/fix_d.ko\n");
	test_put(moddir, "modules.builtin", "");
	put_modinfo(moddir, false);
	if (!run(depmod)) {
		printf("no depmod: a compressed module skipped\n");
		return;
	}
	CHECK(modload_new(moddir, &m) == 0 && m);
	if (!m)
		return;
	CHECK(modload_plan(m, "6.1.0-xz", names, 1, &text, bad,
			   sizeof(bad)) == -ENOEXEC);
	CHECK(text == NULL && strcmp(bad, "fix_d") == 0);
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
	test_plan();
	test_plan_compressed();
	if (test_rm_rf(root) < 0)
		fprintf(stderr, "cannot remove %s\n", root);
	return tests_done();
}
