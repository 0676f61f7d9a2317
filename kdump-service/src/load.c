// SPDX-License-Identifier: GPL-2.0
/*
 * The capture kernel in and out of the kernel (see load.h): the checks
 * before the syscall, the previous capture kernel put back when the
 * kernel refuses a new one, the state files status reads, the panic_on
 * sysctls that go with a loaded capture kernel, and a network target's
 * collector waited for.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/stat.h>

#include "boot-files.h"
#include "dump.h"
#include "dumpsize.h"
#include "estimate.h"
#include "expected.h"
#include "initramfs.h"
#include "kexec.h"
#include "load.h"
#include "load-panicon.h"
#include "netcheck.h"
#include "panicon.h"
#include "record.h"
#include "recover-raw.h"
#include "safedir.h"
#include "sandbox.h"
#include "state.h"
#include "util.h"

static void fill_context(struct kexec_context *ctx, const struct plan *p,
			 int kfd, unsigned long long reserved, char *lockdown,
			 size_t lsize)
{
	unsigned long long v;
	char *s, *e;
	int sig;

	memset(ctx, 0, sizeof(*ctx));
	ctx->kernel = p->kernel;
	ctx->initramfs = p->initramfs;
	ctx->is_root = geteuid() == 0;
	ctx->reserved = reserved;
	if (read_ull_file("/proc/sys/kernel/kexec_load_disabled", &v) == 0)
		ctx->kexec_disabled = v != 0;
	/* "none [integrity] confidentiality": the bracketed one is active. */
	if (read_line_file("/sys/kernel/security/lockdown", lockdown, lsize) == 0 &&
	    (s = strchr(lockdown, '[')) && (e = strchr(s, ']'))) {
		*e = '\0';
		ctx->lockdown = s + 1;
	} else if (read_line_file("/proc/cmdline", lockdown, lsize) == 0) {
		/*
		 * Without securityfs (CONFIG_SECURITYFS, or not mounted) the
		 * mode is not readable; lockdown= on the command line is the
		 * next best witness.
		 */
		for (s = strtok_r(lockdown, " \t\n", &e); s;
		     s = strtok_r(NULL, " \t\n", &e))
			if (strncmp(s, "lockdown=", 9) == 0 && s[9]) {
				ctx->lockdown = s + 9;
				break;
			}
	}
	sig = kexec_image_signature(kfd);
	ctx->signed_state = sig > 0 ? sig : KEXEC_SIG_UNKNOWN;
}

static int write_state(const struct plan *p)
{
	char buf[PATH_MAX * 2 + sizeof(p->cmdline) + 64];
	int r;

	r = loaded_format(p->kernel, p->initramfs, p->cmdline, buf, sizeof(buf));
	if (r < 0)
		return r;
	return write_file_atomic(RUN_DIR "/loaded", buf, strlen(buf), 0600);
}

/*
 * Record that kernel is loaded as the capture kernel in this boot, and
 * pstore, the backend its capture records a failure in ("" for none).
 */
static int write_armed(const char *kernel, const char *pstore)
{
	char boot[64], buf[ARMED_TEXT_MAX];
	int r;

	r = cli_boot_id(boot, sizeof(boot));
	if (r >= 0)
		r = armed_format(boot, (long long)time(NULL), pstore, kernel,
				 buf, sizeof(buf));
	if (r >= 0)
		r = mkdir_p(KDUMP_FILE_STATE_DIR, 0700);
	if (r >= 0)
		r = write_file_atomic(ARMED_FILE, buf, strlen(buf), 0600);
	return r;
}

/*
 * Before a load arms a new marker: a marker from another boot means that
 * boot ended without a clean shutdown (which unloads) while a capture
 * kernel was loaded.  Without a dump from then on, its crash, if it was
 * one, was lost: record that in LOST_FILE for status.  Nothing is decided
 * while the dumps cannot be seen from here (a target not mounted).
 */

static void record_lost_crash(struct cli *cli, const struct kdump_conf *c)
{
	char marker[ARMED_TEXT_MAX], boot[64] = "", buf[256];
	long long newest, complete;
	struct capture_record rec;
	enum crash_verdict v;
	struct armed a;
	bool seen;
	int r;

	/*
	 * Dumps that cannot be seen (a target not mounted here) decide
	 * nothing, unless the capture's own record says it failed.
	 */
	seen = dump_times(cli, c, &newest, &complete) == 0;
	if (!seen)
		newest = complete = -1;
	if (seen && read_line_file(LOST_FILE, buf, sizeof(buf)) == 0 &&
	    armed_parse(buf, &a) == 0 && !lost_is_current(&a, complete))
		(void)unlink(LOST_FILE);
	if (read_line_file(ARMED_FILE, marker, sizeof(marker)) < 0 ||
	    cli_boot_id(boot, sizeof(boot)) < 0)
		return;
	v = crash_verdict(marker, boot, newest, &a);
	if (!seen && (v != CRASH_LOST ||
		      record_find(pstore_dirs, a.time, &rec) < 0))
		return;
	switch (v) {
	case CRASH_NONE:
		return;
	case CRASH_LOST: {
		char text[2048];

		if (lost_text(&a, text, sizeof(text)) == 0)
			fprintf(stderr, "kdump-file: a crash was lost: %s\n", text);
		r = armed_format(a.boot, a.time, a.pstore, NULL, buf,
				 sizeof(buf));
		if (r >= 0)
			r = write_file_atomic(LOST_FILE, buf, strlen(buf), 0600);
		if (r < 0) {
			log_error(cli, "cannot record in %s that boot %s lost its crash: %s",
				  LOST_FILE, a.boot, strerror(-r));
			return;
		}
		break;
	}
	case CRASH_SAVED:
		break;
	}
	(void)unlink(ARMED_FILE);
}

/*
 * The capture kernel loaded before this load, opened before the syscall:
 * kexec_file_load(KEXEC_FILE_ON_CRASH) frees it before it parses the new
 * one (kernel/kexec_file.c), so a load the kernel refuses leaves none.
 */
struct previous {
	bool known;		/* loaded, and RUN_DIR/loaded says what */
	struct loaded_state s;
	int kfd, ifd;
	char open_error[PATH_MAX + 64];	/* why it cannot be loaded again */
	bool restored;		/* loaded again after the kernel refused */
};

/*
 * After a failed load: one line on what protects the machine now, so that
 * whoever reads the failure also reads whether a crash is still captured.
 */
static void say_loaded_now(struct cli *cli, bool restored)
{
	unsigned long long loaded = 0;
	struct loaded_state s;
	char text[sizeof(s) + 64];

	if (read_ull_file(SYS_CRASH_LOADED, &loaded) < 0)
		return;
	if (loaded != 1) {
		log_stderr(cli, "no capture kernel is loaded: a crash now is not captured");
		return;
	}
	if (read_line_file(RUN_DIR "/loaded", text, sizeof(text)) < 0 ||
	    loaded_parse(text, &s) < 0) {
		log_stderr(cli, "a capture kernel loaded by another tool stays loaded");
		return;
	}
	log_stderr(cli, "%s: %s with initramfs %s, as before this command: a crash is still captured",
		   restored ? "loaded again" : "still loaded", s.kernel,
		   s.initramfs[0] ? s.initramfs : "(none)");
}

static void previous_open(struct previous *prev)
{
	char text[sizeof(prev->s) + 64], what[64];
	unsigned long long loaded = 0;
	struct safe_violation bad;
	const char *path = NULL;
	int r;

	prev->known = false;
	prev->kfd = prev->ifd = -1;
	prev->open_error[0] = '\0';
	if (read_ull_file(SYS_CRASH_LOADED, &loaded) < 0 || loaded != 1 ||
	    read_line_file(RUN_DIR "/loaded", text, sizeof(text)) < 0 ||
	    loaded_parse(text, &prev->s) < 0)
		return;
	prev->known = true;
	/* Loaded again only as load would load it: checked on the fd. */
	r = safe_open(prev->s.kernel, 0, &bad, &prev->kfd);
	if (r < 0)
		path = prev->s.kernel;
	else if (prev->s.initramfs[0]) {
		r = safe_open(prev->s.initramfs, 0, &bad, &prev->ifd);
		if (r < 0)
			path = prev->s.initramfs;
	}
	if (path && r == -EPERM)
		snprintf(prev->open_error, sizeof(prev->open_error),
			 "'%s' is %s", bad.path,
			 safe_fault_text(&bad, what, sizeof(what)));
	else if (path)
		snprintf(prev->open_error, sizeof(prev->open_error),
			 "cannot open '%s': %s", path, strerror(-r));
}

static void previous_close(struct previous *prev)
{
	if (prev->ifd >= 0)
		close(prev->ifd);
	if (prev->kfd >= 0)
		close(prev->kfd);
	prev->kfd = prev->ifd = -1;
}

/* After the kernel refused a load: load the previous capture kernel again. */
static void previous_restore(struct cli *cli, struct previous *prev)
{
	unsigned long long loaded = 0;
	char why[PATH_MAX + 64], text[ARMED_TEXT_MAX];
	struct armed a;
	int r;

	/* EBUSY, or EPERM for want of CAP_SYS_BOOT: refused before freeing. */
	if (read_ull_file(SYS_CRASH_LOADED, &loaded) == 0 && loaded == 1)
		return;
	if (!prev->known) {
		(void)unlink(RUN_DIR "/loaded");
		(void)unlink(ARMED_FILE);
		(void)unload_panic_on(cli);
		return;
	}
	if (prev->open_error[0]) {
		snprintf(why, sizeof(why), "%s", prev->open_error);
	} else {
		r = kexec_crash_load(prev->kfd, prev->ifd, prev->s.cmdline);
		if (r == 0) {
			fprintf(stderr, "kdump-file: the previously loaded capture kernel %s was loaded again\n",
				prev->s.kernel);
			prev->restored = true;
			/*
			 * RUN_DIR/loaded still describes it, and the marker
			 * of its load its pstore backend.
			 */
			if (read_line_file(ARMED_FILE, text, sizeof(text)) < 0 ||
			    armed_parse(text, &a) < 0)
				a.pstore[0] = '\0';
			(void)write_armed(prev->s.kernel, a.pstore);
			return;
		}
		snprintf(why, sizeof(why), "kexec_file_load: %s", strerror(-r));
	}
	log_error(cli, "the previously loaded capture kernel %s could not be loaded again: %s",
		  prev->s.kernel, why);
	(void)unlink(RUN_DIR "/loaded");
	(void)unlink(ARMED_FILE);
	/* No capture kernel: a crash made to panic would not be saved. */
	(void)unload_panic_on(cli);
}

/* The reservation, or why there is none to load into. */
static int read_reservation(struct cli *cli, unsigned long long *ret)
{
	unsigned long long reserved = 0;
	int r;

	r = kexec_crash_size(&reserved);
	if (r == -EBUSY) {
		log_error(cli, "cannot read %s: the kernel's kexec lock stayed taken for %d s (another load or unload, or an update after CPU or memory hotplug): try again once it is done",
			  SYS_CRASH_SIZE,
			  KEXEC_BUSY_TRIES * KEXEC_BUSY_WAIT_MS / 1000);
		return r;
	}
	if (r < 0) {
		log_error(cli, "cannot read %s: %s (" NO_KEXEC_HINT ")",
			  SYS_CRASH_SIZE, strerror(-r));
		return r;
	}
	if (reserved == 0) {
		char advice[256];

		crashkernel_advice(cli, advice, sizeof(advice));
		log_error(cli, "cannot load a capture kernel: no crashkernel= memory is reserved (%s)",
			  advice);
		return -EADDRNOTAVAIL;
	}
	*ret = reserved;
	return 0;
}

/* The capture kernel, opened and checked as kexec_file_load would. */
/*
 * The capture kernel or initramfs, opened as it is checked to be root's
 * alone (safe_open(): every directory, link and the file itself), so
 * that the descriptor given to kexec_file_load is the object checked, not
 * one found again by its name.
 */
static int open_boot_file(struct cli *cli, const char *what, const char *path,
			  int *ret_fd)
{
	struct safe_violation bad;
	char text[64];
	int fd = -1, r;

	r = safe_open(path, 0, &bad, &fd);
	if (r == -EPERM) {
		log_error(cli, "refusing to load %s '%s': '%s' is %s, and what the capture kernel boots must be root's alone (chown root and chmod go-w '%s')",
			  what, path, bad.path,
			  safe_fault_text(&bad, text, sizeof(text)), bad.path);
		return r;
	}
	return open_regular_fd(cli, what, path, fd, r, ret_fd);
}

static int open_capture_kernel(struct cli *cli, const struct plan *p,
			       int *ret_fd)
{
	int fd, r;

	r = open_boot_file(cli, "capture kernel", p->kernel, &fd);
	if (r < 0)
		return r;
	r = kexec_check_bzimage(fd);
	if (r == -EBADMSG)
		log_error(cli, "capture kernel '%s' is truncated: its boot header announces more than the file holds (a copy cut short?): reinstall it, or point 'kernel' in %s at a complete vmlinuz",
			  p->kernel, cli->opt.config);
	else if (r < 0)
		log_error(cli, "cannot load capture kernel '%s': not an x86_64 bzImage that kexec_file_load accepts (boot protocol 2.12, 64-bit entry): point 'kernel' in %s at a vmlinuz",
			  p->kernel, cli->opt.config);
	if (r < 0) {
		close(fd);
		return r;
	}
	*ret_fd = fd;
	return 0;
}

/* The capture initramfs, opened and read through to its end. */
static int open_capture_initramfs(struct cli *cli, const struct plan *p,
				  int *ret_fd)
{
	struct initramfs_problem bad = { 0 };
	char memo[PATH_MAX];
	int fd, r;

	r = open_boot_file(cli, "capture initramfs", p->initramfs, &fd);
	if (r < 0)
		return r;
	/*
	 * An image kdump-file built is read through once after each build,
	 * not at every load: the memo next to it says it passed as it is.
	 */
	if (p->initramfs_managed &&
	    snprintf(memo, sizeof(memo), "%s.verified", p->initramfs) <
		    (int)sizeof(memo))
		r = initramfs_verify_memo(fd, memo, &bad);
	else
		r = initramfs_verify(fd, &bad);
	if (r == -EBADMSG && p->initramfs_managed)
		log_error(cli, "capture initramfs '%s' is truncated or corrupt: rebuild it with 'kdump-file rebuild' (%s at byte %llu)",
			  p->initramfs, bad.what, bad.offset);
	else if (r == -EBADMSG)
		log_error(cli, "capture initramfs '%s' is truncated or corrupt: rebuild or replace that file, or remove 'initramfs' from %s to have kdump-file build one (%s at byte %llu)",
			  p->initramfs, cli->opt.config, bad.what, bad.offset);
	else if (r == -EINVAL)
		log_error(cli, "capture initramfs '%s' is neither a cpio archive nor a compressed one: %s",
			  p->initramfs, p->initramfs_managed ?
			  "rebuild it with 'kdump-file rebuild'" :
			  "point 'initramfs' at an initramfs image");
	else if (r < 0)
		log_error(cli, "cannot read capture initramfs '%s': %s", p->initramfs,
			  strerror(-r));
	if (r < 0) {
		close(fd);
		return r;
	}
	*ret_fd = fd;
	return 0;
}

/*
 * A set that cannot fit the reservation is refused here: the kernel would
 * refuse it too, but only after it has dropped the loaded capture kernel,
 * which then has to be loaded again.  One that fits but leaves the capture
 * less than it needs is a warning.
 */
static int check_fits(struct cli *cli, const struct plan *p, int kfd, int ifd,
		      unsigned long long reserved)
{
	struct estimate e;

	if (plan_estimate(p, kfd, ifd, &e) < 0)
		return 0;
	if (e.kernel + e.initramfs > reserved) {
		log_error(cli, "cannot load capture kernel '%s' with initramfs '%s': they take %llu MiB in memory (the kernel's init_size %llu MiB, the initramfs %llu MiB), more than the %llu MiB crashkernel= reserves: raise crashkernel= and reboot, or use a smaller initramfs",
			  p->kernel, p->initramfs,
			  (e.kernel + e.initramfs) >> 20, e.kernel >> 20,
			  e.initramfs >> 20, reserved >> 20);
		return -E2BIG;
	}
	if (reserved < e.needed)
		fprintf(stderr,
			"kdump-file: warning: the crashkernel= reservation (%llu MiB) is smaller than the %llu MiB the capture needs: it may run out of memory and save nothing (see 'kdump-file estimate')\n",
			reserved >> 20, (e.needed + (1ULL << 20) - 1) >> 20);
	return 0;
}

/*
 * makedumpfile's threads, chosen again from the files loaded now (the
 * plan's were those found before a rebuild); an explicit request the
 * reservation cannot hold is cut, and said once.
 */
static int load_threads(struct cli *cli, struct plan *p, int kfd, int ifd)
{
	char warning[512];
	int r;

	r = plan_threads(p, kfd, ifd);
	if (r < 0) {
		log_error(cli, "%s", diag_text(&p->diag));
		return r;
	}
	if (estimate_threads_warning(&p->threads, warning,
				     sizeof(warning)) > 0)
		fprintf(stderr, "kdump-file: warning: %s\n", warning);
	return 0;
}

/*
 * What the network target must have room for: the capture refuses to begin
 * a vmcore that would leave less than min_free_mb free, so less than that
 * now means no dump would be saved.
 */
static unsigned long long net_check_bytes(const struct plan *p)
{
	return p->conf.min_free_mb << 20;
}

/* An ssh target: the collector takes our key and has room. */
static int net_check_ssh(struct cli *cli, const struct plan *p)
{
	_cleanup_free_ struct net_ssh_result *res = NULL;
	char request[64];
	int r;

	res = calloc(1, sizeof(*res));
	if (!res)
		return -ENOMEM;
	snprintf(request, sizeof(request), "check %llu", net_check_bytes(p));
	r = net_ssh_run(&p->conf, NET_CHECK_CONNECT_TIMEOUT, request, res);
	if (r < 0) {
		log_error(cli, "cannot check dump target %s: cannot run ssh: %s",
			  p->conf.target, r == -ENOENT ?
			  "it is not installed (install openssh-client)" :
			  strerror(-r));
		return r;
	}
	switch (res->outcome) {
	case NET_SSH_OK:
		return 0;
	case NET_SSH_UNREACHABLE:
		log_error(cli, "dump target %s: the collector %s:%u does not answer (%s): check that it is up, reachable from here, and that sshd listens on port %u",
			  p->conf.target, p->conf.net_host, p->conf.net_port,
			  res->line, p->conf.net_port);
		return -EHOSTUNREACH;
	case NET_SSH_HOST_KEY:
		log_error(cli, "dump target %s: the host key of %s no longer matches the one pinned by 'kdump-file propagate' (%s): find out why it changed, then run 'kdump-file propagate --repin'",
			  p->conf.target, p->conf.net_host, res->line);
		return -EKEYREJECTED;
	case NET_SSH_DENIED:
		log_error(cli, "dump target %s: %s does not accept this machine's key %s (%s): run 'kdump-file propagate'",
			  p->conf.target, p->conf.net_host, p->conf.ssh_key,
			  res->line);
		return -EACCES;
	case NET_SSH_COLLECTOR:
		log_error(cli, "dump target %s: the collector says: %s",
			  p->conf.target, res->line);
		return -EIO;
	default:
		log_error(cli, "cannot check dump target %s with ssh: %s",
			  p->conf.target, res->line);
		return -EIO;
	}
}

/* Why an NFS mount failed, in words a user can act on. */
static const char *nfs_mount_hint(int r)
{
	switch (r) {
	case -ETIMEDOUT:
	case -EIO:
	case -ECONNREFUSED:
	case -EHOSTUNREACH:
		return "the server does not answer: check that it is up and its NFS service runs";
	case -EACCES:
	case -EPERM:
		return "the server does not export it to this machine: add this machine to its /etc/exports";
	case -ENOENT:
		return "the server has no such export: correct the path in 'target'";
	case -ENODEV:
	case -EPROTONOSUPPORT:
		return "this kernel or the server lacks that NFS version: set 'nfs_version'";
	default:
		return "check the server and the path in 'target'";
	}
}

/* An NFS target: the export mounts, the host dir is writable and has room. */
static int net_check_nfs(struct cli *cli, const struct plan *p)
{
	char ip[NET_IP_TEXT], dir[PATH_MAX];
	unsigned long long avail = 0;
	int r;

	net_ip_text(&p->net.collector, false, ip, sizeof(ip));
	r = net_nfs_mount(&p->conf, ip, true, false, dir, sizeof(dir));
	if (r < 0) {
		log_error(cli, "dump target %s: cannot mount %s:%s (NFSv%u, %s): %s: %s",
			  p->conf.target, p->conf.net_host, p->conf.net_path,
			  p->conf.nfs_version, ip, strerror(-r),
			  nfs_mount_hint(r));
		return r;
	}
	r = net_dir_check(dir, p->net.hostdir, net_check_bytes(p), &avail);
	net_nfs_unmount(dir);
	if (r == -ENOSPC)
		log_error(cli, "dump target %s: only %llu MiB free for %s, less than min_free_mb = %llu MiB: free space on the server or lower min_free_mb",
			  p->conf.target, avail >> 20, p->net.hostdir,
			  p->conf.min_free_mb);
	else if (r < 0)
		log_error(cli, "dump target %s: cannot write into %s on the export: %s%s",
			  p->conf.target, p->net.hostdir, strerror(-r),
			  r == -EACCES || r == -EPERM || r == -EROFS ?
			  " (export it read-write, without root squashing for this machine)" : "");
	return r;
}

/*
 * A network target is checked as the capture will use it, before the
 * load: a collector that does not answer, or takes no dump, is said now
 * and not found out after a crash.
 */
static int net_check(struct cli *cli, const struct plan *p)
{
	if (p->conf.net == CONF_NET_SSH)
		return net_check_ssh(cli, p);
	if (p->conf.net == CONF_NET_NFS)
		return net_check_nfs(cli, p);
	return 0;
}

/* Every check before the syscall: a refused input leaves the kernel alone. */
/*
 * Name to the kernel the LUKS device whose volume key it hands to the
 * crash kernel (or none): it copies the key at kexec_file_load(2).
 */
static int load_crypt_key(struct cli *cli, const struct plan *p)
{
	char dev[32];
	int r;

	r = plan_crypt_select(p, dev, sizeof(dev));
	if (r == -ENOKEY)
		log_error(cli, "cannot hand the volume key of LUKS device %s to the capture kernel: the kernel has no valid key for it (a suspended device: cryptsetup luksResume it)",
			  dev);
	else if (r == -EOPNOTSUPP)
		log_error(cli, "cannot hand the volume key of LUKS device %s to the capture kernel: this kernel cannot (an integrity mode, or no /sys/kernel/crash_dm_crypt_device)",
			  dev);
	else if (r < 0)
		log_error(cli, "cannot hand the volume key of LUKS device %s to the capture kernel: /sys/kernel/crash_dm_crypt_device: %s",
			  dev, strerror(-r));
	return r;
}

static int prepare_load(struct cli *cli, struct plan *p,
			unsigned long long reserved, int *ret_kfd, int *ret_ifd,
			bool *ret_net)
{
	int kfd = -1, ifd = -1, r;

	r = open_capture_kernel(cli, p, &kfd);
	if (r >= 0)
		r = check_boot_files(cli, p);
	/* The collector first: a build takes minutes, a refusal seconds. */
	if (r >= 0) {
		r = net_check(cli, p);
		*ret_net = r < 0;
	}
	if (r >= 0)
		r = ensure_initramfs(cli, p, false);
	if (r >= 0)
		r = open_capture_initramfs(cli, p, &ifd);
	if (r >= 0)
		r = check_fits(cli, p, kfd, ifd, reserved);
	if (r >= 0)
		r = load_crypt_key(cli, p);
	if (r >= 0)
		r = load_threads(cli, p, kfd, ifd);
	if (r < 0) {
		if (ifd >= 0)
			close(ifd);
		if (kfd >= 0)
			close(kfd);
		return r;
	}
	*ret_kfd = kfd;
	*ret_ifd = ifd;
	return 0;
}

/* The kernel refused the set: why, in words a user can act on. */
static void load_refused(struct cli *cli, const struct plan *p, int kfd,
			 int ifd, unsigned long long reserved, int r)
{
	char lockdown[4096] = "", why[1024], crypt_key[160] = "";
	struct kexec_context ctx;
	struct estimate e;

	/* Errors the key's hand-over shares with the rest of the load. */
	for (unsigned int i = 0; p->chain_known && i < p->chain.n_crypts; i++)
		if (p->chain.crypts[i].key == DEVCHAIN_KEY_KERNEL &&
		    (r == -ENOKEY || r == -EINVAL || r == -ENODEV ||
		     r == -EOPNOTSUPP))
			snprintf(crypt_key, sizeof(crypt_key), "%s",
				 p->chain.crypts[i].name);

	fill_context(&ctx, p, kfd, reserved, lockdown, sizeof(lockdown));
	if (plan_estimate(p, kfd, ifd, &e) == 0)
		ctx.needed = e.needed;
	kexec_explain(-r, &ctx, why, sizeof(why));
	log_error(cli, "cannot load capture kernel '%s' with initramfs '%s': kexec_file_load: %s: %s%s%s%s",
		  p->kernel, p->initramfs, strerror(-r), why,
		  crypt_key[0] ? " (or the kernel could not hand over the volume key of LUKS device " : "",
		  crypt_key, crypt_key[0] ? ": the kernel log says which)" : "");
}

/*
 * What a crash now would write, said at load rather than learnt after the
 * crash; a warning, never a failure.  Not in kdump-file's own units: their
 * "kdump-file mem-usage" said it before load, with the privileges to look
 * at a dump target nothing mounts, which this sandbox lacks.
 */
static void load_warn_dump(struct cli *cli, const struct plan *p)
{
	const char *unit = getenv("KDUMP_FILE_UNIT");

	if (unit && unit[0])
		return;
	(void)dump_warnings(cli, &p->conf);
}

/* The kernel took the set: check, record it, and say so. */
static int load_done(struct cli *cli, const struct plan *p,
		     unsigned long long reserved)
{
	char pstore[sizeof(p->pstore)];
	unsigned long long loaded = 0;
	int r;

	r = read_ull_file(SYS_CRASH_LOADED, &loaded);
	if (r < 0 || loaded != 1) {
		log_error(cli, "the kernel accepted capture kernel '%s' but %s does not read 1",
			  p->kernel, SYS_CRASH_LOADED);
		return -EIO;
	}
	r = write_state(p);
	if (r < 0)
		log_error(cli, "capture kernel loaded, but cannot record it in %s/loaded: %s",
			  RUN_DIR, strerror(-r));
	/*
	 * The backend by its module's name, without show's " (built in)";
	 * only for the initramfs kdump-file builds, whose capture program
	 * loads it and writes the record: one set in the configuration may
	 * do neither.
	 */
	snprintf(pstore, sizeof(pstore), "%.*s",
		 p->initramfs_managed ? (int)strcspn(p->pstore, " ") : 0,
		 p->pstore);
	r = write_armed(p->kernel, pstore);
	if (r < 0)
		log_error(cli, "capture kernel loaded, but cannot record it in %s: %s (a lost crash will not be reported)",
			  ARMED_FILE, strerror(-r));
	log_info(cli, "capture kernel %s loaded (initramfs %s, %llu MiB reserved)",
		 p->kernel, p->initramfs, reserved >> 20);
	return 0;
}

/*
 * In kdump-file's units (KDUMP_FILE_UNIT), the sandbox kdump-file-generator
 * made for the configuration at the last daemon-reload (SANDBOX_ENV) must
 * be the one a network target in it needs now: otherwise the load would
 * see no route to the collector, and say that instead of the cause.
 */
static int check_unit_sandbox(struct cli *cli, const struct kdump_conf *c)
{
	const char *unit = getenv("KDUMP_FILE_UNIT"), *have = getenv(SANDBOX_ENV);
	char want[sizeof(((struct sandbox *)0)->allow) + 16];
	struct sandbox s;

	if (!unit || !unit[0] || c->net == CONF_NET_NONE)
		return 0;
	sandbox_for(c, "/etc/hosts", &s);
	if (sandbox_tag(&s, want, sizeof(want)) < 0 ||
	    (have && strcmp(have, want) == 0))
		return 0;
	log_error(cli, "cannot reach dump target %s from %s: it needs the network sandbox '%s', and %s runs with '%s', made for the configuration at the last daemon-reload: run 'systemctl daemon-reload', then 'systemctl restart %s'",
		  c->target, unit, want, unit, have ? have : SANDBOX_LOCAL,
		  unit);
	return -ENETDOWN;
}

/* Errors of reaching the collector that the network coming up can end. */
static bool net_transient(int r)
{
	switch (r) {
	case -EKEYREJECTED:	/* the pinned host key: never by itself */
	case -EMEDIUMTYPE:	/* an interface the capture cannot use */
	case -ENOSPC:
	case -ENOMEM:
	case -ENAMETOOLONG:
	case -EINVAL:
		return false;
	default:
		return true;
	}
}

int load_capture(struct cli *cli, bool after_hotplug, bool *ret_net)
{
	struct previous prev = { .kfd = -1, .ifd = -1 };
	unsigned long long reserved = 0;
	bool loaded_new = false, net = false;
	const struct kdump_conf *c;
	struct plan *p;
	int lock_fd = -1, kfd = -1, ifd = -1, r;

	if (ret_net)
		*ret_net = false;
	r = read_reservation(cli, &reserved);
	if (r < 0)
		return r;
	/*
	 * A dump left on the raw device comes out before a capture kernel
	 * that could be needed goes in (the capture keeps an unrecovered
	 * dump, so a crash before it was copied would be lost).  Its failure
	 * is said, and the load goes on: protection first.  A configuration
	 * that does not parse is left for make_plan() to report, once.
	 */
	if (cli_config(cli, &c) == 0) {
		if (c->raw[0])
			(void)recover_raw(cli);
		r = check_unit_sandbox(cli, c);
		if (r < 0) {
			say_loaded_now(cli, false);
			return r;
		}
	}
	/* Made again on each try: the network may have come up. */
	cli_plan_forget(cli);
	r = make_plan(cli, true, &p);
	if (r < 0) {
		if (ret_net)
			*ret_net = p && p->net_failed && net_transient(r);
		say_loaded_now(cli, false);
		return r;
	}
	r = take_lock(cli, after_hotplug, &lock_fd);
	if (r < 0)
		return r;
	record_lost_crash(cli, &p->conf);
	/* Before a rebuild can replace the initramfs it was loaded with. */
	previous_open(&prev);
	/*
	 * After a hotplug, only kdump-file's own capture kernel is loaded
	 * again: never one that an unload, while this waited for the lock,
	 * took away, nor another tool's.
	 */
	if (after_hotplug && !prev.known) {
		r = 1;
		goto out;
	}
	r = prepare_load(cli, p, reserved, &kfd, &ifd, &net);
	if (r < 0) {
		if (ret_net)
			*ret_net = net && net_transient(r);
		goto out;
	}
	r = kexec_crash_load(kfd, ifd, p->cmdline);
	if (r < 0) {
		load_refused(cli, p, kfd, ifd, reserved, r);
		previous_restore(cli, &prev);
		goto out;
	}
	r = load_done(cli, p, reserved);
	if (r < 0)
		goto out;
	loaded_new = true;
	load_warn_dump(cli, p);
	r = load_panic_on(cli, p->conf.panic_on);
out:
	if (r < 0 && !loaded_new)
		say_loaded_now(cli, prev.restored);
	previous_close(&prev);
	if (ifd >= 0)
		close(ifd);
	if (kfd >= 0)
		close(kfd);
	close(lock_fd);
	return r;
}

/*
 * What the last load that left nothing loaded said (LOAD_FAILED_FILE: its
 * time, the failure, then all it said): status says the failure first.
 * Gone with a load that succeeds, and an unload.
 */
static void record_load_failure(int r, const char *error, const char *text)
{
	unsigned long long loaded = 0;
	char buf[8192 + 64];
	int n;

	if (r >= 0 || (read_ull_file(SYS_CRASH_LOADED, &loaded) == 0 &&
		       loaded == 1)) {
		(void)unlink(LOAD_FAILED_FILE);
		return;
	}
	n = snprintf(buf, sizeof(buf), "%lld\n%s\n%s", (long long)time(NULL),
		     error, text);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(buf))
		n = sizeof(buf) - 1;
	if (mkdir_p(RUN_DIR, 0700) >= 0)
		(void)write_file_atomic(LOAD_FAILED_FILE, buf, n, 0600);
}

/*
 * load and reload.  In kdump-file's units (KDUMP_FILE_UNIT), a network
 * target's collector that does not answer yet is tried again every
 * LOAD_RETRY_SECONDS for net_load_wait seconds: at boot the unit starts
 * once network-online.target is reached, which promises an address, not
 * the collector.  What a try said is held until it is known to be the
 * last: one line a minute says the wait, and the last try's messages are
 * the failure's.
 */
#define LOAD_RETRY_SECONDS 5
static long long now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

int load_retrying(struct cli *cli)
{
	const char *unit = getenv("KDUMP_FILE_UNIT");
	char reason[sizeof(cli->held.first_line)], said[sizeof(reason)] = "";
	char error[sizeof(reason)];
	long long start = now_seconds(), last_said = 0;
	unsigned int wait = 0, n;
	const struct kdump_conf *c;
	char *text;
	int r;

	if (unit && unit[0] && cli_config(cli, &c) == 0 &&
	    c->net != CONF_NET_NONE)
		wait = c->net_load_wait;
	for (n = 1;; n++) {
		bool net = false;
		long long waited;

		log_hold(cli);
		r = load_capture(cli, false, &net);
		waited = now_seconds() - start;
		if (r >= 0 || !net || waited + LOAD_RETRY_SECONDS > wait)
			break;
		snprintf(reason, sizeof(reason), "%s", log_held_error(cli));
		log_release(cli, false);
		if (strcmp(reason, said) != 0 || waited - last_said >= 60) {
			log_info(cli, "waiting for the collector, %lld s of net_load_wait = %u s so far (try %u): %s",
				 waited, wait, n, reason);
			snprintf(said, sizeof(said), "%s", reason);
			last_said = waited;
		}
		sleep(LOAD_RETRY_SECONDS);
	}
	text = strdup(log_held(cli));
	snprintf(error, sizeof(error), "%s", log_held_error(cli));
	log_release(cli, true);
	record_load_failure(r, error, text ? text : "");
	free(text);
	if (r >= 0 && n > 1)
		log_info(cli, "the collector answered after %lld s (try %u)",
			 now_seconds() - start, n);
	else if (r < 0 && n > 1)
		log_stderr(cli, "gave up after %lld s and %u tries (net_load_wait = %u s)",
			   now_seconds() - start, n, wait);
	return r;
}

int unload_capture(struct cli *cli)
{
	unsigned long long loaded = 0;
	int lock_fd, r;

	r = take_lock(cli, false, &lock_fd);
	if (r < 0)
		return r;
	r = kexec_crash_unload();
	if (r < 0) {
		log_error(cli, "cannot unload the capture kernel: kexec_file_load: %s%s",
			  strerror(-r),
			  r == -EPERM ? " (run as root)" : "");
		goto out;
	}
	(void)unlink(RUN_DIR "/loaded");
	(void)unlink(LOAD_FAILED_FILE);
	/* Unloaded: a boot that ends now has no capture to lose. */
	(void)unlink(ARMED_FILE);
	if (read_ull_file(SYS_CRASH_LOADED, &loaded) == 0 && loaded) {
		log_error(cli, "the capture kernel is still loaded after unloading (%s reads 1)",
			  SYS_CRASH_LOADED);
		r = -EIO;
		goto out;
	}
	log_info(cli, "capture kernel unloaded");
	r = unload_panic_on(cli);
out:
	close(lock_fd);
	return r;
}
