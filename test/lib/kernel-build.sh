#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the patched kernel from Debian's linux-source-6.1 package, outside
# the repository, cached by a hash of everything that decides its content.
#
#   kernel-build.sh            build (or reuse) and print the artifact directory
#   kernel-build.sh --key      print the cache key only
#
# Layout under $KDUMP_FILE_CACHE (default /var/cache/kdump-file):
#   kernel/linux-<ver>/        pristine unpacked source (per package version)
#   kernel/work/src            patched source; files are synced by content so
#                              an unchanged file keeps its mtime and a patch
#                              change rebuilds only what it touches
#   kernel/work/obj            the O= build directory
#   kernel/certs/              test signing key and certificate (never committed)
#   kernel/<key>/              finished artifacts: bzImage vmlinux System.map
#                              config release modules/ certs/
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${KDUMP_FILE_CACHE:-/var/cache/kdump-file}
kroot=$cache/kernel
# shellcheck source=test/lib/kernel-source.sh
. "$here/kernel-source.sh"
fragment=$patches/kdump-file.config
jobs=$(($(nproc) + 1))

die() {
	echo "kernel-build: error: $*" >&2
	exit 1
}

ksrc_require
[ -r "$fragment" ] || die "$fragment is missing"
srcver=$(ksrc_version)

# What decides the kernel: the config fragment, the test modules, the two
# scripts that apply and build it, the package version and the series.
# The series comes last: its status (a listed patch that does not exist)
# is the group's, which fails the pipeline.
compute_key() {
	{
		sha256sum "$fragment" "$here/kernel-build.sh" "$here/kernel-source.sh" \
			"$top"/test/modules/* | cut -d' ' -f1
		ksrc_series_key "$srcver"
	} | sha256sum | cut -c1-16
}

key=$(compute_key)
if [ "${1:-}" = "--key" ]; then
	echo "$key"
	exit 0
fi

out=$kroot/$key
if [ -f "$out/done" ]; then
	echo "$out"
	exit 0
fi

mkdir -p "$kroot"
exec 9>"$kroot/.lock"
flock 9
if [ -f "$out/done" ]; then
	echo "$out"
	exit 0
fi

start=$(date +%s)
log() { echo "kernel-build: [$(($(date +%s) - start))s] $*" >&2; }

# 1. Pristine source, unpacked once per package version.
pristine=$kroot/linux-$srcver
ksrc_pristine "$pristine"

# 2. Patched source in a staging tree, then synced by content into the
#    build's source tree.
ksrc_patched "$pristine" "$kroot/work" "$kroot/work/src"

# 3. Test signing key for KEXEC_BZIMAGE_VERIFY_SIG: made once, kept with
#    the cache, trusted by the built kernel.
certs=$kroot/certs
if [ ! -f "$certs/signing.pem" ]; then
	mkdir -p "$certs.tmp"
	openssl req -new -x509 -newkey rsa:2048 -nodes -days 36500 -sha256 \
		-subj "/CN=kdump-file test signing key/" \
		-keyout "$certs.tmp/signing.key" -out "$certs.tmp/signing.pem" 2>/dev/null
	# A second key the kernel does not trust, to show a refusal.
	openssl req -new -x509 -newkey rsa:2048 -nodes -days 36500 -sha256 \
		-subj "/CN=kdump-file untrusted key/" \
		-keyout "$certs.tmp/untrusted.key" -out "$certs.tmp/untrusted.pem" 2>/dev/null
	rm -rf "$certs"
	mv "$certs.tmp" "$certs"
fi

# 4. Configure.
src=$kroot/work/src
obj=$kroot/work/obj
mkdir -p "$obj"
kmake() { make -C "$src" O="$obj" -s "$@"; }
log "configuring"
ksrc_configure "$src" "$obj" --set-str SYSTEM_TRUSTED_KEYS "$certs/signing.pem"
missing=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*)
		grep -qxF -- "$line" "$obj/.config" && continue
		;;
	"# CONFIG_"*" is not set")
		# Off is also satisfied by a symbol whose dependencies
		# removed it from .config altogether.
		sym=${line#\# }
		sym=${sym%% *}
		grep -q "^$sym=" "$obj/.config" || continue
		;;
	*) continue ;;
	esac
	echo "kernel-build: option '$line' of $fragment did not survive olddefconfig" >&2
	missing=1
done <"$fragment"
[ "$missing" = 0 ] || die "the config fragment does not apply; fix its dependencies"

# 5. Build.
log "building bzImage vmlinux modules with -j$jobs (cold: ~15 min)"
kmake -j"$jobs" bzImage vmlinux modules
release=$(kmake -s kernelrelease)

# The scenarios' test modules, built against this kernel outside the repo.
mods=$kroot/work/test-modules
rm -rf "$mods"
cp -r "$top/test/modules" "$mods"
kmake M="$mods" modules >/dev/null

tmp=$out.tmp
rm -rf "$tmp"
mkdir -p "$tmp/test-modules"
cp "$mods"/*.ko "$tmp/test-modules/"
cp "$obj/arch/x86/boot/bzImage" "$obj/vmlinux" "$obj/System.map" "$tmp/"
cp "$obj/.config" "$tmp/config"
echo "$release" >"$tmp/release"
kmake INSTALL_MOD_PATH="$tmp/modules" INSTALL_MOD_STRIP=1 modules_install >/dev/null
rm -f "$tmp/modules/lib/modules/$release/build" "$tmp/modules/lib/modules/$release/source"
cp -r "$certs" "$tmp/certs"
touch "$tmp/done"
rm -rf "$out"
mv "$tmp" "$out"
# Keep only the newest few artifact sets.
# shellcheck disable=SC2012 # names are hex keys, ls -t is safe here
ls -1dt "$kroot"/[0-9a-f]*[0-9a-f] 2>/dev/null | tail -n +4 | xargs -r rm -rf
log "kernel $release ready in $out"
echo "$out"
