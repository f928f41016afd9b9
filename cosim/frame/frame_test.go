// Package frame tests rtl/mpa_rx_frame.v, the frame records: per frame the
// parser's part and the lookup part (the lookup's result, the ingress's
// beat count and oversize flag, and the payload's frame offset p0 = 4k - 2
// for the first word k the parser marks as payload), queued and popped
// together in frame order.
package frame

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim/internal/onecycle"
	"github.com/mparx/mparx/golden/cycle"
	"github.com/mparx/mparx/golden/ddp"
)

const idxBits = 4

// frameIn is one frame's stimulus and expected record.
type frameIn struct {
	beats   int
	first   int  // first payload word (-1: none)
	tuple   bool // the frame has a 4-tuple: a lookup result comes
	rec     cycle.FrameRecord
	lkDelay int // cycles after the last beat of the lookup result (0..2)
}

func run(t *testing.T, width int) {
	d := onecycle.Open(t, fmt.Sprintf("mpa_rx_frame_w%d", width))
	rng := rand.New(rand.NewPCG(41, uint64(width)))
	wpb := width / 32
	var queued []frameIn // records expected, in order
	popped := 0
	type ev struct {
		at int
		f  frameIn
	}
	var lookups, parses []ev
	var pmaskNext uint64 // the payload-word mask of this cycle's beat, given next cycle
	c := 0
	var lastValid, lastPop bool
	step := func(valid, last bool, beat int, pm uint64, endF *frameIn) {
		d.SetBool("in_valid", valid)
		d.SetBool("in_last", last)
		d.Set("in_beats", uint64(beat))
		d.Set("in_pmask", pmaskNext)
		pmaskNext = pm
		d.SetBool("end_valid", endF != nil)
		if endF != nil {
			d.Set("end_beats", uint64(endF.rec.Beats))
			d.SetBool("end_over", endF.rec.Over)
		}
		d.SetBool("lk_valid", false)
		if len(lookups) > 0 && lookups[0].at == c {
			r := lookups[0].f.rec
			lookups = lookups[1:]
			var e cycle.CfgData
			e.SetField(cycle.CtxStream, cycle.CtxStreamW, uint64(r.Stream))
			e.SetField(cycle.CtxDDPVer, cycle.CtxDDPVerW, uint64(r.DDPVersion))
			cycle.Record(e[:]).SetBit(cycle.CtxMarkers, r.Markers)
			e.SetField(cycle.CtxSeqStart, cycle.CtxSeqStartW, uint64(r.MPH)|uint64(rng.IntN(1<<23))<<9)
			d.SetBool("lk_valid", true)
			d.SetBool("lk_match", r.Match)
			d.Set("lk_idx", uint64(r.Index))
			d.SetWords("lk_ent", e[:])
		}
		d.SetBool("prs_valid", false)
		if len(parses) > 0 && parses[0].at <= c {
			d.SetBool("prs_valid", true)
			d.SetWords("prs_data", parses[0].f.rec.EncodeFRP())
			parses = parses[1:]
		}
		// pop a record seen valid in the cycle before and not popped then
		// (both queues hold their heads until popped)
		pop := lastValid && !lastPop && rng.IntN(3) == 0
		d.SetBool("m_ready", pop)
		d.Step()
		lastValid, lastPop = d.Bit("m_valid"), pop
		if pop {
			require.True(t, d.Bit("m_valid"), "cycle %d: the head went away", c)
			require.Less(t, popped, len(queued), "cycle %d: an extra record", c)
			want := queued[popped]
			frp := want.rec.EncodeFRP()
			require.Equal(t, []uint64(frp), d.Words("m_frp"), "cycle %d: frame %d parser part", c, popped)
			got := d.Words("m_frl")
			var gr cycle.Record = got
			require.Equal(t, want.rec.Match, gr.Bit(cycle.FRLMatch), "cycle %d: frame %d match", c, popped)
			require.Equal(t, want.rec.Over, gr.Bit(cycle.FRLOver), "cycle %d: frame %d oversize", c, popped)
			require.Equal(t, uint64(want.rec.Beats), gr.Field(cycle.FRLBeats, cycle.FRLBeatsW), "cycle %d: frame %d beats", c, popped)
			require.Equal(t, uint64(want.rec.P0), gr.Field(cycle.FRLP0, cycle.FRLP0W), "cycle %d: frame %d p0", c, popped)
			if want.tuple {
				require.Equal(t, []uint64(want.rec.EncodeFRL(idxBits)), got, "cycle %d: frame %d lookup part", c, popped)
			}
			popped++
		}
		c++
	}
	nframes := 4000
	for i := 0; i < nframes; i++ {
		f := frameIn{beats: 1 + rng.IntN(40), tuple: rng.IntN(8) != 0, lkDelay: rng.IntN(3)}
		f.first = -1
		if rng.IntN(6) != 0 {
			f.first = 3 + rng.IntN(f.beats*wpb)
			if f.first >= f.beats*wpb {
				f.first = -1
			}
		}
		f.rec = cycle.FrameRecord{Class: rng.IntN(3), Drop: rng.IntN(4), Seq: rng.Uint32(), Flags: uint8(rng.IntN(256)),
			PayLen: rng.IntN(1 << 16), Match: f.tuple && rng.IntN(5) != 0, Over: rng.IntN(6) == 0,
			Beats: rng.IntN(1 << 16), Stream: ddp.StreamID(rng.IntN(4096)), DDPVersion: uint8(rng.IntN(4)),
			Markers: rng.IntN(2) == 0, MPH: rng.IntN(512), Index: rng.IntN(1 << idxBits)}
		if f.first >= 0 {
			f.rec.P0 = 4*f.first - 2
		} else {
			f.rec.P0 = -1 // p0 keeps the last frame's: not checked
		}
		// beats with gaps
		for b := 0; b < f.beats; b++ {
			for rng.IntN(4) == 0 {
				step(false, false, 0, 0, nil)
			}
			var pm uint64
			for j := 0; j < wpb; j++ {
				if k := b*wpb + j; f.first >= 0 && k >= f.first {
					pm |= 1 << j
				}
			}
			last := b == f.beats-1
			var endF *frameIn
			if last {
				endF = &f
				if f.tuple {
					lookups = append(lookups, ev{c + f.lkDelay, f})
				}
				parses = append(parses, ev{c + 11, f})
				if f.rec.P0 < 0 {
					// the model keeps the last p0 seen
					if len(queued) > 0 {
						f.rec.P0 = queued[len(queued)-1].rec.P0
					} else {
						f.rec.P0 = 0
					}
				}
				queued = append(queued, f)
			}
			step(true, last, b, pm, endF)
		}
		// frames start at least three cycles apart (a lookup two cycles after
		// the tuple, the record three after the last beat)
		for range 3 {
			step(false, false, 0, 0, nil)
		}
		for len(queued)-popped > 12 {
			step(false, false, 0, 0, nil)
		}
	}
	for range 2000 {
		if popped == len(queued) {
			break
		}
		step(false, false, 0, 0, nil)
	}
	require.Equal(t, len(queued), popped, "records popped")
}

func TestFrame(t *testing.T) {
	for _, w := range []int{64, 512} {
		t.Run(fmt.Sprintf("w%d", w), func(t *testing.T) { run(t, w) })
	}
}
