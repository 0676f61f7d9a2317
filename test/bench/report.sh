#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The benchmark's tables and plot from its results.json (test/bench/run.sh):
#   report.sh RESULTS.json OUTDIR     writes OUTDIR/results.md, results.png
# Any subset of the benchmark's parts gives a report: a figure that was not
# measured reads "n/a", and a plot without figures is left out.
set -euo pipefail

json=${1:?usage: report.sh RESULTS.json OUTDIR}
dir=${2:?usage: report.sh RESULTS.json OUTDIR}

# The markdown: per kernel, one row per figure, kdump-file, kdump-tools,
# the ratio and the goal; then the sizes, RAM growth and the model.  Times
# in seconds (medians), sizes in MiB.
jq -r '
def r(x): if x == null then "n/a" else (x * 100 | round / 100 | tostring) end;
def ratio(a; b): if a == null or b == null or b == 0 then "n/a" else (a / b * 100 | round / 100 | tostring) + "x" end;
def mib(x): if x == null then null else x / 1048576 end;
def tp(p): if p.dump then 1024 / p.dump else null end;
# row(label; a; b; goal): one table row.
def row(l; a; b; g): "| \(l) | \(r(a)) | \(r(b)) | \(ratio(a; b)) | \(g) |";
# A least-squares line through [x, y] points: {a, b} of y = a + b x.
def fit: map(select(.[1] != null)) as $p | ($p | length) as $n |
	if $n < 2 then null else
	($p | map(.[0]) | add / $n) as $mx | ($p | map(.[1]) | add / $n) as $my |
	($p | map((.[0] - $mx) * (.[0] - $mx)) | add) as $sxx |
	if $sxx == 0 then null else
	(($p | map((.[0] - $mx) * (.[1] - $my)) | add) / $sxx) as $b |
	{a: ($my - $b * $mx), b: $b, n: $n} end end;
def at(f; x): if f == null then null else f.a + f.b * x end;
def table(k; name):
	.phases["kdump-file" + k] as $o | .phases["kdump-tools" + k] as $p |
	(if k == "" then "ours" else "stock" end) as $kn |
	([(.variants // [])[] | select(.variant == "zlib" and .kernel == $kn and .mem_mb == 1024) | .run][0] // {}) as $z |
	.load_seconds as $l | .crashkernel_mb as $c | (.initramfs_bytes // {}) as $i |
	(if $o.capture_kernel_boot and $o.makedumpfile then $o.capture_kernel_boot + $o.makedumpfile else null end) as $floor |
	(if $o.capture_kernel_boot and $o.capture_to_dump and $o.dump then $o.capture_kernel_boot + $o.capture_to_dump + $o.dump else null end) as $ours |
	"## \(name)",
	"",
	"1 GiB guests, 2 vCPUs under TCG, crashkernel=256M, sysrq crash; medians of \(.runs)",
	"runs each (complete: kdump-file \($o.complete_runs // 0), kdump-tools \($p.complete_runs // 0)).",
	"",
	"| figure | kdump-file | kdump-tools | kdump-file / kdump-tools | goal |",
	"|---|---|---|---|---|",
	row("panic -> capture kernel up (s)"; $o.panic_to_capture_up; $p.panic_to_capture_up; ""),
	row("capture kernel up -> dump saved (s)"; $o.capture_up_to_saved; $p.capture_up_to_saved; ""),
	row("dump saved -> first kernel back up, multi-user (s)"; $o.saved_to_up; $p.saved_to_up; ""),
	row("**panic -> back up (s)**"; $o.total; $p.total; ""),
	row("**panic -> dump saved (s)**"; (if $o.panic_to_capture_up and $o.capture_up_to_saved then $o.panic_to_capture_up + $o.capture_up_to_saved else null end); (if $p.panic_to_capture_up and $p.capture_up_to_saved then $p.panic_to_capture_up + $p.capture_up_to_saved else null end); "<= 0.15x"),
	row("of which: panic -> capture kernel banner"; $o.panic_to_capture_kernel; $p.panic_to_capture_kernel; ""),
	row("  of which: panic -> capture kernel starts (panic, purgatory'"'"'s digest check, decompression)"; $o.panic_to_capture_start; $p.panic_to_capture_start; ""),
	row("  of which: capture kernel starts -> banner on the console"; $o.capture_start_to_banner; $p.capture_start_to_banner; ""),
	row("of which: capture kernel boot to /init"; $o.capture_kernel_boot; $p.capture_kernel_boot; ""),
	row("of which: /init -> makedumpfile starts"; $o.capture_to_dump; $p.capture_to_dump; ""),
	row("of which: vmcore written"; $o.dump; $p.dump; ""),
	row("of which: vmcore written -> first kernel banner"; $o.dump_to_reboot; $p.dump_to_reboot; ""),
	row("of which: first kernel boot to multi-user"; $o.reboot_to_up; $p.reboot_to_up; ""),
	row("dump size (MiB)"; mib($o.dump_bytes); mib($p.dump_bytes); "<= 0.9x"),
	row("dump throughput (MiB of RAM per s)"; tp($o); tp($p); ">= 4x"),
	row("kernel data the dump keeps (MiB, makedumpfile --mem-usage before the crash)"; (if $o.kernel_data_pages then $o.kernel_data_pages / 256 else null end); (if $p.kernel_data_pages then $p.kernel_data_pages / 256 else null end); ""),
	row("dump bytes per kept byte"; (if $o.kernel_data_pages and $o.dump_bytes then $o.dump_bytes / ($o.kernel_data_pages * 4096) else null end); (if $p.kernel_data_pages and $p.dump_bytes then $p.dump_bytes / ($p.kernel_data_pages * 4096) else null end); ""),
	row("kdump-file with zlib (-c, one run): dump size (MiB)"; mib($z.dump_bytes); mib($p.dump_bytes); ""),
	row("kdump-file with zlib (-c, one run): throughput (MiB of RAM per s)"; tp($z); tp($p); ""),
	row("capture initramfs (MiB)"; mib($i["kdump-file" + k]); mib($i["kdump-tools" + k]); (if k == "" then "<= 2 MiB" else "<= 5 MiB" end)),
	row("smallest crashkernel, 1 GiB guest (MiB)"; $c["kdump-file" + k]["1024"]; $c["kdump-tools" + k]["1024"]; (if k == "" then "<= 48" else "<= 0.8x" end)),
	row("smallest crashkernel, 4 GiB guest (MiB)"; $c["kdump-file" + k]["4096"]; $c["kdump-tools" + k]["4096"]; (if k == "" then "<= 48" else "<= 0.8x" end)),
	row("load, capture initrd up to date (s)"; $l["kdump-file-load-uptodate" + k]; $l["kdump-tools-load-uptodate" + k]; "<= 0.5 s"),
	row("load, capture initrd rebuilt (s)"; $l["kdump-file-load-rebuild" + k]; $l["kdump-tools-load-rebuild" + k]; "<= 10 s"),
	"",
	"The floor: the capture kernel boot to /init plus makedumpfile alone, both taken",
	"from the kdump-file runs: \(r($floor)) s. kdump-file from the capture kernel banner",
	"to the vmcore saved: \(r($ours)) s, \(ratio($ours; $floor)) the floor (goal <= 1.1x).",
	"";
def vartable(kn; name):
	[(.variants // [])[] | select(.kernel == kn)] as $v |
	if ($v | length) == 0 then empty else
	"kdump-file'"'"'s variants on \(name) (one run each; guests beyond 1 GiB half filled",
	"as below; threads2: makedumpfile_threads = 2, the capture kernel with nr_cpus=2;",
	"e: makedumpfile -e, the page structures of excluded pages left out too; d1 and",
	"d17: dump_level 1 (zero pages alone excluded) and 17 (zero and free pages):",
	"",
	"| variant | guest RAM (GiB) | vmcore written (s) | dump size (MiB) | kernel data pages before the crash | throughput (MiB of RAM per s) |",
	"|---|---|---|---|---|---|",
	($v[] | "| \(.variant) | \(.mem_mb / 1024) | \(r(.run.dump)) | \(r(mib(.run.dump_bytes))) | \(.run.kernel_data_pages // "n/a") | \(if .run.dump then r(.mem_mb / .run.dump) else "n/a" end) |"),
	""
	end;
def ramtable(k; name):
	(.ram["kdump-file" + k] // []) as $rows |
	(.crashkernel_mb["kdump-file" + k]["1024"] // null) as $ck1 |
	if ($rows | map(select(.dump != null)) | length) == 0 then empty else
	"kdump-file on \(name) as guest RAM grows (one run each beyond 1 GiB, memory half",
	"filled first: a quarter page cache, a quarter user pages; beyond 1 GiB the guest",
	"stops at the capture'"'"'s reboot, so panic -> back up is the 1 GiB row'"'"'s only):",
	"",
	"| guest RAM (GiB) | vmcore written (s) | dump size (MiB) | s per GiB | MiB per GiB | panic -> back up (s) |",
	"|---|---|---|---|---|---|",
	($rows[] | select(.dump != null) | (.mem_mb / 1024) as $g |
		"| \($g) | \(r(.dump)) | \(r(mib(.dump_bytes))) | \(r(.dump / $g)) | \(r(mib(.dump_bytes) / $g)) | \(r(.total)) |"),
	"",
	([$rows[] | select(.mem_mb > 1024) | [.mem_mb / 1024, .dump]] | fit) as $tf |
	([$rows[] | select(.mem_mb > 1024) | [.mem_mb / 1024, mib(.dump_bytes)]] | fit) as $sf |
	if $tf == null or $sf == null then "Too few points for the model.", "" else
	"The model, a straight line through the filled guests (\($tf.n) points): vmcore",
	"written in \(r($tf.a)) + \(r($tf.b)) s per GiB, dump \(r($sf.a)) + \(r($sf.b)) MiB per GiB.",
	"",
	"The crashkernel= column adds to the smallest measured for 1 GiB (\($ck1 // "n/a") MiB)",
	"what `kdump-file estimate` counts per GiB of RAM (256 KiB: makedumpfile'"'"'s bitmaps",
	"and the capture kernel'"'"'s page tables), rounded up to 8 MiB. Assumed: the kernel'"'"'s",
	"own data grows with RAM as between 2 and 16 GiB (mem_map, page tables), the share",
	"of user and cache pages stays a half, and one CPU compresses.",
	"",
	"| guest RAM | vmcore written (predicted) | dump size (predicted) | crashkernel= (predicted) |",
	"|---|---|---|---|",
	(64, 256, 1024 | "| \(if . >= 1024 then "\(. / 1024) TiB" else "\(.) GiB" end) | \(r(at($tf; .))) s (\(r(at($tf; .) / 60)) min) | \(r(at($sf; .) / 1024)) GiB | \(if $ck1 == null then "n/a" else "\(($ck1 + (. - 1) / 4) / 8 | ceil * 8)M" end) |"),
	""
	end end;
"# kdump-file against kdump-tools",
"",
"Each product with its default settings: kdump-file makedumpfile -l -d 31 (LZO),",
"kdump-tools makedumpfile -F -c -d 31 (zlib, flattened).",
"",
table(""; "This project'"'"'s kernel \(.kernel)"),
table("-stock"; "Debian'"'"'s stock kernel \(.stock_kernel // "n/a")"),
vartable("ours"; "this project'"'"'s kernel"),
vartable("stock"; "the stock kernel"),
ramtable(""; "this project'"'"'s kernel"),
ramtable("-stock"; "the stock kernel"),
"The whole benchmark took \(.seconds) s."
' "$json" >"$dir/results.md"

# The plot: the phases of each product side by side (stacked), and
# kdump-file's dump time against guest RAM; each only with figures.
jq -r '.phases as $ph | ["kdump-file", "kdump-tools", "kdump-file-stock", "kdump-tools-stock"][] as $p |
	$ph[$p] | select(. != null and .total != null) |
	[$p, .panic_to_capture_kernel, .capture_kernel_boot, .capture_to_dump,
	 .dump, .dump_to_reboot, .reboot_to_up] | map(. // 0) | @tsv' "$json" >"$dir/phases.dat"
# A missing figure is NaN, which gnuplot leaves out.
jq -r '(.ram // {}) | to_entries[] | .key as $k | .value[] | select(.dump != null) |
	[$k, .mem_mb / 1024, .dump, (if .dump_bytes then .dump_bytes / 1048576 else "NaN" end)] | @tsv' \
	"$json" >"$dir/ram.dat"
plots=()
if [ -s "$dir/phases.dat" ]; then
	plots+=("set title 'panic to back up, median (s)'
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set boxwidth 0.6
set key outside right
set xtics rotate by -20
set ylabel 'seconds'
plot '$dir/phases.dat' using 2:xtic(1) title 'panic -> capture kernel', \\
	'' using 3 title 'capture kernel boot', \\
	'' using 4 title '/init -> makedumpfile', \\
	'' using 5 title 'vmcore written', \\
	'' using 6 title '-> first kernel', \\
	'' using 7 title 'boot to multi-user'")
fi
ram_lines=()
for k in kdump-file kdump-file-stock; do
	grep -qP "^$k\t" "$dir/ram.dat" 2>/dev/null || continue
	name="our kernel"
	[ "$k" = kdump-file ] || name="stock kernel"
	ram_lines+=("'< grep -P \"^$k\\t\" $dir/ram.dat' using 2:3 title '$name: vmcore written (s)' axes x1y1, '' using 2:4 title '$name: dump size (MiB)' axes x1y2")
done
if [ "${#ram_lines[@]}" -gt 0 ]; then
	plots+=("set title 'kdump-file: vmcore by guest RAM'
set style data linespoints
set xlabel 'guest RAM (GiB)'
set ylabel 'seconds'
set y2label 'MiB'
set y2tics
set key inside left top
plot $(IFS=,; echo "${ram_lines[*]}")")
fi
if [ "${#plots[@]}" -eq 0 ]; then
	rm -f "$dir/results.png"
	exit 0
fi
{
	echo 'set terminal pngcairo size 1200,500 font ",10"'
	echo "set output '$dir/results.png'"
	echo "set multiplot layout 1,${#plots[@]}"
	for p in "${plots[@]}"; do
		echo "$p"
		printf 'unset %s\n' xlabel ylabel y2label y2tics title
		echo 'set xtics norotate'
	done
	echo "unset multiplot"
} | gnuplot
