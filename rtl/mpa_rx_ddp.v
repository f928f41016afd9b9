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
 * Latency: one cycle per event (while m_evt_tready), per record of a
 * PLACE frame a lookup cycle (table reads; the record's lengths) and a
 * check cycle (each check registered) before its event, one cycle per
 * record of any other frame.
 */
module mpa_rx_ddp #(
    parameter IDX_BITS = 4,
    parameter STAG_COUNT = 64,
    parameter RQ_DEPTH = 4
) (
    input  wire                clk,
    input  wire                rst,

    // frames from the verdict queue (FWFT)
    input  wire                f_valid,
    output wire                f_ready,
    input  wire [1:0]          f_verdict,
    input  wire [3:0]          f_reason,
    input  wire [1:0]          f_drop,
    input  wire [IDX_BITS-1:0] f_idx,
    input  wire [31:0]         f_seq,
    input  wire [31:0]         f_end,
    input  wire [15:0]         f_plen,
    input  wire [31:0]         f_adv,
    input  wire                f_inorder,
    input  wire [15:0]         f_nrec,
    input  wire [15:0]         f_beats,
    input  wire [11:0]         f_stream,
    input  wire [1:0]          f_dv,
    input  wire                f_mk,
    input  wire [8:0]          f_mph,
    input  wire [15:0]         f_p0,
    input  wire [7:0]          f_nrfc,    // PLACE: FPDUs by FPDUPTR form (mpa_rx_walk sum_nrfc)
    input  wire [7:0]          f_ndraft,  // and sum_ndraft, for ADVANCED / CONSUMED

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

    output wire [127:0]        m_evt_tdata,
    output wire                m_evt_tvalid,
    input  wire                m_evt_tready,

    // to E2
    output wire                tok_valid,
    input  wire                tok_ready,
    output wire [37:0]         tok_data,     // {ndesc, beats, reason, verdict}
    output wire                desc_valid,
    input  wire                desc_ready,
    output wire [105:0]        desc_data     // {mk, mph, o_s, n, d}
);

localparam [1:0] V_PLACE = 2'd0, V_DROP = 2'd2;
localparam [3:0] E_PLACED = 4'd1, E_DDP_ERROR = 4'd2, E_DELIVERED = 4'd3, E_DROP = 4'd4,
                 E_ADVANCED = 4'd5, E_CONSUMED = 4'd6, E_VERDICT = 4'd7;
// golden/ddp Kind
localparam [3:0] K_SHORT = 4'd1, K_INV_STAG = 4'd2, K_BOUNDS = 4'd3, K_NOT_ASSOC = 4'd4, K_TO_WRAP = 4'd5,
                 K_T_VERSION = 4'd6, K_INV_QN = 4'd7, K_NO_BUF = 4'd8, K_MSN_RANGE = 4'd9, K_INV_MO = 4'd10,
                 K_TOO_LONG = 4'd11, K_U_VERSION = 4'd12;

localparam SB = STAG_COUNT > 1 ? $clog2(STAG_COUNT) : 1;
localparam RB = RQ_DEPTH > 1 ? $clog2(RQ_DEPTH) : 1;
localparam QA = IDX_BITS + 2;       // receive-queue state address: {context, QN}
localparam BA = IDX_BITS + 2 + RB;  // receive buffer address: {context, QN, MSN mod RQ_DEPTH}

// ------------------------------------------------------------------ tables
// STag entry: {valid, stag, stream, base, length}
localparam ST_W = 1 + 32 + 12 + 64 + 64;
// receive buffer: {valid, msn, stream, base, length[31:0]}
localparam RQ_W = 1 + 32 + 12 + 64 + 32;
reg [ST_W-1:0] stag_ram [0:STAG_COUNT-1];
reg [31:0]     msn_ram  [0:(1<<QA)-1];
reg [RQ_W-1:0] buf_ram  [0:(1<<BA)-1];

// ------------------------------------------------------------------ control
// phases: 0 VERDICT, 1 second event, 2 records: lookup, 3 records: checks,
// 4 records: FPDU event, 5 DELIVERED
localparam [2:0] P_VERDICT = 3'd0, P_SECOND = 3'd1, P_LOOKUP = 3'd2, P_CHECK = 3'd3, P_FPDU = 3'd4,
                 P_DELIV = 3'd5;
reg [2:0]  ph;
reg [15:0] left;        // records of the frame still to take
reg [15:0] ndesc;       // descriptors given for the frame
reg [15:0] ndesc1;      // and that plus one
wire place = f_verdict == V_PLACE;
wire second = f_verdict == V_DROP || place;

// the record at the head
wire        r_t = rec_ctrl[7];
wire        r_l = rec_ctrl[6];
wire [1:0]  r_dv = rec_ctrl[1:0];
wire [31:0] r_stag = rec_hdr[127:96];
wire [63:0] r_to = rec_hdr[95:32];
wire [31:0] r_qn = rec_hdr[95:64];
wire [31:0] r_msn = rec_hdr[63:32];
wire [31:0] r_mo = rec_hdr[31:0];

// lookups, read in the lookup cycle
reg [ST_W-1:0] st_q;
reg [31:0]     cur_q;
reg [RQ_W-1:0] bf_q;
wire [QA-1:0] q_addr = {f_idx, r_qn[1:0]};
wire [BA-1:0] b_addr = {f_idx, r_qn[1:0], r_msn[RB-1:0]};
// (read in the lookup cycle only: a configuration write while the FPDU's
// event waits on m_evt_tready does not change its outcome)
always @(posedge clk) begin
    if (ph == P_LOOKUP) begin
        st_q <= stag_ram[r_stag[8 +: SB]];
        cur_q <= msn_ram[q_addr];
        bf_q <= buf_ram[b_addr];
    end
end

// Stage 1 (lookup cycle), from the record alone: the payload length n,
// the end of the payload (TO + n for a tagged FPDU, MO + n untagged; an
// FPDU is out of bounds iff that end is beyond the buffer's length, which
// covers both RFC 5041 tests TO > length and n > length - TO), the wrap of
// TO + n - 1, and where the payload starts in the frame (its first octet
// that is not a marker's: a marker in the header or just after it moves it).
wire [15:0] hlen = r_t ? 16'd14 : 16'd18;
wire [16:0] n14 = {1'b0, rec_ulen} - 17'd14;
wire [16:0] n18 = {1'b0, rec_ulen} - 17'd18;
wire [16:0] n_w = r_t ? n14 : n18;                         // [16]: ULPDU shorter than the header
// TO + n (MO + n) in two halves: the low 32 bits and their carry here, the
// high half and its increment beside them
wire [31:0] e_lo_op = r_t ? r_to[31:0] : r_mo;
wire [32:0] e_lo_w = {1'b0, e_lo_op} + {17'd0, n_w[15:0]};
wire [31:0] e_hi_w = r_t ? r_to[63:32] : 32'd0;
wire [15:0] o_len = f_p0 + {rec_lseq_w[13:0], 2'b00};
wire [8:0]  to_mk = f_mph - o_len[8:0];                   // octets to the next marker
wire        hdr_mk = f_mk && {7'd0, to_mk} <= hlen + 16'd2;   // in the header or at the payload's start
wire [15:0] o_s_w = o_len + 16'd2 + hlen + (hdr_mk ? 16'd4 : 16'd0);
reg  [15:0] n;
reg         short_q, nz_q, dv_bad_q, qn_bad_q;
reg  [32:0] e_lo;
reg  [31:0] e_hi;
reg  [32:0] e_hi1;
reg  [15:0] o_s;
always @(posedge clk) begin
    if (ph == P_LOOKUP) begin
        n <= n_w[15:0];
        short_q <= n_w[16];
        nz_q <= n_w[15:0] != 16'd0;
        e_lo <= e_lo_w;
        e_hi <= e_hi_w;
        e_hi1 <= {1'b0, e_hi_w} + 33'd1;
        dv_bad_q <= r_dv != f_dv;
        qn_bad_q <= r_qn > 32'd2;
        o_s <= o_s_w;
    end
end

// Stage 2 (check cycle): each check of RFC 5041 section 7 against the
// entries read, registered; the kind (golden/ddp Placer.Place order) in
// the event cycle from these flags.
wire        st_valid = st_q[ST_W-1];
wire [31:0] st_stag = st_q[ST_W-2 -: 32];
wire [11:0] st_stream = st_q[139:128];
wire [63:0] st_base = st_q[127:64];
wire [63:0] st_len = st_q[63:0];
wire        bf_valid = bf_q[RQ_W-1];
wire [31:0] bf_msn = bf_q[RQ_W-2 -: 32];
wire [11:0] bf_stream = bf_q[107:96];
wire [63:0] bf_base = bf_q[95:32];
wire [31:0] bf_len = bf_q[31:0];
wire [31:0] msn_d = r_msn - cur_q;
wire [64:0] end_q = {e_lo[32] ? e_hi1 : {1'b0, e_hi}, e_lo[31:0]};
reg         c_stag, c_assoc, c_wrap, c_msn, c_nobuf, c_mo, c_long;
reg         c_pre;                          // a check that fails before the lookups' (short, version, QN)
reg         cb_hi_gt, cb_hi_eq, cb_lo_gt;   // TO + n against the length, in halves
reg  [32:0] dest_lo;                        // the address in halves (carry select)
reg  [31:0] dest_h0, dest_h1;
wire [31:0] base_hi = r_t ? st_base[63:32] : bf_base[63:32];
wire [31:0] off_hi = r_t ? r_to[63:32] : 32'd0;
wire [33:0] dest_h1_w = {1'b0, base_hi, 1'b1} + {1'b0, off_hi, 1'b1};   // base + offset + 1
always @(posedge clk) begin
    if (ph == P_CHECK) begin
        c_stag <= !st_valid || st_stag != r_stag;
        c_assoc <= st_stream != f_stream;
        c_wrap <= nz_q && end_q[64] && end_q[63:0] != 64'd0;   // TO + n - 1 >= 2^64
        cb_hi_gt <= end_q[64:32] > {1'b0, st_len[63:32]};
        cb_hi_eq <= end_q[64:32] == {1'b0, st_len[63:32]};
        cb_lo_gt <= end_q[31:0] > st_len[31:0];
        c_msn <= msn_d[31];
        c_pre <= short_q || dv_bad_q || (!r_t && qn_bad_q);
        c_nobuf <= !bf_valid || bf_msn != r_msn || bf_stream != f_stream;
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
        kind = K_SHORT;
    else if (r_t) begin
        if (dv_bad_q)
            kind = K_T_VERSION;
        else if (c_stag)
            kind = K_INV_STAG;
        else if (c_assoc)
            kind = K_NOT_ASSOC;
        else if (c_wrap)
            kind = K_TO_WRAP;
        else if (c_bounds)
            kind = K_BOUNDS;
    end else begin
        if (dv_bad_q)
            kind = K_U_VERSION;
        else if (qn_bad_q)
            kind = K_INV_QN;
        else if (c_msn)
            kind = K_MSN_RANGE;
        else if (c_nobuf)
            kind = K_NO_BUF;
        else if (c_mo)
            kind = K_INV_MO;
        else if (c_long)
            kind = K_TOO_LONG;
    end
end
// (kind == 0, written flat: the FPDU event's handshake depends on it)
wire placed = !c_pre && (r_t ? !(c_stag || c_assoc || c_wrap || c_bounds) : !(c_msn || c_nobuf || c_mo || c_long));
wire deliver = f_inorder && placed && r_l;
wire need_desc = placed && nz_q;

// ------------------------------------------------------------------ outputs
wire [31:0] lseq = f_seq + {16'd0, rec_lseq_w[13:0], 2'b00};
wire [12-IDX_BITS-1:0] pad = 0;
wire [127:0] ev_verdict = {E_VERDICT, pad, f_idx, f_seq, f_end, f_plen, 2'b00, f_verdict, f_reason, 24'd0};
wire [127:0] ev_second = f_verdict == V_DROP ?
        {E_DROP, pad, f_idx, f_seq, f_end, f_plen, 2'b00, f_drop, 4'd0, 24'd0} :
    f_inorder ?
        {E_ADVANCED, pad, f_idx, f_seq, f_adv, f_plen, 8'd0, f_nrfc, f_ndraft, 8'd0} :
        {E_CONSUMED, pad, f_idx, f_seq, f_end, f_plen, 8'd0, f_nrfc, f_ndraft, 8'd0};
wire [31:0] key = r_t ? r_stag : r_msn;
wire [127:0] ev_fpdu = {placed ? E_PLACED : E_DDP_ERROR, pad, f_idx, lseq, key, rec_ulen, rec_ctrl, kind,
                        r_t ? 2'b00 : r_qn[1:0], 18'd0};
wire [127:0] ev_deliv = {E_DELIVERED, pad, f_idx, lseq, key, rec_ulen, rec_ctrl, 4'd0,
                         r_t ? 2'b00 : r_qn[1:0], 18'd0};

// (the token and descriptor FIFOs are sized never to fill; the events wait
// for them all the same)
assign m_evt_tvalid = f_valid && tok_ready &&
                      (ph == P_VERDICT || ph == P_SECOND || (ph == P_FPDU && (!need_desc || desc_ready)) ||
                       ph == P_DELIV);
assign m_evt_tdata = ph == P_VERDICT ? ev_verdict : ph == P_SECOND ? ev_second : ph == P_FPDU ? ev_fpdu : ev_deliv;
wire evt_ok = m_evt_tvalid && m_evt_tready;

// record handshakes
wire discard = f_valid && ph == P_LOOKUP && !place && left != 16'd0 && rec_valid;
wire fpdu_done = f_valid && ph == P_FPDU && evt_ok;
wire deliv_done = f_valid && ph == P_DELIV && evt_ok;
assign rec_ready = discard || (fpdu_done && !deliver) || deliv_done;
assign desc_valid = fpdu_done && need_desc;
assign desc_data = {f_mk, f_mph, o_s, n, dest};
assign busy = deliv_done && !r_t;

// the frame ends in E1 (token to E2) in its last cycle
wire last_rec = left == 16'd1;
reg  fin;
always @* begin
    fin = 1'b0;
    case (ph)
    P_VERDICT: fin = evt_ok && !second && f_nrec == 16'd0;
    P_SECOND: fin = evt_ok && f_nrec == 16'd0;
    P_LOOKUP: fin = left == 16'd0 || (!place && discard && last_rec);
    P_FPDU: fin = fpdu_done && !deliver && last_rec;
    P_DELIV: fin = deliv_done && last_rec;
    default: fin = 1'b0;
    endcase
end
wire fin_ok = f_valid && fin && tok_ready;
assign tok_valid = f_valid && fin;
assign tok_data = {(ph == P_FPDU && need_desc) ? ndesc1 : ndesc, f_beats, f_reason, f_verdict};
assign f_ready = fin_ok;

always @(posedge clk) begin
    if (f_valid) begin
        case (ph)
        P_VERDICT: if (evt_ok) begin
            left <= f_nrec;
            ndesc <= 16'd0;
            ndesc1 <= 16'd1;
            if (second)
                ph <= P_SECOND;
            else if (f_nrec != 16'd0)
                ph <= P_LOOKUP;
        end
        P_SECOND: if (evt_ok && f_nrec != 16'd0)
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

// ------------------------------------------------------------------ table writes
always @(posedge clk) begin
    if (cfg_valid && !busy && cfg_op == 3'd1)
        stag_ram[cfg_index[SB-1:0]] <= {cfg_data[0], cfg_data[63:32], cfg_data[75:64], cfg_data[191:128],
                                        cfg_data[255:192]};
    if (cfg_valid && !busy && cfg_op == 3'd2)
        buf_ram[{cfg_index[IDX_BITS-1:0], cfg_data[1:0], cfg_data[32 +: RB]}] <=
            {cfg_data[2], cfg_data[63:32], cfg_data[75:64], cfg_data[191:128], cfg_data[223:192]};
    if (busy)
        msn_ram[q_addr] <= cur_q + 32'd1;
    else if (cfg_valid && cfg_op == 3'd3)
        msn_ram[{cfg_index[IDX_BITS-1:0], cfg_data[1:0]}] <= cfg_data[63:32];
end

wire unused = &{1'b0, r_qn[31:2], cfg_index[15:IDX_BITS], cfg_data[383:256], cfg_data[127:76], cfg_data[31:3], r_stag[7:0],
                 r_stag[31:8+SB], msn_d[30:0], rec_lseq_w[15:14], dest_h1_w[33], dest_h1_w[0]};

`ifdef VERILATOR
// Assertions (Verilator --assert; docs/robustness.md): a frame takes
// exactly its f_nrec records (discarded or looked up), never one from an
// empty record FIFO; the record looked up stays at the head until its
// event; no configuration write arrives while a receive-queue update holds
// the port; the descriptor FIFO is never written full.
reg [15:0] a_taken;     // records taken of the frame at the head
wire       a_take = rec_ready && rec_valid;
always @(posedge clk) begin
    if (a_take)
        a_taken <= a_taken + 16'd1;
    if (f_ready)
        a_taken <= 16'd0;
    if (rst)
        a_taken <= 16'd0;
end
always @(posedge clk) begin
    if (!rst) begin
        assert (!rec_ready || rec_valid) else $error("mpa_rx_ddp: record FIFO read when empty");
        assert (!a_take || a_taken < f_nrec)
            else $error("mpa_rx_ddp: record %0d taken for a frame of %0d records", a_taken + 16'd1, f_nrec);
        assert (!f_ready || a_taken + (a_take ? 16'd1 : 16'd0) == f_nrec)
            else $error("mpa_rx_ddp: frame done with %0d of its %0d records taken", a_taken + (a_take ? 16'd1 : 16'd0), f_nrec);
        assert (!f_ready || f_valid) else $error("mpa_rx_ddp: verdict queue read when empty");
        assert (!(f_valid && (ph == P_CHECK || ph == P_FPDU || ph == P_DELIV)) || rec_valid)
            else $error("mpa_rx_ddp: record looked up is gone");
        assert (ph <= P_DELIV) else $error("mpa_rx_ddp: phase %0d", ph);
        assert (!(cfg_valid && busy)) else $error("mpa_rx_ddp: configuration write while a receive queue is updated");
        assert (!desc_valid || desc_ready) else $error("mpa_rx_ddp: descriptor FIFO full");
        assert (!(f_valid && ph == P_FPDU) || placed == (kind == 4'd0)) else $error("mpa_rx_ddp: placed %0d, kind %0d", placed, kind);
    end
end
`endif

endmodule

`resetall
