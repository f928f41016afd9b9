package cosim_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim"
)

// The C++ AXI4 slave's generator draws what Go's math/rand/v2 draws from a
// PCG with the same seeds: Uint64, Float64 and IntN (powers of two, small
// and large bounds, a bound that rejects often), so that the slave and the
// Go model make the same choices.
func TestGoRandMatchesGo(t *testing.T) {
	for _, seeds := range [][2]uint64{{1, 0x6178692d6d656d}, {0, 0}, {0xdeadbeef, 42}, {math.MaxUint64, 7}} {
		const n = 2000
		r := rand.New(rand.NewPCG(seeds[0], seeds[1]))
		for i, got := range cosim.GoRand(seeds[0], seeds[1], 0, 0, n) {
			require.Equal(t, r.Uint64(), got, "Uint64 draw %d, seeds %v", i, seeds)
		}
		r = rand.New(rand.NewPCG(seeds[0], seeds[1]))
		for i, got := range cosim.GoRand(seeds[0], seeds[1], 1, 0, n) {
			require.Equal(t, r.Float64(), math.Float64frombits(got), "Float64 draw %d, seeds %v", i, seeds)
		}
		for _, mod := range []uint64{1, 2, 7, 49, 61, 64, 1000, 1<<63 + 1, math.MaxUint64} {
			r = rand.New(rand.NewPCG(seeds[0], seeds[1]))
			for i, got := range cosim.GoRand(seeds[0], seeds[1], 2, mod, n) {
				var want uint64
				if mod <= math.MaxInt64 {
					want = uint64(r.IntN(int(mod)))
				} else {
					want = r.Uint64N(mod)
				}
				require.Equal(t, want, got, "IntN(%d) draw %d, seeds %v", mod, i, seeds)
			}
		}
	}
}
