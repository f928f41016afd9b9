package walkref

// Rank is one ULPDU_Length word of a beat, as mpa_rx_walk_step hands it on.
type Rank struct {
	Pos, OS int    // word offsets of the ULPDU_Length word and of the FPDU's first word
	E       uint16 // the FPDU's end (fe_E of its ULPDU_Length word)
	Word    uint32
	Small   bool
	HS      int
	First   bool // the frame's first record
	FPDU    int  // index in the frame's walk
}

// Step is mpa_rx_walk_step's result for one beat. Fields marked "known"
// in the flags below are don't care when the flag is false.
type Step struct {
	Ranks          []Rank
	Carried, Pend  bool
	MkAny          bool
	Om             int
	Ptr            uint16
	P0, NS, Pend16 uint16
	Stop, FM, AnyL bool
	NRec           int
	P0Known        bool // the frame's payload has started: P0
	NSKnown        bool // ... and the walk did not stop at a small ULPDU: NS
}

// StepAt computes Step for beat b of f at geometry g from the frame's walk
// (Walk): the header contract of mpa_rx_walk_step.
func (f Frame) StepAt(g Geom, walk []FPDU, b int) Step {
	base := b * g.WPB
	end := base + g.WPB
	st := Step{P0: uint16(f.P0), P0Known: f.NPay > 0 && f.P0 < end}
	for i, x := range walk {
		if !x.Recorded || x.L >= end {
			if x.S == end-1 && x.Lead && f.Pay(x.S) && x.L >= end {
				st.Pend = true
			}
			continue
		}
		st.NRec++
		if f.Words[x.L]>>22&1 != 0 {
			st.AnyL = true
		}
		if x.Small {
			st.Stop = true
		}
		if st.NRec == 1 {
			st.FM = f.FirstMarker(x)
		}
		if x.L >= base {
			st.Ranks = append(st.Ranks, Rank{Pos: x.L - base, OS: x.S & (g.WPB - 1), E: uint16(x.E),
				Word: f.Words[x.L], Small: x.Small, HS: f.WordAt(x.L).HS, First: st.NRec == 1, FPDU: i})
			if len(st.Ranks) == 1 && x.S < base {
				st.Carried = true
			}
		}
	}
	// Where the next FPDU starts: the first FPDU of the walk whose
	// ULPDU_Length word is past this beat, else the one that ended the
	// walk, else the end of the last one.
	st.NSKnown = st.P0Known && !st.Stop
	ns := -1
	for _, x := range walk {
		if x.L >= end || !x.Recorded {
			ns = x.S
			break
		}
	}
	if ns < 0 && len(walk) > 0 {
		ns = walk[len(walk)-1].E
	}
	st.NS = uint16(ns)
	for w := f.P0; w < min(end, f.P0+f.NPay); w++ {
		st.Pend16 = uint16(w + 1)
	}
	h := f.Half()
	for j := 0; j < g.WPB; j++ {
		if f.Pay(base+j) && h.IsMarker(f.Seq(base+j)) {
			st.MkAny, st.Om, st.Ptr = true, j, f.Ptr(base+j)
		}
	}
	return st
}
