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

# The decoy dump collector-base.sh leaves in /srv/dumps.
DECOY=/srv/dumps/decoy-0123456789ab/2026-01-01-00:00:00
DECOY_META='{"complete": true, "crash_time": "2026-01-01T00:00:00Z"}'

net_client_image "$flavour" || {
	echo "usage: scenario-net-fleet.sh NAME NUMBER ours|stock" >&2
	exit 2
}
cimg=$(collector_image)
targets=(- ssh nfs4 nfs3)
log "flavour $flavour, ports $((ports + 1))-$((ports + 3)); output in $out"

cdisk=$out/collector.img
scenario_disk "$cimg" "$cdisk"
expect=client-1-$flavour,client-2-$flavour,client-3-$flavour
net_collector_up "$out/collector.log" "$cdisk" "$ports" 3 "$expect" 3000

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
net_collector_end "$out/collector.log"

[ "$flavour" = ours ] || vmlinux=$(stock_vmlinux) || fail "the stock kernel's vmlinux (stock-kernel.sh failed)"
for n in 1 2 3; do
	check "client-$n-$flavour: the clients crashed together" \
		grep -q "KDUMP-FILE-TEST: net: 3 of 3 clients ready" "$out/client-$n.log"
	net_client_checks "$n" "$flavour" "${targets[n]}" "10.0.$n.1" "10.0.$n.2/24" \
		"$cdisk" "$vmlinux"
done
check "another machine's dump on the collector is untouched" \
	test "$(debugfs -R "cat $DECOY/metadata.json" "$cdisk" 2>/dev/null)" = "$DECOY_META"
rm -f "$cdisk"
finish
