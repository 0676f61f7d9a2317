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

/*
 * What the stamp holds: the fingerprint, and the image's own size, so that
 * an image truncated or replaced since it was built is not taken as current.
 */
static char *stamp_text(const char *fingerprint, long long img_size)
{
	char *t;

	if (asprintf(&t, "%simage-size %lld\n", fingerprint, img_size) < 0)
		return NULL;
	return t;
}

bool initramfs_is_current(const char *img, const char *fingerprint_in)
{
	char stamp[PATH_MAX], *old, *fingerprint;
	struct stat st;
	size_t len;
	bool same = false;
	FILE *f;

	if (stat(img, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size == 0)
		return false;
	fingerprint = stamp_text(fingerprint_in, st.st_size);
	if (!fingerprint)
		return false;
	len = strlen(fingerprint);
	snprintf(stamp, sizeof(stamp), "%s.stamp", img);
	f = fopen(stamp, "re");
	if (!f) {
		free(fingerprint);
		return false;
	}
	old = malloc(len + 2);
	if (old) {
		size_t n = fread(old, 1, len + 1, f);

		same = n == len && memcmp(old, fingerprint, len) == 0;
		free(old);
	}
	fclose(f);
	free(fingerprint);
	return same;
}

int initramfs_build(const char *img, const char *kver,
		    const char *capture_conf_file, const char *fingerprint)
{
	char tmp[PATH_MAX], stamp[PATH_MAX], *text;
	struct stat st;
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
	if (stat(tmp, &st) < 0 || rename(tmp, img) < 0) {
		r = -errno;
		(void)unlink(tmp);
		return r;
	}
	text = stamp_text(fingerprint, st.st_size);
	if (!text)
		return -ENOMEM;
	r = write_file_atomic(stamp, text, strlen(text), 0600);
	free(text);
	return r;
}
