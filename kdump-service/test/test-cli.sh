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

# Hooks and extra binaries: each must be a root-only regular executable;
# extra modules must exist for the capture kernel.  Refused by show, as by
# load, before anything is loaded.
printf '#!/bin/sh\nexit 0\n' >"$t/hook"
chmod 0755 "$t/hook"
conf "path = $dumps" "pre_hook = $t/hook" "post_hook = $t/hook" "hook_timeout = 5" \
	"hook_failure = stop" "extra_binaries = $t/hook"
expect "show with a good hook" 0 -- "$kf" -c "$t/conf" show
has "show: the hook goes to the capture" "$t/out" "pre_hook = $t/hook"
has "show: hook_failure goes to the capture" "$t/out" "hook_failure = stop"
has "show: the hook is packed" "$t/out" "packed into the capture initramfs: $t/hook $t/hook $t/hook"
conf "path = $dumps" "pre_hook = $t/hook $t/no-such-hook"
expect "a missing pre_hook" 1 -- "$kf" -c "$t/conf" show
has "the missing hook is named" "$t/err" "cannot use pre_hook '$t/no-such-hook' from $t/conf: it does not exist"
chmod 0644 "$t/hook"
conf "path = $dumps" "post_hook = $t/hook"
expect "a post_hook that is not executable" 1 -- "$kf" -c "$t/conf" show
has "not executable: the fix" "$t/err" "it is not executable (chmod 0755 '$t/hook')"
chmod 0775 "$t/hook"
expect "a group-writable post_hook" 1 -- "$kf" -c "$t/conf" show
has "group-writable: the file and the fix" "$t/err" "'$t/hook' is group-writable, and what the capture runs must be root's alone (chown root and chmod go-w '$t/hook')"
chmod 0755 "$t/hook"
mkdir -m 0775 "$t/gw"
cp "$t/hook" "$t/gw/hook"
conf "path = $dumps" "post_hook = $t/gw/hook"
expect "a hook in a group-writable directory" 1 -- "$kf" -c "$t/conf" show
has "the directory is named" "$t/err" "'$t/gw' is group-writable"
conf "path = $dumps" "extra_binaries = $t"
expect "a directory as an extra binary" 1 -- "$kf" -c "$t/conf" show
has "not a regular file" "$t/err" "cannot use extra_binaries '$t' from $t/conf: it is not a regular file"
conf "path = $dumps" "pre_hook = hooks/pre.sh"
expect "a relative pre_hook" 1 -- "$kf" -c "$t/conf" show
has "the relative path is named" "$t/err" "key 'pre_hook': 'hooks/pre.sh' is not an absolute path"
conf "path = $dumps" "post_hook = /bin/true|reboot"
expect "a shell metacharacter in post_hook" 1 -- "$kf" -c "$t/conf" show
has "the character is named" "$t/err" "'/bin/true|reboot' contains '|'"
conf "path = $dumps" "hook_timeout = 0"
expect "hook_timeout 0" 1 -- "$kf" -c "$t/conf" show
has "hook_timeout: the range" "$t/err" "is not a number of seconds from 1 to 600"
conf "path = $dumps" "extra_modules = kdump_file_no_such_module"
expect "an extra module the kernel has not" 1 -- "$kf" -c "$t/conf" show
has "the module is named" "$t/err" "cannot use extra_modules 'kdump_file_no_such_module' from $t/conf: kernel "

# What the capture recorded of the hooks and extra modules, shown by info.
printf '%s\n' '{ "complete": true, "hooks": [' \
	'  { "phase": "pre", "path": "/etc/kdump-file/pre", "exit": 0, "timed_out": false, "seconds": 0.1, "failed": false, "result": "exit 0" },' \
	'  { "phase": "post", "path": "/etc/kdump-file/hang", "exit": -1, "timed_out": true, "seconds": 5.0, "failed": true, "result": "timed out after 5.0 s: killed" } ],' \
	'  "extra_modules": [ { "name": "dummy", "loaded": true, "error": "" }, { "name": "nosuch", "loaded": false, "error": "ENOENT" } ] }' \
	>"$dumps/2026-01-01-00:00:00/metadata.json"
echo "== pre hook" >"$dumps/2026-01-01-00:00:00/hooks.log"
conf "path = $dumps"
expect "info with hooks" 0 -- "$kf" -c "$t/conf" info "$id"
has "info: the pre hook" "$t/out" "hooks:       pre /etc/kdump-file/pre: exit 0 (0.1 s)"
has "info: the hook that hung" "$t/out" "post /etc/kdump-file/hang: timed out after 5.0 s: killed (5.0 s)"
has "info: an extra module" "$t/out" "extra mods:  dummy: loaded"
has "info: an extra module that failed" "$t/out" "nosuch: not loaded, ENOENT"
has "info: the hooks' log" "$t/out" "hooks.log"
expect "info --json with hooks" 0 -- "$kf" -c "$t/conf" --json info "$id"
json "info --json: the hooks" '.hooks[1].timed_out == true and .hooks[0].exit == 0'
json "info --json: the extra modules" '.extra_modules[0].name == "dummy"'

echo "cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
