package rx

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/mparx/mparx/cosim"
	"github.com/mparx/mparx/golden/cycle"
	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/fastpath"
	goldenrx "github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/vecgen/replay"
	"github.com/mparx/mparx/vecgen/vector"
)

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

// Run runs vector v through the integration top of the given width
// (RunTop with host memory DefaultSlave: configuration only through the
// driver over AXI4-Lite) and the models. It returns the first
// disagreement as an error.
func Run(v *vector.Vector, width int, opts ...cosim.Option) (Report, error) {
	return RunTop(v, width, DefaultSlave, Hooks{}, opts...)
}

// Frames yields the frames of a run one at a time: the next frame, or
// io.EOF after the last one. A frame is used before the next call.
type Frames func() ([]byte, error)

// FrameSlice returns the frames of a slice as Frames.
func FrameSlice(frames [][]byte) Frames {
	i := 0
	return func() ([]byte, error) {
		if i == len(frames) {
			return nil, io.EOF
		}
		i++
		return frames[i-1], nil
	}
}

// RunSystem runs frames through the RTL of the given width beside sys (the
// hardware model and the software slow path), one frame at a time, and
// programs the RTL with every configuration write software makes. Each
// frame's outputs must be what the model's hardware did with it. The hooks
// are called around each frame (Engines.Golden is nil). The frames are
// read as the run goes: nothing of a frame is kept after its outputs were
// compared (the model's host memory keeps what it placed).
func RunSystem(sys *fastpath.System, frames Frames, width int, h Hooks, opts ...cosim.Option) (Report, error) {
	return runSystem(sys, nil, frames, width, func() (*RTL, error) { return Open(width, opts...) }, h)
}

// RunSystemTop is RunSystem on the integration top (OpenTop): frames over
// AXI4-Stream, host memory the AXI4 slave model s, the configuration only
// through the driver over AXI4-Lite.
func RunSystemTop(sys *fastpath.System, frames Frames, width int, s Slave, h Hooks, opts ...cosim.Option) (Report, error) {
	return runSystem(sys, nil, frames, width, func() (*RTL, error) { return OpenTop(width, s, opts...) }, h)
}

// runSystem is RunSystem with the golden receiver g (may be nil) fed every
// frame, on the engine of the given width that open returns.
func runSystem(sys *fastpath.System, g *replay.Golden, frames Frames, width int, open func() (*RTL, error), h Hooks) (Report, error) {
	var rep Report
	start := time.Now()
	// The model takes what the variant's parser and frame FIFO take.
	sys.HW.FrameLimit, sys.HW.IPv4Only = cycle.FrameCapacity(width, MaxFrame), !cycle.ParsesIPv6
	r, err := open()
	if err != nil {
		return rep, err
	}
	defer r.Close()
	ops := func(i int) error {
		if err := r.Ops(sys); err != nil {
			return fmt.Errorf("frame %d: %w", i, err)
		}
		return nil
	}
	if err := ops(-1); err != nil {
		return rep, err
	}
	mem := sys.HWPlacer.Memory()
	for i := 0; ; i++ {
		f, err := frames()
		if err == io.EOF {
			break
		}
		if err != nil {
			return rep, err
		}
		rep.Frames++
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
		if r.top != nil {
			r.top.expect(res, mem)
		}
		r.Frame(f)
		out, err := r.Drain()
		if err != nil {
			return rep, fmt.Errorf("frame %d: %w", i, err)
		}
		if r.top != nil {
			if err := r.top.restore(res, &out); err != nil {
				return rep, fmt.Errorf("frame %d (cycle %d): %w", i, r.Cycle(), err)
			}
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
	if ev.Kind != cycle.EvVerdict {
		return fmt.Errorf("first event kind %d, want VERDICT", ev.Kind)
	}
	if want := cycle.VerdictCode(res.Verdict); ev.Verdict != want {
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
	var want []cycle.Event
	type span struct{ addr, n uint64 }
	var placed []span
	for _, e := range res.Events {
		switch e.Kind {
		case fastpath.Advanced:
			want = append(want, cycle.Event{Kind: cycle.EvAdvanced, End: e.End, NRFC: e.PtrRFC5044, NDraft: e.PtrDraft01})
		case fastpath.Consumed:
			want = append(want, cycle.Event{Kind: cycle.EvConsumed, Seq: e.Seq, End: e.End, NRFC: e.PtrRFC5044, NDraft: e.PtrDraft01})
		case fastpath.Dropped:
			want = append(want, cycle.Event{Kind: cycle.EvDrop, Verdict: fastpath.DropCode(e.Err)})
		}
	}
	for _, e := range res.Events {
		key := e.DDP.MSN
		if e.DDP.Tagged {
			key = e.DDP.STag
		}
		w := cycle.Event{Seq: e.Seq, End: key, Len: e.Len, Ctrl: ddpCtrl(e.DDP)}
		if !e.DDP.Tagged {
			w.QN = int(e.DDP.QN & 3)
		}
		switch e.Kind {
		case fastpath.Placed:
			w.Kind = cycle.EvPlaced
			if n := e.Len - e.DDP.Len(); n > 0 {
				placed = append(placed, span{e.Addr, uint64(n)})
			}
		case fastpath.DDPError:
			w.Kind = cycle.EvDDPError
			var de *ddp.Error
			if errors.As(e.Err, &de) {
				w.DDPKind = int(de.Kind)
			}
			if e.Len < ddp.UntaggedHeaderLen && !e.DDP.Tagged || e.Len < ddp.TaggedHeaderLen {
				// a short header: the RTL reports the fields it has
				w.End, w.QN = 0, 0
			}
		case fastpath.Delivered:
			w.Kind, w.Len = cycle.EvDelivered, 0
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
		case cycle.EvAdvanced:
			ok = ok && g.End == w.End && g.NRFC == w.NRFC && g.NDraft == w.NDraft
		case cycle.EvConsumed:
			ok = ok && g.Seq == w.Seq && g.End == w.End && g.NRFC == w.NRFC && g.NDraft == w.NDraft
		case cycle.EvDrop:
			ok = ok && g.Verdict == w.Verdict
		case cycle.EvPlaced, cycle.EvDDPError:
			ok = ok && g.Seq == w.Seq && g.Len == w.Len && g.Ctrl == w.Ctrl && g.DDPKind == w.DDPKind &&
				(w.Kind == cycle.EvDDPError && w.End == 0 || g.End == w.End && g.QN == w.QN)
		case cycle.EvDelivered:
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

// Engines are the three engines of a run: the RTL, the functional model
// of the hardware with the software slow path (golden/fastpath), and the
// golden receiver that sees every frame.
type Engines struct {
	RTL    *RTL
	Sys    *fastpath.System
	Golden *replay.Golden
}

// Hooks let a test act on all engines between the frames of a run
// (RunWith).
type Hooks struct {
	// Before is called before frame i goes to the engines, with the
	// previous frame's outputs drained. The configuration writes it makes
	// through Sys (Sys.Ops) go to the RTL after it returns. Any output the
	// RTL makes while Before drives it counts as frame i's.
	Before func(i int, e Engines) error
	// After is called with frame i's model result and the RTL's outputs,
	// once they were compared.
	After func(i int, res fastpath.Result, out Output)
}

// RunWith runs vector v through mpa_rx alone (Open: its configuration
// port and host-write port driven directly), with hooks called around
// each frame: the same checks as Run, frame by frame, and at the end the
// model's hardware and software union against the golden receiver (which
// the hooks may have changed too). It is for what only mpa_rx's own ports
// allow: a reset in the middle of a frame, m_host_ready held low.
//
// A TCP segment of the vector longer than MAX_FRAME goes to all engines
// as the frames the link carried (replay.OnTheWire).
func RunWith(v *vector.Vector, width int, h Hooks, opts ...cosim.Option) (Report, error) {
	return runVector(replay.OnTheWire(v, MaxFrame), width, func() (*RTL, error) { return Open(width, opts...) }, h)
}

// RunTop is Run on the integration top (OpenTop) with host memory the AXI4
// slave model s.
func RunTop(v *vector.Vector, width int, s Slave, h Hooks, opts ...cosim.Option) (Report, error) {
	return runVector(replay.OnTheWire(v, MaxFrame), width, func() (*RTL, error) { return OpenTop(width, s, opts...) }, h)
}

// runVector is RunWith with v's frames given as they are, whatever their
// length, to the engine of the given width that open returns.
func runVector(v *vector.Vector, width int, open func() (*RTL, error), h Hooks) (Report, error) {
	rep := Report{Vector: v.Setup.Name, Frames: len(v.Frames)}
	sys, err := replay.NewSystem(&v.Setup, Hardware(width))
	if err != nil {
		return rep, err
	}
	var golden []goldenrx.Event
	// The golden receiver drops what the variant cannot store, as the
	// hardware does.
	g, err := replay.NewGolden(&v.Setup, goldenrx.Config{Digests: true, OnEvent: func(e *goldenrx.Event) { golden = append(golden, *e) },
		FrameLimit: cycle.FrameCapacity(width, MaxFrame)})
	if err != nil {
		return rep, err
	}
	frames := make([][]byte, len(v.Frames))
	for i, f := range v.Frames {
		frames[i] = f.Data
	}
	rep, err = runSystem(sys, g, FrameSlice(frames), width, open, h)
	rep.Vector = v.Setup.Name
	if err != nil {
		return rep, err
	}
	if err := fastpath.SameOutcome(golden, sys.Events); err != nil {
		return rep, err
	}
	for _, e := range golden {
		if e.Kind == goldenrx.ULPDU {
			rep.FPDUs++
		}
	}
	return rep, nil
}
