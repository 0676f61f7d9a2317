#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the KUnit suites that kernel-patches/ adds, on linux-source-6.1 with
# the series applied, in QEMU (TCG) through the kernel's kunit.py.
#
#   kunit-run.sh [FILTER]   FILTER is a kunit.py suite glob (default crash*:
#                           crash_mem, crash_x86_elf and crash_dm_crypt_key)
#
# Layout under $KDUMP_FILE_CACHE/kunit (default /var/cache/kdump-file/kunit):
#   linux-<ver>/   pristine unpacked source (per package version)
#   src/           patched source; files are synced by content, so a file
#                  no patch changed keeps its mtime and kunit.py's build
#                  stays incremental
#   src.key        hash of the package version and the series it holds
#   build/         kunit.py --build_dir
#   kunit.log      output of the last kunit.py run
#
# Exits 0 when every test passed, 1 otherwise (build failure, boot failure,
# a failed or skipped test, or no test run at all).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${KDUMP_FILE_CACHE:-/var/cache/kdump-file}/kunit
# shellcheck source=test/lib/kernel-source.sh
. "$here/kernel-source.sh"
filter=${1:-crash*}
jobs=$(nproc)

die() {
	echo "kunit-run: error: $*" >&2
	exit 1
}

log() {
	echo "kunit-run: $*" >&2
}

ksrc_require
command -v qemu-system-x86_64 >/dev/null ||
	die "qemu-system-x86_64 is missing (install it: apt-get install qemu-system-x86)"
srcver=$(ksrc_version)

key=$(ksrc_series_key "$srcver" | sha256sum | cut -c1-16)

mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9

# 1. Pristine source, unpacked once per package version.
pristine=$cache/linux-$srcver
ksrc_pristine "$pristine"

# 2. Patched source, redone only when the series or a patch changed.
src=$cache/src
if [ "$(cat "$cache/src.key" 2>/dev/null)" != "$key" ] || [ ! -d "$src" ]; then
	ksrc_patched "$pristine" "$cache" "$src"
	echo "$key" >"$cache/src.key"
fi

kunitconfig=$src/kernel/.kunitconfig
[ -r "$kunitconfig" ] ||
	die "$kunitconfig is missing (is the KUnit patch in $patches/series?)"

# 3. Build (incrementally) and run. kunit.py boots the kernel under QEMU
#    with TCG (it passes no -accel), so KVM is not needed. kasan_multi_shot
#    lets every KASAN report fail its test, not only the first. One CPU
#    present of four possible: the crash hotplug tests tell a note per
#    possible CPU from one per present CPU only then (they skip otherwise,
#    and a skipped test fails the run).
log "running kunit.py (suites '$filter'; a cold build takes ~10 min on 2 cores)"
rc=0
(
	cd "$src"
	python3 tools/testing/kunit/kunit.py run --arch=x86_64 \
		--build_dir="$cache/build" --jobs="$jobs" \
		--kunitconfig="$kunitconfig" \
		--kernel_args=kasan_multi_shot --qemu_args='-smp 1,maxcpus=4' \
		"$filter"
) >"$cache/kunit.log" 2>&1 || rc=$?

# kunit.py prints the build steps, each test and a closing summary.
grep -v -e '^\$ make' -e '^Populating config' -e '^Building with' "$cache/kunit.log" || true

# "Testing complete. Ran 31 tests: passed: 29, failed: 2" -> counts.
summary=$(grep -o 'Ran [0-9]* tests:.*' "$cache/kunit.log" | tail -n 1) || true
count() {
	local n
	n=$(sed -n "s/.*[ ,]$1: \([0-9]*\).*/\1/p" <<<"$summary")
	echo "${n:-0}"
}
passed=$(count passed)
failed=$(($(count failed) + $(count crashed)))
errors=$(count errors)
skipped=$(count skipped)
echo "kunit: $passed passed, $failed failed, $skipped skipped"
if [ "$rc" -ne 0 ] || [ -z "$summary" ] || [ "$passed" -eq 0 ] ||
	[ "$failed" -ne 0 ] || [ "$errors" -ne 0 ] || [ "$skipped" -ne 0 ]; then
	log "KUnit failed (kunit.py exit $rc); full log: $cache/kunit.log"
	exit 1
fi
exit 0
