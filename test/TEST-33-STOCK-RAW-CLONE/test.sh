#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A copy of the raw dump device appears after load, on Debian's stock
# kernel under OVMF.  The raw device is found by its serial (kdraw);
# once the capture kernel is loaded, the host hot-adds (QMP) a second
# disk with the same serial, the same size and the same bytes: a clone,
# or a stick made to look like the device.  In the capture kernel two
# devices carry the identity, so the capture must write to neither (both
# disks' bytes unchanged, checked from the host), record why in pstore,
# and the next boot's status (the copy gone) must say so.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

scenario_out TEST-33-STOCK-RAW-CLONE
img=$(stock_image)
stock_boot
disk=$out/disk.img
scenario_disk "$img" "$disk"
t=${KDUMP_FILE_BOOT_TIMEOUT:-1500}
# Bytes of no known format (raw_force = yes lets load take them): the
# copy is the same bytes, so nothing but the disk it is on tells them apart.
python3 -c 'import sys; sys.stdout.buffer.write(b"kdump-file: raw dump device \n" * 2314098)' | head -c 64M >"$out/raw.img"
cp "$out/raw.img" "$out/clone.img"
raw_sum=$(sha256sum <"$out/raw.img")
sock=$out/qmp.sock
con=$out/console.log
# The root disk (if=virtio) comes first: these take later PCI slots.  q35
# (OVMF): a hot-added PCIe device needs a free root port.
# shellcheck disable=SC2054 # QEMU's commas
disks=(-drive "file=$out/raw.img,format=raw,if=none,id=raw"
	-device virtio-blk-pci,drive=raw,serial=kdraw,addr=0x10
	-device pcie-root-port,id=hp0,chassis=5,addr=0x11)

log "stock kernel, OVMF, 1024 MiB; output in $out"
rm -f "$sock"
rc=0
t0=$(date +%s)
# shellcheck disable=SC2031 # stock_boot set them in this shell
qemu_boot "$con" "$t" uefi 1024 "$kernel" \
	"root=/dev/vda rw console=ttyS0 crashkernel=256M panic=-1 kdump_file_test=raw-clone" \
	"$disk" "${initrd[@]}" "${disks[@]}" -qmp "unix:$sock,server=on,wait=off" &
qpid=$!
if qemu_ready "$con" "KDUMP-FILE-TEST: ready for the clone" "$qpid" "$t"; then
	log "the guest loaded after $(($(date +%s) - t0)) s: hot-adding the copy"
	if qmp_exec "$sock" 30 \
		"{\"execute\": \"blockdev-add\", \"arguments\": {\"driver\": \"raw\", \"node-name\": \"clone\", \"file\": {\"driver\": \"file\", \"filename\": \"$out/clone.img\"}}}" \
		'{"execute": "device_add", "arguments": {"driver": "virtio-blk-pci", "drive": "clone", "serial": "kdraw", "bus": "hp0", "id": "clone0"}}' \
		>/dev/null 2>"$out/qmp.err"; then
		pass "QMP: a disk with the raw device's serial hot-added"
	else
		fail "QMP: hot-adding the copy: $(cat "$out/qmp.err")"
	fi
else
	fail "the guest never said it was ready for the clone (see $con)"
fi
wait "$qpid" || rc=$?
check_ended "$rc" "crash boot ended by itself after $(($(date +%s) - t0)) s"
check "at boot the raw device is /dev/vdb" grep -q "KDUMP-FILE-TEST: at boot: raw /dev/vdb" "$con"
check "loaded" grep -q "KDUMP-FILE-TEST: loaded: 1" "$con"
check "the guest saw two disks with serial kdraw" \
	grep -q "KDUMP-FILE-TEST: disks with serial kdraw: 2 after" "$con"
check "still loaded after the hot-add" grep -q "KDUMP-FILE-TEST: loaded after the clone: 1" "$con"
check "recover refuses two devices with the raw device's identity" \
	grep -q "KDUMP-FILE-TEST:   kdump-file: error: 2 devices carry raw dump device /dev/disk/by-id/virtio-kdraw's identity SERIAL=kdraw: nothing read" "$con"
check "recover exits 1" grep -q "KDUMP-FILE-TEST: rc=1: kdump-file recover" "$con"
check "crashed" grep -q "KDUMP-FILE-TEST: crashing" "$con"
after=$out/after-crash.log
awk '/KDUMP-FILE-TEST: crashing/{on=1; next} on' "$con" >"$after"
check "the capture ran" grep -q "kdump-file: .* capture started" "$after"
check "the capture refused two devices with the raw device's identity" \
	grep -qE "kdump-file: .* error: 2 devices carry the raw dump device's identity" "$after"
check "the capture wrote to no raw device" bash -c "! grep -q 'writing to raw device' '$after'"
check "the capture recorded why in pstore" \
	grep -q "kdump-file: .* recorded why for the next boot (pstore: efi" "$after"
check "and rebooted" grep -q "kdump-file: .* rebooting" "$after"
check "the raw device's bytes are unchanged" test "$(sha256sum <"$out/raw.img")" = "$raw_sum"
check "the copy's bytes are unchanged" test "$(sha256sum <"$out/clone.img")" = "$raw_sum"

# The next boot, the copy gone: status says why the crash was not saved.
s=$out/console-after.log
rc=0
# shellcheck disable=SC2031
qemu_boot "$s" "$t" uefi 1024 "$kernel" \
	"root=/dev/vda rw console=ttyS0 crashkernel=256M panic=-1 kdump_file_test=raw-clone-after" \
	"$disk" "${initrd[@]}" "${disks[@]}" || rc=$?
check_ended "$rc" "the boot after ended by itself"
grep "KDUMP-FILE-TEST:" "$s" | grep -E "last crash|journal:" | sed 's/^/    /' >&2 || true
check "one disk with serial kdraw in the boot after" grep -q "KDUMP-FILE-TEST: disks with serial kdraw: 1" "$s"
check "status: LOST, two devices with the raw device's identity, nothing written" \
	grep -qE "KDUMP-FILE-TEST:   last crash: *LOST: the crash at .* was not saved: .*2 devices carry the raw dump device's identity" "$s"
check "the journal says it in one line" \
	grep -q "KDUMP-FILE-TEST: journal: kdump-file: a crash was lost: the crash at .*raw dump device" "$s"
check "the raw device's bytes are still unchanged" test "$(sha256sum <"$out/raw.img")" = "$raw_sum"
rm -f "$disk" "${disk%.img}.vars.fd" "$out/raw.img" "$out/clone.img"
finish
