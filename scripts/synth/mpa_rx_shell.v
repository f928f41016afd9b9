// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_shell: place-and-route shell for mpa_rx (synthesis measurements
 * only, not part of the design). mpa_rx has about 900 port bits at 64 bits, more
 * than an iCE40 package has pins, so, as in crc32c_shell:
 *   - every input of mpa_rx (s_axis, the ready inputs, cfg_*) comes from a
 *     flip-flop of one shift register fed by the pin si (a flip-flop whose
 *     output mpa_rx does not use is removed by Yosys, so the chain costs one
 *     flip-flop per input bit mpa_rx reads);
 *   - every output is folded into the pin so by a registered XOR tree of
 *     4-input stages (one LUT level between registers), so that no output
 *     bit can be optimised away and the fold adds no long path.
 * All mpa_rx paths are then register to register, as inside a larger design.
 * The cost of the shell (flip-flops and LUTs) is measured by `make synth`
 * separately (mpa_rx as a black box) and listed in docs/synth.md.
 * Only DATA_WIDTH is a parameter here; the other mpa_rx parameters are set
 * on mpa_rx itself (Yosys chparam), which this instance then inherits.
 * Latency: not meaningful.
 */
module mpa_rx_shell #(
    parameter DATA_WIDTH = 64
) (
    input  wire clk,
    input  wire rst,
    input  wire si,
    output wire so
);

localparam KEEP_WIDTH = DATA_WIDTH / 8;
localparam EVT_LANES = DATA_WIDTH >= 256 ? 2 : 1;   // mpa_rx's default
// s_axis data, keep, valid, last, user; m_exc, m_evt and m_host ready; cfg
// valid, op, index, data
localparam IN_BITS = DATA_WIDTH + KEEP_WIDTH + 3 + 3 + 1 + 3 + 16 + 384;
// s_axis ready; m_exc data, keep, valid, last, user; m_evt data, keep,
// valid; m_host addr, data, strb, valid; cfg ready; m_plan valid, addr,
// len, frame_end
localparam OUT_BITS = 1 + DATA_WIDTH + KEEP_WIDTH + 2 + 4 + EVT_LANES * 144 + 1 + 64 + DATA_WIDTH + KEEP_WIDTH + 1 + 1 +
                      1 + 64 + 16 + 1;
localparam N1 = (OUT_BITS + 3) / 4;     // first fold stage
localparam N2 = (N1 + 3) / 4;           // second fold stage

reg [IN_BITS-1:0] in_reg = 0;

always @(posedge clk) begin
    in_reg <= {in_reg[IN_BITS-2:0], si};
end

wire [DATA_WIDTH-1:0] s_tdata = in_reg[DATA_WIDTH-1:0];
wire [KEEP_WIDTH-1:0] s_tkeep = in_reg[DATA_WIDTH +: KEEP_WIDTH];
localparam B = DATA_WIDTH + KEEP_WIDTH;
wire s_tvalid = in_reg[B];
wire s_tlast = in_reg[B + 1];
wire s_tuser = in_reg[B + 2];
wire exc_tready = in_reg[B + 3];
wire evt_tready = in_reg[B + 4];
wire host_ready = in_reg[B + 5];
wire cfg_valid = in_reg[B + 6];
wire [2:0] cfg_op = in_reg[B + 7 +: 3];
wire [15:0] cfg_index = in_reg[B + 10 +: 16];
wire [383:0] cfg_data = in_reg[B + 26 +: 384];

wire s_tready;
wire [DATA_WIDTH-1:0] exc_tdata;
wire [KEEP_WIDTH-1:0] exc_tkeep;
wire exc_tvalid, exc_tlast;
wire [3:0] exc_tuser;
wire [EVT_LANES*128-1:0] evt_tdata;
wire [EVT_LANES*16-1:0] evt_tkeep;
wire evt_tvalid;
wire [63:0] host_addr;
wire [DATA_WIDTH-1:0] host_data;
wire [KEEP_WIDTH-1:0] host_strb;
wire host_valid;
wire cfg_ready;
wire plan_valid, plan_frame_end;
wire [63:0] plan_addr;
wire [15:0] plan_len;

mpa_rx #(
    .DATA_WIDTH(DATA_WIDTH)
) dut (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(s_tdata),
    .s_axis_tkeep(s_tkeep),
    .s_axis_tvalid(s_tvalid),
    .s_axis_tready(s_tready),
    .s_axis_tlast(s_tlast),
    .s_axis_tuser(s_tuser),
    .m_exc_axis_tdata(exc_tdata),
    .m_exc_axis_tkeep(exc_tkeep),
    .m_exc_axis_tvalid(exc_tvalid),
    .m_exc_axis_tready(exc_tready),
    .m_exc_axis_tlast(exc_tlast),
    .m_exc_axis_tuser(exc_tuser),
    .m_evt_tdata(evt_tdata),
    .m_evt_tkeep(evt_tkeep),
    .m_evt_tvalid(evt_tvalid),
    .m_evt_tready(evt_tready),
    .m_host_addr(host_addr),
    .m_host_data(host_data),
    .m_host_strb(host_strb),
    .m_host_valid(host_valid),
    .m_host_ready(host_ready),
    .m_plan_valid(plan_valid),
    .m_plan_addr(plan_addr),
    .m_plan_len(plan_len),
    .m_plan_frame_end(plan_frame_end),
    .cfg_valid(cfg_valid),
    .cfg_ready(cfg_ready),
    .cfg_op(cfg_op),
    .cfg_index(cfg_index),
    .cfg_data(cfg_data)
);

wire [4*N1-1:0] outs = {{(4*N1 - OUT_BITS){1'b0}}, s_tready, exc_tdata, exc_tkeep, exc_tvalid, exc_tlast,
                        exc_tuser, evt_tdata, evt_tkeep, evt_tvalid, host_addr, host_data, host_strb, host_valid,
                        cfg_ready, plan_valid, plan_addr, plan_len, plan_frame_end};
reg [4*N2-1:0] fold1 = 0;
reg [N2-1:0] fold2 = 0;
reg so_reg = 1'b0;

integer i;
always @(posedge clk) begin
    for (i = 0; i < N1; i = i + 1)
        fold1[i] <= ^outs[4*i +: 4];
    for (i = 0; i < N2; i = i + 1)
        fold2[i] <= ^fold1[4*i +: 4];
    so_reg <= ^fold2;
end

assign so = so_reg;

endmodule

`resetall
