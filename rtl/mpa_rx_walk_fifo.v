// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_walk_fifo: one bank of the FPDU record FIFO of mpa_rx_walk. A
 * first-word-fall-through FIFO of 2^ADDR_WIDTH entries in a RAM with a
 * registered read port (block RAM on iCE40 and Xilinx), plus its output
 * register: it holds up to 2^ADDR_WIDTH + 1 entries.
 *
 * Write: wr_en writes wr_data; the writer must not write while full
 *   (a register: it follows the pointers a cycle late by its own update).
 * Read: out_valid/out_data is the oldest entry; out_pop (only with
 *   out_valid) removes it. One pop per cycle is sustained.
 * Latency: an entry written into an empty FIFO is at out_data two cycles
 *   after the cycle of wr_en.
 */
module mpa_rx_walk_fifo #(
    // Entry width in bits.
    parameter WIDTH = 8,
    // log2 of the RAM depth.
    parameter ADDR_WIDTH = 4
) (
    input  wire             clk,
    input  wire             rst,

    input  wire             wr_en,
    input  wire [WIDTH-1:0] wr_data,
    output wire             full,

    output wire             out_valid,
    output wire [WIDTH-1:0] out_data,
    input  wire             out_pop
);

reg [WIDTH-1:0] mem [0:(1 << ADDR_WIDTH) - 1];
reg [ADDR_WIDTH:0] wr_ptr = 0, rd_ptr = 0;
reg [WIDTH-1:0] out_reg;
reg out_reg_valid = 1'b0;

reg full_r = 1'b0;

wire empty = wr_ptr == rd_ptr;
// One entry short of full: a write without a read fills the RAM.
wire [ADDR_WIDTH:0] used = wr_ptr - rd_ptr;
wire almost_full = used == {1'b0, {ADDR_WIDTH{1'b1}}};
assign full = full_r;
// The RAM is written only when not full by the pointers themselves (the
// writer never writes when full): a write then never meets a read of the
// same entry, which synthesis can see without knowing full_r's invariant
// (iCE40 block RAM needs no bypass logic then).
wire full_now = (wr_ptr ^ rd_ptr) == {1'b1, {ADDR_WIDTH{1'b0}}};
wire mem_we = wr_en && !full_now;
// Refill the output register when it is empty or being popped.
wire rd_en = !empty && (!out_reg_valid || out_pop);

assign out_valid = out_reg_valid;
assign out_data = out_reg;

always @(posedge clk) begin
    if (mem_we)
        mem[wr_ptr[ADDR_WIDTH-1:0]] <= wr_data;
    if (rd_en)
        out_reg <= mem[rd_ptr[ADDR_WIDTH-1:0]];
end

always @(posedge clk) begin
    if (wr_en)
        wr_ptr <= wr_ptr + 1'b1;
    if (rd_en)
        rd_ptr <= rd_ptr + 1'b1;
    // (wr_ptr ^ rd_ptr) == 2^ADDR_WIDTH after this cycle's write and read
    full_r <= !rd_en && (full_r || (almost_full && wr_en));
    if (rd_en)
        out_reg_valid <= 1'b1;
    else if (out_pop)
        out_reg_valid <= 1'b0;
    if (rst) begin
        wr_ptr <= 0;
        rd_ptr <= 0;
        out_reg_valid <= 1'b0;
        full_r <= 1'b0;
    end
end

endmodule

`resetall
