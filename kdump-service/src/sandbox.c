// SPDX-License-Identifier: GPL-2.0
/*
 * The loading units' sandbox for a network target, or a system with iSCSI
 * disks (see sandbox.h).
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sandbox.h"
#include "util.h"

/* A hosts file larger than this is not read (it names nothing then). */
#define HOSTS_MAX (1 << 20)

/* text, an IPv4 or IPv6 address, in its canonical form into buf. */
static bool address_canonical(const char *text, char *buf, size_t size)
{
	unsigned char a[sizeof(struct in6_addr)];

	if (inet_pton(AF_INET, text, a) == 1)
		return inet_ntop(AF_INET, a, buf, size) != NULL;
	if (inet_pton(AF_INET6, text, a) == 1)
		return inet_ntop(AF_INET6, a, buf, size) != NULL;
	return false;
}

/* addr into s->allow unless there already, or full. */
static void allow_add(struct sandbox *s, const char *addr)
{
	size_t len = strlen(s->allow), n = 0, pos = 0;
	char word[48];

	while (conf_list_next(s->allow, &pos, word, sizeof(word))) {
		if (strcmp(word, addr) == 0)
			return;
		n++;
	}
	if (n >= SANDBOX_ADDRS_MAX ||
	    len + strlen(addr) + 2 > sizeof(s->allow))
		return;
	snprintf(s->allow + len, sizeof(s->allow) - len, "%s%s",
		 len ? " " : "", addr);
}

/*
 * The addresses hosts(5) text gives name: "ADDRESS NAME [ALIAS...]" lines,
 * '#' to the end of a line a comment, names compared without case.
 */
static void hosts_lookup(char *text, const char *name, struct sandbox *s)
{
	char *save = NULL;

	for (char *line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *hash = strchr(line, '#'), *wsave = NULL, *addr, *w;
		char canon[INET6_ADDRSTRLEN];

		if (hash)
			*hash = '\0';
		addr = strtok_r(line, " \t\r", &wsave);
		if (!addr || !address_canonical(addr, canon, sizeof(canon)))
			continue;
		while ((w = strtok_r(NULL, " \t\r", &wsave)))
			if (strcasecmp(w, name) == 0) {
				allow_add(s, canon);
				break;
			}
	}
}

bool sandbox_iscsi_sessions(const char *dir)
{
	struct dirent *de;
	bool any = false;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return false;
	while (!any && (de = readdir(d)))
		any = de->d_name[0] != '.';
	closedir(d);
	return any;
}

void sandbox_for(const struct kdump_conf *c, const char *hosts_file,
		 struct sandbox *ret)
{
	char canon[INET6_ADDRSTRLEN];
	struct sandbox s = { .net = c->net };

	if (c->net == CONF_NET_NONE)
		s.iscsi = sandbox_iscsi_sessions(SANDBOX_ISCSI_SESSIONS);

	if (c->net != CONF_NET_NONE) {
		if (address_canonical(c->net_host, canon, sizeof(canon))) {
			allow_add(&s, canon);
		} else {
			char *text = NULL;

			if (read_file_max(hosts_file, &text, HOSTS_MAX) >= 0)
				hosts_lookup(text, c->net_host, &s);
			free(text);
		}
		/*
		 * Not in the hosts file: only a resolver, reached over the
		 * network when the load runs, knows the collector's
		 * addresses, and the unit cannot name them beforehand.
		 */
		if (!s.allow[0])
			snprintf(s.allow, sizeof(s.allow), "any");
	}
	*ret = s;
}

int sandbox_tag(const struct sandbox *s, char *buf, size_t size)
{
	int n;

	if (s->net == CONF_NET_NONE)
		n = snprintf(buf, size, "%s",
			     s->iscsi ? SANDBOX_ISCSI : SANDBOX_LOCAL);
	else
		n = snprintf(buf, size, "%s %s", conf_net_to_string(s->net),
			     s->allow);
	return n < 0 || (size_t)n >= size ? -ENOBUFS : 0;
}

int sandbox_dropin(const struct sandbox *s, const char *target, char *buf,
		   size_t size)
{
	char tag[sizeof(s->allow) + 16], url[CONF_VALUE_MAX];
	bool any = strcmp(s->allow, "any") == 0;
	int n, r;

	if (s->net == CONF_NET_NONE && s->iscsi) {
		n = snprintf(buf, size,
			     "# Written by kdump-file-generator: this system has iSCSI sessions,\n"
			     "# and a dump target on one of their disks is reached by the capture\n"
			     "# through the portal's interface, which a load reads (the routes,\n"
			     "# addresses and links) but does not use (kdump-file(8), SANDBOX).\n"
			     "[Unit]\n"
			     "After=remote-fs.target iscsid.service open-iscsi.service\n"
			     "\n"
			     "[Service]\n"
			     "Environment=\"" SANDBOX_ENV "=" SANDBOX_ISCSI "\"\n"
			     "PrivateNetwork=no\n"
			     "RestrictAddressFamilies=AF_UNIX AF_ALG AF_NETLINK\n");
		return n < 0 || (size_t)n >= size ? -ENOBUFS : 0;
	}
	if (s->net == CONF_NET_NONE) {
		if (size == 0)
			return -ENOBUFS;
		buf[0] = '\0';
		return 0;
	}
	r = sandbox_tag(s, tag, sizeof(tag));
	if (r < 0)
		return r;
	/* The URL in a comment: one line, whatever it holds. */
	snprintf(url, sizeof(url), "%s", target);
	for (char *p = url; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	n = snprintf(buf, size,
		     "# Written by kdump-file-generator from the configuration: the dump\n"
		     "# target %s is on the network.  A load\n"
		     "# reaches the collector and nothing else (kdump-file(8), SANDBOX).\n"
		     "[Unit]\n"
		     "Wants=network-online.target\n"
		     "After=network-online.target\n"
		     "\n"
		     "[Service]\n"
		     "Environment=\"" SANDBOX_ENV "=%s\"\n"
		     "PrivateNetwork=no\n"
		     "# The routes and addresses (netlink), the collector (IP).\n"
		     "RestrictAddressFamilies=AF_NETLINK AF_INET AF_INET6\n"
		     "%s"
		     "IPAddressAllow=%s\n"
		     "%s",
		     url, tag,
		     any ? "# The collector's name is not in /etc/hosts: its addresses, and the\n"
			   "# resolver's, are known only when the load resolves it.\n" : "",
		     s->allow,
		     s->net == CONF_NET_NFS ?
		     "# The check mounts the export as the capture will: mount(2), in a\n"
		     "# mount namespace of its own.\n"
		     "CapabilityBoundingSet=CAP_SYS_ADMIN\n"
		     "SystemCallFilter=@mount\n"
		     "RestrictNamespaces=mnt\n" : "");
	return n < 0 || (size_t)n >= size ? -ENOBUFS : 0;
}
