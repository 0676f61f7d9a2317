#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the QEMU scenarios test/TEST-*/test.sh (or those named as arguments;
# without, all but test/check-full-only's unless KDUMP_FILE_FULL=1),
# at most KDUMP_FILE_JOBS at a time (default 2: TCG guests are CPU bound).
# Kernels and guest images are built once, before any guest starts: ours
# for most scenarios, Debian's stock kernel for those named TEST-NN-STOCK-*,
# and for the network scenarios (TEST-NN-NET-*) the collector's image too.
# A network scenario runs up to four guests at once (a collector, clients).
# shellcheck source=test/lib/common.sh
. "$(dirname "$0")/lib/common.sh"

jobs=${KDUMP_FILE_JOBS:-2}
cd "$KDUMP_FILE_TOP"
if [ "$#" -gt 0 ]; then
	scenarios=("$@")
else
	mapfile -t scenarios < <(find test -mindepth 1 -maxdepth 1 -name 'TEST-*' -type d -printf '%f\n' | sort)
	# make check leaves out the slow, rarely changing scenarios that
	# test/check-full-only names; make check-full (KDUMP_FILE_FULL=1)
	# runs them too.
	if [ "${KDUMP_FILE_FULL:-0}" != 1 ] && [ -f test/check-full-only ]; then
		mapfile -t scenarios < <(printf '%s\n' "${scenarios[@]}" |
			grep -vxF -f <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' test/check-full-only))
	fi
fi

# Longest first, by the times of the last run (unknown ones first): two
# guests at a time end closest together that way.
mkdir -p "$KDUMP_FILE_CACHE"
times=$KDUMP_FILE_CACHE/scenario-seconds
if [ -f "$times" ]; then
	mapfile -t scenarios < <(for s in "${scenarios[@]}"; do
		echo "$(awk -v s="$s" '$1 == s { t = $2 } END { print t + 0 == 0 ? 99999 : t }' "$times") $s"
	done | sort -k1,1nr -k2 | cut -d' ' -f2)
fi

ours=0
stock=0
collector=0
for s in "${scenarios[@]}"; do
	case "$s" in
	*-NET-*) collector=1 ;;
	esac
	case "$s" in
	TEST-32-NET-FAILURES) ours=1 stock=1 ;;
	*-STOCK-*) stock=1 ;;
	TEST-29-HOTPLUG)
		# Both kernels, or those KDUMP_FILE_HOTPLUG_KERNELS names.
		case " ${KDUMP_FILE_HOTPLUG_KERNELS:-stock ours} " in
		*" stock "*) stock=1 ;;
		esac
		case " ${KDUMP_FILE_HOTPLUG_KERNELS:-stock ours} " in
		*" ours "*) ours=1 ;;
		esac
		;;
	*) ours=1 ;;
	esac
done
mkdir -p "$KDUMP_FILE_OUT"
if [ "$stock" = 1 ]; then
	# The stock kernel's vmlinux (an 819 MiB -dbg package) is needed only
	# by the checks after the crash: fetched in the background, detached
	# from this shell so that "wait -n" below waits for scenarios only;
	# the scenarios wait for it through stock-kernel.sh's lock.
	(stock_vmlinux >"$KDUMP_FILE_OUT/stock-kernel.log" 2>&1 &)
fi
# The product is built once here; the images that install it then build
# side by side (each under its own lock).
make -s -C "$KDUMP_FILE_TOP" all >/dev/null
kdir=
[ "$ours" = 0 ] || kdir=$(kernel_dir)
images=()
[ "$ours" = 0 ] || { guest_image "$kdir" >/dev/null & images+=($!); }
[ "$stock" = 0 ] || { stock_image >/dev/null & images+=($!); }
[ "$collector" = 0 ] || { collector_image >/dev/null & images+=($!); }
built=0
for p in "${images[@]}"; do
	wait "$p" || built=$?
done
if [ "$built" != 0 ]; then
	echo "run-scenarios: a guest image did not build (its error is above)" >&2
	exit 1
fi

# run_one NAME [WHAT]: run one scenario, print its verdict ("PASS", or
# "PASS" WHAT when given) and record it in NAME.result.
run_one() {
	local s=$1 what=${2:-} t0
	t0=$(date +%s)
	if "test/$s/test.sh" >"$KDUMP_FILE_OUT/$s.log" 2>&1; then
		echo "== $s: PASS$what ($(($(date +%s) - t0)) s)"
		echo pass >"$KDUMP_FILE_OUT/$s.result"
		echo "$s $(($(date +%s) - t0))" >>"$times"
	else
		echo "== $s: FAIL$what ($(($(date +%s) - t0)) s); log: $KDUMP_FILE_OUT/$s.log"
		grep -E 'FAIL|checks passed' "$KDUMP_FILE_OUT/$s.log" | sed 's/^/   /'
		echo fail >"$KDUMP_FILE_OUT/$s.result"
	fi
}

running=0
start=$(date +%s)
for s in "${scenarios[@]}"; do
	while [ "$running" -ge "$jobs" ]; do
		wait -n || true
		running=$((running - 1))
	done
	echo "== $s: started"
	rm -f "$KDUMP_FILE_OUT/$s.result"
	run_one "$s" &
	running=$((running + 1))
done
wait

# A scenario that failed with a guest that never ended is run once more,
# alone, and says so: under TCG a vCPU's timer now and then stops firing
# and the guest hangs in early boot, which is not what the scenario tests.
for s in "${scenarios[@]}"; do
	[ "$(cat "$KDUMP_FILE_OUT/$s.result" 2>/dev/null)" = fail ] || continue
	[ -s "$KDUMP_FILE_OUT/$s/guest-timeouts" ] || continue
	echo "== $s: a guest timed out ($(head -n 1 "$KDUMP_FILE_OUT/$s/guest-timeouts")); running it once more"
	mv "$KDUMP_FILE_OUT/$s.log" "$KDUMP_FILE_OUT/$s.first.log"
	run_one "$s" " on the second run (first run: $KDUMP_FILE_OUT/$s.first.log)"
done

passed=0
failed=0
for s in "${scenarios[@]}"; do
	if [ "$(cat "$KDUMP_FILE_OUT/$s.result" 2>/dev/null)" = pass ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
done
echo "scenarios: $(($(date +%s) - start)) s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
