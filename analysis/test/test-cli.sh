#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Command-line tests of kdump-file-analyze on generated cores, with stand-ins
# for crash(8) and makedumpfile(8) (KDUMP_FILE_CRASH, KDUMP_FILE_MAKEDUMPFILE).
#
#   test-cli.sh ANALYZER GEN-CORE
set -u

analyze=$(realpath "$1")
gen=$(realpath "$2")
t=$(mktemp -d /tmp/test-cli.XXXXXX)
trap 'rm -rf "$t"' EXIT
# shellcheck source=test/lib/host-checks.sh
. "$(dirname "$0")/../../test/lib/host-checks.sh"

"$gen" "$t/core"
"$gen" "$t/core1" --cpus 1
"$gen" "$t/kdump" --kdump
head -c 6000 "$t/core" >"$t/trunc"
printf 'makedumpfile\0\0\0\0\0\0\0\1' >"$t/flat"
cat "$t/core" >"$t/flat-tail"
cp "$t/core" "$t/vmlinux-good"
printf 'Linux version 6.1.0-gen (x@y) (gcc) #1 SMP\n' >>"$t/vmlinux-good"
cp "$t/core" "$t/vmlinux-other"
printf 'Linux version 6.1.99 (x@y) (gcc) #1 SMP\n' >>"$t/vmlinux-other"

# usage
expect "no arguments" 2 "$analyze"
expect "unknown command" 2 "$analyze" frobnicate
expect "unknown option" 2 "$analyze" info "$t/core" --frob
expect "info without VMCORE" 2 "$analyze" info
expect "--help" 0 "$analyze" --help
has "--help names the commands" "$t/out" "report DIR"
expect "bad --crashkernel" 2 "$analyze" check "$t/core" --crashkernel 12
expect "bad --marker" 2 "$analyze" check "$t/core" --marker 100000:abc

# info
expect "info" 0 "$analyze" info "$t/core"
has "info: release" "$t/out" "release:     6.1.0-gen"
has "info: crash time" "$t/out" "2023-11-14 22:13:20 UTC (1700000000)"
has "info: cpus" "$t/out" "cpu 1: pid 101"
has "info: segment" "$t/out" "0000000001000000-0000000001000fff"
expect "info --json" 0 "$analyze" info --json "$t/core"
if command -v python3 >/dev/null; then
	if python3 -c 'import json,sys; d=json.load(open(sys.argv[1]));
assert d["osrelease"] == "6.1.0-gen" and len(d["cpus"]) == 2
assert d["cpus"][0]["rip"] == "0xffffffff81234560"
assert d["complete"] is True and d["page_size"] == 4096' "$t/out"; then
		pass "info --json is valid JSON with the facts"
	else
		fail "info --json is not the expected JSON"
	fi
fi
expect "info on a kdump file" 0 "$analyze" info "$t/kdump"
has "info: kdump format" "$t/out" "format:      diskdump (Compressed KDUMP)"
has "info: kdump registers" "$t/out" "cpu 0: pid 100    rip ffffffff81234560"
expect "read from a kdump file" 0 "$analyze" read "$t/kdump" 0x100ff8 16
has "read: same bytes as the ELF core" "$t/out" "0000000000100ff8:  f7 74 f1 6e eb 68 e5 62 00 83 06 89 0c 8f 12 95  .t.n.h.b........"
head -c 30000 "$t/kdump" >"$t/kdump-trunc"
expect "check on a truncated kdump file" 1 "$analyze" check "$t/kdump-trunc"
has "check: kdump truncation named" "$t/out" "FAIL complete: truncated or corrupt: dumped page 3 has 4096 bytes"
expect "read before the cut of a kdump file" 0 "$analyze" read "$t/kdump-trunc" 100000 16
expect "read after the cut of a kdump file" 1 "$analyze" read "$t/kdump-trunc" 1000000 16
has "read: the cut named" "$t/err" "physical address 0x1000000 is not read: truncated or corrupt"
expect "info on a truncated core" 1 "$analyze" info "$t/trunc"
has "info: truncation named" "$t/err" "truncated: memory segment"
expect "info on a flattened dump" 1 "$analyze" info "$t/flat"
has "flattened: the conversion command" "$t/err" "makedumpfile -R"
expect "info on a missing file" 1 "$analyze" info "$t/nope"
has "missing file named" "$t/err" "cannot open vmcore '$t/nope'"

# check
expect "check, all good" 0 "$analyze" check "$t/core" --expect-cpus 2 \
	--crashkernel 2000000-2ffffff --exclude 0-fffff \
	--marker 100000:1093 --vmlinux "$t/vmlinux-good"
has "check: summary" "$t/out" "all 11 checks passed"
expect "check, wrong CPU count" 1 "$analyze" check "$t/core1" --expect-cpus 2
has "check: cpu FAIL" "$t/out" "FAIL expect-cpus: 1 CPUs, expected 2"
expect "check, range in the dump" 1 "$analyze" check "$t/core" \
	--exclude 101000-101fff
has "check: exclude FAIL" "$t/out" "FAIL exclude: 101000-101fff: the dump has page contents at 0x101000"
expect "check, wrong marker" 1 "$analyze" check "$t/core" --marker 100000:ffff
has "check: marker FAIL" "$t/out" "found 1093"
expect "check, other vmlinux" 1 "$analyze" check "$t/core" \
	--vmlinux "$t/vmlinux-other"
has "check: vmlinux mismatch" "$t/out" "vmcore is from 6.1.0-gen but vmlinux '$t/vmlinux-other' is 6.1.99: use the matching vmlinux"
expect "check, truncated" 1 "$analyze" check "$t/trunc"
has "check: complete FAIL" "$t/out" "FAIL complete: truncated"

# read
expect "read" 0 "$analyze" read "$t/core" 0x100ff8 16
has "read: layout" "$t/out" "0000000000100ff8:  f7 74 f1 6e eb 68 e5 62 00 83 06 89 0c 8f 12 95  .t.n.h.b........"
expect "read in a hole" 1 "$analyze" read "$t/core" 500000
has "read: hole named" "$t/err" "0x500000 is not in the dump"
expect "read, bad address" 2 "$analyze" read "$t/core" xyz
expect "read, bad length" 2 "$analyze" read "$t/core" 100000 0

# report, with stand-ins for crash and makedumpfile
mkdir -p "$t/bin" "$t/dump"
cp "$t/core" "$t/dump/vmcore"
cat >"$t/bin/crash" <<'EOF'
#!/bin/sh
# crash stand-in: keep the commands, print what crash 8.0.2 prints
cat >"$FAKE_DIR/crash-stdin"
printf '%s\n' "$PWD" >"$FAKE_DIR/crash-cwd"
printf '%s\n' "$@" >"$FAKE_DIR/crash-args"
# as crash does, the shell escapes of ./.crashrc unless --no_crashrc
case " $* " in
*" --no_crashrc "*) ;;
*) [ -f .crashrc ] && sed -n 's/^!//p' .crashrc | sh ;;
esac
[ -n "${FAKE_CRASH_HANG:-}" ] && exec sleep 60
cat <<'OUT'
      KERNEL: vmlinux
    DUMPFILE: vmcore  [PARTIAL DUMP]
      UPTIME: 00:02:15
     RELEASE: 6.1.0-gen
       PANIC: "Kernel panic - not syncing: sysrq triggered crash"
PID: 156      TASK: ffff93d8c25be580  CPU: 0    COMMAND: "kdump-file-test"
 #0 [ffffad26c0273c78] machine_kexec at ffffffff8bc58680
 #1 [ffffad26c0273cc8] __crash_kexec at ffffffff8bd22cd2
 #2 [ffffad26c0273d88] panic at ffffffff8c8fa709
 #3 [ffffad26c0273e08] sysrq_handle_crash at ffffffff8c16d4d1
 #4 [ffffad26c0273e10] __handle_sysrq.cold at ffffffff8c9195ef
 #5 [ffffad26c0273e40] write_sysrq_trigger at ffffffff8c16deaf
 #6 [ffffad26c0273e50] proc_reg_write at ffffffff8bebbb80
 #7 [ffffad26c0273e68] vfs_write at ffffffff8be3b2e2
[  135.369311] Kernel panic - not syncing: sysrq triggered crash
[  135.369699] CPU: 0 PID: 156 Comm: kdump-file-test Kdump: loaded Not tainted 6.1.0-gen #1
  RU: 3
OUT
EOF
cat >"$t/bin/makedumpfile" <<'EOF'
#!/bin/sh
# makedumpfile stand-in: --dump-dmesg VMCORE OUT
[ "$1" = --dump-dmesg ] || exit 1
[ -n "${FAKE_MDF_FAIL:-}" ] && { echo "makedumpfile Failed." >&2; exit 1; }
cat >"$3" <<'OUT'
[  135.368765] sysrq: Trigger a crash
[  135.369311] Kernel panic - not syncing: sysrq triggered crash
[  135.369699] CPU: 0 PID: 156 Comm: kdump-file-test Kdump: loaded Not tainted 6.1.0-gen #1
[  135.369926] Call Trace:
[  135.369926]  <TASK>
[  135.369926]  dump_stack_lvl+0x33/0x46
[  135.369926]  panic+0x10e/0x2d6
[  135.369926]  ? _printk+0x63/0x7e
[  135.369926]  sysrq_handle_crash+0x11/0x20
[  135.369926]  __handle_sysrq.cold+0x44/0x11c
[  135.369926]  write_sysrq_trigger+0x1f/0x40
[  135.369926]  proc_reg_write+0x50/0x90
[  135.369926]  vfs_write+0xc2/0x3e0
[  135.369926]  </TASK>
OUT
EOF
chmod +x "$t/bin/crash" "$t/bin/makedumpfile"
export FAKE_DIR=$t KDUMP_FILE_CRASH=$t/bin/crash \
	KDUMP_FILE_MAKEDUMPFILE=$t/bin/makedumpfile

expect "report with crash" 0 "$analyze" report "$t/dump" \
	--vmlinux "$t/vmlinux-good"
has "report: summary line" "$t/out" "kdump-file: crash "
has "report: summary names the panic and the frame" "$t/out" \
	": Kernel panic - not syncing: sysrq triggered crash in kdump-file-test (sysrq_handle_crash)"
sig1=$(sed -n 's/^kdump-file: crash \([0-9a-f]*\):.*/\1/p' "$t/out")
has "report: crash got its commands on stdin" "$t/crash-stdin" "bt"
has "report.txt: backtrace" "$t/dump/report.txt" "#3 sysrq_handle_crash"
has "report.json: signature" "$t/dump/report.json" "\"signature\": \"$sig1\""
if command -v python3 >/dev/null; then
	if python3 -c 'import json,sys; d=json.load(open(sys.argv[1]));
assert d["panic"].endswith("sysrq triggered crash") and d["cpu"] == 0
assert d["task"] == {"command": "kdump-file-test", "pid": 156}
assert "sysrq_handle_crash" in d["backtrace"] and d["source"] == "crash"' \
		"$t/dump/report.json"; then
		pass "report.json is valid JSON with the facts"
	else
		fail "report.json is not the expected JSON"
	fi
fi

# A crashed system's text (its panic message, a task's name) may hold
# terminal escape sequences: the summary line shows them escaped.
cat >"$t/bin/crash-hostile" <<'EOF'
#!/bin/sh
# crash stand-in: a panic message and a task name with escape sequences
cat >/dev/null
printf '       PANIC: "Kernel panic - not syncing: \033]0;pwned\007 crash"\n'
printf 'PID: 156      TASK: ffff93d8c25be580  CPU: 0    COMMAND: "evil\033[2J"\n'
printf ' #0 [ffffad26c0273c78] machine_kexec at ffffffff8bc58680\n'
printf ' #1 [ffffad26c0273d88] panic at ffffffff8c8fa709\n'
printf ' #2 [ffffad26c0273e08] sysrq_handle_crash at ffffffff8c16d4d1\n'
EOF
chmod +x "$t/bin/crash-hostile"
mkdir -p "$t/hostile"
cp "$t/core" "$t/hostile/vmcore"
KDUMP_FILE_CRASH=$t/bin/crash-hostile expect "report of a hostile crash" 0 \
	"$analyze" report "$t/hostile" --vmlinux "$t/vmlinux-good"
if grep -q "$(printf '\033')" "$t/out"; then
	fail "report: an escape byte reached stdout: $(grep -a "kdump-file: crash" "$t/out" | od -c | head -n 3)"
else
	pass "report: no escape byte on stdout"
fi
has "report: the escape sequence shown escaped" "$t/out" 'not syncing: \x1b]0;pwned\x07 crash in evil\x1b[2J'

# crash runs the commands of ./.crashrc: not those of the caller's
# directory, and with relative paths the report is the same.
mkdir -p "$t/cwd"
printf '!touch %s\n' "$t/crashrc-ran" >"$t/cwd/.crashrc"
cd "$t/cwd" || exit 1
expect "report from a directory with a .crashrc" 0 "$analyze" report \
	../dump --vmlinux ../vmlinux-good
cd - >/dev/null || exit 1
has "report: crash told --no_crashrc" "$t/crash-args" "--no_crashrc"
if [ "$(cat "$t/crash-cwd")" = / ]; then
	pass "report: crash run in /"
else
	fail "report: crash run in '$(cat "$t/crash-cwd")', not /"
fi
has "report: crash given the absolute vmcore path" "$t/crash-args" \
	"$t/dump/vmcore"
if [ -e "$t/crashrc-ran" ]; then
	fail "report: the caller's .crashrc was run"
else
	pass "report: the caller's .crashrc was not run"
fi
has "report.json: from crash, with relative paths" "$t/dump/report.json" \
	'"source": "crash"'
# The real crash(8) needs a matching vmlinux and vmcore to get as far as
# its .crashrc; that it takes the option is what can be checked here.
if command -v crash >/dev/null; then
	if crash --no_crashrc --version >/dev/null 2>&1; then
		pass "the installed crash takes --no_crashrc"
	else
		fail "the installed crash refuses --no_crashrc"
	fi
else
	echo "skip the installed crash takes --no_crashrc: crash is not installed"
fi

expect "report, other vmlinux" 1 "$analyze" report "$t/dump" \
	--vmlinux "$t/vmlinux-other"
has "report: mismatch refused" "$t/err" "use the matching vmlinux"

# No vmlinux anywhere for 6.1.0-gen: the kernel log alone, same signature.
rm -f "$t/dump/report.txt" "$t/dump/report.json"
expect "report from the dump alone" 0 "$analyze" report "$t/dump"
has "report: no vmlinux said" "$t/err" "no vmlinux for 6.1.0-gen"
sig2=$(sed -n 's/^kdump-file: crash \([0-9a-f]*\):.*/\1/p' "$t/out")
if [ -n "$sig1" ] && [ "$sig1" = "$sig2" ]; then
	pass "report: the kernel log gives the same signature as crash ($sig1)"
else
	fail "report: signatures differ: crash '$sig1', kernel log '$sig2'"
fi
has "report.json: source dmesg" "$t/dump/report.json" '"source": "dmesg"'

# crash hangs: the timeout ends it and the kernel log is used
start=$(date +%s)
FAKE_CRASH_HANG=1 expect "report, crash hangs" 0 "$analyze" report \
	"$t/dump" --vmlinux "$t/vmlinux-good" --timeout 2
if [ $(($(date +%s) - start)) -lt 30 ]; then
	pass "report: the hung crash was stopped"
else
	fail "report: the hung crash was not stopped in time"
fi
has "report: timeout said" "$t/err" "did not finish within 2 s"

# neither makedumpfile nor a saved dmesg.txt: failure; with dmesg.txt: ok
FAKE_MDF_FAIL=1 expect "report, no kernel log" 1 "$analyze" report "$t/dump"
"$t/bin/makedumpfile" --dump-dmesg x "$t/dump/dmesg.txt"
FAKE_MDF_FAIL=1 expect "report from the saved dmesg.txt" 0 "$analyze" \
	report "$t/dump"
has "report: dmesg.txt used" "$t/err" "dmesg.txt"

# a dmesg-only dump (dump_level = dmesg): no vmcore by configuration, the
# report from the saved log; without that metadata a missing vmcore fails.
mkdir -p "$t/dmesg-only"
"$t/bin/makedumpfile" --dump-dmesg x "$t/dmesg-only/dmesg.txt"
printf '%s\n' '{ "kernel_release": "6.1.0-gen", "crash_time": 1767225600,' \
	'  "dmesg_only": true, "complete": true }' >"$t/dmesg-only/metadata.json"
FAKE_MDF_FAIL=1 expect "report on a dmesg-only dump" 0 "$analyze" report \
	"$t/dmesg-only"
has "report: dmesg-only summary" "$t/out" \
	"sysrq triggered crash in kdump-file-test (sysrq_handle_crash)"
has "report.txt: no vmcore, by configuration" "$t/dmesg-only/report.txt" \
	"vmcore:    none, by configuration: a dmesg-only dump (dump_level = dmesg)"
has "report.txt: the crash time from the metadata" "$t/dmesg-only/report.txt" \
	"crashed:   2026-01-01 00:00:00 UTC"
if jq -e '.dmesg_only == true and .vmcore == null and .source == "dmesg" and
	.kernel_release == "6.1.0-gen" and .signature != null' \
	"$t/dmesg-only/report.json" >/dev/null 2>&1; then
	pass "report.json: a dmesg-only report"
else
	fail "report.json: not a dmesg-only report"
	sed 's/^/     /' "$t/dmesg-only/report.json" | head -n 30
fi
sig3=$(jq -r .signature "$t/dmesg-only/report.json")
if [ "$sig3" = "$sig1" ]; then
	pass "report: the dmesg-only signature is the vmcore's ($sig1)"
else
	fail "report: signatures differ: '$sig1', dmesg-only '$sig3'"
fi
# A capture that saved the log but not the vmcore: reported from the log,
# said to be incomplete; with no log either there is nothing to report.
printf '%s\n' '{ "kernel_release": "6.1.0-gen", "crash_time": 1767225600,' \
	'  "complete": false, "error": "makedumpfile failed" }' >"$t/dmesg-only/metadata.json"
FAKE_MDF_FAIL=1 expect "report on a dump whose vmcore was not saved" 0 "$analyze" report \
	"$t/dmesg-only"
has "report.txt: the vmcore was not saved" "$t/dmesg-only/report.txt" \
	"vmcore:    none: the capture did not save it"
if jq -e '.dmesg_only == false and .vmcore_missing == true and .vmcore == null and
	.signature == "'"$sig1"'"' "$t/dmesg-only/report.json" >/dev/null 2>&1; then
	pass "report.json: an incomplete dump, the same signature"
else
	fail "report.json: not an incomplete dump's report"
	sed 's/^/     /' "$t/dmesg-only/report.json" | head -n 30
fi
# A copy of a dump on the collector (collector.json): its vmcore is there,
# the report from the copied log names where.
printf '%s\n' '{ "kernel_release": "6.1.0-gen", "crash_time": 1767225600,' \
	'  "complete": true }' >"$t/dmesg-only/metadata.json"
printf '%s\n' '{ "location": "ssh://k@c/srv/h/2026-01-01-00:00:00", "vmcore_bytes": 4096 }' \
	>"$t/dmesg-only/collector.json"
FAKE_MDF_FAIL=1 expect "report on a copy of a collector's dump" 0 "$analyze" report \
	"$t/dmesg-only"
has "report.txt: the dump is on the collector" "$t/dmesg-only/report.txt" \
	"vmcore:    on the collector: ssh://k@c/srv/h/2026-01-01-00:00:00; report from its kernel log"
if jq -e '.dmesg_only == false and .vmcore_missing == false and
	.collector_dump == "ssh://k@c/srv/h/2026-01-01-00:00:00" and
	.signature == "'"$sig1"'"' "$t/dmesg-only/report.json" >/dev/null 2>&1; then
	pass "report.json: a collector's dump, the same signature"
else
	fail "report.json: not a collector's dump's report"
	sed 's/^/     /' "$t/dmesg-only/report.json" | head -n 30
fi
rm "$t/dmesg-only/collector.json"
rm "$t/dmesg-only/metadata.json"
FAKE_MDF_FAIL=1 expect "report: no vmcore, no metadata, the log" 0 "$analyze" report \
	"$t/dmesg-only"
rm "$t/dmesg-only/dmesg.txt"
expect "report: neither a vmcore nor a kernel log" 1 "$analyze" report \
	"$t/dmesg-only"
# A kernel log over 16 MiB is refused, not cut: its end has the panic.
mkdir -p "$t/big-log"
{ head -c $((17 << 20)) /dev/zero | tr '\0' 'x'; echo; } >"$t/big-log/dmesg.txt"
expect "report: a kernel log over 16 MiB" 1 "$analyze" report "$t/big-log"
has "report: the log's size said" "$t/err" "cannot be read: it is larger than 16 MiB"

# vmlinux: the kernel that crashed, by the build ID in VMCOREINFO.
echo 'int main(void) { return 0; }' >"$t/elf.c"
if cc -o "$t/elf-same" "$t/elf.c" -Wl,--build-id=0x0123456789abcdef0123456789abcdef01234567 &&
	cc -o "$t/elf-other" "$t/elf.c" -Wl,--build-id=0x89abcdef0123456789abcdef0123456789abcdef; then
	expect "vmlinux: a file with the dump's build ID" 0 "$analyze" vmlinux "$t/core" \
		--vmlinux "$t/elf-same"
	has "vmlinux: its path printed" "$t/out" "$t/elf-same"
	expect "vmlinux: another build ID" 1 "$analyze" vmlinux "$t/core" \
		--vmlinux "$t/elf-other"
	has "vmlinux: which build ID was expected" "$t/err" "build ID 0123456789abcdef0123456789abcdef01234567 expected"
else
	fail "vmlinux: cannot link test ELF files with a build ID"
fi
expect "vmlinux: none installed" 1 "$analyze" vmlinux "$t/core"
has "vmlinux: what to do" "$t/err" "no vmlinux of kernel 6.1.0-gen, build ID 0123456789abcdef0123456789abcdef01234567"
expect "vmlinux: no argument" 2 "$analyze" vmlinux

summary
