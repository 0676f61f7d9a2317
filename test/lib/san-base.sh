#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The root filesystem of the SAN scenarios on Debian's stock kernel:
# stock-base.sh's, with multipath-tools installed by apt-get, as on a
# SAN-attached Debian machine (multipathd enabled, no map until the guest
# configures one).  A base of its own, so that the other stock-kernel
# guests do not start multipathd at every boot.  Cached by the stock base
# and this script.
#
#   san-base.sh          build (or reuse) and print the rootfs directory
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib/derived-base.sh
. "$here/derived-base.sh"

sbase=$("$here/stock-base.sh")

# policy-rc.d keeps invoke-rc.d from starting multipathd in the chroot.
install_san() {
	local root=$1 t0=$SECONDS
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod 0755 "$root/usr/sbin/policy-rc.d"
	chroot "$root" apt-get update -q
	DEBIAN_FRONTEND=noninteractive chroot "$root" \
		apt-get install -y -q --no-install-recommends multipath-tools
	rm -f "$root/usr/sbin/policy-rc.d"
	echo "san-base: installed in $((SECONDS - t0)) s"
}

derived_base san-base "$(basename "$sbase")" install_san "$sbase"
