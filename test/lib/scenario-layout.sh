#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Dumps on the disk layouts of real machines, on Debian's stock kernel: the
# guest puts /var/crash (or all of /var) on another disk's layout, enables
# kdump-file and crashes; the capture must open that layout by itself.  At
# the next boot the guest copies the newest dump to /root/fetched on the
# root disk, and the host checks it with crash(8) and makedumpfile(8).
#
#   scenario-layout.sh NAME LAYOUT
#
# LAYOUT:
#   lvm-xfs     /var/crash on xfs on an LVM logical volume (/dev/vdb); in the
#               same boot, a dump directory on LUKS (/dev/vdc) is refused
#               by kdump-file load and the loaded capture kernel stays
#   var-btrfs   all of /var in a btrfs subvolume mounted with subvol=, the
#               default subvolume being another one (/dev/vdb)
#   rounds      the root disk, with kdump-file's own capture initramfs
#               whose target chain an appended archive empties: the
#               fallback, driver rounds over sysfs matched against the
#               module plan's aliases, alone
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/common.sh"

scenario_out "$1"
layout=$2
log "layout $layout, stock kernel, SeaBIOS, 1024 MiB, crashkernel=256M; output in $out"

img=$(stock_image)
stock_boot
disk=$out/disk.img
scenario_disk "$img" "$disk"
truncate -s 1G "$out/vdb.img"
truncate -s 64M "$out/vdc.img"
con=$out/console.log

# boot STEP: one boot of the guest with the extra disks, running STEP.
boot() {
	local rc=0
	# shellcheck disable=SC2031 # stock_boot set them in this shell
	qemu_boot "$con" "${KDUMP_FILE_BOOT_TIMEOUT:-1500}" bios 1024 "$kernel" \
		"root=/dev/vda rw console=ttyS0 crashkernel=256M panic=-1 kdump_file_test=$1" \
		"$disk" "${initrd[@]}" \
		-drive "file=$out/vdb.img,format=raw,if=virtio" \
		-drive "file=$out/vdc.img,format=raw,if=virtio" || rc=$?
	check_ended "$rc" "boot $1 ended by itself (no timeout)"
}

# Lines of the console since the boot started last.
last_boot() {
	awk '/^=== boot /{buf=""} {buf=buf $0 "\n"} END{printf "%s", buf}' "$con"
}

case "$layout" in
lvm-xfs)
	boot layout-lvm-xfs
	last_boot >"$out/boot1.log"
	b=$out/boot1.log
	check "kdump-file.service active" grep -q "KDUMP-FILE-TEST: is-active: active" "$b"
	check "show: dm_mod loaded for the LVM volume" \
		grep -qE "KDUMP-FILE-TEST: +module dm_mod +device-mapper, for LVM logical volume kdvg/dumps" "$b"
	check "show: xfs loaded for the filesystem" \
		grep -qE "KDUMP-FILE-TEST: +module xfs +filesystem xfs" "$b"
	check "show: virtio_blk loaded as the disk's driver" \
		grep -qE "KDUMP-FILE-TEST: +module virtio_blk +driver virtio_blk of virtio" "$b"
	check "show: the LVM volume activated" \
		grep -q "KDUMP-FILE-TEST:   activate LVM volume kdvg/dumps" "$b"
	luks=$(grep -m1 "KDUMP-FILE-TEST: case luks:" "$b" || true)
	log "luks: $luks"
	check "LUKS target: kdump-file load exits 1" grep -q "case luks: rc=1 " <<<"$luks"
	check "LUKS target: one error" grep -q " errors=1 " <<<"$luks"
	check "LUKS target: the capture kernel loaded before named as still loaded" \
		grep -q "KDUMP-FILE-TEST: luks load: kdump-file: still loaded: " "$b"
	check "LUKS target: the message names dm-crypt and the fix" \
		grep -qE "luks load: kdump-file: error: cannot use dump target /dev/[^ ]+ for the capture: it is on dm-crypt \(LUKS\) device kdump-luks .*unencrypted" "$b"
	check "LUKS target: the earlier capture kernel still loaded" \
		grep -qE "case luks: .* loaded=1 kernel-before=(/[^ ]+) kernel-after=\1\$" <<<"$luks"
	check "capture: the LVM volume activated" grep -q "kdump-file: .* activated LVM volume kdvg/dumps" "$b"
	check "capture: xfs mounted" grep -qE "kdump-file: .* mounted UUID=.* xfs\)" "$b"
	;;
var-btrfs)
	boot layout-var-btrfs
	check "/var moved to a btrfs subvolume" grep -q "KDUMP-FILE-TEST: prepared: 1" "$con"
	boot layout-crash
	last_boot >"$out/boot2.log"
	b=$out/boot2.log
	check "kdump-file.service active" grep -q "KDUMP-FILE-TEST: is-active: active" "$b"
	check "show: btrfs loaded for the filesystem" \
		grep -qE "KDUMP-FILE-TEST: +module btrfs +filesystem btrfs" "$b"
	check "show: the path inside the subvolume" grep -q "KDUMP-FILE-TEST:   path = /@var/crash" "$b"
	check "capture: btrfs mounted" grep -qE "kdump-file: .* mounted UUID=.* btrfs\)" "$b"
	check "capture: saved to the subvolume's crash directory" \
		grep -q "kdump-file: .* saving to /@var/crash/" "$b"
	;;
rounds)
	boot layout-rounds
	last_boot >"$out/boot1.log"
	b=$out/boot1.log
	check "loaded with the initramfs without a chain" \
		grep -q "KDUMP-FILE-TEST:   initramfs     /root/rounds.img" "$b"
	check "capture: nothing loaded from a chain" bash -c "! grep -q 'loaded for the dump target' '$b'"
	check "capture: the rounds loaded the disk's drivers" \
		grep -qE "kdump-file: .* modules loaded: .*virtio_pci.*virtio_blk" "$b"
	;;
*)
	echo "usage: scenario-layout.sh NAME lvm-xfs|var-btrfs|rounds" >&2
	exit 2
	;;
esac
check "capture completed" grep -q "kdump-file: .* capture complete" "$b"
modules=$(sed -n 's/.*kdump-file: .* modules loaded: //p' "$b" | tail -n 1)
log "the capture loaded: ${modules:-nothing}"

boot layout-fetch
last_boot >"$out/fetch.log"
check "the first kernel sees the dump" grep -q "KDUMP-FILE-TEST: fetched: .*vmcore" "$out/fetch.log"
dump_fetch "$disk" /root fetched "$out/dump"
vmlinux=$(stock_vmlinux) || fail "the stock kernel's vmlinux (stock-kernel.sh failed)"
check "metadata names kernel $release" \
	grep -q "\"kernel_release\": \"$release\"" "$out/dump/metadata.json"
check_dump "$layout" "$vmlinux" "$out/dump"
rm -f "$disk" "$out/vdb.img" "$out/vdc.img"
finish
