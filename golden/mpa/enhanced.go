package mpa

import (
	"encoding/binary"
	"fmt"
)

// Enhanced connection establishment (RFC 6581, MPA Rev 2). A Rev 2 startup
// frame with FlagEnhanced begins its private data with a 4-octet header,
// counted in PD_Length; the ULP's private data follows it:
//
//	 0                   1                   2                   3
//	 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//	|A|B|           IRD             |C|D|          ORD              |
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//
// IRD and ORD (inbound and outbound RDMA Read queue depths) are 14 bits.
// A: peer-to-peer connection model. B, C, D: the Ready To Receive (RTR)
// message is a zero-length Send, a zero-length RDMA Write, or a zero-length
// RDMA Read Request. In a Request the Initiator sets the RTR types it can
// send; a peer-to-peer Reply sets A and the one type the Responder wants.

// EnhancedLen is the length of the enhanced header.
const EnhancedLen = 4

// Bits of the enhanced header's two 16-bit words.
const (
	enhP2P      = 0x8000 // IRD word: A, peer-to-peer
	enhSendRTR  = 0x4000 // IRD word: B, zero-length Send RTR
	enhWriteRTR = 0x8000 // ORD word: C, zero-length RDMA Write RTR
	enhReadRTR  = 0x4000 // ORD word: D, zero-length RDMA Read Request RTR
	enhDepth    = 0x3fff // IRD, ORD
)

// MaxDepth is the largest IRD or ORD the header can carry.
const MaxDepth = enhDepth

// EnhancedHeader is the enhanced private-data header of a Rev 2 frame.
type EnhancedHeader struct {
	IRD, ORD uint16 // 14 bits each
	P2P      bool   // A
	SendRTR  bool   // B
	WriteRTR bool   // C
	ReadRTR  bool   // D
}

// ParseEnhanced decodes the header from the first EnhancedLen octets of b
// (which must hold them).
func ParseEnhanced(b []byte) EnhancedHeader {
	ird, ord := binary.BigEndian.Uint16(b), binary.BigEndian.Uint16(b[2:])
	return EnhancedHeader{
		IRD: ird & enhDepth, ORD: ord & enhDepth,
		P2P: ird&enhP2P != 0, SendRTR: ird&enhSendRTR != 0,
		WriteRTR: ord&enhWriteRTR != 0, ReadRTR: ord&enhReadRTR != 0,
	}
}

// Append appends the header's wire octets to dst. IRD and ORD are cut to
// 14 bits.
func (e EnhancedHeader) Append(dst []byte) []byte {
	ird, ord := e.IRD&enhDepth, e.ORD&enhDepth
	if e.P2P {
		ird |= enhP2P
	}
	if e.SendRTR {
		ird |= enhSendRTR
	}
	if e.WriteRTR {
		ord |= enhWriteRTR
	}
	if e.ReadRTR {
		ord |= enhReadRTR
	}
	dst = binary.BigEndian.AppendUint16(dst, ird)
	return binary.BigEndian.AppendUint16(dst, ord)
}

// RTRs returns the RTR types whose flags are set, in the order Send, Write,
// Read.
func (e EnhancedHeader) RTRs() []RTR {
	var out []RTR
	for _, x := range []struct {
		on bool
		t  RTR
	}{{e.SendRTR, RTRSend}, {e.WriteRTR, RTRWrite}, {e.ReadRTR, RTRRead}} {
		if x.on {
			out = append(out, x.t)
		}
	}
	return out
}

// WithRTR returns e with the flag of t set (RTRNone sets nothing).
func (e EnhancedHeader) WithRTR(t RTR) EnhancedHeader {
	switch t {
	case RTRSend:
		e.SendRTR = true
	case RTRWrite:
		e.WriteRTR = true
	case RTRRead:
		e.ReadRTR = true
	}
	return e
}

// RTR is a type of Ready To Receive message.
type RTR uint8

// RTR types. RTRNone: no RTR (client-server mode).
const (
	RTRNone RTR = iota
	RTRSend
	RTRWrite
	RTRRead
)

func (t RTR) String() string {
	switch t {
	case RTRNone:
		return "none"
	case RTRSend:
		return "send"
	case RTRWrite:
		return "write"
	case RTRRead:
		return "read"
	}
	return fmt.Sprintf("rtr(%d)", uint8(t))
}

// RDMAP opcodes (RFC 5040 section 4.2) that RTR messages use.
const (
	opWrite       = 0x0
	opReadRequest = 0x1
	opSend        = 0x3
)

// readRequestLen is the RDMA Read Request header after the untagged DDP
// header (RFC 5040 section 4.4): sink STag, sink TO, RDMA Read Message
// Size, source STag, source TO.
const readRequestLen = 28

// CheckRTR reports whether ulpdu (a DDP segment: DDP and RDMAP headers and
// payload, as MPA passes it) is the RTR message of type t: for RTRSend an
// untagged last segment on QN 0, RDMAP Send, MO 0 and no payload; for
// RTRWrite a tagged last segment, RDMAP RDMA Write, no payload; for RTRRead
// an untagged last segment on QN 1, RDMAP RDMA Read Request, MO 0, with an
// RDMA Read Message Size of zero. DDP and RDMAP versions are not checked
// here (DDP reports a wrong DDP version). It returns nil or an error
// wrapping ErrNoMatchingRTR that says what differs.
func CheckRTR(t RTR, ulpdu []byte) error {
	const tagged, last = 0x80, 0x40
	bad := func(f string, a ...any) error {
		return fmt.Errorf("%w: the Initiator's first FPDU is not a zero-length %v RTR: %s", ErrNoMatchingRTR, t, fmt.Sprintf(f, a...))
	}
	if len(ulpdu) < 2 {
		return bad("ULPDU of %d octets", len(ulpdu))
	}
	ctl, op := ulpdu[0], ulpdu[1]&0x0f
	if ctl&last == 0 {
		return bad("L is 0")
	}
	untagged := func(qn uint32, wantOp byte, payload int) error {
		switch {
		case ctl&tagged != 0:
			return bad("tagged")
		case len(ulpdu) != 18+payload:
			return bad("ULPDU_Length %d, want %d", len(ulpdu), 18+payload)
		case op != wantOp:
			return bad("RDMAP opcode %d", op)
		case binary.BigEndian.Uint32(ulpdu[6:]) != qn:
			return bad("QN %d", binary.BigEndian.Uint32(ulpdu[6:]))
		case binary.BigEndian.Uint32(ulpdu[14:]) != 0:
			return bad("MO %d", binary.BigEndian.Uint32(ulpdu[14:]))
		}
		return nil
	}
	switch t {
	case RTRSend:
		return untagged(0, opSend, 0)
	case RTRWrite:
		switch {
		case ctl&tagged == 0:
			return bad("untagged")
		case len(ulpdu) != 14:
			return bad("ULPDU_Length %d, want 14", len(ulpdu))
		case op != opWrite:
			return bad("RDMAP opcode %d", op)
		}
		return nil
	case RTRRead:
		if err := untagged(1, opReadRequest, readRequestLen); err != nil {
			return err
		}
		if sz := binary.BigEndian.Uint32(ulpdu[18+12:]); sz != 0 {
			return bad("RDMA Read Message Size %d", sz)
		}
		return nil
	}
	return bad("no RTR was agreed")
}
