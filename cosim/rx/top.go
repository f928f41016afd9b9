package rx

import (
	"fmt"
	"slices"

	"github.com/mparx/mparx/cosim"
	"github.com/mparx/mparx/cosim/internal/axi"
	"github.com/mparx/mparx/driver"
	"github.com/mparx/mparx/golden/cycle"
	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/fastpath"
)

// Slave sets how the host memory behind the integration top's AXI4 master
// behaves (the Go AXI4 slave model of cosim/internal/axi). The zero value
// is an always-ready slave that answers each burst the cycle after its
// last beat.
type Slave struct {
	Latency int     // cycles from a burst's last beat to its B response
	Jitter  int     // up to this many cycles more, per burst
	AWStall float64 // probability that AWREADY is low in a cycle
	WStall  float64 // probability that WREADY is low in a cycle
	BStall  float64 // probability that a ready response is held back a cycle
	Reorder bool    // ready responses of different IDs in random order
	SlvErr  float64 // probability that a burst is answered SLVERR (not written)
	DecErr  float64 // probability that a burst is answered DECERR (not written)
	Seed    uint64
}

// DefaultSlave is the host memory of Run, mparx's RTL engine and the
// fuzzer's default: B responses 16 to 64 cycles after a burst's last beat,
// out of order across IDs, a tenth of the cycles stalled on AWREADY,
// WREADY and BVALID.
var DefaultSlave = Slave{Latency: 16, Jitter: 48, AWStall: 0.1, WStall: 0.1, BStall: 0.1, Reorder: true, Seed: 1}

// topBurst is an AW handshake whose beats are being matched.
type topBurst struct {
	addr  uint64
	beats int
}

// topState is the integration top's bus partners: the AXI4 slave memory
// with its protocol checker, and the AXI4-Lite master under the driver.
type topState struct {
	mem   *axi.Memory
	chk   *axi.Checker
	lm    *axi.LiteMaster
	lchk  *axi.LiteChecker
	drv   *driver.Driver
	ports topPorts
	wdata []byte
	aws   []topBurst // AW handshakes whose beats are not all matched
	beat  int        // beats of aws[0] matched
	early []cycle.HostWrite
	err   error // the first protocol violation or event ahead of its data
	k     int   // octets per beat
	// open are the bursts from their AW handshake until they and every
	// burst before them are answered; ids the indices in open of each
	// ID's bursts without a response
	open []openBurst
	ids  map[uint32][]int
	want []topExpect
	// errSpan is the first burst answered SLVERR or DECERR, errResp its
	// response; faulted: an event was turned into a host write error
	errSpan *span
	errResp uint8
	faulted bool
	lastB   uint64 // the cycle of the last B handshake
	// Bursts counts the AW handshakes, Beats the W handshakes.
	bursts, beats int
	// lock: the cycle model in lockstep (OpenTopLockstep), or nil
	lock *topLock
}

// openBurst is a burst that is not answered, or one before it is not.
type openBurst struct {
	addr     uint64
	beats    int
	answered bool
}

type topPorts struct {
	awready, wready, bvalid, bid, bresp                   cosim.Port
	awvalid, awid, awaddr, awlen, awsize, awburst, awlock cosim.Port
	awcache, awprot, wvalid, wdata, wstrb, wlast, bready  cosim.Port
	lawaddr, lawprot, lawvalid, lawready, lwdata, lwstrb  cosim.Port
	lwvalid, lwready, lbresp, lbvalid, lbready, laraddr   cosim.Port
	larprot, larvalid, larready, lrdata, lrresp, lrvalid  cosim.Port
	lrready                                               cosim.Port
}

// TopVariant is the name of the integration top's co-simulation variant of
// a width (mk/sim.mk).
func TopVariant(width int) string { return fmt.Sprintf("mpa_rx_axi_top_w%d", width) }

// OpenTop opens the integration top (mpa_rx_axi_top: mpa_rx behind an AXI4
// write master, the completion gate and the AXI4-Lite register block) of
// the given width and resets it. Host memory is the Go AXI4 slave set by s;
// the configuration goes only through the driver over the Go AXI4-Lite
// master; host writes are the W beats with their bursts' addresses. Every
// cycle runs alone (the bus models answer the RTL cycle by cycle).
func OpenTop(width int, s Slave, opts ...cosim.Option) (*RTL, error) {
	return openTop(width, s, nil, opts...)
}

// openTop is OpenTop, with the cycle model in lockstep when lock is set.
func openTop(width int, s Slave, lock *cycle.TopConfig, opts ...cosim.Option) (*RTL, error) {
	r, err := openVariant(TopVariant(width), width, opts...)
	if err != nil {
		return nil, err
	}
	sim := r.sim
	k := width / 8
	t := &topState{
		mem: axi.NewMemory(axi.MemoryConfig{DataBytes: k, Latency: s.Latency, Jitter: s.Jitter, AWStall: s.AWStall,
			WStall: s.WStall, BStall: s.BStall, Reorder: s.Reorder, SlvErr: s.SlvErr, DecErr: s.DecErr, Seed: s.Seed}),
		chk:  axi.NewChecker(k),
		k:    k,
		ids:  map[uint32][]int{},
		lm:   axi.NewLiteMaster(axi.LiteMasterConfig{}),
		lchk: &axi.LiteChecker{},
	}
	pt := func(n string) cosim.Port { return sim.Layout.Port(n) }
	t.ports = topPorts{
		awready: pt("m_axi_awready"), wready: pt("m_axi_wready"), bvalid: pt("m_axi_bvalid"), bid: pt("m_axi_bid"),
		bresp: pt("m_axi_bresp"), awvalid: pt("m_axi_awvalid"), awid: pt("m_axi_awid"), awaddr: pt("m_axi_awaddr"),
		awlen: pt("m_axi_awlen"), awsize: pt("m_axi_awsize"), awburst: pt("m_axi_awburst"), awlock: pt("m_axi_awlock"),
		awcache: pt("m_axi_awcache"), awprot: pt("m_axi_awprot"), wvalid: pt("m_axi_wvalid"), wdata: pt("m_axi_wdata"),
		wstrb: pt("m_axi_wstrb"), wlast: pt("m_axi_wlast"), bready: pt("m_axi_bready"),
		lawaddr: pt("s_axil_awaddr"), lawprot: pt("s_axil_awprot"), lawvalid: pt("s_axil_awvalid"),
		lawready: pt("s_axil_awready"), lwdata: pt("s_axil_wdata"), lwstrb: pt("s_axil_wstrb"),
		lwvalid: pt("s_axil_wvalid"), lwready: pt("s_axil_wready"), lbresp: pt("s_axil_bresp"),
		lbvalid: pt("s_axil_bvalid"), lbready: pt("s_axil_bready"), laraddr: pt("s_axil_araddr"),
		larprot: pt("s_axil_arprot"), larvalid: pt("s_axil_arvalid"), larready: pt("s_axil_arready"),
		lrdata: pt("s_axil_rdata"), lrresp: pt("s_axil_rresp"), lrvalid: pt("s_axil_rvalid"),
		lrready: pt("s_axil_rready"),
	}
	r.top = t
	sim.Reset(4)
	if lock != nil {
		t.lock = &topLock{m: cycle.NewTop(*lock), p: r.p, lanes: k}
	}
	r.setAll(func(rec []uint64) {
		r.p["m_evt_tready"].SetBool(rec, true)
		r.p["m_exc_axis_tready"].SetBool(rec, true)
	})
	bus := &axi.LiteBus{M: t.lm, Step: func() error { r.runTop(1); return t.err }}
	drv, err := driver.Open(bus)
	if err != nil {
		sim.Close()
		return nil, fmt.Errorf("rx: driver: %w", err)
	}
	t.drv = drv
	return r, nil
}

// Driver returns the driver of an integration top (nil for mpa_rx).
func (r *RTL) Driver() *driver.Driver {
	if r.top == nil {
		return nil
	}
	return r.top.drv
}

// BusStats returns the AW and W handshakes of an integration top's AXI4
// master so far.
func (r *RTL) BusStats() (bursts, beats int) {
	if r.top == nil {
		return 0, 0
	}
	return r.top.bursts, r.top.beats
}

// HostByte returns the octet at a host address of an integration top's
// memory and whether it was written.
func (r *RTL) HostByte(addr uint64) (byte, bool) { return r.top.mem.Byte(addr) }

// busy reports bursts of an integration top that are not answered, beats
// not matched, or a B response in the last 16 cycles: events may still
// wait in the completion gate (they leave at most 8 cycles after the B
// response that completes them).
func (t *topState) busy(cy uint64) bool {
	return t.mem.Outstanding() > 0 || len(t.aws) > 0 || len(t.early) > 0 || t.chk.Pending() > 0 || cy < t.lastB+16
}

// runTop runs n cycles of the integration top, one at a time, with the
// bus models driving their inputs and observing the outputs.
func (r *RTL) runTop(n int) {
	t, p := r.top, &r.top.ports
	iw, ow := r.sim.InWords(), r.sim.OutWords()
	in, out := r.in[:iw], r.out[:ow]
	active := false
	for c := 0; c < n; c++ {
		resp := t.mem.Drive()
		p.awready.SetBool(in, resp.AWReady)
		p.wready.SetBool(in, resp.WReady)
		p.bvalid.SetBool(in, resp.BValid)
		p.bid.Set(in, uint64(resp.BID))
		p.bresp.Set(in, uint64(resp.BResp))
		lq := t.lm.Drive()
		p.lawaddr.Set(in, uint64(lq.AWAddr))
		p.lawprot.Set(in, uint64(lq.AWProt))
		p.lawvalid.SetBool(in, lq.AWValid)
		p.lwdata.Set(in, uint64(lq.WData))
		p.lwstrb.Set(in, uint64(lq.WStrb))
		p.lwvalid.SetBool(in, lq.WValid)
		p.lbready.SetBool(in, lq.BReady)
		p.laraddr.Set(in, uint64(lq.ARAddr))
		p.larprot.Set(in, uint64(lq.ARProt))
		p.larvalid.SetBool(in, lq.ARValid)
		p.lrready.SetBool(in, lq.RReady)
		r.sim.Step(1, in, out)
		if t.lock != nil {
			if err := t.lock.step(in, out, r.Cycle()-1); err != nil && t.err == nil {
				t.err = err
			}
		}
		t.wdata = p.wdata.AppendBytes(t.wdata[:0], out)
		q := axi.WriteReq{
			AWValid: p.awvalid.Bit(out), AWID: uint32(p.awid.Get(out)), AWAddr: p.awaddr.Get(out),
			AWLen: uint8(p.awlen.Get(out)), AWSize: uint8(p.awsize.Get(out)), AWBurst: uint8(p.awburst.Get(out)),
			AWLock: p.awlock.Bit(out), AWCache: uint8(p.awcache.Get(out)), AWProt: uint8(p.awprot.Get(out)),
			WValid: p.wvalid.Bit(out), WData: t.wdata, WStrb: p.wstrb.Get(out), WLast: p.wlast.Bit(out),
			BReady: p.bready.Bit(out),
		}
		cy := axi.WriteCycle{Req: q, Resp: resp}
		if err := t.chk.Observe(cy); err != nil && t.err == nil {
			t.err = fmt.Errorf("cycle %d: %w", r.Cycle(), err)
		}
		t.mem.Observe(q)
		lr := axi.LiteResp{
			AWReady: p.lawready.Bit(out), WReady: p.lwready.Bit(out), BValid: p.lbvalid.Bit(out),
			BResp: uint8(p.lbresp.Get(out)), ARReady: p.larready.Bit(out), RValid: p.lrvalid.Bit(out),
			RData: uint32(p.lrdata.Get(out)), RResp: uint8(p.lrresp.Get(out)),
		}
		if err := t.lchk.Observe(lq, lr); err != nil && t.err == nil {
			t.err = fmt.Errorf("cycle %d: %w", r.Cycle(), err)
		}
		t.lm.Observe(lr)
		if cy.AW() {
			t.bursts++
			t.aws = append(t.aws, topBurst{addr: q.AWAddr, beats: int(q.AWLen) + 1})
			t.ids[q.AWID] = append(t.ids[q.AWID], len(t.open))
			t.open = append(t.open, openBurst{addr: q.AWAddr, beats: int(q.AWLen) + 1})
		}
		if cy.B() {
			t.lastB = r.Cycle()
			if q := t.ids[resp.BID]; len(q) > 0 {
				b := t.open[q[0]]
				if resp.BResp >= axi.RespSlvErr && t.errSpan == nil {
					t.errSpan = &span{b.addr, uint64(b.beats * t.k)}
					t.errResp = resp.BResp
				}
				t.open[q[0]].answered = true
				t.ids[resp.BID] = q[1:]
			}
			n := 0
			for n < len(t.open) && t.open[n].answered {
				n++
			}
			if n > 0 {
				t.open = t.open[n:]
				for id, q := range t.ids {
					for i := range q {
						q[i] -= n
					}
					t.ids[id] = q
				}
			}
		}
		if cy.W() {
			t.beats++
			t.early = append(t.early, cycle.HostWrite{Data: slices.Clone(q.WData), Strb: q.WStrb})
			r.lastWrite = r.Cycle() - 1
			active = true
		}
		for len(t.early) > 0 && len(t.aws) > 0 {
			w := t.early[0]
			t.early = t.early[1:]
			w.Addr = t.aws[0].addr + uint64(t.beat*r.lane)
			r.writes = append(r.writes, w)
			if t.beat++; t.beat == t.aws[0].beats {
				t.aws, t.beat = t.aws[1:], 0
			}
		}
		ne := len(r.events)
		a := r.collect(in, out, r.Cycle()-1)
		for _, e := range r.events[ne:] {
			if e.Kind == cycle.EvPlaced || e.Kind == cycle.EvDDPError || e.Kind == cycle.EvDelivered {
				t.leave(e, r.Cycle()-1)
			}
		}
		active = active || a
	}
	r.active = active
}

// span is a range of host octets.
type span struct{ addr, n uint64 }

// topExpect is an FPDU event the model made for the frame being run: its
// kind and, for a PLACED event with a payload, the octets placed.
type topExpect struct {
	kind   int // cycle.Ev*
	placed span
	data   []byte
}

// expect sets the FPDU events of the next frame, as the model made them:
// each PLACED event (or the DDP_ERROR of the host write fault in its
// place) that leaves the gate is checked when it leaves against the
// bursts not answered yet, and its octets against the memory.
func (t *topState) expect(res fastpath.Result, mem *ddp.Memory) {
	t.want = t.want[:0]
	for _, e := range res.Events {
		x := topExpect{}
		switch e.Kind {
		case fastpath.Placed:
			x.kind = cycle.EvPlaced
			if n := e.Len - e.DDP.Len(); n > 0 {
				x.placed = span{e.Addr, uint64(n)}
				x.data = mem.Read(e.Addr, n)
			}
		case fastpath.DDPError:
			x.kind = cycle.EvDDPError
		case fastpath.Delivered:
			x.kind = cycle.EvDelivered
		default:
			continue
		}
		t.want = append(t.want, x)
	}
}

// leave checks an FPDU event as it leaves m_evt: when the model's event
// in its place is a PLACED with a payload, no burst that is not answered
// may hold its octets, and each octet must be in memory with the model's
// value (unless the event is a host write error: its burst was not
// written).
func (t *topState) leave(e cycle.Event, cy uint64) {
	if t.err != nil || len(t.want) == 0 {
		return
	}
	x := t.want[0]
	t.want = t.want[1:]
	if x.kind != cycle.EvPlaced || x.placed.n == 0 {
		return
	}
	for _, b := range t.open {
		if !b.answered && b.addr < x.placed.addr+x.placed.n && x.placed.addr < b.addr+uint64(b.beats*t.k) {
			t.err = fmt.Errorf("cycle %d: PLACED of [%#x, +%d) left before the B response of the burst at %#x", cy, x.placed.addr, x.placed.n, b.addr)
			return
		}
	}
	if e.Kind == cycle.EvDDPError && e.DDPKind == driver.DDPKindHostWrite {
		return
	}
	for i, want := range x.data {
		if c, ok := t.mem.Byte(x.placed.addr + uint64(i)); !ok || c != want {
			t.err = fmt.Errorf("cycle %d: PLACED of [%#x, +%d) left with host octet %#x %#02x (written %v), model %#02x",
				cy, x.placed.addr, x.placed.n, x.placed.addr+uint64(i), c, ok, want)
			return
		}
	}
}

// restore checks the completion gate's host write fault in a frame's
// events and gives them back as the receiver made them: a DDP_ERROR of
// kind 13 must stand where the model has a PLACED or DELIVERED, only after
// a burst was answered with an error, the first of them the PLACED of an
// FPDU with octets in the first such burst; from then on every PLACED and
// DELIVERED must be one.
func (t *topState) restore(res fastpath.Result, out *Output) error {
	var want []fastpath.Event
	for _, e := range res.Events {
		if e.Kind == fastpath.Placed || e.Kind == fastpath.DDPError || e.Kind == fastpath.Delivered {
			want = append(want, e)
		}
	}
	j := 0
	for i := range out.Events {
		e := &out.Events[i]
		if e.Kind != cycle.EvPlaced && e.Kind != cycle.EvDDPError && e.Kind != cycle.EvDelivered {
			continue
		}
		if j == len(want) {
			return nil // the count differs: compare says so
		}
		w := want[j]
		j++
		k := map[fastpath.EventKind]int{fastpath.Placed: cycle.EvPlaced, fastpath.DDPError: cycle.EvDDPError,
			fastpath.Delivered: cycle.EvDelivered}[w.Kind]
		conv := e.Kind == cycle.EvDDPError && e.DDPKind == driver.DDPKindHostWrite
		switch {
		case conv && k == cycle.EvDDPError:
			return fmt.Errorf("event %d: host write error where the model has a DDP_ERROR", i)
		case conv && t.errSpan == nil:
			return fmt.Errorf("event %d: host write error, and no burst was answered with an error", i)
		case conv && !t.faulted:
			n := uint64(w.Len - w.DDP.Len())
			if k != cycle.EvPlaced || n == 0 || !(w.Addr < t.errSpan.addr+t.errSpan.n && t.errSpan.addr < w.Addr+n) {
				return fmt.Errorf("event %d: the first host write error is not the PLACED of an FPDU in the failed burst [%#x, +%d)",
					i, t.errSpan.addr, t.errSpan.n)
			}
			t.faulted = true
		case !conv && t.faulted && k != cycle.EvDDPError:
			return fmt.Errorf("event %d: kind %d after the host write fault", i, e.Kind)
		}
		if conv {
			e.Kind, e.DDPKind = k, 0
		}
	}
	return nil
}

// HostFault reports whether the checks saw the host write fault turn an
// event into a DDP_ERROR, and the first error response the slave gave.
func (r *RTL) HostFault() (faulted bool, resp uint8) {
	if r.top == nil {
		return false, 0
	}
	return r.top.faulted, r.top.errResp
}
