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
patches=$top/kernel-patches
fragment=$patches/kdump-file.config
tarball=/usr/src/linux-source-6.1.tar.xz
jobs=$(($(nproc) + 1))

die() {
	echo "kernel-build: error: $*" >&2
	exit 1
}

[ -r "$tarball" ] || die "$tarball is missing (install it: apt-get install linux-source-6.1)"
[ -r "$patches/series" ] || die "$patches/series is missing"
[ -r "$fragment" ] || die "$fragment is missing"

srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null) ||
	die "cannot read the version of package linux-source-6.1 (is it installed?)"

# The series, in order, without comments or blank lines.
series_patches() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$patches/series"
}

compute_key() {
	{
		echo "linux-source-6.1 $srcver"
		sha256sum "$fragment" "$here/kernel-build.sh" "$top"/test/modules/* | cut -d' ' -f1
		series_patches | while read -r p; do
			[ -r "$patches/$p" ] || die "patch '$p' listed in $patches/series does not exist"
			echo "$p $(sha256sum <"$patches/$p" | cut -d' ' -f1)"
		done
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
if [ ! -f "$pristine/.unpacked" ]; then
	log "unpacking $tarball"
	rm -rf "$pristine" "$pristine.tmp"
	mkdir -p "$pristine.tmp"
	tar -xJf "$tarball" -C "$pristine.tmp" --strip-components=1
	touch "$pristine.tmp/.unpacked"
	mv "$pristine.tmp" "$pristine"
fi

# 2. Patched source in a staging tree, then synced by content into the
#    build's source tree.
stage=$kroot/work/stage
rm -rf "$stage"
mkdir -p "$kroot/work"
cp -al "$pristine" "$stage"
n=0
while read -r p; do
	n=$((n + 1))
	# patch(1) writes each changed file anew, so hard links into the
	# pristine tree are never modified in place.
	if ! patch -d "$stage" -p1 --batch --forward --fuzz=0 --quiet \
		--no-backup-if-mismatch <"$patches/$p" >"$kroot/work/patch.log" 2>&1; then
		cat "$kroot/work/patch.log" >&2
		die "patch $n '$p' does not apply to linux-source-6.1 $srcver"
	fi
done < <(series_patches)
log "applied $n patches"
mkdir -p "$kroot/work/src"
# Only files whose content differs are written (and get a new time); the
# others keep theirs, so make rebuilds what a changed patch touches and no
# more (-t would stamp every patched file with the staging copy's time).
rsync -rlp --checksum --delete --exclude=/.unpacked "$stage/" "$kroot/work/src/"
rm -rf "$stage"

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
kmake x86_64_defconfig >/dev/null
kmake kvm_guest.config >/dev/null
"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$fragment" >/dev/null
"$src/scripts/config" --file "$obj/.config" --set-str SYSTEM_TRUSTED_KEYS "$certs/signing.pem"
kmake olddefconfig >/dev/null
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
