// Package walkstep checks rtl/mpa_rx_walk_step.v, the walk across beats,
// in co-simulation: it is given each beat's per-word decode and chains as
// the header contracts of mpa_rx_walk_word and mpa_rx_walk_chain define
// them (walkref), and every beat's ranks and frame flags, a cycle later,
// are checked against the frame's walk by golden/mpa (walkref.Frame.Walk
// and StepAt).
package walkstep

import (
	"flag"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim/internal/walkref"
	"github.com/mparx/mparx/golden/mpa"
)

var (
	seedFlag = flag.Uint64("seed", 20261103, "seed of the random stimulus")
	frames   = flag.Int("frames", 3000, "random frames per width")
)

// Widths are the DATA_WIDTH values built as co-simulation variants.
var Widths = []int{64, 512}

type want struct {
	st    walkref.Step
	frame int
}

type bench struct {
	*walkref.Bench
	g      walkref.Geom
	gen    *walkref.Gen
	p      map[string]walkref.Port
	exp    walkref.Due[want]
	frames int
	ranks  int
	multi  int // beats of two ranks or more
	carry  int
	pend   int
}

func newBench(t *testing.T, width int, seed uint64) *bench {
	g := walkref.NewGeom(width)
	b := &bench{Bench: walkref.NewBench(t, fmt.Sprintf("mpa_rx_walk_step_w%d", width)), g: g, gen: walkref.NewGen(seed, g)}
	b.p = b.Ports("ch_valid", "ch_first", "ch_pfirst", "ch_data", "ch_pmask", "ch_Bn", "ch_mkP0", "ch_P0",
		"ch_nL0", "ch_hit0", "ch_nL0n", "ch_Pendx", "ch_E", "ch_small", "ch_fm", "ch_mk", "ch_mkprev", "ch_hs",
		"ch_cnt", "ch_pos", "ch_end", "ch_exL", "ch_exS", "ch_pendx", "ch_anyl", "ch_exLn", "ch_exSn",
		"wk_ndec", "wk_rpos", "wk_ros", "wk_rE", "wk_rword", "wk_rsmall", "wk_rfirst", "wk_rhs", "wk_carried",
		"wk_pend", "wk_mkany", "wk_om", "wk_ptr", "wk_P0", "wk_nS", "wk_Pend", "wk_stop", "wk_fm", "wk_anyl", "wk_nrec")
	b.Check = b.check
	return b
}

// send applies a frame's beats, idle cycles before each with probability
// gapProb.
func (b *bench) send(f walkref.Frame, gapProb float64) {
	g := b.g
	walk := f.Walk()
	for i := 0; i < f.Beats(g); i++ {
		if b.gen.Rng.Float64() < gapProb {
			b.Idle(1 + b.gen.Rng.IntN(3))
		}
		bt := f.BeatAt(g, i)
		b.exp.Add(b.Cycle()+1, want{st: f.StepAt(g, walk, i), frame: b.frames})
		r := b.Next()
		p := b.p
		p["ch_valid"].PutBool(r, 0, true)
		p["ch_first"].PutBool(r, 0, bt.First)
		p["ch_pfirst"].PutBool(r, 0, bt.PFirst)
		p["ch_data"].PutWords(r, bt.Data)
		p["ch_pmask"].Put(r, 0, g.WPB, bt.PMask)
		p["ch_Bn"].Put(r, 0, 16-g.LW, uint64(bt.Bn))
		p["ch_mkP0"].PutBool(r, 0, bt.MkP0)
		p["ch_P0"].Put(r, 0, 16, uint64(bt.P0))
		p["ch_nL0"].Put(r, 0, 16, uint64(bt.NL0))
		p["ch_hit0"].PutBool(r, 0, bt.Hit0)
		p["ch_nL0n"].PutBool(r, 0, bt.NL0n)
		p["ch_Pendx"].Put(r, 0, 16, uint64(bt.Pendx))
		for j, w := range bt.Words {
			p["ch_E"].Put(r, 16*j, 16, uint64(w.E))
			p["ch_small"].PutBool(r, j, w.Small)
			p["ch_fm"].PutBool(r, j, w.FM)
			p["ch_mk"].PutBool(r, j, w.MK)
			p["ch_mkprev"].PutBool(r, j, w.MKPre)
			p["ch_hs"].Put(r, 3*j, 3, uint64(w.HS))
		}
		for e, c := range walkref.Chains(g, bt) {
			p["ch_cnt"].Put(r, 3*e, 3, uint64(c.Cnt))
			for k, v := range c.Pos {
				p["ch_pos"].Put(r, (e*g.KMAX+k)*g.LW, g.LW, uint64(v))
			}
			p["ch_end"].Put(r, 2*e, 2, uint64(c.End))
			p["ch_exL"].Put(r, 16*e, 16, uint64(c.ExL))
			p["ch_exS"].Put(r, 16*e, 16, uint64(c.ExS))
			p["ch_pendx"].PutBool(r, e, c.PendX)
			p["ch_anyl"].PutBool(r, e, c.AnyL)
			p["ch_exLn"].PutBool(r, e, c.ExLn)
			p["ch_exSn"].PutBool(r, e, c.ExSn)
		}
	}
	b.frames++
}

func (b *bench) check(cycle uint64, _, out []uint64) {
	w, ok := b.exp.Take(cycle)
	if !ok {
		return
	}
	st, g := w.st, b.g
	o := func(name string, lo, n int) uint64 { return b.p[name].Get(out, lo, n) }
	B := walkref.B
	fields := []walkref.Field{
		walkref.F("ndec", o("wk_ndec", 0, 3), uint64(len(st.Ranks))),
		walkref.F("carried", o("wk_carried", 0, 1), B(st.Carried)),
		walkref.F("pend", o("wk_pend", 0, 1), B(st.Pend)),
		walkref.F("mkany", o("wk_mkany", 0, 1), B(st.MkAny)),
		walkref.F("Pend", o("wk_Pend", 0, 16), uint64(st.Pend16)),
		walkref.F("stop", o("wk_stop", 0, 1), B(st.Stop)),
		walkref.F("fm", o("wk_fm", 0, 1), B(st.FM)),
		walkref.F("anyl", o("wk_anyl", 0, 1), B(st.AnyL)),
		walkref.F("nrec", o("wk_nrec", 0, 16), uint64(st.NRec)),
	}
	if st.MkAny {
		fields = append(fields, walkref.F("om", o("wk_om", 0, g.LW), uint64(st.Om)), walkref.F("ptr", o("wk_ptr", 0, 14), uint64(st.Ptr)))
	}
	if st.P0Known {
		fields = append(fields, walkref.F("P0", o("wk_P0", 0, 16), uint64(st.P0)))
	}
	if st.NSKnown {
		fields = append(fields, walkref.F("nS", o("wk_nS", 0, 16), uint64(st.NS)))
	}
	for i, rk := range st.Ranks {
		fields = append(fields,
			walkref.F(fmt.Sprintf("rpos[%d]", i), o("wk_rpos", i*g.LW, g.LW), uint64(rk.Pos)),
			walkref.F(fmt.Sprintf("ros[%d]", i), o("wk_ros", i*g.LW, g.LW), uint64(rk.OS)),
			walkref.F(fmt.Sprintf("rE[%d]", i), o("wk_rE", 16*i, 16), uint64(rk.E)),
			walkref.F(fmt.Sprintf("rword[%d]", i), o("wk_rword", 32*i, 32), uint64(rk.Word)),
			walkref.F(fmt.Sprintf("rsmall[%d]", i), o("wk_rsmall", i, 1), B(rk.Small)),
			walkref.F(fmt.Sprintf("rfirst[%d]", i), o("wk_rfirst", i, 1), B(rk.First)),
			walkref.F(fmt.Sprintf("rhs[%d]", i), o("wk_rhs", 3*i, 3), uint64(rk.HS)),
		)
	}
	b.Compare(cycle, fmt.Sprintf("frame %d (step %+v)", w.frame, st), fields)
	b.ranks += len(st.Ranks)
	if len(st.Ranks) > 1 {
		b.multi++
	}
	if st.Carried {
		b.carry++
	}
	if st.Pend {
		b.pend++
	}
}

func (b *bench) drain() {
	b.Idle(3)
	b.Run()
	require.Zero(b.T(), b.exp.Len())
	b.T().Logf("%s: %d frames, %d records; beats with >= 2 records %d, carried %d, pend %d", b.Variant, b.frames, b.ranks, b.multi, b.carry, b.pend)
}

// TestRandomFrames sends random frames, back to back and with idle cycles.
func TestRandomFrames(t *testing.T) {
	walkref.EachWidth(t, Widths, func(t *testing.T, w int) {
		b := newBench(t, w, *seedFlag+uint64(w))
		b.SendFrames(b.gen, *frames, func(f walkref.Frame) { b.send(f, 0.1) })
		b.drain()
		require.NotZero(t, b.carry)
		require.NotZero(t, b.pend)
		if b.g.KMAX > 1 {
			require.NotZero(t, b.multi)
		}
	})
}

// TestLeadingMarkers sends streams whose FPDUs all start with a marker
// (502-octet ULPDUs), at every word lane of the payload's first word, so
// that FPDUs start with a marker in every word of a beat, the last one
// included (wk_pend, then wk_carried).
func TestLeadingMarkers(t *testing.T) {
	walkref.EachWidth(t, Widths, func(t *testing.T, w int) {
		b := newBench(t, w, *seedFlag+100+uint64(w))
		for lane := 0; lane < b.g.WPB; lane++ {
			for i := 0; i < 4; i++ {
				h := b.gen.Half()
				h.Markers = true
				st := mpa.NewStream(h)
				for k := 0; k < 12; k++ {
					st.Add(b.gen.ULPDU([]int{502, 502, 1010, 14}[b.gen.Rng.IntN(4)]))
				}
				b.send(b.gen.FrameAt(h, h.SeqStart, st.Data, 16+lane), 0)
			}
		}
		b.drain()
		require.NotZero(t, b.pend)
	})
}
