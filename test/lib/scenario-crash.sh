#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The end-to-end crash scenario: a systemd guest enables kdump-file, crashes
# with sysrq c, the capture kernel saves the dump and reboots; the host then
# checks the dump with crash(8) and makedumpfile(8).
#
#   scenario-crash.sh NAME FIRMWARE(bios|uefi) [MEM_MB] [CRASHKERNEL] [KERNEL]
#
# KERNEL: "ours" (the default), the patched kernel of kernel-build.sh,
# booted without an initrd; or "stock", Debian's own kernel package
# (stock-kernel.sh) on stock-base.sh's rootfs, booted through the
# initramfs-tools initrd the package made, as a Debian machine boots.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/common.sh"

scenario_out "$1"
fw=$2
mem=${3:-1024}
ck=${4:-256M}
flavour=${5:-ours}
log "firmware $fw, ${mem} MiB, crashkernel=$ck, $flavour kernel; output in $out"

case "$flavour" in
ours)
	kdir=$(kernel_dir)
	img=$(guest_image "$kdir")
	release=$(cat "$kdir/release")
	kernel=$kdir/bzImage
	initrd=()
	timeout=${KDUMP_FILE_BOOT_TIMEOUT:-900}
	;;
stock)
	img=$(stock_image)
	stock_boot
	# Under TCG the stock kernel's systemd takes about a minute to
	# multi-user and dracut's first capture initramfs a minute or two
	# more, and the capture kernel boots the modular kernel again.
	timeout=${KDUMP_FILE_BOOT_TIMEOUT:-1500}
	;;
*)
	echo "usage: scenario-crash.sh NAME FIRMWARE [MEM_MB] [CRASHKERNEL] [ours|stock]" >&2
	exit 2
	;;
esac
disk=$out/disk.img
scenario_disk "$img" "$disk"

t0=$(date +%s)
rc=0
qemu_boot "$out/console.log" "$timeout" "$fw" "$mem" "$kernel" \
	"root=/dev/vda rw console=ttyS0 crashkernel=$ck panic=-1 kdump_file_test=crash" \
	"$disk" "${initrd[@]}" || rc=$?
log "guest ended with status $rc after $(($(date +%s) - t0)) s (console: $out/console.log)"
check_ended "$rc" "guest ended by itself (no timeout)"

con=$out/console.log
check "kdump-file.service active after enable --now" grep -q "KDUMP-FILE-TEST: is-active: active" "$con"
check "kexec_crash_loaded reads 1" grep -q "KDUMP-FILE-TEST: kexec_crash_loaded: 1" "$con"
check "kdump-file status exits 0" grep -q "KDUMP-FILE-TEST: rc=0: kdump-file status" "$con"
check "capture kernel ran the capture" grep -q "kdump-file: .* capture started" "$con"
check "capture kernel command line has elfcorehdr=" \
	grep -qE "capture kernel command line: .*elfcorehdr=0x[0-9a-f]+" "$con"
# elfcorehdr= must point where the first kernel loaded the ELF headers.
# Only our kernel says where (kernel-patches 0008 prints it, with
# CONFIG_KEXEC_CRASH_REPORT_ELFCOREHDR, which kdump-file.config sets).
passed_at=$(sed -n 's/.*capture kernel command line: .*elfcorehdr=\(0x[0-9a-f]*\).*/\1/p' "$con" | tail -n 1)
if [ "$flavour" = ours ]; then
	loaded_at=$(sed -n 's/.*kexec: crash ELF core headers loaded at \(0x[0-9a-f]*\) .*/\1/p' "$con" | tail -n 1)
	check "elfcorehdr=${passed_at:-?} is where the ELF headers were loaded (${loaded_at:-?})" \
		test -n "$loaded_at" -a "$loaded_at" = "$passed_at"
else
	log "skipped: where the ELF headers were loaded (the stock kernel does not say)"
fi
check "capture kernel command line has no crashkernel=" \
	bash -c "! grep 'capture kernel command line:' '$con' | grep -q crashkernel="
if [ "$fw" = uefi ]; then
	# Two "efi: EFI v" lines: the first kernel's and the capture kernel's.
	check "capture kernel booted with EFI" \
		test "$(grep -c 'efi: EFI v[0-9]' "$con")" -ge 2
fi
check "capture completed" grep -q "kdump-file: .* capture complete" "$con"

mapfile -t dirs < <(dump_dirs "$disk" /var/crash)
check "exactly one dump directory in /var/crash (found ${#dirs[@]})" test "${#dirs[@]}" -eq 1
if [ "${#dirs[@]}" -ge 1 ]; then
	name=${dirs[-1]}
	dump=$out/dump
	dump_fetch "$disk" /var/crash "$name" "$dump"
	check "dump directory is 0700" test "$(file_mode "$disk" "/var/crash/$name")" = 0700
	check "vmcore is 0600" test "$(file_mode "$disk" "/var/crash/$name/vmcore")" = 0600
	check "metadata names kernel $release" \
		grep -q "\"kernel_release\": \"$release\"" "$dump/metadata.json"
	# The stock kernel's vmlinux comes from its -dbg package, fetched in
	# the background meanwhile (test/run-scenarios.sh starts it early).
	if [ "$flavour" = ours ]; then
		vmlinux=$kdir/vmlinux
	else
		vmlinux=$(stock_vmlinux) || fail "the stock kernel's vmlinux (stock-kernel.sh failed)"
	fi
	check_dump "$name" "$vmlinux" "$dump"
	# shellcheck disable=SC2031 # only self_test_checks' subshells set it
	if [ "$fw" = bios ] && [ "$failures" -eq 0 ]; then
		self_test_checks "$name" "$vmlinux" "$dump" "$out/bad"
	fi
	{
		echo "vmcore: $dump/vmcore"
		echo "vmlinux: $vmlinux"
	} >"$out/paths"
fi
rm -f "$disk" "${disk%.img}.vars.fd"
finish
