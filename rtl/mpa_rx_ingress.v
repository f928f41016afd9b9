// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_ingress: admission of s_axis beats into mpa_rx and the count of
 * frames in flight (docs/design.md section 5.1).
 *
 * s_axis_tready is high iff fewer than MAX_INFLIGHT frames are between
 * their last beat and the end of their egress (frame_done), and the frame
 * FIFO has room for a beat (fifo_ready) or the frame being received has
 * filled the whole FIFO (FIFO_DEPTH beats stored): the rest of such a
 * frame is taken without storing it, and the frame is dropped. store is
 * the FIFO's write strobe (a beat accepted and stored); a stored beat is
 * always accepted.
 *
 * Per frame, in the cycle its last beat is accepted (end_valid): end_beats,
 * the beats stored, and end_over, the frame is dropped before any check
 * (outgrew the FIFO, or s_axis_tuser: a bad FCS). cur_beats is the beats
 * of the current frame stored before this cycle's.
 * Latency: all outputs are combinational from registers and this cycle's
 * s_axis_tvalid, s_axis_tlast, s_axis_tuser and fifo_ready; tready only
 * from registers and fifo_ready.
 */
module mpa_rx_ingress #(
    // frame FIFO depth in beats (a power of two, 2 to 32768)
    parameter FIFO_DEPTH = 512,
    // frames in flight at which s_axis_tready goes low (1 to 63)
    parameter MAX_INFLIGHT = 14
) (
    input  wire        clk,
    input  wire        rst,

    input  wire        s_axis_tvalid,
    output wire        s_axis_tready,
    input  wire        s_axis_tlast,
    input  wire        s_axis_tuser,

    input  wire        fifo_ready,
    output wire        store,
    input  wire        frame_done,

    output wire [15:0] cur_beats,
    output wire        end_valid,
    output wire [15:0] end_beats,
    output wire        end_over
);

generate
if (FIFO_DEPTH < 2 || FIFO_DEPTH > 32768 || (1 << $clog2(FIFO_DEPTH)) != FIFO_DEPTH) begin : g_bad_fifo_depth
`ifndef SYNTHESIS
    initial begin
        $error("mpa_rx_ingress: FIFO_DEPTH %0d is not a power of two from 2 to 32768", FIFO_DEPTH);
        $finish;
    end
`endif
    // elaboration stops here in every tool: this module does not exist
    mpa_rx_ingress_FIFO_DEPTH_must_be_a_power_of_two_from_2_to_32768 param_error ();
end
if (MAX_INFLIGHT < 1 || MAX_INFLIGHT > 63) begin : g_bad_max_inflight
`ifndef SYNTHESIS
    initial begin
        $error("mpa_rx_ingress: MAX_INFLIGHT %0d is not from 1 to 63", MAX_INFLIGHT);
        $finish;
    end
`endif
    mpa_rx_ingress_MAX_INFLIGHT_must_be_1_to_63 param_error ();
end
endgenerate

localparam [5:0] MAXF = MAX_INFLIGHT[5:0];

reg [15:0] beats;       // beats of the current frame stored so far
reg        overflow;    // the current frame outgrew the FIFO: discard the rest
// The frame being received holds FIFO_DEPTH beats (a register, kept with
// beats): it can never be stored, so take the rest of it and drop it.
reg        beats_full;
// frames between their last beat and the end of their egress: bounded so
// that the per-frame queues never overflow
reg [5:0]  inflight;
wire infl_ok = inflight < MAXF;
// = infl_ok && (fifo_ready || overflow || (!fifo_ready && beats_full))
assign s_axis_tready = infl_ok && (fifo_ready || overflow || beats_full);
assign store = s_axis_tvalid && infl_ok && fifo_ready && !overflow;
wire        beat_ok = s_axis_tvalid && s_axis_tready;
wire [15:0] beats_p1 = beats + 16'd1;
wire        at_depth = beats == FIFO_DEPTH[15:0] - 16'd1;

assign cur_beats = beats;
assign end_valid = beat_ok && s_axis_tlast;
assign end_beats = store ? beats_p1 : beats;
assign end_over = overflow || !store || s_axis_tuser;

always @(posedge clk) begin
    if (beat_ok) begin
        if (s_axis_tlast) begin
            beats <= 16'd0;
            beats_full <= 1'b0;
        end else if (store) begin
            beats <= beats_p1;
            beats_full <= beats_full || at_depth;
        end
        if (s_axis_tlast)
            overflow <= 1'b0;
        else if (!store)
            overflow <= 1'b1;
    end
    if (rst) begin
        beats <= 16'd0;
        beats_full <= 1'b0;
        overflow <= 1'b0;
    end
end

// inflight +- 1 made from the register, selected by the handshakes
wire [5:0] inflight_p1 = inflight + 6'd1;
wire [5:0] inflight_m1 = inflight - 6'd1;
always @(posedge clk) begin
    if (end_valid && !frame_done)
        inflight <= inflight_p1;
    else if (!end_valid && frame_done)
        inflight <= inflight_m1;
    if (rst)
        inflight <= 6'd0;
end

`ifdef VERILATOR
// Assertions (Verilator --assert; docs/robustness.md): at most
// MAX_INFLIGHT frames in flight, none leaves that did not come in.
always @(posedge clk) begin
    if (!rst) begin
        assert (inflight <= MAXF) else $error("mpa_rx_ingress: %0d frames in flight", inflight);
        assert (!frame_done || inflight != 6'd0) else $error("mpa_rx_ingress: a frame leaves with none in flight");
        assert (!store || fifo_ready) else $error("mpa_rx_ingress: frame FIFO written when full");
    end
end
`endif

endmodule

`resetall
