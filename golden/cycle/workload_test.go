package cycle

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/vecgen/replay"
	"github.com/mparx/mparx/vecgen/vector"
)

// workload sets up vector v for Bench.Run with the table sizes of opt.
func workload(tb testing.TB, v *vector.Vector, opt Options) Workload {
	sys, err := replay.NewSystem(&v.Setup, opt.Slots, opt.STagCount, opt.RQDepth)
	require.NoError(tb, err)
	g, err := replay.NewGolden(&v.Setup, rx.Config{Digests: true})
	require.NoError(tb, err)
	w := Workload{Name: v.Setup.Name, Frames: v.Data(), System: sys, Golden: g.Receiver, Memory: g.Placer.Memory()}
	for _, b := range v.Setup.Buffers() {
		w.Buffers = append(w.Buffers, Buffer(b))
	}
	return w
}
