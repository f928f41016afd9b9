// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_ctx: the context table of mpa_rx (CONN_COUNT half connections)
 * with its two read ports, the lookup and the verdict's read.
 *
 * A half connection's entry is at (h[15:0]) mod CONN_COUNT, with
 * x = f(src) ^ rotl8(f(dst)) ^ {sport, dport}, h = x[31:16] ^ x[15:0], and
 * f(a) the low 32 bits of an IPv4 address (lk_v6 low), the XOR of the four
 * 32-bit words of an IPv6 one (golden/fastpath Index; the rotation keeps
 * the two halves of a connection apart). The addresses are 128 bits, an
 * IPv4 one in its IPv4-mapped form ::ffff:a.b.c.d. The table is kept
 * twice, each copy with only the fields its reader uses: the lookup copy
 * valid, markers, CRC, SeqStart, the DDP stream and version (48 bits) and
 * the key, the IPv6 bit, the two addresses and ports (289 bits); the
 * verdict copy the flags, rcv_nxt and the two out-of-order ranges (168
 * bits). Both are written by every configuration write, the verdict copy
 * also by the verdict's. Entries are context entries (CTX_* in
 * mpa_rx_fields.vh); an output entry holds its copy's fields and zeros (the
 * lookup's no key).
 *
 * Configuration: an address write (cfg_a6_valid, op 4: ADDR6_SRC and
 * ADDR6_DST of cfg_data) loads a staging register; a context write with
 * CTX_V6 takes the key's addresses from it, one without from the 32-bit
 * CTX_SRC_IP and CTX_DST_IP (IPv4-mapped).
 *
 * Lookup: lk_valid with the key (addresses, ports, lk_v6) in cycle t (the
 * beat that completes it); the key is registered, hashed and the lookup
 * copy read in t + 1, the key compared with a configuration write of t + 1
 * to the slot read (forwarded); res_valid in t + 2 with res_match (valid
 * and the key equal: the stored entry's compare and the forwarded one's,
 * then the choice), res_idx and res_ent.
 * Verdict read: rd_idx in cycle t (V0), rd_ent in t + 1 (V1), a write of
 * cycle t to that slot forwarded.
 * Writes: the verdict's (wr_valid, V2) or else a configuration write
 * (cfg_valid: op 0 accepted; mpa_rx holds cfg_ready low while the verdict
 * writes), visible to reads from the next cycle.
 */
module mpa_rx_ctx #(
    // contexts (half connections); a power of two, 2 to 4096
    parameter CONN_COUNT = 16,
    parameter IDX_BITS = $clog2(CONN_COUNT)
) (
    input  wire                clk,
    input  wire                rst,

    // lookup
    input  wire                lk_valid,
    input  wire [127:0]        lk_src_ip,
    input  wire [127:0]        lk_dst_ip,
    input  wire [15:0]         lk_src_port,
    input  wire [15:0]         lk_dst_port,
    input  wire                lk_v6,
    output reg                 res_valid,
    output wire                res_match,
    output reg  [IDX_BITS-1:0] res_idx,
    output wire [383:0]        res_ent,

    // the verdict's read
    input  wire [IDX_BITS-1:0] rd_idx,
    output wire [383:0]        rd_ent,

    // writes
    input  wire                wr_valid,
    input  wire [IDX_BITS-1:0] wr_idx,
    input  wire [383:0]        wr_data,
    input  wire                cfg_valid,
    input  wire                cfg_a6_valid,
    input  wire [IDX_BITS-1:0] cfg_idx,
    input  wire [383:0]        cfg_data
);

`include "mpa_rx_fields.vh"

generate
if (CONN_COUNT < 2 || CONN_COUNT > 4096 || (1 << $clog2(CONN_COUNT)) != CONN_COUNT) begin : g_bad_conn_count
`ifndef SYNTHESIS
    initial begin
        $error("mpa_rx_ctx: CONN_COUNT %0d is not a power of two from 2 to 4096", CONN_COUNT);
        $finish;
    end
`endif
    // elaboration stops here in every tool: this module does not exist
    mpa_rx_ctx_CONN_COUNT_must_be_a_power_of_two_from_2_to_4096 param_error ();
end
if (IDX_BITS != $clog2(CONN_COUNT)) begin : g_bad_idx_bits
`ifndef SYNTHESIS
    initial begin
        $error("mpa_rx_ctx: IDX_BITS %0d is not clog2(CONN_COUNT %0d)", IDX_BITS, CONN_COUNT);
        $finish;
    end
`endif
    mpa_rx_ctx_IDX_BITS_must_be_clog2_CONN_COUNT param_error ();
end
endgenerate

// ------------------------------------------------------------------ copies
// Lookup copy: {key, DDP version, stream, SeqStart, CRC, markers, valid}
localparam LK_VALID = 0;
localparam LK_MARKERS = 1;
localparam LK_CRC = 2;
localparam LK_SEQ_START = 3;
localparam LK_STREAM = LK_SEQ_START + CTX_SEQ_START_W;        // CTX_STREAM, CTX_DDP_VER
localparam STREAM_VER_W = CTX_DDP_VER + CTX_DDP_VER_W - CTX_STREAM;
localparam LK_KEY = LK_STREAM + STREAM_VER_W;
// the key: {v6, dport, sport, dst, src}
localparam K_SRC = 0;
localparam K_DST = 128;
localparam K_SPORT = 256;
localparam K_DPORT = 272;
localparam K_V6 = 288;
localparam KEY_W = 289;
localparam LK_W = LK_KEY + KEY_W;
// Verdict copy: {ranges, rcv_nxt, flags}
localparam VD_FLAGS = 0;                                       // CTX_VALID .. CTX_R1_VALID
localparam FLAGS_W = CTX_R1_VALID + 1;
localparam VD_RCV_NXT = VD_FLAGS + FLAGS_W;
localparam VD_RANGES = VD_RCV_NXT + CTX_RCV_NXT_W;            // CTX_R0_START .. CTX_R1_END
localparam RANGES_W = CTX_R1_END + CTX_R1_END_W - CTX_R0_START;
localparam VD_W = VD_RANGES + RANGES_W;

// the IPv4-mapped form of an IPv4 address
function [127:0] mapped(input [31:0] a);
    mapped = {80'd0, 16'hffff, a};
endfunction

// the staged IPv6 addresses (address writes)
reg [127:0] a6_src, a6_dst;
always @(posedge clk) begin
    if (cfg_a6_valid) begin
        a6_src <= cfg_data[ADDR6_SRC +: ADDR6_SRC_W];
        a6_dst <= cfg_data[ADDR6_DST +: ADDR6_DST_W];
    end
    if (rst) begin
        a6_src <= 128'd0;
        a6_dst <= 128'd0;
    end
end

/* verilator lint_off UNUSEDSIGNAL */
// the lookup copy of a context write, its key's addresses staged (CTX_V6)
// or IPv4-mapped
function [LK_W-1:0] lk_pack(input [383:0] x, input [127:0] s6, input [127:0] d6);
    begin
        lk_pack = {LK_W{1'b0}};
        lk_pack[LK_VALID] = x[CTX_VALID];
        lk_pack[LK_MARKERS] = x[CTX_MARKERS];
        lk_pack[LK_CRC] = x[CTX_CRC];
        lk_pack[LK_SEQ_START +: CTX_SEQ_START_W] = x[CTX_SEQ_START +: CTX_SEQ_START_W];
        lk_pack[LK_STREAM +: STREAM_VER_W] = x[CTX_STREAM +: STREAM_VER_W];
        lk_pack[LK_KEY + K_SRC +: 128] = x[CTX_V6] ? s6 : mapped(x[CTX_SRC_IP +: 32]);
        lk_pack[LK_KEY + K_DST +: 128] = x[CTX_V6] ? d6 : mapped(x[CTX_DST_IP +: 32]);
        lk_pack[LK_KEY + K_SPORT +: 16] = x[CTX_SRC_PORT +: 16];
        lk_pack[LK_KEY + K_DPORT +: 16] = x[CTX_DST_PORT +: 16];
        lk_pack[LK_KEY + K_V6] = x[CTX_V6];
    end
endfunction
function [VD_W-1:0] vd_pack(input [383:0] x);
    begin
        vd_pack = {VD_W{1'b0}};
        vd_pack[VD_FLAGS +: FLAGS_W] = x[CTX_VALID +: FLAGS_W];
        vd_pack[VD_RCV_NXT +: CTX_RCV_NXT_W] = x[CTX_RCV_NXT +: CTX_RCV_NXT_W];
        vd_pack[VD_RANGES +: RANGES_W] = x[CTX_R0_START +: RANGES_W];
    end
endfunction
// the lookup copy's fields but the key
function [383:0] lk_unpack(input [LK_W-1:0] y);
    begin
        lk_unpack = 384'd0;
        lk_unpack[CTX_VALID] = y[LK_VALID];
        lk_unpack[CTX_MARKERS] = y[LK_MARKERS];
        lk_unpack[CTX_CRC] = y[LK_CRC];
        lk_unpack[CTX_SEQ_START +: CTX_SEQ_START_W] = y[LK_SEQ_START +: CTX_SEQ_START_W];
        lk_unpack[CTX_STREAM +: STREAM_VER_W] = y[LK_STREAM +: STREAM_VER_W];
    end
endfunction
/* verilator lint_on UNUSEDSIGNAL */
function [383:0] vd_unpack(input [VD_W-1:0] y);
    begin
        vd_unpack = 384'd0;
        vd_unpack[CTX_VALID +: FLAGS_W] = y[VD_FLAGS +: FLAGS_W];
        vd_unpack[CTX_RCV_NXT +: CTX_RCV_NXT_W] = y[VD_RCV_NXT +: CTX_RCV_NXT_W];
        vd_unpack[CTX_R0_START +: RANGES_W] = y[VD_RANGES +: RANGES_W];
    end
endfunction

reg [LK_W-1:0] ctx_lk [0:CONN_COUNT-1];
reg [VD_W-1:0] ctx_vd [0:CONN_COUNT-1];

/* verilator lint_off UNUSEDSIGNAL */
// an address folded to 32 bits: IPv4 its low word, IPv6 the XOR of its words
function [31:0] fold32(input [127:0] a, input v6);
    fold32 = v6 ? a[127:96] ^ a[95:64] ^ a[63:32] ^ a[31:0] : a[31:0];
endfunction
function [IDX_BITS-1:0] ctx_hash(input [KEY_W-1:0] k);
    reg [31:0] x, fd;
    reg [15:0] h;
    begin
        fd = fold32(k[K_DST +: 128], k[K_V6]);
        x = fold32(k[K_SRC +: 128], k[K_V6]) ^ {fd[23:0], fd[31:24]} ^ {k[K_SPORT +: 16], k[K_DPORT +: 16]};
        h = x[31:16] ^ x[15:0];
        ctx_hash = h[IDX_BITS-1:0];
    end
endfunction
/* verilator lint_on UNUSEDSIGNAL */

// ------------------------------------------------------------------ writes
wire                ctx_we = wr_valid || cfg_valid;
wire [IDX_BITS-1:0] ctx_widx = wr_valid ? wr_idx : cfg_idx;
wire [383:0]        ctx_wdata = wr_valid ? wr_data : cfg_data;
wire [LK_W-1:0]     cfg_lk = lk_pack(cfg_data, a6_src, a6_dst);
always @(posedge clk) begin
    if (ctx_we)
        ctx_vd[ctx_widx] <= vd_pack(ctx_wdata);
    if (cfg_valid)
        ctx_lk[cfg_idx] <= cfg_lk;
end

// ------------------------------------------------------------------ lookup
wire [KEY_W-1:0] lk_key_in = {lk_v6, lk_dst_port, lk_src_port, lk_dst_ip, lk_src_ip};
reg              t_pend;
reg  [KEY_W-1:0] t_key;
always @(posedge clk) begin
    t_pend <= lk_valid;
    if (lk_valid)
        t_key <= lk_key_in;
    if (rst)
        t_pend <= 1'b0;
end
wire [IDX_BITS-1:0] t_idx = ctx_hash(t_key);
reg [LK_W-1:0]   lk_q;
reg [KEY_W-1:0]  res_key;
reg              lk_fwd_hit, lk_fwd_match;
reg [LK_W-1:0]   lk_fwd;
always @(posedge clk) begin
    lk_q <= ctx_lk[t_idx];
end
always @(posedge clk) begin
    res_valid <= t_pend;
    if (t_pend) begin
        res_key <= t_key;
        res_idx <= t_idx;
    end
    // a configuration write in the cycle of the read is forwarded, its key
    // compared here
    lk_fwd_hit <= cfg_valid && cfg_idx == t_idx;
    lk_fwd_match <= cfg_lk[LK_VALID] && cfg_lk[LK_KEY +: KEY_W] == t_key;
    lk_fwd <= cfg_lk;
    if (rst)
        res_valid <= 1'b0;
end
assign res_ent = lk_unpack(lk_fwd_hit ? lk_fwd : lk_q);
wire q_match = lk_q[LK_VALID] && lk_q[LK_KEY +: KEY_W] == res_key;
assign res_match = lk_fwd_hit ? lk_fwd_match : q_match;

// ------------------------------------------------------------------ the verdict's read
reg [VD_W-1:0] vd_q;
reg [VD_W-1:0] vd_fwd;
reg            vd_fwd_hit;
always @(posedge clk) begin
    vd_q <= ctx_vd[rd_idx];
    // a write in the cycle of the read is forwarded
    vd_fwd_hit <= ctx_we && ctx_widx == rd_idx;
    vd_fwd <= vd_pack(ctx_wdata);
end
assign rd_ent = vd_unpack(vd_fwd_hit ? vd_fwd : vd_q);

`ifdef FORMAL
// ------------------------------------------------------------------ formal
// Proven by `make formal` (docs/robustness.md, "Formal proofs"). The
// environment: no configuration write in a cycle of a verdict write
// (assumed: mpa_rx holds cfg_ready low while the verdict writes). The
// table is modelled for one slot chosen by the solver (f_slot: so for
// every slot), from the writes alone: the last entry written there (the
// verdict's and configuration writes for the verdict copy, configuration
// writes alone for the lookup copy, with the key of the addresses of the
// last address write when CTX_V6 is set, else the IPv4-mapped ones).
// Properties:
//   - res_valid exactly two cycles after lk_valid (none after a reset);
//     res_idx the hash of golden/fastpath Index of that key (each address
//     folded to 32 bits: IPv6 the XOR of its words, IPv4 its low word;
//     x = src ^ rotl8(dst) ^ {sport, dport}, x[31:16] ^ x[15:0], mod
//     CONN_COUNT); for the modelled slot, res_ent the lookup copy's fields
//     of the last configuration write to it up to the cycle before
//     res_valid (a write in the read's cycle forwarded), zeros elsewhere,
//     and res_match iff that entry is valid and its key is the lookup's;
//   - rd_ent one cycle after rd_idx: for the modelled slot, the verdict
//     copy's fields of the last write to it up to the cycle of rd_idx
//     (forwarded), zeros elsewhere.
reg f_past_valid = 1'b0;
always @(posedge clk)
    f_past_valid <= 1'b1;
always @*
    if (!f_past_valid)
        assume (rst);

(* anyconst *) wire [IDX_BITS-1:0] f_slot;
// the fields of each copy (the lookup copy's output: no key)
reg [383:0] f_lk_mask, f_vd_mask;
always @* begin
    f_lk_mask = 384'd0;
    f_lk_mask[CTX_VALID] = 1'b1;
    f_lk_mask[CTX_MARKERS] = 1'b1;
    f_lk_mask[CTX_CRC] = 1'b1;
    f_lk_mask[CTX_SEQ_START +: CTX_SEQ_START_W] = {CTX_SEQ_START_W{1'b1}};
    f_lk_mask[CTX_STREAM +: CTX_STREAM_W] = {CTX_STREAM_W{1'b1}};
    f_lk_mask[CTX_DDP_VER +: CTX_DDP_VER_W] = {CTX_DDP_VER_W{1'b1}};
    f_vd_mask = 384'd0;
    f_vd_mask[CTX_VALID] = 1'b1;
    f_vd_mask[CTX_FULL] = 1'b1;
    f_vd_mask[CTX_ERR] = 1'b1;
    f_vd_mask[CTX_SW_OWNED] = 1'b1;
    f_vd_mask[CTX_MARKERS] = 1'b1;
    f_vd_mask[CTX_CRC] = 1'b1;
    f_vd_mask[CTX_R0_VALID] = 1'b1;
    f_vd_mask[CTX_R1_VALID] = 1'b1;
    f_vd_mask[CTX_RCV_NXT +: CTX_RCV_NXT_W] = {CTX_RCV_NXT_W{1'b1}};
    f_vd_mask[CTX_R0_START +: CTX_R0_START_W] = {CTX_R0_START_W{1'b1}};
    f_vd_mask[CTX_R0_END +: CTX_R0_END_W] = {CTX_R0_END_W{1'b1}};
    f_vd_mask[CTX_R1_START +: CTX_R1_START_W] = {CTX_R1_START_W{1'b1}};
    f_vd_mask[CTX_R1_END +: CTX_R1_END_W] = {CTX_R1_END_W{1'b1}};
end

// the last address write (the staging register is asserted to hold it
// from the first cycle on), and the key of a configuration write
reg [255:0] f_a6;
always @(posedge clk) begin
    if (cfg_a6_valid)
        f_a6 <= cfg_data[255:0];
    if (rst)
        f_a6 <= 256'd0;
end
wire [KEY_W-1:0] f_cfg_key = {cfg_data[CTX_V6], cfg_data[CTX_DST_PORT +: 16], cfg_data[CTX_SRC_PORT +: 16],
    cfg_data[CTX_V6] ? a6_dst : {80'd0, 16'hffff, cfg_data[CTX_DST_IP +: 32]},
    cfg_data[CTX_V6] ? a6_src : {80'd0, 16'hffff, cfg_data[CTX_SRC_IP +: 32]}};

// the modelled slot: the last entry written to each copy (known once written)
reg             f_lk_known = 1'b0, f_vd_known = 1'b0;
reg [383:0]     f_lk_ent, f_vd_ent;
reg [KEY_W-1:0] f_lk_key;
always @(posedge clk) begin
    if (cfg_valid && cfg_idx == f_slot) begin
        f_lk_known <= 1'b1;
        f_lk_ent <= cfg_data & f_lk_mask;
        f_lk_key <= f_cfg_key;
    end
    if (wr_valid && wr_idx == f_slot) begin
        f_vd_known <= 1'b1;
        f_vd_ent <= wr_data & f_vd_mask;
    end else if (cfg_valid && cfg_idx == f_slot) begin
        f_vd_known <= 1'b1;
        f_vd_ent <= cfg_data & f_vd_mask;
    end
end

// the lookups of the last two cycles: the key and its hash
reg [1:0]       f_lk_line = 2'd0;
reg [KEY_W-1:0] f_key1, f_key2;
always @(posedge clk) begin
    f_lk_line <= {f_lk_line[0], lk_valid};
    f_key1 <= {lk_v6, lk_dst_port, lk_src_port, lk_dst_ip, lk_src_ip};
    f_key2 <= f_key1;
    if (rst)
        f_lk_line <= 2'd0;
end
wire [127:0] f_src6 = f_key2[K_SRC +: 128];
wire [127:0] f_dst6 = f_key2[K_DST +: 128];
wire [31:0] f_src = f_key2[K_V6] ? f_src6[127:96] ^ f_src6[95:64] ^ f_src6[63:32] ^ f_src6[31:0] : f_src6[31:0];
wire [31:0] f_dst = f_key2[K_V6] ? f_dst6[127:96] ^ f_dst6[95:64] ^ f_dst6[63:32] ^ f_dst6[31:0] : f_dst6[31:0];
wire [31:0] f_x = f_src ^ {f_dst[23:0], f_dst[31:24]} ^ {f_key2[K_SPORT +: 16], f_key2[K_DPORT +: 16]};
wire [15:0] f_h = f_x[31:16] ^ f_x[15:0];

// the verdict's read of the last cycle
reg f_rd_hit = 1'b0;
reg f_rd_wr = 1'b0;   // and a verdict write to the slot in its cycle
always @(posedge clk) begin
    f_rd_hit <= rd_idx == f_slot;
    f_rd_wr <= rd_idx == f_slot && wr_valid && wr_idx == f_slot;
end
always @*
    assume (!(wr_valid && cfg_valid));

always @* begin
    if (!rst) begin
        assert (res_valid == f_lk_line[1]);
        if (res_valid) begin
            assert (res_idx == f_h[IDX_BITS-1:0]);
            if (res_idx == f_slot && f_lk_known) begin
                assert (res_ent == f_lk_ent);
                assert (res_match == (f_lk_ent[CTX_VALID] && f_lk_key == f_key2));
            end
        end
    end
    if (f_rd_hit && f_vd_known)
        assert (rd_ent == f_vd_ent);
    // the copies hold the model's entry (induction invariants)
    if (f_lk_known) begin
        assert (lk_unpack(ctx_lk[f_slot]) == f_lk_ent);
        assert (ctx_lk[f_slot][LK_KEY +: KEY_W] == f_lk_key);
    end
    if (f_vd_known)
        assert (vd_unpack(ctx_vd[f_slot]) == f_vd_ent);
    // the staging register and the pipeline (induction invariants)
    if (f_past_valid)
        assert ({a6_dst, a6_src} == f_a6);
    if (!rst && t_pend)
        assert (t_key == f_key1);
    if (!rst && res_valid)
        assert (res_key == f_key2);
end

always @* begin
    if (!rst) begin
        cover (res_valid && res_match && res_idx == f_slot && f_lk_known);
        cover (res_valid && res_match && res_idx == f_slot && f_lk_known && f_key2[K_V6]);   // an IPv6 key matched
        cover (res_valid && res_idx == f_slot && f_lk_known && lk_fwd_hit);   // a write forwarded to the lookup
        cover (f_rd_hit && f_vd_known && f_rd_wr);   // the verdict's write forwarded to its read
    end
end
`endif

endmodule

`resetall
