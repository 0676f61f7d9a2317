#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Dumps on md RAID1 started degraded (a member gone), on Debian's stock
# kernel; the stale member, back at the next boot, not added back.
exec "$(dirname "$0")/../lib/scenario-layout.sh" TEST-35-STOCK-MD-DEGRADED md-raid1-degraded
