package cycle

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/vecgen/vector"
)

// The model alone on every vector: every frame decided as fastpath.System
// decides it, with its events, exception frames and host writes, and the
// union of hardware and software equal to the golden receiver, under each
// backpressure pattern with idle cycles and bad-FCS frames on the input.
func TestVectorsModelOnly(t *testing.T) {
	dirs, err := vector.Dirs(filepath.Join("..", "..", "vectors"))
	require.NoError(t, err)
	for _, width := range []int{64, 128, 256, 512} {
		for _, p := range []Pattern{NoStall, Random50, Stalls} {
			t.Run(fmt.Sprintf("w%d/%s", width, p), func(t *testing.T) {
				var cycles, beats uint64
				var st Stats
				for _, dir := range dirs {
					v, err := vector.Load(dir)
					require.NoError(t, err)
					opt := Options{Slots: 1024, STagCount: 256, RQDepth: 8, Lanes: width / 8, Seed: uint64(width), GapProb: 0.3, MaxGap: 20, FCSBad: 0.02, Noise: 0.5, Oversize: 1, MaxFrame: JumboFrame}
					b := NewBench(opt, NewReady(p, uint64(width)))
					m := New(Config{DataWidth: width, MaxFrame: JumboFrame, ConnCount: 1024, RQDepth: 8, DDPVersion: v.Setup.Receiver.DDPVersion, Window: v.Setup.Receiver.Window})
					rep, err := b.Run(workload(t, v, opt), &ModelDUT{M: m, Bench: b})
					require.NoError(t, err, "vector %s", v.Setup.Name)
					cycles += rep.Cycles
					beats += rep.Beats
					st.Add(rep.Stats)
				}
				t.Logf("%d cycles, %d beats; exercised: %v", cycles, beats, st)
			})
		}
	}
}
