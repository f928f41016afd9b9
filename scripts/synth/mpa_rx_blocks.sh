#!/bin/sh
# Prints the per-block table of `make synth-blocks` from DIR
# (sim/build/synth/mpa_rx): blk_<block>.stat (synth_ice40 stat of the block
# in its generated shell, and the Yosys time), blk_<block>.pnr.txt (nextpnr
# log; the last "Max frequency" line is the post-route one; "bitstream"
# from icepack).
# usage: mpa_rx_blocks.sh DIR "BLOCKS"
set -eu
dir=$1
count() { awk -v re="$2" '$1 ~ re && NF == 2 { n += $2 } END { print n + 0 }' "$1"; }
util() { awk -v r="$2:" '$2 == r { u = $3 $4 } END { print (u == "" ? "-" : u) }' "$1"; }
fmax() { grep "Max frequency for clock" "$1" | tail -1 | sed 's/.*: *\([0-9.]*\) MHz.*/\1/'; }
echo "receiver blocks alone in generated shells, nextpnr-ice40 HX8K ct256 seed 1 (LUT/FF/RAM include the shell)"
printf '%-14s %7s %7s %5s | %-12s %-8s %9s  %s\n' block LUT FF RAM "HX8K LC" "HX8K RAM" "fmax MHz" "icepack bitstream"
for b in $2; do
	s=$dir/blk_$b.stat; p=$dir/blk_$b.pnr.txt
	if grep -q nextpnr_failed "$p"; then f="no fit"; else f=$(fmax "$p"); fi
	bs=$(awk '$1 == "bitstream" { print $2 " (" $3 " bytes)" }' "$p")
	printf '%-14s %7s %7s %5s | %-12s %-8s %9s  %s\n' "$b" "$(count "$s" '^SB_LUT4$')" "$(count "$s" '^SB_DFF')" \
		"$(count "$s" '^SB_RAM40_4K$')" "$(util "$p" ICESTORM_LC)" "$(util "$p" ICESTORM_RAM)" "$f" "${bs:--}"
done
