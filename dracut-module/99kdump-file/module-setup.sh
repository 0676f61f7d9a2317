#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# dracut module of kdump-file: the capture initramfs.
#
# kdump-file(8) builds it with
#   dracut --hostonly --modules "kdump-file kernel-modules" \
#          --include <resolved capture.conf> /etc/kdump-file/capture.conf \
#          --include <target chain> /etc/kdump-file/chain \
#          --add-drivers "<the target's modules>"
# with KDUMP_FILE_CHAIN naming the target chain file and KDUMP_FILE_INSTALL
# the user's hooks and extra_binaries (blank-separated absolute paths that
# kdump-file(8) checked; extra_modules go in with --add-drivers).
# Its /init is kdump-file-capture itself: it mounts /proc, /sys and /dev,
# loads the drivers of this machine's devices (kernel-modules puts them in
# the image: first the target's, then round by round those of devices
# without a driver), activates the target's LVM volume, waits for the dump
# target, saves dmesg and vmcore with
# makedumpfile, and reboots (or takes the configured action).  Neither
# dracut's shell init nor udev nor systemd is included: in crashkernel
# memory they cost more than the capture itself.

# Only when asked for: never part of a normal boot initramfs.
check() {
    return 255
}

depends() {
    return 0
}

install() {
    inst_binary /usr/lib/kdump-file/kdump-file-capture
    ln_r /usr/lib/kdump-file/kdump-file-capture /init
    inst_binary makedumpfile
    # For failure_action = shell only.
    inst_binary sh
    # A target on LVM: lvm activates just its volume (kdump-file(8)
    # resolved which), without udev.
    if [ -n "${KDUMP_FILE_CHAIN:-}" ] && grep -q '^lvm ' "$KDUMP_FILE_CHAIN"; then
        inst_binary lvm
    fi
    # pre_hook, post_hook and extra_binaries, each at its own path, with
    # its libraries and, for a script, its interpreter.
    if [ -n "${KDUMP_FILE_INSTALL:-}" ]; then
        # shellcheck disable=SC2086 # a list of paths without blanks, to split
        inst_multiple $KDUMP_FILE_INSTALL
    fi
}
