# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Guest steps of the network scenarios (test/TEST-3[0-2]-NET-*,
# test/TEST-4[4-6]-*NET-*), sourced by the guest driver (which provides
# say, run and crash_now).  The host wires each client's NIC to one NIC of
# the collector (a QEMU stream netdev on the host's loopback): link N is
# 10.0.N.0/24, the collector 10.0.N.1 with MAC 52:54:00:00:0N:01, client N
# (host name client-N-FLAVOUR) 10.0.N.2, its NIC's MAC 52:54:00:00:XX:02
# (XX is 0N in the fleet) and its second NIC's, if any, 52:54:00:00:XX:12.
# The host writes the client's /etc/hostname, /etc/machine-id, /etc/hosts
# ("10.0.N.1 collector", or fd00:N::1 on an IPv6 link) and the
# administrator's key /root/.ssh/id_ed25519.
#
# What a step needs besides its name comes as kdump_file_net_*= words on the
# kernel command line:
#   collector: clients=N (its NICs), expect=HOST,HOST... (the clients that
#              report done), limit=SECONDS (then it stops without them),
#              link= (as the client's, below: bond, its NICs bridged in
#              br0 with 10.0.1.1/24; vlan, 10.0.N.1/24 on VLAN 43 of each
#              NIC, nothing untagged; ipv6, fd00:N::1/64 alone)
#   client:    target=ssh|nfs4|nfs3, fallback=DIR (none without),
#              barrier=N (crash once N clients are ready to), fail=rekey
#              (the collector's host key changes after propagate) or
#              fail=down (the host takes the collector's link down before
#              the crash), timeout=SECONDS (net_timeout), wait=SECONDS
#              (net_load_wait), late=1 (after the boot after the crash,
#              one more boot with the collector's link down until a
#              minute after kdump-file.service starts; the guest reboots
#              in place), link=bond|vlan|ipv6 (the client's link: its
#              two NICs bonded, active-backup, 10.0.N.2/24 on bond0, the
#              active member's link taken down by the host before the
#              crash; 10.0.N.2/24 on VLAN 43 of its NIC, nothing
#              untagged; fd00:N::2/64 alone, no IPv4 on the link)
#
# The capture kernel is loaded the way an administrator does: the unit
# enabled (as the package does), the target set in /etc/kdump-file.conf,
# then "systemctl restart kdump-file" (whose sandbox follows the new
# target), and at each later boot by the unit itself.

NET_KEYDIR=/etc/kdump-file/ssh
NET_COLLECTOR_KEYS=/etc/ssh/kdump-file-test

# net_arg NAME: the value of kdump_file_net_NAME= on the command line.
net_arg() {
    sed -n "s/.*\\bkdump_file_net_$1=\\([^ ]*\\).*/\\1/p" /proc/cmdline
}

# net_nics: "NAME MAC" of each NIC (a device: no bond, bridge or VLAN),
# MAC its own one (a bond member takes the bond's address; ip shows its
# own as permaddr).
net_nics() {
    ip -o link show | while read -r _ name rest; do
        name=${name%:}
        [ -e "/sys/class/net/$name/device" ] || continue
        mac=${rest##*link/ether }
        case "$rest" in
        *" permaddr "*) mac=${rest##* permaddr } ;;
        esac
        # ip -o ends a line's part with a backslash: "permaddr MAC\".
        mac=${mac%% *}
        echo "$name ${mac%\\}"
    done
}

# net_mac NIC: its own MAC.
net_mac() {
    net_nics | awk -v d="$1" '$1 == d { print $2 }'
}

# net_dev MAC: the NIC whose own MAC matches MAC (a pattern: ? and *
# match), waiting up to 30 s for it.
net_dev() {
    i=0
    while [ "$i" -lt 30 ]; do
        dev=$(net_nics | while read -r name mac; do
            # shellcheck disable=SC2254 # MAC is a pattern
            case "$mac" in
            $1)
                echo "$name"
                break
                ;;
            esac
        done)
        if [ -n "$dev" ]; then
            echo "$dev"
            return 0
        fi
        sleep 1
        i=$((i + 1))
    done
    return 1
}

# The collector: addresses on its links, sshd and the NFS server, then wait
# for the clients' "done" (or the time limit), and stop.
step_net_collector() {
    clients=$(net_arg clients)
    limit=$(net_arg limit)
    expect=$(net_arg expect | tr , ' ')
    link=$(net_arg link)
    # The bond's members, on links 1 and 2, meet in one bridge (no STP,
    # so no forward delay: its ports forward at once).
    [ "$link" != bond ] || ip link add br0 type bridge forward_delay 0
    n=1
    while [ "$n" -le "${clients:-0}" ]; do
        dev=$(net_dev "52:54:00:00:0$n:01") || {
            say "FAIL: collector: no NIC for link $n"
            return 1
        }
        ip link set dev "$dev" up
        case "$link" in
        bond)
            ip link set dev "$dev" master br0
            say "collector: link $n: $dev in br0"
            ;;
        vlan)
            ip link add link "$dev" name "$dev.43" type vlan id 43
            ip link set dev "$dev.43" up
            ip addr add "10.0.$n.1/24" dev "$dev.43"
            say "collector: link $n: $dev.43 ($(ip -d -o link show dev "$dev.43" | grep -o 'vlan protocol [^ ]* id [0-9]*')) 10.0.$n.1/24"
            ;;
        ipv6)
            # nodad: the address is not tentative, it answers at once.
            ip addr add "fd00:$n::1/64" dev "$dev" nodad
            say "collector: link $n: $dev fd00:$n::1/64"
            ;;
        *)
            ip addr add "10.0.$n.1/24" dev "$dev"
            say "collector: link $n: $dev 10.0.$n.1/24"
            ;;
        esac
        n=$((n + 1))
    done
    if [ "$link" = bond ]; then
        ip link set dev br0 up
        ip addr add 10.0.1.1/24 dev br0
        say "collector: br0 10.0.1.1/24"
    fi
    # kdump-file-receive --authorize writes kdump's authorized_keys as kdump.
    chown -R kdump:kdump /home/kdump /srv/dumps
    run modprobe nfsd
    run systemctl start ssh nfs-server
    if [ "$link" = ipv6 ]; then
        # collector-base.sh exports to 10.0.0.0/16 alone (the NFS server
        # may have started at boot: exportfs -r reads the file again).
        echo "/srv/nfs fd00::/16(rw,no_root_squash,no_subtree_check,insecure,sync)" >> /etc/exports
        run exportfs -r
    fi
    i=0
    while [ "$i" -lt 120 ]; do
        if ss -Hltn 'sport = :22' | grep -q . && ss -Hltn 'sport = :2049' | grep -q .; then
            break
        fi
        sleep 1
        i=$((i + 1))
    done
    run exportfs -v
    [ -z "$link" ] || run ss -Hltn 'sport = :22 or sport = :2049'
    run ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub
    if [ "$i" -ge 120 ]; then
        say "FAIL: collector: sshd or nfsd does not listen"
        run systemctl status --no-pager --lines=5 ssh nfs-server
        return 1
    fi
    say "collector ready"
    t0=$(date +%s)
    seen=
    while :; do
        missing=
        for h in $expect; do
            if [ -e "/srv/done/$h" ]; then
                case " $seen " in
                *" $h "*) ;;
                *)
                    say "collector: $h is done after $(($(date +%s) - t0)) s"
                    seen="$seen $h"
                    ;;
                esac
            else
                missing="$missing $h"
            fi
        done
        [ -n "$missing" ] || break
        if [ "$(($(date +%s) - t0))" -ge "${limit:-1800}" ]; then
            say "collector: time limit of $limit s passed, not done:$missing"
            break
        fi
        sleep 2
    done
    [ -n "$missing" ] || say "collector: all clients done"
    find /srv -printf '%M %u %s %p\n' 2> /dev/null | sort -k4 | while IFS= read -r line; do
        say "collector: $line"
    done
    sync
}

# The administrator's own ssh (the key /root/.ssh/id_ed25519), for what the
# scenarios do on the collector besides the product: no host key checking,
# which a scenario changes on purpose.
net_admin() {
    ssh -i /root/.ssh/id_ed25519 -o BatchMode=yes -o StrictHostKeyChecking=no \
        -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o ConnectTimeout=10 \
        root@collector "$@"
}

# The product's own ssh with the dedicated key, as the design sets it.
net_key() {
    ssh -F /dev/null -i "$NET_KEYDIR/id_ed25519" -o IdentitiesOnly=yes -o BatchMode=yes \
        -o StrictHostKeyChecking=yes -o UserKnownHostsFile="$NET_KEYDIR/known_hosts" \
        -o GlobalKnownHostsFile=/dev/null -o HostKeyAlias=collector -o ConnectTimeout=10 \
        -p 22 kdump@collector "$@"
}

# net_up: this client's network from systemd-networkd files (kept for the
# next boot, made anew at each): 10.0.N.2/24 on its NIC (N from its host
# name, client-N-FLAVOUR), or as kdump_file_net_link= says; then the
# collector reachable.  Sets NET_ADDR, the address with its prefix length.
net_up() {
    link=$(net_arg link)
    NET_N=$(sed -n 's/^client-\([0-9]*\)-.*/\1/p' /etc/hostname)
    NET_ADDR=10.0.$NET_N.2/24
    dev=$(net_dev '52:54:00:00:??:02') || {
        say "FAIL: net: no NIC with a client's MAC"
        return 1
    }
    mac=$(net_mac "$dev")
    nd=/etc/systemd/network
    mkdir -p "$nd"
    rm -f "$nd"/50-kdump-file-test*
    case "$link" in
    bond)
        dev2=$(net_dev '52:54:00:00:??:12') || {
            say "FAIL: net: no second NIC for the bond"
            return 1
        }
        mac2=$(net_mac "$dev2")
        printf '[NetDev]\nName=bond0\nKind=bond\n\n[Bond]\nMode=active-backup\nMIIMonitorSec=100ms\n' \
            > "$nd/50-kdump-file-test-bond0.netdev"
        # Their own MACs: once in the bond they have its.
        printf '[Match]\nPermanentMACAddress=%s %s\n\n[Network]\nBond=bond0\n' "$mac" "$mac2" \
            > "$nd/50-kdump-file-test-members.network"
        printf '[Match]\nName=bond0\n\n[Network]\nAddress=%s\n' "$NET_ADDR" \
            > "$nd/50-kdump-file-test.network"
        nic=$dev
        dev=bond0
        ;;
    vlan)
        printf '[NetDev]\nName=%s.43\nKind=vlan\n\n[VLAN]\nId=43\n' "$dev" \
            > "$nd/50-kdump-file-test-vlan.netdev"
        # By name: the VLAN has the NIC's MAC too.
        printf '[Match]\nName=%s\n\n[Network]\nVLAN=%s.43\nLinkLocalAddressing=no\nIPv6AcceptRA=no\n' "$dev" "$dev" \
            > "$nd/50-kdump-file-test-nic.network"
        printf '[Match]\nName=%s.43\n\n[Network]\nAddress=%s\n' "$dev" "$NET_ADDR" \
            > "$nd/50-kdump-file-test.network"
        nic=$dev
        dev=$dev.43
        ;;
    ipv6)
        # No DAD: the address is never tentative (the collector's
        # neither).
        NET_ADDR=fd00:$NET_N::2/64
        printf '[Match]\nMACAddress=%s\n\n[Network]\nIPv6AcceptRA=no\n\n[Address]\nAddress=%s\nDuplicateAddressDetection=none\n' \
            "$mac" "$NET_ADDR" > "$nd/50-kdump-file-test.network"
        ;;
    *)
        printf '[Match]\nMACAddress=%s\n\n[Network]\nAddress=%s\n' "$mac" "$NET_ADDR" \
            > "$nd/50-kdump-file-test.network"
        ;;
    esac
    systemctl enable systemd-networkd > /dev/null 2>&1
    systemctl restart systemd-networkd
    # Up to 60 s for the address, not tentative.
    i=0
    while ! ip -o addr show dev "$dev" 2> /dev/null | grep " $NET_ADDR " | grep -qv tentative && [ "$i" -lt 60 ]; do
        sleep 1
        i=$((i + 1))
    done
    say "net: $dev $(ip -o addr show dev "$dev" scope global | awk '{ printf "%s ", $4 }')after $i s"
    if [ "$i" -ge 60 ]; then
        run networkctl --no-pager status --all
        journalctl -b -u systemd-networkd --no-pager -o cat 2> /dev/null | tail -n 30 |
            while IFS= read -r line; do say "net: networkd: $line"; done
    fi
    case "$link" in
    bond)
        say "net: bond: $(cat /sys/class/net/bond0/bonding/mode) miimon $(cat /sys/class/net/bond0/bonding/miimon) members $(cat /sys/class/net/bond0/bonding/slaves) ($nic $mac, $dev2 $mac2) active $(cat /sys/class/net/bond0/bonding/active_slave)"
        ;;
    vlan)
        say "net: vlan: $dev $(ip -d -o link show dev "$dev" | grep -o 'vlan protocol [^ ]* id [0-9]*') on $nic"
        say "net: untagged $nic: addresses: $(ip -o addr show dev "$nic" | awk '{ printf "%s ", $4 }')"
        ;;
    ipv6)
        say "net: IPv4 on $dev: $(ip -4 -o addr show dev "$dev" | awk '{ printf "%s ", $4 }')"
        # Each address with its scope and flags (tentative, nodad).
        say "net: IPv6 on $dev: $(ip -6 -o addr show dev "$dev" | awk '{ for (i = 4; i <= NF && $i != "\\"; i++) printf "%s ", $i; printf "; " }')"
        ;;
    esac
    i=0
    while ! ping -c 1 -W 2 collector > /dev/null 2>&1 && [ "$i" -lt 30 ]; do
        i=$((i + 1))
    done
    if ping -c 1 -W 2 collector > /dev/null 2>&1; then
        say "net: ping collector: ok"
    else
        say "net: ping collector: no answer"
    fi
}

# net_reach: the collector reached by hand, besides ping: ssh as the
# administrator, and an NFSv4.0 mount of its export (mount(2) itself,
# with the address: the clients have no mount.nfs).
net_reach() {
    if net_admin true; then
        say "net: ssh collector: ok"
    else
        say "net: ssh collector: failed"
    fi
    ip=$(getent hosts collector | awk '{ print $1; exit }')
    src=$ip
    case "$ip" in
    *:*) src="[$ip]" ;;
    esac
    mkdir -p /mnt/net-reach
    if run timeout 60 mount -t nfs4 -o "vers=4.0,addr=$ip,clientaddr=${NET_ADDR%/*}" "$src:/srv/nfs" /mnt/net-reach; then
        say "net: nfs mount collector: ok ($src:/srv/nfs)"
        umount /mnt/net-reach
    else
        say "net: nfs mount collector: failed"
    fi
}

# net_failover: the host takes the link of the bond's active member down
# (QMP set_link on the netdev of its MAC); then, within 60 s, the other
# member is active and the collector answers through it.
net_failover() {
    active=$(cat /sys/class/net/bond0/bonding/active_slave)
    run cat /proc/net/bonding/bond0
    # The host watches for this line.
    say "net: bond: take the active member down: $active $(net_mac "$active")"
    t0=$(date +%s%N)
    i=0
    while [ "$(cat /sys/class/net/bond0/bonding/active_slave)" = "$active" ] && [ "$i" -lt 300 ]; do
        sleep 0.2
        i=$((i + 1))
    done
    now=$(cat /sys/class/net/bond0/bonding/active_slave)
    if [ -n "$now" ] && [ "$now" != "$active" ]; then
        say "net: bond: active now $now $(net_mac "$now") after $((($(date +%s%N) - t0) / 1000000)) ms; $active carrier $(cat "/sys/class/net/$active/carrier" 2> /dev/null)"
    else
        say "FAIL: net: bond: still '$now' active after 60 s"
    fi
    if ping -c 1 -W 5 collector > /dev/null 2>&1; then
        say "net: ping collector after the failover: ok"
    else
        say "net: ping collector after the failover: no answer"
    fi
    run cat /proc/net/bonding/bond0
}

# net_conf: /etc/kdump-file.conf with the network target the command line
# names, the rest of the installed file kept.
net_conf() {
    target=$(net_arg target)
    fallback=$(net_arg fallback)
    timeout=$(net_arg timeout)
    grep -vE '^[[:space:]]*(target|path|raw|fallback|nfs_version|net_timeout|ssh_key)[[:space:]]*=' \
        /etc/kdump-file.conf > /tmp/kdump-file.conf 2> /dev/null
    case "$target" in
    ssh) echo "target = ssh://kdump@collector/srv/dumps" ;;
    nfs4) echo "target = nfs://collector/srv/nfs" ;;
    nfs3) printf 'target = nfs://collector/srv/nfs\nnfs_version = 3\n' ;;
    esac >> /tmp/kdump-file.conf
    [ -z "$fallback" ] || echo "fallback = $fallback" >> /tmp/kdump-file.conf
    [ -z "$timeout" ] || echo "net_timeout = $timeout" >> /tmp/kdump-file.conf
    wait=$(net_arg wait)
    [ -z "$wait" ] || echo "net_load_wait = $wait" >> /tmp/kdump-file.conf
    cp /tmp/kdump-file.conf /etc/kdump-file.conf
    grep -vE '^[[:space:]]*(#|$)' /etc/kdump-file.conf | while IFS= read -r line; do
        say "conf: $line"
    done
}

# net_unit: what kdump-file.service did this boot: its state, the sandbox
# it ran in, its journal lines, and whether a capture kernel is loaded.
net_unit() {
    say "net: unit: is-active $(systemctl is-active kdump-file) loaded $(cat /sys/kernel/kexec_crash_loaded)"
    say "net: unit: $(systemctl show -p Environment -p PrivateNetwork -p IPAddressAllow -p ExecMainStatus kdump-file | tr '\n' ' ')"
    say "net: unit: entered $(systemctl show -p ActiveEnterTimestampMonotonic --value kdump-file) exited $(systemctl show -p InactiveExitTimestampMonotonic --value kdump-file) multi-user $(systemctl show -p ActiveEnterTimestampMonotonic --value multi-user.target)"
    journalctl -b -u kdump-file --no-pager -o cat 2> /dev/null | grep 'kdump-file' |
        while IFS= read -r line; do say "net: unit journal: $line"; done
}

# net_restart: the capture kernel loaded as an administrator does after
# changing the target, through the unit (enabled before the change: the
# daemon-reload of "systemctl enable" would make the new sandbox itself).
net_restart() {
    run systemctl restart kdump-file
    net_unit
    run systemctl cat kdump-file
}

# net_try WHAT REQUEST...: a request with the dedicated key, its outcome.
net_try() {
    what=$1
    shift
    net_key "$@" < /dev/null > /tmp/net-try.out 2>&1
    rc=$?
    while IFS= read -r line; do
        say "net: key: $what: $line"
    done < /tmp/net-try.out
    say "net: key: $what: rc=$rc"
}

# What the dedicated key may do: only the forced command's requests, inside
# this machine's host dir (the collector keeps another machine's dump,
# decoy-0123456789ab, beside it).
net_key_checks() {
    net_try "sh -c id" sh -c id
    net_try "ls /srv/dumps" ls /srv/dumps
    net_try "list" list
    net_try "another host's dump" file ../decoy-0123456789ab/2026-01-01-00:00:00 metadata.json
    net_try "an absolute path" vmcore /srv/dumps/decoy-0123456789ab/2026-01-01-00:00:00
}

# net_barrier N: wait (up to 15 min) until N clients are ready to crash, so
# that they crash at the same moment.
net_barrier() {
    net_admin "touch /srv/ready/$(hostname)"
    i=0
    k=0
    while [ "$i" -lt 450 ]; do
        k=$(net_admin "ls /srv/ready | wc -l")
        [ "${k:-0}" -lt "$1" ] || break
        sleep 2
        i=$((i + 1))
    done
    say "net: $k of $1 clients ready after $((i * 2)) s"
}

# net_wait_down SECONDS: until the collector stops answering ping (the host
# took its link down); 1 when it still answers after SECONDS.
net_wait_down() {
    i=0
    while ping -c 1 -W 1 collector > /dev/null 2>&1 && [ "$i" -lt "$1" ]; do
        sleep 1
        i=$((i + 1))
    done
    ! ping -c 1 -W 1 collector > /dev/null 2>&1
}

NET_CRASHED=/var/lib/kdump-file-test/net-crashed
# The boot after the crash is over; the next one is the late collector's.
NET_LATE=/var/lib/kdump-file-test/net-late

# The first boot of a client: network, configuration, propagate (SSH),
# load, what the scenario breaks, then the crash.  A guest that reboots in
# the same QEMU (fail=down: its link must stay connected) comes here again
# after the capture, and goes on with the boot after it.
step_net_crash() {
    if [ -e "$NET_LATE" ]; then
        step_net_late
        return
    fi
    if [ -e "$NET_CRASHED" ]; then
        step_net_after
        return
    fi
    net_up || return 1
    [ -z "$(net_arg link)" ] || net_reach
    run systemctl enable kdump-file
    net_conf
    if [ "$(net_arg target)" = ssh ]; then
        run kdump-file propagate
        run ls -l "$NET_KEYDIR"
        run cat "$NET_KEYDIR/known_hosts"
        net_key_checks
    fi
    net_restart
    run kdump-file status
    case "$(net_arg fail)" in
    rekey)
        net_admin "cp $NET_COLLECTOR_KEYS/ssh_host_ed25519_key $NET_COLLECTOR_KEYS/ssh_host_ed25519_key.pub /etc/ssh/ &&
            systemctl reload ssh && ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub" > /tmp/net-rekey.out 2>&1
        say "net: the collector's host key changed: $(cat /tmp/net-rekey.out)"
        # sshd's reload refuses connections for a moment: load's check
        # (before any build) would meet that, not the changed key.
        i=0
        until net_admin true > /dev/null 2>&1 || [ "$i" -ge 30 ]; do
            sleep 1
            i=$((i + 1))
        done
        # load itself, not the unit: what this shows is load's refusal
        # and that it keeps the capture kernel loaded before.
        run kdump-file load
        ;;
    down)
        # Only for a crash to come: the link must be up again before
        # this QEMU ends (see TEST-32).
        if [ "$(cat /sys/kernel/kexec_crash_loaded)" != 1 ]; then
            say "net: not loaded: the collector stays up"
        else
            # The host watches for this line and takes the link down.
            say "net: take the collector down"
            if net_wait_down 180; then
                say "net: the collector is down"
            else
                say "net: the collector still answers"
            fi
        fi
        ;;
    esac
    # The capture initramfs, for the benches' sizes (ip(8) in it or not).
    img=/var/lib/kdump-file/initramfs-$(uname -r).img
    if [ -f "$img" ]; then
        say "capture initramfs: $(stat -c %s "$img") bytes, $(zcat "$img" | cpio -t 2> /dev/null | grep -c '\.ko') modules, ip: $(zcat "$img" | cpio -t 2> /dev/null | grep -c -x -e 'usr/sbin/ip' -e 'sbin/ip' -e 'usr/bin/ip' -e 'bin/ip')"
    fi
    # What estimate counts for this way, beside what the benches measure.
    [ -z "$(net_arg link)" ] || run kdump-file estimate
    # Loaded or not: the failover is shown either way.
    [ "$(net_arg link)" != bond ] || net_failover
    [ -z "$(net_arg barrier)" ] || net_barrier "$(net_arg barrier)"
    say "kexec_crash_loaded: $(cat /sys/kernel/kexec_crash_loaded)"
    if [ "$(cat /sys/kernel/kexec_crash_loaded)" = 1 ]; then
        say "loaded ok"
        mkdir -p "${NET_CRASHED%/*}"
        touch "$NET_CRASHED"
        crash_now
    fi
    say "FAIL: not loaded, not crashing"
    # A guest rebooting in place has no boot after the crash to say it.
    [ ! -e "$NET_CRASHED" ] && [ "$(net_arg fail)" = down ] && net_done
}

# The boot after the capture: what the unit did at boot, what the product
# says of the dump, what the key may see now, the local fallback's record
# and its report, then report done (or, late=1, one more boot).
step_net_after() {
    net_up
    net_unit
    # The report unit (after kdump-file.service) reports the crash.
    i=0
    while [ "$(systemctl is-active kdump-file-report)" = activating ] && [ "$i" -lt 300 ]; do
        sleep 1
        i=$((i + 1))
    done
    say "net: report unit: $(systemctl is-active kdump-file-report) $(systemctl show -p Result --value kdump-file-report) after $i s"
    run kdump-file status
    run kdump-file list
    run kdump-file info
    journalctl -b -o verbose --no-pager MESSAGE_ID=015172fc9e57401f9f980255c3aeecad 2> /dev/null |
        grep -E '^ *(KDUMP_FILE_[A-Z_]+|MESSAGE|MESSAGE_ID)=' | while IFS= read -r line; do say "net: crash entry: $line"; done
    journalctl -b -u kdump-file-report --no-pager -o cat 2> /dev/null | grep 'kdump-file' |
        while IFS= read -r line; do say "net: report unit: $line"; done
    [ "$(net_arg target)" != ssh ] || net_key_checks
    for d in /var/crash/2*; do
        [ -d "$d" ] || continue
        say "net: local dump $d: $(find "$d" -mindepth 1 -maxdepth 1 -printf '%f ')"
        run cat "$d/metadata.json"
    done
    if [ "$(net_arg fail)" = down ]; then
        # The host watches for this line and brings the link back.
        say "net: waiting for the collector to come back"
        i=0
        while ! ping -c 1 -W 1 collector > /dev/null 2>&1 && [ "$i" -lt 300 ]; do
            i=$((i + 1))
        done
    fi
    if [ "$(net_arg fail)" = rekey ]; then
        # The collector's new key, taken on purpose, and the unit again.
        run kdump-file propagate --repin
        run systemctl restart kdump-file
        net_unit
    fi
    if [ "$(net_arg late)" = 1 ]; then
        touch "$NET_LATE"
        # At the next boot, a line on the console as kdump-file.service
        # starts (systemd shows no status there at boot): the host's
        # clock for the collector's minute.
        printf '%s\n' '[Unit]' 'Wants=network-online.target' \
            'After=network-online.target' 'Before=kdump-file.service' \
            '[Service]' 'Type=oneshot' \
            "ExecStart=/bin/sh -c 'echo \"KDUMP-FILE-TEST: net: kdump-file.service starts\" > /dev/console'" \
            '[Install]' 'WantedBy=multi-user.target' \
            > /etc/systemd/system/kdump-file-test-mark.service
        systemctl enable kdump-file-test-mark.service > /dev/null 2>&1
        sync
        # The host watches for this line, takes the collector's link down,
        # and brings it back a minute after kdump-file.service starts.
        say "net: reboot with the collector late"
        net_wait_down 120 || say "net: the collector still answers"
        say "net: rebooting"
        systemctl reboot
        sleep 600
        return
    fi
    net_done
}

# The boot whose collector came late: the unit waited for it and loaded.
step_net_late() {
    systemctl disable kdump-file-test-mark.service > /dev/null 2>&1
    net_up
    net_unit
    run kdump-file status
    net_done
}

# net_done: tell the collector this client is done (/srv/done/HOSTNAME).
net_done() {
    i=0
    until net_admin "touch /srv/done/$(hostname)"; do
        i=$((i + 1))
        if [ "$i" -ge 60 ]; then
            say "FAIL: net: cannot tell the collector this client is done"
            return 1
        fi
        sleep 5
    done
    say "net: told the collector this client is done"
}
