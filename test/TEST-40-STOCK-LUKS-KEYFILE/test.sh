#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Dumps on ext4 on LUKS2, on Debian's stock kernel: the capture opens it
# with the key file /etc/crypttab names; load refuses the LUKS volumes the
# capture could not open.
exec "$(dirname "$0")/../lib/scenario-layout.sh" TEST-40-STOCK-LUKS-KEYFILE luks-keyfile
