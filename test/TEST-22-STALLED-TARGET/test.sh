#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A dump target that stalls while the vmcore is written (QEMU throttles the
# disk's writes to 8 KiB/s): the capture's deadline, capture_timeout = 45,
# ends the capture whatever it is doing and reboots the machine; the next
# boot's status names the step that did not finish.  With keep = 1, the
# one complete dump made before survives two such incomplete captures:
# retention removes incomplete dumps first and never the last complete one.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

scenario_setup TEST-22-STALLED-TARGET
guest_conf "$out/kdump-file.conf" "target = LABEL=kdslow" "path = /crash" \
	"capture_timeout = 45" "keep = 1"
check "config written into the guest" disk_put_file "$disk" "$out/kdump-file.conf" /etc/kdump-file.conf
make_disk "$out/slow.img" 256M kdslow
slow=(-drive "file=$out/slow.img,format=raw,if=virtio,throttling.bps-write=8192")

# The dumps on the disk after a capture cut short: its journal replayed
# first, as the next mount would (debugfs reads only what was written
# back before the reboot).
dumps_now() {
	e2fsck -fy "$out/slow.img" >/dev/null 2>&1 || true
	mapfile -t dumps < <(dump_dirs "$out/slow.img" /crash)
}

# 1. The disk at full speed: one complete dump.
rc=0
crash_boot "$out/console-1.log" "$disk" -drive "file=$out/slow.img,format=raw,if=virtio" || rc=$?
check_ended "$rc" "crash 1: guest ended by itself"
check "crash 1: capture complete" grep -q "kdump-file: .* capture complete" "$out/console-1.log"
mapfile -t dumps < <(dump_dirs "$out/slow.img" /crash)
complete=none
[ "${#dumps[@]}" -eq 0 ] || complete=${dumps[-1]}
log "the complete dump: $complete"

# 2. The same disk stalled.
rc=0
crash_boot "$out/console.log" "$disk" "${slow[@]}" || rc=$?
con=$out/console.log
check_ended "$rc" "guest ended by itself"
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
check "retention (keep = 1) left the only complete dump alone" \
	bash -c "! grep -q 'removed old dump' '$con'"
dumps_now
log "after the stalled capture: ${dumps[*]}"
first_incomplete=none
[ "${#dumps[@]}" -eq 0 ] || first_incomplete=${dumps[-1]}
check "the complete dump and the incomplete one are there" \
	test "${#dumps[@]}" -eq 2 -a "${dumps[0]:-}" = "$complete"

# 3. Stalled again: the incomplete dump goes, the complete one stays.
rc=0
crash_boot "$out/console-3.log" "$disk" "${slow[@]}" || rc=$?
check_ended "$rc" "crash 3: guest ended by itself"
check "crash 3: the capture's deadline passed" grep -q "error: capture_timeout (45s) passed" "$out/console-3.log"
check "crash 3: retention removed the incomplete dump first" \
	grep -q "removed old dump $first_incomplete (keep = 1), an incomplete one" "$out/console-3.log"
check "crash 3: and not the complete one" \
	bash -c "! grep -q 'removed old dump $complete' '$out/console-3.log'"
dumps_now
log "after the second stalled capture: ${dumps[*]}"
check "the last complete dump survives, beside the newest incomplete one" \
	test "${#dumps[@]}" -eq 2 -a "${dumps[0]:-}" = "$complete" -a "${dumps[1]:-}" != "$first_incomplete"
mkdir -p "$out/dump"
dump_fetch "$out/slow.img" /crash "$complete" "$out/dump"
check "the complete dump still has its vmcore" test -s "$out/dump/vmcore"

# The next boot: status, the target not mounted, reads it through a
# read-only mount of its own and sees the incomplete dump and why.
rc=0
STATUS_STEP=status status_boot "$out/console-status.log" "$disk" \
	-drive "file=$out/slow.img,format=raw,if=virtio" || rc=$?
check_ended "$rc" "status boot ended by itself"
check "status reads the target that nothing mounts" \
	grep -q "KDUMP-FILE-TEST:   dump target:  LABEL=kdslow, not mounted: read through a mount of this command's own" \
	"$out/console-status.log"
check "status says the capture stopped while saving the vmcore, capture_timeout named" \
	grep -qE "KDUMP-FILE-TEST:   last dump: +([0-9a-f]{8} )?/run/kdump-file/target/crash/[0-9-]+:[0-9:]+: INCOMPLETE \(dmesg saved, no vmcore.*capture_timeout.* passed while saving the vmcore\)" \
	"$out/console-status.log"
rm -f "$disk" "$out/slow.img"
finish
