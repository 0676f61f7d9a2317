#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Dumps on xfs on an LVM logical volume on md RAID1, on Debian's stock
# kernel: the array assembled before the volume is activated.
exec "$(dirname "$0")/../lib/scenario-layout.sh" TEST-37-STOCK-LVM-ON-MD lvm-on-md
