#!/bin/sh
# Prints the synthesis table from the results `make synth` leaves in DIR:
# <block>_w<width>.ice40.txt (Yosys synth_ice40 stat and wall time),
# <block>_w<width>.xilinx.txt (synth_xilinx stat) and <block>_w<width>.pnr.txt
# (nextpnr-ice40 log; the last "Max frequency" line is the post-route one).
# Ratios are against crc32c_ref (the plain single-cycle loop) of the same run.
# usage: report.sh DIR "64 128 256 512"
set -eu
dir=$1
widths=$2

lut4() { awk '$1 == "SB_LUT4" { n = $2 } END { print n + 0 }' "$1"; }
ff_ice40() { awk '$1 ~ /^SB_DFF/ { n += $2 } END { print n + 0 }' "$1"; }
lut_x() { awk '$1 ~ /^LUT[1-6]$/ { n += $2 } END { print n + 0 }' "$1"; }
ff_x() { awk '$1 ~ /^FD[A-Z]*$/ { n += $2 } END { print n + 0 }' "$1"; }
secs() { awk '$1 == "yosys_seconds" { print $2 }' "$1"; }
fmax() { grep "Max frequency for clock" "$1" | tail -1 | sed 's/.*: *\([0-9.]*\) MHz.*/\1/'; }

printf '%-11s %5s | %9s %8s %9s %7s | %10s %9s | %7s %8s\n' \
	block width "iCE40 LUT" "iCE40 FF" "HX8K MHz" "yosys s" "xc7 LUT" "xc7 FF" "LUT/ref" "MHz/ref"
for w in $widths; do
	rl=$(lut4 "$dir/crc32c_ref_w$w.ice40.txt")
	rf=$(fmax "$dir/crc32c_ref_w$w.pnr.txt")
	for b in crc32c_ref crc32c; do
		base=$dir/${b}_w$w
		l=$(lut4 "$base.ice40.txt")
		f=$(fmax "$base.pnr.txt")
		printf '%-11s %5s | %9s %8s %9s %7s | %10s %9s | %7s %8s\n' "$b" "$w" \
			"$l" "$(ff_ice40 "$base.ice40.txt")" "$f" "$(secs "$base.ice40.txt")" \
			"$(lut_x "$base.xilinx.txt")" "$(ff_x "$base.xilinx.txt")" \
			"$(awk -v a="$l" -v b="$rl" 'BEGIN { printf "%.2f", a / b }')" \
			"$(awk -v a="$f" -v b="$rf" 'BEGIN { printf "%.2f", a / b }')"
	done
done
