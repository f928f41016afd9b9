package cycle

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/vecgen/replay"
	"github.com/mparx/mparx/vecgen/vector"
)

// BenchmarkModel runs the "aligned" vector through the model alone (the
// bench's software and checks included) and reports model cycles per
// second; the baseline in the same run is the bench without the model's
// per-cycle work (fastpath.System and the golden receiver only).
func BenchmarkModel(b *testing.B) {
	v, err := vector.Load(filepath.Join("..", "..", "vectors", "aligned"))
	require.NoError(b, err)
	opt := Options{Slots: 1024, STagCount: 256, RQDepth: 8, Lanes: 8, Seed: 1}
	b.Run("bench+model", func(b *testing.B) {
		var cycles uint64
		for b.Loop() {
			bn := NewBench(opt, NewReady(NoStall, 1))
			m := New(Config{DataWidth: 64, MaxFrame: JumboFrame, ConnCount: 1024, RQDepth: 8, Window: v.Setup.Receiver.Window, DDPVersion: v.Setup.Receiver.DDPVersion})
			rep, err := bn.Run(workload(b, v, opt), &ModelDUT{M: m, Bench: bn})
			require.NoError(b, err)
			cycles += rep.Cycles
		}
		b.ReportMetric(float64(cycles)/b.Elapsed().Seconds(), "cycles/s")
	})
	b.Run("baseline-functional", func(b *testing.B) {
		for b.Loop() {
			sys, err := replay.NewSystem(&v.Setup, 1024, 256, 8)
			require.NoError(b, err)
			for _, f := range v.Frames {
				sys.Frame(f.Data)
			}
		}
	})
}
