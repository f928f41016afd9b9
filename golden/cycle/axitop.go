package cycle

import "fmt"

// The IP core (mpa_rx_axi_top, docs/axi.md) cycle by cycle: the receiver's
// model (Model) with, around it, the plan queue, the AXI4 write master
// (Wr), the completion gate and the write side of the AXI4-Lite register
// block (axiregs.go): its configuration staging and command, its event
// counters and its read channel.

// TopConfig sets the core's parameters.
type TopConfig struct {
	Rx        Config
	Wr        WrConfig // DataWidth is Rx's
	PlanDepth int      // AXI_PLAN_DEPTH
	GateDepth int      // GATE_DEPTH
	Regs      RegMap
}

// Lite is an AXI4-Lite master's signals in a cycle.
type Lite struct {
	AWValid bool
	AWAddr  uint32
	WValid  bool
	WData   uint32
	WStrb   uint8
	BReady  bool
	ARValid bool
	ARAddr  uint32
	RReady  bool
}

// TopIn is a cycle's inputs of the core: s_axis and the stream readies as
// for mpa_rx (In: its HostReady and Cfg* are not used), the AXI4 slave's
// AWREADY, WREADY and B channel, and the AXI4-Lite master's signals.
type TopIn struct {
	In
	AWReady bool
	WReady  bool
	BValid  bool
	BID     uint32
	BResp   uint8
	Lite    Lite
}

// TopOut is a cycle's outputs of the core. Rx is the receiver's inside
// the core: its s_axis_tready and m_exc_axis are the core's; its m_evt,
// m_host, m_plan and cfg_ready are internal.
type TopOut struct {
	Rx       Out
	EvtValid bool
	EvtKeep  int
	Evt      [MaxEvtLanes]Word
	EvtMask  [MaxEvtLanes]Word
	AXI      WrOut
	// the AXI4-Lite channels
	LiteAWReady bool
	LiteWReady  bool
	LiteBValid  bool
	LiteBResp   uint8
	LiteARReady bool
	LiteRValid  bool
	LiteRData   uint32
	LiteRResp   uint8
	// the gate's host write fault (HOST_FAULT)
	Fault     bool
	FaultResp uint8
}

// Top is the core's model.
type Top struct {
	cfg  TopConfig
	m    *Model
	wr   *Wr
	g    *gate
	pq   *queue[wrDesc]
	open bool
	r    regs
	// Err is the first assertion of the RTL the model would fail (the plan
	// queue written full), or the receiver model's Err.
	Err error
}

// NewTop returns the core's model in its reset state.
func NewTop(cfg TopConfig) *Top {
	cfg.Wr.DataWidth = cfg.Rx.DataWidth
	return &Top{cfg: cfg, m: New(cfg.Rx), wr: NewWr(cfg.Wr), g: newGate(EvtLanes(cfg.Rx.DataWidth), cfg.GateDepth),
		pq: newQueue[wrDesc](cfg.PlanDepth), r: newRegs(cfg.Regs)}
}

// Model returns the receiver's model inside the core.
func (t *Top) Model() *Model { return t.m }

// Step computes the outputs of one cycle from the state and the inputs,
// then takes the clock edge.
func (t *Top) Step(in TopIn) TopOut {
	var out TopOut
	r := &t.r
	// outputs of the registers
	wo := t.wr.Drive()
	wr := in.Lite.AWValid && in.Lite.WValid && !r.bv && !r.cmd
	out.AXI = wo
	out.LiteAWReady, out.LiteWReady, out.LiteBValid, out.LiteBResp = wr, wr, r.bv, r.bresp
	out.LiteARReady, out.LiteRValid, out.LiteRData, out.LiteRResp = !r.rv, r.rv, r.rdata, r.rresp
	out.Fault, out.FaultResp = t.g.flt, t.g.fltResp
	if t.g.oV {
		out.EvtValid, out.EvtKeep, out.Evt, out.EvtMask = true, t.g.o.n, t.g.o.evt, t.g.o.mask
	}
	pqHead, pqV := t.pq.head()
	// the receiver
	rin := in.In
	rin.EvtReady = t.g.sready()
	rin.HostReady = wo.WrReady
	rin.CfgValid, rin.CfgOp, rin.CfgIndex = r.cmd, r.op, int(r.index)
	rin.CfgData = CfgData{}
	for i, v := range r.stage {
		rin.CfgData[i/2] |= uint64(v) << (32 * (i % 2))
	}
	rx := t.m.Step(rin)
	out.Rx = rx
	if t.m.Err != nil && t.Err == nil {
		t.Err = t.m.Err
	}
	// clock edge
	fclear := r.fclear
	r.edge(t.cfg.Regs, in.Lite, wr, rx.CfgReady, regIn{
		evtValid: out.EvtValid && in.EvtReady, evtLanes: out.EvtKeep, evt: out.Evt,
		aw: wo.AWValid && in.AWReady, w: wo.WValid && in.WReady,
		errValid: wo.ErrValid, errResp: wo.ErrResp, unexp: wo.BUnexp, fault: out.Fault, faultResp: out.FaultResp})
	push := rx.PlanValid || (rx.PlanFrameEnd && t.open)
	d := wrDesc{flush: rx.PlanFrameEnd}
	if rx.PlanValid {
		d.addr, d.len = rx.PlanAddr, uint16(rx.PlanLen)
	}
	if push && !t.pq.ready() && t.Err == nil {
		t.Err = fmt.Errorf("cycle: cycle %d: the plan queue written when full", t.m.cycle-1)
	}
	t.wr.Edge(WrIn{DescValid: pqV, DescAddr: pqHead.addr, DescLen: int(pqHead.len), DescFlush: pqHead.flush,
		WrValid: rx.HostValid, WrData: rx.HostData, WrStrb: rx.HostStrb,
		AWReady: in.AWReady, WReady: in.WReady, BValid: in.BValid, BID: in.BID, BResp: in.BResp})
	t.g.edge(gateIn{evtValid: rx.EvtValid, evt: gateBeat{n: rx.EvtKeep, evt: rx.Evt, mask: rx.EvtMask}, planPush: rx.PlanValid,
		cpl: wo.CplCount, errValid: wo.ErrValid, errResp: wo.ErrResp, errFirst: wo.ErrFirst, ready: in.EvtReady, clear: fclear})
	t.pq.edge(push, d, wo.DescReady)
	if rx.PlanValid {
		t.open = true
	}
	if rx.PlanFrameEnd {
		t.open = false
	}
	return out
}

// Idle reports that the receiver holds no frame, and the plan queue, the
// master and the gate hold nothing.
func (t *Top) Idle() bool {
	w := t.wr
	return t.m.Idle() && t.pq.count() == 0 && !w.x0v && !w.av && !w.pd0v && !w.obV && !w.spV && w.outst == 0 &&
		!w.woV && !w.cuV && !w.nxV && t.g.fifo.count() == 0 && !t.g.hV && !t.g.oV
}

// pow2 is the least power of two that is at least n ($clog2 in the RTL).
func pow2(n int) int {
	d := 1
	for d < n {
		d <<= 1
	}
	return d
}

// DefaultTopConfig returns the core's parameters as mpa_rx_axi_top makes
// them from the receiver's (AXI_PLAN_DEPTH, GATE_DEPTH), with the master's
// ID width and bursts outstanding, AWCACHE 0011 and AWPROT 010.
func DefaultTopConfig(rx Config, idWidth, maxBursts int, regs RegMap) TopConfig {
	if rx.MaxFrame == 0 {
		rx.MaxFrame = MaxFrame
	}
	fifo := rx.FIFODepth
	if fifo == 0 {
		fifo = DefaultFIFODepth(rx.DataWidth, rx.MaxFrame)
	}
	maxFPDUs := fifo*rx.DataWidth/8/20 + 16
	evts := 2*(rx.MaxFrame/20+1) + 2
	if EvtLanes(rx.DataWidth) == 2 {
		evts = rx.MaxFrame/20 + 2
	}
	return TopConfig{
		Rx:        rx,
		Wr:        WrConfig{DataWidth: rx.DataWidth, IDWidth: idWidth, MaxBursts: maxBursts, AWCache: 3, AWProt: 2},
		PlanDepth: pow2(maxFPDUs + InflightLimit(rx.DataWidth) + 2),
		GateDepth: pow2(evts + 64),
		Regs:      regs,
	}
}

// CompareTop returns the first output of the core in which rtl differs
// from the model's (want), as "signal: rtl X, model Y", or "" when they
// agree: s_axis_tready, m_exc_axis (its payload while valid), m_evt (tkeep
// while valid, each lane's event that tkeep marks in the bits the contract
// defines), the AXI4 write channels (AW's payload while AWVALID, W's while
// WVALID, BREADY) and the AXI4-Lite channels (AWREADY, WREADY, BVALID,
// ARREADY, RVALID; BRESP while BVALID, RDATA and RRESP while RVALID).
// rtl holds the core's outputs only (Rx: Ready and the Exc fields).
func CompareTop(rtl, want TopOut) string {
	d := func(name string, a, b any) string { return fmt.Sprintf("%s: rtl %v, model %v", name, a, b) }
	g, w := rtl.Rx, want.Rx
	switch {
	case g.Ready != w.Ready:
		return d("s_axis_tready", g.Ready, w.Ready)
	case g.ExcValid != w.ExcValid:
		return d("m_exc_axis_tvalid", g.ExcValid, w.ExcValid)
	case w.ExcValid && string(g.ExcData) != string(w.ExcData):
		return fmt.Sprintf("m_exc_axis_tdata: rtl %x, model %x", g.ExcData, w.ExcData)
	case w.ExcValid && (g.ExcKeep != w.ExcKeep || g.ExcLast != w.ExcLast || g.ExcUser != w.ExcUser):
		return fmt.Sprintf("m_exc_axis_tkeep/tlast/tuser: rtl %#x/%v/%d, model %#x/%v/%d", g.ExcKeep, g.ExcLast, g.ExcUser, w.ExcKeep, w.ExcLast, w.ExcUser)
	case rtl.EvtValid != want.EvtValid:
		return d("m_evt_tvalid", rtl.EvtValid, want.EvtValid)
	case want.EvtValid && rtl.EvtKeep != want.EvtKeep:
		return d("m_evt_tkeep (lanes)", rtl.EvtKeep, want.EvtKeep)
	}
	if want.EvtValid {
		for l := 0; l < want.EvtKeep; l++ {
			a, b, m := rtl.Evt[l], want.Evt[l], want.EvtMask[l]
			if (a[0]^b[0])&m[0] != 0 || (a[1]^b[1])&m[1] != 0 {
				return fmt.Sprintf("m_evt_tdata: lane %d: rtl %016x%016x (%v), model %016x%016x (%v)", l, a[1], a[0], Decode(a), b[1], b[0], Decode(b))
			}
		}
	}
	ga, wa := rtl.AXI, want.AXI
	switch {
	case ga.AWValid != wa.AWValid:
		return d("m_axi_awvalid", ga.AWValid, wa.AWValid)
	case wa.AWValid && (ga.AWID != wa.AWID || ga.AWAddr != wa.AWAddr || ga.AWLen != wa.AWLen):
		return fmt.Sprintf("m_axi_aw id/addr/len: rtl %d/%#x/%d, model %d/%#x/%d", ga.AWID, ga.AWAddr, ga.AWLen, wa.AWID, wa.AWAddr, wa.AWLen)
	case wa.AWValid && (ga.AWSize != wa.AWSize || ga.AWBurst != wa.AWBurst || ga.AWLock != wa.AWLock || ga.AWCache != wa.AWCache || ga.AWProt != wa.AWProt):
		return fmt.Sprintf("m_axi_aw size/burst/lock/cache/prot: rtl %d/%d/%v/%d/%d, model %d/%d/%v/%d/%d", ga.AWSize, ga.AWBurst, ga.AWLock,
			ga.AWCache, ga.AWProt, wa.AWSize, wa.AWBurst, wa.AWLock, wa.AWCache, wa.AWProt)
	case ga.WValid != wa.WValid:
		return d("m_axi_wvalid", ga.WValid, wa.WValid)
	case wa.WValid && (ga.WStrb != wa.WStrb || ga.WLast != wa.WLast):
		return fmt.Sprintf("m_axi_w strb/last: rtl %#x/%v, model %#x/%v", ga.WStrb, ga.WLast, wa.WStrb, wa.WLast)
	case wa.WValid && string(ga.WData) != string(wa.WData):
		return fmt.Sprintf("m_axi_wdata: rtl %x, model %x", ga.WData, wa.WData)
	case ga.BReady != wa.BReady:
		return d("m_axi_bready", ga.BReady, wa.BReady)
	case rtl.LiteAWReady != want.LiteAWReady || rtl.LiteWReady != want.LiteWReady:
		return fmt.Sprintf("s_axil_awready/wready: rtl %v/%v, model %v/%v", rtl.LiteAWReady, rtl.LiteWReady, want.LiteAWReady, want.LiteWReady)
	case rtl.LiteBValid != want.LiteBValid:
		return d("s_axil_bvalid", rtl.LiteBValid, want.LiteBValid)
	case want.LiteBValid && rtl.LiteBResp != want.LiteBResp:
		return d("s_axil_bresp", rtl.LiteBResp, want.LiteBResp)
	case rtl.LiteARReady != want.LiteARReady:
		return d("s_axil_arready", rtl.LiteARReady, want.LiteARReady)
	case rtl.LiteRValid != want.LiteRValid:
		return d("s_axil_rvalid", rtl.LiteRValid, want.LiteRValid)
	case want.LiteRValid && (rtl.LiteRData != want.LiteRData || rtl.LiteRResp != want.LiteRResp):
		return fmt.Sprintf("s_axil_rdata/rresp: rtl %#x/%d, model %#x/%d", rtl.LiteRData, rtl.LiteRResp, want.LiteRData, want.LiteRResp)
	}
	return ""
}
