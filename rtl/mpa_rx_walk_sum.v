// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_walk_sum: the frame summary of the FPDU walker (mpa_rx_walk): the
 * frame's totals over its beats, which then wait beside the crc32c engines
 * for the CRC results of the frame's FPDUs.
 *
 * Input, per beat, each at the stage that produces it:
 *   stage wk (mpa_rx_walk_step, and the beat delayed to it): wk_valid,
 *     wk_first, wk_last, wk_grid, and the frame flags up to the beat:
 *     wk_stop, wk_fm, wk_anyl, wk_nrec, wk_nS, wk_Pend
 *   stage sl, 2 cycles later (mpa_rx_walk_fpdu): per FPDU slot sl_chk
 *     (a checked FPDU ends, crc_on), sl_mkerr, sl_rfc, sl_draft
 *   stage st, 3 cycles after wk (mpa_rx_walk_store): st_nok (records
 *     stored), st_ovf (a record of the frame was dropped)
 *   per engine, every cycle: crc_out, crc_out_valid (crc32c's m_axis), the
 *     result of the message whose last beat the slot gave it LCRC cycles
 *     before
 * A checked FPDU's CRC is right when its engine's result is the CRC32C
 * residue 0x48674BC7: that holds exactly when the CRC field equals the
 * CRC32C of the octets before it (CRC(m || c) for the 4 CRC octets c is an
 * invertible function of c), and it needs no storage of CRC fields.
 *
 * Output: sum_valid, a one-cycle pulse LCRC + 1 cycles after the stage sl
 * of the frame's last beat (so L_WALK after its w_last beat, mpa_rx_walk),
 * with the summary (walker summary in mpa_rx_fields.vh), held until the
 * next:
 *   sum_whole        records were made, no ULPDU < 14, and the walk ended
 *                    exactly at the end of the payload (wk_nS == wk_Pend)
 *   sum_small        some recorded ULPDU_Length < 14 (the last record)
 *   sum_grid         !markers_on || (seg_seq - seq_start) mod 4 == 0
 *   sum_crc_ok       every checked FPDU's CRC matches (1 when crc_on = 0):
 *                    no bad result since the previous frame's summary
 *   sum_marker_ok    every checked FPDU's markers are right
 *   sum_nrfc,        checked FPDUs of the frame that begin with a marker,
 *   sum_ndraft       hold a later one, and whose markers are all right in
 *                    the RFC 5044 / draft-01 form (8 bits each: such an
 *                    FPDU spans more than 512 octets)
 *   sum_first_marker the first FPDU holds a marker before its CRC word
 *   sum_any_l        some record has the DDP L bit
 *   sum_nfpdu        number of records of the frame
 *   sum_ok, sum_nrec no record was dropped; records stored
 * (the flags and counts of the walk are those of the frame's last beat).
 * Latency: LCRC + 1 cycles from stage sl to sum_valid.
 */
module mpa_rx_walk_sum #(
    // Width of the word view (64, 128, 256 or 512).
    parameter DATA_WIDTH = 64
) (
    input  wire                      clk,
    input  wire                      rst,

    input  wire                      wk_valid,
    input  wire                      wk_first,
    input  wire                      wk_last,
    input  wire                      wk_grid,
    input  wire                      wk_stop,
    input  wire                      wk_fm,
    input  wire                      wk_anyl,
    input  wire [15:0]               wk_nrec,
    input  wire [15:0]               wk_nS,
    input  wire [15:0]               wk_Pend,

    input  wire [(1+(DATA_WIDTH/32+3)/5)-1:0] sl_chk,
    input  wire [(1+(DATA_WIDTH/32+3)/5)-1:0] sl_mkerr,
    input  wire [(1+(DATA_WIDTH/32+3)/5)-1:0] sl_rfc,
    input  wire [(1+(DATA_WIDTH/32+3)/5)-1:0] sl_draft,

    input  wire [2:0]                st_nok,
    input  wire                      st_ovf,

    input  wire [(1+(DATA_WIDTH/32+3)/5)*32-1:0] crc_out,
    input  wire [(1+(DATA_WIDTH/32+3)/5)-1:0] crc_out_valid,

    output wire                      sum_valid,
    output wire                      sum_whole,
    output wire                      sum_small,
    output wire                      sum_grid,
    output wire                      sum_crc_ok,
    output wire                      sum_marker_ok,
    output wire                      sum_first_marker,
    output wire                      sum_any_l,
    output wire [15:0]               sum_nfpdu,
    output wire [7:0]                sum_nrfc,
    output wire [7:0]                sum_ndraft,
    output wire                      sum_ok,
    output wire [15:0]               sum_nrec
);

`include "mpa_rx_walk.vh"
`include "mpa_rx_fields.vh"

localparam [31:0] RESIDUE = 32'h48674BC7;   // CRC32C of any message followed by its CRC

// ================================================================ stages sa, sl, st
// The frame flags travel with the beat; whole is worked out at stage sa.
wire sa_valid, sa_first, sa_last, sa_stop, sa_grid, sa_fm, sa_anyl;
wire [15:0] sa_nrec;
mpa_rx_delay #(
    .WIDTH(7 + 16),
    .DEPTH(1)
) u_wk_sa (
    .clk(clk),
    .rst(rst),
    .in_data({wk_valid, wk_first, wk_last, wk_stop, wk_grid, wk_fm, wk_anyl, wk_nrec}),
    .out_data({sa_valid, sa_first, sa_last, sa_stop, sa_grid, sa_fm, sa_anyl, sa_nrec})
);

reg sa_whole = 1'b0;
reg sl_end = 1'b0;          // the frame's last beat is in stage sl

always @(posedge clk) begin
    sa_whole <= wk_nrec != 16'd0 && !wk_stop && wk_nS == wk_Pend;
    sl_end <= sa_valid && sa_last;
    if (rst)
        sl_end <= 1'b0;
end

wire st_valid, st_first, st_whole, st_stop, st_grid, st_fm, st_anyl;
wire [15:0] st_nrec;
mpa_rx_delay #(
    .WIDTH(7 + 16),
    .DEPTH(2)
) u_sa_st (
    .clk(clk),
    .rst(rst),
    .in_data({sa_valid, sa_first, sa_whole, sa_stop, sa_grid, sa_fm, sa_anyl, sa_nrec}),
    .out_data({st_valid, st_first, st_whole, st_stop, st_grid, st_fm, st_anyl, st_nrec})
);

wire [NCRC-1:0] st_mkerr, st_rfc, st_draft;
mpa_rx_delay #(
    .WIDTH(3 * NCRC),
    .DEPTH(1)
) u_sl_st (
    .clk(clk),
    .rst(rst),
    .in_data({sl_mkerr, sl_rfc, sl_draft}),
    .out_data({st_mkerr, st_rfc, st_draft})
);

// ================================================================ stage tot
// Frame totals, a cycle after the store (the summary waits beside the
// engines anyway).
reg fr_mkerr = 1'b0;
reg [15:0] fr_nstored = 16'd0;
reg [7:0] fr_nrfc = 8'd0, fr_ndraft = 8'd0;
reg totn_mkerr;
reg [15:0] totn_nstored;
reg [7:0] totn_nrfc, totn_ndraft;
reg [WALK_SUM_W-1:0] totn_sum;
integer tk;

always @* begin
    totn_nstored = (st_first ? 16'd0 : fr_nstored) + {13'd0, st_nok};
    totn_mkerr = (!st_first && fr_mkerr) || (|st_mkerr);
    totn_nrfc = st_first ? 8'd0 : fr_nrfc;
    totn_ndraft = st_first ? 8'd0 : fr_ndraft;
    for (tk = 0; tk < NCRC; tk = tk + 1) begin
        totn_nrfc = totn_nrfc + {7'd0, st_rfc[tk]};
        totn_ndraft = totn_ndraft + {7'd0, st_draft[tk]};
    end
    totn_sum = {WALK_SUM_W{1'b0}};
    totn_sum[WALK_SUM_NRFC +: WALK_SUM_NRFC_W] = totn_nrfc;
    totn_sum[WALK_SUM_NDRAFT +: WALK_SUM_NDRAFT_W] = totn_ndraft;
    totn_sum[WALK_SUM_WHOLE] = st_whole;
    totn_sum[WALK_SUM_SMALL] = st_stop;
    totn_sum[WALK_SUM_GRID] = st_grid;
    totn_sum[WALK_SUM_FIRST_MARKER] = st_fm;
    totn_sum[WALK_SUM_ANY_L] = st_anyl;
    totn_sum[WALK_SUM_NFPDU +: WALK_SUM_NFPDU_W] = st_nrec;
    totn_sum[WALK_SUM_OK] = !st_ovf;
    totn_sum[WALK_SUM_NREC +: WALK_SUM_NREC_W] = totn_nstored;
    totn_sum[WALK_SUM_MARKER_OK] = !totn_mkerr;
end

reg [WALK_SUM_W-1:0] tot_sum = 0;

always @(posedge clk) begin
    if (st_valid) begin
        fr_mkerr <= totn_mkerr;
        fr_nstored <= totn_nstored;
        fr_nrfc <= totn_nrfc;
        fr_ndraft <= totn_ndraft;
    end
    tot_sum <= totn_sum;
    if (rst) begin
        fr_mkerr <= 1'b0;
        fr_nstored <= 16'd0;
        fr_nrfc <= 8'd0;
        fr_ndraft <= 8'd0;
    end
end

// ================================================================ beside the engines
// The check flags and the summary wait for the engines' results (the
// summary leaves stage tot two cycles after the engine inputs leave stage
// sl).
wire [NCRC-1:0] cw_chk;
wire cw_end;
wire [WALK_SUM_W-1:0] cw_sum;
mpa_rx_delay #(
    .WIDTH(NCRC + 1),
    .DEPTH(LCRC)
) u_sl_cw (
    .clk(clk),
    .rst(rst),
    .in_data({sl_chk, sl_end}),
    .out_data({cw_chk, cw_end})
);
mpa_rx_delay #(
    .WIDTH(WALK_SUM_W),
    .DEPTH(LCRC - 2)
) u_tot_cw (
    .clk(clk),
    .rst(rst),
    .in_data(tot_sum),
    .out_data(cw_sum)
);

reg crc_bad;
integer ck;
always @* begin
    crc_bad = 1'b0;
    for (ck = 0; ck < NCRC; ck = ck + 1)
        if (cw_chk[ck] && (!crc_out_valid[ck] || crc_out[ck*32 +: 32] != RESIDUE))
            crc_bad = 1'b1;
end

reg crc_err = 1'b0;         // a bad result since the last summary
reg out_valid = 1'b0, out_crc_ok = 1'b0;
reg [WALK_SUM_W-1:0] out_sum = 0;

always @(posedge clk) begin
    out_valid <= cw_end;
    if (cw_end) begin
        out_sum <= cw_sum;
        out_crc_ok <= !(crc_err || crc_bad);
        crc_err <= 1'b0;
    end else begin
        crc_err <= crc_err || crc_bad;
    end
    if (rst) begin
        out_valid <= 1'b0;
        crc_err <= 1'b0;
    end
end

assign sum_valid = out_valid;
assign sum_crc_ok = out_crc_ok;
assign sum_whole = out_sum[WALK_SUM_WHOLE];
assign sum_small = out_sum[WALK_SUM_SMALL];
assign sum_grid = out_sum[WALK_SUM_GRID];
assign sum_marker_ok = out_sum[WALK_SUM_MARKER_OK];
assign sum_first_marker = out_sum[WALK_SUM_FIRST_MARKER];
assign sum_any_l = out_sum[WALK_SUM_ANY_L];
assign sum_nfpdu = out_sum[WALK_SUM_NFPDU +: WALK_SUM_NFPDU_W];
assign sum_nrfc = out_sum[WALK_SUM_NRFC +: WALK_SUM_NRFC_W];
assign sum_ndraft = out_sum[WALK_SUM_NDRAFT +: WALK_SUM_NDRAFT_W];
assign sum_ok = out_sum[WALK_SUM_OK];
assign sum_nrec = out_sum[WALK_SUM_NREC +: WALK_SUM_NREC_W];

`ifdef FORMAL
// ------------------------------------------------------------------ formal
// Properties proven by `make formal` (docs/robustness.md, "Formal proofs"),
// against a model kept from the inputs alone:
//   - one summary per frame, at the stated latency: sum_valid is high in
//     cycle t exactly when a beat with wk_valid and wk_last was in stage wk
//     in cycle t - (LCRC + 3) (zero in the LCRC + 3 cycles after a reset);
//     so L_WALK = 6 + DSPLIT (w_last to stage wk) + LCRC + 3;
//   - its record count: sum_nrec is the sum of st_nok over the frame's
//     beats (each beat's st_nok three cycles after its stage wk, the count
//     restarting at the beat with wk_first); sum_ok is high exactly when no
//     beat of the frame had st_ovf; sum_nfpdu is wk_nrec of the frame's
//     last beat (the records the walk made, mpa_rx_walk_step).
// Assumed of mpa_rx_walk_store (proven there): st_ovf stays high for the
// rest of a frame once a beat of it had it.
localparam F_LS = LCRC + 3;                 // stage wk to sum_valid

reg f_past_valid = 1'b0;
always @(posedge clk)
    f_past_valid <= 1'b1;
always @*
    if (!f_past_valid)
        assume (rst);

// the beats at stage st: wk_valid, wk_first, wk_last three cycles on
reg [2:0] f_v = 3'd0, f_f = 3'd0, f_l = 3'd0;
reg [47:0] f_nr = 48'd0;    // wk_nrec of the last three cycles
// frame ends at stage wk over the last F_LS cycles
reg [F_LS-1:0] f_end = {F_LS{1'b0}};
// the frame's records stored so far and whether one was dropped (stage st)
reg [15:0] f_acc = 16'd0;
reg f_drop = 1'b0;
wire f_st_valid = f_v[2], f_st_first = f_f[2], f_st_last = f_l[2];
wire [15:0] f_acc_n = (f_st_first ? 16'd0 : f_acc) + {13'd0, st_nok};
wire f_drop_n = (!f_st_first && f_drop) || st_ovf;
// the summaries on their way: {frame end at stage st, nfpdu, nrec, ok}, LCRC cycles
reg [34*LCRC-1:0] f_sp = {34*LCRC{1'b0}};
always @(posedge clk) begin
    f_v <= {f_v[1:0], wk_valid};
    f_f <= {f_f[1:0], wk_first};
    f_l <= {f_l[1:0], wk_last};
    f_nr <= {f_nr[31:0], wk_nrec};
    f_end <= {f_end[F_LS-2:0], wk_valid && wk_last};
    if (f_st_valid) begin
        f_acc <= f_acc_n;
        f_drop <= f_drop_n;
    end
    f_sp <= {f_sp[34*(LCRC-1)-1:0], f_st_valid && f_st_last, f_nr[47:32], f_acc_n, !f_drop_n};
    if (rst) begin
        f_v <= 3'd0;
        f_end <= {F_LS{1'b0}};
        f_acc <= 16'd0;
        f_drop <= 1'b0;
        f_sp <= {34*LCRC{1'b0}};
    end
end
wire [33:0] f_out = f_sp[34*(LCRC-1) +: 34];

always @*
    if (f_st_valid && !f_st_first && f_drop)
        assume (st_ovf);

always @* begin
    if (!rst && f_past_valid) begin
        assert (sum_valid == f_end[F_LS-1]);
        assert (f_out[33] == sum_valid);
        assert (fr_nstored == f_acc);   // (an induction invariant)
        if (sum_valid) begin
            assert (sum_nrec == f_out[16:1]);
            assert (sum_nfpdu == f_out[32:17]);
            assert (sum_ok == f_out[0]);
        end
    end
end

// covers: a summary of records stored over two beats; two summaries back
// to back; a frame with no record; a frame that dropped records
reg f_prev_sum = 1'b0;
reg f_two = 1'b0;           // a beat of the frame so far stored records after an earlier beat did
always @(posedge clk) begin
    f_prev_sum <= sum_valid;
    if (f_st_valid)
        f_two <= !f_st_first && f_acc != 16'd0 && st_nok != 3'd0;
    if (rst)
        f_prev_sum <= 1'b0;
end
always @* begin
    if (!rst) begin
        cover (f_st_valid && f_st_last && (f_two || (!f_st_first && f_acc != 16'd0 && st_nok != 3'd0)));
        cover (sum_valid && f_prev_sum);
        cover (sum_valid && sum_nrec == 16'd0);
        cover (sum_valid && !sum_ok && sum_nrec != 16'd0);
    end
end
`endif

endmodule

`resetall
