#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The benchmark's tables and plot from its results.json (test/bench/run.sh):
#   report.sh RESULTS.json OUTDIR     writes OUTDIR/results.md, results.png
set -euo pipefail

json=${1:?usage: report.sh RESULTS.json OUTDIR}
dir=${2:?usage: report.sh RESULTS.json OUTDIR}

# The markdown: one row per figure, kdump-file, kdump-tools, the ratio and
# the goal.  Times in seconds (medians), sizes in MiB.
jq -r '
def r(x): if x == null then "n/a" else (x * 100 | round / 100 | tostring) end;
def ratio(a; b): if a == null or b == null or b == 0 then "n/a" else (a / b * 100 | round / 100 | tostring) + "x" end;
def mib(x): if x == null then null else x / 1048576 end;
.phases["kdump-file"] as $o | .phases["kdump-tools"] as $p |
.load_seconds as $l | .crashkernel_mb as $c |
(if $o.dump then 1024 / $o.dump else null end) as $otp |
(if $p.dump then 1024 / $p.dump else null end) as $ptp |
(.phases["kdump-file-zlib"] // {}) as $z |
(if $z.dump then 1024 / $z.dump else null end) as $ztp |
(if $o.capture_kernel_boot and $o.makedumpfile then $o.capture_kernel_boot + $o.makedumpfile else null end) as $floor |
(if $o.capture_kernel_boot and $o.capture_to_dump and $o.dump then $o.capture_kernel_boot + $o.capture_to_dump + $o.dump else null end) as $ours |
"# kdump-file against kdump-tools",
"",
"Kernel \(.kernel), 1 GiB guests, 2 vCPUs under TCG, crashkernel=256M, sysrq crash;",
"medians of \(.runs) runs each (complete: kdump-file \($o.complete_runs), kdump-tools \($p.complete_runs)).",
"Each product with its default settings: kdump-file makedumpfile -l -d 31 (LZO),",
"kdump-tools makedumpfile -F -c -d 31 (zlib, flattened).",
"",
"| figure | kdump-file | kdump-tools | kdump-file / kdump-tools | goal |",
"|---|---|---|---|---|",
"| panic -> capture kernel up (s) | \(r($o.panic_to_capture_up)) | \(r($p.panic_to_capture_up)) | \(ratio($o.panic_to_capture_up; $p.panic_to_capture_up)) | |",
"| capture kernel up -> dump saved (s) | \(r($o.capture_up_to_saved)) | \(r($p.capture_up_to_saved)) | \(ratio($o.capture_up_to_saved; $p.capture_up_to_saved)) | |",
"| dump saved -> first kernel back up, multi-user (s) | \(r($o.saved_to_up)) | \(r($p.saved_to_up)) | \(ratio($o.saved_to_up; $p.saved_to_up)) | |",
"| **panic -> back up (s)** | **\(r($o.total))** | **\(r($p.total))** | **\(ratio($o.total; $p.total))** | <= 0.5x |",
"| of which: panic -> capture kernel banner | \(r($o.panic_to_capture_kernel)) | \(r($p.panic_to_capture_kernel)) | \(ratio($o.panic_to_capture_kernel; $p.panic_to_capture_kernel)) | |",
"| of which: capture kernel boot to /init | \(r($o.capture_kernel_boot)) | \(r($p.capture_kernel_boot)) | \(ratio($o.capture_kernel_boot; $p.capture_kernel_boot)) | |",
"| of which: /init -> makedumpfile starts | \(r($o.capture_to_dump)) | \(r($p.capture_to_dump)) | \(ratio($o.capture_to_dump; $p.capture_to_dump)) | |",
"| of which: vmcore written | \(r($o.dump)) | \(r($p.dump)) | \(ratio($o.dump; $p.dump)) | |",
"| of which: vmcore written -> first kernel banner | \(r($o.dump_to_reboot)) | \(r($p.dump_to_reboot)) | \(ratio($o.dump_to_reboot; $p.dump_to_reboot)) | |",
"| of which: first kernel boot to multi-user | \(r($o.reboot_to_up)) | \(r($p.reboot_to_up)) | \(ratio($o.reboot_to_up; $p.reboot_to_up)) | |",
"| dump size (MiB) | \(r(mib($o.dump_bytes))) | \(r(mib($p.dump_bytes))) | \(ratio($o.dump_bytes; $p.dump_bytes)) | <= 1x |",
"| dump throughput (MiB of RAM per s) | \(r($otp)) | \(r($ptp)) | \(ratio($otp; $ptp)) | >= 2x |",
"| kdump-file with zlib (-c, one run): dump size (MiB) | \(r(mib($z.dump_bytes))) | \(r(mib($p.dump_bytes))) | \(ratio($z.dump_bytes; $p.dump_bytes)) | |",
"| kdump-file with zlib (-c, one run): throughput (MiB of RAM per s) | \(r($ztp)) | \(r($ptp)) | \(ratio($ztp; $ptp)) | |",
"| smallest crashkernel, 1 GiB guest (MiB) | \($c["kdump-file"]["1024"] // "n/a") | \($c["kdump-tools"]["1024"] // "n/a") | \(ratio($c["kdump-file"]["1024"]; $c["kdump-tools"]["1024"])) | <= 64 |",
"| smallest crashkernel, 4 GiB guest (MiB) | \($c["kdump-file"]["4096"] // "n/a") | \($c["kdump-tools"]["4096"] // "n/a") | \(ratio($c["kdump-file"]["4096"]; $c["kdump-tools"]["4096"])) | <= 64 |",
"| smallest crashkernel on Debian stock kernel, 1 GiB guest (MiB) | \($c["kdump-file-stock"]["1024"] // "n/a") | | | |",
"| smallest crashkernel on Debian stock kernel, 4 GiB guest (MiB) | \($c["kdump-file-stock"]["4096"] // "n/a") | | | |",
"| load, capture initrd up to date (s) | \(r($l["kdump-file-load-uptodate"])) | \(r($l["kdump-tools-load-uptodate"])) | \(ratio($l["kdump-file-load-uptodate"]; $l["kdump-tools-load-uptodate"])) | |",
"| load, capture initrd rebuilt (s) | \(r($l["kdump-file-load-rebuild"])) | \(r($l["kdump-tools-load-rebuild"])) | \(ratio($l["kdump-file-load-rebuild"]; $l["kdump-tools-load-rebuild"])) | |",
"",
"The floor: the capture kernel boot to /init plus makedumpfile alone, both taken",
"from the kdump-file runs: \(r($floor)) s. kdump-file from the capture kernel banner",
"to the vmcore saved: \(r($ours)) s, \(ratio($ours; $floor)) the floor (goal <= 1.5x).",
"",
"kdump-file as guest RAM grows (one run each, 1 GiB: the median above):",
"",
"| guest RAM (GiB) | vmcore written (s) | dump size (MiB) | panic -> back up (s) |",
"|---|---|---|---|",
(.ram[] | "| \(.mem_mb / 1024) | \(r(.dump)) | \(r(mib(.dump_bytes))) | \(r(.total)) |"),
"",
"The whole benchmark took \(.seconds) s."
' "$json" >"$dir/results.md"

# The plot: the phases of both products side by side (stacked), and
# kdump-file's dump time against guest RAM.
jq -r '.phases as $ph | ["kdump-file", "kdump-tools"][] as $p | $ph[$p] |
	[$p, .panic_to_capture_kernel, .capture_kernel_boot, .capture_to_dump,
	 .dump, .dump_to_reboot, .reboot_to_up] | map(. // 0) | @tsv' "$json" >"$dir/phases.dat"
# A missing figure is NaN, which gnuplot leaves out.
jq -r '.ram[] | [.mem_mb / 1024, (.dump // "NaN"),
	(if .dump_bytes then .dump_bytes / 1048576 else "NaN" end)] | @tsv' "$json" >"$dir/ram.dat"
gnuplot <<EOF
set terminal pngcairo size 1200,500 font ",10"
set output "$dir/results.png"
set multiplot layout 1,2
set title "panic to back up, median (s)"
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set boxwidth 0.6
set key outside right
set ylabel "seconds"
plot "$dir/phases.dat" using 2:xtic(1) title "panic -> capture kernel", \
	"" using 3 title "capture kernel boot", \
	"" using 4 title "/init -> makedumpfile", \
	"" using 5 title "vmcore written", \
	"" using 6 title "-> first kernel", \
	"" using 7 title "boot to multi-user"
set title "kdump-file: vmcore by guest RAM"
set style data linespoints
set xlabel "guest RAM (GiB)"
set ylabel "seconds"
set y2label "MiB"
set y2tics
set key inside left top
plot "$dir/ram.dat" using 1:2 title "vmcore written (s)" axes x1y1, \
	"" using 1:3 title "dump size (MiB)" axes x1y2
unset multiplot
EOF
