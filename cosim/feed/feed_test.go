// Package feed tests rtl/mpa_rx_feed.v: the word view reaches the walker
// four cycles after its beat, the payload-word mask only for beats stored
// in the frame FIFO; each frame's walker parameters (from its lookup, or
// none for a frame without a 4-tuple) are at the queue's head while its
// beats are on w_*.
package feed

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim/internal/onecycle"
	"github.com/mparx/mparx/golden/cycle"
)

type beatIn struct {
	valid, store, last, tuple bool
	seq                       uint32
	data                      []byte
	pmask                     uint64 // the mask of this beat (given the cycle after)
	frame                     int
	checkParams               bool // the frame's parameters are due (from its tuple beat on, or at its last)
}

type params struct {
	seqStart     uint32
	markers, crc bool
}

func run(t *testing.T, width int) {
	d := onecycle.Open(t, fmt.Sprintf("mpa_rx_feed_w%d", width))
	rng := rand.New(rand.NewPCG(51, uint64(width)))
	lanes, wpb := width/8, width/32
	var hist []beatIn        // the inputs of every cycle
	var want []params        // each frame's walker parameters
	lookups := map[int]int{} // cycle -> frame whose lookup result comes then
	var checked, stores, nframes int
	c := 0
	step := func(b beatIn) {
		d.SetBool("in_valid", b.valid)
		d.SetBool("in_store", b.store)
		d.SetBool("in_last", b.last)
		d.SetBool("in_tuple", b.tuple)
		d.Set("in_seq", uint64(b.seq))
		d.Port("in_data").SetBytes(d.In, b.data)
		d.Set("in_pmask", 0)
		if c > 0 {
			d.Set("in_pmask", hist[c-1].pmask)
		}
		d.SetBool("lk_valid", false)
		if f, ok := lookups[c]; ok {
			var e cycle.CfgData
			e.SetField(cycle.CtxSeqStart, cycle.CtxSeqStartW, uint64(want[f].seqStart))
			cycle.Record(e[:]).SetBit(cycle.CtxMarkers, want[f].markers)
			cycle.Record(e[:]).SetBit(cycle.CtxCRC, want[f].crc)
			d.SetBool("lk_valid", true)
			d.SetWords("lk_ent", e[:])
		}
		hist = append(hist, b)
		d.Step()
		if c >= 4 {
			o := hist[c-4]
			require.Equal(t, o.valid, d.Bit("w_valid"), "cycle %d: w_valid", c)
			if o.valid {
				require.Equal(t, o.last, d.Bit("w_last"), "cycle %d: w_last", c)
				require.Equal(t, uint64(o.seq), d.Get("w_seq"), "cycle %d: w_seq", c)
				require.Equal(t, o.data, d.Port("w_data").AppendBytes(nil, d.Out), "cycle %d: w_data", c)
				pm := uint64(0)
				if o.store {
					pm = o.pmask
					stores++
				}
				require.Equal(t, pm, d.Get("w_pmask"), "cycle %d: w_pmask", c)
				p := want[o.frame]
				if !o.checkParams {
					checked++
					c++
					return
				}
				require.Equal(t, uint64(p.seqStart), d.Get("seq_start"), "cycle %d: seq_start of frame %d", c, o.frame)
				require.Equal(t, p.markers, d.Bit("markers_on"), "cycle %d: markers_on", c)
				require.Equal(t, p.crc, d.Bit("crc_on"), "cycle %d: crc_on", c)
				checked++
			}
		}
		c++
	}
	for f := 0; f < 3000; f++ {
		beats := 1 + rng.IntN(30)
		tupleAt := rng.IntN(beats + 2) // no tuple when past the last beat
		p := params{}
		if tupleAt < beats {
			p = params{seqStart: rng.Uint32(), markers: rng.IntN(2) == 0, crc: rng.IntN(2) == 0}
		}
		want = append(want, p)
		nframes++
		seq := rng.Uint32()
		for b := 0; b < beats; b++ {
			for rng.IntN(5) == 0 {
				step(beatIn{frame: f, data: make([]byte, lanes)})
			}
			bt := beatIn{valid: true, store: rng.IntN(8) != 0, last: b == beats-1, tuple: b == tupleAt, seq: seq,
				data: make([]byte, lanes), pmask: rng.Uint64() & (1<<wpb - 1), frame: f,
				checkParams: b >= tupleAt || (tupleAt >= beats && b == beats-1)}
			for i := range bt.data {
				bt.data[i] = byte(rng.Uint32())
			}
			if b == tupleAt {
				lookups[c+2] = f
			}
			step(bt)
		}
		// the next frame's tuple no sooner than its lookup needs
		step(beatIn{frame: f, data: make([]byte, lanes)})
	}
	for range 6 {
		step(beatIn{frame: len(want) - 1, data: make([]byte, lanes)})
	}
	t.Logf("%d frames, %d beats checked, %d stored", nframes, checked, stores)
}

func TestFeed(t *testing.T) {
	for _, w := range []int{64, 512} {
		t.Run(fmt.Sprintf("w%d", w), func(t *testing.T) { run(t, w) })
	}
}
