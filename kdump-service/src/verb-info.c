// SPDX-License-Identifier: GPL-2.0
/*
 * info and debug: one dump, as its files and report tell it, and crash(8)
 * on it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "collector-copy.h"
#include "json.h"
#include "process.h"
#include "store.h"
#include "textfilter.h"
#include "util.h"

/*
 * "Modules linked in: ..." of the crash, from the saved kernel log; false
 * when it has no such line.
 */
static bool dmesg_modules(const char *dir, char *buf, size_t size)
{
	char p[PATH_MAX + 16], line[4096];
	bool found = false;
	FILE *f;

	buf[0] = '\0';
	if (path_format(p, sizeof(p), "%s/dmesg.txt", dir) < 0)
		return false;
	f = fopen(p, "re");
	while (f && fgets(line, sizeof(line), f)) {
		const char *m = strstr(line, "Modules linked in:");

		if (!m)
			continue;
		m += strlen("Modules linked in:");
		while (*m == ' ')
			m++;
		snprintf(buf, size, "%s", m);
		buf[strcspn(buf, "\n")] = '\0';
		found = true;
	}
	if (f)
		fclose(f);
	return found;
}

/* The hooks' results and extra modules the capture recorded in metadata.json. */
static void capture_extras(const char *dir, struct json_object **ret_hooks,
			   struct json_object **ret_mods)
{
	char p[PATH_MAX + 32], *text = NULL;
	struct json_object *meta = NULL, *v;

	*ret_hooks = *ret_mods = NULL;
	if (path_format(p, sizeof(p), "%s/metadata.json", dir) == 0 &&
	    read_file_max(p, &text, 1 << 20) >= 0)
		meta = json_tokener_parse(text);
	free(text);
	if (!meta)
		return;
	if (json_object_object_get_ex(meta, "hooks", &v) &&
	    json_object_is_type(v, json_type_array))
		*ret_hooks = json_object_get(v);
	if (json_object_object_get_ex(meta, "extra_modules", &v) &&
	    json_object_is_type(v, json_type_array))
		*ret_mods = json_object_get(v);
	json_object_put(meta);
}

static const char *field_text(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return "";
	return json_object_get_string(v);
}

static void print_capture_extras(struct json_object *hooks,
				 struct json_object *mods)
{
	size_t len = hooks ? json_object_array_length(hooks) : 0;

	for (size_t k = 0; k < len; k++) {
		struct json_object *h = json_object_array_get_idx(hooks, k), *s;
		double secs = json_object_object_get_ex(h, "seconds", &s) ?
				      json_object_get_double(s) : 0;

		printf("%-12s %s %s: %s (%.1f s)\n", k ? "" : "hooks:",
		       TEXT_SAFE(field_text(h, "phase")),
		       TEXT_SAFE(field_text(h, "path")),
		       TEXT_SAFE(field_text(h, "result")), secs);
	}
	len = mods ? json_object_array_length(mods) : 0;
	for (size_t k = 0; k < len; k++) {
		struct json_object *m = json_object_array_get_idx(mods, k);
		const char *e = field_text(m, "error");

		printf("%-12s %s: %s%s\n", k ? "" : "extra mods:",
		       TEXT_SAFE(field_text(m, "name")),
		       e[0] ? "not loaded, " : "loaded", TEXT_SAFE(e));
	}
}

/* What info shows of one dump. */
struct info {
	char dir[PATH_MAX + 64];
	char id[DUMP_ID_LEN + 1];
	char when[32];
	char mods[2048];	/* "Modules linked in:" of the crash */
	bool has_mods;		/* the kernel log has that line */
	struct dump_info d;
	/* report.json, and the hooks and extra modules of metadata.json. */
	struct json_object *rep, *hooks, *extra;
	/* "": the report is the dump's; else the copy whose report it is. */
	char rep_copy[PATH_MAX];
};

/* The words of text, a list of names, as a JSON array. */
static struct json_object *words_json(const char *text)
{
	struct json_object *a = json_object_new_array();
	char *copy = strdup(text), *save = NULL;

	for (char *w = copy ? strtok_r(copy, " \t", &save) : NULL; a && w;
	     w = strtok_r(NULL, " \t", &save)) {
		struct json_object *o = json_text(w);

		if (!o || json_object_array_add(a, o)) {
			json_object_put(o);
			json_object_put(a);
			a = NULL;
		}
	}
	if (!copy) {
		json_object_put(a);
		a = NULL;
	}
	free(copy);
	return a;
}

/*
 * info --json: the dump as list gives it, and modules (null without a
 * "Modules linked in:" line), report, hooks and extra_modules (null when
 * the dump has none of those files).
 */
static int info_json(const struct info *in)
{
	struct json_object *j = cli_json_object(), *d = cli_dump_json(&in->d);
	int m = j && d ? 0 : -ENOMEM;

	/* The dump's keys, after "schema" (a null value is NULL). */
	json_object_object_foreach(d ? d : j, key, val) {
		if (m == 0 && d &&
		    json_object_object_add(j, key, json_object_get(val)))
			m = -ENOMEM;
	}
	json_object_put(d);
	if (m == 0)
		m = in->has_mods ? cli_json_add(j, "modules", words_json(in->mods)) :
			json_object_object_add(j, "modules", NULL) ? -ENOMEM : 0;
	if (m == 0)
		m = json_object_object_add(j, "report", json_object_get(in->rep)) ?
			    -ENOMEM : 0;
	if (m == 0)
		m = json_object_object_add(j, "hooks", json_object_get(in->hooks)) ?
			    -ENOMEM : 0;
	if (m == 0)
		m = json_object_object_add(j, "extra_modules",
					   json_object_get(in->extra)) ?
			    -ENOMEM : 0;
	if (m < 0) {
		json_object_put(j);
		return m;
	}
	return print_json(j);
}

/* The lines info gives of the report: signature, oops, task, backtrace. */
static void info_report(struct json_object *rep)
{
	struct json_object *v;

	if (json_object_object_get_ex(rep, "signature", &v) && v)
		printf("signature:   %s\n",
		       TEXT_SAFE(json_object_get_string(v)));
	if (json_object_object_get_ex(rep, "oops", &v) && v)
		printf("oops:        %s\n",
		       TEXT_SAFE(json_object_get_string(v)));
	if (json_object_object_get_ex(rep, "task", &v) && v) {
		struct json_object *c = NULL, *pid = NULL;

		json_object_object_get_ex(v, "command", &c);
		json_object_object_get_ex(v, "pid", &pid);
		if (c)
			printf("task:        %s (pid %s)\n",
			       TEXT_SAFE(json_object_get_string(c)),
			       TEXT_SAFE(pid ? json_object_get_string(pid) :
					       "?"));
	}
	if (json_object_object_get_ex(rep, "taint", &v) && v)
		printf("taint:       %s\n",
		       TEXT_SAFE(json_object_get_string(v)));
	if (json_object_object_get_ex(rep, "backtrace", &v) && v &&
	    json_object_is_type(v, json_type_array)) {
		size_t len = json_object_array_length(v);

		for (size_t k = 0; k < len && k < 8; k++)
			printf("%-12s %s\n", k ? "" : "backtrace:",
			       TEXT_SAFE(json_object_get_string(
				       json_object_array_get_idx(v, k))));
	}
}

/* The files of the dump directory info names, those that exist. */
static void info_files(const char *dir)
{
	static const char *const files[] = {
		"vmcore", "vmcore-incomplete", "dmesg.txt", "metadata.json",
		"hooks.log", "report.txt", "report.json",
	};
	char p[PATH_MAX + 96];

	printf("files:      ");
	for (size_t k = 0; k < sizeof(files) / sizeof(files[0]); k++) {
		snprintf(p, sizeof(p), "%s/%s", dir, files[k]);
		if (access(p, F_OK) == 0)
			printf(" %s", files[k]);
	}
	putchar('\n');
}

static void info_text(const struct info *in)
{
	const struct dump_info *d = &in->d;
	char size[FORMAT_BYTES_MAX];

	printf("id:          %s\n", in->id);
	printf("directory:   %s\n", in->dir);
	printf("crash time:  %s\n", in->when);
	printf("kernel:      %s\n",
	       TEXT_SAFE(d->release[0] ? d->release : "unknown"));
	if (d->has_vmcore)
		printf("state:       complete: vmcore of %s\n",
		       format_bytes(d->vmcore_bytes, size, sizeof(size)));
	else if (dump_complete(d))
		printf("state:       complete, dmesg only: no vmcore, by configuration (dump_level = dmesg saved the kernel log alone)\n");
	else
		printf("state:       %s%s%s\n", cli_dump_state(d),
		       d->error[0] ? ": " : "", TEXT_SAFE(d->error));
	if (d->panic[0])
		printf("panic:       %s\n", TEXT_SAFE(d->panic));
	if (in->rep && in->rep_copy[0])
		printf("report:      of the copy of its kernel log in %s\n",
		       TEXT_SAFE(in->rep_copy));
	if (in->rep)
		info_report(in->rep);
	if (in->mods[0])
		printf("modules:     %s\n", TEXT_SAFE(in->mods));
	print_capture_extras(in->hooks, in->extra);
	info_files(in->dir);
	if (!in->rep)
		printf("report:      none yet (kdump-file report %s)\n", in->id);
	if (d->copy)
		printf("on collector: %s (the directory above is the copy of its kernel log kept here)\n",
		       TEXT_SAFE(d->dir));
	else if (d->has_vmcore)
		printf("debug:       kdump-file debug %s\n", in->id);
}

int verb_info(struct cli *cli, int argc, char *argv[])
{
	static struct info in;
	char p[PATH_MAX + 96], *text = NULL;
	int r;

	r = store_find(cli, argc > 1 ? argv[1] : NULL, in.dir, sizeof(in.dir),
		       in.id);
	if (r < 0)
		return r;
	r = dump_inspect(in.dir, &in.d);
	if (r < 0) {
		log_error(cli, "cannot read dump %s: %s", in.dir, strerror(-r));
		return r;
	}
	snprintf(p, sizeof(p), "%s/report.json", in.dir);
	if (read_file_max(p, &text, 1 << 20) >= 0)
		in.rep = json_tokener_parse(text);
	free(text);
	text = NULL;
	/* A dump on the collector: the report of its copy here, if any. */
	in.rep_copy[0] = '\0';
	if (!in.rep && in.d.has_metadata &&
	    collector_copy_find(collector_copy_dir(),
				strrchr(in.dir, '/') ? strrchr(in.dir, '/') + 1 :
						       in.dir,
				in.rep_copy, sizeof(in.rep_copy)) == 0) {
		snprintf(p, sizeof(p), "%s/report.json", in.rep_copy);
		if (read_file_max(p, &text, 1 << 20) >= 0)
			in.rep = json_tokener_parse(text);
		free(text);
		if (!in.rep)
			in.rep_copy[0] = '\0';
	}
	in.has_mods = dmesg_modules(in.dir, in.mods, sizeof(in.mods));
	capture_extras(in.dir, &in.hooks, &in.extra);
	utc_time(dump_time(&in.d), in.when, sizeof(in.when));
	r = 0;
	if (cli->opt.json)
		r = info_json(&in);
	else
		info_text(&in);
	json_object_put(in.rep);
	json_object_put(in.hooks);
	json_object_put(in.extra);
	return r;
}

/* The first line the program printed, into userdata (PATH_MAX bytes). */
static void first_line(const char *line, size_t len, void *userdata)
{
	char *buf = userdata;

	if (!buf[0] && len < PATH_MAX)
		memcpy(buf, line, len + 1);
}

/*
 * Replace this process by crash(8) on core with vmlinux; returns only on
 * failure, having said why.
 *
 * crash runs the commands of ./.crashrc as well as ~/.crashrc: root
 * running debug in a directory someone else can write would run theirs.
 * So neither is read (--no_crashrc), and crash runs in "/", given
 * absolute paths, as the analyzer runs it (analysis/src/analyze-run.c).
 */
static int debug_exec_crash(struct cli *cli, const char *vmlinux,
			    const char *core)
{
	_cleanup_free_ char *abs_vmlinux = realpath(vmlinux, NULL);
	_cleanup_free_ char *abs_core = NULL;
	int r;

	if (!abs_vmlinux) {
		r = -errno;
		log_error(cli, "cannot use vmlinux '%s': %s", vmlinux, strerror(-r));
		return r;
	}
	abs_core = realpath(core, NULL);
	if (!abs_core) {
		r = -errno;
		log_error(cli, "cannot use vmcore '%s': %s", core, strerror(-r));
		return r;
	}
	if (chdir("/") < 0) {
		r = -errno;
		log_error(cli, "cannot change to /: %s", strerror(-r));
		return r;
	}
	fprintf(stderr, "kdump-file: crash --no_crashrc %s %s\n", abs_vmlinux,
		abs_core);
	fflush(stdout);
	{
		char *cmd[] = { "crash", "--no_crashrc", abs_vmlinux, abs_core,
				NULL };

		/*
		 * Not process_run(): crash reads the terminal, which only its
		 * foreground process group may (a group of its own would get
		 * SIGTTIN), and takes ^C itself.  It replaces us instead.
		 */
		execvp(cmd[0], cmd);
	}
	r = -errno;
	log_error(cli, "cannot run crash: %s%s", strerror(-r),
		  r == -ENOENT ? " (apt-get install crash)" : "");
	return r;
}

/* crash(8) on a dump, with the vmlinux its build ID names. */
int verb_debug(struct cli *cli, int argc, char *argv[])
{
	char dir[PATH_MAX + 64], core[PATH_MAX + 96], id[DUMP_ID_LEN + 1];
	char vmlinux[PATH_MAX] = "";
	int r;

	/*
	 * A vmlinux that cannot be read is said as such here: the analyzer
	 * would only find that its build ID does not match.
	 */
	if (cli->opt.vmlinux && access(cli->opt.vmlinux, R_OK) < 0) {
		r = -errno;
		log_error(cli, "cannot use vmlinux '%s': %s", cli->opt.vmlinux,
			  strerror(-r));
		return r;
	}
	r = store_find(cli, argc > 1 ? argv[1] : NULL, dir, sizeof(dir), id);
	if (r < 0)
		return r;
	snprintf(core, sizeof(core), "%s/vmcore", dir);
	if (access(core, R_OK) < 0) {
		struct dump_info d;
		bool log;

		log = dump_inspect(dir, &d) == 0 && d.has_dmesg;
		if (log && d.copy)
			log_error(cli, "dump %s is on the collector, at %s: open its vmcore with crash there; here is the copy of its kernel log, %s/dmesg.txt (kdump-file info %s)",
				  id, d.dir, dir, id);
		else if (log && d.dmesg_only)
			log_error(cli, "dump %s has no vmcore: it is a dmesg-only dump (dump_level = dmesg), so there is nothing for crash; its kernel log is %s/dmesg.txt (kdump-file info %s)",
				  dir, dir, id);
		else if (log)
			log_error(cli, "dump %s has no vmcore (the capture did not complete): its kernel log is %s/dmesg.txt (kdump-file info %s)",
				  dir, dir, id);
		else
			log_error(cli, "dump %s has no vmcore and no kernel log: the capture saved nothing (kdump-file info %s says what it recorded)",
				  dir, id);
		return -ENOENT;
	}
	/* kdump-file-analyze finds the vmlinux; its errors are its own. */
	{
		char *cmd[] = { "kdump-file-analyze", "vmlinux", core,
				 cli->opt.vmlinux ? "--vmlinux" : NULL,
				 (char *)cli->opt.vmlinux, NULL };
		struct process_opts o = PROCESS_OPTS_INIT;
		struct process_result res;

		o.stderr_fd = STDERR_FILENO;
		o.on_line = first_line;
		o.userdata = vmlinux;
		r = process_run(cmd, &o, &res);
		if (r < 0) {
			log_error(cli, "cannot run kdump-file-analyze: %s",
				  r == -ENOENT ? "it is not installed" :
						 strerror(-r));
			return r;
		}
		if (!process_succeeded(&res) || !vmlinux[0])
			return -ENOENT;
	}
	return debug_exec_crash(cli, vmlinux, core);
}
