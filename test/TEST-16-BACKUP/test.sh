#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The crash-time low memory is in the vmcore: with the capture kernel
# loaded at boot, the test module kdump_file_lowmark writes a random marker
# into a reserved page below 640K, then the guest crashes.  Purgatory copies
# [0, 640K) into the backup segment before the capture kernel reuses that
# memory, and the ELF headers show the copy at its own address, so crash(8)
# and kdump-file-analyze read the marker at the page's physical address.
# Without the backup (kernel-patches: "x86/crash: save the low 640K ...")
# the vmcore has no low memory at all and the reads fail; with the backup
# kept but its copy switched off (crash_backup_copy=off, a boot option of
# the test kernel) the page reads as zeros and the marker is not found,
# which the last pass checks.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

scenario_setup TEST-16-BACKUP
make -s -C "$KDUMP_FILE_TOP/analysis" all

# dump_level 31 (the default) keeps the page: makedumpfile drops zero,
# cache, user and free pages, and the low 1M is reserved, none of these.
# Set it anyway, so that a change of the default does not hide the result.
guest_conf "$out/kdump-file.conf" "dump_level = 31"
check "config written into the guest" disk_put_file "$disk" "$out/kdump-file.conf" /etc/kdump-file.conf

# one_firmware: the crash and the checks, on a copy of the disk made above
# (see firmware_passes).
one_firmware() {
	local rc d line marker phys theirs ours ck ck_range
	rc=0
	# KDUMP_FILE_BACKUP_APPEND=crash_backup_copy=off shows that these
	# checks fail without the copy.
	CRASH_STEP=backup-mark CRASH_APPEND=${KDUMP_FILE_BACKUP_APPEND:-} \
		crash_boot "$out/console.log" "$disk" || rc=$?
	check_ended "$rc" "guest ended by itself (no timeout)"
	check "the kernel did not skip the backup" \
		bash -c "! grep -q 'Not saving the low 640K' '$out/console.log'"
	line=$(grep -m1 -o "kdump_file_lowmark: marker [0-9a-f]\{32\} at 0x[0-9a-f]*" "$out/console.log" || true)
	marker=$(echo "$line" | awk '{ print $3 }')
	phys=$(echo "$line" | awk '{ print $5 }')
	phys=${phys#0x}
	log "marker ${marker:-?} at 0x${phys:-?}"
	check "the test module wrote a marker" test -n "$marker" -a -n "$phys"
	check "the capture kernel saved the dump" grep -q "kdump-file: .* capture complete" "$out/console.log"

	d=$out/dump
	fetch_one_dump "$d" && [ -n "$marker" ] || return 0
	check_dump dump "$kdir/vmlinux" "$d"

	# rd -p -8 prints "ADDR:  b0 b1 ... b15  ascii": the 16 bytes as one string.
	crash_run "$kdir/vmlinux" "$d/vmcore" "$out/rd.out" "rd -p -8 $phys 16" || true
	theirs=$(awk -v a="$phys" 'tolower($1) ~ "^0*" a ":$" {
		for (i = 2; i <= 17; i++) printf "%s", $i; exit }' "$out/rd.out")
	log "crash rd -p at 0x$phys: [${theirs:-$(grep -m1 -iE 'rd:|error' "$out/rd.out")}]"
	check "crash reads the marker at 0x$phys in the vmcore" test "$theirs" = "$marker"

	ours=$("$ANALYZE" read "$d/vmcore" "$phys" 16 2>"$out/read.err" |
		cut -d: -f2 | cut -c1-50 | tr -d ' \n') || true
	log "kdump-file-analyze read at 0x$phys: [${ours:-$(tail -n 1 "$out/read.err")}]"
	check "kdump-file-analyze reads the marker at 0x$phys in the vmcore" test "$ours" = "$marker"

	# The rest of the low 1M is still left out, and the crash kernel region
	# (where the backup segment lies) is not dumped a second time.
	ck=$(sed -n 's/.*Reserving \([0-9]*\)MB of memory at \([0-9]*\)MB for crashkernel.*/\1 \2/p' \
		"$out/console.log" | head -n 1)
	ck_range=$(echo "$ck" | awk 'NF == 2 { printf "%x-%x", $2 * 1048576, ($1 + $2) * 1048576 - 1 }')
	log "crashkernel: ${ck_range:-?}"
	check "kdump-file-analyze check: marker, [640K, 1M) and crashkernel= not in the dump" \
		"$ANALYZE" check "$d/vmcore" --vmlinux "$kdir/vmlinux" --marker "$phys:$marker" \
		--exclude a0000-fffff --crashkernel "${ck_range:-0-0}"
}

firmware_passes one_firmware "$disk"

# no_copy: the same crash under SeaBIOS with crash_backup_copy=off, a boot
# option of the test kernel only (kernel-patches 0012): the backup segment
# and the PT_LOAD for [0, 640K) stay, but purgatory copies nothing into
# the segment. The marker must then NOT be in the dump, and the page reads
# as zeros: what the passes above found there came from the copy.
no_copy() {
	local top=$out out disk rc line marker phys d theirs ours zeros
	out=$top/no-copy
	disk=$out/disk.img
	SCENARIO=TEST-16-BACKUP/no-copy
	mkdir -p "$out"
	scenario_disk "$top/disk.img" "$disk"
	rc=0
	CRASH_STEP=backup-mark CRASH_APPEND=crash_backup_copy=off \
		crash_boot "$out/console.log" "$disk" || rc=$?
	check_ended "$rc" "no copy: guest ended by itself (no timeout)"
	check "no copy: the kernel said it will not copy" \
		grep -q "Not copying the low 640K at crash time: crash_backup_copy=off" "$out/console.log"
	line=$(grep -m1 -o "kdump_file_lowmark: marker [0-9a-f]\{32\} at 0x[0-9a-f]*" "$out/console.log" || true)
	marker=$(echo "$line" | awk '{ print $3 }')
	phys=$(echo "$line" | awk '{ print $5 }')
	phys=${phys#0x}
	check "no copy: the test module wrote a marker" test -n "$marker" -a -n "$phys"
	check "no copy: the capture kernel saved the dump" grep -q "kdump-file: .* capture complete" "$out/console.log"
	d=$out/dump
	if fetch_one_dump "$d" && [ -n "$marker" ]; then
		crash_run "$kdir/vmlinux" "$d/vmcore" "$out/rd.out" "rd -p -8 $phys 16" || true
		theirs=$(awk -v a="$phys" 'tolower($1) ~ "^0*" a ":$" {
			for (i = 2; i <= 17; i++) printf "%s", $i; exit }' "$out/rd.out")
		ours=$("$ANALYZE" read "$d/vmcore" "$phys" 16 2>"$out/read.err" |
			cut -d: -f2 | cut -c1-50 | tr -d ' \n') || true
		zeros=00000000000000000000000000000000
		log "no copy: crash rd -p at 0x$phys: [${theirs:-?}], kdump-file-analyze: [${ours:-?}]"
		check "no copy: crash does not find the marker at 0x$phys" test "$theirs" != "$marker"
		check "no copy: crash reads zeros there (the PT_LOAD is kept, the copy is not made)" \
			test "$theirs" = "$zeros"
		check "no copy: kdump-file-analyze does not find the marker either" test "$ours" != "$marker"
	fi
	rm -f "$disk"
	SCENARIO=TEST-16-BACKUP
}
no_copy

rm -f "$disk"
finish
