# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Root filesystems derived from the guest's base (guest-base.sh): a copy of
# it into which packages are installed with apt-get in a chroot, as a user
# installs them on a Debian machine.  The base itself is never changed: the
# scenarios on our kernel keep using it.  Sourced by test/lib/stock-base.sh
# and test/bench/peer-base.sh.

# derived_base NAME KEYTEXT INSTALL [BASE]: print
# $KDUMP_FILE_CACHE/guest/NAME-<key>, building it first when it is not there
# from BASE (default: guest-base.sh's rootfs).  <key> is a hash of the base's
# path (which carries the base's own key), KEYTEXT (what else decides the
# content, e.g. a package version), the calling script and this file.
# INSTALL is a function, called with the copy's path, that runs apt-get in
# it; its output goes to NAME.log next to the copy.  /proc, /sys and /dev
# are mounted in the copy meanwhile (package scripts such as the initramfs
# builders look there).
#
# The calling script's last step: it takes the script's file descriptor 9
# (the lock) and its EXIT trap (the unmounts), and relies on set -e, so it
# must not be called in a condition (where bash ignores set -e).
derived_base() {
	local name=$1 keytext=$2 install=$3 base=${4:-}
	local cache=${KDUMP_FILE_CACHE:-/var/cache/kdump-file} lib key out
	lib=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	[ -n "$base" ] || base=$("$lib/guest-base.sh")
	key=$({
		echo "$base $keytext"
		sha256sum <"$0"
		sha256sum <"${BASH_SOURCE[0]}"
	} | sha256sum | cut -c1-16)
	out=$cache/guest/$name-$key
	if [ -f "$out/.kdump-file-$name" ]; then
		echo "$out"
		return 0
	fi
	exec 9>"$cache/guest/.$name.lock"
	flock 9
	if [ -f "$out/.kdump-file-$name" ]; then
		echo "$out"
		return 0
	fi

	DERIVED_DIR=$out.tmp
	DERIVED_LOG=$cache/guest/$name.log
	trap 'derived_base_exit $?' EXIT
	derived_base_umount
	# --one-file-system: should an unmount have failed, the host's /dev
	# below the copy is left alone.
	rm -rf --one-file-system "$DERIVED_DIR"
	cp -a "$base" "$DERIVED_DIR"
	rm -f "$DERIVED_DIR"/.kdump-file-*
	# The mirror debootstrap wrote into the base's sources.list; the
	# host's resolver for the download.
	cp /etc/resolv.conf "$DERIVED_DIR/etc/resolv.conf"
	echo "derived-base: building $DERIVED_DIR (log: $DERIVED_LOG)" >&2
	mount -t proc proc "$DERIVED_DIR/proc"
	mount -t sysfs sysfs "$DERIVED_DIR/sys"
	mount --bind /dev "$DERIVED_DIR/dev"
	"$install" "$DERIVED_DIR" >"$DERIVED_LOG" 2>&1
	derived_base_umount
	: >"$DERIVED_DIR/etc/resolv.conf"
	rm -rf "$DERIVED_DIR/var/cache/apt/archives"/*.deb "$DERIVED_DIR/var/lib/apt/lists"/*_Packages
	touch "$DERIVED_DIR/.kdump-file-$name"
	rm -rf "$out"
	mv "$DERIVED_DIR" "$out"
	echo "$out"
}

# The EXIT trap of derived_base: unmount, and on failure say where the log is.
derived_base_exit() {
	derived_base_umount
	if [ "$1" -ne 0 ]; then
		tail -n 20 "$DERIVED_LOG" >&2 2>/dev/null || true
		echo "derived-base: error: building $DERIVED_DIR failed (log: $DERIVED_LOG)" >&2
	fi
}

# What derived_base mounted below the copy.
derived_base_umount() {
	local m
	for m in dev sys proc; do
		if mountpoint -q "$DERIVED_DIR/$m"; then
			umount "$DERIVED_DIR/$m" || umount -l "$DERIVED_DIR/$m"
		fi
	done
}
