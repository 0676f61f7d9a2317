// SPDX-License-Identifier: GPL-2.0
/*
 * The module plan: parsing (valid, empty, truncated, wrong types, huge,
 * hostile) and the executor over a module directory of empty files, with
 * operations that record what would be inserted.  Nothing here reaches
 * the kernel.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "modplan.h"
#include "tests.h"

static char root[] = "/tmp/test-modplan.XXXXXX";

/* What the executor asked of the kernel. */
static char inserted[1024];
static char options_seen[1024];
static const char *present_names[8];
static const char *fail_name;
static int fail_errno;

static int rec_insert(void *data, const char *name, int fd,
		      const char *options)
{
	(void)data;
	CHECK(fd >= 0);
	if (fail_name && strcmp(name, fail_name) == 0)
		return -fail_errno;
	if (inserted[0])
		strcat(inserted, " ");
	strcat(inserted, name);
	if (options[0]) {
		if (options_seen[0])
			strcat(options_seen, ";");
		strcat(options_seen, name);
		strcat(options_seen, ":");
		strcat(options_seen, options);
	}
	return 0;
}

static bool rec_present(void *data, const char *name)
{
	(void)data;
	for (unsigned int i = 0; i < 8 && present_names[i]; i++)
		if (strcmp(present_names[i], name) == 0)
			return true;
	return false;
}

static const struct modplan_ops rec_ops = {
	.insert = rec_insert,
	.present = rec_present,
};

static void reset(void)
{
	inserted[0] = options_seen[0] = '\0';
	memset(present_names, 0, sizeof(present_names));
	fail_name = NULL;
	fail_errno = 0;
}

static void mkdirs(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	CHECK(mkdir(path, 0755) == 0);
}

static int parse(const char *text, struct modplan **ret)
{
	return modplan_parse(text, strlen(text), ret);
}

/*
 * ext4 needs crc16, mbcache, jbd2 (in load order); jbd2 has a pre softdep
 * on crc32c_generic; ext4 a post one on fixture_post; virtio_blk has an
 * alias pattern and options; vfat is built in, under fs-vfat.
 */
static const char plan_text[] =
	"{\"release\": \"6.1.0-fixture\", \"modules\": ["
	"{\"name\": \"crc16\", \"path\": \"kernel/lib/crc16.ko\"},"
	"{\"name\": \"mbcache\", \"path\": \"kernel/fs/mbcache.ko\"},"
	"{\"name\": \"jbd2\", \"path\": \"kernel/fs/jbd2/jbd2.ko\","
	" \"pre\": [\"crc32c-generic\"]},"
	"{\"name\": \"crc32c_generic\", \"path\": \"kernel/crypto/crc32c_generic.ko\","
	" \"aliases\": [\"crypto-crc32c\"]},"
	"{\"name\": \"ext4\", \"path\": \"kernel/fs/ext4/ext4.ko\","
	" \"deps\": [\"crc16\", \"mbcache\", \"jbd2\"], \"post\": [\"fixture_post\"],"
	" \"options\": \"\", \"aliases\": [\"fs-ext4\", \"fs-ext3\"]},"
	"{\"name\": \"fixture_post\", \"path\": \"extra/fixture_post.ko\"},"
	"{\"name\": \"virtio_blk\", \"path\": \"kernel/drivers/block/virtio_blk.ko\","
	" \"deps\": [], \"options\": \"queue_depth=8\","
	" \"aliases\": [\"virtio:d00000002v*\"]},"
	"{\"name\": \"e1000\", \"path\": \"kernel/drivers/net/e1000.ko\","
	" \"aliases\": [\"pci:v00008086d0000100Esv*sd*bc*sc*i*\"]}"
	"], \"builtin\": [{\"name\": \"fs-vfat\", \"module\": \"vfat\"}]}\n";

static void put_modules(void)
{
	static const char *const dirs[] = {
		"lib", "lib/modules", "lib/modules/6.1.0-fixture",
		"lib/modules/6.1.0-fixture/kernel",
		"lib/modules/6.1.0-fixture/kernel/lib",
		"lib/modules/6.1.0-fixture/kernel/fs",
		"lib/modules/6.1.0-fixture/kernel/fs/jbd2",
		"lib/modules/6.1.0-fixture/kernel/fs/ext4",
		"lib/modules/6.1.0-fixture/kernel/crypto",
		"lib/modules/6.1.0-fixture/kernel/drivers",
		"lib/modules/6.1.0-fixture/kernel/drivers/block",
		"lib/modules/6.1.0-fixture/kernel/drivers/net",
		"lib/modules/6.1.0-fixture/extra",
	};
	static const char *const files[] = {
		"kernel/lib/crc16.ko", "kernel/fs/mbcache.ko",
		"kernel/fs/jbd2/jbd2.ko", "kernel/crypto/crc32c_generic.ko",
		"kernel/fs/ext4/ext4.ko", "extra/fixture_post.ko",
		"kernel/drivers/block/virtio_blk.ko",
		/* e1000.ko missing: its insertion fails with ENOENT. */
	};
	char dir[512];

	for (unsigned int i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		mkdirs(dirs[i]);
	snprintf(dir, sizeof(dir), "%s/lib/modules/6.1.0-fixture", root);
	for (unsigned int i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		test_put(dir, files[i], "");
}

static struct modplan *fixture_plan(void)
{
	char moddir[512];
	struct modplan *p = NULL;

	reset();
	CHECK(parse(plan_text, &p) == 0 && p);
	if (!p)
		return NULL;
	snprintf(moddir, sizeof(moddir), "%s/lib/modules/6.1.0-fixture", root);
	CHECK(modplan_set_exec(p, moddir, &rec_ops) == 0);
	return p;
}

static void test_parse_valid(void)
{
	struct modplan *p = NULL;

	CHECK(parse(plan_text, &p) == 0 && p);
	if (!p)
		return;
	CHECK(strcmp(modplan_release(p), "6.1.0-fixture") == 0);
	CHECK(modplan_count(p) == 8);
	CHECK(strcmp(modplan_name(p, 2), "jbd2") == 0);
	CHECK(strcmp(modplan_path(p, 2), "kernel/fs/jbd2/jbd2.ko") == 0);
	CHECK(modplan_name(p, 8) == NULL && modplan_path(p, 8) == NULL);
	CHECK(strcmp(modplan_loaded(p), "") == 0);
	CHECK(modplan_failures(p, NULL, NULL) == 0);
	modplan_free(p);
	modplan_free(NULL);

	/* No modules at all: a kernel with every driver built in. */
	p = NULL;
	CHECK(parse("{\"release\": \"6.1.0\", \"modules\": []}", &p) == 0 && p);
	if (p) {
		CHECK(modplan_count(p) == 0);
		CHECK(modplan_insert(p, "ext4") == -ENOENT);
		modplan_free(p);
	}
}

static void test_parse_invalid(void)
{
	static const char *const bad[] = {
		"",
		"   ",
		"null",
		"[]",
		"\"plan\"",
		"{}",
		"{\"release\": \"6.1.0\"}",
		"{\"release\": 6, \"modules\": []}",
		"{\"release\": \"\", \"modules\": []}",
		"{\"release\": \"..\", \"modules\": []}",
		"{\"release\": \"a/b\", \"modules\": []}",
		"{\"release\": \"6.1.0\", \"modules\": {}}",
		"{\"release\": \"6.1.0\", \"modules\": [1]}",
		"{\"release\": \"6.1.0\", \"modules\": [{}]}",
		"{\"release\": \"6.1.0\", \"modules\": [{\"name\": \"a\"}]}",
		"{\"release\": \"6.1.0\", \"modules\": [{\"name\": 1, \"path\": \"a.ko\"}]}",
		"{\"release\": \"6.1.0\", \"modules\": [{\"name\": \"a b\", \"path\": \"a.ko\"}]}",
		"{\"release\": \"6.1.0\", \"modules\": [{\"name\": \"a\", \"path\": \"/a.ko\"}]}",
		"{\"release\": \"6.1.0\", \"modules\": [{\"name\": \"a\", \"path\": \"../a.ko\"}]}",
		"{\"release\": \"6.1.0\", \"modules\": [{\"name\": \"a\", \"path\": \"k/../../a.ko\"}]}",
		"{\"release\": \"6.1.0\", \"modules\": [{\"name\": \"a\", \"path\": \"a.ko.xz\"}]}",
		"{\"release\": \"6.1.0\", \"modules\": [{\"name\": \"a\", \"path\": \"a.ko\", \"deps\": [\"b\"]}]}",
		"{\"release\": \"6.1.0\", \"modules\": [{\"name\": \"a\", \"path\": \"a.ko\", \"deps\": \"b\"}]}",
		"{\"release\": \"6.1.0\", \"modules\": [{\"name\": \"a\", \"path\": \"a.ko\", \"pre\": [1]}]}",
		"{\"release\": \"6.1.0\", \"modules\": [{\"name\": \"a\", \"path\": \"a.ko\", \"options\": 3}]}",
		"{\"release\": \"6.1.0\", \"modules\": [{\"name\": \"a\", \"path\": \"a.ko\", \"aliases\": [\"\"]}]}",
		"{\"release\": \"6.1.0\", \"modules\": [{\"name\": \"a\", \"path\": \"a.ko\", \"aliases\": [\"x\\u0000y\"]}]}",
		"{\"release\": \"6.1.0\", \"modules\": [{\"name\": \"a\", \"path\": \"a.ko\"}, {\"name\": \"a\", \"path\": \"b.ko\"}]}",
		"{\"release\": \"6.1.0\", \"modules\": [], \"builtin\": [{\"name\": \"x\"}]}",
		"{\"release\": \"6.1.0\", \"modules\": [], \"builtin\": {}}",
		"{\"release\": \"6.1.0\", \"modules\": []} trailing",
		"{\"release\": \"6.1.0\", \"modules\": [[[[[[[[[[[]]]]]]]]]]]}",
	};
	struct modplan *p = (struct modplan *)&p;
	size_t n = sizeof(plan_text) - 1;
	char *huge;

	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = parse(bad[i], &p);

		if (r != -EINVAL)
			fprintf(stderr, "accepted: %s\n", bad[i]);
		CHECK(r == -EINVAL);
	}
	/* A NUL after the document: not white space. */
	CHECK(modplan_parse("{\"release\": \"r\", \"modules\": []}\0", 32, &p) ==
	      -EINVAL);
	/* Untouched on failure. */
	CHECK(p == (struct modplan *)&p);
	/* Every truncation of a valid plan. */
	for (size_t len = 0; len < n - 1; len++)
		CHECK(modplan_parse(plan_text, len, &p) == -EINVAL);
	CHECK(p == (struct modplan *)&p);

	/* Strings beyond their bounds: a name, an alias, the whole text. */
	huge = malloc(MODPLAN_MAX_BYTES + 2);
	CHECK(huge != NULL);
	if (!huge)
		return;
	snprintf(huge, 200, "{\"release\": \"6.1.0\", \"modules\": [{\"name\": \"");
	n = strlen(huge);
	memset(huge + n, 'a', 100);
	strcpy(huge + n + 100, "\", \"path\": \"a.ko\"}]}");
	CHECK(parse(huge, &p) == -EINVAL);
	snprintf(huge, 200, "{\"release\": \"6.1.0\", \"modules\": [{\"name\": \"a\", \"path\": \"a.ko\", \"aliases\": [\"");
	n = strlen(huge);
	memset(huge + n, 'x', 100000);
	strcpy(huge + n + 100000, "\"]}]}");
	CHECK(parse(huge, &p) == -EINVAL);
	memset(huge, ' ', MODPLAN_MAX_BYTES + 1);
	CHECK(modplan_parse(huge, MODPLAN_MAX_BYTES + 1, &p) == -EINVAL);
	free(huge);
	CHECK(p == (struct modplan *)&p);
}

static void test_read(void)
{
	char dir[512], path[600];
	struct modplan *p = NULL;

	snprintf(dir, sizeof(dir), "%s", root);
	test_put(dir, "plan.json", plan_text);
	snprintf(path, sizeof(path), "%s/plan.json", root);
	CHECK(modplan_read(path, &p) == 0 && p);
	if (p) {
		/* The release says nothing about the kernel running. */
		CHECK(strcmp(modplan_release(p), "6.1.0-fixture") == 0);
		modplan_free(p);
	}
	snprintf(path, sizeof(path), "%s/nosuch.json", root);
	CHECK(modplan_read(path, &p) == -ENOENT);
}

static void test_deps_softdeps(void)
{
	struct modplan *p = fixture_plan();

	if (!p)
		return;
	/*
	 * modprobe's order: each dependency with its softdeps (jbd2's pre
	 * crc32c_generic before it), the module, its post softdeps.  An alias
	 * with '-' for '_'.
	 */
	CHECK(modplan_insert(p, "fs-ext4") == 6);
	CHECK(strcmp(inserted, "crc16 mbcache crc32c_generic jbd2 ext4 fixture_post") == 0);
	CHECK(strcmp(modplan_loaded(p), inserted) == 0);
	CHECK(options_seen[0] == '\0');
	/* Inserted once: a second time is nothing to do. */
	CHECK(modplan_insert(p, "ext4") == 0);
	CHECK(modplan_insert(p, "fs_ext3") == 0);
	CHECK(modplan_failures(p, NULL, NULL) == 0);
	modplan_free(p);
}

static void test_options_builtin_present(void)
{
	struct modplan *p = fixture_plan();

	if (!p)
		return;
	/* Built in: no error, nothing inserted; unknown: -ENOENT. */
	CHECK(modplan_insert(p, "fs-vfat") == 0);
	CHECK(modplan_insert(p, "vfat") == 0);
	CHECK(modplan_insert(p, "fs-nosuch") == -ENOENT);
	CHECK(inserted[0] == '\0');
	/* Options from modprobe.d go to finit_module. */
	CHECK(modplan_insert(p, "virtio-blk") == 1);
	CHECK(strcmp(options_seen, "virtio_blk:queue_depth=8") == 0);
	/* In the kernel already: skipped, the rest inserted. */
	present_names[0] = "crc16";
	present_names[1] = "jbd2";
	CHECK(modplan_insert(p, "ext4") == 4);
	CHECK(strcmp(modplan_loaded(p), "virtio_blk mbcache crc32c_generic ext4 fixture_post") == 0);
	CHECK(modplan_failures(p, NULL, NULL) == 0);
	modplan_free(p);
}

static void test_failures(void)
{
	struct modplan *p = fixture_plan();
	const char *name = NULL;
	int e = 0;

	if (!p)
		return;
	/* A dependency that fails ends the probe, with its errno. */
	fail_name = "mbcache";
	fail_errno = ENOEXEC;
	CHECK(modplan_insert(p, "ext4") == 1);
	CHECK(strcmp(inserted, "crc16") == 0);
	CHECK(modplan_failures(p, &name, &e) == 1);
	CHECK(name && strcmp(name, "mbcache") == 0 && e == ENOEXEC);
	/* A driver that finds no device: ENODEV, a failure as any other. */
	fail_name = "virtio_blk";
	fail_errno = ENODEV;
	CHECK(modplan_insert(p, "virtio_blk") == 0);
	CHECK(modplan_failures(p, &name, &e) == 2);
	CHECK(strcmp(name, "virtio_blk") == 0 && e == ENODEV);
	/* EEXIST: there already (raced with the kernel's own request). */
	fail_name = "fixture_post";
	fail_errno = EEXIST;
	CHECK(modplan_insert(p, "fixture_post") == 0);
	CHECK(modplan_failures(p, NULL, NULL) == 2);
	/* A softdep that fails is ignored, as libkmod ignores it. */
	fail_name = "crc32c_generic";
	fail_errno = ENOENT;
	inserted[0] = '\0';
	/* (fixture_post is there already: EEXIST above.) */
	CHECK(modplan_insert(p, "ext4") == 3);
	CHECK(strcmp(inserted, "mbcache jbd2 ext4") == 0);
	CHECK(modplan_failures(p, NULL, NULL) == 2);
	/* A module file missing from the image: its open's errno. */
	fail_name = NULL;
	CHECK(modplan_insert(p, "e1000") == 0);
	CHECK(modplan_failures(p, &name, &e) == 3);
	CHECK(strcmp(name, "e1000") == 0 && e == ENOENT);
	modplan_free(p);
}

static void test_softdep_loop(void)
{
	static const char text[] =
		"{\"release\": \"r\", \"modules\": ["
		"{\"name\": \"a\", \"path\": \"a.ko\", \"pre\": [\"b\"], \"post\": [\"a\"]},"
		"{\"name\": \"b\", \"path\": \"b.ko\", \"pre\": [\"a\"], \"deps\": [\"a\"]}]}";
	struct modplan *p = NULL;

	reset();
	CHECK(parse(text, &p) == 0 && p);
	if (!p)
		return;
	CHECK(modplan_set_exec(p, root, &rec_ops) == 0);
	test_put(root, "a.ko", "");
	test_put(root, "b.ko", "");
	/* Each module once, whatever loops the softdeps make. */
	CHECK(modplan_insert(p, "a") == 2);
	CHECK(strcmp(inserted, "b a") == 0 || strcmp(inserted, "a b") == 0);
	modplan_free(p);
}

static void test_coldplug(void)
{
	struct modplan *p = fixture_plan();
	char sys[512];

	if (!p)
		return;
	/*
	 * A virtio disk without a driver (its alias matches a pattern), two
	 * devices with the same modalias, one with an alias nothing has, one
	 * that has its driver already.
	 */
	mkdirs("sys");
	mkdirs("sys/a");
	mkdirs("sys/b");
	mkdirs("sys/c");
	mkdirs("sys/d");
	mkdirs("sys/d/driver");
	mkdirs("sys/e");
	snprintf(sys, sizeof(sys), "%s/sys", root);
	test_put(sys, "a/modalias", "virtio:d00000002v00001AF4\n");
	test_put(sys, "e/modalias", "virtio:d00000002v00001AF4\n");
	test_put(sys, "b/modalias", "pci:v0000FFFFd0000FFFF\n");
	test_put(sys, "c/modalias", "fs-vfat\n");
	test_put(sys, "d/modalias", "pci:v00008086d0000100Esv0000sd0000bc02sc00i00\n");
	fail_name = "virtio_blk";
	fail_errno = ENODEV;
	CHECK(modplan_coldplug_round(p, sys) == 0);
	CHECK(modplan_failures(p, NULL, NULL) == 1);
	/* Each alias tried once per plan: the next round tries none again. */
	fail_name = NULL;
	CHECK(modplan_coldplug_round(p, sys) == 0);
	CHECK(inserted[0] == '\0');
	CHECK(modplan_failures(p, NULL, NULL) == 1);
	/* A new device's alias in a later round. */
	mkdirs("sys/f");
	test_put(sys, "f/modalias", "virtio:d00000002v00000000\n");
	CHECK(modplan_coldplug_round(p, sys) == 1);
	CHECK(strcmp(modplan_loaded(p), "virtio_blk") == 0);
	snprintf(sys, sizeof(sys), "%s/nosys", root);
	CHECK(modplan_coldplug_round(p, sys) == -ENOENT);
	modplan_free(p);
}

int main(void)
{
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	put_modules();
	test_parse_valid();
	test_parse_invalid();
	test_read();
	test_deps_softdeps();
	test_options_builtin_present();
	test_failures();
	test_softdep_loop();
	test_coldplug();
	if (test_rm_rf(root) < 0)
		fprintf(stderr, "cannot remove %s\n", root);
	return tests_done();
}
