// Package walksum checks rtl/mpa_rx_walk_sum.v, the walker's frame
// summary, in co-simulation: random frames of beats with random frame
// flags, marker results, store results and CRC engine results, each at
// the cycle the header gives it, and every summary against totals
// computed here from the header contract.
package walksum

import (
	"flag"
	"fmt"
	"math/bits"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim/internal/walkref"
)

var (
	seedFlag = flag.Uint64("seed", 20261107, "seed of the random stimulus")
	cycles   = flag.Int("cycles", 60000, "cycles per width")
)

// Widths are the DATA_WIDTH values built as co-simulation variants.
var Widths = []int{64, 256, 512}

// residue is the CRC32C of any message followed by its CRC.
const residue = 0x48674BC7

// in is one cycle's inputs.
type in struct {
	valid, first, last, grid, stop, fm, anyl bool
	nrec, nS, pend                           uint16
	chk, mkerr, rfc, draft                   uint64 // per slot
	nok                                      int
	ovf                                      bool
	crc                                      []uint32
	crcValid                                 uint64
}

// Summary is one frame's summary.
type Summary struct {
	Whole, Small, Grid, CRCOK, MarkerOK, FirstMarker, AnyL, OK bool
	NFPDU, NRec                                                int
	NRFC, NDraft                                               uint8
}

// expect computes the summaries of a run of inputs, by the cycle of their
// sum_valid: a frame's last beat at stage wk in cycle t gives its summary
// in cycle t + LCRC + 3; its beats' marker results come at t + 2, its store
// results at t + 3; its CRC is bad when a check flag at stage sl in cycle u
// meets a bad engine result in cycle u + LCRC, for the u after the
// previous frame's last beat's up to its own.
func expect(g walkref.Geom, ins []in) map[int]Summary {
	out := map[int]Summary{}
	at := func(c int) in {
		if c < len(ins) {
			return ins[c]
		}
		return in{crc: make([]uint32, g.NCRC)}
	}
	var s Summary
	crcBad := false
	// check flags at stage sl in cycle u against the results LCRC later
	meet := func(u int) {
		r := at(u + g.LCRC)
		for k := 0; k < g.NCRC; k++ {
			if at(u).chk>>k&1 != 0 && (r.crcValid>>k&1 == 0 || r.crc[k] != residue) {
				crcBad = true
			}
		}
	}
	meet(0)
	meet(1)
	for t, x := range ins {
		meet(t + 2) // stage sl of the beat at stage wk in cycle t
		if !x.valid {
			continue
		}
		if x.first {
			s = Summary{MarkerOK: true}
		}
		m, st := at(t+2), at(t+3)
		s.NRec += st.nok
		s.MarkerOK = s.MarkerOK && m.mkerr == 0
		s.NRFC += uint8(bits.OnesCount64(m.rfc))
		s.NDraft += uint8(bits.OnesCount64(m.draft))
		if x.last {
			s.Whole = x.nrec != 0 && !x.stop && x.nS == x.pend
			s.Small, s.Grid, s.FirstMarker, s.AnyL = x.stop, x.grid, x.fm, x.anyl
			s.NFPDU, s.OK = int(x.nrec), !st.ovf
			s.CRCOK = !crcBad
			crcBad = false
			out[t+g.LCRC+3] = s
		}
	}
	return out
}

// TestRandom runs random frames of 1 to 6 beats with idle cycles.
func TestRandom(t *testing.T) {
	walkref.EachWidth(t, Widths, func(t *testing.T, w int) {
		g := walkref.NewGeom(w)
		b := walkref.NewBench(t, fmt.Sprintf("mpa_rx_walk_sum_w%d", w))
		rng := walkref.NewGen(*seedFlag+uint64(w), g).Rng
		p := b.Ports("wk_valid", "wk_first", "wk_last", "wk_grid", "wk_stop", "wk_fm", "wk_anyl", "wk_nrec",
			"wk_nS", "wk_Pend", "sl_chk", "sl_mkerr", "sl_rfc", "sl_draft", "st_nok", "st_ovf", "crc_out",
			"crc_out_valid", "sum_valid", "sum_whole", "sum_small", "sum_grid", "sum_crc_ok", "sum_marker_ok",
			"sum_first_marker", "sum_any_l", "sum_nfpdu", "sum_nrfc", "sum_ndraft", "sum_ok", "sum_nrec")
		mask := uint64(1)<<g.NCRC - 1
		ins := make([]in, *cycles)
		left := 0
		for c := range ins {
			x := &ins[c]
			x.crc = make([]uint32, g.NCRC)
			for k := range x.crc {
				x.crc[k] = residue
				if rng.IntN(40) == 0 {
					x.crc[k] = rng.Uint32()
				}
			}
			x.crcValid = mask
			if rng.IntN(40) == 0 {
				x.crcValid = rng.Uint64() & mask
			}
			// marker and store results at every cycle: those of no
			// beat must not count
			x.chk = rng.Uint64() & rng.Uint64() & mask
			x.mkerr = rng.Uint64() & rng.Uint64() & rng.Uint64() & mask
			x.rfc, x.draft = rng.Uint64()&mask, rng.Uint64()&mask
			x.nok, x.ovf = rng.IntN(g.NREC+1), rng.IntN(16) == 0
			x.grid, x.stop, x.fm, x.anyl = rng.IntN(8) != 0, rng.IntN(8) == 0, rng.IntN(2) == 0, rng.IntN(2) == 0
			x.nrec, x.nS, x.pend = uint16(rng.IntN(4)), uint16(rng.IntN(3)), uint16(rng.IntN(3))
			if c < *cycles-g.LCRC-8 && rng.IntN(3) != 0 {
				x.valid = true
				if left == 0 {
					x.first, left = true, 1+rng.IntN(6)
				}
				left--
				x.last = left == 0
			}
		}
		want := expect(g, ins)
		seen := map[string]int{}
		b.Check = func(cycle uint64, _, out []uint64) {
			o := func(name string) uint64 { return p[name].Get(out, 0, 16) }
			on := func(name string) bool { return p[name].On(out, 0) }
			s, ok := want[int(cycle)-4]
			if on("sum_valid") != ok {
				b.Fail(cycle, "sum_valid %v, want %v", !ok, ok)
			}
			if !ok {
				return
			}
			got := Summary{
				Whole: on("sum_whole"), Small: on("sum_small"), Grid: on("sum_grid"), CRCOK: on("sum_crc_ok"),
				MarkerOK: on("sum_marker_ok"), FirstMarker: on("sum_first_marker"), AnyL: on("sum_any_l"),
				OK: on("sum_ok"), NFPDU: int(o("sum_nfpdu")), NRec: int(o("sum_nrec")),
				NRFC: uint8(o("sum_nrfc")), NDraft: uint8(o("sum_ndraft")),
			}
			if got != s {
				b.Fail(cycle, "summary\n got  %+v\n want %+v", got, s)
			}
			seen["frames"]++
			if !s.CRCOK {
				seen["crc bad"]++
			}
			if s.Whole {
				seen["whole"]++
			}
			if !s.OK {
				seen["dropped"]++
			}
		}
		for _, x := range ins {
			r := b.Next()
			for name, v := range map[string]bool{"wk_valid": x.valid, "wk_first": x.first, "wk_last": x.last,
				"wk_grid": x.grid, "wk_stop": x.stop, "wk_fm": x.fm, "wk_anyl": x.anyl, "st_ovf": x.ovf} {
				p[name].PutBool(r, 0, v)
			}
			p["wk_nrec"].Put(r, 0, 16, uint64(x.nrec))
			p["wk_nS"].Put(r, 0, 16, uint64(x.nS))
			p["wk_Pend"].Put(r, 0, 16, uint64(x.pend))
			p["sl_chk"].Put(r, 0, g.NCRC, x.chk)
			p["sl_mkerr"].Put(r, 0, g.NCRC, x.mkerr)
			p["sl_rfc"].Put(r, 0, g.NCRC, x.rfc)
			p["sl_draft"].Put(r, 0, g.NCRC, x.draft)
			p["st_nok"].Put(r, 0, 3, uint64(x.nok))
			p["crc_out"].PutWords(r, x.crc)
			p["crc_out_valid"].Put(r, 0, g.NCRC, x.crcValid)
		}
		b.Run()
		t.Logf("%s: %v", b.Variant, seen)
		require.Len(t, want, seen["frames"])
		require.NotZero(t, seen["crc bad"])
		require.NotZero(t, seen["whole"])
	})
}
