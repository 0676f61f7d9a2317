# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The kernel source as the series sees it: Debian's linux-source-6.1
# tarball, the list of kernel-patches/series, the patch(1) options every
# patch is applied with and the test configuration.  Sourced by
# kernel-build.sh, kunit-run.sh and series-check.sh, so that the three
# apply and configure the same way; kernel-build.sh hashes this file into
# its cache key, so a change here rebuilds the kernel.
#
# The sourcing script defines die MESSAGE (prints and exits 1) and
# log MESSAGE (progress, on stderr).

patches=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/kernel-patches
tarball=/usr/src/linux-source-6.1.tar.xz

# ksrc_require: the tarball and the series are there.
ksrc_require() {
	[ -r "$tarball" ] || die "$tarball is missing (install it: apt-get install linux-source-6.1)"
	[ -r "$patches/series" ] || die "$patches/series is missing"
}

# ksrc_version: the version of package linux-source-6.1 (it names the
# pristine tree and goes into the cache keys).
ksrc_version() {
	dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null ||
		die "cannot read the version of package linux-source-6.1 (is it installed?)"
}

# The series, in order, without comments or blank lines.
series_patches() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$patches/series"
}

# ksrc_series_key VERSION: lines naming the package version and each patch
# of the series with the hash of its text, for a cache key.
ksrc_series_key() {
	local p
	echo "linux-source-6.1 $1"
	series_patches | while read -r p; do
		[ -r "$patches/$p" ] || die "patch '$p' listed in $patches/series does not exist"
		echo "$p $(sha256sum <"$patches/$p" | cut -d' ' -f1)"
	done
}

# ksrc_untar DIR: the tarball's tree unpacked into DIR (which exists).
ksrc_untar() {
	tar -xJf "$tarball" -C "$1" --strip-components=1
}

# ksrc_pristine DIR: the pristine source unpacked into DIR once; a later
# call finds it complete (.unpacked) and does nothing.
ksrc_pristine() {
	local dir=$1
	[ ! -f "$dir/.unpacked" ] || return 0
	log "unpacking $tarball"
	rm -rf "$dir" "$dir.tmp"
	mkdir -p "$dir.tmp"
	ksrc_untar "$dir.tmp"
	touch "$dir.tmp/.unpacked"
	mv "$dir.tmp" "$dir"
}

# ksrc_patch DIR PATCH LOG: apply one patch of the series to the tree in
# DIR, patch(1)'s output in LOG.  No fuzz, no reversed patch, no backup
# files; patch writes each changed file anew, so hard links into a
# pristine tree are never modified in place.
ksrc_patch() {
	patch -d "$1" -p1 --batch --forward --fuzz=0 --quiet \
		--no-backup-if-mismatch <"$patches/$2" >"$3" 2>&1
}

# ksrc_patched PRISTINE WORK DEST: the pristine tree with the whole series
# applied, in a staging tree under WORK, then synced into DEST by content.
# Only files whose content differs are written (and get a new time); the
# others keep theirs, so make rebuilds what a changed patch touches and no
# more.  Without the stage's times (no -t): a file that goes back to its
# pristine text must still look newer than its object.
ksrc_patched() {
	local pristine=$1 work=$2 dest=$3 stage=$2/stage n=0 p
	rm -rf "$stage"
	mkdir -p "$work"
	cp -al "$pristine" "$stage"
	while read -r p; do
		n=$((n + 1))
		if ! ksrc_patch "$stage" "$p" "$work/patch.log"; then
			cat "$work/patch.log" >&2
			die "patch $n '$p' does not apply to linux-source-6.1 $(ksrc_version)"
		fi
	done < <(series_patches)
	log "applied $n patches"
	mkdir -p "$dest"
	rsync -rlp --checksum --delete --exclude=/.unpacked "$stage/" "$dest/"
	rm -rf "$stage"
}

# ksrc_configure SRC OBJ [scripts/config ARGS...]: the test configuration
# in OBJ: x86_64_defconfig, kvm_guest.config and kdump-file.config merged,
# then the caller's changes (scripts/config options), then olddefconfig.
ksrc_configure() {
	local src=$1 obj=$2
	shift 2
	make -C "$src" O="$obj" -s x86_64_defconfig >/dev/null
	make -C "$src" O="$obj" -s kvm_guest.config >/dev/null
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" \
		"$patches/kdump-file.config" >/dev/null
	"$src/scripts/config" --file "$obj/.config" "$@"
	make -C "$src" O="$obj" -s olddefconfig >/dev/null
}
