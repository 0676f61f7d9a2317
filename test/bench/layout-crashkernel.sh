#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The reservation a disk layout needs: scenario-layout.sh's LAYOUT (Debian's
# stock kernel; FLAVOUR ours for this project's), or for LAYOUT iscsi
# scenario-iscsi.sh (stock), run with the guest's
# crashkernel= set to each SIZE in turn, two at a time, and whether its
# capture completed, with the capture initramfs's size.  Prints one line
# per size; figures, no verdict.
#
#   layout-crashkernel.sh LAYOUT [FLAVOUR] SIZE...   e.g. md-raid1 stock 104M 96M
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

layout=${1:-}
shift || true
flavour=stock
case "${1:-}" in
ours | stock)
	flavour=$1
	shift
	;;
esac
if [ -z "$layout" ] || [ "$#" -eq 0 ]; then
	echo "usage: layout-crashkernel.sh LAYOUT [ours|stock] SIZE..." >&2
	exit 2
fi
SCENARIO=bench-layout

pids=()
n=0
for size in "$@"; do
	while [ "${#pids[@]}" -ge 2 ]; do
		wait "${pids[0]}" || true
		pids=("${pids[@]:1}")
	done
	name=bench-layout-$layout-$flavour-$size
	if [ "$layout" = iscsi ]; then
		# Two guests each (scenario-iscsi.sh), on ports of their own.
		n=$((n + 1))
		KDUMP_FILE_LAYOUT_CRASHKERNEL=$size \
			"$KDUMP_FILE_LIB/scenario-iscsi.sh" "$name" $((80 + n)) \
			>"$KDUMP_FILE_OUT/$name.log" 2>&1 &
	else
		KDUMP_FILE_LAYOUT_CRASHKERNEL=$size \
			"$KDUMP_FILE_LIB/scenario-layout.sh" "$name" "$layout" "$flavour" \
			>"$KDUMP_FILE_OUT/$name.log" 2>&1 &
	fi
	pids+=($!)
done
for p in "${pids[@]}"; do
	wait "$p" || true
done

for size in "$@"; do
	d=$KDUMP_FILE_OUT/bench-layout-$layout-$flavour-$size
	con=$d/console.log
	# scenario-iscsi.sh says the size in the boot after the crash.
	img=$({ cat "$con" "$d/after.log" 2>/dev/null || true; } |
		sed -n 's/.*KDUMP-FILE-TEST: capture initramfs: \([0-9]*\) bytes.*/\1/p' | tail -n 1)
	if grep -q "kdump-file: .*capture complete" "$con" 2>/dev/null; then
		what="capture complete ($(sed -n 's/.*kdump-file: \[ *\([0-9.]*\)s\] capture complete.*/\1/p' "$con" | head -n 1) s)"
	elif [ -n "$(capture_fault "$con")" ]; then
		what="failed: $(capture_fault "$con")"
	else
		what="no complete capture (log: $con)"
	fi
	log "$layout $flavour crashkernel=$size: $what; capture initramfs ${img:-unknown} bytes"
done
