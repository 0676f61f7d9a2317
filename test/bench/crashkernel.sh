#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Benchmark: the smallest crashkernel= with which kdump-file still saves a
# complete dump, for 1 GiB and 4 GiB guests, searched in 8M steps from 64M;
# and the size of the capture initramfs.  Prints figures and writes them to
# $KDUMP_FILE_OUT/bench/crashkernel.json.  Not a test: it never fails on a
# figure.
#   crashkernel.sh [MEM_MB...]     (default: 1024 4096)
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

SCENARIO=bench-crashkernel
out=$KDUMP_FILE_OUT/bench
mkdir -p "$out"
mems=("$@")
[ "${#mems[@]}" -gt 0 ] || mems=(1024 4096)
kdir=$(kernel_dir)
img=$(guest_image_prepared "$kdir")
release=$(cat "$kdir/release")

# trial MEM CK: 0 when a complete dump was saved.
trial() {
	local mem=$1 ck=$2 d=$out/ck-$1-$2 rc=0
	rm -rf "$d"
	mkdir -p "$d"
	cp --sparse=always "$img" "$d/disk.img"
	qemu_boot "$d/console.log" 600 bios "$mem" "$kdir/bzImage" \
		"root=/dev/vda rw console=ttyS0 crashkernel=${ck}M panic=-1 kdump_file_test=crash-loaded" \
		"$d/disk.img" || rc=$?
	rm -f "$d/disk.img"
	if grep -q "kdump-file: .* capture complete" "$d/console.log"; then
		log "${mem} MiB guest, crashkernel=${ck}M: complete dump"
		return 0
	fi
	if grep -q "KDUMP-FILE-TEST: not loaded" "$d/console.log"; then
		log "${mem} MiB guest, crashkernel=${ck}M: load refused ($(grep -m1 -o 'error: .*' "$d/console.log" | cut -c1-120))"
	elif grep -qiE "out of memory|oom-kill" "$d/console.log"; then
		log "${mem} MiB guest, crashkernel=${ck}M: capture ran out of memory"
	else
		log "${mem} MiB guest, crashkernel=${ck}M: no dump (status $rc)"
	fi
	return 1
}

results=()
for mem in "${mems[@]}"; do
	ck=64
	if trial "$mem" "$ck"; then
		while [ "$ck" -gt 8 ] && trial "$mem" $((ck - 8)); do
			ck=$((ck - 8))
		done
	else
		while [ "$ck" -lt 512 ]; do
			ck=$((ck + 8))
			trial "$mem" "$ck" && break
		done
	fi
	echo "smallest crashkernel for a ${mem} MiB guest: ${ck}M"
	results+=("\"$mem\": $ck")
done

size=$(debugfs -R "stat /var/lib/kdump-file/initramfs-$release.img" "$img" 2>/dev/null |
	sed -n 's/.*Size: \([0-9]*\).*/\1/p' | head -n 1)
echo "capture initramfs: $size bytes ($((size / 1024)) KiB)"
{
	printf '{\n  "kernel": "%s",\n  "smallest_crashkernel_mib": { ' "$release"
	(IFS=,; printf '%s' "${results[*]}")
	printf ' },\n  "capture_initramfs_bytes": %s\n}\n' "${size:-null}"
} >"$out/crashkernel.json"
echo "results: $out/crashkernel.json"
