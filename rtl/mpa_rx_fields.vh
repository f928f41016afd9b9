// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
//
// mpa_rx_fields.vh: the fields of every record and port word of mpa_rx,
// each named once. Included inside a module body:
//
//     `include "mpa_rx_fields.vh"
//
// For a field FIELD of record REC: REC_FIELD is the offset of its least
// significant bit and REC_FIELD_W its width (read it as
// x[REC_FIELD +: REC_FIELD_W]); a one-bit field has no _W. REC_W is the
// record's width where it has a fixed one. golden/cycle/fields.go names the
// same offsets for the Go model, and golden/cycle/fields_test.go checks the
// two against each other and against the Go encoders.

/* verilator lint_off UNUSEDPARAM */

// ------------------------------------------------------------ context entry
// cfg_data of a context write (cfg_op 0), and the verdict's context update.
// Producer: software through the configuration port, and the verdict.
// Consumers: the context lookup and the verdict (each keeps its own copy of
// the fields it reads).
localparam CTX_W = 384;
localparam CTX_VALID = 0;
localparam CTX_FULL = 1;
localparam CTX_ERR = 2;
localparam CTX_SW_OWNED = 3;
localparam CTX_MARKERS = 4;
localparam CTX_CRC = 5;
localparam CTX_R0_VALID = 6;
localparam CTX_R1_VALID = 7;
localparam CTX_STREAM = 8;
localparam CTX_STREAM_W = 12;
localparam CTX_DDP_VER = 20;
localparam CTX_DDP_VER_W = 2;
localparam CTX_SEQ_START = 32;
localparam CTX_SEQ_START_W = 32;
localparam CTX_RCV_NXT = 64;
localparam CTX_RCV_NXT_W = 32;
localparam CTX_SRC_IP = 96;
localparam CTX_SRC_IP_W = 32;
localparam CTX_DST_IP = 128;
localparam CTX_DST_IP_W = 32;
localparam CTX_SRC_PORT = 160;
localparam CTX_SRC_PORT_W = 16;
localparam CTX_DST_PORT = 176;
localparam CTX_DST_PORT_W = 16;
localparam CTX_R0_START = 192;
localparam CTX_R0_START_W = 32;
localparam CTX_R0_END = 224;
localparam CTX_R0_END_W = 32;
localparam CTX_R1_START = 256;
localparam CTX_R1_START_W = 32;
localparam CTX_R1_END = 288;
localparam CTX_R1_END_W = 32;

// ------------------------------------------------------------ walker record
// One record per FPDU, as the walker's record store keeps it (an entry of a
// record FIFO bank). Producer: mpa_rx_walk_store (from mpa_rx_walk_rec's
// record slots). Consumer: mpa_rx_walk_store's read side, which hands the
// fields to mpa_rx on the rec_* ports.
localparam WALK_REC_W = 178;
localparam WALK_REC_LAST = 0;           // the frame's last record
localparam WALK_REC_FIRST = 1;          // the frame's first record
localparam WALK_REC_HDR = 2;            // the four words after the ULPDU_Length
localparam WALK_REC_HDR_W = 128;        // word, markers skipped, big endian,
                                        // the first in the top 32 bits
localparam WALK_REC_WORD = 130;         // the ULPDU_Length word as it came:
localparam WALK_REC_WORD_W = 32;        // its first wire octet in the low 8 bits
localparam WALK_REC_ULEN = 130;         // ULPDU_Length: octets 0 and 1 of the
localparam WALK_REC_ULEN_W = 16;        // word, the high octet first (lowest)
localparam WALK_REC_CTRL = 146;         // octet 2: the DDP control octet
localparam WALK_REC_CTRL_W = 8;
localparam WALK_REC_ULP = 154;          // octet 3
localparam WALK_REC_ULP_W = 8;
localparam WALK_REC_LSEQ = 162;         // payload word index of the
localparam WALK_REC_LSEQ_W = 16;        // ULPDU_Length word

// ------------------------------------------------------------ walker summary
// One per frame: the frame totals, which wait beside the CRC engines for
// the frame's CRC results. Producer: mpa_rx_walk_sum's stage tot. Consumer:
// mpa_rx_walk_sum's output register, which hands the fields to mpa_rx on
// the sum_* ports (with sum_crc_ok, which is not in this word).
localparam WALK_SUM_W = 55;
localparam WALK_SUM_MARKER_OK = 0;      // every checked FPDU's markers are right
localparam WALK_SUM_NREC = 1;           // records stored in the record FIFO
localparam WALK_SUM_NREC_W = 16;
localparam WALK_SUM_OK = 17;            // no record of the frame was dropped
localparam WALK_SUM_NFPDU = 18;         // records of the frame
localparam WALK_SUM_NFPDU_W = 16;
localparam WALK_SUM_ANY_L = 34;         // a record has the DDP L bit
localparam WALK_SUM_FIRST_MARKER = 35;  // the first FPDU holds a marker
localparam WALK_SUM_GRID = 36;          // markers on seg_seq's word grid
localparam WALK_SUM_SMALL = 37;         // a recorded ULPDU_Length < 14
localparam WALK_SUM_WHOLE = 38;         // the walk ended at the payload's end
localparam WALK_SUM_NDRAFT = 39;        // checked FPDUs in the draft-01 form
localparam WALK_SUM_NDRAFT_W = 8;
localparam WALK_SUM_NRFC = 47;          // ... in the RFC 5044 form
localparam WALK_SUM_NRFC_W = 8;

// (sections to come, one per record: STag entry, receive buffer, queue MSN,
// frame record, verdict, token, placement descriptor, events)

/* verilator lint_on UNUSEDPARAM */
