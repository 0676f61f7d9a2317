#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A dump target that stalls while the vmcore is written (QEMU throttles the
# disk's writes to 8 KiB/s): the capture's deadline, capture_timeout = 45,
# ends the capture whatever it is doing and reboots the machine; the next
# boot's status names the step that did not finish.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

scenario_setup TEST-22-STALLED-TARGET
guest_conf "$out/kdump-file.conf" "target = LABEL=kdslow" "path = /crash" "capture_timeout = 45"
check "config written into the guest" disk_put_file "$disk" "$out/kdump-file.conf" /etc/kdump-file.conf
make_disk "$out/slow.img" 256M kdslow

rc=0
crash_boot "$out/console.log" "$disk" \
	-drive "file=$out/slow.img,format=raw,if=virtio,throttling.bps-write=8192" || rc=$?
con=$out/console.log
check "guest ended by itself" test "$rc" -ne 124
check "capture started" grep -q "kdump-file: .* capture started" "$con"
check "the capture's deadline is the configured one" grep -q "kdump-file: .* capture deadline: 45s" "$con"
check "it passed while the vmcore was written" \
	grep -q "kdump-file: .* error: capture_timeout (45s) passed while saving the vmcore: taking failure_action = reboot" "$con"
at=$(sed -n 's/.*kdump-file: \[ *\([0-9.]*\)s\] error: capture_timeout.*/\1/p' "$con" | head -n 1)
check "the deadline was kept: ${at:-?} s after the capture started" \
	awk -v t="${at:-0}" 'BEGIN { exit !(t >= 45 && t < 50) }'
# The reason goes next to the dump when the target still takes a write
# within 5 s; a target this slow, its queue full of the vmcore, does not.
check "the reason recorded, or given up on within 5 s" \
	grep -qE "kdump-file: .* (recorded why in /crash/|warning: cannot record why on the target within 5 s)" "$con"
check "the machine rebooted" grep -q "reboot: Restarting system" "$con"
check "no capture completed" bash -c "! grep -q 'capture complete' '$con'"

# The next boot: status sees the incomplete dump and why.
rc=0
status_boot "$out/console-status.log" "$disk" \
	-drive "file=$out/slow.img,format=raw,if=virtio" || rc=$?
check "status boot ended by itself" test "$rc" -ne 124
check "status says the capture stopped while saving the vmcore, capture_timeout named" \
	grep -qE "KDUMP-FILE-TEST:   last dump: +/mnt/target/crash/[0-9-]+:[0-9:]+: INCOMPLETE \(dmesg saved, no vmcore.*capture_timeout.* passed while saving the vmcore\)" \
	"$out/console-status.log"
rm -f "$disk" "$out/slow.img"
finish
