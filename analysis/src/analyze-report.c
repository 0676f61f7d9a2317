// SPDX-License-Identifier: GPL-2.0
/*
 * kdump-file-analyze report DIR: what crashed, from crash(8) on DIR/vmcore
 * when there is a vmlinux for it, else from the kernel log (the dump's own,
 * through makedumpfile --dump-dmesg, or DIR/dmesg.txt saved at capture
 * time). Writes DIR/report.txt and DIR/report.json and prints one line;
 * kdump-file's report verb and its report unit run this.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze.h"
#include "analyze-report.h"
#include "analyze-run.h"
#include "util.h"
#include "json.h"
#include "vmlinux.h"
#include "textfilter.h"

#define LOG_TAIL 80
#define LOG_MAX_MIB 16
#define LOG_MAX (LOG_MAX_MIB << 20)
#define METADATA_MAX (1 << 20)
#define STR_(x) #x
#define STR(x) STR_(x)

static const char crash_script[] =
	"set scroll off\n"
	"sys\n"
	"bt\n"
	"log | tail -n " STR(LOG_TAIL) "\n"
	"ps -S\n"
	"quit\n";

static const char *tool(const char *env, const char *def)
{
	const char *s = getenv(env);

	return s && *s ? s : def;
}

/* The last @n lines of @text. */
static const char *tail(const char *text, size_t n)
{
	const char *p = text + strlen(text);

	if (p > text && p[-1] == '\n')
		p--;
	while (p > text) {
		if (p[-1] == '\n' && --n == 0)
			break;
		p--;
	}
	return p;
}

static void report_ctx_done(struct report_ctx *c)
{
	free(c->text);
}

/*
 * crash(8) on the vmcore: its output in *ret_out, or -ETIMEDOUT, -ENODATA
 * (no backtrace in it) or the errno of running it. It runs in "/" (see
 * analyze-run.c), so it gets absolute paths, and with --no_crashrc: the
 * commands of the invoking user's ~/.crashrc have no place in a report.
 */
static int report_with_crash(struct report_ctx *c, char **ret_out)
{
	_cleanup_free_ char *vmlinux = realpath(c->vmlinux, NULL);
	_cleanup_free_ char *vmcore = realpath(c->vmcore, NULL);
	char *argv[] = { (char *)tool("KDUMP_FILE_CRASH", "crash"), "-s",
			 "--no_crashrc", vmlinux, vmcore, NULL };
	struct run_result res;
	int r;

	if (!vmlinux || !vmcore) {
		r = -(errno ?: ENOENT);
		log_warning("cannot resolve '%s': %s", vmlinux ? c->vmcore :
			    c->vmlinux, strerror(-r));
		return r;
	}
	r = run_tool(argv, crash_script, c->opt->timeout, &res);
	if (r < 0) {
		log_warning("cannot run %s: %s", argv[0], strerror(-r));
		return r;
	}
	if (res.timed_out) {
		log_warning("crash did not finish within %ld s on '%s' (raise "
			    "--timeout); falling back to the kernel log",
			    c->opt->timeout, c->vmcore);
		run_result_done(&res);
		return -ETIMEDOUT;
	}
	r = report_parse_crash(&c->rep, res.out);
	if (r < 0 || !c->rep.n_frames) {
		log_warning("crash gave no %s for '%s' (exit status %d; it "
			    "said: %.300s); falling back to the kernel log",
			    r < 0 ? "panic or backtrace" : "backtrace",
			    c->vmcore, WIFEXITED(res.status) ?
			    WEXITSTATUS(res.status) : -1, tail(res.out, 3));
		run_result_done(&res);
		return -ENODATA;
	}
	*ret_out = res.out;
	return 0;
}

/*
 * A kernel log, all of it or -EFBIG: a log cut at LOG_MAX would lose its
 * end, where the panic is.
 */
static int read_log(const char *path, char **ret, struct diag *d)
{
	int r = read_file_max(path, ret, LOG_MAX);

	if (r == -EFBIG)
		return diag_fail(d, r, "it is larger than " STR(LOG_MAX_MIB)
				 " MiB");
	if (r < 0)
		return diag_fail(d, r, NULL);
	return 0;
}

/* The kernel log in the dump, through makedumpfile --dump-dmesg. */
static int dump_dmesg(struct report_ctx *c, char **ret)
{
	char tmpdir[] = "/tmp/kdump-file-analyze.XXXXXX", out[PATH_MAX];
	_cleanup_free_ char *vmcore = realpath(c->vmcore, NULL);
	char *argv[] = { (char *)tool("KDUMP_FILE_MAKEDUMPFILE",
				      "makedumpfile"), "--dump-dmesg",
			 vmcore, out, NULL };
	struct run_result res = { 0 };
	struct diag d = DIAG_INIT;
	int r;

	if (!vmcore || !mkdtemp(tmpdir))
		return -errno;
	snprintf(out, sizeof(out), "%s/dmesg", tmpdir);
	r = run_tool(argv, NULL, c->opt->timeout, &res);
	if (r < 0) {
		log_warning("cannot run %s: %s", argv[0], strerror(-r));
	} else if (res.timed_out || !WIFEXITED(res.status) ||
		   WEXITSTATUS(res.status) != 0) {
		log_warning("makedumpfile --dump-dmesg failed on '%s': %.300s",
			    c->vmcore, tail(res.out, 2));
		r = -EIO;
	} else {
		r = read_log(out, ret, &d);
		if (r < 0)
			log_warning("cannot read the kernel log makedumpfile "
				    "wrote from '%s': %s", c->vmcore,
				    diag_text(&d));
	}
	run_result_done(&res);
	(void)unlink(out);
	(void)rmdir(tmpdir);
	return r;
}

/* The dump's kernel log, or DIR/dmesg.txt as saved at capture time. */
static int kernel_log(struct report_ctx *c, char **ret)
{
	struct diag d = DIAG_INIT;
	char path[PATH_MAX];
	int r;

	if (dump_dmesg(c, ret) == 0)
		return 0;
	if ((size_t)snprintf(path, sizeof(path), "%s/dmesg.txt", c->dir) >=
	    sizeof(path))
		return -ENAMETOOLONG;
	r = read_log(path, ret, &d);
	if (r == 0)
		log_warning("using the log saved at capture time, '%s'", path);
	else if (r != -ENOENT)
		log_warning("cannot read '%s': %s", path, diag_text(&d));
	return r;
}

/*
 * A dump without a vmcore whose kernel log the capture saved: a dmesg-only
 * dump (kdump-file.conf's dump_level = dmesg, its metadata.json says so),
 * or one whose vmcore the capture did not finish (incomplete).
 */
static bool log_only_dump(const struct report_ctx *c)
{
	char path[PATH_MAX];

	if (access(c->vmcore_path, F_OK) == 0 || errno != ENOENT)
		return false;
	return (size_t)snprintf(path, sizeof(path), "%s/dmesg.txt", c->dir) <
	       sizeof(path) && access(path, R_OK) == 0;
}

/*
 * A copy of a dump on the collector (kdump-file's report unit makes them):
 * where the dump is; its vmcore is there, not missing.
 */
static void read_copy(struct report_ctx *c)
{
	_cleanup_free_ char *text = NULL;
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/collector.json", c->dir) >=
		    sizeof(path) ||
	    read_file_max(path, &text, 16384) < 0 ||
	    json_get_field(text, "location", c->copy_of,
			   sizeof(c->copy_of)) < 0 ||
	    strcmp(c->copy_of, "null") == 0) {
		c->copy_of[0] = '\0';
		return;
	}
	c->incomplete = false;
}

/*
 * What metadata.json says of a dump without a vmcore: whether it is a
 * dmesg-only one, its kernel release and crash time. It may be missing.
 */
static void read_metadata(struct report_ctx *c)
{
	_cleanup_free_ char *text = NULL;
	char path[PATH_MAX], v[80];
	int r;

	c->incomplete = true;
	if ((size_t)snprintf(path, sizeof(path), "%s/metadata.json", c->dir) >=
	    sizeof(path))
		return;
	r = read_file_max(path, &text, METADATA_MAX);
	if (r < 0) {
		if (r != -ENOENT)
			log_warning("cannot read '%s': %s", path, strerror(-r));
		return;
	}
	if (json_get_field(text, "dmesg_only", v, sizeof(v)) == 0 &&
	    strcmp(v, "true") == 0)
		c->incomplete = false;
	read_copy(c);
	if (json_get_field(text, "crash_time", v, sizeof(v)) == 0)
		c->info.crashtime = strtoll(v, NULL, 10);
	/* A release that does not fit is none a kernel has: left unknown. */
	if (json_get_field(text, "kernel_release", v, sizeof(v)) == 0 &&
	    path_format(c->info.osrelease, sizeof(c->info.osrelease), "%s",
			v) < 0)
		c->info.osrelease[0] = '\0';
}

/* A report from DIR/dmesg.txt alone: nothing to give crash. */
static int report_from_saved_log(struct report_ctx *c)
{
	struct diag d = DIAG_INIT;
	char path[PATH_MAX];
	int r;

	read_metadata(c);
	c->vmcore = NULL;
	report_init(&c->rep, "dmesg");
	snprintf(path, sizeof(path), "%s/dmesg.txt", c->dir);
	r = read_log(path, &c->text, &d);
	if (r < 0) {
		log_error("dump '%s' has no vmcore and its kernel log '%s' "
			  "cannot be read: %s", c->dir, path, diag_text(&d));
		return r;
	}
	if (report_parse_log(&c->rep, c->text) < 0)
		log_warning("no panic or oops found in the kernel log '%s'",
			    path);
	c->raw = tail(c->text, LOG_TAIL);
	c->raw_name = "kernel log (end)";
	return 0;
}

/* What the vmcore says about itself; an incomplete one is used anyway. */
static int read_vmcore_info(struct report_ctx *c)
{
	struct diag d = DIAG_INIT;
	struct vmcore *v;
	int r;

	r = open_vmcore(c->vmcore, &v);
	if (r < 0)
		return r;
	if (vmcore_validate(v, &d) < 0)
		log_warning("vmcore '%s' is incomplete, the report may be too: "
			    "%s", c->vmcore, diag_text(&d));
	(void)vmcore_get_info(v, &c->info);
	vmcore_free(v);
	return 0;
}

/*
 * The vmlinux crash needs: --vmlinux, which must be the dump's release,
 * or the one installed for the release. None is not an error: the report
 * then comes from the kernel log.
 */
static int pick_vmlinux(struct report_ctx *c)
{
	const char *want = c->info.osrelease, *given = c->opt->vmlinux;
	struct diag d = DIAG_INIT;
	char rel[128];

	if (given) {
		if (vmlinux_release(given, rel, sizeof(rel), &d) < 0) {
			log_error("cannot use vmlinux '%s': %s", given,
				  diag_text(&d));
			return -EINVAL;
		}
		if (want[0] && strcmp(rel, want)) {
			log_error("vmcore is from %s but vmlinux '%s' is %s: "
				  "use the matching vmlinux", want, given, rel);
			return -EINVAL;
		}
		c->vmlinux = given;
	} else if (!want[0]) {
		c->vmlinux_note = "the vmcore does not say its release";
	} else if (vmlinux_find(NULL, want, c->vmlinux_found,
				sizeof(c->vmlinux_found)) >= 0) {
		c->vmlinux = c->vmlinux_found;
	} else {
		snprintf(c->note, sizeof(c->note),
			 "no vmlinux for %s in /usr/lib/debug/boot, "
			 "/usr/lib/debug/lib/modules, /boot or /lib/modules",
			 want);
		c->vmlinux_note = c->note;
		log_warning("%s (install the kernel's -dbg package or pass "
			    "--vmlinux); reporting from the dump alone",
			    c->note);
	}
	return 0;
}

/* crash's report when it gives one, else the kernel log's. */
static int report_from_vmcore(struct report_ctx *c)
{
	int r;

	r = read_vmcore_info(c);
	if (r < 0)
		return r;
	r = pick_vmlinux(c);
	if (r < 0)
		return r;
	report_init(&c->rep, "crash");
	if (c->vmlinux && report_with_crash(c, &c->text) == 0) {
		c->raw = c->text;
		c->raw_name = "crash output";
		return 0;
	}
	if (c->vmlinux) {
		/* crash failed on it: not the vmlinux of this report */
		c->vmlinux = NULL;
		c->vmlinux_note = "crash failed on it";
	}
	report_init(&c->rep, "dmesg");
	r = kernel_log(c, &c->text);
	if (r < 0) {
		log_error("cannot get the kernel log of '%s' (makedumpfile "
			  "--dump-dmesg failed and there is no %s/dmesg.txt)",
			  c->vmcore, c->dir);
		return r;
	}
	if (report_parse_log(&c->rep, c->text) < 0)
		log_warning("no panic or oops found in the kernel log of '%s'",
			    c->vmcore);
	c->raw = tail(c->text, LOG_TAIL);
	c->raw_name = "kernel log (end)";
	return 0;
}

/* One line for the journal and for kdump-file report. */
static void print_summary(const struct crash_report *r)
{
	const char *top, *task;

	top = r->n_sig_frames ? r->sig_frames[0] :
	      r->n_frames ? r->frames[0] : "no backtrace";
	task = r->command[0] ? r->command : "unknown task";
	printf("kdump-file: crash %s: %s in %s (%s)\n", TEXT_SAFE(r->signature),
	       TEXT_SAFE(r->panic[0] ? r->panic :
			 r->oops[0] ? r->oops : "no panic message found"),
	       TEXT_SAFE(task), TEXT_SAFE(top));
}

int verb_report(const struct analyze_options *o, int argc, char *argv[])
{
	_cleanup_(report_ctx_done) struct report_ctx c = {
		.opt = o,
		.dir = argv[0],
		.info.crashtime = -1,
	};
	int r;

	(void)argc;
	if ((size_t)snprintf(c.vmcore_path, sizeof(c.vmcore_path),
			     "%s/vmcore", c.dir) >= sizeof(c.vmcore_path)) {
		log_error("directory name too long: '%s'", c.dir);
		return EXIT_FAIL;
	}
	c.vmcore = c.vmcore_path;
	if (log_only_dump(&c))
		r = report_from_saved_log(&c);
	else
		r = report_from_vmcore(&c);
	if (r < 0)
		return EXIT_FAIL;
	if (!c.rep.release[0])
		snprintf(c.rep.release, sizeof(c.rep.release), "%s",
			 c.info.osrelease);
	r = report_sign(&c.rep);
	if (r < 0) {
		log_error("cannot sign the crash of '%s': SHA-256 from "
			  "libcrypto failed", c.dir);
		return EXIT_FAIL;
	}
	r = report_write_files(&c);
	if (r < 0) {
		log_error("cannot write the report in '%s': %s", c.dir,
			  strerror(-r));
		return EXIT_FAIL;
	}
	print_summary(&c.rep);
	return EXIT_OK;
}
