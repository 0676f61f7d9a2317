#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Scenario 32: a network target that fails, with a local fallback.
# Client 1 (our kernel, SSH): after kdump-file propagate pinned the
# collector's host key and kdump-file load loaded, the collector's host
# key changes; load now refuses (exit 1), the capture kernel loaded before
# stays loaded, and at the crash nothing goes to the collector: the dump
# is saved in the fallback directory, its record naming why.
# Client 2 (Debian's stock kernel, NFSv4): loaded, then its link to the
# collector goes down (QMP set_link on the collector's NIC); the capture
# cannot reach the collector within net_timeout and saves the dump in the
# fallback directory.  At the next boot of each, status shows the reason.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

scenario_out TEST-32-NET-FAILURES
ports=$(net_ports 32)

# What the scenario expects the product to print, in one place (see
# scenario-net-fleet.sh for the form of the guest driver's lines).
P_PROPAGATE_OK='KDUMP-FILE-TEST: rc=0: kdump-file propagate'
P_LOAD_OK='KDUMP-FILE-TEST: rc=0: kdump-file load'
P_LOAD_REFUSED='KDUMP-FILE-TEST: rc=1: kdump-file load'
# load's message when the collector's host key is not the pinned one.
P_HOSTKEY_ERROR='KDUMP-FILE-TEST:   kdump-file: error: .*(host key|known_hosts|pinned)'
# The capture saying it falls back, and then completing.
P_CAPTURE_FALLBACK='kdump-file: .*fallback'
P_CAPTURE_DONE='kdump-file: .*capture complete'
# The record of the fallback dump (metadata.json) and what status shows.
P_META_FALLBACK='"fallback_reason": "[^"]+'
# (in the output of kdump-file status alone)
P_STATUS_FALLBACK='fallback'
# 3: not loaded (the boot after the crash loads nothing).
P_STATUS_OK='KDUMP-FILE-TEST: rc=[03]: kdump-file status'

kdir=$(kernel_dir)
img=$(guest_image "$kdir")
simg=$(stock_image)
cimg=$(collector_image)
log "ports $((ports + 1))-$((ports + 2)); output in $out"

cdisk=$out/collector.img
scenario_disk "$cimg" "$cdisk"
clog=$out/collector.log
t0=$(date +%s)
if ! net_collector_start "$clog" "$cdisk" "$ports" 2 client-1-ours,client-2-stock 3000; then
	fail "the collector said it is ready"
	net_collector_stop "$clog" 0 || true
	rm -f "$cdisk"
	finish
	exit 1
fi
pass "the collector is ready after $(($(date +%s) - t0)) s"

# Client 1: the collector's host key changes after propagate.
net_client_disk "$img" "$out/client-1.img" 1 ours
net_client_run 1 ours "$ports" \
	"kdump_file_net_target=ssh kdump_file_net_fallback=/var/crash kdump_file_net_fail=rekey" &
pid1=$!

# Client 2: its link to the collector goes down once it has loaded, and
# comes back in the boot after the capture.  The guest reboots in the same
# QEMU, its link connected throughout: QEMU 7.2 crashed (SIGSEGV) when a
# stream netdev whose link was down lost its client and was set up again.
net_client_disk "$simg" "$out/client-2.img" 2 stock
append2="kdump_file_net_target=nfs4 kdump_file_net_fallback=/var/crash kdump_file_net_timeout=30 kdump_file_net_fail=down"
rc=0
KDUMP_FILE_REBOOT_IN_PLACE=1 net_client_boot "$out/client-2.log" "$out/client-2.img" 2 stock "$ports" \
	net-crash "$append2" &
pid2=$!
# net_wait_line PATTERN: wait until client 2's console shows PATTERN; 1
# when its QEMU ended first.
net_wait_line() {
	while net_alive "$pid2"; do
		grep -q "$1" "$out/client-2.log.serial" 2>/dev/null && return 0
		sleep 1
	done
	return 1
}
if net_wait_line "KDUMP-FILE-TEST: net: take the collector down"; then
	check "the collector's link 2 goes down" net_link "$clog" 2 down
	if net_wait_line "KDUMP-FILE-TEST: net: waiting for the collector to come back"; then
		check "the collector's link 2 comes back" net_link "$clog" 2 up
	else
		# Its QEMU ended with the link down: setting it up now is
		# what crashed QEMU 7.2.
		fail "client 2 came to its boot after the capture"
	fi
fi
wait "$pid2" || rc=$?
echo "$rc" >"$out/client-2.rc"
# One QEMU for both boots: the boot after is what follows the crash.
echo "$rc" >"$out/client-2-after.rc"
sed -n '/KDUMP-FILE-TEST: crashing/,$p' "$out/client-2.log" >"$out/client-2-after.log"
wait "$pid1" || true
log "the clients ended after $(($(date +%s) - t0)) s"
rc=0
net_collector_stop "$clog" 300 || rc=$?
check_ended "$rc" "the collector stopped by itself"
check "the collector saw every client done" grep -q "KDUMP-FILE-TEST: collector: all clients done" "$clog"

# checks_common N FLAVOUR VMLINUX: the fallback dump of client N.
checks_common() {
	local n=$1 flavour=$2 vmlinux=$3 name con after disk
	name=client-$n-$flavour
	con=$out/client-$n.log
	after=$out/client-$n-after.log
	disk=$out/client-$n.img
	check_ended "$(cat "$out/client-$n.rc" 2>/dev/null || echo 124)" "$name: the crash boot ended by itself"
	check_ended "$(cat "$out/client-$n-after.rc" 2>/dev/null || echo 124)" "$name: the boot after ended by itself"
	check "$name: the collector answered ping before" grep -q "KDUMP-FILE-TEST: net: ping collector: ok" "$con"
	check "$name: the first load exits 0" grep -q "$P_LOAD_OK" "$con"
	check "$name: loaded, crashing" grep -q "KDUMP-FILE-TEST: loaded ok" "$con"
	check "$name: the capture fell back" grep -qE "$P_CAPTURE_FALLBACK" "$con"
	check "$name: capture complete" grep -q "$P_CAPTURE_DONE" "$con"
	check "$name: status runs at the next boot" grep -q "$P_STATUS_OK" "$after"
	check "$name: status shows the fallback" \
		bash -c "run_output '$after' 'kdump-file status' | grep -qiE '$P_STATUS_FALLBACK'"
	check "$name: the record names the reason" grep -qE "$P_META_FALLBACK" "$after"
	check "$name: told the collector it is done" \
		grep -q "KDUMP-FILE-TEST: net: told the collector this client is done" "$after"
	local -a dirs
	mapfile -t dirs < <(dump_dirs "$disk" /var/crash)
	check "$name: one dump in the fallback /var/crash (${dirs[*]})" test "${#dirs[@]}" -eq 1
	if [ "${#dirs[@]}" -eq 1 ]; then
		dump_fetch "$disk" /var/crash "${dirs[0]}" "$out/dump-$n"
		check "$name: metadata.json has the fallback reason" \
			grep -qE "$P_META_FALLBACK" "$out/dump-$n/metadata.json"
		check_dump "$name" "$vmlinux" "$out/dump-$n"
	fi
	rm -f "$disk"
}

con=$out/client-1.log
check "client-1-ours: propagate exits 0" grep -q "$P_PROPAGATE_OK" "$con"
check "client-1-ours: the host key changed" \
	grep -q "KDUMP-FILE-TEST: net: the collector's host key changed: 256 SHA256:" "$con"
check "client-1-ours: load after the change exits 1" grep -q "$P_LOAD_REFUSED" "$con"
check "client-1-ours: load names the host key" grep -qE "$P_HOSTKEY_ERROR" "$con"
hostdir=$(net_hostdir 1 ours)
mapfile -t dirs < <(dump_dirs "$cdisk" "/srv/dumps/$hostdir")
check "client-1-ours: nothing reached the collector (${dirs[*]})" test "${#dirs[@]}" -eq 0
checks_common 1 ours "$kdir/vmlinux"

con=$out/client-2.log
check "client-2-stock: the collector went down" grep -q "KDUMP-FILE-TEST: net: the collector is down" "$con"
hostdir=$(net_hostdir 2 stock)
mapfile -t dirs < <(dump_dirs "$cdisk" "/srv/nfs/$hostdir")
check "client-2-stock: nothing reached the collector (${dirs[*]})" test "${#dirs[@]}" -eq 0
vmlinux=$(stock_vmlinux) || fail "the stock kernel's vmlinux (stock-kernel.sh failed)"
checks_common 2 stock "$vmlinux"
rm -f "$cdisk"
finish
