#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A network target reached through a link of another kind than one NIC
# with an IPv4 address: one collector and one client (client 1 of the
# fleet, on kernel FLAVOUR), the client crashing once its dump target is
# loaded; the dump must be complete on the collector and open in crash(8),
# and the next boot's status and list show it.
#
#   scenario-net-links.sh NAME NUMBER KIND FLAVOUR(ours|stock)
#
# KIND, the client's link (kdump_file_net_link= on both guests' command
# lines, test/lib/guest-steps/net.sh):
#   bond  an ssh:// target over an active-backup bond (systemd-networkd,
#         MII monitor every 100 ms) of two NICs, netdevs n1 and n2 (MACs
#         52:54:00:00:NUMBER:02 and :12) on links 1 and 2 of the
#         collector, which bridges its two NICs; once the capture kernel
#         is loaded the host takes the link of the bond's active member
#         down (QMP set_link on the client) and the guest crashes when the
#         other member is active: the capture must go on over that one
#   vlan  an nfs:// target (NFSv4) over VLAN 43 of the client's NIC: both
#         guests have their address on VLAN 43 alone, so only tagged
#         frames reach the collector
#   ipv6  an ssh:// target over IPv6 alone: the client fd00:1::2/64, the
#         collector fd00:1::1/64 (both without DAD), no IPv4 address on
#         the link, "collector" in the client's /etc/hosts fd00:1::1
#
# Before the product, the guests check the link by hand: ping, ssh as the
# administrator, an NFSv4 mount of the collector's export.  The capture's
# lines about the network (its timings) are logged for reading.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/common.sh"

scenario_out "$1"
number=$2
ports=$(net_ports "$number")
kind=$3
flavour=$4
usage="usage: scenario-net-links.sh NAME NUMBER bond|vlan|ipv6 ours|stock"

net_client_image "$flavour" || {
	echo "$usage" >&2
	exit 2
}
collector=10.0.1.1
address=10.0.1.2/24
links=1
nics=()
case "$kind" in
bond)
	target=ssh
	links=2
	# Two NICs on links 1 and 2, and QMP for their links.
	for n in 1 2; do
		nics+=(-netdev "stream,id=n$n,server=off,addr.type=inet,addr.host=127.0.0.1,addr.port=$((ports + n))"
			-device "virtio-net-pci,netdev=n$n,mac=52:54:00:00:$number:$((n - 1))2")
	done
	nics+=(-qmp "unix:$out/client-1.log.qmp,server=on,wait=off")
	;;
vlan) target=nfs4 ;;
ipv6)
	target=ssh
	collector=fd00:1::1
	address=fd00:1::2/64
	;;
*)
	echo "$usage" >&2
	exit 2
	;;
esac
cimg=$(collector_image)
name=client-1-$flavour
con=$out/client-1.log
log "$kind link, $target target, flavour $flavour, ports $((ports + 1))-$((ports + links)); output in $out"

cdisk=$out/collector.img
scenario_disk "$cimg" "$cdisk"
net_collector_up "$out/collector.log" "$cdisk" "$ports" "$links" "$name" 2400 "kdump_file_net_link=$kind"

# net_bond_fail: the host's part of the bond's failover, while the client
# boots (net_client_run, the job $client): when the guest names the
# bond's active member (its interface and own MAC), take the link of that
# member's netdev down (n1 for :02, n2 for :12), until QEMU ends.
net_bond_fail() {
	local line mac id
	if ! qemu_ready "$con" "KDUMP-FILE-TEST: net: bond: take the active member down: " "$client" 1500; then
		fail "$name: the guest named the bond's active member"
		return
	fi
	line=$(grep -m1 "KDUMP-FILE-TEST: net: bond: take the active member down: " "$con.serial")
	# The console as QEMU writes it, lines ending in CR LF.
	line=${line%$'\r'}
	mac=${line##* }
	case "$mac" in
	52:54:00:00:"$number":02) id=1 ;;
	52:54:00:00:"$number":12) id=2 ;;
	*)
		fail "$name: the bond's active member has a MAC of neither NIC ($line)"
		return
		;;
	esac
	if net_link "$con" "$id" down; then
		pass "$name: the link of the active member ($mac, netdev n$id) taken down"
	else
		fail "$name: QMP set_link n$id down"
	fi
}

net_client_disk "$img" "$out/client-1.img" 1 "$flavour" "$collector"
net_client_run 1 "$flavour" "$ports" "kdump_file_net_target=$target kdump_file_net_link=$kind" \
	"${nics[@]}" &
client=$!
[ "$kind" != bond ] || net_bond_fail
wait "$client" || true
net_collector_end "$out/collector.log"

# The link, checked by hand before the product used it.
check "$name: ssh to the collector" grep -q "KDUMP-FILE-TEST: net: ssh collector: ok" "$con"
check "$name: the collector's NFS export mounts" grep -q "KDUMP-FILE-TEST: net: nfs mount collector: ok" "$con"
case "$kind" in
bond)
	check "$name: bond0 active-backup, MII monitor 100 ms, two members" \
		grep -qE "KDUMP-FILE-TEST: net: bond: active-backup 1 miimon 100 members [^ ]+ [^ ]+ \(" "$con"
	down=$(sed -n 's/.*KDUMP-FILE-TEST: net: bond: take the active member down: //p' "$con" | head -n 1)
	now=$(sed -n 's/.*KDUMP-FILE-TEST: net: bond: active now //p' "$con" | head -n 1)
	log "$name: the bond's active member ${down:-unknown}, then ${now:-none}"
	check "$name: the other member active after the failover" \
		test -n "$down" -a -n "$now" -a "${now%% *}" != "${down%% *}"
	check "$name: the collector answers after the failover" \
		grep -q "KDUMP-FILE-TEST: net: ping collector after the failover: ok" "$con"
	;;
vlan)
	check "$name: VLAN 43 on its NIC" \
		grep -qE "KDUMP-FILE-TEST: net: vlan: [^ ]+\.43 vlan protocol 802\.1Q id 43 on " "$con"
	check "$name: no address on the untagged NIC" \
		grep -qE "KDUMP-FILE-TEST: net: untagged [^ ]+: addresses: $" "$con"
	check "the collector's address on VLAN 43 alone" \
		grep -qE "KDUMP-FILE-TEST: collector: link 1: [^ ]+\.43 \(vlan protocol 802\.1Q id 43\) 10\.0\.1\.1/24" "$out/collector.log"
	;;
ipv6)
	check "$name: no IPv4 address on its link" grep -qE "KDUMP-FILE-TEST: net: IPv4 on [^ ]+: $" "$con"
	# Its global address, that is; the link-local one may still be.
	check "$name: its address not tentative" \
		bash -c "grep -E 'KDUMP-FILE-TEST: net: IPv6 on ' '$con' | head -n 1 | grep -q ' $address scope global ' &&
			! grep -E 'KDUMP-FILE-TEST: net: IPv6 on ' '$con' | head -n 1 | grep -qE ' $address scope global [^;]*tentative'"
	check "the collector's sshd listens on IPv6" grep -qE "KDUMP-FILE-TEST:   LISTEN .* \[::\]:22 " "$out/collector.log"
	check "the collector exports to IPv6 clients" grep -qE "KDUMP-FILE-TEST:   /srv/nfs[[:space:]]+fd00::/16\(" "$out/collector.log"
	;;
esac
# The capture's own lines about the network ("kdump-file: [  2.2s] ..."),
# for its timings.
grep -E 'kdump-file: \[ *[0-9.]+s\] .*(network up in|link up on|bond|vlan|VLAN|collector .* on-link|connecting to|mounted|saving to)' "$con" |
	grep -v 'command line:' | while IFS= read -r line; do log "capture: $line"; done || true
check "$name: capture: the network up" grep -qE "kdump-file: .* network up in " "$con"
case "$kind" in
bond)
	# Both members enslaved, the one whose link is down among them.
	check "$name: capture: a bond of both members" \
		grep -qE "kdump-file: \[ *[0-9.]+s\] bond [^ ]+ \(active-backup, miimon 100 ms\) of 2 of its 2 members" "$con"
	check "$name: capture: the bond's link up" grep -qE "kdump-file: \[ *[0-9.]+s\] link up on bond" "$con"
	;;
vlan)
	check "$name: capture: VLAN 43 on the NIC" \
		grep -qE "kdump-file: \[ *[0-9.]+s\] VLAN [^ ]+ \(id 43\) on " "$con"
	;;
esac

[ "$flavour" = ours ] || vmlinux=$(stock_vmlinux) || fail "the stock kernel's vmlinux (stock-kernel.sh failed)"
net_client_checks 1 "$flavour" "$target" "$collector" "$address" "$cdisk" "$vmlinux"
# The collector's disk, once every check passed (failures: common.sh's count).
# shellcheck disable=SC2031 # counted in this shell
[ "$failures" -ne 0 ] || rm -f "$cdisk"
finish
