#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A dump target too small for the vmcore: load warns of it before the
# crash; dmesg and metadata are saved, no file named vmcore is left, an
# older dump on the target is intact, and "kdump-file status" reports the
# incomplete dump with the reason.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

scenario_setup TEST-05-TARGET-FULL
mkdir -p "$out/tiny/2020-01-01-00:00:00"
guest_conf "$out/kdump-file.conf" "target = LABEL=tiny" "path = /"
check "config written into the guest" disk_put_file "$disk" "$out/kdump-file.conf" /etc/kdump-file.conf
old=$out/tiny/2020-01-01-00:00:00
head -c 4M /dev/urandom >"$old/vmcore"
echo "an older dump" >"$old/dmesg.txt"
chmod 0700 "$old"
sum=$(sha256sum <"$old/vmcore")
make_disk "$out/tiny.img" 16M tiny "$out/tiny"

rc=0
crash_boot "$out/console.log" "$disk" -drive "file=$out/tiny.img,format=raw,if=virtio" || rc=$?
check_ended "$rc" "guest ended by itself"
# Load said so before the crash: its warning reaches the journal, which the
# guest step crash-loaded shows as "service:" lines.
check "load warned that the target is too small for the dump" \
	grep -qE "KDUMP-FILE-TEST: service: kdump-file: warning: dump target LABEL=tiny has [0-9.]+ [KM]iB free( beyond min_free_mb)?, less than the [0-9.]+ MiB a dump is expected to need \(about [0-9.]+ MiB, a fifth more and the kernel log\): a crash now would not be saved whole; free space on LABEL=tiny, or set compression = zlib in /etc/kdump-file.conf" \
	"$out/console.log"
check "capture says the target is full" grep -q "vmcore not saved: the dump target is full" "$out/console.log"
mapfile -t dirs < <(dump_dirs "$out/tiny.img" /)
new=${dirs[-1]}
log "dumps on the tiny disk: ${dirs[*]}"
check "a new dump directory was made" test "$new" != "2020-01-01-00:00:00"
dump_fetch "$out/tiny.img" / "$new" "$out/new"
check "dmesg saved" grep -q "sysrq: Trigger a crash" "$out/new/dmesg.txt"
check "metadata saved, complete: false" grep -q '"complete": false' "$out/new/metadata.json"
check "metadata gives the reason" grep -q '"error": "the dump target is full' "$out/new/metadata.json"
check "no file named vmcore" test ! -e "$out/new/vmcore"
check "no partial vmcore left to fill the disk" test ! -e "$out/new/vmcore-incomplete"
dump_fetch "$out/tiny.img" / 2020-01-01-00:00:00 "$out/old"
check "the older dump is intact" test "$(sha256sum <"$out/old/vmcore")" = "$sum"

# The next boot: status sees the incomplete dump on the mounted target.
rc=0
status_boot "$out/console-status.log" "$disk" \
	-drive "file=$out/tiny.img,format=raw,if=virtio" || rc=$?
check_ended "$rc" "status boot ended by itself"
check "status reports the incomplete dump and why" \
	grep -qE "KDUMP-FILE-TEST:   last dump: +([0-9a-f]{8} )?/mnt/target/$new: INCOMPLETE \(dmesg saved, no vmcore: the dump target is full" \
	"$out/console-status.log"
rm -f "$disk" "$out/tiny.img"
finish
