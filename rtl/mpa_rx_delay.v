// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_delay: a delay line of DEPTH register stages for a WIDTH-bit
 * bundle of fields. A pipeline stage carries the fields it only passes on
 * through one of these instead of a register per field and stage.
 *
 * out_data is in_data DEPTH cycles earlier (DEPTH 0: the same cycle, no
 * register). Every stage is reset to zero by rst: a reset register is
 * never packed into a shift-register LUT (SRL16E), whose read would be a
 * LUT level in front of the logic that reads the line's end.
 * Latency: DEPTH cycles.
 */
module mpa_rx_delay #(
    // Bits carried.
    parameter WIDTH = 1,
    // Register stages (0 or more).
    parameter DEPTH = 1
) (
    input  wire             clk,
    input  wire             rst,
    input  wire [WIDTH-1:0] in_data,
    output wire [WIDTH-1:0] out_data
);

generate
if (DEPTH == 0) begin : g_wire
    assign out_data = in_data;
    wire unused = &{1'b0, clk, rst};
end else begin : g_regs
    // stage i holds in_data of i + 1 cycles ago
    wire [WIDTH*(DEPTH+1)-1:0] line;
    assign line[WIDTH-1:0] = in_data;
    genvar i;
    for (i = 0; i < DEPTH; i = i + 1) begin : g_stage
        reg [WIDTH-1:0] q = {WIDTH{1'b0}};
        always @(posedge clk) begin
            q <= line[i*WIDTH +: WIDTH];
            if (rst)
                q <= {WIDTH{1'b0}};
        end
        assign line[(i+1)*WIDTH +: WIDTH] = q;
    end
    assign out_data = line[DEPTH*WIDTH +: WIDTH];
end
endgenerate

`ifdef FORMAL
// ------------------------------------------------------------------ formal
// Proven by `make formal` (docs/robustness.md, "Formal proofs"): out_data is
// in_data DEPTH cycles earlier when no reset came in the last DEPTH
// cycles, and zero otherwise.
reg f_past_valid = 1'b0;
always @(posedge clk)
    f_past_valid <= 1'b1;
always @*
    if (!f_past_valid)
        assume (rst);
generate
if (DEPTH == 0) begin : f_wire
    always @*
        assert (out_data == in_data);
end else begin : f_line
    // in_data of the last DEPTH cycles, the last one in the low bits
    reg [WIDTH*DEPTH-1:0] f_hist;
    // cycles since the last reset cycle, up to DEPTH
    reg [$clog2(DEPTH+1):0] f_clean = 0;
    always @(posedge clk) begin
        f_hist <= {f_hist, in_data};
        if (rst)
            f_clean <= 0;
        else if (f_clean != DEPTH)
            f_clean <= f_clean + 1'b1;
    end
    always @*
        assert (f_clean <= DEPTH);
    always @*
        if (f_past_valid)
            assert (out_data == (f_clean == DEPTH ? f_hist[(DEPTH-1)*WIDTH +: WIDTH] : {WIDTH{1'b0}}));
    always @*
        cover (f_clean == DEPTH && out_data != {WIDTH{1'b0}});
end
endgenerate
`endif

endmodule

`resetall
