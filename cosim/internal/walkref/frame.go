// Package walkref holds what the co-simulation benches of the FPDU
// walker's parts (rtl/mpa_rx_walk_*.v; packages cosim/walkword,
// cosim/walkchain, ...) share: the walker's geometry, frames in the word
// view made from MPA streams, what each part must produce for a frame,
// computed from golden/mpa and the parts' header contracts (never from the
// RTL), and a cycle driver.
package walkref

import (
	"encoding/binary"

	"github.com/mparx/mparx/golden/mpa"
)

// Geom is the walker's geometry at one DATA_WIDTH (rtl/mpa_rx_walk.vh).
type Geom struct {
	Width  int // DATA_WIDTH
	WPB    int // words per beat
	LW     int // bits of a word offset in a beat
	KMAX   int // most ULPDU_Length words in a beat
	NCRC   int // FPDU slots (crc32c engines)
	NREC   int // record slots (record store banks)
	LCRC   int // crc32c latency
	DSPLIT int // 1 when the chains take two stages (512 bits)
}

// NewGeom returns the geometry for a DATA_WIDTH of 64, 128, 256 or 512.
func NewGeom(width int) Geom {
	wpb := width / 32
	lw := 0
	for 1<<lw < wpb {
		lw++
	}
	kmax := (wpb + 4) / 5
	g := Geom{Width: width, WPB: wpb, LW: lw, KMAX: kmax, NCRC: 1 + (wpb+3)/5, NREC: kmax + 1, LCRC: 5 + lw + 2}
	if kmax > 2 {
		g.DSPLIT = 1
	}
	return g
}

// Frame is one frame as the walker sees it: its word view and the half
// connection's parameters.
type Frame struct {
	Words    []uint32 // word k: frame octets 4k-2 .. 4k+1, the first in bits 7:0
	P0       int      // index of the first payload word
	NPay     int      // payload words (the last may be partly filler)
	SegSeq   uint32   // sequence number of the first payload octet
	SeqStart uint32
	Markers  bool
	CRC      bool
}

// Half returns the marker and CRC configuration the walker applies to the
// frame: SeqStart moved onto the payload's word grid when it is not on it
// (the word that holds a marker position counts).
func (f Frame) Half() mpa.Half {
	off := f.SegSeq - f.SeqStart
	return mpa.Half{Markers: f.Markers, CRC: f.CRC, SeqStart: f.SeqStart + off%4}
}

// Seq returns the sequence number of word w of the frame on the payload's
// word grid (words before the payload count back from it).
func (f Frame) Seq(w int) uint32 { return f.SegSeq + 4*uint32(w-f.P0) }

// Pay reports whether word w is a payload word.
func (f Frame) Pay(w int) bool { return w >= f.P0 && w < f.P0+f.NPay }

// Beats returns the number of beats of the frame at g.
func (f Frame) Beats(g Geom) int { return len(f.Words) / g.WPB }

// Grid reports the walker's sum_grid: markers off, or the payload on the
// marker grid's word alignment.
func (f Frame) Grid() bool { return !f.Markers || (f.SegSeq-f.SeqStart)%4 == 0 }

// Octets returns the octets of words [from, to) of the frame.
func (f Frame) Octets(from, to int) []byte {
	b := make([]byte, 0, 4*(to-from))
	for w := from; w < to; w++ {
		b = binary.LittleEndian.AppendUint32(b, f.Words[w])
	}
	return b
}

// ULen returns the ULPDU_Length that word w would hold: its octets 0 and
// 1, big endian.
func (f Frame) ULen(w int) int { return int(f.Words[w]&0xff)<<8 | int(f.Words[w]>>8&0xff) }

// BE returns word w as the stream's big-endian 32-bit word.
func (f Frame) BE(w int) uint32 {
	x := f.Words[w]
	return x<<24 | x<<8&0xff0000 | x>>8&0xff00 | x>>24
}
