package mpa

import (
	"encoding/binary"
	"errors"
	"fmt"
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

// AppendFPDU appends to dst the wire octets of the FPDU that carries ulpdu
// when its first octet has TCP sequence number seq: markers where the marker
// grid falls (a marker at seq itself comes first, with FPDUPTR 0; a marker at
// the CRC field comes before it), ULPDU_Length, ULPDU, pad, and the CRC over
// everything before the CRC field, markers included. With CRC off the CRC
// field is zero. It panics if ulpdu is longer than MaxULPDULen.
func (h Half) AppendFPDU(dst []byte, seq uint32, ulpdu []byte) []byte {
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
				dst = AppendMarker(dst, uint16(pos-seq))
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
		dst = AppendMarker(dst, uint16(pos-seq))
		pos += MarkerLen
	}
	var crc uint32
	if h.CRC {
		crc = CRC32C(dst[start:])
	}
	return AppendCRC(dst, crc)
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
// number of its first octet: first the CRC when it is on (ErrCRC), then
// every marker in it (ErrMarker; the two low bits of FPDUPTR are ignored).
// It returns the ULPDU, which aliases fpdu when markers are off and
// otherwise *scratch, which it reuses and grows.
func (h Half) Deframe(seq uint32, fpdu []byte, scratch *[]byte) ([]byte, error) {
	n := len(fpdu)
	if h.CRC {
		if got, want := WireCRC(fpdu[n-CRCLen:]), CRC32C(fpdu[:n-CRCLen]); got != want {
			return nil, fmt.Errorf("%w: CRC field %08x, computed %08x", ErrCRC, got, want)
		}
	}
	if !h.Markers {
		ulen := int(binary.BigEndian.Uint16(fpdu))
		return fpdu[LengthFieldLen : LengthFieldLen+ulen], nil
	}
	body := (*scratch)[:0]
	for off := 0; off < n-CRCLen; {
		s := seq + uint32(off)
		if h.IsMarker(s) {
			if ptr := uint32(binary.BigEndian.Uint16(fpdu[off+2:])) &^ 3; ptr != uint32(off) {
				return nil, fmt.Errorf("%w: marker at %d has FPDUPTR %d, the FPDU starts %d octets before", ErrMarker, s, ptr, off)
			}
			off += MarkerLen
			continue
		}
		step := min(int(h.NextMarker(s+1)-s), n-CRCLen-off)
		body = append(body, fpdu[off:off+step]...)
		off += step
	}
	*scratch = body
	ulen := int(binary.BigEndian.Uint16(body))
	return body[LengthFieldLen : LengthFieldLen+ulen], nil
}
