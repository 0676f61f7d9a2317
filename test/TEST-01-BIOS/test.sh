#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario 1: SeaBIOS, 1 GiB, 2 vCPUs, crashkernel=256M, systemd guest.
exec "$(dirname "$0")/../lib/scenario-crash.sh" TEST-01-BIOS bios 1024 256M
