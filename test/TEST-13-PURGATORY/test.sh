#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Purgatory refuses a damaged capture kernel.  The prepared guest loads the
# capture kernel at boot (kdump-file.service); the guest step flips one byte
# of its kernel segment through /sys/kernel/debug/kexec_crash_corrupt
# (kernel-patches/0008, CONFIG_KEXEC_CRASH_CORRUPT_TEST) and crashes with
# sysrq c.  Purgatory finds the SHA-256 digest wrong and spins
# (arch/x86/purgatory/purgatory.c), so the capture kernel never starts: no
# second kernel banner, no capture line.  Such a guest never ends by itself:
# the test watches its console for GRACE seconds after the crash, then stops
# QEMU, and says so.  Then the same disk, undamaged, captures a crash.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

scenario_setup TEST-13-PURGATORY
# The capture kernel starts ~4 s after a crash when it can (FACTS.md), a few
# times that on a loaded host.
GRACE=40

# 1. The damaged capture kernel, under SeaBIOS and under OVMF, each on its
# own copy of the prepared disk (firmware_passes).
damaged() {
	local con pidfile rc t0 boot stopped seg
	con=$out/console.log
	pidfile=$out/qemu.pid
	rm -f "$pidfile"
	rc=0
	t0=$(date +%s)
	CRASH_STEP=purgatory-corrupt crash_boot "$con" "$disk" -pidfile "$pidfile" &
	boot=$!
	if qemu_watch "$con" "KDUMP-FILE-TEST: crashing" 240; then
		log "the guest crashed after $(($(date +%s) - t0)) s; watching its console for $GRACE s"
		sleep "$GRACE"
	else
		fail "the guest did not reach the crash within 240 s"
	fi
	if [ -s "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
		log "expected timeout: QEMU still running $GRACE s after the crash; stopping it"
		kill "$(cat "$pidfile")"
		stopped=yes
	else
		stopped=no
	fi
	wait "$boot" || rc=$?
	log "QEMU ended (rc=$rc) after $(($(date +%s) - t0)) s"

	check "the capture kernel was loaded at boot" grep -q "KDUMP-FILE-TEST: is-active: active" "$con"
	seg=$(sed -n 's/^KDUMP-FILE-TEST: kernel segment: \([0-9]*\) .*/\1/p' "$con")
	check "the guest found the kernel's segment (${seg:-none}), not purgatory's" test -n "$seg"
	check "an index past the last segment is refused with ERANGE" \
		grep -q "KDUMP-FILE-TEST: case out-of-range: rc=1 .*Numerical result out of range" "$con"
	# Without this line the test could pass on a guest that merely hung.
	check "the kernel says it damaged segment ${seg:-?}" \
		grep -qE "kexec_crash_corrupt: flipped the byte at 0x[0-9a-f]+ in segment ${seg:-none} \[mem 0x[0-9a-f]+-0x[0-9a-f]+\]" "$con"
	check "the guest panicked" grep -q "Kernel panic - not syncing: sysrq triggered crash" "$con"
	# What the console showed after the crash.
	sed -n '/KDUMP-FILE-TEST: crashing/,$p' "$con" >"$out/after-crash.log"
	check "no second kernel banner within $GRACE s" bash -c "! grep -q 'Linux version' '$out/after-crash.log'"
	check "no capture started within $GRACE s" \
		bash -c "! grep -q 'kdump-file: .* capture started' '$out/after-crash.log'"
	check "the guest was still spinning when stopped (the expected timeout)" test "$stopped" = yes
}
firmware_passes damaged "$prepared"

# 2. A copy of the same disk, nothing damaged: the capture kernel starts and
# saves a dump (as in every crash scenario; here it shows that part 1 failed
# because of the damage only).
con=$out/console-undamaged.log
rc=0
CRASH_STEP=crash-loaded crash_boot "$con" "$disk" || rc=$?
check_ended "$rc" "undamaged: the guest ended by itself"
check "undamaged: the capture kernel started" \
	bash -c "sed -n '/KDUMP-FILE-TEST: crashing/,\$p' '$con' | grep -q 'Linux version'"
check "undamaged: capture complete" grep -q "kdump-file: .* capture complete" "$con"
rm -f "$disk"
finish
