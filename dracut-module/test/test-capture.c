// SPDX-License-Identifier: GPL-2.0
/*
 * The capture's phases on the host: a temporary directory stands for the
 * mounted target, /proc/vmcore is a small ELF file with a VMCOREINFO note,
 * and makedumpfile a shell script written here that checks the arguments
 * the capture passes and writes its output, fails with a given status,
 * kills itself or sleeps.  Nothing is mounted and nothing reboots: the
 * state's reboot(2) and free space are replaced.
 */
#include <arpa/inet.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <net/route.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture.h"
#include "modplan.h"
#include "process.h"
#include "record.h"
#include "tests.h"
#include "util.h"

/* Nothing here opens a socket or mounts: see net_setup(). */

static char T[64];
static char p_vmcore[128], p_mnt[128], p_mdf[128], p_conf[128],
	p_cmdline[128], p_log[128], p_hook[128];
static int reboot_cmd = -1;
static unsigned long long free_now = 1ULL << 40, free_after = 1ULL << 40;
static unsigned int free_calls;

static int fake_reboot(int cmd)
{
	reboot_cmd = cmd;
	return 0;
}

/* The first call (before the vmcore) sees free_now, the rest free_after. */
static unsigned long long fake_free(const char *path)
{
	(void)path;
	return free_calls++ ? free_after : free_now;
}

/* Lines go to a file: the deadline process says its lines from a fork. */
static void file_report(struct capture *cap, const char *line)
{
	FILE *f = fopen(p_log, "ae");

	(void)cap;
	if (f) {
		fprintf(f, "%s\n", line);
		fclose(f);
	}
}

static void put(const char *path, const char *fmt, ...)
{
	va_list ap;
	FILE *f = fopen(path, "we");

	CHECK(f != NULL);
	if (!f)
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

/* The whole of a file ("" when there is none); free it. */
static char *slurp(const char *path)
{
	char *buf = NULL;

	if (read_file_max(path, &buf, 1 << 20) < 0)
		return strdup("");
	return buf;
}

static bool log_has(const char *what)
{
	char *s = slurp(p_log);
	bool r = strstr(s, what) != NULL;

	free(s);
	if (!r)
		fprintf(stderr, "log lacks: %s\n", what);
	return r;
}

static bool log_lacks(const char *what)
{
	char *s = slurp(p_log);
	bool r = strstr(s, what) == NULL;

	free(s);
	return r;
}

/* Does a come before b in the log? */
static bool log_before(const char *a, const char *b)
{
	char *s = slurp(p_log), *pa = strstr(s, a), *pb = strstr(s, b);
	bool r = pa && pb && pa < pb;

	free(s);
	return r;
}

static bool file_has(const char *path, const char *what)
{
	char *s = slurp(path);
	bool r = strstr(s, what) != NULL;

	free(s);
	if (!r)
		fprintf(stderr, "%s lacks: %s\n", path, what);
	return r;
}

static bool file_lacks(const char *path, const char *what)
{
	char *s = slurp(path);
	bool r = strstr(s, what) == NULL;

	free(s);
	return r;
}

static bool exists(const char *dir, const char *name)
{
	char p[PATH_MAX + 64];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return access(p, F_OK) == 0;
}

/* An ELF core with one PT_NOTE segment holding VMCOREINFO. */
static void write_vmcore(const char *path)
{
	static const char desc[] = "OSRELEASE=6.1.0-test\nCRASHTIME=1700000000\n";
	struct {
		Elf64_Ehdr eh;
		Elf64_Phdr ph;
		Elf64_Nhdr nh;
		char name[12];
		char desc[(sizeof(desc) + 3) & ~3UL];
	} f = { 0 };
	int fd;

	memcpy(f.eh.e_ident, ELFMAG, SELFMAG);
	f.eh.e_ident[EI_CLASS] = ELFCLASS64;
	f.eh.e_ident[EI_DATA] = ELFDATA2LSB;
	f.eh.e_type = ET_CORE;
	f.eh.e_phoff = sizeof(f.eh);
	f.eh.e_phentsize = sizeof(f.ph);
	f.eh.e_phnum = 1;
	f.ph.p_type = PT_NOTE;
	f.ph.p_offset = offsetof(__typeof__(f), nh);
	f.ph.p_filesz = sizeof(f) - f.ph.p_offset;
	f.nh.n_namesz = sizeof("VMCOREINFO");
	f.nh.n_descsz = sizeof(desc);
	memcpy(f.name, "VMCOREINFO", sizeof("VMCOREINFO"));
	memcpy(f.desc, desc, sizeof(desc));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	CHECK(fd >= 0);
	CHECK(write(fd, &f, sizeof(f)) == (ssize_t)sizeof(f));
	close(fd);
}

/*
 * The stand-in makedumpfile: the dmesg with --dump-dmesg; else the vmcore,
 * refusing (40..42) an output not named vmcore-incomplete, one written
 * before the dmesg, or a vmcore already there; with -F (a raw target) the
 * flattened vmcore to its standard output.  then: what it does before
 * it writes the vmcore ("sleep 3", "kill -9 $$"); status: its exit.
 */
static void write_makedumpfile(int dmesg_status, const char *then, int status)
{
	put(p_mdf,
	    "#!/bin/sh\n"
	    "for a; do out=$a; done\n"
	    "echo \"$*\" >> %s/args\n"
	    "if [ \"$1\" = --dump-dmesg ]; then\n"
	    "	printf 'Linux version 6.1.0-test\\nKernel panic - not syncing: sysrq triggered crash\\n' > \"$out\"\n"
	    "	exit %d\n"
	    "fi\n"
	    "if [ \"$1\" = -F ]; then\n"
	    "	%s\n"
	    "	printf 'KDUMP flattened'\n"
	    "	exit %d\n"
	    "fi\n"
	    "case $out in */vmcore-incomplete) ;; *) exit 40 ;; esac\n"
	    "[ -s \"${out%%/*}/dmesg.txt\" ] || exit 41\n"
	    "[ -e \"${out%%/*}/vmcore\" ] && exit 42\n"
	    "%s\n"
	    "printf 'KDUMP vmcore' > \"$out\"\n"
	    "exit %d\n",
	    T, dmesg_status, then, status, then, status);
	CHECK(chmod(p_mdf, 0755) == 0);
}

/* A fresh temporary tree, capture.conf with conf, and the state on it. */
static void setup(struct capture *cap, const char *conf)
{
	char tmpl[] = "/tmp/test-capture-XXXXXX";

	CHECK(mkdtemp(tmpl) != NULL);
	snprintf(T, sizeof(T), "%s", tmpl);
	snprintf(p_vmcore, sizeof(p_vmcore), "%s/vmcore", T);
	snprintf(p_mnt, sizeof(p_mnt), "%s/mnt", T);
	snprintf(p_mdf, sizeof(p_mdf), "%s/makedumpfile", T);
	snprintf(p_conf, sizeof(p_conf), "%s/capture.conf", T);
	snprintf(p_cmdline, sizeof(p_cmdline), "%s/cmdline", T);
	snprintf(p_log, sizeof(p_log), "%s/log", T);
	snprintf(p_hook, sizeof(p_hook), "%s/hook", T);
	CHECK(mkdir(p_mnt, 0700) == 0);
	write_vmcore(p_vmcore);
	put(p_conf, "%s", conf);
	put(p_cmdline, "console=ttyS0 " CONF_CMDLINE_CAPTURE_TIMEOUT "=77\n");
	write_makedumpfile(0, "", 0);
	capture_init(cap);
	cap->paths.conf = p_conf;
	cap->paths.vmcore = p_vmcore;
	cap->paths.cmdline = p_cmdline;
	cap->paths.mnt = p_mnt;
	cap->paths.makedumpfile = p_mdf;
	cap->paths.tmp = T;
	cap->report = file_report;
	cap->reboot = fake_reboot;
	cap->free_bytes = fake_free;
	reboot_cmd = -1;
	free_now = free_after = 1ULL << 40;
	free_calls = 0;
}

static void teardown(struct capture *cap)
{
	capture_done(cap);
	/* The deadline process, if one was started. */
	while (waitpid(-1, NULL, 0) > 0)
		;
	CHECK(test_rm_rf(T) == 0);
}

/* The phases a test runs: all but the drivers, the mount and the watchdog. */
static const struct capture_phase host_phases[] = {
	{ "configuration", phase_config, PHASE_FILE },
	{ "deadline", phase_deadline, PHASE_FILE },
	{ "dump directory", phase_dump_dir, PHASE_FILE },
	{ "pre hooks", phase_pre_hooks, PHASE_FILE },
	{ "dmesg", phase_dmesg, PHASE_FILE },
	{ "vmcore", phase_vmcore, PHASE_FILE },
	{ "record", phase_record, PHASE_FILE | PHASE_ALWAYS },
	{ "post hooks", phase_post_hooks, PHASE_FILE | PHASE_ALWAYS },
	{ "action", phase_action, PHASE_FILE | PHASE_ALWAYS },
	{ NULL, NULL, 0 },
};

#define CONF_BASE "path = /crash\ntarget = LABEL=dumps\ncapture_timeout = 600\n"

static void test_saved(void)
{
	struct capture cap;
	char args[PATH_MAX];

	setup(&cap, CONF_BASE "final_action = poweroff\n");
	CHECK(capture_run(&cap, host_phases) == 0);
	CHECK(log_has("capture started: target LABEL=dumps, path /crash, dump level 31, lzo"));
	CHECK(log_has("capture kernel command line: console=ttyS0"));
	CHECK(log_has("saving to /crash/"));
	/* dmesg before the vmcore, which is renamed once complete. */
	CHECK(log_before("dmesg saved", "saving vmcore (makedumpfile -l -d 31 "));
	CHECK(log_has("vmcore saved (12 bytes in "));
	CHECK(exists(cap.dir, "dmesg.txt"));
	CHECK(exists(cap.dir, "vmcore"));
	CHECK(!exists(cap.dir, "vmcore-incomplete"));
	CHECK(file_has(cap.meta, "\"complete\": true"));
	CHECK(file_has(cap.meta, "\"kernel_release\": \"6.1.0-test\""));
	CHECK(file_has(cap.meta, "\"crash_time\": 1700000000"));
	CHECK(file_has(cap.meta, "\"panic\": \"sysrq triggered crash\""));
	CHECK(file_has(cap.meta, "\"vmcore_bytes\": 12"));
	/* The order the stand-in saw: dmesg, then the vmcore. */
	snprintf(args, sizeof(args), "%s/args", T);
	CHECK(file_has(args, "--dump-dmesg"));
	CHECK(log_has("capture complete in "));
	CHECK(cap.action_taken == ACTION_POWEROFF);
	CHECK(reboot_cmd == (int)RB_POWER_OFF);
	CHECK(log_has("powering off"));
	teardown(&cap);
}

static void test_makedumpfile_fails(void)
{
	struct capture cap;

	setup(&cap, CONF_BASE "failure_action = halt\n");
	write_makedumpfile(0, "", 3);
	CHECK(capture_run(&cap, host_phases) == -EIO);
	CHECK(strcmp(cap.reason, "makedumpfile failed with status 3") == 0);
	CHECK(log_has("error: vmcore not saved: makedumpfile failed with status 3; dmesg.txt and metadata.json are kept"));
	/* The failure the record names: the error line's words, its errno. */
	CHECK(cap.diag.error == -EIO);
	CHECK(strcmp(cap.diag.msg, "vmcore not saved: makedumpfile failed with status 3; dmesg.txt and metadata.json are kept") == 0);
	CHECK(log_lacks("status -"));
	/* Not a full target: the partial file is kept, under its name. */
	CHECK(exists(cap.dir, "vmcore-incomplete"));
	CHECK(!exists(cap.dir, "vmcore"));
	CHECK(file_has(cap.meta, "\"complete\": false"));
	CHECK(file_has(cap.meta, "\"error\": \"makedumpfile failed with status 3\""));
	CHECK(log_has("capture failed after "));
	CHECK(cap.action_taken == ACTION_HALT);
	CHECK(reboot_cmd == (int)RB_HALT_SYSTEM);
	teardown(&cap);
}

static void test_makedumpfile_killed(void)
{
	struct capture cap;

	setup(&cap, CONF_BASE);
	write_makedumpfile(0, "kill -9 $$", 0);
	CHECK(capture_run(&cap, host_phases) == -EIO);
	CHECK(strcmp(cap.reason, "makedumpfile was killed by SIGKILL") == 0);
	teardown(&cap);

	setup(&cap, CONF_BASE);
	cap.paths.makedumpfile = "/nonexistent/makedumpfile";
	CHECK(capture_run(&cap, host_phases) == -EIO);
	CHECK(strcmp(cap.reason, "makedumpfile could not be run: No such file or directory") == 0);
	CHECK(log_has("warning: makedumpfile --dump-dmesg could not be run"));
	teardown(&cap);
}

static void test_target_full(void)
{
	struct capture cap;

	/* Full while writing: the partial vmcore goes, its space is needed. */
	setup(&cap, CONF_BASE);
	write_makedumpfile(0, "", 1);
	free_after = 0;
	CHECK(capture_run(&cap, host_phases) == -ENOSPC);
	CHECK(strcmp(cap.reason, "the dump target is full (0 MiB free after 0 MiB written)") == 0);
	/* The record names the first failure, not a cleanup after it. */
	CHECK(strcmp(cap.fail_step, "saving the vmcore") == 0);
	CHECK(cap.diag.error == -ENOSPC);
	CHECK(strncmp(cap.diag.msg, "vmcore not saved: the dump target is full", 41) == 0);
	CHECK(!exists(cap.dir, "vmcore-incomplete"));
	CHECK(exists(cap.dir, "dmesg.txt"));
	CHECK(file_has(cap.meta, "the dump target is full"));
	teardown(&cap);

	/* Too little to begin: makedumpfile is not run for the vmcore. */
	setup(&cap, CONF_BASE "min_free_mb = 64\n");
	free_now = 10ULL << 20;
	CHECK(capture_run(&cap, host_phases) == -ENOSPC);
	CHECK(log_has("error: vmcore not saved: only 10 MiB free on the target, min_free_mb is 64; dmesg.txt and metadata.json are kept"));
	CHECK(log_lacks("saving vmcore"));
	CHECK(exists(cap.dir, "dmesg.txt"));
	CHECK(file_has(cap.meta, "\"complete\": false"));
	teardown(&cap);

	/* Written, but it leaves less than min_free_mb: removed. */
	setup(&cap, CONF_BASE "min_free_mb = 64\n");
	free_after = 20ULL << 20;
	CHECK(capture_run(&cap, host_phases) == -ENOSPC);
	CHECK(log_has("error: vmcore removed: the vmcore would leave less than min_free_mb = 64 MiB free"));
	CHECK(!exists(cap.dir, "vmcore-incomplete"));
	CHECK(!exists(cap.dir, "vmcore"));
	teardown(&cap);
}

static void old_dump(const char *name, bool complete)
{
	char dir[256], f[300];

	snprintf(dir, sizeof(dir), "%s/crash/%s", p_mnt, name);
	CHECK(mkdir_p(dir, 0700) == 0);
	snprintf(f, sizeof(f), "%s/%s", dir, complete ? "vmcore" : "vmcore-incomplete");
	put(f, "old");
}

static void test_retention(void)
{
	struct capture cap;
	char d[256];

	setup(&cap, CONF_BASE "keep = 2\n");
	old_dump("2020-01-01-00:00:00", true);
	old_dump("2020-01-02-00:00:00", false);
	old_dump("2020-01-03-00:00:00", true);
	CHECK(capture_run(&cap, host_phases) == 0);
	CHECK(log_has("removed old dump 2020-01-02-00:00:00 (keep = 2), an incomplete one"));
	CHECK(log_has("removed old dump 2020-01-01-00:00:00 (keep = 2)\n"));
	snprintf(d, sizeof(d), "%s/crash", p_mnt);
	CHECK(!exists(d, "2020-01-01-00:00:00"));
	CHECK(!exists(d, "2020-01-02-00:00:00"));
	CHECK(exists(d, "2020-01-03-00:00:00"));
	CHECK(exists(cap.dir, "vmcore"));
	teardown(&cap);
}

static void test_dmesg_only(void)
{
	struct capture cap;

	setup(&cap, CONF_BASE "dump_level = dmesg\n");
	CHECK(capture_run(&cap, host_phases) == 0);
	CHECK(log_has("no vmcore: dump_level = dmesg saves the kernel log alone"));
	CHECK(!exists(cap.dir, "vmcore"));
	CHECK(file_has(cap.meta, "\"dmesg_only\": true"));
	CHECK(file_has(cap.meta, "\"complete\": true"));
	teardown(&cap);

	setup(&cap, CONF_BASE "dump_level = dmesg\n");
	write_makedumpfile(5, "", 0);
	CHECK(capture_run(&cap, host_phases) == -EIO);
	CHECK(log_has("error: kernel log not saved: makedumpfile --dump-dmesg failed with status 5 (dump_level = dmesg saves nothing else)"));
	CHECK(file_has(cap.meta, "\"complete\": false"));
	teardown(&cap);
}

static void write_hook(int status)
{
	put(p_hook, "#!/bin/sh\necho \"hook $1 $2\" >> %s/hooks\nexit %d\n", T,
	    status);
	CHECK(chmod(p_hook, 0755) == 0);
}

static void test_hooks(void)
{
	struct capture cap;

	/* A pre hook that fails with hook_failure = stop: nothing saved. */
	setup(&cap, "");
	put(p_conf, CONF_BASE "pre_hook = %s/hook\nhook_failure = stop\nfailure_action = poweroff\n", T);
	write_hook(1);
	CHECK(capture_run(&cap, host_phases) == -ECANCELED);
	CHECK(log_has("error: no dump saved: pre hook "));
	/*
	 * The hook's failure is said, and is the cause in the capture's:
	 * metadata.json has the cause, the record both.
	 */
	CHECK(log_before("error: pre hook ", "error: no dump saved: pre hook "));
	CHECK(strncmp(cap.reason, "pre hook ", 9) == 0);
	CHECK(strstr(cap.reason, " failed: exit 1 (hook_failure = stop)") != NULL);
	CHECK(cap.diag.error == -ECANCELED);
	CHECK(strncmp(cap.diag.msg, "no dump saved: ", 15) == 0 &&
	      strcmp(cap.diag.msg + 15, cap.reason) == 0);
	CHECK(!exists(cap.dir, "dmesg.txt"));
	CHECK(file_has(cap.meta, "\"complete\": false"));
	CHECK(file_has(cap.meta, "\"phase\": \"pre\""));
	CHECK(strncmp(cap.stop_step, "running pre hook ", 17) == 0);
	CHECK(cap.action_taken == ACTION_POWEROFF);
	teardown(&cap);

	/* A post hook that fails: the dump is saved, failure_action taken. */
	setup(&cap, "");
	put(p_conf, CONF_BASE "post_hook = %s/hook\nhook_failure = stop\nfailure_action = halt\n", T);
	write_hook(2);
	CHECK(capture_run(&cap, host_phases) == 0);
	CHECK(exists(cap.dir, "vmcore"));
	CHECK(exists(cap.dir, "hooks.log"));
	CHECK(file_has(cap.meta, "\"phase\": \"post\""));
	CHECK(file_has(cap.meta, "\"exit\": 2"));
	CHECK(log_has("a post hook failed and hook_failure = stop: the dump is saved, taking failure_action = halt"));
	/* Said, but not a failure of the capture: no failure record. */
	CHECK(log_has("error: post hook "));
	CHECK(!diag_failed(&cap.diag));
	CHECK(cap.action_taken == ACTION_HALT);
	teardown(&cap);
}

/*
 * Started by the kernel, the capture has no PATH and sets none for itself:
 * its hooks get the one its programs are looked up in.
 */
static void test_hook_path(void)
{
	char *path = strdup(getenv("PATH") ? getenv("PATH") : "");
	struct capture cap;
	char out[PATH_MAX];

	setup(&cap, "");
	put(p_conf, CONF_BASE "post_hook = %s/hook\n", T);
	/* Its environment as exec gave it: sh would make up a PATH itself. */
	put(p_hook, "#!/bin/sh\ntr '\\0' '\\n' </proc/$$/environ >%s/hooks\n",
	    T);
	CHECK(chmod(p_hook, 0755) == 0);
	CHECK(unsetenv("PATH") == 0);
	CHECK(capture_run(&cap, host_phases) == 0);
	CHECK(getenv("PATH") == NULL);
	CHECK(path && setenv("PATH", path, 1) == 0);
	snprintf(out, sizeof(out), "%s/hooks", T);
	CHECK(file_has(out, "PATH=" PROCESS_DEFAULT_PATH "\n"));
	teardown(&cap);
	free(path);
}

static void test_deadline(void)
{
	struct capture cap;

	/* The deadline process says which step ran and records why. */
	setup(&cap, "path = /crash\ncapture_timeout = 1\n");
	write_makedumpfile(0, "sleep 3", 0);
	CHECK(capture_run(&cap, host_phases) == 0);
	/* Past its deadline, the deadline process ends by itself. */
	while (waitpid(-1, NULL, 0) > 0)
		;
	CHECK(log_has("capture deadline: 1s (capture_timeout)"));
	CHECK(log_has("error: capture_timeout (1s) passed while saving the vmcore: taking failure_action = reboot"));
	CHECK(log_has("recorded why in /crash/"));
	teardown(&cap);

	/* An automatic capture_timeout comes from the command line. */
	setup(&cap, "path = /crash\n");
	put(p_cmdline, "quiet " CONF_CMDLINE_CAPTURE_TIMEOUT "=1\n");
	CHECK(phase_config(&cap) == 0);
	CHECK(cap.conf.capture_timeout == 1);
	teardown(&cap);
}

static void test_config(void)
{
	struct capture cap;
	char line[300];

	/* Not a capture kernel: nothing to do, no action on the host. */
	setup(&cap, CONF_BASE);
	cap.paths.vmcore = "/nonexistent/vmcore";
	CHECK(capture_run(&cap, host_phases) == 0);
	CHECK(log_has("this is not a capture kernel, nothing to save"));
	CHECK(cap.action_taken == -1 && cap.exit_status == 0);
	teardown(&cap);

	/* A configuration that cannot be read: failure_action by default. */
	setup(&cap, "no_such_key = 1\n");
	CHECK(capture_run(&cap, host_phases) == -ENOKEY);
	snprintf(line, sizeof(line), "error: %s:1: key 'no_such_key': unknown key",
		 p_conf);
	CHECK(log_has(line));
	CHECK(cap.diag.error == -ENOKEY &&
	      strncmp(cap.diag.msg, line + 7, strlen(line + 7)) == 0);
	CHECK(strcmp(cap.step, "reading the capture configuration") == 0);
	CHECK(cap.action_taken == ACTION_REBOOT);
	CHECK(reboot_cmd == (int)RB_AUTOBOOT);
	teardown(&cap);

	CHECK(capture_cmdline_timeout("a " CONF_CMDLINE_CAPTURE_TIMEOUT "=90 b") == 90);
	CHECK(capture_cmdline_timeout("x" CONF_CMDLINE_CAPTURE_TIMEOUT "=90") ==
	      CONF_CAPTURE_TIMEOUT_FALLBACK);
	CHECK(capture_cmdline_timeout(CONF_CMDLINE_CAPTURE_TIMEOUT "=0") ==
	      CONF_CAPTURE_TIMEOUT_FALLBACK);
	CHECK(capture_cmdline_timeout("") == CONF_CAPTURE_TIMEOUT_FALLBACK);
	/* makedumpfile's threads, one unless load chose more. */
	CHECK(capture_cmdline_threads("nr_cpus=2 " CONF_CMDLINE_THREADS "=2 x") == 2);
	CHECK(capture_cmdline_threads(CONF_CMDLINE_THREADS "=64") == 64);
	CHECK(capture_cmdline_threads(CONF_CMDLINE_THREADS "=65") == 1);
	CHECK(capture_cmdline_threads(CONF_CMDLINE_THREADS "=0") == 1);
	CHECK(capture_cmdline_threads(CONF_CMDLINE_THREADS "=2x") == 1);
	CHECK(capture_cmdline_threads("x" CONF_CMDLINE_THREADS "=2") == 1);
	CHECK(capture_cmdline_threads("") == 1);
}

/* Read the header of a raw "device" (a file here). */
static int raw_read(const char *path, struct raw_header *h)
{
	char buf[RAW_HEADER_SIZE];
	int fd = open(path, O_RDONLY | O_CLOEXEC), r = -EIO;

	if (fd >= 0 && read(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf))
		r = raw_header_parse(buf, sizeof(buf), 1 << 20, h);
	if (fd >= 0)
		close(fd);
	return r;
}

/* The raw phases after the device is open: a file of 1 MiB stands for it. */
static int raw_run(struct capture *cap, const char *dev)
{
	int r;

	cap->raw_fd = open(dev, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	CHECK(cap->raw_fd >= 0);
	CHECK(ftruncate(cap->raw_fd, 1 << 20) == 0);
	cap->raw_size = 1 << 20;
	cap->raw = (struct raw_header){ .state = RAW_WRITING };
	CHECK(phase_raw_dmesg(cap) == 0);
	r = phase_raw_vmcore(cap);
	CHECK(phase_raw_close(cap) == 0);
	CHECK(cap->raw_fd == -1);
	return r;
}

static void test_raw(void)
{
	struct raw_header h;
	struct capture cap;
	char dev[160];

	setup(&cap, CONF_BASE "raw = /dev/vdb\n");
	snprintf(dev, sizeof(dev), "%s/rawdev", T);
	CHECK(raw_run(&cap, dev) == 0);
	CHECK(log_before("dmesg saved (", "saving vmcore (makedumpfile -F -l -d 31 "));
	CHECK(raw_read(dev, &h) == 0);
	CHECK(h.state == RAW_COMPLETE);
	CHECK(h.dmesg_off == RAW_HEADER_SIZE && h.dmesg_len > 0);
	CHECK(h.vmcore_off % 4096 == 0 && h.vmcore_off >= RAW_HEADER_SIZE + h.dmesg_len);
	CHECK(h.vmcore_len == strlen("KDUMP flattened"));
	teardown(&cap);

	setup(&cap, CONF_BASE "raw = /dev/vdb\n");
	snprintf(dev, sizeof(dev), "%s/rawdev", T);
	write_makedumpfile(0, "", 4);
	CHECK(raw_run(&cap, dev) == -EIO);
	CHECK(raw_read(dev, &h) == 0);
	CHECK(h.state == RAW_FAILED);
	CHECK(strcmp(h.error, "makedumpfile failed with status 4") == 0);
	CHECK(log_has("error: vmcore not saved: makedumpfile failed with status 4"));
	teardown(&cap);
}

/*
 * A block device of the fixture sysfs below T: class/NAME links to
 * devices/NAME with its serial and size (512-byte sectors), and a /dev
 * node that is a file holding "precious", to see that nothing was written.
 */
static void raw_fixture_disk(const char *name, const char *serial,
			     unsigned long long sectors)
{
	char p[PATH_MAX], to[PATH_MAX];

	snprintf(p, sizeof(p), "%s/sys/devices/%s", T, name);
	CHECK(mkdir(p, 0755) == 0);
	snprintf(p, sizeof(p), "%s/sys/devices/%s/serial", T, name);
	put(p, "%s\n", serial);
	snprintf(p, sizeof(p), "%s/sys/devices/%s/size", T, name);
	put(p, "%llu\n", sectors);
	snprintf(p, sizeof(p), "%s/dev/%s", T, name);
	put(p, "precious");
	/* Absolute: the class directory is also mounted on /sys/class/block. */
	snprintf(p, sizeof(p), "%s/sys/class/%s", T, name);
	snprintf(to, sizeof(to), "%s/sys/devices/%s", T, name);
	CHECK(symlink(to, p) == 0);
}

static char p_class[160], p_dev[160];

static void raw_fixture(struct capture *cap, const char *conf)
{
	char p[PATH_MAX];

	setup(cap, conf);
	snprintf(p, sizeof(p), "%s/sys", T);
	CHECK(mkdir(p, 0755) == 0);
	snprintf(p, sizeof(p), "%s/sys/devices", T);
	CHECK(mkdir(p, 0755) == 0);
	snprintf(p_class, sizeof(p_class), "%s/sys/class", T);
	CHECK(mkdir(p_class, 0755) == 0);
	snprintf(p_dev, sizeof(p_dev), "%s/dev", T);
	CHECK(mkdir(p_dev, 0755) == 0);
	cap->paths.sys_class_block = p_class;
	cap->paths.dev = p_dev;
	cap->raw_settle_ms = 0;
	CHECK(phase_config(cap) == 0);
}

/* Nothing written to the node of name: it holds what it held. */
static bool raw_untouched(const char *name)
{
	char p[PATH_MAX];
	char *s;
	bool r;

	snprintf(p, sizeof(p), "%s/%s", p_dev, name);
	s = slurp(p);
	r = strcmp(s, "precious") == 0;
	free(s);
	return r;
}

#define RAW_CONF "path = /var/crash\nraw = SERIAL=kdump-raw\n" \
	"raw_identity = SERIAL=kdump-raw size=1048576\n" \
	"capture_timeout = 600\ntarget_timeout = 1\n"

/*
 * The raw dump device at crash time: a disk cloned with its serial after
 * the load is refused with the original, whichever the kernel found first;
 * a disk with the serial but not the size is not taken for it.
 */
static void test_raw_identity(void)
{
	struct capture_record rec;
	struct capture cap;
	char kmsg[PATH_MAX], line[1024], *text;
	pid_t pid;

	/* Two disks with the identity: nothing written to either. */
	raw_fixture(&cap, RAW_CONF);
	raw_fixture_disk("vdb", "kdump-raw", 2048);
	raw_fixture_disk("vdc", "kdump-raw", 2048);
	CHECK(phase_raw_open(&cap) == -ENOTUNIQ);
	CHECK(cap.raw_fd == -1);
	CHECK(log_has("error: 2 devices carry the raw dump device's identity (SERIAL=kdump-raw, 1048576 bytes): vdb, vdc: nothing written to either"));
	CHECK(cap.diag.error == -ENOTUNIQ && strcmp(cap.diag.msg, "2 devices carry the raw dump device's identity (SERIAL=kdump-raw, 1048576 bytes): vdb, vdc: nothing written to either") == 0);
	CHECK(strcmp(cap.step, "identifying the raw dump device") == 0);
	CHECK(raw_untouched("vdb") && raw_untouched("vdc"));
	/* What the next boot reads: the record, and the line status shows. */
	snprintf(kmsg, sizeof(kmsg), "%s/kmsg", T);
	put(kmsg, "%s", "");
	cap.paths.kmsg = kmsg;
	cap.paths.always_kmsg_dump = "/nonexistent";
	cap.paths.pstore_backend = "/nonexistent";
	cap.is_init = true;
	capture_record_failure(&cap, cap.step, &cap.diag);
	cap.is_init = false;
	text = slurp(kmsg);
	CHECK(record_parse(text, &rec) == 0);
	free(text);
	CHECK(strcmp(rec.step, "identifying the raw dump device") == 0);
	CHECK(strcmp(rec.error, "ENOTUNIQ") == 0);
	CHECK(strcmp(rec.target, "SERIAL=kdump-raw") == 0);
	CHECK(record_describe(&rec, line, sizeof(line)) == 0);
	CHECK(strstr(line, "the capture failed while identifying the raw dump device: 2 devices carry the raw dump device's identity (SERIAL=kdump-raw, 1048576 bytes): vdb, vdc: nothing written to either (ENOTUNIQ)") != NULL);
	teardown(&cap);

	/* Three: any of them. */
	raw_fixture(&cap, RAW_CONF);
	raw_fixture_disk("sda", "kdump-raw", 2048);
	raw_fixture_disk("vdb", "kdump-raw", 2048);
	raw_fixture_disk("vdc", "kdump-raw", 2048);
	CHECK(phase_raw_open(&cap) == -ENOTUNIQ);
	CHECK(log_has("error: 3 devices carry the raw dump device's identity (SERIAL=kdump-raw, 1048576 bytes): sda, vdb, vdc: nothing written to any of them"));
	teardown(&cap);

	/*
	 * The clone comes up while the capture settles, after the first was
	 * seen: counted all the same.
	 */
	raw_fixture(&cap, RAW_CONF);
	cap.raw_settle_ms = 1500;
	raw_fixture_disk("vdb", "kdump-raw", 2048);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		usleep(300 * 1000);
		raw_fixture_disk("vdc", "kdump-raw", 2048);
		_exit(0);
	}
	CHECK(phase_raw_open(&cap) == -ENOTUNIQ);
	CHECK(log_has("vdb, vdc: nothing written to either"));
	CHECK(raw_untouched("vdb") && raw_untouched("vdc"));
	teardown(&cap);

	/* The serial on a disk of another size only: not it. */
	raw_fixture(&cap, RAW_CONF);
	raw_fixture_disk("vdb", "kdump-raw", 4096);
	CHECK(phase_raw_open(&cap) == -ENODEV);
	CHECK(log_has("error: no device carries the raw dump device's identity (SERIAL=kdump-raw, 1048576 bytes): vdb: 2097152 bytes: nothing written to it"));
	CHECK(raw_untouched("vdb"));
	teardown(&cap);

	/*
	 * The serial on two disks, one of the size load saw: that one is
	 * opened (a file here, which BLKGETSIZE64 refuses).
	 */
	raw_fixture(&cap, RAW_CONF);
	raw_fixture_disk("vdb", "kdump-raw", 4096);
	raw_fixture_disk("vdc", "kdump-raw", 2048);
	CHECK(phase_raw_open(&cap) < 0);
	CHECK(log_has("warning: not the raw dump device, though carrying SERIAL=kdump-raw: vdb: 2097152 bytes"));
	snprintf(line, sizeof(line), "error: cannot open raw dump device %s/vdc: ", p_dev);
	CHECK(log_has(line));
	CHECK(raw_untouched("vdb"));
	teardown(&cap);

	/* None at all within target_timeout. */
	raw_fixture(&cap, RAW_CONF);
	raw_fixture_disk("vdb", "other", 2048);
	CHECK(phase_raw_open(&cap) == -ENODEV);
	CHECK(log_has("error: raw dump device SERIAL=kdump-raw not found within 1s: No such device"));
	CHECK(strcmp(cap.step, "waiting for the dump target") == 0);
	teardown(&cap);

	/* A configuration without the identity (an older load): the spec. */
	raw_fixture(&cap, "path = /var/crash\nraw = SERIAL=kdump-raw\ncapture_timeout = 600\n");
	raw_fixture_disk("vdb", "kdump-raw", 4096);
	raw_fixture_disk("vdc", "kdump-raw", 2048);
	CHECK(phase_raw_open(&cap) == -ENOTUNIQ);
	CHECK(log_has("error: 2 devices carry the raw dump device's identity (SERIAL=kdump-raw): vdb, vdc: nothing written to either"));
	teardown(&cap);
}

/*
 * The same clone seen where the capture kernel looks, /sys/class/block
 * and /dev, in a mount namespace of its own that puts the fixture there
 * (root only; skipped otherwise): nothing is opened, where a lookup that
 * takes the first match opens vdb.
 */
static void test_raw_identity_ns(void)
{
	struct capture cap;
	int status;
	pid_t pid;

	raw_fixture(&cap, RAW_CONF);
	raw_fixture_disk("vdb", "kdump-raw", 2048);
	raw_fixture_disk("vdc", "kdump-raw", 2048);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		if (unshare(CLONE_NEWNS) < 0 ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
		    mount(p_class, "/sys/class/block", NULL, MS_BIND, NULL) < 0 ||
		    mount(p_dev, "/dev", NULL, MS_BIND, NULL) < 0)
			_exit(77);
		cap.paths.sys_class_block = "/sys/class/block";
		cap.paths.dev = "/dev";
		_exit(-phase_raw_open(&cap) & 0xff);
	}
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status));
	if (WEXITSTATUS(status) == 77) {
		printf("no private mount namespace (not root?): the clone in /sys/class/block skipped\n");
	} else {
		CHECK(WEXITSTATUS(status) == ENOTUNIQ);
		CHECK(log_has("error: 2 devices carry the raw dump device's identity (SERIAL=kdump-raw, 1048576 bytes): vdb, vdc: nothing written to either"));
		CHECK(log_lacks("cannot open raw dump device"));
		CHECK(log_lacks("writing to raw device"));
		CHECK(raw_untouched("vdb") && raw_untouched("vdc"));
	}
	teardown(&cap);
}

/* As PID 1 the failure record goes to the kernel log, here a file. */
static void test_failure_record(void)
{
	char kmsg[160], dump[160], backend[160], mods[160], mem[160];
	struct capture_record rec;
	struct diag why = DIAG_INIT;
	struct capture cap;
	char *line;

	setup(&cap, CONF_BASE);
	snprintf(kmsg, sizeof(kmsg), "%s/kmsg", T);
	snprintf(dump, sizeof(dump), "%s/always_kmsg_dump", T);
	snprintf(backend, sizeof(backend), "%s/backend", T);
	snprintf(mods, sizeof(mods), "%s/modules", T);
	snprintf(mem, sizeof(mem), "%s/meminfo", T);
	put(kmsg, "%s", "");
	put(dump, "N");
	put(backend, "ramoops\n");
	put(mods, "virtio_blk 20480 0 - Live 0x0\next4 1 0 - Live 0x0\n");
	put(mem, "MemTotal: 200000 kB\nMemFree: 123456 kB\n");
	cap.paths.kmsg = kmsg;
	cap.paths.always_kmsg_dump = dump;
	cap.paths.pstore_backend = backend;
	cap.paths.proc_modules = mods;
	cap.paths.meminfo = mem;
	CHECK(phase_config(&cap) == 0);
	cap.is_init = true;
	(void)diag_fail(&why, -ENODEV,
			"dump target LABEL=dumps not found within 60s");
	capture_record_failure(&cap, "waiting for the dump target", &why);
	cap.is_init = false;
	line = slurp(kmsg);
	CHECK(strncmp(line, "<3>", 3) == 0);
	CHECK(record_parse(line, &rec) == 0);
	CHECK(rec.crash_time == 1700000000);
	CHECK(strcmp(rec.step, "waiting for the dump target") == 0);
	CHECK(strcmp(rec.error, "ENODEV") == 0);
	CHECK(strcmp(rec.target, "LABEL=dumps") == 0);
	CHECK(strcmp(rec.modules, "virtio_blk,ext4") == 0);
	CHECK(rec.mem_free_kib == 123456);
	CHECK(strcmp(rec.why, "dump target LABEL=dumps not found within 60s") == 0);
	free(line);
	CHECK(file_has(dump, "Y"));
	CHECK(log_has("recorded why for the next boot (pstore: ramoops)"));
	teardown(&cap);
}

/*
 * The failure record as phase_action() writes it, PID 1 (a file for the
 * kernel log here): parsed into rec, false when there is none.
 */
static bool record_of_run(struct capture *cap,
			  const struct capture_phase *phases, int want,
			  struct capture_record *rec)
{
	char kmsg[PATH_MAX];
	char *text;
	bool ok;

	snprintf(kmsg, sizeof(kmsg), "%s/kmsg", T);
	put(kmsg, "%s", "");
	cap->paths.kmsg = kmsg;
	cap->paths.always_kmsg_dump = "/nonexistent";
	cap->paths.pstore_backend = "/nonexistent";
	cap->is_init = true;
	CHECK(capture_run(cap, phases) == want);
	cap->is_init = false;
	text = slurp(kmsg);
	ok = record_parse(text, rec) == 0;
	free(text);
	return ok;
}

/* A line that reads like a failure: said, and the capture goes on. */
static int phase_error_text(struct capture *cap)
{
	capture_say(cap, "error: a line that only reads like a failure");
	return 0;
}

static int phase_fails(struct capture *cap)
{
	capture_step(cap, "failing for a reason");
	return capture_fail(cap, -ENOSPC, "the reason, from capture_fail()");
}

/* A cleanup that fails after the first failure: said, not the record's. */
static int phase_cleanup_fails(struct capture *cap)
{
	capture_step(cap, "cleaning up");
	return capture_fail(cap, -EIO, "the cleanup failed too");
}

/* A failure without capture_fail(): its errno alone, whatever was said. */
static int phase_fails_silently(struct capture *cap)
{
	capture_step(cap, "failing without a word");
	capture_say(cap, "error: said, but not how this phase fails");
	return -EBADMSG;
}

/*
 * The failure the record names comes from capture_fail(), the first one,
 * never from the text of a line said: capture_say() parses nothing.
 */
static void test_failure_from_fail(void)
{
	static const struct capture_phase said_then_failed[] = {
		{ "error text", phase_error_text, PHASE_ANY },
		{ "fails", phase_fails, PHASE_ANY },
		{ "cleanup", phase_cleanup_fails, PHASE_ANY | PHASE_ALWAYS },
		{ "error text", phase_error_text, PHASE_ANY | PHASE_ALWAYS },
		{ "action", phase_action, PHASE_ANY | PHASE_ALWAYS },
		{ NULL, NULL, 0 },
	};
	static const struct capture_phase failed_silently[] = {
		{ "silent", phase_fails_silently, PHASE_ANY },
		{ "action", phase_action, PHASE_ANY | PHASE_ALWAYS },
		{ NULL, NULL, 0 },
	};
	struct capture_record rec;
	struct capture cap;

	setup(&cap, CONF_BASE);
	CHECK(record_of_run(&cap, said_then_failed, -ENOSPC, &rec));
	CHECK(log_has("error: a line that only reads like a failure"));
	CHECK(log_has("error: the reason, from capture_fail()"));
	CHECK(log_has("error: the cleanup failed too"));
	CHECK(cap.diag.error == -ENOSPC);
	CHECK(strcmp(cap.diag.msg, "the reason, from capture_fail()") == 0);
	CHECK(strcmp(cap.fail_step, "failing for a reason") == 0);
	CHECK(strcmp(rec.why, "the reason, from capture_fail()") == 0);
	CHECK(strcmp(rec.error, "ENOSPC") == 0);
	CHECK(strcmp(rec.step, "failing for a reason") == 0);
	CHECK(log_has("capture failed after "));
	CHECK(reboot_cmd == (int)RB_AUTOBOOT);
	teardown(&cap);

	/* Said "error: ...", failed without capture_fail(): no words. */
	setup(&cap, CONF_BASE);
	CHECK(record_of_run(&cap, failed_silently, -EBADMSG, &rec));
	CHECK(log_has("error: said, but not how this phase fails"));
	CHECK(cap.diag.error == -EBADMSG && cap.diag.msg[0] == '\0');
	CHECK(strcmp(rec.why, "no reason given") == 0);
	CHECK(strcmp(rec.error, "EBADMSG") == 0);
	CHECK(strcmp(rec.step, "failing without a word") == 0);
	teardown(&cap);

	/* A failure into another diag (a hook's) is said, not the capture's. */
	setup(&cap, CONF_BASE);
	CHECK(capture_diag_fail(&cap, NULL, -EPERM, "a hook's, %s", "not ours") ==
	      -EPERM);
	CHECK(log_has("error: a hook's, not ours\n"));
	CHECK(!diag_failed(&cap.diag));
	CHECK(capture_fail(&cap, -EPERM, "first") == -EPERM);
	CHECK(capture_fail(&cap, -EIO, "second") == -EIO);
	CHECK(cap.diag.error == -EPERM && strcmp(cap.diag.msg, "first") == 0);
	CHECK(log_has("error: first\n") && log_has("error: second\n"));
	teardown(&cap);
}

/* The phases of a dump whose post hook stops it, then a failure after. */
static int phase_fails_after_post(struct capture *cap)
{
	capture_step(cap, "sending metadata.json");
	return capture_fail(cap, -EPIPE, "metadata.json not sent: gone");
}

/*
 * A post hook that stops the capture (hook_failure = stop) is said, but
 * a failure after it is what the record names.
 */
static void test_post_hook_then_failure(void)
{
	static const struct capture_phase phases[] = {
		{ "configuration", phase_config, PHASE_FILE },
		{ "dump directory", phase_dump_dir, PHASE_FILE },
		{ "dmesg", phase_dmesg, PHASE_FILE },
		{ "vmcore", phase_vmcore, PHASE_FILE },
		{ "post hooks", phase_post_hooks, PHASE_FILE | PHASE_ALWAYS },
		{ "after", phase_fails_after_post, PHASE_FILE | PHASE_ALWAYS },
		{ "action", phase_action, PHASE_FILE | PHASE_ALWAYS },
		{ NULL, NULL, 0 },
	};
	struct capture_record rec;
	struct capture cap;

	setup(&cap, "");
	put(p_conf, CONF_BASE "post_hook = %s/hook\nhook_failure = stop\n", T);
	write_hook(2);
	CHECK(record_of_run(&cap, phases, -EPIPE, &rec));
	CHECK(cap.post_stopped);
	CHECK(log_has("error: post hook "));
	CHECK(log_before("error: post hook ", "error: metadata.json not sent: gone"));
	CHECK(strcmp(rec.why, "metadata.json not sent: gone") == 0);
	CHECK(strcmp(rec.error, "EPIPE") == 0);
	teardown(&cap);
}

static int phase_index(int (*run)(struct capture *cap))
{
	for (int i = 0; capture_phases[i].run; i++)
		if (capture_phases[i].run == run)
			return i;
	return -1;
}

/* The capture kernel's table: the order and what runs after a failure. */
static void test_phase_table(void)
{
	int n = 0;

	while (capture_phases[n].run)
		n++;
	CHECK(phase_index(phase_config) == 0);
	CHECK(phase_index(phase_helpers) < phase_index(phase_deadline));
	CHECK(phase_index(phase_target) < phase_index(phase_mount));
	CHECK(phase_index(phase_mount) < phase_index(phase_dump_dir));
	CHECK(phase_index(phase_pre_hooks) < phase_index(phase_dmesg));
	CHECK(phase_index(phase_dmesg) < phase_index(phase_vmcore));
	CHECK(phase_index(phase_vmcore) < phase_index(phase_record));
	CHECK(phase_index(phase_record) < phase_index(phase_post_hooks));
	CHECK(phase_index(phase_post_hooks) < phase_index(phase_unmount));
	/* The fallback's local phases come after every network one. */
	CHECK(phase_index(phase_extra_modules) < phase_index(phase_network));
	CHECK(phase_index(phase_network) < phase_index(phase_nfs_mount));
	CHECK(phase_index(phase_nfs_mount) < phase_index(phase_ssh_begin));
	CHECK(phase_index(phase_ssh_begin) < phase_index(phase_target));
	CHECK(phase_index(phase_dmesg) < phase_index(phase_ssh_dmesg));
	CHECK(phase_index(phase_ssh_dmesg) < phase_index(phase_ssh_vmcore));
	CHECK(phase_index(phase_post_hooks) < phase_index(phase_ssh_record));
	CHECK(phase_index(phase_raw_open) < phase_index(phase_raw_dmesg));
	CHECK(phase_index(phase_raw_dmesg) < phase_index(phase_raw_vmcore));
	CHECK(phase_index(phase_raw_vmcore) < phase_index(phase_raw_close));
	CHECK(phase_index(phase_action) == n - 1);
	for (int i = 0; i < n; i++) {
		const struct capture_phase *p = &capture_phases[i];
		bool always = p->run == phase_record ||
			      p->run == phase_post_hooks ||
			      p->run == phase_ssh_record ||
			      p->run == phase_unmount ||
			      p->run == phase_raw_close || p->run == phase_action;

		CHECK(!!(p->flags & PHASE_ALWAYS) == always);
		CHECK(p->flags & PHASE_ANY);
		/* The network phases are for the network kinds alone. */
		CHECK(!(p->run == phase_network || p->run == phase_nfs_mount ||
			p->run == phase_ssh_begin || p->run == phase_ssh_vmcore) ||
		      !(p->flags & (PHASE_LOCAL | PHASE_RAW)));
		CHECK(!(p->run == phase_target || p->run == phase_mount) ||
		      p->flags == PHASE_LOCAL);
		CHECK(!(p->run == phase_target || p->run == phase_dmesg ||
			p->run == phase_vmcore) || !(p->flags & PHASE_RAW));
		CHECK(!(p->run == phase_raw_open || p->run == phase_raw_vmcore) ||
		      !(p->flags & PHASE_FILE));
	}
}

static void test_actions(void)
{
	static const struct {
		enum conf_action a;
		int cmd;
		const char *said;
	} cases[] = {
		{ ACTION_REBOOT, RB_AUTOBOOT, "rebooting" },
		{ ACTION_POWEROFF, RB_POWER_OFF, "powering off" },
		{ ACTION_HALT, RB_HALT_SYSTEM, "halting" },
		{ ACTION_SHELL, -1, "dropping to a shell" },
	};
	struct capture cap;

	setup(&cap, CONF_BASE);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		reboot_cmd = -1;
		CHECK(capture_action(&cap, cases[i].a) == 0);
		CHECK(cap.action_taken == (int)cases[i].a);
		CHECK(reboot_cmd == cases[i].cmd);
		CHECK(log_has(cases[i].said));
	}
	/* Not PID 1: the shell is an exit status. */
	CHECK(cap.exit_status == CAPTURE_EXIT_SHELL);
	/* PID 1 in an image without sh: said, and a reboot instead. */
	cap.is_init = true;
	cap.paths.shell = "/nonexistent/sh";
	reboot_cmd = -1;
	CHECK(capture_action(&cap, ACTION_SHELL) == 0);
	cap.is_init = false;
	CHECK(reboot_cmd == RB_AUTOBOOT);
	CHECK(log_has("error: cannot run /nonexistent/sh: No such file or directory: the capture initramfs has no shell for failure_action = shell"));
	teardown(&cap);
}

/*
 * Network targets.  /sys/class/net is a tree of files here, the ioctls and
 * mount(2) are recorded instead of made, and ssh is a shell script that
 * logs its arguments and plays the collector's kdump-file-receive: begin
 * answers a NAME, what comes on stdin is kept under recv.*, and a file
 * named fail-REQUEST makes that request fail as a collector would (and
 * drop-REQUEST, without reading its stdin, as a dropped connection).
 */
#define MAC "52:54:00:12:34:56"
#define CHAIN_NET "module virtio_net\nnet " MAC " 10.0.0.5/24 10.0.0.1\n" \
	"collector 192.168.1.9\nhostdir host-0123456789ab\n"
#define SSH_URL "ssh://kdump@collector.example/srv/crash"
#define NFS_URL "nfs://collector.example/export/crash"

static char p_chain[128], p_net[128], p_ssh[128], ioctls[4096];
static char mount_src[256], mount_fstype[32], mount_opts[256];
static int mount_errno;

static void ioctl_log(const char *fmt, ...)
{
	size_t n = strlen(ioctls);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ioctls + n, sizeof(ioctls) - n, fmt, ap);
	va_end(ap);
}

static const char *sin_text(const struct sockaddr *sa)
{
	static char buf[4][INET_ADDRSTRLEN];
	static unsigned int i;
	struct sockaddr_in sin;

	memcpy(&sin, sa, sizeof(sin));
	i = (i + 1) % 4;
	if (sin.sin_family != AF_INET)
		return "?";
	return inet_ntop(AF_INET, &sin.sin_addr, buf[i], sizeof(buf[i]));
}

static int fake_ioctl(unsigned long req, void *arg)
{
	struct ifreq *ifr = arg;
	struct rtentry *rt = arg;

	switch (req) {
	case SIOCGIFFLAGS:
		ifr->ifr_flags = IFF_BROADCAST;
		return 0;
	case SIOCSIFFLAGS:
		ioctl_log("flags %s%s%s\n", ifr->ifr_name,
			  ifr->ifr_flags & IFF_UP ? " up" : "",
			  ifr->ifr_flags & IFF_BROADCAST ? " broadcast" : "");
		return 0;
	case SIOCSIFADDR:
		ioctl_log("addr %s %s\n", ifr->ifr_name, sin_text(&ifr->ifr_addr));
		return 0;
	case SIOCSIFNETMASK:
		ioctl_log("netmask %s %s\n", ifr->ifr_name,
			  sin_text(&ifr->ifr_netmask));
		return 0;
	case SIOCADDRT:
		ioctl_log("route %s/%s via %s dev %s%s%s%s\n",
			  sin_text(&rt->rt_dst), sin_text(&rt->rt_genmask),
			  sin_text(&rt->rt_gateway), rt->rt_dev,
			  rt->rt_flags & RTF_UP ? " U" : "",
			  rt->rt_flags & RTF_GATEWAY ? "G" : "",
			  rt->rt_flags & RTF_HOST ? "H" : "");
		return 0;
	default:
		ioctl_log("unexpected %lx\n", req);
		return -EINVAL;
	}
}

static int fake_mount(const char *src, const char *target,
		      const char *fstype, unsigned long flags, const void *data)
{
	(void)target;
	(void)flags;
	snprintf(mount_src, sizeof(mount_src), "%s", src);
	snprintf(mount_fstype, sizeof(mount_fstype), "%s", fstype);
	snprintf(mount_opts, sizeof(mount_opts), "%s", (const char *)data);
	if (mount_errno) {
		errno = mount_errno;
		return -1;
	}
	return 0;
}

/* One interface of the fake /sys/class/net. */
static void nic(const char *name, const char *mac, const char *carrier,
		const char *operstate)
{
	char d[256];

	snprintf(d, sizeof(d), "%s/%s", p_net, name);
	CHECK(mkdir_p(d, 0755) == 0);
	test_put(d, "address", mac);
	if (carrier)
		test_put(d, "carrier", carrier);
	test_put(d, "operstate", operstate);
	/* NICs have a device (T/devices/pci0/NAME); bonds and VLANs none. */
	if (strncmp(name, "eth", 3) == 0) {
		char dev[256], link[300];

		snprintf(dev, sizeof(dev), "%s/devices/pci0/%s", T, name);
		CHECK(mkdir_p(dev, 0755) == 0);
		snprintf(link, sizeof(link), "%s/device", d);
		(void)unlink(link);
		CHECK(symlink(dev, link) == 0);
	}
}

/* ip(8) for the tests: each run logged, "fail" in ip_fail fails. */
static char ip_fail[64];

static int fake_ip(struct capture *cap, char *const argv[], struct diag *d)
{
	char cmd[256] = "";

	(void)cap;
	for (unsigned int i = 0; argv[i]; i++)
		snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), "%s%s",
			 i ? " " : "", argv[i]);
	ioctl_log("%s\n", cmd);
	if (ip_fail[0] && strstr(cmd, ip_fail))
		return diag_fail(d, -EIO, "'%s' failed: exit status 2", cmd);
	/* A link made appears, its carrier up, as the kernel's would. */
	for (unsigned int i = 0; argv[i] && argv[i + 1]; i++)
		if (strcmp(argv[1], "link") == 0 && strcmp(argv[2], "add") == 0 &&
		    strcmp(argv[i], "name") == 0)
			nic(argv[i + 1], MAC, "1", "up");
	return 0;
}

static void write_ssh(void)
{
	put(p_ssh,
	    "#!/bin/sh\n"
	    "echo \"$*\" >> %s/ssh.args\n"
	    "for a; do req=$a; done\n"
	    "set -- $req\n"
	    "if [ -e %s/fail-$1 ]; then\n"
	    "	[ -e %s/drop-$1 ] || cat > /dev/null\n"
	    "	cat %s/fail-$1 >&2\n"
	    "	exit 255\n"
	    "fi\n"
	    "case $1 in\n"
	    "begin) echo 2026-01-02-03:04:05 ;;\n"
	    "dmesg) cat > %s/recv.dmesg ;;\n"
	    "vmcore) cat > %s/recv.vmcore; echo \"ok $(wc -c < %s/recv.vmcore)\" ;;\n"
	    "file) cat > %s/recv.$3 ;;\n"
	    "*) echo \"kdump-file-receive: refused: $1\" >&2; exit 1 ;;\n"
	    "esac\n",
	    T, T, T, T, T, T, T, T);
	CHECK(chmod(p_ssh, 0755) == 0);
}

/* The host tree of setup() and a network: chain, NICs, ssh, recorders. */
static void net_setup(struct capture *cap, const char *conf, const char *chain)
{
	char stage[160];

	setup(cap, "");
	put(p_conf, conf, T);
	snprintf(p_chain, sizeof(p_chain), "%s/chain", T);
	snprintf(p_net, sizeof(p_net), "%s/class-net", T);
	snprintf(p_ssh, sizeof(p_ssh), "%s/ssh", T);
	snprintf(stage, sizeof(stage), "%s/stage", T);
	put(p_chain, "%s", chain);
	nic("lo", "00:00:00:00:00:00", "1", "unknown");
	nic("eth0", "52:54:00:00:00:01", "1", "up");
	/* The capture kernel's name, not the running system's. */
	nic("eth7", "52:54:00:12:34:56", "1", "up");
	write_ssh();
	cap->paths.chain = p_chain;
	cap->paths.sys_class_net = p_net;
	cap->paths.ssh = p_ssh;
	cap->paths.net_stage = strdup(stage);
	cap->net_ioctl = fake_ioctl;
	cap->net_ip = fake_ip;
	cap->mount = fake_mount;
	ioctls[0] = mount_src[0] = mount_fstype[0] = mount_opts[0] = '\0';
	ip_fail[0] = '\0';
	mount_errno = 0;
}

static void net_teardown(struct capture *cap)
{
	free((char *)cap->paths.net_stage);
	teardown(cap);
}

static char *tpath(const char *name)
{
	static char buf[4][PATH_MAX];
	static unsigned int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", T, name);
	return buf[i];
}

static const struct capture_phase host_net_phases[] = {
	{ "configuration", phase_config, PHASE_ANY },
	{ "deadline", phase_deadline, PHASE_ANY },
	{ "network", phase_network, PHASE_NET },
	{ "mount", phase_nfs_mount, PHASE_NFS },
	{ "ssh begin", phase_ssh_begin, PHASE_SSH },
	{ "dump directory", phase_dump_dir, PHASE_FILE },
	{ "pre hooks", phase_pre_hooks, PHASE_FILE | PHASE_SSH },
	{ "dmesg", phase_dmesg, PHASE_FILE | PHASE_SSH },
	{ "ssh dmesg", phase_ssh_dmesg, PHASE_SSH },
	{ "vmcore", phase_vmcore, PHASE_FILE },
	{ "ssh vmcore", phase_ssh_vmcore, PHASE_SSH },
	{ "record", phase_record, PHASE_FILE | PHASE_SSH | PHASE_ALWAYS },
	{ "post hooks", phase_post_hooks, PHASE_FILE | PHASE_SSH | PHASE_ALWAYS },
	{ "ssh record", phase_ssh_record, PHASE_SSH | PHASE_ALWAYS },
	{ "action", phase_action, PHASE_ANY | PHASE_ALWAYS },
	{ NULL, NULL, 0 },
};

#define CONF_NFS "target = " NFS_URL "\nnet_timeout = 2\n"

static void test_network(void)
{
	unsigned long long t;
	struct capture cap;
	pid_t pid;

	/* The NIC found by its MAC, configured, the one route added. */
	net_setup(&cap, CONF_NFS, CHAIN_NET);
	CHECK(phase_config(&cap) == 0);
	CHECK(phase_network(&cap) == 0);
	CHECK(strcmp(cap.net.ifname, "eth7") == 0);
	CHECK(strcmp(ioctls,
		     "flags lo up broadcast\n"
		     "addr eth7 10.0.0.5\n"
		     "netmask eth7 255.255.255.0\n"
		     "flags eth7 up broadcast\n"
		     "route 192.168.1.9/255.255.255.255 via 10.0.0.1 dev eth7 UGH\n") == 0);
	CHECK(log_has("found eth7 (MAC " MAC ") in "));
	CHECK(log_has("route to the collector 192.168.1.9 via 10.0.0.1"));
	CHECK(log_has("network up in "));
	CHECK(strcmp(cap.net.url, NFS_URL) == 0);
	net_teardown(&cap);

	/* On-link: no route at all; an odd prefix; the MAC in upper case. */
	net_setup(&cap, CONF_NFS,
		  "net 52:54:00:12:34:56 172.16.9.200/20 -\n"
		  "collector 172.16.1.1\nhostdir h-0123456789ab\n");
	nic("eth7", "52:54:00:12:34:56", "1", "unknown");
	nic("eth8", "52:54:00:AB:CD:EF", "1", "up");
	put(p_chain, "net 52:54:00:ab:cd:ef 172.16.9.200/20 -\n"
	    "collector 172.16.1.1\nhostdir h-0123456789ab\n");
	CHECK(phase_config(&cap) == 0);
	CHECK(phase_network(&cap) == 0);
	CHECK(strcmp(cap.net.ifname, "eth8") == 0);
	CHECK(strstr(ioctls, "netmask eth8 255.255.240.0\n") != NULL);
	CHECK(strstr(ioctls, "route") == NULL);
	CHECK(log_has("collector 172.16.1.1 is on-link"));
	net_teardown(&cap);

	/* The carrier is waited for. */
	net_setup(&cap, CONF_NFS, CHAIN_NET);
	nic("eth7", MAC, "0", "down");
	CHECK(phase_config(&cap) == 0);
	pid = fork();
	if (pid == 0) {
		char d[256];

		usleep(400 * 1000);
		snprintf(d, sizeof(d), "%s/eth7", p_net);
		test_put(d, "carrier", "1");
		test_put(d, "operstate", "up");
		_exit(0);
	}
	CHECK(pid > 0);
	CHECK(phase_network(&cap) == 0);
	CHECK(cap.net.t_link >= 300);
	CHECK(log_has("link up on eth7 in "));
	CHECK(waitpid(pid, NULL, 0) == pid);
	net_teardown(&cap);

	/* No link: fails within net_timeout, saying which NIC. */
	net_setup(&cap, CONF_NFS, CHAIN_NET);
	nic("eth7", MAC, NULL, "down");
	CHECK(phase_config(&cap) == 0);
	t = now_ms();
	CHECK(phase_network(&cap) == -ENETDOWN);
	CHECK(now_ms() - t < 4000);
	CHECK(log_has("error: no link on eth7 (MAC " MAC ") within net_timeout (2s)"));
	net_teardown(&cap);

	/* No NIC with the MAC: fails within net_timeout. */
	net_setup(&cap, CONF_NFS,
		  "net 52:54:00:99:99:99 10.0.0.5/24 10.0.0.1\n"
		  "collector 192.168.1.9\nhostdir host-0123456789ab\n");
	CHECK(phase_config(&cap) == 0);
	t = now_ms();
	CHECK(phase_network(&cap) == -ENODEV);
	CHECK(now_ms() - t >= 1900 && now_ms() - t < 4000);
	CHECK(log_has("error: no network interface with MAC 52:54:00:99:99:99 within net_timeout (2s)"));
	CHECK(ioctls[0] == '\0');
	net_teardown(&cap);

	/* A chain without the network's lines. */
	net_setup(&cap, CONF_NFS, "module virtio_net\n");
	CHECK(phase_config(&cap) == 0);
	CHECK(phase_network(&cap) == -EINVAL);
	CHECK(log_has("has no usable nic, bond, vlan, net, collector and hostdir lines"));
	net_teardown(&cap);
}

static void test_nfs(void)
{
	struct capture cap;
	char buf[256], *vmcore;

	net_setup(&cap, CONF_NFS "nfs_version = 3\n", CHAIN_NET);
	CHECK(phase_config(&cap) == 0);
	CHECK(phase_network(&cap) == 0);
	CHECK(capture_nfs_options(&cap, 2, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "vers=3,nolock,proto=tcp,mountproto=tcp,addr=192.168.1.9,mountaddr=192.168.1.9,hard,timeo=100,retrans=3") == 0);
	CHECK(capture_nfs_options(&cap, 2, buf, 20) == -ENAMETOOLONG);
	net_teardown(&cap);

	/* The export mounted, the dump in this machine's host dir. */
	net_setup(&cap, CONF_NFS "capture_timeout = 600\n", CHAIN_NET);
	CHECK(capture_run(&cap, host_net_phases) == 0);
	CHECK(strcmp(mount_src, "192.168.1.9:/export/crash") == 0);
	CHECK(strcmp(mount_fstype, "nfs4") == 0);
	CHECK(strcmp(mount_opts, "vers=4.2,addr=192.168.1.9,clientaddr=10.0.0.5,hard,timeo=100,retrans=3") == 0);
	CHECK(cap.mounted);
	snprintf(buf, sizeof(buf), "%s/host-0123456789ab/", p_mnt);
	CHECK(strncmp(cap.dir, buf, strlen(buf)) == 0);
	CHECK(exists(cap.dir, "vmcore"));
	CHECK(log_has("saving to /host-0123456789ab/"));
	CHECK(file_has(cap.meta, "\"target\": \"" NFS_URL "\""));
	CHECK(file_has(cap.meta, "\"complete\": true"));
	CHECK(file_lacks(cap.meta, "fallback_reason"));
	vmcore = slurp(tpath("args"));
	/* -F as a word: the temporary directory's name may hold "-F". */
	CHECK(strncmp(vmcore, "-F ", 3) != 0 && strstr(vmcore, " -F ") == NULL);
	free(vmcore);
	net_teardown(&cap);

	/* The mount fails, no fallback: failure_action. */
	net_setup(&cap, CONF_NFS, CHAIN_NET);
	mount_errno = EHOSTUNREACH;
	CHECK(capture_run(&cap, host_net_phases) == -EHOSTUNREACH);
	CHECK(log_has("error: cannot mount 192.168.1.9:/export/crash (nfs4) on "));
	CHECK(cap.diag.error == -EHOSTUNREACH);
	CHECK(strstr(cap.diag.msg, "No route to host") != NULL);
	CHECK(cap.action_taken == ACTION_REBOOT);
	CHECK(!cap.dir[0]);
	net_teardown(&cap);
}

#define CONF_SSH "target = " SSH_URL "\nssh_key = %s/key/id_ed25519\n" \
	"keep = 3\nnet_timeout = 7\ncapture_timeout = 600\n"
#define SSH_OPTS "-F /dev/null -i %s/key/id_ed25519 -o IdentitiesOnly=yes " \
	"-o BatchMode=yes -o StrictHostKeyChecking=yes " \
	"-o UserKnownHostsFile=%s/key/known_hosts " \
	"-o GlobalKnownHostsFile=/dev/null -o HostKeyAlias=collector.example " \
	"-o ConnectTimeout=7 -o ServerAliveInterval=10 " \
	"-o ServerAliveCountMax=6 -p 22 kdump@192.168.1.9 "

static void test_ssh(void)
{
	char want[1024], stage[256];
	struct capture cap;
	char *args;

	net_setup(&cap, "", CHAIN_NET);
	put(p_conf, CONF_SSH "post_hook = %s/hook\n", T, T);
	write_hook(0);
	CHECK(capture_run(&cap, host_net_phases) == 0);
	/* Exactly the design's options, the collector by address. */
	args = slurp(tpath("ssh.args"));
	snprintf(want, sizeof(want), SSH_OPTS "begin 3 1700000000\n", T, T);
	CHECK(strstr(args, want) == args);
	CHECK(strstr(args, "StrictHostKeyChecking=no") == NULL);
	/* dmesg, vmcore, then hooks.log and metadata.json last. */
	CHECK(strstr(args, "dmesg 2026-01-02-03:04:05\n") != NULL);
	CHECK(strstr(args, "dmesg 2026-01-02-03:04:05\n") <
	      strstr(args, "vmcore 2026-01-02-03:04:05\n"));
	CHECK(strstr(args, "vmcore 2026-01-02-03:04:05\n") <
	      strstr(args, "file 2026-01-02-03:04:05 hooks.log\n"));
	CHECK(strstr(args, "hooks.log\n") <
	      strstr(args, "file 2026-01-02-03:04:05 metadata.json\n"));
	free(args);
	/* makedumpfile's flattened output, with the local target's options. */
	CHECK(file_has(tpath("args"), "-F -l -d 31 "));
	CHECK(file_has(tpath("recv.dmesg"), "Kernel panic - not syncing"));
	CHECK(file_has(tpath("recv.vmcore"), "KDUMP flattened"));
	CHECK(file_has(tpath("recv.hooks.log"), "== post hook"));
	CHECK(file_has(tpath("recv.metadata.json"), "\"complete\": true"));
	CHECK(file_has(tpath("recv.metadata.json"), "\"vmcore_bytes\": 15"));
	CHECK(file_has(tpath("recv.metadata.json"), "\"target\": \"" SSH_URL "\""));
	CHECK(file_has(tpath("recv.metadata.json"), "\"phase\": \"post\""));
	/* The staging directory holds the small files, never the vmcore. */
	snprintf(stage, sizeof(stage), "%s/stage/2026-01-02-03:04:05", T);
	CHECK(strcmp(cap.dir, stage) == 0);
	CHECK(exists(stage, "dmesg.txt") && exists(stage, "metadata.json"));
	CHECK(!exists(stage, "vmcore") && !exists(stage, "vmcore-incomplete"));
	CHECK(log_has("capture started: target " SSH_URL ", dump level 31, lzo\n"));
	CHECK(log_has("saving to collector.example:/srv/crash/host-0123456789ab/2026-01-02-03:04:05"));
	CHECK(log_has("vmcore sent (15 bytes in "));
	CHECK(cap.action_taken == ACTION_REBOOT && cap.result == 0);
	net_teardown(&cap);

	/* The collector fails the vmcore: said, the record still sent. */
	net_setup(&cap, "", CHAIN_NET);
	put(p_conf, CONF_SSH "failure_action = halt\n", T);
	put(tpath("fail-vmcore"), "kdump-file-receive: error: no space left\n");
	CHECK(capture_run(&cap, host_net_phases) == -EIO);
	CHECK(strstr(cap.reason, "ssh vmcore 2026-01-02-03:04:05 to kdump@192.168.1.9 (collector.example) failed: exit 255: kdump-file-receive: error: no space left") != NULL);
	CHECK(log_has("ssh: kdump-file-receive: error: no space left"));
	CHECK(file_has(tpath("recv.metadata.json"), "\"complete\": false"));
	CHECK(file_has(tpath("recv.metadata.json"), "no space left"));
	CHECK(cap.action_taken == ACTION_HALT);
	net_teardown(&cap);

	/* makedumpfile fails: its failure is the reason, not ssh's. */
	net_setup(&cap, "", CHAIN_NET);
	put(p_conf, CONF_SSH, T);
	write_makedumpfile(0, "", 4);
	CHECK(capture_run(&cap, host_net_phases) == -EIO);
	CHECK(strcmp(cap.reason, "makedumpfile failed with status 4") == 0);
	CHECK(file_has(tpath("recv.metadata.json"), "makedumpfile failed with status 4"));
	net_teardown(&cap);

	/* ssh goes first: makedumpfile's SIGPIPE is not the cause. */
	net_setup(&cap, "", CHAIN_NET);
	put(p_conf, CONF_SSH, T);
	write_makedumpfile(0, "head -c 4000000 /dev/zero", 0);
	put(tpath("fail-vmcore"), "Connection reset by peer\n");
	put(tpath("drop-vmcore"), "");
	CHECK(capture_run(&cap, host_net_phases) == -EIO);
	CHECK(strstr(cap.reason, "ssh vmcore 2026-01-02-03:04:05 to kdump@192.168.1.9 (collector.example) failed: exit 255: Connection reset by peer") != NULL);
	net_teardown(&cap);

	/* begin fails without a fallback: failure_action, the reason kept. */
	net_setup(&cap, "", CHAIN_NET);
	put(p_conf, CONF_SSH, T);
	put(tpath("fail-begin"), "ssh: connect to host 192.168.1.9 port 22: Connection refused\n");
	CHECK(capture_run(&cap, host_net_phases) == -EIO);
	CHECK(log_has("error: ssh begin 3 1700000000 to kdump@192.168.1.9 (collector.example) failed: exit 255: ssh: connect to host 192.168.1.9 port 22: Connection refused"));
	CHECK(cap.diag.error == -EIO);
	CHECK(strstr(cap.diag.msg, "Connection refused") != NULL);
	CHECK(!cap.dir[0] && !exists(T, "recv.dmesg"));
	CHECK(cap.action_taken == ACTION_REBOOT);
	net_teardown(&cap);
}

#define FALLBACK_LINE "fallback UUID=0123-abcd /var/crash\n"

static void test_fallback(void)
{
	struct capture cap;
	char buf[256];

	/* ssh begin fails: the local fallback takes the whole dump. */
	net_setup(&cap, "", CHAIN_NET FALLBACK_LINE);
	put(p_conf, CONF_SSH "fallback = /var/crash\nfinal_action = poweroff\n", T);
	put(tpath("fail-begin"), "ssh: connect to host 192.168.1.9 port 22: Connection refused\n");
	CHECK(capture_run(&cap, host_net_phases) == 0);
	CHECK(log_has("warning: ssh begin 3 1700000000 to kdump@192.168.1.9"));
	CHECK(log_has("falling back to /var/crash (UUID=0123-abcd, /var/crash) instead of " SSH_URL));
	CHECK(strcmp(cap.conf.target, "UUID=0123-abcd") == 0);
	CHECK(capture_kind(&cap) == PHASE_LOCAL);
	snprintf(buf, sizeof(buf), "%s/var/crash/", p_mnt);
	CHECK(strncmp(cap.dir, buf, strlen(buf)) == 0);
	CHECK(exists(cap.dir, "vmcore") && exists(cap.dir, "dmesg.txt"));
	CHECK(file_has(cap.meta, "\"complete\": true"));
	CHECK(file_has(cap.meta, "\"target\": \"" SSH_URL "\""));
	CHECK(file_has(cap.meta, "\"fallback_reason\": \"ssh begin 3 1700000000 to kdump@192.168.1.9 (collector.example) failed: exit 255: ssh: connect to host 192.168.1.9 port 22: Connection refused\""));
	/* Nothing more went to the collector. */
	CHECK(file_has(tpath("ssh.args"), "begin"));
	CHECK(file_lacks(tpath("ssh.args"), "dmesg"));
	CHECK(cap.action_taken == ACTION_POWEROFF);
	net_teardown(&cap);

	/* No NIC: the same for an NFS target, before anything is mounted. */
	net_setup(&cap, "target = " NFS_URL "\nnet_timeout = 1\nfallback = /var/crash\n",
		  "net 52:54:00:99:99:99 10.0.0.5/24 -\ncollector 192.168.1.9\n"
		  "hostdir host-0123456789ab\n" FALLBACK_LINE);
	CHECK(capture_run(&cap, host_net_phases) == 0);
	CHECK(!mount_src[0]);
	CHECK(exists(cap.dir, "vmcore"));
	CHECK(file_has(cap.meta, "\"target\": \"" NFS_URL "\""));
	CHECK(file_has(cap.meta, "\"fallback_reason\": \"no network interface with MAC 52:54:00:99:99:99 within net_timeout (1s)\""));
	net_teardown(&cap);

	/* The NFS mount fails. */
	net_setup(&cap, CONF_NFS "fallback = /var/crash\n",
		  CHAIN_NET FALLBACK_LINE);
	mount_errno = EACCES;
	CHECK(capture_run(&cap, host_net_phases) == 0);
	CHECK(exists(cap.dir, "vmcore"));
	CHECK(file_has(cap.meta, "\"fallback_reason\": \"cannot mount 192.168.1.9:/export/crash (nfs4) on "));
	CHECK(!cap.mounted);
	net_teardown(&cap);

	/* fallback set but the chain has none: a failure that says so. */
	net_setup(&cap, "", CHAIN_NET);
	put(p_conf, CONF_SSH "fallback = /var/crash\n", T);
	put(tpath("fail-begin"), "Connection refused\n");
	CHECK(capture_run(&cap, host_net_phases) == -EIO);
	CHECK(log_has("no fallback line in "));
	net_teardown(&cap);
}

static void test_ssh_argv(void)
{
	struct capture_ssh s;
	struct capture cap;
	char line[2048] = "";
	size_t n = 0;

	net_setup(&cap, "target = ssh://u@10.1.2.3:2222/d\nnet_timeout = 90\n",
		  CHAIN_NET);
	CHECK(phase_config(&cap) == 0);
	snprintf(cap.net.collector, sizeof(cap.net.collector), "10.1.2.3");
	CHECK(capture_ssh_argv(&cap, "list", &s) == 0);
	for (char **a = s.argv + 1; *a; a++)
		n += snprintf(line + n, sizeof(line) - n, "%s%s", n ? " " : "", *a);
	CHECK(strcmp(line, "-F /dev/null -i /etc/kdump-file/ssh/id_ed25519 -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=yes -o UserKnownHostsFile=/etc/kdump-file/ssh/known_hosts -o GlobalKnownHostsFile=/dev/null -o HostKeyAlias=10.1.2.3 -o ConnectTimeout=90 -o ServerAliveInterval=10 -o ServerAliveCountMax=6 -p 2222 u@10.1.2.3 list") == 0);
	net_teardown(&cap);
}

/*
 * A directory above the dump directory that is a link, on the target, to
 * a directory others may write: the capture checks where it leads, as
 * load does, and writes nothing there.
 */
static void test_unsafe_dir(void)
{
	char open_dir[PATH_MAX + 8], link[PATH_MAX + 8], p[PATH_MAX + 16];
	struct capture cap;

	setup(&cap, "path = /crash/dumps\ntarget = LABEL=dumps\n"
		    "capture_timeout = 600\nfailure_action = halt\n");
	snprintf(open_dir, sizeof(open_dir), "%s/open", T);
	CHECK(mkdir(open_dir, 0700) == 0 && chmod(open_dir, 0777) == 0);
	snprintf(link, sizeof(link), "%s/crash", p_mnt);
	CHECK(symlink(open_dir, link) == 0);
	CHECK(capture_run(&cap, host_phases) == -EPERM);
	CHECK(log_has("error: refusing to save to"));
	CHECK(log_has("world-writable (mode 0777)"));
	snprintf(p, sizeof(p), "%s/dumps", open_dir);
	CHECK(access(p, F_OK) < 0 && errno == ENOENT);
	teardown(&cap);
}

/* What the capture's module plan asked of the kernel, recorded. */
static char plan_inserted[256];

static int plan_insert(void *data, const char *name, int fd,
		       const char *options)
{
	(void)data;
	(void)options;
	CHECK(fd >= 0);
	if (plan_inserted[0])
		strcat(plan_inserted, " ");
	strcat(plan_inserted, name);
	return 0;
}

static bool plan_present(void *data, const char *name)
{
	(void)data;
	(void)name;
	return false;
}

static const struct modplan_ops plan_ops = {
	.insert = plan_insert,
	.present = plan_present,
};

static unsigned int log_count(const char *what)
{
	char *s = slurp(p_log), *at = s;
	unsigned int n = 0;

	while ((at = strstr(at, what))) {
		n++;
		at += strlen(what);
	}
	free(s);
	return n;
}

/*
 * The module plan: none, or one for another kernel, is said once and
 * nothing is loaded; one for this kernel is what extra_modules loads from.
 */
static void test_module_plan(void)
{
	char plan[600], dir[600], mods[600];
	struct capture cap;
	struct utsname u;

	CHECK(uname(&u) == 0);
	setup(&cap, CONF_BASE "extra_modules = crc16 nosuch\n");
	CHECK(phase_config(&cap) == 0);
	snprintf(plan, sizeof(plan), "%s/modules.json", T);
	cap.paths.modplan = plan;
	cap.kmod_ops = &plan_ops;
	snprintf(dir, sizeof(dir), "%s/chain", T);
	put(dir, "pstore efi_pstore\n");
	cap.paths.chain = dir;
	cap.is_init = true;
	CHECK(phase_extra_modules(&cap) == 0);
	/* The helpers go on without a plan: nothing to insert them with. */
	CHECK(phase_helpers(&cap) == 0);
	CHECK(capture_kmods(&cap) == NULL);
	CHECK(log_count("warning: cannot read the module plan") == 1);
	CHECK(log_lacks("pstore backend"));
	CHECK(log_has(": No such file or directory: no module will be loaded"));
	CHECK(cap.n_extra == 0);
	cap.is_init = false;
	teardown(&cap);

	setup(&cap, CONF_BASE "extra_modules = crc16 nosuch\n");
	CHECK(phase_config(&cap) == 0);
	snprintf(plan, sizeof(plan), "%s/modules.json", T);
	put(plan, "{\"release\": \"0.0-other\", \"modules\": []}");
	cap.paths.modplan = plan;
	cap.kmod_ops = &plan_ops;
	cap.is_init = true;
	CHECK(phase_extra_modules(&cap) == 0);
	CHECK(capture_kmods(&cap) == NULL);
	CHECK(log_count("is for kernel 0.0-other, not ") == 1);
	cap.is_init = false;
	teardown(&cap);

	setup(&cap, CONF_BASE "extra_modules = crc16 nosuch\n");
	CHECK(phase_config(&cap) == 0);
	snprintf(plan, sizeof(plan), "%s/modules.json", T);
	put(plan, "{\"release\": \"%s\", \"modules\": [{\"name\": \"crc16\", \"path\": \"crc16.ko\"}]}",
	    u.release);
	snprintf(mods, sizeof(mods), "%s/lib", T);
	CHECK(mkdir(mods, 0755) == 0);
	snprintf(mods, sizeof(mods), "%s/lib/modules", T);
	CHECK(mkdir(mods, 0755) == 0);
	CHECK(path_format(dir, sizeof(dir), "%s/%s", mods, u.release) == 0);
	CHECK(mkdir(dir, 0755) == 0);
	CHECK(path_format(dir, sizeof(dir), "%s/%s/crc16.ko", mods,
			  u.release) == 0);
	put(dir, "%s", "");
	plan_inserted[0] = '\0';
	cap.paths.modplan = plan;
	cap.paths.modules_dir = mods;
	cap.kmod_ops = &plan_ops;
	cap.is_init = true;
	CHECK(phase_extra_modules(&cap) == 0);
	CHECK(strcmp(plan_inserted, "crc16") == 0);
	CHECK(log_has("extra module crc16 loaded"));
	CHECK(log_has("warning: cannot load extra module nosuch: No such file or directory"));
	CHECK(cap.n_extra == 2 && cap.extra[0].error == 0 &&
	      cap.extra[1].error == ENOENT);
	CHECK(log_lacks("module plan"));
	cap.is_init = false;
	teardown(&cap);
}

/*
 * The links the chain names: a bond of two NICs found by MAC and device
 * (one missing: the bond goes on), a VLAN on it, IPv6, the MTU; an
 * ambiguous MAC refused.
 */
static void test_network_links(void)
{
	struct capture cap;

	/* Both members: enslaved, the bond up with the MAC, then the VLAN. */
	net_setup(&cap, CONF_NFS,
		  "module bonding\nnic " MAC " virtio_net pci0/eth7\n"
		  "nic 52:54:00:12:34:57 virtio_net pci0/eth8\n"
		  "bond bond0 active-backup 100 " MAC "\nvlan vlan43 43\nmtu 9000\n"
		  "net " MAC " 10.0.0.5/24 10.0.0.1\n"
		  "collector 192.168.1.9\nhostdir host-0123456789ab\n");
	nic("eth8", "52:54:00:12:34:57", "0", "down");
	CHECK(phase_config(&cap) == 0);
	CHECK(phase_network(&cap) == 0);
	CHECK(strcmp(cap.net.ifname, "vlan43") == 0);
	CHECK(strcmp(ioctls,
		     "ip link set dev lo up\n"
		     "ip link add name bond0 type bond mode active-backup miimon 100\n"
		     "ip link set dev eth7 down\n"
		     "ip link set dev eth7 master bond0\n"
		     "ip link set dev eth8 down\n"
		     "ip link set dev eth8 master bond0\n"
		     "ip link set dev bond0 address " MAC "\n"
		     "ip link set dev bond0 mtu 9000\n"
		     "ip link set dev bond0 up\n"
		     "ip link add link bond0 name vlan43 type vlan id 43\n"
		     "ip link set dev vlan43 mtu 9000\n"
		     "ip link set dev vlan43 up\n"
		     "ip -4 addr add 10.0.0.5/24 dev vlan43\n"
		     "ip -4 route replace 192.168.1.9/32 via 10.0.0.1 dev vlan43\n") == 0);
	CHECK(log_has("bond bond0 (active-backup, miimon 100 ms) of 2 of its 2 members"));
	CHECK(log_has("VLAN vlan43 (id 43) on bond0"));
	CHECK(log_has("link up on vlan43 in "));
	net_teardown(&cap);

	/* One member missing: the bond goes on with the other. */
	net_setup(&cap, CONF_NFS,
		  "nic 52:54:00:12:34:99 virtio_net pci0/eth9\n"
		  "nic " MAC " virtio_net pci0/eth7\n"
		  "bond bond0 802.3ad 100 " MAC "\n"
		  "net " MAC " 10.0.0.5/24 -\n"
		  "collector 10.0.0.9\nhostdir host-0123456789ab\n");
	/* The driver's own bond0, there before: deleted first. */
	nic("bond0", "00:00:00:00:00:00", "0", "down");
	CHECK(phase_config(&cap) == 0);
	CHECK(phase_network(&cap) == 0);
	CHECK(log_has("bond0 is there already (the driver's own): deleting it"));
	CHECK(strstr(ioctls, "ip link delete dev bond0\nip link add name bond0 type bond mode 802.3ad miimon 100\n") != NULL);
	CHECK(log_has("bond bond0: member with MAC 52:54:00:12:34:99 not found: going on without it"));
	CHECK(log_has("of 1 of its 2 members"));
	CHECK(strstr(ioctls, "master bond0") && !strstr(ioctls, "route"));
	net_teardown(&cap);

	/* IPv6 on a plain NIC: ip, no duplicate address detection. */
	net_setup(&cap, CONF_NFS,
		  "nic " MAC " virtio_net pci0/eth7\n"
		  "net " MAC " fd00:1::2/64 fe80::1\n"
		  "collector fd00:99::1\nhostdir host-0123456789ab\n");
	CHECK(phase_config(&cap) == 0);
	CHECK(phase_network(&cap) == 0);
	CHECK(strcmp(ioctls,
		     "ip link set dev lo up\n"
		     "ip link set dev eth7 up\n"
		     "ip -6 addr add fd00:1::2/64 dev eth7 nodad\n"
		     "ip -6 route replace fd00:99::1/128 via fe80::1 dev eth7\n") == 0);
	CHECK(phase_nfs_mount(&cap) == 0);
	CHECK(strcmp(mount_src, "[fd00:99::1]:/export/crash") == 0);
	CHECK(strstr(mount_opts, "addr=fd00:99::1,clientaddr=fd00:1::2") != NULL);
	net_teardown(&cap);

	/* ip fails: said, with the command. */
	net_setup(&cap, CONF_NFS,
		  "nic " MAC " virtio_net pci0/eth7\nvlan vlan43 43\n"
		  "net " MAC " 10.0.0.5/24 -\n"
		  "collector 10.0.0.9\nhostdir host-0123456789ab\n");
	snprintf(ip_fail, sizeof(ip_fail), "type vlan");
	CHECK(phase_config(&cap) == 0);
	CHECK(phase_network(&cap) == -EIO);
	CHECK(log_has("'ip link add link eth7 name vlan43 type vlan id 43' failed: exit status 2"));
	net_teardown(&cap);

	/* Two NICs with the MAC and no device recorded: refused at once. */
	net_setup(&cap, CONF_NFS,
		  "nic " MAC " virtio_net -\n"
		  "net " MAC " 10.0.0.5/24 -\n"
		  "collector 10.0.0.9\nhostdir host-0123456789ab\n");
	nic("eth8", MAC, "1", "up");
	CHECK(phase_config(&cap) == 0);
	CHECK(phase_network(&cap) == -ENOTUNIQ);
	CHECK(log_has("2 interfaces have MAC " MAC " (eth"));
	CHECK(ioctls[0] == '\0');
	net_teardown(&cap);

	/* The same two, the device recorded: the one on it is taken. */
	net_setup(&cap, CONF_NFS,
		  "nic " MAC " virtio_net pci0/eth8\n"
		  "net " MAC " 10.0.0.5/24 -\n"
		  "collector 10.0.0.9\nhostdir host-0123456789ab\n");
	nic("eth8", MAC, "1", "up");
	CHECK(phase_config(&cap) == 0);
	CHECK(phase_network(&cap) == 0);
	CHECK(strcmp(cap.net.ifname, "eth8") == 0);
	net_teardown(&cap);

	/* The device moved: found by its MAC alone, said. */
	net_setup(&cap, CONF_NFS,
		  "nic " MAC " virtio_net pci1/eth7\n"
		  "net " MAC " 10.0.0.5/24 -\n"
		  "collector 10.0.0.9\nhostdir host-0123456789ab\n");
	CHECK(phase_config(&cap) == 0);
	CHECK(phase_network(&cap) == 0);
	CHECK(log_has("eth7 has MAC " MAC " but not device pci1/eth7: taken by its MAC alone"));
	net_teardown(&cap);

	/* Lines that are not valid: refused before anything. */
	net_setup(&cap, CONF_NFS,
		  "nic " MAC " virtio_net -\nbond bond0 active-backup 0 " MAC "\n"
		  "net " MAC " 10.0.0.5/24 -\n"
		  "collector 10.0.0.9\nhostdir host-0123456789ab\n");
	CHECK(phase_config(&cap) == 0);
	CHECK(phase_network(&cap) < 0);
	CHECK(log_has("has no usable nic, bond, vlan, net, collector and hostdir lines"));
	net_teardown(&cap);
}

int main(void)
{
	/* The deadline process ends before the capture's last steps. */
	signal(SIGPIPE, SIG_IGN);
	test_saved();
	test_makedumpfile_fails();
	test_makedumpfile_killed();
	test_target_full();
	test_retention();
	test_dmesg_only();
	test_hooks();
	test_hook_path();
	test_deadline();
	test_raw();
	test_raw_identity();
	test_raw_identity_ns();
	test_failure_record();
	test_failure_from_fail();
	test_post_hook_then_failure();
	test_config();
	test_actions();
	test_phase_table();
	test_network();
	test_network_links();
	test_nfs();
	test_ssh();
	test_ssh_argv();
	test_fallback();
	test_unsafe_dir();
	test_module_plan();
	return tests_done();
}
