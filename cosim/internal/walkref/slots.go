package walkref

// SlotBeat is what one FPDU slot gives its crc32c engine in one beat
// (mpa_rx_walk_fpdu), and the checks of an FPDU that ends there.
type SlotBeat struct {
	Valid, Last bool
	Keep        uint64 // words of the beat (bit j: word j)
	Chk         bool   // a checked FPDU ends, and CRC is on
	MkErr       bool   // a checked FPDU ends: a marker has a wrong FPDUPTR
	RFC, Draft  bool   // ... all right, later markers in the RFC 5044 / draft-01 form
}

// Opened returns the indices (in walk) of the FPDUs that take an FPDU
// slot, in order: the recorded ones, and the one that ends the walk when
// it begins with a marker in a beat's last word, a payload word.
func (f Frame) Opened(g Geom, walk []FPDU) []int {
	var out []int
	for i, x := range walk {
		if x.Recorded || (x.Lead && x.S%g.WPB == g.WPB-1 && f.Pay(x.S)) {
			out = append(out, i)
		}
	}
	return out
}

// SlotBeats returns, per beat of f and per FPDU slot, what the slots give
// their engines, the frame's first opened FPDU taking slot first; and the
// slot of the FPDU after the frame's last one. An FPDU goes to its engine
// from its first word to its last (every word from its first on until
// its end is known), and ends in the beat of its last word, of the
// frame's last beat, or of its ULPDU_Length word when it is small.
func (f Frame) SlotBeats(g Geom, walk []FPDU, first int) ([][]SlotBeat, int) {
	nb := f.Beats(g)
	out := make([][]SlotBeat, nb)
	for b := range out {
		out[b] = make([]SlotBeat, g.NCRC)
	}
	opened := f.Opened(g, walk)
	for i, xi := range opened {
		x := walk[xi]
		slot := (first + i) % g.NCRC
		end, tl := 1<<30, nb-1
		if x.Recorded {
			end = x.E
			tl = min((x.E-1)/g.WPB, nb-1)
			if x.Small {
				tl = x.L / g.WPB
			}
		}
		for b := x.S / g.WPB; b <= tl; b++ {
			sb := &out[b][slot]
			sb.Valid, sb.Last = true, b == tl
			for j := 0; j < g.WPB; j++ {
				if w := b*g.WPB + j; w >= x.S && w < end {
					sb.Keep |= 1 << j
				}
			}
			if sb.Last && x.Checked {
				sb.Chk = f.CRC
				sb.MkErr, sb.RFC, sb.Draft = f.MarkerCheck(x)
			}
		}
	}
	return out, (first + len(opened)) % g.NCRC
}

// Leaves returns, per beat of f, the records (indices in walk) that leave
// the record slots with it (mpa_rx_walk_rec): a record leaves when its
// fourth header word has come or the frame ends, and a later record has
// come or the walk is over (the frame ends, or it stopped at a small
// ULPDU).
func (f Frame) Leaves(g Geom, walk []FPDU) [][]int {
	nb := f.Beats(g)
	out := make([][]int, nb)
	var recs []int
	for i, x := range walk {
		if x.Recorded {
			recs = append(recs, i)
		}
	}
	for k, i := range recs {
		x := walk[i]
		t := max(x.L/g.WPB, min(x.Hdr4/g.WPB, nb-1))
		switch {
		case k+1 < len(recs):
			t = max(t, walk[recs[k+1]].L/g.WPB)
		case !x.Small:
			t = nb - 1
		}
		out[t] = append(out[t], i)
	}
	return out
}
