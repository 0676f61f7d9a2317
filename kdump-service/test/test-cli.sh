#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Command-line tests of kdump-file that only read: --version, --json for
# status and show, the dump directory's safety, and the messages for bad
# configuration values; and report with stand-ins for kdump-file-analyze and
# journald.  Nothing is loaded and nothing outside a temporary directory is
# written (the stand-in journal lives in a private mount namespace).
#
#   test-cli.sh KDUMP-FILE
set -u

kf=$(realpath "$1")
t=$(mktemp -d /tmp/test-kf-cli.XXXXXX)
chmod 0700 "$t"
trap 'chmod -R u+rwx "$t"; rm -rf "$t"' EXIT
# shellcheck source=test/lib/host-checks.sh
. "$(dirname "$0")/../../test/lib/host-checks.sh"
# makedumpfile --mem-usage's cache: in a directory that is not there, so
# that status and estimate never write one (the tests below that look at it
# name their own).
export KDUMP_FILE_MEMUSAGE_CACHE="$t/no-cache/mem-usage.json"

# json NAME FILTER: jq FILTER on $t/out is true
json() {
	if jq -e "$2" "$t/out" >/dev/null 2>&1; then
		pass "$1"
	else
		fail "$1: jq '$2' is not true"
		sed 's/^/     /' "$t/out" | head -n 30
	fi
}

# conf LINE...: the configuration file $t/conf
conf() {
	printf '%s\n' "$@" >"$t/conf"
	chmod 0600 "$t/conf"
}

dumps=$t/dumps
mkdir -m 0700 "$dumps"

# mkbzimage FILE [RELEASE]: a kernel image whose boot header passes load's
# checks (protocol 2.12, 64-bit entry, init_size 32 MiB), naming RELEASE
# as its kernel_version when given.  No kernel is installed where the tests
# run: a configuration that show is to accept names one of these.
mkbzimage() {
	head -c 1048576 /dev/zero >"$1"
	printf 'HdrS\014\002' | dd of="$1" bs=1 seek=$((0x202)) conv=notrunc 2>/dev/null
	printf '\003\000' | dd of="$1" bs=1 seek=$((0x236)) conv=notrunc 2>/dev/null
	printf '\000\000\000\002' | dd of="$1" bs=1 seek=$((0x260)) conv=notrunc 2>/dev/null
	if [ -n "${2:-}" ]; then
		printf '\000\016' | dd of="$1" bs=1 seek=$((0x20e)) conv=notrunc 2>/dev/null
		printf '%s (test) #1\000' "$2" | dd of="$1" bs=1 seek=$((0x1000)) conv=notrunc 2>/dev/null
	fi
	chmod 0600 "$1"
}
mkbzimage "$t/vmlinuz"
bz="kernel = $t/vmlinuz"

expect "--version" 0 -- "$kf" --version
has "--version names the program" "$t/out" "kdump-file "
expect "--json with another command" 2 -- "$kf" --json rebuild
has "--json: which commands take it" "$t/err" "--json is for status, show, estimate, list and info"

# Every command refuses alike, from the one table: an option it does not
# take, with the commands that do; per-command help; getopt's complaints
# naming kdump-file, not the binary's path; other tools' command names and
# typos answered with ours.
expect "an option the command does not take" 2 -- "$kf" list --force
has "refused: the command and the option" "$t/err" "kdump-file: error: 'list' does not take --force"
has "refused: which command takes it" "$t/err" "--force is for setup and import"
expect "a short option the command does not take" 2 -- "$kf" status -y
has "refused: -y by its long name" "$t/err" "'status' does not take --yes; --yes is for test"
expect "list --help" 0 -- "$kf" list --help
has "list --help: its usage" "$t/out" "Usage: kdump-file [OPTIONS] list"
has "list --help: its option" "$t/out" "--json"
has "list --help: the common options" "$t/out" "--quiet"
if grep -q -- "--force\|--kver" "$t/out"; then
	fail "list --help: another command's option: $(cat "$t/out")"
else
	pass "list --help: only the options list takes"
fi
expect "--help info" 0 -- "$kf" --help info
has "--help info: info's usage" "$t/out" "Usage: kdump-file [OPTIONS] info [ID]"
expect "--help" 0 -- "$kf" --help
has "--help: the commands" "$t/out" "Commands"
has "--help: which commands take --json" "$t/out" "(status, show, estimate, list and info)"
# reload: --help and kdump-file(8) say the same of what it keeps loaded.
has "--help: reload never unloads first" "$t/out" "never unloading first: the loaded one stays through every check"
has "kdump-file(8): reload never unloads first" "$(dirname "$(realpath "$0")")/../man/kdump-file.8" \
	"It never unloads first: the loaded capture kernel stays through every"
# The options: --help lists them from kdump-file's one table, and
# kdump-file(8)'s OPTIONS section has an entry for each, and no other.
expect "--help for the options" 0 -- "$kf" --help
awk '/^Options:/ { on = 1; next } on' "$t/out" |
	sed -n 's/^ *\(-., \)\{0,1\}\(--[a-z-]*\).*/\2/p' | sort >"$t/opts-help"
awk '/^\.SH OPTIONS/ { on = 1; next } /^\.SH/ { on = 0 }
     on && tp { print; tp = 0 } on && /^\.TP/ { tp = 1 }' \
	"$(dirname "$(realpath "$0")")/../man/kdump-file.8" | sed 's/\\-/-/g' |
	awk 'match($0, /--[a-z][a-z-]*/) { print substr($0, RSTART, RLENGTH) }' |
	sort >"$t/opts-man"
if [ "$(wc -l <"$t/opts-help")" -gt 15 ] && cmp -s "$t/opts-help" "$t/opts-man"; then
	pass "kdump-file(8): an OPTIONS entry for each option --help lists"
else
	fail "kdump-file(8)'s OPTIONS and --help differ: $(diff "$t/opts-help" "$t/opts-man" | grep '^[<>]' | tr '\n' ' ')"
fi
expect "an unknown option" 2 -- "$kf" --frob status
has "unknown option: named, with kdump-file" "$t/err" "kdump-file: error: unknown option '--frob'"
expect "an unknown short option" 2 -- "$kf" status -x
has "unknown short option: named" "$t/err" "kdump-file: error: unknown option '-x'"
expect "an option without its argument" 2 -- "$kf" status --config
has "missing argument: named" "$t/err" "kdump-file: error: option '--config' needs an argument"
expect "an argument to an option without one" 2 -- "$kf" status --json=yes
has "an argument too many: named" "$t/err" "kdump-file: error: option '--json' takes no argument"
if grep -qF -- "$kf" "$t/err"; then
	fail "getopt's message names the binary's path: $(cat "$t/err")"
else
	pass "getopt's messages: no path"
fi
for pair in start:load stop:unload restart:reload showmem:estimate stauts:status lsit:list; do
	expect "unknown command ${pair%:*}" 2 -- "$kf" "${pair%:*}"
	has "${pair%:*}: did you mean ${pair#*:}" "$t/err" "unknown command '${pair%:*}': did you mean '${pair#*:}'?"
done
expect "an unknown command" 2 -- "$kf" frobnicate
if grep -q "did you mean" "$t/err"; then
	fail "frobnicate: a suggestion: $(cat "$t/err")"
else
	pass "frobnicate: no suggestion"
fi
has "an unknown command: where to look" "$t/err" "unknown command 'frobnicate'; see kdump-file --help"
expect "too many arguments" 2 -- "$kf" info a b
has "too many arguments: how many" "$t/err" "'info' takes at most 1 argument, not 'b'"

# status and show as JSON; an inline comment in the file.
conf "path = $dumps # dumps go here" "keep = 2" "$bz"
expect "status --json" 0 3 -- "$kf" -c "$t/conf" --json status
json "status --json: loaded is a boolean" '.loaded | type == "boolean"'
json "status --json: the dump directory" ".dump_dir == \"$dumps\""
json "status --json: no dump yet" '.last_dump_note | startswith("none in")'
# The keys are the same whatever the state: null for what is not there.
json "status --json: the schema" '.schema == 1'
json "status --json: no dump, no set loaded: null" \
	'.last_dump == null and .loaded_set == null and .lost_crash == null and .test == null'
jq -c keys "$t/out" >"$t/status-keys"
man=$(dirname "$(realpath "$0")")/../man/kdump-file.8
for k in $(jq -r 'keys[]' "$t/out"); do
	if grep -qE "^\.BR? $k( |\$)" "$man"; then
		pass "kdump-file(8) documents status's $k"
	else
		fail "kdump-file(8) does not document status's key $k"
	fi
done
expect "show --json" 0 -- "$kf" -c "$t/conf" --json show
json "show --json: the capture's keep" '.capture_config.keep == "2"'
json "show --json: the kernel" '.kernel | startswith("/")'
json "show --json: the schema" '.schema == 1'
json "show --json: md arrays, LUKS and multipath devices, arrays" \
	'(.md_arrays | type == "array") and (.luks_devices | type == "array") and (.multipath_devices | type == "array")'

# Network targets: show reads the route, the interface and its drivers
# from a stand-in root (KDUMP_FILE_NET_ROOT: proc/net/route, sys/class/net,
# and "ifaddrs" for getifaddrs()), and refuses what the capture cannot
# bring up.  Collectors by address: no DNS is asked.
nr=$t/netroot
pci=$nr/sys/devices/pci0000:00/0000:00:03.0
mkdir -p "$nr/proc/net" "$nr/sys/class/net/eth0" "$nr/sys/class/net/br0/bridge" \
	"$pci/virtio0" "$nr/sys/bus/pci/drivers/virtio-pci" \
	"$nr/sys/bus/virtio/drivers/virtio_net"
{
	printf 'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n'
	printf 'eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0\n'
	printf 'eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n'
	printf 'br0\t006433C6\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n'
} >"$nr/proc/net/route"
echo 1 >"$nr/sys/class/net/eth0/type"
echo 52:54:00:aa:bb:cc >"$nr/sys/class/net/eth0/address"
echo 1 >"$nr/sys/class/net/br0/type"
echo 52:54:00:aa:bb:cd >"$nr/sys/class/net/br0/address"
ln -s ../../../devices/pci0000:00/0000:00:03.0/virtio0 "$nr/sys/class/net/eth0/device"
ln -s ../../../bus/pci/drivers/virtio-pci "$pci/driver"
ln -s ../../../../bus/virtio/drivers/virtio_net "$pci/virtio0/driver"
echo "eth0 192.0.2.15/24" >"$nr/ifaddrs"
conf "target = ssh://dumps@203.0.113.4:2222/srv/dumps" "ssh_key = $t/ssh/id_ed25519" "$bz"
expect "show --json, an ssh target without its key" 1 -- \
	env KDUMP_FILE_NET_ROOT="$nr" "$kf" -c "$t/conf" --json show
json "show --json: the ssh target's way" \
	'.network.kind == "ssh" and .network.url == "ssh://dumps@203.0.113.4:2222/srv/dumps" and .network.collector == "203.0.113.4" and .network.port == 2222 and .network.user == "dumps" and .network.nfs_version == null'
json "show --json: the interface, address and gateway" \
	'.network.interface == "eth0" and .network.mac == "52:54:00:aa:bb:cc" and .network.address == "192.0.2.15/24" and .network.gateway == "192.0.2.1"'
json "show --json: the host dir, no fallback" \
	'(.network.host_dir | test("-[0-9a-f]{12}$")) and .network.fallback == null and .network.fallback_target == null'
json "show --json: the NIC's drivers, built in" \
	'[.modules[] | select(.builtin) | .name] == ["virtio-pci", "virtio_net"]'
json "show --json: no key: propagate named" \
	'.loadable == false and ([.problems[] | select(test("kdump-file propagate"))] | length) == 2'
mkdir -m 0700 "$t/ssh"
echo key >"$t/ssh/id_ed25519"
chmod 0644 "$t/ssh/id_ed25519"
echo "203.0.113.4 ssh-ed25519 AAAA" >"$t/ssh/known_hosts"
expect "show, an ssh key others may read" 1 -- \
	env KDUMP_FILE_NET_ROOT="$nr" "$kf" -c "$t/conf" show
has "show: the key's mode named" "$t/err" "is not mode 0600"
has "show: the interface" "$t/out" "interface:   eth0 (52:54:00:aa:bb:cc)"
has "show: the gateway" "$t/out" "gateway:     192.0.2.1"
has "show: the vmcore streamed" "$t/out" "| ssh dumps@203.0.113.4 vmcore <time>"
chmod 0600 "$t/ssh/id_ed25519"
if [ "$(id -u)" = 0 ]; then
	expect "show, an ssh target with its key and pinned host" 0 -- \
		env KDUMP_FILE_NET_ROOT="$nr" "$kf" -c "$t/conf" show
fi
conf "target = nfs://192.0.2.77/export/dumps" "nfs_version = 3" "$bz"
expect "show --json, an nfs target" 0 -- \
	env KDUMP_FILE_NET_ROOT="$nr" "$kf" -c "$t/conf" --json show
json "show --json: the nfs target on-link" \
	'.network.kind == "nfs" and .network.nfs_version == 3 and .network.port == null and .network.user == null and .network.path == "/export/dumps" and .network.gateway == null'
json "show --json: NFS's module after the NIC's" \
	'[.modules[].name] == ["virtio-pci", "virtio_net", "nfsv3"]'
json "show --json: nothing stops the load" '.loadable == true'
conf "target = nfs://192.0.2.77/export/dumps" "fallback = $dumps" "$bz"
expect "show --json, an nfs target with a fallback" 0 1 -- \
	env KDUMP_FILE_NET_ROOT="$nr" "$kf" -c "$t/conf" --json show
if [ -s "$t/out" ]; then
	json "show --json: the fallback named" ".network.fallback == \"$dumps\""
else
	# The test directory on a filesystem without a block device (tmpfs).
	has "show: the fallback's filesystem" "$t/err" "fallback directory '$dumps'"
fi
conf "target = ssh://dumps@198.51.100.9/srv/dumps" "$bz"
expect "show, a collector behind a bridge" 1 -- \
	env KDUMP_FILE_NET_ROOT="$nr" "$kf" -c "$t/conf" show
has "show: the bridge without an uplink refused" "$t/err" "goes through bridge br0, which has no port off this machine"
# A VLAN on an active-backup bond of two NICs, behind a bridge: the chain
# names them all, show lists them, the bridge left out.
for n in 1 2; do
	mkdir -p "$nr/sys/class/net/eth$n/bonding_slave" "$pci/virtio$n"
	echo 1 >"$nr/sys/class/net/eth$n/type"
	echo 52:54:00:aa:bb:c1 >"$nr/sys/class/net/eth$n/address"
	echo "52:54:00:aa:bb:c$n" >"$nr/sys/class/net/eth$n/bonding_slave/perm_hwaddr"
	ln -s "../../../devices/pci0000:00/0000:00:03.0/virtio$n" "$nr/sys/class/net/eth$n/device"
	ln -s ../../../../bus/virtio/drivers/virtio_net "$pci/virtio$n/driver"
	ln -s "../eth$n" "$nr/sys/class/net/bond0/lower_eth$n" 2>/dev/null ||
		{ mkdir -p "$nr/sys/class/net/bond0" && ln -s "../eth$n" "$nr/sys/class/net/bond0/lower_eth$n"; }
done
mkdir -p "$nr/sys/class/net/bond0/bonding" "$nr/sys/class/net/bond0.43" "$nr/proc/net/vlan" \
	"$nr/sys/class/net/br0/brif/bond0.43"
echo 1 >"$nr/sys/class/net/bond0/type"
echo 52:54:00:aa:bb:c1 >"$nr/sys/class/net/bond0/address"
echo "active-backup 1" >"$nr/sys/class/net/bond0/bonding/mode"
echo 100 >"$nr/sys/class/net/bond0/bonding/miimon"
echo 1 >"$nr/sys/class/net/bond0.43/type"
echo 52:54:00:aa:bb:c1 >"$nr/sys/class/net/bond0.43/address"
ln -s ../bond0 "$nr/sys/class/net/bond0.43/lower_bond0"
printf 'bond0.43  VID: 43\t REORDER_HDR: 1  dev->priv_flags: 1001\n' >"$nr/proc/net/vlan/bond0.43"
echo "br0 198.51.100.7/24" >>"$nr/ifaddrs"
expect "show --json, a collector behind a bridge on a VLAN on a bond" 1 -- \
	env KDUMP_FILE_NET_ROOT="$nr" "$kf" -c "$t/conf" --json show
json "show --json: the bond's members, by their own MACs" \
	'[.network.links.nics[] | .mac] == ["52:54:00:aa:bb:c1", "52:54:00:aa:bb:c2"] and .network.links.nics[1].device == "pci0000:00/0000:00:03.0/virtio2" and .network.links.nics[0].driver == "virtio_net"'
json "show --json: the bond, the VLAN, the bridge left out" \
	'.network.links.bond.mode == "active-backup" and .network.links.bond.miimon_ms == 100 and .network.links.vlan.id == 43 and .network.links.vlan.name == "bond0.43" and .network.links.bridge_left_out == "br0" and .network.links.mtu == 1500'
json "show --json: bonding and 8021q for the capture kernel" \
	'[.modules[].name] == ["virtio-pci", "virtio_net", "bonding", "8021q"]'
expect "show, the same way in words" 1 -- \
	env KDUMP_FILE_NET_ROOT="$nr" "$kf" -c "$t/conf" show
has "show: the links" "$t/out" "links:       bond bond0 (active-backup, miimon 100 ms, MAC 52:54:00:aa:bb:c1) of NIC eth1 (MAC 52:54:00:aa:bb:c1, driver virtio_net, device pci0000:00/0000:00:03.0/virtio1) and NIC eth2"
has "show: the VLAN and the bridge" "$t/out" ", VLAN 43 (bond0.43) on bond0, bridge br0 left out: its address goes on bond0.43"
# A second uplink on the bridge: which one is not known.
mkdir -p "$nr/sys/class/net/br0/brif/eth0"
expect "show, a bridge with two uplinks" 1 -- \
	env KDUMP_FILE_NET_ROOT="$nr" "$kf" -c "$t/conf" show
has "show: both uplinks named" "$t/err" "goes through bridge br0, which has several ports off this machine (bond0.43, eth0)"
rmdir "$nr/sys/class/net/br0/brif/eth0"
# IPv6: the collector in brackets, the route from ipv6_route.
printf '20010db8000000010000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001 eth0\n' \
	>"$nr/proc/net/ipv6_route"
echo "eth0 2001:db8:0:1::15/64" >>"$nr/ifaddrs"
conf "target = nfs://[2001:db8:0:1::9]/export/dumps" "$bz"
expect "show --json, an IPv6 collector" 0 -- \
	env KDUMP_FILE_NET_ROOT="$nr" "$kf" -c "$t/conf" --json show
json "show --json: the IPv6 way" \
	'.network.collector == "2001:db8:0:1::9" and .network.address == "2001:db8:0:1::15/64" and .network.gateway == null and .network.links.bond == null'
conf "target = ssh://dumps@198.51.100.9/srv/dumps" "$bz"
conf "target = ssh://dumps@10.1.2.3/srv/dumps" "$bz"
grep -v '^eth0	00000000' "$nr/proc/net/route" >"$t/route" && cp "$t/route" "$nr/proc/net/route"
expect "show, no route to the collector" 1 -- \
	env KDUMP_FILE_NET_ROOT="$nr" "$kf" -c "$t/conf" show
has "show: no route said" "$t/err" "there is no IPv4 route to 10.1.2.3"
conf "path = $dumps" "$bz"
expect "show --json, a local target" 0 -- "$kf" -c "$t/conf" --json show
json "show --json: a local target's network is null" '.network == null'

# status of a network target: where dumps go, the collector's last dump or
# why it is unknown (no failure), and the fallback's with its reason.
fb=$t/fallback
mkdir -m 0700 "$fb" "$fb/2026-02-01-00:00:00"
echo core >"$fb/2026-02-01-00:00:00/vmcore"
echo log >"$fb/2026-02-01-00:00:00/dmesg.txt"
printf '{"crash_time": 1769904000, "fallback_reason": "network: no carrier on eth0 within 90 s"}\n' \
	>"$fb/2026-02-01-00:00:00/metadata.json"
conf "target = nfs://192.0.2.77/export/dumps" "fallback = $fb" "$bz"
expect "status, an nfs target out of reach" 0 3 -- "$kf" -c "$t/conf" status
has "status: where dumps go" "$t/out" "dumps go to nfs://192.0.2.77/export/dumps (host dir "
has "status: the collector's dumps unknown" "$t/out" "last dump:    unknown: cannot mount 192.0.2.77:/export/dumps"
has "status: the fallback's dump" "$t/out" "2026-02-01-00:00:00: complete"
has "status: why it went there" "$t/out" "saved to the fallback because: network: no carrier on eth0 within 90 s"
expect "status --json, an nfs target" 0 3 -- "$kf" -c "$t/conf" --json status
json "status --json: the collector's directory" \
	'(.dump_dir | test("^192.0.2.77:/export/dumps/.*-[0-9a-f]{12}$")) and .last_dump == null and (.last_dump_note | startswith("unknown: "))'
jq -c keys "$t/out" >"$t/net-status-keys"
if cmp -s "$t/status-keys" "$t/net-status-keys"; then
	pass "status --json: a network target's keys are a local one's"
else
	fail "status --json: the keys differ: $(cat "$t/net-status-keys")"
fi
# list: the collector's part said unreachable, the fallback's dump listed.
expect "list, a network target out of reach, a fallback" 0 -- "$kf" -c "$t/conf" list
has "list: an nfs target's dumps are read through a mount of the export" "$t/out" \
	"dumps on the collector (nfs://192.0.2.77/export/dumps): cannot be listed: cannot mount 192.0.2.77:/export/dumps: "
has "list: the fallback directory" "$t/out" "dumps in the fallback directory $fb:"
fbid=$(awk '/^ID / { getline; print $1 }' "$t/out")
if [ -n "$fbid" ] && grep -q "^$fbid  2026-02-01T00:00:00Z .* complete" "$t/out"; then
	pass "list: the fallback's dump, complete (ID $fbid)"
else
	fail "list: no row for the fallback's dump: $(cat "$t/out")"
fi
expect "list --json, a network target out of reach" 0 -- "$kf" -c "$t/conf" --json list
json "list --json: the collector's dumps unknown, and why" \
	'.dumps == null and (.collector_error | startswith("cannot mount 192.0.2.77"))'
json "list --json: the fallback's dump" \
	".fallback_dir == \"$fb\" and (.fallback_dumps | length) == 1"
expect "info of the fallback's dump by its ID" 0 -- "$kf" -c "$t/conf" info "$fbid"
has "info: the fallback's dump" "$t/out" "$fb/2026-02-01-00:00:00"
expect "info, the collector out of reach" 0 -- "$kf" -c "$t/conf" info
has "info: the newest in the fallback, and why" "$t/err" \
	"the collector's dumps cannot be read here (cannot mount 192.0.2.77:/export/dumps"
conf "target = nfs://192.0.2.77/export/dumps" "$bz"
expect "list, a network target out of reach, no fallback" 1 -- "$kf" -c "$t/conf" list
has "list: no fallback: the collector's failure" "$t/err" "cannot mount 192.0.2.77:/export/dumps: "
# An ssh target's dump on the collector, kept here as the report unit's
# copy of its kernel log: info shows it and where the dump is, debug says
# the vmcore is there; a fallback dump of a later crash is the newest.
cp_dir=$t/copies
cp1=$cp_dir/2026-03-01-00:00:00
mkdir -p -m 0700 "$cp1"
echo 'Kernel panic - not syncing: sysrq triggered crash' >"$cp1/dmesg.txt"
printf '{"crash_time": 1772323200, "kernel_release": "6.1.0-copy", "complete": true}\n' >"$cp1/metadata.json"
printf '{"location": "ssh://kdump@192.0.2.78/srv/dumps/h-0123456789ab/2026-03-01-00:00:00", "vmcore_bytes": 4096}\n' \
	>"$cp1/collector.json"
printf '{"signature": "0123456789abcdef", "panic": "sysrq triggered crash"}\n' >"$cp1/report.json"
conf "target = ssh://kdump@192.0.2.78/srv/dumps" "$bz"
expect "info, an ssh target, a copy kept here" 0 -- env KDUMP_FILE_COPY_DIR="$cp_dir" \
	"$kf" -c "$t/conf" info
has "info: the copy's directory" "$t/out" "directory:   $cp1"
has "info: the dump on the collector" "$t/out" \
	"on collector: ssh://kdump@192.0.2.78/srv/dumps/h-0123456789ab/2026-03-01-00:00:00"
has "info: the copy's signature" "$t/out" "signature:   0123456789abcdef"
cpid=$(awk '/^id:/ { print $2 }' "$t/out")
expect "info of the copy by its ID" 0 -- env KDUMP_FILE_COPY_DIR="$cp_dir" \
	"$kf" -c "$t/conf" info "$cpid"
expect "debug of a dump on the collector" 1 -- env KDUMP_FILE_COPY_DIR="$cp_dir" \
	"$kf" -c "$t/conf" debug "$cpid"
has "debug: the vmcore is on the collector" "$t/err" \
	"is on the collector, at ssh://kdump@192.0.2.78/srv/dumps/h-0123456789ab/2026-03-01-00:00:00: open its vmcore with crash there"
conf "target = ssh://kdump@192.0.2.78/srv/dumps" "fallback = $fb" "$bz"
expect "info, the fallback's dump older than the copy" 0 -- env KDUMP_FILE_COPY_DIR="$cp_dir" \
	"$kf" -c "$t/conf" info
has "info: the newer crash, the copy's" "$t/out" "directory:   $cp1"
expect "info of the fallback's dump by its ID, a copy kept" 0 -- env KDUMP_FILE_COPY_DIR="$cp_dir" \
	"$kf" -c "$t/conf" info "$fbid"
has "info: the fallback's dump by its ID" "$t/out" "$fb/2026-02-01-00:00:00"
expect "info, no copy of that ID" 1 -- env KDUMP_FILE_COPY_DIR="$cp_dir" \
	"$kf" -c "$t/conf" info ffffffff

# Back to the local target the tests below read.
conf "path = $dumps # dumps go here" "keep = 2" "$bz"

# A dump, and a newer directory someone else could have made.
mkdir -m 0700 "$dumps/2026-01-01-00:00:00"
echo core >"$dumps/2026-01-01-00:00:00/vmcore"
mkdir -m 0777 "$dumps/2026-06-01-00:00:00"
echo planted >"$dumps/2026-06-01-00:00:00/vmcore"
expect "status --json with a planted directory" 0 3 -- "$kf" -c "$t/conf" --json status
json "status --json: the planted directory is not the last dump" \
	'.last_dump.dir | endswith("2026-01-01-00:00:00")'
json "status --json: the dump is complete" '.last_dump.state == "complete"'
if [ "$(jq -c keys "$t/out")" = "$(cat "$t/status-keys")" ]; then
	pass "status --json: the same keys with a dump as without"
else
	fail "status --json: keys without a dump $(cat "$t/status-keys"), with one $(jq -c keys "$t/out")"
fi
json "status --json: no note with a dump" '.last_dump_note == null'
json "status --json: unknown fields of the dump are null" \
	'.last_dump.signature == null and .last_dump.panic == null and .last_dump.dmesg_only == false'
jq -c '.last_dump | keys' "$t/out" >"$t/dump-keys"

# The dump store: list, info, and the IDs.
id=$("$kf" -c "$t/conf" --json list | jq -r '.dumps[0].id')
expect "list" 0 -- "$kf" -c "$t/conf" list
has "list: the header" "$t/out" "ID        TIME"
has "list: the dump's ID and state" "$t/out" "$id  "
expect "list --json" 0 -- "$kf" -c "$t/conf" --json list
json "list --json: one dump, not the planted one" '(.dumps | length) == 1 and .dumps[0].state == "complete"'
json "list --json: the schema and the directory" ".schema == 1 and .dump_dir == \"$dumps\""
if [ "$(jq -c '.dumps[0] | keys' "$t/out")" = "$(cat "$t/dump-keys")" ]; then
	pass "list --json: a dump's keys as in status"
else
	fail "list --json: keys $(jq -c '.dumps[0] | keys' "$t/out"), status's $(cat "$t/dump-keys")"
fi
printf '%s\n' '{ "signature": "0123456789abcdef", "panic": "Kernel panic - not syncing: test",' \
	'  "task": { "command": "bash", "pid": 42 }, "backtrace": [ "sysrq_handle_crash", "write_sysrq_trigger" ],' \
	'  "taint": "G" }' >"$dumps/2026-01-01-00:00:00/report.json"
expect "info by an ID's first 4 digits" 0 -- "$kf" -c "$t/conf" info "${id:0:4}"
has "info: the task" "$t/out" "task:        bash (pid 42)"
has "info: the backtrace" "$t/out" "backtrace:   sysrq_handle_crash"
has "info: how to debug it" "$t/out" "debug:       kdump-file debug $id"
expect "info --json" 0 -- "$kf" -c "$t/conf" --json info "$id"
json "info --json: the report's signature" '.report.signature == "0123456789abcdef"'
json "info --json: the schema, no kernel log, no capture record" \
	'.schema == 1 and .modules == null and .hooks == null and .extra_modules == null'
if jq -e --argjson k "$(cat "$t/dump-keys")" 'keys as $i | all($k[]; . as $x | $i | index($x))' "$t/out" >/dev/null; then
	pass "info --json: a dump's keys as in list and status"
else
	fail "info --json: keys $(jq -c keys "$t/out") lack some of $(cat "$t/dump-keys")"
fi
printf '%s\n' "Modules linked in: dummy loop" >"$dumps/2026-01-01-00:00:00/dmesg.txt"
expect "info --json with a kernel log" 0 -- "$kf" -c "$t/conf" --json info "$id"
json "info --json: the modules, an array" '.modules == ["dummy", "loop"]'
rm "$dumps/2026-01-01-00:00:00/dmesg.txt"
expect "info of an unknown ID" 1 -- "$kf" -c "$t/conf" info ffffffff
has "info: what to do" "$t/err" "see 'kdump-file list'"
# One dump, one size: list, info and status write it alike; status names
# the dump by the ID list gives it.
d1=$dumps/2026-01-15-00:00:00
mkdir -m 0700 "$d1"
truncate -s 1M "$d1/vmcore"
id1=$("$kf" -c "$t/conf" --json list | jq -r '.dumps[-1].id')
expect "list with a 1 MiB dump" 0 -- "$kf" -c "$t/conf" list
has "list: the ID" "$t/out" "$id1  2026-01-15T00:00:00Z"
has "list: the size in MiB" "$t/out" " 1.0 MiB  complete"
expect "info with a 1 MiB dump" 0 -- "$kf" -c "$t/conf" info "$id1"
has "info: the size" "$t/out" "state:       complete: vmcore of 1.0 MiB"
expect "status with a 1 MiB dump" 0 3 -- "$kf" -c "$t/conf" status
has "status: the ID and the size" "$t/out" "last dump:    $id1 $d1: complete, 1.0 MiB"
expect "status --json with a 1 MiB dump" 0 3 -- "$kf" -c "$t/conf" --json status
json "status --json: the dump's ID" ".last_dump.id == \"$id1\""
rm -r "$d1"
mkdir -m 0700 "$dumps/2026-02-01-00:00:00"
echo "log" >"$dumps/2026-02-01-00:00:00/dmesg.txt"
expect "debug a dump without a vmcore" 1 -- "$kf" -c "$t/conf" debug
has "debug: where the log is" "$t/err" "has no vmcore"
has "debug: the log named" "$t/err" "its kernel log is $dumps/2026-02-01-00:00:00/dmesg.txt"
# Nothing saved: no kernel log to point at.
rm "$dumps/2026-02-01-00:00:00/dmesg.txt"
expect "debug a dump with nothing saved" 1 -- "$kf" -c "$t/conf" debug
has "debug: nothing saved" "$t/err" "has no vmcore and no kernel log"
if grep -q dmesg.txt "$t/err"; then
	fail "debug: names a dmesg.txt that does not exist: $(cat "$t/err")"
else
	pass "debug: no dmesg.txt named when there is none"
fi
rm -r "$dumps/2026-02-01-00:00:00"
# A vmlinux that is not there is said as such, not as another kernel's.
expect "debug --vmlinux of a missing file" 1 -- "$kf" -c "$t/conf" debug --vmlinux "$t/no-vmlinux" "$id"
has "debug --vmlinux: the file and why" "$t/err" "cannot use vmlinux '$t/no-vmlinux': No such file or directory"
# debug runs crash with no .crashrc, its own or root's, and in "/": run
# from a directory someone else can write, crash would run the commands of
# its .crashrc as root.  Stand-ins: kdump-file-analyze names a vmlinux,
# crash keeps its arguments and working directory and, as crash does, runs
# the shell escapes of ./.crashrc unless told --no_crashrc.
mkdir -m 0700 "$t/dbin" "$t/dcwd"
: >"$t/dbin/vmlinux"
cat >"$t/dbin/kdump-file-analyze" <<'EOF_ANALYZE'
#!/bin/sh
[ "$1" = vmlinux ] || exit 1
echo "${4:-${0%/*}/vmlinux}"
EOF_ANALYZE
cat >"$t/dbin/crash" <<'EOF_CRASH'
#!/bin/sh
pwd >"${0%/*}/crash-cwd"
printf '%s\n' "$@" >"${0%/*}/crash-args"
case " $* " in
*" --no_crashrc "*) ;;
*) [ -f .crashrc ] && sed -n 's/^!//p' .crashrc | sh ;;
esac
exit 0
EOF_CRASH
chmod 0700 "$t/dbin/kdump-file-analyze" "$t/dbin/crash"
printf '!touch %s\n' "$t/dcwd/crashrc-ran" >"$t/dcwd/.crashrc"
expect "debug from a directory with a .crashrc" 0 -- \
	env -C "$t/dcwd" PATH="$t/dbin:$PATH" "$kf" -c "$t/conf" debug "$id"
if [ -e "$t/dcwd/crashrc-ran" ]; then
	fail "debug: crash ran the commands of the caller's .crashrc"
else
	pass "debug: the caller's .crashrc not read"
fi
if [ "$(cat "$t/dbin/crash-args" 2>/dev/null)" = "$(printf '%s\n' --no_crashrc \
	"$t/dbin/vmlinux" "$dumps/2026-01-01-00:00:00/vmcore")" ]; then
	pass "debug: crash --no_crashrc with absolute paths"
else
	fail "debug: crash given: $(cat "$t/dbin/crash-args" 2>/dev/null)"
fi
if [ "$(cat "$t/dbin/crash-cwd" 2>/dev/null)" = / ]; then
	pass "debug: crash run in /"
else
	fail "debug: crash run in '$(cat "$t/dbin/crash-cwd" 2>/dev/null)', not /"
fi
# A vmlinux named by a relative path is the caller's, made absolute.
rm -f "$t/dbin/crash-args"
expect "debug --vmlinux by a relative path" 0 -- \
	env -C "$t/dbin" PATH="$t/dbin:$PATH" "$kf" -c "$t/conf" debug --vmlinux ./vmlinux "$id"
has "debug: the vmlinux made absolute" "$t/dbin/crash-args" "$t/dbin/vmlinux"
# report names dumps as info and debug do, and says why it cannot.
expect "report of a missing directory" 1 -- "$kf" -c "$t/conf" report "$t/no-dump/"
has "report: the missing directory" "$t/err" "cannot report on '$t/no-dump/': No such file or directory"
expect "report of an unknown ID" 1 -- "$kf" -c "$t/conf" report ffffffff
has "report: the unknown ID" "$t/err" "no dump 'ffffffff' in $dumps: see 'kdump-file list'"

# report --new and the crash's journal entry, with stand-ins for
# kdump-file-analyze and for journald: in a private mount namespace, a
# socket at /run/systemd/journal/socket that receives one entry into a file
# (the native protocol: one FIELD=value line each), or one that refuses it.
mkdir -m 0700 "$t/bin"
cat >"$t/bin/kdump-file-analyze" <<'EOF_ANALYZE'
#!/bin/sh
echo "$*" >>"${0%/*}/runs"
printf '{ "signature": "fedcba9876543210" }\n' >"$2/report.json"
echo "kdump-file: crash fedcba9876543210: test"
EOF_ANALYZE
cat >"$t/journald.py" <<'EOF_JOURNALD'
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
if sys.argv[2] != "-":
    s.settimeout(30)
    data = s.recv(1 << 20)
    open(sys.argv[2], "wb").write(data)
EOF_JOURNALD
chmod 0700 "$t/bin/kdump-file-analyze"
# with_journal FILE|- CMD...: CMD with a journal that writes the entry it
# gets to FILE, or that refuses every entry (-).
with_journal() {
	# shellcheck disable=SC2016 # the script expands them, in the namespace
	unshare -m --propagation private sh -c '
		py=$1 mode=$2
		shift 2
		mount -t tmpfs none /run/systemd || exit 1
		mkdir /run/systemd/journal
		python3 "$py" /run/systemd/journal/socket "$mode" &
		pid=$!
		i=0
		while [ ! -S /run/systemd/journal/socket ] && [ $i -lt 100 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		rc=0
		"$@" || rc=$?
		[ "$mode" = - ] || wait "$pid"
		exit "$rc"' with_journal "$t/journald.py" "$@"
}
report() {
	expect "$1" 0 -- with_journal "$2" env PATH="$t/bin:$PATH" "$kf" -c "$t/conf" "${@:3}"
}
# A dump reported while the journal refuses the entry: said once, with
# the ID list shows, and the report stands; the next boot's report --new
# finds the report and neither analyses nor sends again.
mkdir -m 0700 "$dumps/2026-03-01-00:00:00"
echo core >"$dumps/2026-03-01-00:00:00/vmcore"
id3=$("$kf" -c "$t/conf" --json list | jq -r '.dumps[] | select(.dir | endswith("03-01-00:00:00")) | .id')
report "report --new, the journal refusing" - --new report
has "report: the analysis ran" "$t/bin/runs" "report $dumps/2026-03-01-00:00:00"
has "report: the summary" "$t/out" "kdump-file: crash fedcba9876543210"
has "report: the entry was not sent" "$t/err" "cannot send its crash entry to the journal"
has "report: the ID list shows ($id3)" "$t/err" "'kdump-file info $id3' shows the crash"
report "report --new again" - --new report
if [ "$(wc -l <"$t/bin/runs")" -eq 1 ] && [ ! -s "$t/out" ] && [ ! -s "$t/err" ]; then
	pass "report --new again: no analysis, no second entry"
else
	fail "report --new again: $(wc -l <"$t/bin/runs") analyses, output: $(cat "$t/out" "$t/err")"
fi
# A newer dump, the journal listening: the entry's fields.
mkdir -m 0700 "$dumps/2026-04-01-00:00:00"
echo core >"$dumps/2026-04-01-00:00:00/vmcore"
printf '{ "crash_time": 1775001600, "kernel_release": "6.1.0-test" }\n' \
	>"$dumps/2026-04-01-00:00:00/metadata.json"
id4=$("$kf" -c "$t/conf" --json list | jq -r '.dumps[] | select(.dir | endswith("04-01-00:00:00")) | .id')
report "report --new, the journal listening" "$t/entry" --new report
if [ ! -s "$t/err" ]; then pass "report: no warning"; else fail "report: $(cat "$t/err")"; fi
for f in MESSAGE_ID=015172fc9e57401f9f980255c3aeecad PRIORITY=2 \
	"MESSAGE=Kernel crash $id4: fedcba9876543210 (kernel 6.1.0-test), dump in $dumps/2026-04-01-00:00:00" \
	"KDUMP_FILE_CRASH_ID=$id4" KDUMP_FILE_SIGNATURE=fedcba9876543210 \
	KDUMP_FILE_KERNEL=6.1.0-test KDUMP_FILE_CRASH_TIME=2026-04-01T00:00:00Z \
	"KDUMP_FILE_DUMP_DIR=$dumps/2026-04-01-00:00:00" KDUMP_FILE_COMPLETE=yes; do
	if grep -qxF -- "$f" "$t/entry" 2>/dev/null; then
		pass "entry: $f"
	else
		fail "entry: no line '$f' in: $(cat "$t/entry" 2>/dev/null)"
	fi
done
report "report of a reported dump, by its directory" - report "$dumps/2026-04-01-00:00:00/"
if grep -q journal "$t/err"; then
	fail "report of a reported dump: a second entry was tried: $(cat "$t/err")"
else
	pass "report of a reported dump: no second entry"
fi
report "report by the ID list gives" - report "${id4:0:5}"
if [ "$(tail -n 1 "$t/bin/runs")" = "report $dumps/2026-04-01-00:00:00" ]; then
	pass "report by an ID: that dump analysed"
else
	fail "report by an ID: analysed $(tail -n 1 "$t/bin/runs")"
fi
# A dump named by a relative path: the entry names it as list does.
mkdir -m 0700 "$dumps/2026-05-01-00:00:00"
echo log >"$dumps/2026-05-01-00:00:00/dmesg.txt"
echo core >"$dumps/2026-05-01-00:00:00/vmcore"
id5=$("$kf" -c "$t/conf" --json list | jq -r '.dumps[] | select(.dir | endswith("05-01-00:00:00")) | .id')
rm -f "$t/entry"
cd "$dumps" || exit 1
report "report of a new dump by a relative path" "$t/entry" report ./2026-05-01-00:00:00/
cd - >/dev/null || exit 1
for f in "KDUMP_FILE_CRASH_ID=$id5" "KDUMP_FILE_DUMP_DIR=$dumps/2026-05-01-00:00:00" \
	KDUMP_FILE_CRASH_TIME=2026-05-01T00:00:00Z; do
	if grep -qxF -- "$f" "$t/entry" 2>/dev/null; then
		pass "entry by a relative path: $f"
	else
		fail "entry by a relative path: no line '$f' in: $(cat "$t/entry" 2>/dev/null)"
	fi
done
rm -r "$dumps/2026-03-01-00:00:00" "$dumps/2026-04-01-00:00:00" "$dumps/2026-05-01-00:00:00"

# A dump directory others may write.
chmod 1777 "$dumps"
expect "show with a world-writable dump directory" 1 -- "$kf" -c "$t/conf" show
has "the message says why" "$t/err" "may be written by others than root (mode 1777)"
has "the message says what to do" "$t/err" "chmod 0700"
chmod 0700 "$dumps"
ln -s "$dumps" "$t/link"
conf "path = $t/link"
expect "show with a link as the dump directory" 1 -- "$kf" -c "$t/conf" show
has "the link is named" "$t/err" "is a symbolic link"

# --no-pager and -q: every command takes them; -q keeps the results.
conf "path = $dumps"
expect "list --no-pager -q" 0 -- "$kf" -c "$t/conf" --no-pager -q list
has "list -q: the dumps still listed" "$t/out" "ID        TIME"
expect "status --no-pager" 0 3 -- "$kf" -c "$t/conf" status --no-pager
has "status --no-pager: the status" "$t/out" "reservation:"
expect "import -q" 0 -- "$kf" -q --no-pager import "$(dirname "$(realpath "$0")")/import/debian12-kdump-tools"
has "import -q: the configuration" "$t/out" "path = /var/crash"

# Another user than root: the commands that need root say so, instead of
# what they could not create.
if [ "$(id -u)" != 0 ]; then
	echo "skip as another user: the tests do not run as root"
elif ! command -v setpriv >/dev/null; then
	echo "skip as another user: no setpriv"
elif ! setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$kf"; then
	echo "skip as another user: nobody cannot run $kf"
else
	for verb in unload recover rebuild; do
		expect "$verb as nobody" 1 -- setpriv --reuid=65534 --regid=65534 \
			--clear-groups "$kf" "$verb"
		has "$verb as nobody: must be root" "$t/err" "kdump-file: error: '$verb' must be run as root"
	done
fi

# Bad values: what was wrong, where, and the character.
conf "path = $t/crash dumps"
expect "a path with a space" 1 -- "$kf" -c "$t/conf" show
has "the space is named" "$t/err" "byte 0x20"
conf "cmdline_append = quiet; reboot"
expect "a shell metacharacter in cmdline_append" 1 -- "$kf" -c "$t/conf" show
has "the character is named" "$t/err" "';' is not allowed"
conf "raw = /dev/null-ish" "raw_overwrite = perhaps"
expect "raw_overwrite neither yes nor no" 1 -- "$kf" -c "$t/conf" show
has "raw_overwrite: the values" "$t/err" "is not yes or no"

# Dry runs are dry: setup --dry-run, show, estimate and status make no
# directory, build no initramfs, write no drop-in and run no update-grub;
# setup --dry-run says what setup would do and whether it could.  The GRUB
# drop-in and kdump-file's state are the machine's own: their listings
# before and after are compared, with the temporary directory's.  A
# stand-in update-grub stands for GRUB; PATH without one, for a machine
# without it.
dropin=/etc/default/grub.d/kdump-file.cfg
head -c 65536 /dev/urandom | gzip -1 >"$t/initrd.img"
chmod 0600 "$t/initrd.img"
mkdir -m 0700 "$t/grub" "$t/nogrub"
printf '#!/bin/sh\ntouch "%s/update-grub-ran"\n' "$t" >"$t/grub/update-grub"
chmod 0700 "$t/grub/update-grub"
# snapshot: every name below $t and kdump-file's places, but the output
snapshot() {
	find "$t" /etc/default/grub.d /run/kdump-file /var/lib/kdump-file 2>/dev/null |
		grep -vxF -e "$t/out" -e "$t/err" | sort
}
# dry NAME STATUS -- CMD...: expect, and nothing made or removed
dry() {
	local before
	before=$(snapshot)
	expect "$@"
	if [ "$before" = "$(snapshot)" ]; then
		pass "$1: nothing made"
	else
		fail "$1: made or removed: $(diff <(echo "$before") <(snapshot) | grep '^[<>]' | tr '\n' ' ')"
	fi
}
newdir=$t/new-dumps
conf "path = $newdir" "$bz" "initramfs = $t/initrd.img"
if [ -e "$dropin" ]; then
	echo "skip setup --dry-run: $dropin exists on this machine"
else
	dry "setup --dry-run" 0 -- env PATH="$t/grub:$PATH" "$kf" -c "$t/conf" setup --dry-run
	has "setup --dry-run: the size" "$t/out" "kdump-file: setup would write crashkernel="
	has "setup --dry-run: where, and update-grub" "$t/out" "to $dropin and run update-grub"
	dry "setup --dry-run without GRUB" 1 -- env PATH="$t/nogrub" "$kf" -c "$t/conf" setup --dry-run
	has "setup --dry-run without GRUB: could not run" "$t/err" \
		"kdump-file: error: setup could not run: update-grub is not installed"
	has "setup --dry-run without GRUB: the size for the boot loader" "$t/err" \
		"add crashkernel="
	if grep -q "would write" "$t/out"; then fail "setup --dry-run without GRUB: 'would write'"; else pass "setup --dry-run without GRUB: no 'would write'"; fi
	dry "setup --undo --dry-run" 0 -- env PATH="$t/grub:$PATH" "$kf" -c "$t/conf" setup --undo --dry-run
	has "setup --undo --dry-run: nothing to undo" "$t/out" "nothing to undo"
	# The initramfs kdump-file builds, not there: said, not built.
	conf "path = $newdir" "$bz"
	dry "setup --dry-run, the initramfs not built" 0 -- env PATH="$t/grub:$PATH" \
		"$kf" -c "$t/conf" setup --dry-run
	has "setup --dry-run: it would build the initramfs" "$t/out" \
		"kdump-file: setup would build the capture initramfs /var/lib/kdump-file/initramfs-"
	# setup itself without GRUB: refused before anything is built or
	# written (only where the drop-in's directory is absent, so that a
	# setup that wrote it is seen and undone).
	conf "path = $newdir" "$bz" "initramfs = $t/initrd.img"
	if [ ! -e /etc/default/grub.d ]; then
		dry "setup without GRUB" 1 -- env PATH="$t/nogrub" "$kf" -c "$t/conf" setup
		has "setup without GRUB: why and what to do" "$t/err" \
			"cannot set up: update-grub is not installed, so a GRUB drop-in would reach no boot entry"
		[ ! -e /etc/default/grub.d ] || rm -rf /etc/default/grub.d
	fi
	if [ -e "$t/update-grub-ran" ]; then fail "update-grub ran"; else pass "update-grub never ran"; fi
	# One size: status recommends what setup would write.
	expect "setup --dry-run, its size" 0 -- env PATH="$t/grub:$PATH" "$kf" -c "$t/conf" setup --dry-run
	mb=$(sed -n 's/.*setup would write crashkernel=\([0-9]*\)M.*/\1/p' "$t/out")
	expect "status --json, the recommended reservation" 0 3 -- "$kf" -c "$t/conf" --json status
	json "status --json: the reservation setup writes (${mb}M)" \
		".recommended_reservation_bytes == ${mb:-0} * 1048576"
	if [ "$(cat /sys/kernel/kexec_crash_size 2>/dev/null)" = 0 ]; then
		expect "status without a reservation" 0 3 -- "$kf" -c "$t/conf" status
		has "status: the size setup writes" "$t/out" "add crashkernel=${mb}M to the kernel command line"
	fi
fi
# setup and a GRUB drop-in edited by hand: never replaced or removed
# unawares.  /etc/default is a directory of the test's own, bound over the
# machine's in a private mount namespace; a stand-in update-grub.
# with_etc_default CMD...: CMD with $t/etc-default as /etc/default
with_etc_default() {
	# shellcheck disable=SC2016 # the script expands them, in the namespace
	unshare -m --propagation private sh -c '
		mount --bind "$1" /etc/default || exit 1
		shift
		exec "$@"' with_etc_default "$t/etc-default" "$@"
}
if [ -d /etc/default ] && unshare -m true 2>/dev/null; then
	ed=$t/etc-default/grub.d/kdump-file.cfg
	mkdir -p "$t/etc-default"
	conf "path = $newdir" "$bz" "initramfs = $t/initrd.img"
	gsetup=(with_etc_default env PATH="$t/grub:$PATH" "$kf" -c "$t/conf")
	expect "setup, no drop-in yet" 0 -- "${gsetup[@]}" setup
	has "setup: the drop-in written" "$ed" '# Written by "kdump-file setup"'
	expect "setup again over its own drop-in" 0 -- "${gsetup[@]}" setup
	has "setup again: already set up" "$t/out" "already set up: crashkernel="
	# Its own drop-in of another size, as an earlier setup wrote it, is
	# setup's to replace.
	# shellcheck disable=SC2016 # the drop-in's text, for GRUB to expand
	printf '%s\n' '# Written by "kdump-file setup"; "kdump-file setup --undo" removes it.' \
		'# Memory reserved at boot for the capture kernel (kdump-file estimate).' \
		'GRUB_CMDLINE_LINUX_DEFAULT="$GRUB_CMDLINE_LINUX_DEFAULT crashkernel=1M"' >"$ed"
	expect "setup over its own earlier drop-in of another size" 0 -- "${gsetup[@]}" setup
	if grep -q "crashkernel=1M" "$ed" || [ -e "$ed.bak" ]; then
		fail "setup: its own drop-in not replaced, or kept as .bak"
	else
		pass "setup: its own drop-in replaced, no .bak"
	fi
	# A hand edit: a size of the administrator's own.
	sed -i 's/crashkernel=[0-9]*M/crashkernel=256M/' "$ed"
	cp "$ed" "$t/edited"
	expect "setup over a hand-edited drop-in" 1 -- "${gsetup[@]}" setup
	has "setup: the file named, not replaced" "$t/err" \
		"/etc/default/grub.d/kdump-file.cfg was edited by hand since setup wrote it: setup does not replace it"
	has "setup: what to do" "$t/err" "or add --force to replace it; it is then kept as /etc/default/grub.d/kdump-file.cfg.bak"
	if cmp -s "$t/edited" "$ed"; then pass "setup: the hand edit kept"; else fail "setup: the hand edit replaced"; fi
	expect "setup --dry-run over a hand-edited drop-in" 1 -- "${gsetup[@]}" setup --dry-run
	has "setup --dry-run: would not replace it" "$t/err" "was edited by hand since setup wrote it"
	expect "setup --undo over a hand-edited drop-in" 1 -- "${gsetup[@]}" setup --undo
	has "setup --undo: the file named, not removed" "$t/err" "setup --undo does not remove it"
	if cmp -s "$t/edited" "$ed"; then pass "setup --undo: the hand edit kept"; else fail "setup --undo: the hand edit removed"; fi
	expect "setup --force over a hand-edited drop-in" 0 -- "${gsetup[@]}" setup --force
	has "setup --force: the copy named" "$t/out" \
		"kept the hand-edited /etc/default/grub.d/kdump-file.cfg as /etc/default/grub.d/kdump-file.cfg.bak"
	if cmp -s "$t/edited" "$ed.bak"; then pass "setup --force: the hand edit in .bak"; else fail "setup --force: no .bak of the hand edit"; fi
	has "setup --force: its own drop-in written" "$ed" '# Written by "kdump-file setup"'
	# A line added is an edit too; --undo --force keeps it as .bak.
	echo "GRUB_TIMEOUT=1" >>"$ed"
	cp "$ed" "$t/edited"
	expect "setup --undo over a line added" 1 -- "${gsetup[@]}" setup --undo
	expect "setup --undo --force over a line added" 0 -- "${gsetup[@]}" setup --undo --force
	if [ ! -e "$ed" ] && cmp -s "$t/edited" "$ed.bak"; then
		pass "setup --undo --force: removed, kept as .bak"
	else
		fail "setup --undo --force: $(ls "$t/etc-default/grub.d")"
	fi
else
	echo "skip setup over a hand-edited drop-in: no /etc/default or no mount namespace"
fi
# Nothing loaded: status says so first.
if [ "$(cat /sys/kernel/kexec_crash_loaded 2>/dev/null || echo 0)" != 1 ]; then
	expect "status, nothing loaded" 3 -- "$kf" -c "$t/conf" status
	if head -n 1 "$t/out" | grep -q '^NOT PROTECTED: a crash now is not captured'; then
		pass "status, nothing loaded: NOT PROTECTED first"
	else
		fail "status, nothing loaded: first line '$(head -n 1 "$t/out")'"
	fi
	expect "status --json, nothing loaded" 3 -- "$kf" -c "$t/conf" --json status
	json "status --json: not protected" '.protected == false'
fi
# A kernel without kexec: what load says, and no hotplug advice.
if [ ! -e /sys/kernel/kexec_crash_size ]; then
	expect "status on a kernel without kexec" 3 -- "$kf" -c "$t/conf" status
	has "status: why there is no reservation" "$t/out" "cannot read /sys/kernel/kexec_crash_size (is this kernel built with CONFIG_KEXEC_FILE and CONFIG_CRASH_DUMP?)"
	if grep -q "hotplug:" "$t/out"; then
		fail "status without kexec: hotplug advice: $(grep hotplug: "$t/out")"
	else
		pass "status without kexec: no hotplug advice"
	fi
else
	echo "skip status on a kernel without kexec: this kernel has it"
fi
conf "path = $newdir" "$bz"
dry "show, the dump directory missing" 0 -- "$kf" -c "$t/conf" show
dry "show --json, the dump directory missing" 0 -- "$kf" -c "$t/conf" --json show
json "show --json: loadable" '.loadable == true and .problems == []'
dry "status, the dump directory missing" 0 3 -- "$kf" -c "$t/conf" status
dry "estimate, the initramfs not built" 1 -- "$kf" -c "$t/conf" estimate
has "estimate: built by rebuild, not by estimate" "$t/err" "is not built yet: run 'kdump-file rebuild'"
conf "path = $newdir" "$bz" "initramfs = $t/initrd.img"
dry "estimate, the dump directory missing" 0 -- "$kf" -c "$t/conf" estimate
has "estimate: the recommendation" "$t/out" "recommended: crashkernel="

# The expected dump: makedumpfile --mem-usage as a stand-in that prints the
# table of a 1 GiB guest (this project's kernel) and counts its runs, and
# its cache.  estimate runs it each time, status from the cache; a dump
# target too small for the dump is warned of, a large one is not; a
# makedumpfile that counts no free pages is warned of.
mdf=$t/mdf
mkdir -m 0700 "$mdf" "$mdf/bin" "$t/ed"
cat >"$mdf/table" <<'EOF_TABLE'
The kernel version is not supported.
The makedumpfile operation may be incomplete.

TYPE		PAGES			EXCLUDABLE	DESCRIPTION
----------------------------------------------------------------------
ZERO		2390            	yes		Pages filled with zero
NON_PRI_CACHE	1208            	yes		Cache pages without private flag
PRI_CACHE	294             	yes		Cache pages with private flag
USER		99              	yes		User process pages
FREE		176901          	yes		Free pages
KERN_DATA	24847           	no		Dumpable kernel data 

page size:		4096            
Total pages on system:	205739          
Total size on system:	842706944        Byte
EOF_TABLE
# stand_in TABLE: the stand-in makedumpfile printing TABLE
stand_in() {
	# shellcheck disable=SC2016 # the stand-in's own $1
	printf '#!/bin/sh\n[ "$1" = -v ] && { echo "makedumpfile: version 1.7.2 (released on 20 Oct 2022)"; exit 0; }\necho run >>"%s/runs"\ncat "%s"\n' \
		"$mdf" "$1" >"$mdf/bin/makedumpfile"
	chmod 0700 "$mdf/bin/makedumpfile"
}
stand_in "$mdf/table"
runs() { if [ -f "$mdf/runs" ]; then wc -l <"$mdf/runs"; else echo 0; fi; }
mdfenv=(env PATH="$mdf/bin:$PATH" KDUMP_FILE_MEMUSAGE_CACHE="$mdf/mem-usage.json")
conf "path = $t/ed" "$bz" "initramfs = $t/initrd.img"
expect "estimate: the expected dump" 0 -- "${mdfenv[@]}" "$kf" -c "$t/conf" estimate
has "estimate: its size, time and pages" "$t/out" \
	"expected dump: about 26 MiB, written in about 1.1 s (dump level 31, lzo; from makedumpfile --mem-usage: 24847 of 205739 pages kept)"
has "estimate: where the figures come from" "$t/out" "make bench measured on emulated (TCG) guests"
has "estimate: makedumpfile's own warning, harmless" "$t/out" \
	"makedumpfile: version 1.7.2 says it does not support kernel $(uname -r), yet tells its pages apart"
expect "estimate --json: the expected dump" 0 -- "${mdfenv[@]}" "$kf" -c "$t/conf" --json estimate
json "estimate --json: its figures" \
	'.expected_dump.kept_pages == 24847 and .expected_dump.total_pages == 205739 and .expected_dump.compression == "lzo" and .expected_dump.bytes > 26 * 1048576 and .expected_dump.bytes < 27 * 1048576'
json "estimate --json: the crashkernel= figures too" '.recommended_reservation_bytes > 0'
if [ "$(runs)" = 2 ]; then pass "estimate: makedumpfile run each time"; else fail "estimate: makedumpfile ran $(runs) times, not 2"; fi
json "estimate --json: run afresh" '.expected_dump.cached == false'
expect "status --json: the expected dump from the cache" 0 3 -- "${mdfenv[@]}" "$kf" -c "$t/conf" --json status
json "status --json: the cached figures" '.expected_dump.cached == true and .expected_dump.kept_pages == 24847'
json "status --json: no warning" '.dump_room_warning == null and .makedumpfile_warning == null'
if [ "$(runs)" = 2 ]; then pass "status: the cache used"; else fail "status: makedumpfile ran $(( $(runs) - 2 )) more times"; fi
# with_tmpfs SIZE DIR CMD...: CMD with a tmpfs of SIZE on DIR
with_tmpfs() {
	# shellcheck disable=SC2016 # the script expands them, in the namespace
	unshare -m --propagation private sh -c '
		mount -t tmpfs -o "size=$1" none "$2" || exit 1
		shift 2
		exec "$@"' with_tmpfs "$@"
}
if unshare -m true 2>/dev/null; then
	mkdir -m 0700 "$t/small"
	conf "path = $t/small/dumps" "$bz" "initramfs = $t/initrd.img"
	expect "status, a 16M dump target" 0 3 -- with_tmpfs 16m "$t/small" "${mdfenv[@]}" "$kf" -c "$t/conf" status
	has "status: the target too small, with the figures" "$t/err" \
		"kdump-file: warning: dump target $t/small/dumps has 16 MiB free, less than the 32 MiB a dump is expected to need (about 26 MiB, a fifth more and the kernel log): a crash now would not be saved whole; free space on $t/small/dumps, or set compression = zlib in $t/conf"
	expect "status --json, a 16M dump target" 0 3 -- with_tmpfs 16m "$t/small" "${mdfenv[@]}" "$kf" -c "$t/conf" --json status
	json "status --json: the room warning" '.dump_room_warning | startswith("dump target ")'
	conf "path = $t/small/dumps" "$bz" "initramfs = $t/initrd.img" "compression = zlib"
	expect "status, a 16M dump target, zlib" 0 3 -- with_tmpfs 16m "$t/small" "${mdfenv[@]}" "$kf" -c "$t/conf" status
	has "status: zlib set, dump_level 31: only free space" "$t/err" "free space on $t/small/dumps"
	if grep -q "compression = zlib in" "$t/err"; then fail "status: zlib advised again"; else pass "status: zlib not advised again"; fi
	conf "path = $t/small/dumps" "$bz" "initramfs = $t/initrd.img"
	expect "status, a 1G dump target" 0 3 -- with_tmpfs 1g "$t/small" "${mdfenv[@]}" "$kf" -c "$t/conf" status
	if grep -q "warning" "$t/err"; then fail "status, a 1G target: $(cat "$t/err")"; else pass "status, a 1G target: no warning"; fi
	if [ "$(runs)" = 2 ]; then pass "status: the cache used for each target"; else fail "status: makedumpfile ran again"; fi
else
	echo "skip the dump target's room: no mount namespace"
fi
# A makedumpfile that counts no free pages (a kernel it does not know).
sed 's/^FREE\t\t176901 /FREE\t\t0      /; s/^KERN_DATA\t24847 /KERN_DATA\t201748/' "$mdf/table" >"$mdf/table-nofree"
stand_in "$mdf/table-nofree"
conf "path = $t/ed" "$bz" "initramfs = $t/initrd.img"
expect "status: no free pages counted" 0 3 -- "${mdfenv[@]}" "$kf" -c "$t/conf" status
has "status: a new makedumpfile, run again" "$t/out" "201748 of 205739 pages kept"
has "status: makedumpfile cannot tell free pages" "$t/err" \
	"kdump-file: warning: makedumpfile 1.7.2 cannot tell free pages in kernel $(uname -r) (--mem-usage counts no free pages), so the dump holds free memory too: about 213 MiB instead of "
has "status: what to do" "$t/err" "and slower; install a makedumpfile that supports $(uname -r)"
expect "status --json: no free pages counted" 0 3 -- "${mdfenv[@]}" "$kf" -c "$t/conf" --json status
json "status --json: the makedumpfile warning" '.makedumpfile_warning | contains("cannot tell free pages")'
# A dump this machine saved at the same level and compression: its size
# and speed are used, and said to be.
stand_in "$mdf/table"
mkdir -m 0700 "$t/ed/2026-02-01-00:00:00"
echo core >"$t/ed/2026-02-01-00:00:00/vmcore"
printf '%s\n' '{ "complete": true, "dump_level": 31, "compression": "lzo", "vmcore_bytes": 31457280,' \
	'  "seconds": { "find_target": 0.5, "dmesg": 0.1, "vmcore": 3.0, "total": 4.0 } }' \
	>"$t/ed/2026-02-01-00:00:00/metadata.json"
expect "estimate after a dump of this machine" 0 -- "${mdfenv[@]}" "$kf" -c "$t/conf" estimate
has "estimate: this machine's ratio and speed" "$t/out" \
	"expected dump: about 30 MiB, written in about 3.0 s (dump level 31, lzo; from makedumpfile --mem-usage: 24847 of 205739 pages kept; size and speed as this machine's last dump at that level)"
if grep -q "make bench measured" "$t/out"; then fail "estimate: the bench's note with measured figures"; else pass "estimate: no bench note with measured figures"; fi
conf "path = $t/ed" "$bz" "initramfs = $t/initrd.img" "compression = zlib"
expect "estimate, another compression than the dump's" 0 -- "${mdfenv[@]}" "$kf" -c "$t/conf" --json estimate
json "estimate --json: the bench's figures for another compression" \
	'.expected_dump.measured == false and .expected_dump.compression == "zlib"'

# mem-usage, before load in kdump-file.service: the count made once, its
# directory made when missing; a sandbox that hides /proc/kcore is no
# free-page warning.
rm -f "$mdf/runs"
muenv=(env PATH="$mdf/bin:$PATH" KDUMP_FILE_MEMUSAGE_CACHE="$mdf/state/mem-usage.json")
expect "mem-usage: counted" 0 -- "${muenv[@]}" "$kf" mem-usage
has "mem-usage: says it counted" "$t/out" "counted the pages a dump would hold (makedumpfile --mem-usage)"
if [ "$(stat -c %a "$mdf/state" 2>/dev/null)" = 700 ] && [ -f "$mdf/state/mem-usage.json" ]; then
	pass "mem-usage: the cache's directory made, 0700, and the cache written"
else
	fail "mem-usage: no cache in a 0700 $mdf/state"
fi
expect "mem-usage: counted already" 0 -- "${muenv[@]}" "$kf" mem-usage
if [ -s "$t/out" ]; then fail "mem-usage: said something the second time: $(cat "$t/out")"; else pass "mem-usage: nothing said when counted already"; fi
if [ "$(runs)" = 1 ]; then pass "mem-usage: makedumpfile ran once"; else fail "mem-usage: makedumpfile ran $(runs) times, not 1"; fi
# shellcheck disable=SC2016 # the stand-in's own $1
printf '#!/bin/sh\n[ "$1" = -v ] && { echo "makedumpfile: version 1.7.3"; exit 0; }\necho "check_elf_format: Can'"'"'t read /proc/kcore. Success" >&2\necho "makedumpfile Failed." >&2\nexit 1\n' \
	>"$mdf/bin/makedumpfile"
expect "mem-usage: makedumpfile fails" 1 -- "${muenv[@]}" "$kf" mem-usage
has "mem-usage: why" "$t/err" "kdump-file: error: cannot count the pages a dump would hold: makedumpfile --mem-usage /proc/kcore failed: check_elf_format: Can't read /proc/kcore. Success"
conf "path = $t/ed" "$bz" "initramfs = $t/initrd.img"
expect "status, /proc/kcore hidden" 0 3 -- "${muenv[@]}" "$kf" -c "$t/conf" status
if grep -q "cannot tell free pages" "$t/err"; then fail "status: a hidden /proc/kcore taken for a makedumpfile that cannot tell free pages"; else pass "status: no free-page warning when /proc/kcore is hidden"; fi
stand_in "$mdf/table"
if unshare -m true 2>/dev/null; then
	conf "path = $t/small/dumps" "$bz" "initramfs = $t/initrd.img"
	expect "mem-usage, a 16M dump target" 0 -- with_tmpfs 16m "$t/small" "${muenv[@]}" "$kf" -c "$t/conf" mem-usage
	has "mem-usage: load's warning of the target too small" "$t/err" \
		"kdump-file: warning: dump target $t/small/dumps has 16 MiB free, less than the 32 MiB a dump is expected to need"
fi

# show exits 1 where load would fail, one line for each reason, with the
# checks load makes: the capture kernel, the initramfs, the target.
conf "path = $dumps" "kernel = $t/no-vmlinuz"
expect "show with a missing capture kernel" 1 -- "$kf" -c "$t/conf" show
has "show: the missing kernel named" "$t/err" \
	"kdump-file: error: capture kernel '$t/no-vmlinuz' does not exist: install that kernel's package, or set 'kernel' in $t/conf"
has "show: the plan still shown" "$t/out" "kernel:      $t/no-vmlinuz"
expect "show --json with a missing capture kernel" 1 -- "$kf" -c "$t/conf" --json show
json "show --json: not loadable, and why" \
	".loadable == false and (.problems[0] | startswith(\"capture kernel '$t/no-vmlinuz' does not exist\"))"
if [ ! -e "/boot/vmlinuz-$(uname -r)" ]; then
	conf "path = $dumps"
	expect "show without the running kernel's image" 1 -- "$kf" -c "$t/conf" show
	has "show: /boot's image named" "$t/err" "capture kernel '/boot/vmlinuz-$(uname -r)' does not exist"
fi
conf "path = $dumps" "kernel = $t/initrd.img"
expect "show with a kernel that is no bzImage" 1 -- "$kf" -c "$t/conf" show
has "show: not a bzImage" "$t/err" "capture kernel '$t/initrd.img' is not an x86_64 bzImage"
mkbzimage "$t/vmlinuz-other" 0.0.0-other
conf "path = $dumps" "kernel = $t/vmlinuz-other"
expect "show with a kernel of another release" 1 -- "$kf" -c "$t/conf" show
has "show: the releases named" "$t/err" \
	"capture kernel '$t/vmlinuz-other' is release 0.0.0-other, but the capture initramfs kdump-file builds holds the modules of $(uname -r)"
mkdir -m 0700 "$t/cpio"
echo init >"$t/cpio/init"
(cd "$t/cpio" && echo init | cpio -o -H newc --quiet | gzip -1 >"$t/cpio.img")
chmod 0600 "$t/cpio.img"
conf "path = $dumps" "kernel = $t/vmlinuz-other" "initramfs = $t/cpio.img"
expect "show with a kernel of another release and its initramfs" 0 -- "$kf" -c "$t/conf" show
conf "path = $dumps" "$bz" "initramfs = $t/no-initrd.img"
expect "show with a missing configured initramfs" 1 -- "$kf" -c "$t/conf" show
has "show: the initramfs named" "$t/err" "capture initramfs '$t/no-initrd.img' does not exist"
conf "target = UUID=00000000-0000-4000-8000-00000000dead" "kernel = $t/no-vmlinuz"
expect "show with an absent target and kernel" 1 -- "$kf" -c "$t/conf" show
has "show: the kernel, one line" "$t/err" "kdump-file: error: capture kernel '$t/no-vmlinuz' does not exist"
has "show: the absent target, one line" "$t/err" \
	"kdump-file: error: dump target UUID=00000000-0000-4000-8000-00000000dead from $t/conf is not attached to this machine"
expect "--dry-run with another command" 2 -- "$kf" -c "$t/conf" show --dry-run
has "--dry-run: which command takes it" "$t/err" "--dry-run is for setup"

# panic_on: what status and show say, and a word it does not know.
conf "path = $dumps" "panic_on = warn, oops" "$bz"
expect "status --json with panic_on" 0 3 -- "$kf" -c "$t/conf" --json status
json "status --json: panic_on is what is set now" '.panic_on | type == "array"'
json "status --json: panic_on as configured" '.panic_on_configured == ["oops", "warn"]'
expect "status with panic_on" 0 3 -- "$kf" -c "$t/conf" status
has "status: the panic on line" "$t/out" "panic on:     "
expect "show --json with panic_on" 0 -- "$kf" -c "$t/conf" --json show
json "show --json: panic_on" '.panic_on == ["oops", "warn"]'
json "show --json: not the capture kernel's" '.capture_config.panic_on == "none"'
conf "path = $dumps" "panic_on = oops, panic"
expect "panic_on with an unknown word" 1 -- "$kf" -c "$t/conf" show
has "panic_on: the word is named" "$t/err" "'panic' is not one of"
has "panic_on: the valid words" "$t/err" "oops, hung_task, soft_lockup, hard_lockup, rcu_stall, warn or none"

# import: kdump-tools' and kdump-utils' shipped defaults (the fixtures hold
# their active lines), settings each cannot carry over, malformed input,
# and --output.
fx=$(dirname "$(realpath "$0")")/import
expect "import Debian 12's kdump-tools defaults" 0 -- "$kf" import "$fx/debian12-kdump-tools"
has "import: the dump path" "$t/out" "path = /var/crash"
has "import: kdump-config's panic_on_oops" "$t/out" "panic_on = oops"
has "import: the source named" "$t/out" "#   $fx/debian12-kdump-tools (kdump-tools)"
has "import: kdump-tools' default MAKEDUMP_ARGS" "$t/out" "compression = zlib"
has "import: the summary" "$t/err" "kdump-file: import: 7 settings carried over, 0 not carried over, 9 need nothing"
expect "import kdump-utils' defaults" 0 -- "$kf" import "$fx/fedora-kdump.conf" "$fx/fedora-sysconfig-kdump"
has "import: core_collector's compression" "$t/out" "compression = lzo"
has "import: core_collector's message level" "$t/out" "makedumpfile_args = --message-level 7"
has "import: KDUMP_COMMANDLINE_REMOVE" "$t/out" "cmdline_remove = slub_debug quiet log_buf_len swiotlb ignition.firstboot"
has "import: KDUMP_COMMANDLINE_APPEND" "$t/out" "cmdline_append = nokaslr hest_disable novmcoredd cma=0 hugetlb_cma=0 pcie_ports=compat"
has "import: udev's parameter not carried" "$t/out" "# not carried over: KDUMP_COMMANDLINE_APPEND (udev.children-max=2): kdump-file's capture runs without udev"
has "import: the summary lists it" "$t/err" "  KDUMP_COMMANDLINE_APPEND (udev.children-max=2): kdump-file's capture runs without udev"
# A network target: carried over as target = URL; --local-instead makes
# its directory local instead; one kdump-file cannot dump to stops import.
expect "import a kdump-tools SSH target" 0 -- "$kf" import "$fx/debian12-kdump-tools.ssh"
has "import: SSH as a URL" "$t/out" "target = ssh://kdump@backup.example.com/var/crash"
has "import: SSH_KEY" "$t/out" "ssh_key = /root/.ssh/kdump_id_rsa"
has "import: SSH, what to do on the collector" "$t/err" "  with a difference: SSH: dumps go to a directory per machine, HOSTNAME-MID12, in /var/crash on the collector"
expect "import --local-instead an SSH target" 0 -- "$kf" import --local-instead "$fx/debian12-kdump-tools.ssh"
has "import --local-instead: the local path" "$t/out" "path = /var/crash"
has "import --local-instead: what changed, in the file" "$t/out" "# carried over with a difference: SSH: dumps went to kdump@backup.example.com:/var/crash over SSH; with --local-instead they go to path = /var/crash on this machine instead"
has "import --local-instead: what changed, in the summary" "$t/err" "  with a difference: SSH: dumps went to kdump@backup.example.com:/var/crash over SSH"
expect "import a kdump-utils NFS target" 0 -- "$kf" import "$fx/fedora-kdump.conf.nfs"
has "import: nfs and path as a URL" "$t/out" "target = nfs://my.server.com/export/tmp/var/crash"
expect "import --local-instead an NFS target" 0 -- "$kf" import --local-instead "$fx/fedora-kdump.conf.nfs"
has "import --local-instead: nfs changed" "$t/out" "# carried over with a difference: nfs: dumps went to my.server.com:/export/tmp/var/crash over NFS"
expect "import dump_to_rootfs" 0 -- "$kf" import "$fx/fedora-kdump.conf.ssh-dump-to-rootfs"
has "import: dump_to_rootfs as fallback" "$t/out" "fallback = /srv/crash"
expect "import an IPv6 NFS server" 0 -- "$kf" import "$fx/fedora-kdump.conf.nfs-ipv6"
has "import: the IPv6 server in brackets" "$t/out" "target = nfs://[2001:db8::1:2:3:4]/export/tmp/var/crash"
expect "import a kdump-tools FTP target" 1 -- "$kf" import "$fx/debian12-kdump-tools.ftp"
has "import: FTP refused" "$t/err" "cannot import '$fx/debian12-kdump-tools.ftp': FTP: dumps go to the FTP server ftp.example.com:/dumps, which kdump-file cannot dump to: kdump-file dumps over SSH or NFS, not FTP"
expect "import --local-instead an FTP target" 0 -- "$kf" import --local-instead "$fx/debian12-kdump-tools.ftp"
has "import --local-instead: FTP's directory" "$t/out" "path = /var/crash"
expect "--local-instead with another command" 2 -- "$kf" --local-instead status
has "--local-instead: which command takes it" "$t/err" "--local-instead is for import"
# The hooks: kdump_pre stops the dump when it fails, the arguments differ.
expect "import kdump_pre and kdump_post" 0 -- "$kf" import "$fx/fedora-kdump.conf.hooks"
has "import: kdump_pre's failure stops" "$t/out" "hook_failure = stop"
has "import: the hooks' arguments" "$t/err" "  with a difference: kdump_post: kdump-file runs it with two arguments"
printf '%s\n' 'USE_KDUMP=1' 'KDUMP_COREDIR="/var/crash' >"$t/bad"
expect "import an unterminated quote" 1 -- "$kf" import "$t/bad"
has "import: file, line and fault" "$t/err" "cannot import '$t/bad': line 2: unterminated double quote in the value of KDUMP_COREDIR"
printf '%s\n' 'hello world' >"$t/other"
expect "import a file of neither tool" 1 -- "$kf" import "$t/other"
has "import: which formats it knows" "$t/err" "neither kdump-tools' configuration"
expect "import a missing file" 1 -- "$kf" import "$t/missing"
has "import: the missing file named" "$t/err" "cannot import '$t/missing': No such file or directory"
expect "import two kdump-tools files" 1 -- "$kf" import "$fx/debian12-kdump-tools.ssh" "$fx/debian12-kdump-tools"
has "import: which two files go together" "$t/err" "two files are kdump-utils' kdump.conf and its sysconfig"
expect "import three files" 2 -- "$kf" import a b c
expect "--output with another command" 2 -- "$kf" --output "$t/x" status
expect "import --output" 0 -- "$kf" import --output "$t/new.conf" "$fx/debian12-kdump-tools"
has "import --output: the file" "$t/new.conf" "path = /var/crash"
has "import --output: says where" "$t/err" "kdump-file: wrote $t/new.conf"
if [ ! -s "$t/out" ] && [ "$(stat -c %a "$t/new.conf")" = 644 ]; then
	pass "import --output: nothing on stdout, mode 0644"
else
	fail "import --output: stdout not empty or mode $(stat -c %a "$t/new.conf")"
fi
expect "import --output over a file" 1 -- "$kf" import -o "$t/new.conf" "$fx/fedora-kdump.conf"
has "import: no overwrite without --force" "$t/err" "add --force to replace it; the old file is kept as $t/new.conf.bak"
has "import: the file kept" "$t/new.conf" "(kdump-tools)"
expect "import --output --force" 0 -- "$kf" import -o "$t/new.conf" --force "$fx/fedora-kdump.conf"
has "import --force: replaced" "$t/new.conf" "(kdump-utils kdump.conf)"
has "import --force: the old file kept" "$t/new.conf.bak" "(kdump-tools)"
has "import --force: says so" "$t/err" "kdump-file: kept the previous $t/new.conf as $t/new.conf.bak"
# The /etc/kdump-file.conf the package ships holds comments only.
cp "$(dirname "$(realpath "$0")")/../conf/kdump-file.conf" "$t/shipped.conf"
expect "import --output over the shipped file" 0 -- "$kf" import -o "$t/shipped.conf" "$fx/debian12-kdump-tools"
has "import --output: the shipped file replaced" "$t/shipped.conf" "(kdump-tools)"
has "import --output: says it held comments only" "$t/err" "kdump-file: replaced $t/shipped.conf, which held comments only"
if [ ! -e "$t/shipped.conf.bak" ]; then pass "import --output: no backup of comments"; else fail "import --output: a backup of comments"; fi

# makedumpfile_args: show prints the command lines the capture runs; a
# refused option is named with its reason.
conf "path = $dumps" "compression = zlib" "dump_level = 17" \
	"makedumpfile_args = --num-threads=2 -e  --message-level 7" "$bz"
expect "show with makedumpfile_args" 0 -- "$kf" -c "$t/conf" show
# --num-threads is the request: the threads load chooses follow the
# reservation, here whatever this machine has.
has "show: the vmcore's makedumpfile line" "$t/out" \
	"vmcore:      makedumpfile -c -d 17 "
has "show: the vmcore's makedumpfile options" "$t/out" \
	"-e --message-level 7 --work-dir $dumps/<time> /proc/vmcore $dumps/<time>/vmcore-incomplete"
has "show: the threads and why" "$t/out" "threads:     "
has "show: the request" "$t/out" "2 asked for"
has "show: the dmesg's makedumpfile line" "$t/out" \
	"dmesg:       makedumpfile --dump-dmesg /proc/vmcore $dumps/<time>/dmesg.txt"
has "show: the capture's copy, normalised" "$t/out" \
	"makedumpfile_args = -e --message-level 7"
has "show: the capture's threads come on its command line" "$t/out" \
	"makedumpfile_threads = 1"
expect "show --json with makedumpfile_args" 0 -- "$kf" -c "$t/conf" --json show
json "show --json: the makedumpfile line" \
	'.makedumpfile | startswith("makedumpfile -c -d 17 ")'
conf "path = $dumps" "makedumpfile_args = -D -F"
expect "a refused makedumpfile option" 1 -- "$kf" -c "$t/conf" show
has "the refused option, its reason and the fix" "$t/err" \
	"conf:2: key 'makedumpfile_args': '-F' is refused: kdump-file chooses the flattened format itself, for a raw target (remove it)"
conf "path = $dumps" "makedumpfile_args = --num-threads 0"
expect "--num-threads 0" 1 -- "$kf" -c "$t/conf" show
has "the bounds are named" "$t/err" "'--num-threads' needs a number from 1 to 64, not '0'"
conf "path = $dumps" "makedumpfile_args = --frob"
expect "an unknown makedumpfile option" 1 -- "$kf" -c "$t/conf" show
has "unknown: said so" "$t/err" "'--frob' is not known to kdump-file: remove it"

# dump_level = dmesg: show says no vmcore; a dmesg-only dump is complete in
# list, status and info, and debug says why there is nothing for crash.
conf "path = $dumps" "dump_level = dmesg" "$bz"
expect "show with dump_level = dmesg" 0 -- "$kf" -c "$t/conf" show
has "show: no vmcore line" "$t/out" "vmcore:      none: dump_level = dmesg saves the kernel log alone"
has "show: the capture's copy" "$t/out" "dump_level = dmesg"
conf "raw = /dev/null-ish" "dump_level = dmesg"
expect "dump_level = dmesg with a raw device" 1 -- "$kf" -c "$t/conf" show
has "dmesg and raw: why" "$t/err" "dmesg is for a dump directory on a filesystem"
conf "path = $dumps"
d=$dumps/2026-07-01-00:00:00
mkdir -m 0700 "$d"
echo "Kernel panic - not syncing: sysrq triggered crash" >"$d/dmesg.txt"
printf '%s\n' '{ "kernel_release": "6.1.0-x", "crash_time": 1782864000,' \
	'  "panic": "sysrq triggered crash", "dmesg_only": true, "complete": true,' \
	'  "error": "" }' >"$d/metadata.json"
did=$("$kf" -c "$t/conf" --json list | jq -r '.dumps[-1].id')
expect "list with a dmesg-only dump" 0 -- "$kf" -c "$t/conf" list
has "list: complete, dmesg only" "$t/out" "complete, dmesg only"
expect "list --json with a dmesg-only dump" 0 -- "$kf" -c "$t/conf" --json list
json "list --json: complete and dmesg_only" \
	'.dumps[-1].state == "complete" and .dumps[-1].dmesg_only == true'
expect "status with a dmesg-only dump" 0 3 -- "$kf" -c "$t/conf" status
has "status: the last dump is complete, dmesg only" "$t/out" "complete, dmesg only (dump_level = dmesg: no vmcore)"
expect "info on a dmesg-only dump" 0 -- "$kf" -c "$t/conf" info "$did"
has "info: no vmcore by configuration" "$t/out" "state:       complete, dmesg only: no vmcore, by configuration"
has "info: the panic" "$t/out" "panic:       sysrq triggered crash"
expect "debug on a dmesg-only dump" 1 -- "$kf" -c "$t/conf" debug "$did"
has "debug: a dmesg-only dump, no vmcore" "$t/err" "has no vmcore: it is a dmesg-only dump (dump_level = dmesg)"
# Cut short: the record written while it ran says incomplete.
printf '%s\n' '{ "complete": false, "error": "the capture did not finish" }' >"$d/metadata.json"
expect "list with a dmesg-only dump cut short" 0 -- "$kf" -c "$t/conf" --json list
json "list --json: cut short is incomplete" '.dumps[-1].state == "incomplete"'
rm -r "$d"

# Hooks and extra binaries: each must be a root-only regular executable;
# extra modules must exist for the capture kernel.  Refused by show, as by
# load, before anything is loaded.
printf '#!/bin/sh\nexit 0\n' >"$t/hook"
chmod 0755 "$t/hook"
conf "path = $dumps" "pre_hook = $t/hook" "post_hook = $t/hook" "hook_timeout = 5" \
	"hook_failure = stop" "extra_binaries = $t/hook" "$bz"
expect "show with a good hook" 0 -- "$kf" -c "$t/conf" show
has "show: the hook goes to the capture" "$t/out" "pre_hook = $t/hook"
has "show: hook_failure goes to the capture" "$t/out" "hook_failure = stop"
has "show: the hook is packed" "$t/out" "packed into the capture initramfs: $t/hook $t/hook $t/hook"
conf "path = $dumps" "pre_hook = $t/hook $t/no-such-hook"
expect "a missing pre_hook" 1 -- "$kf" -c "$t/conf" show
has "the missing hook is named" "$t/err" "cannot use pre_hook '$t/no-such-hook' from $t/conf: it does not exist"
chmod 0644 "$t/hook"
conf "path = $dumps" "post_hook = $t/hook"
expect "a post_hook that is not executable" 1 -- "$kf" -c "$t/conf" show
has "not executable: the fix" "$t/err" "it is not executable (chmod 0755 '$t/hook')"
chmod 0775 "$t/hook"
expect "a group-writable post_hook" 1 -- "$kf" -c "$t/conf" show
has "group-writable: the file and the fix" "$t/err" "'$t/hook' is group-writable, and what the capture runs must be root's alone (chown root and chmod go-w '$t/hook')"
chmod 0755 "$t/hook"
mkdir -m 0775 "$t/gw"
cp "$t/hook" "$t/gw/hook"
conf "path = $dumps" "post_hook = $t/gw/hook"
expect "a hook in a group-writable directory" 1 -- "$kf" -c "$t/conf" show
has "the directory is named" "$t/err" "'$t/gw' is group-writable"
conf "path = $dumps" "extra_binaries = $t"
expect "a directory as an extra binary" 1 -- "$kf" -c "$t/conf" show
has "not a regular file" "$t/err" "cannot use extra_binaries '$t' from $t/conf: it is not a regular file"
conf "path = $dumps" "pre_hook = hooks/pre.sh"
expect "a relative pre_hook" 1 -- "$kf" -c "$t/conf" show
has "the relative path is named" "$t/err" "key 'pre_hook': 'hooks/pre.sh' is not an absolute path"
conf "path = $dumps" "post_hook = /bin/true|reboot"
expect "a shell metacharacter in post_hook" 1 -- "$kf" -c "$t/conf" show
has "the character is named" "$t/err" "'/bin/true|reboot' contains '|'"
conf "path = $dumps" "hook_timeout = 0"
expect "hook_timeout 0" 1 -- "$kf" -c "$t/conf" show
has "hook_timeout: the range" "$t/err" "is not a number of seconds from 1 to 600"
conf "path = $dumps" "extra_modules = kdump_file_no_such_module"
expect "an extra module the kernel has not" 1 -- "$kf" -c "$t/conf" show
has "the module is named" "$t/err" "cannot use extra_modules 'kdump_file_no_such_module' from $t/conf: kernel "

# What the capture recorded of the hooks and extra modules, shown by info.
printf '%s\n' '{ "complete": true, "hooks": [' \
	'  { "phase": "pre", "path": "/etc/kdump-file/pre", "exit": 0, "timed_out": false, "seconds": 0.092999999999999999, "failed": false, "result": "exit 0" },' \
	'  { "phase": "post", "path": "/etc/kdump-file/hang", "exit": -1, "timed_out": true, "seconds": 5.0, "failed": true, "result": "timed out after 5.0 s: killed" } ],' \
	'  "extra_modules": [ { "name": "dummy", "loaded": true, "error": "" }, { "name": "nosuch", "loaded": false, "error": "ENOENT" } ] }' \
	>"$dumps/2026-01-01-00:00:00/metadata.json"
echo "== pre hook" >"$dumps/2026-01-01-00:00:00/hooks.log"
conf "path = $dumps" "$bz"
expect "info with hooks" 0 -- "$kf" -c "$t/conf" info "$id"
has "info: the pre hook" "$t/out" "hooks:       pre /etc/kdump-file/pre: exit 0 (0.1 s)"
has "info: the hook that hung" "$t/out" "post /etc/kdump-file/hang: timed out after 5.0 s: killed (5.0 s)"
has "info: an extra module" "$t/out" "extra mods:  dummy: loaded"
has "info: an extra module that failed" "$t/out" "nosuch: not loaded, ENOENT"
has "info: the hooks' log" "$t/out" "hooks.log"
expect "info --json with hooks" 0 -- "$kf" -c "$t/conf" --json info "$id"
json "info --json: the hooks" '.hooks[1].timed_out == true and .hooks[0].exit == 0'
json "info --json: the extra modules" '.extra_modules[0].name == "dummy"'

# CPU and memory hotplug, in a directory standing for / (sysfs, /run and
# the udev rule: KDUMP_FILE_HOTPLUG_ROOT): what "kdump-file hotplug" does
# for each kernel and event, what status and show say, and reload
# --after-hotplug with no capture kernel loaded.
hp=$t/hp
pend=$hp/run/kdump-file/hotplug-pending
mkdir -p "$hp/sys/kernel" "$hp/sys/devices/system/cpu" "$hp/sys/devices/system/memory"
# hotplug NAME STATUS... -- CMD...: expect, with that root.
hotplug() {
	local name=$1 st=()
	shift
	while [ "$1" != -- ]; do
		st+=("$1")
		shift
	done
	shift
	expect "$name" "${st[@]}" -- env KDUMP_FILE_HOTPLUG_ROOT="$hp" "$@"
}
no_pending() {
	if [ -e "$pend" ] || [ -L "$pend" ]; then fail "$1: $pend was made"; else pass "$1"; fi
}
hotplug "hotplug of an unknown subsystem" 2 -- "$kf" hotplug disk
has "hotplug: the subsystem named" "$t/err" "unknown subsystem 'disk': only cpu and memory hotplug"
hotplug "hotplug with an unknown SUBSYSTEM" 2 -- env SUBSYSTEM=block ACTION=add "$kf" hotplug
has "hotplug: SUBSYSTEM named" "$t/err" "unknown subsystem 'block' (in SUBSYSTEM)"
hotplug "hotplug without a subsystem" 2 -- env -u SUBSYSTEM "$kf" hotplug
has "hotplug: how to name one" "$t/err" "no subsystem: name cpu or memory"
hotplug "hotplug with two subsystems" 2 -- "$kf" hotplug cpu memory
no_pending "hotplug: bad input marks nothing"
echo 0 >"$hp/sys/kernel/kexec_crash_loaded"
hotplug "hotplug, no capture kernel loaded" 0 -- env SUBSYSTEM=memory ACTION=add "$kf" hotplug
no_pending "hotplug, not loaded: nothing pending"
echo 1 >"$hp/sys/kernel/kexec_crash_loaded"
echo 1 >"$hp/sys/devices/system/cpu/crash_hotplug"
hotplug "hotplug of a CPU, the kernel updating in place" 0 -- env SUBSYSTEM=cpu ACTION=add "$kf" hotplug
no_pending "hotplug, updated in place: nothing pending"
hotplug "hotplug: memory online" 0 -- env SUBSYSTEM=memory ACTION=online "$kf" hotplug
no_pending "hotplug, memory online: nothing pending"
hotplug "status without the udev rule" 0 3 -- "$kf" -c "$t/conf" status
has "status: hotplug not handled" "$t/out" "hotplug:      CPUs updated in place by the kernel; memory not handled: this kernel does not update"
hotplug "hotplug of memory, a kernel without crash_hotplug" 0 -- env SUBSYSTEM=memory ACTION=add \
	DEVPATH=/devices/system/memory/memory40 "$kf" hotplug memory
if [ -f "$pend" ] && [ "$(stat -c %a "$pend")" = 600 ] && [ ! -s "$t/out" ]; then
	pass "hotplug: reload pending, the file 0600, nothing on stdout"
else
	fail "hotplug: $(ls -l "$pend" 2>&1), stdout: $(cat "$t/out")"
fi
mkdir -p "$hp/usr/lib/udev/rules.d"
cp "$(dirname "$(realpath "$0")")/../udev/60-kdump-file-hotplug.rules" "$hp/usr/lib/udev/rules.d/"
hotplug "status with a reload pending" 0 3 -- "$kf" -c "$t/conf" status
has "status: memory reloaded by udev, pending" "$t/out" \
	"memory reloaded by udev (kdump-file-hotplug.service); a reload is pending ($pend)"
hotplug "status --json with a reload pending" 0 3 -- "$kf" -c "$t/conf" --json status
json "status --json: the hotplug fields" \
	'.hotplug_cpu == "kernel" and .hotplug_memory == "udev" and .hotplug_reload_pending == true'
hotplug "show --json with a reload pending" 0 -- "$kf" -c "$t/conf" --json show
json "show --json: the hotplug fields" '.hotplug_memory == "udev" and (.hotplug | type == "string")'
hotplug "show" 0 -- "$kf" -c "$t/conf" show
has "show: the hotplug line" "$t/out" "hotplug:     CPUs updated in place by the kernel; memory reloaded by udev"
# A rule masked in /etc is no rule.
mkdir -p "$hp/etc/udev/rules.d"
ln -s /dev/null "$hp/etc/udev/rules.d/60-kdump-file-hotplug.rules"
hotplug "status with the rule masked" 0 3 -- "$kf" -c "$t/conf" --json status
json "status --json: a masked rule handles nothing" '.hotplug_memory == "none"'
rm "$hp/etc/udev/rules.d/60-kdump-file-hotplug.rules"
echo 1 >"$hp/sys/devices/system/memory/crash_hotplug"
hotplug "status, both updated in place" 0 3 -- "$kf" -c "$t/conf" status
has "status: one phrase for both" "$t/out" "hotplug:      updated in place by the kernel; a reload is pending"
# crash_hotplug that is neither 0 nor 1: said, and reloaded to be safe.
echo 7 >"$hp/sys/devices/system/cpu/crash_hotplug"
rm "$pend"
hotplug "hotplug with crash_hotplug unreadable" 0 -- env SUBSYSTEM=cpu ACTION=remove "$kf" hotplug
has "hotplug: the file and what it does" "$t/err" "crash_hotplug: Bad message: reloading the capture kernel to be safe"
if [ -f "$pend" ]; then pass "hotplug: unreadable crash_hotplug marks a reload"; else fail "hotplug: no $pend"; fi
rm "$hp/sys/devices/system/cpu/crash_hotplug"
# reload --after-hotplug with no capture kernel loaded: the mark goes.
echo 0 >"$hp/sys/kernel/kexec_crash_loaded"
hotplug "reload --after-hotplug, not loaded" 0 -- "$kf" reload --after-hotplug
has "reload --after-hotplug: nothing to reload" "$t/out" "no capture kernel is loaded: nothing to reload"
no_pending "reload --after-hotplug: the mark removed"
hotplug "reload --after-hotplug, nothing pending" 0 -- "$kf" reload --after-hotplug
has "reload --after-hotplug: nothing pending" "$t/out" "no reload after CPU or memory hotplug is pending"
hotplug "reload --after-hotplug -q" 0 -- "$kf" -q reload --after-hotplug
if [ -s "$t/out" ]; then fail "reload -q: $(cat "$t/out")"; else pass "reload -q: no progress line"; fi
expect "--after-hotplug with another command" 2 -- "$kf" -c "$t/conf" status --after-hotplug
has "--after-hotplug: which command takes it" "$t/err" "--after-hotplug is for reload"
# The mark cannot be made: a file where its directory goes, a link in its
# place.  Said, and exit 1.
echo 1 >"$hp/sys/kernel/kexec_crash_loaded"
rm -r "$hp/run/kdump-file"
echo x >"$hp/run/kdump-file"
hotplug "hotplug, the run directory a file" 1 -- env SUBSYSTEM=cpu ACTION=add "$kf" hotplug
has "hotplug: why no mark, and what to do" "$t/err" "cannot mark the capture kernel's reload as pending in $pend: Not a directory"
rm "$hp/run/kdump-file"
mkdir -m 0700 "$hp/run/kdump-file"
ln -s "$t/elsewhere" "$pend"
hotplug "hotplug, a link as the mark" 1 -- env SUBSYSTEM=cpu ACTION=add "$kf" hotplug
if [ ! -e "$t/elsewhere" ]; then pass "hotplug: the link not followed"; else fail "hotplug: $t/elsewhere made"; fi
rm "$pend"
# The journal lines, as udev runs it: informational where the kernel
# updates the headers, a notice where a reload is pending.
report_hp() { expect "$1" 0 -- with_journal "$2" env KDUMP_FILE_HOTPLUG_ROOT="$hp" "${@:3}"; }
# entry_has FILE LINE...: each LINE is a line of the entry in FILE
entry_has() {
	local file=$1 f
	shift
	for f in "$@"; do
		if grep -qxF -- "$f" "$file" 2>/dev/null; then
			pass "hotplug entry: $f"
		else
			fail "hotplug entry: no line '$f' in: $(cat "$file" 2>/dev/null)"
		fi
	done
}
report_hp "hotplug's journal line, updated in place" "$t/hpentry1" env SUBSYSTEM=memory \
	ACTION=add DEVPATH=/devices/system/memory/memory41 "$kf" hotplug
entry_has "$t/hpentry1" PRIORITY=6 SYSLOG_IDENTIFIER=kdump-file \
	"MESSAGE=memory add of /devices/system/memory/memory41: the kernel updates the capture kernel's ELF headers itself: nothing to reload"
no_pending "hotplug, memory updated in place: nothing pending"
echo 0 >"$hp/sys/devices/system/memory/crash_hotplug"
report_hp "hotplug's journal line, reload pending" "$t/hpentry2" env SUBSYSTEM=memory \
	ACTION=remove DEVPATH=/devices/system/memory/memory41 "$kf" hotplug
entry_has "$t/hpentry2" PRIORITY=5 SYSLOG_IDENTIFIER=kdump-file \
	"MESSAGE=memory remove of /devices/system/memory/memory41: the capture kernel's ELF headers no longer match this system: reload pending ($pend, kdump-file-hotplug.service)"

# list --collector: a collector's directory with two hosts, a link and a
# stray file beside them and inside, none followed.
col=$t/collector
mkdir -p "$col/web1-0123456789ab/2026-01-02-03:04:05" "$col/db1-abcdef012345/2026-01-01-00:00:00" \
	"$col/db1-abcdef012345/2026-01-03-00:00:00" "$t/elsewhere-col/2026-05-05-05:05:05"
printf 'core' >"$col/web1-0123456789ab/2026-01-02-03:04:05/vmcore"
printf '{"complete":true,"crash_time":1767323045,"panic":"Kernel panic - not syncing: sysrq"}' \
	>"$col/web1-0123456789ab/2026-01-02-03:04:05/metadata.json"
printf '{"complete":false,"error":"capture in progress"}' >"$col/db1-abcdef012345/2026-01-03-00:00:00/metadata.json"
printf 'core' >"$t/elsewhere-col/2026-05-05-05:05:05/vmcore"
ln -s "$t/elsewhere-col" "$col/linked-0123456789ab"
ln -s "$t/elsewhere-col/2026-05-05-05:05:05" "$col/web1-0123456789ab/2026-05-05-05:05:05"
: >"$col/stray-file"
: >"$col/web1-0123456789ab/2026-06-06-06:06:06"
expect "list --collector" 0 -- "$kf" list --collector "$col"
if [ "$(awk 'NR > 1 { print $1, $2, $NF }' "$t/out")" = "db1-abcdef012345 2026-01-01-00:00:00 incomplete
db1-abcdef012345 2026-01-03-00:00:00 incomplete
web1-0123456789ab 2026-01-02-03:04:05 complete" ]; then
	pass "list --collector: hosts sorted, dumps by time, links and files skipped"
else
	fail "list --collector: $(cat "$t/out")"
fi
has "list --collector: the panic" "$t/out" "Kernel panic - not sync"
expect "list --collector --json" 0 -- "$kf" list --collector "$col" --json
if python3 -m json.tool "$t/out" >/dev/null; then
	pass "list --collector --json parses"
else
	fail "list --collector --json: $(cat "$t/out")"
fi
json "list --collector --json: three dumps, hosts in order" \
	'[.dumps[].host] == ["db1-abcdef012345","db1-abcdef012345","web1-0123456789ab"]'
json "list --collector --json: names and the collector" \
	'.collector == "'"$col"'" and .dumps[2].name == "2026-01-02-03:04:05"'
expect "list --collector, a missing directory" 1 -- "$kf" list --collector "$t/nonexistent"
has "list --collector, a missing directory: named" "$t/err" "$t/nonexistent"
expect "--collector with another command" 2 -- "$kf" status --collector "$col"

# propagate: refused for a target that is not ssh://; for one, the key is
# made (no collector answers here: the step that fails is named).
conf "target = nfs://192.0.2.1/export/dumps"
expect "propagate, an nfs:// target" 1 -- "$kf" -c "$t/conf" propagate
has "propagate, an nfs:// target: why" "$t/err" "propagate is for an ssh:// target"
conf "target = ssh://kd@127.0.0.1:1/srv/kdump" "ssh_key = $t/pssh/id_ed25519"
expect "propagate, no collector" 1 -- "$kf" -c "$t/conf" propagate
has "propagate, no collector: the step" "$t/err" "pinning the host keys: ssh-keyscan found no host key of 127.0.0.1 port 1"
if [ -f "$t/pssh/id_ed25519" ] && [ -f "$t/pssh/id_ed25519.pub" ] &&
	grep -q "kdump-file@" "$t/pssh/id_ed25519.pub" &&
	[ "$(stat -c %a "$t/pssh")" = 700 ]; then
	pass "propagate: the key made, named kdump-file@HOSTDIR"
else
	fail "propagate: no key in $t/pssh"
fi
expect "--repin with another command" 2 -- "$kf" list --repin

# Text that came from a crash reaches the terminal with every control
# character shown escaped: a dump whose metadata, report, kernel log and
# hook records hold ESC and OSC sequences, BEL, C1 controls (as UTF-8 and
# as a raw byte) and a bidi override.  No byte a terminal acts on reaches
# stdout or stderr of status, list and info, in text or JSON.
# inert NAME FILE: FILE is UTF-8 without C0 (but tab and newline), DEL, C1
# or the bidi embeddings and overrides
inert() {
	if perl -0777 -ne 'exit 1 if /[\x00-\x08\x0b-\x1f\x7f]/;
		exit 1 unless utf8::decode($_);
		exit 1 if /[\x{80}-\x{9f}\x{202a}-\x{202e}]/' "$2"; then
		pass "$1"
	else
		fail "$1: a control character: $(od -c "$2" | grep -m3 -E '033|007|233|302 23')"
	fi
}
hostile=$t/hostile
mkdir -m 0700 "$hostile" "$hostile/2026-03-01-00:00:00"
hd=$hostile/2026-03-01-00:00:00
echo core >"$hd/vmcore"
printf '%s\n' '{ "kernel_release": "6.1.0\u001b]0;owned\u0007", "crash_time": 1772323200,' \
	'  "panic": "boom\u001b[2J\u001b[H\u009b31m", "complete": false, "error": "disk\u001b[1A gone",' \
	'  "fallback_reason": "x\u001b[8m",' \
	'  "hooks": [ { "phase": "pre\u001b[5m", "path": "/etc/kdump-file/\u001b]8;;http://x\u001b\\pre", "seconds": 1.0, "result": "exit 0\u0007" } ],' \
	'  "extra_modules": [ { "name": "dummy\u001b[31m", "loaded": false, "error": "E\u001b[0m" } ] }' \
	>"$hd/metadata.json"
printf '{ "signature": "sig\\u001b[7m", "panic": "p\\u001b]2;t\\u0007", "oops": "o\\u001b[K",\n  "task": { "command": "ba\\u001b[3Dsh\\u202e", "pid": "4\\u001b[m2" }, "taint": "G\\u009b1m",\n  "backtrace": [ "fn\\u001bP1+q\\u001b\\\\", "raw\xc2\x9b" ] }\n' >"$hd/report.json"
printf 'Modules linked in: evil\033]0;pwn\007 \233x\n' >"$hd/dmesg.txt"
conf "path = $hostile" "$bz"
hid=$("$kf" -c "$t/conf" --json list | jq -r '.dumps[0].id')
for v in status list "info $hid"; do
	for j in "" --json; do
		# shellcheck disable=SC2086 # $v is the verb and its argument
		expect "$v${j:+ $j}, a hostile dump" 0 3 -- "$kf" -c "$t/conf" $j $v
		inert "$v${j:+ $j}: stdout holds no control character" "$t/out"
		inert "$v${j:+ $j}: stderr holds no control character" "$t/err"
	done
done
expect "info, a hostile dump" 0 -- "$kf" -c "$t/conf" info "$hid"
has "info: the panic shown escaped" "$t/out" 'panic:       boom\x1b[2J\x1b[H\u009b31m'
has "info: the task shown escaped" "$t/out" 'task:        ba\x1b[3Dsh\u202e (pid 4\x1b[m2)'
has "info: the kernel log's modules shown escaped" "$t/out" 'evil\x1b]0;pwn\x07'
expect "info --json, a hostile dump" 0 -- "$kf" -c "$t/conf" --json info "$hid"
json "info --json: the data unchanged" \
	'.panic == "boom\u001b[2J\u001b[H\u009b31m" and .report.task.command == "ba\u001b[3Dsh\u202e"'

# A lost crash's failure record, read from pstore: its text shown escaped,
# and a record planted with a far-future crash time never hides the real
# one.  /var/lib is a directory of the test's own (armed marker, pstore
# archive), bound over the machine's in a private mount namespace.
# with_var_lib CMD...: CMD with $t/varlib as /var/lib
with_var_lib() {
	# shellcheck disable=SC2016 # the script expands them, in the namespace
	unshare -m --propagation private sh -c '
		mount --bind "$1" /var/lib || exit 1
		shift
		exec "$@"' with_var_lib "$t/varlib" "$@"
}
if unshare -m true 2>/dev/null; then
	vl=$t/varlib
	mkdir -p "$vl/kdump-file" "$vl/systemd/pstore/1772323400" "$t/lostdumps"
	chmod 0700 "$t/lostdumps"
	printf 'boot=01234567-89ab-cdef-0123-456789abcdef time=1772323200\n' >"$vl/kdump-file/armed"
	printf '<3>[ 9.0] kdump-file-record: crash_time=1772323300; step=mounting the target; error=EIO; target=LABEL=x; modules=; mem_free_kib=2048; why=real\033[8m failure\n' \
		>"$vl/systemd/pstore/1772323400/dmesg-efi-1"
	printf '<3>[ 9.0] kdump-file-record: crash_time=4102444800; step=saving\033]0;pwned\007; error=; target=t; modules=; mem_free_kib=1; why=all fine\033[2J\n' \
		>"$vl/systemd/pstore/1772323400/dmesg-efi-2"
	conf "path = $t/lostdumps" "$bz"
	expect "status, a lost crash and a planted record" 0 3 -- with_var_lib "$kf" -c "$t/conf" status
	has "status: the real record wins" "$t/out" \
		'LOST: the crash at 2026-03-01T00:01:40Z was not saved: the capture failed while mounting the target: real\x1b[8m failure (EIO)'
	inert "status, a lost crash: stdout holds no control character" "$t/out"
	rm "$vl/systemd/pstore/1772323400/dmesg-efi-1"
	expect "status, only a planted record" 0 3 -- with_var_lib "$kf" -c "$t/conf" status
	has "status: what the marker knows first" "$t/out" \
		"LOST: boot 01234567-89ab-cdef-0123-456789abcdef (armed 2026-03-01T00:00:00Z) ended without a clean shutdown"
	has "status: the planted record not trusted" "$t/out" \
		"a failure record in pstore claims a crash at 2100-01-01T00:00:00Z, after this boot began: not trusted"
	if grep -q "crash at 2100-01-01T00:00:00Z was not saved" "$t/out"; then
		fail "status: the planted record taken as the crash: $(grep LOST "$t/out")"
	else
		pass "status: the planted record not taken as the crash"
	fi
	inert "status, a planted record: stdout holds no control character" "$t/out"
	# The capture had pstore and left nothing in it: it never ran that
	# far, and the line says what stops a capture kernel that early.
	rm "$vl/systemd/pstore/1772323400/dmesg-efi-2"
	printf 'boot=01234567-89ab-cdef-0123-456789abcdef time=1772323200 pstore=efi_pstore kernel=/boot/vmlinuz\n' \
		>"$vl/kdump-file/armed"
	expect "status, a lost crash, nothing in the capture's pstore" 0 3 -- with_var_lib "$kf" -c "$t/conf" status
	has "status: no capture kernel left a record, and why none may have" "$t/out" \
		"(armed 2026-03-01T00:00:00Z) ended without a clean shutdown while the capture kernel was loaded, and no dump from it was saved: if it crashed, no capture kernel left a record in pstore (efi_pstore): it never started, or stopped before it could record; purgatory refuses a capture kernel damaged after the load"
	printf 'boot=01234567-89ab-cdef-0123-456789abcdef time=1772323200 kernel=/boot/vmlinuz\n' \
		>"$vl/kdump-file/armed"
	expect "status, a lost crash, no pstore for the capture" 0 3 -- with_var_lib "$kf" -c "$t/conf" status
	has "status: without pstore, the reservation named" "$t/out" \
		"and no dump from it was saved: if it crashed, the capture failed (a crashkernel= reservation too small for the capture is the usual cause"
else
	echo "skip status with a lost crash: no mount namespace"
fi

# The capture kernel through a link in a sticky directory: whose the link
# is matters (its owner may point it elsewhere), and a link above the dump
# directory is checked where it leads.
if [ "$(id -u)" = 0 ]; then
	mkdir -m 1777 "$t/sticky"
	ln -s "$t/vmlinuz" "$t/sticky/vmlinuz"
	chown -h 65534:65534 "$t/sticky/vmlinuz"
	conf "kernel = $t/sticky/vmlinuz" "path = $dumps"
	expect "kernel through another user's link" 1 -- "$kf" -c "$t/conf" show
	has "another user's link: named, the owner" "$t/err" "'$t/sticky/vmlinuz' is owned by uid 65534"
	rm "$t/sticky/vmlinuz"
	mkdir -m 0777 "$t/open"
	mkdir -m 0700 "$t/open/dumps"
	ln -s "$t/open" "$t/via"
	conf "$bz" "path = $t/via/dumps"
	expect "path below a link to a directory others may write" 1 -- "$kf" -c "$t/conf" show
	has "link above path: where it leads is named" "$t/err" "$t/open may be written by others than root (mode 0777)"
else
	echo "skip links to inputs and dump directories: not root"
fi

summary
