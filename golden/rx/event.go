package rx

import (
	"crypto/sha256"
	"fmt"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/wire"
)

// Kind is what an Event reports.
type Kind uint8

// Event kinds.
const (
	// ULPDU: a validated ULPDU was passed to DDP (exactly once per FPDU).
	ULPDU Kind = iota + 1
	// Placed: DDP placed the ULPDU's payload in host memory.
	Placed
	// Delivered: the in-order point passed a ULPDU whose DDP L bit is set:
	// its message is delivered.
	Delivered
	// MPAError: an MPA error (Code 1-4, RFC 5044 section 8; 7, RFC 6581). Nothing more
	// is passed or delivered on that half connection afterwards.
	MPAError
	// DDPError: DDP rejected a ULPDU (RFC 5041); nothing of it was placed.
	DDPError
	// Dropped: a frame failed an IPv4 or TCP check and was discarded whole.
	Dropped
	// Established: both startup frames were valid; the half connection is
	// in full operation.
	Established
)

var kindNames = [...]string{"", "ulpdu", "placed", "deliver", "error", "ddp_error", "drop", "established"}

func (k Kind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// ErrorCode is an MPA error code (RFC 5044 section 8; RFC 6581 adds 5 to 7
// for enhanced connection establishment, of which the receiver reports 7).
type ErrorCode int

// MPA error codes.
const (
	CodeClosed  ErrorCode = 1 // TCP connection closed, terminated or lost (FIN, RST)
	CodeCRC     ErrorCode = 2 // CRC mismatch
	CodeMarker  ErrorCode = 3 // a marker and ULPDU_Length disagree on an FPDU start
	CodeStartup ErrorCode = 4 // invalid MPA Request or Reply frame
	// CodeNoMatchingRTR: peer-to-peer (RFC 6581) Request and Reply do not
	// agree on an RTR type, or the Initiator's first FPDU is not the
	// agreed RTR message.
	CodeNoMatchingRTR ErrorCode = 7
)

var codeNames = map[ErrorCode]string{
	CodeClosed:        "TCP connection closed",
	CodeCRC:           "CRC error",
	CodeMarker:        "marker and ULPDU_Length disagree",
	CodeStartup:       "invalid MPA Request or Reply",
	CodeNoMatchingRTR: "no matching RTR",
}

// String names the code as RFC 5044 section 8 and RFC 6581 describe it.
func (c ErrorCode) String() string {
	if s, ok := codeNames[c]; ok {
		return s
	}
	return fmt.Sprintf("MPA error code %d", int(c))
}

// Event is one observable result of the receiver.
type Event struct {
	Kind  Kind
	Half  wire.FourTuple // the half connection whose data caused it
	Frame int            // index (from 0) of the frame being processed
	// Seq: for ULPDU, Placed and Delivered the sequence number of the
	// FPDU's ULPDU_Length field; for MPAError the sequence number where the
	// fault lies (the FPDU's ULPDU_Length field for codes 2 and 3, the FIN
	// or RST for code 1, the startup frame's first octet for code 4 (or
	// the first octet a peer-to-peer Responder sent before the RTR), the
	// Reply's first octet or the first FPDU's ULPDU_Length field for code
	// 7).
	Seq    uint32
	Len    int       // ULPDU length (ULPDU, Placed: payload octets placed)
	SHA256 [32]byte  // ULPDU: digest of the ULPDU (DDP header and payload)
	Code   ErrorCode // MPAError: 1-4, 7
	DDP    ddp.Header
	Addr   uint64 // Placed: host address of the first octet
	// Established: the MPA revision the connection runs (the Reply's);
	// for a Rev 2 connection with the enhanced header (RFC 6581), the
	// header this half's sender declared and the agreed RTR type.
	Rev      uint8
	Enhanced *mpa.EnhancedHeader
	RTR      mpa.RTR
	Err      error // MPAError, DDPError, Dropped: the detail
}

func digest(b []byte) [32]byte { return sha256.Sum256(b) }

func (e Event) String() string {
	switch e.Kind {
	case ULPDU:
		return fmt.Sprintf("%s %s seq=%d len=%d sha256=%x", e.Kind, e.Half, e.Seq, e.Len, e.SHA256[:8])
	case MPAError:
		return fmt.Sprintf("%s %s code=%d seq=%d: %v", e.Kind, e.Half, e.Code, e.Seq, e.Err)
	case DDPError, Dropped:
		return fmt.Sprintf("%s %s frame=%d seq=%d: %v", e.Kind, e.Half, e.Frame, e.Seq, e.Err)
	default:
		return fmt.Sprintf("%s %s seq=%d len=%d", e.Kind, e.Half, e.Seq, e.Len)
	}
}
