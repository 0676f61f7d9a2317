#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario 31: scenario 30 on Debian's stock kernel (the NIC driver, the NFS
# client and their dependencies are modules the capture must load).
exec "$(dirname "$0")/../lib/scenario-net-fleet.sh" TEST-31-NET-FLEET-STOCK 31 stock
