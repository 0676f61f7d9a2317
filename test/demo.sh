#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: build (or reuse) the patched kernel and the guest, boot it with
# systemd, enable kdump-file, crash it, let the capture kernel save the dump,
# and show what crashed.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/lib/common.sh"

t0=$(date +%s)
out=$KDUMP_FILE_OUT/TEST-01-BIOS
if ! "$KDUMP_FILE_TOP/test/TEST-01-BIOS/test.sh"; then
	echo "demo: the crash scenario failed; console log: $out/console.log" >&2
	exit 1
fi
dump=$out/dump
vmlinux=$(sed -n 's/^vmlinux: //p' "$out/paths")
echo
echo "==== what crashed"
if command -v kdump-file-analyze >/dev/null || [ -x "$KDUMP_FILE_TOP/analysis/build/kdump-file-analyze" ]; then
	analyze=$(command -v kdump-file-analyze || echo "$KDUMP_FILE_TOP/analysis/build/kdump-file-analyze")
	"$analyze" report "$dump" --vmlinux "$vmlinux" || true
fi
# crash's "sys" gives the panic, "bt" starts with the crashing task.
panic=$(grep -m1 -E '^ *PANIC:' "$dump/crash.out" | sed 's/^ *PANIC: *//' || true)
task=$(grep -m1 -E '^PID: ' "$dump/crash.out" |
	sed -n 's/^PID: *\([0-9]*\).*CPU: *\([0-9]*\).*COMMAND: *\(".*"\)/\3 (pid \1, cpu \2)/p' || true)
echo "panic:   ${panic:-?}"
echo "task:    ${task:-?}"
echo "backtrace (top):"
grep -E '^ *#[0-9]+ ' "$dump/crash.out" | head -n 6 | sed 's/^ */  /' || true
echo
echo "vmcore: $dump/vmcore"
echo "vmlinux: $vmlinux"
echo "dmesg: $dump/dmesg.txt"
echo "metadata: $dump/metadata.json"
echo "console: $out/console.log"
echo "demo: $(($(date +%s) - t0)) s"
