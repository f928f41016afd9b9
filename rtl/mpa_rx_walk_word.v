// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_walk_word: the per-word decode of the FPDU walker (mpa_rx_walk).
 * For every word j of a beat it works out, as if word j held an FPDU's
 * ULPDU_Length field, where that FPDU ends and where the next one's
 * ULPDU_Length field is, markers included; and per beat where the payload
 * starts and ends. The walk across beats (mpa_rx_walk_chain,
 * mpa_rx_walk_step) only selects among these.
 *
 * Input: the word view, one beat per cycle when w_valid (never stalls):
 * word k of a frame holds frame octets 4k-2 .. 4k+1, word j of a beat is
 * w_data[32j+31:32j], its first wire octet in bits [7:0]; w_pmask marks the
 * TCP payload words (one contiguous run per frame, possibly empty).
 * seg_seq (the sequence number of the first payload octet), seq_start (the
 * base of the marker grid), markers_on and crc_on are read with every beat
 * (used from the frame's first payload beat on).
 *
 * Positions are frame word indices modulo 2^16 (PW bits). The marker grid:
 * word w of a frame whose payload starts at word p0 holds sequence number
 * s = seg_seq + 4 (w - p0); it is a marker position when markers_on and
 * (s - seq_start) mod 512 < 4 (when seg_seq - seq_start is not a multiple
 * of 4, the word that holds the marker position counts: fe_grid is then 0
 * and the frame goes to software anyway). The grid phase of a beat before
 * the frame's first payload beat is the previous beat's plus WPB words, so
 * its per-word outputs that depend on markers mean nothing.
 *
 * Output, the beat in the fe_* registers (stage "fe") 4 cycles after it
 * was on the input (fe_valid; the other outputs are don't care when it is
 * low):
 *   fe_first, fe_last   the frame's first and last beat
 *   fe_pfirst           the frame's first beat with a payload word
 *   fe_data, fe_pmask   the beat, as it came in
 *   fe_B, fe_Bn         position of word 0 of the beat; fe_B / WPB + 1
 *                       (PW - LW bits: the next beat's base, in beats)
 *   fe_con              crc_on
 *   fe_grid             !markers_on || (seg_seq - seq_start) mod 4 == 0
 *   fe_mkP0             markers_on and the first payload word is a marker
 *                       position (seg_seq - seq_start) mod 512 < 4
 *   fe_P0               fe_B + j0, j0 the beat's first payload word (0
 *                       without one)
 *   fe_nL0              fe_P0 + fe_mkP0: the first ULPDU_Length word
 *   fe_hit0, fe_nL0n    fe_nL0 is in this beat / is in the next beat
 *                       (fe_mkP0 and j0 == WPB - 1)
 *   fe_Pendx            fe_B + hi + 1, hi the beat's last payload word (0
 *                       without one)
 * and per word j (field j of each vector), as if word j held a
 * ULPDU_Length n (octets 0 and 1 of the word, big endian), with
 * c = ceil((n + 2) / 4) + 1 content words (length, ULPDU, pad, CRC), the
 * markers that fall among them counted in (a marker right after the CRC
 * word belongs to the next FPDU):
 *   fe_E      position of the first word after that FPDU
 *   fe_nL     fe_E, plus 1 when fe_E is a marker position: the next
 *             FPDU's ULPDU_Length word
 *   fe_small  n < 14
 *   fe_fm     a marker position falls among the c content words
 *   fe_mk     word j is a marker position
 *   fe_mkprev word j - 1 is a marker position
 *   fe_hs     3 bits: the index (0 to 3) of the first of the four header
 *             words after word j that comes after a marker position within
 *             them (the header skips it), 4 when no marker is among words
 *             j + 1 .. j + 4
 * (word j's marker test uses the phase of word j; fe_fm, fe_mk, fe_mkprev
 * and fe_hs are 0 or 4 when markers_on is 0).
 *
 * Stages: in (input register, payload start, grid phase), cl (content
 * length, marker distance), wl (FPDU length in words, markers included),
 * fe (FPDU end). Latency: 4 cycles.
 */
module mpa_rx_walk_word #(
    // Width of the word view (64, 128, 256 or 512).
    parameter DATA_WIDTH = 64
) (
    input  wire                      clk,
    input  wire                      rst,

    input  wire [31:0]               seg_seq,
    input  wire [31:0]               seq_start,
    input  wire                      markers_on,
    input  wire                      crc_on,

    input  wire                      w_valid,
    input  wire [DATA_WIDTH-1:0]     w_data,
    input  wire [DATA_WIDTH/32-1:0]  w_pmask,
    input  wire                      w_last,

    output wire                      fe_valid,
    output wire                      fe_first,
    output wire                      fe_last,
    output wire                      fe_pfirst,
    output wire [DATA_WIDTH-1:0]     fe_data,
    output wire [DATA_WIDTH/32-1:0]  fe_pmask,
    output wire [15:0]               fe_B,
    output reg  [15-$clog2(DATA_WIDTH/32):0] fe_Bn = 0,
    output wire                      fe_con,
    output wire                      fe_grid,
    output wire                      fe_mkP0,
    output reg  [15:0]               fe_P0 = 16'd0,
    output reg  [15:0]               fe_nL0 = 16'd0,
    output reg                       fe_hit0 = 1'b0,
    output reg                       fe_nL0n = 1'b0,
    output reg  [15:0]               fe_Pendx = 16'd0,
    output wire [16*DATA_WIDTH/32-1:0] fe_E,
    output wire [16*DATA_WIDTH/32-1:0] fe_nL,
    output wire [DATA_WIDTH/32-1:0]  fe_small,
    output wire [DATA_WIDTH/32-1:0]  fe_fm,
    output wire [DATA_WIDTH/32-1:0]  fe_mk,
    output wire [DATA_WIDTH/32-1:0]  fe_mkprev,
    output wire [3*DATA_WIDTH/32-1:0] fe_hs
);

`include "mpa_rx_walk.vh"

// ================================================================ stage in
reg in_valid = 1'b0, in_first = 1'b0, in_last = 1'b0, in_pfirst = 1'b0;
reg [DATA_WIDTH-1:0] in_data = 0;
reg [WPB-1:0] in_pmask = 0;
reg [PW-1:0] in_B = 0;
reg [6:0] in_mw = 7'd0;
reg in_mon = 1'b0, in_con = 1'b0, in_grid = 1'b0;
reg frame_open = 1'b0;      // a beat of the frame was taken, not its last
reg pay_seen = 1'b0;        // ... and one of them had a payload word

// Only the offset modulo 512 matters (the marker grid).
/* verilator lint_off UNUSEDSIGNAL */
wire [31:0] seq_off = seg_seq - seq_start;
/* verilator lint_on UNUSEDSIGNAL */

always @(posedge clk) begin
    in_valid <= w_valid;
    if (w_valid) begin
        in_data <= w_data;
        in_pmask <= w_pmask;
        in_last <= w_last;
        in_first <= !frame_open;
        in_pfirst <= inn_pfirst;
        in_B <= frame_open ? in_B + WPB[PW-1:0] : {PW{1'b0}};
        in_mw <= seq_off[8:2];
        in_mon <= markers_on;
        in_con <= crc_on;
        in_grid <= !markers_on || seq_off[1:0] == 2'd0;
        frame_open <= !w_last;
        pay_seen <= (frame_open && pay_seen) || (|w_pmask);
    end
    if (rst) begin
        in_valid <= 1'b0;
        frame_open <= 1'b0;
        pay_seen <= 1'b0;
    end
end

// First and last payload word of the beat.
reg [LW-1:0] in_j0, in_hi;
integer ij;
always @* begin
    in_j0 = {LW{1'b0}};
    in_hi = {LW{1'b0}};
    for (ij = WPB - 1; ij >= 0; ij = ij - 1)
        if (in_pmask[ij])
            in_j0 = ij[LW-1:0];
    for (ij = 0; ij < WPB; ij = ij + 1)
        if (in_pmask[ij])
            in_hi = ij[LW-1:0];
end

// Marker grid phase: word 0 of the beat is in_ph words past a marker
// position (mod 128). Payload word 0 is ((seg_seq - seq_start) mod 512) / 4.
// Worked out as the beat enters stage in (ph_next: the phase of the beat
// after the last one).
reg [LW-1:0] inn_j0;
integer nj;
always @* begin
    inn_j0 = {LW{1'b0}};
    for (nj = WPB - 1; nj >= 0; nj = nj - 1)
        if (w_pmask[nj])
            inn_j0 = nj[LW-1:0];
end
wire inn_pfirst = (|w_pmask) && !(frame_open && pay_seen);
reg [6:0] ph_next = 7'd0, in_ph = 7'd0;
wire [6:0] inn_ph = inn_pfirst ? seq_off[8:2] - {{(7-LW){1'b0}}, inn_j0} : ph_next;

always @(posedge clk) begin
    if (w_valid) begin
        in_ph <= inn_ph;
        ph_next <= inn_ph + WPB[6:0];
    end
    if (rst)
        ph_next <= 7'd0;
end

// The beat through stages cl and wl.
wire wl_valid, wl_first, wl_last, wl_pfirst, wl_mon, wl_con, wl_grid, wl_mkP0;
wire [DATA_WIDTH-1:0] wl_data;
wire [WPB-1:0] wl_pmask;
wire [PW-1:0] wl_B;
wire [LW-1:0] wl_j0, wl_hi;
mpa_rx_delay #(
    .WIDTH(8 + DATA_WIDTH + WPB + PW + 2*LW),
    .DEPTH(2)
) u_in_wl (
    .clk(clk),
    .rst(rst),
    .in_data({in_valid, in_first, in_last, in_pfirst, in_mon, in_con, in_grid,
        in_mon && in_mw == 7'd0, in_data, in_pmask, in_B, in_j0, in_hi}),
    .out_data({wl_valid, wl_first, wl_last, wl_pfirst, wl_mon, wl_con, wl_grid,
        wl_mkP0, wl_data, wl_pmask, wl_B, wl_j0, wl_hi})
);

// ================================================================ stage cl
// Per word j, as if word j held a ULPDU_Length: content words c, grid
// offset g of the word, whether a marker falls inside the content (gt) and
// the parts of floor((c - r - 1) / 127) (r = words to the next marker).
wire [15*WPB-1:0] cl_c;
wire [7*WPB-1:0] cl_g;
wire [WPB-1:0] cl_gt, cl_mkprev;
wire [8*WPB-1:0] cl_a0;
wire [9*WPB-1:0] cl_y;
wire [3*WPB-1:0] cl_hs;

genvar gj;
generate
    for (gj = 0; gj < WPB; gj = gj + 1) begin : g_cl
        localparam [6:0] J7 = gj;
        wire [15:0] ulen = {in_data[32*gj +: 8], in_data[32*gj+8 +: 8]};
        /* verilator lint_off UNUSEDSIGNAL */
        wire [16:0] c5 = {1'b0, ulen} + 17'd5;
        /* verilator lint_on UNUSEDSIGNAL */
        wire [14:0] c = c5[16:2] + 15'd1;
        wire [6:0] g = in_ph + J7;
        wire [6:0] r = 7'd0 - g;
        wire gt = in_mon && c > {8'd0, r};
        wire [14:0] x = c - {8'd0, r} - 15'd1;
        reg [14:0] c_q = 0;
        reg [6:0] g_q = 0;
        reg gt_q = 1'b0, mkprev_q = 1'b0;
        reg [7:0] a0_q = 0;
        reg [8:0] y_q = 0;
        reg [2:0] hs_q = 0;
        always @(posedge clk) begin
            c_q <= c;
            g_q <= g;
            gt_q <= gt;
            mkprev_q <= in_mon && g == 7'd1;
            a0_q <= x[14:7];
            y_q <= {2'b0, x[6:0]} + {1'b0, x[14:7]};
            // Header word index from which a marker is skipped (4: none).
            hs_q <= (in_mon && r != 7'd0 && r <= 7'd4) ? r[2:0] - 3'd1 : 3'd4;
        end
        assign cl_c[15*gj +: 15] = c_q;
        assign cl_g[7*gj +: 7] = g_q;
        assign cl_gt[gj] = gt_q;
        assign cl_mkprev[gj] = mkprev_q;
        assign cl_a0[8*gj +: 8] = a0_q;
        assign cl_y[9*gj +: 9] = y_q;
        assign cl_hs[3*gj +: 3] = hs_q;
    end
endgenerate

// ================================================================ stage wl
// Per word: the FPDU's length in words, markers included.
wire [15*WPB-1:0] wl_cm;
wire [7*WPB-1:0] wl_g;
wire [WPB-1:0] wl_gt, wl_mkprev;
wire [3*WPB-1:0] wl_hs;

generate
    for (gj = 0; gj < WPB; gj = gj + 1) begin : g_wl
        wire [14:0] c = cl_c[15*gj +: 15];
        wire [7:0] a0 = cl_a0[8*gj +: 8];
        wire [8:0] y = cl_y[9*gj +: 9];
        wire [7:0] q = a0 + {7'd0, y >= 9'd127} + {7'd0, y >= 9'd254};
        wire [7:0] m = cl_gt[gj] ? q + 8'd1 : 8'd0;
        reg [14:0] cm_q = 0;
        reg [6:0] g_q = 0;
        reg gt_q = 1'b0, mkprev_q = 1'b0;
        reg [2:0] hs_q = 0;
        always @(posedge clk) begin
            cm_q <= c + {7'd0, m};
            g_q <= cl_g[7*gj +: 7];
            gt_q <= cl_gt[gj];
            mkprev_q <= cl_mkprev[gj];
            hs_q <= cl_hs[3*gj +: 3];
        end
        assign wl_cm[15*gj +: 15] = cm_q;
        assign wl_g[7*gj +: 7] = g_q;
        assign wl_gt[gj] = gt_q;
        assign wl_mkprev[gj] = mkprev_q;
        assign wl_hs[3*gj +: 3] = hs_q;
    end
endgenerate

// ================================================================ stage fe
// Per word j: FPDU end E (first word after it) and the position of the next
// ULPDU_Length word nL (after a marker at E), small, a marker inside the
// content (fm), marker flags.
generate
    for (gj = 0; gj < WPB; gj = gj + 1) begin : g_fe
        localparam [PW-1:0] JP = gj;
        wire [14:0] cm = wl_cm[15*gj +: 15];
        wire [6:0] g = wl_g[7*gj +: 7];
        wire [PW-1:0] e = wl_B + JP + {1'b0, cm};
        wire [6:0] ge = g + cm[6:0];
        wire mke = wl_mon && ge == 7'd0;
        wire [15:0] ulen = {wl_data[32*gj +: 8], wl_data[32*gj+8 +: 8]};
        reg [PW-1:0] e_q = 0, nl_q = 0;
        reg small_q = 1'b0, fm_q = 1'b0, mk_q = 1'b0, mkprev_q = 1'b0;
        reg [2:0] hs_q = 0;
        always @(posedge clk) begin
            e_q <= e;
            nl_q <= e + {{(PW-1){1'b0}}, mke};
            small_q <= ulen < 16'd14;
            fm_q <= wl_mon && wl_gt[gj];
            mk_q <= wl_mon && g == 7'd0;
            mkprev_q <= wl_mkprev[gj];
            hs_q <= wl_hs[3*gj +: 3];
        end
        assign fe_E[PW*gj +: PW] = e_q;
        assign fe_nL[PW*gj +: PW] = nl_q;
        assign fe_small[gj] = small_q;
        assign fe_fm[gj] = fm_q;
        assign fe_mk[gj] = mk_q;
        assign fe_mkprev[gj] = mkprev_q;
        assign fe_hs[3*gj +: 3] = hs_q;
    end
endgenerate

// Per beat: the next beat's base, where the payload starts and ends.
wire [PW-1:0] wl_P0 = wl_B + {{(PW-LW){1'b0}}, wl_j0};
wire [PW-1:0] wl_nL0 = wl_P0 + {{(PW-1){1'b0}}, wl_mkP0};

always @(posedge clk) begin
    fe_Bn <= wl_B[PW-1:LW] + 1'b1;
    fe_P0 <= wl_P0;
    fe_nL0 <= wl_nL0;
    fe_hit0 <= wl_nL0[PW-1:LW] == wl_B[PW-1:LW];
    // wl_nL0 is wl_P0 or wl_P0 + 1, wl_P0 in the beat
    fe_nL0n <= wl_mkP0 && wl_j0 == {LW{1'b1}};
    fe_Pendx <= wl_B + {{(PW-LW){1'b0}}, wl_hi} + 1'b1;
end

mpa_rx_delay #(
    .WIDTH(7 + DATA_WIDTH + WPB + PW),
    .DEPTH(1)
) u_wl_fe (
    .clk(clk),
    .rst(rst),
    .in_data({wl_valid, wl_first, wl_last, wl_pfirst, wl_con, wl_grid, wl_mkP0,
        wl_data, wl_pmask, wl_B}),
    .out_data({fe_valid, fe_first, fe_last, fe_pfirst, fe_con, fe_grid, fe_mkP0,
        fe_data, fe_pmask, fe_B})
);

`ifdef FORMAL
// ------------------------------------------------------------------ formal
// Properties proven by `make formal` (docs/robustness.md, "Formal proofs"):
// the beat's flags reach stage fe exactly 4 cycles after the beat came:
// fe_valid is w_valid 4 cycles earlier (0 in the 4 cycles after a reset);
// with fe_valid, fe_last is that beat's w_last and fe_first is high
// exactly when it is its frame's first beat (no beat since reset or since
// the last beat with w_last); fe_B is the beat's first word index in its
// frame (WPB per beat before it); fe_pfirst high exactly for the frame's
// first beat with a payload word (so on at most one beat of a frame, what
// mpa_rx_walk_step assumes). Nothing is assumed of the inputs. The
// per-word decode (cl, wl, fe) is not stated: co-simulation's.
reg f_past_valid = 1'b0;
always @(posedge clk)
    f_past_valid <= 1'b1;
always @*
    if (!f_past_valid)
        assume (rst);

reg f_open = 1'b0;          // a beat of the frame came, not its last
reg [PW-1:0] f_B = {PW{1'b0}};      // the next beat's first word index
reg f_pay = 1'b0;           // ... and one of its beats had a payload word
reg [4*(4+PW)-1:0] f_sh = 0;        // {valid, last, first, pfirst, B} of the last 4 cycles
always @(posedge clk) begin
    f_sh <= {f_sh[3*(4+PW)-1:0], w_valid, w_last, !f_open, (|w_pmask) && !(f_open && f_pay),
        f_open ? f_B : {PW{1'b0}}};
    if (w_valid) begin
        f_open <= !w_last;
        f_pay <= (f_open && f_pay) || (|w_pmask);
        f_B <= (f_open ? f_B : {PW{1'b0}}) + WPB[PW-1:0];
    end
    if (rst) begin
        f_open <= 1'b0;
        f_pay <= 1'b0;
        f_sh <= 0;
    end
end
wire f_v = f_sh[3*(4+PW) + PW + 3];
wire f_l = f_sh[3*(4+PW) + PW + 2];
wire f_f = f_sh[3*(4+PW) + PW + 1];
wire f_pf = f_sh[3*(4+PW) + PW];
wire [PW-1:0] f_b = f_sh[3*(4+PW) +: PW];

always @* begin
    if (!rst && f_past_valid) begin
        assert (frame_open == f_open);
        assert (!frame_open || pay_seen == f_pay);
        assert (fe_valid == f_v);
        if (fe_valid) begin
            assert (fe_last == f_l);
            assert (fe_first == f_f);
            assert (fe_B == f_b);
            assert (fe_pfirst == f_pf);
        end
    end
end
// (in_B: the word index of the last beat, an induction invariant)
always @*
    if (!rst && f_past_valid && frame_open)
        assert (f_B == in_B + WPB[PW-1:0]);

`ifdef F_WORD_POS
// With F_WORD_POS (the proofs walk_word_pos_*), the per-word decode against
// mpa_rx_fspan, a model of an FPDU's span written from RFC 5044
// (rtl/formal/): for every word j of a beat at stage fe from its frame's
// first payload beat on, as if word j held a ULPDU_Length n (its octets 0
// and 1), with x_j the marker grid phase of word j (a + w - P0 mod 128: w
// its word index, P0 the frame's first payload word, a = ((seg_seq -
// seq_start) mod 512) / 4 of the first payload beat) and the beat's
// markers_on:
//   fe_mk[j]    word j is a marker word (markers_on and x_j == 0)
//   fe_small[j] n < 14
//   fe_E[j]     fe_B + j + d, d the FPDU's span: d words from word j are
//               its content words (length, ULPDU, pad, CRC) and the
//               marker words among them, the last a content word
//   fe_nL[j]    fe_E[j], plus 1 when a marker word is there (the next
//               FPDU's leading marker): the next ULPDU_Length word
//   fe_fm[j]    a marker word among the d words
// and, when n >= 14, d is at least 5 and below 2^15 (what mpa_rx_walk's
// position proof assumes of the cut fe_E / fe_nL, walk_pos_*, with
// fe_nL[j] - fe_E[j] 0 or 1). The beats before the
// frame's first payload beat have no grid (mpa_rx_walk_word's header).
reg [6:0] f_a = 7'd0, f_p0 = 7'd0;  // the frame's grid: a, and P0 mod 128
reg [4*9-1:0] f_gx = 0;             // {from payload on, markers_on, x of word 0} of the last 4 cycles
reg [LW-1:0] f_j0;
reg [6:0] f_ca, f_cp0;
integer fj;
always @* begin
    f_j0 = {LW{1'b0}};
    for (fj = WPB - 1; fj >= 0; fj = fj - 1)
        if (w_pmask[fj])
            f_j0 = fj[LW-1:0];
    // this beat's grid: from its own first payload word when it is the
    // frame's first payload beat
    if (f_open && f_pay) begin
        f_ca = f_a;
        f_cp0 = f_p0;
    end else begin
        f_ca = seq_off[8:2];
        f_cp0 = (f_open ? f_B[6:0] : 7'd0) + {{(7-LW){1'b0}}, f_j0};
    end
end
always @(posedge clk) begin
    f_gx <= {f_gx[3*9-1:0], (f_open && f_pay) || (|w_pmask), markers_on,
        f_ca + (f_open ? f_B[6:0] : 7'd0) - f_cp0};
    if (w_valid && !(f_open && f_pay)) begin
        f_a <= f_ca;
        f_p0 <= f_cp0;
    end
    if (rst)
        f_gx <= 0;
end
// the walker's own phase of each word, at stage fe (wl_g one cycle on): the
// span is checked with it, and it is checked against the grid apart
reg [7*WPB-1:0] f_fg = 0;
reg [15*WPB-1:0] f_fcm = 0;         // and its span (wl_cm one cycle on)
always @(posedge clk) begin
    f_fg <= wl_g;
    f_fcm <= wl_cm;
end
// the grid phase at stage in against the frame's grid (an induction
// invariant): the next beat's word 0 has phase a + B - P0
always @*
    if (!rst && f_past_valid && f_open && f_pay)
        assert (ph_next == f_a + f_B[6:0] - f_p0);
wire f_gpay = f_gx[3*9 + 8];
wire f_gmon = f_gx[3*9 + 7];
wire [6:0] f_gx0 = f_gx[3*9 +: 7];

genvar fg;
generate
    for (fg = 0; fg < WPB; fg = fg + 1) begin : f_pos
        localparam [PW-1:0] FJ = fg;
        wire [6:0] x = f_gx0 + FJ[6:0];
        wire [15:0] n = {fe_data[32*fg +: 8], fe_data[32*fg + 8 +: 8]};
        wire [PW-1:0] e = fe_E[PW*fg +: PW];
        wire [PW-1:0] nl = fe_nL[PW*fg +: PW];
        wire [PW-1:0] d = {1'b0, f_fcm[15*fg +: 15]};
        wire [16:0] c;
        wire ok, lead, span;
        mpa_rx_fspan f_span (
            .n(n), .x(f_fg[7*fg +: 7]), .on(f_gmon), .d(d),
            .c(c), .ok(ok), .lead(lead), .span(span)
        );
        always @* begin
            if (!rst && f_past_valid && fe_valid && f_gpay) begin
                assert (f_fg[7*fg +: 7] == x);
                assert (e == fe_B + FJ + d);
                assert (ok);
                assert (fe_mk[fg] == (f_gmon && x == 7'd0));
                assert (fe_small[fg] == (n < 16'd14));
                assert (nl == e + {15'd0, lead});
                assert (fe_fm[fg] == span);
                if (!fe_small[fg])
                    assert (d >= 16'd5 && d < 16'h8000);
            end
        end
    end
endgenerate
`endif

// covers: a frame of three beats at stage fe; a one-beat frame after another
reg [1:0] f_nb = 2'd0;      // beats of the frame at stage fe so far (saturating)
reg f_prev_end = 1'b0;      // a frame's last beat was at stage fe in the last cycle
always @(posedge clk) begin
    if (fe_valid)
        f_nb <= fe_last ? 2'd0 : (f_nb == 2'd3 ? 2'd3 : f_nb + 2'd1);
    f_prev_end <= fe_valid && fe_last;
    if (rst) begin
        f_nb <= 2'd0;
        f_prev_end <= 1'b0;
    end
end
always @* begin
    if (!rst) begin
        cover (fe_valid && fe_last && f_nb == 2'd2);
        cover (fe_valid && fe_first && fe_last && f_prev_end);
    end
end
`endif

endmodule

`resetall
