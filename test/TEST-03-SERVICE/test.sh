#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kdump-file as a service: start, stop and status through systemctl; load
# rebuilds the capture initramfs after a config change and not without one;
# a bad config fails the service with the message in systemctl status;
# "kdump-file test" crashes, and after the reboot status reports it passed;
# a boot without crashkernel= shows the clear message in systemctl status.
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

scenario_setup TEST-03-SERVICE
con=$out/console.log
base="root=/dev/vda rw console=ttyS0 panic=-1"

rc=0
qemu_boot "$con" 900 bios 1024 "$kdir/bzImage" \
	"$base crashkernel=256M kdump_file_test=service" "$disk" || rc=$?
check_ended "$rc" "first boot ended by itself"
check "systemctl start: active" grep -q "KDUMP-FILE-TEST: is-active: active" "$con"
sandbox=$(grep "KDUMP-FILE-TEST: sandbox: " "$con")
check "a local target: the unit without network, no drop-in ($sandbox)" \
	bash -c "grep -q ' PrivateNetwork=yes ' <<<'$sandbox' && grep -q ' IPAddressAllow= ' <<<'$sandbox' &&
		grep -q ' RestrictAddressFamilies=AF_ALG AF_UNIX ' <<<'$sandbox' && grep -qE ' IPAddressDeny=[^ ]+' <<<'$sandbox' &&
		! grep -q 50-network-target <<<'$sandbox'"
check "status shows the initramfs is current" \
	grep -q "KDUMP-FILE-TEST:   initramfs .*(current)" "$con"
check "estimate recommends a reservation" \
	grep -qE "KDUMP-FILE-TEST:   recommended: crashkernel=[0-9]+M" "$con"
check "show prints the capture command line" \
	grep -qE "KDUMP-FILE-TEST:   cmdline: .*irqpoll nr_cpus=1 reset_devices" "$con"
check "reload without change does not rebuild" \
	grep -q "KDUMP-FILE-TEST: no rebuild without change" "$con"
check "reload after a config change rebuilds" \
	grep -q "KDUMP-FILE-TEST: rebuilt after config change" "$con"
check "the rebuild says so" grep -q "KDUMP-FILE-TEST:   kdump-file: building capture initramfs" "$con"
check "systemctl stop unloads" \
	grep -q "KDUMP-FILE-TEST: after stop: is-active inactive, loaded 0" "$con"
check "status exits 3 when not loaded" grep -q "KDUMP-FILE-TEST: status exit after stop: 3" "$con"
check "a bad config: systemctl status names file, line and key" \
	grep -qE "KDUMP-FILE-TEST: .*kdump-file: error: /etc/kdump-file.conf:[0-9]+: key 'bogus_key': unknown key" "$con"
check "a bad config: the service failed and nothing is loaded" \
	grep -q "KDUMP-FILE-TEST: with a bad config: is-active failed, loaded 0" "$con"
check "restored config: active again" grep -q "KDUMP-FILE-TEST: restored: is-active active" "$con"
check "test without --yes and no terminal refuses" \
	grep -q "KDUMP-FILE-TEST: rc=1: kdump-file test$" "$con"
check "test --yes crashed the machine" grep -q "Kernel panic - not syncing: sysrq triggered crash" "$con"
check "the capture completed" grep -q "kdump-file: .* capture complete" "$con"
grep -E "KDUMP-FILE-TEST: initramfs" "$con" | sed 's/^/    /'

rc=0
qemu_boot "$con" 600 bios 1024 "$kdir/bzImage" \
	"$base kdump_file_test=service-after" "$disk" || rc=$?
check_ended "$rc" "second boot (no crashkernel=) ended by itself"
check "status after reboot: the test passed" \
	grep -qE "KDUMP-FILE-TEST:   test: +[0-9a-f]+ passed: dump /var/crash/" "$con"
check "status after reboot: the last dump is complete" \
	grep -qE "KDUMP-FILE-TEST:   last dump: +([0-9a-f]{8} )?/var/crash/.*: complete" "$con"
check "no crashkernel=: systemctl status shows the fix" \
	grep -qE "KDUMP-FILE-TEST: .*no crashkernel= memory is reserved \(run 'kdump-file setup' and reboot, or add crashkernel=[0-9]+M" "$con"
check "no crashkernel=: the service failed" grep -q "KDUMP-FILE-TEST: is-active: failed" "$con"
rm -f "$disk"
finish
