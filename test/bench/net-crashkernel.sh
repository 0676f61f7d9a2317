#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The reservation each network target needs: the fleet of TEST-31 (Debian's
# stock kernel; FLAVOUR ours for this project's) run with the clients'
# crashkernel= set to each SIZE in turn, at most two sizes at a time, and
# for each target kind (ssh, NFSv4, NFSv3) whether its capture completed.
# With --link KIND (bond, vlan, ipv6), scenario-net-links.sh's one client
# instead (SSH over the bond or IPv6, NFSv4 over the VLAN), and its
# capture initramfs's size.  Prints one line per size and kind; figures,
# no verdict.
#
#   net-crashkernel.sh [FLAVOUR] [--link KIND] SIZE...   e.g. stock 128M 96M
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

flavour=stock
case "${1:-}" in
ours | stock)
	flavour=$1
	shift
	;;
esac
link=
if [ "${1:-}" = --link ]; then
	link=${2:-}
	shift 2 || true
fi
case "$link" in
"" | bond | vlan | ipv6) ;;
*) set -- ;;
esac
if [ "$#" = 0 ]; then
	echo "usage: net-crashkernel.sh [ours|stock] [--link bond|vlan|ipv6] SIZE..." >&2
	exit 2
fi
SCENARIO=bench-net
kinds=(- ssh nfs4 nfs3)

# One fleet per size, each on ports of its own (scenario numbers 60...).
i=0
pids=()
for size in "$@"; do
	while [ "${#pids[@]}" -ge 2 ]; do
		wait "${pids[0]}" || true
		pids=("${pids[@]:1}")
	done
	if [ -n "$link" ]; then
		KDUMP_FILE_NET_CRASHKERNEL=$size \
			"$KDUMP_FILE_LIB/scenario-net-links.sh" "bench-net-$flavour$link-$size" $((60 + i)) "$link" "$flavour" \
			>"$KDUMP_FILE_OUT/bench-net-$flavour$link-$size.log" 2>&1 &
	else
		KDUMP_FILE_NET_CRASHKERNEL=$size \
			"$KDUMP_FILE_LIB/scenario-net-fleet.sh" "bench-net-$flavour-$size" $((60 + i)) "$flavour" \
			>"$KDUMP_FILE_OUT/bench-net-$flavour-$size.log" 2>&1 &
	fi
	pids+=($!)
	i=$((i + 1))
done
for p in "${pids[@]}"; do
	wait "$p" || true
done

[ -z "$link" ] || kinds=(- "$link")
for size in "$@"; do
	for ((n = 1; n < ${#kinds[@]}; n++)); do
		con=$KDUMP_FILE_OUT/bench-net-$flavour$link-$size/client-$n.log
		if grep -q "kdump-file: .*capture complete" "$con" 2>/dev/null; then
			what="capture complete ($(sed -n 's/.*kdump-file: \[ *\([0-9.]*\)s\] capture complete.*/\1/p' "$con" | head -n 1) s)"
		elif [ -n "$(capture_fault "$con")" ]; then
			what="failed: $(capture_fault "$con")"
		else
			what="no complete capture (log: $con)"
		fi
		log "$flavour crashkernel=$size ${kinds[n]}: $what"
	done
	if [ -n "$link" ]; then
		# The capture initramfs the client built, as its guest said.
		img=$(sed -n 's/.*KDUMP-FILE-TEST: capture initramfs: \(.*\)/\1/p' \
			"$KDUMP_FILE_OUT/bench-net-$flavour$link-$size/client-1.log" 2>/dev/null | tail -n 1)
		log "$flavour crashkernel=$size $link: capture initramfs ${img:-unknown}"
	fi
done
