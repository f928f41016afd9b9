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
// behaves. The zero value is an always-ready slave that answers each burst
// the cycle after its last beat.
//
// The slave is the C++ one of the harness (cosim.AXISlave), run inside the
// model's batches; with GoModel it is the Go model of cosim/internal/axi
// (Memory) instead, and every cycle is a cgo call of its own. With the same
// settings both drive the same signals in every cycle.
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
	GoModel bool // the Go model, a cycle at a time (the reference of the C++ slave)
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
	resp  uint8 // the response the C++ slave chose
}

// topState is the integration top's bus partners: the AXI4 slave memory
// (the C++ slave, or the Go model mem) with its protocol checker, and the
// AXI4-Lite master under the driver.
type topState struct {
	mem   *axi.Memory     // the Go model (Slave.GoModel), else nil
	slave *cosim.AXISlave // the C++ slave, else nil
	host  axi.Sparse      // host memory as the C++ slave's bursts wrote it
	resps []uint8         // the C++ slave's responses of AW handshakes not yet matched
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
	// liteIdle: the AXI4-Lite inputs of every input record are the idle
	// master's (a single step drives them in the first record)
	liteIdle bool
	trace    func(cy uint64, c axi.WriteCycle)
	// rd reads registers beside the traffic and the driver (lockstep runs),
	// or nil
	rd *liteReader
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
// the given width and resets it. Host memory is the AXI4 slave set by s;
// the configuration goes only through the driver over the Go AXI4-Lite
// master; host writes are the W beats with their bursts' addresses. The
// cycles run in batches, with the C++ slave inside them; a configuration
// access runs a cycle at a time (the Go AXI4-Lite master answers the RTL
// cycle by cycle), and so does every cycle with Slave.GoModel. Either
// way the AXI4 and AXI4-Lite checkers see every cycle.
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
	// the same slave either way: the Go model, or its C++ copy in the batches
	mcfg := axi.MemoryConfig{DataBytes: k, Latency: s.Latency, Jitter: s.Jitter, AWStall: s.AWStall,
		WStall: s.WStall, BStall: s.BStall, Reorder: s.Reorder, SlvErr: s.SlvErr, DecErr: s.DecErr, Seed: s.Seed}
	if s.GoModel {
		t.mem = axi.NewMemory(mcfg)
	}
	r.top = t
	sim.Reset(4)
	if lock != nil {
		t.lock = &topLock{m: cycle.NewTop(*lock), p: r.p, lanes: k}
		t.rd = newLiteReader(s.Seed, topReadPeriod)
	}
	if !s.GoModel {
		// added after the reset: the slave starts with the master out of it
		t.slave, err = sim.AddAXISlave(mcfg, "m_axi_")
		if err != nil {
			sim.Close()
			return nil, err
		}
	}
	r.setAll(func(rec []uint64) {
		r.p["m_evt_tready"].SetBool(rec, true)
		r.p["m_exc_axis_tready"].SetBool(rec, true)
		t.setLite(rec, axi.LiteReq{BReady: true, RReady: true})
	})
	t.liteIdle = true
	bus := &axi.LiteBus{M: t.lm, Step: func() error { r.runTop(1); return t.err }}
	drv, err := driver.Open(bus)
	if err != nil {
		sim.Close()
		return nil, fmt.Errorf("rx: driver: %w", err)
	}
	t.drv = drv
	return r, nil
}

// topReadPeriod is the mean number of cycles between the background
// reader's episodes.
const topReadPeriod = 48

// ReadStats returns the counts of an integration top's background reader
// (lockstep runs; zero otherwise).
func (r *RTL) ReadStats() ReadStats {
	if r.top == nil || r.top.rd == nil {
		return ReadStats{}
	}
	return r.top.rd.stats
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
func (r *RTL) HostByte(addr uint64) (byte, bool) { return r.top.hostByte(addr) }

func (t *topState) hostByte(addr uint64) (byte, bool) {
	if t.mem != nil {
		return t.mem.Byte(addr)
	}
	return t.host.Byte(addr)
}

// SlaveStats returns the counts of an integration top's C++ AXI4 slave
// (zero with Slave.GoModel).
func (r *RTL) SlaveStats() cosim.AXISlaveStats {
	if r.top == nil || r.top.slave == nil {
		return cosim.AXISlaveStats{}
	}
	return r.top.slave.Stats()
}

// TraceAXI has f called with both sides of an integration top's AXI4
// write channels in every cycle from now on, in cycle order (cy counts
// from the top's open, reset included); c.Req.WData is valid during the
// call only.
func (r *RTL) TraceAXI(f func(cy uint64, c axi.WriteCycle)) { r.top.trace = f }

// busy reports bursts of an integration top that are not answered, beats
// not matched, or a B response in the last 16 cycles: events may still
// wait in the completion gate (they leave at most 8 cycles after the B
// response that completes them).
func (t *topState) busy(cy uint64) bool {
	return t.mem != nil && t.mem.Outstanding() > 0 || len(t.aws) > 0 || len(t.early) > 0 || t.chk.Pending() > 0 ||
		cy < t.lastB+16
}

// setLite drives the AXI4-Lite master's signals into an input record.
func (t *topState) setLite(in []uint64, lq axi.LiteReq) {
	p := &t.ports
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
}

// runTop runs n cycles of the integration top and takes every cycle's
// signals. With the C++ slave and the AXI4-Lite master idle the n cycles
// run as one batch; otherwise (the Go slave model, or a configuration
// access in progress) one cycle at a time, the Go models driving each
// cycle's inputs from what they saw in the cycles before.
func (r *RTL) runTop(n int) {
	t, p := r.top, &r.top.ports
	iw, ow := r.sim.InWords(), r.sim.OutWords()
	active := false
	if t.mem == nil && !t.lm.Busy() && !t.rd.busy(r.Cycle()) {
		lq := t.lm.Drive()
		if !t.liteIdle {
			t.setLite(r.in[:iw], lq)
			t.liteIdle = true
		}
		r.sim.Step(n, r.in[:n*iw], r.out[:n*ow])
		t.resps = t.slave.TakeResps(t.resps)
		base := r.Cycle() - uint64(n)
		for c := 0; c < n; c++ {
			if r.topCycle(r.in[c*iw:(c+1)*iw], r.out[c*ow:(c+1)*ow], base+uint64(c), lq) {
				active = true
			}
		}
		r.active = active
		return
	}
	in, out := r.in[:iw], r.out[:ow]
	for c := 0; c < n; c++ {
		if t.mem != nil {
			resp := t.mem.Drive()
			p.awready.SetBool(in, resp.AWReady)
			p.wready.SetBool(in, resp.WReady)
			p.bvalid.SetBool(in, resp.BValid)
			p.bid.Set(in, uint64(resp.BID))
			p.bresp.Set(in, uint64(resp.BResp))
		}
		lq := t.lm.Drive()
		if t.rd != nil {
			lq = t.rd.drive(lq, r.Cycle())
		}
		t.setLite(in, lq)
		t.liteIdle = false
		r.sim.Step(1, in, out)
		if t.slave != nil && p.awvalid.Bit(out) && p.awready.Bit(in) {
			t.resps = t.slave.TakeResps(t.resps)
		}
		if r.topCycle(in, out, r.Cycle()-1, lq) {
			active = true
		}
	}
	r.active = active
}

// topCycle takes one cycle's records of the integration top (cycle cy, lq
// the AXI4-Lite master's signals): the protocol checkers, the Go models,
// the bursts and beats, the events and exception beats; it reports
// whether an output fired.
func (r *RTL) topCycle(in, out []uint64, cy uint64, lq axi.LiteReq) bool {
	t, p := r.top, &r.top.ports
	active := false
	if t.lock != nil {
		if err := t.lock.step(in, out, cy); err != nil && t.err == nil {
			t.err = err
		}
	}
	t.wdata = t.wdata[:0]
	wvalid := p.wvalid.Bit(out)
	if wvalid {
		t.wdata = p.wdata.AppendBytes(t.wdata, out)
	}
	resp := axi.WriteResp{AWReady: p.awready.Bit(in), WReady: p.wready.Bit(in), BValid: p.bvalid.Bit(in),
		BID: uint32(p.bid.Get(in)), BResp: uint8(p.bresp.Get(in))}
	q := axi.WriteReq{
		AWValid: p.awvalid.Bit(out), AWID: uint32(p.awid.Get(out)), AWAddr: p.awaddr.Get(out),
		AWLen: uint8(p.awlen.Get(out)), AWSize: uint8(p.awsize.Get(out)), AWBurst: uint8(p.awburst.Get(out)),
		AWLock: p.awlock.Bit(out), AWCache: uint8(p.awcache.Get(out)), AWProt: uint8(p.awprot.Get(out)),
		WValid: wvalid, WData: t.wdata, WStrb: p.wstrb.Get(out), WLast: p.wlast.Bit(out),
		BReady: p.bready.Bit(out),
	}
	cyc := axi.WriteCycle{Req: q, Resp: resp}
	if err := t.chk.Observe(cyc); err != nil && t.err == nil {
		t.err = fmt.Errorf("cycle %d: %w", cy+1, err)
	}
	if t.trace != nil {
		t.trace(cy, cyc)
	}
	if t.mem != nil {
		t.mem.Observe(q)
	}
	lr := axi.LiteResp{
		AWReady: p.lawready.Bit(out), WReady: p.lwready.Bit(out), BValid: p.lbvalid.Bit(out),
		BResp: uint8(p.lbresp.Get(out)), ARReady: p.larready.Bit(out), RValid: p.lrvalid.Bit(out),
		RData: uint32(p.lrdata.Get(out)), RResp: uint8(p.lrresp.Get(out)),
	}
	if err := t.lchk.Observe(lq, lr); err != nil && t.err == nil {
		t.err = fmt.Errorf("cycle %d: %w", cy+1, err)
	}
	if t.rd != nil {
		lr = t.rd.observe(lq, lr, cy, t.lm.Writing())
	}
	t.lm.Observe(lr)
	if cyc.AW() {
		t.bursts++
		b := topBurst{addr: q.AWAddr, beats: int(q.AWLen) + 1}
		if t.slave != nil {
			if len(t.resps) == 0 {
				if t.err == nil {
					t.err = fmt.Errorf("cycle %d: the C++ AXI4 slave logged no response for an AW handshake", cy+1)
				}
			} else {
				b.resp, t.resps = t.resps[0], t.resps[1:]
			}
		}
		t.aws = append(t.aws, b)
		t.ids[q.AWID] = append(t.ids[q.AWID], len(t.open))
		t.open = append(t.open, openBurst{addr: q.AWAddr, beats: int(q.AWLen) + 1})
	}
	if cyc.B() {
		t.lastB = cy + 1
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
	if cyc.W() {
		t.beats++
		t.early = append(t.early, cycle.HostWrite{Data: slices.Clone(q.WData), Strb: q.WStrb})
		r.lastWrite = cy
		active = true
	}
	for len(t.early) > 0 && len(t.aws) > 0 {
		w := t.early[0]
		t.early = t.early[1:]
		b := &t.aws[0]
		w.Addr = b.addr + uint64(t.beat*r.lane)
		r.writes = append(r.writes, w)
		if t.slave != nil && b.resp == axi.RespOkay {
			// as the slave writes a beat: at its lane-aligned address
			t.host.Write(b.addr&^uint64(t.k-1)+uint64(t.beat*t.k), w.Data, w.Strb)
		}
		if t.beat++; t.beat == b.beats {
			t.aws, t.beat = t.aws[1:], 0
		}
	}
	ne := len(r.events)
	if r.collect(in, out, cy) {
		active = true
	}
	for _, e := range r.events[ne:] {
		if e.Kind == cycle.EvPlaced || e.Kind == cycle.EvDDPError || e.Kind == cycle.EvDelivered {
			t.leave(e, cy)
		}
	}
	return active
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
		if c, ok := t.hostByte(x.placed.addr + uint64(i)); !ok || c != want {
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
