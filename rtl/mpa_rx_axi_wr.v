// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_axi_wr: AXI4 write master for the receiver's host writes
 * (docs/axi.md). It turns the placement's stream of aligned host-word
 * writes (s_wr_*: one write per DATA_WIDTH/8-octet word of an FPDU's
 * payload, byte strobes on the payload's octets) into INCR bursts of up
 * to 256 beats that never cross a 4 KiB boundary, planned from the
 * placement descriptors (s_desc_*: host address and length of each FPDU's
 * payload, in the order of the writes) before the data arrives.
 *
 * Plan. Each descriptor covers the host words [fw, lw]. Consecutive
 * descriptors whose payloads are contiguous in host memory (the next one
 * starts in the word the last one ended in, or in the word after it) go
 * into one burst, up to the burst's limit: 256 beats from its first word
 * and the end of its 4 KiB page. A burst is closed (its AW and its W beat
 * count queued) when a descriptor does not continue it, at its limit,
 * after a descriptor with s_desc_flush set (or a flush entry: s_desc_len
 * 0), or when the write side waits for it and no descriptor is left. A
 * descriptor longer than the room left is split over several bursts. A
 * host word written by two descriptors in one burst is one beat: the
 * writes of a word are merged (byte strobes OR-ed) until the write that
 * holds its last octet in the burst, the lane given by the plan.
 *
 * Bursts are outstanding from plan to B response, at most MAX_BURSTS;
 * their AW, W beat count and completion record sit in three rings indexed
 * by the burst's sequence number. AWID is the sequence number modulo the
 * IDs used (2^min(ID_WIDTH, log2 MAX_BURSTS)), so a B response names its
 * burst even out of order across IDs. Bursts retire in plan order once
 * their B is in: cpl_count is then the number of descriptors whose writes,
 * and all before them, have their B response. A SLVERR or DECERR response
 * retires its burst with a one-cycle cpl_err_valid carrying the
 * descriptors that had writes in it (cpl_err_first..cpl_err_last, counted
 * from 0 in descriptor order, modulo 2^16). A B response that names no
 * burst waiting for one is ignored and pulses b_unexpected.
 *
 * Latency: a descriptor taken in cycle t reaches the planner in t + 3
 * (input skid, its words, its page arithmetic: two-entry buffers, so
 * s_desc_ready is a register); a burst the planner closes in cycle p has
 * its AW valid in p + 2, and its first write can be taken from p + 3 (so
 * five and six cycles after a descriptor with s_desc_flush). The next
 * burst of a split descriptor takes three cycles. W beats stream at one
 * per cycle, bursts back to back; a write whose word is completed by a
 * later write (two descriptors in one word) gives no beat. B responses
 * are registered and accepted the next cycle against per-slot bits set at
 * the AW and WLAST handshakes (so a B in the cycle after WLAST counts); a
 * burst retires the cycle after its response is accepted. All
 * ready outputs are registers or an AND of two. No carry chain longer
 * than a page offset feeds a planner decision.
 */
module mpa_rx_axi_wr #(
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // host address width (13 to 64; the receiver's descriptors carry 64)
    parameter ADDR_WIDTH = 64,
    // AXI ID width; the IDs used are 0 .. min(2^ID_WIDTH, MAX_BURSTS) - 1
    parameter ID_WIDTH = 4,
    // bursts outstanding from plan to B response, a power of two (2..256)
    parameter MAX_BURSTS = 16,
    parameter [3:0] AWCACHE = 4'b0011,
    parameter [2:0] AWPROT = 3'b010
) (
    input  wire                  clk,
    input  wire                  rst,

    // placement descriptors, in the order of the writes
    input  wire [ADDR_WIDTH-1:0] s_desc_addr,
    input  wire [15:0]           s_desc_len,
    input  wire                  s_desc_flush,
    input  wire                  s_desc_valid,
    output wire                  s_desc_ready,

    // host writes (one per aligned host word of a descriptor's payload)
    input  wire [ADDR_WIDTH-1:0] s_wr_addr,
    input  wire [DATA_WIDTH-1:0] s_wr_data,
    input  wire [KEEP_WIDTH-1:0] s_wr_strb,
    input  wire                  s_wr_valid,
    output wire                  s_wr_ready,

    output wire [ID_WIDTH-1:0]   m_axi_awid,
    output wire [ADDR_WIDTH-1:0] m_axi_awaddr,
    output wire [7:0]            m_axi_awlen,
    output wire [2:0]            m_axi_awsize,
    output wire [1:0]            m_axi_awburst,
    output wire                  m_axi_awlock,
    output wire [3:0]            m_axi_awcache,
    output wire [2:0]            m_axi_awprot,
    output wire                  m_axi_awvalid,
    input  wire                  m_axi_awready,
    output wire [DATA_WIDTH-1:0] m_axi_wdata,
    output wire [KEEP_WIDTH-1:0] m_axi_wstrb,
    output wire                  m_axi_wlast,
    output wire                  m_axi_wvalid,
    input  wire                  m_axi_wready,
    input  wire [ID_WIDTH-1:0]   m_axi_bid,
    input  wire [1:0]            m_axi_bresp,
    input  wire                  m_axi_bvalid,
    output wire                  m_axi_bready,

    // completions
    output wire [15:0]           cpl_count,
    output wire                  cpl_err_valid,
    output wire [1:0]            cpl_err_resp,
    output wire [15:0]           cpl_err_first,
    output wire [15:0]           cpl_err_last,
    output wire                  b_unexpected
);

// ------------------------------------------------------------------ guards
generate
if (!(DATA_WIDTH == 64 || DATA_WIDTH == 128 || DATA_WIDTH == 256 || DATA_WIDTH == 512)) begin : g_bad_data_width
`ifndef SYNTHESIS
    initial begin
        $error("mpa_rx_axi_wr: DATA_WIDTH %0d is not supported (64, 128, 256 or 512)", DATA_WIDTH);
        $finish;
    end
`endif
    // elaboration stops here in every tool: this module does not exist
    mpa_rx_axi_wr_DATA_WIDTH_must_be_64_128_256_or_512 param_error ();
end
if (!(MAX_BURSTS >= 2 && MAX_BURSTS <= 256 && (MAX_BURSTS & (MAX_BURSTS - 1)) == 0)) begin : g_bad_max_bursts
`ifndef SYNTHESIS
    initial begin
        $error("mpa_rx_axi_wr: MAX_BURSTS %0d is not a power of two from 2 to 256", MAX_BURSTS);
        $finish;
    end
`endif
    mpa_rx_axi_wr_MAX_BURSTS_must_be_a_power_of_two_from_2_to_256 param_error ();
end
if (!(ADDR_WIDTH >= 13 && ADDR_WIDTH <= 64)) begin : g_bad_addr_width
`ifndef SYNTHESIS
    initial begin
        $error("mpa_rx_axi_wr: ADDR_WIDTH %0d is not supported (13 to 64)", ADDR_WIDTH);
        $finish;
    end
`endif
    mpa_rx_axi_wr_ADDR_WIDTH_must_be_13_to_64 param_error ();
end
if (!(ID_WIDTH >= 1 && ID_WIDTH <= 16)) begin : g_bad_id_width
`ifndef SYNTHESIS
    initial begin
        $error("mpa_rx_axi_wr: ID_WIDTH %0d is not supported (1 to 16)", ID_WIDTH);
        $finish;
    end
`endif
    mpa_rx_axi_wr_ID_WIDTH_must_be_1_to_16 param_error ();
end
endgenerate

localparam LK = $clog2(KEEP_WIDTH);     // octet lane bits
localparam AW = ADDR_WIDTH;
localparam WA = AW - LK;                // host word address bits
localparam PW = 12 - LK;                // words of a 4 KiB page: 2^PW
localparam SB = $clog2(MAX_BURSTS);     // ring slot bits
localparam IDB = ID_WIDTH < SB ? ID_WIDTH : SB;   // ID bits used
localparam CB = SB - IDB;               // per-ID response counter bits
localparam [LK-1:0] TOP = {LK{1'b1}};   // the last lane of a word

// The page offset of the last word a burst starting at page offset o may
// reach: 256 beats, and not past its page (at 64 bits a page is 512
// words, at 128 bits and wider 256 words or fewer).
/* verilator lint_off UNUSEDSIGNAL */
function [PW-1:0] lim_off;
    input [PW-1:0] o;
    reg   [15:0]   e;       // o + 255 (its bits above PW unused)
    begin
        e = {{(16-PW){1'b0}}, o} + 16'd255;
        if (PW > 8)
            lim_off = {{(16-PW){1'b0}}, o} <= 16'd256 ? e[PW-1:0] : {PW{1'b1}};
        else
            lim_off = {PW{1'b1}};
    end
endfunction
/* verilator lint_on UNUSEDSIGNAL */

// The limit of a burst starting at word x + 1, for x a burst's limit (a
// page's last word, or at 64 bits the 256th word of a burst that started
// in the page's first half)
function [WA-1:0] lim_next;
    input [WA-1:0] x;
    begin
        if (PW > 8)
            lim_next = &x[PW-1:0] ? x + 256 : x | {{(WA-PW){1'b0}}, {PW{1'b1}}};
        else
            lim_next = x + (1 << PW);
    end
endfunction

// ------------------------------------------------------------------ input skid
// A two-entry buffer, so that s_desc_ready is a register; it keeps the
// length less one beside the length.
reg         x0_v, x1_v;
reg  [AW+32:0] x0, x1;         // {flush, len - 1, len, addr}
wire        x0_pop;
assign s_desc_ready = !x1_v;
wire        x_in = s_desc_valid && !x1_v;
wire [AW+32:0] x_new = {s_desc_flush, s_desc_len - 16'd1, s_desc_len, s_desc_addr};
always @(posedge clk) begin
    if (x0_pop) begin
        x0_v <= x1_v || x_in;
        x0 <= x1_v ? x1 : x_new;
        x1_v <= 1'b0;
    end else if (x_in) begin
        if (!x0_v) begin
            x0_v <= 1'b1;
            x0 <= x_new;
        end else begin
            x1_v <= 1'b1;
            x1 <= x_new;
        end
    end
    if (rst) begin
        x0_v <= 1'b0;
        x1_v <= 1'b0;
    end
end

// ------------------------------------------------------------------ P1: words
// The descriptor's first and last word and its last octet's lane.
reg            a_v, a_nz, a_flush;
reg  [WA-1:0]  a_fw, a_lw;
reg  [LK-1:0]  a_tl;
wire           pd_acc;                  // P2 takes a descriptor
wire           a_move = a_v && pd_acc;
wire           a_load = x0_v && (!a_v || a_move);
assign x0_pop = a_load;
wire [AW-1:0]  x_addr = x0[AW-1:0];
wire [AW-1:0]  x_end = x_addr + {{(AW-16){1'b0}}, x0[AW+31:AW+16]};   // its last octet
always @(posedge clk) begin
    if (a_load) begin
        a_nz <= x0[AW+15:AW] != 16'd0;
        a_flush <= x0[AW+32];
        a_fw <= x_addr[AW-1:LK];
        a_lw <= x_end[AW-1:LK];
        a_tl <= x_end[LK-1:0];
    end
    if (a_load)
        a_v <= 1'b1;
    else if (a_move)
        a_v <= 1'b0;
    if (rst)
        a_v <= 1'b0;
end

// ------------------------------------------------------------------ P2: page arithmetic
// A two-entry buffer of descriptor records for the planner (pd0 its head,
// pd_acc a register): the words, whether the last word is in the first
// word's page (same), the page offset of the limit of a burst starting at
// the first word (limoff), whether the descriptor fits such a burst (fit)
// or ends at its limit (eq), whether its last word ends its page (lwend),
// and whether it continues the data descriptor before it (starts in its
// last word: shared, or in the word after it: cont).
localparam R_NZ = 0, R_FLUSH = 1, R_FW = 2, R_LW = 2 + WA, R_TL = 2 + 2 * WA, R_SAME = 2 + 2 * WA + LK,
           R_LIM = R_SAME + 1, R_FIT = R_LIM + PW, R_EQ = R_FIT + 1, R_LWEND = R_EQ + 1, R_SHARED = R_LWEND + 1,
           R_CONT = R_SHARED + 1, R_W = R_CONT + 1;
reg  [WA-1:0]  prev_lw;                 // the last data descriptor's last word
reg  [WA:0]    prev_lw1;                // and + 1, with the carry (no burst wraps the address space)
wire [PW-1:0]  a_fwo = a_fw[PW-1:0];
wire [PW-1:0]  a_lwo = a_lw[PW-1:0];
wire           a_same = a_fw[WA-1:PW] == a_lw[WA-1:PW];
wire [PW-1:0]  a_lim = lim_off(a_fwo);
wire [R_W-1:0] a_rec = {{1'b0, a_fw} == prev_lw1 || a_fw == prev_lw, a_fw == prev_lw, &a_lwo,
                        a_same && a_lwo == a_lim, a_same && a_lwo <= a_lim, a_lim, a_same,
                        a_tl, a_lw, a_fw, a_flush, a_nz};
reg            pd0_v, pd1_v;
reg  [R_W-1:0] pd0, pd1;
wire           pd_take;                 // the planner is done with pd0
assign pd_acc = !pd1_v;
always @(posedge clk) begin
    if (a_move && a_nz) begin
        prev_lw <= a_lw;
        prev_lw1 <= {1'b0, a_lw} + 1'b1;
    end
    if (pd_take) begin
        pd0_v <= pd1_v || a_move;
        pd0 <= pd1_v ? pd1 : a_rec;
        pd1_v <= 1'b0;
    end else if (a_move) begin
        if (!pd0_v) begin
            pd0_v <= 1'b1;
            pd0 <= a_rec;
        end else begin
            pd1_v <= 1'b1;
            pd1 <= a_rec;
        end
    end
    if (rst) begin
        pd0_v <= 1'b0;
        pd1_v <= 1'b0;
        // (a descriptor after reset starts a burst whatever these say)
        prev_lw <= {WA{1'b1}};
        prev_lw1 <= {1'b1, {WA{1'b0}}};
    end
end
wire           pd_v = pd0_v;
wire           pd_nz = pd0[R_NZ];
wire           pd_flush = pd0[R_FLUSH];
wire [WA-1:0]  pd_fw = pd0[R_FW +: WA];
wire [WA-1:0]  pd_lw = pd0[R_LW +: WA];
wire [LK-1:0]  pd_tl = pd0[R_TL +: LK];
wire           pd_same = pd0[R_SAME];
wire [PW-1:0]  pd_lim = pd0[R_LIM +: PW];
wire           pd_fit = pd0[R_FIT];
wire           pd_eq = pd0[R_EQ];
wire           pd_lwend = pd0[R_LWEND];
wire           pd_shared = pd0[R_SHARED];
wire           pd_cont = pd0[R_CONT];

// ------------------------------------------------------------------ plan
// The open burst: from word ob_s, ob_len + 1 beats so far, its limit at
// page offset ob_lim (in ob_s's page). A descriptor that does not fit a
// burst is split: it goes on at word sp_p with the limit sp_lim, which
// take two cycles to work out (sp_st: the next word and limit from the
// last burst's limit sp_base, then the descriptor's compare with them).
reg            ob_v;
reg  [WA-1:0]  ob_s;
reg  [PW-1:0]  ob_lim;
reg  [7:0]     ob_len;
reg  [LK-1:0]  ob_tl;           // lane of its last octet
reg            ob_full;         // its last word is its limit
reg            ob_eend;         // its last word ends its page
reg            sp_v;
reg  [1:0]     sp_st;           // 0: sp_p, sp_lim, sp_fit, sp_eq ready; 1: work out sp_p, sp_lim; 2: the compare
reg  [WA-1:0]  sp_base, sp_p, sp_lim;
reg            sp_fit, sp_eq;   // pd_lw <= sp_lim, pd_lw == sp_lim
reg  [15:0]    dseq;            // descriptors planned to their last word
reg  [SB:0]    outst;           // bursts planned and not retired
reg            starve;          // the write side waits with no burst planned
wire           room = outst != MAX_BURSTS[SB:0];

// ob's limit as a word, pd's burst limit as a word
wire [WA-1:0]  ob_limw = {ob_s[WA-1:PW], ob_lim};
wire [WA-1:0]  pd_limw = {pd_fw[WA-1:PW], pd_lim};
wire [WA-1:0]  q = sp_v ? sp_p : pd_fw;             // pd's next word to plan
wire [WA-1:0]  limq = sp_v ? sp_lim : pd_limw;      // limit of a burst starting there
wire           fitq = sp_v ? sp_fit : pd_fit;
wire           eqq = sp_v ? sp_eq : pd_eq;
// pd continues ob: shared starts in ob's last word, else in the word after
// it, which is in ob's page unless ob's last word ends the page
wire           inob = pd_same && (pd_shared || !ob_eend);
wire           fitob = inob && pd_lw[PW-1:0] <= ob_lim;
wire           eqob = inob && pd_lw[PW-1:0] == ob_lim;

// the planner's case this cycle (a split descriptor waits for its compare)
wire pd_ok  = pd_v && !(sp_v && sp_st != 2'd0);
wire c_fb   = ob_v && starve;                               // close: the writes wait
wire c_fl   = !c_fb && pd_ok && !pd_nz;                     // flush entry
wire c_ext  = !c_fb && pd_ok && pd_nz && ob_v && pd_cont && fitob;   // pd ends in the open burst
wire c_olim = !c_fb && pd_ok && pd_nz && ob_v && pd_cont && !fitob;  // open burst full, pd goes on
wire c_oend = !c_fb && pd_ok && pd_nz && ob_v && !pd_cont; // pd starts elsewhere
wire c_new  = !c_fb && pd_ok && pd_nz && !ob_v && fitq;    // pd (the rest of it) fits one burst
wire c_nlim = !c_fb && pd_ok && pd_nz && !ob_v && !fitq;   // it does not

// pushes: a burst goes to the rings
wire p_cur  = c_fb || (c_fl && ob_v) || c_oend;             // the open burst as it is
wire p_ext  = c_ext && pd_flush;                            // the open burst with pd
wire p_olim = c_olim;                                       // the open burst to its limit
wire p_new  = c_new && pd_flush;                            // pd alone
wire p_nlim = c_nlim;                                       // pd's next burst, to its limit
wire p_any  = p_cur || p_ext || p_olim || p_new || p_nlim;
wire go     = room || !p_any;                               // a push waits for a ring slot
wire push   = go && p_any;
assign pd_take = go && (c_fl || c_ext || c_new);

wire [WA-1:0]  push_addr = (p_new || p_nlim) ? q : ob_s;
wire [7:0]     push_len = p_cur ? ob_len :
                          p_ext ? pd_lw[7:0] - ob_s[7:0] :
                          p_olim ? ob_limw[7:0] - ob_s[7:0] :
                          p_new ? pd_lw[7:0] - q[7:0] : limq[7:0] - q[7:0];
wire [LK-1:0]  push_tl = p_cur ? ob_tl : (p_ext || p_new) ? pd_tl : TOP;
wire [15:0]    dseq1 = dseq + 16'd1;
wire [15:0]    push_seq = (p_ext || p_new) ? dseq1 : dseq;
// the burst ends inside a descriptor that has writes in it
wire           push_mid = p_nlim || (p_olim && (pd_shared || !ob_full));

always @(posedge clk) begin
    if (go) begin
        if (c_ext && !pd_flush) begin
            ob_len <= pd_lw[7:0] - ob_s[7:0];
            ob_tl <= pd_tl;
            ob_full <= eqob;
            ob_eend <= pd_lwend;
        end
        if (c_new && !pd_flush) begin
            ob_s <= q;
            ob_lim <= limq[PW-1:0];
            ob_len <= pd_lw[7:0] - q[7:0];
            ob_tl <= pd_tl;
            ob_full <= eqq;
            ob_eend <= pd_lwend;
        end
        if (p_cur || p_ext || p_olim)
            ob_v <= 1'b0;
        else if (c_new && !pd_flush)
            ob_v <= 1'b1;
        if (c_olim)
            sp_base <= ob_limw;
        if (c_nlim)
            sp_base <= limq;
        if (c_olim || c_nlim)
            sp_v <= 1'b1;
        else if (c_new)
            sp_v <= 1'b0;
        if (c_ext || c_new)
            dseq <= dseq1;
    end
    // a split: the next burst's first word and limit, then the compare
    if (go && (c_olim || c_nlim))
        sp_st <= 2'd1;
    else if (sp_st == 2'd1)
        sp_st <= 2'd2;
    else
        sp_st <= 2'd0;
    if (sp_st == 2'd1) begin
        sp_p <= sp_base + 1'b1;
        sp_lim <= lim_next(sp_base);
    end
    sp_fit <= pd_lw <= sp_lim;
    sp_eq <= pd_lw == sp_lim;
    if (rst) begin
        ob_v <= 1'b0;
        sp_v <= 1'b0;
        sp_st <= 2'd0;
        dseq <= 16'd0;
    end
end

// ------------------------------------------------------------------ rings
// Slot = burst sequence number mod MAX_BURSTS. Written at plan; read by
// the AW channel, the write side and the retirement, each at its own
// pointer (plan >= AW, W >= retire).
reg  [WA+7:0]  ring_aw [0:MAX_BURSTS-1];    // {len, first word}
reg  [LK+7:0]  ring_w  [0:MAX_BURSTS-1];    // {last lane, len}
reg  [16:0]    ring_r  [0:MAX_BURSTS-1];    // {mid, descriptors planned through it}
reg  [SB:0]    plan_ptr, aw_ptr, wr_ptr, ret_ptr;
reg  [SB:0]    wl_cnt;          // bursts whose last W beat was taken (AXI W channel)
reg  [SB:0]    aw_pend, w_pend; // bursts planned and not yet read by the AW channel / write side
always @(posedge clk) begin
    if (push) begin
        ring_aw[plan_ptr[SB-1:0]] <= {push_len, push_addr};
        ring_w[plan_ptr[SB-1:0]] <= {push_tl, push_len};
        ring_r[plan_ptr[SB-1:0]] <= {push_mid, push_seq};
    end
end

// ------------------------------------------------------------------ AW channel
reg            aw_v;
reg  [WA-1:0]  aw_word;
reg  [7:0]     aw_len;
reg  [IDB-1:0] aw_id;
wire           aw_load = aw_pend != {(SB+1){1'b0}} && (!aw_v || m_axi_awready);
wire [WA+7:0]  aw_rd = ring_aw[aw_ptr[SB-1:0]];
always @(posedge clk) begin
    if (aw_load) begin
        aw_word <= aw_rd[WA-1:0];
        aw_len <= aw_rd[WA+7:WA];
        aw_id <= aw_ptr[IDB-1:0];
        aw_ptr <= aw_ptr + 1'b1;
    end
    if (aw_load)
        aw_v <= 1'b1;
    else if (m_axi_awready)
        aw_v <= 1'b0;
    if (rst) begin
        aw_v <= 1'b0;
        aw_ptr <= {(SB+1){1'b0}};
    end
end
assign m_axi_awid = {{(ID_WIDTH-IDB){1'b0}}, aw_id};
assign m_axi_awaddr = {aw_word, {LK{1'b0}}};
assign m_axi_awlen = aw_len;
assign m_axi_awsize = LK[2:0];
assign m_axi_awburst = 2'b01;
assign m_axi_awlock = 1'b0;
assign m_axi_awcache = AWCACHE;
assign m_axi_awprot = AWPROT;
assign m_axi_awvalid = aw_v;

// ------------------------------------------------------------------ write side
// nx: the next burst's beat count and last lane, read ahead from ring_w;
// cu: the burst whose beats are being formed.
reg            nx_v, cu_v, cu_last;
reg  [7:0]     nx_len, cu_left;
reg  [LK-1:0]  nx_tl, cu_tl;
reg            hold_v;
reg  [DATA_WIDTH-1:0] hold_data;
reg  [KEEP_WIDTH-1:0] hold_strb;
reg            wo_v, sk_v, wo_last, sk_last;
reg  [DATA_WIDTH-1:0] wo_data, sk_data;
reg  [KEEP_WIDTH-1:0] wo_strb, sk_strb;

assign s_wr_ready = cu_v && !sk_v;
wire           acc = s_wr_valid && s_wr_ready;
// the write holds the last octet of its beat: the burst's last lane in
// its last beat, the word's last lane in the others
wire           complete = cu_last ? s_wr_strb[cu_tl] : s_wr_strb[KEEP_WIDTH-1];
wire           emit = acc && complete;
wire           cu_done = emit && cu_last;
wire           cu_load = nx_v && (!cu_v || cu_done);
wire           nx_load = w_pend != {(SB+1){1'b0}} && (!nx_v || cu_load);
wire [LK+7:0]  w_rd = ring_w[wr_ptr[SB-1:0]];

// the beat: this write's octets over the held ones, zero where neither
reg  [DATA_WIDTH-1:0] b_data;
wire [KEEP_WIDTH-1:0] b_strb = s_wr_strb | (hold_v ? hold_strb : {KEEP_WIDTH{1'b0}});
integer i;
always @* begin
    for (i = 0; i < KEEP_WIDTH; i = i + 1)
        b_data[8*i +: 8] = s_wr_strb[i] ? s_wr_data[8*i +: 8] :
                           (hold_v && hold_strb[i]) ? hold_data[8*i +: 8] : 8'd0;
end

always @(posedge clk) begin
    if (nx_load) begin
        nx_len <= w_rd[7:0];
        nx_tl <= w_rd[LK+7:8];
        wr_ptr <= wr_ptr + 1'b1;
    end
    if (nx_load)
        nx_v <= 1'b1;
    else if (cu_load)
        nx_v <= 1'b0;
    if (cu_load) begin
        cu_left <= nx_len;
        cu_last <= nx_len == 8'd0;
        cu_tl <= nx_tl;
    end else if (emit) begin
        cu_left <= cu_left - 1'b1;
        cu_last <= cu_left == 8'd1;
    end
    if (cu_load)
        cu_v <= 1'b1;
    else if (cu_done)
        cu_v <= 1'b0;

    if (acc) begin
        hold_v <= !complete;
        hold_data <= b_data;
        hold_strb <= b_strb;
    end

    // output register and skid
    if (!wo_v || m_axi_wready) begin
        if (sk_v) begin
            wo_data <= sk_data;
            wo_strb <= sk_strb;
            wo_last <= sk_last;
        end else if (emit) begin
            wo_data <= b_data;
            wo_strb <= b_strb;
            wo_last <= cu_last;
        end
        wo_v <= sk_v || emit;
        sk_v <= 1'b0;
    end else if (emit) begin
        sk_data <= b_data;
        sk_strb <= b_strb;
        sk_last <= cu_last;
        sk_v <= 1'b1;
    end

    if (rst) begin
        nx_v <= 1'b0;
        cu_v <= 1'b0;
        hold_v <= 1'b0;
        wo_v <= 1'b0;
        sk_v <= 1'b0;
        wr_ptr <= {(SB+1){1'b0}};
    end
end
assign m_axi_wdata = wo_data;
assign m_axi_wstrb = wo_strb;
assign m_axi_wlast = wo_last;
assign m_axi_wvalid = wo_v;

// ------------------------------------------------------------------ counts
wire wl_fire = m_axi_wvalid && m_axi_wready && m_axi_wlast;
wire retire;
always @(posedge clk) begin
    if (push)
        plan_ptr <= plan_ptr + 1'b1;
    if (wl_fire)
        wl_cnt <= wl_cnt + 1'b1;
    outst <= outst + {{SB{1'b0}}, push} - {{SB{1'b0}}, retire};
    aw_pend <= aw_pend + {{SB{1'b0}}, push} - {{SB{1'b0}}, aw_load};
    w_pend <= w_pend + {{SB{1'b0}}, push} - {{SB{1'b0}}, nx_load};
    // the write side has a write and no burst for it (none planned, or
    // none left after this cycle's push is counted)
    starve <= s_wr_valid && !cu_v && !nx_v && w_pend == {(SB+1){1'b0}} && !push;
    if (rst) begin
        plan_ptr <= {(SB+1){1'b0}};
        wl_cnt <= {(SB+1){1'b0}};
        outst <= {(SB+1){1'b0}};
        aw_pend <= {(SB+1){1'b0}};
        w_pend <= {(SB+1){1'b0}};
        starve <= 1'b0;
    end
end

// ------------------------------------------------------------------ B and retirement
// The B response is registered; its slot is {responses so far for its ID,
// ID} (the bursts of one ID answer in order), or the ID itself when there
// are as many IDs as slots.
reg                b_v;
reg  [ID_WIDTH-1:0] b_id;
reg  [1:0]         b_resp;
reg  [MAX_BURSTS-1:0] done;
// per slot: its burst's B response (a small RAM, written at b_slot, read at
// r_slot; no index arithmetic on the B path)
reg  [1:0]         resp [0:MAX_BURSTS-1];
reg  [15:0]        cpl_q;
reg                err_v;
reg  [1:0]         err_resp;
reg  [15:0]        err_first, err_last;
reg                unexp_q;
wire [SB-1:0]      b_slot;
wire               b_idok = (b_id >> IDB) == {ID_WIDTH{1'b0}};
generate
if (CB == 0) begin : g_slot_id
    assign b_slot = b_id[SB-1:0];
end else begin : g_slot_cnt
    reg [CB-1:0] bcnt [0:(1<<IDB)-1];
    assign b_slot = {bcnt[b_id[IDB-1:0]], b_id[IDB-1:0]};
    integer k;
    always @(posedge clk) begin
        if (b_ok)
            bcnt[b_id[IDB-1:0]] <= bcnt[b_id[IDB-1:0]] + 1'b1;
        if (rst)
            for (k = 0; k < (1 << IDB); k = k + 1)
                bcnt[k] <= {CB{1'b0}};
    end
end
endgenerate
// Per slot: its burst's AW was taken (awd), its last W beat was taken
// (wld), its B is in (done); set at the handshakes, all cleared when the
// burst retires. A registered response (b_v, taken in the cycle after
// BVALID) sees every handshake up to the cycle of its BVALID, so the B of
// a slave that answers in the cycle after WLAST is accepted. wait_b is a
// register: the slot's burst had its AW and its last W beat and no B yet.
reg  [MAX_BURSTS-1:0] awd, wld, wait_b;
wire [SB-1:0]      aw_slot = aw_ptr[SB-1:0] - 1'b1;        // the burst in the AW register
wire [SB-1:0]      wl_slot = wl_cnt[SB-1:0];               // the burst on W
wire               aw_fire = m_axi_awvalid && m_axi_awready;
wire               b_ok = b_v && b_idok && wait_b[b_slot];
wire [SB-1:0]      r_slot = ret_ptr[SB-1:0];
assign retire = done[r_slot];
wire [16:0]        r_rd = ring_r[r_slot];
reg  [MAX_BURSTS-1:0] awd_n, wld_n, done_n;
integer sl;
always @* begin
    awd_n = awd;
    wld_n = wld;
    done_n = done;
    for (sl = 0; sl < MAX_BURSTS; sl = sl + 1) begin
        if (aw_fire && aw_slot == sl[SB-1:0])
            awd_n[sl] = 1'b1;
        if (wl_fire && wl_slot == sl[SB-1:0])
            wld_n[sl] = 1'b1;
        if (b_ok && b_slot == sl[SB-1:0])
            done_n[sl] = 1'b1;
        if (retire && r_slot == sl[SB-1:0]) begin
            awd_n[sl] = 1'b0;
            wld_n[sl] = 1'b0;
            done_n[sl] = 1'b0;
        end
    end
end
always @(posedge clk) begin
    b_v <= m_axi_bvalid;
    b_id <= m_axi_bid;
    b_resp <= m_axi_bresp;
    unexp_q <= b_v && !b_ok;
    awd <= awd_n;
    wld <= wld_n;
    done <= done_n;
    wait_b <= awd_n & wld_n & ~done_n;
    if (b_ok)
        resp[b_slot] <= b_resp;
    err_v <= 1'b0;
    if (retire) begin
        ret_ptr <= ret_ptr + 1'b1;
        cpl_q <= r_rd[15:0];
        err_v <= resp[r_slot][1];
        err_resp <= resp[r_slot];
        err_first <= cpl_q;
        err_last <= r_rd[16] ? r_rd[15:0] : r_rd[15:0] - 16'd1;
    end
    if (rst) begin
        b_v <= 1'b0;
        unexp_q <= 1'b0;
        done <= {MAX_BURSTS{1'b0}};
        awd <= {MAX_BURSTS{1'b0}};
        wld <= {MAX_BURSTS{1'b0}};
        wait_b <= {MAX_BURSTS{1'b0}};
        ret_ptr <= {(SB+1){1'b0}};
        cpl_q <= 16'd0;
        err_v <= 1'b0;
    end
end
assign m_axi_bready = 1'b1;
assign cpl_count = cpl_q;
assign cpl_err_valid = err_v;
assign cpl_err_resp = err_resp;
assign cpl_err_first = err_first;
assign cpl_err_last = err_last;
assign b_unexpected = unexp_q;

wire unused = &{1'b0, s_wr_addr};

`ifdef VERILATOR
// ------------------------------------------------------------------ assertions
// The input contract: every write is the next word of the plan (its
// address and the lanes it may hold), descriptors describe non-empty runs.
reg  [WA-1:0] chk_word [0:MAX_BURSTS-1];
reg  [WA-1:0] chk_cur;          // the word of the beat being formed
always @(posedge clk) begin
    if (push)
        chk_word[plan_ptr[SB-1:0]] <= push_addr;
    if (cu_load)
        chk_cur <= chk_word[wr_ptr[SB-1:0] - 1'b1];
    else if (emit)
        chk_cur <= chk_cur + 1'b1;
end
always @(posedge clk) begin
    if (!rst) begin
        assert (!acc || s_wr_addr[AW-1:LK] == chk_cur)
            else $error("mpa_rx_axi_wr: write to word %h, the plan's next word is %h", s_wr_addr[AW-1:LK], chk_cur);
        assert (!acc || s_wr_strb != {KEEP_WIDTH{1'b0}}) else $error("mpa_rx_axi_wr: a write with no strobe");
        assert (!(s_desc_valid && s_desc_ready) || s_desc_len == 16'd0 ||
                {1'b0, s_desc_addr} + {{(AW-15){1'b0}}, s_desc_len} <= {1'b1, {AW{1'b0}}})
            else $error("mpa_rx_axi_wr: descriptor at %h of %0d octets wraps the address space", s_desc_addr, s_desc_len);
        assert (!acc || !hold_v || (hold_strb & s_wr_strb) == {KEEP_WIDTH{1'b0}})
            else $error("mpa_rx_axi_wr: two writes to one octet of a beat");
        assert (outst <= MAX_BURSTS[SB:0]) else $error("mpa_rx_axi_wr: %0d bursts outstanding", outst);
        assert (!(ob_v && sp_v)) else $error("mpa_rx_axi_wr: an open burst while a descriptor is split");
        assert (!ob_v || (ob_lim >= ob_s[PW-1:0] && ob_limw - ob_s <= 255))
            else $error("mpa_rx_axi_wr: open burst from word %h to limit %h", ob_s, ob_limw);
        assert (!aw_v || {10'd0, aw_word[PW-1:0]} + {{(PW+2){1'b0}}, aw_len} < (1 << PW))
            else $error("mpa_rx_axi_wr: burst at word %h of %0d beats crosses 4 KiB", aw_word, aw_len + 1);
    end
end
`endif

`ifdef FORMAL
// ------------------------------------------------------------------ formal
// Properties of the AXI4 write channels (yosys-smtbmc, k-induction:
// make formal, scripts/formal/proofs.txt). The slave's inputs (AWREADY, WREADY, B) are
// free; so are the host writes. Descriptors are assumed not to wrap the
// 64-bit address space.
reg f_past_valid = 1'b0;
always @(posedge clk)
    f_past_valid <= 1'b1;
always @(*)
    if (!f_past_valid)
        assume (rst);

// a descriptor never wraps the address space
function f_nowrap;
    input [AW+16:0] e;
    begin
        f_nowrap = e[AW+15:AW] == 16'd0 || {1'b0, e[AW-1:0]} + {{(AW-15){1'b0}}, e[AW+15:AW]} <= {1'b1, {AW{1'b0}}};
    end
endfunction
always @(*)
    if (s_desc_valid)
        assume (f_nowrap({s_desc_flush, s_desc_len, s_desc_addr}));

// legal burst: within one 4 KiB page (AWLEN is at most 255 by its width)
function f_legal;
    input [WA-1:0] w;
    input [7:0]    len;
    begin
        f_legal = {1'b0, w[PW-1:0]} + {{(PW+1){1'b0}}, len} < (1 << PW);
    end
endfunction

wire f_aw_fire = m_axi_awvalid && m_axi_awready;
wire f_w_fire = m_axi_wvalid && m_axi_wready;

// ---- AXI4 master rules
always @(posedge clk) begin
    if (f_past_valid && $past(rst)) begin
        assert (!m_axi_awvalid);
        assert (!m_axi_wvalid);
    end
    if (f_past_valid && !$past(rst) && $past(m_axi_awvalid && !m_axi_awready)) begin
        assert (m_axi_awvalid);
        assert ($stable(m_axi_awid) && $stable(m_axi_awaddr) && $stable(m_axi_awlen));
    end
    if (f_past_valid && !$past(rst) && $past(m_axi_wvalid && !m_axi_wready)) begin
        assert (m_axi_wvalid);
        assert ($stable(m_axi_wdata) && $stable(m_axi_wstrb) && $stable(m_axi_wlast));
    end
end
always @(*) if (f_past_valid) begin
    assert (m_axi_awburst == 2'b01 && m_axi_awsize == LK[2:0] && m_axi_bready);
    // no 4 KiB crossing; AWLEN + 1 <= 256
    if (m_axi_awvalid)
        assert (f_legal(aw_word, aw_len));
end

// ---- WLAST on the last beat of each burst, the bursts' beats in AW order
// f_k: any burst (its sequence number); f_len its AWLEN as planned, f_axi
// its beats taken on W so far, f_awd its AW taken.
(* anyconst *) reg [SB:0] f_k;
reg        f_trk, f_awd;
reg [7:0]  f_len;
reg [8:0]  f_axi;
always @(posedge clk) begin
    if (push && plan_ptr == f_k) begin
        f_trk <= 1'b1;
        f_len <= push_len;
        f_axi <= 9'd0;
        f_awd <= 1'b0;
    end
    if (retire && ret_ptr == f_k)
        f_trk <= 1'b0;
    if (f_w_fire && wl_cnt == f_k)
        f_axi <= f_axi + 1'b1;
    if (f_aw_fire && aw_ptr - 1'b1 == f_k)
        f_awd <= 1'b1;
    if (rst)
        f_trk <= 1'b0;
end
always @(*) begin
    if (f_past_valid && f_trk && f_w_fire && wl_cnt == f_k)
        assert (m_axi_wlast == (f_axi == {1'b0, f_len}));
    if (f_past_valid && f_trk && f_aw_fire && aw_ptr - 1'b1 == f_k)
        assert (m_axi_awlen == f_len);
end

// ---- one B per burst: a response retires a burst only after its AW and
// its last beat, once; any other response is reported unexpected
always @(posedge clk) begin
    if (f_past_valid && !$past(rst) && $past(b_v && !b_ok))
        assert (b_unexpected);
    if (f_past_valid && !$past(rst) && $past(b_v && b_ok))
        assert (!b_unexpected);
end

// ---- a response for the tracked burst, after its AW and its last beat were
// taken (by the cycle of its BVALID) and before its B, is accepted: the B
// of a slave that answers in the cycle after WLAST is not rejected
always @(*)
    if (f_past_valid && f_trk && b_v && b_idok && b_slot == f_k[SB-1:0] && f_awd && f_axi == {1'b0, f_len} + 1'b1 &&
        !done[f_k[SB-1:0]])
        assert (b_ok);

// ---- invariants (what the induction needs)
wire [SB:0] f_outst = plan_ptr - ret_ptr;
wire [SB:0] f_awn = aw_ptr - ret_ptr;                      // AWs loaded, not retired
wire [SB:0] f_awh = f_awn - {{SB{1'b0}}, aw_v};            // AWs taken, not retired
wire [SB:0] f_wln = wl_cnt - ret_ptr;                      // bursts done on W, not retired
wire [SB:0] f_wrn = wr_ptr - ret_ptr;                      // bursts read by the write side
wire [SB:0] f_cu = wr_ptr - {{SB{1'b0}}, nx_v} - 1'b1;     // the burst in cu
// bursts in the write side's pipeline: read from ring_w, last W beat not taken
wire [SB+2:0] f_nb = {{(SB+2){1'b0}}, nx_v} + {{(SB+2){1'b0}}, cu_v} +
                     {{(SB+2){1'b0}}, wo_v && wo_last} + {{(SB+2){1'b0}}, sk_v && sk_last};
// beat index of the beats in wo and sk within their bursts, and of the
// next beat on W
reg [7:0] f_wo_idx, f_sk_idx, f_wbeat;
wire [7:0] f_cu_len = ring_w[f_cu[SB-1:0]][7:0];
wire [7:0] f_cu_idx = f_cu_len - cu_left;                  // the beat cu forms
always @(posedge clk) begin
    if (!wo_v || m_axi_wready) begin
        if (sk_v)
            f_wo_idx <= f_sk_idx;
        else if (emit)
            f_wo_idx <= f_cu_idx;
    end else if (emit)
        f_sk_idx <= f_cu_idx;
    if (f_w_fire)
        f_wbeat <= m_axi_wlast ? 8'd0 : f_wbeat + 1'b1;
    if (rst)
        f_wbeat <= 8'd0;
end
wire [SB:0] f_sk_b = wl_cnt + {{SB{1'b0}}, wo_last};      // the burst of the beat in sk
integer f_i;
always @(*) if (f_past_valid) begin
    // counts
    assert (outst == f_outst && f_outst <= MAX_BURSTS[SB:0]);
    assert (aw_pend == plan_ptr - aw_ptr && w_pend == plan_ptr - wr_ptr);
    assert (f_awn <= f_outst && (!aw_v || f_awn != {(SB+1){1'b0}}));
    assert (f_wln <= f_wrn && f_wrn <= f_outst);
    assert ({2'b00, wr_ptr - wl_cnt} == f_nb);
    assert (!sk_v || wo_v);
    assert (!hold_v || cu_v);
    // the AW register holds burst aw_ptr - 1 as planned
    if (aw_v)
        assert ({aw_len, aw_word} == ring_aw[aw_ptr[SB-1:0] - 1'b1]);
    if (nx_v)
        assert ({nx_tl, nx_len} == ring_w[wr_ptr[SB-1:0] - 1'b1]);
    // the write side: cu's beats, the beats in wo and sk, the W channel
    if (cu_v)
        assert (cu_left <= f_cu_len && cu_last == (cu_left == 8'd0) && cu_tl == ring_w[f_cu[SB-1:0]][LK+7:8]);
    if (wo_v) begin
        assert (f_wo_idx == f_wbeat && f_wo_idx <= ring_w[wl_cnt[SB-1:0]][7:0]);
        assert (wo_last == (f_wo_idx == ring_w[wl_cnt[SB-1:0]][7:0]));
    end else
        assert (!cu_v || f_cu == wl_cnt);
    if (sk_v) begin
        assert (f_sk_idx == (wo_last ? 8'd0 : f_wo_idx + 1'b1) && f_sk_idx <= ring_w[f_sk_b[SB-1:0]][7:0]);
        assert (sk_last == (f_sk_idx == ring_w[f_sk_b[SB-1:0]][7:0]));
    end
    // a burst whose last beat was not emitted is still in cu
    if (wo_v && !wo_last && !sk_v)
        assert (cu_v);
    if (sk_v && !sk_last)
        assert (cu_v);
    // the beat cu forms next follows the last one emitted
    if (cu_v && sk_v)
        assert (sk_last ? (f_cu == f_sk_b + 1'b1 && f_cu_idx == 8'd0) : (f_cu == f_sk_b && f_cu_idx == f_sk_idx + 1'b1));
    if (cu_v && wo_v && !sk_v)
        assert (wo_last ? (f_cu == wl_cnt + 1'b1 && f_cu_idx == 8'd0) : (f_cu == wl_cnt && f_cu_idx == f_wo_idx + 1'b1));
    if (cu_v && !wo_v)
        assert (f_cu_idx == f_wbeat);
    if (!wo_v && !cu_v)
        assert (f_wbeat == 8'd0);
    // the burst tracked
    assert (f_trk == ((f_k - ret_ptr) < f_outst));
    if (f_trk) begin
        assert (ring_w[f_k[SB-1:0]][7:0] == f_len && ring_aw[f_k[SB-1:0]][WA+7:WA] == f_len);
        assert (f_awd == ((f_k - ret_ptr) < f_awh));
        if ((f_k - ret_ptr) < f_wln)
            assert (f_axi == {1'b0, f_len} + 1'b1);
        else if (f_k == wl_cnt)
            assert (f_axi == {1'b0, f_wbeat});
        else
            assert (f_axi == 9'd0);
    end
    // every planned burst not yet on AW is legal; AW and W agree on its length
    for (f_i = 0; f_i < MAX_BURSTS; f_i = f_i + 1)
        if (((f_i[SB:0] - {1'b0, ret_ptr[SB-1:0]}) & {1'b0, {SB{1'b1}}}) < f_outst) begin
            assert (f_legal(ring_aw[f_i][WA-1:0], ring_aw[f_i][WA+7:WA]));
            assert (ring_aw[f_i][WA+7:WA] == ring_w[f_i][7:0]);
        end
    // responses only for bursts with their AW and last beat; the slot bits
    // say which bursts had their AW and their last beat
    for (f_i = 0; f_i < MAX_BURSTS; f_i = f_i + 1) begin
        if (done[f_i]) begin
            assert (((f_i[SB:0] - {1'b0, ret_ptr[SB-1:0]}) & {1'b0, {SB{1'b1}}}) < f_awh);
            assert (((f_i[SB:0] - {1'b0, ret_ptr[SB-1:0]}) & {1'b0, {SB{1'b1}}}) < f_wln);
        end
        assert (awd[f_i] == (((f_i[SB:0] - {1'b0, ret_ptr[SB-1:0]}) & {1'b0, {SB{1'b1}}}) < f_awh));
        assert (wld[f_i] == (((f_i[SB:0] - {1'b0, ret_ptr[SB-1:0]}) & {1'b0, {SB{1'b1}}}) < f_wln));
        assert (wait_b[f_i] == (awd[f_i] && wld[f_i] && !done[f_i]));
    end
end

// ---- the plan: what makes every pushed burst legal
// f_prev0/1: the last word of the data descriptor before pd0/pd1; f_last:
// of the last one the planner took
reg [WA-1:0] f_prev0, f_prev1, f_last;
always @(posedge clk) begin
    if (pd_take) begin
        f_prev0 <= pd1_v ? f_prev1 : prev_lw;
    end else if (a_move) begin
        if (!pd0_v)
            f_prev0 <= prev_lw;
        else
            f_prev1 <= prev_lw;
    end
    if (pd_take && pd_nz)
        f_last <= pd_lw;
    if (rst)
        f_last <= {WA{1'b1}};
end
// a descriptor record as P2 makes it from its words
function f_rec_ok;
    input [R_W-1:0] r;
    reg [WA-1:0] fw, lw;
    begin
        fw = r[R_FW +: WA];
        lw = r[R_LW +: WA];
        f_rec_ok = !r[R_NZ] || (fw <= lw && r[R_SAME] == (fw[WA-1:PW] == lw[WA-1:PW]) &&
            r[R_LIM +: PW] == lim_off(fw[PW-1:0]) &&
            r[R_FIT] == (r[R_SAME] && lw[PW-1:0] <= r[R_LIM +: PW]) &&
            r[R_EQ] == (r[R_SAME] && lw[PW-1:0] == r[R_LIM +: PW]) && r[R_LWEND] == &lw[PW-1:0]);
    end
endfunction
// it continues the data descriptor whose last word is p
function f_rec_cont;
    input [R_W-1:0] r;
    input [WA-1:0]  p;
    begin
        f_rec_cont = !r[R_NZ] || (r[R_SHARED] == (r[R_FW +: WA] == p) &&
            r[R_CONT] == (r[R_FW +: WA] == p || {1'b0, r[R_FW +: WA]} == {1'b0, p} + 1'b1));
    end
endfunction
// x is a burst's limit: a page end, or at 64 bits a word in the page's second half
function f_is_lim;
    input [WA-1:0] x;
    begin
        f_is_lim = PW > 8 ? x[PW-1:0] >= 255 : &x[PW-1:0];
    end
endfunction
wire [WA-1:0] f_ob_e = ob_s + {{(WA-8){1'b0}}, ob_len};   // the open burst's last word
wire [WA-1:0] f_latest = pd1_v && pd1[R_NZ] ? pd1[R_LW +: WA] : pd0_v && pd0[R_NZ] ? pd0[R_LW +: WA] : f_last;
always @(*) if (f_past_valid) begin
    if (x0_v)
        assert (f_nowrap({x0[AW+32], x0[AW+15:0]}) && x0[AW+31:AW+16] == x0[AW+15:AW] - 1'b1);
    if (x1_v)
        assert (f_nowrap({x1[AW+32], x1[AW+15:0]}) && x1[AW+31:AW+16] == x1[AW+15:AW] - 1'b1 && x0_v);
    if (a_v && a_nz)
        assert (a_fw <= a_lw);
    assert (!pd1_v || pd0_v);
    if (pd0_v)
        assert (f_rec_ok(pd0) && f_rec_cont(pd0, f_prev0) && (!pd0[R_NZ] || f_prev0 == f_last));
    if (pd1_v)
        assert (f_rec_ok(pd1) && f_rec_cont(pd1, f_prev1) && f_prev1 == (pd0[R_NZ] ? pd0[R_LW +: WA] : f_last));
    assert (prev_lw == f_latest && prev_lw1 == {1'b0, prev_lw} + 1'b1);
    if (ob_v) begin
        assert (ob_lim == lim_off(ob_s[PW-1:0]) && ob_s <= f_ob_e && f_ob_e <= ob_limw);
        assert (ob_full == (f_ob_e == ob_limw) && ob_eend == &f_ob_e[PW-1:0] && f_ob_e == f_last);
    end
    if (sp_v) begin
        assert (pd_v && pd_nz && !ob_v);
        if (sp_st == 2'd1)
            assert (f_is_lim(sp_base) && sp_base < pd_lw && {1'b0, sp_base} + 1'b1 >= {1'b0, pd_fw});
        else
            assert (sp_p == sp_base + 1'b1 && sp_lim == lim_next(sp_base) && f_is_lim(sp_base) &&
                    sp_lim == {sp_p[WA-1:PW], lim_off(sp_p[PW-1:0])} && sp_p <= pd_lw && sp_p >= pd_fw);
        if (sp_st == 2'd0)
            assert (sp_fit == (pd_lw <= sp_lim) && sp_eq == (pd_lw == sp_lim));
    end
    assert (sp_st != 2'd3 && (sp_v || sp_st == 2'd0 || sp_st == 2'd1));
    if (push)
        assert (f_legal(push_addr, push_len));
end

// ---- covers: a burst of several beats answered, stalls, an error, a
// merged word, a split descriptor, responses out of order, a burst closed
// for the waiting write side
reg f_long_done, f_aw_stall, f_w_stall, f_err, f_merge, f_split, f_ooo, f_fb;
always @(posedge clk) begin
    if (f_w_fire && m_axi_wlast && f_wbeat >= 8'd2)
        f_long_done <= 1'b1;
    if (m_axi_awvalid && !m_axi_awready)
        f_aw_stall <= 1'b1;
    if (m_axi_wvalid && !m_axi_wready)
        f_w_stall <= 1'b1;
    if (cpl_err_valid)
        f_err <= 1'b1;
    if (acc && !complete)
        f_merge <= 1'b1;
    if (go && c_nlim)
        f_split <= 1'b1;
    if (b_ok && b_slot != r_slot)
        f_ooo <= 1'b1;
    if (push && c_fb)
        f_fb <= 1'b1;
    if (rst) begin
        f_long_done <= 1'b0;
        f_aw_stall <= 1'b0;
        f_w_stall <= 1'b0;
        f_err <= 1'b0;
        f_merge <= 1'b0;
        f_split <= 1'b0;
        f_ooo <= 1'b0;
        f_fb <= 1'b0;
    end
end
always @(*) if (f_past_valid && !rst) begin
    cover (f_long_done && cpl_count != 16'd0);
    cover (f_aw_stall && f_w_stall && cpl_count >= 16'd2);
    cover (f_err);
    cover (f_merge && f_long_done);
    cover (f_split && cpl_count != 16'd0);
    cover (f_ooo && cpl_count >= 16'd2);
    // the write side closed a burst no flush closed
    cover (f_fb && cpl_count != 16'd0);
end
`endif

endmodule

`resetall
