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
 * docs/design.md section 2. Never stalls: one beat per cycle.
 *
 * Input (the word view; docs in the port list): word k of a frame holds
 * frame octets 4k-2 .. 4k+1, word j of a beat is w_data[32j+31:32j], its
 * first wire octet in bits [7:0]. w_pmask marks the TCP payload words (one
 * contiguous run per frame, possibly empty).
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
 *
 * Records (FIFO, rec_valid/rec_ready, FWFT): rec_lseq_w is the payload word
 * index of the ULPDU_Length word; rec_ulen, rec_ctrl (DDP control), rec_ulp
 * are that word's octets 0-1, 2 and 3; rec_hdr holds the next four words of
 * the stream after it, markers skipped, each big endian, the first in
 * [127:96] (tagged: STag, TO high, TO low, -; untagged: ULP reserved, QN,
 * MSN, MO); a word that is not payload reads as 0. rec_first / rec_last mark
 * the frame's first and last record. Every record of a frame is written into
 * the FIFO at the latest 8 + DSPLIT cycles after the cycle of the frame's
 * w_last beat (DSPLIT below) and reaches rec_* 2 cycles after its write
 * (when nothing is ahead of it), so it is in the FIFO by the time sum_valid
 * pulses for the frame.
 * FIFO bound: NREC = max(NCRC, KMAX + 1) banks (2, 2, 3, 5 at 64, 128, 256,
 * 512 bit; a beat can complete KMAX = ceil(WPB/5) records besides the one
 * held back until its frame's next record shows it is not the last) of
 * BANK_DEPTH + 1 records, BANK_DEPTH = 2^ceil(log2(ceil(MAX_FPDUS/NREC))),
 * written and read in rotation: a record is dropped only when its bank is
 * full, that is with NREC*(BANK_DEPTH+1) >= MAX_FPDUS records stored (514,
 * 514, 771, 645 for the default MAX_FPDUS = 512, which holds the 448
 * records of a 9000-octet MTU frame of minimal 20-octet FPDUs and the start
 * of the next). Once a record of a frame is dropped, the rest of that
 * frame's records are dropped too: the frame's summary then has sum_ok = 0
 * and sum_nrec tells how many of its records (the first ones) are in the
 * FIFO. Nothing ever stalls or hangs.
 *
 * Summary (sum_valid: a one-cycle pulse exactly L_WALK cycles after the cycle
 * of the frame's w_last beat):
 *   sum_whole        records were made, no ULPDU < 14, and the walk ended
 *                    exactly at the end of the payload
 *   sum_small        some recorded ULPDU_Length < 14 (the last record)
 *   sum_grid         !markers_on || (seg_seq - seq_start) mod 4 == 0
 *   sum_crc_ok       every checked FPDU's CRC matches (1 when crc_on = 0)
 *   sum_marker_ok    every marker in a checked FPDU has a right FPDUPTR
 *                    (& ~3): 0 for a marker at the FPDU's first octet (it
 *                    belongs to the FPDU), else its octet offset from the
 *                    FPDU's ULPDU_Length word (RFC 5044 section 4.3); in an
 *                    FPDU that begins with a marker, also that offset + 4
 *                    (the draft-01 reading, from the FPDU's first octet),
 *                    all of the FPDU's later markers in one of the two forms
 *   sum_nrfc,        checked FPDUs of the frame that begin with a marker,
 *   sum_ndraft       hold a later one, and whose markers are all right in
 *                    the RFC 5044 / draft-01 form (8 bits each: such an
 *                    FPDU spans more than 512 octets)
 *   sum_first_marker markers_on and the first FPDU holds a marker before its
 *                    CRC word (a leading marker counts)
 *   sum_any_l        some record has the DDP L bit (control & 0x40)
 *   sum_nfpdu        number of records of the frame
 *   sum_ok, sum_nrec no record was dropped; records stored in the FIFO
 * A checked FPDU is a recorded FPDU with ULPDU_Length >= 14 whose last word
 * (the CRC) is payload.
 * seg_seq, seq_start, markers_on and crc_on are used from the frame's first
 * payload beat to its last beat (sum_grid from the last beat).
 *
 * CRC: NCRC = 1 + ceil((WPB-1)/5) crc32c engines, the FPDUs in the order
 * they start taking them in turn (FPDUs of 5 words or more cannot make two
 * FPDUs of one engine share a beat). Each engine takes a whole FPDU, first
 * octet (a leading marker included) to last CRC octet, and the FPDU checks
 * when the result is the CRC32C residue 0x48674BC7: that holds exactly when
 * the CRC field equals the CRC32C of the octets before it (CRC(m || c) for
 * the 4 CRC octets c is an invertible function of c), and it needs no
 * storage of CRC fields while the engine works. An FPDU still open at the
 * frame's last beat (or the small FPDU that stops the walk) is closed there
 * and its result ignored.
 *
 * Latency: L_WALK = 9 + DSPLIT + (5 + log2(DATA_WIDTH/8)) cycles (the last
 * term is the crc32c latency, mirrored in LCRC; DSPLIT = 1 at 512 bits,
 * where stage D takes two cycles): 17 at 64 bit, 18 at 128, 19 at 256, 21
 * at 512. Pipeline:
 *   A  input register; payload start; marker grid phase of the beat
 *   B  per word: FPDU content length from a would-be ULPDU_Length there
 *   P  per word: the markers inside it
 *   C  per word: FPDU end and next ULPDU_Length position, markers included
 *   D  per entry word: the chain of FPDUs the beat holds (up to KMAX); at
 *      512 bits two stages, D1 (up to two FPDUs from every word) and D2
 *      (each entry's two halves joined)
 *   E  the walk (the loop over beats): select the entry's chain
 *   X  per FPDU and record of the beat, in parallel: what its slot needs
 *      (message bounds, marker distances, header word positions and the
 *      header words this beat holds); engine slot assignment
 *   F  FPDU slots (one per engine): engine inputs, marker checks; record
 *      slots (KMAX + 1): header capture, which records leave
 *   G  the leaving records to the FIFO banks (per bank in parallel, from
 *      the store pointer; overflow)
 *   H  frame totals (counts)
 *   then the crc32c engines (fed from F) and a summary register; H's
 *   summary waits beside the engines.
 */
// Record bank outputs the walker does not need are left open.
/* verilator lint_off PINCONNECTEMPTY */
module mpa_rx_walk #(
    // Width of the word view (64, 128, 256 or 512).
    parameter DATA_WIDTH = 64,
    // Minimum number of records the record FIFO holds.
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

localparam WPB = DATA_WIDTH / 32;           // words per beat
localparam LW = $clog2(WPB);                // bits of a word offset in a beat
localparam KEEP = DATA_WIDTH / 8;
localparam KMAX = (WPB + 4) / 5;            // most ULPDU_Length words walked in one beat
localparam NCRC = 1 + (WPB + 3) / 5;        // CRC engines = FPDU slots
localparam SW = NCRC > 2 ? 2 : 1;           // bits of an engine slot index
localparam NREC = KMAX + 1 > NCRC ? KMAX + 1 : NCRC; // record slots = FIFO banks
localparam RW = NREC > 4 ? 3 : (NREC > 2 ? 2 : 1);   // bits of a record slot index
localparam LCRC = 5 + $clog2(KEEP);         // crc32c latency (its header)
localparam DSPLIT = KMAX > 2 ? 1 : 0;       // stage D in two (D1, D2): at 512 bits
localparam KH = KMAX > 2 ? 2 : KMAX;        // visits walked by stage D1
/* verilator lint_off UNUSEDPARAM */
localparam L_WALK = 9 + DSPLIT + LCRC;      // w_last beat to sum_valid (documentation)
/* verilator lint_on UNUSEDPARAM */
localparam PW = 16;                         // bits of a word position in a frame
localparam BANK_AW = $clog2((MAX_FPDUS + NREC - 1) / NREC);
localparam [31:0] RESIDUE = 32'h48674BC7;   // CRC32C of any message followed by its CRC
localparam REC_W = 16 + 32 + 128 + 2;       // lseq, ULPDU_Length word, header, first, last
localparam SUM_W = 5 + 16 + 1 + 16 + 1 + 16;

localparam [1:0] END_CONT = 2'd0;           // the chain leaves the beat, the walk goes on
localparam [1:0] END_NONPAY = 2'd1;         // a ULPDU_Length word is not payload: walk over
localparam [1:0] END_SMALL = 2'd2;          // a ULPDU_Length < 14 was recorded: walk over

// ========================================================== stage A
reg a_valid = 1'b0, a_first = 1'b0, a_last = 1'b0, a_pfirst = 1'b0;
reg [DATA_WIDTH-1:0] a_data = 0;
reg [WPB-1:0] a_pmask = 0;
reg [PW-1:0] a_B = 0;
reg [6:0] a_mw = 7'd0;
reg a_mon = 1'b0, a_con = 1'b0, a_grid = 1'b0;
reg in_frame = 1'b0, pay_seen = 1'b0;

// Only the offset modulo 512 matters (the marker grid).
/* verilator lint_off UNUSEDSIGNAL */
wire [31:0] seq_off = seg_seq - seq_start;
/* verilator lint_on UNUSEDSIGNAL */

always @(posedge clk) begin
    a_valid <= w_valid;
    if (w_valid) begin
        a_data <= w_data;
        a_pmask <= w_pmask;
        a_last <= w_last;
        a_first <= !in_frame;
        a_pfirst <= i_pfirst;
        a_B <= in_frame ? a_B + WPB[PW-1:0] : {PW{1'b0}};
        a_mw <= seq_off[8:2];
        a_mon <= markers_on;
        a_con <= crc_on;
        a_grid <= !markers_on || seq_off[1:0] == 2'd0;
        in_frame <= !w_last;
        pay_seen <= (in_frame && pay_seen) || (|w_pmask);
    end
    if (rst) begin
        a_valid <= 1'b0;
        in_frame <= 1'b0;
        pay_seen <= 1'b0;
    end
end

// First and last payload word of the beat.
reg [LW-1:0] a_j0, a_hi;
integer ai;
always @* begin
    a_j0 = {LW{1'b0}};
    a_hi = {LW{1'b0}};
    for (ai = WPB - 1; ai >= 0; ai = ai - 1)
        if (a_pmask[ai])
            a_j0 = ai[LW-1:0];
    for (ai = 0; ai < WPB; ai = ai + 1)
        if (a_pmask[ai])
            a_hi = ai[LW-1:0];
end

// Marker grid phase: word 0 of the beat is q_cur words past a marker
// position (mod 128). Payload word 0 is ((seg_seq - seq_start) mod 512) / 4.
// Worked out as the beat enters stage A (q_nxt: the phase of the beat
// after the last one).
reg [LW-1:0] i_j0;
integer ii;
always @* begin
    i_j0 = {LW{1'b0}};
    for (ii = WPB - 1; ii >= 0; ii = ii - 1)
        if (w_pmask[ii])
            i_j0 = ii[LW-1:0];
end
wire i_pfirst = (|w_pmask) && !(in_frame && pay_seen);
reg [6:0] q_nxt = 7'd0, q_cur = 7'd0;
wire [6:0] i_q = i_pfirst ? seq_off[8:2] - {{(7-LW){1'b0}}, i_j0} : q_nxt;

always @(posedge clk) begin
    if (w_valid) begin
        q_cur <= i_q;
        q_nxt <= i_q + WPB[6:0];
    end
    if (rst)
        q_nxt <= 7'd0;
end

// ========================================================== stage B
reg b_valid = 1'b0, b_first = 1'b0, b_last = 1'b0, b_pfirst = 1'b0;
reg [DATA_WIDTH-1:0] b_data = 0;
reg [WPB-1:0] b_pmask = 0;
reg [PW-1:0] b_B = 0;
reg b_mon = 1'b0, b_con = 1'b0, b_grid = 1'b0, b_mkP0 = 1'b0;
reg [LW-1:0] b_j0 = 0, b_hi = 0;

always @(posedge clk) begin
    b_valid <= a_valid;
    b_data <= a_data;
    b_pmask <= a_pmask;
    b_first <= a_first;
    b_last <= a_last;
    b_pfirst <= a_pfirst;
    b_B <= a_B;
    b_mon <= a_mon;
    b_con <= a_con;
    b_grid <= a_grid;
    b_mkP0 <= a_mon && a_mw == 7'd0;
    b_j0 <= a_j0;
    b_hi <= a_hi;
    if (rst)
        b_valid <= 1'b0;
end

// Per word j, as if word j held a ULPDU_Length: content words c, grid
// offset g of the word, whether a marker falls inside the content (gt) and
// the parts of floor((c - r - 1) / 127) (r = words to the next marker).
wire [15*WPB-1:0] bw_c;
wire [7*WPB-1:0] bw_g;
wire [WPB-1:0] bw_gt, bw_mkprev;
wire [8*WPB-1:0] bw_a0;
wire [9*WPB-1:0] bw_y;
wire [3*WPB-1:0] bw_hs;

genvar gj;
generate
    for (gj = 0; gj < WPB; gj = gj + 1) begin : g_dec1
        localparam [6:0] J7 = gj;
        wire [15:0] ulen = {a_data[32*gj +: 8], a_data[32*gj+8 +: 8]};
        /* verilator lint_off UNUSEDSIGNAL */
        wire [16:0] c5 = {1'b0, ulen} + 17'd5;
        /* verilator lint_on UNUSEDSIGNAL */
        wire [14:0] c = c5[16:2] + 15'd1;
        wire [6:0] g = q_cur + J7;
        wire [6:0] r = 7'd0 - g;
        wire gt = a_mon && c > {8'd0, r};
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
            mkprev_q <= a_mon && g == 7'd1;
            a0_q <= x[14:7];
            y_q <= {2'b0, x[6:0]} + {1'b0, x[14:7]};
            // Header word index from which a marker is skipped (4: none).
            hs_q <= (a_mon && r != 7'd0 && r <= 7'd4) ? r[2:0] - 3'd1 : 3'd4;
        end
        assign bw_c[15*gj +: 15] = c_q;
        assign bw_g[7*gj +: 7] = g_q;
        assign bw_gt[gj] = gt_q;
        assign bw_mkprev[gj] = mkprev_q;
        assign bw_a0[8*gj +: 8] = a0_q;
        assign bw_y[9*gj +: 9] = y_q;
        assign bw_hs[3*gj +: 3] = hs_q;
    end
endgenerate

// ========================================================== stage P
// Per word: the FPDU's length in words, markers included.
reg p_valid = 1'b0, p_first = 1'b0, p_last = 1'b0, p_pfirst = 1'b0;
reg [DATA_WIDTH-1:0] p_data = 0;
reg [WPB-1:0] p_pmask = 0;
reg [PW-1:0] p_B = 0;
reg p_mon = 1'b0, p_con = 1'b0, p_grid = 1'b0, p_mkP0 = 1'b0;
reg [LW-1:0] p_j0 = 0, p_hi = 0;

always @(posedge clk) begin
    p_valid <= b_valid;
    p_data <= b_data;
    p_pmask <= b_pmask;
    p_first <= b_first;
    p_last <= b_last;
    p_pfirst <= b_pfirst;
    p_B <= b_B;
    p_mon <= b_mon;
    p_con <= b_con;
    p_grid <= b_grid;
    p_mkP0 <= b_mkP0;
    p_j0 <= b_j0;
    p_hi <= b_hi;
    if (rst)
        p_valid <= 1'b0;
end

wire [15*WPB-1:0] pw_cm;
wire [7*WPB-1:0] pw_g;
wire [WPB-1:0] pw_gt, pw_mkprev;
wire [3*WPB-1:0] pw_hs;

generate
    for (gj = 0; gj < WPB; gj = gj + 1) begin : g_decp
        wire [14:0] c = bw_c[15*gj +: 15];
        wire [7:0] a0 = bw_a0[8*gj +: 8];
        wire [8:0] y = bw_y[9*gj +: 9];
        wire [7:0] q = a0 + {7'd0, y >= 9'd127} + {7'd0, y >= 9'd254};
        wire [7:0] m = bw_gt[gj] ? q + 8'd1 : 8'd0;
        reg [14:0] cm_q = 0;
        reg [6:0] g_q = 0;
        reg gt_q = 1'b0, mkprev_q = 1'b0;
        reg [2:0] hs_q = 0;
        always @(posedge clk) begin
            cm_q <= c + {7'd0, m};
            g_q <= bw_g[7*gj +: 7];
            gt_q <= bw_gt[gj];
            mkprev_q <= bw_mkprev[gj];
            hs_q <= bw_hs[3*gj +: 3];
        end
        assign pw_cm[15*gj +: 15] = cm_q;
        assign pw_g[7*gj +: 7] = g_q;
        assign pw_gt[gj] = gt_q;
        assign pw_mkprev[gj] = mkprev_q;
        assign pw_hs[3*gj +: 3] = hs_q;
    end
endgenerate

// ========================================================== stage C
reg c_valid = 1'b0, c_first = 1'b0, c_last = 1'b0, c_pfirst = 1'b0;
reg [DATA_WIDTH-1:0] c_data = 0;
reg [WPB-1:0] c_pmask = 0;
reg [PW-1:0] c_B = 0;
reg c_con = 1'b0, c_grid = 1'b0, c_mkP0 = 1'b0;
reg [PW-LW-1:0] c_Bn = 0;   // the next beat's base, in beats
reg [LW-1:0] c_j0 = 0, c_hi = 0;

always @(posedge clk) begin
    c_valid <= p_valid;
    c_data <= p_data;
    c_pmask <= p_pmask;
    c_first <= p_first;
    c_last <= p_last;
    c_pfirst <= p_pfirst;
    c_B <= p_B;
    c_Bn <= p_B[PW-1:LW] + 1'b1;
    c_con <= p_con;
    c_grid <= p_grid;
    c_mkP0 <= p_mkP0;
    c_j0 <= p_j0;
    c_hi <= p_hi;
    if (rst)
        c_valid <= 1'b0;
end

// Per word j: FPDU end E (first word after it) and the position of the next
// ULPDU_Length word nL (after a marker at E), small, a marker inside the
// content (fm), marker flags.
wire [PW*WPB-1:0] cw_E, cw_nL;
wire [WPB-1:0] cw_small, cw_fm, cw_mk, cw_mkprev;
wire [3*WPB-1:0] cw_hs;

generate
    for (gj = 0; gj < WPB; gj = gj + 1) begin : g_dec2
        localparam [PW-1:0] JP = gj;
        wire [14:0] cm = pw_cm[15*gj +: 15];
        wire [6:0] g = pw_g[7*gj +: 7];
        wire [PW-1:0] e = p_B + JP + {1'b0, cm};
        wire [6:0] ge = g + cm[6:0];
        wire mke = p_mon && ge == 7'd0;
        wire [15:0] ulen = {p_data[32*gj +: 8], p_data[32*gj+8 +: 8]};
        reg [PW-1:0] e_q = 0, nl_q = 0;
        reg small_q = 1'b0, fm_q = 1'b0, mk_q = 1'b0, mkprev_q = 1'b0;
        reg [2:0] hs_q = 0;
        always @(posedge clk) begin
            e_q <= e;
            nl_q <= e + {{(PW-1){1'b0}}, mke};
            small_q <= ulen < 16'd14;
            fm_q <= p_mon && pw_gt[gj];
            mk_q <= p_mon && g == 7'd0;
            mkprev_q <= pw_mkprev[gj];
            hs_q <= pw_hs[3*gj +: 3];
        end
        assign cw_E[PW*gj +: PW] = e_q;
        assign cw_nL[PW*gj +: PW] = nl_q;
        assign cw_small[gj] = small_q;
        assign cw_fm[gj] = fm_q;
        assign cw_mk[gj] = mk_q;
        assign cw_mkprev[gj] = mkprev_q;
        assign cw_hs[3*gj +: 3] = hs_q;
    end
endgenerate

// ========================================================== stage D
// For every entry word e (the walk's next ULPDU_Length word, if it is in
// this beat): the ULPDU_Length words the walk visits in this beat, how the
// chain ends, and where the walk continues. (Word selections here and below
// are explicit compare-and-select loops rather than variable part-selects,
// which Yosys' resource sharing would try to merge with a SAT solver.)
// Up to 256 bits (KMAX <= 2) this is one stage. At 512 bits (KMAX = 4) it
// is two: D1 walks up to KH = 2 visits from every word, D2 joins to each
// entry's first half the half that starts where that one goes on (DSPLIT;
// every later stage sees stage C's values one cycle later).
reg [3*WPB-1:0] dh_cnt;
reg [KH*LW*WPB-1:0] dh_pos;
reg [2*WPB-1:0] dh_end;
reg [PW*WPB-1:0] dh_exL, dh_exS;
reg [WPB-1:0] dn_inb;       // the next ULPDU_Length word is in this beat
reg [WPB-1:0] dn_einb;      // the FPDU's end is in this beat
reg [WPB-1:0] dn_inn, dn_enn; // the next ULPDU_Length word / the FPDU's end is in the next beat
reg [WPB-1:0] dh_exLn, dh_exSn; // dh_exL / dh_exS is in the next beat
reg [WPB-1:0] dh_pendx;     // the chain ends at an FPDU starting with a marker in the beat's last word
reg [WPB-1:0] dh_anyl;      // a visited ULPDU_Length word has the DDP L bit
/* verilator lint_off UNUSEDSIGNAL */
reg [WPB-1:0] dh_alive;     // KH words visited and the chain goes on in the beat (DSPLIT)
reg [LW*WPB-1:0] dh_nxt;    // ... at this word
/* verilator lint_on UNUSEDSIGNAL */
reg [LW-1:0] dc_cur, dc_last, dc_nxt;
reg dc_alive, dc_pay, dc_small, dc_inb;
integer de, ds, dj;
always @* begin
    for (dj = 0; dj < WPB; dj = dj + 1) begin
        dn_inb[dj] = cw_nL[PW*dj + LW +: PW-LW] == c_B[PW-1:LW];
        dn_einb[dj] = cw_E[PW*dj + LW +: PW-LW] == c_B[PW-1:LW];
        dn_inn[dj] = cw_nL[PW*dj + LW +: PW-LW] == c_Bn;
        dn_enn[dj] = cw_E[PW*dj + LW +: PW-LW] == c_Bn;
    end
    dh_pendx = 0;
    dh_anyl = 0;
    dh_cnt = 0;
    dh_pos = 0;
    dh_end = 0;
    dh_exL = 0;
    dh_exS = 0;
    dh_exLn = 0;
    dh_exSn = 0;
    dh_alive = 0;
    dh_nxt = 0;
    for (de = 0; de < WPB; de = de + 1) begin
        dc_cur = de[LW-1:0];
        dc_last = de[LW-1:0];
        dc_alive = 1'b1;
        for (ds = 0; ds < KH; ds = ds + 1) begin
            dc_pay = 1'b0;
            dc_small = 1'b0;
            dc_inb = 1'b0;
            dc_nxt = {LW{1'b0}};
            for (dj = 0; dj < WPB; dj = dj + 1) begin
                if (dc_cur == dj[LW-1:0]) begin
                    dc_pay = c_pmask[dj];
                    dc_small = cw_small[dj];
                    dc_inb = dn_inb[dj];
                    dc_nxt = cw_nL[PW*dj +: LW];
                end
            end
            if (dc_alive) begin
                if (!dc_pay) begin
                    dh_end[2*de +: 2] = END_NONPAY;
                    dc_alive = 1'b0;
                end else begin
                    dh_pos[(de*KH + ds)*LW +: LW] = dc_cur;
                    for (dj = 0; dj < WPB; dj = dj + 1)
                        if (dc_cur == dj[LW-1:0] && c_data[32*dj + 22])
                            dh_anyl[de] = 1'b1;
                    dh_cnt[3*de +: 3] = ds[2:0] + 3'd1;
                    dc_last = dc_cur;
                    if (dc_small) begin
                        dh_end[2*de +: 2] = END_SMALL;
                        dc_alive = 1'b0;
                    end else if (dc_inb) begin
                        dc_cur = dc_nxt;
                    end else begin
                        dc_alive = 1'b0;
                    end
                end
            end
        end
        dh_alive[de] = dc_alive;
        dh_nxt[LW*de +: LW] = dc_cur;
        for (dj = 0; dj < WPB; dj = dj + 1) begin
            if (dc_last == dj[LW-1:0]) begin
                dh_exL[PW*de +: PW] = cw_nL[PW*dj +: PW];
                dh_exS[PW*de +: PW] = cw_E[PW*dj +: PW];
                dh_pendx[de] = dn_einb[dj] && !dn_inb[dj];
                dh_exLn[de] = dn_inn[dj];
                dh_exSn[de] = dn_enn[dj];
            end
        end
    end
end

// Stage D's results per entry word, and stage C's values as stage D's
// registers take them (cd_*: stage C's registers, or a cycle later).
reg [3*WPB-1:0] dn_cnt;
reg [KMAX*LW*WPB-1:0] dn_pos;
reg [2*WPB-1:0] dn_end;
reg [PW*WPB-1:0] dn_exL, dn_exS;
reg [WPB-1:0] dn_pendx, dn_anyl, dn_exLn, dn_exSn;
wire cd_valid, cd_first, cd_last, cd_pfirst, cd_con, cd_grid, cd_mkP0;
wire [DATA_WIDTH-1:0] cd_data;
wire [WPB-1:0] cd_pmask, cd_small, cd_fm, cd_mk, cd_mkprev;
wire [PW-1:0] cd_B;
wire [LW-1:0] cd_j0, cd_hi;
wire [PW*WPB-1:0] cd_E;
wire [3*WPB-1:0] cd_hs;

generate
    if (DSPLIT) begin : g_d2
        reg h_valid = 1'b0, h_first = 1'b0, h_last = 1'b0, h_pfirst = 1'b0;
        reg h_con = 1'b0, h_grid = 1'b0, h_mkP0 = 1'b0;
        reg [DATA_WIDTH-1:0] h_data = 0;
        reg [WPB-1:0] h_pmask = 0, h_small = 0, h_fm = 0, h_mk = 0, h_mkprev = 0;
        reg [PW-1:0] h_B = 0;
        reg [LW-1:0] h_j0 = 0, h_hi = 0;
        reg [PW*WPB-1:0] h_E = 0;
        reg [3*WPB-1:0] h_hs = 0;
        reg [3*WPB-1:0] h_cnt = 0;
        reg [KH*LW*WPB-1:0] h_pos = 0;
        reg [2*WPB-1:0] h_end = 0;
        reg [PW*WPB-1:0] h_exL = 0, h_exS = 0;
        reg [WPB-1:0] h_pendx = 0, h_anyl = 0, h_alive = 0, h_exLn = 0, h_exSn = 0;
        reg [LW*WPB-1:0] h_nxt = 0;
        always @(posedge clk) begin
            h_valid <= c_valid;
            h_first <= c_first;
            h_last <= c_last;
            h_pfirst <= c_pfirst;
            h_con <= c_con;
            h_grid <= c_grid;
            h_mkP0 <= c_mkP0;
            h_data <= c_data;
            h_pmask <= c_pmask;
            h_small <= cw_small;
            h_fm <= cw_fm;
            h_mk <= cw_mk;
            h_mkprev <= cw_mkprev;
            h_B <= c_B;
            h_j0 <= c_j0;
            h_hi <= c_hi;
            h_E <= cw_E;
            h_hs <= cw_hs;
            h_cnt <= dh_cnt;
            h_pos <= dh_pos;
            h_end <= dh_end;
            h_exL <= dh_exL;
            h_exS <= dh_exS;
            h_pendx <= dh_pendx;
            h_exLn <= dh_exLn;
            h_exSn <= dh_exSn;
            h_anyl <= dh_anyl;
            h_alive <= dh_alive;
            h_nxt <= dh_nxt;
            if (rst)
                h_valid <= 1'b0;
        end
        assign cd_valid = h_valid;
        assign cd_first = h_first;
        assign cd_last = h_last;
        assign cd_pfirst = h_pfirst;
        assign cd_con = h_con;
        assign cd_grid = h_grid;
        assign cd_mkP0 = h_mkP0;
        assign cd_data = h_data;
        assign cd_pmask = h_pmask;
        assign cd_small = h_small;
        assign cd_fm = h_fm;
        assign cd_mk = h_mk;
        assign cd_mkprev = h_mkprev;
        assign cd_B = h_B;
        assign cd_j0 = h_j0;
        assign cd_hi = h_hi;
        assign cd_E = h_E;
        assign cd_hs = h_hs;

        // D2: entry e's first half, then (when it goes on at word m in the
        // beat) the half that starts at m.
        reg [LW-1:0] d2_m;
        reg [2:0] d2_cnt;
        reg [KH*LW-1:0] d2_pos;
        reg [1:0] d2_end;
        reg [PW-1:0] d2_exL, d2_exS;
        reg d2_pendx, d2_anyl, d2_go, d2_exLn, d2_exSn;
        integer d2e, d2j;
        always @* begin
            dn_cnt = 0;
            dn_pos = 0;
            dn_end = 0;
            dn_exL = 0;
            dn_exS = 0;
            dn_pendx = 0;
            dn_anyl = 0;
            dn_exLn = 0;
            dn_exSn = 0;
            for (d2e = 0; d2e < WPB; d2e = d2e + 1) begin
                d2_m = h_nxt[LW*d2e +: LW];
                d2_cnt = 3'd0;
                d2_pos = 0;
                d2_end = 2'd0;
                d2_exL = 0;
                d2_exS = 0;
                d2_pendx = 1'b0;
                d2_anyl = 1'b0;
                d2_exLn = 1'b0;
                d2_exSn = 1'b0;
                for (d2j = 0; d2j < WPB; d2j = d2j + 1) begin
                    if (d2_m == d2j[LW-1:0]) begin
                        d2_cnt = h_cnt[3*d2j +: 3];
                        d2_pos = h_pos[d2j*KH*LW +: KH*LW];
                        d2_end = h_end[2*d2j +: 2];
                        d2_exL = h_exL[PW*d2j +: PW];
                        d2_exS = h_exS[PW*d2j +: PW];
                        d2_pendx = h_pendx[d2j];
                        d2_anyl = h_anyl[d2j];
                        d2_exLn = h_exLn[d2j];
                        d2_exSn = h_exSn[d2j];
                    end
                end
                // the second half visited a word: the chain's last word is in it
                d2_go = h_alive[d2e] && d2_cnt != 3'd0;
                dn_pos[d2e*KMAX*LW +: KH*LW] = h_pos[d2e*KH*LW +: KH*LW];
                if (h_alive[d2e])
                    dn_pos[(d2e*KMAX + KH)*LW +: KH*LW] = d2_pos;
                dn_cnt[3*d2e +: 3] = h_alive[d2e] ? KH[2:0] + d2_cnt : h_cnt[3*d2e +: 3];
                dn_end[2*d2e +: 2] = h_alive[d2e] ? d2_end : h_end[2*d2e +: 2];
                dn_exL[PW*d2e +: PW] = d2_go ? d2_exL : h_exL[PW*d2e +: PW];
                dn_exS[PW*d2e +: PW] = d2_go ? d2_exS : h_exS[PW*d2e +: PW];
                dn_pendx[d2e] = d2_go ? d2_pendx : h_pendx[d2e];
                dn_exLn[d2e] = d2_go ? d2_exLn : h_exLn[d2e];
                dn_exSn[d2e] = d2_go ? d2_exSn : h_exSn[d2e];
                dn_anyl[d2e] = h_anyl[d2e] || (h_alive[d2e] && d2_anyl);
            end
        end
    end else begin : g_d1
        assign cd_valid = c_valid;
        assign cd_first = c_first;
        assign cd_last = c_last;
        assign cd_pfirst = c_pfirst;
        assign cd_con = c_con;
        assign cd_grid = c_grid;
        assign cd_mkP0 = c_mkP0;
        assign cd_data = c_data;
        assign cd_pmask = c_pmask;
        assign cd_small = cw_small;
        assign cd_fm = cw_fm;
        assign cd_mk = cw_mk;
        assign cd_mkprev = cw_mkprev;
        assign cd_B = c_B;
        assign cd_j0 = c_j0;
        assign cd_hi = c_hi;
        assign cd_E = cw_E;
        assign cd_hs = cw_hs;
        always @* begin
            dn_cnt = dh_cnt;
            dn_pos = dh_pos;
            dn_end = dh_end;
            dn_exL = dh_exL;
            dn_exS = dh_exS;
            dn_pendx = dh_pendx;
            dn_anyl = dh_anyl;
            dn_exLn = dh_exLn;
            dn_exSn = dh_exSn;
        end
    end
endgenerate

reg d_valid = 1'b0, d_first = 1'b0, d_last = 1'b0, d_pfirst = 1'b0;
reg [DATA_WIDTH-1:0] d_data = 0;
reg [WPB-1:0] d_pmask = 0;
reg [PW-1:0] d_B = 0;
reg d_con = 1'b0, d_grid = 1'b0, d_mkP0 = 1'b0;
reg [3*WPB-1:0] d_cnt = 0;
reg [KMAX*LW*WPB-1:0] d_pos = 0;
reg [2*WPB-1:0] d_end = 0;
reg [PW*WPB-1:0] d_exL = 0, d_exS = 0, d_E = 0;
reg [WPB-1:0] d_small = 0, d_fm = 0, d_mk = 0, d_mkprev = 0, d_pendx = 0, d_anyle = 0;
reg [WPB-1:0] d_exLn = 0, d_exSn = 0;
reg d_nL0n = 1'b0;
reg [PW-1:0] d_P0 = 0, d_nL0 = 0, d_Pendx = 0;
reg [PW-LW-1:0] d_Bn = 0;
reg d_hit0 = 1'b0;
wire [PW-1:0] dn_P0 = cd_B + {{(PW-LW){1'b0}}, cd_j0};
wire [PW-1:0] dn_nL0 = dn_P0 + {{(PW-1){1'b0}}, cd_mkP0};
reg [3*WPB-1:0] d_hs = 0;

always @(posedge clk) begin
    d_valid <= cd_valid;
    d_data <= cd_data;
    d_pmask <= cd_pmask;
    d_first <= cd_first;
    d_last <= cd_last;
    d_pfirst <= cd_pfirst;
    d_B <= cd_B;
    d_con <= cd_con;
    d_grid <= cd_grid;
    d_mkP0 <= cd_mkP0;
    d_cnt <= dn_cnt;
    d_pos <= dn_pos;
    d_end <= dn_end;
    d_exL <= dn_exL;
    d_exS <= dn_exS;
    d_E <= cd_E;
    d_small <= cd_small;
    d_fm <= cd_fm;
    d_mk <= cd_mk;
    d_mkprev <= cd_mkprev;
    d_hs <= cd_hs;
    d_pendx <= dn_pendx;
    d_anyle <= dn_anyl;
    d_P0 <= dn_P0;
    d_nL0 <= dn_nL0;
    d_hit0 <= dn_nL0[PW-1:LW] == cd_B[PW-1:LW];
    // dn_nL0 is dn_P0 or dn_P0 + 1, dn_P0 in the beat
    d_nL0n <= cd_mkP0 && cd_j0 == {LW{1'b1}};
    d_exLn <= dn_exLn;
    d_exSn <= dn_exSn;
    d_Pendx <= cd_B + {{(PW-LW){1'b0}}, cd_hi} + 1'b1;
    d_Bn <= cd_B[PW-1:LW] + 1'b1;
    // The delayed copies stage E reads are reset, so that synthesis keeps
    // them as flip-flops rather than the tail of a shift-register LUT (an
    // SRL read is a LUT level before stage E's logic).
    if (rst) begin
        d_valid <= 1'b0;
        d_data <= {DATA_WIDTH{1'b0}};
        d_pmask <= {WPB{1'b0}};
        d_first <= 1'b0;
        d_last <= 1'b0;
        d_pfirst <= 1'b0;
        d_B <= {PW{1'b0}};
        d_con <= 1'b0;
        d_grid <= 1'b0;
        d_mkP0 <= 1'b0;
        d_E <= {PW*WPB{1'b0}};
        d_small <= {WPB{1'b0}};
        d_fm <= {WPB{1'b0}};
        d_mk <= {WPB{1'b0}};
        d_mkprev <= {WPB{1'b0}};
        d_hs <= {3*WPB{1'b0}};
    end
end

// ========================================================== stage E: the walk
// The loop over beats. Its state includes whether the next ULPDU_Length
// word and the next FPDU start fall in the next beat (compared when they
// are set, against that beat's base), whether that FPDU begins with a
// marker, and whether the frame has records yet.
reg w_act = 1'b0, w_stop = 1'b0, w_fm = 1'b0, w_anyl = 1'b0;
reg w_nz = 1'b0, w_lead = 1'b0, w_hitn = 1'b0, w_nSn = 1'b0;
reg [PW-1:0] w_nL = 0, w_nS = 0, w_P0 = 0, w_Pend = 0;
reg [15:0] w_nrec = 16'd0;

reg en_act_in, en_stop_in, en_fm_in, en_anyl_in, en_hit, en_nz_in, en_lead_in, en_nLin, en_nSin;
reg [PW-1:0] en_nL_in, en_nS_in, en_P0_in, en_Pend_in;
reg [15:0] en_nrec_in;
reg [LW-1:0] en_ent, en_p;
reg [2:0] en_cnt;
reg [1:0] en_endk;
reg [PW-1:0] en_exL, en_exS;
reg [KMAX*LW-1:0] en_pos;
reg en_mkprev, en_rfm0, en_pendx, en_anyle, en_exLn, en_exSn;
reg en_act, en_stop, en_fm, en_anyl, en_carried, en_pend, en_lead, en_hitn, en_nSn;
reg [PW-1:0] en_nL, en_nS, en_Pend;
reg [15:0] en_nrec;
reg [KMAX*LW-1:0] en_rpos, en_ros;
reg [KMAX*PW-1:0] en_rE;
reg [KMAX*32-1:0] en_rword;
reg [KMAX-1:0] en_rsmall, en_rfirst;
reg [KMAX*3-1:0] en_rhs;
integer ei, ej;

always @* begin
    en_act_in = d_pfirst || (!d_first && w_act);
    en_nL_in = d_pfirst ? d_nL0 : w_nL;
    en_nS_in = d_pfirst ? d_P0 : w_nS;
    en_P0_in = d_pfirst ? d_P0 : w_P0;
    en_lead_in = d_pfirst ? d_mkP0 : w_lead;      // en_nS_in != en_nL_in
    en_nLin = d_pfirst ? d_hit0 : w_hitn;         // en_nL_in is in this beat
    en_nSin = d_pfirst || w_nSn;                  // en_nS_in is in this beat
    en_stop_in = !d_first && w_stop;
    en_fm_in = !d_first && w_fm;
    en_anyl_in = !d_first && w_anyl;
    en_nz_in = !d_first && w_nz;                  // en_nrec_in != 0
    en_nrec_in = d_first ? 16'd0 : w_nrec;
    en_Pend_in = d_first ? {PW{1'b0}} : w_Pend;

    en_hit = en_act_in && en_nLin;
    en_ent = en_nL_in[LW-1:0];
    en_cnt = 3'd0;
    en_endk = END_CONT;
    en_exL = {PW{1'b0}};
    en_exS = {PW{1'b0}};
    en_pos = {(KMAX*LW){1'b0}};
    en_rfm0 = 1'b0;
    en_pendx = 1'b0;
    en_anyle = 1'b0;
    en_exLn = 1'b0;
    en_exSn = 1'b0;
    for (ej = 0; ej < WPB; ej = ej + 1) begin
        if (en_ent == ej[LW-1:0]) begin
            en_cnt = d_cnt[3*ej +: 3];
            en_endk = d_end[2*ej +: 2];
            en_exL = d_exL[PW*ej +: PW];
            en_exS = d_exS[PW*ej +: PW];
            en_pos = d_pos[ej*KMAX*LW +: KMAX*LW];
            en_rfm0 = d_fm[ej];
            en_pendx = d_pendx[ej];
            en_anyle = d_anyle[ej];
            en_exLn = d_exLn[ej];
            en_exSn = d_exSn[ej];
        end
    end
    if (!en_hit)
        en_cnt = 3'd0;

    en_act = en_act_in;
    en_nL = en_nL_in;
    en_nS = en_nS_in;
    en_stop = en_stop_in;
    en_lead = en_lead_in;
    if (en_hit) begin
        case (en_endk)
            END_CONT: begin
                en_nL = en_exL;
                en_nS = en_exS;
                en_lead = en_exL[0] ^ en_exS[0];  // en_exL is en_exS or en_exS + 1
            end
            END_NONPAY: begin
                en_act = 1'b0;
                if (en_cnt != 3'd0)
                    en_nS = en_exS;
            end
            default: begin
                en_act = 1'b0;
                en_stop = 1'b1;
            end
        endcase
    end
    // en_nL / en_nS in the next beat: from stage D for the chain's exits,
    // else compared here (d_P0, the payload's first word, is in this beat)
    if (en_hit && en_endk == END_CONT)
        en_hitn = en_exLn;
    else
        en_hitn = d_pfirst ? d_nL0n : w_nL[PW-1:LW] == d_Bn;
    if (en_hit && (en_endk == END_CONT || (en_endk == END_NONPAY && en_cnt != 3'd0)))
        en_nSn = en_exSn;
    else
        en_nSn = !d_pfirst && w_nS[PW-1:LW] == d_Bn;
    // The first ULPDU_Length word of the beat belongs to an FPDU that
    // started with a marker in the last word of the previous beat.
    en_carried = en_cnt != 3'd0 && en_ent == {LW{1'b0}} && en_lead_in;
    // An FPDU starts with a marker in the beat's last word; its
    // ULPDU_Length word is in the next beat.
    en_pend = d_pmask[WPB-1] && (en_hit ? en_endk == END_CONT && en_pendx : en_act_in && en_nSin);

    // The visited ULPDU_Length words, in order.
    en_rpos = 0;
    en_ros = 0;
    en_rE = 0;
    en_rword = 0;
    en_rsmall = 0;
    en_rfirst = 0;
    en_rhs = 0;
    for (ei = 0; ei < KMAX; ei = ei + 1) begin
        en_p = en_pos[ei*LW +: LW];
        en_rpos[ei*LW +: LW] = en_p;
        en_mkprev = 1'b0;
        for (ej = 0; ej < WPB; ej = ej + 1) begin
            if (en_p == ej[LW-1:0]) begin
                en_mkprev = d_mkprev[ej];
                en_rE[ei*PW +: PW] = d_E[PW*ej +: PW];
                en_rword[ei*32 +: 32] = d_data[32*ej +: 32];
                en_rsmall[ei] = d_small[ej];
                en_rhs[ei*3 +: 3] = d_hs[3*ej +: 3];
            end
        end
        // Rank 0 starts where the walk stood (its FPDU may be the first of
        // the payload, which no marker before it can start); later ranks
        // start at the previous rank's end, which is never a marker word.
        if (ei == 0)
            en_ros[ei*LW +: LW] = en_nS_in[LW-1:0];
        else
            en_ros[ei*LW +: LW] = en_p - {{(LW-1){1'b0}}, en_mkprev};
        en_rfirst[ei] = ei == 0 && !en_nz_in;
    end
    // Rank 0 is the entry word itself.
    en_anyl = en_anyl_in || (en_hit && en_anyle);
    en_fm = en_fm_in;
    if (en_cnt != 3'd0 && !en_nz_in)
        en_fm = en_rfm0 || en_lead_in;
    en_nrec = en_nrec_in + {13'd0, en_cnt};
    en_Pend = (|d_pmask) ? d_Pendx : en_Pend_in;
end


// The beat's marker (at most one: markers are 128 words apart), its word
// and its FPDUPTR with the two low bits dropped; off the walk's loop.
wire [WPB-1:0] en_mk = d_mk & d_pmask;
reg en_mkany;
reg [LW-1:0] en_om;
reg [13:0] en_ptr;
integer em;
always @* begin
    en_mkany = |en_mk;
    en_om = {LW{1'b0}};
    en_ptr = 14'd0;
    for (em = 0; em < WPB; em = em + 1) begin
        if (en_mk[em]) begin
            en_om = em[LW-1:0];
            en_ptr = {d_data[32*em + 16 +: 8], d_data[32*em + 26 +: 6]};
        end
    end
end

reg e_valid = 1'b0, e_first = 1'b0, e_last = 1'b0;
reg [DATA_WIDTH-1:0] e_data = 0;
reg [WPB-1:0] e_pmask = 0;
reg [PW-1:0] e_B = 0, e_P0 = 0, e_nS = 0, e_Pend = 0;
reg e_con = 1'b0, e_grid = 1'b0;
reg [2:0] e_ndec = 3'd0;
reg e_carried = 1'b0, e_pend = 1'b0, e_stop = 1'b0;
reg e_fm = 1'b0, e_anyl = 1'b0;
reg [15:0] e_nrec = 16'd0;
reg e_mkany = 1'b0;
reg [LW-1:0] e_om = 0;
reg [13:0] e_ptr = 14'd0;
reg [KMAX*LW-1:0] e_rpos = 0, e_ros = 0;
reg [KMAX*PW-1:0] e_rE = 0;
reg [KMAX*32-1:0] e_rword = 0;
reg [KMAX-1:0] e_rsmall = 0, e_rfirst = 0;
reg [KMAX*3-1:0] e_rhs = 0;

always @(posedge clk) begin
    if (d_valid) begin
        w_act <= en_act;
        w_nL <= en_nL;
        w_nS <= en_nS;
        w_P0 <= en_P0_in;
        w_stop <= en_stop;
        w_fm <= en_fm;
        w_anyl <= en_anyl;
        w_nrec <= en_nrec;
        w_Pend <= en_Pend;
        w_nz <= en_nz_in || en_cnt != 3'd0;
        w_lead <= en_lead;
        w_hitn <= en_hitn;
        w_nSn <= en_nSn;
    end
    e_valid <= d_valid;
    e_first <= d_first;
    e_last <= d_last;
    e_data <= d_data;
    e_pmask <= d_pmask;
    e_B <= d_B;
    e_P0 <= en_P0_in;
    e_nS <= en_nS;
    e_Pend <= en_Pend;
    e_con <= d_con;
    e_grid <= d_grid;
    e_ndec <= en_cnt;
    e_carried <= en_carried;
    e_pend <= en_pend;
    e_stop <= en_stop;
    e_fm <= en_fm;
    e_anyl <= en_anyl;
    e_nrec <= en_nrec;
    e_mkany <= en_mkany;
    e_om <= en_om;
    e_ptr <= en_ptr;
    e_rpos <= en_rpos;
    e_ros <= en_ros;
    e_rE <= en_rE;
    e_rword <= en_rword;
    e_rsmall <= en_rsmall;
    e_rfirst <= en_rfirst;
    e_rhs <= en_rhs;
    if (rst) begin
        w_act <= 1'b0;
        w_stop <= 1'b0;
        w_fm <= 1'b0;
        w_anyl <= 1'b0;
        w_nL <= 0;
        w_nS <= 0;
        w_P0 <= 0;
        w_Pend <= 0;
        w_nrec <= 16'd0;
        w_nz <= 1'b0;
        w_lead <= 1'b0;
        w_hitn <= 1'b0;
        w_nSn <= 1'b0;
        e_valid <= 1'b0;
    end
end

// ========================================================== stage X: slot assignment
// The FPDUs of the beat go to engine slots and the records to record
// slots; everything an FPDU or a record needs from its own beat is worked
// out here per rank, in parallel, and handed to the slot it goes to.
//
// Engine slot k (NCRC of them) holds the crc32c message and the marker
// check state of the FPDUs i with i mod NCRC == k, FPDUs counted in the
// order they start. Record slot r (NREC of them) assembles the records j
// with j mod NREC == r. A beat needs KMAX + 1 record slots: its up to
// KMAX new records and the newest record of the earlier beats, which waits
// until it is known whether it is its frame's last.
//
// Slot arithmetic is modulo NCRC or NREC (2 to 5) of sums below twice the
// modulus: one compare and subtract.
localparam [4:0] NCRC5 = NCRC[4:0];
localparam [4:0] NREC5 = NREC[4:0];
localparam TW = LW + 3;                     // bits of a word offset plus a header step

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

// Engine slot of rank i of this beat's ULPDU_Length words (rank 0 of a
// carried FPDU started in the previous beat, in the slot before sp);
// i <= KMAX <= NCRC.
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

reg [SW-1:0] sp = 0;        // engine slot of the next FPDU to start

// Per candidate c (rank c < KMAX, or c == KMAX: an FPDU that starts with
// a marker in the beat's last word): values for the slot that opens it
// (os-derived) and for the slot whose FPDU's ULPDU_Length word it is.
reg [PW-1:0] xc_mq, xc_mqr, xc_Em1;
reg [LW-1:0] xc_os;
reg [(KMAX+1)*PW-1:0] xc_Sopen;
reg [(KMAX+1)*WPB-1:0] xc_fwm;
reg [KMAX+1-1:0] xc_lead, xc_okp, xc_eqr, xc_dnz;
reg [KMAX*PW-1:0] xc_Em1v;
reg [KMAX*WPB-1:0] xc_lwm;
reg [KMAX-1:0] xc_endin, xc_lpay;
// Per slot.
reg [NCRC-1:0] xs_dec, xs_open, xs_small, xs_endin, xs_lpay, xs_lead, xs_okp, xs_eqr, xs_dnz;
reg [NCRC*PW-1:0] xs_Sopen, xs_Em1;
reg [NCRC*WPB-1:0] xs_fwm, xs_lwm;
reg [KMAX:0] xs_m;         // which candidate opens the slot
reg [SW-1:0] xs_sp;
reg xs_pm;
// Record ranks.
reg [TW-1:0] xr_t;
reg xr_h1, xr_h2;
integer xr_d;
reg [2:0] xr_c;
reg [PW-1:0] xr_L;
reg [KMAX*PW-1:0] xr_lseq;
reg [KMAX*4*PW-1:0] xr_hp;
reg [KMAX*4-1:0] xr_hit;
reg [KMAX*4*LW-1:0] xr_wo;
reg [KMAX-1:0] xr_done;
integer xc, xk, xj, xh, xq, xg, xf;

// The marker pointer checks per candidate (a block of their own):
// om - ptr == os (okp) and om - ptr - 1 == os, as om - ptr == os + 1 (eqr).
always @* begin
    for (xq = 0; xq <= KMAX; xq = xq + 1) begin
        xc_okp[xq] = ptr_is(e_om, xq < KMAX ? e_ros[xq*LW +: LW] : {LW{1'b1}}, e_ptr, 1'b0);
        xc_eqr[xq] = ptr_is(e_om, xq < KMAX ? e_ros[xq*LW +: LW] : {LW{1'b1}}, e_ptr, 1'b1);
    end
end

// Per record rank, the words up to its last ULPDU octet's word (xc_lwm) and
// whether that word is payload (xc_lpay). With E's word offset e = E mod
// WPB the last word (E - 1) mod WPB is e - 1, or WPB - 1 for e == 0:
// compares of e with constants, no decrement before them.
always @* begin
    xc_lwm = 0;
    xc_lpay = 0;
    for (xq = 0; xq < KMAX; xq = xq + 1)
        for (xg = 0; xg < WPB; xg = xg + 1) begin
            if (e_rE[xq*PW +: LW] == xg[LW-1:0])
                xc_lpay[xq] = e_pmask[(xg + WPB - 1) % WPB];
            xc_lwm[xq*WPB + xg] = e_rE[xq*PW +: LW] == {LW{1'b0}};
            for (xf = xg + 1; xf < WPB; xf = xf + 1)
                if (e_rE[xq*PW +: LW] == xf[LW-1:0])
                    xc_lwm[xq*WPB + xg] = 1'b1;
        end
end

always @* begin
    // Markers: FPDUPTR/4 == (marker word) - (FPDU's first word) reads
    // om - ptr == os for an FPDU opened in this beat at word os, and
    // B + om - ptr == S for one opened earlier at word S.
    xc_mq = {{(PW-LW){1'b0}}, e_om} - {2'b00, e_ptr};
    xc_mqr = xc_mq - 1'b1;
    xc_Sopen = 0;
    xc_fwm = 0;
    xc_lead = 0;
    xc_dnz = 0;
    xc_Em1v = 0;
    xc_endin = 0;
    for (xc = 0; xc <= KMAX; xc = xc + 1) begin
        xc_os = xc < KMAX ? e_ros[xc*LW +: LW] : {LW{1'b1}};
        xc_Sopen[xc*PW +: PW] = e_B + {{(PW-LW){1'b0}}, xc_os};
        for (xj = 0; xj < WPB; xj = xj + 1)
            xc_fwm[xc*WPB + xj] = xj >= xc_os;
        xc_lead[xc] = e_mkany && e_om == xc_os;
        xc_dnz[xc] = e_om != xc_os;
        if (xc < KMAX) begin
            xc_Em1 = e_rE[xc*PW +: PW] - 1'b1;
            xc_Em1v[xc*PW +: PW] = xc_Em1;
            xc_endin[xc] = xc_Em1[PW-1:LW] == e_B[PW-1:LW];
        end
    end

    // What this beat brings to each engine slot.
    xs_dec = 0;
    xs_open = 0;
    xs_small = 0;
    xs_endin = 0;
    xs_lpay = 0;
    xs_lead = 0;
    xs_okp = 0;
    xs_eqr = 0;
    xs_dnz = 0;
    xs_Sopen = 0;
    xs_Em1 = 0;
    xs_fwm = {(NCRC*WPB){1'b1}};
    xs_lwm = 0;
    for (xk = 0; xk < NCRC; xk = xk + 1) begin
        xs_m = 0;
        for (xc = 0; xc < KMAX; xc = xc + 1) begin
            if (e_valid && xc < e_ndec && slot_hit(sp, e_carried, xc[3:0], xk[SW-1:0])) begin
                xs_dec[xk] = 1'b1;
                xs_small[xk] = e_rsmall[xc];
                xs_endin[xk] = xc_endin[xc];
                xs_lpay[xk] = xc_lpay[xc];
                xs_Em1[xk*PW +: PW] = xc_Em1v[xc*PW +: PW];
                xs_lwm[xk*WPB +: WPB] = xc_lwm[xc*WPB +: WPB];
                if (!(xc == 0 && e_carried))
                    xs_m[xc] = 1'b1;
            end
        end
        xs_pm = 1'b0;
        for (xc = 0; xc < 8; xc = xc + 1)
            if (e_ndec == xc[2:0] && slot_hit(sp, e_carried, xc[3:0], xk[SW-1:0]))
                xs_pm = e_valid && e_pend;
        if (xs_pm)
            xs_m = 0;
        xs_m[KMAX] = xs_pm;
        xs_open[xk] = |xs_m;
        for (xc = 0; xc <= KMAX; xc = xc + 1) begin
            if (xs_m[xc]) begin
                xs_Sopen[xk*PW +: PW] = xc_Sopen[xc*PW +: PW];
                xs_fwm[xk*WPB +: WPB] = xc_fwm[xc*WPB +: WPB];
                xs_lead[xk] = xc_lead[xc];
                xs_okp[xk] = xc_okp[xc];
                xs_eqr[xk] = xc_eqr[xc];
                xs_dnz[xk] = xc_dnz[xc];
            end
        end
    end
    xs_sp = e_valid ? eng_slot(sp, e_carried, {1'b0, e_ndec} + {3'd0, e_pend}) : sp;

    // Per record rank: the record, where its four header words are
    // (positions, and which of them this beat holds), whether its header
    // is complete with this beat.
    xr_lseq = 0;
    xr_hp = 0;
    xr_hit = 0;
    xr_wo = 0;
    xr_done = 0;
    for (xc = 0; xc < KMAX; xc = xc + 1) begin
        xr_lseq[xc*PW +: PW] = e_B + {{(PW-LW){1'b0}}, e_rpos[xc*LW +: LW]} - e_P0;
        xr_L = e_B + {{(PW-LW){1'b0}}, e_rpos[xc*LW +: LW]};
        for (xh = 0; xh < 4; xh = xh + 1) begin
            xr_c = xh[2:0] + ((xh[2:0] >= e_rhs[xc*3 +: 3]) ? 3'd2 : 3'd1);
            xr_t = {3'd0, e_rpos[xc*LW +: LW]} + {{(TW-3){1'b0}}, xr_c};
            xr_hp[(xc*4 + xh)*PW +: PW] = xr_L + {{(PW-3){1'b0}}, xr_c};
            xr_wo[(xc*4 + xh)*LW +: LW] = xr_t[LW-1:0];
            // the word's payload bit for both steps (xh + 1, xh + 2), then
            // the step: the select does not wait for the step's compare, and
            // word j is the one when rpos == j - xh - step (a compare with a
            // constant, no adder)
            xr_h1 = 1'b0;
            xr_h2 = 1'b0;
            for (xj = 0; xj < WPB; xj = xj + 1) begin
                xr_d = xj - xh - 1;
                if (xr_d >= 0 && e_rpos[xc*LW +: LW] == xr_d[LW-1:0])
                    xr_h1 = e_pmask[xj];
                xr_d = xj - xh - 2;
                if (xr_d >= 0 && e_rpos[xc*LW +: LW] == xr_d[LW-1:0])
                    xr_h2 = e_pmask[xj];
            end
            xr_hit[xc*4 + xh] = xh[2:0] >= e_rhs[xc*3 +: 3] ? xr_h2 : xr_h1;
            if (xh == 3)
                xr_done[xc] = xr_t < WPB[TW-1:0];
        end
    end
end

reg x_valid = 1'b0, x_first = 1'b0, x_last = 1'b0;
reg [DATA_WIDTH-1:0] x_data = 0;
reg [WPB-1:0] x_pmask = 0, x_mk = 0;
reg [PW-1:0] x_mp = 0, x_mpr = 0, x_moff = 0;
reg [PW-LW-1:0] x_Bn = 0;
reg x_con = 1'b0, x_grid = 1'b0, x_stop = 1'b0, x_whole = 1'b0, x_fm = 1'b0, x_anyl = 1'b0;
reg [2:0] x_ndec = 3'd0;
reg [15:0] x_nrec = 16'd0;
reg [NCRC-1:0] x_dec = 0, x_open = 0, x_small = 0, x_endin = 0, x_lpay = 0;
reg [NCRC-1:0] x_lead = 0, x_okp = 0, x_eqr = 0, x_dnz = 0;
reg [NCRC*PW-1:0] x_Sopen = 0, x_Em1 = 0;
reg [NCRC*WPB-1:0] x_fwm = 0, x_lwm = 0;
reg [KMAX*PW-1:0] x_rlseq = 0;
reg [KMAX*32-1:0] x_rword = 0;
reg [KMAX-1:0] x_rfirst = 0, x_rdone = 0;
reg [KMAX*4*PW-1:0] x_rhp = 0;
reg [KMAX*4-1:0] x_rhit = 0;
reg [KMAX*4*LW-1:0] x_rwo = 0;

always @(posedge clk) begin
    if (e_valid)
        sp <= xs_sp;
    x_valid <= e_valid;
    x_first <= e_first;
    x_last <= e_last;
    x_data <= e_data;
    x_pmask <= e_pmask;
    for (xj = 0; xj < WPB; xj = xj + 1)
        x_mk[xj] <= e_mkany && e_om == xj[LW-1:0];
    x_mp <= e_B + xc_mq;
    x_mpr <= e_B + xc_mqr;
    x_moff <= e_B + {{(PW-LW){1'b0}}, e_om};
    x_Bn <= e_B[PW-1:LW] + 1'b1;
    x_con <= e_con;
    x_grid <= e_grid;
    x_stop <= e_stop;
    x_whole <= e_nrec != 16'd0 && !e_stop && e_nS == e_Pend;
    x_fm <= e_fm;
    x_anyl <= e_anyl;
    x_ndec <= e_valid ? e_ndec : 3'd0;
    x_nrec <= e_nrec;
    x_dec <= xs_dec;
    x_open <= xs_open;
    x_small <= xs_small;
    x_endin <= xs_endin;
    x_lpay <= xs_lpay;
    x_lead <= xs_lead;
    x_okp <= xs_okp;
    x_eqr <= xs_eqr;
    x_dnz <= xs_dnz;
    x_Sopen <= xs_Sopen;
    x_Em1 <= xs_Em1;
    x_fwm <= xs_fwm;
    x_lwm <= xs_lwm;
    x_rlseq <= xr_lseq;
    x_rword <= e_rword;
    x_rfirst <= e_rfirst;
    x_rdone <= xr_done;
    x_rhp <= xr_hp;
    x_rhit <= xr_hit;
    x_rwo <= xr_wo;
    if (rst) begin
        sp <= 0;
        x_valid <= 1'b0;
    end
end

// ========================================================== stage F: FPDU and record slots
// Engine slots: crc32c inputs and marker checks. Record slots: header
// capture and which records leave for the FIFO (in record order: those
// whose header is complete, the newest only once the walk is over).
reg [NCRC-1:0] s_act = 0, s_Ek = 0, s_small = 0, s_mkerr = 0, s_endn = 0;
// s_lead: the slot's FPDU begins with a marker; s_frfc / s_fdraft: a later
// marker of it had the RFC 5044 / draft-01 FPDUPTR (the forms differ only
// then).
reg [NCRC-1:0] s_lead = 0, s_frfc = 0, s_fdraft = 0;
reg [NCRC*PW-1:0] s_S = 0, s_Em1 = 0;
reg [NCRC*WPB-1:0] s_lwm = 0;

reg [NCRC-1:0] fn_act, fn_Ek, fn_small, fn_mkerr_s, fn_endn;
reg [NCRC-1:0] fn_tvalid, fn_tlast, fn_chk;
reg [NCRC-1:0] fn_lead, fn_frfc, fn_fdraft;
reg [NCRC*KEEP-1:0] fn_keep;
reg [NCRC*PW-1:0] fn_S, fn_Em1;
reg [NCRC*WPB-1:0] fn_lwmv;
reg [WPB-1:0] fn_lwm, fn_kw;
reg fn_open, fn_dec, fn_active, fn_endin, fn_lpay, fn_cover, fn_okp, fn_okr, fn_dnz, fn_eqr;
integer fk, fj;

always @* begin
    fn_act = 0;
    fn_Ek = 0;
    fn_small = 0;
    fn_mkerr_s = 0;
    fn_endn = 0;
    fn_lead = 0;
    fn_frfc = 0;
    fn_fdraft = 0;
    fn_tvalid = 0;
    fn_tlast = 0;
    fn_chk = 0;
    fn_keep = 0;
    fn_S = 0;
    fn_Em1 = 0;
    fn_lwmv = 0;
    for (fk = 0; fk < NCRC; fk = fk + 1) begin
        fn_open = x_open[fk];
        fn_dec = x_dec[fk];
        fn_S[fk*PW +: PW] = fn_open ? x_Sopen[fk*PW +: PW] : s_S[fk*PW +: PW];
        fn_Em1[fk*PW +: PW] = fn_dec ? x_Em1[fk*PW +: PW] : s_Em1[fk*PW +: PW];
        fn_lwmv[fk*WPB +: WPB] = fn_dec ? x_lwm[fk*WPB +: WPB] : s_lwm[fk*WPB +: WPB];
        fn_small[fk] = fn_dec ? x_small[fk] : s_small[fk] && !fn_open;
        fn_Ek[fk] = fn_dec || (s_Ek[fk] && !fn_open);
        fn_active = (s_act[fk] && x_valid) || fn_open;
        // The FPDU's last word (its CRC) is in this beat. An FPDU carried
        // from an earlier beat is in the same frame, so this beat is the
        // one after that beat.
        fn_endin = fn_dec ? x_endin[fk] : s_Ek[fk] && !fn_open && s_endn[fk];
        fn_lwm = fn_endin ? fn_lwmv[fk*WPB +: WPB] : {WPB{1'b1}};
        fn_kw = fn_active ? x_fwm[fk*WPB +: WPB] & fn_lwm : {WPB{1'b0}};
        for (fj = 0; fj < WPB; fj = fj + 1)
            fn_keep[fk*KEEP + 4*fj +: 4] = {4{fn_kw[fj]}};
        fn_tvalid[fk] = fn_active;
        fn_tlast[fk] = fn_endin || x_last || (fn_dec && x_small[fk]);
        fn_act[fk] = fn_active && !fn_tlast[fk];
        // A whole checked FPDU ends here: its CRC word is payload.
        fn_lpay = x_lpay[fk];
        if (!fn_dec)
            for (fj = 0; fj < WPB; fj = fj + 1)
                if (s_Em1[fk*PW +: LW] == fj[LW-1:0])
                    fn_lpay = x_pmask[fj];
        fn_chk[fk] = fn_active && fn_endin && fn_lpay && !fn_small[fk];
        fn_endn[fk] = fn_Em1[fk*PW + LW +: PW-LW] == x_Bn;

        // Marker check: the marker in this FPDU's words of the beat, d
        // words from the FPDU's first word. d == FPDUPTR/4 is right for
        // every marker (the leading one: d = 0 = FPDUPTR); after a leading
        // marker, d - 1 (RFC 5044: from the ULPDU_Length word) is right
        // too, and d is then the draft-01 form.
        fn_cover = |(x_mk & fn_kw);
        fn_lead[fk] = fn_open ? x_lead[fk] : s_lead[fk];
        fn_okp = fn_open ? x_okp[fk] : x_mp == s_S[fk*PW +: PW];
        fn_eqr = fn_open ? x_eqr[fk] : x_mpr == s_S[fk*PW +: PW];
        fn_dnz = fn_open ? x_dnz[fk] : x_moff != s_S[fk*PW +: PW];
        fn_okr = fn_lead[fk] && fn_dnz && fn_eqr;
        fn_frfc[fk] = (s_frfc[fk] && !fn_open) || (fn_cover && fn_okr);
        fn_fdraft[fk] = (s_fdraft[fk] && !fn_open) || (fn_cover && fn_okp && fn_lead[fk] && fn_dnz);
        fn_mkerr_s[fk] = (s_mkerr[fk] && !fn_open) || (fn_cover && !fn_okp && !fn_okr) ||
            (fn_frfc[fk] && fn_fdraft[fk]);  // the forms mixed in one FPDU
    end
end

// Record slots. r_rk[r] = (r - rsp) mod NREC, rsp the slot of the next
// record (a running remainder); records take slots in turn and never skip
// one, and stage G writes the records that leave in record order to the
// FIFO banks from its own bank pointer.
// (r - 0) mod NREC for every slot r: r_rk after reset.
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
reg [NREC*RW-1:0] r_rk = rk_init(1'b0);
reg [NREC-1:0] r_pend = 0, r_first = 0, r_isnew = 0, r_donen = 0;
reg [NREC*4-1:0] r_hitn = 0;
reg [NREC*PW-1:0] r_lseq = 0;
reg [NREC*4*PW-1:0] r_hp = 0;
reg [NREC*32-1:0] r_word = 0;
reg [NREC*128-1:0] r_hdr = 0;

reg [NREC*RW-1:0] fr_rk;
reg [NREC-1:0] fr_pend, fr_first, fr_isnew, fr_push, fr_lastf, fr_done, fr_donen;
reg [NREC*4-1:0] fr_hitn;
reg [NREC*PW-1:0] fr_lseq;
reg [NREC*4*PW-1:0] fr_hp;
reg [NREC*32-1:0] fr_word;
reg [NREC*128-1:0] fr_hdr;
reg [2:0] fr_npush;
reg [RW-1:0] fr_r;
reg fr_dec, fr_hit;
reg [31:0] fr_dw;
reg [LW-1:0] fr_p;
integer fr, fc, fh, fw;

always @* begin
    fr_rk = 0;
    fr_pend = 0;
    fr_first = 0;
    fr_isnew = 0;
    fr_push = 0;
    fr_lastf = 0;
    fr_done = 0;
    fr_donen = 0;
    fr_hitn = 0;
    fr_lseq = 0;
    fr_hp = 0;
    fr_word = 0;
    fr_hdr = 0;
    for (fr = 0; fr < NREC; fr = fr + 1) begin
        fr_r = r_rk[fr*RW +: RW];
        fr_dec = {{(5-RW){1'b0}}, fr_r} < {2'b00, x_ndec};
        fr_lseq[fr*PW +: PW] = r_lseq[fr*PW +: PW];
        fr_word[fr*32 +: 32] = r_word[fr*32 +: 32];
        fr_first[fr] = r_first[fr];
        fr_hp[fr*4*PW +: 4*PW] = r_hp[fr*4*PW +: 4*PW];
        fr_done[fr] = r_donen[fr];
        fr_hdr[fr*128 +: 128] = r_hdr[fr*128 +: 128];
        for (fh = 0; fh < 4; fh = fh + 1) begin
            fr_p = r_hp[(fr*4 + fh)*PW +: LW];
            fr_hit = 1'b0;
            fr_dw = 32'd0;
            for (fw = 0; fw < WPB; fw = fw + 1) begin
                if (fr_p == fw[LW-1:0]) begin
                    fr_hit = r_hitn[fr*4 + fh] && x_pmask[fw];
                    fr_dw = x_data[32*fw +: 32];
                end
            end
            if (fr_hit)
                fr_hdr[fr*128 + 96 - 32*fh +: 32] = {fr_dw[7:0], fr_dw[15:8], fr_dw[23:16], fr_dw[31:24]};
        end
        for (fc = 0; fc < KMAX; fc = fc + 1) begin
            if (fr_dec && fr_r == fc[RW-1:0]) begin
                fr_lseq[fr*PW +: PW] = x_rlseq[fc*PW +: PW];
                fr_word[fr*32 +: 32] = x_rword[fc*32 +: 32];
                fr_first[fr] = x_rfirst[fc];
                fr_hp[fr*4*PW +: 4*PW] = x_rhp[fc*4*PW +: 4*PW];
                fr_done[fr] = x_rdone[fc];
                for (fh = 0; fh < 4; fh = fh + 1) begin
                    fr_dw = 32'd0;
                    for (fw = 0; fw < WPB; fw = fw + 1)
                        if (x_rwo[(fc*4 + fh)*LW +: LW] == fw[LW-1:0])
                            fr_dw = x_data[32*fw +: 32];
                    fr_hdr[fr*128 + 96 - 32*fh +: 32] = x_rhit[fc*4 + fh] ?
                        {fr_dw[7:0], fr_dw[15:8], fr_dw[23:16], fr_dw[31:24]} : 32'd0;
                end
            end
        end
        for (fh = 0; fh < 4; fh = fh + 1)
            fr_hitn[fr*4 + fh] = fr_hp[(fr*4 + fh)*PW + LW +: PW-LW] == x_Bn;
        fr_donen[fr] = fr_hp[(fr*4 + 3)*PW + LW +: PW-LW] <= x_Bn;
        fr_pend[fr] = fr_dec || r_pend[fr];
        fr_isnew[fr] = x_ndec != 3'd0 ? {{(5-RW){1'b0}}, fr_r} == {2'b00, x_ndec} - 5'd1 : r_isnew[fr];
        // Out when its header is complete and a later record exists (then
        // it is not the last) or the walk is over.
        fr_push[fr] = x_valid && fr_pend[fr] && (fr_done[fr] || x_last) &&
            (!fr_isnew[fr] || x_last || x_stop);
        fr_lastf[fr] = fr_isnew[fr] && (x_last || x_stop);
        fr_rk[fr*RW +: RW] = rec_sub(fr_r, {1'b0, x_ndec});
    end
    fr_npush = 3'd0;
    for (fr = 0; fr < NREC; fr = fr + 1)
        fr_npush = fr_npush + {2'd0, fr_push[fr]};
end

// Engine inputs, and the slot results entering stage G.
reg [NCRC-1:0] g_tvalid = 0, g_tlast = 0, g_chk = 0;
reg [NCRC*KEEP-1:0] g_keep = 0;
reg [DATA_WIDTH-1:0] g_data = 0;
reg g_end = 1'b0;
reg q_valid = 1'b0, q_first = 1'b0;
reg [NCRC-1:0] q_mkerr = 0, q_rfc = 0, q_draft = 0;
reg [NREC-1:0] q_lastf = 0;    // the records themselves are r_* once F wrote them
reg [2:0] q_npush = 3'd0;
reg [4:0] q_sumx = 0;
reg [15:0] q_nrec = 16'd0;

always @(posedge clk) begin
    if (x_valid) begin
        s_act <= fn_act;
        s_S <= fn_S;
        s_Em1 <= fn_Em1;
        s_lwm <= fn_lwmv;
        s_endn <= fn_endn;
        s_Ek <= fn_Ek;
        s_small <= fn_small;
        s_mkerr <= fn_mkerr_s;
        s_lead <= fn_lead;
        s_frfc <= fn_frfc;
        s_fdraft <= fn_fdraft;
        r_rk <= fr_rk;
        r_pend <= fr_pend & ~fr_push;
        r_isnew <= fr_isnew;
        r_lseq <= fr_lseq;
        r_word <= fr_word;
        r_first <= fr_first;
        r_hdr <= fr_hdr;
        r_hp <= fr_hp;
        r_hitn <= fr_hitn;
        r_donen <= fr_donen;
    end
    g_tvalid <= fn_tvalid;
    g_tlast <= fn_tlast;
    g_chk <= x_con ? fn_chk : {NCRC{1'b0}};
    g_keep <= fn_keep;
    g_data <= x_data;
    g_end <= x_valid && x_last;
    q_valid <= x_valid;
    q_first <= x_first;
    q_mkerr <= fn_chk & fn_mkerr_s;
    q_rfc <= fn_chk & ~fn_mkerr_s & fn_frfc;
    q_draft <= fn_chk & ~fn_mkerr_s & fn_fdraft;
    q_lastf <= fr_lastf;
    q_npush <= fr_npush;
    q_sumx <= {x_whole, x_stop, x_grid, x_fm, x_anyl};
    q_nrec <= x_nrec;
    if (rst) begin
        s_act <= 0;
        s_Ek <= 0;
        s_small <= 0;
        s_mkerr <= 0;
        s_lead <= 0;
        s_frfc <= 0;
        s_fdraft <= 0;
        s_S <= 0;
        s_Em1 <= 0;
        s_lwm <= 0;
        s_endn <= 0;
        r_rk <= rk_init(1'b0);
        r_pend <= 0;
        r_isnew <= 0;
        r_first <= 0;
        r_lseq <= 0;
        r_word <= 0;
        r_hdr <= 0;
        r_hp <= 0;
        r_hitn <= 0;
        r_donen <= 0;
        g_tvalid <= 0;
        g_end <= 1'b0;
        q_valid <= 1'b0;
    end
end

// ========================================================== stage G: record store
// The records that leave in one beat are consecutive in record order, from
// the oldest waiting one. They go to consecutive FIFO banks from wslot, the
// bank of the next record to store; the first that does not fit (its bank
// full) and all the frame's later records are dropped. Bank b takes the
// record of slot (b - wslot + g_pptr) mod NREC, g_pptr the record slot of
// the next record to leave. Every decision is made per bank in parallel:
// g_wrk[b] = (b - wslot) mod NREC, a running remainder, orders the banks
// (bank b takes a record when g_wrk[b] < q_npush), and g_lt[c*NREC+b] =
// g_wrk[c] < g_wrk[b] is kept beside it, so that whether an earlier bank is
// full is one AND-OR of registers (the banks' full flags are registers
// too). The banks written are the first nok in that order: moving wslot on
// by nok swaps the order of exactly the pairs with one bank written, and
// the new g_wrk[b] counts the banks before b.
// (c < b) for every pair of banks: g_lt after reset (wslot = 0).
/* verilator lint_off UNUSEDSIGNAL */
function [NREC*NREC-1:0] lt_init(input dummy);
/* verilator lint_on UNUSEDSIGNAL */
    integer i, j;
    begin
        lt_init = 0;
        for (i = 0; i < NREC; i = i + 1)
            for (j = 0; j < NREC; j = j + 1)
                lt_init[i*NREC + j] = i < j;
    end
endfunction
reg [NREC*RW-1:0] g_wrk = rk_init(1'b0);
reg [NREC*NREC-1:0] g_lt = lt_init(1'b0);
reg [RW-1:0] g_pptr = 0;
reg f_ovf = 1'b0;
reg g_ovfin = 1'b0;     // !q_first && f_ovf, as a register

wire [NREC-1:0] bank_full;

reg gn_ovf_in, gn_ovf, gn_blk;
reg [NREC-1:0] gn_wr, gn_in;
reg [NREC*REC_W-1:0] gn_rec;
reg [RW-1:0] gn_src;
reg [2:0] gn_nok;
reg [NREC*RW-1:0] gn_wrk;
reg [NREC*NREC-1:0] gn_lt;
integer gb, gc;

always @* begin
    gn_ovf_in = g_ovfin;
    gn_wr = 0;
    gn_in = 0;
    gn_rec = 0;
    gn_ovf = gn_ovf_in;
    for (gb = 0; gb < NREC; gb = gb + 1) begin
        gn_src = rec_add(g_wrk[gb*RW +: RW], {{(4-RW){1'b0}}, g_pptr});
        gn_in[gb] = {{(5-RW){1'b0}}, g_wrk[gb*RW +: RW]} < {2'b00, q_npush};
        gn_blk = gn_ovf_in || bank_full[gb];
        for (gc = 0; gc < NREC; gc = gc + 1)
            if (gc != gb && g_lt[gc*NREC + gb] && bank_full[gc])
                gn_blk = 1'b1;
        gn_wr[gb] = gn_in[gb] && !gn_blk;
        if (gn_in[gb] && gn_blk)
            gn_ovf = 1'b1;
        for (gc = 0; gc < NREC; gc = gc + 1)
            if (gn_src == gc[RW-1:0])
                gn_rec[gb*REC_W +: REC_W] = {r_lseq[gc*PW +: PW], r_word[gc*32 +: 32],
                    r_hdr[gc*128 +: 128], r_first[gc], q_lastf[gc]};
    end
    gn_nok = 3'd0;
    for (gb = 0; gb < NREC; gb = gb + 1)
        gn_nok = gn_nok + {2'd0, gn_wr[gb]};
    gn_lt = 0;
    for (gc = 0; gc < NREC; gc = gc + 1)
        for (gb = 0; gb < NREC; gb = gb + 1)
            if (gc != gb)
                gn_lt[gc*NREC + gb] = g_lt[gc*NREC + gb] ^ gn_wr[gc] ^ gn_wr[gb];
    gn_wrk = 0;
    for (gb = 0; gb < NREC; gb = gb + 1)
        for (gc = 0; gc < NREC; gc = gc + 1)
            gn_wrk[gb*RW +: RW] = gn_wrk[gb*RW +: RW] + {{(RW-1){1'b0}}, gn_lt[gc*NREC + gb]};
end

// Stage H: frame totals, a cycle after the store (the summary waits
// beside the engines anyway).
reg k_valid = 1'b0, k_first = 1'b0, k_ovf = 1'b0;
reg [2:0] k_nok = 3'd0;
reg [NCRC-1:0] k_mkerr = 0, k_rfc = 0, k_draft = 0;
reg [4:0] k_sumx = 0;
reg [15:0] k_nrec = 16'd0;

always @(posedge clk) begin
    if (q_valid) begin
        g_wrk <= gn_wrk;
        g_lt <= gn_lt;
        g_pptr <= rec_add(g_pptr, {1'b0, q_npush});
        f_ovf <= gn_ovf;
    end
    g_ovfin <= !x_first && (q_valid ? gn_ovf : f_ovf);
    k_valid <= q_valid;
    k_first <= q_first;
    k_ovf <= gn_ovf;
    k_nok <= gn_nok;
    k_mkerr <= q_mkerr;
    k_rfc <= q_rfc;
    k_draft <= q_draft;
    k_sumx <= q_sumx;
    k_nrec <= q_nrec;
    if (rst) begin
        g_wrk <= rk_init(1'b0);
        g_lt <= lt_init(1'b0);
        g_pptr <= 0;
        f_ovf <= 1'b0;
        g_ovfin <= 1'b0;
        k_valid <= 1'b0;
    end
end

reg f_mkerr = 1'b0;
reg [15:0] f_nstored = 16'd0;
reg [7:0] f_nrfc = 8'd0, f_ndraft = 8'd0;
reg hn_mkerr;
reg [15:0] hn_nstored;
reg [7:0] hn_nrfc, hn_ndraft;
integer hc;

always @* begin
    hn_nstored = (k_first ? 16'd0 : f_nstored) + {13'd0, k_nok};
    hn_mkerr = (!k_first && f_mkerr) || (|k_mkerr);
    hn_nrfc = k_first ? 8'd0 : f_nrfc;
    hn_ndraft = k_first ? 8'd0 : f_ndraft;
    for (hc = 0; hc < NCRC; hc = hc + 1) begin
        hn_nrfc = hn_nrfc + {7'd0, k_rfc[hc]};
        hn_ndraft = hn_ndraft + {7'd0, k_draft[hc]};
    end
end

reg [SUM_W-1:0] h_sum = 0;

always @(posedge clk) begin
    if (k_valid) begin
        f_mkerr <= hn_mkerr;
        f_nstored <= hn_nstored;
        f_nrfc <= hn_nrfc;
        f_ndraft <= hn_ndraft;
    end
    h_sum <= {hn_nrfc, hn_ndraft, k_sumx, k_nrec, !k_ovf, hn_nstored, !hn_mkerr};
    if (rst) begin
        f_mkerr <= 1'b0;
        f_nstored <= 16'd0;
        f_nrfc <= 8'd0;
        f_ndraft <= 8'd0;
    end
end

// ========================================================== CRC engines
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
            .s_axis_tdata(g_data),
            .s_axis_tkeep(g_keep[gk*KEEP +: KEEP]),
            .s_axis_tvalid(g_tvalid[gk]),
            .s_axis_tready(crc_in_ready[gk]),
            .s_axis_tlast(g_tlast[gk]),
            .m_axis_tdata(crc_out[gk*32 +: 32]),
            .m_axis_tvalid(crc_out_valid[gk]),
            .m_axis_tready(1'b1)
        );
    end
endgenerate

// The check flags and the summary travel beside the engines (the summary
// leaves stage H two cycles after the engine inputs leave stage F).
reg [LCRC*NCRC-1:0] dl_chk = 0;
reg [LCRC-1:0] dl_end = 0;
reg [(LCRC-2)*SUM_W-1:0] dl_sum = 0;

always @(posedge clk) begin
    dl_chk <= {dl_chk[(LCRC-1)*NCRC-1:0], g_chk};
    dl_end <= {dl_end[LCRC-2:0], g_end};
    dl_sum <= {dl_sum[(LCRC-3)*SUM_W-1:0], h_sum};
    if (rst) begin
        dl_chk <= 0;
        dl_end <= 0;
    end
end

wire [NCRC-1:0] chk_out = dl_chk[(LCRC-1)*NCRC +: NCRC];
reg crc_bad;
integer ck;
always @* begin
    crc_bad = 1'b0;
    for (ck = 0; ck < NCRC; ck = ck + 1)
        if (chk_out[ck] && (!crc_out_valid[ck] || crc_out[ck*32 +: 32] != RESIDUE))
            crc_bad = 1'b1;
end

reg crc_err = 1'b0;
reg o_valid = 1'b0, o_crc_ok = 1'b0;
reg [SUM_W-1:0] o_sum = 0;

always @(posedge clk) begin
    o_valid <= dl_end[LCRC-1];
    if (dl_end[LCRC-1]) begin
        o_sum <= dl_sum[(LCRC-3)*SUM_W +: SUM_W];
        o_crc_ok <= !(crc_err || crc_bad);
        crc_err <= 1'b0;
    end else begin
        crc_err <= crc_err || crc_bad;
    end
    if (rst) begin
        o_valid <= 1'b0;
        crc_err <= 1'b0;
    end
end

assign sum_valid = o_valid;
assign sum_crc_ok = o_crc_ok;
assign {sum_nrfc, sum_ndraft, sum_whole, sum_small, sum_grid, sum_first_marker, sum_any_l, sum_nfpdu, sum_ok,
    sum_nrec, sum_marker_ok} = o_sum;

// ========================================================== record FIFO
wire [NREC-1:0] bank_valid;
wire [NREC*REC_W-1:0] bank_data;
reg [RW-1:0] rslot = 0;     // bank of the next record to read

generate
    for (gk = 0; gk < NREC; gk = gk + 1) begin : g_bank
        mpa_rx_fifo #(
            .WIDTH(REC_W),
            .DEPTH(1 << BANK_AW)
        ) u_bank (
            .clk(clk),
            .rst(rst),
            .s_axis_tdata(gn_rec[gk*REC_W +: REC_W]),
            .s_axis_tvalid(gn_wr[gk]),
            .s_axis_tready(),
            .m_axis_tdata(bank_data[gk*REC_W +: REC_W]),
            .m_axis_tvalid(bank_valid[gk]),
            .m_axis_tready(rec_valid && rec_ready && rslot == gk),
            .count(),
            .empty(),
            .full(bank_full[gk])
        );
    end
endgenerate

reg [REC_W-1:0] rec_out;
reg rec_out_valid;
integer ok_;
always @* begin
    rec_out = {REC_W{1'b0}};
    rec_out_valid = 1'b0;
    for (ok_ = 0; ok_ < NREC; ok_ = ok_ + 1) begin
        if (rslot == ok_[RW-1:0]) begin
            rec_out = bank_data[ok_*REC_W +: REC_W];
            rec_out_valid = bank_valid[ok_];
        end
    end
end
wire [31:0] rec_word = rec_out[REC_W-17 -: 32];
assign rec_valid = rec_out_valid;
assign rec_lseq_w = rec_out[REC_W-1 -: 16];
assign rec_ulen = {rec_word[7:0], rec_word[15:8]};
assign rec_ctrl = rec_word[23:16];
assign rec_ulp = rec_word[31:24];
assign rec_hdr = rec_out[129:2];
assign rec_first = rec_out[1];
assign rec_last = rec_out[0];

always @(posedge clk) begin
    if (rec_valid && rec_ready)
        rslot <= rec_add(rslot, 4'd1);
    if (rst)
        rslot <= 0;
end

endmodule

`resetall
