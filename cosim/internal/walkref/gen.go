package walkref

import (
	"encoding/binary"
	"math/rand/v2"

	"github.com/mparx/mparx/golden/mpa"
)

// Gen makes frames of MPA streams for the benches: random half
// connections (markers on or off, CRC on or off, sequence numbers that
// wrap), ULPDUs from 0 to 3000 octets (small ones, and runs of 14-octet
// ones that put several FPDUs in a beat), segments cut on FPDU boundaries
// and anywhere else, damaged octets, payloads at every word lane.
type Gen struct {
	Rng  *rand.Rand
	data *rand.ChaCha8
	g    Geom
}

// NewGen returns a generator for geometry g.
func NewGen(seed uint64, g Geom) *Gen {
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:], seed)
	key[8] = byte(g.Width >> 3)
	return &Gen{Rng: rand.New(rand.NewPCG(seed, uint64(g.Width))), data: rand.NewChaCha8(key), g: g}
}

// Half returns a random half connection, its SeqStart often just below 2^32.
func (gn *Gen) Half() mpa.Half {
	h := mpa.Half{Markers: gn.Rng.IntN(2) == 0, CRC: gn.Rng.IntN(4) != 0, SeqStart: gn.Rng.Uint32()}
	if gn.Rng.IntN(2) == 0 {
		h.SeqStart = -uint32(1 + gn.Rng.IntN(40000))
	}
	return h
}

// ULPDU returns n random octets starting like a DDP header (T and L
// random, DV 1).
func (gn *Gen) ULPDU(n int) []byte {
	u := make([]byte, n)
	_, _ = gn.data.Read(u)
	if n > 0 {
		u[0] = byte(gn.Rng.IntN(4))<<6 | 1
	}
	return u
}

// Stream frames n ULPDUs. Kinds of sizes: 0 mostly 14..3000 and often
// short, 1 with a few under 14, 2 all 14..30 (half of them 14: the most
// FPDUs per beat), 3 all 502 or 1010 octets with markers on (every FPDU
// starts with a marker; the 1010-octet ones hold a second one).
func (gn *Gen) Stream(h mpa.Half, n, kind int) *mpa.Stream {
	if kind == 3 {
		h.Markers = true
	}
	st := mpa.NewStream(h)
	if gn.Rng.IntN(4) == 0 {
		st.Form = mpa.PtrDraft01
	}
	for i := 0; i < n; i++ {
		var size int
		switch r := gn.Rng.IntN(8); {
		case kind == 1 && r == 0:
			size = gn.Rng.IntN(14)
		case kind == 2 && r < 4:
			size = 14
		case kind == 2:
			size = 14 + gn.Rng.IntN(17)
		case kind == 3:
			size = []int{502, 502, 1010}[gn.Rng.IntN(3)]
		case r < 3:
			size = 14 + gn.Rng.IntN(60)
		default:
			size = 14 + gn.Rng.IntN(3000-14+1)
		}
		st.Add(gn.ULPDU(size))
	}
	return st
}

// Segments cuts a stream: on FPDU boundaries up to an EMSS, one FPDU per
// segment, random lengths, or at random octets.
func (gn *Gen) Segments(st *mpa.Stream) []mpa.Segment {
	switch gn.Rng.IntN(5) {
	case 0, 1:
		return st.Aligned(128 + gn.Rng.IntN(9000-128+1))
	case 2:
		return st.OnePerSegment()
	case 3:
		return st.Random(gn.Rng, 1, 1+gn.Rng.IntN(4000))
	}
	cuts := make([]int, 1+gn.Rng.IntN(8))
	for i := range cuts {
		cuts[i] = gn.Rng.IntN(len(st.Data) + 1)
	}
	return st.CutAt(cuts)
}

// Damage copies a segment's payload and, in a quarter of the segments,
// flips a bit of a CRC octet, of a marker's FPDUPTR or of any octet.
func (gn *Gen) Damage(st *mpa.Stream, seg mpa.Segment) []byte {
	d := append([]byte(nil), seg.Data...)
	if len(d) == 0 || gn.Rng.IntN(4) != 0 {
		return d
	}
	flip := func(i int) { d[i] ^= byte(1 << gn.Rng.IntN(8)) }
	base := int(seg.Seq - st.Half.SeqStart)
	switch gn.Rng.IntN(3) {
	case 0:
		for _, f := range st.FPDUs {
			if end := f.Off + f.Len - base; end >= 4 && end <= len(d) && gn.Rng.IntN(2) == 0 {
				flip(end - 1 - gn.Rng.IntN(4))
				return d
			}
		}
	case 1:
		for off := 0; off+4 <= len(d) && st.Half.Markers; off++ {
			if st.Half.IsMarker(seg.Seq+uint32(off)) && gn.Rng.IntN(2) == 0 {
				flip(off + 2 + gn.Rng.IntN(2))
				return d
			}
		}
	}
	flip(gn.Rng.IntN(len(d)))
	return d
}

// FrameAt places a payload in a frame's word view from word p0 on, random
// words around it and in its last word's filler, a whole number of beats.
func (gn *Gen) FrameAt(h mpa.Half, seq uint32, payload []byte, p0 int) Frame {
	npay := (len(payload) + 3) / 4
	nw := p0 + npay + gn.Rng.IntN(2*gn.g.WPB+1)
	nw = (nw + gn.g.WPB - 1) / gn.g.WPB * gn.g.WPB
	f := Frame{Words: make([]uint32, nw), P0: p0, NPay: npay, SegSeq: seq, SeqStart: h.SeqStart, Markers: h.Markers, CRC: h.CRC}
	for i := range f.Words {
		f.Words[i] = gn.Rng.Uint32()
	}
	var w [4]byte
	for k := 0; k < npay; k++ {
		binary.LittleEndian.PutUint32(w[:], f.Words[p0+k])
		copy(w[:], payload[4*k:])
		f.Words[p0+k] = binary.LittleEndian.Uint32(w[:])
	}
	return f
}

// Frames returns n frames of random streams (a few without payload), in
// stream order within each stream.
func (gn *Gen) Frames(n int) []Frame {
	var out []Frame
	for len(out) < n {
		h := gn.Half()
		st := gn.Stream(h, 1+gn.Rng.IntN(40), gn.Rng.IntN(4))
		for _, seg := range gn.Segments(st) {
			if len(out) == n {
				break
			}
			p0 := 14 + gn.Rng.IntN(gn.g.WPB+10)
			if gn.Rng.IntN(40) == 0 {
				out = append(out, gn.FrameAt(gn.Half(), gn.Rng.Uint32(), nil, p0))
				continue
			}
			out = append(out, gn.FrameAt(st.Half, seg.Seq, gn.Damage(st, seg), p0))
		}
	}
	return out
}
