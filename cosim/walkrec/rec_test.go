// Package walkrec checks rtl/mpa_rx_walk_rec.v, the record slots, in
// co-simulation: it is given each beat's ranks as mpa_rx_walk_step's
// header contract defines them (walkref.Frame.StepAt, from golden/mpa's
// framing; the ranks past wk_ndec random), and 2 cycles later the records
// that leave with the beat (sl_npush, their slots' contents and sl_lastf)
// are checked against the frame's records by golden/mpa
// (walkref.Frame.Walk) and the leaving rule of the header
// (walkref.Frame.Leaves).
package walkrec

import (
	"flag"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim/internal/walkref"
)

var (
	seedFlag = flag.Uint64("seed", 20261105, "seed of the random stimulus")
	frames   = flag.Int("frames", 3000, "random frames per width")
)

// Widths are the DATA_WIDTH values built as co-simulation variants.
var Widths = []int{64, 256, 512}

// Latency is the module's latency in cycles.
const Latency = 2

type bench struct {
	*walkref.Bench
	g       walkref.Geom
	gen     *walkref.Gen
	p       map[string]walkref.Port
	exp     walkref.Due[[]walkref.Record]
	next    int // record slot of the next record to leave
	records int
	multi   int // beats where several records leave
	late    int // records that leave in a later beat than their ULPDU_Length word's
}

func newBench(t *testing.T, width int, seed uint64) *bench {
	g := walkref.NewGeom(width)
	b := &bench{Bench: walkref.NewBench(t, fmt.Sprintf("mpa_rx_walk_rec_w%d", width)), g: g, gen: walkref.NewGen(seed, g)}
	b.p = b.Ports("wk_valid", "wk_last", "wk_data", "wk_pmask", "wk_B", "wk_Bn", "wk_ndec", "wk_rpos", "wk_rword",
		"wk_rfirst", "wk_rhs", "wk_P0", "wk_stop",
		"sl_valid", "sl_npush", "sl_lastf", "rs_lseq", "rs_word", "rs_hdr", "rs_first")
	b.Check = b.check
	return b
}

// send applies a frame's beats, idle cycles before each with probability
// gapProb.
func (b *bench) send(f walkref.Frame, gapProb float64) {
	g, rng, p := b.g, b.gen.Rng, b.p
	walk := f.Walk()
	leaves := f.Leaves(g, walk)
	for i := 0; i < f.Beats(g); i++ {
		if rng.Float64() < gapProb {
			b.Idle(1 + rng.IntN(3))
		}
		bt, st := f.BeatAt(g, i), f.StepAt(g, walk, i)
		var recs []walkref.Record
		for _, x := range leaves[i] {
			recs = append(recs, walk[x].Rec)
			if walk[x].L/g.WPB != i {
				b.late++
			}
		}
		b.exp.Add(b.Cycle()+Latency, recs)
		r := b.Next()
		walkref.PutBeat(r, p, "wk_", g, bt)
		p["wk_ndec"].Put(r, 0, 3, uint64(len(st.Ranks)))
		p["wk_P0"].Put(r, 0, 16, uint64(st.P0))
		p["wk_stop"].PutBool(r, 0, st.Stop)
		for k := 0; k < g.KMAX; k++ {
			// the ranks past wk_ndec are don't care: random
			rk := walkref.Rank{Pos: rng.IntN(g.WPB), Word: rng.Uint32(), First: rng.IntN(2) == 0, HS: rng.IntN(5)}
			if k < len(st.Ranks) {
				rk = st.Ranks[k]
			}
			p["wk_rpos"].Put(r, k*g.LW, g.LW, uint64(rk.Pos))
			p["wk_rword"].Put(r, 32*k, 32, uint64(rk.Word))
			p["wk_rfirst"].PutBool(r, k, rk.First)
			p["wk_rhs"].Put(r, 3*k, 3, uint64(rk.HS))
		}
	}
}

func (b *bench) check(cycle uint64, _, out []uint64) {
	g := b.g
	o := func(name string, lo, n int) uint64 { return b.p[name].Get(out, lo, n) }
	recs, ok := b.exp.Take(cycle)
	if valid := o("sl_valid", 0, 1) != 0; valid != ok {
		b.Fail(cycle, "sl_valid %v, want %v", valid, ok)
	}
	if !ok {
		return
	}
	if n := int(o("sl_npush", 0, 3)); n != len(recs) {
		b.Fail(cycle, "sl_npush %d, want %d", n, len(recs))
	}
	for i, want := range recs {
		s := (b.next + i) % g.NREC
		got := walkref.Record{
			LseqW: uint16(o("rs_lseq", 16*s, 16)),
			Word:  uint32(o("rs_word", 32*s, 32)),
			First: o("rs_first", s, 1) != 0,
			Last:  o("sl_lastf", s, 1) != 0,
		}
		for k := range got.Hdr {
			got.Hdr[k] = uint32(o("rs_hdr", 128*s+96-32*k, 32))
		}
		if got != want {
			b.Fail(cycle, "record %d (slot %d):\n got  %+v\n want %+v", b.records+i, s, got, want)
		}
	}
	b.next = (b.next + len(recs)) % g.NREC
	b.records += len(recs)
	if len(recs) > 1 {
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
		t.Logf("%s: %d records, beats where several leave %d, records leaving after their beat %d", b.Variant, b.records, b.multi, b.late)
		require.NotZero(t, b.multi)
		require.NotZero(t, b.late)
	})
}
