package rx

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/mpa"
)

// message cuts a DDP message into ULPDUs of at most mulpdu octets.
func message(h ddp.Header, data []byte, mulpdu int) [][]byte {
	room := mulpdu - h.Len()
	var out [][]byte
	for off := 0; off < len(data) || off == 0; off += room {
		end := min(off+room, len(data))
		seg := h
		seg.Last = end == len(data)
		if h.Tagged {
			seg.TO = h.TO + uint64(off)
		} else {
			seg.MO = uint32(off)
		}
		out = append(out, append(seg.AppendTo(nil), data[off:end]...))
		if end == len(data) {
			break
		}
	}
	return out
}

// Tagged and untagged messages of many segments, sent over a re-segmented,
// reordered stream, land in host memory exactly where the DDP headers say,
// each message is delivered once and in order, and a tagged write naming
// the other half connection's STag places nothing.
func TestPlacementThroughReceiver(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	c := stdConn(true, true)
	mul := mpa.MULPDU(1460, true)
	mem := ddp.NewMemory()
	pl := ddp.NewPlacer(mem)
	r := New(Config{Placer: pl})
	i2r, r2i := r.AddConn(c.spec())
	require.NoError(t, pl.RegisterSTag(0x1000, i2r, 0x100000, 1<<20))
	require.NoError(t, pl.RegisterSTag(0x2000, r2i, 0x300000, 4096))
	for k := 0; k < 3; k++ {
		require.NoError(t, pl.PostRecv(i2r, 0, 0x200000+uint64(k)*0x10000, 0x10000))
	}
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	write := random(50000)
	sends := [][]byte{random(9000), random(1), random(40000)}
	var ulpdus [][]byte
	ulpdus = append(ulpdus, message(ddp.Header{Tagged: true, Version: 1, STag: 0x1000, TO: 777}, write, mul)...)
	for k, s := range sends {
		ulpdus = append(ulpdus, message(ddp.Header{Version: 1, ULPCtrl: 0x43, QN: 0, MSN: uint32(k + 1)}, s, mul)...)
	}
	bad := message(ddp.Header{Tagged: true, Version: 1, STag: 0x2000, TO: 0}, random(100), mul)
	ulpdus = append(ulpdus, bad...)
	for _, u := range ulpdus {
		c.i2r.Add(u)
	}
	segs := c.i2r.Random(rng, 200, 1460)
	rng.Shuffle(len(segs), func(a, b int) { segs[a], segs[b] = segs[b], segs[a] })
	for _, f := range append(c.startupFrames(t), segFrames(t, c.tu, segs)...) {
		r.Frame(f)
	}
	evs := r.Events()
	assert.Empty(t, errorsOf(evs))
	assert.Equal(t, len(ulpdus), countKind(evs, ULPDU))
	assert.Equal(t, len(ulpdus)-1, countKind(evs, Placed))
	require.Equal(t, 1, countKind(evs, DDPError))
	for _, e := range evs {
		if e.Kind == DDPError {
			assert.ErrorIs(t, e.Err, ddp.KindSTagNotAssociated)
		}
	}
	assert.Equal(t, 4, countKind(evs, Delivered), "one write and three sends; the rejected write is not delivered")
	assert.True(t, bytes.Equal(write, mem.Read(0x100000+777, len(write))))
	for k, s := range sends {
		assert.True(t, bytes.Equal(s, mem.Read(0x200000+uint64(k)*0x10000, len(s))), "send %d", k)
	}
	assert.Equal(t, make([]byte, 4096), mem.Read(0x300000, 4096), "nothing written to the other stream's buffer")
	assert.Equal(t, uint32(4), pl.CurrentMSN(i2r, 0), "three messages completed on queue 0")
}
