#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# dracut module of kdump-file: the capture initramfs.
#
# kdump-file(8) builds it with
#   dracut --hostonly --modules kdump-file \
#          --include <resolved capture.conf> /etc/kdump-file/capture.conf \
#          --include <target chain> /etc/kdump-file/chain \
#          --include <module plan> /etc/kdump-file/modules.json \
#          --add-drivers "<the module plan's modules>"
# with KDUMP_FILE_CHAIN naming the target chain file and KDUMP_FILE_INSTALL
# the user's hooks and extra_binaries (blank-separated absolute paths that
# kdump-file(8) checked; extra_modules go in with --add-drivers).
# KDUMP_FILE_SHELL is 1 for failure_action = shell, the one use of sh.  For a
# network target KDUMP_FILE_NET is ssh or nfs, and for ssh
# KDUMP_FILE_SSH_KEY names the dedicated key, the pinned known_hosts
# beside it.
# Its /init is kdump-file-capture itself: it mounts /proc, /sys and /dev,
# loads the drivers of this machine's devices from the module plan
# (--add-drivers puts them in the image: first the target's, then round by
# round those of devices without a driver), logs in to the target's iSCSI
# session, assembles the target's md RAID arrays and activates its LVM
# volume, waits for the dump target, saves
# dmesg and vmcore with makedumpfile, and reboots (or takes the configured
# action).  Neither
# dracut's shell init nor udev nor systemd is included: in crashkernel
# memory they cost more than the capture itself.

# Only when asked for: never part of a normal boot initramfs.
check() {
    return 255
}

depends() {
    return 0
}

# An ssh:// target: ssh, the dedicated key and the collector's pinned host
# keys at the paths capture.conf names, readable by root alone, and the
# root entry ssh looks itself up by (getpwuid()): built with
# --modules kdump-file, the image has no base module that would write
# /etc/passwd.
install_ssh() {
    key=${KDUMP_FILE_SSH_KEY:-/etc/kdump-file/ssh/id_ed25519}
    known=${key%/*}/known_hosts
    inst_binary ssh
    # initdir is dracut's: the image being built.
    # shellcheck disable=SC2154
    for f in "$key" "$known"; do
        inst_simple "$f" "$f" || return 1
        chmod 0600 "${initdir}$f"
    done
    chmod 0700 "${initdir}${key%/*}"
    mkdir -p "${initdir}/etc" "${initdir}/root"
    if ! grep -qs '^root:' "${initdir}/etc/passwd"; then
        echo 'root:x:0:0:root:/root:/bin/sh' >> "${initdir}/etc/passwd"
    fi
    if ! grep -qs '^root:' "${initdir}/etc/group"; then
        echo 'root:x:0:' >> "${initdir}/etc/group"
    fi
}

install() {
    inst_binary /usr/lib/kdump-file/kdump-file-capture
    ln_r /usr/lib/kdump-file/kdump-file-capture /init
    inst_binary makedumpfile
    # sh for failure_action = shell alone (KDUMP_FILE_SHELL=1): nothing
    # else in the capture runs one.  Its hooks are run by path, and a
    # script hook brings its own interpreter (inst_multiple below:
    # dracut-install resolves a #! line); ssh runs with -F /dev/null, so
    # no ProxyCommand or LocalCommand; makedumpfile, lvm, mdadm and
    # cryptsetup run none.
    if [ "${KDUMP_FILE_SHELL:-}" = 1 ]; then
        inst_binary sh
    fi
    # A target on LVM: lvm activates just its volume (kdump-file(8)
    # resolved which), without udev.
    if [ -n "${KDUMP_FILE_CHAIN:-}" ] && grep -q '^lvm ' "$KDUMP_FILE_CHAIN"; then
        inst_binary lvm
    fi
    # A target on md RAID: mdadm assembles just its arrays, by UUID, from
    # a configuration the capture writes (never the system's mdadm.conf).
    if [ -n "${KDUMP_FILE_CHAIN:-}" ] && grep -q '^md ' "$KDUMP_FILE_CHAIN"; then
        inst_binary mdadm
    fi
    # A target on LUKS: cryptsetup opens just its devices, with the key
    # the kernel hands over or crypttab's key file read in place; neither
    # the key nor the key file nor crypttab goes into the initramfs.
    if [ -n "${KDUMP_FILE_CHAIN:-}" ] && grep -q '^luks ' "$KDUMP_FILE_CHAIN"; then
        inst_binary cryptsetup
    fi
    # A target on an iSCSI disk: iscsistart logs in to just its target
    # (kdump-file(8) recorded the session); no iscsid, no node records.
    if [ -n "${KDUMP_FILE_CHAIN:-}" ] && grep -q '^iscsi ' "$KDUMP_FILE_CHAIN"; then
        inst_binary iscsistart
    fi
    # A way with a bond, a VLAN or IPv6 (a collector's or an iSCSI
    # portal's): ip(8) builds those links; a plain NIC with IPv4 is set up
    # by the capture itself.
    if [ -n "${KDUMP_FILE_CHAIN:-}" ] &&
        grep -q -e '^bond ' -e '^vlan ' -e '^net [^ ]* [^ ]*:' "$KDUMP_FILE_CHAIN"; then
        inst_binary ip
    fi
    if [ "${KDUMP_FILE_NET:-}" = ssh ]; then
        install_ssh
    fi
    # An nfs:// target needs nothing more: the kernel's own NFS client
    # mounts it (no mount.nfs), its modules come with --add-drivers.
    # pre_hook, post_hook and extra_binaries, each at its own path, with
    # its libraries and, for a script, its interpreter.
    if [ -n "${KDUMP_FILE_INSTALL:-}" ]; then
        # shellcheck disable=SC2086 # a list of paths without blanks, to split
        inst_multiple $KDUMP_FILE_INSTALL
    fi
}
