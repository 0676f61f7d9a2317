#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# CPU and memory hot-added after the capture kernel was loaded are in the
# dump, and memory hot-removed is not.  The guest boots with one CPU of four
# (-smp 1,maxcpus=4) and 1 GiB of 4 (-m 1G,slots=4,maxmem=4G); once
# kdump-file has loaded, the host adds a 1 GiB DIMM (dimm1) and a CPU
# through QMP and the guest onlines them.  Then the host adds a second
# 1 GiB DIMM (dimm2); the guest onlines its memory blocks as movable,
# takes them offline and online again, then offline and online in turns
# while "kdump-file reload" runs in a loop, timing each block's state
# change; meanwhile the host slows the disk's reads down (QMP
# block_set_io_throttle) and each reload reads the capture kernel and
# initramfs from the disk, so that kexec_file_load(2) holds the kexec lock
# for seconds.  The guest takes the blocks offline and the host removes
# dimm2 (device_del).
# The test module kdump_file_himark writes a random marker into a page of
# dimm1, and the guest crashes with both CPUs online.  crash(8) must read
# the marker at its physical address in the vmcore and find saved registers
# (NT_PRSTATUS) for both CPUs; the RAM of the dump (kdump-file-analyze
# info) must cover dimm1 and nothing of dimm2.  No state change of a
# memory block may take STALL_MS or longer while the reloads run.
#
# Two kernels (KDUMP_FILE_HOTPLUG_KERNELS, default "stock ours"):
#   stock  Debian's kernel builds the ELF core headers at load time only:
#          the udev rule must have kdump-file reload the capture kernel, once
#          or twice for the whole burst of events, the old one staying
#          loaded until the new one is in; so again after dimm2's add
#          and after its removal.
#   ours   our patched kernel updates the loaded headers itself and says so
#          in crash_hotplug: kdump-file must not reload; the kernel's count
#          of header rewrites grows with the new memory and with the
#          removal.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

scenario_out TEST-29-HOTPLUG
kernels=${KDUMP_FILE_HOTPLUG_KERNELS:-stock ours}
t=${KDUMP_FILE_BOOT_TIMEOUT:-1500}
name=$SCENARIO
top=$out
# What kdump-file logs when it reloads after a hotplug, and when a kernel
# keeps the headers up to date itself (kdump-service/src/kdump-file.c).
RELOADED='^  journal: kdump-file: reloaded .*after CPU or memory hotplug'
PENDING='^  journal hotplug: .*(cpu|memory) add .*reload pending'
IN_PLACE='^  journal hotplug: .*(cpu|memory) add .*the kernel updates .*ELF headers itself'
# The same for dimm2, its add and its removal (the guest's journal parts
# "journal second DIMM" and "journal removal").
RELOADED2='^  journal second DIMM: kdump-file: reloaded .*after CPU or memory hotplug'
PENDING2='^  journal second DIMM hotplug: .*memory add .*reload pending'
IN_PLACE2='^  journal second DIMM hotplug: .*memory add .*the kernel updates .*ELF headers itself'
RELOADED_RM='^  journal removal: kdump-file: reloaded .*after CPU or memory hotplug'
PENDING_RM='^  journal removal hotplug: .*memory remove .*reload pending'
IN_PLACE_RM='^  journal removal hotplug: .*memory remove .*the kernel updates .*ELF headers itself'
# What a load says (do_load()), and the reload service starting.
LOADED='kdump-file: capture kernel .* loaded \(|Start.*kdump-file-hotplug'
# kexec_file_load(2) frees the old image before it loads the new one: that
# window without a capture kernel took up to 2.7 s with the stock kernel
# under TCG.  One longer than this is an unload before the reload.
WINDOW_MS=10000
# The longest state change of one of dimm2's memory blocks while
# "kdump-file reload" runs in a loop (timeout(1) and sh started for it
# included).  A step that waits for a load to end (for the kexec lock
# under the memory hotplug lock) waits for a kexec_file_load(2) call,
# which reads the capture kernel and initramfs at THROTTLE_BPS then: one
# this long is a stall.  Each load must read for longer than this.  Under
# TCG a step took up to 1.9 s during such loads on the stock kernel, which
# has no hotplug code that takes the kexec lock.
STALL_MS=3000
# The guest disk's read rate while those reloads run, in bytes a second:
# a 6.1 kernel reads the files given to kexec_file_load(2) under its kexec
# lock.
THROTTLE_BPS=$((2 << 20))
# How long the host waits for QEMU to remove dimm2 after device_del, which
# the guest must answer by ejecting the DIMM (ACPI).
REMOVE_S=120

# rewrites_grew WHEN WHAT: the guest's count of header rewrites (console
# $con) grew from before WHEN to after it.
rewrites_grew() {
	local u0 u1
	u0=$(sed -n "s/.*KDUMP-FILE-TEST: header rewrites before $1: //p" "$con")
	u1=$(sed -n "s/.*KDUMP-FILE-TEST: header rewrites after $1: //p" "$con")
	check "the kernel rewrote the headers for $2 (${u0:-?} -> ${u1:-?})" \
		test "${u1:-0}" -gt "${u0:-0}" 2>/dev/null
}

# qmp_hotplug SOCKET: a 1 GiB DIMM and a CPU into the running guest.
qmp_hotplug() {
	local sock=$1 r cpus add
	if r=$(qmp_exec "$sock" 30 \
		'{"execute": "object-add", "arguments": {"qom-type": "memory-backend-ram", "id": "mem1", "size": 1073741824}}' \
		'{"execute": "device_add", "arguments": {"driver": "pc-dimm", "id": "dimm1", "memdev": "mem1"}}' \
		2>"$out/qmp.err"); then
		pass "QMP: a 1 GiB DIMM hot-added"
	else
		fail "QMP: hot-adding a 1 GiB DIMM: $(cat "$out/qmp.err")"
	fi
	if r=$(qmp_exec "$sock" 30 '{"execute": "query-memory-devices"}' 2>"$out/qmp.err"); then
		dimm=$(jq -r '.[] | select(.data.id == "dimm1") | "\(.data.addr) \(.data.size)"' <<<"$r")
		log "DIMM at ${dimm:-?} (address, size)"
	else
		fail "QMP: query-memory-devices: $(cat "$out/qmp.err")"
	fi
	# The free slot with the lowest IDs: the guest calls it cpu1.
	if ! cpus=$(qmp_exec "$sock" 30 '{"execute": "query-hotpluggable-cpus"}' 2>"$out/qmp.err"); then
		fail "QMP: query-hotpluggable-cpus: $(cat "$out/qmp.err")"
		return
	fi
	add=$(jq -c '[.[] | select(has("qom-path") | not)]
		| sort_by(.props["socket-id"], .props["core-id"], .props["thread-id"]) | first
		| select(. != null)
		| {execute: "device_add", arguments: ({driver: .type, id: "cpu1"} + .props)}' <<<"$cpus")
	if [ -z "$add" ]; then
		fail "QMP: query-hotpluggable-cpus names no free CPU slot ($cpus)"
		return
	fi
	log "QMP: $add"
	if qmp_exec "$sock" 30 "$add" >/dev/null 2>"$out/qmp.err"; then
		pass "QMP: a CPU hot-added"
	else
		fail "QMP: hot-adding a CPU: $(cat "$out/qmp.err")"
	fi
	if r=$(qmp_exec "$sock" 30 '{"execute": "query-cpus-fast"}' 2>"$out/qmp.err"); then
		check "QMP: the guest has 2 CPUs ($(jq -c '[.[]."cpu-index"]' <<<"$r"))" \
			test "$(jq length <<<"$r")" -eq 2
	else
		fail "QMP: query-cpus-fast: $(cat "$out/qmp.err")"
	fi
}

# qmp_dimm2_add SOCKET: a second 1 GiB DIMM, which the guest takes away
# again; its address and size in dimm2.
qmp_dimm2_add() {
	local sock=$1 r
	if qmp_exec "$sock" 30 \
		'{"execute": "object-add", "arguments": {"qom-type": "memory-backend-ram", "id": "mem2", "size": 1073741824}}' \
		'{"execute": "device_add", "arguments": {"driver": "pc-dimm", "id": "dimm2", "memdev": "mem2"}}' \
		>/dev/null 2>"$out/qmp.err"; then
		pass "QMP: a second 1 GiB DIMM hot-added"
	else
		fail "QMP: hot-adding a second 1 GiB DIMM: $(cat "$out/qmp.err")"
		return
	fi
	if r=$(qmp_exec "$sock" 30 '{"execute": "query-memory-devices"}' 2>"$out/qmp.err"); then
		dimm2=$(jq -r '.[] | select(.data.id == "dimm2") | "\(.data.addr) \(.data.size)"' <<<"$r")
		log "dimm2 at ${dimm2:-?} (address, size)"
	else
		fail "QMP: query-memory-devices: $(cat "$out/qmp.err")"
	fi
}

# qmp_throttle SOCKET DISK BPS: the reads of the guest's disk DISK limited
# to BPS bytes a second, or no longer limited when BPS is 0.
qmp_throttle() {
	local sock=$1 disk=$2 bps=$3 r dev
	if ! r=$(qmp_exec "$sock" 30 '{"execute": "query-block"}' 2>"$out/qmp.err"); then
		fail "QMP: query-block: $(cat "$out/qmp.err")"
		return
	fi
	dev=$(jq -r --arg f "$disk" '.[] | select(.inserted.file == $f) | .device' <<<"$r")
	if [ -z "$dev" ]; then
		fail "QMP: no block device of the guest holds $disk ($(jq -c '[.[] | {device, file: .inserted.file}]' <<<"$r"))"
		return
	fi
	if qmp_exec "$sock" 30 "$(jq -nc --arg d "$dev" --argjson b "$bps" \
		'{execute: "block_set_io_throttle", arguments: {device: $d,
			bps: 0, bps_rd: $b, bps_wr: 0, iops: 0, iops_rd: 0, iops_wr: 0}}')" \
		>/dev/null 2>"$out/qmp.err"; then
		if [ "$bps" = 0 ]; then
			pass "QMP: reads of the guest's disk ($dev) no longer limited"
		else
			pass "QMP: reads of the guest's disk ($dev) limited to $((bps >> 10)) KiB/s"
		fi
	else
		fail "QMP: block_set_io_throttle $dev $bps: $(cat "$out/qmp.err")"
	fi
}

# qmp_dimm2_remove SOCKET PID: unplug dimm2, whose memory the guest took
# offline, and wait until QEMU (PID) no longer lists it; then drop its
# backend.  device_del only asks: the guest ejects the DIMM through ACPI,
# and QEMU removes it then (the DEVICE_DELETED event).
qmp_dimm2_remove() {
	local sock=$1 pid=$2 r i gone=
	if qmp_exec "$sock" 30 '{"execute": "device_del", "arguments": {"id": "dimm2"}}' \
		>/dev/null 2>"$out/qmp.err"; then
		pass "QMP: device_del dimm2 accepted"
	else
		fail "QMP: device_del dimm2: $(cat "$out/qmp.err")"
		return
	fi
	for ((i = 0; i < REMOVE_S; i++)); do
		if r=$(qmp_exec "$sock" 30 '{"execute": "query-memory-devices"}' 2>"$out/qmp.err") &&
			! jq -e 'any(.[]; .data.id == "dimm2")' <<<"$r" >/dev/null; then
			gone=$i
			break
		fi
		kill -0 "$pid" 2>/dev/null || break
		sleep 1
	done
	if [ -n "$gone" ]; then
		pass "QMP: dimm2 removed (after $gone s)"
	else
		fail "QMP: dimm2 not removed within $REMOVE_S s"
	fi
	[ -n "$gone" ] || return 0
	# The backend can go once no DIMM uses it; whether QEMU lets it is
	# not what this scenario is about.
	if qmp_exec "$sock" 30 '{"execute": "object-del", "arguments": {"id": "mem2"}}' \
		>/dev/null 2>"$out/qmp.err"; then
		log "QMP: mem2 deleted"
	else
		log "QMP: object-del mem2 (not checked): $(cat "$out/qmp.err")"
	fi
}

# boot_hotplug LOG DISK: boot with hotplug room and a QMP socket, hot-add
# once the guest is ready, add dimm2 and slow the disk's reads down while
# the guest uses it, remove it again when the guest says so, wait for QEMU
# to end.
boot_hotplug() {
	local log=$1 disk=$2 sock=$out/qmp.sock qpid rc=0 t0
	rm -f "$sock"
	t0=$(date +%s)
	# shellcheck disable=SC2031 # set by one_kernel in this shell
	KDUMP_FILE_QEMU_SMP=1,maxcpus=4 KDUMP_FILE_QEMU_MEM_OPTS=slots=4,maxmem=4G \
		qemu_boot "$log" "$t" bios 1024 "$kernel" \
		"root=/dev/vda rw console=ttyS0 crashkernel=256M panic=-1 kdump_file_test=hotplug" \
		"$disk" "${initrd[@]}" -qmp "unix:$sock,server=on,wait=off" &
	qpid=$!
	if qemu_ready "$log" "KDUMP-FILE-TEST: ready for hotplug" "$qpid" "$t"; then
		log "the guest is ready after $(($(date +%s) - t0)) s: hot-adding"
		qmp_hotplug "$sock"
		if qemu_ready "$log" "KDUMP-FILE-TEST: ready for a second DIMM" "$qpid" "$t"; then
			log "the guest is ready for dimm2 after $(($(date +%s) - t0)) s: hot-adding"
			qmp_dimm2_add "$sock"
			qmp_throttle "$sock" "$disk" "$THROTTLE_BPS"
			if qemu_ready "$log" "KDUMP-FILE-TEST: ready for removal" "$qpid" "$t"; then
				log "the guest took dimm2 offline after $(($(date +%s) - t0)) s: removing it"
				qmp_throttle "$sock" "$disk" 0
				qmp_dimm2_remove "$sock" "$qpid"
			else
				fail "the guest never said dimm2 was ready for removal (see $log)"
			fi
		else
			fail "the guest never said it was ready for a second DIMM (see $log)"
		fi
	else
		fail "the guest never said it was ready for the hotplug (see $log)"
	fi
	wait "$qpid" || rc=$?
	log "guest ended with status $rc after $(($(date +%s) - t0)) s"
	check_ended "$rc" "guest ended by itself (no timeout)"
}

# num LINE ERE: the number ERE's group matches in LINE (ERE names the words
# around it), or nothing.
num() {
	sed -nE "s/.*$2.*/\1/p" <<<"$1"
}

# dimm2_checks FLAVOUR CONSOLE: what the guest said of dimm2, its steps
# and its removal, and what kdump-file did about them (out/journal.txt).
dimm2_checks() {
	local fl=$1 con=$2 line steps longest failed loads bad during off total rs re r u0 u1
	local shortest bytes min
	local -a w
	line=$(grep -m1 "KDUMP-FILE-TEST: second DIMM after" "$con" || true)
	log "${line#*KDUMP-FILE-TEST: }"
	check "the guest saw 1 GiB of new memory blocks for dimm2" \
		grep -qE ": ([0-9]+) new memory blocks \(\1 expected\)" <<<"$line"
	line=$(grep -m1 "KDUMP-FILE-TEST: second DIMM's zones:" "$con" || true)
	log "${line#*KDUMP-FILE-TEST: }"
	check "no reload pending or running after dimm2's add" \
		grep -q "KDUMP-FILE-TEST: reload wait after the second DIMM: done" "$con"

	# The state changes, with nothing else running and during reloads.
	line=$(grep -m1 "KDUMP-FILE-TEST: hotplug steps idle:" "$con" || true)
	log "${line#*KDUMP-FILE-TEST: }"
	steps=$(num "$line" ': ([0-9]+) steps,')
	failed=$(num "$line" ', ([0-9]+) failed steps')
	check "dimm2's blocks went online, offline and online with nothing else running (${steps:-no} steps, ${failed:-?} failed)" \
		test "${steps:-0}" -gt 0 -a "${failed:-x}" = 0
	line=$(grep -m1 "KDUMP-FILE-TEST: hotplug steps during loads:" "$con" || true)
	log "${line#*KDUMP-FILE-TEST: }"
	steps=$(num "$line" ': ([0-9]+) steps,')
	longest=$(num "$line" 'longest ([0-9]+) ms')
	failed=$(num "$line" ', ([0-9]+) failed steps')
	loads=$(num "$line" ', ([0-9]+) loads,')
	bad=$(num "$line" ', ([0-9]+) failed loads')
	during=$(num "$line" ', ([0-9]+) steps while a load ran')
	check "dimm2's blocks went offline and online during reloads (${steps:-no} steps, ${failed:-?} failed)" \
		test "${steps:-0}" -gt 0 -a "${failed:-x}" = 0
	check "no state change of a block during reloads took $STALL_MS ms or longer (longest ${longest:-?} ms)" \
		test -n "$longest" -a "${longest:-99999}" -lt "$STALL_MS"
	check "reloads ran during the state changes (${loads:-no} loads, ${during:-no} steps while one ran)" \
		test "${loads:-0}" -ge 1 -a "${during:-0}" -ge 1
	check "every reload during the state changes succeeded (${bad:-?} failed)" test "${bad:-x}" = 0
	# Each load read its files from the slowed disk: it took at least
	# nine tenths of their size over the rate (QEMU lets a tenth of a
	# second's worth through at once), and that is longer than a stall.
	line=$(grep -m1 "KDUMP-FILE-TEST: loads from the disk:" "$con" || true)
	log "${line#*KDUMP-FILE-TEST: }"
	shortest=$(num "$line" 'shortest ([0-9]+) ms')
	bytes=$(num "$line" 'reading ([0-9]+) bytes')
	min=$((${bytes:-0} * 900 / THROTTLE_BPS))
	check "each reload read the capture kernel and initramfs ($((${bytes:-0} >> 20)) MiB) from the disk at $((THROTTLE_BPS >> 10)) KiB/s, at least $min ms and $STALL_MS ms (shortest ${shortest:-?} ms)" \
		test "$min" -ge "$STALL_MS" -a "${shortest:-0}" -ge "$min"
	check "a capture kernel loaded after the reloads" \
		grep -q "KDUMP-FILE-TEST: kexec_crash_loaded after the loads: 1" "$con"

	# The removal.
	line=$(grep -m1 "KDUMP-FILE-TEST: ready for removal:" "$con" || true)
	log "${line#*KDUMP-FILE-TEST: }"
	read -r off total <<<"$(num "$line" 'ready for removal: ([0-9]+ of [0-9]+) blocks offline' | sed 's/ of / /')"
	check "the guest took all of dimm2's blocks offline (${off:-?} of ${total:-?})" \
		test "${off:-0}" -gt 0 -a "${off:-0}" = "${total:-}"
	read -r rs re <<<"$(num "$line" ' at (0x[0-9a-f]+-0x[0-9a-f]+)' | tr - ' ')"
	if [ -n "$dimm2" ] && [ -n "$rs" ]; then
		read -r -a w <<<"$dimm2"
		check "those blocks are dimm2's [$(printf '0x%x' "${w[0]}"), +$((w[1] >> 20)) MiB) (the guest: $rs-$re)" \
			test $((rs)) -eq "${w[0]}" -a $((re)) -eq $((w[0] + w[1] - 1))
	else
		fail "dimm2's address (QMP: ${dimm2:-unknown}) and its blocks' (the guest: ${rs:-unknown})"
	fi
	check "the guest saw dimm2's blocks and System RAM go" grep -q "KDUMP-FILE-TEST: dimm2 removed after" "$con"
	check "no reload pending or running after the removal" \
		grep -q "KDUMP-FILE-TEST: reload wait after the removal: done" "$con"
	check "a capture kernel loaded after the removal" \
		grep -q "KDUMP-FILE-TEST: kexec_crash_loaded after the removal: 1" "$con"
	if [ "$fl" = stock ]; then
		check "udev marked a reload pending for dimm2's add" grep -qE "$PENDING2" "$out/journal.txt"
		r=$(grep -cE "$RELOADED2" "$out/journal.txt" || true)
		check "kdump-file reloaded after dimm2's add, once or twice ($r)" test "$r" -ge 1 -a "$r" -le 2
		check "udev marked a reload pending for dimm2's removal" grep -qE "$PENDING_RM" "$out/journal.txt"
		r=$(grep -cE "$RELOADED_RM" "$out/journal.txt" || true)
		check "kdump-file reloaded after dimm2's removal, once or twice ($r)" test "$r" -ge 1 -a "$r" -le 2
	else
		check "kdump-file hotplug found that the kernel updates the headers for dimm2's add" \
			grep -qE "$IN_PLACE2" "$out/journal.txt"
		check "kdump-file hotplug found that the kernel updates the headers for dimm2's removal" \
			grep -qE "$IN_PLACE_RM" "$out/journal.txt"
		rewrites_grew "the removal" "the removal"
	fi
}

# dump_ram_checks VMCORE: the RAM the dump describes (kdump-file-analyze
# info --json, its ram_ranges) covers dimm1 and nothing of dimm2, which
# was removed before the crash.
dump_ram_checks() {
	local vmcore=$1 json=$out/analyze-info.json r s e cover='' over=''
	local -a ranges w1 w2
	if [ ! -x "$ANALYZE" ]; then
		fail "kdump-file-analyze is not built ($ANALYZE): the dump's RAM is not checked"
		return
	fi
	"$ANALYZE" info --json "$vmcore" >"$json" 2>"$out/analyze-info.err" || true
	mapfile -t ranges < <(jq -r '.ram_ranges[]? | "\(.start)-\(.end)"' "$json" 2>/dev/null || true)
	log "the dump's RAM (kdump-file-analyze info): ${ranges[*]:-none: $(tail -n 1 "$out/analyze-info.err")}"
	read -r -a w1 <<<"${dimm:-0 0}"
	read -r -a w2 <<<"${dimm2:-0 0}"
	for r in "${ranges[@]}"; do
		s=${r%-*} e=${r#*-}
		s=$((16#${s#0x})) e=$((16#${e#0x}))
		if ((s <= w1[0] && e >= w1[0] + w1[1] - 1)); then
			cover=1
		fi
		if ((s < w2[0] + w2[1] && e >= w2[0])); then
			over+=" $r"
		fi
	done
	check "the dump's RAM covers dimm1 [$(printf '0x%x' "${w1[0]}"), +$((w1[1] >> 20)) MiB)" \
		test "${w1[1]}" -gt 0 -a -n "$cover"
	over=${over# }
	check "no RAM of the dump overlaps the removed dimm2 [$(printf '0x%x' "${w2[0]}"), +$((w2[1] >> 20)) MiB) (${over:-none})" \
		test "${w2[1]}" -gt 0 -a "${#ranges[@]}" -gt 0 -a -z "$over"
}

# one_kernel FLAVOUR: the boot, the hotplug, the crash and the checks on
# FLAVOUR's kernel (stock or ours), in out/FLAVOUR.
one_kernel() {
	local fl=$1 prepared disk con line marker phys theirs n reloads zeros windows longest rip_note rip_bt
	local -a w
	SCENARIO=$name/$fl
	out=$top/$fl
	mkdir -p "$out"
	case "$fl" in
	stock)
		prepared=$(guest_image_prepared "" "$(stock_image)" prepare stock) ||
			{ fail "the prepared stock guest image"; return; }
		disk=$out/disk.img
		scenario_disk "$prepared" "$disk"
		check "kdump_file_himark.ko put into the guest's disk" disk_put_file "$disk" \
			"$("$KDUMP_FILE_LIB/stock-modules.sh")/kdump_file_himark.ko" \
			/usr/local/lib/kdump-file-test/kdump_file_himark.ko
		stock_boot
		vmlinux=$(stock_vmlinux) || fail "the stock kernel's vmlinux (stock-kernel.sh failed)"
		;;
	ours)
		kdir=$(kernel_dir)
		check "our kernel has memory and CPU hotplug (kernel-patches/kdump-file.config)" \
			grep -qx "CONFIG_MEMORY_HOTPLUG=y" "$kdir/config"
		prepared=$(guest_image_prepared "$kdir") || { fail "the prepared guest image"; return; }
		disk=$out/disk.img
		scenario_disk "$prepared" "$disk"
		kernel=$kdir/bzImage
		initrd=()
		vmlinux=$kdir/vmlinux
		;;
	*)
		fail "unknown kernel '$fl' in KDUMP_FILE_HOTPLUG_KERNELS (stock, ours)"
		return
		;;
	esac
	log "$fl kernel; output in $out"
	dimm=
	dimm2=
	boot_hotplug "$out/console.log" "$disk"
	con=$out/console.log

	check "kdump-file loaded before the hotplug" grep -q "KDUMP-FILE-TEST: kexec_crash_loaded: 1" "$con"
	if [ "$fl" = stock ]; then
		check "the stock kernel has no crash_hotplug attribute" \
			grep -q "KDUMP-FILE-TEST: cpu crash_hotplug: absent" "$con"
	else
		check "our kernel says it updates the headers of a CPU hotplug (cpu/crash_hotplug 1)" \
			grep -q "KDUMP-FILE-TEST: cpu crash_hotplug: 1" "$con"
		check "our kernel says it updates the headers of a memory hotplug (memory/crash_hotplug 1)" \
			grep -q "KDUMP-FILE-TEST: memory crash_hotplug: 1" "$con"
	fi
	line=$(grep -m1 "KDUMP-FILE-TEST: hot-added after" "$con" || true)
	log "${line#*KDUMP-FILE-TEST: }"
	check "the guest saw cpu1" grep -q "cpu1 present" <<<"$line"
	check "the guest saw 1 GiB of new memory blocks" grep -qE "\(([0-9]+) new, \1 expected\)" <<<"$line"
	check "the guest onlined cpu1" grep -qE "KDUMP-FILE-TEST: (onlined cpu1|cpu1 was online already)" "$con"
	check "the guest onlined the new memory" grep -qE "KDUMP-FILE-TEST: onlined memory blocks: [1-9]" "$con"
	check "no reload pending or running when the guest went on" grep -q "KDUMP-FILE-TEST: reload wait: done" "$con"

	# What kdump-file did about it.
	grep "KDUMP-FILE-TEST: journal" "$con" | sed 's/^.*KDUMP-FILE-TEST: /  /' >"$out/journal.txt" || true
	log "kdump-file's journal since the hotplug: $out/journal.txt"
	reloads=$(grep -cE "$RELOADED" "$out/journal.txt" || true)
	rebuilt=$(grep -cE "^  journal[A-Za-z ]*: kdump-file: built " "$out/journal.txt" || true)
	log "$reloads reloads, $rebuilt of them with a rebuilt initramfs"
	# The automatic capture_timeout follows the RAM but goes on the
	# capture kernel's command line: a hotplug rebuilds nothing.
	check "no reload rebuilt the capture initramfs ($rebuilt)" test "$rebuilt" -eq 0
	line=$(grep -m1 "KDUMP-FILE-TEST: capture kernel watch:" "$con" || true)
	log "${line#*KDUMP-FILE-TEST: }"
	zeros=$(sed -n 's/.* not-loaded=\([0-9]*\).*/\1/p' <<<"$line")
	windows=$(sed -n 's/.* windows=\([0-9]*\).*/\1/p' <<<"$line")
	longest=$(sed -n 's/.* longest=\([0-9]*\)ms.*/\1/p' <<<"$line")
	check "a capture kernel loaded after the hotplug" \
		grep -q "KDUMP-FILE-TEST: kexec_crash_loaded after the hotplug: 1" "$con"
	if [ "$fl" = stock ]; then
		check "kdump-file reloaded after the hotplug, once or twice for the burst ($reloads)" \
			test "$reloads" -ge 1 -a "$reloads" -le 2
		check "udev ran kdump-file hotplug, which marked a reload pending ($(grep -cE "$PENDING" "$out/journal.txt") events)" \
			grep -qE "$PENDING" "$out/journal.txt"
		check "kdump-file-hotplug.service ran the reload" \
			grep -q "^  journal: Finished kdump-file-hotplug.service" "$out/journal.txt"
		check "the old capture kernel stayed loaded until each reload (${windows:-?} windows without one for $reloads reloads, longest ${longest:-?} ms < $WINDOW_MS)" \
			test -n "$windows" -a "${windows:-9}" -le "$reloads" -a "${longest:-99999}" -lt "$WINDOW_MS"
	else
		check "kdump-file hotplug found that the kernel updates the headers in place" \
			grep -qE "$IN_PLACE" "$out/journal.txt"
		rewrites_grew "the hotplug" "the new memory"
		line=$(grep -o "cpu1 offline and online again: header rewrites .*" "$con" || true)
		check "a CPU offline/online cycle rewrote nothing (${line:-not run})" \
			grep -qE "rewrites ([0-9]+) -> \1$" <<<"$line"
		check "no load or reload after the hotplug" \
			bash -c "! grep -qE \"\$1\" '$out/journal.txt'" _ "$LOADED"
		check "a capture kernel loaded in every sample after the hotplug (${zeros:-?} without)" \
			test "${zeros:-x}" = 0
	fi
	dimm2_checks "$fl" "$con"

	line=$(grep -m1 -o "kdump_file_himark: marker [0-9a-f]\{32\} at 0x[0-9a-f]*" "$con" || true)
	marker=$(awk '{ print $3 }' <<<"$line")
	phys=$(awk '{ print $5 }' <<<"$line")
	phys=${phys#0x}
	log "marker ${marker:-?} at 0x${phys:-?}"
	check "the test module wrote a marker" test -n "$marker" -a -n "$phys"
	if [ -n "$phys" ] && [ -n "$dimm" ]; then
		read -r -a w <<<"$dimm"
		check "the marker lies in the hot-added DIMM [$(printf '0x%x' "${w[0]}"), +$((w[1] >> 20)) MiB)" \
			test $((16#$phys)) -ge "${w[0]}" -a $((16#$phys)) -lt $((w[0] + w[1]))
	fi
	check "the guest crashed on CPU 0 with cpu1 online" grep -q "KDUMP-FILE-TEST: crashing on CPU 0 with cpus 0-1 online" "$con"
	check "capture complete" grep -q "kdump-file: .* capture complete" "$con"

	local d=$out/dump
	if fetch_one_dump "$d"; then
		check_dump dump "$vmlinux" "$d"
		dump_ram_checks "$d/vmcore"
		crash_run "$vmlinux" "$d/vmcore" "$out/crash-hotplug.out" "help -D" "bt -a" \
			"rd -p -8 ${phys:-0} 16" || true
		# rd -p -8 prints "ADDR:  b0 b1 ... b15  ascii": the 16 bytes as one string.
		theirs=$(awk -v a="${phys:-x}" 'tolower($1) ~ "^0*" a ":$" {
			for (i = 2; i <= 17; i++) printf "%s", $i; exit }' "$out/crash-hotplug.out")
		log "crash rd -p at 0x${phys:-?}: [${theirs:-$(grep -m1 -iE 'rd:|error' "$out/crash-hotplug.out")}]"
		check "crash reads the marker in the hot-added memory" test -n "$marker" -a "$theirs" = "$marker"
		n=$(sed -n 's/^ *num_prstatus_notes: *\([0-9]*\).*/\1/p' "$out/crash-hotplug.out" | head -n 1)
		check "the dump holds saved registers (NT_PRSTATUS) of 2 CPUs (${n:-none})" test "${n:-0}" -eq 2
		# CPU 0 panicked and stopped CPU 1 with an NMI, whose handler
		# saved the registers CPU 1 was interrupted with: the second
		# note's RIP is the one crash's backtrace of CPU 1 shows.  (crash
		# finds that backtrace on the NMI stack without the note too.)
		rip_note=$(awk '/notes\[1\]: .*NT_PRSTATUS/ { n = 1 }
			n && /RIP:/ { for (i = 1; i < NF; i++) if ($i == "RIP:") { print $(i + 1); exit } }' \
			"$out/crash-hotplug.out")
		rip_bt=$(awk '/^PID: .* CPU: 1 / { n = 1 } n && /^ +RIP: / { print $2; exit }' \
			"$out/crash-hotplug.out")
		check "CPU 1's saved registers are those of its backtrace (note RIP ${rip_note:-none}, bt -a RIP ${rip_bt:-none})" \
			test -n "$rip_note" -a "$rip_note" = "$rip_bt"
	fi
	rm -f "$disk"
}

for k in $kernels; do
	one_kernel "$k"
done
SCENARIO=$name
finish
