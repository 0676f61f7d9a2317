#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Capture kernel only: the capture mounts its own target, so dracut must not
# wait for a root filesystem (kdump-file removes root= from the command line).
if [ -e /proc/vmcore ]; then
    root=kdump-file
    rootok=1
    export root rootok
fi
