#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The reservation each network target needs: the fleet of TEST-31 (Debian's
# stock kernel; FLAVOUR ours for this project's) run with the clients'
# crashkernel= set to each SIZE in turn, at most two sizes at a time, and
# for each target kind (ssh, NFSv4, NFSv3) whether its capture completed.
# Prints one line per size and kind; figures, no verdict.
#
#   net-crashkernel.sh [FLAVOUR] SIZE...     e.g. stock 128M 96M
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

flavour=stock
case "${1:-}" in
ours | stock)
	flavour=$1
	shift
	;;
esac
[ "$#" -gt 0 ] || {
	echo "usage: net-crashkernel.sh [ours|stock] SIZE..." >&2
	exit 2
}
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
	KDUMP_FILE_NET_CRASHKERNEL=$size \
		"$KDUMP_FILE_LIB/scenario-net-fleet.sh" "bench-net-$flavour-$size" $((60 + i)) "$flavour" \
		>"$KDUMP_FILE_OUT/bench-net-$flavour-$size.log" 2>&1 &
	pids+=($!)
	i=$((i + 1))
done
for p in "${pids[@]}"; do
	wait "$p" || true
done

for size in "$@"; do
	for n in 1 2 3; do
		con=$KDUMP_FILE_OUT/bench-net-$flavour-$size/client-$n.log
		if grep -q "kdump-file: .*capture complete" "$con" 2>/dev/null; then
			what="capture complete ($(sed -n 's/.*kdump-file: \[ *\([0-9.]*\)s\] capture complete.*/\1/p' "$con" | head -n 1) s)"
		elif [ -n "$(capture_fault "$con")" ]; then
			what="failed: $(capture_fault "$con")"
		else
			what="no complete capture (log: $con)"
		fi
		log "$flavour crashkernel=$size ${kinds[n]}: $what"
	done
done
