#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Dumps on ext4 on LUKS2 opened with a passphrase, on this project's kernel:
# the capture opens it with the volume key the kernel hands over.
exec "$(dirname "$0")/../lib/scenario-layout.sh" TEST-41-LUKS2 luks2-handoff ours
