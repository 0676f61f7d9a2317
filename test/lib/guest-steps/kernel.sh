# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Guest steps of the kernel patch scenarios (TEST-13-PURGATORY),
# sourced by the guest driver (which provides say, run and crash_now).

# The debugfs file of KEXEC_CRASH_CORRUPT_TEST (kernel-patches/0008).
corrupt_file=/sys/kernel/debug/kexec_crash_corrupt

# Damage the loaded capture kernel, then crash: purgatory must refuse it.
#
# Purgatory is the one segment left out of the digest
# (kexec_calculate_store_digests()), and the segment order changes with the
# patches (a backup segment comes first with kernel-patches/0006), so the
# kernel's segment is found by its size: bzImage64_load() loads the kernel
# file less its real-mode setup, (setup_sects + 1) * 512 bytes
# (arch/x86/kernel/kexec-bzimage64.c).
step_purgatory_corrupt() {
    say "is-active: $(systemctl is-active kdump-file)"
    if [ "$(cat /sys/kernel/kexec_crash_loaded)" != 1 ]; then
        say "FAIL: no capture kernel loaded"
        return
    fi
    [ -e "$corrupt_file" ] || mount -t debugfs debugfs /sys/kernel/debug
    run cat "$corrupt_file" || return
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
    if ! (/bin/echo "$seg" > "$corrupt_file") 2> /tmp/corrupt.err; then
        say "FAIL: writing $seg to $corrupt_file: $(cat /tmp/corrupt.err)"
        return
    fi
    say "corrupted segment $seg"
    crash_now
}
