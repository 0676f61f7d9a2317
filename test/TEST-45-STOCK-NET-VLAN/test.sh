#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# An nfs:// target (NFSv4) over VLAN 43 of the NIC on Debian's stock
# kernel: the collector takes tagged frames alone.
exec "$(dirname "$0")/../lib/scenario-net-links.sh" TEST-45-STOCK-NET-VLAN 45 vlan stock
