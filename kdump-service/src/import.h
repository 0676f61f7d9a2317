/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kdump-file import: read the configuration of Debian's kdump-tools
 * (/etc/default/kdump-tools) or of kdump-utils (/etc/kdump.conf and
 * /etc/sysconfig/kdump) and write the equivalent /etc/kdump-file.conf,
 * naming every setting that could not be carried over and why.
 *
 * Nothing here logs or runs a shell: the shell files are read as literal
 * assignments only, and a value that needs the shell to expand it is not
 * carried over.
 */
#ifndef KDUMP_FILE_IMPORT_H
#define KDUMP_FILE_IMPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "conf.h"

#define IMPORT_KDUMP_TOOLS_PATH "/etc/default/kdump-tools"
#define IMPORT_KDUMP_CONF_PATH "/etc/kdump.conf"
#define IMPORT_SYSCONFIG_PATH "/etc/sysconfig/kdump"

/* Longest source line and largest source file read. */
#define IMPORT_LINE_MAX 4096
#define IMPORT_FILE_MAX (256 * 1024)

enum import_format {
	IMPORT_UNKNOWN,
	IMPORT_KDUMP_TOOLS,	/* /etc/default/kdump-tools */
	IMPORT_KDUMP_CONF,	/* kdump-utils' /etc/kdump.conf */
	IMPORT_SYSCONFIG,	/* kdump-utils' /etc/sysconfig/kdump */
};

enum import_kind {
	IMPORT_CARRIED,		/* became a kdump-file key */
	IMPORT_NOT_CARRIED,	/* lost: the reason says why and what to do */
	IMPORT_NO_NEED,		/* kdump-file does that already */
	/*
	 * What a setting carried over does differently in kdump-file (a
	 * hook's arguments, a network target's directory made local): a
	 * note beside the carried one, not counted as a setting.
	 */
	IMPORT_CHANGED,
};

struct import_note {
	enum import_kind kind;
	char setting[96];	/* the source setting, never a secret value */
	char reason[384];
};

/* The keys import writes, in the order it writes them. */
enum import_key {
	IK_PATH,
	IK_TARGET,
	IK_RAW,
	IK_SSH_KEY,
	IK_FALLBACK,
	IK_DUMP_LEVEL,
	IK_COMPRESSION,
	IK_MAKEDUMPFILE_ARGS,
	IK_CMDLINE_APPEND,
	IK_CMDLINE_REMOVE,
	IK_KERNEL,
	IK_INITRAMFS,
	IK_FAILURE_ACTION,
	IK_FINAL_ACTION,
	IK_KEEP,
	IK_PANIC_ON,
	IK_PRE_HOOK,
	IK_POST_HOOK,
	IK_HOOK_FAILURE,
	IK_EXTRA_BINARIES,
	IK_EXTRA_MODULES,
	IK_MAX,
};

struct import {
	/*
	 * Set by the caller before import_buffer(): the directory of a
	 * network dump target becomes a local path (--local-instead), noted
	 * as carried over with a difference.
	 */
	bool local_instead;
	/* The network target the sources dump to ("" for none), and where. */
	char remote[40];	/* the setting: SSH, NFS, FTP, ssh, nfs */
	char remote_where[320];
	char remote_path[CONF_VALUE_MAX];	/* the directory named for it */
	/*
	 * The target = URL it becomes, and when it cannot become one (FTP,
	 * an IPv6 host, a user name kdump-file refuses), why not: then
	 * import stops unless local_instead is set.
	 */
	char remote_url[CONF_VALUE_MAX];
	char remote_refused[320];
	/*
	 * The directive (failure_action or default) whose dump_to_rootfs
	 * became fallback, "" for none: failure_action follows from it.
	 */
	char rootfs_fallback[64];
	bool set[IK_MAX];
	char value[IK_MAX][CONF_VALUE_MAX];
	/*
	 * The source settings each key came from, ", " separated, for a
	 * comment above it.  A setting the source left unset counts with its
	 * tool's default, as "kdump-tools' default MAKEDUMP_ARGS".
	 */
	char from[IK_MAX][256];
	struct import_note *notes;
	size_t n_notes, cap_notes;
	unsigned int n_carried, n_not_carried, n_no_need, n_changed;
	bool oom;		/* a note could not be kept */
	char source[2][256];
	enum import_format source_format[2];
	unsigned int n_sources;
};

void import_init(struct import *im);
void import_free(struct import *im);
const char *import_format_name(enum import_format f);

/* Which configuration a file is, by its name, else by its content. */
enum import_format import_detect(const char *path, const char *buf, size_t len);

/*
 * Read one source file's text (name is the path, for the header). Nothing
 * is mapped unless the whole file parses; on a parse error err names the
 * line and the fault. At most two sources.
 */
int import_buffer(struct import *im, enum import_format f, const char *name,
		  const char *buf, size_t len, struct diag *err);

/*
 * 0 when the rendered text stands for the sources; -EREMOTE when they dump
 * to a network target kdump-file cannot dump to (remote_refused) and
 * local_instead is not set, recorded in d with a message naming the
 * target, why, and what --local-instead would do.
 */
int import_check(const struct import *im, struct diag *d);

/*
 * The summary for standard error (in *ret, free it): the counts, then each
 * setting carried over with a difference and each not carried over, with
 * the reasons.
 */
int import_summary(const struct import *im, char **ret);

/*
 * conf_parse_buffer() over text, except that the keys another change adds
 * to kdump-file.conf (makedumpfile_args, panic_on, pre_hook, post_hook,
 * extra_binaries, extra_modules) may be unknown to it: once conf.c knows
 * them they are checked like every other key.
 */
int import_validate(const char *text, size_t len, struct diag *err);

/*
 * The kdump-file.conf text (in *ret, free it), checked by conf_parse_buffer()
 * first. -EINVAL with err filled when it does not parse.
 */
int import_render(const struct import *im, char **ret, struct diag *err);

/* What import_write() did with the file that was there. */
enum import_write_how {
	IMPORT_WROTE_NEW,		/* there was none */
	IMPORT_REPLACED_COMMENTS,	/* it held comments only */
	IMPORT_REPLACED_BACKED_UP,	/* force: kept first as path.bak */
};

/* Whether a kdump-file.conf text holds comments and blank lines only. */
bool import_only_comments(const char *buf, size_t len);

/*
 * Write text to path atomically (mode 0644).  A file already there is
 * replaced when it holds no setting, as the /etc/kdump-file.conf the
 * package ships; one with settings only with force, and then its text is
 * first kept in path.bak (with its mode).  -EEXIST when it holds settings
 * and force is not set.  *ret_how says which, on success only.
 */
int import_write(const char *path, const char *text, bool force,
		 enum import_write_how *ret_how);

#endif
