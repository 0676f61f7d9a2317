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

#include <json-c/json.h>

#include "capture.h"
#include "json.h"
#include "record.h"
#include "util.h"

long long capture_file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* OSRELEASE and CRASHTIME from a VMCOREINFO note's text. */
static void vmcoreinfo_parse(char *desc, size_t len,
			     struct capture_vmcoreinfo *ret)
{
	char *s;

	desc[len ? len - 1 : 0] = '\0';
	s = strstr(desc, "OSRELEASE=");
	if (s)
		sscanf(s, "OSRELEASE=%64[^\n]", ret->release);
	s = strstr(desc, "CRASHTIME=");
	if (s)
		ret->crash_time = strtoll(s + 10, NULL, 10);
}

/* Walk the notes of one PT_NOTE segment (n bytes) for VMCOREINFO. */
static int notes_find(char *notes, size_t n, struct capture_vmcoreinfo *ret)
{
	size_t off = 0;

	while (off + sizeof(Elf64_Nhdr) <= n) {
		size_t name_off, desc_off, next;
		Elf64_Nhdr nh;

		memcpy(&nh, notes + off, sizeof(nh));
		name_off = off + sizeof(nh);
		desc_off = name_off + ((nh.n_namesz + 3) & ~3UL);
		next = desc_off + ((nh.n_descsz + 3) & ~3UL);
		if (nh.n_namesz > n || nh.n_descsz > n || next > n)
			break;
		if (nh.n_namesz == sizeof("VMCOREINFO") &&
		    memcmp(notes + name_off, "VMCOREINFO", nh.n_namesz) == 0) {
			vmcoreinfo_parse(notes + desc_off, nh.n_descsz, ret);
			return 0;
		}
		off = next;
	}
	return -ENOENT;
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
		r = notes_find(notes, ph->p_filesz, ret);
	free(notes);
	return r;
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
int capture_write_incomplete(const char *meta, const char *why)
{
	struct json_object *o = json_object_new_object();
	int r = -ENOMEM;

	if (o && json_set_bool(o, "complete", 0) == 0 &&
	    json_set_text(o, "error", why) == 0)
		r = json_write_atomic(meta, o, 0600);
	json_object_put(o);
	return r;
}

static struct json_object *extra_modules_json(const struct capture *cap)
{
	struct json_object *a = json_object_new_array();

	for (unsigned int i = 0; a && i < cap->n_extra; i++) {
		struct json_object *o = json_object_new_object();
		int e = cap->extra[i].error;
		const char *name = e ? strerrorname_np(e) : "";
		int m = o ? 0 : -ENOMEM;

		if (m == 0)
			m = json_set_text(o, "name", cap->extra[i].name);
		if (m == 0)
			m = json_set_bool(o, "loaded", e == 0);
		if (m == 0)
			m = json_set_text(o, "error", name ? name : "?");
		if (m < 0 || json_object_array_add(a, o) < 0) {
			json_object_put(o);
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}

/* seconds: how long each part took. */
static int metadata_seconds(const struct capture *cap, struct json_object *o)
{
	struct json_object *secs = json_object_new_object();
	int m = secs ? 0 : -ENOMEM;

	if (m == 0)
		m = json_set_double(secs, "find_target",
				    cap->t_dev ? (cap->t_dev - cap->t_start) / 1000.0 : 0);
	if (m == 0)
		m = json_set_double(secs, "dmesg", cap->t_dmesg / 1000.0);
	if (m == 0)
		m = json_set_double(secs, "vmcore", cap->t_core / 1000.0);
	if (m == 0)
		m = json_set_double(secs, "total",
				    (now_ms() - cap->t_start) / 1000.0);
	if (m == 0 && json_object_object_add(o, "seconds", secs) < 0)
		m = -ENOMEM;
	if (m < 0)
		json_object_put(secs);
	return m;
}

/* What the dump is: the crashed kernel, its panic, what was saved. */
static int metadata_dump(const struct capture *cap, struct json_object *o)
{
	const struct kdump_conf *c = &cap->conf;
	struct capture_vmcoreinfo vi;
	char panic[512];
	int m;

	(void)capture_vmcoreinfo(cap, &vi);
	find_panic(cap->dmesg, panic, sizeof(panic));
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
		m = json_set_bool(o, "complete", cap->result == 0);
	if (m == 0)
		m = json_set_int(o, "vmcore_bytes", capture_file_size(cap->core));
	if (m == 0)
		m = json_set_int(o, "dmesg_bytes", capture_file_size(cap->dmesg));
	if (m == 0)
		m = json_set_text(o, "target", c->target);
	if (m == 0)
		m = json_set_text(o, "error", cap->reason);
	return m;
}

static int metadata_add(struct json_object *o, const char *key,
			struct json_object *v)
{
	if (!v || json_object_object_add(o, key, v) < 0) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

/* metadata.json, replacing the record that the capture has not finished. */
int capture_write_metadata(struct capture *cap)
{
	struct json_object *o = json_object_new_object();
	int m = o ? 0 : -ENOMEM;

	if (m == 0)
		m = metadata_dump(cap, o);
	if (m == 0)
		m = metadata_seconds(cap, o);
	if (m == 0 && cap->n_extra)
		m = metadata_add(o, "extra_modules", extra_modules_json(cap));
	if (m == 0 && cap->n_hooks)
		m = metadata_add(o, "hooks", capture_hooks_json(cap));
	if (m == 0)
		m = json_write_atomic(cap->meta, o, 0600);
	json_object_put(o);
	if (m < 0)
		capture_say(cap, "warning: cannot write %s: %s",
			    capture_rel(cap, cap->meta), strerror(-m));
	return m;
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

static void write_small(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	(void)!write(fd, text, strlen(text));
	close(fd);
}

/*
 * Why the capture failed, for the next boot: one line in the kernel log,
 * which the kernel writes to pstore when it restarts (always_kmsg_dump
 * set now, so only a failure costs a pstore write).  As PID 1 only: on
 * the host the kernel log is the host's.
 */
void capture_record_failure(struct capture *cap, int err, const char *step,
			    const char *why)
{
	const struct kdump_conf *c = &cap->conf;
	struct capture_record rec = { .crash_time = -1 };
	char line[1100] = "<3>", backend[64] = "";
	struct capture_vmcoreinfo vi;

	if (!cap->is_init)
		return;
	if (capture_vmcoreinfo(cap, &vi) == 0)
		rec.crash_time = vi.crash_time;
	snprintf(rec.step, sizeof(rec.step), "%s", step);
	if (err > 0 && strerrorname_np(err))
		snprintf(rec.error, sizeof(rec.error), "%s", strerrorname_np(err));
	snprintf(rec.target, sizeof(rec.target), "%s",
		 c->raw[0] ? c->raw : c->target);
	modules_loaded(cap->paths.proc_modules, rec.modules, sizeof(rec.modules));
	rec.mem_free_kib = mem_free_kib(cap->paths.meminfo);
	snprintf(rec.why, sizeof(rec.why), "%s", why[0] ? why : "no reason given");
	if (record_format(&rec, line + 3, sizeof(line) - 3) < 0)
		return;
	write_small(cap->paths.kmsg, line);
	write_small(cap->paths.always_kmsg_dump, "Y");
	if (read_line_file(cap->paths.pstore_backend, backend,
			   sizeof(backend)) == 0 && backend[0] &&
	    strcmp(backend, "(null)") != 0)
		capture_say(cap, "recorded why for the next boot (pstore: %s)",
			    backend);
	else
		capture_say(cap, "warning: no pstore backend in the capture kernel: the next boot will not know why");
}
