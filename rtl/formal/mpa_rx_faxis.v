// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_faxis: the AXI4-Stream handshake rules of one interface, as formal
 * properties (read only by `make formal`: `read_verilog -formal`).
 * Instantiate it inside an `ifdef FORMAL` block of the module under proof,
 * once per interface, with every payload signal of the interface (tdata,
 * tkeep, tlast, tuser, ...) concatenated on tdata.
 *
 * F_DUT_SENDS 1: the module under proof drives tvalid and tdata (an output
 *   interface): the sender's rules below are asserted, the receiver's
 *   (F_MAX_WAIT) assumed of the environment.
 * F_DUT_SENDS 0: the environment drives tvalid and tdata (an input
 *   interface): the sender's rules are assumed of it, the receiver's
 *   asserted of the module.
 *
 * Sender's rules (AXI4-Stream section 2.2.1):
 *   - tvalid is low in the cycle after a reset cycle (rst is synchronous:
 *     the reset value, not a leftover or an uninitialized register);
 *   - once tvalid is high without tready, tvalid stays high and tdata
 *     stays the same until the cycle of the handshake (a reset in between
 *     ends the rule).
 * Receiver's rule (only with F_MAX_WAIT > 0): tready is never low for
 *   more than F_MAX_WAIT cycles in a row outside reset (a bound on a
 *   stall, with or without tvalid).
 * There is no X in the solver's two-valued model; a register without a
 * reset value starts at an arbitrary value there, so a rule proven for
 * every initial state holds whatever an uninitialized register holds.
 *
 * f_wait counts the cycles tready has been low, and f_held is high when the
 * rule makes tvalid high in this cycle (a transfer waited in the last one):
 * for a caller's covers and induction invariants.
 */
/* verilator lint_off UNUSEDPARAM */
module mpa_rx_faxis #(
    // Bits of payload (tdata and every sideband signal, concatenated).
    parameter WIDTH = 8,
    // 1: the module under proof is the sender; 0: it is the receiver.
    parameter F_DUT_SENDS = 1,
    // Longest run of cycles with tready low (0: no bound).
    parameter F_MAX_WAIT = 0,
    // Bits of the stall counter f_wait.
    parameter F_WAIT_BITS = 16
) (
    input  wire                   clk,
    input  wire                   rst,
    input  wire [WIDTH-1:0]       tdata,
    input  wire                   tvalid,
    input  wire                   tready,
    output reg  [F_WAIT_BITS-1:0] f_wait,
    output wire                   f_held
);
/* verilator lint_on UNUSEDPARAM */

`ifdef FORMAL
// the previous cycle (registers: Yosys accepts $past in clocked blocks only)
reg             f_past_valid = 1'b0;
reg             f_prev_rst = 1'b0;
reg             f_prev_wait = 1'b0;    // tvalid && !tready
reg [WIDTH-1:0] f_prev_data;
always @(posedge clk) begin
    f_past_valid <= 1'b1;
    f_prev_rst <= rst;
    f_prev_wait <= tvalid && !tready;
    f_prev_data <= tdata;
end

// the sender's rules, one bit each
wire f_valid_rule = !(f_past_valid && f_prev_rst) || !tvalid;
assign f_held = f_past_valid && !f_prev_rst && f_prev_wait;
wire f_hold_rule = !f_held || (tvalid && tdata == f_prev_data);

// the receiver's rule
initial f_wait = {F_WAIT_BITS{1'b0}};
always @(posedge clk) begin
    if (rst || tready)
        f_wait <= {F_WAIT_BITS{1'b0}};
    else if (f_wait != {F_WAIT_BITS{1'b1}})
        f_wait <= f_wait + 1'b1;
end
wire f_wait_rule = F_MAX_WAIT == 0 || rst || tready || f_wait < F_MAX_WAIT;

generate
if (F_DUT_SENDS) begin : g_sender
    always @* begin
        assert (f_valid_rule);
        assert (f_hold_rule);
        assume (f_wait_rule);
    end
end else begin : g_receiver
    always @* begin
        assume (f_valid_rule);
        assume (f_hold_rule);
        assert (f_wait_rule);
    end
end
endgenerate
`else
always @(posedge clk)
    f_wait <= {F_WAIT_BITS{1'b0}};
assign f_held = 1'b0;
wire unused = &{1'b0, rst, tdata, tvalid, tready};
`endif

endmodule

`resetall
