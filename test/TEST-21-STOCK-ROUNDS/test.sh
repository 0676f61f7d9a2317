#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The capture's fallback on Debian's stock kernel: no target chain, only
# the rounds of drivers for devices without one.
exec "$(dirname "$0")/../lib/scenario-layout.sh" TEST-21-STOCK-ROUNDS rounds
