#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Inside the guest: run the step named by kdump_file_test= and print
# "KDUMP-FILE-TEST: ..." lines on the console for the host to check.
set -u

say() {
    echo "KDUMP-FILE-TEST: $*" > /dev/console
}

step=
read -r cmdline < /proc/cmdline
for arg in $cmdline; do
    case "$arg" in
    kdump_file_test=*) step=${arg#kdump_file_test=} ;;
    esac
done

# Run a command, show its output on the console, and record its status.
run() {
    say "run: $*"
    "$@" > /tmp/kdump-file-test.out 2>&1
    rc=$?
    while IFS= read -r line; do
        say "  $line"
    done < /tmp/kdump-file-test.out
    say "rc=$rc: $*"
    return "$rc"
}

crash_now() {
    say "crashing"
    sync
    echo 1 > /proc/sys/kernel/sysrq
    echo c > /proc/sysrq-trigger
}

case "$step" in
crash)
    # The spine: what a user does, then a crash.
    run systemctl enable --now kdump-file || say "FAIL: enable --now"
    state=$(systemctl is-active kdump-file)
    say "is-active: $state"
    run kdump-file status || say "FAIL: status"
    say "kexec_crash_loaded: $(cat /sys/kernel/kexec_crash_loaded)"
    if [ "$state" = active ] && [ "$(cat /sys/kernel/kexec_crash_loaded)" = 1 ]; then
        say "loaded ok"
        crash_now
    fi
    say "FAIL: not loaded, not crashing"
    ;;
status)
    # The boot after a capture.
    run kdump-file status
    ;;
*)
    say "FAIL: unknown step '$step'"
    ;;
esac
say "done"
systemctl poweroff --force
