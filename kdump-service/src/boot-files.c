// SPDX-License-Identifier: GPL-2.0
/*
 * What a capture kernel boots, before load, rebuild and setup use it (see
 * boot-files.h): the files checked to be root's alone, and the capture
 * initramfs kdump-file builds, built when it is not current.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot-files.h"
#include "initramfs.h"
#include "safedir.h"
#include "util.h"

/*
 * The capture kernel and a configured initramfs run as the crashed
 * system's last word: at every load, not only when an initramfs is built,
 * they and the directories above them must be root's alone.
 */
int check_boot_files(struct cli *cli, const struct plan *p)
{
	const char *paths[] = { p->kernel, p->initramfs };
	struct input_violation bad = { 0 };
	int r;

	r = paths_check_root_only(paths, p->initramfs_managed ? 1 : 2, &bad);
	if (r == -EPERM)
		log_error(cli, "refusing to load '%s': it is %s, and what the capture kernel boots must be root's alone (chown root and chmod go-w '%s')",
			  bad.path, plan_violation_text(&bad), bad.path);
	else if (r < 0 && r != -ENOENT)
		log_error(cli, "cannot check '%s': %s", bad.path, strerror(-r));
	return r == -ENOENT ? 0 : r;
}

/*
 * A capture-initramfs build takes tens of seconds.  On a terminal one line
 * shows that it is alive, redrawn as dracut goes on: the seconds so far
 * and dracut's stage.  Elsewhere (a log, the journal) the lines before and
 * after the build say so, with its time.  dracut's warnings and errors go
 * to stderr either way.
 */
struct build_progress {
	unsigned long long t0;
	bool live;		/* the line is drawn on stdout, a terminal */
	bool drawn;		/* and is there now */
	char stage[128];
};

static void build_line_clear(struct build_progress *b)
{
	if (!b->drawn)
		return;
	fputs("\r\033[K", stdout);
	fflush(stdout);
	b->drawn = false;
}

static void build_line_draw(struct build_progress *b)
{
	if (!b->live)
		return;
	printf("\r\033[Kkdump-file: building capture initramfs: %llu s%s%.*s",
	       (now_ms() - b->t0) / 1000, b->stage[0] ? ", " : "",
	       (int)sizeof(b->stage) - 1, b->stage);
	fflush(stdout);
	b->drawn = true;
}

static void build_stage(const char *stage, void *userdata)
{
	struct build_progress *b = userdata;

	snprintf(b->stage, sizeof(b->stage), "%s", stage);
	build_line_draw(b);
}

static void build_output(const char *line, void *userdata)
{
	struct build_progress *b = userdata;

	build_line_clear(b);
	fprintf(stderr, "dracut: %s\n", line);
	build_line_draw(b);
}

int ensure_initramfs(struct cli *cli, struct plan *p, bool force)
{
	struct build_progress b = { 0 };
	const struct initramfs_progress progress = {
		.stage = build_stage, .output = build_output, .userdata = &b,
	};
	struct initramfs_request rq;
	char fingerprint[32768], conf_file[] = RUN_DIR "/capture.conf";
	char chain_file[] = RUN_DIR "/capture-chain";
	char modplan_file[] = RUN_DIR "/modules.json";
	_cleanup_free_ char *modplan = NULL;
	struct input_violation bad;
	unsigned long long t0;
	int r;

	if (!p->initramfs_managed)
		return 0;
	r = initramfs_fingerprint(p->kernel, p->capture_conf_text,
				  p->chain_text, p->modplan_id,
				  p->fingerprint_files, fingerprint,
				  sizeof(fingerprint));
	if (r < 0) {
		log_error(cli, "cannot inspect the capture inputs (is the dracut module installed in %s?): %s",
			  KDUMP_FILE_DRACUT_MODULE, strerror(-r));
		return r;
	}
	if (!force && initramfs_is_current(p->initramfs, fingerprint))
		return 0;
	r = initramfs_check_inputs(p->kernel, &bad);
	if (r == -EPERM) {
		log_error(cli, "refusing to build the capture initramfs: '%s' is %s: only root-owned files that only root can modify go into it (chown root and chmod go-w '%s')",
			  bad.path, plan_violation_text(&bad), bad.path);
		return r;
	}
	if (r < 0) {
		log_error(cli, "cannot check what goes into the capture initramfs: '%s': %s",
			  bad.path, strerror(-r));
		return r;
	}
	r = mkdir_p(KDUMP_FILE_STATE_DIR, 0700);
	if (r >= 0)
		r = mkdir_p(RUN_DIR, 0700);
	if (r >= 0)
		r = write_file_atomic(conf_file, p->capture_conf_text,
				      strlen(p->capture_conf_text), 0600);
	if (r < 0)
		return log_create_error(cli, "write", conf_file, r);
	r = write_file_atomic(chain_file, p->chain_text, strlen(p->chain_text),
			      0600);
	if (r < 0) {
		log_error(cli, "cannot write %s: %s", chain_file, strerror(-r));
		return r;
	}
	/* The plan as the fingerprint saw it: made again from the same names. */
	r = plan_modplan_text(p, &modplan);
	if (r < 0) {
		log_error(cli, "%s", diag_text(&p->diag));
		return r;
	}
	r = write_file_atomic(modplan_file, modplan, strlen(modplan), 0600);
	if (r < 0) {
		log_error(cli, "cannot write %s: %s", modplan_file, strerror(-r));
		return r;
	}
	log_info(cli, "building capture initramfs %s", p->initramfs);
	fflush(stdout);
	t0 = now_ms();
	b.t0 = t0;
	b.live = !cli->opt.quiet && isatty(STDOUT_FILENO);
	rq = (struct initramfs_request){
		.kver = p->release,
		.capture_conf_file = conf_file,
		.chain_file = chain_file,
		.modplan_file = modplan_file,
		.drivers = p->modplan_drivers,
		.files = p->extra_files,
		.net = conf_net_to_string(p->conf.net),
		.ssh_key = p->conf.net == CONF_NET_SSH ? p->conf.ssh_key : NULL,
		.shell = p->capture.failure_action == ACTION_SHELL,
		.fingerprint = fingerprint,
		.progress = &progress,
	};
	r = initramfs_build(p->initramfs, &rq);
	build_line_clear(&b);
	if (r < 0) {
		log_error(cli, "cannot build capture initramfs '%s' with dracut: %s",
			  p->initramfs,
			  r == -ENOENT ? "dracut is not installed" :
			  r == -EIO ? "dracut failed (its messages are above)" :
				      strerror(-r));
		return r;
	}
	log_info(cli, "built %s in %.1f s", p->initramfs,
		 (now_ms() - t0) / 1000.0);
	return 0;
}
