// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_walk_fpdu: the FPDU slots of the FPDU walker (mpa_rx_walk). Each
 * FPDU the walk finds goes to one of NCRC slots, each feeding one crc32c
 * engine, so that FPDUs sharing a beat are checked side by side; each slot
 * also checks the FPDUPTR of every marker in its FPDU.
 *
 * Input: one beat per cycle with wk_valid (no stall), as mpa_rx_walk_step
 * hands it on (stage wk): its ranks (wk_ndec, wk_ros, wk_rE, wk_rsmall),
 * wk_carried, wk_pend and the beat's marker (wk_mkany, wk_om, wk_ptr);
 * with it the beat itself at stage wk: wk_last, wk_data, wk_pmask, wk_B,
 * wk_Bn and wk_con (crc_on).
 *
 * Slots: NCRC = 1 + ceil((WPB - 1) / 5) (2 up to 128 bits, 3 at 256, 4
 * at 512). The FPDUs take slots in the order they start, FPDU i (counted
 * from reset) slot i mod NCRC: in each beat rank 0 (unless wk_carried: it
 * is the FPDU the previous beat's wk_pend opened), ranks 1 .. wk_ndec - 1,
 * then the wk_pend FPDU. (FPDUs of 5 words or more cannot make two FPDUs
 * of one slot share a beat.) A slot feeds its engine the FPDU's words,
 * first word (a leading marker included) to the last CRC word, the
 * FPDU's end being its rank's wk_rE; tlast in the beat of its last word,
 * or of the frame's last beat (an FPDU still open there), or of its
 * ULPDU_Length word when that is small (ULPDU_Length < 14: the walk stops
 * there; the result of an FPDU closed early is not checked). Before its
 * end is known (a wk_pend FPDU) it takes every word from its first on.
 *
 * Output, one cycle after stage sa, that is 2 cycles after the beat's
 * stage wk (stage sl):
 *   m_axis_tdata                the beat (shared by the engines)
 *   m_axis_tvalid, m_axis_tlast per slot k: slot k's FPDU has words in the
 *                               beat / ends in it
 *   m_axis_tkeep                per slot (KEEP bits each): its words, 4
 *                               octets each
 *   sl_chk                      per slot: a checked FPDU ends here (its
 *                               CRC word is payload, ULPDU_Length >= 14),
 *                               and crc_on: its engine result is to be
 *                               checked
 *   sl_mkerr, sl_rfc, sl_draft  per slot, when a checked FPDU ends here
 *                               (with crc_on or not): a marker in it has
 *                               a wrong FPDUPTR / all are right and its
 *                               later markers (after a leading one) use
 *                               the RFC 5044 form / the draft-01 form
 * A marker at word offset d from the FPDU's first word has the right
 * FPDUPTR (& ~3) when FPDUPTR / 4 == d (the FPDU's leading marker: d = 0);
 * in an FPDU that begins with a marker, a later marker may also have
 * FPDUPTR / 4 == d - 1 (RFC 5044, from the ULPDU_Length field; d is then
 * the draft-01 form). The later markers of one FPDU must all use one form.
 * Latency: 2 cycles.
 */
module mpa_rx_walk_fpdu #(
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
    input  wire                      wk_con,
    input  wire [2:0]                wk_ndec,
    input  wire [((DATA_WIDTH/32+4)/5)*$clog2(DATA_WIDTH/32)-1:0] wk_ros,
    input  wire [((DATA_WIDTH/32+4)/5)*16-1:0] wk_rE,
    input  wire [(DATA_WIDTH/32+4)/5-1:0] wk_rsmall,
    input  wire                      wk_carried,
    input  wire                      wk_pend,
    input  wire                      wk_mkany,
    input  wire [$clog2(DATA_WIDTH/32)-1:0] wk_om,
    input  wire [13:0]               wk_ptr,

    output wire [DATA_WIDTH-1:0]     m_axis_tdata,
    output wire [(1+(DATA_WIDTH/32+3)/5)*DATA_WIDTH/8-1:0] m_axis_tkeep,
    output wire [(1+(DATA_WIDTH/32+3)/5)-1:0] m_axis_tvalid,
    output wire [(1+(DATA_WIDTH/32+3)/5)-1:0] m_axis_tlast,
    output reg  [(1+(DATA_WIDTH/32+3)/5)-1:0] sl_chk = 0,
    output reg  [(1+(DATA_WIDTH/32+3)/5)-1:0] sl_mkerr = 0,
    output reg  [(1+(DATA_WIDTH/32+3)/5)-1:0] sl_rfc = 0,
    output reg  [(1+(DATA_WIDTH/32+3)/5)-1:0] sl_draft = 0
);

`include "mpa_rx_walk.vh"

// ================================================================ stage sa
// The FPDUs of the beat go to slots; everything an FPDU needs from its own
// beat is worked out here per candidate, in parallel, and handed to the
// slot it goes to. Slot arithmetic is modulo NCRC (2 to 4) of sums below
// twice the modulus: one compare and subtract.
localparam [4:0] NCRC5 = NCRC[4:0];

// (base + add) mod NCRC, base < NCRC, add <= NCRC.
function [SW-1:0] eng_add(input [SW-1:0] base, input [3:0] add);
    /* verilator lint_off UNUSEDSIGNAL */
    reg [4:0] t;
    /* verilator lint_on UNUSEDSIGNAL */
    begin
        t = {{(5-SW){1'b0}}, base} + {1'b0, add};
        if (t >= NCRC5)
            t = t - NCRC5;
        eng_add = t[SW-1:0];
    end
endfunction

// Slot of rank i of this beat's ULPDU_Length words (rank 0 of a carried
// FPDU started in the previous beat, in the slot before sp); i <= KMAX <=
// NCRC.
function [SW-1:0] eng_slot(input [SW-1:0] base, input carried, input [3:0] i);
    reg [SW-1:0] b;
    begin
        b = (carried && base == {SW{1'b0}}) ? NCRC5[SW-1:0] - 1'b1 : base - {{(SW-1){1'b0}}, carried};
        eng_slot = eng_add(b, i);
    end
endfunction

// eng_slot(base, carried, i) == k, written as a match of (base, carried)
// against the pairs that give k: with i and k constant (loop indices) it
// is one LUT of the SW + 1 register bits, with no adder (a CARRY4) before
// the slot selects.
function slot_hit(input [SW-1:0] base, input carried, input [3:0] i, input [SW-1:0] k);
    integer hb, hc;
    begin
        slot_hit = 1'b0;
        for (hb = 0; hb < (1 << SW); hb = hb + 1)
            for (hc = 0; hc < 2; hc = hc + 1)
                if (base == hb[SW-1:0] && carried == hc[0] && eng_slot(hb[SW-1:0], hc[0], i) == k)
                    slot_hit = 1'b1;
    end
endfunction

// om - ptr == os + one (ptr a 14-bit word distance, om and os word offsets
// in the beat, one 0 or 1) without a subtract: it holds iff ptr is the word
// offset om - os - one >= 0, compared by cases of (om, os), so that the
// marker checks are LUTs of registers with no carry chain before the slot
// selects.
function ptr_is(input [LW-1:0] om, input [LW-1:0] os, input [13:0] ptr, input one);
    integer pv, po, pd;
    reg hit;
    begin
        hit = 1'b0;
        for (pv = 0; pv < WPB; pv = pv + 1)
            for (po = 0; po < WPB; po = po + 1) begin
                pd = pv - po - (one ? 1 : 0);
                hit = hit | (pd >= 0 && om == pv[LW-1:0] && os == po[LW-1:0] && ptr[LW-1:0] == pd[LW-1:0]);
            end
        ptr_is = hit && ptr[13:LW] == {(14-LW){1'b0}};
    end
endfunction

reg [SW-1:0] sp = 0;        // slot of the next FPDU to start

// Per candidate c (rank c < KMAX, or c == KMAX: an FPDU that starts with
// a marker in the beat's last word): values for the slot that opens it
// (os-derived) and for the slot whose FPDU's ULPDU_Length word it is.
reg [PW-1:0] sac_mq, sac_mqr, sac_Em1;
reg [LW-1:0] sac_os;
reg [(KMAX+1)*PW-1:0] sac_Sopen;
reg [(KMAX+1)*WPB-1:0] sac_fwm;
reg [KMAX+1-1:0] sac_lead, sac_okp, sac_eqr, sac_dnz;
reg [KMAX*PW-1:0] sac_Em1v;
reg [KMAX*WPB-1:0] sac_lwm;
reg [KMAX-1:0] sac_endin, sac_lpay;
// Per slot.
reg [NCRC-1:0] sas_dec, sas_open, sas_small, sas_endin, sas_lpay, sas_lead, sas_okp, sas_eqr, sas_dnz;
reg [NCRC*PW-1:0] sas_Sopen, sas_Em1;
reg [NCRC*WPB-1:0] sas_fwm, sas_lwm;
reg [KMAX:0] sas_m;         // which candidate opens the slot
reg [SW-1:0] sas_sp;
reg sas_pm;
integer sc, sk, sj, sq, sg, sf;

// The marker pointer checks per candidate (a block of their own):
// om - ptr == os (okp) and om - ptr - 1 == os, as om - ptr == os + 1 (eqr).
always @* begin
    for (sq = 0; sq <= KMAX; sq = sq + 1) begin
        sac_okp[sq] = ptr_is(wk_om, sq < KMAX ? wk_ros[sq*LW +: LW] : {LW{1'b1}}, wk_ptr, 1'b0);
        sac_eqr[sq] = ptr_is(wk_om, sq < KMAX ? wk_ros[sq*LW +: LW] : {LW{1'b1}}, wk_ptr, 1'b1);
    end
end

// Per rank, the words up to its last ULPDU octet's word (sac_lwm) and
// whether that word is payload (sac_lpay). With E's word offset e = E mod
// WPB the last word (E - 1) mod WPB is e - 1, or WPB - 1 for e == 0:
// compares of e with constants, no decrement before them.
always @* begin
    sac_lwm = 0;
    sac_lpay = 0;
    for (sq = 0; sq < KMAX; sq = sq + 1)
        for (sg = 0; sg < WPB; sg = sg + 1) begin
            if (wk_rE[sq*PW +: LW] == sg[LW-1:0])
                sac_lpay[sq] = wk_pmask[(sg + WPB - 1) % WPB];
            sac_lwm[sq*WPB + sg] = wk_rE[sq*PW +: LW] == {LW{1'b0}};
            for (sf = sg + 1; sf < WPB; sf = sf + 1)
                if (wk_rE[sq*PW +: LW] == sf[LW-1:0])
                    sac_lwm[sq*WPB + sg] = 1'b1;
        end
end

always @* begin
    // Markers: FPDUPTR/4 == (marker word) - (FPDU's first word) reads
    // om - ptr == os for an FPDU opened in this beat at word os, and
    // B + om - ptr == S for one opened earlier at word S.
    sac_mq = {{(PW-LW){1'b0}}, wk_om} - {2'b00, wk_ptr};
    sac_mqr = sac_mq - 1'b1;
    sac_Sopen = 0;
    sac_fwm = 0;
    sac_lead = 0;
    sac_dnz = 0;
    sac_Em1v = 0;
    sac_endin = 0;
    for (sc = 0; sc <= KMAX; sc = sc + 1) begin
        sac_os = sc < KMAX ? wk_ros[sc*LW +: LW] : {LW{1'b1}};
        sac_Sopen[sc*PW +: PW] = wk_B + {{(PW-LW){1'b0}}, sac_os};
        for (sj = 0; sj < WPB; sj = sj + 1)
            sac_fwm[sc*WPB + sj] = sj >= sac_os;
        sac_lead[sc] = wk_mkany && wk_om == sac_os;
        sac_dnz[sc] = wk_om != sac_os;
        if (sc < KMAX) begin
            sac_Em1 = wk_rE[sc*PW +: PW] - 1'b1;
            sac_Em1v[sc*PW +: PW] = sac_Em1;
            sac_endin[sc] = sac_Em1[PW-1:LW] == wk_B[PW-1:LW];
        end
    end

    // What this beat brings to each slot.
    sas_dec = 0;
    sas_open = 0;
    sas_small = 0;
    sas_endin = 0;
    sas_lpay = 0;
    sas_lead = 0;
    sas_okp = 0;
    sas_eqr = 0;
    sas_dnz = 0;
    sas_Sopen = 0;
    sas_Em1 = 0;
    sas_fwm = {(NCRC*WPB){1'b1}};
    sas_lwm = 0;
    for (sk = 0; sk < NCRC; sk = sk + 1) begin
        sas_m = 0;
        for (sc = 0; sc < KMAX; sc = sc + 1) begin
            if (wk_valid && sc < wk_ndec && slot_hit(sp, wk_carried, sc[3:0], sk[SW-1:0])) begin
                sas_dec[sk] = 1'b1;
                sas_small[sk] = wk_rsmall[sc];
                sas_endin[sk] = sac_endin[sc];
                sas_lpay[sk] = sac_lpay[sc];
                sas_Em1[sk*PW +: PW] = sac_Em1v[sc*PW +: PW];
                sas_lwm[sk*WPB +: WPB] = sac_lwm[sc*WPB +: WPB];
                if (!(sc == 0 && wk_carried))
                    sas_m[sc] = 1'b1;
            end
        end
        sas_pm = 1'b0;
        for (sc = 0; sc < 8; sc = sc + 1)
            if (wk_ndec == sc[2:0] && slot_hit(sp, wk_carried, sc[3:0], sk[SW-1:0]))
                sas_pm = wk_valid && wk_pend;
        if (sas_pm)
            sas_m = 0;
        sas_m[KMAX] = sas_pm;
        sas_open[sk] = |sas_m;
        for (sc = 0; sc <= KMAX; sc = sc + 1) begin
            if (sas_m[sc]) begin
                sas_Sopen[sk*PW +: PW] = sac_Sopen[sc*PW +: PW];
                sas_fwm[sk*WPB +: WPB] = sac_fwm[sc*WPB +: WPB];
                sas_lead[sk] = sac_lead[sc];
                sas_okp[sk] = sac_okp[sc];
                sas_eqr[sk] = sac_eqr[sc];
                sas_dnz[sk] = sac_dnz[sc];
            end
        end
    end
    sas_sp = wk_valid ? eng_slot(sp, wk_carried, {1'b0, wk_ndec} + {3'd0, wk_pend}) : sp;
end

// The beat at stage sa, and its data at stage sl.
wire sa_valid, sa_last, sa_con;
wire [DATA_WIDTH-1:0] sa_data;
wire [WPB-1:0] sa_pmask;
wire [PW-LW-1:0] sa_Bn;
mpa_rx_delay #(
    .WIDTH(3 + DATA_WIDTH + WPB + PW - LW),
    .DEPTH(1)
) u_wk_sa (
    .clk(clk),
    .rst(rst),
    .in_data({wk_valid, wk_last, wk_con, wk_data, wk_pmask, wk_Bn}),
    .out_data({sa_valid, sa_last, sa_con, sa_data, sa_pmask, sa_Bn})
);
mpa_rx_delay #(
    .WIDTH(DATA_WIDTH),
    .DEPTH(1)
) u_sa_sl (
    .clk(clk),
    .rst(rst),
    .in_data(sa_data),
    .out_data(m_axis_tdata)
);

reg [WPB-1:0] sa_mk = 0;
reg [PW-1:0] sa_mp = 0, sa_mpr = 0, sa_moff = 0;
reg [NCRC-1:0] sa_dec = 0, sa_open = 0, sa_small = 0, sa_endin = 0, sa_lpay = 0;
reg [NCRC-1:0] sa_lead = 0, sa_okp = 0, sa_eqr = 0, sa_dnz = 0;
reg [NCRC*PW-1:0] sa_Sopen = 0, sa_Em1 = 0;
reg [NCRC*WPB-1:0] sa_fwm = 0, sa_lwm = 0;

always @(posedge clk) begin
    if (wk_valid)
        sp <= sas_sp;
    for (sj = 0; sj < WPB; sj = sj + 1)
        sa_mk[sj] <= wk_mkany && wk_om == sj[LW-1:0];
    sa_mp <= wk_B + sac_mq;
    sa_mpr <= wk_B + sac_mqr;
    sa_moff <= wk_B + {{(PW-LW){1'b0}}, wk_om};
    sa_dec <= sas_dec;
    sa_open <= sas_open;
    sa_small <= sas_small;
    sa_endin <= sas_endin;
    sa_lpay <= sas_lpay;
    sa_lead <= sas_lead;
    sa_okp <= sas_okp;
    sa_eqr <= sas_eqr;
    sa_dnz <= sas_dnz;
    sa_Sopen <= sas_Sopen;
    sa_Em1 <= sas_Em1;
    sa_fwm <= sas_fwm;
    sa_lwm <= sas_lwm;
    if (rst)
        sp <= 0;
end

// ================================================================ stage sl
// Per slot: engine inputs and marker checks. fs_* is a slot's FPDU as
// known after the beats before: open (fs_act), its first word (fs_S), its
// last word (fs_Em1, known with fs_Ek) and whether that is in the next
// beat (fs_endn), small, its words up to the last in that beat (fs_lwm),
// its leading marker (fs_lead), a later marker in the RFC 5044 / draft-01
// form (fs_frfc / fs_fdraft: the forms differ only then), a marker error.
reg [NCRC-1:0] fs_act = 0, fs_Ek = 0, fs_small = 0, fs_mkerr = 0, fs_endn = 0;
reg [NCRC-1:0] fs_lead = 0, fs_frfc = 0, fs_fdraft = 0;
reg [NCRC*PW-1:0] fs_S = 0, fs_Em1 = 0;
reg [NCRC*WPB-1:0] fs_lwm = 0;

reg [NCRC-1:0] fsn_act, fsn_Ek, fsn_small, fsn_mkerr, fsn_endn;
reg [NCRC-1:0] fsn_tvalid, fsn_tlast, fsn_chk;
reg [NCRC-1:0] fsn_lead, fsn_frfc, fsn_fdraft;
reg [NCRC*KEEP-1:0] fsn_keep;
reg [NCRC*PW-1:0] fsn_S, fsn_Em1;
reg [NCRC*WPB-1:0] fsn_lwmv;
reg [WPB-1:0] fsn_lwm, fsn_kw;
reg fsn_open, fsn_dec, fsn_active, fsn_endin, fsn_lpay, fsn_cover, fsn_okp, fsn_okr, fsn_dnz, fsn_eqr;
integer lk, lj;

always @* begin
    fsn_act = 0;
    fsn_Ek = 0;
    fsn_small = 0;
    fsn_mkerr = 0;
    fsn_endn = 0;
    fsn_lead = 0;
    fsn_frfc = 0;
    fsn_fdraft = 0;
    fsn_tvalid = 0;
    fsn_tlast = 0;
    fsn_chk = 0;
    fsn_keep = 0;
    fsn_S = 0;
    fsn_Em1 = 0;
    fsn_lwmv = 0;
    for (lk = 0; lk < NCRC; lk = lk + 1) begin
        fsn_open = sa_open[lk];
        fsn_dec = sa_dec[lk];
        fsn_S[lk*PW +: PW] = fsn_open ? sa_Sopen[lk*PW +: PW] : fs_S[lk*PW +: PW];
        fsn_Em1[lk*PW +: PW] = fsn_dec ? sa_Em1[lk*PW +: PW] : fs_Em1[lk*PW +: PW];
        fsn_lwmv[lk*WPB +: WPB] = fsn_dec ? sa_lwm[lk*WPB +: WPB] : fs_lwm[lk*WPB +: WPB];
        fsn_small[lk] = fsn_dec ? sa_small[lk] : fs_small[lk] && !fsn_open;
        fsn_Ek[lk] = fsn_dec || (fs_Ek[lk] && !fsn_open);
        fsn_active = (fs_act[lk] && sa_valid) || fsn_open;
        // The FPDU's last word (its CRC) is in this beat. An FPDU carried
        // from an earlier beat is in the same frame, so this beat is the
        // one after that beat.
        fsn_endin = fsn_dec ? sa_endin[lk] : fs_Ek[lk] && !fsn_open && fs_endn[lk];
        fsn_lwm = fsn_endin ? fsn_lwmv[lk*WPB +: WPB] : {WPB{1'b1}};
        fsn_kw = fsn_active ? sa_fwm[lk*WPB +: WPB] & fsn_lwm : {WPB{1'b0}};
        for (lj = 0; lj < WPB; lj = lj + 1)
            fsn_keep[lk*KEEP + 4*lj +: 4] = {4{fsn_kw[lj]}};
        fsn_tvalid[lk] = fsn_active;
        fsn_tlast[lk] = fsn_endin || sa_last || (fsn_dec && sa_small[lk]);
        fsn_act[lk] = fsn_active && !fsn_tlast[lk];
        // A whole checked FPDU ends here: its CRC word is payload.
        fsn_lpay = sa_lpay[lk];
        if (!fsn_dec)
            for (lj = 0; lj < WPB; lj = lj + 1)
                if (fs_Em1[lk*PW +: LW] == lj[LW-1:0])
                    fsn_lpay = sa_pmask[lj];
        fsn_chk[lk] = fsn_active && fsn_endin && fsn_lpay && !fsn_small[lk];
        fsn_endn[lk] = fsn_Em1[lk*PW + LW +: PW-LW] == sa_Bn;

        // Marker check: the marker in this FPDU's words of the beat, d
        // words from the FPDU's first word. d == FPDUPTR/4 is right for
        // every marker (the leading one: d = 0 = FPDUPTR); after a leading
        // marker, d - 1 (RFC 5044: from the ULPDU_Length word) is right
        // too, and d is then the draft-01 form.
        fsn_cover = |(sa_mk & fsn_kw);
        fsn_lead[lk] = fsn_open ? sa_lead[lk] : fs_lead[lk];
        fsn_okp = fsn_open ? sa_okp[lk] : sa_mp == fs_S[lk*PW +: PW];
        fsn_eqr = fsn_open ? sa_eqr[lk] : sa_mpr == fs_S[lk*PW +: PW];
        fsn_dnz = fsn_open ? sa_dnz[lk] : sa_moff != fs_S[lk*PW +: PW];
        fsn_okr = fsn_lead[lk] && fsn_dnz && fsn_eqr;
        fsn_frfc[lk] = (fs_frfc[lk] && !fsn_open) || (fsn_cover && fsn_okr);
        fsn_fdraft[lk] = (fs_fdraft[lk] && !fsn_open) || (fsn_cover && fsn_okp && fsn_lead[lk] && fsn_dnz);
        fsn_mkerr[lk] = (fs_mkerr[lk] && !fsn_open) || (fsn_cover && !fsn_okp && !fsn_okr) ||
            (fsn_frfc[lk] && fsn_fdraft[lk]);  // the forms mixed in one FPDU
    end
end

reg [NCRC-1:0] sl_tvalid = 0, sl_tlast = 0;
reg [NCRC*KEEP-1:0] sl_keep = 0;
assign m_axis_tvalid = sl_tvalid;
assign m_axis_tlast = sl_tlast;
assign m_axis_tkeep = sl_keep;

always @(posedge clk) begin
    if (sa_valid) begin
        fs_act <= fsn_act;
        fs_S <= fsn_S;
        fs_Em1 <= fsn_Em1;
        fs_lwm <= fsn_lwmv;
        fs_endn <= fsn_endn;
        fs_Ek <= fsn_Ek;
        fs_small <= fsn_small;
        fs_mkerr <= fsn_mkerr;
        fs_lead <= fsn_lead;
        fs_frfc <= fsn_frfc;
        fs_fdraft <= fsn_fdraft;
    end
    sl_tvalid <= fsn_tvalid;
    sl_tlast <= fsn_tlast;
    sl_keep <= fsn_keep;
    sl_chk <= sa_con ? fsn_chk : {NCRC{1'b0}};
    sl_mkerr <= fsn_chk & fsn_mkerr;
    sl_rfc <= fsn_chk & ~fsn_mkerr & fsn_frfc;
    sl_draft <= fsn_chk & ~fsn_mkerr & fsn_fdraft;
    if (rst) begin
        fs_act <= 0;
        fs_Ek <= 0;
        fs_small <= 0;
        fs_mkerr <= 0;
        fs_lead <= 0;
        fs_frfc <= 0;
        fs_fdraft <= 0;
        fs_S <= 0;
        fs_Em1 <= 0;
        fs_lwm <= 0;
        fs_endn <= 0;
        sl_tvalid <= 0;
    end
end

endmodule

`resetall
