# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Guest steps of the disk layout scenarios on Debian's stock kernel, sourced
# by the guest driver (which provides say, run and crash_now).  The disks
# beyond the root disk are empty when a setup step starts: /dev/vdb, then
# /dev/vdc (and /dev/vdd for RAID5; luks2-handoff has /dev/vdb alone;
# multipath has no extra virtio disk but one on two SCSI paths).

# The fstab line of a filesystem mounted at boot, by UUID.
fstab_add() {
    dev=$1 mnt=$2 type=$3 opts=$4
    uuid=$(blkid -s UUID -o value "$dev")
    printf 'UUID=%s %s %s %s 0 0\n' "$uuid" "$mnt" "$type" "$opts" >> /etc/fstab
}

# luks_case NAME: kdump-file load with the configuration /tmp/luks.conf
# (its dump directory on a LUKS volume), its output ("NAME load: " lines),
# then its status, the number of errors it printed and the capture kernel
# loaded before it and after it ("case NAME: " line).
luks_case() {
    before=$(sed -n 's/^kernel=//p' /run/kdump-file/loaded 2> /dev/null)
    kdump-file -c /tmp/luks.conf load > /tmp/luks.out 2>&1
    rc=$?
    while IFS= read -r line; do say "$1 load: $line"; done < /tmp/luks.out
    say "case $1: rc=$rc errors=$(grep -c 'error:' /tmp/luks.out) loaded=$(cat /sys/kernel/kexec_crash_loaded) kernel-before=$before kernel-after=$(sed -n 's/^kernel=//p' /run/kdump-file/loaded 2> /dev/null)"
}

# luks_dir DEV NAME KEYFILE: DEV opened as /dev/mapper/NAME with KEYFILE,
# ext4 on it mounted at /mnt/luks, and /tmp/luks.conf: the configuration
# of the running system with its dump directory there.
luks_dir() {
    run cryptsetup open --key-file "$3" "$1" "$2" || return
    run mkfs.ext4 -q "/dev/mapper/$2" || return
    mkdir -p /mnt/luks
    run mount "/dev/mapper/$2" /mnt/luks || return
    mkdir -p /mnt/luks/crash
    sed 's/^path = .*//' /etc/kdump-file.conf > /tmp/luks.conf
    echo "path = /mnt/luks/crash" >> /tmp/luks.conf
    chmod 0600 /tmp/luks.conf
}

# kdump-file load with the dump directory on a LUKS volume on /dev/vdc: it
# must fail with one message naming dm-crypt, the capture kernel loaded
# before staying loaded.
luks_refused() {
    printf 'kdump-file-test' > /tmp/luks.key
    run cryptsetup luksFormat --batch-mode --type luks2 --pbkdf pbkdf2 \
        --pbkdf-force-iterations 1000 --key-file /tmp/luks.key /dev/vdc || return
    luks_dir /dev/vdc kdump-luks /tmp/luks.key || return
    luks_case luks
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
# On multipath, the map made by multipathd at boot and mounted; on an md
# array, first its state at this boot (md_after); on LUKS, the
# volume opened (by systemd from crypttab, else with the test's
# passphrase) and its header at this boot.
step_layout_fetch() {
    if [ -n "$(md_name)" ]; then
        md_wait_mounted
        md_after
    fi
    if [ -e /etc/multipath.conf ]; then
        mpath_wait_mounted
        mpath_show
        # The nofail mount may come after kdump-file.service loaded for
        # /var/crash on the root disk: loaded again for the map, so that
        # the capture initramfs and estimate are the multipath target's.
        run systemctl reload kdump-file
    fi
    if grep -q '^kdump-crypt ' /etc/crypttab 2> /dev/null; then
        luks_wait_mounted
    elif [ -e /root/luks-passphrase ]; then
        luks_open && run mount /dev/mapper/kdump-crypt /var/crash
        # Loaded at boot for /var/crash on the root disk: loaded again
        # for the volume, so that its capture initramfs and estimate are
        # the LUKS target's.
        run systemctl reload kdump-file
    fi
    [ ! -e /dev/mapper/kdump-crypt ] || luks_header /dev/vdb after
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

# md software RAID: the array /dev/md/kddump over the extra disks, as an
# administrator makes one for data (the root stays on /dev/vda, so the boot
# initrd needs no update-initramfs).  Its fstab line says nofail, as for a
# data array that may come up degraded: the boot goes on while
# mdadm-last-resort@.timer waits 30 s for missing members, and
# md_wait_mounted waits for the mount.

# The first array /proc/mdstat lists (md127, ...), if any.
md_name() {
    awk '/^md/ { print $1; exit }' /proc/mdstat 2> /dev/null
}

# The array's device: /dev/md/kddump, the name udev gives it from
# mdadm.conf, else /dev/<md_name>.
md_dev() {
    if [ -e /dev/md/kddump ]; then
        echo /dev/md/kddump
    else
        md_n=$(md_name)
        [ -z "$md_n" ] || echo "/dev/$md_n"
    fi
}

# Whether the array runs (a degraded one too): not inactive, not cleared.
md_running() {
    md_n=$(md_name)
    [ -n "$md_n" ] || return 1
    case "$(cat "/sys/block/$md_n/md/array_state" 2> /dev/null)" in
    '' | inactive | clear) return 1 ;;
    esac
    return 0
}

# md_create LEVEL DISK...: the array /dev/md/kddump at RAID level LEVEL over
# the disks, listed in /etc/mdadm/mdadm.conf as mdadm(8) suggests.  The
# disks are fresh zeros, so their data and parity already agree:
# --assume-clean skips the initial resync.  No write-intent bitmap
# (--bitmap=none; mdadm would add none to arrays this small anyway), so no
# question about one; --run answers the others.
md_create() {
    md_level=$1
    shift
    run mdadm --create /dev/md/kddump --level="$md_level" --raid-devices=$# \
        --metadata=1.2 --bitmap=none --assume-clean --run "$@" || return
    udevadm settle --timeout=30
    md_i=0
    while [ ! -b /dev/md/kddump ] && [ "$md_i" -lt 30 ]; do
        sleep 1
        md_i=$((md_i + 1))
    done
    mdadm --detail --scan >> /etc/mdadm/mdadm.conf
    say "mdadm.conf: $(grep '^ARRAY' /etc/mdadm/mdadm.conf | tr '\n' ' ')"
}

# md_ext4 LEVEL DISK...: an ext4 filesystem on a new array, mounted at
# /var/crash at boot.
md_ext4() {
    md_create "$@" || return
    run mkfs.ext4 -q /dev/md/kddump || return
    fstab_add /dev/md/kddump /var/crash ext4 defaults,nofail
    run mount /var/crash
}

# The array as /proc/mdstat and mdadm --detail show it.
md_show() {
    say "md: $(tr '\n' ' ' < /proc/mdstat)"
    run mdadm --detail "$(md_dev)"
}

# Wait (120 s at most) for /var/crash to be mounted from the array.  An
# array with members missing is started degraded by
# mdadm-last-resort@.timer 30 s after the members that came; should it not
# run after 60 s, the test starts it with mdadm --run (and says so), and
# should nothing have mounted /var/crash 30 s later (the nofail mount
# gave up), mounts it.
md_wait_mounted() {
    md_i=0
    while ! findmnt /var/crash > /dev/null 2>&1; do
        if [ "$md_i" -ge 120 ]; then
            say "FAIL: md: /var/crash not mounted after 120 s: $(tr '\n' ' ' < /proc/mdstat)"
            return 1
        fi
        if [ "$md_i" = 60 ] && ! md_running; then
            say "md: not running after 60 s, started by the test with mdadm --run"
            if [ -n "$(md_name)" ]; then
                run mdadm --run "/dev/$(md_name)"
            else
                run mdadm --assemble --scan --run
            fi
            udevadm settle --timeout=30
        fi
        if [ "$md_i" = 90 ] && md_running; then
            say "md: running but /var/crash not mounted after 90 s, mounted by the test"
            run mount /var/crash
        fi
        sleep 1
        md_i=$((md_i + 1))
    done
    say "md: /var/crash mounted after $md_i s"
}

# The array's state at this boot, for the host to compare with what it was
# before the crash: one "md after: " line for each of mdadm --detail's
# State, Active, Working and Failed Devices and its member table's rows
# (a missing member's as "- 0 0 1 removed"), spaces squeezed.
md_after() {
    md_d=$(md_dev)
    say "md after: device $md_d"
    say "md after: mdstat $(tr '\n' ' ' < /proc/mdstat)"
    mdadm --detail "$md_d" 2>&1 |
        sed -e 's/^ *//' -e 's/ *$//' -e 's/  */ /g' |
        awk '/^Number Major Minor RaidDevice State$/ { rows = 1; next }
            rows && NF { print; next }
            /^(State|Active Devices|Working Devices|Failed Devices) :/' |
        while IFS= read -r line; do say "md after: $line"; done
}

# RAID1 over /dev/vdb and /dev/vdc, ext4 at /var/crash, then the crash.
step_layout_md_raid1() {
    md_ext4 1 /dev/vdb /dev/vdc || return
    md_show
    step_layout_crash
}

# The same array, filesystem and fstab line, no crash: the host boots
# again without /dev/vdc, with the step layout-md-degraded-crash.
step_layout_md_raid1_setup() {
    md_ext4 1 /dev/vdb /dev/vdc || return
    md_show
    say "prepared: 1"
}

# The array with /dev/vdc gone: Debian's udev rules assemble it
# incrementally from /dev/vdb and mdadm-last-resort@.timer starts it
# degraded; once /var/crash is mounted from it, the crash.
step_layout_md_degraded_crash() {
    md_wait_mounted || return
    md_show
    step_layout_crash
}

# RAID5 over /dev/vdb, /dev/vdc and /dev/vdd, ext4 at /var/crash, then the
# crash.
step_layout_md_raid5() {
    md_ext4 5 /dev/vdb /dev/vdc /dev/vdd || return
    md_show
    step_layout_crash
}

# LVM on md: RAID1 over /dev/vdb and /dev/vdc holding the one PV of VG
# kdvg2, its LV dumps xfs at /var/crash, then the crash.
step_layout_lvm_on_md() {
    md_create 1 /dev/vdb /dev/vdc || return
    run pvcreate -q /dev/md/kddump || return
    run vgcreate -q kdvg2 /dev/md/kddump || return
    run lvcreate -q -y -l 100%FREE -n dumps kdvg2 || return
    run mkfs.xfs -q /dev/kdvg2/dumps || return
    fstab_add /dev/kdvg2/dumps /var/crash xfs defaults,nofail
    run mount /var/crash || return
    md_show
    step_layout_crash
}

# LUKS2 (dm-crypt): /var/crash on ext4 on a LUKS2 volume of /dev/vdb,
# opened as /dev/mapper/kdump-crypt.  On the stock kernel the capture opens
# it with the key file /etc/crypttab names; on this project's kernel with
# the volume key the kernel hands over.  Argon2id at 256 MiB, 4 passes,
# takes about 10 s under TCG for each key slot it guards, tried or made.

# luks_show DEV: DEV's LUKS UUID, its key slots ("keyslot N: PBKDF",
# with "memory KiB" for Argon2) and its header (luks_header).
luks_show() {
    say "luksUUID: $(cryptsetup luksUUID "$1")"
    run cryptsetup luksDump "$1"
    cryptsetup luksDump "$1" | awk '
        function flush() {
            if (n != "")
                print "keyslot " n ": " kdf (mem != "" ? " memory " mem : "")
            n = ""; kdf = ""; mem = ""
        }
        /^[A-Za-z]/ { flush(); keyslots = /^Keyslots:/; next }
        keyslots && /^  [0-9]+: / { flush(); n = $1; sub(/:$/, "", n); next }
        keyslots && $1 == "PBKDF:" { kdf = $2 }
        keyslots && $1 == "Memory:" { mem = $2 }
        END { flush() }' |
        while IFS= read -r line; do say "$line"; done
    luks_header "$1" before
}

# luks_header DEV WHEN: the sha256 of DEV's LUKS2 header (the bytes before
# its data segment), for the host to compare before the crash and at the
# next boot: neither the capture nor the boot after may write to it.
luks_header() {
    luks_off=$(cryptsetup luksDump "$1" |
        awk '/^Data segments:/ { d = 1 } d && $1 == "offset:" { print $2; exit }')
    say "luks header $2: $luks_off bytes, sha256 $(head -c "${luks_off:-0}" "$1" | sha256sum | cut -d' ' -f1)"
}

# LUKS2 on /dev/vdb as an administrator sets one up for data: a passphrase
# in key slot 0 with Argon2id at 256 MiB (more than the capture may
# spend), a key file added later in key slot 1 with PBKDF2, the key file
# on the root filesystem (not encrypted); /etc/crypttab names it and
# systemd-cryptsetup opens the volume at boot, fstab mounts its ext4
# (nofail).  libcryptsetup tries slot 0 first: kdump-file must find the
# key file's slot itself.  Then the refusals (luks_refusals) and the crash.
step_layout_luks_keyfile() {
    mkdir -m 0700 /etc/keys
    head -c 64 /dev/urandom > /etc/keys/dump.key
    chmod 0400 /etc/keys/dump.key
    printf 'kdump-file-test passphrase' > /tmp/luks-passphrase
    run cryptsetup luksFormat --batch-mode --type luks2 --pbkdf argon2id \
        --pbkdf-memory 262144 --pbkdf-force-iterations 4 \
        --key-file /tmp/luks-passphrase /dev/vdb || return
    run cryptsetup luksAddKey --batch-mode --key-file /tmp/luks-passphrase \
        --key-slot 1 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 \
        /dev/vdb /etc/keys/dump.key || return
    if cryptsetup open --test-passphrase --key-file /etc/keys/dump.key \
        --key-slot 1 /dev/vdb; then
        say "the key file opens key slot 1"
    fi
    printf 'kdump-crypt UUID=%s /etc/keys/dump.key luks\n' \
        "$(cryptsetup luksUUID /dev/vdb)" >> /etc/crypttab
    run cat /etc/crypttab
    run cryptsetup open --key-file /etc/keys/dump.key /dev/vdb kdump-crypt || return
    run mkfs.ext4 -q /dev/mapper/kdump-crypt || return
    fstab_add /dev/mapper/kdump-crypt /var/crash ext4 defaults,nofail
    run mount /var/crash || return
    say "key file on: $(findmnt -n -r -o FSTYPE,UUID --target /etc/keys/dump.key)"
    luks_show /dev/vdb
    step_layout_crash luks_refusals
}

# kdump-file load with the dump directory on another LUKS2 volume
# (/dev/vdc, opened as kdump-luks with a key file in key slot 0, Argon2id
# at 128 MiB), four ways it must refuse, each with one message, the
# capture kernel loaded before staying loaded: the volume not in
# /etc/crypttab; listed with a passphrase (key "none"); listed with its
# key file, whose slot's key derivation needs more memory than the capture
# may spend; listed with a key file (key slot 1, PBKDF2) that lies on the
# volume's own filesystem, which the capture could not read before
# opening it.  /etc/crypttab is as it was afterwards.
luks_refusals() {
    head -c 64 /dev/urandom > /etc/keys/other.key
    chmod 0400 /etc/keys/other.key
    run cryptsetup luksFormat --batch-mode --type luks2 --pbkdf argon2id \
        --pbkdf-memory 131072 --pbkdf-force-iterations 4 \
        --key-file /etc/keys/other.key /dev/vdc || return
    luks_dir /dev/vdc kdump-luks /etc/keys/other.key || return
    luks_uuid=$(cryptsetup luksUUID /dev/vdc)
    cp /etc/crypttab /tmp/crypttab
    luks_case not-listed
    printf 'kdump-luks UUID=%s none luks\n' "$luks_uuid" >> /etc/crypttab
    luks_case passphrase
    cp /tmp/crypttab /etc/crypttab
    printf 'kdump-luks UUID=%s /etc/keys/other.key luks\n' "$luks_uuid" >> /etc/crypttab
    luks_case argon2
    mkdir -m 0700 /mnt/luks/keys
    head -c 64 /dev/urandom > /mnt/luks/keys/inner.key
    run cryptsetup luksAddKey --batch-mode --key-file /etc/keys/other.key \
        --key-slot 1 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 \
        /dev/vdc /mnt/luks/keys/inner.key || return
    cp /tmp/crypttab /etc/crypttab
    printf 'kdump-luks UUID=%s /mnt/luks/keys/inner.key luks\n' "$luks_uuid" >> /etc/crypttab
    luks_case encrypted-key
    cp /tmp/crypttab /etc/crypttab
    run kdump-file status
    umount /mnt/luks
    cryptsetup close kdump-luks
}

# LUKS2 on /dev/vdb with a passphrase only (Argon2id at 256 MiB), in no
# crypttab: the volume key the kernel hands over is all the capture needs.
# The passphrase in /root/luks-passphrase is the test's, for the fetch
# boot (luks_open); then the crash.
step_layout_luks2_handoff() {
    printf 'kdump-file-test passphrase' > /root/luks-passphrase
    chmod 0600 /root/luks-passphrase
    run cryptsetup luksFormat --batch-mode --type luks2 --pbkdf argon2id \
        --pbkdf-memory 262144 --pbkdf-force-iterations 4 \
        --key-file /root/luks-passphrase /dev/vdb || return
    luks_open || return
    run mkfs.ext4 -q /dev/mapper/kdump-crypt || return
    run mount /dev/mapper/kdump-crypt /var/crash || return
    luks_show /dev/vdb
    step_layout_crash luks_handoff_device
}

# The volume luks2-handoff made, opened with the test's passphrase.
luks_open() {
    mkdir -p /var/crash
    run cryptsetup open --key-file /root/luks-passphrase /dev/vdb kdump-crypt
}

# After load: the device whose volume key the kernel is to hand over, as
# kdump-file wrote it to the kernel, and kdump-crypt's MAJ:MIN.
luks_handoff_device() {
    say "crash_dm_crypt_device: $(cat /sys/kernel/crash_dm_crypt_device 2>&1)"
    say "kdump-crypt device: $(dmsetup info -c -o major,minor --noheadings --separator : kdump-crypt)"
}

# Wait (120 s at most) for /var/crash to be mounted from the volume
# crypttab names, opened by systemd-cryptsetup at boot; should it not be
# after 90 s, the test opens and mounts it (and says so).
luks_wait_mounted() {
    luks_i=0
    while ! findmnt /var/crash > /dev/null 2>&1; do
        if [ "$luks_i" -ge 120 ]; then
            say "FAIL: luks: /var/crash not mounted after 120 s"
            run systemctl status --no-pager 'systemd-cryptsetup@*'
            return 1
        fi
        if [ "$luks_i" = 90 ]; then
            say "luks: /var/crash not mounted after 90 s, opened and mounted by the test"
            [ -e /dev/mapper/kdump-crypt ] ||
                run cryptsetup open --key-file /etc/keys/dump.key /dev/vdb kdump-crypt
            run mount /var/crash
        fi
        sleep 1
        luks_i=$((luks_i + 1))
    done
    say "luks: /var/crash mounted after $luks_i s"
}

# multipath: one disk reached through two SCSI HBAs (sda and sdb, one WWN),
# made one device, /dev/mapper/mpatha, by multipathd as an administrator
# configures it: every disk with a WWID multipathed, the virtio disks left
# alone.  ext4 on it at /var/crash.
mpath_conf() {
    cat > /etc/multipath.conf << 'CONF'
defaults {
    user_friendly_names yes
    find_multipaths no
}
blacklist {
    devnode "^vd[a-z]"
}
CONF
}

# The map as multipath -ll shows it, its paths and their WWID.
mpath_show() {
    run multipath -ll
    mp_dm=$(basename "$(readlink -f /dev/mapper/mpatha)")
    say "mpath paths: $(find "/sys/block/$mp_dm/slaves/" -mindepth 1 -maxdepth 1 -printf '%f\n' | sort | tr '\n' ' ')"
    say "mpath wwid: $(cat /sys/block/sda/device/wwid)"
    say "mpath uuid: $(cat "/sys/block/$mp_dm/dm/uuid")"
}

# Wait (60 s at most) for multipathd to make mpatha, mounted at /var/crash
# by its fstab line; after 30 s the test mounts it (and says so).
mpath_wait_mounted() {
    mp_i=0
    while ! findmnt /var/crash > /dev/null 2>&1; do
        if [ "$mp_i" -ge 60 ]; then
            say "FAIL: mpath: /var/crash not mounted after 60 s"
            run multipath -ll
            return 1
        fi
        if [ "$mp_i" = 30 ] && [ -b /dev/mapper/mpatha ]; then
            say "mpath: /var/crash not mounted after 30 s, mounted by the test"
            run mount /var/crash
        fi
        sleep 1
        mp_i=$((mp_i + 1))
    done
    say "mpath: /var/crash mounted after $mp_i s"
}

step_layout_multipath() {
    mpath_conf
    run systemctl restart multipathd || return
    run multipath || return
    udevadm settle --timeout=30
    mp_i=0
    while [ ! -b /dev/mapper/mpatha ] && [ "$mp_i" -lt 30 ]; do
        sleep 1
        mp_i=$((mp_i + 1))
    done
    mpath_show
    run mkfs.ext4 -q /dev/mapper/mpatha || return
    echo '/dev/mapper/mpatha /var/crash ext4 defaults,nofail 0 0' >> /etc/fstab
    run mount /var/crash || return
    step_layout_crash
}
