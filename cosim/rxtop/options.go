package rxtop

import (
	"fmt"

	"github.com/mparx/mparx/cosim"
	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/vecgen/replay"
	"github.com/mparx/mparx/vecgen/vector"
)

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

// SetReady drives m_evt_tready, m_exc_axis_tready and m_host_ready (Open
// sets all three high).
func (r *RTL) SetReady(evt, exc, host bool) {
	r.setAll(func(rec []uint64) {
		r.p["m_evt_tready"].SetBool(rec, evt)
		r.p["m_exc_axis_tready"].SetBool(rec, exc)
		r.p["m_host_ready"].SetBool(rec, host)
	})
}

// Partial queues the octets of b on s_axis as whole beats with tlast low
// on every one of them: the start of a frame cut short. len(b) must be a
// multiple of the beat width (a beat without tlast has every tkeep bit
// set).
func (r *RTL) Partial(b []byte) {
	if len(b)%r.lane != 0 {
		panic(fmt.Sprintf("rxtop: Partial: %d octets, not whole %d-octet beats", len(b), r.lane))
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
		return fmt.Errorf("rxtop: Reset with %d beats pending", r.src.Pending())
	}
	r.sim.Reset(n)
	r.pushed = 0
	return nil
}

// RunWith is Run with hooks called around each frame: the same checks, frame
// by frame, and at the end the model's hardware and software union against
// the golden receiver (which the hooks may have changed too).
func RunWith(v *vector.Vector, width int, h Hooks, opts ...cosim.Option) (Report, error) {
	rep := Report{Vector: v.Setup.Name, Frames: len(v.Frames)}
	sys, err := replay.NewSystem(&v.Setup, Slots, STagSlots, RQDepth)
	if err != nil {
		return rep, err
	}
	var golden []rx.Event
	g, err := replay.NewGolden(&v.Setup, rx.Config{Digests: true, OnEvent: func(e *rx.Event) { golden = append(golden, *e) }})
	if err != nil {
		return rep, err
	}
	frames := make([][]byte, len(v.Frames))
	for i, f := range v.Frames {
		frames[i] = f.Data
	}
	rep, err = runSystem(sys, g, frames, width, h, opts...)
	rep.Vector = v.Setup.Name
	if err != nil {
		return rep, err
	}
	if err := fastpath.SameOutcome(golden, sys.Events); err != nil {
		return rep, err
	}
	for _, e := range golden {
		if e.Kind == rx.ULPDU {
			rep.FPDUs++
		}
	}
	return rep, nil
}
