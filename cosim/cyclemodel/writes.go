package cyclemodel

// Placement is the payload of one FPDU that passed its DDP checks: placed
// at [Addr, Addr+len(Data)), Data[i] taken from frame offset Pos[i].
type Placement struct {
	Addr uint64
	Data []byte
	Pos  []int
}

// HostWrite is one m_host write: K octets at an address aligned to K, with
// the octets to write marked in Strb (bit i: Data[i] goes to Addr+i).
type HostWrite struct {
	Addr uint64
	Data []byte
	Strb uint64
}

// E2Step is one cycle of the E2 stage of a PLACE frame: it reads (and frees)
// beat Beat when Read, and emits Write when not nil (then it waits on
// m_host_ready).
type E2Step struct {
	Read  bool
	Beat  int
	Write *HostWrite
}

type pendingWrite struct {
	w    HostWrite
	beat int // beat holding the write's last octet
}

// splitWrites cuts a placement into one write per aligned K-octet host word
// it touches, in address order (section 5.4).
func splitWrites(p Placement, lanes int) []pendingWrite {
	n := len(p.Data)
	if n == 0 {
		return nil
	}
	k := uint64(lanes)
	var out []pendingWrite
	end := p.Addr + uint64(n)
	for w := p.Addr / k * k; w < end; w += k {
		lo, hi := max(w, p.Addr), min(w+k, end)
		hw := HostWrite{Addr: w, Data: make([]byte, lanes)}
		for a := lo; a < hi; a++ {
			hw.Data[a-w] = p.Data[a-p.Addr]
			hw.Strb |= 1 << (a - w)
		}
		out = append(out, pendingWrite{w: hw, beat: p.Pos[hi-1-p.Addr] / lanes})
	}
	return out
}

// PlanWrites returns the E2 cycles of a PLACE frame of the given number of
// beats (section 5.4): each beat is read in one cycle, or in p cycles when
// payload octets of p > 1 placements lie in it, one per placement; a write
// goes out in the cycle that handles the beat holding its last octet,
// except that the last write of a placement whose write before it goes out
// in the same cycle takes one extra cycle right after, in which no beat is
// read. Writes of different placements are never merged.
func PlanWrites(beats, lanes int, ps []Placement) []E2Step {
	writes := make([][]pendingWrite, len(ps))
	inBeat := make([][]int, beats) // placements with payload octets in each beat
	for j, p := range ps {
		writes[j] = splitWrites(p, lanes)
		last := -1
		for _, pos := range p.Pos {
			if b := pos / lanes; b != last && b < beats {
				inBeat[b] = append(inBeat[b], j)
				last = b
			}
		}
	}
	var steps []E2Step
	next := make([]int, len(ps)) // next write of each placement
	for b := 0; b < beats; b++ {
		js := inBeat[b]
		if len(js) == 0 {
			steps = append(steps, E2Step{Read: true, Beat: b})
			continue
		}
		for i, j := range js {
			var mine []*HostWrite
			for next[j] < len(writes[j]) && writes[j][next[j]].beat == b {
				mine = append(mine, &writes[j][next[j]].w)
				next[j]++
			}
			st := E2Step{Read: i == len(js)-1, Beat: b}
			if len(mine) > 0 {
				st.Write = mine[0]
			}
			steps = append(steps, st)
			for _, w := range mine[min(1, len(mine)):] {
				steps = append(steps, E2Step{Beat: b, Write: w})
			}
		}
	}
	return steps
}
