#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The fleet scenario of the network targets: one collector and three
# clients on kernel FLAVOUR, crashing at the same moment, each into its own
# host dir on the collector: client 1 over SSH (after kdump-file
# propagate), client 2 over NFSv4, client 3 over NFSv3.  Each dump must be
# complete and open in crash(8); the SSH client's dedicated key may do
# nothing but the forced command's requests on its own host dir.
#
#   scenario-net-fleet.sh NAME NUMBER FLAVOUR(ours|stock)
#
# The guests (test/lib/guest-steps/net.sh): the collector starts first and
# says "collector ready"; the clients then boot side by side, each set up,
# loaded and waiting at a barrier on the collector until all three are
# ready, then crash; each boots once more, prints status and list, and
# tells the collector it is done; the collector then stops and the host
# reads the dumps off its disk.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/common.sh"

scenario_out "$1"
ports=$(net_ports "$2")
flavour=$3

# What the scenario expects the product to print, in one place: the guest
# driver's lines ("KDUMP-FILE-TEST: rc=N: COMMAND", "KDUMP-FILE-TEST:   "
# before each line a command printed) and the capture's own.
P_PROPAGATE_OK='KDUMP-FILE-TEST: rc=0: kdump-file propagate'
P_PINNED='KDUMP-FILE-TEST:   collector ssh-ed25519 '
P_RESTART_OK='KDUMP-FILE-TEST: rc=0: systemctl restart kdump-file'
P_UNIT_LOADED='KDUMP-FILE-TEST: net: unit: is-active active loaded 1'
# The sandbox reload of "systemctl restart" after the target changed.
P_SANDBOX_RELOAD="KDUMP-FILE-TEST: net: unit journal: kdump-file: dump target .* needs the sandbox '(ssh|nfs) 10[.]0[.][0-9][.]1', and this unit was made with 'local': reloading"
P_CAPTURE_DONE='kdump-file: .*capture complete'
P_REFUSED='kdump-file-receive: refused'
P_LIST_LINE='KDUMP-FILE-TEST: net: key: list: [0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9:]{8}(-[0-9]+)? complete [0-9]+ '
# 0: loaded (the unit loaded at boot).
P_STATUS_OK='KDUMP-FILE-TEST: rc=0: kdump-file status'
P_LIST_OK='KDUMP-FILE-TEST: rc=0: kdump-file list'
# The decoy dump collector-base.sh leaves in /srv/dumps.
DECOY=/srv/dumps/decoy-0123456789ab/2026-01-01-00:00:00
DECOY_META='{"complete": true, "crash_time": "2026-01-01T00:00:00Z"}'

case "$flavour" in
ours)
	kdir=$(kernel_dir)
	img=$(guest_image "$kdir")
	vmlinux=$kdir/vmlinux
	;;
stock)
	img=$(stock_image)
	;;
*)
	echo "usage: scenario-net-fleet.sh NAME NUMBER ours|stock" >&2
	exit 2
	;;
esac
cimg=$(collector_image)
targets=(- ssh nfs4 nfs3)
log "flavour $flavour, ports $((ports + 1))-$((ports + 3)); output in $out"

cdisk=$out/collector.img
scenario_disk "$cimg" "$cdisk"
expect=client-1-$flavour,client-2-$flavour,client-3-$flavour
t0=$(date +%s)
if ! net_collector_start "$out/collector.log" "$cdisk" "$ports" 3 "$expect" 3000; then
	fail "the collector said it is ready"
	net_collector_stop "$out/collector.log" 0 || true
	rm -f "$cdisk"
	finish
	exit 1
fi
pass "the collector is ready after $(($(date +%s) - t0)) s"

pids=()
for n in 1 2 3; do
	net_client_disk "$img" "$out/client-$n.img" "$n" "$flavour"
	net_client_run "$n" "$flavour" "$ports" \
		"kdump_file_net_target=${targets[n]} kdump_file_net_barrier=3" &
	pids+=($!)
done
for p in "${pids[@]}"; do
	wait "$p" || true
done
log "the clients ended after $(($(date +%s) - t0)) s"
rc=0
net_collector_stop "$out/collector.log" 300 || rc=$?
log "the collector ended after $(($(date +%s) - t0)) s"
check_ended "$rc" "the collector stopped by itself"
check "the collector saw every client done" \
	grep -q "KDUMP-FILE-TEST: collector: all clients done" "$out/collector.log"

[ "$flavour" = ours ] || vmlinux=$(stock_vmlinux) || fail "the stock kernel's vmlinux (stock-kernel.sh failed)"
for n in 1 2 3; do
	name=client-$n-$flavour
	con=$out/client-$n.log
	after=$out/client-$n-after.log
	hostdir=$(net_hostdir "$n" "$flavour")
	check_ended "$(cat "$out/client-$n.rc" 2>/dev/null || echo 124)" "$name: the crash boot ended by itself"
	check_ended "$(cat "$out/client-$n-after.rc" 2>/dev/null || echo 124)" "$name: the boot after ended by itself"
	check "$name: its address" grep -q "KDUMP-FILE-TEST: net: .* 10.0.$n.2/24 after" "$con"
	check "$name: the collector answers ping" grep -q "KDUMP-FILE-TEST: net: ping collector: ok" "$con"
	if [ "${targets[n]}" = ssh ]; then
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
	kind=${targets[n]%[34]}
	check "$name: systemctl restart kdump-file exits 0" grep -q "$P_RESTART_OK" "$con"
	check "$name: restart reloaded the units for the network sandbox" grep -qE "$P_SANDBOX_RELOAD" "$con"
	check "$name: loaded through the unit" grep -q "$P_UNIT_LOADED" "$con"
	unit=$(grep "KDUMP-FILE-TEST: net: unit: .*PrivateNetwork=" "$con" | head -n 1)
	check "$name: the unit's sandbox reaches the collector alone ($unit)" \
		bash -c "grep -q 'KDUMP_FILE_SANDBOX=$kind 10.0.$n.1\"' <<<'$unit' && grep -q ' PrivateNetwork=no ' <<<'$unit' &&
			grep -q ' IPAddressAllow=10.0.$n.1/32 ' <<<'$unit'"
	check "$name: at the next boot the unit loaded" grep -q "$P_UNIT_LOADED" "$after"
	# shellcheck disable=SC2016 # awk's fields
	check "$name: ...before multi-user.target" \
		awk '/KDUMP-FILE-TEST: net: unit: entered/ { ok = $5 > 0 && $5 <= $9 } END { exit !ok }' "$after"
	check "$name: status at the next boot: protected" \
		bash -c "run_output '$after' 'kdump-file status' | grep -q '^loaded: *yes' && ! run_output '$after' 'kdump-file status' | grep -q 'NOT PROTECTED'"
	check "$name: the clients crashed together" grep -q "KDUMP-FILE-TEST: net: 3 of 3 clients ready" "$con"
	check "$name: loaded, crashing" grep -q "KDUMP-FILE-TEST: loaded ok" "$con"
	check "$name: capture complete" grep -q "$P_CAPTURE_DONE" "$con"
	check "$name: status after the crash runs" grep -q "$P_STATUS_OK" "$after"
	check "$name: status shows the dump on the collector, complete" \
		grep -qE "KDUMP-FILE-TEST:   last dump: +[0-9a-f]{8} (collector:|10.0.$n.1:)?/srv/[a-z]+/$(net_hostdir "$n" "$flavour")/.*: complete" "$after"
	check "$name: list after the crash exits 0" grep -q "$P_LIST_OK" "$after"
	# The dump on the collector reported here, from the copy of its kernel
	# log the report unit made: one journal entry naming it there, and
	# its signature in list and status.
	id=$(sed -n 's/.*net: crash entry: *KDUMP_FILE_CRASH_ID=\([0-9a-f]\{8\}\)$/\1/p' "$after" | head -n 1)
	sig=$(sed -n 's/.*net: crash entry: *KDUMP_FILE_SIGNATURE=\([0-9a-f]\{16\}\)$/\1/p' "$after" | head -n 1)
	case "${targets[n]}" in
	ssh) loc=ssh://kdump@collector/srv/dumps/$hostdir/ ;;
	*) loc=nfs://collector/srv/nfs/$hostdir/ ;;
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
	case "${targets[n]}" in
	ssh) dir=/srv/dumps/$hostdir ;;
	*) dir=/srv/nfs/$hostdir ;;
	esac
	if net_collector_dump "$cdisk" "$dir" "$out/dump-$n"; then
		d=$(dump_dirs "$cdisk" "$dir")
		check "$name: its dump directory on the collector is 0700" \
			test "$(file_mode "$cdisk" "$dir/$d")" = 0700
		check_dump "$name" "$vmlinux" "$out/dump-$n"
	fi
	rm -f "$out/client-$n.img"
done
check "another machine's dump on the collector is untouched" \
	test "$(debugfs -R "cat $DECOY/metadata.json" "$cdisk" 2>/dev/null)" = "$DECOY_META"
rm -f "$cdisk"
finish
