package cycle

import "slices"

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

// E2Step is one step of the E2 stage of a PLACE frame: it reads (and
// frees) beat Beat when Read, and emits Write when not nil (then it waits
// on m_host_ready). Run: the beat is in the payload run of a placement (at
// or after its first payload beat; the steps that may write). Extra: the
// last write of a placement that a step before it could not emit; it is
// not a step of its own but pending beside the steps that follow, which go
// on as long as they are not in a run (section 5.4).
type E2Step struct {
	Read  bool
	Run   bool
	Extra bool
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

// PlanWrites returns the E2 steps of a PLACE frame of the given number of
// beats (section 5.4): each beat is read in one step; at 256 and 512 bits
// (lanes >= 32) a beat in which the payload of a placement ends, when
// another placement follows, is handled again for that next placement in
// the next step (and so on). A write goes out in the step that handles the
// beat holding its last octet, except that the last write of a placement
// whose write before it goes out in the same step is an Extra step right
// after: it goes out in the next cycle, while the steps after it go on
// until one in a placement's run. Writes of different placements are
// never merged. Placements are in frame order, each with a
// payload (empty ones write nothing and are skipped).
func PlanWrites(beats, lanes int, ps []Placement) []E2Step {
	ps = slices.DeleteFunc(slices.Clone(ps), func(p Placement) bool { return len(p.Data) == 0 })
	writes := make([][]pendingWrite, len(ps))
	startBeat, endBeat := make([]int, len(ps)), make([]int, len(ps))
	for j, p := range ps {
		writes[j] = splitWrites(p, lanes)
		startBeat[j], endBeat[j] = p.Pos[0]/lanes, p.Pos[len(p.Pos)-1]/lanes
	}
	var steps []E2Step
	cur, next := 0, 0 // placement handled, its next write
	for b := 0; b < beats; b++ {
		for {
			var mine []*HostWrite
			for cur < len(ps) && next < len(writes[cur]) && writes[cur][next].beat == b {
				mine = append(mine, &writes[cur][next].w)
				next++
			}
			again := lanes >= 32 && cur+1 < len(ps) && endBeat[cur] == b
			st := E2Step{Read: !again, Run: cur < len(ps) && b >= startBeat[cur], Beat: b}
			if len(mine) > 0 {
				st.Write = mine[0]
			}
			steps = append(steps, st)
			for _, w := range mine[min(1, len(mine)):] {
				steps = append(steps, E2Step{Run: true, Extra: true, Beat: b, Write: w})
			}
			if cur < len(ps) && endBeat[cur] == b {
				cur, next = cur+1, 0
			}
			if !again {
				break
			}
		}
	}
	return steps
}
