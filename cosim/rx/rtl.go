package rx

import (
	"errors"
	"fmt"

	"github.com/mparx/mparx/cosim"
	"github.com/mparx/mparx/golden/cycle"
	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/golden/wire"
)

// batch is the number of cycles run per cgo call.
const batch = 64

// topStep is the number of cycles Drain runs between its checks on the
// integration top: the top's model costs far more per cycle than a cgo
// call, and a frame is done a few tens of cycles after its last B
// response, so a finer step saves more cycles than the calls cost.
const topStep = 16

// RTL drives one mpa_rx instance. Frames go in through a harness source (the
// handshake runs on the C++ side) and cycles run in batches; only a
// configuration write steps single cycles.
type RTL struct {
	sim  *cosim.Sim
	src  *cosim.Source
	in   []uint64 // batch input records
	out  []uint64
	p    map[string]cosim.Port
	lane int

	events []cycle.Event
	exc    []byte
	excs   [][]byte
	tusers []int
	writes []cycle.HostWrite
	active bool // an output fired in the last batch
	pushed int  // beats queued since the last Drain

	// countReady, when positive, counts down the cycles with s_axis_tready
	// high (the source offers a beat in every cycle while it has one);
	// lastReady is the cycle in which it reached zero, that is when the
	// last of that many beats was accepted. lastWrite is the cycle of the
	// last host write.
	countReady int
	lastReady  uint64
	lastWrite  uint64
	// lastVerdict is the cycle of the last VERDICT event.
	lastVerdict uint64

	// top: the integration top's bus models (OpenTop), nil for mpa_rx
	top *topState
}

// Open opens an mpa_rx variant of the given width and resets it.
func Open(width int, opts ...cosim.Option) (*RTL, error) {
	r, err := openVariant(fmt.Sprintf("mpa_rx_w%d", width), width, opts...)
	if err != nil {
		return nil, err
	}
	r.sim.Reset(4)
	r.setAll(func(rec []uint64) {
		r.p["m_evt_tready"].SetBool(rec, true)
		r.p["m_exc_axis_tready"].SetBool(rec, true)
		r.p["m_host_ready"].SetBool(rec, true)
	})
	return r, nil
}

// openVariant opens a Verilator variant with an s_axis frame source and
// the batch buffers, its ports by name.
func openVariant(variant string, width int, opts ...cosim.Option) (*RTL, error) {
	sim, err := cosim.Open(variant, opts...)
	if err != nil {
		return nil, err
	}
	src, err := sim.AddSource("s_axis_tvalid", "s_axis_tready", "s_axis_tdata", "s_axis_tkeep", "s_axis_tlast")
	if err != nil {
		sim.Close()
		return nil, err
	}
	r := &RTL{sim: sim, src: src, in: sim.NewIn(batch), out: sim.NewOut(batch), p: map[string]cosim.Port{}, lane: width / 8}
	for _, p := range sim.Ports() {
		r.p[p.Name] = p
	}
	return r, nil
}

// setAll applies f to every input record of the batch.
func (r *RTL) setAll(f func(rec []uint64)) {
	w := r.sim.InWords()
	for c := 0; c < batch; c++ {
		f(r.in[c*w : (c+1)*w])
	}
}

// Close releases the simulation.
func (r *RTL) Close() error { return r.sim.Close() }

// Cycle returns the number of cycles run.
func (r *RTL) Cycle() uint64 { return r.sim.Cycle() }

// Beats returns the number of input beats accepted.
func (r *RTL) Beats() uint64 { return r.src.Accepted() }

// run runs n (at most batch) cycles and collects the outputs that fired.
func (r *RTL) run(n int) {
	if r.top != nil {
		r.runTop(n)
		return
	}
	r.sim.Step(n, r.in[:n*r.sim.InWords()], r.out[:n*r.sim.OutWords()])
	p := r.p
	iw, ow := r.sim.InWords(), r.sim.OutWords()
	r.active = false
	base := r.sim.Cycle() - uint64(n)
	for c := 0; c < n; c++ {
		in, out := r.in[c*iw:(c+1)*iw], r.out[c*ow:(c+1)*ow]
		if p["m_host_valid"].Bit(out) && p["m_host_ready"].Bit(in) {
			r.writes = append(r.writes, cycle.HostWrite{
				Addr: p["m_host_addr"].Get(out),
				Data: p["m_host_data"].AppendBytes(nil, out)[:r.lane],
				Strb: p["m_host_strb"].Get(out),
			})
			r.lastWrite = base + uint64(c)
			r.active = true
		}
		if r.collect(in, out, base+uint64(c)) {
			r.active = true
		}
	}
}

// collect takes the events, exception beats and s_axis_tready of one
// cycle's records (cycle cy); it reports whether an output fired.
func (r *RTL) collect(in, out []uint64, cy uint64) bool {
	p := r.p
	active := false
	{
		if r.countReady > 0 && p["s_axis_tready"].Bit(out) {
			if r.countReady--; r.countReady == 0 {
				r.lastReady = cy
			}
		}
		if p["m_evt_tvalid"].Bit(out) && p["m_evt_tready"].Bit(in) {
			for _, w := range cosim.EventLanes(p["m_evt_tdata"], p["m_evt_tkeep"], out) {
				e := cycle.Decode(cycle.Word{w[0], w[1]})
				if e.Kind == cycle.EvVerdict {
					r.lastVerdict = cy
				}
				r.events = append(r.events, e)
			}
			active = true
		}
		if p["m_exc_axis_tvalid"].Bit(out) && p["m_exc_axis_tready"].Bit(in) {
			active = true
			b := p["m_exc_axis_tdata"].AppendBytes(nil, out)
			k := p["m_exc_axis_tkeep"].Get(out)
			for i := 0; i < r.lane; i++ {
				if i >= 64 || k>>i&1 != 0 {
					r.exc = append(r.exc, b[i])
				}
			}
			if p["m_exc_axis_tlast"].Bit(out) {
				r.excs = append(r.excs, r.exc)
				r.tusers = append(r.tusers, int(p["m_exc_axis_tuser"].Get(out)))
				r.exc = nil
			}
		}
	}
	return active
}

// ErrStuck reports a handshake that did not complete in time.
var ErrStuck = errors.New("rx: handshake stuck")

// Frame queues one frame on s_axis.
func (r *RTL) Frame(b []byte) {
	r.pushed += PushFrame(r.src, r.p["s_axis_tdata"], b, 0, false)
}

// PushFrame queues a frame on src, an s_axis source whose payload ports are
// data (s_axis_tdata), s_axis_tkeep, s_axis_tlast and, when fcsBad is set,
// s_axis_tuser: the beats of cycle.Beats, the first after gap idle cycles.
// It returns the number of beats.
func PushFrame(src *cosim.Source, data cosim.Port, frame []byte, gap int, fcsBad bool) int {
	words := make([]uint64, src.PayloadWords())
	beats := cycle.Beats(frame, data.Width/8, gap, fcsBad)
	for _, bt := range beats {
		clear(words)
		for i, c := range bt.Data {
			words[i/8] |= uint64(c) << (8 * (i % 8))
		}
		words[data.Words] = bt.Keep
		if bt.Last {
			words[data.Words+1] = 1
		}
		if bt.User {
			words[data.Words+2] = 1
		}
		src.Push(bt.Gap, words)
	}
	return len(beats)
}

// Output of one frame (or of everything drained).
type Output struct {
	Events []cycle.Event
	Excs   [][]byte
	TUsers []int
	Writes []cycle.HostWrite
}

// Drain runs until the frames queued are in, the last one has its VERDICT
// event and then no output comes for as many cycles as beats were queued
// (plus a batch: a frame that is freed makes no output while its beats
// are read), and returns what came out. On the integration top, whose
// outputs do not stall for long (its slave's stalls are short and its
// bursts keep it busy until answered), it looks every topStep cycles and
// stops earlier: after topStep cycles with no output once as many cycles
// as beats were queued, plus a batch, have passed since the last VERDICT
// (by then the frame was read out of the frame FIFO, placed or freed).
func (r *RTL) Drain() (Output, error) {
	quiet := 0
	st := batch
	if r.top != nil {
		st = topStep
	}
	for n := 0; ; n += st {
		if n > 200000 {
			if r.src.Pending() > 0 {
				return Output{}, fmt.Errorf("%w: s_axis_tready low, %d beats pending at cycle %d", ErrStuck, r.src.Pending(), r.Cycle())
			}
			return Output{}, fmt.Errorf("%w: no verdict after %d cycles", ErrStuck, n)
		}
		r.run(st)
		if r.top != nil && r.top.err != nil {
			return Output{}, r.top.err
		}
		if r.active || r.src.Pending() > 0 || len(r.events) == 0 || r.top != nil && r.top.busy(r.Cycle()) {
			quiet = 0
			continue
		}
		if quiet += st; quiet > r.pushed || r.top != nil && r.Cycle()-r.lastVerdict > uint64(r.pushed+batch) {
			break
		}
	}
	r.pushed = 0
	o := Output{Events: r.events, Excs: r.excs, TUsers: r.tusers, Writes: r.writes}
	r.events, r.excs, r.tusers, r.writes = nil, nil, nil, nil
	return o, nil
}

// Op makes one configuration write (docs/design.md section 4).
func (r *RTL) Op(o fastpath.Op) error {
	if r.top != nil {
		if err := r.top.drv.Apply(o); err != nil {
			return err
		}
		return r.top.err
	}
	for _, cw := range cycle.EncodeOps(o, Slots, STagSlots) {
		if err := r.config(cw); err != nil {
			return err
		}
	}
	return nil
}

// config presents one configuration word on cfg_* until the receiver
// takes it.
func (r *RTL) config(cw cycle.CfgWrite) error {
	p := r.p
	rec := r.in[:r.sim.InWords()]
	w := p["cfg_data"].Slice(rec)
	clear(w)
	copy(w, cw.Data[:])
	p["cfg_op"].Set(rec, uint64(cw.Op))
	p["cfg_index"].Set(rec, uint64(cw.Index))
	p["cfg_valid"].SetBool(rec, true)
	defer p["cfg_valid"].SetBool(rec, false)
	for n := 0; ; n++ {
		if n > 1000 {
			return fmt.Errorf("%w: cfg_ready low", ErrStuck)
		}
		r.run(1)
		if p["cfg_ready"].Bit(r.out) {
			return nil
		}
	}
}

// Ops makes the configuration writes software queued in sys (its
// TakeOps), in order.
func (r *RTL) Ops(sys *fastpath.System) error {
	for _, op := range sys.TakeOps() {
		if err := r.Op(op); err != nil {
			return err
		}
	}
	return nil
}

// Config writes a context through the configuration port.
func (r *RTL) Config(t wire.FourTuple, c fastpath.Context) error {
	return r.Op(fastpath.Op{Kind: fastpath.OpContext, Half: t, Ctx: c})
}

// SetReady drives m_evt_tready, m_exc_axis_tready and m_host_ready (Open
// sets all three high).
// (an integration top has no m_host_ready: host is ignored there).
func (r *RTL) SetReady(evt, exc, host bool) {
	r.setAll(func(rec []uint64) {
		r.p["m_evt_tready"].SetBool(rec, evt)
		r.p["m_exc_axis_tready"].SetBool(rec, exc)
		if r.top == nil {
			r.p["m_host_ready"].SetBool(rec, host)
		}
	})
}

// Partial queues the octets of b on s_axis as whole beats with tlast low
// on every one of them: the start of a frame cut short. len(b) must be a
// multiple of the beat width (a beat without tlast has every tkeep bit
// set).
func (r *RTL) Partial(b []byte) {
	if len(b)%r.lane != 0 {
		panic(fmt.Sprintf("rx: Partial: %d octets, not whole %d-octet beats", len(b), r.lane))
	}
	words := make([]uint64, r.src.PayloadWords())
	data := r.p["s_axis_tdata"]
	for off := 0; off < len(b); off += r.lane {
		clear(words)
		for i, c := range b[off : off+r.lane] {
			words[i/8] |= uint64(c) << (8 * (i % 8))
		}
		words[data.Words] = ^uint64(0)
		r.src.Push(0, words)
		r.pushed++
	}
}

// Settle runs cycles until every beat queued on s_axis was accepted, then
// n more cycles; it fails when that takes over limit cycles.
func (r *RTL) Settle(n, limit int) error {
	for c := 0; r.src.Pending() > 0; c += batch {
		if c > limit {
			return fmt.Errorf("%w: %d beats pending after %d cycles", ErrStuck, r.src.Pending(), c)
		}
		r.run(batch)
	}
	for ; n > 0; n -= batch {
		r.run(min(n, batch))
	}
	return nil
}

// Reset drives rst for n cycles. No beat may be pending on s_axis (Settle
// first): a beat presented during the reset would be lost or half taken.
// The context, STag and receive-queue tables keep their contents.
func (r *RTL) Reset(n int) error {
	if r.src.Pending() > 0 {
		return fmt.Errorf("rx: Reset with %d beats pending", r.src.Pending())
	}
	if r.top != nil {
		return fmt.Errorf("rx: Reset of the integration top (its bus models keep their state)")
	}
	r.sim.Reset(n)
	r.pushed = 0
	return nil
}
