// SPDX-License-Identifier: GPL-2.0
/*
 * The host dir's name.  The host name alone may be the same on two
 * machines ("localhost", a cloned image) and the machine-id alone says
 * nothing to the admin browsing the collector: both, so that the name is
 * read by people and kept apart by the ID.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "netdir.h"
#include "util.h"

static bool host_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

bool net_host_dir_valid(const char *name)
{
	size_t len = strlen(name);

	if (!len || len > 255 || name[0] == '.')
		return false;
	for (size_t i = 0; i < len; i++)
		if (!host_char(name[i]))
			return false;
	return true;
}

int net_host_dir_from(const char *hostname, const char *machine_id,
		      char *buf, size_t size)
{
	size_t hlen = strcspn(hostname, ".");
	char name[NET_HOST_DIR_MAX];

	if (!hlen || hlen > 64 || strlen(machine_id) < 32 ||
	    strspn(machine_id, "0123456789abcdef") != 32 ||
	    (machine_id[32] && strcmp(machine_id + 32, "\n") != 0))
		return -EINVAL;
	snprintf(name, sizeof(name), "%.*s-%.12s", (int)hlen, hostname,
		 machine_id);
	if (!net_host_dir_valid(name))
		return -EINVAL;
	if (strlen(name) >= size)
		return -ENOBUFS;
	strcpy(buf, name);
	return 0;
}

int net_host_dir(char *buf, size_t size)
{
	char host[256] = "", mid[64];
	int r;

	if (gethostname(host, sizeof(host) - 1) < 0)
		return -errno;
	r = read_line_file(NET_MACHINE_ID_PATH, mid, sizeof(mid));
	if (r < 0)
		return r;
	return net_host_dir_from(host, mid, buf, size);
}

int nfs_mount_options(unsigned int version, unsigned int minor,
		      const char *server, const char *client,
		      const char *extra, char *buf, size_t size)
{
	int n;

	if (version == 3)
		n = snprintf(buf, size,
			     "vers=3,nolock,proto=tcp,mountproto=tcp,addr=%s,mountaddr=%s%s%s",
			     server, server, extra ? "," : "",
			     extra ? extra : "");
	else
		n = snprintf(buf, size, "vers=4.%u,addr=%s%s%s%s%s", minor,
			     server, client ? ",clientaddr=" : "",
			     client ? client : "", extra ? "," : "",
			     extra ? extra : "");
	return n < 0 || (size_t)n >= size ? -ENOBUFS : 0;
}

bool nfs_minor_refused(int err)
{
	return err == -EINVAL || err == -EPROTONOSUPPORT;
}
