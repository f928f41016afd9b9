// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * mpa_rx_walk_store: the record store of the FPDU walker (mpa_rx_walk):
 * the records that leave mpa_rx_walk_rec's slots go, in order, into NREC
 * FIFO banks (mpa_rx_fifo) written and read in rotation, so that up to
 * NREC records a cycle are stored and one a cycle is read.
 *
 * Input, per beat: sl_valid with sl_npush records leaving the record
 * slots, in record order from the slot after the last record that left
 * (this module keeps that pointer), with the slots' contents rs_lseq,
 * rs_word, rs_hdr, rs_first and sl_lastf (mpa_rx_walk_rec); and sa_first,
 * the beat's first-beat flag one cycle earlier (stage sa), so that a new
 * frame's overflow state is a register.
 *
 * Store: the records go to consecutive banks from the bank of the next
 * record to store; the first that does not fit (its bank full: its RAM
 * holds BANK_DEPTH records, BANK_DEPTH = 2^ceil(log2(ceil(MAX_FPDUS /
 * NREC)))) and all the frame's later records are dropped. A bank holds
 * BANK_DEPTH + 1 records (its RAM and output register), so records are
 * dropped only with NREC * (BANK_DEPTH + 1) >= MAX_FPDUS records stored
 * (514, 514, 771, 645 for MAX_FPDUS = 512 at 64, 128, 256, 512 bits,
 * which holds the 448 records of a 9000-octet MTU frame of minimal
 * 20-octet FPDUs and the start of the next).
 * A record written in cycle t is on rec_* from cycle t + 2 when nothing is
 * ahead of it.
 * Read (rec_valid / rec_ready, first word fall through): the records in
 * the order they were stored. rec_lseq_w, rec_ulen, rec_ctrl, rec_ulp,
 * rec_hdr, rec_first and rec_last are the record's fields (walker record
 * in mpa_rx_fields.vh; rec_ulen is ULPDU_Length, octets 0 and 1 of the
 * word, big endian).
 * Per beat, one cycle after its records came in (stage st): st_nok, the
 * records stored, and st_ovf, a record of the beat's frame was dropped
 * (in this beat or before).
 * Latency: 1 cycle to st_*; 2 to rec_*.
 */
// Bank outputs the store does not need are left open.
/* verilator lint_off PINCONNECTEMPTY */
module mpa_rx_walk_store #(
    // Width of the word view (64, 128, 256 or 512).
    parameter DATA_WIDTH = 64,
    // Minimum number of records the banks hold.
    parameter MAX_FPDUS = 512
) (
    input  wire                      clk,
    input  wire                      rst,

    input  wire                      sa_first,
    input  wire                      sl_valid,
    input  wire [2:0]                sl_npush,
    input  wire [((DATA_WIDTH/32+4)/5+1)-1:0] sl_lastf,
    input  wire [((DATA_WIDTH/32+4)/5+1)*16-1:0] rs_lseq,
    input  wire [((DATA_WIDTH/32+4)/5+1)*32-1:0] rs_word,
    input  wire [((DATA_WIDTH/32+4)/5+1)*128-1:0] rs_hdr,
    input  wire [((DATA_WIDTH/32+4)/5+1)-1:0] rs_first,

    output reg  [2:0]                st_nok = 3'd0,
    output reg                       st_ovf = 1'b0,

    output wire                      rec_valid,
    input  wire                      rec_ready,
    output wire [15:0]               rec_lseq_w,
    output wire [15:0]               rec_ulen,
    output wire [7:0]                rec_ctrl,
    output wire [7:0]                rec_ulp,
    output wire [127:0]              rec_hdr,
    output wire                      rec_first,
    output wire                      rec_last
);

`include "mpa_rx_walk.vh"
`include "mpa_rx_fields.vh"

localparam BANK_AW = $clog2((MAX_FPDUS + NREC - 1) / NREC);

generate
if (MAX_FPDUS <= NREC || MAX_FPDUS > 65535) begin : g_bad_max_fpdus
`ifndef SYNTHESIS
    initial begin
        $error("%m: MAX_FPDUS %0d is out of range (%0d to 65535: banks of at least 2 records)", MAX_FPDUS, NREC + 1);
        $finish;
    end
`endif
    // elaboration stops here in every tool: this module does not exist
    mpa_rx_walk_store_MAX_FPDUS_out_of_range param_error ();
end
endgenerate

// One record as a bank entry.
function [WALK_REC_W-1:0] rec_pack(input [15:0] lseq, input [31:0] word, input [127:0] hdr,
        input first, input last);
    begin
        rec_pack = {WALK_REC_W{1'b0}};
        rec_pack[WALK_REC_LSEQ +: WALK_REC_LSEQ_W] = lseq;
        rec_pack[WALK_REC_WORD +: WALK_REC_WORD_W] = word;
        rec_pack[WALK_REC_HDR +: WALK_REC_HDR_W] = hdr;
        rec_pack[WALK_REC_FIRST] = first;
        rec_pack[WALK_REC_LAST] = last;
    end
endfunction

// ================================================================ stage st
// The records that leave in one beat are consecutive in record order, from
// the oldest waiting one. They go to consecutive banks from wslot, the bank
// of the next record to store; the first that does not fit (its bank full)
// and all the frame's later records are dropped. Bank b takes the record
// of slot (b - wslot + bk_pptr) mod NREC, bk_pptr the record slot of the
// next record to leave. Every decision is made per bank in parallel:
// bk_rk[b] = (b - wslot) mod NREC, a running remainder, orders the banks
// (bank b takes a record when bk_rk[b] < sl_npush), and bk_lt[c*NREC+b] =
// bk_rk[c] < bk_rk[b] is kept beside it, so that whether an earlier bank is
// full is one AND-OR of registers (the banks' full flags are registers
// too). The banks written are the first nok in that order: moving wslot on
// by nok swaps the order of exactly the pairs with one bank written, and
// the new bk_rk[b] counts the banks before b.
// (c < b) for every pair of banks: bk_lt after reset (wslot = 0).
/* verilator lint_off UNUSEDSIGNAL */
function [NREC*NREC-1:0] lt_init(input dummy);
/* verilator lint_on UNUSEDSIGNAL */
    integer i, j;
    begin
        lt_init = 0;
        for (i = 0; i < NREC; i = i + 1)
            for (j = 0; j < NREC; j = j + 1)
                lt_init[i*NREC + j] = i < j;
    end
endfunction
reg [NREC*RW-1:0] bk_rk = rk_init(1'b0);
reg [NREC*NREC-1:0] bk_lt = lt_init(1'b0);
reg [RW-1:0] bk_pptr = 0;
reg bk_ovf = 1'b0;          // a record of the current frame was dropped
reg bk_ovfin = 1'b0;        // !(this beat's first) && bk_ovf, as a register

wire [NREC-1:0] bank_full;

reg stn_ovf_in, stn_ovf, stn_blk;
reg [NREC-1:0] stn_wr, stn_in;
reg [NREC*WALK_REC_W-1:0] stn_rec;
reg [RW-1:0] stn_src;
reg [2:0] stn_nok;
reg [NREC*RW-1:0] stn_rk;
reg [NREC*NREC-1:0] stn_lt;
integer tb, tc;

always @* begin
    stn_ovf_in = bk_ovfin;
    stn_wr = 0;
    stn_in = 0;
    stn_rec = 0;
    stn_ovf = stn_ovf_in;
    for (tb = 0; tb < NREC; tb = tb + 1) begin
        stn_src = rec_add(bk_rk[tb*RW +: RW], {{(4-RW){1'b0}}, bk_pptr});
        stn_in[tb] = {{(5-RW){1'b0}}, bk_rk[tb*RW +: RW]} < {2'b00, sl_npush};
        stn_blk = stn_ovf_in || bank_full[tb];
        for (tc = 0; tc < NREC; tc = tc + 1)
            if (tc != tb && bk_lt[tc*NREC + tb] && bank_full[tc])
                stn_blk = 1'b1;
        stn_wr[tb] = stn_in[tb] && !stn_blk;
        if (stn_in[tb] && stn_blk)
            stn_ovf = 1'b1;
        for (tc = 0; tc < NREC; tc = tc + 1)
            if (stn_src == tc[RW-1:0])
                stn_rec[tb*WALK_REC_W +: WALK_REC_W] = rec_pack(rs_lseq[tc*PW +: PW], rs_word[tc*32 +: 32],
                    rs_hdr[tc*128 +: 128], rs_first[tc], sl_lastf[tc]);
    end
    stn_nok = 3'd0;
    for (tb = 0; tb < NREC; tb = tb + 1)
        stn_nok = stn_nok + {2'd0, stn_wr[tb]};
    stn_lt = 0;
    for (tc = 0; tc < NREC; tc = tc + 1)
        for (tb = 0; tb < NREC; tb = tb + 1)
            if (tc != tb)
                stn_lt[tc*NREC + tb] = bk_lt[tc*NREC + tb] ^ stn_wr[tc] ^ stn_wr[tb];
    stn_rk = 0;
    for (tb = 0; tb < NREC; tb = tb + 1)
        for (tc = 0; tc < NREC; tc = tc + 1)
            stn_rk[tb*RW +: RW] = stn_rk[tb*RW +: RW] + {{(RW-1){1'b0}}, stn_lt[tc*NREC + tb]};
end

always @(posedge clk) begin
    if (sl_valid) begin
        bk_rk <= stn_rk;
        bk_lt <= stn_lt;
        bk_pptr <= rec_add(bk_pptr, {1'b0, sl_npush});
        bk_ovf <= stn_ovf;
    end
    bk_ovfin <= !sa_first && (sl_valid ? stn_ovf : bk_ovf);
    st_ovf <= stn_ovf;
    st_nok <= stn_nok;
    if (rst) begin
        bk_rk <= rk_init(1'b0);
        bk_lt <= lt_init(1'b0);
        bk_pptr <= 0;
        bk_ovf <= 1'b0;
        bk_ovfin <= 1'b0;
    end
end

// ================================================================ banks
wire [NREC-1:0] bank_valid;
wire [NREC*WALK_REC_W-1:0] bank_data;
reg [RW-1:0] rd_slot = 0;   // bank of the next record to read

genvar gk;
generate
    for (gk = 0; gk < NREC; gk = gk + 1) begin : g_bank
        mpa_rx_fifo #(
            .WIDTH(WALK_REC_W),
            .DEPTH(1 << BANK_AW)
        ) u_bank (
            .clk(clk),
            .rst(rst),
            .s_axis_tdata(stn_rec[gk*WALK_REC_W +: WALK_REC_W]),
            .s_axis_tvalid(stn_wr[gk]),
            .s_axis_tready(),
            .m_axis_tdata(bank_data[gk*WALK_REC_W +: WALK_REC_W]),
            .m_axis_tvalid(bank_valid[gk]),
            .m_axis_tready(rec_valid && rec_ready && rd_slot == gk),
            .count(),
            .empty(),
            .full(bank_full[gk])
        );
    end
endgenerate

reg [WALK_REC_W-1:0] rd_rec;
reg rd_valid;
integer rb;
always @* begin
    rd_rec = {WALK_REC_W{1'b0}};
    rd_valid = 1'b0;
    for (rb = 0; rb < NREC; rb = rb + 1) begin
        if (rd_slot == rb[RW-1:0]) begin
            rd_rec = bank_data[rb*WALK_REC_W +: WALK_REC_W];
            rd_valid = bank_valid[rb];
        end
    end
end
assign rec_valid = rd_valid;
assign rec_lseq_w = rd_rec[WALK_REC_LSEQ +: WALK_REC_LSEQ_W];
assign rec_ulen = {rd_rec[WALK_REC_ULEN +: 8], rd_rec[WALK_REC_ULEN + 8 +: 8]};
assign rec_ctrl = rd_rec[WALK_REC_CTRL +: WALK_REC_CTRL_W];
assign rec_ulp = rd_rec[WALK_REC_ULP +: WALK_REC_ULP_W];
assign rec_hdr = rd_rec[WALK_REC_HDR +: WALK_REC_HDR_W];
assign rec_first = rd_rec[WALK_REC_FIRST];
assign rec_last = rd_rec[WALK_REC_LAST];

always @(posedge clk) begin
    if (rec_valid && rec_ready)
        rd_slot <= rec_add(rd_slot, 4'd1);
    if (rst)
        rd_slot <= 0;
end

endmodule

`resetall
