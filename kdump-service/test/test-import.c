// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import.h"
#include "tests.h"
#include "util.h"

static struct import im;
static struct diag err;
static char *out;

/* Import text as format f into im and render it into out. */
static int run(enum import_format f, const char *text)
{
	struct diag cerr = DIAG_INIT;
	int r;

	import_free(&im);
	import_init(&im);
	free(out);
	out = NULL;
	r = import_buffer(&im, f, "/etc/source", text, strlen(text), &err);
	if (r < 0) {
		if (getenv("TEST_VERBOSE"))
			fprintf(stderr, "import: line %u: %s\n", err.line, err.msg);
		return r;
	}
	r = import_render(&im, &out, &cerr);
	if (r < 0)
		fprintf(stderr, "render: line %u %s: %s\n", cerr.line, cerr.key,
			cerr.msg);
	return r;
}

/* out holds this exact line. */
static bool line(const char *l)
{
	size_t n = strlen(l);

	for (const char *p = out; p && (p = strstr(p, l)); p++)
		if ((p == out || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return true;
	return false;
}

/* A note of that kind whose setting is setting and whose reason has why. */
static bool noted(enum import_kind kind, const char *setting, const char *why)
{
	for (size_t i = 0; i < im.n_notes; i++)
		if (im.notes[i].kind == kind &&
		    strcmp(im.notes[i].setting, setting) == 0 &&
		    strstr(im.notes[i].reason, why))
			return true;
	return false;
}

static bool key_set(const char *key)
{
	char k[64];

	snprintf(k, sizeof(k), "\n%s = ", key);
	return out && strstr(out, k);
}

/*
 * The anchors' shipped files and edited variants (test/import/, read from
 * kdump-service/ where make check runs): each rendered and compared with
 * FIXTURE.expected exactly.  KDUMP_FILE_UPDATE_EXPECTED=1 writes the
 * expected file instead, for review.
 */
#define FIXTURES "test/import/"

static char *slurp(const char *path)
{
	char *buf = NULL;
	size_t cap = 0, len = 0, n;
	FILE *f = fopen(path, "re");

	if (!f)
		return NULL;
	do {
		if (len + 4096 + 1 > cap) {
			char *p = realloc(buf, cap = len + 4096 + 1);

			if (!p) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = p;
		}
		n = fread(buf + len, 1, 4096, f);
		len += n;
	} while (n > 0);
	fclose(f);
	buf[len] = '\0';
	return buf;
}

/* Import fixture a (and b, a kdump.conf's sysconfig) into im and out. */
static int fixture(enum import_format fa, const char *a, enum import_format fb,
		   const char *b, bool local_instead)
{
	const char *name[2] = { a, b };
	enum import_format f[2] = { fa, fb };
	struct diag cerr = DIAG_INIT;
	int r = 0;

	import_free(&im);
	import_init(&im);
	im.local_instead = local_instead;
	free(out);
	out = NULL;
	for (unsigned int i = 0; i < 2 && name[i] && r == 0; i++) {
		char path[256], *text;

		snprintf(path, sizeof(path), FIXTURES "%s", name[i]);
		text = slurp(path);
		CHECK(text != NULL);
		if (!text)
			return -ENOENT;
		r = import_buffer(&im, f[i], name[i], text, strlen(text), &err);
		free(text);
	}
	if (r == 0)
		r = import_render(&im, &out, &cerr);
	return r;
}

/* out is exactly FIXTURES expected. */
static bool same_as(const char *expected)
{
	char path[256], *want;
	bool same;

	snprintf(path, sizeof(path), FIXTURES "%s", expected);
	if (getenv("KDUMP_FILE_UPDATE_EXPECTED") && out) {
		FILE *f = fopen(path, "we");

		if (f) {
			fputs(out, f);
			fclose(f);
		}
	}
	want = slurp(path);
	same = want && out && strcmp(want, out) == 0;
	if (!same)
		fprintf(stderr, "%s differs; the output was:\n%s\n", path,
			out ? out : "(none)");
	free(want);
	return same;
}

/* The active lines of Debian 12's /etc/default/kdump-tools (1.8.1). */
static void test_kdump_tools_defaults(void)
{
	CHECK(run(IMPORT_KDUMP_TOOLS,
		  "USE_KDUMP=1\n"
		  "KDUMP_KERNEL=/var/lib/kdump/vmlinuz\n"
		  "KDUMP_INITRD=/var/lib/kdump/initrd.img\n"
		  "KDUMP_COREDIR=\"/var/crash\"\n") == 0);
	CHECK(line("path = /var/crash"));
	CHECK(line("# from KDUMP_COREDIR"));
	/* kdump-config load sets kernel.panic_on_oops=1 by itself. */
	CHECK(line("panic_on = oops"));
	CHECK(!key_set("kernel") && !key_set("initramfs"));
	CHECK(noted(IMPORT_NO_NEED, "USE_KDUMP", "systemctl enable"));
	CHECK(noted(IMPORT_NO_NEED, "KDUMP_KERNEL", "running kernel"));
	CHECK(noted(IMPORT_NO_NEED, "KDUMP_INITRD", "builds and maintains"));
	CHECK(im.n_not_carried == 0);
	/* kdump-config's defaults for what the file leaves unset count. */
	CHECK(line("# from kdump-tools' default MAKEDUMP_ARGS"));
	CHECK(line("compression = zlib") && line("dump_level = 31"));
	CHECK(noted(IMPORT_NO_NEED, "kdump-tools' default MAKEDUMP_ARGS (-F)", "flattened"));
	CHECK(line("cmdline_append = usbcore.nousb"));
	CHECK(noted(IMPORT_NO_NEED, "kdump-tools' default KDUMP_CMDLINE_APPEND (systemd.unit=kdump-tools-dump.service)", "kdump-tools' capture"));
	CHECK(line("failure_action = reboot") && line("keep = 0"));
	CHECK(noted(IMPORT_NO_NEED, "kdump-tools' default KDUMP_DUMP_DMESG", "always saves"));
	CHECK(line("# /etc/kdump-file.conf written by kdump-file import from:"));
	CHECK(line("#   /etc/source (kdump-tools)"));
}

static void test_kdump_tools_keys(void)
{
	CHECK(run(IMPORT_KDUMP_TOOLS,
		  "# comment\n"
		  "  export KDUMP_COREDIR='/srv/crash'   # where\n"
		  "KDUMP_KERNEL=/boot/vmlinuz-6.1.0-9-amd64\n"
		  "KDUMP_NUM_DUMPS=3\n"
		  "KDUMP_FAIL_CMD=\"reboot -f\"\n"
		  "KDUMP_DUMP_DMESG=1\n") == 0);
	CHECK(line("path = /srv/crash"));
	CHECK(line("kernel = /boot/vmlinuz-6.1.0-9-amd64"));
	CHECK(line("keep = 3"));
	CHECK(line("failure_action = reboot"));
	CHECK(noted(IMPORT_NO_NEED, "KDUMP_DUMP_DMESG", "always saves"));

	CHECK(run(IMPORT_KDUMP_TOOLS, "KDUMP_FAIL_CMD=/sbin/poweroff\n") == 0);
	CHECK(line("failure_action = poweroff"));
	CHECK(run(IMPORT_KDUMP_TOOLS, "KDUMP_FAIL_CMD='systemctl halt --force'\n") == 0);
	CHECK(line("failure_action = halt"));
	CHECK(run(IMPORT_KDUMP_TOOLS,
		  "KDUMP_FAIL_CMD=\"echo 'makedumpfile FAILED.'; /bin/bash; reboot -f\"\n") == 0);
	CHECK(!key_set("failure_action"));
	CHECK(noted(IMPORT_NOT_CARRIED, "KDUMP_FAIL_CMD", "runs no command"));
	CHECK(line("# not carried over: KDUMP_FAIL_CMD: kdump-file runs no command when saving fails: failure_action is one of reboot, poweroff, halt or shell"));
	CHECK(run(IMPORT_KDUMP_TOOLS, "KDUMP_FAIL_CMD='reboot now'\n") == 0);
	CHECK(!key_set("failure_action"));

	/* The last assignment wins, as in the shell. */
	CHECK(run(IMPORT_KDUMP_TOOLS, "KDUMP_NUM_DUMPS=3\nKDUMP_NUM_DUMPS=5\n") == 0);
	CHECK(line("keep = 5") && !line("keep = 3"));
	CHECK(line("# from KDUMP_NUM_DUMPS"));

	/* Values our parser refuses are not carried, with its reason. */
	CHECK(run(IMPORT_KDUMP_TOOLS,
		  "KDUMP_COREDIR=\"/var/crash dumps\"\nKDUMP_NUM_DUMPS=5000\n") == 0);
	CHECK(!key_set("path") && !key_set("keep"));
	CHECK(noted(IMPORT_NOT_CARRIED, "KDUMP_COREDIR", "byte 0x20"));
	CHECK(noted(IMPORT_NOT_CARRIED, "KDUMP_NUM_DUMPS", "from 0 (keep all) to 1000"));
}

static void test_kdump_tools_not_carried(void)
{
	CHECK(run(IMPORT_KDUMP_TOOLS,
		  "USE_KDUMP=0\n"
		  "KDUMP_INITRD=/boot/initrd-kdump\n"
		  "KDUMP_DUMP_DMESG=0\n"
		  "KDUMP_COMPRESSION=xz\n"
		  "KDUMP_KEXEC_ARGS=\"--elf64-core-headers\"\n"
		  "KDUMP_CMDLINE=\"root=/dev/sda1 ro\"\n"
		  "SSH=\"kdump@backup\"\n"
		  "SSH_KEY=/root/.ssh/kdump_id_rsa\n"
		  "NFS=\"server:/export/crash\"\n"
		  "NFS_TIMEO=600\n"
		  "HOSTTAG=hostname\n"
		  "FTP=server:/dumps\n"
		  "FTP_PASSWORD=hunter2secret\n"
		  "SOMETHING_ELSE=1\n"
		  "KDUMP_COREDIR=$HOME/crash\n"
		  "KDUMP_NUM_DUMPS=`echo 3`\n"
		  "KDUMP_KERNEL=/boot/vmlinuz-*\n"
		  "KDUMP_SYSCTL=\n") == 0);
	CHECK(noted(IMPORT_NOT_CARRIED, "USE_KDUMP", "systemctl disable kdump-file"));
	CHECK(noted(IMPORT_NOT_CARRIED, "KDUMP_INITRD", "runs kdump-tools' capture"));
	CHECK(noted(IMPORT_NOT_CARRIED, "KDUMP_DUMP_DMESG", "cannot be turned off"));
	CHECK(noted(IMPORT_NOT_CARRIED, "KDUMP_COMPRESSION", "inside makedumpfile"));
	CHECK(noted(IMPORT_NOT_CARRIED, "KDUMP_KEXEC_ARGS", "kexec_file_load"));
	CHECK(noted(IMPORT_NOT_CARRIED, "KDUMP_CMDLINE", "cmdline_append and cmdline_remove"));
	/* SSH is the one target kdump-file takes; its directory expands. */
	CHECK(noted(IMPORT_NOT_CARRIED, "SSH", "shell expansion"));
	CHECK(noted(IMPORT_NO_NEED, "SSH_KEY", "only for the network target SSH"));
	CHECK(noted(IMPORT_NOT_CARRIED, "NFS", "kdump-file dumps to one target, SSH"));
	CHECK(noted(IMPORT_NO_NEED, "NFS_TIMEO", "only for the network target SSH"));
	CHECK(noted(IMPORT_NO_NEED, "HOSTTAG", "only for the network target SSH"));
	CHECK(noted(IMPORT_NO_NEED, "FTP_PASSWORD", "only for the network target SSH"));
	CHECK(noted(IMPORT_NOT_CARRIED, "SOMETHING_ELSE", "not a kdump-tools setting"));
	CHECK(noted(IMPORT_NOT_CARRIED, "KDUMP_COREDIR", "shell expansion"));
	CHECK(noted(IMPORT_NOT_CARRIED, "KDUMP_NUM_DUMPS", "shell expansion"));
	CHECK(noted(IMPORT_NOT_CARRIED, "KDUMP_KERNEL", "shell expansion"));
	/* A password is never repeated. */
	CHECK(!strstr(out, "hunter2secret"));
	/* kdump-tools off: no panic_on from kdump-config. */
	CHECK(!key_set("panic_on") && !key_set("path"));
	CHECK(im.n_not_carried == 13);
	CHECK(line("# not carried over: SSH: uses shell expansion ($, ` or a glob), which import does not evaluate: set the kdump-file key by hand; import stops unless --local-instead makes the directory a local path"));
}

static void test_makedumpfile_args(void)
{
	CHECK(run(IMPORT_KDUMP_TOOLS, "MAKEDUMP_ARGS=\"-c -d 31\"\n") == 0);
	CHECK(line("compression = zlib") && line("dump_level = 31"));
	CHECK(run(IMPORT_KDUMP_TOOLS,
		  "MAKEDUMP_ARGS=\"-F -l -d17 --message-level=7 -e --num-threads 2\"\n") == 0);
	CHECK(line("compression = lzo") && line("dump_level = 17"));
	CHECK(line("makedumpfile_args = --message-level 7 -e --num-threads 2"));
	CHECK(noted(IMPORT_NO_NEED, "MAKEDUMP_ARGS (-F)", "flattened"));
	/* zstd and snappy: not carried, never silently another compression. */
	CHECK(run(IMPORT_KDUMP_TOOLS, "MAKEDUMP_ARGS=\"-z -d 1\"\n") == 0);
	CHECK(!key_set("compression") && line("dump_level = 1"));
	CHECK(noted(IMPORT_NOT_CARRIED, "MAKEDUMP_ARGS (-z)", "zstd compression is not in Debian 12"));
	CHECK(run(IMPORT_KDUMP_TOOLS, "MAKEDUMP_ARGS=\"-p\"\n") == 0);
	CHECK(noted(IMPORT_NOT_CARRIED, "MAKEDUMP_ARGS (-p)", "snappy"));
	/* No compression option: makedumpfile writes it uncompressed. */
	CHECK(run(IMPORT_KDUMP_TOOLS, "MAKEDUMP_ARGS=\"-d 31\"\n") == 0);
	CHECK(line("compression = none"));
	/* Refused: with kdump-file.conf's own reason. */
	CHECK(run(IMPORT_KDUMP_TOOLS,
		  "MAKEDUMP_ARGS=\"-c -E -d 40 --message-level 99 -x /boot/vmlinux --split\"\n") == 0);
	CHECK(!key_set("dump_level") && !key_set("makedumpfile_args"));
	CHECK(noted(IMPORT_NOT_CARRIED, "MAKEDUMP_ARGS (-E)", "ELF output"));
	CHECK(noted(IMPORT_NOT_CARRIED, "MAKEDUMP_ARGS (-d 40)", "dump level from 0 to 31"));
	CHECK(noted(IMPORT_NOT_CARRIED, "MAKEDUMP_ARGS (--message-level 99)", "needs a number from 0 to 31, not '99'"));
	CHECK(noted(IMPORT_NOT_CARRIED, "MAKEDUMP_ARGS (-x /boot/vmlinux)", "neither a vmlinux"));
	CHECK(noted(IMPORT_NOT_CARRIED, "MAKEDUMP_ARGS (--split)", "one dump file per crash"));
	CHECK(run(IMPORT_KDUMP_TOOLS, "MAKEDUMP_ARGS=\"-c -d\"\n") == 0);
	CHECK(noted(IMPORT_NOT_CARRIED, "MAKEDUMP_ARGS (-d)", "without a value"));
	CHECK(run(IMPORT_KDUMP_TOOLS, "MAKEDUMP_ARGS=\"-l --num-threads\"\n") == 0);
	CHECK(noted(IMPORT_NOT_CARRIED, "MAKEDUMP_ARGS (--num-threads)", "without a value"));
	/* What makedumpfile_args takes is carried over. */
	CHECK(run(IMPORT_KDUMP_TOOLS,
		  "MAKEDUMP_ARGS=\"-c -d 31 --cyclic-buffer 1024 --non-mmap -D --splitblock-size=2048\"\n") == 0);
	CHECK(line("makedumpfile_args = --cyclic-buffer 1024 --non-mmap -D --splitblock-size 2048"));
	CHECK(im.n_not_carried == 0);
	/* Repeated: the last wins, as in makedumpfile; the others are named. */
	CHECK(run(IMPORT_KDUMP_TOOLS,
		  "MAKEDUMP_ARGS=\"-c -d 31 --message-level 7 -l -d 17 --message-level=1 -e -e\"\n") == 0);
	CHECK(line("compression = lzo") && line("dump_level = 17"));
	CHECK(line("makedumpfile_args = --message-level 1 -e"));
	CHECK(noted(IMPORT_NO_NEED, "MAKEDUMP_ARGS (-c)", "a later -l overrides it"));
	CHECK(noted(IMPORT_NO_NEED, "MAKEDUMP_ARGS (-d 31)", "a later -d 17 overrides it"));
	CHECK(noted(IMPORT_NO_NEED, "MAKEDUMP_ARGS (--message-level 7)", "a later --message-level 1 overrides it"));
	CHECK(noted(IMPORT_NO_NEED, "MAKEDUMP_ARGS (-e)", "a later -e overrides it"));
}

/* makedumpfile reads a repeated option's last value: fails as a bug before. */
static void test_fixture_repeated_option(void)
{
	CHECK(fixture(IMPORT_KDUMP_CONF, "fedora-kdump.conf.repeated-option",
		      IMPORT_UNKNOWN, NULL, false) == 0);
	CHECK(same_as("fedora-kdump.conf.repeated-option.expected"));
	CHECK(line("makedumpfile_args = --message-level 1"));
	CHECK(line("compression = zlib") && line("dump_level = 17"));
}

/* The options makedumpfile_args takes: refused by import before. */
static void test_fixture_makedumpfile_args(void)
{
	CHECK(fixture(IMPORT_KDUMP_CONF, "fedora-kdump.conf.makedumpfile-args",
		      IMPORT_UNKNOWN, NULL, false) == 0);
	CHECK(same_as("fedora-kdump.conf.makedumpfile-args.expected"));
	CHECK(im.n_not_carried == 1);	/* auto_reset_crashkernel */
}

/* The shipped files: the anchors' defaults for what they leave unset count. */
static void test_fixture_shipped(void)
{
	CHECK(fixture(IMPORT_KDUMP_TOOLS, "debian12-kdump-tools",
		      IMPORT_UNKNOWN, NULL, false) == 0);
	CHECK(same_as("debian12-kdump-tools.expected"));
	/* kdump-tools' zlib, not kdump-file's default lzo. */
	CHECK(line("compression = zlib"));
	CHECK(fixture(IMPORT_KDUMP_TOOLS, "debian12-kdump-tools.makedump-args-empty",
		      IMPORT_UNKNOWN, NULL, false) == 0);
	CHECK(same_as("debian12-kdump-tools.makedump-args-empty.expected"));
	CHECK(line("compression = zlib") && line("dump_level = 31"));
	CHECK(fixture(IMPORT_KDUMP_CONF, "fedora-kdump.conf",
		      IMPORT_SYSCONFIG, "fedora-sysconfig-kdump", false) == 0);
	CHECK(same_as("fedora-kdump.conf.expected"));
	CHECK(fixture(IMPORT_KDUMP_CONF, "fedora-kdump.conf.no-collector",
		      IMPORT_UNKNOWN, NULL, false) == 0);
	CHECK(same_as("fedora-kdump.conf.no-collector.expected"));
	CHECK(line("path = /var/crash") && line("compression = lzo") &&
	      line("dump_level = 31"));
}

/* kdump_pre stops the dump when it fails, in both; the arguments differ. */
static void test_fixture_hooks(void)
{
	CHECK(fixture(IMPORT_KDUMP_CONF, "fedora-kdump.conf.hooks",
		      IMPORT_UNKNOWN, NULL, false) == 0);
	CHECK(same_as("fedora-kdump.conf.hooks.expected"));
	CHECK(line("hook_failure = stop"));
	CHECK(noted(IMPORT_CHANGED, "kdump_pre", "the dump directory and \"pre\""));
	CHECK(noted(IMPORT_CHANGED, "kdump_pre", "failure_action (shell) where kdump-utils took final_action (reboot)"));
	CHECK(noted(IMPORT_CHANGED, "kdump_post", "the dump's exit status"));
	/* A raw target: kdump-file.conf takes no hook with it. */
	CHECK(run(IMPORT_KDUMP_CONF, "raw /dev/vdb\nkdump_pre /a\nkdump_post /b\n") == 0);
	CHECK(!key_set("pre_hook") && !key_set("post_hook") && !key_set("hook_failure"));
	CHECK(noted(IMPORT_NOT_CARRIED, "kdump_pre", "a raw target has none"));
	CHECK(noted(IMPORT_NOT_CARRIED, "kdump_post", "a raw target has none"));
	/* Only kdump_post: its failure is only recorded, as in kdump-utils. */
	CHECK(run(IMPORT_KDUMP_CONF, "kdump_post /usr/local/bin/post\n") == 0);
	CHECK(line("post_hook = /usr/local/bin/post") && !key_set("hook_failure"));
	CHECK(im.n_changed == 1);
}

/* Settings that were dropped without a reason. */
static void test_fixture_dropped(void)
{
	CHECK(fixture(IMPORT_KDUMP_CONF, "fedora-kdump.conf.emergency",
		      IMPORT_UNKNOWN, NULL, false) == 0);
	CHECK(same_as("fedora-kdump.conf.emergency.expected"));
	CHECK(noted(IMPORT_NOT_CARRIED, "kdump_emergency", "post_hook runs after every dump"));
	CHECK(fixture(IMPORT_KDUMP_CONF, "fedora-kdump.conf", IMPORT_SYSCONFIG,
		      "fedora-sysconfig-kdump.notification-off", false) == 0);
	CHECK(same_as("fedora-sysconfig-kdump.notification-off.expected"));
	CHECK(noted(IMPORT_NOT_CARRIED, "VMCORE_CREATION_NOTIFICATION (empty)", "cannot be told not to"));
}

/* import_check() of im, with a diag of its own: its text in checked. */
static struct diag checked;

static int check(void)
{
	diag_clear(&checked);
	return import_check(&im, &checked);
}

/*
 * A network target: carried over as target = URL with the keys beside it
 * (it stopped import before); with --local-instead, still an explicit
 * choice, its directory becomes a local path and import says so.
 */
static void remote(enum import_format f, const char *fixture_name,
		   const char *target)
{
	char expected[128];

	CHECK(fixture(f, fixture_name, IMPORT_UNKNOWN, NULL, false) == 0);
	CHECK(check() == 0);
	CHECK(!key_set("path") && line(target));
	snprintf(expected, sizeof(expected), "%s.expected", fixture_name);
	CHECK(same_as(expected));
	CHECK(fixture(f, fixture_name, IMPORT_UNKNOWN, NULL, true) == 0);
	CHECK(check() == 0);
	snprintf(expected, sizeof(expected), "%s.local-instead.expected",
		 fixture_name);
	CHECK(same_as(expected));
	CHECK(im.n_changed == 1);
}

/*
 * A network target kdump-file cannot dump to: import stops with the
 * reason, and --local-instead makes its directory a local path.
 */
static void remote_refused(enum import_format f, const char *fixture_name,
			   const char *msg)
{
	CHECK(fixture(f, fixture_name, IMPORT_UNKNOWN, NULL, false) == 0);
	CHECK(check() == -EREMOTE);
	if (strcmp(diag_text(&checked), msg) != 0)
		fprintf(stderr, "%s: import_check says: %s\n", fixture_name,
			diag_text(&checked));
	CHECK(checked.error == -EREMOTE &&
	      strcmp(diag_text(&checked), msg) == 0);
	/* A NULL diag: the errno alone. */
	CHECK(import_check(&im, NULL) == -EREMOTE);
	CHECK(!key_set("path") && !key_set("target"));
	CHECK(fixture(f, fixture_name, IMPORT_UNKNOWN, NULL, true) == 0);
	CHECK(check() == 0);
	CHECK(key_set("path") && !key_set("target"));
}

static void test_fixture_remote(void)
{
	remote(IMPORT_KDUMP_TOOLS, "debian12-kdump-tools.ssh",
	       "target = ssh://kdump@backup.example.com/var/crash");
	/* kdump-config mounts the export on KDUMP_COREDIR: its top. */
	remote(IMPORT_KDUMP_TOOLS, "debian12-kdump-tools.nfs",
	       "target = nfs://nfs.example.com/srv/crash");
	remote(IMPORT_KDUMP_CONF, "fedora-kdump.conf.ssh",
	       "target = ssh://user@my.server.com/var/crash");
	/* path is a directory in the export. */
	remote(IMPORT_KDUMP_CONF, "fedora-kdump.conf.nfs",
	       "target = nfs://my.server.com/export/tmp/var/crash");

	CHECK(fixture(IMPORT_KDUMP_CONF, "fedora-kdump.conf.ssh-dump-to-rootfs",
		      IMPORT_UNKNOWN, NULL, false) == 0);
	CHECK(check() == 0);
	CHECK(same_as("fedora-kdump.conf.ssh-dump-to-rootfs.expected"));
	CHECK(line("target = ssh://kdump@192.0.2.10/srv/crash"));
	CHECK(line("ssh_key = /root/.ssh/kdump_id_rsa"));
	CHECK(line("fallback = /srv/crash"));
	CHECK(line("failure_action = poweroff"));

	remote_refused(IMPORT_KDUMP_TOOLS, "debian12-kdump-tools.ftp",
		       "FTP: dumps go to the FTP server ftp.example.com:/dumps, which kdump-file cannot dump to: kdump-file dumps over SSH or NFS, not FTP: add --local-instead to dump to /var/crash here instead");
	CHECK(!strstr(out, "never-printed"));
	remote_refused(IMPORT_KDUMP_TOOLS, "debian12-kdump-tools.ssh-bad-user",
		       "SSH: dumps go to Kdump@backup.example.com:/srv/dumps over SSH, which kdump-file cannot dump to: kdump-file's target refuses it: the user in 'ssh://Kdump@backup.example.com/srv/dumps' is not a user name (lower-case letters, digits, _ . -): add --local-instead to dump to /srv/dumps here instead");
	/* An IPv6 server, in brackets as kdump.conf writes it. */
	CHECK(fixture(IMPORT_KDUMP_CONF, "fedora-kdump.conf.nfs-ipv6",
		      IMPORT_UNKNOWN, NULL, false) == 0);
	CHECK(check() == 0);
	CHECK(line("target = nfs://[2001:db8::1:2:3:4]/export/tmp/var/crash"));

	/* Local: nothing to refuse, the network-only settings need nothing. */
	CHECK(fixture(IMPORT_KDUMP_TOOLS, "debian12-kdump-tools", IMPORT_UNKNOWN,
		      NULL, false) == 0);
	CHECK(check() == 0);
	CHECK(run(IMPORT_KDUMP_TOOLS, "SSH_KEY=/root/.ssh/id\nHOSTTAG=ip\nSSH=\"\"\n") == 0);
	CHECK(check() == 0);
	CHECK(noted(IMPORT_NO_NEED, "SSH_KEY", "used only with SSH=, NFS= or FTP=, and none is set"));
	CHECK(line("path = /var/crash"));

	/* ssh(1) without USER@ logs in as root, who runs kdump-config. */
	CHECK(run(IMPORT_KDUMP_TOOLS, "SSH=backup\nKDUMP_COREDIR=/srv/crash/\n") == 0);
	CHECK(check() == 0);
	CHECK(line("target = ssh://root@backup/srv/crash"));
	CHECK(noted(IMPORT_CARRIED, "KDUMP_COREDIR", "the directory in target"));
	CHECK(run(IMPORT_KDUMP_TOOLS, "SSH=\"kdump@fd00:1::1\"\n") == 0);
	CHECK(check() == 0);
	CHECK(line("target = ssh://kdump@[fd00:1::1]/var/crash"));
	/* dracut's network options: not needed, said why. */
	CHECK(run(IMPORT_KDUMP_CONF, "dracut_args --mount x ip=eth0:dhcp bond=bond0:eth0,eth1\n") == 0);
	CHECK(noted(IMPORT_NOT_CARRIED, "dracut_args", "records the running system's way to the collector"));
	CHECK(run(IMPORT_KDUMP_TOOLS, "SSH=\"$USER@backup\"\n") == 0);
	CHECK(check() == -EREMOTE);
	CHECK(strstr(diag_text(&checked), "shell expansion"));
	CHECK(run(IMPORT_KDUMP_TOOLS, "NFS=server\n") == 0);
	CHECK(check() == -EREMOTE);
	CHECK(strstr(diag_text(&checked), "'server' is not HOST:/EXPORT"));
	CHECK(run(IMPORT_KDUMP_TOOLS, "NFS=server:/\n") == 0);
	CHECK(check() == 0);
	CHECK(line("target = nfs://server/"));
	CHECK(run(IMPORT_KDUMP_CONF, "nfs server:/export/\npath crash\n") == 0);
	CHECK(line("target = nfs://server/export/crash"));
	/* The retries: net_timeout bounds reaching the collector. */
	CHECK(run(IMPORT_KDUMP_TOOLS,
		  "SSH=kdump@backup\nSSH_KDUMP_RETRY=4\nNFS_TIMEO=10\nFTP_PORT=21\n") == 0);
	CHECK(noted(IMPORT_NOT_CARRIED, "SSH_KDUMP_RETRY", "net_timeout"));
	CHECK(noted(IMPORT_NO_NEED, "NFS_TIMEO", "not for the network target SSH"));
	CHECK(noted(IMPORT_NO_NEED, "FTP_PORT", "not for the network target SSH"));
	CHECK(run(IMPORT_KDUMP_TOOLS,
		  "NFS=server:/e\nNFS_MOUNT_RETRY=4\nSSH_KEY=/k\nHOSTTAG=ip\n") == 0);
	CHECK(noted(IMPORT_NOT_CARRIED, "NFS_MOUNT_RETRY", "net_timeout"));
	CHECK(noted(IMPORT_NO_NEED, "SSH_KEY", "dumps go over NFS"));
	CHECK(noted(IMPORT_CHANGED, "HOSTTAG", "by the IP address"));
	/* kdump-config savecore dumps to each target set; kdump-file to one. */
	CHECK(run(IMPORT_KDUMP_TOOLS,
		  "FTP=ftp:/d\nNFS=server:/e\nSSH=kdump@backup\nKDUMP_NUM_DUMPS=3\n") == 0);
	CHECK(check() == 0);
	CHECK(line("target = ssh://kdump@backup/var/crash"));
	CHECK(noted(IMPORT_NOT_CARRIED, "NFS", "kdump-file dumps to one target, SSH"));
	CHECK(noted(IMPORT_NOT_CARRIED, "FTP", "kdump-file dumps to one target, SSH"));
	CHECK(noted(IMPORT_CHANGED, "KDUMP_NUM_DUMPS", "removed no dump on SSH"));
	CHECK(line("keep = 3"));
	CHECK(!key_set("ssh_key"));
}

static void test_summary(void)
{
	char *sum = NULL;

	CHECK(fixture(IMPORT_KDUMP_CONF, "fedora-kdump.conf.ssh", IMPORT_UNKNOWN,
		      NULL, true) == 0);
	CHECK(import_summary(&im, &sum) == 0);
	CHECK(sum && strstr(sum, "(1 difference noted), 1 not carried over"));
	CHECK(sum && strstr(sum, "\n  with a difference: ssh: dumps went to user@my.server.com:/var/crash over SSH; with --local-instead they go to path = /var/crash on this machine instead\n"));
	CHECK(sum && strstr(sum, "\n  auto_reset_crashkernel (yes): kdump-file never changes"));
	free(sum);
	sum = NULL;
	CHECK(fixture(IMPORT_KDUMP_CONF, "fedora-kdump.conf.ssh", IMPORT_UNKNOWN,
		      NULL, false) == 0);
	CHECK(import_summary(&im, &sum) == 0);
	CHECK(sum && strstr(sum, "\n  with a difference: ssh: dumps go to a directory per machine, HOSTNAME-MID12, in /var/crash on the collector"));
	CHECK(sum && strstr(sum, "\n  with a difference: sshkey: kdump-file propagate installs this key"));
	free(sum);
}

/*
 * --output over the /etc/kdump-file.conf the package ships (comments only):
 * replaced without --force, which it needed before.  A file with settings
 * needs force, and is kept as FILE.bak.
 */
static bool only_comments(const char *text)
{
	return import_only_comments(text, strlen(text));
}

static void test_write(void)
{
	char dir[] = "/tmp/test-import.XXXXXX", path[64], bak[64], *shipped, *t;
	enum import_write_how how = IMPORT_WROTE_NEW;
	struct stat st;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/kdump-file.conf", dir);
	CHECK(path_format(bak, sizeof(bak), "%s.bak", path) == 0);
	shipped = slurp("conf/kdump-file.conf");
	CHECK(shipped && import_only_comments(shipped, strlen(shipped)));
	CHECK(!only_comments("# x\n  \n\tkeep = 1\n"));
	CHECK(only_comments("") && only_comments("\n \t# a\n#b"));

	CHECK(import_write(path, "keep = 1\n", false, &how) == 0);
	CHECK(how == IMPORT_WROTE_NEW);
	test_put(dir, "kdump-file.conf", shipped ? shipped : "");
	how = IMPORT_WROTE_NEW;
	CHECK(import_write(path, "keep = 2\n", false, &how) == 0);
	CHECK(how == IMPORT_REPLACED_COMMENTS);
	CHECK(access(bak, F_OK) < 0);
	t = slurp(path);
	CHECK(t && strcmp(t, "keep = 2\n") == 0);
	free(t);
	/* A hand-edited file: refused without force, kept with it. */
	CHECK(chmod(path, 0600) == 0);
	CHECK(import_write(path, "keep = 3\n", false, &how) == -EEXIST);
	t = slurp(path);
	CHECK(t && strcmp(t, "keep = 2\n") == 0);
	free(t);
	CHECK(import_write(path, "keep = 3\n", true, &how) == 0);
	CHECK(how == IMPORT_REPLACED_BACKED_UP);
	t = slurp(bak);
	CHECK(t && strcmp(t, "keep = 2\n") == 0);
	free(t);
	CHECK(stat(bak, &st) == 0 && (st.st_mode & 0777) == 0600);
	CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0644);
	free(shipped);
	CHECK(test_rm_rf(dir) == 0);
}

static void test_cmdline_append(void)
{
	/* kdump-tools' default KDUMP_CMDLINE_APPEND. */
	CHECK(run(IMPORT_KDUMP_TOOLS,
		  "KDUMP_CMDLINE_APPEND=\"reset_devices systemd.unit=kdump-tools-dump.service nr_cpus=1 irqpoll usbcore.nousb\"\n") == 0);
	CHECK(line("cmdline_append = usbcore.nousb"));
	CHECK(noted(IMPORT_NO_NEED, "KDUMP_CMDLINE_APPEND (systemd.unit=kdump-tools-dump.service)", "its initramfs' own /init"));
	CHECK(noted(IMPORT_NO_NEED, "KDUMP_CMDLINE_APPEND (irqpoll)", "already"));
	CHECK(noted(IMPORT_NO_NEED, "KDUMP_CMDLINE_APPEND (nr_cpus=1)", "already"));
	CHECK(noted(IMPORT_NO_NEED, "KDUMP_CMDLINE_APPEND (reset_devices)", "already"));
	/* Refused by name, by our validation, and a different value kept. */
	CHECK(run(IMPORT_KDUMP_TOOLS,
		  "KDUMP_CMDLINE_APPEND=\"root=/dev/sda1 init=/bin/sh quiet;reboot nr_cpus=2 rd.kdumploglvl=3 dyndbg=\\\"file x.c +p\\\" loglevel=7\"\n") == 0);
	CHECK(line("cmdline_append = nr_cpus=2 loglevel=7"));
	CHECK(noted(IMPORT_NOT_CARRIED, "KDUMP_CMDLINE_APPEND (root=/dev/sda1)", "sets or leaves out root"));
	CHECK(noted(IMPORT_NOT_CARRIED, "KDUMP_CMDLINE_APPEND (init=/bin/sh)", "sets or leaves out init"));
	CHECK(noted(IMPORT_NOT_CARRIED, "KDUMP_CMDLINE_APPEND (quiet;reboot)", "';' is not allowed"));
	CHECK(noted(IMPORT_NOT_CARRIED, "KDUMP_CMDLINE_APPEND (rd.kdumploglvl=3)", "dracut"));
	CHECK(noted(IMPORT_NOT_CARRIED, "KDUMP_CMDLINE_APPEND (dyndbg=\"file x.c +p\")", "is not allowed"));
	/* Bytes that are not printable ASCII never reach the output. */
	CHECK(run(IMPORT_KDUMP_TOOLS, "KDUMP_CMDLINE_APPEND=\"a=\xff\xfe\"\n") == 0);
	CHECK(noted(IMPORT_NOT_CARRIED, "KDUMP_CMDLINE_APPEND (a=?" "?)", "not valid UTF-8"));
}

static void test_sysctl(void)
{
	CHECK(run(IMPORT_KDUMP_TOOLS,
		  "KDUMP_SYSCTL=\"kernel.panic_on_oops=1 kernel.hung_task_panic=1 kernel.softlockup_panic=1 kernel.hardlockup_panic=1 kernel.panic_on_rcu_stall=1 kernel.panic_on_warn=0 vm.swappiness=10 kernel.panic_on_oops=1 kernel.hung_task_panic=x\"\n") == 0);
	CHECK(line("panic_on = oops hung_task soft_lockup hard_lockup rcu_stall"));
	CHECK(line("# from KDUMP_SYSCTL"));
	CHECK(noted(IMPORT_NO_NEED, "KDUMP_SYSCTL (kernel.panic_on_warn=0)", "off"));
	CHECK(noted(IMPORT_NOT_CARRIED, "KDUMP_SYSCTL (vm.swappiness=10)", "sysctl.d"));
	CHECK(noted(IMPORT_NOT_CARRIED, "KDUMP_SYSCTL (kernel.hung_task_panic=x)", "name=number"));
	CHECK(run(IMPORT_KDUMP_TOOLS, "KDUMP_SYSCTL=\"kernel.panic_on_warn=1\"\n") == 0);
	CHECK(line("panic_on = warn"));
}

static void test_shell_errors(void)
{
	CHECK(run(IMPORT_KDUMP_TOOLS, "USE_KDUMP=1\n\nKDUMP_COREDIR=\"/var/crash\n") == -EINVAL);
	CHECK(err.line == 3 && strstr(err.msg, "unterminated double quote"));
	CHECK(run(IMPORT_KDUMP_TOOLS, "KDUMP_COREDIR='/var/crash\n") == -EINVAL);
	CHECK(err.line == 1 && strstr(err.msg, "unterminated single quote"));
	CHECK(run(IMPORT_KDUMP_TOOLS, "KDUMP_COREDIR=/var/crash dumps\n") == -EINVAL);
	CHECK(err.line == 1 && strstr(err.msg, "quote a value that contains blanks"));
	CHECK(run(IMPORT_KDUMP_TOOLS, "if true; then\n") == -EINVAL);
	CHECK(strstr(err.msg, "expected a plain assignment"));
	CHECK(run(IMPORT_KDUMP_TOOLS, "A=1\nKDUMP_COREDIR=/x;rm\n") == -EINVAL);
	CHECK(err.line == 2 && strstr(err.msg, "';'"));
	CHECK(run(IMPORT_KDUMP_TOOLS, "KDUMP_COREDIR=/x\\\n") == -EINVAL);
	CHECK(strstr(err.msg, "continued lines"));
	CHECK(run(IMPORT_KDUMP_TOOLS, "1A=2\n") == -EINVAL);
	CHECK(run(IMPORT_KDUMP_TOOLS, "A = 2\n") == -EINVAL);
	CHECK(run(IMPORT_KDUMP_TOOLS, "A=\x01\n") == -EINVAL);
	CHECK(strstr(err.msg, "control character 0x01"));
	{
		static const char nul[] = "A=1\0B=2\n";

		import_free(&im);
		import_init(&im);
		CHECK(import_buffer(&im, IMPORT_KDUMP_TOOLS, "x", nul,
				    sizeof(nul) - 1, &err) == -EINVAL);
		CHECK(strstr(err.msg, "NUL byte"));
	}
	{
		char *big = malloc(IMPORT_LINE_MAX + 16);

		memset(big, 'a', IMPORT_LINE_MAX + 8);
		memcpy(big, "A=", 2);
		strcpy(big + IMPORT_LINE_MAX + 8, "\n");
		CHECK(run(IMPORT_KDUMP_TOOLS, big) == -EINVAL);
		CHECK(err.line == 1 && strstr(err.msg, "longer than"));
		/* Fits the line, not kdump-file.conf's value bound. */
		big[CONF_VALUE_MAX + 8] = '\n';
		big[CONF_VALUE_MAX + 9] = '\0';
		CHECK(run(IMPORT_KDUMP_TOOLS, big) == -EINVAL);
		CHECK(strstr(err.msg, "value of A is longer"));
		free(big);
	}
	/* Nothing is mapped from a file that does not parse. */
	CHECK(run(IMPORT_KDUMP_TOOLS, "KDUMP_NUM_DUMPS=2\nB=\"x\n") == -EINVAL);
	CHECK(im.n_notes == 0 && im.n_sources == 0);
	/* Quoting: '$' literal in single quotes, escaped in double quotes. */
	CHECK(run(IMPORT_KDUMP_TOOLS, "KDUMP_COREDIR='/a$b'\n") == 0);
	CHECK(noted(IMPORT_NOT_CARRIED, "KDUMP_COREDIR", "refuses it"));
	CHECK(run(IMPORT_KDUMP_TOOLS, "KDUMP_COREDIR=\"/var/\\$x\"\n") == 0);
	CHECK(noted(IMPORT_NOT_CARRIED, "KDUMP_COREDIR", "refuses it"));
	CHECK(run(IMPORT_KDUMP_TOOLS, "KDUMP_COREDIR=/var/\"cr\"'ash'\r\n") == 0);
	CHECK(line("path = /var/crash"));
}

/* The active lines kdump-utils ships on x86_64. */
static const char fedora_conf[] =
	"auto_reset_crashkernel yes\n"
	"path /var/crash\n"
	"core_collector makedumpfile -l --message-level 7 -d 31\n";
static const char fedora_sysconfig[] =
	"KDUMP_KERNELVER=\"\"\n"
	"KDUMP_COMMANDLINE=\"\"\n"
	"KDUMP_COMMANDLINE_REMOVE=\"hugepages hugepagesz slub_debug quiet log_buf_len swiotlb cma hugetlb_cma ignition.firstboot\"\n"
	"KDUMP_COMMANDLINE_APPEND=\"irqpoll nr_cpus=1 reset_devices cgroup_disable=memory mce=off numa=off udev.children-max=2 panic=10 acpi_no_memhotplug transparent_hugepage=never nokaslr hest_disable novmcoredd cma=0 hugetlb_cma=0 pcie_ports=compat\"\n"
	"FADUMP_COMMANDLINE_APPEND=\"\"\n"
	"KEXEC_ARGS=\"-s\"\n"
	"KDUMP_IMG=\"vmlinuz\"\n"
	"KDUMP_IMG_EXT=\"\"\n"
	"VMCORE_CREATION_NOTIFICATION=\"yes\"\n";

static void test_kdump_utils_defaults(void)
{
	struct diag cerr = DIAG_INIT;

	CHECK(run(IMPORT_KDUMP_CONF, fedora_conf) == 0);
	CHECK(import_buffer(&im, IMPORT_SYSCONFIG, "/etc/sysconfig/kdump",
			    fedora_sysconfig, strlen(fedora_sysconfig), &err) == 0);
	free(out);
	out = NULL;
	CHECK(import_render(&im, &out, &cerr) == 0);
	CHECK(line("path = /var/crash"));
	CHECK(line("compression = lzo"));
	CHECK(line("dump_level = 31"));
	CHECK(line("makedumpfile_args = --message-level 7"));
	CHECK(line("cmdline_append = nokaslr hest_disable novmcoredd cma=0 hugetlb_cma=0 pcie_ports=compat"));
	CHECK(line("cmdline_remove = slub_debug quiet log_buf_len swiotlb ignition.firstboot"));
	CHECK(line("#   /etc/sysconfig/kdump (kdump-utils sysconfig)"));
	CHECK(noted(IMPORT_NOT_CARRIED, "auto_reset_crashkernel (yes)", "never changes crashkernel="));
	CHECK(noted(IMPORT_NOT_CARRIED, "KDUMP_COMMANDLINE_APPEND (udev.children-max=2)", "without udev"));
	CHECK(noted(IMPORT_NO_NEED, "KDUMP_COMMANDLINE_APPEND (panic=10)", "already"));
	CHECK(noted(IMPORT_NO_NEED, "KDUMP_COMMANDLINE_APPEND (transparent_hugepage=never)", "already"));
	CHECK(noted(IMPORT_NO_NEED, "KDUMP_COMMANDLINE_REMOVE (hugepages)", "already"));
	CHECK(noted(IMPORT_NO_NEED, "KEXEC_ARGS (-s)", "kexec_file_load"));
	CHECK(noted(IMPORT_NO_NEED, "KDUMP_IMG", "default"));
	CHECK(im.n_not_carried == 2);
	CHECK(!key_set("panic_on"));
}

static void test_kdump_conf(void)
{
	CHECK(run(IMPORT_KDUMP_CONF,
		  "# a comment\n"
		  "ext4 UUID=03138356-5e61-4ab3-b58e-27507ac41937   # the disk\n"
		  "path /crash\n"
		  "core_collector makedumpfile -c -d 17\n"
		  "kdump_pre /usr/local/bin/pre.sh\n"
		  "kdump_post /usr/local/bin/post.sh\n"
		  "extra_bins /usr/bin/lftp /usr/bin/ssh\n"
		  "extra_bins /usr/bin/lftp lftp\n"
		  "extra_modules gfs2 bridge\n"
		  "extra_modules bad/name\n"
		  "failure_action shell\n"
		  "final_action poweroff\n") == 0);
	CHECK(line("target = UUID=03138356-5e61-4ab3-b58e-27507ac41937"));
	CHECK(line("# from ext4"));
	CHECK(line("path = /crash"));
	CHECK(line("compression = zlib") && line("dump_level = 17"));
	CHECK(line("pre_hook = /usr/local/bin/pre.sh"));
	CHECK(line("post_hook = /usr/local/bin/post.sh"));
	CHECK(line("extra_binaries = /usr/bin/lftp /usr/bin/ssh"));
	CHECK(noted(IMPORT_NOT_CARRIED, "extra_bins (lftp)", "not an absolute path"));
	CHECK(line("extra_modules = gfs2 bridge"));
	CHECK(noted(IMPORT_NOT_CARRIED, "extra_modules (bad/name)", "module names use letters"));
	CHECK(line("failure_action = shell"));
	CHECK(line("final_action = poweroff"));

	CHECK(run(IMPORT_KDUMP_CONF,
		  "xfs LABEL=dumps\ndefault poweroff\nfinal_action shell\n") == 0);
	CHECK(line("target = LABEL=dumps"));
	CHECK(line("failure_action = poweroff"));
	CHECK(!key_set("final_action"));
	CHECK(noted(IMPORT_NOT_CARRIED, "final_action", "reboot, poweroff, halt"));
	CHECK(run(IMPORT_KDUMP_CONF, "raw /dev/vdb\nfailure_action dump_to_rootfs\n") == 0);
	CHECK(line("raw = /dev/vdb"));
	CHECK(noted(IMPORT_NOT_CARRIED, "failure_action (dump_to_rootfs)", "from a network target only"));
	CHECK(run(IMPORT_KDUMP_CONF, "btrfs /dev/vdb1;reboot\n") == 0);
	CHECK(noted(IMPORT_NOT_CARRIED, "btrfs", "refuses it"));

	CHECK(run(IMPORT_KDUMP_CONF,
		  "nfs server:/export\n"
		  "sshkey /root/.ssh/kdump_id_rsa\n"
		  "core_collector cp\n"
		  "kdump_post /bin/post arg\n"
		  "force_rebuild 1\n"
		  "force_no_rebuild 0\n"
		  "dracut_args --omit-drivers \"cfg80211 snd\"\n"
		  "fence_kdump_args -p 7410\n"
		  "fence_kdump_nodes node1 node2\n"
		  "auto_reset_crashkernel no\n"
		  "frobnicate 1\n") == 0);
	CHECK(line("target = nfs://server/export/var/crash"));
	CHECK(noted(IMPORT_CHANGED, "nfs", "HOSTNAME-MID12"));
	CHECK(noted(IMPORT_NO_NEED, "sshkey", "dumps go over NFS"));
	CHECK(noted(IMPORT_NOT_CARRIED, "core_collector", "always saves the dump with makedumpfile"));
	CHECK(noted(IMPORT_NOT_CARRIED, "kdump_post", "refuses it"));
	CHECK(noted(IMPORT_NOT_CARRIED, "force_rebuild", "kdump-file rebuild"));
	CHECK(noted(IMPORT_NOT_CARRIED, "force_no_rebuild", "kdump-file rebuild"));
	CHECK(noted(IMPORT_NOT_CARRIED, "dracut_args", "own dracut module"));
	CHECK(noted(IMPORT_NOT_CARRIED, "fence_kdump_args", "fencing"));
	CHECK(noted(IMPORT_NOT_CARRIED, "fence_kdump_nodes", "fencing"));
	CHECK(noted(IMPORT_NO_NEED, "auto_reset_crashkernel (no)", "never changes"));
	CHECK(noted(IMPORT_NOT_CARRIED, "frobnicate", "not a kdump.conf directive"));
	CHECK(line("# carried over with a difference: nfs: dumps go to a directory per machine, HOSTNAME-MID12, in the export, which the capture mounts with NFS version 4 (nfs_version = 3 for a server without it)"));
	CHECK(run(IMPORT_KDUMP_CONF, "ssh user@host\nvirtiofs myfs\n") == -EINVAL);
	CHECK(run(IMPORT_KDUMP_CONF, "virtiofs myfs\n") == 0);
	CHECK(noted(IMPORT_NOT_CARRIED, "virtiofs", "not supported"));
}

static void test_kdump_conf_errors(void)
{
	CHECK(run(IMPORT_KDUMP_CONF, "path /a\next4 /dev/vdb\nraw /dev/vdc\n") == -EINVAL);
	CHECK(err.line == 3 && strstr(err.msg, "second dump target"));
	CHECK(strstr(err.msg, "line 2"));
	CHECK(run(IMPORT_KDUMP_CONF, "path /a\npath /b\n") == -EINVAL);
	CHECK(err.line == 2 && strstr(err.msg, "repeats path of line 1"));
	CHECK(run(IMPORT_KDUMP_CONF, "default reboot\nfailure_action halt\n") == -EINVAL);
	CHECK(run(IMPORT_KDUMP_CONF, "path\n") == -EINVAL);
	CHECK(strstr(err.msg, "without a value"));
	CHECK(run(IMPORT_KDUMP_CONF, "PATH=/x\n") == -EINVAL);
	CHECK(strstr(err.msg, "expected 'directive value'"));
	CHECK(run(IMPORT_KDUMP_CONF, "path /a\x1b[2J\n") == -EINVAL);
}

static void test_sysconfig(void)
{
	CHECK(run(IMPORT_SYSCONFIG,
		  "KDUMP_KERNELVER=6.1.0-9-amd64\n"
		  "KDUMP_COMMANDLINE=\"ro root=/dev/sda\"\n"
		  "KEXEC_ARGS=\"-s --elf64-core-headers\"\n"
		  "KDUMP_IMG=bzImage\n"
		  "KDUMP_IMG_EXT=.old\n"
		  "FADUMP_COMMANDLINE_APPEND=\"nr_cpus=16\"\n"
		  "KDUMP_STDLOGLVL=3\n"
		  "OTHER=1\n") == 0);
	CHECK(line("kernel = /boot/vmlinuz-6.1.0-9-amd64"));
	CHECK(noted(IMPORT_NOT_CARRIED, "KDUMP_COMMANDLINE", "builds the capture command line"));
	CHECK(noted(IMPORT_NOT_CARRIED, "KEXEC_ARGS (--elf64-core-headers)", "kexec(8)"));
	CHECK(noted(IMPORT_NOT_CARRIED, "KDUMP_IMG", "whole path"));
	CHECK(noted(IMPORT_NOT_CARRIED, "KDUMP_IMG_EXT", "whole path"));
	CHECK(noted(IMPORT_NOT_CARRIED, "FADUMP_COMMANDLINE_APPEND", "powerpc"));
	CHECK(noted(IMPORT_NOT_CARRIED, "KDUMP_STDLOGLVL", "journal"));
	CHECK(noted(IMPORT_NOT_CARRIED, "OTHER", "sysconfig setting"));
	/* No kdump-config there: nothing implicit. */
	CHECK(!key_set("panic_on"));
}

/* The keys of the hooks, the packing and makedumpfile render and parse. */
static void test_render_checks(void)
{
	CHECK(run(IMPORT_KDUMP_CONF,
		  "kdump_pre /a\nkdump_post /b\nextra_bins /c\nextra_modules m\ncore_collector makedumpfile -e\n") == 0);
	CHECK(line("pre_hook = /a") && line("post_hook = /b"));
	CHECK(line("extra_binaries = /c") && line("extra_modules = m"));
	CHECK(line("makedumpfile_args = -e"));
	CHECK(line("compression = none"));
	/* Every line is a key, a comment or blank. */
	for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		CHECK(*p == '#' || *p == '\n' || strstr(p, " = ") < strchr(p, '\n'));
}

static void test_validate(void)
{
	static const char pending[] =
		"path = /var/crash\nmakedumpfile_args = -e\npanic_on = oops\n"
		"pre_hook = /a\npost_hook = /b\nextra_binaries = /c\n"
		"extra_modules = m\n";
	static const char unknown[] = "panic_on = oops\npanic_onn = oops\n";
	static const char bad[] = "panic_on = oops\nkeep = many\n";
	struct diag e = DIAG_INIT;

	CHECK(import_validate(pending, strlen(pending), &e) == 0);
	CHECK(import_validate(unknown, strlen(unknown), &e) == -ENOKEY);
	CHECK(e.line == 2 && strcmp(e.key, "panic_onn") == 0);
	/* The first failure wins: a new one needs a clear diag. */
	diag_clear(&e);
	CHECK(import_validate(bad, strlen(bad), &e) == -EINVAL);
	CHECK(e.line == 2 && strcmp(e.key, "keep") == 0);
}

static void test_detect(void)
{
	CHECK(import_detect("/etc/kdump.conf", "", 0) == IMPORT_KDUMP_CONF);
	CHECK(import_detect("/etc/default/kdump-tools", "", 0) == IMPORT_KDUMP_TOOLS);
	CHECK(import_detect("/etc/sysconfig/kdump", "", 0) == IMPORT_SYSCONFIG);
	CHECK(import_detect("/tmp/a", fedora_conf, strlen(fedora_conf)) == IMPORT_KDUMP_CONF);
	CHECK(import_detect("/tmp/b", fedora_sysconfig, strlen(fedora_sysconfig)) == IMPORT_SYSCONFIG);
	CHECK(import_detect("/tmp/c", "# x\nUSE_KDUMP=1\n", 16) == IMPORT_KDUMP_TOOLS);
	CHECK(import_detect("/tmp/d", "# only a comment\n", 17) == IMPORT_UNKNOWN);
	CHECK(import_detect("/tmp/e", "path /x\nUSE_KDUMP=1\n", 20) == IMPORT_UNKNOWN);
	CHECK(import_detect("/tmp/f", "hello world\n", 12) == IMPORT_UNKNOWN);
}

int main(void)
{
	test_kdump_tools_defaults();
	test_kdump_tools_keys();
	test_kdump_tools_not_carried();
	test_makedumpfile_args();
	test_fixture_repeated_option();
	test_fixture_makedumpfile_args();
	test_fixture_shipped();
	test_fixture_hooks();
	test_fixture_dropped();
	test_fixture_remote();
	test_summary();
	test_write();
	test_cmdline_append();
	test_sysctl();
	test_shell_errors();
	test_kdump_utils_defaults();
	test_kdump_conf();
	test_kdump_conf_errors();
	test_sysconfig();
	test_render_checks();
	test_validate();
	test_detect();
	import_free(&im);
	free(out);
	return tests_done();
}
