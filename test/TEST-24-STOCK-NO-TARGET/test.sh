#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario 24: on Debian's stock kernel, a dump target that never appears;
# the next boot names the step, the cause and what to do, from pstore.
exec "$(dirname "$0")/../lib/scenario-lost.sh" TEST-24-STOCK-NO-TARGET no-target
