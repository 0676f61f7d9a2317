#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Power lost in the middle of a capture (QEMU killed while makedumpfile
# writes an unfiltered, uncompressed vmcore): the next boot reports the dump
# as incomplete, never as complete, and the next crash still captures.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

scenario_setup TEST-14-POWER-LOSS

# A slow dump: every page, uncompressed (about 1 GiB to write).
guest_conf "$out/slow.conf" "dump_level = 0" "compression = none"
check "slow config written into the guest" disk_put_file "$disk" "$out/slow.conf" /etc/kdump-file.conf

con=$out/console-1.log
rc=0
crash_boot "$con" "$disk" -pidfile "$out/qemu.pid" &
qpid=$!
killed=0
if qemu_watch "$con" "kdump-file: .* saving vmcore" 500; then
	sleep 2
	if ! grep -q "capture complete" "$con.serial" && kill -9 "$(cat "$out/qemu.pid")"; then
		killed=1
	fi
fi
wait "$qpid" || rc=$?
check "power cut while makedumpfile was writing" test "$killed" -eq 1
check "the capture had not completed" bash -c "! grep -q 'kdump-file: .* capture complete' '$con'"
# The next boot: status, then another crash, with the default config.
guest_conf "$out/default.conf"
check "default config written into the guest" disk_put_file "$disk" "$out/default.conf" /etc/kdump-file.conf
con=$out/console-2.log
rc=0
CRASH_STEP=status-crash crash_boot "$con" "$disk" || rc=$?
check_ended "$rc" "next boot: guest ended by itself"
check "next boot: status reports the dump as incomplete" \
	grep -q "KDUMP-FILE-TEST:   last dump: .*: INCOMPLETE (dmesg saved, .*the capture did not finish" "$con"
check "next boot: status does not call it complete" \
	bash -c "! grep -q 'KDUMP-FILE-TEST:   last dump: .*: complete' '$con'"
check "next crash: capture complete" grep -q "kdump-file: .* capture complete" "$con"
# The disk as the guest left it (its journal replayed by that boot).
mapfile -t dirs < <(dump_dirs "$disk" /var/crash)
check "the interrupted dump is there (${dirs[*]})" test "${#dirs[@]}" -ge 1
first=${dirs[0]:-none}
dump_fetch "$disk" /var/crash "$first" "$out/dump-1"
check "no file named vmcore in it" test ! -e "$out/dump-1/vmcore"
check "the dmesg saved before the cut survived" grep -q "sysrq: Trigger a crash" "$out/dump-1/dmesg.txt"
check "metadata says not complete, and why" \
	grep -q '"error": "the capture did not finish: power was lost' "$out/dump-1/metadata.json"

mapfile -t dirs < <(dump_dirs "$disk" /var/crash)
check "two dump directories now (${dirs[*]})" test "${#dirs[@]}" -eq 2
if [ "${#dirs[@]}" -ge 2 ]; then
	dump_fetch "$disk" /var/crash "${dirs[1]}" "$out/dump-2"
	check_dump "${dirs[1]}" "$kdir/vmlinux" "$out/dump-2"
fi
rm -f "$disk"
finish
