#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Dumps on xfs on an LVM logical volume, on Debian's stock kernel; a LUKS
# target refused at load time.
exec "$(dirname "$0")/../lib/scenario-layout.sh" TEST-19-STOCK-LVM-XFS lvm-xfs
