package mpa

import (
	"math/rand/v2"
	"sort"
)

// FPDURef locates one FPDU in a Stream.
type FPDURef struct {
	Off       int    // offset of the FPDU's first octet in Stream.Data
	Len       int    // octets on the wire, markers included
	Seq       uint32 // sequence number of its first octet
	LengthSeq uint32 // sequence number of its ULPDU_Length field
	ULPDULen  int
}

// Stream is the framed octet stream of one half connection in full
// operation, built FPDU by FPDU, with the FPDU boundaries remembered so that
// segmentation policies can honour or ignore them.
type Stream struct {
	Half Half
	// Form is the FPDUPTR form Add frames with: the RFC 5044 value unless
	// PtrDraft01 (a draft-01 sender; see PtrForm).
	Form  PtrForm
	Data  []byte
	FPDUs []FPDURef
}

// NewStream starts a stream whose first octet has sequence number
// h.SeqStart.
func NewStream(h Half) *Stream { return &Stream{Half: h} }

// Seq returns the sequence number of the octet at offset off.
func (s *Stream) Seq(off int) uint32 { return s.Half.SeqStart + uint32(off) }

// Add frames ulpdu as the next FPDU and returns where it went.
func (s *Stream) Add(ulpdu []byte) FPDURef {
	off := len(s.Data)
	seq := s.Seq(off)
	s.Data = s.Half.AppendFPDUForm(s.Data, seq, ulpdu, s.Form)
	r := FPDURef{Off: off, Len: len(s.Data) - off, Seq: seq, LengthSeq: seq, ULPDULen: len(ulpdu)}
	if s.Half.IsMarker(seq) {
		r.LengthSeq += MarkerLen
	}
	s.FPDUs = append(s.FPDUs, r)
	return r
}

// Segment is a TCP segment's payload and the sequence number of its first
// octet.
type Segment struct {
	Seq  uint32
	Data []byte
}

// End returns the sequence number just past the segment.
func (g Segment) End() uint32 { return g.Seq + uint32(len(g.Data)) }

// CutAt splits the stream at the given offsets (sorted, deduplicated, and
// clipped to the stream) into segments: the policy of a re-segmenting
// middlebox.
func (s *Stream) CutAt(offs []int) []Segment {
	cuts := append([]int(nil), offs...)
	sort.Ints(cuts)
	var segs []Segment
	prev := 0
	for _, c := range append(cuts, len(s.Data)) {
		if c <= prev || c > len(s.Data) {
			continue
		}
		segs = append(segs, Segment{Seq: s.Seq(prev), Data: s.Data[prev:c]})
		prev = c
	}
	return segs
}

// Aligned packs whole FPDUs into segments of at most emss octets, in order,
// as an MPA-aware sender does (RFC 5044 section 5.1). An FPDU longer than
// emss (a ULPDU above MULPDU) is cut at emss boundaries.
func (s *Stream) Aligned(emss int) []Segment {
	return s.CutAt(AlignedCuts(s.FPDUs, 0, emss))
}

// AlignedCuts returns the cut points (stream offsets) that pack fpdus, which
// follow one another from offset from on, whole into segments of at most
// limit octets; an FPDU longer than limit is cut at limit boundaries.
func AlignedCuts(fpdus []FPDURef, from, limit int) []int {
	var cuts []int
	segStart := from
	for _, f := range fpdus {
		end := f.Off + f.Len
		if end-segStart <= limit {
			continue
		}
		if f.Off > segStart {
			cuts = append(cuts, f.Off)
			segStart = f.Off
		}
		for end-segStart > limit {
			segStart += limit
			cuts = append(cuts, segStart)
		}
	}
	return cuts
}

// OnePerSegment puts every FPDU in a segment of its own.
func (s *Stream) OnePerSegment() []Segment {
	cuts := make([]int, 0, len(s.FPDUs))
	for _, f := range s.FPDUs {
		cuts = append(cuts, f.Off)
	}
	return s.CutAt(cuts)
}

// Random cuts the stream at random points into segments of minLen to
// maxLen octets (the last may be shorter).
func (s *Stream) Random(rng *rand.Rand, minLen, maxLen int) []Segment {
	var cuts []int
	for off := 0; off < len(s.Data); {
		off += minLen + rng.IntN(maxLen-minLen+1)
		cuts = append(cuts, off)
	}
	return s.CutAt(cuts)
}
