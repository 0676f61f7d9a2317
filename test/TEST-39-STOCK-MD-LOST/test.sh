#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Dumps on md RAID1 on Debian's stock kernel when a member dies with the
# crash: the capture waits for it, then saves on the array run degraded.
exec "$(dirname "$0")/../lib/scenario-layout.sh" TEST-39-STOCK-MD-LOST md-raid1-lost
