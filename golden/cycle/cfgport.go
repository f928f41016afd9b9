package cycle

import (
	"github.com/mparx/mparx/golden/ddp"
)

// config applies a configuration write (it takes effect in the next cycle).
func (m *Model) config(in In) {
	for _, f := range m.frames {
		switch {
		case in.CfgOp == OpContext && !f.decided && f.pos.Lookup && f.slot == in.CfgIndex%m.cfg.ConnCount:
			m.fail("context write to slot %d between frame %d's lookup and verdict (not modelled)", in.CfgIndex, f.Seq)
		case in.CfgOp != OpContext && f.decided && !f.e1Done:
			m.fail("DDP table write (op %d) between frame %d's verdict and the end of its E1 (not modelled)", in.CfgOp, f.Seq)
		}
	}
	switch in.CfgOp {
	case OpContext:
		m.configContext(in.CfgIndex, in.CfgData)
	case OpSTag:
		m.configSTag(in.CfgIndex, DecodeSTag(in.CfgData))
	case OpPost:
		m.configPost(in.CfgIndex, DecodeRecv(in.CfgData))
	case OpMSN:
		m.configMSN(in.CfgIndex, DecodeRecv(in.CfgData))
	case OpAddr6:
		m.addr6[0], m.addr6[1] = DecodeAddr6(in.CfgData)
	default:
		m.fail("cfg_op %d", in.CfgOp)
	}
}

func (m *Model) configContext(index int, d CfgData) {
	if index >= len(m.slots) {
		m.fail("context write to slot %d of %d", index, len(m.slots))
		return
	}
	e := DecodeContext6(d, m.addr6[0], m.addr6[1])
	m.slots[index] = e
	if e.Valid {
		m.engine.SetContext(e.Tuple, e.Ctx)
		m.placer.SetVersion(e.Ctx.Stream, e.Ctx.DDPVersion)
	}
}

func (m *Model) configSTag(index int, e STagEntry) {
	if old, ok := m.stags[index]; ok && old.Valid {
		m.placer.InvalidateSTag(old.STag)
	}
	m.stags[index] = e
	if !e.Valid {
		return
	}
	m.placer.InvalidateSTag(e.STag)
	if err := m.placer.RegisterSTag(e.STag, e.Stream, e.Base, e.Length); err != nil {
		m.fail("STag write: %v", err)
	}
}

func (m *Model) configPost(index int, e RecvEntry) {
	if !e.Valid {
		return
	}
	// The placer's queues take MSNs in posting order from 1.
	if want := m.nextMSN(e.Stream, e.QN); e.MSN != want {
		m.fail("post of MSN %d on QN %d of stream %d, next is %d (not modelled)", e.MSN, e.QN, e.Stream, want)
		return
	}
	if cur := m.placer.CurrentMSN(e.Stream, e.QN); m.cfg.RQDepth > 0 && e.MSN-cur >= uint32(m.cfg.RQDepth) {
		m.fail("post of MSN %d on QN %d of stream %d, %d or more beyond the current MSN %d", e.MSN, e.QN, e.Stream, m.cfg.RQDepth, cur)
		return
	}
	if err := m.placer.PostRecv(e.Stream, e.QN, e.Base, uint64(e.Length)); err != nil {
		m.fail("post: %v", err)
	}
	m.posted[[2]uint32{uint32(e.Stream), e.QN}]++
}

func (m *Model) nextMSN(s ddp.StreamID, qn uint32) uint32 {
	if m.posted == nil {
		m.posted = map[[2]uint32]uint32{}
	}
	return 1 + m.posted[[2]uint32{uint32(s), qn}]
}

func (m *Model) configMSN(index int, e RecvEntry) {
	if index >= len(m.slots) || !m.slots[index].Valid {
		m.fail("current MSN of slot %d without a context", index)
		return
	}
	st := m.slots[index].Ctx.Stream
	cur := m.placer.CurrentMSN(st, e.QN)
	switch e.MSN {
	case cur:
	case cur + 1:
		// Software delivered the current message itself.
		h := ddp.Header{Last: true, QN: e.QN, MSN: cur}
		if _, err := m.placer.Deliver(st, h); err != nil {
			m.fail("current MSN %d (slot %d stream %d posted %v, cur %d): %v", e.MSN, index, st, m.posted, cur, err)
		}
	default:
		m.fail("current MSN %d on QN %d, placer at %d (not modelled)", e.MSN, e.QN, cur)
	}
}
