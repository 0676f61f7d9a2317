// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf.h"
#include "tests.h"
#include "util.h"

static int parse(const char *text, struct kdump_conf *c, struct diag *e)
{
	memset(e, 0, sizeof(*e));
	conf_init(c);
	return conf_parse_buffer(c, text, strlen(text), e);
}

static struct diag e_last = DIAG_INIT;

/* A rejected text: the error, its line and key, and c left untouched. */
static void reject(const char *text, int err, unsigned int line,
		   const char *key)
{
	struct kdump_conf c;
	struct diag e = DIAG_INIT;
	int r = parse(text, &c, &e);

	CHECK(r == err);
	CHECK(e.line == line);
	CHECK(strcmp(e.key, key) == 0);
	CHECK(e.msg[0] != '\0');
	e_last = e;
	CHECK(c.dump_level == 31 && strcmp(c.path, "/var/crash") == 0);
	if (r != err || e.line != line || strcmp(e.key, key) != 0)
		fprintf(stderr, "  for %s: r=%d line=%u key=%s msg=%s\n", text,
			r, e.line, e.key, e.msg);
}

static void test_defaults(void)
{
	struct kdump_conf c;
	struct diag e = DIAG_INIT;

	CHECK(parse("", &c, &e) == 0);
	CHECK(strcmp(c.path, "/var/crash") == 0);
	CHECK(c.target[0] == '\0' && c.raw[0] == '\0');
	CHECK(c.dump_level == 31);
	CHECK(c.compression == COMPRESS_LZO);
	CHECK(c.failure_action == ACTION_REBOOT);
	CHECK(c.final_action == ACTION_REBOOT);
	CHECK(c.keep == 0 && c.min_free_mb == 0 && c.target_timeout == 60);
	CHECK(c.capture_timeout == 0);
}

static void test_all_keys(void)
{
	struct kdump_conf c;
	struct diag e = DIAG_INIT;
	const char *text =
		"# comment\n"
		"\n"
		"  path = /srv/dumps  \n"
		"target=LABEL=dumps\n"
		"dump_level = 0\n"
		"compression = zlib\n"
		"cmdline_append = console=ttyS0 loglevel=7\n"
		"cmdline_remove = quiet splash\n"
		"kernel = /boot/vmlinuz-x\n"
		"initramfs = /boot/initrd-x\n"
		"failure_action = shell\n"
		"final_action = poweroff\n"
		"keep = 3\n"
		"min_free_mb = 512\n"
		"capture_timeout = 900\n"
		"\ttarget_timeout\t=\t5\r\n";

	CHECK(parse(text, &c, &e) == 0);
	CHECK(strcmp(c.path, "/srv/dumps") == 0);
	CHECK(strcmp(c.target, "LABEL=dumps") == 0);
	CHECK(c.dump_level == 0);
	CHECK(c.compression == COMPRESS_ZLIB);
	CHECK(strcmp(c.cmdline_append, "console=ttyS0 loglevel=7") == 0);
	CHECK(strcmp(c.cmdline_remove, "quiet splash") == 0);
	CHECK(strcmp(c.kernel, "/boot/vmlinuz-x") == 0);
	CHECK(strcmp(c.initramfs, "/boot/initrd-x") == 0);
	CHECK(c.failure_action == ACTION_SHELL);
	CHECK(c.final_action == ACTION_POWEROFF);
	CHECK(c.keep == 3 && c.min_free_mb == 512 && c.target_timeout == 5);
	CHECK(c.capture_timeout == 900);
}

static void test_rejections(void)
{
	reject("bogus = 1\n", -ENOKEY, 1, "bogus");
	reject("path = /a\npath = /b\n", -EEXIST, 2, "path");
	reject("\n\njust words\n", -EINVAL, 3, "");
	reject("path = relative\n", -EINVAL, 1, "path");
	reject("path = /a/../b\n", -EINVAL, 1, "path");
	reject("path = /a//b\n", -EINVAL, 1, "path");
	reject("path = /a/\n", -EINVAL, 1, "path");
	reject("path = /a/./b\n", -EINVAL, 1, "path");
	reject("target = /etc/passwd\n", -EINVAL, 1, "target");
	reject("target = UUID=\n", -EINVAL, 1, "target");
	reject("target = sda1\n", -EINVAL, 1, "target");
	reject("raw = dumps\n", -EINVAL, 1, "raw");
	reject("target = LABEL=a\nraw = /dev/vdb\n", -EINVAL, 2, "raw");
	reject("dump_level = 32\n", -ERANGE, 1, "dump_level");
	reject("dump_level = -1\n", -EINVAL, 1, "dump_level");
	reject("dump_level = 3x\n", -EINVAL, 1, "dump_level");
	reject("dump_level = \n", -EINVAL, 1, "dump_level");
	reject("dump_level = 99999999999999999999999\n", -ERANGE, 1,
	       "dump_level");
	reject("compression = zstd\n", -EINVAL, 1, "compression");
	reject("failure_action = explode\n", -EINVAL, 1, "failure_action");
	reject("final_action = shell\n", -EINVAL, 1, "final_action");
	reject("keep = 1001\n", -ERANGE, 1, "keep");
	reject("min_free_mb = 18446744073709551616\n", -ERANGE, 1,
	       "min_free_mb");
	reject("target_timeout = 0\n", -ERANGE, 1, "target_timeout");
	reject("target_timeout = 3601\n", -ERANGE, 1, "target_timeout");
	reject("capture_timeout = 86401\n", -ERANGE, 1, "capture_timeout");
	reject("capture_timeout = -5\n", -EINVAL, 1, "capture_timeout");
	reject("capture_timeout = 1h\n", -EINVAL, 1, "capture_timeout");
	reject("cmdline_append = init=\"/bin/sh\"\n", -EINVAL, 1,
	       "cmdline_append");
	reject("cmdline_append = a\\b\n", -EINVAL, 1, "cmdline_append");
	reject("cmdline_remove = 'quiet'\n", -EINVAL, 1, "cmdline_remove");
	reject("kernel = vmlinuz\n", -EINVAL, 1, "kernel");
	reject("initramfs = ../initrd\n", -EINVAL, 1, "initramfs");
	/* Not text: invalid UTF-8, overlongs, surrogates, control bytes. */
	reject("path = /caf\xc3\n", -EILSEQ, 1, "");
	reject("path = /\xc0\xaf\n", -EILSEQ, 1, "");
	reject("path = /\xed\xa0\x80\n", -EILSEQ, 1, "");
	reject("path = /\xff\n", -EILSEQ, 1, "");
	reject("path = /a\x1b[31m\n", -EINVAL, 1, "");
	reject("keep = 1\n\x7f\n", -EINVAL, 2, "");
}

static void test_unknown_key_suggestion(void)
{
	reject("dump_lvel = 31\n", -ENOKEY, 1, "dump_lvel");
	CHECK(strstr(e_last.msg, "did you mean 'dump_level'?") != NULL);
	reject("keep_count = 3\n", -ENOKEY, 1, "keep_count");
	CHECK(strstr(e_last.msg, "did you mean") == NULL);
	CHECK(strstr(e_last.msg, "kdump-file.conf(5)") != NULL);
	reject("Path = /x\n", -ENOKEY, 1, "Path");
	CHECK(strstr(e_last.msg, "'path'") != NULL);
	reject("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa = 1\n", -ENOKEY, 1,
	       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
}

static void test_shell_metacharacters_are_refused(void)
{
	struct kdump_conf c;
	struct diag e = DIAG_INIT;

	/* Nothing goes through a shell, but such a value is never an intent. */
	reject("path = /var/crash;rm -rf $(x)`y`|z\n", -EINVAL, 1, "path");
	CHECK(strstr(e_last.msg, "';'") != NULL);
	reject("path = /var/crash dumps\n", -EINVAL, 1, "path");
	CHECK(strstr(e_last.msg, "byte 0x20") != NULL);
	reject("path = /dumps/\xc3\xa9t\xc3\xa9\n", -EINVAL, 1, "path");
	reject("kernel = /boot/$(reboot)\n", -EINVAL, 1, "kernel");
	reject("initramfs = /boot/a*b\n", -EINVAL, 1, "initramfs");
	reject("target = LABEL=a;b\n", -EINVAL, 1, "target");
	reject("target = UUID=12-$x\n", -EINVAL, 1, "target");
	reject("cmdline_append = quiet; reboot\n", -EINVAL, 1, "cmdline_append");
	reject("cmdline_append = a=`b`\n", -EINVAL, 1, "cmdline_append");
	reject("cmdline_remove = a|b\n", -EINVAL, 1, "cmdline_remove");
	reject("cmdline_append = caf\xc3\xa9\n", -EINVAL, 1, "cmdline_append");
	/* What real values use is accepted. */
	CHECK(parse("path = /srv/crash-dumps/host_1.example,v2@x:y+z\n", &c, &e) == 0);
	CHECK(parse("cmdline_append = console=ttyS0,115200n8 mem=[1G] a.b=c/d:e%f#g~h\n", &c, &e) == 0);
	CHECK(parse("target = LABEL=kdump-dumps_1\n", &c, &e) == 0);
	/* The refused character is named. */
	reject("cmdline_append = quiet; reboot\n", -EINVAL, 1, "cmdline_append");
	CHECK(strstr(e_last.msg, "';'") != NULL);
	reject("cmdline_append = a=\"b\"\n", -EINVAL, 1, "cmdline_append");
	CHECK(strstr(e_last.msg, "'\"'") != NULL);
	reject("cmdline_remove = caf\xc3\xa9\n", -EINVAL, 1, "cmdline_remove");
	CHECK(strstr(e_last.msg, "byte 0xc3") != NULL);
}

/* '#' after a blank ends the value, as the shipped file says. */
static void test_inline_comments(void)
{
	struct kdump_conf c;
	struct diag e = DIAG_INIT;

	CHECK(parse("path = /srv/dumps # on the big disk\nkeep = 3\t# three\n",
		    &c, &e) == 0);
	CHECK(strcmp(c.path, "/srv/dumps") == 0 && c.keep == 3);
	CHECK(parse("  # indented comment\ncmdline_append = a#b\n", &c, &e) == 0);
	CHECK(strcmp(c.cmdline_append, "a#b") == 0);
	CHECK(parse("target = # nothing\n", &c, &e) == 0);
	CHECK(c.target[0] == '\0');
	reject("path # = /x\n", -EINVAL, 1, "");
}

/* Raw devices by a stable identity, and what the capture may overwrite. */
static void test_raw_keys(void)
{
	struct kdump_conf c, back;
	struct diag e = DIAG_INIT;
	char buf[8192];

	CHECK(parse("raw = SERIAL=kdump-raw_1\nraw_overwrite = yes\n", &c, &e) == 0);
	CHECK(strcmp(c.raw, "SERIAL=kdump-raw_1") == 0);
	CHECK(c.raw_overwrite && !c.raw_force);
	CHECK(parse("raw = WWID=naa.5000c500a1b2c3d4\nraw_force = true\n", &c, &e) == 0);
	CHECK(c.raw_force && !c.raw_overwrite);
	CHECK(parse("raw = PARTUUID=6c9e0e9a-02\n", &c, &e) == 0);
	CHECK(parse("target = PARTUUID=0b8d9a3e-1f2a-4b7c-9d3e-5a6b7c8d9e0f\n", &c, &e) == 0);
	reject("raw = SERIAL=\n", -EINVAL, 1, "raw");
	reject("raw = SERIAL=a b\n", -EINVAL, 1, "raw");
	reject("raw = WWID=t10.ATA$x\n", -EINVAL, 1, "raw");
	reject("raw_overwrite = maybe\n", -EINVAL, 1, "raw_overwrite");
	CHECK(strstr(e_last.msg, "yes or no") != NULL);
	reject("raw_force = \n", -EINVAL, 1, "raw_force");
	/* What load writes for the capture reads back the same. */
	CHECK(parse("raw = SERIAL=x1\nraw_overwrite = yes\nraw_force = 1\n", &c, &e) == 0);
	CHECK(conf_write(&c, buf, sizeof(buf)) > 0);
	CHECK(conf_parse_buffer(&back, buf, strlen(buf), &e) == 0);
	CHECK(back.raw_overwrite && back.raw_force && strcmp(back.raw, "SERIAL=x1") == 0);
	/* The identity load found, carried to the capture as it is. */
	CHECK(parse("raw = PARTUUID=6c9e0e9a-02\n"
		    "raw_identity = PARTUUID=6c9e0e9a-02 size=1048576 disk=SERIAL=d1\n",
		    &c, &e) == 0);
	CHECK(strcmp(c.raw_identity, "PARTUUID=6c9e0e9a-02 size=1048576 disk=SERIAL=d1") == 0);
	CHECK(conf_write(&c, buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, "\nraw_identity = PARTUUID=6c9e0e9a-02 size=1048576 disk=SERIAL=d1\n") != NULL);
	CHECK(conf_parse_buffer(&back, buf, strlen(buf), &e) == 0);
	CHECK(strcmp(back.raw_identity, c.raw_identity) == 0);
	/* None: no line, as before. */
	CHECK(parse("raw = SERIAL=x1\n", &c, &e) == 0);
	CHECK(conf_write(&c, buf, sizeof(buf)) > 0 && !strstr(buf, "raw_identity"));
	reject("raw = SERIAL=a\nraw_identity = SERIAL=b size=512\n", -EINVAL, 2,
	       "raw_identity");
	reject("raw_identity = SERIAL=b\n", -EINVAL, 1, "raw_identity");
	reject("raw = SERIAL=a\nraw_identity = SERIAL=a size=0\n", -EINVAL, 2,
	       "raw_identity");
	reject("raw = SERIAL=a\nraw_identity = SERIAL=a size=1 size=2\n", -EINVAL,
	       2, "raw_identity");
	reject("raw = SERIAL=a\nraw_identity = SERIAL=a disk=PARTUUID=x\n", -EINVAL,
	       2, "raw_identity");
	reject("raw = SERIAL=a\nraw_identity = SERIAL=a what=1\n", -EINVAL, 2,
	       "raw_identity");
}

static void test_limits(void)
{
	struct kdump_conf c;
	struct diag e = DIAG_INIT;
	char *big = malloc(CONF_VALUE_MAX + 64);
	int r;

	strcpy(big, "path = /");
	memset(big + 8, 'a', CONF_VALUE_MAX);
	strcpy(big + 8 + CONF_VALUE_MAX, "\n");
	r = parse(big, &c, &e);
	CHECK(r == -E2BIG);
	CHECK(e.line == 1);
	free(big);

	CHECK(conf_parse_buffer(&c, "path = /a\0b\n", 12, &e) == -EINVAL);
}

static void test_file(void)
{
	char path[] = "/tmp/test-conf.XXXXXX";
	struct kdump_conf c;
	struct diag e = DIAG_INIT;
	int fd;

	CHECK(conf_parse_file(&c, "/nonexistent/kdump-file.conf", &e) == -ENOENT);
	CHECK(conf_parse_file(&c, "/tmp", &e) == -EINVAL);
	fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK(write(fd, "keep = 2\n", 9) == 9);
	close(fd);
	CHECK(conf_parse_file(&c, path, &e) == 0);
	CHECK(c.keep == 2);
	CHECK(chmod(path, 0664) == 0);
	diag_clear(&e);
	CHECK(conf_parse_file(&c, path, &e) == -EPERM);
	CHECK(strstr(e.msg, "chmod go-w") != NULL);
	CHECK(chmod(path, 0602) == 0);
	CHECK(conf_parse_file(&c, path, &e) == -EPERM);
	CHECK(chmod(path, 0644) == 0);
	CHECK(conf_parse_file(&c, path, &e) == 0);
	unlink(path);
}

static void test_roundtrip(void)
{
	struct kdump_conf a, b;
	struct diag e = DIAG_INIT;
	char buf[8192];

	CHECK(parse("path = /x\ntarget = UUID=1234\nkeep = 4\ncompression = none\nfinal_action = halt\ncapture_timeout = 77\n",
		    &a, &e) == 0);
	CHECK(conf_write(&a, buf, sizeof(buf)) > 0);
	CHECK(parse(buf, &b, &e) == 0);
	CHECK(memcmp(&a, &b, sizeof(a)) == 0);
	CHECK(conf_write(&a, buf, 10) == -ENOBUFS);
}

/* panic_on: any subset, commas and/or blanks, "none"; a bad word named. */
static void test_panic_on(void)
{
	struct kdump_conf c;
	struct diag e = DIAG_INIT;
	char buf[8192], words[128];
	struct kdump_conf back;

	CHECK(parse("", &c, &e) == 0 && c.panic_on == 0);
	CHECK(parse("panic_on =\n", &c, &e) == 0 && c.panic_on == 0);
	CHECK(parse("panic_on = none\n", &c, &e) == 0 && c.panic_on == 0);
	CHECK(parse("panic_on = oops\n", &c, &e) == 0 &&
	      c.panic_on == PANIC_ON_OOPS);
	CHECK(parse("panic_on = oops, hung_task, soft_lockup, hard_lockup, rcu_stall, warn\n",
		    &c, &e) == 0);
	CHECK(c.panic_on == (PANIC_ON_OOPS | PANIC_ON_HUNG_TASK |
			     PANIC_ON_SOFT_LOCKUP | PANIC_ON_HARD_LOCKUP |
			     PANIC_ON_RCU_STALL | PANIC_ON_WARN));
	CHECK(parse("panic_on = warn,oops\n", &c, &e) == 0 &&
	      c.panic_on == (PANIC_ON_OOPS | PANIC_ON_WARN));
	CHECK(parse("panic_on =\twarn  rcu_stall ,, oops,\n", &c, &e) == 0 &&
	      c.panic_on == (PANIC_ON_OOPS | PANIC_ON_WARN | PANIC_ON_RCU_STALL));
	CHECK(parse("panic_on = oops oops\n", &c, &e) == 0 &&
	      c.panic_on == PANIC_ON_OOPS);
	CHECK(parse("panic_on = hung_task # and nothing else\n", &c, &e) == 0 &&
	      c.panic_on == PANIC_ON_HUNG_TASK);

	reject("panic_on = oops, panic\n", -EINVAL, 1, "panic_on");
	CHECK(strstr(e_last.msg, "'panic'") != NULL);
	CHECK(strstr(e_last.msg, "oops, hung_task, soft_lockup, hard_lockup, rcu_stall, warn or none") != NULL);
	reject("keep = 1\npanic_on = OOPS\n", -EINVAL, 2, "panic_on");
	CHECK(strstr(e_last.msg, "'OOPS'") != NULL);
	reject("panic_on = oops;warn\n", -EINVAL, 1, "panic_on");
	CHECK(strstr(e_last.msg, "'oops;warn'") != NULL);
	reject("panic_on = none, oops\n", -EINVAL, 1, "panic_on");
	CHECK(strstr(e_last.msg, "'none'") != NULL);
	reject("panic_on = oops\npanic_on = warn\n", -EEXIST, 2, "panic_on");
	reject("panic_on = hung_tasks\n", -EINVAL, 1, "panic_on");
	reject("panic_on = ooops\n", -EINVAL, 1, "panic_on");
	/* A long word is cut, never split inside a UTF-8 sequence. */
	reject("panic_on = aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xc3\xa9\xc3\xa9\n",
	       -EINVAL, 1, "panic_on");
	CHECK(strstr(e_last.msg, "\xc3'") == NULL);

	/* Written back as it was read. */
	CHECK(parse("panic_on = warn hard_lockup\n", &c, &e) == 0);
	CHECK(conf_write(&c, buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, "panic_on = hard_lockup, warn\n") != NULL);
	CHECK(parse(buf, &back, &e) == 0 && back.panic_on == c.panic_on);
	CHECK(parse("", &c, &e) == 0);
	CHECK(conf_write(&c, buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, "panic_on = none\n") != NULL);

	CHECK(conf_panic_on_format(PANIC_ON_OOPS | PANIC_ON_WARN, words,
				   sizeof(words)) == 0);
	CHECK(strcmp(words, "oops, warn") == 0);
	CHECK(conf_panic_on_format(0, words, sizeof(words)) == 0);
	CHECK(strcmp(words, "none") == 0);
	CHECK(conf_panic_on_format(PANIC_ON_OOPS | PANIC_ON_WARN, words, 6) ==
	      -ENOBUFS);
	CHECK(strcmp(conf_panic_on_name(0), "oops") == 0);
	CHECK(strcmp(conf_panic_on_name(PANIC_ON_COUNT - 1), "warn") == 0);
	CHECK(conf_panic_on_name(PANIC_ON_COUNT) == NULL);
}

/* The blank-separated word lists the keys and makedumpfile_args use. */
static void test_word_in_list(void)
{
	CHECK(word_in_list("-e", "-D -e --num-threads 2"));
	CHECK(word_in_list("-D", "-D"));
	CHECK(word_in_list("--non-mmap", "  --non-mmap  "));
	CHECK(!word_in_list("-e", "-ee --e"));
	CHECK(!word_in_list("--num", "--num-threads 2"));
	CHECK(!word_in_list("", "a b"));
	CHECK(!word_in_list("a", ""));
}

/* makedumpfile_args: what is let through, normalised, and the command line. */
static void test_makedumpfile_args_accepted(void)
{
	static const struct {
		const char *text, *args;
	} ok[] = {
		{ "makedumpfile_args = --message-level 0\n", "--message-level 0" },
		{ "makedumpfile_args = --message-level 31\n", "--message-level 31" },
		{ "makedumpfile_args = --message-level=7\n", "--message-level 7" },
		{ "makedumpfile_args = -e\n", "-e" },
		{ "makedumpfile_args = --num-threads 1\n", "--num-threads 1" },
		{ "makedumpfile_args = --num-threads 64\n", "--num-threads 64" },
		{ "makedumpfile_args = --non-mmap\n", "--non-mmap" },
		{ "makedumpfile_args = --cyclic-buffer 1024\n", "--cyclic-buffer 1024" },
		{ "makedumpfile_args = --splitblock-size 2048\n", "--splitblock-size 2048" },
		{ "makedumpfile_args = -D\n", "-D" },
		{ "makedumpfile_args =  -D \t --num-threads   002  --non-mmap\n",
		  "-D --num-threads 2 --non-mmap" },
		{ "makedumpfile_args = \n", "" },
	};
	struct conf_makedumpfile_cmd cmd;
	struct kdump_conf c;
	struct diag e = DIAG_INIT;
	char line[2048];

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		int r = parse(ok[i].text, &c, &e);

		CHECK(r == 0);
		CHECK(strcmp(c.makedumpfile_args, ok[i].args) == 0);
		if (r != 0 || strcmp(c.makedumpfile_args, ok[i].args) != 0)
			fprintf(stderr, "  for %s: r=%d args='%s' msg=%s\n",
				ok[i].text, r, c.makedumpfile_args, e.msg);
	}
	CHECK(parse("", &c, &e) == 0 && c.makedumpfile_args[0] == '\0');

	/* The vmcore's command line: theirs after ours, -e with its work dir. */
	CHECK(parse("compression = zlib\ndump_level = 17\nmakedumpfile_args = -e --num-threads 2\n",
		    &c, &e) == 0);
	CHECK(conf_makedumpfile_cmd(&c, "/proc/vmcore", "/d/vmcore-incomplete",
				    "/d", &cmd) == 0);
	line[0] = '\0';
	for (char **a = cmd.argv; *a; a++)
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 "%s%s", a == cmd.argv ? "" : " ", *a);
	CHECK(strcmp(line, "makedumpfile -c -d 17 -e --num-threads 2 --work-dir /d /proc/vmcore /d/vmcore-incomplete") == 0);
	/* A raw target: flattened, to standard output. */
	CHECK(parse("raw = /dev/vdb\ncompression = none\nmakedumpfile_args = -D\n",
		    &c, &e) == 0);
	CHECK(conf_makedumpfile_cmd(&c, "/proc/vmcore", NULL, NULL, &cmd) == 0);
	CHECK(strcmp(cmd.argv[0], "makedumpfile") == 0 &&
	      strcmp(cmd.argv[1], "-F") == 0 && strcmp(cmd.argv[2], "-d") == 0 &&
	      strcmp(cmd.argv[3], "31") == 0 && strcmp(cmd.argv[4], "-D") == 0 &&
	      strcmp(cmd.argv[5], "/proc/vmcore") == 0 && cmd.argv[6] == NULL);
	CHECK(conf_makedumpfile_has(&c, "-D") && !conf_makedumpfile_has(&c, "-e"));
}

static void test_makedumpfile_args_refused(void)
{
	static const char *const refused[] = {
		"-F", "-E", "-c", "-l", "-p", "-z", "--zstd", "-d", "--split",
		"--reassemble", "--dump-dmesg", "-x", "-i", "-R", "--mem-usage",
		"-g", "--dry-run", "--config", "--eppic", "--work-dir",
	};
	char text[256];

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		snprintf(text, sizeof(text), "makedumpfile_args = -D %s x\n",
			 refused[i]);
		reject(text, -EINVAL, 1, "makedumpfile_args");
		CHECK(strstr(e_last.msg, "is refused: ") != NULL);
	}
	/* The reasons, and the fix, for a few. */
	reject("makedumpfile_args = -F\n", -EINVAL, 1, "makedumpfile_args");
	CHECK(strcmp(e_last.msg, "'-F' is refused: kdump-file chooses the flattened format itself, for a raw target (remove it)") == 0);
	reject("makedumpfile_args = -c\n", -EINVAL, 1, "makedumpfile_args");
	CHECK(strcmp(e_last.msg, "'-c' is refused: the compression is set by kdump-file (remove it and use compression = lzo, zlib or none)") == 0);
	reject("makedumpfile_args = -d 1\n", -EINVAL, 1, "makedumpfile_args");
	CHECK(strstr(e_last.msg, "use dump_level = ") != NULL);
	reject("makedumpfile_args = -E\n", -EINVAL, 1, "makedumpfile_args");
	CHECK(strstr(e_last.msg, "kdump-compressed format") != NULL);
	reject("makedumpfile_args = --split\n", -EINVAL, 1, "makedumpfile_args");
	CHECK(strstr(e_last.msg, "one dump file per crash") != NULL);
	reject("makedumpfile_args = --config /etc/makedumpfile.conf\n", -EINVAL,
	       1, "makedumpfile_args");
	CHECK(strstr(e_last.msg, "-x VMLINUX") != NULL);
	reject("makedumpfile_args = --config=relative.conf\n", -EINVAL, 1,
	       "makedumpfile_args");
	/* Unknown options, and words that are no option. */
	reject("makedumpfile_args = --frobnicate\n", -EINVAL, 1,
	       "makedumpfile_args");
	CHECK(strncmp(e_last.msg, "'--frobnicate' is not known to kdump-file: remove it", 52) == 0);
	reject("makedumpfile_args = -f\n", -EINVAL, 1, "makedumpfile_args");
	reject("makedumpfile_args = /proc/vmcore\n", -EINVAL, 1,
	       "makedumpfile_args");
	reject("makedumpfile_args = -eD\n", -EINVAL, 1, "makedumpfile_args");
	reject("makedumpfile_args = --message-level\n", -EINVAL, 1,
	       "makedumpfile_args");
	/* Shell metacharacters and quotes, as in cmdline_append. */
	reject("makedumpfile_args = -D; reboot\n", -EINVAL, 1, "makedumpfile_args");
	CHECK(strstr(e_last.msg, "';'") != NULL);
	reject("makedumpfile_args = --num-threads $(nproc)\n", -EINVAL, 1,
	       "makedumpfile_args");
	reject("makedumpfile_args = \"-D\"\n", -EINVAL, 1, "makedumpfile_args");
	reject("makedumpfile_args = -D `x`\n", -EINVAL, 1, "makedumpfile_args");
}

static void test_makedumpfile_args_values(void)
{
	reject("makedumpfile_args = --message-level 32\n", -ERANGE, 1,
	       "makedumpfile_args");
	CHECK(strcmp(e_last.msg, "'--message-level' needs a number from 0 to 31, not '32'") == 0);
	reject("makedumpfile_args = --num-threads 0\n", -ERANGE, 1,
	       "makedumpfile_args");
	CHECK(strstr(e_last.msg, "from 1 to 64, not '0'") != NULL);
	reject("makedumpfile_args = --num-threads 65\n", -ERANGE, 1,
	       "makedumpfile_args");
	reject("makedumpfile_args = --num-threads -e\n", -ERANGE, 1,
	       "makedumpfile_args");
	reject("makedumpfile_args = --num-threads\n", -EINVAL, 1,
	       "makedumpfile_args");
	CHECK(strstr(e_last.msg, "after it") != NULL);
	reject("makedumpfile_args = --cyclic-buffer 0\n", -ERANGE, 1,
	       "makedumpfile_args");
	reject("makedumpfile_args = --cyclic-buffer 1048577\n", -ERANGE, 1,
	       "makedumpfile_args");
	reject("makedumpfile_args = --splitblock-size 1x\n", -ERANGE, 1,
	       "makedumpfile_args");
	reject("makedumpfile_args = --non-mmap=1\n", -EINVAL, 1,
	       "makedumpfile_args");
	reject("makedumpfile_args = -D -D\n", -EEXIST, 1, "makedumpfile_args");
	CHECK(strstr(e_last.msg, "given twice") != NULL);
	/* -e: free pages excluded, and a directory for its work files. */
	reject("dump_level = 1\nmakedumpfile_args = -e\n", -EINVAL, 2,
	       "makedumpfile_args");
	CHECK(strstr(e_last.msg, "add 16 to dump_level") != NULL);
	reject("makedumpfile_args = -e\nraw = /dev/vdb\n", -EINVAL, 1,
	       "makedumpfile_args");
	CHECK(strstr(e_last.msg, "'raw' (line 2)") != NULL);
}

/* dump_level = dmesg: the kernel log alone, written back as it was read. */
static void test_dump_level_dmesg(void)
{
	struct kdump_conf a, b;
	struct diag e = DIAG_INIT;
	char buf[8192];

	CHECK(parse("dump_level = 7\n", &a, &e) == 0 && !a.dmesg_only &&
	      a.dump_level == 7);
	CHECK(parse("dump_level = dmesg\nkeep = 3\n", &a, &e) == 0);
	CHECK(a.dmesg_only && a.keep == 3);
	CHECK(conf_write(&a, buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, "\ndump_level = dmesg\n") != NULL);
	CHECK(parse(buf, &b, &e) == 0);
	CHECK(memcmp(&a, &b, sizeof(a)) == 0);
	CHECK(parse("dump_level = 31\n", &a, &e) == 0 && !a.dmesg_only);
	CHECK(conf_write(&a, buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, "\ndump_level = 31\n") != NULL);
	reject("dump_level = DMESG\n", -EINVAL, 1, "dump_level");
	CHECK(strstr(e_last.msg, "or dmesg") != NULL);
	reject("dump_level = dmesg x\n", -EINVAL, 1, "dump_level");
	reject("raw = /dev/vdb\ndump_level = dmesg\n", -EINVAL, 2, "dump_level");
	CHECK(strstr(e_last.msg, "'raw' (line 1)") != NULL);
	/* -e does not apply, and is not refused, with no vmcore. */
	CHECK(parse("dump_level = dmesg\nmakedumpfile_args = -e\n", &a, &e) == 0);
	/* makedumpfile_args round-trips too. */
	CHECK(parse("makedumpfile_args = --num-threads=4 -D\n", &a, &e) == 0);
	CHECK(conf_write(&a, buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, "\nmakedumpfile_args = --num-threads 4 -D\n") != NULL);
	CHECK(parse(buf, &b, &e) == 0);
	CHECK(memcmp(&a, &b, sizeof(a)) == 0);
}

static void test_hook_keys(void)
{
	struct kdump_conf c, b;
	struct diag e = DIAG_INIT;
	char buf[16384], w[64];
	size_t pos = 0;

	/* Defaults: no hooks, 30 s, continue, nothing extra. */
	CHECK(parse("", &c, &e) == 0);
	CHECK(c.pre_hook[0] == '\0' && c.post_hook[0] == '\0');
	CHECK(c.hook_timeout == 30 && !c.hook_stop);
	CHECK(c.extra_modules[0] == '\0' && c.extra_binaries[0] == '\0');

	/* Lists: blanks and tabs between words, normalised to one space. */
	CHECK(parse("pre_hook =  /usr/local/sbin/a \t /etc/kdump-file/b.sh\n"
		    "post_hook = /x\nhook_timeout = 600\nhook_failure = stop\n"
		    "extra_modules = dummy  loop\nextra_binaries = /usr/bin/ls /usr/sbin/ip\n",
		    &c, &e) == 0);
	CHECK(strcmp(c.pre_hook, "/usr/local/sbin/a /etc/kdump-file/b.sh") == 0);
	CHECK(strcmp(c.post_hook, "/x") == 0);
	CHECK(c.hook_timeout == 600 && c.hook_stop);
	CHECK(strcmp(c.extra_modules, "dummy loop") == 0);
	CHECK(strcmp(c.extra_binaries, "/usr/bin/ls /usr/sbin/ip") == 0);
	CHECK(conf_list_next(c.pre_hook, &pos, w, sizeof(w)) &&
	      strcmp(w, "/usr/local/sbin/a") == 0);
	CHECK(conf_list_next(c.pre_hook, &pos, w, sizeof(w)) &&
	      strcmp(w, "/etc/kdump-file/b.sh") == 0);
	CHECK(!conf_list_next(c.pre_hook, &pos, w, sizeof(w)));
	pos = 0;
	CHECK(!conf_list_next("", &pos, w, sizeof(w)));
	pos = 0;
	CHECK(!conf_list_next("/a/long/word", &pos, w, 4));
	CHECK(parse("hook_timeout = 1\nhook_failure = continue\npre_hook =\n",
		    &c, &e) == 0);
	CHECK(c.hook_timeout == 1 && !c.hook_stop && c.pre_hook[0] == '\0');

	/* Round trip through what the capture reads. */
	CHECK(parse("pre_hook = /a /b\npost_hook = /c\nhook_timeout = 7\n"
		    "hook_failure = stop\nextra_modules = dummy\n"
		    "extra_binaries = /usr/bin/ls\n", &c, &e) == 0);
	CHECK(conf_write(&c, buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, "pre_hook = /a /b\n") != NULL);
	CHECK(strstr(buf, "hook_failure = stop\n") != NULL);
	CHECK(parse(buf, &b, &e) == 0);
	CHECK(memcmp(&c, &b, sizeof(c)) == 0);

	/* Relative paths, shell, quoting: the bad word named. */
	reject("pre_hook = /ok bin/hook\n", -EINVAL, 1, "pre_hook");
	CHECK(strcmp(e_last.msg, "'bin/hook' is not an absolute path") == 0);
	reject("post_hook = /ok;reboot\n", -EINVAL, 1, "post_hook");
	CHECK(strcmp(e_last.msg, "'/ok;reboot' contains ';': paths may use letters, digits and / . _ - + , @ : only (no quoting, no shell)") == 0);
	reject("post_hook = \"/a b\"\n", -EINVAL, 1, "post_hook");
	CHECK(strstr(e_last.msg, "'\"/a' contains '\"'") != NULL);
	reject("pre_hook = $(reboot)\n", -EINVAL, 1, "pre_hook");
	reject("pre_hook = /a/../b\n", -EINVAL, 1, "pre_hook");
	CHECK(strcmp(e_last.msg, "'/a/../b' is not a clean absolute path") == 0);
	reject("extra_binaries = ls\n", -EINVAL, 1, "extra_binaries");
	reject("extra_binaries = /usr/bin/ls /usr/bin/*\n", -EINVAL, 1,
	       "extra_binaries");
	CHECK(strstr(e_last.msg, "'/usr/bin/*' contains '*'") != NULL);
	reject("pre_hook = /a /b /c /d /e /f /g /h /i /j /k /l /m /n /o /p /q\n",
	       -E2BIG, 1, "pre_hook");
	CHECK(strcmp(e_last.msg, "more than 16 entries") == 0);

	/* Module names: no paths, no options. */
	reject("extra_modules = dummy /lib/x.ko\n", -EINVAL, 1, "extra_modules");
	CHECK(strcmp(e_last.msg, "'/lib/x.ko' contains '/': module names use letters, digits, _ and - only") == 0);
	reject("extra_modules = loop max_loop=8\n", -EINVAL, 1, "extra_modules");
	reject("extra_modules = aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
	       -EINVAL, 1, "extra_modules");

	/* hook_timeout: 1 to 600 seconds. */
	reject("hook_timeout = 0\n", -ERANGE, 1, "hook_timeout");
	CHECK(strcmp(e_last.msg, "'0' is not a number of seconds from 1 to 600") == 0);
	reject("hook_timeout = 601\n", -ERANGE, 1, "hook_timeout");
	reject("hook_timeout = -1\n", -EINVAL, 1, "hook_timeout");
	reject("hook_timeout = 5s\n", -EINVAL, 1, "hook_timeout");
	reject("hook_timeout = 99999999999999999999999\n", -ERANGE, 1,
	       "hook_timeout");

	/* hook_failure: continue or stop. */
	reject("hook_failure = abort\n", -EINVAL, 1, "hook_failure");
	CHECK(strcmp(e_last.msg, "'abort' is not continue or stop") == 0);
	reject("hook_failure = Stop\n", -EINVAL, 1, "hook_failure");

	/* Hooks need a dump directory; a user's initramfs gets nothing. */
	reject("raw = /dev/vdb\npost_hook = /a\n", -EINVAL, 2, "post_hook");
	CHECK(strcmp(e_last.msg, "hooks need a dump directory and 'raw' (line 1) has none: remove one of them") == 0);
	CHECK(parse("raw = /dev/vdb\nextra_modules = dummy\n", &c, &e) == 0);
	reject("extra_binaries = /usr/bin/ls\ninitramfs = /boot/mine.img\n",
	       -EINVAL, 1, "extra_binaries");
	CHECK(strstr(e_last.msg, "'initramfs' (line 2)") != NULL);
	reject("pre_hook = /a\npre_hook = /b\n", -EEXIST, 2, "pre_hook");
}

static void test_net_targets(void)
{
	struct kdump_conf a, b;
	struct diag e = DIAG_INIT;
	char buf[16384], kh[256];

	CHECK(parse("target = ssh://kdump@collector.example:2222/srv/dumps\n",
		    &a, &e) == 0);
	CHECK(a.net == CONF_NET_SSH && strcmp(a.net_user, "kdump") == 0);
	CHECK(strcmp(a.net_host, "collector.example") == 0 && a.net_port == 2222);
	CHECK(strcmp(a.net_path, "/srv/dumps") == 0);
	CHECK(strcmp(a.target, "ssh://kdump@collector.example:2222/srv/dumps") == 0);
	CHECK(strcmp(a.ssh_key, CONF_SSH_KEY_DEFAULT) == 0);
	CHECK(a.net_timeout == CONF_NET_TIMEOUT_DEFAULT && !a.fallback[0]);
	CHECK(conf_known_hosts(&a, kh, sizeof(kh)) == 0 &&
	      strcmp(kh, "/etc/kdump-file/ssh/known_hosts") == 0);
	CHECK(strcmp(conf_net_to_string(a.net), "ssh") == 0);
	CHECK(parse("target = ssh://root@10.0.1.1/d\nfallback = /var/crash\n"
		    "net_timeout = 30\nssh_key = /etc/k/key\n", &a, &e) == 0);
	CHECK(a.net_port == 22 && strcmp(a.fallback, "/var/crash") == 0);
	CHECK(a.net_timeout == 30);
	CHECK(conf_write(&a, buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, "path = ") == NULL);
	CHECK(strstr(buf, "\nssh_key = /etc/k/key\n") != NULL);
	CHECK(parse(buf, &b, &e) == 0);
	CHECK(memcmp(&a, &b, sizeof(a)) == 0);

	CHECK(parse("target = nfs://nas/export/dumps\nnfs_version = 3\n", &a,
		    &e) == 0);
	CHECK(a.net == CONF_NET_NFS && a.nfs_version == 3 && a.net_port == 0);
	CHECK(strcmp(a.net_host, "nas") == 0 && !a.net_user[0]);
	CHECK(strcmp(a.net_path, "/export/dumps") == 0);
	CHECK(conf_write(&a, buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, "ssh_key") == NULL);
	CHECK(parse(buf, &b, &e) == 0);
	CHECK(memcmp(&a, &b, sizeof(a)) == 0);
	CHECK(parse("target = nfs://nas/e\n", &a, &e) == 0 && a.nfs_version == 4);
	/* A local target writes no network key, so it parses back. */
	CHECK(parse("path = /var/dumps\n", &a, &e) == 0);
	CHECK(conf_write(&a, buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, "net_timeout") == NULL && strstr(buf, "fallback") == NULL);

	reject("target = ssh://collector/srv\n", -EINVAL, 1, "target");
	CHECK(strstr(e_last.msg, "no user") != NULL);
	reject("target = nfs://u@nas/e\n", -EINVAL, 1, "target");
	reject("target = nfs://nas:2049/e\n", -EINVAL, 1, "target");
	reject("target = ssh://u@h:0/d\n", -EINVAL, 1, "target");
	reject("target = ssh://u@h:65536/d\n", -EINVAL, 1, "target");
	reject("target = ssh://u@h\n", -EINVAL, 1, "target");
	reject("target = ssh://u@/d\n", -EINVAL, 1, "target");
	reject("target = ssh://U;x@h/d\n", -EINVAL, 1, "target");
	reject("target = ssh://u@h$(id)/d\n", -EINVAL, 1, "target");
	/* IPv6 in brackets: the address alone kept, the port after it. */
	CHECK(parse("target = ssh://u@[fd00:1::1]:2222/d\n", &a, &e) == 0);
	CHECK(strcmp(a.net_host, "fd00:1::1") == 0 && a.net_port == 2222);
	CHECK(parse("target = nfs://[2001:db8::5]/export/d\n", &a, &e) == 0);
	CHECK(strcmp(a.net_host, "2001:db8::5") == 0 &&
	      strcmp(a.net_path, "/export/d") == 0);
	CHECK(conf_write(&a, buf, sizeof(buf)) > 0);
	CHECK(parse(buf, &b, &e) == 0);
	CHECK(memcmp(&a, &b, sizeof(a)) == 0);
	reject("target = ssh://u@[fd00::1/d\n", -EINVAL, 1, "target");
	CHECK(strstr(e_last.msg, "no closing bracket") != NULL);
	reject("target = ssh://u@[fd00::zz]/d\n", -EINVAL, 1, "target");
	CHECK(strstr(e_last.msg, "fd00::zz is not an IPv6 address") != NULL);
	reject("target = ssh://u@[fd00::1]x/d\n", -EINVAL, 1, "target");
	reject("target = nfs://[fd00::1]:2049/d\n", -EINVAL, 1, "target");
	reject("target = ssh://u@fd00::1/d\n", -EINVAL, 1, "target");
	reject("target = ssh://u@h/d/../e\n", -EINVAL, 1, "target");
	reject("target = ftp://h/d\n", -EINVAL, 1, "target");
	CHECK(strstr(e_last.msg, "nfs://HOST/EXPORT/PATH") != NULL);
	reject("path = /x\ntarget = nfs://h/e\n", -EINVAL, 1, "path");
	CHECK(strstr(e_last.msg, "(line 2)") != NULL);
	reject("target = nfs://h/e\nraw = /dev/vdb\n", -EINVAL, 2, "raw");
	reject("target = nfs://h/e\nssh_key = /k\n", -EINVAL, 2, "ssh_key");
	CHECK(strstr(e_last.msg, "ssh://") != NULL);
	reject("target = ssh://u@h/e\nnfs_version = 3\n", -EINVAL, 2,
	       "nfs_version");
	reject("fallback = /var/crash\n", -EINVAL, 1, "fallback");
	reject("net_timeout = 5\n", -EINVAL, 1, "net_timeout");
	reject("target = nfs://h/e\nnfs_version = 2\n", -EINVAL, 2,
	       "nfs_version");
	reject("target = nfs://h/e\nfallback = /\n", -EINVAL, 2, "fallback");
	reject("target = nfs://h/e\nnet_timeout = 0\n", -ERANGE, 2,
	       "net_timeout");
}

/* makedumpfile_threads: auto or 1..64, printed back, one request only. */
static void test_makedumpfile_threads(void)
{
	struct conf_makedumpfile_cmd cmd;
	struct kdump_conf c, back;
	struct diag e = DIAG_INIT;
	char buf[8192];

	CHECK(parse("", &c, &e) == 0);
	CHECK(c.makedumpfile_threads == CONF_THREADS_DEFAULT);
	CHECK(conf_threads_requested(&c) == CONF_THREADS_DEFAULT);
	CHECK(parse("makedumpfile_threads = auto\n", &c, &e) == 0);
	CHECK(c.makedumpfile_threads == CONF_THREADS_AUTO);
	CHECK(conf_write(&c, buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, "\nmakedumpfile_threads = auto\n") != NULL);
	CHECK(parse("makedumpfile_threads = 64\n", &c, &e) == 0);
	CHECK(c.makedumpfile_threads == 64 && conf_threads_requested(&c) == 64);
	CHECK(conf_write(&c, buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, "\nmakedumpfile_threads = 64\n") != NULL);
	CHECK(conf_parse_buffer(&back, buf, strlen(buf), &e) == 0);
	CHECK(back.makedumpfile_threads == 64);

	reject("makedumpfile_threads = 0\n", -ERANGE, 1, "makedumpfile_threads");
	CHECK(strstr(e_last.msg, "'0'") && strstr(e_last.msg, "auto"));
	reject("makedumpfile_threads = 65\n", -ERANGE, 1,
	       "makedumpfile_threads");
	reject("makedumpfile_threads = many\n", -EINVAL, 1,
	       "makedumpfile_threads");
	CHECK(strstr(e_last.msg, "'many'") && strstr(e_last.msg, "1 to 64"));
	reject("makedumpfile_threads = 2\nmakedumpfile_args = --num-threads 4\n",
	       -EINVAL, 2, "makedumpfile_args");
	CHECK(strstr(e_last.msg, "line 1") != NULL);

	/* --num-threads in makedumpfile_args is the request, written once. */
	CHECK(parse("makedumpfile_args = -D --num-threads 8\n", &c, &e) == 0);
	CHECK(conf_threads_requested(&c) == 8);
	CHECK(conf_write(&c, buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, "makedumpfile_threads") == NULL);
	CHECK(conf_parse_buffer(&back, buf, strlen(buf), &e) == 0);
	CHECK(conf_threads_requested(&back) == 8);

	/* Set to what the memory allows: the request leaves the words. */
	CHECK(conf_threads_set(&c, 0) == -ERANGE);
	CHECK(conf_threads_set(&c, 65) == -ERANGE);
	CHECK(conf_threads_requested(&c) == 8);
	CHECK(conf_threads_set(&c, 3) == 0);
	CHECK(strcmp(c.makedumpfile_args, "-D") == 0);
	CHECK(conf_threads_requested(&c) == 3);
	CHECK(conf_makedumpfile_cmd(&c, "/proc/vmcore", "/d/v", "/d", &cmd) == 0);
	CHECK(strcmp(cmd.argv[4], "-D") == 0 &&
	      strcmp(cmd.argv[5], "--num-threads") == 0 &&
	      strcmp(cmd.argv[6], "3") == 0 &&
	      strcmp(cmd.argv[7], "/proc/vmcore") == 0);
	/* One thread: no option, as before threads were chosen. */
	CHECK(conf_threads_set(&c, 1) == 0);
	CHECK(conf_makedumpfile_cmd(&c, "/proc/vmcore", "/d/v", "/d", &cmd) == 0);
	CHECK(strcmp(cmd.argv[5], "/proc/vmcore") == 0 && cmd.argv[7] == NULL);
	/* Asked for in makedumpfile_args and not set: passed once, as written. */
	CHECK(parse("makedumpfile_args = --num-threads 2\n", &c, &e) == 0);
	CHECK(conf_makedumpfile_cmd(&c, "/proc/vmcore", "/d/v", "/d", &cmd) == 0);
	CHECK(strcmp(cmd.argv[4], "--num-threads") == 0 &&
	      strcmp(cmd.argv[5], "2") == 0 &&
	      strcmp(cmd.argv[6], "/proc/vmcore") == 0);
}

int main(void)
{
	test_defaults();
	test_all_keys();
	test_rejections();
	test_shell_metacharacters_are_refused();
	test_unknown_key_suggestion();
	test_limits();
	test_inline_comments();
	test_raw_keys();
	test_file();
	test_roundtrip();
	test_panic_on();
	test_word_in_list();
	test_makedumpfile_args_accepted();
	test_makedumpfile_args_refused();
	test_makedumpfile_args_values();
	test_dump_level_dmesg();
	test_hook_keys();
	test_net_targets();
	test_makedumpfile_threads();
	return tests_done();
}
