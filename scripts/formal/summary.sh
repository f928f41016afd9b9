#!/bin/sh
# summary.sh KIND DIR START BUDGET JOBS NAME...: the table of the results
# DIR/NAME.result (written by prove.sh or mutant.sh), in the order given,
# with the wall time since START (seconds since the epoch). Exits 1 when a
# result is missing or failed, or when the proofs' CPU time divided by
# JOBS (their wall time on a machine with JOBS free cores) is over BUDGET
# seconds (0: no budget). The wall time is printed beside it: it also
# counts what other jobs on a shared machine took of its cores.
#   KIND proofs:  name|group|method|depth|seconds|PASS or FAIL|detail|cpu seconds
#   KIND mutants: name|proof|what|seconds|KILLED, PASSES (expected), or another word: failed|detail
set -u
kind=$1
dir=$2
start=$3
budget=$4
jobs=$5
shift 5
bad=0
n=0
if [ "$kind" = proofs ]; then
	printf '%-20s %-24s %-12s %5s %8s %8s  %-6s %s\n' proof "property group" method depth wall CPU result detail
else
	printf '%-26s %-20s %8s  %-8s %s\n' mutant "proof it must fail" time result "what / how it failed"
fi
for name in "$@"; do
	n=$((n + 1))
	f=$dir/$name.result
	if [ ! -f "$f" ]; then
		printf '%-20s (no result)\n' "$name"
		bad=$((bad + 1))
		continue
	fi
	if [ "$kind" = proofs ]; then
		awk -F'|' '{ printf "%-20s %-24s %-12s %5s %7ss %7ss  %-6s %s\n", $1, $2, $3, $4, $5, $8, $6, $7 }' "$f"
		grep -q '^[^|]*|[^|]*|[^|]*|[^|]*|[^|]*|PASS|' "$f" || bad=$((bad + 1))
	else
		awk -F'|' '{ printf "%-26s %-20s %7ss  %-8s %s: %s\n", $1, $2, $4, $5, $3, $6 }' "$f"
		grep -q -E '^[^|]*\|[^|]*\|[^|]*\|[^|]*\|(KILLED|PASSES)\|' "$f" || bad=$((bad + 1))
	fi
done
now=$(date +%s)
wall=$((now - start))
if [ "$kind" = proofs ]; then
	cpu=$(for name in "$@"; do cat "$dir/$name.result" 2>/dev/null; done | awk -F'|' '{ s += $8 } END { printf "%.0f", s }')
	per=$((cpu / jobs))
	echo "formal: $n proofs, $bad failed; ${wall}s wall; ${cpu}s CPU, ${per}s on $jobs cores (budget ${budget}s)"
else
	echo "formal-mutants: $n mutants, $bad not as expected (survived, broken or unexpected); ${wall}s wall"
fi
status=0
[ "$bad" -eq 0 ] || status=1
if [ "$kind" = proofs ] && [ "$budget" -gt 0 ] && [ "$per" -gt "$budget" ]; then
	echo "formal: ${per}s of CPU per core is over the budget of ${budget}s"
	status=1
fi
exit $status
