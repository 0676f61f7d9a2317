#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Dumps on ext4 on md RAID1, on this project's kernel (RAID built in): the
# capture assembles the array; at the next boot it is as it was.
exec "$(dirname "$0")/../lib/scenario-layout.sh" TEST-38-MD-RAID1 md-raid1 ours
