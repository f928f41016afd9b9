// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx: the flow-through MPA receiver (docs/design.md). This module only
 * instantiates and wires its blocks and the queues between them (each an
 * mpa_rx_fifo; the fields of every record in mpa_rx_fields.vh).
 *
 * Ethernet frames come in on s_axis (no FCS; s_axis_tuser on the last beat
 * marks a bad FCS). mpa_rx_ingress admits the beats into the frame FIFO,
 * which stores each frame whole while mpa_rx_parse checks its headers and
 * checksums, mpa_rx_ctx looks up the half connection's context, and
 * mpa_rx_walk walks and checks its FPDUs (fed by mpa_rx_feed: the word
 * view four beats late, the frame's walker parameters). mpa_rx_frame
 * keeps each frame's record (parser fields, lookup result, beats) until
 * mpa_rx_verdict meets it with the walker's summary and takes the verdict
 * (golden/fastpath decides the same), updating the context.
 *
 * The egress has two stages: mpa_rx_ddp (E1) emits each frame's events
 * on m_evt and makes the DDP checks of a PLACE frame's FPDUs against the
 * STag table and the receive queues; mpa_rx_place (E2) then reads the
 * frame's beats and writes the placed FPDUs' payloads to host memory
 * (m_host_*), markers stripped, sends an exception frame unmodified to
 * m_exc_axis (reason in tuser), or frees the frame. E1 hands each frame to
 * E2 with a token and a placement descriptor per FPDU placed. Software
 * programs contexts (mpa_rx_ctx) and the DDP tables (mpa_rx_ddp) through
 * cfg_*.
 *
 * Latency: a frame's verdict is taken L_WALK + 6 cycles after its last
 * beat is accepted (L_WALK from mpa_rx_walk; more when it waits for the
 * frame before it, docs/design.md section 5.2); E1 starts it two cycles after
 * the verdict at the earliest, E2 three cycles after E1 is done with it
 * (docs/design.md section 5 is the exact contract).
 */
// Queue outputs that a queue's user does not need (count, empty, full) are
// left open.
/* verilator lint_off PINCONNECTEMPTY */
module mpa_rx #(
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // contexts (half connections); a power of two
    parameter CONN_COUNT = 16,
    // the longest frame the receiver stores, in octets from the Ethernet
    // header to the end of the TCP payload (no FCS): 1518 is a 1500-octet
    // MTU with an 802.1Q tag; 9018 the jumbo configuration (9000-octet MTU)
    parameter MAX_FRAME = 1518,
    // frame FIFO depth in beats (a power of two); a frame longer than the
    // FIFO is dropped. By default two frames of MAX_FRAME octets, rounded
    // up to a power of two (RFC 5044 Appendix B: a flow-through receiver
    // buffers a frame while its checks run and takes the next one in): at
    // 1518 octets 512 / 256 / 128 / 64 beats at 64 / 128 / 256 / 512 bits,
    // at 9018 octets 4096 / 2048 / 1024 / 512 (docs/design.md section 6)
    parameter FIFO_DEPTH = 1 << $clog2(2 * ((MAX_FRAME + KEEP_WIDTH - 1) / KEEP_WIDTH)),
    // receive window beyond rcv_nxt (octets)
    parameter WINDOW = 32'h0010_0000,
    // STag table entries (STag[31:8] mod STAG_COUNT); a power of two
    parameter STAG_COUNT = 64,
    // receive buffers held per context and QN; a power of two
    parameter RQ_DEPTH = 4,
    // walker records held: every FPDU of every frame in the frame FIFO
    // (FPDUs are at least 20 octets)
    parameter MAX_FPDUS = FIFO_DEPTH * KEEP_WIDTH / 20 + 16,
    // 128-bit event lanes on m_evt (docs/design.md sections 4 and 5.3):
    // 1 at 64 and 128 bits, 2 at 256 and 512, where a frame can take fewer
    // cycles than its four events (VERDICT, ADVANCED, PLACED, DELIVERED)
    parameter EVT_LANES = DATA_WIDTH >= 256 ? 2 : 1,
    // frames between their last beat and the end of their egress at which
    // s_axis_tready goes low (docs/design.md section 5.1): 14, and 24 at
    // 512 bits, where a frame of two beats is about 32 cycles in flight
    // (its queues are then 32 entries deep)
    parameter MAX_INFLIGHT = DATA_WIDTH >= 512 ? 24 : 14
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire [DATA_WIDTH-1:0] s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0] s_axis_tkeep,
    input  wire                  s_axis_tvalid,
    output wire                  s_axis_tready,
    input  wire                  s_axis_tlast,
    input  wire                  s_axis_tuser,

    output wire [DATA_WIDTH-1:0] m_exc_axis_tdata,
    output wire [KEEP_WIDTH-1:0] m_exc_axis_tkeep,
    output wire                  m_exc_axis_tvalid,
    input  wire                  m_exc_axis_tready,
    output wire                  m_exc_axis_tlast,
    output wire [3:0]            m_exc_axis_tuser,

    output wire [EVT_LANES*128-1:0] m_evt_tdata,
    output wire [EVT_LANES*16-1:0]  m_evt_tkeep,
    output wire                  m_evt_tvalid,
    input  wire                  m_evt_tready,

    output wire [63:0]           m_host_addr,
    output wire [DATA_WIDTH-1:0] m_host_data,
    output wire [KEEP_WIDTH-1:0] m_host_strb,
    output wire                  m_host_valid,
    input  wire                  m_host_ready,

    // the placement descriptors as E1 gives them to E2 (host address and
    // length of each FPDU payload placed, in the order of the host writes)
    // and the end of each frame in E1 (with its last descriptor, or after
    // it): for a host-memory master that plans its bursts ahead of the
    // writes (mpa_rx_axi_top). No ready: the user takes every one.
    output wire                  m_plan_valid,
    output wire [63:0]           m_plan_addr,
    output wire [15:0]           m_plan_len,
    output wire                  m_plan_frame_end,

    input  wire                  cfg_valid,
    output wire                  cfg_ready,
    input  wire [2:0]            cfg_op,
    input  wire [15:0]           cfg_index,
    input  wire [383:0]          cfg_data
);

`include "mpa_rx_fields.vh"

generate
if (!(DATA_WIDTH == 64 || DATA_WIDTH == 128 || DATA_WIDTH == 256 || DATA_WIDTH == 512)) begin : g_bad_data_width
`ifndef SYNTHESIS
    initial begin
        $error("mpa_rx: DATA_WIDTH %0d is not supported (64, 128, 256 or 512)", DATA_WIDTH);
        $finish;
    end
`endif
    // elaboration stops here in every tool: this module does not exist
    mpa_rx_DATA_WIDTH_must_be_64_128_256_or_512 param_error ();
end
if (KEEP_WIDTH * 8 != DATA_WIDTH) begin : g_bad_keep_width
`ifndef SYNTHESIS
    initial begin
        $error("mpa_rx: KEEP_WIDTH %0d is not DATA_WIDTH / 8", KEEP_WIDTH);
        $finish;
    end
`endif
    mpa_rx_KEEP_WIDTH_must_be_DATA_WIDTH_over_8 param_error ();
end
endgenerate

localparam WPB = DATA_WIDTH / 32;
localparam IDX_BITS = CONN_COUNT > 1 ? $clog2(CONN_COUNT) : 1;
// per-frame queues (frame records, summaries, verdicts, tokens): an entry
// per frame in flight at most; each holds its depth plus its output register
localparam IQ_DEPTH = 1 << $clog2(MAX_INFLIGHT);
localparam DESC_DEPTH = 1 << $clog2(MAX_FPDUS);
localparam FRL_W = FRL_IDX + IDX_BITS;
localparam VQ_W = VQ_IDX + IDX_BITS;

// ------------------------------------------------------------------ ingress
wire        beat_ok = s_axis_tvalid && s_axis_tready;
wire        ff_in_ready, ff_write, e2_done;
wire [15:0] cur_beats;
wire        end_valid, end_over;
wire [15:0] end_beats;
mpa_rx_ingress #(.FIFO_DEPTH(FIFO_DEPTH), .MAX_INFLIGHT(MAX_INFLIGHT)) ingress (
    .clk(clk), .rst(rst),
    .s_axis_tvalid(s_axis_tvalid), .s_axis_tready(s_axis_tready), .s_axis_tlast(s_axis_tlast),
    .s_axis_tuser(s_axis_tuser),
    .fifo_ready(ff_in_ready), .store(ff_write), .frame_done(e2_done),
    .cur_beats(cur_beats), .end_valid(end_valid), .end_beats(end_beats), .end_over(end_over)
);

// frame FIFO: data, keep, last
wire [DATA_WIDTH-1:0] ff_data;
wire [KEEP_WIDTH-1:0] ff_keep;
wire                  ff_last;
wire                  ff_valid;
wire                  ff_ready;
mpa_rx_fifo #(.WIDTH(DATA_WIDTH + KEEP_WIDTH + 1), .DEPTH(FIFO_DEPTH)) frame_fifo (
    .clk(clk), .rst(rst),
    .s_axis_tdata({s_axis_tlast, s_axis_tkeep, s_axis_tdata}),
    .s_axis_tvalid(ff_write),
    .s_axis_tready(ff_in_ready),
    .m_axis_tdata({ff_last, ff_keep, ff_data}),
    .m_axis_tvalid(ff_valid),
    .m_axis_tready(ff_ready),
    .count(), .empty(), .full()
);

// ------------------------------------------------------------------ parser
wire [DATA_WIDTH-1:0] w_data;
wire [WPB-1:0]        w_pmask;
wire [127:0] src_ip_now, dst_ip_now;
wire [31:0] seq_now;
wire [15:0] src_port_now, dst_port_now;
wire        tuple_done, v6_now;
wire        prs_valid;
wire [1:0]  prs_class, prs_drop;
wire [31:0] prs_seq;
wire [7:0]  prs_flags;
wire [15:0] prs_plen;
mpa_rx_parse #(.DATA_WIDTH(DATA_WIDTH)) parse (
    .clk(clk), .rst(rst),
    .in_data(s_axis_tdata), .in_keep(s_axis_tkeep), .in_valid(beat_ok), .in_last(s_axis_tlast),
    .w_data(w_data), .w_pmask(w_pmask),
    .src_ip_now(src_ip_now), .dst_ip_now(dst_ip_now), .v6_now(v6_now), .src_port_now(src_port_now),
    .dst_port_now(dst_port_now),
    .seq_now(seq_now), .tuple_done(tuple_done),
    .f_valid(prs_valid), .f_class(prs_class), .f_drop(prs_drop), .f_seq(prs_seq), .f_flags(prs_flags),
    .f_plen(prs_plen)
);
reg [FRP_W-1:0] frp_in;
always @* begin
    frp_in[FRP_CLASS +: FRP_CLASS_W] = prs_class;
    frp_in[FRP_DROP +: FRP_DROP_W] = prs_drop;
    frp_in[FRP_SEQ +: FRP_SEQ_W] = prs_seq;
    frp_in[FRP_FLAGS +: FRP_FLAGS_W] = prs_flags;
    frp_in[FRP_PLEN +: FRP_PLEN_W] = prs_plen;
end

// ------------------------------------------------------------------ contexts
wire                lk_valid, lk_match;
wire [IDX_BITS-1:0] lk_idx;
wire [383:0]        lk_ent;
wire [IDX_BITS-1:0] vd_rd_idx, vd_wr_idx;
wire [383:0]        vd_rd_ent, vd_wr_data;
wire                vd_wr_valid, vd_busy, ddp_busy;
// The configuration port waits while a frame is in V1 (its context was
// read), while V2 writes, and while the DDP stage's receive-queue update
// holds it.
assign cfg_ready = !vd_busy && !ddp_busy;
wire cfg_ok = cfg_valid && cfg_ready;
mpa_rx_ctx #(.CONN_COUNT(CONN_COUNT), .IDX_BITS(IDX_BITS)) ctx (
    .clk(clk), .rst(rst),
    .lk_valid(beat_ok && tuple_done), .lk_src_ip(src_ip_now), .lk_dst_ip(dst_ip_now),
    .lk_src_port(src_port_now), .lk_dst_port(dst_port_now), .lk_v6(v6_now),
    .res_valid(lk_valid), .res_match(lk_match), .res_idx(lk_idx), .res_ent(lk_ent),
    .rd_idx(vd_rd_idx), .rd_ent(vd_rd_ent),
    .wr_valid(vd_wr_valid), .wr_idx(vd_wr_idx), .wr_data(vd_wr_data),
    .cfg_valid(cfg_ok && cfg_op == CFG_OP_CTX), .cfg_a6_valid(cfg_ok && cfg_op == CFG_OP_ADDR6),
    .cfg_idx(cfg_index[IDX_BITS-1:0]), .cfg_data(cfg_data)
);

// ------------------------------------------------------------------ walker
wire                  wk_valid, wk_last, wk_markers, wk_crc;
wire [31:0]           wk_seq, wk_seq_start;
wire [DATA_WIDTH-1:0] wk_data;
wire [WPB-1:0]        wk_pmask;
mpa_rx_feed #(.DATA_WIDTH(DATA_WIDTH)) feed (
    .clk(clk), .rst(rst),
    .in_valid(beat_ok), .in_store(ff_write), .in_last(s_axis_tlast), .in_tuple(tuple_done), .in_seq(seq_now),
    .in_data(w_data), .in_pmask(w_pmask),
    .lk_valid(lk_valid), .lk_ent(lk_ent),
    .w_valid(wk_valid), .w_last(wk_last), .w_seq(wk_seq), .w_data(wk_data), .w_pmask(wk_pmask),
    .seq_start(wk_seq_start), .markers_on(wk_markers), .crc_on(wk_crc)
);

wire        rec_valid;
wire [15:0] rec_lseq_w, rec_ulen;
wire [7:0]  rec_ctrl, rec_ulp;
wire [127:0] rec_hdr;
wire        rec_first, rec_last, sum_ok, rec_ready;
wire [15:0] sum_nrec;
wire        sum_valid, sum_whole, sum_small, sum_grid, sum_crc_ok, sum_marker_ok, sum_first_marker, sum_any_l;
wire [15:0] sum_nfpdu;
wire [7:0]  sum_nrfc, sum_ndraft;
mpa_rx_walk #(.DATA_WIDTH(DATA_WIDTH), .MAX_FPDUS(MAX_FPDUS)) walk (
    .clk(clk), .rst(rst),
    .seg_seq(wk_seq), .seq_start(wk_seq_start), .markers_on(wk_markers), .crc_on(wk_crc),
    .w_valid(wk_valid), .w_data(wk_data), .w_pmask(wk_pmask), .w_last(wk_last),
    .rec_valid(rec_valid), .rec_ready(rec_ready),
    .rec_lseq_w(rec_lseq_w), .rec_ulen(rec_ulen), .rec_ctrl(rec_ctrl), .rec_ulp(rec_ulp), .rec_hdr(rec_hdr),
    .rec_first(rec_first), .rec_last(rec_last), .sum_ok(sum_ok), .sum_nrec(sum_nrec),
    .sum_valid(sum_valid), .sum_whole(sum_whole), .sum_small(sum_small), .sum_grid(sum_grid),
    .sum_crc_ok(sum_crc_ok), .sum_marker_ok(sum_marker_ok), .sum_first_marker(sum_first_marker),
    .sum_any_l(sum_any_l), .sum_nfpdu(sum_nfpdu), .sum_nrfc(sum_nrfc), .sum_ndraft(sum_ndraft)
);
reg [SUM_W-1:0] sum_data;
always @* begin
    sum_data[SUM_WHOLE] = sum_whole;
    sum_data[SUM_SMALL] = sum_small;
    sum_data[SUM_GRID] = sum_grid;
    sum_data[SUM_CHECKS] = sum_crc_ok && sum_marker_ok;
    sum_data[SUM_FIRST_MARKER] = sum_first_marker;
    sum_data[SUM_ANY_L] = sum_any_l;
    sum_data[SUM_NREC +: SUM_NREC_W] = sum_nrec;
    sum_data[SUM_NRFC +: SUM_NRFC_W] = sum_nrfc;
    sum_data[SUM_NDRAFT +: SUM_NDRAFT_W] = sum_ndraft;
end

// ------------------------------------------------------------------ frame records
wire [FRP_W-1:0] fr_frp;
wire [FRL_W-1:0] fr_frl;
wire             fr_valid, fr_ready;
mpa_rx_frame #(.DATA_WIDTH(DATA_WIDTH), .IDX_BITS(IDX_BITS), .DEPTH(IQ_DEPTH)) frame (
    .clk(clk), .rst(rst),
    .in_valid(beat_ok), .in_last(s_axis_tlast), .in_beats(cur_beats), .in_pmask(w_pmask),
    .end_valid(end_valid), .end_beats(end_beats), .end_over(end_over),
    .lk_valid(lk_valid), .lk_match(lk_match), .lk_idx(lk_idx), .lk_ent(lk_ent),
    .prs_valid(prs_valid), .prs_data(frp_in),
    .m_frp(fr_frp), .m_frl(fr_frl), .m_valid(fr_valid), .m_ready(fr_ready)
);

// ------------------------------------------------------------------ verdict
wire            vq_push;
wire [VQ_W-1:0] vq_in;
mpa_rx_verdict #(.IDX_BITS(IDX_BITS), .WINDOW(WINDOW), .DEPTH(IQ_DEPTH)) verdict_stage (
    .clk(clk), .rst(rst),
    .sum_valid(sum_valid), .sum_data(sum_data),
    .fr_valid(fr_valid), .fr_frp(fr_frp), .fr_frl(fr_frl), .fr_ready(fr_ready),
    .ctx_rd_idx(vd_rd_idx), .ctx_rd_ent(vd_rd_ent),
    .ctx_wr_valid(vd_wr_valid), .ctx_wr_idx(vd_wr_idx), .ctx_wr_data(vd_wr_data),
    .vq_valid(vq_push), .vq_data(vq_in),
    .busy(vd_busy)
);
wire [VQ_W-1:0] vq_head;
wire vq_valid, vq_pop, vq_in_ready;
mpa_rx_fifo #(.WIDTH(VQ_W), .DEPTH(IQ_DEPTH)) verdict_fifo (
    .clk(clk), .rst(rst),
    .s_axis_tdata(vq_in), .s_axis_tvalid(vq_push), .s_axis_tready(vq_in_ready),
    .m_axis_tdata(vq_head), .m_axis_tvalid(vq_valid), .m_axis_tready(vq_pop),
    .count(), .empty(), .full()
);

// ------------------------------------------------------------------ egress
// E1 (mpa_rx_ddp): events and DDP checks; E2 (mpa_rx_place): beats out,
// host writes. E1 hands each frame to E2 with a token and the placement
// descriptors of its FPDUs.
wire             tok_push, tok_in_ready, tok_valid, tok_pop;
wire [TOK_W-1:0] tok_in, tok_head;
wire              desc_push, desc_in_ready, desc_valid, desc_pop;
wire [DESC_W-1:0] desc_in, desc_head;
mpa_rx_ddp #(.IDX_BITS(IDX_BITS), .STAG_COUNT(STAG_COUNT), .RQ_DEPTH(RQ_DEPTH), .EVT_LANES(EVT_LANES)) ddp (
    .clk(clk), .rst(rst),
    .vq_valid(vq_valid), .vq_ready(vq_pop), .vq_data(vq_head),
    .rec_valid(rec_valid), .rec_ready(rec_ready), .rec_lseq_w(rec_lseq_w), .rec_ulen(rec_ulen), .rec_ctrl(rec_ctrl),
    .rec_hdr(rec_hdr),
    .cfg_valid(cfg_ok), .cfg_op(cfg_op), .cfg_index(cfg_index), .cfg_data(cfg_data), .busy(ddp_busy),
    .m_evt_tdata(m_evt_tdata), .m_evt_tkeep(m_evt_tkeep), .m_evt_tvalid(m_evt_tvalid), .m_evt_tready(m_evt_tready),
    // the token and descriptor FIFOs are never full (MAX_INFLIGHT tokens,
    // MAX_FPDUS descriptors; asserted below): E1 does not wait on them
    .tok_valid(tok_push), .tok_ready(1'b1), .tok_data(tok_in),
    .desc_valid(desc_push), .desc_ready(1'b1), .desc_data(desc_in)
);

assign m_plan_valid = desc_push;
assign m_plan_addr = desc_in[DESC_ADDR +: DESC_ADDR_W];
assign m_plan_len = desc_in[DESC_LEN +: DESC_LEN_W];
assign m_plan_frame_end = tok_push;

mpa_rx_fifo #(.WIDTH(TOK_W), .DEPTH(IQ_DEPTH)) tok_fifo (
    .clk(clk), .rst(rst),
    .s_axis_tdata(tok_in), .s_axis_tvalid(tok_push), .s_axis_tready(tok_in_ready),
    .m_axis_tdata(tok_head), .m_axis_tvalid(tok_valid), .m_axis_tready(tok_pop),
    .count(), .empty(), .full()
);
mpa_rx_fifo #(.WIDTH(DESC_W), .DEPTH(DESC_DEPTH)) desc_fifo (
    .clk(clk), .rst(rst),
    .s_axis_tdata(desc_in), .s_axis_tvalid(desc_push), .s_axis_tready(desc_in_ready),
    .m_axis_tdata(desc_head), .m_axis_tvalid(desc_valid), .m_axis_tready(desc_pop),
    .count(), .empty(), .full()
);

mpa_rx_place #(.DATA_WIDTH(DATA_WIDTH)) place (
    .clk(clk), .rst(rst),
    .tok_valid(tok_valid), .tok_ready(tok_pop), .tok_data(tok_head), .frame_done(e2_done),
    .desc_valid(desc_valid), .desc_ready(desc_pop), .desc_data(desc_head),
    .ff_data(ff_data), .ff_keep(ff_keep), .ff_valid(ff_valid), .ff_ready(ff_ready),
    .m_exc_axis_tdata(m_exc_axis_tdata), .m_exc_axis_tkeep(m_exc_axis_tkeep), .m_exc_axis_tvalid(m_exc_axis_tvalid),
    .m_exc_axis_tready(m_exc_axis_tready), .m_exc_axis_tlast(m_exc_axis_tlast), .m_exc_axis_tuser(m_exc_axis_tuser),
    .m_host_addr(m_host_addr), .m_host_data(m_host_data), .m_host_strb(m_host_strb), .m_host_valid(m_host_valid),
    .m_host_ready(m_host_ready)
);

wire unused = &{1'b0, rec_ulp, rec_first, rec_last, sum_ok, sum_nfpdu, ff_last, vq_in_ready, tok_in_ready,
                 desc_in_ready, cfg_index};

`ifdef VERILATOR
// Assertions (Verilator --assert; docs/robustness.md): the input contract;
// queues whose writer does not wait are never written full (verdicts;
// tokens and descriptors are sized never to fill; the other queues assert
// it in their modules); E1 takes each frame's walker records as the
// frame's first to last record (sum_nrec of them; with two event lanes E1
// takes the verdict queue's head with its VERDICT beat and its records
// after it, but the first, which it can take before: there the records of
// a frame are counted from its first to its last).
reg  [15:0] a_rec;      // records E1 took of the frame at the verdict queue's head
wire        a_take = rec_ready && rec_valid;
wire [15:0] a_nrec = vq_head[VQ_NREC +: VQ_NREC_W];
always @(posedge clk) begin
    if (a_take)
        a_rec <= a_rec + 16'd1;
    if (EVT_LANES == 1 ? vq_pop : a_take && rec_last)
        a_rec <= 16'd0;
    if (rst)
        a_rec <= 16'd0;
end
always @(posedge clk) begin
    if (!rst) begin
        // the input contract (docs/design.md section 4): tkeep all ones but
        // on the last beat, there contiguous from lane 0
        assert (!beat_ok || s_axis_tlast || &s_axis_tkeep)
            else $error("mpa_rx: s_axis_tkeep %h on a beat without tlast", s_axis_tkeep);
        assert (!beat_ok || (s_axis_tkeep[0] && (s_axis_tkeep & (s_axis_tkeep + 1'b1)) == {KEEP_WIDTH{1'b0}}))
            else $error("mpa_rx: s_axis_tkeep %h not contiguous from lane 0", s_axis_tkeep);
        assert (!vq_push || vq_in_ready) else $error("mpa_rx: verdict FIFO written when full");
        assert (!tok_push || tok_in_ready) else $error("mpa_rx: token FIFO full");
        assert (!desc_push || desc_in_ready) else $error("mpa_rx: descriptor FIFO written when full");
        assert (!a_take || rec_first == (a_rec == 16'd0))
            else $error("mpa_rx: record %0d of a frame has first=%b", a_rec, rec_first);
        assert (EVT_LANES != 1 || !(a_take && rec_last) || a_rec + 16'd1 == a_nrec)
            else $error("mpa_rx: last record of a frame is number %0d of %0d", a_rec + 16'd1, a_nrec);
        assert (!cfg_ok || !ddp_busy) else $error("mpa_rx: configuration write while busy");
    end
end
`endif

endmodule

`resetall
