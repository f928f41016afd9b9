package cycle

// The completion gate of the IP core (mpa_rx_axi_gate, docs/axi.md
// "Completions after their data"), cycle by cycle: each event beat taken
// from mpa_rx is queued with its tag (the descriptors given so far, this
// cycle's included) in a FIFO of GateDepth beats, then a head register and
// the output register; the head leaves when the completion count, a cycle
// late, covers its tag; the host write fault turns PLACED and DELIVERED
// from the failed descriptor on into DDP_ERROR kind 13.

// DDPKindHostWrite is the DDP kind of the DDP_ERROR events the gate makes
// of PLACED and DELIVERED while the host write fault is set.
const DDPKindHostWrite = 13

// gateBeat is an event beat with its tag.
type gateBeat struct {
	tag  uint16
	n    int // lanes that hold an event (m_evt_tkeep)
	evt  [MaxEvtLanes]Word
	mask [MaxEvtLanes]Word
}

// gate is the gate's state.
type gate struct {
	lanes         int
	given, given1 uint16
	fifo          *queue[gateBeat]
	hV            bool
	h             gateBeat
	oV            bool
	o             gateBeat
	cq            uint16
	flt, past     bool
	fltResp       uint8
	fltF1         uint16
}

func newGate(lanes, depth int) *gate {
	return &gate{lanes: lanes, given1: 1, fifo: newQueue[gateBeat](depth)}
}

// gateIn is what drives the gate in a cycle.
type gateIn struct {
	evtValid bool
	evt      gateBeat // tag unused
	planPush bool
	cpl      uint16
	errValid bool
	errResp  uint8
	errFirst uint16
	ready    bool // m_evt_tready
	clear    bool // fault_clear
}

// sready is s_evt_tready (the FIFO's, a register).
func (g *gate) sready() bool { return g.fifo.ready() }

// conv reports whether the head beat leaves converted.
func (g *gate) conv() bool {
	return g.flt && (g.past || (g.h.tag-g.fltF1)&0x8000 == 0)
}

func (g *gate) edge(in gateIn) {
	hGo := g.hV && (g.cq-g.h.tag)&0x8000 == 0
	load := hGo && (!g.oV || in.ready)
	conv := g.conv()
	fReady := !g.hV || load
	fh, fv := g.fifo.head()
	// the beat leaving, converted
	out := g.h
	if conv {
		for l := 0; l < g.lanes; l++ {
			k := int(getBits(out.evt[l][:], EvtKind, EvtKindW))
			if k == EvPlaced || k == EvDelivered {
				setBits(out.evt[l][:], EvtKind, EvtKindW, EvDDPError)
				setBits(out.evt[l][:], EvtDDPKind, EvtDDPKindW, DDPKindHostWrite)
			}
		}
	}
	g.cq = in.cpl
	if load && conv {
		g.past = true
	}
	flt := g.flt
	if in.clear {
		g.flt = false
	}
	if in.errValid && (!flt || in.clear) {
		g.flt, g.past, g.fltResp, g.fltF1 = true, false, in.errResp, in.errFirst+1
	}
	if fReady {
		g.hV, g.h = fv, fh
	}
	if in.ready {
		g.oV = false
	}
	if load {
		g.oV, g.o = true, out
	}
	b := in.evt
	b.tag = g.given
	if in.planPush {
		b.tag = g.given1
		g.given = g.given1
		g.given1++
	}
	g.fifo.edge(in.evtValid, b, fReady)
}
