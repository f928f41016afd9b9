package rx

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/cycle"
	"github.com/mparx/mparx/vecgen/vector"
)

var (
	traceDir = flag.String("trace", "", "directory for the waveform of a failing run (default: $MPARX_TRACE or the temporary directory)")
	only     = flag.String("vector", "", "run only the vectors whose name contains this")
	except   = flag.String("except", "", "leave out the vectors whose name contains this")
	patterns = flag.String("patterns", "none,random,stalls", "backpressure patterns")
)

// Every vector through the RTL and the cycle model in lockstep, at each
// co-simulation width and backpressure pattern: every output equal every
// cycle, every frame decided as golden/fastpath decides it, host writes
// exactly the hardware's placements, and hardware plus software equal to
// the golden receiver.
func TestLockstep(t *testing.T) {
	dirs, err := vector.Dirs(filepath.Join("..", "..", "vectors"))
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	var vs []*vector.Vector
	for _, d := range dirs {
		v, err := vector.Load(d)
		require.NoError(t, err)
		if strings.Contains(v.Setup.Name, *only) && (*except == "" || !strings.Contains(v.Setup.Name, *except)) {
			vs = append(vs, v)
		}
	}
	known := map[string]int{}
	for _, width := range Widths {
		for _, p := range strings.Split(*patterns, ",") {
			t.Run(fmt.Sprintf("w%d/%s", width, p), func(t *testing.T) {
				var cycles, beats uint64
				var frames int
				var st cycle.Stats
				start := time.Now()
				for i, v := range vs {
					rep, err := RunLockstep(v, LockstepOptions{Width: width, Pattern: cycle.Pattern(p), Seed: uint64(1000*width + i), TraceDir: *traceDir})
					var mm *Mismatch
					if errors.As(err, &mm) && mm.Known != "" {
						t.Logf("%s: known issue %q at cycle %d (%s rtl %s model %s); the rest of this run is not checked",
							v.Setup.Name, mm.Known, mm.Cycle, mm.Signal, mm.RTL, mm.Model)
						known[mm.Known]++
						continue
					}
					require.NoError(t, err)
					cycles += rep.Cycles
					beats += rep.Beats
					frames += rep.Frames
					st.Add(rep.Stats)
				}
				t.Logf("%d vectors, %d frames, %d beats in %d cycles (%.2f beats/cycle), %v",
					len(vs), frames, beats, cycles, float64(beats)/float64(cycles), time.Since(start).Round(time.Millisecond))
				t.Logf("exercised: %v", st)
			})
		}
	}
	if *only == "" && *except == "" && *patterns == "none,random,stalls" {
		for _, k := range KnownIssues {
			if known[k.Name] == 0 {
				t.Errorf("known issue %q did not show in any run: if it is fixed, take it off KnownIssues", k.Name)
			}
		}
	}
}

// A model that is wrong on purpose (L_WALK one more than documented): the
// lockstep names the vector, the cycle and the signal, and leaves a
// waveform of the failing run.
func TestMismatchReport(t *testing.T) {
	v, err := vector.Load(filepath.Join("..", "..", "vectors", "aligned-one-per-segment"))
	require.NoError(t, err)
	dir := t.TempDir()
	_, err = RunLockstep(v, LockstepOptions{Width: 64, Pattern: cycle.NoStall, Seed: 1, TraceDir: dir,
		Model: func(c *cycle.Config) { c.LWalk = cycle.LWalk(64) + 1 }})
	var mm *Mismatch
	require.ErrorAs(t, err, &mm)
	require.Equal(t, "aligned-one-per-segment", mm.Vector)
	require.Equal(t, "cfg_ready", mm.Signal)
	require.Equal(t, "0x0", mm.RTL, "the RTL's first frame is in the verdict stage V1 (cfg_ready low) a cycle before the wrong model's")
	require.Positive(t, mm.Cycle)
	require.Contains(t, err.Error(), fmt.Sprintf("cycle %d: cfg_ready", mm.Cycle))
	st, err := os.Stat(mm.Trace)
	require.NoError(t, err, "waveform %s", mm.Trace)
	require.Positive(t, st.Size())
	require.Equal(t, dir, filepath.Dir(mm.Trace))
}
