# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Guest step of the CPU and memory hotplug scenario (TEST-29-HOTPLUG),
# sourced by the guest driver (which provides say, run and crash_now).  The
# guest boots with one CPU of four and 1 GiB of 4; once kdump-file has
# loaded the capture kernel it says "ready for hotplug" and the host adds a
# 1 GiB DIMM and a CPU through QMP.  The guest onlines them, waits for
# udev and for the reload they make pending (none on a kernel that updates
# the loaded ELF headers itself) and takes the CPU offline and online.
#
# Then it says "ready for a second DIMM" and the host adds another 1 GiB.
# The guest times every state change of that DIMM's memory blocks: online
# (online_movable, so that they can go offline again), offline and online
# with nothing else running, then offline and online in turns while
# "kdump-file reload" runs in a loop, both bounded in count and time; the
# host has slowed the disk's reads down by then, and each reload reads the
# capture kernel and initramfs from it, not from the page cache.  It
# takes the blocks offline, says "ready for removal" with their range and
# the host unplugs the DIMM (device_del); the guest waits until the blocks
# and their System RAM are gone and for the reload the removal makes
# pending.  Last, it prints what kdump-file logged, in three parts (the
# first hotplug, the second DIMM up to its removal, the removal), writes a
# marker into the first DIMM with the test module kdump_file_himark and
# crashes on CPU 0 with both CPUs online.

HOTPLUG_CPU=/sys/devices/system/cpu
HOTPLUG_MEM=/sys/devices/system/memory
HOTPLUG_PENDING=/run/kdump-file/hotplug-pending
HOTPLUG_STOP=/tmp/hotplug-watch.stop
# The second DIMM's files: its blocks before it came, the step logs.
HOTPLUG_D2=/tmp/hotplug-dimm2
# While its blocks go offline and online: "kdump-file reload" at most
# HOTPLUG_LOADS times, and offline/online cycles at most HOTPLUG_CYCLES
# times, both for HOTPLUG_LOAD_S seconds at most; a block's state change
# is stopped after HOTPLUG_STEP_S seconds (offline_pages() in
# mm/memory_hotplug.c retries until a signal comes).
HOTPLUG_LOADS=3
HOTPLUG_CYCLES=30
HOTPLUG_LOAD_S=300
HOTPLUG_STEP_S=60
# A page being read in cannot move before its read ends, and a memory
# block going offline moves its pages away: a reload's reads of the slowed
# disk, in requests as large as the disk takes (max_sectors_kb), would
# make a step wait for them.  Requests of this many KiB keep that wait
# short, so that what the steps show is the wait for the kexec lock.
HOTPLUG_REQUEST_KB=128

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

# hotplug_wait_reload SECONDS [WHAT]: until no reload is pending and the
# reload service is not running, three seconds in a row; says how long it
# took, as WHAT ("reload wait" by default).
hotplug_wait_reload() {
    what=${2:-reload wait}
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
        say "$what: done after $i s (kdump-file-hotplug.service $state)"
    else
        say "FAIL: $what: still pending after $i s (kdump-file-hotplug.service $state, $(hotplug_attr "$HOTPLUG_PENDING"))"
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

# hotplug_journal PREFIX SINCE [UNTIL]: everything kdump-file and its units
# logged from SINCE to UNTIL (seconds since the epoch; now by default),
# each line said as "PREFIX: LINE", and what udev said about the programs
# its rules ran, as "PREFIX hotplug: LINE".
hotplug_journal() {
    hj_until=now
    [ -z "${3:-}" ] || hj_until=@$3
    journalctl --since "@$2" --until "$hj_until" --no-pager -o cat -u kdump-file \
        -u kdump-file-hotplug -u kdump-file-hotplug.path | while IFS= read -r line; do
        say "$1: $line"
    done
    # kdump-file run by udev logs to the journal: its lines are found by
    # what they say, as a process that has exited may have no unit or
    # command name attached.
    journalctl --since "@$2" --until "$hj_until" --no-pager -o short |
        grep -E "ELF headers|crash_hotplug" | while IFS= read -r line; do
        say "$1 hotplug: $line"
    done
}

# hotplug_block_names: the memory blocks, one name (memoryN) a line.
hotplug_block_names() {
    for hb in "$HOTPLUG_MEM"/memory[0-9]*; do
        [ ! -e "$hb" ] || echo "${hb##*/}"
    done
}

# hotplug_ram_in START END: the System RAM ranges of /proc/iomem that
# overlap [START, END] (numbers), as "start-end " each.
hotplug_ram_in() {
    sed -n 's/^\([0-9a-f]*\)-\([0-9a-f]*\) : System RAM$/\1 \2/p' /proc/iomem |
        while read -r rs re; do
            if [ $((0x$rs)) -le "$2" ] && [ $((0x$re)) -ge "$1" ]; then
                printf '%s-%s ' "$rs" "$re"
            fi
        done
}

# hotplug_step STATE BLOCK LOG: write STATE into memory block BLOCK's
# state, and "START_MS END_MS STATUS" as a line of LOG.  The time includes
# the start of timeout(1) and sh, which bound the step.
hotplug_step() {
    hs0=$(hotplug_ms)
    # shellcheck disable=SC2016 # the inner shell expands $1 and $2
    timeout "$HOTPLUG_STEP_S" sh -c 'echo "$1" > "$2"' hotplug-step "$1" \
        "$HOTPLUG_MEM/$2/state" 2> /tmp/hotplug-step.err
    hsrc=$?
    echo "$hs0 $(hotplug_ms) $hsrc" >> "$3"
    [ "$hsrc" = 0 ] || say "FAIL: $1 into $2/state: status $hsrc $(cat /tmp/hotplug-step.err)"
}

# hotplug_pass STATE LOG: each block of the second DIMM (hotplug_d2) that
# is not in STATE (offline, or an online one) yet, into it.
hotplug_pass() {
    for hp in $hotplug_d2; do
        case "$1:$(cat "$HOTPLUG_MEM/$hp/state")" in
        offline:offline | online*:online) continue ;;
        esac
        hotplug_step "$1" "$hp" "$2"
    done
}

# hotplug_stats LOG: "N steps, longest X ms, F failed steps" of a step log.
hotplug_stats() {
    awk '{ n++; d = $2 - $1; if (d > m) m = d; if ($3 != 0) f++ }
        END { printf "%d steps, longest %d ms, %d failed steps\n", n, m, f }' "$1"
}

# hotplug_overlaps A B: how many of the intervals of file B ("START END"
# at the start of each line) overlap one of file A.
hotplug_overlaps() {
    awk 'BEGIN { n = 0 }
        FNR == NR { s[n] = $1; e[n] = $2; n++; next }
        { for (i = 0; i < n; i++) if ($1 <= e[i] && $2 >= s[i]) { c++; break } }
        END { print c + 0 }' "$1" "$2"
}

# hotplug_boot_files: the capture kernel and initramfs kdump-file loads
# (kdump-file show --json), a path a line.
hotplug_boot_files() {
    kdump-file show --json |
        sed -n 's/^  "\(kernel\|initramfs\)":"\(\/[^"]*\)",$/\2/p'
}

# hotplug_uncache FILE...: their pages out of the page cache, so that the
# next read of them comes from the disk.
hotplug_uncache() {
    for hu in "$@"; do
        dd if="$hu" iflag=nocache count=0 status=none || return 1
    done
}

# hotplug_requests KB|restore: the largest request of each virtio disk
# (max_sectors_kb) set to KB, its value before kept in $HOTPLUG_D2.requests; or
# restored from there.
hotplug_requests() {
    if [ "$1" = restore ]; then
        while read -r hq kb; do
            echo "$kb" > "$hq"
        done < "$HOTPLUG_D2.requests"
        return
    fi
    : > "$HOTPLUG_D2.requests"
    for hq in /sys/block/vd*/queue/max_sectors_kb; do
        [ -e "$hq" ] || continue
        kb=$(cat "$hq")
        echo "$hq $kb" >> "$HOTPLUG_D2.requests"
        if echo "$1" > "$hq"; then
            say "disk requests: $hq $kb -> $1 KiB"
        else
            say "FAIL: cannot set $hq to $1"
        fi
    done
}

# hotplug_reload_loop LOG FILE...: "kdump-file reload" one after the other
# until LOG.stop exists, HOTPLUG_LOADS reloads or HOTPLUG_LOAD_S seconds; a
# line "START_MS END_MS STATUS" in LOG for each, the end of a failed one's
# output in LOG.fail; LOG.done when it ends.  Before each, the FILEs (the
# capture kernel and initramfs) leave the page cache: kexec_file_load(2)
# reads them from the disk, which the host slows down meanwhile, and
# holds the kexec lock while it does.
hotplug_reload_loop() {
    rlog=$1
    shift
    rn=0
    rend=$(($(hotplug_ms) + HOTPLUG_LOAD_S * 1000))
    while [ "$rn" -lt "$HOTPLUG_LOADS" ] && [ ! -e "$rlog.stop" ] &&
        [ "$(hotplug_ms)" -lt "$rend" ]; do
        hotplug_uncache "$@" ||
            echo "reload $((rn + 1)): its files stayed in the page cache" >> "$rlog.fail"
        r0=$(hotplug_ms)
        timeout "$HOTPLUG_LOAD_S" kdump-file reload > "$rlog.out" 2>&1
        rrc=$?
        echo "$r0 $(hotplug_ms) $rrc" >> "$rlog"
        rn=$((rn + 1))
        if [ "$rrc" != 0 ]; then
            echo "reload $rn: status $rrc" >> "$rlog.fail"
            tail -n 3 "$rlog.out" >> "$rlog.fail"
        fi
    done
    : > "$rlog.done"
}

# The second DIMM: the host adds it, its blocks go online and offline
# with nothing else running, then during reloads, and offline for good;
# the host removes it.  Sets since2 and since3, where the journal's parts
# begin.
hotplug_second_dimm() {
    hotplug_block_names > "$HOTPLUG_D2.before"
    m0=$(wc -l < "$HOTPLUG_D2.before")
    sleep 1
    since2=$(date +%s)
    sleep 1
    say "ready for a second DIMM: $m0 memory blocks"
    i=0
    while [ "$i" -lt 300 ] && [ "$(hotplug_blocks)" -lt $((m0 + want)) ]; do
        sleep 1
        i=$((i + 1))
    done
    hotplug_d2=$(hotplug_block_names | grep -vxF -f "$HOTPLUG_D2.before" | tr '\n' ' ')
    d2n=0
    lo=
    hi=
    for hp in $hotplug_d2; do
        k=${hp#memory}
        if [ -z "$lo" ] || [ "$k" -lt "$lo" ]; then lo=$k; fi
        if [ -z "$hi" ] || [ "$k" -gt "$hi" ]; then hi=$k; fi
        d2n=$((d2n + 1))
    done
    if [ "$d2n" = 0 ]; then
        say "FAIL: no second DIMM after $i s ($(hotplug_blocks) memory blocks)"
        return 1
    fi
    # The blocks are numbered by their address (drivers/base/memory.c).
    d2range=$(printf '0x%x-0x%x' $((lo * bs)) $(((hi + 1) * bs - 1)))
    say "second DIMM after $i s: $d2n new memory blocks ($want expected), memory$lo-memory$hi at $d2range"
    # Onlined by the kernel or a udev rule: offline first, so that every
    # block goes online as movable memory here.
    : > "$HOTPLUG_D2.pre"
    hotplug_pass offline "$HOTPLUG_D2.pre"
    [ ! -s "$HOTPLUG_D2.pre" ] ||
        say "second DIMM: $(wc -l < "$HOTPLUG_D2.pre") blocks were online already, taken offline"
    # Nothing else running: the reload the add made pending is over.
    udevadm settle --timeout=120 || say "FAIL: udevadm settle timed out"
    hotplug_wait_reload 300 "reload wait after the second DIMM"

    : > "$HOTPLUG_D2.idle"
    hotplug_pass online_movable "$HOTPLUG_D2.idle"
    say "second DIMM's zones: $(hotplug_attr "$HOTPLUG_MEM/memory$lo/valid_zones") (memory$lo)"
    hotplug_pass offline "$HOTPLUG_D2.idle"
    hotplug_pass online_movable "$HOTPLUG_D2.idle"
    say "hotplug steps idle: $(hotplug_stats "$HOTPLUG_D2.idle")"

    # Offline and online in turns while the reloads run, until they end.
    rl=$HOTPLUG_D2.loads
    rm -f "$rl.stop" "$rl.done" "$rl.fail" "$rl.out"
    : > "$rl"
    : > "$HOTPLUG_D2.steps"
    hotplug_requests "$HOTPLUG_REQUEST_KB"
    hotplug_boot_files > "$HOTPLUG_D2.files"
    # shellcheck disable=SC2046 # two absolute paths without spaces
    hotplug_reload_loop "$rl" $(cat "$HOTPLUG_D2.files") &
    rpid=$!
    c=0
    cend=$(($(hotplug_ms) + HOTPLUG_LOAD_S * 1000))
    while :; do
        hotplug_pass offline "$HOTPLUG_D2.steps"
        hotplug_pass online_movable "$HOTPLUG_D2.steps"
        c=$((c + 1))
        if [ -e "$rl.done" ] || [ "$c" -ge "$HOTPLUG_CYCLES" ] ||
            [ "$(hotplug_ms)" -ge "$cend" ]; then
            break
        fi
    done
    touch "$rl.stop"
    wait "$rpid"
    hotplug_requests restore
    rok=$(awk '$3 == 0 { n++ } END { print n + 0 }' "$rl")
    rbad=$(awk '$3 != 0 { n++ } END { print n + 0 }' "$rl")
    say "hotplug steps during loads: $(hotplug_stats "$HOTPLUG_D2.steps"), $rok loads, $rbad failed loads, $(hotplug_overlaps "$rl" "$HOTPLUG_D2.steps") steps while a load ran, $c cycles"
    say "loads from the disk: $(awk '{ d = $2 - $1; if (n == 0 || d < m) m = d; n++ }
        END { printf "%d loads, shortest %d ms", n, m }' "$rl"), reading $(while IFS= read -r hf; do
        wc -c < "$hf"; done < "$HOTPLUG_D2.files" | awk '{ s += $1 } END { print s + 0 }') bytes each"
    if [ -s "$rl.fail" ]; then
        while IFS= read -r line; do
            say "FAIL: reload during the steps: $line"
        done < "$rl.fail"
    fi
    say "kexec_crash_loaded after the loads: $(cat /sys/kernel/kexec_crash_loaded)"

    # The removal: offline for good, then the host unplugs the DIMM.
    sleep 1
    since3=$(date +%s)
    sleep 1
    say "header rewrites before the removal: $(hotplug_updates)"
    m1=$(hotplug_blocks)
    : > "$HOTPLUG_D2.removal"
    hotplug_pass offline "$HOTPLUG_D2.removal"
    off=0
    for hp in $hotplug_d2; do
        [ "$(cat "$HOTPLUG_MEM/$hp/state")" != offline ] || off=$((off + 1))
    done
    say "ready for removal: $off of $d2n blocks offline ($(hotplug_stats "$HOTPLUG_D2.removal")), memory$lo-memory$hi at $d2range"
    # The host waits for QEMU to remove the DIMM after the guest ejected
    # it (ACPI), 120 s at most: wait longer here.
    i=0
    while [ "$i" -lt 240 ]; do
        left=0
        for hp in $hotplug_d2; do
            [ ! -e "$HOTPLUG_MEM/$hp" ] || left=$((left + 1))
        done
        ram=$(hotplug_ram_in $((lo * bs)) $(((hi + 1) * bs - 1)))
        [ "$left" != 0 ] || [ -n "$ram" ] || break
        sleep 1
        i=$((i + 1))
    done
    if [ "$left" = 0 ] && [ -z "$ram" ]; then
        say "dimm2 removed after $i s: memory blocks $m1 -> $(hotplug_blocks), no System RAM left at $d2range"
    else
        say "FAIL: dimm2 not removed after $i s: $left of its blocks left, System RAM there: ${ram:-none}"
    fi
    udevadm settle --timeout=120 || say "FAIL: udevadm settle timed out"
    hotplug_wait_reload 300 "reload wait after the removal"
    say "header rewrites after the removal: $(hotplug_updates)"
    say "kexec_crash_loaded after the removal: $(cat /sys/kernel/kexec_crash_loaded)"
    grep "System RAM" /proc/iomem | while IFS= read -r line; do
        say "iomem after the removal: $line"
    done
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
    since2=
    since3=
    hotplug_second_dimm

    # What the hotplug made kdump-file and udev's programs do, in parts:
    # the first hotplug, the second DIMM up to its removal, the removal.
    # The reloads of the loop above print to a file only.
    hotplug_journal journal "$since" "${since2:-}"
    if [ -n "$since2" ]; then
        hotplug_journal "journal second DIMM" "$since2" "${since3:-}"
    fi
    if [ -n "$since3" ]; then
        hotplug_journal "journal removal" "$since3"
    fi

    # Hot-added memory starts at 4 GiB or above, boot RAM below; the
    # second DIMM is gone, the first is the only memory there.
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
