// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_feed: what mpa_rx_walk sees of a frame: the parser's word view
 * delayed four beats, so that the frame's context lookup is done before
 * the walker sees its first payload word, and the walker parameters
 * (markers and CRC on, SeqStart) of the frame from its lookup.
 *
 * Word view: a beat accepted in cycle a (in_valid; in_store when it was
 * stored in the frame FIFO, in_last, in_seq the segment's sequence number
 * as far as parsed, in_data the parser's w_data) is on w_* in cycle a + 4;
 * in_pmask (the parser's w_pmask, a cycle behind in_data) is on w_pmask in
 * a + 4 for a stored beat, zero for one that was not stored (no records
 * from it).
 * Walker parameters: one entry per frame in a queue, pushed at the frame's
 * lookup result (lk_valid, lk_ent: markers, CRC, SeqStart), or zero (no
 * markers, no CRC) the cycle after the last beat + 1 of a frame that had
 * no 4-tuple (no in_tuple beat); the head is on seq_start, markers_on and
 * crc_on, popped with the frame's last beat on w_*.
 * Latency: 4 cycles (word view); a frame's parameters are at the queue's
 * head from two cycles after its lookup result, before its first beat on
 * w_* (the lookup is two cycles after the beat that completes the tuple).
 */
// Queue outputs that a queue's user does not need (count, empty, full) are
// left open.
/* verilator lint_off PINCONNECTEMPTY */
module mpa_rx_feed #(
    parameter DATA_WIDTH = 64
) (
    input  wire                     clk,
    input  wire                     rst,

    input  wire                     in_valid,
    input  wire                     in_store,
    input  wire                     in_last,
    input  wire                     in_tuple,
    input  wire [31:0]              in_seq,
    input  wire [DATA_WIDTH-1:0]    in_data,
    input  wire [DATA_WIDTH/32-1:0] in_pmask,

    input  wire                     lk_valid,
    input  wire [383:0]             lk_ent,

    output wire                     w_valid,
    output wire                     w_last,
    output wire [31:0]              w_seq,
    output wire [DATA_WIDTH-1:0]    w_data,
    output reg  [DATA_WIDTH/32-1:0] w_pmask,
    output wire [31:0]              seq_start,
    output wire                     markers_on,
    output wire                     crc_on
);

`include "mpa_rx_fields.vh"

generate
if (!(DATA_WIDTH == 64 || DATA_WIDTH == 128 || DATA_WIDTH == 256 || DATA_WIDTH == 512)) begin : g_bad_data_width
`ifndef SYNTHESIS
    initial begin
        $error("mpa_rx_feed: DATA_WIDTH %0d is not supported (64, 128, 256 or 512)", DATA_WIDTH);
        $finish;
    end
`endif
    // elaboration stops here in every tool: this module does not exist
    mpa_rx_feed_DATA_WIDTH_must_be_64_128_256_or_512 param_error ();
end
endgenerate

localparam WPB = DATA_WIDTH / 32;

// ------------------------------------------------------------------ word view
// {valid, last, seq, data} four cycles, the stored flag three (the payload
// mask is gated with it in the fourth), the payload mask two (it is a cycle
// behind)
localparam B_W = 2 + 32 + DATA_WIDTH;
wire [B_W-1:0] b4;
mpa_rx_delay #(.WIDTH(B_W), .DEPTH(4)) beat_line (
    .clk(clk), .rst(rst),
    .in_data({in_valid, in_last, in_seq, in_data}),
    .out_data(b4)
);
assign {w_valid, w_last, w_seq, w_data} = b4;
wire stored3;
mpa_rx_delay #(.WIDTH(1), .DEPTH(3)) stored_line (
    .clk(clk), .rst(rst), .in_data(in_store), .out_data(stored3)
);
wire [WPB-1:0] pmask3;
mpa_rx_delay #(.WIDTH(WPB), .DEPTH(2)) pmask_line (
    .clk(clk), .rst(rst), .in_data(in_pmask), .out_data(pmask3)
);
always @(posedge clk) begin
    w_pmask <= stored3 ? pmask3 : {WPB{1'b0}};
    if (rst)
        w_pmask <= {WPB{1'b0}};
end

// ------------------------------------------------------------------ walker parameters
localparam WP_W = 34;
wire [WP_W-1:0] wp_in = {lk_ent[CTX_CRC], lk_ent[CTX_MARKERS], lk_ent[CTX_SEQ_START +: CTX_SEQ_START_W]};
reg             wp_push_nt;   // frame ended without a tuple: push a dummy entry
wire            wp_in_ready;
wire            wp_valid;
wire            wp_pop = w_valid && w_last;
`ifdef FORMAL
wire [2:0]      f_wp_count;   // entries of the walker-parameter queue (formal properties below)
`endif
mpa_rx_fifo #(.WIDTH(WP_W), .DEPTH(4)) wp_fifo (
    .clk(clk), .rst(rst),
    .s_axis_tdata(lk_valid ? wp_in : {WP_W{1'b0}}),
    .s_axis_tvalid(lk_valid || wp_push_nt),
    .s_axis_tready(wp_in_ready),
    .m_axis_tdata({crc_on, markers_on, seq_start}),
    .m_axis_tvalid(wp_valid),
    .m_axis_tready(wp_pop),
`ifdef FORMAL
    .count(f_wp_count),
`else
    .count(),
`endif
    .empty(), .full()
);
reg had_tuple;
reg no_tuple;   // a frame ended without a tuple: its dummy entry goes in next cycle
always @(posedge clk) begin
    no_tuple <= 1'b0;
    wp_push_nt <= no_tuple;
    if (in_valid) begin
        if (in_tuple)
            had_tuple <= 1'b1;
        if (in_last) begin
            no_tuple <= !(had_tuple || in_tuple);
            had_tuple <= 1'b0;
        end
    end
    if (rst) begin
        had_tuple <= 1'b0;
        no_tuple <= 1'b0;
        wp_push_nt <= 1'b0;
    end
end

wire unused = &{1'b0, lk_ent};

`ifdef VERILATOR
// Assertions (Verilator --assert; docs/robustness.md): the walker
// parameters queue is never written full and holds a frame's entry at its
// last beat.
always @(posedge clk) begin
    if (!rst) begin
        assert (!(lk_valid || wp_push_nt) || wp_in_ready) else $error("mpa_rx_feed: walker-parameter FIFO written when full");
        assert (!wp_pop || wp_valid) else $error("mpa_rx_feed: walker parameters missing at a frame's end");
    end
end
`endif

`ifdef FORMAL
// ------------------------------------------------------------------ formal
// Proven by `make formal` (docs/robustness.md, "Formal proofs"). The
// environment: a frame has at most one beat with in_tuple (assumed: the
// parser's tuple_done comes once, in the beat that completes the 4-tuple),
// and lk_valid comes exactly two cycles after that beat (assumed:
// mpa_rx_ctx proves its lookup latency of 2). Beats come one a cycle
// (in_valid); nothing is assumed of the frames' lengths or gaps.
// Properties:
//   - one walker-parameter entry per frame: the queue holds, besides the
//     entries still to be pushed (a lookup result one or two cycles
//     away, a frame without a tuple ended one or two cycles ago), one
//     entry for each frame whose last beat came in the last four cycles
//     and for the open frame once its tuple came;
//   - a lookup result and a frame without a tuple never push in the same
//     cycle;
//   - the queue is never written full (no overflow) and holds an entry
//     at each frame's last beat on w_* (no underflow); it never holds more
//     than two entries;
//   - w_pmask is in_pmask three cycles earlier for a beat stored four
//     cycles earlier (in_store), zero for one not stored.
reg f_past_valid = 1'b0;
always @(posedge clk)
    f_past_valid <= 1'b1;
always @*
    if (!f_past_valid)
        assume (rst);

// the model: the open frame had its tuple; tuple beats one and two cycles
// ago; last beats one to four cycles ago; stored flags and payload masks
reg       f_had = 1'b0;
reg [1:0] f_tup = 2'd0;
reg [3:0] f_last = 4'd0;
reg [3:0] f_store = 4'd0;
reg [WPB-1:0] f_pmask1, f_pmask2, f_pmask3;
wire      f_tuple_beat = in_valid && in_tuple;
always @(posedge clk) begin
    f_tup <= {f_tup[0], f_tuple_beat};
    f_last <= {f_last[2:0], in_valid && in_last};
    f_store <= {f_store[2:0], in_store};
    f_pmask1 <= in_pmask;
    f_pmask2 <= f_pmask1;
    f_pmask3 <= f_pmask2;
    if (in_valid) begin
        if (in_tuple)
            f_had <= 1'b1;
        if (in_last)
            f_had <= 1'b0;
    end
    if (rst) begin
        f_had <= 1'b0;
        f_tup <= 2'd0;
        f_last <= 4'd0;
        f_store <= 4'd0;
    end
end
always @* begin
    if (!rst) begin
        assume (!(f_tuple_beat && f_had));
        assume (lk_valid == f_tup[1]);
    end
end

wire [3:0] f_owed = {3'd0, f_last[0]} + {3'd0, f_last[1]} + {3'd0, f_last[2]} + {3'd0, f_last[3]} + {3'd0, f_had};
wire [3:0] f_coming = {3'd0, f_tup[0]} + {3'd0, f_tup[1]} + {3'd0, no_tuple} + {3'd0, wp_push_nt};
always @* begin
    if (!rst) begin
        // one push a cycle at most, no overflow, no underflow
        assert (!(lk_valid && wp_push_nt));
        assert (!(lk_valid || wp_push_nt) || wp_in_ready);
        assert (!wp_pop || wp_valid);
        // one entry per frame
        assert ({1'b0, f_wp_count} + f_coming == f_owed);
        // never more than two entries (of the DEPTH + 1 the queue holds)
        assert (f_wp_count <= 3'd2);
        // the model and the registers (induction invariants)
        assert (f_had == had_tuple);
        assert (wp_pop == f_last[3]);
        assert (!no_tuple || f_last[0]);
        assert (!wp_push_nt || f_last[1]);
        if (f_store[3])
            assert (w_pmask == f_pmask3);
        else
            assert (w_pmask == {WPB{1'b0}});
    end
end

always @* begin
    if (!rst) begin
        cover (wp_pop && f_wp_count == 3'd2);   // a frame end with two entries held (the most)
        cover (wp_push_nt && f_tup[0]);          // a frame without a tuple, the next one's lookup a cycle later
        cover (wp_pop && !f_had && f_last[0]);   // one-beat frames back to back
    end
end
`endif

endmodule

`resetall
