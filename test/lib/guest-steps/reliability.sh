# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Guest steps of the reliability and security scenarios, sourced by the
# guest driver (which provides say, run and crash_now).  Lines the host
# checks are "KDUMP-FILE-TEST: case NAME: ..." and "KDUMP-FILE-TEST: ...".

loaded_kernel() {
    sed -n 's/^kernel=//p' /run/kdump-file/loaded 2> /dev/null
}

crash_loaded() {
    cat /sys/kernel/kexec_crash_loaded
}

# refused NAME ARGS...: run kdump-file ARGS, which must fail and leave the
# capture kernel that was loaded before loaded.
refused() {
    name=$1
    shift
    before=$(loaded_kernel)
    run kdump-file "$@"
    rc=$?
    say "case $name: rc=$rc loaded=$(crash_loaded) kernel-before=$before kernel-after=$(loaded_kernel)"
}

# bad_conf NAME LINE...: a config file made of the lines, then a load with it.
bad_conf() {
    name=$1
    shift
    printf '%s\n' "$@" > /tmp/bad.conf
    chmod 0644 /tmp/bad.conf
    refused "$name" -c /tmp/bad.conf load
}

step_bad_inputs() {
    say "is-active: $(systemctl is-active kdump-file)"
    say "start: loaded=$(crash_loaded) kernel=$(loaded_kernel)"
    kernel=/boot/vmlinuz-$(uname -r)
    initramfs=/var/lib/kdump-file/initramfs-$(uname -r).img

    # A kernel image whose setup header is damaged.
    cp "$kernel" /tmp/vmlinuz.corrupt
    printf 'XXXX' | dd of=/tmp/vmlinuz.corrupt bs=1 seek=514 conv=notrunc 2> /dev/null
    bad_conf corrupt-kernel "kernel = /tmp/vmlinuz.corrupt"
    # A kernel image cut short: its header is intact, its payload is not.
    head -c 3000000 "$kernel" > /tmp/vmlinuz.short
    bad_conf truncated-kernel "kernel = /tmp/vmlinuz.short"
    # An initramfs cut short.
    size=$(stat -c %s "$initramfs")
    head -c $((size / 2)) "$initramfs" > /tmp/initramfs.short
    bad_conf truncated-initramfs "initramfs = /tmp/initramfs.short"
    bad_conf missing-kernel "kernel = /boot/no-such-vmlinuz"
    bad_conf missing-initramfs "initramfs = /boot/no-such-initramfs"
    bad_conf directory-kernel "kernel = /boot"
    bad_conf shell-path "path = /var/crash; rm -rf /"
    # shellcheck disable=SC2016 # the text itself is the hostile value
    bad_conf shell-cmdline 'cmdline_append = quiet $(reboot)'
    # With this boot's long command line (a 1000-byte parameter), 1000 more
    # bytes would not fit the kernel's 2048 with elfcorehdr=.
    bad_conf long-cmdline "cmdline_append = kdump_file_pad2=$(head -c 980 /dev/zero | tr '\0' y)"
    bad_conf huge-number "keep = 99999999999999999999999"
    bad_conf huge-level "dump_level = 4294967327"
    printf 'path = /var/cr\377sh\n' > /tmp/bad.conf
    refused non-utf8 -c /tmp/bad.conf load
    bad_conf unknown-key "dump_lvel = 31"
    refused missing-config -c /etc/no-such.conf load

    # An initramfs larger than the reservation: refused before the
    # syscall, so the loaded capture kernel is never dropped.
    head -c 300000000 /dev/zero > /tmp/big
    (cd /tmp && echo big | cpio -o -H newc 2> /dev/null) > /tmp/initramfs.big
    rm -f /tmp/big
    bad_conf too-big-initramfs "initramfs = /tmp/initramfs.big"
    rm -f /tmp/initramfs.big

    # Files the capture initramfs is built from must be root's alone.
    chmod g+w /usr/lib/kdump-file/kdump-file-capture
    refused writable-capture-program rebuild
    chmod g-w /usr/lib/kdump-file/kdump-file-capture
    chmod 0664 /etc/kdump-file.conf
    refused writable-config load
    chmod 0644 /etc/kdump-file.conf
    cp /etc/kdump-file.conf /tmp/owned.conf
    chown 1:1 /tmp/owned.conf
    refused foreign-config -c /tmp/owned.conf load

    # A permissive umask does not make what kdump-file writes readable.
    (umask 000 && run kdump-file rebuild)
    say "modes: initramfs $(stat -c %a "$initramfs") state-dir $(stat -c %a /var/lib/kdump-file) run-dir $(stat -c %a /run/kdump-file)"

    # Two loads at once: a changed config makes the first rebuild the
    # initramfs (seconds, holding the lock) while the second starts.
    printf 'keep = 9\n' >> /etc/kdump-file.conf
    kdump-file load > /tmp/load1.out 2>&1 &
    pid=$!
    sleep 2
    kdump-file load > /tmp/load2.out 2>&1
    rc2=$?
    wait "$pid"
    rc1=$?
    while IFS= read -r line; do say "  load1: $line"; done < /tmp/load1.out
    while IFS= read -r line; do say "  load2: $line"; done < /tmp/load2.out
    say "case concurrent: rc1=$rc1 rc2=$rc2 loaded=$(crash_loaded) kernel-after=$(loaded_kernel)"
    run kdump-file status
    say "status after concurrent loads: rc=$rc"
    say "end: loaded=$(crash_loaded) kernel=$(loaded_kernel)"
    reload_cases
    crash_now
}

# watch_loaded STOP: sample kexec_crash_loaded until the file STOP exists,
# then write "SAMPLES NOT-LOADED" to STOP.out.
watch_loaded() {
    n=0
    z=0
    while [ ! -e "$1" ]; do
        read -r v < /sys/kernel/kexec_crash_loaded
        n=$((n + 1))
        [ "$v" = 1 ] || z=$((z + 1))
    done
    echo "$n $z" > "$1.out"
}

# reload_case NAME: systemctl reload with the config as it is now, watched
# from start to end; then the good config back.
reload_case() {
    rm -f /tmp/watch.stop /tmp/watch.stop.out
    watch_loaded /tmp/watch.stop &
    wpid=$!
    sleep 1
    since=$(date +%s)
    run systemctl reload kdump-file
    sleep 1
    touch /tmp/watch.stop
    wait "$wpid"
    journalctl -u kdump-file --since "@$since" --no-pager -o cat |
        grep '^kdump-file' | while IFS= read -r line; do say "  journal: $line"; done
    read -r samples zeros < /tmp/watch.stop.out
    say "case $1: rc=$rc loaded=$(crash_loaded) active=$(systemctl is-active kdump-file) kernel=$(loaded_kernel) samples=$samples not-loaded=$zeros"
    cp /tmp/conf.good /etc/kdump-file.conf
}

# Reloads that must fail, through systemctl as an administrator runs them,
# with the capture kernel watched all the way through; a crash follows.
reload_cases() {
    cp /etc/kdump-file.conf /tmp/conf.good
    printf 'dump_lvel = 31\n' >> /etc/kdump-file.conf
    reload_case reload-broken-config
    # An image the kernel itself refuses, after it has dropped the loaded
    # one: kernel and initramfs fill the reservation to 4 KiB, which
    # kdump-file's own check lets through and the kernel's other segments
    # (purgatory, boot parameters, ELF headers) do not.
    reserved=$(cat /sys/kernel/kexec_crash_size)
    init_size=$(od -An -tu4 -j 608 -N 4 "/boot/vmlinuz-$(uname -r)" | tr -d ' ')
    size=$((reserved - init_size - 4096 - 1024))
    say "reservation $reserved, init_size $init_size: an initramfs of $size bytes"
    head -c "$size" /dev/zero > /tmp/big
    (cd /tmp && echo big | cpio -o -H newc 2> /dev/null) > /tmp/initramfs.big
    rm -f /tmp/big
    say "initramfs.big: $(stat -c %s /tmp/initramfs.big) bytes"
    printf 'initramfs = /tmp/initramfs.big\n' >> /etc/kdump-file.conf
    reload_case reload-refused-image
    rm -f /tmp/initramfs.big
    say "after the reloads: loaded=$(crash_loaded) kernel=$(loaded_kernel)"
}

# Crash while both vCPUs are busy and the disk is being written.
step_crash_under_load() {
    say "is-active: $(systemctl is-active kdump-file)"
    [ "$(crash_loaded)" = 1 ] || { say "not loaded"; return; }
    (while :; do :; done) &
    (while :; do :; done) &
    (while :; do dd if=/dev/zero of=/var/tmp/load.$$ bs=1M count=64 conv=fsync 2> /dev/null; done) &
    sleep 5
    say "runnable: $(cut -d' ' -f4 /proc/loadavg)"
    crash_now
}

# Wait for the host to inject an NMI (unknown_nmi_panic=1 is set).
step_nmi_wait() {
    say "is-active: $(systemctl is-active kdump-file)"
    [ "$(crash_loaded)" = 1 ] || { say "not loaded"; return; }
    sync
    say "waiting for an NMI"
    sleep 120
    say "FAIL: no NMI panic within 120 s"
}

# The boot after an interrupted capture: status, then the next crash.
step_status_crash() {
    run kdump-file status
    say "is-active: $(systemctl is-active kdump-file)"
    [ "$(crash_loaded)" = 1 ] || { say "not loaded"; return; }
    crash_now
}

# Booted with lockdown=integrity; the config names a signed capture kernel,
# which the service loaded at boot.  Unsigned and wrongly signed images are
# refused, and the signed one stays loaded; then a crash.
step_lockdown() {
    say "lockdown: $(cat /sys/kernel/security/lockdown 2>/dev/null || echo "unreadable (no securityfs)")"
    say "is-active: $(systemctl is-active kdump-file)"
    say "start: loaded=$(crash_loaded) kernel=$(loaded_kernel)"
    img=/var/lib/kdump-file/initramfs-$(uname -r).img
    bad_conf unsigned "kernel = /boot/vmlinuz-$(uname -r)" "initramfs = $img"
    bad_conf wrong-key "kernel = /boot/vmlinuz-wrongkey" "initramfs = $img"
    run kdump-file status
    [ "$(crash_loaded)" = 1 ] || { say "not loaded"; return; }
    say "loaded ok"
    crash_now
}
