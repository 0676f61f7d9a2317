# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Guest steps of the kernel patch scenarios (TEST-13-PURGATORY),
# sourced by the guest driver (which provides say, run and crash_now).

# The debugfs file of KEXEC_CRASH_CORRUPT_TEST (kernel-patches/0009).
corrupt_file=/sys/kernel/debug/kexec_crash_corrupt

# What a damage case starts from: the capture kernel loaded at boot, the
# hardware watchdog kept running (watchdog_run, guest-steps/lost.sh: it
# resets the machine once purgatory spins), and the segments of the
# loaded image, as the hook lists them.  1 when nothing is loaded.
purgatory_ready() {
    say "is-active: $(systemctl is-active kdump-file)"
    say "boot id: $(cat /proc/sys/kernel/random/boot_id)"
    if [ "$(cat /sys/kernel/kexec_crash_loaded)" != 1 ]; then
        say "FAIL: no capture kernel loaded"
        return 1
    fi
    watchdog_run
    [ -e "$corrupt_file" ] || mount -t debugfs debugfs /sys/kernel/debug
    run cat "$corrupt_file"
}

# purgatory_damage SEGMENT: flip a byte of it, then crash.  Purgatory must
# refuse the image: no capture kernel starts.
purgatory_damage() {
    if ! (/bin/echo "$1" > "$corrupt_file") 2> /tmp/corrupt.err; then
        say "FAIL: writing $1 to $corrupt_file: $(cat /tmp/corrupt.err)"
        return
    fi
    say "corrupted segment $1"
    crash_now
}

# Damage the loaded capture kernel, then crash.
#
# Purgatory is the one segment left out of the digest
# (kexec_calculate_store_digests()), and the segment order changes with the
# patches (a backup segment comes first with kernel-patches/0007), so the
# kernel's segment is found by its size: bzImage64_load() loads the kernel
# file less its real-mode setup, (setup_sects + 1) * 512 bytes
# (arch/x86/kernel/kexec-bzimage64.c).
step_purgatory_corrupt() {
    purgatory_ready || return
    kernel=$(sed -n 's/^kernel=//p' /run/kdump-file/loaded)
    size=$(stat -c %s "$kernel") || return
    setup=$(od -An -tu1 -j 497 -N1 "$kernel" | tr -d ' ')
    [ "$setup" = 0 ] && setup=4
    want=$(printf '0x%x' $((size - (setup + 1) * 512)))
    seg=$(awk -v w="bufsz=$want" '$4 == w && $5 != "entry" { print $1 }' "$corrupt_file")
    if [ -z "$seg" ]; then
        say "FAIL: no segment of $want bytes (the kernel $kernel) or it holds the entry point"
        return
    fi
    say "kernel segment: $seg (bufsz $want, $kernel)"
    # The refusal first: it must not damage anything.  /bin/echo names the
    # errno of a failed write.
    (/bin/echo 99 > "$corrupt_file") 2> /tmp/corrupt.err
    rc=$?
    say "case out-of-range: rc=$rc $(cat /tmp/corrupt.err)"
    purgatory_damage "$seg"
}

# Damage the crash ELF core headers, then crash: purgatory checks their
# digest too, so that a capture kernel never reads headers a stray write
# changed.  Their segment is the one loaded where the kernel last said it
# put them (kernel-patches/0008: "crash ELF core headers loaded at ADDR").
# The next boot must say the crash was lost and why: the guest step
# lost-status (guest-steps/lost.sh), under SeaBIOS in the same step after
# the watchdog's reset in place (a marker on disk), pstore in RAM.
step_purgatory_header() {
    marker=/var/lib/kdump-file-test-header
    if [ -e "$marker" ]; then
        say "after the reboot in place"
        step_lost_status
        return
    fi
    purgatory_ready || return
    say "pstore backend: $(cat /sys/module/pstore/parameters/backend)"
    say "armed: $(cat /var/lib/kdump-file/armed)"
    at=$(dmesg | sed -n 's/.*kexec: crash ELF core headers loaded at \(0x[0-9a-f]*\) .*/\1/p' | tail -n 1)
    if [ -z "$at" ]; then
        say "FAIL: no 'crash ELF core headers loaded at' line in the kernel log"
        return
    fi
    line=$(awk -v m="mem=$at" '$2 == m' "$corrupt_file")
    seg=${line%% *}
    case "$line" in
    "")
        say "FAIL: no segment at $at (the ELF core headers) in $corrupt_file"
        return
        ;;
    *" entry")
        say "FAIL: the segment at $at (the ELF core headers), $seg, holds the entry point"
        return
        ;;
    esac
    say "header segment: $seg (mem $at)"
    : > "$marker"
    sync
    purgatory_damage "$seg"
}
