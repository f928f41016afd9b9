// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_ddp: stage E1 of the mpa_rx egress (docs/design.md section 5):
 * per frame, in order, the VERDICT event, the DROP / ADVANCED / CONSUMED
 * event, and for a PLACE frame the DDP checks (RFC 5041 section 7, in the
 * order golden/ddp Placer.Place makes them) of each FPDU the walker
 * recorded, against the STag table and the receive queues, with a PLACED
 * or DDP_ERROR event per FPDU and a DELIVERED event for an in-order FPDU
 * with L set that was placed. Each FPDU that is placed with a payload
 * gives a placement descriptor to stage E2 (mpa_rx_place); each frame gives
 * a token to E2 when E1 is done with it. The records of a frame that is not
 * PLACE are discarded.
 *
 * Tables (written through the configuration port, ops 1-3 of section 4):
 * STag table of STAG_COUNT entries at STag[31:8] mod STAG_COUNT; per
 * context and QN the current MSN; per context, QN and MSN mod RQ_DEPTH a
 * posted receive buffer.
 *
 * Event port: EVT_LANES lanes of 128 bits on m_evt_tdata, lane 0 in
 * [127:0]; m_evt_tkeep has 16 bits per lane (all ones on a lane that holds
 * an event, all zeros otherwise); the events of a beat are in order from
 * lane 0 and the lanes that hold one are contiguous from lane 0.
 *
 * Latency, EVT_LANES 1 (mpa_rx at 64 and 128 bits): one cycle per event
 * (while m_evt_tready), per record of a PLACE frame a lookup cycle (table
 * reads; the record's lengths) and a check cycle (each check registered)
 * before its event, one cycle per record of any other frame.
 *
 * Latency, EVT_LANES 2 (256 and 512 bits; docs/design.md section 5.3):
 * one beat per cycle (while m_evt_tready) holding VERDICT and the DROP /
 * ADVANCED / CONSUMED event, or an FPDU's PLACED / DDP_ERROR and its
 * DELIVERED. The record stage holds one record at a time: a lookup cycle
 * (the record leaves the walker's FIFO), a check cycle, then its beat; the
 * next record's lookup can be made in the cycle of that beat (a
 * receive-queue update of the beat is forwarded to it), and the first
 * record of the next PLACE frame is looked up as soon as the frame is at
 * the verdict queue's head and the record stage is free, before or with
 * the frame's VERDICT beat. A PLACE frame of one FPDU takes two cycles
 * when its record was looked up before its VERDICT beat, three when E1
 * waited for the frame. Records of any other frame: one cycle each, after
 * its VERDICT beat.
 */
module mpa_rx_ddp #(
    // context index bits (1 to 12: the events' index field)
    parameter IDX_BITS = 4,
    // STag table entries; a power of two
    parameter STAG_COUNT = 64,
    // receive buffers per context and QN; a power of two
    parameter RQ_DEPTH = 4,
    // 128-bit event lanes on m_evt: 1, or 2 (two events per beat)
    parameter EVT_LANES = 1
) (
    input  wire                clk,
    input  wire                rst,

    // frames from the verdict queue (FWFT): verdict records (VQ_* in
    // mpa_rx_fields.vh)
    input  wire                vq_valid,
    output wire                vq_ready,
    input  wire [209+IDX_BITS-1:0] vq_data,

    // walker records (FWFT)
    input  wire                rec_valid,
    output wire                rec_ready,
    input  wire [15:0]         rec_lseq_w,
    input  wire [15:0]         rec_ulen,
    input  wire [7:0]          rec_ctrl,
    input  wire [127:0]        rec_hdr,

    // configuration ops 1-3
    input  wire                cfg_valid,
    input  wire [2:0]          cfg_op,
    input  wire [15:0]         cfg_index,
    input  wire [383:0]        cfg_data,
    output wire                busy,

    output wire [EVT_LANES*128-1:0] m_evt_tdata,
    output wire [EVT_LANES*16-1:0]  m_evt_tkeep,
    output wire                m_evt_tvalid,
    input  wire                m_evt_tready,

    // to E2
    output wire                tok_valid,
    input  wire                tok_ready,
    output wire [37:0]         tok_data,     // TOK_*
    output wire                desc_valid,
    input  wire                desc_ready,
    output wire [105:0]        desc_data     // DESC_*
);

`include "mpa_rx_fields.vh"

generate
if (IDX_BITS < 1 || IDX_BITS > EVT_IDX_W) begin : g_bad_idx_bits
`ifndef SYNTHESIS
    initial begin
        $error("mpa_rx_ddp: IDX_BITS %0d is not from 1 to 12", IDX_BITS);
        $finish;
    end
`endif
    // elaboration stops here in every tool: this module does not exist
    mpa_rx_ddp_IDX_BITS_must_be_1_to_12 param_error ();
end
if (STAG_COUNT < 2 || (1 << $clog2(STAG_COUNT)) != STAG_COUNT) begin : g_bad_stag_count
`ifndef SYNTHESIS
    initial begin
        $error("mpa_rx_ddp: STAG_COUNT %0d is not a power of two of at least 2", STAG_COUNT);
        $finish;
    end
`endif
    mpa_rx_ddp_STAG_COUNT_must_be_a_power_of_two param_error ();
end
if (RQ_DEPTH < 2 || (1 << $clog2(RQ_DEPTH)) != RQ_DEPTH) begin : g_bad_rq_depth
`ifndef SYNTHESIS
    initial begin
        $error("mpa_rx_ddp: RQ_DEPTH %0d is not a power of two of at least 2", RQ_DEPTH);
        $finish;
    end
`endif
    mpa_rx_ddp_RQ_DEPTH_must_be_a_power_of_two param_error ();
end
if (EVT_LANES != 1 && EVT_LANES != 2) begin : g_bad_evt_lanes
`ifndef SYNTHESIS
    initial begin
        $error("mpa_rx_ddp: EVT_LANES %0d is not 1 or 2", EVT_LANES);
        $finish;
    end
`endif
    mpa_rx_ddp_EVT_LANES_must_be_1_or_2 param_error ();
end
if (VQ_IDX != 209 || TOK_W != 38 || DESC_W != 106) begin : g_bad_record
    // the port widths above follow mpa_rx_fields.vh
    mpa_rx_ddp_port_widths_must_follow_mpa_rx_fields_vh param_error ();
end
endgenerate

localparam VQ_W = VQ_IDX + IDX_BITS;
localparam SB = $clog2(STAG_COUNT);
localparam RB = $clog2(RQ_DEPTH);
localparam QA = IDX_BITS + 2;       // receive-queue state address: {context, QN}
localparam BA = IDX_BITS + 2 + RB;  // receive buffer address: {context, QN, MSN mod RQ_DEPTH}

// ------------------------------------------------------------------ tables
// STag table word: the STag entry's fields
localparam ST_LEN = 0;
localparam ST_BASE = ST_LEN + STAG_LEN_W;
localparam ST_STREAM = ST_BASE + STAG_BASE_W;
localparam ST_STAG = ST_STREAM + STAG_STREAM_W;
localparam ST_VALID = ST_STAG + STAG_STAG_W;
localparam ST_W = ST_VALID + 1;
// receive buffer word: the receive buffer's fields but its QN
localparam RQ_LEN = 0;
localparam RQ_BASE = RQ_LEN + RBUF_LEN_W;
localparam RQ_STREAM = RQ_BASE + RBUF_BASE_W;
localparam RQ_MSN = RQ_STREAM + RBUF_STREAM_W;
localparam RQ_VALID = RQ_MSN + RBUF_MSN_W;
localparam RQ_W = RQ_VALID + 1;
reg [ST_W-1:0] stag_ram [0:STAG_COUNT-1];
reg [31:0]     msn_ram  [0:(1<<QA)-1];
reg [RQ_W-1:0] buf_ram  [0:(1<<BA)-1];

/* verilator lint_off UNUSEDSIGNAL */
function [ST_W-1:0] st_word(input [383:0] d);
    begin
        st_word[ST_LEN +: STAG_LEN_W] = d[STAG_LEN +: STAG_LEN_W];
        st_word[ST_BASE +: STAG_BASE_W] = d[STAG_BASE +: STAG_BASE_W];
        st_word[ST_STREAM +: STAG_STREAM_W] = d[STAG_STREAM +: STAG_STREAM_W];
        st_word[ST_STAG +: STAG_STAG_W] = d[STAG_STAG +: STAG_STAG_W];
        st_word[ST_VALID] = d[STAG_VALID];
    end
endfunction
function [RQ_W-1:0] rq_word(input [383:0] d);
    begin
        rq_word[RQ_LEN +: RBUF_LEN_W] = d[RBUF_LEN +: RBUF_LEN_W];
        rq_word[RQ_BASE +: RBUF_BASE_W] = d[RBUF_BASE +: RBUF_BASE_W];
        rq_word[RQ_STREAM +: RBUF_STREAM_W] = d[RBUF_STREAM +: RBUF_STREAM_W];
        rq_word[RQ_MSN +: RBUF_MSN_W] = d[RBUF_MSN +: RBUF_MSN_W];
        rq_word[RQ_VALID] = d[RBUF_VALID];
    end
endfunction
/* verilator lint_on UNUSEDSIGNAL */

// ------------------------------------------------------------------ frame and record views
// The frame at the verdict queue's head (vq_*). The lookup stage reads the
// record at the head of the walker's FIFO (h_*) with its frame's verdict
// record (l_vq); the check and event stages read the record looked up
// (r_*, from s_*) with its frame's verdict record (s_vq). With one event
// lane they are all the FIFO head and the verdict queue's head, as the
// record stays at the FIFO head until its last event; with two, the record
// leaves the FIFO at its lookup and the stages keep copies.
wire [1:0]          vq_verdict = vq_data[VQ_VERDICT +: VQ_VERDICT_W];
wire [3:0]          vq_reason = vq_data[VQ_REASON +: VQ_REASON_W];
wire [1:0]          vq_drop = vq_data[VQ_DROP +: VQ_DROP_W];
wire [IDX_BITS-1:0] vq_idx = vq_data[VQ_IDX +: IDX_BITS];
wire [31:0]         vq_seq = vq_data[VQ_SEQ +: VQ_SEQ_W];
wire [31:0]         vq_end = vq_data[VQ_END +: VQ_END_W];
wire [15:0]         vq_plen = vq_data[VQ_PLEN +: VQ_PLEN_W];
wire [31:0]         vq_adv = vq_data[VQ_ADV +: VQ_ADV_W];
wire                vq_inorder = vq_data[VQ_INORDER];
wire [15:0]         vq_nrec = vq_data[VQ_NREC +: VQ_NREC_W];
wire [7:0]          vq_nrfc = vq_data[VQ_NRFC +: VQ_NRFC_W];      // FPDUs by FPDUPTR form (mpa_rx_walk sum_nrfc)
wire [7:0]          vq_ndraft = vq_data[VQ_NDRAFT +: VQ_NDRAFT_W];  // and sum_ndraft, for ADVANCED / CONSUMED

wire [VQ_W-1:0]     l_vq;
wire [VQ_W-1:0]     s_vq;
wire [IDX_BITS-1:0] l_idx = l_vq[VQ_IDX +: IDX_BITS];
wire [1:0]          l_dv = l_vq[VQ_DDP_VER +: VQ_DDP_VER_W];
wire [15:0]         s_lseq_w, s_ulen;
wire [7:0]          s_ctrl;
wire [127:0]        s_hdr;
wire [IDX_BITS-1:0] s_idx = s_vq[VQ_IDX +: IDX_BITS];
wire [31:0]         s_seq = s_vq[VQ_SEQ +: VQ_SEQ_W];
wire                s_inorder = s_vq[VQ_INORDER];
wire [11:0]         s_stream = s_vq[VQ_STREAM +: VQ_STREAM_W];
wire                s_mk = s_vq[VQ_MARKERS];
wire [8:0]          s_mph = s_vq[VQ_MPH +: VQ_MPH_W];
wire [15:0]         s_p0 = s_vq[VQ_P0 +: VQ_P0_W];
wire                lk_en;      // lookup cycle: table reads, the record's lengths registered
wire                ck_en;      // check cycle: each check registered
wire                fwd;        // this cycle's receive-queue update is to the queue looked up

// the record at the head (lookup stage)
wire        h_t = rec_ctrl[DDPC_T];
wire [1:0]  h_dv = rec_ctrl[DDPC_DV +: DDPC_DV_W];
wire [31:0] h_stag = rec_hdr[DDPH_STAG +: DDPH_STAG_W];
wire [63:0] h_to = rec_hdr[DDPH_TO +: DDPH_TO_W];
wire [31:0] h_qn = rec_hdr[DDPH_QN +: DDPH_QN_W];
wire [31:0] h_msn = rec_hdr[DDPH_MSN +: DDPH_MSN_W];
wire [31:0] h_mo = rec_hdr[DDPH_MO +: DDPH_MO_W];
// the record of the check and event stages
wire        r_t = s_ctrl[DDPC_T];
wire        r_l = s_ctrl[DDPC_L];
wire [31:0] r_stag = s_hdr[DDPH_STAG +: DDPH_STAG_W];
wire [63:0] r_to = s_hdr[DDPH_TO +: DDPH_TO_W];
wire [31:0] r_qn = s_hdr[DDPH_QN +: DDPH_QN_W];
wire [31:0] r_msn = s_hdr[DDPH_MSN +: DDPH_MSN_W];
wire [31:0] r_mo = s_hdr[DDPH_MO +: DDPH_MO_W];

// lookups, read in the lookup cycle
reg [ST_W-1:0] st_q;
reg [31:0]     cur_q;
reg [RQ_W-1:0] bf_q;
wire [QA-1:0] q_addr = {l_idx, h_qn[1:0]};
wire [BA-1:0] b_addr = {l_idx, h_qn[1:0], h_msn[RB-1:0]};
wire [QA-1:0] u_addr = {s_idx, r_qn[1:0]};   // the queue a DELIVERED updates
// (read in the lookup cycle only: a configuration write while the FPDU's
// event waits on m_evt_tready does not change its outcome; an update of
// the same cycle, by the record before, is forwarded)
always @(posedge clk) begin
    if (lk_en) begin
        st_q <= stag_ram[h_stag[8 +: SB]];
        cur_q <= fwd ? cur_q + 32'd1 : msn_ram[q_addr];
        bf_q <= buf_ram[b_addr];
    end
end

// Stage 1 (lookup cycle), from the record alone: the payload length n,
// the end of the payload (TO + n for a tagged FPDU, MO + n untagged; an
// FPDU is out of bounds iff that end is beyond the buffer's length, which
// covers both RFC 5041 tests TO > length and n > length - TO), the wrap of
// TO + n - 1, and where the payload starts in the frame (its first octet
// that is not a marker's: a marker in the header or just after it moves it).
wire [16:0] n14 = {1'b0, rec_ulen} - 17'd14;
wire [16:0] n18 = {1'b0, rec_ulen} - 17'd18;
wire [16:0] n_w = h_t ? n14 : n18;                         // [16]: ULPDU shorter than the header
// TO + n (MO + n) in two halves: the low 32 bits and their carry here, the
// high half and its increment beside them
wire [31:0] e_lo_op = h_t ? h_to[31:0] : h_mo;
wire [32:0] e_lo_w = {1'b0, e_lo_op} + {17'd0, n_w[15:0]};
wire [31:0] e_hi_w = h_t ? h_to[63:32] : 32'd0;
// The payload's start o_s, from the record and frame of the check and
// event stages: with one lane in the lookup cycle (they are the heads
// then), with two in the check cycle (the record stage's copy).
wire        o_en;
wire [15:0] o_hlen = s_ctrl[DDPC_T] ? 16'd14 : 16'd18;
wire [15:0] o_len = s_p0 + {s_lseq_w[13:0], 2'b00};
wire [8:0]  to_mk = s_mph - o_len[8:0];                   // octets to the next marker
wire        hdr_mk = s_mk && {7'd0, to_mk} <= o_hlen + 16'd2;   // in the header or at the payload's start
wire [15:0] o_s_w = o_len + 16'd2 + o_hlen + (hdr_mk ? 16'd4 : 16'd0);
reg  [15:0] n;
reg         short_q, nz_q, dv_bad_q, qn_bad_q;
reg  [32:0] e_lo;
reg  [31:0] e_hi;
reg  [32:0] e_hi1;
reg  [15:0] o_s;
always @(posedge clk) begin
    if (lk_en) begin
        n <= n_w[15:0];
        short_q <= n_w[16];
        nz_q <= h_t ? rec_ulen != 16'd14 : rec_ulen != 16'd18;   // n != 0, no subtract before it
        e_lo <= e_lo_w;
        e_hi <= e_hi_w;
        e_hi1 <= {1'b0, e_hi_w} + 33'd1;
        dv_bad_q <= h_dv != l_dv;
        qn_bad_q <= h_qn > 32'd2;
    end
    if (o_en)
        o_s <= o_s_w;
end

// Stage 2 (check cycle): each check of RFC 5041 section 7 against the
// entries read, registered; the kind (golden/ddp Placer.Place order) in
// the event cycle from these flags.
wire        st_valid = st_q[ST_VALID];
wire [31:0] st_stag = st_q[ST_STAG +: STAG_STAG_W];
wire [11:0] st_stream = st_q[ST_STREAM +: STAG_STREAM_W];
wire [63:0] st_base = st_q[ST_BASE +: STAG_BASE_W];
wire [63:0] st_len = st_q[ST_LEN +: STAG_LEN_W];
wire        bf_valid = bf_q[RQ_VALID];
wire [31:0] bf_msn = bf_q[RQ_MSN +: RBUF_MSN_W];
wire [11:0] bf_stream = bf_q[RQ_STREAM +: RBUF_STREAM_W];
wire [63:0] bf_base = bf_q[RQ_BASE +: RBUF_BASE_W];
wire [31:0] bf_len = bf_q[RQ_LEN +: RBUF_LEN_W];
wire [31:0] msn_d = r_msn - cur_q;
wire [64:0] end_q = {e_lo[32] ? e_hi1 : {1'b0, e_hi}, e_lo[31:0]};
reg         c_stag, c_assoc, c_wrap, c_msn, c_nobuf, c_mo, c_long;
reg         cb_hi_gt, cb_hi_eq, cb_lo_gt;   // TO + n against the length, in halves
reg  [32:0] dest_lo;                        // the address in halves (carry select)
reg  [31:0] dest_h0, dest_h1;
wire [31:0] base_hi = r_t ? st_base[63:32] : bf_base[63:32];
wire [31:0] off_hi = r_t ? r_to[63:32] : 32'd0;
wire [33:0] dest_h1_w = {1'b0, base_hi, 1'b1} + {1'b0, off_hi, 1'b1};   // base + offset + 1
always @(posedge clk) begin
    if (ck_en) begin
        c_stag <= !st_valid || st_stag != r_stag;
        c_assoc <= st_stream != s_stream;
        c_wrap <= nz_q && end_q[64] && end_q[63:0] != 64'd0;   // TO + n - 1 >= 2^64
        cb_hi_gt <= end_q[64:32] > {1'b0, st_len[63:32]};
        cb_hi_eq <= end_q[64:32] == {1'b0, st_len[63:32]};
        cb_lo_gt <= end_q[31:0] > st_len[31:0];
        c_msn <= msn_d[31];
        c_nobuf <= !bf_valid || bf_msn != r_msn || bf_stream != s_stream;
        c_mo <= r_mo > bf_len;
        c_long <= end_q[32:0] > {1'b0, bf_len};
        dest_lo <= {1'b0, r_t ? st_base[31:0] : bf_base[31:0]} + {1'b0, r_t ? r_to[31:0] : r_mo};
        dest_h0 <= base_hi + off_hi;
        dest_h1 <= dest_h1_w[32:1];
    end
end
wire        c_bounds = cb_hi_gt || (cb_hi_eq && cb_lo_gt);
wire [63:0] dest = {dest_lo[32] ? dest_h1 : dest_h0, dest_lo[31:0]};
reg  [3:0]  kind;
always @* begin
    kind = 4'd0;
    if (short_q)
        kind = DDP_KIND_SHORT;
    else if (r_t) begin
        if (dv_bad_q)
            kind = DDP_KIND_T_VERSION;
        else if (c_stag)
            kind = DDP_KIND_INV_STAG;
        else if (c_assoc)
            kind = DDP_KIND_NOT_ASSOC;
        else if (c_wrap)
            kind = DDP_KIND_TO_WRAP;
        else if (c_bounds)
            kind = DDP_KIND_BOUNDS;
    end else begin
        if (dv_bad_q)
            kind = DDP_KIND_U_VERSION;
        else if (qn_bad_q)
            kind = DDP_KIND_INV_QN;
        else if (c_msn)
            kind = DDP_KIND_MSN_RANGE;
        else if (c_nobuf)
            kind = DDP_KIND_NO_BUF;
        else if (c_mo)
            kind = DDP_KIND_INV_MO;
        else if (c_long)
            kind = DDP_KIND_TOO_LONG;
    end
end
wire placed = kind == 4'd0;
wire deliver = s_inorder && placed && r_l;
wire need_desc = placed && nz_q;

// ------------------------------------------------------------------ events
wire place = vq_verdict == VERDICT_PLACE;
wire drop = vq_verdict == VERDICT_DROP;
wire second = drop || place;
wire [31:0] lseq = s_seq + {16'd0, s_lseq_w[13:0], 2'b00};
wire [31:0] key = r_t ? r_stag : r_msn;
wire [1:0]  qn = r_t ? 2'b00 : r_qn[1:0];

// the fields every event has: kind, context index, sequence number,
// end (or key), length
function [EVT_W-1:0] evt(input [3:0] k, input [IDX_BITS-1:0] idx, input [31:0] seq, input [31:0] e,
                         input [15:0] len);
    begin
        evt = {EVT_W{1'b0}};
        evt[EVT_KIND +: EVT_KIND_W] = k;
        evt[EVT_IDX +: IDX_BITS] = idx;
        evt[EVT_SEQ +: EVT_SEQ_W] = seq;
        evt[EVT_END +: EVT_END_W] = e;
        evt[EVT_LEN +: EVT_LEN_W] = len;
    end
endfunction
reg [EVT_W-1:0] ev_verdict, ev_second, ev_fpdu, ev_deliv;
always @* begin
    ev_verdict = evt(EVT_KIND_VERDICT, vq_idx, vq_seq, vq_end, vq_plen);
    ev_verdict[EVT_VERDICT +: EVT_VERDICT_W] = vq_verdict;
    ev_verdict[EVT_REASON +: EVT_REASON_W] = vq_reason;
    if (drop) begin
        ev_second = evt(EVT_KIND_DROP, vq_idx, vq_seq, vq_end, vq_plen);
        ev_second[EVT_DROP +: EVT_DROP_W] = vq_drop;
    end else begin
        ev_second = vq_inorder ? evt(EVT_KIND_ADVANCED, vq_idx, vq_seq, vq_adv, vq_plen) :
                                 evt(EVT_KIND_CONSUMED, vq_idx, vq_seq, vq_end, vq_plen);
        ev_second[EVT_NRFC +: EVT_NRFC_W] = vq_nrfc;
        ev_second[EVT_NDRAFT +: EVT_NDRAFT_W] = vq_ndraft;
    end
    ev_fpdu = evt(placed ? EVT_KIND_PLACED : EVT_KIND_DDP_ERROR, s_idx, lseq, key, s_ulen);
    ev_fpdu[EVT_CTRL +: EVT_CTRL_W] = s_ctrl;
    ev_fpdu[EVT_DDP_KIND +: EVT_DDP_KIND_W] = kind;
    ev_fpdu[EVT_QN +: EVT_QN_W] = qn;
    ev_deliv = evt(EVT_KIND_DELIVERED, s_idx, lseq, key, s_ulen);
    ev_deliv[EVT_CTRL +: EVT_CTRL_W] = s_ctrl;
    ev_deliv[EVT_QN +: EVT_QN_W] = qn;
end

// the token of a frame: its verdict record's verdict, reason and beats
/* verilator lint_off UNUSEDSIGNAL */
function [TOK_W-1:0] tok(input [15:0] ndesc, input [VQ_W-1:0] v);
    begin
        tok[TOK_VERDICT +: TOK_VERDICT_W] = v[VQ_VERDICT +: VQ_VERDICT_W];
        tok[TOK_REASON +: TOK_REASON_W] = v[VQ_REASON +: VQ_REASON_W];
        tok[TOK_BEATS +: TOK_BEATS_W] = v[VQ_BEATS +: VQ_BEATS_W];
        tok[TOK_NDESC +: TOK_NDESC_W] = ndesc;
    end
endfunction
/* verilator lint_on UNUSEDSIGNAL */

reg [DESC_W-1:0] desc;
always @* begin
    desc[DESC_ADDR +: DESC_ADDR_W] = dest;
    desc[DESC_LEN +: DESC_LEN_W] = n;
    desc[DESC_OFF +: DESC_OFF_W] = o_s;
    desc[DESC_MPH +: DESC_MPH_W] = s_mph;
    desc[DESC_MARKERS] = s_mk;
end
assign desc_data = desc;

generate
if (EVT_LANES == 1) begin : g_one
    // ------------------------------------------------------------ control, one lane
    // phases: 0 VERDICT, 1 second event, 2 records: lookup, 3 records:
    // checks, 4 records: FPDU event, 5 DELIVERED
    localparam [2:0] P_VERDICT = 3'd0, P_SECOND = 3'd1, P_LOOKUP = 3'd2, P_CHECK = 3'd3, P_FPDU = 3'd4,
                     P_DELIV = 3'd5;
    reg [2:0]  ph;
    reg [15:0] left;        // records of the frame still to take
    reg [15:0] ndesc;       // descriptors given for the frame
    reg [15:0] ndesc1;      // and that plus one

    assign l_vq = vq_data;
    assign s_vq = vq_data;
    assign s_lseq_w = rec_lseq_w;
    assign s_ulen = rec_ulen;
    assign s_ctrl = rec_ctrl;
    assign s_hdr = rec_hdr;
    assign lk_en = ph == P_LOOKUP;
    assign ck_en = ph == P_CHECK;
    assign fwd = 1'b0;   // the update is in the DELIVERED cycle, before the next lookup
    assign o_en = lk_en;

    // (the token and descriptor FIFOs are sized never to fill; the events wait
    // for them all the same)
    assign m_evt_tvalid = vq_valid && tok_ready &&
                          (ph == P_VERDICT || ph == P_SECOND || (ph == P_FPDU && (!need_desc || desc_ready)) ||
                           ph == P_DELIV);
    assign m_evt_tdata = ph == P_VERDICT ? ev_verdict : ph == P_SECOND ? ev_second : ph == P_FPDU ? ev_fpdu : ev_deliv;
    assign m_evt_tkeep = 16'hffff;
    wire evt_ok = m_evt_tvalid && m_evt_tready;

    // record handshakes
    wire discard = vq_valid && ph == P_LOOKUP && !place && left != 16'd0 && rec_valid;
    wire fpdu_done = vq_valid && ph == P_FPDU && evt_ok;
    wire deliv_done = vq_valid && ph == P_DELIV && evt_ok;
    assign rec_ready = discard || (fpdu_done && !deliver) || deliv_done;
    assign desc_valid = fpdu_done && need_desc;
    assign busy = deliv_done && !r_t;

    // the frame ends in E1 (token to E2) in its last cycle
    wire last_rec = left == 16'd1;
    reg  fin;
    always @* begin
        fin = 1'b0;
        case (ph)
        P_VERDICT: fin = evt_ok && !second && vq_nrec == 16'd0;
        P_SECOND: fin = evt_ok && vq_nrec == 16'd0;
        P_LOOKUP: fin = left == 16'd0 || (!place && discard && last_rec);
        P_FPDU: fin = fpdu_done && !deliver && last_rec;
        P_DELIV: fin = deliv_done && last_rec;
        default: fin = 1'b0;
        endcase
    end
    wire fin_ok = vq_valid && fin && tok_ready;
    assign tok_valid = vq_valid && fin;
    assign tok_data = tok((ph == P_FPDU && need_desc) ? ndesc1 : ndesc, vq_data);
    assign vq_ready = fin_ok;

    always @(posedge clk) begin
        if (vq_valid) begin
            case (ph)
            P_VERDICT: if (evt_ok) begin
                left <= vq_nrec;
                ndesc <= 16'd0;
                ndesc1 <= 16'd1;
                if (second)
                    ph <= P_SECOND;
                else if (vq_nrec != 16'd0)
                    ph <= P_LOOKUP;
            end
            P_SECOND: if (evt_ok && vq_nrec != 16'd0)
                ph <= P_LOOKUP;
            P_LOOKUP: begin
                if (place) begin
                    if (rec_valid)
                        ph <= P_CHECK;     // the lookup is made this cycle
                end else if (discard)
                    left <= left - 16'd1;
            end
            P_CHECK: ph <= P_FPDU;
            P_FPDU: if (fpdu_done) begin
                if (need_desc) begin
                    ndesc <= ndesc1;
                    ndesc1 <= ndesc1 + 16'd1;
                end
                if (deliver)
                    ph <= P_DELIV;
                else begin
                    left <= left - 16'd1;
                    ph <= P_LOOKUP;
                end
            end
            P_DELIV: if (deliv_done) begin
                left <= left - 16'd1;
                ph <= P_LOOKUP;
            end
            default: ph <= P_VERDICT;
            endcase
            if (fin_ok)
                ph <= P_VERDICT;
        end
        if (rst) begin
            ph <= P_VERDICT;
            left <= 16'd0;
            ndesc <= 16'd0;
            ndesc1 <= 16'd1;
        end
    end

`ifdef VERILATOR
    // Assertions (Verilator --assert; docs/robustness.md): a frame takes
    // exactly its vq_nrec records (discarded or looked up), never one from an
    // empty record FIFO; the record looked up stays at the head until its
    // event.
    reg [15:0] a_taken;     // records taken of the frame at the head
    wire       a_take = rec_ready && rec_valid;
    always @(posedge clk) begin
        if (a_take)
            a_taken <= a_taken + 16'd1;
        if (vq_ready)
            a_taken <= 16'd0;
        if (rst)
            a_taken <= 16'd0;
    end
    always @(posedge clk) begin
        if (!rst) begin
            assert (!a_take || a_taken < vq_nrec)
                else $error("mpa_rx_ddp: record %0d taken for a frame of %0d records", a_taken + 16'd1, vq_nrec);
            assert (!vq_ready || a_taken + (a_take ? 16'd1 : 16'd0) == vq_nrec)
                else $error("mpa_rx_ddp: frame done with %0d of its %0d records taken", a_taken + (a_take ? 16'd1 : 16'd0), vq_nrec);
            assert (!(vq_valid && (ph == P_CHECK || ph == P_FPDU || ph == P_DELIV)) || rec_valid)
                else $error("mpa_rx_ddp: record looked up is gone");
            assert (ph <= P_DELIV) else $error("mpa_rx_ddp: phase %0d", ph);
        end
    end
`endif
end else begin : g_wide
    // ------------------------------------------------------------ control, two lanes
    // cf: the current frame, taken from the verdict queue with its VERDICT
    // beat, until its last record's beat or discard. The record stage rs:
    // 0 empty, 1 looked up (its checks this cycle), 2 checked (its beat
    // can go); rs_cf: the record is cf's (else the verdict queue head's,
    // looked up before the head's VERDICT beat; pre marks that).
    reg        cf_v, cf_place, cf_more;
    reg [15:0] cf_left;     // cf's records not yet taken (looked up or discarded)
    reg [VQ_W-1:0] cf;      // cf's verdict record
    reg [1:0]  rs;
    reg        rs_cf, pre;
    reg [15:0] ndesc, ndesc1;
    // the record stage's copy of the record and of its frame's verdict record
    reg [15:0]  g_lseq_w, g_ulen;
    reg [7:0]   g_ctrl;
    reg [127:0] g_hdr;
    reg [VQ_W-1:0] g_vq;

    wire pd_go = cf_v && rs == 2'd2 && rs_cf;           // the record's beat
    wire vs_go = !cf_v && vq_valid;                     // the head frame's VERDICT beat
    assign m_evt_tvalid = tok_ready && (pd_go ? (!need_desc || desc_ready) : vs_go);
    wire evt_ok = m_evt_tvalid && m_evt_tready;
    wire pd_ok = pd_go && evt_ok;
    wire vs_ok = !cf_v && evt_ok;
    assign m_evt_tdata = pd_go ? {ev_deliv, ev_fpdu} : {ev_second, ev_verdict};
    assign m_evt_tkeep = {{16{pd_go ? deliver : second}}, 16'hffff};

    // lookups: cf's next record, or the head frame's first (cf has taken
    // all its records) when the record stage is free or frees this cycle
    wire slot_free = rs == 2'd0 || (rs == 2'd2 && pd_ok);
    wire lk_cf = cf_v && cf_place && cf_more;
    wire lk_head = vq_valid && place && vq_nrec != 16'd0 && !pre && !(cf_v && cf_more);
    wire lk = rec_valid && slot_free && (lk_cf || lk_head);
    wire disc = cf_v && !cf_place && cf_more && rec_valid && tok_ready;
    assign rec_ready = lk || disc;
    assign lk_en = lk;
    assign ck_en = rs == 2'd1;
    assign busy = pd_ok && deliver && !r_t;
    assign fwd = busy && u_addr == q_addr;
    assign desc_valid = pd_ok && need_desc;

    wire   l_cf = cf_v && cf_more;     // (else the head's first record: cf, if any, ends this cycle)
    assign l_vq = l_cf ? cf : vq_data;
    assign o_en = ck_en;
    assign s_vq = g_vq;
    assign s_lseq_w = g_lseq_w;
    assign s_ulen = g_ulen;
    assign s_ctrl = g_ctrl;
    assign s_hdr = g_hdr;

    // the frame ends in E1 with its VERDICT beat (no records), its last
    // record's beat or its last discard
    wire took = pre || (lk && lk_head);
    wire [15:0] vq_nrec_m1 = vq_nrec - 16'd1;
    wire fin_vs = vs_ok && vq_nrec == 16'd0;
    wire fin_rec = (pd_ok && !cf_more) || (disc && cf_left == 16'd1);
    assign tok_valid = fin_vs || fin_rec;
    assign tok_data = fin_vs ? tok(16'd0, vq_data) : tok((pd_go && need_desc) ? ndesc1 : ndesc, cf);
    assign vq_ready = vs_ok;

    always @(posedge clk) begin
        if (ck_en)
            rs <= 2'd2;
        if (pd_ok) begin
            rs <= 2'd0;
            if (need_desc) begin
                ndesc <= ndesc1;
                ndesc1 <= ndesc1 + 16'd1;
            end
        end
        if (lk) begin
            rs <= 2'd1;
            rs_cf <= lk_cf;
            if (lk_head)
                pre <= 1'b1;
            g_lseq_w <= rec_lseq_w;
            g_ulen <= rec_ulen;
            g_ctrl <= rec_ctrl;
            g_hdr <= rec_hdr;
            g_vq <= l_vq;
        end
        if ((lk && lk_cf) || disc) begin
            cf_left <= cf_left - 16'd1;
            cf_more <= cf_left != 16'd1;
        end
        if (fin_rec)
            cf_v <= 1'b0;
        if (vs_ok) begin
            cf_v <= vq_nrec != 16'd0;
            cf_place <= place;
            cf_left <= took ? vq_nrec_m1 : vq_nrec;   // the subtract off the handshake path
            cf_more <= took ? vq_nrec != 16'd1 : vq_nrec != 16'd0;
            cf <= vq_data;
            ndesc <= 16'd0;
            ndesc1 <= 16'd1;
            pre <= 1'b0;
            if (took)
                rs_cf <= 1'b1;
        end
        if (rst) begin
            cf_v <= 1'b0;
            cf_more <= 1'b0;
            cf_left <= 16'd0;
            rs <= 2'd0;
            pre <= 1'b0;
            ndesc <= 16'd0;
            ndesc1 <= 16'd1;
        end
    end

`ifdef VERILATOR
    // Assertions (Verilator --assert; docs/robustness.md): cf takes exactly
    // its vq_nrec records; a beat of a record is never offered before its
    // frame's VERDICT beat; the record stage is never overwritten.
    always @(posedge clk) begin
        if (!rst) begin
            assert (!(lk && rs == 2'd1)) else $error("mpa_rx_ddp: lookup while a record is checked");
            assert (!(lk && rs == 2'd2 && !pd_ok)) else $error("mpa_rx_ddp: lookup over a record that waits");
            assert (!(cf_v && !cf_more && cf_place && rs == 2'd0))
                else $error("mpa_rx_ddp: frame without its last record");
            assert (!(pre && !(vq_valid && place))) else $error("mpa_rx_ddp: record looked up for no PLACE frame");
            assert (!(rs != 2'd0 && !rs_cf && !pre)) else $error("mpa_rx_ddp: record of no frame");
            assert (!(fin_rec && (rs_cf && rs == 2'd1))) else $error("mpa_rx_ddp: frame ends before its last record");
        end
    end
`endif
end
endgenerate

// ------------------------------------------------------------------ table writes
always @(posedge clk) begin
    if (cfg_valid && !busy && cfg_op == CFG_OP_STAG)
        stag_ram[cfg_index[SB-1:0]] <= st_word(cfg_data);
    if (cfg_valid && !busy && cfg_op == CFG_OP_POST)
        buf_ram[{cfg_index[IDX_BITS-1:0], cfg_data[RBUF_QN +: RBUF_QN_W], cfg_data[RBUF_MSN +: RB]}] <= rq_word(cfg_data);
    if (busy)
        msn_ram[u_addr] <= cur_q + 32'd1;
    else if (cfg_valid && cfg_op == CFG_OP_MSN)
        msn_ram[{cfg_index[IDX_BITS-1:0], cfg_data[QMSN_QN +: QMSN_QN_W]}] <= cfg_data[QMSN_MSN +: QMSN_MSN_W];
end

wire unused = &{1'b0, r_qn[31:2], cfg_index, cfg_data, h_stag, h_msn, msn_d[30:0], rec_lseq_w[15:14],
                 s_lseq_w[15:14], dest_h1_w[33], dest_h1_w[0], vq_data, l_vq, s_vq};

`ifdef VERILATOR
// Assertions (Verilator --assert; docs/robustness.md): never a record from
// an empty record FIFO nor a frame from an empty verdict queue; no
// configuration write arrives while a receive-queue update holds the port;
// the descriptor FIFO is never written full.
always @(posedge clk) begin
    if (!rst) begin
        assert (!rec_ready || rec_valid) else $error("mpa_rx_ddp: record FIFO read when empty");
        assert (!vq_ready || vq_valid) else $error("mpa_rx_ddp: verdict queue read when empty");
        assert (!(cfg_valid && busy)) else $error("mpa_rx_ddp: configuration write while a receive queue is updated");
        assert (!desc_valid || desc_ready) else $error("mpa_rx_ddp: descriptor FIFO full");
    end
end
`endif

`ifdef FORMAL
// ------------------------------------------------------------------ formal
// Proven by `make formal` (docs/robustness.md, "Formal proofs"). With the
// verdict queue and the record FIFO following the AXI4-Stream sender's
// rules (assumed) and the token and descriptor FIFOs never full (assumed:
// mpa_rx sizes them so), and for an arbitrary STag table index (f_si) and
// receive buffer {context, QN, MSN mod RQ_DEPTH} (f_bi), whose entries the
// properties model from the configuration writes alone (docs/design.md
// section 4's cfg_data layouts):
//   - each record belongs to one frame: a frame takes exactly its vq_nrec
//     records, in order, none before it is at the queue's head (one lane)
//     or taken (two lanes), none after its token;
//   - a PLACED event and a placement descriptor only for a record of a
//     PLACE frame that passes every check against the entry its lookup
//     read: a valid STag equal to the record's, of the frame's stream,
//     and TO + n within the STag's length without wrap; or a QN up to 2,
//     an MSN from the queue's current MSN on (mod 2^32, less than 2^31
//     ahead), a valid posted buffer of that MSN and stream, and MO + n
//     within its length; the event's kind is the first failing check in
//     golden/ddp's order (DDP_ERROR), or PLACED;
//   - the descriptor's host range [d, d + n) lies inside that entry's
//     [base, base + length), n is the payload length, and its first octet
//     is not a marker's;
//   - a DELIVERED event of an untagged message advances the queue's
//     current MSN by one; nothing else but a configuration write changes it;
//   - one token per frame, in order, with the frame's verdict, reason and
//     beats and the number of descriptors made for it;
//   - m_evt follows the AXI4-Stream sender's rules.
reg f_past_valid = 1'b0;
always @(posedge clk)
    f_past_valid <= 1'b1;
always @*
    if (!f_past_valid)
        assume (rst);

// the frame at the verdict queue's head: its verdict record
wire [VQ_W-1:0] f_head = vq_data;
localparam RB_LSEQ = 0, RB_ULEN = 16, RB_CTRL = 32, RB_HDR = 40, RB_W = 168;
wire [RB_W-1:0] f_rhead = {rec_hdr, rec_ctrl, rec_ulen, rec_lseq_w};

// environment: the two FIFOs in front follow the sender's rules; the two
// behind never fill
wire [15:0] f_vq_wait, f_rec_wait, f_evt_wait;
wire f_vq_held, f_rec_held, f_evt_held;
mpa_rx_faxis #(.WIDTH(VQ_W), .F_DUT_SENDS(0)) f_vq (
    .clk(clk), .rst(rst), .tdata(f_head), .tvalid(vq_valid), .tready(vq_ready), .f_wait(f_vq_wait),
    .f_held(f_vq_held));
mpa_rx_faxis #(.WIDTH(RB_W), .F_DUT_SENDS(0)) f_rec (
    .clk(clk), .rst(rst), .tdata(f_rhead), .tvalid(rec_valid), .tready(rec_ready), .f_wait(f_rec_wait),
    .f_held(f_rec_held));
mpa_rx_faxis #(.WIDTH(EVT_LANES * 144), .F_DUT_SENDS(1)) f_evt (
    .clk(clk), .rst(rst), .tdata({m_evt_tkeep, m_evt_tdata}), .tvalid(m_evt_tvalid), .tready(m_evt_tready),
    .f_wait(f_evt_wait), .f_held(f_evt_held));
always @* begin
    assume (tok_ready);
    assume (desc_ready);
end

// ------------------------------------------------ records and their frames
// f_p: the frame taken last from the queue, with f_p_left of its records
// not yet taken; a record at the FIFO head belongs to it while f_p_left is
// not zero, else to the frame at the queue's head.
wire f_vq_take = vq_valid && vq_ready;
wire f_rec_take = rec_valid && rec_ready;
reg  [15:0] f_h_taken = 16'd0;      // records of the head frame taken
reg  [15:0] f_p_left = 16'd0;
reg  [VQ_W-1:0] f_p;
reg  f_p_tok = 1'b0;                // f_p still waits for its token
wire f_own_p = f_p_left != 16'd0;
wire [VQ_W-1:0] f_own = f_own_p ? f_p : f_head;
wire f_take_h = f_rec_take && !f_own_p;
always @(posedge clk) begin
    if (f_rec_take) begin
        if (f_own_p)
            f_p_left <= f_p_left - 16'd1;
        else
            f_h_taken <= f_h_taken + 16'd1;
    end
    if (tok_valid && !f_vq_take)
        f_p_tok <= 1'b0;
    if (f_vq_take) begin
        f_p <= f_head;
        f_p_left <= vq_nrec - f_h_taken - {15'd0, f_take_h};
        f_p_tok <= !tok_valid;
        f_h_taken <= 16'd0;
    end
    if (rst) begin
        f_h_taken <= 16'd0;
        f_p_left <= 16'd0;
        f_p_tok <= 1'b0;
    end
end
always @* begin
    if (!rst) begin
        // no record without a frame, none beyond a frame's vq_nrec
        assert (!f_rec_take || f_own_p || vq_valid);
        assert (!vq_valid || f_h_taken + {15'd0, f_take_h} <= vq_nrec);
        // a frame is taken only when the one before has all its records
        // and its token
        assert (!f_vq_take || (f_p_left == 16'd0 && !f_p_tok));
        // its token comes when all its records are taken
        assert (!(tok_valid && f_vq_take) || f_h_taken + {15'd0, f_take_h} == vq_nrec);
        assert (!(tok_valid && !f_vq_take) || (f_p_tok && f_p_left == {15'd0, f_rec_take && f_own_p}));
        assert (!f_p_tok || EVT_LANES == 2);
        assert (f_p_left == 16'd0 || f_p_tok);
    end
end

// ------------------------------------------------ the tables, modelled
(* anyconst *) reg [SB-1:0] f_si;
(* anyconst *) reg [BA-1:0] f_bi;
wire [QA-1:0] f_qi = f_bi[BA-1:RB];
// STag entry f_si, buffer f_bi, current MSN of queue f_qi
reg        fe_valid;
reg [31:0] fe_stag;
reg [11:0] fe_stream;
reg [63:0] fe_base, fe_len;
reg        fb_valid;
reg [31:0] fb_msn;
reg [11:0] fb_stream;
reg [63:0] fb_base;
reg [31:0] fb_len;
reg [31:0] fc_msn;
wire f_cfg = cfg_valid && !busy;
// a DELIVERED event of an untagged message on queue f_qi: lane 0 with one
// lane, lane 1 of a record's beat with two
wire [127:0] f_dl_ev = EVT_LANES == 1 ? m_evt_tdata[127:0] : m_evt_tdata[EVT_LANES*128-1 -: 128];
wire         f_dl_on = EVT_LANES == 1 ? 1'b1 : m_evt_tkeep[EVT_LANES*16-1];
wire f_dl = m_evt_tvalid && m_evt_tready && f_dl_on && f_dl_ev[EVT_KIND +: EVT_KIND_W] == EVT_KIND_DELIVERED && !f_dl_ev[EVT_CTRL + DDPC_T];
wire [QA-1:0] f_dl_q = {f_dl_ev[EVT_IDX +: IDX_BITS], f_dl_ev[EVT_QN +: EVT_QN_W]};
reg  [31:0] f_lk_c;     // the current MSN the record's lookup read
wire [31:0] fc_next = f_dl && f_dl_q == f_qi ? f_lk_c + 32'd1 : fc_msn;
always @(posedge clk) begin
    if (f_cfg && cfg_op == CFG_OP_STAG && cfg_index[SB-1:0] == f_si) begin
        fe_valid <= cfg_data[STAG_VALID];
        fe_stag <= cfg_data[STAG_STAG +: STAG_STAG_W];
        fe_stream <= cfg_data[STAG_STREAM +: STAG_STREAM_W];
        fe_base <= cfg_data[STAG_BASE +: STAG_BASE_W];
        fe_len <= cfg_data[STAG_LEN +: STAG_LEN_W];
    end
    if (f_cfg && cfg_op == CFG_OP_POST && {cfg_index[IDX_BITS-1:0], cfg_data[RBUF_QN +: RBUF_QN_W], cfg_data[RBUF_MSN +: RB]} == f_bi) begin
        fb_valid <= cfg_data[RBUF_VALID];
        fb_msn <= cfg_data[RBUF_MSN +: RBUF_MSN_W];
        fb_stream <= cfg_data[RBUF_STREAM +: RBUF_STREAM_W];
        fb_base <= cfg_data[RBUF_BASE +: RBUF_BASE_W];
        fb_len <= cfg_data[RBUF_LEN +: RBUF_LEN_W];
    end
    fc_msn <= fc_next;
    if (f_cfg && cfg_op == CFG_OP_MSN && {cfg_index[IDX_BITS-1:0], cfg_data[QMSN_QN +: QMSN_QN_W]} == f_qi)
        fc_msn <= cfg_data[QMSN_MSN +: QMSN_MSN_W];
end
// the tables hold what the model says. They start with any content, and
// the first (reset) cycle, from registers without a reset value, may write
// them too: the model starts equal to them after it.
reg f_past2_valid = 1'b0;
always @(posedge clk)
    f_past2_valid <= f_past_valid;
wire f_tables = stag_ram[f_si] == {fe_valid, fe_stag, fe_stream, fe_base, fe_len} &&
                buf_ram[f_bi] == {fb_valid, fb_msn, fb_stream, fb_base, fb_len} &&
                msn_ram[f_qi] == fc_msn;
always @* begin
    if (f_past_valid && !f_past2_valid)
        assume (f_tables);
    else if (f_past2_valid)
        assert (f_tables);
end

// ------------------------------------------------ what a lookup read
// In the lookup cycle (lk_en with a record at the head): the record, its
// frame, and the modelled entries it reads (the current MSN with this
// cycle's DELIVERED update, which the lookup sees).
reg [RB_W-1:0] f_r;
reg [VQ_W-1:0] f_rf;
reg        f_r_te, f_r_tb, f_r_tq;  // the record reads the tracked STag / buffer / queue
reg        f_le_valid;
reg [31:0] f_le_stag;
reg [11:0] f_le_stream;
reg [63:0] f_le_base, f_le_len;
reg        f_lb_valid;
reg [31:0] f_lb_msn;
reg [11:0] f_lb_stream;
reg [63:0] f_lb_base;
reg [31:0] f_lb_len;
wire f_lk = lk_en && rec_valid;
always @(posedge clk) begin
    if (f_lk) begin
        f_r <= f_rhead;
        f_rf <= f_own;
        f_r_te <= h_stag[8 +: SB] == f_si;
        f_r_tb <= {f_own[VQ_IDX +: IDX_BITS], h_qn[1:0], h_msn[RB-1:0]} == f_bi;
        f_r_tq <= {f_own[VQ_IDX +: IDX_BITS], h_qn[1:0]} == f_qi;
        {f_le_valid, f_le_stag, f_le_stream, f_le_base, f_le_len} <= {fe_valid, fe_stag, fe_stream, fe_base, fe_len};
        {f_lb_valid, f_lb_msn, f_lb_stream, f_lb_base, f_lb_len} <= {fb_valid, fb_msn, fb_stream, fb_base, fb_len};
        f_lk_c <= fc_next;
    end
end

// ------------------------------------------------ the checks, from the spec
wire [15:0]  fs_lseq_w = f_r[RB_LSEQ +: 16];
wire [15:0]  fs_ulen = f_r[RB_ULEN +: 16];
wire [7:0]   fs_ctrl = f_r[RB_CTRL +: 8];
wire [127:0] fs_hdr = f_r[RB_HDR +: 128];
wire         fs_t = fs_ctrl[DDPC_T];
wire [31:0]  fs_stag = fs_hdr[DDPH_STAG +: DDPH_STAG_W];
wire [63:0]  fs_to = fs_hdr[DDPH_TO +: DDPH_TO_W];
wire [31:0]  fs_qn = fs_hdr[DDPH_QN +: DDPH_QN_W];
wire [31:0]  fs_msn = fs_hdr[DDPH_MSN +: DDPH_MSN_W];
wire [31:0]  fs_mo = fs_hdr[DDPH_MO +: DDPH_MO_W];
wire [15:0]  fs_hl = fs_t ? 16'd14 : 16'd18;
wire         fs_short = fs_ulen < fs_hl;
wire [15:0]  fs_n = fs_ulen - fs_hl;
wire         fs_dv_bad = fs_ctrl[DDPC_DV +: DDPC_DV_W] != f_rf[VQ_DDP_VER +: 2];
wire [11:0]  fs_stream = f_rf[VQ_STREAM +: 12];
wire [64:0]  fs_tend = {1'b0, fs_to} + {49'd0, fs_n};          // TO + n
wire [32:0]  fs_uend = {1'b0, fs_mo} + {17'd0, fs_n};          // MO + n
wire [31:0]  fs_ahead = fs_msn - f_lk_c;                        // MSN - current MSN
reg  [3:0]   fs_kind;
always @* begin
    if (fs_short)
        fs_kind = DDP_KIND_SHORT;
    else if (fs_t)
        fs_kind = fs_dv_bad ? DDP_KIND_T_VERSION :
                  !f_le_valid || f_le_stag != fs_stag ? DDP_KIND_INV_STAG :
                  f_le_stream != fs_stream ? DDP_KIND_NOT_ASSOC :
                  fs_n != 16'd0 && fs_tend > {1'b1, 64'd0} ? DDP_KIND_TO_WRAP :
                  fs_tend > {1'b0, f_le_len} ? DDP_KIND_BOUNDS : 4'd0;
    else
        fs_kind = fs_dv_bad ? DDP_KIND_U_VERSION :
                  fs_qn > 32'd2 ? DDP_KIND_INV_QN :
                  fs_ahead[31] ? DDP_KIND_MSN_RANGE :
                  !f_lb_valid || f_lb_msn != fs_msn || f_lb_stream != fs_stream ? DDP_KIND_NO_BUF :
                  fs_mo > f_lb_len ? DDP_KIND_INV_MO :
                  fs_uend > {1'b0, f_lb_len} ? DDP_KIND_TOO_LONG : 4'd0;
end
wire fs_tracked = fs_t ? f_r_te : f_r_tb;

// the FPDU event: lane 0 of a beat, PLACED or DDP_ERROR
wire [127:0] f_ev = m_evt_tdata[127:0];
wire f_fpdu_ev = m_evt_tvalid && m_evt_tready && (f_ev[EVT_KIND +: EVT_KIND_W] == EVT_KIND_PLACED || f_ev[EVT_KIND +: EVT_KIND_W] == EVT_KIND_DDP_ERROR);
wire f_placed = f_ev[EVT_KIND +: EVT_KIND_W] == EVT_KIND_PLACED;
// the descriptor
wire [63:0] fd_d = desc_data[DESC_ADDR +: DESC_ADDR_W];
wire [15:0] fd_n = desc_data[DESC_LEN +: DESC_LEN_W];
wire [15:0] fd_os = desc_data[DESC_OFF +: DESC_OFF_W];
wire [8:0]  fd_mph = desc_data[DESC_MPH +: DESC_MPH_W];
wire        fd_mk = desc_data[DESC_MARKERS];
wire [63:0] f_base = fs_t ? f_le_base : f_lb_base;
wire [63:0] f_len = fs_t ? f_le_len : {32'd0, f_lb_len};
wire [63:0] f_off = fd_d - f_base;                            // the descriptor's offset in the entry
wire [8:0]  f_os_ph = fd_os[8:0] - fd_mph;                    // its first octet's place in the marker grid
always @* begin
    if (!rst) begin
        if (f_fpdu_ev) begin
            // an FPDU event only for a record of a PLACE frame, with its fields
            assert (f_rf[VQ_VERDICT +: 2] == VERDICT_PLACE);
            assert (f_ev[EVT_SEQ +: EVT_SEQ_W] == f_rf[VQ_SEQ +: 32] + {16'd0, fs_lseq_w[13:0], 2'b00});
            assert (f_ev[EVT_IDX +: IDX_BITS] == f_rf[VQ_IDX +: IDX_BITS]);
            assert (f_ev[EVT_LEN +: EVT_LEN_W] == fs_ulen && f_ev[EVT_CTRL +: EVT_CTRL_W] == fs_ctrl);
            assert (f_ev[EVT_KEY +: EVT_KEY_W] == (fs_t ? fs_stag : fs_msn));
            if (fs_tracked)
                assert (f_ev[EVT_DDP_KIND +: EVT_DDP_KIND_W] == fs_kind && f_placed == (fs_kind == 4'd0));
        end
        // a descriptor only with a PLACED event of a payload
        assert (!desc_valid || (f_fpdu_ev && f_placed && fs_n != 16'd0));
        assert (!(f_fpdu_ev && f_placed && fs_n != 16'd0) || desc_valid);
        if (desc_valid) begin
            assert (fd_n == fs_n);
            assert (fd_mk == f_rf[VQ_MARKERS] && fd_mph == f_rf[VQ_MPH +: 9]);
            // the first payload octet is not a marker's
            assert (!fd_mk || f_os_ph >= 9'd4);
            if (fs_tracked) begin
                // the entry: valid, this STag of this stream; or a posted
                // buffer of this MSN and stream, the MSN in the queue's range
                if (fs_t)
                    assert (f_le_valid && f_le_stag == fs_stag && f_le_stream == fs_stream);
                else
                    assert (fs_qn <= 32'd2 && !fs_ahead[31] && f_lb_valid && f_lb_msn == fs_msn &&
                            f_lb_stream == fs_stream);
                // [d, d + n) inside [base, base + length)
                assert ({1'b0, f_off} + {49'd0, fd_n} <= {1'b0, f_len});
                assert (f_off == (fs_t ? fs_to : {32'd0, fs_mo}));
            end
        end
    end
end

// ------------------------------------------------ tokens
reg [15:0] f_nd = 16'd0;        // descriptors since the last token
always @(posedge clk) begin
    if (tok_valid)
        f_nd <= 16'd0;
    else if (desc_valid)
        f_nd <= f_nd + 16'd1;
    if (rst)
        f_nd <= 16'd0;
end
wire [VQ_W-1:0] f_tf = f_vq_take ? f_head : f_p;      // the frame a token is for
always @*
    if (!rst && tok_valid) begin
        // (a token's descriptor count is defined for PLACE frames only)
        if (tok_data[TOK_VERDICT +: TOK_VERDICT_W] == VERDICT_PLACE)
            assert (tok_data[TOK_NDESC +: TOK_NDESC_W] == f_nd + {15'd0, desc_valid});
        assert (tok_data[TOK_BEATS +: TOK_BEATS_W] == f_tf[VQ_BEATS +: 16]);
        assert (tok_data[TOK_REASON +: TOK_REASON_W] == f_tf[VQ_REASON +: 4] && tok_data[TOK_VERDICT +: TOK_VERDICT_W] == f_tf[VQ_VERDICT +: 2]);
    end


// ------------------------------------------------ induction invariants
// What the registers hold between a record's lookup and its event: the
// record and its frame wait at the FIFO heads, the lookups read the
// modelled entries, each check register what its inputs give.
wire f_checked;     // the check registers hold the checks of the record at hand
generate
if (EVT_LANES == 1) begin : f_one
    wire [2:0] ph = g_one.ph;
    wire in_rec = ph == 3'd2 || ph == 3'd3 || ph == 3'd4 || ph == 3'd5;   // lookup to DELIVERED
    wire looked = ph == 3'd3 || ph == 3'd4 || ph == 3'd5;                 // check to DELIVERED
    assign f_checked = ph == 3'd4 || ph == 3'd5;
    always @* begin
        if (!rst) begin
            assert (ph <= 3'd5);
            assert (g_one.ndesc1 == g_one.ndesc + 16'd1);
            assert (f_p_left == 16'd0 && !f_p_tok);
            if (ph == 3'd0) begin
                assert (f_h_taken == 16'd0 && f_nd == 16'd0);
            end else begin
                assert (f_vq_held);
                assert (f_nd == g_one.ndesc);
            end
            if (ph == 3'd1)
                assert (f_h_taken == 16'd0 && g_one.left == vq_nrec);
            if (in_rec)
                assert (f_h_taken + g_one.left == vq_nrec && g_one.left != 16'd0);
            if (looked) begin
                assert (f_rec_held && place);
                assert (f_r == f_rhead && f_rf == f_head);
                assert (f_r_te == (h_stag[8 +: SB] == f_si));
                assert (f_r_tb == ({vq_idx, h_qn[1:0], h_msn[RB-1:0]} == f_bi));
                if (f_r_te)
                    assert (st_q == {f_le_valid, f_le_stag, f_le_stream, f_le_base, f_le_len});
                assert (f_r_tq == ({vq_idx, h_qn[1:0]} == f_qi));
                if (f_r_tb)
                    assert (bf_q == {f_lb_valid, f_lb_msn, f_lb_stream, f_lb_base, f_lb_len});
                if (f_r_tq)
                    assert (cur_q == f_lk_c);
                assert (n == n_w[15:0] && short_q == n_w[16]);
                assert (nz_q == (h_t ? rec_ulen != 16'd14 : rec_ulen != 16'd18));
                assert (e_lo == e_lo_w && e_hi == e_hi_w && e_hi1 == {1'b0, e_hi_w} + 33'd1);
                assert (dv_bad_q == (h_dv != l_dv) && qn_bad_q == (h_qn > 32'd2));
                assert (o_s == o_s_w);
            end
            if (ph == 3'd5)
                assert (deliver && placed);
        end
    end
end

if (EVT_LANES == 2) begin : f_two
    wire [1:0] rs = g_wide.rs;
    wire       cf_v = g_wide.cf_v;
    wire       rs_cf = g_wide.rs_cf;
    wire       pre = g_wide.pre;
    assign f_checked = rs == 2'd2;
    // the record stage's copy of its record and of its frame's fields
    wire [RB_W-1:0] g_rec = {g_wide.g_hdr, g_wide.g_ctrl, g_wide.g_ulen, g_wide.g_lseq_w};
    always @* begin
        if (!rst) begin
            assert (rs != 2'd3);
            assert (g_wide.ndesc1 == g_wide.ndesc + 16'd1);
            // cf is the frame taken last while it waits for its token
            assert (cf_v == f_p_tok);
            if (cf_v) begin
                assert (f_nd == g_wide.ndesc);
                assert (g_wide.cf_left == f_p_left && g_wide.cf_more == (f_p_left != 16'd0));
                assert (g_wide.cf_place == (f_p[VQ_VERDICT +: 2] == VERDICT_PLACE));
                assert (g_wide.cf == f_p);
                // cf's last record is in the record stage until its beat
                assert (!(g_wide.cf_place && f_p_left == 16'd0) || (rs != 2'd0 && rs_cf));
                assert (g_wide.cf_place || rs == 2'd0 || !rs_cf);
            end else begin
                assert (f_nd == 16'd0 && f_p_left == 16'd0);
                assert (rs == 2'd0 || !rs_cf);
            end
            // a record looked up before its frame's VERDICT beat
            assert (pre == (rs != 2'd0 && !rs_cf));
            assert (f_h_taken == {15'd0, pre});
            if (pre)
                assert (f_vq_held && place && f_rf == f_head);
            if (rs != 2'd0 && rs_cf)
                assert (cf_v && f_rf == f_p);
            if (rs != 2'd0) begin
                assert (g_rec == f_r);
                assert (g_wide.g_vq == f_rf);
                assert (f_r_te == (fs_stag[8 +: SB] == f_si));
                assert (f_r_tb == ({f_rf[VQ_IDX +: IDX_BITS], fs_qn[1:0], fs_msn[RB-1:0]} == f_bi));
                assert (f_r_tq == ({f_rf[VQ_IDX +: IDX_BITS], fs_qn[1:0]} == f_qi));
                if (f_r_te)
                    assert (st_q == {f_le_valid, f_le_stag, f_le_stream, f_le_base, f_le_len});
                if (f_r_tb)
                    assert (bf_q == {f_lb_valid, f_lb_msn, f_lb_stream, f_lb_base, f_lb_len});
                if (f_r_tq)
                    assert (cur_q == f_lk_c);
                assert (n == fs_n && short_q == fs_short && nz_q == (fs_n != 16'd0));
                assert (e_lo == {1'b0, fs_t ? fs_to[31:0] : fs_mo} + {17'd0, fs_n});
                assert (e_hi == (fs_t ? fs_to[63:32] : 32'd0) && e_hi1 == {1'b0, e_hi} + 33'd1);
                assert (dv_bad_q == fs_dv_bad && qn_bad_q == (fs_qn > 32'd2));
            end
            if (rs == 2'd2)
                assert (o_s == o_s_w);
        end
    end
end
endgenerate

// the check registers, at one lane and at two: each what its inputs give
always @* begin
    if (!rst && f_checked) begin
        assert (c_stag == (!st_valid || st_stag != r_stag));
        assert (c_assoc == (st_stream != s_stream));
        assert (c_wrap == (nz_q && end_q[64] && end_q[63:0] != 64'd0));
        assert (cb_hi_gt == (end_q[64:32] > {1'b0, st_len[63:32]}));
        assert (cb_hi_eq == (end_q[64:32] == {1'b0, st_len[63:32]}));
        assert (cb_lo_gt == (end_q[31:0] > st_len[31:0]));
        assert (c_msn == msn_d[31]);
        assert (c_nobuf == (!bf_valid || bf_msn != r_msn || bf_stream != s_stream));
        assert (c_mo == (r_mo > bf_len));
        assert (c_long == (end_q[32:0] > {1'b0, bf_len}));
        assert (dest_lo == {1'b0, r_t ? st_base[31:0] : bf_base[31:0]} + {1'b0, r_t ? r_to[31:0] : r_mo});
        assert (dest_h0 == base_hi + off_hi);
        assert (dest_h1 == dest_h1_w[32:1]);
    end
end

// ------------------------------------------------ covers
always @* begin
    if (!rst) begin
        cover (desc_valid && fs_t && fs_tracked);
        cover (desc_valid && !fs_t && fs_tracked);
        cover (f_dl && f_dl_q == f_qi);
        cover (tok_valid && tok_data[TOK_NDESC +: TOK_NDESC_W] == 16'd2);
        cover (f_fpdu_ev && f_ev[EVT_DDP_KIND +: EVT_DDP_KIND_W] == DDP_KIND_SHORT);
        cover (f_fpdu_ev && fs_tracked && f_ev[EVT_DDP_KIND +: EVT_DDP_KIND_W] == DDP_KIND_INV_STAG);
        cover (f_fpdu_ev && fs_tracked && f_ev[EVT_DDP_KIND +: EVT_DDP_KIND_W] == DDP_KIND_BOUNDS);
        cover (f_fpdu_ev && fs_tracked && f_ev[EVT_DDP_KIND +: EVT_DDP_KIND_W] == DDP_KIND_NOT_ASSOC);
        cover (f_fpdu_ev && fs_tracked && f_ev[EVT_DDP_KIND +: EVT_DDP_KIND_W] == DDP_KIND_TO_WRAP);
        cover (f_fpdu_ev && fs_tracked && f_ev[EVT_DDP_KIND +: EVT_DDP_KIND_W] == DDP_KIND_T_VERSION);
        cover (f_fpdu_ev && fs_tracked && f_ev[EVT_DDP_KIND +: EVT_DDP_KIND_W] == DDP_KIND_INV_QN);
        cover (f_fpdu_ev && fs_tracked && f_ev[EVT_DDP_KIND +: EVT_DDP_KIND_W] == DDP_KIND_NO_BUF);
        cover (f_fpdu_ev && fs_tracked && f_ev[EVT_DDP_KIND +: EVT_DDP_KIND_W] == DDP_KIND_MSN_RANGE);
        cover (f_fpdu_ev && fs_tracked && f_ev[EVT_DDP_KIND +: EVT_DDP_KIND_W] == DDP_KIND_INV_MO);
        cover (f_fpdu_ev && fs_tracked && f_ev[EVT_DDP_KIND +: EVT_DDP_KIND_W] == DDP_KIND_TOO_LONG);
        cover (f_fpdu_ev && fs_tracked && f_ev[EVT_DDP_KIND +: EVT_DDP_KIND_W] == DDP_KIND_U_VERSION);
    end
end

`ifdef F_DDP_LIVE
`include "formal/mpa_rx_ddp_live.vh"
`endif
`endif

endmodule

`resetall
