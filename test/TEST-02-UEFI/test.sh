#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario 2: as scenario 1 under OVMF (UEFI); the capture kernel boots with EFI.
exec "$(dirname "$0")/../lib/scenario-crash.sh" TEST-02-UEFI uefi 1024 256M
