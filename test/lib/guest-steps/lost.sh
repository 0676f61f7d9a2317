# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Guest steps of the lost-capture scenarios (test/lib/scenario-lost.sh):
# captures that cannot save anything, and the boot after them.

# The hardware watchdog as this system has it.
watchdog_state() {
    w=/sys/class/watchdog/watchdog0
    if [ -e "$w" ]; then
        echo "$(cat "$w/state") timeout $(cat "$w/timeout") device $(cat "$w/device/modalias") driver $(readlink -f "$w/device/driver")"
    else
        echo "none"
    fi
}

# lost_load LINE...: the lines appended to the config, the service enabled
# and started, what show says of the helpers, then a crash.
lost_load() {
    printf '%s\n' "$@" >> /etc/kdump-file.conf
    run systemctl enable --now kdump-file || say "FAIL: enable --now"
    run kdump-file show
    say "loaded: $(cat /sys/kernel/kexec_crash_loaded)"
    crash_now
}

# systemd keeps the hardware watchdog running (30 s, pinged every 15 s),
# also in the boots after this one: the crashed system's countdown resets
# a machine whose capture kernel never starts or hangs.
watchdog_run() {
    mkdir -p /etc/systemd/system.conf.d
    printf '[Manager]\nRuntimeWatchdogSec=%s\n' 30 > /etc/systemd/system.conf.d/watchdog.conf
    systemctl daemon-reexec
    say "watchdog: $(watchdog_state)"
}

# A capture kernel that never reaches the capture program: it panics for
# want of an init and, with panic=0, would wait for ever.
step_lost_no_init() {
    watchdog_run
    lost_load "cmdline_append = panic=0 rdinit=/no-such-init"
}

# A dump target that never appears in the capture kernel.
step_lost_no_target() {
    say "watchdog: $(watchdog_state)"
    lost_load "target = LABEL=kdnowhere" "target_timeout = 10"
}

# The boot after: what status and the journal say of the lost crash.
step_lost_status() {
    run kdump-file status
    journalctl -b -u kdump-file --no-pager -o cat 2> /dev/null |
        grep '^kdump-file' | while IFS= read -r line; do say "journal: $line"; done
    say "pstore archive: $(find /var/lib/systemd/pstore -mindepth 1 -maxdepth 1 2> /dev/null | wc -l) entries"
}

# ramoops: the guest reboots in place, RAM kept.  The first boot crashes
# with a dump target that never appears; the boot after the capture's
# reboot (the same step, a marker on disk) shows what status says.
step_lost_ramoops() {
    marker=/var/lib/kdump-file-test-ramoops
    if [ -e "$marker" ]; then
        say "after the reboot in place"
        step_lost_status
        return
    fi
    : > "$marker"
    sync
    say "pstore backend: $(cat /sys/module/pstore/parameters/backend)"
    # A deadline longer than i6300esb can wait (2046 s): the capture
    # leaves the watchdog stopped rather than let it cut the capture short.
    lost_load "target = LABEL=kdnowhere" "target_timeout = 10" "capture_timeout = 3000"
}

