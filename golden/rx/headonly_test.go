package rx

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/mpa"
)

// TestHeadersOnlyDeframe runs tagged and untagged messages (one naming the
// other half connection's STag, one FPDU with a bad CRC), over a
// re-segmented, reordered stream with and without markers, through a
// receiver whose placer keeps what it places and one whose placer
// discards it (which copies only the headers of each FPDU's content,
// ulpduHead), and expects the same events.
func TestHeadersOnlyDeframe(t *testing.T) {
	for _, markers := range []bool{false, true} {
		rng := rand.New(rand.NewPCG(9, 9))
		c := stdConn(markers, true)
		mul := mpa.MULPDU(1460, markers)
		random := func(n int) []byte {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
			return b
		}
		var ulpdus [][]byte
		ulpdus = append(ulpdus, message(ddp.Header{Tagged: true, Version: 1, STag: 0x1000, TO: 777}, random(30000), mul)...)
		for k, n := range []int{9000, 1, 20000} {
			ulpdus = append(ulpdus, message(ddp.Header{Version: 1, ULPCtrl: 0x43, QN: 0, MSN: uint32(k + 1)}, random(n), mul)...)
		}
		ulpdus = append(ulpdus, message(ddp.Header{Tagged: true, Version: 1, STag: 0x2000, TO: 0}, random(100), mul)...)
		for _, u := range ulpdus {
			c.i2r.Add(u)
		}
		f := c.i2r.FPDUs[len(c.i2r.FPDUs)/2]
		c.i2r.Data[f.Off+f.Len-1] ^= 0x01 // a CRC that fails
		segs := c.i2r.Random(rng, 200, 1460)
		rng.Shuffle(len(segs), func(a, b int) { segs[a], segs[b] = segs[b], segs[a] })
		frames := append(c.startupFrames(t), segFrames(t, c.tu, segs)...)

		events := func(discard bool) []Event {
			mem := ddp.NewMemory()
			mem.SetDiscard(discard)
			pl := ddp.NewPlacer(mem)
			r := New(Config{Placer: pl})
			i2r, r2i := r.AddConn(c.spec())
			require.NoError(t, pl.RegisterSTag(0x1000, i2r, 0x100000, 1<<20))
			require.NoError(t, pl.RegisterSTag(0x2000, r2i, 0x300000, 4096))
			for k := 0; k < 3; k++ {
				require.NoError(t, pl.PostRecv(i2r, 0, 0x200000+uint64(k)*0x10000, 0x10000))
			}
			want := -1
			if discard {
				want = headersOnly
			}
			require.Equal(t, want, r.ulpduHead())
			for _, b := range frames {
				r.Frame(b)
			}
			return r.Events()
		}
		kept := events(false)
		assert.Positive(t, countKind(kept, Placed), "markers %v", markers)
		assert.Len(t, errorsOf(kept), 1, "markers %v: the bad CRC", markers)
		assert.Equal(t, kept, events(true), "markers %v", markers)
	}
}
