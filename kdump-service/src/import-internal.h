/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What import's files share (import.c, import-shell.c,
 * import-kdump-conf.c, import-output.c): not for anyone else.
 *
 * A source's setting is carried over (import_carry()) or noted
 * (import_note()) with why; a source that cannot be read at all fails with
 * diag_fail_at().
 */
#ifndef KDUMP_FILE_IMPORT_INTERNAL_H
#define KDUMP_FILE_IMPORT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "import.h"

/*
 * kdump-file.conf's keys import writes.  list: values add up, blank
 * separated.  dedupe: a word already there is not added twice.
 */
struct import_key_def {
	const char *name;
	bool list, dedupe;
};
extern const struct import_key_def import_keys[IK_MAX];

#define REASON_EXPANSION                                                      \
	"uses shell expansion ($, ` or a glob), which import does not "      \
	"evaluate: set the kdump-file key by hand"

/* One assignment of a shell file (kdump-tools' and sysconfig's). */
struct assign {
	char name[64];
	/* What the notes call it: the name, or "kdump-tools' default NAME". */
	char label[96];
	char value[CONF_VALUE_MAX];
	unsigned int line;
	bool expands;
};

void import_note(struct import *im, enum import_kind kind,
		 const char *setting, const char *detail, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

void import_sanitize(char *s);
bool import_carry(struct import *im, enum import_key k, const char *v,
		  const char *setting, const char *detail);
bool import_in_list(const char *name, const char *const *list);
const char *import_next_word(const char *s, char *buf, size_t size);
void import_map_makedumpfile(struct import *im, const char *setting,
			     const char *args);
void import_map_cmdline_append(struct import *im, const char *setting,
			       const char *v);
void import_map_cmdline_remove(struct import *im, const char *setting,
			       const char *v);
void import_map_fail_cmd(struct import *im, const char *setting, const char *v);
void import_map_sysctl(struct import *im, const char *setting, const char *v);
int import_each_line(const char *buf, size_t len, struct diag *err,
		     int (*fn)(const char *line, unsigned int lineno, void *ctx),
		     void *ctx);
bool import_remote_carried(const struct import *im);
void import_map_remote(struct import *im, const char *setting);
void import_map_remote_only(struct import *im, const struct assign *a,
			    const char *targets);
void import_map_path(struct import *im, const char *setting, const char *v);
void import_trim_slashes(char *dir);
void import_remote_ssh_url(struct import *im, const char *who,
			   const char *dir);
void import_remote_nfs_url(struct import *im, const char *spec,
			   const char *sub);
void import_remote_check(struct import *im, const char *dir, bool expands);

/* kdump.conf's local dump targets: the file systems it names. */
extern const char *const import_fs_types[];

/* The two formats' readers, for import_buffer(). */
int import_shell(struct import *im, enum import_format f, const char *buf,
		 size_t len, struct diag *err);
int import_kdump_conf(struct import *im, const char *buf, size_t len,
		      struct diag *err);

#endif
