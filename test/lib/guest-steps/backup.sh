# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Guest step of the backup region scenario (TEST-16-BACKUP), sourced by the
# guest driver (which provides say, run and crash_now).  The host reads the
# line "KDUMP-FILE-TEST: kdump_file_lowmark: marker <hex> at 0x<phys>" and
# looks for the marker at that physical address in the vmcore.

# backup-mark: with the capture kernel loaded at boot, write a marker into
# low memory with the test module, then crash.
step_backup_mark() {
    say "is-active: $(systemctl is-active kdump-file)"
    # What the kernel said when it loaded the capture kernel (a skipped
    # backup is named here).
    dmesg | grep -E "kexec: " | while IFS= read -r line; do
        say "kernel: $line"
    done
    if [ "$(cat /sys/kernel/kexec_crash_loaded)" != 1 ]; then
        say "FAIL: not loaded, not crashing"
        return 1
    fi
    say "loaded ok"
    if ! run insmod /usr/local/lib/kdump-file-test/kdump_file_lowmark.ko; then
        say "FAIL: the test module did not load"
        return 1
    fi
    dmesg | sed -n 's/.*\(kdump_file_lowmark: marker .*\)/\1/p' |
        while IFS= read -r line; do
            say "$line"
        done
    crash_now
}
