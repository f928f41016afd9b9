// Package walk checks rtl/mpa_rx_walk.v, the FPDU walker of the mpa_rx
// ingress, in co-simulation against a reference built on golden/mpa (the
// functions golden/fastpath's walk uses: FPDUAt, WireLen, NextMarker,
// Deframe, CRC32C).
//
// The reference works on a frame's word view (Frame) and computes what the
// RTL reports per FPDU (Record) and per frame (Summary); the rules are those
// of the RTL header: the walk records every FPDU whose ULPDU_Length word is
// payload and stops after the first ULPDU_Length under 14; CRC and marker
// checks cover the recorded FPDUs of 14 octets or more that end inside the
// payload (a marker's FPDUPTR counts from the FPDU's ULPDU_Length field, as
// RFC 5044 section 4.3 says; after a leading marker the draft-01 value,
// from the FPDU's first octet, is right too, and such FPDUs are counted by
// form); when the sequence number of the payload is off the marker grid's
// word alignment, markers are taken at the word holding the marker position.
package walk

import (
	"encoding/binary"
	"fmt"

	"github.com/mparx/mparx/cosim/crc32c"
	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/golden/mpa"
)

// Widths are the DATA_WIDTH values built as co-simulation variants.
var Widths = []int{64, 128, 256, 512}

// MaxFPDUs is the RTL's default MAX_FPDUS, which the variants use.
const MaxFPDUs = 512

// Variant returns the co-simulation variant name for a data width.
func Variant(dataWidth int) string { return fmt.Sprintf("mpa_rx_walk_w%d", dataWidth) }

// Latency returns L_WALK, the cycles from a frame's w_last beat to its
// sum_valid pulse: nine pipeline stages (ten when a beat can hold more than
// KMAX = 2 ULPDU_Length words, at 512 bits: the beat's walk takes two
// stages) plus the crc32c engine's latency.
func Latency(dataWidth int) int {
	if (dataWidth/32+4)/5 > 2 {
		return 10 + crc32c.Latency(dataWidth)
	}
	return 9 + crc32c.Latency(dataWidth)
}

// Engines returns NCRC, the number of crc32c engines: 1 + ceil((WPB-1)/5)
// for WPB = DATA_WIDTH/32 words per beat.
func Engines(dataWidth int) int { return 1 + (dataWidth/32+3)/5 }

// Banks returns NREC, the number of record slots and record FIFO banks:
// the records of a beat (at most KMAX = ceil(WPB/5)) and the newest one
// before it, and at least Engines.
func Banks(dataWidth int) int { return max(Engines(dataWidth), (dataWidth/32+4)/5+1) }

// Capacity returns how many records the record FIFO holds when nothing is
// read: Banks banks of 2^ceil(log2(ceil(maxFPDUs/Banks))) + 1.
func Capacity(dataWidth, maxFPDUs int) int {
	n := Banks(dataWidth)
	per := (maxFPDUs + n - 1) / n
	d := 1
	for d < per {
		d <<= 1
	}
	return n * (d + 1)
}

// Frame is one frame as the walker sees it.
type Frame struct {
	Words    []uint32 // word k: frame octets 4k-2 .. 4k+1, the first in bits 7:0
	P0       int      // index of the first payload word
	NPay     int      // payload words (the last may be partly filler)
	SegSeq   uint32   // sequence number of the first payload octet
	SeqStart uint32
	Markers  bool
	CRC      bool
}

// Record is one FPDU record.
type Record struct {
	LseqW uint16    // payload word index of the ULPDU_Length word
	ULen  uint16    // ULPDU_Length
	Ctrl  uint8     // DDP control octet
	ULP   uint8     // octet 1 of the ULPDU
	Hdr   [4]uint32 // the next four words, markers skipped, big endian; 0 past the payload
	First bool
	Last  bool
}

func (r Record) String() string {
	return fmt.Sprintf("{lseq_w %d ulen %d ctrl %#02x ulp %#02x hdr %08x %08x %08x %08x first %v last %v}",
		r.LseqW, r.ULen, r.Ctrl, r.ULP, r.Hdr[0], r.Hdr[1], r.Hdr[2], r.Hdr[3], r.First, r.Last)
}

// Summary is the per-frame result.
type Summary struct {
	Whole       bool
	Small       bool
	Grid        bool
	CRCOK       bool
	MarkerOK    bool
	FirstMarker bool
	AnyL        bool
	NFPDU       int
	// NRFC and NDraft count the checked FPDUs that begin with a marker,
	// hold a later one, and whose markers are right in the RFC 5044 /
	// draft-01 FPDUPTR form (mpa.Half.DeframeForm).
	NRFC, NDraft int
}

// Payload returns the payload words of f as octets (a partial last word
// with its filler).
func (f Frame) Payload() []byte {
	b := make([]byte, 4*f.NPay)
	for k := 0; k < f.NPay; k++ {
		binary.LittleEndian.PutUint32(b[4*k:], f.Words[f.P0+k])
	}
	return b
}

// Half returns the marker and CRC configuration the walker applies to the
// frame: SeqStart moved onto the payload's word grid when it is not on it.
func (f Frame) Half() mpa.Half {
	off := f.SegSeq - f.SeqStart
	return mpa.Half{Markers: f.Markers, CRC: f.CRC, SeqStart: f.SeqStart + off%4}
}

// Expect computes the records and the summary of a frame.
func Expect(f Frame) ([]Record, Summary) {
	s := Summary{Grid: !f.Markers || (f.SegSeq-f.SeqStart)%4 == 0, CRCOK: true, MarkerOK: true}
	h := f.Half()
	markersOnly := mpa.Half{Markers: true, SeqStart: h.SeqStart}
	b := f.Payload()
	n := len(b)
	var recs []Record
	var scratch []byte
	off := 0
	for off < n {
		seq := f.SegSeq + uint32(off)
		wl, lseq := h.FPDUAt(seq, b[off:])
		if wl == 0 {
			break // its ULPDU_Length word is not payload
		}
		lw := int(lseq-f.SegSeq) / 4
		word := b[4*lw : 4*lw+4]
		r := Record{
			LseqW: uint16(lw),
			ULen:  binary.BigEndian.Uint16(word),
			Ctrl:  word[2],
			ULP:   word[3],
			First: len(recs) == 0,
		}
		for i, w := 0, lw+1; i < 4; w++ {
			if h.IsMarker(f.SegSeq + uint32(4*w)) {
				continue
			}
			if w < f.NPay {
				r.Hdr[i] = binary.BigEndian.Uint32(b[4*w:])
			}
			i++
		}
		if len(recs) == 0 {
			s.FirstMarker = f.Markers && h.NextMarker(seq)-seq < uint32(wl-mpa.CRCLen)
		}
		if r.Ctrl&0x40 != 0 {
			s.AnyL = true
		}
		recs = append(recs, r)
		if int(r.ULen) < fastpath.MinULPDU {
			s.Small = true
			break
		}
		if off+wl <= n {
			fp := b[off : off+wl]
			if f.CRC && mpa.WireCRC(fp[wl-mpa.CRCLen:]) != mpa.CRC32C(fp[:wl-mpa.CRCLen]) {
				s.CRCOK = false
			}
			if f.Markers {
				_, form, err := markersOnly.DeframeForm(seq, fp, &scratch)
				switch {
				case err != nil:
					s.MarkerOK = false
				case form == mpa.PtrRFC5044:
					s.NRFC++
				case form == mpa.PtrDraft01:
					s.NDraft++
				}
			}
		}
		off += wl
	}
	if len(recs) > 0 {
		recs[len(recs)-1].Last = true
	}
	s.NFPDU = len(recs)
	s.Whole = len(recs) > 0 && !s.Small && off == n
	return recs, s
}
