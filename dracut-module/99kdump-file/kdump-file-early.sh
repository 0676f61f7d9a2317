#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Capture kernel only, before udev starts: when the dump target's driver is
# built into the kernel its device is already there, and the capture runs at
# once, without udev's time and memory.  Otherwise (status 98) the pre-mount
# hook captures after udev has loaded the drivers.
if [ -e /proc/vmcore ]; then
    /usr/lib/kdump-file/kdump-file-capture --early
    case "$?" in
    98) ;;
    99) emergency_shell -n kdump-file "kdump-file capture failed" ;;
    *) echo b > /proc/sysrq-trigger ;;
    esac
fi
