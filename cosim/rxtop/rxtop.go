// Package rxtop runs rtl/mpa_rx.v, the receiver top, on conformance vectors
// beside the functional model of the hardware (golden/fastpath) and the
// software slow path, frame by frame: each frame's outputs are drained and
// software's context writes made before the next frame. It checks that the
// RTL decides every frame as the model does (verdict, reason, context
// updates, exception octets) and that the model's hardware and software
// together reproduce the golden receiver's results.
package rxtop

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/mparx/mparx/cosim"
	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/golden/wire"
	"github.com/mparx/mparx/vecgen/replay"
	"github.com/mparx/mparx/vecgen/vector"
)

// Table sizes of the co-simulation variants: CONN_COUNT, STAG_COUNT and
// RQ_DEPTH.
const (
	Slots     = 1024
	STagSlots = 256
	RQDepth   = 32
)

// Widths are the DATA_WIDTHs with a co-simulation variant.
var Widths = []int{64, 128, 256, 512}

// Event kinds on m_evt (docs/design.md section 4).
const (
	EvPlaced    = 1
	EvDDPError  = 2
	EvDelivered = 3
	EvDrop      = 4
	EvAdvanced  = 5
	EvConsumed  = 6
	EvVerdict   = 7
)

// Event is a decoded m_evt event (one lane of a beat).
type Event struct {
	Kind     int
	Index    int
	Seq, End uint32
	Len      int
	Verdict  int // VERDICT: verdict; DROP: drop code
	Reason   int
	// PLACED, DDP_ERROR, DELIVERED: Seq is the ULPDU_Length field's
	// sequence number, End the STag or MSN, Len the ULPDU length.
	Ctrl    uint8
	DDPKind int
	QN      uint32
	// ADVANCED, CONSUMED: the segment's FPDUs that began with a marker and
	// held a later one, by FPDUPTR form ([23:16] RFC 5044, [15:8] draft-01).
	NRFC, NDraft int
}

func decode(w []uint64) Event {
	hi, lo := w[1], w[0]
	return Event{
		Kind:    int(hi >> 60),
		Index:   int(hi >> 48 & 0xfff),
		Seq:     uint32(hi >> 16),
		End:     uint32((hi&0xffff)<<16 | lo>>48),
		Len:     int(lo >> 32 & 0xffff),
		Verdict: int(lo >> 28 & 3),
		Reason:  int(lo >> 24 & 0xf),
		Ctrl:    uint8(lo >> 24),
		DDPKind: int(lo >> 20 & 0xf),
		QN:      uint32(lo >> 18 & 3),
		NRFC:    int(lo >> 16 & 0xff),
		NDraft:  int(lo >> 8 & 0xff),
	}
}

// HostWrite is one write on m_host.
type HostWrite struct {
	Addr uint64
	Data []byte
	Strb uint64
}

// batch is the number of cycles run per cgo call.
const batch = 64

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

	events []Event
	exc    []byte
	excs   [][]byte
	tusers []int
	writes []HostWrite
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
}

// Open opens an mpa_rx variant of the given width and resets it.
func Open(width int, opts ...cosim.Option) (*RTL, error) {
	sim, err := cosim.Open(fmt.Sprintf("mpa_rx_w%d", width), opts...)
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
	sim.Reset(4)
	r.setAll(func(rec []uint64) {
		r.p["m_evt_tready"].SetBool(rec, true)
		r.p["m_exc_axis_tready"].SetBool(rec, true)
		r.p["m_host_ready"].SetBool(rec, true)
	})
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
	r.sim.Step(n, r.in[:n*r.sim.InWords()], r.out[:n*r.sim.OutWords()])
	p := r.p
	iw, ow := r.sim.InWords(), r.sim.OutWords()
	r.active = false
	base := r.sim.Cycle() - uint64(n)
	for c := 0; c < n; c++ {
		in, out := r.in[c*iw:(c+1)*iw], r.out[c*ow:(c+1)*ow]
		if r.countReady > 0 && p["s_axis_tready"].Bit(out) {
			if r.countReady--; r.countReady == 0 {
				r.lastReady = base + uint64(c)
			}
		}
		if p["m_evt_tvalid"].Bit(out) && p["m_evt_tready"].Bit(in) {
			for _, w := range cosim.EventLanes(p["m_evt_tdata"], p["m_evt_tkeep"], out) {
				r.events = append(r.events, decode(w))
			}
			r.active = true
		}
		if p["m_host_valid"].Bit(out) && p["m_host_ready"].Bit(in) {
			r.writes = append(r.writes, HostWrite{
				Addr: p["m_host_addr"].Get(out),
				Data: p["m_host_data"].AppendBytes(nil, out)[:r.lane],
				Strb: p["m_host_strb"].Get(out),
			})
			r.lastWrite = base + uint64(c)
			r.active = true
		}
		if p["m_exc_axis_tvalid"].Bit(out) && p["m_exc_axis_tready"].Bit(in) {
			r.active = true
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
}

// ErrStuck reports a handshake that did not complete in time.
var ErrStuck = errors.New("rxtop: handshake stuck")

// Frame queues one frame on s_axis.
func (r *RTL) Frame(b []byte) {
	words := make([]uint64, r.src.PayloadWords())
	data := r.p["s_axis_tdata"]
	for off := 0; off < len(b); off += r.lane {
		end := min(off+r.lane, len(b))
		clear(words)
		for i, c := range b[off:end] {
			words[i/8] |= uint64(c) << (8 * (i % 8))
		}
		k := ^uint64(0)
		if end-off < 64 {
			k = 1<<(end-off) - 1
		}
		words[data.Words] = k
		if end == len(b) {
			words[data.Words+1] = 1
		}
		r.src.Push(0, words)
		r.pushed++
	}
}

// Output of one frame (or of everything drained).
type Output struct {
	Events []Event
	Excs   [][]byte
	TUsers []int
	Writes []HostWrite
}

// Drain runs until the frames queued are in, the last one has its VERDICT
// event and then no output comes for as many cycles as beats were queued
// (plus a batch: a frame that is freed makes no output while its beats
// are read), and returns what came out.
func (r *RTL) Drain() (Output, error) {
	quiet := 0
	for n := 0; ; n += batch {
		if n > 200000 {
			if r.src.Pending() > 0 {
				return Output{}, fmt.Errorf("%w: s_axis_tready low, %d beats pending at cycle %d", ErrStuck, r.src.Pending(), r.Cycle())
			}
			return Output{}, fmt.Errorf("%w: no verdict after %d cycles", ErrStuck, n)
		}
		r.run(batch)
		if r.active || r.src.Pending() > 0 || len(r.events) == 0 {
			quiet = 0
			continue
		}
		if quiet += batch; quiet > r.pushed {
			break
		}
	}
	r.pushed = 0
	o := Output{Events: r.events, Excs: r.excs, TUsers: r.tusers, Writes: r.writes}
	r.events, r.excs, r.tusers, r.writes = nil, nil, nil, nil
	return o, nil
}

// Op makes one configuration write (docs/design.md section 4).
func (r *RTL) Op(op fastpath.Op) error {
	p := r.p
	rec := r.in[:r.sim.InWords()]
	w := p["cfg_data"].Slice(rec)
	clear(w)
	set := func(bit, width int, v uint64) {
		for i := 0; i < width; i++ {
			if v>>i&1 != 0 {
				w[(bit+i)/64] |= 1 << ((bit + i) % 64)
			}
		}
	}
	b := func(v bool) uint64 {
		if v {
			return 1
		}
		return 0
	}
	index := uint64(fastpath.Index(op.Half, Slots))
	switch op.Kind {
	case fastpath.OpContext:
		c, t := op.Ctx, op.Half
		set(0, 1, 1)
		set(1, 1, b(c.Full))
		set(2, 1, b(c.Err))
		set(3, 1, b(c.SWOwned))
		set(4, 1, b(c.Params.Markers))
		set(5, 1, b(c.Params.CRC))
		set(8, 12, uint64(c.Stream))
		set(20, 2, uint64(c.DDPVersion))
		set(32, 32, uint64(c.Params.SeqStart))
		set(64, 32, uint64(c.RcvNxt))
		set(96, 32, uint64(binary.BigEndian.Uint32(t.SrcIP[:])))
		set(128, 32, uint64(binary.BigEndian.Uint32(t.DstIP[:])))
		set(160, 16, uint64(t.SrcPort))
		set(176, 16, uint64(t.DstPort))
		for i, rg := range c.Ranges {
			set(6+i, 1, 1)
			set(192+64*i, 32, uint64(rg.Start))
			set(224+64*i, 32, uint64(rg.End))
		}
	case fastpath.OpSTag:
		index = uint64(op.STag>>8) % STagSlots
		set(0, 1, b(op.Valid))
		set(32, 32, uint64(op.STag))
		set(64, 12, uint64(op.Stream))
		set(128, 64, op.Base)
		set(192, 64, op.Len)
	case fastpath.OpPost:
		set(0, 2, uint64(op.QN))
		set(2, 1, b(op.Valid))
		set(32, 32, uint64(op.MSN))
		set(64, 12, uint64(op.Stream))
		set(128, 64, op.Base)
		set(192, 32, op.Len)
	case fastpath.OpMSN:
		set(0, 2, uint64(op.QN))
		set(32, 32, uint64(op.MSN))
	}
	p["cfg_op"].Set(rec, uint64(op.Kind))
	p["cfg_index"].Set(rec, index)
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

// Config writes a context through the configuration port.
func (r *RTL) Config(t wire.FourTuple, c fastpath.Context) error {
	return r.Op(fastpath.Op{Kind: fastpath.OpContext, Half: t, Ctx: c})
}

var rtlVerdict = map[fastpath.Verdict]int{fastpath.Place: 0, fastpath.Exception: 1, fastpath.Drop: 2, fastpath.Ignore: 3}

// Report summarises a run of one vector.
type Report struct {
	Vector     string
	Frames     int
	FPDUs      int // ULPDUs the golden receiver passed
	Cycles     uint64
	Beats      uint64
	Placed     int // frames the hardware takes (PLACE)
	Exceptions int
	Writes     int // host writes
	Elapsed    time.Duration
}

// Run runs vector v through the RTL of the given width and the models.
// It returns the first disagreement as an error.
func Run(v *vector.Vector, width int, opts ...cosim.Option) (Report, error) {
	return RunWith(v, width, Hooks{}, opts...)
}

// RunSystem runs frames through the RTL of the given width beside sys (the
// hardware model and the software slow path), one frame at a time, and
// programs the RTL with every configuration write software makes. Each
// frame's outputs must be what the model's hardware did with it. The hooks
// are called around each frame (Engines.Golden is nil).
func RunSystem(sys *fastpath.System, frames [][]byte, width int, h Hooks, opts ...cosim.Option) (Report, error) {
	return runSystem(sys, nil, frames, width, h, opts...)
}

// runSystem is RunSystem with the golden receiver g (may be nil) fed every
// frame.
func runSystem(sys *fastpath.System, g *replay.Golden, frames [][]byte, width int, h Hooks, opts ...cosim.Option) (Report, error) {
	rep := Report{Frames: len(frames)}
	start := time.Now()
	r, err := Open(width, opts...)
	if err != nil {
		return rep, err
	}
	defer r.Close()
	ops := func(i int) error {
		for _, op := range sys.TakeOps() {
			if err := r.Op(op); err != nil {
				return fmt.Errorf("frame %d: %w", i, err)
			}
		}
		return nil
	}
	if err := ops(-1); err != nil {
		return rep, err
	}
	mem := sys.HWPlacer.Memory()
	for i, f := range frames {
		if h.Before != nil {
			if err := h.Before(i, Engines{RTL: r, Sys: sys, Golden: g}); err != nil {
				return rep, fmt.Errorf("frame %d: before: %w", i, err)
			}
			if err := ops(i); err != nil {
				return rep, err
			}
		}
		if g != nil {
			g.Receiver.Frame(f)
		}
		res := sys.Frame(f)
		r.Frame(f)
		out, err := r.Drain()
		if err != nil {
			return rep, fmt.Errorf("frame %d: %w", i, err)
		}
		if err := compare(res, f, out, mem); err != nil {
			return rep, fmt.Errorf("frame %d (cycle %d): %w", i, r.Cycle(), err)
		}
		if h.After != nil {
			h.After(i, res, out)
		}
		rep.Writes += len(out.Writes)
		switch res.Verdict {
		case fastpath.Place:
			rep.Placed++
		case fastpath.Exception:
			rep.Exceptions++
		}
		if err := ops(i); err != nil {
			return rep, err
		}
	}
	rep.Cycles, rep.Beats, rep.Elapsed = r.Cycle(), r.Beats(), time.Since(start)
	if sys.Err != nil {
		return rep, sys.Err
	}
	return rep, nil
}

// ddpCtrl is the DDP control octet of h.
func ddpCtrl(h ddp.Header) uint8 {
	c := h.Version&3 | h.Rsvd<<2&0x3c
	if h.Tagged {
		c |= 0x80
	}
	if h.Last {
		c |= 0x40
	}
	return c
}

// compare checks the RTL's outputs for one frame against the model's result:
// the VERDICT event, the exception frame, the second event, the events of
// each FPDU and the octets written to host memory, which must lie inside
// what the model placed (mem holds the model's placements).
func compare(res fastpath.Result, frame []byte, out Output, mem *ddp.Memory) error {
	evs := out.Events
	ev := evs[0]
	if ev.Kind != EvVerdict {
		return fmt.Errorf("first event kind %d, want VERDICT", ev.Kind)
	}
	if want := rtlVerdict[res.Verdict]; ev.Verdict != want {
		return fmt.Errorf("verdict %d (reason %d), model %v (reason %d)", ev.Verdict, ev.Reason, res.Verdict, res.Reason)
	}
	if res.Verdict == fastpath.Exception {
		switch {
		case ev.Reason != int(res.Reason):
			return fmt.Errorf("reason %d, model %d", ev.Reason, res.Reason)
		case len(out.Excs) != 1 || !bytes.Equal(frame, out.Excs[0]):
			return fmt.Errorf("exception frame differs from the input frame")
		case out.TUsers[0] != int(res.Reason):
			return fmt.Errorf("exception tuser %d, model reason %d", out.TUsers[0], res.Reason)
		}
	} else if len(out.Excs) != 0 {
		return fmt.Errorf("exception output for a %v frame", res.Verdict)
	}
	var want []Event
	type span struct{ addr, n uint64 }
	var placed []span
	for _, e := range res.Events {
		switch e.Kind {
		case fastpath.Advanced:
			want = append(want, Event{Kind: EvAdvanced, End: e.End, NRFC: e.PtrRFC5044, NDraft: e.PtrDraft01})
		case fastpath.Consumed:
			want = append(want, Event{Kind: EvConsumed, Seq: e.Seq, End: e.End, NRFC: e.PtrRFC5044, NDraft: e.PtrDraft01})
		case fastpath.Dropped:
			want = append(want, Event{Kind: EvDrop, Verdict: fastpath.DropCode(e.Err)})
		}
	}
	for _, e := range res.Events {
		key := e.DDP.MSN
		if e.DDP.Tagged {
			key = e.DDP.STag
		}
		w := Event{Seq: e.Seq, End: key, Len: e.Len, Ctrl: ddpCtrl(e.DDP)}
		if !e.DDP.Tagged {
			w.QN = e.DDP.QN & 3
		}
		switch e.Kind {
		case fastpath.Placed:
			w.Kind = EvPlaced
			if n := e.Len - e.DDP.Len(); n > 0 {
				placed = append(placed, span{e.Addr, uint64(n)})
			}
		case fastpath.DDPError:
			w.Kind = EvDDPError
			var de *ddp.Error
			if errors.As(e.Err, &de) {
				w.DDPKind = int(de.Kind)
			}
			if e.Len < ddp.UntaggedHeaderLen && !e.DDP.Tagged || e.Len < ddp.TaggedHeaderLen {
				// a short header: the RTL reports the fields it has
				w.End, w.QN = 0, 0
			}
		case fastpath.Delivered:
			w.Kind, w.Len = EvDelivered, 0
		default:
			continue
		}
		want = append(want, w)
	}
	got := evs[1:]
	if len(got) != len(want) {
		return fmt.Errorf("%d events after VERDICT, model %d: %+v, model %+v", len(got), len(want), got, want)
	}
	for k, w := range want {
		g := got[k]
		ok := g.Kind == w.Kind
		switch w.Kind {
		case EvAdvanced:
			ok = ok && g.End == w.End && g.NRFC == w.NRFC && g.NDraft == w.NDraft
		case EvConsumed:
			ok = ok && g.Seq == w.Seq && g.End == w.End && g.NRFC == w.NRFC && g.NDraft == w.NDraft
		case EvDrop:
			ok = ok && g.Verdict == w.Verdict
		case EvPlaced, EvDDPError:
			ok = ok && g.Seq == w.Seq && g.Len == w.Len && g.Ctrl == w.Ctrl && g.DDPKind == w.DDPKind &&
				(w.Kind == EvDDPError && w.End == 0 || g.End == w.End && g.QN == w.QN)
		case EvDelivered:
			ok = ok && g.Seq == w.Seq && g.Ctrl == w.Ctrl && g.End == w.End && g.QN == w.QN
		}
		if !ok {
			return fmt.Errorf("event %d %+v, model %+v", k+1, g, w)
		}
	}
	// host writes: every octet inside a placed range, and every placed octet
	// written with the model's value
	written := map[uint64]byte{}
	for _, w := range out.Writes {
		for i, c := range w.Data {
			if w.Strb>>i&1 == 0 {
				continue
			}
			a := w.Addr + uint64(i)
			inside := false
			for _, s := range placed {
				inside = inside || a-s.addr < s.n
			}
			if !inside {
				return fmt.Errorf("host write at %#x outside the placed ranges %v", a, placed)
			}
			written[a] = c
		}
	}
	n := 0
	for _, s := range placed {
		want := mem.Read(s.addr, int(s.n))
		for i := range want {
			c, ok := written[s.addr+uint64(i)]
			if !ok || c != want[i] {
				return fmt.Errorf("host octet %#x: wrote %#x (%t), model %#x (%d writes, placed %v)", s.addr+uint64(i), c, ok, want[i], len(out.Writes), placed)
			}
		}
		n += int(s.n)
	}
	if len(written) > n {
		return fmt.Errorf("%d octets written, %d placed", len(written), n)
	}
	return nil
}
