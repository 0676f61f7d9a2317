#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario 30: three machines on our kernel crash at the same moment, each
# saving its dump on one collector: over SSH, NFSv4 and NFSv3.
exec "$(dirname "$0")/../lib/scenario-net-fleet.sh" TEST-30-NET-FLEET-OURS 30 ours
