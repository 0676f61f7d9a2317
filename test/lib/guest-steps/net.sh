# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Guest steps of the network scenarios (test/TEST-3[0-2]-NET-*), sourced by
# the guest driver (which provides say, run and crash_now).  The host wires
# each client's NIC to one NIC of the collector (a QEMU stream netdev on
# the host's loopback): link N is 10.0.N.0/24, the collector 10.0.N.1 with
# MAC 52:54:00:00:0N:01, client N 10.0.N.2 with MAC 52:54:00:00:0N:02.  The
# host writes the client's /etc/hostname, /etc/machine-id, /etc/hosts
# ("10.0.N.1 collector") and the administrator's key /root/.ssh/id_ed25519.
#
# What a step needs besides its name comes as kdump_file_net_*= words on the
# kernel command line:
#   collector: clients=N (its NICs), expect=HOST,HOST... (the clients that
#              report done), limit=SECONDS (then it stops without them)
#   client:    target=ssh|nfs4|nfs3, fallback=DIR (none without),
#              barrier=N (crash once N clients are ready to), fail=rekey
#              (the collector's host key changes after propagate) or
#              fail=down (the host takes the collector's link down before
#              the crash), timeout=SECONDS (net_timeout), wait=SECONDS
#              (net_load_wait), late=1 (after the boot after the crash,
#              one more boot with the collector's link down until a
#              minute after kdump-file.service starts; the guest reboots
#              in place)
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

# net_dev MAC: the interface with this MAC, waiting up to 30 s for it.
net_dev() {
    i=0
    while [ "$i" -lt 30 ]; do
        for f in /sys/class/net/*/address; do
            if [ "$(cat "$f")" = "$1" ]; then
                f=${f%/address}
                echo "${f##*/}"
                return 0
            fi
        done
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
    n=1
    while [ "$n" -le "${clients:-0}" ]; do
        dev=$(net_dev "52:54:00:00:0$n:01") || {
            say "FAIL: collector: no NIC for link $n"
            return 1
        }
        ip addr add "10.0.$n.1/24" dev "$dev"
        ip link set dev "$dev" up
        say "collector: link $n: $dev 10.0.$n.1/24"
        n=$((n + 1))
    done
    # kdump-file-receive --authorize writes kdump's authorized_keys as kdump.
    chown -R kdump:kdump /home/kdump /srv/dumps
    run modprobe nfsd
    run systemctl start ssh nfs-server
    i=0
    while [ "$i" -lt 120 ]; do
        if ss -Hltn 'sport = :22' | grep -q . && ss -Hltn 'sport = :2049' | grep -q .; then
            break
        fi
        sleep 1
        i=$((i + 1))
    done
    run exportfs -v
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

# net_up: this client's address from a systemd-networkd .network file (kept
# for the next boot), and the collector reachable.
net_up() {
    dev=
    i=0
    while [ -z "$dev" ] && [ "$i" -lt 30 ]; do
        for f in /sys/class/net/*/address; do
            case "$(cat "$f")" in
            52:54:00:00:0?:02)
                f=${f%/address}
                dev=${f##*/}
                ;;
            esac
        done
        [ -n "$dev" ] || sleep 1
        i=$((i + 1))
    done
    if [ -z "$dev" ]; then
        say "FAIL: net: no NIC with a client's MAC"
        return 1
    fi
    mac=$(cat "/sys/class/net/$dev/address")
    NET_N=${mac#52:54:00:00:0}
    NET_N=${NET_N%%:*}
    mkdir -p /etc/systemd/network
    printf '[Match]\nMACAddress=%s\n\n[Network]\nAddress=10.0.%s.2/24\n' "$mac" "$NET_N" \
        > /etc/systemd/network/50-kdump-file-test.network
    systemctl enable systemd-networkd > /dev/null 2>&1
    systemctl restart systemd-networkd
    i=0
    while ! ip -4 -o addr show dev "$dev" | grep -q "inet 10.0.$NET_N.2/24" && [ "$i" -lt 60 ]; do
        sleep 1
        i=$((i + 1))
    done
    say "net: $dev $(ip -4 -o addr show dev "$dev" | awk '{ print $4 }') after $i s"
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
