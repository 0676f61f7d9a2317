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
# The generator kdump-file-generator makes the whole system
# read-only to the report but for the dump store the configuration names
# (ProtectSystem=strict and ReadWritePaths= in a drop-in): run on fixture
# configurations and fstabs, and its drop-in through systemd-analyze.
#
#   test-units.sh KDUMP-FILE [GENERATOR]
set -u

# The exposure systemd-analyze security gave the unit whose report kept
# CAP_SYS_ADMIN and @mount (systemd 252).
OLD_EXPOSURE=1.9

kf=$(realpath "$1")
gen=$(realpath "${2:-$(dirname "$1")/kdump-file-generator}")
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
# What holds when the generator cannot tell the dump store.
case $(key "$unit" ProtectSystem) in
full) pass "report unit: ProtectSystem=full without the drop-in" ;;
*) fail "report unit: ProtectSystem=$(key "$unit" ProtectSystem)" ;;
esac
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

# The generator: /var (/var/spool/cron, /var/lib, ...) is not the report's
# to write; only the dump store is, as the configuration and fstab name it.
# generate NAME CONF [FSTAB]: run it as systemd does, into $t/gen/NAME;
# the drop-in is then $t/gen/NAME.conf.
mkdir -m 0700 "$t/gen"
generate() {
	expect "generator: $1" 0 -- env KDUMP_FILE_CONF="$2" \
		KDUMP_FILE_FSTAB="${3:-$t/gen/no-fstab}" \
		KDUMP_FILE_HOSTS="$t/gen/hosts" \
		"$gen" "$t/gen/$1" "$t/gen/$1.early" "$t/gen/$1.late"
	cp "$t/gen/$1/kdump-file-report.service.d/50-dump-store.conf" \
		"$t/gen/$1.conf" 2>/dev/null || : >"$t/gen/$1.conf"
}
# writable NAME DIR...: the drop-in makes the system read-only but for
# exactly DIR... (none: nothing but the unit's /run/kdump-file).
writable() {
	local name=$1 want got
	shift
	want=$(printf 'ReadWritePaths="-%s"\n' "$@" | grep -v '^ReadWritePaths="-"$')
	got=$(grep '^ReadWritePaths=' "$t/gen/$name.conf")
	if ! grep -qx 'ProtectSystem=strict' "$t/gen/$name.conf"; then
		fail "generator: $name: not ProtectSystem=strict"
		sed 's/^/     /' "$t/gen/$name.conf"
	elif [ "$got" != "$want" ]; then
		fail "generator: $name: writable '$got', expected '$want'"
	else
		pass "generator: $name: read-only but for ${*:-/run/kdump-file}"
	fi
}
# undecided NAME: the drop-in keeps the unit's ProtectSystem=full (the
# report works as before) and stderr says why.
undecided() {
	if grep -qx 'ProtectSystem=full' "$t/gen/$1.conf" &&
		! grep -q '^ProtectSystem=strict\|^ReadWritePaths=' "$t/gen/$1.conf" &&
		grep -q 'keeps ProtectSystem=full' "$t/err"; then
		pass "generator: $1: ProtectSystem=full, and why"
	else
		fail "generator: $1: not ProtectSystem=full with a reason"
		sed 's/^/     /' "$t/gen/$1.conf" "$t/err"
	fi
}
printf '%s\n' '127.0.0.1 localhost' '192.0.2.7 collector.example collector' \
	>"$t/gen/hosts"
printf '%s\n' 'UUID=0a1b2c3d-0000-4000-8000-000000000001 /srv/dumps ext4 defaults 0 2' \
	'LABEL=other /srv/other ext4 defaults 0 2' \
	'/dev/sdz9 / ext4 defaults 0 1' >"$t/gen/fstab"
# No target: dumps below path.
printf '%s\n' 'path = /var/crash-test' >"$t/gen/path.in"
generate "path only" "$t/gen/path.in"
writable "path only" /var/crash-test
# A raw device: recover copies the dump into path.
printf '%s\n' 'raw = /dev/sdz8' 'path = /var/crash-raw' >"$t/gen/raw.in"
generate "raw" "$t/gen/raw.in"
writable "raw" /var/crash-raw
# A target /etc/fstab mounts, spelt as fstab does: its mount point + path.
printf '%s\n' 'target = UUID=0a1b2c3d-0000-4000-8000-000000000001' \
	'path = /crash' >"$t/gen/fstab.in"
generate "target in fstab" "$t/gen/fstab.in" "$t/gen/fstab"
writable "target in fstab" /srv/dumps/crash
# The root file system's device as target, path at its top.
printf '%s\n' 'target = /dev/sdz9' 'path = /var/crash' >"$t/gen/root.in"
generate "target mounted on the root" "$t/gen/root.in" "$t/gen/fstab"
writable "target mounted on the root" /var/crash
# A target fstab does not mount: report-target mounts it below
# /run/kdump-file, the unit's own.
printf '%s\n' 'target = LABEL=dumps' 'path = /crash' >"$t/gen/nofstab.in"
generate "target not in fstab" "$t/gen/nofstab.in" "$t/gen/fstab"
writable "target not in fstab"
generate "target, no fstab" "$t/gen/nofstab.in" "$t/gen/no-fstab"
writable "target, no fstab"
# A network target: the report does not write there, but into the copies
# of the collector's dumps that report-target makes here...
printf '%s\n' 'target = ssh://kdump@collector.example/var/crash' \
	>"$t/gen/ssh.in"
generate "ssh target" "$t/gen/ssh.in"
writable "ssh target" /var/lib/kdump-file/collector
# ...and into its fallback directory, where the capture saved what it
# could not send.
printf '%s\n' 'target = ssh://kdump@collector.example/var/crash' \
	'fallback = /var/crash-fb' >"$t/gen/ssh-fb.in"
generate "ssh target with a fallback" "$t/gen/ssh-fb.in"
writable "ssh target with a fallback" /var/lib/kdump-file/collector /var/crash-fb
# report-target copies from the collector (outside the sandbox: the IP
# firewall is the unit's) and from nowhere else; the report keeps AF_UNIX.
if grep -qx 'IPAddressAllow=192.0.2.7' "$t/gen/ssh target.conf" &&
	grep -qx 'PrivateNetwork=no' "$t/gen/ssh target.conf" &&
	grep -qx 'After=network-online.target' "$t/gen/ssh target.conf" &&
	! grep -q '^RestrictAddressFamilies=' "$t/gen/ssh target.conf"; then
	pass "generator: ssh target: the report unit reaches the collector alone"
else
	fail "generator: ssh target: the report unit's network"
	sed 's/^/     /' "$t/gen/ssh target.conf"
fi
if grep -q '^IPAddressAllow=\|^PrivateNetwork=' "$t/gen/path only.conf"; then
	fail "generator: path only: the report unit has network"
else
	pass "generator: path only: the report unit keeps no network"
fi

# The loading units (kdump-file.service, kdump-file-hotplug.service): no
# drop-in for a local target, the way to the collector for a network one.
# netdrop NAME UNIT: the loading drop-in of generator run NAME for UNIT.
netdrop() {
	echo "$t/gen/$1/$2.d/50-network-target.conf"
}
# local_sandbox NAME: no loading unit has a drop-in.
local_sandbox() {
	if [ -e "$(netdrop "$1" kdump-file.service)" ] ||
		[ -e "$(netdrop "$1" kdump-file-hotplug.service)" ]; then
		fail "generator: $1: a network drop-in for a local target"
	else
		pass "generator: $1: the loading units keep their sandbox"
	fi
}
# net_sandbox NAME TAG ALLOW MOUNT(yes|no): both units' drop-ins say TAG,
# allow ALLOW, wait for the network, and mount (NFS) or not.
net_sandbox() {
	local u f ok=1
	for u in kdump-file.service kdump-file-hotplug.service; do
		f=$(netdrop "$1" "$u")
		grep -qx "Environment=\"KDUMP_FILE_SANDBOX=$2\"" "$f" &&
			grep -qx "IPAddressAllow=$3" "$f" &&
			grep -qx 'PrivateNetwork=no' "$f" &&
			grep -qx 'After=network-online.target' "$f" &&
			grep -qx 'RestrictAddressFamilies=AF_NETLINK AF_INET AF_INET6' "$f" || ok=0
		if [ "$4" = yes ]; then
			grep -qx 'SystemCallFilter=@mount' "$f" &&
				grep -qx 'CapabilityBoundingSet=CAP_SYS_ADMIN' "$f" || ok=0
		else
			! grep -q 'CAP_SYS_ADMIN\|@mount' "$f" || ok=0
		fi
	done
	if [ "$ok" = 1 ]; then
		pass "generator: $1: $2, allowing $3"
	else
		fail "generator: $1: not '$2' allowing $3 (mount: $4)"
		sed 's/^/     /' "$(netdrop "$1" kdump-file.service)" 2>&1
	fi
}
local_sandbox "path only"
local_sandbox "raw"
local_sandbox "target in fstab"
net_sandbox "ssh target" "ssh 192.0.2.7" 192.0.2.7 no
printf '%s\n' 'target = nfs://collector/srv/nfs' >"$t/gen/nfs.in"
generate "nfs target" "$t/gen/nfs.in"
net_sandbox "nfs target" "nfs 192.0.2.7" 192.0.2.7 yes
printf '%s\n' 'target = nfs://198.51.100.4/srv/nfs' >"$t/gen/nfs-ip.in"
generate "nfs target by address" "$t/gen/nfs-ip.in"
net_sandbox "nfs target by address" "nfs 198.51.100.4" 198.51.100.4 yes
printf '%s\n' 'target = ssh://kdump@dumps.example/var/crash' >"$t/gen/ssh-dns.in"
generate "ssh target by DNS" "$t/gen/ssh-dns.in"
net_sandbox "ssh target by DNS" "ssh any" any no
# Back to a local target over the same directory: the drop-ins go.
cp -r "$t/gen/nfs target" "$t/gen/local again"
generate "local again" "$t/gen/path.in"
local_sandbox "local again"
# mounts NAME [UNIT...]: both loading units are ordered after exactly
# UNIT... (none: no 40-dump-mounts.conf).
mounts() {
	local name=$1 u f want got ok=1
	shift
	want=$(printf 'After=%s\n' "$@")
	for u in kdump-file.service kdump-file-hotplug.service; do
		f="$t/gen/$name/$u.d/40-dump-mounts.conf"
		got=$(grep '^After=' "$f" 2>/dev/null || true)
		if [ "$#" -eq 0 ]; then
			[ ! -e "$f" ] || ok=0
		else
			[ "$got" = "$want" ] && grep -qx '\[Unit\]' "$f" || ok=0
		fi
	done
	if [ "$ok" = 1 ]; then
		pass "generator: $name: loads after ${*:-no mount}"
	else
		fail "generator: $name: not ordered after exactly '${*:-nothing}'"
	fi
}
mounts "path only"
mounts "raw"
mounts "target in fstab" srv-dumps.mount
mounts "target mounted on the root"
mounts "ssh target"
# The dump directory on a disk of the network (an iSCSI LUN, nofail):
# mounted before the load, at a mount point systemd escapes.
printf '%s\n' '/dev/sdz9 / ext4 defaults 0 1' \
	'UUID=0a1b2c3d-0000-4000-8000-000000000002 /var/crash ext4 _netdev,nofail 0 2' \
	'UUID=0a1b2c3d-0000-4000-8000-000000000003 /var/crash-test/dumps ext4 nofail 0 2' \
	'LABEL=elsewhere /var/crash-other ext4 nofail 0 2' \
	'/dev/sdz2 none swap sw 0 0' >"$t/gen/fstab-netdev"
printf '%s\n' 'path = /var/crash' >"$t/gen/var-crash.in"
generate "path on a _netdev mount" "$t/gen/var-crash.in" "$t/gen/fstab-netdev"
mounts "path on a _netdev mount" var-crash.mount
printf '%s\n' 'path = /var/crash-test/dumps/x' >"$t/gen/escaped.in"
generate "path below an escaped mount point" "$t/gen/escaped.in" "$t/gen/fstab-netdev"
mounts "path below an escaped mount point" 'var-crash\x2dtest-dumps.mount'
# A configuration that cannot be read: no network opened.
generate "bad for the loader" "$t/gen/bad.in"
local_sandbox "bad for the loader"

# What cannot be read or decided: ProtectSystem=full, exit 0.
generate "missing configuration" "$t/gen/none.in"
undecided "missing configuration"
has "generator: missing configuration: named" "$t/err" "$t/gen/none.in"
printf '%s\n' 'path = /var/crash' 'no such key here' >"$t/gen/bad.in"
generate "unreadable configuration" "$t/gen/bad.in"
undecided "unreadable configuration"
has "generator: unreadable configuration: the line" "$t/err" "$t/gen/bad.in:2"
generate "unreadable fstab" "$t/gen/fstab.in" "$t/gen/fstab.in/fstab"
undecided "unreadable fstab"
# Over an earlier drop-in (a daemon-reload after a change): replaced.
cp -r "$t/gen/target in fstab" "$t/gen/path again"
generate "path again" "$t/gen/path.in"
writable "path again" /var/crash-test
expect "generator: no directory" 2 -- "$gen"
expect "generator: a relative directory" 2 -- "$gen" gen gen gen

# The unit with the generator's drop-in, as systemd reads it.
if command -v systemd-analyze >/dev/null; then
	mkdir -m 0700 "$t/units"
	sed "s|/usr/sbin/kdump-file|$kf|" "$unit" >"$t/units/kdump-file-report.service"
	for name in "target in fstab" "unreadable configuration"; do
		mkdir -p "$t/units/kdump-file-report.service.d"
		cp "$t/gen/$name.conf" \
			"$t/units/kdump-file-report.service.d/50-dump-store.conf"
		expect "systemd-analyze verify, drop-in of $name" 0 -- \
			systemd-analyze verify --man=no "$t/units/kdump-file-report.service"
		if [ -s "$t/err" ]; then
			fail "systemd-analyze verify, drop-in of $name: $(head -n 3 "$t/err")"
		else
			pass "systemd-analyze verify, drop-in of $name: no complaint"
		fi
	done
	cp "$t/gen/target in fstab.conf" \
		"$t/units/kdump-file-report.service.d/50-dump-store.conf"
	expect "systemd-analyze security --offline, with the drop-in" 0 -- \
		systemd-analyze security --offline=true --no-pager \
		"$t/units/kdump-file-report.service"
	has "report unit: strict read-only access with the drop-in" "$t/out" \
		"strict read-only access to the OS file hierarchy"
	level=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p' "$t/out")
	if [ -n "$level" ] && awk -v n="$level" -v o="$OLD_EXPOSURE" 'BEGIN { exit !(n < o) }'; then
		pass "report unit with the drop-in: exposure $level, below $OLD_EXPOSURE"
	else
		fail "report unit with the drop-in: exposure '$level', not below $OLD_EXPOSURE"
	fi
	# A network target's: the collector reachable from report-target.
	cp "$t/gen/ssh target with a fallback.conf" \
		"$t/units/kdump-file-report.service.d/50-dump-store.conf"
	expect "systemd-analyze security --offline, an ssh target's drop-in" 0 -- \
		systemd-analyze security --offline=true --no-pager \
		"$t/units/kdump-file-report.service"
	level=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p' "$t/out")
	if [ -n "$level" ] && awk -v n="$level" -v o="$OLD_EXPOSURE" 'BEGIN { exit !(n < o) }'; then
		pass "report unit with an ssh target's drop-in: exposure $level, below $OLD_EXPOSURE"
	else
		fail "report unit with an ssh target's drop-in: exposure '$level', not below $OLD_EXPOSURE"
	fi
fi

# The loading unit as systemd reads it, for each target kind: its
# exposure (systemd-analyze security) with and without the network drop-in.
if command -v systemd-analyze >/dev/null; then
	mkdir -m 0700 "$t/lunits"
	declare -A exposure
	for u in kdump-file.service kdump-file-hotplug.service; do
		sed "s|/usr/sbin/kdump-file|$kf|" "$units/$u" >"$t/lunits/$u"
	done
	for name in "path only" "ssh target" "nfs target"; do
		rm -rf "$t/lunits/kdump-file.service.d"
		if [ -e "$(netdrop "$name" kdump-file.service)" ]; then
			mkdir "$t/lunits/kdump-file.service.d"
			cp "$(netdrop "$name" kdump-file.service)" "$t/lunits/kdump-file.service.d/"
		fi
		expect "systemd-analyze verify kdump-file.service, $name" 0 -- \
			systemd-analyze verify --man=no "$t/lunits/kdump-file.service"
		if grep -v 'kdump-file-hotplug.path\|network-online.target' "$t/err" | grep -q .; then
			fail "systemd-analyze verify kdump-file.service, $name: $(head -n 3 "$t/err")"
		fi
		expect "systemd-analyze security kdump-file.service, $name" 0 -- \
			systemd-analyze security --offline=true --no-pager "$t/lunits/kdump-file.service"
		level=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p' "$t/out")
		echo "kdump-file.service exposure, $name: $level"
		exposure[$name]=$level
	done
	l=${exposure["path only"]} s=${exposure["ssh target"]} n=${exposure["nfs target"]}
	if awk -v l="$l" -v s="$s" -v n="$n" 'BEGIN { exit !(l + 0 > 0 && l < s && s <= n) }'; then
		pass "kdump-file.service: exposure local $l < ssh $s <= nfs $n"
	else
		fail "kdump-file.service: exposure local '$l', ssh '$s', nfs '$n'"
	fi
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
# The target mounted elsewhere, where the sandbox leaves it read-only (a
# read-only mount stands for it here): the privileged step mounts it on
# report-target all the same, and the report writes there.
mkdir -p "$t/elsewhere"
mount "$loop" "$t/elsewhere" &&
	rm -f "$t/elsewhere/crash/2026-02-01-00:00:00/report.json" &&
	mount -o remount,bind,ro "$t/elsewhere"
expect "report-target mount, the target mounted elsewhere read-only" 0 -- \
	"$kf" -c "$t/conf" report-target mount
if findmnt -n /run/kdump-file/report-target >/dev/null; then
	pass "report-target mount: mounted there too"
else
	fail "report-target mount: not mounted on /run/kdump-file/report-target"
fi
expect "report after the privileged step, the other mount read-only" 0 -- \
	unpriv env PATH="$t/bin:$PATH" "$kf" -c "$t/conf" --new report
if on_target 2026-02-01-00:00:00; then
	pass "report: written through the report unit's own mount"
else
	fail "report: no report.json on the target"
fi
expect "report-target unmount, the other mount kept" 0 -- \
	"$kf" -c "$t/conf" report-target unmount
if findmnt -n "$t/elsewhere" >/dev/null; then
	pass "report-target unmount: the other mount untouched"
else
	fail "report-target unmount: the other mount is gone"
fi
umount "$t/elsewhere"
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
