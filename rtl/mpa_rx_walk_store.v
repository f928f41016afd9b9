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
`ifdef FORMAL
wire [NREC*(BANK_AW+1)-1:0] f_bank_count;   // each bank's records (formal properties below)
`endif
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
`ifdef FORMAL
            .count(f_bank_count[gk*(BANK_AW+1) +: BANK_AW+1]),
`else
            .count(),
`endif
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

`ifdef FORMAL
// ------------------------------------------------------------------ formal
// Properties proven by `make formal` (docs/robustness.md, "Formal proofs"),
// against a model kept from the handshakes alone:
//   - which records are stored: of a beat's sl_npush records, the leading
//     ones whose banks (the next ones in rotation from the bank of the next
//     record to store) have room, none once a record of the frame was
//     dropped (the frame's state cleared by its first beat); each into the
//     bank the rotation says, with the contents of the record slot the
//     leaving order says (from the slot after the last record that left);
//     so no bank is ever written full (no overflow); st_nok and st_ovf one
//     cycle later as the model counts them;
//   - the records held (stored minus read) are at most NREC * (BANK_DEPTH
//     + 1), and each bank holds exactly the held records that rotation puts
//     in it: record i of the store (counted from reset) in bank i mod NREC,
//     read from bank rd_slot = (records read) mod NREC; with every bank a
//     FIFO (mpa_rx_fifo, whose own properties, proven here again, keep its
//     entries in order with their data), the records leave in the order
//     they were stored, each once, none read when none is held (no
//     underflow);
//   - latency: a record stored in cycle t is on rec_* from cycle t + 2
//     when nothing is ahead of it (a record held and not read in cycle t
//     makes rec_valid high in t + 1);
//   - rec_* follows the AXI4-Stream sender's rules (mpa_rx_faxis).
// Assumed of mpa_rx_walk_rec (proven there): sl_npush <= NREC, 0 without
// sl_valid. Nothing is assumed of sa_first (mpa_rx_walk_word keeps a
// beat's first flag through the cycles without a beat after it).
localparam F_BD = 1 << BANK_AW;             // RAM entries of a bank
localparam F_CAP = NREC * (F_BD + 1);       // records the store holds
localparam F_OW = $clog2(F_CAP + 1) + 1;    // bits of the model's counts

// x mod NREC for x < 2 * NREC (narrow: a wide divide is slow in the solver)
localparam [4:0] F_N = NREC;
function [4:0] f_mod(input [4:0] x);
    f_mod = x >= F_N ? x - F_N : x;
endfunction

reg f_past_valid = 1'b0;
always @(posedge clk)
    f_past_valid <= 1'b1;
always @*
    if (!f_past_valid)
        assume (rst);

reg f_sl_first = 1'b0;      // the beat in stage sl is its frame's first
always @(posedge clk) begin
    f_sl_first <= sa_first;
    if (rst)
        f_sl_first <= 1'b0;
end
always @* begin
    assume (sl_npush <= NREC);
    if (!sl_valid)
        assume (sl_npush == 3'd0);
end

// the model
reg [RW-1:0] f_wslot = 0;   // bank of the next record stored
reg [RW-1:0] f_pptr = 0;    // record slot of the next record to leave
reg          f_fovf = 1'b0; // a record of the frame of the last beat was dropped
reg [F_OW-1:0] f_occ = 0;   // records held
wire f_in_ovf = !f_sl_first && f_fovf;
wire f_pop = rec_valid && rec_ready;
reg [NREC-1:0] f_wr;        // banks written
reg [2:0] f_nok;            // records stored
reg f_fit, f_ovf;
integer fk;
always @* begin
    f_fit = !f_in_ovf;
    f_nok = 3'd0;
    f_wr = {NREC{1'b0}};
    for (fk = 0; fk < NREC; fk = fk + 1) begin
        if (fk < sl_npush) begin
            if (bank_full[f_mod(f_wslot + fk)])
                f_fit = 1'b0;
            if (f_fit) begin
                f_nok = f_nok + 3'd1;
                f_wr[f_mod(f_wslot + fk)] = 1'b1;
            end
        end
    end
    f_ovf = f_in_ovf || f_nok != sl_npush;
end

reg [2:0] f_nok_q = 3'd0;
reg f_ovf_q = 1'b0, f_prev_rst = 1'b1, f_prev_pop = 1'b0;
reg [F_OW-1:0] f_left = 0;  // records held and not read in the last cycle
always @(posedge clk) begin
    if (sl_valid) begin
        f_wslot <= f_mod(f_wslot + f_nok);
        f_pptr <= f_mod(f_pptr + sl_npush);
        f_fovf <= f_ovf;
    end
    f_occ <= f_occ + f_nok - f_pop;
    f_nok_q <= f_nok;
    f_ovf_q <= f_ovf;
    f_prev_rst <= rst;
    f_prev_pop <= f_pop;
    f_left <= f_occ - f_pop;
    if (rst) begin
        f_wslot <= 0;
        f_pptr <= 0;
        f_fovf <= 1'b0;
        f_occ <= 0;
    end
end

integer fb;
reg [4:0] f_d, f_src;
reg [WALK_REC_W-1:0] f_in, f_head;
always @* begin
    if (!rst) begin
        // which records are stored, where, with what
        assert (stn_wr == f_wr);
        assert (stn_ovf == f_ovf);
        for (fb = 0; fb < NREC; fb = fb + 1) begin
            assert (!(stn_wr[fb] && bank_full[fb]));
            f_d = f_mod(fb + NREC - f_wslot);
            f_src = f_mod(f_pptr + f_d);
            if (f_wr[fb]) begin
                f_in = stn_rec[fb*WALK_REC_W +: WALK_REC_W];
                assert (f_in[WALK_REC_LSEQ +: WALK_REC_LSEQ_W] == rs_lseq[f_src*PW +: PW]);
                assert (f_in[WALK_REC_WORD +: WALK_REC_WORD_W] == rs_word[f_src*32 +: 32]);
                assert (f_in[WALK_REC_HDR +: WALK_REC_HDR_W] == rs_hdr[f_src*128 +: 128]);
                assert (f_in[WALK_REC_FIRST] == rs_first[f_src]);
                assert (f_in[WALK_REC_LAST] == sl_lastf[f_src]);
            end
        end
        // the records held, bank by bank
        assert (f_occ <= F_CAP);
        assert ({{(5-RW){1'b0}}, f_wslot} == ({{(5-RW){1'b0}}, rd_slot} + f_occ) % F_N);
        for (fb = 0; fb < NREC; fb = fb + 1) begin
            f_d = f_mod(fb + NREC - rd_slot);
            assert ({{(F_OW-BANK_AW-1){1'b0}}, f_bank_count[fb*(BANK_AW+1) +: BANK_AW+1]}
                == (f_occ > f_d ? (f_occ - f_d - 5'd1) / F_N + 5'd1 : 5'd0));
        end
        assert (!rec_valid || f_occ != 0);
        // rec_* is the head of the bank read, field by field
        f_head = bank_data[rd_slot*WALK_REC_W +: WALK_REC_W];
        assert (rec_valid == bank_valid[rd_slot]);
        assert (rec_lseq_w == f_head[WALK_REC_LSEQ +: WALK_REC_LSEQ_W]);
        assert (rec_ulen == {f_head[WALK_REC_WORD +: 8], f_head[WALK_REC_WORD + 8 +: 8]});
        assert (rec_ctrl == f_head[WALK_REC_WORD + 16 +: 8]);
        assert (rec_ulp == f_head[WALK_REC_WORD + 24 +: 8]);
        assert (rec_hdr == f_head[WALK_REC_HDR +: WALK_REC_HDR_W]);
        assert (rec_first == f_head[WALK_REC_FIRST]);
        assert (rec_last == f_head[WALK_REC_LAST]);
        // the rotation registers as the model says (induction invariants)
        assert (bk_pptr == f_pptr);
        assert (bk_ovf == f_fovf);
        for (fb = 0; fb < NREC; fb = fb + 1) begin
            assert (bk_rk[fb*RW +: RW] == f_mod(fb + NREC - f_wslot));
            for (fk = 0; fk < NREC; fk = fk + 1)
                if (fk != fb)
                    assert (bk_lt[fk*NREC + fb] == (f_mod(fk + NREC - f_wslot) < f_mod(fb + NREC - f_wslot)));
        end
    end
    if (f_past_valid && !f_prev_rst && !rst) begin
        assert (st_nok == f_nok_q);
        assert (st_ovf == f_ovf_q);
        assert (bk_ovfin == f_in_ovf);
        if (f_left != 0)
            assert (rec_valid);
    end
end

wire [15:0] f_out_wait;
mpa_rx_faxis #(.WIDTH(16 + 16 + 8 + 8 + 128 + 2), .F_DUT_SENDS(1)) f_rec_axis (
    .clk(clk), .rst(rst),
    .tdata({rec_lseq_w, rec_ulen, rec_ctrl, rec_ulp, rec_hdr, rec_first, rec_last}),
    .tvalid(rec_valid), .tready(rec_ready), .f_wait(f_out_wait), .f_held());

// covers: the store full; a beat storing NREC records; records read back to
// back; a beat storing some of its records and dropping the rest; a frame
// stored after a frame that dropped records
always @* begin
    if (!rst) begin
        cover (f_occ == F_CAP);
        cover (sl_valid && f_nok == NREC);
        cover (f_pop && f_prev_pop);
        cover (sl_valid && !f_in_ovf && f_ovf && f_nok != 3'd0);
        cover (sl_valid && f_sl_first && f_fovf && f_nok != 3'd0);
    end
end
`endif

endmodule

`resetall
