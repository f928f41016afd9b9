package rx

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/cycle"
	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/fastpath"
	goldenrx "github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/vecgen/replay"
	"github.com/mparx/mparx/vecgen/vector"
)

func loadVector(t *testing.T, name string) *vector.Vector {
	t.Helper()
	v, err := vector.Load(filepath.Join("..", "..", "vectors", name))
	require.NoError(t, err)
	return v
}

// Reset in the middle of a frame. Between two frames of a vector, with the
// receiver idle, the first beats of some frame (1 beat up to all but the
// last) go in without tlast, 0 to 300 more cycles run, and rst is held for
// 1 or 4 cycles. rst clears the pipelines and queues, not the context,
// STag and receive-queue tables (docs/robustness.md), so the RTL must go
// on exactly as the model, which never saw the cut frame: every later
// frame's verdict, events and host writes as the model's, and at the end
// the union against the golden receiver.
func TestResetMidFrame(t *testing.T) {
	for _, name := range []string{"aligned", "out-of-order", "packed", "mixed-traffic"} {
		v := loadVector(t, name)
		for _, width := range Widths {
			t.Run(fmt.Sprintf("%s/w%d", name, width), func(t *testing.T) {
				lane := width / 8
				extra := []int{0, 1, 2, 3, 5, 8, 20, 300}
				resets := 0
				h := Hooks{Before: func(i int, e Engines) error {
					if i < 5 || i%3 != 0 {
						return nil
					}
					// cut the frame i, or one of the others, after c beats
					f := v.Frames[(i*7)%len(v.Frames)].Data
					if i%2 == 0 {
						f = v.Frames[i].Data
					}
					beats := len(f) / lane // whole beats
					if beats < 2 {
						return nil
					}
					c := 1 + (i*5)%(beats-1)
					e.RTL.Partial(f[:c*lane])
					if err := e.RTL.Settle(extra[resets%len(extra)], 10000); err != nil {
						return err
					}
					resets++
					return e.RTL.Reset(1 + 3*(resets%2))
				}}
				rep, err := RunWith(v, width, h)
				require.NoError(t, err)
				require.Positive(t, resets)
				t.Logf("%d resets mid-frame, %d frames after them as the model (%d PLACE, %d host writes)", resets, rep.Frames, rep.Placed, rep.Writes)
			})
		}
	}
}

// A frame cut short without tlast: its first beats (whole beats, tkeep all
// ones), then the next frame's beats with its tlast. The RTL sees one frame
// made of the two, and so does the model (the same octets: a beat carries
// whole lanes, so at beat granularity the cut is the concatenation). The
// frames after it must be decided and placed as the model does. The two
// frames come again intact right after (a retransmission), so that the
// stream goes on in order, except near the vector's end, where both are
// lost for good.
func TestCutWithoutTlast(t *testing.T) {
	for _, name := range []string{"aligned", "out-of-order", "packed", "mixed-traffic"} {
		v := loadVector(t, name)
		for _, width := range Widths {
			t.Run(fmt.Sprintf("%s/w%d", name, width), func(t *testing.T) {
				lane := width / 8
				d := *v
				d.Frames = nil
				cuts, lost, long := 0, 0, 0
				merged := map[int]bool{} // indices of the joined frames
				for i := 0; i < len(v.Frames); i++ {
					f := v.Frames[i].Data
					// every fourth frame of at least two beats (by rank, not
					// index: at 512 bits few frames are two beats long)
					canCut := i >= 5 && i+1 < len(v.Frames) && len(f) >= 2*lane
					if canCut {
						long++
					}
					if !canCut || long%4 != 1 {
						d.Frames = append(d.Frames, v.Frames[i])
						continue
					}
					c := 1 + (i*3)%(len(f)/lane-1)
					joined := append(append([]byte(nil), f[:c*lane]...), v.Frames[i+1].Data...)
					merged[len(d.Frames)] = true
					d.Frames = append(d.Frames, vector.Frame{Data: joined})
					cuts++
					if i+9 < len(v.Frames) {
						d.Frames = append(d.Frames, v.Frames[i]) // retransmitted; then i+1 as usual
					} else {
						i++ // near the end: both lost
						lost++
					}
				}
				outcome := map[string]int{} // what became of the joined frames (model = RTL)
				rep, err := RunWith(&d, width, Hooks{After: func(i int, res fastpath.Result, _ Output) {
					if merged[i] {
						k := res.Verdict.String()
						if res.Verdict == fastpath.Exception {
							k += fmt.Sprintf(" reason %d", res.Reason)
						}
						outcome[k]++
					}
				}})
				require.NoError(t, err)
				require.Positive(t, cuts)
				t.Logf("joined frames: %v", outcome)
				t.Logf("%d frames cut without tlast (%d of them not sent again); %d frames, %d PLACE, %d exceptions, %d host writes",
					cuts, lost, rep.Frames, rep.Placed, rep.Exceptions, rep.Writes)
			})
		}
	}
}

// stalled is a stall pattern of the three outputs.
type stalled struct{ evt, exc, host bool }

func (s stalled) String() string {
	n := ""
	for _, x := range []struct {
		on   bool
		name string
	}{{s.evt, "evt"}, {s.exc, "exc"}, {s.host, "host"}} {
		if x.on {
			n += x.name + "+"
		}
	}
	return n[:len(n)-1]
}

// HoldCycles is how long TestLongBackpressure holds its outputs' ready low.
const HoldCycles = 100000

// Output backpressure held for a long time. From frame 10 of a vector,
// MAX_INFLIGHT + 10 frames (24, 34 at 512 bits) are offered back to back
// while m_evt_tready, m_exc_axis_tready and m_host_ready (all, or one of
// them) are held low for 100,000 cycles: s_axis_tready must drop (the
// frame FIFO or the MAX_INFLIGHT limit), nothing
// comes out of a stalled output, and after the release every frame's
// events, exception frame and host writes come out, in order, as the
// model's (the model ran the frames one after the other; no software
// write falls in that stretch). Then the rest of the vector runs frame by
// frame and the union matches the golden receiver.
func TestLongBackpressure(t *testing.T) {
	tests := []struct {
		vector string
		stall  stalled
	}{
		{"aligned", stalled{true, true, true}},
		{"aligned", stalled{evt: true}},
		{"aligned", stalled{host: true}},
		{"mixed-traffic", stalled{true, true, true}},
		{"mixed-traffic", stalled{exc: true}},
	}
	for _, tt := range tests {
		v := loadVector(t, tt.vector)
		for _, width := range Widths {
			t.Run(fmt.Sprintf("%s/%v/w%d", tt.vector, tt.stall, width), func(t *testing.T) {
				backpressure(t, v, width, tt.stall, 10, cycle.InflightLimit(width)+10)
			})
		}
	}
}

func backpressure(t *testing.T, v *vector.Vector, width int, st stalled, k, m int) {
	sys, err := replay.NewSystem(&v.Setup, Slots, STagSlots, RQDepth)
	require.NoError(t, err)
	var golden []goldenrx.Event
	g, err := replay.NewGolden(&v.Setup, goldenrx.Config{Digests: true, OnEvent: func(e *goldenrx.Event) { golden = append(golden, *e) }})
	require.NoError(t, err)
	r, err := Open(width)
	require.NoError(t, err)
	defer r.Close()
	require.NoError(t, r.Ops(sys))
	mem := sys.HWPlacer.Memory()
	one := func(i int) {
		f := v.Frames[i].Data
		g.Receiver.Frame(f)
		res := sys.Frame(f)
		r.Frame(f)
		out, err := r.Drain()
		require.NoError(t, err, "frame %d", i)
		require.NoError(t, compare(res, f, out, mem), "frame %d", i)
		require.NoError(t, r.Ops(sys))
	}
	require.Less(t, k+m, len(v.Frames))
	for i := 0; i < k; i++ {
		one(i)
	}

	// the burst: the model runs each frame at once; the RTL gets them all
	// with its outputs stalled
	type done struct {
		res  fastpath.Result
		snap *ddp.Memory // the octets the frame placed, as the model placed them
	}
	var want []done
	r.SetReady(!st.evt, !st.exc, !st.host)
	beats0 := r.Beats()
	for i := k; i < k+m; i++ {
		f := v.Frames[i].Data
		g.Receiver.Frame(f)
		res := sys.Frame(f)
		require.Empty(t, sys.TakeOps(), "frame %d: a software write inside the burst", i)
		snap := ddp.NewMemory()
		for _, e := range res.Events {
			if e.Kind == fastpath.Placed && e.Len > e.DDP.Len() {
				n := e.Len - e.DDP.Len()
				snap.Write(e.Addr, mem.Read(e.Addr, n))
			}
		}
		want = append(want, done{res, snap})
		r.Frame(f)
	}
	for c := 0; c < HoldCycles; c += batch {
		r.run(batch)
	}
	taken, pending := r.Beats()-beats0, r.src.Pending()
	require.Positive(t, pending, "s_axis_tready never dropped")
	if st.evt {
		require.Empty(t, r.events, "events while m_evt_tready was low")
	}
	if st.exc {
		require.Empty(t, r.excs, "exception frames while m_exc_axis_tready was low")
	}
	if st.host {
		require.Empty(t, r.writes, "host writes while m_host_ready was low")
	}
	r.SetReady(true, true, true)
	out, err := r.Drain()
	require.NoError(t, err)

	// split the outputs by frame: events from each VERDICT on, one
	// exception frame per exception, and per placed FPDU one write per
	// host word its range touches
	lane := uint64(width / 8)
	evs, excs, writes := out.Events, out.Excs, out.Writes
	tusers := out.TUsers
	for j, w := range want {
		var o Output
		require.NotEmpty(t, evs, "frame %d: no events", k+j)
		require.Equal(t, cycle.EvVerdict, evs[0].Kind, "frame %d", k+j)
		n := 1
		for n < len(evs) && evs[n].Kind != cycle.EvVerdict {
			n++
		}
		o.Events, evs = evs[:n], evs[n:]
		if w.res.Verdict == fastpath.Exception {
			require.NotEmpty(t, excs, "frame %d: exception frame missing", k+j)
			o.Excs, excs = excs[:1], excs[1:]
			o.TUsers, tusers = tusers[:1], tusers[1:]
		}
		nw := 0
		for _, e := range w.res.Events {
			if e.Kind == fastpath.Placed && e.Len > e.DDP.Len() {
				a, n := e.Addr, uint64(e.Len-e.DDP.Len())
				nw += int((a+n-1)/lane - a/lane + 1)
			}
		}
		require.GreaterOrEqual(t, len(writes), nw, "frame %d: host writes missing", k+j)
		o.Writes, writes = writes[:nw], writes[nw:]
		require.NoError(t, compare(w.res, v.Frames[k+j].Data, o, w.snap), "frame %d", k+j)
	}
	require.Empty(t, evs, "events beyond the burst's frames")
	require.Empty(t, excs, "exception frames beyond the burst's frames")
	require.Empty(t, writes, "host writes beyond the burst's frames")

	for i := k + m; i < len(v.Frames); i++ {
		one(i)
	}
	require.NoError(t, sys.Err)
	require.NoError(t, fastpath.SameOutcome(golden, sys.Events))
	t.Logf("stalled %v for %d cycles: %d beats taken (%d frames offered), %d beats held back; after release %d events, %d exception frames, %d host writes, all as the model",
		st, HoldCycles, taken, m, pending, len(out.Events), len(out.Excs), len(out.Writes))
}
