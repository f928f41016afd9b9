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
 * (fault, fault_resp), unless one is set already and not cleared in that
 * cycle (an error in the cycle software clears the fault sets it anew,
 * with its own F). While it is set, every
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
    if (cpl_err_valid && (!flt || fault_clear)) begin
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

`ifdef FORMAL
// ------------------------------------------------------------------ formal
// Proven by `make formal` (docs/robustness.md, "Formal proofs"), with the
// event FIFO cut out of the model (its outputs free: a `cutpoint` of the
// cell in scripts/formal/proofs.txt) and replaced by what mpa_rx_fifo's own
// proof guarantees of it: s_axis_tready is !full (fewer than DEPTH entries
// in its RAM); an entry is given only when one is held; an entry in the RAM
// is on the output the next cycle; the output follows the AXI4-Stream
// rules; every entry leaves once, in the order taken, with its data (here:
// the tag of every entry as the gate gave it, in a shift-register copy of
// the queue, and the whole beat of the tracked one).
//
// The environment (assumed):
// - s_evt follows the AXI4-Stream sender's rules; plan_push only in a cycle
//   of an s_evt handshake (mpa_rx_ddp proves it: a descriptor only with the
//   PLACED beat of its FPDU, taken);
// - cpl_count (the descriptors answered, in order) is 0 after a reset,
//   never decreases, never passes the descriptors given before this cycle,
//   and at most F_MAX_OUT of them are unanswered;
// - cpl_err_valid names F (cpl_err_first) with cpl_count of the cycle
//   before <= F < the descriptors given (mpa_rx_axi_wr reports as F its
//   cpl_count before the retirement).
//
// Proven (k-induction):
// - release: a beat enters the output register (so leaves) only when every
//   descriptor given up to and with it is answered (counted in the model
//   from plan_push and cpl_count, not from the gate's tags);
// - order and data: every beat leaves once, in the order taken, as it came
//   or as the error rule converts it (an arbitrary tracked beat T);
// - none lost or made up: the beats held (FIFO, head and output register)
//   are the beats taken minus the beats given; the head and output
//   registers are never overwritten while they hold a beat;
// - the error rule: while the fault is set (by an error while it is not set;
//   an error while it is set changes nothing), a beat whose tag is above F
//   (taken with or after the descriptor F) leaves with every PLACED and
//   DELIVERED lane turned into DDP_ERROR kind 13 and the rest of the beat
//   unchanged; every other beat leaves unchanged. The decision is taken as
//   the beat enters the output register;
// - fault and fault_resp as the model says;
// - m_evt follows the AXI4-Stream sender's rules.
// The model keeps a tag as its distance from the descriptors given
// (f_given - tag: at most the beats behind it), so that the induction works
// on small numbers.
localparam [15:0] F_MAX_OUT = 16'h3fff;
reg f_past_valid = 1'b0;
reg f_prev_rst = 1'b1;
always @(posedge clk) begin
    f_past_valid <= 1'b1;
    f_prev_rst <= rst;
end
always @*
    if (!f_past_valid)
        assume (rst);

wire f_s_hs = s_evt_tvalid && s_evt_tready;
wire f_m_hs = m_evt_tvalid && m_evt_tready;
wire [BW-1:0] f_s_beat = {s_evt_tkeep, s_evt_tdata};
wire [BW-1:0] f_m_beat = {m_evt_tkeep, m_evt_tdata};
wire [7:0] f_pp = {7'd0, plan_push};

wire [15:0] f_s_wait, f_m_wait, f_f_wait;
mpa_rx_faxis #(.WIDTH(BW), .F_DUT_SENDS(0)) f_s_evt (
    .clk(clk), .rst(rst), .tdata(f_s_beat), .tvalid(s_evt_tvalid), .tready(s_evt_tready),
    .f_wait(f_s_wait), .f_held());
mpa_rx_faxis #(.WIDTH(BW), .F_DUT_SENDS(1)) f_m_evt (
    .clk(clk), .rst(rst), .tdata(f_m_beat), .tvalid(m_evt_tvalid), .tready(m_evt_tready),
    .f_wait(f_m_wait), .f_held());

// the descriptors given and answered (mod 2^16)
reg  [15:0] f_given = 16'd0;    // descriptors given (plan_push) before this cycle
reg  [15:0] f_cq = 16'd0;       // cpl_count of the cycle before
always @(posedge clk) begin
    f_given <= f_given + {15'd0, plan_push};
    f_cq <= cpl_count;
    if (rst) begin
        f_given <= 16'd0;
        f_cq <= 16'd0;
    end
end
wire [15:0] f_unans = f_given - f_cq;                 // given and not answered
always @* begin
    if (!rst) begin
        assume (!plan_push || f_s_hs);
        if (f_prev_rst)
            assume (cpl_count == 16'd0 && !cpl_err_valid);
        assume ((f_given - cpl_count) <= F_MAX_OUT);
        assume ((cpl_count - f_cq) <= f_unans);
        if (cpl_err_valid)
            assume ((cpl_err_first - f_cq) < f_unans);
    end
end

// the fault: set by an error while not set, cleared by fault_clear;
// f_dF = (descriptors given at the error) - F - 1, f_dgp the descriptors
// given since, f_pb the beats taken since (from the error's cycle on)
reg         f_flt = 1'b0;
reg  [15:0] f_F, f_dF;
reg  [1:0]  f_resp = 2'd0;
reg  [7:0]  f_pb, f_dgp;
wire        f_err = cpl_err_valid && (!f_flt || fault_clear);
always @(posedge clk) begin
    if (f_s_hs && f_pb != 8'hff)
        f_pb <= f_pb + 8'd1;
    if (plan_push && f_dgp != 8'hff)
        f_dgp <= f_dgp + 8'd1;
    if (fault_clear)
        f_flt <= 1'b0;
    if (f_err) begin
        f_flt <= 1'b1;
        f_F <= cpl_err_first;
        f_dF <= f_given - cpl_err_first - 16'd1;
        f_resp <= cpl_err_resp;
        f_pb <= {7'd0, f_s_hs};
        f_dgp <= f_pp;
    end
    if (rst) begin
        f_flt <= 1'b0;
        f_resp <= 2'd0;
    end
end
// a tag at distance d from f_given is above F
function f_above;
    input [7:0] d;
    begin
        f_above = {8'd0, d} <= {8'd0, f_dgp} + f_dF;
    end
endfunction

// the event FIFO, cut: its outputs (s_evt_tready, f_valid, f_tag, f_beat)
// are free, constrained by what its proof guarantees
reg  [7:0]  f_fc = 8'd0;        // entries held
reg  [8*(DEPTH+1)-1:0] f_qd;    // their tags' distances, the head at 0
// the distance of the tag the gate gives the FIFO (tag_in) as of the next
// cycle: 0 when it counts every descriptor given up to and with the beat
wire [15:0] f_tin_d16 = f_given + {15'd0, plan_push} - tag_in;
wire [7:0]  f_tin_d = f_tin_d16[7:0];
wire        f_fpop = f_valid && f_ready;
wire [7:0]  f_fram = f_fc - {7'd0, f_valid};
integer fk;
always @(posedge clk) begin
    f_fc <= f_fc + {7'd0, f_s_hs} - {7'd0, f_fpop};
    for (fk = 0; fk <= DEPTH; fk = fk + 1)
        f_qd[8*fk +: 8] <= (f_fpop ? (fk < DEPTH ? f_qd[8*(fk < DEPTH ? fk + 1 : fk) +: 8] : 8'd0) : f_qd[8*fk +: 8]) + f_pp;
    for (fk = 0; fk <= DEPTH; fk = fk + 1)
        if (f_s_hs && fk == f_fc - {7'd0, f_fpop})
            f_qd[8*fk +: 8] <= f_tin_d;
    if (rst)
        f_fc <= 8'd0;
end
mpa_rx_faxis #(.WIDTH(16 + BW), .F_DUT_SENDS(0)) f_fifo_out (
    .clk(clk), .rst(rst), .tdata({f_tag, f_beat}), .tvalid(f_valid), .tready(f_ready),
    .f_wait(f_f_wait), .f_held());
reg f_ram_was = 1'b0;
always @(posedge clk)
    f_ram_was <= !rst && f_fram != 8'd0;

// the head register's tag distance
reg [7:0] f_hd;
always @(posedge clk) begin
    f_hd <= f_hd + f_pp;
    if (f_ready)
        f_hd <= f_qd[7:0] + f_pp;
end

// one tracked beat T: taken while f_pick is high and none is tracked;
// f_t_pos beats are ahead of it (position 0 is the output register when
// it is valid, then the head register, then the FIFO's entries)
(* anyseq *) wire f_pick;
reg          f_t_in = 1'b0;
reg  [7:0]   f_t_pos, f_t_d;    // beats ahead of T; f_given - T's tag
reg  [BW-1:0] f_t_beat, f_t_exp;
reg          f_t_above;         // T's tag is above F (T comes with or after descriptor F)
reg  [7:0]   f_occ = 8'd0;      // beats held: taken minus given
wire         f_t_o = f_t_in && f_t_pos == 8'd0 && o_v;
wire         f_t_h = f_t_in && f_t_pos == {7'd0, o_v} && h_v;
wire [7:0]   f_t_k = f_t_pos - {7'd0, o_v} - {7'd0, h_v};   // T's FIFO position
wire         f_t_f = f_t_in && !f_t_o && !f_t_h;
wire         f_t_leaves = f_t_in && f_t_pos == 8'd0 && f_m_hs;

// a beat as the error rule gives it: PLACED and DELIVERED lanes become
// DDP_ERROR, DDP kind 13 (host write error)
function [BW-1:0] f_conv;
    input [BW-1:0] b;
    integer fl;
    begin
        f_conv = b;
        for (fl = 0; fl < EVT_LANES; fl = fl + 1)
            if (b[EVT_W*fl + EVT_KIND +: EVT_KIND_W] == EVT_KIND_PLACED ||
                b[EVT_W*fl + EVT_KIND +: EVT_KIND_W] == EVT_KIND_DELIVERED) begin
                f_conv[EVT_W*fl + EVT_KIND +: EVT_KIND_W] = EVT_KIND_DDP_ERROR;
                f_conv[EVT_W*fl + EVT_DDP_KIND +: EVT_DDP_KIND_W] = 4'd13;
            end
    end
endfunction

always @(posedge clk) begin
    f_occ <= f_occ + {7'd0, f_s_hs} - {7'd0, f_m_hs};
    f_t_d <= f_t_d + f_pp;
    if (f_m_hs) begin
        f_t_pos <= f_t_pos - 8'd1;
        if (f_t_pos == 8'd0)
            f_t_in <= 1'b0;
    end
    if (f_err)
        f_t_above <= {8'd0, f_t_d} < f_given - cpl_err_first;
    if (load && f_t_h)
        f_t_exp <= (f_flt && f_t_above) ? f_conv(f_t_beat) : f_t_beat;
    if (f_s_hs && f_pick && !f_t_in) begin
        f_t_in <= 1'b1;
        f_t_pos <= f_occ - {7'd0, f_m_hs};
        f_t_d <= 8'd0;
        f_t_beat <= f_s_beat;
        f_t_above <= 1'b1;
    end
    if (rst) begin
        f_occ <= 8'd0;
        f_t_in <= 1'b0;
    end
end

// the FIFO's guarantees (assumed here, proven by mpa_rx_fifo's proof)
always @* begin
    if (!rst) begin
        assume (s_evt_tready == (f_fram < DEPTH));
        assume (!f_valid || f_fc != 8'd0);
        if (f_ram_was)
            assume (f_valid);
        if (f_valid)
            assume (f_tag == f_given - {8'd0, f_qd[7:0]});
        if (f_valid && f_t_f && f_t_k == 8'd0)
            assume (f_beat == f_t_beat);
    end
end

// the properties, and the invariants the induction needs
genvar fg;
generate
for (fg = 0; fg <= DEPTH; fg = fg + 1) begin : g_f_q
    wire [7:0] d = f_qd[8*fg +: 8];
    wire [7:0] next = f_qd[8*(fg < DEPTH ? fg + 1 : fg) +: 8];
    wire [7:0] behind = f_fc - fg - 1;      // entries behind this one
    always @* begin
        if (!rst && fg < f_fc) begin
            // the newest is at distance 0, each at most one more than the one behind it
            if (fg + 1 < f_fc)
                assert (d - next <= 8'd1 && next <= d);
            else
                assert (d == 8'd0);
            assert (d <= behind);
            // taken since the error (while no beat above F has left): at most f_dgp
            if (f_flt && !past && behind < f_pb)
                assert (d <= f_dgp);
        end
    end
end
endgenerate

always @* begin
    if (!rst) begin
        // the model and the gate's registers
        assert (given == f_given);
        assert (given1 == f_given + 16'd1);
        // a beat's tag: every descriptor given up to and with it
        assert (tag_in == f_given + {15'd0, plan_push});
        assert (cq == f_cq);
        assert (f_unans <= F_MAX_OUT + 16'd1);
        assert (flt == f_flt);
        assert (fault == f_flt);
        assert (fault_resp == f_resp);
        if (f_flt) begin
            assert (flt_f1 == f_F + 16'd1);
            assert (f_dF <= F_MAX_OUT);
        end
        // beats held, none lost or made up; the registers never overwritten
        assert (f_fc <= DEPTH + 1);
        assert (f_occ == f_fc + {7'd0, h_v} + {7'd0, o_v});
        assert (!f_ready || !h_v || load);
        assert (!load || !o_v || m_evt_tready);
        // the head's tag
        if (h_v) begin
            assert (h_tag == f_given - {8'd0, f_hd});
            assert (f_hd <= f_fc);
            if (f_fc != 8'd0)
                assert (f_hd - f_qd[7:0] <= 8'd1 && f_qd[7:0] <= f_hd);
            else
                assert (f_hd == 8'd0);
        end
        // the tracked beat
        if (f_t_in) begin
            assert (f_t_pos < f_occ);
            assert (f_t_d <= f_occ - f_t_pos - 8'd1);
        end
        if (f_t_h) begin
            assert (f_hd == f_t_d);
            assert (h_beat == f_t_beat);
        end
        if (f_t_f)
            assert (f_qd[8*f_t_k +: 8] == f_t_d);
        if (f_t_o) begin
            assert (o_beat == f_t_exp);
            // RELEASE: every descriptor given up to and with T answered
            assert (f_unans <= {8'd0, f_t_d});
        end
        // ORDER AND DATA, and the ERROR RULE: T leaves as the model says
        if (f_t_leaves)
            assert (f_m_beat == f_t_exp);
        // RELEASE, at the decision
        if (load && f_t_h)
            assert (f_unans <= {8'd0, f_t_d});
        // the fault: until a beat above F has left (past), every beat taken
        // since the error is in the FIFO or the head, and F is where the
        // model says; after, T (behind that beat) is above F too
        if (f_flt && !past) begin
            assert (f_pb <= f_fc + {7'd0, h_v});
            assert (f_dgp <= f_pb);
            assert (f_given - f_F - 16'd1 == {8'd0, f_dgp} + f_dF);
            if (h_v && f_pb > f_fc)
                assert (f_hd <= f_dgp);
            if (f_t_f || f_t_h)
                assert (f_t_above == f_above(f_t_d));
        end
        if (f_flt && past && (f_t_f || f_t_h))
            assert (f_t_above);
    end
end

// covers: a beat held for its completions, then released; the FIFO
// full; an error (a PLACED turned into DDP_ERROR kind 13 leaving, and a
// PLACED from before F leaving unchanged while the fault is set); a PLACED
// leaving after the fault was cleared
reg f_was_held = 1'b0, f_was_cleared = 1'b0;
always @(posedge clk) begin
    if (h_v && !h_go)
        f_was_held <= 1'b1;
    if (fault_clear && flt)
        f_was_cleared <= 1'b1;
    if (rst) begin
        f_was_held <= 1'b0;
        f_was_cleared <= 1'b0;
    end
end
wire [3:0] f_m_kind = m_evt_tdata[EVT_KIND +: EVT_KIND_W];
wire [3:0] f_t_kind = f_t_beat[EVT_KIND +: EVT_KIND_W];
always @* begin
    if (!rst) begin
        cover (h_v && !h_go && f_unans != 16'd0);
        cover (f_was_held && f_t_leaves && f_t_kind == EVT_KIND_PLACED);
        cover (!s_evt_tready);
        cover (f_t_leaves && f_flt && f_t_kind == EVT_KIND_PLACED && f_m_kind == EVT_KIND_DDP_ERROR &&
               m_evt_tdata[EVT_DDP_KIND +: EVT_DDP_KIND_W] == 4'd13);
        cover (f_t_leaves && f_flt && f_m_kind == EVT_KIND_PLACED);
        cover (f_t_leaves && f_was_cleared && !f_flt && f_m_kind == EVT_KIND_PLACED);
        cover (fault_clear && flt && cpl_err_valid);
    end
end
`endif

endmodule

`resetall
