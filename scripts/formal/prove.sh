#!/bin/sh
# prove.sh NAME OUT [RTL]: run the proof NAME of scripts/formal/proofs.txt
# and write OUT/NAME.result, one line:
#   name|group|method|depth|seconds|PASS or FAIL|detail|cpu seconds
# (seconds: wall time of Yosys and the solver runs; cpu seconds: the CPU
# time they used, user and system: on a machine shared with other jobs the
# wall time grows with the load, the CPU time does not).
# RTL is the directory read for rtl/ (default rtl; make formal-mutants
# passes a patched copy). Logs, the SMT-LIB model and any counterexample
# trace (.vcd) are kept in OUT/NAME/.
#
# Flow: yosys read_verilog -formal (with the property modules of
# RTL/formal), chparam, prep -top, the proof's extra passes, async2sync,
# dffunmap, write_smt2 -wires. The passes column holds Yosys commands run
# after prep (`-`: none), separated by `;`:
#   memory_map: memories as registers and muxes instead of SMT arrays;
#     which is faster depends on the shape: a 4 x 577-bit FIFO's induction
#     step took 53 s as arrays and 4 s mapped, a 16 x 64-bit one 6 s as
#     arrays and over 300 s mapped;
#   cutpoint SIGNALS: the signals become free inputs (an abstraction: what
#     is proven holds for any value of them, so it holds for the real
#     logic too); used to cut a datapath that the properties do not read
#     and that z3 cannot even load in time (crc32c's XOR matrices).
# Then yosys-smtbmc with the proof's solver (the last column; z3 when
# empty): z3 4.8.12 or cvc5 1.0.3 (the Debian ones), whichever ends the
# proof in less CPU time, measured proof by proof.
#   z3-unroll (yosys-smtbmc --unroll: it expands the model's functions
#     itself): plain z3 cannot load the larger models (it expands each
#     define-fun with its whole cone of logic and simplifies it: one
#     definition of mpa_rx_ddp took 20 s of CPU, the model did not finish
#     loading in 300 s). With --unroll it is the fastest on E2 and the
#     verdict: mpa_rx_place's write window 33 s of CPU where cvc5 took 170
#     to 310 s, its tiling 86 s (cvc5 483), mpa_rx_verdict 4 s (cvc5 70 to
#     88); and on the AXI blocks, the walker's parts and the parser's class.
#   cvc5: loads every model in well under a second; the fastest on
#     mpa_rx_ddp (z3 --unroll 142 s against 55 to 74), mpa_rx_ctx and the
#     completion gate (33 s, z3 140 to 190 s).
#   z3: the small models (the FIFOs, delay lines, crc32c, the parser's
#     flow), where cvc5 timed out on proofs z3 ends in seconds.
#   prove K or K/B: k-induction: the base case (BMC from reset, B steps;
#            B = K when not given, B >= K) and the induction step (-i, K
#            steps); both must pass. A deeper base case finds a real
#            counterexample where the induction step alone would only say
#            that an invariant broke.
#   bmc N:   BMC from reset, N steps.
#   cover N: every cover statement reached within N steps (-c); the
#            assertions are checked on each cover trace too.
# FORMAL_TIMEOUT (seconds, default 300 here, 1800 from mk/formal.mk) bounds each solver run.
set -u
name=$1
out=$2
rtl=${3:-rtl}
here=$(dirname "$0")
table=$here/proofs.txt
timeout_s=${FORMAL_TIMEOUT:-300}

line=$(awk -F'|' -v n="$name" '
	/^[ \t]*#/ || NF < 10 { next }
	{ k = $1; gsub(/[ \t]/, "", k); if (k == n) { print; exit } }' "$table")
if [ -z "$line" ]; then
	echo "prove.sh: no proof $name in $table" >&2
	exit 2
fi
field() { echo "$line" | awk -F'|' -v i="$1" '{ v = $i; gsub(/^[ \t]+|[ \t]+$/, "", v); print v }'; }
top=$(field 2)
params=$(field 3)
defines=$(field 4)
sources=$(field 5)
passes=$(field 6)
mode=$(field 7)
depth=$(field 8)
expect=$(field 9)
group=$(field 10)
solver=$(field 11)
[ -n "$solver" ] || solver=z3
# SOLVER-unroll: yosys-smtbmc --unroll (above).
unroll=""
case $solver in *-unroll) solver=${solver%-unroll}; unroll=--unroll ;; esac

dir=$out/$name
rm -rf "$dir"
mkdir -p "$dir"

srcs=""
for s in $sources; do srcs="$srcs $rtl/${s#rtl/}"; done
for s in "$rtl"/formal/*.v; do srcs="$srcs $s"; done
defs=""
for d in $defines; do defs="$defs -D$d"; done
chp=""
for p in $params; do chp="$chp -set ${p%%=*} ${p#*=}"; done
chparam=""
[ -n "$chp" ] && chparam="chparam$chp $top;"
extra=""
[ "$passes" = - ] || extra="$passes; opt_clean;"

start=$(date +%s.%N)
result=FAIL
detail=""
method=$mode

finish() {
	end=$(date +%s.%N)
	secs=$(echo "$start $end" | awk '{ printf "%.1f", $2 - $1 }')
	# the CPU time of every process this script waited for (the second line of times)
	times > "$dir/times.txt"
	cpu=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); sub("s", "", a[2]); t += a[1] * 60 + a[2] }; printf "%.1f", t }' "$dir/times.txt")
	got=$result
	if [ "$expect" = fail ]; then
		if [ "$result" = FAIL ]; then got=PASS; detail="failed as expected: $detail"; else got=FAIL; detail="expected to fail, passed"; fi
	fi
	echo "$name|$group|$method|$depth|$secs|$got|$detail|$cpu" > "$out/$name.result"
	echo "formal $name: $got ($method $depth, ${secs}s, CPU ${cpu}s) $detail"
}

if ! yosys -q -l "$dir/yosys.log" -p "read_verilog -formal -I$rtl$defs$srcs; $chparam
	prep -top $top; $extra async2sync; dffunmap; write_smt2 -wires $dir/model.smt2" >/dev/null 2>&1; then
	detail="yosys: $(grep -m1 -i 'error' "$dir/yosys.log")"
	finish
	exit 0
fi

# smt NAME ARGS...: one solver run; its status word in $status
smt() {
	log=$dir/$1.log
	shift
	timeout "$timeout_s" yosys-smtbmc -s "$solver" $unroll --noprogress "$@" "$dir/model.smt2" > "$log" 2>&1
	rc=$?
	if [ $rc -eq 124 ]; then status=TIMEOUT; elif [ $rc -eq 0 ]; then status=PASSED; else status=FAILED; fi
}
# where a failed run failed: the first assertion or unreached cover it names
why() {
	{ grep -E 'Assert failed|Unreached cover' "$1"; grep -E 'failed|rror' "$1"; } | head -1 |
		sed -e 's/^## *[0-9:]* *//' -e 's/Assert failed in [^:]*: */assertion /' -e 's/ ([$][^)]*)//' \
			-e 's/:[0-9]*[.][0-9]*-\([0-9]*\)[.][0-9]*/:\1/' -e 's/[.]$//' -e "s|$rtl/||g"
}

case $mode in
prove)
	method="k-induction"
	k=${depth%/*}
	b=${depth#*/}
	smt base -t "$b" --dump-vcd "$dir/base.vcd"
	if [ "$status" != PASSED ]; then
		step=$(grep -m1 'Checking assertions in step' "$dir/base.log" >/dev/null && grep 'Checking assertions in step' "$dir/base.log" | tail -1 | sed 's/.* step \([0-9]*\).*/\1/')
		detail="base case $status at step $step: $(why "$dir/base.log")"
		finish
		exit 0
	fi
	smt induct -i -t "$k" --dump-vcd "$dir/induct.vcd"
	if [ "$status" != PASSED ]; then
		detail="induction $status: $(why "$dir/induct.log")"
		finish
		exit 0
	fi
	detail="base case $b steps, induction $k"
	result=PASS
	;;
bmc)
	method="BMC"
	smt bmc -t "$depth" --dump-vcd "$dir/bmc.vcd"
	if [ "$status" != PASSED ]; then
		detail="BMC $status: $(why "$dir/bmc.log")"
		finish
		exit 0
	fi
	result=PASS
	;;
cover)
	method="cover"
	smt cover -c -t "$depth" --dump-vcd "$dir/cover%.vcd"
	n=$(grep -c 'Reached cover statement' "$dir/cover.log")
	if [ "$status" != PASSED ]; then
		detail="$n reached, $status: $(why "$dir/cover.log")"
		finish
		exit 0
	fi
	last=$(grep 'Reached cover statement' "$dir/cover.log" | tail -1 | sed 's/.* in step \([0-9]*\)\./\1/')
	detail="$n covers reached, the last in step $last"
	result=PASS
	;;
*)
	detail="unknown mode $mode"
	;;
esac
finish
