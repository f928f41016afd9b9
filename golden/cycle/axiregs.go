package cycle

// The IP core's AXI4-Lite register block (mpa_rx_axil_regs) cycle by
// cycle: the write side (the configuration staging registers, the command
// that holds a word on cfg_* until the receiver takes it, CNT_CTRL,
// HOST_FAULT), the event counters with their three-cycle pipeline, and the
// read channel (one read at a time, RDATA a cycle after the address).

// RegMap is the register map as the model's register block decodes it
// (driver/regmap holds the source; golden imports nothing of the driver,
// so the caller fills it from the driver's constants).
type RegMap struct {
	CfgData      uint32 // the first CFG_DATA word
	CfgDataWords int
	CfgIndex     uint32
	CfgCmd       uint32
	CfgOps       int // operations a CFG_CMD sends (0 .. CfgOps-1)
	CfgStatus    uint32
	CntCtrl      uint32
	HostFault    uint32
	Counters     uint32 // the first counter: counter i's low word at Counters + 8 i, its high word 4 above
	// Fixed are the read-only words (identification, version, the build
	// parameters) by address, with the values they read.
	Fixed map[uint32]uint32
	// CounterWidth is the bits kept of each 64-bit counter (COUNTER_WIDTH).
	CounterWidth int
	Cnt          CounterMap
}

// CounterMap is the index of each event counter (the first of a group:
// the frames per verdict 0-3, the exceptions per reason 1-9, the drops per
// code 0-3).
type CounterMap struct {
	N                                             int // counters
	FramesPlace, ExcNotTCP, DropFCS               int
	FPDUsPlaced, FPDUsDelivered, DDPErrors        int
	OctetsPlaced                                  int
	HostBursts, HostBeats, HostSlvErr, HostDecErr int
	HostBUnexpected                               int
}

// Count calls add for each counter an event lane moves, with the amount:
// a VERDICT counts its frame by verdict and an exception by reason (1-9),
// a DROP by its code, PLACED, DELIVERED and DDP_ERROR one each, and a
// PLACED its payload octets (ULPDU_Length less the DDP header, 14 octets
// tagged and 18 untagged) in OctetsPlaced.
func (c CounterMap) Count(w Word, add func(counter int, n uint64)) {
	e := Decode(w)
	switch e.Kind {
	case EvVerdict:
		add(c.FramesPlace+e.Verdict, 1)
		if e.Verdict == VException && e.Reason >= 1 && e.Reason <= 9 {
			add(c.ExcNotTCP+e.Reason-1, 1)
		}
	case EvDrop:
		add(c.DropFCS+e.Verdict, 1)
	case EvPlaced:
		add(c.FPDUsPlaced, 1)
		hdr := 18
		if e.Ctrl&0x80 != 0 {
			hdr = 14
		}
		if e.Len > hdr {
			add(c.OctetsPlaced, uint64(e.Len-hdr))
		}
	case EvDelivered:
		add(c.FPDUsDelivered, 1)
	case EvDDPError:
		add(c.DDPErrors, 1)
	}
}

// regIn is what the register block sees of the core in a cycle: the
// event beat taken from m_evt, the AXI4 master's handshakes and error
// responses, and the completion gate's fault.
type regIn struct {
	evtValid        bool
	evtLanes        int
	evt             [MaxEvtLanes]Word
	aw, w           bool
	errValid, unexp bool
	errResp         uint8
	fault           bool
	faultResp       uint8
}

// regs is the register block's state.
type regs struct {
	// writes
	bv     bool
	bresp  uint8
	cmd    bool
	op     int
	index  uint16
	stage  []uint32
	sent   uint16
	clear  bool
	fclear bool
	// counters: stage 1 (the event beat and host pulses registered), stage 2
	// (the increments), stage 3 (the counters)
	e1       regIn
	inc, cnt []uint64
	// reads
	rv     bool
	rdata  uint32
	rresp  uint8
	hiSnap uint32
}

func newRegs(m RegMap) regs {
	n := m.Cnt.N
	return regs{stage: make([]uint32, m.CfgDataWords), inc: make([]uint64, n), cnt: make([]uint64, n)}
}

// counterAt decodes a read address in the counters' window (the 256
// octets from Counters): the counter, and whether it is its high word.
func (m RegMap) counterAt(addr uint32) (i int, hi, ok bool) {
	a := addr & 0xffc
	i = int(a >> 3 & 31)
	return i, a&4 != 0, a>>8 == m.Counters>>8 && i < m.Cnt.N
}

// counter returns counter i as the block keeps it (CounterWidth bits).
func (r *regs) counter(m RegMap, i int) uint64 {
	if w := m.CounterWidth; w > 0 && w < 64 {
		return r.cnt[i] & (1<<w - 1)
	}
	return r.cnt[i]
}

// read returns the value and response of a read of addr in this cycle.
func (r *regs) read(m RegMap, addr uint32, in regIn) (uint32, uint8) {
	a := addr & 0xffc
	if v, ok := m.Fixed[a]; ok {
		return v, 0
	}
	switch {
	case a == m.CfgIndex:
		return uint32(r.index), 0
	case a == m.CfgCmd:
		return uint32(r.op), 0
	case a == m.CfgStatus:
		v := uint32(r.sent) << 16
		if r.cmd {
			v |= 1
		}
		return v, 0
	case a == m.CntCtrl:
		return 0, 0
	case a == m.HostFault:
		v := uint32(in.faultResp&3) << 1
		if in.fault {
			v |= 1
		}
		return v, 0
	case a >= m.CfgData && a < m.CfgData+4*uint32(m.CfgDataWords):
		return r.stage[(a-m.CfgData)/4], 0
	}
	if i, hi, ok := m.counterAt(addr); ok {
		if hi {
			return r.hiSnap, 0
		}
		return uint32(r.counter(m, i)), 0
	}
	return 0, 2
}

// edge takes the clock edge: l the AXI4-Lite master's signals, wr a
// write taken this cycle, cfgReady the receiver's cfg_ready, in the
// core's signals the counters and reads see.
func (r *regs) edge(m RegMap, l Lite, wr, cfgReady bool, in regIn) {
	// reads: the value from the registers before the edge
	rd := l.ARValid && !r.rv
	if r.rv && l.RReady {
		r.rv = false
	}
	if rd {
		r.rv = true
		r.rdata, r.rresp = r.read(m, l.ARAddr, in)
		if i, hi, ok := m.counterAt(l.ARAddr); ok && !hi {
			r.hiSnap = uint32(r.counter(m, i) >> 32)
		}
	}
	// counters: stage 3 from stage 2, stage 2 from stage 1, stage 1 from
	// the inputs
	for k := range r.cnt {
		r.cnt[k] += r.inc[k]
		if r.clear {
			r.cnt[k] = 0
		}
	}
	clear(r.inc)
	if e := r.e1; e.evtValid {
		for l := 0; l < e.evtLanes; l++ {
			m.Cnt.Count(e.evt[l], func(i int, n uint64) { r.inc[i] += n })
		}
	}
	b := func(v bool) uint64 {
		if v {
			return 1
		}
		return 0
	}
	r.inc[m.Cnt.HostBursts] = b(r.e1.aw)
	r.inc[m.Cnt.HostBeats] = b(r.e1.w)
	r.inc[m.Cnt.HostSlvErr] = b(r.e1.errValid && r.e1.errResp == 2)
	r.inc[m.Cnt.HostDecErr] = b(r.e1.errValid && r.e1.errResp == 3)
	r.inc[m.Cnt.HostBUnexpected] = b(r.e1.unexp)
	r.e1 = in
	// writes
	sent := r.cmd && cfgReady
	r.clear, r.fclear = false, false
	if r.bv && l.BReady {
		r.bv = false
	}
	if wr {
		merge := func(old uint32) uint32 {
			for b := 0; b < 4; b++ {
				if l.WStrb>>b&1 != 0 {
					old = old&^(0xff<<(8*b)) | l.WData&(0xff<<(8*b))
				}
			}
			return old
		}
		wa := l.AWAddr &^ 3 & 0xfff
		wData := wa >= m.CfgData && wa < m.CfgData+4*uint32(m.CfgDataWords)
		wCmd := wa == m.CfgCmd
		wGo := wCmd && l.WStrb&1 != 0 && int(l.WData&7) < m.CfgOps
		wOK := wData || wCmd || wa == m.CfgIndex || wa == m.CntCtrl || wa == m.HostFault
		if wData {
			i := (wa - m.CfgData) / 4
			r.stage[i] = merge(r.stage[i])
		}
		if wa == m.CfgIndex {
			r.index = uint16(merge(uint32(r.index)))
		}
		if wa == m.CntCtrl {
			r.clear = l.WStrb&1 != 0 && l.WData&1 != 0
		}
		if wa == m.HostFault {
			r.fclear = l.WStrb&1 != 0 && l.WData&1 != 0
		}
		if wGo {
			r.cmd, r.op = true, int(l.WData&7)
		} else {
			r.bv, r.bresp = true, 0
			if !wOK || (wCmd && l.WStrb&1 != 0) {
				r.bresp = 2
			}
		}
	}
	if sent {
		r.cmd, r.bv, r.bresp = false, true, 0
		clear(r.stage)
		r.sent++
	}
}
