// SPDX-License-Identifier: GPL-2.0
/*
 * makedumpfile in the configuration (see conf-internal.h): the options
 * makedumpfile_args may pass on, each with the bounds of its argument, and
 * those it refuses with why; the threads asked for (makedumpfile_threads,
 * or --num-threads in makedumpfile_args); what they need of the other
 * keys; and the makedumpfile command line the capture runs and show
 * prints.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf-internal.h"
#include "util.h"

const char *conf_compression_flag(enum conf_compression c)
{
	switch (c) {
	case COMPRESS_LZO:
		return "-l";
	case COMPRESS_ZLIB:
		return "-c";
	default:
		return "";
	}
}

/*
 * makedumpfile_args: the makedumpfile(8) options (version 1.7.2) that
 * kdump-file passes on for the vmcore, each with the bounds of its
 * argument.  Every other option is refused: with the reason when it is
 * one kdump-file sets itself or cannot use, as unknown otherwise.
 */
static const struct {
	const char *name;
	bool has_arg;
	unsigned long long min, max;
} mdf_allowed[] = {
	{ "--message-level", true, 0, 31 },
	/* A capture kernel has few CPUs; more threads only cost memory. */
	{ "--num-threads", true, 1, 64 },
	/* KiB of bitmap; crashkernel memory is counted in MiB. */
	{ "--cyclic-buffer", true, 1, 1ULL << 20 },
	{ "--splitblock-size", true, 1, 1ULL << 20 },
	{ "--non-mmap", false, 0, 0 },
	{ "-e", false, 0, 0 },
	{ "-D", false, 0, 0 },
};

static const struct {
	const char *names;	/* blank-separated */
	const char *why;	/* and the fix */
} mdf_refused[] = {
	{ "-F", "kdump-file chooses the flattened format itself, for a raw target (remove it)" },
	{ "-E", "ELF output: kdump-file's analysis and recovery expect the kdump-compressed format (remove it)" },
	{ "-c -l -p -z --zstd --lzo --snappy", "the compression is set by kdump-file (remove it and use compression = lzo, zlib or none)" },
	{ "-d", "the dump level is set by kdump-file (remove it and use dump_level = 0..31, or dmesg)" },
	{ "--split --reassemble", "kdump-file saves one dump file per crash (remove it)" },
	{ "--dump-dmesg --partial-dmesg", "kdump-file saves the kernel log itself, to dmesg.txt (remove it; dump_level = dmesg saves only that)" },
	{ "-x -i", "the capture has neither a vmlinux nor a VMCOREINFO file: makedumpfile reads what /proc/vmcore carries (remove it)" },
	{ "--config --eppic", "makedumpfile filters with it only together with -x VMLINUX, and the capture kernel has no vmlinux, too large for its memory (remove it)" },
	{ "-R", "rearranging a flattened dump is what 'kdump-file recover' does (remove it)" },
	{ "--mem-usage", "it reports memory use instead of saving a dump (remove it)" },
	{ "-g", "it writes a VMCOREINFO file instead of saving a dump (remove it)" },
	{ "--dry-run", "it saves nothing (remove it)" },
	{ "--work-dir", "kdump-file gives it itself, the dump directory, when -e needs it (remove it)" },
};

#define MDF_ALLOWED_N (sizeof(mdf_allowed) / sizeof(mdf_allowed[0]))
#define MDF_REFUSED_N (sizeof(mdf_refused) / sizeof(mdf_refused[0]))

bool conf_makedumpfile_has(const struct kdump_conf *c, const char *opt)
{
	return word_in_list(opt, c->makedumpfile_args);
}

unsigned int conf_threads_requested(const struct kdump_conf *c)
{
	const char *w = c->makedumpfile_args;
	size_t pos = 0;
	char word[32];

	/* The parser left "--num-threads N", N a plain number. */
	while (conf_list_next(w, &pos, word, sizeof(word)))
		if (strcmp(word, "--num-threads") == 0 &&
		    conf_list_next(w, &pos, word, sizeof(word)))
			return (unsigned int)strtoul(word, NULL, 10);
	return c->makedumpfile_threads;
}

int conf_threads_set(struct kdump_conf *c, unsigned int threads)
{
	char out[CONF_VALUE_MAX] = "", word[CONF_VALUE_MAX];
	size_t pos = 0, n = 0;

	if (threads < 1 || threads > CONF_THREADS_MAX)
		return -ERANGE;
	while (conf_list_next(c->makedumpfile_args, &pos, word, sizeof(word))) {
		if (strcmp(word, "--num-threads") == 0) {
			(void)conf_list_next(c->makedumpfile_args, &pos, word,
					     sizeof(word));
			continue;
		}
		n += snprintf(out + n, sizeof(out) - n, "%s%s", n ? " " : "",
			      word);
	}
	/* Never longer than what it was made from. */
	strcpy(c->makedumpfile_args, out);
	c->makedumpfile_threads = threads;
	return 0;
}

int conf_parse_makedumpfile_args(struct kdump_conf *c, const char *v,
				 unsigned int line, struct diag *err)
{
	const char *key = "makedumpfile_args";
	char words[CONF_VALUE_MAX], out[CONF_VALUE_MAX] = "", cb[16];
	char bad = conf_cmdline_bad_char(v);
	bool seen[MDF_ALLOWED_N] = { false };
	char *w, *save;
	size_t pos = 0;

	if (bad)
		return diag_fail_at(err, -EINVAL, line, key,
				    "%s is not allowed here (quotes, backslashes, shell metacharacters %s and control or non-ASCII characters are refused: the words go to makedumpfile as they are, split on blanks)",
				    conf_char_name(bad, cb, sizeof(cb)),
				    "$ ` ; | & < > ( ) { } ! * ?");
	snprintf(words, sizeof(words), "%s", v);
	for (w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char *arg = NULL, *eq = NULL, name[64];
		unsigned long long x;
		size_t i;

		/* --num-threads=4 as getopt_long(3) takes it. */
		if (strncmp(w, "--", 2) == 0 && (eq = strchr(w, '=')))
			*eq = '\0';
		snprintf(name, sizeof(name), "%s", w);
		for (i = 0; i < MDF_REFUSED_N; i++)
			if (word_in_list(name, mdf_refused[i].names))
				return diag_fail_at(err, -EINVAL, line, key,
						    "'%s' is refused: %s", name,
						    mdf_refused[i].why);
		for (i = 0; i < MDF_ALLOWED_N; i++)
			if (strcmp(name, mdf_allowed[i].name) == 0)
				break;
		if (i == MDF_ALLOWED_N)
			return diag_fail_at(err, -EINVAL, line, key,
					    "'%s' is not known to kdump-file: remove it (makedumpfile_args takes --message-level, --num-threads, --cyclic-buffer, --splitblock-size, --non-mmap, -e and -D)",
					    name);
		if (seen[i])
			return diag_fail_at(err, -EEXIST, line, key,
					    "'%s' is given twice: keep one",
					    name);
		seen[i] = true;
		if (!mdf_allowed[i].has_arg) {
			if (eq)
				return diag_fail_at(err, -EINVAL, line, key,
						    "'%s' takes no value: remove '=%s'",
						    name, eq + 1);
			pos += snprintf(out + pos, sizeof(out) - pos, "%s%s",
					pos ? " " : "", name);
			continue;
		}
		arg = eq ? eq + 1 : strtok_r(NULL, " ", &save);
		if (!arg || parse_decimal(arg, mdf_allowed[i].max, &x) < 0 ||
		    x < mdf_allowed[i].min)
			return diag_fail_at(err, arg ? -ERANGE : -EINVAL, line,
					    key,
					    "'%s' needs a number from %llu to %llu%s%s%s",
					    name, mdf_allowed[i].min,
					    mdf_allowed[i].max,
					    arg ? ", not '" : " after it",
					    arg ? arg : "", arg ? "'" : "");
		pos += snprintf(out + pos, sizeof(out) - pos, "%s%s %llu",
				pos ? " " : "", name, x);
	}
	/* Never longer than v: blanks collapse, numbers lose leading zeros. */
	strcpy(c->makedumpfile_args, out);
	return 0;
}

/* makedumpfile_threads = auto | 1..CONF_THREADS_MAX */
int conf_parse_threads(struct kdump_conf *c, const char *v,
		       unsigned int line, struct diag *err)
{
	unsigned long long x;
	int r;

	if (strcmp(v, "auto") == 0) {
		c->makedumpfile_threads = CONF_THREADS_AUTO;
		return 0;
	}
	r = parse_decimal(v, CONF_THREADS_MAX, &x);
	if (r < 0 || x == 0)
		return diag_fail_at(err, r < 0 ? r : -ERANGE, line,
				    "makedumpfile_threads",
				    "'%s' is not auto or a number of threads from 1 to %d (write makedumpfile_threads = auto to let the reservation and the CPUs decide, or a number such as 2)",
				    v, CONF_THREADS_MAX);
	c->makedumpfile_threads = x;
	return 0;
}

/*
 * What makedumpfile_args and dump_level = dmesg need of the other keys.
 * -e: makedumpfile drops the page structures (vmemmap) of the pages the
 * dump level excludes, keeping its lists in --work-dir, a directory on the
 * target (makedumpfile.c: "-e requires --work-dir").
 */
int conf_check_makedumpfile(const struct kdump_conf *c,
			    const unsigned int *seen_line, struct diag *err)
{
	unsigned int line = seen_line[KEY_MAKEDUMPFILE_ARGS];

	/* Two ways to ask for threads: one request, not two that disagree. */
	if (seen_line[KEY_MAKEDUMPFILE_THREADS] &&
	    conf_makedumpfile_has(c, "--num-threads"))
		return diag_fail_at(err, -EINVAL, line, "makedumpfile_args",
				    "'--num-threads' asks for threads as makedumpfile_threads (line %u) does: remove --num-threads and keep makedumpfile_threads",
				    seen_line[KEY_MAKEDUMPFILE_THREADS]);
	if (c->dmesg_only && c->raw[0])
		return diag_fail_at(err, -EINVAL, seen_line[KEY_DUMP_LEVEL],
				    "dump_level",
				    "dmesg is for a dump directory on a filesystem, and 'raw' (line %u) is a raw device: set a dump level from 0 to 31, or use 'target'",
				    seen_line[KEY_RAW]);
	if (!conf_makedumpfile_has(c, "-e"))
		return 0;
	if (c->raw[0])
		return diag_fail_at(err, -EINVAL, line, "makedumpfile_args",
				    "'-e' keeps work files in the dump directory (--work-dir), and 'raw' (line %u) has none: remove -e, or dump to a filesystem",
				    seen_line[KEY_RAW]);
	if (!c->dmesg_only && !(c->dump_level & 16))
		return diag_fail_at(err, -EINVAL, line, "makedumpfile_args",
				    "'-e' drops the page structures of the free pages the dump level excludes, and dump_level %u excludes none: add 16 to dump_level (31 excludes all) or remove -e",
				    c->dump_level);
	return 0;
}

int conf_makedumpfile_cmd(const struct kdump_conf *c, const char *in,
			  const char *out, const char *workdir,
			  struct conf_makedumpfile_cmd *ret)
{
	const char *flag = conf_compression_flag(c->compression);
	char *w, *save;
	size_t n = 0;

	snprintf(ret->level, sizeof(ret->level), "%u", c->dump_level);
	snprintf(ret->words, sizeof(ret->words), "%s", c->makedumpfile_args);
	ret->argv[n++] = "makedumpfile";
	if (!out)
		ret->argv[n++] = "-F";
	if (flag[0])
		ret->argv[n++] = (char *)flag;
	ret->argv[n++] = "-d";
	ret->argv[n++] = ret->level;
	for (w = strtok_r(ret->words, " ", &save); w;
	     w = strtok_r(NULL, " ", &save)) {
		/*
		 * Room for --work-dir DIR, --num-threads T, in, out and
		 * NULL.
		 */
		if (n + 7 >= CONF_MAKEDUMPFILE_ARGV_MAX)
			return -E2BIG;
		ret->argv[n++] = w;
	}
	if (c->makedumpfile_threads > 1 &&
	    !conf_makedumpfile_has(c, "--num-threads")) {
		snprintf(ret->threads, sizeof(ret->threads), "%u",
			 c->makedumpfile_threads);
		ret->argv[n++] = "--num-threads";
		ret->argv[n++] = ret->threads;
	}
	if (workdir && conf_makedumpfile_has(c, "-e")) {
		ret->argv[n++] = "--work-dir";
		ret->argv[n++] = (char *)workdir;
	}
	ret->argv[n++] = (char *)in;
	if (out)
		ret->argv[n++] = (char *)out;
	ret->argv[n] = NULL;
	return 0;
}
