// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_fifo: synchronous first-word-fall-through FIFO of DEPTH entries
 * (a power of two) of WIDTH bits, in a RAM with a registered read.
 *
 * in_ready is high while the FIFO has room; out_valid while it holds an
 * entry, with the head on out_data. count is the number of entries and
 * empty is count == 0 (one compare of the pointers, no subtract).
 * Latency: an entry written in cycle t is on out_data from cycle t+2 (one
 * cycle to write the RAM, one to read it into the output register).
 */
module mpa_rx_fifo #(
    parameter WIDTH = 8,
    parameter DEPTH = 16,
    parameter ADDR_WIDTH = $clog2(DEPTH)
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire [WIDTH-1:0]      in_data,
    input  wire                  in_valid,
    output wire                  in_ready,

    output wire [WIDTH-1:0]      out_data,
    output wire                  out_valid,
    input  wire                  out_ready,

    output wire [ADDR_WIDTH:0]   count,
    output wire                  empty       // count == 0, as one compare of the pointers
);

reg [WIDTH-1:0] mem [0:DEPTH-1];
reg [ADDR_WIDTH:0] wr_ptr, rd_ptr;   // rd_ptr: next entry to load into the output register
reg [WIDTH-1:0] out_q;
reg             out_q_valid;

wire ram_empty = wr_ptr == rd_ptr;
wire pop = out_q_valid && out_ready;
wire load = !ram_empty && (!out_q_valid || pop);

assign in_ready = !((wr_ptr ^ rd_ptr) == {1'b1, {ADDR_WIDTH{1'b0}}});
assign out_data = out_q;
assign out_valid = out_q_valid;
assign count = (wr_ptr - rd_ptr) + {{ADDR_WIDTH{1'b0}}, out_q_valid};
assign empty = ram_empty && !out_q_valid;

always @(posedge clk) begin
    if (in_valid && in_ready)
        mem[wr_ptr[ADDR_WIDTH-1:0]] <= in_data;
end

always @(posedge clk) begin
    if (in_valid && in_ready)
        wr_ptr <= wr_ptr + 1'b1;
    if (load) begin
        out_q <= mem[rd_ptr[ADDR_WIDTH-1:0]];
        rd_ptr <= rd_ptr + 1'b1;
        out_q_valid <= 1'b1;
    end else if (pop) begin
        out_q_valid <= 1'b0;
    end
    if (rst) begin
        wr_ptr <= {ADDR_WIDTH+1{1'b0}};
        rd_ptr <= {ADDR_WIDTH+1{1'b0}};
        out_q_valid <= 1'b0;
        out_q <= {WIDTH{1'b0}};
    end
end

endmodule

`resetall
