// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_walk_step: the walk across beats of the FPDU walker
 * (mpa_rx_walk), its only loop. Per beat it takes the chain of the word
 * where the walk's next ULPDU_Length field is (mpa_rx_walk_chain), and
 * hands on the beat's ULPDU_Length words in order (ranks), with what each
 * one's FPDU and record need from this beat, and the frame's running
 * flags.
 *
 * The walk of a frame starts at its first payload word (fe_P0), whose FPDU
 * has its ULPDU_Length word there or, when that word is a marker position,
 * in the next word (ch_nL0). It records every FPDU whose ULPDU_Length word
 * is payload and goes on at that FPDU's next ULPDU_Length word (its end,
 * plus 1 when a marker is there); it ends at the first ULPDU_Length word
 * that is not payload, or after recording an FPDU with ULPDU_Length < 14.
 *
 * Input: one beat per cycle with ch_valid (no stall), as stage ch holds it:
 * from mpa_rx_walk_chain its ch_* chain fields, and mpa_rx_walk_word's
 * stage fe fields of the same beat, delayed to stage ch (ch_first,
 * ch_pfirst, ch_pmask, ch_data, ch_Bn, ch_mkP0, ch_P0, ch_nL0, ch_hit0,
 * ch_nL0n, ch_Pendx, and per word ch_E, ch_small, ch_fm, ch_mk, ch_mkprev,
 * ch_hs). Positions and their "in this / the next beat" flags are those
 * of mpa_rx_walk_word; beats of a frame come in order, and a beat's next
 * beat is the frame's following one.
 *
 * Output, the beat in the wk_* registers one cycle later (don't care for
 * a cycle without a beat; the frame flags are the frame's up to this
 * beat):
 *   wk_ndec     ULPDU_Length words (records) in this beat, 0 to KMAX
 *   wk_rpos     their word offsets, rank 0 first (LW bits each)
 *   wk_ros      word offset of each rank's FPDU's first word (its leading
 *               marker, if any); rank 0's may be in the previous beat
 *               (offset WPB - 1: wk_carried)
 *   wk_rE       each rank's FPDU end (fe_E of its ULPDU_Length word)
 *   wk_rword    each rank's ULPDU_Length word, wk_rsmall its fe_small,
 *               wk_rhs its fe_hs, wk_rfirst: the frame's first record
 *   wk_carried  rank 0's FPDU began with a marker in the previous beat's
 *               last word
 *   wk_pend     an FPDU begins with a marker in this beat's last word (a
 *               payload word) and its ULPDU_Length word is in the next beat
 *   wk_mkany, wk_om, wk_ptr  the beat's marker (at most one: markers are
 *               128 words apart) among its payload words: its word offset
 *               and FPDUPTR / 4 (14 bits)
 *   wk_P0       the frame's first payload word
 *   wk_nS       where the next FPDU starts (after this beat's walk)
 *   wk_Pend     1 + the frame's last payload word so far
 *   wk_stop     the walk recorded an FPDU with ULPDU_Length < 14
 *   wk_fm       the frame's first recorded FPDU holds a marker before its
 *               CRC word (a leading marker counts)
 *   wk_anyl     a record of the frame has the DDP L bit
 *   wk_nrec     records of the frame (16 bits)
 * Latency: 1 cycle.
 */
module mpa_rx_walk_step #(
    // Width of the word view (64, 128, 256 or 512).
    parameter DATA_WIDTH = 64
) (
    input  wire                      clk,
    input  wire                      rst,

    input  wire                      ch_valid,
    input  wire                      ch_first,
    input  wire                      ch_pfirst,
    input  wire [DATA_WIDTH-1:0]     ch_data,
    input  wire [DATA_WIDTH/32-1:0]  ch_pmask,
    input  wire [15-$clog2(DATA_WIDTH/32):0] ch_Bn,
    input  wire                      ch_mkP0,
    input  wire [15:0]               ch_P0,
    input  wire [15:0]               ch_nL0,
    input  wire                      ch_hit0,
    input  wire                      ch_nL0n,
    input  wire [15:0]               ch_Pendx,
    input  wire [16*DATA_WIDTH/32-1:0] ch_E,
    input  wire [DATA_WIDTH/32-1:0]  ch_small,
    input  wire [DATA_WIDTH/32-1:0]  ch_fm,
    input  wire [DATA_WIDTH/32-1:0]  ch_mk,
    input  wire [DATA_WIDTH/32-1:0]  ch_mkprev,
    input  wire [3*DATA_WIDTH/32-1:0] ch_hs,
    input  wire [3*DATA_WIDTH/32-1:0] ch_cnt,
    input  wire [((DATA_WIDTH/32+4)/5)*$clog2(DATA_WIDTH/32)*DATA_WIDTH/32-1:0] ch_pos,
    input  wire [2*DATA_WIDTH/32-1:0] ch_end,
    input  wire [16*DATA_WIDTH/32-1:0] ch_exL,
    input  wire [16*DATA_WIDTH/32-1:0] ch_exS,
    input  wire [DATA_WIDTH/32-1:0]  ch_pendx,
    input  wire [DATA_WIDTH/32-1:0]  ch_anyl,
    input  wire [DATA_WIDTH/32-1:0]  ch_exLn,
    input  wire [DATA_WIDTH/32-1:0]  ch_exSn,

    output reg  [2:0]                wk_ndec = 3'd0,
    output reg  [((DATA_WIDTH/32+4)/5)*$clog2(DATA_WIDTH/32)-1:0] wk_rpos = 0,
    output reg  [((DATA_WIDTH/32+4)/5)*$clog2(DATA_WIDTH/32)-1:0] wk_ros = 0,
    output reg  [((DATA_WIDTH/32+4)/5)*16-1:0] wk_rE = 0,
    output reg  [((DATA_WIDTH/32+4)/5)*32-1:0] wk_rword = 0,
    output reg  [(DATA_WIDTH/32+4)/5-1:0] wk_rsmall = 0,
    output reg  [(DATA_WIDTH/32+4)/5-1:0] wk_rfirst = 0,
    output reg  [((DATA_WIDTH/32+4)/5)*3-1:0] wk_rhs = 0,
    output reg                       wk_carried = 1'b0,
    output reg                       wk_pend = 1'b0,
    output reg                       wk_mkany = 1'b0,
    output reg  [$clog2(DATA_WIDTH/32)-1:0] wk_om = 0,
    output reg  [13:0]               wk_ptr = 14'd0,
    output reg  [15:0]               wk_P0 = 16'd0,
    output reg  [15:0]               wk_nS = 16'd0,
    output reg  [15:0]               wk_Pend = 16'd0,
    output reg                       wk_stop = 1'b0,
    output reg                       wk_fm = 1'b0,
    output reg                       wk_anyl = 1'b0,
    output reg  [15:0]               wk_nrec = 16'd0
);

`include "mpa_rx_walk.vh"

// The walk's state between beats: whether the next ULPDU_Length word and
// the next FPDU start fall in the next beat (compared when they are set,
// against that beat's base), whether that FPDU begins with a marker, and
// whether the frame has records yet.
reg ws_act = 1'b0, ws_stop = 1'b0, ws_fm = 1'b0, ws_anyl = 1'b0;
reg ws_nz = 1'b0, ws_lead = 1'b0, ws_hitn = 1'b0, ws_nSn = 1'b0;
reg [PW-1:0] ws_nL = 0, ws_nS = 0, ws_P0 = 0, ws_Pend = 0;
reg [15:0] ws_nrec = 16'd0;

reg wkn_act_in, wkn_stop_in, wkn_fm_in, wkn_anyl_in, wkn_hit, wkn_nz_in, wkn_lead_in, wkn_nLin, wkn_nSin;
reg [PW-1:0] wkn_nL_in, wkn_nS_in, wkn_P0_in, wkn_Pend_in;
reg [15:0] wkn_nrec_in;
reg [LW-1:0] wkn_ent, wkn_p;
reg [2:0] wkn_cnt;
reg [1:0] wkn_endk;
reg [PW-1:0] wkn_exL, wkn_exS;
reg [KMAX*LW-1:0] wkn_pos;
reg wkn_mkprev, wkn_rfm0, wkn_pendx, wkn_anyle, wkn_exLn, wkn_exSn;
reg wkn_act, wkn_stop, wkn_fm, wkn_anyl, wkn_carried, wkn_pend, wkn_lead, wkn_hitn, wkn_nSn;
reg [PW-1:0] wkn_nL, wkn_nS, wkn_Pend;
reg [15:0] wkn_nrec;
reg [KMAX*LW-1:0] wkn_rpos, wkn_ros;
reg [KMAX*PW-1:0] wkn_rE;
reg [KMAX*32-1:0] wkn_rword;
reg [KMAX-1:0] wkn_rsmall, wkn_rfirst;
reg [KMAX*3-1:0] wkn_rhs;
integer ri, wj;

always @* begin
    wkn_act_in = ch_pfirst || (!ch_first && ws_act);
    wkn_nL_in = ch_pfirst ? ch_nL0 : ws_nL;
    wkn_nS_in = ch_pfirst ? ch_P0 : ws_nS;
    wkn_P0_in = ch_pfirst ? ch_P0 : ws_P0;
    wkn_lead_in = ch_pfirst ? ch_mkP0 : ws_lead;    // wkn_nS_in != wkn_nL_in
    wkn_nLin = ch_pfirst ? ch_hit0 : ws_hitn;       // wkn_nL_in is in this beat
    wkn_nSin = ch_pfirst || ws_nSn;                 // wkn_nS_in is in this beat
    wkn_stop_in = !ch_first && ws_stop;
    wkn_fm_in = !ch_first && ws_fm;
    wkn_anyl_in = !ch_first && ws_anyl;
    wkn_nz_in = !ch_first && ws_nz;                 // wkn_nrec_in != 0
    wkn_nrec_in = ch_first ? 16'd0 : ws_nrec;
    wkn_Pend_in = ch_first ? {PW{1'b0}} : ws_Pend;

    wkn_hit = wkn_act_in && wkn_nLin;
    wkn_ent = wkn_nL_in[LW-1:0];
    wkn_cnt = 3'd0;
    wkn_endk = END_CONT;
    wkn_exL = {PW{1'b0}};
    wkn_exS = {PW{1'b0}};
    wkn_pos = {(KMAX*LW){1'b0}};
    wkn_rfm0 = 1'b0;
    wkn_pendx = 1'b0;
    wkn_anyle = 1'b0;
    wkn_exLn = 1'b0;
    wkn_exSn = 1'b0;
    for (wj = 0; wj < WPB; wj = wj + 1) begin
        if (wkn_ent == wj[LW-1:0]) begin
            wkn_cnt = ch_cnt[3*wj +: 3];
            wkn_endk = ch_end[2*wj +: 2];
            wkn_exL = ch_exL[PW*wj +: PW];
            wkn_exS = ch_exS[PW*wj +: PW];
            wkn_pos = ch_pos[wj*KMAX*LW +: KMAX*LW];
            wkn_rfm0 = ch_fm[wj];
            wkn_pendx = ch_pendx[wj];
            wkn_anyle = ch_anyl[wj];
            wkn_exLn = ch_exLn[wj];
            wkn_exSn = ch_exSn[wj];
        end
    end
    if (!wkn_hit)
        wkn_cnt = 3'd0;

    wkn_act = wkn_act_in;
    wkn_nL = wkn_nL_in;
    wkn_nS = wkn_nS_in;
    wkn_stop = wkn_stop_in;
    wkn_lead = wkn_lead_in;
    if (wkn_hit) begin
        case (wkn_endk)
            END_CONT: begin
                wkn_nL = wkn_exL;
                wkn_nS = wkn_exS;
                wkn_lead = wkn_exL[0] ^ wkn_exS[0];  // wkn_exL is wkn_exS or wkn_exS + 1
            end
            END_NONPAY: begin
                wkn_act = 1'b0;
                if (wkn_cnt != 3'd0)
                    wkn_nS = wkn_exS;
            end
            default: begin
                wkn_act = 1'b0;
                wkn_stop = 1'b1;
            end
        endcase
    end
    // wkn_nL / wkn_nS in the next beat: from the chain for its exits, else
    // compared here (ch_P0, the payload's first word, is in this beat)
    if (wkn_hit && wkn_endk == END_CONT)
        wkn_hitn = wkn_exLn;
    else
        wkn_hitn = ch_pfirst ? ch_nL0n : ws_nL[PW-1:LW] == ch_Bn;
    if (wkn_hit && (wkn_endk == END_CONT || (wkn_endk == END_NONPAY && wkn_cnt != 3'd0)))
        wkn_nSn = wkn_exSn;
    else
        wkn_nSn = !ch_pfirst && ws_nS[PW-1:LW] == ch_Bn;
    // The first ULPDU_Length word of the beat belongs to an FPDU that
    // started with a marker in the last word of the previous beat.
    wkn_carried = wkn_cnt != 3'd0 && wkn_ent == {LW{1'b0}} && wkn_lead_in;
    // An FPDU starts with a marker in the beat's last word; its
    // ULPDU_Length word is in the next beat.
    wkn_pend = ch_pmask[WPB-1] && (wkn_hit ? wkn_endk == END_CONT && wkn_pendx : wkn_act_in && wkn_nSin);

    // The visited ULPDU_Length words, in order.
    wkn_rpos = 0;
    wkn_ros = 0;
    wkn_rE = 0;
    wkn_rword = 0;
    wkn_rsmall = 0;
    wkn_rfirst = 0;
    wkn_rhs = 0;
    for (ri = 0; ri < KMAX; ri = ri + 1) begin
        wkn_p = wkn_pos[ri*LW +: LW];
        wkn_rpos[ri*LW +: LW] = wkn_p;
        wkn_mkprev = 1'b0;
        for (wj = 0; wj < WPB; wj = wj + 1) begin
            if (wkn_p == wj[LW-1:0]) begin
                wkn_mkprev = ch_mkprev[wj];
                wkn_rE[ri*PW +: PW] = ch_E[PW*wj +: PW];
                wkn_rword[ri*32 +: 32] = ch_data[32*wj +: 32];
                wkn_rsmall[ri] = ch_small[wj];
                wkn_rhs[ri*3 +: 3] = ch_hs[3*wj +: 3];
            end
        end
        // Rank 0 starts where the walk stood (its FPDU may be the first of
        // the payload, which no marker before it can start); later ranks
        // start at the previous rank's end, which is never a marker word.
        if (ri == 0)
            wkn_ros[ri*LW +: LW] = wkn_nS_in[LW-1:0];
        else
            wkn_ros[ri*LW +: LW] = wkn_p - {{(LW-1){1'b0}}, wkn_mkprev};
        wkn_rfirst[ri] = ri == 0 && !wkn_nz_in;
    end
    // Rank 0 is the entry word itself.
    wkn_anyl = wkn_anyl_in || (wkn_hit && wkn_anyle);
    wkn_fm = wkn_fm_in;
    if (wkn_cnt != 3'd0 && !wkn_nz_in)
        wkn_fm = wkn_rfm0 || wkn_lead_in;
    wkn_nrec = wkn_nrec_in + {13'd0, wkn_cnt};
    wkn_Pend = (|ch_pmask) ? ch_Pendx : wkn_Pend_in;
end

// The beat's marker (at most one: markers are 128 words apart), its word
// and its FPDUPTR with the two low bits dropped; off the walk's loop.
wire [WPB-1:0] wkn_mk = ch_mk & ch_pmask;
reg wkn_mkany;
reg [LW-1:0] wkn_om;
reg [13:0] wkn_ptr;
integer mj;
always @* begin
    wkn_mkany = |wkn_mk;
    wkn_om = {LW{1'b0}};
    wkn_ptr = 14'd0;
    for (mj = 0; mj < WPB; mj = mj + 1) begin
        if (wkn_mk[mj]) begin
            wkn_om = mj[LW-1:0];
            wkn_ptr = {ch_data[32*mj + 16 +: 8], ch_data[32*mj + 26 +: 6]};
        end
    end
end

always @(posedge clk) begin
    if (ch_valid) begin
        ws_act <= wkn_act;
        ws_nL <= wkn_nL;
        ws_nS <= wkn_nS;
        ws_P0 <= wkn_P0_in;
        ws_stop <= wkn_stop;
        ws_fm <= wkn_fm;
        ws_anyl <= wkn_anyl;
        ws_nrec <= wkn_nrec;
        ws_Pend <= wkn_Pend;
        ws_nz <= wkn_nz_in || wkn_cnt != 3'd0;
        ws_lead <= wkn_lead;
        ws_hitn <= wkn_hitn;
        ws_nSn <= wkn_nSn;
    end
    wk_P0 <= wkn_P0_in;
    wk_nS <= wkn_nS;
    wk_Pend <= wkn_Pend;
    wk_ndec <= wkn_cnt;
    wk_carried <= wkn_carried;
    wk_pend <= wkn_pend;
    wk_stop <= wkn_stop;
    wk_fm <= wkn_fm;
    wk_anyl <= wkn_anyl;
    wk_nrec <= wkn_nrec;
    wk_mkany <= wkn_mkany;
    wk_om <= wkn_om;
    wk_ptr <= wkn_ptr;
    wk_rpos <= wkn_rpos;
    wk_ros <= wkn_ros;
    wk_rE <= wkn_rE;
    wk_rword <= wkn_rword;
    wk_rsmall <= wkn_rsmall;
    wk_rfirst <= wkn_rfirst;
    wk_rhs <= wkn_rhs;
    if (rst) begin
        ws_act <= 1'b0;
        ws_stop <= 1'b0;
        ws_fm <= 1'b0;
        ws_anyl <= 1'b0;
        ws_nL <= 0;
        ws_nS <= 0;
        ws_P0 <= 0;
        ws_Pend <= 0;
        ws_nrec <= 16'd0;
        ws_nz <= 1'b0;
        ws_lead <= 1'b0;
        ws_hitn <= 1'b0;
        ws_nSn <= 1'b0;
    end
end

`ifdef FORMAL
// ------------------------------------------------------------------ formal
// Properties proven by `make formal` (docs/robustness.md, "Formal proofs"),
// for the beats with ch_valid (the outputs of a cycle without a beat are
// not used: mpa_rx_walk_rec and mpa_rx_walk_sum take them with the beat's
// valid), against a model kept from the outputs and ch_valid / ch_first:
//   - wk_nrec is the frame's records so far: the sum of wk_ndec over its
//     beats up to this one (mod 2^16);
//   - wk_rfirst marks exactly the frame's first record: rank 0 of the
//     first beat of the frame with a record, no other rank made;
//   - once the walk recorded a short FPDU (wk_stop), wk_stop stays high
//     for the rest of the frame and no more records are made.
// Otherwise the chain's inputs are free (ch_*: any values); what the
// records are (positions, counts against the FPDUs in the payload) is
// co-simulation's.
reg f_past_valid = 1'b0;
always @(posedge clk)
    f_past_valid <= 1'b1;
always @*
    if (!f_past_valid)
        assume (rst);

reg f_wv = 1'b0, f_wf = 1'b0;       // the beat at stage wk: valid, its frame's first
reg [15:0] f_acc = 16'd0;           // records of the frame up to the last beat
reg f_any = 1'b0;                   // ... at least one
reg f_stopped = 1'b0;               // ... and the walk recorded a short FPDU
wire [15:0] f_base = f_wf ? 16'd0 : f_acc;
wire f_any_base = !f_wf && f_any;
wire f_stop_base = !f_wf && f_stopped;
always @(posedge clk) begin
    f_wv <= ch_valid;
    f_wf <= ch_first;
    if (f_wv) begin
        f_acc <= f_base + {13'd0, wk_ndec};
        f_any <= f_any_base || wk_ndec != 3'd0;
        f_stopped <= f_stop_base || wk_stop;
    end
    if (rst) begin
        f_wv <= 1'b0;
        f_acc <= 16'd0;
        f_any <= 1'b0;
        f_stopped <= 1'b0;
    end
end

// Assumed of mpa_rx_walk_word and mpa_rx_walk_chain: ch_pfirst on at most
// one beat of a frame (its first payload beat; mpa_rx_walk_word's proof
// states it at stage fe); a chain holds at most KMAX ULPDU_Length words.
reg f_pseen = 1'b0;                 // a beat of the frame at stage ch had ch_pfirst
always @(posedge clk) begin
    if (ch_valid)
        f_pseen <= (!ch_first && f_pseen) || ch_pfirst;
    if (rst)
        f_pseen <= 1'b0;
end
integer fa;
always @* begin
    if (ch_valid && ch_pfirst)
        assume (ch_first || !f_pseen);
    for (fa = 0; fa < WPB; fa = fa + 1)
        assume (ch_cnt[3*fa +: 3] <= KMAX);
end

integer fr;
always @* begin
    if (!rst && f_past_valid) begin
        // the walk state against the model (induction invariants)
        assert (!(ws_act || ws_nz || ws_stop) || f_pseen);
        assert (!(ws_stop && ws_act));
        if (!f_wv) begin
            assert (ws_nrec == f_acc);
            assert (ws_nz == f_any);
            assert (ws_stop == f_stopped);
        end else begin
            assert (ws_nrec == wk_nrec);
            assert (ws_nz == (f_any_base || wk_ndec != 3'd0));
            assert (ws_stop == wk_stop);
        end
        if (f_wv) begin
            assert (wk_nrec == f_base + {13'd0, wk_ndec});
            if (wk_ndec != 3'd0)
                assert (wk_rfirst[0] == !f_any_base);
            for (fr = 1; fr < KMAX; fr = fr + 1)
                if (fr < wk_ndec)
                    assert (!wk_rfirst[fr]);
            if (f_stop_base)
                assert (wk_stop && wk_ndec == 3'd0);
        end
    end
end

// covers: a frame's first record in a beat after its first; records in two
// beats of a frame; a short FPDU ending the walk before the frame's last beat
always @* begin
    if (!rst && f_past_valid) begin
        cover (f_wv && !f_wf && !f_any_base && wk_ndec != 3'd0);
        cover (f_wv && f_any_base && wk_ndec != 3'd0);
        cover (f_wv && f_stop_base);
    end
end
`endif

endmodule

`resetall
