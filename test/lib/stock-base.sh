#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The root filesystem of the guests on Debian's stock kernel: the guest's
# base rootfs (guest-base.sh) with initramfs-tools and the stock kernel
# package (stock-kernel.sh) installed by apt-get, as on a Debian machine,
# and the tools of the disk layouts the scenarios put dumps on (LVM, LUKS,
# xfs, btrfs, md RAID with mdadm), and GRUB's update-grub without a boot
# loader installed.
# The package's scripts make /boot/vmlinuz-<release> and, with
# initramfs-tools, /boot/initrd.img-<release>, the initrd the guest boots
# through.  The base's dracut-core stays beside initramfs-tools: the product
# makes its capture initramfs with dracut, the machine's boot initrd stays
# initramfs-tools'.  Cached by the base, the kernel package's name and
# version and this script.
#
#   stock-base.sh          build (or reuse) and print the rootfs directory
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib/derived-base.sh
. "$here/derived-base.sh"

stock=$("$here/stock-kernel.sh" --no-dbg)
release=$(cat "$stock/release")
deb=$(find "$stock" -maxdepth 1 -name 'linux-image-*.deb' | head -n 1)
[ -n "$deb" ] || {
	echo "stock-base: error: no kernel package in $stock" >&2
	exit 1
}

# mdadm, without the mail server it recommends (default-mta: exim4, a
# daemon at every boot of every guest on this base).  Its postinst would
# write mdadm.conf with the arrays it finds on every disk it sees, the build
# host's here (/proc and /dev are the host's), so the file is there first,
# with no arrays, as mkconf writes it; policy-rc.d keeps invoke-rc.d from
# starting its monitor in the chroot.  mdadm-shutdown.service is masked: at
# a guest's clean shutdown (TEST-32 reboots) it would build a dracut
# shutdown initramfs and end the boot through it.
install_mdadm() {
	local root=$1
	mkdir -p "$root/etc/mdadm"
	printf '%s\n' '# mdadm.conf, with no arrays yet (see mdadm.conf(5))' \
		'HOMEHOST <system>' 'MAILADDR root' >"$root/etc/mdadm/mdadm.conf"
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod 0755 "$root/usr/sbin/policy-rc.d"
	DEBIAN_FRONTEND=noninteractive chroot "$root" \
		apt-get install -y -q --no-install-recommends mdadm
	rm -f "$root/usr/sbin/policy-rc.d"
	ln -sf /dev/null "$root/etc/systemd/system/mdadm-shutdown.service"
}

install_stock() {
	local root=$1 t0=$SECONDS
	# apt-get installs a local package given by its path, with the
	# dependencies (linux-base, kmod) from the mirror.
	cp "$deb" "$root/tmp/"
	chroot "$root" apt-get update -q
	DEBIAN_FRONTEND=noninteractive chroot "$root" \
		apt-get install -y -q initramfs-tools lvm2 cryptsetup-bin xfsprogs \
		btrfs-progs grub2-common "/tmp/$(basename "$deb")"
	install_mdadm "$root"
	# update-grub writes /boot/grub/grub.cfg (the guests boot with QEMU's
	# -kernel; the package scenario reads the command line from it).
	mkdir -p "$root/boot/grub"
	rm -f "$root/tmp/$(basename "$deb")"
	local f
	for f in "vmlinuz-$release" "initrd.img-$release"; do
		if [ ! -s "$root/boot/$f" ]; then
			echo "stock-base: error: the kernel package left no /boot/$f"
			return 1
		fi
	done
	echo "stock-base: installed in $((SECONDS - t0)) s"
}

derived_base stock-base "$(basename "$stock")" install_stock
