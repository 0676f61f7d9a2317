#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: unit tests and static checks, the KUnit suite, then the QEMU
# scenarios.  Every stage runs even when an earlier one failed, so that one
# run shows every failure; the closing line counts the stages.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
passed=0
failed=0

stage() {
	local name=$1 t0
	shift
	t0=$(date +%s)
	echo "==== $name"
	if "$@"; then
		echo "==== $name: PASS ($(($(date +%s) - t0)) s)"
		passed=$((passed + 1))
	else
		echo "==== $name: FAIL ($(($(date +%s) - t0)) s)"
		failed=$((failed + 1))
	fi
}

start=$(date +%s)
# The unit stage compiles on every core (its tests still run one by one).
stage "unit tests and static checks" make -s -j"$(nproc)" check-unit
if [ -x test/lib/kunit-run.sh ]; then
	stage "KUnit" test/lib/kunit-run.sh
fi
stage "QEMU scenarios" test/run-scenarios.sh
echo "make check: $(($(date +%s) - start)) s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
