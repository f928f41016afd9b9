// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx: the flow-through MPA receiver (docs/design.md).
 *
 * Ethernet frames come in on s_axis (no FCS; s_axis_tuser on the last beat
 * marks a bad FCS). Each frame is stored whole in a frame FIFO while
 * mpa_rx_parse checks its headers and checksums, the half connection's
 * context is looked up, and mpa_rx_walk walks and checks its FPDUs. The
 * frame's verdict (golden/fastpath decides the same) updates the context;
 * then the egress sends the frame unmodified to software (m_exc_axis, reason
 * in tuser), or frees it (PLACE, DROP, IGNORE), after its events on m_evt.
 * Host programs contexts through cfg_*.
 *
 * Status: placement of PLACE frames into host memory (the DDP stage and the
 * host write port of docs/design.md) is not built yet: such frames are
 * consumed with their VERDICT and ADVANCED / CONSUMED events.
 *
 * Latency: a frame's verdict is taken L_WALK + 4 cycles after its last
 * beat is accepted (L_WALK from mpa_rx_walk); the egress starts it the cycle
 * after the verdict at the earliest.
 */
module mpa_rx #(
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // contexts (half connections); a power of two
    parameter CONN_COUNT = 16,
    // frame FIFO depth in beats (a power of two); a frame longer than the
    // FIFO is dropped
    parameter FIFO_DEPTH = 2048,
    // receive window beyond rcv_nxt (octets)
    parameter WINDOW = 32'h0010_0000
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

    output wire [127:0]          m_evt_tdata,
    output wire                  m_evt_tvalid,
    input  wire                  m_evt_tready,

    input  wire                  cfg_valid,
    output wire                  cfg_ready,
    input  wire [15:0]           cfg_index,
    input  wire [383:0]          cfg_data
);

localparam WPB = DATA_WIDTH / 32;
localparam IDX_BITS = CONN_COUNT > 1 ? $clog2(CONN_COUNT) : 1;
localparam FIFO_BITS = $clog2(FIFO_DEPTH);

// verdicts and reasons (golden/fastpath)
localparam [1:0] V_PLACE = 2'd0, V_EXC = 2'd1, V_DROP = 2'd2, V_IGNORE = 2'd3;
localparam [3:0] R_NONE = 4'd0, R_NOT_TCP = 4'd1, R_NO_CONN = 4'd2, R_NOT_FULL = 4'd3, R_FLAGS = 4'd4,
                 R_SW_OWNED = 4'd5, R_UNALIGNED = 4'd6, R_OOO = 4'd7, R_RANGES_FULL = 4'd8, R_MPA_CHECK = 4'd9;
// event kinds
localparam [3:0] E_DROP = 4'd4, E_ADVANCED = 4'd5, E_CONSUMED = 4'd6, E_VERDICT = 4'd7;

// ------------------------------------------------------------------ ingress
wire beat_ok = s_axis_tvalid && s_axis_tready;

reg [15:0] cur_beats;     // beats of the current frame accepted so far
reg        overflow;      // the current frame outgrew the FIFO: discard the rest
wire [FIFO_BITS:0] ff_count;
wire ff_in_ready;
wire info_in_ready;
wire [4:0] info_count_unused;

// A frame as long as the whole FIFO can never be stored: take the rest of
// it and drop it (the FIFO then holds only this frame's stored beats).
wire ff_full_of_cur = !ff_in_ready && cur_beats >= FIFO_DEPTH[15:0];
// frames between their last beat and the end of their egress: bounded so
// that the frame-record and verdict queues never overflow
reg [4:0] inflight;
assign s_axis_tready = inflight < 5'd14 && (ff_in_ready || overflow || ff_full_of_cur);
wire ff_write = beat_ok && !overflow && ff_in_ready;

always @(posedge clk) begin
    if (beat_ok) begin
        cur_beats <= s_axis_tlast ? 16'd0 : cur_beats + (ff_write ? 16'd1 : 16'd0);
        if (s_axis_tlast)
            overflow <= 1'b0;
        else if (!ff_write)
            overflow <= 1'b1;
    end
    if (rst) begin
        cur_beats <= 16'd0;
        overflow <= 1'b0;
    end
end

// frame FIFO: data, keep, last
wire [DATA_WIDTH-1:0] ff_data;
wire [KEEP_WIDTH-1:0] ff_keep;
wire                  ff_last;
wire                  ff_valid;
wire                  ff_ready;
mpa_rx_fifo #(.WIDTH(DATA_WIDTH + KEEP_WIDTH + 1), .DEPTH(FIFO_DEPTH)) frame_fifo (
    .clk(clk), .rst(rst),
    .in_data({s_axis_tlast, s_axis_tkeep, s_axis_tdata}),
    .in_valid(ff_write),
    .in_ready(ff_in_ready),
    .out_data({ff_last, ff_keep, ff_data}),
    .out_valid(ff_valid),
    .out_ready(ff_ready),
    .count(ff_count)
);

// ------------------------------------------------------------------ parser
wire [DATA_WIDTH-1:0] w_data;
wire [WPB-1:0]        w_pmask;
wire [31:0] src_ip_now, dst_ip_now, seq_now;
wire [15:0] src_port_now, dst_port_now;
wire        tuple_done;
wire        f_valid;
wire [1:0]  f_class, f_drop;
wire [31:0] f_seq;
wire [7:0]  f_flags;
wire [15:0] f_plen;

mpa_rx_parse #(.DATA_WIDTH(DATA_WIDTH)) parse (
    .clk(clk), .rst(rst),
    .in_data(s_axis_tdata), .in_keep(s_axis_tkeep), .in_valid(beat_ok), .in_last(s_axis_tlast),
    .w_data(w_data), .w_pmask(w_pmask),
    .src_ip_now(src_ip_now), .dst_ip_now(dst_ip_now), .src_port_now(src_port_now), .dst_port_now(dst_port_now),
    .seq_now(seq_now), .tuple_done(tuple_done),
    .f_valid(f_valid), .f_class(f_class), .f_drop(f_drop), .f_seq(f_seq), .f_flags(f_flags), .f_plen(f_plen)
);

// ------------------------------------------------------------------ contexts
// Context entry (cfg_data): [0] valid [1] full [2] err [3] sw_owned
// [4] markers [5] crc [6] range 0 valid [7] range 1 valid [19:8] stream
// [63:32] SeqStart [95:64] rcv_nxt [127:96] source IPv4 [159:128]
// destination IPv4 [175:160] source port [191:176] destination port
// [223:192] range 0 start [255:224] range 0 end [287:256] range 1 start
// [319:288] range 1 end. Index: see ctx_hash.
/* verilator lint_off UNUSEDSIGNAL */
function [IDX_BITS-1:0] ctx_hash(input [31:0] sip, input [31:0] dip, input [15:0] sp, input [15:0] dp);
    reg [31:0] x;
    reg [15:0] h;
    begin
        x = sip ^ dip ^ {sp, dp};
        h = x[31:16] ^ x[15:0];
        ctx_hash = h[IDX_BITS-1:0];
    end
endfunction
/* verilator lint_on UNUSEDSIGNAL */

// Two copies: one read by the lookup, one by the verdict; both written.
// Each keeps only the fields its reader uses: the lookup copy valid,
// markers, CRC, SeqStart and the 4-tuple (131 bits); the verdict copy the
// flags, rcv_nxt and the ranges (168 bits).
localparam LK_W = 131;
localparam VD_W = 168;
/* verilator lint_off UNUSEDSIGNAL */
function [LK_W-1:0] lk_pack(input [383:0] x);
    lk_pack = {x[191:96], x[63:32], x[5:4], x[0]};
endfunction
/* verilator lint_on UNUSEDSIGNAL */
function [383:0] lk_unpack(input [LK_W-1:0] y);
    begin
        lk_unpack = 384'd0;
        lk_unpack[0] = y[0];
        lk_unpack[5:4] = y[2:1];
        lk_unpack[63:32] = y[34:3];
        lk_unpack[191:96] = y[130:35];
    end
endfunction
/* verilator lint_off UNUSEDSIGNAL */
function [VD_W-1:0] vd_pack(input [383:0] x);
    vd_pack = {x[319:192], x[95:64], x[7:0]};
endfunction
/* verilator lint_on UNUSEDSIGNAL */
function [383:0] vd_unpack(input [VD_W-1:0] y);
    begin
        vd_unpack = 384'd0;
        vd_unpack[7:0] = y[7:0];
        vd_unpack[95:64] = y[39:8];
        vd_unpack[319:192] = y[167:40];
    end
endfunction
reg [LK_W-1:0] ctx_lk [0:CONN_COUNT-1];
reg [VD_W-1:0] ctx_vd [0:CONN_COUNT-1];

reg             ctx_we;
reg [IDX_BITS-1:0] ctx_widx;
reg [383:0]     ctx_wdata;

// lookup: at the beat that completes the 4-tuple
wire [IDX_BITS-1:0] lk_idx = ctx_hash(src_ip_now, dst_ip_now, src_port_now, dst_port_now);
reg [LK_W-1:0] lk_q;
reg         lk_pend;
reg [95:0]  lk_tuple;
reg [IDX_BITS-1:0] lk_idx_q;
always @(posedge clk) begin
    lk_q <= ctx_lk[lk_idx];
end
reg         lk_fwd_hit;
reg [383:0] lk_fwd;
reg         cfg_we_lk;
always @(posedge clk) begin
    lk_pend <= beat_ok && tuple_done;
    if (beat_ok && tuple_done) begin
        lk_tuple <= {dst_port_now, src_port_now, dst_ip_now, src_ip_now};
        lk_idx_q <= lk_idx;
    end
    // a configuration write in the cycle of the read is forwarded
    lk_fwd_hit <= cfg_we_lk && cfg_index[IDX_BITS-1:0] == lk_idx;
    lk_fwd <= cfg_data;
    if (rst)
        lk_pend <= 1'b0;
end
wire [383:0] lk_ent = lk_fwd_hit ? lk_fwd : lk_unpack(lk_q);
wire lk_match = lk_ent[0] && lk_ent[191:96] == lk_tuple;

// this frame's lookup result, for the frame record
reg frm_match;
reg [IDX_BITS-1:0] frm_idx;
always @(posedge clk) begin
    if (lk_pend) begin
        frm_match <= lk_match;
        frm_idx <= lk_idx_q;
    end
    if (f_valid) // the next frame's lookup cannot complete before this
        frm_match <= 1'b0;
    if (rst)
        frm_match <= 1'b0;
end

// walker parameters: one entry per frame, in frame order
wire [33:0] wp_in = {lk_ent[5], lk_ent[4], lk_ent[63:32]};
reg         wp_push_nt;   // frame ended without a tuple: push a dummy entry
wire [33:0] wp_head;
wire        wp_valid;
wire        wp_pop;
wire [2:0]  wp_count_unused;
wire wp_in_ready;
mpa_rx_fifo #(.WIDTH(34), .DEPTH(4)) wp_fifo (
    .clk(clk), .rst(rst),
    .in_data(lk_pend ? wp_in : 34'd0),
    .in_valid(lk_pend || wp_push_nt),
    .in_ready(wp_in_ready),
    .out_data(wp_head), .out_valid(wp_valid), .out_ready(wp_pop),
    .count(wp_count_unused)
);
reg frame_had_tuple;
always @(posedge clk) begin
    wp_push_nt <= 1'b0;
    if (beat_ok) begin
        if (tuple_done)
            frame_had_tuple <= 1'b1;
        if (s_axis_tlast) begin
            wp_push_nt <= !(frame_had_tuple || tuple_done);
            frame_had_tuple <= 1'b0;
        end
    end
    if (rst) begin
        frame_had_tuple <= 1'b0;
        wp_push_nt <= 1'b0;
    end
end

// ------------------------------------------------------------------ walker
// The word view is delayed three beats so that the lookup is done before the
// walker sees a frame's first payload word.
reg [DATA_WIDTH-1:0] d1_data, d2_data, d3_data;
reg [WPB-1:0]        d1_pmask, d2_pmask, d3_pmask;
reg                  d1_valid, d2_valid, d3_valid, d1_last, d2_last, d3_last;
reg [31:0]           d1_seq, d2_seq, d3_seq;
always @(posedge clk) begin
    d1_data <= w_data; d1_pmask <= w_pmask; d1_valid <= beat_ok; d1_last <= s_axis_tlast; d1_seq <= seq_now;
    d2_data <= d1_data; d2_pmask <= d1_pmask; d2_valid <= d1_valid; d2_last <= d1_last; d2_seq <= d1_seq;
    d3_data <= d2_data; d3_pmask <= d2_pmask; d3_valid <= d2_valid; d3_last <= d2_last; d3_seq <= d2_seq;
    if (rst) begin
        d1_valid <= 1'b0;
        d2_valid <= 1'b0;
        d3_valid <= 1'b0;
    end
end
assign wp_pop = d3_valid && d3_last;

wire        rec_valid;
wire [15:0] rec_lseq_w, rec_ulen;
wire [7:0]  rec_ctrl, rec_ulp;
wire [127:0] rec_hdr;
wire        rec_first, rec_last, sum_ok;
wire [15:0] sum_nrec;
wire        sum_valid, sum_whole, sum_small, sum_grid, sum_crc_ok, sum_marker_ok, sum_first_marker, sum_any_l;
wire [15:0] sum_nfpdu;
mpa_rx_walk #(.DATA_WIDTH(DATA_WIDTH)) walk (
    .clk(clk), .rst(rst),
    .seg_seq(d3_seq), .seq_start(wp_head[31:0]), .markers_on(wp_head[32]), .crc_on(wp_head[33]),
    .w_valid(d3_valid), .w_data(d3_data), .w_pmask(d3_valid ? d3_pmask : {WPB{1'b0}}), .w_last(d3_last),
    .rec_valid(rec_valid), .rec_ready(1'b1),
    .rec_lseq_w(rec_lseq_w), .rec_ulen(rec_ulen), .rec_ctrl(rec_ctrl), .rec_ulp(rec_ulp), .rec_hdr(rec_hdr),
    .rec_first(rec_first), .rec_last(rec_last), .sum_ok(sum_ok), .sum_nrec(sum_nrec),
    .sum_valid(sum_valid), .sum_whole(sum_whole), .sum_small(sum_small), .sum_grid(sum_grid),
    .sum_crc_ok(sum_crc_ok), .sum_marker_ok(sum_marker_ok), .sum_first_marker(sum_first_marker),
    .sum_any_l(sum_any_l), .sum_nfpdu(sum_nfpdu)
);

// ------------------------------------------------------------------ frame records
// class, drop, seq, flags, plen, match, idx, beats stored, oversize
localparam INFO_W = 2 + 2 + 32 + 8 + 16 + 1 + IDX_BITS + 16 + 1;
reg [15:0] fr_beats;   // beats of the ending frame written to the FIFO
reg        fr_over;
always @(posedge clk) begin
    if (beat_ok && s_axis_tlast) begin
        fr_beats <= cur_beats + (ff_write ? 16'd1 : 16'd0);
        fr_over <= overflow || !ff_write || s_axis_tuser;
    end
end
wire [INFO_W-1:0] info_in = {fr_over, fr_beats, lk_pend ? lk_idx_q : frm_idx, lk_pend ? lk_match : frm_match,
                             f_plen, f_flags, f_seq, f_drop, f_class};
wire [INFO_W-1:0] info_head;
wire info_valid;
wire info_pop;
mpa_rx_fifo #(.WIDTH(INFO_W), .DEPTH(16)) info_fifo (
    .clk(clk), .rst(rst),
    .in_data(info_in), .in_valid(f_valid), .in_ready(info_in_ready),
    .out_data(info_head), .out_valid(info_valid), .out_ready(info_pop),
    .count(info_count_unused)
);

// ------------------------------------------------------------------ verdict
// V0: the walker's summary and the frame record meet; read the context.
// V1: decide, update the context, queue the verdict for the egress.
assign info_pop = sum_valid;
reg        v1;
reg [INFO_W-1:0] v1_info;
reg        v1_whole, v1_small, v1_grid, v1_checks, v1_first_marker, v1_any_l;
reg [VD_W-1:0] vd_q;
reg [IDX_BITS-1:0] v0_idx;
wire [IDX_BITS-1:0] info_idx = info_head[61 +: IDX_BITS];
always @(posedge clk) begin
    vd_q <= ctx_vd[info_idx];
end
// write seen in the cycle of the read (from V1 or config) is forwarded
reg [383:0] vd_fwd;
reg         vd_fwd_hit;
always @(posedge clk) begin
    v1 <= sum_valid;
    v1_info <= info_head;
    v1_whole <= sum_whole; v1_small <= sum_small; v1_grid <= sum_grid;
    v1_checks <= sum_crc_ok && sum_marker_ok;
    v1_first_marker <= sum_first_marker; v1_any_l <= sum_any_l;
    v0_idx <= info_idx;
    vd_fwd_hit <= ctx_we && ctx_widx == info_idx;
    vd_fwd <= ctx_wdata;
    if (rst)
        v1 <= 1'b0;
end

wire [1:0]  i_class = v1_info[1:0];
wire [1:0]  i_drop  = v1_info[3:2];
wire [31:0] i_seq   = v1_info[35:4];
wire [7:0]  i_flags = v1_info[43:36];
wire [15:0] i_plen  = v1_info[59:44];
wire        i_match = v1_info[60];
wire [15:0] i_beats = v1_info[61+IDX_BITS +: 16];
wire        i_over  = v1_info[77+IDX_BITS];

wire [383:0] c = vd_fwd_hit ? vd_fwd : vd_unpack(vd_q);
wire c_full = c[1], c_err = c[2], c_sw = c[3], c_m = c[4], c_c = c[5];
wire c_r0 = c[6], c_r1 = c[7];
wire [31:0] c_rcv = c[95:64];
wire [31:0] r0s = c[223:192], r0e = c[255:224], r1s = c[287:256], r1e = c[319:288];

wire [31:0] seg_end = i_seq + {16'd0, i_plen};
/* verilator lint_off UNUSEDSIGNAL */
function seq_lt(input [31:0] a, input [31:0] b);
    reg [31:0] d;
    begin
        d = a - b;
        seq_lt = d[31];
    end
endfunction
/* verilator lint_on UNUSEDSIGNAL */
wire inorder = i_seq == c_rcv;
wire overlap0 = c_r0 && seq_lt(i_seq, r0e) && seq_lt(r0s, seg_end);
wire overlap1 = c_r1 && seq_lt(i_seq, r1e) && seq_lt(r1s, seg_end);

// out-of-order range merge (golden/fastpath addRange)
reg        m_ok;
reg        n0v, n1v;
reg [31:0] n0s, n0e, n1s, n1e;
reg [31:0] ns, ne;
reg        k0, k1;  // existing range kept (not merged)
always @* begin
    ns = i_seq; ne = seg_end;
    k0 = c_r0; k1 = c_r1;
    if (c_r0 && r0e == ns) begin ns = r0s; k0 = 1'b0; end
    else if (c_r0 && ne == r0s) begin ne = r0e; k0 = 1'b0; end
    if (c_r1 && r1e == ns) begin ns = r1s; k1 = 1'b0; end
    else if (c_r1 && ne == r1s) begin ne = r1e; k1 = 1'b0; end
    m_ok = !(k0 && k1);
    n0v = 1'b1; n1v = k0 || k1;
    n0s = ns; n0e = ne; n1s = ns; n1e = ne;
    if (k0 && !k1) begin
        if (seq_lt(r0s, ns)) begin n0s = r0s; n0e = r0e; n1s = ns; n1e = ne; end
        else begin n0s = ns; n0e = ne; n1s = r0s; n1e = r0e; end
    end else if (k1 && !k0) begin
        if (seq_lt(r1s, ns)) begin n0s = r1s; n0e = r1e; n1s = ns; n1e = ne; end
        else begin n0s = ns; n0e = ne; n1s = r1s; n1e = r1e; end
    end
end

reg [1:0]   verdict;
reg [3:0]   reason;
reg [383:0] c_new;
reg         c_write;
reg [31:0]  adv;
always @* begin
    verdict = V_EXC;
    reason = R_NONE;
    c_new = c;
    c_write = 1'b0;
    adv = c_rcv;
    if (i_class == 2'd2 || i_over) begin
        verdict = V_DROP;
    end else if (i_class == 2'd1) begin
        reason = R_NOT_TCP;
    end else if (!i_match) begin
        reason = R_NO_CONN;
    end else if (!c_full || c_err) begin
        reason = R_NOT_FULL;
    end else if (c_sw) begin
        reason = R_SW_OWNED;
    end else begin
        if (i_flags[2:0] != 3'b000)
            reason = R_FLAGS;
        else if (i_plen == 16'd0 || !seq_lt(c_rcv, seg_end))
            verdict = V_IGNORE;
        else if (seq_lt(i_seq, c_rcv))
            reason = R_UNALIGNED;
        else if ((i_seq - c_rcv) >= WINDOW)
            verdict = V_IGNORE;
        else if ((seg_end - c_rcv) > WINDOW)
            reason = R_OOO;
        else if (overlap0 || overlap1)
            reason = R_UNALIGNED;
        else if (!inorder && !(c_m && c_c))
            reason = R_OOO;
        else if (!v1_grid || !v1_whole)
            reason = R_UNALIGNED;
        else if (!inorder && !v1_first_marker)
            reason = R_OOO;
        else if (!v1_checks)
            reason = R_MPA_CHECK;
        else if (v1_small)
            reason = R_UNALIGNED;
        else if (!inorder && v1_any_l)
            reason = R_OOO;
        else if (!inorder && !m_ok)
            reason = R_RANGES_FULL;
        else
            verdict = V_PLACE;
        if (verdict == V_EXC) begin
            // software takes the half connection over
            c_new[3] = 1'b1;
            c_new[7:6] = 2'b00;
            c_write = 1'b1;
        end else if (verdict == V_PLACE && inorder) begin
            adv = seg_end;
            c_new[6] = c_r0; c_new[7] = c_r1;
            if (c_r0 && r0s == adv) begin
                adv = r0e;
                c_new[6] = 1'b0;
                if (c_r1 && r1s == adv) begin
                    adv = r1e;
                    c_new[7] = 1'b0;
                end
            end
            // keep the remaining range in slot 0
            if (!c_new[6] && c_new[7]) begin
                c_new[6] = 1'b1; c_new[7] = 1'b0;
                c_new[255:192] = c[319:256];
            end
            c_new[95:64] = adv;
            c_write = 1'b1;
        end else if (verdict == V_PLACE) begin
            c_new[6] = n0v; c_new[7] = n1v;
            c_new[223:192] = n0s; c_new[255:224] = n0e;
            c_new[287:256] = n1s; c_new[319:288] = n1e;
            c_write = 1'b1;
        end
    end
end

// context writes: the verdict's, else a configuration write
assign cfg_ready = !(v1 && c_write);
always @* begin
    ctx_we = 1'b0;
    ctx_widx = v0_idx;
    ctx_wdata = c_new;
    if (v1 && c_write) begin
        ctx_we = 1'b1;
    end else if (cfg_valid) begin
        ctx_we = 1'b1;
        ctx_widx = cfg_index[IDX_BITS-1:0];
        ctx_wdata = cfg_data;
    end
end
always @* cfg_we_lk = !(v1 && c_write) && cfg_valid;
always @(posedge clk) begin
    if (ctx_we)
        ctx_vd[ctx_widx] <= vd_pack(ctx_wdata);
    if (cfg_we_lk)
        ctx_lk[cfg_index[IDX_BITS-1:0]] <= lk_pack(cfg_data);
end

// verdict queue: verdict, reason, drop code, idx, seq, end, plen, beats, advanced-to
localparam VQ_W = 2 + 4 + 2 + IDX_BITS + 32 + 32 + 16 + 16 + 32 + 1;
wire [VQ_W-1:0] vq_in = {inorder, adv, i_beats, i_plen, seg_end, i_seq, v0_idx, i_over ? 2'd0 : i_drop, reason, verdict};
wire [VQ_W-1:0] vq_head;
wire vq_valid, vq_pop, vq_in_ready;
wire [4:0] vq_count_unused;
mpa_rx_fifo #(.WIDTH(VQ_W), .DEPTH(16)) verdict_fifo (
    .clk(clk), .rst(rst),
    .in_data(vq_in), .in_valid(v1), .in_ready(vq_in_ready),
    .out_data(vq_head), .out_valid(vq_valid), .out_ready(vq_pop),
    .count(vq_count_unused)
);

always @(posedge clk) begin
    inflight <= inflight + ((beat_ok && s_axis_tlast) ? 5'd1 : 5'd0) - (vq_pop ? 5'd1 : 5'd0);
    if (rst)
        inflight <= 5'd0;
end

// ------------------------------------------------------------------ egress
wire [1:0]  e_verdict = vq_head[1:0];
wire [3:0]  e_reason  = vq_head[5:2];
wire [1:0]  e_drop    = vq_head[7:6];
wire [IDX_BITS-1:0] e_idx = vq_head[8 +: IDX_BITS];
wire [31:0] e_seq     = vq_head[8+IDX_BITS +: 32];
wire [31:0] e_end     = vq_head[40+IDX_BITS +: 32];
wire [15:0] e_plen    = vq_head[72+IDX_BITS +: 16];
wire [15:0] e_beats   = vq_head[88+IDX_BITS +: 16];
wire [31:0] e_adv     = vq_head[104+IDX_BITS +: 32];
wire        e_inorder = vq_head[136+IDX_BITS];

// phases: 0 VERDICT event, 1 second event (DROP / ADVANCED / CONSUMED), 2 beats
reg [1:0]  e_phase;
reg [15:0] e_left;
wire e_second = e_verdict == V_DROP || e_verdict == V_PLACE;
wire [127:0] ev_verdict = {E_VERDICT, {(12-IDX_BITS){1'b0}}, e_idx, e_seq, e_end, e_plen, 2'b00, e_verdict, e_reason, 24'd0};
wire [127:0] ev_second = e_verdict == V_DROP ?
        {E_DROP, {(12-IDX_BITS){1'b0}}, e_idx, e_seq, e_end, e_plen, 2'b00, e_drop, 4'd0, 24'd0} :
    e_inorder ?
        {E_ADVANCED, {(12-IDX_BITS){1'b0}}, e_idx, e_seq, e_adv, e_plen, 8'd0, 24'd0} :
        {E_CONSUMED, {(12-IDX_BITS){1'b0}}, e_idx, e_seq, e_end, e_plen, 8'd0, 24'd0};

assign m_evt_tvalid = vq_valid && (e_phase == 2'd0 || (e_phase == 2'd1 && e_second));
assign m_evt_tdata = e_phase == 2'd0 ? ev_verdict : ev_second;

wire beats_phase = vq_valid && e_phase == 2'd2 && e_left != 16'd0;
wire exc = e_verdict == V_EXC;
assign m_exc_axis_tvalid = beats_phase && exc && ff_valid;
assign m_exc_axis_tdata = ff_data;
assign m_exc_axis_tkeep = ff_keep;
assign m_exc_axis_tlast = e_left == 16'd1;
assign m_exc_axis_tuser = e_reason;
assign ff_ready = beats_phase && ff_valid && (exc ? m_exc_axis_tready : 1'b1);
assign vq_pop = vq_valid && e_phase == 2'd2 && (e_left == 16'd0 || (e_left == 16'd1 && ff_ready));

always @(posedge clk) begin
    if (vq_valid) begin
        case (e_phase)
        2'd0: if (m_evt_tready) begin
            e_phase <= e_second ? 2'd1 : 2'd2;
            e_left <= e_beats;
        end
        2'd1: if (m_evt_tready)
            e_phase <= 2'd2;
        default: begin
            if (ff_ready)
                e_left <= e_left - 16'd1;
            if (vq_pop)
                e_phase <= 2'd0;
        end
        endcase
    end
    if (rst) begin
        e_phase <= 2'd0;
        e_left <= 16'd0;
    end
end

// Placement (the DDP stage and host writes) will consume the FPDU records.
wire unused = &{1'b0, rec_valid, rec_lseq_w, rec_ulen, rec_ctrl, rec_ulp, rec_hdr, rec_first, rec_last, sum_ok,
                 sum_nrec, sum_nfpdu, ff_count, ff_last, wp_valid, info_valid, info_in_ready, lk_ent, wp_in_ready,
                 vq_in_ready, info_count_unused, wp_count_unused, vq_count_unused, cfg_index, i_flags[7:3]};

endmodule

`resetall
