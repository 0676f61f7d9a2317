#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Scenario 32: a network target that fails, with a local fallback, loaded
# through kdump-file.service, on both kernels.  Each client reboots in
# place (one QEMU, its link to the collector connected throughout: QEMU 7.2
# crashed (SIGSEGV) when a stream netdev whose link was down lost its
# client and was set up again), three boots each:
#
# Client 1 (our kernel, SSH): after kdump-file propagate and systemctl
# restart kdump-file, the collector's host key changes; kdump-file load
# now refuses (exit 1) and the capture kernel loaded before stays loaded;
# at the crash nothing goes to the collector: the dump is saved in the
# fallback directory, its record naming why.  At the next boot the unit
# fails at once (a changed host key is never waited for), the journal and
# status say why.
# Client 2 (Debian's stock kernel, NFSv4): loaded through the unit, then
# its link to the collector goes down (QMP set_link on the collector's
# NIC); the capture cannot reach the collector within net_timeout and
# saves the dump in the fallback directory.  The collector stays down at
# the next boot: the unit waits net_load_wait = 100 s for it and fails,
# naming the cause in the journal and in status.
# Both, at the boot after the crash: the fallback dump in status, list and
# info, reported by kdump-file-report.service with its journal entry.
# Then one more boot, the collector's link down until a minute after
# kdump-file.service starts: the unit waits for it and loads.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

scenario_out TEST-32-NET-FAILURES
ports=$(net_ports 32)

# What the scenario expects the product to print, in one place (see
# scenario-net-fleet.sh for the form of the guest driver's lines).
P_PROPAGATE_OK='KDUMP-FILE-TEST: rc=0: kdump-file propagate'
P_RESTART_OK='KDUMP-FILE-TEST: rc=0: systemctl restart kdump-file'
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
# The unit's state, as net_unit says it.
P_UNIT_LOADED='KDUMP-FILE-TEST: net: unit: is-active active loaded 1'
P_UNIT_FAILED='KDUMP-FILE-TEST: net: unit: is-active failed loaded 0'
# The unit's journal: the wait, its end.
P_UNIT_WAITING='KDUMP-FILE-TEST: net: unit journal: kdump-file: waiting for the collector, '
P_UNIT_GAVE_UP='KDUMP-FILE-TEST: net: unit journal: kdump-file: gave up after '
P_UNIT_ANSWERED='KDUMP-FILE-TEST: net: unit journal: kdump-file: the collector answered after '
# The crash's journal entry (kdump-file(8), JOURNAL).
P_CRASH_ENTRY='KDUMP-FILE-TEST: net: crash entry: *MESSAGE_ID=015172fc9e57401f9f980255c3aeecad'
# The console line of the guest's marker unit as kdump-file.service starts
# (see step_net_after; a login prompt may come before it on the line).
P_UNIT_STARTING='KDUMP-FILE-TEST: net: kdump-file.service starts'
LATE=60

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

# net_watch N: the host's part of client N's boots (its QEMU in the job
# whose PID is in client-N.pid): the collector's link N down and up when
# the guest says so, and for the late boot up a minute after the unit
# started; each line is acted on once, in the order of the boots.  Each
# event's time goes to $out/client-N.events.
net_watch() {
	local n=$1 pid serial down=0 up=0 late=0
	pid=$(cat "$out/client-$n.pid")
	serial=$out/client-$n.log.serial
	seen() {
		grep -q -- "$1" "$serial" 2>/dev/null
	}
	event() {
		echo "$(date +%s) $*" >>"$out/client-$n.events"
	}
	while net_alive "$pid"; do
		if [ "$down" = 0 ] && seen "KDUMP-FILE-TEST: net: take the collector down"; then
			down=1
			net_link "$clog" "$n" down && event "link down before the crash"
		fi
		if [ "$up" = 0 ] && seen "KDUMP-FILE-TEST: net: waiting for the collector to come back"; then
			up=1
			net_link "$clog" "$n" up && event "link up after the boot after the crash"
		fi
		if [ "$late" = 0 ] && seen "KDUMP-FILE-TEST: net: reboot with the collector late"; then
			late=1
			net_link "$clog" "$n" down && event "link down for the late boot"
		fi
		if [ "$late" = 1 ] && seen "$P_UNIT_STARTING"; then
			late=2
			event "kdump-file.service starts"
			sleep "$LATE"
			net_link "$clog" "$n" up && event "link up $LATE s after the unit started"
		fi
		sleep 1
	done
}

# Both clients reboot in place, three boots in one QEMU each.
net_client_disk "$img" "$out/client-1.img" 1 ours
net_client_disk "$simg" "$out/client-2.img" 2 stock
append1="kdump_file_net_target=ssh kdump_file_net_fallback=/var/crash kdump_file_net_fail=rekey kdump_file_net_late=1"
append2="kdump_file_net_target=nfs4 kdump_file_net_fallback=/var/crash kdump_file_net_timeout=30 kdump_file_net_wait=100 kdump_file_net_fail=down kdump_file_net_late=1"
declare -A client_flavour=([1]=ours [2]=stock) client_append=([1]=$append1 [2]=$append2)
watchers=()
for n in 1 2; do
	rm -f "$out/client-$n.events"
	(
		rc=0
		# Three boots and two waits for the collector in one QEMU.
		KDUMP_FILE_BOOT_TIMEOUT=2400 KDUMP_FILE_REBOOT_IN_PLACE=1 net_client_boot "$out/client-$n.log" "$out/client-$n.img" \
			"$n" "${client_flavour[$n]}" "$ports" net-crash "${client_append[$n]}" || rc=$?
		echo "$rc" >"$out/client-$n.rc"
	) &
	echo "$!" >"$out/client-$n.pid"
	net_watch "$n" &
	watchers+=($!)
done
for n in 1 2; do
	# net_watch's "pid" is the subshell's; it ends with QEMU.
	while net_alive "$(cat "$out/client-$n.pid")"; do sleep 2; done
done
for w in "${watchers[@]}"; do
	wait "$w" || true
done
log "the clients ended after $(($(date +%s) - t0)) s"
rc=0
net_collector_stop "$clog" 300 || rc=$?
check_ended "$rc" "the collector stopped by itself"
check "the collector saw every client done" grep -q "KDUMP-FILE-TEST: collector: all clients done" "$clog"

# The boots of client N, split at the driver's lines: crash, after, late.
split_boots() {
	local con=$out/client-$1.log
	sed -n '1,/KDUMP-FILE-TEST: crashing/p' "$con" >"$out/client-$1-crash.log"
	sed -n '/KDUMP-FILE-TEST: crashing/,/KDUMP-FILE-TEST: net: reboot with the collector late/p' "$con" >"$out/client-$1-after.log"
	sed -n '/KDUMP-FILE-TEST: net: reboot with the collector late/,$p' "$con" >"$out/client-$1-late.log"
}

# checks_common N FLAVOUR VMLINUX: the fallback dump of client N, the boot
# after the crash (the unit failed, the fallback dump shown and reported)
# and the late boot (the unit waited, then loaded).
checks_common() {
	local n=$1 flavour=$2 vmlinux=$3 name con after late disk id waited
	name=client-$n-$flavour
	con=$out/client-$n-crash.log
	after=$out/client-$n-after.log
	late=$out/client-$n-late.log
	disk=$out/client-$n.img
	check_ended "$(cat "$out/client-$n.rc" 2>/dev/null || echo 124)" "$name: its three boots ended by themselves"
	check "$name: the collector answered ping before" grep -q "KDUMP-FILE-TEST: net: ping collector: ok" "$con"
	check "$name: systemctl restart kdump-file exits 0" grep -q "$P_RESTART_OK" "$con"
	check "$name: loaded through the unit" grep -q "$P_UNIT_LOADED" "$con"
	check "$name: loaded, crashing" grep -q "KDUMP-FILE-TEST: loaded ok" "$con"
	check "$name: the capture fell back" grep -qE "$P_CAPTURE_FALLBACK" "$after"
	check "$name: capture complete" grep -q "$P_CAPTURE_DONE" "$after"
	# The boot after the crash, the collector out of reach.
	check "$name: at the next boot the unit failed" grep -q "$P_UNIT_FAILED" "$after"
	check "$name: status says NOT PROTECTED first" \
		bash -c "run_output '$after' 'kdump-file status' | head -n 1 | grep -q '^NOT PROTECTED: a crash now is not captured: the load at .* failed: '"
	check "$name: status shows the fallback" \
		bash -c "run_output '$after' 'kdump-file status' | grep -qiE '$P_STATUS_FALLBACK'"
	check "$name: the record names the reason" grep -qE "$P_META_FALLBACK" "$after"
	check "$name: list exits 0" grep -q "KDUMP-FILE-TEST: rc=0: kdump-file list" "$after"
	check "$name: list says the collector cannot be listed" \
		bash -c "run_output '$after' 'kdump-file list' | grep -q '^dumps on the collector (.*): cannot be listed: '"
	# (grep, not awk: Debian's mawk has no interval expressions)
	id=$(run_output "$after" 'kdump-file list' | sed -n '/^dumps in the fallback directory/,$p' |
		grep -Eo '^[0-9a-f]{8}  ' | head -n 1 | tr -d ' ')
	check "$name: list shows the fallback dump, complete ($id)" \
		bash -c "[ -n '$id' ] && run_output '$after' 'kdump-file list' | grep -q '^$id .* complete'"
	check "$name: info shows the fallback dump" grep -q "KDUMP-FILE-TEST: rc=0: kdump-file info" "$after"
	check "$name: the report unit reported it" grep -q "KDUMP-FILE-TEST: net: report unit: kdump-file: crash " "$after"
	check "$name: its crash entry in the journal, with list's ID" \
		bash -c "grep -q '$P_CRASH_ENTRY' '$after' && grep -q 'KDUMP-FILE-TEST: net: crash entry: *KDUMP_FILE_CRASH_ID=$id' '$after'"
	check "$name: told the collector it is done" \
		grep -q "KDUMP-FILE-TEST: net: told the collector this client is done" "$late"
	# The late boot: the unit waited a minute for the collector, then
	# loaded.
	check "$name: the late boot: the unit waited" grep -q "$P_UNIT_WAITING" "$late"
	check "$name: the late boot: then loaded" grep -q "$P_UNIT_LOADED" "$late"
	waited=$(sed -n "s/^$P_UNIT_ANSWERED\\([0-9]*\\) s.*/\\1/p" "$late" | tail -n 1)
	check "$name: the late boot: the collector answered after ${waited:-?} s, $LATE s or more after the unit started" \
		test "${waited:-0}" -ge $((LATE - 10))
	check "$name: the late boot: status protected" \
		bash -c "run_output '$late' 'kdump-file status' | grep -q '^loaded: *yes'"
	local -a dirs
	mapfile -t dirs < <(dump_dirs "$disk" /var/crash)
	check "$name: one dump in the fallback /var/crash (${dirs[*]})" test "${#dirs[@]}" -eq 1
	if [ "${#dirs[@]}" -eq 1 ]; then
		dump_fetch "$disk" /var/crash "${dirs[0]}" "$out/dump-$n"
		check "$name: metadata.json has the fallback reason" \
			grep -qE "$P_META_FALLBACK" "$out/dump-$n/metadata.json"
		check "$name: the report beside it" test -s "$out/dump-$n/report.json"
		check_dump "$name" "$vmlinux" "$out/dump-$n"
	fi
	rm -f "$disk"
}

for n in 1 2; do
	split_boots "$n"
	sed 's/^/  /' "$out/client-$n.events" 2>/dev/null
done
con=$out/client-1-crash.log
after=$out/client-1-after.log
check "client-1-ours: propagate exits 0" grep -q "$P_PROPAGATE_OK" "$con"
check "client-1-ours: the host key changed" \
	grep -q "KDUMP-FILE-TEST: net: the collector's host key changed: 256 SHA256:" "$con"
check "client-1-ours: load after the change exits 1" grep -q "$P_LOAD_REFUSED" "$con"
check "client-1-ours: load names the host key" grep -qE "$P_HOSTKEY_ERROR" "$con"
check "client-1-ours: at the next boot the unit's journal names the host key" \
	grep -qE "KDUMP-FILE-TEST: net: unit journal: kdump-file: error: .*no longer matches the one pinned" "$after"
check "client-1-ours: ...and it did not wait for it" bash -c "! grep -q '$P_UNIT_WAITING' '$after'"
check "client-1-ours: status names the host key" \
	bash -c "run_output '$after' 'kdump-file status' | head -n 1 | grep -q 'no longer matches the one pinned'"
check "client-1-ours: after propagate --repin, the unit loads" \
	bash -c "grep -q 'KDUMP-FILE-TEST: rc=0: kdump-file propagate --repin' '$after' && grep -q '$P_RESTART_OK' '$after'"
hostdir=$(net_hostdir 1 ours)
mapfile -t dirs < <(dump_dirs "$cdisk" "/srv/dumps/$hostdir")
check "client-1-ours: nothing reached the collector (${dirs[*]})" test "${#dirs[@]}" -eq 0
checks_common 1 ours "$kdir/vmlinux"

con=$out/client-2-crash.log
after=$out/client-2-after.log
check "client-2-stock: the collector went down" grep -q "KDUMP-FILE-TEST: net: the collector is down" "$con"
check "client-2-stock: at the next boot the unit waited for the collector" grep -q "$P_UNIT_WAITING" "$after"
check "client-2-stock: ...and gave up within net_load_wait = 100 s" grep -q "$P_UNIT_GAVE_UP" "$after"
check "client-2-stock: the unit's journal names the cause" \
	grep -qE "KDUMP-FILE-TEST: net: unit journal: kdump-file: error: .*cannot mount collector:/srv/nfs" "$after"
check "client-2-stock: status names the cause" \
	bash -c "run_output '$after' 'kdump-file status' | head -n 1 | grep -q 'cannot mount collector:/srv/nfs'"
hostdir=$(net_hostdir 2 stock)
mapfile -t dirs < <(dump_dirs "$cdisk" "/srv/nfs/$hostdir")
check "client-2-stock: nothing reached the collector (${dirs[*]})" test "${#dirs[@]}" -eq 0
vmlinux=$(stock_vmlinux) || fail "the stock kernel's vmlinux (stock-kernel.sh failed)"
checks_common 2 stock "$vmlinux"
rm -f "$cdisk"
finish
