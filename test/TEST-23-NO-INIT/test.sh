#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario 23: a capture kernel that never reaches /init is reset by the
# hardware watchdog; the next boot says why from pstore.
exec "$(dirname "$0")/../lib/scenario-lost.sh" TEST-23-NO-INIT no-init
