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
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "version.h"

/* The options a verb may take; the others each verb takes are common. */
enum {
	OPT_YES = 1U << 0,
	OPT_NEW = 1U << 1,
	OPT_JSON = 1U << 2,
	OPT_VMLINUX = 1U << 3,
	OPT_KVER = 1U << 4,
	OPT_UNDO = 1U << 5,
	OPT_DRY_RUN = 1U << 6,
	OPT_OUTPUT = 1U << 7,
	OPT_FORCE = 1U << 8,
	OPT_AFTER_HOTPLUG = 1U << 9,
	OPT_LOCAL_INSTEAD = 1U << 10,
	OPT_COLLECTOR = 1U << 11,
	OPT_REPIN = 1U << 12,
	/* Every verb's: */
	OPT_CONFIG = 1U << 13,
	OPT_QUIET = 1U << 14,
	OPT_NO_PAGER = 1U << 15,
	OPT_HELP = 1U << 16,
};
#define OPT_COMMON (OPT_CONFIG | OPT_QUIET | OPT_NO_PAGER | OPT_HELP)

static const struct option_doc {
	unsigned int bit;
	const char *name;	/* as messages name it */
	const char *usage;	/* as help shows it */
	const char *help;
} option_docs[] = {
	{ OPT_YES, "--yes", "-y, --yes", "do not ask before crashing the machine" },
	{ OPT_NEW, "--new", "-n, --new", "only a dump without a report" },
	{ OPT_JSON, "--json", "    --json", "JSON on stdout" },
	{ OPT_VMLINUX, "--vmlinux", "    --vmlinux FILE", "the crashed kernel's vmlinux" },
	{ OPT_KVER, "--kver", "    --kver VERSION", "for that installed kernel" },
	{ OPT_UNDO, "--undo", "    --undo", "take the reservation back" },
	{ OPT_DRY_RUN, "--dry-run", "    --dry-run",
	  "say what it would write, change nothing (the capture initramfs is still built if missing)" },
	{ OPT_OUTPUT, "--output", "-o, --output FILE", "write FILE (atomically) instead of stdout" },
	{ OPT_FORCE, "--force", "    --force",
	  "replace a file kdump-file did not write as it is (import's --output FILE with settings, setup's hand-edited GRUB drop-in), kept as FILE.bak" },
	{ OPT_LOCAL_INSTEAD, "--local-instead", "    --local-instead",
	  "dump locally, to a network target's directory" },
	{ OPT_COLLECTOR, "--collector", "    --collector DIR",
	  "on a collector: the dumps of every machine below DIR" },
	{ OPT_REPIN, "--repin", "    --repin",
	  "replace the collector's pinned host keys by those it offers now" },
	{ OPT_AFTER_HOTPLUG, "--after-hotplug", "    --after-hotplug",
	  "once CPU or memory hotplug events have settled, and only over kdump-file's capture kernel (kdump-file-hotplug.service)" },
	{ OPT_CONFIG, "--config", "-c, --config FILE", "configuration file (default " CONF_PATH_DEFAULT ")" },
	{ OPT_QUIET, "--quiet", "-q, --quiet", "no informational lines, only results, warnings and errors" },
	{ OPT_NO_PAGER, "--no-pager", "    --no-pager", "accepted for systemctl's habit: kdump-file pages nothing" },
	{ OPT_HELP, "--help", "-h, --help", "show this help" },
};

static const struct verb {
	const char *name;
	int (*run)(int argc, char *argv[]);
	unsigned int options;	/* besides OPT_COMMON */
	unsigned int min_args, max_args;
	const char *args;
	const char *help;
} verbs[] = {
	{ "load", verb_load, 0, 0, 0, "",
	  "build the capture initramfs if needed and load the capture kernel" },
	{ "unload", verb_unload, 0, 0, 0, "", "unload the capture kernel" },
	{ "reload", verb_reload, OPT_AFTER_HOTPLUG, 0, 0, "",
	  "load the capture kernel again, never unloading first: the loaded one stays through every check, and if the kernel refuses the new one, the previous one is loaded again" },
	{ "status", verb_status, OPT_JSON, 0, 0, "",
	  "show the reservation, what is loaded and the last dump (exit 3 when no capture kernel is loaded)" },
	{ "show", verb_show, OPT_JSON | OPT_KVER, 0, 0, "",
	  "show the effective configuration and capture command line" },
	{ "rebuild", verb_rebuild, OPT_KVER, 0, 0, "",
	  "rebuild the capture initramfs" },
	{ "report", verb_report, OPT_NEW, 0, 1, "[ID|DIR]",
	  "write report.txt and report.json for a dump (default: the newest; an ID as list gives, or a directory) with kdump-file-analyze" },
	{ "report-target", verb_report_target, 0, 1, 1, "mount|unmount",
	  "for kdump-file-report.service, before and after its report (which may not mount): mount a dump target nothing mounts on " REPORT_TARGET_DIR ", writable, or unmount it" },
	{ "estimate", verb_estimate, OPT_JSON, 0, 0, "",
	  "recommend a crashkernel= size for this machine, with the reasoning, and say how large and slow a dump would be" },
	{ "mem-usage", verb_mem_usage, 0, 0, 0, "",
	  "for kdump-file.service, before load (whose sandbox hides /proc/kcore): count with makedumpfile --mem-usage the pages a dump would hold, unless counted already for this kernel, makedumpfile and memory" },
	{ "sandbox", verb_sandbox, 0, 0, 0, "",
	  "for kdump-file.service, before load: when the dump target needs another sandbox than the one the unit was made with (a network target's way to its collector, or none), reload systemd's units so that the load runs in the new one" },
	{ "recover", verb_recover, 0, 0, 0, "",
	  "copy a dump from the raw dump device into a dump directory" },
	{ "test", verb_test, OPT_YES, 0, 0, "",
	  "crash the machine now to test the capture (asks first); after the reboot, status tells whether it passed" },
	{ "setup", verb_setup, OPT_UNDO | OPT_DRY_RUN | OPT_FORCE, 0, 0, "",
	  "reserve memory for the capture kernel from the next boot (crashkernel= as estimate recommends, in a GRUB drop-in, then update-grub)" },
	{ "list", verb_list, OPT_JSON | OPT_COLLECTOR, 0, 0, "",
	  "the dumps: ID, time, kernel, crash signature, size, state" },
	{ "info", verb_info, OPT_JSON, 0, 1, "[ID]",
	  "one dump (default: the newest): panic, task, backtrace, modules, files" },
	{ "debug", verb_debug, OPT_VMLINUX, 0, 1, "[ID]",
	  "crash(8) on a dump with the vmlinux its build ID names" },
	{ "hotplug", verb_hotplug, 0, 0, 1, "[cpu|memory]",
	  "for the udev rule: after a CPU or memory add or remove, mark the capture kernel's reload as pending unless the kernel updates its ELF headers itself" },
	{ "propagate", verb_propagate, OPT_REPIN, 0, 0, "",
	  "for an ssh:// target: make this machine's key, pin the collector's host keys and install the key there, restricted to kdump-file-receive" },
	{ "import", verb_import, OPT_OUTPUT | OPT_FORCE | OPT_LOCAL_INSTEAD, 0, 2, "[FILE [SYSCONFIG]]",
	  "write the kdump-file.conf equivalent to kdump-tools' /etc/default/kdump-tools or kdump-utils' /etc/kdump.conf (and /etc/sysconfig/kdump), naming every setting not carried over" },
};

#define ELEMENTSOF(a) (sizeof(a) / sizeof((a)[0]))

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

static void help_options(unsigned int mask)
{
	for (size_t i = 0; i < ELEMENTSOF(option_docs); i++) {
		const struct option_doc *o = &option_docs[i];
		char who[128];

		if (!(mask & o->bit))
			continue;
		who[0] = '\0';
		if (mask == ~0U && !(o->bit & OPT_COMMON))
			verbs_taking(o->bit, who, sizeof(who));
		printf("  %-20s %s%s%s%s\n", o->usage, o->help,
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
	printf("      %-18s %s\n", "--version", "print the version");
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
static int unknown_verb(const char *name)
{
	const char *names[ELEMENTSOF(verbs)], *close;

	for (size_t i = 0; i < ELEMENTSOF(other_verbs); i++)
		if (strcmp(name, other_verbs[i].name) == 0) {
			log_error("unknown command '%s': did you mean '%s'? (see kdump-file --help)",
				  name, other_verbs[i].verb);
			return EXIT_USAGE;
		}
	for (size_t i = 0; i < ELEMENTSOF(verbs); i++)
		names[i] = verbs[i].name;
	close = cli_closest(name, names, ELEMENTSOF(verbs));
	if (close)
		log_error("unknown command '%s': did you mean '%s'? (see kdump-file --help)",
			  name, close);
	else
		log_error("unknown command '%s'; see kdump-file --help", name);
	return EXIT_USAGE;
}

/*
 * getopt's own messages name argv[0]; these name kdump-file.  arg is the
 * word getopt stopped at: a long option as written, or a cluster of short
 * ones, of which optopt_c is the one at fault.
 */
static int bad_option(int c, int optopt_c, const char *arg)
{
	char what[64];

	if (strncmp(arg, "--", 2) == 0 || optopt_c <= 0 || optopt_c > 127)
		snprintf(what, sizeof(what), "%.*s", (int)strcspn(arg, "="), arg);
	else
		snprintf(what, sizeof(what), "-%c", optopt_c);
	if (c == ':')
		log_error("option '%s' needs an argument; see kdump-file --help",
			  what);
	else if (strncmp(arg, "--", 2) == 0 && strchr(arg, '='))
		log_error("option '%s' takes no argument; see kdump-file --help",
			  what);
	else
		log_error("unknown option '%s'; see kdump-file --help", what);
	return EXIT_USAGE;
}

/* Refuse what v does not take: options, and more arguments than it takes. */
static int check_verb(const struct verb *v, unsigned int seen, int nargs,
		      char *args[])
{
	unsigned int refused = seen & ~(v->options | OPT_COMMON);

	for (size_t i = 0; refused && i < ELEMENTSOF(option_docs); i++) {
		const struct option_doc *o = &option_docs[i];
		char who[128];

		if (!(refused & o->bit))
			continue;
		verbs_taking(o->bit, who, sizeof(who));
		log_error("'%s' does not take %s; %s is for %s", v->name,
			  o->name, o->name, who);
		return EXIT_USAGE;
	}
	if ((unsigned int)nargs > v->max_args) {
		if (v->max_args == 0)
			log_error("'%s' takes no argument '%s'; see kdump-file %s --help",
				  v->name, args[0], v->name);
		else
			log_error("'%s' takes at most %u argument%s, not '%s'; see kdump-file %s --help",
				  v->name, v->max_args, v->max_args == 1 ? "" : "s",
				  args[v->max_args], v->name);
		return EXIT_USAGE;
	}
	if ((unsigned int)nargs < v->min_args) {
		log_error("'%s' needs %s; see kdump-file %s --help", v->name,
			  v->args, v->name);
		return EXIT_USAGE;
	}
	return 0;
}

enum {
	ARG_VERSION = 0x100, ARG_JSON, ARG_VMLINUX, ARG_KVER, ARG_UNDO,
	ARG_DRY_RUN, ARG_FORCE, ARG_AFTER_HOTPLUG, ARG_NO_PAGER,
	ARG_LOCAL_INSTEAD, ARG_COLLECTOR, ARG_REPIN,
};

static const struct option options[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "help", no_argument, NULL, 'h' },
	{ "yes", no_argument, NULL, 'y' },
	{ "new", no_argument, NULL, 'n' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "json", no_argument, NULL, ARG_JSON },
	{ "version", no_argument, NULL, ARG_VERSION },
	{ "vmlinux", required_argument, NULL, ARG_VMLINUX },
	{ "kver", required_argument, NULL, ARG_KVER },
	{ "undo", no_argument, NULL, ARG_UNDO },
	{ "dry-run", no_argument, NULL, ARG_DRY_RUN },
	{ "output", required_argument, NULL, 'o' },
	{ "force", no_argument, NULL, ARG_FORCE },
	{ "local-instead", no_argument, NULL, ARG_LOCAL_INSTEAD },
	{ "collector", required_argument, NULL, ARG_COLLECTOR },
	{ "repin", no_argument, NULL, ARG_REPIN },
	{ "after-hotplug", no_argument, NULL, ARG_AFTER_HOTPLUG },
	{ "no-pager", no_argument, NULL, ARG_NO_PAGER },
	{}
};

/* Where each option goes: its bit, and the arg_* it sets. */
static const struct {
	int val;
	unsigned int bit;
	bool *flag;
	const char **value;
} option_args[] = {
	{ 'c', OPT_CONFIG, NULL, &arg_config },
	{ 'h', OPT_HELP, NULL, NULL },
	{ 'y', OPT_YES, &arg_yes, NULL },
	{ 'n', OPT_NEW, &arg_new, NULL },
	{ 'q', OPT_QUIET, &arg_quiet, NULL },
	{ ARG_JSON, OPT_JSON, &arg_json, NULL },
	{ ARG_VMLINUX, OPT_VMLINUX, NULL, &arg_vmlinux },
	{ ARG_KVER, OPT_KVER, NULL, &arg_kver },
	{ ARG_UNDO, OPT_UNDO, &arg_undo, NULL },
	{ ARG_DRY_RUN, OPT_DRY_RUN, &arg_dry_run, NULL },
	{ 'o', OPT_OUTPUT, NULL, &arg_output },
	{ ARG_FORCE, OPT_FORCE, &arg_force, NULL },
	{ ARG_LOCAL_INSTEAD, OPT_LOCAL_INSTEAD, &arg_local_instead, NULL },
	{ ARG_COLLECTOR, OPT_COLLECTOR, NULL, &arg_collector },
	{ ARG_REPIN, OPT_REPIN, &arg_repin, NULL },
	{ ARG_AFTER_HOTPLUG, OPT_AFTER_HOTPLUG, &arg_after_hotplug, NULL },
	{ ARG_NO_PAGER, OPT_NO_PAGER, NULL, NULL },
};

/*
 * The options into the arg_* globals and *ret_seen (which were given, for
 * the verb table to check).  Returns 1 to go on, 0 when done (--version),
 * EXIT_USAGE after saying what is wrong.
 */
static int parse_argv(int argc, char *argv[], unsigned int *ret_seen)
{
	unsigned int seen = 0;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":c:hynqo:", options, NULL)) >= 0) {
		size_t i;

		if (c == ARG_VERSION) {
			printf("kdump-file %s\n", KDUMP_FILE_VERSION);
			return 0;
		}
		for (i = 0; i < ELEMENTSOF(option_args); i++)
			if (option_args[i].val == c)
				break;
		if (i == ELEMENTSOF(option_args))
			return bad_option(c, optopt, argv[optind - 1]);
		seen |= option_args[i].bit;
		if (option_args[i].flag)
			*option_args[i].flag = true;
		if (option_args[i].value)
			*option_args[i].value = optarg;
	}
	*ret_seen = seen;
	return 1;
}

int main(int argc, char *argv[])
{
	const struct verb *v;
	unsigned int seen = 0;
	int r;

	/* Dumps, reports, the initramfs and state are root's alone. */
	umask(0077);
	r = parse_argv(argc, argv, &seen);
	if (r != 1)
		return r;
	if (optind >= argc) {
		if (seen & OPT_HELP) {
			help();
			return 0;
		}
		log_error("expected a command; see kdump-file --help");
		return EXIT_USAGE;
	}
	v = verb_find(argv[optind]);
	if (!v)
		return unknown_verb(argv[optind]);
	if (seen & OPT_HELP) {
		help_verb(v);
		return 0;
	}
	r = check_verb(v, seen, argc - optind - 1, argv + optind + 1);
	if (r)
		return r;
	setvbuf(stdout, NULL, _IOLBF, 0);
	cli_verb = v->name;
	r = v->run(argc - optind, argv + optind);
	return r < 0 ? EXIT_FAILURE : r;
}
