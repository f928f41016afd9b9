#!/bin/sh
# Cross-checks cmd/lutdepth against Yosys's own `ltp -noff` on every
# netlist `make synth-fast` / `make synth` left in DIR (B_wW.json): Yosys
# reads the netlist back and reports its longest path over the LUT cells
# only, then over LUT, CARRY4 and MUXF7/F8 cells; lutdepth's emulation of
# ltp over the same cell types must give the same lengths.
# usage: ltpcheck.sh DIR LUTDEPTH [YOSYS]
set -eu
dir=$1
lutdepth=$2
yosys=${3:-yosys}
fail=0
for j in "$dir"/*_w*.json; do
	case $j in *.depth.json) continue ;; esac
	[ -f "$j" ] || continue
	top=$(basename "$j" .json); top=${top%_w*}
	$yosys -q -p "read_json $j; hierarchy -top $top; tee -q -o $j.ltp ltp -noff t:LUT* w:*; \
		tee -q -a $j.ltp ltp -noff t:LUT* t:CARRY4 t:MUXF* w:*" >/dev/null
	y1=$(grep -o 'length=[0-9]*' "$j.ltp" | sed -n 1p | cut -d= -f2)
	y2=$(grep -o 'length=[0-9]*' "$j.ltp" | sed -n 2p | cut -d= -f2)
	l1=$($lutdepth -q -ltp 'LUT*' "$j" | sed 's/.*: \([0-9]*\) LUT levels.*/\1/')
	l2=$($lutdepth -q -ltp 'LUT* CARRY4 MUXF*' "$j" | sed 's/.*: \([0-9]*\) LUT levels.*/\1/')
	lv=$($lutdepth -q "$j" | sed 's/.*: \([0-9]*\) LUT levels.*/\1/')
	ok=ok
	if [ "$y1" != "$l1" ] || [ "$y2" != "$l2" ]; then ok=MISMATCH; fail=1; fi
	printf '%-24s ltp LUT* %4s (lutdepth %4s)  ltp LUT*,CARRY4,MUXF* %4s (lutdepth %4s)  %s;  LUT levels %s\n' \
		"$(basename "$j" .json)" "$y1" "$l1" "$y2" "$l2" "$ok" "$lv"
done
exit $fail
