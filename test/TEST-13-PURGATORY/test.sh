#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Purgatory refuses a damaged capture image.  The prepared guest loads the
# capture kernel at boot (kdump-file.service); the guest step flips one
# byte of a segment of the loaded image through
# /sys/kernel/debug/kexec_crash_corrupt (kernel-patches/0009,
# CONFIG_KEXEC_CRASH_CORRUPT_TEST) and crashes with sysrq c.  Purgatory
# finds the SHA-256 digest wrong and spins (arch/x86/purgatory/purgatory.c),
# so no capture kernel starts: no second kernel banner, no capture line.
# The hardware watchdog (QEMU's i6300esb, kept running by systemd in the
# crashed system) resets the machine.  Two segments, each under SeaBIOS and
# under OVMF, each on its own copy of the prepared disk:
#
# 1. the capture kernel's;
# 2. the crash ELF core headers', after which the next boot's status and
#    journal must say that the crash was lost and why, from the capture's
#    pstore holding nothing: under OVMF in EFI variables (the variable
#    store kept beside the disk for a second boot), under SeaBIOS in RAM
#    (ramoops, the guest rebooting in place), as scenario-lost.sh has it.
#
# Then the same disk, undamaged, captures a crash.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

scenario_setup TEST-13-PURGATORY

# damaged_crash WHAT CON INPLACE: checks of a damaged image's crash in
# console log CON (crash_timed's); WHAT names the case in the checks.
# INPLACE 1: the guest came back in the same QEMU (a reboot in place), and
# its own kernel is the one banner after the crash.
damaged_crash() {
	local what=$1 con=$2 want=$3 after banners secs
	after=${con%.log}-after-crash.log
	check "$what: the guest panicked" grep -q "Kernel panic - not syncing: sysrq triggered crash" "$con"
	sed -n '/KDUMP-FILE-TEST: crashing/,$p' "$con" >"$after"
	check "$what: the system's watchdog was running" \
		grep -q "KDUMP-FILE-TEST: watchdog: active timeout 30 " "$con"
	# A capture kernel's command line has elfcorehdr= (kexec_file_load()
	# adds it), the guest's own none.
	check "$what: no capture kernel started (no elfcorehdr= after the crash)" \
		bash -c "! grep -q 'elfcorehdr=' '$after'"
	check "$what: no capture started" bash -c "! grep -q 'kdump-file: .* capture started' '$after'"
	banners=$(grep -c "Linux version" "$after") || true
	check "$what: $want kernel banner(s) after the crash, found ${banners:-0}" test "${banners:-0}" -eq "$want"
	# The watchdog, not the guest, ended it: systemd pings it every 15 s
	# with a 30 s timeout, so more than 15 s were left at the crash (a
	# reset by the guest itself comes at once); at most 30 s, and a
	# margin: TCG's clock runs late under load, and a reboot in place
	# boots up to its banner.
	if [ "$want" = 1 ]; then
		secs=$(cat "$con.crash-to-banner" 2>/dev/null || echo 9999)
	else
		secs=$(cat "$con.crash-to-end" 2>/dev/null || echo 9999)
	fi
	log "$what: from the crash to the watchdog's reset: $secs s"
	check "$what: reset by the watchdog ($secs s after the crash: 10 s to 75 s)" \
		test "$secs" -ge 10 -a "$secs" -le 75
}

# 1. The damaged capture kernel.
damaged_kernel() {
	local con=$out/console-kernel.log rc=0 t0 seg
	t0=$(date +%s)
	CRASH_STEP=purgatory-corrupt crash_timed "$con" crash_boot "$con" "$disk" \
		"${WATCHDOG_QEMU[@]}" || rc=$?
	check_ended "$rc" "kernel: the guest ended by itself after $(($(date +%s) - t0)) s"
	check "kernel: the capture kernel was loaded at boot" grep -q "KDUMP-FILE-TEST: is-active: active" "$con"
	seg=$(sed -n 's/^KDUMP-FILE-TEST: kernel segment: \([0-9]*\) .*/\1/p' "$con")
	check "kernel: the guest found the kernel's segment (${seg:-none}), not purgatory's" test -n "$seg"
	check "kernel: an index past the last segment is refused with ERANGE" \
		grep -q "KDUMP-FILE-TEST: case out-of-range: rc=1 .*Numerical result out of range" "$con"
	# Without this line the test could pass on a guest that merely hung.
	check "kernel: the kernel says it damaged segment ${seg:-?}" \
		grep -qE "kexec_crash_corrupt: flipped the byte at 0x[0-9a-f]+ in segment ${seg:-none} \[mem 0x[0-9a-f]+-0x[0-9a-f]+\]" "$con"
	damaged_crash kernel "$con" 0
}
firmware_passes damaged_kernel "$prepared"

# 2. The damaged ELF core headers, and what the next boot says of the
# crash.  The capture had pstore (the armed marker names it), left nothing
# there, and no dump was saved.
damaged_header() {
	local fw=$1 con=$out/console-header.log rc=0 t0 seg at boot backend s inplace=0
	local -a dirs
	t0=$(date +%s)
	if [ "$fw" = bios ]; then
		backend=ramoops
		inplace=1
		CRASH_APPEND=$RAMOOPS_APPEND CRASH_TIMEOUT=1200 CRASH_STEP=purgatory-header \
			KDUMP_FILE_REBOOT_IN_PLACE=1 crash_timed "$con" crash_boot "$con" "$disk" \
			"${WATCHDOG_QEMU[@]}" || rc=$?
	else
		backend=efi_pstore
		CRASH_STEP=purgatory-header crash_timed "$con" crash_boot "$con" "$disk" \
			"${WATCHDOG_QEMU[@]}" || rc=$?
	fi
	check_ended "$rc" "header: the guest ended by itself after $(($(date +%s) - t0)) s"
	check "header: the capture kernel was loaded at boot" grep -q "KDUMP-FILE-TEST: is-active: active" "$con"
	# The kernel names efi_pstore "efi" or, from late 2022, by its module.
	check "header: the first kernel's pstore is $backend" \
		grep -q "KDUMP-FILE-TEST: pstore backend: ${backend%_pstore}" "$con"
	check "header: the load recorded the capture's pstore ($backend)" \
		grep -q "KDUMP-FILE-TEST: armed: boot=.* pstore=$backend kernel=" "$con"
	# Where the crashed kernel last said it loaded them.
	at=$(sed -n '/KDUMP-FILE-TEST: crashing/q; s/.*kexec: crash ELF core headers loaded at \(0x[0-9a-f]*\) .*/\1/p' "$con" | tail -n 1)
	seg=$(sed -n 's/^KDUMP-FILE-TEST: header segment: \([0-9]*\) .*/\1/p' "$con")
	check "header: the guest found the segment of the ELF core headers (${seg:-none} at ${at:-?})" \
		grep -q "KDUMP-FILE-TEST: header segment: [0-9]* (mem ${at:-none})" "$con"
	check "header: the kernel says it damaged segment ${seg:-?} at ${at:-?}" \
		grep -qE "kexec_crash_corrupt: flipped the byte at 0x[0-9a-f]+ in segment ${seg:-none} \[mem ${at:-none}-0x[0-9a-f]+\]" "$con"
	damaged_crash header "$con" "$inplace"

	# The next boot: under SeaBIOS the same QEMU after the reset in place,
	# under OVMF a boot of its own.
	if [ "$inplace" = 1 ]; then
		s=${con%.log}-after-crash.log
		check "header: the guest rebooted in place" grep -q "KDUMP-FILE-TEST: after the reboot in place" "$s"
	else
		s=$out/console-header-status.log
		rc=0
		CRASH_STEP=lost-status crash_boot "$s" "$disk" "${WATCHDOG_QEMU[@]}" || rc=$?
		check_ended "$rc" "header: the boot after ended by itself"
	fi
	boot=$(sed -n 's/^KDUMP-FILE-TEST: boot id: //p' "$con" | head -n 1)
	grep "KDUMP-FILE-TEST:" "$s" | grep -E "last crash|journal:" | sed 's/^/    /' >&2 || true
	check "header: status: LOST, boot ${boot:-?}: nothing from a capture kernel in pstore ($backend), purgatory named" \
		grep -q "KDUMP-FILE-TEST:   last crash: *LOST: boot ${boot:-none} (armed .*) ended without a clean shutdown while the capture kernel was loaded, and no dump from it was saved: if it crashed, no capture kernel left a record in pstore ($backend): it never started, or stopped before it could record; purgatory refuses a capture kernel damaged after the load" "$s"
	check "header: status: what to do" \
		grep -q "KDUMP-FILE-TEST:   last crash: .*'kdump-file reload' loads a fresh copy, and 'kdump-file test' with the console or serial log watched shows where it stops" "$s"
	check "header: the journal says it in one line" \
		grep -q "KDUMP-FILE-TEST: journal: kdump-file: a crash was lost: boot ${boot:-none} .*no capture kernel left a record in pstore ($backend)" "$s"
	mapfile -t dirs < <(dump_dirs "$disk" /var/crash)
	check "header: no dump directory (found ${#dirs[@]})" test "${#dirs[@]}" -eq 0
}
firmware_passes damaged_header "$prepared"

# 3. A copy of the same disk, nothing damaged: the capture kernel starts and
# saves a dump (as in every crash scenario; here it shows that parts 1 and
# 2 failed because of the damage only).
con=$out/console-undamaged.log
rc=0
CRASH_STEP=crash-loaded crash_boot "$con" "$disk" || rc=$?
check_ended "$rc" "undamaged: the guest ended by itself"
check "undamaged: the capture kernel started" \
	bash -c "sed -n '/KDUMP-FILE-TEST: crashing/,\$p' '$con' | grep -q 'Linux version'"
check "undamaged: capture complete" grep -q "kdump-file: .* capture complete" "$con"
rm -f "$disk"
finish
