# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Guest step of a panic_on scenario, sourced by the guest driver (which
# provides say, run and crash_now).  With "panic_on = oops" the service's
# load sets kernel.panic_on_oops to 1 through its sandbox, stop puts the
# value before back, and an oops (the test module kdump_file_oops, built
# for this project's kernel) then panics and is dumped without the guest
# touching the sysctl itself.

oops_module=/usr/local/lib/kdump-file-test/kdump_file_oops.ko

# The sysctl now, as a line the host can match.
panicon_say() {
    say "panic_on_oops $1: $(cat /proc/sys/kernel/panic_on_oops)"
}

# panicon-oops: configure panic_on = oops, start the service, check the
# sysctl through a stop, a start and a reload, then oops.
step_panicon_oops() {
    if [ ! -e "$oops_module" ]; then
        say "FAIL: no $oops_module (the test modules are built for this project's kernel only)"
        return 1
    fi
    panicon_say "before load"
    printf 'panic_on = oops\n' >> /etc/kdump-file.conf
    # restart: the disk may have the service running already, loaded
    # without panic_on.
    run systemctl enable kdump-file || say "FAIL: enable"
    run systemctl restart kdump-file || say "FAIL: restart"
    journalctl -b -u kdump-file --no-pager -o cat 2> /dev/null |
        grep '^kdump-file' | while IFS= read -r line; do say "service: $line"; done
    panicon_say "after load"
    if [ "$(cat /proc/sys/kernel/panic_on_oops)" != 1 ]; then
        say "FAIL: load did not set kernel.panic_on_oops"
        return 1
    fi
    say "saved: $(tr '\n' ' ' < /run/kdump-file/panic-on)"
    run kdump-file status

    # stop puts the value before back; start sets it again.
    run systemctl stop kdump-file
    panicon_say "after stop"
    say "state file after stop: $(ls /run/kdump-file/panic-on 2>&1)"
    run systemctl start kdump-file
    panicon_say "after start"
    # A reload keeps the value saved before the first load, not our 1.
    run systemctl reload kdump-file
    say "saved after reload: $(tr '\n' ' ' < /run/kdump-file/panic-on)"
    panicon_say "after reload"

    if [ "$(cat /sys/kernel/kexec_crash_loaded)" != 1 ] ||
        [ "$(cat /proc/sys/kernel/panic_on_oops)" != 1 ]; then
        say "FAIL: not loaded with panic_on_oops, not oopsing"
        return 1
    fi
    say "loaded ok"
    # An oops, not a panic: only panic_on turns it into one.
    say "oopsing"
    sync
    insmod "$oops_module"
    say "FAIL: still running after the oops"
}
