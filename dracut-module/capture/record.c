// SPDX-License-Identifier: GPL-2.0
/*
 * What the capture leaves for the next boot: metadata.json in the dump
 * (whatever happened to the vmcore), and when the capture fails, a
 * failure record in the kernel log that pstore keeps across the reboot.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "dumpdir.h"
#include "elfnote.h"
#include "record.h"
#include "util.h"

long long capture_file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* The VMCOREINFO note's OSRELEASE and CRASHTIME; 1 ends the walk. */
static int note_vmcoreinfo(const struct elf_note *n, void *userdata)
{
	struct capture_vmcoreinfo *ret = userdata;
	char t[32];

	if (!elf_note_is(n, "VMCOREINFO"))
		return 0;
	(void)vmcoreinfo_get(n->desc, n->descsz, "OSRELEASE", ret->release,
			     sizeof(ret->release));
	if (vmcoreinfo_get(n->desc, n->descsz, "CRASHTIME", t, sizeof(t)) == 0)
		ret->crash_time = strtoll(t, NULL, 10);
	return 1;
}

/* The VMCOREINFO note of a PT_NOTE segment, -ENOENT when it has none. */
static int segment_find(int fd, const Elf64_Phdr *ph,
			struct capture_vmcoreinfo *ret)
{
	char *notes;
	int r;

	if (ph->p_type != PT_NOTE || ph->p_filesz > (1 << 20))
		return -ENOENT;
	notes = malloc(ph->p_filesz + 1);
	if (!notes)
		return -ENOMEM;
	if (pread(fd, notes, ph->p_filesz, ph->p_offset) !=
	    (ssize_t)ph->p_filesz)
		r = -EIO;
	else
		r = elf_notes_walk(notes, ph->p_filesz, note_vmcoreinfo, ret,
				   NULL);
	free(notes);
	/* Notes cut short hold no VMCOREINFO we could read. */
	return r == 1 ? 0 : r == 0 || r == -EBADMSG ? -ENOENT : r;
}

/* Pull OSRELEASE and CRASHTIME out of the VMCOREINFO note of the vmcore. */
int capture_vmcoreinfo(const struct capture *cap,
		       struct capture_vmcoreinfo *ret)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int fd, r = -ENOENT;

	ret->release[0] = '\0';
	ret->crash_time = -1;
	fd = open(cap->paths.vmcore, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(ph) || eh.e_phnum > 4096) {
		close(fd);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < eh.e_phnum && r == -ENOENT; i++) {
		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + i * sizeof(ph)) !=
		    sizeof(ph))
			r = -EIO;
		else
			r = segment_find(fd, &ph, ret);
	}
	close(fd);
	return r;
}

/* The "Kernel panic - not syncing: ..." text from the saved dmesg. */
static void find_panic(const char *dmesg, char *buf, size_t size)
{
	static const char key[] = "Kernel panic - not syncing: ";
	char line[1024];
	FILE *f;

	buf[0] = '\0';
	f = fopen(dmesg, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *s = strstr(line, key);

		if (s) {
			s += strlen(key);
			s[strcspn(s, "\n")] = '\0';
			snprintf(buf, size, "%s", s);
		}
	}
	fclose(f);
}

/* metadata.json of a capture that has not finished, saying why. */
int capture_write_incomplete(int dirfd, const char *why)
{
	struct dump_metadata m;

	dump_metadata_init(&m);
	m.complete = false;
	snprintf(m.error, sizeof(m.error), "%s", why);
	return dump_metadata_write(dirfd, &m);
}

static void metadata_extra_modules(const struct capture *cap,
				   struct dump_metadata *m)
{
	for (unsigned int i = 0; i < cap->n_extra; i++) {
		struct dump_meta_module *d = &m->extra_modules[i];
		int e = cap->extra[i].error;
		const char *name = e ? strerrorname_np(e) : "";

		snprintf(d->name, sizeof(d->name), "%s", cap->extra[i].name);
		d->loaded = e == 0;
		snprintf(d->error, sizeof(d->error), "%s", name ? name : "?");
	}
	m->n_extra_modules = cap->n_extra;
}

static void metadata_hooks(const struct capture *cap, struct dump_metadata *m)
{
	for (unsigned int i = 0; i < cap->n_hooks; i++) {
		const struct capture_hook *h = &cap->hooks[i];
		struct dump_meta_hook *d = &m->hooks[i];

		snprintf(d->phase, sizeof(d->phase), "%s", h->phase);
		snprintf(d->path, sizeof(d->path), "%s", h->path);
		d->exit = h->res.status;
		d->timed_out = h->res.timed_out;
		d->seconds = h->res.ms / 1000.0;
		d->failed = hook_failed(&h->res);
		(void)hook_describe(&h->res, d->result, sizeof(d->result));
	}
	m->n_hooks = cap->n_hooks;
}

/* How long each part took. */
static void metadata_seconds(const struct capture *cap, struct dump_metadata *m)
{
	m->has_seconds = true;
	m->seconds_find_target = cap->t_dev ?
		(cap->t_dev - cap->t_start) / 1000.0 : 0;
	m->seconds_dmesg = cap->t_dmesg / 1000.0;
	m->seconds_vmcore = cap->t_core / 1000.0;
	m->seconds_total = (now_ms() - cap->t_start) / 1000.0;
}

/* What the dump is: the crashed kernel, its panic, what was saved. */
static void metadata_dump(const struct capture *cap, struct dump_metadata *m)
{
	const struct kdump_conf *c = &cap->conf;
	struct capture_vmcoreinfo vi;

	(void)capture_vmcoreinfo(cap, &vi);
	snprintf(m->kernel_release, sizeof(m->kernel_release), "%s", vi.release);
	m->crash_time = vi.crash_time;
	find_panic(cap->dmesg, m->panic, sizeof(m->panic));
	m->dmesg_only = c->dmesg_only;
	if (!c->dmesg_only) {
		m->dump_level = c->dump_level;
		snprintf(m->compression, sizeof(m->compression), "%s",
			 conf_compression_to_string(c->compression));
	}
	m->complete = cap->result == 0;
	/* An ssh dump's vmcore is on the collector alone. */
	m->vmcore_bytes = c->net == CONF_NET_SSH ? cap->net.vmcore_bytes :
		capture_file_size(cap->core);
	m->dmesg_bytes = capture_file_size(cap->dmesg);
	/* Where the dump was meant to go, also when the fallback took it. */
	snprintf(m->target, sizeof(m->target), "%s",
		 cap->net.url[0] ? cap->net.url : c->target);
	snprintf(m->fallback_reason, sizeof(m->fallback_reason), "%s",
		 cap->net.fallback_reason);
	snprintf(m->error, sizeof(m->error), "%s", cap->reason);
}

/* metadata.json, replacing the record that the capture has not finished. */
int capture_write_metadata(struct capture *cap)
{
	struct dump_metadata *m = malloc(sizeof(*m));
	int r = -ENOMEM;

	if (m) {
		dump_metadata_init(m);
		metadata_dump(cap, m);
		metadata_seconds(cap, m);
		metadata_extra_modules(cap, m);
		metadata_hooks(cap, m);
		r = dump_metadata_write(cap->dir_fd, m);
		free(m);
	}
	if (r < 0)
		capture_say(cap, "warning: cannot write %s: %s",
			    capture_rel(cap, cap->meta), strerror(-r));
	return r;
}

/* Metadata, whatever happened to the vmcore, once there is a directory. */
int phase_record(struct capture *cap)
{
	if (!cap->dir[0])
		return 0;
	capture_step(cap, "writing metadata.json");
	(void)capture_write_metadata(cap);
	return 0;
}

/* "name,name,..." of /proc/modules, as much as fits. */
static void modules_loaded(const char *path, char *buf, size_t size)
{
	char line[512], name[64];
	size_t pos = 0;
	FILE *f;

	buf[0] = '\0';
	f = fopen(path, "re");
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

static unsigned long long mem_free_kib(const char *meminfo)
{
	unsigned long long kib = 0;
	char l[256];
	FILE *f = fopen(meminfo, "re");

	while (f && fgets(l, sizeof(l), f))
		if (sscanf(l, "MemFree: %llu kB", &kib) == 1)
			break;
	if (f)
		fclose(f);
	return kib;
}

/*
 * Why the capture failed, for the next boot: one line in the kernel log,
 * which the kernel writes to pstore when it restarts (always_kmsg_dump
 * set now, so only a failure costs a pstore write).  As PID 1 only: on
 * the host the kernel log is the host's.
 */
void capture_record_failure(struct capture *cap, const char *step,
			    const struct diag *d)
{
	const struct kdump_conf *c = &cap->conf;
	struct capture_record rec = { .crash_time = -1 };
	char line[1100] = "<3>", backend[64] = "";
	struct capture_vmcoreinfo vi;
	int err = -d->error;

	if (!cap->is_init)
		return;
	if (capture_vmcoreinfo(cap, &vi) == 0)
		rec.crash_time = vi.crash_time;
	snprintf(rec.step, sizeof(rec.step), "%s", step);
	if (err > 0 && strerrorname_np(err))
		snprintf(rec.error, sizeof(rec.error), "%s", strerrorname_np(err));
	text_format(rec.target, sizeof(rec.target), "%s",
		    c->raw[0] ? c->raw : cap->net.url[0] ? cap->net.url :
		    c->target);
	modules_loaded(cap->paths.proc_modules, rec.modules, sizeof(rec.modules));
	rec.mem_free_kib = mem_free_kib(cap->paths.meminfo);
	/* The message alone: a failure that said nothing gave no reason. */
	(void)text_format(rec.why, sizeof(rec.why), "%s",
			  d->msg[0] ? d->msg : "no reason given");
	if (record_format(&rec, line + 3, sizeof(line) - 3) < 0)
		return;
	(void)write_attr(cap->paths.kmsg, line);
	(void)write_attr(cap->paths.always_kmsg_dump, "Y");
	if (read_line_file(cap->paths.pstore_backend, backend,
			   sizeof(backend)) == 0 && backend[0] &&
	    strcmp(backend, "(null)") != 0)
		capture_say(cap, "recorded why for the next boot (pstore: %s)",
			    backend);
	else
		capture_say(cap, "warning: no pstore backend in the capture kernel: the next boot will not know why");
}
