// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_walk_chain: the chains of ULPDU_Length words of a beat, for the
 * FPDU walker (mpa_rx_walk). For every entry word e of the beat (a word
 * where the walk's next ULPDU_Length field may be) it follows the FPDUs
 * that the beat holds from there, using mpa_rx_walk_word's per-word ends,
 * so that the walk across beats (mpa_rx_walk_step) only selects the chain
 * of the word it arrives at.
 *
 * Input, per beat (mpa_rx_walk_word's stage fe): fe_B and fe_Bn (position
 * of word 0, and fe_B / WPB + 1), fe_pmask, fe_data (only the DDP L bits,
 * bit 22 of each word, are read), and per word fe_nL, fe_E, fe_small.
 *
 * The chain from entry word e visits words v, starting at v = e, at most
 * KMAX of them (an FPDU that does not stop the walk is at least 5 words
 * long, so no beat holds more): when v is not payload the chain ends with
 * END_NONPAY and v is not counted; else v is visited (counted), and the
 * chain ends with END_SMALL when fe_small[v], goes on at word
 * fe_nL[v] mod WPB when fe_nL[v] is in this beat, and otherwise (or after
 * KMAX visits) ends with END_CONT. Outputs per entry word e (field e of
 * each vector), in the ch_* registers:
 *   ch_cnt    visited words (3 bits)
 *   ch_pos    their word offsets in visit order (KMAX fields of LW bits;
 *             0 past ch_cnt)
 *   ch_end    END_CONT, END_NONPAY or END_SMALL (mpa_rx_walk.vh)
 *   ch_anyl   a visited word has the DDP L bit
 * and of the chain's last visited word x (the entry word e when none was):
 *   ch_exL, ch_exS   fe_nL[x] and fe_E[x]: where the walk goes on
 *   ch_exLn, ch_exSn fe_nL[x] / fe_E[x] is in the next beat (/ WPB ==
 *                    fe_Bn)
 *   ch_pendx  fe_E[x] is in this beat and fe_nL[x] is not: the next FPDU
 *             starts with a marker in the beat's last word
 *
 * Latency: 1 cycle, 2 at 512 bits (DSPLIT: stage hc walks up to KH = 2
 * visits from every word, stage ch joins to each entry's first half the
 * half that starts where it goes on).
 */
module mpa_rx_walk_chain #(
    // Width of the word view (64, 128, 256 or 512).
    parameter DATA_WIDTH = 64
) (
    input  wire                      clk,
    input  wire                      rst,

    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [15:0]               fe_B,          // only the beat bits
    input  wire [DATA_WIDTH-1:0]     fe_data,       // only the L bits
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [15-$clog2(DATA_WIDTH/32):0] fe_Bn,
    input  wire [DATA_WIDTH/32-1:0]  fe_pmask,
    input  wire [16*DATA_WIDTH/32-1:0] fe_nL,
    input  wire [16*DATA_WIDTH/32-1:0] fe_E,
    input  wire [DATA_WIDTH/32-1:0]  fe_small,

    output reg  [3*DATA_WIDTH/32-1:0] ch_cnt = 0,
    output reg  [((DATA_WIDTH/32+4)/5)*$clog2(DATA_WIDTH/32)*DATA_WIDTH/32-1:0] ch_pos = 0,
    output reg  [2*DATA_WIDTH/32-1:0] ch_end = 0,
    output reg  [16*DATA_WIDTH/32-1:0] ch_exL = 0,
    output reg  [16*DATA_WIDTH/32-1:0] ch_exS = 0,
    output reg  [DATA_WIDTH/32-1:0]  ch_pendx = 0,
    output reg  [DATA_WIDTH/32-1:0]  ch_anyl = 0,
    output reg  [DATA_WIDTH/32-1:0]  ch_exLn = 0,
    output reg  [DATA_WIDTH/32-1:0]  ch_exSn = 0
);

`include "mpa_rx_walk.vh"

wire unused = &{1'b0, rst};

// Where each word's next ULPDU_Length word and end are: in this beat or in
// the next one. (Word selections here are explicit compare-and-select
// loops rather than variable part-selects, which Yosys' resource sharing
// would try to merge with a SAT solver.)
reg [WPB-1:0] nl_inb, end_inb, nl_inn, end_inn;
integer wj;
always @* begin
    for (wj = 0; wj < WPB; wj = wj + 1) begin
        nl_inb[wj] = fe_nL[PW*wj + LW +: PW-LW] == fe_B[PW-1:LW];
        end_inb[wj] = fe_E[PW*wj + LW +: PW-LW] == fe_B[PW-1:LW];
        nl_inn[wj] = fe_nL[PW*wj + LW +: PW-LW] == fe_Bn;
        end_inn[wj] = fe_E[PW*wj + LW +: PW-LW] == fe_Bn;
    end
end

// ================================================================ stage hc
// Up to KH visits from every word (all KMAX of them below 512 bits).
reg [3*WPB-1:0] hcn_cnt;
reg [KH*LW*WPB-1:0] hcn_pos;
reg [2*WPB-1:0] hcn_end;
reg [PW*WPB-1:0] hcn_exL, hcn_exS;
reg [WPB-1:0] hcn_exLn, hcn_exSn, hcn_pendx, hcn_anyl;
/* verilator lint_off UNUSEDSIGNAL */
reg [WPB-1:0] hcn_alive;    // KH words visited and the chain goes on in the beat (DSPLIT)
reg [LW*WPB-1:0] hcn_nxt;   // ... at this word
/* verilator lint_on UNUSEDSIGNAL */
// the visit walk of one entry word
reg [LW-1:0] cv_cur, cv_last, cv_nxt;
reg cv_alive, cv_pay, cv_small, cv_inb;
integer ee, vs;
always @* begin
    hcn_pendx = 0;
    hcn_anyl = 0;
    hcn_cnt = 0;
    hcn_pos = 0;
    hcn_end = 0;
    hcn_exL = 0;
    hcn_exS = 0;
    hcn_exLn = 0;
    hcn_exSn = 0;
    hcn_alive = 0;
    hcn_nxt = 0;
    for (ee = 0; ee < WPB; ee = ee + 1) begin
        cv_cur = ee[LW-1:0];
        cv_last = ee[LW-1:0];
        cv_alive = 1'b1;
        for (vs = 0; vs < KH; vs = vs + 1) begin
            cv_pay = 1'b0;
            cv_small = 1'b0;
            cv_inb = 1'b0;
            cv_nxt = {LW{1'b0}};
            for (wj = 0; wj < WPB; wj = wj + 1) begin
                if (cv_cur == wj[LW-1:0]) begin
                    cv_pay = fe_pmask[wj];
                    cv_small = fe_small[wj];
                    cv_inb = nl_inb[wj];
                    cv_nxt = fe_nL[PW*wj +: LW];
                end
            end
            if (cv_alive) begin
                if (!cv_pay) begin
                    hcn_end[2*ee +: 2] = END_NONPAY;
                    cv_alive = 1'b0;
                end else begin
                    hcn_pos[(ee*KH + vs)*LW +: LW] = cv_cur;
                    for (wj = 0; wj < WPB; wj = wj + 1)
                        if (cv_cur == wj[LW-1:0] && fe_data[32*wj + 22])
                            hcn_anyl[ee] = 1'b1;
                    hcn_cnt[3*ee +: 3] = vs[2:0] + 3'd1;
                    cv_last = cv_cur;
                    if (cv_small) begin
                        hcn_end[2*ee +: 2] = END_SMALL;
                        cv_alive = 1'b0;
                    end else if (cv_inb) begin
                        cv_cur = cv_nxt;
                    end else begin
                        cv_alive = 1'b0;
                    end
                end
            end
        end
        hcn_alive[ee] = cv_alive;
        hcn_nxt[LW*ee +: LW] = cv_cur;
        for (wj = 0; wj < WPB; wj = wj + 1) begin
            if (cv_last == wj[LW-1:0]) begin
                hcn_exL[PW*ee +: PW] = fe_nL[PW*wj +: PW];
                hcn_exS[PW*ee +: PW] = fe_E[PW*wj +: PW];
                hcn_pendx[ee] = end_inb[wj] && !nl_inb[wj];
                hcn_exLn[ee] = nl_inn[wj];
                hcn_exSn[ee] = end_inn[wj];
            end
        end
    end
end

// ================================================================ stage ch
reg [3*WPB-1:0] chn_cnt;
reg [KMAX*LW*WPB-1:0] chn_pos;
reg [2*WPB-1:0] chn_end;
reg [PW*WPB-1:0] chn_exL, chn_exS;
reg [WPB-1:0] chn_pendx, chn_anyl, chn_exLn, chn_exSn;

generate
    if (DSPLIT) begin : g_join
        reg [3*WPB-1:0] hc_cnt = 0;
        reg [KH*LW*WPB-1:0] hc_pos = 0;
        reg [2*WPB-1:0] hc_end = 0;
        reg [PW*WPB-1:0] hc_exL = 0, hc_exS = 0;
        reg [WPB-1:0] hc_pendx = 0, hc_anyl = 0, hc_alive = 0, hc_exLn = 0, hc_exSn = 0;
        reg [LW*WPB-1:0] hc_nxt = 0;
        always @(posedge clk) begin
            hc_cnt <= hcn_cnt;
            hc_pos <= hcn_pos;
            hc_end <= hcn_end;
            hc_exL <= hcn_exL;
            hc_exS <= hcn_exS;
            hc_pendx <= hcn_pendx;
            hc_exLn <= hcn_exLn;
            hc_exSn <= hcn_exSn;
            hc_anyl <= hcn_anyl;
            hc_alive <= hcn_alive;
            hc_nxt <= hcn_nxt;
        end

        // Entry e's first half, then (when it goes on at word m in the
        // beat) the half that starts at m.
        reg [LW-1:0] cj_m;
        reg [2:0] cj_cnt;
        reg [KH*LW-1:0] cj_pos;
        reg [1:0] cj_end;
        reg [PW-1:0] cj_exL, cj_exS;
        reg cj_pendx, cj_anyl, cj_go, cj_exLn, cj_exSn;
        integer je, jj;
        always @* begin
            chn_cnt = 0;
            chn_pos = 0;
            chn_end = 0;
            chn_exL = 0;
            chn_exS = 0;
            chn_pendx = 0;
            chn_anyl = 0;
            chn_exLn = 0;
            chn_exSn = 0;
            for (je = 0; je < WPB; je = je + 1) begin
                cj_m = hc_nxt[LW*je +: LW];
                cj_cnt = 3'd0;
                cj_pos = 0;
                cj_end = 2'd0;
                cj_exL = 0;
                cj_exS = 0;
                cj_pendx = 1'b0;
                cj_anyl = 1'b0;
                cj_exLn = 1'b0;
                cj_exSn = 1'b0;
                for (jj = 0; jj < WPB; jj = jj + 1) begin
                    if (cj_m == jj[LW-1:0]) begin
                        cj_cnt = hc_cnt[3*jj +: 3];
                        cj_pos = hc_pos[jj*KH*LW +: KH*LW];
                        cj_end = hc_end[2*jj +: 2];
                        cj_exL = hc_exL[PW*jj +: PW];
                        cj_exS = hc_exS[PW*jj +: PW];
                        cj_pendx = hc_pendx[jj];
                        cj_anyl = hc_anyl[jj];
                        cj_exLn = hc_exLn[jj];
                        cj_exSn = hc_exSn[jj];
                    end
                end
                // the second half visited a word: the chain's last word is in it
                cj_go = hc_alive[je] && cj_cnt != 3'd0;
                chn_pos[je*KMAX*LW +: KH*LW] = hc_pos[je*KH*LW +: KH*LW];
                if (hc_alive[je])
                    chn_pos[(je*KMAX + KH)*LW +: KH*LW] = cj_pos;
                chn_cnt[3*je +: 3] = hc_alive[je] ? KH[2:0] + cj_cnt : hc_cnt[3*je +: 3];
                chn_end[2*je +: 2] = hc_alive[je] ? cj_end : hc_end[2*je +: 2];
                chn_exL[PW*je +: PW] = cj_go ? cj_exL : hc_exL[PW*je +: PW];
                chn_exS[PW*je +: PW] = cj_go ? cj_exS : hc_exS[PW*je +: PW];
                chn_pendx[je] = cj_go ? cj_pendx : hc_pendx[je];
                chn_exLn[je] = cj_go ? cj_exLn : hc_exLn[je];
                chn_exSn[je] = cj_go ? cj_exSn : hc_exSn[je];
                chn_anyl[je] = hc_anyl[je] || (hc_alive[je] && cj_anyl);
            end
        end
    end else begin : g_one
        always @* begin
            chn_cnt = hcn_cnt;
            chn_pos = hcn_pos;
            chn_end = hcn_end;
            chn_exL = hcn_exL;
            chn_exS = hcn_exS;
            chn_pendx = hcn_pendx;
            chn_anyl = hcn_anyl;
            chn_exLn = hcn_exLn;
            chn_exSn = hcn_exSn;
        end
    end
endgenerate

always @(posedge clk) begin
    ch_cnt <= chn_cnt;
    ch_pos <= chn_pos;
    ch_end <= chn_end;
    ch_exL <= chn_exL;
    ch_exS <= chn_exS;
    ch_pendx <= chn_pendx;
    ch_anyl <= chn_anyl;
    ch_exLn <= chn_exLn;
    ch_exSn <= chn_exSn;
end

`ifdef FORMAL
// ------------------------------------------------------------------ formal
// Proven by `make formal` (docs/robustness.md, "Formal proofs"): for every
// entry word, whatever the inputs, the chain visits at most KMAX words
// (what mpa_rx_walk_step assumes of ch_cnt) and ends in one of the three
// ways of mpa_rx_walk.vh. Where the chain goes (that its words are the
// FPDUs' ULPDU_Length words) is co-simulation's.
reg f_past_valid = 1'b0;
always @(posedge clk)
    f_past_valid <= 1'b1;
always @*
    if (!f_past_valid)
        assume (rst);
integer fe;
always @*
    if (f_past_valid)
        for (fe = 0; fe < WPB; fe = fe + 1) begin
            assert (ch_cnt[3*fe +: 3] <= KMAX);
            assert (ch_end[2*fe +: 2] == END_CONT || ch_end[2*fe +: 2] == END_NONPAY
                || ch_end[2*fe +: 2] == END_SMALL);
        end
`endif

endmodule

`resetall
