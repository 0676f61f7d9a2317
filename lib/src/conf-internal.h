/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parser's files share (conf.c, conf-keys.c,
 * conf-makedumpfile.c): for the conf-*.c files only; every other user of
 * the configuration includes conf.h.
 *
 * conf.c reads the file line by line and checks the keys against each
 * other; conf-keys.c checks and sets one key's value; conf-makedumpfile.c
 * holds what makedumpfile_args and makedumpfile_threads take and the
 * command line they make.  conf-write.c, which writes a configuration as
 * text, needs only conf.h.
 */
#ifndef KDUMP_FILE_CONF_INTERNAL_H
#define KDUMP_FILE_CONF_INTERNAL_H

#include <stddef.h>

#include "conf.h"
#include "diag.h"

/* The keys kdump-file.conf takes, in conf_key_names[]'s order. */
enum conf_key {
	KEY_PATH,
	KEY_TARGET,
	KEY_RAW,
	KEY_DUMP_LEVEL,
	KEY_COMPRESSION,
	KEY_CMDLINE_APPEND,
	KEY_CMDLINE_REMOVE,
	KEY_KERNEL,
	KEY_INITRAMFS,
	KEY_FAILURE_ACTION,
	KEY_FINAL_ACTION,
	KEY_KEEP,
	KEY_MIN_FREE,
	KEY_TARGET_TIMEOUT,
	KEY_CAPTURE_TIMEOUT,
	KEY_RAW_OVERWRITE,
	KEY_RAW_FORCE,
	KEY_PANIC_ON,
	KEY_MAKEDUMPFILE_ARGS,
	KEY_PRE_HOOK,
	KEY_POST_HOOK,
	KEY_HOOK_TIMEOUT,
	KEY_HOOK_FAILURE,
	KEY_EXTRA_MODULES,
	KEY_EXTRA_BINARIES,
	KEY_NFS_VERSION,
	KEY_SSH_KEY,
	KEY_FALLBACK,
	KEY_NET_TIMEOUT,
	KEY_NET_LOAD_WAIT,
	KEY_RAW_IDENTITY,
	KEY_MAKEDUMPFILE_THREADS,
	KEY_MAX,
};

/* The keys' names as the file spells them. */
extern const char *const conf_key_names[KEY_MAX];

/* The first character refused in a kernel parameter; NUL if none. */
char conf_cmdline_bad_char(const char *v);
/* "'x'" or "byte 0xNN" for a message about a refused character. */
const char *conf_char_name(char c, char *buf, size_t size);

/* Set key k from v, which is on line line (conf-keys.c). */
int conf_set_key(struct kdump_conf *c, enum conf_key k, const char *v,
		 unsigned int line, struct diag *err);

/* makedumpfile_args and makedumpfile_threads (conf-makedumpfile.c). */
int conf_parse_makedumpfile_args(struct kdump_conf *c, const char *v,
				 unsigned int line, struct diag *err);
int conf_parse_threads(struct kdump_conf *c, const char *v,
		       unsigned int line, struct diag *err);
/*
 * What makedumpfile_args and dump_level = dmesg need of the other keys;
 * seen_line[k]: the line key k is set on, 0 when it is not.
 */
int conf_check_makedumpfile(const struct kdump_conf *c,
			    const unsigned int *seen_line, struct diag *err);

#endif
