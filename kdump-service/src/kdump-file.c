// SPDX-License-Identifier: GPL-2.0
/*
 * kdump-file: load a capture kernel with kexec_file_load(2) so that a kernel
 * panic boots it and saves the dump; report on what is loaded and saved.
 *
 * This file parses the command line and calls the verb (one file each:
 * verb-*.c); the verb table says which options and how many arguments each
 * takes, so that every verb refuses the same way.
 */
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "version.h"

/*
 * The options, declared once: option_table[] gives getopt's table, the
 * short options, the help, the messages and where each value goes.  A new
 * option is a line there, its OPT_ name and its field in struct
 * cli_options; the verbs that take it name its bit in verbs[].
 */
enum {
	OPT_YES, OPT_NEW, OPT_JSON, OPT_VMLINUX, OPT_KVER, OPT_UNDO,
	OPT_DRY_RUN, OPT_OUTPUT, OPT_FORCE, OPT_LOCAL_INSTEAD, OPT_COLLECTOR,
	OPT_REPIN, OPT_AFTER_HOTPLUG,
	/* Every verb's: */
	OPT_CONFIG, OPT_QUIET, OPT_NO_PAGER, OPT_HELP,
	/* None: kdump-file's own. */
	OPT_VERSION,
	_OPT_MAX
};
#define BIT(o) (1U << (o))
#define OPT_COMMON (BIT(OPT_CONFIG) | BIT(OPT_QUIET) | BIT(OPT_NO_PAGER) | \
		    BIT(OPT_HELP))

/* Where an option's value goes: a flag set, or a string kept. */
#define FLAG(field) offsetof(struct cli_options, field), false
#define VALUE(field) offsetof(struct cli_options, field), true
#define NOWHERE SIZE_MAX, false

static const struct option_def {
	unsigned int id;
	const char *name;	/* without "--" */
	char short_name;	/* or 0 */
	size_t offset;		/* of its field in struct cli_options */
	bool takes_value;
	const char *value;	/* what help calls the value */
	const char *help;
} option_table[] = {
	{ OPT_YES, "yes", 'y', FLAG(yes), NULL,
	  "do not ask before crashing the machine" },
	{ OPT_NEW, "new", 'n', FLAG(new_only), NULL,
	  "only a dump without a report" },
	{ OPT_JSON, "json", 0, FLAG(json), NULL, "JSON on stdout" },
	{ OPT_VMLINUX, "vmlinux", 0, VALUE(vmlinux), "FILE",
	  "the crashed kernel's vmlinux" },
	{ OPT_KVER, "kver", 0, VALUE(kver), "VERSION",
	  "for that installed kernel" },
	{ OPT_UNDO, "undo", 0, FLAG(undo), NULL, "take the reservation back" },
	{ OPT_DRY_RUN, "dry-run", 0, FLAG(dry_run), NULL,
	  "say what it would write, change nothing (the capture initramfs is still built if missing)" },
	{ OPT_OUTPUT, "output", 'o', VALUE(output), "FILE",
	  "write FILE (atomically) instead of stdout" },
	{ OPT_FORCE, "force", 0, FLAG(force), NULL,
	  "replace a file kdump-file did not write as it is (import's --output FILE with settings, setup's hand-edited GRUB drop-in), kept as FILE.bak" },
	{ OPT_LOCAL_INSTEAD, "local-instead", 0, FLAG(local_instead), NULL,
	  "dump locally, to a network target's directory" },
	{ OPT_COLLECTOR, "collector", 0, VALUE(collector), "DIR",
	  "on a collector: the dumps of every machine below DIR" },
	{ OPT_REPIN, "repin", 0, FLAG(repin), NULL,
	  "replace the collector's pinned host keys by those it offers now" },
	{ OPT_AFTER_HOTPLUG, "after-hotplug", 0, FLAG(after_hotplug), NULL,
	  "once CPU or memory hotplug events have settled, and only over kdump-file's capture kernel (kdump-file-hotplug.service)" },
	{ OPT_CONFIG, "config", 'c', VALUE(config), "FILE",
	  "configuration file (default " CONF_PATH_DEFAULT ")" },
	{ OPT_QUIET, "quiet", 'q', FLAG(quiet), NULL,
	  "no informational lines, only results, warnings and errors" },
	{ OPT_NO_PAGER, "no-pager", 0, NOWHERE, NULL,
	  "accepted for systemctl's habit: kdump-file pages nothing" },
	{ OPT_HELP, "help", 'h', NOWHERE, NULL, "show this help" },
	{ OPT_VERSION, "version", 0, NOWHERE, NULL, "print the version" },
};

#define ELEMENTSOF(a) (sizeof(a) / sizeof((a)[0]))

static const struct verb {
	const char *name;
	int (*run)(struct cli *cli, int argc, char *argv[]);
	unsigned int options;	/* besides OPT_COMMON */
	unsigned int min_args, max_args;
	const char *args;
	const char *help;
} verbs[] = {
	{ "load", verb_load, 0, 0, 0, "",
	  "build the capture initramfs if needed and load the capture kernel" },
	{ "unload", verb_unload, 0, 0, 0, "", "unload the capture kernel" },
	{ "reload", verb_reload, BIT(OPT_AFTER_HOTPLUG), 0, 0, "",
	  "load the capture kernel again, never unloading first: the loaded one stays through every check, and if the kernel refuses the new one, the previous one is loaded again" },
	{ "status", verb_status, BIT(OPT_JSON), 0, 0, "",
	  "show the reservation, what is loaded and the last dump (exit 3 when no capture kernel is loaded)" },
	{ "show", verb_show, BIT(OPT_JSON) | BIT(OPT_KVER), 0, 0, "",
	  "show the effective configuration and capture command line" },
	{ "rebuild", verb_rebuild, BIT(OPT_KVER), 0, 0, "",
	  "rebuild the capture initramfs" },
	{ "report", verb_report, BIT(OPT_NEW), 0, 1, "[ID|DIR]",
	  "write report.txt and report.json for a dump (default: the newest; an ID as list gives, or a directory) with kdump-file-analyze" },
	{ "report-target", verb_report_target, 0, 1, 1, "mount|unmount",
	  "for kdump-file-report.service, before and after its report (which may not mount): mount a dump target nothing mounts on " REPORT_TARGET_DIR ", writable, or unmount it" },
	{ "estimate", verb_estimate, BIT(OPT_JSON), 0, 0, "",
	  "recommend a crashkernel= size for this machine, with the reasoning, and say how large and slow a dump would be" },
	{ "mem-usage", verb_mem_usage, 0, 0, 0, "",
	  "for kdump-file.service, before load (whose sandbox hides /proc/kcore): count with makedumpfile --mem-usage the pages a dump would hold, unless counted already for this kernel, makedumpfile and memory" },
	{ "sandbox", verb_sandbox, 0, 0, 0, "",
	  "for kdump-file.service, before load: when the dump target needs another sandbox than the one the unit was made with (a network target's way to its collector, or none), reload systemd's units so that the load runs in the new one" },
	{ "recover", verb_recover, 0, 0, 0, "",
	  "copy a dump from the raw dump device into a dump directory" },
	{ "test", verb_test, BIT(OPT_YES), 0, 0, "",
	  "crash the machine now to test the capture (asks first); after the reboot, status tells whether it passed" },
	{ "setup", verb_setup, BIT(OPT_UNDO) | BIT(OPT_DRY_RUN) | BIT(OPT_FORCE), 0, 0, "",
	  "reserve memory for the capture kernel from the next boot (crashkernel= as estimate recommends, in a GRUB drop-in, then update-grub)" },
	{ "list", verb_list, BIT(OPT_JSON) | BIT(OPT_COLLECTOR), 0, 0, "",
	  "the dumps: ID, time, kernel, crash signature, size, state" },
	{ "info", verb_info, BIT(OPT_JSON), 0, 1, "[ID]",
	  "one dump (default: the newest): panic, task, backtrace, modules, files" },
	{ "debug", verb_debug, BIT(OPT_VMLINUX), 0, 1, "[ID]",
	  "crash(8) on a dump with the vmlinux its build ID names" },
	{ "hotplug", verb_hotplug, 0, 0, 1, "[cpu|memory]",
	  "for the udev rule: after a CPU or memory add or remove, mark the capture kernel's reload as pending unless the kernel updates its ELF headers itself" },
	{ "propagate", verb_propagate, BIT(OPT_REPIN), 0, 0, "",
	  "for an ssh:// target: make this machine's key, pin the collector's host keys and install the key there, restricted to kdump-file-receive" },
	{ "import", verb_import, BIT(OPT_OUTPUT) | BIT(OPT_FORCE) | BIT(OPT_LOCAL_INSTEAD), 0, 2, "[FILE [SYSCONFIG]]",
	  "write the kdump-file.conf equivalent to kdump-tools' /etc/default/kdump-tools or kdump-utils' /etc/kdump.conf (and /etc/sysconfig/kdump), naming every setting not carried over" },
};

/* Other tools' verbs, and what kdump-file calls them. */
static const struct {
	const char *name;
	const char *verb;
} other_verbs[] = {
	{ "start", "load" },
	{ "stop", "unload" },
	{ "restart", "reload" },
	{ "showmem", "estimate" },
	{ "savecore", "recover" },
};

static const struct verb *verb_find(const char *name)
{
	for (size_t i = 0; i < ELEMENTSOF(verbs); i++)
		if (strcmp(verbs[i].name, name) == 0)
			return &verbs[i];
	return NULL;
}

/* "status, show, list and info": the verbs that take option bit. */
static void verbs_taking(unsigned int bit, char *buf, size_t size)
{
	size_t pos = 0, n = 0, k = 0;

	for (size_t i = 0; i < ELEMENTSOF(verbs); i++)
		n += !!(verbs[i].options & bit);
	buf[0] = '\0';
	for (size_t i = 0; i < ELEMENTSOF(verbs) && pos < size; i++) {
		if (!(verbs[i].options & bit))
			continue;
		k++;
		pos += snprintf(buf + pos, size - pos, "%s%s",
				k == 1 ? "" : k == n ? " and " : ", ",
				verbs[i].name);
	}
}

/* "-o, --output FILE", "    --json": the option as help shows it. */
static void option_usage(const struct option_def *o, char *buf, size_t size)
{
	char s[8] = "    ";

	if (o->short_name)
		snprintf(s, sizeof(s), "-%c, ", o->short_name);
	snprintf(buf, size, "%s--%s%s%s", s, o->name, o->value ? " " : "",
		 o->value ? o->value : "");
}

static void help_options(unsigned int mask)
{
	for (size_t i = 0; i < ELEMENTSOF(option_table); i++) {
		const struct option_def *o = &option_table[i];
		char who[128], usage[64];

		if (!(mask & BIT(o->id)))
			continue;
		who[0] = '\0';
		if (mask == ~0U && !(BIT(o->id) & OPT_COMMON))
			verbs_taking(BIT(o->id), who, sizeof(who));
		option_usage(o, usage, sizeof(usage));
		printf("  %-20s %s%s%s%s\n", usage, o->help,
		       who[0] ? " (" : "", who, who[0] ? ")" : "");
	}
}

static void help(void)
{
	printf("Usage: kdump-file [OPTIONS] COMMAND [ARGUMENTS]\n"
	       "\n"
	       "Load a capture kernel so that a kernel crash is saved to disk.\n"
	       "\n"
	       "Commands (kdump-file COMMAND --help for one):\n");
	for (size_t i = 0; i < ELEMENTSOF(verbs); i++) {
		char name[64];

		snprintf(name, sizeof(name), "%s %s", verbs[i].name,
			 verbs[i].args);
		printf("  %-22s %s\n", name, verbs[i].help);
	}
	printf("\nOptions:\n");
	help_options(~0U);
}

static void help_verb(const struct verb *v)
{
	/* The table's line, as a sentence. */
	printf("Usage: kdump-file [OPTIONS] %s%s%s\n\n%c%s.\n\nOptions:\n",
	       v->name, v->args[0] ? " " : "", v->args, toupper(v->help[0]),
	       v->help + 1);
	help_options(v->options | OPT_COMMON);
}

/*
 * A command that is not one of ours: another tool's name for one of ours,
 * or a typo of one, is named.
 */
static int unknown_verb(struct cli *cli, const char *name)
{
	const char *names[ELEMENTSOF(verbs)], *close;

	for (size_t i = 0; i < ELEMENTSOF(other_verbs); i++)
		if (strcmp(name, other_verbs[i].name) == 0) {
			log_error(cli, "unknown command '%s': did you mean '%s'? (see kdump-file --help)",
				  name, other_verbs[i].verb);
			return EXIT_USAGE;
		}
	for (size_t i = 0; i < ELEMENTSOF(verbs); i++)
		names[i] = verbs[i].name;
	close = cli_closest(name, names, ELEMENTSOF(verbs));
	if (close)
		log_error(cli, "unknown command '%s': did you mean '%s'? (see kdump-file --help)",
			  name, close);
	else
		log_error(cli, "unknown command '%s'; see kdump-file --help",
			  name);
	return EXIT_USAGE;
}

/*
 * getopt's own messages name argv[0]; these name kdump-file.  arg is the
 * word getopt stopped at: a long option as written, or a cluster of short
 * ones, of which optopt_c is the one at fault.
 */
static int bad_option(struct cli *cli, int c, int optopt_c, const char *arg)
{
	char what[64];

	if (strncmp(arg, "--", 2) == 0 || optopt_c <= 0 || optopt_c > 127)
		snprintf(what, sizeof(what), "%.*s", (int)strcspn(arg, "="), arg);
	else
		snprintf(what, sizeof(what), "-%c", optopt_c);
	if (c == ':')
		log_error(cli, "option '%s' needs an argument; see kdump-file --help",
			  what);
	else if (strncmp(arg, "--", 2) == 0 && strchr(arg, '='))
		log_error(cli, "option '%s' takes no argument; see kdump-file --help",
			  what);
	else
		log_error(cli, "unknown option '%s'; see kdump-file --help",
			  what);
	return EXIT_USAGE;
}

/* Refuse what v does not take: options, and more arguments than it takes. */
static int check_verb(struct cli *cli, const struct verb *v,
		      unsigned int seen, int nargs, char *args[])
{
	unsigned int refused = seen & ~(v->options | OPT_COMMON);

	for (size_t i = 0; refused && i < ELEMENTSOF(option_table); i++) {
		const struct option_def *o = &option_table[i];
		char who[128];

		if (!(refused & BIT(o->id)))
			continue;
		verbs_taking(BIT(o->id), who, sizeof(who));
		log_error(cli, "'%s' does not take --%s; --%s is for %s",
			  v->name, o->name, o->name, who);
		return EXIT_USAGE;
	}
	if ((unsigned int)nargs > v->max_args) {
		if (v->max_args == 0)
			log_error(cli, "'%s' takes no argument '%s'; see kdump-file %s --help",
				  v->name, args[0], v->name);
		else
			log_error(cli, "'%s' takes at most %u argument%s, not '%s'; see kdump-file %s --help",
				  v->name, v->max_args, v->max_args == 1 ? "" : "s",
				  args[v->max_args], v->name);
		return EXIT_USAGE;
	}
	if ((unsigned int)nargs < v->min_args) {
		log_error(cli, "'%s' needs %s; see kdump-file %s --help", v->name,
			  v->args, v->name);
		return EXIT_USAGE;
	}
	return 0;
}

/* getopt_long()'s value for option_table[i]: its short name, or above them. */
static int option_val(size_t i)
{
	return option_table[i].short_name ? option_table[i].short_name :
					    0x100 + (int)i;
}

/*
 * The options into cli->opt and *ret_seen (which were given, for the verb
 * table to check).  Returns 1 to go on, 0 when done (--version),
 * EXIT_USAGE after saying what is wrong.
 */
static int parse_argv(struct cli *cli, int argc, char *argv[],
		      unsigned int *ret_seen)
{
	struct option longopts[ELEMENTSOF(option_table) + 1] = { 0 };
	char shortopts[2 + 2 * ELEMENTSOF(option_table) + 1] = ":";
	size_t n = 1;
	unsigned int seen = 0;
	int c;

	for (size_t i = 0; i < ELEMENTSOF(option_table); i++) {
		const struct option_def *o = &option_table[i];

		longopts[i] = (struct option){
			.name = o->name,
			.has_arg = o->takes_value ? required_argument :
						    no_argument,
			.val = option_val(i),
		};
		if (o->short_name) {
			shortopts[n++] = o->short_name;
			if (o->takes_value)
				shortopts[n++] = ':';
		}
	}
	shortopts[n] = '\0';
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) >= 0) {
		const struct option_def *o = NULL;
		char *field;

		for (size_t i = 0; i < ELEMENTSOF(option_table); i++)
			if (option_val(i) == c)
				o = &option_table[i];
		if (!o)
			return bad_option(cli, c, optopt, argv[optind - 1]);
		if (o->id == OPT_VERSION) {
			printf("kdump-file %s\n", KDUMP_FILE_VERSION);
			return 0;
		}
		seen |= BIT(o->id);
		if (o->offset == SIZE_MAX)
			continue;
		field = (char *)&cli->opt + o->offset;
		if (o->takes_value)
			*(const char **)field = optarg;
		else
			*(bool *)field = true;
	}
	*ret_seen = seen;
	return 1;
}

int main(int argc, char *argv[])
{
	struct cli cli;
	const struct verb *v;
	unsigned int seen = 0;
	int r;

	/* Dumps, reports, the initramfs and state are root's alone. */
	umask(0077);
	cli_init(&cli);
	r = parse_argv(&cli, argc, argv, &seen);
	if (r != 1)
		return r;
	if (optind >= argc) {
		if (seen & BIT(OPT_HELP)) {
			help();
			return 0;
		}
		log_error(&cli, "expected a command; see kdump-file --help");
		return EXIT_USAGE;
	}
	v = verb_find(argv[optind]);
	if (!v)
		return unknown_verb(&cli, argv[optind]);
	if (seen & BIT(OPT_HELP)) {
		help_verb(v);
		return 0;
	}
	r = check_verb(&cli, v, seen, argc - optind - 1, argv + optind + 1);
	if (r)
		return r;
	setvbuf(stdout, NULL, _IOLBF, 0);
	cli.verb = v->name;
	r = v->run(&cli, argc - optind, argv + optind);
	cli_done(&cli);
	return r < 0 ? EXIT_FAILURE : r;
}
