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
 * before takes one more cycle for its last write.
 *
 * Pipelining: tokens pass a two-entry skid buffer (tok_ready is a
 * register), so a frame starts here one cycle after its token is at the
 * token FIFO's head (three after E1 ended it); frame_done marks the end of
 * its egress. Descriptors pass two register stages that do the lane
 * arithmetic of an FPDU's first payload beat, and the marker holes of the
 * beats after it are computed a beat ahead, so that the cycle's work is
 * compares of registers against the payload left. Outputs are
 * combinational from the frame FIFO's head and these registers.
 */
module mpa_rx_place #(
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH / 8
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire                  tok_valid,
    output wire                  tok_ready,
    input  wire [37:0]           tok_data,    // {ndesc, beats, reason, verdict}
    output wire                  frame_done,  // the end of a frame's egress
    input  wire                  desc_valid,
    output wire                  desc_ready,
    input  wire [105:0]          desc_data,   // {mk, mph, o_s, n, d}

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

localparam LK = $clog2(KEEP_WIDTH);
localparam [1:0] V_PLACE = 2'd0, V_EXC = 2'd1;
localparam integer KI = KEEP_WIDTH;
localparam [LK:0] K = KI[LK:0];

// Hole geometry of a beat whose lane 0 has marker phase d ((beat offset -
// marker phase) mod 512) in a frame with markers (mk): the marker's lanes
// [hs, he) in the beat (a marker is 4 octets, markers are 512 octets apart
// and a beat is at most 64, so at most one, possibly cut by the beat's
// edge); hs = he = K without one.
function [2*LK+1:0] hole;
    input [8:0] d;
    input       mk;
    reg         head, in;
    reg  [LK-1:0] lo;
    reg  [LK:0] m_at, hs, he;
    begin
        lo = d[LK-1:0];
        head = mk && d < 9'd4;                     // a marker from the beat before runs into lane 0
        in = mk && &d[8:LK] && lo != 0;            // one starts in the beat (512 - d < K) at m_at
        m_at = K - {1'b0, lo};
        hs = head ? {(LK+1){1'b0}} : in ? m_at : K;
        he = head ? {{(LK-2){1'b0}}, 3'd4 - {1'b0, d[1:0]}} : in && lo >= 4 ? K - {1'b0, lo} + 4 : K;
        hole = {hs, he};
    end
endfunction

// ------------------------------------------------------------------ token
// A two-entry skid buffer: t0 is the frame E2 works on, t1 the next one;
// tok_ready is a register (t1 empty).
reg        t0_v, t1_v;
reg [37:0] t0, t1;
wire       frame_end;       // E2 is done with the frame in t0
wire       tok_take = tok_valid && !t1_v;
assign tok_ready = !t1_v;
wire [37:0] t_next = t1_v ? t1 : tok_data;   // the frame that follows t0
wire        t_next_v = t1_v || tok_take;
wire        t_load = t_next_v && (!t0_v || frame_end);

wire [1:0]  t_verdict = t0[1:0];
wire [3:0]  t_reason = t0[5:2];
wire [15:0] t_beats = t0[21:6];
wire [15:0] t_ndesc = t0[37:22];
wire        is_place = t0_v && t_verdict == V_PLACE;
wire        exc = t0_v && t_verdict == V_EXC;

// beats of the frame left to read and descriptors left to use, with their
// tests registered
reg  [15:0] cnt;            // beats of the frame read
reg  [15:0] bleft;          // t_beats - cnt
reg         b_any, b_last;  // bleft != 0, bleft == 1
reg  [15:0] dleft;          // descriptors of the frame not finished
reg         d_any, d_more;  // dleft != 0, dleft > 1

// ------------------------------------------------------------------ descriptors
// Two stages between the descriptor FIFO and the descriptor E2 works on:
// P (first-payload beat, lane, the marker hole of that beat, marker phases
// of the beats after it) and A, the active descriptor, with the lane
// arithmetic of its first beat done.
wire [63:0] q_d = desc_data[63:0];
wire [15:0] q_n = desc_data[79:64];
wire [15:0] q_os = desc_data[95:80];
wire [8:0]  q_mph = desc_data[104:96];
wire        q_mk = desc_data[105];

reg          p_v;
reg  [63:0]  p_d;
reg  [15:0]  p_n;
reg  [15:0]  p_osb;         // beat of the first payload octet
reg  [LK:0]  p_l0;          // and its lane
reg  [LK:0]  p_hs;          // the hole in that beat: its first lane
reg  [2:0]   p_hw;          // and width
reg          p_le;          // the payload run starts before the hole
reg  [LK:0]  p_kl0;         // K - l0
reg  [8:0]   p_ph1, p_ph2;  // marker phases of the two beats after it
reg  [LK-1:0] p_r1;         // the rotation before the hole in that beat
reg          p_mk;
wire [8:0]   q_ob = {q_os[8:LK], {LK{1'b0}}};
wire [8:0]   q_ph0 = q_ob - q_mph;
wire [2*LK+1:0] q_hole = hole(q_ph0, q_mk);
wire [LK:0]  q_hs = q_hole[2*LK+1:LK+1];
wire [LK:0]  q_he = q_hole[LK:0];
wire [LK:0]  q_l0 = {1'b0, q_os[LK-1:0]};

reg          a_v;
reg  [15:0]  a_osb;
reg          started;       // the first beat of its payload is done
reg  [15:0]  rem;           // its payload octets still to write
reg  [63:0]  dn;            // and the address of the next one
reg  [LK:0]  kmd;           // K - dn mod K: octets to the next word boundary
reg  [LK-1:0] ndsl;         // -dn mod K
reg  [LK-1:0] rot1, rot2;   // the byte rotations of the beat before and after the hole
reg  [LK:0]  f_nb, f_total;   // first beat: payload lanes before the hole, payload lanes
reg  [LK:0]  g_nb, g_total;   // the current beat once started (payload from lane 0)
reg  [LK:0]  n_nb, n_hl, n_total;         // and the beat after it
reg  [8:0]   ph_nn;         // marker phase of the beat after that
reg          a_mk;

// first-beat arithmetic from P. The first payload octet is never a
// marker's (mpa_rx_ddp moves o_s past a marker that starts there), so the
// run starts before the hole (l0 <= hs) or after it (l0 >= he).
wire [2:0]  p_hl = p_le ? p_hw : 3'd0;
wire [LK:0] p_nb = p_le ? p_hs - p_l0 : {(LK+1){1'b0}};
wire [LK:0] p_total = p_kl0 - {{(LK-2){1'b0}}, p_hl};
wire [LK-1:0] p_rot2 = p_r1 + {{(LK-3){1'b0}}, p_hl};
wire [2*LK+1:0] p_hole1 = hole(p_ph1, p_mk);
wire [LK:0] p1_hl = p_hole1[LK:0] - p_hole1[2*LK+1:LK+1];
// the beat after the next, for the started run
wire [2*LK+1:0] g_hole = hole(ph_nn, a_mk);
wire [LK:0] gh_hl = g_hole[LK:0] - g_hole[2*LK+1:LK+1];

// ------------------------------------------------------------------ the beat
reg         fl;        // the pending word is the FPDU's last write
reg         pv;
reg  [63:0] pa;
reg  [DATA_WIDTH-1:0] pd;
reg  [KEEP_WIDTH-1:0] ps;

wire at_os = cnt == a_osb;
wire has_desc = a_v && d_any;
wire in_beat = is_place && !fl && has_desc && (started || at_os);
wire [LK:0] nb = started ? g_nb : f_nb;
wire [LK:0] total = started ? g_total : f_total;
wire        rem_hi = rem[15:LK+1] != 0;
wire        done_f = !rem_hi && total >= rem[LK:0];            // the payload ends in the beat
wire        complete = (rem_hi || rem[LK:0] >= kmd) && total >= kmd;   // it reaches the word's end
wire        straddle = (rem_hi || rem[LK:0] > kmd) && total > kmd;     // and goes past it
wire [LK-1:0] dsl = dn[LK-1:0];
wire [2*DATA_WIDTH-1:0] dd = {ff_data, ff_data};
wire [2*DATA_WIDTH-1:0] sh1 = dd >> {rot1, 3'b000};
wire [2*DATA_WIDTH-1:0] sh2 = dd >> {rot2, 3'b000};
wire [DATA_WIDTH-1:0] r1 = sh1[DATA_WIDTH-1:0];
wire [DATA_WIDTH-1:0] r2 = sh2[DATA_WIDTH-1:0];
reg  [DATA_WIDTH-1:0] r;
reg  [KEEP_WIDTH-1:0] s0, s1;
reg  [LK-1:0]         jh;
reg                   tk;
integer h;
always @* begin
    for (h = 0; h < KEEP_WIDTH; h = h + 1) begin
        jh = h[LK-1:0] - dsl;                      // the payload index slot h takes
        r[8*h +: 8] = {1'b0, jh} < nb ? r1[8*h +: 8] : r2[8*h +: 8];
        tk = {1'b0, jh} < total && (rem_hi || {1'b0, jh} < rem[LK:0]);
        s0[h] = tk && h[LK-1:0] >= dsl;
        s1[h] = tk && h[LK-1:0] < dsl;
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
wire pass_ok = is_place && !fl && ff_valid && b_any && (!wr || m_host_ready);
wire flush_ok = is_place && fl && m_host_ready;
wire read_beat = pass_ok && !keep_beat;
wire set_fl = pass_ok && in_beat && done_f && straddle;
wire a_done = pass_ok && in_beat && done_f;
wire adv = read_beat && in_beat;               // a beat of the started run is done

assign m_host_valid = is_place && (fl || (ff_valid && wr));
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
assign frame_end = t0_v && ((!b_any && !fl) || (other_ok && b_last) || (read_beat && b_last && !set_fl) ||
                            (flush_ok && !b_any));
assign frame_done = frame_end;

wire a_load = p_v && (!a_v || a_done);
wire p_load = desc_valid && (!p_v || a_load);
assign desc_ready = p_load;

wire [15:0] n_beats = t_next[21:6];
wire [15:0] n_ndesc = t_next[37:22];
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
        cnt <= cnt + 16'd1;
        bleft <= bleft - 16'd1;
        b_any <= !b_last;
        b_last <= bleft == 16'd2;
    end
    if (a_done) begin
        dleft <= dleft - 16'd1;
        d_any <= d_more;
        d_more <= dleft > 16'd2;
    end
    if (frame_end || !t0_v) begin
        cnt <= 16'd0;
        bleft <= n_beats;
        b_any <= t_load && n_beats != 16'd0;
        b_last <= n_beats == 16'd1;
        dleft <= n_ndesc;
        d_any <= t_load && n_ndesc != 16'd0;
        d_more <= n_ndesc > 16'd1;
    end

    // descriptors: P, then A
    if (p_load) begin
        p_d <= q_d;
        p_n <= q_n;
        p_osb <= q_os >> LK;
        p_l0 <= {1'b0, q_os[LK-1:0]};
        p_r1 <= q_os[LK-1:0] - q_d[LK-1:0];
        p_hs <= q_hs;
        p_hw <= q_he[2:0] - q_hs[2:0];
        p_le <= q_l0 <= q_hs;
        p_kl0 <= K - q_l0;
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
        g_nb <= n_nb;
        g_total <= n_total;
        n_nb <= g_hole[2*LK+1:LK+1];
        n_hl <= gh_hl;
        n_total <= K - gh_hl;
        ph_nn <= ph_nn + KI[8:0];
    end
    if (pass_ok && in_beat) begin
        if (!done_f) begin
            started <= 1'b1;
            rem <= rem - {{(15-LK){1'b0}}, total};
            dn <= dn + {{(63-LK){1'b0}}, total};
            kmd <= K - {1'b0, dsl + total[LK-1:0]};
            ndsl <= ndsl - total[LK-1:0];
            rot1 <= ndsl - total[LK-1:0];
            rot2 <= ndsl - total[LK-1:0] + n_hl[LK-1:0];
        end
        if (straddle) begin
            pv <= 1'b1;
            pa <= w0 + {{(63-LK){1'b0}}, 1'b1, {LK{1'b0}}};
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
        rem <= p_n;
        dn <= p_d;
        kmd <= K - {1'b0, p_d[LK-1:0]};
        ndsl <= -p_d[LK-1:0];
        rot1 <= p_r1;
        rot2 <= p_rot2;
        f_nb <= p_nb;
        f_total <= p_total;
        n_nb <= p_hole1[2*LK+1:LK+1];
        n_hl <= p1_hl;
        n_total <= K - p1_hl;
        ph_nn <= p_ph2;
    end
    if (a_load)
        a_v <= 1'b1;
    else if (a_done)
        a_v <= 1'b0;

    if (rst) begin
        t0_v <= 1'b0;
        t1_v <= 1'b0;
        t0 <= 38'd0;
        t1 <= 38'd0;
        cnt <= 16'd0;
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
        rem <= 16'd0;
        dn <= 64'd0;
        pa <= 64'd0;
        pd <= {DATA_WIDTH{1'b0}};
        ps <= {KEEP_WIDTH{1'b0}};
    end
end

wire unused = &{1'b0, pa[LK-1:0], n_hl[LK], sh1[2*DATA_WIDTH-1:DATA_WIDTH], sh2[2*DATA_WIDTH-1:DATA_WIDTH], t_ndesc, n_beats, n_ndesc};

`ifdef VERILATOR
// Assertions (Verilator --assert; docs/robustness.md): a host write only in
// a PLACE frame, for the descriptor at the head (or, for the extra last
// write, the one just finished), every strobe inside that FPDU's range
// [d, d+n); FIFOs never read empty; a PLACE frame retires only when all its
// descriptors are used.
reg [LK:0] a_phe;              // the hole's end in P's first beat
always @(posedge clk)
    if (p_load)
        a_phe <= q_he;
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
            assert (is_place) else $error("mpa_rx_place: host write outside a PLACE frame");
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
        assert (!t0_v || cnt <= t_beats) else $error("mpa_rx_place: %0d beats read of a %0d-beat frame", cnt, t_beats);
        assert (!t0_v || bleft == t_beats - cnt) else $error("mpa_rx_place: beats left %0d", bleft);
        assert (!(frame_end && is_place) || dleft == (a_done ? 16'd1 : 16'd0))
            else $error("mpa_rx_place: PLACE frame done with %0d of %0d descriptors left", dleft, t_ndesc);
        assert (!(in_beat && !started) || f_total != 0) else $error("mpa_rx_place: first payload beat without payload");
        assert (!p_v || p_le || p_l0 >= a_phe) else $error("mpa_rx_place: first payload octet in a marker (lane %0d)", p_l0);
        assert (!(has_desc && is_place && !started) || cnt <= a_osb)
            else $error("mpa_rx_place: beat %0d past the first payload beat %0d", cnt, a_osb);
    end
end
`endif

endmodule

`resetall
