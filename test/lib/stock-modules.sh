#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The test modules that work on Debian's stock kernel (kdump_file_oops,
# kdump_file_himark), built against that kernel's headers package, which is
# installed with apt-get on this machine when missing (headers only: nothing
# is loaded here).  Cached by the kernel's release and the modules' sources.
#
#   stock-modules.sh   print the directory holding the .ko files
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# The others need our kernel (kernel-patches/); kdump_file_himark needs
# memory hotplug only, which Debian builds in.
modules=(kdump_file_oops kdump_file_himark)

die() {
	echo "stock-modules: error: $*" >&2
	exit 1
}

sdir=$("$here/stock-kernel.sh" --no-dbg)
release=$(cat "$sdir/release")
key=$( {
	echo "$release"
	for m in "${modules[@]}"; do sha256sum <"$top/test/modules/$m.c"; done
	sha256sum <"$0"
} | sha256sum | cut -c1-16)
out=$sdir/test-modules-$key
if [ -f "$out/done" ]; then
	echo "$out"
	exit 0
fi
exec 9>"$sdir/.modules.lock"
flock 9
if [ -f "$out/done" ]; then
	echo "$out"
	exit 0
fi

hdr=/usr/src/linux-headers-$release
if [ ! -f "$hdr/Makefile" ]; then
	echo "stock-modules: apt-get install linux-headers-$release" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "linux-headers-$release" >&2 ||
		die "cannot install linux-headers-$release"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/kdump-file-stock-modules.XXXXXX")
trap 'rm -rf "$work"' EXIT
for m in "${modules[@]}"; do
	cp "$top/test/modules/$m.c" "$work/"
	echo "obj-m += $m.o" >>"$work/Kbuild"
done
make -s -C "$hdr" M="$work" modules >&2 || die "building ${modules[*]} against $hdr failed"
rm -rf "$out.tmp"
mkdir -p "$out.tmp"
for m in "${modules[@]}"; do
	cp "$work/$m.ko" "$out.tmp/"
done
touch "$out.tmp/done"
mv "$out.tmp" "$out"
echo "$out"
