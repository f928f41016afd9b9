// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * crc32c_shell: place-and-route shell for crc32c (synthesis measurements
 * only, not part of the design). A wide core has more ports than an iCE40
 * package has pins, so every input of crc32c comes from a flip-flop of a
 * shift register fed by one pin, and every output is registered and folded
 * into one pin. All crc32c paths are then register to register, as they would
 * be inside a larger design. The shell adds flip-flops and a few LUTs (the
 * output XOR fold); the LUT and flip-flop counts in docs/synth.md are those
 * of crc32c synthesised alone. Latency: not meaningful.
 */
module crc32c_shell #(
    parameter DATA_WIDTH = 64
) (
    input  wire clk,
    input  wire rst,
    input  wire si,
    output wire so
);

localparam KEEP_WIDTH = DATA_WIDTH / 8;
localparam IN_BITS = DATA_WIDTH + KEEP_WIDTH + 3;

reg [IN_BITS-1:0] in_reg = 0;
reg so_reg = 1'b0;

wire [31:0] crc;
wire crc_valid, ready;

always @(posedge clk) begin
    in_reg <= {in_reg[IN_BITS-2:0], si};
    so_reg <= ^{crc, crc_valid, ready};
end

crc32c #(
    .DATA_WIDTH(DATA_WIDTH)
) dut (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(in_reg[DATA_WIDTH-1:0]),
    .s_axis_tkeep(in_reg[DATA_WIDTH +: KEEP_WIDTH]),
    .s_axis_tvalid(in_reg[DATA_WIDTH + KEEP_WIDTH]),
    .s_axis_tready(ready),
    .s_axis_tlast(in_reg[DATA_WIDTH + KEEP_WIDTH + 1]),
    .m_axis_tdata(crc),
    .m_axis_tvalid(crc_valid),
    .m_axis_tready(in_reg[DATA_WIDTH + KEEP_WIDTH + 2])
);

assign so = so_reg;

endmodule

`resetall
