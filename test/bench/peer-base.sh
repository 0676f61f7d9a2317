#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The root filesystem of the peer for the benchmark: the guest's base rootfs
# (test/lib/guest-base.sh) with Debian's kdump-tools installed by apt-get,
# as a user installs it ("apt-get install kdump-tools", recommends included,
# kdump enabled in debconf).  Cached next to the base by a hash of its
# inputs.
#
#   peer-base.sh          build (or reuse) and print the rootfs directory
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${KDUMP_FILE_CACHE:-/var/cache/kdump-file}
packages=(kdump-tools kexec-tools)

die() {
	echo "peer-base: error: $*" >&2
	exit 1
}

base=$("$here/../lib/guest-base.sh")
key=$({
	echo "$base ${packages[*]}"
	sha256sum <"$here/peer-base.sh"
} | sha256sum | cut -c1-16)
out=$cache/guest/peer-base-$key
if [ -f "$out/.kdump-file-peer" ]; then
	echo "$out"
	exit 0
fi

exec 9>"$cache/guest/.peer.lock"
flock 9
if [ -f "$out/.kdump-file-peer" ]; then
	echo "$out"
	exit 0
fi

tmp=$out.tmp
rm -rf "$tmp"
cp -a "$base" "$tmp"
rm -f "$tmp/.kdump-file-base"
# The mirror debootstrap wrote into the base's sources.list; the host's
# resolver for the download.
cp /etc/resolv.conf "$tmp/etc/resolv.conf"
logf=$cache/guest/peer-apt.log
echo "peer-base: apt-get install ${packages[*]} into $tmp" >&2
if ! {
	echo "kdump-tools kdump-tools/use_kdump boolean true" |
		chroot "$tmp" debconf-set-selections &&
		chroot "$tmp" apt-get update -q &&
		DEBIAN_FRONTEND=noninteractive chroot "$tmp" apt-get install -y -q "${packages[@]}"
} >"$logf" 2>&1; then
	tail -n 20 "$logf" >&2
	die "apt-get install ${packages[*]} failed (log: $logf)"
fi
grep -q '^USE_KDUMP=1' "$tmp/etc/default/kdump-tools" ||
	die "kdump-tools is installed but not enabled (USE_KDUMP=1 missing in /etc/default/kdump-tools)"
: >"$tmp/etc/resolv.conf"
rm -rf "$tmp/var/cache/apt/archives"/*.deb "$tmp/var/lib/apt/lists"/*_Packages
touch "$tmp/.kdump-file-peer"
rm -rf "$out"
mv "$tmp" "$out"
echo "$out"
