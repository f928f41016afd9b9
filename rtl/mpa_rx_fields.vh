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
// record's width where it has a fixed one; a record that ends with the
// context index (IDX_BITS wide) is REC_IDX + IDX_BITS bits. Codes (cfg_op,
// frame class, drop codes, event kinds, verdicts, reasons, DDP error
// kinds) are sized localparams. golden/cycle/fields.go names the
// same offsets for the Go model, and golden/cycle/fields_test.go checks the
// two against each other and against the Go encoders.

/* verilator lint_off UNUSEDPARAM */

// ------------------------------------------------------------ context entry
// cfg_data of a context write (cfg_op 0), and the verdict's context update.
// Producer: software through the configuration port, and the verdict.
// Consumers: the context lookup and the verdict (each keeps its own copy of
// the fields it reads). The addresses of an IPv4 half connection are
// SRC_IP and DST_IP; an IPv6 one has V6 set and its two 128-bit addresses
// written before (cfg_op 4, ADDR6_*), SRC_IP and DST_IP unused.
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
localparam CTX_V6 = 22;
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

// ------------------------------------------------------------ configuration port
// cfg_op codes and the port's widths. Producer: software. Consumers: the
// context table (ops 0 and 4, mpa_rx_ctx) and the DDP tables (ops 1-3,
// mpa_rx_ddp).
localparam CFG_OP_W = 3;
localparam CFG_INDEX_W = 16;
localparam CFG_DATA_W = 384;
localparam [2:0] CFG_OP_CTX = 3'd0;
localparam [2:0] CFG_OP_STAG = 3'd1;
localparam [2:0] CFG_OP_POST = 3'd2;
localparam [2:0] CFG_OP_MSN = 3'd3;
localparam [2:0] CFG_OP_ADDR6 = 3'd4;

// ------------------------------------------------------------ IPv6 addresses
// cfg_data of an address write (cfg_op 4; cfg_index unused): the source
// and destination addresses of the next context write with CTX_V6, each
// as a 128-bit number (the address's first octet in the top 8 bits).
// Producer: software. Consumer: mpa_rx_ctx (a staging register).
localparam ADDR6_SRC = 0;
localparam ADDR6_SRC_W = 128;
localparam ADDR6_DST = 128;
localparam ADDR6_DST_W = 128;

// ------------------------------------------------------------ STag entry
// cfg_data of an STag write (cfg_op 1; cfg_index is the STag's index
// STag[31:8] mod STAG_COUNT). Producer: software. Consumer: mpa_rx_ddp.
localparam STAG_VALID = 0;
localparam STAG_STAG = 32;
localparam STAG_STAG_W = 32;
localparam STAG_STREAM = 64;
localparam STAG_STREAM_W = 12;
localparam STAG_BASE = 128;
localparam STAG_BASE_W = 64;
localparam STAG_LEN = 192;
localparam STAG_LEN_W = 64;

// ------------------------------------------------------------ receive buffer
// cfg_data of a post (cfg_op 2; cfg_index is the context slot): the buffer
// for MSN on queue QN, at MSN mod RQ_DEPTH of the queue. Producer:
// software. Consumer: mpa_rx_ddp.
localparam RBUF_QN = 0;
localparam RBUF_QN_W = 2;
localparam RBUF_VALID = 2;
localparam RBUF_MSN = 32;
localparam RBUF_MSN_W = 32;
localparam RBUF_STREAM = 64;
localparam RBUF_STREAM_W = 12;
localparam RBUF_BASE = 128;
localparam RBUF_BASE_W = 64;
localparam RBUF_LEN = 192;
localparam RBUF_LEN_W = 32;

// ------------------------------------------------------------ queue MSN
// cfg_data of a current-MSN write (cfg_op 3; cfg_index is the context
// slot). Producer: software. Consumer: mpa_rx_ddp.
localparam QMSN_QN = 0;
localparam QMSN_QN_W = 2;
localparam QMSN_MSN = 32;
localparam QMSN_MSN_W = 32;

// ------------------------------------------------------------ frame class
// The parser's frame class (mpa_rx_parse f_class) and the drop codes
// (f_drop, the DROP event's code; 0 is a bad FCS or a frame longer than
// the frame FIFO, decided at the ingress).
localparam [1:0] CLASS_OK = 2'd0;
localparam [1:0] CLASS_NOT_TCP = 2'd1;
localparam [1:0] CLASS_DROP = 2'd2;
localparam [1:0] DROP_FCS = 2'd0;
localparam [1:0] DROP_MALFORMED = 2'd1;
localparam [1:0] DROP_IP_CSUM = 2'd2;
localparam [1:0] DROP_TCP_CSUM = 2'd3;
// f_drop of a NOT_TCP frame: why software gets it
localparam [1:0] NOT_TCP_OTHER = 2'd0;      // not IP/TCP, an IPv4 fragment
localparam [1:0] NOT_TCP_IPV6_EXT = 2'd1;   // an IPv6 extension header (REASON_IPV6_EXT)

// ------------------------------------------------------------ frame record, parser part
// One per frame, queued at the parser's f_valid. Producer: mpa_rx_parse
// (through mpa_rx). Consumer: mpa_rx_verdict (through mpa_rx_frame's queue).
localparam FRP_W = 60;
localparam FRP_CLASS = 0;
localparam FRP_CLASS_W = 2;
localparam FRP_DROP = 2;
localparam FRP_DROP_W = 2;
localparam FRP_SEQ = 4;
localparam FRP_SEQ_W = 32;
localparam FRP_FLAGS = 36;
localparam FRP_FLAGS_W = 8;
localparam FRP_PLEN = 44;
localparam FRP_PLEN_W = 16;

// ------------------------------------------------------------ frame record, lookup part
// One per frame, queued three cycles after its last beat: the lookup's
// result, the ingress's beat count and oversize flag, the payload's frame
// offset. The context index is the last field, IDX_BITS wide: the record
// is FRL_IDX + IDX_BITS bits. Producer: mpa_rx_frame. Consumer:
// mpa_rx_verdict.
localparam FRL_MATCH = 0;
localparam FRL_OVER = 1;
localparam FRL_BEATS = 2;
localparam FRL_BEATS_W = 16;
localparam FRL_P0 = 18;
localparam FRL_P0_W = 16;
localparam FRL_STREAM = 34;
localparam FRL_STREAM_W = 12;
localparam FRL_DDP_VER = 46;
localparam FRL_DDP_VER_W = 2;
localparam FRL_MARKERS = 48;
localparam FRL_MPH = 49;           // SeqStart mod 512
localparam FRL_MPH_W = 9;
localparam FRL_IDX = 58;

// ------------------------------------------------------------ summary word
// The walker's summary of a frame as the verdict's summary queue holds it.
// Producer: mpa_rx_walk's sum_* outputs (through mpa_rx). Consumer:
// mpa_rx_verdict.
localparam SUM_W = 38;
localparam SUM_WHOLE = 0;
localparam SUM_SMALL = 1;
localparam SUM_GRID = 2;
localparam SUM_CHECKS = 3;         // every CRC and marker check passed
localparam SUM_FIRST_MARKER = 4;
localparam SUM_ANY_L = 5;
localparam SUM_NREC = 6;
localparam SUM_NREC_W = 16;
localparam SUM_NRFC = 22;
localparam SUM_NRFC_W = 8;
localparam SUM_NDRAFT = 30;
localparam SUM_NDRAFT_W = 8;

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

// ------------------------------------------------------------ DDP header
// The walker record's DDP control octet (rec_ctrl) and header words
// (rec_hdr: ULPDU octets 2 to 17, octet 2 in the top byte). Producer:
// mpa_rx_walk. Consumer: mpa_rx_ddp.
localparam DDPC_DV = 0;
localparam DDPC_DV_W = 2;
localparam DDPC_L = 6;
localparam DDPC_T = 7;
localparam DDPH_STAG = 96;         // tagged
localparam DDPH_STAG_W = 32;
localparam DDPH_TO = 32;           // tagged
localparam DDPH_TO_W = 64;
localparam DDPH_QN = 64;           // untagged
localparam DDPH_QN_W = 32;
localparam DDPH_MSN = 32;          // untagged
localparam DDPH_MSN_W = 32;
localparam DDPH_MO = 0;            // untagged
localparam DDPH_MO_W = 32;

// ------------------------------------------------------------ verdict record
// One per frame, in the verdict queue. The context index is the last field,
// IDX_BITS wide: the record is VQ_IDX + IDX_BITS bits. Producer:
// mpa_rx_verdict. Consumer: mpa_rx_ddp.
localparam VQ_VERDICT = 0;
localparam VQ_VERDICT_W = 2;
localparam VQ_REASON = 2;
localparam VQ_REASON_W = 4;
localparam VQ_DROP = 6;
localparam VQ_DROP_W = 2;
localparam VQ_SEQ = 8;
localparam VQ_SEQ_W = 32;
localparam VQ_END = 40;            // seq + payload length
localparam VQ_END_W = 32;
localparam VQ_PLEN = 72;
localparam VQ_PLEN_W = 16;
localparam VQ_BEATS = 88;          // beats stored in the frame FIFO
localparam VQ_BEATS_W = 16;
localparam VQ_ADV = 104;           // rcv_nxt after the frame
localparam VQ_ADV_W = 32;
localparam VQ_INORDER = 136;
localparam VQ_NREC = 137;          // walker records
localparam VQ_NREC_W = 16;
localparam VQ_STREAM = 153;
localparam VQ_STREAM_W = 12;
localparam VQ_DDP_VER = 165;
localparam VQ_DDP_VER_W = 2;
localparam VQ_MARKERS = 167;
localparam VQ_MPH = 168;           // frame octet offset of a marker position, mod 512
localparam VQ_MPH_W = 9;
localparam VQ_P0 = 177;            // frame octet offset of the TCP payload
localparam VQ_P0_W = 16;
localparam VQ_NRFC = 193;
localparam VQ_NRFC_W = 8;
localparam VQ_NDRAFT = 201;
localparam VQ_NDRAFT_W = 8;
localparam VQ_IDX = 209;

// ------------------------------------------------------------ token
// One per frame, from E1 to E2 when E1 is done with it. Producer:
// mpa_rx_ddp. Consumer: mpa_rx_place.
localparam TOK_W = 38;
localparam TOK_VERDICT = 0;
localparam TOK_VERDICT_W = 2;
localparam TOK_REASON = 2;
localparam TOK_REASON_W = 4;
localparam TOK_BEATS = 6;
localparam TOK_BEATS_W = 16;
localparam TOK_NDESC = 22;         // placement descriptors of a PLACE frame (else undefined)
localparam TOK_NDESC_W = 16;

// ------------------------------------------------------------ placement descriptor
// One per FPDU placed with a payload. Producer: mpa_rx_ddp. Consumer:
// mpa_rx_place.
localparam DESC_W = 106;
localparam DESC_ADDR = 0;          // host address of the first payload octet
localparam DESC_ADDR_W = 64;
localparam DESC_LEN = 64;          // payload octets
localparam DESC_LEN_W = 16;
localparam DESC_OFF = 80;          // frame offset of the first payload octet
localparam DESC_OFF_W = 16;
localparam DESC_MPH = 96;          // frame octet offset of a marker position, mod 512
localparam DESC_MPH_W = 9;
localparam DESC_MARKERS = 105;

// ------------------------------------------------------------ events
// One m_evt lane (docs/design.md section 4). Producer: mpa_rx_ddp.
// Consumer: software. Fields by kind: VERDICT, DROP, ADVANCED, CONSUMED
// use SEQ, END, LEN, VERDICT (VERDICT) or DROP (DROP), REASON (VERDICT),
// NRFC and NDRAFT (ADVANCED, CONSUMED); PLACED, DDP_ERROR, DELIVERED use
// SEQ (of the ULPDU_Length field), KEY (STag or MSN), LEN (ULPDU_Length),
// CTRL, DDP_KIND (DDP_ERROR), QN (untagged).
localparam EVT_W = 128;
localparam EVT_KEEP_W = 16;
localparam EVT_KIND = 124;
localparam EVT_KIND_W = 4;
localparam EVT_IDX = 112;
localparam EVT_IDX_W = 12;
localparam EVT_SEQ = 80;
localparam EVT_SEQ_W = 32;
localparam EVT_END = 48;
localparam EVT_END_W = 32;
localparam EVT_KEY = 48;
localparam EVT_KEY_W = 32;
localparam EVT_LEN = 32;
localparam EVT_LEN_W = 16;
localparam EVT_VERDICT = 28;
localparam EVT_VERDICT_W = 2;
localparam EVT_DROP = 28;
localparam EVT_DROP_W = 2;
localparam EVT_REASON = 24;
localparam EVT_REASON_W = 4;
localparam EVT_NRFC = 16;
localparam EVT_NRFC_W = 8;
localparam EVT_NDRAFT = 8;
localparam EVT_NDRAFT_W = 8;
localparam EVT_CTRL = 24;
localparam EVT_CTRL_W = 8;
localparam EVT_DDP_KIND = 20;
localparam EVT_DDP_KIND_W = 4;
localparam EVT_QN = 18;
localparam EVT_QN_W = 2;
// kinds
localparam [3:0] EVT_KIND_PLACED = 4'd1;
localparam [3:0] EVT_KIND_DDP_ERROR = 4'd2;
localparam [3:0] EVT_KIND_DELIVERED = 4'd3;
localparam [3:0] EVT_KIND_DROP = 4'd4;
localparam [3:0] EVT_KIND_ADVANCED = 4'd5;
localparam [3:0] EVT_KIND_CONSUMED = 4'd6;
localparam [3:0] EVT_KIND_VERDICT = 4'd7;
// verdicts (VERDICT event, verdict record, token)
localparam [1:0] VERDICT_PLACE = 2'd0;
localparam [1:0] VERDICT_EXC = 2'd1;
localparam [1:0] VERDICT_DROP = 2'd2;
localparam [1:0] VERDICT_IGNORE = 2'd3;
// exception reasons (VERDICT event, m_exc_axis_tuser)
localparam [3:0] REASON_NONE = 4'd0;
localparam [3:0] REASON_NOT_TCP = 4'd1;
localparam [3:0] REASON_NO_CONN = 4'd2;
localparam [3:0] REASON_NOT_FULL = 4'd3;
localparam [3:0] REASON_FLAGS = 4'd4;
localparam [3:0] REASON_SW_OWNED = 4'd5;
localparam [3:0] REASON_UNALIGNED = 4'd6;
localparam [3:0] REASON_OOO = 4'd7;
localparam [3:0] REASON_RANGES_FULL = 4'd8;
localparam [3:0] REASON_MPA_CHECK = 4'd9;
localparam [3:0] REASON_IPV6_EXT = 4'd10;
// DDP error kinds (DDP_ERROR event; golden/ddp Kind)
localparam [3:0] DDP_KIND_SHORT = 4'd1;
localparam [3:0] DDP_KIND_INV_STAG = 4'd2;
localparam [3:0] DDP_KIND_BOUNDS = 4'd3;
localparam [3:0] DDP_KIND_NOT_ASSOC = 4'd4;
localparam [3:0] DDP_KIND_TO_WRAP = 4'd5;
localparam [3:0] DDP_KIND_T_VERSION = 4'd6;
localparam [3:0] DDP_KIND_INV_QN = 4'd7;
localparam [3:0] DDP_KIND_NO_BUF = 4'd8;
localparam [3:0] DDP_KIND_MSN_RANGE = 4'd9;
localparam [3:0] DDP_KIND_INV_MO = 4'd10;
localparam [3:0] DDP_KIND_TOO_LONG = 4'd11;
localparam [3:0] DDP_KIND_U_VERSION = 4'd12;

/* verilator lint_on UNUSEDPARAM */
