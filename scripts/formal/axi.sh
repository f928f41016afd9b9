#!/bin/sh
# Formal proofs of the AXI blocks: the `ifdef FORMAL properties of
# rtl/mpa_rx_axi_wr.v (AXI4 write master) and rtl/mpa_rx_axil_regs.v
# (AXI4-Lite slave), each with small parameters, through Yosys
# (read_verilog -formal, write_smt2) and yosys-smtbmc with z3:
#   bmc:    the assertions from reset, DEPTH steps;
#   induct: k-induction step, DEPTH steps (with bmc, a proof);
#   cover:  every cover statement reached within COVER steps.
# yosys-smtbmc runs with --unroll (it expands the model's functions
# itself): z3 4.8.12 takes minutes to hours to define these modules'
# transition functions otherwise.
#
# usage: scripts/formal/axi.sh [OUTDIR [PROOF...]]
# Prints one line per check: proof, check, depth, seconds, PASS or FAIL;
# exits 1 if any check failed. FORMAL_TIMEOUT (seconds, default 1800)
# bounds each solver run.
set -u
out=${1:-sim/build/formal/axi}
shift 2>/dev/null || true
timeout_s=${FORMAL_TIMEOUT:-1800}
YOSYS=${YOSYS:-yosys}
SMTBMC=${SMTBMC:-yosys-smtbmc}

# name | top | parameters | source | bmc and induction depth | cover depth
proofs='
axi_wr_w64     | mpa_rx_axi_wr    | DATA_WIDTH=64 ADDR_WIDTH=16 MAX_BURSTS=4 ID_WIDTH=1 | rtl/mpa_rx_axi_wr.v    | 10 | 40
axi_wr_w512    | mpa_rx_axi_wr    | DATA_WIDTH=512 ADDR_WIDTH=16 MAX_BURSTS=2 ID_WIDTH=2 | rtl/mpa_rx_axi_wr.v    | 10 | 40
axil_regs      | mpa_rx_axil_regs | EVT_LANES=2                            | rtl/mpa_rx_axil_regs.v | 8  | 20
'

mkdir -p "$out"
fail=0
echo "$proofs" | while IFS='|' read -r name top params src depth cdepth; do
	name=$(echo $name)
	[ -z "$name" ] && continue
	if [ $# -gt 0 ]; then
		want=0
		for p in "$@"; do [ "$p" = "$name" ] && want=1; done
		[ $want = 0 ] && continue
	fi
	top=$(echo $top); src=$(echo $src); depth=$(echo $depth); cdepth=$(echo $cdepth)
	chp=""
	for p in $params; do chp="$chp -set ${p%%=*} ${p#*=}"; done
	d=$out/$name
	mkdir -p "$d"
	if ! $YOSYS -q -l "$d/yosys.log" -p "read_verilog -formal -Irtl $src; chparam$chp $top;
			prep -top $top; memory_map; opt_clean; async2sync; dffunmap; write_smt2 -wires $d/model.smt2" >/dev/null 2>&1; then
		echo "$name yosys - - FAIL (see $d/yosys.log)"
		echo 1 > "$out/failed"
		continue
	fi
	for check in bmc induct cover; do
		case $check in
		bmc) args="-t $depth"; n=$depth ;;
		induct) args="-i -t $depth"; n=$depth ;;
		cover) args="-c -t $cdepth"; n=$cdepth ;;
		esac
		t0=$(date +%s.%N)
		timeout "$timeout_s" $SMTBMC --unroll --noprogress -s z3 $args --dump-vcd "$d/$check.vcd" "$d/model.smt2" > "$d/$check.log" 2>&1
		rc=$?
		t1=$(date +%s.%N)
		secs=$(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }')
		if [ $rc -eq 0 ] && grep -q "Status: PASSED" "$d/$check.log"; then
			res=PASS
		elif [ $rc -eq 124 ]; then
			res="FAIL (timeout)"
			echo 1 > "$out/failed"
		else
			res="FAIL ($(grep -m1 -o 'Assert failed.*\|Unreached cover.*' "$d/$check.log" | head -1))"
			echo 1 > "$out/failed"
		fi
		echo "$name $check $n ${secs}s $res"
	done
done
if [ -f "$out/failed" ]; then
	rm -f "$out/failed"
	exit 1
fi
