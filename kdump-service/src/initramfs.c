// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "initramfs.h"
#include "util.h"

static int add(char *buf, size_t size, size_t *pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int add(char *buf, size_t size, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + *pos, size - *pos, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= size - *pos)
		return -ENOBUFS;
	*pos += n;
	return 0;
}

/* Identity of a file: size and modification time. */
static int add_file(char *buf, size_t size, size_t *pos, const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return add(buf, size, pos, "%s missing\n", path);
	return add(buf, size, pos, "%s %lld %lld.%09ld\n", path,
		   (long long)st.st_size, (long long)st.st_mtim.tv_sec,
		   st.st_mtim.tv_nsec);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int initramfs_fingerprint(const char *kernel, const char *capture_conf,
			  char *buf, size_t size)
{
	char *names[64];
	unsigned int n = 0;
	struct dirent *de;
	size_t pos = 0;
	DIR *d;
	int r;

	if (size == 0)
		return -ENOBUFS;
	buf[0] = '\0';
	r = add_file(buf, size, &pos, kernel);
	if (r == 0)
		r = add_file(buf, size, &pos,
			     KDUMP_FILE_LIBEXEC_DIR "/kdump-file-capture");
	if (r == 0)
		r = add_file(buf, size, &pos, "/usr/sbin/makedumpfile");
	if (r < 0)
		return r;
	d = opendir(KDUMP_FILE_DRACUT_MODULE);
	if (!d)
		return -errno;
	while ((de = readdir(d)) && n < 64) {
		if (de->d_name[0] == '.')
			continue;
		names[n] = strdup(de->d_name);
		if (!names[n]) {
			r = -ENOMEM;
			break;
		}
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_str);
	for (unsigned int i = 0; i < n; i++) {
		char p[PATH_MAX];

		snprintf(p, sizeof(p), "%s/%s", KDUMP_FILE_DRACUT_MODULE,
			 names[i]);
		if (r == 0)
			r = add_file(buf, size, &pos, p);
		free(names[i]);
	}
	if (r == 0)
		r = add(buf, size, &pos, "capture.conf:\n%s", capture_conf);
	return r;
}

bool initramfs_is_current(const char *img, const char *fingerprint)
{
	char stamp[PATH_MAX], *old;
	struct stat st;
	size_t len = strlen(fingerprint);
	bool same = false;
	FILE *f;

	if (stat(img, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size == 0)
		return false;
	snprintf(stamp, sizeof(stamp), "%s.stamp", img);
	f = fopen(stamp, "re");
	if (!f)
		return false;
	old = malloc(len + 2);
	if (old) {
		size_t n = fread(old, 1, len + 1, f);

		same = n == len && memcmp(old, fingerprint, len) == 0;
		free(old);
	}
	fclose(f);
	return same;
}

int initramfs_build(const char *img, const char *kver,
		    const char *capture_conf_file, const char *fingerprint)
{
	char tmp[PATH_MAX], stamp[PATH_MAX];
	int r;

	if (snprintf(tmp, sizeof(tmp), "%s.new", img) >= (int)sizeof(tmp) ||
	    snprintf(stamp, sizeof(stamp), "%s.stamp", img) >= (int)sizeof(stamp))
		return -ENAMETOOLONG;
	{
		/*
		 * Only what the capture needs: our module (its /init is the
		 * capture program) and this host's own drivers; no dracut
		 * shell init, udev or systemd, which cost the capture kernel
		 * more memory than it has (see dracut-module/).
		 */
		char *const argv[] = {
			"dracut", "--force", "--quiet", "--hostonly",
			"--hostonly-mode", "strict", "--no-hostonly-cmdline",
			"--no-early-microcode", "--modules",
			"kdump-file kernel-modules", "--include",
			(char *)capture_conf_file,
			KDUMP_FILE_CAPTURE_CONF_IN_INITRAMFS, "--kver",
			(char *)kver, tmp, NULL,
		};

		/* dracut's chatter goes to our stderr, not our stdout. */
		r = run_program(argv, STDERR_FILENO);
	}
	if (r != 0) {
		(void)unlink(tmp);
		return r < 0 ? r : -EIO;
	}
	(void)unlink(stamp);
	if (rename(tmp, img) < 0) {
		r = -errno;
		(void)unlink(tmp);
		return r;
	}
	return write_file_atomic(stamp, fingerprint, strlen(fingerprint), 0600);
}
