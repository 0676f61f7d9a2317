#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The SSH keys of the network scenarios, made once with ssh-keygen and kept
# in the test cache (never in the repository), so that every collector image
# has the same host key and a scenario can swap it for the second one to
# test the pinning of kdump-file propagate:
#
#   host_ed25519, host_ed25519.pub         the collector's host key
#   host2_ed25519, host2_ed25519.pub       the key it changes to
#   admin_ed25519, admin_ed25519.pub       the administrator's own key: the
#                                          public half in root's and kdump's
#                                          authorized_keys on the collector,
#                                          the private half in the clients'
#                                          /root/.ssh/id_ed25519
#
#   net-keys.sh          make (or reuse) them and print the directory
set -euo pipefail

cache=${KDUMP_FILE_CACHE:-/var/cache/kdump-file}
dir=$cache/net/keys
if [ -f "$dir/done" ]; then
	echo "$dir"
	exit 0
fi
mkdir -p "$cache/net"
exec 9>"$cache/net/.keys.lock"
flock 9
if [ ! -f "$dir/done" ]; then
	rm -rf "$dir.tmp"
	mkdir -m 0700 "$dir.tmp"
	ssh-keygen -q -t ed25519 -N "" -C "kdump-file-test collector" -f "$dir.tmp/host_ed25519"
	ssh-keygen -q -t ed25519 -N "" -C "kdump-file-test collector" -f "$dir.tmp/host2_ed25519"
	ssh-keygen -q -t ed25519 -N "" -C "kdump-file-test admin" -f "$dir.tmp/admin_ed25519"
	touch "$dir.tmp/done"
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
fi
echo "$dir"
