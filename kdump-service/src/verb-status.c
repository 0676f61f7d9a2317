// SPDX-License-Identifier: GPL-2.0
/*
 * status: what is reserved, loaded and saved, and whether the machine is
 * protected.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "collector-copy.h"
#include "dump.h"
#include "expected.h"
#include "hotplug-state.h"
#include "json.h"
#include "netcheck.h"
#include "netdir.h"
#include "panicon.h"
#include "record.h"
#include "textfilter.h"
#include "util.h"

/* Whether img, the loaded initramfs, would be rebuilt by the next load. */
static const char *initramfs_state(struct cli *cli, const char *img)
{
	struct plan *p;

	if (make_plan(cli, false, &p) < 0 || strcmp(p->initramfs, img) != 0)
		return "not the configured one: reload to change";
	return plan_initramfs_state(p);
}

/* The ID list shows of the dump in dir. */
static void dir_id(const char *dir, char id[DUMP_ID_LEN + 1])
{
	const char *name = strrchr(dir, '/');

	dump_id(name ? name + 1 : dir, id);
}

static void print_dump(const char *label, const struct dump_info *d)
{
	char id[DUMP_ID_LEN + 1], size[FORMAT_BYTES_MAX];

	dir_id(d->dir, id);
	printf("%-13s %s %s: ", label, id, TEXT_SAFE(d->dir));
	if (d->has_vmcore)
		printf("complete, %s",
		       format_bytes(d->vmcore_bytes, size, sizeof(size)));
	else if (dump_complete(d))
		printf("complete, dmesg only (dump_level = dmesg: no vmcore)");
	else if (d->has_dmesg)
		printf("INCOMPLETE (dmesg saved, no vmcore%s%s%s)",
		       d->has_incomplete ? "; vmcore-incomplete left" : "",
		       d->error[0] ? ": " : "", TEXT_SAFE(d->error));
	else
		printf("FAILED (nothing saved)");
	if (d->panic[0])
		printf(", panic \"%s\"", TEXT_SAFE(d->panic));
	putchar('\n');
	if (d->summary[0])
		printf("%-13s %s\n", "report:", TEXT_SAFE(d->summary));
}

/*
 * What the last "kdump-file test" came to, into buf; false when none ran.
 * Passed when a complete dump from a crash at or after the test's time
 * exists, pending while the machine has not rebooted since, failed
 * otherwise.
 */
static bool test_line(const struct kdump_conf *c, const struct dump_info *last,
		      char *out, size_t size)
{
	char buf[512], id[64] = "", boot[64] = "", now_boot[64] = "";
	long long t = -1;

	if (read_line_file(TEST_FILE, buf, sizeof(buf)) < 0)
		return false;
	if (sscanf(buf, "id=%63s time=%lld boot=%63s", id, &t, boot) != 3) {
		snprintf(out, size, "unreadable record %s", TEST_FILE);
		return true;
	}
	(void)cli_boot_id(now_boot, sizeof(now_boot));
	if (strcmp(boot, now_boot) == 0)
		snprintf(out, size, "%s pending (the machine has not crashed yet)", id);
	else if (last && last->crash_time >= t && dump_complete(last))
		snprintf(out, size, "%s passed: dump %s", id, last->dir);
	else if (last && last->crash_time >= t)
		snprintf(out, size, "%s FAILED: dump %s is incomplete", id, last->dir);
	else
		snprintf(out, size, "%s FAILED: no dump in %s from the test crash",
			 id, c->path);
	return true;
}

/*
 * A crash lost: the armed marker of a boot that ended without a clean
 * shutdown and left no dump (before the next load records it), or the
 * record of one, until a complete dump at or after it exists.
 */
static bool lost_line(struct cli *cli, const struct kdump_conf *c, char *text,
		      size_t size)
{
	char marker[ARMED_TEXT_MAX], boot[64] = "";
	long long newest, complete;
	struct capture_record rec;
	struct armed a;
	bool seen;

	/* Dumps not seen: only the capture's own record tells. */
	seen = dump_times(cli, c, &newest, &complete) == 0;
	if (!seen)
		newest = complete = -1;
	(void)cli_boot_id(boot, sizeof(boot));
	if (!(read_line_file(ARMED_FILE, marker, sizeof(marker)) == 0 &&
	      crash_verdict(marker, boot, newest, &a) == CRASH_LOST) &&
	    !(read_line_file(LOST_FILE, marker, sizeof(marker)) == 0 &&
	      armed_parse(marker, &a) == 0 && lost_is_current(&a, complete)))
		return false;
	if (!seen && record_find(pstore_dirs, a.time, &rec) < 0)
		return false;
	return lost_text(&a, text, size) == 0;
}


/*
 * status: which of panic_on's crashes panic now, whoever set them, and
 * what the configuration asks for when it is not that.
 */
static int status_panic_on(const struct kdump_conf *c, bool loaded,
			   struct json_object *j)
{
	unsigned int set, present, want = c->panic_on;
	char text[1024], words[128];

	bool known;

	known = panicon_read(PANICON_SYSCTL_ROOT, &set, &present) == 0;
	if (j) {
		static const char *const keys[] = {
			"panic_on", "panic_on_configured", "panic_on_unavailable",
		};
		unsigned int masks[] = { set, want, want & ~present };

		for (unsigned int k = 0; k < 3; k++) {
			int m;

			/* What the sysctls say, null when they cannot be read. */
			if (known || k == 1)
				m = cli_json_add(j, keys[k], cli_panic_on_json(masks[k]));
			else
				m = json_object_object_add(j, keys[k], NULL) ?
					    -ENOMEM : 0;
			if (m < 0)
				return m;
		}
		return 0;
	}
	if (!known)
		return 0;
	if (set)
		panic_on_list(set, text, sizeof(text));
	else
		snprintf(text, sizeof(text), "none");
	printf("panic on:     %s", text);
	if (conf_panic_on_format(want & present & ~set, words, sizeof(words)) == 0 &&
	    (want & present & ~set)) {
		if (loaded)
			printf("; panic_on asks for %s too: run 'kdump-file reload'",
			       words);
		else
			printf("; panic_on = %s takes effect while a capture kernel is loaded",
			       words);
	}
	if (conf_panic_on_format(want & ~present, words, sizeof(words)) == 0 &&
	    (want & ~present))
		printf("; this kernel cannot panic on %s (no such detector)",
		       words);
	putchar('\n');
	return 0;
}

/* The reservation, this boot's and the next's, and whether one is loaded. */
static int status_reservation(struct cli *cli, struct json_object *j,
			      unsigned long long *ret_loaded)
{
	unsigned long long reserved = 0, loaded = 0, next = 0, want = 0;
	char dropin[32] = "", advice[256], size[FORMAT_BYTES_MAX];
	int m = 0, rs;

	rs = kexec_crash_size(&reserved);
	(void)read_ull_file(SYS_CRASH_LOADED, &loaded);
	*ret_loaded = loaded;
	if (j) {
		m = cli_json_int(j, "reservation_bytes",
				 rs == 0 ? (long long)reserved : -1);
		if (m == 0)
			m = json_set_bool(j, "loaded", loaded != 0);
		if (m == 0)
			m = cli_json_int(j, "next_boot_reservation_bytes",
					 dropin_reservation(dropin, sizeof(dropin),
							    &next) == 0 ?
					 (long long)next : -1);
		if (m == 0)
			m = cli_json_int(j, "recommended_reservation_bytes",
					 crashkernel_recommended(cli, &want) ==
					 0 ? (long long)want : -1);
		return m;
	}
	if (rs == -EBUSY) {
		printf("reservation:  unknown: %s stayed busy (a load, an unload or a hotplug update held the kexec lock): ask again\n",
		       SYS_CRASH_SIZE);
	} else if (rs < 0) {
		printf("reservation:  unknown: cannot read %s (%s)\n",
		       SYS_CRASH_SIZE, NO_KEXEC_HINT);
	} else if (reserved == 0) {
		crashkernel_advice(cli, advice, sizeof(advice));
		printf("reservation:  none (%s)\n", advice);
	} else {
		printf("reservation:  %s\n",
		       format_bytes(reserved, size, sizeof(size)));
	}
	if (dropin_reservation(dropin, sizeof(dropin), &next) == 0 &&
	    next != reserved)
		printf("setup:        crashkernel=%s is set for the next boot (%s): reboot to reserve it\n",
		       dropin, GRUB_DROPIN);
	if (loaded)
		printf("loaded:       yes\n");
	else if (reserved)
		printf("loaded:       no: a crash now is not captured (systemctl enable --now kdump-file, or kdump-file load)\n");
	else
		printf("loaded:       no\n");
	if (loaded && geteuid() != 0 && access(RUN_DIR "/loaded", R_OK) < 0)
		printf("kernel:       unknown: %s/loaded is root's (run status as root)\n",
		       RUN_DIR);
	return 0;
}

/*
 * What load recorded of the loaded set: printed, or as j's loaded_set
 * (null when nothing is loaded, or not by kdump-file, or the record is
 * root's).
 */
static int status_loaded_set(struct cli *cli, struct json_object *j,
			     bool loaded)
{
	char text[sizeof(struct loaded_state) + 64];
	struct loaded_state *s;
	struct json_object *set;
	int m;

	if (!loaded || read_line_file(RUN_DIR "/loaded", text, sizeof(text)) < 0)
		return j && json_object_object_add(j, "loaded_set", NULL) ?
			       -ENOMEM : 0;
	s = malloc(sizeof(*s));
	if (!s)
		return -ENOMEM;
	if (loaded_parse(text, s) < 0) {
		free(s);
		return j && json_object_object_add(j, "loaded_set", NULL) ?
			       -ENOMEM : 0;
	}
	if (!j) {
		printf("%-13s %s\n", "kernel", s->kernel);
		printf("%-13s %s", "initramfs", s->initramfs[0] ? s->initramfs : "none");
		if (s->initramfs[0])
			printf(" (%s)", initramfs_state(cli, s->initramfs));
		printf("\n%-13s %s\n", "cmdline", s->cmdline);
		free(s);
		return 0;
	}
	set = json_object_new_object();
	m = set ? 0 : -ENOMEM;
	if (m == 0)
		m = json_set_text(set, "kernel", s->kernel);
	if (m == 0)
		m = cli_json_text(set, "initramfs", s->initramfs);
	if (m == 0)
		m = cli_json_text(set, "initramfs_state", s->initramfs[0] ?
				  initramfs_state(cli, s->initramfs) : NULL);
	if (m == 0)
		m = json_set_text(set, "cmdline", s->cmdline);
	free(s);
	if (m < 0) {
		json_object_put(set);
		return m;
	}
	return cli_json_add(j, "loaded_set", set);
}

static int status_lockdown(struct json_object *j)
{
	char lockdown[128] = "";

	if (read_line_file("/sys/kernel/security/lockdown", lockdown,
			   sizeof(lockdown)) < 0)
		lockdown[0] = '\0';
	if (j)
		return cli_json_text(j, "lockdown", lockdown);
	if (!lockdown[0])
		return 0;
	printf("lockdown:     %s\n", lockdown);
	return 0;
}

/*
 * The last dump, into *d (*ret_have: there is one), or why there is none;
 * printed, or into j.
 */
static int status_last_dump(struct cli *cli, const struct kdump_conf *c,
			    struct json_object *j, struct dump_info *d,
			    bool *ret_have)
{
	char base[PATH_MAX], dir[PATH_MAX], line[PATH_MAX + 2048];
	int r, m = 0;

	*ret_have = false;
	r = dumps_base(cli, c, base, sizeof(base));
	if (r == 0 && dumps_mounted_privately(cli) && !j)
		printf("dump target:  %s, not mounted: read through a mount of this command's own\n",
		       c->target);
	if (r < 0) {
		snprintf(line, sizeof(line), "unknown: dump target %s %s",
			 c->target[0] ? c->target : c->raw,
			 r == -ENODEV ? "is not attached to this machine" :
			 "is not mounted here (mount it, or run status as root, to see its dumps)");
	} else {
		r = dump_find_last(base, dir, sizeof(dir));
		if (r == 0 && dump_inspect(dir, d) == 0) {
			*ret_have = true;
			if (!j) {
				print_dump("last dump:", d);
				return 0;
			}
		} else if (r == -EACCES || r == -EPERM) {
			snprintf(line, sizeof(line), "unknown: %s is root's alone (run status as root)",
				 base);
		} else {
			snprintf(line, sizeof(line), "none in %s", base);
		}
		r = 0;
	}
	if (!j) {
		printf("last dump:    %s\n", line);
		return 0;
	}
	/* The same keys whether there is a dump or not. */
	m = cli_json_text(j, "dump_dir", r == 0 ? base : NULL);
	if (m == 0)
		m = *ret_have ? cli_json_add(j, "last_dump", cli_dump_json(d)) :
			json_object_object_add(j, "last_dump", NULL) ? -ENOMEM : 0;
	if (m == 0)
		m = cli_json_text(j, "last_dump_note", *ret_have ? NULL : line);
	return m;
}

/* An ssh target's last dump, from the collector's own list. */
static int net_last_ssh(const struct kdump_conf *c, const char *hostdir,
			struct dump_info *d, char *note, size_t size)
{
	_cleanup_free_ struct net_ssh_result *res = NULL;
	struct net_list_entry e;
	int r;

	res = calloc(1, sizeof(*res));
	if (!res)
		return -ENOMEM;
	r = net_ssh_run(c, NET_STATUS_CONNECT_TIMEOUT, "list", res);
	if (r < 0) {
		snprintf(note, size, "unknown: cannot run ssh: %s",
			 strerror(-r));
		return r;
	}
	if (res->outcome == NET_SSH_UNREACHABLE) {
		snprintf(note, size, "unknown: the collector %s:%u does not answer (%s)",
			 c->net_host, c->net_port, res->line);
		return -EHOSTUNREACH;
	}
	if (res->outcome != NET_SSH_OK) {
		snprintf(note, size, "unknown: the collector %s does not list them: %s%s",
			 c->net_host, res->line,
			 res->outcome == NET_SSH_HOST_KEY ?
			 " ('kdump-file reload' says what to do)" :
			 res->outcome == NET_SSH_DENIED ?
			 " (run 'kdump-file propagate')" : "");
		return -EIO;
	}
	r = net_list_last(res->output, &e);
	if (r < 0) {
		snprintf(note, size, "none on %s in %s/%s", c->net_host,
			 c->net_path, hostdir);
		return r;
	}
	memset(d, 0, sizeof(*d));
	snprintf(d->dir, sizeof(d->dir), "%s:%s/%s/%s", c->net_host,
		 c->net_path, hostdir, e.name);
	d->crash_time = e.crash_time;
	d->has_metadata = true;
	/* A complete dump without bytes: dump_level = dmesg. */
	d->has_vmcore = e.complete && e.bytes > 0;
	d->dmesg_only = e.complete && e.bytes == 0;
	d->vmcore_bytes = e.complete ? e.bytes : 0;
	snprintf(d->panic, sizeof(d->panic), "%s", e.panic);
	collector_copy_details(collector_copy_dir(), e.name, d);
	return 0;
}

/* An NFS target's last dump, through a read-only mount of our own. */
static int net_last_nfs(const struct kdump_conf *c, const char *hostdir,
			struct dump_info *d, char *note, size_t size)
{
	char ip[NET_IP_TEXT], mnt[PATH_MAX];
	char base[PATH_MAX + 300], dir[PATH_MAX + 300];
	struct diag why = DIAG_INIT;
	struct net_ip a;
	int r;

	r = net_resolve_host(c->net_host, &a, &why);
	if (r < 0) {
		snprintf(note, size, "unknown: %s", diag_text(&why));
		return r;
	}
	net_ip_text(&a, false, ip, sizeof(ip));
	r = net_nfs_mount(c, ip, true, true, mnt, sizeof(mnt));
	if (r < 0) {
		snprintf(note, size, "unknown: cannot mount %s:%s: %s%s",
			 c->net_host, c->net_path, strerror(-r),
			 r == -EPERM && geteuid() != 0 ?
			 " (run status as root)" : "");
		return r;
	}
	snprintf(base, sizeof(base), "%s/%s", mnt, hostdir);
	r = dump_find_last(base, dir, sizeof(dir));
	if (r == 0)
		r = dump_inspect(dir, d);
	net_nfs_unmount(mnt);
	if (r < 0) {
		snprintf(note, size, "none in %s:%s/%s", c->net_host,
			 c->net_path, hostdir);
		return r;
	}
	/* Named where it lies, not where it was mounted for a moment. */
	snprintf(d->dir, sizeof(d->dir), "%s:%s/%s/%s", c->net_host,
		 c->net_path, hostdir, strrchr(dir, '/') + 1);
	collector_copy_details(collector_copy_dir(), strrchr(dir, '/') + 1, d);
	return 0;
}

/* Why a dump went to the fallback: its metadata's fallback_reason. */
static void fallback_reason(const char *dir, char *buf, size_t size)
{
	_cleanup_free_ char *text = NULL;
	struct json_object *o, *v;
	char p[PATH_MAX + 32];

	buf[0] = '\0';
	snprintf(p, sizeof(p), "%s/metadata.json", dir);
	if (read_file_max(p, &text, 1 << 20) < 0)
		return;
	o = json_tokener_parse(text);
	if (o && json_object_object_get_ex(o, "fallback_reason", &v) &&
	    json_object_is_type(v, json_type_string))
		snprintf(buf, size, "%s", json_object_get_string(v));
	json_object_put(o);
}

/*
 * status for a network target: where dumps go, the last one on the
 * collector (ssh: its list; NFS: a read-only mount), and the last one in
 * the local fallback directory with why it went there.  A collector that
 * does not answer is said, and is no failure of status.
 */
static int status_net(const struct kdump_conf *c, struct json_object *j,
		      struct dump_info *d, bool *ret_have)
{
	char hostdir[256] = "", note[PATH_MAX + 1024] = "", reason[512] = "";
	char fdir[PATH_MAX];
	struct dump_info *fb = NULL;
	bool have_fb = false;
	int r, m = 0;

	*ret_have = false;
	if (net_host_dir(hostdir, sizeof(hostdir)) < 0)
		snprintf(hostdir, sizeof(hostdir), "?");
	if (c->net == CONF_NET_SSH)
		r = net_last_ssh(c, hostdir, d, note, sizeof(note));
	else
		r = net_last_nfs(c, hostdir, d, note, sizeof(note));
	*ret_have = r == 0;
	if (c->fallback[0]) {
		fb = calloc(1, sizeof(*fb));
		if (!fb)
			return -ENOMEM;
		have_fb = dump_find_last(c->fallback, fdir, sizeof(fdir)) == 0 &&
			  dump_inspect(fdir, fb) == 0;
		if (have_fb)
			fallback_reason(fdir, reason, sizeof(reason));
	}
	if (!j) {
		printf("dump target:  dumps go to %s (host dir %s)\n",
		       c->target, hostdir);
		if (*ret_have)
			print_dump("last dump:", d);
		else
			printf("last dump:    %s\n", TEXT_SAFE(note));
		if (have_fb) {
			print_dump("fallback:", fb);
			if (reason[0])
				printf("%-13s saved to the fallback because: %s\n",
				       "", TEXT_SAFE(reason));
		}
		free(fb);
		return 0;
	}
	/*
	 * Where the dumps lie, as the collector names them; the fallback's
	 * are for the text (the keys are the local target's).
	 */
	snprintf(fdir, sizeof(fdir), "%s%s%s:%s/%s",
		 c->net == CONF_NET_SSH ? c->net_user : "",
		 c->net == CONF_NET_SSH ? "@" : "", c->net_host, c->net_path,
		 hostdir);
	free(fb);
	m = json_set_text(j, "dump_dir", fdir);
	if (m == 0)
		m = *ret_have ? cli_json_add(j, "last_dump", cli_dump_json(d)) :
			json_object_object_add(j, "last_dump", NULL) ? -ENOMEM : 0;
	if (m == 0)
		m = cli_json_text(j, "last_dump_note", *ret_have ? NULL : note);
	return m;
}

/* A lost crash and the last test's outcome, when there are. */
static int status_crashes(struct cli *cli, const struct kdump_conf *c,
			  struct json_object *j, const struct dump_info *last)
{
	char line[PATH_MAX + 2048];
	int m = 0;

	if (!lost_line(cli, c, line, sizeof(line)))
		line[0] = '\0';
	if (j)
		m = cli_json_text(j, "lost_crash", line);
	else if (line[0])
		printf("%-13s LOST: %s\n", "last crash:", TEXT_SAFE(line));
	if (!test_line(c, last, line, sizeof(line)))
		line[0] = '\0';
	if (j && m == 0)
		m = cli_json_text(j, "test", line);
	else if (!j && line[0])
		printf("%-13s %s\n", "test:", TEXT_SAFE(line));
	return m;
}


/* makedumpfile's threads in a capture loaded now, and why. */
static int status_threads(struct cli *cli, struct json_object *j)
{
	struct threads_choice t;
	char text[256];

	if (threads_current(cli, &t) < 0) {
		if (j)
			return cli_json_int(j, "makedumpfile_threads", -1);
		printf("makedumpfile threads: unknown (see 'kdump-file show')\n");
		return 0;
	}
	if (j)
		return cli_json_int(j, "makedumpfile_threads", t.threads);
	if (estimate_threads_text(&t, text, sizeof(text)) == 0)
		printf("makedumpfile threads: %s\n", text);
	return 0;
}

/*
 * First, when no capture kernel is loaded: that a crash now is lost, and
 * why, as the last load that failed said it (LOAD_FAILED_FILE: its time,
 * then its lines; the first error names the cause).
 */
static int status_protection(struct json_object *j)
{
	_cleanup_free_ char *text = NULL;
	unsigned long long loaded = 0;
	char why[1024] = "", when[64] = "";
	struct json_object *f = NULL;
	long long t = 0;
	const char *e;
	int m = 0;

	(void)read_ull_file(SYS_CRASH_LOADED, &loaded);
	if (loaded != 1 && read_file_max(LOAD_FAILED_FILE, &text, 16384) >= 0 &&
	    sscanf(text, "%lld", &t) == 1 && (e = strchr(text, '\n'))) {
		struct tm tm;
		time_t tt = t;

		/* The failure is the line after the time. */
		snprintf(why, sizeof(why), "%.*s", (int)strcspn(e + 1, "\n"),
			 e + 1);
		if (localtime_r(&tt, &tm))
			strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	}
	if (!j) {
		if (loaded == 1)
			return 0;
		if (why[0])
			printf("NOT PROTECTED: a crash now is not captured: the load at %s failed: %s\n",
			       when, TEXT_SAFE(why));
		else
			printf("NOT PROTECTED: a crash now is not captured: no capture kernel is loaded\n");
		return 0;
	}
	m = json_set_bool(j, "protected", loaded == 1);
	if (m == 0 && why[0]) {
		f = json_object_new_object();
		m = f ? 0 : -ENOMEM;
		if (m == 0)
			m = cli_json_int(f, "time", t);
		if (m == 0)
			m = cli_json_text(f, "error", why);
		if (m == 0) {
			m = json_object_object_add(j, "load_failure", f) ? -ENOMEM : 0;
			f = m == 0 ? NULL : f;
		}
		json_object_put(f);
	} else if (m == 0) {
		m = json_object_object_add(j, "load_failure", NULL) ? -ENOMEM : 0;
	}
	return m;
}

int verb_status(struct cli *cli, int argc _unused_, char *argv[] _unused_)
{
	struct json_object *j = NULL;
	unsigned long long loaded = 0;
	bool have_dump = false;
	struct dump_info d;
	const struct kdump_conf *c;
	int r, m;

	r = load_config(cli, &c);
	if (r < 0)
		return r;
	if (cli->opt.json) {
		j = cli_json_object();
		if (!j)
			return -ENOMEM;
	}
	m = status_protection(j);
	if (m == 0)
		m = status_reservation(cli, j, &loaded);
	if (m == 0)
		m = status_loaded_set(cli, j, loaded != 0);
	if (m == 0)
		m = status_panic_on(c, loaded != 0, j);
	if (m == 0)
		m = hotplug_report(j, 13);
	if (m == 0)
		m = status_lockdown(j);
	if (m == 0 && c->net != CONF_NET_NONE)
		m = status_net(c, j, &d, &have_dump);
	else if (m == 0)
		m = status_last_dump(cli, c, j, &d, &have_dump);
	if (m == 0)
		m = status_crashes(cli, c, j, have_dump ? &d : NULL);
	if (m == 0)
		m = status_threads(cli, j);
	if (m == 0)
		m = expected_report(cli, c, false, j);
	if (j) {
		if (m == 0)
			m = print_json(j);
		else
			json_object_put(j);
		if (m < 0)
			return m;
	}
	return loaded ? 0 : EXIT_NOT_LOADED;
}
