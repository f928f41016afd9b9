package walkref

import (
	"encoding/binary"

	"github.com/mparx/mparx/golden/mpa"
)

// MinULPDU is the smallest ULPDU_Length that does not stop the walk.
const MinULPDU = 14

// Word is what mpa_rx_walk_word reports for one word, as if it held a
// ULPDU_Length (positions modulo 2^16).
type Word struct {
	E, NL                uint16 // first word after the FPDU; the next ULPDU_Length word
	Small, FM, MK, MKPre bool
	HS                   int // header word index after a marker position, 4 for none
}

// WordAt computes Word for word w of f from golden/mpa: the FPDU whose
// ULPDU_Length field is word w has mpa.FPDULen(n) octets of content, and
// WireLen counts the markers among them.
func (f Frame) WordAt(w int) Word {
	h := f.Half()
	s := f.Seq(w)
	n := f.ULen(w)
	content := mpa.FPDULen(n)
	wl := h.WireLen(s, content)
	out := Word{
		E:     uint16(w + wl/4),
		Small: n < MinULPDU,
		FM:    wl > content,
		MK:    h.IsMarker(s),
		MKPre: h.IsMarker(s - 4),
		HS:    4,
	}
	out.NL = out.E
	if h.IsMarker(s + uint32(wl)) {
		out.NL++
	}
	for r := 1; r <= 4; r++ {
		if h.IsMarker(s + 4*uint32(r)) {
			out.HS = r - 1
			break
		}
	}
	return out
}

// Beat is mpa_rx_walk_word's per-beat result for beat b of f.
type Beat struct {
	First, Last, PFirst bool
	Data                []uint32 // the beat's words
	PMask               uint64
	B, Bn               uint16 // Bn has 16 - LW bits
	Con, Grid, MkP0     bool
	P0, NL0, Pendx      uint16
	Hit0, NL0n          bool
	Paid                bool // the frame had a payload word by this beat: its grid phase is known
	Words               []Word
}

// BeatAt computes Beat for beat b of f at geometry g.
func (f Frame) BeatAt(g Geom, b int) Beat {
	base := b * g.WPB
	bt := Beat{
		First: b == 0,
		Last:  b == f.Beats(g)-1,
		Data:  f.Words[base : base+g.WPB],
		B:     uint16(base),
		Bn:    uint16((base>>g.LW)+1) & (1<<(16-g.LW) - 1),
		Con:   f.CRC,
		Grid:  f.Grid(),
		MkP0:  f.Markers && (f.SegSeq-f.SeqStart)%512 < 4,
		Paid:  f.NPay > 0 && f.P0 < base+g.WPB,
	}
	j0, hi := -1, 0
	for j := 0; j < g.WPB; j++ {
		if f.Pay(base + j) {
			bt.PMask |= 1 << j
			if j0 < 0 {
				j0 = j
			}
			hi = j
		}
	}
	bt.PFirst = j0 >= 0 && f.P0 >= base
	j0 = max(j0, 0)
	bt.P0 = uint16(base + j0)
	bt.NL0 = bt.P0
	if bt.MkP0 {
		bt.NL0++
	}
	bt.Hit0 = bt.NL0>>g.LW == bt.B>>g.LW
	bt.NL0n = bt.MkP0 && j0 == g.WPB-1
	bt.Pendx = uint16(base + hi + 1)
	bt.Words = make([]Word, g.WPB)
	for j := range bt.Words {
		bt.Words[j] = f.WordAt(base + j)
	}
	return bt
}

// LBit reports the DDP L bit of word j of a beat (control octet 2, 0x40).
func (bt Beat) LBit(j int) bool { return bt.Data[j]>>22&1 != 0 }

// How a beat's chain of ULPDU_Length words ends (rtl/mpa_rx_walk.vh).
const (
	EndCont   = 0 // the chain leaves the beat, the walk goes on
	EndNonPay = 1 // a ULPDU_Length word is not payload
	EndSmall  = 2 // a ULPDU_Length < 14 was recorded
)

// Chain is mpa_rx_walk_chain's result for one entry word.
type Chain struct {
	Cnt               int
	Pos               []int // KMAX offsets, 0 past Cnt
	End               int
	AnyL              bool
	ExL, ExS          uint16
	ExLn, ExSn, PendX bool
}

// Chains computes mpa_rx_walk_chain's function from its header contract:
// for every entry word, the visits (at most KMAX) of the ULPDU_Length
// words that the beat holds from there.
func Chains(g Geom, bt Beat) []Chain {
	beat := bt.B >> g.LW
	out := make([]Chain, g.WPB)
	for e := range out {
		c := Chain{Pos: make([]int, g.KMAX), End: EndCont}
		v, last := e, e
		for c.Cnt < g.KMAX {
			if bt.PMask>>v&1 == 0 {
				c.End = EndNonPay
				break
			}
			c.Pos[c.Cnt] = v
			c.Cnt++
			c.AnyL = c.AnyL || bt.LBit(v)
			last = v
			w := bt.Words[v]
			if w.Small {
				c.End = EndSmall
				break
			}
			if w.NL>>g.LW != beat {
				break
			}
			v = int(w.NL) & (g.WPB - 1)
		}
		x := bt.Words[last]
		c.ExL, c.ExS = x.NL, x.E
		bn := bt.Bn
		c.ExLn = x.NL>>g.LW == bn
		c.ExSn = x.E>>g.LW == bn
		c.PendX = x.E>>g.LW == beat && x.NL>>g.LW != beat
		out[e] = c
	}
	return out
}

// FPDU is one FPDU of a frame's walk, positions in frame words.
type FPDU struct {
	S, L, E  int  // first word (its leading marker, if any), ULPDU_Length word, first word after
	Lead     bool // begins with a marker
	Recorded bool // its ULPDU_Length word is payload
	Small    bool // ULPDU_Length < 14
	Checked  bool // recorded, not small, its CRC word is payload
	Rec      Record
	Hdr4     int // position of its fourth header word
}

// Record is the walker record of a recorded FPDU.
type Record struct {
	LseqW uint16    // payload word index of the ULPDU_Length word
	Word  uint32    // the ULPDU_Length word as it came
	Hdr   [4]uint32 // the next four words, markers skipped, big endian; 0 past the payload
	First bool
	Last  bool
}

// Walk returns the FPDUs the walker finds in f, by golden/mpa's framing:
// every recorded FPDU, and the one whose ULPDU_Length word ends the walk
// (not payload, Recorded false) when its first word is payload.
func (f Frame) Walk() []FPDU {
	h := f.Half()
	var out []FPDU
	for s := f.P0; f.Pay(s); {
		x := FPDU{S: s, L: s, Lead: h.IsMarker(f.Seq(s))}
		if x.Lead {
			x.L++
		}
		if !f.Pay(x.L) {
			out = append(out, x)
			break
		}
		n := f.ULen(x.L)
		x.E = s + h.WireLen(f.Seq(s), mpa.FPDULen(n))/4
		x.Recorded, x.Small = true, n < MinULPDU
		x.Checked = !x.Small && f.Pay(x.E-1)
		x.Rec = Record{LseqW: uint16(x.L - f.P0), Word: f.Words[x.L], First: len(out) == 0}
		for i, w := 0, x.L+1; i < 4; w++ {
			if h.IsMarker(f.Seq(w)) {
				continue
			}
			if f.Pay(w) {
				x.Rec.Hdr[i] = f.BE(w)
			}
			x.Hdr4 = w
			i++
		}
		out = append(out, x)
		if x.Small {
			break
		}
		s = x.E
	}
	if n := len(out); n > 0 {
		last := n - 1
		if !out[last].Recorded {
			last--
		}
		if last >= 0 {
			out[last].Rec.Last = true
		}
	}
	return out
}

// FirstMarker reports whether FPDU x holds a marker before its CRC word
// (a leading marker counts).
func (f Frame) FirstMarker(x FPDU) bool {
	h := f.Half()
	s := f.Seq(x.S)
	return f.Markers && int(h.NextMarker(s)-s) < 4*(x.E-x.S)-mpa.CRCLen
}

// MarkerCheck returns the marker check of a checked FPDU by
// mpa.Half.DeframeForm with markers only: a wrong FPDUPTR, or all right
// in the RFC 5044 / draft-01 form.
func (f Frame) MarkerCheck(x FPDU) (bad, rfc, draft bool) {
	if !f.Markers {
		return false, false, false
	}
	h := f.Half()
	only := mpa.Half{Markers: true, SeqStart: h.SeqStart}
	var scratch []byte
	_, form, err := only.DeframeForm(f.Seq(x.S), f.Octets(x.S, x.E), &scratch)
	return err != nil, err == nil && form == mpa.PtrRFC5044, err == nil && form == mpa.PtrDraft01
}

// CRCOK reports whether a checked FPDU's CRC field matches.
func (f Frame) CRCOK(x FPDU) bool {
	b := f.Octets(x.S, x.E)
	return mpa.WireCRC(b[len(b)-mpa.CRCLen:]) == mpa.CRC32C(b[:len(b)-mpa.CRCLen])
}

// Ptr returns FPDUPTR / 4 of the marker in word w (its octets 2 and 3,
// big endian).
func (f Frame) Ptr(w int) uint16 {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], f.Words[w])
	return binary.BigEndian.Uint16(b[2:]) >> 2
}
