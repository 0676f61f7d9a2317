#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest disk image: the cached base rootfs (guest-base.sh), our kernel
# under /boot with its modules, the product from "make install DESTDIR=...",
# and the scenario driver, made into an ext4 image with mkfs.ext4 -d (no
# mount).  Cached by a hash of its inputs; a product change costs seconds.
#
#   guest-image.sh KERNEL_DIR [BASE]   print the path of the image; BASE is
#                                      another rootfs than guest-base.sh's
#                                      (the benchmark's peer)
#   guest-image.sh --stock [BASE]      the same on stock-base.sh's rootfs,
#                                      which has Debian's stock kernel and
#                                      its initrd in /boot already: nothing
#                                      of our kernel goes in; BASE is a
#                                      rootfs derived from it (the
#                                      benchmark's peer on that kernel)
#   guest-image.sh --stock-deb DEB KERNEL_DEB VMLINUX
#                                      stock-base.sh's rootfs with the
#                                      product's package DEB in /root, not
#                                      installed, the stock kernel's package
#                                      KERNEL_DEB beside it and its VMLINUX
#                                      under /usr/lib/debug/.build-id
#   guest-image.sh --collector         the network scenarios' collector:
#                                      collector-base.sh's rootfs (Debian's
#                                      stock kernel, sshd, the NFS server)
#                                      with the product and the keys of
#                                      net-keys.sh
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${KDUMP_FILE_CACHE:-/var/cache/kdump-file}
size=${KDUMP_FILE_IMAGE_SIZE:-3G}

die() {
	echo "guest-image: error: $*" >&2
	exit 1
}

deb=
vmlinux=
collector=0
if [ "${1:-}" = --stock ]; then
	kdir=
	base=${2:-$("$here/stock-base.sh")}
elif [ "${1:-}" = --stock-deb ]; then
	# The package scenario: the stock rootfs with kdump-file's .deb in
	# /root, not installed, and the stock kernel's package and vmlinux
	# (where its build ID names it, as a -dbg package links it).
	kdir=
	base=$("$here/stock-base.sh")
	deb=${2:?usage: guest-image.sh --stock-deb DEB KERNEL_DEB VMLINUX}
	kdeb=${3:?usage: guest-image.sh --stock-deb DEB KERNEL_DEB VMLINUX}
	vmlinux=${4:?usage: guest-image.sh --stock-deb DEB KERNEL_DEB VMLINUX}
elif [ "${1:-}" = --collector ]; then
	kdir=
	base=$("$here/collector-base.sh")
	collector=1
else
	kdir=${1:?usage: guest-image.sh KERNEL_DIR [BASE] | guest-image.sh --stock}
	[ -f "$kdir/done" ] || die "$kdir is not a finished kernel build"
	base=${2:-$("$here/guest-base.sh")}
	release=$(cat "$kdir/release")
fi

# The product, installed into a layer directory.
layer=$(mktemp -d "${TMPDIR:-/tmp}/kdump-file-layer.XXXXXX")
trap 'rm -rf "$layer"' EXIT
if [ -n "$deb" ]; then
	install -D -m 0644 "$deb" "$layer/root/$(basename "$deb")"
	install -D -m 0644 "$kdeb" "$layer/root/$(basename "$kdeb")"
	id=$(readelf -n "$vmlinux" | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p' | head -n 1)
	[ -n "$id" ] || die "$vmlinux has no build ID"
	install -D -m 0644 "$vmlinux" "$layer/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug"
else
	make -s -C "$top" install DESTDIR="$layer" >/dev/null ||
		die "make install DESTDIR=$layer failed"
fi
if [ "$collector" = 1 ]; then
	# The fixed host key, its replacement (a scenario swaps them to test
	# the pinning), and the administrator's key for root and kdump (the
	# guest step makes kdump own its .ssh: kdump-file-receive --authorize
	# rewrites its authorized_keys as kdump).
	keys=$("$here/net-keys.sh")
	install -D -m 0600 "$keys/host_ed25519" "$layer/etc/ssh/ssh_host_ed25519_key"
	install -D -m 0644 "$keys/host_ed25519.pub" "$layer/etc/ssh/ssh_host_ed25519_key.pub"
	install -D -m 0600 "$keys/host2_ed25519" "$layer/etc/ssh/kdump-file-test/ssh_host_ed25519_key"
	install -D -m 0644 "$keys/host2_ed25519.pub" "$layer/etc/ssh/kdump-file-test/ssh_host_ed25519_key.pub"
	install -D -m 0600 "$keys/admin_ed25519.pub" "$layer/root/.ssh/authorized_keys"
	install -D -m 0600 -o 1000 -g 1000 "$keys/admin_ed25519.pub" "$layer/home/kdump/.ssh/authorized_keys"
	# rsync -a below gives the base's directories the layer's owners
	# and modes: those of the rootfs.
	chmod 0700 "$layer/root" "$layer/root/.ssh" "$layer/home/kdump/.ssh"
	chown 1000:1000 "$layer/home/kdump" "$layer/home/kdump/.ssh"
	# Loading AppArmor's profiles (the stock kernel's package recommends
	# apparmor) takes a minute of the collector's boot under TCG, and the
	# scenarios wait for the collector before any client starts.
	mkdir -p "$layer/etc/systemd/system"
	ln -sf /dev/null "$layer/etc/systemd/system/apparmor.service"
fi
install -D -m 0755 "$here/guest-driver.sh" "$layer/usr/local/sbin/kdump-file-test-driver"
install -D -m 0644 "$here/kdump-file-test.service" \
	"$layer/etc/systemd/system/kdump-file-test.service"
mkdir -p "$layer/etc/systemd/system/multi-user.target.wants"
ln -sf ../kdump-file-test.service \
	"$layer/etc/systemd/system/multi-user.target.wants/kdump-file-test.service"
for f in "$here"/guest-steps/*.sh; do
	[ -e "$f" ] || continue
	install -D -m 0644 "$f" "$layer/usr/local/lib/kdump-file-test/steps/$(basename "$f")"
done
# The test modules are built against our kernel only.
if [ -n "$kdir" ]; then
	for m in "$kdir"/test-modules/*.ko; do
		[ -e "$m" ] || continue
		install -D -m 0644 "$m" "$layer/usr/local/lib/kdump-file-test/$(basename "$m")"
	done
fi

key=$({
	echo "$base $size"
	if [ -n "$kdir" ]; then
		cat "$kdir/done" "$kdir/release"
		basename "$kdir"
	fi
	(cd "$layer" && find . -type f -print0 | sort -z | xargs -0 sha256sum)
	(cd "$layer" && find . -printf '%p %m %l\n' | sort)
} | sha256sum | cut -c1-16)
img=$cache/guest/image-$key.img
if [ -f "$img" ]; then
	echo "$img"
	exit 0
fi
# One lock per image: the images of different kinds build side by side.
lock=$cache/guest/.image-$key.lock
exec 9>"$lock"
flock 9
if [ -f "$img" ]; then
	echo "$img"
	exit 0
fi

stage=$cache/guest/stage-$key
rm -rf "$stage"
# Hard links: nothing below writes into a file of the base in place (rsync
# writes new files and renames them over).
cp -al "$base" "$stage"
if [ -n "$kdir" ]; then
	install -D -m 0644 "$kdir/bzImage" "$stage/boot/vmlinuz-$release"
	install -D -m 0644 "$kdir/System.map" "$stage/boot/System.map-$release"
	install -D -m 0644 "$kdir/config" "$stage/boot/config-$release"
	rsync -a "$kdir/modules/lib/modules/" "$stage/usr/lib/modules/"
fi
# --keep-dirlinks: /lib and /sbin are symlinks into /usr on Debian 12.
rsync -aK "$layer/" "$stage/"
[ -z "$kdir" ] || chroot "$stage" depmod -a "$release"

tmp=$img.tmp
rm -f "$tmp"
truncate -s "$size" "$tmp"
mkfs.ext4 -q -F -L kdump-root -d "$stage" "$tmp" || die "mkfs.ext4 -d $stage failed"
mv "$tmp" "$img"
rm -rf "$stage" "$lock"
# Keep the newest few images only.
# shellcheck disable=SC2012 # names are hex keys, ls -t is safe here
ls -1t "$cache"/guest/image-*.img 2>/dev/null | tail -n +9 | xargs -r rm -f
echo "$img"
