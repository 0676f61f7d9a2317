#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Crashes that are not a quiet sysrq c: a panic while both vCPUs spin and
# the disk is being written, and a panic from an NMI (unknown_nmi_panic=1,
# NMI injected by the host through QMP).  Each gives a complete dump whose
# panic and backtrace name the right cause.  (An oops with panic_on_oops
# from a test module is TEST-08-REPORT's third crash.)
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

scenario_setup TEST-11-PANIC-KINDS

# 1. Under load.
con=$out/console-load.log
rc=0
CRASH_STEP=crash-under-load crash_boot "$con" "$disk" || rc=$?
check_ended "$rc" "under load: guest ended by itself"
check "under load: the guest was busy when it crashed" \
	grep -qE "KDUMP-FILE-TEST: runnable: ([3-9]|[1-9][0-9]+)/" "$con"
check "under load: capture complete" grep -q "kdump-file: .* capture complete" "$con"
mapfile -t dirs < <(dump_dirs "$disk" /var/crash)
check "under load: one dump (${dirs[*]})" test "${#dirs[@]}" -eq 1
if [ "${#dirs[@]}" -ge 1 ]; then
	dump_fetch "$disk" /var/crash "${dirs[0]}" "$out/dump-load"
	check_dump "under load" "$kdir/vmlinux" "$out/dump-load"
fi

# 2. An NMI.
con=$out/console-nmi.log
sock=$out/qmp.sock
rm -f "$sock"
rc=0
qemu_boot "$con" 600 bios 1024 "$kdir/bzImage" \
	"root=/dev/vda rw console=ttyS0 crashkernel=256M panic=-1 unknown_nmi_panic=1 kdump_file_test=nmi-wait" \
	"$disk" -qmp "unix:$sock,server=on,wait=off" &
qpid=$!
if qemu_watch "$con" "KDUMP-FILE-TEST: waiting for an NMI" 500; then
	check "NMI injected through QMP" qmp "$sock" inject-nmi
else
	fail "the guest never got ready for the NMI"
fi
wait "$qpid" || rc=$?
check_ended "$rc" "NMI: guest ended by itself"
check "NMI: capture complete" grep -q "kdump-file: .* capture complete" "$con"
mapfile -t dirs < <(dump_dirs "$disk" /var/crash)
check "NMI: a second dump (${dirs[*]})" test "${#dirs[@]}" -eq 2
if [ "${#dirs[@]}" -ge 2 ]; then
	dump_fetch "$disk" /var/crash "${dirs[1]}" "$out/dump-nmi"
	# printk from NMI context is deferred: the panic line reaches the
	# console only through the dump's own dmesg.
	DUMP_DMESG="Kernel panic - not syncing: NMI: Not continuing" \
		DUMP_PANIC='PANIC: "(Kernel panic - not syncing: )?NMI: Not continuing' \
		DUMP_BT=unknown_nmi_error check_dump "NMI" "$kdir/vmlinux" "$out/dump-nmi"
fi
rm -f "$disk" "$sock"
finish
