package cycle

import (
	"bufio"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
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
	{"WALK_REC_W", WalkRecW},
	{"WALK_REC_LAST", WalkRecLast},
	{"WALK_REC_FIRST", WalkRecFirst},
	{"WALK_REC_HDR", WalkRecHdr},
	{"WALK_REC_HDR_W", WalkRecHdrW},
	{"WALK_REC_WORD", WalkRecWord},
	{"WALK_REC_WORD_W", WalkRecWordW},
	{"WALK_REC_ULEN", WalkRecULen},
	{"WALK_REC_ULEN_W", WalkRecULenW},
	{"WALK_REC_CTRL", WalkRecCtrl},
	{"WALK_REC_CTRL_W", WalkRecCtrlW},
	{"WALK_REC_ULP", WalkRecULP},
	{"WALK_REC_ULP_W", WalkRecULPW},
	{"WALK_REC_LSEQ", WalkRecLSeq},
	{"WALK_REC_LSEQ_W", WalkRecLSeqW},
	{"WALK_SUM_W", WalkSumW},
	{"WALK_SUM_MARKER_OK", WalkSumMarkerOK},
	{"WALK_SUM_NREC", WalkSumNRec},
	{"WALK_SUM_NREC_W", WalkSumNRecW},
	{"WALK_SUM_OK", WalkSumOK},
	{"WALK_SUM_NFPDU", WalkSumNFPDU},
	{"WALK_SUM_NFPDU_W", WalkSumNFPDUW},
	{"WALK_SUM_ANY_L", WalkSumAnyL},
	{"WALK_SUM_FIRST_MARKER", WalkSumFirstMarker},
	{"WALK_SUM_GRID", WalkSumGrid},
	{"WALK_SUM_SMALL", WalkSumSmall},
	{"WALK_SUM_WHOLE", WalkSumWhole},
	{"WALK_SUM_NDRAFT", WalkSumNDraft},
	{"WALK_SUM_NDRAFT_W", WalkSumNDraftW},
	{"WALK_SUM_NRFC", WalkSumNRFC},
	{"WALK_SUM_NRFC_W", WalkSumNRFCW},
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
	{"CTX_V6", CtxV6},
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
	{"CFG_OP_ADDR6", OpAddr6},
	{"ADDR6_SRC", Addr6Src},
	{"ADDR6_SRC_W", Addr6SrcW},
	{"ADDR6_DST", Addr6Dst},
	{"ADDR6_DST_W", Addr6DstW},
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
	{"NOT_TCP_OTHER", NotTCPOther},
	{"NOT_TCP_IPV6_EXT", NotTCPIPv6Ext},
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
	{"REASON_IPV6_EXT", int(fastpath.IPv6Ext)},
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

// setOnes sets the Go field path (dot-separated) of the struct *p to all
// ones in width bits.
func setOnes(t *testing.T, p any, path string, width int) {
	t.Helper()
	v := reflect.ValueOf(p).Elem()
	for _, f := range strings.Split(path, ".") {
		v = v.FieldByName(f)
		require.True(t, v.IsValid(), "no Go field %s", path)
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(1<<width - 1)
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(^uint64(0) >> (64 - width))
	case reflect.Array: // an IPv4 address
		for i := 0; i < v.Len(); i++ {
			v.Index(i).SetUint(0xff)
		}
	default:
		t.Fatalf("Go field %s of kind %v", path, v.Kind())
	}
}

// record is a Go record type under test: the .vh fields of prefix pre
// (and an index of testIdxBits bits when idx), the Go field each is, and
// the encoding of a value of the type.
type record[T any] struct {
	pre    string
	width  int
	idx    bool
	fields map[string]string
	encode func(T) Record
}

func (r record[T]) check(t *testing.T, vh map[string]int) {
	fs := fieldsOf(vh, r.pre)
	if r.idx {
		fs[r.pre+"_IDX"] = [2]int{vh[r.pre+"_IDX"], testIdxBits}
	}
	require.Len(t, r.fields, len(fs), "%s: Go fields for %v", r.pre, fs)
	checkEncoder(t, r.pre, r.width, fs, func(name string) Record {
		var v T
		f, ok := r.fields[name]
		require.True(t, ok, "no Go field for %s", name)
		setOnes(t, &v, f, fs[name][1])
		return r.encode(v)
	})
}

const testIdxBits = 10

// The Go encoders write every field where the .vh says it is.
func TestEncodersMatchRTL(t *testing.T) {
	vh := readFields(t)
	cfg := func(d CfgData) Record { return Record(d[:]) }
	t.Run("context", func(t *testing.T) {
		type ctx struct {
			T wire.FourTuple
			C fastpath.Context
		}
		// EncodeContext always sets valid, and the ranges come whole: the
		// range fields are checked by differences below
		record[ctx]{"CTX", CtxW, false, map[string]string{
			"CTX_VALID": "C.Full", "CTX_FULL": "C.Full", "CTX_ERR": "C.Err", "CTX_SW_OWNED": "C.SWOwned",
			"CTX_MARKERS": "C.Params.Markers", "CTX_CRC": "C.Params.CRC", "CTX_STREAM": "C.Stream",
			"CTX_DDP_VER": "C.DDPVersion", "CTX_SEQ_START": "C.Params.SeqStart", "CTX_RCV_NXT": "C.RcvNxt",
			"CTX_SRC_IP": "T.SrcIP", "CTX_DST_IP": "T.DstIP", "CTX_SRC_PORT": "T.SrcPort", "CTX_DST_PORT": "T.DstPort",
			"CTX_R0_VALID": "C.Full", "CTX_R1_VALID": "C.Full", "CTX_R0_START": "C.Full", "CTX_R0_END": "C.Full",
			"CTX_R1_START": "C.Full", "CTX_R1_END": "C.Full", "CTX_V6": "C.Full",
		}, nil}.checkContext(t, vh)
		e := DecodeContext(EncodeContext(wire.FourTuple{SrcIP: wire.AddrFrom4([4]byte{1, 2, 3, 4}), SrcPort: 7},
			fastpath.Context{Full: true, RcvNxt: 9, Ranges: []fastpath.Range{{Start: 1, End: 2}}}))
		assert.True(t, e.Valid && e.Ctx.Full && e.Ctx.RcvNxt == 9 && e.Tuple.SrcPort == 7 && len(e.Ctx.Ranges) == 1)
	})
	t.Run("addr6", func(t *testing.T) {
		// each address where the .vh says, its first octet in the top bits
		fs := fieldsOf(vh, "ADDR6")
		require.Len(t, fs, 2)
		var ones wire.Addr
		for i := range ones {
			ones[i] = 0xff
		}
		checkEncoder(t, "ADDR6", CfgDataW, fs, func(name string) Record {
			d := map[string]CfgData{"ADDR6_SRC": EncodeAddr6(ones, wire.Addr{}), "ADDR6_DST": EncodeAddr6(wire.Addr{}, ones)}[name]
			return Record(d[:])
		})
		src, dst := wire.Addr{0: 0x20, 1: 0x01, 15: 1}, wire.Addr{0: 0xfe, 1: 0x80, 14: 2}
		d := EncodeAddr6(src, dst)
		assert.Equal(t, uint64(0x2001)<<48, d.Field(Addr6Src+64, 64), "first octets at the top")
		s2, d2 := DecodeAddr6(d)
		assert.Equal(t, [2]wire.Addr{src, dst}, [2]wire.Addr{s2, d2})
		tp := wire.FourTuple{SrcIP: src, DstIP: dst, SrcPort: 1, DstPort: 2}
		ws := EncodeContextWrites(tp, fastpath.Context{Full: true}, 3)
		require.Len(t, ws, 2)
		assert.Equal(t, []int{OpAddr6, OpContext}, []int{ws[0].Op, ws[1].Op})
		e := DecodeContext6(ws[1].Data, s2, d2)
		assert.Equal(t, tp, e.Tuple)
	})
	t.Run("stag", func(t *testing.T) {
		record[STagEntry]{"STAG", CfgDataW, false, map[string]string{"STAG_VALID": "Valid", "STAG_STAG": "STag",
			"STAG_STREAM": "Stream", "STAG_BASE": "Base", "STAG_LEN": "Length"},
			func(e STagEntry) Record { return cfg(EncodeSTag(e)) }}.check(t, vh)
	})
	recv := func(e RecvEntry) Record { return cfg(EncodeRecv(e)) }
	t.Run("rbuf", func(t *testing.T) {
		record[RecvEntry]{"RBUF", CfgDataW, false, map[string]string{"RBUF_QN": "QN", "RBUF_VALID": "Valid",
			"RBUF_MSN": "MSN", "RBUF_STREAM": "Stream", "RBUF_BASE": "Base", "RBUF_LEN": "Length"}, recv}.check(t, vh)
	})
	t.Run("qmsn", func(t *testing.T) {
		record[RecvEntry]{"QMSN", CfgDataW, false, map[string]string{"QMSN_QN": "QN", "QMSN_MSN": "MSN"}, recv}.check(t, vh)
	})
	t.Run("frp", func(t *testing.T) {
		record[FrameRecord]{"FRP", FRPW, false, map[string]string{"FRP_CLASS": "Class", "FRP_DROP": "Drop",
			"FRP_SEQ": "Seq", "FRP_FLAGS": "Flags", "FRP_PLEN": "PayLen"},
			FrameRecord.EncodeFRP}.check(t, vh)
	})
	t.Run("frl", func(t *testing.T) {
		record[FrameRecord]{"FRL", FRLIdx + testIdxBits, true, map[string]string{"FRL_MATCH": "Match", "FRL_OVER": "Over",
			"FRL_BEATS": "Beats", "FRL_P0": "P0", "FRL_STREAM": "Stream", "FRL_DDP_VER": "DDPVersion",
			"FRL_MARKERS": "Markers", "FRL_MPH": "MPH", "FRL_IDX": "Index"},
			func(f FrameRecord) Record { return f.EncodeFRL(testIdxBits) }}.check(t, vh)
	})
	t.Run("sum", func(t *testing.T) {
		record[Summary]{"SUM", SumW, false, map[string]string{"SUM_WHOLE": "Whole", "SUM_SMALL": "Small",
			"SUM_GRID": "Grid", "SUM_CHECKS": "Checks", "SUM_FIRST_MARKER": "FirstMarker", "SUM_ANY_L": "AnyL",
			"SUM_NREC": "NRec", "SUM_NRFC": "NRFC", "SUM_NDRAFT": "NDraft"}, Summary.Encode}.check(t, vh)
	})
	t.Run("vq", func(t *testing.T) {
		record[VerdictRecord]{"VQ", VQIdx + testIdxBits, true, map[string]string{"VQ_VERDICT": "Verdict",
			"VQ_REASON": "Reason", "VQ_DROP": "Drop", "VQ_SEQ": "Seq", "VQ_END": "End", "VQ_PLEN": "PayLen",
			"VQ_BEATS": "Beats", "VQ_ADV": "Adv", "VQ_INORDER": "InOrder", "VQ_NREC": "NRec", "VQ_STREAM": "Stream",
			"VQ_DDP_VER": "DDPVersion", "VQ_MARKERS": "Markers", "VQ_MPH": "MPH", "VQ_P0": "P0", "VQ_NRFC": "NRFC",
			"VQ_NDRAFT": "NDraft", "VQ_IDX": "Index"},
			func(v VerdictRecord) Record {
				r := v.Encode(testIdxBits)
				assert.Equal(t, v, DecodeVerdictRecord(r, testIdxBits), "decode")
				return r
			}}.check(t, vh)
	})
	t.Run("tok", func(t *testing.T) {
		record[Token]{"TOK", TokW, false, map[string]string{"TOK_VERDICT": "Verdict", "TOK_REASON": "Reason",
			"TOK_BEATS": "Beats", "TOK_NDESC": "NDesc"},
			func(k Token) Record {
				r := k.Encode()
				assert.Equal(t, k, DecodeToken(r), "decode")
				return r
			}}.check(t, vh)
	})
	t.Run("desc", func(t *testing.T) {
		record[Desc]{"DESC", DescW, false, map[string]string{"DESC_ADDR": "Addr", "DESC_LEN": "Len",
			"DESC_OFF": "Off", "DESC_MPH": "MPH", "DESC_MARKERS": "Markers"},
			func(d Desc) Record {
				r := d.Encode()
				assert.Equal(t, d, DecodeDesc(r), "decode")
				return r
			}}.check(t, vh)
	})
	t.Run("ddp-header", func(t *testing.T) {
		// a tagged and an untagged header: each field where the .vh says
		tagged := []byte{0x80 | 0x40 | 1, 0, 0xa1, 0xa2, 0xa3, 0xa4, 1, 2, 3, 4, 5, 6, 7, 8}
		ctrl, hdr := DDPHeader(tagged)
		h, _, err := ddp.ParseHeader(tagged)
		require.NoError(t, err)
		assert.Equal(t, uint64(h.STag), hdr.Field(DDPHSTag, DDPHSTagW))
		assert.Equal(t, h.TO, hdr.Field(DDPHTO, DDPHTOW))
		assert.Equal(t, h.Tagged, ctrl>>DDPCT&1 == 1)
		assert.Equal(t, h.Last, ctrl>>DDPCL&1 == 1)
		assert.Equal(t, h.Version, ctrl>>DDPCDV&(1<<DDPCDVW-1))
		untagged := []byte{0x41, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 9, 0, 0, 1, 0}
		_, hdr = DDPHeader(untagged)
		h, _, err = ddp.ParseHeader(untagged)
		require.NoError(t, err)
		assert.Equal(t, uint64(h.QN), hdr.Field(DDPHQN, DDPHQNW))
		assert.Equal(t, uint64(h.MSN), hdr.Field(DDPHMSN, DDPHMSNW))
		assert.Equal(t, uint64(h.MO), hdr.Field(DDPHMO, DDPHMOW))
	})
	t.Run("event", func(t *testing.T) {
		// the fields of the segment kinds and of the FPDU kinds (END and
		// KEY, VERDICT and DROP share their places)
		evt := func(kind int) func(e Event) Record {
			return func(e Event) Record {
				k := e.Kind
				if e.Kind == 0 {
					e.Kind = kind
				}
				w := e.Encode()
				assert.Equal(t, e, Decode(w), "decode")
				x := Record(w[:])
				if k == 0 {
					x.SetField(EvtKind, EvtKindW, 0)
				}
				return x
			}
		}
		common := map[string]string{"EVT_KIND": "Kind", "EVT_IDX": "Index", "EVT_SEQ": "Seq", "EVT_LEN": "Len"}
		seg := map[string]string{"EVT_END": "End", "EVT_VERDICT": "Verdict", "EVT_REASON": "Reason",
			"EVT_NRFC": "NRFC", "EVT_NDRAFT": "NDraft"}
		fpdu := map[string]string{"EVT_KEY": "End", "EVT_CTRL": "Ctrl", "EVT_DDP_KIND": "DDPKind", "EVT_QN": "QN"}
		for k, v := range common {
			seg[k], fpdu[k] = v, v
		}
		pick := func(names map[string]string) map[string][2]int {
			all := fieldsOf(vh, "EVT")
			out := map[string][2]int{}
			for n := range names {
				out[n] = all[n]
			}
			return out
		}
		check := func(rec string, names map[string]string, kind int) {
			fs := pick(names)
			checkEncoder(t, rec, EvtW, fs, func(name string) Record {
				var e Event
				setOnes(t, &e, names[name], fs[name][1])
				return evt(kind)(e)
			})
		}
		check("EVT (segment)", seg, EvAdvanced)
		check("EVT (FPDU)", fpdu, EvDDPError)
		// every EVT_ field is in one of the two
		for name := range fieldsOf(vh, "EVT", "EVT_KEEP_W") {
			if _, ok := seg[name]; !ok && !strings.HasPrefix(name, "EVT_KIND_") {
				_, ok = fpdu[name]
				assert.True(t, ok || name == "EVT_DROP", "%s: no Go field", name)
			}
		}
		assert.Equal(t, vh["EVT_DROP"], vh["EVT_VERDICT"], "the drop code is where the verdict is")
		assert.Equal(t, vh["EVT_KEY"], vh["EVT_END"], "the key is where the end is")
		assert.Equal(t, EvtW, 8*EvtKeepW, "a lane's tkeep is its octets")
	})
}

// checkContext checks the context entry: the fields but the ranges one by
// one (valid is always set), the ranges by the difference of encodings.
func (r record[T]) checkContext(t *testing.T, vh map[string]int) {
	fs := fieldsOf(vh, "CTX")
	empty := EncodeContext(wire.FourTuple{}, fastpath.Context{})
	base := Record(empty[:])
	diff := func(a CfgData) Record {
		x := NewRecord(CtxW)
		for i := range x {
			x[i] = a[i] ^ base[i]
		}
		return x
	}
	full := ^uint32(0)
	rng := func(i int, set func(*fastpath.Range)) Record {
		c := fastpath.Context{Ranges: make([]fastpath.Range, i+1)}
		set(&c.Ranges[i])
		x := diff(EncodeContext(wire.FourTuple{}, c))
		x.SetBit(CtxR0Valid, false)
		x.SetBit(CtxR1Valid, false)
		return x
	}
	checkEncoder(t, "CTX", CtxW, fs, func(name string) Record {
		switch name {
		case "CTX_VALID":
			return ones(CtxW, CtxValid, 1).and(base)
		case "CTX_R0_VALID", "CTX_R1_VALID":
			i := map[string]int{"CTX_R0_VALID": 0, "CTX_R1_VALID": 1}[name]
			a := EncodeContext(wire.FourTuple{}, fastpath.Context{Ranges: make([]fastpath.Range, i+1)})
			x := diff(a)
			if i == 1 {
				x.SetBit(CtxR0Valid, false)
			}
			return x
		case "CTX_R0_START":
			return rng(0, func(g *fastpath.Range) { g.Start = full })
		case "CTX_R0_END":
			return rng(0, func(g *fastpath.Range) { g.End = full })
		case "CTX_R1_START":
			return rng(1, func(g *fastpath.Range) { g.Start = full })
		case "CTX_R1_END":
			return rng(1, func(g *fastpath.Range) { g.End = full })
		case "CTX_SRC_IP":
			return diff(EncodeContext(wire.FourTuple{SrcIP: wire.AddrFrom4([4]byte{255, 255, 255, 255})}, fastpath.Context{}))
		case "CTX_DST_IP":
			return diff(EncodeContext(wire.FourTuple{SrcIP: wire.AddrFrom4([4]byte{}),
				DstIP: wire.AddrFrom4([4]byte{255, 255, 255, 255})}, fastpath.Context{}))
		case "CTX_V6":
			// an IPv6 half connection: the bit, and no IPv4 address
			return diff(EncodeContext(wire.FourTuple{SrcIP: wire.Addr{0: 0x20, 1: 0x01, 15: 1}}, fastpath.Context{}))
		}
		var v struct {
			T wire.FourTuple
			C fastpath.Context
		}
		setOnes(t, &v, r.fields[name], fs[name][1])
		// an IPv4 half connection (zero addresses in the IPv4-mapped form)
		v.T.SrcIP, v.T.DstIP = wire.AddrFrom4([4]byte{}), wire.AddrFrom4([4]byte{})
		return diff(EncodeContext(v.T, v.C))
	})
}

// and returns the bits of r that are set in m.
func (r Record) and(m Record) Record {
	x := NewRecord(64 * len(r))
	for i := range r {
		x[i] = r[i] & m[i]
	}
	return x
}
