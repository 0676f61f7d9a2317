#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Dumps on ext4 on a multipath device on Debian's stock kernel, one of its
# two paths failed with the crash: the capture makes the map over the path
# left.
exec "$(dirname "$0")/../lib/scenario-layout.sh" TEST-42-STOCK-MULTIPATH multipath
