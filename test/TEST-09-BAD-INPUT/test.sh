#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bad inputs at load, concurrency and file permissions, on a guest whose
# capture kernel is loaded: every bad input is refused with one message
# naming what is wrong, and the capture kernel loaded before stays loaded.
# (A boot without crashkernel= is TEST-03-SERVICE's second boot.)
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

scenario_setup TEST-09-BAD-INPUT
con=$out/console.log

rc=0
CRASH_STEP=bad-inputs CRASH_APPEND="kdump_file_pad=$(head -c 1000 /dev/zero | tr '\0' x)" \
	crash_boot "$con" "$disk" || rc=$?
check_ended "$rc" "guest ended by itself"
check "the capture kernel was loaded at boot" \
	grep -q "KDUMP-FILE-TEST: start: loaded=1 kernel=/boot/vmlinuz-" "$con"

# refused CASE MESSAGE: the load failed, said MESSAGE, and the capture
# kernel loaded before is still loaded.
refused() {
	local name=$1 msg=$2 line
	line=$(grep "KDUMP-FILE-TEST: case $name: " "$con" || true)
	if [ -z "$line" ]; then
		fail "$name: the case did not run"
		return
	fi
	check "$name: refused (non-zero exit)" bash -c "! grep -q ' rc=0 ' <<<'$line'"
	check "$name: says: $msg" grep -qF -- "$msg" "$con"
	check "$name: the previous capture kernel is still loaded" \
		grep -qE "case $name: rc=[0-9]+ loaded=1 kernel-before=(/[^ ]+) kernel-after=\\1\$" <<<"$line"
}
refused corrupt-kernel "not an x86_64 bzImage that kexec_file_load accepts"
refused truncated-kernel "capture kernel '/tmp/vmlinuz.short' is truncated"
refused truncated-initramfs "capture initramfs '/tmp/initramfs.short' is truncated or corrupt"
refused missing-kernel "cannot open capture kernel '/boot/no-such-vmlinuz'"
refused missing-initramfs "cannot open capture initramfs '/boot/no-such-initramfs'"
refused directory-kernel "capture kernel '/boot' is not a non-empty regular file"
refused shell-path "'/var/crash; rm -rf /' contains ';'"
refused shell-cmdline "shell metacharacters"
refused long-cmdline "the capture command line is too long (the kernel takes 2047 bytes including elfcorehdr=)"
refused huge-number "is not a count from 0 (keep all) to 1000"
refused huge-level "'4294967327' is not a dump level from 0 to 31"
refused non-utf8 "line is not valid UTF-8"
refused unknown-key "key 'dump_lvel': unknown key (did you mean 'dump_level'?)"
refused missing-config "/etc/no-such.conf"
refused too-big-initramfs "MiB crashkernel= reserves: raise crashkernel= and reboot, or use a smaller initramfs"
refused writable-capture-program \
	"refusing to build the capture initramfs: '/usr/lib/kdump-file/kdump-file-capture' is group-writable"
refused writable-config "chmod go-w"
refused foreign-config "/tmp/owned.conf"
check "too-big-initramfs: refused before the syscall, the loaded capture kernel never dropped" \
	bash -c "! grep -B3 'case too-big-initramfs:' '$con' | grep -q 'was loaded again'"

check "with umask 000, the initramfs is 0600 and the state directories 0700" \
	grep -q "KDUMP-FILE-TEST: modes: initramfs 600 state-dir 700 run-dir 700" "$con"

line=$(grep "KDUMP-FILE-TEST: case concurrent: " "$con" || true)
log "concurrent loads: ${line#*: }"
check "concurrent loads: the first won" grep -q "rc1=0 " <<<"$line"
check "concurrent loads: the second was refused" grep -qE "rc2=[1-9]" <<<"$line"
check "concurrent loads: the second said busy" grep -q "load2: .*(busy)" "$con"
check "concurrent loads: loaded afterwards" grep -q "loaded=1 kernel-after=/boot/vmlinuz-" <<<"$line"
check "concurrent loads: status agrees" grep -q "KDUMP-FILE-TEST: status after concurrent loads: rc=0" "$con"
check "still loaded at the end" grep -q "KDUMP-FILE-TEST: end: loaded=1 kernel=/boot/vmlinuz-" "$con"

# systemctl reload with a broken config, then with an image the kernel
# refuses (it drops the loaded capture kernel before it reads a new one).
# reloaded CASE: the case's line, checked for a failed reload that left
# the service active and the capture kernel loaded.
reloaded() {
	local line
	line=$(grep "KDUMP-FILE-TEST: case $1: " "$con" || true)
	log "$1: ${line#*: case }"
	check "$1: the reload failed" grep -qE " rc=[1-9]" <<<"$line"
	check "$1: the service is still active, a capture kernel loaded" \
		grep -q " loaded=1 active=active kernel=/boot/vmlinuz-" <<<"$line"
	zeros=$(sed -n 's/.* not-loaded=\([0-9]*\).*/\1/p' <<<"$line")
}
reloaded reload-broken-config
check "reload-broken-config: the journal names the bad key" \
	grep -q "journal: .*key 'dump_lvel': unknown key" "$con"
check "reload-broken-config: loaded in every sample of the watch" test "${zeros:-x}" = 0
check "reload-broken-config: says which capture kernel is loaded now" \
	grep -q "journal: kdump-file: still loaded: /boot/vmlinuz-.* with initramfs /var/lib/kdump-file/initramfs-.*: a crash is still captured" "$con"
reloaded reload-refused-image
check "reload-refused-image: the kernel refused it" \
	grep -q "journal: kdump-file: error: cannot load capture kernel .* with initramfs '/tmp/initramfs.big': kexec_file_load: " "$con"
check "reload-refused-image: the journal says the previous capture kernel was loaded again" \
	grep -q "journal: kdump-file: the previously loaded capture kernel /boot/vmlinuz-.* was loaded again" "$con"
check "reload-refused-image: says which capture kernel is loaded now" \
	grep -q "journal: kdump-file: loaded again: /boot/vmlinuz-.* with initramfs /var/lib/kdump-file/initramfs-.*: a crash is still captured" "$con"
log "reload-refused-image: ${zeros:-?} samples without a capture kernel (the kernel's own window)"
check "a crash right after the failed reloads" grep -q "KDUMP-FILE-TEST: crashing" "$con"
check "capture complete" grep -q "kdump-file: .* capture complete" "$con"

rm -f "$disk"
finish
