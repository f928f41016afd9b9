package cycle

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/golden/wire"
)

// DUT is a receiver the bench drives cycle by cycle: the model alone
// (ModelDUT) or the RTL in lockstep with the model (cosim/rx).
type DUT interface {
	// Push queues a frame on s_axis, presented after gap idle cycles;
	// fcsBad sets tuser on its last beat.
	Push(frame []byte, gap int, fcsBad bool)
	// Run runs n cycles and reports every cycle's inputs and outputs to the
	// bench's Observe.
	Run(n int) error
	// Config makes one configuration write: cfg_valid until cfg_ready.
	Config(op, index int, d CfgData) error
	// Idle reports that no frame is queued, being received or in egress.
	Idle() bool
	// Cycle returns the number of cycles run.
	Cycle() uint64
	// Beats returns the number of s_axis beats accepted.
	Beats() uint64
	// Model returns the cycle model.
	Model() *Model
}

// Ready gives the ready inputs of the outputs for each cycle.
type Ready func(cycle uint64) (evt, exc, host bool)

// Pattern names a backpressure pattern.
type Pattern string

// Backpressure patterns.
const (
	NoStall  Pattern = "none"   // always ready
	Random50 Pattern = "random" // each ready high with probability 1/2 each cycle
	Stalls   Pattern = "stalls" // ready in runs of 1..400 cycles, stalled for runs of 1..1500
)

// NewReady returns the ready inputs of a pattern. The pattern must be
// asked for cycles in increasing order.
func NewReady(p Pattern, seed uint64) Ready {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	switch p {
	case Random50:
		return func(uint64) (bool, bool, bool) {
			r := rng.Uint32()
			return r&1 != 0, r&2 != 0, r&4 != 0
		}
	case Stalls:
		var until [3]uint64
		var state [3]bool
		return func(c uint64) (bool, bool, bool) {
			for i := range until {
				if c >= until[i] {
					state[i] = !state[i]
					if state[i] {
						until[i] = c + 1 + uint64(rng.IntN(400))
					} else {
						until[i] = c + 1 + uint64(rng.IntN(1500))
					}
				}
			}
			return state[0], state[1], state[2]
		}
	}
	return func(uint64) (bool, bool, bool) { return true, true, true }
}

// Options configure a bench run.
type Options struct {
	Slots     int     // CONN_COUNT
	STagCount int     // STAG_COUNT (the STag table index is STag[31:8] mod it)
	RQDepth   int     // RQ_DEPTH: receive buffers per queue beyond the current MSN
	Lanes     int     // DATA_WIDTH/8
	Seed      uint64  // idle cycles and bad-FCS copies
	GapProb   float64 // probability of idle cycles before a frame
	MaxGap    int     // at most this many idle cycles
	FCSBad    float64 // probability of a bad-FCS copy of a frame before it
	// Noise is the probability, every 256 cycles while frames are in
	// flight, of a context write to a slot no frame of the vector uses
	// (configuration writes racing traffic: cfg_ready in verdict cycles).
	Noise float64
	// Oversize is the number of frames longer than the whole FIFO (ARP
	// frames of FIFODepth+100 beats, dropped with code 0) put at random
	// places of the vector.
	Oversize  int
	MaxFrame  int // MAX_FRAME for Oversize (0: MaxFrame)
	FIFODepth int // for Oversize (0: DefaultFIFODepth(Lanes*8, MaxFrame))
}

// Report summarises a bench run.
type Report struct {
	Vector     string
	Frames     int // frames pushed (bad-FCS copies included)
	FPDUs      int // ULPDUs the golden receiver passed
	Cycles     uint64
	Beats      uint64
	Events     int
	Exceptions int
	Writes     int // host writes
	Elapsed    time.Duration
	Stats      Stats // what the model saw exercised
}

// Bench drives a DUT with a vector's frames, plays software (fastpath.System
// decides what it writes), observes the DUT's outputs and checks them.
type Bench struct {
	opt    Options
	rng    *rand.Rand
	free   []int // slots no frame uses (noise writes)
	ready  Ready
	events []Event
	excs   []excFrame
	exc    []byte
	writes []HostWrite
}

type excFrame struct {
	data   []byte
	reason int
}

// NewBench returns a bench with the given ready pattern.
func NewBench(opt Options, ready Ready) *Bench { return &Bench{opt: opt, ready: ready} }

// Ready returns the ready inputs of a cycle.
func (b *Bench) Ready(c uint64) (evt, exc, host bool) { return b.ready(c) }

// Observe takes one cycle's handshakes.
func (b *Bench) Observe(in In, out Out) {
	if out.EvtValid && in.EvtReady {
		b.events = append(b.events, out.Events()...)
	}
	if out.ExcValid && in.ExcReady {
		for i := 0; i < b.opt.Lanes; i++ {
			if i >= 64 || out.ExcKeep>>i&1 != 0 {
				b.exc = append(b.exc, out.ExcData[i])
			}
		}
		if out.ExcLast {
			b.excs = append(b.excs, excFrame{b.exc, out.ExcUser})
			b.exc = nil
		}
	}
	if out.HostValid && in.HostReady {
		w := HostWrite{Addr: out.HostAddr, Strb: out.HostStrb, Data: make([]byte, b.opt.Lanes)}
		for i := range w.Data {
			if out.HostStrb>>i&1 != 0 {
				w.Data[i] = out.HostData[i]
			}
		}
		b.writes = append(b.writes, w)
	}
}

// expect is what the bench expects of one pushed frame.
type expect struct {
	frame  []byte
	res    fastpath.Result
	fcsBad bool        // dropped with code 0: a bad FCS, or longer than the FIFO
	hw     []ddp.Write // its placements (hardware)
}

// ErrStuck is returned when the DUT does not become idle.
var ErrStuck = errors.New("cycle: receiver not idle")

func (b *Bench) drain(d DUT) error {
	for n := 0; !d.Idle(); n += 256 {
		if n > 20_000_000 {
			return fmt.Errorf("%w after %d cycles (cycle %d)", ErrStuck, n, d.Cycle())
		}
		if len(b.free) > 0 && b.rng.Float64() < b.opt.Noise {
			slot := b.free[b.rng.IntN(len(b.free))]
			t := wire.FourTuple{SrcIP: wire.AddrFrom4([4]byte{192, 0, 2, byte(b.rng.Uint32())}), DstIP: wire.AddrFrom4([4]byte{}), SrcPort: uint16(b.rng.Uint32())}
			if err := d.Config(OpContext, slot, EncodeContext(t, fastpath.Context{Full: b.rng.IntN(2) == 0, Stream: 4000 + ddp.StreamID(b.rng.IntN(64))})); err != nil {
				return err
			}
		}
		if err := d.Run(256); err != nil {
			return err
		}
	}
	return nil
}

// Workload is what Bench.Run drives through a DUT: frames, and the golden
// models set up for them (connections, STags, receive buffers) in their
// initial state.
type Workload struct {
	Name   string
	Frames [][]byte
	// System decides each frame as the hardware and software do together;
	// its tables have the sizes of the bench's Options (Slots, STagCount,
	// RQDepth).
	System *fastpath.System
	// Golden is the golden receiver alone (Config.Digests set, no
	// OnEvent) and Memory the host memory its placer writes.
	Golden *rx.Receiver
	Memory *ddp.Memory
	// Buffers are the ranges of host memory whose final contents the
	// hardware and software must leave as the golden receiver does.
	Buffers []Buffer
}

// Buffer is a range of host memory.
type Buffer struct{ Addr, Len uint64 }

// Run runs workload w through d and checks: every frame decided as
// fastpath.System decides it (verdict, reason, events with their fields),
// exception frames octet for octet, host writes exactly the §5.4 split of
// the hardware's placements, and the union of hardware and software equal
// to the golden receiver's result (events and final buffers). Software's
// configuration writes are made when the DUT is idle after the frame that
// causes them (frames after it wait), so that the model and the golden
// system see the same order of frames and writes.
func (b *Bench) Run(w Workload, d DUT) (Report, error) {
	start := time.Now()
	rep := Report{Vector: w.Name}
	sys := w.System
	// Software's writes to the hardware's tables (the setup's STags and
	// receive buffers first) go to the configuration port when the DUT is
	// idle.
	flush := func() error {
		ops := sys.TakeOps()
		if len(ops) == 0 {
			return nil
		}
		if err := b.drain(d); err != nil {
			return err
		}
		for _, o := range ops {
			for _, w := range EncodeOps(o, b.opt.Slots, b.opt.STagCount) {
				if err := d.Config(w.Op, w.Index, w.Data); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := flush(); err != nil {
		return rep, err
	}
	rng := rand.New(rand.NewPCG(b.opt.Seed, 0xf4a3e))
	b.rng = rand.New(rand.NewPCG(b.opt.Seed, 0x0c0f1))
	used := map[int]bool{} // the slots the frames' lookups hash to
	var regs ParserRegs
	for _, f := range w.Frames {
		beats := make([]byte, (len(f)+b.opt.Lanes-1)/b.opt.Lanes*b.opt.Lanes)
		copy(beats, f)
		if p := ParsePositional(beats, len(f), b.opt.Lanes, &regs); p.Lookup {
			used[keyIndex(p, b.opt.Slots)] = true
		}
	}
	b.free = b.free[:0]
	for i := 0; i < b.opt.Slots; i++ {
		if !used[i] {
			b.free = append(b.free, i)
		}
	}
	gap := func() int {
		if rng.Float64() < b.opt.GapProb {
			return 1 + rng.IntN(max(b.opt.MaxGap, 1))
		}
		return 0
	}
	var exp []expect
	mem := sys.HWPlacer.Memory()
	over := map[int]bool{}
	for i := 0; i < b.opt.Oversize; i++ {
		over[rng.IntN(len(w.Frames))] = true
	}
	depth := b.opt.FIFODepth
	if depth == 0 {
		mf := b.opt.MaxFrame
		if mf == 0 {
			mf = MaxFrame
		}
		depth = DefaultFIFODepth(b.opt.Lanes*8, mf)
	}
	for fi, f := range w.Frames {
		if over[fi] {
			big := make([]byte, (depth+100)*b.opt.Lanes)
			big[12], big[13] = 0x08, 0x06
			exp = append(exp, expect{frame: big, fcsBad: true})
			d.Push(big, gap(), false)
		}
		if rng.Float64() < b.opt.FCSBad {
			exp = append(exp, expect{frame: f, fcsBad: true})
			d.Push(f, gap(), true)
		}
		w.Golden.Frame(f)
		n0 := len(mem.Log())
		res := sys.Frame(f)
		e := expect{frame: f, res: res}
		for _, ev := range res.Events {
			if ev.Kind == fastpath.Placed {
				e.hw = append(e.hw, mem.Log()[n0+len(e.hw)])
			}
		}
		exp = append(exp, e)
		d.Push(f, gap(), false)
		if err := flush(); err != nil {
			return rep, err
		}
	}
	if err := b.drain(d); err != nil {
		return rep, err
	}
	rep.Frames, rep.Cycles, rep.Beats, rep.Stats = len(exp), d.Cycle(), d.Beats(), d.Model().Stats
	rep.Events, rep.Exceptions, rep.Writes = len(b.events), len(b.excs), len(b.writes)
	if err := b.check(exp); err != nil {
		return rep, err
	}
	if sys.Err != nil {
		return rep, sys.Err
	}
	golden := w.Golden.Events()
	if err := SameOutcome(golden, sys.Events); err != nil {
		return rep, err
	}
	for i, buf := range w.Buffers {
		if !bytes.Equal(mem.Read(buf.Addr, int(buf.Len)), w.Memory.Read(buf.Addr, int(buf.Len))) {
			return rep, fmt.Errorf("buffer %d at %#x: hardware and software differ from golden", i, buf.Addr)
		}
	}
	for _, e := range golden {
		if e.Kind == rx.ULPDU {
			rep.FPDUs++
		}
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// check compares what the DUT sent with what the system expects.
func (b *Bench) check(exp []expect) error {
	evs, excs, writes := b.events, b.excs, b.writes
	next := func() (Event, bool) {
		if len(evs) == 0 {
			return Event{}, false
		}
		e := evs[0]
		evs = evs[1:]
		return e, true
	}
	for i, x := range exp {
		fail := func(format string, args ...any) error {
			return fmt.Errorf("frame %d (fcs bad %v, %v/%d): %s", i, x.fcsBad, x.res.Verdict, x.res.Reason, fmt.Sprintf(format, args...))
		}
		ev, ok := next()
		if !ok || ev.Kind != EvVerdict {
			return fail("no VERDICT event (got %v)", ev)
		}
		fl := ParseFields(x.frame)
		wantV, wantR := VerdictCode(x.res.Verdict), int(x.res.Reason)
		if x.fcsBad {
			wantV, wantR = VDrop, 0
		}
		if ev.Verdict != wantV || ev.Reason != wantR {
			return fail("VERDICT %v", ev)
		}
		if fl.Defined && (ev.Seq != fl.Seq || ev.Len != fl.PayLen || ev.Index != fastpath.Index(fl.Tuple, b.opt.Slots)) {
			return fail("VERDICT fields %v", ev)
		}
		switch {
		case x.fcsBad || x.res.Verdict == fastpath.Drop:
			ev, ok := next()
			code := 0
			if !x.fcsBad {
				code = fastpath.DropCode(x.res.Events[0].Err)
			}
			if !ok || ev.Kind != EvDrop || ev.Verdict != code {
				return fail("DROP event %v, want code %d", ev, code)
			}
		case x.res.Verdict == fastpath.Exception:
			if len(excs) == 0 || !bytes.Equal(excs[0].data, x.frame) || excs[0].reason != wantR {
				return fail("exception frame missing or different")
			}
			excs = excs[1:]
		case x.res.Verdict == fastpath.Place:
			var second fastpath.Event
			for _, e := range x.res.Events {
				if e.Kind == fastpath.Advanced || e.Kind == fastpath.Consumed {
					second = e
				}
			}
			ev, ok := next()
			want := EvAdvanced
			if second.Kind == fastpath.Consumed {
				want = EvConsumed
			}
			if !ok || ev.Kind != want || ev.End != second.End || ev.Seq != fl.Seq ||
				ev.NRFC != second.PtrRFC5044 || ev.NDraft != second.PtrDraft01 {
				return fail("second event %v, want %v", ev, second)
			}
			for _, e := range x.res.Events {
				var k int
				switch e.Kind {
				case fastpath.Placed:
					k = EvPlaced
				case fastpath.DDPError:
					k = EvDDPError
				case fastpath.Delivered:
					k = EvDelivered
				default:
					continue
				}
				ev, ok := next()
				if !ok || ev.Kind != k || ev.Seq != e.Seq || (k != EvDelivered && ev.Len != e.Len) {
					return fail("event %v, want %v", ev, e)
				}
				var de *ddp.Error
				if k == EvDDPError && errors.As(e.Err, &de) && ev.DDPKind != int(de.Kind) {
					return fail("DDP error kind %d, want %d", ev.DDPKind, de.Kind)
				}
			}
			for _, w := range x.hw {
				for _, pw := range splitWrites(Placement{Addr: w.Addr, Data: w.Data, Pos: make([]int, len(w.Data))}, b.opt.Lanes) {
					if len(writes) == 0 {
						return fail("host write %#x missing", pw.w.Addr)
					}
					got := writes[0]
					writes = writes[1:]
					if got.Addr != pw.w.Addr || got.Strb != pw.w.Strb || !bytes.Equal(got.Data, pw.w.Data) {
						return fail("host write %#x/%#x, want %#x/%#x", got.Addr, got.Strb, pw.w.Addr, pw.w.Strb)
					}
				}
			}
		}
	}
	switch {
	case len(evs) > 0:
		return fmt.Errorf("%d events after the last frame's, first %v", len(evs), evs[0])
	case len(excs) > 0:
		return fmt.Errorf("%d exception frames too many", len(excs))
	case len(writes) > 0:
		return fmt.Errorf("%d host writes too many", len(writes))
	}
	return nil
}

// SameOutcome checks that the hardware's and software's reports together
// equal the golden receiver's: the same ULPDUs, MPA errors, deliveries,
// drops, placements and DDP errors.
func SameOutcome(golden, union []rx.Event) error {
	return fastpath.SameOutcome(golden, union, append(append([]rx.Kind(nil), fastpath.OutcomeKinds...), rx.Placed, rx.DDPError)...)
}

// Add adds the counts of o to s.
func (s *Stats) Add(o Stats) {
	s.Cycles += o.Cycles
	s.FullInflight += o.FullInflight
	s.FullFIFO += o.FullFIFO
	s.CfgBusyVerdict += o.CfgBusyVerdict
	s.CfgBusyRQ += o.CfgBusyRQ
	s.CfgWaited += o.CfgWaited
	s.Overlap += o.Overlap
	s.Events += o.Events
	s.ExcBeats += o.ExcBeats
	s.HostWrites += o.HostWrites
	s.ExtraWrites += o.ExtraWrites
	s.Stalled += o.Stalled
	s.OversizeFrames += o.OversizeFrames
	s.RecordCycles += o.RecordCycles
	s.DDPLookups += o.DDPLookups
}

// String lists the counts.
func (s Stats) String() string {
	return fmt.Sprintf("%d cycles: tready low %d (frames in flight) + %d (FIFO full); cfg_ready low %d (verdict) + %d (queue), a write waited %d; "+
		"E1/E2 overlap %d; %d events, %d exception beats, %d host writes (%d left pending); output stalled %d; "+
		"%d record cycles, %d DDP lookups; %d oversize frames",
		s.Cycles, s.FullInflight, s.FullFIFO, s.CfgBusyVerdict, s.CfgBusyRQ, s.CfgWaited, s.Overlap, s.Events, s.ExcBeats,
		s.HostWrites, s.ExtraWrites, s.Stalled, s.RecordCycles, s.DDPLookups, s.OversizeFrames)
}
