package ddp

import (
	"encoding/binary"
	"fmt"
)

// Header lengths in octets.
const (
	TaggedHeaderLen   = 14
	UntaggedHeaderLen = 18
)

// DDP versions (the DV field).
const (
	VersionIETF = 1 // RFC 5041
	VersionRDMC = 0 // the RDMA Consortium's DDP specification
)

// Bits of the DDP control field (octet 0).
const (
	ctrlT     = 0x80
	ctrlL     = 0x40
	ctrlRsvd  = 0x3c
	ctrlDV    = 0x03
	rsvdShift = 2
)

// Header is a parsed DDP header. Tagged selects which group of fields is
// meaningful.
type Header struct {
	Tagged  bool  // T: tagged buffer model
	Last    bool  // L: last segment of a DDP message
	Version uint8 // DV: DDP version (2 bits)
	Rsvd    uint8 // the four reserved control bits, right aligned (0..15)
	ULPCtrl uint8 // octet 1, reserved for the ULP (RDMAP: RV and opcode)

	// Tagged buffer model.
	STag uint32 // Steering Tag of the Data Sink buffer
	TO   uint64 // Tagged Offset

	// Untagged buffer model.
	ULP uint32 // the 32 bits reserved for the ULP (octets 2-5)
	QN  uint32 // Queue Number
	MSN uint32 // Message Sequence Number
	MO  uint32 // Message Offset
}

// Len returns the header's length on the wire: TaggedHeaderLen or
// UntaggedHeaderLen.
func (h Header) Len() int {
	if h.Tagged {
		return TaggedHeaderLen
	}
	return UntaggedHeaderLen
}

// ParseHeader splits a ULPDU into its DDP header and payload. The payload is
// a sub-slice of ulpdu. It fails only when ulpdu is shorter than the header
// its T bit calls for (KindShortHeader); the version and the reserved bits
// are returned as found, for the Placer to judge.
func ParseHeader(ulpdu []byte) (h Header, payload []byte, err error) {
	if len(ulpdu) < 1 {
		return h, nil, &Error{Kind: KindShortHeader, Detail: "empty ULPDU"}
	}
	c := ulpdu[0]
	h.Tagged = c&ctrlT != 0
	h.Last = c&ctrlL != 0
	h.Rsvd = c & ctrlRsvd >> rsvdShift
	h.Version = c & ctrlDV
	if len(ulpdu) < h.Len() {
		return h, nil, &Error{Kind: KindShortHeader,
			Detail: fmt.Sprintf("%d-octet ULPDU, %d-octet header (T=%t)", len(ulpdu), h.Len(), h.Tagged)}
	}
	h.ULPCtrl = ulpdu[1]
	if h.Tagged {
		h.STag = binary.BigEndian.Uint32(ulpdu[2:])
		h.TO = binary.BigEndian.Uint64(ulpdu[6:])
	} else {
		h.ULP = binary.BigEndian.Uint32(ulpdu[2:])
		h.QN = binary.BigEndian.Uint32(ulpdu[6:])
		h.MSN = binary.BigEndian.Uint32(ulpdu[10:])
		h.MO = binary.BigEndian.Uint32(ulpdu[14:])
	}
	return h, ulpdu[h.Len():], nil
}

// AppendTo appends the header's wire encoding to dst. Version and Rsvd are
// masked to their field widths.
func (h Header) AppendTo(dst []byte) []byte {
	c := h.Version&ctrlDV | h.Rsvd<<rsvdShift&ctrlRsvd
	if h.Tagged {
		c |= ctrlT
	}
	if h.Last {
		c |= ctrlL
	}
	dst = append(dst, c, h.ULPCtrl)
	if h.Tagged {
		dst = binary.BigEndian.AppendUint32(dst, h.STag)
		return binary.BigEndian.AppendUint64(dst, h.TO)
	}
	dst = binary.BigEndian.AppendUint32(dst, h.ULP)
	dst = binary.BigEndian.AppendUint32(dst, h.QN)
	dst = binary.BigEndian.AppendUint32(dst, h.MSN)
	return binary.BigEndian.AppendUint32(dst, h.MO)
}

// String describes the header in one line, for logs and test failures.
func (h Header) String() string {
	l := 0
	if h.Last {
		l = 1
	}
	if h.Tagged {
		return fmt.Sprintf("tagged L=%d DV=%d STag=%#08x TO=%#x", l, h.Version, h.STag, h.TO)
	}
	return fmt.Sprintf("untagged L=%d DV=%d QN=%d MSN=%d MO=%d", l, h.Version, h.QN, h.MSN, h.MO)
}
