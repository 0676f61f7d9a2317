#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Check the kernel series patch by patch: each patch must apply to
# linux-source-6.1 with the ones before it, pass checkpatch.pl --strict
# without errors, leave no kernel-doc warning in the C files and headers
# it touches, and build on its own (bisectable). The build uses the
# test configuration (x86_64_defconfig + kvm_guest.config +
# kdump-file.config, with the KUnit suites of the series built in) without
# debug info. For each patch it compiles the directories that hold what
# the series changes (the kexec and crash code, purgatory, the GART
# driver and the sysfs files) and those of the files the patch touches;
# the whole kernel with the whole series is built by kernel-build.sh.
#
#   series-check.sh      prints one line per patch and a summary; exits 1
#                        when a patch fails to apply, has a checkpatch
#                        error or a kernel-doc warning, or does not build
#
# Work directory: $KDUMP_FILE_CACHE/series-check (default under
# /var/cache/kdump-file); logs in its logs/ directory.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${KDUMP_FILE_CACHE:-/var/cache/kdump-file}
work=$cache/series-check
# shellcheck source=test/lib/kernel-source.sh
. "$here/kernel-source.sh"
jobs=$(($(nproc) + 1))

die() {
	echo "series-check: error: $*" >&2
	exit 1
}

ksrc_require

series=()
while read -r p; do
	series+=("$p")
done < <(series_patches)
[ "${#series[@]}" -gt 0 ] || die "$patches/series lists no patch"

mkdir -p "$work/logs"
src=$work/src
obj=$work/obj
# A fresh tree each run: the first patch must apply to the pristine source.
rm -rf "$src"
mkdir -p "$src" "$obj"
ksrc_untar "$src"

kmake() { make -C "$src" O="$obj" -s "$@"; }
# The test configuration, made again after each patch: options that a
# patch adds exist only from that patch on, and olddefconfig drops them
# before.
configure() {
	ksrc_configure "$src" "$obj" -d DEBUG_INFO -d DEBUG_INFO_DWARF4 \
		-e DEBUG_INFO_NONE -e CRASH_MEM_KUNIT_TEST -e X86_CRASH_KUNIT_TEST \
		-e CRASH_DM_CRYPT_KEY_KUNIT_TEST \
		--set-str SYSTEM_TRUSTED_KEYS ""
}
configure
# The directories of the series' code, and of every file a patch touches.
base_dirs="arch/x86/kernel/ arch/x86/purgatory/ kernel/ drivers/base/ drivers/char/agp/ mm/"
dirs_of() {
	sed -n 's|^+++ b/\(.*\)/[^/]*\.c$|\1/|p' "$1" | sort -u | tr '\n' ' '
}
# The C files and headers a patch leaves in the tree (not those it deletes).
sources_of() {
	sed -n 's|^+++ b/\(.*\.[ch]\)$|\1|p' "$1" | sort -u
}
# Nothing patched yet: the tree as Debian ships it, so that each patch's
# build below compiles only what the patch changes.
start=$(date +%s)
# shellcheck disable=SC2086 # word splitting of the directory list
kmake -j"$jobs" $base_dirs >"$work/logs/0000-base.log" 2>&1 ||
	die "linux-source-6.1 itself does not build with this config (see $work/logs/0000-base.log)"
echo "series-check: base tree built in $(($(date +%s) - start)) s"

failed=0
n=0
for p in "${series[@]}"; do
	n=$((n + 1))
	log=$work/logs/$p.log
	if ! ksrc_patch "$src" "$p" "$log"; then
		echo "$p: does not apply (see $log)"
		failed=1
		break
	fi
	configure >>"$log" 2>&1
	# checkpatch exits non-zero on a warning too: its summary decides
	# (without -q, which leaves the summary out of a clean report).
	cp=$({ "$src/scripts/checkpatch.pl" --strict --no-signoff --no-tree \
		"$patches/$p" 2>&1 || true; } | sed -n 's/^total: \(.*\) lines checked$/\1/p')
	# kernel-doc -none prints only its warnings and errors.
	kd=0
	while read -r f; do
		kn=$(cd "$src" && scripts/kernel-doc -none "$f" 2>&1 | tee -a "$log" | grep -c .) || true
		kd=$((kd + kn))
	done < <(sources_of "$patches/$p")
	[ "$kd" -eq 0 ] || failed=1
	t0=$(date +%s)
	# shellcheck disable=SC2046,SC2086 # word splitting of the directory lists
	if kmake -j"$jobs" $base_dirs $(dirs_of "$patches/$p") >>"$log" 2>&1; then
		built="builds ($(($(date +%s) - t0)) s)"
	else
		built="DOES NOT BUILD (see $log)"
		failed=1
	fi
	case "$cp" in
	"0 errors"*) ;;
	*) failed=1 ;;
	esac
	echo "$p: checkpatch --strict: ${cp:-no result}; kernel-doc: $kd warnings; $built"
	[ "$failed" = 0 ] || break
done
if [ "$failed" = 0 ]; then
	echo "series-check: all $n patches apply in order, build alone and have no checkpatch error and no kernel-doc warning"
fi
exit "$failed"
