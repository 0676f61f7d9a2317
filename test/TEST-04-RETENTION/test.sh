#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Dumps to a separate disk found by LABEL=, with keep = 2: after three
# crashes exactly the newest two remain, and the newest opens in crash.
# The second crash is saved with dump_level = dmesg: its kernel log alone,
# a complete dump that retention counts like the others.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

scenario_setup TEST-04-RETENTION
guest_conf "$out/kdump-file.conf" "target = LABEL=kdumps" "path = /crash" "keep = 2"
check "config written into the guest" disk_put_file "$disk" "$out/kdump-file.conf" /etc/kdump-file.conf
make_disk "$out/dumps.img" 256M kdumps

seen=()
for i in 1 2 3; do
	# The boot before the crash loads with the configuration changed (and
	# rebuilds the capture initramfs, which carries it).
	case $i in
	2) guest_conf "$out/kdump-file.conf" "target = LABEL=kdumps" "path = /crash" "keep = 2" "dump_level = dmesg" ;;
	3) guest_conf "$out/kdump-file.conf" "target = LABEL=kdumps" "path = /crash" "keep = 2" ;;
	esac
	[ "$i" = 1 ] || check "crash $i: config written into the guest" \
		disk_put_file "$disk" "$out/kdump-file.conf" /etc/kdump-file.conf
	rc=0
	crash_boot "$out/console-$i.log" "$disk" \
		-drive "file=$out/dumps.img,format=raw,if=virtio" || rc=$?
	check_ended "$rc" "crash $i: guest ended by itself"
	check "crash $i: capture complete" grep -q "kdump-file: .* capture complete" "$out/console-$i.log"
	mapfile -t now < <(dump_dirs "$out/dumps.img" /crash)
	log "after crash $i: ${now[*]}"
	seen+=("${now[-1]:-none}")
done
check "crash 2: the kernel log alone, by configuration" \
	grep -q "no vmcore: dump_level = dmesg saves the kernel log alone" "$out/console-2.log"
dump_fetch "$out/dumps.img" /crash "${seen[1]}" "$out/dump-dmesg"
check "crash 2: its dmesg.txt has the crash" grep -q "$DUMP_DMESG" "$out/dump-dmesg/dmesg.txt"
check "crash 2: no vmcore" test ! -e "$out/dump-dmesg/vmcore" -a ! -e "$out/dump-dmesg/vmcore-incomplete"
check "crash 2: metadata says dmesg only, complete" \
	bash -c "grep -q '\"dmesg_only\": true' '$out/dump-dmesg/metadata.json' && grep -q '\"complete\": true' '$out/dump-dmesg/metadata.json'"
check "crash 3: the oldest dump was removed" grep -q "removed old dump ${seen[0]} (keep = 2)" "$out/console-3.log"
mapfile -t left < <(dump_dirs "$out/dumps.img" /crash)
check "exactly two dumps remain (${left[*]})" test "${#left[@]}" -eq 2
check "they are the newest two" test "${left[*]}" = "${seen[1]} ${seen[2]}"
check "the three dumps were distinct" test "${seen[0]}" != "${seen[1]}" -a "${seen[1]}" != "${seen[2]}"
dump_fetch "$out/dumps.img" /crash "${seen[2]}" "$out/dump"
check_dump "${seen[2]}" "$kdir/vmlinux" "$out/dump"
rm -f "$disk" "$out/dumps.img"
finish
