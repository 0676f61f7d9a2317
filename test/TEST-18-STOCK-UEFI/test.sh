#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario 18: scenario 17 under OVMF (UEFI); the capture kernel boots with EFI.
exec "$(dirname "$0")/../lib/scenario-crash.sh" TEST-18-STOCK-UEFI uefi 1024 256M stock
