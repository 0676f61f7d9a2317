// SPDX-License-Identifier: GPL-2.0
/*
 * kdump-file-analyze report: report.txt for people, report.json for
 * kdump-file's list and status (the field names are read there).
 */
#include <json-c/json.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "analyze.h"
#include "analyze-report.h"
#include "util.h"
#include "json.h"

/* The first lines of report.txt: what the report was made from. */
static void write_source_text(FILE *f, const struct report_ctx *c)
{
	char sz[32];

	if (!c->vmcore && c->copy_of[0])
		fprintf(f, "vmcore:    on the collector: %s; report from its "
			"kernel log, copied to %s/dmesg.txt\n", c->copy_of,
			c->dir);
	else if (!c->vmcore && c->incomplete)
		fprintf(f, "vmcore:    none: the capture did not save it (its "
			"reason is in %s/metadata.json and 'kdump-file status'); "
			"report from %s/dmesg.txt\n", c->dir, c->dir);
	else if (!c->vmcore)
		fprintf(f, "vmcore:    none, by configuration: a dmesg-only dump "
			"(dump_level = dmesg) saves the kernel log alone; "
			"report from %s/dmesg.txt\n", c->dir);
	else if (c->vmlinux)
		fprintf(f, "vmcore:    %s (%s, %s)\nvmlinux:   %s\n", c->vmcore,
			c->info.format,
			size_str(c->info.file_size, sz, sizeof(sz)), c->vmlinux);
	else
		fprintf(f, "vmcore:    %s (%s, %s)\nvmlinux:   none (%s); "
			"report from the dump alone\n", c->vmcore,
			c->info.format,
			size_str(c->info.file_size, sz, sizeof(sz)),
			c->vmlinux_note);
}

static void write_report_text(FILE *f, const struct report_ctx *c)
{
	char when[64];

	format_time(c->info.crashtime, when, sizeof(when));
	fprintf(f, "kdump-file crash report\n\n");
	write_source_text(f, c);
	fprintf(f, "crashed:   %s\n", when);
	report_write_text(f, &c->rep);
	fprintf(f, "\n---- %s ----\n%s", c->raw_name, c->raw);
	if (c->raw[0] && c->raw[strlen(c->raw) - 1] != '\n')
		fputc('\n', f);
}

static struct json_object *text_array(const char (*items)[REPORT_FRAME_LEN],
				      size_t n)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_text(items[i]));
	return a;
}

/* What crashed: the fields report.c found, and when. */
static void put_crash_json(struct json_object *o, const struct report_ctx *c)
{
	const struct crash_report *r = &c->rep;
	struct json_object *t;
	char when[64];
	size_t i;

	format_time(c->info.crashtime, when, sizeof(when));
	put_text(o, "signature", r->signature);
	put_text(o, "panic", r->panic);
	put_text(o, "oops", r->oops);
	t = json_object_new_object();
	put_text(t, "command", r->command);
	json_object_object_add(t, "pid", r->pid >= 0 ?
			       json_object_new_int64(r->pid) : NULL);
	json_object_object_add(o, "task", t);
	json_object_object_add(o, "cpu", r->cpu >= 0 ?
			       json_object_new_int(r->cpu) : NULL);
	json_object_object_add(o, "backtrace",
			       text_array(r->frames, r->n_frames));
	put_text(o, "kernel_release", r->release[0] ? r->release :
		 c->info.osrelease);
	put_text(o, "uptime", r->uptime);
	put_text(o, "taint", r->taint);
	json_object_object_add(o, "crash_time", c->info.crashtime >= 0 ?
			       json_object_new_int64(c->info.crashtime) : NULL);
	put_text(o, "crash_time_utc", c->info.crashtime >= 0 ? when : NULL);
	t = json_object_new_object();
	for (i = 0; i < r->n_states; i++)
		json_object_object_add(t, r->states[i].name,
				       json_object_new_int64(r->states[i].count));
	json_object_object_add(o, "task_states", t);
}

/* What the report was made from, and what the signature was made of. */
static void put_source_json(struct json_object *o, const struct report_ctx *c)
{
	const struct crash_report *r = &c->rep;

	put_text(o, "source", r->source);
	put_text(o, "vmcore", c->vmcore);
	put_text(o, "vmcore_format", c->vmcore ? c->info.format : NULL);
	json_object_object_add(o, "dmesg_only",
			       json_object_new_boolean(!c->vmcore &&
						       !c->incomplete &&
						       !c->copy_of[0]));
	put_text(o, "collector_dump", c->copy_of[0] ? c->copy_of : NULL);
	json_object_object_add(o, "vmcore_missing",
			       json_object_new_boolean(c->incomplete));
	put_text(o, "vmlinux", c->vmlinux);
	put_text(o, "signature_text", r->normalized);
	json_object_object_add(o, "signature_frames",
			       text_array(r->sig_frames, r->n_sig_frames));
}

static void write_report_json(FILE *f, const struct report_ctx *c)
{
	struct json_object *o = json_object_new_object();

	put_crash_json(o, c);
	put_source_json(o, c);
	json_print(f, o);
	json_object_put(o);
}

/* DIR/NAME with what @writer writes, through lib's write_file_atomic(). */
static int write_one(const struct report_ctx *c, const char *name,
		     void (*writer)(FILE *f, const struct report_ctx *c))
{
	_cleanup_free_ char *buf = NULL;
	char path[PATH_MAX];
	size_t len = 0;
	FILE *f;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", c->dir, name) >=
	    sizeof(path))
		return -ENAMETOOLONG;
	f = open_memstream(&buf, &len);
	if (!f)
		return -errno;
	writer(f, c);
	if (ferror(f)) {
		(void)fclose(f);
		return -ENOMEM;
	}
	if (fclose(f) != 0)
		return -(errno ?: ENOMEM);
	return write_file_atomic(path, buf, len, 0600);
}

int report_write_files(const struct report_ctx *c)
{
	int r;

	r = write_one(c, "report.txt", write_report_text);
	if (r < 0)
		return r;
	return write_one(c, "report.json", write_report_json);
}
