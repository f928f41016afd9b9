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

// (sections to come, one per record: STag entry, receive buffer, queue MSN,
// walker record, walker summary, frame record, verdict, token, placement
// descriptor, events)

/* verilator lint_on UNUSEDPARAM */
