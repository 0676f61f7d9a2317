#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario 17: scenario 1 on Debian's stock kernel package (modular drivers,
# booted through its initramfs-tools initrd): the capture kernel is that
# kernel again, with the product's dracut-made capture initramfs.
exec "$(dirname "$0")/../lib/scenario-crash.sh" TEST-17-STOCK-BIOS bios 1024 256M stock
