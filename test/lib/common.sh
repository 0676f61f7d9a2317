# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Shared helpers of the QEMU scenarios (sourced by test/TEST-*/test.sh and
# test/run-scenarios.sh).  Every guest runs under TCG with a hard timeout,
# its serial console kept in a log file.

set -euo pipefail

KDUMP_FILE_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
KDUMP_FILE_LIB=$KDUMP_FILE_TOP/test/lib
export KDUMP_FILE_CACHE=${KDUMP_FILE_CACHE:-/var/cache/kdump-file}
export KDUMP_FILE_OUT=${KDUMP_FILE_OUT:-/var/tmp/kdump-file}

# Set by the failing checks; a scenario fails when any check failed.
failures=0
checks=0

log() {
	printf '%s: %s\n' "${SCENARIO:-test}" "$*"
}

pass() {
	checks=$((checks + 1))
	log "ok: $*"
}

fail() {
	checks=$((checks + 1))
	failures=$((failures + 1))
	log "FAIL: $*"
}

# check DESCRIPTION COMMAND...: pass if the command succeeds.
check() {
	local what=$1
	shift
	if "$@"; then
		pass "$what"
	else
		fail "$what"
	fi
}

# check_ended STATUS DESCRIPTION: the check that a guest ended by itself,
# STATUS being qemu_boot's (or crash_boot's, status_boot's): 124 is
# timeout(1)'s, a guest that hung until qemu_boot stopped it.
check_ended() {
	check "$2" test "$1" -ne 124
}

finish() {
	log "$((checks - failures)) of $checks checks passed"
	[ "$failures" -eq 0 ]
}

kernel_dir() {
	"$KDUMP_FILE_LIB/kernel-build.sh"
}

guest_image() {
	"$KDUMP_FILE_LIB/guest-image.sh" "$1"
}

# Debian's stock kernel (stock-kernel.sh): its release, the path of its
# vmlinux (waiting for the -dbg download when it runs), and the guest image
# on it (the product on stock-base.sh's rootfs).
stock_release() {
	local dir
	dir=$("$KDUMP_FILE_LIB/stock-kernel.sh" --no-dbg) && cat "$dir/release"
}

stock_vmlinux() {
	local dir
	dir=$("$KDUMP_FILE_LIB/stock-kernel.sh") && echo "$dir/vmlinux"
}

stock_image() {
	"$KDUMP_FILE_LIB/guest-image.sh" --stock
}

# stock_boot: set kernel and initrd (QEMU arguments) to boot Debian's stock
# kernel through the initrd initramfs-tools made for it, and release.
stock_boot() {
	local sbase
	release=$(stock_release)
	sbase=$("$KDUMP_FILE_LIB/stock-base.sh")
	kernel=$sbase/boot/vmlinuz-$release
	# shellcheck disable=SC2034 # for the caller
	initrd=(-initrd "$sbase/boot/initrd.img-$release")
}

# scenario_out NAME: set SCENARIO and out, its fresh output directory.
scenario_out() {
	SCENARIO=$1
	out=$KDUMP_FILE_OUT/$SCENARIO
	rm -rf "$out"
	mkdir -p "$out"
}

# scenario_setup NAME: what every scenario on the prepared guest starts
# with; sets SCENARIO, out (its fresh output directory), kdir (the kernel
# build), prepared (the prepared guest disk) and disk (its own copy of it).
scenario_setup() {
	scenario_out "$1"
	kdir=$(kernel_dir)
	disk=$out/disk.img
	prepared=$(guest_image_prepared "$kdir")
	scenario_disk "$prepared" "$disk"
}

# firmware_passes FUNCTION SOURCE_DISK: run FUNCTION FW once under SeaBIOS
# and once under OVMF.  Each pass logs as SCENARIO/FW and gets out (its own
# subdirectory) and disk (a fresh copy of SOURCE_DISK, removed afterwards).
firmware_passes() {
	local fn=$1 src=$2 name=$SCENARIO top=$out fw out disk
	for fw in bios uefi; do
		SCENARIO=$name/$fw
		out=$top/$fw
		disk=$out/disk.img
		mkdir -p "$out"
		scenario_disk "$src" "$disk"
		CRASH_FW=$fw "$fn" "$fw" || true
		rm -f "$disk" "${disk%.img}.vars.fd"
	done
	SCENARIO=$name
}

# fetch_one_dump DEST: the check that the guest disk holds exactly one dump
# under /var/crash, and that dump copied to DEST; 1 when there is not one.
fetch_one_dump() {
	local -a dirs
	mapfile -t dirs < <(dump_dirs "$disk" /var/crash)
	check "one dump (${dirs[*]})" test "${#dirs[@]}" -eq 1
	[ "${#dirs[@]}" -eq 1 ] || return 1
	dump_fetch "$disk" /var/crash "${dirs[0]}" "$1"
}

# A scenario's own working copy of the guest disk (sparse, seconds).
scenario_disk() {
	local img=$1 out=$2
	cp --sparse=always "$img" "$out"
}

# qemu_boot LOG TIMEOUT FIRMWARE MEM_MB KERNEL APPEND DISK [QEMU ARGS...]
# FIRMWARE: bios or uefi.  Returns QEMU's status, 124 on timeout.
# KDUMP_FILE_QEMU_SMP replaces "2" in -smp 2 (e.g. "1,maxcpus=4" for CPU
# hotplug) and KDUMP_FILE_QEMU_MEM_OPTS is added to -m MEM_MB (e.g.
# "slots=4,maxmem=4G" for memory hotplug); set them for one call only.
qemu_boot() {
	local log=$1 timeout=$2 fw=$3 mem=$4 kernel=$5 append=$6 disk=$7
	shift 7
	local -a fwargs=()
	if [ "$fw" = uefi ]; then
		local vars=${disk%.img}.vars.fd
		[ -f "$vars" ] || cp /usr/share/OVMF/OVMF_VARS_4M.fd "$vars"
		fwargs=(-machine q35
			-drive "if=pflash,format=raw,readonly=on,file=/usr/share/OVMF/OVMF_CODE_4M.fd"
			-drive "if=pflash,format=raw,file=$vars")
	fi
	local rc=0
	# KDUMP_FILE_REBOOT_IN_PLACE=1: a reboot restarts the guest in the
	# same QEMU, its RAM kept (for ramoops), until it powers off.
	local -a noreboot=(-no-reboot)
	[ "${KDUMP_FILE_REBOOT_IN_PLACE:-0}" != 1 ] || noreboot=()
	local smp=${KDUMP_FILE_QEMU_SMP:-2}
	local memopts=${KDUMP_FILE_QEMU_MEM_OPTS:+,$KDUMP_FILE_QEMU_MEM_OPTS}
	echo "=== boot $(date -u +%T) fw=$fw mem=${mem}M$memopts smp=$smp append: $append" >>"$log"
	# The host CPU time QEMU took (user and system), for the end line:
	# what make check's time is made of.
	local TIMEFORMAT='%U %S'
	{ time timeout -k 10 "$timeout" qemu-system-x86_64 -accel tcg -smp "$smp" -m "$mem$memopts" \
		"${fwargs[@]}" -display none -monitor none -serial "file:$log.serial" \
		"${noreboot[@]}" -nic none -kernel "$kernel" -append "$append" \
		-drive "file=$disk,format=raw,if=virtio" "$@" >>"$log" 2>&1 || rc=$?; } 2>"$log.cpu"
	tr -d '\r' <"$log.serial" >>"$log"
	rm -f "$log.serial"
	echo "=== end $(date -u +%T) rc=$rc cpu=$(awk '{ printf "%.0f", $1 + $2 }' "$log.cpu") s" >>"$log"
	rm -f "$log.cpu"
	# For test/run-scenarios.sh: a guest that hung (TCG has rare stalls
	# of a vCPU's timer) makes its scenario worth one more run.
	# The marker goes to the scenario's own directory, also from a
	# subdirectory such as TEST-NN/uefi.
	if [ "$rc" -eq 124 ]; then
		local mark
		mark=$(dirname "$log")
		[ -z "${SCENARIO:-}" ] || mark=$KDUMP_FILE_OUT/${SCENARIO%%/*}
		echo "$log" >>"$mark/guest-timeouts"
	fi
	return "$rc"
}

# dump_dirs DISK DIR: names of the dump directories below DIR on an ext4 image.
dump_dirs() {
	debugfs -R "ls -p $2" "$1" 2>/dev/null |
		awk -F/ '$6 ~ /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]-/ { print $6 }' | sort
}

# dump_fetch DISK DIR NAME DEST: copy one dump's files out of the image.
dump_fetch() {
	local disk=$1 src=${2%/}/$3 dest=$4 f
	mkdir -p "$dest"
	for f in $(debugfs -R "ls -p $src" "$disk" 2>/dev/null |
		awk -F/ '$6 != "." && $6 != ".." && $6 != "" { print $6 }'); do
		debugfs -R "dump $src/$f $dest/$f" "$disk" >/dev/null 2>&1
	done
}

# file_mode DISK PATH: octal permission bits of a file in the image.
file_mode() {
	debugfs -R "stat $2" "$1" 2>/dev/null |
		sed -n 's/.*Mode: *\([0-7]*\).*/\1/p' | head -n 1
}

# crash_run VMLINUX VMCORE OUT COMMANDS...: run crash(8) non-interactively,
# as kdump-file runs it: no .crashrc read (crash runs ./.crashrc, the test
# runner's directory's), in "/", with absolute paths.
crash_run() {
	local vmlinux vmcore out=$3
	vmlinux=$(realpath "$1") vmcore=$(realpath "$2")
	shift 3
	printf '%s\n' "$@" quit >"$out.cmds"
	(cd / && timeout 300 crash -s --no_crashrc "$vmlinux" "$vmcore") \
		<"$out.cmds" >"$out" 2>&1
}

# What check_dump expects of the crash: a dmesg line, crash's PANIC line (an
# extended regular expression) and a function in the backtrace.  The
# defaults are those of sysrq c; a scenario of another kind of crash sets
# them.
DUMP_DMESG=${DUMP_DMESG:-"sysrq: Trigger a crash"}
DUMP_PANIC=${DUMP_PANIC:-'PANIC: "(Kernel panic - not syncing: )?sysrq triggered crash'}
DUMP_BT=${DUMP_BT:-sysrq_handle_crash}

# check_dump NAME VMLINUX DUMPDIR: the dump is complete and crash opens it.
check_dump() {
	local name=$1 vmlinux=$2 d=$3
	check "$name: vmcore saved" test -s "$d/vmcore"
	check "$name: no vmcore-incomplete left" test ! -e "$d/vmcore-incomplete"
	check "$name: dmesg saved" grep -q "$DUMP_DMESG" "$d/dmesg.txt"
	check "$name: metadata says complete" grep -q '"complete": true' "$d/metadata.json"
	rm -f "$d/dmesg.from-vmcore" "$d/crash.out"
	if makedumpfile --dump-dmesg "$d/vmcore" "$d/dmesg.from-vmcore" >"$d/makedumpfile.log" 2>&1; then
		pass "$name: makedumpfile --dump-dmesg reads the vmcore"
	else
		fail "$name: makedumpfile --dump-dmesg on the vmcore ($(tail -n 1 "$d/makedumpfile.log"))"
	fi
	check "$name: its dmesg has the crash" grep -q "$DUMP_DMESG" "$d/dmesg.from-vmcore"
	if crash_run "$vmlinux" "$d/vmcore" "$d/crash.out" sys bt; then
		pass "$name: crash opens the vmcore"
	else
		fail "$name: crash failed on the vmcore ($(grep -m1 -iE 'error|mismatch|not match|inconsisten' "$d/crash.out" || tail -n 1 "$d/crash.out"))"
	fi
	# crash only warns about a vmlinux of another build, then goes on.
	if grep -qE "version inconsistency|do not match" "$d/crash.out"; then
		fail "$name: crash: vmlinux does not match the vmcore ($(grep -m1 -E "version inconsistency|do not match" "$d/crash.out"))"
	else
		pass "$name: crash: vmlinux matches the vmcore"
	fi
	check "$name: crash: PANIC is the expected one" grep -qE "$DUMP_PANIC" "$d/crash.out"
	check "$name: crash: bt shows $DUMP_BT" grep -q "$DUMP_BT" "$d/crash.out"
}

# The checks must be able to fail: run check_dump on damaged copies of a good
# dump (missing, truncated, corrupted vmcore; a vmlinux of another build) and
# require that each is caught.
self_test_checks() {
	local name=$1 vmlinux=$2 good=$3 bad=$4 size
	rm -rf "$bad"
	mkdir -p "$bad"
	caught() {
		local what=$1 dir=$2 vml=$3
		# A subshell: the damaged dump's failures must not count here.
		# shellcheck disable=SC2030
		if (
			failures=0
			check_dump "$name" "$vml" "$dir" >"$dir.log" 2>&1
			[ "$failures" -eq 0 ]
		); then
			fail "self-test: a dump with $what passed the checks"
		else
			pass "self-test: a dump with $what is caught ($(grep -m1 FAIL "$dir.log" | sed 's/.*FAIL: //'))"
		fi
	}
	size=$(stat -c %s "$good/vmcore")
	cp -r "$good" "$bad/missing" && rm "$bad/missing/vmcore"
	caught "no vmcore" "$bad/missing" "$vmlinux"
	cp -r "$good" "$bad/truncated" && truncate -s $((size / 2)) "$bad/truncated/vmcore"
	caught "a truncated vmcore" "$bad/truncated" "$vmlinux"
	cp -r "$good" "$bad/corrupt" &&
		dd if=/dev/urandom of="$bad/corrupt/vmcore" bs=4096 count=4 conv=notrunc status=none
	caught "a corrupted header" "$bad/corrupt" "$vmlinux"
	# Another build: the same vmlinux with its build stamp in linux_banner
	# changed, which is what a vmlinux of another build of 6.1.192 differs by.
	cp "$vmlinux" "$bad/vmlinux.other"
	python3 - "$bad/vmlinux.other" <<'PY'
import mmap, sys
with open(sys.argv[1], "r+b") as f, mmap.mmap(f.fileno(), 0) as m:
    import re
    # The build number ("#N SMP") changes with every rebuild: find it.
    j = re.compile(rb"#[0-9]+ SMP").search(m, m.find(b"Linux version ")).start() + 1
    m[j:j + 1] = b"9" if m[j:j + 1] != b"9" else b"8"
PY
	cp -r "$good" "$bad/other-build"
	caught "the wrong vmlinux" "$bad/other-build" "$bad/vmlinux.other"
	rm -rf "$bad"
}

# guest_image_prepared KERNEL_DIR [IMAGE STEP [FLAVOUR]]: the guest image after one
# boot that ran "systemctl enable --now kdump-file", so the capture initramfs
# is built and the service enabled; cached next to the image it came from.
# With IMAGE and STEP: IMAGE after one boot that ran the guest step STEP,
# which prints "prepared: 1" when it succeeded; FLAVOUR "stock" boots
# Debian's stock kernel (an image of guest-image.sh --stock).
guest_image_prepared() {
	local kdir=$1 img prep log step=${3:-prepare} flavour=${4:-ours}
	img=${2:-$(guest_image "$kdir")} || return 1
	prep=${img%.img}-prepared.img
	if [ -f "$prep" ]; then
		echo "$prep"
		return 0
	fi
	(
		flock 8
		[ -f "$prep" ] && exit 0
		log=$KDUMP_FILE_OUT/prepare-$(basename "$img" .img).log
		mkdir -p "$KDUMP_FILE_OUT"
		rm -f "$log"
		cp --sparse=always "$img" "$prep.tmp"
		kernel=$kdir/bzImage
		initrd=()
		[ "$flavour" = ours ] || stock_boot
		qemu_boot "$log" 1500 bios 1024 "$kernel" \
			"root=/dev/vda rw console=ttyS0 crashkernel=256M panic=-1 kdump_file_test=$step" \
			"$prep.tmp" "${initrd[@]}" || true
		if ! grep -q "KDUMP-FILE-TEST: prepared: 1" "$log"; then
			echo "guest_image_prepared: the preparing boot failed; see $log" >&2
			rm -f "$prep.tmp"
			exit 1
		fi
		mv "$prep.tmp" "$prep"
	) 8>"$KDUMP_FILE_CACHE/guest/.prepare.lock" >&2 || return 1
	echo "$prep"
}

# disk_put_file DISK LOCAL GUESTPATH: replace a root-owned 0644 file in an
# ext4 image (not mounted).
disk_put_file() {
	local disk=$1 local=$2 path=$3
	debugfs -w -f - "$disk" >/dev/null 2>&1 <<EOC
rm $path
write $local $path
sif $path mode 0100644
sif $path uid 0
sif $path gid 0
EOC
	debugfs -R "cat $path" "$disk" 2>/dev/null | cmp -s - "$local"
}

# make_disk IMG SIZE LABEL [DIR]: an ext4 data disk, filled from DIR.
make_disk() {
	local img=$1 size=$2 label=$3 dir=${4:-}
	rm -f "$img"
	truncate -s "$size" "$img"
	if [ -n "$dir" ]; then
		mkfs.ext4 -q -F -L "$label" -d "$dir" "$img"
	else
		mkfs.ext4 -q -F -L "$label" "$img"
	fi
}

# The lines of a config file for the guest, written to OUT.
guest_conf() {
	local out=$1
	shift
	printf '%s\n' "# written by the test" "$@" >"$out"
}

# crash_boot LOG DISK [QEMU ARGS...]: boot the prepared guest, which loads
# kdump-file at boot, and crash it (or run CRASH_STEP); CRASH_APPEND adds
# kernel parameters, CRASH_FW=uefi boots it under OVMF, CRASH_TIMEOUT
# replaces its 600 s (a guest that reboots in place boots twice).  Returns
# QEMU's status.
crash_boot() {
	local log=$1 disk=$2
	shift 2
	qemu_boot "$log" "${CRASH_TIMEOUT:-600}" "${CRASH_FW:-bios}" 1024 "$kdir/bzImage" \
		"root=/dev/vda rw console=ttyS0 crashkernel=256M panic=-1 kdump_file_test=${CRASH_STEP:-crash-loaded}${CRASH_APPEND:+ $CRASH_APPEND}" \
		"$disk" "$@"
}

# status_boot LOG DISK [QEMU ARGS...]: boot the prepared guest once more,
# without crashing it, for "kdump-file status" with the dump target mounted
# (the guest step status-mounted; STATUS_STEP=status: not mounted).
# Returns QEMU's status.
status_boot() {
	local log=$1 disk=$2
	shift 2
	qemu_boot "$log" 600 bios 1024 "$kdir/bzImage" \
		"root=/dev/vda rw console=ttyS0 panic=-1 kdump_file_test=${STATUS_STEP:-status-mounted}" \
		"$disk" "$@"
}

# qemu_watch LOG PATTERN SECONDS: wait until the console of a running guest
# (LOG.serial while qemu_boot runs) shows PATTERN; 1 when it did not in time.
qemu_watch() {
	local log=$1 pattern=$2 secs=$3 i
	for ((i = 0; i < secs * 10; i++)); do
		if grep -q -- "$pattern" "$log.serial" 2>/dev/null; then
			return 0
		fi
		sleep 0.1
	done
	return 1
}

# Captures that cannot start or cannot save (scenario-lost.sh,
# TEST-13-PURGATORY): the machine must come back by itself, and the next
# boot say why from pstore.
#
# The hardware watchdog: QEMU's i6300esb, its expiry a reset (QEMU's end
# under -no-reboot).  A guest step keeps it running in the crashed system
# (watchdog_run in guest-steps/lost.sh), so that it resets a machine whose
# capture kernel never starts or hangs.
# shellcheck disable=SC2034 # for the scenarios
WATCHDOG_QEMU=(-device i6300esb -action watchdog=reset)
# pstore in RAM, for SeaBIOS (no EFI variables): 1 MiB at 256 MiB kept from
# both kernels (memmap=SIZE$ADDRESS) and ramoops there.  Its records
# outlive only a reboot in place (KDUMP_FILE_REBOOT_IN_PLACE=1: the RAM
# kept).
# shellcheck disable=SC2016,SC2034 # the $ is the kernel's; for the scenarios
RAMOOPS_APPEND='memmap=1M$0x10000000 ramoops.mem_address=0x10000000 ramoops.mem_size=0x100000 ramoops.record_size=0x20000'

# crash_timed LOG COMMAND...: run COMMAND, a boot that logs to LOG
# (qemu_boot, crash_boot), and time what follows the guest's
# "KDUMP-FILE-TEST: crashing", in seconds: to the next kernel banner (a
# capture kernel's, or the guest's own after a reset in place) in
# LOG.crash-to-banner, to QEMU's end in LOG.crash-to-end; neither file
# when the guest did not crash.  Returns COMMAND's status.
crash_timed() {
	local log=$1 rc=0 w
	shift
	rm -f "$log.crashed" "$log.crash-to-banner" "$log.crash-to-end"
	(
		qemu_watch "$log" "KDUMP-FILE-TEST: crashing" 1500 || exit 0
		t=$(date +%s)
		echo "$t" >"$log.crashed"
		# The banners so far; the next one is after the crash.
		n=$(grep -c "Linux version" "$log.serial" 2>/dev/null) || n=0
		for ((i = 0; i < 3000; i++)); do
			m=$(grep -c "Linux version" "$log.serial" 2>/dev/null) || m=0
			if [ "$m" -gt "$n" ]; then
				echo $(($(date +%s) - t)) >"$log.crash-to-banner"
				exit 0
			fi
			sleep 0.5
		done
	) &
	w=$!
	"$@" || rc=$?
	kill "$w" 2>/dev/null || true
	wait "$w" 2>/dev/null || true
	if [ -f "$log.crashed" ]; then
		echo $(($(date +%s) - $(cat "$log.crashed"))) >"$log.crash-to-end"
	fi
	return "$rc"
}

# qemu_ready LOG PATTERN PID SECONDS: wait until the console of the guest
# that qemu_boot runs in the background as PID shows PATTERN; 1 when it
# did not within SECONDS, or QEMU ended first.
qemu_ready() {
	local log=$1 pattern=$2 pid=$3 secs=$4 i
	for ((i = 0; i < secs; i++)); do
		grep -q -- "$pattern" "$log.serial" 2>/dev/null && return 0
		kill -0 "$pid" 2>/dev/null || break
		sleep 1
	done
	grep -q -- "$pattern" "$log.serial" 2>/dev/null
}

# capture_fault CONSOLE_LOG: the capture kernel's (the second "Linux
# version" of the log) last OOM or panic line, for the crashkernel= benches.
capture_fault() {
	awk '/Linux version/ { k++ } k >= 2 && /Out of memory|Kernel panic/ { l = $0 } END { print l }' "$1" 2>/dev/null
}

# qmp SOCKET COMMAND: send one QMP command without arguments (e.g.
# inject-nmi) to a guest; see qmp_exec.
qmp() {
	qmp_exec "$1" 30 "{\"execute\": \"$2\"}" >/dev/null
}

# qmp_exec SOCKET SECONDS COMMAND...: run QMP commands, each a JSON object
# ({"execute": ..., "arguments": ...}), on a running guest's QMP socket, in
# one session; print the "return" of each on a line of its own, as JSON.
# Every exchange (the connection and the greeting included) has SECONDS to
# finish.  On an error reply, a timeout or a closed socket: a message on
# stderr naming the command and the cause, and status 1.
qmp_exec() {
	python3 - "$@" <<'PY'
import json, socket, sys

path, secs, cmds = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
what = "connecting to " + path
try:
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(secs)
    s.connect(path)
    f = s.makefile("rw")

    def reply():
        # Events (hotplug, ACPI) may come before the answer: skip them.
        while True:
            line = f.readline()
            if not line:
                raise EOFError("QEMU closed the socket")
            r = json.loads(line)
            if "return" in r or "error" in r or "QMP" in r:
                return r

    what = "the QMP greeting"
    reply()
    for cmd in ['{"execute": "qmp_capabilities"}'] + cmds:
        req = json.loads(cmd)
        what = req.get("execute", cmd)
        f.write(json.dumps(req) + "\n")
        f.flush()
        r = reply()
        if "error" in r:
            sys.exit("qmp: %s: %s: %s" % (what, r["error"].get("class"),
                                          r["error"].get("desc")))
        if what != "qmp_capabilities":
            print(json.dumps(r["return"]))
except socket.timeout:
    sys.exit("qmp: %s: no answer within %g s" % (what, secs))
except (OSError, EOFError, ValueError) as e:
    sys.exit("qmp: %s: %s" % (what, e))
PY
}

# The network scenarios (test/TEST-3N-NET-*): one collector guest (Debian's
# stock kernel, sshd, the NFS server; guest-image.sh --collector) and
# clients, each on a link of its own to the collector: QEMU stream netdevs
# on the host's loopback, the collector listening on port PORTS+N for
# client N (7.2's stream netdev has no reconnect: the collector starts
# first).  Link N: collector 10.0.N.1 (MAC 52:54:00:00:0N:01), client
# 10.0.N.2 (MAC 52:54:00:00:0N:02), at most 9 clients.  The guest steps are
# in test/lib/guest-steps/net.sh.

# Four guests on two host cores: a guest's early boot can see so few timer
# ticks that the kernel's IO-APIC timer check fails ("IO-APIC + timer
# doesn't work!", arch/x86/kernel/apic/io_apic.c check_timer()), which is
# not what these scenarios test; no_timer_check skips it, as it does for
# virtual machines under KVM.
NET_APPEND=no_timer_check

collector_image() {
	"$KDUMP_FILE_LIB/guest-image.sh" --collector
}

# net_client_image FLAVOUR: set img, the clients' image on kernel FLAVOUR,
# and for ours kdir and vmlinux (for stock, stock_vmlinux gives it when the
# checks need it); 1 for another FLAVOUR.
net_client_image() {
	case "$1" in
	ours)
		kdir=$(kernel_dir)
		img=$(guest_image "$kdir")
		vmlinux=$kdir/vmlinux
		;;
	stock) img=$(stock_image) ;;
	*) return 1 ;;
	esac
}

# net_ports NUMBER: the base port of scenario NUMBER (40000 + 100 * NUMBER),
# so that scenarios running side by side never share a port.
net_ports() {
	echo $((40000 + 100 * 10#$1))
}

# net_machine_id N FLAVOUR: the fixed machine ID of client N on kernel
# FLAVOUR (ours or stock), and net_hostdir N FLAVOUR: its host dir on the
# collector (HOSTNAME-MID12, the design's name).
net_machine_id() {
	local f=0
	[ "$2" = ours ] || f=5
	printf 'c%d%d%029d\n' "$1" "$f" 0
}

net_hostdir() {
	local id
	id=$(net_machine_id "$1" "$2")
	echo "client-$1-$2-${id:0:12}"
}

# disk_put_secret DISK LOCAL GUESTPATH: a root-owned 0600 file in a 0700
# directory (made if missing) of an ext4 image (not mounted).
disk_put_secret() {
	local disk=$1 local=$2 path=$3
	debugfs -w -f - "$disk" >/dev/null 2>&1 <<EOC
mkdir ${path%/*}
sif ${path%/*} mode 040700
rm $path
write $local $path
sif $path mode 0100600
sif $path uid 0
sif $path gid 0
EOC
	debugfs -R "cat $path" "$disk" 2>/dev/null | cmp -s - "$local"
}

# net_client_disk IMAGE DISK N FLAVOUR [COLLECTOR]: client N's own copy of
# IMAGE, with its host name (client-N-FLAVOUR), machine ID, /etc/hosts
# naming the collector (COLLECTOR, its address, default 10.0.N.1), and the
# administrator's key as /root/.ssh/id_ed25519.
net_client_disk() {
	local img=$1 disk=$2 n=$3 flavour=$4 collector=${5:-10.0.$3.1} keys tmp name
	keys=$("$KDUMP_FILE_LIB/net-keys.sh")
	name=client-$n-$flavour
	tmp=$(mktemp -d)
	scenario_disk "$img" "$disk"
	echo "$name" >"$tmp/hostname"
	net_machine_id "$n" "$flavour" >"$tmp/machine-id"
	printf '127.0.0.1\tlocalhost\n127.0.1.1\t%s\n%s\tcollector\n' "$name" "$collector" >"$tmp/hosts"
	if ! { disk_put_file "$disk" "$tmp/hostname" /etc/hostname &&
		disk_put_file "$disk" "$tmp/machine-id" /etc/machine-id &&
		disk_put_file "$disk" "$tmp/hosts" /etc/hosts &&
		disk_put_secret "$disk" "$keys/admin_ed25519" /root/.ssh/id_ed25519; }; then
		fail "cannot give $name its identity on $disk"
	fi
	rm -rf "$tmp"
}

# net_alive PID: whether a background job of this shell still runs.
net_alive() {
	kill -0 "$1" 2>/dev/null
}

# net_collector_start LOG DISK PORTS CLIENTS EXPECT LIMIT [APPEND]: boot the
# collector in the background (QEMU's job in collector_pid, its QMP socket
# LOG.qmp) with CLIENTS links; it waits for the clients EXPECT names (host
# names, comma-separated) to say they are done, at most LIMIT seconds.
# APPEND adds kernel parameters (kdump_file_net_link=).  Returns once it
# said "collector ready"; 1 when it did not within 15 minutes or ended
# before.
net_collector_start() {
	local log=$1 disk=$2 ports=$3 clients=$4 expect=$5 limit=$6 append=${7:-} base rel n i
	local -a args=(-qmp "unix:$log.qmp,server=on,wait=off")
	base=$("$KDUMP_FILE_LIB/collector-base.sh") || return 1
	rel=$(stock_release) || return 1
	for ((n = 1; n <= clients; n++)); do
		args+=(-netdev "stream,id=n$n,server=on,addr.type=inet,addr.host=127.0.0.1,addr.port=$((ports + n))"
			-device "virtio-net-pci,netdev=n$n,mac=52:54:00:00:0$n:01")
	done
	KDUMP_FILE_QEMU_SMP=1 qemu_boot "$log" $((limit + 900)) bios 768 "$base/boot/vmlinuz-$rel" \
		"root=/dev/vda rw console=ttyS0 panic=-1 $NET_APPEND kdump_file_test=net-collector kdump_file_net_clients=$clients kdump_file_net_expect=$expect kdump_file_net_limit=$limit${append:+ $append}" \
		"$disk" -initrd "$base/boot/initrd.img-$rel" "${args[@]}" &
	collector_pid=$!
	for ((i = 0; i < 900; i++)); do
		grep -q "KDUMP-FILE-TEST: collector ready" "$log.serial" 2>/dev/null && return 0
		net_alive "$collector_pid" || return 1
		sleep 1
	done
	return 1
}

# net_collector_up LOG DISK PORTS CLIENTS EXPECT LIMIT [APPEND]: set t0
# (the clock of the scenario's log lines), net_collector_start, and the
# check that the collector is ready; when it is not, the scenario ends.
net_collector_up() {
	t0=$(date +%s)
	if ! net_collector_start "$@"; then
		fail "the collector said it is ready"
		net_collector_stop "$1" 0 || true
		rm -f "$2"
		finish
		exit 1
	fi
	pass "the collector is ready after $(($(date +%s) - t0)) s"
}

# net_collector_end LOG: once the clients ended, the collector's end
# (net_collector_stop) and the checks that it stopped by itself, every
# client done.
net_collector_end() {
	local rc=0
	log "the clients ended after $(($(date +%s) - t0)) s"
	net_collector_stop "$1" 300 || rc=$?
	log "the collector ended after $(($(date +%s) - t0)) s"
	check_ended "$rc" "the collector stopped by itself"
	check "the collector saw every client done" \
		grep -q "KDUMP-FILE-TEST: collector: all clients done" "$1"
}

# net_collector_stop LOG [SECONDS]: wait (SECONDS, default 300) for the
# collector to stop by itself, then press its power button, then quit QEMU;
# returns qemu_boot's status (124: it did not stop by itself).
net_collector_stop() {
	local log=$1 secs=${2:-300} i rc=0 how=
	for ((i = 0; i < secs; i++)); do
		net_alive "$collector_pid" || break
		sleep 1
	done
	if net_alive "$collector_pid"; then
		how=124
		log "the collector did not stop by itself: power button"
		qmp "$log.qmp" system_powerdown || true
		for ((i = 0; i < 120; i++)); do
			net_alive "$collector_pid" || break
			sleep 1
		done
		net_alive "$collector_pid" && { qmp "$log.qmp" quit || true; }
	fi
	wait "$collector_pid" || rc=$?
	return "${how:-$rc}"
}

# net_link LOG N up|down: set the link of netdev nN of the guest whose
# QMP socket is LOG.qmp (QMP set_link): on the collector's link N, down,
# the collector is unreachable for client N while both guests run on.
net_link() {
	local up=false
	[ "$3" = down ] || up=true
	qmp_exec "$1.qmp" 30 "{\"execute\": \"set_link\", \"arguments\": {\"name\": \"n$2\", \"up\": $up}}" >/dev/null
}

# net_client_boot LOG DISK N FLAVOUR PORTS STEP [APPEND [QEMU ARGS...]]:
# boot client N (kernel FLAVOUR: ours from kdir, or Debian's stock one),
# running guest step STEP; APPEND adds kernel parameters
# (kdump_file_net_*=).  Its NICs are QEMU ARGS, or without them one NIC on
# the collector's link N.  Returns qemu_boot's status.
# KDUMP_FILE_NET_CRASHKERNEL replaces the clients' crashkernel=256M (the
# benchmark of the network targets' reservation).
net_client_boot() {
	local log=$1 disk=$2 n=$3 flavour=$4 ports=$5 step=$6 append=${7:-}
	local kernel initrd=() nics
	shift $(($# < 7 ? $# : 7))
	nics=("$@")
	[ "${#nics[@]}" -gt 0 ] ||
		nics=(-netdev "stream,id=n0,server=off,addr.type=inet,addr.host=127.0.0.1,addr.port=$((ports + n))"
			-device "virtio-net-pci,netdev=n0,mac=52:54:00:00:0$n:02")
	if [ "$flavour" = ours ]; then
		kernel=$kdir/bzImage
	else
		stock_boot
	fi
	KDUMP_FILE_QEMU_SMP=1 qemu_boot "$log" "${KDUMP_FILE_BOOT_TIMEOUT:-1500}" bios 1024 "$kernel" \
		"root=/dev/vda rw console=ttyS0 crashkernel=${KDUMP_FILE_NET_CRASHKERNEL:-256M} panic=-1 $NET_APPEND kdump_file_test=$step${append:+ $append}" \
		"$disk" "${initrd[@]}" "${nics[@]}"
}

# net_client_run N FLAVOUR PORTS APPEND [QEMU ARGS...]: both boots of
# client N, the crash (guest step net-crash) and the boot after it
# (net-after), with logs $out/client-N.log and $out/client-N-after.log and
# their statuses in $out/client-N.rc and client-N-after.rc; QEMU ARGS are
# its NICs (net_client_boot); for running in the background.
net_client_run() {
	local n=$1 flavour=$2 ports=$3 append=$4 rc=0
	shift 4
	net_client_boot "$out/client-$n.log" "$out/client-$n.img" "$n" "$flavour" "$ports" \
		net-crash "$append" "$@" || rc=$?
	echo "$rc" >"$out/client-$n.rc"
	rc=0
	net_client_boot "$out/client-$n-after.log" "$out/client-$n.img" "$n" "$flavour" "$ports" \
		net-after "$append" "$@" || rc=$?
	echo "$rc" >"$out/client-$n-after.rc"
}

# run_output LOG COMMAND: what the guest driver's "run COMMAND" printed in
# LOG (its last run), without the driver's prefix.
run_output() {
	awk -v cmd="$2" '
		$0 == "KDUMP-FILE-TEST: run: " cmd { n = 0; on = 1; next }
		on && sub(/^KDUMP-FILE-TEST: rc=[0-9]+: /, "") && $0 == cmd { on = 0 }
		on && index($0, "KDUMP-FILE-TEST:   ") == 1 { out[n++] = substr($0, 20) }
		END { for (i = 0; i < n; i++) print out[i] }' "$1"
}
export -f run_output

# net_collector_dump DISK DIR DEST: the check that DIR on the collector's
# disk holds exactly one dump, copied to DEST; 1 when there is not one.
net_collector_dump() {
	local -a dirs
	mapfile -t dirs < <(dump_dirs "$1" "$2")
	check "one dump in the collector's $2 (${dirs[*]})" test "${#dirs[@]}" -eq 1
	[ "${#dirs[@]}" -eq 1 ] || return 1
	dump_fetch "$1" "$2" "${dirs[0]}" "$3"
}

# What the network scenarios expect the product to print, in one place: the
# guest driver's lines ("KDUMP-FILE-TEST: rc=N: COMMAND", "KDUMP-FILE-TEST:   "
# before each line a command printed) and the capture's own.
P_PROPAGATE_OK='KDUMP-FILE-TEST: rc=0: kdump-file propagate'
P_PINNED='KDUMP-FILE-TEST:   collector ssh-ed25519 '
P_RESTART_OK='KDUMP-FILE-TEST: rc=0: systemctl restart kdump-file'
P_UNIT_LOADED='KDUMP-FILE-TEST: net: unit: is-active active loaded 1'
P_CAPTURE_DONE='kdump-file: .*capture complete'
P_REFUSED='kdump-file-receive: refused'
P_LIST_LINE='KDUMP-FILE-TEST: net: key: list: [0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9:]{8}(-[0-9]+)? complete [0-9]+ '
# 0: loaded (the unit loaded at boot).
P_STATUS_OK='KDUMP-FILE-TEST: rc=0: kdump-file status'
P_LIST_OK='KDUMP-FILE-TEST: rc=0: kdump-file list'

# net_client_checks N FLAVOUR TARGET COLLECTOR ADDRESS CDISK VMLINUX: the
# checks of client N on kernel FLAVOUR, dumping to TARGET (ssh, nfs4 or
# nfs3) on the collector at address COLLECTOR, its own address ADDRESS
# (with its prefix length, as ip prints it): its consoles
# $out/client-N.log and client-N-after.log, and its dump on the collector's
# disk CDISK, opened in crash with VMLINUX.  Removes the client's disk.
net_client_checks() {
	local n=$1 flavour=$2 target=$3 collector=$4 address=$5 cdisk=$6 vmlinux=$7
	local name=client-$n-$flavour con=$out/client-$n.log after=$out/client-$n-after.log
	local hostdir re host=/32 kind unit id sig loc dir d what
	hostdir=$(net_hostdir "$n" "$flavour")
	re=${collector//./[.]}
	[ "${collector#*:}" = "$collector" ] || host=/128
	check_ended "$(cat "$out/client-$n.rc" 2>/dev/null || echo 124)" "$name: the crash boot ended by itself"
	check_ended "$(cat "$out/client-$n-after.rc" 2>/dev/null || echo 124)" "$name: the boot after ended by itself"
	check "$name: its address $address" grep -q "KDUMP-FILE-TEST: net: .* $address after" "$con"
	check "$name: the collector answers ping" grep -q "KDUMP-FILE-TEST: net: ping collector: ok" "$con"
	if [ "$target" = ssh ]; then
		check "$name: propagate exits 0" grep -q "$P_PROPAGATE_OK" "$con"
		check "$name: the collector's host key is pinned" grep -q "$P_PINNED" "$con"
		# Exit 1, kdump-file-receive's refusal; 255 would be ssh's own
		# failure.
		for what in "sh -c id" "ls /srv/dumps" "another host's dump" "an absolute path"; do
			check "$name: the key may not run '$what'" \
				grep -qx "KDUMP-FILE-TEST: net: key: $what: rc=1" "$con"
		done
		check "$name: the key's refusals are the forced command's" \
			test "$(grep -c "KDUMP-FILE-TEST: net: key: .*$P_REFUSED" "$con")" -ge 2
		check "$name: the key may list" grep -q "KDUMP-FILE-TEST: net: key: list: rc=0" "$con"
		check "$name: after the crash the key lists one dump, its own" \
			test "$(grep -cE "$P_LIST_LINE" "$after")" -eq 1
		check "$name: the key never lists another machine's dump" \
			bash -c "! grep -q 'net: key: list: 2026-01-01-00:00:00' '$con' '$after'"
	fi
	kind=${target%[34]}
	check "$name: systemctl restart kdump-file exits 0" grep -q "$P_RESTART_OK" "$con"
	# The sandbox reload of "systemctl restart" after the target changed.
	check "$name: restart reloaded the units for the network sandbox" \
		grep -qE "KDUMP-FILE-TEST: net: unit journal: kdump-file: dump target .* needs the sandbox '$kind $re', and this unit was made with 'local': reloading" "$con"
	check "$name: loaded through the unit" grep -q "$P_UNIT_LOADED" "$con"
	unit=$(grep "KDUMP-FILE-TEST: net: unit: .*PrivateNetwork=" "$con" | head -n 1)
	check "$name: the unit's sandbox reaches the collector alone ($unit)" \
		bash -c "grep -q 'KDUMP_FILE_SANDBOX=$kind $collector\"' <<<'$unit' && grep -q ' PrivateNetwork=no ' <<<'$unit' &&
			grep -q ' IPAddressAllow=$collector$host ' <<<'$unit'"
	check "$name: at the next boot the unit loaded" grep -q "$P_UNIT_LOADED" "$after"
	# shellcheck disable=SC2016 # awk's fields
	check "$name: ...before multi-user.target" \
		awk '/KDUMP-FILE-TEST: net: unit: entered/ { ok = $5 > 0 && $5 <= $9 } END { exit !ok }' "$after"
	check "$name: status at the next boot: protected" \
		bash -c "run_output '$after' 'kdump-file status' | grep -q '^loaded: *yes' && ! run_output '$after' 'kdump-file status' | grep -q 'NOT PROTECTED'"
	check "$name: loaded, crashing" grep -q "KDUMP-FILE-TEST: loaded ok" "$con"
	check "$name: capture complete" grep -q "$P_CAPTURE_DONE" "$con"
	check "$name: status after the crash runs" grep -q "$P_STATUS_OK" "$after"
	check "$name: status shows the dump on the collector, complete" \
		grep -qE "KDUMP-FILE-TEST:   last dump: +[0-9a-f]{8} (collector:|\[?$re\]?:)?/srv/[a-z]+/$hostdir/.*: complete" "$after"
	check "$name: list after the crash exits 0" grep -q "$P_LIST_OK" "$after"
	# The dump on the collector reported here, from the copy of its kernel
	# log the report unit made: one journal entry naming it there, and
	# its signature in list and status.
	id=$(sed -n 's/.*net: crash entry: *KDUMP_FILE_CRASH_ID=\([0-9a-f]\{8\}\)$/\1/p' "$after" | head -n 1)
	sig=$(sed -n 's/.*net: crash entry: *KDUMP_FILE_SIGNATURE=\([0-9a-f]\{16\}\)$/\1/p' "$after" | head -n 1)
	case "$target" in
	ssh) loc=ssh://kdump@collector/srv/dumps/$hostdir/ dir=/srv/dumps/$hostdir ;;
	*) loc=nfs://collector/srv/nfs/$hostdir/ dir=/srv/nfs/$hostdir ;;
	esac
	check "$name: its crash entry in the journal names the dump on the collector (${id:-no ID}, ${sig:-no signature})" \
		bash -c "[ -n '$id' ] && [ -n '$sig' ] && [ \"\$(grep -c 'net: crash entry: *MESSAGE_ID=' '$after')\" = 1 ] &&
			grep -q 'net: crash entry: *KDUMP_FILE_DUMP_DIR=$loc' '$after'"
	check "$name: list shows its signature, with the entry's ID" \
		bash -c "[ -n '$id' ] && [ -n '$sig' ] && run_output '$after' 'kdump-file list' | grep -qE '^$id  .*  $sig  .*complete'"
	check "$name: info shows its signature" \
		bash -c "[ -n '$sig' ] && run_output '$after' 'kdump-file info' | grep -q '^signature: *$sig\$'"
	check "$name: status shows its report" \
		bash -c "[ -n '$sig' ] && run_output '$after' 'kdump-file status' | grep -q '^report: *crash $sig: '"
	check "$name: told the collector it is done" \
		grep -q "KDUMP-FILE-TEST: net: told the collector this client is done" "$after"
	check "$name: no local dump" bash -c "! grep -q 'KDUMP-FILE-TEST: net: local dump' '$after'"
	if net_collector_dump "$cdisk" "$dir" "$out/dump-$n"; then
		d=$(dump_dirs "$cdisk" "$dir")
		check "$name: its dump directory on the collector is 0700" \
			test "$(file_mode "$cdisk" "$dir/$d")" = 0700
		check_dump "$name" "$vmlinux" "$out/dump-$n"
	fi
	rm -f "$out/client-$n.img"
}

# The analysis tool as built in this tree.
export ANALYZE=$KDUMP_FILE_TOP/analysis/build/kdump-file-analyze
