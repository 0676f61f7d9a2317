#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A separate /var in a btrfs subvolume, on Debian's stock kernel.
exec "$(dirname "$0")/../lib/scenario-layout.sh" TEST-20-STOCK-VAR-BTRFS var-btrfs
