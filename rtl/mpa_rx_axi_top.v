// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_axi_top: the receiver as an IP core (docs/axi.md). mpa_rx takes
 * Ethernet frames on s_axis and gives exception frames on m_exc_axis as
 * it does alone; around it:
 *
 * - mpa_rx_axi_wr, the AXI4 write master to host memory (m_axi_*): INCR
 *   bursts planned from mpa_rx's placement descriptors (m_plan_*: a plan
 *   queue of AXI_PLAN_DEPTH entries, a descriptor each, the frame's end as
 *   its flush), carrying mpa_rx's host writes;
 * - mpa_rx_axi_gate, the completion gate: an event beat leaves on m_evt
 *   only once every host write of its FPDU and of everything before it has
 *   its B response; a SLVERR or DECERR response sets the host write fault,
 *   after which PLACED and DELIVERED leave as DDP_ERROR kind 13;
 * - mpa_rx_axil_regs, the AXI4-Lite control block (s_axil_*, the register
 *   map of docs/regmap.md): identification, build parameters, the
 *   configuration of contexts, STags and receive buffers (mpa_rx's cfg_*),
 *   the event counters (of the events as they leave m_evt, and of the
 *   master's bursts, beats and errors) and HOST_FAULT.
 *
 * Latency: mpa_rx's (docs/design.md section 5); a host write taken from
 * mpa_rx in cycle t that completes its beat is on W from t + 1 when the
 * burst's AW is planned (mpa_rx_axi_wr, docs/axi.md); an event beat
 * leaves m_evt four cycles after mpa_rx emits it at the earliest, and two
 * cycles after the last B response of its descriptors (mpa_rx_axi_gate).
 * A CFG_CMD write's response comes once mpa_rx took the word.
 */
/* verilator lint_off PINCONNECTEMPTY */
module mpa_rx_axi_top #(
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // mpa_rx's parameters (rtl/mpa_rx.v)
    parameter CONN_COUNT = 16,
    parameter MAX_FRAME = 1518,
    parameter FIFO_DEPTH = 1 << $clog2(2 * ((MAX_FRAME + KEEP_WIDTH - 1) / KEEP_WIDTH)),
    parameter WINDOW = 32'h0010_0000,
    parameter STAG_COUNT = 64,
    parameter RQ_DEPTH = 4,
    parameter MAX_FPDUS = FIFO_DEPTH * KEEP_WIDTH / 20 + 16,
    parameter EVT_LANES = DATA_WIDTH >= 256 ? 2 : 1,
    parameter MAX_INFLIGHT = DATA_WIDTH >= 512 ? 24 : 14,
    // the AXI4 host-memory master (mpa_rx_axi_wr)
    parameter AXI_ADDR_WIDTH = 64,
    parameter AXI_ID_WIDTH = 4,
    parameter AXI_MAX_BURSTS = 16,
    parameter [3:0] AXI_AWCACHE = 4'b0011,
    parameter [2:0] AXI_AWPROT = 3'b010,
    // plan queue entries: every descriptor mpa_rx's descriptor FIFO holds,
    // the one E2 writes, and a flush per frame in flight
    parameter AXI_PLAN_DEPTH = 1 << $clog2(MAX_FPDUS + MAX_INFLIGHT + 2),
    // completion gate beats: every beat of one frame (FPDUs are at least
    // 20 octets; two events per FPDU and two per frame, two per beat with
    // two lanes) and 64 more for the B latency
    parameter GATE_DEPTH = 1 << $clog2((EVT_LANES == 1 ? 2 * (MAX_FRAME / 20 + 1) + 2 : MAX_FRAME / 20 + 2) + 64),
    // bits kept of each event counter
    parameter COUNTER_WIDTH = 64
) (
    input  wire                      clk,
    input  wire                      rst,

    // frames from the MAC (no FCS; tuser on the last beat: bad FCS)
    input  wire [DATA_WIDTH-1:0]     s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0]     s_axis_tkeep,
    input  wire                      s_axis_tvalid,
    output wire                      s_axis_tready,
    input  wire                      s_axis_tlast,
    input  wire                      s_axis_tuser,

    // exception frames to software (tuser: the reason)
    output wire [DATA_WIDTH-1:0]     m_exc_axis_tdata,
    output wire [KEEP_WIDTH-1:0]     m_exc_axis_tkeep,
    output wire                      m_exc_axis_tvalid,
    input  wire                      m_exc_axis_tready,
    output wire                      m_exc_axis_tlast,
    output wire [3:0]                m_exc_axis_tuser,

    // events to software
    output wire [EVT_LANES*128-1:0]  m_evt_tdata,
    output wire [EVT_LANES*16-1:0]   m_evt_tkeep,
    output wire                      m_evt_tvalid,
    input  wire                      m_evt_tready,

    // AXI4 write master to host memory
    output wire [AXI_ID_WIDTH-1:0]   m_axi_awid,
    output wire [AXI_ADDR_WIDTH-1:0] m_axi_awaddr,
    output wire [7:0]                m_axi_awlen,
    output wire [2:0]                m_axi_awsize,
    output wire [1:0]                m_axi_awburst,
    output wire                      m_axi_awlock,
    output wire [3:0]                m_axi_awcache,
    output wire [2:0]                m_axi_awprot,
    output wire                      m_axi_awvalid,
    input  wire                      m_axi_awready,
    output wire [DATA_WIDTH-1:0]     m_axi_wdata,
    output wire [KEEP_WIDTH-1:0]     m_axi_wstrb,
    output wire                      m_axi_wlast,
    output wire                      m_axi_wvalid,
    input  wire                      m_axi_wready,
    input  wire [AXI_ID_WIDTH-1:0]   m_axi_bid,
    input  wire [1:0]                m_axi_bresp,
    input  wire                      m_axi_bvalid,
    output wire                      m_axi_bready,

    // AXI4-Lite control (a 4 KiB window)
    input  wire [11:0]               s_axil_awaddr,
    input  wire [2:0]                s_axil_awprot,
    input  wire                      s_axil_awvalid,
    output wire                      s_axil_awready,
    input  wire [31:0]               s_axil_wdata,
    input  wire [3:0]                s_axil_wstrb,
    input  wire                      s_axil_wvalid,
    output wire                      s_axil_wready,
    output wire [1:0]                s_axil_bresp,
    output wire                      s_axil_bvalid,
    input  wire                      s_axil_bready,
    input  wire [11:0]               s_axil_araddr,
    input  wire [2:0]                s_axil_arprot,
    input  wire                      s_axil_arvalid,
    output wire                      s_axil_arready,
    output wire [31:0]               s_axil_rdata,
    output wire [1:0]                s_axil_rresp,
    output wire                      s_axil_rvalid,
    input  wire                      s_axil_rready
);

// ------------------------------------------------------------------ the receiver
wire [EVT_LANES*128-1:0] rx_evt_tdata;
wire [EVT_LANES*16-1:0]  rx_evt_tkeep;
wire                     rx_evt_tvalid, rx_evt_tready;
wire [63:0]              host_addr;
wire [DATA_WIDTH-1:0]    host_data;
wire [KEEP_WIDTH-1:0]    host_strb;
wire                     host_valid, host_ready;
wire                     plan_valid, plan_frame_end;
wire [63:0]              plan_addr;
wire [15:0]              plan_len;
wire                     cfg_valid, cfg_ready;
wire [2:0]               cfg_op;
wire [15:0]              cfg_index;
wire [383:0]             cfg_data;
mpa_rx #(
    .DATA_WIDTH(DATA_WIDTH), .CONN_COUNT(CONN_COUNT), .MAX_FRAME(MAX_FRAME), .FIFO_DEPTH(FIFO_DEPTH),
    .WINDOW(WINDOW), .STAG_COUNT(STAG_COUNT), .RQ_DEPTH(RQ_DEPTH), .MAX_FPDUS(MAX_FPDUS),
    .EVT_LANES(EVT_LANES), .MAX_INFLIGHT(MAX_INFLIGHT)
) rx (
    .clk(clk), .rst(rst),
    .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep), .s_axis_tvalid(s_axis_tvalid),
    .s_axis_tready(s_axis_tready), .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
    .m_exc_axis_tdata(m_exc_axis_tdata), .m_exc_axis_tkeep(m_exc_axis_tkeep), .m_exc_axis_tvalid(m_exc_axis_tvalid),
    .m_exc_axis_tready(m_exc_axis_tready), .m_exc_axis_tlast(m_exc_axis_tlast), .m_exc_axis_tuser(m_exc_axis_tuser),
    .m_evt_tdata(rx_evt_tdata), .m_evt_tkeep(rx_evt_tkeep), .m_evt_tvalid(rx_evt_tvalid), .m_evt_tready(rx_evt_tready),
    .m_host_addr(host_addr), .m_host_data(host_data), .m_host_strb(host_strb), .m_host_valid(host_valid),
    .m_host_ready(host_ready),
    .m_plan_valid(plan_valid), .m_plan_addr(plan_addr), .m_plan_len(plan_len), .m_plan_frame_end(plan_frame_end),
    .cfg_valid(cfg_valid), .cfg_ready(cfg_ready), .cfg_op(cfg_op), .cfg_index(cfg_index), .cfg_data(cfg_data)
);

// ------------------------------------------------------------------ the plan queue
// One entry per descriptor, its flush set when its frame ends with it; a
// flush entry (length 0) when a frame that gave descriptors ends after
// its last one.
reg  open;                      // descriptors given since the last flush
wire pq_push = plan_valid || (plan_frame_end && open);
wire pq_in_ready;
wire [AXI_ADDR_WIDTH+16:0] pq_in = {plan_frame_end, plan_valid ? plan_len : 16'd0,
                                    plan_valid ? plan_addr[AXI_ADDR_WIDTH-1:0] : {AXI_ADDR_WIDTH{1'b0}}};
always @(posedge clk) begin
    if (plan_valid)
        open <= 1'b1;
    if (plan_frame_end)
        open <= 1'b0;
    if (rst)
        open <= 1'b0;
end
wire [AXI_ADDR_WIDTH+16:0] pq_head;
wire pq_valid, pq_ready;
mpa_rx_fifo #(.WIDTH(AXI_ADDR_WIDTH + 17), .DEPTH(AXI_PLAN_DEPTH)) plan_fifo (
    .clk(clk), .rst(rst),
    .s_axis_tdata(pq_in), .s_axis_tvalid(pq_push), .s_axis_tready(pq_in_ready),
    .m_axis_tdata(pq_head), .m_axis_tvalid(pq_valid), .m_axis_tready(pq_ready),
    .count(), .empty(), .full()
);

// ------------------------------------------------------------------ the AXI4 master
wire [15:0] cpl_count, cpl_err_first, cpl_err_last;
wire        cpl_err_valid, b_unexpected;
wire [1:0]  cpl_err_resp;
mpa_rx_axi_wr #(
    .DATA_WIDTH(DATA_WIDTH), .ADDR_WIDTH(AXI_ADDR_WIDTH), .ID_WIDTH(AXI_ID_WIDTH), .MAX_BURSTS(AXI_MAX_BURSTS),
    .AWCACHE(AXI_AWCACHE), .AWPROT(AXI_AWPROT)
) wr (
    .clk(clk), .rst(rst),
    .s_desc_addr(pq_head[AXI_ADDR_WIDTH-1:0]), .s_desc_len(pq_head[AXI_ADDR_WIDTH +: 16]),
    .s_desc_flush(pq_head[AXI_ADDR_WIDTH+16]), .s_desc_valid(pq_valid), .s_desc_ready(pq_ready),
    .s_wr_addr(host_addr[AXI_ADDR_WIDTH-1:0]), .s_wr_data(host_data), .s_wr_strb(host_strb),
    .s_wr_valid(host_valid), .s_wr_ready(host_ready),
    .m_axi_awid(m_axi_awid), .m_axi_awaddr(m_axi_awaddr), .m_axi_awlen(m_axi_awlen), .m_axi_awsize(m_axi_awsize),
    .m_axi_awburst(m_axi_awburst), .m_axi_awlock(m_axi_awlock), .m_axi_awcache(m_axi_awcache),
    .m_axi_awprot(m_axi_awprot), .m_axi_awvalid(m_axi_awvalid), .m_axi_awready(m_axi_awready),
    .m_axi_wdata(m_axi_wdata), .m_axi_wstrb(m_axi_wstrb), .m_axi_wlast(m_axi_wlast), .m_axi_wvalid(m_axi_wvalid),
    .m_axi_wready(m_axi_wready),
    .m_axi_bid(m_axi_bid), .m_axi_bresp(m_axi_bresp), .m_axi_bvalid(m_axi_bvalid), .m_axi_bready(m_axi_bready),
    .cpl_count(cpl_count), .cpl_err_valid(cpl_err_valid), .cpl_err_resp(cpl_err_resp),
    .cpl_err_first(cpl_err_first), .cpl_err_last(cpl_err_last), .b_unexpected(b_unexpected)
);

// ------------------------------------------------------------------ the completion gate
wire       fault, fault_clear;
wire [1:0] fault_resp;
mpa_rx_axi_gate #(.EVT_LANES(EVT_LANES), .DEPTH(GATE_DEPTH)) gate (
    .clk(clk), .rst(rst),
    .s_evt_tdata(rx_evt_tdata), .s_evt_tkeep(rx_evt_tkeep), .s_evt_tvalid(rx_evt_tvalid), .s_evt_tready(rx_evt_tready),
    .plan_push(plan_valid),
    .cpl_count(cpl_count), .cpl_err_valid(cpl_err_valid), .cpl_err_resp(cpl_err_resp), .cpl_err_first(cpl_err_first),
    .m_evt_tdata(m_evt_tdata), .m_evt_tkeep(m_evt_tkeep), .m_evt_tvalid(m_evt_tvalid), .m_evt_tready(m_evt_tready),
    .fault(fault), .fault_resp(fault_resp), .fault_clear(fault_clear)
);

// ------------------------------------------------------------------ the AXI4-Lite block
mpa_rx_axil_regs #(
    .DATA_WIDTH(DATA_WIDTH), .CONN_COUNT(CONN_COUNT), .STAG_COUNT(STAG_COUNT), .RQ_DEPTH(RQ_DEPTH),
    .MAX_FRAME(MAX_FRAME), .FIFO_DEPTH(FIFO_DEPTH), .MAX_INFLIGHT(MAX_INFLIGHT), .WINDOW(WINDOW),
    .AXI_ID_WIDTH(AXI_ID_WIDTH), .AXI_MAX_BURSTS(AXI_MAX_BURSTS), .EVT_LANES(EVT_LANES),
    .COUNTER_WIDTH(COUNTER_WIDTH)
) regs (
    .clk(clk), .rst(rst),
    .s_axil_awaddr(s_axil_awaddr), .s_axil_awprot(s_axil_awprot), .s_axil_awvalid(s_axil_awvalid),
    .s_axil_awready(s_axil_awready), .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb),
    .s_axil_wvalid(s_axil_wvalid), .s_axil_wready(s_axil_wready), .s_axil_bresp(s_axil_bresp),
    .s_axil_bvalid(s_axil_bvalid), .s_axil_bready(s_axil_bready), .s_axil_araddr(s_axil_araddr),
    .s_axil_arprot(s_axil_arprot), .s_axil_arvalid(s_axil_arvalid), .s_axil_arready(s_axil_arready),
    .s_axil_rdata(s_axil_rdata), .s_axil_rresp(s_axil_rresp), .s_axil_rvalid(s_axil_rvalid),
    .s_axil_rready(s_axil_rready),
    .cfg_valid(cfg_valid), .cfg_ready(cfg_ready), .cfg_op(cfg_op), .cfg_index(cfg_index), .cfg_data(cfg_data),
    .evt_tdata(m_evt_tdata), .evt_tkeep(m_evt_tkeep), .evt_valid(m_evt_tvalid && m_evt_tready),
    .host_aw(m_axi_awvalid && m_axi_awready), .host_w(m_axi_wvalid && m_axi_wready),
    .host_err_valid(cpl_err_valid), .host_err_resp(cpl_err_resp), .host_b_unexpected(b_unexpected),
    .host_fault(fault), .host_fault_resp(fault_resp), .host_fault_clear(fault_clear)
);

wire unused = &{1'b0, cpl_err_last, host_addr[63:AXI_ADDR_WIDTH-1], plan_addr[63:AXI_ADDR_WIDTH-1]};

`ifdef VERILATOR
// Assertions (Verilator --assert): the plan queue is never written full
// (it holds as many descriptors as mpa_rx's descriptor FIFO).
always @(posedge clk)
    if (!rst)
        assert (!pq_push || pq_in_ready) else $error("mpa_rx_axi_top: plan queue written when full");
`endif

endmodule

`resetall
