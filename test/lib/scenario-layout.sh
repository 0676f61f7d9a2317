#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Dumps on the disk layouts of real machines, on Debian's stock kernel: the
# guest puts /var/crash (or all of /var) on another disk's layout, enables
# kdump-file and crashes; the capture must open that layout by itself.  At
# the next boot the guest copies the newest dump to /root/fetched on the
# root disk, and the host checks it with crash(8) and makedumpfile(8).
#
#   scenario-layout.sh NAME LAYOUT [ours]
#
# ours: this project's kernel instead of the stock one, on the same rootfs.
# KDUMP_FILE_LAYOUT_CRASHKERNEL: the guest's crashkernel= (256M), for
# test/bench/layout-crashkernel.sh.
#
# LAYOUT:
#   lvm-xfs     /var/crash on xfs on an LVM logical volume (/dev/vdb); in the
#               same boot, a dump directory on LUKS (/dev/vdc) is refused
#               by kdump-file load and the loaded capture kernel stays
#   var-btrfs   all of /var in a btrfs subvolume mounted with subvol=, the
#               default subvolume being another one (/dev/vdb)
#   rounds      the root disk, with kdump-file's own capture initramfs
#               whose target chain an appended archive empties: the
#               fallback, driver rounds over sysfs matched against the
#               module plan's aliases, alone
#   md-raid1    /var/crash on ext4 on md RAID1 over /dev/vdb and /dev/vdc
#   md-raid1-degraded
#               the same array made in a first boot; the crash in a second
#               boot without /dev/vdc, the array started degraded; the
#               fetch boot with /dev/vdc back, which nothing may re-add
#   md-raid1-lost
#               md-raid1, /dev/vdc's backend deleted as the guest crashes:
#               the capture waits for the member, then runs the array
#               degraded; at the fetch boot /dev/vdc, back, stays out
#   md-raid5    /var/crash on ext4 on md RAID5 over /dev/vdb, /dev/vdc and
#               /dev/vdd
#   lvm-on-md   /var/crash on xfs on an LVM logical volume whose PV is md
#               RAID1 over /dev/vdb and /dev/vdc
#   luks-keyfile
#               /var/crash on ext4 on LUKS2 (/dev/vdb) that /etc/crypttab
#               opens with a key file on the root filesystem, in key slot
#               1 (slot 0 a passphrase, Argon2id): the capture opens it
#               with that key file; in the same boot, LUKS volumes the
#               capture could not open (/dev/vdc) are refused by load
#   multipath   /var/crash on ext4 on a multipath device (multipathd's
#               mpatha) over two paths to one disk, a LUN with one WWN
#               behind each of two virtio-scsi HBAs; the second path's
#               backend deleted as the guest crashes: the capture makes
#               the map over the path left
#   luks2-handoff
#               (ours) /var/crash on ext4 on LUKS2 (/dev/vdb) opened with
#               a passphrase, in no crypttab: the capture opens it with
#               the volume key the kernel hands over
#
# On md the host checks that kdump-file show and the capture name the
# array (its UUID as mdadm gives it, level, members) and that at the next
# boot the array is as it was before the crash; on LUKS, the volume by the
# UUID cryptsetup gives, and at the next boot its header unchanged.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/common.sh"

scenario_out "$1"
layout=$2
flavour=${3:-stock}
log "layout $layout, $flavour kernel, SeaBIOS, 1024 MiB, crashkernel=${KDUMP_FILE_LAYOUT_CRASHKERNEL:-256M}; output in $out"

if [ "$flavour" = ours ]; then
	# This project's kernel (RAID built in, no initrd) booted on the same
	# Debian rootfs, with its tools (mdadm, lvm2) and its module tree.
	kdir=$(kernel_dir)
	img=$("$KDUMP_FILE_LIB/guest-image.sh" "$kdir" "$("$KDUMP_FILE_LIB/stock-base.sh")")
	kernel=$kdir/bzImage
	initrd=()
	release=$(cat "$kdir/release")
elif [ "$layout" = multipath ]; then
	# multipath-tools on the stock rootfs (san-base.sh).
	img=$("$KDUMP_FILE_LIB/guest-image.sh" --stock "$("$KDUMP_FILE_LIB/san-base.sh")")
	stock_boot
else
	img=$(stock_image)
	stock_boot
fi
disk=$out/disk.img
scenario_disk "$img" "$disk"
# The extra disks, empty (sparse): 512 MiB each for md, vdb 512 MiB and
# vdc 64 MiB for LUKS, else vdb 1 GiB and vdc 64 MiB.
disks=(vdb vdc)
[ "$layout" != md-raid5 ] || disks+=(vdd)
[ "$layout" != luks2-handoff ] || disks=(vdb)
[ "$layout" != multipath ] || disks=()
rm -f "$out"/vd[b-z].img "$out/mpath.img"
case "$layout" in
multipath)
	truncate -s 512M "$out/mpath.img"
	;;
md-* | lvm-on-md)
	for d in "${disks[@]}"; do
		truncate -s 512M "$out/$d.img"
	done
	;;
luks*)
	truncate -s 512M "$out/vdb.img"
	[ "${#disks[@]}" = 1 ] || truncate -s 64M "$out/vdc.img"
	;;
*)
	truncate -s 1G "$out/vdb.img"
	truncate -s 64M "$out/vdc.img"
	;;
esac
con=$out/console.log

# boot STEP DISK...: one boot of the guest running STEP, with the extra
# disks named (vdb, vdc, ...: $out/DISK.img).  The guest names virtio disks
# in the order they are attached: leave out only the last ones, or the
# later ones take the names of those left out.
boot() {
	local step=$1 d rc=0
	shift
	local -a drives=()
	for d in "$@"; do
		drives+=(-drive "file=$out/$d.img,format=raw,if=virtio,id=$d")
	done
	drives+=("${mpath_paths[@]}" "${boot_extra[@]}")
	# shellcheck disable=SC2031 # stock_boot set them in this shell
	qemu_boot "$con" "${KDUMP_FILE_BOOT_TIMEOUT:-1500}" bios 1024 "$kernel" \
		"root=/dev/vda rw console=ttyS0 crashkernel=${KDUMP_FILE_LAYOUT_CRASHKERNEL:-256M} panic=-1 kdump_file_test=$step" \
		"$disk" "${initrd[@]}" "${drives[@]}" || rc=$?
	check_ended "$rc" "boot $step ended by itself (no timeout)"
}

# QEMU arguments boot() adds (a QMP socket).
boot_extra=()

# The multipath disk: one image reached through two virtio-scsi HBAs, a LUN
# behind each with the same WWN and serial, as a SAN array's two ports show
# one LUN (two drives on one file: QEMU's image locking off).
mpath_paths=()
mpath_wwn=0x5000c50015ea71ac
if [ "$layout" = multipath ]; then
	for i in 0 1; do
		mpath_paths+=(-device "virtio-scsi-pci,id=hba$i"
			-drive "file=$out/mpath.img,format=raw,if=none,id=path$i,file.locking=off"
			-device "scsi-hd,bus=hba$i.0,drive=path$i,wwn=$mpath_wwn,serial=KDMPATH0001,share-rw=on")
	done
fi

# lose_member DISK: when the guest says it is crashing, DISK's backend is
# deleted (drive_del): the device stays, every read of it fails, as when a
# disk dies with the crash.  The capture kernel finds the array short of
# that member.  Writes $out/lost when done; bounded by the boot's time.
lose_member() {
	local i=0
	while [ "$i" -lt 7500 ]; do
		if grep -q "KDUMP-FILE-TEST: crashing" "$con.serial" 2>/dev/null; then
			qmp_exec "$out/qmp.sock" 30 \
				"{\"execute\": \"human-monitor-command\", \"arguments\": {\"command-line\": \"drive_del $1\"}}" \
				>/dev/null && date -u +%T >"$out/lost"
			return 0
		fi
		sleep 0.2
		i=$((i + 1))
	done
}

# Lines of the console since the boot started last.
last_boot() {
	awk '/^=== boot /{buf=""} {buf=buf $0 "\n"} END{printf "%s", buf}' "$con"
}

# An md array's UUID as kdump-file writes it (8-4-4-4-12).
uuid_re='[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'

# check_md LOG LEVEL MODULE NOW TOTAL NAMES [degraded]: the checks of a
# boot that put /var/crash on the md array and crashed: kdump-file show
# names the array (NOW of TOTAL members present, NAMES) with the level's
# module, and the capture assembled it (degraded, if so said), both by
# the UUID mdadm --detail gave in that boot.
check_md() {
	local b=$1 level=$2 module=$3 now=$4 total=$5 names=$6 degraded=${7:+degraded }
	local mdadm_uuid show_uuid capture_uuid
	check "kdump-file.service active" grep -q "KDUMP-FILE-TEST: is-active: active" "$b"
	check "show: the array assembled ($level, $now of $total members: $names)" \
		grep -qE "KDUMP-FILE-TEST: +assemble md RAID array $uuid_re \($level, $now of $total members now: $names\)" "$b"
	if [ "$flavour" = ours ]; then
		check "show: $module built in, for the array" grep -qE "KDUMP-FILE-TEST: +built-in $module " "$b"
	else
		check "show: $module loaded for the array" grep -qE "KDUMP-FILE-TEST: +module $module " "$b"
	fi
	check "capture: the array assembled ${degraded}($level, $now of $total members)" \
		grep -qE "kdump-file: .* assembled RAID array $uuid_re as md[0-9]+ $degraded\($level, $now of $total members; resync frozen\)" "$b"
	# The UUIDs' hex digits: mdadm writes 8:8:8:8.
	mdadm_uuid=$(grep -m1 -oE "KDUMP-FILE-TEST: +UUID : [0-9a-f:]{35}" "$b" | sed 's/.* //' | tr -d :) || true
	show_uuid=$(grep -m1 -oE "assemble md RAID array $uuid_re" "$b" | sed 's/.* //' | tr -d -) || true
	capture_uuid=$(grep -m1 -oE "assembled RAID array $uuid_re" "$b" | sed 's/.* //' | tr -d -) || true
	log "md UUID: mdadm ${mdadm_uuid:-none}, show ${show_uuid:-none}, capture ${capture_uuid:-none}"
	check "show: the array named by its UUID" test "${mdadm_uuid:-none}" = "$show_uuid"
	check "capture: the array named by its UUID" test "${mdadm_uuid:-none}" = "$capture_uuid"
}

# check_refused LOG CASE LABEL WHAT REGEX: the checks of a kdump-file load
# that must be refused (luks_case CASE in the guest): exit 1, one error,
# naming the dump target on the dm-crypt device kdump-luks and matching
# REGEX (WHAT in words), and the capture kernel loaded before still loaded
# and named so.
check_refused() {
	local b=$1 name=$2 label=$3 what=$4 re=$5 line
	line=$(grep -m1 "KDUMP-FILE-TEST: case $name:" "$b" || true)
	log "$name: $line"
	check "$label: kdump-file load exits 1" grep -q "case $name: rc=1 " <<<"$line"
	check "$label: one error" grep -q " errors=1 " <<<"$line"
	check "$label: the capture kernel loaded before named as still loaded" \
		grep -q "KDUMP-FILE-TEST: $name load: kdump-file: still loaded: " "$b"
	check "$label: the message names dm-crypt and $what" \
		grep -qE "$name load: kdump-file: error: cannot use dump target /dev/[^ ]+ for the capture: it is on dm-crypt \(LUKS\) device kdump-luks .*$re" "$b"
	check "$label: the earlier capture kernel still loaded" \
		grep -qE "case $name: .* loaded=1 kernel-before=(/[^ ]+) kernel-after=\1\$" <<<"$line"
}

# check_luks LOG: the checks of a boot that put /var/crash on ext4 on the
# LUKS2 volume kdump-crypt (/dev/vdb) and crashed: dm_crypt among the
# modules kdump-file show names (built in on ours), the capture mounted the
# filesystem; sets luks_uuid, the volume's UUID as cryptsetup luksUUID
# gave it in that boot ("none" if it did not), for the layout's checks of
# show and the capture.
check_luks() {
	local b=$1
	luks_uuid=$(sed -n 's/.*KDUMP-FILE-TEST: luksUUID: //p' "$b" | head -n 1)
	[[ $luks_uuid =~ ^$uuid_re$ ]] || luks_uuid=none
	log "LUKS UUID: $luks_uuid"
	check "cryptsetup gave the volume's LUKS UUID" test "$luks_uuid" != none
	check "kdump-file.service active" grep -q "KDUMP-FILE-TEST: is-active: active" "$b"
	if [ "$flavour" = ours ]; then
		check "show: dm_crypt built in, for the volume" grep -qE "KDUMP-FILE-TEST: +built-in dm_crypt " "$b"
	else
		check "show: dm_crypt loaded for the volume" grep -qE "KDUMP-FILE-TEST: +module dm_crypt " "$b"
	fi
	check "capture: ext4 mounted" grep -qE "kdump-file: .* mounted UUID=.* ext4\)" "$b"
}

# The array's state in the fetch boot, expected by the layout below: how
# many members active (md_active), which (md_members), which not there
# (md_gone).
md_active=
md_members=
md_gone=
# Set by a layout on LUKS: the boot that crashed.
luks_boot=

case "$layout" in
lvm-xfs)
	boot layout-lvm-xfs "${disks[@]}"
	last_boot >"$out/boot1.log"
	b=$out/boot1.log
	check "kdump-file.service active" grep -q "KDUMP-FILE-TEST: is-active: active" "$b"
	check "show: dm_mod loaded for the LVM volume" \
		grep -qE "KDUMP-FILE-TEST: +module dm_mod +device-mapper, for LVM logical volume kdvg/dumps" "$b"
	check "show: xfs loaded for the filesystem" \
		grep -qE "KDUMP-FILE-TEST: +module xfs +filesystem xfs" "$b"
	check "show: virtio_blk loaded as the disk's driver" \
		grep -qE "KDUMP-FILE-TEST: +module virtio_blk +driver virtio_blk of virtio" "$b"
	check "show: the LVM volume activated" \
		grep -q "KDUMP-FILE-TEST:   activate LVM volume kdvg/dumps" "$b"
	check_refused "$b" luks "LUKS target" "the fix" unencrypted
	check "capture: the LVM volume activated" grep -q "kdump-file: .* activated LVM volume kdvg/dumps" "$b"
	check "capture: xfs mounted" grep -qE "kdump-file: .* mounted UUID=.* xfs\)" "$b"
	;;
var-btrfs)
	boot layout-var-btrfs "${disks[@]}"
	check "/var moved to a btrfs subvolume" grep -q "KDUMP-FILE-TEST: prepared: 1" "$con"
	boot layout-crash "${disks[@]}"
	last_boot >"$out/boot2.log"
	b=$out/boot2.log
	check "kdump-file.service active" grep -q "KDUMP-FILE-TEST: is-active: active" "$b"
	check "show: btrfs loaded for the filesystem" \
		grep -qE "KDUMP-FILE-TEST: +module btrfs +filesystem btrfs" "$b"
	check "show: the path inside the subvolume" grep -q "KDUMP-FILE-TEST:   path = /@var/crash" "$b"
	check "capture: btrfs mounted" grep -qE "kdump-file: .* mounted UUID=.* btrfs\)" "$b"
	check "capture: saved to the subvolume's crash directory" \
		grep -q "kdump-file: .* saving to /@var/crash/" "$b"
	;;
rounds)
	boot layout-rounds "${disks[@]}"
	last_boot >"$out/boot1.log"
	b=$out/boot1.log
	check "loaded with the initramfs without a chain" \
		grep -q "KDUMP-FILE-TEST:   initramfs     /root/rounds.img" "$b"
	check "capture: nothing loaded from a chain" bash -c "! grep -q 'loaded for the dump target' '$b'"
	check "capture: the rounds loaded the disk's drivers" \
		grep -qE "kdump-file: .* modules loaded: .*virtio_pci.*virtio_blk" "$b"
	;;
md-raid1)
	boot layout-md-raid1 vdb vdc
	last_boot >"$out/boot1.log"
	b=$out/boot1.log
	check_md "$b" raid1 raid1 2 2 "vdb vdc"
	check "capture: ext4 mounted" grep -qE "kdump-file: .* mounted UUID=.* ext4\)" "$b"
	md_active=2 md_members="vdb vdc"
	;;
md-raid1-degraded)
	boot layout-md-raid1-setup vdb vdc
	last_boot >"$out/boot1.log"
	check "the array and its filesystem prepared" grep -q "KDUMP-FILE-TEST: prepared: 1" "$out/boot1.log"
	boot layout-md-degraded-crash vdb
	last_boot >"$out/boot2.log"
	b=$out/boot2.log
	log "$(grep -m1 "KDUMP-FILE-TEST: md: .*started by the test" "$b" ||
		echo "the array started degraded by the system (mdadm-last-resort@.timer)")"
	check "the array running degraded, /dev/vdb alone" \
		grep -qE "KDUMP-FILE-TEST: md: .*active (\(auto-read-only\) )?raid1 vdb\[0\] .*\[2/1\] \[U_\]" "$b"
	check_md "$b" raid1 raid1 1 2 vdb degraded
	check "capture: ext4 mounted" grep -qE "kdump-file: .* mounted UUID=.* ext4\)" "$b"
	md_active=1 md_members=vdb md_gone=vdc
	;;
md-raid1-lost)
	boot_extra=(-qmp "unix:$out/qmp.sock,server=on,wait=off")
	lose_member vdc &
	watcher=$!
	boot layout-md-raid1 vdb vdc
	wait "$watcher" || true
	boot_extra=()
	last_boot >"$out/boot1.log"
	b=$out/boot1.log
	check "vdc's backend deleted as the guest crashed" test -s "$out/lost"
	check "show: the array assembled (raid1, 2 of 2 members: vdb vdc)" \
		grep -qE "KDUMP-FILE-TEST: +assemble md RAID array $uuid_re \(raid1, 2 of 2 members now: vdb vdc\)" "$b"
	check "capture: waited for the lost member, then started the array degraded" \
		grep -qE "kdump-file: .* RAID array $uuid_re still lacks members after 10s: starting it degraded" "$b"
	check "capture: the array assembled degraded (raid1, 1 of 2 members)" \
		grep -qE "kdump-file: .* assembled RAID array $uuid_re as md[0-9]+ degraded \(raid1, 1 of 2 members; resync frozen\)" "$b"
	check "capture: ext4 mounted" grep -qE "kdump-file: .* mounted UUID=.* ext4\)" "$b"
	# vdc comes back at the next boot with an older superblock: nothing
	# may add it back by itself.
	md_active=1 md_members=vdb md_gone=vdc
	;;
md-raid5)
	boot layout-md-raid5 vdb vdc vdd
	last_boot >"$out/boot1.log"
	b=$out/boot1.log
	check_md "$b" raid5 raid456 3 3 "vdb vdc vdd"
	check "capture: ext4 mounted" grep -qE "kdump-file: .* mounted UUID=.* ext4\)" "$b"
	md_active=3 md_members="vdb vdc vdd"
	;;
lvm-on-md)
	boot layout-lvm-on-md vdb vdc
	last_boot >"$out/boot1.log"
	b=$out/boot1.log
	check_md "$b" raid1 raid1 2 2 "vdb vdc"
	check "show: the LVM volume activated" \
		grep -qE "KDUMP-FILE-TEST: +activate LVM volume kdvg2/dumps" "$b"
	check "show: dm_mod loaded for the LVM volume" \
		grep -qE "KDUMP-FILE-TEST: +module dm_mod +device-mapper, for LVM logical volume kdvg2/dumps" "$b"
	check "capture: the LVM volume activated" grep -q "kdump-file: .* activated LVM volume kdvg2/dumps" "$b"
	check "capture: the array assembled before the LVM volume activated" \
		awk '!a && /kdump-file: .* assembled RAID array /{a=NR}
			!v && /kdump-file: .* activated LVM volume kdvg2\/dumps/{v=NR}
			END{exit !(a && v && a < v)}' "$b"
	check "capture: xfs mounted" grep -qE "kdump-file: .* mounted UUID=.* xfs\)" "$b"
	md_active=2 md_members="vdb vdc"
	;;
luks-keyfile)
	boot layout-luks-keyfile "${disks[@]}"
	last_boot >"$out/boot1.log"
	b=$out/boot1.log
	check_luks "$b"
	check "the key file opens key slot 1" grep -q "KDUMP-FILE-TEST: the key file opens key slot 1\$" "$b"
	check "key slot 0 (the passphrase) Argon2id at 256 MiB" \
		grep -q "KDUMP-FILE-TEST: keyslot 0: argon2id memory 262144\$" "$b"
	check "key slot 1 (the key file) PBKDF2" grep -q "KDUMP-FILE-TEST: keyslot 1: pbkdf2\$" "$b"
	# The filesystem of the key file: "TYPE UUID" (the root's).
	keyfs=$(sed -n 's/.*KDUMP-FILE-TEST: key file on: //p' "$b" | head -n 1)
	log "key file on: ${keyfs:-unknown}"
	keyfs=${keyfs:-none none}
	check "show: unlocks with the key file crypttab names (key slot 1, pbkdf2, on ${keyfs%% *})" \
		grep -qE "KDUMP-FILE-TEST: +unlock LUKS2 device $luks_uuid as kdump-crypt with key file /etc/keys/dump\.key \(key slot 1, pbkdf2, read in place on ${keyfs%% *} UUID=${keyfs#* }\)" "$b"
	check "capture: unlocked with the key file (key slot 1)" \
		grep -qE "kdump-file: .* unlocked LUKS2 device $luks_uuid \(/dev/vdb\) as kdump-crypt with key file /etc/keys/dump\.key \(key slot 1\)" "$b"
	check_refused "$b" not-listed "LUKS not in crypttab" "/etc/crypttab" /etc/crypttab
	check_refused "$b" passphrase "LUKS with a passphrase" "the passphrase" passphrase
	check_refused "$b" argon2 "LUKS key slot with Argon2id at 128 MiB" "luksConvertKey" \
		"luksConvertKey .*--pbkdf pbkdf2"
	check_refused "$b" encrypted-key "LUKS key file on the volume itself" "the key file" \
		"/mnt/luks/keys/inner\.key"
	luks_boot=$b
	;;
multipath)
	boot_extra=(-qmp "unix:$out/qmp.sock,server=on,wait=off")
	lose_member path1 &
	watcher=$!
	boot layout-multipath
	wait "$watcher" || true
	boot_extra=()
	last_boot >"$out/boot1.log"
	b=$out/boot1.log
	mp_wwid=$(sed -n 's/.*KDUMP-FILE-TEST: mpath wwid: //p' "$b" | head -n 1)
	mp_uuid=$(sed -n 's/.*KDUMP-FILE-TEST: mpath uuid: //p' "$b" | head -n 1)
	log "multipath: WWID ${mp_wwid:-none}, dm uuid ${mp_uuid:-none}; $(grep -m1 -o 'mpath paths: .*' "$b" || echo 'no paths')"
	check "the paths' WWID is the LUN's WWN" test "${mp_wwid:-none}" = "naa.${mpath_wwn#0x}"
	check "multipathd made mpatha over the two paths" \
		grep -qE "KDUMP-FILE-TEST: mpath paths: sd[a-z] sd[a-z] \$" "$b"
	check "kdump-file.service active" grep -q "KDUMP-FILE-TEST: is-active: active" "$b"
	check "show: dm_multipath loaded for the map" \
		grep -qE "KDUMP-FILE-TEST: +module dm_multipath +dm-multipath, for multipath device mpatha" "$b"
	check "show: virtio_scsi loaded for the paths" \
		grep -qE "KDUMP-FILE-TEST: +module virtio_scsi +driver virtio_scsi of virtio[0-9]+ \(holds sd[a-z]\)" "$b"
	check "show: the map made over its paths" \
		grep -qF "make multipath device mpatha (${mp_uuid:-none}) over the readable paths of WWID ${mp_wwid:-none} (2 now: " "$b"
	check "path1's backend deleted as the guest crashed" test -s "$out/lost"
	check "capture: the map made over the path left" \
		grep -qE "kdump-file: .* made multipath device mpatha \(${mp_wwid:-none}\) as dm-[0-9]+ over 1 of 2 paths: sd[a-z] " "$b"
	check "capture: the failed path left out" \
		grep -qE "kdump-file: .* made multipath device mpatha .* \(left out: sd[a-z]: [^)]+\)" "$b"
	check "capture: ext4 mounted from the map, not a path" \
		grep -qE "kdump-file: .* mounted UUID=.* \(/dev/dm-[0-9]+, ext4\)" "$b"
	;;
luks2-handoff)
	boot layout-luks2-handoff "${disks[@]}"
	last_boot >"$out/boot1.log"
	b=$out/boot1.log
	check_luks "$b"
	check "show: unlocks with the volume key the kernel hands over" \
		grep -qE "KDUMP-FILE-TEST: +unlock LUKS2 device $luks_uuid as kdump-crypt with the volume key the kernel hands over \(no key file, no key derivation\)" "$b"
	kernel_dev=$(sed -n 's/.*KDUMP-FILE-TEST: crash_dm_crypt_device: //p' "$b" | head -n 1)
	dm_dev=$(sed -n 's/.*KDUMP-FILE-TEST: kdump-crypt device: *//p' "$b" | head -n 1)
	log "/sys/kernel/crash_dm_crypt_device: ${kernel_dev:-none}; kdump-crypt: ${dm_dev:-none}"
	[[ $dm_dev =~ ^[0-9]+:[0-9]+$ ]] || dm_dev=none
	check "load: kdump-crypt's MAJ:MIN in /sys/kernel/crash_dm_crypt_device" \
		test "$dm_dev" = "${kernel_dev:-missing}"
	check "capture: unlocked with the volume key from the kernel" \
		grep -qE "kdump-file: .* unlocked LUKS2 device $luks_uuid \(/dev/vdb\) as kdump-crypt with the volume key from the kernel" "$b"
	check "capture: the kernel's copy of the volume key wiped once read, before the unlock" \
		awk '!w && /kdump-file: .* the kernel.s copy of the volume key is wiped/{w=NR}
			w && !u && /kdump-file: .* unlocked LUKS2 device .* with the volume key from the kernel/{u=NR}
			END{exit !(u && w)}' "$b"
	luks_boot=$b
	;;
*)
	echo "usage: scenario-layout.sh NAME lvm-xfs|var-btrfs|rounds|md-raid1|md-raid1-degraded|md-raid1-lost|md-raid5|lvm-on-md|multipath|luks-keyfile|luks2-handoff [ours]" >&2
	exit 2
	;;
esac
check "capture completed" grep -q "kdump-file: .* capture complete" "$b"
modules=$(sed -n 's/.*kdump-file: .* modules loaded: //p' "$b" | tail -n 1)
log "the capture loaded: ${modules:-nothing}"

boot layout-fetch "${disks[@]}"
last_boot >"$out/fetch.log"
check "the first kernel sees the dump" grep -q "KDUMP-FILE-TEST: fetched: .*vmcore" "$out/fetch.log"
if [ -n "$md_active" ]; then
	f=$out/fetch.log
	log "the array at the next boot: $(sed -n 's/.*KDUMP-FILE-TEST: md after: State : //p' "$f")"
	log "$(grep -m1 "KDUMP-FILE-TEST: md: .*started by the test" "$f" ||
		echo "the array started by the system at the next boot")"
	check "next boot: $md_active members active, as before the crash" \
		grep -q "KDUMP-FILE-TEST: md after: Active Devices : $md_active\$" "$f"
	check "next boot: $md_active members working (none added)" \
		grep -q "KDUMP-FILE-TEST: md after: Working Devices : $md_active\$" "$f"
	check "next boot: no member failed" grep -q "KDUMP-FILE-TEST: md after: Failed Devices : 0\$" "$f"
	check "estimate counts the array" \
		grep -qE "KDUMP-FILE-TEST: +md RAID +[0-9.]+ MiB +\(1 array: mdadm" "$f"
	for d in $md_members; do
		check "next boot: $d an active member" \
			grep -qE "KDUMP-FILE-TEST: md after: [0-9]+ .* active sync.* /dev/$d\$" "$f"
	done
	for d in $md_gone; do
		check "next boot: $d, stale, not added back" \
			bash -c "! grep -q 'KDUMP-FILE-TEST: md after: .*/dev/$d\$' '$f'"
		check "next boot: its slot still empty" grep -qE "KDUMP-FILE-TEST: md after: - .* removed\$" "$f"
	done
fi
if [ -n "$luks_boot" ]; then
	f=$out/fetch.log
	log "$(grep -m1 -E "KDUMP-FILE-TEST: luks: /var/crash (mounted after|not mounted after 90 s)" "$f" ||
		echo "the volume opened and mounted by the test's passphrase")"
	hdr_before=$(sed -n 's/.*KDUMP-FILE-TEST: luks header before: //p' "$luks_boot" | head -n 1)
	hdr_after=$(sed -n 's/.*KDUMP-FILE-TEST: luks header after: //p' "$f" | head -n 1)
	log "LUKS header: before the crash ${hdr_before:-none}; at the next boot ${hdr_after:-none}"
	check "next boot: the LUKS header as it was before the crash" \
		test "${hdr_before:-none}" = "${hdr_after:-missing}"
	check "estimate counts the LUKS volume" grep -qE "KDUMP-FILE-TEST: +LUKS +[0-9.]+ MiB" "$f"
fi
if [ "$layout" = multipath ]; then
	f=$out/fetch.log
	log "$(grep -m1 -E "KDUMP-FILE-TEST: mpath: /var/crash (mounted after|not mounted after 30 s)" "$f" || echo "mpath: /var/crash not mounted")"
	check "next boot: multipathd made mpatha over both paths again" \
		grep -qE "KDUMP-FILE-TEST: mpath paths: sd[a-z] sd[a-z] \$" "$f"
	check "estimate counts the multipath device" \
		grep -qE "KDUMP-FILE-TEST: +multipath +[0-9.]+ MiB +\(1 device: dm-multipath" "$f"
fi
dump_fetch "$disk" /root fetched "$out/dump"
if [ "$flavour" = ours ]; then
	vmlinux=$kdir/vmlinux
else
	vmlinux=$(stock_vmlinux) || fail "the stock kernel's vmlinux (stock-kernel.sh failed)"
fi
check "metadata names kernel $release" \
	grep -q "\"kernel_release\": \"$release\"" "$out/dump/metadata.json"
check_dump "$layout" "$vmlinux" "$out/dump"
rm -f "$disk" "$out"/vd[b-z].img "$out/mpath.img"
finish
