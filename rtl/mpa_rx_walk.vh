// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
//
// mpa_rx_walk.vh: the FPDU walker's geometry, derived from DATA_WIDTH, the
// guard on DATA_WIDTH and the slot arithmetic its modules share. Included
// in the body of every mpa_rx_walk* module, after its parameters:
//
//     `include "mpa_rx_walk.vh"

/* verilator lint_off UNUSEDPARAM */
localparam WPB = DATA_WIDTH / 32;           // words per beat
localparam LW = $clog2(WPB);                // bits of a word offset in a beat
localparam KEEP = DATA_WIDTH / 8;           // octets per beat
localparam PW = 16;                         // bits of a word position in a frame
// Most ULPDU_Length words walked in one beat: an FPDU that does not stop
// the walk (ULPDU_Length >= 14) is at least 5 words long.
localparam KMAX = (WPB + 4) / 5;
localparam NCRC = 1 + (WPB + 3) / 5;        // FPDU slots = crc32c engines
localparam SW = NCRC > 2 ? 2 : 1;           // bits of an FPDU slot index
// Record slots = record FIFO banks: a beat's KMAX new records and the
// newest one before them (at least NCRC, as ceil(WPB/5) >= ceil((WPB-1)/5)).
localparam NREC = KMAX + 1;
localparam RW = NREC > 4 ? 3 : (NREC > 2 ? 2 : 1);   // bits of a record slot index
localparam LCRC = 5 + $clog2(KEEP);         // crc32c latency (its header)
localparam DSPLIT = KMAX > 2 ? 1 : 0;       // the chains take two stages (512 bits)
localparam KH = KMAX > 2 ? 2 : KMAX;        // visits per half chain
// How a beat's chain of ULPDU_Length words ends.
localparam [1:0] END_CONT = 2'd0;           // the chain leaves the beat, the walk goes on
localparam [1:0] END_NONPAY = 2'd1;         // a ULPDU_Length word is not payload: walk over
localparam [1:0] END_SMALL = 2'd2;          // a ULPDU_Length < 14 was recorded: walk over
/* verilator lint_on UNUSEDPARAM */

generate
if (!(DATA_WIDTH == 64 || DATA_WIDTH == 128 || DATA_WIDTH == 256 || DATA_WIDTH == 512)) begin : g_bad_data_width
`ifndef SYNTHESIS
    initial begin
        $error("%m: DATA_WIDTH %0d is not supported (64, 128, 256 or 512)", DATA_WIDTH);
        $finish;
    end
`endif
    // elaboration stops here in every tool: this module does not exist
    mpa_rx_walk_DATA_WIDTH_must_be_64_128_256_or_512 param_error ();
end
endgenerate

// Slot arithmetic modulo NREC (2 to 5) of sums below twice the modulus:
// one compare and subtract.
localparam [4:0] NREC5 = NREC[4:0];

// (base + add) mod NREC, base < NREC, add <= NREC.
function [RW-1:0] rec_add(input [RW-1:0] base, input [3:0] add);
    /* verilator lint_off UNUSEDSIGNAL */
    reg [4:0] t;
    /* verilator lint_on UNUSEDSIGNAL */
    begin
        t = {{(5-RW){1'b0}}, base} + {1'b0, add};
        if (t >= NREC5)
            t = t - NREC5;
        rec_add = t[RW-1:0];
    end
endfunction

// (base - sub) mod NREC, base < NREC, sub <= NREC.
function [RW-1:0] rec_sub(input [RW-1:0] base, input [3:0] sub);
    /* verilator lint_off UNUSEDSIGNAL */
    reg [4:0] t;
    /* verilator lint_on UNUSEDSIGNAL */
    begin
        t = {{(5-RW){1'b0}}, base} + NREC5 - {1'b0, sub};
        if (t >= NREC5)
            t = t - NREC5;
        rec_sub = t[RW-1:0];
    end
endfunction

// (r - 0) mod NREC for every slot r: a slot order after reset.
/* verilator lint_off UNUSEDSIGNAL */
function [NREC*RW-1:0] rk_init(input dummy);
/* verilator lint_on UNUSEDSIGNAL */
    integer i;
    begin
        rk_init = 0;
        for (i = 0; i < NREC; i = i + 1)
            rk_init[i*RW +: RW] = i[RW-1:0];
    end
endfunction
