package cycle

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/vecgen/replay"
	"github.com/mparx/mparx/vecgen/vector"
)

// arp returns an n-octet frame that is not IPv4 (EtherType ARP): an
// exception with reason NOT_TCP and no walker records.
func arp(n int, tag byte) []byte {
	b := make([]byte, n)
	b[12], b[13] = 0x08, 0x06
	for i := 14; i < n; i++ {
		b[i] = tag + byte(i)
	}
	return b
}

// cycleLog drives a model from Go and keeps every cycle's inputs and
// outputs.
type cycleLog struct {
	t     *testing.T
	m     *Model
	queue []Beat
	gap   int
	ready func(c uint64) (evt, exc, host bool)
	ins   []In
	outs  []Out
	acc   []uint64 // cycles of accepted last beats
}

func newLog(t *testing.T, cfg Config) *cycleLog {
	return &cycleLog{t: t, m: New(cfg), ready: func(uint64) (bool, bool, bool) { return true, true, true }}
}

func (l *cycleLog) push(frame []byte, gap int) {
	bs := Beats(frame, l.m.lanes, gap, false)
	if len(l.queue) == 0 {
		l.gap = gap
	}
	l.queue = append(l.queue, bs...)
}

func (l *cycleLog) run(n int) {
	for i := 0; i < n; i++ {
		var in In
		c := l.m.Cycle()
		in.EvtReady, in.ExcReady, in.HostReady = l.ready(c)
		present := len(l.queue) > 0 && l.gap == 0
		if present {
			bt := l.queue[0]
			in.Valid, in.Data, in.Keep, in.Last = true, bt.Data, bt.Keep, bt.Last
		} else if l.gap > 0 {
			l.gap--
		}
		out := l.m.Step(in)
		if present && out.Ready {
			if l.queue[0].Last {
				l.acc = append(l.acc, c)
			}
			l.queue = l.queue[1:]
			if len(l.queue) > 0 {
				l.gap = l.queue[0].Gap
			}
		}
		l.ins = append(l.ins, in)
		l.outs = append(l.outs, out)
		require.NoError(l.t, l.m.Err)
	}
}

// A lone frame: VERDICT two cycles after the verdict (last beat + 4 +
// L_WALK + 2: the walker's summary, V0, V1, V2), its beats on m_exc_axis from three cycles later, one per cycle;
// s_axis_tready never drops.
func TestLoneFrameTiming(t *testing.T) {
	for _, width := range []int{64, 128, 256, 512} {
		l := newLog(t, Config{DataWidth: width, ConnCount: 16})
		f := arp(100, 1)
		l.push(f, 3)
		l.run(80)
		require.Len(t, l.acc, 1)
		a := l.acc[0]
		v := a + uint64(LWalk(width)) + 6
		var evts, excs []uint64
		var got []byte
		for c, o := range l.outs {
			assert.True(t, o.Ready, "w%d cycle %d: tready", width, c)
			if o.EvtValid {
				evts = append(evts, uint64(c))
				require.Equal(t, 1, o.EvtKeep)
				e := Decode(o.Evt[0])
				assert.Equal(t, EvVerdict, e.Kind)
				assert.Equal(t, VException, e.Verdict)
				assert.Equal(t, 1, e.Reason)
				assert.Equal(t, HeaderMask, o.EvtMask[0])
			}
			if o.ExcValid {
				excs = append(excs, uint64(c))
				for i := 0; i < width/8; i++ {
					if o.ExcKeep>>i&1 != 0 {
						got = append(got, o.ExcData[i])
					}
				}
				assert.Equal(t, 1, o.ExcUser)
			}
		}
		beats := (len(f) + width/8 - 1) / (width / 8)
		require.Equal(t, []uint64{v + 2}, evts, "w%d", width)
		require.Len(t, excs, beats)
		for i, c := range excs {
			// E1 is the VERDICT cycle v+2; E2 starts three cycles after it.
			assert.Equal(t, v+5+uint64(i), c, "w%d beat %d", width, i)
		}
		assert.Equal(t, f, got)
		assert.True(t, l.outs[excs[len(excs)-1]].ExcLast)
	}
}

// With m_evt_tready low, egress stops at the first VERDICT and the input
// takes exactly 14 frames; when it rises, everything drains in order.
func TestInflightLimit(t *testing.T) {
	l := newLog(t, Config{DataWidth: 64, ConnCount: 16})
	stall := true
	l.ready = func(uint64) (bool, bool, bool) { return !stall, true, true }
	for i := 0; i < 20; i++ {
		l.push(arp(64, byte(i)), 0)
	}
	l.run(400)
	require.Len(t, l.acc, MaxInflight)
	assert.Equal(t, MaxInflight, l.m.Inflight())
	// tready low from the cycle after the 14th last beat.
	for c := l.acc[MaxInflight-1] + 1; c < 400; c++ {
		require.False(t, l.outs[c].Ready, "cycle %d", c)
	}
	stall = false
	l.run(1000)
	assert.Len(t, l.acc, 20)
	assert.True(t, l.m.Idle())
	var frames int
	for _, o := range l.outs {
		if o.ExcValid && o.ExcLast {
			frames++
		}
	}
	assert.Equal(t, 20, frames)
}

// The frame FIFO: with m_exc_axis stalled the input stops when the FIFO
// holds FIFO_DEPTH + 1 beats (its output register included); a frame
// longer than the whole FIFO is taken entirely and dropped (DROP code 0),
// its stored beats freed.
func TestFIFODepth(t *testing.T) {
	l := newLog(t, Config{DataWidth: 64, ConnCount: 16, FIFODepth: 32})
	stall := true
	l.ready = func(uint64) (bool, bool, bool) { return true, !stall, true }
	for i := 0; i < 5; i++ {
		l.push(arp(80, byte(i)), 0) // 10 beats each
	}
	l.run(300)
	require.Len(t, l.acc, 3)
	assert.Equal(t, uint64(33), l.m.stored-l.m.popped, "FIFO_DEPTH beats and the output register")
	assert.False(t, l.outs[299].Ready)
	stall = false
	l.run(300)
	require.Len(t, l.acc, 5)
	require.True(t, l.m.Idle())

	l = newLog(t, Config{DataWidth: 64, ConnCount: 16, FIFODepth: 32})
	l.push(arp(50*8, 9), 0)
	l.push(arp(64, 10), 0)
	l.run(300)
	require.Len(t, l.acc, 2)
	require.True(t, l.m.Idle())
	var evs []Event
	var exc int
	for c, o := range l.outs {
		if o.EvtValid && l.ins[c].EvtReady {
			evs = append(evs, o.Events()...)
		}
		if o.ExcValid {
			exc++
		}
	}
	require.Len(t, evs, 3)
	assert.Equal(t, EvVerdict, evs[0].Kind)
	assert.Equal(t, VDrop, evs[0].Verdict)
	assert.Equal(t, EvDrop, evs[1].Kind)
	assert.Equal(t, 0, evs[1].Verdict)
	assert.Equal(t, VException, evs[2].Verdict)
	assert.Equal(t, 8, exc, "only the second frame goes to software")
}

// E1 of the next frame runs while E2 of the previous one is stalled on
// m_exc_axis_tready, and E2 takes frames in order.
func TestE1E2Overlap(t *testing.T) {
	l := newLog(t, Config{DataWidth: 64, ConnCount: 16})
	l.ready = func(c uint64) (bool, bool, bool) { return true, c >= 200, true }
	l.push(arp(64, 1), 0)
	l.push(arp(64, 2), 0)
	l.run(400)
	var evts []uint64
	var firstExc uint64
	for c, o := range l.outs {
		if o.EvtValid {
			evts = append(evts, uint64(c))
		}
		if o.ExcValid && firstExc == 0 {
			firstExc = uint64(c)
		}
	}
	require.Len(t, evts, 2)
	v2 := l.acc[1] + uint64(LWalk(64)) + 6
	assert.Equal(t, v2+2, evts[1], "second VERDICT while the first frame's E2 waits")
	assert.Less(t, evts[1], uint64(200))
	assert.True(t, l.m.Idle())
	// The frames leave m_exc_axis in order: octet 14 of frame i is i+14.
	var frames [][]byte
	var cur []byte
	for c, o := range l.outs {
		if o.ExcValid && l.ins[c].ExcReady {
			cur = append(cur, o.ExcData...)
			if o.ExcLast {
				frames = append(frames, cur)
				cur = nil
			}
		}
	}
	require.Len(t, frames, 2)
	assert.Equal(t, byte(1+14), frames[0][14])
	assert.Equal(t, byte(2+14), frames[1][14])
}

// The write rule of section 5.4 on hand-made placements.
func TestPlanWrites(t *testing.T) {
	seq := func(from, n int) []int {
		p := make([]int, n)
		for i := range p {
			p[i] = from + i
		}
		return p
	}
	data := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i + 1)
		}
		return b
	}
	type step struct {
		read  bool
		run   bool
		extra bool
		beat  int
		addr  uint64
		strb  uint64
		write bool
	}
	tests := []struct {
		name  string
		lanes int
		beats int
		ps    []Placement
		want  []step
	}{
		{"no placement: one cycle per beat", 8, 3, nil,
			[]step{{read: true, beat: 0}, {read: true, beat: 1}, {read: true, beat: 2}}},
		{"aligned word ends in its beat", 8, 2, []Placement{{Addr: 0x100, Data: data(8), Pos: seq(4, 8)}},
			[]step{{read: true, run: true, beat: 0}, {read: true, run: true, beat: 1, write: true, addr: 0x100, strb: 0xff}}},
		{"crosses a word boundary inside its last beat: an extra write, pending beside the next steps", 8, 3,
			[]Placement{{Addr: 0x106, Data: data(4), Pos: seq(8, 4)}},
			[]step{{read: true, beat: 0}, {read: true, run: true, beat: 1, write: true, addr: 0x100, strb: 0xc0},
				{run: true, extra: true, beat: 1, write: true, addr: 0x108, strb: 0x03}, {read: true, beat: 2}}},
		{"long payload: one write per host word, in the beat of its last octet", 8, 4,
			[]Placement{{Addr: 0x203, Data: data(16), Pos: seq(10, 16)}},
			[]step{{read: true, beat: 0}, {read: true, run: true, beat: 1, write: true, addr: 0x200, strb: 0xf8},
				{read: true, run: true, beat: 2, write: true, addr: 0x208, strb: 0xff},
				{read: true, run: true, beat: 3, write: true, addr: 0x210, strb: 0x07}}},
		{"markers inside the payload: positions skip them", 8, 3,
			[]Placement{{Addr: 0x300, Data: data(8), Pos: append(seq(2, 4), seq(10, 4)...)}},
			[]step{{read: true, run: true, beat: 0}, {read: true, run: true, beat: 1, write: true, addr: 0x300, strb: 0xff}, {read: true, beat: 2}}},
		{"two placements end in one beat (wide): handled again for the second, never merged", 32, 2,
			[]Placement{{Addr: 0x400, Data: data(4), Pos: seq(2, 4)}, {Addr: 0x404, Data: data(4), Pos: seq(26, 4)}},
			[]step{{run: true, beat: 0, write: true, addr: 0x400, strb: 0xf}, {read: true, run: true, beat: 0, write: true, addr: 0x400, strb: 0xf0},
				{read: true, beat: 1}}},
		{"wide: the next placement starts in a later beat: the beat is handled again without a write, outside a run", 32, 3,
			[]Placement{{Addr: 0x400, Data: data(4), Pos: seq(2, 4)}, {Addr: 0x404, Data: data(4), Pos: seq(40, 4)}},
			[]step{{run: true, beat: 0, write: true, addr: 0x400, strb: 0xf}, {read: true, beat: 0},
				{read: true, run: true, beat: 1, write: true, addr: 0x400, strb: 0xf0}, {read: true, beat: 2}}},
		{"narrow: a placement ends and the next one follows: one cycle per beat", 8, 6,
			[]Placement{{Addr: 0x400, Data: data(4), Pos: seq(2, 4)}, {Addr: 0x404, Data: data(4), Pos: seq(40, 4)}},
			[]step{{read: true, run: true, beat: 0, write: true, addr: 0x400, strb: 0xf}, {read: true, beat: 1}, {read: true, beat: 2},
				{read: true, beat: 3}, {read: true, beat: 4}, {read: true, run: true, beat: 5, write: true, addr: 0x400, strb: 0xf0}}},
		{"empty payload writes nothing", 8, 1, []Placement{{Addr: 0x500}},
			[]step{{read: true, beat: 0}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []step
			for _, s := range PlanWrites(tc.beats, tc.lanes, tc.ps) {
				g := step{read: s.Read, run: s.Run, extra: s.Extra, beat: s.Beat}
				if s.Write != nil {
					g.write, g.addr, g.strb = true, s.Write.Addr, s.Write.Strb
				}
				got = append(got, g)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// Configuration words round trip.
func TestConfigEncoding(t *testing.T) {
	v, err := vector.Load(filepath.Join("..", "..", "vectors", "aligned"))
	require.NoError(t, err)
	specs, err := replay.ConnSpecs(&v.Setup)
	require.NoError(t, err)
	s := STagEntry{Valid: true, STag: 0x12345678, Stream: 7, Base: 0xdead_beef_0000, Length: 1 << 40}
	assert.Equal(t, s, DecodeSTag(EncodeSTag(s)))
	r := RecvEntry{QN: 2, Valid: true, MSN: 0x80000001, Stream: 0xabc, Base: 0x1_0000_0000, Length: 4096}
	assert.Equal(t, r, DecodeRecv(EncodeRecv(r)))
	e := DecodeContext(EncodeContext(specs[0].Tuple, Entry{}.Ctx))
	assert.Equal(t, specs[0].Tuple, e.Tuple)
	assert.True(t, e.Valid)
}

// Events round trip through their 128-bit encoding.
func TestEventEncoding(t *testing.T) {
	for _, e := range []Event{
		{Kind: EvVerdict, Index: 0x3ff, Seq: 0xfedcba98, End: 0x01234567, Len: 1460, Verdict: VException, Reason: 9},
		{Kind: EvDrop, Index: 5, Seq: 1, End: 2, Len: 3, Verdict: 3},
		{Kind: EvPlaced, Index: 1, Seq: 0x80000000, End: 0xcafe0001, Len: 65535, Ctrl: 0xc1},
		{Kind: EvDDPError, Index: 2, Seq: 7, End: 9, Len: 20, Ctrl: 0x41, DDPKind: 12, QN: 3},
	} {
		assert.Equal(t, e, Decode(e.Encode()), "%v", e)
	}
}

// The parser's class reaches the frame-record queue (two cycles: write,
// read) no later than the walker's summary, so the verdict's cycle does not
// depend on L_PARSE (section 5.2).
func TestParserBeforeWalker(t *testing.T) {
	for _, width := range []int{64, 128, 256, 512} {
		assert.LessOrEqual(t, LParse(width)+2, 4+LWalk(width), "w%d", width)
	}
}

// TestDefaultFIFODepth: mpa_rx's default FIFO_DEPTH is the smallest power
// of two holding two frames of MAX_FRAME octets at every width.
func TestDefaultFIFODepth(t *testing.T) {
	for _, width := range []int{64, 128, 256, 512} {
		for _, mf := range []int{MaxFrame, JumboFrame, 64, 9216} {
			d := DefaultFIFODepth(width, mf)
			assert.Zero(t, d&(d-1), "power of two at %d bits, %d octets", width, mf)
			assert.GreaterOrEqual(t, d*width/8, 2*mf, "two frames at %d bits, %d octets", width, mf)
			// each frame starts on a beat: two frames of mf octets take
			// twice ceil(mf / lanes) beats, more than half of d
			assert.Greater(t, 2*((mf+width/8-1)/(width/8)), d/2, "smallest at %d bits, %d octets", width, mf)
		}
	}
}

// Section 5.2: when a frame enters the verdict stage (its verdict is taken
// two cycles later). Summaries come in cycle Last + 4 + L_WALK; a frame
// waits a cycle behind a frame of the same matched slot in V1; a summary
// that cannot enter V0 at once, or finds one queued before it, comes out
// of the summary queue two cycles after it arrived at the earliest.
func TestVerdictTime(t *testing.T) {
	type fr struct {
		last    uint64
		matched bool
		slot    int
		v0      uint64 // want, as an offset from the first summary
	}
	for _, tt := range []struct {
		name   string
		frames []fr
	}{
		{"apart", []fr{{0, true, 1, 0}, {5, true, 1, 5}}},
		{"back to back, other slots", []fr{{0, true, 1, 0}, {1, true, 2, 1}, {2, true, 3, 2}}},
		{"back to back, one slot", []fr{{0, true, 1, 0}, {1, true, 1, 3}, {2, true, 1, 5}, {3, true, 2, 6}}},
		{"one slot, a cycle apart", []fr{{0, true, 1, 0}, {2, true, 1, 2}}},
		{"one slot, unmatched", []fr{{0, true, 1, 0}, {1, false, 1, 1}, {2, true, 1, 2}}},
		{"queue drains before the next summary", []fr{{0, true, 1, 0}, {1, true, 1, 3}, {4, true, 2, 4}}},
		{"queue busy: the next summary is queued", []fr{{0, true, 1, 0}, {1, true, 1, 3}, {3, true, 2, 5}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := New(Config{DataWidth: 64, ConnCount: 16})
			s0 := uint64(LWalk(64)) + 4
			for i, x := range tt.frames {
				f := &Frame{Last: x.last, matched: x.matched, slot: x.slot}
				m.verdictTime(f)
				assert.Equal(t, x.v0, f.v0-s0, "frame %d", i)
				assert.Equal(t, f.v0+2, f.Verdict, "frame %d", i)
			}
		})
	}
}

// E1 with two event lanes (256 and 512 bits, docs/design.md section 5.3):
// on the aligned vector with m_evt always ready, a PLACE frame of one FPDU
// takes three cycles in E1 (VERDICT beat with its record's lookup, check
// cycle, the record's beat) when E1 waited for it, two when its record was
// looked up with the beat before (frames queued for E1: cosim/rx's
// throughput runs); with one lane, its events, lookup and check cycles one
// after the other. Every beat holds one or two events in their order.
func TestE1Lanes(t *testing.T) {
	v, err := vector.Load(filepath.Join("..", "..", "vectors", "aligned"))
	require.NoError(t, err)
	for _, width := range []int{64, 128, 256, 512} {
		t.Run(fmt.Sprintf("w%d", width), func(t *testing.T) {
			opt := Options{Slots: 1024, STagCount: 256, RQDepth: 8, Lanes: width / 8, Seed: 1}
			bn := NewBench(opt, NewReady(NoStall, 1))
			m := New(Config{DataWidth: width, MaxFrame: JumboFrame, ConnCount: 1024, RQDepth: 8, Window: v.Setup.Receiver.Window, DDPVersion: v.Setup.Receiver.DDPVersion})
			spans := map[uint64]int{}
			m.Done = func(f *Frame) {
				if f.Result.Verdict == fastpath.Place && f.Records == 1 {
					spans[f.E1End-f.E1Start+1]++
				}
			}
			lanes := EvtLanes(width)
			check := func(out Out) {
				if !out.EvtValid {
					return
				}
				require.GreaterOrEqual(t, out.EvtKeep, 1)
				require.LessOrEqual(t, out.EvtKeep, lanes)
				evs := out.Events()
				if evs[0].Kind == EvVerdict && len(evs) == 2 {
					assert.Contains(t, []int{EvDrop, EvAdvanced, EvConsumed}, evs[1].Kind)
				}
				if k := evs[0].Kind; (k == EvPlaced || k == EvDDPError) && len(evs) == 2 {
					assert.Equal(t, EvDelivered, evs[1].Kind)
				}
			}
			_, err := bn.Run(workload(t, v, opt), &ModelDUT{M: m, Bench: bn, Check: check})
			require.NoError(t, err)
			t.Logf("E1 cycles of one-FPDU PLACE frames: %v", spans)
			require.NotEmpty(t, spans)
			for n := range spans {
				if EvtLanes(width) == 1 {
					assert.Contains(t, []uint64{5, 6}, n, "VERDICT, ADVANCED, lookup, check, PLACED (, DELIVERED)")
				} else {
					assert.Contains(t, []uint64{2, 3}, n)
				}
			}
		})
	}
}
