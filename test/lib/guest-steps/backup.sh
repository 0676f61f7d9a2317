# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Guest step of the backup region scenario (TEST-16-BACKUP), sourced by the
# guest driver (which provides say, run and crash_now).  The host reads the
# lines "KDUMP-FILE-TEST: kdump_file_lowmark: marker <hex> at 0x<phys>" and
# looks for each marker at that physical address in the vmcore, and the
# line "KDUMP-FILE-TEST: backup-mark: trampoline at 0x<start>-0x<end>".

# The real-mode trampoline of this kernel, "<start> <end>" in hex, from the
# two lines memblock=debug prints when reserve_real_mode()
# (arch/x86/realmode/init.c) allocates it below 1M:
#   memblock_phys_alloc_range: 28672 bytes align=0x1000 ... reserve_real_mode+0x6e/0xa4
#   memblock_reserve: [0x0000000000098000-0x000000000009efff] memblock_alloc_range_nid+...
# Nothing when the boot had no memblock=debug or found no room below 1M.
backup_trampoline() {
    dmesg | sed -n '/memblock_phys_alloc_range: .* reserve_real_mode+/{
n
s/.*memblock_reserve: \[0x0*\([0-9a-f][0-9a-f]*\)-0x0*\([0-9a-f][0-9a-f]*\)\].*/\1 \2/p
}' | head -n 1
}

# backup-mark: with the capture kernel loaded at boot, write markers into
# low memory with the test module, then crash: one at 0x50000, and one at
# the start of this kernel's real-mode trampoline, where the capture kernel
# is expected to put its own (the host checks that it did).
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
    pages=0x50000
    tramp=$(backup_trampoline)
    if [ -n "$tramp" ]; then
        say "backup-mark: trampoline at 0x${tramp% *}-0x${tramp#* }"
        pages="$pages,0x${tramp% *}"
    else
        say "backup-mark: trampoline not found in dmesg (memblock=debug missing?)"
    fi
    if ! run insmod /usr/local/lib/kdump-file-test/kdump_file_lowmark.ko \
        phys="$pages"; then
        say "FAIL: the test module did not load"
        return 1
    fi
    dmesg | sed -n 's/.*\(kdump_file_lowmark: marker .*\)/\1/p' |
        while IFS= read -r line; do
            say "$line"
        done
    crash_now
}
