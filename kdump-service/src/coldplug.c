// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "coldplug.h"

#ifndef MODULE_INIT_COMPRESSED_FILE
#define MODULE_INIT_COMPRESSED_FILE 4
#endif

#define MAX_ALIASES 1024

static char *aliases[MAX_ALIASES];
static unsigned int n_aliases;

static int collect_modalias(const char *path, const struct stat *st, int type,
			    struct FTW *ftw)
{
	const char *base = path + ftw->base;
	char buf[512];
	FILE *f;

	(void)st;
	if (type != FTW_F || strcmp(base, "modalias") != 0 ||
	    n_aliases >= MAX_ALIASES)
		return 0;
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = '\0';
		if (buf[0])
			aliases[n_aliases++] = strdup(buf);
	}
	fclose(f);
	return 0;
}

/* "kernel/drivers/foo-bar.ko.xz" -> "foo_bar" */
static void module_name(const char *path, char *buf, size_t size)
{
	const char *b = strrchr(path, '/');
	size_t n;

	b = b ? b + 1 : path;
	n = strcspn(b, ".");
	if (n >= size)
		n = size - 1;
	for (size_t i = 0; i < n; i++)
		buf[i] = b[i] == '-' ? '_' : b[i];
	buf[n] = '\0';
}

static int load_one(const char *moddir, const char *relpath)
{
	char p[4096];
	int fd, flags = 0, r = 0;
	size_t n = strlen(relpath);

	snprintf(p, sizeof(p), "%s/%s", moddir, relpath);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if ((n > 3 && strcmp(relpath + n - 3, ".xz") == 0) ||
	    (n > 4 && strcmp(relpath + n - 4, ".zst") == 0) ||
	    (n > 3 && strcmp(relpath + n - 3, ".gz") == 0))
		flags |= MODULE_INIT_COMPRESSED_FILE;
	if (syscall(SYS_finit_module, fd, "", flags) < 0 && errno != EEXIST)
		r = -errno;
	close(fd);
	return r;
}

/* Load name and what modules.dep says it needs, deepest first. */
static int load_with_deps(const char *moddir, FILE *dep, const char *name)
{
	char line[4096], m[256];
	int loaded = 0;

	rewind(dep);
	while (fgets(line, sizeof(line), dep)) {
		char *colon = strchr(line, ':'), *deps[64], *tok, *save;
		unsigned int nd = 0;

		if (!colon)
			continue;
		*colon = '\0';
		module_name(line, m, sizeof(m));
		if (strcmp(m, name) != 0)
			continue;
		for (tok = strtok_r(colon + 1, " \n", &save); tok && nd < 64;
		     tok = strtok_r(NULL, " \n", &save))
			deps[nd++] = tok;
		/* modules.dep lists a module's needs before their own needs. */
		while (nd > 0)
			if (load_one(moddir, deps[--nd]) == 0)
				loaded++;
		if (load_one(moddir, line) == 0)
			loaded++;
		break;
	}
	return loaded;
}

int coldplug_load_modules(const char *moddir, const char *sysfs_root)
{
	char p[4096], line[1024], m[256];
	FILE *alias, *dep;
	int loaded = 0;

	snprintf(p, sizeof(p), "%s/modules.alias", moddir);
	alias = fopen(p, "re");
	if (!alias)
		return errno == ENOENT ? 0 : -errno;
	snprintf(p, sizeof(p), "%s/modules.dep", moddir);
	dep = fopen(p, "re");
	if (!dep) {
		fclose(alias);
		return errno == ENOENT ? 0 : -errno;
	}
	n_aliases = 0;
	(void)nftw(sysfs_root, collect_modalias, 32, FTW_PHYS);
	while (fgets(line, sizeof(line), alias)) {
		char pattern[768], name[256];

		if (sscanf(line, "alias %767s %255s", pattern, name) != 2)
			continue;
		for (unsigned int i = 0; i < n_aliases; i++) {
			if (fnmatch(pattern, aliases[i], 0) == 0) {
				module_name(name, m, sizeof(m));
				loaded += load_with_deps(moddir, dep, m);
				break;
			}
		}
	}
	fclose(dep);
	fclose(alias);
	for (unsigned int i = 0; i < n_aliases; i++)
		free(aliases[i]);
	return loaded;
}
