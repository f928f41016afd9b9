package cycle

import (
	"encoding/binary"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/mpa"
)

// The fields of the records and port words of mpa_rx, as
// rtl/mpa_rx_fields.vh names them: for a field FIELD of record REC the
// offset of its least significant bit (REC_FIELD there, RecField here)
// and its width (REC_FIELD_W, RecFieldW); a one-bit field has no width.
// RecW is the width of a record that has a fixed one; a record that ends
// with the context index (IDX_BITS wide) is RecIdx + IDX_BITS bits.
// Codes the Go model already names (configuration ops, event kinds,
// verdicts, reasons, DDP error kinds) keep their names; fields_test.go
// checks every constant of the .vh against its Go name.
const (
	// context entry
	CtxW         = 384
	CtxValid     = 0
	CtxFull      = 1
	CtxErr       = 2
	CtxSWOwned   = 3
	CtxMarkers   = 4
	CtxCRC       = 5
	CtxR0Valid   = 6
	CtxR1Valid   = 7
	CtxStream    = 8
	CtxStreamW   = 12
	CtxDDPVer    = 20
	CtxDDPVerW   = 2
	CtxV6        = 22
	CtxSeqStart  = 32
	CtxSeqStartW = 32
	CtxRcvNxt    = 64
	CtxRcvNxtW   = 32
	CtxSrcIP     = 96
	CtxSrcIPW    = 32
	CtxDstIP     = 128
	CtxDstIPW    = 32
	CtxSrcPort   = 160
	CtxSrcPortW  = 16
	CtxDstPort   = 176
	CtxDstPortW  = 16
	CtxR0Start   = 192
	CtxR0StartW  = 32
	CtxR0End     = 224
	CtxR0EndW    = 32
	CtxR1Start   = 256
	CtxR1StartW  = 32
	CtxR1End     = 288
	CtxR1EndW    = 32

	// configuration port
	CfgOpW    = 3
	CfgIndexW = 16
	CfgDataW  = 384

	// IPv6 addresses (cfg_op 4)
	Addr6Src  = 0
	Addr6SrcW = 128
	Addr6Dst  = 128
	Addr6DstW = 128

	// STag entry
	STagValid   = 0
	STagSTag    = 32
	STagSTagW   = 32
	STagStream  = 64
	STagStreamW = 12
	STagBase    = 128
	STagBaseW   = 64
	STagLen     = 192
	STagLenW    = 64

	// receive buffer
	RBufQN      = 0
	RBufQNW     = 2
	RBufValid   = 2
	RBufMSN     = 32
	RBufMSNW    = 32
	RBufStream  = 64
	RBufStreamW = 12
	RBufBase    = 128
	RBufBaseW   = 64
	RBufLen     = 192
	RBufLenW    = 32

	// queue MSN
	QMSNQN   = 0
	QMSNQNW  = 2
	QMSNMSN  = 32
	QMSNMSNW = 32

	// frame class
	ClassOK       = 0
	ClassNotTCP   = 1
	ClassDrop     = 2
	DropFCS       = 0
	DropMalformed = 1
	DropIPCsum    = 2
	DropTCPCsum   = 3
	// the drop field of a NOT_TCP frame
	NotTCPOther   = 0 // not IP/TCP, an IPv4 fragment (reason NotTCP)
	NotTCPIPv6Ext = 1 // an IPv6 extension header (reason IPv6Ext)

	// frame record, parser part
	FRPW      = 60
	FRPClass  = 0
	FRPClassW = 2
	FRPDrop   = 2
	FRPDropW  = 2
	FRPSeq    = 4
	FRPSeqW   = 32
	FRPFlags  = 36
	FRPFlagsW = 8
	FRPPlen   = 44
	FRPPlenW  = 16

	// frame record, lookup part
	FRLMatch   = 0
	FRLOver    = 1
	FRLBeats   = 2
	FRLBeatsW  = 16
	FRLP0      = 18
	FRLP0W     = 16
	FRLStream  = 34
	FRLStreamW = 12
	FRLDDPVer  = 46
	FRLDDPVerW = 2
	FRLMarkers = 48
	FRLMPH     = 49 // SeqStart mod 512
	FRLMPHW    = 9
	FRLIdx     = 58

	// summary word
	SumW           = 38
	SumWhole       = 0
	SumSmall       = 1
	SumGrid        = 2
	SumChecks      = 3 // every CRC and marker check passed
	SumFirstMarker = 4
	SumAnyL        = 5
	SumNRec        = 6
	SumNRecW       = 16
	SumNRFC        = 22
	SumNRFCW       = 8
	SumNDraft      = 30
	SumNDraftW     = 8

	// walker record and summary ports

	// DDP header
	DDPCDV    = 0
	DDPCDVW   = 2
	DDPCL     = 6
	DDPCT     = 7
	DDPHSTag  = 96 // tagged
	DDPHSTagW = 32
	DDPHTO    = 32 // tagged
	DDPHTOW   = 64
	DDPHQN    = 64 // untagged
	DDPHQNW   = 32
	DDPHMSN   = 32 // untagged
	DDPHMSNW  = 32
	DDPHMO    = 0 // untagged
	DDPHMOW   = 32

	// verdict record
	VQVerdict  = 0
	VQVerdictW = 2
	VQReason   = 2
	VQReasonW  = 4
	VQDrop     = 6
	VQDropW    = 2
	VQSeq      = 8
	VQSeqW     = 32
	VQEnd      = 40 // seq + payload length
	VQEndW     = 32
	VQPlen     = 72
	VQPlenW    = 16
	VQBeats    = 88 // beats stored in the frame FIFO
	VQBeatsW   = 16
	VQAdv      = 104 // rcv_nxt after the frame
	VQAdvW     = 32
	VQInorder  = 136
	VQNRec     = 137 // walker records
	VQNRecW    = 16
	VQStream   = 153
	VQStreamW  = 12
	VQDDPVer   = 165
	VQDDPVerW  = 2
	VQMarkers  = 167
	VQMPH      = 168 // frame octet offset of a marker position, mod 512
	VQMPHW     = 9
	VQP0       = 177 // frame octet offset of the TCP payload
	VQP0W      = 16
	VQNRFC     = 193
	VQNRFCW    = 8
	VQNDraft   = 201
	VQNDraftW  = 8
	VQIdx      = 209

	// token
	TokW        = 38
	TokVerdict  = 0
	TokVerdictW = 2
	TokReason   = 2
	TokReasonW  = 4
	TokBeats    = 6
	TokBeatsW   = 16
	TokNDesc    = 22 // placement descriptors of the frame
	TokNDescW   = 16

	// placement descriptor
	DescW       = 106
	DescAddr    = 0 // host address of the first payload octet
	DescAddrW   = 64
	DescLen     = 64 // payload octets
	DescLenW    = 16
	DescOff     = 80 // frame offset of the first payload octet
	DescOffW    = 16
	DescMPH     = 96 // frame octet offset of a marker position, mod 512
	DescMPHW    = 9
	DescMarkers = 105

	// events
	EvtW        = 128
	EvtKeepW    = 16
	EvtKind     = 124
	EvtKindW    = 4
	EvtIdx      = 112
	EvtIdxW     = 12
	EvtSeq      = 80
	EvtSeqW     = 32
	EvtEnd      = 48
	EvtEndW     = 32
	EvtKey      = 48
	EvtKeyW     = 32
	EvtLen      = 32
	EvtLenW     = 16
	EvtVerdict  = 28
	EvtVerdictW = 2
	EvtDrop     = 28
	EvtDropW    = 2
	EvtReason   = 24
	EvtReasonW  = 4
	EvtNRFC     = 16
	EvtNRFCW    = 8
	EvtNDraft   = 8
	EvtNDraftW  = 8
	EvtCtrl     = 24
	EvtCtrlW    = 8
	EvtDDPKind  = 20
	EvtDDPKindW = 4
	EvtQN       = 18
	EvtQNW      = 2
)

// The walker's record word (an entry of a record bank of
// mpa_rx_walk_store) and its summary word (mpa_rx_walk_sum): words inside
// mpa_rx_walk, named here so that every field of mpa_rx_fields.vh has one
// Go name; the walker hands their fields to mpa_rx on its rec_* and sum_*
// ports.
const (
	WalkRecW           = 178
	WalkRecLast        = 0
	WalkRecFirst       = 1
	WalkRecHdr         = 2
	WalkRecHdrW        = 128
	WalkRecWord        = 130
	WalkRecWordW       = 32
	WalkRecULen        = 130
	WalkRecULenW       = 16
	WalkRecCtrl        = 146
	WalkRecCtrlW       = 8
	WalkRecULP         = 154
	WalkRecULPW        = 8
	WalkRecLSeq        = 162
	WalkRecLSeqW       = 16
	WalkSumW           = 55
	WalkSumMarkerOK    = 0
	WalkSumNRec        = 1
	WalkSumNRecW       = 16
	WalkSumOK          = 17
	WalkSumNFPDU       = 18
	WalkSumNFPDUW      = 16
	WalkSumAnyL        = 34
	WalkSumFirstMarker = 35
	WalkSumGrid        = 36
	WalkSumSmall       = 37
	WalkSumWhole       = 38
	WalkSumNDraft      = 39
	WalkSumNDraftW     = 8
	WalkSumNRFC        = 47
	WalkSumNRFCW       = 8
)

// getBits returns width bits (at most 64) of words from bit pos.
func getBits(words []uint64, pos, width int) uint64 {
	var v uint64
	for i := 0; i < width; i++ {
		if words[(pos+i)/64]>>((pos+i)%64)&1 != 0 {
			v |= 1 << i
		}
	}
	return v
}

// setBits writes width bits (at most 64) of v into words at bit pos.
func setBits(words []uint64, pos, width int, v uint64) {
	for i := 0; i < width; i++ {
		bit := uint64(1) << ((pos + i) % 64)
		if v>>i&1 != 0 {
			words[(pos+i)/64] |= bit
		} else {
			words[(pos+i)/64] &^= bit
		}
	}
}

// Record is a record or port word of mpa_rx as 64-bit words, least
// significant first (the layout of the co-simulation's cycle records).
type Record []uint64

// NewRecord returns a zero record of width bits.
func NewRecord(width int) Record { return make(Record, (width+63)/64) }

// Field returns width bits (at most 64) from bit pos.
func (r Record) Field(pos, width int) uint64 { return getBits(r, pos, width) }

// Bit reports bit pos.
func (r Record) Bit(pos int) bool { return getBits(r, pos, 1) == 1 }

// SetField writes width bits (at most 64) of v at bit pos.
func (r Record) SetField(pos, width int, v uint64) { setBits(r, pos, width, v) }

// SetBit writes bit pos.
func (r Record) SetBit(pos int, v bool) { setBits(r, pos, 1, b2u(v)) }

// FrameRecord is a frame record (mpa_rx_frame to mpa_rx_verdict): the
// parser part (FRP) and the lookup part (FRL).
type FrameRecord struct {
	Class, Drop int    // frame class (ClassOK, ...) and drop code
	Seq         uint32 // TCP sequence number
	Flags       uint8  // TCP flags
	PayLen      int    // TCP payload octets
	Match       bool   // the lookup found the half connection
	Over        bool   // dropped at the ingress (bad FCS, longer than the FIFO)
	Beats       int    // beats stored
	P0          int    // frame offset of the TCP payload
	Stream      ddp.StreamID
	DDPVersion  uint8
	Markers     bool
	MPH         int // SeqStart mod 512
	Index       int // context slot
}

// EncodeFRP returns the parser part.
func (f FrameRecord) EncodeFRP() Record {
	r := NewRecord(FRPW)
	r.SetField(FRPClass, FRPClassW, uint64(f.Class))
	r.SetField(FRPDrop, FRPDropW, uint64(f.Drop))
	r.SetField(FRPSeq, FRPSeqW, uint64(f.Seq))
	r.SetField(FRPFlags, FRPFlagsW, uint64(f.Flags))
	r.SetField(FRPPlen, FRPPlenW, uint64(f.PayLen))
	return r
}

// EncodeFRL returns the lookup part with an index of idxBits bits.
func (f FrameRecord) EncodeFRL(idxBits int) Record {
	r := NewRecord(FRLIdx + idxBits)
	r.SetBit(FRLMatch, f.Match)
	r.SetBit(FRLOver, f.Over)
	r.SetField(FRLBeats, FRLBeatsW, uint64(f.Beats))
	r.SetField(FRLP0, FRLP0W, uint64(f.P0))
	r.SetField(FRLStream, FRLStreamW, uint64(f.Stream))
	r.SetField(FRLDDPVer, FRLDDPVerW, uint64(f.DDPVersion))
	r.SetBit(FRLMarkers, f.Markers)
	r.SetField(FRLMPH, FRLMPHW, uint64(f.MPH))
	r.SetField(FRLIdx, idxBits, uint64(f.Index))
	return r
}

// Summary is the walker's summary of a frame as the summary queue holds it.
type Summary struct {
	Whole, Small, Grid, Checks, FirstMarker, AnyL bool
	NRec, NRFC, NDraft                            int
}

// Encode returns the summary word.
func (s Summary) Encode() Record {
	r := NewRecord(SumW)
	r.SetBit(SumWhole, s.Whole)
	r.SetBit(SumSmall, s.Small)
	r.SetBit(SumGrid, s.Grid)
	r.SetBit(SumChecks, s.Checks)
	r.SetBit(SumFirstMarker, s.FirstMarker)
	r.SetBit(SumAnyL, s.AnyL)
	r.SetField(SumNRec, SumNRecW, uint64(s.NRec))
	r.SetField(SumNRFC, SumNRFCW, uint64(s.NRFC))
	r.SetField(SumNDraft, SumNDraftW, uint64(s.NDraft))
	return r
}

// VerdictRecord is a verdict record (mpa_rx_verdict to mpa_rx_ddp).
type VerdictRecord struct {
	Verdict, Reason, Drop int // VPlace ..., the reason, the drop code
	Seq, End              uint32
	PayLen, Beats         int
	Adv                   uint32 // rcv_nxt after the frame (ADVANCED)
	InOrder               bool
	NRec                  int // walker records
	Stream                ddp.StreamID
	DDPVersion            uint8
	Markers               bool
	MPH                   int // frame octet offset of a marker position, mod 512
	P0                    int // frame octet offset of the TCP payload
	NRFC, NDraft          int
	Index                 int
}

// Encode returns the record with an index of idxBits bits.
func (v VerdictRecord) Encode(idxBits int) Record {
	r := NewRecord(VQIdx + idxBits)
	r.SetField(VQVerdict, VQVerdictW, uint64(v.Verdict))
	r.SetField(VQReason, VQReasonW, uint64(v.Reason))
	r.SetField(VQDrop, VQDropW, uint64(v.Drop))
	r.SetField(VQSeq, VQSeqW, uint64(v.Seq))
	r.SetField(VQEnd, VQEndW, uint64(v.End))
	r.SetField(VQPlen, VQPlenW, uint64(v.PayLen))
	r.SetField(VQBeats, VQBeatsW, uint64(v.Beats))
	r.SetField(VQAdv, VQAdvW, uint64(v.Adv))
	r.SetBit(VQInorder, v.InOrder)
	r.SetField(VQNRec, VQNRecW, uint64(v.NRec))
	r.SetField(VQStream, VQStreamW, uint64(v.Stream))
	r.SetField(VQDDPVer, VQDDPVerW, uint64(v.DDPVersion))
	r.SetBit(VQMarkers, v.Markers)
	r.SetField(VQMPH, VQMPHW, uint64(v.MPH))
	r.SetField(VQP0, VQP0W, uint64(v.P0))
	r.SetField(VQNRFC, VQNRFCW, uint64(v.NRFC))
	r.SetField(VQNDraft, VQNDraftW, uint64(v.NDraft))
	r.SetField(VQIdx, idxBits, uint64(v.Index))
	return r
}

// DecodeVerdictRecord decodes a verdict record with an index of idxBits
// bits.
func DecodeVerdictRecord(r Record, idxBits int) VerdictRecord {
	return VerdictRecord{
		Verdict: int(r.Field(VQVerdict, VQVerdictW)), Reason: int(r.Field(VQReason, VQReasonW)),
		Drop: int(r.Field(VQDrop, VQDropW)), Seq: uint32(r.Field(VQSeq, VQSeqW)), End: uint32(r.Field(VQEnd, VQEndW)),
		PayLen: int(r.Field(VQPlen, VQPlenW)), Beats: int(r.Field(VQBeats, VQBeatsW)), Adv: uint32(r.Field(VQAdv, VQAdvW)),
		InOrder: r.Bit(VQInorder), NRec: int(r.Field(VQNRec, VQNRecW)), Stream: ddp.StreamID(r.Field(VQStream, VQStreamW)),
		DDPVersion: uint8(r.Field(VQDDPVer, VQDDPVerW)), Markers: r.Bit(VQMarkers), MPH: int(r.Field(VQMPH, VQMPHW)),
		P0: int(r.Field(VQP0, VQP0W)), NRFC: int(r.Field(VQNRFC, VQNRFCW)), NDraft: int(r.Field(VQNDraft, VQNDraftW)),
		Index: int(r.Field(VQIdx, idxBits)),
	}
}

// Token is what E1 hands E2 for a frame (mpa_rx_ddp to mpa_rx_place).
type Token struct {
	Verdict, Reason int
	Beats           int // beats stored in the frame FIFO
	NDesc           int // placement descriptors
}

// Encode returns the token word.
func (t Token) Encode() Record {
	r := NewRecord(TokW)
	r.SetField(TokVerdict, TokVerdictW, uint64(t.Verdict))
	r.SetField(TokReason, TokReasonW, uint64(t.Reason))
	r.SetField(TokBeats, TokBeatsW, uint64(t.Beats))
	r.SetField(TokNDesc, TokNDescW, uint64(t.NDesc))
	return r
}

// DecodeToken decodes a token word.
func DecodeToken(r Record) Token {
	return Token{Verdict: int(r.Field(TokVerdict, TokVerdictW)), Reason: int(r.Field(TokReason, TokReasonW)),
		Beats: int(r.Field(TokBeats, TokBeatsW)), NDesc: int(r.Field(TokNDesc, TokNDescW))}
}

// Desc is a placement descriptor (mpa_rx_ddp to mpa_rx_place): the
// payload of one FPDU, Len octets from frame offset Off (markers skipped)
// to host address Addr.
type Desc struct {
	Addr    uint64
	Len     int
	Off     int
	MPH     int // frame octet offset of a marker position, mod 512
	Markers bool
}

// Encode returns the descriptor word.
func (d Desc) Encode() Record {
	r := NewRecord(DescW)
	r.SetField(DescAddr, DescAddrW, d.Addr)
	r.SetField(DescLen, DescLenW, uint64(d.Len))
	r.SetField(DescOff, DescOffW, uint64(d.Off))
	r.SetField(DescMPH, DescMPHW, uint64(d.MPH))
	r.SetBit(DescMarkers, d.Markers)
	return r
}

// DecodeDesc decodes a descriptor word.
func DecodeDesc(r Record) Desc {
	return Desc{Addr: r.Field(DescAddr, DescAddrW), Len: int(r.Field(DescLen, DescLenW)), Off: int(r.Field(DescOff, DescOffW)),
		MPH: int(r.Field(DescMPH, DescMPHW)), Markers: r.Bit(DescMarkers)}
}

// MarkerAt reports whether frame offset off is in a marker when markers
// are on and a marker starts at every frame offset that is mph mod 512
// (the marker phase of a verdict record and a placement descriptor).
func MarkerAt(off, mph int, markers bool) bool {
	return markers && ((off-mph)%512+512)%512 < mpa.MarkerLen
}

// DDPHeader returns a walker record's DDP control octet (rec_ctrl) and
// header word (rec_hdr, 128 bits: ULPDU octets 2 to 17, octet 2 in the top
// byte) for an ULPDU; octets past its end are zero.
func DDPHeader(ulpdu []byte) (ctrl uint8, hdr Record) {
	var b [18]byte
	copy(b[:], ulpdu)
	hdr = NewRecord(128)
	hdr[1] = binary.BigEndian.Uint64(b[2:10])
	hdr[0] = binary.BigEndian.Uint64(b[10:18])
	return b[0], hdr
}
