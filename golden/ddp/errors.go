package ddp

import "fmt"

// Kind is the kind of a DDP error: one of the errors RFC 5041 section 7
// requires a Data Sink to detect, or a header too short to parse. A Kind is
// itself an error value, so errors.Is(err, KindTOWrap) tests for a kind.
type Kind uint8

// Error kinds. The comment gives the RFC 5041 section 7.2 error type and
// code that Type and Code return.
const (
	// KindShortHeader: the ULPDU is shorter than its DDP header. RFC 5041
	// has no code for it; it is reported as a local catastrophic error
	// (type 0, code 0x00).
	KindShortHeader Kind = iota + 1

	KindInvalidSTag       // tagged 0x00: the STag is not registered, or was invalidated
	KindBaseBounds        // tagged 0x01: [TO, TO+len) is not inside the tagged buffer
	KindSTagNotAssociated // tagged 0x02: the STag belongs to another DDP stream
	KindTOWrap            // tagged 0x03: TO + len - 1 exceeds 2^64 - 1
	KindTaggedVersion     // tagged 0x04: DV is not the accepted DDP version

	KindInvalidQN       // untagged 0x01: no such queue on this stream
	KindNoBuffer        // untagged 0x02: MSN in range, but no buffer posted for it
	KindMSNRange        // untagged 0x03: MSN already completed, or current + 2^31 or beyond
	KindInvalidMO       // untagged 0x04: MO past the end of the buffer
	KindTooLong         // untagged 0x05: MO + len past the end of the buffer
	KindUntaggedVersion // untagged 0x06: DV is not the accepted DDP version
)

// Error types of RFC 5041 section 7.2, as Kind.Type returns them.
const (
	TypeLocalCatastrophic = 0
	TypeTaggedBuffer      = 1
	TypeUntaggedBuffer    = 2
)

var kindInfo = [...]struct {
	typ, code uint8
	name      string
}{
	KindShortHeader:       {TypeLocalCatastrophic, 0x00, "DDP header too short"},
	KindInvalidSTag:       {TypeTaggedBuffer, 0x00, "invalid STag"},
	KindBaseBounds:        {TypeTaggedBuffer, 0x01, "base or bounds violation"},
	KindSTagNotAssociated: {TypeTaggedBuffer, 0x02, "STag not associated with DDP stream"},
	KindTOWrap:            {TypeTaggedBuffer, 0x03, "TO wrap"},
	KindTaggedVersion:     {TypeTaggedBuffer, 0x04, "invalid DDP version"},
	KindInvalidQN:         {TypeUntaggedBuffer, 0x01, "invalid QN"},
	KindNoBuffer:          {TypeUntaggedBuffer, 0x02, "invalid MSN - no buffer available"},
	KindMSNRange:          {TypeUntaggedBuffer, 0x03, "invalid MSN - MSN range"},
	KindInvalidMO:         {TypeUntaggedBuffer, 0x04, "invalid MO"},
	KindTooLong:           {TypeUntaggedBuffer, 0x05, "DDP message too long for available buffer"},
	KindUntaggedVersion:   {TypeUntaggedBuffer, 0x06, "invalid DDP version"},
}

func (k Kind) valid() bool { return k > 0 && int(k) < len(kindInfo) }

// Type returns the RFC 5041 error type: TypeLocalCatastrophic,
// TypeTaggedBuffer or TypeUntaggedBuffer.
func (k Kind) Type() uint8 {
	if !k.valid() {
		return TypeLocalCatastrophic
	}
	return kindInfo[k].typ
}

// Code returns the RFC 5041 error code within the kind's error type.
func (k Kind) Code() uint8 {
	if !k.valid() {
		return 0
	}
	return kindInfo[k].code
}

// String returns the RFC 5041 name of the error.
func (k Kind) String() string {
	if !k.valid() {
		return fmt.Sprintf("Kind(%d)", uint8(k))
	}
	return kindInfo[k].name
}

// Error makes a Kind usable as the target of errors.Is.
func (k Kind) Error() string { return "ddp: " + k.String() }

// Error is a DDP error: its Kind and what was wrong.
type Error struct {
	Kind   Kind
	Detail string
	// The detail of an Error made by Place, formatted when Error is
	// called: a replay that only counts errors does not format them (nor
	// allocate for their numbers).
	format string
	args   [3]uint64
	nargs  uint8
}

// Error returns "ddp: <RFC name>: <detail>".
func (e *Error) Error() string {
	d := e.Detail
	if d == "" && e.format != "" {
		args := make([]any, e.nargs)
		for i := range args {
			args[i] = e.args[i]
		}
		d = fmt.Sprintf(e.format, args...)
	}
	if d == "" {
		return e.Kind.Error()
	}
	return e.Kind.Error() + ": " + d
}

// Is reports whether target is e's Kind, or an *Error of the same Kind.
func (e *Error) Is(target error) bool {
	switch t := target.(type) {
	case Kind:
		return t == e.Kind
	case *Error:
		return t.Kind == e.Kind
	}
	return false
}

// errorf returns an Error of kind k whose detail is format with the
// numbers args (at most three).
func errorf(k Kind, format string, args ...uint64) *Error {
	e := &Error{Kind: k, format: format}
	e.nargs = uint8(copy(e.args[:], args))
	return e
}

// errorCache holds the Errors a Placer returned last, one per slot chosen
// by their kind and numbers: a stream of segments failing the same way (an
// STag of another stream, a message with no buffer) gets the same Error
// again rather than a new one each (they are equal, and nothing changes
// an Error).
type errorCache [64]*Error

// errorf is errorf, giving the cached Error when it is the same.
func (c *errorCache) errorf(k Kind, format string, args ...uint64) error {
	h := uint64(k) * 0x9e3779b97f4a7c15
	for _, a := range args {
		h = (h ^ a) * 0xff51afd7ed558ccd
	}
	slot := &c[h>>58]
	if e := *slot; e != nil && e.Kind == k && e.format == format && int(e.nargs) == len(args) && e.Detail == "" {
		same := true
		for i, a := range args {
			same = same && e.args[i] == a
		}
		if same {
			return e
		}
	}
	e := errorf(k, format, args...)
	*slot = e
	return e
}
