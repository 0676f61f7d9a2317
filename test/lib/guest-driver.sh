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

img_mtime() {
    stat -c %Y.%y /var/lib/kdump-file/initramfs-"$(uname -r)".img
}

# kdump-file(8) as an administrator uses it through systemctl, then a test
# crash; the host checks the lines this prints.
service_scenario() {
    run systemctl start kdump-file
    say "is-active: $(systemctl is-active kdump-file)"
    # A local target: the unit's own sandbox, no network drop-in.
    say "sandbox: $(systemctl show -p PrivateNetwork -p IPAddressDeny -p IPAddressAllow -p RestrictAddressFamilies -p DropInPaths kdump-file | tr '\n' ' ')"
    run kdump-file status
    run kdump-file estimate
    run kdump-file show
    t0=$(img_mtime)
    say "initramfs before: $t0"
    run kdump-file reload
    t1=$(img_mtime)
    say "initramfs after reload without change: $t1"
    [ "$t0" = "$t1" ] && say "no rebuild without change"
    printf 'keep = 5\n' >> /etc/kdump-file.conf
    run kdump-file reload
    t2=$(img_mtime)
    say "initramfs after reload with a config change: $t2"
    [ "$t1" != "$t2" ] && say "rebuilt after config change"
    run kdump-file status
    run systemctl stop kdump-file
    say "after stop: is-active $(systemctl is-active kdump-file), loaded $(cat /sys/kernel/kexec_crash_loaded)"
    kdump-file status > /dev/null 2>&1
    say "status exit after stop: $?"
    cp /etc/kdump-file.conf /tmp/kdump-file.conf.good
    printf 'bogus_key = 1\n' >> /etc/kdump-file.conf
    run systemctl start kdump-file
    run systemctl status --no-pager --lines=10 kdump-file
    say "with a bad config: is-active $(systemctl is-active kdump-file), loaded $(cat /sys/kernel/kexec_crash_loaded)"
    cp /tmp/kdump-file.conf.good /etc/kdump-file.conf
    run systemctl start kdump-file
    say "restored: is-active $(systemctl is-active kdump-file)"
    run kdump-file test
    sync
    run kdump-file test --yes
    say "FAIL: still running after kdump-file test --yes"
}

# More steps, one file per topic: a step "name-x" runs step_name_x.
for f in /usr/local/lib/kdump-file-test/steps/*.sh; do
    # shellcheck disable=SC1090
    [ -e "$f" ] && . "$f"
done

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
crash-loaded|oops-loaded)
    # The service is enabled on this disk: crash once it has loaded, with
    # sysrq c or with an oops from the test module.  What the report unit
    # said of the previous crash (if any) is shown first.
    say "is-active: $(systemctl is-active kdump-file)"
    say "boot id: $(cat /proc/sys/kernel/random/boot_id)"
    journalctl -b -u kdump-file-report --no-pager -o cat 2>/dev/null |
        grep "kdump-file" | while IFS= read -r line; do say "report unit: $line"; done
    journalctl -b -u kdump-file --no-pager -o cat 2>/dev/null |
        grep "^kdump-file" | while IFS= read -r line; do say "service: $line"; done
    if [ "$(cat /sys/kernel/kexec_crash_loaded)" = 1 ]; then
        say "loaded ok"
        if [ "$step" = oops-loaded ]; then
            say "oopsing"
            sync
            echo 1 > /proc/sys/kernel/panic_on_oops
            insmod /usr/local/lib/kdump-file-test/kdump_file_oops.ko
        else
            crash_now
        fi
    fi
    run systemctl status --no-pager --lines=3 kdump-file
    say "not loaded"
    ;;
prepare)
    # Make a disk whose capture initramfs is built (the image for the
    # scenarios that do not test the first build).
    run systemctl enable --now kdump-file || say "FAIL: enable --now"
    say "prepared: $(cat /sys/kernel/kexec_crash_loaded)"
    ;;
status)
    # The boot after a capture.
    run kdump-file status
    ;;
service)
    service_scenario
    ;;
status-mounted)
    # status with the dump target mounted where the admin keeps it.
    target=$(sed -n 's/^target = //p' /etc/kdump-file.conf)
    mkdir -p /mnt/target
    run mount "$target" /mnt/target
    run kdump-file status
    ;;
service-after)
    run kdump-file status
    run systemctl status --no-pager --lines=10 kdump-file
    say "is-active: $(systemctl is-active kdump-file)"
    ;;
*)
    fn=step_$(echo "$step" | tr - _)
    if command -v "$fn" > /dev/null 2>&1; then
        "$fn"
    else
        say "FAIL: unknown step '$step'"
    fi
    ;;
esac
say "done"
# As a clean shutdown does: stop the service (which unloads).
systemctl stop kdump-file
systemctl poweroff --force
