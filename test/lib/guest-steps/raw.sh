# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Guest steps of the raw-device scenario (test/TEST-26-STOCK-RAW-SWAP): a
# raw dump device that load must refuse while it is in use or holds a
# filesystem, then found by its serial after the kernel names of two
# disks changed places.

# The kernel name of the virtio disk whose serial is $1.
disk_by_serial() {
    for b in /sys/block/vd*; do
        if [ "$(cat "$b/serial" 2> /dev/null)" = "$1" ]; then
            echo "/dev/${b##*/}"
            return 0
        fi
    done
    return 1
}

# The virtio device (virtioN) under a disk.
virtio_of() {
    basename "$(readlink -f "/sys/block/${1#/dev/}/device")"
}

step_raw_swap() {
    raw=$(disk_by_serial kdraw)
    other=$(disk_by_serial kdother)
    say "at boot: raw $raw other $other"
    printf '%s\n' "raw = /dev/disk/by-id/virtio-kdraw" "path = /var/crash" >> /etc/kdump-file.conf

    # In use, then holding a filesystem: refused, the device untouched.
    mkfs.ext4 -q -F "$raw"
    mkdir -p /mnt/raw
    mount "$raw" /mnt/raw
    run kdump-file load && say "FAIL: loaded onto a mounted device"
    umount /mnt/raw
    run kdump-file load && say "FAIL: loaded onto a device holding ext4"
    say "loaded after refusals: $(cat /sys/kernel/kexec_crash_loaded)"
    run wipefs -a "$raw"

    # The kernel names change places: both disks unbound, then bound
    # again in the other order, each taking the lowest free name.
    vr=$(virtio_of "$raw")
    vo=$(virtio_of "$other")
    echo "$vr" > /sys/bus/virtio/drivers/virtio_blk/unbind
    echo "$vo" > /sys/bus/virtio/drivers/virtio_blk/unbind
    echo "$vo" > /sys/bus/virtio/drivers/virtio_blk/bind
    echo "$vr" > /sys/bus/virtio/drivers/virtio_blk/bind
    udevadm settle
    say "after rebinding: raw $(disk_by_serial kdraw) other $(disk_by_serial kdother)"
    run systemctl enable --now kdump-file || say "FAIL: enable --now"
    run kdump-file show
    say "loaded: $(cat /sys/kernel/kexec_crash_loaded)"
    crash_now
}

# The boot after: the service recovered the dump before it loaded.
step_raw_after() {
    say "service: $(systemctl is-active kdump-file)"
    journalctl -b -u kdump-file --no-pager -o cat 2> /dev/null |
        grep '^kdump-file' | while IFS= read -r line; do say "journal: $line"; done
    run kdump-file status
}

# A copy of the raw dump device, hot-added after load (TEST-33): the host
# adds a disk carrying the same serial and the same size once the capture
# kernel is loaded; the crash comes once the guest sees it.
step_raw_clone() {
    raw=$(disk_by_serial kdraw)
    say "at boot: raw $raw"
    printf '%s\n' "raw = /dev/disk/by-id/virtio-kdraw" "raw_force = yes" "path = /var/crash" >> /etc/kdump-file.conf
    run systemctl enable --now kdump-file || say "FAIL: enable --now"
    run kdump-file show
    say "loaded: $(cat /sys/kernel/kexec_crash_loaded)"
    say "ready for the clone"
    i=0
    while [ "$i" -lt 300 ]; do
        n=0
        for b in /sys/block/vd*; do
            [ "$(cat "$b/serial" 2> /dev/null)" = kdraw ] && n=$((n + 1))
        done
        [ "$n" -ge 2 ] && break
        sleep 1
        i=$((i + 1))
    done
    say "disks with serial kdraw: $n after $i s"
    udevadm settle --timeout=60
    # What the hot-add made udev run is over: the loaded kernel is the
    # one to crash into.
    i=0
    while [ "$i" -lt 60 ] && systemctl -q is-active kdump-file-hotplug.service; do
        sleep 1
        i=$((i + 1))
    done
    say "loaded after the clone: $(cat /sys/kernel/kexec_crash_loaded)"
    # recover neither reads nor marks a device that may be the copy.
    run kdump-file recover
    crash_now
}

# The boot after, the copy gone: what status and the journal say.
step_raw_clone_after() {
    say "disks with serial kdraw: $(for b in /sys/block/vd*; do cat "$b/serial" 2> /dev/null; echo; done | grep -c '^kdraw$')"
    run kdump-file status
    journalctl -b -u kdump-file --no-pager -o cat 2> /dev/null |
        grep '^kdump-file' | while IFS= read -r line; do say "journal: $line"; done
}
