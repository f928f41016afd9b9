// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * crc32c_ref_shell: place-and-route shell for crc32c_ref (synthesis
 * measurements only, not part of the design), built like crc32c_shell: every
 * input of crc32c_ref comes from a flip-flop of a shift register fed by one
 * pin, every output is registered and folded into one pin, so all its paths
 * are register to register. The shell adds flip-flops and a few LUTs (the
 * output XOR fold); the LUT and flip-flop counts in docs/synth.md are those
 * of crc32c_ref synthesised alone. Latency: not meaningful.
 */
module crc32c_ref_shell #(
    parameter DATA_WIDTH = 64
) (
    input  wire clk,
    input  wire rst,
    input  wire si,
    output wire so
);

localparam IN_BITS = DATA_WIDTH + 2;

reg [IN_BITS-1:0] in_reg = 0;
reg so_reg = 1'b0;

wire [31:0] crc;
wire crc_valid;

always @(posedge clk) begin
    in_reg <= {in_reg[IN_BITS-2:0], si};
    so_reg <= ^{crc, crc_valid};
end

crc32c_ref #(
    .DATA_WIDTH(DATA_WIDTH)
) dut (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(in_reg[DATA_WIDTH-1:0]),
    .s_axis_tvalid(in_reg[DATA_WIDTH]),
    .s_axis_tlast(in_reg[DATA_WIDTH + 1]),
    .m_axis_tdata(crc),
    .m_axis_tvalid(crc_valid)
);

assign so = so_reg;

endmodule

`resetall
