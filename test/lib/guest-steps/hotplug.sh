# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Guest step of the CPU and memory hotplug scenario (TEST-29-HOTPLUG),
# sourced by the guest driver (which provides say, run and crash_now).  The
# guest boots with one CPU of four and 1 GiB of 4; once kdump-file has
# loaded the capture kernel it says "ready for hotplug" and the host adds a
# 1 GiB DIMM and a CPU through QMP.  The guest onlines them, waits for
# udev and for the reload they make pending (none on a kernel that updates
# the loaded ELF headers itself), writes a marker into the new memory with
# the test module kdump_file_himark, prints what kdump-file logged since
# the hotplug and crashes on CPU 0 with both CPUs online.

HOTPLUG_CPU=/sys/devices/system/cpu
HOTPLUG_MEM=/sys/devices/system/memory
HOTPLUG_PENDING=/run/kdump-file/hotplug-pending
HOTPLUG_STOP=/tmp/hotplug-watch.stop

# hotplug_ms: milliseconds since boot.
hotplug_ms() {
    read -r up _ < /proc/uptime
    frac=${up#*.}
    # Two decimals; without the leading zero, which sh reads as octal.
    echo $((${up%.*} * 1000 + ${frac#0} * 10))
}

# hotplug_watch_loaded STOP: sample kexec_crash_loaded every 20 ms until
# the file STOP exists, then write "SAMPLES NOT-LOADED WINDOWS LONGEST_MS"
# to STOP.out, a window being a run of samples without a capture kernel.
hotplug_watch_loaded() {
    n=0
    z=0
    windows=0
    longest=0
    since=
    while [ ! -e "$1" ]; do
        read -r v < /sys/kernel/kexec_crash_loaded
        n=$((n + 1))
        if [ "$v" != 1 ]; then
            z=$((z + 1))
            if [ -z "$since" ]; then
                since=$(hotplug_ms)
                windows=$((windows + 1))
            fi
        elif [ -n "$since" ]; then
            d=$(($(hotplug_ms) - since))
            [ "$d" -le "$longest" ] || longest=$d
            since=
        fi
        sleep 0.02
    done
    if [ -n "$since" ]; then
        d=$(($(hotplug_ms) - since))
        [ "$d" -le "$longest" ] || longest=$d
    fi
    echo "$n $z $windows $longest" > "$1.out"
}

hotplug_blocks() {
    find "$HOTPLUG_MEM" -maxdepth 1 -name 'memory[0-9]*' | wc -l
}

# hotplug_attr FILE: its content, or "absent".
hotplug_attr() {
    if [ -e "$1" ]; then
        cat "$1"
    else
        echo absent
    fi
}

# hotplug_wait_reload SECONDS: until no reload is pending and the reload
# service is not running, three seconds in a row; prints how long it took.
hotplug_wait_reload() {
    i=0
    quiet=0
    while [ "$i" -lt "$1" ] && [ "$quiet" -lt 3 ]; do
        state=$(systemctl is-active kdump-file-hotplug.service)
        if [ -e "$HOTPLUG_PENDING" ] || [ "$state" = active ] ||
            [ "$state" = activating ] || [ "$state" = deactivating ]; then
            quiet=0
        else
            quiet=$((quiet + 1))
        fi
        sleep 1
        i=$((i + 1))
    done
    if [ "$quiet" -ge 3 ]; then
        say "reload wait: done after $i s (kdump-file-hotplug.service $state)"
    else
        say "FAIL: reload wait: still pending after $i s (kdump-file-hotplug.service $state, $(hotplug_attr "$HOTPLUG_PENDING"))"
    fi
}

# hotplug_updates: how many times the kernel rewrote the loaded ELF
# headers ("absent" on a kernel that does not count them).
hotplug_updates() {
    mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug 2> /dev/null
    hotplug_attr /sys/kernel/debug/crash_hotplug_updates
}

# A CPU offline and online again: the notes cover every possible CPU, so
# a kernel that updates the headers itself has nothing to rewrite.
hotplug_cpu_cycle() {
    [ -d "$HOTPLUG_CPU/cpu1" ] || return 0
    u0=$(hotplug_updates)
    if echo 0 > "$HOTPLUG_CPU/cpu1/online" && echo 1 > "$HOTPLUG_CPU/cpu1/online"; then
        say "cpu1 offline and online again: header rewrites $u0 -> $(hotplug_updates)"
    else
        say "FAIL: cannot take cpu1 offline and online again"
    fi
}

step_hotplug() {
    himark=/usr/local/lib/kdump-file-test/kdump_file_himark.ko
    i=0
    while [ "$i" -lt 600 ]; do
        if [ "$(systemctl is-active kdump-file)" = active ] &&
            [ "$(cat /sys/kernel/kexec_crash_loaded)" = 1 ]; then
            break
        fi
        sleep 1
        i=$((i + 1))
    done
    say "is-active: $(systemctl is-active kdump-file)"
    say "kexec_crash_loaded: $(cat /sys/kernel/kexec_crash_loaded)"
    say "cpu crash_hotplug: $(hotplug_attr "$HOTPLUG_CPU/crash_hotplug")"
    say "memory crash_hotplug: $(hotplug_attr "$HOTPLUG_MEM/crash_hotplug")"
    if [ ! -d "$HOTPLUG_MEM" ]; then
        say "FAIL: $HOTPLUG_MEM is missing: this kernel has no memory hotplug (CONFIG_MEMORY_HOTPLUG)"
    fi
    bs=$((0x$(cat "$HOTPLUG_MEM/block_size_bytes" 2> /dev/null || echo 8000000)))
    want=$((1073741824 / bs))
    n0=$(hotplug_blocks)
    say "header rewrites before the hotplug: $(hotplug_updates)"
    rm -f "$HOTPLUG_STOP" "$HOTPLUG_STOP.out"
    hotplug_watch_loaded "$HOTPLUG_STOP" &
    wpid=$!
    # The journal from here on is what the hotplug made kdump-file do.
    sleep 1
    since=$(date +%s)
    sleep 1
    say "ready for hotplug: cpus present $(cat "$HOTPLUG_CPU/present"), $n0 memory blocks of $bs bytes"

    # The host adds a DIMM, then a CPU: wait for both (TCG is slow).
    i=0
    while [ "$i" -lt 300 ]; do
        if [ -d "$HOTPLUG_CPU/cpu1" ] && [ "$(hotplug_blocks)" -ge $((n0 + want)) ]; then
            break
        fi
        sleep 1
        i=$((i + 1))
    done
    n1=$(hotplug_blocks)
    cpu1=missing
    [ ! -d "$HOTPLUG_CPU/cpu1" ] || cpu1=present
    say "hot-added after $i s: cpu1 $cpu1, memory blocks $n0 -> $n1 ($((n1 - n0)) new, $want expected)"

    if [ "$cpu1" = present ]; then
        if [ "$(cat "$HOTPLUG_CPU/cpu1/online")" = 1 ]; then
            say "cpu1 was online already"
        elif echo 1 > "$HOTPLUG_CPU/cpu1/online"; then
            say "onlined cpu1"
        else
            say "FAIL: cannot online cpu1"
        fi
    fi
    on=0
    for b in "$HOTPLUG_MEM"/memory[0-9]*; do
        [ "$(cat "$b/state")" = offline ] || continue
        if echo online > "$b/state"; then
            on=$((on + 1))
        else
            say "FAIL: cannot online $b"
        fi
    done
    say "onlined memory blocks: $on"
    say "header rewrites after the hotplug: $(hotplug_updates)"
    say "online cpus: $(cat "$HOTPLUG_CPU/online")"
    grep "System RAM" /proc/iomem | while IFS= read -r line; do
        say "iomem: $line"
    done

    udevadm settle --timeout=120 || say "FAIL: udevadm settle timed out"
    hotplug_wait_reload 300
    touch "$HOTPLUG_STOP"
    wait "$wpid"
    read -r samples zeros windows longest < "$HOTPLUG_STOP.out"
    say "capture kernel watch: samples=$samples not-loaded=$zeros windows=$windows longest=${longest}ms"
    say "kexec_crash_loaded after the hotplug: $(cat /sys/kernel/kexec_crash_loaded)"
    hotplug_cpu_cycle

    # Everything kdump-file and its units logged since the hotplug, and
    # what udev said about the programs its rules ran.
    journalctl --since "@$since" --no-pager -o cat -u kdump-file -u kdump-file-hotplug \
        -u kdump-file-hotplug.path | while IFS= read -r line; do
        say "journal: $line"
    done
    # kdump-file run by udev logs to the journal: its lines are found by
    # what they say, as a process that has exited may have no unit or
    # command name attached.
    journalctl --since "@$since" --no-pager -o short |
        grep -E "ELF headers|crash_hotplug" | while IFS= read -r line; do
        say "journal hotplug: $line"
    done

    # Hot-added memory starts at 4 GiB or above, boot RAM below.
    if run insmod "$himark" min_phys=0x100000000; then
        dmesg | sed -n 's/.*\(kdump_file_himark: marker .*\)/\1/p' |
            while IFS= read -r line; do
                say "$line"
            done
    else
        say "FAIL: the test module kdump_file_himark did not load"
    fi
    if [ "$(cat /sys/kernel/kexec_crash_loaded)" != 1 ]; then
        say "FAIL: not loaded, not crashing"
        return 1
    fi
    # From CPU 0, so that CPU 1 is stopped by the crash NMI and its saved
    # registers are those it was interrupted with (the host compares them
    # with crash's backtrace).
    say "crashing on CPU 0 with cpus $(cat "$HOTPLUG_CPU/online") online"
    sync
    echo 1 > /proc/sys/kernel/sysrq
    taskset -c 0 sh -c 'echo c > /proc/sysrq-trigger'
}
