#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Dumps on ext4 on md RAID1 over two disks, on Debian's stock kernel; the
# array as it was at the next boot.
exec "$(dirname "$0")/../lib/scenario-layout.sh" TEST-34-STOCK-MD-RAID1 md-raid1
