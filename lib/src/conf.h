/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /etc/kdump-file.conf: "key = value" lines, '#' comments, every key at most
 * once.  The parser never logs; on failure it fills a struct diag that
 * names the line and the key, and returns a negative errno.
 */
#ifndef KDUMP_FILE_CONF_H
#define KDUMP_FILE_CONF_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

#define CONF_PATH_DEFAULT "/etc/kdump-file.conf"
#define CONF_VALUE_MAX 1024

enum conf_action {
	ACTION_REBOOT,
	ACTION_POWEROFF,
	ACTION_HALT,
	ACTION_SHELL,
};

/* A network target: target = ssh://... or nfs://... */
enum conf_net {
	CONF_NET_NONE,
	CONF_NET_SSH,
	CONF_NET_NFS,
};

enum conf_compression {
	COMPRESS_LZO,
	COMPRESS_ZLIB,
	COMPRESS_NONE,
};

struct kdump_conf {
	/* Directory for dumps, on the target filesystem. */
	char path[CONF_VALUE_MAX];
	/* Filesystem to dump to: "" (the one holding path), UUID=, LABEL=, /dev/... */
	char target[CONF_VALUE_MAX];
	/* Raw block device to write a flattened dump to ("" when unused). */
	char raw[CONF_VALUE_MAX];
	/*
	 * What load found raw to be, for the capture to check ("" when not
	 * known): the form target_identity_format() writes.
	 */
	char raw_identity[CONF_VALUE_MAX];
	unsigned int dump_level;
	enum conf_compression compression;
	char cmdline_append[CONF_VALUE_MAX];
	char cmdline_remove[CONF_VALUE_MAX];
	char kernel[CONF_VALUE_MAX];
	char initramfs[CONF_VALUE_MAX];
	enum conf_action failure_action;
	enum conf_action final_action;
	/* Dumps to keep on the target, 0 keeps all. */
	unsigned int keep;
	/* Space to leave free on the target, in MiB. */
	unsigned long long min_free_mb;
	/* Seconds to wait for the target device in the capture kernel. */
	unsigned int target_timeout;
	/*
	 * Seconds the whole capture may take before failure_action is taken
	 * whatever step is running; 0: chosen by kdump-file at load time.
	 */
	unsigned int capture_timeout;
	/* The capture may overwrite a dump on the raw device not yet recovered. */
	bool raw_overwrite;
	/* The raw device may carry another filesystem or partition table. */
	bool raw_force;
	/*
	 * PANIC_ON_* bits: crashes that load makes the running kernel panic
	 * on (so that they are dumped), through its sysctls.
	 */
	unsigned int panic_on;
	/*
	 * makedumpfile_args: more makedumpfile options for the vmcore, each
	 * checked against what kdump-file knows to be safe; the words as
	 * validated, separated by one space ("" when none).
	 */
	char makedumpfile_args[CONF_VALUE_MAX];
	/*
	 * makedumpfile_threads: CONF_THREADS_AUTO, or the threads asked for
	 * (1..CONF_THREADS_MAX); load lowers them to what the reservation and
	 * the CPUs allow.  --num-threads N in makedumpfile_args asks the same
	 * (conf_threads_requested()).
	 */
	unsigned int makedumpfile_threads;
	/* dump_level = dmesg: only the kernel log is saved, no vmcore. */
	bool dmesg_only;

	/*
	 * User hooks and additions to the capture initramfs.  Each list is
	 * blank-separated, normalised to single spaces, "" when empty: the
	 * hooks and binaries are clean absolute paths, the modules kernel
	 * module names; at most CONF_LIST_MAX entries each.
	 */
	char pre_hook[CONF_VALUE_MAX];
	char post_hook[CONF_VALUE_MAX];
	/* Seconds each hook may run before it is killed. */
	unsigned int hook_timeout;
	/* A failing hook stops the capture (failure_action) instead of being recorded only. */
	bool hook_stop;
	char extra_modules[CONF_VALUE_MAX];
	char extra_binaries[CONF_VALUE_MAX];

	/*
	 * target = ssh://USER@HOST[:PORT]/PATH or nfs://HOST/EXPORT/PATH:
	 * target keeps the URL as written, these its parts.  net_path is
	 * absolute: the collector's directory (ssh), or what is mounted as
	 * HOST:/EXPORT/PATH (nfs).  path is not used then.
	 */
	enum conf_net net;
	char net_user[64];
	char net_host[256];
	unsigned int net_port;		/* ssh only; 22 unless given */
	char net_path[CONF_VALUE_MAX];
	unsigned int nfs_version;	/* 4 or 3 */
	/* The dedicated key; the pinned host keys are beside it. */
	char ssh_key[CONF_VALUE_MAX];
	/*
	 * A local directory the dump goes to when the network target fails
	 * before any of the dump went out; "" for none.
	 */
	char fallback[CONF_VALUE_MAX];
	/* Seconds for link, address and first connection in the capture. */
	unsigned int net_timeout;
	/*
	 * Seconds kdump-file.service's load waits for the collector to
	 * answer (the network coming up at boot) before it fails.
	 */
	unsigned int net_load_wait;
};

#define CONF_SSH_KEY_DEFAULT "/etc/kdump-file/ssh/id_ed25519"
#define CONF_NET_TIMEOUT_DEFAULT 90
#define CONF_NET_LOAD_WAIT_DEFAULT 300

/*
 * makedumpfile's threads.  The default is the one place to change once
 * the bench measures what more threads gain in a capture kernel.
 */
#define CONF_THREADS_AUTO 0
#define CONF_THREADS_MAX 64
#define CONF_THREADS_DEFAULT 1
/*
 * The threads load chose, on the capture kernel's command line as
 * CONF_CMDLINE_THREADS=T (T > 1 only): they follow the reservation, which
 * changes without the capture initramfs being rebuilt.
 */
#define CONF_CMDLINE_THREADS "kdump_file.threads"

#define CONF_LIST_MAX 16
#define CONF_HOOK_TIMEOUT_DEFAULT 30
/*
 * capture_timeout = 0 (automatic): the loader chooses the value from the
 * RAM at each load and passes it on the capture kernel's command line as
 * CONF_CMDLINE_CAPTURE_TIMEOUT=N; without it the capture uses
 * CONF_CAPTURE_TIMEOUT_FALLBACK.
 */
#define CONF_CMDLINE_CAPTURE_TIMEOUT "kdump_file.capture_timeout"
#define CONF_CAPTURE_TIMEOUT_FALLBACK 600
#define CONF_HOOK_TIMEOUT_MAX 600

/*
 * The next word of a blank-separated list (conf's pre_hook, extra_modules,
 * ...) at *pos into buf; false at the end of the list or when a word does
 * not fit in size bytes (never for a list conf_parse_*() accepted with a
 * buffer of CONF_VALUE_MAX).
 */
bool conf_list_next(const char *list, size_t *pos, char *buf, size_t size);

void conf_init(struct kdump_conf *c);
int conf_parse_buffer(struct kdump_conf *c, const char *buf, size_t len,
		      struct diag *err);
/*
 * On failure err names the line and the key (err->line, err->key) and its
 * message starts with where: "PATH:LINE: key 'KEY': ", "PATH:LINE: " or
 * "cannot read configuration 'PATH': ".
 */
int conf_parse_file(struct kdump_conf *c, const char *path,
		    struct diag *err);
/*
 * conf_parse_file(), but a missing CONF_PATH_DEFAULT is no error: it gives
 * the documented defaults (any other path must exist).
 */
int conf_load_or_default(struct kdump_conf *c, const char *path,
			 struct diag *err);
int conf_write(const struct kdump_conf *c, char *buf, size_t size);

const char *conf_action_to_string(enum conf_action a);
/* "ssh", "nfs", "" for CONF_NET_NONE. */
const char *conf_net_to_string(enum conf_net n);
/*
 * The pinned host keys of the collector: known_hosts in the directory of
 * ssh_key.  -ENAMETOOLONG when it does not fit in size.
 */
int conf_known_hosts(const struct kdump_conf *c, char *buf, size_t size);
const char *conf_compression_to_string(enum conf_compression c);
/* makedumpfile's flag for the compression, "" for none. */
const char *conf_compression_flag(enum conf_compression c);

/*
 * The makedumpfile command line that saves the vmcore, as the capture runs
 * it and show prints it: -F for a raw target (out NULL: standard output),
 * the compression's flag, -d dump_level, makedumpfile_args (and --work-dir
 * workdir when they hold -e), --num-threads makedumpfile_threads when more
 * than one and makedumpfile_args do not give it, then in and out.  argv points into c, the
 * arguments and the struct itself; it ends with NULL.
 */
#define CONF_MAKEDUMPFILE_ARGV_MAX 48
struct conf_makedumpfile_cmd {
	char words[CONF_VALUE_MAX];
	char level[16];
	char threads[16];
	char *argv[CONF_MAKEDUMPFILE_ARGV_MAX];
};
int conf_makedumpfile_cmd(const struct kdump_conf *c, const char *in,
			  const char *out, const char *workdir,
			  struct conf_makedumpfile_cmd *ret);
/* Whether makedumpfile_args holds the word opt. */
bool conf_makedumpfile_has(const struct kdump_conf *c, const char *opt);
/*
 * The threads c asks for: --num-threads N of makedumpfile_args, else
 * makedumpfile_threads (CONF_THREADS_AUTO: as many as the system allows).
 */
unsigned int conf_threads_requested(const struct kdump_conf *c);
/*
 * Make c run makedumpfile with threads (1..CONF_THREADS_MAX) threads:
 * --num-threads leaves makedumpfile_args, and conf_makedumpfile_cmd()
 * gives it when threads > 1.  -ERANGE for another number, c untouched.
 */
int conf_threads_set(struct kdump_conf *c, unsigned int threads);

/*
 * The capture arms the hardware watchdog for capture_timeout and this
 * many seconds more: the deadline process acts first; the watchdog resets
 * a capture kernel too stuck for it to run.
 */
#define CAPTURE_WATCHDOG_MARGIN 60

/*
 * panic_on: the crashes that do not panic by default and that kdump-file
 * load makes panic.  Bit i of struct kdump_conf.panic_on is the i-th word
 * of conf_panic_on_name().
 */
enum {
	PANIC_ON_OOPS = 1U << 0,
	PANIC_ON_HUNG_TASK = 1U << 1,
	PANIC_ON_SOFT_LOCKUP = 1U << 2,
	PANIC_ON_HARD_LOCKUP = 1U << 3,
	PANIC_ON_RCU_STALL = 1U << 4,
	PANIC_ON_WARN = 1U << 5,
};
#define PANIC_ON_COUNT 6
/* The configuration's word for bit i ("oops", "hung_task", ...), NULL past the end. */
const char *conf_panic_on_name(unsigned int i);
/* "oops, warn" for a mask, "none" for 0; -ENOBUFS when size is too small. */
int conf_panic_on_format(unsigned int mask, char *buf, size_t size);

#endif
