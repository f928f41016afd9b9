// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * crc32c: parallel CRC32C (Castagnoli, as iSCSI and MPA use it) over a
 * DATA_WIDTH-bit AXI4-Stream, one beat per clock, no bubbles.
 *
 * Input (s_axis):
 *   - A message is the run of kept bytes from the first beat after reset or
 *     after a tlast beat, through the next tlast beat.
 *   - tkeep may be partial on the first beat (the message starts on any byte
 *     lane: null lanes below the first kept lane) and on the tlast beat (null
 *     lanes above the last kept lane); a one-beat message may have both.
 *     The kept lanes of a beat are contiguous and every beat keeps at least
 *     one lane; beats between the first and the tlast beat keep all lanes.
 *   - The data of null lanes is ignored.
 * Output (m_axis): one 32-bit beat per message, the CRC32C (reflected,
 *   initial value 0xFFFFFFFF, final XOR 0xFFFFFFFF) in wire byte order:
 *   tdata[7:0] is the first CRC octet on the wire, the least significant
 *   octet of the CRC value, as iSCSI digests and the MPA CRC field are sent.
 * Flow control: the whole pipeline advances when its output is empty or
 *   taken: s_axis_tready = !m_axis_tvalid || m_axis_tready.
 * Reset: synchronous, active high. Everything in flight is dropped (beats
 *   handed over while rst is high too) and the next beat starts a message.
 *
 * Latency: 5 + log2(DATA_WIDTH/8) advancing cycles from the handshake of the
 *   tlast beat to m_axis_tvalid: 8 at 64 bit, 9 at 128, 10 at 256, 11 at 512.
 *   Messages may follow each other with no gap, one CRC per cycle if every
 *   beat is a tlast beat.
 *
 * Construction. Every XOR matrix is a localparam computed by a constant
 * function over flat bit vectors (Yosys 0.23 evaluates these quickly). With
 * R the CRC register before a beat and d the beat's masked data (null lanes
 * zero), the register after the beat, as if all lanes were data, is
 * x^(8*LANES)*R + D*d; R enters like the first 32 data bits (lanes 0..3).
 *   A  input register: data masked by tkeep (maps onto flip-flop resets).
 *   B  lo (first kept lane), u = lo ^ (hi+1) mod LANES (a parity of tkeep);
 *      D*d over lanes 4.. in 64-bit groups.
 *   C  Y = sum of the groups + K[lo] on a first beat, where
 *      K[lo] = x^(8*(LANES-lo)) * 0xFFFFFFFF accounts for the initial value
 *      entering before lane lo; t = -(u ^ lo) = null lanes above hi.
 *   L  loop operands, one beat ahead: P1 = Y + d(next beat, lanes 0..3),
 *      P2 = d(next beat, lanes 0..3).
 *   E  the only loop. E holds R + d(lanes 0..3) of the beat at L, so that a
 *      beat costs one 32x32 matrix: E <= x^(8*LANES)*E + P1 (a beat that
 *      continues its message), P2 (a tlast beat: the next message starts
 *      from zero), E + P2 (no beat). W = x^(8*LANES)*E + Y is the register
 *      after the beat, as if the null lanes above hi were zero bytes:
 *      W = x^(8*t) * CRC register.
 *   T  log2(LANES) stages multiply W by x^(-8*2^b) when bit b of t is set;
 *      the last one applies the final XOR.
 */
module crc32c #(
    // Width of the input stream (64, 128, 256 or 512).
    parameter DATA_WIDTH = 64,
    // Width of tkeep (one bit per byte lane).
    parameter KEEP_WIDTH = DATA_WIDTH / 8
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire [DATA_WIDTH-1:0] s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0] s_axis_tkeep,
    input  wire                  s_axis_tvalid,
    output wire                  s_axis_tready,
    input  wire                  s_axis_tlast,

    output wire [31:0]           m_axis_tdata,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready
);

localparam LANES = KEEP_WIDTH;
localparam LANE_BITS = $clog2(LANES);
localparam GROUP_WIDTH = DATA_WIDTH > 64 ? 64 : DATA_WIDTH;
localparam GROUPS = DATA_WIDTH / GROUP_WIDTH;

// Reflected Castagnoli polynomial (0x1EDC6F41 bit-reversed).
localparam [31:0] POLY = 32'h82F63B78;

// Contribution of every data bit to the CRC register after a whole beat,
// starting from a zero register: row i (DATA_WIDTH bits at i*DATA_WIDTH)
// selects the data bits whose XOR is bit i. Data bit p is processed p-th
// (lane 0 bit 0 first: reflected CRCs consume octets LSB first). Since the
// register is XORed into the first 32 bits processed, columns 0..31 also form
// the state matrix x^(8*LANES).
function [32*DATA_WIDTH-1:0] data_matrix(input integer width);
    integer p, i;
    reg [31:0] s;
    begin
        data_matrix = 0;
        s = POLY;
        for (p = width - 1; p >= 0; p = p - 1) begin
            for (i = 0; i < 32; i = i + 1)
                data_matrix[i*width + p] = s[i];
            s = {1'b0, s[31:1]} ^ (s[0] ? POLY : 32'd0);
        end
    end
endfunction

// The same without columns 0..31 (lanes 0..3 go through the loop).
function [32*DATA_WIDTH-1:0] upper_matrix(input integer width);
    integer p, i;
    begin
        upper_matrix = data_matrix(width);
        for (i = 0; i < 32; i = i + 1)
            for (p = 0; p < 32; p = p + 1)
                upper_matrix[i*width + p] = 1'b0;
    end
endfunction

// Register value after the first beat of a message that starts on lane lo,
// due to the initial value alone: K[lo] = x^(8*(LANES-lo)) * 0xFFFFFFFF.
function [32*LANES-1:0] init_table(input integer lanes);
    integer l, k;
    reg [31:0] s;
    begin
        init_table = 0;
        s = 32'hFFFFFFFF;
        for (l = lanes - 1; l >= 0; l = l - 1) begin
            for (k = 0; k < 8; k = k + 1)
                s = {1'b0, s[31:1]} ^ (s[0] ? POLY : 32'd0);
            init_table[l*32 +: 32] = s;
        end
    end
endfunction

// Undo 8*2^b zero bits: row i (32 bits at i*32) of x^(-8*2^b).
function [32*32-1:0] unshift_matrix(input integer b);
    integer i, j, k;
    reg [31:0] s;
    begin
        unshift_matrix = 0;
        for (j = 0; j < 32; j = j + 1) begin
            s = 32'd1 << j;
            for (k = 0; k < (8 << b); k = k + 1)
                s = {s[30:0] ^ (s[31] ? POLY[30:0] : 31'd0), s[31]};
            for (i = 0; i < 32; i = i + 1)
                unshift_matrix[i*32 + j] = s[i];
        end
    end
endfunction

// Lane index bit masks: bit j of row b is bit b of j.
function [LANE_BITS*LANES-1:0] index_masks(input integer lanes);
    integer b, j;
    begin
        index_masks = 0;
        for (b = 0; b < LANE_BITS; b = b + 1)
            for (j = 0; j < lanes; j = j + 1)
                index_masks[b*lanes + j] = ((j >> b) & 1) != 0;
    end
endfunction

// Edge parity masks: bit j of row b is set when bit b differs between j and
// (j+1) mod LANES. The XOR of the kept lanes under row b is bit b of
// lo ^ ((hi+1) mod LANES) for a contiguous run of kept lanes lo..hi.
function [LANE_BITS*LANES-1:0] edge_masks(input integer lanes);
    integer b, j;
    begin
        edge_masks = 0;
        for (b = 0; b < LANE_BITS; b = b + 1)
            for (j = 0; j < lanes; j = j + 1)
                edge_masks[b*lanes + j] = (((j >> b) ^ (((j + 1) % lanes) >> b)) & 1) != 0;
    end
endfunction

localparam [32*DATA_WIDTH-1:0] DMAT = data_matrix(DATA_WIDTH);
localparam [32*DATA_WIDTH-1:0] UMAT = upper_matrix(DATA_WIDTH);
localparam [32*LANES-1:0] KTAB = init_table(LANES);
localparam [LANE_BITS*LANES-1:0] IMASK = index_masks(LANES);
localparam [LANE_BITS*LANES-1:0] EMASK = edge_masks(LANES);

// Flow control: everything advances together.
wire [LANE_BITS:0] t_valid;
wire ce = !t_valid[LANE_BITS] || m_axis_tready;
assign s_axis_tready = ce;

// ---------------------------------------------------------------- stage A
wire [DATA_WIDTH-1:0] masked_data;
genvar gj;
generate
    for (gj = 0; gj < LANES; gj = gj + 1) begin : g_mask
        assign masked_data[gj*8 +: 8] = s_axis_tkeep[gj] ? s_axis_tdata[gj*8 +: 8] : 8'd0;
    end
endgenerate

reg [DATA_WIDTH-1:0] a_data = 0;
reg [KEEP_WIDTH-1:0] a_keep = 0;
reg a_valid = 1'b0, a_first = 1'b0, a_last = 1'b0;
reg in_msg = 1'b0;

always @(posedge clk) begin
    if (ce) begin
        a_data <= masked_data;
        a_keep <= s_axis_tkeep;
        a_valid <= s_axis_tvalid;
        a_first <= !in_msg;
        a_last <= s_axis_tlast;
        if (s_axis_tvalid)
            in_msg <= !s_axis_tlast;
    end
    if (rst) begin
        a_valid <= 1'b0;
        in_msg <= 1'b0;
    end
end

// ---------------------------------------------------------------- stage B
wire [LANES-1:0] lo_edge = a_keep & ~{a_keep[LANES-2:0], 1'b0};
wire [LANE_BITS-1:0] a_lo, a_u;
wire [32*GROUPS-1:0] a_part;
genvar gb, gg, gi;
generate
    for (gb = 0; gb < LANE_BITS; gb = gb + 1) begin : g_enc
        assign a_lo[gb] = |(lo_edge & IMASK[gb*LANES +: LANES]);
        assign a_u[gb] = ^(a_keep & EMASK[gb*LANES +: LANES]);
    end
    for (gg = 0; gg < GROUPS; gg = gg + 1) begin : g_group
        for (gi = 0; gi < 32; gi = gi + 1) begin : g_bit
            assign a_part[gg*32 + gi] =
                ^(a_data[gg*GROUP_WIDTH +: GROUP_WIDTH] & UMAT[gi*DATA_WIDTH + gg*GROUP_WIDTH +: GROUP_WIDTH]);
        end
    end
endgenerate

reg [32*GROUPS-1:0] b_part = 0;
reg [31:0] b_d = 32'd0;
reg [LANE_BITS-1:0] b_lo = 0, b_u = 0;
reg b_valid = 1'b0, b_first = 1'b0, b_last = 1'b0;

always @(posedge clk) begin
    if (ce) begin
        b_part <= a_part;
        b_d <= a_data[31:0];
        b_lo <= a_lo;
        b_u <= a_u;
        b_valid <= a_valid;
        b_first <= a_first;
        b_last <= a_last;
    end
    if (rst)
        b_valid <= 1'b0;
end

// ---------------------------------------------------------------- stage C
reg [31:0] b_y;
integer ci;
always @* begin
    b_y = b_first ? KTAB[b_lo*32 +: 32] : 32'd0;
    for (ci = 0; ci < GROUPS; ci = ci + 1)
        b_y = b_y ^ b_part[ci*32 +: 32];
end

reg [31:0] c_y = 32'd0;
reg [LANE_BITS-1:0] c_tail = 0;
reg c_valid = 1'b0, c_last = 1'b0;

always @(posedge clk) begin
    if (ce) begin
        c_y <= b_y;
        c_tail <= -(b_u ^ b_lo);
        c_valid <= b_valid;
        c_last <= b_last;
    end
    if (rst)
        c_valid <= 1'b0;
end

// ---------------------------------------------------------------- stage L
// Operands of the loop for the beat now in C, with the lanes 0..3 of the
// beat behind it (zero if there is none).
wire [31:0] next_d = b_valid ? b_d : 32'd0;
reg [31:0] l_p1 = 32'd0, l_p2 = 32'd0;
reg [LANE_BITS-1:0] l_tail = 0;
reg l_valid = 1'b0, l_last = 1'b0, l_cont = 1'b0;

always @(posedge clk) begin
    if (ce) begin
        l_p1 <= c_y ^ next_d;
        l_p2 <= next_d;
        l_tail <= c_tail;
        l_valid <= c_valid;
        l_last <= c_last;
        l_cont <= c_valid && !c_last;
    end
    if (rst) begin
        l_p1 <= 32'd0;
        l_p2 <= 32'd0;
        l_valid <= 1'b0;
        l_last <= 1'b0;
        l_cont <= 1'b0;
    end
end

// ---------------------------------------------------------------- stage E
// The loop. After reset E = 0 with no beat in L.
reg [31:0] e_reg = 32'd0, w_reg = 32'd0;
reg [LANE_BITS-1:0] e_tail = 0;
reg e_valid = 1'b0;
wire [31:0] e_next, w_next;
genvar ge;
generate
    for (ge = 0; ge < 32; ge = ge + 1) begin : g_loop
        wire x = ^(e_reg & DMAT[ge*DATA_WIDTH +: 32]);
        assign e_next[ge] = l_cont ? x ^ l_p1[ge] : l_p2[ge] ^ (e_reg[ge] & !l_valid);
        assign w_next[ge] = x ^ l_p1[ge] ^ l_p2[ge];
    end
endgenerate

always @(posedge clk) begin
    if (ce) begin
        e_reg <= e_next;
        w_reg <= w_next;
        e_tail <= l_tail;
        e_valid <= l_valid && l_last;
    end
    if (rst) begin
        e_reg <= 32'd0;
        e_valid <= 1'b0;
    end
end

// ---------------------------------------------------------------- stage T
// t_crc[b] enters tail stage b; the last stage also inverts (final XOR).
wire [32*(LANE_BITS+1)-1:0] t_crc;
wire [LANE_BITS*(LANE_BITS+1)-1:0] t_tail;
assign t_crc[31:0] = w_reg;
assign t_tail[LANE_BITS-1:0] = e_tail;
assign t_valid[0] = e_valid;

genvar gt, gu;
generate
    for (gt = 0; gt < LANE_BITS; gt = gt + 1) begin : g_tail
        localparam [32*32-1:0] UNSHIFT = unshift_matrix(gt);
        localparam [31:0] FINAL = (gt == LANE_BITS - 1) ? 32'hFFFFFFFF : 32'd0;
        wire [31:0] z = t_crc[gt*32 +: 32];
        wire [31:0] u;
        for (gu = 0; gu < 32; gu = gu + 1) begin : g_u
            assign u[gu] = ^(z & UNSHIFT[gu*32 +: 32]);
        end
        reg [31:0] z_reg = 32'd0;
        reg [LANE_BITS-1:0] tail_reg = 0;
        reg valid_reg = 1'b0;
        always @(posedge clk) begin
            if (ce) begin
                z_reg <= (t_tail[gt*LANE_BITS + gt] ? u : z) ^ FINAL;
                tail_reg <= t_tail[gt*LANE_BITS +: LANE_BITS];
                valid_reg <= t_valid[gt];
            end
            if (rst)
                valid_reg <= 1'b0;
        end
        assign t_crc[(gt+1)*32 +: 32] = z_reg;
        assign t_tail[(gt+1)*LANE_BITS +: LANE_BITS] = tail_reg;
        assign t_valid[gt+1] = valid_reg;
    end
endgenerate

assign m_axis_tdata = t_crc[LANE_BITS*32 +: 32];
assign m_axis_tvalid = t_valid[LANE_BITS];

`ifdef FORMAL
// ------------------------------------------------------------------ formal
// Proven by `make formal` (docs/robustness.md, "Formal proofs"): the flow
// control (s_axis_tready = !m_axis_tvalid || m_axis_tready); the output
// follows the AXI4-Stream sender's rules (the input is assumed to); one
// CRC per message, none lost, none made up: the messages ended (tlast
// taken) and not yet given out are the beats with tlast in the pipeline,
// never more than its 5 + log2(LANES) stages; and a message's CRC is on
// m_axis exactly 5 + log2(LANES) advancing cycles after its tlast beat
// (one message tracked, chosen by the solver).
reg f_past_valid = 1'b0;
always @(posedge clk)
    f_past_valid <= 1'b1;
always @*
    if (!f_past_valid)
        assume (rst);

wire [15:0] f_in_wait, f_out_wait;
mpa_rx_faxis #(.WIDTH(DATA_WIDTH + KEEP_WIDTH + 1), .F_DUT_SENDS(0)) f_s_axis (
    .clk(clk), .rst(rst), .tdata({s_axis_tlast, s_axis_tkeep, s_axis_tdata}), .tvalid(s_axis_tvalid),
    .tready(s_axis_tready), .f_wait(f_in_wait));
mpa_rx_faxis #(.WIDTH(32), .F_DUT_SENDS(1)) f_m_axis (
    .clk(clk), .rst(rst), .tdata(m_axis_tdata), .tvalid(m_axis_tvalid), .tready(m_axis_tready),
    .f_wait(f_out_wait));

localparam F_STAGES = 5 + LANE_BITS;   // A, B, C, L, E and the tail stages
wire f_end_in = s_axis_tvalid && s_axis_tready && s_axis_tlast;
wire f_out = m_axis_tvalid && m_axis_tready;
reg [7:0] f_pending = 8'd0;            // messages ended, CRC not taken yet
always @(posedge clk) begin
    if (rst)
        f_pending <= 8'd0;
    else
        f_pending <= f_pending + {7'd0, f_end_in} - {7'd0, f_out};
end
// the stages that hold a message's last beat (or its CRC)
wire [F_STAGES-1:0] f_ends = {t_valid, l_valid && l_last, c_valid && c_last, b_valid && b_last,
                              a_valid && a_last};
reg [7:0] f_in_pipe;
integer fi;
always @* begin
    f_in_pipe = 8'd0;
    for (fi = 0; fi < F_STAGES; fi = fi + 1)
        f_in_pipe = f_in_pipe + {7'd0, f_ends[fi]};
end
always @* begin
    assert (s_axis_tready == (!m_axis_tvalid || m_axis_tready));
    if (!rst) begin
        assert (f_pending == f_in_pipe);
        assert (f_pending <= F_STAGES);
    end
end

// one message's last beat, tracked stage by stage: f_at is the stage it is
// in (1: A ... F_STAGES: the output), 0 when none is tracked
(* anyseq *) wire f_pick;
reg [7:0] f_at = 8'd0;
always @(posedge clk) begin
    if (s_axis_tready && f_at != 8'd0)
        f_at <= f_at == F_STAGES ? 8'd0 : f_at + 8'd1;
    if (f_end_in && f_pick && (f_at == 8'd0 || f_at == F_STAGES))
        f_at <= 8'd1;
    if (rst)
        f_at <= 8'd0;
end
always @*
    if (!rst && f_at != 8'd0) begin
        assert (f_ends[f_at - 8'd1]);
        if (f_at == F_STAGES)
            assert (m_axis_tvalid);
    end

// covers: a CRC given while another waits behind it; a stall on the output;
// back-to-back CRCs of one-beat messages
reg [1:0] f_outs = 2'd0;
always @(posedge clk) begin
    f_outs <= {f_outs[0], f_out};
    if (rst)
        f_outs <= 2'd0;
end
always @*
    if (!rst) begin
        cover (f_out && f_pending >= 2);
        cover (m_axis_tvalid && !m_axis_tready && f_pending == F_STAGES);
        cover (f_outs == 2'b11 && f_out);
    end
`endif

endmodule

`resetall
