package axiwr

import (
	"fmt"

	"github.com/mparx/mparx/cosim"
	"github.com/mparx/mparx/golden/cycle"
)

// idWidth is ID_WIDTH of each variant (mk/sim.mk).
var idWidth = map[int]int{64: 2, 128: 6, 256: 6, 512: 6}

// wrLock is the master's cycle model (golden/cycle Wr) in lockstep with
// the RTL: it takes the RTL's inputs of every cycle and every output is
// compared.
type wrLock struct {
	m    *cycle.Wr
	k    int
	p    map[string]cosim.Port
	err  error
	mism int
}

func newWrLock(sim *cosim.Sim, width int) *wrLock {
	l := &wrLock{m: cycle.NewWr(cycle.WrConfig{DataWidth: width, IDWidth: idWidth[width], MaxBursts: maxBursts[width], AWCache: 3, AWProt: 2}),
		k: width / 8, p: map[string]cosim.Port{}}
	for _, p := range sim.Ports() {
		l.p[p.Name] = p
	}
	return l
}

// step compares the model's outputs of a cycle with the RTL's (in, out:
// the records of the cycle) and takes the model's clock edge.
func (l *wrLock) step(cy int, in, out []uint64) error {
	if l.err != nil {
		return l.err
	}
	p := l.p
	w := l.m.Drive()
	g := cycle.WrOut{
		DescReady: p["s_desc_ready"].Bit(out), WrReady: p["s_wr_ready"].Bit(out),
		AWValid: p["m_axi_awvalid"].Bit(out), AWID: uint32(p["m_axi_awid"].Get(out)), AWAddr: p["m_axi_awaddr"].Get(out),
		AWLen: uint8(p["m_axi_awlen"].Get(out)), AWSize: uint8(p["m_axi_awsize"].Get(out)), AWBurst: uint8(p["m_axi_awburst"].Get(out)),
		AWLock: p["m_axi_awlock"].Bit(out), AWCache: uint8(p["m_axi_awcache"].Get(out)), AWProt: uint8(p["m_axi_awprot"].Get(out)),
		WValid: p["m_axi_wvalid"].Bit(out), WData: p["m_axi_wdata"].AppendBytes(nil, out)[:l.k], WStrb: p["m_axi_wstrb"].Get(out),
		WLast: p["m_axi_wlast"].Bit(out), BReady: p["m_axi_bready"].Bit(out),
		CplCount: uint16(p["cpl_count"].Get(out)), ErrValid: p["cpl_err_valid"].Bit(out), ErrResp: uint8(p["cpl_err_resp"].Get(out)),
		ErrFirst: uint16(p["cpl_err_first"].Get(out)), ErrLast: uint16(p["cpl_err_last"].Get(out)), BUnexp: p["b_unexpected"].Bit(out),
	}
	diff := func(name string, a, b any) error {
		return fmt.Errorf("master lockstep: cycle %d: %s: rtl %v, model %v", cy, name, a, b)
	}
	switch {
	case g.DescReady != w.DescReady:
		l.err = diff("s_desc_ready", g.DescReady, w.DescReady)
	case g.WrReady != w.WrReady:
		l.err = diff("s_wr_ready", g.WrReady, w.WrReady)
	case g.AWValid != w.AWValid:
		l.err = diff("m_axi_awvalid", g.AWValid, w.AWValid)
	case w.AWValid && (g.AWID != w.AWID || g.AWAddr != w.AWAddr || g.AWLen != w.AWLen || g.AWSize != w.AWSize ||
		g.AWBurst != w.AWBurst || g.AWLock != w.AWLock || g.AWCache != w.AWCache || g.AWProt != w.AWProt):
		l.err = diff("m_axi_aw*", fmt.Sprintf("%+v", g), fmt.Sprintf("%+v", w))
	case g.WValid != w.WValid:
		l.err = diff("m_axi_wvalid", g.WValid, w.WValid)
	case w.WValid && (g.WStrb != w.WStrb || g.WLast != w.WLast || string(g.WData) != string(w.WData)):
		l.err = diff("m_axi_w*", fmt.Sprintf("%x/%#x/%v", g.WData, g.WStrb, g.WLast), fmt.Sprintf("%x/%#x/%v", w.WData, w.WStrb, w.WLast))
	case g.BReady != w.BReady:
		l.err = diff("m_axi_bready", g.BReady, w.BReady)
	case g.CplCount != w.CplCount:
		l.err = diff("cpl_count", g.CplCount, w.CplCount)
	case g.ErrValid != w.ErrValid:
		l.err = diff("cpl_err_valid", g.ErrValid, w.ErrValid)
	case w.ErrValid && (g.ErrResp != w.ErrResp || g.ErrFirst != w.ErrFirst || g.ErrLast != w.ErrLast):
		l.err = diff("cpl_err_resp/first/last", fmt.Sprint(g.ErrResp, g.ErrFirst, g.ErrLast), fmt.Sprint(w.ErrResp, w.ErrFirst, w.ErrLast))
	case g.BUnexp != w.BUnexp:
		l.err = diff("b_unexpected", g.BUnexp, w.BUnexp)
	}
	if l.err != nil {
		return l.err
	}
	l.m.Edge(cycle.WrIn{
		DescValid: p["s_desc_valid"].Bit(in), DescAddr: p["s_desc_addr"].Get(in), DescLen: int(p["s_desc_len"].Get(in)),
		DescFlush: p["s_desc_flush"].Bit(in),
		WrValid:   p["s_wr_valid"].Bit(in), WrData: p["s_wr_data"].AppendBytes(nil, in)[:l.k], WrStrb: p["s_wr_strb"].Get(in),
		AWReady: p["m_axi_awready"].Bit(in), WReady: p["m_axi_wready"].Bit(in), BValid: p["m_axi_bvalid"].Bit(in),
		BID: uint32(p["m_axi_bid"].Get(in)), BResp: uint8(p["m_axi_bresp"].Get(in)),
	})
	return nil
}
