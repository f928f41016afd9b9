// Package delay tests rtl/mpa_rx_delay.v: out_data is in_data DEPTH cycles
// earlier, zero for the cycles after a reset.
package delay

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim/internal/onecycle"
)

const width = 40

func TestDelay(t *testing.T) {
	for _, depth := range []int{0, 3} {
		t.Run(fmt.Sprintf("depth%d", depth), func(t *testing.T) {
			d := onecycle.Open(t, fmt.Sprintf("mpa_rx_delay_d%d", depth))
			rng := rand.New(rand.NewPCG(3, uint64(depth)))
			var hist []uint64
			for c := 0; c < 5000; c++ {
				if c%1000 == 999 {
					// a reset in the middle: the line holds zeros after it
					d.Set("rst", 1)
					d.Step()
					d.Set("rst", 0)
					hist = nil
					continue
				}
				v := rng.Uint64() & (1<<width - 1)
				d.Set("in_data", v)
				hist = append(hist, v)
				d.Step()
				want := uint64(0)
				if i := len(hist) - 1 - depth; i >= 0 {
					want = hist[i]
				}
				require.Equal(t, want, d.Get("out_data"), "cycle %d", c)
			}
		})
	}
}
