#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# failure_action = poweroff with a dump target that does not exist: the
# capture gives up after target_timeout, says so on the console and powers
# the machine off; it never hangs.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

scenario_setup TEST-06-FAILURE-ACTION
guest_conf "$out/kdump-file.conf" "target = LABEL=nowhere" "target_timeout = 5" \
	"failure_action = poweroff"
check "config written into the guest" disk_put_file "$disk" "$out/kdump-file.conf" /etc/kdump-file.conf
rc=0
crash_boot "$out/console.log" "$disk" || rc=$?
check_ended "$rc" "guest ended by itself (no timeout)"
check "the capture kernel ran" grep -q "kdump-file: .* capture started" "$out/console.log"
check "the missing target is named with the timeout" \
	grep -q "error: dump target LABEL=nowhere not found within 5s" "$out/console.log"
check "then it powered off" grep -q "kdump-file: .* powering off" "$out/console.log"
check "and did not reboot" bash -c "! grep -q 'kdump-file: .* rebooting' '$out/console.log'"
# The wait is bounded: from the capture's start to the power-off.
t=$(sed -n 's/^kdump-file: \[ *\([0-9.]*\)s\] powering off/\1/p' "$out/console.log")
check "powered off within target_timeout plus 10 s (${t:-?} s)" \
	awk -v t="${t:-999}" 'BEGIN { exit !(t < 15) }'
rm -f "$disk"
finish
