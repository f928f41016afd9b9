// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_parse: Ethernet II (one optional 802.1Q tag) / IPv4 / TCP header
 * parser and checksum checker for the mpa_rx ingress.
 *
 * It watches the accepted beats of a frame (in_valid is the handshake) and
 * never stalls. Every header from the IPv4 header on starts at frame offset
 * 2 (mod 4), so it looks at the frame as 32-bit words W_k = frame octets
 * [4k-2, 4k+1]: per beat the WPB = DATA_WIDTH/32 words that complete in it,
 * the "word view" w_data = {in_data[8*(KEEP-2)-1:0], previous beat's two top
 * lanes}, word j in w_data[32j+31:32j] with its first wire octet in the low
 * byte. w_pmask marks the words that are TCP payload (up to the IPv4 total
 * length; the last may be partial).
 *
 * Per frame it checks, in the order golden/wire does: Ethernet length and
 * EtherType, IPv4 version and lengths, the IPv4 header checksum, protocol,
 * fragments, TCP header length, the TCP checksum (pseudo-header included,
 * Ethernet padding excluded). The class is OK, NOT_TCP (not IPv4/TCP or a
 * fragment: software's) or DROP (malformed or a checksum wrong).
 *
 * Latency: w_* are combinational from the input beat (0 cycles). The header
 * fields (*_now) are combinational too, from the beat that holds them on
 * (registered for later beats). f_valid pulses one cycle after the frame's
 * last beat with the frame's class and fields.
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

    // word view of the current beat
    output wire [DATA_WIDTH-1:0]    w_data,
    output wire [DATA_WIDTH/32-1:0] w_pmask,

    // header fields as far as seen (combinational bypass for the current beat)
    output wire [31:0]              src_ip_now,
    output wire [31:0]              dst_ip_now,
    output wire [15:0]              src_port_now,
    output wire [15:0]              dst_port_now,
    output wire [31:0]              seq_now,
    output wire                     tuple_done, // the 4-tuple completes in this beat

    // per frame, one cycle after its last beat
    output reg                      f_valid,
    output reg  [1:0]               f_class,    // 0 OK, 1 NOT_TCP, 2 DROP
    output reg  [1:0]               f_drop,     // DROP: 1 malformed, 2 IPv4 checksum, 3 TCP checksum
    output reg  [31:0]              f_seq,
    output reg  [7:0]               f_flags,
    output reg  [15:0]              f_plen      // TCP payload octets
);

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
reg [15:0] sport_r, dport_r;
reg [31:0] seq_r;
reg [3:0]  doff_r;   reg doff_k;
reg [7:0]  flags_r;
reg [31:0] ipsum_r, tcpsum_r;  // ones' complement sums, folded at the end

// ------------------------------------------------ per-word combinational walk
// Fields can complete in the beat that uses them (a wide bus holds several
// headers in one beat), so each word slot sees the values decided by the
// slots before it.
integer j;
reg [CNT_BITS-1:0] k;
reg [31:0] wd;
reg        c_vlan, c_vlan_k, c_etype_k, c_ihl_k, c_doff_k;
reg [15:0] c_etype;
reg [3:0]  c_ihl, c_ver, c_doff;
reg [15:0] c_tlen;
reg [7:0]  c_proto, c_flags;
reg        c_frag;
reg [31:0] c_src, c_dst, c_seq;
reg [15:0] c_sport, c_dport;
reg        c_tuple_done;
reg [CNT_BITS-1:0] ipw, tw, pw, endb;  // word of IPv4 start, TCP start, payload start; IPv4 end octet+2
reg [31:0] c_ipsum, c_tcpsum;
reg [WPB-1:0] c_pmask;
reg [15:0] u0, u1;

always @* begin
    c_vlan = vlan_r; c_vlan_k = vlan_k; c_etype = etype_r; c_etype_k = etype_k;
    c_ihl = ihl_r; c_ihl_k = ihl_k; c_ver = ver_r; c_tlen = tlen_r; c_proto = proto_r; c_frag = frag_r;
    c_src = src_r; c_dst = dst_r; c_sport = sport_r; c_dport = dport_r; c_seq = seq_r;
    c_doff = doff_r; c_doff_k = doff_k; c_flags = flags_r;
    c_ipsum = in_frame ? ipsum_r : 32'd0;
    c_tcpsum = in_frame ? tcpsum_r : 32'd0;
    c_tuple_done = 1'b0;
    c_pmask = {WPB{1'b0}};
    if (!in_frame) begin
        c_vlan_k = 1'b0; c_etype_k = 1'b0; c_ihl_k = 1'b0; c_doff_k = 1'b0;
    end
    for (j = 0; j < WPB; j = j + 1) begin
        k = beat_base + j[CNT_BITS-1:0];
        wd = w_data[32*j +: 32];
        ipw = c_vlan ? 16'd5 : 16'd4;
        tw = ipw + {12'd0, c_ihl};
        pw = tw + {12'd0, c_doff};
        // octet offset (+2) just past the IPv4 datagram
        endb = {ipw[13:0], 2'b00} + c_tlen;
        // Ethernet: W_3 octets 2,3 = EtherType; with a tag W_4 octets 2,3.
        if (k == 16'd3) begin
            c_etype = {wd[23:16], wd[31:24]};
            c_vlan = c_etype == 16'h8100;
            c_vlan_k = 1'b1;
            c_etype_k = !c_vlan;
        end
        if (c_vlan && k == 16'd4) begin
            c_etype = {wd[23:16], wd[31:24]};
            c_etype_k = 1'b1;
        end
        ipw = c_vlan ? 16'd5 : 16'd4;
        // IPv4 header
        if (c_etype_k && k == ipw) begin
            c_ver = wd[7:4];
            c_ihl = wd[3:0];
            c_ihl_k = 1'b1;
            c_tlen = {wd[23:16], wd[31:24]};
        end
        if (c_etype_k && k == ipw + 16'd1)
            c_frag = wd[21] || wd[20:16] != 5'd0 || wd[31:24] != 8'd0;
        if (c_etype_k && k == ipw + 16'd2)
            c_proto = wd[15:8];
        if (c_etype_k && k == ipw + 16'd3)
            c_src = {wd[7:0], wd[15:8], wd[23:16], wd[31:24]};
        if (c_etype_k && k == ipw + 16'd4)
            c_dst = {wd[7:0], wd[15:8], wd[23:16], wd[31:24]};
        tw = ipw + {12'd0, c_ihl};
        endb = {ipw[13:0], 2'b00} + c_tlen;
        // TCP header
        if (c_ihl_k && k == tw) begin
            c_sport = {wd[7:0], wd[15:8]};
            c_dport = {wd[23:16], wd[31:24]};
            c_tuple_done = 1'b1;
        end
        if (c_ihl_k && k == tw + 16'd1)
            c_seq = {wd[7:0], wd[15:8], wd[23:16], wd[31:24]};
        if (c_ihl_k && k == tw + 16'd3) begin
            c_doff = wd[7:4];
            c_doff_k = 1'b1;
            c_flags = wd[15:8];
        end
        pw = tw + {12'd0, c_doff};
        // Checksums: 16-bit units at octets (0,1) and (2,3) of the word;
        // octets at or past the datagram's end count as zero.
        u0 = {wd[7:0], wd[15:8]};
        u1 = {wd[23:16], wd[31:24]};
        if (c_ihl_k && k >= ipw && k < tw)
            c_ipsum = c_ipsum + {16'd0, u0} + {16'd0, u1};
        if (c_ihl_k && k >= tw) begin
            // octet (+2) offsets of the word: 4k .. 4k+3
            if ({k[13:0], 2'b00} + 16'd1 < endb)
                c_tcpsum = c_tcpsum + {16'd0, u0};
            else if ({k[13:0], 2'b00} < endb)
                c_tcpsum = c_tcpsum + {16'd0, u0[15:8], 8'd0};
            if ({k[13:0], 2'b00} + 16'd3 < endb)
                c_tcpsum = c_tcpsum + {16'd0, u1};
            else if ({k[13:0], 2'b00} + 16'd2 < endb)
                c_tcpsum = c_tcpsum + {16'd0, u1[15:8], 8'd0};
        end
        // payload words of IPv4/TCP datagrams only (not fragments): other
        // frames have no payload for the walker
        if (c_doff_k && k >= pw && {k[13:0], 2'b00} < endb && c_etype == 16'h0800 && c_ver == 4'd4 &&
            c_proto == 8'd6 && !c_frag)
            c_pmask[j] = 1'b1;
        // fold carries so the sums never overflow
        c_ipsum = {16'd0, c_ipsum[15:0]} + {16'd0, c_ipsum[31:16]};
        c_tcpsum = {16'd0, c_tcpsum[15:0]} + {16'd0, c_tcpsum[31:16]};
    end
    // The frame's last two octets may sit in the top lanes of its last beat
    // (a word that would complete in the next beat): they still count.
    if (in_last && c_ihl_k) begin
        k = beat_base + WPB[CNT_BITS-1:0];
        u0 = {in_data[DATA_WIDTH-16 +: 8], in_data[DATA_WIDTH-8 +: 8]};
        if ({k[13:0], 2'b00} + 16'd1 < endb)
            c_tcpsum = c_tcpsum + {16'd0, u0};
        else if ({k[13:0], 2'b00} < endb)
            c_tcpsum = c_tcpsum + {16'd0, u0[15:8], 8'd0};
        c_tcpsum = {16'd0, c_tcpsum[15:0]} + {16'd0, c_tcpsum[31:16]};
    end
end

assign w_pmask = c_pmask;
assign src_ip_now = c_src;
assign dst_ip_now = c_dst;
assign src_port_now = c_sport;
assign dst_port_now = c_dport;
assign seq_now = c_seq;
assign tuple_done = in_valid && c_tuple_done;

// ------------------------------------------------ end of frame classification
integer n;
reg [CNT_BITS-1:0] keep_count;
always @* begin
    keep_count = {CNT_BITS{1'b0}};
    for (n = 0; n < KEEP; n = n + 1)
        keep_count = keep_count + {{(CNT_BITS-1){1'b0}}, in_keep[n]};
end

// frame length in octets once the last beat is in
wire [CNT_BITS-1:0] flen = {beat_base[CNT_BITS-3:0], 2'b00} + keep_count;
wire [CNT_BITS-1:0] ipoff = c_vlan ? 16'd18 : 16'd14;           // octet offset of the IPv4 header
wire [CNT_BITS-1:0] ihl_o = {10'd0, c_ihl, 2'b00};
wire [CNT_BITS-1:0] doff_o = {10'd0, c_doff, 2'b00};
wire [31:0] pseudo = {16'd0, c_src[31:16]} + {16'd0, c_src[15:0]} + {16'd0, c_dst[31:16]} +
                     {16'd0, c_dst[15:0]} + 32'd6 + {16'd0, c_tlen - ihl_o};
wire [31:0] tcp_total0 = c_tcpsum + pseudo;
wire [31:0] tcp_total1 = {16'd0, tcp_total0[15:0]} + {16'd0, tcp_total0[31:16]};
wire [15:0] tcp_fold = tcp_total1[15:0] + tcp_total1[31:16];
wire [31:0] ip_total1 = {16'd0, c_ipsum[15:0]} + {16'd0, c_ipsum[31:16]};
wire [15:0] ip_fold = ip_total1[15:0] + ip_total1[31:16];

reg [1:0] cls;
reg [1:0] drop;
always @* begin
    cls = 2'd0;
    drop = 2'd0;
    if (flen < 16'd14) begin
        cls = 2'd2; drop = 2'd1;
    end else if (!c_etype_k || c_etype != 16'h0800) begin
        // a second tag, ARP, IPv6 ... (a frame too short for its tag is malformed)
        if (c_vlan && flen < 16'd18) begin
            cls = 2'd2; drop = 2'd1;
        end else
            cls = 2'd1;
    end else if (flen < ipoff + 16'd20 || c_ver != 4'd4 || c_ihl < 4'd5 ||
                 c_tlen < ihl_o || {1'b0, flen} < {1'b0, ipoff} + {1'b0, c_tlen}) begin
        cls = 2'd2; drop = 2'd1;
    end else if (ip_fold != 16'hffff) begin
        cls = 2'd2; drop = 2'd2;
    end else if (c_proto != 8'd6) begin
        cls = 2'd1;
    end else if (c_frag) begin
        cls = 2'd1;
    end else if (c_tlen < ihl_o + 16'd20 || c_doff < 4'd5 || doff_o > c_tlen - ihl_o) begin
        cls = 2'd2; drop = 2'd1;
    end else if (tcp_fold != 16'hffff) begin
        cls = 2'd2; drop = 2'd3;
    end
end

always @(posedge clk) begin
    f_valid <= 1'b0;
    if (in_valid) begin
        prev_top <= in_data[DATA_WIDTH-1 -: 16];
        vlan_r <= c_vlan; vlan_k <= c_vlan_k; etype_r <= c_etype; etype_k <= c_etype_k;
        ihl_r <= c_ihl; ihl_k <= c_ihl_k; ver_r <= c_ver; tlen_r <= c_tlen; proto_r <= c_proto;
        frag_r <= c_frag; src_r <= c_src; dst_r <= c_dst; sport_r <= c_sport; dport_r <= c_dport;
        seq_r <= c_seq; doff_r <= c_doff; doff_k <= c_doff_k; flags_r <= c_flags;
        ipsum_r <= c_ipsum; tcpsum_r <= c_tcpsum;
        in_frame <= !in_last;
        beat_base <= in_last ? {CNT_BITS{1'b0}} : beat_base + WPB[CNT_BITS-1:0];
        if (in_last) begin
            f_valid <= 1'b1;
            f_class <= cls;
            f_drop <= drop;
            f_seq <= c_seq;
            f_flags <= c_flags;
            f_plen <= c_tlen - ihl_o - doff_o;
        end
    end
    if (rst) begin
        in_frame <= 1'b0;
        beat_base <= {CNT_BITS{1'b0}};
        prev_top <= 16'd0;
        vlan_r <= 1'b0; vlan_k <= 1'b0; etype_r <= 16'd0; etype_k <= 1'b0;
        ihl_r <= 4'd0; ihl_k <= 1'b0; ver_r <= 4'd0; tlen_r <= 16'd0; proto_r <= 8'd0; frag_r <= 1'b0;
        src_r <= 32'd0; dst_r <= 32'd0; sport_r <= 16'd0; dport_r <= 16'd0; seq_r <= 32'd0;
        doff_r <= 4'd0; doff_k <= 1'b0; flags_r <= 8'd0; ipsum_r <= 32'd0; tcpsum_r <= 32'd0;
        f_valid <= 1'b0; f_class <= 2'd0; f_drop <= 2'd0; f_seq <= 32'd0; f_flags <= 8'd0; f_plen <= 16'd0;
    end
end

endmodule

`resetall
