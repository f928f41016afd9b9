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
 * The egress has two stages: mpa_rx_ddp (E1) emits each frame's events
 * and makes the DDP checks of a PLACE frame's FPDUs against the STag table
 * and the receive queues; mpa_rx_place (E2) then reads the frame's beats
 * and writes the placed FPDUs' payloads to host memory (m_host_*), markers
 * stripped, or sends the frame to m_exc_axis.
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

    input  wire                  cfg_valid,
    output wire                  cfg_ready,
    input  wire [2:0]            cfg_op,
    input  wire [15:0]           cfg_index,
    input  wire [383:0]          cfg_data
);

localparam WPB = DATA_WIDTH / 32;
localparam IDX_BITS = CONN_COUNT > 1 ? $clog2(CONN_COUNT) : 1;
localparam FIFO_BITS = $clog2(FIFO_DEPTH);
// per-frame queues (frame records, verdicts, tokens): an entry per frame in
// flight at most; each holds its depth plus its output register
localparam IQ_DEPTH = 1 << $clog2(MAX_INFLIGHT);
localparam IQ_BITS = $clog2(IQ_DEPTH);
localparam [5:0] MAXF = MAX_INFLIGHT;

// verdicts and reasons (golden/fastpath)
localparam [1:0] V_PLACE = 2'd0, V_EXC = 2'd1, V_DROP = 2'd2, V_IGNORE = 2'd3;
localparam [3:0] R_NONE = 4'd0, R_NOT_TCP = 4'd1, R_NO_CONN = 4'd2, R_NOT_FULL = 4'd3, R_FLAGS = 4'd4,
                 R_SW_OWNED = 4'd5, R_UNALIGNED = 4'd6, R_OOO = 4'd7, R_RANGES_FULL = 4'd8, R_MPA_CHECK = 4'd9;

// ------------------------------------------------------------------ ingress
wire beat_ok = s_axis_tvalid && s_axis_tready;

reg [15:0] cur_beats;     // beats of the current frame accepted so far
reg        overflow;      // the current frame outgrew the FIFO: discard the rest
wire [FIFO_BITS:0] ff_count;
wire ff_in_ready;
wire info_in_ready;
wire info_valid;
wire info_pop;

// A frame as long as the whole FIFO can never be stored: take the rest of
// it and drop it (the FIFO then holds only this frame's stored beats).
// cur_full: cur_beats >= FIFO_DEPTH (a register, kept with cur_beats).
reg cur_full;
// frames between their last beat and the end of their egress: bounded so
// that the frame-record and verdict queues never overflow
reg [5:0] inflight;
wire infl_ok = inflight < MAXF;
// = infl_ok && (ff_in_ready || overflow || (!ff_in_ready && cur_full))
assign s_axis_tready = infl_ok && (ff_in_ready || overflow || cur_full);
wire ff_write = s_axis_tvalid && infl_ok && ff_in_ready && !overflow;
wire [15:0] cur_beats_p1 = cur_beats + 16'd1;
wire cur_at_depth = cur_beats == FIFO_DEPTH[15:0] - 16'd1;

always @(posedge clk) begin
    if (beat_ok) begin
        if (s_axis_tlast) begin
            cur_beats <= 16'd0;
            cur_full <= 1'b0;
        end else if (ff_write) begin
            cur_beats <= cur_beats_p1;
            cur_full <= cur_full || cur_at_depth;
        end
        if (s_axis_tlast)
            overflow <= 1'b0;
        else if (!ff_write)
            overflow <= 1'b1;
    end
    if (rst) begin
        cur_beats <= 16'd0;
        cur_full <= 1'b0;
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
    .s_axis_tdata({s_axis_tlast, s_axis_tkeep, s_axis_tdata}),
    .s_axis_tvalid(ff_write),
    .s_axis_tready(ff_in_ready),
    .m_axis_tdata({ff_last, ff_keep, ff_data}),
    .m_axis_tvalid(ff_valid),
    .m_axis_tready(ff_ready),
    .count(ff_count), .empty(), .full()
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
// [319:288] range 1 end, [21:20] DDP version.
// Index: see ctx_hash.
/* verilator lint_off UNUSEDSIGNAL */
function [IDX_BITS-1:0] ctx_hash(input [31:0] sip, input [31:0] dip, input [15:0] sp, input [15:0] dp);
    reg [31:0] x;
    reg [15:0] h;
    begin
        x = sip ^ {dip[23:0], dip[31:24]} ^ {sp, dp};
        h = x[31:16] ^ x[15:0];
        ctx_hash = h[IDX_BITS-1:0];
    end
endfunction
/* verilator lint_on UNUSEDSIGNAL */

// Two copies: one read by the lookup, one by the verdict; both written.
// Each keeps only the fields its reader uses: the lookup copy valid,
// markers, CRC, SeqStart, the DDP stream and version and the 4-tuple
// (145 bits); the verdict copy the
// flags, rcv_nxt and the ranges (168 bits).
localparam LK_W = 145;
localparam VD_W = 168;
/* verilator lint_off UNUSEDSIGNAL */
function [LK_W-1:0] lk_pack(input [383:0] x);
    lk_pack = {x[21:8], x[191:96], x[63:32], x[5:4], x[0]};
endfunction
/* verilator lint_on UNUSEDSIGNAL */
function [383:0] lk_unpack(input [LK_W-1:0] y);
    begin
        lk_unpack = 384'd0;
        lk_unpack[0] = y[0];
        lk_unpack[5:4] = y[2:1];
        lk_unpack[63:32] = y[34:3];
        lk_unpack[191:96] = y[130:35];
        lk_unpack[21:8] = y[144:131];
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

// lookup: the 4-tuple is registered at the beat that completes it, then
// hashed and the lookup copy read in the next cycle
reg         t_pend;
reg [95:0]  t_tuple;   // {dport, sport, dst, src}
always @(posedge clk) begin
    t_pend <= beat_ok && tuple_done;
    if (beat_ok && tuple_done)
        t_tuple <= {dst_port_now, src_port_now, dst_ip_now, src_ip_now};
    if (rst)
        t_pend <= 1'b0;
end
wire [IDX_BITS-1:0] lk_idx = ctx_hash(t_tuple[31:0], t_tuple[63:32], t_tuple[79:64], t_tuple[95:80]);
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
    lk_pend <= t_pend;
    if (t_pend) begin
        lk_tuple <= t_tuple;
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

// this frame's lookup result, for the frame record: match, index, and for
// the DDP stage the stream, DDP version, markers and SeqStart mod 512
localparam LX_W = 12 + 2 + 1 + 9;
wire [LX_W-1:0] lk_x = {lk_ent[19:8], lk_ent[21:20], lk_ent[4], lk_ent[40:32]};
reg [LX_W-1:0] frm_x;
reg frm_match;
reg [IDX_BITS-1:0] frm_idx;
always @(posedge clk) begin
    // a frame's record is queued three cycles after its last beat (fr_end3),
    // after its lookup; the next frame's lookup can complete in that cycle
    if (fr_end3)
        frm_match <= 1'b0;
    if (lk_pend) begin
        frm_match <= lk_match;
        frm_idx <= lk_idx_q;
        frm_x <= lk_x;
    end
    if (rst)
        frm_match <= 1'b0;
end

// walker parameters: one entry per frame, in frame order
wire [33:0] wp_in = {lk_ent[5], lk_ent[4], lk_ent[63:32]};
reg         wp_push_nt;   // frame ended without a tuple: push a dummy entry
wire [33:0] wp_head;
wire        wp_valid;
wire        wp_pop;
wire wp_in_ready;
mpa_rx_fifo #(.WIDTH(34), .DEPTH(4)) wp_fifo (
    .clk(clk), .rst(rst),
    .s_axis_tdata(lk_pend ? wp_in : 34'd0),
    .s_axis_tvalid(lk_pend || wp_push_nt),
    .s_axis_tready(wp_in_ready),
    .m_axis_tdata(wp_head), .m_axis_tvalid(wp_valid), .m_axis_tready(wp_pop),
    .count(), .empty(), .full()
);
reg frame_had_tuple;
reg no_tuple;   // a frame ended without a tuple: its dummy entry goes in next cycle
always @(posedge clk) begin
    no_tuple <= 1'b0;
    wp_push_nt <= no_tuple;
    if (beat_ok) begin
        if (tuple_done)
            frame_had_tuple <= 1'b1;
        if (s_axis_tlast) begin
            no_tuple <= !(frame_had_tuple || tuple_done);
            frame_had_tuple <= 1'b0;
        end
    end
    if (rst) begin
        frame_had_tuple <= 1'b0;
        no_tuple <= 1'b0;
        wp_push_nt <= 1'b0;
    end
end

// ------------------------------------------------------------------ walker
// The word view is delayed four beats so that the lookup is done before the
// walker sees a frame's first payload word.
reg [DATA_WIDTH-1:0] d1_data, d2_data, d3_data, d4_data;
reg [WPB-1:0]        d2_pmask, d3_pmask;   // w_pmask is a cycle behind w_data
reg [WPB-1:0]        d4_pmask_w;   // d4_pmask of a stored beat, else none: the walker's
reg                  d1_valid, d2_valid, d3_valid, d4_valid, d1_last, d2_last, d3_last, d4_last;
reg                  d1_nw, d2_nw, d3_nw;   // the beat was not stored: no records from it
reg [31:0]           d1_seq, d2_seq, d3_seq, d4_seq;
always @(posedge clk) begin
    d1_data <= w_data; d1_valid <= beat_ok; d1_last <= s_axis_tlast; d1_seq <= seq_now;
    d1_nw <= !ff_write; d2_nw <= d1_nw; d3_nw <= d2_nw;
    d2_data <= d1_data; d2_pmask <= w_pmask; d2_valid <= d1_valid; d2_last <= d1_last; d2_seq <= d1_seq;
    d3_data <= d2_data; d3_pmask <= d2_pmask; d3_valid <= d2_valid; d3_last <= d2_last; d3_seq <= d2_seq;
    d4_data <= d3_data; d4_valid <= d3_valid; d4_last <= d3_last; d4_seq <= d3_seq;
    d4_pmask_w <= d3_valid && !d3_nw ? d3_pmask : {WPB{1'b0}};
    if (rst) begin
        d1_valid <= 1'b0;
        d2_valid <= 1'b0;
        d3_valid <= 1'b0;
        d4_valid <= 1'b0;
    end
end
assign wp_pop = d4_valid && d4_last;

// the frame octet offset of the TCP payload (word k of the word view holds
// octets 4k-2 .. 4k+1; a beat completes words WPB*b .. WPB*b+WPB-1); the
// parser's w_pmask marks the words of the previous cycle's beat, d2_pmask
// (the delay line's) those of the beat two cycles before
reg        q_beat_ok, q_last, q2_beat_ok, q2_last;
reg [13-$clog2(WPB):0] q_cur_beats, q2_cur_beats;
always @(posedge clk) begin
    q_beat_ok <= beat_ok;
    q_last <= s_axis_tlast;
    q_cur_beats <= cur_beats[13-$clog2(WPB):0];
    q2_beat_ok <= q_beat_ok;
    q2_last <= q_last;
    q2_cur_beats <= q_cur_beats;
    if (rst) begin
        q_beat_ok <= 1'b0;
        q2_beat_ok <= 1'b0;
    end
end
reg [15:0] p0;
reg        p0_seen;
reg [15:0] p0_now;
integer pj;
always @* begin
    p0_now = 16'd0;
    for (pj = WPB - 1; pj >= 0; pj = pj - 1)
        if (d2_pmask[pj])
            p0_now = {q2_cur_beats, pj[$clog2(WPB)-1:0], 2'b00} - 16'd2;
end
always @(posedge clk) begin
    if (q2_beat_ok) begin
        if (!p0_seen && d2_pmask != {WPB{1'b0}})
            p0 <= p0_now;
        p0_seen <= q2_last ? 1'b0 : p0_seen || d2_pmask != {WPB{1'b0}};
    end
    if (rst) begin
        p0_seen <= 1'b0;
        p0 <= 16'd0;
    end
end


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
    .seg_seq(d4_seq), .seq_start(wp_head[31:0]), .markers_on(wp_head[32]), .crc_on(wp_head[33]),
    .w_valid(d4_valid), .w_data(d4_data), .w_pmask(d4_pmask_w), .w_last(d4_last),
    .rec_valid(rec_valid), .rec_ready(rec_ready),
    .rec_lseq_w(rec_lseq_w), .rec_ulen(rec_ulen), .rec_ctrl(rec_ctrl), .rec_ulp(rec_ulp), .rec_hdr(rec_hdr),
    .rec_first(rec_first), .rec_last(rec_last), .sum_ok(sum_ok), .sum_nrec(sum_nrec),
    .sum_valid(sum_valid), .sum_whole(sum_whole), .sum_small(sum_small), .sum_grid(sum_grid),
    .sum_crc_ok(sum_crc_ok), .sum_marker_ok(sum_marker_ok), .sum_first_marker(sum_first_marker),
    .sum_any_l(sum_any_l), .sum_nfpdu(sum_nfpdu), .sum_nrfc(sum_nrfc), .sum_ndraft(sum_ndraft)
);

// ------------------------------------------------------------------ frame records
// class, drop, seq, flags, plen, match, idx, beats stored, oversize
// Two queues, one entry per frame each, popped together with the walker's
// summary: the lookup and ingress part, written three cycles after the
// frame's last beat (fr_end3: its lookup is done), and the
// parser's part, written at its f_valid
// (L_PARSE cycles after the last beat, well before the summary).
localparam PI_W = 2 + 2 + 32 + 8 + 16;
localparam INFO_W = PI_W + 1 + IDX_BITS + 16 + 1 + 16 + LX_W;
reg [15:0] fr_beats;   // beats of the ending frame written to the FIFO
reg        fr_over;
reg        fr_end, fr_end2, fr_end3;   // one, two, three cycles after a frame's last beat
reg [15:0] fr_beats2, fr_beats3;
reg        fr_over2, fr_over3;

always @(posedge clk) begin
    fr_end <= beat_ok && s_axis_tlast;
    fr_end2 <= fr_end;
    fr_end3 <= fr_end2;
    fr_beats3 <= fr_beats2;
    fr_over3 <= fr_over2;
    if (beat_ok && s_axis_tlast) begin
        fr_beats <= ff_write ? cur_beats_p1 : cur_beats;
        fr_over <= overflow || !ff_write || s_axis_tuser;
    end
    fr_beats2 <= fr_beats;
    fr_over2 <= fr_over;
    if (rst) begin
        fr_end <= 1'b0;
        fr_end2 <= 1'b0;
        fr_end3 <= 1'b0;
    end
end
// p0: the frame's payload offset, set at the end of cycle a + 2 at the latest
// (the next frame's at a + 4 at the earliest)
wire [INFO_W-PI_W-1:0] side_in = {frm_x, p0, fr_over3, fr_beats3, frm_idx, frm_match};
wire [INFO_W-PI_W-1:0] side_head;
wire side_valid, side_in_ready;
mpa_rx_fifo #(.WIDTH(INFO_W - PI_W), .DEPTH(IQ_DEPTH)) info_fifo (
    .clk(clk), .rst(rst),
    .s_axis_tdata(side_in), .s_axis_tvalid(fr_end3), .s_axis_tready(side_in_ready),
    .m_axis_tdata(side_head), .m_axis_tvalid(side_valid), .m_axis_tready(info_pop),
    .count(), .empty(), .full()
);
wire [PI_W-1:0] pinfo_head;
mpa_rx_fifo #(.WIDTH(PI_W), .DEPTH(IQ_DEPTH)) pinfo_fifo (
    .clk(clk), .rst(rst),
    .s_axis_tdata({f_plen, f_flags, f_seq, f_drop, f_class}), .s_axis_tvalid(f_valid), .s_axis_tready(info_in_ready),
    .m_axis_tdata(pinfo_head), .m_axis_tvalid(info_valid), .m_axis_tready(info_pop),
    .count(), .empty(), .full()
);
wire [INFO_W-1:0] info_head = {side_head, pinfo_head};

// ------------------------------------------------------------------ verdict
// Three stages, one frame per cycle, in frame order:
// V0: the walker's summary and the frame record meet; read the context
//     (verdict copy), with the context write of the same cycle forwarded.
// V1: every comparison of the segment with the context (sequence numbers
//     against rcv_nxt, the window and the two out-of-order ranges), each
//     registered.
// V2: decide from those bits, update the context, queue the verdict.
// A frame whose context a frame in V1 will write (same index, both
// matched) waits a cycle before V0, so that V0 reads what V2 writes. The
// summary goes straight to V0 when nothing waits, else through a queue
// (two cycles).
localparam SQ_W = 7 + 16 + 16;
wire [SQ_W-1:0] sum_in = {sum_ndraft, sum_nrfc, sum_nrec, sum_any_l, sum_first_marker,
                          sum_crc_ok && sum_marker_ok, sum_grid, sum_small, sum_whole, 1'b0};
wire [SQ_W-1:0] sq_head;
wire            sq_valid, sq_in_ready;
wire [IQ_BITS:0] sq_count;
reg             v1, v1_match;
reg [IDX_BITS-1:0] v1_idx;
wire [IDX_BITS-1:0] info_idx = info_head[61 +: IDX_BITS];
wire            info_match = info_head[60];
wire            v0_hazard = v1 && v1_match && info_match && v1_idx == info_idx;
wire            sq_empty;
wire            v0_byp = sum_valid && sq_empty && !v0_hazard;
wire            v0_go = v0_byp || (sq_valid && !v0_hazard);
wire [SQ_W-1:0] v0_sum = sq_valid ? sq_head : sum_in;
mpa_rx_fifo #(.WIDTH(SQ_W), .DEPTH(IQ_DEPTH)) sum_fifo (
    .clk(clk), .rst(rst),
    .s_axis_tdata(sum_in), .s_axis_tvalid(sum_valid && !v0_byp), .s_axis_tready(sq_in_ready),
    .m_axis_tdata(sq_head), .m_axis_tvalid(sq_valid), .m_axis_tready(v0_go),
    .count(sq_count), .empty(sq_empty), .full()
);
assign info_pop = v0_go;

reg [INFO_W-1:0] v1_info;
reg [SQ_W-1:0]   v1_sum;
reg [31:0]       v1_end;   // seq + payload length
reg [VD_W-1:0]   vd_q;
always @(posedge clk) begin
    vd_q <= ctx_vd[info_idx];
end
// a write in the cycle of the read (from V2 or config) is forwarded
reg [383:0] vd_fwd;
reg         vd_fwd_hit;
always @(posedge clk) begin
    v1 <= v0_go;
    v1_match <= info_match;
    v1_info <= info_head;
    v1_sum <= v0_sum;
    v1_idx <= info_idx;
    v1_end <= info_head[35:4] + {16'd0, info_head[59:44]};
    vd_fwd_hit <= ctx_we && ctx_widx == info_idx;
    vd_fwd <= ctx_wdata;
    if (rst)
        v1 <= 1'b0;
end

/* verilator lint_off UNUSEDSIGNAL */
function seq_lt(input [31:0] a, input [31:0] b);
    reg [31:0] d;
    begin
        d = a - b;
        seq_lt = d[31];
    end
endfunction
/* verilator lint_on UNUSEDSIGNAL */

// V1: the comparisons
/* verilator lint_off UNUSEDSIGNAL */
wire [383:0] c1 = vd_fwd_hit ? vd_fwd : vd_unpack(vd_q);
/* verilator lint_on UNUSEDSIGNAL */
wire [31:0] c1_rcv = c1[95:64];
wire [31:0] c1_r0s = c1[223:192], c1_r0e = c1[255:224], c1_r1s = c1[287:256], c1_r1e = c1[319:288];
wire [31:0] v1_seq = v1_info[35:4];
reg        v2;
reg [INFO_W-1:0] v2_info;
reg [SQ_W-1:0]   v2_sum;
reg [IDX_BITS-1:0] v2_idx;
reg [31:0]  v2_end;
reg [VD_W-1:0] v2_c;
reg [8:0]   v2_mph;
reg b_inorder, b_rcv_lt_end, b_seq_lt_rcv, b_win_ign, b_win_ooo, b_ov0, b_ov1;
reg b_a0, b_b0, b_a1x, b_a1, b_b1x, b_b1, b_r0_seq, b_r0_r1, b_r1_seq, b_r1_r0;
always @(posedge clk) begin
    v2 <= v1;
    v2_info <= v1_info;
    v2_sum <= v1_sum;
    v2_idx <= v1_idx;
    v2_end <= v1_end;
    v2_c <= vd_pack(c1);
    // the frame octet offset of a marker position, mod 512
    v2_mph <= v1_info[78+IDX_BITS +: 9] + v1_info[94+IDX_BITS +: 9] - v1_seq[8:0];
    b_inorder <= v1_seq == c1_rcv;
    b_rcv_lt_end <= seq_lt(c1_rcv, v1_end);
    b_seq_lt_rcv <= seq_lt(v1_seq, c1_rcv);
    b_win_ign <= (v1_seq - c1_rcv) >= WINDOW;
    b_win_ooo <= (v1_end - c1_rcv) > WINDOW;
    b_ov0 <= seq_lt(v1_seq, c1_r0e) && seq_lt(c1_r0s, v1_end);
    b_ov1 <= seq_lt(v1_seq, c1_r1e) && seq_lt(c1_r1s, v1_end);
    // the out-of-order range merge (golden/fastpath addRange) and the
    // in-order advance over the ranges
    b_a0 <= c1_r0e == v1_seq;
    b_b0 <= v1_end == c1_r0s;
    b_a1x <= c1_r1e == c1_r0s;
    b_a1 <= c1_r1e == v1_seq;
    b_b1x <= c1_r0e == c1_r1s;
    b_b1 <= v1_end == c1_r1s;
    b_r0_seq <= seq_lt(c1_r0s, v1_seq);
    b_r0_r1 <= seq_lt(c1_r0s, c1_r1s);
    b_r1_seq <= seq_lt(c1_r1s, v1_seq);
    b_r1_r0 <= seq_lt(c1_r1s, c1_r0s);
    if (rst)
        v2 <= 1'b0;
end

// V2: decide
wire [1:0]  i_class = v2_info[1:0];
wire [1:0]  i_drop  = v2_info[3:2];
wire [31:0] i_seq   = v2_info[35:4];
wire [7:0]  i_flags = v2_info[43:36];
wire [15:0] i_plen  = v2_info[59:44];
wire        i_match = v2_info[60];
wire [15:0] i_beats = v2_info[61+IDX_BITS +: 16];
wire        i_over  = v2_info[77+IDX_BITS];
wire [15:0] i_p0    = v2_info[78+IDX_BITS +: 16];
wire        i_mk    = v2_info[103+IDX_BITS];
wire [1:0]  i_dv    = v2_info[104+IDX_BITS +: 2];
wire [11:0] i_stream = v2_info[106+IDX_BITS +: 12];
wire        s_whole = v2_sum[1], s_small = v2_sum[2], s_grid = v2_sum[3], s_checks = v2_sum[4];
wire        s_first_marker = v2_sum[5], s_any_l = v2_sum[6];
wire [15:0] s_nrec = v2_sum[7 +: 16];
wire [15:0] s_nform = v2_sum[23 +: 16];

wire [383:0] c = vd_unpack(v2_c);
wire c_full = c[1], c_err = c[2], c_sw = c[3], c_m = c[4], c_c = c[5];
wire c_r0 = c[6], c_r1 = c[7];
wire [31:0] c_rcv = c[95:64];
wire [31:0] r0s = c[223:192], r0e = c[255:224], r1s = c[287:256], r1e = c[319:288];
wire [31:0] seg_end = v2_end;
wire inorder = b_inorder;

// out-of-order range merge (golden/fastpath addRange), from V1's bits
wire m_a0 = c_r0 && b_a0;                       // range 0 ends where the segment starts
wire m_b0 = !m_a0 && c_r0 && b_b0;              // range 0 starts where it ends
wire m_a1 = c_r1 && (m_a0 ? b_a1x : b_a1);      // range 1 ends at the merged start
wire m_b1 = !m_a1 && c_r1 && (m_b0 ? b_b1x : b_b1);   // range 1 starts at the merged end
wire [31:0] ns = m_a1 ? r1s : m_a0 ? r0s : i_seq;
wire [31:0] ne = m_b1 ? r1e : m_b0 ? r0e : seg_end;
wire k0 = c_r0 && !m_a0 && !m_b0;   // existing range kept (not merged)
wire k1 = c_r1 && !m_a1 && !m_b1;
wire m_ok = !(k0 && k1);
wire r0_first = m_a1 ? b_r0_r1 : b_r0_seq;    // k0 && !k1: range 0 before the merged one
wire r1_first = m_a0 ? b_r1_r0 : b_r1_seq;    // k1 && !k0
reg  [31:0] n0s, n0e, n1s, n1e;
always @* begin
    n0s = ns; n0e = ne; n1s = ns; n1e = ne;
    if (k0 && !k1) begin
        if (r0_first) begin n0s = r0s; n0e = r0e; end
        else begin n1s = r0s; n1e = r0e; end
    end else if (k1 && !k0) begin
        if (r1_first) begin n0s = r1s; n0e = r1e; end
        else begin n1s = r1s; n1e = r1e; end
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
        else if (i_plen == 16'd0 || !b_rcv_lt_end)
            verdict = V_IGNORE;
        else if (b_seq_lt_rcv)
            reason = R_UNALIGNED;
        else if (b_win_ign)
            verdict = V_IGNORE;
        else if (b_win_ooo)
            reason = R_OOO;
        else if ((c_r0 && b_ov0) || (c_r1 && b_ov1))
            reason = R_UNALIGNED;
        else if (!inorder && !(c_m && c_c))
            reason = R_OOO;
        else if (!s_grid || !s_whole || i_plen[1:0] != 2'd0)   // FPDUs are whole words
            reason = R_UNALIGNED;
        else if (!inorder && !s_first_marker)
            reason = R_OOO;
        else if (!s_checks)
            reason = R_MPA_CHECK;
        else if (s_small)
            reason = R_UNALIGNED;
        else if (!inorder && s_any_l)
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
            // advance over the ranges that now follow (range 0, then 1)
            adv = seg_end;
            c_new[6] = c_r0; c_new[7] = c_r1;
            if (c_r0 && b_b0) begin
                adv = r0e;
                c_new[6] = 1'b0;
                if (c_r1 && b_b1x) begin
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
            c_new[6] = 1'b1; c_new[7] = k0 || k1;
            c_new[223:192] = n0s; c_new[255:224] = n0e;
            c_new[287:256] = n1s; c_new[319:288] = n1e;
            c_write = 1'b1;
        end
    end
end

// context writes: the verdict's, else a configuration write (op 0). The
// configuration port waits while a frame is in V1 (its context was read),
// while V2 writes, and while the DDP stage's receive-queue update holds it.
wire ddp_busy;
assign cfg_ready = !v1 && !(v2 && c_write) && !ddp_busy;
wire cfg_ctx = cfg_valid && cfg_ready && cfg_op == 3'd0;
always @* begin
    ctx_we = 1'b0;
    ctx_widx = v2_idx;
    ctx_wdata = c_new;
    if (v2 && c_write) begin
        ctx_we = 1'b1;
    end else if (cfg_ctx) begin
        ctx_we = 1'b1;
        ctx_widx = cfg_index[IDX_BITS-1:0];
        ctx_wdata = cfg_data;
    end
end
always @* cfg_we_lk = cfg_ctx;
always @(posedge clk) begin
    if (ctx_we)
        ctx_vd[ctx_widx] <= vd_pack(ctx_wdata);
    if (cfg_we_lk)
        ctx_lk[cfg_index[IDX_BITS-1:0]] <= lk_pack(cfg_data);
end

// verdict queue: verdict, reason, drop code, idx, seq, end, plen, beats, advanced-to, in order, records,
// stream, DDP version, markers, marker phase, payload offset, FPDUs by FPDUPTR form (RFC 5044, draft-01)
localparam VQ_W = 2 + 4 + 2 + IDX_BITS + 32 + 32 + 16 + 16 + 32 + 1 + 16 + 12 + 2 + 1 + 9 + 16 + 16;
wire [VQ_W-1:0] vq_in = {s_nform, i_p0, v2_mph, i_mk && c_m, i_dv, i_stream, s_nrec, inorder, adv, i_beats, i_plen, seg_end,
                         i_seq, v2_idx, i_over ? 2'd0 : i_drop, reason, verdict};
wire [VQ_W-1:0] vq_head;
wire vq_valid, vq_pop, vq_in_ready;
mpa_rx_fifo #(.WIDTH(VQ_W), .DEPTH(IQ_DEPTH)) verdict_fifo (
    .clk(clk), .rst(rst),
    .s_axis_tdata(vq_in), .s_axis_tvalid(v2), .s_axis_tready(vq_in_ready),
    .m_axis_tdata(vq_head), .m_axis_tvalid(vq_valid), .m_axis_tready(vq_pop),
    .count(), .empty(), .full()
);

// ------------------------------------------------------------------ egress
// E1 (mpa_rx_ddp): events and DDP checks; E2 (mpa_rx_place): beats out,
// host writes. E1 hands each frame to E2 with a token and the placement
// descriptors of its FPDUs.
wire tok_pop, e2_done;
// inflight +- 1 made from the register, selected by the handshakes
wire       infl_in = beat_ok && s_axis_tlast;
wire [5:0] inflight_p1 = inflight + 6'd1;
wire [5:0] inflight_m1 = inflight - 6'd1;
always @(posedge clk) begin
    if (infl_in && !e2_done)
        inflight <= inflight_p1;
    else if (!infl_in && e2_done)
        inflight <= inflight_m1;
    if (rst)
        inflight <= 6'd0;
end

wire [IDX_BITS-1:0] e_idx = vq_head[8 +: IDX_BITS];
wire        tok_push, tok_in_ready, tok_valid;
wire [37:0] tok_in, tok_head;
wire        desc_push, desc_in_ready, desc_valid, desc_pop;
wire [105:0] desc_in, desc_head;
mpa_rx_ddp #(.IDX_BITS(IDX_BITS), .STAG_COUNT(STAG_COUNT), .RQ_DEPTH(RQ_DEPTH), .EVT_LANES(EVT_LANES)) ddp (
    .clk(clk), .rst(rst),
    .f_valid(vq_valid), .f_ready(vq_pop),
    .f_verdict(vq_head[1:0]), .f_reason(vq_head[5:2]), .f_drop(vq_head[7:6]), .f_idx(e_idx),
    .f_seq(vq_head[8+IDX_BITS +: 32]), .f_end(vq_head[40+IDX_BITS +: 32]), .f_plen(vq_head[72+IDX_BITS +: 16]),
    .f_beats(vq_head[88+IDX_BITS +: 16]), .f_adv(vq_head[104+IDX_BITS +: 32]), .f_inorder(vq_head[136+IDX_BITS]),
    .f_nrec(vq_head[137+IDX_BITS +: 16]), .f_stream(vq_head[153+IDX_BITS +: 12]), .f_dv(vq_head[165+IDX_BITS +: 2]),
    .f_mk(vq_head[167+IDX_BITS]), .f_mph(vq_head[168+IDX_BITS +: 9]), .f_p0(vq_head[177+IDX_BITS +: 16]),
    .f_nrfc(vq_head[193+IDX_BITS +: 8]), .f_ndraft(vq_head[201+IDX_BITS +: 8]),
    .rec_valid(rec_valid), .rec_ready(rec_ready), .rec_lseq_w(rec_lseq_w), .rec_ulen(rec_ulen), .rec_ctrl(rec_ctrl),
    .rec_hdr(rec_hdr),
    .cfg_valid(cfg_valid && cfg_ready), .cfg_op(cfg_op), .cfg_index(cfg_index), .cfg_data(cfg_data), .busy(ddp_busy),
    .m_evt_tdata(m_evt_tdata), .m_evt_tkeep(m_evt_tkeep), .m_evt_tvalid(m_evt_tvalid), .m_evt_tready(m_evt_tready),
    // the token and descriptor FIFOs are never full (MAX_INFLIGHT tokens,
    // MAX_FPDUS descriptors; asserted below): E1 does not wait on them
    .tok_valid(tok_push), .tok_ready(1'b1), .tok_data(tok_in),
    .desc_valid(desc_push), .desc_ready(1'b1), .desc_data(desc_in)
);

mpa_rx_fifo #(.WIDTH(38), .DEPTH(IQ_DEPTH)) tok_fifo (
    .clk(clk), .rst(rst),
    .s_axis_tdata(tok_in), .s_axis_tvalid(tok_push), .s_axis_tready(tok_in_ready),
    .m_axis_tdata(tok_head), .m_axis_tvalid(tok_valid), .m_axis_tready(tok_pop),
    .count(), .empty(), .full()
);
localparam DESC_DEPTH = 1 << $clog2(MAX_FPDUS);
mpa_rx_fifo #(.WIDTH(106), .DEPTH(DESC_DEPTH)) desc_fifo (
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

wire unused = &{1'b0, side_valid, side_in_ready, rec_ulp, rec_first, rec_last, sum_ok, sum_nfpdu, ff_count, ff_last, wp_valid, info_valid,
                 info_in_ready, lk_ent, wp_in_ready, vq_in_ready, sq_count,
                 tok_in_ready, desc_in_ready, cfg_index, i_flags[7:3], v2_sum[0]};

`ifdef VERILATOR
// Assertions (Verilator --assert; docs/robustness.md): queues whose writer
// does not wait are never written full (frame records, walker parameters,
// verdicts; tokens and descriptors are sized never to fill); the walker's
// summary always meets its frame record; at most MAX_INFLIGHT frames in flight; E1
// takes each frame's walker records as the frame's first to last record
// (sum_nrec of them; with two event lanes E1 takes the verdict queue's
// head with its VERDICT beat and its records after it, but the first,
// which it can take before: there the records of a frame are counted
// from its first to its last).
reg  [15:0] a_rec;      // records E1 took of the frame at the verdict queue's head
wire        a_take = rec_ready && rec_valid;
wire [15:0] a_nrec = vq_head[137+IDX_BITS +: 16];
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
        assert (!ff_write || ff_in_ready) else $error("mpa_rx: frame FIFO written when full");
        assert (!f_valid || info_in_ready) else $error("mpa_rx: frame-record FIFO (parser) written when full");
        assert (!fr_end3 || side_in_ready) else $error("mpa_rx: frame-record FIFO written when full");
        assert (!(lk_pend || wp_push_nt) || wp_in_ready) else $error("mpa_rx: walker-parameter FIFO written when full");
        assert (!v2 || vq_in_ready) else $error("mpa_rx: verdict FIFO written when full");
        assert (!sum_valid || sq_in_ready || v0_byp) else $error("mpa_rx: summary FIFO written when full");
        assert (!tok_push || tok_in_ready) else $error("mpa_rx: token FIFO full");
        assert (!desc_push || desc_in_ready) else $error("mpa_rx: descriptor FIFO written when full");
        assert (!sum_valid || (info_valid && side_valid)) else $error("mpa_rx: walker summary without a frame record");
        assert (!wp_pop || wp_valid) else $error("mpa_rx: walker parameters missing at a frame's end");
        assert (inflight <= MAXF) else $error("mpa_rx: %0d frames in flight", inflight);
        assert (!e2_done || inflight != 6'd0) else $error("mpa_rx: a frame leaves with none in flight");
        assert (!a_take || rec_first == (a_rec == 16'd0))
            else $error("mpa_rx: record %0d of a frame has first=%b", a_rec, rec_first);
        assert (EVT_LANES != 1 || !(a_take && rec_last) || a_rec + 16'd1 == a_nrec)
            else $error("mpa_rx: last record of a frame is number %0d of %0d", a_rec + 16'd1, a_nrec);
        assert (!(cfg_valid && cfg_ready) || !ddp_busy) else $error("mpa_rx: configuration write while busy");
    end
end
`endif

endmodule

`resetall
