package mpa

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// Startup frame constants (RFC 5044 section 7.1.1).
const (
	KeyLen            = 16
	StartupHeaderLen  = 20 // key, flags, Rev, PD_Length
	MaxPrivateDataLen = 512
	RevIETF           = 1 // RFC 5044
	RevRDMAC          = 0 // RDMA Consortium MPA, accepted by permissive ends (Appendix C)
	RevEnhanced       = 2 // RFC 6581: enhanced RDMA connection establishment

	// FlagEnhanced is the bit of octet 16 that RFC 6581 takes from Res
	// (Linux: MPA_RR_FLAG_ENHANCED): in a Rev 2 frame it says that the
	// private data begins with the enhanced header (EnhancedLen octets,
	// counted in PD_Length). In frames of other revisions it is a Res bit:
	// sent as sent, ignored.
	FlagEnhanced = 0x10

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
	// ErrEnhanced: a Rev 2 frame, or a Request/Reply pair, that breaks the
	// enhanced connection establishment rules (RFC 6581) in its format.
	ErrEnhanced = errors.New("mpa: invalid enhanced (Rev 2) startup")
	// ErrNoMatchingRTR: a peer-to-peer Request and its Reply (or the
	// Initiator's first FPDU) do not agree on a Ready To Receive message
	// (RFC 6581 error "No Matching RTR Option", code 7).
	ErrNoMatchingRTR = errors.New("mpa: no matching RTR option")
)

// StartupPolicy says what a receiving end accepts.
type StartupPolicy struct {
	// Permissive accepts revision 0 frames from RDMA Consortium peers as
	// RFC 5044 Appendix C describes.
	Permissive bool
}

// AcceptsRev reports whether the policy accepts revision rev: 1 and 2
// (RFC 6581 updates RFC 5044 and current stacks send Rev 2) always, 0 when
// permissive.
func (p StartupPolicy) AcceptsRev(rev uint8) bool {
	return rev == RevIETF || rev == RevEnhanced || (p.Permissive && rev == RevRDMAC)
}

// ParseStartup parses the startup frame at the beginning of b, where a Reply
// is expected when reply is true and a Request otherwise. It returns the frame
// and its length. It returns ErrShortStartup while b is too short to decide;
// as soon as the header shows a fault (key, Rev, PD_Length over 512, or a Rev
// 2 frame with FlagEnhanced whose PD_Length cannot hold the enhanced header)
// it returns that error without waiting for the private data. A Reply with R
// set parses completely and returns the frame together with ErrRejected. The
// private data returned aliases b.
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
	if s.HasEnhanced() && s.PDLength < EnhancedLen && !(s.R && reply) {
		// A rejecting Reply need not carry the header: it ends MPA anyway.
		return Startup{}, 0, fmt.Errorf("%w: FlagEnhanced set and PD_Length %d, shorter than the %d-octet enhanced header", ErrEnhanced, s.PDLength, EnhancedLen)
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
	// Rev is the revision the connection runs: the Reply's (a Rev 2
	// Request answered with Rev 1 runs Rev 1), 0 when either frame is
	// Rev 0.
	Rev uint8
	// Enhanced: both frames carry the enhanced header (RFC 6581); then
	// Initiator and Responder hold what each end declared.
	Enhanced             bool
	Initiator, Responder EnhancedHeader
	// RTR is the Ready To Receive message the Initiator must send as its
	// first FPDU in peer-to-peer mode (RTRNone: client-server).
	RTR RTR
}

// Negotiate combines a Request and a Reply (both already valid for the
// policy) into the per-direction parameters. When either frame is revision 0
// (only accepted by a permissive end) the connection runs the RDMA Consortium
// protocols: DDP version 0 and markers in both directions (RFC 5044 Appendix
// C, Figure 16: every V=0 cell is M=1/1).
//
// Rev 2 (RFC 6581): the connection runs the Reply's revision, so a Rev 1
// Reply to a Rev 2 Request is the fallback to RFC 5044 (no enhanced header,
// no peer-to-peer). It returns an error wrapping ErrEnhanced (MPA code 4)
// when the Reply does not fit the Request: a Rev 2 Reply to a Request of a
// lower revision, a Reply with the enhanced header to a Request without one
// or a Rev 2 Reply without it to a Request with one, a Reply setting the
// peer-to-peer flag A that the Request did not set, or one setting A with
// other than exactly one RTR flag. It returns an error wrapping
// ErrNoMatchingRTR (code 7) when the Request sets A and the Reply does not,
// or picks an RTR type the Request did not offer.
func Negotiate(req, rep Startup) (Negotiated, error) {
	n := Negotiated{
		InitiatorMarkers: rep.M,
		ResponderMarkers: req.M,
		CRC:              req.C || rep.C,
		DDPVersion:       1,
		Rev:              rep.Rev,
	}
	if req.Rev == RevRDMAC || rep.Rev == RevRDMAC {
		n.DDPVersion, n.Rev = 0, RevRDMAC
		n.InitiatorMarkers, n.ResponderMarkers = true, true
	}
	switch {
	case rep.Rev == RevEnhanced && req.Rev != RevEnhanced:
		return n, fmt.Errorf("%w: Rev 2 Reply to a Rev %d Request", ErrEnhanced, req.Rev)
	case rep.HasEnhanced() && !req.HasEnhanced():
		return n, fmt.Errorf("%w: the Reply carries the enhanced header, the Request does not", ErrEnhanced)
	case req.HasEnhanced() && rep.Rev == RevEnhanced && !rep.HasEnhanced():
		return n, fmt.Errorf("%w: Rev 2 Reply without the enhanced header to a Request with it", ErrEnhanced)
	case !req.HasEnhanced() || !rep.HasEnhanced():
		return n, nil // Rev 1 (or fallback to it), Rev 0, or Rev 2 without the header
	}
	qe, _ := req.Enhanced()
	pe, _ := rep.Enhanced()
	n.Enhanced, n.Initiator, n.Responder = true, qe, pe
	switch {
	case !qe.P2P && pe.P2P:
		return n, fmt.Errorf("%w: the Reply sets peer-to-peer (A), the Request does not", ErrEnhanced)
	case !qe.P2P:
		return n, nil // client-server: RTR flags without A mean nothing
	case !pe.P2P:
		return n, fmt.Errorf("%w: the Request asks for peer-to-peer (A) and the Reply does not set A", ErrNoMatchingRTR)
	}
	picked := pe.RTRs()
	if len(picked) != 1 {
		return n, fmt.Errorf("%w: a peer-to-peer Reply sets %d RTR flags, not exactly one", ErrEnhanced, len(picked))
	}
	if offered := qe.RTRs(); len(offered) > 0 && !slices.Contains(offered, picked[0]) {
		return n, fmt.Errorf("%w: the Reply picks %v, the Request offers %v", ErrNoMatchingRTR, picked[0], offered)
	}
	n.RTR = picked[0]
	return n, nil
}

// HasEnhanced reports whether the frame carries the enhanced header: Rev 2
// with FlagEnhanced set.
func (s Startup) HasEnhanced() bool { return s.Rev == RevEnhanced && s.Res&FlagEnhanced != 0 }

// Enhanced returns the frame's enhanced header, if it has one and its
// private data holds it.
func (s Startup) Enhanced() (EnhancedHeader, bool) {
	if !s.HasEnhanced() || len(s.PrivateData) < EnhancedLen {
		return EnhancedHeader{}, false
	}
	return ParseEnhanced(s.PrivateData), true
}

// ULPData returns the private data meant for the ULP: what follows the
// enhanced header, or all of it in a frame without one.
func (s Startup) ULPData() []byte {
	if s.HasEnhanced() && len(s.PrivateData) >= EnhancedLen {
		return s.PrivateData[EnhancedLen:]
	}
	return s.PrivateData
}

// NewEnhancedStartup returns a well-formed Rev 2 frame with FlagEnhanced,
// the enhanced header e and then the ULP private data pd.
func NewEnhancedStartup(reply, m, c bool, e EnhancedHeader, pd []byte) Startup {
	data := append(e.Append(make([]byte, 0, EnhancedLen+len(pd))), pd...)
	return Startup{Reply: reply, M: m, C: c, Res: FlagEnhanced, Rev: RevEnhanced, PDLength: uint16(len(data)), PrivateData: data}
}
