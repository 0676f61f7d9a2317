// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rawdump.h"
#include "util.h"

static const char *const state_names[] = {
	[RAW_EMPTY] = "empty",	       [RAW_WRITING] = "writing",
	[RAW_COMPLETE] = "complete",   [RAW_FAILED] = "failed",
	[RAW_RECOVERED] = "recovered",
};

const char *raw_state_to_string(enum raw_state s)
{
	return s <= RAW_RECOVERED ? state_names[s] : "?";
}

int raw_header_format(const struct raw_header *h, char *buf)
{
	int n;

	memset(buf, 0, RAW_HEADER_SIZE);
	n = snprintf(buf, RAW_HEADER_SIZE,
		     RAW_MAGIC "state=%s\ntime=%lld\nrelease=%s\n"
		     "dmesg_off=%llu\ndmesg_len=%llu\nvmcore_off=%llu\n"
		     "vmcore_len=%llu\nerror=%s\n",
		     raw_state_to_string(h->state), h->time, h->release,
		     h->dmesg_off, h->dmesg_len, h->vmcore_off, h->vmcore_len,
		     h->error);
	if (n < 0 || n >= RAW_HEADER_SIZE)
		return -ENOBUFS;
	return 0;
}

int raw_header_parse(const char *buf, size_t len, unsigned long long dev_size,
		     struct raw_header *ret)
{
	char text[RAW_HEADER_SIZE + 1], *line, *save;
	struct raw_header h;
	bool have_state = false;

	if (len < sizeof(RAW_MAGIC) - 1 ||
	    memcmp(buf, RAW_MAGIC, sizeof(RAW_MAGIC) - 1) != 0)
		return -ENODATA;
	if (len > RAW_HEADER_SIZE)
		len = RAW_HEADER_SIZE;
	memcpy(text, buf, len);
	text[len] = '\0';
	memset(&h, 0, sizeof(h));
	for (line = strtok_r(text + sizeof(RAW_MAGIC) - 1, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');
		const char *k = line, *v;
		unsigned long long x;

		if (!eq)
			return -EBADMSG;
		*eq = '\0';
		v = eq + 1;
		if (strcmp(k, "state") == 0) {
			unsigned int s;

			for (s = RAW_WRITING; s <= RAW_RECOVERED; s++)
				if (strcmp(v, state_names[s]) == 0)
					break;
			if (s > RAW_RECOVERED)
				return -EBADMSG;
			h.state = s;
			have_state = true;
		} else if (strcmp(k, "time") == 0) {
			if (parse_decimal(v, 1ULL << 40, &x) < 0)
				return -EBADMSG;
			h.time = (long long)x;
		} else if (strcmp(k, "release") == 0) {
			if (strlen(v) >= sizeof(h.release))
				return -EBADMSG;
			strcpy(h.release, v);
		} else if (strcmp(k, "error") == 0) {
			snprintf(h.error, sizeof(h.error), "%s", v);
		} else {
			unsigned long long *p =
				strcmp(k, "dmesg_off") == 0  ? &h.dmesg_off :
				strcmp(k, "dmesg_len") == 0  ? &h.dmesg_len :
				strcmp(k, "vmcore_off") == 0 ? &h.vmcore_off :
				strcmp(k, "vmcore_len") == 0 ? &h.vmcore_len :
							       NULL;

			if (!p || parse_decimal(v, ULLONG_MAX, p) < 0)
				return -EBADMSG;
		}
	}
	if (!have_state)
		return -EBADMSG;
	/* Everything inside the device, and nothing inside the header. */
	if ((h.dmesg_len && (h.dmesg_off < RAW_HEADER_SIZE ||
			     h.dmesg_off > dev_size ||
			     h.dmesg_len > dev_size - h.dmesg_off)) ||
	    (h.vmcore_len && (h.vmcore_off < RAW_HEADER_SIZE ||
			      h.vmcore_off > dev_size ||
			      h.vmcore_len > dev_size - h.vmcore_off)))
		return -ERANGE;
	*ret = h;
	return 0;
}

int raw_may_write(const char *buf, size_t len, unsigned long long dev_size,
		  const char *signature, bool overwrite, bool force,
		  struct raw_header *ret_old)
{
	struct raw_header h;
	int r;

	r = raw_header_parse(buf, len, dev_size, &h);
	if (r == -ENODATA) {
		/* Not ours: refuse what another program left, unless told. */
		if (signature && *signature && !force)
			return -ENOTEMPTY;
		return 0;
	}
	if (r < 0)
		return 0;	/* ours, damaged: nothing to recover from it */
	if (ret_old)
		*ret_old = h;
	if (h.state == RAW_COMPLETE && !overwrite)
		return -EEXIST;
	return 0;
}
