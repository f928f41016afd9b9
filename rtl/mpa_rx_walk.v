// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_walk: the FPDU walker of the mpa_rx ingress. It walks the TCP
 * payload of every frame as a chain of MPA FPDUs (RFC 5044: ULPDU_Length,
 * markers every 512 octets of sequence space, CRC32C), checks each FPDU's
 * CRC and markers, and emits one record per FPDU and one summary per frame.
 * Functional reference: golden/fastpath `walk` with mpa.Half.Deframe;
 * docs/design.md section 2. Never stalls: one beat per cycle. This module
 * only wires its parts (below) and the crc32c engines.
 *
 * Input (the word view; docs in the port list): word k of a frame holds
 * frame octets 4k-2 .. 4k+1, word j of a beat is w_data[32j+31:32j], its
 * first wire octet in bits [7:0]. w_pmask marks the TCP payload words (one
 * contiguous run per frame, possibly empty). seg_seq, seq_start,
 * markers_on and crc_on are used from the frame's first payload beat to
 * its last beat (sum_grid from the last beat).
 *
 * The walk. An FPDU starts at payload word 0; if a marker is there, its
 * ULPDU_Length word follows the marker. An FPDU whose ULPDU_Length word L
 * holds n occupies C = ceil((n+2)/4) + 1 words of content (length, ULPDU,
 * pad, CRC) plus the markers that fall inside it; a marker just after its
 * CRC word belongs to the next FPDU. The next FPDU starts right after it.
 * The walk records every FPDU whose ULPDU_Length word is payload, and ends
 * at the first FPDU whose ULPDU_Length word is not payload, or after
 * recording the first FPDU with ULPDU_Length < 14 (sum_small: the frame is
 * not placed, and the walk keeps a 5-word minimum FPDU step that way).
 * Markers: sequence number s has a marker when (s - seq_start) mod 512 == 0.
 * When seg_seq - seq_start is not a multiple of 4 (sum_grid = 0) markers
 * are taken at the word that holds such an s (as if seq_start were moved
 * onto seg_seq's word grid); the frame goes to software then anyway.
 * A checked FPDU is a recorded FPDU with ULPDU_Length >= 14 whose last word
 * (the CRC) is payload: its CRC (when crc_on) and its markers' FPDUPTR are
 * checked (mpa_rx_walk_fpdu, mpa_rx_walk_sum).
 *
 * Records (rec_valid / rec_ready, first word fall through; the fields in
 * mpa_rx_walk_rec and mpa_rx_walk_store): one per recorded FPDU, in order.
 * Every record of a frame is written into the record store at the latest
 * 8 + DSPLIT cycles after the cycle of the frame's w_last beat and reaches
 * rec_* 2 cycles after its write (when nothing is ahead of it), so it is
 * in the store by the time sum_valid pulses for the frame. The store holds
 * NREC * (BANK_DEPTH + 1) >= MAX_FPDUS records (mpa_rx_walk_store); once a
 * record of a frame is dropped, the rest of that frame's records are
 * dropped too: the frame's summary then has sum_ok = 0 and sum_nrec tells
 * how many of its records (the first ones) are stored. Nothing ever
 * stalls or hangs.
 *
 * Summary (sum_valid: a one-cycle pulse exactly L_WALK cycles after the
 * cycle of the frame's w_last beat; the fields in mpa_rx_walk_sum).
 *
 * Latency: L_WALK = 9 + DSPLIT + LCRC cycles (LCRC = 5 + log2(DATA_WIDTH/8),
 * the crc32c latency; DSPLIT = 1 at 512 bits, where the chains take two
 * stages): 17 at 64 bit, 18 at 128, 19 at 256, 21 at 512. Pipeline, one
 * beat per stage; each stage's registers are named after it (<stage>_*):
 *   in   mpa_rx_walk_word   input register; payload start; marker grid phase
 *   cl   mpa_rx_walk_word   per word: FPDU content length from a would-be
 *                           ULPDU_Length there
 *   wl   mpa_rx_walk_word   per word: the markers inside it
 *   fe   mpa_rx_walk_word   per word: FPDU end and next ULPDU_Length
 *                           position, markers included
 *   hc   mpa_rx_walk_chain  (512 bits) per word: half chains of 2 FPDUs
 *   ch   mpa_rx_walk_chain  per entry word: the chain of FPDUs the beat
 *                           holds (up to KMAX)
 *   wk   mpa_rx_walk_step   the walk (the loop over beats): the entry's
 *                           chain, the beat's ULPDU_Length words in order
 *   sa   mpa_rx_walk_fpdu,  per FPDU and record of the beat, in parallel:
 *        mpa_rx_walk_rec    what its slot needs; slot assignment
 *   sl   mpa_rx_walk_fpdu   FPDU slots (one per engine): engine inputs,
 *                           marker checks
 *        mpa_rx_walk_rec    record slots (KMAX + 1): header capture, which
 *                           records leave
 *   st   mpa_rx_walk_store  the leaving records to the store's banks
 *   tot  mpa_rx_walk_sum    frame totals
 *   then the crc32c engines (fed from stage sl) and the summary register;
 *   the totals wait beside the engines.
 * The fields a stage only passes on ride on mpa_rx_delay lines.
 */
module mpa_rx_walk #(
    // Width of the word view (64, 128, 256 or 512).
    parameter DATA_WIDTH = 64,
    // Minimum number of records the record store holds.
    parameter MAX_FPDUS = 512
) (
    input  wire                     clk,
    input  wire                     rst,

    // Per frame, from its first payload beat to its last beat.
    input  wire [31:0]              seg_seq,
    input  wire [31:0]              seq_start,
    input  wire                     markers_on,
    input  wire                     crc_on,

    // Word view, one beat per cycle when w_valid.
    input  wire                     w_valid,
    input  wire [DATA_WIDTH-1:0]    w_data,
    input  wire [DATA_WIDTH/32-1:0] w_pmask,
    input  wire                     w_last,

    // FPDU records.
    output wire                     rec_valid,
    input  wire                     rec_ready,
    output wire [15:0]              rec_lseq_w,
    output wire [15:0]              rec_ulen,
    output wire [7:0]               rec_ctrl,
    output wire [7:0]               rec_ulp,
    output wire [127:0]             rec_hdr,
    output wire                     rec_first,
    output wire                     rec_last,

    // Frame summary.
    output wire                     sum_valid,
    output wire                     sum_whole,
    output wire                     sum_small,
    output wire                     sum_grid,
    output wire                     sum_crc_ok,
    output wire                     sum_marker_ok,
    output wire                     sum_first_marker,
    output wire                     sum_any_l,
    output wire [15:0]              sum_nfpdu,
    output wire [7:0]               sum_nrfc,
    output wire [7:0]               sum_ndraft,
    output wire                     sum_ok,
    output wire [15:0]              sum_nrec
);

`include "mpa_rx_walk.vh"

/* verilator lint_off UNUSEDPARAM */
localparam L_WALK = 9 + DSPLIT + LCRC;      // w_last beat to sum_valid (documentation)
/* verilator lint_on UNUSEDPARAM */

// ================================================================ per-word decode
wire fe_valid, fe_first, fe_last, fe_pfirst, fe_con, fe_grid, fe_mkP0, fe_hit0, fe_nL0n;
wire [DATA_WIDTH-1:0] fe_data;
wire [WPB-1:0] fe_pmask, fe_small, fe_fm, fe_mk, fe_mkprev;
wire [PW-1:0] fe_B, fe_P0, fe_nL0, fe_Pendx;
wire [PW-LW-1:0] fe_Bn;
wire [PW*WPB-1:0] fe_E, fe_nL;
wire [3*WPB-1:0] fe_hs;

mpa_rx_walk_word #(
    .DATA_WIDTH(DATA_WIDTH)
) u_word (
    .clk(clk), .rst(rst),
    .seg_seq(seg_seq), .seq_start(seq_start), .markers_on(markers_on), .crc_on(crc_on),
    .w_valid(w_valid), .w_data(w_data), .w_pmask(w_pmask), .w_last(w_last),
    .fe_valid(fe_valid), .fe_first(fe_first), .fe_last(fe_last), .fe_pfirst(fe_pfirst),
    .fe_data(fe_data), .fe_pmask(fe_pmask), .fe_B(fe_B), .fe_Bn(fe_Bn), .fe_con(fe_con),
    .fe_grid(fe_grid), .fe_mkP0(fe_mkP0), .fe_P0(fe_P0), .fe_nL0(fe_nL0), .fe_hit0(fe_hit0),
    .fe_nL0n(fe_nL0n), .fe_Pendx(fe_Pendx), .fe_E(fe_E), .fe_nL(fe_nL), .fe_small(fe_small),
    .fe_fm(fe_fm), .fe_mk(fe_mk), .fe_mkprev(fe_mkprev), .fe_hs(fe_hs)
);

// ================================================================ chains
wire [3*WPB-1:0] ch_cnt;
wire [KMAX*LW*WPB-1:0] ch_pos;
wire [2*WPB-1:0] ch_end;
wire [PW*WPB-1:0] ch_exL, ch_exS;
wire [WPB-1:0] ch_pendx, ch_anyl, ch_exLn, ch_exSn;

mpa_rx_walk_chain #(
    .DATA_WIDTH(DATA_WIDTH)
) u_chain (
    .clk(clk), .rst(rst),
    .fe_B(fe_B), .fe_data(fe_data), .fe_Bn(fe_Bn), .fe_pmask(fe_pmask), .fe_nL(fe_nL),
    .fe_E(fe_E), .fe_small(fe_small),
    .ch_cnt(ch_cnt), .ch_pos(ch_pos), .ch_end(ch_end), .ch_exL(ch_exL), .ch_exS(ch_exS),
    .ch_pendx(ch_pendx), .ch_anyl(ch_anyl), .ch_exLn(ch_exLn), .ch_exSn(ch_exSn)
);

// The beat beside the chains. Reset, so that synthesis keeps the copies
// stage wk reads as flip-flops rather than the tail of a shift-register
// LUT (an SRL read is a LUT level before the walk's logic).
wire ch_valid, ch_first, ch_last, ch_pfirst, ch_con, ch_grid, ch_mkP0, ch_hit0, ch_nL0n;
wire [DATA_WIDTH-1:0] ch_data;
wire [WPB-1:0] ch_pmask, ch_small, ch_fm, ch_mk, ch_mkprev;
wire [PW-1:0] ch_B, ch_P0, ch_nL0, ch_Pendx;
wire [PW-LW-1:0] ch_Bn;
wire [PW*WPB-1:0] ch_E;
wire [3*WPB-1:0] ch_hs;

mpa_rx_delay #(
    .WIDTH(9 + DATA_WIDTH + 5*WPB + 4*PW + PW - LW + PW*WPB + 3*WPB),
    .DEPTH(1 + DSPLIT)
) u_fe_ch (
    .clk(clk), .rst(rst),
    .in_data({fe_valid, fe_first, fe_last, fe_pfirst, fe_con, fe_grid, fe_mkP0, fe_hit0, fe_nL0n,
        fe_data, fe_pmask, fe_small, fe_fm, fe_mk, fe_mkprev, fe_B, fe_P0, fe_nL0, fe_Pendx,
        fe_Bn, fe_E, fe_hs}),
    .out_data({ch_valid, ch_first, ch_last, ch_pfirst, ch_con, ch_grid, ch_mkP0, ch_hit0, ch_nL0n,
        ch_data, ch_pmask, ch_small, ch_fm, ch_mk, ch_mkprev, ch_B, ch_P0, ch_nL0, ch_Pendx,
        ch_Bn, ch_E, ch_hs})
);

// ================================================================ the walk
wire [2:0] wk_ndec;
wire [KMAX*LW-1:0] wk_rpos, wk_ros;
wire [KMAX*PW-1:0] wk_rE;
wire [KMAX*32-1:0] wk_rword;
wire [KMAX-1:0] wk_rsmall, wk_rfirst;
wire [KMAX*3-1:0] wk_rhs;
wire wk_carried, wk_pend, wk_mkany, wk_stop, wk_fm, wk_anyl;
wire [LW-1:0] wk_om;
wire [13:0] wk_ptr;
wire [PW-1:0] wk_P0, wk_nS, wk_Pend;
wire [15:0] wk_nrec;

mpa_rx_walk_step #(
    .DATA_WIDTH(DATA_WIDTH)
) u_step (
    .clk(clk), .rst(rst),
    .ch_valid(ch_valid), .ch_first(ch_first), .ch_pfirst(ch_pfirst), .ch_data(ch_data),
    .ch_pmask(ch_pmask), .ch_Bn(ch_Bn), .ch_mkP0(ch_mkP0), .ch_P0(ch_P0), .ch_nL0(ch_nL0),
    .ch_hit0(ch_hit0), .ch_nL0n(ch_nL0n), .ch_Pendx(ch_Pendx), .ch_E(ch_E), .ch_small(ch_small),
    .ch_fm(ch_fm), .ch_mk(ch_mk), .ch_mkprev(ch_mkprev), .ch_hs(ch_hs),
    .ch_cnt(ch_cnt), .ch_pos(ch_pos), .ch_end(ch_end), .ch_exL(ch_exL), .ch_exS(ch_exS),
    .ch_pendx(ch_pendx), .ch_anyl(ch_anyl), .ch_exLn(ch_exLn), .ch_exSn(ch_exSn),
    .wk_ndec(wk_ndec), .wk_rpos(wk_rpos), .wk_ros(wk_ros), .wk_rE(wk_rE), .wk_rword(wk_rword),
    .wk_rsmall(wk_rsmall), .wk_rfirst(wk_rfirst), .wk_rhs(wk_rhs), .wk_carried(wk_carried),
    .wk_pend(wk_pend), .wk_mkany(wk_mkany), .wk_om(wk_om), .wk_ptr(wk_ptr), .wk_P0(wk_P0),
    .wk_nS(wk_nS), .wk_Pend(wk_Pend), .wk_stop(wk_stop), .wk_fm(wk_fm), .wk_anyl(wk_anyl),
    .wk_nrec(wk_nrec)
);

// The beat beside the walk, and its first flag one stage on.
wire wk_valid, wk_first, wk_last, wk_con, wk_grid, sa_first;
wire [DATA_WIDTH-1:0] wk_data;
wire [WPB-1:0] wk_pmask;
wire [PW-1:0] wk_B;
wire [PW-LW-1:0] wk_Bn;

mpa_rx_delay #(
    .WIDTH(5 + DATA_WIDTH + WPB + PW + PW - LW),
    .DEPTH(1)
) u_ch_wk (
    .clk(clk), .rst(rst),
    .in_data({ch_valid, ch_first, ch_last, ch_con, ch_grid, ch_data, ch_pmask, ch_B, ch_Bn}),
    .out_data({wk_valid, wk_first, wk_last, wk_con, wk_grid, wk_data, wk_pmask, wk_B, wk_Bn})
);

mpa_rx_delay #(
    .WIDTH(1),
    .DEPTH(1)
) u_wk_sa (
    .clk(clk), .rst(rst),
    .in_data(wk_first),
    .out_data(sa_first)
);

// ================================================================ FPDU slots
wire [DATA_WIDTH-1:0] eng_tdata;
wire [NCRC*KEEP-1:0] eng_tkeep;
wire [NCRC-1:0] eng_tvalid, eng_tlast, sl_chk, sl_mkerr, sl_rfc, sl_draft;

mpa_rx_walk_fpdu #(
    .DATA_WIDTH(DATA_WIDTH)
) u_fpdu (
    .clk(clk), .rst(rst),
    .wk_valid(wk_valid), .wk_last(wk_last), .wk_data(wk_data), .wk_pmask(wk_pmask), .wk_B(wk_B),
    .wk_Bn(wk_Bn), .wk_con(wk_con), .wk_ndec(wk_ndec), .wk_ros(wk_ros), .wk_rE(wk_rE),
    .wk_rsmall(wk_rsmall), .wk_carried(wk_carried), .wk_pend(wk_pend), .wk_mkany(wk_mkany),
    .wk_om(wk_om), .wk_ptr(wk_ptr),
    .m_axis_tdata(eng_tdata), .m_axis_tkeep(eng_tkeep), .m_axis_tvalid(eng_tvalid),
    .m_axis_tlast(eng_tlast), .sl_chk(sl_chk), .sl_mkerr(sl_mkerr), .sl_rfc(sl_rfc),
    .sl_draft(sl_draft)
);

wire [NCRC*32-1:0] crc_out;
wire [NCRC-1:0] crc_out_valid;
/* verilator lint_off UNUSEDSIGNAL */
wire [NCRC-1:0] crc_in_ready; // always 1: the outputs are never stalled
/* verilator lint_on UNUSEDSIGNAL */

genvar gk;
generate
    for (gk = 0; gk < NCRC; gk = gk + 1) begin : g_crc
        crc32c #(
            .DATA_WIDTH(DATA_WIDTH)
        ) u_crc (
            .clk(clk),
            .rst(rst),
            .s_axis_tdata(eng_tdata),
            .s_axis_tkeep(eng_tkeep[gk*KEEP +: KEEP]),
            .s_axis_tvalid(eng_tvalid[gk]),
            .s_axis_tready(crc_in_ready[gk]),
            .s_axis_tlast(eng_tlast[gk]),
            .m_axis_tdata(crc_out[gk*32 +: 32]),
            .m_axis_tvalid(crc_out_valid[gk]),
            .m_axis_tready(1'b1)
        );
    end
endgenerate

// ================================================================ records
wire sl_valid;
wire [2:0] sl_npush;
wire [NREC-1:0] sl_lastf, rs_first;
wire [NREC*16-1:0] rs_lseq;
wire [NREC*32-1:0] rs_word;
wire [NREC*128-1:0] rs_hdr;

mpa_rx_walk_rec #(
    .DATA_WIDTH(DATA_WIDTH)
) u_rec (
    .clk(clk), .rst(rst),
    .wk_valid(wk_valid), .wk_last(wk_last), .wk_data(wk_data), .wk_pmask(wk_pmask), .wk_B(wk_B),
    .wk_Bn(wk_Bn), .wk_ndec(wk_ndec), .wk_rpos(wk_rpos), .wk_rword(wk_rword), .wk_rfirst(wk_rfirst),
    .wk_rhs(wk_rhs), .wk_P0(wk_P0), .wk_stop(wk_stop),
    .sl_valid(sl_valid), .sl_npush(sl_npush), .sl_lastf(sl_lastf), .rs_lseq(rs_lseq),
    .rs_word(rs_word), .rs_hdr(rs_hdr), .rs_first(rs_first)
);

wire [2:0] st_nok;
wire st_ovf;

mpa_rx_walk_store #(
    .DATA_WIDTH(DATA_WIDTH),
    .MAX_FPDUS(MAX_FPDUS)
) u_store (
    .clk(clk), .rst(rst),
    .sa_first(sa_first), .sl_valid(sl_valid), .sl_npush(sl_npush), .sl_lastf(sl_lastf),
    .rs_lseq(rs_lseq), .rs_word(rs_word), .rs_hdr(rs_hdr), .rs_first(rs_first),
    .st_nok(st_nok), .st_ovf(st_ovf),
    .rec_valid(rec_valid), .rec_ready(rec_ready), .rec_lseq_w(rec_lseq_w), .rec_ulen(rec_ulen),
    .rec_ctrl(rec_ctrl), .rec_ulp(rec_ulp), .rec_hdr(rec_hdr), .rec_first(rec_first),
    .rec_last(rec_last)
);

// ================================================================ summary
mpa_rx_walk_sum #(
    .DATA_WIDTH(DATA_WIDTH)
) u_sum (
    .clk(clk), .rst(rst),
    .wk_valid(wk_valid), .wk_first(wk_first), .wk_last(wk_last), .wk_grid(wk_grid),
    .wk_stop(wk_stop), .wk_fm(wk_fm), .wk_anyl(wk_anyl), .wk_nrec(wk_nrec), .wk_nS(wk_nS),
    .wk_Pend(wk_Pend),
    .sl_chk(sl_chk), .sl_mkerr(sl_mkerr), .sl_rfc(sl_rfc), .sl_draft(sl_draft),
    .st_nok(st_nok), .st_ovf(st_ovf),
    .crc_out(crc_out), .crc_out_valid(crc_out_valid),
    .sum_valid(sum_valid), .sum_whole(sum_whole), .sum_small(sum_small), .sum_grid(sum_grid),
    .sum_crc_ok(sum_crc_ok), .sum_marker_ok(sum_marker_ok), .sum_first_marker(sum_first_marker),
    .sum_any_l(sum_any_l), .sum_nfpdu(sum_nfpdu), .sum_nrfc(sum_nrfc), .sum_ndraft(sum_ndraft),
    .sum_ok(sum_ok), .sum_nrec(sum_nrec)
);

`ifdef FORMAL
// ------------------------------------------------------------------ formal
// Properties of the walk's positions (docs/robustness.md, "mpa_rx_walk:
// what is proven, part by part"), proven on this module with the FPDU
// slots, the crc32c engines, the record store and the summary cut away
// (their outputs free) and the per-word FPDU ends fe_E / fe_nL cut (free,
// but for what mpa_rx_walk_word guarantees of them, below): proofs
// walk_pos_*. Against a reference walk at stage fe, which goes from the
// frame's first payload word (after a marker word there) from each
// recorded ULPDU_Length word to its fe_nL, records every payload word it
// reaches and ends at a word that is not payload or after a record with
// fe_small:
//   - at stage wk a beat's records are the reference walk's: wk_ndec
//     ULPDU_Length words, at the word offsets wk_rpos in order, each
//     wk_rsmall as its fe_small; wk_nrec the frame's records so far,
//     wk_stop the reference's (it recorded a small FPDU);
//   - FPDUs per payload word: 5 * wk_nrec <= (payload words of the frame
//     up to this beat) + 4, so a frame makes at most ceil(P / 5) records,
//     P its payload words: a record per 20 octets of payload, rounded up
//     (what MAX_FPDUS of mpa_rx counts on);
//   - with F_WALK_POS, mpa_rx_walk_rec's assumptions of the step are
//     asserted there: wk_ndec <= KMAX, the record slots suffice (records
//     waiting plus a beat's new ones at most NREC), headers complete in
//     record order.
// Assumed: of fe_E / fe_nL, from the frame's first payload beat on, for
// every word j: fe_nL[j] - fe_E[j] is 0 or 1, and unless fe_small[j],
// fe_E[j] - fe_B - j is at least 5 and below 2^15 (asserted by
// mpa_rx_walk_word with F_WORD_POS, with their exact values against the
// RFC 5044 span model: walk_word_pos_*, by BMC); of the input, w_pmask one
// contiguous run per frame (mpa_rx_parse's payload mask: this module's
// input contract); mpa_rx_walk_step's assumptions (proven by
// mpa_rx_walk_word and mpa_rx_walk_chain for any inputs).
reg f_past_valid = 1'b0;
always @(posedge clk)
    f_past_valid <= 1'b1;
always @*
    if (!f_past_valid)
        assume (rst);

// w_pmask one contiguous run per frame
reg f_open = 1'b0, f_pay = 1'b0;
reg f_pend = 1'b0;          // the frame's payload words ended before this beat
reg f_pe, f_pp;
integer fj;
always @(posedge clk) begin
    if (w_valid) begin
        f_open <= !w_last;
        f_pay <= (f_open && f_pay) || (|w_pmask);
        f_pend <= !w_last && f_pe;
    end
    if (rst) begin
        f_open <= 1'b0;
        f_pay <= 1'b0;
        f_pend <= 1'b0;
    end
end
always @* begin
    f_pe = f_open && f_pend;
    f_pp = f_open && f_pay;
    for (fj = 0; fj < WPB; fj = fj + 1) begin
        if (w_valid && w_pmask[fj])
            assume (!f_pe);
        if (!w_pmask[fj] && f_pp)
            f_pe = 1'b1;
        if (w_pmask[fj])
            f_pp = 1'b1;
    end
end

// The reference walk at stage fe. Its state after the last beat: on, the
// next ULPDU_Length word, stopped by a small FPDU, records of the frame,
// the frame's payload started.
reg fr_act = 1'b0, fr_stop = 1'b0, fr_pay = 1'b0;
reg [PW-1:0] fr_nL = 0;
reg [15:0] fr_nrec = 16'd0;
reg frn_act, frn_stop, frn_pay, frn_seen;
reg [PW-1:0] frn_nL, frn_w;
reg [15:0] frn_nrec;
reg [2:0] frn_ndec;
reg [KMAX*LW-1:0] frn_pos;
reg [KMAX-1:0] frn_small;
integer fw, fq;
always @* begin
    frn_act = !fe_first && fr_act;
    frn_stop = !fe_first && fr_stop;
    frn_pay = !fe_first && fr_pay;
    frn_nL = fr_nL;
    frn_nrec = fe_first ? 16'd0 : fr_nrec;
    frn_ndec = 3'd0;
    frn_pos = 0;
    frn_small = 0;
    frn_seen = 1'b0;
    for (fw = 0; fw < WPB; fw = fw + 1) begin
        frn_w = fe_B + fw[PW-1:0];
        // the frame's first payload word: the walk begins there, or one
        // word on after a marker word
        if (fe_pmask[fw] && !frn_pay && !frn_seen) begin
            frn_seen = 1'b1;
            frn_pay = 1'b1;
            frn_act = 1'b1;
            frn_nL = frn_w + {{(PW-1){1'b0}}, fe_mk[fw]};
        end
        if (frn_act && frn_w == frn_nL) begin
            if (!fe_pmask[fw]) begin
                frn_act = 1'b0;
            end else begin
                for (fq = 0; fq < KMAX; fq = fq + 1)
                    if (frn_ndec == fq[2:0]) begin
                        frn_pos[fq*LW +: LW] = fw[LW-1:0];
                        frn_small[fq] = fe_small[fw];
                    end
                frn_ndec = frn_ndec + 3'd1;
                frn_nrec = frn_nrec + 16'd1;
                if (fe_small[fw]) begin
                    frn_act = 1'b0;
                    frn_stop = 1'b1;
                end else begin
                    frn_nL = fe_nL[PW*fw +: PW];
                end
            end
        end
    end
end
always @(posedge clk) begin
    if (fe_valid) begin
        fr_act <= frn_act;
        fr_stop <= frn_stop;
        fr_pay <= frn_pay;
        fr_nL <= frn_nL;
        fr_nrec <= frn_nrec;
    end
    if (rst) begin
        fr_act <= 1'b0;
        fr_stop <= 1'b0;
        fr_pay <= 1'b0;
    end
end

// what mpa_rx_walk_word guarantees of fe_E / fe_nL (F_WORD_POS)
integer fg;
reg [PW-1:0] f_d;
always @* begin
    for (fg = 0; fg < WPB; fg = fg + 1) begin
        f_d = fe_E[PW*fg +: PW] - fe_B - fg[PW-1:0];
        if (fe_valid && (frn_pay || (!fe_first && fr_pay))) begin
            assume (fe_nL[PW*fg +: PW] - fe_E[PW*fg +: PW] <= 16'd1);
            if (!fe_small[fg])
                assume (f_d >= 16'd5 && f_d < 16'h8000);
        end
    end
end

// the reference's beat, at stage wk (fe to wk: 2 + DSPLIT cycles), with
// the frame's payload words up to it
localparam F_D = 2 + DSPLIT;
localparam F_MW = 1 + 3 + KMAX*LW + KMAX + 16 + 1;
reg [F_D*F_MW-1:0] f_sh = 0;
always @(posedge clk) begin
    f_sh <= {f_sh[(F_D-1)*F_MW-1:0], fe_valid, frn_ndec, frn_pos, frn_small, frn_nrec, frn_stop};
    if (rst)
        f_sh <= 0;
end
wire f_qv, f_qstop;
wire [2:0] f_qndec;
wire [KMAX*LW-1:0] f_qpos;
wire [KMAX-1:0] f_qsmall;
wire [15:0] f_qnrec;
assign {f_qv, f_qndec, f_qpos, f_qsmall, f_qnrec, f_qstop} = f_sh[(F_D-1)*F_MW +: F_MW];

reg [15:0] f_npay = 16'd0;  // payload words of the frame before the beat at stage wk
reg [15:0] f_np;
integer fp;
always @* begin
    f_np = wk_first ? 16'd0 : f_npay;
    for (fp = 0; fp < WPB; fp = fp + 1)
        f_np = f_np + {15'd0, wk_pmask[fp]};
end
always @(posedge clk) begin
    if (wk_valid)
        f_npay <= f_np;
    if (rst)
        f_npay <= 16'd0;
end

reg [3:0] f_age = 4'd0;     // cycles since reset (saturating)
always @(posedge clk) begin
    if (f_age != 4'd15)
        f_age <= f_age + 4'd1;
    if (rst)
        f_age <= 4'd0;
end

integer fk;
always @* begin
    if (!rst && f_age > 4'd6) begin
        assert (wk_valid == f_qv);
        if (wk_valid) begin
            assert (wk_ndec == f_qndec);
            for (fk = 0; fk < KMAX; fk = fk + 1)
                if (fk < f_qndec) begin
                    assert (wk_rpos[fk*LW +: LW] == f_qpos[fk*LW +: LW]);
                    assert (wk_rsmall[fk] == f_qsmall[fk]);
                end
            assert (wk_nrec == f_qnrec);
            assert (wk_stop == f_qstop);
            // a record per 5 payload words, rounded up
            assert ({2'b00, wk_nrec, 2'b00} + {4'd0, wk_nrec} <= {4'd0, f_np} + 20'd4);
        end
    end
end

// covers: a frame of three records; a record after an FPDU spanning a
// marker word (fe_fm: proven with F_WORD_POS); a frame of two records as
// dense as the bound lets (5 * 2 == its payload words + 4)
reg [2:0] f_fmsh = 3'd0;    // fe_fm of the recorded word, fe to wk
wire f_rfm = f_fmsh[F_D-1];
reg frn_fm;
integer fm;
always @* begin
    frn_fm = 1'b0;
    for (fm = 0; fm < WPB; fm = fm + 1)
        if (frn_ndec != 3'd0 && frn_pos[LW-1:0] == fm[LW-1:0])
            frn_fm = fe_fm[fm];
end
always @(posedge clk)
    f_fmsh <= {f_fmsh[1:0], frn_fm};
reg f_span = 1'b0;          // a record of the frame so far spans a marker word
always @(posedge clk) begin
    if (wk_valid)
        f_span <= !wk_last && ((!wk_first && f_span) || (wk_ndec != 3'd0 && f_rfm));
    if (rst)
        f_span <= 1'b0;
end
always @* begin
    if (!rst && f_age > 4'd6) begin
        cover (wk_valid && wk_last && wk_nrec == 16'd3);
        cover (wk_valid && !wk_first && f_span && wk_ndec != 3'd0);
        cover (wk_valid && wk_last && wk_nrec == 16'd2 && f_np == 16'd6);
    end
end
`endif

endmodule

`resetall
