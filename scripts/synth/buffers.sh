#!/bin/sh
# Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
#
# On-chip memory of mpa_rx by DATA_WIDTH and MAX_FRAME (docs/design.md
# section 6, docs/synth.md): the memories Yosys infers after proc, flatten
# and opt_clean (as `make synth`'s mem rule), split into
#   buffers        memories whose size does not depend on CONN_COUNT (frame
#                  FIFO, walker records, queues between stages), except
#   STag table     ddp.stag_ram (STAG_COUNT entries)
#   per connection memories whose depth follows CONN_COUNT (found by
#                  comparing a run at CONN_COUNT 16 with one at 1024), in
#                  bits per connection
# with every other parameter at its rtl/mpa_rx.v default unless EXTRA sets
# it (NAME=VALUE words, e.g. EXTRA="RQ_DEPTH=32 STAG_COUNT=256").
#
# usage: buffers.sh "SRCS" "WIDTHS" "MAX_FRAMES" OUTDIR [EXTRA]
# About 3 s of Yosys CPU per width and frame size.
set -e
srcs=$1
widths=$2
frames=$3
out=$4
extra=$5
yosys=${YOSYS:-yosys}
mkdir -p "$out"
rm -f "$out"/mem_*.txt

set_args=
for w in $extra; do set_args="$set_args -set ${w%%=*} ${w#*=}"; done

# mems WIDTH MAX_FRAME CONN_COUNT FILE: "name width size" per memory
mems() {
	"$yosys" -q -p "read_verilog -Irtl $srcs; chparam -set DATA_WIDTH $1 -set MAX_FRAME $2 -set CONN_COUNT $3 $set_args mpa_rx; \
		hierarchy -top mpa_rx; proc; flatten; opt_clean; tee -q -o $4.dump dump m:*" >/dev/null
	awk '$1 == "memory" { w = 0; s = 0
		for (i = 2; i < NF; i += 2) { if ($i == "width") w = $(i+1); if ($i == "size") s = $(i+1) }
		n = $NF; sub(/^\\/, "", n); print n, w, s }' "$4.dump" | sort > "$4"
	rm -f "$4.dump"
}

# The memories that follow CONN_COUNT: those of the first width and frame
# size whose depth differs between CONN_COUNT 16 and 1024.
first_w=${widths%% *}
first_f=${frames%% *}
mems "$first_w" "$first_f" 16 "$out/mem_conn16.txt"
mems "$first_w" "$first_f" 1024 "$out/mem_w${first_w}_f${first_f}.txt"
awk 'NR == FNR { small[$1] = $3; next } ($1 in small) && small[$1] != $3' \
	"$out/mem_conn16.txt" "$out/mem_w${first_w}_f${first_f}.txt" > "$out/mem_perconn.txt"

printf '%s\n' "mpa_rx on-chip memory (bits), CONN_COUNT 1024, defaults but ${extra:-none}"
printf '%-6s %-9s %-10s %12s %12s %12s %12s %10s\n' width MAX_FRAME FIFO_DEPTH frame_fifo walker_recs other_bufs buffers stag_table
for w in $widths; do
	for f in $frames; do
		m=$out/mem_w${w}_f${f}.txt
		[ -f "$m" ] || mems "$w" "$f" 1024 "$m"
		awk -v w="$w" -v f="$f" 'NR == FNR { perconn[$1] = 1; next }
			{ bits = $2 * $3 }
			$1 == "ddp.stag_ram" { stag += bits; next }
			$1 in perconn { next }
			$1 == "frame_fifo.mem" { ff += bits; depth = $3; next }
			$1 ~ /^walk\./ { wr += bits; next }
			{ other += bits }
			END { printf "%-6s %-9s %-10s %12d %12d %12d %12d %10d\n", w, f, depth, ff, wr, other, ff + wr + other, stag }' \
			"$out/mem_perconn.txt" "$m"
	done
done

# Per connection (it does not depend on the width).
echo
echo "per connection (memories whose depth follows CONN_COUNT):"
awk '{ per = $2 * $3 / 1024; tot += per
		printf "  %-14s %3d x %3d bits = %6d bits per connection\n", $1, $3 / 1024, $2, per
		if ($1 ~ /(^|\.)ctx_/) ctx += per; else rq += per }
	END { printf "  context %d + receive queues %d = %d bits per connection\n", ctx, rq, tot
		printf "  1024 connections: %d bits (%.2f Mibit, %.1f KiB)\n", tot * 1024, tot * 1024 / 1048576, tot * 1024 / 8192 }' \
	"$out/mem_perconn.txt"
