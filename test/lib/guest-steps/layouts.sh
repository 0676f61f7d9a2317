# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Guest steps of the disk layout scenarios on Debian's stock kernel, sourced
# by the guest driver (which provides say, run and crash_now).  The disks
# beyond the root disk are empty when a setup step starts: /dev/vdb, then
# /dev/vdc.

# The fstab line of a filesystem mounted at boot, by UUID.
fstab_add() {
    dev=$1 mnt=$2 type=$3 opts=$4
    uuid=$(blkid -s UUID -o value "$dev")
    printf 'UUID=%s %s %s %s 0 0\n' "$uuid" "$mnt" "$type" "$opts" >> /etc/fstab
}

# kdump-file load with the dump directory on a LUKS volume on /dev/vdc: it
# must fail with one message naming dm-crypt, the capture kernel loaded
# before staying loaded.
luks_refused() {
    before=$(sed -n 's/^kernel=//p' /run/kdump-file/loaded 2> /dev/null)
    printf 'kdump-file-test' > /tmp/luks.key
    run cryptsetup luksFormat --batch-mode --type luks2 --pbkdf pbkdf2 \
        --pbkdf-force-iterations 1000 --key-file /tmp/luks.key /dev/vdc || return
    run cryptsetup open --key-file /tmp/luks.key /dev/vdc kdump-luks || return
    run mkfs.ext4 -q /dev/mapper/kdump-luks || return
    mkdir -p /mnt/luks
    run mount /dev/mapper/kdump-luks /mnt/luks || return
    mkdir -p /mnt/luks/crash
    sed 's/^path = .*//' /etc/kdump-file.conf > /tmp/luks.conf
    echo "path = /mnt/luks/crash" >> /tmp/luks.conf
    chmod 0600 /tmp/luks.conf
    kdump-file -c /tmp/luks.conf load > /tmp/luks.out 2>&1
    rc=$?
    while IFS= read -r line; do say "luks load: $line"; done < /tmp/luks.out
    say "case luks: rc=$rc errors=$(grep -c 'error:' /tmp/luks.out) loaded=$(cat /sys/kernel/kexec_crash_loaded) kernel-before=$before kernel-after=$(sed -n 's/^kernel=//p' /run/kdump-file/loaded 2> /dev/null)"
    run kdump-file status
    umount /mnt/luks
    cryptsetup close kdump-luks
}

# The dump directory on an xfs filesystem on an LVM logical volume on
# /dev/vdb, mounted at /var/crash at boot; a LUKS target refused; then the
# crash.
step_layout_lvm_xfs() {
    run pvcreate -q /dev/vdb || return
    run vgcreate -q kdvg /dev/vdb || return
    run lvcreate -q -y -L 900M -n dumps kdvg || return
    run mkfs.xfs -q /dev/kdvg/dumps || return
    fstab_add /dev/kdvg/dumps /var/crash xfs defaults
    run mount /var/crash || return
    step_layout_crash luks_refused
}

# What a user does, with kdump-file show, then (after the function named
# by $1, if any) the crash.
step_layout_crash() {
    run systemctl enable --now kdump-file || say "FAIL: enable --now"
    say "is-active: $(systemctl is-active kdump-file)"
    run findmnt --target /var/crash
    run kdump-file show
    [ -z "${1:-}" ] || "$1"
    say "kexec_crash_loaded: $(cat /sys/kernel/kexec_crash_loaded)"
    if [ "$(cat /sys/kernel/kexec_crash_loaded)" = 1 ]; then
        say "loaded ok"
        crash_now
    fi
    say "FAIL: not loaded, not crashing"
}

# A separate /var: a btrfs subvolume @var on /dev/vdb holds /var from the
# next boot on (mounted with subvol=, the default subvolume being another
# one), so the dumps go to /var/crash inside it.  The host boots again with
# the step layout-crash.
step_layout_var_btrfs() {
    run mkfs.btrfs -q /dev/vdb || return
    mkdir -p /mnt/top
    run mount /dev/vdb /mnt/top || return
    run btrfs -q subvolume create /mnt/top/@var || return
    run btrfs -q subvolume create /mnt/top/@other || return
    run btrfs subvolume set-default /mnt/top/@other || return
    run cp -a /var/. /mnt/top/@var/ || return
    umount /mnt/top
    fstab_add /dev/vdb /var btrfs subvol=@var
    say "prepared: 1"
}

# The fallback alone: kdump-file's own capture initramfs (its module plan
# included) with an empty target chain, so the capture finds the disk's
# drivers only by its rounds over devices without a driver, matching their
# modaliases against the plan's alias patterns; loaded as a user's own
# initramfs.  The empty chain comes in an uncompressed newc archive
# appended to the image: the kernel unpacks concatenated archives in order
# and a later entry replaces an earlier one (init/initramfs.c), and an
# uncompressed archive must start on a multiple of 4 bytes from the start
# of the file, hence the zeros before it.
step_layout_rounds() {
    run systemctl enable --now kdump-file || say "FAIL: enable --now"
    img=/var/lib/kdump-file/initramfs-$(uname -r).img
    if [ ! -s "$img" ]; then
        say "FAIL: no capture initramfs $img"
        return
    fi
    rm -rf /tmp/rounds
    mkdir -p /tmp/rounds/etc/kdump-file
    : > /tmp/rounds/etc/kdump-file/chain
    run cp "$img" /root/rounds.img || return
    size=$(stat -c %s /root/rounds.img)
    head -c $(((4 - size % 4) % 4)) /dev/zero >> /root/rounds.img
    (cd /tmp/rounds && find etc | cpio -o -H newc -R 0:0 --quiet) \
        >> /root/rounds.img || return
    say "rounds image: $(stat -c %s /root/rounds.img) bytes, chain emptied"
    echo "initramfs = /root/rounds.img" >> /etc/kdump-file.conf
    run kdump-file load || return
    run kdump-file status
    step_layout_crash
}

# After the capture: the newest dump below /var/crash, as the first kernel
# sees it, copied to /root/fetched on the root disk for the host to read.
step_layout_fetch() {
    run findmnt /var/crash
    newest=$(find /var/crash -mindepth 1 -maxdepth 1 -type d -name '2*' | sort | tail -n 1)
    say "dumps: $(find /var/crash -mindepth 1 -maxdepth 1 -type d -name '2*' | wc -l) newest: $newest"
    [ -n "$newest" ] || return
    rm -rf /root/fetched
    run cp -a "$newest" /root/fetched
    sync
    say "fetched: $(find /root/fetched -type f -printf '%f ')"
    img=/var/lib/kdump-file/initramfs-$(uname -r).img
    say "capture initramfs: $(stat -c %s "$img") bytes, $(zcat "$img" | cpio -t 2> /dev/null | grep -c '\.ko') modules"
    run kdump-file estimate
}
