# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The checks of the command-line tests that run on the host, without a
# guest (kdump-service/test/test-cli.sh, analysis/test/test-cli.sh): one
# line per check, "ok   NAME" or "FAIL NAME: why", and a closing
# "cli: N passed, M failed" that the Makefiles' output shows.  The
# sourcing script sets t, its temporary directory, before the first
# expect.  (The QEMU scenarios have their own in common.sh: their lines
# name the scenario, and run-scenarios.sh reads them.)

passed=0
failed=0

pass() { echo "ok   $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }

# expect NAME STATUS... [--] CMD...: CMD exits with one of STATUS (the
# leading numbers; -- ends them, for readability); its output is kept in
# $t/out and $t/err.
# shellcheck disable=SC2154 # t is the sourcing script's temporary directory
expect() {
	local name=$1 rc=0 ok=0 want=() w
	shift
	while [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; do
		want+=("$1")
		shift
	done
	[ "${1:-}" != -- ] || shift
	"$@" >"$t/out" 2>"$t/err" || rc=$?
	for w in "${want[@]}"; do
		[ "$rc" -eq "$w" ] && ok=1
	done
	if [ "$ok" = 1 ]; then
		pass "$name (exit $rc)"
	else
		fail "$name: exit $rc, expected ${want[*]}"
		sed 's/^/     /' "$t/out" "$t/err" | head -n 20
	fi
}

# has NAME FILE TEXT: FILE contains TEXT.
has() {
	if grep -qF -- "$3" "$2"; then
		pass "$1"
	else
		fail "$1: '$3' not in $(basename "$2")"
		sed 's/^/     /' "$2" | head -n 20
	fi
}

# summary: the closing line; the status is the tests' verdict.
summary() {
	echo "cli: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
