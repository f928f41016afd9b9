// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_fhdr: a formal model of an Ethernet / IPv4 or IPv6 / TCP header,
 * read from a frame's first NO octets (octet i in oct[8i+7:8i], as the
 * octets came on the wire), for the properties of mpa_rx_parse (read only
 * by `make formal`). Combinational; written from the protocol headers'
 * layouts (IEEE 802.3 / 802.1Q, RFC 791, RFC 8200, RFC 9293) without any
 * of mpa_rx_parse's word view or field selects.
 *
 * e: the IP header's first octet, 14 or 18 behind an 802.1Q tag (TPID
 * 0x8100 at octets 12-13); the EtherType at e - 2. t: the TCP header's
 * first octet, e + 4 * IHL (IPv4) or e + 40 (IPv6). ps: the TCP payload's
 * first octet, t + 4 * data offset; ipend: the octet just past the IP
 * datagram, e + total length (IPv4) or e + 40 + payload length (IPv6);
 * tcplen: the TCP segment's octets by the IP header. hdr_ok: the header
 * conditions of a TCP segment the receiver may take (the lengths within
 * the frame aside, which need the frame's length): an IPv4 datagram
 * (version 4, IHL >= 5, protocol 6, not a fragment: MF clear and fragment
 * offset 0, total length >= 4 * IHL + 20) or IPv6 (version 6, Next Header
 * 6, payload length >= 20), a TCP data offset >= 5 within the segment.
 * NO = 98 holds a tagged IPv4 header of IHL 15 and its TCP header's
 * first 20 octets (the most any header here needs).
 */
/* verilator lint_off UNUSEDSIGNAL */
module mpa_rx_fhdr #(
    parameter NO = 98
) (
    input  wire [8*NO-1:0] oct,
    output wire            tag,
    output wire [15:0]     etype,
    output wire            v4,
    output wire            v6,
    output wire [3:0]      ver,
    output wire [3:0]      ihl,
    output wire [15:0]     tlen,
    output wire            frag,
    output wire [7:0]      proto,
    output wire [31:0]     src4,
    output wire [31:0]     dst4,
    output wire [15:0]     plen6,
    output wire [7:0]      nh,
    output wire [127:0]    src6,
    output wire [127:0]    dst6,
    output wire [15:0]     sport,
    output wire [15:0]     dport,
    output wire [31:0]     seq,
    output wire [3:0]      doff,
    output wire [7:0]      flags,
    output wire [16:0]     e,
    output wire [16:0]     t,
    output wire [16:0]     ps,
    output wire [16:0]     ipend,
    output wire [15:0]     tcplen,
    output wire            hdr_ok
);

// the IP header and what follows it (80 octets from e), octet i in
// ip[8i+7:8i]; the TCP header's 20 octets from t, octet i in tcp[8i+7:8i]
localparam NI = NO - 18;
wire [8*NI-1:0] ip = tag ? oct[8*18 +: 8*NI] : oct[8*14 +: 8*NI];
wire [3:0]      tq = v6 ? 4'd10 : ihl;                 // (t - e) / 4
wire [8*NI-1:0] ip_sh = ip >> {tq, 5'd0};
wire [159:0]    tcp = ip_sh[159:0];
function [7:0] ipo(input [8*NI-1:0] v, input integer i);
    ipo = v[8*i +: 8];
endfunction
function [7:0] tco(input [159:0] v, input integer i);
    tco = v[8*i +: 8];
endfunction

assign tag = {oct[8*12 +: 8], oct[8*13 +: 8]} == 16'h8100;
assign e = tag ? 17'd18 : 17'd14;
assign etype = tag ? {oct[8*16 +: 8], oct[8*17 +: 8]} : {oct[8*12 +: 8], oct[8*13 +: 8]};
assign v4 = etype == 16'h0800;
assign v6 = etype == 16'h86dd;
wire [7:0] vb = ipo(ip, 0);
assign ver = vb[7:4];
assign ihl = vb[3:0];
// IPv4
assign tlen = {ipo(ip, 2), ipo(ip, 3)};
wire [7:0] fo_hi = ipo(ip, 6);
assign frag = fo_hi[5] || fo_hi[4:0] != 5'd0 || ipo(ip, 7) != 8'd0;
assign proto = ipo(ip, 9);
assign src4 = {ipo(ip, 12), ipo(ip, 13), ipo(ip, 14), ipo(ip, 15)};
assign dst4 = {ipo(ip, 16), ipo(ip, 17), ipo(ip, 18), ipo(ip, 19)};
// IPv6
assign plen6 = {ipo(ip, 4), ipo(ip, 5)};
assign nh = ipo(ip, 6);
genvar k;
generate
for (k = 0; k < 16; k = k + 1) begin : g_a6
    assign src6[127 - 8*k -: 8] = ipo(ip, 8 + k);
    assign dst6[127 - 8*k -: 8] = ipo(ip, 24 + k);
end
endgenerate
// TCP
assign t = e + {11'd0, tq, 2'b00};
assign sport = {tco(tcp, 0), tco(tcp, 1)};
assign dport = {tco(tcp, 2), tco(tcp, 3)};
assign seq = {tco(tcp, 4), tco(tcp, 5), tco(tcp, 6), tco(tcp, 7)};
wire [7:0] db = tco(tcp, 12);
assign doff = db[7:4];
assign flags = tco(tcp, 13);
assign ps = t + {11'd0, doff, 2'b00};
assign ipend = v6 ? e + 17'd40 + {1'b0, plen6} : e + {1'b0, tlen};
assign tcplen = v6 ? plen6 : tlen - {10'd0, ihl, 2'b00};
wire ip_ok = v4 ? ver == 4'd4 && ihl >= 4'd5 && proto == 8'd6 && !frag &&
                  {1'b0, tlen} >= {11'd0, ihl, 2'b00} + 17'd20 :
             v6 && ver == 4'd6 && nh == 8'd6 && plen6 >= 16'd20;
assign hdr_ok = ip_ok && doff >= 4'd5 && {10'd0, doff, 2'b00} <= tcplen;

endmodule
/* verilator lint_on UNUSEDSIGNAL */

`resetall
