// Package ctx tests rtl/mpa_rx_ctx.v, the context table, against a Go
// model of its header's contract: entries placed by golden/fastpath's
// Index, encoded by golden/cycle (an IPv6 half connection's by an address
// write, then a context write); the lookup's result two cycles after the
// tuple, the verdict's read one cycle after its index, each seeing every
// write made before that cycle; each copy returns its own fields.
package ctx

import (
	"encoding/binary"
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

// The lookup copy returns valid, markers, CRC, SeqStart, the DDP stream
// and version (its key only through res_match); the verdict copy the
// flags, rcv_nxt and the ranges (the header of mpa_rx_ctx).
var (
	lkMask = mask([][2]int{{cycle.CtxValid, 1}, {cycle.CtxMarkers, 1}, {cycle.CtxCRC, 1},
		{cycle.CtxSeqStart, cycle.CtxSeqStartW}, {cycle.CtxStream, cycle.CtxStreamW}, {cycle.CtxDDPVer, cycle.CtxDDPVerW}})
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

// addr is an address as the lookup port takes it: 128 bits, the first
// octet in the top bits, least significant word first (an IPv4 address
// in its IPv4-mapped form).
func addr(a wire.Addr) []uint64 {
	return []uint64{binary.BigEndian.Uint64(a[8:]), binary.BigEndian.Uint64(a[:8])}
}

// randTuple returns an IPv4 or an IPv6 half connection from a small set
// (lookups hit), IPv6 addresses whose words differ (the fold matters).
func randTuple(rng *rand.Rand) wire.FourTuple {
	if rng.IntN(2) == 0 {
		return wire.FourTuple{SrcIP: wire.AddrFrom4([4]byte{10, 0, 0, byte(rng.IntN(8))}), DstIP: wire.AddrFrom4([4]byte{10, 0, 1, byte(rng.IntN(4))}),
			SrcPort: uint16(4000 + rng.IntN(4)), DstPort: 4791}
	}
	src := wire.Addr{0: 0x20, 1: 0x01, 2: 0x0d, 3: 0xb8, 5: byte(rng.IntN(2)), 9: 0x77, 15: byte(rng.IntN(8))}
	dst := wire.Addr{0: 0x20, 1: 0x01, 2: 0x0d, 3: 0xb8, 6: 0x12, 11: byte(rng.IntN(2)), 15: byte(rng.IntN(4))}
	return wire.FourTuple{SrcIP: src, DstIP: dst, SrcPort: uint16(4000 + rng.IntN(4)), DstPort: 4791}
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
	var lkTuple [connCount]wire.FourTuple
	var staged [2]wire.Addr   // the address write's staging register
	var next []cycle.CfgWrite // a context write after its address write
	var pending []lookup
	rdIdx, rdPrev := -1, -1
	var hits, misses, hits6, rdChecked int
	for c := 0; c < 200000; c++ {
		// inputs of cycle c
		var cfg *cycle.CfgWrite
		if len(next) > 0 && rng.IntN(2) == 0 {
			cfg, next = &next[0], next[1:]
		} else if len(next) == 0 && rng.IntN(6) == 0 {
			tu := randTuple(rng)
			idx := fastpath.Index(tu, connCount)
			if rng.IntN(5) == 0 {
				idx = rng.IntN(connCount) // an entry at another slot: the lookup must not match it
			}
			ws := cycle.EncodeContextWrites(tu, randContext(rng), idx)
			if rng.IntN(10) == 0 {
				ws[len(ws)-1].Data.SetField(cycle.CtxValid, 1, 0)
			}
			cfg, next = &ws[0], ws[1:]
		}
		cfgW := cfg != nil && cfg.Op == cycle.OpContext
		a6W := cfg != nil && cfg.Op == cycle.OpAddr6
		wrW := cfg == nil && rng.IntN(6) == 0
		var cfgIdx, wrIdx int
		var cfgData, wrData cycle.CfgData
		if cfg != nil {
			cfgIdx, cfgData = cfg.Index, cfg.Data
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
		d.SetBool("cfg_a6_valid", a6W)
		d.Set("cfg_idx", uint64(cfgIdx))
		d.SetWords("cfg_data", cfgData[:])
		d.SetBool("wr_valid", wrW)
		d.Set("wr_idx", uint64(wrIdx))
		d.SetWords("wr_data", wrData[:])
		d.SetBool("lk_valid", lkV)
		d.SetWords("lk_src_ip", addr(tu.SrcIP))
		d.SetWords("lk_dst_ip", addr(tu.DstIP))
		d.Set("lk_src_port", uint64(tu.SrcPort))
		d.Set("lk_dst_port", uint64(tu.DstPort))
		d.SetBool("lk_v6", tu.IPv6())
		d.Set("rd_idx", uint64(rdIdx))
		d.Step()

		// outputs of cycle c: the tables are as written before c
		if len(pending) > 0 && pending[0].at == c-2 {
			p := pending[0]
			pending = pending[1:]
			slot := fastpath.Index(p.tuple, connCount)
			match := lk[slot].Field(cycle.CtxValid, 1) == 1 && lkTuple[slot] == p.tuple
			require.True(t, d.Bit("res_valid"), "cycle %d: res_valid", c)
			require.Equal(t, uint64(slot), d.Get("res_idx"), "cycle %d: res_idx", c)
			require.Equal(t, match, d.Bit("res_match"), "cycle %d: res_match for %v", c, p.tuple)
			require.Equal(t, and(lk[slot], lkMask), d.Words("res_ent"), "cycle %d: res_ent", c)
			switch {
			case match && p.tuple.IPv6():
				hits6++
				fallthrough
			case match:
				hits++
			default:
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
			lkTuple[cfgIdx] = cycle.DecodeContext6(cfgData, staged[0], staged[1]).Tuple
		}
		if a6W {
			staged[0], staged[1] = cycle.DecodeAddr6(cfgData)
		}
		if wrW {
			vd[wrIdx] = wrData
		}
	}
	t.Logf("lookups: %d matched (%d IPv6), %d not; %d verdict reads", hits, hits6, misses, rdChecked)
	require.Greater(t, hits, 1000)
	require.Greater(t, hits6, 300)
	require.Greater(t, misses, 1000)
}
