# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Guest steps of the iSCSI scenario (test/TEST-43-STOCK-ISCSI), sourced by
# the guest driver (which provides say, run and crash_now; net_dev is
# net.sh's, step_layout_crash layouts.sh's).  Two guests on san-base.sh's
# rootfs, their NICs joined by a QEMU stream netdev on the host's loopback:
# the target (MAC 52:54:00:00:43:01, 10.0.43.1/24) serves its /dev/vdb as
# LUN 1 of one iSCSI target with tgtd; the client (MAC 52:54:00:00:43:02,
# 10.0.43.2/24) logs in with open-iscsi, puts /var/crash on ext4 on that
# LUN and crashes; at its next boot it logs in and mounts it by itself.
#
# The target's kernel command line has kdump_file_iscsi_limit=SECONDS: it
# serves that long at most, then stops by itself (the host stops it sooner
# with the power button).

ISCSI_IQN=iqn.2026-12.test.kdump-file:dumps
ISCSI_TARGET_IP=10.0.43.1
ISCSI_CLIENT_IP=10.0.43.2

# iscsi_arg NAME: the value of kdump_file_iscsi_NAME= on the command line.
iscsi_arg() {
    sed -n "s/.*\\bkdump_file_iscsi_$1=\\([^ ]*\\).*/\\1/p" /proc/cmdline
}

# The initiators logged in to the target now, one "nexus N IP NAME" each
# (a new login is a new I_T nexus), from tgtadm's listing of the target.
iscsi_initiators() {
    tgtadm --lld iscsi --op show --mode target 2> /dev/null | awk '
        $1 == "I_T" && $2 == "nexus:" { nexus = $3 }
        $1 == "Initiator:" { name = $2 }
        $1 == "IP" && $2 == "Address:" { print "nexus " nexus " " $3 " " name }' |
        sort | tr '\n' ' '
}

# The target's end: what it still serves, then its LUN's writes on disk.
iscsi_target_end() {
    say "iscsi target: stopping ($1): initiators: $(iscsi_initiators)"
    sync
    blockdev --flushbufs /dev/vdb
    say "iscsi target: stopped"
}

# The target: 10.0.43.1/24 on its NIC, tgtd (tgt.service) serving
# /dev/vdb as LUN 1 of target iqn.2026-12.test.kdump-file:dumps to the
# client's address alone, until the time limit or the power button (the
# service's stop at shutdown, SIGTERM); meanwhile the initiators logged in
# are said each time they change.
step_iscsi_target() {
    limit=$(iscsi_arg limit)
    dev=$(net_dev 52:54:00:00:43:01) || {
        say "FAIL: iscsi target: no NIC with MAC 52:54:00:00:43:01"
        return 1
    }
    ip addr add "$ISCSI_TARGET_IP/24" dev "$dev"
    ip link set dev "$dev" up
    say "iscsi target: $dev $ISCSI_TARGET_IP/24"
    run systemctl start tgt || return 1
    run tgtadm --lld iscsi --op new --mode target --tid 1 -T "$ISCSI_IQN" || return 1
    run tgtadm --lld iscsi --op new --mode logicalunit --tid 1 --lun 1 -b /dev/vdb || return 1
    run tgtadm --lld iscsi --op bind --mode target --tid 1 -I "$ISCSI_CLIENT_IP" || return 1
    run tgtadm --lld iscsi --op show --mode target
    i=0
    while ! ss -Hltn 'sport = :3260' | grep -q . && [ "$i" -lt 60 ]; do
        sleep 1
        i=$((i + 1))
    done
    if [ "$i" -ge 60 ]; then
        say "FAIL: iscsi target: tgtd does not listen on port 3260"
        return 1
    fi
    trap 'iscsi_target_end "power button"; exit 0' TERM
    say "iscsi target ready"
    t0=$(date +%s)
    seen=
    while [ "$(($(date +%s) - t0))" -lt "${limit:-1800}" ]; do
        now=$(iscsi_initiators)
        if [ "$now" != "$seen" ]; then
            say "iscsi target: after $(($(date +%s) - t0)) s, initiators: ${now:-none}"
            seen=$now
        fi
        sleep 3
    done
    trap - TERM
    iscsi_target_end "time limit of $limit s"
}

# What the initiator side of open-iscsi offers the capture: iscsistart and
# its options, the initiator name, and the session's and connection's
# attributes in sysfs as root reads them, and the SCSI hosts' drivers.
iscsi_facts() {
    run sh -c 'command -v iscsistart; ls -l "$(command -v iscsistart)"'
    run iscsistart -h
    run cat /etc/iscsi/initiatorname.iscsi
    for f in /sys/class/iscsi_session/session*/targetname \
        /sys/class/iscsi_session/session*/tpgt \
        /sys/class/iscsi_session/session*/initiatorname \
        /sys/class/iscsi_session/session*/username \
        /sys/class/iscsi_connection/connection*/persistent_address \
        /sys/class/iscsi_connection/connection*/persistent_port; do
        run cat "$f"
    done
    run grep -H . /sys/class/scsi_host/host*/proc_name
    run sh -c 'for b in /sys/block/sd*; do readlink -f "$b"; done'
}

# What kdump-file.service said this boot (its journal): load's refusal, if
# it refused.
iscsi_unit_log() {
    journalctl -b -u kdump-file --no-pager -o cat 2> /dev/null | grep 'kdump-file' |
        while IFS= read -r line; do say "service: $line"; done
}

# The client: its address from a systemd-networkd .network file (the
# network configuration the base has, kept for later boots), the target
# discovered and logged in to with open-iscsi (node.startup = automatic:
# open-iscsi.service logs in at boot), ext4 on the LUN's disk, its fstab
# line for /var/crash (_netdev: mounted once the network is up; nofail),
# mounted; what the session is; then the crash (step_layout_crash).
step_layout_iscsi() {
    dev=$(net_dev 52:54:00:00:43:02) || {
        say "FAIL: iscsi: no NIC with MAC 52:54:00:00:43:02"
        return 1
    }
    say "iscsi: networkd before: $(systemctl is-enabled systemd-networkd 2>&1), wait-online $(systemctl is-enabled systemd-networkd-wait-online 2>&1)"
    say "iscsi: open-iscsi.service $(systemctl is-enabled open-iscsi 2>&1), iscsid.socket $(systemctl is-enabled iscsid.socket 2>&1), tgt.service $(systemctl is-enabled tgt 2>&1)"
    mkdir -p /etc/systemd/network
    printf '[Match]\nMACAddress=%s\n\n[Network]\nAddress=%s/24\n' \
        52:54:00:00:43:02 "$ISCSI_CLIENT_IP" > /etc/systemd/network/50-iscsi.network
    run systemctl enable systemd-networkd
    run systemctl restart systemd-networkd
    i=0
    while ! ip -4 -o addr show dev "$dev" | grep -q "inet $ISCSI_CLIENT_IP/24" && [ "$i" -lt 60 ]; do
        sleep 1
        i=$((i + 1))
    done
    say "iscsi: net: $dev $(ip -4 -o addr show dev "$dev" | awk '{ print $4 }') after $i s"
    i=0
    while ! ping -c 1 -W 2 "$ISCSI_TARGET_IP" > /dev/null 2>&1 && [ "$i" -lt 30 ]; do
        i=$((i + 1))
    done
    run iscsiadm -m discovery -t sendtargets -p "$ISCSI_TARGET_IP" || return 1
    run iscsiadm -m node -T "$ISCSI_IQN" -p "$ISCSI_TARGET_IP" \
        --op update -n node.startup -v automatic || return 1
    run iscsiadm -m node -T "$ISCSI_IQN" -p "$ISCSI_TARGET_IP" --login || return 1
    lun=/dev/disk/by-path/ip-$ISCSI_TARGET_IP:3260-iscsi-$ISCSI_IQN-lun-1
    i=0
    while [ ! -b "$lun" ] && [ "$i" -lt 60 ]; do
        sleep 1
        udevadm settle --timeout=10
        i=$((i + 1))
    done
    if [ ! -b "$lun" ]; then
        say "FAIL: iscsi: no $lun after 60 s"
        run ls -l /dev/disk/by-path
        return 1
    fi
    disk=$(readlink -f "$lun")
    say "iscsi: LUN 1 is $disk after $i s"
    run iscsiadm -m session -P 3
    say "iscsi target: $(iscsiadm -m session -P 3 | awk '$1 == "Target:" { print $2; exit }')"
    say "iscsi disk: $(iscsiadm -m session -P 3 | awk '/Attached scsi disk/ { print $4; exit }')"
    say "iscsi initiator: $(sed -n 's/^InitiatorName=//p' /etc/iscsi/initiatorname.iscsi)"
    run cat "/etc/iscsi/nodes/$ISCSI_IQN/$ISCSI_TARGET_IP,3260,1/default"
    iscsi_facts
    run mkfs.ext4 -q "$disk" || return 1
    fstab_add "$disk" /var/crash ext4 _netdev,nofail
    run grep /var/crash /etc/fstab
    run mount /var/crash || return 1
    say "iscsi: /var/crash on $(findmnt -n -o SOURCE,FSTYPE --target /var/crash)"
    step_layout_crash iscsi_unit_log
}

# The client's next boot, after the capture: open-iscsi.service logs in by
# itself (node.startup = automatic) once systemd-networkd gave the NIC its
# address, fstab mounts /var/crash from the LUN (_netdev); kdump-file.service,
# enabled, loads at boot: whether it started after that mount (both units'
# monotonic start times, in microseconds), what it said, what is loaded,
# and the dump the product sees.  No crash.
step_layout_iscsi_after() {
    i=0
    while ! findmnt /var/crash > /dev/null 2>&1 && [ "$i" -lt 120 ]; do
        sleep 1
        i=$((i + 1))
    done
    if findmnt /var/crash > /dev/null 2>&1; then
        say "iscsi after: /var/crash mounted after $i s"
    else
        say "iscsi after: /var/crash not mounted after $i s"
    fi
    say "iscsi after: open-iscsi.service $(systemctl is-active open-iscsi), networkd-wait-online $(systemctl is-active systemd-networkd-wait-online)"
    run iscsiadm -m session
    say "iscsi after: /var/crash on $(findmnt -n -o SOURCE,FSTYPE --target /var/crash)"
    # A oneshot unit still activating has no end time yet: wait for it.
    i=0
    while [ "$(systemctl is-active kdump-file)" = activating ] && [ "$i" -lt 300 ]; do
        sleep 1
        i=$((i + 1))
    done
    say "iscsi after: var-crash.mount active at $(systemctl show -p ActiveEnterTimestampMonotonic --value var-crash.mount), kdump-file.service started at $(systemctl show -p InactiveExitTimestampMonotonic --value kdump-file)"
    say "is-active: $(systemctl is-active kdump-file)"
    iscsi_unit_log
    say "iscsi after: kexec_crash_loaded: $(cat /sys/kernel/kexec_crash_loaded)"
    run kdump-file status
    run kdump-file list
    run kdump-file show
    img=/var/lib/kdump-file/initramfs-$(uname -r).img
    say "capture initramfs: $(stat -c %s "$img") bytes, $(zcat "$img" | cpio -t 2> /dev/null | grep -c '\.ko') modules"
    run kdump-file estimate
}
