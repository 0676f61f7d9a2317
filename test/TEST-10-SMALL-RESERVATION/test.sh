#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A crashkernel= reservation too small for the capture (48M: the capture
# kernel loads but runs out of memory, or resets before it prints): the
# machine must not hang, it reboots by itself, and on the next boot status
# says the capture was lost.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

scenario_setup TEST-10-SMALL-RESERVATION
con=$out/console.log

rc=0
qemu_boot "$con" 600 bios 1024 "$kdir/bzImage" \
	"root=/dev/vda rw console=ttyS0 crashkernel=48M panic=-1 kdump_file_test=crash-loaded" \
	"$disk" || rc=$?
check_ended "$rc" "guest ended by itself (no hang; status $rc)"
check "the capture kernel was loaded into 48M" grep -q "KDUMP-FILE-TEST: loaded ok" "$con"
check "the load warned that 48M is below the estimate" \
	grep -q "warning: the crashkernel= reservation (48 MiB) is smaller than the .* MiB the capture needs" "$con"
check "the capture did not complete" bash -c "! grep -q 'kdump-file: .* capture complete' '$con'"
# Most often the capture kernel boots and panics for want of memory; where
# it lands in the 48M may also leave it too little to print anything before
# the machine resets.  Either way the guest must end by itself.
if [ "$(grep -c 'Linux version' "$con")" -ge 2 ]; then
	check "the capture kernel booted, panicked, then rebooted by itself" \
		grep -q "Rebooting in 10 seconds" "$con"
else
	log "the capture kernel printed nothing: the machine was reset as it started"
	check "the machine was reset, not left hanging (status $rc)" test "$rc" -eq 0
fi

con=$out/console-after.log
rc=0
CRASH_STEP=status crash_boot "$con" "$disk" || rc=$?
check_ended "$rc" "next boot: guest ended by itself"
boot=$(sed -n 's/.*KDUMP-FILE-TEST: boot id: //p' "$out/console.log" | head -n 1)
check "next boot: status says the crash of boot ${boot:-?} was lost" \
	grep -q "KDUMP-FILE-TEST:   last crash:   LOST: boot ${boot:-?} (armed .*) ended without a clean shutdown while the capture kernel was loaded, and no dump from it was saved" "$con"
check "next boot: status points at kdump-file estimate" grep -q "see 'kdump-file estimate'" "$con"
mapfile -t dirs < <(dump_dirs "$disk" /var/crash)
check "no dump directory claims a dump (found ${#dirs[@]})" test "${#dirs[@]}" -eq 0
rm -f "$disk"
finish
