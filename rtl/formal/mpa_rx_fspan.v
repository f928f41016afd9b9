// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_fspan: a formal model of the words one MPA FPDU spans in the
 * stream (RFC 5044 sections 4 and 4.3; /work/shared/spec/NOTES.md "FPDU"
 * and "Markers"), for the properties of the FPDU walker (read only by
 * `make formal`). Combinational; written from the RFC's framing, without
 * the walker's arithmetic. It checks a span rather than computing one.
 *
 * Input: n, the ULPDU_Length in the FPDU's ULPDU_Length word L; x, the
 * marker grid phase of L: (x + k) mod 128 == 0 when the word k words after
 * L holds a marker (a marker every 512 octets of sequence space, in
 * 4-octet words: every 128 words); on, markers enabled; d, a span in words
 * from L (the walker's).
 *
 * Output:
 *   c     the FPDU's content words from L: (2 + n + pad + 4) / 4 (length
 *         field, ULPDU, pad to a multiple of 4, CRC)
 *   ok    d is the FPDU's span: its d words are the c content words and
 *         the marker words among them (d - c == marker words among the
 *         first d), and its last word (the CRC) is not a marker word. The
 *         span is unique: d - (marker words among the first d) rises by
 *         one per word that is not a marker word, so the least d with
 *         c content words ends on a content word and any other d either
 *         has another count or ends on a marker word.
 *   lead  word d holds a marker: the next FPDU begins with it (a marker
 *         between two FPDUs belongs to the one after it), its ULPDU_Length
 *         word is d + 1
 *   span  a marker word lies among the d words
 */
module mpa_rx_fspan (
    input  wire [15:0] n,
    input  wire [6:0]  x,
    input  wire        on,
    input  wire [15:0] d,
    output reg  [16:0] c,
    output reg         ok,
    output reg         lead,
    output reg         span
);

// marker words among the k words from a word of phase px: the multiples
// of 128 in [px, px + k)
function [16:0] marks(input [6:0] px, input [16:0] k, input pon);
    reg [17:0] y;
    begin
        y = {11'd0, px} + {1'b0, k} + 18'd127;
        marks = pon ? {6'd0, y[17:7]} - {16'd0, px != 7'd0} : 17'd0;
    end
endfunction

reg [16:0] fs_m;
reg [6:0] fs_xl, fs_xe;
always @* begin
    c = (({1'b0, n} + 17'd5) >> 2) + 17'd1;
    fs_m = marks(x, {1'b0, d}, on);
    fs_xl = x + d[6:0] - 7'd1;
    fs_xe = x + d[6:0];
    ok = {1'b0, d} >= c && {1'b0, d} - c == fs_m && !(on && fs_xl == 7'd0);
    lead = on && fs_xe == 7'd0;
    span = fs_m != 17'd0;
end

endmodule

`resetall
