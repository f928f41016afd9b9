package cycle

import (
	"fmt"

	"github.com/mparx/mparx/golden/fastpath"
)

// Event kinds on m_evt (docs/design.md section 4).
const (
	EvPlaced    = 1
	EvDDPError  = 2
	EvDelivered = 3
	EvDrop      = 4
	EvAdvanced  = 5
	EvConsumed  = 6
	EvVerdict   = 7
)

// Verdict codes of the VERDICT event.
const (
	VPlace     = 0
	VException = 1
	VDrop      = 2
	VIgnore    = 3
)

var verdictCode = map[fastpath.Verdict]int{fastpath.Place: VPlace, fastpath.Exception: VException, fastpath.Drop: VDrop, fastpath.Ignore: VIgnore}

// VerdictCode returns the verdict code a VERDICT event carries for a
// fastpath verdict.
func VerdictCode(v fastpath.Verdict) int { return verdictCode[v] }

// Event is one m_evt beat, decoded. Which fields a kind uses is section 4.
type Event struct {
	Kind    int
	Index   int    // [123:112] context index
	Seq     uint32 // [111:80]
	End     uint32 // [79:48] end, new rcv_nxt, STag or MSN
	Len     int    // [47:32] payload length or ULPDU_Length
	Ctrl    uint8  // [31:24] DDP control (PLACED, DDP_ERROR, DELIVERED)
	Verdict int    // [29:28] verdict or drop code (VERDICT, DROP)
	Reason  int    // [27:24] (VERDICT)
	DDPKind int    // [23:20] (DDP_ERROR)
	QN      int    // [19:18] (untagged PLACED, DDP_ERROR, DELIVERED)
	// [23:16] and [15:8] (ADVANCED, CONSUMED): the segment's FPDUs that
	// began with a marker and held a later one, by FPDUPTR form: RFC 5044,
	// draft-01.
	NRFC, NDraft int
}

// Word is a 128-bit event as two 64-bit words, least significant first
// (the m_evt_tdata layout of the cycle records).
type Word [2]uint64

// Encode returns the m_evt_tdata of the event. Bits a kind does not use
// are zero.
func (e Event) Encode() Word {
	hi := uint64(e.Kind&0xf)<<60 | uint64(e.Index&0xfff)<<48 | uint64(e.Seq)<<16 | uint64(e.End>>16)
	lo := uint64(e.End&0xffff)<<48 | uint64(e.Len&0xffff)<<32
	switch e.Kind {
	case EvVerdict, EvDrop, EvAdvanced, EvConsumed:
		lo |= uint64(e.Verdict&3)<<28 | uint64(e.Reason&0xf)<<24
		if e.Kind == EvAdvanced || e.Kind == EvConsumed {
			lo |= uint64(e.NRFC&0xff)<<16 | uint64(e.NDraft&0xff)<<8
		}
	default:
		lo |= uint64(e.Ctrl)<<24 | uint64(e.DDPKind&0xf)<<20 | uint64(e.QN&3)<<18
	}
	return Word{lo, hi}
}

// Decode decodes an m_evt_tdata value.
func Decode(w Word) Event {
	lo, hi := w[0], w[1]
	e := Event{
		Kind:  int(hi >> 60),
		Index: int(hi >> 48 & 0xfff),
		Seq:   uint32(hi >> 16),
		End:   uint32((hi&0xffff)<<16 | lo>>48),
		Len:   int(lo >> 32 & 0xffff),
	}
	switch e.Kind {
	case EvVerdict, EvDrop, EvAdvanced, EvConsumed:
		e.Verdict, e.Reason = int(lo>>28&3), int(lo>>24&0xf)
		if e.Kind == EvAdvanced || e.Kind == EvConsumed {
			e.NRFC, e.NDraft = int(lo>>16&0xff), int(lo>>8&0xff)
		}
	default:
		e.Ctrl, e.DDPKind, e.QN = uint8(lo>>24), int(lo>>20&0xf), int(lo>>18&3)
	}
	return e
}

var kindNames = [...]string{"?", "PLACED", "DDP_ERROR", "DELIVERED", "DROP", "ADVANCED", "CONSUMED", "VERDICT"}

// String renders the event for reports.
func (e Event) String() string {
	k := "?"
	if e.Kind > 0 && e.Kind < len(kindNames) {
		k = kindNames[e.Kind]
	}
	switch e.Kind {
	case EvVerdict, EvDrop, EvAdvanced, EvConsumed:
		return fmt.Sprintf("%s idx=%d seq=%d end=%d len=%d v=%d r=%d rfc5044=%d draft01=%d", k, e.Index, e.Seq, e.End, e.Len, e.Verdict, e.Reason, e.NRFC, e.NDraft)
	}
	return fmt.Sprintf("%s idx=%d seq=%d stag/msn=%#x len=%d ctrl=%#02x kind=%d qn=%d", k, e.Index, e.Seq, e.End, e.Len, e.Ctrl, e.DDPKind, e.QN)
}

// HeaderMask is the mask of the m_evt_tdata bits that a VERDICT or DROP
// event of a frame without defined header fields (Fields.Defined false)
// still defines: kind, verdict or drop code, reason.
var HeaderMask = Word{0x3f000000, 0xf000000000000000}

// FullMask defines every bit.
var FullMask = Word{^uint64(0), ^uint64(0)}
