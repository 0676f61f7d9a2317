// SPDX-License-Identifier: GPL-2.0
/*
 * What the verbs share (see cli.h): the option globals, the messages, the
 * configuration and plan as a verb makes them, the lock, the dump store's
 * place.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <systemd/sd-id128.h>

#include "cli.h"
#include "dump.h"
#include "estimate.h"
#include "json.h"
#include "panicon.h"
#include "record.h"
#include "target.h"
#include "target-mount.h"
#include "textfilter.h"
#include "util.h"

void cli_init(struct cli *cli)
{
	memset(cli, 0, sizeof(*cli));
	cli->opt.config = CONF_PATH_DEFAULT;
	cli->verb = "kdump-file";
}

void cli_done(struct cli *cli)
{
	free(cli->conf);
	cli->conf = NULL;
	cli_plan_forget(cli);
}

/*
 * Messages go to stderr, or into cli->held while held (log_hold()): a load
 * that is tried again keeps its messages until it knows whether they are
 * the last word.
 */
#define LOG_ERROR_PREFIX "kdump-file: error: "

static void log_vline(struct cli *cli, const char *prefix, const char *fmt,
		      va_list ap)
{
	size_t size = sizeof(cli->held.text);
	char msg[sizeof(cli->held.first_line)];
	int n;

	if (!cli->held.on) {
		fputs(prefix, stderr);
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
		return;
	}
	(void)text_vformat(msg, sizeof(msg), fmt, ap);
	if (!cli->held.first_line[0])
		memcpy(cli->held.first_line, msg, sizeof(msg));
	if (strcmp(prefix, LOG_ERROR_PREFIX) == 0 && !cli->held.first_error[0])
		memcpy(cli->held.first_error, msg, sizeof(msg));
	n = snprintf(cli->held.text + cli->held.len, size - cli->held.len,
		     "%s%s\n", prefix, msg);
	if (n < 0 || cli->held.len + n >= size) {
		/* Full: the last line ends the text all the same. */
		cli->held.len = size - 2;
		cli->held.text[cli->held.len++] = '\n';
		cli->held.text[cli->held.len] = '\0';
		return;
	}
	cli->held.len += n;
}

void log_error(struct cli *cli, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vline(cli, LOG_ERROR_PREFIX, fmt, ap);
	va_end(ap);
}

void log_warning(struct cli *cli, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vline(cli, "kdump-file: warning: ", fmt, ap);
	va_end(ap);
}

void log_warnings(struct cli *cli, const struct diag *d)
{
	unsigned int i, kept;

	kept = d->n_warnings < DIAG_WARN_MAX ? d->n_warnings : DIAG_WARN_MAX;
	for (i = 0; i < kept; i++)
		log_warning(cli, "%s", d->warnings[i]);
	if (d->n_warnings > kept)
		log_warning(cli, "%u more warnings not shown",
			    d->n_warnings - kept);
}

void log_stderr(struct cli *cli, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vline(cli, "kdump-file: ", fmt, ap);
	va_end(ap);
}

void log_hold(struct cli *cli)
{
	cli->held.on = true;
	cli->held.len = 0;
	cli->held.text[0] = '\0';
	cli->held.first_error[0] = '\0';
	cli->held.first_line[0] = '\0';
}

const char *log_held(const struct cli *cli)
{
	return cli->held.text;
}

const char *log_held_error(const struct cli *cli)
{
	return cli->held.first_error[0] ? cli->held.first_error :
					  cli->held.first_line;
}

void log_release(struct cli *cli, bool print)
{
	cli->held.on = false;
	if (print)
		fputs(cli->held.text, stderr);
	cli->held.len = 0;
	cli->held.text[0] = '\0';
	cli->held.first_error[0] = '\0';
	cli->held.first_line[0] = '\0';
}

void log_info(const struct cli *cli, const char *fmt, ...)
{
	va_list ap;

	if (cli->opt.quiet)
		return;
	fputs("kdump-file: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/*
 * /run/kdump-file and what is below it are root's alone (mode 0700): for
 * anyone else, EACCES there means the command needs root, which is what
 * the user can act on.
 */
int log_create_error(struct cli *cli, const char *what, const char *path,
		     int r)
{
	if ((r == -EACCES || r == -EPERM) && geteuid() != 0)
		log_error(cli, "'%s' must be run as root (cannot %s %s: %s)",
			  cli->verb, what, path, strerror(-r));
	else
		log_error(cli, "cannot %s %s: %s", what, path, strerror(-r));
	return r;
}

int cli_config(struct cli *cli, const struct kdump_conf **ret)
{
	if (!cli->conf) {
		cli->conf = calloc(1, sizeof(*cli->conf));
		if (!cli->conf)
			return -ENOMEM;
		cli->conf_r = conf_load_or_default(cli->conf, cli->opt.config,
						   &cli->conf_err);
	}
	*ret = cli->conf;
	return cli->conf_r;
}

int load_config(struct cli *cli, const struct kdump_conf **ret)
{
	const char *path = cli->opt.config;
	const struct diag *err = &cli->conf_err;
	int r;

	r = cli_config(cli, ret);
	if (r == -ENOMEM && !cli->conf)
		log_error(cli, "cannot read configuration '%s': %s", path,
			  strerror(-r));
	else if (r < 0)
		log_error(cli, "%s", diag_text(err));
	return r;
}

void cli_plan_forget(struct cli *cli)
{
	free(cli->plan);
	cli->plan = NULL;
	cli->plan_said = false;
}

int cli_plan(struct cli *cli, bool create, struct plan **ret)
{
	const struct plan_input in = {
		.config = cli->opt.config, .kver = cli->opt.kver,
		.create = create,
	};
	const struct kdump_conf *c;
	int r;

	*ret = NULL;
	if (cli->plan && (cli->plan_create || !create)) {
		*ret = cli->plan;
		return cli->plan_r;
	}
	r = cli_config(cli, &c);
	if (r < 0)
		return r;
	cli_plan_forget(cli);
	/* About 160 KiB of paths and command lines: never on the stack. */
	cli->plan = calloc(1, sizeof(*cli->plan));
	if (!cli->plan)
		return -ENOMEM;
	cli->plan_create = create;
	cli->plan_r = plan_make(cli->plan, c, &in);
	*ret = cli->plan;
	return cli->plan_r;
}

int make_plan(struct cli *cli, bool create, struct plan **ret)
{
	struct plan *p;
	int r;

	r = load_config(cli, &(const struct kdump_conf *){ NULL });
	if (r < 0)
		return r;
	r = cli_plan(cli, create, &p);
	*ret = p;
	if (!p)
		return r;
	/* Said once for each plan made. */
	if (cli->plan_said)
		return r;
	cli->plan_said = true;
	log_warnings(cli, &p->diag);
	/* load, rebuild and setup make the dump directory: root's work. */
	if (create && (r == -EACCES || r == -EPERM) && geteuid() != 0)
		log_error(cli, "'%s' must be run as root (%s)", cli->verb,
			  diag_failed(&p->diag) ? diag_text(&p->diag) :
						  strerror(-r));
	else if (r < 0 && p->diag.msg[0])
		log_error(cli, "%s", p->diag.msg);
	else if (r < 0)
		log_error(cli, "cannot plan the load from %s: %s",
			  cli->opt.config, strerror(-r));
	return r;
}

int check_dump_base(struct cli *cli, const char *base)
{
	struct diag d = DIAG_INIT;
	int r;

	r = plan_check_dump_base(base, cli->opt.config, &d);
	/* A missing one is the caller's to say. */
	if (r < 0 && r != -ENOENT)
		log_error(cli, "%s", diag_text(&d));
	return r;
}

int open_regular_fd(struct cli *cli, const char *what, const char *path,
		    int fd, int r, int *ret_fd)
{
	struct stat st;

	if (r < 0) {
		log_error(cli, "cannot open %s '%s': %s%s%s%s", what, path,
			  strerror(-r), r == -ENOENT ? " (set it in " : "",
			  r == -ENOENT ? cli->opt.config : "",
			  r == -ENOENT ? ")" : "");
		return r;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
		log_error(cli, "%s '%s' is not a non-empty regular file", what,
			  path);
		close(fd);
		return -EINVAL;
	}
	*ret_fd = fd;
	return 0;
}

int open_regular(struct cli *cli, const char *what, const char *path,
		 int *ret_fd)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);

	return open_regular_fd(cli, what, path, fd, fd < 0 ? -errno : 0,
			       ret_fd);
}

int mount_target_at(const char *dev, const char *fstype, const char *where,
		    bool writable)
{
	struct stat st;
	int r;

	/* RUN_DIR is root's alone: nobody else can put a link there. */
	r = mkdir_p(where, 0700);
	if (r < 0)
		return r;
	if (lstat(where, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != 0 || (st.st_mode & 0077))
		return -EPERM;
	/* btrfs: the top level, where the capture writes (subvolid=5). */
	if (mount(dev, where, fstype, (writable ? 0 : MS_RDONLY) |
		  MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  strcmp(fstype, "btrfs") == 0 ? "subvolid=5" : NULL) < 0)
		return -errno;
	return 0;
}

/*
 * A dump target that nothing mounts here: mounted by this process alone,
 * in a mount namespace of its own (nobody else sees it; it goes when the
 * process ends), read-only unless writable.  Once a run.  The
 * report unit may not mount (no CAP_SYS_ADMIN, no @mount): its privileged
 * step mounts the target first (REPORT_TARGET_DIR), which
 * target_mountpoint() then finds.
 */
static int mount_target_private(struct cli *cli, const char *dev,
				const char *fstype, char *ret, size_t size)
{
	const char *where = RUN_DIR "/target";
	int r;

	if (!cli->private_mount[0]) {
		if (geteuid() != 0)
			return -EPERM;
		if (unshare(CLONE_NEWNS) < 0 ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
			return -errno;
		r = mount_target_at(dev, fstype, where, cli->writable);
		if (r < 0)
			return r;
		snprintf(cli->private_mount, sizeof(cli->private_mount), "%s",
			 where);
	}
	return snprintf(ret, size, "%s", cli->private_mount) >= (int)size ?
		       -ENAMETOOLONG : 0;
}

bool dumps_mounted_privately(const struct cli *cli)
{
	return cli->private_mount[0] != '\0';
}

int dumps_base(struct cli *cli, const struct kdump_conf *c, char *ret,
	       size_t size)
{
	char dev[PATH_MAX], mnt[PATH_MAX], fstype[64] = "";
	int r;

	/* On the collector: status reads them there (verb-status.c, store.c). */
	if (c->net != CONF_NET_NONE)
		return -EREMOTE;
	if (!c->target[0] && !c->raw[0]) {
		snprintf(ret, size, "%s", c->path);
		return 0;
	}
	if (!c->target[0]) {
		/* raw: "kdump-file recover" brings dumps into path. */
		snprintf(ret, size, "%s", c->path);
		return 0;
	}
	r = target_find_device(c->target, dev, sizeof(dev), fstype,
			       sizeof(fstype));
	/*
	 * The report unit's own mount first: it is the one its sandbox
	 * leaves writable, wherever else the target is mounted.
	 */
	if (r >= 0 && target_mounted_at(dev, REPORT_TARGET_DIR) == 1)
		snprintf(mnt, sizeof(mnt), "%s", REPORT_TARGET_DIR);
	else if (r >= 0)
		r = target_mountpoint(dev, mnt, sizeof(mnt));
	if (r == -ENOENT && fstype[0])
		r = mount_target_private(cli, dev, fstype, mnt, sizeof(mnt));
	if (r < 0)
		return r;
	if (strcmp(c->path, "/") == 0)
		snprintf(ret, size, "%s", mnt);
	else
		snprintf(ret, size, "%s%s", strcmp(mnt, "/") ? mnt : "", c->path);
	return 0;
}

/* The newest dump's and newest complete dump's times, as dump_scan(). */
int dump_times(struct cli *cli, const struct kdump_conf *c,
	       long long *ret_newest, long long *ret_complete)
{
	char base[PATH_MAX];
	int r;

	r = dumps_base(cli, c, base, sizeof(base));
	if (r < 0)
		return r;
	r = dump_scan(base, ret_newest, ret_complete);
	if (r == -ENOENT) {
		*ret_newest = *ret_complete = -1;
		return 0;
	}
	return r;
}

int take_lock(struct cli *cli, bool wait, int *ret_fd)
{
	int r;

	r = mkdir_p(RUN_DIR, 0700);
	if (r < 0)
		return log_create_error(cli, "create", RUN_DIR, r);
	/*
	 * A reload after hotplug waits for a load under way: that load may
	 * have read the CPUs and memory before the hotplug.
	 */
	r = lock_file(RUN_DIR "/lock", wait, ret_fd);
	if (r == -EBUSY)
		log_error(cli, "another kdump-file is loading or unloading the capture kernel (busy): try again when it has finished");
	else if (r < 0)
		log_create_error(cli, "lock", RUN_DIR "/lock", r);
	return r;
}

const char *const pstore_dirs[] = {
	"/sys/fs/pstore", "/var/lib/systemd/pstore", NULL,
};

/* What status and the journal say of a lost crash: the record's reason if any. */
int lost_text(const struct armed *a, char *buf, size_t size)
{
	struct capture_record rec;
	size_t n;

	if (record_find(pstore_dirs, a->time, &rec) < 0)
		return lost_describe(a, buf, size);
	if (!rec.after_boot)
		return record_describe(&rec, buf, size) == 0 ? 0 :
			lost_describe(a, buf, size);
	/*
	 * A record from the future says nothing of this crash: what the
	 * marker knows first, then what the record claims, not trusted.
	 */
	if (lost_describe(a, buf, size) < 0)
		return -ENOBUFS;
	n = strlen(buf);
	if (n + 2 < size) {
		memcpy(buf + n, "; ", 3);
		(void)record_describe(&rec, buf + n + 2, size - n - 2);
	}
	return 0;
}

/* "oops (kernel.panic_on_oops=1), warn (kernel.panic_on_warn=1)" */
void panic_on_list(unsigned int mask, char *buf, size_t size)
{
	size_t pos = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < PANIC_ON_COUNT && pos < size; i++)
		if (mask & (1U << i))
			pos += snprintf(buf + pos, size - pos, "%s%s (%s=1)",
					pos ? ", " : "", conf_panic_on_name(i),
					panicon_sysctl(i));
}

struct json_object *cli_panic_on_json(unsigned int mask)
{
	struct json_object *a = json_object_new_array();

	for (unsigned int i = 0; a && i < PANIC_ON_COUNT; i++) {
		struct json_object *w;

		if (!(mask & (1U << i)))
			continue;
		w = json_text(conf_panic_on_name(i));
		if (!w || json_object_array_add(a, w)) {
			json_object_put(w);
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}

double mib_f(unsigned long long b)
{
	return b / 1048576.0;
}

char *format_bytes(unsigned long long bytes, char *buf, size_t size)
{
	static const char *const units[] = {
		"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB",
	};
	double v = bytes;
	unsigned int u = 0;

	/* 1023.6 KiB would print as "1024 KiB": call it 1.0 MiB instead. */
	while (v >= 1023.5 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, size, "%llu B", bytes);
	else
		snprintf(buf, size, v < 9.95 ? "%.1f %s" : "%.0f %s", v,
			 units[u]);
	return buf;
}

int crashkernel_recommended(struct cli *cli, unsigned long long *ret_bytes)
{
	struct estimate e;
	struct plan *p;
	int kfd = -1, ifd = -1, r;

	/* Quietly: the verb that asks says its own errors. */
	r = cli_plan(cli, false, &p);
	if (r >= 0) {
		kfd = open(p->kernel, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		ifd = open(p->initramfs, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		r = kfd < 0 || ifd < 0 ? -ENOENT : 0;
	}
	/* As setup measures it (verb-setup.c), so that both name one size. */
	if (r >= 0)
		r = plan_estimate(p, kfd, ifd, &e);
	if (ifd >= 0)
		close(ifd);
	if (kfd >= 0)
		close(kfd);
	if (r < 0)
		return r;
	*ret_bytes = e.recommended;
	return 0;
}

int threads_current(struct cli *cli, struct threads_choice *ret)
{
	struct plan *p;
	int r;

	/* plan_make() chooses them from the files it finds. */
	r = cli_plan(cli, false, &p);
	if (r < 0)
		return r;
	*ret = p->threads;
	return 0;
}

void crashkernel_advice(struct cli *cli, char *buf, size_t size)
{
	unsigned long long want;

	if (crashkernel_recommended(cli, &want) == 0)
		snprintf(buf, size, "run 'kdump-file setup' and reboot, or add crashkernel=%lluM to the kernel command line (as 'kdump-file estimate' recommends)",
			 want >> 20);
	else
		snprintf(buf, size, "run 'kdump-file setup' and reboot: it measures the capture and reserves crashkernel= to fit");
}

int dropin_reservation(char *value, size_t size,
			      unsigned long long *ret_bytes)
{
	char *text = NULL, *p, *end;
	unsigned long long v;
	int r;

	r = read_file_max(GRUB_DROPIN, &text, 4096);
	if (r < 0)
		return r;
	p = strstr(text, "crashkernel=");
	if (!p) {
		free(text);
		return -EBADMSG;
	}
	p += strlen("crashkernel=");
	snprintf(value, size, "%.*s", (int)strcspn(p, "\" \n"), p);
	errno = 0;
	v = strtoull(value, &end, 10);
	if (errno || end == value || (*end != 'M' && *end != 'G')) {
		free(text);
		return -EBADMSG;
	}
	*ret_bytes = v << (*end == 'G' ? 30 : 20);
	free(text);
	return 0;
}

int print_json(struct json_object *obj)
{
	_cleanup_free_ char *safe = NULL;
	const char *text;
	int r = 0;

	text = obj ? json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PRETTY |
						    JSON_C_TO_STRING_NOSLASHESCAPE) : NULL;
	/*
	 * json-c escapes C0 in strings but leaves DEL, the C1 controls
	 * (U+009B is a CSI) and bytes that are not UTF-8 as they are.
	 */
	if (text)
		safe = text_filter_json(text);
	if (!safe)
		r = -ENOMEM;
	else if (printf("%s\n", safe) < 0)
		r = -EIO;
	json_object_put(obj);
	return r;
}

struct json_object *cli_json_object(void)
{
	struct json_object *j = json_object_new_object();

	if (j && json_set_int(j, "schema", CLI_JSON_SCHEMA) < 0) {
		json_object_put(j);
		return NULL;
	}
	return j;
}

int cli_json_text(struct json_object *obj, const char *key, const char *s)
{
	if (!s || !s[0])
		return json_object_object_add(obj, key, NULL) ? -ENOMEM : 0;
	return json_set_text(obj, key, s);
}

int cli_json_int(struct json_object *obj, const char *key, long long v)
{
	if (v < 0)
		return json_object_object_add(obj, key, NULL) ? -ENOMEM : 0;
	return json_set_int(obj, key, v);
}

int cli_json_add(struct json_object *obj, const char *key,
		 struct json_object *v)
{
	if (!v)
		return -ENOMEM;
	if (json_object_object_add(obj, key, v)) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

const char *cli_dump_state(const struct dump_info *d)
{
	return dump_complete(d) ? "complete" :
	       d->has_dmesg ? "incomplete" : "failed";
}

struct json_object *cli_dump_json(const struct dump_info *d)
{
	struct json_object *o = json_object_new_object();
	char id[DUMP_ID_LEN + 1];
	const char *name = strrchr(d->dir, '/');
	int r = o ? 0 : -ENOMEM;

	/* The ID list shows: a hash of the directory's name. */
	dump_id(name ? name + 1 : d->dir, id);
	if (r == 0)
		r = json_set_text(o, "id", id);
	if (r == 0)
		r = json_set_text(o, "dir", d->dir);
	if (r == 0)
		r = json_set_text(o, "state", cli_dump_state(d));
	if (r == 0)
		r = json_set_bool(o, "dmesg_only", d->dmesg_only);
	if (r == 0)
		r = cli_json_int(o, "vmcore_bytes",
				 d->has_vmcore ? d->vmcore_bytes : -1);
	if (r == 0)
		r = cli_json_int(o, "crash_time", dump_time(d));
	if (r == 0)
		r = cli_json_text(o, "kernel_release", d->release);
	if (r == 0)
		r = cli_json_text(o, "signature", d->signature);
	if (r == 0)
		r = cli_json_text(o, "panic", d->panic);
	if (r == 0)
		r = cli_json_text(o, "error", d->error);
	if (r == 0)
		r = cli_json_text(o, "summary", d->summary);
	if (r < 0) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

const char *cli_closest(const char *word, const char *const *names, size_t n)
{
	const char *best = NULL;
	size_t best_d = 3;

	for (size_t i = 0; i < n; i++) {
		size_t d = edit_distance(word, names[i]);

		if (d < best_d && d < strlen(word)) {
			best = names[i];
			best_d = d;
		}
	}
	return best;
}

int cli_boot_id(char *buf, size_t size)
{
	sd_id128_t id;
	int r;

	if (size < SD_ID128_UUID_STRING_MAX)
		return -ENOBUFS;
	r = sd_id128_get_boot(&id);
	if (r < 0)
		return r;
	sd_id128_to_uuid_string(id, buf);
	return 0;
}
