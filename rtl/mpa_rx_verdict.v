// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_verdict: the per-frame verdict of mpa_rx (docs/design.md sections
 * 2 and 5.2; golden/fastpath Engine.Frame decides the same): PLACE,
 * EXCEPTION with a reason, DROP or IGNORE, the context update, and the
 * frame's verdict record (VQ_* in mpa_rx_fields.vh) for the egress.
 *
 * Three stages, one frame per cycle, in frame order:
 * V0: the walker's summary (sum_valid, sum_data: SUM_*) meets the frame
 *     record at the head of mpa_rx_frame's queues (fr_frp, fr_frl; popped
 *     with fr_ready); the context slot is read (ctx_rd_idx, from
 *     mpa_rx_ctx's verdict copy, a write of the same cycle forwarded).
 * V1: every comparison of the segment with the context entry (ctx_rd_ent):
 *     sequence numbers against rcv_nxt, the window and the two out-of-order
 *     ranges, each registered.
 * V2: the decision from those bits, the context write (ctx_wr_valid,
 *     ctx_wr_idx, ctx_wr_data: the entry with the flags, rcv_nxt and ranges
 *     updated) and the verdict record (vq_valid, vq_data).
 * A frame whose context the frame in V1 will write (same slot, both
 * matched) waits a cycle before V0, so that V0 reads what V2 writes. The
 * summary goes straight to V0 when nothing waits and no summary is queued
 * (sum_valid in cycle s: V0 in s), else through the summary queue (V0 in
 * s + 2 at the earliest).
 * busy: a frame is in V1 (its context was read) or V2 writes a context;
 * the configuration port waits (cfg_ready low).
 * Latency: the verdict (V2) in cycle s + 2 without waits.
 */
// Queue outputs that a queue's user does not need (count, empty, full) are
// left open.
/* verilator lint_off PINCONNECTEMPTY */
module mpa_rx_verdict #(
    parameter IDX_BITS = 4,
    // receive window beyond rcv_nxt (octets)
    parameter WINDOW = 32'h0010_0000,
    // summary queue entries (a power of two): frames in flight at most
    parameter DEPTH = 16
) (
    input  wire                   clk,
    input  wire                   rst,

    input  wire                   sum_valid,
    input  wire [37:0]            sum_data,

    input  wire                   fr_valid,
    input  wire [59:0]            fr_frp,
    input  wire [58+IDX_BITS-1:0] fr_frl,
    output wire                   fr_ready,

    output wire [IDX_BITS-1:0]    ctx_rd_idx,
    input  wire [383:0]           ctx_rd_ent,
    output wire                   ctx_wr_valid,
    output wire [IDX_BITS-1:0]    ctx_wr_idx,
    output wire [383:0]           ctx_wr_data,

    output wire                   vq_valid,
    output wire [209+IDX_BITS-1:0] vq_data,

    output wire                   busy
);

`include "mpa_rx_fields.vh"

generate
if (SUM_W != 38 || FRP_W != 60 || FRL_IDX != 58 || VQ_IDX != 209) begin : g_bad_record
    // the port widths above follow mpa_rx_fields.vh
    mpa_rx_verdict_port_widths_must_follow_mpa_rx_fields_vh param_error ();
end
endgenerate

localparam FRL_W = FRL_IDX + IDX_BITS;
localparam VQ_W = VQ_IDX + IDX_BITS;

/* verilator lint_off UNUSEDSIGNAL */
function seq_lt(input [31:0] a, input [31:0] b);
    reg [31:0] d;
    begin
        d = a - b;
        seq_lt = d[31];
    end
endfunction
/* verilator lint_on UNUSEDSIGNAL */

// ------------------------------------------------------------------ V0
reg                 v1, v1_match;
reg  [IDX_BITS-1:0] v1_idx;
wire [IDX_BITS-1:0] fr_idx = fr_frl[FRL_IDX +: IDX_BITS];
wire                fr_match = fr_frl[FRL_MATCH];
wire                v0_hazard = v1 && v1_match && fr_match && v1_idx == fr_idx;
wire [SUM_W-1:0]    sq_head;
wire                sq_valid, sq_in_ready, sq_empty;
wire                v0_byp = sum_valid && sq_empty && !v0_hazard;
`ifdef FORMAL
wire [$clog2(DEPTH):0] f_sq_count;   // the summary queue's entries (formal properties below)
`endif
wire                v0_go = v0_byp || (sq_valid && !v0_hazard);
wire [SUM_W-1:0]    v0_sum = sq_valid ? sq_head : sum_data;
mpa_rx_fifo #(.WIDTH(SUM_W), .DEPTH(DEPTH)) sum_fifo (
    .clk(clk), .rst(rst),
    .s_axis_tdata(sum_data), .s_axis_tvalid(sum_valid && !v0_byp), .s_axis_tready(sq_in_ready),
    .m_axis_tdata(sq_head), .m_axis_tvalid(sq_valid), .m_axis_tready(v0_go),
`ifdef FORMAL
    .count(f_sq_count),
`else
    .count(),
`endif
    .empty(sq_empty), .full()
);
assign fr_ready = v0_go;
assign ctx_rd_idx = fr_idx;

// the frame record and summary pass V1 and V2 on delay lines
localparam PASS_W = FRL_W + FRP_W + SUM_W;
wire [FRL_W-1:0] v1_frl, v2_frl;
wire [FRP_W-1:0] v1_frp, v2_frp;
wire [SUM_W-1:0] v1_sum, v2_sum;
mpa_rx_delay #(.WIDTH(PASS_W), .DEPTH(1)) v1_line (
    .clk(clk), .rst(rst),
    .in_data({fr_frl, fr_frp, v0_sum}),
    .out_data({v1_frl, v1_frp, v1_sum})
);
mpa_rx_delay #(.WIDTH(PASS_W), .DEPTH(1)) v2_line (
    .clk(clk), .rst(rst),
    .in_data({v1_frl, v1_frp, v1_sum}),
    .out_data({v2_frl, v2_frp, v2_sum})
);

reg [31:0] v1_end;   // seq + payload length
always @(posedge clk) begin
    v1 <= v0_go;
    v1_match <= fr_match;
    v1_idx <= fr_idx;
    v1_end <= fr_frp[FRP_SEQ +: FRP_SEQ_W] + {16'd0, fr_frp[FRP_PLEN +: FRP_PLEN_W]};
    if (rst)
        v1 <= 1'b0;
end

// ------------------------------------------------------------------ V1: the comparisons
// the fields of the entry the verdict reads and writes: the flags, rcv_nxt
// and the ranges (the others are zero in what it writes)
localparam FLAGS_W = CTX_R1_VALID + 1;
localparam RANGES_W = CTX_R1_END + CTX_R1_END_W - CTX_R0_START;
reg [383:0] c1;
always @* begin
    c1 = 384'd0;
    c1[CTX_VALID +: FLAGS_W] = ctx_rd_ent[CTX_VALID +: FLAGS_W];
    c1[CTX_RCV_NXT +: CTX_RCV_NXT_W] = ctx_rd_ent[CTX_RCV_NXT +: CTX_RCV_NXT_W];
    c1[CTX_R0_START +: RANGES_W] = ctx_rd_ent[CTX_R0_START +: RANGES_W];
end
wire [31:0] c1_rcv = c1[CTX_RCV_NXT +: CTX_RCV_NXT_W];
wire [31:0] c1_r0s = c1[CTX_R0_START +: CTX_R0_START_W], c1_r0e = c1[CTX_R0_END +: CTX_R0_END_W];
wire [31:0] c1_r1s = c1[CTX_R1_START +: CTX_R1_START_W], c1_r1e = c1[CTX_R1_END +: CTX_R1_END_W];
wire [31:0] v1_seq = v1_frp[FRP_SEQ +: FRP_SEQ_W];
reg                v2;
reg [IDX_BITS-1:0] v2_idx;
reg [31:0]         v2_end;
reg [383:0]        v2_c;
reg [8:0]          v2_mph;
reg b_inorder, b_rcv_lt_end, b_seq_lt_rcv, b_win_ign, b_win_ooo, b_ov0, b_ov1;
reg b_a0, b_b0, b_a1x, b_a1, b_b1x, b_b1, b_r0_seq, b_r0_r1, b_r1_seq, b_r1_r0;
always @(posedge clk) begin
    v2 <= v1;
    v2_idx <= v1_idx;
    v2_end <= v1_end;
    v2_c <= c1;
    // the frame octet offset of a marker position, mod 512
    v2_mph <= v1_frl[FRL_P0 +: 9] + v1_frl[FRL_MPH +: FRL_MPH_W] - v1_seq[8:0];
    b_inorder <= v1_seq == c1_rcv;
    b_rcv_lt_end <= seq_lt(c1_rcv, v1_end);
    b_seq_lt_rcv <= seq_lt(v1_seq, c1_rcv);
    b_win_ign <= (v1_seq - c1_rcv) >= WINDOW;
    b_win_ooo <= (v1_end - c1_rcv) > WINDOW;
    b_ov0 <= seq_lt(v1_seq, c1_r0e) && seq_lt(c1_r0s, v1_end);
    b_ov1 <= seq_lt(v1_seq, c1_r1e) && seq_lt(c1_r1s, v1_end);
    // the out-of-order range merge (golden/fastpath addRange) and the
    // in-order advance over the ranges
    b_a0 <= c1_r0e == v1_seq;
    b_b0 <= v1_end == c1_r0s;
    b_a1x <= c1_r1e == c1_r0s;
    b_a1 <= c1_r1e == v1_seq;
    b_b1x <= c1_r0e == c1_r1s;
    b_b1 <= v1_end == c1_r1s;
    b_r0_seq <= seq_lt(c1_r0s, v1_seq);
    b_r0_r1 <= seq_lt(c1_r0s, c1_r1s);
    b_r1_seq <= seq_lt(c1_r1s, v1_seq);
    b_r1_r0 <= seq_lt(c1_r1s, c1_r0s);
    if (rst)
        v2 <= 1'b0;
end

// ------------------------------------------------------------------ V2: decide
wire [1:0]  i_class = v2_frp[FRP_CLASS +: FRP_CLASS_W];
wire [1:0]  i_drop = v2_frp[FRP_DROP +: FRP_DROP_W];
wire [31:0] i_seq = v2_frp[FRP_SEQ +: FRP_SEQ_W];
wire [7:0]  i_flags = v2_frp[FRP_FLAGS +: FRP_FLAGS_W];
wire [15:0] i_plen = v2_frp[FRP_PLEN +: FRP_PLEN_W];
wire        i_match = v2_frl[FRL_MATCH];
wire        i_over = v2_frl[FRL_OVER];
wire        s_whole = v2_sum[SUM_WHOLE], s_small = v2_sum[SUM_SMALL], s_grid = v2_sum[SUM_GRID];
wire        s_checks = v2_sum[SUM_CHECKS], s_first_marker = v2_sum[SUM_FIRST_MARKER], s_any_l = v2_sum[SUM_ANY_L];

wire [383:0] c = v2_c;
wire c_full = c[CTX_FULL], c_err = c[CTX_ERR], c_sw = c[CTX_SW_OWNED], c_m = c[CTX_MARKERS], c_c = c[CTX_CRC];
wire c_r0 = c[CTX_R0_VALID], c_r1 = c[CTX_R1_VALID];
wire [31:0] c_rcv = c[CTX_RCV_NXT +: CTX_RCV_NXT_W];
wire [31:0] r0s = c[CTX_R0_START +: CTX_R0_START_W], r0e = c[CTX_R0_END +: CTX_R0_END_W];
wire [31:0] r1s = c[CTX_R1_START +: CTX_R1_START_W], r1e = c[CTX_R1_END +: CTX_R1_END_W];
wire [31:0] seg_end = v2_end;
wire inorder = b_inorder;

// out-of-order range merge (golden/fastpath addRange), from V1's bits
wire m_a0 = c_r0 && b_a0;                       // range 0 ends where the segment starts
wire m_b0 = !m_a0 && c_r0 && b_b0;              // range 0 starts where it ends
wire m_a1 = c_r1 && (m_a0 ? b_a1x : b_a1);      // range 1 ends at the merged start
wire m_b1 = !m_a1 && c_r1 && (m_b0 ? b_b1x : b_b1);   // range 1 starts at the merged end
wire [31:0] ns = m_a1 ? r1s : m_a0 ? r0s : i_seq;
wire [31:0] ne = m_b1 ? r1e : m_b0 ? r0e : seg_end;
wire k0 = c_r0 && !m_a0 && !m_b0;   // existing range kept (not merged)
wire k1 = c_r1 && !m_a1 && !m_b1;
wire m_ok = !(k0 && k1);
wire r0_first = m_a1 ? b_r0_r1 : b_r0_seq;    // k0 && !k1: range 0 before the merged one
wire r1_first = m_a0 ? b_r1_r0 : b_r1_seq;    // k1 && !k0
reg  [31:0] n0s, n0e, n1s, n1e;
always @* begin
    n0s = ns; n0e = ne; n1s = ns; n1e = ne;
    if (k0 && !k1) begin
        if (r0_first) begin n0s = r0s; n0e = r0e; end
        else begin n1s = r0s; n1e = r0e; end
    end else if (k1 && !k0) begin
        if (r1_first) begin n0s = r1s; n0e = r1e; end
        else begin n1s = r1s; n1e = r1e; end
    end
end

reg [1:0]   verdict;
reg [3:0]   reason;
reg [383:0] c_new;
reg         c_write;
reg [31:0]  adv;
always @* begin
    verdict = VERDICT_EXC;
    reason = REASON_NONE;
    c_new = c;
    c_write = 1'b0;
    adv = c_rcv;
    if (i_class == CLASS_DROP || i_over) begin
        verdict = VERDICT_DROP;
    end else if (i_class == CLASS_NOT_TCP) begin
        reason = i_drop == NOT_TCP_IPV6_EXT ? REASON_IPV6_EXT : REASON_NOT_TCP;
    end else if (!i_match) begin
        reason = REASON_NO_CONN;
    end else if (!c_full || c_err) begin
        reason = REASON_NOT_FULL;
    end else if (c_sw) begin
        reason = REASON_SW_OWNED;
    end else begin
        if (i_flags[2:0] != 3'b000)
            reason = REASON_FLAGS;
        else if (i_plen == 16'd0 || !b_rcv_lt_end)
            verdict = VERDICT_IGNORE;
        else if (b_seq_lt_rcv)
            reason = REASON_UNALIGNED;
        else if (b_win_ign)
            verdict = VERDICT_IGNORE;
        else if (b_win_ooo)
            reason = REASON_OOO;
        else if ((c_r0 && b_ov0) || (c_r1 && b_ov1))
            reason = REASON_UNALIGNED;
        else if (!inorder && !(c_m && c_c))
            reason = REASON_OOO;
        else if (!s_grid || !s_whole || i_plen[1:0] != 2'd0)   // FPDUs are whole words
            reason = REASON_UNALIGNED;
        else if (!inorder && !s_first_marker)
            reason = REASON_OOO;
        else if (!s_checks)
            reason = REASON_MPA_CHECK;
        else if (s_small)
            reason = REASON_UNALIGNED;
        else if (!inorder && s_any_l)
            reason = REASON_OOO;
        else if (!inorder && !m_ok)
            reason = REASON_RANGES_FULL;
        else
            verdict = VERDICT_PLACE;
        if (verdict == VERDICT_EXC) begin
            // software takes the half connection over
            c_new[CTX_SW_OWNED] = 1'b1;
            c_new[CTX_R0_VALID] = 1'b0;
            c_new[CTX_R1_VALID] = 1'b0;
            c_write = 1'b1;
        end else if (verdict == VERDICT_PLACE && inorder) begin
            // advance over the ranges that now follow (range 0, then 1)
            adv = seg_end;
            c_new[CTX_R0_VALID] = c_r0; c_new[CTX_R1_VALID] = c_r1;
            if (c_r0 && b_b0) begin
                adv = r0e;
                c_new[CTX_R0_VALID] = 1'b0;
                if (c_r1 && b_b1x) begin
                    adv = r1e;
                    c_new[CTX_R1_VALID] = 1'b0;
                end
            end
            // keep the remaining range in slot 0
            if (!c_new[CTX_R0_VALID] && c_new[CTX_R1_VALID]) begin
                c_new[CTX_R0_VALID] = 1'b1; c_new[CTX_R1_VALID] = 1'b0;
                c_new[CTX_R0_START +: CTX_R0_START_W] = r1s;
                c_new[CTX_R0_END +: CTX_R0_END_W] = r1e;
            end
            c_new[CTX_RCV_NXT +: CTX_RCV_NXT_W] = adv;
            c_write = 1'b1;
        end else if (verdict == VERDICT_PLACE) begin
            c_new[CTX_R0_VALID] = 1'b1; c_new[CTX_R1_VALID] = k0 || k1;
            c_new[CTX_R0_START +: CTX_R0_START_W] = n0s; c_new[CTX_R0_END +: CTX_R0_END_W] = n0e;
            c_new[CTX_R1_START +: CTX_R1_START_W] = n1s; c_new[CTX_R1_END +: CTX_R1_END_W] = n1e;
            c_write = 1'b1;
        end
    end
end

assign ctx_wr_valid = v2 && c_write;
assign ctx_wr_idx = v2_idx;
assign ctx_wr_data = c_new;
assign busy = v1 || (v2 && c_write);

// ------------------------------------------------------------------ the verdict record
reg [VQ_W-1:0] vq;
always @* begin
    vq = {VQ_W{1'b0}};
    vq[VQ_VERDICT +: VQ_VERDICT_W] = verdict;
    vq[VQ_REASON +: VQ_REASON_W] = reason;
    vq[VQ_DROP +: VQ_DROP_W] = i_over ? DROP_FCS : i_drop;
    vq[VQ_SEQ +: VQ_SEQ_W] = i_seq;
    vq[VQ_END +: VQ_END_W] = seg_end;
    vq[VQ_PLEN +: VQ_PLEN_W] = i_plen;
    vq[VQ_BEATS +: VQ_BEATS_W] = v2_frl[FRL_BEATS +: FRL_BEATS_W];
    vq[VQ_ADV +: VQ_ADV_W] = adv;
    vq[VQ_INORDER] = inorder;
    vq[VQ_NREC +: VQ_NREC_W] = v2_sum[SUM_NREC +: SUM_NREC_W];
    vq[VQ_STREAM +: VQ_STREAM_W] = v2_frl[FRL_STREAM +: FRL_STREAM_W];
    vq[VQ_DDP_VER +: VQ_DDP_VER_W] = v2_frl[FRL_DDP_VER +: FRL_DDP_VER_W];
    vq[VQ_MARKERS] = v2_frl[FRL_MARKERS] && c_m;
    vq[VQ_MPH +: VQ_MPH_W] = v2_mph;
    vq[VQ_P0 +: VQ_P0_W] = v2_frl[FRL_P0 +: FRL_P0_W];
    vq[VQ_NRFC +: VQ_NRFC_W] = v2_sum[SUM_NRFC +: SUM_NRFC_W];
    vq[VQ_NDRAFT +: VQ_NDRAFT_W] = v2_sum[SUM_NDRAFT +: SUM_NDRAFT_W];
    vq[VQ_IDX +: IDX_BITS] = v2_idx;
end
assign vq_valid = v2;
assign vq_data = vq;

wire unused = &{1'b0, i_flags[7:3], v1_frp, v2_frl, c, ctx_rd_ent};

`ifdef VERILATOR
// Assertions (Verilator --assert; docs/robustness.md): the summary queue is
// never written full; the walker's summary always meets its frame record.
always @(posedge clk) begin
    if (!rst) begin
        assert (!sum_valid || sq_in_ready || v0_byp) else $error("mpa_rx_verdict: summary FIFO written when full");
        assert (!sum_valid || fr_valid) else $error("mpa_rx_verdict: walker summary without a frame record");
    end
end
`endif

`ifdef FORMAL
// ------------------------------------------------------------------ formal
// Proven by `make formal` (docs/robustness.md, "Formal proofs"). The
// environment: the frame records come from a queue that follows the
// AXI4-Stream sender's rules, and the record of every summary received and
// not yet met is at its head (assumed: mpa_rx_frame queues a frame's
// record before the walker's summary, docs/design.md section 5.2); at most
// DEPTH summaries wait (assumed: at most MAX_INFLIGHT frames in flight,
// mpa_rx_ingress). Properties:
//   - the summary queue is never written full, a frame record never
//     popped from an empty queue;
//   - summaries are met in the order they came: one goes straight to V0
//     only when none waits;
//   - one verdict record per frame record popped, two cycles later, with
//     that record's beats and its summary's record count (VQ_BEATS,
//     VQ_NREC): what E1 and E2 rely on;
//   - a summary waits at most two cycles for V0 (a frame in V1 of the
//     same context holds it one);
//   - busy is high while a frame is in V1.
reg f_past_valid = 1'b0;
always @(posedge clk)
    f_past_valid <= 1'b1;
always @*
    if (!f_past_valid)
        assume (rst);

wire [15:0] f_fr_wait;
wire        f_fr_held;
mpa_rx_faxis #(.WIDTH(FRL_W + FRP_W), .F_DUT_SENDS(0)) f_fr (
    .clk(clk), .rst(rst), .tdata({fr_frl, fr_frp}), .tvalid(fr_valid), .tready(fr_ready),
    .f_wait(f_fr_wait), .f_held(f_fr_held));

// summaries received and not yet met, and how long the oldest has waited
reg [7:0] f_pend = 8'd0;
reg [3:0] f_age = 4'd0;
always @(posedge clk) begin
    f_pend <= f_pend + {7'd0, sum_valid} - {7'd0, fr_ready};
    if (fr_ready || (f_pend == 8'd0 && !sum_valid))
        f_age <= 4'd0;
    else if (f_age != 4'd15)
        f_age <= f_age + 4'd1;
    if (rst) begin
        f_pend <= 8'd0;
        f_age <= 4'd0;
    end
end
always @* begin
    if (!rst) begin
        assume (f_pend == 8'd0 && !sum_valid || fr_valid);
        assume (f_pend + {7'd0, sum_valid} <= DEPTH);
    end
end

// the frame popped and the summary it met, two cycles on
reg              f_go1 = 1'b0, f_go2 = 1'b0;
reg [15:0]       f_beats1, f_beats2, f_nrec1, f_nrec2;
always @(posedge clk) begin
    f_go1 <= fr_ready;
    f_go2 <= f_go1;
    f_beats1 <= fr_frl[FRL_BEATS +: FRL_BEATS_W];
    f_beats2 <= f_beats1;
    f_nrec1 <= v0_sum[SUM_NREC +: SUM_NREC_W];
    f_nrec2 <= f_nrec1;
    if (rst) begin
        f_go1 <= 1'b0;
        f_go2 <= 1'b0;
    end
end
always @* begin
    if (!rst) begin
        assert (!(sum_valid && !v0_byp) || sq_in_ready);
        assert (!fr_ready || fr_valid);
        assert (!v0_byp || (f_pend == 8'd0 && !sq_valid));
        assert (!fr_ready || v0_byp || sq_valid);
        assert (vq_valid == f_go2 && v1 == f_go1);
        if (vq_valid) begin
            assert (vq_data[VQ_BEATS +: VQ_BEATS_W] == f_beats2);
            assert (vq_data[VQ_NREC +: VQ_NREC_W] == f_nrec2);
        end
        assert (f_age <= 4'd2);
        assert (!v1 || busy);
        // the summary queue holds the summaries waiting (induction)
        assert ({1'b0, f_sq_count} == f_pend[$clog2(DEPTH)+1:0] && f_pend <= DEPTH);
        assert (!v0_hazard || v1);
    end
end

// The decision (golden/fastpath's rules, docs/design.md section 5.2), at
// the verdict record: a frame is placed only when it is TCP, not dropped,
// of a matched connection set up in full, without error and not owned by
// software, has no SYN, FIN or RST, has a payload of whole words whose
// FPDUs are whole, on the marker grid, every CRC and marker check right
// and no ULPDU shorter than 14 (so nothing is placed from a frame with a
// failed record); dropped exactly when the parser or the ingress dropped
// it; an exception always carries a reason, and one of a matched, set-up
// connection hands the connection to software (a context write with
// SW_OWNED).
wire [1:0] f_vd = vq_data[VQ_VERDICT +: VQ_VERDICT_W];
wire       f_conn_ok = i_class != CLASS_DROP && i_class != CLASS_NOT_TCP && !i_over && i_match &&
                       c_full && !c_err && !c_sw;
always @* begin
    if (!rst && vq_valid) begin
        if (f_vd == VERDICT_PLACE) begin
            assert (f_conn_ok);
            assert (i_flags[2:0] == 3'b000 && i_plen != 16'd0 && i_plen[1:0] == 2'd0);
            assert (s_checks && s_whole && s_grid && !s_small);
        end
        assert ((f_vd == VERDICT_DROP) == (i_class == CLASS_DROP || i_over));
        if (f_vd == VERDICT_EXC) begin
            assert (vq_data[VQ_REASON +: VQ_REASON_W] != REASON_NONE);
            if (f_conn_ok)
                assert (ctx_wr_valid && ctx_wr_data[CTX_SW_OWNED]);
        end
    end
end

always @* begin
    if (!rst) begin
        cover (vq_valid && f_vd == VERDICT_PLACE);
        cover (vq_valid && f_vd == VERDICT_EXC && f_conn_ok);
        cover (sum_valid && !v0_byp && sq_valid);
        cover (v0_hazard && (f_pend != 8'd0 || sum_valid));
        cover (f_pend == DEPTH);
        cover (vq_valid && f_go1 && fr_ready);
        // the longest wait of a summary for V0 (the bound f_age <= 2 above)
        cover (f_age == 4'd2 && fr_ready);
    end
end
`endif

endmodule

`resetall
