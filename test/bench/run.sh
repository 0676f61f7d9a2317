#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: kdump-file against Debian's kdump-tools on the same kernel, the
# same guest base and the same machine, runs of the two alternating; once on
# this project's kernel and once on Debian's stock kernel.  Prints figures
# and ratios and writes them to $KDUMP_FILE_OUT/bench/: results.json,
# results.md and results.png (gnuplot).  Not a test: it never fails on a
# figure, only when a run gives no figure at all.
#
# Every time is taken on the host, from the guest's serial console, each line
# stamped when QEMU wrote it.  Guests reboot in place after the capture, as
# a machine does.
#
# The runs are named PRODUCT[-VARIANT][-stock]: kdump-file or kdump-tools,
# a variant of kdump-file's configuration (zlib, threads2, zlib-threads2,
# e, d1, d17: see variant_conf), and -stock for Debian's stock kernel.
# The vmcores of the 1 GiB runs are kept (crash/ in the run's directory).
#
#   KDUMP_FILE_BENCH_RUNS    timed runs per product (default 3)
#   KDUMP_FILE_BENCH_PARTS   parts to run, any subset of the default
#                            "sizes phases phases-stock variants load load-stock
#                            ram ram-stock crashkernel crashkernel-stock"
#   KDUMP_FILE_BENCH_RAM     guest sizes in MiB of the ram parts (default
#                            "2048 4096 8192 16384"; 1024 is the phases')
#   KDUMP_FILE_BENCH_CK      the runs of the crashkernel parts (default
#                            "kdump-file kdump-tools kdump-file-stock
#                            kdump-tools-stock")
#   KDUMP_FILE_BENCH_VARIANTS the variants of the variants part (default
#                            all: "zlib threads2 zlib-threads2 e d1 d17")
#   KDUMP_FILE_BENCH_VARIANT_RAM the guest sizes (MiB) of the variants part
#                            (default all a variant runs on: 1024 4096 16384)
#   KDUMP_FILE_BENCH_KEEP    1: keep the runs of an earlier benchmark in
#                            the output directory (the parts run now replace
#                            theirs); the results count both
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

SCENARIO=bench
runs=${KDUMP_FILE_BENCH_RUNS:-3}
all_parts="sizes phases phases-stock variants load load-stock ram ram-stock crashkernel crashkernel-stock"
parts=${KDUMP_FILE_BENCH_PARTS:-$all_parts}
ram_sizes=${KDUMP_FILE_BENCH_RAM:-2048 4096 8192 16384}
ck_products=${KDUMP_FILE_BENCH_CK:-kdump-file kdump-tools kdump-file-stock kdump-tools-stock}
for p in $parts; do
	[[ " $all_parts " == *" $p "* ]] ||
		fail "KDUMP_FILE_BENCH_PARTS: no part '$p' (the parts: $all_parts)"
done
out=$KDUMP_FILE_OUT/bench
[ "${KDUMP_FILE_BENCH_KEEP:-0}" = 1 ] || rm -rf "$out"
mkdir -p "$out"
t_start=$(date +%s)

# has_part PART...: one of them is to run.
has_part() {
	local p
	for p in "$@"; do
		[[ " $parts " == *" $p "* ]] && return 0
	done
	return 1
}

kdir=$(kernel_dir)
log "kernel $(cat "$kdir/release") ($kdir)"
if has_part sizes phases variants ram crashkernel; then
	ours_img=$(guest_image_prepared "$kdir")
	log "kdump-file disk: $ours_img"
fi
if has_part sizes phases load crashkernel; then
	peer_base=$("$KDUMP_FILE_TOP/test/bench/peer-base.sh")
	peer_img=$(guest_image_prepared "$kdir" \
		"$("$KDUMP_FILE_LIB/guest-image.sh" "$kdir" "$peer_base")" peer-prepare)
	# shellcheck disable=SC2016 # a dpkg-query format, not an expansion
	log "kdump-tools disk: $peer_img ($(chroot "$peer_base" dpkg-query -W -f='${Package} ${Version}, ' kdump-tools kexec-tools makedumpfile))"
fi
if has_part sizes phases-stock variants ram-stock crashkernel-stock; then
	stock_img=$(guest_image_prepared "$kdir" "$(stock_image)" prepare stock)
	log "kdump-file on Debian's stock kernel $(stock_release), disk: $stock_img"
fi
if has_part sizes phases-stock load-stock crashkernel-stock; then
	peer_stock_base=$("$KDUMP_FILE_TOP/test/bench/peer-base.sh" --stock)
	peer_stock_img=$(guest_image_prepared "$kdir" \
		"$("$KDUMP_FILE_LIB/guest-image.sh" --stock "$peer_stock_base")" peer-prepare stock)
	log "kdump-tools on Debian's stock kernel, disk: $peer_stock_img"
fi

# The kernel a product's guests boot: ours, or Debian's stock kernel
# through its initramfs-tools initrd.
kernel_args() {
	case $1 in
	*-stock)
		stock_boot
		# shellcheck disable=SC2031 # stock_boot sets them right here
		BENCH_KERNEL=(-kernel "$kernel" "${initrd[@]}")
		;;
	*) BENCH_KERNEL=(-kernel "$kdir/bzImage") ;;
	esac
}
BENCH_KERNEL=(-kernel "$kdir/bzImage")

# bench_boot LOG TIMEOUT MEM_MB APPEND DISK [QEMU ARGS...]: like qemu_boot,
# but each console line is stamped with the host's clock ("SECONDS LINE"),
# and the guest reboots in place unless -no-reboot is given.
bench_boot() {
	local log=$1 timeout=$2 mem=$3 append=$4 disk=$5 rc=0
	shift 5
	timeout -k 10 "$timeout" qemu-system-x86_64 -accel tcg -smp "${BENCH_SMP:-2}" -m "$mem" \
		-display none -monitor none -serial file:/dev/stdout -nic none \
		"${BENCH_KERNEL[@]}" -append "$append" \
		-drive "file=$disk,format=raw,if=virtio" "$@" 2>"$log.qemu" </dev/null |
		perl -MTime::HiRes=time -ne 'BEGIN { $| = 1 } s/\r//g; printf "%.3f %s", time, $_' \
			>"$log" || rc=${PIPESTATUS[0]}
	return "$rc"
}

# The lines that mark the phases, per product.
dump_start_re() {
	case $1 in
	kdump-file*) echo 'kdump-file: .*saving vmcore' ;;
	kdump-tools*) echo 'running makedumpfile .*compress' ;;
	esac
}
dump_end_re() {
	case $1 in
	kdump-file*) echo 'kdump-file: .*vmcore saved' ;;
	kdump-tools*) echo 'saved vmcore in' ;;
	esac
}

# capture_ok PRODUCT LOG: the console shows a complete vmcore.  kdump-tools
# says "saved vmcore" after "makedumpfile ... | compress > FILE" whatever
# makedumpfile's status (the pipeline's is that of the last command), so for
# it makedumpfile's own "makedumpfile Completed." must come in between.
capture_ok() {
	case $1 in
	kdump-file*) grep -q "$(dump_end_re "$1")" "$2" ;;
	kdump-tools*)
		sed -n "/$(dump_start_re "$1")/,/$(dump_end_re "$1")/p" "$2" |
			grep -q "makedumpfile Completed" &&
			grep -q "$(dump_end_re "$1")" "$2"
		;;
	esac
}

disk_of() {
	case $1 in
	kdump-file*-stock) echo "$stock_img" ;;
	kdump-file*) echo "$ours_img" ;;
	kdump-tools-stock) echo "$peer_stock_img" ;;
	kdump-tools) echo "$peer_img" ;;
	esac
}

# phases PRODUCT LOG: the phase times of one run as JSON, from the stamped
# console: up, panic, capture kernel banner, "Run /init", dump started, dump
# saved, first kernel banner again, up again.
phases() {
	local prod=$1 logf=$2
	awk -v ds="$(dump_start_re "$prod")" -v de="$(dump_end_re "$prod")" \
		-v noreboot="${BENCH_NO_REBOOT:-0}" '
	{ t = $1 }
	!up1 && /KDUMP-FILE-TEST: bench: up/ { up1 = t; next }
	up1 && !pa && /KDUMP-FILE-TEST: bench: pages / {
		for (i = 1; i < NF; i++)
			if ($i == "KERN_DATA") kept = $(i + 1)
		next
	}
	up1 && !pa && /Kernel panic - not syncing/ { pa = t; next }
	pa && !ck && /Linux version [0-9]/ { ck = t; ks = kstart(); next }
	# The capture kernel clock'"'"'s zero in host time: its log is written
	# out late (replayed once the serial console registers), so the
	# smallest host time less kernel time of its lines is when it started.
	ck && !ci && match($0, /^[0-9.]+ \[ *[0-9]+\.[0-9]+\]/) {
		kt = substr($0, RSTART, RLENGTH)
		sub(/^[0-9.]+ \[ */, "", kt)
		sub(/\]$/, "", kt)
		if (t - kt < ks) ks = t - kt
	}
	ck && !ci && /Run \/init as init process/ { ci = t; next }
	ci && !dst && $0 ~ ds { dst = t; next }
	dst && !den && $0 ~ de {
		den = t
		if (match($0, /bytes in [0-9.]+s/))
			mdf = substr($0, RSTART + 9, RLENGTH - 10)
		# Without the reboot (the ram part), kdump-file'"'"'s own count.
		if (noreboot && match($0, /\([0-9]+ bytes/))
			size = substr($0, RSTART + 1, RLENGTH - 7)
		next
	}
	den && !bk && /Linux version [0-9]/ { bk = t; next }
	bk && !up2 && /KDUMP-FILE-TEST: bench: up/ { up2 = t; next }
	up2 && /KDUMP-FILE-TEST: bench: dump [0-9]/ {
		for (i = 1; i <= NF; i++)
			if ($i == "dump") { size = $(i + 1); break }
	}
	function kstart() { return 1e30 }
	function d(a, b) { return (a && b && a < 1e29 && b < 1e29) ? sprintf("%.2f", b - a) : "null" }
	END {
		printf "{\"complete\": %s, \"panic_to_capture_kernel\": %s, ", \
			((up2 || (noreboot && den)) && size) ? "true" : "false", d(pa, ck)
		printf "\"panic_to_capture_start\": %s, \"capture_start_to_banner\": %s, ", d(pa, ks), d(ks, ck)
		printf "\"capture_kernel_boot\": %s, \"capture_to_dump\": %s, ", d(ck, ci), d(ci, dst)
		printf "\"dump\": %s, \"dump_to_reboot\": %s, \"reboot_to_up\": %s, ", d(dst, den), d(den, bk), d(bk, up2)
		printf "\"panic_to_capture_up\": %s, \"capture_up_to_saved\": %s, \"saved_to_up\": %s, ", d(pa, ci), d(ci, den), d(den, up2)
		printf "\"total\": %s, \"makedumpfile\": %s, \"dump_bytes\": %s, ", d(pa, up2), mdf ? mdf : "null", size ? size : "null"
		printf "\"kernel_data_pages\": %s}\n", kept ? kept : "null"
	}' "$logf"
}

# timed_run PRODUCT N MEM_MB: boot, crash once loaded, capture, reboot, up.
# A run whose QEMU died or hung (a rare TCG fault, not a figure of either
# product) is run once more, and the log says so.
timed_run() {
	local prod=$1 n=$2 mem=$3 d=$out/$1-${3}M-$2
	timed_run_once "$@"
	if [ "$(jq -r '.complete' "$d/phases.json")" = false ] &&
		[ "$(jq -r '.qemu_status' "$d/phases.json")" -ge 124 ]; then
		log "$prod run $n (${mem} MiB): QEMU ended with status $(jq -r '.qemu_status' "$d/phases.json"); running it once more"
		mv "$d" "$d.failed"
		timed_run_once "$@"
	fi
}

timed_run_once() {
	local prod=$1 n=$2 mem=$3 d=$out/$1-${3}M-$2 rc=0 j step=bench-crash
	# Beyond 1 GiB the guest's memory is filled first (bench_fill in
	# guest-steps/bench.sh), so that the dump has pages to filter.
	[ "$mem" -le 1024 ] || step=bench-crash-fill
	rm -rf "$d"
	mkdir -p "$d"
	scenario_disk "$(disk_of "$prod")" "$d/disk.img"
	local v=${prod#kdump-file-}
	v=${v%-stock}
	if [[ $prod == kdump-file-* ]] && [ "$v" != stock ]; then
		# A variant of kdump-file's configuration (the service rebuilds
		# the capture initramfs for the changed config at boot).
		variant_conf "$v" >"$d/variant.conf" ||
			fail "no variant '$v' of kdump-file's configuration"
		debugfs -R "cat /etc/kdump-file.conf" "$d/disk.img" 2>/dev/null |
			grep -v -E "^($(cut -d' ' -f1 "$d/variant.conf" | paste -sd'|')) " >"$d/kdump-file.conf" || true
		cat "$d/variant.conf" >>"$d/kdump-file.conf"
		disk_put_file "$d/disk.img" "$d/kdump-file.conf" /etc/kdump-file.conf
	fi
	kernel_args "$prod"
	local noreboot=()
	[ "${BENCH_NO_REBOOT:-0}" = 0 ] || noreboot=(-no-reboot)
	bench_boot "$d/console.log" 1500 "$mem" \
		"root=/dev/vda rw console=ttyS0 crashkernel=256M panic=-1 kdump_file_test=$step" \
		"$d/disk.img" "${noreboot[@]}" || rc=$?
	# The 1 GiB runs' dumps stay, for a look at what they hold.
	if [ "$mem" -le 1024 ]; then
		mkdir -p "$d/crash"
		debugfs -R "rdump /var/crash $d/crash" "$d/disk.img" >/dev/null 2>&1 || true
	fi
	rm -f "$d/disk.img" "$d/disk.vars.fd"
	j=$(phases "$prod" "$d/console.log")
	capture_ok "$prod" "$d/console.log" || j=$(echo "$j" | jq -c '.complete = false')
	echo "$j" | jq -c --arg p "$prod" --argjson n "$n" --argjson m "$mem" --argjson rc "$rc" \
		'. + {product: $p, run: $n, mem_mb: $m, qemu_status: $rc}' >"$d/phases.json"
	log "$prod run $n (${mem} MiB): $(jq -r 'if .complete then "panic to back up \(.total // "n/a")s, dump \(.dump)s, \(.dump_bytes) bytes" else "INCOMPLETE (see console.log)" end' "$d/phases.json")"
}

# variant_conf VARIANT: the configuration lines of a variant of kdump-file:
# the peer's compression, makedumpfile's threads (the capture kernel gets a
# CPU per thread), -e (the page structures of excluded pages left out too)
# and the dump levels 1 (zero pages alone excluded) and 17 (zero and free
# pages: page cache and user data kept).
variant_conf() {
	case $1 in
	zlib) echo "compression = zlib" ;;
	threads2) echo "makedumpfile_threads = 2" ;;
	zlib-threads2) printf '%s\n' "compression = zlib" "makedumpfile_threads = 2" ;;
	e) echo "makedumpfile_args = -e" ;;
	d1) echo "dump_level = 1" ;;
	d17) echo "dump_level = 17" ;;
	*) return 1 ;;
	esac
}
all_variants="zlib threads2 zlib-threads2 e d1 d17"
variants=${KDUMP_FILE_BENCH_VARIANTS:-$all_variants}
for v in $variants; do
	variant_conf "$v" >/dev/null ||
		fail "KDUMP_FILE_BENCH_VARIANTS: no variant '$v' (the variants: $all_variants)"
done

# variant_sizes VARIANT: the guest sizes (MiB) a variant runs on.  The dump
# levels that keep page cache and user data stop at 4 GiB: a 16 GiB guest,
# half filled, would write some 8 GiB.
variant_sizes() {
	case $1 in
	d1 | d17 | zlib-threads2) echo "1024 4096" ;;
	*) echo "1024 4096 16384" ;;
	esac
}

# trial PRODUCT MEM_MB CK_MB: 0 when that crashkernel= gives a complete dump.
trial() {
	local prod=$1 mem=$2 ck=$3 d=$out/ck-$1-${2}M-${3}M
	mkdir -p "$d"
	scenario_disk "$(disk_of "$prod")" "$d/disk.img"
	kernel_args "$prod"
	BENCH_SMP=1 bench_boot "$d/console.log" 600 "$mem" \
		"root=/dev/vda rw console=ttyS0 crashkernel=${ck}M panic=-1 kdump_file_test=bench-crash" \
		"$d/disk.img" -no-reboot || true
	rm -f "$d/disk.img"
	if capture_ok "$prod" "$d/console.log"; then
		echo "ok" >"$d/result"
		return 0
	fi
	if grep -q "bench: not loaded" "$d/console.log"; then
		echo "not loaded" >"$d/result"
	elif grep -qiE "out of memory|oom-kill|Kernel panic" <(sed -n '/Kernel panic - not syncing: sysrq/,$p' "$d/console.log" | tail -n +2); then
		echo "capture ran out of memory or panicked" >"$d/result"
	else
		echo "no dump" >"$d/result"
	fi
	return 1
}

# ck_search PRODUCT MEM_MB HI_MB LO_MB: the smallest crashkernel= (8M steps)
# that gives a complete dump, searched from a guess: HI (doubled until it
# works) and LO (halved until it fails), then bisected.  Writes it to
# $out/ck-PRODUCT-MEM.
ck_search() {
	local prod=$1 mem=$2 hi=$3 lo=$4 mid failed=
	while ! trial "$prod" "$mem" "$hi"; do
		failed=$hi
		lo=$hi
		hi=$((hi * 2))
		if [ "$hi" -gt 1024 ]; then
			echo null >"$out/ck-$prod-$mem"
			return 0
		fi
	done
	while [ -z "$failed" ] && [ "$lo" -ge 8 ] && trial "$prod" "$mem" "$lo"; do
		hi=$lo
		lo=$((lo / 2 / 8 * 8))
	done
	while [ $((hi - lo)) -gt 8 ]; do
		mid=$(((lo + hi) / 2 / 8 * 8))
		if trial "$prod" "$mem" "$mid"; then
			hi=$mid
		else
			lo=$mid
		fi
	done
	echo "$hi" >"$out/ck-$prod-$mem"
}

median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "null"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# med PRODUCT MEM FIELD: median of a field over the complete timed runs.
med() {
	cat "$out/$1-${2}M-"*/phases.json 2>/dev/null |
		jq -r --arg f "$3" 'select(.complete) | .[$f] | select(. != null)' | median
}

# Part 0: the capture initramfs of each product as its first boot built it
# (no boot here: read from the prepared disks).
initrd_bytes() {
	debugfs -R "stat $2" "$1" 2>/dev/null | sed -n 's/.*Size: \([0-9]*\).*/\1/p' | head -n 1
}
if has_part sizes; then
	rel=$(cat "$kdir/release")
	srel=$(stock_release)
	{
		printf '{"kdump-file": %s, "kdump-tools": %s, ' \
			"$(initrd_bytes "$ours_img" "/var/lib/kdump-file/initramfs-$rel.img" || true)" \
			"$(initrd_bytes "$peer_img" "/var/lib/kdump/initrd.img-$rel" || true)"
		printf '"kdump-file-stock": %s, "kdump-tools-stock": %s}\n' \
			"$(initrd_bytes "$stock_img" "/var/lib/kdump-file/initramfs-$srel.img" || true)" \
			"$(initrd_bytes "$peer_stock_img" "/var/lib/kdump/initrd.img-$srel" || true)"
	} | sed 's/: ,/: null,/g; s/: }/: null}/' >"$out/initramfs.json"
	log "capture initramfs bytes: $(cat "$out/initramfs.json")"
fi

# Part 1: the phases, products alternating; on our kernel, then on the stock
# kernel.
for k in "" -stock; do
	has_part "phases$k" || continue
	for n in $(seq 1 "$runs"); do
		timed_run "kdump-file$k" "$n" 1024
		timed_run "kdump-tools$k" "$n" 1024
	done
done

# Part 1b: kdump-file's variants (the peer's compression, threads, -e, dump
# levels), once per kernel and guest size; beyond 1 GiB the guest stops at
# the capture's reboot, as in the ram part.
if has_part variants; then
	for k in "" -stock; do
		for v in $variants; do
			for mem in $(variant_sizes "$v"); do
				[[ " ${KDUMP_FILE_BENCH_VARIANT_RAM:-$mem} " == *" $mem "* ]] || continue
				if [ "$mem" -le 1024 ]; then
					timed_run "kdump-file-$v$k" 1 "$mem"
				else
					BENCH_NO_REBOOT=1 timed_run "kdump-file-$v$k" 1 "$mem"
				fi
			done
		done
	done
fi

# Part 2: load times, in one guest that has both products.
for k in "" -stock; do
	has_part "load$k" || continue
	d=$out/load$k
	mkdir -p "$d"
	kernel_args "load$k"
	scenario_disk "$(disk_of "kdump-tools$k")" "$d/disk.img"
	bench_boot "$d/console.log" 1500 1024 \
		"root=/dev/vda rw console=ttyS0 crashkernel=256M panic=-1 kdump_file_test=bench-load" \
		"$d/disk.img" -no-reboot || true
	rm -f "$d/disk.img"
	for w in kdump-file-load-uptodate kdump-file-load-rebuild \
		kdump-tools-load-uptodate kdump-tools-load-rebuild; do
		grep -o "bench: time $w [0-9.]*" "$d/console.log" |
			awk '{ print $4 }' | median >"$d/$w"
		log "$w$k: median $(cat "$d/$w") s"
	done
	grep "bench: FAIL" "$d/console.log" || true
done

# Part 3: kdump-file's dump time and size as guest RAM grows (one guest at
# a time: the largest takes most of the host's memory).  The guests stop
# when the capture reboots, the size taken from the capture's own line:
# a 4 GiB guest of this project's kernel took 1 to 3 minutes of its early
# boot to come up again after the capture, which is no capture's time.
for k in "" -stock; do
	has_part "ram$k" || continue
	for mem in $ram_sizes; do
		BENCH_NO_REBOOT=1 timed_run "kdump-file$k" 1 "$mem"
	done
done

# Part 4: the smallest crashkernel=, both guest sizes side by side, one vCPU
# each so that the two guests do not share a host core (no timing is taken
# from these runs; the capture kernel runs on one CPU either way).  The
# guesses: kdump-file's estimate; kdump-tools is configured by Debian with
# 128M (/etc/default/grub.d/kdump-tools.cfg).
ck_part() {
	local prod=$1 guess=$2
	[[ " $ck_products " == *" $prod "* ]] || return 0
	# shellcheck disable=SC2086 # two numbers
	ck_search "$prod" 1024 $guess &
	# shellcheck disable=SC2086
	ck_search "$prod" 4096 $guess &
	wait
	log "$prod smallest crashkernel: 1 GiB $(cat "$out/ck-$prod-1024")M, 4 GiB $(cat "$out/ck-$prod-4096")M"
}
if has_part crashkernel; then
	ck_part kdump-file "64 40"
	ck_part kdump-tools "128 64"
fi
if has_part crashkernel-stock; then
	ck_part kdump-file-stock "128 64"
	ck_part kdump-tools-stock "256 128"
fi

# The results.
products="kdump-file kdump-tools kdump-file-stock kdump-tools-stock"
phase_fields="panic_to_capture_kernel panic_to_capture_start
	capture_start_to_banner capture_kernel_boot capture_to_dump dump dump_to_reboot reboot_to_up panic_to_capture_up capture_up_to_saved
	saved_to_up total makedumpfile dump_bytes kernel_data_pages"
# json_or_null FILE: its content, or null.
json_or_null() {
	if [ -s "$1" ]; then cat "$1"; else echo null; fi
}
{
	echo "{"
	printf '  "kernel": "%s",\n  "stock_kernel": "%s",\n  "runs": %s,\n' \
		"$(cat "$kdir/release")" "$(stock_release)" "$runs"
	printf '  "initramfs_bytes": %s,\n' "$(json_or_null "$out/initramfs.json")"
	printf '  "phases": {\n'
	sep=
	for prod in $products; do
		printf '%s    "%s": {' "$sep" "$prod"
		sep=$',\n'
		fsep=
		for f in $phase_fields; do
			printf '%s"%s": %s' "$fsep" "$f" "$(med "$prod" 1024 "$f")"
			fsep=", "
		done
		printf ', "complete_runs": %s}' "$(cat "$out/$prod-1024M-"*/phases.json 2>/dev/null | jq -s 'map(select(.complete)) | length')"
	done
	printf '\n  },\n  "variants": ['
	sep=
	for k in "" -stock; do
		for v in default $all_variants; do
			for mem in 1024 4096 16384; do
				prod=kdump-file-$v$k
				[ "$v" != default ] || prod=kdump-file$k
				f=$out/$prod-${mem}M-1/phases.json
				[ -f "$f" ] || continue
				printf '%s{"variant": "%s", "kernel": "%s", "mem_mb": %s, "run": %s}' "$sep" "$v" \
					"$([ -n "$k" ] && echo stock || echo ours)" "$mem" "$(jq -c '{dump, dump_bytes, makedumpfile, kernel_data_pages, total, complete}' "$f")"
				sep=", "
			done
		done
	done
	printf '],\n  "load_seconds": {'
	sep=
	for k in "" -stock; do
		for w in kdump-file-load-uptodate kdump-file-load-rebuild \
			kdump-tools-load-uptodate kdump-tools-load-rebuild; do
			printf '%s"%s%s": %s' "$sep" "$w" "$k" "$(json_or_null "$out/load$k/$w")"
			sep=", "
		done
	done
	printf '},\n  "ram": {'
	sep=
	for k in "" -stock; do
		printf '%s"kdump-file%s": [' "$sep" "$k"
		sep=", "
		rsep=
		for mem in 1024 $ram_sizes; do
			printf '%s{"mem_mb": %s, "dump": %s, "dump_bytes": %s, "total": %s}' "$rsep" "$mem" \
				"$(med "kdump-file$k" "$mem" dump)" "$(med "kdump-file$k" "$mem" dump_bytes)" \
				"$(med "kdump-file$k" "$mem" total)"
			rsep=", "
		done
		printf ']'
	done
	printf '},\n  "crashkernel_mb": {'
	sep=
	for prod in $products; do
		printf '%s"%s": {"1024": %s, "4096": %s}' "$sep" "$prod" \
			"$(json_or_null "$out/ck-$prod-1024")" "$(json_or_null "$out/ck-$prod-4096")"
		sep=", "
	done
	printf '},\n  "seconds": %s\n}\n' $(($(date +%s) - t_start))
} | jq . >"$out/results.json.tmp"
mv "$out/results.json.tmp" "$out/results.json"

"$KDUMP_FILE_TOP/test/bench/report.sh" "$out/results.json" "$out"
cat "$out/results.md"
log "results: $out/results.json, $out/results.md, $out/results.png ($(($(date +%s) - t_start)) s)"
