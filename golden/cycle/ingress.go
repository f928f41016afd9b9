package cycle

import (
	"math/bits"
)

// accept takes an s_axis beat.
func (m *Model) accept(in In) {
	f := m.cur
	if f == nil {
		f = &Frame{Seq: m.nframes}
		m.nframes++
		m.cur = f
	}
	data := make([]byte, m.lanes)
	copy(data, in.Data)
	f.data = append(f.data, data...)
	f.beats++
	if !f.Oversize && m.stored-m.popped < uint64(m.capacity()) {
		f.stored++
		m.stored++
	} else {
		if !f.Oversize {
			m.Stats.OversizeFrames++
		}
		f.Oversize = true
	}
	if !in.Last {
		f.size += m.lanes
		return
	}
	f.size += bits.OnesCount64(in.Keep)
	f.keepLast = in.Keep
	f.FCSBad = in.User
	f.Last = m.cycle
	// The context lookup (walker parameters); a context write between
	// here and the verdict is checked in config.
	f.Fields = ParseFields(f.data[:f.size])
	f.pos = ParsePositional(f.data, f.size, m.lanes, &m.parser)
	if p := f.pos; p.Lookup {
		f.slot = keyIndex(p, m.cfg.ConnCount)
		if e := m.slots[f.slot]; e.Valid && e.Tuple == p.Key && e.Tuple.IPv6() == p.V6 {
			f.matched = true
			f.walk = WalkParams{Markers: e.Ctx.Params.Markers, SeqStart: e.Ctx.Params.SeqStart}
		}
	}
	m.verdictTime(f)
	m.frames = append(m.frames, f)
	m.inflight++
	m.cur = nil
}

// verdictTime sets the cycle of f's verdict (section 5.2). The walker's
// summary comes in cycle a + 4 + L_WALK; the frame enters V0 then, or,
// when an earlier summary is still queued or the frame must wait, from the
// summary queue two cycles after at the earliest. It waits while the frame
// before it is in V1 and both matched the same context slot (V0 must read
// what V2 writes). V0, V1, V2: the verdict is taken in V2.
func (m *Model) verdictTime(f *Frame) {
	s := f.Last + uint64(m.lwalk) + 4
	earliest := s
	if p := m.prevV; p != nil {
		gap := uint64(1)
		if p.matched && f.matched && p.slot == f.slot {
			gap = 2
		}
		earliest = max(earliest, p.v0+gap)
	}
	if earliest == s && m.queuedV0 <= s {
		f.v0 = s // straight from the walker
	} else {
		f.v0 = max(s+2, earliest)
		m.queuedV0 = f.v0 + 1
	}
	f.Verdict = f.v0 + 2
	m.prevV = f
}
