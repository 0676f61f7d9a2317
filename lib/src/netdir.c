// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "netdir.h"
#include "util.h"

int net_host_dir(char *buf, size_t size)
{
	char host[256] = "", mid[64];
	size_t len;
	int r, n;

	if (gethostname(host, sizeof(host) - 1) < 0)
		return -errno;
	host[strcspn(host, ".")] = '\0';
	/* A name that would be a path or hidden: the machine ID alone. */
	if (!host[0] || host[0] == '-' || strchr(host, '/'))
		snprintf(host, sizeof(host), "host");
	r = read_line_file("/etc/machine-id", mid, sizeof(mid));
	if (r < 0)
		return r;
	len = strspn(mid, "0123456789abcdef");
	if (len < 12)
		return -EBADMSG;
	n = snprintf(NULL, 0, "%s-%.12s", host, mid);
	if (n < 0 || (size_t)n >= size)
		return -ENOBUFS;
	snprintf(buf, size, "%s-%.12s", host, mid);
	return 0;
}
