/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The dump directory format: what a dump directory is named, the files in
 * it, how it is made, how its vmcore is committed and its metadata.json.
 * The capture, recover and the analysis write and read a dump through
 * these alone.  Never logs.
 */
#ifndef KDUMP_FILE_DUMPDIR_H
#define KDUMP_FILE_DUMPDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The files of a dump directory. */
#define DUMP_VMCORE "vmcore"
/* The vmcore while it is written, renamed to DUMP_VMCORE once synced. */
#define DUMP_VMCORE_INCOMPLETE "vmcore-incomplete"
#define DUMP_DMESG "dmesg.txt"
#define DUMP_METADATA "metadata.json"
#define DUMP_HOOKS_LOG "hooks.log"
/* kdump-file-analyze's report, for people and for programs. */
#define DUMP_REPORT_TXT "report.txt"
#define DUMP_REPORT_JSON "report.json"
/*
 * In a copy of a dump that went to a network target, kept on the machine
 * (its kernel log and metadata, for the report and the journal): where
 * the dump is ("location") and its vmcore's size there ("vmcore_bytes", 0
 * when it has none).
 */
#define DUMP_COLLECTOR_COPY "collector.json"

/* Room for a dump directory's name: "YYYY-MM-DD-HH:MM:SS-NN" and more. */
#define DUMP_NAME_MAX 32
/* How many "-N" suffixes dump_dir_create() tries after the bare name. */
#define DUMP_NAME_SUFFIX_MAX 99
/* Is name one of ours: YYYY-MM-DD-HH:MM:SS[-N]? */
bool dump_name_valid(const char *name);

/*
 * Make the dump directory for a crash at crash_time (seconds since the
 * epoch) below the directory basefd: named YYYY-MM-DD-HH:MM:SS in UTC, or
 * with "-1" ... "-99" when that name is taken (by anything: a link named
 * like a dump is never followed, its name is just taken), with exactly
 * mode (whatever the umask).  The new entry is synced into basefd.  Its
 * name (size >= DUMP_NAME_MAX) goes to ret_name and a descriptor
 * (O_DIRECTORY | O_NOFOLLOW, close-on-exec) to *ret_dirfd.  -EINVAL for a
 * time whose name dump_name_valid() would not accept, -EEXIST when every
 * name is taken.
 */
int dump_dir_create(int basefd, long long crash_time, mode_t mode,
		    char *ret_name, size_t size, int *ret_dirfd);

/*
 * Commit the vmcore of the dump directory dirfd: DUMP_VMCORE_INCOMPLETE
 * made private (0600: it holds all of the crashed system's memory) and
 * synced, renamed to DUMP_VMCORE, then the directory synced.  A link
 * named DUMP_VMCORE_INCOMPLETE is refused (-ELOOP).
 */
int dump_vmcore_commit(int dirfd);

#define DUMP_META_HOOKS_MAX 32
#define DUMP_META_MODULES_MAX 16

/* A user's hook as the capture ran it. */
struct dump_meta_hook {
	char phase[8];		/* "pre", "post" */
	char path[256];
	int exit;		/* exit status, -1 when it did not exit */
	bool timed_out;
	double seconds;
	bool failed;
	char result[128];	/* hook_describe()'s text */
};

/* An extra module the capture loaded, or tried to. */
struct dump_meta_module {
	char name[64];
	bool loaded;
	char error[32];		/* the errno's name, "ENOENT"; "" if loaded */
};

/*
 * metadata.json: one record of the capture or of recover.  Text may come
 * from the crashed kernel or a disk; the writer makes it valid UTF-8.  A
 * field with its "unset" value (below) is neither written nor was read.
 */
struct dump_metadata {
	bool complete;			/* the capture did all it meant to */
	char error[256];		/* why not; "" when complete */
	char kernel_release[65];	/* "" unset */
	long long crash_time;		/* -1 unset */
	char panic[512];		/* the log's panic line, "" if none */
	bool dmesg_only;		/* dump_level = dmesg: the log alone */
	int dump_level;			/* makedumpfile's -d; -1 unset */
	char compression[16];		/* "" unset */
	long long vmcore_bytes;		/* -1 unset (none) */
	long long dmesg_bytes;		/* -1 unset (none) */
	/* The target or raw device set; for a network target its URL. */
	char target[1024];
	/*
	 * Why the network target was not used and the dump went to the local
	 * fallback directory instead; "" unset (the fallback was not used).
	 */
	char fallback_reason[256];
	char recovered_from[1024];	/* recover's raw device; "" unset */
	/* How long each step of the capture took, in seconds. */
	bool has_seconds;
	double seconds_find_target;
	double seconds_dmesg;
	double seconds_vmcore;
	double seconds_total;
	unsigned int n_extra_modules;
	struct dump_meta_module extra_modules[DUMP_META_MODULES_MAX];
	unsigned int n_hooks;
	struct dump_meta_hook hooks[DUMP_META_HOOKS_MAX];
};

/* Every field unset, complete false. */
void dump_metadata_init(struct dump_metadata *m);

/*
 * Write m as DUMP_METADATA into the dump directory dirfd, atomically
 * (write_file_atomic_at()), mode 0600.  -EINVAL for more hooks or modules
 * than the arrays hold.
 */
int dump_metadata_write(int dirfd, const struct dump_metadata *m);

/*
 * Read DUMP_METADATA of the dump directory dirfd (never through a link;
 * at most 1 MiB) into *ret: a field missing or of the wrong type is
 * unset, text too long is cut, hooks and modules beyond the arrays are
 * left out.  -ENOENT when there is none, -EINVAL when it is not a JSON
 * object, -EFBIG when it is too large; ret untouched then.
 */
int dump_metadata_read(int dirfd, struct dump_metadata *ret);

#endif
