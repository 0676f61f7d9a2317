#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The root filesystem of the SAN scenarios on Debian's stock kernel:
# stock-base.sh's, with multipath-tools, the open-iscsi initiator and the
# tgt iSCSI target installed by apt-get, as on a SAN-attached Debian
# machine: multipathd enabled, no map until the guest configures one;
# open-iscsi's units enabled as the package leaves them (iscsid started by
# its socket, open-iscsi.service logging in to the nodes that iscsiadm
# recorded with node.startup = automatic: none until the guest discovers
# a target); tgt.service disabled, so that no guest runs tgtd but the one
# that serves a LUN (it starts the unit itself).  Every guest on this base
# has the same initiator name, the one open-iscsi's postinst generated.
# A base of its own, so that the other stock-kernel guests do not start
# these daemons at every boot.  Cached by the stock base and this script.
#
#   san-base.sh          build (or reuse) and print the rootfs directory
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib/derived-base.sh
. "$here/derived-base.sh"

sbase=$("$here/stock-base.sh")

# policy-rc.d keeps invoke-rc.d from starting multipathd and tgtd in the
# chroot.  open-iscsi without busybox and finalrd, which it recommends for
# a root filesystem on iSCSI (the guests' root stays on /dev/vda).
install_san() {
	local root=$1 t0=$SECONDS
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod 0755 "$root/usr/sbin/policy-rc.d"
	chroot "$root" apt-get update -q
	DEBIAN_FRONTEND=noninteractive chroot "$root" \
		apt-get install -y -q --no-install-recommends multipath-tools \
		open-iscsi tgt
	rm -f "$root/usr/sbin/policy-rc.d"
	chroot "$root" systemctl disable tgt.service
	if [ ! -s "$root/etc/iscsi/initiatorname.iscsi" ]; then
		echo "san-base: error: open-iscsi left no initiator name"
		return 1
	fi
	echo "san-base: installed in $((SECONDS - t0)) s"
}

derived_base san-base "$(basename "$sbase")" install_san "$sbase"
