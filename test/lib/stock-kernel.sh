#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian's stock kernel, for the scenarios that run the product on the
# kernel a Debian 12 machine has: the package linux-image-amd64 pulls today
# (apt's candidate), its release, and the vmlinux with debug info from the
# matching -dbg package (crash(8) needs it for the dumps).  Cached by
# package name and version: a new Debian kernel gets a new directory.
#
#   stock-kernel.sh            fetch (or reuse) everything, print the directory
#   stock-kernel.sh --no-dbg   only the kernel package and its release: the
#                              -dbg package is an 819 MiB download that the
#                              guest image does not wait for
#   stock-kernel.sh --cloud    print the path of the same Debian kernel's
#                              cloud flavour package (another kernel release,
#                              for the scenario that installs a new kernel)
#
# $KDUMP_FILE_CACHE/stock/<package>_<version>/ holds:
#   <package>_<version>_amd64.deb   the kernel package
#   release                         e.g. 6.1.0-57-amd64, written after the .deb
#   vmlinux                         out of <package>-dbg (its .deb is removed)
#   cloud/<cloud package>.deb       with --cloud only
#   done                            written last
set -euo pipefail

cache=${KDUMP_FILE_CACHE:-/var/cache/kdump-file}
meta=linux-image-amd64

die() {
	echo "stock-kernel: error: $*" >&2
	exit 1
}

want_dbg=1
want_cloud=0
case "${1:-}" in
"") ;;
--no-dbg) want_dbg=0 ;;
--cloud) want_dbg=0 want_cloud=1 ;;
*) die "usage: stock-kernel.sh [--no-dbg | --cloud]" ;;
esac

# The version apt would install of a package.
candidate() {
	local v
	v=$(apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: //p')
	case "$v" in
	"" | "(none)") die "apt has no candidate for $1 (apt-get update?)" ;;
	esac
	echo "$v"
}

# linux-image-amd64 is a metapackage; the kernel is the ABI package it
# depends on (linux-image-6.1.0-NN-amd64), whose name changes with the ABI.
metaver=$(candidate "$meta")
pkg=$(apt-cache show "$meta=$metaver" |
	sed -n 's/^Depends: .*\(linux-image-[0-9][^ ,]*\).*/\1/p' | head -n 1)
[ -n "$pkg" ] || die "cannot tell which kernel package $meta $metaver depends on"
ver=$(candidate "$pkg")
dir=$cache/stock/${pkg}_$ver
mkdir -p "$dir"

# download PACKAGE: apt-get download of the candidate into its own
# directory below $dir, printing the path of the .deb.  apt's download
# sandbox user is set to root: the cache belongs to root, and the _apt user
# could not write there.
download() {
	local t0=$SECONDS f dl=$dir/download-$1
	rm -rf "$dl"
	mkdir -p "$dl"
	echo "stock-kernel: apt-get download $1=$ver" >&2
	(cd "$dl" && apt-get download -q -o APT::Sandbox::User=root "$1=$ver") >&2 ||
		die "apt-get download $1=$ver failed"
	f=$(find "$dl" -maxdepth 1 -name "${1}_*.deb" | head -n 1)
	[ -n "$f" ] || die "apt-get download $1=$ver left no .deb in $dl"
	echo "stock-kernel: $(basename "$f"): $(du -m "$f" | cut -f1) MiB in $((SECONDS - t0)) s" >&2
	echo "$f"
}

# The kernel package and its release, under their own lock: the image build
# needs only these, and must not wait behind the -dbg download.
if [ ! -f "$dir/release" ]; then
	exec 8>"$dir/.deb.lock"
	flock 8
	if [ ! -f "$dir/release" ]; then
		deb=$(download "$pkg")
		# The release is the one the package installs, not a guess from
		# its name.
		release=$(dpkg-deb -c "$deb" | sed -n 's|.* \./boot/vmlinuz-\(.*\)$|\1|p' | head -n 1)
		[ -n "$release" ] || die "$deb has no /boot/vmlinuz-*"
		mv "$deb" "$dir/"
		rmdir "$(dirname "$deb")"
		echo "$release" >"$dir/release.tmp"
		mv "$dir/release.tmp" "$dir/release"
	fi
	exec 8>&-
fi
release=$(cat "$dir/release")

if [ "$want_dbg" = 1 ] && [ ! -f "$dir/done" ]; then
	exec 9>"$dir/.dbg.lock"
	flock 9
	if [ ! -f "$dir/done" ]; then
		deb=$(download "$pkg-dbg")
		t0=$SECONDS
		# Only the one file is kept, not the .deb.
		dpkg-deb --fsys-tarfile "$deb" |
			tar -xO "./usr/lib/debug/boot/vmlinux-$release" >"$dir/vmlinux.tmp" ||
			die "no ./usr/lib/debug/boot/vmlinux-$release in $deb"
		[ "$(head -c 4 "$dir/vmlinux.tmp" | od -An -c | tr -d ' ')" = 177ELF ] ||
			die "vmlinux-$release from $deb is not an ELF file"
		mv "$dir/vmlinux.tmp" "$dir/vmlinux"
		rm -rf "$(dirname "$deb")"
		echo "stock-kernel: vmlinux-$release taken out in $((SECONDS - t0)) s" >&2
		date -u +%FT%TZ >"$dir/done"
	fi
	exec 9>&-
fi
if [ "$want_cloud" = 1 ]; then
	# linux-image-6.1.0-NN-amd64 -> linux-image-6.1.0-NN-cloud-amd64, same
	# source version.
	cpkg=${pkg%-amd64}-cloud-amd64
	exec 7>"$dir/.cloud.lock"
	flock 7
	mkdir -p "$dir/cloud"
	f=$(find "$dir/cloud" -maxdepth 1 -name "${cpkg}_*.deb" | head -n 1)
	if [ -z "$f" ]; then
		deb=$(download "$cpkg")
		mv "$deb" "$dir/cloud/"
		rmdir "$(dirname "$deb")"
		f=$dir/cloud/$(basename "$deb")
	fi
	exec 7>&-
	echo "$f"
	exit 0
fi
echo "$dir"
