// SPDX-License-Identifier: GPL-2.0
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collector-copy.h"
#include "dump.h"
#include "dumpdir.h"
#include "json.h"
#include "netcheck.h"
#include "netdir.h"
#include "netplan.h"
#include "util.h"

const char *collector_copy_dir(void)
{
	const char *d = getenv("KDUMP_FILE_COPY_DIR");

	return d && d[0] == '/' ? d : COLLECTOR_COPY_DIR;
}

/* What a copy holds: all of it goes when the copy does. */
static const char *const copy_files[] = {
	DUMP_DMESG, DUMP_METADATA, DUMP_COLLECTOR_COPY, DUMP_REPORT_JSON,
	DUMP_REPORT_TXT, NULL,
};

/* A copy, or what is left of one; a file not of a copy keeps it there. */
static void copy_remove(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					     O_CLOEXEC);

	if (fd < 0)
		return;
	for (size_t i = 0; copy_files[i]; i++)
		(void)unlinkat(fd, copy_files[i], 0);
	close(fd);
	(void)unlinkat(dirfd, name, AT_REMOVEDIR);
}

/* Where the dump is, as the journal entry and list name it. */
static int copy_mark(int fd, const struct kdump_conf *c, const char *hostdir,
		     const char *name, long long vmcore_bytes)
{
	char where[CONF_VALUE_MAX + NET_HOST_DIR_MAX + DUMP_NAME_MAX + 8];
	struct json_object *o = json_object_new_object();
	int r;

	snprintf(where, sizeof(where), "%s/%s/%s", c->target, hostdir, name);
	r = o ? json_set_text(o, "location", where) : -ENOMEM;
	if (r == 0)
		r = json_set_int(o, "vmcore_bytes",
				 vmcore_bytes > 0 ? vmcore_bytes : 0);
	if (r == 0)
		r = json_write_atomic_at(fd, DUMP_COLLECTOR_COPY, o, 0600);
	json_object_put(o);
	return r;
}

/* A fresh directory for the copy of name: .NAME.part, made anew. */
static int part_open(int dirfd, const char *name, char *part, size_t size)
{
	int fd;

	snprintf(part, size, ".%s.part", name);
	copy_remove(dirfd, part);
	if (mkdirat(dirfd, part, 0700) < 0)
		return -errno;
	fd = openat(dirfd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					 O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* The copy made: in place of an older one of the same dump. */
static int part_commit(int dirfd, const char *part, const char *name)
{
	copy_remove(dirfd, name);
	if (renameat(dirfd, part, dirfd, name) < 0)
		return -errno;
	return fsync(dirfd) < 0 ? -errno : 0;
}

/* Beyond COLLECTOR_COPY_KEEP copies, the oldest go. */
static void copy_prune(const char *dir, int dirfd)
{
	char **names = NULL;
	size_t n = 0;

	if (dump_list(dir, &names, &n) < 0)
		return;
	for (size_t i = 0; i + COLLECTOR_COPY_KEEP < n; i++)
		copy_remove(dirfd, names[i]);
	dump_list_free(names, n);
}

/* A copy of name in dirfd that says where its dump is. */
static bool copy_exists(int dirfd, const char *name)
{
	char path[DUMP_NAME_MAX + sizeof(DUMP_COLLECTOR_COPY) + 2];

	return path_format(path, sizeof(path), "%s/%s", name,
			   DUMP_COLLECTOR_COPY) == 0 &&
	       faccessat(dirfd, path, F_OK, AT_SYMLINK_NOFOLLOW) == 0;
}

/* ssh: "get NAME FILE" into FILE of fd, at most max bytes. */
static int ssh_get(const struct kdump_conf *c, const char *name,
		   const char *file, int fd, size_t max,
		   struct net_ssh_result *res, struct diag *d)
{
	_cleanup_close_ int out = -1;
	char request[DUMP_NAME_MAX + 64];
	struct stat st;
	int r;

	out = openat(fd, file, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
				       O_CLOEXEC, 0600);
	if (out < 0)
		return -errno;
	snprintf(request, sizeof(request), "get %s %s", name, file);
	r = net_ssh_get(c, c->net_timeout, request, out, max, res);
	if (r < 0)
		return diag_fail(d, r, "cannot run ssh: %s", strerror(-r));
	if (fstat(out, &st) < 0)
		return -errno;
	if ((size_t)st.st_size > max)
		return diag_fail(d, -EFBIG, "%s of %s is larger than %zu bytes",
				 file, name, max);
	if (res->outcome != NET_SSH_OK)
		return diag_fail(d, -EIO, "%s of %s: %s", file, name,
				 res->line);
	return 0;
}

static int copy_ssh(const struct kdump_conf *c, int dirfd,
		    const char *hostdir, char *ret_name, size_t name_size,
		    struct diag *d)
{
	_cleanup_free_ struct net_ssh_result *res = NULL;
	_cleanup_close_ int fd = -1;
	char part[DUMP_NAME_MAX + 8];
	struct net_list_entry e;
	int r;

	res = calloc(1, sizeof(*res));
	if (!res)
		return diag_fail(d, -ENOMEM, NULL);
	r = net_ssh_run(c, c->net_timeout, "list", res);
	if (r < 0)
		return diag_fail(d, r, "cannot run ssh: %s", strerror(-r));
	if (res->outcome != NET_SSH_OK)
		return diag_fail(d, -EHOSTUNREACH, "%s", res->line);
	r = net_list_last(res->output, &e);
	if (r < 0)
		return diag_fail(d, r, NULL);
	snprintf(ret_name, name_size, "%s", e.name);
	if (copy_exists(dirfd, e.name))
		return 0;
	fd = part_open(dirfd, e.name, part, sizeof(part));
	if (fd < 0)
		return diag_fail(d, fd, "cannot make %s: %s", part,
				 strerror(-fd));
	r = ssh_get(c, e.name, DUMP_METADATA, fd, COLLECTOR_COPY_META_MAX,
		    res, d);
	if (r == 0)
		r = ssh_get(c, e.name, DUMP_DMESG, fd,
			    COLLECTOR_COPY_DMESG_MAX, res, d);
	if (r == 0)
		r = copy_mark(fd, c, hostdir, e.name,
			      e.complete ? e.bytes : 0);
	if (r == 0)
		r = part_commit(dirfd, part, e.name);
	if (r < 0) {
		/* ssh_get()'s own message, when it said one, comes first. */
		r = diag_fail(d, r, "cannot copy %s: %s", e.name,
			      strerror(-r));
		copy_remove(dirfd, part);
	}
	return r;
}

/*
 * A regular file below dfd into fd, at most max bytes: an export's files
 * are written by machines, so never a link, a FIFO or a device.
 */
static int copy_file_at(int dfd, const char *file, int fd, size_t max)
{
	_cleanup_close_ int in = -1;
	_cleanup_free_ char *data = NULL;
	struct stat st;
	int len;

	in = openat(dfd, file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
				       O_CLOEXEC);
	if (in < 0)
		return -errno;
	if (fstat(in, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EBADF;
	len = read_fd_max(in, &data, max);
	if (len < 0)
		return len;
	return write_file_atomic_at(fd, file, data, (size_t)len, 0600);
}

static int copy_nfs(const struct kdump_conf *c, int dirfd,
		    const char *hostdir, char *ret_name, size_t name_size,
		    struct diag *d)
{
	char ip[NET_IP_TEXT], mnt[PATH_MAX], base[PATH_MAX + 128];
	char last[PATH_MAX + 256], part[DUMP_NAME_MAX + 8];
	_cleanup_close_ int fd = -1, dfd = -1;
	struct dump_info info;
	struct net_ip a;
	const char *name;
	int r;

	r = net_resolve_host(c->net_host, &a, d);
	if (r < 0)
		return r;
	net_ip_text(&a, false, ip, sizeof(ip));
	r = net_nfs_mount(c, ip, true, true, mnt, sizeof(mnt));
	if (r < 0)
		return diag_fail(d, r, "cannot mount %s:%s: %s",
				 c->net_host, c->net_path, strerror(-r));
	snprintf(base, sizeof(base), "%s/%s", mnt, hostdir);
	r = dump_find_last(base, last, sizeof(last));
	if (r < 0) {
		net_nfs_unmount(mnt);
		if (r == -ENOENT)
			return diag_fail(d, r, NULL);
		return diag_fail(d, r,
				 "cannot read %s/%s on the collector: %s",
				 c->net_path, hostdir, strerror(-r));
	}
	name = strrchr(last, '/') ? strrchr(last, '/') + 1 : last;
	snprintf(ret_name, name_size, "%s", name);
	if (copy_exists(dirfd, name)) {
		net_nfs_unmount(mnt);
		return 0;
	}
	r = dump_inspect(last, &info);
	dfd = r < 0 ? r : open(last, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					      O_CLOEXEC);
	if (r == 0 && dfd < 0)
		r = -errno;
	if (r == 0)
		r = fd = part_open(dirfd, name, part, sizeof(part));
	if (r >= 0)
		r = copy_file_at(dfd, DUMP_METADATA, fd,
				 COLLECTOR_COPY_META_MAX);
	if (r == 0) {
		r = copy_file_at(dfd, DUMP_DMESG, fd, COLLECTOR_COPY_DMESG_MAX);
		/* No kernel log there: the report says so. */
		if (r == -ENOENT)
			r = 0;
	}
	if (r == 0)
		r = copy_mark(fd, c, hostdir, name,
			      info.has_vmcore ? info.vmcore_bytes : 0);
	if (r == 0)
		r = part_commit(dirfd, part, name);
	net_nfs_unmount(mnt);
	if (r < 0) {
		r = diag_fail(d, r, "cannot copy %s from %s:%s: %s", name,
			      c->net_host, c->net_path,
			      r == -EFBIG ? "a file larger than allowed" :
			      r == -EBADF ? "not a regular file" :
			      strerror(-r));
		if (fd >= 0)
			copy_remove(dirfd, part);
	}
	return r;
}

int collector_copy_newest(const struct kdump_conf *c, const char *dir,
			  char *ret_name, size_t name_size, struct diag *d)
{
	char hostdir[NET_HOST_DIR_MAX];
	_cleanup_close_ int dirfd = -1;
	int r;

	if (c->net == CONF_NET_NONE)
		return diag_fail(d, -EINVAL, NULL);
	r = net_host_dir(hostdir, sizeof(hostdir));
	if (r < 0)
		return diag_fail(d, r, "cannot name this machine's directory on the collector: %s",
				 strerror(-r));
	r = mkdir_p(dir, 0700);
	if (r == 0) {
		dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					  O_CLOEXEC);
		if (dirfd < 0)
			r = -errno;
	}
	if (r < 0)
		return diag_fail(d, r, "cannot make %s: %s", dir, strerror(-r));
	if (c->net == CONF_NET_SSH)
		r = copy_ssh(c, dirfd, hostdir, ret_name, name_size, d);
	else
		r = copy_nfs(c, dirfd, hostdir, ret_name, name_size, d);
	copy_prune(dir, dirfd);
	return r;
}

int collector_copy_last(const char *dir, char *ret, size_t size)
{
	return dump_find_last(dir, ret, size);
}

int collector_copy_find(const char *dir, const char *name, char *ret,
			size_t size)
{
	char path[PATH_MAX];
	struct stat st;

	if (!dump_name_valid(name) ||
	    snprintf(path, sizeof(path), "%s/%s/%s", dir, name,
		     DUMP_COLLECTOR_COPY) >= (int)sizeof(path) ||
	    lstat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return -ENOENT;
	return snprintf(ret, size, "%s/%s", dir, name) >= (int)size ?
		       -ENAMETOOLONG : 0;
}

void collector_copy_details(const char *dir, const char *name,
			    struct dump_info *d)
{
	char path[PATH_MAX];
	struct dump_info k;

	if (collector_copy_find(dir, name, path, sizeof(path)) < 0 ||
	    dump_inspect(path, &k) < 0)
		return;
	if (!d->signature[0])
		snprintf(d->signature, sizeof(d->signature), "%s", k.signature);
	if (!d->release[0])
		snprintf(d->release, sizeof(d->release), "%s", k.release);
	if (!d->summary[0])
		snprintf(d->summary, sizeof(d->summary), "%s", k.summary);
}
