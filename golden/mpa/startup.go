package mpa

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Startup frame constants (RFC 5044 section 7.1.1).
const (
	KeyLen            = 16
	StartupHeaderLen  = 20 // key, flags, Rev, PD_Length
	MaxPrivateDataLen = 512
	RevIETF           = 1 // RFC 5044
	RevRDMAC          = 0 // RDMA Consortium MPA, accepted by permissive ends (Appendix C)

	flagM = 0x80
	flagC = 0x40
	flagR = 0x20
)

// The two keys that open startup frames.
var (
	RequestKey = [KeyLen]byte{'M', 'P', 'A', ' ', 'I', 'D', ' ', 'R', 'e', 'q', ' ', 'F', 'r', 'a', 'm', 'e'}
	ReplyKey   = [KeyLen]byte{'M', 'P', 'A', ' ', 'I', 'D', ' ', 'R', 'e', 'p', ' ', 'F', 'r', 'a', 'm', 'e'}
)

// Startup is an MPA Request or Reply frame.
type Startup struct {
	Reply       bool   // Reply ("MPA ID Rep Frame") rather than Request
	M           bool   // markers required in the FPDUs the peer sends
	C           bool   // CRC preferred
	R           bool   // the connection is rejected (acted on in a Reply only)
	Res         uint8  // reserved low 5 bits of octet 16: sent as sent, ignored
	Rev         uint8  // MPA revision
	PDLength    uint16 // PD_Length as sent; Marshal writes it as given
	PrivateData []byte
}

// NewStartup returns a well-formed frame of revision 1 carrying pd, with
// PD_Length set to len(pd).
func NewStartup(reply, m, c bool, pd []byte) Startup {
	return Startup{Reply: reply, M: m, C: c, Rev: RevIETF, PDLength: uint16(len(pd)), PrivateData: pd}
}

// Len returns the frame's length on the wire.
func (s Startup) Len() int { return StartupHeaderLen + len(s.PrivateData) }

// Append appends the frame's wire octets to dst. Fields are written as they
// are, so a malformed frame (any Rev, a PD_Length that disagrees with the
// private data) can be built for tests and vectors.
func (s Startup) Append(dst []byte) []byte {
	if s.Reply {
		dst = append(dst, ReplyKey[:]...)
	} else {
		dst = append(dst, RequestKey[:]...)
	}
	flags := s.Res & 0x1f
	if s.M {
		flags |= flagM
	}
	if s.C {
		flags |= flagC
	}
	if s.R {
		flags |= flagR
	}
	dst = append(dst, flags, s.Rev)
	dst = binary.BigEndian.AppendUint16(dst, s.PDLength)
	return append(dst, s.PrivateData...)
}

// Errors returned by ParseStartup. All are "invalid MPA Request or Reply
// frame" (error code 4) except ErrShortStartup, which means more octets are
// needed.
var (
	ErrShortStartup = errors.New("mpa: startup frame incomplete")
	ErrBadKey       = errors.New("mpa: startup frame key mismatch")
	ErrBadRev       = errors.New("mpa: startup frame revision not supported")
	ErrPDTooLong    = errors.New("mpa: PD_Length exceeds 512")
	ErrRejected     = errors.New("mpa: Reply has the Rejected Connection bit set")
)

// StartupPolicy says what a receiving end accepts.
type StartupPolicy struct {
	// Permissive accepts revision 0 frames from RDMA Consortium peers as
	// RFC 5044 Appendix C describes.
	Permissive bool
}

// AcceptsRev reports whether the policy accepts revision rev.
func (p StartupPolicy) AcceptsRev(rev uint8) bool {
	return rev == RevIETF || (p.Permissive && rev == RevRDMAC)
}

// ParseStartup parses the startup frame at the beginning of b, where a Reply
// is expected when reply is true and a Request otherwise. It returns the frame
// and its length. It returns ErrShortStartup while b is too short to decide;
// as soon as the header shows a fault (key, Rev, PD_Length over 512) it returns
// that error without waiting for the private data. A Reply with R set parses
// completely and returns the frame together with ErrRejected. The private data
// returned aliases b.
func ParseStartup(b []byte, reply bool, p StartupPolicy) (Startup, int, error) {
	want := RequestKey
	if reply {
		want = ReplyKey
	}
	n := min(len(b), KeyLen)
	if string(b[:n]) != string(want[:n]) {
		return Startup{}, 0, fmt.Errorf("%w: got %q", ErrBadKey, b[:n])
	}
	if len(b) < StartupHeaderLen {
		return Startup{}, 0, ErrShortStartup
	}
	s := Startup{
		Reply:    reply,
		M:        b[16]&flagM != 0,
		C:        b[16]&flagC != 0,
		R:        b[16]&flagR != 0,
		Res:      b[16] & 0x1f,
		Rev:      b[17],
		PDLength: binary.BigEndian.Uint16(b[18:20]),
	}
	if !p.AcceptsRev(s.Rev) {
		return Startup{}, 0, fmt.Errorf("%w: Rev %d", ErrBadRev, s.Rev)
	}
	if s.PDLength > MaxPrivateDataLen {
		return Startup{}, 0, fmt.Errorf("%w: PD_Length %d", ErrPDTooLong, s.PDLength)
	}
	total := StartupHeaderLen + int(s.PDLength)
	if len(b) < total {
		return Startup{}, 0, ErrShortStartup
	}
	s.PrivateData = b[StartupHeaderLen:total]
	if s.R && reply { // R is not checked in a Request
		return s, total, ErrRejected
	}
	return s, total, nil
}

// Negotiated is the outcome of a valid Request/Reply exchange for the two
// half connections of an MPA connection.
type Negotiated struct {
	// InitiatorMarkers: the Initiator inserts markers in what it sends
	// (M in the Reply). ResponderMarkers: the Responder does (M in the
	// Request).
	InitiatorMarkers, ResponderMarkers bool
	// CRC is on in both directions when either frame has C set.
	CRC bool
	// DDPVersion is 1, or 0 when a permissive end met an RDMA Consortium
	// peer (a revision 0 frame on either side).
	DDPVersion uint8
}

// Negotiate combines a Request and a Reply (both already valid for the
// policy) into the per-direction parameters. When either frame is revision 0
// (only accepted by a permissive end) the connection runs the RDMA Consortium
// protocols: DDP version 0 and markers in both directions (RFC 5044 Appendix
// C, Figure 16: every V=0 cell is M=1/1).
func Negotiate(req, rep Startup) Negotiated {
	n := Negotiated{
		InitiatorMarkers: rep.M,
		ResponderMarkers: req.M,
		CRC:              req.C || rep.C,
		DDPVersion:       1,
	}
	if req.Rev == RevRDMAC || rep.Rev == RevRDMAC {
		n.DDPVersion = 0
		n.InitiatorMarkers, n.ResponderMarkers = true, true
	}
	return n
}
