// SPDX-License-Identifier: GPL-2.0
/*
 * kdump-file-capture: the capture initramfs' /init (installed there by the
 * dracut module); saves the crashed kernel's dmesg and memory:
 *
 *   wait for the target device, mount it, make <path>/<time>/ (0700),
 *   dmesg.txt first, then vmcore-incomplete -> sync -> vmcore,
 *   metadata.json last, unmount, then the final action.
 *
 * Any failure takes the failure action.  Run by hand outside PID 1 (for
 * tests), the shell action exits with status 99 instead.  Only main() and
 * the phase reporter print.
 */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <linux/watchdog.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "conf.h"
#include "dump.h"
#include "hook.h"
#include "json.h"
#include "modload.h"
#include "rawdump.h"
#include "record.h"
#include "steps.h"
#include "target.h"
#include "util.h"

#define CAPTURE_CONF "/etc/kdump-file/capture.conf"
#define CAPTURE_CHAIN "/etc/kdump-file/chain"
#define VMCORE "/proc/vmcore"
#define MNT "/kdump-target"
#define EXIT_SHELL 99

static unsigned long long t_start;
/* The step running now, and the last error said: for the failure record. */
static char cur_step[128] = "starting";
static char last_error[512];

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void say(const char *fmt, ...)
{
	unsigned long long t = now_ms() - t_start;
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printf("kdump-file: [%3llu.%01llus] %s\n", t / 1000, (t % 1000) / 100,
	       msg);
	fflush(stdout);
	if (strncmp(msg, "error: ", 7) == 0)
		snprintf(last_error, sizeof(last_error), "%s", msg + 7);
}

struct vmcoreinfo {
	char release[65];
	long long crash_time; /* -1 when absent */
};

/* Pull OSRELEASE and CRASHTIME out of the VMCOREINFO note of /proc/vmcore. */
static int read_vmcoreinfo(struct vmcoreinfo *ret)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	char *notes = NULL;
	int fd, r = -ENOENT;

	ret->release[0] = '\0';
	ret->crash_time = -1;
	fd = open(VMCORE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(ph) || eh.e_phnum > 4096) {
		r = -EINVAL;
		goto out;
	}
	for (unsigned int i = 0; i < eh.e_phnum; i++) {
		size_t off = 0;

		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + i * sizeof(ph)) !=
		    sizeof(ph)) {
			r = -EIO;
			goto out;
		}
		if (ph.p_type != PT_NOTE || ph.p_filesz > (1 << 20))
			continue;
		notes = malloc(ph.p_filesz + 1);
		if (!notes) {
			r = -ENOMEM;
			goto out;
		}
		if (pread(fd, notes, ph.p_filesz, ph.p_offset) !=
		    (ssize_t)ph.p_filesz) {
			r = -EIO;
			goto out;
		}
		notes[ph.p_filesz] = '\0';
		while (off + sizeof(Elf64_Nhdr) <= ph.p_filesz) {
			Elf64_Nhdr nh;
			size_t name_off, desc_off, next;
			char *desc, *s;

			memcpy(&nh, notes + off, sizeof(nh));
			name_off = off + sizeof(nh);
			desc_off = name_off + ((nh.n_namesz + 3) & ~3UL);
			next = desc_off + ((nh.n_descsz + 3) & ~3UL);
			if (nh.n_namesz > ph.p_filesz || nh.n_descsz > ph.p_filesz ||
			    next > ph.p_filesz)
				break;
			if (nh.n_namesz == sizeof("VMCOREINFO") &&
			    memcmp(notes + name_off, "VMCOREINFO", nh.n_namesz) == 0) {
				desc = notes + desc_off;
				desc[nh.n_descsz ? nh.n_descsz - 1 : 0] = '\0';
				s = strstr(desc, "OSRELEASE=");
				if (s)
					sscanf(s, "OSRELEASE=%64[^\n]", ret->release);
				s = strstr(desc, "CRASHTIME=");
				if (s)
					ret->crash_time = strtoll(s + 10, NULL, 10);
				r = 0;
				goto out;
			}
			off = next;
		}
		free(notes);
		notes = NULL;
	}
out:
	free(notes);
	close(fd);
	return r;
}

/* The "Kernel panic - not syncing: ..." text from the saved dmesg. */
static void find_panic(const char *dmesg, char *buf, size_t size)
{
	char line[1024];
	FILE *f;

	buf[0] = '\0';
	f = fopen(dmesg, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *s = strstr(line, "Kernel panic - not syncing: ");

		if (s) {
			s += strlen("Kernel panic - not syncing: ");
			s[strcspn(s, "\n")] = '\0';
			snprintf(buf, size, "%s", s);
		}
	}
	fclose(f);
}

static int fsync_path(const char *path)
{
	int fd, r = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0)
		r = -errno;
	close(fd);
	return r;
}

static unsigned long long free_bytes(const char *path)
{
	struct statvfs sv;

	if (statvfs(path, &sv) < 0)
		return 0;
	return (unsigned long long)sv.f_bavail * sv.f_frsize;
}

static long long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/*
 * Keep at most keep - 1 old dumps so that the new one makes keep; an
 * incomplete dump goes before a complete one and the newest complete one
 * stays (dump_retention()).  dump_list() gives the dumps of ours only: a
 * link or a stranger's directory named like one is not.
 */
static void apply_retention(const char *base, unsigned int keep)
{
	bool *complete = NULL, *rm = NULL;
	char **names = NULL;
	size_t n = 0;
	int bfd;

	if (keep == 0)
		return;
	bfd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (bfd < 0)
		return;
	if (dump_list(base, &names, &n) < 0 ||
	    !(complete = calloc(n + 1, sizeof(*complete))) ||
	    !(rm = calloc(n + 1, sizeof(*rm)))) {
		say("warning: cannot list the old dumps in %s: keep = %u not applied",
		    base + strlen(MNT), keep);
		goto out;
	}
	/* A dmesg-only dump (dump_level = dmesg) that finished is complete. */
	for (size_t i = 0; i < n; i++) {
		char p[PATH_MAX];
		struct dump_info d;

		snprintf(p, sizeof(p), "%s/%s", base, names[i]);
		complete[i] = dump_inspect(p, &d) == 0 && dump_complete(&d);
	}
	(void)dump_retention(complete, n, keep, rm);
	for (size_t i = 0; i < n; i++) {
		int r;

		if (!rm[i])
			continue;
		r = dump_remove(bfd, names[i]);
		if (r == 0)
			say("removed old dump %s (keep = %u)%s", names[i], keep,
			    complete[i] ? "" : ", an incomplete one");
		else
			say("warning: cannot remove old dump %s: %s", names[i],
			    strerror(-r));
	}
	(void)fsync(bfd);
out:
	dump_list_free(names, n);
	free(complete);
	free(rm);
	close(bfd);
}

static bool is_init;

/* The write end of the pipe to the deadline process (deadline_start()). */
static int step_fd = -1;

static void step(const char *what)
{
	if (what[0] != '@')
		snprintf(cur_step, sizeof(cur_step), "%s", what);
	if (step_fd >= 0)
		(void)!write(step_fd, what, strlen(what) + 1);
}


/*
 * As the capture initramfs' /init: the few things an init must do before
 * the capture can run.  No udev and no shell: they cost the capture kernel
 * seconds and megabytes it does not have.
 */
static void init_setup(void)
{
	int fd;

	(void)mkdir("/proc", 0555);
	(void)mkdir("/sys", 0555);
	(void)mkdir("/dev", 0755);
	(void)mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	(void)mount("sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	(void)mount("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755");
	/* lvm keeps its locks below /run/lock. */
	(void)mkdir_p("/run/lock", 0755);
	fd = open("/dev/console", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0) {
		(void)dup2(fd, STDIN_FILENO);
		(void)dup2(fd, STDOUT_FILENO);
		(void)dup2(fd, STDERR_FILENO);
		close(fd);
	}
	setenv("PATH", "/usr/sbin:/usr/bin:/sbin:/bin", 1);
}

/*
 * Drivers, as PID 1 only (run by hand, the system's own udev has done it):
 * first the modules the dump target needs, in the order kdump-file(8)
 * resolved them at load time from the running system; then, round after
 * round, the drivers of every device still without one, because a bus
 * driver loaded in one round creates the devices whose drivers the next
 * round finds; and the LVM volumes the target is on.
 */
static struct modload *kmods;
static bool chain_done;
static unsigned long long next_lvm, rounds_from;

static void activate_lvs(void)
{
	char line[512];
	FILE *f;

	f = fopen(CAPTURE_CHAIN, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char lv[300];

		if (sscanf(line, "lvm %299s", lv) != 1)
			continue;
		{
			/* No udev: lvm makes its own device nodes. */
			char *const argv[] = {
				"lvm", "lvchange", "--activate", "y", "--sysinit",
				"--config",
				"activation { udev_sync = 0 udev_rules = 0 monitoring = 0 } devices { obtain_device_list_from_udev = 0 }",
				lv, NULL,
			};
			int r = run_program(argv, -1);

			if (r == 0)
				say("activated LVM volume %s", lv);
		}
	}
	fclose(f);
}

/* The module loader, made on first use; NULL when it cannot be. */
static struct modload *kmods_get(void)
{
	struct utsname u;
	char moddir[300];
	int n;

	if (kmods || !is_init)
		return kmods;
	if (uname(&u) < 0)
		return NULL;
	snprintf(moddir, sizeof(moddir), "/lib/modules/%s", u.release);
	n = modload_new(moddir, &kmods);
	if (n < 0) {
		say("warning: cannot read kernel modules of %s: %s", moddir,
		    strerror(-n));
		kmods = NULL;
	}
	return kmods;
}

static void drivers_step(void)
{
	char line[256];
	int n;
	FILE *f;

	if (!kmods_get())
		return;
	if (!chain_done) {
		/* What the helpers (helpers_start()) loaded is not the target's. */
		size_t before = strlen(modload_loaded(kmods));

		chain_done = true;
		f = fopen(CAPTURE_CHAIN, "re");
		if (f) {
			while (fgets(line, sizeof(line), f)) {
				char name[64];

				if (sscanf(line, "module %63s", name) != 1)
					continue;
				n = modload_insert(kmods, name);
				if (n < 0 && n != -EEXIST)
					say("warning: cannot load module %s for the dump target: %s",
					    name, strerror(-n));
			}
			fclose(f);
		}
		/*
		 * The target's own drivers usually bring it up within a
		 * second: the search for other drivers waits that long, so
		 * that it costs neither time nor memory when it is not needed.
		 */
		if (strlen(modload_loaded(kmods)) > before) {
			say("loaded for the dump target: %s",
			    modload_loaded(kmods) + before + (before ? 1 : 0));
			rounds_from = now_ms() + 1000;
		}
	}
	if (now_ms() >= rounds_from) {
		n = modload_coldplug_round(kmods, "/sys/devices");
		if (n > 0)
			say("loaded %d more modules for devices without a driver", n);
	}
	if (now_ms() >= next_lvm) {
		next_lvm = now_ms() + 1000;
		activate_lvs();
	}
}

/*
 * Wait for the device named by spec, loading drivers meanwhile, until
 * target_timeout passes.
 */
static int wait_for_device(const struct kdump_conf *c, const char *spec,
			   char *dev, size_t size, char *fstype, size_t fsize)
{
	unsigned long long deadline = now_ms() + c->target_timeout * 1000ULL;
	int r;

	step("waiting for the dump target");
	say("waiting up to %us for %s", c->target_timeout, spec);
	for (;;) {
		r = target_find_device(spec, dev, size, fstype, fsize);
		if (r != -ENODEV || now_ms() >= deadline)
			break;
		drivers_step();
		usleep(100 * 1000);
	}
	if (kmods && modload_loaded(kmods)[0])
		say("modules loaded: %s", modload_loaded(kmods));
	if (kmods && modload_failures(kmods, NULL, NULL)) {
		const char *name;
		int e;
		unsigned int nf = modload_failures(kmods, &name, &e);

		say("%u modules did not load (the last: %s: %s)", nf, name,
		    strerror(e));
	}
	return r;
}

/*
 * The helpers kdump-file(8) chose at load time (chain lines "pstore NAME"
 * and "watchdog NAME", NAME "-" when built in): the pstore backend, loaded
 * now so that a failure record survives the reboot, and the hardware
 * watchdog, armed for capture_timeout + CAPTURE_WATCHDOG_MARGIN: a
 * backstop for when the capture kernel is too stuck for the deadline
 * process to run.  Loading the driver stops the countdown the crashed
 * system left running; arming it here starts ours.
 */
static int wd_fd = -1;

/*
 * An automatic capture_timeout (0 in capture.conf): the value the loader
 * chose from the RAM at load time, from the command line, or the fallback
 * when it is missing or not a number of seconds from 1 to 86400.
 */
static unsigned int cmdline_capture_timeout(const char *cmdline)
{
	static const char key[] = CONF_CMDLINE_CAPTURE_TIMEOUT "=";
	const char *p = cmdline;

	while ((p = strstr(p, key))) {
		char *end;
		unsigned long v;

		if (p != cmdline && p[-1] != ' ') {
			p++;
			continue;
		}
		errno = 0;
		v = strtoul(p + sizeof(key) - 1, &end, 10);
		if (errno || end == p + sizeof(key) - 1 ||
		    (*end && *end != ' ') || v < 1 || v > 86400)
			break;
		return (unsigned int)v;
	}
	return CONF_CAPTURE_TIMEOUT_FALLBACK;
}

/* Before an orderly reboot: stop the watchdog so the next boot is not reset. */
static void watchdog_disarm(void)
{
	if (wd_fd < 0)
		return;
	(void)!write(wd_fd, "V", 1);
	close(wd_fd);
	wd_fd = -1;
}

static void watchdog_arm(const char *name, unsigned int capture_timeout)
{
	int timeout = (int)(capture_timeout ? capture_timeout : 600) +
		      CAPTURE_WATCHDOG_MARGIN;
	int r = 0;

	if (strcmp(name, "-") != 0)
		r = modload_insert(kmods, name);
	if (r < 0 && r != -EEXIST) {
		say("warning: cannot load watchdog driver %s: %s", name,
		    strerror(-r));
		return;
	}
	/* The device node appears as the driver binds. */
	for (int i = 0; i < 20 && wd_fd < 0; i++) {
		wd_fd = open("/dev/watchdog0", O_WRONLY | O_CLOEXEC);
		if (wd_fd < 0)
			usleep(50 * 1000);
	}
	if (wd_fd < 0) {
		say("warning: cannot open /dev/watchdog0: %s", strerror(errno));
		return;
	}
	/*
	 * Opening it started it with the driver's own timeout, often 30 s:
	 * one that cannot wait the whole deadline would reset a capture
	 * that is going well, so it is stopped again instead.
	 */
	{
		int want = timeout;

		if (ioctl(wd_fd, WDIOC_SETTIMEOUT, &timeout) < 0 || timeout < want) {
			say("warning: watchdog %s cannot wait %d s (capture_timeout + %d): left stopped",
			    name, want, CAPTURE_WATCHDOG_MARGIN);
			watchdog_disarm();
			return;
		}
	}
	(void)ioctl(wd_fd, WDIOC_KEEPALIVE, 0);
	say("hardware watchdog armed: %d s (%s)", timeout, name);
}


static void helpers_start(const struct kdump_conf *c)
{
	char line[256], name[64];
	FILE *f;

	if (!is_init || !kmods_get())
		return;
	f = fopen(CAPTURE_CHAIN, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "pstore %63s", name) == 1 &&
		    strcmp(name, "-") != 0) {
			int r = modload_insert(kmods, name);

			if (r < 0 && r != -EEXIST)
				say("warning: cannot load pstore backend %s: %s",
				    name, strerror(-r));
			else if (r > 0)
				say("loaded pstore backend %s", name);
		} else if (sscanf(line, "watchdog %63s", name) == 1) {
			watchdog_arm(name, c->capture_timeout);
		}
	}
	fclose(f);
}

/* "name,name,..." of /proc/modules, as much as fits. */
static void modules_loaded(char *buf, size_t size)
{
	char line[512], name[64];
	size_t pos = 0;
	FILE *f;

	buf[0] = '\0';
	f = fopen("/proc/modules", "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		int n;

		if (sscanf(line, "%63s", name) != 1)
			continue;
		n = snprintf(buf + pos, size - pos, "%s%s", pos ? "," : "", name);
		if (n < 0 || (size_t)n >= size - pos) {
			buf[pos] = '\0';
			break;
		}
		pos += n;
	}
	fclose(f);
}

/*
 * Why the capture failed, for the next boot: one line in the kernel log,
 * which the kernel writes to pstore when it restarts (always_kmsg_dump
 * set now, so only a failure costs a pstore write).
 */
static void record_failure(const struct kdump_conf *c, int err, const char *step_now,
			   const char *why)
{
	struct capture_record rec = { .crash_time = -1 };
	char line[1100], backend[64] = "";
	unsigned long long kib = 0;
	struct vmcoreinfo vi;
	int fd;

	if (!is_init)
		return;
	if (read_vmcoreinfo(&vi) == 0)
		rec.crash_time = vi.crash_time;
	snprintf(rec.step, sizeof(rec.step), "%s", step_now);
	if (err > 0 && strerrorname_np(err))
		snprintf(rec.error, sizeof(rec.error), "%s", strerrorname_np(err));
	snprintf(rec.target, sizeof(rec.target), "%s", c->raw[0] ? c->raw : c->target);
	modules_loaded(rec.modules, sizeof(rec.modules));
	{
		char l[256];
		FILE *f = fopen("/proc/meminfo", "re");

		while (f && fgets(l, sizeof(l), f))
			if (sscanf(l, "MemFree: %llu kB", &kib) == 1)
				break;
		if (f)
			fclose(f);
	}
	rec.mem_free_kib = kib;
	snprintf(rec.why, sizeof(rec.why), "%s", why[0] ? why : "no reason given");
	line[0] = '<';
	line[1] = '3';
	line[2] = '>';
	if (record_format(&rec, line + 3, sizeof(line) - 3) < 0)
		return;
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		(void)!write(fd, line, strlen(line));
		close(fd);
	}
	fd = open("/sys/module/printk/parameters/always_kmsg_dump", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		(void)!write(fd, "Y", 1);
		close(fd);
	}
	if (read_line_file("/sys/module/pstore/parameters/backend", backend,
			   sizeof(backend)) == 0 && backend[0] &&
	    strcmp(backend, "(null)") != 0)
		say("recorded why for the next boot (pstore: %s)", backend);
	else
		say("warning: no pstore backend in the capture kernel: the next boot will not know why");
}

static void take_action(enum conf_action a)
{
	sync();
	watchdog_disarm();
	switch (a) {
	case ACTION_POWEROFF:
		say("powering off");
		reboot(RB_POWER_OFF);
		break;
	case ACTION_HALT:
		say("halting");
		reboot(RB_HALT_SYSTEM);
		break;
	case ACTION_SHELL:
		say("dropping to a shell; 'reboot -f' or Ctrl-D to leave");
		if (!is_init)
			exit(EXIT_SHELL);
		execl("/bin/sh", "sh", NULL);
		say("error: no shell in the capture initramfs: rebooting");
		reboot(RB_AUTOBOOT);
		break;
	default:
		say("rebooting");
		reboot(RB_AUTOBOOT);
		break;
	}
	exit(EXIT_FAILURE);
}

/*
 * The capture's deadline, capture_timeout, kept by a process of its own:
 * the capture itself may be stuck in the kernel (a write to a target that
 * stalls does not return), where no signal reaches it.  The capture tells
 * it each step through a pipe; when the deadline passes it says which step
 * was running and takes failure_action, without a sync (the target may be
 * what is stuck).  When the capture ends or execs a shell, the pipe closes
 * and the deadline process ends too.
 */
/* metadata.json of a capture that has not finished, saying why. */
static int write_incomplete(const char *meta, const char *why)
{
	struct json_object *o = json_object_new_object();
	int r = -ENOMEM;

	if (o && json_set_bool(o, "complete", 0) == 0 &&
	    json_set_text(o, "error", why) == 0)
		r = json_write_atomic(meta, o, 0600);
	json_object_put(o);
	return r;
}

/*
 * Replace the dump's metadata.json with why the capture stopped, so that
 * the next boot says so; in a process of its own given 5 s, since the
 * target may be what is stuck.
 */
static void deadline_record(const char *meta, unsigned int timeout,
			    const char *last)
{
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		char why[256];

		snprintf(why, sizeof(why), "capture_timeout (%u s) passed while %s",
			 timeout, last);
		_exit(write_incomplete(meta, why) < 0);
	}
	if (pid < 0)
		return;
	for (int i = 0; i < 50; i++) {
		if (waitpid(pid, NULL, WNOHANG) == pid) {
			say("recorded why in %s", meta + strlen(MNT));
			return;
		}
		usleep(100 * 1000);
	}
	say("warning: cannot record why on the target within 5 s");
}

static void deadline_start(const struct kdump_conf *c)
{
	unsigned long long end = now_ms() + c->capture_timeout * 1000ULL;
	static struct steps st;
	char buf[4096];
	int pfd[2];
	pid_t pid;

	if (c->capture_timeout == 0 || pipe2(pfd, O_CLOEXEC) < 0)
		return;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return;
	}
	if (pid > 0) {
		close(pfd[0]);
		step_fd = pfd[1];
		return;
	}
	close(pfd[1]);
	steps_init(&st);
	for (;;) {
		long long left = (long long)end - (long long)now_ms();
		struct pollfd p = { .fd = pfd[0], .events = POLLIN };
		ssize_t n;

		if (left <= 0)
			break;
		if (poll(&p, 1, left > 60000 ? 60000 : (int)left) <= 0)
			continue;
		n = read(pfd[0], buf, sizeof(buf));
		if (n == 0)
			_exit(0);
		if (n > 0)
			steps_take(&st, buf, n);
	}
	say("error: capture_timeout (%us) passed while %s: taking failure_action = %s",
	    c->capture_timeout, st.last, conf_action_to_string(c->failure_action));
	if (st.meta[0])
		deadline_record(st.meta, c->capture_timeout, st.last);
	{
		char why[256];

		snprintf(why, sizeof(why), "capture_timeout (%us) passed",
			 c->capture_timeout);
		record_failure(c, ETIMEDOUT, st.last, why);
	}
	if (!is_init)
		_exit(EXIT_FAILURE);
	switch (c->failure_action) {
	case ACTION_POWEROFF:
		reboot(RB_POWER_OFF);
		break;
	case ACTION_HALT:
		reboot(RB_HALT_SYSTEM);
		break;
	default:
		/* A shell would wait for someone: reboot instead. */
		reboot(RB_AUTOBOOT);
		break;
	}
	_exit(EXIT_FAILURE);
}

/* The vmcore's makedumpfile command line as one line of text, for the log. */
static const char *argv_text(const struct kdump_conf *c, const char *out,
			     const char *workdir, char *buf, size_t size)
{
	static struct conf_makedumpfile_cmd cmd;
	size_t pos = 0;

	buf[0] = '\0';
	if (conf_makedumpfile_cmd(c, VMCORE, out, workdir, &cmd) < 0)
		return buf;
	for (char **a = cmd.argv; *a && pos < size; a++)
		pos += snprintf(buf + pos, size - pos, "%s%s",
				a == cmd.argv ? "" : " ", *a);
	return buf;
}

static int pwrite_all(int fd, const char *buf, size_t len, off_t off)
{
	while (len > 0) {
		ssize_t n = pwrite(fd, buf, len, off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf += n;
		len -= n;
		off += n;
	}
	return 0;
}

static int raw_write_header(int fd, const struct raw_header *h)
{
	char buf[RAW_HEADER_SIZE];
	int r;

	r = raw_header_format(h, buf);
	if (r == 0)
		r = pwrite_all(fd, buf, sizeof(buf), 0);
	if (r == 0 && fdatasync(fd) < 0)
		r = -errno;
	return r;
}

/*
 * makedumpfile writes the flattened format to a pipe; copy it to the device
 * behind the dmesg, never past the device's end.
 */
static int raw_copy_vmcore(const struct kdump_conf *c, int fd, off_t off,
			   unsigned long long dev_size,
			   unsigned long long *ret_len)
{
	static struct conf_makedumpfile_cmd cmd;
	static char buf[1 << 16];
	unsigned long long done = 0;
	int pfd[2], status, r = 0;
	pid_t pid;

	r = conf_makedumpfile_cmd(c, VMCORE, NULL, NULL, &cmd);
	if (r < 0)
		return r;
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		r = -errno;
		close(pfd[0]);
		close(pfd[1]);
		return r;
	}
	if (pid == 0) {
		dup2(pfd[1], STDOUT_FILENO);
		execvp(cmd.argv[0], cmd.argv);
		_exit(127);
	}
	close(pfd[1]);
	for (;;) {
		ssize_t n = read(pfd[0], buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			break;
		}
		if (n == 0)
			break;
		if (off + done + n > dev_size) {
			r = -ENOSPC;
			break;
		}
		r = pwrite_all(fd, buf, n, off + done);
		if (r < 0)
			break;
		done += n;
	}
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (r == 0 && (!WIFEXITED(status) || WEXITSTATUS(status) != 0))
		r = -EIO;
	*ret_len = done;
	return r;
}

/* The dump on a raw device: header, dmesg, flattened vmcore, header again. */
static int capture_raw(const struct kdump_conf *c)
{
	char dev[PATH_MAX], tmp[] = "/tmp/kdump-file-dmesg.txt";
	unsigned long long dev_size = 0, t;
	struct raw_header h = { .state = RAW_WRITING };
	struct vmcoreinfo vi;
	static char dbuf[1 << 20];
	ssize_t dn;
	int fd, r;

	r = wait_for_device(c, c->raw, dev, sizeof(dev), NULL, 0);
	if (r < 0) {
		say("error: raw dump device %s not found within %us: %s", c->raw,
		    c->target_timeout, strerror(-r));
		return r;
	}
	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &dev_size) < 0) {
		r = -errno;
		say("error: cannot open raw dump device %s: %s", dev, strerror(-r));
		if (fd >= 0)
			close(fd);
		return r;
	}
	/* Never over an unrecovered dump, or over what is not ours. */
	{
		char sig[64] = "";
		struct raw_header old = { 0 };
		ssize_t n = pread(fd, dbuf, RAW_HEADER_SIZE, 0);

		if (n < 0) {
			r = -errno;
			say("error: cannot read raw dump device %s: %s", dev,
			    strerror(-r));
			goto out;
		}
		if (raw_header_parse(dbuf, n, dev_size, &old) == -ENODATA &&
		    target_signature(dev, sig, sizeof(sig)) < 0)
			sig[0] = '\0';
		r = raw_may_write(dbuf, n, dev_size, sig, c->raw_overwrite,
				  c->raw_force, &old);
		if (r == -EEXIST) {
			say("error: raw dump device %s holds a dump of %s not yet recovered: it is kept and this crash is not saved (raw_overwrite = yes replaces such a dump)",
			    dev, old.release[0] ? old.release : "an unknown kernel");
			goto out;
		}
		if (r == -ENOTEMPTY) {
			say("error: raw dump device %s holds %s data, not a dump device as checked at load: nothing written to it",
			    dev, sig);
			goto out;
		}
	}
	(void)read_vmcoreinfo(&vi);
	h.time = time(NULL);
	snprintf(h.release, sizeof(h.release), "%s", vi.release);
	r = raw_write_header(fd, &h);
	if (r < 0)
		goto out;
	step("writing to the raw device");
	say("writing to raw device %s (%llu MiB)", dev, dev_size >> 20);

	/* dmesg first, through a file in the initramfs. */
	{
		char *const argv[] = { "makedumpfile", "--dump-dmesg", VMCORE,
				       tmp, NULL };
		int tfd;

		(void)mkdir("/tmp", 01777);
		(void)unlink(tmp);
		if (run_program(argv, -1) == 0 &&
		    (tfd = open(tmp, O_RDONLY | O_CLOEXEC)) >= 0) {
			dn = read(tfd, dbuf, sizeof(dbuf));
			close(tfd);
			if (dn > 0 && RAW_HEADER_SIZE + (unsigned long long)dn <= dev_size &&
			    pwrite_all(fd, dbuf, dn, RAW_HEADER_SIZE) == 0) {
				h.dmesg_off = RAW_HEADER_SIZE;
				h.dmesg_len = dn;
				say("dmesg saved (%zd bytes)", dn);
			}
			(void)unlink(tmp);
		}
	}
	h.vmcore_off = (RAW_HEADER_SIZE + h.dmesg_len + 4095) / 4096 * 4096;
	{
		char line[1024];

		say("saving vmcore (%s)", argv_text(c, NULL, NULL, line,
						     sizeof(line)));
	}
	t = now_ms();
	r = raw_copy_vmcore(c, fd, h.vmcore_off, dev_size, &h.vmcore_len);
	if (r < 0) {
		h.state = RAW_FAILED;
		snprintf(h.error, sizeof(h.error), "%s",
			 r == -ENOSPC ? "the raw device is too small for the vmcore" :
					"makedumpfile failed");
		say("error: vmcore not saved: %s", h.error);
		h.vmcore_len = 0;
	} else {
		h.state = RAW_COMPLETE;
		say("vmcore saved (%llu bytes in %.1fs)", h.vmcore_len,
		    (now_ms() - t) / 1000.0);
	}
	if (fdatasync(fd) < 0 && r == 0)
		r = -errno;
	{
		int r2 = raw_write_header(fd, &h);

		if (r == 0)
			r = r2;
	}
out:
	close(fd);
	return r;
}

/*
 * The user's hooks (pre_hook, post_hook): each run with the dump directory
 * and "pre", "ok" or "failed", under hook_timeout and never past the
 * capture's own deadline; its output goes to the console and to the dump's
 * hooks.log; its result to metadata.json.
 */
#define HOOK_LOG_MAX (1 << 20)

struct hook_record {
	const char *phase;
	char path[256];
	struct hook_result res;
};

static struct hook_record hook_records[2 * CONF_LIST_MAX];
static unsigned int n_hook_records;
/* When the capture's deadline passes (ms, now_ms()); 0: none. */
static unsigned long long deadline_end;
/* A post hook failed and hook_failure = stop: failure_action, not final. */
static bool post_hook_stop;
/* The step a stopping pre hook ran in, for the failure record. */
static char stop_step[128];

struct hook_log {
	int fd;
	size_t written;
};

static void hook_output(const char *buf, size_t n, void *userdata)
{
	struct hook_log *lg = userdata;

	fwrite(buf, 1, n, stdout);
	fflush(stdout);
	if (lg->fd < 0 || lg->written >= HOOK_LOG_MAX)
		return;
	if (n > HOOK_LOG_MAX - lg->written)
		n = HOOK_LOG_MAX - lg->written;
	if (write(lg->fd, buf, n) > 0)
		lg->written += n;
}

/*
 * Run the hooks of list in order.  Returns -ECANCELED when one failed and
 * hook_failure = stop (the rest are not run), else 0.
 */
static int run_hooks(const struct kdump_conf *c, const char *phase,
		     const char *list, const char *dir, const char *word)
{
	char path[CONF_VALUE_MAX], log_path[PATH_MAX + 16], what[300];
	struct hook_log lg = { .fd = -1 };
	size_t pos = 0;
	int ret = 0;

	if (!list[0])
		return 0;
	snprintf(log_path, sizeof(log_path), "%s/hooks.log", dir);
	lg.fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW |
				       O_CLOEXEC, 0600);
	while (conf_list_next(list, &pos, path, sizeof(path))) {
		char *argv[] = { path, (char *)dir, (char *)word, NULL };
		unsigned long long limit = c->hook_timeout * 1000ULL;
		struct hook_result res;
		char desc[128];
		int r;

		/* capture_timeout ends the capture whatever runs: so does it a hook. */
		if (deadline_end) {
			unsigned long long now = now_ms();
			unsigned long long left = deadline_end > now ? deadline_end - now : 1;

			if (left < limit)
				limit = left;
		}
		snprintf(what, sizeof(what), "running %s hook %s", phase, path);
		step(what);
		say("running %s hook %s %s %s (up to %.0fs)", phase, path,
		    dir + strlen(MNT), word, limit / 1000.0);
		if (lg.fd >= 0 && lg.written < HOOK_LOG_MAX) {
			int n = dprintf(lg.fd, "== %s hook %s %s\n", phase, path,
					word);

			if (n > 0)
				lg.written += n;
		}
		r = hook_run(argv, limit, hook_output, &lg, &res);
		if (r < 0) {
			memset(&res, 0, sizeof(res));
			res.status = -1;
			res.error = -r;
		}
		if (n_hook_records < sizeof(hook_records) / sizeof(hook_records[0])) {
			struct hook_record *h = &hook_records[n_hook_records++];

			h->phase = phase;
			snprintf(h->path, sizeof(h->path), "%s", path);
			h->res = res;
		}
		(void)hook_describe(&res, desc, sizeof(desc));
		if (!hook_failed(&res)) {
			say("%s hook %s: %s in %.1fs", phase, path, desc,
			    res.ms / 1000.0);
			continue;
		}
		if (!c->hook_stop) {
			say("warning: %s hook %s failed: %s (hook_failure = continue)",
			    phase, path, desc);
			continue;
		}
		say("error: %s hook %s failed: %s (hook_failure = stop)", phase,
		    path, desc);
		snprintf(stop_step, sizeof(stop_step), "%s", cur_step);
		ret = -ECANCELED;
		break;
	}
	if (lg.fd >= 0) {
		(void)fsync(lg.fd);
		close(lg.fd);
	}
	return ret;
}

static struct json_object *hooks_json(void)
{
	struct json_object *a = json_object_new_array();

	for (unsigned int i = 0; a && i < n_hook_records; i++) {
		const struct hook_record *h = &hook_records[i];
		struct json_object *o = json_object_new_object();
		char desc[128];
		int m = o ? 0 : -ENOMEM;

		(void)hook_describe(&h->res, desc, sizeof(desc));
		if (m == 0)
			m = json_set_text(o, "phase", h->phase);
		if (m == 0)
			m = json_set_text(o, "path", h->path);
		if (m == 0)
			m = json_set_int(o, "exit", h->res.status);
		if (m == 0)
			m = json_set_bool(o, "timed_out", h->res.timed_out);
		if (m == 0)
			m = json_set_double(o, "seconds", h->res.ms / 1000.0);
		if (m == 0)
			m = json_set_bool(o, "failed", hook_failed(&h->res));
		if (m == 0)
			m = json_set_text(o, "result", desc);
		if (m < 0 || json_object_array_add(a, o) < 0) {
			json_object_put(o);
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}

/*
 * extra_modules, loaded before the target's chain with the same loader; a
 * module that does not load is said and recorded, and the capture goes on.
 */
static struct {
	char name[64];
	int error;	/* errno, 0 when loaded or already there */
} extra_mods[CONF_LIST_MAX];
static unsigned int n_extra_mods;

static void extra_modules_load(const struct kdump_conf *c)
{
	char name[64];
	size_t pos = 0;

	if (!c->extra_modules[0] || !kmods_get())
		return;
	step("loading extra_modules");
	while (n_extra_mods < CONF_LIST_MAX &&
	       conf_list_next(c->extra_modules, &pos, name, sizeof(name))) {
		unsigned int before = modload_failures(kmods, NULL, NULL);
		int r = modload_insert(kmods, name), e = 0;

		if (r < 0 && r != -EEXIST)
			e = -r;
		else if (modload_failures(kmods, NULL, NULL) > before)
			(void)modload_failures(kmods, NULL, &e);
		snprintf(extra_mods[n_extra_mods].name, sizeof(extra_mods[0].name),
			 "%s", name);
		extra_mods[n_extra_mods++].error = e;
		if (e)
			say("warning: cannot load extra module %s: %s", name,
			    strerror(e));
		else
			say("extra module %s loaded", name);
	}
}

static struct json_object *extra_modules_json(void)
{
	struct json_object *a = json_object_new_array();

	for (unsigned int i = 0; a && i < n_extra_mods; i++) {
		struct json_object *o = json_object_new_object();
		int e = extra_mods[i].error;
		int m = o ? 0 : -ENOMEM;

		if (m == 0)
			m = json_set_text(o, "name", extra_mods[i].name);
		if (m == 0)
			m = json_set_bool(o, "loaded", e == 0);
		if (m == 0)
			m = json_set_text(o, "error",
					  e ? (strerrorname_np(e) ? strerrorname_np(e) : "?") : "");
		if (m < 0 || json_object_array_add(a, o) < 0) {
			json_object_put(o);
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}

static int capture(const struct kdump_conf *c)
{
	char dev[PATH_MAX], fstype[32] = "", base[PATH_MAX], dir[PATH_MAX + 8];
	char stem[PATH_MAX];
	char dmesg[PATH_MAX + 16], inc[PATH_MAX + 32], core[PATH_MAX + 16];
	char meta[PATH_MAX + 32], panic[512], reason[256] = "";
	long long t_written = 0;
	unsigned long long t_dev, t_dmesg = 0, t_core = 0;
	struct vmcoreinfo vi;
	bool pre_stopped = false;
	struct tm tm;
	time_t now;
	int r;

	/* 1. The target device, within target_timeout. */
	r = wait_for_device(c, c->target, dev, sizeof(dev), fstype,
			    sizeof(fstype));
	if (r < 0) {
		say("error: dump target %s not found within %us: %s",
		    c->target, c->target_timeout, strerror(-r));
		return r;
	}
	t_dev = now_ms();
	/*
	 * The filesystem's module, when the chain did not bring it (no chain,
	 * or the filesystem changed since the load): filesystems have no
	 * modalias for the rounds, but the alias fs-<type>.
	 */
	if (kmods && fstype[0]) {
		char alias[64];

		snprintf(alias, sizeof(alias), "fs-%s", fstype);
		if (modload_insert(kmods, alias) > 0)
			say("loaded the module of filesystem %s; modules loaded: %s",
			    fstype, modload_loaded(kmods));
	}
	if (mkdir(MNT, 0700) < 0 && errno != EEXIST)
		return -errno;
	/*
	 * btrfs: the top-level subvolume, whatever the default one is: the
	 * path kdump-file(8) resolved is relative to it (mountinfo's root).
	 */
	step("mounting the target");
	if (mount(dev, MNT, fstype[0] ? fstype : "ext4", 0,
		  strcmp(fstype, "btrfs") == 0 ? "subvolid=5" : NULL) < 0) {
		r = -errno;
		say("error: cannot mount %s (%s) on %s: %s", dev, fstype, MNT,
		    strerror(-r));
		return r;
	}
	say("mounted %s (%s, %s)", c->target, dev, fstype);

	/* 2. One directory per crash, named by its time, private to root. */
	umask(0077);
	snprintf(base, sizeof(base), MNT "%s", strcmp(c->path, "/") ? c->path : "");
	r = mkdir_p(base, 0700);
	if (r < 0) {
		say("error: cannot create %s: %s", base, strerror(-r));
		goto out_umount;
	}
	apply_retention(base, c->keep);
	now = time(NULL);
	gmtime_r(&now, &tm);
	snprintf(stem, sizeof(stem), "%s/%04d-%02d-%02d-%02d:%02d:%02d", base,
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec);
	snprintf(dir, sizeof(dir), "%s", stem);
	for (unsigned int i = 1; mkdir(dir, 0700) < 0; i++) {
		if (errno != EEXIST || i > 99) {
			r = -errno;
			say("error: cannot create %s: %s", dir, strerror(-r));
			goto out_umount;
		}
		snprintf(dir, sizeof(dir), "%s-%u", stem, i);
	}
	snprintf(dmesg, sizeof(dmesg), "%s/dmesg.txt", dir);
	snprintf(inc, sizeof(inc), "%s/vmcore-incomplete", dir);
	snprintf(core, sizeof(core), "%s/vmcore", dir);
	snprintf(meta, sizeof(meta), "%s/metadata.json", dir);
	say("saving to %s", dir + strlen(MNT));
	{
		char m[PATH_MAX + 40];

		snprintf(m, sizeof(m), "@%s", meta);
		step(m);
	}

	/* The user's pre hooks: the target is mounted, nothing saved yet. */
	if (run_hooks(c, "pre", c->pre_hook, dir, "pre") < 0) {
		snprintf(reason, sizeof(reason), "%s", last_error);
		say("error: no dump saved: %s", reason);
		pre_stopped = true;
		r = -ECANCELED;
		goto out_meta;
	}
	step("saving the dmesg");

	/* 3. dmesg first: small, and the most useful part of a dump. */
	{
		char *const argv[] = { "makedumpfile", "--dump-dmesg", VMCORE,
				       dmesg, NULL };
		unsigned long long t = now_ms();

		r = run_program(argv, -1);
		t_dmesg = now_ms() - t;
		if (r != 0)
			say("warning: makedumpfile --dump-dmesg failed (%d)", r);
		else
			say("dmesg saved (%lld bytes)", file_size(dmesg));
	}

	/*
	 * Make the directory, the dmesg and a record saying the capture has
	 * not finished durable before the long part: if power is lost or
	 * this kernel dies while the vmcore is written, the next boot finds
	 * an incomplete dump, not nothing.  The record is replaced at the end.
	 */
	(void)write_incomplete(meta, c->dmesg_only ?
		"the capture did not finish: power was lost, the capture kernel stopped or capture_timeout passed while writing metadata.json" :
		"the capture did not finish: power was lost, the capture kernel stopped or capture_timeout passed while saving the vmcore");
	(void)fsync_path(dmesg);
	(void)fsync_path(dir);
	(void)fsync_path(base);

	/* dump_level = dmesg: the kernel log is the whole dump. */
	if (c->dmesg_only) {
		if (r != 0) {
			snprintf(reason, sizeof(reason),
				 "makedumpfile --dump-dmesg failed with status %d (dump_level = dmesg saves nothing else)",
				 r);
			say("error: kernel log not saved: %s", reason);
			r = -EIO;
		} else {
			say("no vmcore: dump_level = dmesg saves the kernel log alone");
		}
		goto out_meta;
	}

	/* 4. The vmcore, under a name that says it is not complete yet. */
	if (free_bytes(dir) <= c->min_free_mb * (1ULL << 20)) {
		snprintf(reason, sizeof(reason),
			 "only %llu MiB free on the target, min_free_mb is %llu",
			 free_bytes(dir) >> 20, c->min_free_mb);
		say("error: vmcore not saved: %s; dmesg.txt and metadata.json are kept",
		    reason);
		r = -ENOSPC;
		goto out_meta;
	}
	{
		static struct conf_makedumpfile_cmd cmd;
		unsigned long long t = now_ms();
		char line[2048];

		step("saving the vmcore");
		/* -e keeps its work files in the dump's directory. */
		r = conf_makedumpfile_cmd(c, VMCORE, inc, dir, &cmd);
		if (r == 0) {
			say("saving vmcore (%s)",
			    argv_text(c, inc, dir, line, sizeof(line)));
			r = run_program(cmd.argv, -1);
		}
		t_core = now_ms() - t;
		t_written = file_size(inc);
	}
	if (r != 0) {
		unsigned long long avail = free_bytes(dir);

		/*
		 * A full target: the partial file is of no use and holds
		 * the space the next dump needs.  Anything else may be a
		 * fault worth looking at: keep it, under its name that
		 * says it is incomplete.
		 */
		if (avail < (1ULL << 20) + c->min_free_mb * (1ULL << 20)) {
			(void)unlink(inc);
			snprintf(reason, sizeof(reason),
				 "the dump target is full (%llu MiB free after %lld MiB written)",
				 avail >> 20, t_written >> 20);
		} else {
			snprintf(reason, sizeof(reason),
				 "makedumpfile failed with status %d", r);
		}
		say("error: vmcore not saved: %s; dmesg.txt and metadata.json are kept",
		    reason);
		r = -EIO;
		goto out_meta;
	}
	if (free_bytes(dir) < c->min_free_mb * (1ULL << 20)) {
		(void)unlink(inc);
		snprintf(reason, sizeof(reason),
			 "the vmcore would leave less than min_free_mb = %llu MiB free",
			 c->min_free_mb);
		say("error: vmcore removed: %s; dmesg.txt and metadata.json are kept",
		    reason);
		r = -ENOSPC;
		goto out_meta;
	}
	r = fsync_path(inc);
	if (r == 0 && rename(inc, core) < 0)
		r = -errno;
	if (r == 0)
		r = fsync_path(dir);
	if (r < 0) {
		say("error: cannot commit %s: %s", core, strerror(-r));
		goto out_meta;
	}
	say("vmcore saved (%lld bytes in %.1fs)", file_size(core),
	    t_core / 1000.0);

out_meta:
	step("writing metadata.json");
	/* 5. Metadata, whatever happened to the vmcore. */
	(void)read_vmcoreinfo(&vi);
	find_panic(dmesg, panic, sizeof(panic));
	{
		struct json_object *o = json_object_new_object();
		struct json_object *secs = json_object_new_object();
		int m = o && secs ? 0 : -ENOMEM;

		if (m == 0)
			m = json_set_text(o, "kernel_release", vi.release);
		if (m == 0)
			m = json_set_int(o, "crash_time", vi.crash_time);
		if (m == 0)
			m = json_set_text(o, "panic", panic);
		if (m == 0 && c->dmesg_only)
			m = json_set_bool(o, "dmesg_only", 1);
		if (m == 0 && !c->dmesg_only)
			m = json_set_int(o, "dump_level", c->dump_level);
		if (m == 0 && !c->dmesg_only)
			m = json_set_text(o, "compression",
					  conf_compression_to_string(c->compression));
		if (m == 0)
			m = json_set_bool(o, "complete", r == 0);
		if (m == 0)
			m = json_set_int(o, "vmcore_bytes", file_size(core));
		if (m == 0)
			m = json_set_int(o, "dmesg_bytes", file_size(dmesg));
		if (m == 0)
			m = json_set_text(o, "target", c->target);
		if (m == 0)
			m = json_set_text(o, "error", reason);
		if (m == 0)
			m = json_set_double(secs, "find_target",
					    (t_dev - t_start) / 1000.0);
		if (m == 0)
			m = json_set_double(secs, "dmesg", t_dmesg / 1000.0);
		if (m == 0)
			m = json_set_double(secs, "vmcore", t_core / 1000.0);
		if (m == 0)
			m = json_set_double(secs, "total",
					    (now_ms() - t_start) / 1000.0);
		if (m == 0) {
			m = json_object_object_add(o, "seconds", secs) < 0 ?
				    -ENOMEM : 0;
			if (m == 0)
				secs = NULL;
		}
		if (m == 0 && n_extra_mods) {
			struct json_object *a = extra_modules_json();

			m = a && json_object_object_add(o, "extra_modules", a) == 0 ?
				    0 : -ENOMEM;
		}
		if (m == 0 && n_hook_records)
			m = json_object_object_add(o, "hooks", hooks_json()) < 0 ?
				    -ENOMEM : 0;
		if (m == 0)
			m = json_write_atomic(meta, o, 0600);
		if (m < 0)
			say("warning: cannot write %s: %s", meta + strlen(MNT),
			    strerror(-m));
		/*
		 * The user's post hooks: the dump is saved (or failed) and
		 * described; what they did goes into the metadata too.
		 */
		if (!pre_stopped && c->post_hook[0]) {
			if (run_hooks(c, "post", c->post_hook, dir,
				      r == 0 ? "ok" : "failed") < 0)
				post_hook_stop = true;
			step("writing metadata.json");
			m = !o || json_object_object_add(o, "hooks", hooks_json()) < 0 ?
				    -ENOMEM : 0;
			if (m == 0)
				m = json_write_atomic(meta, o, 0600);
			if (m < 0)
				say("warning: cannot write %s: %s",
				    meta + strlen(MNT), strerror(-m));
		}
		json_object_put(secs);
		json_object_put(o);
	}
out_umount:
	step("unmounting the target");
	sync();
	if (umount(MNT) < 0)
		say("warning: cannot unmount %s: %s", MNT, strerror(errno));
	return r;
}

int main(void)
{

	struct conf_error err = { 0 };
	struct kdump_conf c;
	char cmdline[4096];
	int r;

	t_start = now_ms();
	setvbuf(stdout, NULL, _IOLBF, 0);
	is_init = getpid() == 1;
	if (is_init)
		init_setup();
	if (access(VMCORE, R_OK) < 0) {
		say("no %s: this is not a capture kernel, nothing to save", VMCORE);
		if (!is_init)
			return 0;
		take_action(ACTION_REBOOT);
	}
	r = conf_parse_file(&c, CAPTURE_CONF, &err);
	if (r < 0) {
		say("error: %s:%u: %s%s%s", CAPTURE_CONF, err.line, err.key,
		    err.key[0] ? ": " : "", err.msg);
		conf_init(&c);
		record_failure(&c, -r, "reading the capture configuration", last_error);
		take_action(c.failure_action);
	}
	if (c.dmesg_only)
		say("capture started: target %s, path %s, dump level dmesg: the kernel log alone",
		    c.target, c.path);
	else
		say("capture started: target %s, path %s, dump level %u, %s",
		    c.raw[0] ? c.raw : c.target, c.path, c.dump_level,
		    conf_compression_to_string(c.compression));
	if (read_line_file("/proc/cmdline", cmdline, sizeof(cmdline)) == 0)
		say("capture kernel command line: %s", cmdline);
	else
		cmdline[0] = '\0';
	if (!c.capture_timeout)
		c.capture_timeout = cmdline_capture_timeout(cmdline);
	helpers_start(&c);
	deadline_start(&c);
	if (c.capture_timeout)
		deadline_end = now_ms() + c.capture_timeout * 1000ULL;
	say("capture deadline: %us (capture_timeout)", c.capture_timeout);
	extra_modules_load(&c);
	r = c.raw[0] ? capture_raw(&c) : capture(&c);
	if (r < 0) {
		say("capture failed after %.1fs: %s", (now_ms() - t_start) / 1000.0,
		    strerror(-r));
		record_failure(&c, -r, stop_step[0] ? stop_step : cur_step,
			       last_error);
		take_action(c.failure_action);
	}
	say("capture complete in %.1fs", (now_ms() - t_start) / 1000.0);
	if (post_hook_stop) {
		say("a post hook failed and hook_failure = stop: the dump is saved, taking failure_action = %s",
		    conf_action_to_string(c.failure_action));
		take_action(c.failure_action);
	}
	take_action(c.final_action);
	return 0;
}
