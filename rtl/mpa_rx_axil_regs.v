// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_axil_regs: the receiver's AXI4-Lite control block (32-bit data,
 * 12-bit addresses), with the register map of docs/regmap.md, whose
 * constants are generated into mpa_rx_regs.vh from driver/regmap:
 * identification, the build parameters, the staging registers of a
 * configuration word with a command register that sends it on cfg_*, and
 * 64-bit event counters fed from the event stream the receiver emits
 * (evt_*: each beat taken, with its lanes' tkeep) and from the AXI4
 * host-memory master (host_*: AW and W handshakes, error responses,
 * unexpected responses); HOST_FAULT reads the completion gate's host write
 * fault and clears it (host_fault_clear, a cycle after the write).
 *
 * Writes: the address and the data are taken together, in the cycle both
 * are valid and no write response or command is pending; the response
 * follows one cycle later, but for a CFG_CMD write that sends a word: its
 * response comes the cycle after cfg_valid && cfg_ready (the staging
 * registers are then zero). Unmapped offsets and writes to read-only
 * registers answer SLVERR. Reads: one at a time; the data follows the
 * address by one cycle. Reading a counter's low word latches its high word
 * for the next high-word read.
 *
 * Counters: an event beat or host pulse is registered, decoded into
 * increments (registered), then added: a counter moves three cycles after
 * its event. CNT_CTRL[0] clears them all.
 */
module mpa_rx_axil_regs #(
    // build parameters read back (docs/regmap.md)
    parameter DATA_WIDTH = 64,
    parameter CONN_COUNT = 16,
    parameter STAG_COUNT = 64,
    parameter RQ_DEPTH = 4,
    parameter MAX_FRAME = 1518,
    parameter FIFO_DEPTH = 512,
    parameter MAX_INFLIGHT = 14,
    parameter WINDOW = 32'h0010_0000,
    parameter AXI_ID_WIDTH = 4,
    parameter AXI_MAX_BURSTS = 16,
    // 128-bit event lanes of the event stream (1 or 2)
    parameter EVT_LANES = 1,
    // bits kept of each 64-bit counter (32 to 64)
    parameter COUNTER_WIDTH = 64
) (
    input  wire                      clk,
    input  wire                      rst,

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
    input  wire                      s_axil_rready,

    // the receiver's configuration port
    output wire                      cfg_valid,
    input  wire                      cfg_ready,
    output wire [2:0]                cfg_op,
    output wire [15:0]               cfg_index,
    output wire [383:0]              cfg_data,

    // the event stream's beats as the receiver hands them over
    input  wire [EVT_LANES*128-1:0]  evt_tdata,
    input  wire [EVT_LANES*16-1:0]   evt_tkeep,
    input  wire                      evt_valid,    // tvalid && tready

    // the AXI4 host-memory master
    input  wire                      host_aw,      // an AW handshake
    input  wire                      host_w,       // a W handshake
    input  wire                      host_err_valid,
    input  wire [1:0]                host_err_resp,
    input  wire                      host_b_unexpected,

    // the host write fault (mpa_rx_axi_gate): its state, and a write of 1
    // to HOST_FAULT[0] (a one-cycle pulse)
    input  wire                      host_fault,
    input  wire [1:0]                host_fault_resp,
    output wire                      host_fault_clear
);

`include "mpa_rx_regs.vh"

// ------------------------------------------------------------------ guards
generate
if (!(EVT_LANES == 1 || EVT_LANES == 2)) begin : g_bad_evt_lanes
`ifndef SYNTHESIS
    initial begin
        $error("mpa_rx_axil_regs: EVT_LANES %0d is not supported (1 or 2)", EVT_LANES);
        $finish;
    end
`endif
    // elaboration stops here in every tool: this module does not exist
    mpa_rx_axil_regs_EVT_LANES_must_be_1_or_2 param_error ();
end
if (!(COUNTER_WIDTH >= 32 && COUNTER_WIDTH <= 64)) begin : g_bad_counter_width
`ifndef SYNTHESIS
    initial begin
        $error("mpa_rx_axil_regs: COUNTER_WIDTH %0d is not supported (32 to 64)", COUNTER_WIDTH);
        $finish;
    end
`endif
    mpa_rx_axil_regs_COUNTER_WIDTH_must_be_32_to_64 param_error ();
end
endgenerate

localparam CW = COUNTER_WIDTH;
localparam [1:0] OKAY = 2'b00, SLVERR = 2'b10;

// ------------------------------------------------------------------ writes
reg          bv;            // a write response is presented
reg  [1:0]   bresp;
reg          cmd;           // a configuration word is presented on cfg_*
reg  [2:0]   op;
reg  [15:0]  index;
reg  [383:0] stage;
reg  [15:0]  sent;          // words sent
reg          clear;         // clear the counters (next cycle)
reg          fclear;        // clear the host write fault

wire         wr = s_axil_awvalid && s_axil_wvalid && !bv && !cmd;
assign s_axil_awready = wr;
assign s_axil_wready = wr;
assign s_axil_bvalid = bv;
assign s_axil_bresp = bresp;
wire         sent_now = cmd && cfg_ready;

// the CFG_DATA words, as word addresses
localparam [9:0] CD_FIRST = REG_CFG_DATA[11:2];
localparam [9:0] CD_END = REG_CFG_DATA[11:2] + CFG_DATA_WORDS[9:0];
wire [9:0]   wa = s_axil_awaddr[11:2];
wire         w_data = wa >= CD_FIRST && wa < CD_END;
wire [3:0]   w_dw = wa[3:0] - REG_CFG_DATA[5:2];     // the CFG_DATA word written
wire         w_cmd = wa == REG_CFG_CMD[11:2];
wire         w_go = w_cmd && s_axil_wstrb[0] && {29'd0, s_axil_wdata[2:0]} < CFG_OPS;
wire         w_ok = w_data || w_cmd || wa == REG_CFG_INDEX[11:2] || wa == REG_CNT_CTRL[11:2] ||
                    wa == REG_HOST_FAULT[11:2];

// a strobed merge of the write data into a 32-bit register
function [31:0] merge;
    input [31:0] old;
    input [31:0] d;
    input [3:0]  s;
    integer b;
    begin
        for (b = 0; b < 4; b = b + 1)
            merge[8*b +: 8] = s[b] ? d[8*b +: 8] : old[8*b +: 8];
    end
endfunction

wire [31:0]  idx_w = merge({16'd0, index}, s_axil_wdata, s_axil_wstrb);
integer j;
always @(posedge clk) begin
    clear <= 1'b0;
    fclear <= 1'b0;
    if (bv && s_axil_bready)
        bv <= 1'b0;
    if (wr) begin
        if (w_data)
            for (j = 0; j < CFG_DATA_WORDS; j = j + 1)
                if ({28'd0, w_dw} == j)
                    stage[32*j +: 32] <= merge(stage[32*j +: 32], s_axil_wdata, s_axil_wstrb);
        if (wa == REG_CFG_INDEX[11:2])
            index <= idx_w[15:0];
        if (wa == REG_CNT_CTRL[11:2])
            clear <= s_axil_wstrb[0] && s_axil_wdata[0];
        if (wa == REG_HOST_FAULT[11:2])
            fclear <= s_axil_wstrb[0] && s_axil_wdata[0];
        if (w_go) begin
            cmd <= 1'b1;
            op <= s_axil_wdata[2:0];
        end else begin
            bv <= 1'b1;
            bresp <= w_ok && !(w_cmd && s_axil_wstrb[0]) ? OKAY : SLVERR;
        end
    end
    if (sent_now) begin
        cmd <= 1'b0;
        bv <= 1'b1;
        bresp <= OKAY;
        stage <= 384'd0;
        sent <= sent + 16'd1;
    end
    if (rst) begin
        bv <= 1'b0;
        cmd <= 1'b0;
        op <= 3'd0;
        index <= 16'd0;
        stage <= 384'd0;
        sent <= 16'd0;
        clear <= 1'b0;
        fclear <= 1'b0;
    end
end
assign host_fault_clear = fclear;
assign cfg_valid = cmd;
assign cfg_op = op;
assign cfg_index = index;
assign cfg_data = stage;

// ------------------------------------------------------------------ counters
// stage 1: the event beat and the host pulses registered
reg                      e_v;
reg  [EVT_LANES*128-1:0] e_d;
reg  [EVT_LANES*16-1:0]  e_k;
reg                      h_aw, h_w, h_err, h_unexp;
reg  [1:0]               h_resp;
// the payload octets of each lane's PLACED event (ULPDU length less the DDP
// header), 0 for any other lane: taken here so that stage 2 only adds lanes
reg  [EVT_LANES*17-1:0]  e_oct_n, e_oct;
integer ol;
always @* begin
    e_oct_n = {EVT_LANES*17{1'b0}};
    for (ol = 0; ol < EVT_LANES; ol = ol + 1) begin : oct_lanes
        reg [15:0] ulen, hlen;
        ulen = evt_tdata[128*ol + 32 +: 16];
        hlen = evt_tdata[128*ol + 31] ? 16'd14 : 16'd18;
        if (evt_valid && &evt_tkeep[16*ol +: 16] && evt_tdata[128*ol + 124 +: 4] == 4'd1 && ulen > hlen)
            e_oct_n[17*ol +: 17] = {1'b0, ulen - hlen};
    end
end
always @(posedge clk) begin
    e_v <= evt_valid;
    e_d <= evt_tdata;
    e_k <= evt_tkeep;
    e_oct <= e_oct_n;
    h_aw <= host_aw;
    h_w <= host_w;
    h_err <= host_err_valid;
    h_resp <= host_err_resp;
    h_unexp <= host_b_unexpected;
    if (rst) begin
        e_v <= 1'b0;
        e_oct <= {EVT_LANES*17{1'b0}};
        h_aw <= 1'b0;
        h_w <= 1'b0;
        h_err <= 1'b0;
        h_unexp <= 1'b0;
    end
end

// stage 2: each counter's increment (at most one per lane), and the
// payload octets of the beat's PLACED events
reg  [2*CNT_N-1:0] inc_n;
reg  [17:0]        oct_n;
integer l, c;
always @* begin
    inc_n = {2*CNT_N{1'b0}};
    oct_n = 18'd0;
    for (l = 0; l < EVT_LANES; l = l + 1) begin : lanes
        reg        on;
        reg [3:0]  kind, reason;
        reg [1:0]  code;
        on = e_v && &e_k[16*l +: 16];
        kind = e_d[128*l + 124 +: 4];
        code = e_d[128*l + 28 +: 2];
        reason = e_d[128*l + 24 +: 4];
        for (c = 0; c < CNT_N; c = c + 1) begin
            if (on && (
                    // each event field against this counter's constant
                    // (no adder on the field)
                    (kind == 4'd7 && c >= CNT_FRAMES_PLACE && c < CNT_FRAMES_PLACE + 4 &&
                     {30'd0, code} == c - CNT_FRAMES_PLACE) ||
                    (kind == 4'd7 && code == 2'd1 && c >= CNT_EXC_NOT_TCP && c < CNT_EXC_NOT_TCP + 9 &&
                     {28'd0, reason} == c - CNT_EXC_NOT_TCP + 1) ||
                    (kind == 4'd4 && c >= CNT_DROP_FCS && c < CNT_DROP_FCS + 4 &&
                     {30'd0, code} == c - CNT_DROP_FCS) ||
                    (kind == 4'd1 && c == CNT_FPDUS_PLACED) ||
                    (kind == 4'd3 && c == CNT_FPDUS_DELIVERED) ||
                    (kind == 4'd2 && c == CNT_DDP_ERRORS)))
                inc_n[2*c +: 2] = inc_n[2*c +: 2] + 2'd1;
        end
        oct_n = oct_n + {1'b0, e_oct[17*l +: 17]};
    end
    inc_n[2*CNT_HOST_BURSTS +: 2] = {1'b0, h_aw};
    inc_n[2*CNT_HOST_BEATS +: 2] = {1'b0, h_w};
    inc_n[2*CNT_HOST_SLVERR +: 2] = {1'b0, h_err && h_resp == 2'b10};
    inc_n[2*CNT_HOST_DECERR +: 2] = {1'b0, h_err && h_resp == 2'b11};
    inc_n[2*CNT_HOST_B_UNEXPECTED +: 2] = {1'b0, h_unexp};
end
reg  [2*CNT_N-1:0] inc;
reg  [17:0]        oct;
always @(posedge clk) begin
    inc <= inc_n;
    oct <= oct_n;
    if (rst)
        inc <= {2*CNT_N{1'b0}};
end

// stage 3: the counters
reg  [CW-1:0] cnt [0:CNT_N-1];
integer k;
always @(posedge clk) begin
    for (k = 0; k < CNT_N; k = k + 1) begin
        if (k == CNT_OCTETS_PLACED)
            cnt[k] <= cnt[k] + {{(CW-18){1'b0}}, oct};
        else
            cnt[k] <= cnt[k] + {{(CW-2){1'b0}}, inc[2*k +: 2]};
        if (rst || clear)
            cnt[k] <= {CW{1'b0}};
    end
end

// ------------------------------------------------------------------ reads
reg          rv;
reg  [31:0]  rdata;
reg  [1:0]   rresp;
reg  [31:0]  hi_snap;       // the high word of the counter whose low word was read last
assign s_axil_arready = !rv;
assign s_axil_rvalid = rv;
assign s_axil_rdata = rdata;
assign s_axil_rresp = rresp;
wire         rd = s_axil_arvalid && !rv;
wire [9:0]   ra = s_axil_araddr[11:2];
wire         r_cnt = s_axil_araddr[11:8] == REG_COUNTERS[11:8] && {27'd0, s_axil_araddr[7:3]} < CNT_N;
wire [4:0]   r_ci = s_axil_araddr[7:3];
wire [63:0]  r_cv = {{(64-CW){1'b0}}, cnt[r_ci]};
wire [3:0]   r_dw = ra[3:0] - REG_CFG_DATA[5:2];

// the value and validity of a read of register word a (counters aside)
reg  [31:0]  r_val;
reg          r_ok;
always @* begin
    r_ok = 1'b1;
    r_val = 32'd0;
    case (ra)
    REG_ID[11:2]:             r_val = REG_ID_VALUE;
    REG_VERSION[11:2]:        r_val = REG_VERSION_VALUE;
    REG_DATA_WIDTH[11:2]:     r_val = DATA_WIDTH;
    REG_CONN_COUNT[11:2]:     r_val = CONN_COUNT;
    REG_STAG_COUNT[11:2]:     r_val = STAG_COUNT;
    REG_RQ_DEPTH[11:2]:       r_val = RQ_DEPTH;
    REG_MAX_FRAME[11:2]:      r_val = MAX_FRAME;
    REG_FIFO_DEPTH[11:2]:     r_val = FIFO_DEPTH;
    REG_EVT_LANES[11:2]:      r_val = EVT_LANES;
    REG_MAX_INFLIGHT[11:2]:   r_val = MAX_INFLIGHT;
    REG_WINDOW[11:2]:         r_val = WINDOW;
    REG_AXI_ID_WIDTH[11:2]:   r_val = AXI_ID_WIDTH;
    REG_AXI_MAX_BURSTS[11:2]: r_val = AXI_MAX_BURSTS;
    REG_COUNTER_WIDTH[11:2]:  r_val = COUNTER_WIDTH;
    REG_CFG_INDEX[11:2]:      r_val = {16'd0, index};
    REG_CFG_CMD[11:2]:        r_val = {29'd0, op};
    REG_CFG_STATUS[11:2]:     r_val = {sent, 15'd0, cmd};
    REG_CNT_CTRL[11:2]:       r_val = 32'd0;
    REG_HOST_FAULT[11:2]:     r_val = {29'd0, host_fault_resp, host_fault};
    default: begin
        if (ra >= CD_FIRST && ra < CD_END)
            r_val = stage[32*r_dw +: 32];
        else if (r_cnt)
            r_val = s_axil_araddr[2] ? hi_snap : r_cv[31:0];
        else
            r_ok = 1'b0;
    end
    endcase
end

always @(posedge clk) begin
    if (rv && s_axil_rready)
        rv <= 1'b0;
    if (rd) begin
        rv <= 1'b1;
        rdata <= r_val;
        rresp <= r_ok ? OKAY : SLVERR;
        if (r_cnt && !s_axil_araddr[2])
            hi_snap <= r_cv[63:32];
    end
    if (rst) begin
        rv <= 1'b0;
        hi_snap <= 32'd0;
    end
end

wire unused = &{1'b0, s_axil_awprot, s_axil_arprot, s_axil_awaddr[1:0], s_axil_araddr[1:0], idx_w[31:16]};

`ifdef FORMAL
// ------------------------------------------------------------------ formal
// AXI4-Lite slave rules with a free master (assumed to follow the master
// rules) and a free cfg_ready (make formal, scripts/formal/proofs.txt).
reg f_past_valid = 1'b0;
always @(posedge clk)
    f_past_valid <= 1'b1;
always @(*)
    if (!f_past_valid)
        assume (rst);

// the master: valid held until ready with its payload
always @(posedge clk) if (f_past_valid && !$past(rst)) begin
    if ($past(s_axil_awvalid && !s_axil_awready))
        assume (s_axil_awvalid && $stable(s_axil_awaddr));
    if ($past(s_axil_wvalid && !s_axil_wready))
        assume (s_axil_wvalid && $stable(s_axil_wdata) && $stable(s_axil_wstrb));
    if ($past(s_axil_arvalid && !s_axil_arready))
        assume (s_axil_arvalid && $stable(s_axil_araddr));
end

// outstanding: writes taken and not answered, reads likewise
reg [1:0] f_wr, f_rd;
always @(posedge clk) begin
    f_wr <= f_wr + (s_axil_awvalid && s_axil_awready) - (s_axil_bvalid && s_axil_bready);
    f_rd <= f_rd + (s_axil_arvalid && s_axil_arready) - (s_axil_rvalid && s_axil_rready);
    if (rst) begin
        f_wr <= 2'd0;
        f_rd <= 2'd0;
    end
end

// a CFG_CMD write of a valid op (w_go) is answered only after the receiver
// took its word, and only such a write sends a word, one
reg f_go = 1'b0;        // the write outstanding is a command that sends a word
reg f_took = 1'b0;      // the receiver took that word
always @(posedge clk) begin
    if (s_axil_awvalid && s_axil_awready) begin
        f_go <= w_go;
        f_took <= 1'b0;
    end
    if (cfg_valid && cfg_ready)
        f_took <= 1'b1;
    if (rst) begin
        f_go <= 1'b0;
        f_took <= 1'b0;
    end
end
always @(*) if (f_past_valid) begin
    if (s_axil_bvalid && f_go)
        assert (f_took && s_axil_bresp == OKAY);
    if (cfg_valid)
        assert (f_go && !f_took && f_wr == 2'd1);
end

always @(posedge clk) if (f_past_valid && !$past(rst)) begin
    // valid held until ready, payload stable
    if ($past(s_axil_bvalid && !s_axil_bready))
        assert (s_axil_bvalid && $stable(s_axil_bresp));
    if ($past(s_axil_rvalid && !s_axil_rready))
        assert (s_axil_rvalid && $stable(s_axil_rdata) && $stable(s_axil_rresp));
    if ($past(cfg_valid && !cfg_ready))
        assert (cfg_valid && $stable(cfg_op) && $stable(cfg_index) && $stable(cfg_data));
end
always @(posedge clk)
    if (f_past_valid && $past(rst))
        assert (!s_axil_bvalid && !s_axil_rvalid && !cfg_valid);
always @(*) if (f_past_valid) begin
    // address and data are taken together; one write and one read at a time
    assert (s_axil_awready == s_axil_wready);
    assert (f_wr <= 2'd1 && f_rd <= 2'd1);
    // a response only for a request taken, one each
    assert (f_wr == (s_axil_bvalid || cfg_valid ? 2'd1 : 2'd0));
    assert (!(s_axil_bvalid && cfg_valid));
    assert (f_rd == (s_axil_rvalid ? 2'd1 : 2'd0));
    assert (!s_axil_bvalid || s_axil_bresp == OKAY || s_axil_bresp == SLVERR);
    assert (cfg_op < CFG_OPS);
end

// covers: a command sent while the receiver was not ready, a write and a
// read answered SLVERR, a counter read back non-zero
reg f_cfg_wait, f_werr, f_rerr, f_cnt;
always @(posedge clk) begin
    if (cfg_valid && !cfg_ready)
        f_cfg_wait <= 1'b1;
    if (s_axil_bvalid && s_axil_bready && s_axil_bresp == SLVERR)
        f_werr <= 1'b1;
    if (s_axil_rvalid && s_axil_rready && s_axil_rresp == SLVERR)
        f_rerr <= 1'b1;
    if (s_axil_rvalid && s_axil_rready && s_axil_rresp == OKAY && s_axil_rdata != 32'd0 && rdata == cnt[CNT_HOST_BEATS][31:0])
        f_cnt <= 1'b1;
    if (rst) begin
        f_cfg_wait <= 1'b0;
        f_werr <= 1'b0;
        f_rerr <= 1'b0;
        f_cnt <= 1'b0;
    end
end
always @(*) if (f_past_valid && !rst) begin
    cover (f_cfg_wait && s_axil_bvalid && s_axil_bresp == OKAY);
    cover (f_werr && f_rerr);
    cover (f_cnt);
end
`endif

endmodule

`resetall
