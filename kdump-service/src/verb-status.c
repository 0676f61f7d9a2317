// SPDX-License-Identifier: GPL-2.0
/*
 * status, show and estimate: what is reserved, loaded and saved, what the
 * plan would load, and how much memory the capture needs.
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

#include "cli.h"
#include "collector-copy.h"
#include "dump.h"
#include "dumpsize.h"
#include "expected.h"
#include "estimate.h"
#include "hotplug-state.h"
#include "initramfs.h"
#include "json.h"
#include "netdir.h"
#include "netcheck.h"
#include "netplan.h"
#include "panicon.h"
#include "record.h"
#include "state.h"
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

/* The words of mask as a JSON array. */
static struct json_object *panic_on_json(unsigned int mask)
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
				m = cli_json_add(j, keys[k], panic_on_json(masks[k]));
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
	char why[512], ip[INET_ADDRSTRLEN], mnt[PATH_MAX];
	char base[PATH_MAX + 300], dir[PATH_MAX + 300];
	struct in_addr a;
	int r;

	r = net_resolve_host(c->net_host, &a, why, sizeof(why));
	if (r < 0) {
		snprintf(note, size, "unknown: %s", why);
		return r;
	}
	net_addr_text(a, false, ip, sizeof(ip));
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

/* The expected dump as JSON: null when not known. */
static struct json_object *expected_json(const struct kdump_conf *c,
					 const struct dumpsize_expected *x)
{
	const struct dump_estimate *e = &x->d.est;
	struct json_object *o;

	if (x->r < 0 || !x->d.known)
		return NULL;
	o = json_object_new_object();
	if (!o ||
	    json_set_int(o, "bytes", (long long)e->bytes) < 0 ||
	    json_set_double(o, "seconds", e->seconds) < 0 ||
	    json_set_int(o, "dump_level", c->dump_level) < 0 ||
	    json_set_text(o, "compression",
			  conf_compression_to_string(c->compression)) < 0 ||
	    json_set_int(o, "kept_pages", (long long)e->kept_pages) < 0 ||
	    json_set_int(o, "total_pages", (long long)e->total_pages) < 0 ||
	    json_set_int(o, "page_size", (long long)e->page_size) < 0 ||
	    json_set_bool(o, "measured", e->measured) < 0 ||
	    json_set_bool(o, "cached", x->d.cached) < 0) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/*
 * The expected dump and its warnings, as load gives them: into j, or
 * printed (the warnings on stderr, in load's words).  For estimate
 * (estimate: true), from a fresh run of makedumpfile, and where its
 * figures come from.
 */
static int status_expected(struct cli *cli, const struct kdump_conf *c,
			   bool estimate, struct json_object *j)
{
	struct dumpsize_expected *x;
	int m = 0;

	x = calloc(1, sizeof(*x));
	if (!x)
		return -ENOMEM;
	expect_dump(cli, c, estimate, x);
	if (j) {
		struct json_object *e = expected_json(c, x);

		if (x->r >= 0 && x->d.known && !e)
			m = -ENOMEM;
		if (m == 0)
			m = json_object_object_add(j, "expected_dump", e) ?
				-ENOMEM : 0;
		if (m == 0)
			m = cli_json_text(j, "expected_dump_text", x->text);
		if (m == 0)
			m = cli_json_text(j, "dump_room_warning", x->room);
		if (m == 0)
			m = cli_json_text(j, "makedumpfile_warning",
					  x->free_pages);
		if (m == 0)
			m = cli_json_text(j, "makedumpfile_note", x->note);
	} else {
		printf("expected dump: %s\n", x->text);
		if (estimate && x->d.known && !x->d.est.measured)
			printf("note: the dump's size and time are those make bench measured on emulated (TCG) guests: a real machine writes it faster\n");
		if (x->note[0])
			printf("makedumpfile: %s\n", x->note);
		fflush(stdout);
		print_dump_warnings(cli, x);
	}
	free(x);
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

		log_first_error(e + 1, why, sizeof(why));
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
		m = status_expected(cli, c, false, j);
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

/* The pstore and watchdog lines of show. */
static void show_helpers(const struct plan *p)
{
	char state[32] = "", timeout[32] = "";

	if (p->pstore[0])
		printf("pstore:      %s: a failed capture's reason is kept in %s for the next boot\n",
		       p->pstore, p->pstore_ram ?
		       "RAM (ramoops, its layout passed on the command line)" :
		       "EFI variables");
	else
		printf("pstore:      none: a failed capture's reason is kept only next to the dump, when the target is reachable\n");
	if (!p->watchdog[0]) {
		printf("watchdog:    none: a capture that hangs outside capture_timeout's reach (before /init) is not reset\n");
		return;
	}
	(void)read_line_file(SYS_WATCHDOG "/state", state, sizeof(state));
	(void)read_line_file(SYS_WATCHDOG "/timeout", timeout, sizeof(timeout));
	printf("watchdog:    %s: the capture arms it for capture_timeout + %d s\n",
	       p->watchdog, CAPTURE_WATCHDOG_MARGIN);
	if (strcmp(state, "active") == 0)
		printf("watchdog:    active in this system (timeout %s s): it also resets a capture kernel that hangs before the capture starts\n",
		       timeout);
	else
		printf("watchdog:    not active in this system: a capture kernel that hangs before the capture starts is not reset (set RuntimeWatchdogSec= in /etc/systemd/system.conf)\n");
}

/*
 * The makedumpfile command lines the capture runs: the kernel log's into
 * dmesg, the vmcore's into vmcore ("" for dump_level = dmesg), with the
 * dump directory named as this system sees it; both buffers of size.
 */
static void show_makedumpfile(const struct plan *p, char *dmesg, char *vmcore,
			      size_t size)
{
	static struct conf_makedumpfile_cmd cmd;
	static struct kdump_conf c;
	char dir[PATH_MAX + 16], out[PATH_MAX + 48];
	size_t pos = 0;

	/* The threads come on the command line, not in the capture's copy. */
	c = p->capture;
	(void)conf_threads_set(&c, p->threads.threads);

	snprintf(dir, sizeof(dir), "%s/<time>",
		 strcmp(p->conf.path, "/") ? p->conf.path : "");
	if (p->conf.net == CONF_NET_NFS)
		snprintf(dir, sizeof(dir), "%s:%s/%s/<time>", p->conf.net_host,
			 p->conf.net_path, p->net.hostdir);
	vmcore[0] = '\0';
	if (p->conf.net == CONF_NET_SSH) {
		/* Saved locally, then sent; the vmcore streamed. */
		snprintf(dmesg, size, "makedumpfile --dump-dmesg /proc/vmcore <file>, sent to %s@%s (ssh: dmesg <time>)",
			 p->conf.net_user, p->conf.net_host);
		if (p->capture.dmesg_only ||
		    conf_makedumpfile_cmd(&c, "/proc/vmcore", NULL,
					  "/tmp", &cmd) < 0)
			return;
		for (char **a = cmd.argv; *a && pos < size; a++)
			pos += snprintf(vmcore + pos, size - pos, "%s%s",
					a == cmd.argv ? "" : " ", *a);
		if (pos < size)
			snprintf(vmcore + pos, size - pos, " | ssh %s@%s vmcore <time> (into %s/%s/<time>)",
				 p->conf.net_user, p->conf.net_host,
				 p->conf.net_path, p->net.hostdir);
		return;
	}
	if (p->conf.raw[0]) {
		snprintf(dmesg, size, "makedumpfile --dump-dmesg /proc/vmcore <file>, copied to raw device %s",
			 p->conf.raw);
	} else {
		snprintf(dmesg, size, "makedumpfile --dump-dmesg /proc/vmcore %s/dmesg.txt",
			 dir);
	}
	if (p->capture.dmesg_only)
		return;
	snprintf(out, sizeof(out), "%s/vmcore-incomplete", dir);
	if (conf_makedumpfile_cmd(&c, "/proc/vmcore",
				  p->conf.raw[0] ? NULL : out, dir, &cmd) < 0)
		return;
	for (char **a = cmd.argv; *a && pos < size; a++)
		pos += snprintf(vmcore + pos, size - pos, "%s%s",
				a == cmd.argv ? "" : " ", *a);
	if (p->conf.raw[0] && pos < size)
		snprintf(vmcore + pos, size - pos, " > raw device %s",
			 p->conf.raw);
}

/* show: where a network target's dumps go, and how the capture gets there. */
static void show_net(const struct plan *p)
{
	char a[INET_ADDRSTRLEN], g[INET_ADDRSTRLEN];

	if (p->conf.net == CONF_NET_NONE)
		return;
	printf("target:      %s\n", p->conf.target);
	printf("collector:   %s (%s)", net_addr_text(p->net.collector, false,
						 a, sizeof(a)),
	       p->conf.net_host);
	if (p->conf.net == CONF_NET_SSH)
		printf(", ssh port %u as %s\n", p->conf.net_port,
		       p->conf.net_user);
	else
		printf(", NFSv%u export %s\n", p->conf.nfs_version,
		       p->conf.net_path);
	printf("interface:   %s (%s)\naddress:     %s/%u\n", p->net.ifname,
	       p->net.mac, net_addr_text(p->net.addr, false, a, sizeof(a)),
	       p->net.prefix);
	if (p->net.gateway.s_addr)
		printf("gateway:     %s\n",
		       net_addr_text(p->net.gateway, false, g, sizeof(g)));
	else
		printf("gateway:     none: the collector is on-link\n");
	printf("host dir:    %s\n", p->net.hostdir);
	if (p->conf.fallback[0])
		printf("fallback:    %s (%s, %s), when the network fails before the dump goes out\n",
		       p->conf.fallback, p->fallback_spec,
		       p->fallback_rel[0] ? p->fallback_rel : "/");
	else
		printf("fallback:    none: a crash when the collector cannot be reached is not saved\n");
}

/* show --json: the network target, null for a local one. */
static int show_net_json(const struct plan *p, struct json_object *j)
{
	char a[INET_ADDRSTRLEN];
	struct json_object *n;
	int r;

	if (p->conf.net == CONF_NET_NONE || !p->net_known)
		return json_object_object_add(j, "network", NULL) ? -ENOMEM : 0;
	n = json_object_new_object();
	r = n ? 0 : -ENOMEM;
	if (r == 0)
		r = json_set_text(n, "kind", conf_net_to_string(p->conf.net));
	if (r == 0)
		r = json_set_text(n, "url", p->conf.target);
	if (r == 0)
		r = json_set_text(n, "host", p->conf.net_host);
	if (r == 0)
		r = json_set_text(n, "collector",
				  net_addr_text(p->net.collector, false, a,
						sizeof(a)));
	if (r == 0)
		r = cli_json_text(n, "user", p->conf.net == CONF_NET_SSH ?
				  p->conf.net_user : NULL);
	if (r == 0)
		r = cli_json_int(n, "port", p->conf.net == CONF_NET_SSH ?
				 (long long)p->conf.net_port : -1);
	if (r == 0)
		r = cli_json_int(n, "nfs_version", p->conf.net == CONF_NET_NFS ?
				 (long long)p->conf.nfs_version : -1);
	if (r == 0)
		r = json_set_text(n, "path", p->conf.net_path);
	if (r == 0)
		r = json_set_text(n, "interface", p->net.ifname);
	if (r == 0)
		r = json_set_text(n, "mac", p->net.mac);
	if (r == 0) {
		char addr[INET_ADDRSTRLEN + 8];

		snprintf(addr, sizeof(addr), "%s/%u",
			 net_addr_text(p->net.addr, false, a, sizeof(a)),
			 p->net.prefix);
		r = json_set_text(n, "address", addr);
	}
	/* null: the collector is on-link. */
	if (r == 0)
		r = cli_json_text(n, "gateway", p->net.gateway.s_addr ?
				  net_addr_text(p->net.gateway, false, a,
						sizeof(a)) : NULL);
	if (r == 0)
		r = json_set_text(n, "host_dir", p->net.hostdir);
	if (r == 0)
		r = cli_json_text(n, "fallback", p->conf.fallback);
	if (r == 0)
		r = cli_json_text(n, "fallback_target", p->fallback_spec);
	if (r == 0)
		r = cli_json_text(n, "fallback_path", p->fallback_spec[0] ?
				  (p->fallback_rel[0] ? p->fallback_rel : "/") :
				  NULL);
	if (r < 0) {
		json_object_put(n);
		return r;
	}
	return cli_json_add(j, "network", n);
}

/* show --json: the plan as one object. */
static int show_json(struct cli *cli, const struct plan *p,
		     const struct plan_problems *pp)
{
	struct json_object *j = cli_json_object();
	struct json_object *cc = json_object_new_object();
	struct json_object *mods = json_object_new_array();
	struct json_object *lvs = json_object_new_array();
	struct json_object *probs = json_object_new_array();
	char text[sizeof(p->capture_conf_text)];
	char mdf_dmesg[CONF_VALUE_MAX + PATH_MAX], mdf_vmcore[CONF_VALUE_MAX + PATH_MAX];
	int r = j && cc && mods && lvs && probs ? 0 : -ENOMEM;

	show_makedumpfile(p, mdf_dmesg, mdf_vmcore, sizeof(mdf_vmcore));
	if (r == 0)
		r = json_set_text(j, "config", cli->opt.config);
	if (r == 0)
		r = json_set_text(j, "makedumpfile_dmesg", mdf_dmesg);
	/* null for dump_level = dmesg: no vmcore. */
	if (r == 0)
		r = cli_json_text(j, "makedumpfile", mdf_vmcore);
	if (r == 0)
		r = json_set_text(j, "kernel", p->kernel);
	if (r == 0)
		r = json_set_text(j, "initramfs", p->initramfs);
	if (r == 0)
		r = json_set_text(j, "initramfs_state", plan_initramfs_state(p));
	if (r == 0)
		r = json_set_text(j, "cmdline", p->cmdline);
	/* The capture's configuration, as written: "key = value" lines. */
	snprintf(text, sizeof(text), "%s", p->capture_conf_text);
	for (char *l = strtok(text, "\n"); l && r == 0; l = strtok(NULL, "\n")) {
		char *eq = strstr(l, " = ");

		if (!eq)
			continue;
		*eq = '\0';
		r = json_set_text(cc, l, eq + 3);
	}
	if (r == 0) {
		struct json_object *a = panic_on_json(p->conf.panic_on);

		r = a && !json_object_object_add(j, "panic_on", a) ? 0 : -ENOMEM;
		if (r < 0)
			json_object_put(a);
	}
	if (r == 0)
		r = cli_json_text(j, "pstore", p->pstore);
	if (r == 0)
		r = cli_json_text(j, "watchdog", p->watchdog);
	if (r == 0)
		r = hotplug_report(j, 12);
	if (r == 0)
		r = show_net_json(p, j);
	if (r == 0)
		r = json_set_bool(j, "chain_known", p->chain_known);
	if (r == 0)
		r = json_set_int(j, "plan_modules", p->modplan_count);
	for (unsigned int i = 0; p->chain_known && i < p->chain.n && r == 0; i++) {
		const struct devchain_module *m = &p->chain.mods[i];
		struct json_object *o;

		if (m->state != MODLOAD_MODULE && m->state != MODLOAD_BUILTIN)
			continue;
		o = json_object_new_object();
		r = o ? 0 : -ENOMEM;
		if (r == 0)
			r = json_set_text(o, "name", m->name);
		if (r == 0)
			r = json_set_bool(o, "builtin", m->state == MODLOAD_BUILTIN);
		if (r == 0)
			r = json_set_text(o, "reason", m->reason);
		if (r == 0)
			r = json_set_text(o, "deps", m->deps);
		if (r == 0)
			r = json_object_array_add(mods, o) ? -ENOMEM : 0;
		else
			json_object_put(o);
	}
	for (unsigned int i = 0; p->chain_known && i < p->chain.n_lvs && r == 0; i++)
		r = json_object_array_add(lvs, json_text(p->chain.lvs[i])) ? -ENOMEM : 0;
	/* What would stop the load: [] when it would go ahead. */
	for (unsigned int i = 0; i < pp->n && i < PLAN_PROBLEMS_MAX && r == 0; i++)
		r = json_object_array_add(probs, json_text(pp->text[i])) ? -ENOMEM : 0;
	if (r == 0)
		r = json_set_bool(j, "loadable", pp->n == 0);
	if (r == 0) {
		json_object_object_add(j, "capture_config", cc);
		json_object_object_add(j, "modules", mods);
		json_object_object_add(j, "lvm_volumes", lvs);
		json_object_object_add(j, "problems", probs);
		return print_json(j);
	}
	json_object_put(probs);
	json_object_put(cc);
	json_object_put(mods);
	json_object_put(lvs);
	json_object_put(j);
	return r;
}

/* The plan as show prints it. */
static void show_text(struct cli *cli, const struct plan *p)
{
	printf("# configuration: %s\n", cli->opt.config);
	printf("kernel:      %s\ninitramfs:   %s (%s)\ncmdline:     %s\n", p->kernel,
	       p->initramfs, plan_initramfs_state(p), p->cmdline);
	{
		char dmesg[CONF_VALUE_MAX + PATH_MAX], vmcore[CONF_VALUE_MAX + PATH_MAX];

		show_makedumpfile(p, dmesg, vmcore, sizeof(vmcore));
		printf("dmesg:       %s\n", dmesg);
		if (vmcore[0])
			printf("vmcore:      %s\n", vmcore);
		else
			printf("vmcore:      none: dump_level = dmesg saves the kernel log alone\n");
		if (estimate_threads_text(&p->threads, vmcore,
					  sizeof(vmcore)) == 0)
			printf("threads:     %s\n", vmcore);
	}
	show_net(p);
	printf("# as the capture kernel sees it:\n%s", p->capture_conf_text);
	{
		char words[128];

		if (conf_panic_on_format(p->conf.panic_on, words, sizeof(words)) == 0)
			printf("panic_on:    %s (this kernel's sysctls, set by load: see status)\n",
			       words);
	}
	show_helpers(p);
	(void)hotplug_report(NULL, 12);
	if (p->conf.extra_modules[0])
		printf("# the capture loads extra_modules first: %s\n",
		       p->conf.extra_modules);
	if (p->extra_files[0])
		printf("# hooks and extra binaries packed into the capture initramfs: %s\n",
		       p->extra_files);
	printf("# module plan: %u modules in the capture initramfs (the chain's, the helpers', extra_modules, the drivers of every disk%s, with what they need)\n",
	       p->modplan_count, p->conf.net == CONF_NET_NONE ? "" : " and NIC");
	if (!p->chain_known) {
		printf("# the capture loads the drivers of the devices it finds\n");
		return;
	}
	printf("# the capture loads these for dump target %s, in this order, then the drivers of any device still without one:\n",
	       p->chain_what);
	for (unsigned int i = 0; i < p->chain.n; i++) {
		const struct devchain_module *m = &p->chain.mods[i];

		if (m->state != MODLOAD_MODULE)
			continue;
		printf("module %-16s %s%s%s%s\n", m->name, m->reason,
		       m->deps[0] ? " (with " : "", m->deps,
		       m->deps[0] ? ")" : "");
	}
	for (unsigned int i = 0; i < p->chain.n; i++)
		if (p->chain.mods[i].state == MODLOAD_BUILTIN)
			printf("built-in %-14s %s\n", p->chain.mods[i].name,
			       p->chain.mods[i].reason);
	for (unsigned int i = 0; i < p->chain.n_lvs; i++)
		printf("activate LVM volume %s\n", p->chain.lvs[i]);
}

/*
 * What would stop a load of the plan shown, one line each, after the
 * plan: show exits 1 when load would fail.
 */
static int show_problems(struct cli *cli, const struct plan_problems *pp)
{
	for (unsigned int i = 0; i < pp->n && i < PLAN_PROBLEMS_MAX; i++)
		log_error(cli, "%s", pp->text[i]);
	if (pp->n > PLAN_PROBLEMS_MAX)
		log_error(cli, "and %u more problems", pp->n - PLAN_PROBLEMS_MAX);
	return pp->n ? EXIT_FAILURE : 0;
}

int verb_show(struct cli *cli, int argc _unused_, char *argv[] _unused_)
{
	struct plan_problems pp;
	struct plan *p;
	int r;

	r = make_plan(cli, false, &p);
	if (r < 0)
		return r;
	(void)plan_check(p, &pp);
	if (cli->opt.json) {
		r = show_json(cli, p, &pp);
		return r < 0 ? r : show_problems(cli, &pp);
	}
	show_text(cli, p);
	return show_problems(cli, &pp);
}

/* estimate --json: the same figures, and the expected dump. */
static int estimate_json(struct cli *cli, const struct plan *p,
			 const struct estimate *e, unsigned long long reserved)
{
	struct json_object *j;
	int m;

	j = cli_json_object();
	if (!j)
		return -ENOMEM;
	m = cli_json_text(j, "kernel", p->kernel);
	if (m == 0)
		m = cli_json_int(j, "kernel_bytes", (long long)e->kernel);
	if (m == 0)
		m = cli_json_text(j, "initramfs", p->initramfs);
	if (m == 0)
		m = cli_json_int(j, "initramfs_bytes", (long long)e->initramfs);
	if (m == 0)
		m = cli_json_int(j, "initramfs_unpacked_bytes",
				 (long long)e->initramfs_unpacked);
	if (m == 0)
		m = cli_json_int(j, "modules_bytes", (long long)e->modules);
	if (m == 0)
		m = cli_json_int(j, "runtime_bytes", (long long)e->runtime);
	if (m == 0)
		m = cli_json_int(j, "network_bytes", (long long)e->network);
	if (m == 0)
		m = cli_json_int(j, "ram_bytes", (long long)e->ram);
	if (m == 0)
		m = cli_json_int(j, "ram_share_bytes", (long long)e->ram_share);
	if (m == 0)
		m = cli_json_int(j, "needed_bytes", (long long)e->needed);
	if (m == 0)
		m = cli_json_int(j, "recommended_reservation_bytes",
				 (long long)e->recommended);
	if (m == 0)
		m = cli_json_int(j, "reserved_bytes", reserved == ~0ULL ? -1 :
				 (long long)reserved);
	if (m == 0)
		m = cli_json_int(j, "makedumpfile_threads", p->threads.threads);
	if (m == 0)
		m = status_expected(cli, &p->conf, true, j);
	if (m < 0) {
		json_object_put(j);
		return m;
	}
	return print_json(j);
}

/*
 * mem-usage: for kdump-file.service, before load, whose sandbox hides
 * /proc/kcore (ProtectKernelTunables=): the count load's expected dump and
 * its warnings come from, made once per kernel, makedumpfile and RAM.
 */
int verb_mem_usage(struct cli *cli, int argc _unused_, char *argv[] _unused_)
{
	const struct kdump_conf *c;
	char why[512] = "";
	bool ran = false;
	int r;

	r = dumpsize_refresh(&ran, why, sizeof(why));
	if (r == -ENOENT) {
		log_error(cli, "cannot count the pages a dump would hold: makedumpfile is not installed (apt-get install makedumpfile)");
		return EXIT_FAILURE;
	}
	if (r < 0) {
		log_error(cli, "cannot count the pages a dump would hold: makedumpfile --mem-usage /proc/kcore failed: %s",
			  why[0] ? why : strerror(-r));
		return EXIT_FAILURE;
	}
	if (ran)
		printf("counted the pages a dump would hold (makedumpfile --mem-usage)\n");
	/*
	 * And load's warnings, here where the dump target can be looked at
	 * even when nothing mounts it (load's sandbox cannot mount it).
	 */
	if (load_config(cli, &c) == 0)
		(void)dump_warnings(cli, c);
	return EXIT_SUCCESS;
}

int verb_estimate(struct cli *cli, int argc _unused_, char *argv[] _unused_)
{
	unsigned long long reserved = 0;
	struct estimate e;
	struct plan *p;
	int kfd = -1, ifd = -1, r;

	r = make_plan(cli, false, &p);
	if (r < 0)
		return r;
	r = open_regular(cli, "capture kernel", p->kernel, &kfd);
	if (r < 0)
		return r;
	/* One message: the initramfs kdump-file builds is not built yet. */
	if (p->initramfs_managed && access(p->initramfs, F_OK) < 0 &&
	    errno == ENOENT) {
		close(kfd);
		log_error(cli, "estimate measures the capture initramfs, and %s is not built yet: run 'kdump-file rebuild' (or load) first",
			  p->initramfs);
		return -ENOENT;
	}
	r = open_regular(cli, "capture initramfs", p->initramfs, &ifd);
	if (r < 0) {
		close(kfd);
		return r;
	}
	r = plan_estimate(p, kfd, ifd, &e);
	close(ifd);
	close(kfd);
	if (r < 0) {
		log_error(cli, "cannot read capture kernel '%s': not a bzImage", p->kernel);
		return r;
	}
	if (kexec_crash_size(&reserved) < 0)
		reserved = ~0ULL;
	if (cli->opt.json)
		return estimate_json(cli, p, &e, reserved);
	printf("capture kernel     %7.1f MiB  %s (in memory: its init_size)\n",
	       mib_f(e.kernel), p->kernel);
	printf("capture initramfs  %7.1f MiB  %s (compressed, held while it unpacks)\n",
	       mib_f(e.initramfs), p->initramfs);
	printf("  unpacked         %7.1f MiB\n", mib_f(e.initramfs_unpacked));
	printf("modules            %7.1f MiB  (the module plan's %u, held again once loaded; 0 when built in%s)\n",
	       mib_f(e.modules), p->modplan_count,
	       p->conf.net == CONF_NET_NONE ? "" :
	       p->conf.net == CONF_NET_NFS ? "; the NIC's drivers and NFS's" :
	       "; the NIC's drivers");
	printf("run time           %7.1f MiB  (capture kernel, init and makedumpfile, measured)\n",
	       mib_f(e.runtime));
	if (p->conf.net != CONF_NET_NONE)
		printf("network target     %7.1f MiB  (%s, measured: the NIC's rings and sockets%s)\n",
		       mib_f(e.network), conf_net_to_string(p->conf.net),
		       p->conf.net == CONF_NET_NFS ? ", sunrpc and the NFS client" : "");
	printf("system RAM share   %7.1f MiB  (for %.1f GiB of RAM)\n",
	       mib_f(e.ram_share), e.ram / 1073741824.0);
	printf("needed             %7.1f MiB\n", mib_f(e.needed));
	printf("recommended: crashkernel=%lluM (needed plus a quarter, in 8M steps)\n",
	       e.recommended >> 20);
	{
		char text[256];

		if (estimate_threads_text(&p->threads, text, sizeof(text)) == 0)
			printf("makedumpfile threads: %s\n", text);
	}
	/*
	 * The figures are of the initramfs as built: one built for another
	 * configuration (before a network target, which adds ssh and its
	 * libraries, or the NFS modules) says nothing of the next.
	 */
	if (p->initramfs_managed &&
	    strcmp(plan_initramfs_state(p), "current") != 0)
		printf("note: %s was built for another configuration: run 'kdump-file rebuild' and estimate again for this one's figure\n",
		       p->initramfs);
	if (p->conf.net == CONF_NET_SSH)
		printf("note: the run time was measured for local targets: the capture's ssh client (its buffers beside makedumpfile's) is not in it\n");
	if (reserved != ~0ULL)
		printf("reserved now: %llu MiB%s\n", reserved >> 20,
		       reserved == 0 ? " (none)" :
		       reserved < e.needed ? " (too small)" : "");
	/* Fresh: estimate is where a user asks what a dump would take. */
	fflush(stdout);
	return status_expected(cli, &p->conf, true, NULL);
}
