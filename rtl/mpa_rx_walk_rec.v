// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_walk_rec: the record slots of the FPDU walker (mpa_rx_walk). It
 * assembles one record per FPDU the walk finds (its ULPDU_Length word and
 * the DDP header words after it, which may come in later beats) and says
 * which records leave for the record store (mpa_rx_walk_store), in order.
 *
 * Input: one beat per cycle with wk_valid (no stall), as mpa_rx_walk_step
 * hands it on (stage wk): its ranks (wk_ndec, wk_rpos, wk_rhs, wk_rword,
 * wk_rfirst), wk_P0 and wk_stop; with it the beat itself at stage wk:
 * wk_last, wk_data, wk_pmask, wk_B and wk_Bn.
 *
 * Records: record i (counted from reset) is assembled in slot i mod NREC:
 * each beat's ranks take the next slots in rank order. A record holds
 *   lseq   its ULPDU_Length word's payload word index (wk_B + rpos - wk_P0)
 *   word   the ULPDU_Length word as it came (ULPDU_Length in octets 0-1,
 *          the DDP control octet 2, octet 3)
 *   hdr    the four words of the stream after it, a marker position
 *          among them skipped (wk_rhs: the index of the first header word
 *          after it, 4 for none), each big endian, the first in [127:96]
 *          (tagged: STag, TO high, TO low, -; untagged: ULP reserved, QN,
 *          MSN, MO); a word that is not payload reads as 0
 *   first  the frame's first record
 * A record leaves when its header is complete (its fourth header word is
 * in this beat or an earlier one) or the frame ends (wk_last), and a later
 * record of the frame exists or the walk is over (wk_last or wk_stop):
 * the newest record waits until it is known whether it is its frame's
 * last. The records that leave in a beat are consecutive in record order.
 *
 * Output, in stage sl (2 cycles after stage wk; sl_valid: the beat):
 *   sl_npush   records that leave with this beat (0 to NREC)
 *   sl_lastf   per slot: its record is the frame's last
 *   rs_lseq, rs_word, rs_hdr, rs_first  per slot, the record it holds
 *              (the ones that leave are complete)
 * The store reads the leaving records from the slots in record order from
 * its own pointer (the slot after the last record that left).
 * Latency: 2 cycles.
 */
module mpa_rx_walk_rec #(
    // Width of the word view (64, 128, 256 or 512).
    parameter DATA_WIDTH = 64
) (
    input  wire                      clk,
    input  wire                      rst,

    input  wire                      wk_valid,
    input  wire                      wk_last,
    input  wire [DATA_WIDTH-1:0]     wk_data,
    input  wire [DATA_WIDTH/32-1:0]  wk_pmask,
    input  wire [15:0]               wk_B,
    input  wire [15-$clog2(DATA_WIDTH/32):0] wk_Bn,
    input  wire [2:0]                wk_ndec,
    input  wire [((DATA_WIDTH/32+4)/5)*$clog2(DATA_WIDTH/32)-1:0] wk_rpos,
    input  wire [((DATA_WIDTH/32+4)/5)*32-1:0] wk_rword,
    input  wire [(DATA_WIDTH/32+4)/5-1:0] wk_rfirst,
    input  wire [((DATA_WIDTH/32+4)/5)*3-1:0] wk_rhs,
    input  wire [15:0]               wk_P0,
    input  wire                      wk_stop,

    output reg                       sl_valid = 1'b0,
    output reg  [2:0]                sl_npush = 3'd0,
    output reg  [((DATA_WIDTH/32+4)/5+1)-1:0] sl_lastf = 0,
    output reg  [((DATA_WIDTH/32+4)/5+1)*16-1:0] rs_lseq = 0,
    output reg  [((DATA_WIDTH/32+4)/5+1)*32-1:0] rs_word = 0,
    output reg  [((DATA_WIDTH/32+4)/5+1)*128-1:0] rs_hdr = 0,
    output reg  [((DATA_WIDTH/32+4)/5+1)-1:0] rs_first = 0
);

`include "mpa_rx_walk.vh"

localparam TW = LW + 3;                     // bits of a word offset plus a header step

// ================================================================ stage sa
// Per rank: the record, where its four header words are (positions, and
// which of them this beat holds), whether its header is complete with this
// beat.
reg [TW-1:0] sar_t;
reg sar_h1, sar_h2;
integer sar_d;
reg [2:0] sar_c;
reg [PW-1:0] sar_L;
reg [KMAX*PW-1:0] sar_lseq;
reg [KMAX*4*PW-1:0] sar_hp;
reg [KMAX*4-1:0] sar_hit;
reg [KMAX*4*LW-1:0] sar_wo;
reg [KMAX-1:0] sar_done;
integer ac, ah, aj;

always @* begin
    sar_lseq = 0;
    sar_hp = 0;
    sar_hit = 0;
    sar_wo = 0;
    sar_done = 0;
    for (ac = 0; ac < KMAX; ac = ac + 1) begin
        sar_lseq[ac*PW +: PW] = wk_B + {{(PW-LW){1'b0}}, wk_rpos[ac*LW +: LW]} - wk_P0;
        sar_L = wk_B + {{(PW-LW){1'b0}}, wk_rpos[ac*LW +: LW]};
        for (ah = 0; ah < 4; ah = ah + 1) begin
            sar_c = ah[2:0] + ((ah[2:0] >= wk_rhs[ac*3 +: 3]) ? 3'd2 : 3'd1);
            sar_t = {3'd0, wk_rpos[ac*LW +: LW]} + {{(TW-3){1'b0}}, sar_c};
            sar_hp[(ac*4 + ah)*PW +: PW] = sar_L + {{(PW-3){1'b0}}, sar_c};
            sar_wo[(ac*4 + ah)*LW +: LW] = sar_t[LW-1:0];
            // the word's payload bit for both steps (ah + 1, ah + 2), then
            // the step: the select does not wait for the step's compare, and
            // word j is the one when rpos == j - ah - step (a compare with a
            // constant, no adder)
            sar_h1 = 1'b0;
            sar_h2 = 1'b0;
            for (aj = 0; aj < WPB; aj = aj + 1) begin
                sar_d = aj - ah - 1;
                if (sar_d >= 0 && wk_rpos[ac*LW +: LW] == sar_d[LW-1:0])
                    sar_h1 = wk_pmask[aj];
                sar_d = aj - ah - 2;
                if (sar_d >= 0 && wk_rpos[ac*LW +: LW] == sar_d[LW-1:0])
                    sar_h2 = wk_pmask[aj];
            end
            sar_hit[ac*4 + ah] = ah[2:0] >= wk_rhs[ac*3 +: 3] ? sar_h2 : sar_h1;
            if (ah == 3)
                sar_done[ac] = sar_t < WPB[TW-1:0];
        end
    end
end

// The beat at stage sa.
wire sa_valid, sa_last, sa_stop;
wire [DATA_WIDTH-1:0] sa_data;
wire [WPB-1:0] sa_pmask;
wire [PW-LW-1:0] sa_Bn;
wire [KMAX*32-1:0] sa_rword;
wire [KMAX-1:0] sa_rfirst;
mpa_rx_delay #(
    .WIDTH(3 + DATA_WIDTH + WPB + PW - LW + KMAX*33),
    .DEPTH(1)
) u_wk_sa (
    .clk(clk),
    .rst(rst),
    .in_data({wk_valid, wk_last, wk_stop, wk_data, wk_pmask, wk_Bn, wk_rword, wk_rfirst}),
    .out_data({sa_valid, sa_last, sa_stop, sa_data, sa_pmask, sa_Bn, sa_rword, sa_rfirst})
);

reg [2:0] sa_ndec = 3'd0;
// the beat decodes a record (sa_ndec != 0), and the index of its last one
// (sa_ndec - 1), registered beside sa_ndec so the output count compares
// against a register
reg       sa_nz = 1'b0;
reg [4:0] sa_ndm1 = 5'd0;
reg [KMAX*PW-1:0] sa_rlseq = 0;
reg [KMAX-1:0] sa_rdone = 0;
reg [KMAX*4*PW-1:0] sa_rhp = 0;
reg [KMAX*4-1:0] sa_rhit = 0;
reg [KMAX*4*LW-1:0] sa_rwo = 0;

always @(posedge clk) begin
    sa_ndec <= wk_valid ? wk_ndec : 3'd0;
    sa_nz <= wk_valid && wk_ndec != 3'd0;
    sa_ndm1 <= {2'b00, wk_ndec} - 5'd1;
    sa_rlseq <= sar_lseq;
    sa_rdone <= sar_done;
    sa_rhp <= sar_hp;
    sa_rhit <= sar_hit;
    sa_rwo <= sar_wo;
end

// ================================================================ stage sl
// Record slots. rs_rk[r] = (r - rsp) mod NREC, rsp the slot of the next
// record (a running remainder); records take slots in turn and never skip
// one. A slot's record: rs_pend (assembled, not left yet), rs_isnew (the
// newest record), its header word positions rs_hp and which of them are in
// the next beat (rs_hitn), whether the header is complete after the next
// beat (rs_donen).
reg [NREC*RW-1:0] rs_rk = rk_init(1'b0);
reg [NREC-1:0] rs_pend = 0, rs_isnew = 0, rs_donen = 0;
reg [NREC*4-1:0] rs_hitn = 0;
reg [NREC*4*PW-1:0] rs_hp = 0;

reg [NREC*RW-1:0] rsn_rk;
reg [NREC-1:0] rsn_pend, rsn_first, rsn_isnew, rsn_push, rsn_lastf, rsn_done, rsn_donen;
reg [NREC*4-1:0] rsn_hitn;
reg [NREC*PW-1:0] rsn_lseq;
reg [NREC*4*PW-1:0] rsn_hp;
reg [NREC*32-1:0] rsn_word;
reg [NREC*128-1:0] rsn_hdr;
reg [2:0] rsn_npush;
reg [RW-1:0] rsn_r;
reg rsn_dec, rsn_hit;
reg [31:0] rsn_dw;
reg [LW-1:0] rsn_p;
integer lr, lc, lh, lw;

always @* begin
    rsn_rk = 0;
    rsn_pend = 0;
    rsn_first = 0;
    rsn_isnew = 0;
    rsn_push = 0;
    rsn_lastf = 0;
    rsn_done = 0;
    rsn_donen = 0;
    rsn_hitn = 0;
    rsn_lseq = 0;
    rsn_hp = 0;
    rsn_word = 0;
    rsn_hdr = 0;
    for (lr = 0; lr < NREC; lr = lr + 1) begin
        rsn_r = rs_rk[lr*RW +: RW];
        rsn_dec = {{(5-RW){1'b0}}, rsn_r} < {2'b00, sa_ndec};
        rsn_lseq[lr*PW +: PW] = rs_lseq[lr*PW +: PW];
        rsn_word[lr*32 +: 32] = rs_word[lr*32 +: 32];
        rsn_first[lr] = rs_first[lr];
        rsn_hp[lr*4*PW +: 4*PW] = rs_hp[lr*4*PW +: 4*PW];
        rsn_done[lr] = rs_donen[lr];
        rsn_hdr[lr*128 +: 128] = rs_hdr[lr*128 +: 128];
        for (lh = 0; lh < 4; lh = lh + 1) begin
            rsn_p = rs_hp[(lr*4 + lh)*PW +: LW];
            rsn_hit = 1'b0;
            rsn_dw = 32'd0;
            for (lw = 0; lw < WPB; lw = lw + 1) begin
                if (rsn_p == lw[LW-1:0]) begin
                    rsn_hit = rs_hitn[lr*4 + lh] && sa_pmask[lw];
                    rsn_dw = sa_data[32*lw +: 32];
                end
            end
            if (rsn_hit)
                rsn_hdr[lr*128 + 96 - 32*lh +: 32] = {rsn_dw[7:0], rsn_dw[15:8], rsn_dw[23:16], rsn_dw[31:24]};
        end
        for (lc = 0; lc < KMAX; lc = lc + 1) begin
            if (rsn_dec && rsn_r == lc[RW-1:0]) begin
                rsn_lseq[lr*PW +: PW] = sa_rlseq[lc*PW +: PW];
                rsn_word[lr*32 +: 32] = sa_rword[lc*32 +: 32];
                rsn_first[lr] = sa_rfirst[lc];
                rsn_hp[lr*4*PW +: 4*PW] = sa_rhp[lc*4*PW +: 4*PW];
                rsn_done[lr] = sa_rdone[lc];
                for (lh = 0; lh < 4; lh = lh + 1) begin
                    rsn_dw = 32'd0;
                    for (lw = 0; lw < WPB; lw = lw + 1)
                        if (sa_rwo[(lc*4 + lh)*LW +: LW] == lw[LW-1:0])
                            rsn_dw = sa_data[32*lw +: 32];
                    rsn_hdr[lr*128 + 96 - 32*lh +: 32] = sa_rhit[lc*4 + lh] ?
                        {rsn_dw[7:0], rsn_dw[15:8], rsn_dw[23:16], rsn_dw[31:24]} : 32'd0;
                end
            end
        end
        for (lh = 0; lh < 4; lh = lh + 1)
            rsn_hitn[lr*4 + lh] = rsn_hp[(lr*4 + lh)*PW + LW +: PW-LW] == sa_Bn;
        rsn_donen[lr] = rsn_hp[(lr*4 + 3)*PW + LW +: PW-LW] <= sa_Bn;
        rsn_pend[lr] = rsn_dec || rs_pend[lr];
        rsn_isnew[lr] = sa_nz ? {{(5-RW){1'b0}}, rsn_r} == sa_ndm1 : rs_isnew[lr];
        // Out when its header is complete and a later record exists (then
        // it is not the last) or the walk is over.
        rsn_push[lr] = sa_valid && rsn_pend[lr] && (rsn_done[lr] || sa_last) &&
            (!rsn_isnew[lr] || sa_last || sa_stop);
        rsn_lastf[lr] = rsn_isnew[lr] && (sa_last || sa_stop);
        rsn_rk[lr*RW +: RW] = rec_sub(rsn_r, {1'b0, sa_ndec});
    end
    rsn_npush = 3'd0;
    for (lr = 0; lr < NREC; lr = lr + 1)
        rsn_npush = rsn_npush + {2'd0, rsn_push[lr]};
end

always @(posedge clk) begin
    if (sa_valid) begin
        rs_rk <= rsn_rk;
        rs_pend <= rsn_pend & ~rsn_push;
        rs_isnew <= rsn_isnew;
        rs_lseq <= rsn_lseq;
        rs_word <= rsn_word;
        rs_first <= rsn_first;
        rs_hdr <= rsn_hdr;
        rs_hp <= rsn_hp;
        rs_hitn <= rsn_hitn;
        rs_donen <= rsn_donen;
    end
    sl_valid <= sa_valid;
    sl_lastf <= rsn_lastf;
    sl_npush <= rsn_npush;
    if (rst) begin
        rs_rk <= rk_init(1'b0);
        rs_pend <= 0;
        rs_isnew <= 0;
        rs_first <= 0;
        rs_lseq <= 0;
        rs_word <= 0;
        rs_hdr <= 0;
        rs_hp <= 0;
        rs_hitn <= 0;
        rs_donen <= 0;
        sl_valid <= 1'b0;
    end
end

`ifdef FORMAL
// ------------------------------------------------------------------ formal
// Properties proven by `make formal` (docs/robustness.md, "Formal proofs"),
// against a model of the records made (wk_ndec per beat) and left
// (sl_npush), kept from the ports alone:
//   - sl_npush <= NREC, 0 without sl_valid (what mpa_rx_walk_store assumes);
//   - the records that leave in a beat are the oldest ones not left yet,
//     consecutive in record order from the slot after the last one that left
//     (the store's pointer), and only records made;
//   - in the beat of a frame's last beat every record made and not left
//     leaves: a frame's records all leave by its last beat, before any
//     record of the next frame, as many as the frame made;
//   - the newest record made leaves only once the walk is over (wk_last or
//     wk_stop of its beat), and sl_lastf marks a leaving record exactly when
//     it is the newest made and the walk is over: a frame's last record
//     leaves marked.
//   - rs_first of a leaving record is the wk_rfirst its record was made
//     with.
// The record contents (rs_lseq, rs_word, rs_hdr) are cut (free): the flow
// is proven for any contents, the contents by co-simulation.
// Assumed of mpa_rx_walk_step: wk_ndec <= KMAX; a beat's new records never
// take a slot whose record has not left (records made and not left plus
// the beat's new ones at most NREC: the header comment's sizing); headers
// complete in record order (a record's header is complete no later than
// the next record's: FPDUs that do not end the walk are at least 5 words
// apart, and the record positions, wk_rpos and wk_rhs, are the step's).
reg f_past_valid = 1'b0;
always @(posedge clk)
    f_past_valid <= 1'b1;
always @*
    if (!f_past_valid)
        assume (rst);

localparam [4:0] F_N = NREC;
// x mod NREC for x < 2 * NREC
function [4:0] f_mod(input [4:0] x);
    f_mod = x >= F_N ? x - F_N : x;
endfunction

reg [4:0] f_optr = 5'd0;    // slot of the oldest record not left
reg [4:0] f_npend = 5'd0;   // records made and not left, before the beat in stage sa
wire [4:0] f_tot = f_npend + {2'b00, sa_ndec};   // with the beat's new ones

// With F_WALK_POS (the proofs walk_pos_*: this module inside mpa_rx_walk,
// after the real step) the three are asserted instead, out of reset:
// proven of the walk there.
`ifdef F_WALK_POS
`define F_WALK_LINK assert
wire f_link_on = !rst && f_past_valid;
`else
`define F_WALK_LINK assume
wire f_link_on = 1'b1;
`endif
integer fa;
always @* begin
    if (f_link_on)
        `F_WALK_LINK (wk_ndec <= KMAX);
    if (f_link_on && sa_valid)
        `F_WALK_LINK (f_tot <= F_N);
    // headers complete in record order
    for (fa = 1; fa < NREC; fa = fa + 1)
        if (f_link_on && fa < f_tot && rsn_done[f_mod(f_optr + fa)])
            `F_WALK_LINK (rsn_done[f_mod(f_optr + fa - 1)]);
end
`undef F_WALK_LINK

// each slot's first-record flag as the record made into it had it
reg [NREC-1:0] f_fs = {NREC{1'b0}};
integer fc;
always @(posedge clk)
    if (sa_valid)
        for (fc = 0; fc < KMAX; fc = fc + 1)
            if (fc < sa_ndec)
                f_fs[f_mod(f_mod(f_optr + f_npend) + fc)] <= sa_rfirst[fc];

// the outputs' model, one cycle on
reg [4:0] f_sl_optr = 5'd0, f_sl_tot = 5'd0;
reg f_sl_end = 1'b0, f_sl_last = 1'b0, f_prev_rst = 1'b1;
always @(posedge clk) begin
    if (sa_valid) begin
        f_optr <= f_mod(f_optr + {2'b00, rsn_npush});
        f_npend <= f_tot - {2'b00, rsn_npush};
    end
    f_sl_optr <= f_optr;
    f_sl_tot <= sa_valid ? f_tot : 5'd0;
    f_sl_end <= sa_last || sa_stop;
    f_sl_last <= sa_last;
    f_prev_rst <= rst;
    if (rst) begin
        f_optr <= 5'd0;
        f_npend <= 5'd0;
    end
end

integer fk;
reg [4:0] f_s;
always @* begin
    if (!rst) begin
        assert (f_optr < F_N);
        assert (f_npend <= F_N);
        // the slots as the model says (induction invariants)
        for (fk = 0; fk < NREC; fk = fk + 1) begin
            f_s = f_mod(f_optr + fk);
            assert (rs_pend[f_s] == (fk < f_npend));
            assert (rs_rk[f_s*RW +: RW] == f_mod(fk + F_N - f_npend));
            if (f_npend != 5'd0)
                assert (rs_isnew[f_s] == (fk == f_npend - 5'd1));
            if (fk < f_npend)
                assert (rs_first[f_s] == f_fs[f_s]);
        end
    end
    if (!rst && f_past_valid && !f_prev_rst) begin
        assert (sl_npush <= F_N);
        if (!sl_valid)
            assert (sl_npush == 3'd0);
        // only records made leave, all of them in a frame's last beat
        assert (sl_npush <= f_sl_tot);
        if (sl_valid && f_sl_last)
            assert (sl_npush == f_sl_tot);
        // the last record of the frame: the newest record leaves only once
        // the walk is over, and then marked
        for (fk = 0; fk < NREC; fk = fk + 1)
            if (fk < sl_npush) begin
                assert (fk != f_sl_tot - 5'd1 || f_sl_end);
                assert (sl_lastf[f_mod(f_sl_optr + fk)] == (f_sl_end && fk == f_sl_tot - 5'd1));
                // and each leaving record's first flag is its own (wk_rfirst)
                assert (rs_first[f_mod(f_sl_optr + fk)] == f_fs[f_mod(f_sl_optr + fk)]);
            end
    end
end

// covers: a record waiting for its header over a beat; NREC records
// leaving in one beat; a frame's last record marked in a beat without
// wk_last (the walk ended by a short ULPDU); a frame with no record
reg f_any = 1'b0;           // the frame in stage sa made a record
always @(posedge clk) begin
    if (sa_valid)
        f_any <= !sa_last && (f_any || sa_ndec != 3'd0);
    if (rst)
        f_any <= 1'b0;
end
always @* begin
    if (!rst && f_past_valid && !f_prev_rst) begin
        cover (sl_valid && sl_npush == 3'd0 && f_sl_tot != 5'd0);
        cover (sl_valid && sl_npush == F_N);
        cover (sl_valid && !f_sl_last && |sl_lastf && sl_npush != 3'd0);
    end
    if (!rst)
        cover (sa_valid && sa_last && !f_any && sa_ndec == 3'd0);
end
`endif

endmodule

`resetall
