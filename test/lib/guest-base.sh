#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest's base root filesystem: Debian 12 made with debootstrap from the
# mirror this machine's apt uses, cached by a hash of what decides it.  The
# product and the kernel are layered on top by guest-image.sh, so a product
# change never re-runs debootstrap.
#
#   guest-base.sh          build (or reuse) and print the rootfs directory
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${KDUMP_FILE_CACHE:-/var/cache/kdump-file}
suite=bookworm

# Packages of the guest: what the product needs at run time in the first
# kernel (systemd, dracut, kmod, makedumpfile, libkdumpfile; for network
# targets ssh, ssh-keygen and ssh-keyscan, which the capture initramfs takes
# from the rootfs, and ip and ping for the scenarios' network) and for the
# scenarios' checks inside the guest.
packages="systemd,systemd-sysv,udev,dbus,kmod,makedumpfile,dracut-core,\
e2fsprogs,procps,cpio,gzip,xz-utils,libkdumpfile10,libblkid1,crash,\
openssh-client,iproute2,iputils-ping"

die() {
	echo "guest-base: error: $*" >&2
	exit 1
}

# The mirror apt uses on this machine: the first Debian "URIs:" entry (deb822)
# or "deb" line; never written into the repository.
mirror() {
	local m
	m=$(sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*debian\/*\)$/\1/p' \
		/etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
	[ -n "$m" ] || m=$(sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]*\)[[:space:]]\+bookworm[[:space:]].*/\2/p' \
		/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | head -n 1)
	[ -n "$m" ] || die "no Debian mirror found in /etc/apt/sources.list.d (add one for $suite)"
	echo "$m"
}

key=$({
	echo "$suite $packages"
	sha256sum <"$here/guest-base.sh"
} | sha256sum | cut -c1-16)
out=$cache/guest/base-$key
if [ -f "$out/.kdump-file-base" ]; then
	echo "$out"
	exit 0
fi

mkdir -p "$cache/guest"
exec 9>"$cache/guest/.lock"
flock 9
if [ -f "$out/.kdump-file-base" ]; then
	echo "$out"
	exit 0
fi

command -v debootstrap >/dev/null || die "debootstrap is missing (apt-get install debootstrap)"
tmp=$out.tmp
rm -rf "$tmp"
echo "guest-base: debootstrap $suite into $tmp (~2 min)" >&2
if ! debootstrap --variant=minbase --include="$packages" "$suite" "$tmp" "$(mirror)" \
	>"$cache/guest/debootstrap.log" 2>&1; then
	tail -n 20 "$cache/guest/debootstrap.log" >&2
	die "debootstrap failed (log: $cache/guest/debootstrap.log)"
fi

# Settings of a test machine: no root password on the serial console, no
# network wait, a fixed hostname, the root filesystem in fstab.
chroot "$tmp" passwd -d root >/dev/null
echo kdump-guest >"$tmp/etc/hostname"
printf '/dev/vda / ext4 rw,errors=remount-ro 0 1\n' >"$tmp/etc/fstab"
: >"$tmp/etc/machine-id"
for unit in apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer \
	e2scrub_reap.service fstrim.timer; do
	ln -sf /dev/null "$tmp/etc/systemd/system/$unit"
done
mkdir -p "$tmp/var/crash"
rm -rf "$tmp/var/cache/apt/archives"/*.deb "$tmp/var/lib/apt/lists"/*_Packages
touch "$tmp/.kdump-file-base"
rm -rf "$out"
mv "$tmp" "$out"
echo "$out"
