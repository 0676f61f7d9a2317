# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Guest steps of the package scenario (test/TEST-27-STOCK-DEB): kdump-file
# installed from its .deb on a stock Debian guest, set up, and after a
# crash its dumps listed, explained and opened in crash; a kernel package
# installed gets its capture initramfs; the package purged.

# The first boot: no crashkernel= yet.
step_deb_install() {
    # The debconf question takes its default (yes: setup runs).
    export DEBIAN_FRONTEND=noninteractive
    run apt-get install -y /root/kdump-file_*.deb || say "FAIL: apt-get install"
    # What the question shows: its text, with the size substituted.
    text=$(echo "METAGET kdump-file/setup extended_description" | debconf-communicate kdump-file)
    say "debconf: $text"
    case "$text" in
    *"needs crashkernel="[0-9]*M.*) say "debconf: the question showed $(echo "$text" | grep -o 'crashkernel=[0-9]*M')" ;;
    esac
    say "after install: enabled $(systemctl is-enabled kdump-file) active $(systemctl is-active kdump-file)"
    run kdump-file setup || say "FAIL: setup"
    say "drop-in: $(grep -o 'crashkernel=[0-9]*[MG]' /etc/default/grub.d/kdump-file.cfg)"
    say "grub.cfg: $(grep -c 'crashkernel=' /boot/grub/grub.cfg) lines with crashkernel="
    run kdump-file setup
    run kdump-file status
}

# The second boot, with the reservation setup asked for: loaded by the
# package's service at boot; crash.
step_deb_crash() {
    say "is-active: $(systemctl is-active kdump-file)"
    run kdump-file status
    if [ "$(cat /sys/kernel/kexec_crash_loaded)" = 1 ]; then
        say "loaded ok"
        crash_now
    fi
    say "not loaded"
}

# The boot after the crash: the dump store, a new kernel package and its
# removal, the purge.
step_deb_after() {
    run kdump-file list
    id=$(kdump-file list | sed -n '2s/ .*//p')
    say "dump id: $id"
    run kdump-file info "$id"
    printf 'bt\nexit\n' > /tmp/crash.cmds
    run sh -c "kdump-file debug $id < /tmp/crash.cmds"
    running=/var/lib/kdump-file/initramfs-$(uname -r).img
    # A kernel this machine never had: its postinst runs /etc/kernel/postinst.d.
    run dpkg -i /root/linux-image-*.deb
    pkg=$(dpkg-deb -f /root/linux-image-*.deb Package)
    kver=${pkg#linux-image-}
    img=/var/lib/kdump-file/initramfs-$kver.img
    if [ -s "$img" ]; then
        say "the kernel hook built the capture initramfs of $kver: $(stat -c %s "$img") bytes"
    fi
    run kdump-file show --kver "$kver"
    kdump-file show --kver "$kver" | grep -q "^initramfs:   $img (current)" &&
        say "show --kver: the capture initramfs is current"
    # Its removal runs /etc/kernel/postrm.d.
    run apt-get remove -y "$pkg"
    [ -e "$img" ] || [ -e "$img.stamp" ] || say "the kernel's removal removed its capture initramfs"
    [ -s "$running" ] && say "the running kernel's capture initramfs is still there"
    run apt-get purge -y kdump-file
    for f in /etc/default/grub.d/kdump-file.cfg /lib/systemd/system/kdump-file.service \
        /lib/systemd/system/kdump-file-report.service /etc/kdump-file.conf /var/lib/kdump-file; do
        [ -e "$f" ] && say "after purge: $f is left"
    done
    say "after purge: grub.cfg has $(grep -c 'crashkernel=' /boot/grub/grub.cfg) lines with crashkernel="
    say "after purge: $(find /var/crash -name vmcore | wc -l) vmcore in /var/crash"
}
