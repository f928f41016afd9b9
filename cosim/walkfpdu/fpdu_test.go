// Package walkfpdu checks rtl/mpa_rx_walk_fpdu.v, the FPDU slots that feed
// the crc32c engines and check markers, in co-simulation: it is given each
// beat's ranks as mpa_rx_walk_step's header contract defines them
// (walkref.Frame.StepAt, from golden/mpa's framing; the ranks past
// wk_ndec random), and every beat's engine inputs and check flags, 2
// cycles later, are checked against walkref.Frame.SlotBeats: each FPDU's
// words in its slot, its end, and its marker check by
// mpa.Half.DeframeForm.
package walkfpdu

import (
	"flag"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim/internal/walkref"
)

var (
	seedFlag = flag.Uint64("seed", 20261104, "seed of the random stimulus")
	frames   = flag.Int("frames", 3000, "random frames per width")
)

// Widths are the DATA_WIDTH values built as co-simulation variants.
var Widths = []int{64, 256, 512}

// Latency is the module's latency in cycles.
const Latency = 2

type want struct {
	data  []uint32
	slots []walkref.SlotBeat
}

type bench struct {
	*walkref.Bench
	g     walkref.Geom
	gen   *walkref.Gen
	p     map[string]walkref.Port
	exp   walkref.Due[want]
	slot  int // slot of the next FPDU
	fpdus int
	multi int // beats where two slots or more end an FPDU
	chk   int
	bad   int // checked FPDUs with a marker error
	form  [2]int
}

func newBench(t *testing.T, width int, seed uint64) *bench {
	g := walkref.NewGeom(width)
	b := &bench{Bench: walkref.NewBench(t, fmt.Sprintf("mpa_rx_walk_fpdu_w%d", width)), g: g, gen: walkref.NewGen(seed, g)}
	b.p = b.Ports("wk_valid", "wk_last", "wk_data", "wk_pmask", "wk_B", "wk_Bn", "wk_con", "wk_ndec", "wk_ros",
		"wk_rE", "wk_rsmall", "wk_carried", "wk_pend", "wk_mkany", "wk_om", "wk_ptr",
		"m_axis_tdata", "m_axis_tkeep", "m_axis_tvalid", "m_axis_tlast", "sl_chk", "sl_mkerr", "sl_rfc", "sl_draft")
	b.Check = b.check
	return b
}

// send applies a frame's beats, idle cycles before each with probability
// gapProb.
func (b *bench) send(f walkref.Frame, gapProb float64) {
	g, rng, p := b.g, b.gen.Rng, b.p
	walk := f.Walk()
	slots, next := f.SlotBeats(g, walk, b.slot)
	b.slot = next
	b.fpdus += len(f.Opened(g, walk))
	for i := 0; i < f.Beats(g); i++ {
		if rng.Float64() < gapProb {
			b.Idle(1 + rng.IntN(3))
		}
		bt, st := f.BeatAt(g, i), f.StepAt(g, walk, i)
		b.exp.Add(b.Cycle()+Latency, want{data: bt.Data, slots: slots[i]})
		r := b.Next()
		walkref.PutBeat(r, p, "wk_", g, bt)
		p["wk_con"].PutBool(r, 0, f.CRC)
		p["wk_ndec"].Put(r, 0, 3, uint64(len(st.Ranks)))
		p["wk_carried"].PutBool(r, 0, st.Carried)
		p["wk_pend"].PutBool(r, 0, st.Pend)
		p["wk_mkany"].PutBool(r, 0, st.MkAny)
		// don't care fields random: the ranks past wk_ndec, the marker
		// when there is none
		p["wk_om"].Put(r, 0, g.LW, uint64(rng.IntN(g.WPB)))
		p["wk_ptr"].Put(r, 0, 14, rng.Uint64())
		if st.MkAny {
			p["wk_om"].Put(r, 0, g.LW, uint64(st.Om))
			p["wk_ptr"].Put(r, 0, 14, uint64(st.Ptr))
		}
		for k := 0; k < g.KMAX; k++ {
			rk := walkref.Rank{OS: rng.IntN(g.WPB), E: uint16(rng.Uint32()), Small: rng.IntN(2) == 0}
			if k < len(st.Ranks) {
				rk = st.Ranks[k]
			}
			p["wk_ros"].Put(r, k*g.LW, g.LW, uint64(rk.OS))
			p["wk_rE"].Put(r, 16*k, 16, uint64(rk.E))
			p["wk_rsmall"].PutBool(r, k, rk.Small)
		}
	}
}

func (b *bench) check(cycle uint64, _, out []uint64) {
	g := b.g
	o := func(name string, lo, n int) uint64 { return b.p[name].Get(out, lo, n) }
	w, ok := b.exp.Take(cycle)
	if ok {
		for j, x := range w.data {
			if got := uint32(o("m_axis_tdata", 32*j, 32)); got != x {
				b.Fail(cycle, "tdata word %d = %#x, want %#x", j, got, x)
			}
		}
	} else {
		w.slots = make([]walkref.SlotBeat, g.NCRC)
	}
	ends := 0
	for k, sb := range w.slots {
		var keep uint64
		for j := 0; j < g.WPB; j++ {
			if o("m_axis_tkeep", k*4*g.WPB+4*j, 4) == 0xf {
				keep |= 1 << j
			}
		}
		got := walkref.SlotBeat{
			Valid: o("m_axis_tvalid", k, 1) != 0,
			Keep:  keep,
			Chk:   o("sl_chk", k, 1) != 0,
			MkErr: o("sl_mkerr", k, 1) != 0,
			RFC:   o("sl_rfc", k, 1) != 0,
			Draft: o("sl_draft", k, 1) != 0,
		}
		if got.Valid {
			got.Last = o("m_axis_tlast", k, 1) != 0
		}
		if got != sb {
			b.Fail(cycle, "slot %d:\n got  %+v\n want %+v", k, got, sb)
		}
		if sb.Last {
			ends++
		}
		if sb.Chk {
			b.chk++
		}
		if sb.MkErr {
			b.bad++
		}
		if sb.RFC {
			b.form[0]++
		}
		if sb.Draft {
			b.form[1]++
		}
	}
	if ends > 1 {
		b.multi++
	}
}

// TestRandomFrames sends random frames, back to back and with idle cycles.
func TestRandomFrames(t *testing.T) {
	walkref.EachWidth(t, Widths, func(t *testing.T, w int) {
		b := newBench(t, w, *seedFlag+uint64(w))
		b.SendFrames(b.gen, *frames, func(f walkref.Frame) { b.send(f, 0.1) })
		b.Idle(Latency + 2)
		b.Run()
		require.Zero(t, b.exp.Len())
		t.Logf("%s: %d FPDUs, beats where several end %d; checked with CRC %d, marker errors %d, RFC 5044 %d, draft-01 %d",
			b.Variant, b.fpdus, b.multi, b.chk, b.bad, b.form[0], b.form[1])
		require.NotZero(t, b.bad)
		require.NotZero(t, b.form[0])
		require.NotZero(t, b.form[1])
		if g := b.g; g.KMAX > 1 {
			require.NotZero(t, b.multi)
		}
	})
}
