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

// no_rw_check: the RAM is never read and written at the same entry in one
// cycle (a load needs it not empty, a push needs it not full), so Yosys
// need not emulate a read-during-write (a register of the write data and
// address and a multiplexer per bit beside block RAM; it does on iCE40).
(* no_rw_check *)
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

`ifdef FORMAL
// ------------------------------------------------------------------ formal
// Properties proven by `make formal` (docs/robustness.md, "Formal proofs"):
// the AXI4-Stream rules on both sides (the writer's assumed, the reader's
// side asserted); count, empty and full as the number of entries taken
// and given says; never more than DEPTH + 1 entries, none given when
// empty; every entry given once, in the order taken, with its data (two
// arbitrary consecutive entries tracked); an entry in the RAM reaches the
// output register the next cycle when it is free.
reg f_past_valid = 1'b0;
always @(posedge clk)
    f_past_valid <= 1'b1;
always @*
    if (!f_past_valid)
        assume (rst);

// With F_FIFO_LIVE defined, the reader is assumed never to hold
// m_axis_tready low for more than F_OUT_WAIT cycles in a row, and
// s_axis_tready is proven never low for more than F_OUT_WAIT either (bounded
// liveness; without it nothing is assumed of the reader).
`ifdef F_FIFO_LIVE
localparam F_OUT_WAIT = 3;
localparam F_IN_WAIT = F_OUT_WAIT;
`else
localparam F_OUT_WAIT = 0;
localparam F_IN_WAIT = 0;
`endif
wire [15:0] f_in_wait, f_out_wait;
mpa_rx_faxis #(.WIDTH(WIDTH), .F_DUT_SENDS(0), .F_MAX_WAIT(F_IN_WAIT)) f_s_axis (
    .clk(clk), .rst(rst), .tdata(s_axis_tdata), .tvalid(s_axis_tvalid), .tready(s_axis_tready),
    .f_wait(f_in_wait));
mpa_rx_faxis #(.WIDTH(WIDTH), .F_DUT_SENDS(1), .F_MAX_WAIT(F_OUT_WAIT)) f_m_axis (
    .clk(clk), .rst(rst), .tdata(m_axis_tdata), .tvalid(m_axis_tvalid), .tready(m_axis_tready),
    .f_wait(f_out_wait));

wire f_push = s_axis_tvalid && s_axis_tready;
wire f_pop = m_axis_tvalid && m_axis_tready;
// entries held, counted from the handshakes alone
reg [AW+1:0] f_count = {AW+2{1'b0}};
always @(posedge clk) begin
    if (rst)
        f_count <= {AW+2{1'b0}};
    else
        f_count <= f_count + {{AW+1{1'b0}}, f_push} - {{AW+1{1'b0}}, f_pop};
end
wire [AW+1:0] f_ram = f_count - {{AW+1{1'b0}}, m_axis_tvalid};   // entries in the RAM
wire [AW:0]   f_used = wr_ptr - rd_ptr;                              // and as the pointers say

always @* begin
    if (!rst) begin
        assert (f_count <= DEPTH + 1);
        assert ({1'b0, count} == f_count);
        assert (empty == (f_count == 0));
        assert (full == (f_ram == DEPTH));
        assert (s_axis_tready == !full);
        assert (!m_axis_tvalid || f_count != 0);
        // the pointers (induction invariants)
        assert (f_used <= DEPTH);
        assert ({1'b0, f_used} == f_ram);
        // what no_rw_check on the RAM relies on: a write and a load never
        // address one entry in the same cycle
        assert (!(push && load && wr_ptr[AW-1:0] == rd_ptr[AW-1:0]));
    end
end
// an entry in the RAM is on the output the next cycle at the latest
always @(posedge clk)
    if (f_past_valid && !$past(rst) && $past(f_ram != 0))
        assert (m_axis_tvalid);

// Two arbitrary consecutive entries a and b: a is any entry taken while
// f_pick is high and nothing is tracked; b is the next entry taken. f_*_pos
// counts the entries ahead of each; position 0 is the head.
(* anyseq *) wire f_pick;
reg          f_a_in = 1'b0, f_b_in = 1'b0, f_b_next = 1'b0;
reg [AW+1:0] f_a_pos, f_b_pos;
reg [WIDTH-1:0] f_a, f_b;
always @(posedge clk) begin
    if (f_pop) begin
        f_a_pos <= f_a_pos - 1'b1;
        f_b_pos <= f_b_pos - 1'b1;
        if (f_a_pos == 0)
            f_a_in <= 1'b0;
        if (f_b_pos == 0)
            f_b_in <= 1'b0;
    end
    if (f_push && f_b_next) begin
        f_b_in <= 1'b1;
        f_b_next <= 1'b0;
        f_b <= s_axis_tdata;
        f_b_pos <= f_count - {{AW+1{1'b0}}, f_pop};
    end
    if (f_push && f_pick && !f_a_in && !f_b_in && !f_b_next) begin
        f_a_in <= 1'b1;
        f_b_next <= 1'b1;
        f_a <= s_axis_tdata;
        f_a_pos <= f_count - {{AW+1{1'b0}}, f_pop};
    end
    if (rst) begin
        f_a_in <= 1'b0;
        f_b_in <= 1'b0;
        f_b_next <= 1'b0;
    end
end
// where an entry at position p is: the output register (p == 0 and it is
// valid) or the RAM, at rd_ptr + p - m_axis_tvalid
wire [AW+1:0] f_a_ram = f_a_pos - {{AW+1{1'b0}}, m_axis_tvalid};
wire [AW+1:0] f_b_ram = f_b_pos - {{AW+1{1'b0}}, m_axis_tvalid};
wire [AW-1:0] f_a_addr = rd_ptr[AW-1:0] + f_a_ram[AW-1:0];
wire [AW-1:0] f_b_addr = rd_ptr[AW-1:0] + f_b_ram[AW-1:0];
always @* begin
    if (!rst) begin
        if (f_a_in) begin
            assert (f_a_pos < f_count);
            if (f_a_pos == 0 && m_axis_tvalid)
                assert (m_axis_tdata == f_a);
            else
                assert (mem[f_a_addr] == f_a);
        end
        if (f_b_in) begin
            assert (f_b_pos < f_count);
            // b leaves after a
            assert (!f_a_in || f_b_pos == f_a_pos + 1'b1);
            if (f_b_pos == 0 && m_axis_tvalid)
                assert (m_axis_tdata == f_b);
            else
                assert (mem[f_b_addr] == f_b);
        end
        assert (!(f_b_in && f_b_next));
        // waiting for b: a is the last entry taken
        assert (!(f_b_next && f_a_in) || f_a_pos == f_count - 1'b1);
    end
end

// covers: full, empty again after full, a push and a pop together with
// DEPTH entries held (the most with which a push is taken), the FIFO
// holding DEPTH + 1, and the tracked pair leaving in order
reg f_was_full = 1'b0;
always @(posedge clk) begin
    if (full)
        f_was_full <= 1'b1;
    if (rst)
        f_was_full <= 1'b0;
end
// (F_FIFO_NO_COVER: not in the cover proof of a module that instantiates
// the FIFO with fewer entries in use than it holds)
`ifndef F_FIFO_NO_COVER
always @* begin
    if (!rst) begin
        cover (full);
        cover (f_was_full && empty);
        cover (f_push && f_pop && f_count == DEPTH);
        cover (f_count == DEPTH + 1);
        cover (f_b_in && !f_a_in && f_b_pos == 0 && f_pop);
    end
end
`endif
`endif

endmodule

`resetall
