#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The crash-time low memory is in the vmcore, including what the capture
# kernel overwrites.  With the capture kernel loaded at boot, the test
# module kdump_file_lowmark writes two random markers into reserved pages
# below 640K, then the guest crashes: one at 0x50000, which no kernel
# touches after boot, and one at the start of the first kernel's real-mode
# trampoline, where the capture kernel puts its own trampoline before the
# dump is read (both kernels log where with memblock=debug; the test checks
# that the two agree).  Purgatory copies [0, 640K) into the backup segment
# before the capture kernel reuses that memory, and the ELF headers show the
# copy at its own address, so crash(8) and kdump-file-analyze read both
# markers at their physical addresses (under SeaBIOS and OVMF).  Without the
# backup (kernel patches 5-7) the vmcore has no low memory at all and the
# reads fail.  Two more passes, under SeaBIOS, boot with crash_backup_copy=,
# an option of the test kernel only (kernel patch 13):
# - off: the backup segment and its PT_LOAD are kept but nothing is copied;
#   both pages read as zeros, so what the passes above found came from the
#   copy;
# - inplace: no backup segment, the PT_LOAD reads [0, 640K) where it is
#   (what 6.1 could do instead, since the capture kernel keeps the low 1M
#   reserved): the marker at 0x50000 is there, but the one at the
#   trampoline is not, because the capture kernel wrote over it.  That page
#   is what the copy keeps and reading in place loses.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

scenario_setup TEST-16-BACKUP
make -s -C "$KDUMP_FILE_TOP/analysis" all

# dump_level 31 (the default) keeps the pages: makedumpfile drops zero,
# cache, user and free pages, and the low 1M is reserved, none of these.
# Set it anyway, so that a change of the default does not hide the result.
# memblock=debug makes each kernel log where reserve_real_mode()
# (arch/x86/realmode/init.c) puts its trampoline: the first kernel's, for
# the guest step, through CRASH_APPEND below; the capture kernel's, for the
# checks here, through cmdline_append (it would inherit the first kernel's
# too, but the test does not depend on what kdump-file passes on).
guest_conf "$out/kdump-file.conf" "dump_level = 31" "cmdline_append = memblock=debug"
check "config written into the guest" disk_put_file "$disk" "$out/kdump-file.conf" /etc/kdump-file.conf

# The first kernel's command line: memblock=debug.  Its lines and the rest
# of the boot come to 60-90 KB of log by the time the guest step reads
# dmesg, well within the default buffer (256 KiB).  A larger log_buf_len=
# is not wanted: a buffer allocated at boot and mostly unused made
# makedumpfile --dump-dmesg fail on the dump ("Can't get
# prb.text_data_ring"), as dump level 31 drops its zero pages.
BACKUP_APPEND="memblock=debug"

# marker_at LOG PHYS: the marker the test module wrote at 0x<PHYS>.
marker_at() {
	tr -d '\r' <"$1" |
		sed -n "s/.*kdump_file_lowmark: marker \([0-9a-f]\{32\}\) at 0x$2\([^0-9a-f].*\)\{0,1\}\$/\1/p" |
		head -n 1
}

# first_trampoline LOG: "<start>-<end>" (hex) of the first kernel's
# trampoline, as the guest step found it and marked its first page.
first_trampoline() {
	tr -d '\r' <"$1" |
		sed -n 's/.*KDUMP-FILE-TEST: backup-mark: trampoline at 0x\([0-9a-f][0-9a-f]*\)-0x\([0-9a-f][0-9a-f]*\).*/\1-\2/p' |
		head -n 1
}

# capture_trampoline LOG: "<start>-<end>" (hex) of the capture kernel's
# trampoline: the memblock=debug lines of reserve_real_mode()'s allocation
# after the guest said it crashes.
capture_trampoline() {
	tr -d '\r' <"$1" | sed -n '/KDUMP-FILE-TEST: crashing/,$ {
		/memblock_phys_alloc_range: .* reserve_real_mode+/ {
			n
			s/.*memblock_reserve: \[0x0*\([0-9a-f][0-9a-f]*\)-0x0*\([0-9a-f][0-9a-f]*\)\].*/\1-\2/p
		}
	}' | head -n 1
}

# crash_rd DUMPDIR OUT PHYS...: crash's "rd -p -8 PHYS 16" for each PHYS,
# in one run, into OUT.
crash_rd() {
	local d=$1 rdout=$2 p
	local -a cmds=()
	shift 2
	for p in "$@"; do
		cmds+=("rd -p -8 $p 16")
	done
	crash_run "$kdir/vmlinux" "$d/vmcore" "$rdout" "${cmds[@]}" || true
}

# rd_bytes OUT PHYS: the 16 bytes crash_rd printed at PHYS, as 32 hex
# digits ("ADDR:  b0 b1 ... b15  ascii"); nothing when crash could not.
rd_bytes() {
	awk -v a="$2" 'tolower($1) ~ "^0*" a ":$" {
		for (i = 2; i <= 17; i++) printf "%s", $i; exit }' "$1"
}

# analyze_bytes DUMPDIR PHYS ERR: the 16 bytes kdump-file-analyze reads at
# PHYS, as 32 hex digits; its error in ERR.
analyze_bytes() {
	"$ANALYZE" read "$1/vmcore" "$2" 16 2>"$3" |
		cut -d: -f2 | cut -c1-50 | tr -d ' \n'
}

# is_bytes HEX: 16 bytes read (32 hex digits), not all zeros.
is_bytes() {
	[[ $1 =~ ^[0-9a-f]{32}$ && $1 != 00000000000000000000000000000000 ]]
}

# mark_boot NAME APPEND: crash the guest once with backup-mark and kernel
# parameters APPEND; sets marker, tramp, tmarker (the markers at 0x50000 and
# at the first kernel's trampoline, and that trampoline "<start>-<end>") and
# ctramp (the capture kernel's trampoline), with the checks every pass
# makes.  NAME prefixes the checks.
mark_boot() {
	local name=$1 append=$2 rc=0
	CRASH_STEP=backup-mark CRASH_APPEND=$append \
		crash_boot "$out/console.log" "$disk" || rc=$?
	check_ended "$rc" "${name}guest ended by itself (no timeout)"
	marker=$(marker_at "$out/console.log" 50000) || true
	tramp=$(first_trampoline "$out/console.log") || true
	tmarker=
	[ -z "$tramp" ] || tmarker=$(marker_at "$out/console.log" "${tramp%-*}") || true
	ctramp=$(capture_trampoline "$out/console.log") || true
	log "${name}marker ${marker:-?} at 0x50000, ${tmarker:-?} at the first kernel's trampoline 0x${tramp:-?}; capture kernel's trampoline 0x${ctramp:-?}"
	check "${name}the test module wrote a marker at 0x50000" test -n "$marker"
	check "${name}the first kernel's trampoline is known (memblock=debug)" test -n "$tramp"
	check "${name}the test module wrote a marker at the trampoline" test -n "$tmarker"
	check "${name}the capture kernel saved the dump" grep -q "kdump-file: .* capture complete" "$out/console.log"
}

# one_firmware: the crash and the checks, on a copy of the disk made above
# (see firmware_passes).
one_firmware() {
	local d marker tramp tmarker ctramp t theirs ours ck ck_range
	# KDUMP_FILE_BACKUP_APPEND=crash_backup_copy=off (or =inplace) shows
	# that these checks fail without the copy.
	mark_boot "" "$BACKUP_APPEND${KDUMP_FILE_BACKUP_APPEND:+ $KDUMP_FILE_BACKUP_APPEND}"
	check "the kernel did not skip the backup" \
		bash -c "! grep -q 'Not saving the low 640K' '$out/console.log'"
	# Otherwise the marker at the trampoline would show nothing that
	# reading in place would lose.
	check "the capture kernel's trampoline is the first kernel's (0x${tramp:-?})" \
		test "${ctramp:-none}" = "${tramp:-unknown}"

	d=$out/dump
	fetch_one_dump "$d" && [ -n "$marker" ] || return 0
	check_dump dump "$kdir/vmlinux" "$d"

	t=${tramp%-*}
	crash_rd "$d" "$out/rd.out" 50000 ${tmarker:+"$t"}
	theirs=$(rd_bytes "$out/rd.out" 50000) || true
	log "crash rd -p at 0x50000: [${theirs:-$(grep -m1 -iE 'rd:|error' "$out/rd.out")}]"
	check "crash reads the marker at 0x50000 in the vmcore" test "$theirs" = "$marker"
	ours=$(analyze_bytes "$d" 50000 "$out/read.err") || true
	log "kdump-file-analyze read at 0x50000: [${ours:-$(tail -n 1 "$out/read.err")}]"
	check "kdump-file-analyze reads the marker at 0x50000 in the vmcore" test "$ours" = "$marker"

	if [ -n "$tmarker" ]; then
		theirs=$(rd_bytes "$out/rd.out" "$t") || true
		log "crash rd -p at the trampoline 0x$t: [${theirs:-?}]"
		check "crash reads the marker at the trampoline 0x$t (the copy kept it)" \
			test "$theirs" = "$tmarker"
		ours=$(analyze_bytes "$d" "$t" "$out/read.err") || true
		log "kdump-file-analyze read at 0x$t: [${ours:-$(tail -n 1 "$out/read.err")}]"
		check "kdump-file-analyze reads the marker at the trampoline 0x$t" \
			test "$ours" = "$tmarker"
	fi

	# The rest of the low 1M is still left out, and the crash kernel region
	# (where the backup segment lies) is not dumped a second time.
	ck=$(sed -n 's/.*Reserving \([0-9]*\)MB of memory at \([0-9]*\)MB for crashkernel.*/\1 \2/p' \
		"$out/console.log" | head -n 1)
	ck_range=$(echo "$ck" | awk 'NF == 2 { printf "%x-%x", $2 * 1048576, ($1 + $2) * 1048576 - 1 }')
	log "crashkernel: ${ck_range:-?}"
	check "kdump-file-analyze check: markers, [640K, 1M) and crashkernel= not in the dump" \
		"$ANALYZE" check "$d/vmcore" --vmlinux "$kdir/vmlinux" --marker "50000:$marker" \
		${tmarker:+--marker "$t:$tmarker"} \
		--exclude a0000-fffff --crashkernel "${ck_range:-0-0}"
}

firmware_passes one_firmware "$disk"

# one_option NAME: set up the pass of crash_backup_copy=NAME under SeaBIOS,
# on its own copy of the disk: SCENARIO, out, disk.
one_option() {
	SCENARIO=TEST-16-BACKUP/$1
	out=$top/$1
	disk=$out/disk.img
	mkdir -p "$out"
	scenario_disk "$top/disk.img" "$disk"
}

# no_copy: the same crash with crash_backup_copy=off: the backup segment
# and the PT_LOAD for [0, 640K) stay, but purgatory copies nothing into the
# segment.  Neither marker may then be in the dump, and both pages read as
# zeros: what the passes above found there came from the copy.
no_copy() {
	local top=$out out disk d marker tramp tmarker ctramp t theirs ours p m
	one_option no-copy
	mark_boot "no copy: " "$BACKUP_APPEND crash_backup_copy=off"
	check "no copy: the kernel said it will not copy" \
		grep -q "Not copying the low 640K at crash time: crash_backup_copy=off" "$out/console.log"
	d=$out/dump
	if fetch_one_dump "$d" && [ -n "$marker" ]; then
		t=${tramp%-*}
		crash_rd "$d" "$out/rd.out" 50000 ${tmarker:+"$t"}
		for p in 50000 ${tmarker:+"$t"}; do
			m=$marker
			[ "$p" = 50000 ] || m=$tmarker
			theirs=$(rd_bytes "$out/rd.out" "$p") || true
			ours=$(analyze_bytes "$d" "$p" "$out/read.err") || true
			log "no copy: crash rd -p at 0x$p: [${theirs:-?}], kdump-file-analyze: [${ours:-?}]"
			check "no copy: crash does not find the marker at 0x$p" test "$theirs" != "$m"
			check "no copy: crash reads zeros at 0x$p (the PT_LOAD is kept, the copy is not made)" \
				test "$theirs" = 00000000000000000000000000000000
			check "no copy: kdump-file-analyze does not find the marker at 0x$p either" \
				test "$ours" != "$m"
		done
	fi
	rm -f "$disk"
	SCENARIO=TEST-16-BACKUP
}
no_copy

# in_place: the same crash with crash_backup_copy=inplace: no backup
# segment and no copy, the PT_LOAD for [0, 640K) at its own address.  The
# marker at 0x50000 must be in the dump (memory the capture kernel leaves
# alone reads fine in place); the marker at the trampoline must not, since
# the capture kernel put its own trampoline there before the dump was read,
# and what is there instead is logged.
in_place() {
	local top=$out out disk d marker tramp tmarker ctramp t theirs ours
	one_option in-place
	mark_boot "in place: " "$BACKUP_APPEND crash_backup_copy=inplace"
	check "in place: the kernel said it reads the low memory in place" \
		grep -q "Not copying the low 640K, reading it in place: crash_backup_copy=inplace" "$out/console.log"
	# Otherwise the trampoline marker could be missing for another reason,
	# or found because the capture kernel wrote elsewhere.
	check "in place: the capture kernel's trampoline is the first kernel's (0x${tramp:-?})" \
		test "${ctramp:-none}" = "${tramp:-unknown}"
	d=$out/dump
	if fetch_one_dump "$d" && [ -n "$marker" ] && [ -n "$tmarker" ]; then
		t=${tramp%-*}
		crash_rd "$d" "$out/rd.out" 50000 "$t"
		theirs=$(rd_bytes "$out/rd.out" 50000) || true
		ours=$(analyze_bytes "$d" 50000 "$out/read.err") || true
		log "in place: at 0x50000 crash rd -p: [${theirs:-?}], kdump-file-analyze: [${ours:-?}]"
		check "in place: crash reads the marker at 0x50000" test "$theirs" = "$marker"
		check "in place: kdump-file-analyze reads the marker at 0x50000" test "$ours" = "$marker"

		theirs=$(rd_bytes "$out/rd.out" "$t") || true
		ours=$(analyze_bytes "$d" "$t" "$out/read.err") || true
		log "in place: at the trampoline 0x$t the marker was [$tmarker]; crash rd -p reads [${theirs:-$(grep -m1 -iE 'rd:|error' "$out/rd.out")}], kdump-file-analyze [${ours:-$(tail -n 1 "$out/read.err")}]"
		check "in place: crash reads the page at 0x$t (16 bytes, not zeros)" is_bytes "$theirs"
		check "in place: crash does not find the marker at 0x$t (the capture kernel overwrote it)" \
			test "$theirs" != "$tmarker"
		check "in place: kdump-file-analyze reads the page at 0x$t (16 bytes, not zeros)" is_bytes "$ours"
		check "in place: kdump-file-analyze does not find the marker at 0x$t" \
			test "$ours" != "$tmarker"
	fi
	rm -f "$disk"
	SCENARIO=TEST-16-BACKUP
}
in_place

rm -f "$disk"
finish
