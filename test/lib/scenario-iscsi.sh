#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Dumps on an iSCSI LUN, on Debian's stock kernel: two guests on
# san-base.sh's rootfs, their NICs joined by a QEMU stream netdev on the
# host's loopback (the target listening on port PORTS+1).  The target
# (512 MiB, one vCPU) serves its second disk, $out/lun.img (512 MiB,
# sparse), as LUN 1 of iqn.2026-12.test.kdump-file:dumps with tgtd.  The
# client (1024 MiB, crashkernel=256M) gives its NIC 10.0.43.2/24 with
# systemd-networkd, logs in with open-iscsi, puts /var/crash on ext4 on
# the LUN (fstab: _netdev,nofail), enables kdump-file and crashes; the
# capture kernel brings the NIC up, logs in with iscsistart and saves to
# the LUN, and reboots (QEMU ends).  The client boots once more:
# open-iscsi logs in by itself, fstab mounts /var/crash, kdump-file.service
# loads at boot, after that mount, and lists the dump.  The host then
# stops the target with its power button and reads the dump out of the
# LUN's image.
#
#   scenario-iscsi.sh NAME NUMBER
#
# NUMBER: the scenario's number, for its ports (net_ports).
# KDUMP_FILE_LAYOUT_CRASHKERNEL: the client's crashkernel= (256M), for
# test/bench/layout-crashkernel.sh.  The guest
# steps are in test/lib/guest-steps/iscsi.sh.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/common.sh"

scenario_out "$1"
ports=$(net_ports "$2")
iqn=iqn.2026-12.test.kdump-file:dumps
log "iSCSI target on 127.0.0.1:$((ports + 1)), stock kernel, SeaBIOS; output in $out"

img=$("$KDUMP_FILE_LIB/guest-image.sh" --stock "$("$KDUMP_FILE_LIB/san-base.sh")")
stock_boot
tdisk=$out/target.img
cdisk=$out/client.img
lun=$out/lun.img
scenario_disk "$img" "$tdisk"
scenario_disk "$img" "$cdisk"
truncate -s 512M "$lun"
tlog=$out/target.log
con=$out/console.log

# The target serves at most this long (s), then stops by itself.
limit=2400

# iscsi_target_start: boot the target in the background (QEMU's job in
# target_pid, its QMP socket $tlog.qmp); returns once it said "iscsi
# target ready", 1 when it did not within 15 minutes or ended before.
iscsi_target_start() {
	KDUMP_FILE_QEMU_SMP=1 qemu_boot "$tlog" $((limit + 900)) bios 512 "$kernel" \
		"root=/dev/vda rw console=ttyS0 panic=-1 $NET_APPEND kdump_file_test=iscsi-target kdump_file_iscsi_limit=$limit" \
		"$tdisk" "${initrd[@]}" -qmp "unix:$tlog.qmp,server=on,wait=off" \
		-drive "file=$lun,format=raw,if=virtio" \
		-netdev "stream,id=n1,server=on,addr.type=inet,addr.host=127.0.0.1,addr.port=$((ports + 1))" \
		-device "virtio-net-pci,netdev=n1,mac=52:54:00:00:43:01" &
	target_pid=$!
	qemu_ready "$tlog" "KDUMP-FILE-TEST: iscsi target ready" "$target_pid" 900
}

# iscsi_target_stop [SECONDS]: wait SECONDS (default 5) for the target to
# stop by itself, then press its power button: its shutdown stops tgtd
# and writes its LUN's last writes to the image; then, should it still run
# after 120 s, quit QEMU.  Returns qemu_boot's status, 124 when QEMU had to
# be quit.
iscsi_target_stop() {
	local secs=${1:-5} i rc=0 how=
	for ((i = 0; i < secs; i++)); do
		net_alive "$target_pid" || break
		sleep 1
	done
	if net_alive "$target_pid"; then
		qmp "$tlog.qmp" system_powerdown || true
		for ((i = 0; i < 120; i++)); do
			net_alive "$target_pid" || break
			sleep 1
		done
		if net_alive "$target_pid"; then
			how=124
			log "the target did not shut down at the power button: quit"
			qmp "$tlog.qmp" quit || true
		fi
	fi
	wait "$target_pid" || rc=$?
	return "${how:-$rc}"
}

# client_boot LOG STEP: one boot of the client running STEP, its NIC on
# the target's link; the check that it ended by itself.
client_boot() {
	local rc=0
	qemu_boot "$1" "${KDUMP_FILE_BOOT_TIMEOUT:-1500}" bios 1024 "$kernel" \
		"root=/dev/vda rw console=ttyS0 crashkernel=${KDUMP_FILE_LAYOUT_CRASHKERNEL:-256M} panic=-1 $NET_APPEND kdump_file_test=$2" \
		"$cdisk" "${initrd[@]}" \
		-netdev "stream,id=n0,server=off,addr.type=inet,addr.host=127.0.0.1,addr.port=$((ports + 1))" \
		-device "virtio-net-pci,netdev=n0,mac=52:54:00:00:43:02" || rc=$?
	check_ended "$rc" "the client's boot $2 ended by itself (no timeout)"
	log "the client's boot $2 ended after $(($(date +%s) - t0)) s"
}

t0=$(date +%s)
if ! iscsi_target_start; then
	fail "the iSCSI target said it is ready"
	iscsi_target_stop 0 || true
	finish
	exit 1
fi
pass "the iSCSI target is ready after $(($(date +%s) - t0)) s"

after=$out/after.log
client_boot "$con" layout-iscsi
client_boot "$after" layout-iscsi-after
rc=0
iscsi_target_stop || rc=$?
log "the target ended after $(($(date +%s) - t0)) s"
check "the target shut down at the power button" test "$rc" -ne 124
check "the target stopped serving cleanly" grep -q "KDUMP-FILE-TEST: iscsi target: stopped" "$tlog"
log "target: $(grep -o 'iscsi target: after .*' "$tlog" | tr '\n' ';')"

# The setup: the client reached the target, logged in, and mounted
# /var/crash from the LUN.
b=$con
initiator=$(sed -n 's/.*KDUMP-FILE-TEST: iscsi initiator: //p' "$b" | head -n 1)
disk=$(sed -n 's/.*KDUMP-FILE-TEST: iscsi disk: //p' "$b" | head -n 1)
log "client: initiator ${initiator:-none}, LUN 1 as ${disk:-no disk}; $(grep -m1 -o 'iscsi: /var/crash on .*' "$b" || echo '/var/crash not mounted')"
check "client: its address 10.0.43.2/24" grep -qE "KDUMP-FILE-TEST: iscsi: net: [^ ]+ 10\.0\.43\.2/24 after" "$b"
check "client: discovery finds the target" \
	grep -qE "KDUMP-FILE-TEST:   10\.0\.43\.1:3260,1 ${iqn//./\\.}\$" "$b"
check "client: logged in" grep -q "KDUMP-FILE-TEST: iscsi target: $iqn\$" "$b"
check "client: the target saw it log in" \
	grep -qE "KDUMP-FILE-TEST: iscsi target: after [0-9]+ s, initiators: nexus [0-9]+ 10\.0\.43\.2 ${initiator:-none}" "$tlog"
check "client: the LUN is a SCSI disk" test -n "$disk"
check "client: /var/crash mounted from the LUN" \
	grep -qE "KDUMP-FILE-TEST: iscsi: /var/crash on /dev/${disk:-none} +ext4" "$b"
refusal=$(grep -m1 -E 'KDUMP-FILE-TEST: service: .*error' "$b" | sed 's/.*KDUMP-FILE-TEST: service: //') || true
log "kdump-file.service: ${refusal:-no error}"

# What the product says of it, and the capture.
check "kdump-file.service active" grep -q "KDUMP-FILE-TEST: is-active: active" "$b"
check "show: the login to the target" \
	grep -qE "KDUMP-FILE-TEST: +log in to iSCSI target ${iqn//./\\.} at 10\.0\.43\.1:3260 " "$b"
check "show: iscsi_tcp loaded for the session" \
	grep -qE "KDUMP-FILE-TEST: +module iscsi_tcp +iSCSI over TCP" "$b"
check "capture: the network up" grep -qE "kdump-file: .* network up in " "$b"
check "capture: logged in to the target" \
	grep -qE "kdump-file: .* logged in to iSCSI target ${iqn//./\\.} at 10\.0\.43\.1:3260" "$b"
check "capture: ext4 mounted from the LUN's disk" \
	grep -qE "kdump-file: .* mounted UUID=.* \(/dev/sd[a-z]+, ext4\)" "$b"
check "capture completed" grep -q "kdump-file: .* capture complete" "$b"
modules=$(sed -n 's/.*kdump-file: .* modules loaded: //p' "$b" | tail -n 1)
log "the capture loaded: ${modules:-nothing}"
# The crash boot's login, the capture's and the next boot's: the target
# lists each as a new I_T nexus.
check "the target saw the capture log in (the second nexus)" \
	grep -qE "KDUMP-FILE-TEST: iscsi target: after [0-9]+ s, initiators: .*nexus 2 10\.0\.43\.2 " "$tlog"
check "the target saw the next boot log in (the third nexus)" \
	grep -qE "KDUMP-FILE-TEST: iscsi target: after [0-9]+ s, initiators: .*nexus 3 10\.0\.43\.2 " "$tlog"

# The next boot: the login and the mount by themselves, the load at boot
# after that mount, the dump listed.
f=$after
log "next boot: $(grep -m1 -oE 'iscsi after: /var/crash (mounted|not mounted) after [0-9]+ s' "$f" || echo 'no /var/crash line')"
check "next boot: open-iscsi.service logged in by itself" \
	grep -qE "KDUMP-FILE-TEST:   tcp: \[[0-9]+\] 10\.0\.43\.1:3260,1 ${iqn//./\\.} " "$f"
check "next boot: /var/crash mounted from the LUN by its fstab line" \
	grep -qE "KDUMP-FILE-TEST: iscsi after: /var/crash on /dev/sd[a-z]+ +ext4" "$f"
times=$(sed -n 's/.*KDUMP-FILE-TEST: iscsi after: var-crash.mount active at \([0-9]*\), kdump-file.service started at \([0-9]*\)$/\1 \2/p' "$f" | head -n 1)
log "next boot: /var/crash mounted, kdump-file.service started (monotonic us): ${times:-unknown}"
# shellcheck disable=SC2016 # awk's fields
check "next boot: kdump-file.service started after /var/crash was mounted" \
	awk '{ exit !($1 > 0 && $2 >= $1) }' <<<"${times:-0 0}"
check "next boot: kdump-file.service active" grep -q "KDUMP-FILE-TEST: is-active: active" "$f"
check "next boot: a capture kernel loaded" grep -q "KDUMP-FILE-TEST: iscsi after: kexec_crash_loaded: 1" "$f"
check "next boot: list shows the dump, complete" \
	bash -c "run_output '$f' 'kdump-file list' | grep -q complete"
check "next boot: show names the session again" \
	grep -qE "KDUMP-FILE-TEST: +log in to iSCSI target ${iqn//./\\.} at 10\.0\.43\.1:3260 " "$f"
check "next boot: estimate counts the iSCSI session" \
	grep -qE "KDUMP-FILE-TEST: +iSCSI +[0-9.]+ MiB +\(1 session" "$f"
log "next boot: $(grep -m1 -o 'capture initramfs: .*' "$f" || echo 'no capture initramfs line')"

# The dump, read out of the LUN's image (the LUN's filesystem is
# /var/crash).
mapfile -t dirs < <(dump_dirs "$lun" /)
check "one dump on the LUN (${dirs[*]})" test "${#dirs[@]}" -eq 1
if [ "${#dirs[@]}" -eq 1 ]; then
	dump_fetch "$lun" / "${dirs[0]}" "$out/dump"
	check "metadata names kernel $release" \
		grep -q "\"kernel_release\": \"$release\"" "$out/dump/metadata.json"
	vmlinux=$(stock_vmlinux) || fail "the stock kernel's vmlinux (stock-kernel.sh failed)"
	check_dump iscsi "$vmlinux" "$out/dump"
fi
# The images, once every check passed (failures: common.sh's count).
# shellcheck disable=SC2031 # counted in this shell
[ "$failures" -ne 0 ] || rm -f "$tdisk" "$cdisk" "$lun"
finish
