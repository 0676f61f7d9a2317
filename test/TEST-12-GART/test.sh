#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A GART aperture stays out of the dump.  QEMU has no GART, so the test
# module kdump_file_gart stands in for one: 2 MiB of RAM filled with a marker
# and registered in /proc/iomem as amd_gart_64.c registers an aperture
# (kernel-patches/0009).  The guest loads the module, runs kdump-file reload
# (kexec_file_load() builds the ELF core headers anew, now leaving the range
# out: kernel-patches/0010) and crashes.  On the host, crash(8) cannot read
# the range from the saved dump, while it reads linux_banner from the same
# dump.  With 0010 reverted, the same reads return the marker and the
# scenario fails (see kernel-patches/README.md).
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

scenario_setup TEST-12-GART

# data FILE ADDR: the bytes crash read at ADDR, if it read any.
data() {
	grep -iE "^ *0*$2: " "$1" | sed 's/^[^:]*: *//' | cut -c1-47 || true
}

# one_firmware: the crash and the checks on a copy of the prepared disk (see
# firmware_passes).
one_firmware() {
	local t0 con rc range start end d marker banner a got virt normal
	local -a gart cmds
	t0=$(date +%s)
	con=$out/console.log
	rc=0
	CRASH_STEP=gart crash_boot "$con" "$disk" || rc=$?
	check "the guest ended by itself" test "$rc" -ne 124
	range=$(sed -n 's/.*kdump_file_gart: registered GART test range \(0x[0-9a-f]*-0x[0-9a-f]*\).*/\1/p' "$con")
	log "GART test range: ${range:-none}"
	check "the module registered its range" test -n "$range"
	start=$((${range%-*}))
	end=$((${range#*-}))
	check "it is 2 MiB" test "$((end - start + 1))" -eq $((2 << 20))
	check "/proc/iomem shows it as GART" \
		grep -q "KDUMP-FILE-TEST: iomem: *$(printf %08x "$start")-$(printf %08x "$end") : GART" "$con"
	check "reloaded after the module registered it" grep -q "KDUMP-FILE-TEST: rc=0: kdump-file reload" "$con"
	check "capture complete" grep -q "kdump-file: .* capture complete" "$con"
	d=$out/dump
	fetch_one_dump "$d" && [ -n "$range" ] || return 0
	check "vmcore saved" test -s "$d/vmcore"

	# crash's rd -p prints "ADDR:  BYTES  ASCII" for an address in the dump and
	# "seek error" (no ELF header covers it) or "page excluded" (makedumpfile
	# left it out) for one that is not.  The page that holds linux_banner, found
	# with vtop in the same dump, is the control: it must read "Linux version".
	marker="6b 64 75 6d 70 2d 66 69 6c 65 20 47 41 52 54 0a" # "kdump-file GART\n"
	banner="4c 69 6e 75 78 20 76 65 72 73 69 6f 6e 20 36 2e" # "Linux version 6."
	gart=("$(printf %x "$start")" "$(printf %x $((start + (1 << 20))))" "$(printf %x $((end - 15)))")
	cmds=("sym linux_banner")
	for a in "${gart[@]}"; do cmds+=("rd -p -8 $a 16"); done
	crash_run "$kdir/vmlinux" "$d/vmcore" "$out/rd.out" "${cmds[@]}" || true
	virt=$(awk '$NF == "linux_banner" { print $1; exit }' "$out/rd.out")
	crash_run "$kdir/vmlinux" "$d/vmcore" "$out/vtop.out" "vtop ${virt:-0}" || true
	normal=$(awk '/PHYSICAL/ { getline; print $2; exit }' "$out/vtop.out")
	crash_run "$kdir/vmlinux" "$d/vmcore" "$out/rd-normal.out" "rd -p -8 ${normal:-0} 16" || true
	for a in "${gart[@]}"; do
		got=$(data "$out/rd.out" "$a")
		log "rd -p 0x$a: ${got:-(no data)}"
		[ "$got" = "$marker" ] && log "rd -p 0x$a: the marker is in the dump"
		check "GART range at 0x$a is not in the dump" test -z "$got"
		check "GART range at 0x$a: crash says why" \
			grep -qiE "(page excluded|seek error): physical address: 0*$a" "$out/rd.out"
	done
	got=$(data "$out/rd-normal.out" "${normal:-none}")
	log "rd -p 0x${normal:-?} (linux_banner): ${got:-(no data)}"
	check "the page of linux_banner (0x${normal:-?}) is read from the same dump" test "$got" = "$banner"
	log "whole scenario: $(($(date +%s) - t0)) s"
}

firmware_passes one_firmware "$prepared"
rm -f "$disk"
finish
