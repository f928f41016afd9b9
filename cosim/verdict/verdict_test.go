// Package verdict tests rtl/mpa_rx_verdict.v: frame records and walker
// summaries in, verdict records and context writes out, with the context
// table's verdict copy modelled in Go (a read sees every write made before
// its cycle). The expected verdicts follow golden/fastpath's Engine.Frame
// (docs/design.md section 2) on the record's fields, one frame after the
// other: each frame sees the context its predecessors left, however close
// they come.
package verdict

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim/internal/onecycle"
	"github.com/mparx/mparx/golden/cycle"
	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/wire"
)

const (
	variant = "mpa_rx_verdict_i4"
	idxBits = 4
	slots   = 1 << idxBits
	window  = 1 << 20 // mpa_rx's default WINDOW
)

func before(a, b uint32) bool { return int32(a-b) < 0 }

type frame struct {
	fr  cycle.FrameRecord
	sum cycle.Summary
}

// decide is golden/fastpath's Engine.Frame on a frame record, the walker's
// summary and the frame's context: the verdict record and the context
// after it (write: the verdict changes it).
func decide(f frame, c fastpath.Context) (v cycle.VerdictRecord, nc fastpath.Context, write bool) {
	fr, s := f.fr, f.sum
	end := fr.Seq + uint32(fr.PayLen)
	v = cycle.VerdictRecord{Verdict: cycle.VException, Seq: fr.Seq, End: end, PayLen: fr.PayLen, Beats: fr.Beats,
		Adv: c.RcvNxt, InOrder: fr.Seq == c.RcvNxt, NRec: s.NRec, Stream: fr.Stream, DDPVersion: fr.DDPVersion,
		Markers: fr.Markers && c.Params.Markers, MPH: (fr.P0 + fr.MPH - int(fr.Seq)) & 511, P0: fr.P0,
		NRFC: s.NRFC, NDraft: s.NDraft, Index: fr.Index, Drop: fr.Drop}
	nc = c
	exc := func(r fastpath.Reason) { v.Reason = int(r) }
	handOver := func(r fastpath.Reason) {
		exc(r)
		nc.SWOwned, nc.Ranges, write = true, nil, true
	}
	switch {
	case fr.Class == cycle.ClassDrop || fr.Over:
		v.Verdict = cycle.VDrop
		if fr.Over {
			v.Drop = cycle.DropFCS
		}
		return
	case fr.Class == cycle.ClassNotTCP && fr.Drop == cycle.NotTCPIPv6Ext:
		exc(fastpath.IPv6Ext)
		return
	case fr.Class == cycle.ClassNotTCP:
		exc(fastpath.NotTCP)
		return
	case !fr.Match:
		exc(fastpath.NoConn)
		return
	case !c.Full || c.Err:
		exc(fastpath.NotFull)
		return
	case c.SWOwned:
		exc(fastpath.SWOwned)
		return
	}
	switch {
	case fr.Flags&(wire.FlagSYN|wire.FlagFIN|wire.FlagRST) != 0:
		handOver(fastpath.Flags)
		return
	case fr.PayLen == 0, !before(c.RcvNxt, end):
		v.Verdict = cycle.VIgnore
		return
	case before(fr.Seq, c.RcvNxt):
		handOver(fastpath.Unaligned)
		return
	case fr.Seq-c.RcvNxt >= window:
		v.Verdict = cycle.VIgnore
		return
	case end-c.RcvNxt > window:
		handOver(fastpath.OutOfOrder)
		return
	}
	for _, r := range c.Ranges {
		if before(fr.Seq, r.End) && before(r.Start, end) {
			handOver(fastpath.Unaligned)
			return
		}
	}
	inOrder := v.InOrder
	// the walk's outcome, as per-segment flags (section 2)
	switch {
	case !inOrder && !(c.Params.Markers && c.Params.CRC):
		handOver(fastpath.OutOfOrder)
		return
	case !s.Grid || !s.Whole || fr.PayLen%4 != 0:
		handOver(fastpath.Unaligned)
		return
	case !inOrder && !s.FirstMarker:
		handOver(fastpath.OutOfOrder)
		return
	case !s.Checks:
		handOver(fastpath.MPACheck)
		return
	case s.Small:
		handOver(fastpath.Unaligned)
		return
	case !inOrder && s.AnyL:
		handOver(fastpath.OutOfOrder)
		return
	}
	v.Verdict, write = cycle.VPlace, true
	if !inOrder {
		merged, ok := fastpath.AddRange(c.Ranges, fastpath.Range{Start: fr.Seq, End: end})
		if !ok {
			v.Verdict = cycle.VException
			handOver(fastpath.RangesFull)
			return
		}
		nc.Ranges = merged
		return
	}
	nc.RcvNxt = end
	for len(nc.Ranges) > 0 && nc.Ranges[0].Start == nc.RcvNxt {
		nc.RcvNxt = nc.Ranges[0].End
		nc.Ranges = nc.Ranges[1:]
	}
	v.Adv = nc.RcvNxt
	return
}

// vdFields keeps the verdict copy's fields of an entry (mpa_rx_ctx).
func vdFields(c fastpath.Context) fastpath.Context {
	v := fastpath.Context{Full: c.Full, Err: c.Err, SWOwned: c.SWOwned, RcvNxt: c.RcvNxt, Ranges: c.Ranges,
		Params: mpa.Half{Markers: c.Params.Markers, CRC: c.Params.CRC}}
	if len(v.Ranges) == 0 {
		v.Ranges = nil // no range, however the model's slice ended up
	}
	return v
}

func randContext(rng *rand.Rand) fastpath.Context {
	c := fastpath.Context{Full: rng.IntN(8) != 0, Err: rng.IntN(16) == 0, SWOwned: rng.IntN(10) == 0,
		Params: mpa.Half{Markers: rng.IntN(4) != 0, CRC: rng.IntN(4) != 0}, RcvNxt: rng.Uint32()}
	// sorted ranges beyond rcv_nxt, apart
	at := c.RcvNxt + uint32(4*(1+rng.IntN(200)))
	for i := rng.IntN(3); i > 0; i-- {
		r := fastpath.Range{Start: at, End: at + uint32(4*(1+rng.IntN(100)))}
		c.Ranges = append(c.Ranges, r)
		at = r.End + uint32(4*(1+rng.IntN(200)))
	}
	return c
}

func genFrame(rng *rand.Rand, ctx []fastpath.Context) frame {
	idx := rng.IntN(slots)
	if rng.IntN(3) == 0 {
		idx = rng.IntN(2) // back-to-back frames of one slot
	}
	c := ctx[idx]
	fr := cycle.FrameRecord{Index: idx, Match: rng.IntN(12) != 0, Beats: rng.IntN(1 << 16), P0: rng.IntN(1 << 16),
		DDPVersion: uint8(rng.IntN(4)), Markers: rng.IntN(2) == 0, MPH: rng.IntN(512)}
	fr.Stream = ddp.StreamID(rng.IntN(4096))
	switch r := rng.IntN(40); {
	case r == 0:
		fr.Class, fr.Drop = cycle.ClassDrop, 1+rng.IntN(3)
	case r == 1:
		fr.Class, fr.Drop = cycle.ClassNotTCP, rng.IntN(2) // NotTCPOther or NotTCPIPv6Ext
	case r == 2:
		fr.Over = true
	}
	if rng.IntN(30) == 0 {
		fr.Flags = uint8(rng.IntN(256))
	} else {
		fr.Flags = wire.FlagACK
	}
	fr.PayLen = 4 * rng.IntN(400)
	if rng.IntN(20) == 0 {
		fr.PayLen = rng.IntN(2000)
	}
	switch r := rng.IntN(12); {
	case r < 6:
		fr.Seq = c.RcvNxt
	case r < 9 && len(c.Ranges) > 0:
		rg := c.Ranges[rng.IntN(len(c.Ranges))]
		if rng.IntN(2) == 0 {
			fr.Seq = rg.End // just after a range
		} else {
			fr.Seq = rg.Start - uint32(fr.PayLen) // just before one
		}
	case r < 10:
		fr.Seq = c.RcvNxt + uint32(4*rng.IntN(2000))
	case r < 11:
		fr.Seq = c.RcvNxt - uint32(rng.IntN(3000))
	default:
		fr.Seq = rng.Uint32()
	}
	s := cycle.Summary{Whole: true, Grid: true, Checks: true, FirstMarker: true, NRec: rng.IntN(20),
		NRFC: rng.IntN(256), NDraft: rng.IntN(256)}
	switch rng.IntN(14) {
	case 0:
		s.Whole = false
	case 1:
		s.Grid = false
	case 2:
		s.Checks = false
	case 3:
		s.FirstMarker = false
	case 4:
		s.Small = true
	case 5, 6:
		s.AnyL = true
	}
	return frame{fr: fr, sum: s}
}

// Frames at random slots (often one slot back to back, so that a frame
// waits for its predecessor's context write) with their summaries in
// bursts and gaps: every verdict record and context write as the model
// says, in order; a verdict two cycles after its summary when nothing
// holds it.
func TestRandom(t *testing.T) {
	d := onecycle.Open(t, variant)
	rng := rand.New(rand.NewPCG(31, 32))
	// the verdict copy of the context table that the RTL reads (written by
	// its context writes), and the model's own
	rtlCtx := make([]fastpath.Context, slots)
	for i := range rtlCtx {
		rtlCtx[i] = vdFields(randContext(rng))
	}
	model := append([]fastpath.Context(nil), rtlCtx...)
	type write struct {
		idx int
		c   fastpath.Context
	}
	var (
		all        []frame // frames generated: their records are queued
		wantV      []cycle.VerdictRecord
		wantW      []write
		popped     int   // frame records the RTL took
		sumAt      []int // cycle of each summary sent
		vAt        []int // cycle of each verdict
		gotV, gotW int
		exact      int
		rdPrev     = -1
		count      = map[int]int{}
	)
	for c := 0; c < 200000; c++ {
		for len(all) < len(sumAt)+3 {
			all = append(all, genFrame(rng, model))
		}
		burst := c/500%2 == 0
		send := rng.IntN(8) != 0 && (burst || rng.IntN(4) == 0)
		if c%2000 >= 1980 {
			// software hands the half connections it owns back (with no
			// frame in the verdict: the RTL's table and the model's alike)
			send = false
			if c%2000 == 1999 && gotV == len(sumAt) {
				for i := range model {
					if model[i].SWOwned || rng.IntN(4) == 0 {
						model[i] = vdFields(randContext(rng))
						rtlCtx[i] = model[i]
					}
				}
			}
		}
		if send {
			// the model decides the frame when its summary goes out
			f := all[len(sumAt)]
			v, nc, w := decide(f, model[f.fr.Index])
			wantV = append(wantV, v)
			if w {
				wantW = append(wantW, write{f.fr.Index, nc})
				model[f.fr.Index] = vdFields(nc)
			}
		}
		d.SetBool("fr_valid", popped < len(all))
		if popped < len(all) {
			d.SetWords("fr_frp", all[popped].fr.EncodeFRP())
			d.SetWords("fr_frl", all[popped].fr.EncodeFRL(idxBits))
		}
		d.SetBool("sum_valid", send)
		if send {
			d.SetWords("sum_data", all[len(sumAt)].sum.Encode())
			sumAt = append(sumAt, c)
		}
		// the read of the cycle before, from the table as it is now
		if rdPrev >= 0 {
			e := cycle.EncodeContext(wire.FourTuple{}, rtlCtx[rdPrev])
			d.SetWords("ctx_rd_ent", e[:])
		}
		d.Step()
		rdPrev = int(d.Get("ctx_rd_idx"))
		if d.Bit("vq_valid") {
			require.Less(t, gotV, len(sumAt), "cycle %d: a verdict before its summary", c)
			got := cycle.DecodeVerdictRecord(d.Words("vq_data"), idxBits)
			want := wantV[gotV]
			if want.Verdict != cycle.VPlace {
				// the fields E1 reads of a PLACE frame only: from the context
				// as read, which for a frame that matched none need not wait
				// for the write of the frame before it
				want.Adv, want.InOrder, want.Markers = got.Adv, got.InOrder, got.Markers
			}
			require.Equal(t, want, got, "cycle %d: verdict %d", c, gotV)
			// V0 in the cycle of the summary unless the frame before is
			// still ahead of it (queued, or in V1 and writing the same slot)
			s := sumAt[gotV]
			free := gotV == 0
			if gotV > 0 {
				p, a, b := vAt[gotV-1], all[gotV-1].fr, all[gotV].fr
				hazard := a.Match && b.Match && a.Index == b.Index
				free = p <= s || (p == s+1 && !hazard)
			}
			if free {
				require.Equal(t, 2, c-s, "cycle %d: verdict %d two cycles after its summary", c, gotV)
				exact++
			} else {
				require.Greater(t, c-s, 2, "cycle %d: verdict %d", c, gotV)
			}
			vAt = append(vAt, c)
			count[got.Verdict*16+got.Reason]++
			gotV++
		}
		if d.Bit("ctx_wr_valid") {
			require.Less(t, gotW, len(wantW), "cycle %d: an extra context write", c)
			w := wantW[gotW]
			idx := int(d.Get("ctx_wr_idx"))
			var data cycle.CfgData
			copy(data[:], d.Words("ctx_wr_data"))
			got := vdFields(cycle.DecodeContext(data).Ctx)
			require.Equal(t, w.idx, idx, "cycle %d: context write %d slot", c, gotW)
			require.Equal(t, vdFields(w.c), got, "cycle %d: context write %d", c, gotW)
			rtlCtx[idx] = got
			gotW++
		}
		if d.Bit("fr_ready") {
			require.Less(t, popped, len(sumAt), "cycle %d: a frame record taken before its summary", c)
			popped++
		}
	}
	require.Greater(t, gotV, 50000)
	require.Greater(t, exact, 1000)
	for _, k := range []int{cycle.VPlace * 16, cycle.VIgnore * 16, cycle.VDrop * 16} {
		require.Positive(t, count[k], "verdict %d never taken", k/16)
	}
	for r := fastpath.NotTCP; r <= fastpath.MPACheck; r++ {
		require.Positive(t, count[cycle.VException*16+int(r)], "reason %v never given", r)
	}
	t.Logf("%d verdicts (%d checked two cycles after their summary), %d context writes", gotV, exact, gotW)
}
