#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install, with apt-get, what building and testing kdump-file needs and this
# machine lacks.  Does nothing when everything is there.
set -euo pipefail

packages=(
	# the product
	build-essential pkg-config libblkid-dev libmount-dev libkmod-dev zlib1g-dev
	libjson-c-dev libsystemd-dev libssl-dev libcryptsetup-dev
	libkdumpfile-dev
	# the kernel build
	linux-source-6.1 flex bison bc libelf-dev libssl-dev rsync cpio
	kmod xz-utils python3
	# guests and their disks
	qemu-system-x86 ovmf debootstrap e2fsprogs
	# the capture, the analysis and the checks
	makedumpfile crash dracut-core sbsigntool shellcheck clang
	libclang-rt-14-dev gnuplot-nox jq file
	# the Debian package (make deb)
	debhelper lintian
)

missing=()
for p in "${packages[@]}"; do
	case "$p" in \#*) continue ;; esac
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
		missing+=("$p")
	fi
done
[ "${#missing[@]}" -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: error: missing packages: ${missing[*]}; run as root (apt-get install)" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}" >&2
apt-get update -q >&2
DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >&2
