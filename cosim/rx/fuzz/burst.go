package fuzz

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/mparx/mparx/cosim"
	"github.com/mparx/mparx/cosim/rx"
	"github.com/mparx/mparx/golden/cycle"
	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/golden/wire"
)

// FIFODepth is FIFO_DEPTH in beats as the variants build it at a
// DATA_WIDTH: the rtl/mpa_rx.v default for MAX_FRAME 9018 (jumbo).
func FIFODepth(width int) int { return cycle.DefaultFIFODepth(width, cycle.JumboFrame) }

// StallBound is the longest run of cycles in which s_axis_tready may stay
// low while s_axis_tvalid is high, with m_evt, m_exc_axis and m_host
// always ready, for a burst of frames: the largest T(F) of docs/design.md
// section 5 item 8 over the frames,
//
//	T(F) = L_WALK + 12 + E1(F) + B + E2(F)
//
// with B the beats F stores (at most FIFO_DEPTH + 1), R its walker records
// and D <= R its placement descriptors: E1(F) = 1 + 4R for a PLACE frame
// and 1 + R for any other at one event lane (64 and 128 bits), 2R and R at
// two; E2(F) = D, 2D at two lanes (D is taken as R, its bound). R is the
// golden cycle model's count for the frame (the walker's records, which
// the lockstep checks the RTL against), run here on the frames back to
// back with every output ready. s_axis_tready is low only while
// MAX_INFLIGHT frames are in flight or the frame FIFO is full, and both
// end when the oldest frame in flight, whose last beat is in, is done.
//
// It also returns the model's own longest stall on those frames, which the
// contract bounds the same way.
func StallBound(width int, frames [][]byte) (bound, modelStall int, err error) {
	lanes := width / 8
	bench := cycle.NewBench(cycle.Options{Lanes: lanes}, cycle.NewReady(cycle.NoStall, 0))
	m := cycle.New(cycle.Config{DataWidth: width, MaxFrame: cycle.JumboFrame, ConnCount: rx.Slots, RQDepth: rx.RQDepth})
	n, total, stall := 0, 0, 0
	capacity := FIFODepth(width) + 1
	m.Done = func(f *cycle.Frame) {
		b := min((len(frames[f.Seq])+lanes-1)/lanes, capacity)
		bound = max(bound, FrameStall(width, b, f.Records, f.Result.Verdict == fastpath.Place))
		n++
	}
	d := &cycle.ModelDUT{M: m, Bench: bench}
	for _, f := range frames {
		d.Push(f, 0, false)
		total += (len(f) + lanes - 1) / lanes
	}
	// every frame is queued back to back: a beat is presented while one
	// is left
	d.Check = func(out cycle.Out) {
		if d.Beats() < uint64(total) && !out.Ready {
			stall++
			modelStall = max(modelStall, stall)
		} else {
			stall = 0
		}
	}
	for c := 0; !d.Idle(); c += 256 {
		if c > 100*len(frames)*capacity {
			return 0, 0, fmt.Errorf("fuzz: the cycle model is not idle after %d cycles", c)
		}
		if err := d.Run(256); err != nil {
			return 0, 0, err
		}
	}
	if n != len(frames) {
		return 0, 0, fmt.Errorf("fuzz: the cycle model ended %d of %d frames", n, len(frames))
	}
	return bound, modelStall, nil
}

// FrameStall is T(F) of docs/design.md section 5 item 8 for a frame of b
// stored beats and r walker records at a DATA_WIDTH, its placement
// descriptors taken as r when it is a PLACE frame (place), 0 otherwise.
func FrameStall(width, b, r int, place bool) int {
	e1, e2 := 1+r, 0
	if place {
		e1, e2 = 1+4*r, r
	}
	if width >= 256 {
		e1, e2 = r, 2*e2
		if place {
			e1 = 2 * r
		}
	}
	return cycle.LWalk(width) + 12 + e1 + b + e2
}

// BurstReport is what a burst run measured.
type BurstReport struct {
	Frames     int
	Beats      int
	Cycles     uint64
	MaxStall   int // longest run of cycles with s_axis_tvalid high and s_axis_tready low
	Bound      int // StallBound of the frames (without backpressure)
	ModelStall int // the cycle model's longest stall on them (without backpressure)
	Stalls     int // cycles with s_axis_tvalid high and s_axis_tready low
	Outcomes   map[string]int
	Exception  int
}

// ErrLiveness reports s_axis_tready low for longer than StallBound.
var ErrLiveness = errors.New("fuzz: s_axis_tready low beyond the bound")

type evt struct {
	kind, verdict, reason int
}

// Burst sends frames back to back into a receiver with no contexts (every
// frame of the stream is an unknown connection, not TCP, or dropped), with
// no idle cycle between beats, and checks each frame's outcome against the
// functional model: verdict, reason, drop code, exception frame octet for
// octet. With backpressure, m_evt_tready and m_exc_axis_tready are each
// low in a random half of the cycles (seeded); without, they are always
// high and no run of s_axis_tready low may exceed StallBound.
func Burst(width int, frames [][]byte, backpressure bool, seed uint64) (BurstReport, error) {
	rep := BurstReport{Frames: len(frames), Outcomes: map[string]int{}}
	hw := fastpath.New(ddp.NewPlacer(ddp.NewMemory()), 0)
	hw.IPv4Only = !cycle.ParsesIPv6
	want := make([]fastpath.Result, len(frames))
	wantExc, wantDrop := 0, 0
	for i, f := range frames {
		want[i] = hw.Frame(f)
		rep.Outcomes[Outcome(want[i])]++
		switch want[i].Verdict {
		case fastpath.Exception:
			wantExc++
		case fastpath.Drop:
			wantDrop++
		}
	}
	rep.Exception = wantExc
	if !backpressure {
		b, ms, err := StallBound(width, frames)
		if err != nil {
			return rep, err
		}
		if ms > b {
			return rep, fmt.Errorf("%w: the cycle model's %d cycles (bound %d)", ErrLiveness, ms, b)
		}
		rep.Bound, rep.ModelStall = b, ms
	}
	sim, err := cosim.Open(fmt.Sprintf("mpa_rx_w%d", width), cosim.Name("fuzz-burst"))
	if err != nil {
		return rep, err
	}
	defer sim.Close()
	src, err := sim.AddSource("s_axis_tvalid", "s_axis_tready", "s_axis_tdata", "s_axis_tkeep", "s_axis_tlast")
	if err != nil {
		return rep, err
	}
	sim.Reset(4)
	lane := width / 8
	data := sim.Port("s_axis_tdata")
	for _, b := range frames {
		rep.Beats += rx.PushFrame(src, data, b, 0, false)
	}
	const batch = 256
	iw, ow := sim.InWords(), sim.OutWords()
	in, out := sim.NewIn(batch), sim.NewOut(batch)
	var readies []cosim.Port
	for _, p := range sim.Ports() {
		if p.Dir == cosim.In && strings.HasSuffix(p.Name, "ready") {
			readies = append(readies, p)
		}
	}
	var (
		evTready, excTready                 = sim.Port("m_evt_tready"), sim.Port("m_exc_axis_tready")
		evValid, evData, evKeep             = sim.Port("m_evt_tvalid"), sim.Port("m_evt_tdata"), sim.Port("m_evt_tkeep")
		excValid, excData, excKeep, excLast = sim.Port("m_exc_axis_tvalid"), sim.Port("m_exc_axis_tdata"), sim.Port("m_exc_axis_tkeep"), sim.Port("m_exc_axis_tlast")
		excUser                             = sim.Port("m_exc_axis_tuser")
		sValid, sReady                      = sim.Port("s_axis_tvalid"), sim.Port("s_axis_tready")
	)
	rng := rand.New(rand.NewPCG(seed, 1))
	var (
		evs   []evt
		excs  [][]byte
		users []int
		cur   []byte
		stall int
	)
	limit := uint64(rep.Beats)*8 + 100000
	for {
		for c := 0; c < batch; c++ {
			rec := in[c*iw : (c+1)*iw]
			for _, p := range readies {
				p.SetBool(rec, true)
			}
			if backpressure {
				evTready.SetBool(rec, rng.IntN(2) == 0)
				excTready.SetBool(rec, rng.IntN(2) == 0)
			}
		}
		sim.Step(batch, in, out)
		rep.Cycles += batch
		for c := 0; c < batch; c++ {
			ri, ro := in[c*iw:(c+1)*iw], out[c*ow:(c+1)*ow]
			if sValid.Bit(ri) && !sReady.Bit(ro) {
				stall++
				rep.Stalls++
				rep.MaxStall = max(rep.MaxStall, stall)
			} else {
				stall = 0
			}
			if evValid.Bit(ro) && evTready.Bit(ri) {
				for _, w := range cosim.EventLanes(evData, evKeep, ro) {
					hi, lo := w[1], w[0]
					evs = append(evs, evt{kind: int(hi >> 60), verdict: int(lo >> 28 & 3), reason: int(lo >> 24 & 0xf)})
				}
			}
			if excValid.Bit(ro) && excTready.Bit(ri) {
				b := excData.AppendBytes(nil, ro)
				k := excKeep.Get(ro)
				for i := 0; i < lane; i++ {
					if i >= 64 || k>>i&1 != 0 {
						cur = append(cur, b[i])
					}
				}
				if excLast.Bit(ro) {
					excs, users, cur = append(excs, cur), append(users, int(excUser.Get(ro))), nil
				}
			}
		}
		if !backpressure && rep.MaxStall > rep.Bound {
			return rep, fmt.Errorf("%w: %d cycles (bound %d) at cycle %d, %d beats pending",
				ErrLiveness, rep.MaxStall, rep.Bound, sim.Cycle(), src.Pending())
		}
		verdicts, drops := 0, 0
		for _, e := range evs {
			switch e.kind {
			case 7:
				verdicts++
			case 4:
				drops++
			}
		}
		if src.Pending() == 0 && verdicts >= len(frames) && len(excs) >= wantExc && drops >= wantDrop {
			break
		}
		if rep.Cycles > limit {
			return rep, fmt.Errorf("fuzz: burst not done after %d cycles: %d beats pending, %d of %d verdicts, %d of %d exception frames",
				rep.Cycles, src.Pending(), verdicts, len(frames), len(excs), wantExc)
		}
	}
	// split the events per frame and compare
	fi, ei := -1, 0
	var second []evt
	check := func() error {
		if fi < 0 {
			return nil
		}
		w := want[fi]
		if w.Verdict == fastpath.Drop {
			code := 1
			for _, e := range w.Events {
				if e.Kind == fastpath.Dropped {
					switch {
					case errors.Is(e.Err, wire.ErrIPChecksum):
						code = 2
					case errors.Is(e.Err, wire.ErrTCPChecksum):
						code = 3
					}
				}
			}
			if len(second) != 1 || second[0].kind != 4 || second[0].verdict != code {
				return fmt.Errorf("frame %d: events after VERDICT %+v, model DROP code %d", fi, second, code)
			}
		} else if len(second) != 0 {
			return fmt.Errorf("frame %d: events after VERDICT %+v for a %v frame", fi, second, w.Verdict)
		}
		return nil
	}
	verdictCode := map[fastpath.Verdict]int{fastpath.Place: 0, fastpath.Exception: 1, fastpath.Drop: 2, fastpath.Ignore: 3}
	for _, e := range evs {
		if e.kind != 7 {
			second = append(second, e)
			continue
		}
		if err := check(); err != nil {
			return rep, err
		}
		fi, second = fi+1, nil
		if fi >= len(frames) {
			return rep, fmt.Errorf("more VERDICT events than frames (%d)", len(frames))
		}
		w := want[fi]
		if e.verdict != verdictCode[w.Verdict] || (w.Verdict == fastpath.Exception && e.reason != int(w.Reason)) {
			return rep, fmt.Errorf("frame %d: verdict %d reason %d, model %s", fi, e.verdict, e.reason, Outcome(w))
		}
		if w.Verdict == fastpath.Exception {
			if !bytes.Equal(excs[ei], frames[fi]) || users[ei] != int(w.Reason) {
				return rep, fmt.Errorf("frame %d: exception frame (%d octets, tuser %d) differs from the input (%d octets, reason %d)",
					fi, len(excs[ei]), users[ei], len(frames[fi]), w.Reason)
			}
			ei++
		}
	}
	if err := check(); err != nil {
		return rep, err
	}
	return rep, nil
}
