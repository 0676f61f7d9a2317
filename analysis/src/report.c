// SPDX-License-Identifier: GPL-2.0
/*
 * report: parse crash(8) output and kernel logs, and sign crashes.
 *
 * The log formats are the kernel's: panic() prints "Kernel panic - not
 * syncing: %s" (kernel/panic.c), dump_stack_print_info() prints "CPU: %d
 * PID: %d Comm: %.20s %s%s %s %.*s" (lib/dump_stack.c), show_trace_log_lvl()
 * prints "Call Trace:" and one " [? ]func+0xoff/0xsize" per frame between
 * "<TASK>" and "</TASK>" (arch/x86/kernel/dumpstack.c).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "report.h"
#include "util.h"

#define PANIC_PREFIX "Kernel panic - not syncing: "

void report_init(struct crash_report *r, const char *source)
{
	memset(r, 0, sizeof(*r));
	r->pid = -1;
	r->cpu = -1;
	snprintf(r->source, sizeof(r->source), "%s", source);
}

static void set_str(char *dst, size_t size, const char *src, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
	/* Trim trailing blanks and newline. */
	while (len && isspace((unsigned char)dst[len - 1]))
		dst[--len] = '\0';
}

/* Iterate over lines without modifying the text. */
struct line {
	const char *p;
	size_t len;
};

static bool next_line(const char **pos, struct line *l)
{
	const char *s = *pos, *nl;

	if (!*s)
		return false;
	nl = strchr(s, '\n');
	l->p = s;
	l->len = nl ? (size_t)(nl - s) : strlen(s);
	*pos = nl ? nl + 1 : s + l->len;
	return true;
}

/* Copy of a line without a "[   12.345678] " prefix, NUL-terminated. */
static void line_text(const struct line *l, char *buf, size_t size,
		      char *ts, size_t tssize)
{
	const char *p = l->p, *end = l->p + l->len;

	if (ts && tssize)
		ts[0] = '\0';
	while (p < end && *p == ' ')
		p++;
	if (p < end && *p == '[') {
		const char *q = memchr(p, ']', end - p);

		/* only a timestamp, not "[exception RIP: ...]" */
		if (q && q - p > 1 &&
		    strspn(p + 1, " 0123456789.") == (size_t)(q - p - 1)) {
			const char *t = p + 1;

			while (t < q && *t == ' ')
				t++;
			if (ts && tssize)
				set_str(ts, tssize, t, q - t);
			p = q + 1;
			if (p < end && *p == ' ')
				p++;
		}
	}
	set_str(buf, size, p, end - p);
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* "      KEY: value" -> value, or NULL */
static const char *field(const char *line, const char *key)
{
	const char *s = skip_blanks(line);
	size_t n = strlen(key);

	if (strncmp(s, key, n) || s[n] != ':')
		return NULL;
	return skip_blanks(s + n + 1);
}

static void unquote(char *s)
{
	size_t n = strlen(s);

	if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
		memmove(s, s + 1, n - 2);
		s[n - 2] = '\0';
	}
	n = strlen(s);
	/* crash keeps the "\n" of panic()'s format as two characters */
	if (n >= 2 && s[n - 2] == '\\' && s[n - 1] == 'n')
		s[n - 2] = '\0';
}

void report_frame_name(const char *in, char *out, size_t size)
{
	const char *s = skip_blanks(in);
	size_t n = 0;

	if (s[0] == '?' && s[1] == ' ')
		s = skip_blanks(s + 2);
	/* Names end at "+0x", at a blank, or at a compiler suffix (".cold"). */
	while (s[n] && (isalnum((unsigned char)s[n]) || s[n] == '_'))
		n++;
	set_str(out, size, s, n);
}

static void add_frame(struct crash_report *r, const char *name)
{
	char f[REPORT_FRAME_LEN];

	if (r->n_frames >= REPORT_FRAMES_MAX)
		return;
	report_frame_name(name, f, sizeof(f));
	if (!f[0])
		return;
	memcpy(r->frames[r->n_frames++], f, sizeof(f));
}

/* "PID: 245      TASK: ffff888003e8c000  CPU: 1    COMMAND: "bash"" */
static bool parse_bt_header(struct crash_report *r, const char *s)
{
	const char *p = field(s, "PID"), *c, *q;

	if (!p || !strstr(s, "TASK:"))
		return false;
	if (r->pid < 0)
		r->pid = strtol(p, NULL, 10);
	c = strstr(s, "CPU:");
	if (c && r->cpu < 0 && isdigit((unsigned char)*skip_blanks(c + 4)))
		r->cpu = strtol(skip_blanks(c + 4), NULL, 10);
	c = strstr(s, "COMMAND:");
	if (c && !r->command[0]) {
		c = skip_blanks(c + 8);
		if (*c == '"') {
			c++;
			q = strrchr(c, '"');
			set_str(r->command, sizeof(r->command), c,
				q && q > c ? (size_t)(q - c) : strlen(c));
		} else {
			set_str(r->command, sizeof(r->command), c, strlen(c));
		}
	}
	return true;
}

/* " #3 [ffffc900001c7e08] sysrq_handle_crash at ffffffff8171a8f6" */
static bool parse_bt_frame(struct crash_report *r, const char *s)
{
	const char *p = skip_blanks(s), *q;

	if (*p != '#' || !isdigit((unsigned char)p[1]))
		return false;
	p++;
	while (isdigit((unsigned char)*p))
		p++;
	p = skip_blanks(p);
	if (*p == '[') {
		q = strchr(p, ']');
		if (!q)
			return false;
		p = skip_blanks(q + 1);
	}
	add_frame(r, p);
	return true;
}

static void add_state(struct crash_report *r, const char *s)
{
	const char *p = skip_blanks(s);
	struct report_state *st;

	if (!isupper((unsigned char)p[0]) || !isupper((unsigned char)p[1]) ||
	    p[2] != ':' || !isdigit((unsigned char)*skip_blanks(p + 3)) ||
	    r->n_states >= REPORT_STATES_MAX)
		return;
	st = &r->states[r->n_states++];
	memcpy(st->name, p, 2);
	st->name[2] = '\0';
	st->count = strtol(skip_blanks(p + 3), NULL, 10);
}

int report_parse_crash(struct crash_report *r, const char *text)
{
	const char *pos = text, *v;
	bool in_bt = false, bt_done = false;
	char buf[512];
	struct line l;

	while (next_line(&pos, &l)) {
		line_text(&l, buf, sizeof(buf), NULL, 0);
		if (l.len && l.p[0] == '[')
			continue;	/* log lines: report_parse_log() */
		if (field(buf, "PANIC") && !r->panic[0]) {
			v = field(buf, "PANIC");
			set_str(r->panic, sizeof(r->panic), v, strlen(v));
			unquote(r->panic);
		} else if (field(buf, "RELEASE") && !r->release[0]) {
			v = field(buf, "RELEASE");
			set_str(r->release, sizeof(r->release), v, strlen(v));
		} else if (field(buf, "UPTIME") && !r->uptime[0]) {
			v = field(buf, "UPTIME");
			set_str(r->uptime, sizeof(r->uptime), v, strlen(v));
		} else if (!bt_done && parse_bt_header(r, buf)) {
			in_bt = true;
		} else if (in_bt && strstr(buf, "[exception RIP: ")) {
			add_frame(r, strstr(buf, "[exception RIP: ") + 16);
		} else if (in_bt && parse_bt_frame(r, buf)) {
			;
		} else if (in_bt && r->n_frames && !buf[0]) {
			/* the first bt block ends at a blank line */
			in_bt = false;
			bt_done = true;
		} else {
			add_state(r, buf);
		}
	}
	/* "log | tail" is in the same output: the panic line and taint. */
	report_parse_log(r, text);
	return r->panic[0] || r->n_frames ? 0 : -ENODATA;
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static bool is_oops_line(const char *s)
{
	return starts(s, "BUG: ") || starts(s, "Oops: ") ||
	       starts(s, "general protection fault") ||
	       starts(s, "kernel BUG at ") || starts(s, "WARNING: CPU: ") ||
	       starts(s, "Kernel BUG ") || starts(s, "watchdog: BUG: ");
}

/* "CPU: 1 PID: 245 Comm: bash Not tainted 6.1.192 #1" */
static void parse_cpu_line(struct crash_report *r, const char *s)
{
	const char *p, *t;
	char taint[64];
	size_t n = 0;

	r->cpu = strtol(s + 5, NULL, 10);
	p = strstr(s, " PID: ");
	if (p)
		r->pid = strtol(p + 6, NULL, 10);
	p = strstr(s, " Comm: ");
	if (p) {
		p += 7;
		t = strchr(p, ' ');
		set_str(r->command, sizeof(r->command), p,
			t ? (size_t)(t - p) : strlen(p));
	}
	if (strstr(s, " Not tainted ")) {
		snprintf(r->taint, sizeof(r->taint), "Not tainted");
		p = strstr(s, " Not tainted ") + 13;
	} else if (strstr(s, " Tainted: ")) {
		/* Flags are padded columns: keep the letters. */
		p = strstr(s, " Tainted: ") + 10;
		n = snprintf(taint, sizeof(taint), "Tainted:");
		for (; *p && !(isdigit((unsigned char)*p) && p[-1] == ' ');
		     p++) {
			if (isupper((unsigned char)*p) && n + 3 < sizeof(taint)) {
				taint[n++] = ' ';
				taint[n++] = *p;
				taint[n] = '\0';
			}
		}
		snprintf(r->taint, sizeof(r->taint), "%s", taint);
	} else {
		return;
	}
	p = skip_blanks(p);
	if (!r->release[0] && isdigit((unsigned char)*p)) {
		t = strchr(p, ' ');
		set_str(r->release, sizeof(r->release), p,
			t ? (size_t)(t - p) : strlen(p));
	}
}

/* The frames of one "Call Trace:" block starting after line @start. */
static void parse_trace(struct crash_report *r, const char *start)
{
	const char *pos = start;
	char buf[256];
	struct line l;

	while (next_line(&pos, &l)) {
		const char *s;

		line_text(&l, buf, sizeof(buf), NULL, 0);
		s = skip_blanks(buf);
		if (!strcmp(s, "<TASK>") || !strcmp(s, "<IRQ>") ||
		    !strcmp(s, "</IRQ>") || !strcmp(s, "<NMI>") ||
		    !strcmp(s, "</NMI>") || !strcmp(s, "<#DF>"))
			continue;
		if (!strcmp(s, "</TASK>") || !*s)
			break;
		if (s[0] == '?')
			continue;	/* unreliable: stale stack contents */
		if (!strstr(s, "+0x"))
			break;		/* registers or the next message */
		add_frame(r, s);
	}
}

/* Where the panic, the task's CPU line and the traces are in a log. */
struct log_scan {
	const char *panic_at;		/* the line after the panic's */
	const char *cpu_before, *cpu_after;	/* the panic's line */
	const char *trace_before, *trace_after;
	char rip[REPORT_FRAME_LEN];	/* the faulting function of an oops */
	char uptime[32];		/* the panic's timestamp */
};

/* One line of the log: the panic and oops lines kept, the others noted. */
static void scan_line(struct crash_report *r, struct log_scan *sc,
		      const struct line *l, const char *next)
{
	char buf[512], ts[32];
	const char *s = buf, *f;

	line_text(l, buf, sizeof(buf), ts, sizeof(ts));
	if (!sc->panic_at && starts(s, PANIC_PREFIX)) {
		sc->panic_at = next;
		if (!r->panic[0] || !starts(r->panic, PANIC_PREFIX))
			set_str(r->panic, sizeof(r->panic), s, strlen(s));
		snprintf(sc->uptime, sizeof(sc->uptime), "%s", ts);
	} else if (!r->oops[0] && is_oops_line(s)) {
		set_str(r->oops, sizeof(r->oops), s, strlen(s));
	} else if (starts(s, "CPU: ") && strstr(s, " PID: ") &&
		   strstr(s, " Comm: ")) {
		if (!sc->panic_at)
			sc->cpu_before = l->p;
		else if (!sc->cpu_after)
			sc->cpu_after = l->p;
	} else if (!strcmp(s, "Call Trace:")) {
		if (!sc->panic_at)
			sc->trace_before = next;
		else if (!sc->trace_after)
			sc->trace_after = next;
	} else if (!sc->panic_at && starts(s, "RIP: ") && strstr(s, "+0x")) {
		/* "RIP: 0010:func+0x16/0x20": the faulting function */
		f = strchr(s + 5, ':');
		if (f)
			report_frame_name(f + 1, sc->rip, sizeof(sc->rip));
	}
}

/* The "CPU: N PID: N Comm: X" line of the crashing task at @cpu. */
static void take_cpu_line(struct crash_report *r, const char *cpu)
{
	struct line c = { cpu, strcspn(cpu, "\n") };
	struct crash_report tmp;
	char buf[512];

	line_text(&c, buf, sizeof(buf), NULL, 0);
	if (r->pid < 0) {
		parse_cpu_line(r, buf);
	} else if (!r->taint[0]) {
		/* crash's bt named the task: take only the taint */
		report_init(&tmp, "");
		parse_cpu_line(&tmp, buf);
		memcpy(r->taint, tmp.taint, sizeof(r->taint));
		if (!r->release[0])
			memcpy(r->release, tmp.release, sizeof(r->release));
	}
}

int report_parse_log(struct crash_report *r, const char *text)
{
	struct log_scan sc = { 0 };
	const char *pos = text, *cpu, *trace;
	struct line l;

	while (next_line(&pos, &l))
		scan_line(r, &sc, &l, pos);
	if (!sc.panic_at && !r->oops[0])
		return r->panic[0] ? 0 : -ENODATA;

	/*
	 * panic() dumps the stack after its message unless an oops already
	 * did (kernel/panic.c); then the oops' trace comes before it.
	 */
	cpu = sc.cpu_after ? sc.cpu_after : sc.cpu_before;
	trace = sc.trace_after ? sc.trace_after : sc.trace_before;
	if (cpu)
		take_cpu_line(r, cpu);
	if (trace && r->n_frames == 0) {
		if (!sc.trace_after && sc.rip[0])
			add_frame(r, sc.rip);
		parse_trace(r, trace);
	}
	if (!r->uptime[0] && sc.uptime[0])
		text_format(r->uptime, sizeof(r->uptime), "%s s", sc.uptime);
	return 0;
}

static bool is_hex_word(const char *s, size_t n)
{
	bool digit = false;
	size_t i;

	for (i = 0; i < n; i++) {
		if (isdigit((unsigned char)s[i]))
			digit = true;
		else if (!strchr("abcdefABCDEF", s[i]))
			return false;
	}
	/* "dead" stays a word; "ffffc900", "0002" and "123" are numbers */
	return digit || n >= 8;
}

void report_normalize(const char *in, char *out, size_t size)
{
	const char *s = in;
	size_t n = 0;
	bool blank = false;

	if (!size)
		return;
	/* a leading dmesg timestamp */
	s = skip_blanks(s);
	if (*s == '[') {
		const char *q = strchr(s, ']');

		if (q && strspn(s + 1, " 0123456789.") == (size_t)(q - s - 1))
			s = q + 1;
	}
#define PUT(c) do { if (n + 1 < size) out[n++] = (c); } while (0)
	while (*s) {
		if (isspace((unsigned char)*s)) {
			blank = true;
			s++;
			continue;
		}
		if (*s == '"' || *s == '\'') {
			s++;
			continue;
		}
		if (blank && n)
			PUT(' ');
		blank = false;
		if (isalnum((unsigned char)*s) || *s == '_') {
			const char *w = s;
			size_t len;

			if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
			    isxdigit((unsigned char)s[2]))
				s += 2;
			while (isalnum((unsigned char)*s) || *s == '_')
				s++;
			len = s - w;
			if (w[0] == '0' && (w[1] == 'x' || w[1] == 'X') &&
			    is_hex_word(w + 2, len - 2))
				PUT('#');
			else if (is_hex_word(w, len))
				PUT('#');
			else
				for (; w < s; w++)
					PUT(*w);
			continue;
		}
		PUT(*s);
		s++;
	}
#undef PUT
	out[n] = '\0';
}

/* The panic and exception machinery: not what crashed, only how. */
static const char *const plumbing[] = {
	"machine_kexec", "__crash_kexec", "crash_kexec", "panic", "vpanic",
	"nmi_panic", "dump_stack", "dump_stack_lvl", "show_stack",
	"show_trace_log_lvl", "__die", "__die_body", "die", "die_addr",
	"oops_end", "oops_begin", "crash_setup_regs", "page_fault_oops",
	"kernelmode_fixup_or_oops", "no_context", "__bad_area_nosemaphore",
	"bad_area_nosemaphore", "do_user_addr_fault", "exc_page_fault",
	"asm_exc_page_fault", "do_trap", "do_error_trap", "handle_invalid_op",
	"exc_invalid_op", "asm_exc_invalid_op", "handle_bug", "report_bug",
	"__warn", "warn_slowpath_fmt", "exc_general_protection",
	"asm_exc_general_protection", "exc_int3", "asm_exc_int3",
	"do_int3", "exc_nmi", "asm_exc_nmi", "default_do_nmi",
	"nmi_handle", "watchdog_overflow_callback", "watchdog_timer_fn",
	"__hrtimer_run_queues", "hrtimer_interrupt", "__sysvec_apic_timer_interrupt",
	"sysvec_apic_timer_interrupt", "asm_sysvec_apic_timer_interrupt",
	NULL,
};

static bool is_plumbing(const char *f)
{
	const char *const *p;

	for (p = plumbing; *p; p++)
		if (!strcmp(*p, f))
			return true;
	return false;
}

int report_sha256_hex(const void *data, size_t len, char *out, size_t nbytes)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int md_len;
	size_t i;

	if (!EVP_Digest(data, len, md, &md_len, EVP_sha256(), NULL))
		return -EIO;
	if (nbytes > md_len)
		nbytes = md_len;
	for (i = 0; i < nbytes; i++) {
		out[2 * i] = hex[md[i] >> 4];
		out[2 * i + 1] = hex[md[i] & 15];
	}
	out[2 * nbytes] = '\0';
	return 0;
}

int report_sign(struct crash_report *r)
{
	char text[256 + REPORT_SIG_FRAMES * (REPORT_FRAME_LEN + 1) + 1];
	size_t i, n;
	bool top = true;

	report_normalize(r->panic[0] ? r->panic : r->oops, r->normalized,
			 sizeof(r->normalized));
	r->n_sig_frames = 0;
	for (i = 0; i < r->n_frames && r->n_sig_frames < REPORT_SIG_FRAMES;
	     i++) {
		if (top && is_plumbing(r->frames[i]))
			continue;
		top = false;
		memcpy(r->sig_frames[r->n_sig_frames++], r->frames[i],
		       REPORT_FRAME_LEN);
	}
	n = snprintf(text, sizeof(text), "%s\n", r->normalized);
	for (i = 0; i < r->n_sig_frames && n < sizeof(text); i++)
		n += snprintf(text + n, sizeof(text) - n, "%s\n",
			      r->sig_frames[i]);
	if (n >= sizeof(text))
		n = sizeof(text) - 1;
	return report_sha256_hex(text, n, r->signature, REPORT_SIG_HEX / 2);
}

void report_write_text(FILE *f, const struct crash_report *r)
{
	size_t i;

	fprintf(f, "signature: %s\n", r->signature);
	fprintf(f, "panic:     %s\n", r->panic[0] ? r->panic : "(not found)");
	if (r->oops[0])
		fprintf(f, "oops:      %s\n", r->oops);
	if (r->command[0])
		fprintf(f, "task:      %s (PID %ld)\n", r->command, r->pid);
	else
		fprintf(f, "task:      (unknown)\n");
	if (r->cpu >= 0)
		fprintf(f, "cpu:       %d\n", r->cpu);
	fprintf(f, "release:   %s\n", r->release[0] ? r->release : "(unknown)");
	fprintf(f, "uptime:    %s\n", r->uptime[0] ? r->uptime : "(unknown)");
	fprintf(f, "taint:     %s\n", r->taint[0] ? r->taint : "(unknown)");
	fprintf(f, "source:    %s\n", r->source);
	fprintf(f, "backtrace:%s\n", r->n_frames ? "" : " (none found)");
	for (i = 0; i < r->n_frames; i++)
		fprintf(f, "  #%zu %s\n", i, r->frames[i]);
	if (r->n_states) {
		fprintf(f, "tasks by state:");
		for (i = 0; i < r->n_states; i++)
			fprintf(f, " %s %ld", r->states[i].name,
				r->states[i].count);
		fputc('\n', f);
	}
	fprintf(f, "signed text: %s", r->normalized);
	for (i = 0; i < r->n_sig_frames; i++)
		fprintf(f, " | %s", r->sig_frames[i]);
	fputc('\n', f);
}
