#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The report unit's sandbox.  kdump-file-report.service runs crash,
# makedumpfile and libkdumpfile on what a crashed kernel left: the process
# that parses it must hold no CAP_SYS_ADMIN and may not mount (an exploit
# of a parser could otherwise remount what the sandbox made read-only).
# Only its privileged step ('+') mounts a dump target nothing mounts.
#
# Checks the unit file itself, systemd-analyze verify and security (the
# exposure below that of the unit that kept CAP_SYS_ADMIN and @mount), and,
# as root with loop devices, the privileged step and a report without
# CAP_SYS_ADMIN on a target nothing mounts, in a private mount namespace
# with /run of its own; and a report by hand, which mounts the target
# itself, as before.
#
#   test-units.sh KDUMP-FILE
set -u

# The exposure systemd-analyze security gave the unit whose report kept
# CAP_SYS_ADMIN and @mount (systemd 252).
OLD_EXPOSURE=1.9

kf=$(realpath "$1")
units=$(realpath "$(dirname "$0")/../units")
unit=$units/kdump-file-report.service

# A /run of its own: the mounts and /run/kdump-file of these tests are
# nobody else's, and go with the namespace.
if [ -z "${KDUMP_FILE_TEST_UNSHARED:-}" ] && [ "$(id -u)" = 0 ] &&
	unshare -m true 2>/dev/null; then
	exec env KDUMP_FILE_TEST_UNSHARED=1 unshare -m --propagation private \
		"$0" "$@"
fi
if [ -n "${KDUMP_FILE_TEST_UNSHARED:-}" ]; then
	mount -t tmpfs -o mode=0755 none /run || exit 1
fi

t=$(mktemp -d /tmp/test-kf-units.XXXXXX)
chmod 0700 "$t"
loop=
cleanup() {
	umount -q "$t/mnt" 2>/dev/null
	umount -q /run/kdump-file/report-target 2>/dev/null
	[ -z "$loop" ] || losetup -d "$loop"
	rm -rf "$t"
}
trap cleanup EXIT
# shellcheck source=test/lib/host-checks.sh
. "$(dirname "$0")/../../test/lib/host-checks.sh"

# key UNIT KEY: the values of every KEY= line of the [Service] section.
key() {
	sed -n '/^\[Service\]/,/^\[/p' "$1" | sed -n "s/^$2=//p"
}

# The parsing process: no CAP_SYS_ADMIN in its bounding set, and the mount
# system calls denied.
caps=$(key "$unit" CapabilityBoundingSet)
if [ -z "$caps" ]; then
	fail "report unit: no CapabilityBoundingSet= (every capability)"
elif grep -qw CAP_SYS_ADMIN <<<"$caps"; then
	fail "report unit: CAP_SYS_ADMIN in CapabilityBoundingSet=$caps"
else
	pass "report unit: no CAP_SYS_ADMIN ($caps)"
fi
if key "$unit" SystemCallFilter | grep -v '^~' | grep -qw '@mount'; then
	fail "report unit: @mount allowed: $(key "$unit" SystemCallFilter | tr '\n' ' ')"
elif key "$unit" SystemCallFilter | grep '^~' | grep -qw '@mount'; then
	pass "report unit: SystemCallFilter=~@mount"
else
	fail "report unit: @mount not denied: $(key "$unit" SystemCallFilter | tr '\n' ' ')"
fi
case $(key "$unit" RestrictNamespaces) in
yes) pass "report unit: no namespaces" ;;
*) fail "report unit: RestrictNamespaces=$(key "$unit" RestrictNamespaces)" ;;
esac
# Writable whatever else is not: /run/kdump-file (recover's lock,
# report-target's mount), made if nothing has yet, root's alone, kept for
# kdump-file.service.
if [ "$(key "$unit" ReadWritePaths)" = -/run/kdump-file ] &&
	[ "$(key "$unit" RuntimeDirectory)" = kdump-file ] &&
	[ "$(key "$unit" RuntimeDirectoryMode)" = 0700 ] &&
	[ "$(key "$unit" RuntimeDirectoryPreserve)" = yes ]; then
	pass "report unit: /run/kdump-file writable, root's alone, kept"
else
	fail "report unit: /run/kdump-file: ReadWritePaths=$(key "$unit" ReadWritePaths) RuntimeDirectory=$(key "$unit" RuntimeDirectory)"
fi
# The main process is sandboxed; the privileged lines run only the mount
# step.
if key "$unit" ExecStart | grep -q '^[-@:!]*[+!]'; then
	fail "report unit: ExecStart= runs outside the sandbox: $(key "$unit" ExecStart)"
else
	pass "report unit: the report runs in the sandbox"
fi
bad=$(sed -n 's/^Exec[A-Za-z]*=[-@:]*+//p' "$unit" |
	grep -v '^/usr/sbin/kdump-file report-target \(mount\|unmount\)$')
if [ -z "$bad" ]; then
	pass "report unit: only report-target runs privileged"
else
	fail "report unit: privileged: $bad"
fi

# systemd's own view of it, with the unit's commands pointing to the
# kdump-file under test (verify wants them executable).
if command -v systemd-analyze >/dev/null; then
	sed "s|/usr/sbin/kdump-file|$kf|" "$unit" >"$t/kdump-file-report.service"
	expect "systemd-analyze verify" 0 -- systemd-analyze verify --man=no \
		"$t/kdump-file-report.service"
	expect "systemd-analyze security --offline" 0 -- systemd-analyze security \
		--offline=true --no-pager "$t/kdump-file-report.service"
	level=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p' "$t/out")
	if [ -n "$level" ] && awk -v n="$level" -v o="$OLD_EXPOSURE" 'BEGIN { exit !(n < o) }'; then
		pass "report unit: exposure $level, below $OLD_EXPOSURE"
	else
		fail "report unit: exposure '$level', not below $OLD_EXPOSURE"
	fi
else
	echo "skip systemd-analyze: not installed"
fi

if [ -z "${KDUMP_FILE_TEST_UNSHARED:-}" ] || ! command -v mkfs.ext4 >/dev/null ||
	! command -v capsh >/dev/null; then
	echo "skip the report on a loop device: needs root, unshare, mkfs.ext4 and capsh"
	summary
	exit
fi

# A dump target nothing mounts: an ext4 image on a loop device, holding
# two dumps below /crash.
truncate -s 16M "$t/target.img"
mkfs.ext4 -q -F "$t/target.img" || exit 1
mkdir -m 0700 "$t/mnt"
mount -o loop "$t/target.img" "$t/mnt" || exit 1
mkdir -m 0700 "$t/mnt/crash" "$t/mnt/crash/2026-01-01-00:00:00" \
	"$t/mnt/crash/2026-02-01-00:00:00"
echo core >"$t/mnt/crash/2026-01-01-00:00:00/vmcore"
echo core >"$t/mnt/crash/2026-02-01-00:00:00/vmcore"
umount "$t/mnt"
if ! loop=$(losetup -f --show "$t/target.img"); then
	loop=
	echo "skip the report on a loop device: no loop device"
	summary
	exit
fi
printf '%s\n' "target = $loop" "path = /crash" >"$t/conf"
chmod 0600 "$t/conf"
# A stand-in analyzer: writes the report into the dump directory.
mkdir -m 0700 "$t/bin"
cat >"$t/bin/kdump-file-analyze" <<'EOF_ANALYZE'
#!/bin/sh
printf '{ "signature": "fedcba9876543210" }\n' >"$2/report.json" || exit 1
echo "kdump-file: crash fedcba9876543210: test"
EOF_ANALYZE
chmod 0700 "$t/bin/kdump-file-analyze"
# unpriv CMD...: CMD as the report unit runs it, CAP_SYS_ADMIN out of its
# bounding set (root's capabilities after exec are the bounding set's).
unpriv() {
	capsh --drop=cap_sys_admin -- -c 'exec "$@"' unpriv "$@"
}
on_target() {
	local d=/run/kdump-file/report-target/crash/$1

	[ -e "$d/report.json" ]
}

expect "without CAP_SYS_ADMIN: no mount namespace" 1 -- unpriv unshare -m true
# Nothing mounts the target: the report may not mount it.
expect "report without CAP_SYS_ADMIN, the target not mounted" 1 -- \
	unpriv env PATH="$t/bin:$PATH" "$kf" -c "$t/conf" --new report
has "report: cannot reach the target" "$t/err" "cannot reach dump target $loop"
# The privileged step mounts it; the report then writes beside the dump.
expect "report-target mount" 0 -- "$kf" -c "$t/conf" report-target mount
if findmnt -n /run/kdump-file/report-target >/dev/null; then
	pass "report-target mount: the target on /run/kdump-file/report-target"
else
	fail "report-target mount: nothing on /run/kdump-file/report-target"
fi
mode=$(stat -c %a /run/kdump-file)
if [ "$mode" = 700 ]; then
	pass "report-target mount: below a directory root's alone"
else
	fail "report-target mount: /run/kdump-file has mode $mode"
fi
expect "report-target mount again: already mounted" 0 -- \
	"$kf" -c "$t/conf" report-target mount
if [ "$(findmnt -n /run/kdump-file/report-target | wc -l)" = 1 ]; then
	pass "report-target mount again: mounted once"
else
	fail "report-target mount again: $(findmnt -n /run/kdump-file/report-target)"
fi
expect "report without CAP_SYS_ADMIN, after the privileged step" 0 -- \
	unpriv env PATH="$t/bin:$PATH" "$kf" -c "$t/conf" --new report
has "report: the summary" "$t/out" "kdump-file: crash fedcba9876543210"
if on_target 2026-02-01-00:00:00; then
	pass "report: report.json written on the target"
else
	fail "report: no report.json on the target"
fi
expect "report-target unmount" 0 -- "$kf" -c "$t/conf" report-target unmount
if findmnt -n /run/kdump-file/report-target >/dev/null ||
	[ -e /run/kdump-file/report-target ]; then
	fail "report-target unmount: still there"
else
	pass "report-target unmount: the mount and its directory gone"
fi
expect "report-target unmount again: nothing to do" 0 -- \
	"$kf" -c "$t/conf" report-target unmount
# A target that is not attached: nothing to mount, as report --new says
# nothing.
printf '%s\n' "target = UUID=00000000-0000-4000-8000-000000000000" \
	"path = /crash" >"$t/conf-absent"
chmod 0600 "$t/conf-absent"
expect "report-target mount, the target not attached" 0 -- \
	"$kf" -c "$t/conf-absent" report-target mount

# By hand, as root: report mounts the target itself, for itself alone.
expect "report by hand" 0 -- env PATH="$t/bin:$PATH" "$kf" -c "$t/conf" \
	report "$("$kf" -c "$t/conf" --json list |
		jq -r '.dumps[] | select(.dir | endswith("01-01-00:00:00")) | .id')"
mount -o ro "$loop" "$t/mnt" || exit 1
if [ -e "$t/mnt/crash/2026-01-01-00:00:00/report.json" ]; then
	pass "report by hand: report.json written on the target"
else
	fail "report by hand: no report.json on the target"
fi
umount "$t/mnt"
if findmnt -n -S "$loop" >/dev/null; then
	fail "report by hand: its mount left behind: $(findmnt -n -S "$loop")"
else
	pass "report by hand: its mount its own"
fi
summary
