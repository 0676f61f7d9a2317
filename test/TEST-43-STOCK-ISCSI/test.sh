#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Dumps on ext4 on an iSCSI LUN on Debian's stock kernel, served by a
# second guest with tgtd: the capture brings the NIC up and logs in with
# iscsistart.
exec "$(dirname "$0")/../lib/scenario-iscsi.sh" TEST-43-STOCK-ISCSI 43
