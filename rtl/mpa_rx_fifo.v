// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_fifo: synchronous first-word-fall-through FIFO of WIDTH-bit
 * entries: a RAM of DEPTH entries (a power of two) with a registered read
 * port, which synthesis maps to block RAM, plus the output register, so it
 * holds up to DEPTH + 1 entries. Every queue of mpa_rx is one of these.
 *
 * Input: an entry is written in a cycle with s_axis_tvalid &&
 * s_axis_tready. s_axis_tready is the inverse of full, a register (no
 * logic between the pointers and the writer's handshake): it is low
 * exactly while the RAM holds DEPTH entries.
 * Output: m_axis_tvalid while the output register holds an entry, the head
 * on m_axis_tdata; m_axis_tready pops it. One push and one pop per cycle
 * are sustained.
 * count is the number of entries held (RAM and output register); empty is
 * count == 0, one compare of the pointers and the output valid, no
 * subtract.
 * Latency: an entry written into an empty FIFO in cycle t is on
 * m_axis_tdata from cycle t + 2 (one cycle to write the RAM, one to read
 * it into the output register).
 */
module mpa_rx_fifo #(
    // Entry width in bits.
    parameter WIDTH = 8,
    // RAM entries, a power of two (the FIFO holds DEPTH + 1).
    parameter DEPTH = 16
) (
    input  wire                       clk,
    input  wire                       rst,

    input  wire [WIDTH-1:0]           s_axis_tdata,
    input  wire                       s_axis_tvalid,
    output wire                       s_axis_tready,

    output wire [WIDTH-1:0]           m_axis_tdata,
    output wire                       m_axis_tvalid,
    input  wire                       m_axis_tready,

    output wire [$clog2(DEPTH):0]     count,
    output wire                       empty,
    output wire                       full
);

localparam AW = $clog2(DEPTH);

generate
if (DEPTH < 2 || (1 << AW) != DEPTH) begin : g_bad_depth
`ifndef SYNTHESIS
    initial begin
        $error("mpa_rx_fifo: DEPTH %0d is not a power of two of at least 2", DEPTH);
        $finish;
    end
`endif
    // elaboration stops here in every tool: this module does not exist
    mpa_rx_fifo_DEPTH_must_be_a_power_of_two param_error ();
end
endgenerate

reg [WIDTH-1:0] mem [0:DEPTH-1];
reg [AW:0] wr_ptr = {AW+1{1'b0}};
reg [AW:0] rd_ptr = {AW+1{1'b0}};    // next entry to load into the output register
reg [WIDTH-1:0] out_q = {WIDTH{1'b0}};
reg out_q_valid = 1'b0;
reg full_q = 1'b0;

wire ram_empty = wr_ptr == rd_ptr;
wire push = s_axis_tvalid && !full_q;
wire pop = out_q_valid && m_axis_tready;
wire load = !ram_empty && (!out_q_valid || pop);
// One entry short of full: a push without a load fills the RAM.
wire almost_full = (wr_ptr - rd_ptr) == {1'b0, {AW{1'b1}}};

assign s_axis_tready = !full_q;
assign m_axis_tdata = out_q;
assign m_axis_tvalid = out_q_valid;
assign count = (wr_ptr - rd_ptr) + {{AW{1'b0}}, out_q_valid};
assign empty = ram_empty && !out_q_valid;
assign full = full_q;

// The RAM is written only when it is not full, so a write never meets the
// read of the same entry (no bypass logic for block RAM).
always @(posedge clk) begin
    if (push)
        mem[wr_ptr[AW-1:0]] <= s_axis_tdata;
    if (load)
        out_q <= mem[rd_ptr[AW-1:0]];
end

always @(posedge clk) begin
    if (push)
        wr_ptr <= wr_ptr + 1'b1;
    if (load)
        rd_ptr <= rd_ptr + 1'b1;
    // (wr_ptr ^ rd_ptr) == DEPTH after this cycle's push and load
    full_q <= !load && (full_q || (almost_full && push));
    if (load)
        out_q_valid <= 1'b1;
    else if (pop)
        out_q_valid <= 1'b0;
    if (rst) begin
        wr_ptr <= {AW+1{1'b0}};
        rd_ptr <= {AW+1{1'b0}};
        out_q_valid <= 1'b0;
        full_q <= 1'b0;
    end
end

endmodule

`resetall
