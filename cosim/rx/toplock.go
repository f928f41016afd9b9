package rx

import (
	"fmt"

	"github.com/mparx/mparx/cosim"
	"github.com/mparx/mparx/driver"
	"github.com/mparx/mparx/driver/regblock"
	"github.com/mparx/mparx/golden/cycle"
	"github.com/mparx/mparx/vecgen/replay"
	"github.com/mparx/mparx/vecgen/vector"
)

// TopIDWidth and TopMaxBursts are AXI_ID_WIDTH and AXI_MAX_BURSTS of the
// integration top's co-simulation variant of a width (mk/sim.mk).
func TopIDWidth(width int) int {
	switch width {
	case 64:
		return 4
	case 128:
		return 5
	}
	return 6
}

// TopMaxBursts is AXI_MAX_BURSTS of the integration top's variant.
func TopMaxBursts(width int) int {
	switch width {
	case 64:
		return 16
	case 128:
		return 32
	}
	return 64
}

// TopParams are the build parameters of the integration top's variant of a
// width as its registers read them back (mk/sim.mk's parameters, and the
// top's defaults for the rest).
func TopParams(width int) driver.Params {
	return driver.Params{DataWidth: width, ConnCount: Slots, STagCount: STagSlots, RQDepth: RQDepth, MaxFrame: MaxFrame,
		FIFODepth: cycle.DefaultFIFODepth(width, MaxFrame), EvtLanes: cycle.EvtLanes(width),
		MaxInflight: cycle.InflightLimit(width), Window: 0x10_0000, AXIIDWidth: TopIDWidth(width),
		AXIMaxBursts: TopMaxBursts(width), CounterWidth: 64}
}

// TopRegMap is the register map the cycle model's register block decodes,
// from the driver's constants, with the read-only words of the integration
// top's variant of a width (TopParams).
func TopRegMap(width int) cycle.RegMap {
	return cycle.RegMap{CfgData: driver.RegCfgData, CfgDataWords: driver.CfgDataWords, CfgIndex: driver.RegCfgIndex,
		CfgCmd: driver.RegCfgCmd, CfgOps: cycle.OpMSN + 1, CfgStatus: driver.RegCfgStatus, CntCtrl: driver.RegCntCtrl,
		HostFault: driver.RegHostFault, Counters: driver.RegCounters, CounterWidth: TopParams(width).CounterWidth,
		Fixed: regblock.ReadOnly(TopParams(width)),
		Cnt:   regblock.Counters,
	}
}

// TopModelConfig is the cycle model's configuration of the integration
// top's co-simulation variant of a width, for a receive window and DDP
// version.
func TopModelConfig(width int, window uint32, ddpVersion uint8) cycle.TopConfig {
	rx := cycle.Config{DataWidth: width, MaxFrame: MaxFrame, ConnCount: Slots, Window: window, DDPVersion: ddpVersion, RQDepth: RQDepth}
	return cycle.DefaultTopConfig(rx, TopIDWidth(width), TopMaxBursts(width), TopRegMap(width))
}

// topLock steps the integration top's cycle model beside the RTL, one
// cycle at a time, with the inputs the RTL was given, and compares every
// output the contract defines (cycle.CompareTop).
type topLock struct {
	m     *cycle.Top
	p     map[string]cosim.Port
	lanes int
	err   error
	// Cycles counts the cycles compared.
	cycles uint64
}

// topIn decodes a cycle's input record of the top (a pure function of the
// record: a recorded trace can feed it as well).
func topIn(p map[string]cosim.Port, rec []uint64, lanes int) cycle.TopIn {
	return cycle.TopIn{
		In: cycle.In{
			Valid:    p["s_axis_tvalid"].Bit(rec),
			Data:     p["s_axis_tdata"].AppendBytes(make([]byte, 0, lanes), rec)[:lanes],
			Keep:     p["s_axis_tkeep"].Get(rec),
			Last:     p["s_axis_tlast"].Bit(rec),
			User:     p["s_axis_tuser"].Bit(rec),
			EvtReady: p["m_evt_tready"].Bit(rec),
			ExcReady: p["m_exc_axis_tready"].Bit(rec),
		},
		AWReady: p["m_axi_awready"].Bit(rec),
		WReady:  p["m_axi_wready"].Bit(rec),
		BValid:  p["m_axi_bvalid"].Bit(rec),
		BID:     uint32(p["m_axi_bid"].Get(rec)),
		BResp:   uint8(p["m_axi_bresp"].Get(rec)),
		Lite: cycle.Lite{
			AWValid: p["s_axil_awvalid"].Bit(rec),
			AWAddr:  uint32(p["s_axil_awaddr"].Get(rec)),
			WValid:  p["s_axil_wvalid"].Bit(rec),
			WData:   uint32(p["s_axil_wdata"].Get(rec)),
			WStrb:   uint8(p["s_axil_wstrb"].Get(rec)),
			BReady:  p["s_axil_bready"].Bit(rec),
			ARValid: p["s_axil_arvalid"].Bit(rec),
			ARAddr:  uint32(p["s_axil_araddr"].Get(rec)),
			RReady:  p["s_axil_rready"].Bit(rec),
		},
	}
}

// topOut decodes a cycle's output record of the top into the outputs
// cycle.CompareTop compares.
func topOut(p map[string]cosim.Port, rec []uint64, lanes int) cycle.TopOut {
	var o cycle.TopOut
	o.Rx.Ready = p["s_axis_tready"].Bit(rec)
	o.Rx.ExcValid = p["m_exc_axis_tvalid"].Bit(rec)
	o.Rx.ExcData = p["m_exc_axis_tdata"].AppendBytes(make([]byte, 0, lanes), rec)[:lanes]
	o.Rx.ExcKeep = p["m_exc_axis_tkeep"].Get(rec)
	o.Rx.ExcLast = p["m_exc_axis_tlast"].Bit(rec)
	o.Rx.ExcUser = int(p["m_exc_axis_tuser"].Get(rec))
	o.EvtValid = p["m_evt_tvalid"].Bit(rec)
	ed, keep := p["m_evt_tdata"].Slice(rec), p["m_evt_tkeep"].Get(rec)
	for i := 0; i < cycle.MaxEvtLanes && 2*i+1 < len(ed); i++ {
		o.Evt[i] = cycle.Word{ed[2*i], ed[2*i+1]}
		if keep>>(16*i)&1 != 0 {
			o.EvtKeep++
		}
	}
	o.AXI = cycle.WrOut{
		AWValid: p["m_axi_awvalid"].Bit(rec), AWID: uint32(p["m_axi_awid"].Get(rec)), AWAddr: p["m_axi_awaddr"].Get(rec),
		AWLen: uint8(p["m_axi_awlen"].Get(rec)), AWSize: uint8(p["m_axi_awsize"].Get(rec)), AWBurst: uint8(p["m_axi_awburst"].Get(rec)),
		AWLock: p["m_axi_awlock"].Bit(rec), AWCache: uint8(p["m_axi_awcache"].Get(rec)), AWProt: uint8(p["m_axi_awprot"].Get(rec)),
		WValid: p["m_axi_wvalid"].Bit(rec), WData: p["m_axi_wdata"].AppendBytes(make([]byte, 0, lanes), rec)[:lanes],
		WStrb: p["m_axi_wstrb"].Get(rec), WLast: p["m_axi_wlast"].Bit(rec), BReady: p["m_axi_bready"].Bit(rec),
	}
	o.LiteAWReady = p["s_axil_awready"].Bit(rec)
	o.LiteWReady = p["s_axil_wready"].Bit(rec)
	o.LiteBValid = p["s_axil_bvalid"].Bit(rec)
	o.LiteBResp = uint8(p["s_axil_bresp"].Get(rec))
	o.LiteARReady = p["s_axil_arready"].Bit(rec)
	o.LiteRValid = p["s_axil_rvalid"].Bit(rec)
	o.LiteRData = uint32(p["s_axil_rdata"].Get(rec))
	o.LiteRResp = uint8(p["s_axil_rresp"].Get(rec))
	return o
}

// step runs the model one cycle on the RTL's inputs of simulation cycle
// cy and compares its outputs with the RTL's.
func (l *topLock) step(in, out []uint64, cy uint64) error {
	if l.err != nil {
		return l.err
	}
	want := l.m.Step(topIn(l.p, in, l.lanes))
	l.cycles++
	if s := cycle.CompareTop(topOut(l.p, out, l.lanes), want); s != "" {
		l.err = fmt.Errorf("top lockstep: cycle %d: %s\n%s", cy, s, l.m.Model().State())
	} else if l.m.Err != nil {
		l.err = fmt.Errorf("top lockstep: cycle %d: model: %w", cy, l.m.Err)
	}
	return l.err
}

// OpenTopLockstep is OpenTop with the integration top's cycle model
// (golden/cycle Top) stepped beside it from reset: every cycle the model
// gets the RTL's inputs (s_axis, the stream readies, the AXI4 slave's and
// the AXI4-Lite master's signals) and every output the contract defines
// is compared (cycle.CompareTop); the first difference fails the run. A
// second AXI4-Lite read master reads the registers beside the traffic and
// the driver (ReadStats), seeded with s.Seed.
func OpenTopLockstep(width int, s Slave, cfg cycle.TopConfig, opts ...cosim.Option) (*RTL, error) {
	return openTop(width, s, &cfg, opts...)
}

// LockStats is what a lockstep run of the integration top compared.
type LockStats struct {
	Cycles uint64    // cycles compared
	Reads  ReadStats // the background reader's reads
}

// RunTopLockstep is RunTop with the cycle model in lockstep
// (OpenTopLockstep).
func RunTopLockstep(v *vector.Vector, width int, s Slave, h Hooks, opts ...cosim.Option) (Report, LockStats, error) {
	cfg := TopModelConfig(width, v.Setup.Receiver.Window, v.Setup.Receiver.DDPVersion)
	var r *RTL
	rep, err := runVector(replay.OnTheWire(v, MaxFrame), width, func() (*RTL, error) {
		var err error
		r, err = OpenTopLockstep(width, s, cfg, opts...)
		return r, err
	}, h)
	var st LockStats
	if r != nil && r.top != nil && r.top.lock != nil {
		st = LockStats{Cycles: r.top.lock.cycles, Reads: r.ReadStats()}
	}
	return rep, st, err
}
