#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario 25: pstore in RAM (ramoops behind a memmap= reservation), the
# guest rebooting in place: a dump target that never appears; the boot
# after names the step, the cause and what to do.
exec "$(dirname "$0")/../lib/scenario-lost.sh" TEST-25-RAMOOPS ramoops
