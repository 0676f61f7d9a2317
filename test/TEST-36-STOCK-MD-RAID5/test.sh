#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Dumps on ext4 on md RAID5 over three disks, on Debian's stock kernel; the
# array as it was at the next boot.
exec "$(dirname "$0")/../lib/scenario-layout.sh" TEST-36-STOCK-MD-RAID5 md-raid5
