package mpa

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// Sizes of the fixed FPDU fields, in octets.
const (
	LengthFieldLen = 2   // ULPDU_Length
	CRCLen         = 4   // CRC field, present even when CRC is off
	MarkerLen      = 4   // 16 reserved bits | FPDUPTR
	MarkerInterval = 512 // octets of sequence space between markers
	MaxULPDULen    = 65535
	MinMULPDU      = 128
	MaxMULPDU      = 64768
)

// PadLen returns the number of zero octets that follow a ULPDU of n octets so
// that ULPDU_Length, ULPDU and pad fill a multiple of four octets.
func PadLen(n int) int { return (4 - (LengthFieldLen+n)%4) % 4 }

// FPDULen returns the octets of an FPDU that carries a ULPDU of n octets, not
// counting markers: ULPDU_Length, ULPDU, pad and CRC.
func FPDULen(n int) int { return LengthFieldLen + n + PadLen(n) + CRCLen }

// MULPDU returns the largest ULPDU whose FPDU fits in a TCP segment of emss
// octets (RFC 5044 section 4.5): emss - (6 + 4*ceil(emss/512) + emss mod 4)
// with markers, emss - (6 + emss mod 4) without.
func MULPDU(emss int, markers bool) int {
	if markers {
		return emss - (6 + 4*((emss+MarkerInterval-1)/MarkerInterval) + emss%4)
	}
	return emss - (6 + emss%4)
}

// Half is the framing configuration of one half connection in full
// operation: whether the sender inserts markers, whether the CRC is in use,
// and SeqStart, the TCP sequence number of the first octet of full operation
// (the base of the marker grid).
type Half struct {
	Markers  bool
	CRC      bool
	SeqStart uint32
}

// IsMarker reports whether a marker starts at sequence number seq.
func (h Half) IsMarker(seq uint32) bool {
	return h.Markers && (seq-h.SeqStart)%MarkerInterval == 0
}

// NextMarker returns the sequence number of the first marker position at or
// after seq (modulo 2^32). It is meaningful only when markers are on.
func (h Half) NextMarker(seq uint32) uint32 {
	off := (seq - h.SeqStart) % MarkerInterval
	if off == 0 {
		return seq
	}
	return seq + (MarkerInterval - off)
}

// WireLen returns how many octets of sequence space an FPDU starting at seq
// occupies when it carries n octets of FPDU content (markers excluded, as
// FPDULen counts): the content plus every marker inserted in it. A marker
// position just after the last CRC octet belongs to the next FPDU.
func (h Half) WireLen(seq uint32, content int) int {
	if !h.Markers {
		return content
	}
	pos := seq
	total := 0
	for content > 0 {
		if h.IsMarker(pos) {
			pos += MarkerLen
			total += MarkerLen
			continue
		}
		chunk := int(h.NextMarker(pos+1) - pos)
		if chunk > content {
			chunk = content
		}
		pos += uint32(chunk)
		total += chunk
		content -= chunk
	}
	return total
}

// AppendMarker appends a marker with the given FPDUPTR.
func AppendMarker(dst []byte, fpduptr uint16) []byte {
	return append(dst, 0, 0, byte(fpduptr>>8), byte(fpduptr))
}

// PtrForm is the reading of FPDUPTR that an FPDU's markers follow. The two
// readings differ only for an FPDU that begins with a marker and holds a
// later one (the first FPDU of a marker-enabled stream once it is 508
// octets or longer, and any FPDU that starts on a 512-octet marker
// boundary): RFC 5044 section 4.3 counts from the first octet of the
// ULPDU_Length field, draft-ietf-rddp-mpa-01 (the framing seed) from the
// first octet of the FPDU, the leading marker included, so its value is 4
// more.
type PtrForm uint8

// FPDUPTR forms.
const (
	// PtrPlain: no marker follows a leading marker in the FPDU, so both
	// readings give the same values (or markers are off).
	PtrPlain PtrForm = iota
	// PtrRFC5044: the FPDU begins with a marker and its later markers
	// count from its ULPDU_Length field, as RFC 5044 says.
	PtrRFC5044
	// PtrDraft01: the FPDU begins with a marker and its later markers
	// count from its first octet (the leading marker), as draft-01 says.
	PtrDraft01
)

var ptrFormNames = [...]string{"plain", "rfc5044", "draft-01"}

func (f PtrForm) String() string {
	if int(f) < len(ptrFormNames) {
		return ptrFormNames[f]
	}
	return fmt.Sprintf("PtrForm(%d)", f)
}

// MarkerPtr returns the FPDUPTR of the marker at sequence number m inside
// the FPDU whose first octet is at seq, in the given form (PtrPlain and
// PtrRFC5044 both give the RFC 5044 value): the octets from the FPDU's
// ULPDU_Length field to the marker, 0 for a marker at seq itself (RFC 5044
// section 4.3), truncated to 16 bits (a distance of 65536 or more, only
// in a ULPDU above MaxMULPDU, does not fit; CheckMarker rejects it).
func (h Half) MarkerPtr(seq, m uint32, form PtrForm) uint16 {
	d := m - seq
	if d != 0 && form != PtrDraft01 && h.IsMarker(seq) {
		d -= MarkerLen // count from the ULPDU_Length field after the leading marker
	}
	return uint16(d)
}

// CheckMarker checks the FPDUPTR ptr (its two low bits are ignored) of the
// marker at m inside the FPDU whose first octet is at seq. A marker at seq
// must hold 0. A later marker must hold the RFC 5044 value; when the FPDU
// begins with a marker, the draft-01 value (4 more) is accepted too. It
// reports whether ptr is right and which form it showed (PtrPlain when the
// two forms agree).
//
// The comparison is over the whole distance: a value of 65536 or more does
// not fit the 16-bit field, so no FPDUPTR is right for such a marker (of a
// ULPDU above MaxMULPDU), whatever the truncated value.
func (h Half) CheckMarker(seq, m uint32, ptr uint16) (PtrForm, bool) {
	p, d := uint32(ptr&^3), m-seq
	if m == seq || !h.IsMarker(seq) {
		return PtrPlain, p == d
	}
	switch p {
	case d - MarkerLen:
		return PtrRFC5044, true
	case d:
		return PtrDraft01, true
	}
	return PtrPlain, false
}

// PointsAt returns the sequence number of the first octet of the FPDU that
// a marker at m with FPDUPTR ptr names: m itself for 0; otherwise the
// ULPDU_Length field at m - ptr, or the marker just before it when the
// marker grid has one there (the FPDU's leading marker, RFC 5044 reading),
// or m - ptr when that is a marker position (the draft-01 reading of an
// FPDU with a leading marker).
func (h Half) PointsAt(m uint32, ptr uint16) uint32 {
	p := m - uint32(ptr&^3)
	if !h.IsMarker(p) && h.IsMarker(p-MarkerLen) {
		return p - MarkerLen
	}
	return p
}

// AppendFPDU appends to dst the wire octets of the FPDU that carries ulpdu
// when its first octet has TCP sequence number seq: markers where the marker
// grid falls (a marker at seq itself comes first, with FPDUPTR 0; a marker at
// the CRC field comes before it), ULPDU_Length, ULPDU, pad, and the CRC over
// everything before the CRC field, markers included. Markers carry the RFC
// 5044 FPDUPTR. With CRC off the CRC field is zero. It panics if ulpdu is
// longer than MaxULPDULen.
func (h Half) AppendFPDU(dst []byte, seq uint32, ulpdu []byte) []byte {
	return h.AppendFPDUForm(dst, seq, ulpdu, PtrRFC5044)
}

// AppendFPDUForm is AppendFPDU with the markers' FPDUPTR in the given form:
// PtrDraft01 frames as a draft-01 sender does (see PtrForm).
func (h Half) AppendFPDUForm(dst []byte, seq uint32, ulpdu []byte, form PtrForm) []byte {
	if len(ulpdu) > MaxULPDULen {
		panic(fmt.Sprintf("mpa: ULPDU of %d octets exceeds %d", len(ulpdu), MaxULPDULen))
	}
	start := len(dst)
	var hdr [LengthFieldLen]byte
	binary.BigEndian.PutUint16(hdr[:], uint16(len(ulpdu)))
	var pad [3]byte
	pos := seq
	emit := func(b []byte) {
		for len(b) > 0 {
			if h.IsMarker(pos) {
				dst = AppendMarker(dst, h.MarkerPtr(seq, pos, form))
				pos += MarkerLen
				continue
			}
			n := len(b)
			if h.Markers {
				if room := int(h.NextMarker(pos+1) - pos); room < n {
					n = room
				}
			}
			dst = append(dst, b[:n]...)
			pos += uint32(n)
			b = b[n:]
		}
	}
	emit(hdr[:])
	emit(ulpdu)
	emit(pad[:PadLen(len(ulpdu))])
	if h.IsMarker(pos) { // marker in front of the CRC field
		dst = AppendMarker(dst, h.MarkerPtr(seq, pos, form))
		pos += MarkerLen
	}
	var crc uint32
	if h.CRC {
		crc = CRC32C(dst[start:])
	}
	return AppendCRC(dst, crc)
}

// MaybeFPDU reports whether b could be exactly one FPDU of a half
// connection with or without markers, whatever its marker grid: its
// ULPDU_Length (at its start, or after a leading marker) gives an FPDU
// that spans b, but for as many markers as b can hold. It looks at the
// first six octets only: a guess, for work done ahead (an FPDU's CRC
// computed while its segment is read), never a check.
func MaybeFPDU(b []byte) bool {
	n := len(b)
	if n < LengthFieldLen+CRCLen {
		return false
	}
	for _, lead := range []int{0, MarkerLen} {
		if n < lead+LengthFieldLen {
			break
		}
		extra := n - lead - FPDULen(int(binary.BigEndian.Uint16(b[lead:])))
		if extra >= 0 && extra%MarkerLen == 0 && extra <= MarkerLen*(n/MarkerInterval+1) {
			return true
		}
	}
	return false
}

// FPDUAt decodes the start of the FPDU whose first octet has sequence number
// seq, given the octets b from there on. It returns the FPDU's wire length
// (markers included), or 0 when b is too short to hold its ULPDU_Length, and
// the sequence number of the ULPDU_Length field (after a leading marker).
func (h Half) FPDUAt(seq uint32, b []byte) (wireLen int, lengthSeq uint32) {
	hdr := 0
	if h.IsMarker(seq) {
		hdr = MarkerLen
	}
	if len(b) < hdr+LengthFieldLen {
		return 0, 0
	}
	ulen := int(binary.BigEndian.Uint16(b[hdr:]))
	return h.WireLen(seq, FPDULen(ulen)), seq + uint32(hdr)
}

// Errors of Deframe.
var (
	ErrCRC    = errors.New("mpa: CRC mismatch")                           // RFC 5044 section 8, code 2
	ErrMarker = errors.New("mpa: marker FPDUPTR disagrees with the FPDU") // code 3
)

// Deframe validates one whole FPDU, given its wire octets and the sequence
// number of its first octet: first every marker in it (ErrMarker; see
// CheckMarker: the two low bits of FPDUPTR are ignored, and the markers of
// one FPDU must all follow one form), then the CRC when it is on (ErrCRC).
// Markers come first because a receiver knows a marker error as soon as it
// holds the FPDU's header and the marker, before the rest of the FPDU
// (golden/rx reports it then), so the error code does not depend on how
// the stream was cut into segments. It returns the ULPDU, which aliases
// fpdu when markers are off and otherwise *scratch, which it reuses and
// grows.
func (h Half) Deframe(seq uint32, fpdu []byte, scratch *[]byte) ([]byte, error) {
	u, _, err := h.DeframeForm(seq, fpdu, scratch)
	return u, err
}

// DeframeForm is Deframe that also returns the FPDUPTR form the FPDU's
// markers showed.
func (h Half) DeframeForm(seq uint32, fpdu []byte, scratch *[]byte) ([]byte, PtrForm, error) {
	return h.DeframeFormCRC(seq, fpdu, scratch, 0, false)
}

// DeframeFormCRC is DeframeForm given, when known is set, crc, the CRC32C
// of fpdu without its CRC field (CRC32C(fpdu[:len(fpdu)-CRCLen])),
// computed beforehand (in another goroutine, while the octets were read).
func (h Half) DeframeFormCRC(seq uint32, fpdu []byte, scratch *[]byte, crc uint32, known bool) ([]byte, PtrForm, error) {
	return h.DeframeHead(seq, fpdu, scratch, crc, known, -1)
}

// DeframeHead is DeframeFormCRC that, when head >= 0 and markers are on,
// copies only the first head octets of the FPDU's content (from its
// ULPDU_Length field, markers skipped) into scratch: the returned ULPDU
// has its length, and its octets past those are what scratch held. For a
// reader of the ULPDU's headers only (a receiver whose placements are
// discarded and that computes no digests), which the copy of every
// payload octet would cost.
func (h Half) DeframeHead(seq uint32, fpdu []byte, scratch *[]byte, crc uint32, known bool, head int) ([]byte, PtrForm, error) {
	n := len(fpdu)
	form := PtrPlain
	if h.Markers {
		for off := h.NextMarker(seq) - seq; int(off)+MarkerLen <= n-CRCLen; off += MarkerInterval {
			m := seq + off
			ptr := binary.BigEndian.Uint16(fpdu[off+2:])
			f, ok := h.CheckMarker(seq, m, ptr)
			if ok && f != PtrPlain {
				if form != PtrPlain && form != f {
					return nil, form, fmt.Errorf("%w: marker at %d has FPDUPTR %d in the %v form, an earlier marker of the FPDU at %d in the %v form", ErrMarker, m, ptr&^3, f, seq, form)
				}
				form = f
			}
			if !ok {
				return nil, form, fmt.Errorf("%w: marker at %d has FPDUPTR %d, want %d for the FPDU at %d", ErrMarker, m, ptr&^3, h.MarkerPtr(seq, m, PtrRFC5044), seq)
			}
		}
	}
	if h.CRC {
		if !known {
			crc = CRC32C(fpdu[:n-CRCLen])
		}
		if got, want := WireCRC(fpdu[n-CRCLen:]), crc; got != want {
			return nil, form, fmt.Errorf("%w: CRC field %08x, computed %08x", ErrCRC, got, want)
		}
	}
	if !h.Markers {
		ulen := int(binary.BigEndian.Uint16(fpdu))
		return fpdu[LengthFieldLen : LengthFieldLen+ulen], form, nil
	}
	body := (*scratch)[:0]
	for off := 0; off < n-CRCLen; {
		s := seq + uint32(off)
		if h.IsMarker(s) {
			off += MarkerLen
			continue
		}
		step := min(int(h.NextMarker(s+1)-s), n-CRCLen-off)
		c := step // octets copied
		if head >= 0 {
			c = max(min(step, head-len(body)), 0)
		}
		body = append(body, fpdu[off:off+c]...)
		if c < step {
			body = slices.Grow(body, step-c)[:len(body)+step-c]
		}
		off += step
	}
	*scratch = body
	ulen := int(binary.BigEndian.Uint16(body))
	return body[LengthFieldLen : LengthFieldLen+ulen], form, nil
}
