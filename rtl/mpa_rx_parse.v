// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_parse: Ethernet II (one optional 802.1Q tag) / IPv4 or IPv6 / TCP
 * header parser and checksum checker for the mpa_rx ingress.
 *
 * It watches the accepted beats of a frame (in_valid is the handshake) and
 * never stalls. Every header from the IPv4 header on starts at frame offset
 * 2 (mod 4), so it looks at the frame as 32-bit words W_k = frame octets
 * [4k-2, 4k+1]: per beat the WPB = DATA_WIDTH/32 words that complete in it,
 * the "word view" w_data = {in_data[8*(KEEP-2)-1:0], previous beat's two top
 * lanes}, word j in w_data[32j+31:32j] with its first wire octet in the low
 * byte. w_pmask marks the words that are TCP payload (up to the IPv4 total
 * length or the IPv6 payload length; the last may be partial).
 *
 * Per frame it checks, in the order golden/wire does: Ethernet length and
 * EtherType, IPv4 version and lengths, the IPv4 header checksum, protocol,
 * fragments, TCP header length, the TCP checksum (pseudo-header included,
 * Ethernet padding excluded). The class is OK, NOT_TCP (not IPv4/TCP or a
 * fragment: software's) or DROP (malformed or a checksum wrong).
 * IPv6 (EtherType 0x86dd, behind the same optional tag): the fixed header
 * is ten words from the word where IPv4's starts, TCP right after it, so
 * every field again sits at a fixed word. A Next Header of Hop-by-Hop
 * Options, Routing, Fragment or Destination Options is class NOT_TCP with
 * f_drop NOT_TCP_IPV6_EXT (golden/fastpath reason IPv6Ext: the receiver
 * does not walk extension headers), tested first, once the frame holds
 * the fixed header with version 6; then the version, an IPv4-mapped
 * address, a payload length of 0 or beyond the frame are malformed; a
 * Next Header other than TCP is NOT_TCP; the TCP checks follow, the
 * checksum over the IPv6 pseudo-header: the address words go into the
 * TCP adder tree with the segment's, the payload length and next header 6
 * are added after it. No header checksum. The addresses come out as 128
 * bits (an IPv4 one as ::ffff:a.b.c.d) with v6_now.
 *
 * Latency (a frame's last beat in cycle a): w_data is the beat's word view
 * (combinational: in_data and a register); w_pmask marks the payload words
 * of the previous cycle's beat (from registers). The header fields (*_now,
 * tuple_done) are combinational from the beat that completes them (then
 * registered); each field sits at a fixed word once the tag and the IPv4
 * header length are known, and "word m is in this beat" is a registered
 * one-hot beat number, so no position is computed on the beat's path; the
 * TCP fields are selects of the beat's words indexed by the header-length
 * bits themselves (this beat's or the registers'), the tag choosing last.
 * The checksums go through adder trees over the 16-bit units of each beat
 * (2 * DATA_WIDTH/32 + 1 leaves, TL = clog2 of that many levels, a register
 * per level), then into 17-bit running sums with one end-around fold per
 * beat; the pseudo-header is added and the sums folded and compared in
 * three more cycles, the class taken in the next. f_valid pulses in cycle
 * a + L_PARSE, L_PARSE = 8 + TL: 11 / 12 / 13 / 14 cycles at 64 / 128 /
 * 256 / 512 bits, with the frame's class and fields. Frames of up to
 * 64 KiB (the 16-bit octet offsets of the headers).
 */
module mpa_rx_parse #(
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH / 8
) (
    input  wire                     clk,
    input  wire                     rst,

    input  wire [DATA_WIDTH-1:0]    in_data,
    input  wire [KEEP_WIDTH-1:0]    in_keep,
    input  wire                     in_valid,
    input  wire                     in_last,

    // word view of the current beat, payload words of the previous one
    output wire [DATA_WIDTH-1:0]    w_data,
    output wire [DATA_WIDTH/32-1:0] w_pmask,

    // header fields as far as seen (combinational bypass for the current beat)
    output wire [127:0]             src_ip_now, // IPv4: ::ffff:a.b.c.d
    output wire [127:0]             dst_ip_now,
    output wire                     v6_now,     // the EtherType is IPv6
    output wire [15:0]              src_port_now,
    output wire [15:0]              dst_port_now,
    output wire [31:0]              seq_now,
    output wire                     tuple_done, // the 4-tuple completes in this beat

    // per frame, L_PARSE cycles after its last beat
    output reg                      f_valid,
    output reg  [1:0]               f_class,    // CLASS_* (mpa_rx_fields.vh): OK, NOT_TCP, DROP
    output reg  [1:0]               f_drop,     // DROP: DROP_MALFORMED, DROP_IP_CSUM, DROP_TCP_CSUM;
                                                // NOT_TCP: NOT_TCP_OTHER, NOT_TCP_IPV6_EXT
    output reg  [31:0]              f_seq,
    output reg  [7:0]               f_flags,
    output reg  [15:0]              f_plen      // TCP payload octets
);

`include "mpa_rx_fields.vh"

generate
if (!(DATA_WIDTH == 64 || DATA_WIDTH == 128 || DATA_WIDTH == 256 || DATA_WIDTH == 512)) begin : g_bad_data_width
`ifndef SYNTHESIS
    initial begin
        $error("mpa_rx_parse: DATA_WIDTH %0d is not supported (64, 128, 256 or 512)", DATA_WIDTH);
        $finish;
    end
`endif
    // elaboration stops here in every tool: this module does not exist
    mpa_rx_parse_DATA_WIDTH_must_be_64_128_256_or_512 param_error ();
end
if (KEEP_WIDTH * 8 != DATA_WIDTH) begin : g_bad_keep_width
`ifndef SYNTHESIS
    initial begin
        $error("mpa_rx_parse: KEEP_WIDTH %0d is not DATA_WIDTH / 8", KEEP_WIDTH);
        $finish;
    end
`endif
    mpa_rx_parse_KEEP_WIDTH_must_be_DATA_WIDTH_over_8 param_error ();
end
endgenerate

localparam KEEP = KEEP_WIDTH;
localparam WPB = DATA_WIDTH / 32;
localparam CNT_BITS = 16;

// ---------------------------------------------------------------- word view
reg [15:0] prev_top;
assign w_data = {in_data[8*(KEEP-2)-1:0], prev_top};

// ---------------------------------------------------------------- state
reg             in_frame;      // a beat of this frame was seen before
reg [CNT_BITS-1:0] beat_base;  // word index of word 0 of this beat

reg        vlan_r,  vlan_k;    // EtherType seen: VLAN tag, known
reg [15:0] etype_r;            // the EtherType after the optional tag
reg        etype_k;
reg [3:0]  ihl_r;    reg ihl_k;
reg [3:0]  ver_r;
reg [15:0] tlen_r;
reg [7:0]  proto_r;
reg        frag_r;
reg [31:0] src_r, dst_r;
reg        v6_r;               // IPv6 (EtherType 0x86dd)
reg [15:0] plen6_r;            // IPv6 payload length
reg [7:0]  nh_r;               // IPv6 next header
reg [127:0] src6_r, dst6_r;    // IPv6 addresses
reg [15:0] sport_r, dport_r;
reg [31:0] seq_r;
reg [3:0]  doff_r;   reg doff_k;
reg [7:0]  flags_r;

// ------------------------------------------------ per-word field selection
// Fields can complete in the beat that uses them (a wide bus holds several
// headers in one beat). Every field sits at a fixed word of the frame once
// the tag (word 3) and the IPv4 header length (word ipw = 4 or 5) are known:
// "word m is in this beat" is the registered beat number bn (one-hot) at
// m / WPB, and word m is slot m % WPB. The tag and the header length are
// taken from this beat when they are in it (else from the registers), the
// fields from their words when those are in this beat. A field is final
// from its word on, and nothing is read at a word before the fields that
// locate it, so these end-of-beat values are what a word-by-word walk sees.
localparam NB = 23 / WPB + 1;          // beats that hold words 0 .. 23
reg [NB-1:0] bn;                       // one-hot beat number (0 past NB-1)
reg [CNT_BITS-1:0] kq [0:WPB-1];       // word index of each slot

/* verilator lint_off UNUSEDSIGNAL */
function [31:0] wordm(input [DATA_WIDTH-1:0] wv, input integer m);
    wordm = wv[32*(m % WPB) +: 32];
endfunction
/* verilator lint_on UNUSEDSIGNAL */

integer j, d;
reg        c_vlan, c_vlan_k, c_etype_k, c_ihl_k, c_doff_k;
reg [15:0] c_etype;
reg [3:0]  c_ihl, c_ver, c_doff;
reg [15:0] c_tlen;
reg [7:0]  c_proto, c_flags;
reg        c_frag;
reg [31:0] c_src, c_dst, c_seq;
reg [15:0] c_sport, c_dport;
reg        c_tuple_done;
reg        c_v6;
reg [15:0] c_plen6;
reg [7:0]  c_nh;
reg [127:0] c_src6, c_dst6;
reg [3:0]  c_hl;                       // header length in words: IPv4 IHL, IPv6 10
reg [CNT_BITS-1:0] ipw, tw;            // word of IP start, TCP start
reg [15:0] w3, w4;
reg [31:0] wi;
reg [15:0] et3, et4;
reg [9:0]  fv0, fv1;                   // IP header word d in this beat (no tag / tag)

always @* begin
    wi = wordm(w_data, 3);
    w3 = wi[31:16];
    wi = wordm(w_data, 4);
    w4 = wi[31:16];
    et3 = {w3[7:0], w3[15:8]};
    et4 = {w4[7:0], w4[15:8]};
    // Ethernet: W_3 octets 2,3 = EtherType; with a tag W_4 octets 2,3.
    c_vlan = bn[3 / WPB] ? et3 == 16'h8100 : vlan_r;
    c_vlan_k = bn[3 / WPB] || (in_frame && vlan_k);
    c_etype = bn[3 / WPB] ? et3 : etype_r;
    c_etype_k = bn[3 / WPB] ? !c_vlan : in_frame && etype_k;
    // IPv6 decided from each compare beside the tag's
    c_v6 = bn[3 / WPB] ? et3 == 16'h86dd : in_frame && v6_r;
    if (c_vlan && bn[4 / WPB]) begin
        c_etype = et4;
        c_etype_k = 1'b1;
        c_v6 = et4 == 16'h86dd;
    end
    // IP header: word ipw + d
    for (d = 0; d < 10; d = d + 1) begin
        fv0[d] = bn[(4 + d) / WPB];
        fv1[d] = bn[(5 + d) / WPB];
    end
    c_ver = ver_r; c_ihl = ihl_r; c_tlen = tlen_r; c_frag = frag_r; c_proto = proto_r;
    c_src = src_r; c_dst = dst_r;
    c_plen6 = plen6_r; c_nh = nh_r; c_src6 = src6_r; c_dst6 = dst6_r;
    c_ihl_k = in_frame && ihl_k;
    if (c_vlan ? fv1[0] : fv0[0]) begin
        wi = c_vlan ? wordm(w_data, 5) : wordm(w_data, 4);
        c_ver = wi[7:4];
        c_ihl = wi[3:0];
        c_ihl_k = 1'b1;
        c_tlen = {wi[23:16], wi[31:24]};
    end
    if (c_vlan ? fv1[1] : fv0[1]) begin
        wi = c_vlan ? wordm(w_data, 6) : wordm(w_data, 5);
        c_frag = wi[21] || wi[20:16] != 5'd0 || wi[31:24] != 8'd0;
        c_plen6 = {wi[7:0], wi[15:8]};
        c_nh = wi[23:16];
    end
    if (c_vlan ? fv1[2] : fv0[2]) begin
        wi = c_vlan ? wordm(w_data, 7) : wordm(w_data, 6);
        c_proto = wi[15:8];
    end
    if (c_vlan ? fv1[3] : fv0[3]) begin
        wi = c_vlan ? wordm(w_data, 8) : wordm(w_data, 7);
        c_src = {wi[7:0], wi[15:8], wi[23:16], wi[31:24]};
    end
    if (c_vlan ? fv1[4] : fv0[4]) begin
        wi = c_vlan ? wordm(w_data, 9) : wordm(w_data, 8);
        c_dst = {wi[7:0], wi[15:8], wi[23:16], wi[31:24]};
    end
    // IPv6 addresses: words ipw + 2 .. ipw + 5 and ipw + 6 .. ipw + 9
    for (d = 0; d < 4; d = d + 1) begin
        if (c_vlan ? fv1[2 + d] : fv0[2 + d]) begin
            wi = c_vlan ? wordm(w_data, 7 + d) : wordm(w_data, 6 + d);
            c_src6[96 - 32 * d +: 32] = {wi[7:0], wi[15:8], wi[23:16], wi[31:24]};
        end
        if (c_vlan ? fv1[6 + d] : fv0[6 + d]) begin
            wi = c_vlan ? wordm(w_data, 11 + d) : wordm(w_data, 10 + d);
            c_dst6[96 - 32 * d +: 32] = {wi[7:0], wi[15:8], wi[23:16], wi[31:24]};
        end
    end
    ipw = c_vlan ? 16'd5 : 16'd4;
    c_hl = c_v6 ? 4'd10 : c_ihl;
    tw = ipw + {12'd0, c_hl};
end

// TCP header fields. Field f (0 the ports, 1 the sequence number, 3 the
// data offset and flags) is word 4 + v + ihl + f, v the tag. The words
// that locate it are in beat IB (the IPv4 header's first word, with or
// without a tag: 4 / WPB = 5 / WPB at every width). In beat IB the header
// length is this beat's: the field is a select of the beat's words indexed
// by the header-length bits themselves, one per tag case, the tag choosing
// last. In a later beat the tag and the header length are registers (set
// in beats 3 / WPB and IB of this frame): a select indexed by {vlan_r,
// ihl_r}. In a beat before IB no field word is in the beat. These are the
// per-word walk's values with no decoded position between the words and
// the select (they are on the beat's shortest-slack path).
localparam IB = 4 / WPB;

/* verilator lint_off UNUSEDSIGNAL */
// the beat's words as 16 entries indexed by the header length (tag case v)
function [16*32-1:0] dtab(input [DATA_WIDTH-1:0] wv, input integer v, input integer f);
    integer i;
    begin
        for (i = 0; i < 16; i = i + 1)
            dtab[32*i +: 32] = wv[32*((4 + v + i + f) % WPB) +: 32];
    end
endfunction
// the header lengths at which field f is in beat IB (tag case v)
function [15:0] dhit(input integer v, input integer f);
    integer i;
    begin
        for (i = 0; i < 16; i = i + 1)
            dhit[i] = 4 + v + i + f < WPB * (IB + 1);
    end
endfunction
// field f in this beat, per {tag, header length}
function [31:0] rhit(input [NB-1:0] b, input integer f);
    integer k;
    begin
        for (k = 0; k < 32; k = k + 1)
            rhit[k] = b[(4 + k / 16 + k % 16 + f) / WPB];
    end
endfunction
/* verilator lint_on UNUSEDSIGNAL */

localparam [15:0] DH00 = dhit(0, 0), DH10 = dhit(1, 0);
localparam [15:0] DH01 = dhit(0, 1), DH11 = dhit(1, 1);
localparam [15:0] DH03 = dhit(0, 3), DH13 = dhit(1, 3);

reg  [3:0]  ihl_d0, ihl_d1;            // this beat's header length (tag case 0 / 1)
wire [4:0]  rk = {vlan_r, ihl_r};
wire [31:0] rh0 = rhit(bn, 0), rh1 = rhit(bn, 1), rh3 = rhit(bn, 3);
wire [16*32-1:0] dt00 = dtab(w_data, 0, 0), dt10 = dtab(w_data, 1, 0);
wire [16*32-1:0] dt01 = dtab(w_data, 0, 1), dt11 = dtab(w_data, 1, 1);
wire [16*32-1:0] dt03 = dtab(w_data, 0, 3), dt13 = dtab(w_data, 1, 3);
// the same words as 32 entries indexed by {tag, header length}
wire [32*32-1:0] rt0 = {dt10, dt00}, rt1 = {dt11, dt01}, rt3 = {dt13, dt03};
// IPv6: TCP field f is word 14 + v + f
reg         h6_tu, h6_sq, h6_do;
reg  [31:0] v6_tu, v6_sq;
/* verilator lint_off UNUSEDSIGNAL */
reg  [31:0] v6_do;
/* verilator lint_on UNUSEDSIGNAL */
reg         h_tu, h_sq, h_do;          // the field's word is in this beat
reg  [31:0] v_tu, v_sq;                // and is this word
/* verilator lint_off UNUSEDSIGNAL */
reg  [31:0] v_do, wt;
/* verilator lint_on UNUSEDSIGNAL */
always @* begin
    wt = wordm(w_data, 4);
    ihl_d0 = wt[3:0];
    wt = wordm(w_data, 5);
    ihl_d1 = wt[3:0];
    if (bn[IB]) begin
        h_tu = c_vlan ? DH10[ihl_d1] : DH00[ihl_d0];
        v_tu = c_vlan ? dt10[32*ihl_d1 +: 32] : dt00[32*ihl_d0 +: 32];
        h_sq = c_vlan ? DH11[ihl_d1] : DH01[ihl_d0];
        v_sq = c_vlan ? dt11[32*ihl_d1 +: 32] : dt01[32*ihl_d0 +: 32];
        h_do = c_vlan ? DH13[ihl_d1] : DH03[ihl_d0];
        v_do = c_vlan ? dt13[32*ihl_d1 +: 32] : dt03[32*ihl_d0 +: 32];
    end else begin
        h_tu = rh0[rk];
        v_tu = rt0[32*rk +: 32];
        h_sq = rh1[rk];
        v_sq = rt1[32*rk +: 32];
        h_do = rh3[rk];
        v_do = rt3[32*rk +: 32];
    end
    h6_tu = c_vlan ? bn[15 / WPB] : bn[14 / WPB];
    v6_tu = c_vlan ? wordm(w_data, 15) : wordm(w_data, 14);
    h6_sq = c_vlan ? bn[16 / WPB] : bn[15 / WPB];
    v6_sq = c_vlan ? wordm(w_data, 16) : wordm(w_data, 15);
    h6_do = c_vlan ? bn[18 / WPB] : bn[17 / WPB];
    v6_do = c_vlan ? wordm(w_data, 18) : wordm(w_data, 17);
    if (c_v6) begin
        h_tu = h6_tu; v_tu = v6_tu;
        h_sq = h6_sq; v_sq = v6_sq;
        h_do = h6_do; v_do = v6_do;
    end
    c_tuple_done = h_tu;
    c_sport = h_tu ? {v_tu[7:0], v_tu[15:8]} : sport_r;
    c_dport = h_tu ? {v_tu[23:16], v_tu[31:24]} : dport_r;
    c_seq = h_sq ? {v_sq[7:0], v_sq[15:8], v_sq[23:16], v_sq[31:24]} : seq_r;
    c_doff = h_do ? v_do[7:4] : doff_r;
    c_flags = h_do ? v_do[15:8] : flags_r;
    c_doff_k = h_do || (in_frame && doff_k);
end

always @(posedge clk) begin
    if (in_valid) begin
        bn <= in_last ? {{(NB-1){1'b0}}, 1'b1} : {bn[NB-2:0], 1'b0};
        for (j = 0; j < WPB; j = j + 1)
            kq[j] <= in_last ? j[CNT_BITS-1:0] : kq[j] + WPB[CNT_BITS-1:0];
    end
    if (rst) begin
        bn <= {{(NB-1){1'b0}}, 1'b1};
        for (j = 0; j < WPB; j = j + 1)
            kq[j] <= j[CNT_BITS-1:0];
    end
end

assign src_ip_now = c_v6 ? c_src6 : {80'd0, 16'hffff, c_src};
assign dst_ip_now = c_v6 ? c_dst6 : {80'd0, 16'hffff, c_dst};
assign v6_now = c_v6;
assign src_port_now = c_sport;
assign dst_port_now = c_dport;
assign seq_now = c_seq;
assign tuple_done = in_valid && c_tuple_done;

// The positions at the end of the beat. Each checksum word (and the payload
// mask) is decided by values that are final from the word that sets them
// on, and no word before that one is summed: the end-of-beat values decide
// every word of the beat as the walk above would.
// octet offset (+2) just past the IP datagram (IPv6: 40 + the payload length)
wire [CNT_BITS-1:0] e_endb = (c_v6 ? (c_vlan ? 16'd60 : 16'd56) : {ipw[13:0], 2'b00}) + (c_v6 ? c_plen6 : c_tlen);

always @(posedge clk) begin
    if (in_valid) begin
        prev_top <= in_data[DATA_WIDTH-1 -: 16];
        vlan_r <= c_vlan; vlan_k <= c_vlan_k; etype_r <= c_etype; etype_k <= c_etype_k;
        ihl_r <= c_ihl; ihl_k <= c_ihl_k; ver_r <= c_ver; tlen_r <= c_tlen; proto_r <= c_proto;
        frag_r <= c_frag; src_r <= c_src; dst_r <= c_dst; sport_r <= c_sport; dport_r <= c_dport;
        seq_r <= c_seq; doff_r <= c_doff; doff_k <= c_doff_k; flags_r <= c_flags;
        v6_r <= c_v6 && !in_last; plen6_r <= c_plen6; nh_r <= c_nh; src6_r <= c_src6; dst6_r <= c_dst6;
        in_frame <= !in_last;
        beat_base <= in_last ? {CNT_BITS{1'b0}} : beat_base + WPB[CNT_BITS-1:0];
    end
    if (rst) begin
        in_frame <= 1'b0;
        beat_base <= {CNT_BITS{1'b0}};
        prev_top <= 16'd0;
        vlan_r <= 1'b0; vlan_k <= 1'b0; etype_r <= 16'd0; etype_k <= 1'b0;
        ihl_r <= 4'd0; ihl_k <= 1'b0; ver_r <= 4'd0; tlen_r <= 16'd0; proto_r <= 8'd0; frag_r <= 1'b0;
        src_r <= 32'd0; dst_r <= 32'd0; sport_r <= 16'd0; dport_r <= 16'd0; seq_r <= 32'd0;
        doff_r <= 4'd0; doff_k <= 1'b0; flags_r <= 8'd0;
        v6_r <= 1'b0; plen6_r <= 16'd0; nh_r <= 8'd0; src6_r <= 128'd0; dst6_r <= 128'd0;
    end
end

// ================================================ checksum pipeline
// S1 (cycle a+1 for a beat in cycle a): the beat, its word index and the
// end-of-beat positions.
reg                  s1_valid, s1_first, s1_last;
reg [DATA_WIDTH-1:0] s1_w;        // word view
reg [15:0]           s1_top;      // the top two lanes (a last beat's tail)
reg [KEEP-1:0]       s1_keep;
reg [CNT_BITS-1:0]   s1_k0, s1_ipw, s1_tw, s1_endb;
reg                  s1_ihl_k;
reg [CNT_BITS-1:0]   s1_tw3;
reg [3:0]            s1_doff;
reg [WPB*CNT_BITS-1:0] s1_kq;
reg                  s1_pm_ok;     // an IPv4/TCP datagram, not a fragment, or IPv6/TCP, its data offset seen
reg                  s1_v6;
always @(posedge clk) begin
    s1_valid <= in_valid;
    s1_first <= !in_frame;
    s1_last <= in_last;
    s1_w <= w_data;
    s1_top <= {in_data[DATA_WIDTH-16 +: 8], in_data[DATA_WIDTH-8 +: 8]};
    s1_keep <= in_keep;
    s1_k0 <= beat_base;
    s1_ipw <= ipw; s1_tw <= tw; s1_endb <= e_endb;
    s1_ihl_k <= c_ihl_k;
    s1_tw3 <= {12'd0, c_hl} + (c_vlan ? 16'd8 : 16'd7);
    s1_v6 <= c_v6;
    s1_doff <= c_doff;
    for (j = 0; j < WPB; j = j + 1)
        s1_kq[j*CNT_BITS +: CNT_BITS] <= kq[j];
    s1_pm_ok <= c_doff_k && (c_v6 ? c_ver == 4'd6 && c_nh == 8'd6 :
                                    c_etype == 16'h0800 && c_ver == 4'd4 && c_proto == 8'd6 && !c_frag);
    if (rst)
        s1_valid <= 1'b0;
end

// The payload-word mask of the beat of the previous cycle: words from the
// data offset's word (tw + 3) and the payload's first word (pw) on, before
// the datagram's end (the walk's test on the end-of-beat values).
reg [WPB-1:0] c_pmask;
reg [CNT_BITS-1:0] kk;
always @* begin
    for (j = 0; j < WPB; j = j + 1) begin
        kk = s1_kq[j*CNT_BITS +: CNT_BITS];
        c_pmask[j] = s1_valid && s1_pm_ok && kk >= s1_tw3 && kk >= s1_tw + {12'd0, s1_doff} &&
                     {kk[13:0], 2'b00} < s1_endb;
    end
end
assign w_pmask = c_pmask;

// S2: the positions relative to the beat, clamped to what the compares of
// S3 need: the first IPv4 header word and the first TCP word in [0, WPB],
// the octets (+2) of the datagram left from the beat's first word in
// [0, 4*WPB+4]. (Exact while word indices stay below 2^14, frames of up to
// 64 KiB, as the 16-bit offsets of the walk.)
localparam RB = $clog2(4 * WPB + 5);   // bits of the clamped octet count
localparam PB = $clog2(WPB + 1);       // bits of a clamped word position
localparam [CNT_BITS:0] RMAX = 4 * WPB[CNT_BITS:0] + 17'd4;
localparam [CNT_BITS:0] PMAX = WPB[CNT_BITS:0];
reg                  s2_valid, s2_first, s2_last, s2_ihl_k, s2_v6;
reg [DATA_WIDTH-1:0] s2_w;
reg [15:0]           s2_top;
reg [PB-1:0]         s2_ipw, s2_tw, s2_aw;
reg [RB-1:0]         s2_rem;
wire [CNT_BITS:0] d_ipw = {1'b0, s1_ipw} - {1'b0, s1_k0};
wire [CNT_BITS:0] d_tw  = {1'b0, s1_tw} - {1'b0, s1_k0};
// IPv6: the address words, the eight before TCP
wire [CNT_BITS:0] d_aw  = {1'b0, s1_tw} - {1'b0, s1_k0} - 17'd8;
wire [CNT_BITS:0] d_rem = {1'b0, s1_endb} - {1'b0, s1_k0[13:0], 2'b00};
always @(posedge clk) begin
    s2_valid <= s1_valid; s2_first <= s1_first; s2_last <= s1_last; s2_ihl_k <= s1_ihl_k; s2_v6 <= s1_v6;
    s2_w <= s1_w; s2_top <= s1_top;
    s2_ipw <= d_ipw[CNT_BITS] ? {PB{1'b0}} : d_ipw > PMAX ? PMAX[PB-1:0] : d_ipw[PB-1:0];
    s2_tw <= d_tw[CNT_BITS] ? {PB{1'b0}} : d_tw > PMAX ? PMAX[PB-1:0] : d_tw[PB-1:0];
    s2_aw <= d_aw[CNT_BITS] ? {PB{1'b0}} : d_aw > PMAX ? PMAX[PB-1:0] : d_aw[PB-1:0];
    s2_rem <= d_rem[CNT_BITS] ? {RB{1'b0}} : d_rem > RMAX ? RMAX[RB-1:0] : d_rem[RB-1:0];
    if (rst)
        s2_valid <= 1'b0;
end

// S3: the 16-bit units of the beat that each sum takes (octets at or past
// the datagram's end count as zero), the leaves of the adder trees.
// Unit 2j, 2j+1 are octets (0,1), (2,3) of word j; TCP unit 2*WPB is a last
// beat's top two lanes (a word that would complete in the next beat).
localparam NU = 2 * WPB + 1;
localparam TL = $clog2(NU);            // adder tree levels
localparam NP = 1 << TL;
localparam TW = 16 + TL;
reg [NP*TW-1:0] ip_leaf, tcp_leaf;
integer u;
reg [15:0] uv;
always @* begin
    ip_leaf = {NP*TW{1'b0}};
    tcp_leaf = {NP*TW{1'b0}};
    for (u = 0; u < NU; u = u + 1) begin
        if (u < 2 * WPB)
            uv = {s2_w[32*(u/2) + 16*(u%2) +: 8], s2_w[32*(u/2) + 16*(u%2) + 8 +: 8]};
        else
            uv = s2_top;
        if (u < 2 * WPB && s2_ihl_k && (u / 2) >= s2_ipw && (u / 2) < s2_tw)
            ip_leaf[u*TW +: TW] = {{TL{1'b0}}, uv};
        // TCP, and IPv6's addresses (the pseudo-header's)
        if (s2_ihl_k && (u < 2 * WPB ? (u / 2) >= s2_tw || (s2_v6 && (u / 2) >= s2_aw) : s2_last)) begin
            if ({{(32-RB){1'b0}}, s2_rem} > 2 * u + 1)
                tcp_leaf[u*TW +: TW] = {{TL{1'b0}}, uv};
            else if ({{(32-RB){1'b0}}, s2_rem} > 2 * u)
                tcp_leaf[u*TW +: TW] = {{TL{1'b0}}, uv[15:8], 8'd0};
        end
    end
end

// The trees: level 0 the leaves, one register per level.
/* verilator lint_off UNUSEDSIGNAL */
reg [(TL+1)*NP*TW-1:0] ip_t, tcp_t;
/* verilator lint_on UNUSEDSIGNAL */
reg [TL:0] t_valid, t_first, t_last;
integer l, i;
always @(posedge clk) begin
    ip_t[0 +: NP*TW] <= ip_leaf;
    tcp_t[0 +: NP*TW] <= tcp_leaf;
    t_valid[0] <= s2_valid; t_first[0] <= s2_first; t_last[0] <= s2_last;
    for (l = 0; l < TL; l = l + 1) begin
        for (i = 0; i < (NP >> (l + 1)); i = i + 1) begin
            ip_t[((l+1)*NP + i)*TW +: TW] <= ip_t[(l*NP + 2*i)*TW +: TW] + ip_t[(l*NP + 2*i + 1)*TW +: TW];
            tcp_t[((l+1)*NP + i)*TW +: TW] <= tcp_t[(l*NP + 2*i)*TW +: TW] + tcp_t[(l*NP + 2*i + 1)*TW +: TW];
        end
        t_valid[l+1] <= t_valid[l]; t_first[l+1] <= t_first[l]; t_last[l+1] <= t_last[l];
    end
    if (rst)
        t_valid <= {(TL+1){1'b0}};
end
wire [TW-1:0] ip_root  = ip_t[TL*NP*TW +: TW];
wire [TW-1:0] tcp_root = tcp_t[TL*NP*TW +: TW];

// The running sums: one end-around fold per beat (17 bits: a fold of the
// 17-bit sum and a TW-bit beat total is below 2^16 + 2^(TW-15)).
reg [16:0] ip_acc, tcp_acc;
wire [TW:0] ip_s  = {{(TW-16){1'b0}}, t_first[TL] ? 17'd0 : ip_acc} + {1'b0, ip_root};
wire [TW:0] tcp_s = {{(TW-16){1'b0}}, t_first[TL] ? 17'd0 : tcp_acc} + {1'b0, tcp_root};
always @(posedge clk) begin
    if (t_valid[TL]) begin
        ip_acc <= {1'b0, ip_s[15:0]} + {{(32-TW){1'b0}}, ip_s[TW:16]};
        tcp_acc <= {1'b0, tcp_s[15:0]} + {{(32-TW){1'b0}}, tcp_s[TW:16]};
    end
    if (rst) begin
        ip_acc <= 17'd0;
        tcp_acc <= 17'd0;
    end
end

// ================================================ per-frame pipeline
// R1 (cycle a+1): the frame's fields at its last beat (taken every cycle;
// r1_end marks a frame's end).
reg        r1_end;
reg        r1_vlan, r1_etype_k, r1_ip, r1_ver4, r1_ihl5, r1_proto6, r1_frag, r1_doff5;
reg        r1_v6, r1_ver6, r1_nh6, r1_ext;
reg [3:0]  r1_ihl, r1_doff;
reg [15:0] r1_tlen, r1_plen6;
reg [31:0] r1_src, r1_dst, r1_seq;
reg [7:0]  r1_flags;
always @(posedge clk) begin
    r1_end <= in_valid && in_last;
    r1_vlan <= c_vlan; r1_etype_k <= c_etype_k; r1_ip <= c_etype == 16'h0800;
    r1_ver4 <= c_ver == 4'd4; r1_ihl5 <= c_ihl >= 4'd5; r1_proto6 <= c_proto == 8'd6;
    r1_frag <= c_frag; r1_doff5 <= c_doff >= 4'd5;
    r1_ihl <= c_ihl; r1_doff <= c_doff; r1_tlen <= c_tlen;
    r1_src <= c_src; r1_dst <= c_dst; r1_seq <= c_seq; r1_flags <= c_flags;
    // IPv6: the extension headers golden/fastpath sends to software
    // (Hop-by-Hop Options 0, Routing 43, Fragment 44, Destination Options 60)
    r1_v6 <= c_v6; r1_ver6 <= c_ver == 4'd6; r1_nh6 <= c_nh == 8'd6; r1_plen6 <= c_plen6;
    r1_ext <= c_nh == 8'd0 || c_nh == 8'd43 || c_nh == 8'd44 || c_nh == 8'd60;
    if (rst)
        r1_end <= 1'b0;
end
// The IPv6 addresses of the frame that ended in the cycle before: the
// registers still hold them in this cycle (R1).
localparam [95:0] MAPPED = {80'd0, 16'hffff};

// popcount of the last beat's keep, 8 lanes at a time
localparam NG = (KEEP + 7) / 8;
reg [NG*4-1:0] g_cnt;
integer g, b;
always @* begin
    g_cnt = {NG*4{1'b0}};
    for (g = 0; g < NG; g = g + 1)
        for (b = 0; b < 8; b = b + 1)
            if (8 * g + b < KEEP)
                g_cnt[4*g +: 4] = g_cnt[4*g +: 4] + {3'd0, s1_keep[8*g + b]};
end

// R2: keep counts per group, pseudo-header partial sums, the checks that
// need no frame length. IPv6: the TCP length is the payload length, the
// pseudo-header sum the payload length and next header 6 (the addresses
// are in the TCP sum).
wire [15:0] r1_ihl_o = {10'd0, r1_ihl, 2'b00};
wire [15:0] r1_doff_o = {10'd0, r1_doff, 2'b00};
wire [15:0] r1_tcp_len = r1_v6 ? r1_plen6 : r1_tlen - r1_ihl_o;
wire        r1_mapped = src6_r[127:32] == MAPPED || dst6_r[127:32] == MAPPED;
reg        r2_end, r2_vlan, r2_nonip, r2_bad_ip, r2_other, r2_bad_tcp, r2_v6, r2_ext;
reg [NG*4-1:0] r2_cnt;
reg [CNT_BITS-3:0] r2_k0;
reg [15:0] r2_tlen;
reg [16:0] r2_ps_a, r2_ps_b;
reg [17:0] r2_ps_c;
reg [31:0] r2_seq;
reg [7:0]  r2_flags;
reg [15:0] r2_plen;
always @(posedge clk) begin
    r2_end <= r1_end;
    r2_vlan <= r1_vlan;
    r2_v6 <= r1_v6;
    r2_nonip <= !r1_etype_k || !(r1_ip || r1_v6);
    r2_ext <= r1_v6 && r1_ver6 && r1_ext;
    r2_bad_ip <= r1_v6 ? !r1_ver6 || r1_mapped || r1_plen6 == 16'd0 : !r1_ver4 || !r1_ihl5 || r1_tlen < r1_ihl_o;
    r2_other <= r1_v6 ? !r1_nh6 : !r1_proto6 || r1_frag;
    r2_bad_tcp <= (r1_v6 ? r1_plen6 < 16'd20 : r1_tlen < r1_ihl_o + 16'd20) || !r1_doff5 || r1_doff_o > r1_tcp_len;
    r2_cnt <= g_cnt;
    r2_k0 <= s1_k0[CNT_BITS-3:0];
    // the IP datagram's length past its start, less 40 for IPv6
    r2_tlen <= r1_v6 ? r1_plen6 : r1_tlen;
    r2_ps_a <= r1_v6 ? 17'd0 : {1'b0, r1_src[31:16]} + {1'b0, r1_src[15:0]};
    r2_ps_b <= r1_v6 ? 17'd0 : {1'b0, r1_dst[31:16]} + {1'b0, r1_dst[15:0]};
    r2_ps_c <= {2'b00, r1_tcp_len} + 18'd6;
    r2_seq <= r1_seq; r2_flags <= r1_flags;
    r2_plen <= r1_tcp_len - r1_doff_o;
    if (rst)
        r2_end <= 1'b0;
end

// R3: the last beat's octet count, pseudo-header sum.
reg        r3_end, r3_vlan, r3_nonip, r3_bad_ip, r3_other, r3_bad_tcp, r3_v6, r3_ext;
reg [7:0]  r3_cnt;
reg [CNT_BITS-3:0] r3_k0;
reg [15:0] r3_tlen;
reg [18:0] r3_ps;
reg [31:0] r3_seq;
reg [7:0]  r3_flags;
reg [15:0] r3_plen;
reg [7:0]  cnt_sum;
always @* begin
    cnt_sum = 8'd0;
    for (g = 0; g < NG; g = g + 1)
        cnt_sum = cnt_sum + {4'd0, r2_cnt[4*g +: 4]};
end
always @(posedge clk) begin
    r3_end <= r2_end; r3_vlan <= r2_vlan; r3_nonip <= r2_nonip; r3_bad_ip <= r2_bad_ip;
    r3_other <= r2_other; r3_bad_tcp <= r2_bad_tcp; r3_v6 <= r2_v6; r3_ext <= r2_ext;
    r3_cnt <= cnt_sum;
    r3_k0 <= r2_k0;
    r3_tlen <= r2_tlen;
    r3_ps <= {2'b00, r2_ps_a} + {2'b00, r2_ps_b} + {1'b0, r2_ps_c};
    r3_seq <= r2_seq; r3_flags <= r2_flags; r3_plen <= r2_plen;
    if (rst)
        r3_end <= 1'b0;
end

// R4: the frame length in octets; the ends of the IP header (IPv4's
// shortest, IPv6's fixed one) and of the IP datagram (17 bits).
reg        r4_end, r4_vlan, r4_nonip, r4_bad_ip, r4_other, r4_bad_tcp, r4_v6, r4_ext;
reg [CNT_BITS-1:0] r4_flen;
reg [CNT_BITS:0]   r4_iphdr, r4_ipend;
reg [18:0] r4_ps;
reg [31:0] r4_seq;
reg [7:0]  r4_flags;
reg [15:0] r4_plen;
always @(posedge clk) begin
    r4_end <= r3_end; r4_vlan <= r3_vlan; r4_nonip <= r3_nonip; r4_bad_ip <= r3_bad_ip;
    r4_other <= r3_other; r4_bad_tcp <= r3_bad_tcp; r4_v6 <= r3_v6; r4_ext <= r3_ext;
    r4_flen <= {r3_k0, 2'b00} + {8'd0, r3_cnt};
    r4_iphdr <= r3_v6 ? (r3_vlan ? 17'd58 : 17'd54) : (r3_vlan ? 17'd38 : 17'd34);
    r4_ipend <= (r3_v6 ? (r3_vlan ? 17'd58 : 17'd54) : (r3_vlan ? 17'd18 : 17'd14)) + {1'b0, r3_tlen};
    r4_ps <= r3_ps;
    r4_seq <= r3_seq; r4_flags <= r3_flags; r4_plen <= r3_plen;
    if (rst)
        r4_end <= 1'b0;
end

// R5: the length checks; then the class as far as it does not depend on
// the checksums (golden/wire's order): pre = 1 decided (cls/drop), else
// IPv4 checksum, then other (NOT_TCP), then bad TCP header, then TCP
// checksum. An IPv6 extension header first (golden/fastpath: before any
// test but the frame's length).
reg        r5_end;
reg        r5_short, r5_shorttag, r5_nonip, r5_badip, r5_other, r5_bad_tcp, r5_v6, r5_ext;
reg [18:0] r5_ps;
reg [31:0] r5_seq;
reg [7:0]  r5_flags;
reg [15:0] r5_plen;
always @(posedge clk) begin
    r5_end <= r4_end;
    r5_short <= r4_flen < 16'd14;
    r5_shorttag <= r4_vlan && r4_flen < 16'd18;
    r5_nonip <= r4_nonip;
    r5_badip <= {1'b0, r4_flen} < r4_iphdr || r4_bad_ip || {1'b0, r4_flen} < r4_ipend;
    r5_other <= r4_other; r5_bad_tcp <= r4_bad_tcp; r5_v6 <= r4_v6;
    r5_ext <= r4_ext && {1'b0, r4_flen} >= r4_iphdr;
    r5_ps <= r4_ps;
    r5_seq <= r4_seq; r5_flags <= r4_flags; r5_plen <= r4_plen;
    if (rst)
        r5_end <= 1'b0;
end

reg        r6_end, r6_pre, r6_other, r6_bad_tcp, r6_v6;
reg [1:0]  r6_cls, r6_drop;   // CLASS_*, DROP_* (mpa_rx_fields.vh)
reg [18:0] r6_ps;
reg [31:0] r6_seq;
reg [7:0]  r6_flags;
reg [15:0] r6_plen;
always @(posedge clk) begin
    r6_end <= r5_end;
    r6_pre <= 1'b1;
    r6_cls <= CLASS_DROP; r6_drop <= DROP_MALFORMED;
    if (r5_short) begin
        r6_cls <= CLASS_DROP; r6_drop <= DROP_MALFORMED;
    end else if (r5_ext) begin
        r6_cls <= CLASS_NOT_TCP; r6_drop <= NOT_TCP_IPV6_EXT;
    end else if (r5_nonip) begin
        // a second tag, ARP, IPv6 ... (a frame too short for its tag is malformed)
        if (!r5_shorttag) begin
            r6_cls <= CLASS_NOT_TCP; r6_drop <= NOT_TCP_OTHER;
        end
    end else if (!r5_badip)
        r6_pre <= 1'b0;
    r6_other <= r5_other; r6_bad_tcp <= r5_bad_tcp; r6_v6 <= r5_v6;
    r6_ps <= r5_ps;
    r6_seq <= r5_seq; r6_flags <= r5_flags; r6_plen <= r5_plen;
    if (rst)
        r6_end <= 1'b0;
end

// The frame record waits in a delay line for its checksums: TL + 1 cycles
// from R6 (cycle a+6) to the class stage (cycle a+TL+7); the
// pseudo-header sum is tapped after TL - 2 of them (cycle a+TL+4, with the
// frame's running sums).
localparam Q_V6 = 0;
localparam Q_PLEN = Q_V6 + 1;
localparam Q_FLAGS = Q_PLEN + 16;
localparam Q_SEQ = Q_FLAGS + 8;
localparam Q_PS = Q_SEQ + 32;
localparam Q_BAD_TCP = Q_PS + 19;
localparam Q_OTHER = Q_BAD_TCP + 1;
localparam Q_DROP = Q_OTHER + 1;
localparam Q_CLS = Q_DROP + 2;
localparam Q_PRE = Q_CLS + 2;
localparam Q_END = Q_PRE + 1;
localparam RW = Q_END + 1;
wire [RW-1:0] q_ps, q_cls;
mpa_rx_delay #(.WIDTH(RW), .DEPTH(TL - 2)) cls_line0 (
    .clk(clk), .rst(rst),
    .in_data({r6_end, r6_pre, r6_cls, r6_drop, r6_other, r6_bad_tcp, r6_ps, r6_seq, r6_flags, r6_plen, r6_v6}),
    .out_data(q_ps)
);
mpa_rx_delay #(.WIDTH(RW), .DEPTH(3)) cls_line1 (
    .clk(clk), .rst(rst), .in_data(q_ps), .out_data(q_cls)
);
wire [18:0] ps_now = q_ps[Q_PS +: 19];   // cycle a+TL+4

// X1 (cycle a+TL+4, the cycle after the last beat's running sums): TCP sum
// plus pseudo-header. X2, X3: folds and the compares.
reg [19:0] x1_tcp;
reg [16:0] x1_ip;
reg [16:0] x2_tcp, x2_ip;
reg        x3_tcp_bad, x3_ip_bad;
wire [15:0] x3_tcp_f = x2_tcp[15:0] + {15'd0, x2_tcp[16]};   // x2 < 2^16 + 16: no carry
wire [15:0] x3_ip_f = x2_ip[15:0] + {15'd0, x2_ip[16]};
always @(posedge clk) begin
    x1_tcp <= {3'd0, tcp_acc} + {1'b0, ps_now};
    x1_ip <= ip_acc;
    x2_tcp <= {1'b0, x1_tcp[15:0]} + {13'd0, x1_tcp[19:16]};
    x2_ip <= {1'b0, x1_ip[15:0]} + {16'd0, x1_ip[16]};
    x3_tcp_bad <= x3_tcp_f != 16'hffff;
    x3_ip_bad <= x3_ip_f != 16'hffff;
end

// class (cycle a+TL+7); f_valid in cycle a+TL+8
always @(posedge clk) begin
    f_valid <= q_cls[Q_END];
    f_seq <= q_cls[Q_SEQ +: 32];
    f_flags <= q_cls[Q_FLAGS +: 8];
    f_plen <= q_cls[Q_PLEN +: 16];
    if (q_cls[Q_PRE]) begin
        f_class <= q_cls[Q_CLS +: 2];
        f_drop <= q_cls[Q_DROP +: 2];
    end else if (x3_ip_bad && !q_cls[Q_V6]) begin
        f_class <= CLASS_DROP; f_drop <= DROP_IP_CSUM;
    end else if (q_cls[Q_OTHER]) begin
        f_class <= CLASS_NOT_TCP; f_drop <= NOT_TCP_OTHER;
    end else if (q_cls[Q_BAD_TCP]) begin
        f_class <= CLASS_DROP; f_drop <= DROP_MALFORMED;
    end else if (x3_tcp_bad) begin
        f_class <= CLASS_DROP; f_drop <= DROP_TCP_CSUM;
    end else begin
        f_class <= CLASS_OK; f_drop <= DROP_FCS;
    end
    if (rst) begin
        f_valid <= 1'b0; f_class <= 2'd0; f_drop <= 2'd0; f_seq <= 32'd0; f_flags <= 8'd0; f_plen <= 16'd0;
    end
end

`ifdef FORMAL
// ------------------------------------------------------------------ formal
// Proven by `make formal` (docs/robustness.md, "Formal proofs"). The
// environment: any beats (in_valid one a cycle, never stalled), any
// frames; the input contract of docs/design.md section 4 on in_keep (all
// ones but on a last beat, there contiguous from lane 0 and not empty);
// frames shorter than 64 KiB (this module's stated limit).
// Properties (always):
//   - f_valid exactly L_PARSE = 8 + TL cycles after each frame's last
//     beat, never else (so one per frame, none after a reset without a
//     frame): a ghost shift register of the last beats against f_valid;
//   - tuple_done (the 4-tuple lookup of mpa_rx_ctx and the tuple beat of
//     mpa_rx_feed) only in a beat, at most once per frame (so never after
//     the frame's last beat, nor its f_valid);
//   - the class line: a frame's class at f_valid is OK only if R6 let it
//     through (r6_take: not decided, not NOT_TCP, TCP header lengths
//     good), and f_seq, f_plen, f_flags are R6's.
// With F_PARSE_CLASS, for a frame R6 lets through (so for every frame of
// class OK at f_valid), against a model of its header
// (rtl/formal/mpa_rx_fhdr.v) read from the octets captured from the
// accepted beats at their frame offsets:
//   - the header is an IPv4 datagram (version 4, IHL >= 5, protocol 6,
//     not a fragment) or IPv6 (version 6, Next Header 6) behind an
//     optional 802.1Q tag, the TCP data offset >= 5 and within the
//     segment, and the frame holds the whole IP datagram;
//   - R6's sequence number, flags and payload length (f_seq, f_flags,
//     f_plen at f_valid) are the header's; seq_now at the last beat is
//     the sequence number;
//   - the frame had exactly one tuple_done, and in that beat src_ip_now,
//     dst_ip_now (IPv4 as ::ffff:a.b.c.d), v6_now, src_port_now and
//     dst_port_now were the header's;
//   - every word w_pmask marked in the frame (word k: octets [4k-2,
//     4k+1]) starts at or after the TCP payload's first octet and before
//     the IP datagram's end (so inside the frame too), and the marked
//     words are one contiguous run.
// The checksum values are free (x3_ip_bad, x3_tcp_bad cut in the proofs):
// what is proven holds whatever the adder trees compute; their values
// are co-simulation's.
localparam F_L = 8 + TL;               // L_PARSE
reg f_past_valid = 1'b0;
always @(posedge clk)
    f_past_valid <= 1'b1;
always @*
    if (!f_past_valid)
        assume (rst);

// the input contract on in_keep, frames below 64 KiB
reg [15:0] f_nb;                       // beats of the open frame
always @* begin
    if (in_valid) begin
        if (!in_last)
            assume (in_keep == {KEEP{1'b1}});
        else
            assume (in_keep[0] && (in_keep & (in_keep + 1'b1)) == {KEEP{1'b0}});
        assume (f_nb < 16'd65535 / KEEP);
    end
end

// the model: last beats of the last F_L cycles (the latest in bit 0), the
// open frame's beats and whether its tuple came
reg [F_L-1:0] f_ends;
reg           f_tup;
always @(posedge clk) begin
    f_ends <= {f_ends[F_L-2:0], in_valid && in_last};
    if (in_valid) begin
        f_nb <= in_last ? 16'd0 : f_nb + 16'd1;
        if (tuple_done)
            f_tup <= 1'b1;
        if (in_last)
            f_tup <= 1'b0;
    end
    if (rst) begin
        f_ends <= {F_L{1'b0}};
        f_nb <= 16'd0;
        f_tup <= 1'b0;
    end
end

// the word where the 4-tuple completes (its ports), from the registers
// once the tag and the header length are known
wire [15:0] f_tpos = v6_r ? (vlan_r ? 16'd15 : 16'd14) : {11'd0, vlan_r} + {12'd0, ihl_r} + 16'd4;
integer f_j;
always @* begin
    if (f_past_valid && !rst) begin
        assert (f_valid == f_ends[F_L-1]);
        assert (!tuple_done || in_valid);
        assert (!(tuple_done && f_tup));
        // induction invariants: the stages' frame ends, the beat number
        assert (r1_end == f_ends[0]);
        assert (r2_end == f_ends[1]);
        assert (r3_end == f_ends[2]);
        assert (r4_end == f_ends[3]);
        assert (r5_end == f_ends[4]);
        assert (r6_end == f_ends[5]);
        assert (q_ps[Q_END] == f_ends[5 + TL - 2]);
        assert (q_cls[Q_END] == f_ends[F_L-2]);
        assert (in_frame == (f_nb != 16'd0));
        assert (bn == (f_nb < NB ? {{(NB-1){1'b0}}, 1'b1} << f_nb : {NB{1'b0}}));
        assert (beat_base == f_nb * WPB[15:0]);
        for (f_j = 0; f_j < WPB; f_j = f_j + 1)
            assert (kq[f_j] == beat_base + f_j[15:0]);
        // the tuple came iff its word was in a beat of the frame
        if (f_nb > IB)
            assert (f_tup == (f_tpos < f_nb * WPB[15:0]));
        else
            assert (!f_tup);
    end
end

// the class line: R6's take / NOT_TCP / bad TCP header bits and the
// record's fields of the last TL + 2 cycles (the latest in entry 0), each
// with the frame end it came with (f_ends[6 + j]); the frame's class at
// f_valid is OK only if R6 let it through (f_take)
localparam F_CW = 1 + 1 + 1 + 32 + 16 + 8;
reg [F_CW*(TL+2)-1:0] f_cl;
always @(posedge clk)
    f_cl <= {f_cl[F_CW*(TL+1)-1:0], r6_pre, r6_other, r6_bad_tcp, r6_seq, r6_plen, r6_flags};
function [F_CW-1:0] f_qrec(input [RW-1:0] q);
    f_qrec = {q[Q_PRE], q[Q_OTHER], q[Q_BAD_TCP], q[Q_SEQ +: 32], q[Q_PLEN +: 16], q[Q_FLAGS +: 8]};
endfunction
wire [F_CW-1:0] f_cl_out = f_cl[F_CW*(TL+1) +: F_CW];
wire            f_take = !f_cl_out[F_CW-1] && !f_cl_out[F_CW-2] && !f_cl_out[F_CW-3];
always @* begin
    if (f_past_valid && !rst) begin
        if (f_valid) begin
            assert (f_class != CLASS_OK || f_take);
            assert (f_seq == f_cl_out[24 +: 32]);
            assert (f_plen == f_cl_out[8 +: 16]);
            assert (f_flags == f_cl_out[0 +: 8]);
        end
        // invariants: the class line's records; a decided class is never OK
        assert (!r6_pre || r6_cls != CLASS_OK);
        assert (!q_ps[Q_PRE] || q_ps[Q_CLS +: 2] != CLASS_OK);
        assert (!q_cls[Q_PRE] || q_cls[Q_CLS +: 2] != CLASS_OK);
        if (f_ends[6 + TL - 3])
            assert (f_qrec(q_ps) == f_cl[F_CW*(TL-3) +: F_CW]);
        if (f_ends[6 + TL])
            assert (f_qrec(q_cls) == f_cl[F_CW*TL +: F_CW]);
    end
end

always @* begin
    if (f_past_valid && !rst) begin
        cover (in_valid && in_last && f_nb == 16'd0 && f_ends[0]);   // one-beat frames back to back
        cover (in_valid && !in_frame && f_ends[0]);                 // a frame right after another
`ifndef F_PARSE_COVER_V6
        // (the 128-bit class covers stop at 12 cycles, before any f_valid)
        cover (f_valid && f_ends[0]);                               // a frame's end in the cycle of another's f_valid
`endif
    end
end

`ifdef F_PARSE_CLASS
localparam F_NO = 98;                  // header octets modelled (mpa_rx_fhdr)
reg  [8*F_NO-1:0] f_oct;               // captured up to the last cycle's beat
reg  [8*F_NO-1:0] f_now;               // and this beat's
integer f_i;
always @* begin
    f_now = f_oct;
    for (f_i = 0; f_i < F_NO; f_i = f_i + 1)
        if (in_valid && f_nb == f_i / KEEP)
            f_now[8*f_i +: 8] = in_data[8*(f_i % KEEP) +: 8];
end
always @(posedge clk)
    f_oct <= f_now;

// the header with this beat's octets (at the tuple and last beats), and
// as captured up to the last cycle's beat (for its payload mask)
wire         gn_tag, gn_v6, gn_ok, gp_v6;
wire [31:0]  gn_src4, gn_dst4, gn_seq;
wire [127:0] gn_src6, gn_dst6;
wire [15:0]  gn_sport, gn_dport, gn_tcplen;
wire [3:0]   gn_doff;
wire [7:0]   gn_flags;
wire [16:0]  gn_ipend, gp_ps, gp_ipend;
mpa_rx_fhdr #(.NO(F_NO)) f_hn (
    .oct(f_now), .tag(gn_tag), .etype(), .v4(), .v6(gn_v6), .ver(), .ihl(), .tlen(), .frag(), .proto(),
    .src4(gn_src4), .dst4(gn_dst4), .plen6(), .nh(), .src6(gn_src6), .dst6(gn_dst6),
    .sport(gn_sport), .dport(gn_dport), .seq(gn_seq), .doff(gn_doff), .flags(gn_flags),
    .e(), .t(), .ps(), .ipend(gn_ipend), .tcplen(gn_tcplen), .hdr_ok(gn_ok)
);
mpa_rx_fhdr #(.NO(F_NO)) f_hp (
    .oct(f_oct), .tag(), .etype(), .v4(), .v6(gp_v6), .ver(), .ihl(), .tlen(), .frag(), .proto(),
    .src4(), .dst4(), .plen6(), .nh(), .src6(), .dst6(),
    .sport(), .dport(), .seq(), .doff(), .flags(),
    .e(), .t(), .ps(gp_ps), .ipend(gp_ipend), .tcplen(), .hdr_ok()
);

// the frame's length at its last beat
reg [16:0] f_len;
integer f_b;
always @* begin
    f_len = {1'b0, f_nb} * KEEP;
    for (f_b = 0; f_b < KEEP; f_b = f_b + 1)
        f_len = f_len + {16'd0, in_keep[f_b]};
end

// the tuple beat against the header
wire f_tmatch = v6_now == gn_v6 &&
                src_ip_now == (gn_v6 ? gn_src6 : {80'd0, 16'hffff, gn_src4}) &&
                dst_ip_now == (gn_v6 ? gn_dst6 : {80'd0, 16'hffff, gn_dst4}) &&
                src_port_now == gn_sport && dst_port_now == gn_dport;
reg f_tbad;                            // the open frame's tuple beat was wrong
always @(posedge clk) begin
    if (in_valid) begin
        if (tuple_done && !f_tmatch)
            f_tbad <= 1'b1;
        if (in_last)
            f_tbad <= 1'b0;
    end
    if (rst)
        f_tbad <= 1'b0;
end

// the payload mask of the last cycle's beat: word k = f_pk0 + j
reg        f_pv, f_plast;
reg [15:0] f_pk0;
reg        f_pon, f_pgap, f_pbad;      // the open frame: a word marked, a gap after one, a bad word
reg        f_pon_n, f_pgap_n, f_pbad_n;
reg [17:0] f_wo;                       // word k's first octet, 4k - 2
integer    f_k;
always @(posedge clk) begin
    f_pv <= in_valid;
    f_plast <= in_valid && in_last;
    f_pk0 <= f_nb * WPB[15:0];
    if (rst)
        f_pv <= 1'b0;
end
always @* begin
    f_pon_n = f_pon; f_pgap_n = f_pgap; f_pbad_n = f_pbad;
    if (f_pv) begin
        for (f_k = 0; f_k < WPB; f_k = f_k + 1) begin
            f_wo = {f_pk0 + f_k[15:0], 2'b00} - 18'd2;
            if (w_pmask[f_k]) begin
                if (f_pgap_n || f_wo < {1'b0, gp_ps} || f_wo >= {1'b0, gp_ipend})
                    f_pbad_n = 1'b1;
                f_pon_n = 1'b1;
            end else if (f_pon_n)
                f_pgap_n = 1'b1;
        end
    end
end
always @(posedge clk) begin
    f_pon <= f_pon_n; f_pgap <= f_pgap_n; f_pbad <= f_pbad_n;
    if (f_plast || rst) begin
        f_pon <= 1'b0; f_pgap <= 1'b0; f_pbad <= 1'b0;
    end
end

// per frame, from its last beat to its f_valid: the model's verdict on the
// header and lengths, its fields, the tuple's checks; the payload mask's
// check from the cycle after the last beat
localparam F_RW = 1 + 1 + 1 + 1 + 1 + 1 + 32 + 16 + 8 + 1;
wire [F_RW-1:0] f_rec = {gn_ok && {1'b0, f_len} >= {1'b0, gn_ipend}, gn_tag, gn_v6,
                         f_tup || tuple_done, f_tbad || (tuple_done && !f_tmatch),
                         seq_now == gn_seq, gn_seq, gn_tcplen - {10'd0, gn_doff, 2'b00}, gn_flags,
                         1'b0};
reg [F_RW*6-1:0] f_recs;
reg [4:0]        f_pbads;
always @(posedge clk) begin
    f_recs <= {f_recs[F_RW*5-1:0], f_rec};
    f_pbads <= {f_pbads[3:0], f_plast && f_pbad_n};
end
// the frame whose last beat came six cycles ago (at R6 now)
wire [F_RW-1:0] f_out = f_recs[F_RW*5 +: F_RW];
wire        fo_ok = f_out[F_RW-1], fo_tag = f_out[F_RW-2], fo_v6 = f_out[F_RW-3];
wire        fo_tseen = f_out[F_RW-4], fo_tbad = f_out[F_RW-5], fo_seqnow = f_out[F_RW-6];
wire [31:0] fo_seq = f_out[F_RW-7 -: 32];
wire [15:0] fo_plen = f_out[F_RW-39 -: 16];
wire [7:0]  fo_flags = f_out[F_RW-55 -: 8];
// R6 may class the frame OK (r6_take: not decided, not NOT_TCP, TCP
// header good; the checksums decide the rest); the class line carries
// this to f_valid (proven in every proof above: f_take)
wire r6_take = r6_end && !r6_pre && !r6_other && !r6_bad_tcp;
always @* begin
    if (f_past_valid && !rst && r6_take) begin
        assert (fo_ok);
        assert (fo_tseen && !fo_tbad);
        assert (fo_seqnow);
        assert (!f_pbads[4]);
        assert (r6_seq == fo_seq);
        assert (r6_plen == fo_plen);
        assert (r6_flags == fo_flags);
    end
    // no payload word without a beat
    if (f_past_valid && !rst)
        assert (f_pv || w_pmask == {WPB{1'b0}});
end

always @* begin
    if (f_past_valid && !rst) begin
        cover (r6_take && !fo_v6);                                        // an IPv4/TCP frame taken
`ifdef F_PARSE_COVER_V6
        cover (r6_take && fo_v6);                                         // an IPv6/TCP frame taken (17 cycles at 64 bits)
`endif
        cover (r6_take && fo_tag);                                        // a tagged one
        cover (r6_end && r6_pre && r6_cls == CLASS_NOT_TCP && r6_drop == NOT_TCP_IPV6_EXT);   // an IPv6 extension header
        cover (r6_end && r6_pre && r6_cls == CLASS_DROP);                 // a dropped frame
        cover (f_plast && w_pmask != {WPB{1'b0}});                       // a last beat with payload words
    end
end
`endif
`endif

endmodule

`resetall
