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
#   peer-base.sh --stock  the same on Debian's stock kernel: kdump-tools
#                         installed into stock-base.sh's rootfs
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
packages=(kdump-tools kexec-tools)
# shellcheck source=test/lib/derived-base.sh
. "$here/../lib/derived-base.sh"

install_peer() {
	local root=$1
	echo "kdump-tools kdump-tools/use_kdump boolean true" |
		chroot "$root" debconf-set-selections
	chroot "$root" apt-get update -q
	DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -y -q "${packages[@]}"
	if ! grep -q '^USE_KDUMP=1' "$root/etc/default/kdump-tools"; then
		echo "peer-base: error: kdump-tools is installed but not enabled (USE_KDUMP=1 missing in /etc/default/kdump-tools)"
		return 1
	fi
}

if [ "${1:-}" = --stock ]; then
	stock_base=$("$here/../lib/stock-base.sh")
	derived_base peer-stock-base "${packages[*]}" install_peer "$stock_base"
else
	derived_base peer-base "${packages[*]}" install_peer
fi
