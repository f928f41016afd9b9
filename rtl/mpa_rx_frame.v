// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_frame: the frame records of mpa_rx, one per frame in two queues
 * popped together by the verdict (m_ready) when the walker's summary of the
 * frame arrives:
 *   - the parser part (FRP_* in mpa_rx_fields.vh): pushed at the parser's
 *     f_valid (prs_valid, prs_data), L_PARSE cycles after the last beat;
 *   - the lookup part (FRL_*): pushed three cycles after the frame's last
 *     beat (end_valid from mpa_rx_ingress in cycle a, with end_beats and
 *     end_over): the frame's lookup result (lk_valid, lk_match, lk_idx,
 *     lk_ent, at the latest in cycle a + 2; none for a frame without a
 *     4-tuple: no match), the beats stored, the oversize flag, and the
 *     frame offset of the TCP payload's first octet (p0).
 * p0: word k of the word view holds frame octets 4k-2 .. 4k+1, and a beat b
 * completes words WPB*b .. WPB*b+WPB-1; the parser's w_pmask (in_pmask)
 * marks the payload words of the beat of the cycle before, so p0 is found
 * from the beat two cycles before (in_valid, in_last, in_beats its beat
 * number) and in_pmask registered once, at the end of cycle a + 2 at the
 * latest.
 * Output: m_frp and m_frl, the heads; m_valid when both are there.
 * Latency: a frame's lookup part is at the head in cycle a + 5 at the
 * earliest, its parser part in cycle a + L_PARSE + 2.
 */
// Queue outputs that a queue's user does not need (count, empty, full) are
// left open.
/* verilator lint_off PINCONNECTEMPTY */
module mpa_rx_frame #(
    parameter DATA_WIDTH = 64,
    parameter IDX_BITS = 4,
    // entries of each queue (a power of two): frames in flight at most
    parameter DEPTH = 16
) (
    input  wire                     clk,
    input  wire                     rst,

    // beats accepted (mpa_rx_ingress) and the parser's payload-word mask
    input  wire                     in_valid,
    input  wire                     in_last,
    input  wire [15:0]              in_beats,
    input  wire [DATA_WIDTH/32-1:0] in_pmask,
    // frame ends (mpa_rx_ingress)
    input  wire                     end_valid,
    input  wire [15:0]              end_beats,
    input  wire                     end_over,
    // lookup results (mpa_rx_ctx)
    input  wire                     lk_valid,
    input  wire                     lk_match,
    input  wire [IDX_BITS-1:0]      lk_idx,
    input  wire [383:0]             lk_ent,
    // the parser's frame class and fields
    input  wire                     prs_valid,
    input  wire [59:0]              prs_data,

    output wire [59:0]              m_frp,
    output wire [58+IDX_BITS-1:0]   m_frl,
    output wire                     m_valid,
    input  wire                     m_ready
);

`include "mpa_rx_fields.vh"

generate
if (!(DATA_WIDTH == 64 || DATA_WIDTH == 128 || DATA_WIDTH == 256 || DATA_WIDTH == 512)) begin : g_bad_data_width
`ifndef SYNTHESIS
    initial begin
        $error("mpa_rx_frame: DATA_WIDTH %0d is not supported (64, 128, 256 or 512)", DATA_WIDTH);
        $finish;
    end
`endif
    // elaboration stops here in every tool: this module does not exist
    mpa_rx_frame_DATA_WIDTH_must_be_64_128_256_or_512 param_error ();
end
if (FRP_W != 60 || FRL_IDX != 58) begin : g_bad_record
    // the port widths above follow mpa_rx_fields.vh
    mpa_rx_frame_port_widths_must_follow_mpa_rx_fields_vh param_error ();
end
endgenerate

localparam WPB = DATA_WIDTH / 32;
localparam LW = $clog2(WPB);
localparam FRL_W = FRL_IDX + IDX_BITS;

// ------------------------------------------------------------------ lookup result
// held from the lookup until the frame's record is queued (a + 3); the
// next frame's lookup can complete in that cycle
reg                 frm_match;
reg [IDX_BITS-1:0]  frm_idx;
reg [FRL_STREAM_W-1:0] frm_stream;
reg [FRL_DDP_VER_W-1:0] frm_ddp_ver;
reg                 frm_markers;
reg [FRL_MPH_W-1:0] frm_mph;
wire                end3;
always @(posedge clk) begin
    if (end3)
        frm_match <= 1'b0;
    if (lk_valid) begin
        frm_match <= lk_match;
        frm_idx <= lk_idx;
        frm_stream <= lk_ent[CTX_STREAM +: CTX_STREAM_W];
        frm_ddp_ver <= lk_ent[CTX_DDP_VER +: CTX_DDP_VER_W];
        frm_markers <= lk_ent[CTX_MARKERS];
        frm_mph <= lk_ent[CTX_SEQ_START +: FRL_MPH_W];
    end
    if (rst)
        frm_match <= 1'b0;
end

// ------------------------------------------------------------------ payload offset
wire              q2_valid, q2_last;
wire [13-LW:0]    q2_beats;
mpa_rx_delay #(.WIDTH(2 + 14 - LW), .DEPTH(2)) beat_line (
    .clk(clk), .rst(rst),
    .in_data({in_valid, in_last, in_beats[13-LW:0]}),
    .out_data({q2_valid, q2_last, q2_beats})
);
wire [WPB-1:0] pmask2;
mpa_rx_delay #(.WIDTH(WPB), .DEPTH(1)) pmask_line (
    .clk(clk), .rst(rst), .in_data(in_pmask), .out_data(pmask2)
);
reg [15:0] p0;
reg        p0_seen;
reg [15:0] p0_now;
integer pj;
always @* begin
    p0_now = 16'd0;
    for (pj = WPB - 1; pj >= 0; pj = pj - 1)
        if (pmask2[pj])
            p0_now = {q2_beats, pj[LW-1:0], 2'b00} - 16'd2;
end
always @(posedge clk) begin
    if (q2_valid) begin
        if (!p0_seen && pmask2 != {WPB{1'b0}})
            p0 <= p0_now;
        p0_seen <= q2_last ? 1'b0 : p0_seen || pmask2 != {WPB{1'b0}};
    end
    if (rst) begin
        p0_seen <= 1'b0;
        p0 <= 16'd0;
    end
end

// ------------------------------------------------------------------ queues
wire        end3_over;
wire [15:0] end3_beats;
mpa_rx_delay #(.WIDTH(18), .DEPTH(3)) end_line (
    .clk(clk), .rst(rst),
    .in_data({end_valid, end_over, end_beats}),
    .out_data({end3, end3_over, end3_beats})
);
reg [FRL_W-1:0] frl_in;
always @* begin
    frl_in = {FRL_W{1'b0}};
    frl_in[FRL_MATCH] = frm_match;
    frl_in[FRL_OVER] = end3_over;
    frl_in[FRL_BEATS +: FRL_BEATS_W] = end3_beats;
    frl_in[FRL_P0 +: FRL_P0_W] = p0;
    frl_in[FRL_STREAM +: FRL_STREAM_W] = frm_stream;
    frl_in[FRL_DDP_VER +: FRL_DDP_VER_W] = frm_ddp_ver;
    frl_in[FRL_MARKERS] = frm_markers;
    frl_in[FRL_MPH +: FRL_MPH_W] = frm_mph;
    frl_in[FRL_IDX +: IDX_BITS] = frm_idx;
end
wire frl_valid, frl_in_ready, frp_valid, frp_in_ready;
`ifdef FORMAL
wire [$clog2(DEPTH):0] f_frl_count, f_frp_count;   // entries of the queues (formal properties below)
`endif
mpa_rx_fifo #(.WIDTH(FRL_W), .DEPTH(DEPTH)) frl_fifo (
    .clk(clk), .rst(rst),
    .s_axis_tdata(frl_in), .s_axis_tvalid(end3), .s_axis_tready(frl_in_ready),
    .m_axis_tdata(m_frl), .m_axis_tvalid(frl_valid), .m_axis_tready(m_ready),
`ifdef FORMAL
    .count(f_frl_count),
`else
    .count(),
`endif
    .empty(), .full()
);
mpa_rx_fifo #(.WIDTH(FRP_W), .DEPTH(DEPTH)) frp_fifo (
    .clk(clk), .rst(rst),
    .s_axis_tdata(prs_data), .s_axis_tvalid(prs_valid), .s_axis_tready(frp_in_ready),
    .m_axis_tdata(m_frp), .m_axis_tvalid(frp_valid), .m_axis_tready(m_ready),
`ifdef FORMAL
    .count(f_frp_count),
`else
    .count(),
`endif
    .empty(), .full()
);
assign m_valid = frl_valid && frp_valid;

wire unused = &{1'b0, lk_ent, in_beats};

`ifdef VERILATOR
// Assertions (Verilator --assert; docs/robustness.md): the queues are
// never written full (at most DEPTH + 1 frames in flight) and popped
// together.
always @(posedge clk) begin
    if (!rst) begin
        assert (!prs_valid || frp_in_ready) else $error("mpa_rx_frame: frame-record FIFO (parser) written when full");
        assert (!end3 || frl_in_ready) else $error("mpa_rx_frame: frame-record FIFO written when full");
        assert (!m_ready || m_valid) else $error("mpa_rx_frame: frame record popped when empty");
    end
end
`endif

`ifdef FORMAL
// ------------------------------------------------------------------ formal
// Proven by `make formal` (docs/robustness.md, "Formal proofs"). The
// environment: the consumer pops (m_ready) only while m_valid (assumed:
// mpa_rx_verdict proves it pops a frame record only when there is one);
// at most DEPTH + 1 frames between their end (end_valid) and their pop
// (assumed: mpa_rx_ingress proves at most MAX_INFLIGHT frames in flight,
// and MAX_INFLIGHT <= DEPTH); the parser's part of a frame (prs_valid)
// comes after the frame's end and once per frame (assumed: the parser
// gives f_valid L_PARSE cycles after the last beat). Properties:
//   - m_frp, m_frl, m_valid follow the AXI4-Stream sender's rules: m_valid
//     held with a stable record until m_ready, low after a reset;
//   - the lookup-part queue holds the frames ended three cycles ago or
//     earlier and not popped, the parser-part queue the frames whose
//     parser part came and not popped: neither is ever written full (no
//     overflow) nor, the consumer's rule given, popped empty;
//   - the lookup part of a frame is at its queue's head 2 cycles after
//     its push into an empty queue (the latency of docs/design.md);
//   - the beats and the oversize flag pushed with a frame's lookup part
//     are its end_beats and end_over (a ghost copy of the frame ends, not
//     the RTL's delay line).
reg f_past_valid = 1'b0;
always @(posedge clk)
    f_past_valid <= 1'b1;
always @*
    if (!f_past_valid)
        assume (rst);

wire [15:0] f_m_wait;
wire        f_m_held;
mpa_rx_faxis #(.WIDTH(FRL_W + FRP_W), .F_DUT_SENDS(1)) f_m (
    .clk(clk), .rst(rst), .tdata({m_frl, m_frp}), .tvalid(m_valid), .tready(m_ready),
    .f_wait(f_m_wait), .f_held(f_m_held));

// the model: frames ended and not popped; frames ended whose parser part
// has not come; frame ends one, two and three cycles ago
reg [7:0] f_frames = 8'd0;
reg [7:0] f_prs_pend = 8'd0;
reg [2:0] f_end_line = 3'd0;
wire      f_pop = m_valid && m_ready;
always @(posedge clk) begin
    f_frames <= f_frames + {7'd0, end_valid} - {7'd0, f_pop};
    f_prs_pend <= f_prs_pend + {7'd0, end_valid} - {7'd0, prs_valid};
    f_end_line <= {f_end_line[1:0], end_valid};
    if (rst) begin
        f_frames <= 8'd0;
        f_prs_pend <= 8'd0;
        f_end_line <= 3'd0;
    end
end
wire [7:0] f_in_line = {7'd0, f_end_line[0]} + {7'd0, f_end_line[1]} + {7'd0, f_end_line[2]};
// the beats and oversize flag of the frame ends of the last three cycles
reg [16:0] f_end_data [0:2];
integer f_i;
always @(posedge clk) begin
    f_end_data[0] <= {end_over, end_beats};
    for (f_i = 1; f_i < 3; f_i = f_i + 1)
        f_end_data[f_i] <= f_end_data[f_i - 1];
end
always @* begin
    if (!rst) begin
        assume (!m_ready || m_valid);
        assume (f_frames + {7'd0, end_valid} <= DEPTH + 1);
        assume (!prs_valid || f_prs_pend != 8'd0);
    end
end

always @* begin
    if (!rst) begin
        // no overflow: a push only with room
        assert (!end3 || frl_in_ready);
        assert (!prs_valid || frp_in_ready);
        // no underflow: a pop only of entries there
        assert (!m_ready || (frl_valid && frp_valid));
        // the queues hold what the model says (induction invariants)
        assert (end3 == f_end_line[2]);
        // the lookup part pushed carries its frame's beats and oversize flag
        assert (!end3 || {frl_in[FRL_OVER], frl_in[FRL_BEATS +: FRL_BEATS_W]} == f_end_data[2]);
        assert ({{7-$clog2(DEPTH){1'b0}}, f_frl_count} + f_in_line == f_frames);
        assert ({{7-$clog2(DEPTH){1'b0}}, f_frp_count} + f_prs_pend == f_frames);
        assert (f_frames <= DEPTH + 1);
        assert (f_prs_pend <= f_frames);
    end
end
// a frame's lookup part, pushed into an empty queue, at its head two cycles later
always @(posedge clk)
    if (f_past_valid && !rst && !$past(rst) && !$past(rst, 2) && $past(end3, 2) && $past(f_frl_count, 2) == 0
            && !$past(m_ready))
        assert (frl_valid);

// bounded latency (the egress path's bound, docs/robustness.md "Liveness"):
// a frame record whose two parts are both queued is at the head (m_valid)
// the next cycle when nothing was popped, so the record of the oldest frame
// is readable two cycles after the later of its two parts was pushed
always @(posedge clk)
    if (f_past_valid && !rst && !$past(rst) && $past(f_frl_count) != 0 && $past(f_frp_count) != 0
            && !$past(m_ready))
        assert (m_valid);

always @* begin
    if (!rst) begin
        cover (m_valid && !m_ready && f_m_held);                      // a stall
        cover (f_frl_count == DEPTH + 1 && f_frp_count == DEPTH + 1); // both queues full
        cover (f_pop && f_frames == 8'd1 && f_frl_count == 1);        // a frame end, the last one
        cover (f_pop && end3 && prs_valid);                           // a pop and both pushes together
    end
end
`endif

endmodule

`resetall
