// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * crc32c_ref: the synthesis baseline for crc32c (measurements only, not part
 * of the design). A plain single-cycle CRC32C loop over full DATA_WIDTH-bit
 * beats: no tkeep, no start lane, no flow control, no pipelining. The register
 * is XORed into the first 32 data bits and the whole beat goes through one
 * XOR matrix per cycle; tlast loads the initial value for the next message
 * and registers the final CRC. The matrix is built the same way as in
 * crc32c.v. Latency: 1 cycle from the tlast beat to crc_valid.
 */
module crc32c_ref #(
    parameter DATA_WIDTH = 64
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire [DATA_WIDTH-1:0] s_axis_tdata,
    input  wire                  s_axis_tvalid,
    input  wire                  s_axis_tlast,
    output wire [31:0]           m_axis_tdata,
    output wire                  m_axis_tvalid
);

localparam [31:0] POLY = 32'h82F63B78;

function [32*DATA_WIDTH-1:0] data_matrix(input integer width);
    integer p, i;
    reg [31:0] s;
    begin
        data_matrix = 0;
        s = POLY;
        for (p = width - 1; p >= 0; p = p - 1) begin
            for (i = 0; i < 32; i = i + 1)
                data_matrix[i*width + p] = s[i];
            s = {1'b0, s[31:1]} ^ (s[0] ? POLY : 32'd0);
        end
    end
endfunction

localparam [32*DATA_WIDTH-1:0] DMAT = data_matrix(DATA_WIDTH);

reg [31:0] state_reg = 32'hFFFFFFFF;
reg [31:0] crc_reg = 32'd0;
reg crc_valid_reg = 1'b0;

wire [DATA_WIDTH-1:0] x = s_axis_tdata ^ {{(DATA_WIDTH-32){1'b0}}, state_reg};
wire [31:0] next;
genvar gi;
generate
    for (gi = 0; gi < 32; gi = gi + 1) begin : g_bit
        assign next[gi] = ^(x & DMAT[gi*DATA_WIDTH +: DATA_WIDTH]);
    end
endgenerate

always @(posedge clk) begin
    crc_valid_reg <= s_axis_tvalid && s_axis_tlast;
    if (s_axis_tvalid) begin
        state_reg <= s_axis_tlast ? 32'hFFFFFFFF : next;
        if (s_axis_tlast)
            crc_reg <= ~next;
    end
    if (rst) begin
        state_reg <= 32'hFFFFFFFF;
        crc_valid_reg <= 1'b0;
    end
end

assign m_axis_tdata = crc_reg;
assign m_axis_tvalid = crc_valid_reg;

endmodule

`resetall
