#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kdump-file as a Debian user gets it: the package built by "make deb",
# installed with apt-get on a stock Debian guest that never had the
# product (its debconf question, answered by default, runs setup),
# "kdump-file setup" writing crashkernel= through GRUB, a reboot
# with that command line (QEMU boots the kernel itself: the host reads the
# line update-grub wrote), a crash, and after the reboot "kdump-file list",
# "info" and "debug" running crash on the vmlinux the dump's build ID names.
# A new kernel package (the same Debian kernel's cloud flavour: another
# release) must get its capture initramfs from the kernel hook, and lose
# it with its removal; "apt-get purge" must leave no GRUB drop-in, no unit
# and no configuration behind, and the dump in place.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

scenario_out TEST-27-STOCK-DEB
make -s -C "$KDUMP_FILE_TOP" deb >"$out/deb.log" 2>&1 || fail "make deb (see $out/deb.log)"
deb=$(find "$KDUMP_FILE_TOP/build/deb" -maxdepth 1 -name 'kdump-file_*_amd64.deb' | head -n 1)
check "make deb made the package" test -n "$deb"
check "lintian: no errors or warnings" bash -c "! grep -qE '^[EW]: ' '$out/deb.log'"
stock=$("$KDUMP_FILE_LIB/stock-kernel.sh")
kdeb=$("$KDUMP_FILE_LIB/stock-kernel.sh" --cloud)
img=$("$KDUMP_FILE_LIB/guest-image.sh" --stock-deb "$deb" "$kdeb" "$stock/vmlinux")
stock_boot
disk=$out/disk.img
scenario_disk "$img" "$disk"
t=${KDUMP_FILE_BOOT_TIMEOUT:-1500}

# boot STEP LOG [EXTRA PARAMETERS]
boot() {
	local rc=0
	# shellcheck disable=SC2031 # stock_boot set them in this shell
	qemu_boot "$2" "$t" bios 1024 "$kernel" \
		"root=/dev/vda rw console=ttyS0 panic=-1 kdump_file_test=$1${3:+ $3}" \
		"$disk" "${initrd[@]}" || rc=$?
	check_ended "$rc" "boot $1 ended by itself"
}

boot deb-install "$out/console-install.log"
con=$out/console-install.log
check "apt-get installed the package" grep -q "KDUMP-FILE-TEST: rc=0: apt-get install" "$con"
check "the package enabled the service" grep -q "KDUMP-FILE-TEST: after install: enabled enabled" "$con"
check "without a reservation it did not start it, and said so" \
	grep -q "KDUMP-FILE-TEST: after install: enabled enabled active inactive" "$con"
check "the installation says when it loads" \
	grep -q "KDUMP-FILE-TEST:   kdump-file: no memory is reserved for a capture kernel in this boot" "$con"
check "no systemctl failure during the installation" \
	bash -c "! grep -q 'Could not execute systemctl' '$con'"
check "the debconf question showed the size" \
	grep -q "KDUMP-FILE-TEST: debconf: the question showed crashkernel=[0-9]*M" "$con"
check "the debconf question's default ran setup at install" \
	grep -q "KDUMP-FILE-TEST:   kdump-file: crashkernel=[0-9]*M .* is on the next boot's command line" "$con"
check "setup succeeded" grep -q "KDUMP-FILE-TEST: rc=0: kdump-file setup" "$con"
check "setup wrote crashkernel= into the drop-in" grep -qE "KDUMP-FILE-TEST: drop-in: crashkernel=[0-9]+M" "$con"
check "update-grub put it into grub.cfg" grep -qE "KDUMP-FILE-TEST: grub.cfg: [1-9][0-9]* lines with crashkernel=" "$con"
check "setup again: already set up" grep -q "KDUMP-FILE-TEST:   kdump-file: already set up: crashkernel=" "$con"
check "status: reboot to reserve it" grep -q "KDUMP-FILE-TEST:   setup:        crashkernel=.* reboot to reserve it" "$con"
# What the boot loader would pass: the kernel line update-grub wrote.
ck=$(debugfs -R "cat /boot/grub/grub.cfg" "$disk" 2>/dev/null |
	grep -o 'crashkernel=[0-9]*[MG]' | head -n 1)
log "the next boot's ${ck:-crashkernel=?} comes from /boot/grub/grub.cfg"
check "grub.cfg names a crashkernel=" test -n "$ck"

boot deb-crash "$out/console-crash.log" "$ck"
con=$out/console-crash.log
check "the package's service loaded at boot" grep -q "KDUMP-FILE-TEST: loaded ok" "$con"
check "capture complete" grep -q "kdump-file: .* capture complete" "$con"

boot deb-after "$out/console-after.log"
con=$out/console-after.log
check "list shows a complete dump" grep -qE "KDUMP-FILE-TEST:   [0-9a-f]{8}  .* complete" "$con"
check "info by its ID gives the panic" grep -q "KDUMP-FILE-TEST:   panic:       sysrq triggered crash" "$con"
check "debug found the vmlinux by build ID" grep -q "KDUMP-FILE-TEST:   kdump-file: crash --no_crashrc /usr/lib/debug/.build-id/" "$con"
check "debug: crash's bt shows sysrq_handle_crash" grep -q "KDUMP-FILE-TEST:   .*sysrq_handle_crash" "$con"
check "a new kernel package got its capture initramfs from the hook" \
	grep -q "KDUMP-FILE-TEST: the kernel hook built the capture initramfs of .*-cloud-amd64" "$con"
check "show --kver: that initramfs is current" \
	grep -q "KDUMP-FILE-TEST: show --kver: the capture initramfs is current" "$con"
check "the kernel's removal removed its capture initramfs" \
	grep -q "KDUMP-FILE-TEST: the kernel's removal removed its capture initramfs" "$con"
check "the postrm.d hook said so" \
	grep -q "KDUMP-FILE-TEST:   kdump-file: removed the capture initramfs of kernel .*-cloud-amd64" "$con"
check "the running kernel's capture initramfs stayed" \
	grep -q "KDUMP-FILE-TEST: the running kernel's capture initramfs is still there" "$con"
check "apt-get purge succeeded" grep -q "KDUMP-FILE-TEST: rc=0: apt-get purge" "$con"
check "purge left nothing behind" bash -c "! grep -q 'KDUMP-FILE-TEST: after purge: .* is left' '$con'"
check "purge took crashkernel= out of grub.cfg" \
	grep -q "KDUMP-FILE-TEST: after purge: grub.cfg has 0 lines with crashkernel=" "$con"
check "purge kept the dump" grep -q "KDUMP-FILE-TEST: after purge: 1 vmcore in /var/crash" "$con"
rm -f "$disk"
finish
