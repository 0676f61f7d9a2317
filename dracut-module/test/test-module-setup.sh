#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The stubs below are called by the sourced module alone.
# shellcheck disable=SC2317
# module-setup.sh's install() with dracut's functions replaced by ones that
# record what they are asked to install: sh goes in for failure_action =
# shell (KDUMP_FILE_SHELL=1) and for nothing else.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log=$work/installed
failed=0

# dracut's, as module-setup.sh uses them (dracut-init.sh).
inst_binary() { echo "binary $*" >> "$log"; }
inst_simple() {
    echo "simple $*" >> "$log"
    mkdir -p "$initdir${2%/*}" && : > "$initdir$2"
}
inst_multiple() { echo "multiple $*" >> "$log"; }
ln_r() { echo "link $*" >> "$log"; }
# Read by the sourced module.
# shellcheck disable=SC2034
initdir=$work/root

# Checked on its own (make check).
# shellcheck disable=SC1091
. "$here/../99kdump-file/module-setup.sh"

# run NAME EXPECT(yes|no) [VAR=VALUE ...]: install() in a subshell with
# the given environment, and whether it asked for sh.
run() {
    name=$1 expect=$2
    shift 2
    : > "$log"
    (
        unset KDUMP_FILE_SHELL KDUMP_FILE_INSTALL KDUMP_FILE_NET \
            KDUMP_FILE_CHAIN KDUMP_FILE_SSH_KEY
        for kv; do
            export "${kv?}"
        done
        install
    )
    if grep -qx 'binary sh' "$log"; then got=yes; else got=no; fi
    if [ "$got" = "$expect" ]; then
        echo "ok: $name"
    else
        echo "FAIL: $name: sh installed: $got, expected $expect" >&2
        sed 's/^/    /' "$log" >&2
        failed=1
    fi
}

run "reboot on failure: no sh" no
run "shell on failure: sh" yes KDUMP_FILE_SHELL=1
run "empty KDUMP_FILE_SHELL: no sh" no KDUMP_FILE_SHELL=
run "a script hook: its interpreter by inst_multiple, no sh" no \
    KDUMP_FILE_INSTALL=/etc/kdump-file/pre.sh
grep -qx 'multiple /etc/kdump-file/pre.sh' "$log" || {
    echo "FAIL: the hook is not installed with inst_multiple" >&2
    failed=1
}
run "an ssh target: no sh" no KDUMP_FILE_NET=ssh \
    KDUMP_FILE_SSH_KEY="$work/ssh/id_ed25519"
# The chain's layers bring their tools, and only they.
printf 'module raid1\nmd 3b1c2d4e-5f60-7182-93a4-b5c6d7e8f901\nlvm vg/dumps\n' \
    > "$work/chain-md-lvm"
printf 'module virtio_blk\n' > "$work/chain-plain"
printf 'module dm_crypt\nluks 01234567-89ab-cdef-0123-456789abcdef dumps kernel\nlvm vg/dumps\n' \
    > "$work/chain-luks-lvm"
printf 'module dm_multipath\nmpath mpath-3500 mpatha 8 2 naa.500\nmd 3b1c2d4e-5f60-7182-93a4-b5c6d7e8f901\n' \
    > "$work/chain-mpath-md"
printf 'net 52:54:00:00:43:02 10.0.43.2/24 -\nmodule iscsi_tcp\niscsi 1 10.0.43.1 3260 iqn.2026-12.test:dumps iqn.1993-08.org.debian:01:abc\n' \
    > "$work/chain-iscsi"
printf 'nic 52:54:00:00:44:02 virtio_net pci0000:00/0000:00:03.0/virtio0\nnic 52:54:00:00:44:12 virtio_net pci0000:00/0000:00:04.0/virtio1\nbond bond0 active-backup 100 52:54:00:00:44:02\nnet 52:54:00:00:44:02 10.0.1.2/24 -\ncollector 10.0.1.1\nhostdir h-0\n' \
    > "$work/chain-bond"
printf 'nic 52:54:00:00:45:02 virtio_net -\nvlan eth0.43 43\nnet 52:54:00:00:45:02 10.0.1.2/24 -\ncollector 10.0.1.1\nhostdir h-0\n' \
    > "$work/chain-vlan"
printf 'nic 52:54:00:00:46:02 virtio_net -\nnet 52:54:00:00:46:02 fd00:1::2/64 -\ncollector fd00:1::1\nhostdir h-0\n' \
    > "$work/chain-ipv6"
printf 'nic 52:54:00:00:30:02 virtio_net -\nnet 52:54:00:00:30:02 10.0.1.2/24 -\ncollector 10.0.1.1\nhostdir h-0\n' \
    > "$work/chain-net"
# tools CHAIN EXPECTED: the binaries install() asks for besides the
# capture's own, blank-separated, sorted.
tools() {
    run "chain $(basename "$1"): no sh" no KDUMP_FILE_CHAIN="$1"
    got=$(sed -n 's/^binary //p' "$log" |
        grep -vx -e /usr/lib/kdump-file/kdump-file-capture -e makedumpfile |
        sort | tr '\n' ' ')
    if [ "$got" = "$2" ]; then
        echo "ok: chain $(basename "$1"): $2"
    else
        echo "FAIL: chain $(basename "$1"): installed '$got', expected '$2'" >&2
        failed=1
    fi
}
tools "$work/chain-md-lvm" "lvm mdadm "
tools "$work/chain-plain" ""
tools "$work/chain-luks-lvm" "cryptsetup lvm "
# multipath: the capture makes the map itself, no dmsetup.
tools "$work/chain-mpath-md" "mdadm "
# iSCSI: iscsistart logs in, the capture brings the NIC up itself.
tools "$work/chain-iscsi" "iscsistart "
# A bond, a VLAN or IPv6 on the way: ip(8) builds it.
tools "$work/chain-bond" "ip "
tools "$work/chain-vlan" "ip "
tools "$work/chain-ipv6" "ip "
tools "$work/chain-net" ""
exit "$failed"
