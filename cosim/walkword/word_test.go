// Package walkword checks rtl/mpa_rx_walk_word.v, the FPDU walker's
// per-word decode, in co-simulation: every beat's outputs, 4 cycles after
// it went in, against walkref's Frame.BeatAt (golden/mpa's framing of an
// FPDU as if each word held a ULPDU_Length).
package walkword

import (
	"flag"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim/internal/walkref"
	"github.com/mparx/mparx/golden/mpa"
)

var (
	seedFlag = flag.Uint64("seed", 20261101, "seed of the random stimulus")
	frames   = flag.Int("frames", 3000, "random frames per width")
)

// Widths are the DATA_WIDTH values built as co-simulation variants.
var Widths = []int{64, 512}

// Latency is the module's latency in cycles.
const Latency = 4

type bench struct {
	*walkref.Bench
	g    walkref.Geom
	gen  *walkref.Gen
	p    map[string]walkref.Port
	exp  walkref.Due[walkref.Beat]
	seen int
	paid int // beats whose per-word outputs were compared
}

func newBench(t *testing.T, width int, seed uint64) *bench {
	g := walkref.NewGeom(width)
	b := &bench{Bench: walkref.NewBench(t, fmt.Sprintf("mpa_rx_walk_word_w%d", width)), g: g, gen: walkref.NewGen(seed, g)}
	b.p = b.Ports("seg_seq", "seq_start", "markers_on", "crc_on", "w_valid", "w_data", "w_pmask", "w_last",
		"fe_valid", "fe_first", "fe_last", "fe_pfirst", "fe_data", "fe_pmask", "fe_B", "fe_Bn", "fe_con",
		"fe_grid", "fe_mkP0", "fe_P0", "fe_nL0", "fe_hit0", "fe_nL0n", "fe_Pendx", "fe_E", "fe_nL",
		"fe_small", "fe_fm", "fe_mk", "fe_mkprev", "fe_hs")
	b.Check = b.check
	return b
}

// send queues a frame's beats, with idle cycles before each with
// probability gapProb, and what each must produce.
func (b *bench) send(f walkref.Frame, gapProb float64) {
	for i := 0; i < f.Beats(b.g); i++ {
		if b.gen.Rng.Float64() < gapProb {
			b.Idle(1 + b.gen.Rng.IntN(3))
		}
		bt := f.BeatAt(b.g, i)
		b.exp.Add(b.Cycle()+Latency, bt)
		r := b.Next()
		b.p["seg_seq"].Put(r, 0, 32, uint64(f.SegSeq))
		b.p["seq_start"].Put(r, 0, 32, uint64(f.SeqStart))
		b.p["markers_on"].PutBool(r, 0, f.Markers)
		b.p["crc_on"].PutBool(r, 0, f.CRC)
		b.p["w_valid"].PutBool(r, 0, true)
		b.p["w_data"].PutWords(r, bt.Data)
		b.p["w_pmask"].Put(r, 0, b.g.WPB, bt.PMask)
		b.p["w_last"].PutBool(r, 0, bt.Last)
	}
}

func (b *bench) check(cycle uint64, _, out []uint64) {
	o := func(name string, lo, n int) uint64 { return b.p[name].Get(out, lo, n) }
	bt, ok := b.exp.Take(cycle)
	if valid := o("fe_valid", 0, 1) != 0; valid != ok {
		b.Fail(cycle, "fe_valid %v, want %v", valid, ok)
	}
	if !ok {
		return
	}
	g, B := b.g, walkref.B
	fields := []walkref.Field{
		walkref.F("first", o("fe_first", 0, 1), B(bt.First)),
		walkref.F("last", o("fe_last", 0, 1), B(bt.Last)),
		walkref.F("pfirst", o("fe_pfirst", 0, 1), B(bt.PFirst)),
		walkref.F("pmask", o("fe_pmask", 0, g.WPB), bt.PMask),
		walkref.F("B", o("fe_B", 0, 16), uint64(bt.B)),
		walkref.F("Bn", o("fe_Bn", 0, 16-g.LW), uint64(bt.Bn)),
		walkref.F("con", o("fe_con", 0, 1), B(bt.Con)),
		walkref.F("grid", o("fe_grid", 0, 1), B(bt.Grid)),
		walkref.F("mkP0", o("fe_mkP0", 0, 1), B(bt.MkP0)),
		walkref.F("P0", o("fe_P0", 0, 16), uint64(bt.P0)),
		walkref.F("nL0", o("fe_nL0", 0, 16), uint64(bt.NL0)),
		walkref.F("hit0", o("fe_hit0", 0, 1), B(bt.Hit0)),
		walkref.F("nL0n", o("fe_nL0n", 0, 1), B(bt.NL0n)),
		walkref.F("Pendx", o("fe_Pendx", 0, 16), uint64(bt.Pendx)),
	}
	for j, x := range bt.Data {
		fields = append(fields, walkref.F(fmt.Sprintf("data[%d]", j), o("fe_data", 32*j, 32), uint64(x)))
	}
	for j, wd := range bt.Words {
		fields = append(fields, walkref.F(fmt.Sprintf("small[%d]", j), o("fe_small", j, 1), B(wd.Small)))
		if !bt.Paid {
			continue // the grid phase is not known before the payload
		}
		fields = append(fields,
			walkref.F(fmt.Sprintf("E[%d]", j), o("fe_E", 16*j, 16), uint64(wd.E)),
			walkref.F(fmt.Sprintf("nL[%d]", j), o("fe_nL", 16*j, 16), uint64(wd.NL)),
			walkref.F(fmt.Sprintf("fm[%d]", j), o("fe_fm", j, 1), B(wd.FM)),
			walkref.F(fmt.Sprintf("mk[%d]", j), o("fe_mk", j, 1), B(wd.MK)),
			walkref.F(fmt.Sprintf("mkprev[%d]", j), o("fe_mkprev", j, 1), B(wd.MKPre)),
			walkref.F(fmt.Sprintf("hs[%d]", j), o("fe_hs", 3*j, 3), uint64(wd.HS)),
		)
	}
	b.Compare(cycle, fmt.Sprintf("beat %d (B %d, pmask %#x)", b.seen, bt.B, bt.PMask), fields)
	if bt.Paid {
		b.paid++
	}
	b.seen++
}

func (b *bench) drain() {
	b.Idle(Latency + 2)
	b.Run()
	require.Zero(b.T(), b.exp.Len())
}

// TestRandomFrames sends random frames of MPA streams, back to back and
// with idle cycles between and within them.
func TestRandomFrames(t *testing.T) {
	walkref.EachWidth(t, Widths, func(t *testing.T, w int) {
		b := newBench(t, w, *seedFlag+uint64(w))
		b.SendFrames(b.gen, *frames, func(f walkref.Frame) { b.send(f, 0.1) })
		b.drain()
		t.Logf("%s: %d beats, %d with the grid phase known", b.Variant, b.seen, b.paid)
		require.NotZero(t, b.paid)
	})
}

// TestMarkerPhases puts a marker position at every word lane of a beat,
// and the payload's first word at every lane, with random words (so every
// would-be ULPDU_Length, large ones included, is decoded) and seq_start
// off the word grid too.
func TestMarkerPhases(t *testing.T) {
	walkref.EachWidth(t, Widths, func(t *testing.T, w int) {
		b := newBench(t, w, *seedFlag+100+uint64(w))
		wpb := b.g.WPB
		for lane := 0; lane < wpb; lane++ {
			for p0 := 0; p0 < wpb; p0++ {
				for _, skew := range []uint32{0, 1, 2, 3} {
					// payload word k is k + lane - p0 words (mod 128)
					// past a marker position
					seq := b.gen.Rng.Uint32()
					h := mpa.Half{Markers: true, CRC: true, SeqStart: seq - 4*uint32((p0-lane+128*8)%128) - skew}
					pay := make([]byte, 4*(128+3*wpb))
					for i := range pay {
						pay[i] = byte(b.gen.Rng.Uint32())
					}
					f := b.gen.FrameAt(h, seq, pay, wpb*2+p0)
					b.send(f, 0)
				}
			}
		}
		b.drain()
	})
}
