#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Crash reports: two sysrq crashes and an oops (panic_on_oops, from the test
# module).  In the guest, kdump-file-report.service reports each dump at the
# next boot and status shows it; the report logs one journal entry per crash
# with the ID kdump-file list shows.  On the host, kdump-file-analyze checks the
# dump against its vmlinux, its physical reads agree with crash's rd -p, and
# its report names the cause; the signature is the same for the two sysrq
# crashes and different for the oops.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

scenario_setup TEST-08-REPORT
make -s -C "$KDUMP_FILE_TOP/analysis" all

steps=(crash-loaded crash-loaded oops-loaded)
for i in 0 1 2; do
	rc=0
	CRASH_STEP=${steps[$i]} crash_boot "$out/console-$i.log" "$disk" || rc=$?
	check "crash $i (${steps[$i]}): capture complete" \
		grep -q "kdump-file: .* capture complete" "$out/console-$i.log"
done
check "the oops came from the test module" \
	grep -q "kdump_file_oops: reading through a NULL pointer" "$out/console-2.log"
rc=0
qemu_boot "$out/console-3.log" 600 bios 1024 "$kdir/bzImage" \
	"root=/dev/vda rw console=ttyS0 panic=-1 kdump_file_test=report-journal" "$disk" || rc=$?
check "the report unit reported the previous crash at boot" \
	grep -q "KDUMP-FILE-TEST: report unit: kdump-file: crash [0-9a-f]*: Kernel panic - not syncing: sysrq triggered crash" "$out/console-1.log"
check "status shows the report of the last dump" \
	grep -qE "KDUMP-FILE-TEST:   report: +crash [0-9a-f]+: (BUG|Oops).* in insmod" "$out/console-3.log"

# The report's journal entry (guest step report-journal): one this boot,
# for the oops' dump, with the ID kdump-file list shows for it (the newest,
# listed last), crit, and no crash logged twice in all the boots the
# journal kept.
c3=$out/console-3.clean
tr -d '\r' <"$out/console-3.log" >"$c3"
mapfile -t list_ids < <(sed -n 's/.*KDUMP-FILE-TEST: list id: \([0-9a-f]\{8\}\)$/\1/p' "$c3")
mapfile -t entry_ids < <(sed -n 's/.*KDUMP-FILE-TEST: journal crash entry this boot: \([0-9a-f]*\)$/\1/p' "$c3")
mapfile -t all_ids < <(sed -n 's/.*KDUMP-FILE-TEST: journal crash entry, all boots: \([0-9a-f]*\)$/\1/p' "$c3")
newest=
[ "${#list_ids[@]}" -eq 0 ] || newest=${list_ids[-1]}
log "list: ${list_ids[*]}; journal, this boot: ${entry_ids[*]}; all boots: ${all_ids[*]}"
check "list shows three dumps in the guest" test "${#list_ids[@]}" -eq 3
check "one crash entry in the journal this boot" \
	grep -q "KDUMP-FILE-TEST: journal crash entries this boot: 1$" "$c3"
check "its KDUMP_FILE_CRASH_ID is the newest dump's ID in list ($newest)" \
	test -n "$newest" -a "${entry_ids[*]}" = "$newest"
check "the entry is crit (PRIORITY=2)" \
	grep -qE "KDUMP-FILE-TEST: entry: +PRIORITY=2$" "$c3"
check "its message names the crash and the dump" \
	grep -qE "KDUMP-FILE-TEST: entry: +MESSAGE=Kernel crash $newest: [0-9a-f]+ \(kernel [^)]+\), dump in /var/crash/" "$c3"
check "no crash logged twice (${#all_ids[@]} entries kept)" \
	test "$(printf '%s\n' "${all_ids[@]}" | sort | uniq -d | wc -l)" -eq 0
unknown=0
for id in "${all_ids[@]}"; do
	[[ " ${list_ids[*]} " == *" $id "* ]] || unknown=1
done
check "every crash entry kept names a dump list shows" test "$unknown" -eq 0

mapfile -t dirs < <(dump_dirs "$disk" /var/crash)
check "three dumps (${dirs[*]})" test "${#dirs[@]}" -eq 3
[ "${#dirs[@]}" -eq 3 ] || { finish; exit 1; }
sig=()
for i in 0 1 2; do
	d=$out/dump-$i
	dump_fetch "$disk" /var/crash "${dirs[$i]}" "$d"
	rm -f "$d/report.txt" "$d/report.json" # the guest's, made without vmlinux
	"$ANALYZE" report "$d" --vmlinux "$kdir/vmlinux" >"$d/summary" 2>"$d/report.err" ||
		fail "report on dump $i: $(tail -n 1 "$d/report.err")"
	sig[i]=$(sed -n 's/.*"signature": "\([0-9a-f]*\)".*/\1/p' "$d/report.json")
	log "dump $i: $(cat "$d/summary")"
done
check "report 0 names the sysrq crash" grep -q '"panic": "Kernel panic - not syncing: sysrq triggered crash"' "$out/dump-0/report.json"
check "report 0 backtrace has sysrq_handle_crash" grep -q '"sysrq_handle_crash"' "$out/dump-0/report.json"
check "report 2 names the oops' function" grep -q '"kdump_file_test_oops' "$out/dump-2/report.json"
check "report 2 names the oops" grep -q '"oops": "BUG: kernel NULL pointer dereference' "$out/dump-2/report.json"
check "same kind of crash, same signature (${sig[0]} ${sig[1]})" test -n "${sig[0]}" -a "${sig[0]}" = "${sig[1]}"
check "different panic, different signature (${sig[2]})" test -n "${sig[2]}" -a "${sig[2]}" != "${sig[0]}"

# The reader against crash(8): the dump matches its vmlinux, and physical
# reads give the same bytes as rd -p.
d=$out/dump-0
# [0, 640K) is in the dump (purgatory's backup, kernel-patches 0004-0006);
# the rest of the low 1M is not.
check "kdump-file-analyze check --vmlinux passes" \
	"$ANALYZE" check "$d/vmcore" --vmlinux "$kdir/vmlinux" --expect-cpus 2 --exclude a0000-fffff
crash_run "$kdir/vmlinux" "$d/vmcore" "$out/sym.out" "sym linux_banner" || true
virt=$(awk '$NF == "linux_banner" { print $1; exit }' "$out/sym.out")
crash_run "$kdir/vmlinux" "$d/vmcore" "$out/vtop.out" "vtop ${virt:-0}" || true
phys=$(awk '/PHYSICAL/ { getline; print $2; exit }' "$out/vtop.out")
log "linux_banner: virtual ${virt:-?}, physical ${phys:-?}"
check "crash translated linux_banner to a physical address" test -n "$phys"
addrs=(1000000 2000000 "${phys:-3000000}")
cmds=()
for a in "${addrs[@]}"; do cmds+=("rd -p -8 $a 32"); done
crash_run "$kdir/vmlinux" "$d/vmcore" "$out/rd.out" "${cmds[@]}"
for a in "${addrs[@]}"; do
	ours=$("$ANALYZE" read "$d/vmcore" "$a" 32 | cut -d: -f2 | cut -c1-50 | tr -s ' \n' ' ')
	theirs=$(grep -iE "^ *0*(${a}|$(printf %x $((16#$a + 16)))):" "$out/rd.out" |
		cut -d: -f2 | cut -c1-50 | tr -s ' \n' ' ')
	log "phys $a: ours [$ours] crash [$theirs]"
	check "physical read at 0x$a agrees with crash rd -p" test -n "$ours" -a "$ours" = "$theirs"
done
rm -f "$disk"
finish
