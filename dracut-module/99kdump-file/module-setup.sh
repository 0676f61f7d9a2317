#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# dracut module of kdump-file: the capture initramfs.  kdump-file(8) builds
# it with "dracut --modules 'base kernel-modules kdump-file'" and passes the
# resolved capture configuration with --include; see kdump-file-capture.

# Only when asked for: never part of a normal boot initramfs.
check() {
    return 255
}

depends() {
    echo base
    return 0
}

# shellcheck disable=SC2154 # moddir is set by dracut for every module
install() {
    inst_binary /usr/lib/kdump-file/kdump-file-capture
    inst_binary makedumpfile
    inst_hook cmdline 99 "$moddir/kdump-file-cmdline.sh"
    inst_hook pre-udev 99 "$moddir/kdump-file-early.sh"
    inst_hook pre-mount 99 "$moddir/kdump-file-capture.sh"
}
