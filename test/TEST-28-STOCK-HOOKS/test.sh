#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What users of kdump-tools and kdump-utils configure, on Debian's stock
# kernel: pre and post hooks in the capture (one writes a marker into the
# dump directory, one lists it, one fails and one hangs past hook_timeout:
# both recorded, the dump still saved), an extra module loaded in the
# capture (dummy), and panic_on = oops turning an oops (the test module
# kdump_file_oops, built against the stock kernel's headers) into a saved
# dump.  After the reboot, the crash's entry is in the journal under
# kdump-file's MESSAGE_ID, with the ID kdump-file list shows.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

scenario_out TEST-28-STOCK-HOOKS
img=$(stock_image)
mods=$("$KDUMP_FILE_LIB/stock-modules.sh")
stock_boot
disk=$out/disk.img
scenario_disk "$img" "$disk"
disk_put_file "$disk" "$mods/kdump_file_oops.ko" /usr/local/lib/kdump-file-test/kdump_file_oops.ko ||
	fail "cannot put kdump_file_oops.ko into the guest's disk"
t=${KDUMP_FILE_BOOT_TIMEOUT:-1500}

# boot STEP LOG
boot() {
	local rc=0
	# shellcheck disable=SC2031 # stock_boot set them in this shell
	qemu_boot "$2" "$t" bios 1024 "$kernel" \
		"root=/dev/vda rw console=ttyS0 crashkernel=256M panic=-1 kdump_file_test=$1" \
		"$disk" "${initrd[@]}" || rc=$?
	check_ended "$rc" "boot $1 ended by itself"
}

boot hooks-oops "$out/console.log"
con=$out/console.log
check "the stock kernel has dummy as a module" grep -q "KDUMP-FILE-TEST: dummy on this kernel: /.*dummy.ko" "$con"
check "show refused a group-writable hook, naming it" \
	grep -q "KDUMP-FILE-TEST:   kdump-file: error: cannot use pre_hook '/etc/kdump-file/hooks/fail' .*group-writable" "$con"
check "a hook's edit rebuilt the capture initramfs" grep -q "KDUMP-FILE-TEST: rebuilt after a hook changed" "$con"
check "panic_on_oops was 0 before load" grep -q "KDUMP-FILE-TEST: panic_on_oops before load: 0" "$con"
check "load said what it set" \
	grep -q "KDUMP-FILE-TEST: service: kdump-file: panic on: oops (kernel.panic_on_oops=1)" "$con"
check "load set panic_on_oops" grep -q "KDUMP-FILE-TEST: panic_on_oops after load: 1" "$con"
check "the guest oopsed" grep -q "kdump_file_oops: reading through a NULL pointer" "$con"
# With panic_on_oops, oops_end() hands the oops to the capture kernel
# itself: no "Kernel panic" line, and the guest never goes on.
check "the oops went to the capture kernel" grep -q "Oops: 0000" "$con"
check "the guest did not go on after the oops" \
	bash -c "! grep -q 'KDUMP-FILE-TEST: FAIL: still running after the oops' '$con'"
check "extra module dummy loaded in the capture" grep -q "kdump-file: .*extra module dummy loaded" "$con"
check "the pre hook ran" grep -q "kdump-file: .*pre hook /etc/kdump-file/hooks/marker: exit 0" "$con"
check "the failing hook was recorded" \
	grep -q "kdump-file: .*pre hook /etc/kdump-file/hooks/fail failed: exit 1 (hook_failure = continue)" "$con"
check "the hanging hook was killed at hook_timeout" \
	grep -q "kdump-file: .*pre hook /etc/kdump-file/hooks/hang failed: timed out after 5.0 s: killed" "$con"
check "the post hook ran" grep -q "kdump-file: .*post hook /etc/kdump-file/hooks/list: exit 0" "$con"
check "capture complete" grep -q "kdump-file: .* capture complete" "$con"

boot hooks-after "$out/console-after.log"
con=$out/console-after.log
check "the pre hook's marker is in the dump directory" grep -q "KDUMP-FILE-TEST: pre marker: pre pre" "$con"
check "the post hook listed the dump directory with the vmcore" \
	grep -q "KDUMP-FILE-TEST: post listing: .* vmcore$" "$con"
check "the post hook was told ok" grep -q "KDUMP-FILE-TEST: post listing: status ok" "$con"
check "the post hook saw dummy loaded" grep -q "KDUMP-FILE-TEST: dummy was loaded in the capture" "$con"
check "hooks.log holds the failing hook's output" \
	grep -q "KDUMP-FILE-TEST: hooks.log: fail hook: failing on purpose" "$con"
check "info shows the hung hook" grep -q "KDUMP-FILE-TEST:   .*hang: timed out after 5.0 s: killed" "$con"
check "info shows the extra module" grep -q "KDUMP-FILE-TEST:   extra mods:  dummy: loaded" "$con"
check "info: the oops' task" grep -q "KDUMP-FILE-TEST:   task: .*insmod" "$con"
check "the dump is complete" grep -qE "KDUMP-FILE-TEST:   last dump: +([0-9a-f]{8} )?/var/crash/.*: complete" "$con"
id=$(sed -n 's/.*KDUMP-FILE-TEST: list id: \([0-9a-f]\{8\}\).*/\1/p' "$con" | tail -n 1)
check "one crash entry in the journal this boot" \
	grep -q "KDUMP-FILE-TEST: journal crash entries this boot: 1" "$con"
check "journalctl MESSAGE_ID=... gives the crash list shows (${id:-none})" \
	grep -q "KDUMP-FILE-TEST: journal crash entry this boot: ${id:-none}" "$con"
check "the service loaded again, with panic_on_oops set" grep -q "KDUMP-FILE-TEST: panic_on_oops at boot: 1" "$con"

mapfile -t dirs < <(dump_dirs "$disk" /var/crash)
check "one dump (${dirs[*]})" test "${#dirs[@]}" -eq 1
if [ "${#dirs[@]}" -eq 1 ]; then
	dump_fetch "$disk" /var/crash "${dirs[0]}" "$out/dump"
	# The module's function is not in the vmlinux: bt names the oops path.
	DUMP_DMESG="kdump_file_oops: reading through a NULL pointer" \
		DUMP_PANIC='PANIC: "Oops: ' \
		DUMP_BT=oops_end check_dump "oops" "$(stock_vmlinux)" "$out/dump"
fi
rm -f "$disk"
finish
