#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# SSH to a collector over an active-backup bond of two NICs on this
# project's kernel (bonding built in), the active member's link taken down
# before the crash: the capture builds the bond and goes on with the other.
exec "$(dirname "$0")/../lib/scenario-net-links.sh" TEST-47-NET-BOND 47 bond ours
