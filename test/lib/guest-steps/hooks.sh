# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Guest steps of the hooks scenario: pre and post hooks, a hook that fails,
# one that hangs, an extra module and extra binaries in the capture.
# hooks-load configures, checks a refusal and a rebuild, and crashes;
# hooks-oops does the same with panic_on = oops and crashes with an oops
# (the test module kdump_file_oops); hooks-after, the boot after the
# capture, prints what was recorded and the crash's journal entry.

HOOKS_DIR=/etc/kdump-file/hooks

# hook NAME: the script on stdin as hook NAME, root's alone.
hook() {
    cat > "$HOOKS_DIR/$1"
    chmod 0755 "$HOOKS_DIR/$1"
}

# hooks_setup [EXTRA CONFIGURATION LINE]: the hooks configured, a refusal,
# the service enabled and loaded, a rebuild after a hook's edit.
hooks_setup() {
    mkdir -p "$HOOKS_DIR"
    chmod 0755 /etc/kdump-file "$HOOKS_DIR"
    hook marker << 'EOF'
#!/bin/sh
echo "marker hook: $1 $2"
echo "pre $2" > "$1/hook-pre-marker"
EOF
    hook fail << 'EOF'
#!/bin/sh
echo "fail hook: failing on purpose" >&2
exit 1
EOF
    # A child that sleeps and holds the output pipe, the hook waiting for
    # it: both must be killed at hook_timeout.
    hook hang << 'EOF'
#!/bin/sh
echo "hang hook: sleeping for ever"
sleep 100000 &
wait
EOF
    hook list << 'EOF'
#!/bin/sh
echo "list hook: $1 $2"
{
    ls -l "$1"
    echo "status $2"
} > "$1/hook-post-listing" 2>&1
while read -r name _; do
    echo "$name"
done < /proc/modules > "$1/hook-post-modules"
EOF
    say "dummy on this kernel: $(modinfo -F filename dummy 2>&1)"
    cat >> /etc/kdump-file.conf << EOF
pre_hook = $HOOKS_DIR/marker $HOOKS_DIR/fail $HOOKS_DIR/hang
post_hook = $HOOKS_DIR/list
hook_timeout = 5
hook_failure = continue
extra_modules = dummy
extra_binaries = /usr/bin/ls /usr/bin/sleep
EOF
    [ -z "${1:-}" ] || echo "$1" >> /etc/kdump-file.conf
    run cat /etc/kdump-file.conf

    # Refused while a hook is group-writable, the file and fix named.
    chmod 0775 "$HOOKS_DIR/fail"
    if ! run kdump-file show; then
        say "show refused a group-writable hook"
    fi
    chmod 0755 "$HOOKS_DIR/fail"

    run systemctl enable --now kdump-file || say "FAIL: enable --now"
    run kdump-file show
    # A hook edited: the next load rebuilds the capture initramfs.
    echo "# edited" >> "$HOOKS_DIR/list"
    run kdump-file reload
    if grep -q "building capture initramfs" /tmp/kdump-file-test.out; then
        say "rebuilt after a hook changed"
    fi
    say "loaded: $(cat /sys/kernel/kexec_crash_loaded)"
}

step_hooks_load() {
    hooks_setup
    crash_now
}

# An oops, which only panic_on = oops makes a panic: the guest never writes
# the sysctl itself.
step_hooks_oops() {
    oops=/usr/local/lib/kdump-file-test/kdump_file_oops.ko
    say "panic_on_oops before load: $(cat /proc/sys/kernel/panic_on_oops)"
    hooks_setup "panic_on = oops"
    journalctl -b -u kdump-file --no-pager -o cat 2> /dev/null |
        grep '^kdump-file: panic on' | while IFS= read -r line; do say "service: $line"; done
    say "panic_on_oops after load: $(cat /proc/sys/kernel/panic_on_oops)"
    run kdump-file status
    if [ ! -e "$oops" ]; then
        say "FAIL: no $oops"
        return 1
    fi
    say "oopsing"
    sync
    insmod "$oops"
    say "FAIL: still running after the oops"
}

step_hooks_after() {
    run kdump-file status
    dir=$(find /var/crash -mindepth 1 -maxdepth 1 -type d -name '2*' | sort | tail -n 1)
    say "dump dir: $dir"
    say "files: $(find "$dir" -mindepth 1 -maxdepth 1 -printf '%f ' | tr -s ' ')"
    if [ -f "$dir/hook-pre-marker" ]; then
        say "pre marker: $(cat "$dir/hook-pre-marker")"
    fi
    if [ -f "$dir/hook-post-listing" ]; then
        while IFS= read -r line; do
            say "post listing: $line"
        done < "$dir/hook-post-listing"
    fi
    if grep -qx dummy "$dir/hook-post-modules" 2> /dev/null; then
        say "dummy was loaded in the capture"
    fi
    if [ -f "$dir/hooks.log" ]; then
        while IFS= read -r line; do
            say "hooks.log: $line"
        done < "$dir/hooks.log"
    fi
    run cat "$dir/metadata.json"
    run kdump-file info
    say "panic_on_oops at boot: $(cat /proc/sys/kernel/panic_on_oops)"
    step_report_journal
}
