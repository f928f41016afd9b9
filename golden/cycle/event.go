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
	var w Word
	setBits(w[:], EvtKind, EvtKindW, uint64(e.Kind))
	setBits(w[:], EvtIdx, EvtIdxW, uint64(e.Index))
	setBits(w[:], EvtSeq, EvtSeqW, uint64(e.Seq))
	setBits(w[:], EvtEnd, EvtEndW, uint64(e.End))
	setBits(w[:], EvtLen, EvtLenW, uint64(e.Len))
	switch e.Kind {
	case EvVerdict, EvDrop, EvAdvanced, EvConsumed:
		setBits(w[:], EvtVerdict, EvtVerdictW, uint64(e.Verdict))
		setBits(w[:], EvtReason, EvtReasonW, uint64(e.Reason))
		if e.Kind == EvAdvanced || e.Kind == EvConsumed {
			setBits(w[:], EvtNRFC, EvtNRFCW, uint64(e.NRFC))
			setBits(w[:], EvtNDraft, EvtNDraftW, uint64(e.NDraft))
		}
	default:
		setBits(w[:], EvtCtrl, EvtCtrlW, uint64(e.Ctrl))
		setBits(w[:], EvtDDPKind, EvtDDPKindW, uint64(e.DDPKind))
		setBits(w[:], EvtQN, EvtQNW, uint64(e.QN))
	}
	return w
}

// Decode decodes an m_evt_tdata value.
func Decode(w Word) Event {
	e := Event{
		Kind:  int(getBits(w[:], EvtKind, EvtKindW)),
		Index: int(getBits(w[:], EvtIdx, EvtIdxW)),
		Seq:   uint32(getBits(w[:], EvtSeq, EvtSeqW)),
		End:   uint32(getBits(w[:], EvtEnd, EvtEndW)),
		Len:   int(getBits(w[:], EvtLen, EvtLenW)),
	}
	switch e.Kind {
	case EvVerdict, EvDrop, EvAdvanced, EvConsumed:
		e.Verdict = int(getBits(w[:], EvtVerdict, EvtVerdictW))
		e.Reason = int(getBits(w[:], EvtReason, EvtReasonW))
		if e.Kind == EvAdvanced || e.Kind == EvConsumed {
			e.NRFC = int(getBits(w[:], EvtNRFC, EvtNRFCW))
			e.NDraft = int(getBits(w[:], EvtNDraft, EvtNDraftW))
		}
	default:
		e.Ctrl = uint8(getBits(w[:], EvtCtrl, EvtCtrlW))
		e.DDPKind = int(getBits(w[:], EvtDDPKind, EvtDDPKindW))
		e.QN = int(getBits(w[:], EvtQN, EvtQNW))
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
var HeaderMask = func() Word {
	var w Word
	setBits(w[:], EvtKind, EvtKindW, ^uint64(0))
	setBits(w[:], EvtVerdict, EvtVerdictW, ^uint64(0))
	setBits(w[:], EvtReason, EvtReasonW, ^uint64(0))
	return w
}()

// FullMask defines every bit.
var FullMask = Word{^uint64(0), ^uint64(0)}
