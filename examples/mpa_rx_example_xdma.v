// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_example_xdma: how a board design takes the receiver (docs/axi.md,
 * "Integration"). A 10G MAC's receive stream (64-bit AXI4-Stream, FCS
 * stripped, tuser a bad FCS on the last beat) goes into mpa_rx_axi_top;
 * the core's AXI4 write master goes to the AXI slave of a PCIe DMA
 * bridge (the AXI bridge slave port of a Xilinx XDMA / QDMA, or the AXI
 * port of corundum's DMA), which turns its bursts into PCIe memory
 * writes into host memory; the bridge's AXI4-Lite master for the
 * register BAR reaches the core's register block in a 4 KiB window at
 * REG_BASE; the events and the exception frames go to two card-to-host
 * streams of the DMA engine (C2H channels), from which the driver reads
 * them.
 *
 * One clock for all: the MAC's stream is assumed already moved into the
 * bridge's AXI clock (an asynchronous AXI4-Stream FIFO in front, as a
 * MAC design has anyway). A register access outside the window answers
 * DECERR (an interconnect would decode it instead).
 *
 * Latency: mpa_rx_axi_top's, plus a cycle on the register window's
 * decode of the read address and write address (registered here).
 */
/* verilator lint_off PINCONNECTEMPTY */
module mpa_rx_example_xdma #(
    // where the 4 KiB register window sits in the BAR
    parameter [31:0] REG_BASE = 32'h0001_0000
) (
    input  wire         clk,
    input  wire         rst,

    // from the MAC (in clk's domain)
    input  wire [63:0]  s_axis_tdata,
    input  wire [7:0]   s_axis_tkeep,
    input  wire         s_axis_tvalid,
    output wire         s_axis_tready,
    input  wire         s_axis_tlast,
    input  wire         s_axis_tuser,

    // to the DMA bridge's AXI4 slave (host memory)
    output wire [3:0]   m_axi_awid,
    output wire [63:0]  m_axi_awaddr,
    output wire [7:0]   m_axi_awlen,
    output wire [2:0]   m_axi_awsize,
    output wire [1:0]   m_axi_awburst,
    output wire         m_axi_awlock,
    output wire [3:0]   m_axi_awcache,
    output wire [2:0]   m_axi_awprot,
    output wire         m_axi_awvalid,
    input  wire         m_axi_awready,
    output wire [63:0]  m_axi_wdata,
    output wire [7:0]   m_axi_wstrb,
    output wire         m_axi_wlast,
    output wire         m_axi_wvalid,
    input  wire         m_axi_wready,
    input  wire [3:0]   m_axi_bid,
    input  wire [1:0]   m_axi_bresp,
    input  wire         m_axi_bvalid,
    output wire         m_axi_bready,

    // from the DMA bridge's AXI4-Lite master (the register BAR)
    input  wire [31:0]  s_axil_awaddr,
    input  wire [2:0]   s_axil_awprot,
    input  wire         s_axil_awvalid,
    output wire         s_axil_awready,
    input  wire [31:0]  s_axil_wdata,
    input  wire [3:0]   s_axil_wstrb,
    input  wire         s_axil_wvalid,
    output wire         s_axil_wready,
    output wire [1:0]   s_axil_bresp,
    output wire         s_axil_bvalid,
    input  wire         s_axil_bready,
    input  wire [31:0]  s_axil_araddr,
    input  wire [2:0]   s_axil_arprot,
    input  wire         s_axil_arvalid,
    output wire         s_axil_arready,
    output wire [31:0]  s_axil_rdata,
    output wire [1:0]   s_axil_rresp,
    output wire         s_axil_rvalid,
    input  wire         s_axil_rready,

    // events to the DMA engine's card-to-host stream 0
    output wire [127:0] m_axis_c2h0_tdata,
    output wire [15:0]  m_axis_c2h0_tkeep,
    output wire         m_axis_c2h0_tvalid,
    input  wire         m_axis_c2h0_tready,
    output wire         m_axis_c2h0_tlast,

    // exception frames to the DMA engine's card-to-host stream 1 (tuser:
    // the reason, which the driver also has from the VERDICT event)
    output wire [63:0]  m_axis_c2h1_tdata,
    output wire [7:0]   m_axis_c2h1_tkeep,
    output wire         m_axis_c2h1_tvalid,
    input  wire         m_axis_c2h1_tready,
    output wire         m_axis_c2h1_tlast,
    output wire [3:0]   m_axis_c2h1_tuser
);

// ------------------------------------------------------------------ the register window
// A request inside [REG_BASE, REG_BASE + 4 KiB) goes to the core; one
// outside is answered DECERR here. Each request is registered, then
// handed over; one write and one read at a time (until its response).
localparam [1:0] DECERR = 2'b11;
reg         aw_v, aw_in, ar_v, ar_in, eb_v, er_v, w_busy, r_busy;
reg  [11:0] aw_a, ar_a;
reg  [2:0]  aw_p, ar_p;
reg  [31:0] w_d;
reg  [3:0]  w_s;
wire        core_awready, core_wready, core_bvalid, core_arready, core_rvalid;
wire [1:0]  core_bresp, core_rresp;
wire [31:0] core_rdata;
wire        aw_take = s_axil_awvalid && s_axil_wvalid && !w_busy;
wire        ar_take = s_axil_arvalid && !r_busy;
assign s_axil_awready = aw_take;
assign s_axil_wready = aw_take;
assign s_axil_arready = ar_take;
always @(posedge clk) begin
    if (s_axil_bvalid && s_axil_bready)
        w_busy <= 1'b0;
    if (s_axil_rvalid && s_axil_rready)
        r_busy <= 1'b0;
    if (aw_take) begin
        w_busy <= 1'b1;
        aw_v <= 1'b1;
        aw_in <= s_axil_awaddr[31:12] == REG_BASE[31:12];
        aw_a <= s_axil_awaddr[11:0];
        aw_p <= s_axil_awprot;
        w_d <= s_axil_wdata;
        w_s <= s_axil_wstrb;
    end else if (aw_v && (!aw_in || (core_awready && core_wready))) begin
        aw_v <= 1'b0;
        eb_v <= !aw_in;
    end
    if (eb_v && s_axil_bready)
        eb_v <= 1'b0;
    if (ar_take) begin
        r_busy <= 1'b1;
        ar_v <= 1'b1;
        ar_in <= s_axil_araddr[31:12] == REG_BASE[31:12];
        ar_a <= s_axil_araddr[11:0];
        ar_p <= s_axil_arprot;
    end else if (ar_v && (!ar_in || core_arready)) begin
        ar_v <= 1'b0;
        er_v <= !ar_in;
    end
    if (er_v && s_axil_rready)
        er_v <= 1'b0;
    if (rst) begin
        w_busy <= 1'b0;
        r_busy <= 1'b0;
        aw_v <= 1'b0;
        ar_v <= 1'b0;
        eb_v <= 1'b0;
        er_v <= 1'b0;
    end
end
assign s_axil_bvalid = eb_v || core_bvalid;
assign s_axil_bresp = eb_v ? DECERR : core_bresp;
assign s_axil_rvalid = er_v || core_rvalid;
assign s_axil_rresp = er_v ? DECERR : core_rresp;
assign s_axil_rdata = er_v ? 32'd0 : core_rdata;

// ------------------------------------------------------------------ the core
wire [127:0] evt_tdata;
wire [15:0]  evt_tkeep;
wire         evt_tvalid;
mpa_rx_axi_top #(
    .DATA_WIDTH(64), .CONN_COUNT(64), .MAX_FRAME(1518), .STAG_COUNT(256), .RQ_DEPTH(8),
    .AXI_ADDR_WIDTH(64), .AXI_ID_WIDTH(4), .AXI_MAX_BURSTS(16), .AXI_AWCACHE(4'b0011), .AXI_AWPROT(3'b000)
) core (
    .clk(clk), .rst(rst),
    .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep), .s_axis_tvalid(s_axis_tvalid),
    .s_axis_tready(s_axis_tready), .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
    .m_exc_axis_tdata(m_axis_c2h1_tdata), .m_exc_axis_tkeep(m_axis_c2h1_tkeep), .m_exc_axis_tvalid(m_axis_c2h1_tvalid),
    .m_exc_axis_tready(m_axis_c2h1_tready), .m_exc_axis_tlast(m_axis_c2h1_tlast), .m_exc_axis_tuser(m_axis_c2h1_tuser),
    .m_evt_tdata(evt_tdata), .m_evt_tkeep(evt_tkeep), .m_evt_tvalid(evt_tvalid), .m_evt_tready(m_axis_c2h0_tready),
    .m_axi_awid(m_axi_awid), .m_axi_awaddr(m_axi_awaddr), .m_axi_awlen(m_axi_awlen), .m_axi_awsize(m_axi_awsize),
    .m_axi_awburst(m_axi_awburst), .m_axi_awlock(m_axi_awlock), .m_axi_awcache(m_axi_awcache),
    .m_axi_awprot(m_axi_awprot), .m_axi_awvalid(m_axi_awvalid), .m_axi_awready(m_axi_awready),
    .m_axi_wdata(m_axi_wdata), .m_axi_wstrb(m_axi_wstrb), .m_axi_wlast(m_axi_wlast), .m_axi_wvalid(m_axi_wvalid),
    .m_axi_wready(m_axi_wready), .m_axi_bid(m_axi_bid), .m_axi_bresp(m_axi_bresp), .m_axi_bvalid(m_axi_bvalid),
    .m_axi_bready(m_axi_bready),
    .s_axil_awaddr(aw_a), .s_axil_awprot(aw_p), .s_axil_awvalid(aw_v && aw_in), .s_axil_awready(core_awready),
    .s_axil_wdata(w_d), .s_axil_wstrb(w_s), .s_axil_wvalid(aw_v && aw_in), .s_axil_wready(core_wready),
    .s_axil_bresp(core_bresp), .s_axil_bvalid(core_bvalid), .s_axil_bready(s_axil_bready && !eb_v),
    .s_axil_araddr(ar_a), .s_axil_arprot(ar_p), .s_axil_arvalid(ar_v && ar_in), .s_axil_arready(core_arready),
    .s_axil_rdata(core_rdata), .s_axil_rresp(core_rresp), .s_axil_rvalid(core_rvalid),
    .s_axil_rready(s_axil_rready && !er_v)
);
// one event per C2H beat, each its own packet
assign m_axis_c2h0_tdata = evt_tdata;
assign m_axis_c2h0_tkeep = evt_tkeep;
assign m_axis_c2h0_tvalid = evt_tvalid;
assign m_axis_c2h0_tlast = 1'b1;

endmodule

`resetall
