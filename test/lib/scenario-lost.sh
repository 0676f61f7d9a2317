#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Captures that save nothing, under OVMF: the machine must come back by
# itself, and the next boot must say why the crash was lost, from the
# record the capture kernel left in pstore (EFI variables, which survive
# the reboot in the guest's variable store).
#
#   scenario-lost.sh NAME no-init|no-target|ramoops
#
# no-init     our kernel; the capture kernel panics before /init with
#             panic=0 (a dead state); the hardware watchdog (QEMU's
#             i6300esb, kept running by systemd in the crashed system)
#             resets it; pstore keeps the panic
# no-target   Debian's stock kernel; the dump target never appears; the
#             capture records why, and the watchdog it armed is disarmed
#             before the reboot
# ramoops     our kernel under SeaBIOS, pstore in RAM: a memmap= reservation
#             and ramoops in the first kernel, the guest rebooting in place
#             (its RAM kept); the dump target never appears
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/common.sh"

scenario_out "$1"
kind=$2
fw=uefi
extra=
case "$kind" in
no-init)
	kdir=$(kernel_dir)
	src=$(guest_image "$kdir")
	kernel=$kdir/bzImage
	initrd=()
	;;
ramoops)
	kdir=$(kernel_dir)
	src=$(guest_image "$kdir")
	kernel=$kdir/bzImage
	initrd=()
	fw=bios
	extra=" $RAMOOPS_APPEND"
	export KDUMP_FILE_REBOOT_IN_PLACE=1
	;;
no-target)
	src=$(stock_image)
	stock_boot
	;;
*)
	echo "usage: scenario-lost.sh NAME no-init|no-target|ramoops" >&2
	exit 2
	;;
esac
log "$kind, $fw, 1024 MiB, crashkernel=256M, i6300esb; output in $out"
disk=$out/disk.img
scenario_disk "$src" "$disk"
con=$out/console.log

# boot STEP LOG: one boot under OVMF (the variable store kept beside the
# disk from boot to boot) with QEMU's watchdog, running STEP.
# The seconds from the guest's "crashing" to its end go to $2.crash-to-end
# (crash_timed).
boot() {
	local rc=0 t0
	t0=$(date +%s)
	# shellcheck disable=SC2031 # stock_boot set them in this shell
	crash_timed "$2" qemu_boot "$2" "${KDUMP_FILE_BOOT_TIMEOUT:-1500}" "$fw" 1024 "$kernel" \
		"root=/dev/vda rw console=ttyS0 crashkernel=256M panic=-1 kdump_file_test=$1$extra" \
		"$disk" "${initrd[@]}" "${WATCHDOG_QEMU[@]}" || rc=$?
	check_ended "$rc" "boot $1 ended by itself (no timeout) after $(($(date +%s) - t0)) s"
	if [ -f "$2.crash-to-end" ]; then
		log "from the crash to the guest's end: $(cat "$2.crash-to-end") s"
	fi
}

boot "lost-$kind" "$con"
check "the capture kernel was loaded" grep -q "KDUMP-FILE-TEST: loaded: 1" "$con"
if [ "$kind" = ramoops ]; then
	check "show: pstore in RAM" grep -q "KDUMP-FILE-TEST:   pstore: *ramoops (built in): a failed capture's reason is kept in RAM" "$con"
else
	check "show: pstore in EFI variables" grep -q "KDUMP-FILE-TEST:   pstore: .*efi_pstore" "$con"
fi
check "show: the watchdog's driver" grep -q "KDUMP-FILE-TEST:   watchdog: *i6300esb" "$con"
check "crashed" grep -q "KDUMP-FILE-TEST: crashing" "$con"
# From the crash to the end of the guest, by the console's own clock.
after=$out/after-crash.log
awk '/KDUMP-FILE-TEST: crashing/{on=1; next} on' "$con" >"$after"
case "$kind" in
no-init)
	check "the system's watchdog was running" \
		grep -q "KDUMP-FILE-TEST: watchdog: active timeout 30 " "$con"
	check "show: it resets a capture kernel that hangs before the capture" \
		grep -q "KDUMP-FILE-TEST:   watchdog: *active in this system (timeout 30 s)" "$con"
	check "the capture kernel panicked before /init" \
		grep -q "Kernel panic - not syncing: VFS: Unable to mount root fs" "$after"
	check "the capture program never ran" bash -c "! grep -q 'capture started' '$after'"
	check "no reboot by the kernel (panic=0): the watchdog ended it" \
		bash -c "! grep -q 'Rebooting in' '$after'"
	# The crashed system's systemd pinged it last up to 15 s before the
	# crash (half its 30 s); TCG's clock runs late under load.
	secs=$(cat "$con.crash-to-end" 2>/dev/null || echo 9999)
	check "reset within the watchdog's 30 s and a margin: $secs s after the crash" test "$secs" -le 60
	;;
no-target)
	check "the capture armed the watchdog" \
		grep -qE "kdump-file: .* hardware watchdog armed: [0-9]+ s \(i6300esb\)" "$after"
	check "the target never appeared" \
		grep -q "kdump-file: .* error: dump target LABEL=kdnowhere not found within 10s" "$after"
	check "the capture recorded why in pstore" \
		grep -q "kdump-file: .* recorded why for the next boot (pstore: efi" "$after"
	check "and rebooted" grep -q "kdump-file: .* rebooting" "$after"
	;;
ramoops)
	check "the first kernel keeps its pstore in RAM" grep -q "KDUMP-FILE-TEST: pstore backend: ramoops" "$con"
	check "the capture kernel got ramoops' layout" \
		grep -q "capture kernel command line: .*ramoops.mem_address=268435456 .*ramoops.max_reason=4" "$after"
	check "the target never appeared" \
		grep -q "kdump-file: .* error: dump target LABEL=kdnowhere not found within 10s" "$after"
	check "the capture recorded why in pstore" \
		grep -q "kdump-file: .* recorded why for the next boot (pstore: ramoops)" "$after"
	check "the guest rebooted in place" grep -q "KDUMP-FILE-TEST: after the reboot in place" "$after"
	check "a watchdog that cannot wait capture_timeout + 60 s is left stopped" \
		grep -q "kdump-file: .* warning: watchdog i6300esb cannot wait 3060 s (capture_timeout + 60): left stopped" "$after"
	;;
esac

# The next boot: the reason, from pstore, in status and the journal.
if [ "$kind" = ramoops ]; then
	s=$after
else
	boot lost-status "$out/console-status.log"
	s=$out/console-status.log
fi
grep "KDUMP-FILE-TEST:" "$s" | grep -E "last crash|journal:|pstore archive" | sed 's/^/    /' >&2 || true
case "$kind" in
no-init)
	check "status: LOST, the capture kernel panicked, and the panic" \
		grep -q "KDUMP-FILE-TEST:   last crash: *LOST: the crash before .* was not saved: the capture kernel panicked before the capture could finish: VFS: Unable to mount root fs" "$s"
	check "the journal says it in one line" \
		grep -q "KDUMP-FILE-TEST: journal: kdump-file: a crash was lost: .*the capture kernel panicked" "$s"
	;;
no-target | ramoops)
	check "status: LOST, the step, the cause and what to do" \
		grep -q "KDUMP-FILE-TEST:   last crash: *LOST: the crash at .* was not saved: the capture failed while waiting for the dump target: dump target LABEL=kdnowhere not found within 10s: No such device (ENODEV); modules loaded: .*; check that 'target'" "$s"
	check "the journal says it in one line" \
		grep -q "KDUMP-FILE-TEST: journal: kdump-file: a crash was lost: the crash at .* waiting for the dump target" "$s"
	;;
esac
rm -f "$disk" "${disk%.img}.vars.fd"
finish
