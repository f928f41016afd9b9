#!/bin/sh
# Prints the synthesis table of the whole receiver from the results
# `make synth` leaves in DIR (sim/build/synth/mpa_rx):
#   ice40.txt  synth_ice40 stat of mpa_rx alone and the Yosys wall time
#   shell.txt  synth_ice40 stat of mpa_rx_shell (mpa_rx inside its shell)
#   pnr.txt    nextpnr-ice40 log of the shell (device utilisation, the last
#              "Max frequency" line is the post-route one), "nextpnr_failed"
#              when it did not place or route, "bitstream" from icepack
#   xc7.txt    synth_xilinx stat (hierarchy totals), ltp lines, wall time
#   mem.txt    memories: set, CONN_COUNT, all|live, name, width, depth
# usage: mpa_rx_report.sh DIR "ICE40 PARAMS" "XC7 PARAMS"
set -eu
dir=$1
p_ice40=$2
p_xc7=$3

# Counts from a Yosys stat: the totals of the design hierarchy when there is
# one (the last "===" block), else of the one module.
count() { # file awk-regex-of-cell-types
	awk -v re="$2" '/^=== / { n = 0 } $1 ~ re && NF == 2 { n += $2 } END { print n + 0 }' "$1"
}
# wall and CPU (user) seconds: "wall/cpu"
secs() { awk -v k="$2" '$1 == k { printf "%.0f/%.0f", $2, $3 }' "$1"; }
util() { # file resource -> used/total
	awk -v r="$2:" '$2 == r { u = $3 $4 } END { print (u == "" ? "-" : u) }' "$1"
}
fmax() { grep "Max frequency for clock" "$1" | tail -1 | sed 's/.*: *\([0-9.]*\) MHz.*/\1/'; }
ltp() { awk -v i="$2" '/Longest topological path/ { n++; if (n == i) { sub(/.*length=/, ""); sub(/\).*/, ""); print } }' "$1"; }

echo "mpa_rx synthesis (make synth): Yosys $(yosys -V | awk '{print $2}'), nextpnr-ice40 HX8K ct256 seed 1"
echo
printf '%-34s %7s %7s %6s  %-28s %8s\n' build LUT FF carry "block RAM" "Yosys s wall/cpu"
f=$dir/ice40.txt
il=$(count "$f" '^SB_LUT4$'); iff=$(count "$f" '^SB_DFF'); ic=$(count "$f" '^SB_CARRY$'); ir=$(count "$f" '^SB_RAM40_4K$')
printf '%-34s %7s %7s %6s  %-28s %8s\n' "synth_ice40 mpa_rx" "$il" "$iff" "$ic" "$ir SB_RAM40_4K" "$(secs "$f" yosys_seconds)"
f=$dir/shell.txt
sl=$(count "$f" '^SB_LUT4$'); sf=$(count "$f" '^SB_DFF'); sc=$(count "$f" '^SB_CARRY$'); sr=$(count "$f" '^SB_RAM40_4K$')
printf '%-34s %7s %7s %6s  %-28s %8s\n' "synth_ice40 mpa_rx_shell" "$sl" "$sf" "$sc" "$sr SB_RAM40_4K" ""
printf '%-34s %+7d %+7d %+6d  %-28s %8s\n' "  shell cost (shell - mpa_rx)" $((sl - il)) $((sf - iff)) $((sc - ic)) "$((sr - ir))" ""
f=$dir/xc7.txt
xl=$(count "$f" '^LUT[1-6]$'); xf=$(count "$f" '^FD[A-Z]*$'); xc=$(count "$f" '^CARRY4$')
xr18=$(count "$f" '^RAMB18E1$'); xr36=$(count "$f" '^RAMB36E1$')
xlr=$(count "$f" '^RAM(32|64|128|256)[MX]'); xsrl=$(count "$f" '^SRL')
xmux=$(count "$f" '^MUXF[78]$')
printf '%-34s %7s %7s %6s  %-28s %8s\n' "synth_xilinx mpa_rx" "$xl" "$xf" "$xc" "$xr18 RAMB18E1 $xr36 RAMB36E1" "$(secs "$f" yosys_seconds)"
echo
echo "ice40: $p_ice40"
f=$dir/pnr.txt
lc=$(util "$f" ICESTORM_LC); ram=$(util "$f" ICESTORM_RAM)
if grep -q nextpnr_failed "$f"; then
	why=$(grep -m1 -E '^ERROR' "$f" || true)
	echo "  nextpnr-ice40 HX8K: DOES NOT FIT: logic cells $lc, RAM $ram; $why"
else
	echo "  nextpnr-ice40 HX8K: fits: logic cells $lc, RAM $ram, post-route fmax $(fmax "$f") MHz," \
		"$(secs "$f" nextpnr_seconds) s"
	grep '^bitstream' "$f" | awk '{ printf "  icepack: %s (%d bytes)\n", $2, $3 }'
fi
echo "xc7: $p_xc7"
echo "  also $xlr LUTRAM cells (RAM32M/RAM64M...), $xsrl SRL, $xmux MUXF7/MUXF8"
f=$dir/xc7.txt
echo "  longest path after synth_xilinx (ltp): $(ltp "$f" 1) LUTs; $(ltp "$f" 2) cells counting MUXF7/MUXF8 and CARRY4"
echo
echo "memories as depth x width (* = removed by opt_clean now: its outputs are unused);"
echo "per connection: the memories whose depth grows with CONN_COUNT; buffers: FIFOs"
awk '
$3 == "params" { next }
{
	col = $1 " " $2
	if (!(col in seen)) { seen[col] = 1; cols[++nc] = col }
	name = $4; sub(/^\\/, "", name)
	if ($3 == "all") {
		if (!(name in rseen)) { rseen[name] = 1; rows[++nr] = name }
		all[name, col] = $6 "x" $5
		width[name, col] = $5; depth[name, col] = $6
	} else {
		live[name, col] = 1
	}
}
END {
	printf "%-26s", "memory"
	for (c = 1; c <= nc; c++) printf " %12s", cols[c]
	printf "\n"
	for (r = 1; r <= nr; r++) {
		printf "%-26s", rows[r]
		for (c = 1; c <= nc; c++) {
			k = rows[r] SUBSEP cols[c]
			if (k in all) printf " %12s", all[k] (k in live ? " " : "*")
			else printf " %12s", "-"
		}
		printf "\n"
	}
	# a memory is per connection when, between two columns of one parameter
	# set with different CONN_COUNT, its depth changes in proportion
	for (c = 1; c <= nc; c++) {
		split(cols[c], a, " ")
		for (d = 1; d <= nc; d++) {
			split(cols[d], b, " ")
			if (d == c || a[1] != b[1] || a[2] == b[2]) continue
			for (r = 1; r <= nr; r++) {
				k1 = rows[r] SUBSEP cols[c]; k2 = rows[r] SUBSEP cols[d]
				if ((k1 in all) && (k2 in all) && depth[k1] * b[2] == depth[k2] * a[2]) perconn[rows[r]] = 1
			}
		}
	}
	for (c = 1; c <= nc; c++) {
		split(cols[c], a, " ")
		for (r = 1; r <= nr; r++) {
			k = rows[r] SUBSEP cols[c]
			if (!(k in all)) continue
			bits = width[k] * depth[k]
			if (rows[r] in perconn) pc[cols[c]] += bits
			else if (rows[r] ~ /fifo|bank/) buf[cols[c]] += bits
			else oth[cols[c]] += bits
		}
	}
	printf "%-26s", "buffers (bits)"
	for (c = 1; c <= nc; c++) printf " %12d", buf[cols[c]]
	printf "\n%-26s", "other tables (bits)"
	for (c = 1; c <= nc; c++) printf " %12d", oth[cols[c]]
	printf "\n%-26s", "per-connection (bits)"
	for (c = 1; c <= nc; c++) printf " %12d", pc[cols[c]]
	printf "\n%-26s", "  per connection"
	for (c = 1; c <= nc; c++) { split(cols[c], a, " "); printf " %12d", pc[cols[c]] / a[2] }
	printf "\n%-26s", "  per connection, ctx_*"
	for (c = 1; c <= nc; c++) {
		split(cols[c], a, " "); t = 0
		for (r = 1; r <= nr; r++) { k = rows[r] SUBSEP cols[c]; if ((k in all) && rows[r] ~ /(^|\.)ctx_/) t += width[k] * depth[k] }
		printf " %12d", t / a[2]
	}
	printf "\n"
}' "$dir/mem.txt"
echo
echo "xc7 LUT and FF by module (own cells times instances; mpa_rx_fifo: all its instances)"
awk '
/^=== design hierarchy ===/ { inh = 1; next }
/^=== / { name = $2; next }
inh && NF == 2 && $2 ~ /^[0-9]+$/ && $1 !~ /^[A-Z]/ { inst[$1] = $2; next }
!inh && NF == 2 && $1 ~ /^LUT[1-6]$/ { lut[name] += $2 }
!inh && NF == 2 && $1 ~ /^FD[A-Z]*$/ { ff[name] += $2 }
END {
	for (m in lut) {
		b = m; sub(/^.*\\/, "", b); if (m ~ /\\[a-z0-9_]+\\DATA_WIDTH=/) { b = m; sub(/\\DATA_WIDTH=.*/, "", b); sub(/^.*\\/, "", b) }
		k = (m in inst) ? inst[m] : 1
		L[b] += lut[m] * k; F[b] += ff[m] * k; N[b] += k
	}
	for (b in L) printf "  %-20s %3d x %8d LUT %8d FF\n", b, N[b], L[b], F[b]
}' "$dir/xc7.txt" | sort -k4 -n -r
