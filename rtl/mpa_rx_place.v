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
 * before takes one more cycle for its last write. Output is combinational
 * from the FIFO heads and the pending-word register (latency 0).
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

wire [1:0]  t_verdict = tok_data[1:0];
wire [3:0]  t_reason = tok_data[5:2];
wire [15:0] t_beats = tok_data[21:6];
wire [15:0] t_ndesc = tok_data[37:22];

wire [63:0] q_d = desc_data[63:0];
wire [15:0] q_n = desc_data[79:64];
wire [15:0] q_os = desc_data[95:80];
wire [8:0]  q_mph = desc_data[104:96];
wire        q_mk = desc_data[105];

reg [15:0] cnt;       // beats of the frame read
reg [15:0] dgot;      // descriptors of the frame finished
reg        started;   // the head descriptor's payload has begun
reg [15:0] rem;       // its payload octets still to write
reg [63:0] dn;        // and the address of the next one
reg        fl;        // the pending word is the FPDU's last write
reg        pv;
reg [63:0] pa;
reg [DATA_WIDTH-1:0] pd;
reg [KEEP_WIDTH-1:0] ps;

wire [15:0] ob = cnt << LK;
wire is_place = t_verdict == V_PLACE;
wire exc = t_verdict == V_EXC;
wire has_desc = dgot != t_ndesc && desc_valid;
wire [15:0] o_eff = started ? ob : q_os;
wire [15:0] rem_eff = started ? rem : q_n;
wire [63:0] dn_eff = started ? dn : q_d;

// Lanes of the beat that carry the FPDU's payload, and where they go. The
// payload lanes of a beat are one run from lane l0 with at most one hole:
// a marker (4 octets; markers are 512 octets apart and a beat is at most
// 64), possibly cut by the beat's edge. Lane l before the hole goes to host
// slot (dn + l - l0) mod K, after it to (dn + l - l0 - hl) mod K: two byte
// rotations of the beat, chosen per host slot.
localparam integer KI = KEEP_WIDTH;
wire [LK:0] K = KI[LK:0];
wire [15:0] ob_end = ob + KEEP_WIDTH[15:0];
wire        none = o_eff >= ob_end;
wire [LK:0] l0 = none ? K : o_eff > ob ? o_eff[LK:0] - ob[LK:0] : {(LK+1){1'b0}};
wire [8:0]  d0 = ob[8:0] - q_mph;                  // marker phase of lane 0
wire [9:0]  m_at = 10'd512 - {1'b0, d0};           // lane of the next marker start
wire        hole_head = q_mk && d0 < 9'd4;
wire        hole_in = q_mk && !hole_head && m_at < {{(9-LK){1'b0}}, K};
wire [LK:0] hs = hole_head ? {(LK+1){1'b0}} : hole_in ? m_at[LK:0] : K;
wire [9:0]  he_w = hole_head ? 10'd4 - {7'd0, d0[2:0]} : hole_in ? m_at + 10'd4 : {{(9-LK){1'b0}}, K};
wire [LK:0] he = he_w > {{(9-LK){1'b0}}, K} ? K : he_w[LK:0];
wire [LK:0] hs_eff = hs > l0 ? hs : l0;            // the hole, from l0 on
wire [LK:0] hl = he > hs_eff ? he - hs_eff : {(LK+1){1'b0}};
wire [LK:0] nb = hs_eff - l0;                      // payload lanes before the hole
wire [LK:0] total = K - l0 - hl;                   // payload lanes in the beat
wire [LK:0] n_taken = {{(15-LK){1'b0}}, total} > rem_eff ? rem_eff[LK:0] : total;
wire [LK-1:0] dsl = dn_eff[LK-1:0];
wire [LK-1:0] rot1 = l0[LK-1:0] - dsl;
wire [LK-1:0] rot2 = rot1 + hl[LK-1:0];
wire [2*DATA_WIDTH-1:0] dd = {ff_data, ff_data};
wire [2*DATA_WIDTH-1:0] sh1 = dd >> {rot1, 3'b000};
wire [2*DATA_WIDTH-1:0] sh2 = dd >> {rot2, 3'b000};
wire [DATA_WIDTH-1:0] r1 = sh1[DATA_WIDTH-1:0];
wire [DATA_WIDTH-1:0] r2 = sh2[DATA_WIDTH-1:0];
reg  [DATA_WIDTH-1:0] r;
reg  [KEEP_WIDTH-1:0] s0, s1;
reg  [LK-1:0]         jh;
integer h;
always @* begin
    for (h = 0; h < KEEP_WIDTH; h = h + 1) begin
        jh = h[LK-1:0] - dsl;                      // the payload index slot h takes
        r[8*h +: 8] = {1'b0, jh} < nb ? r1[8*h +: 8] : r2[8*h +: 8];
        s0[h] = {1'b0, jh} < n_taken && h[LK-1:0] >= dsl;
        s1[h] = {1'b0, jh} < n_taken && h[LK-1:0] < dsl;
    end
end

wire in_beat = is_place && !fl && has_desc && (started || {16'd0, q_os} < {16'd0, ob} + KEEP_WIDTH) && n_taken != 0;
wire done_f = {{(15-LK){1'b0}}, n_taken} == rem_eff;
wire straddle = |s1;
wire [LK:0] end_slot = {1'b0, dn_eff[LK-1:0]} + n_taken;
wire complete = end_slot[LK];
wire wr = in_beat && (straddle || done_f || complete);
wire [63:0] w0 = {dn_eff[63:LK], {LK{1'b0}}};
reg  [DATA_WIDTH-1:0] merged;
integer m;
always @* begin
    for (m = 0; m < KEEP_WIDTH; m = m + 1)
        merged[8*m +: 8] = s0[m] ? r[8*m +: 8] : pd[8*m +: 8];
end
wire [KEEP_WIDTH-1:0] strb0 = s0 | (pv ? ps : {KEEP_WIDTH{1'b0}});

// a beat is read unless, at more than 16 lanes, an FPDU ends in it and
// another placed FPDU of the frame follows
wire keep_beat = KEEP_WIDTH > 16 && in_beat && done_f && dgot + 16'd1 != t_ndesc;
wire pass_ok = tok_valid && is_place && !fl && ff_valid && cnt != t_beats && (!wr || m_host_ready);
wire flush_ok = tok_valid && is_place && fl && m_host_ready;
wire read_beat = pass_ok && !keep_beat;
wire last_beat = cnt + 16'd1 == t_beats;
wire set_fl = pass_ok && in_beat && done_f && straddle;

assign m_host_valid = tok_valid && is_place && (fl || (ff_valid && wr));
assign m_host_addr = fl ? pa : w0;
assign m_host_data = fl ? pd : merged;
assign m_host_strb = fl ? ps : strb0;

assign m_exc_axis_tvalid = tok_valid && exc && cnt != t_beats && ff_valid;
assign m_exc_axis_tdata = ff_data;
assign m_exc_axis_tkeep = ff_keep;
assign m_exc_axis_tlast = last_beat;
assign m_exc_axis_tuser = t_reason;

wire other_ok = tok_valid && !is_place && cnt != t_beats && ff_valid && (!exc || m_exc_axis_tready);
assign ff_ready = other_ok || read_beat;
assign desc_ready = pass_ok && in_beat && done_f;
wire empty_frame = tok_valid && t_beats == 16'd0;
assign tok_ready = empty_frame || (other_ok && last_beat) || (read_beat && last_beat && !set_fl) ||
                   (flush_ok && cnt == t_beats);

always @(posedge clk) begin
    if (ff_ready)
        cnt <= cnt + 16'd1;
    if (pass_ok && in_beat) begin
        if (done_f) begin
            dgot <= dgot + 16'd1;
            started <= 1'b0;
        end else begin
            started <= 1'b1;
            rem <= rem_eff - {{(15-LK){1'b0}}, n_taken};
            dn <= dn_eff + {{(63-LK){1'b0}}, n_taken};
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
    if (tok_ready) begin
        cnt <= 16'd0;
        dgot <= 16'd0;
    end
    if (rst) begin
        cnt <= 16'd0;
        dgot <= 16'd0;
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

wire unused = &{1'b0, pa[LK-1:0], he_w[9:LK+1], m_at[9:LK+1], sh1[2*DATA_WIDTH-1:DATA_WIDTH], sh2[2*DATA_WIDTH-1:DATA_WIDTH]};

`ifdef VERILATOR
// Assertions (Verilator --assert; docs/robustness.md): a host write only in
// a PLACE frame, for the descriptor at the head (or, for the extra last
// write, the one just finished), every strobe inside that FPDU's range
// [d, d+n); FIFOs never read empty; a PLACE frame retires only when all its
// descriptors are used.
reg [63:0] a_d;     // range of the last descriptor finished (for fl)
reg [15:0] a_n;
always @(posedge clk) begin
    if (desc_ready && desc_valid) begin
        a_d <= q_d;
        a_n <= q_n;
    end
end
wire [63:0] a_lo = fl ? a_d : q_d;
wire [15:0] a_len = fl ? a_n : q_n;
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
wire [15:0] a_dgot_next = dgot + ((desc_ready && desc_valid) ? 16'd1 : 16'd0);
always @(posedge clk) begin
    if (!rst) begin
        if (m_host_valid) begin
            assert (tok_valid && is_place) else $error("mpa_rx_place: host write outside a PLACE frame");
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
        assert (!tok_ready || tok_valid) else $error("mpa_rx_place: token FIFO read when empty");
        assert (!tok_valid || cnt <= t_beats) else $error("mpa_rx_place: %0d beats read of a %0d-beat frame", cnt, t_beats);
        assert (!(tok_ready && is_place) || a_dgot_next == t_ndesc)
            else $error("mpa_rx_place: PLACE frame done with %0d of %0d descriptors", a_dgot_next, t_ndesc);
    end
end
`endif

endmodule

`resetall
