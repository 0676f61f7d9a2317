/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the verbs of kdump-file share: the options main parsed, the
 * messages, the configuration, the plan as a verb makes it (saying what
 * failed), the lock, and the places on disk.  The program layer: these
 * print, the library code below them does not.
 */
#ifndef KDUMP_FILE_CLI_H
#define KDUMP_FILE_CLI_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "conf.h"
#include "plan.h"
#include "state.h"

#define RUN_DIR "/run/kdump-file"
#define SYS_CRASH_LOADED "/sys/kernel/kexec_crash_loaded"
/* A capture kernel is loaded (removed by unload, so by a clean shutdown). */
#define ARMED_FILE KDUMP_FILE_STATE_DIR "/armed"
/* A boot ended uncleanly while armed, and no dump from it was saved. */
#define LOST_FILE KDUMP_FILE_STATE_DIR "/lost"
/* The sysctls panic_on set, with their values before (see panicon.h). */
#define PANIC_ON_FILE RUN_DIR "/panic-on"
/* What the last load that left nothing loaded said: its time, its lines. */
#define LOAD_FAILED_FILE RUN_DIR "/load-failed"
/* The last "kdump-file test": its ID, time and boot. */
#define TEST_FILE KDUMP_FILE_STATE_DIR "/test"
#define GRUB_DROPIN_DIR "/etc/default/grub.d"
#define GRUB_DROPIN GRUB_DROPIN_DIR "/kdump-file.cfg"

#define EXIT_USAGE 2
#define EXIT_NOT_LOADED 3

/* A verb's argc and argv it has no use for. */
#define _unused_ __attribute__((unused))

/*
 * The options, as main parsed them from the one table in kdump-file.c
 * (main refuses those a verb does not take).
 */
struct cli_options {
	const char *config;
	const char *vmlinux;
	const char *kver;
	const char *output;
	const char *collector;	/* list: a collector's directory */
	bool yes;
	bool json;
	bool dry_run;
	bool undo;
	bool after_hotplug;	/* reload: only over kdump-file's own */
	bool new_only;		/* report: only a dump without a report */
	bool force;
	bool local_instead;
	bool repin;		/* propagate: replace pinned host keys */
	bool quiet;
};

/*
 * One run of kdump-file, handed to every verb: the options, the verb's
 * name for its messages, and what the verbs work out once and share, each
 * on first use (the configuration, the plan, the reservation, the dump
 * target's private mount).  The messages go through it too (log_*()): a
 * load tried again holds what it said until it knows whether that is the
 * last word.  Nothing of a run lives anywhere else; cli_done() frees it.
 */
struct cli {
	struct cli_options opt;
	const char *verb;
	/* report: a dump target mounted here must take writes. */
	bool writable;
	/* The configuration: parsed once; conf_r its result. */
	struct kdump_conf *conf;
	struct diag conf_err;
	int conf_r;
	/* The plan, once made; plan_r its result, plan_create how. */
	struct plan *plan;
	int plan_r;
	bool plan_create;
	bool plan_said;		/* its warnings and error, by make_plan() */
	/* The reservation, once read (cli_reservation()). */
	unsigned long long reserved;
	int reserved_r;
	bool reserved_read;
	/* Where this process alone mounted the dump target, or "". */
	char private_mount[PATH_MAX];
	/* What log_*() said while held (log_hold()). */
	struct {
		bool on;
		size_t len;
		char text[8192];
		/* The first log_error() and the first line, as said. */
		char first_error[1024];
		char first_line[1024];
	} held;
};

void cli_init(struct cli *cli);
void cli_done(struct cli *cli);

void log_error(struct cli *cli, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void log_warning(struct cli *cli, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The warnings d carries, one log_warning() each. */
void log_warnings(struct cli *cli, const struct diag *d);
/* A line on stderr, "kdump-file: ...": what protects the machine now. */
void log_stderr(struct cli *cli, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * Hold what log_error() and log_stderr() say from now (log_held() gives
 * it), until log_release() prints it (print) or drops it.
 */
void log_hold(struct cli *cli);
const char *log_held(const struct cli *cli);
/*
 * The first thing log_error() said while held (its message alone), else
 * the first line held, else "": what a load that failed failed of.
 */
const char *log_held_error(const struct cli *cli);
void log_release(struct cli *cli, bool print);
/* An informational line on stdout, "kdump-file: ...", unless --quiet. */
void log_info(const struct cli *cli, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * Say that path cannot be created or opened: "must be run as root" when
 * that is why.  Returns r.
 */
int log_create_error(struct cli *cli, const char *what, const char *path,
		     int r);

/*
 * The configuration, or the documented defaults without the default file,
 * parsed once a run: cli_config() quietly, load_config() saying what is
 * wrong.  *ret points into cli.
 */
int cli_config(struct cli *cli, const struct kdump_conf **ret);
int load_config(struct cli *cli, const struct kdump_conf **ret);
/*
 * The plan from the configuration, made once a run (again after
 * cli_plan_forget(), or when create is asked of one made without): says
 * its warnings and what failed.  cli_plan() is the same, quietly.  *ret
 * points into cli, and is set when the plan failed too.
 */
int make_plan(struct cli *cli, bool create, struct plan **ret);
int cli_plan(struct cli *cli, bool create, struct plan **ret);
void cli_plan_forget(struct cli *cli);
/* Says why a dump directory is not safe to read dumps from as root. */
int check_dump_base(struct cli *cli, const char *base);
int open_regular(struct cli *cli, const char *what, const char *path,
		 int *ret_fd);
/*
 * The same for fd, which opening path gave (r: 0, or the negative errno of
 * the open that failed): the error said, or fd checked (closed when it
 * fails) and given to *ret_fd.
 */
int open_regular_fd(struct cli *cli, const char *what, const char *path,
		    int fd, int r, int *ret_fd);

/*
 * Where this system sees the dumps: path itself for the default target, or
 * path below wherever the target device is mounted (by this process alone
 * when nothing mounts it: dumps_mounted_privately()).
 */
int dumps_base(struct cli *cli, const struct kdump_conf *c, char *ret,
	       size_t size);
bool dumps_mounted_privately(const struct cli *cli);
/*
 * Mount the dump target dev (of type fstype) on where, a directory below
 * RUN_DIR made root's alone (mode 0700), nosuid, nodev, noexec, read-only
 * unless writable; btrfs at its top level.  In this process's mount
 * namespace: the caller unshares one first if nobody else is to see it.
 */
int mount_target_at(const char *dev, const char *fstype, const char *where,
		    bool writable);
/*
 * Where the report unit's privileged step mounts a dump target nothing
 * mounts, for the report that may not mount it itself.
 */
#define REPORT_TARGET_DIR RUN_DIR "/report-target"
/* The newest dump's and newest complete dump's times, as dump_scan(). */
int dump_times(struct cli *cli, const struct kdump_conf *c,
	       long long *ret_newest, long long *ret_complete);

/*
 * The lock of load, unload and rebuild; wait: for the one holding it
 * rather than fail as busy.
 */
int take_lock(struct cli *cli, bool wait, int *ret_fd);

/* Where pstore records are: the kernel's, and systemd-pstore's archive. */
extern const char *const pstore_dirs[];
/* What status and the journal say of a lost crash. */
int lost_text(const struct armed *a, char *buf, size_t size);
/* "oops (kernel.panic_on_oops=1), warn (kernel.panic_on_warn=1)" */
void panic_on_list(unsigned int mask, char *buf, size_t size);
/* The words of mask as a JSON array ["oops", "warn"]; NULL on no memory. */
struct json_object *cli_panic_on_json(unsigned int mask);
double mib_f(unsigned long long b);
/*
 * bytes in IEC units, as every verb gives a size: one decimal below 10
 * ("1.0 MiB", "9.5 GiB"), none from 10 ("512 KiB", "23 MiB"), "5 B" below
 * a KiB.  Returns buf.
 */
#define FORMAT_BYTES_MAX 16
char *format_bytes(unsigned long long bytes, char *buf, size_t size);
/* Why SYS_CRASH_SIZE may be missing, as load and status say it. */
#define NO_KEXEC_HINT "is this kernel built with CONFIG_KEXEC_FILE and CONFIG_CRASH_DUMP?"
/*
 * The crashkernel= size setup writes: what estimate recommends for the
 * capture kernel and initramfs of the configuration, measured without
 * building anything.  Says nothing; -ENOENT when the initramfs kdump-file
 * builds is not built yet, or the configuration names no usable files.
 */
int crashkernel_recommended(struct cli *cli, unsigned long long *ret_bytes);
/*
 * The makedumpfile threads a load now would choose, and why, quietly as
 * crashkernel_recommended(): status says them.
 */
struct threads_choice;
int threads_current(struct cli *cli, struct threads_choice *ret);
/*
 * What to do when no crashkernel= memory is reserved, with the size
 * crashkernel_recommended() gives when it can: "run 'kdump-file setup' and
 * reboot, or add crashkernel=112M to the kernel command line".
 */
void crashkernel_advice(struct cli *cli, char *buf, size_t size);
/* The crashkernel= value the GRUB drop-in of setup gives, in bytes. */
int dropin_reservation(char *value, size_t size,
		       unsigned long long *ret_bytes);
/*
 * Print obj as JSON on stdout, and free it.  Passed through
 * text_filter_json(): the strings a dump holds (a report's backtrace, a
 * panic message) reach the terminal with every control character escaped
 * in JSON's own way, the data unchanged.
 */
int print_json(struct json_object *obj);
/*
 * The JSON of status, show, list and info (kdump-file(8), JSON OUTPUT):
 * every key always there, null where the value is unknown or there is
 * none, arrays where there may be several.  The version goes up when a
 * key changes its meaning or goes; keys are only ever added to version 1.
 */
#define CLI_JSON_SCHEMA 1
/* A new object whose first key is "schema"; NULL on no memory. */
struct json_object *cli_json_object(void);
/* key set to s, or to null when s is NULL or "". */
int cli_json_text(struct json_object *obj, const char *key, const char *s);
/* key set to v, or to null when v is negative (an unknown size, a time). */
int cli_json_int(struct json_object *obj, const char *key, long long v);
/* key set to v, taken over; v NULL means json-c had no memory for it. */
int cli_json_add(struct json_object *obj, const char *key,
		 struct json_object *v);
/*
 * One dump, as status, list and info give it (info adds its own keys):
 * id, dir, state, dmesg_only, vmcore_bytes, crash_time, kernel_release,
 * signature, panic, error, summary.  NULL on no memory.
 */
struct dump_info;
struct json_object *cli_dump_json(const struct dump_info *d);
/* "complete", "incomplete" or "failed", as list and status say. */
const char *cli_dump_state(const struct dump_info *d);
/*
 * The one of names[n] closest to word, a typo of it (at most two letters
 * added, dropped or changed, and fewer than word has), or NULL.
 */
const char *cli_closest(const char *word, const char *const *names, size_t n);

/*
 * The verbs: argv[0] is the verb, then its arguments (main checked their
 * number).  Each returns a negative errno, or an exit status.
 */
int verb_load(struct cli *cli, int argc, char *argv[]);
int verb_unload(struct cli *cli, int argc, char *argv[]);
int verb_reload(struct cli *cli, int argc, char *argv[]);
int verb_rebuild(struct cli *cli, int argc, char *argv[]);
int verb_test(struct cli *cli, int argc, char *argv[]);
int verb_status(struct cli *cli, int argc, char *argv[]);
int verb_show(struct cli *cli, int argc, char *argv[]);
int verb_estimate(struct cli *cli, int argc, char *argv[]);
int verb_mem_usage(struct cli *cli, int argc, char *argv[]);
int verb_list(struct cli *cli, int argc, char *argv[]);
int verb_info(struct cli *cli, int argc, char *argv[]);
int verb_debug(struct cli *cli, int argc, char *argv[]);
int verb_report(struct cli *cli, int argc, char *argv[]);
int verb_report_target(struct cli *cli, int argc, char *argv[]);
int verb_setup(struct cli *cli, int argc, char *argv[]);
int verb_import(struct cli *cli, int argc, char *argv[]);
int verb_recover(struct cli *cli, int argc, char *argv[]);
int verb_hotplug(struct cli *cli, int argc, char *argv[]);
int verb_propagate(struct cli *cli, int argc, char *argv[]);
int verb_sandbox(struct cli *cli, int argc, char *argv[]);

/*
 * This boot's ID as the kernel's boot_id shows it (a UUID with dashes),
 * through libsystemd; buf holds at least 37 bytes.
 */
int cli_boot_id(char *buf, size_t size);

#endif
