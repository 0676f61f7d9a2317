#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Command-line tests of kdump-file that only read: --version, --json for
# status and show, the dump directory's safety, and the messages for bad
# configuration values; and report with stand-ins for kdump-file-analyze and
# journald.  Nothing is loaded and nothing outside a temporary directory is
# written (the stand-in journal lives in a private mount namespace).
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

# report --new and the crash's journal entry, with stand-ins for
# kdump-file-analyze and for journald: in a private mount namespace, a
# socket at /run/systemd/journal/socket that receives one entry into a file
# (the native protocol: one FIELD=value line each), or one that refuses it.
mkdir -m 0700 "$t/bin"
cat >"$t/bin/kdump-file-analyze" <<'EOF_ANALYZE'
#!/bin/sh
echo "$*" >>"${0%/*}/runs"
printf '{ "signature": "fedcba9876543210" }\n' >"$2/report.json"
echo "kdump-file: crash fedcba9876543210: test"
EOF_ANALYZE
cat >"$t/journald.py" <<'EOF_JOURNALD'
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
if sys.argv[2] != "-":
    s.settimeout(30)
    data = s.recv(1 << 20)
    open(sys.argv[2], "wb").write(data)
EOF_JOURNALD
chmod 0700 "$t/bin/kdump-file-analyze"
# with_journal FILE|- CMD...: CMD with a journal that writes the entry it
# gets to FILE, or that refuses every entry (-).
with_journal() {
	# shellcheck disable=SC2016 # the script expands them, in the namespace
	unshare -m --propagation private sh -c '
		py=$1 mode=$2
		shift 2
		mount -t tmpfs none /run/systemd || exit 1
		mkdir /run/systemd/journal
		python3 "$py" /run/systemd/journal/socket "$mode" &
		pid=$!
		i=0
		while [ ! -S /run/systemd/journal/socket ] && [ $i -lt 100 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		rc=0
		"$@" || rc=$?
		[ "$mode" = - ] || wait "$pid"
		exit "$rc"' with_journal "$t/journald.py" "$@"
}
report() {
	expect "$1" 0 -- with_journal "$2" env PATH="$t/bin:$PATH" "$kf" -c "$t/conf" "${@:3}"
}
# A dump reported while the journal refuses the entry: said once, with
# the ID list shows, and the report stands; the next boot's report --new
# finds the report and neither analyses nor sends again.
mkdir -m 0700 "$dumps/2026-03-01-00:00:00"
echo core >"$dumps/2026-03-01-00:00:00/vmcore"
id3=$("$kf" -c "$t/conf" --json list | jq -r '.[] | select(.dir | endswith("03-01-00:00:00")) | .id')
report "report --new, the journal refusing" - --new report
has "report: the analysis ran" "$t/bin/runs" "report $dumps/2026-03-01-00:00:00"
has "report: the summary" "$t/out" "kdump-file: crash fedcba9876543210"
has "report: the entry was not sent" "$t/err" "cannot send its crash entry to the journal"
has "report: the ID list shows ($id3)" "$t/err" "'kdump-file info $id3' shows the crash"
report "report --new again" - --new report
if [ "$(wc -l <"$t/bin/runs")" -eq 1 ] && [ ! -s "$t/out" ] && [ ! -s "$t/err" ]; then
	pass "report --new again: no analysis, no second entry"
else
	fail "report --new again: $(wc -l <"$t/bin/runs") analyses, output: $(cat "$t/out" "$t/err")"
fi
# A newer dump, the journal listening: the entry's fields.
mkdir -m 0700 "$dumps/2026-04-01-00:00:00"
echo core >"$dumps/2026-04-01-00:00:00/vmcore"
printf '{ "crash_time": 1775001600, "kernel_release": "6.1.0-test" }\n' \
	>"$dumps/2026-04-01-00:00:00/metadata.json"
id4=$("$kf" -c "$t/conf" --json list | jq -r '.[] | select(.dir | endswith("04-01-00:00:00")) | .id')
report "report --new, the journal listening" "$t/entry" --new report
if [ ! -s "$t/err" ]; then pass "report: no warning"; else fail "report: $(cat "$t/err")"; fi
for f in MESSAGE_ID=015172fc9e57401f9f980255c3aeecad PRIORITY=2 \
	"MESSAGE=Kernel crash $id4: fedcba9876543210 (kernel 6.1.0-test), dump in $dumps/2026-04-01-00:00:00" \
	"KDUMP_FILE_CRASH_ID=$id4" KDUMP_FILE_SIGNATURE=fedcba9876543210 \
	KDUMP_FILE_KERNEL=6.1.0-test KDUMP_FILE_CRASH_TIME=2026-04-01T00:00:00Z \
	"KDUMP_FILE_DUMP_DIR=$dumps/2026-04-01-00:00:00" KDUMP_FILE_COMPLETE=yes; do
	if grep -qxF -- "$f" "$t/entry" 2>/dev/null; then
		pass "entry: $f"
	else
		fail "entry: no line '$f' in: $(cat "$t/entry" 2>/dev/null)"
	fi
done
report "report of a reported dump, by its directory" - report "$dumps/2026-04-01-00:00:00/"
if grep -q journal "$t/err"; then
	fail "report of a reported dump: a second entry was tried: $(cat "$t/err")"
else
	pass "report of a reported dump: no second entry"
fi
# A dump named by a relative path: the entry names it as list does.
mkdir -m 0700 "$dumps/2026-05-01-00:00:00"
echo log >"$dumps/2026-05-01-00:00:00/dmesg.txt"
echo core >"$dumps/2026-05-01-00:00:00/vmcore"
id5=$("$kf" -c "$t/conf" --json list | jq -r '.[] | select(.dir | endswith("05-01-00:00:00")) | .id')
rm -f "$t/entry"
cd "$dumps" || exit 1
report "report of a new dump by a relative path" "$t/entry" report ./2026-05-01-00:00:00/
cd - >/dev/null || exit 1
for f in "KDUMP_FILE_CRASH_ID=$id5" "KDUMP_FILE_DUMP_DIR=$dumps/2026-05-01-00:00:00" \
	KDUMP_FILE_CRASH_TIME=2026-05-01T00:00:00Z; do
	if grep -qxF -- "$f" "$t/entry" 2>/dev/null; then
		pass "entry by a relative path: $f"
	else
		fail "entry by a relative path: no line '$f' in: $(cat "$t/entry" 2>/dev/null)"
	fi
done
rm -r "$dumps/2026-03-01-00:00:00" "$dumps/2026-04-01-00:00:00" "$dumps/2026-05-01-00:00:00"

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

echo "cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
