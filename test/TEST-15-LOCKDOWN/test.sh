#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Signed capture kernels under lockdown=integrity (the kernel build trusts a
# test certificate kept with the cached build): the image signed with it
# loads and captures; an unsigned image and one signed with another key are
# refused, each with its reason, and the signed one stays loaded.  Under
# SeaBIOS and under OVMF.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

scenario_setup TEST-15-LOCKDOWN

sbsign --key "$kdir/certs/signing.key" --cert "$kdir/certs/signing.pem" \
	--output "$out/vmlinuz-signed" "$kdir/bzImage" 2>"$out/sbsign.log"
sbsign --key "$kdir/certs/untrusted.key" --cert "$kdir/certs/untrusted.pem" \
	--output "$out/vmlinuz-wrongkey" "$kdir/bzImage" 2>>"$out/sbsign.log"
check "signed with the trusted test key" sbverify --cert "$kdir/certs/signing.pem" "$out/vmlinuz-signed"
check "the other image does not verify with it" \
	bash -c "! sbverify --cert '$kdir/certs/signing.pem' '$out/vmlinuz-wrongkey' >/dev/null 2>&1"
check "signed image written into the guest" disk_put_file "$disk" "$out/vmlinuz-signed" /boot/vmlinuz-signed
check "wrongly signed image written into the guest" disk_put_file "$disk" "$out/vmlinuz-wrongkey" /boot/vmlinuz-wrongkey
guest_conf "$out/kdump-file.conf" "kernel = /boot/vmlinuz-signed"
check "config written into the guest" disk_put_file "$disk" "$out/kdump-file.conf" /etc/kdump-file.conf


# one_firmware FW: boot a copy of the disk locked down under SeaBIOS or
# OVMF (see firmware_passes), try the three images, crash, check the dump.
one_firmware() {
	local fw=$1 con rc c
	con=$out/console.log
	rc=0
	qemu_boot "$con" 600 "$fw" 1024 "$kdir/bzImage" \
		"root=/dev/vda rw console=ttyS0 crashkernel=256M panic=-1 lockdown=integrity kdump_file_test=lockdown" \
		"$disk" || rc=$?
	check_ended "$rc" "guest ended by itself"
	check "the kernel is locked down" grep -q "KDUMP-FILE-TEST: lockdown: none \[integrity\] confidentiality" "$con"
	check "the signed capture kernel loaded at boot" \
		grep -q "KDUMP-FILE-TEST: start: loaded=1 kernel=/boot/vmlinuz-signed" "$con"
	for c in unsigned wrong-key; do
		check "$c: refused, the signed one still loaded" \
			grep -qE "KDUMP-FILE-TEST: case $c: rc=[1-9][0-9]* loaded=1 kernel-before=/boot/vmlinuz-signed kernel-after=/boot/vmlinuz-signed" "$con"
	done
	check "unsigned: the reason is given" grep -q "the capture kernel image is not signed" "$con"
	check "unsigned: lockdown named" grep -q "lockdown (integrity) requires a signed image" "$con"
	check "wrong key: the reason is given" \
		grep -q "the capture kernel image is signed, but not by a key the running kernel trusts" "$con"
	check "the signed one was loaded again after each refusal" \
		test "$(grep -c 'the previously loaded capture kernel /boot/vmlinuz-signed was loaded again' "$con")" -eq 2
	check "the signed capture kernel captured the crash" grep -q "kdump-file: .* capture complete" "$con"
	fetch_one_dump "$out/dump" || return 0
	check_dump dump "$kdir/vmlinux" "$out/dump"
}

firmware_passes one_firmware "$disk"
rm -f "$disk"
finish
