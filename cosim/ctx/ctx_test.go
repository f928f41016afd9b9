// Package ctx tests rtl/mpa_rx_ctx.v, the context table, against a Go
// model of its header's contract: entries placed by golden/fastpath's
// Index, encoded by golden/cycle; the lookup's result two cycles after the
// tuple, the verdict's read one cycle after its index, each seeing every
// write made before that cycle; each copy returns its own fields.
package ctx

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
	variant   = "mpa_rx_ctx_c16"
	connCount = 16
)

// mask returns the bits of the fields in a context entry.
func mask(fields [][2]int) cycle.CfgData {
	var m cycle.CfgData
	for _, f := range fields {
		m.SetField(f[0], f[1], ^uint64(0))
	}
	return m
}

// The lookup copy keeps valid, markers, CRC, SeqStart, the 4-tuple, the
// DDP stream and version; the verdict copy the flags, rcv_nxt and the
// ranges (the header of mpa_rx_ctx).
var (
	lkMask = mask([][2]int{{cycle.CtxValid, 1}, {cycle.CtxMarkers, 1}, {cycle.CtxCRC, 1},
		{cycle.CtxSeqStart, cycle.CtxSeqStartW}, {cycle.CtxSrcIP, cycle.CtxSrcIPW}, {cycle.CtxDstIP, cycle.CtxDstIPW},
		{cycle.CtxSrcPort, cycle.CtxSrcPortW}, {cycle.CtxDstPort, cycle.CtxDstPortW},
		{cycle.CtxStream, cycle.CtxStreamW}, {cycle.CtxDDPVer, cycle.CtxDDPVerW}})
	vdMask = mask([][2]int{{cycle.CtxValid, 1}, {cycle.CtxFull, 1}, {cycle.CtxErr, 1}, {cycle.CtxSWOwned, 1},
		{cycle.CtxMarkers, 1}, {cycle.CtxCRC, 1}, {cycle.CtxR0Valid, 1}, {cycle.CtxR1Valid, 1},
		{cycle.CtxRcvNxt, cycle.CtxRcvNxtW}, {cycle.CtxR0Start, cycle.CtxR0StartW}, {cycle.CtxR0End, cycle.CtxR0EndW},
		{cycle.CtxR1Start, cycle.CtxR1StartW}, {cycle.CtxR1End, cycle.CtxR1EndW}})
)

func and(a, m cycle.CfgData) []uint64 {
	out := make([]uint64, len(a))
	for i := range a {
		out[i] = a[i] & m[i]
	}
	return out
}

func randTuple(rng *rand.Rand) wire.FourTuple {
	return wire.FourTuple{SrcIP: [4]byte{10, 0, 0, byte(rng.IntN(8))}, DstIP: [4]byte{10, 0, 1, byte(rng.IntN(4))},
		SrcPort: uint16(4000 + rng.IntN(4)), DstPort: 4791}
}

func randContext(rng *rand.Rand) fastpath.Context {
	c := fastpath.Context{Full: rng.IntN(2) == 0, Err: rng.IntN(8) == 0, SWOwned: rng.IntN(4) == 0,
		Params: mpa.Half{Markers: rng.IntN(2) == 0, CRC: rng.IntN(2) == 0, SeqStart: rng.Uint32()},
		RcvNxt: rng.Uint32(), Stream: ddp.StreamID(rng.IntN(4096)), DDPVersion: uint8(rng.IntN(4))}
	for i := rng.IntN(3); i > 0; i-- {
		c.Ranges = append(c.Ranges, fastpath.Range{Start: rng.Uint32(), End: rng.Uint32()})
	}
	return c
}

type lookup struct {
	tuple wire.FourTuple
	at    int // cycle the tuple was presented
}

// Random configuration writes, verdict writes, lookups every few cycles
// and a verdict read every cycle: every result as the model says.
func TestRandom(t *testing.T) {
	d := onecycle.Open(t, variant)
	rng := rand.New(rand.NewPCG(7, 8))
	var lk, vd [connCount]cycle.CfgData // the two copies as written
	var pending []lookup
	rdIdx, rdPrev := -1, -1
	var hits, misses, rdChecked int
	for c := 0; c < 100000; c++ {
		// inputs of cycle c
		cfgW := rng.IntN(6) == 0
		wrW := !cfgW && rng.IntN(6) == 0
		var cfgIdx, wrIdx int
		var cfgData, wrData cycle.CfgData
		if cfgW {
			tu := randTuple(rng)
			cfgIdx = fastpath.Index(tu, connCount)
			if rng.IntN(5) == 0 {
				cfgIdx = rng.IntN(connCount) // an entry at another slot: the lookup must not match it
			}
			cfgData = cycle.EncodeContext(tu, randContext(rng))
			if rng.IntN(10) == 0 {
				cfgData.SetField(cycle.CtxValid, 1, 0)
			}
		}
		if wrW {
			wrIdx = rng.IntN(connCount)
			for i := range wrData {
				wrData[i] = rng.Uint64()
			}
		}
		lkV := rng.IntN(3) == 0
		tu := randTuple(rng)
		rdIdx = rng.IntN(connCount)

		d.SetBool("cfg_valid", cfgW)
		d.Set("cfg_idx", uint64(cfgIdx))
		d.SetWords("cfg_data", cfgData[:])
		d.SetBool("wr_valid", wrW)
		d.Set("wr_idx", uint64(wrIdx))
		d.SetWords("wr_data", wrData[:])
		d.SetBool("lk_valid", lkV)
		d.Set("lk_src_ip", uint64(uint32(tu.SrcIP[0])<<24|uint32(tu.SrcIP[1])<<16|uint32(tu.SrcIP[2])<<8|uint32(tu.SrcIP[3])))
		d.Set("lk_dst_ip", uint64(uint32(tu.DstIP[0])<<24|uint32(tu.DstIP[1])<<16|uint32(tu.DstIP[2])<<8|uint32(tu.DstIP[3])))
		d.Set("lk_src_port", uint64(tu.SrcPort))
		d.Set("lk_dst_port", uint64(tu.DstPort))
		d.Set("rd_idx", uint64(rdIdx))
		d.Step()

		// outputs of cycle c: the tables are as written before c
		if len(pending) > 0 && pending[0].at == c-2 {
			p := pending[0]
			pending = pending[1:]
			slot := fastpath.Index(p.tuple, connCount)
			e := cycle.DecodeContext(lk[slot])
			match := e.Valid && e.Tuple == p.tuple
			require.True(t, d.Bit("res_valid"), "cycle %d: res_valid", c)
			require.Equal(t, uint64(slot), d.Get("res_idx"), "cycle %d: res_idx", c)
			require.Equal(t, match, d.Bit("res_match"), "cycle %d: res_match for %v", c, p.tuple)
			require.Equal(t, and(lk[slot], lkMask), d.Words("res_ent"), "cycle %d: res_ent", c)
			if match {
				hits++
			} else {
				misses++
			}
		} else {
			require.False(t, d.Bit("res_valid"), "cycle %d: res_valid", c)
		}
		if rdPrev >= 0 {
			require.Equal(t, and(vd[rdPrev], vdMask), d.Words("rd_ent"), "cycle %d: rd_ent of slot %d", c, rdPrev)
			rdChecked++
		}
		rdPrev = rdIdx
		if lkV {
			pending = append(pending, lookup{tuple: tu, at: c})
		}
		// the clock edge
		if cfgW {
			lk[cfgIdx], vd[cfgIdx] = cfgData, cfgData
		}
		if wrW {
			vd[wrIdx] = wrData
		}
	}
	require.Greater(t, hits, 1000)
	require.Greater(t, misses, 1000)
	t.Logf("lookups: %d matched, %d not; %d verdict reads", hits, misses, rdChecked)
}
