#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A raw dump device on Debian's stock kernel, named by its serial.  The
# guest has two disks besides its root: the raw device (serial kdraw) and
# another (serial kdother) whose bytes must never change.  load refuses the
# raw device while it is mounted and while it holds ext4; then the guest
# swaps the two disks' kernel names (unbind, bind in the other order), so
# the capture kernel, which names them afresh, sees the raw device under the
# name the other disk had at load.  The dump must land on the raw device,
# and the next boot recover it before the service loads.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

scenario_out TEST-26-STOCK-RAW-SWAP
img=$(stock_image)
stock_boot
disk=$out/disk.img
scenario_disk "$img" "$disk"
truncate -s 128M "$out/raw.img"
# Bytes of no known format, so that nothing but the serial tells the disks apart.
python3 -c 'import sys; sys.stdout.buffer.write(b"kdump-file: not a dump device\n" * 560000)' >"$out/other.img"
other_sum=$(sha256sum <"$out/other.img")
# The root disk (if=virtio) comes first: these two take later PCI slots.
# shellcheck disable=SC2054 # QEMU's commas
disks=(-drive "file=$out/raw.img,format=raw,if=none,id=raw"
	-device virtio-blk-pci,drive=raw,serial=kdraw,addr=0x10
	-drive "file=$out/other.img,format=raw,if=none,id=other"
	-device virtio-blk-pci,drive=other,serial=kdother,addr=0x11)
con=$out/console.log

rc=0
# shellcheck disable=SC2031 # stock_boot set them in this shell
qemu_boot "$con" "${KDUMP_FILE_BOOT_TIMEOUT:-1500}" bios 1024 "$kernel" \
	"root=/dev/vda rw console=ttyS0 crashkernel=256M panic=-1 kdump_file_test=raw-swap" \
	"$disk" "${initrd[@]}" "${disks[@]}" || rc=$?
check_ended "$rc" "crash boot ended by itself"
check "at boot the raw device is /dev/vdb" grep -q "KDUMP-FILE-TEST: at boot: raw /dev/vdb other /dev/vdc" "$con"
check "load refused the mounted device, naming the mount" \
	grep -q "KDUMP-FILE-TEST:   kdump-file: error: raw dump device .* cannot be used: it is mounted on /mnt/raw" "$con"
check "load refused the device holding ext4, naming wipefs and raw_force" \
	grep -q "KDUMP-FILE-TEST:   kdump-file: error: raw dump device .* holds ext4 data .*wipefs -a .*raw_force = yes" "$con"
check "nothing was loaded after the refusals" grep -q "KDUMP-FILE-TEST: loaded after refusals: 0" "$con"
check "after rebinding the names changed places" \
	grep -q "KDUMP-FILE-TEST: after rebinding: raw /dev/vdc other /dev/vdb" "$con"
check "the capture is told the serial, not the kernel name" \
	grep -q "KDUMP-FILE-TEST:   raw = SERIAL=kdraw" "$con"
check "loaded" grep -q "KDUMP-FILE-TEST: loaded: 1" "$con"
check "the capture wrote to /dev/vdb, the raw device's name in the capture kernel" \
	grep -q "kdump-file: .* writing to raw device /dev/vdb" "$con"
check "capture complete" grep -q "kdump-file: .* capture complete" "$con"
check "the raw device holds a complete dump" \
	bash -c "head -c 4096 '$out/raw.img' | grep -q '^state=complete$'"
check "the other disk is unchanged" test "$(sha256sum <"$out/other.img")" = "$other_sum"

rc=0
# shellcheck disable=SC2031
qemu_boot "$out/console-after.log" "${KDUMP_FILE_BOOT_TIMEOUT:-1500}" bios 1024 "$kernel" \
	"root=/dev/vda rw console=ttyS0 crashkernel=256M panic=-1 kdump_file_test=raw-after" \
	"$disk" "${initrd[@]}" "${disks[@]}" || rc=$?
after=$out/console-after.log
check_ended "$rc" "recovery boot ended by itself"
check "the service is active" grep -q "KDUMP-FILE-TEST: service: active" "$after"
check "the service recovered the dump before loading" \
	grep -q "KDUMP-FILE-TEST: journal: kdump-file: recovered" "$after"
check "load did not warn of the dump it was about to recover" \
	bash -c "! grep -q 'not yet recovered' '$after'"
check "status shows the recovered dump complete" \
	grep -qE "KDUMP-FILE-TEST:   last dump: +([0-9a-f]{8} )?/var/crash/.*: complete" "$after"
check "the raw device is marked recovered" \
	bash -c "head -c 4096 '$out/raw.img' | grep -q '^state=recovered$'"
check "the other disk is still unchanged" test "$(sha256sum <"$out/other.img")" = "$other_sum"
mapfile -t dirs < <(dump_dirs "$disk" /var/crash)
check "one dump directory in /var/crash (${dirs[*]})" test "${#dirs[@]}" -eq 1
if [ "${#dirs[@]}" -eq 1 ]; then
	dump_fetch "$disk" /var/crash "${dirs[0]}" "$out/dump"
	vmlinux=$(stock_vmlinux) || fail "the stock kernel's vmlinux (stock-kernel.sh failed)"
	check_dump "${dirs[0]}" "$vmlinux" "$out/dump"
fi
rm -f "$disk" "$out/raw.img" "$out/other.img"
finish
