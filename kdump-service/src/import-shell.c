// SPDX-License-Identifier: GPL-2.0
/*
 * import: kdump-tools' /etc/default/kdump-tools and kdump-utils'
 * /etc/sysconfig/kdump, shell files read as literal assignments, never
 * run (see import-internal.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "import.h"
#include "import-internal.h"
#include "util.h"

/* "[export] NAME=" at *s: a->name, *s moved past the '='. */
static int shell_name(const char **sp, unsigned int line, struct assign *a,
		      struct diag *err)
{
	const char *s = *sp;
	size_t len;

	if (strncmp(s, "export", 6) == 0 && (s[6] == ' ' || s[6] == '\t')) {
		s += 6;
		while (*s == ' ' || *s == '\t')
			s++;
	}
	len = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_0123456789");
	if (len == 0 || (*s >= '0' && *s <= '9') || s[len] != '=')
		return diag_fail_at(err, -EINVAL, line, NULL,
				    "expected a plain assignment VARIABLE=value, got '%.40s'",
				    s);
	if (len >= sizeof(a->name))
		return diag_fail_at(err, -EINVAL, line, NULL,
				    "variable name longer than %zu bytes",
				    sizeof(a->name) - 1);
	memcpy(a->name, s, len);
	a->name[len] = '\0';
	snprintf(a->label, sizeof(a->label), "%s", a->name);
	a->line = line;
	a->expands = false;
	*sp = s + len + 1;
	return 0;
}

/*
 * The value at *s up to the first blank outside quotes into a->value,
 * a->expands set when the shell would expand it; *s moved past it.
 */
static int shell_value(const char **sp, unsigned int line, struct assign *a,
		       struct diag *err)
{
	const char *s = *sp;
	bool start = true;
	size_t n = 0;

#define PUT(ch)                                                               \
	do {                                                                  \
		if (n + 1 >= sizeof(a->value))                                \
			return diag_fail_at(err, -EINVAL, line, NULL,         \
					    "the value of %s is longer than %zu bytes", \
					    a->name, sizeof(a->value) - 1);   \
		a->value[n++] = (ch);                                         \
	} while (0)

	while (*s && *s != ' ' && *s != '\t') {
		if (*s == '\'') {
			const char *end = strchr(s + 1, '\'');

			if (!end)
				return diag_fail_at(err, -EINVAL, line, NULL,
						    "unterminated single quote in the value of %s (values must close their quotes on the same line)",
						    a->name);
			for (s++; s < end; s++)
				PUT(*s);
			s++;
		} else if (*s == '"') {
			for (s++; *s != '"'; s++) {
				if (!*s)
					return diag_fail_at(err, -EINVAL, line,
							    NULL,
							    "unterminated double quote in the value of %s (values must close their quotes on the same line)",
							    a->name);
				if (*s == '\\' && s[1] && strchr("$`\"\\", s[1]))
					s++;
				else if (*s == '$' || *s == '`')
					a->expands = true;
				PUT(*s);
			}
			s++;
		} else if (*s == '\\') {
			if (!s[1])
				return diag_fail_at(err, -EINVAL, line, NULL,
						    "a backslash ends the line: continued lines are not read");
			PUT(s[1]);
			s += 2;
		} else if (*s == '`' || (*s == '$' && (s[1] == '(' || s[1] == '{'))) {
			/*
			 * A command substitution or ${...} is one word even
			 * with blanks inside: skip to its end, never run it.
			 */
			char close = *s == '`' ? '`' : s[1] == '(' ? ')' : '}';
			const char *end;

			a->expands = true;
			end = strchr(s + (*s == '`' ? 1 : 2), close);
			if (!end)
				return diag_fail_at(err, -EINVAL, line, NULL,
						    "unterminated %s in the value of %s",
						    *s == '`' ? "`" : s[1] == '(' ? "$(" : "${",
						    a->name);
			for (; s <= end; s++)
				PUT(*s);
		} else if (strchr(";&|<>()", *s)) {
			return diag_fail_at(err, -EINVAL, line, NULL,
					    "'%c' in the value of %s: only plain assignments are read (quote the value)",
					    *s, a->name);
		} else {
			if (strchr("$`*?[", *s) || (*s == '~' && start))
				a->expands = true;
			PUT(*s);
			s++;
		}
		start = false;
	}
#undef PUT
	a->value[n] = '\0';
	*sp = s;
	return 0;
}

/*
 * One line of a shell file: a comment, a blank line or one literal
 * assignment [export] NAME=VALUE, the value unquoted, 'single' or "double"
 * quoted.  Returns 1 with *a filled, 0 for nothing, or -EINVAL.
 */
static int parse_shell_line(const char *s, unsigned int line, struct assign *a,
			    struct diag *err)
{
	int r;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '#' || *s == '\0')
		return 0;
	r = shell_name(&s, line, a, err);
	if (r < 0)
		return r;
	r = shell_value(&s, line, a, err);
	if (r < 0)
		return r;
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s && *s != '#')
		return diag_fail_at(err, -EINVAL, line, NULL,
				    "'%.40s' after the value of %s: quote a value that contains blanks",
				    s, a->name);
	return 1;
}

struct shell_ctx {
	struct assign *v;
	size_t n, cap;
	struct diag *err;
};

static int shell_line(const char *line, unsigned int lineno, void *ctx)
{
	struct shell_ctx *sc = ctx;
	struct assign a;
	int r;

	r = parse_shell_line(line, lineno, &a, sc->err);
	if (r <= 0)
		return r;
	/* As the shell does: the last assignment of a variable wins. */
	for (size_t i = 0; i < sc->n; i++) {
		if (strcmp(sc->v[i].name, a.name) == 0) {
			memmove(&sc->v[i], &sc->v[i + 1],
				(sc->n - i - 1) * sizeof(a));
			sc->n--;
			break;
		}
	}
	if (sc->n == sc->cap) {
		size_t cap = sc->cap ? sc->cap * 2 : 16;
		struct assign *p = realloc(sc->v, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		sc->v = p;
		sc->cap = cap;
	}
	sc->v[sc->n++] = a;
	return 0;
}

static const char *const kdump_tools_network[] = {
	"NFS", "NFS_TIMEO", "NFS_RETRANS", "NFS_MOUNT_RETRY", "SSH", "SSH_KEY",
	"SSH_KDUMP_RETRY", "HOSTTAG", "FTP", "FTP_USER", "FTP_PASSWORD",
	"FTP_PORT", NULL,
};

/* kdump-tools' own links, which kdump-config load keeps up to date. */
#define KDUMP_TOOLS_KERNEL_LINK "/var/lib/kdump/vmlinuz"

#define KDUMP_TOOLS_INITRD_LINK "/var/lib/kdump/initrd.img"

static const char *const kdump_tools_remote[] = { "SSH", "NFS", "FTP", NULL };

static void map_kdump_tools(struct import *im, const struct assign *a)
{
	const char *n = a->label, *v = a->value;

	if (strcmp(a->name, "USE_KDUMP") == 0) {
		if (strcmp(v, "1") == 0 || strcmp(v, "true") == 0)
			import_note(im, IMPORT_NO_NEED, n, NULL,
				    "kdump-file captures while its service is enabled (systemctl enable kdump-file)");
		else
			import_note(im, IMPORT_NOT_CARRIED, n, NULL,
				    "kdump-tools was switched off; kdump-file has no such key: keep it off with systemctl disable kdump-file");
		return;
	}
	/* Empty: unset, and kdump-config's default counts (import_buffer). */
	if (!*v)
		return;
	/* Never the value: FTP_PASSWORD is one of these. */
	if (import_in_list(a->name, kdump_tools_remote)) {
		import_map_remote(im, n);
		return;
	}
	if (import_in_list(a->name, kdump_tools_network)) {
		import_map_remote_only(im, a, "SSH=, NFS= or FTP=");
		return;
	}
	if (a->expands) {
		import_note(im, IMPORT_NOT_CARRIED, n, NULL, REASON_EXPANSION);
		return;
	}
	if (strcmp(a->name, "KDUMP_KERNEL") == 0) {
		if (strcmp(v, KDUMP_TOOLS_KERNEL_LINK) == 0)
			import_note(im, IMPORT_NO_NEED, n, NULL,
				    "kdump-tools' link to the running kernel, which kdump-file uses by default");
		else
			import_carry(im, IK_KERNEL, v, n, NULL);
	} else if (strcmp(a->name, "KDUMP_INITRD") == 0) {
		if (strcmp(v, KDUMP_TOOLS_INITRD_LINK) == 0)
			import_note(im, IMPORT_NO_NEED, n, NULL,
				    "kdump-tools' own capture initrd; kdump-file builds and maintains its own");
		else
			import_note(im, IMPORT_NOT_CARRIED, n, NULL,
				    "an initrd made for kdump-tools runs kdump-tools' capture, not kdump-file's; kdump-file builds its own (initramfs = is for one built with kdump-file's dracut module)");
	} else if (strcmp(a->name, "KDUMP_COREDIR") == 0) {
		import_map_path(im, n, v);
	} else if (strcmp(a->name, "KDUMP_FAIL_CMD") == 0) {
		import_map_fail_cmd(im, n, v);
	} else if (strcmp(a->name, "KDUMP_DUMP_DMESG") == 0) {
		if (strcmp(v, "0") == 0)
			import_note(im, IMPORT_NOT_CARRIED, n, NULL,
				    "kdump-file always saves the kernel log (dmesg.txt) before the vmcore; it cannot be turned off");
		else
			import_note(im, IMPORT_NO_NEED, n, NULL,
				    "kdump-file always saves the kernel log (dmesg.txt) before the vmcore");
	} else if (strcmp(a->name, "KDUMP_NUM_DUMPS") == 0) {
		/* kdump-config savecore limits a local directory only. */
		if (import_carry(im, IK_KEEP, v, n, NULL) &&
		    import_remote_carried(im) && strcmp(v, "0") != 0)
			import_note(im, IMPORT_CHANGED, n, NULL,
				    "kdump-tools removed no dump on %s; kdump-file keeps the last %s in this machine's directory there",
				    im->remote, v);
	} else if (strcmp(a->name, "KDUMP_COMPRESSION") == 0) {
		import_note(im, IMPORT_NOT_CARRIED, n, NULL,
			    "kdump-file compresses inside makedumpfile (compression = lzo, zlib or none), not the dump file afterwards");
	} else if (strcmp(a->name, "MAKEDUMP_ARGS") == 0) {
		import_map_makedumpfile(im, n, v);
	} else if (strcmp(a->name, "KDUMP_KEXEC_ARGS") == 0) {
		import_note(im, IMPORT_NOT_CARRIED, n, NULL,
			    "kdump-file loads the capture kernel with kexec_file_load(2) itself, not with kexec(8)");
	} else if (strcmp(a->name, "KDUMP_CMDLINE") == 0) {
		import_note(im, IMPORT_NOT_CARRIED, n, NULL,
			    "kdump-file builds the capture command line from the running one; change it with cmdline_append and cmdline_remove");
	} else if (strcmp(a->name, "KDUMP_CMDLINE_APPEND") == 0) {
		import_map_cmdline_append(im, n, v);
	} else if (strcmp(a->name, "KDUMP_SYSCTL") == 0) {
		import_map_sysctl(im, n, v);
	} else {
		import_note(im, IMPORT_NOT_CARRIED, n, NULL,
			    "not a kdump-tools setting import knows");
	}
}

static void map_sysconfig(struct import *im, const struct assign *a)
{
	const char *n = a->label, *v = a->value;
	char path[CONF_VALUE_MAX];

	/*
	 * kdumpctl start and status report the last "kdumpctl test" only
	 * when it is "yes" (kdumpctl: check_vmcore_creation_status()); its
	 * sysconfig says to set it to "" to turn that off.
	 */
	if (strcmp(a->name, "VMCORE_CREATION_NOTIFICATION") == 0) {
		if (strcasecmp(v, "yes") == 0)
			import_note(im, IMPORT_NO_NEED, n, NULL,
				    "kdump-file status always reports the last kdump-file test, passed or failed");
		else
			import_note(im, IMPORT_NOT_CARRIED, n, *v ? v : "empty",
				    "turned off kdumpctl's report of the last kdumpctl test; kdump-file status always reports the last kdump-file test and cannot be told not to");
		return;
	}
	if (!*v)
		return;		/* empty: unset */
	if (a->expands) {
		import_note(im, IMPORT_NOT_CARRIED, n, NULL, REASON_EXPANSION);
		return;
	}
	if (strcmp(a->name, "KDUMP_COMMANDLINE_APPEND") == 0) {
		import_map_cmdline_append(im, n, v);
	} else if (strcmp(a->name, "KDUMP_COMMANDLINE_REMOVE") == 0) {
		import_map_cmdline_remove(im, n, v);
	} else if (strcmp(a->name, "KDUMP_COMMANDLINE") == 0) {
		import_note(im, IMPORT_NOT_CARRIED, n, NULL,
			    "kdump-file builds the capture command line from the running one; change it with cmdline_append and cmdline_remove");
	} else if (strcmp(a->name, "KDUMP_KERNELVER") == 0) {
		if (path_format(path, sizeof(path), "/boot/vmlinuz-%s", v) < 0)
			import_note(im, IMPORT_NOT_CARRIED, n, NULL,
				    "the kernel version is too long for a path: set kernel in kdump-file.conf by hand");
		else
			import_carry(im, IK_KERNEL, path, n, NULL);
	} else if (strcmp(a->name, "KEXEC_ARGS") == 0) {
		char w[128];
		const char *p = v;

		while ((p = import_next_word(p, w, sizeof(w)))) {
			if (strcmp(w, "-s") == 0 ||
			    strcmp(w, "--kexec-file-syscall") == 0)
				import_note(im, IMPORT_NO_NEED, n, w,
					    "kdump-file always loads with kexec_file_load(2)");
			else
				import_note(im, IMPORT_NOT_CARRIED, n, w,
					    "kdump-file loads the capture kernel with kexec_file_load(2) itself, not with kexec(8)");
		}
	} else if (strcmp(a->name, "KDUMP_IMG") == 0 && strcmp(v, "vmlinuz") == 0) {
		import_note(im, IMPORT_NO_NEED, n, NULL,
			    "the kernel image name kdump-file uses by default (/boot/vmlinuz-$(uname -r))");
	} else if (strcmp(a->name, "KDUMP_BOOTDIR") == 0 && strcmp(v, "/boot") == 0) {
		import_note(im, IMPORT_NO_NEED, n, NULL,
			    "kdump-file looks for the capture kernel in /boot by default");
	} else if (strcmp(a->name, "KDUMP_IMG") == 0 ||
		   strcmp(a->name, "KDUMP_IMG_EXT") == 0 ||
		   strcmp(a->name, "KDUMP_BOOTDIR") == 0) {
		import_note(im, IMPORT_NOT_CARRIED, n, NULL,
			    "kdump-file takes the capture kernel's whole path from kernel = (default /boot/vmlinuz-$(uname -r)), not from parts");
	} else if (strcmp(a->name, "FADUMP_COMMANDLINE_APPEND") == 0) {
		import_note(im, IMPORT_NOT_CARRIED, n, NULL,
			    "firmware-assisted dump is for powerpc; kdump-file is for x86_64");
	} else if (strcmp(a->name, "KDUMP_STDLOGLVL") == 0 ||
		   strcmp(a->name, "KDUMP_SYSLOGLVL") == 0 ||
		   strcmp(a->name, "KDUMP_KMSGLOGLVL") == 0) {
		import_note(im, IMPORT_NOT_CARRIED, n, NULL,
			    "kdump-file's logging has no levels to set: it logs to the journal");
	} else {
		import_note(im, IMPORT_NOT_CARRIED, n, NULL,
			    "not a kdump-utils sysconfig setting import knows");
	}
}

/*
 * What kdump-config (kdump-tools 1.8.1, Debian 12) uses for a variable
 * the file leaves unset or empty (VAR=${VAR:=default}); the
 * KDUMP_CMDLINE_APPEND debian/rules writes in for amd64; and the init
 * script's "reboot -f" when KDUMP_FAIL_CMD is unset.
 */
static const struct {
	const char *name, *value;
} kdump_tools_defaults[] = {
	{ "KDUMP_COREDIR", "/var/crash" },
	{ "MAKEDUMP_ARGS", "-F -c -d 31" },
	{ "KDUMP_CMDLINE_APPEND",
	  "reset_devices systemd.unit=kdump-tools-dump.service nr_cpus=1 irqpoll usbcore.nousb" },
	{ "KDUMP_FAIL_CMD", "reboot -f" },
	{ "KDUMP_DUMP_DMESG", "1" },
	{ "KDUMP_NUM_DUMPS", "0" },
};

/* kdumpctl reports the last test only when VMCORE_CREATION_NOTIFICATION is set. */
static void map_sysconfig_defaults(struct import *im,
				   const struct shell_ctx *sc)
{
	struct assign a = { 0 };

	for (size_t j = 0; j < sc->n; j++)
		if (strcmp(sc->v[j].name, "VMCORE_CREATION_NOTIFICATION") == 0)
			return;
	snprintf(a.name, sizeof(a.name), "VMCORE_CREATION_NOTIFICATION");
	snprintf(a.label, sizeof(a.label), "kdump-utils' default %s", a.name);
	map_sysconfig(im, &a);
}

static void map_kdump_tools_defaults(struct import *im,
				     const struct shell_ctx *sc)
{
	for (size_t i = 0; i < sizeof(kdump_tools_defaults) /
				sizeof(kdump_tools_defaults[0]); i++) {
		struct assign a = { 0 };
		bool set = false;

		for (size_t j = 0; j < sc->n; j++)
			if (strcmp(sc->v[j].name, kdump_tools_defaults[i].name) == 0 &&
			    sc->v[j].value[0])
				set = true;
		if (set)
			continue;
		snprintf(a.name, sizeof(a.name), "%s",
			 kdump_tools_defaults[i].name);
		snprintf(a.label, sizeof(a.label), "kdump-tools' default %s",
			 a.name);
		snprintf(a.value, sizeof(a.value), "%s",
			 kdump_tools_defaults[i].value);
		map_kdump_tools(im, &a);
	}
}

/*
 * Which network target kdump-tools dumps to: kdump-config savecore saves
 * over FTP and SSH when set, and to KDUMP_COREDIR otherwise, with the NFS
 * export mounted on it when NFS is set: the dumps go to KDUMP_COREDIR on
 * the SSH server, and to the top of the NFS export.
 */
static void find_remote_kdump_tools(struct import *im,
				    const struct shell_ctx *sc)
{
	const char *ssh = "", *nfs = "", *ftp = "", *dir = "/var/crash";
	bool expands = false;

	for (size_t i = 0; i < sc->n; i++) {
		const struct assign *a = &sc->v[i];

		if (!a->value[0])
			continue;
		if (strcmp(a->name, "SSH") == 0)
			ssh = a->value;
		else if (strcmp(a->name, "NFS") == 0)
			nfs = a->value;
		else if (strcmp(a->name, "FTP") == 0)
			ftp = a->value;
		else if (strcmp(a->name, "KDUMP_COREDIR") == 0)
			dir = a->value;
		else
			continue;
		expands |= a->expands;
	}
	snprintf(im->remote_path, sizeof(im->remote_path), "%s", dir);
	import_trim_slashes(im->remote_path);
	if (*ssh) {
		snprintf(im->remote, sizeof(im->remote), "SSH");
		text_format(im->remote_where, sizeof(im->remote_where),
			    "%s:%s over SSH", ssh, dir);
		import_remote_ssh_url(im, ssh, dir);
		import_remote_check(im, dir, expands);
	} else if (*nfs) {
		snprintf(im->remote, sizeof(im->remote), "NFS");
		text_format(im->remote_where, sizeof(im->remote_where),
			    "the NFS export %s (mounted on %s)", nfs, dir);
		import_remote_nfs_url(im, nfs, "");
		import_remote_check(im, "/", expands);
	} else if (*ftp) {
		snprintf(im->remote, sizeof(im->remote), "FTP");
		text_format(im->remote_where, sizeof(im->remote_where),
			    "the FTP server %s", ftp);
		snprintf(im->remote_refused, sizeof(im->remote_refused),
			 "kdump-file dumps over SSH or NFS, not FTP");
	}
	import_sanitize(im->remote_where);
}

/*
 * kdump-tools' /etc/default/kdump-tools or kdump-utils' /etc/sysconfig/kdump
 * (f) into im.
 */
int import_shell(struct import *im, enum import_format f, const char *buf,
		 size_t len, struct diag *err)
{
	struct shell_ctx sc = { .err = err };
	bool sysctl = false, enabled = true;
	int r;

	r = import_each_line(buf, len, err, shell_line, &sc);
	if (r < 0) {
		free(sc.v);
		return r;
	}
	if (f == IMPORT_KDUMP_TOOLS)
		find_remote_kdump_tools(im, &sc);
	for (size_t i = 0; i < sc.n; i++) {
		if (f == IMPORT_SYSCONFIG) {
			map_sysconfig(im, &sc.v[i]);
			continue;
		}
		map_kdump_tools(im, &sc.v[i]);
		if (strcmp(sc.v[i].name, "KDUMP_SYSCTL") == 0)
			sysctl = true;
		if (strcmp(sc.v[i].name, "USE_KDUMP") == 0 &&
		    strcmp(sc.v[i].value, "1") != 0 &&
		    strcmp(sc.v[i].value, "true") != 0)
			enabled = false;
	}
	if (f == IMPORT_KDUMP_TOOLS)
		map_kdump_tools_defaults(im, &sc);
	else
		map_sysconfig_defaults(im, &sc);
	free(sc.v);
	/*
	 * kdump-config load (kdump-tools 1.8.1, Debian 12) sets
	 * kernel.panic_on_oops=1 whenever it loads, with no setting
	 * for it: an oops panicked, and was captured.
	 */
	if (f == IMPORT_KDUMP_TOOLS && !sysctl && enabled)
		import_carry(im, IK_PANIC_ON, "oops", "kdump-config",
			     "sets kernel.panic_on_oops=1 when it loads");
	return 0;
}
