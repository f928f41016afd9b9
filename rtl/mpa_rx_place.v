// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_place: stage E2 of the mpa_rx egress (docs/design.md section 5):
 * reads each frame's stored beats in order and sends an exception frame
 * unmodified to m_exc_axis, frees a dropped or ignored frame, and for a
 * PLACE frame writes the DDP payload of every placed FPDU to host memory:
 * the octets of the FPDU's payload region of the frame, markers skipped,
 * go to [d, d+n) (placement descriptors from mpa_rx_ddp), one write per
 * aligned DATA_WIDTH/8-octet host word, with byte strobes.
 *
 * The payload lanes of a beat are one run with at most one 4-octet marker
 * hole, so two byte rotations of the beat (before and after the hole) put
 * every lane in its host slot: no lane-by-lane count, no crossbar.
 *
 * Per cycle one beat is read, or at 256 and 512 bits one (beat, FPDU) pair;
 * an FPDU whose payload ends in a beat where it also completes the word
 * before leaves its last write pending (fl) for the next cycle, while the
 * beats after it that are outside a payload run are read (the rest of the
 * frame, the next frame's header beats).
 *
 * Pipelining: tokens pass a two-entry skid buffer (tok_ready is a
 * register), so a frame starts here one cycle after its token is at the
 * token FIFO's head (three after E1 ended it); frame_done marks the end of
 * its egress. Descriptors pass two register stages that do the lane
 * arithmetic of an FPDU's first payload beat, and the marker holes of the
 * beats after it are computed a beat ahead. The beat at hand is described
 * by registers made a cycle ahead: where its run ends in the host word and
 * the next (e = dsl + min(rem, total), the lanes strobed are [dsl, e) and
 * [K, e)), where its part before the hole ends (en), whether the payload
 * ends in it (the sign of rem - total - 1), whether it is the FPDU's first
 * payload beat (at_os) and the host word after the current one (dw1), so
 * that a strobe is a compare of a lane number with a register and the
 * handshakes a few gates (LUT levels and HX8K fmax: docs/synth.md). Outputs
 * are combinational from the frame FIFO's head and these registers.
 */
module mpa_rx_place #(
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH / 8
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire                  tok_valid,
    output wire                  tok_ready,
    input  wire [37:0]           tok_data,    // TOK_* (mpa_rx_fields.vh)
    output wire                  frame_done,  // the end of a frame's egress
    input  wire                  desc_valid,
    output wire                  desc_ready,
    input  wire [105:0]          desc_data,   // DESC_*

    input  wire [DATA_WIDTH-1:0] ff_data,
    input  wire [KEEP_WIDTH-1:0] ff_keep,
    input  wire                  ff_valid,
    output wire                  ff_ready,

    output wire [DATA_WIDTH-1:0] m_exc_axis_tdata,
    output wire [KEEP_WIDTH-1:0] m_exc_axis_tkeep,
    output wire                  m_exc_axis_tvalid,
    input  wire                  m_exc_axis_tready,
    output wire                  m_exc_axis_tlast,
    output wire [3:0]            m_exc_axis_tuser,

    output wire [63:0]           m_host_addr,
    output wire [DATA_WIDTH-1:0] m_host_data,
    output wire [KEEP_WIDTH-1:0] m_host_strb,
    output wire                  m_host_valid,
    input  wire                  m_host_ready
);

`include "mpa_rx_fields.vh"

generate
if (!(DATA_WIDTH == 64 || DATA_WIDTH == 128 || DATA_WIDTH == 256 || DATA_WIDTH == 512)) begin : g_bad_data_width
`ifndef SYNTHESIS
    initial begin
        $error("mpa_rx_place: DATA_WIDTH %0d is not supported (64, 128, 256 or 512)", DATA_WIDTH);
        $finish;
    end
`endif
    // elaboration stops here in every tool: this module does not exist
    mpa_rx_place_DATA_WIDTH_must_be_64_128_256_or_512 param_error ();
end
if (KEEP_WIDTH * 8 != DATA_WIDTH) begin : g_bad_keep_width
`ifndef SYNTHESIS
    initial begin
        $error("mpa_rx_place: KEEP_WIDTH %0d is not DATA_WIDTH / 8", KEEP_WIDTH);
        $finish;
    end
`endif
    mpa_rx_place_KEEP_WIDTH_must_be_DATA_WIDTH_over_8 param_error ();
end
if (TOK_W != 38 || DESC_W != 106) begin : g_bad_record
    // the port widths above follow mpa_rx_fields.vh
    mpa_rx_place_port_widths_must_follow_mpa_rx_fields_vh param_error ();
end
endgenerate

localparam LK = $clog2(KEEP_WIDTH);
localparam integer KI = KEEP_WIDTH;
localparam [LK:0] K = KI[LK:0];

// Hole geometry of a beat whose lane 0 has marker phase d ((beat offset -
// marker phase) mod 512) in a frame with markers (mk): the marker's lanes
// [hs, he) in the beat (a marker is 4 octets, markers are 512 octets apart
// and a beat is at most 64, so at most one, possibly cut by the beat's
// edge); hs = he = K without one. Returned as {hs, hw, K - hw}, hw =
// he - hs its width, each straight from d (no subtract of hs from he).
function [2*LK+4:0] hole;
    input [8:0] d;
    input       mk;
    reg         head, in, full;
    reg  [LK-1:0] lo;
    reg  [LK:0] hs, tot;
    reg  [2:0]  hw;
    begin
        lo = d[LK-1:0];
        head = mk && d[8:2] == 7'd0;               // a marker from the beat before runs into lane 0
        in = mk && &d[8:LK] && lo != 0;            // one starts in the beat (512 - d < K) at K - lo
        full = lo[LK-1:2] != 0;                    // and fits in it (lo >= 4)
        hs = head ? {(LK+1){1'b0}} : in ? K - {1'b0, lo} : K;
        hw = head ? 3'd4 - {1'b0, d[1:0]} : in ? (full ? 3'd4 : {1'b0, lo[1:0]}) : 3'd0;
        tot = head ? K - 4 + {{(LK-1){1'b0}}, d[1:0]} : in ? (full ? K - 4 : K - {1'b0, lo}) : K;
        hole = {hs, hw, tot};
    end
endfunction

// x + 1 for a host word address, in 16-bit pieces each incremented when
// the bits below it are all ones (short carry chains: HX8K fmax); the
// descriptor's first word + 1 is made so in P, and dw1's own increments
// in A use the all-ones tests of its two low pieces kept as registers
function [63-LK:0] inc_w;
    input [63-LK:0] x;
    begin
        inc_w[15:0] = x[15:0] + 16'd1;
        inc_w[31:16] = x[31:16] + {15'd0, &x[15:0]};
        inc_w[47:32] = x[47:32] + {15'd0, &x[31:0]};
        inc_w[63-LK:48] = x[63-LK:48] + {{(15-LK){1'b0}}, &x[47:0]};
    end
endfunction

// ------------------------------------------------------------------ token
// A two-entry skid buffer: t0 is the frame E2 works on, t1 the next one;
// tok_ready is a register (t1 empty).
reg        t0_v, t1_v;
reg [TOK_W-1:0] t0, t1;
wire       frame_end;       // E2 is done with the frame in t0
wire       tok_take = tok_valid && !t1_v;
assign tok_ready = !t1_v;
wire [TOK_W-1:0] t_next = t1_v ? t1 : tok_data;   // the frame that follows t0
wire        t_next_v = t1_v || tok_take;
wire        t_load = t_next_v && (!t0_v || frame_end);

wire [1:0]  t_verdict = t0[TOK_VERDICT +: TOK_VERDICT_W];
wire [3:0]  t_reason = t0[TOK_REASON +: TOK_REASON_W];
wire [15:0] t_beats = t0[TOK_BEATS +: TOK_BEATS_W];
wire [15:0] t_ndesc = t0[TOK_NDESC +: TOK_NDESC_W];
wire        is_place = t0_v && t_verdict == VERDICT_PLACE;
wire        exc = t0_v && t_verdict == VERDICT_EXC;

// beats of the frame left to read and descriptors left to use, with their
// tests registered
reg  [15:0] cnt;            // beats of the frame read
reg  [15:0] cnt1;           // cnt + 1
reg  [15:0] bleft;          // t_beats - cnt
reg         b_any, b_last;  // bleft != 0, bleft == 1
reg  [15:0] dleft;          // descriptors of the frame not finished
reg         d_any, d_more;  // dleft != 0, dleft > 1

// ------------------------------------------------------------------ descriptors
// Two stages between the descriptor FIFO and the descriptor E2 works on:
// P (first-payload beat, lane, the marker hole of that beat, marker phases
// of the beats after it) and A, the active descriptor, with the lane
// arithmetic of its first beat done.
wire [63:0] q_d = desc_data[DESC_ADDR +: DESC_ADDR_W];
wire [15:0] q_n = desc_data[DESC_LEN +: DESC_LEN_W];
wire [15:0] q_os = desc_data[DESC_OFF +: DESC_OFF_W];
wire [8:0]  q_mph = desc_data[DESC_MPH +: DESC_MPH_W];
wire        q_mk = desc_data[DESC_MARKERS];

reg          p_v;
reg  [63:0]  p_d;
reg  [63-LK:0] p_dw1;       // p_d / K + 1
reg  [15:0]  p_osb;         // beat of the first payload octet
reg  [LK:0]  p_l0;          // and its lane
reg  [LK:0]  p_hs;          // the hole in that beat: its first lane
reg  [2:0]   p_hw;          // and width
reg          p_le;          // the payload run starts before the hole
reg  [LK:0]  p_e;           // (d + K - l0) mod 2K: the first beat's end before the hole's width
reg  [LK:0]  p_vl;          // (d + n) mod 2K
reg  [LK:0]  p_dml;         // (d - l0) mod 2K
reg  [17:0]  p_dk;          // n - (K - l0) - 1
reg  [8:0]   p_ph1, p_ph2;  // marker phases of the two beats after it
reg  [LK-1:0] p_r1;         // the rotation before the hole in that beat
reg          p_mk;
wire [8:0]   q_ob = {q_os[8:LK], {LK{1'b0}}};
wire [8:0]   q_ph0 = q_ob - q_mph;
wire [2*LK+4:0] q_hole = hole(q_ph0, q_mk);
wire [LK:0]  q_hs = q_hole[2*LK+4:LK+4];
wire [2:0]   q_hw = q_hole[LK+3:LK+1];
// l0 <= hs without hs: with a marker running into the beat, l0 == 0; with
// one starting in it at K - lo, lo = -mph mod K (the beat's offset is a
// multiple of K), l0 + lo <= K is l0 <= mph mod K
wire         q_head = q_mk && q_ph0[8:2] == 7'd0;
wire         q_in = q_mk && &q_ph0[8:LK] && q_ph0[LK-1:0] != 0;
wire         q_le = q_head ? q_os[LK-1:0] == 0 : !q_in || q_os[LK-1:0] <= q_mph[LK-1:0];
wire [LK:0]  q_l0 = {1'b0, q_os[LK-1:0]};

reg          a_v;
reg  [15:0]  a_osb;
reg          started;       // the first beat of its payload is done
reg  [63:0]  dn;            // the address of its next payload octet
reg  [63-LK:0] dw1;         // dn / K + 1: the host word after dn's
reg          dw1_f0, dw1_f1;  // &dw1[15:0], &dw1[31:16]
// With rem its payload octets still to write, total the payload lanes of
// the beat at hand and nb those before the hole (dsl = dn mod K, the lane
// of the host word the beat's first payload octet goes to):
reg  [17:0]  dk;            // rem - total - 1: the payload ends in the beat iff < 0
reg  [LK:0]  ve;            // (dsl + rem) mod 2K
reg  [LK:0]  e;             // dsl + min(rem, total): the end of the beat's run in the word and the next
reg  [LK:0]  en;            // dsl + nb: the end of its part before the hole
reg  [LK-1:0] rot1, rot2;   // the byte rotations of the beat before and after the hole
reg  [LK:0]  n_nb, n_total;  // the beat after it: lanes before its hole, payload lanes
reg  [2:0]   n_hl;          // and the hole's width
reg  [8:0]   ph_nn;         // marker phase of the beat after that
reg          a_mk;

// first-beat arithmetic from P. The first payload octet is never a
// marker's (mpa_rx_ddp moves o_s past a marker that starts there), so the
// run starts before the hole (l0 <= hs) or after it (l0 >= he).
wire [2:0]  p_hl = p_le ? p_hw : 3'd0;
wire [17:0] p_dkh = p_dk + {15'd0, p_hl};
wire [LK:0] p_et = p_e - {{(LK-2){1'b0}}, p_hl};      // d mod K + total
wire [LK:0] p_en = p_le ? p_dml + p_hs : {1'b0, p_d[LK-1:0]};
wire [LK-1:0] p_rot2 = p_r1 + {{(LK-3){1'b0}}, p_hl};
wire [2*LK+4:0] p_hole1 = hole(p_ph1, p_mk);
// the beat after the next, for the started run
wire [2*LK+4:0] g_hole = hole(ph_nn, a_mk);

// ------------------------------------------------------------------ the beat
reg         fl;        // the pending word is the FPDU's last write
reg         pv;
reg  [63:0] pa;
reg  [DATA_WIDTH-1:0] pd;
reg  [KEEP_WIDTH-1:0] ps;

reg  at_os;                 // cnt == a_osb (registered: the compares are made on the next values' candidates)
wire has_desc = a_v && d_any;
wire in_run = has_desc && (started || at_os);   // the beat is in the current FPDU's payload run
wire in_beat = is_place && !fl && in_run;
wire        done_f = dk[17];                              // the payload ends in the beat
wire        complete = e[LK];                             // it reaches the word's end
wire        straddle = e[LK] && e[LK-1:0] != 0;           // and goes past it
wire [LK-1:0] dsl = dn[LK-1:0];
// the next beat of the run (a step: the payload goes on past this beat)
wire [17:0] s_dk = dk - {{(17-LK){1'b0}}, n_total};
wire [LK:0] s_ve = {ve[LK] ^ e[LK], ve[LK-1:0]};
wire [LK:0] s_e = s_dk[17] ? s_ve : {1'b0, e[LK-1:0]} + n_total;
wire [LK:0] s_en = {1'b0, e[LK-1:0]} + n_nb;
wire [LK-1:0] s_rot1 = -e[LK-1:0];
wire [2*DATA_WIDTH-1:0] dd = {ff_data, ff_data};
wire [2*DATA_WIDTH-1:0] sh1 = dd >> {rot1, 3'b000};
wire [2*DATA_WIDTH-1:0] sh2 = dd >> {rot2, 3'b000};
wire [DATA_WIDTH-1:0] r1 = sh1[DATA_WIDTH-1:0];
wire [DATA_WIDTH-1:0] r2 = sh2[DATA_WIDTH-1:0];
reg  [DATA_WIDTH-1:0] r;
reg  [KEEP_WIDTH-1:0] s0, s1;
reg                   hi;
integer h;
// slot h of the word takes payload index (h - dsl) mod K: the run's lanes
// are [dsl, e) of this word and [K, e) of the next, those before the hole
// [dsl, en)
always @* begin
    for (h = 0; h < KEEP_WIDTH; h = h + 1) begin
        hi = h[LK-1:0] >= dsl;
        r[8*h +: 8] = (hi ? {1'b0, h[LK-1:0]} < en : {1'b1, h[LK-1:0]} < en) ? r1[8*h +: 8] : r2[8*h +: 8];
        s0[h] = hi && {1'b0, h[LK-1:0]} < e;
        s1[h] = {1'b1, h[LK-1:0]} < e;
    end
end

wire wr = in_beat && (done_f || complete);
wire [63:0] w0 = {dn[63:LK], {LK{1'b0}}};
reg  [DATA_WIDTH-1:0] merged;
integer m;
always @* begin
    for (m = 0; m < KEEP_WIDTH; m = m + 1)
        merged[8*m +: 8] = s0[m] ? r[8*m +: 8] : pd[8*m +: 8];
end
wire [KEEP_WIDTH-1:0] strb0 = s0 | (pv ? ps : {KEEP_WIDTH{1'b0}});

// a beat is read unless, at more than 16 lanes, an FPDU ends in it and
// another placed FPDU of the frame follows
wire keep_beat = KEEP_WIDTH > 16 && in_beat && done_f && d_more;
// while the last write of an FPDU is pending (fl), beats outside a payload
// run go on (the rest of the frame, the next frame's header beats)
wire pass_ok = is_place && !(fl && in_run) && ff_valid && b_any && (!wr || m_host_ready);
wire flush_ok = fl && m_host_ready;
wire read_beat = pass_ok && !keep_beat;
wire set_fl = pass_ok && in_beat && done_f && straddle;
wire a_done = pass_ok && in_beat && done_f;
wire adv = read_beat && in_beat;               // a beat of the started run is done

assign m_host_valid = fl || (is_place && ff_valid && wr);
assign m_host_addr = fl ? pa : w0;
assign m_host_data = fl ? pd : merged;
assign m_host_strb = fl ? ps : strb0;

assign m_exc_axis_tvalid = exc && b_any && ff_valid;
assign m_exc_axis_tdata = ff_data;
assign m_exc_axis_tkeep = ff_keep;
assign m_exc_axis_tlast = b_last;
assign m_exc_axis_tuser = t_reason;

wire other_ok = t0_v && !is_place && b_any && ff_valid && (!exc || m_exc_axis_tready);
assign ff_ready = other_ok || read_beat;
assign frame_end = t0_v && (!b_any || ((other_ok || read_beat) && b_last));
assign frame_done = frame_end;

wire a_load = p_v && (!a_v || a_done);
wire cnt_clr = frame_end || !t0_v;
wire os_clr = a_load ? p_osb == 16'd0 : a_osb == 16'd0;
wire os_inc = a_load ? cnt1 == p_osb : cnt1 == a_osb;
wire os_hold = a_load ? cnt == p_osb : at_os;
wire p_load = desc_valid && (!p_v || a_load);
assign desc_ready = p_load;

wire [15:0] n_beats = t_next[TOK_BEATS +: TOK_BEATS_W];
wire [15:0] n_ndesc = t_next[TOK_NDESC +: TOK_NDESC_W];
always @(posedge clk) begin
    // token
    if (t_load) begin
        t0 <= t_next;
        t0_v <= 1'b1;
    end else if (frame_end) begin
        t0_v <= 1'b0;
    end
    if (tok_take && t0_v && !frame_end)
        t1 <= tok_data;
    if (tok_take && t0_v && !frame_end)
        t1_v <= 1'b1;
    else if (t_load)
        t1_v <= 1'b0;

    // beats and descriptors of the frame
    if (ff_ready) begin
        cnt <= cnt1;
        cnt1 <= cnt1 + 16'd1;
        bleft <= bleft - 16'd1;
        b_any <= !b_last;
        b_last <= bleft == 16'd2;
    end
    if (a_done) begin
        dleft <= dleft - 16'd1;
        d_any <= d_more;
        d_more <= dleft > 16'd2;
    end
    if (cnt_clr) begin
        cnt <= 16'd0;
        cnt1 <= 16'd1;
        bleft <= n_beats;
        b_any <= t_load && n_beats != 16'd0;
        b_last <= n_beats == 16'd1;
        dleft <= n_ndesc;
        d_any <= t_load && n_ndesc != 16'd0;
        d_more <= n_ndesc > 16'd1;
    end

    at_os <= cnt_clr ? os_clr : ff_ready ? os_inc : os_hold;

    // descriptors: P, then A
    if (p_load) begin
        p_d <= q_d;
        p_dw1 <= inc_w(q_d[63:LK]);
        p_osb <= q_os >> LK;
        p_l0 <= {1'b0, q_os[LK-1:0]};
        p_r1 <= q_os[LK-1:0] - q_d[LK-1:0];
        p_hs <= q_hs;
        p_hw <= q_hw;
        p_le <= q_le;
        p_e <= {1'b0, q_d[LK-1:0]} + K - q_l0;
        p_vl <= {1'b0, q_d[LK-1:0]} + q_n[LK:0];
        p_dml <= {1'b0, q_d[LK-1:0]} - q_l0;
        p_dk <= {2'b00, q_n} + {{(17-LK){1'b0}}, q_l0} - {{(17-LK){1'b0}}, K} - 18'd1;
        p_ph1 <= q_ph0 + KI[8:0];
        p_ph2 <= q_ph0 + 2 * KI[8:0];
        p_mk <= q_mk;
    end
    if (p_load)
        p_v <= 1'b1;
    else if (a_load)
        p_v <= 1'b0;

    // the beat
    if (adv) begin
        n_nb <= g_hole[2*LK+4:LK+4];
        n_hl <= g_hole[LK+3:LK+1];
        n_total <= g_hole[LK:0];
        ph_nn <= ph_nn + KI[8:0];
    end
    if (pass_ok && in_beat) begin
        if (!done_f) begin
            started <= 1'b1;
            dk <= s_dk;
            ve <= s_ve;
            e <= s_e;
            en <= s_en;
            dn <= {e[LK] ? dw1 : dn[63:LK], e[LK-1:0]};
            if (e[LK]) begin
                dw1[15:0] <= dw1[15:0] + 16'd1;
                dw1[31:16] <= dw1[31:16] + {15'd0, dw1_f0};
                dw1[63-LK:32] <= dw1[63-LK:32] + {{(31-LK){1'b0}}, dw1_f0 && dw1_f1};
                dw1_f0 <= dw1[15:0] == 16'hfffe;
                dw1_f1 <= dw1_f0 ? dw1[31:16] == 16'hfffe : dw1_f1;
            end
            rot1 <= s_rot1;
            rot2 <= s_rot1 + {{(LK-3){1'b0}}, n_hl};
        end
        if (straddle) begin
            pv <= 1'b1;
            pa <= {dw1, {LK{1'b0}}};
            pd <= r;
            ps <= s1;
        end else if (wr) begin
            pv <= 1'b0;
        end else begin
            pv <= 1'b1;
            pa <= w0;
            pd <= merged;
            ps <= strb0;
        end
        fl <= set_fl;
    end
    if (flush_ok) begin
        fl <= 1'b0;
        pv <= 1'b0;
    end
    if (a_load) begin
        a_osb <= p_osb;
        a_mk <= p_mk;
        started <= 1'b0;
        dn <= p_d;
        dw1 <= p_dw1;
        dw1_f0 <= &p_dw1[15:0];
        dw1_f1 <= &p_dw1[31:16];
        dk <= p_dkh;
        ve <= p_vl;
        e <= p_dkh[17] ? p_vl : p_et;
        en <= p_en;
        rot1 <= p_r1;
        rot2 <= p_rot2;
        n_nb <= p_hole1[2*LK+4:LK+4];
        n_hl <= p_hole1[LK+3:LK+1];
        n_total <= p_hole1[LK:0];
        ph_nn <= p_ph2;
    end
    if (a_load)
        a_v <= 1'b1;
    else if (a_done)
        a_v <= 1'b0;

    if (rst) begin
        t0_v <= 1'b0;
        t1_v <= 1'b0;
        t0 <= {TOK_W{1'b0}};
        t1 <= {TOK_W{1'b0}};
        cnt <= 16'd0;
        cnt1 <= 16'd1;
        at_os <= 1'b0;
        bleft <= 16'd0;
        b_any <= 1'b0;
        b_last <= 1'b0;
        dleft <= 16'd0;
        d_any <= 1'b0;
        d_more <= 1'b0;
        p_v <= 1'b0;
        a_v <= 1'b0;
        started <= 1'b0;
        fl <= 1'b0;
        pv <= 1'b0;
        dk <= 18'd0;
        dn <= 64'd0;
        pa <= 64'd0;
        pd <= {DATA_WIDTH{1'b0}};
        ps <= {KEEP_WIDTH{1'b0}};
    end
end

wire unused = &{1'b0, pa[LK-1:0], q_hole[LK:0], sh1[2*DATA_WIDTH-1:DATA_WIDTH], sh2[2*DATA_WIDTH-1:DATA_WIDTH], t_ndesc, n_beats, n_ndesc};

`ifdef VERILATOR
// Assertions (Verilator --assert; docs/robustness.md): a host write only in
// a PLACE frame, for the descriptor at the head (or, for the extra last
// write, the one just finished), every strobe inside that FPDU's range
// [d, d+n); FIFOs never read empty; a PLACE frame retires only when all its
// descriptors are used.
reg [LK:0] a_phe;              // the hole's end in P's first beat
always @(posedge clk)
    if (p_load)
        a_phe <= q_hs + {{(LK-2){1'b0}}, q_hw};
reg [63:0] a_pd, a_ad, a_d;   // range of the descriptor in P, in A, and the last finished (for fl)
reg [15:0] a_pn, a_an, a_n;
always @(posedge clk) begin
    if (p_load) begin
        a_pd <= q_d;
        a_pn <= q_n;
    end
    if (a_load) begin
        a_ad <= a_pd;
        a_an <= a_pn;
    end
    if (a_done) begin
        a_d <= a_ad;
        a_n <= a_an;
    end
end
wire [63:0] a_lo = fl ? a_d : a_ad;
wire [15:0] a_len = fl ? a_n : a_an;
reg        a_inside;
reg [63:0] a_oct;
integer    ai;
always @* begin
    a_inside = 1'b1;
    for (ai = 0; ai < KEEP_WIDTH; ai = ai + 1) begin
        a_oct = {m_host_addr[63:LK], ai[LK-1:0]};
        if (m_host_strb[ai] && !(a_oct - a_lo < {48'd0, a_len}))
            a_inside = 1'b0;
    end
end
always @(posedge clk) begin
    if (!rst) begin
        if (m_host_valid) begin
            assert (fl || is_place) else $error("mpa_rx_place: host write outside a PLACE frame");
            assert (fl || has_desc) else $error("mpa_rx_place: host write without a placement descriptor");
            assert (m_host_strb != {KEEP_WIDTH{1'b0}}) else $error("mpa_rx_place: host write with no strobe");
            assert (m_host_addr[LK-1:0] == {LK{1'b0}}) else $error("mpa_rx_place: host write address %h not aligned", m_host_addr);
            assert (a_inside) else $error("mpa_rx_place: host write at %h strobes %h outside the placed range %h + %0d",
                                           m_host_addr, m_host_strb, a_lo, a_len);
        end
        assert (!fl || pv) else $error("mpa_rx_place: last write pending without a word");
        assert (started || fl || !pv) else $error("mpa_rx_place: a word of the previous FPDU is pending at a new FPDU");
        assert (!desc_ready || desc_valid) else $error("mpa_rx_place: descriptor FIFO read when empty");
        assert (!ff_ready || ff_valid) else $error("mpa_rx_place: frame FIFO read when empty");
        assert (!a_v || at_os == (cnt == a_osb)) else $error("mpa_rx_place: at_os %0d at beat %0d of %0d", at_os, cnt, a_osb);
        assert (cnt1 == cnt + 16'd1) else $error("mpa_rx_place: cnt1");
        assert (!a_v || (dw1 == dn[63:LK] + 1'b1 && dw1_f0 == &dw1[15:0] && dw1_f1 == &dw1[31:16]))
            else $error("mpa_rx_place: dw1 %h at %h", dw1, dn);
        assert (!t0_v || cnt <= t_beats) else $error("mpa_rx_place: %0d beats read of a %0d-beat frame", cnt, t_beats);
        assert (!t0_v || bleft == t_beats - cnt) else $error("mpa_rx_place: beats left %0d", bleft);
        assert (!(frame_end && is_place) || dleft == (a_done ? 16'd1 : 16'd0))
            else $error("mpa_rx_place: PLACE frame done with %0d of %0d descriptors left", dleft, t_ndesc);
        assert (!(in_beat && !started) || e != {1'b0, dsl}) else $error("mpa_rx_place: first payload beat without payload");
        assert (!p_v || p_le == (p_l0 <= p_hs)) else $error("mpa_rx_place: p_le");
        assert (!p_v || p_le || p_l0 >= a_phe) else $error("mpa_rx_place: first payload octet in a marker (lane %0d)", p_l0);
        assert (!(has_desc && is_place && !started) || cnt <= a_osb)
            else $error("mpa_rx_place: beat %0d past the first payload beat %0d", cnt, a_osb);
    end
end
`endif

`ifdef FORMAL
`ifdef F_PLACE_HOLE
// ------------------------------------------------------------------ hole()
// The lemma E2's byte rotations rest on, proven alone (place_w*_hole): for
// every marker phase d of a beat's lane 0 and either marker setting, the
// lanes [hs, hs + hw) of hole(d, mk) are exactly the beat's marker octets
// as RFC 5044 places them (with markers, lane i is a marker's iff (d + i)
// mod 512 < 4), and its third field is the count of the other lanes.
(* anyconst *) reg [8:0] f_hd;
(* anyconst *) reg       f_hmk;
wire [2*LK+4:0] f_hh = hole(f_hd, f_hmk);
wire [LK:0]  f_hhs = f_hh[2*LK+4:LK+4];
wire [2:0]   f_hhw = f_hh[LK+3:LK+1];
wire [LK:0]  f_htot = f_hh[LK:0];
reg  [KEEP_WIDTH-1:0] f_hrfc, f_hin;
reg  [LK:0]  f_hpay;
reg  [8:0]   f_hph;
integer      fhi;
always @* begin
    f_hpay = {(LK+1){1'b0}};
    for (fhi = 0; fhi < KEEP_WIDTH; fhi = fhi + 1) begin
        f_hph = f_hd + fhi[8:0];
        f_hrfc[fhi] = f_hmk && f_hph < 9'd4;
        f_hin[fhi] = {1'b0, fhi[LK-1:0]} >= f_hhs && {1'b0, fhi[LK-1:0]} < f_hhs + {{(LK-2){1'b0}}, f_hhw};
        f_hpay = f_hpay + {{LK{1'b0}}, !f_hrfc[fhi]};
    end
end
always @* begin
    assert (f_hin == f_hrfc);
    assert (f_htot == f_hpay);
    assert (f_hhw <= 3'd4 && f_hhs + {{(LK-2){1'b0}}, f_hhw} <= K);
end
`else
// ------------------------------------------------------------------ formal
// Proven by `make formal` and `make formal-full` (docs/robustness.md,
// "Formal proofs"), with the token, descriptor and frame FIFOs following
// the AXI4-Stream sender's rules (assumed), every token at least one beat
// (assumed) and, from E1, every descriptor's n at least 1 and d + n not
// past 2^64 (assumed; mpa_rx_ddp's proof gives n >= 1 and d + n inside a
// registered entry):
//   - a host write carries octets of PLACE frames only (the model's token,
//     not E2's decode of it); an exception frame goes out with exactly its
//     token's beat count, tlast on the last one, tuser its reason; a
//     dropped or ignored frame makes no output; m_host and m_exc_axis
//     follow the AXI4-Stream sender's rules (k-induction, F_PLACE_FRAME);
//   - every strobed octet of every host write lies inside the descriptor
//     it serves (k-induction, F_PLACE_WINDOW);
//   - without F_PLACE_FRAME (BMC; k-induction with F_PLACE_TILE, on the
//     invariants of the two proofs above): the host writes tile each
//     descriptor's [d, d + n), descriptors in the order taken: one write per
//     aligned host word the range touches, in address order, its strobes
//     exactly the range's octets in that word (each octet written once);
//   - with F_PLACE_DATA (and F_PLACE_FRAME, F_PLACE_WINDOW; k-induction,
//     assuming further that a descriptor's first payload octet is not a
//     marker's and that it serves its frame from before that octet's beat
//     to its payload's end): every host write serving a descriptor that
//     strobes its host octet d + j carries payload octet j of its frame,
//     markers stripped as RFC 5044 places them (against a reference that
//     counts the payload lanes beat by beat), and no octet is written
//     before the beat that holds it is read.
// F_PROVEN: the assertions of the frame and window proofs; place_w64_tile
// (F_PLACE_TILE) assumes them, as invariants that place_w64_frame and
// place_w64_window prove under the same or weaker assumptions, and proves
// the tiling on top of them. F_PLACE_DATA assumes them too, and its proofs
// are layered the same way: place_w64_data_inv (F_PLACE_DATA_INV) proves
// the invariants on E2's registers for the tracked descriptor,
// place_w64_data_pd (F_PLACE_DATA_PD) the pending word's data on them,
// place_w64_data the write compare on both (each assumes what the ones
// before it prove, none what it proves itself or a later one). Without
// F_PLACE_WINDOW it states the compare alone, for its covers
// (place_w64_data_cover). F_PLACE_HOLE replaces every other formal block
// with the lemma on hole() (place_w*_hole).
`ifdef F_PLACE_TILE
`define F_PROVEN assume
`elsif F_PLACE_DATA
`define F_PROVEN assume
`else
`define F_PROVEN assert
`endif
reg f_past_valid = 1'b0;
always @(posedge clk)
    f_past_valid <= 1'b1;
always @*
    if (!f_past_valid)
        assume (rst);

wire [15:0] f_w0, f_w1, f_w2, f_w3, f_w4;
wire f_tok_held, f_desc_held, f_ff_held, f_exc_held, f_host_held;
mpa_rx_faxis #(.WIDTH(TOK_W), .F_DUT_SENDS(0)) f_tok (
    .clk(clk), .rst(rst), .tdata(tok_data), .tvalid(tok_valid), .tready(tok_ready), .f_wait(f_w0),
    .f_held(f_tok_held));
mpa_rx_faxis #(.WIDTH(DESC_W), .F_DUT_SENDS(0)) f_desc (
    .clk(clk), .rst(rst), .tdata(desc_data), .tvalid(desc_valid), .tready(desc_ready), .f_wait(f_w1),
    .f_held(f_desc_held));
mpa_rx_faxis #(.WIDTH(DATA_WIDTH + KEEP_WIDTH), .F_DUT_SENDS(0)) f_ff (
    .clk(clk), .rst(rst), .tdata({ff_keep, ff_data}), .tvalid(ff_valid), .tready(ff_ready), .f_wait(f_w2),
    .f_held(f_ff_held));
`ifndef F_PLACE_DATA
// (the data proof leaves out the output streams' rules: place_w64_frame
// proves them under the same assumptions)
mpa_rx_faxis #(.WIDTH(DATA_WIDTH + KEEP_WIDTH + 5), .F_DUT_SENDS(1)) f_exc (
    .clk(clk), .rst(rst), .tdata({m_exc_axis_tuser, m_exc_axis_tlast, m_exc_axis_tkeep, m_exc_axis_tdata}),
    .tvalid(m_exc_axis_tvalid), .tready(m_exc_axis_tready), .f_wait(f_w3), .f_held(f_exc_held));
`ifdef F_PLACE_NODATA
// the proof that cuts the byte rotations (r, merged: free inputs there):
// the rules on the address and strobes only
mpa_rx_faxis #(.WIDTH(64 + KEEP_WIDTH), .F_DUT_SENDS(1)) f_host (
    .clk(clk), .rst(rst), .tdata({m_host_addr, m_host_strb}), .tvalid(m_host_valid),
    .tready(m_host_ready), .f_wait(f_w4), .f_held(f_host_held));
`else
mpa_rx_faxis #(.WIDTH(64 + DATA_WIDTH + KEEP_WIDTH), .F_DUT_SENDS(1)) f_host (
    .clk(clk), .rst(rst), .tdata({m_host_addr, m_host_strb, m_host_data}), .tvalid(m_host_valid),
    .tready(m_host_ready), .f_wait(f_w4), .f_held(f_host_held));
`endif
`endif
always @*
    if (desc_valid)
        assume (q_n != 16'd0 && {1'b0, q_d} + {49'd0, q_n} <= {1'b1, 64'd0});

// ------------------------------------------------ descriptors and writes
// The descriptors taken and not yet written, oldest first (at most three:
// the one whose last write is pending, the active one, the next one).
reg  [63:0] fq_d [0:3];
reg  [15:0] fq_n [0:3];
reg  [2:0]  fq_cnt = 3'd0;
reg  [63:0] f_x;                // the next octet of the oldest to write
wire f_dtake = desc_valid && desc_ready;
wire f_wr = m_host_valid && m_host_ready;
wire [63:0] f_hd = fq_d[0];
wire [64:0] f_hend = {1'b0, f_hd} + {49'd0, fq_n[0]};      // d + n
wire [63:0] f_next = fq_cnt == 3'd0 ? 64'd0 : f_x;
wire [63:0] f_word = {f_next[63:LK], {LK{1'b0}}};
wire [64:0] f_wend = {1'b0, f_word} + K;                     // the word's end
wire        f_last = f_hend <= f_wend;                      // the range ends in this word
wire [64:0] f_top_w = f_last ? f_hend - {1'b0, f_word} : {{(64-LK){1'b0}}, K};
wire [LK:0] f_top = f_top_w[LK:0];                           // lanes below f_top are in the range
reg  [KEEP_WIDTH-1:0] f_strb;
integer fi;
always @*
    for (fi = 0; fi < KEEP_WIDTH; fi = fi + 1)
        f_strb[fi] = fi >= f_next[LK-1:0] && fi < f_top;
integer fk;
always @(posedge clk) begin
    if (f_wr) begin
        f_x <= f_wend[63:0];
        if (f_last) begin
            for (fk = 0; fk < 3; fk = fk + 1) begin
                fq_d[fk] <= fq_d[fk + 1];
                fq_n[fk] <= fq_n[fk + 1];
            end
            f_x <= fq_d[1];
        end
    end
    if (f_dtake) begin
        fq_d[fq_cnt - {2'd0, f_wr && f_last}] <= q_d;
        fq_n[fq_cnt - {2'd0, f_wr && f_last}] <= q_n;
        if (fq_cnt - {2'd0, f_wr && f_last} == 3'd0)
            f_x <= q_d;
    end
    fq_cnt <= fq_cnt + {2'd0, f_dtake} - {2'd0, f_wr && f_last};
    if (rst)
        fq_cnt <= 3'd0;
end
`ifndef F_PLACE_FRAME
always @* begin
    if (!rst) begin
        assert (fq_cnt <= 3'd3);
        if (f_wr) begin
            assert (fq_cnt != 3'd0);
            assert (m_host_addr == f_word);
            assert (m_host_strb == f_strb);
        end
    end
end
`endif

// ------------------------------------------------ frames
// The tokens taken: the frame E2 works on and the next, as E2 ends them.
reg [TOK_W-1:0] ft0, ft1;
reg [1:0]  ft_cnt = 2'd0;
reg [15:0] f_beats = 16'd0;      // beats of ft0 read
wire f_ttake = tok_valid && tok_ready;
wire f_read = ff_valid && ff_ready;
always @(posedge clk) begin
    if (f_read)
        f_beats <= f_beats + 16'd1;
    if (frame_done) begin
        ft0 <= ft1;
        f_beats <= 16'd0;
    end
    if (f_ttake) begin
        if (ft_cnt - {1'b0, frame_done} == 2'd0)
            ft0 <= tok_data;
        else
            ft1 <= tok_data;
    end
    ft_cnt <= ft_cnt + {1'b0, f_ttake} - {1'b0, frame_done};
    if (rst) begin
        ft_cnt <= 2'd0;
        f_beats <= 16'd0;
    end
end
wire f_cur_place = ft_cnt != 2'd0 && ft0[TOK_VERDICT +: TOK_VERDICT_W] == VERDICT_PLACE;
wire f_cur_exc = ft_cnt != 2'd0 && ft0[TOK_VERDICT +: TOK_VERDICT_W] == VERDICT_EXC;
always @* begin
    if (!rst) begin
        `F_PROVEN (ft_cnt <= 2'd2);
        `F_PROVEN (!frame_done || ft_cnt != 2'd0);
        // a frame ends with all its beats read
        `F_PROVEN (!frame_done || f_beats + {15'd0, f_read} == ft0[TOK_BEATS +: TOK_BEATS_W]);
        `F_PROVEN (!f_read || ft_cnt != 2'd0);
        `F_PROVEN (ft_cnt == 2'd0 || f_beats <= ft0[TOK_BEATS +: TOK_BEATS_W]);
`ifndef F_PLACE_FRAME
        // writes: a PLACE frame's, or the last of a descriptor
        assert (!f_wr || f_cur_place || (f_last && fq_cnt != 3'd0));
`endif
        // the exception stream: the frame's beats as read, its reason,
        // tlast on its last beat; nothing for a frame that is not an exception
        if (m_exc_axis_tvalid) begin
            `F_PROVEN (f_cur_exc && ff_valid);
            `F_PROVEN (m_exc_axis_tdata == ff_data && m_exc_axis_tkeep == ff_keep);
            `F_PROVEN (m_exc_axis_tuser == ft0[TOK_REASON +: TOK_REASON_W]);
            `F_PROVEN (m_exc_axis_tlast == (f_beats + 16'd1 == ft0[TOK_BEATS +: TOK_BEATS_W]));
        end
        `F_PROVEN (!(f_read && f_cur_exc) || m_exc_axis_tvalid);
    end
end

// ------------------------------------------------ host writes and frames
// A host write carries octets of PLACE frames only: a write of the beat at
// hand only while the model's current token is PLACE, with a descriptor at
// hand; the pending last word (fl) only when it was made while the token
// was PLACE (f_flp: the model's verdict in the cycle fl was set), and then
// it holds a word (pv).
reg f_flp = 1'b0;
always @(posedge clk)
    if (!fl)
        f_flp <= f_cur_place;
always @* begin
    if (!rst) begin
        `F_PROVEN (!(m_host_valid && !fl) || (f_cur_place && has_desc && ff_valid));
        `F_PROVEN (!fl || (pv && f_flp));
        `F_PROVEN (!pv || fl || (a_v && started));
    end
end

`ifdef F_PLACE_WINDOW
// Every enabled octet of every host write lies inside the descriptor it
// serves: [d, d + n) of the descriptor in A, or for the pending last word
// (fl) of the one finished last. f_pd/f_pn, f_ad/f_an and f_ld/f_ln are the
// ranges of the descriptor in P, in A and the last one finished; f_r the
// octets of the one in A from dn on (dn + f_r = d + n), f_fe the lanes of
// the pending last word inside the one finished (pa + f_fe = its d + n).
// Stated against dn, an octet of lane h of dn's word lies inside
// [d, d + n) iff -(n - f_r) <= h - dsl < f_r: narrow compares instead of
// 64-bit ones per lane, equivalent given the 64-bit invariants below.
reg [63:0] f_pd, f_ad, f_ld;
reg [15:0] f_pn, f_an, f_ln, f_r;
reg [LK:0] f_fe;
wire [LK:0] f_run = e - {1'b0, dsl};
always @(posedge clk) begin
    if (p_load) begin
        f_pd <= q_d;
        f_pn <= q_n;
    end
    if (pass_ok && in_beat && !done_f)
        f_r <= f_r - {{(15-LK){1'b0}}, f_run};
    if (a_done) begin
        f_ld <= f_ad;
        f_ln <= f_an;
        f_fe <= e - K;
    end
    if (a_load) begin
        f_ad <= f_pd;
        f_an <= f_pn;
        f_r <= f_pn;
    end
end
wire [15:0] f_below = f_an - f_r;        // octets of the one in A before dn
reg         f_inside, f_pend_ok;
integer     fh;
always @* begin
    f_inside = 1'b1;
    f_pend_ok = 1'b1;
    for (fh = 0; fh < KEEP_WIDTH; fh = fh + 1) begin
        if (m_host_strb[fh] && !(fl ? {1'b0, fh[LK-1:0]} < f_fe
                                    : fh[LK-1:0] >= dsl ? {{(16-LK){1'b0}}, fh[LK-1:0] - dsl} < f_r
                                                        : {{(16-LK){1'b0}}, dsl - fh[LK-1:0]} <= f_below))
            f_inside = 1'b0;
        if (ps[fh] && !(fl ? {1'b0, fh[LK-1:0]} < f_fe
                           : fh[LK-1:0] < dsl && {{(16-LK){1'b0}}, dsl - fh[LK-1:0]} <= f_below))
            f_pend_ok = 1'b0;
    end
end
always @* begin
    if (!rst) begin
        if (m_host_valid) begin
            `F_PROVEN (f_inside);
            `F_PROVEN (m_host_strb != {KEEP_WIDTH{1'b0}});
            `F_PROVEN (m_host_addr[LK-1:0] == {LK{1'b0}});
        end
        if (pv) begin
            `F_PROVEN (f_pend_ok);
            `F_PROVEN (pa[LK-1:0] == {LK{1'b0}});
            `F_PROVEN (fl || pa[63:LK] == dn[63:LK]);
        end
        if (fl) begin
            `F_PROVEN (ps != {KEEP_WIDTH{1'b0}});
            `F_PROVEN (f_fe <= K);
            `F_PROVEN ({1'b0, f_ld} + {49'd0, f_ln} <= {1'b1, 64'd0});
            `F_PROVEN ({1'b0, pa} + {{(64-LK){1'b0}}, f_fe} == {1'b0, f_ld} + {49'd0, f_ln});
            `F_PROVEN (pa > f_ld);
        end
        if (p_v) begin
            `F_PROVEN (p_d == f_pd);
            `F_PROVEN (f_pn != 16'd0 && {1'b0, f_pd} + {49'd0, f_pn} <= {1'b1, 64'd0});
            `F_PROVEN (p_dw1 == p_d[63:LK] + 1'b1);
            `F_PROVEN (!p_l0[LK]);
            `F_PROVEN (p_dk == {2'b00, f_pn} + {{(17-LK){1'b0}}, p_l0} - {{(17-LK){1'b0}}, K} - 18'd1);
            `F_PROVEN (p_e == {1'b0, p_d[LK-1:0]} + K - p_l0);
            `F_PROVEN (p_vl == {1'b0, p_d[LK-1:0]} + f_pn[LK:0]);
            `F_PROVEN (p_hw <= 3'd4);
            `F_PROVEN (!p_le || p_l0 + {{(LK-2){1'b0}}, p_hw} <= K);
        end
        if (a_v) begin
            `F_PROVEN (f_r != 16'd0 && f_r <= f_an);
            `F_PROVEN ({1'b0, f_ad} + {49'd0, f_an} <= {1'b1, 64'd0});
            `F_PROVEN ({1'b0, dn} + {49'd0, f_r} == {1'b0, f_ad} + {49'd0, f_an});
            `F_PROVEN (dw1 == dn[63:LK] + 1'b1 && dw1_f0 == &dw1[15:0] && dw1_f1 == &dw1[31:16]);
            `F_PROVEN (e >= {1'b0, dsl});
            if (dk[17])
                `F_PROVEN ({{(16-LK){1'b0}}, f_run} == {1'b0, f_r});
            else
                `F_PROVEN (dk == {2'b00, f_r} - {{(17-LK){1'b0}}, f_run} - 18'd1);
            `F_PROVEN (ve == {1'b0, dsl} + f_r[LK:0]);
            `F_PROVEN (n_total <= K);
        end
    end
end
`endif

`ifdef F_PLACE_TILE
// The tiling by induction (with F_PLACE_WINDOW, without F_PLACE_FRAME: the
// order model's assertions above are on): the model's queue of descriptors
// not yet written is the pending last word's (fl), the one in A and the one
// in P, in that order, and its next octet f_x is where E2 stands: the
// pending last word's address; for the one in A, dn, or with a word
// pending (pv) the first octet of that word not yet written (the
// descriptor's d if it lies in that word, else the word's start), the
// pending strobes being exactly the octets from there to dn; for the one
// in P, its d. Each write then is the model's next word with the model's
// strobes: one write per host word of [d, d + n), in address order.
reg  [KEEP_WIDTH-1:0] f_tps;     // the strobes a pending word must hold
integer ft;
wire [63:0] f_ax = f_ad[63:LK] == pa[63:LK] ? f_ad : pa;   // A's next octet with a word pending
wire [2:0]  f_ia = {2'd0, fl};                             // A's place in the queue
wire [2:0]  f_ip = {2'd0, fl} + {2'd0, a_v};               // P's
always @*
    for (ft = 0; ft < KEEP_WIDTH; ft = ft + 1)
        f_tps[ft] = fl ? {1'b0, ft[LK-1:0]} < f_fe
                       : ft[LK-1:0] >= f_ax[LK-1:0] && ft[LK-1:0] < dsl;
always @* begin
    if (!rst) begin
        assert (fq_cnt == {2'd0, fl} + {2'd0, a_v} + {2'd0, p_v});
        if (fl) begin
            assert (fq_d[0] == f_ld && fq_n[0] == f_ln);
            assert (f_x == pa);
        end
        if (a_v) begin
            assert (fq_d[f_ia] == f_ad && fq_n[f_ia] == f_an);
            assert (started || f_r == f_an);
            assert (!(started && fl));
            // a started run without a pending word stopped at a word's end
            if (started && !pv)
                assert (dsl == {LK{1'b0}} && f_ad[63:LK] != dn[63:LK]);
            if (!fl)
                assert (f_x == (pv ? f_ax : dn));
        end
        if (p_v)
            assert (fq_d[f_ip] == f_pd && fq_n[f_ip] == f_pn);
        if (p_v && !a_v && !fl)
            assert (f_x == f_pd);
        if (pv)
            assert (ps == f_tps);
    end
end
`endif

`ifdef F_PLACE_DATA
// The data (with F_PLACE_FRAME: the order model's assertions off, the
// frame and window proofs' invariants assumed): one descriptor D, picked by the
// solver as it enters A, and one octet of the frame, at frame offset f_o
// (any), tracked. The descriptor maps its frame's octets to host memory
// by RFC 5044's markers: the octets from o_s on that are not a marker's
// (with markers, the 4 octets from each offset mph mod 512) are the
// payload, the j-th of them goes to d + j, for j < n. The reference counts
// them lane by lane as E2 reads the frame: lane i of the beat at hand
// (frame offset cnt K + i) is a payload octet of D iff cnt K + i >= o_s
// and, with markers, (cnt K + i - mph) mod 512 >= 4 (f_lp); f_J is the
// payload octets of D in the beats read while D serves the frame, so the
// tracked octet, read in beat cnt = f_o / K, is payload octet j = f_J +
// (the payload lanes of its beat before its lane) if its own lane is a
// payload one; it is D's if j < n. Its value and j are recorded as E2
// reads its beat; then every host write that serves D (a write of the
// beat at hand while D is in A, or the pending last word after D
// finished) and strobes the host octet d + j carries exactly the recorded
// value in that lane (in the cycle of the read: the beat's octet). As f_o
// is any offset, this holds for every payload octet of D; with the tiling
// (each octet of [d, d + n) written once, in order) and the invariants
// below (dn = d + f_J; no octet of D written before the beat that holds
// its payload octet is read) each host octet of D gets its payload octet
// once, and a marker octet, never payload, goes nowhere: any write of one
// (or of any other octet of the frame) in place of the payload octet
// fails the compare.
//
// Assumed of the streams, for D only (E1's contract, checked in every
// co-simulated cycle by E2's Verilator assertions): the first payload
// octet is not a marker's (the DDP proof asserts it of every descriptor);
// D is in A, counted to the frame at hand, before that frame's beat of
// its first payload octet is read; and its payload run ends inside that
// frame (by the frame's last beat, n payload octets counted). The frame D
// serves is E2's: the descriptors of a PLACE frame are the next
// TOK_NDESC ones, in order (the DDP proof asserts one token per frame
// with the number of its descriptors, after them).
(* anyconst *) reg [15:0] f_o;
(* anyseq *) wire f_pick;
// the descriptor in P, as taken
reg [63:0] f_pqd;
reg [15:0] f_pqn, f_pqos;
reg [8:0]  f_pqmph;
reg        f_pqmk;
always @(posedge clk)
    if (p_load) begin
        f_pqd <= q_d;
        f_pqn <= q_n;
        f_pqos <= q_os;
        f_pqmph <= q_mph;
        f_pqmk <= q_mk;
    end
// D: picked (f_dch), in A (f_aD), finished last (f_lD)
reg        f_dch = 1'b0, f_aD = 1'b0, f_lD = 1'b0;
reg [63:0] f_Dd;
reg [15:0] f_Dn, f_Dos;
reg [8:0]  f_Dmph;
reg        f_Dmk;
reg        f_begun = 1'b0;       // D's first payload beat read while D serves the frame
reg        f_got = 1'b0;         // the tracked octet read while D serves the frame
reg [7:0]  f_v;                  // and its value
reg [16:0] f_J;                  // payload octets of D in the beats read while D serves
reg [16:0] f_jr;                 // the tracked octet's payload index j, as read
reg        f_ppay;               // it is a payload octet of D (its lane a payload one, j < n)
wire       f_serve = f_aD && has_desc && is_place;
wire [15-LK:0] f_ob = f_o[15:LK];
wire [15-LK:0] f_osb = f_Dos[15:LK];
wire [LK-1:0] f_ol = f_o[LK-1:0];
wire       f_rec = f_read && f_serve && f_beats == {{LK{1'b0}}, f_ob} && !f_got;
wire [7:0] f_now = ff_data[8 * f_ol +: 8];
// RFC 5044 lane by lane: the payload lanes of D in the beat at hand (f_lp),
// how many (f_bpay), how many before the tracked octet's lane (f_pb)
reg  [KEEP_WIDTH-1:0] f_lp;
reg  [LK:0] f_bpay, f_pb;
reg  [8:0]  f_lph;
integer     fp;
always @* begin
    f_bpay = {(LK+1){1'b0}};
    f_pb = {(LK+1){1'b0}};
    for (fp = 0; fp < KEEP_WIDTH; fp = fp + 1) begin
        f_lph = {cnt[8-LK:0], fp[LK-1:0]} - f_Dmph;
        f_lp[fp] = {cnt, fp[LK-1:0]} >= {{LK{1'b0}}, f_Dos} && !(f_Dmk && f_lph[8:2] == 7'd0);
        f_bpay = f_bpay + {{LK{1'b0}}, f_lp[fp]};
        if (fp[LK-1:0] < f_ol)
            f_pb = f_pb + {{LK{1'b0}}, f_lp[fp]};
    end
end
wire [16:0] f_jnow = f_J + {{(16-LK){1'b0}}, f_pb};
wire        f_pnow = f_lp[f_ol] && f_jnow < {1'b0, f_Dn};
always @(posedge clk) begin
    if (a_done && f_aD)
        f_aD <= 1'b0;
    if (a_done)
        f_lD <= f_aD;
    if (f_read && f_serve)
        f_J <= f_J + {{(16-LK){1'b0}}, f_bpay};
    if (f_read && f_serve && f_beats == {{LK{1'b0}}, f_osb})
        f_begun <= 1'b1;
    if (f_rec) begin
        f_got <= 1'b1;
        f_v <= f_now;
        f_jr <= f_jnow;
        f_ppay <= f_pnow;
    end
    if (a_load && !f_dch && f_pick) begin
        f_dch <= 1'b1;
        f_aD <= 1'b1;
        f_Dd <= f_pqd;
        f_Dn <= f_pqn;
        f_Dos <= f_pqos;
        f_Dmph <= f_pqmph;
        f_Dmk <= f_pqmk;
        f_begun <= 1'b0;
        f_got <= 1'b0;
        f_J <= 17'd0;
    end
    if (rst) begin
        f_dch <= 1'b0;
        f_aD <= 1'b0;
        f_lD <= 1'b0;
        f_begun <= 1'b0;
        f_got <= 1'b0;
    end
end
// the tracked octet, a payload octet of D read (now or before), its index
// j and host octet H = d + j
wire        f_hp = f_got ? f_ppay : f_rec && f_pnow;
wire [16:0] f_jh = f_got ? f_jr : f_jnow;
wire [63:0] f_H = f_Dd + {47'd0, f_jh};
wire [8:0]  f_ph = f_o[8:0] - f_Dmph;                    // its marker phase
wire        f_hitD = f_wr && (fl ? f_lD : f_aD) && f_hp
                     && m_host_addr[63:LK] == f_H[63:LK] && m_host_strb[f_H[LK-1:0]];
`ifdef F_PLACE_WINDOW
wire [16:0] f_bk = f_J - f_jr;                           // octets from H to dn
wire [16:0] f_bl = {1'b0, f_Dn} - f_jr;                  // octets from H to d + n
`endif
always @* begin
    if (!rst) begin
        if (desc_valid && q_mk)
            assume (q_os[8:0] - q_mph >= 9'd4);
        if (f_serve)
            assume (f_begun || f_beats <= {{LK{1'b0}}, f_osb});
        if (f_read && f_serve && f_beats + 16'd1 == ft0[TOK_BEATS +: TOK_BEATS_W])
            assume (f_J + {{(16-LK){1'b0}}, f_bpay} >= {1'b0, f_Dn});
`ifndef F_PLACE_DATA_INV
`ifndef F_PLACE_DATA_PD
        if (f_hitD)
            assert (m_host_data[8 * f_H[LK-1:0] +: 8] == (f_got ? f_v : f_now));
`endif
`endif
    end
end
`ifdef F_PLACE_WINDOW
// The invariants that make the data property inductive (with the window's
// invariants, assumed), in two layers: F_DINV, E2's registers for D
// against D and the reference, asserted with F_PLACE_DATA_INV (a proof
// without the compare and the data: the rotations are cut there), and
// F_DPD, the pending word holding the tracked octet in its lane, asserted
// with F_PLACE_DATA_PD (on the first layer, assumed); the proof of the
// compare assumes both.
// With the marker phase of beat b ((b K - mph) mod 512): stage P and D's
// first beat as taken; the payload lanes of the beat at hand (f_lp, RFC
// 5044's definition) are the lanes outside hole()'s hole (of beat cnt once
// started; of D's first beat, from its lane l0 on); after the first beat
// (started), dn = d + f_J, the rotations -dsl and -dsl + the hole's width
// of beat cnt, en = dsl + the lanes before its hole, the run e - dsl =
// min(octets left, payload lanes of the beat), the next beats' holes; a
// write of the beat at hand strobes, from dn on, fewer octets than the
// beat's payload lanes; the tracked octet read exactly when its beat is
// behind, its index below f_J and n.
`ifdef F_PLACE_DATA_INV
`define F_DINV assert
`else
`define F_DINV assume
`endif
`ifdef F_PLACE_DATA_PD
`define F_DPD assert
`else
`define F_DPD assume
`endif
function [8:0] f_phase;
    input [15:0] off;
    input [8:0]  mph;
    begin
        f_phase = {off[8:LK], {LK{1'b0}}} - mph;
    end
endfunction
function f_lefn;
    input [15:0] os;
    input [8:0]  mph;
    input        mk;
    reg   [8:0]  ph0;
    reg          head, in;
    begin
        ph0 = f_phase(os, mph);
        head = mk && ph0[8:2] == 7'd0;
        in = mk && &ph0[8:LK] && ph0[LK-1:0] != 0;
        f_lefn = head ? os[LK-1:0] == 0 : !in || os[LK-1:0] <= mph[LK-1:0];
    end
endfunction
wire [8:0]  f_pph = f_phase(f_pqos, f_pqmph);
wire [2*LK+4:0] f_phl = hole(f_pph, f_pqmk);
wire [8:0]  f_sph = f_phase(f_Dos, f_Dmph);                 // D's first beat
wire [2*LK+4:0] f_shl = hole(f_sph, f_Dmk);
wire        f_sle = f_lefn(f_Dos, f_Dmph, f_Dmk);
wire [LK:0] f_sl0 = {1'b0, f_Dos[LK-1:0]};
wire [2:0]  f_shw = f_sle ? f_shl[LK+3:LK+1] : 3'd0;
wire [LK:0] f_stot = K - f_sl0 - {{(LK-2){1'b0}}, f_shw};
wire [8:0]  f_cph = {cnt[8-LK:0], {LK{1'b0}}} - f_Dmph;      // the beat at hand
wire [2*LK+4:0] f_chl = hole(f_cph, f_Dmk);
wire [LK:0] f_ctot = f_chl[LK:0];
wire [8:0]  f_pph2 = f_pph + 2 * KI[8:0];                     // two beats on
wire [8:0]  f_sph2 = f_sph + 2 * KI[8:0];
wire [8:0]  f_cph2 = f_cph + 2 * KI[8:0];
wire [2*LK+4:0] f_sh1 = hole(f_sph + KI[8:0], f_Dmk);          // the beat after each
wire [2*LK+4:0] f_ch1 = hole(f_cph + KI[8:0], f_Dmk);
wire [15:0] f_left = f_r;
wire [LK:0] f_runc = started ? f_ctot : f_stot;
wire [15:0] f_mr = {{(15-LK){1'b0}}, f_runc} < f_left ? {{(15-LK){1'b0}}, f_runc} : f_left;
wire [LK-1:0] f_lna = dsl - f_bk[LK-1:0];                       // H's lane then
wire [LK-1:0] f_lnl = f_fe[LK-1:0] - f_bl[LK-1:0];
// a strobed lane of a write of the beat at hand at or past dsl whose
// offset from dn is not below the payload lanes of the beat read
reg  f_early;
integer fe;
always @* begin
    f_early = 1'b0;
    for (fe = 0; fe < KEEP_WIDTH; fe = fe + 1)
        if (m_host_strb[fe] && fe[LK-1:0] >= dsl && {1'b0, fe[LK-1:0] - dsl} >= f_bpay)
            f_early = 1'b1;
end
// the lanes outside the hole of beat cnt, and of D's first beat from l0 on
reg  [KEEP_WIDTH-1:0] f_cm, f_sm;
integer fm;
always @*
    for (fm = 0; fm < KEEP_WIDTH; fm = fm + 1) begin
        f_cm[fm] = !({1'b0, fm[LK-1:0]} >= f_chl[2*LK+4:LK+4]
                     && {1'b0, fm[LK-1:0]} < f_chl[2*LK+4:LK+4] + {{(LK-2){1'b0}}, f_chl[LK+3:LK+1]});
        f_sm[fm] = {1'b0, fm[LK-1:0]} >= f_sl0
                   && !({1'b0, fm[LK-1:0]} >= f_shl[2*LK+4:LK+4]
                        && {1'b0, fm[LK-1:0]} < f_shl[2*LK+4:LK+4] + {{(LK-2){1'b0}}, f_shl[LK+3:LK+1]});
    end
always @* begin
    if (!rst) begin
        if (p_v) begin
            `F_DINV (f_pqd == f_pd && f_pqn == f_pn);
            `F_DINV (p_osb == f_pqos >> LK && p_l0 == {1'b0, f_pqos[LK-1:0]});
            `F_DINV (p_r1 == f_pqos[LK-1:0] - f_pqd[LK-1:0]);
            `F_DINV (p_hs == f_phl[2*LK+4:LK+4] && p_hw == f_phl[LK+3:LK+1]);
            `F_DINV (p_le == f_lefn(f_pqos, f_pqmph, f_pqmk));
            `F_DINV (p_dml == {1'b0, f_pqd[LK-1:0]} - p_l0);
            `F_DINV (p_ph1 == f_pph + KI[8:0] && p_ph2 == f_pph2);
            `F_DINV (p_mk == f_pqmk);
            if (f_pqmk)
                `F_DINV (f_pqos[8:0] - f_pqmph >= 9'd4);
        end
        if (f_aD) begin
            `F_DINV (a_v && f_dch && !f_lD);
            `F_DINV (f_Dd == f_ad && f_Dn == f_an);
            `F_DINV (a_osb == f_Dos >> LK && a_mk == f_Dmk);
            if (f_Dmk)
                `F_DINV (f_Dos[8:0] - f_Dmph >= 9'd4);
            `F_DINV (!started || f_serve);
            `F_DINV (f_serve || (!f_got && !f_begun && f_J == 17'd0));
            if (f_serve) begin
                `F_DINV (started == (cnt > {{LK{1'b0}}, f_osb}));
                `F_DINV (f_begun == started);
                if (f_o >= f_Dos)
                    `F_DINV (f_got == (cnt > {{LK{1'b0}}, f_ob}));
                // RFC 5044's payload lanes are hole()'s
                if (started)
                    `F_DINV (f_lp == f_cm);
                else if (cnt == {{LK{1'b0}}, f_osb})
                    `F_DINV (f_lp == f_sm);
                else
                    `F_DINV (f_lp == {KEEP_WIDTH{1'b0}});
            end
            `F_DINV ({1'b0, f_run} == f_mr[LK+1:0] && f_mr[15:LK+2] == 0);
            if (f_got && f_ppay)
                `F_DINV (started && f_jr < f_J && f_o >= f_Dos);
            if (!started) begin
                `F_DINV (f_J == 17'd0);
                `F_DINV (f_below == 16'd0);
                `F_DINV (rot1 == f_Dos[LK-1:0] - f_Dd[LK-1:0]);
                `F_DINV (rot2 == rot1 + {{(LK-3){1'b0}}, f_shw});
                `F_DINV (en == (f_sle ? {1'b0, f_Dd[LK-1:0]} - f_sl0 + f_shl[2*LK+4:LK+4] : {1'b0, f_Dd[LK-1:0]}));
                `F_DINV (f_r == f_an);
                `F_DINV (n_nb == f_sh1[2*LK+4:LK+4] && n_hl == f_sh1[LK+3:LK+1] && n_total == f_sh1[LK:0]);
                `F_DINV (ph_nn == f_sph2);
            end else begin
                `F_DINV (f_below == f_J[15:0] && !f_J[16]);
                `F_DINV (rot1 == -dsl);
                `F_DINV (rot2 == -dsl + {{(LK-3){1'b0}}, f_chl[LK+3:LK+1]});
                `F_DINV (en == {1'b0, dsl} + f_chl[2*LK+4:LK+4]);
                `F_DINV (n_nb == f_ch1[2*LK+4:LK+4] && n_hl == f_ch1[LK+3:LK+1] && n_total == f_ch1[LK:0]);
                `F_DINV (ph_nn == f_cph2);
            end
        end
        if (f_dch && f_got && f_ppay)
            `F_DINV (f_jr < {1'b0, f_Dn});
        // a write of the beat at hand for D strobes, from dn on, only
        // octets whose payload octets are in the beats read (by this one):
        // below d + f_J + the payload lanes of the beat
        if (f_aD && m_host_valid && !fl)
            `F_DINV (!f_early);
        if (!f_dch)
            `F_DINV (!f_aD && !f_lD && !f_got && !f_begun);
        if (f_lD) begin
            `F_DINV (f_dch && !f_aD);
            if (fl)
                `F_DINV (f_Dd == f_ld && f_Dn == f_ln);
        end
`ifndef F_PLACE_DATA_INV
        // the pending word holds the tracked octet in its lane
        if (f_aD && pv && !fl && f_got && f_ppay && f_bk <= {{(17-LK){1'b0}}, dsl} && ps[f_lna])
            `F_DPD (pd[8 * f_lna +: 8] == f_v);
        if (f_lD && fl && f_got && f_ppay && f_bl <= {{(16-LK){1'b0}}, f_fe} && ps[f_lnl])
            `F_DPD (pd[8 * f_lnl +: 8] == f_v);
`endif
    end
end
`undef F_DINV
`undef F_DPD
`endif
`endif

// The invariants that make the frame properties inductive: the token
// buffer against the model's tokens, the beat counters against the beats
// read; every frame has a beat (assumed below), so a frame held has one
// left to read.
always @* begin
    if (!rst) begin
        `F_PROVEN (ft_cnt == {1'b0, t0_v} + {1'b0, t1_v});
        `F_PROVEN (!t1_v || t0_v);
        `F_PROVEN (!t0_v || ft0 == t0);
        `F_PROVEN (!t1_v || ft1 == t1);
        `F_PROVEN (!t1_v || t1[TOK_BEATS +: TOK_BEATS_W] != 16'd0);
        `F_PROVEN (f_beats == cnt);
        `F_PROVEN (cnt1 == cnt + 16'd1);
        if (t0_v) begin
            `F_PROVEN (cnt < t_beats);
            `F_PROVEN (bleft == t_beats - cnt);
            `F_PROVEN (b_any);
            `F_PROVEN (b_last == (bleft == 16'd1));
            `F_PROVEN (d_any == (dleft != 16'd0));
            `F_PROVEN (d_more == (dleft > 16'd1));
        end else begin
            `F_PROVEN (cnt == 16'd0);
            `F_PROVEN (!b_any);
            `F_PROVEN (!d_any);
        end
        `F_PROVEN (!a_v || at_os == (cnt == a_osb));
    end
end
always @*
    if (tok_valid)
        assume (tok_data[TOK_BEATS +: TOK_BEATS_W] != 16'd0);

// ------------------------------------------------ covers
reg [1:0] f_ndone = 2'd0;        // descriptors finished (saturating)
always @(posedge clk) begin
    if (f_wr && f_last && f_ndone != 2'd3)
        f_ndone <= f_ndone + 2'd1;
    if (rst)
        f_ndone <= 2'd0;
end
`ifdef F_PLACE_DATA
// the tracked octet written: a payload octet right after a marker inside
// the run (the marker stripped), one whose host lane is not its beat lane
// (a rotation), one written by the pending last word, one that waited in
// the pending word for a later beat (read in an earlier cycle than its write)
always @* begin
    if (!rst) begin
        cover (f_hitD && f_Dmk && f_ph == 9'd4 && f_o >= f_Dos + 16'd5);
        cover (f_hitD && f_ol != f_H[LK-1:0]);
        cover (f_hitD && fl);
        cover (f_hitD && f_got && !fl);
    end
end
`elsif F_PLACE_FRAME
always @* begin
    if (!rst) begin
        cover (f_wr && !fl && f_cur_place);
        cover (m_host_valid && !m_host_ready && !fl);
        cover (f_wr && fl && !f_cur_place);
        cover (m_exc_axis_tvalid && m_exc_axis_tready && m_exc_axis_tlast);
        cover (frame_done && f_cur_place && ft_cnt == 2'd2);
    end
end
`else
always @* begin
    if (!rst) begin
        cover (f_wr && f_last && f_ndone == 2'd1);
        cover (f_wr && m_host_strb == {KEEP_WIDTH{1'b1}});
        cover (f_wr && fq_cnt == 3'd3);
        cover (m_exc_axis_tvalid && m_exc_axis_tready && m_exc_axis_tlast);
        cover (m_host_valid && !m_host_ready && fl);
        cover (frame_done && ft0[TOK_VERDICT +: TOK_VERDICT_W] == VERDICT_PLACE && ft0[TOK_BEATS +: TOK_BEATS_W] == 16'd3);
    end
end
`endif
`undef F_PROVEN

`ifdef F_PLACE_LIVE
// ------------------------------------------------ bounded liveness
// With m_host and m_exc_axis always ready and the frame FIFO's head valid
// while E2 holds a frame (assumed: a frame's beats are all stored before
// its last beat, so before its token, and mpa_rx_fifo puts an entry of its
// RAM on its output the next cycle at the latest):
//   - tok_ready is high while E2 holds fewer than two frames: a token at
//     the FIFO's head is taken at once when E2 is idle, a frame starts the
//     cycle after its token is taken (E2 idle) or the cycle after the frame
//     before it is done;
//   - E2 reads a frame-FIFO beat in every cycle it holds a frame but at
//     most one in a row up to 16 lanes: a beat at least every two cycles;
//   - a frame is done (frame_done) at most beats - 1 cycles after it
//     starts, beats - 1 + ndesc for a PLACE frame of ndesc descriptors up to
//     16 lanes: a cycle lost only at the first payload beat of an FPDU while
//     the last write of the FPDU before it is pending (one per descriptor,
//     the previous frame's last included); beats - 1 + 2 ndesc at more lanes,
//     where a beat in which an FPDU ends is handled again for the next one
//     (keep_beat: one more cycle per descriptor; how many in a row depends
//     on the FPDUs' lengths, free here, so no bound in a row is stated).
// f_lc: cycles since the frame E2 holds (the model's ft0) started; f_lst
// of them without a beat read; f_ldn its descriptors finished.
// f_lrdy selects that environment: always in the proof; in the cover proof
// (F_PLACE_LIVE_COVER) any constant, the properties stated when it is high,
// so that with it low the other covers (a host write waiting for
// m_host_ready) stay reachable.
`ifdef F_PLACE_LIVE_COVER
(* anyconst *) reg f_lrdy;
`else
wire f_lrdy = 1'b1;
`endif
always @* begin
    if (f_lrdy) begin
        assume (m_host_ready);
        assume (m_exc_axis_tready);
        if (!rst && ft_cnt != 2'd0)
            assume (ff_valid);
    end
end
reg [16:0] f_lc = 17'd0, f_lst = 17'd0, f_ldn = 17'd0;
reg        f_lstall = 1'b0;         // the cycle before held a frame and read no beat
wire       f_lnow = ft_cnt != 2'd0 && !f_read;
always @(posedge clk) begin
    f_lc <= f_lc + 17'd1;
    f_lst <= f_lst + {16'd0, f_lnow};
    f_ldn <= f_ldn + {16'd0, a_done};
    if (frame_done || ft_cnt == 2'd0) begin
        f_lc <= 17'd0;
        f_lst <= 17'd0;
        f_ldn <= 17'd0;
    end
    f_lstall <= f_lnow;
    if (rst) begin
        f_lc <= 17'd0;
        f_lst <= 17'd0;
        f_ldn <= 17'd0;
        f_lstall <= 1'b0;
    end
end
wire [15:0] f_lbeats = ft0[TOK_BEATS +: TOK_BEATS_W];
localparam [1:0] F_LSTALL = KEEP_WIDTH > 16 ? 2'd2 : 2'd1;   // cycles lost per descriptor at most
wire [15:0] f_lndesc = f_cur_place ? ft0[TOK_NDESC +: TOK_NDESC_W] : 16'd0;
always @* begin
    if (!rst && f_lrdy) begin
        assert (tok_ready == (ft_cnt != 2'd2));
        if (KEEP_WIDTH <= 16)
            assert (!(f_lstall && f_lnow));
        if (frame_done)
            assert ({1'b0, f_lc} + 18'd1 <= {2'b00, f_lbeats} + {16'd0, F_LSTALL} * {2'b00, f_lndesc});
        // induction invariants: each cycle of a frame reads a beat or is a
        // stall (a pending last write or a beat handled again, a descriptor
        // left), at most F_LSTALL per descriptor done, one more pending
        if (ft_cnt == 2'd0)
            assert (f_lc == 17'd0 && f_lst == 17'd0 && f_ldn == 17'd0 && !f_lstall);
        else begin
            assert (f_lc == {1'b0, f_beats} + f_lst);
            assert (!f_lnow || (is_place && d_any && (fl || keep_beat)));
            assert (f_ldn <= {1'b0, ft0[TOK_NDESC +: TOK_NDESC_W]});
            assert (f_ldn + {1'b0, dleft} == {1'b0, ft0[TOK_NDESC +: TOK_NDESC_W]});
            assert (f_cur_place || (f_ldn == 17'd0 && f_lst == 17'd0));
            assert ({1'b0, f_lst} + {17'd0, d_any && fl} <= {16'd0, F_LSTALL} * {1'b0, f_ldn} + {17'd0, d_any});
        end
        cover (frame_done && f_cur_exc && f_lbeats == 16'd3);
    end
end
generate
if (KEEP_WIDTH <= 16) begin : f_live_narrow
    // the bound reached
    always @*
        if (!rst && f_lrdy)
            cover (frame_done && f_cur_place && f_lndesc == 16'd1 && {1'b0, f_lc} + 18'd1 == {2'b00, f_lbeats} + {2'b00, f_lndesc});
end else begin : f_live_wide
    // a cycle lost to a beat handled again for the next FPDU (the bound
    // B - 1 + 2D is not reached: the last descriptor's beat is not handled
    // again)
    always @*
        if (!rst && f_lrdy)
            cover (f_lnow && keep_beat);
end
endgenerate
`endif
`endif
`endif

endmodule

`resetall
