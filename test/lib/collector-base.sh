#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The root filesystem of the network scenarios' collector: the guest's base
# rootfs (guest-base.sh) with an SSH server, an NFS server and Debian's
# stock kernel (stock-kernel.sh) with its initramfs-tools initrd installed
# by apt-get.  The stock kernel, not ours: ours has no NFS server (nfsd),
# Debian's has it as a module.  On top of the packages, what every
# collector has: a user kdump (uid 1000) whose home is /home/kdump,
# /srv/dumps (kdump's, for SSH targets), /srv/nfs exported read-write with
# no_root_squash to 10.0.0.0/16 (NFSv4 and v3), /srv/done and /srv/ready
# (the scenarios' clients report there), sshd with only an ed25519 host key
# (guest-image.sh --collector puts the fixed one in), and in /srv/dumps the
# dump of another machine, which no client may see through its key.
# Cached by the base, the kernel package and this script.
#
#   collector-base.sh      build (or reuse) and print the rootfs directory
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib/derived-base.sh
. "$here/derived-base.sh"

stock=$("$here/stock-kernel.sh" --no-dbg)
release=$(cat "$stock/release")
deb=$(find "$stock" -maxdepth 1 -name 'linux-image-*.deb' | head -n 1)
[ -n "$deb" ] || {
	echo "collector-base: error: no kernel package in $stock" >&2
	exit 1
}

install_collector() {
	local root=$1 t0=$SECONDS f
	cp "$deb" "$root/tmp/"
	# No daemon may start in the chroot (openssh-server's postinst would
	# start sshd on the host's network namespace).
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod 0755 "$root/usr/sbin/policy-rc.d"
	chroot "$root" apt-get update -q
	DEBIAN_FRONTEND=noninteractive chroot "$root" \
		apt-get install -y -q initramfs-tools openssh-server nfs-kernel-server \
		"/tmp/$(basename "$deb")"
	rm -f "$root/usr/sbin/policy-rc.d" "$root/tmp/$(basename "$deb")"
	for f in "vmlinuz-$release" "initrd.img-$release"; do
		if [ ! -s "$root/boot/$f" ]; then
			echo "collector-base: error: the kernel package left no /boot/$f"
			return 1
		fi
	done

	echo collector >"$root/etc/hostname"
	chroot "$root" useradd -m -u 1000 -d /home/kdump -s /bin/sh kdump
	mkdir -p "$root/srv/dumps" "$root/srv/nfs" "$root/srv/done" "$root/srv/ready"
	chmod 0755 "$root/srv/nfs"
	chmod 0777 "$root/srv/done" "$root/srv/ready"
	# The dump of a machine no scenario runs: a client's "list" must
	# never show it.
	f=$root/srv/dumps/decoy-0123456789ab/2026-01-01-00:00:00
	mkdir -p "$f"
	echo '{"complete": true, "crash_time": "2026-01-01T00:00:00Z"}' >"$f/metadata.json"
	echo "the dump of another machine" >"$f/dmesg.txt"
	chmod 0700 "$root/srv/dumps/decoy-0123456789ab" "$f"
	chroot "$root" chown -R kdump:kdump /srv/dumps
	echo "/srv/nfs 10.0.0.0/16(rw,no_root_squash,no_subtree_check,insecure,sync)" \
		>"$root/etc/exports"
	# The host keys the package made are replaced by the fixed one.
	rm -f "$root"/etc/ssh/ssh_host_*
	cat >"$root/etc/ssh/sshd_config.d/kdump-file-test.conf" <<'EOC'
# The network scenarios' collector: one host key, a fixed one, so that a
# scenario can change it; key logins only.
HostKey /etc/ssh/ssh_host_ed25519_key
PermitRootLogin prohibit-password
PasswordAuthentication no
UseDNS no
EOC
	echo "collector-base: installed in $((SECONDS - t0)) s"
}

derived_base collector-base "$(basename "$stock")" install_collector
