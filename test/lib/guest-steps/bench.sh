# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest steps of the benchmark (test/bench/run.sh), for kdump-file and for
# the peer, Debian's kdump-tools.  Sourced by kdump-file-test-driver, which
# provides say, run and crash_now.  The host times the phases from the
# console; these steps only print the markers it looks for.

# Dumps of either product: kdump-file's DIR/vmcore, kdump-tools'
# DIR/dump.STAMP (both only once complete).
bench_dumps() {
    find /var/crash -type f \( -name vmcore -o -name 'dump.[0-9]*' \) 2>/dev/null
}

# Boot 1: wait until a capture kernel is loaded, then crash.  Boot 2 (the
# guest reboots in place after the capture): report the dump and stop.
step_bench_crash() {
    say "bench: up"
    found=$(bench_dumps)
    if [ -n "$found" ]; then
        for f in $found; do
            say "bench: dump $(stat -c %s "$f") $f"
        done
        return 0
    fi
    i=0
    # A loader that failed (a reservation too small to load into, say) ends
    # the wait: nothing will load.
    while [ "$(cat /sys/kernel/kexec_crash_loaded)" != 1 ] && [ "$i" -lt 300 ] &&
        ! bench_loader_failed; do
        sleep 1
        i=$((i + 1))
    done
    if [ "$(cat /sys/kernel/kexec_crash_loaded)" != 1 ]; then
        say "bench: not loaded after ${i}s"
        for u in kdump-file.service kdump-tools.service; do
            systemctl -q is-failed "$u" 2>/dev/null &&
                journalctl -b -u "$u" -o cat --no-pager 2>/dev/null | tail -n 5 |
                while IFS= read -r l; do say "  $u: $l"; done
        done
        return 0
    fi
    say "bench: loaded"
    # What the dump will hold, by makedumpfile's own count (the rows of
    # --mem-usage): explains a dump size from the memory it was made of.
    makedumpfile --mem-usage /proc/kcore 2>/dev/null |
        awk '/^(ZERO|NON_PRI_CACHE|PRI_CACHE|USER|FREE|KERN_DATA)[ \t]/ { printf "%s %s ", $1, $2 } END { print "" }' > /tmp/bench.mem
    say "bench: pages $(cat /tmp/bench.mem)"
    crash_now
}

# bench_loader_failed: either product's service has failed.
bench_loader_failed() {
    systemctl -q is-failed kdump-file.service 2>/dev/null ||
        systemctl -q is-failed kdump-tools.service 2>/dev/null
}

# Boot 1 of the larger guests: before the crash, half of the memory is
# filled with a known mix, so that filtering has work to do: a quarter of
# MemTotal in tmpfs (page cache, -d 2 drops it) and a quarter in one
# process's anonymous memory (user pages, -d 8), both from the system's own
# libraries, so neither is all zero nor incompressible.  Boot 2: as
# step_bench_crash.
step_bench_crash_fill() {
    if [ -z "$(bench_dumps)" ]; then
        kib=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
        quarter=$((kib * 256))
        mkdir -p /run/bench-fill
        mount -t tmpfs -o size=$((quarter + 1048576)) bench-fill /run/bench-fill
        t0=$(bench_now)
        bench_fill_stream | head -c "$quarter" > /run/bench-fill/cache
        # perl holds what it read in its heap, then waits for the crash.
        bench_fill_stream | head -c "$quarter" |
            perl -e 'local $/; my $m = <STDIN>; open(my $f, ">", "/run/bench-fill/held"); close($f); sleep 100000' &
        while [ ! -e /run/bench-fill/held ]; do sleep 1; done
        t1=$(bench_now)
        say "bench: filled $((quarter / 1048576)) MiB of cache and $((quarter / 1048576)) MiB of user pages in $(echo "$t1 $t0" | awk '{ printf "%.1f", $1 - $2 }') s"
        grep -E '^(MemFree|Cached|Shmem|AnonPages|Slab):' /proc/meminfo | tr -s ' ' | while IFS= read -r l; do say "  $l"; done
    fi
    step_bench_crash
}

# The fill's bytes: the libraries, over and over.
bench_fill_stream() {
    while :; do
        cat /usr/lib/x86_64-linux-gnu/*.so* 2>/dev/null || return 0
    done
}

# The peer's first boot: kdump-tools.service has loaded (and on this first
# boot made its initrd with mkinitramfs), as after "apt-get install
# kdump-tools" and a reboot.
step_peer_prepare() {
    say "kdump-tools: $(systemctl is-active kdump-tools)"
    run kdump-config status
    run ls -l /var/lib/kdump
    say "prepared: $(cat /sys/kernel/kexec_crash_loaded)"
}

# Wall-clock seconds with nanoseconds, for durations in the guest.
bench_now() {
    date +%s.%N
}

bench_time() {
    what=$1
    shift
    t0=$(bench_now)
    "$@" > /tmp/bench.out 2>&1
    rc=$?
    t1=$(bench_now)
    if [ "$rc" -ne 0 ]; then
        say "bench: FAIL: $* (status $rc)"
        while IFS= read -r line; do say "  $line"; done < /tmp/bench.out
    fi
    say "bench: time $what $(echo "$t1 $t0" | awk '{ printf "%.3f", $1 - $2 }')"
}

# Load times: with the capture initramfs up to date, and with it rebuilt
# (removed first, so the load makes it again), three times each; the same
# for the peer's kdump-config when it is installed (the peer's disk).
step_bench_load() {
    rel=$(uname -r)
    command -v kdump-config > /dev/null 2>&1 && kdump-config unload > /dev/null 2>&1
    # The first load builds the capture initramfs.
    run kdump-file load
    for n in 1 2 3; do
        kdump-file unload > /dev/null 2>&1
        bench_time kdump-file-load-uptodate kdump-file load
        kdump-file unload > /dev/null 2>&1
        rm -f "/var/lib/kdump-file/initramfs-$rel.img"
        bench_time kdump-file-load-rebuild kdump-file load
        say "bench: run $n done"
    done
    kdump-file unload > /dev/null 2>&1
    # mkinitramfs takes minutes under TCG: the peer's rebuild is timed once.
    if command -v kdump-config > /dev/null 2>&1; then
        for n in 1 2 3; do
            kdump-config unload > /dev/null 2>&1
            bench_time kdump-tools-load-uptodate kdump-config load
        done
        kdump-config unload > /dev/null 2>&1
        rm -f "/var/lib/kdump/initrd.img-$rel"
        bench_time kdump-tools-load-rebuild kdump-config load
    fi
}
