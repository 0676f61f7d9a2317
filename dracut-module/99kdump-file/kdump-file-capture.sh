#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Capture kernel only: save the dump, then reboot (or the configured action).
# kdump-file-capture never returns unless failure_action is "shell".
if [ -e /proc/vmcore ]; then
    /usr/lib/kdump-file/kdump-file-capture
    if [ "$?" -eq 99 ]; then
        emergency_shell -n kdump-file "kdump-file capture failed"
    fi
    # Whatever happened, never go on to boot a root filesystem.
    echo b > /proc/sysrq-trigger
fi
