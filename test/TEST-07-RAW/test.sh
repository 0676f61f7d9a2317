#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Dump to a raw block device: the capture writes a header, the dmesg and the
# flattened vmcore to it; at the next boot kdump-file-report.service runs
# "kdump-file recover", which rebuilds the dump in /var/crash; crash opens it.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

scenario_setup TEST-07-RAW
guest_conf "$out/kdump-file.conf" "raw = /dev/vdb"
check "config written into the guest" disk_put_file "$disk" "$out/kdump-file.conf" /etc/kdump-file.conf
truncate -s 128M "$out/raw.img"
raw=(-drive "file=$out/raw.img,format=raw,if=virtio")

rc=0
crash_boot "$out/console.log" "$disk" "${raw[@]}" || rc=$?
check_ended "$rc" "crash boot ended by itself"
check "capture wrote to the raw device" grep -q "kdump-file: .* writing to raw device /dev/vdb" "$out/console.log"
check "capture complete" grep -q "kdump-file: .* capture complete" "$out/console.log"
check "the raw device holds a complete dump" \
	bash -c "head -c 4096 '$out/raw.img' | grep -q '^state=complete$'"

rc=0
qemu_boot "$out/console-recover.log" 600 bios 1024 "$kdir/bzImage" \
	"root=/dev/vda rw console=ttyS0 panic=-1 kdump_file_test=status" \
	"$disk" "${raw[@]}" || rc=$?
check_ended "$rc" "recovery boot ended by itself"
check "status shows the recovered dump complete" \
	grep -qE "KDUMP-FILE-TEST:   last dump: +([0-9a-f]{8} )?/var/crash/.*: complete" "$out/console-recover.log"
check "the raw device is marked recovered" \
	bash -c "head -c 4096 '$out/raw.img' | grep -q '^state=recovered$'"
mapfile -t dirs < <(dump_dirs "$disk" /var/crash)
check "one dump directory in /var/crash (${dirs[*]})" test "${#dirs[@]}" -eq 1
if [ "${#dirs[@]}" -eq 1 ]; then
	dump_fetch "$disk" /var/crash "${dirs[0]}" "$out/dump"
	check "vmcore is 0600" test "$(file_mode "$disk" "/var/crash/${dirs[0]}/vmcore")" = 0600
	check_dump "${dirs[0]}" "$kdir/vmlinux" "$out/dump"
fi
rm -f "$disk" "$out/raw.img"
finish
