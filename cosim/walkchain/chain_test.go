// Package walkchain checks rtl/mpa_rx_walk_chain.v, the chains of
// ULPDU_Length words of a beat, in co-simulation: every cycle's chains,
// 1 + DSPLIT cycles later, against walkref.Chains (the header contract),
// for the beats of MPA stream frames (per-word ends from golden/mpa) and
// for random per-word ends.
package walkchain

import (
	"flag"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim/internal/walkref"
)

var (
	seedFlag = flag.Uint64("seed", 20261102, "seed of the random stimulus")
	frames   = flag.Int("frames", 1500, "random frames per width")
	randoms  = flag.Int("random", 30000, "random beats per width")
)

// Widths are the DATA_WIDTH values built as co-simulation variants.
var Widths = []int{64, 256, 512}

type bench struct {
	*walkref.Bench
	g    walkref.Geom
	gen  *walkref.Gen
	p    map[string]walkref.Port
	exp  walkref.Due[walkref.Beat]
	ends [3]int // chains by how they end
	long int    // chains of KMAX visits
}

func newBench(t *testing.T, width int, seed uint64) *bench {
	g := walkref.NewGeom(width)
	b := &bench{Bench: walkref.NewBench(t, fmt.Sprintf("mpa_rx_walk_chain_w%d", width)), g: g, gen: walkref.NewGen(seed, g)}
	b.p = b.Ports("fe_B", "fe_data", "fe_Bn", "fe_pmask", "fe_nL", "fe_E", "fe_small",
		"ch_cnt", "ch_pos", "ch_end", "ch_exL", "ch_exS", "ch_pendx", "ch_anyl", "ch_exLn", "ch_exSn")
	b.Check = b.check
	return b
}

// send applies a beat in the next cycle.
func (b *bench) send(bt walkref.Beat) {
	b.exp.Add(b.Cycle()+1+uint64(b.g.DSPLIT), bt)
	r := b.Next()
	b.p["fe_B"].Put(r, 0, 16, uint64(bt.B))
	b.p["fe_Bn"].Put(r, 0, 16-b.g.LW, uint64(bt.Bn))
	b.p["fe_data"].PutWords(r, bt.Data)
	b.p["fe_pmask"].Put(r, 0, b.g.WPB, bt.PMask)
	for j, w := range bt.Words {
		b.p["fe_nL"].Put(r, 16*j, 16, uint64(w.NL))
		b.p["fe_E"].Put(r, 16*j, 16, uint64(w.E))
		b.p["fe_small"].PutBool(r, j, w.Small)
	}
}

func (b *bench) check(cycle uint64, _, out []uint64) {
	bt, ok := b.exp.Take(cycle)
	if !ok {
		return
	}
	g := b.g
	for e, c := range walkref.Chains(g, bt) {
		o := func(name string, lo, n int) uint64 { return b.p[name].Get(out, lo, n) }
		got := walkref.Chain{
			Cnt:   int(o("ch_cnt", 3*e, 3)),
			End:   int(o("ch_end", 2*e, 2)),
			AnyL:  o("ch_anyl", e, 1) != 0,
			ExL:   uint16(o("ch_exL", 16*e, 16)),
			ExS:   uint16(o("ch_exS", 16*e, 16)),
			ExLn:  o("ch_exLn", e, 1) != 0,
			ExSn:  o("ch_exSn", e, 1) != 0,
			PendX: o("ch_pendx", e, 1) != 0,
		}
		for k := 0; k < g.KMAX; k++ {
			got.Pos = append(got.Pos, int(o("ch_pos", (e*g.KMAX+k)*g.LW, g.LW)))
		}
		if fmt.Sprint(got) != fmt.Sprint(c) {
			b.Fail(cycle, "beat B %d pmask %#x entry %d:\n got  %+v\n want %+v", bt.B, bt.PMask, e, got, c)
		}
		b.ends[c.End]++
		if c.Cnt == g.KMAX {
			b.long++
		}
	}
}

// randomBeat is a beat of random per-word ends: each word's next
// ULPDU_Length word and end in this beat (often), the next beat or
// anywhere, payload runs and small flags at random.
func (b *bench) randomBeat() walkref.Beat {
	g, rng := b.g, b.gen.Rng
	base := rng.IntN(1 << 16)
	bt := walkref.Beat{B: uint16(base &^ (g.WPB - 1)), Data: make([]uint32, g.WPB), Words: make([]walkref.Word, g.WPB)}
	bt.Bn = (bt.B>>g.LW + 1) & (1<<(16-g.LW) - 1)
	lo, hi := rng.IntN(g.WPB), rng.IntN(g.WPB)
	for j := range bt.Words {
		bt.Data[j] = rng.Uint32()
		if (j >= lo && j <= hi) || rng.IntN(8) == 0 {
			bt.PMask |= 1 << j
		}
		pos := func() uint16 {
			switch rng.IntN(4) {
			case 0, 1:
				return bt.B + uint16(rng.IntN(g.WPB))
			case 2:
				return bt.B + uint16(g.WPB+rng.IntN(g.WPB))
			}
			return uint16(rng.IntN(1 << 16))
		}
		w := &bt.Words[j]
		w.E = pos()
		w.NL = w.E
		if rng.IntN(4) == 0 {
			w.NL++
		}
		w.Small = rng.IntN(6) == 0
	}
	return bt
}

// TestFrames sends the beats of MPA stream frames, back to back.
func TestFrames(t *testing.T) {
	walkref.EachWidth(t, Widths, func(t *testing.T, w int) {
		b := newBench(t, w, *seedFlag+uint64(w))
		b.SendFrames(b.gen, *frames, func(f walkref.Frame) {
			for i := 0; i < f.Beats(b.g); i++ {
				b.send(f.BeatAt(b.g, i))
			}
		})
		b.Idle(3)
		b.Run()
		require.Zero(t, b.exp.Len())
		t.Logf("%s: chains ending CONT %d NONPAY %d SMALL %d; of KMAX visits %d", b.Variant, b.ends[0], b.ends[1], b.ends[2], b.long)
		require.NotZero(t, b.ends[walkref.EndSmall])
		if b.g.KMAX > 1 {
			require.NotZero(t, b.long)
		}
	})
}

// TestRandom sends beats of random per-word ends, including chains that
// stay in the beat for more than KMAX visits.
func TestRandom(t *testing.T) {
	walkref.EachWidth(t, Widths, func(t *testing.T, w int) {
		b := newBench(t, w, *seedFlag+100+uint64(w))
		for i := 0; i < *randoms; i++ {
			b.send(b.randomBeat())
		}
		b.Idle(3)
		b.Run()
		require.Zero(t, b.exp.Len())
		t.Logf("%s: chains ending CONT %d NONPAY %d SMALL %d; of KMAX visits %d", b.Variant, b.ends[0], b.ends[1], b.ends[2], b.long)
		require.NotZero(t, b.long)
	})
}
