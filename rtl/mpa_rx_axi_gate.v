// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_axi_gate: the completion gate between the receiver's event stream
 * and the core's m_evt (docs/axi.md, "Completions after their data"). An
 * event beat leaves only once every placement descriptor given before it
 * or with it (plan_push: the descriptors as mpa_rx_axi_wr takes them, one
 * per FPDU placed with a payload) has all its host writes answered, as
 * mpa_rx_axi_wr's cpl_count tells: so PLACED and DELIVERED never overtake
 * their data, and the event order is kept.
 *
 * Each beat taken on s_evt is stored with its tag, the number of
 * descriptors given so far (modulo 2^16, this cycle's included: E1 gives
 * an FPDU's descriptor in the cycle of its PLACED beat). The head leaves
 * when cpl_count - tag is not negative (modulo 2^16).
 *
 * Host write errors. A burst answered SLVERR or DECERR (cpl_err_valid,
 * with the first descriptor that had writes in it, F) sets the fault
 * (fault, fault_resp), unless one is set already. While it is set, every
 * PLACED and DELIVERED whose tag is above F (so the PLACED of F's FPDU and
 * every event after it) leaves as DDP_ERROR with DDP kind 13 (host write
 * error), its other fields unchanged: nothing from that FPDU on is
 * reported placed, on any connection, until software clears the fault
 * (fault_clear; the register block's HOST_FAULT). The FPDUs' data still
 * goes to their buffers. Events from before F leave unchanged.
 *
 * DEPTH must hold every event beat of one frame (E2 writes a frame's data
 * only once E1 is done with it, so the gate has to take all of a frame's
 * events before the first of them can leave) and the events of the
 * bursts in flight (the B latency).
 *
 * Latency: a beat taken in cycle t can be on m_evt in t + 4 (FIFO two
 * cycles, the head register, the output register), when its writes are
 * answered by then: it leaves two cycles after cpl_count covers its tag.
 * One beat per cycle. s_evt_tready is the FIFO's (a register).
 */
/* verilator lint_off PINCONNECTEMPTY */
module mpa_rx_axi_gate #(
    // 128-bit event lanes (1 or 2)
    parameter EVT_LANES = 1,
    // event beats held (a power of two; the FIFO holds DEPTH + 1, and the
    // two registers behind it one each)
    parameter DEPTH = 256
) (
    input  wire                     clk,
    input  wire                     rst,

    input  wire [EVT_LANES*128-1:0] s_evt_tdata,
    input  wire [EVT_LANES*16-1:0]  s_evt_tkeep,
    input  wire                     s_evt_tvalid,
    output wire                     s_evt_tready,

    // a descriptor goes to the write master's plan in this cycle
    input  wire                     plan_push,
    // from mpa_rx_axi_wr
    input  wire [15:0]              cpl_count,
    input  wire                     cpl_err_valid,
    input  wire [1:0]               cpl_err_resp,
    input  wire [15:0]              cpl_err_first,

    output wire [EVT_LANES*128-1:0] m_evt_tdata,
    output wire [EVT_LANES*16-1:0]  m_evt_tkeep,
    output wire                     m_evt_tvalid,
    input  wire                     m_evt_tready,

    output wire                     fault,
    output wire [1:0]               fault_resp,
    input  wire                     fault_clear
);

`include "mpa_rx_fields.vh"

generate
if (!(EVT_LANES == 1 || EVT_LANES == 2)) begin : g_bad_evt_lanes
`ifndef SYNTHESIS
    initial begin
        $error("mpa_rx_axi_gate: EVT_LANES %0d is not supported (1 or 2)", EVT_LANES);
        $finish;
    end
`endif
    // elaboration stops here in every tool: this module does not exist
    mpa_rx_axi_gate_EVT_LANES_must_be_1_or_2 param_error ();
end
endgenerate

localparam BW = EVT_LANES * (EVT_W + EVT_KEEP_W);   // a beat: keep, data
localparam [3:0] DDP_KIND_HOST = 4'd13;

// ------------------------------------------------------------------ tags
reg  [15:0] given, given1;      // descriptors given so far, and plus one
wire [15:0] tag_in = plan_push ? given1 : given;
always @(posedge clk) begin
    if (plan_push) begin
        given <= given1;
        given1 <= given1 + 16'd1;
    end
    if (rst) begin
        given <= 16'd0;
        given1 <= 16'd1;
    end
end

wire [15:0]   f_tag;
wire [BW-1:0] f_beat;
wire          f_valid, f_ready;
mpa_rx_fifo #(.WIDTH(16 + BW), .DEPTH(DEPTH)) fifo (
    .clk(clk), .rst(rst),
    .s_axis_tdata({tag_in, s_evt_tkeep, s_evt_tdata}), .s_axis_tvalid(s_evt_tvalid), .s_axis_tready(s_evt_tready),
    .m_axis_tdata({f_tag, f_beat}), .m_axis_tvalid(f_valid), .m_axis_tready(f_ready),
    .count(), .empty(), .full()
);

// ------------------------------------------------------------------ head and output signals
reg           h_v;
reg  [15:0]   h_tag;
reg  [BW-1:0] h_beat;
reg           o_v;
reg  [BW-1:0] o_beat;
wire          load, conv;

// ------------------------------------------------------------------ completions and the fault
reg  [15:0] cq;                 // cpl_count, a cycle late (the fault is set in the same cycle)
reg         flt, past;          // the fault; an event above F has left since it was set
reg  [1:0]  flt_resp;
reg  [15:0] flt_f1;             // F + 1
always @(posedge clk) begin
    cq <= cpl_count;
    if (load && conv)
        past <= 1'b1;
    if (fault_clear)
        flt <= 1'b0;
    if (cpl_err_valid && !flt) begin
        flt <= 1'b1;
        past <= 1'b0;
        flt_resp <= cpl_err_resp;
        flt_f1 <= cpl_err_first + 16'd1;
    end
    if (rst) begin
        cq <= 16'd0;
        flt <= 1'b0;
        past <= 1'b0;
        flt_resp <= 2'd0;
        flt_f1 <= 16'd0;
    end
end
assign fault = flt;
assign fault_resp = flt_resp;

// ------------------------------------------------------------------ head and output
wire [15:0]   h_wait = cq - h_tag;
wire [15:0]   h_over = h_tag - flt_f1;
wire          h_go = h_v && !h_wait[15];
assign        load = h_go && (!o_v || m_evt_tready);
assign        conv = flt && (past || !h_over[15]);
assign f_ready = !h_v || load;

// the head beat with its PLACED and DELIVERED lanes turned into DDP_ERROR
// kind 13 when conv
reg  [BW-1:0] h_conv;
integer l;
always @* begin
    h_conv = h_beat;
    for (l = 0; l < EVT_LANES; l = l + 1) begin
        if (conv && (h_beat[EVT_W*l + EVT_KIND +: EVT_KIND_W] == EVT_KIND_PLACED ||
                     h_beat[EVT_W*l + EVT_KIND +: EVT_KIND_W] == EVT_KIND_DELIVERED)) begin
            h_conv[EVT_W*l + EVT_KIND +: EVT_KIND_W] = EVT_KIND_DDP_ERROR;
            h_conv[EVT_W*l + EVT_DDP_KIND +: EVT_DDP_KIND_W] = DDP_KIND_HOST;
        end
    end
end

always @(posedge clk) begin
    if (f_ready) begin
        h_v <= f_valid;
        h_tag <= f_tag;
        h_beat <= f_beat;
    end
    if (m_evt_tready)
        o_v <= 1'b0;
    if (load) begin
        o_v <= 1'b1;
        o_beat <= h_conv;
    end
    if (rst) begin
        h_v <= 1'b0;
        o_v <= 1'b0;
    end
end
assign m_evt_tvalid = o_v;
assign m_evt_tdata = o_beat[0 +: EVT_LANES*EVT_W];
assign m_evt_tkeep = o_beat[EVT_LANES*EVT_W +: EVT_LANES*EVT_KEEP_W];

wire unused = &{1'b0, h_wait[14:0], h_over[14:0]};

`ifdef VERILATOR
// Assertions (Verilator --assert): a beat waits for its descriptors, which
// are never more than 2^15 ahead of the completions.
always @(posedge clk) begin
    if (!rst) begin
        assert (!h_v || !h_wait[15] || (h_tag - cq) < 16'h8000)
            else $error("mpa_rx_axi_gate: head tag %0d, completions %0d", h_tag, cq);
        assert (!(s_evt_tvalid && s_evt_tready) || (tag_in - cq) < 16'h8000)
            else $error("mpa_rx_axi_gate: %0d descriptors ahead of their completions", tag_in - cq);
    end
end
`endif

endmodule

`resetall
