package cycle

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/golden/wire"
)

// vhConst matches `localparam NAME = value;` and `localparam [h:0] NAME =
// w'dvalue;` lines of rtl/mpa_rx_fields.vh.
var vhConst = regexp.MustCompile(`^localparam (?:\[(\d+):0\] )?([A-Z0-9_]+) = (?:(\d+)'d)?(\d+);`)

// readFields parses the localparams of rtl/mpa_rx_fields.vh: name to value.
func readFields(t *testing.T) map[string]int {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "rtl", "mpa_rx_fields.vh"))
	require.NoError(t, err)
	defer f.Close()
	out := map[string]int{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if len(line) < 10 || line[:10] != "localparam" {
			continue
		}
		m := vhConst.FindStringSubmatch(line)
		require.NotNil(t, m, "mpa_rx_fields.vh:%d: not a plain localparam: %q", n, line)
		v, err := strconv.Atoi(m[4])
		require.NoError(t, err)
		if m[1] != "" {
			// a sized code: [h:0] and h+1 'd
			hi, _ := strconv.Atoi(m[1])
			w, _ := strconv.Atoi(m[3])
			require.Equal(t, hi+1, w, "mpa_rx_fields.vh:%d: range and size of %s", n, m[2])
			require.Less(t, v, 1<<w, "mpa_rx_fields.vh:%d: %s does not fit its width", n, m[2])
		}
		_, dup := out[m[2]]
		require.False(t, dup, "mpa_rx_fields.vh:%d: %s defined twice", n, m[2])
		out[m[2]] = v
	}
	require.NoError(t, sc.Err())
	return out
}

// goFields names the Go constant of every constant of the .vh.
var goFields = []struct {
	name string
	val  int
}{
	{"CTX_W", CtxW},
	{"CTX_VALID", CtxValid},
	{"CTX_FULL", CtxFull},
	{"CTX_ERR", CtxErr},
	{"CTX_SW_OWNED", CtxSWOwned},
	{"CTX_MARKERS", CtxMarkers},
	{"CTX_CRC", CtxCRC},
	{"CTX_R0_VALID", CtxR0Valid},
	{"CTX_R1_VALID", CtxR1Valid},
	{"CTX_STREAM", CtxStream},
	{"CTX_STREAM_W", CtxStreamW},
	{"CTX_DDP_VER", CtxDDPVer},
	{"CTX_DDP_VER_W", CtxDDPVerW},
	{"CTX_SEQ_START", CtxSeqStart},
	{"CTX_SEQ_START_W", CtxSeqStartW},
	{"CTX_RCV_NXT", CtxRcvNxt},
	{"CTX_RCV_NXT_W", CtxRcvNxtW},
	{"CTX_SRC_IP", CtxSrcIP},
	{"CTX_SRC_IP_W", CtxSrcIPW},
	{"CTX_DST_IP", CtxDstIP},
	{"CTX_DST_IP_W", CtxDstIPW},
	{"CTX_SRC_PORT", CtxSrcPort},
	{"CTX_SRC_PORT_W", CtxSrcPortW},
	{"CTX_DST_PORT", CtxDstPort},
	{"CTX_DST_PORT_W", CtxDstPortW},
	{"CTX_R0_START", CtxR0Start},
	{"CTX_R0_START_W", CtxR0StartW},
	{"CTX_R0_END", CtxR0End},
	{"CTX_R0_END_W", CtxR0EndW},
	{"CTX_R1_START", CtxR1Start},
	{"CTX_R1_START_W", CtxR1StartW},
	{"CTX_R1_END", CtxR1End},
	{"CTX_R1_END_W", CtxR1EndW},
	{"CFG_OP_W", CfgOpW},
	{"CFG_INDEX_W", CfgIndexW},
	{"CFG_DATA_W", CfgDataW},
	{"CFG_OP_CTX", OpContext},
	{"CFG_OP_STAG", OpSTag},
	{"CFG_OP_POST", OpPost},
	{"CFG_OP_MSN", OpMSN},
	{"STAG_VALID", STagValid},
	{"STAG_STAG", STagSTag},
	{"STAG_STAG_W", STagSTagW},
	{"STAG_STREAM", STagStream},
	{"STAG_STREAM_W", STagStreamW},
	{"STAG_BASE", STagBase},
	{"STAG_BASE_W", STagBaseW},
	{"STAG_LEN", STagLen},
	{"STAG_LEN_W", STagLenW},
	{"RBUF_QN", RBufQN},
	{"RBUF_QN_W", RBufQNW},
	{"RBUF_VALID", RBufValid},
	{"RBUF_MSN", RBufMSN},
	{"RBUF_MSN_W", RBufMSNW},
	{"RBUF_STREAM", RBufStream},
	{"RBUF_STREAM_W", RBufStreamW},
	{"RBUF_BASE", RBufBase},
	{"RBUF_BASE_W", RBufBaseW},
	{"RBUF_LEN", RBufLen},
	{"RBUF_LEN_W", RBufLenW},
	{"QMSN_QN", QMSNQN},
	{"QMSN_QN_W", QMSNQNW},
	{"QMSN_MSN", QMSNMSN},
	{"QMSN_MSN_W", QMSNMSNW},
	{"CLASS_OK", ClassOK},
	{"CLASS_NOT_TCP", ClassNotTCP},
	{"CLASS_DROP", ClassDrop},
	{"DROP_FCS", DropFCS},
	{"DROP_MALFORMED", DropMalformed},
	{"DROP_IP_CSUM", DropIPCsum},
	{"DROP_TCP_CSUM", DropTCPCsum},
	{"FRP_W", FRPW},
	{"FRP_CLASS", FRPClass},
	{"FRP_CLASS_W", FRPClassW},
	{"FRP_DROP", FRPDrop},
	{"FRP_DROP_W", FRPDropW},
	{"FRP_SEQ", FRPSeq},
	{"FRP_SEQ_W", FRPSeqW},
	{"FRP_FLAGS", FRPFlags},
	{"FRP_FLAGS_W", FRPFlagsW},
	{"FRP_PLEN", FRPPlen},
	{"FRP_PLEN_W", FRPPlenW},
	{"FRL_MATCH", FRLMatch},
	{"FRL_OVER", FRLOver},
	{"FRL_BEATS", FRLBeats},
	{"FRL_BEATS_W", FRLBeatsW},
	{"FRL_P0", FRLP0},
	{"FRL_P0_W", FRLP0W},
	{"FRL_STREAM", FRLStream},
	{"FRL_STREAM_W", FRLStreamW},
	{"FRL_DDP_VER", FRLDDPVer},
	{"FRL_DDP_VER_W", FRLDDPVerW},
	{"FRL_MARKERS", FRLMarkers},
	{"FRL_MPH", FRLMPH},
	{"FRL_MPH_W", FRLMPHW},
	{"FRL_IDX", FRLIdx},
	{"SUM_W", SumW},
	{"SUM_WHOLE", SumWhole},
	{"SUM_SMALL", SumSmall},
	{"SUM_GRID", SumGrid},
	{"SUM_CHECKS", SumChecks},
	{"SUM_FIRST_MARKER", SumFirstMarker},
	{"SUM_ANY_L", SumAnyL},
	{"SUM_NREC", SumNRec},
	{"SUM_NREC_W", SumNRecW},
	{"SUM_NRFC", SumNRFC},
	{"SUM_NRFC_W", SumNRFCW},
	{"SUM_NDRAFT", SumNDraft},
	{"SUM_NDRAFT_W", SumNDraftW},
	{"DDPC_DV", DDPCDV},
	{"DDPC_DV_W", DDPCDVW},
	{"DDPC_L", DDPCL},
	{"DDPC_T", DDPCT},
	{"DDPH_STAG", DDPHSTag},
	{"DDPH_STAG_W", DDPHSTagW},
	{"DDPH_TO", DDPHTO},
	{"DDPH_TO_W", DDPHTOW},
	{"DDPH_QN", DDPHQN},
	{"DDPH_QN_W", DDPHQNW},
	{"DDPH_MSN", DDPHMSN},
	{"DDPH_MSN_W", DDPHMSNW},
	{"DDPH_MO", DDPHMO},
	{"DDPH_MO_W", DDPHMOW},
	{"VQ_VERDICT", VQVerdict},
	{"VQ_VERDICT_W", VQVerdictW},
	{"VQ_REASON", VQReason},
	{"VQ_REASON_W", VQReasonW},
	{"VQ_DROP", VQDrop},
	{"VQ_DROP_W", VQDropW},
	{"VQ_SEQ", VQSeq},
	{"VQ_SEQ_W", VQSeqW},
	{"VQ_END", VQEnd},
	{"VQ_END_W", VQEndW},
	{"VQ_PLEN", VQPlen},
	{"VQ_PLEN_W", VQPlenW},
	{"VQ_BEATS", VQBeats},
	{"VQ_BEATS_W", VQBeatsW},
	{"VQ_ADV", VQAdv},
	{"VQ_ADV_W", VQAdvW},
	{"VQ_INORDER", VQInorder},
	{"VQ_NREC", VQNRec},
	{"VQ_NREC_W", VQNRecW},
	{"VQ_STREAM", VQStream},
	{"VQ_STREAM_W", VQStreamW},
	{"VQ_DDP_VER", VQDDPVer},
	{"VQ_DDP_VER_W", VQDDPVerW},
	{"VQ_MARKERS", VQMarkers},
	{"VQ_MPH", VQMPH},
	{"VQ_MPH_W", VQMPHW},
	{"VQ_P0", VQP0},
	{"VQ_P0_W", VQP0W},
	{"VQ_NRFC", VQNRFC},
	{"VQ_NRFC_W", VQNRFCW},
	{"VQ_NDRAFT", VQNDraft},
	{"VQ_NDRAFT_W", VQNDraftW},
	{"VQ_IDX", VQIdx},
	{"TOK_W", TokW},
	{"TOK_VERDICT", TokVerdict},
	{"TOK_VERDICT_W", TokVerdictW},
	{"TOK_REASON", TokReason},
	{"TOK_REASON_W", TokReasonW},
	{"TOK_BEATS", TokBeats},
	{"TOK_BEATS_W", TokBeatsW},
	{"TOK_NDESC", TokNDesc},
	{"TOK_NDESC_W", TokNDescW},
	{"DESC_W", DescW},
	{"DESC_ADDR", DescAddr},
	{"DESC_ADDR_W", DescAddrW},
	{"DESC_LEN", DescLen},
	{"DESC_LEN_W", DescLenW},
	{"DESC_OFF", DescOff},
	{"DESC_OFF_W", DescOffW},
	{"DESC_MPH", DescMPH},
	{"DESC_MPH_W", DescMPHW},
	{"DESC_MARKERS", DescMarkers},
	{"EVT_W", EvtW},
	{"EVT_KEEP_W", EvtKeepW},
	{"EVT_KIND", EvtKind},
	{"EVT_KIND_W", EvtKindW},
	{"EVT_IDX", EvtIdx},
	{"EVT_IDX_W", EvtIdxW},
	{"EVT_SEQ", EvtSeq},
	{"EVT_SEQ_W", EvtSeqW},
	{"EVT_END", EvtEnd},
	{"EVT_END_W", EvtEndW},
	{"EVT_KEY", EvtKey},
	{"EVT_KEY_W", EvtKeyW},
	{"EVT_LEN", EvtLen},
	{"EVT_LEN_W", EvtLenW},
	{"EVT_VERDICT", EvtVerdict},
	{"EVT_VERDICT_W", EvtVerdictW},
	{"EVT_DROP", EvtDrop},
	{"EVT_DROP_W", EvtDropW},
	{"EVT_REASON", EvtReason},
	{"EVT_REASON_W", EvtReasonW},
	{"EVT_NRFC", EvtNRFC},
	{"EVT_NRFC_W", EvtNRFCW},
	{"EVT_NDRAFT", EvtNDraft},
	{"EVT_NDRAFT_W", EvtNDraftW},
	{"EVT_CTRL", EvtCtrl},
	{"EVT_CTRL_W", EvtCtrlW},
	{"EVT_DDP_KIND", EvtDDPKind},
	{"EVT_DDP_KIND_W", EvtDDPKindW},
	{"EVT_QN", EvtQN},
	{"EVT_QN_W", EvtQNW},
	{"EVT_KIND_PLACED", EvPlaced},
	{"EVT_KIND_DDP_ERROR", EvDDPError},
	{"EVT_KIND_DELIVERED", EvDelivered},
	{"EVT_KIND_DROP", EvDrop},
	{"EVT_KIND_ADVANCED", EvAdvanced},
	{"EVT_KIND_CONSUMED", EvConsumed},
	{"EVT_KIND_VERDICT", EvVerdict},
	{"VERDICT_PLACE", VPlace},
	{"VERDICT_EXC", VException},
	{"VERDICT_DROP", VDrop},
	{"VERDICT_IGNORE", VIgnore},
	{"REASON_NONE", 0},
	{"REASON_NOT_TCP", int(fastpath.NotTCP)},
	{"REASON_NO_CONN", int(fastpath.NoConn)},
	{"REASON_NOT_FULL", int(fastpath.NotFull)},
	{"REASON_FLAGS", int(fastpath.Flags)},
	{"REASON_SW_OWNED", int(fastpath.SWOwned)},
	{"REASON_UNALIGNED", int(fastpath.Unaligned)},
	{"REASON_OOO", int(fastpath.OutOfOrder)},
	{"REASON_RANGES_FULL", int(fastpath.RangesFull)},
	{"REASON_MPA_CHECK", int(fastpath.MPACheck)},
	{"DDP_KIND_SHORT", int(ddp.KindShortHeader)},
	{"DDP_KIND_INV_STAG", int(ddp.KindInvalidSTag)},
	{"DDP_KIND_BOUNDS", int(ddp.KindBaseBounds)},
	{"DDP_KIND_NOT_ASSOC", int(ddp.KindSTagNotAssociated)},
	{"DDP_KIND_TO_WRAP", int(ddp.KindTOWrap)},
	{"DDP_KIND_T_VERSION", int(ddp.KindTaggedVersion)},
	{"DDP_KIND_INV_QN", int(ddp.KindInvalidQN)},
	{"DDP_KIND_NO_BUF", int(ddp.KindNoBuffer)},
	{"DDP_KIND_MSN_RANGE", int(ddp.KindMSNRange)},
	{"DDP_KIND_INV_MO", int(ddp.KindInvalidMO)},
	{"DDP_KIND_TOO_LONG", int(ddp.KindTooLong)},
	{"DDP_KIND_U_VERSION", int(ddp.KindUntaggedVersion)},
}

// Every constant of rtl/mpa_rx_fields.vh has the value of its Go
// counterpart, and every Go counterpart is in the .vh.
func TestFieldsMatchRTL(t *testing.T) {
	vh := readFields(t)
	seen := map[string]bool{}
	for _, g := range goFields {
		v, ok := vh[g.name]
		if assert.True(t, ok, "%s is not in mpa_rx_fields.vh", g.name) {
			assert.Equal(t, v, g.val, "%s", g.name)
		}
		seen[g.name] = true
	}
	for name := range vh {
		assert.True(t, seen[name], "%s of mpa_rx_fields.vh has no Go counterpart", name)
	}
}

// fieldsOf returns the fields of record prefix pre (NAME to [offset,
// width]) from the .vh: a field is PRE_X with an offset; its width is PRE_X_W
// or 1.
func fieldsOf(vh map[string]int, pre string, exclude ...string) map[string][2]int {
	out := map[string][2]int{}
	re := regexp.MustCompile("^" + pre + "_[A-Z0-9_]+$")
	skip := map[string]bool{pre + "_W": true}
	for _, x := range exclude {
		skip[x] = true
	}
	for name, v := range vh {
		if !re.MatchString(name) || skip[name] || regexp.MustCompile("_W$").MatchString(name) {
			continue
		}
		w, ok := vh[name+"_W"]
		if !ok {
			w = 1
		}
		out[name] = [2]int{v, w}
	}
	return out
}

// ones returns the bits [off, off+w) of a record of width bits as a
// record.
func ones(width, off, w int) Record {
	r := NewRecord(width)
	for i := 0; i < w; i++ {
		r.SetBit(off+i, true)
	}
	return r
}

// checkEncoder sets each field of a record through its Go encoder to all
// ones (set sets the field named by the .vh) and checks that exactly the
// .vh's bits come out, and that the fields tile the record without overlap.
func checkEncoder(t *testing.T, rec string, width int, fields map[string][2]int, set func(name string) Record) {
	t.Helper()
	used := NewRecord(width)
	for name, f := range fields {
		got := set(name)
		want := ones(width, f[0], f[1])
		assert.Equal(t, want, got, "%s: %s is bits [%d, %d)", rec, name, f[0], f[0]+f[1])
		for i := 0; i < f[1]; i++ {
			assert.False(t, used.Bit(f[0]+i), "%s: bit %d in two fields", rec, f[0]+i)
			used.SetBit(f[0]+i, true)
		}
	}
}

const testIdxBits = 10

// The Go encoders write every field where the .vh says it is.
func TestEncodersMatchRTL(t *testing.T) {
	vh := readFields(t)
	cfg := func(d CfgData) Record { return Record(d[:]) }
	t.Run("context", func(t *testing.T) {
		checkEncoder(t, "CTX", CtxW, fieldsOf(vh, "CTX"), func(name string) Record {
			var tu wire.FourTuple
			var c fastpath.Context
			var d CfgData
			switch name {
			case "CTX_VALID":
				d = EncodeContext(tu, c)
				return cfg(d)
			case "CTX_FULL":
				c.Full = true
			case "CTX_ERR":
				c.Err = true
			case "CTX_SW_OWNED":
				c.SWOwned = true
			case "CTX_MARKERS":
				c.Params.Markers = true
			case "CTX_CRC":
				c.Params.CRC = true
			case "CTX_STREAM":
				c.Stream = 0xfff
			case "CTX_DDP_VER":
				c.DDPVersion = 3
			case "CTX_SEQ_START":
				c.Params.SeqStart = ^uint32(0)
			case "CTX_RCV_NXT":
				c.RcvNxt = ^uint32(0)
			case "CTX_SRC_IP":
				tu.SrcIP = [4]byte{255, 255, 255, 255}
			case "CTX_DST_IP":
				tu.DstIP = [4]byte{255, 255, 255, 255}
			case "CTX_SRC_PORT":
				tu.SrcPort = 0xffff
			case "CTX_DST_PORT":
				tu.DstPort = 0xffff
			case "CTX_R0_VALID", "CTX_R1_VALID", "CTX_R0_START", "CTX_R0_END", "CTX_R1_START", "CTX_R1_END":
				// ranges come whole: isolate the field by two encodings
				full := fastpath.Range{Start: ^uint32(0), End: ^uint32(0)}
				c.Ranges = []fastpath.Range{{}, {}}
				switch name {
				case "CTX_R0_START":
					c.Ranges[0].Start = full.Start
				case "CTX_R0_END":
					c.Ranges[0].End = full.End
				case "CTX_R1_START":
					c.Ranges[1].Start = full.Start
				case "CTX_R1_END":
					c.Ranges[1].End = full.End
				}
				a, b := EncodeContext(tu, c), EncodeContext(tu, fastpath.Context{})
				x := NewRecord(CtxW)
				for i := range x {
					x[i] = a[i] ^ b[i]
				}
				if name == "CTX_R1_VALID" {
					c.Ranges = c.Ranges[:1]
					a0 := EncodeContext(tu, c)
					for i := range x {
						x[i] = a[i] ^ a0[i]
					}
				} else if name != "CTX_R0_VALID" {
					// the two valid bits are set by both: leave them out
					x.SetBit(CtxR0Valid, false)
					x.SetBit(CtxR1Valid, false)
				} else {
					c.Ranges = c.Ranges[:1]
					a0 := EncodeContext(tu, c)
					for i := range x {
						x[i] = a0[i] ^ b[i]
					}
				}
				return x
			default:
				t.Fatalf("no Go field for %s", name)
			}
			d = EncodeContext(tu, c)
			x := cfg(d)
			x.SetBit(CtxValid, false) // EncodeContext always sets valid
			return x
		})
		e := DecodeContext(EncodeContext(wire.FourTuple{SrcIP: [4]byte{1, 2, 3, 4}, SrcPort: 7},
			fastpath.Context{Full: true, RcvNxt: 9, Ranges: []fastpath.Range{{Start: 1, End: 2}}}))
		assert.True(t, e.Valid && e.Ctx.Full && e.Ctx.RcvNxt == 9 && e.Tuple.SrcPort == 7 && len(e.Ctx.Ranges) == 1)
	})
	t.Run("stag", func(t *testing.T) {
		checkEncoder(t, "STAG", CfgDataW, fieldsOf(vh, "STAG"), func(name string) Record {
			var e STagEntry
			switch name {
			case "STAG_VALID":
				e.Valid = true
			case "STAG_STAG":
				e.STag = ^uint32(0)
			case "STAG_STREAM":
				e.Stream = 0xfff
			case "STAG_BASE":
				e.Base = ^uint64(0)
			case "STAG_LEN":
				e.Length = ^uint64(0)
			default:
				t.Fatalf("no Go field for %s", name)
			}
			return cfg(EncodeSTag(e))
		})
	})
	recv := func(pre string) func(name string) Record {
		return func(name string) Record {
			var e RecvEntry
			switch name[len(pre)+1:] {
			case "QN":
				e.QN = 3
			case "VALID":
				e.Valid = true
			case "MSN":
				e.MSN = ^uint32(0)
			case "STREAM":
				e.Stream = 0xfff
			case "BASE":
				e.Base = ^uint64(0)
			case "LEN":
				e.Length = ^uint32(0)
			default:
				t.Fatalf("no Go field for %s", name)
			}
			return cfg(EncodeRecv(e))
		}
	}
	t.Run("rbuf", func(t *testing.T) { checkEncoder(t, "RBUF", CfgDataW, fieldsOf(vh, "RBUF"), recv("RBUF")) })
	t.Run("qmsn", func(t *testing.T) { checkEncoder(t, "QMSN", CfgDataW, fieldsOf(vh, "QMSN"), recv("QMSN")) })
	t.Run("frp", func(t *testing.T) {
		checkEncoder(t, "FRP", FRPW, fieldsOf(vh, "FRP"), func(name string) Record {
			var f FrameRecord
			switch name {
			case "FRP_CLASS":
				f.Class = 3
			case "FRP_DROP":
				f.Drop = 3
			case "FRP_SEQ":
				f.Seq = ^uint32(0)
			case "FRP_FLAGS":
				f.Flags = 0xff
			case "FRP_PLEN":
				f.PayLen = 0xffff
			default:
				t.Fatalf("no Go field for %s", name)
			}
			return f.EncodeFRP()
		})
	})
	t.Run("frl", func(t *testing.T) {
		fs := fieldsOf(vh, "FRL")
		fs["FRL_IDX"] = [2]int{FRLIdx, testIdxBits}
		checkEncoder(t, "FRL", FRLIdx+testIdxBits, fs, func(name string) Record {
			var f FrameRecord
			switch name {
			case "FRL_MATCH":
				f.Match = true
			case "FRL_OVER":
				f.Over = true
			case "FRL_BEATS":
				f.Beats = 0xffff
			case "FRL_P0":
				f.P0 = 0xffff
			case "FRL_STREAM":
				f.Stream = 0xfff
			case "FRL_DDP_VER":
				f.DDPVersion = 3
			case "FRL_MARKERS":
				f.Markers = true
			case "FRL_MPH":
				f.MPH = 511
			case "FRL_IDX":
				f.Index = 1<<testIdxBits - 1
			default:
				t.Fatalf("no Go field for %s", name)
			}
			return f.EncodeFRL(testIdxBits)
		})
	})
	t.Run("sum", func(t *testing.T) {
		checkEncoder(t, "SUM", SumW, fieldsOf(vh, "SUM"), func(name string) Record {
			var s Summary
			switch name {
			case "SUM_WHOLE":
				s.Whole = true
			case "SUM_SMALL":
				s.Small = true
			case "SUM_GRID":
				s.Grid = true
			case "SUM_CHECKS":
				s.Checks = true
			case "SUM_FIRST_MARKER":
				s.FirstMarker = true
			case "SUM_ANY_L":
				s.AnyL = true
			case "SUM_NREC":
				s.NRec = 0xffff
			case "SUM_NRFC":
				s.NRFC = 0xff
			case "SUM_NDRAFT":
				s.NDraft = 0xff
			default:
				t.Fatalf("no Go field for %s", name)
			}
			return s.Encode()
		})
	})
	t.Run("vq", func(t *testing.T) {
		fs := fieldsOf(vh, "VQ")
		fs["VQ_IDX"] = [2]int{VQIdx, testIdxBits}
		checkEncoder(t, "VQ", VQIdx+testIdxBits, fs, func(name string) Record {
			v := allOnesVerdict(name)
			r := v.Encode(testIdxBits)
			assert.Equal(t, v, DecodeVerdictRecord(r, testIdxBits), "%s: decode", name)
			return r
		})
	})
	t.Run("tok", func(t *testing.T) {
		checkEncoder(t, "TOK", TokW, fieldsOf(vh, "TOK"), func(name string) Record {
			var k Token
			switch name {
			case "TOK_VERDICT":
				k.Verdict = 3
			case "TOK_REASON":
				k.Reason = 15
			case "TOK_BEATS":
				k.Beats = 0xffff
			case "TOK_NDESC":
				k.NDesc = 0xffff
			default:
				t.Fatalf("no Go field for %s", name)
			}
			r := k.Encode()
			assert.Equal(t, k, DecodeToken(r))
			return r
		})
	})
	t.Run("desc", func(t *testing.T) {
		checkEncoder(t, "DESC", DescW, fieldsOf(vh, "DESC"), func(name string) Record {
			var d Desc
			switch name {
			case "DESC_ADDR":
				d.Addr = ^uint64(0)
			case "DESC_LEN":
				d.Len = 0xffff
			case "DESC_OFF":
				d.Off = 0xffff
			case "DESC_MPH":
				d.MPH = 511
			case "DESC_MARKERS":
				d.Markers = true
			default:
				t.Fatalf("no Go field for %s", name)
			}
			r := d.Encode()
			assert.Equal(t, d, DecodeDesc(r))
			return r
		})
	})
	t.Run("ddp-header", func(t *testing.T) {
		// a tagged and an untagged header: each field where the .vh says
		tagged := []byte{0x80 | 0x40 | 1, 0, 0xa1, 0xa2, 0xa3, 0xa4, 1, 2, 3, 4, 5, 6, 7, 8}
		ctrl, hdr := DDPHeader(tagged)
		assert.Equal(t, uint64(0xa1a2a3a4), hdr.Field(DDPHSTag, DDPHSTagW))
		assert.Equal(t, uint64(0x0102030405060708), hdr.Field(DDPHTO, DDPHTOW))
		assert.Equal(t, uint8(1), ctrl>>DDPCT&1)
		assert.Equal(t, uint8(1), ctrl>>DDPCL&1)
		assert.Equal(t, uint8(1), ctrl>>DDPCDV&(1<<DDPCDVW-1))
		h, _, err := ddp.ParseHeader(tagged)
		require.NoError(t, err)
		assert.Equal(t, h.STag, uint32(hdr.Field(DDPHSTag, DDPHSTagW)))
		untagged := []byte{0x41, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 9, 0, 0, 1, 0}
		_, hdr = DDPHeader(untagged)
		h, _, err = ddp.ParseHeader(untagged)
		require.NoError(t, err)
		assert.Equal(t, uint64(h.QN), hdr.Field(DDPHQN, DDPHQNW))
		assert.Equal(t, uint64(h.MSN), hdr.Field(DDPHMSN, DDPHMSNW))
		assert.Equal(t, uint64(h.MO), hdr.Field(DDPHMO, DDPHMOW))
	})
	t.Run("event", func(t *testing.T) {
		seg := fieldsOf(vh, "EVT", "EVT_KEEP_W", "EVT_KEY", "EVT_DROP", "EVT_CTRL", "EVT_DDP_KIND", "EVT_QN")
		for name := range seg {
			if regexp.MustCompile("^EVT_KIND_[A-Z]").MatchString(name) {
				delete(seg, name)
			}
		}
		fpdu := fieldsOf(vh, "EVT", "EVT_KEEP_W", "EVT_END", "EVT_DROP", "EVT_VERDICT", "EVT_REASON", "EVT_NRFC",
			"EVT_NDRAFT")
		for name := range fpdu {
			if regexp.MustCompile("^EVT_KIND_[A-Z]").MatchString(name) {
				delete(fpdu, name)
			}
		}
		ev := func(kind int, name string) Record {
			e := Event{Kind: kind}
			switch name {
			case "EVT_KIND":
				e.Kind = 15
			case "EVT_IDX":
				e.Index = 0xfff
			case "EVT_SEQ":
				e.Seq = ^uint32(0)
			case "EVT_END", "EVT_KEY":
				e.End = ^uint32(0)
			case "EVT_LEN":
				e.Len = 0xffff
			case "EVT_VERDICT":
				e.Verdict = 3
			case "EVT_REASON":
				e.Reason = 15
			case "EVT_NRFC":
				e.NRFC = 0xff
			case "EVT_NDRAFT":
				e.NDraft = 0xff
			case "EVT_CTRL":
				e.Ctrl = 0xff
			case "EVT_DDP_KIND":
				e.DDPKind = 15
			case "EVT_QN":
				e.QN = 3
			default:
				t.Fatalf("no Go field for %s", name)
			}
			w := e.Encode()
			assert.Equal(t, e, Decode(w), "%s: decode", name)
			x := Record(w[:])
			if name != "EVT_KIND" {
				x.SetField(EvtKind, EvtKindW, 0)
			}
			return x
		}
		checkEncoder(t, "EVT (segment)", EvtW, seg, func(name string) Record {
			if name == "EVT_KIND" {
				return ev(EvAdvanced, name)
			}
			return ev(EvAdvanced, name)
		})
		checkEncoder(t, "EVT (FPDU)", EvtW, fpdu, func(name string) Record { return ev(EvDDPError, name) })
		assert.Equal(t, vh["EVT_DROP"], vh["EVT_VERDICT"], "the drop code is where the verdict is")
		assert.Equal(t, vh["EVT_KEY"], vh["EVT_END"], "the key is where the end is")
		assert.Equal(t, 16, EvtKeepW, "a lane's tkeep is its octets")
		assert.Equal(t, EvtW, 8*EvtKeepW)
	})
}

// allOnesVerdict returns a verdict record with the field name all ones.
func allOnesVerdict(name string) VerdictRecord {
	var v VerdictRecord
	switch name {
	case "VQ_VERDICT":
		v.Verdict = 3
	case "VQ_REASON":
		v.Reason = 15
	case "VQ_DROP":
		v.Drop = 3
	case "VQ_SEQ":
		v.Seq = ^uint32(0)
	case "VQ_END":
		v.End = ^uint32(0)
	case "VQ_PLEN":
		v.PayLen = 0xffff
	case "VQ_BEATS":
		v.Beats = 0xffff
	case "VQ_ADV":
		v.Adv = ^uint32(0)
	case "VQ_INORDER":
		v.InOrder = true
	case "VQ_NREC":
		v.NRec = 0xffff
	case "VQ_STREAM":
		v.Stream = 0xfff
	case "VQ_DDP_VER":
		v.DDPVersion = 3
	case "VQ_MARKERS":
		v.Markers = true
	case "VQ_MPH":
		v.MPH = 511
	case "VQ_P0":
		v.P0 = 0xffff
	case "VQ_NRFC":
		v.NRFC = 0xff
	case "VQ_NDRAFT":
		v.NDraft = 0xff
	case "VQ_IDX":
		v.Index = 1<<testIdxBits - 1
	default:
		panic(fmt.Sprintf("no Go field for %s", name))
	}
	return v
}
