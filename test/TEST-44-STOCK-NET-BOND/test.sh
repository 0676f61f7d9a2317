#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# An ssh:// target over an active-backup bond of two NICs on Debian's stock
# kernel: the active member's link goes down before the crash, and the
# capture goes on over the other.
exec "$(dirname "$0")/../lib/scenario-net-links.sh" TEST-44-STOCK-NET-BOND 44 bond stock
