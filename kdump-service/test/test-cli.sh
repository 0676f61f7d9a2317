#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Command-line tests of kdump-file that only read: --version, --json for
# status and show, the dump directory's safety, and the messages for bad
# configuration values.  Nothing is loaded and nothing outside a temporary
# directory is written.
#
#   test-cli.sh KDUMP-FILE
set -u

kf=$(realpath "$1")
t=$(mktemp -d /tmp/test-kf-cli.XXXXXX)
chmod 0700 "$t"
trap 'chmod -R u+rwx "$t"; rm -rf "$t"' EXIT
passed=0
failed=0

pass() { echo "ok   $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }

# expect NAME STATUS... -- CMD...: CMD exits with one of STATUS; its output
# is kept in $t/out and $t/err.
expect() {
	local name=$1 rc=0 ok=0 want=()
	shift
	while [ "$1" != -- ]; do
		want+=("$1")
		shift
	done
	shift
	"$@" >"$t/out" 2>"$t/err" || rc=$?
	for w in "${want[@]}"; do
		[ "$rc" -eq "$w" ] && ok=1
	done
	if [ "$ok" = 1 ]; then
		pass "$name (exit $rc)"
	else
		fail "$name: exit $rc, expected ${want[*]}"
		sed 's/^/     /' "$t/out" "$t/err" | head -n 20
	fi
}

# has NAME FILE TEXT: FILE contains TEXT
has() {
	if grep -qF -- "$3" "$2"; then
		pass "$1"
	else
		fail "$1: '$3' not in $(basename "$2")"
		sed 's/^/     /' "$2" | head -n 20
	fi
}

# json NAME FILTER: jq FILTER on $t/out is true
json() {
	if jq -e "$2" "$t/out" >/dev/null 2>&1; then
		pass "$1"
	else
		fail "$1: jq '$2' is not true"
		sed 's/^/     /' "$t/out" | head -n 30
	fi
}

# conf LINE...: the configuration file $t/conf
conf() {
	printf '%s\n' "$@" >"$t/conf"
	chmod 0600 "$t/conf"
}

dumps=$t/dumps
mkdir -m 0700 "$dumps"

expect "--version" 0 -- "$kf" --version
has "--version names the program" "$t/out" "kdump-file "
expect "--json with another command" 2 -- "$kf" --json estimate
has "--json: which commands take it" "$t/err" "--json is for status, show, list and info"

# status and show as JSON; an inline comment in the file.
conf "path = $dumps # dumps go here" "keep = 2"
expect "status --json" 0 3 -- "$kf" -c "$t/conf" --json status
json "status --json: loaded is a boolean" '.loaded | type == "boolean"'
json "status --json: the dump directory" ".dump_dir == \"$dumps\""
json "status --json: no dump yet" '.last_dump_note | startswith("none in")'
expect "show --json" 0 -- "$kf" -c "$t/conf" --json show
json "show --json: the capture's keep" '.capture_config.keep == "2"'
json "show --json: the kernel" '.kernel | startswith("/")'

# A dump, and a newer directory someone else could have made.
mkdir -m 0700 "$dumps/2026-01-01-00:00:00"
echo core >"$dumps/2026-01-01-00:00:00/vmcore"
mkdir -m 0777 "$dumps/2026-06-01-00:00:00"
echo planted >"$dumps/2026-06-01-00:00:00/vmcore"
expect "status --json with a planted directory" 0 3 -- "$kf" -c "$t/conf" --json status
json "status --json: the planted directory is not the last dump" \
	'.last_dump.dir | endswith("2026-01-01-00:00:00")'
json "status --json: the dump is complete" '.last_dump.state == "complete"'

# The dump store: list, info, and the IDs.
id=$("$kf" -c "$t/conf" --json list | jq -r '.[0].id')
expect "list" 0 -- "$kf" -c "$t/conf" list
has "list: the header" "$t/out" "ID        TIME"
has "list: the dump's ID and state" "$t/out" "$id  "
expect "list --json" 0 -- "$kf" -c "$t/conf" --json list
json "list --json: one dump, not the planted one" 'length == 1 and .[0].state == "complete"'
printf '%s\n' '{ "signature": "0123456789abcdef", "panic": "Kernel panic - not syncing: test",' \
	'  "task": { "command": "bash", "pid": 42 }, "backtrace": [ "sysrq_handle_crash", "write_sysrq_trigger" ],' \
	'  "taint": "G" }' >"$dumps/2026-01-01-00:00:00/report.json"
expect "info by an ID's first 4 digits" 0 -- "$kf" -c "$t/conf" info "${id:0:4}"
has "info: the task" "$t/out" "task:        bash (pid 42)"
has "info: the backtrace" "$t/out" "backtrace:   sysrq_handle_crash"
has "info: how to debug it" "$t/out" "debug:       kdump-file debug $id"
expect "info --json" 0 -- "$kf" -c "$t/conf" --json info "$id"
json "info --json: the report's signature" '.report.signature == "0123456789abcdef"'
expect "info of an unknown ID" 1 -- "$kf" -c "$t/conf" info ffffffff
has "info: what to do" "$t/err" "see 'kdump-file list'"
mkdir -m 0700 "$dumps/2026-02-01-00:00:00"
echo "log" >"$dumps/2026-02-01-00:00:00/dmesg.txt"
expect "debug a dump without a vmcore" 1 -- "$kf" -c "$t/conf" debug
has "debug: where the log is" "$t/err" "has no vmcore"
rm -r "$dumps/2026-02-01-00:00:00"

# A dump directory others may write.
chmod 1777 "$dumps"
expect "show with a world-writable dump directory" 1 -- "$kf" -c "$t/conf" show
has "the message says why" "$t/err" "may be written by others than root (mode 1777)"
has "the message says what to do" "$t/err" "chmod 0700"
chmod 0700 "$dumps"
ln -s "$dumps" "$t/link"
conf "path = $t/link"
expect "show with a link as the dump directory" 1 -- "$kf" -c "$t/conf" show
has "the link is named" "$t/err" "is a symbolic link"

# Bad values: what was wrong, where, and the character.
conf "path = $t/crash dumps"
expect "a path with a space" 1 -- "$kf" -c "$t/conf" show
has "the space is named" "$t/err" "byte 0x20"
conf "cmdline_append = quiet; reboot"
expect "a shell metacharacter in cmdline_append" 1 -- "$kf" -c "$t/conf" show
has "the character is named" "$t/err" "';' is not allowed"
conf "raw = /dev/null-ish" "raw_overwrite = perhaps"
expect "raw_overwrite neither yes nor no" 1 -- "$kf" -c "$t/conf" show
has "raw_overwrite: the values" "$t/err" "is not yes or no"

# makedumpfile_args: show prints the command lines the capture runs; a
# refused option is named with its reason.
conf "path = $dumps" "compression = zlib" "dump_level = 17" \
	"makedumpfile_args = --num-threads=2 -e  --message-level 7"
expect "show with makedumpfile_args" 0 -- "$kf" -c "$t/conf" show
has "show: the vmcore's makedumpfile line" "$t/out" \
	"vmcore:      makedumpfile -c -d 17 --num-threads 2 -e --message-level 7 --work-dir $dumps/<time> /proc/vmcore $dumps/<time>/vmcore-incomplete"
has "show: the dmesg's makedumpfile line" "$t/out" \
	"dmesg:       makedumpfile --dump-dmesg /proc/vmcore $dumps/<time>/dmesg.txt"
has "show: the capture's copy, normalised" "$t/out" \
	"makedumpfile_args = --num-threads 2 -e --message-level 7"
expect "show --json with makedumpfile_args" 0 -- "$kf" -c "$t/conf" --json show
json "show --json: the makedumpfile line" \
	'.makedumpfile | startswith("makedumpfile -c -d 17 --num-threads 2 -e")'
conf "path = $dumps" "makedumpfile_args = -D -F"
expect "a refused makedumpfile option" 1 -- "$kf" -c "$t/conf" show
has "the refused option, its reason and the fix" "$t/err" \
	"conf:2: key 'makedumpfile_args': '-F' is refused: kdump-file chooses the flattened format itself, for a raw target (remove it)"
conf "path = $dumps" "makedumpfile_args = --num-threads 0"
expect "--num-threads 0" 1 -- "$kf" -c "$t/conf" show
has "the bounds are named" "$t/err" "'--num-threads' needs a number from 1 to 64, not '0'"
conf "path = $dumps" "makedumpfile_args = --frob"
expect "an unknown makedumpfile option" 1 -- "$kf" -c "$t/conf" show
has "unknown: said so" "$t/err" "'--frob' is not known to kdump-file: remove it"

# dump_level = dmesg: show says no vmcore; a dmesg-only dump is complete in
# list, status and info, and debug says why there is nothing for crash.
conf "path = $dumps" "dump_level = dmesg"
expect "show with dump_level = dmesg" 0 -- "$kf" -c "$t/conf" show
has "show: no vmcore line" "$t/out" "vmcore:      none: dump_level = dmesg saves the kernel log alone"
has "show: the capture's copy" "$t/out" "dump_level = dmesg"
conf "raw = /dev/null-ish" "dump_level = dmesg"
expect "dump_level = dmesg with a raw device" 1 -- "$kf" -c "$t/conf" show
has "dmesg and raw: why" "$t/err" "dmesg is for a dump directory on a filesystem"
conf "path = $dumps"
d=$dumps/2026-07-01-00:00:00
mkdir -m 0700 "$d"
echo "Kernel panic - not syncing: sysrq triggered crash" >"$d/dmesg.txt"
printf '%s\n' '{ "kernel_release": "6.1.0-x", "crash_time": 1782864000,' \
	'  "panic": "sysrq triggered crash", "dmesg_only": true, "complete": true,' \
	'  "error": "" }' >"$d/metadata.json"
did=$("$kf" -c "$t/conf" --json list | jq -r '.[-1].id')
expect "list with a dmesg-only dump" 0 -- "$kf" -c "$t/conf" list
has "list: complete, dmesg only" "$t/out" "complete, dmesg only"
expect "list --json with a dmesg-only dump" 0 -- "$kf" -c "$t/conf" --json list
json "list --json: complete and dmesg_only" \
	'.[-1].state == "complete" and .[-1].dmesg_only == true'
expect "status with a dmesg-only dump" 0 3 -- "$kf" -c "$t/conf" status
has "status: the last dump is complete, dmesg only" "$t/out" "complete, dmesg only (dump_level = dmesg: no vmcore)"
expect "info on a dmesg-only dump" 0 -- "$kf" -c "$t/conf" info "$did"
has "info: no vmcore by configuration" "$t/out" "state:       complete, dmesg only: no vmcore, by configuration"
has "info: the panic" "$t/out" "panic:       sysrq triggered crash"
expect "debug on a dmesg-only dump" 1 -- "$kf" -c "$t/conf" debug "$did"
has "debug: a dmesg-only dump, no vmcore" "$t/err" "has no vmcore: it is a dmesg-only dump (dump_level = dmesg)"
# Cut short: the record written while it ran says incomplete.
printf '%s\n' '{ "complete": false, "error": "the capture did not finish" }' >"$d/metadata.json"
expect "list with a dmesg-only dump cut short" 0 -- "$kf" -c "$t/conf" --json list
json "list --json: cut short is incomplete" '.[-1].state == "incomplete"'
rm -r "$d"

echo "cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
